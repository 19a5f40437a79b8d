//! The documentation as a test: every `$ somaria ...` transcript in the
//! README and the book (a fenced `console` block) is run and its output
//! compared line by line, and every relative link of the book and the
//! README names a file that exists.
//!
//! The transcripts are run by trycmd, the ecosystem's harness for
//! literate CLI tests: it reads the Markdown pages as they are, merges
//! standard error into the output as a terminal shows it, elides `[..]`
//! within a line and `...` over lines, and rewrites the pages with
//! `TRYCMD=overwrite` when an output changes on purpose (then mask the
//! times again with `[..]`). trycmd reads a backslash in an output as a
//! path separator and compares it as `/`, so a line that prints one
//! elides it with `[..]`:
//!
//! ```text
//! TRYCMD=overwrite cargo test --release --test cli docs::
//! ```

use std::path::{Path, PathBuf};

/// The pages whose transcripts are run: the README and every page of the
/// book.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![PathBuf::from("README.md")];
    collect_markdown(Path::new("docs/src"), &mut pages);
    pages
}

fn collect_markdown(dir: &Path, into: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_markdown(&path, into);
        } else if path.extension().is_some_and(|e| e == "md") {
            into.push(path);
        }
    }
}

#[test]
fn every_shown_command_prints_what_its_page_shows() {
    let cases = trycmd::TestCases::new();
    cases.register_bin("somaria", Path::new(env!("CARGO_BIN_EXE_somaria")));
    // No colours or progress display: the pages show plain text.
    cases.env("NO_COLOR", "1");
    for page in pages() {
        cases.case(page);
    }
    cases.run();
}

/// The targets of a page's Markdown links and images that are files of
/// this repository: neither a web address nor an anchor of the same page.
fn local_links(text: &str) -> Vec<String> {
    let mut links = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            let path = target.split('#').next().unwrap_or("");
            if !path.is_empty() && !path.contains("://") && !path.starts_with("mailto:") {
                links.push(path.to_string());
            }
            rest = &after[end..];
        }
    }
    links
}

#[test]
fn every_link_of_the_book_and_readme_names_a_file() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let dir = page.parent().unwrap();
        for link in local_links(&text) {
            if !dir.join(&link).exists() {
                broken.push(format!("{}: {link}", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "links to files that do not exist:\n{}", broken.join("\n"));
}

/// Every page of the book is in its table of contents, so that none is
/// built unreachable (mdbook builds only the pages SUMMARY.md lists).
#[test]
fn every_page_of_the_book_is_in_its_table_of_contents() {
    let summary = std::fs::read_to_string("docs/src/SUMMARY.md").unwrap();
    let listed = local_links(&summary);
    let missing: Vec<String> = pages()
        .iter()
        .filter_map(|page| page.strip_prefix("docs/src").ok())
        .map(|page| page.to_string_lossy().into_owned())
        .filter(|page| page != "SUMMARY.md" && !listed.contains(page))
        .collect();
    assert!(missing.is_empty(), "pages of docs/src that SUMMARY.md does not list: {missing:?}");
}

#[test]
fn the_link_reader_finds_links_and_skips_code_and_addresses() {
    let text = "see [a](guide/a.md#top) and ![b](../pictures/b.svg \"title\")\n\
                [web](https://example.org) [here](#anchor)\n```text\n[not](code.md)\n```\n";
    assert_eq!(local_links(text), ["guide/a.md", "../pictures/b.svg"]);
}

/// The committed manual page is the one `somaria manpage` makes from the
/// clap definitions today.
#[test]
fn the_manual_page_is_current() {
    const PAGE: &str = "docs/src/reference/somaria.1";
    let made = std::process::Command::new(env!("CARGO_BIN_EXE_somaria")).arg("manpage").output().unwrap();
    assert!(made.status.success(), "somaria manpage: {}", String::from_utf8_lossy(&made.stderr));
    let made = String::from_utf8(made.stdout).unwrap();
    assert!(made.contains(".TH somaria 1") && made.contains("Find a solution and check it"), "{made}");
    if std::env::var_os("SOMARIA_WRITE_MANPAGE").is_some() {
        std::fs::write(PAGE, &made).unwrap();
    }
    let committed = std::fs::read_to_string(PAGE).unwrap_or_default();
    assert!(
        committed == made,
        "{PAGE} is out of date; write it anew with \
         `cargo run --release -- manpage > {PAGE}` (or SOMARIA_WRITE_MANPAGE=1 with this test) and commit it"
    );
}

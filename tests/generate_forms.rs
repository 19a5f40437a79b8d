//! `somaria generate` on the forms a template may take and the options that
//! shape a puzzle: a byte-order mark and CRLF line endings are kept in
//! every kind's output (which loads and counts one solution), `--symmetry`
//! is applied where it has a meaning (1-D clue arrays, fans grids) and
//! refused where it has none, and fans grids keep the template's share of
//! fans and are never empty.

mod common;

use common::cli::{somaria, write_model};
use somaria::generate::{self, GenerateOptions, GenerateProgress, Generated};
use somaria::model::Source;
use somaria::puzzles::{self, CountOptions};

/// A 4 × 4 Sudoku with no givens, a design table and a design title (the
/// model has none of its own, so the title goes on a line of its own).
const SUDOKU4: &str = r#"kind = "csp"
show = ["cell"]

[params]
givens = [
  [0, 0, 0, 0],
  [0, 0, 0, 0],
  [0, 0, 0, 0],
  [0, 0, 0, 0],
]

[vars]
cell = { index = ["1..4", "1..4"], domain = "1..4" }

[[constraint]]
expr = 'forall(i, j in 1..4 where givens[i, j] > 0)(cell[i, j] = givens[i, j])'

[[constraint]]
expr = 'forall(i in 1..4)(alldifferent(row(cell, i)))'

[[constraint]]
expr = 'forall(j in 1..4)(alldifferent(col(cell, j)))'

[[constraint]]
expr = 'forall(r, c in 0..1)(alldifferent([cell[2 * r + i, 2 * c + j] | i, j in 1..2]))'

[design]
title = "Made Sudoku"

[[design.clue]]
param = "givens"
blank = 0
read = "cell"
"#;

fn fans_template() -> String {
    "kind = \"fans\"\ngrid = \"\"\"\nF....\n.....\n..F..\n.#...\nF...F\n\"\"\"\n[design]\ntitle = \"Made fans\"\n"
        .to_string()
}

fn tiles_template() -> String {
    "kind = \"tile-cover\"\nleave_uncovered = 0\ngrid = \"\"\"\nS....\n.....\n.....\n.....\n....#\n\"\"\"\n\
     [design]\ntitle = \"Made room\"\n"
        .to_string()
}

fn run(name: &str, text: &str, options: &GenerateOptions) -> Vec<Result<Generated, somaria::puzzles::Error>> {
    let designer = puzzles::designer(&Source::from_text(name, text)).unwrap();
    generate::generate(designer.as_ref(), options, &GenerateProgress::default()).unwrap()
}

fn count_text(text: &str) -> u64 {
    let puzzle = puzzles::load(&Source::from_text("g.toml", text)).unwrap();
    puzzle.count(&CountOptions::default()).unwrap().count
}

fn crlf(text: &str) -> String {
    text.replace('\n', "\r\n")
}

/// Whether every line of `text` ends in CRLF (and none in a lone LF).
fn all_crlf(text: &str) -> bool {
    text.match_indices('\n').all(|(at, _)| at > 0 && text.as_bytes()[at - 1] == b'\r')
}

#[test]
fn a_byte_order_mark_and_crlf_endings_are_kept_in_every_kinds_output() {
    for (name, template) in [("s.toml", SUDOKU4.to_string()), ("f.toml", fans_template()), ("r.toml", tiles_template())]
    {
        for (bom, windows) in [(true, false), (false, true), (true, true)] {
            let body = if windows { crlf(&template) } else { template.clone() };
            let text = if bom { format!("\u{feff}{body}") } else { body };
            let options = GenerateOptions { count: 2, seed: 5, ..GenerateOptions::default() };
            let made: Vec<Generated> = run(name, &text, &options)
                .into_iter()
                .map(|r| r.unwrap_or_else(|e| panic!("{name} (mark {bom}, CRLF {windows}): {e}")))
                .collect();
            assert_eq!(made.len(), 2);
            for puzzle in made {
                let model = &puzzle.model;
                assert_eq!(model.starts_with('\u{feff}'), bom, "{name}: the mark first, or none:\n{model}");
                assert_eq!(model.matches('\u{feff}').count(), usize::from(bom), "{name}: one mark at most");
                assert!(model.trim_start_matches('\u{feff}').starts_with("# Made by"), "{name}: the header first");
                if windows {
                    assert!(all_crlf(model), "{name}: every line ends in CRLF:\n{model:?}");
                } else {
                    assert!(!model.contains('\r'), "{name}: no CR in an LF template's output:\n{model:?}");
                }
                assert!(model.contains("title = \"Made"), "{name}: the design title:\n{model}");
                assert_eq!(count_text(model), 1, "{name}: {model}");
            }
        }
    }
}

/// The CLI writes the same bytes: a template with a mark and CRLF endings
/// gives a file that `count` reads as one solution.
#[test]
fn the_cli_writes_a_marked_crlf_template_s_puzzle_that_loads() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let template = write_model(dir, "t.toml", format!("\u{feff}{}", crlf(SUDOKU4)));
    let out = somaria().args(["generate", template.to_str().unwrap(), "--seed", "2"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with('\u{feff}') && all_crlf(&text));
    let made = write_model(dir, "made.toml", &text);
    let out = somaria().args(["count", made.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

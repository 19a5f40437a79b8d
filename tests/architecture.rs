//! The layering of `src/`: no two top-level modules depend on each other,
//! directly or through others, so data flows one way. A module's
//! dependencies are the `crate::name` paths in its code, leaving out
//! comments and test code (tests may reach anywhere).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The code of a source file without comments and without the test module
/// that, by the project's habit, ends a file.
fn code_of(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            break;
        }
        if !trimmed.starts_with("//") {
            code.push_str(line);
            code.push('\n');
        }
    }
    code
}

/// The top-level modules each file's code names as `crate::name`.
fn uses(file: &Path, found: &mut BTreeSet<String>) {
    let text = std::fs::read_to_string(file).unwrap();
    let code = code_of(&text);
    for (at, _) in code.match_indices("crate::") {
        let name: String = code[at + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if !name.is_empty() {
            found.insert(name);
        }
    }
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && path.file_name().is_some_and(|n| n != "tests.rs") {
            out.push(path);
        }
    }
}

/// Each top-level module of the library and the others it uses.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for entry in std::fs::read_dir("src").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if matches!(name.as_str(), "main" | "lib" | "cli") {
            continue;
        }
        let mut sources = Vec::new();
        if path.is_dir() {
            files(&path, &mut sources);
        } else {
            sources.push(path.clone());
        }
        let used = graph.entry(name.clone()).or_insert_with(BTreeSet::new);
        for file in sources {
            uses(&file, used);
        }
        used.remove(&name);
    }
    graph
}

/// A cycle through `graph`, as the modules along it, when there is one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if !done.insert(node.to_string()) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_top_level_modules_depend_on_each_other_one_way() {
    let graph = module_graph();
    assert!(graph.contains_key("solver") && graph.contains_key("puzzles"), "{graph:?}");
    if let Some(cycle) = cycle(&graph) {
        panic!("the modules {} depend on each other; the graph: {graph:#?}", cycle.join(" -> "));
    }
}

#[test]
fn the_check_finds_a_cycle() {
    let graph: BTreeMap<String, BTreeSet<String>> = [("a", "b"), ("b", "c"), ("c", "a")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), BTreeSet::from([v.to_string()])))
        .collect();
    assert_eq!(cycle(&graph), Some(vec!["a", "b", "c", "a"].into_iter().map(String::from).collect()));
    assert!(code_of("use crate::a;\n// crate::b\n#[cfg(test)]\nuse crate::c;\n").contains("crate::a"));
    assert!(!code_of("// crate::b\n#[cfg(test)]\nuse crate::c;\n").contains("crate::"));
}

/// The crates that only the command line (`src/main.rs` and `src/cli/`)
/// may use: the library builds without them (the `cli` feature).
const CLI_CRATES: &[&str] = &["clap", "ctrlc", "indicatif"];

/// The crates of [`CLI_CRATES`] that `code` names, as a whole word.
fn cli_crates_named(code: &str) -> Vec<&'static str> {
    let words: BTreeSet<&str> = code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).collect();
    CLI_CRATES.iter().copied().filter(|name| words.contains(name)).collect()
}

#[test]
fn no_module_but_the_command_line_names_its_crates() {
    let mut sources = Vec::new();
    files(Path::new("src"), &mut sources);
    assert!(sources.len() > 50, "{sources:?}");
    let command_line = |path: &Path| path.starts_with("src/cli") || path == Path::new("src/main.rs");
    let mut named = BTreeMap::new();
    for path in &sources {
        let found = cli_crates_named(&code_of(&std::fs::read_to_string(path).unwrap()));
        if !found.is_empty() {
            named.insert(path.display().to_string(), found);
        }
    }
    let outside: Vec<_> = named.iter().filter(|(path, _)| !command_line(Path::new(path.as_str()))).collect();
    assert!(outside.is_empty(), "only src/cli and src/main.rs may name {CLI_CRATES:?}; found {outside:?}");
    // The check sees them where they are.
    assert_eq!(named.get("src/main.rs").map(Vec::as_slice), Some(&["clap", "ctrlc"][..]), "{named:?}");
    assert_eq!(cli_crates_named("use clap::Parser;\nlet bar = indicatif::ProgressBar::new(1);"), ["clap", "indicatif"]);
    assert!(cli_crates_named("let clapped = ctrlcx;").is_empty());
}

#[test]
fn the_command_line_crates_and_rayon_are_behind_default_features() {
    let manifest: toml::Table = std::fs::read_to_string("Cargo.toml").unwrap().parse().unwrap();
    let feature = |name: &str| -> Vec<String> {
        let list = manifest["features"][name].as_array().unwrap_or_else(|| panic!("no feature {name}"));
        list.iter().map(|v| v.as_str().unwrap().to_string()).collect()
    };
    for (dependency, behind) in CLI_CRATES.iter().map(|&c| (c, "cli")).chain([("rayon", "parallel")]) {
        let entry = &manifest["dependencies"][dependency];
        assert_eq!(entry.get("optional").and_then(|v| v.as_bool()), Some(true), "{dependency}: {entry}");
        assert!(feature(behind).contains(&format!("dep:{dependency}")), "{dependency} is not in {behind}");
    }
    assert_eq!(feature("default"), ["cli", "parallel"]);
    let binaries = manifest["bin"].as_array().unwrap();
    let somaria = binaries.iter().find(|b| b["name"].as_str() == Some("somaria")).unwrap();
    assert_eq!(somaria["required-features"].as_array().unwrap(), &[toml::Value::from("cli")]);
}

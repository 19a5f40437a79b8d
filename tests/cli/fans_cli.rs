//! The CLI contract on fan puzzles: output shapes, exit codes, `--limit`
//! and `--dimacs`.

use predicates::prelude::*;

use crate::common;

use common::cli::{json_of, somaria, write_model};
use common::dimacs;
use common::reports::formula_size;

const SHRINE_SOLUTION: [(usize, usize, &str); 6] =
    [(0, 0, "right"), (0, 3, "down"), (1, 2, "left"), (2, 3, "left"), (3, 0, "right"), (3, 4, "up")];

#[test]
fn the_shrine_is_solved_with_the_known_directions() {
    let out = somaria().args(["solve", "models/akh-vaquot.toml", "--format", "json"]).assert().success();
    let json = json_of(&out.get_output().stdout);
    assert_eq!(json["kind"], "fans");
    assert_eq!(json["status"], "solved");
    let fans = json["solution"]["fans"].as_array().unwrap();
    let found: Vec<(usize, usize, &str)> = fans
        .iter()
        .map(|f| (f["row"].as_u64().unwrap() as usize, f["col"].as_u64().unwrap() as usize, f["dir"].as_str().unwrap()))
        .collect();
    assert_eq!(found, SHRINE_SOLUTION);
    for (i, fan) in fans.iter().enumerate() {
        assert_eq!(fan["index"], i);
    }
    assert!(json["stats"]["variables"].as_u64().unwrap() > 0);
    assert!(json["stats"]["clauses"].as_u64().unwrap() > 0);
    assert!(json["stats"]["solve_ms"].is_number());
}

#[test]
fn the_text_output_draws_arrows_on_the_fans() {
    somaria()
        .args(["solve", "models/akh-vaquot.toml"])
        .assert()
        .success()
        .stdout(predicate::str::contains("→ W W ↓ W\nW W ← W W\nW W W ← W\n→ W W W ↑"))
        .stdout(predicate::str::contains("solved"));
}

#[test]
fn the_listed_shrine_gives_the_same_directions_without_cells() {
    let out = somaria().args(["solve", "models/akh-vaquot-listed.toml", "--format", "json"]).assert().success();
    let json = json_of(&out.get_output().stdout);
    let dirs: Vec<&str> =
        json["solution"]["fans"].as_array().unwrap().iter().map(|f| f["dir"].as_str().unwrap()).collect();
    // Column-major numbering of the article: (0,0), (3,0), (1,2), (0,3), (2,3), (3,4).
    assert_eq!(dirs, ["right", "right", "left", "down", "left", "up"]);
    assert!(json["solution"]["fans"][0].get("row").is_none());
}

#[test]
fn both_shrine_files_count_exactly_one_solution() {
    for model in ["models/akh-vaquot.toml", "models/akh-vaquot-listed.toml"] {
        let out = somaria().args(["count", model, "--format", "json"]).assert().success();
        let json = json_of(&out.get_output().stdout);
        assert_eq!(json["count"], 1, "{model}");
        assert_eq!(json["complete"], true, "{model}");
        assert_eq!(json["kind"], "fans");
    }
    somaria()
        .args(["count", "models/akh-vaquot.toml"])
        .assert()
        .success()
        .stdout(predicate::str::contains("1 solution, all found; the puzzle is unique"));
}

#[test]
fn limit_stops_the_count_and_says_it_is_incomplete() {
    let dir = tempfile::tempdir().unwrap();
    // One lone fan with nothing to blow on: four solutions.
    let model = write_model(dir.path(), "free.toml", "kind = \"fans\"\ngrid = \"F\"\n");
    let out = somaria().args(["count"]).arg(&model).args(["--format", "json"]).assert().success();
    assert_eq!(json_of(&out.get_output().stdout)["count"], 4);
    let out = somaria().args(["count"]).arg(&model).args(["--limit", "2", "--format", "json"]).assert().success();
    let json = json_of(&out.get_output().stdout);
    assert_eq!((json["count"].as_u64(), json["complete"].as_bool()), (Some(2), Some(false)));
    let out = somaria().args(["count"]).arg(&model).args(["--limit", "5", "--format", "json"]).assert().success();
    let json = json_of(&out.get_output().stdout);
    assert_eq!((json["count"].as_u64(), json["complete"].as_bool()), (Some(4), Some(true)));
    somaria().args(["count"]).arg(&model).args(["--limit", "0"]).assert().code(2);
}

#[test]
fn an_unsolvable_grid_exits_1_with_null_solution_and_count_0() {
    let dir = tempfile::tempdir().unwrap();
    let model = write_model(dir.path(), "walled.toml", "kind = \"fans\"\ngrid = \"\"\"\nF#W\n\"\"\"\n");
    let out = somaria().args(["solve"]).arg(&model).args(["--format", "json"]).assert().code(1);
    let json = json_of(&out.get_output().stdout);
    assert_eq!(json["status"], "no_solution");
    assert!(json["solution"].is_null());
    assert_eq!(json["explanation"], "no fan direction reaches the weathercock at (0, 2)");
    let out = somaria().args(["count"]).arg(&model).args(["--format", "json"]).assert().success();
    assert_eq!(json_of(&out.get_output().stdout)["count"], 0);
    somaria().args(["solve"]).arg(&model).assert().code(1).stdout(predicate::str::contains("no solution"));
}

#[test]
fn dimacs_output_is_the_formula_that_was_solved() {
    let dir = tempfile::tempdir().unwrap();
    let cnf_path = dir.path().join("shrine.cnf");
    somaria().args(["solve", "models/akh-vaquot.toml", "--dimacs"]).arg(&cnf_path).assert().success();
    let text = std::fs::read_to_string(&cnf_path).unwrap();
    let out = somaria().args(["solve", "models/akh-vaquot.toml", "--format", "json"]).assert().success();
    let stats = json_of(&out.get_output().stdout)["stats"].clone();
    assert_eq!(dimacs::header(&text), formula_size(&stats));
    // Another parser and solver agree it is satisfiable, and its models,
    // projected on the direction variables, are the one shrine solution.
    let model = dimacs::model(&text).expect("the formula has a model");
    let blows_right_first = model.iter().find(|l| l.to_dimacs().abs() == 4).unwrap();
    assert!(blows_right_first.is_positive(), "fan 0 blows right (variable 4 = fan 0 right)");
    assert!(text.contains("c var 4 = fan 0 at (0, 0) blows right"));
    assert!(!dir.path().join("shrine.cnf.partial").exists());
}

#[test]
fn usage_errors_exit_2() {
    somaria().assert().code(2);
    somaria().args(["solve"]).assert().code(2);
    somaria().args(["solve", "models/akh-vaquot.toml", "--format", "xml"]).assert().code(2);
    somaria()
        .args(["solve", "models/akh-vaquot.toml", "--engine", "magic"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown engine \"magic\"").and(predicate::str::contains("sat")));
    somaria()
        .args(["solve", "models/akh-vaquot.toml", "--solver", "nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown SAT backend \"nope\"").and(predicate::str::contains("varisat")));
}

#[test]
fn facts_and_compare_work_on_the_shrine() {
    let out = somaria().args(["facts", "models/akh-vaquot.toml", "--format", "json"]).assert().success();
    let json = json_of(&out.get_output().stdout);
    let forced: Vec<&str> = json["fans"].as_array().unwrap().iter().map(|f| f["forced"].as_str().unwrap()).collect();
    assert_eq!(forced, ["right", "down", "left", "left", "right", "up"]);
    let out = somaria().args(["compare", "models/akh-vaquot.toml", "--count", "--format", "json"]).assert().success();
    let json = json_of(&out.get_output().stdout);
    assert_eq!(json["agree"], true);
    assert_eq!(json["results"][0]["encoding"], "sat");
    assert_eq!(json["results"][0]["count"], 1);
}

/// Debian's minisat on the DIMACS file; needs `apt-get install minisat`.
/// Run with `cargo test --release --test cli -- --ignored fans_cli::`.
#[test]
#[ignore = "needs the external minisat binary"]
fn minisat_finds_the_dimacs_file_satisfiable() {
    let dir = tempfile::tempdir().unwrap();
    let cnf_path = dir.path().join("shrine.cnf");
    somaria().args(["solve", "models/akh-vaquot.toml", "--dimacs"]).arg(&cnf_path).assert().success();
    let out = std::process::Command::new("minisat").arg(&cnf_path).output().expect("minisat is installed");
    assert_eq!(out.status.code(), Some(10), "minisat's exit code for SATISFIABLE");
}

//! `somaria encode` writes the CNF an engine would solve, without solving.
//! varisat, reading the file on its own, must find it satisfiable exactly
//! when `solve` finds a solution with that engine; for a lazy engine, whose
//! starting formula leaves connectivity out, "no model" must still mean "no
//! solution" and a solution must still be a model.

use std::path::Path;

use proptest::prelude::*;

use crate::common;

use common::cli::{json_of, somaria, write_model};
use common::dimacs;
use common::reports::formula_size;

/// The verdict of `solve` with the engine, and whether the formula `encode`
/// wrote for it is satisfiable and said to be equisatisfiable.
fn verdicts(model: &Path, engine: &str, dir: &Path) -> (String, bool, bool) {
    let cnf = dir.join(format!("{engine}.cnf"));
    let out = somaria()
        .arg("encode")
        .arg(model)
        .args(["--engine", engine, "--format", "json", "-o"])
        .arg(&cnf)
        .assert()
        .success();
    let summary = json_of(&out.get_output().stdout);
    let formula = std::fs::read_to_string(&cnf).unwrap();
    assert_eq!(dimacs::header(&formula), formula_size(&summary), "the summary matches the file");
    let solved = somaria().arg("solve").arg(model).args(["--engine", engine, "--format", "json"]).output().unwrap();
    let status = json_of(&solved.stdout);
    (
        status["status"].as_str().unwrap().to_string(),
        dimacs::is_satisfiable(&formula),
        summary["equisatisfiable"] == true,
    )
}

fn check(model: &Path, engines: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    for engine in engines {
        let (status, satisfiable, equisatisfiable) = verdicts(model, engine, dir.path());
        let context = format!("{} --engine {engine}: {}", model.display(), std::fs::read_to_string(model).unwrap());
        if equisatisfiable {
            assert_eq!(satisfiable, status == "solved", "{context}");
        } else {
            assert!(satisfiable || status == "no_solution", "no model, yet a solution: {context}");
            assert!(status != "solved" || satisfiable, "a solution, yet no model: {context}");
        }
    }
}

#[test]
fn the_shipped_models_export_formulas_with_their_verdicts() {
    let tile = ["lazy", "lazy-nogood", "rank", "steps"];
    check(Path::new("models/heros-cave.toml"), &tile);
    check(Path::new("models/heros-cave-somaria.toml"), &["lazy", "rank"]);
    check(Path::new("models/tile-cover-end.toml"), &tile);
    check(Path::new("models/akh-vaquot.toml"), &["sat"]);
    check(Path::new("models/akh-vaquot-listed.toml"), &["sat"]);
    for vault in ["one-key", "back-through-the-door", "short-corridor", "locked-in", "two-doors"] {
        check(&Path::new("models/keys-doors").join(format!("{vault}.toml")), &["sat"]);
    }
}

#[test]
fn an_engine_without_a_cnf_is_refused_with_the_engines_that_have_one() {
    let out = somaria().args(["encode", "models/keys-doors/one-key.toml", "--engine", "bfs"]).assert().code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("does not build a CNF") && stderr.contains("sat"), "{stderr}");
    somaria().args(["encode", "models/akh-vaquot.toml", "--engine", "nope"]).assert().code(2);
}

#[test]
fn encode_writes_to_standard_output_by_default_with_its_notes() {
    let out = somaria().args(["encode", "models/heros-cave.toml"]).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("starting formula"), "the lazy formula says what it leaves out");
    assert!(text.contains("\np cnf "));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Random small rooms (with tiles to leave) and fan grids.
    #[test]
    fn random_models_export_formulas_with_their_verdicts(
        rows in prop::collection::vec("[.#]{4}", 3),
        start in 0usize..12,
        k in 0usize..2,
        fans in prop::collection::vec("[FW.#]{4}", 1..4),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let mut cells: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
        cells[start / 4][start % 4] = 'S';
        let tiles = cells.iter().flatten().filter(|&&c| c == '.').count();
        if tiles > 0 {
            let grid: Vec<String> = cells.iter().map(|r| r.iter().collect()).collect();
            let text = format!("kind = \"tile-cover\"\nleave_uncovered = {}\ngrid = '''\n{}\n'''\n", k.min(tiles), grid.join("\n"));
            check(&write_model(dir.path(), "room.toml", &text), &["lazy", "rank", "steps"]);
        }
        let text = format!("kind = \"fans\"\ngrid = '''\n{}\n'''\n", fans.join("\n"));
        check(&write_model(dir.path(), "fans.toml", &text), &["sat"]);
    }
}

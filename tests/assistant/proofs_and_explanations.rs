//! "No solution" is the verdict a designer stakes a puzzle on, so it must be
//! checkable: refutation proofs are checked by checkers that share no code
//! with the solver, and explanations are checked to be minimal.

use std::collections::HashSet;
use std::path::Path;

use proptest::prelude::*;
use serde_json::Value;
use somaria::grid::Grid;
use somaria::model::Source;
use somaria::puzzles::fans::{Cell, FanPuzzle, Hit, load_puzzle};

use crate::common;

use common::cli::{json_of, somaria, write_model};
use common::models::fans_model;
use common::proofs::{drat_refutes, varisat_refutes};
use common::{dimacs, rooms};

/// Solves `model` with `--dimacs` and `--proof`; returns the CNF, the proof
/// and the JSON report.
fn solve_with_proof(model: &Path, format: &str) -> (String, Vec<u8>, Value) {
    solve_with_proof_args(model, &[], format)
}

fn model_file(dir: &tempfile::TempDir, rows: &[String]) -> std::path::PathBuf {
    write_model(dir.path(), "m.toml", fans_model(&rows.join("\n")))
}

fn unsolvable(rows: &[String]) -> bool {
    let cells = rows.iter().map(|r| r.chars().map(|c| Cell::from_symbol(c).unwrap()).collect()).collect();
    FanPuzzle::from_grid(Grid::from_rows(cells).unwrap()).solve_directions().unwrap().is_none()
}

/// Grids dense with weathercocks, most of which cannot all spin.
fn crowded_grid() -> impl Strategy<Value = Vec<String>> {
    (2usize..=5, 2usize..=5).prop_flat_map(|(h, w)| {
        prop::collection::vec(
            prop::collection::vec(prop::sample::select(vec!['F', 'W', 'W', 'W', '.', '#']), w)
                .prop_map(|r| r.into_iter().collect::<String>()),
            h,
        )
    })
}

#[test]
fn proofs_of_a_known_unsolvable_grid_check_in_both_formats() {
    let dir = tempfile::tempdir().unwrap();
    let model = model_file(&dir, &["WFW".into(), ".W.".into(), "#.F".into()]);
    let (cnf, proof, json) = solve_with_proof(&model, "varisat");
    assert_eq!(json["status"], "no_solution");
    assert_eq!(json["proof"]["format"], "varisat");
    varisat_refutes(&cnf, &proof).unwrap();
    let (cnf, proof, _) = solve_with_proof(&model, "drat");
    drat_refutes(&cnf, &String::from_utf8(proof).unwrap()).unwrap();
}

#[test]
fn the_checkers_reject_a_proof_of_another_formula() {
    // Without the clause of the weathercock at (1, 1) the formula has models,
    // so no proof can refute it: both checkers must say no.
    let dir = tempfile::tempdir().unwrap();
    let model = model_file(&dir, &["WFW".into(), ".W.".into(), "#.F".into()]);
    let (cnf, proof, _) = solve_with_proof(&model, "varisat");
    let weakened: String = cnf.lines().filter(|l| *l != "2 0").map(|l| format!("{l}\n")).collect();
    let weakened = weakened.replace("p cnf 8 17", "p cnf 8 16");
    assert!(dimacs::is_satisfiable(&weakened), "the weakened formula has a model");
    assert!(varisat_refutes(&weakened, &proof).is_err());
    let (_, drat, _) = solve_with_proof(&model, "drat");
    assert!(drat_refutes(&weakened, &String::from_utf8(drat).unwrap()).is_err());
}

#[test]
fn a_solvable_puzzle_gets_no_proof_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("p.proof");
    let out = somaria()
        .args(["solve", "models/akh-vaquot.toml", "--format", "json", "--proof"])
        .arg(&proof)
        .assert()
        .success();
    let json = json_of(&out.get_output().stdout);
    assert!(json["proof"]["path"].is_null());
    assert!(json["proof"]["reason"].as_str().unwrap().contains("has a solution"));
    assert!(!proof.exists() && !dir.path().join("p.proof.partial").exists());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, max_global_rejects: 10_000, ..ProptestConfig::default() })]

    /// Random unsolvable grids: both proof formats check.
    #[test]
    fn proofs_of_random_unsolvable_grids_check(rows in crowded_grid()) {
        prop_assume!(unsolvable(&rows));
        let dir = tempfile::tempdir().unwrap();
        let model = model_file(&dir, &rows);
        let (cnf, proof, _) = solve_with_proof(&model, "varisat");
        prop_assert!(varisat_refutes(&cnf, &proof).is_ok());
        let (cnf, proof, _) = solve_with_proof(&model, "drat");
        prop_assert!(drat_refutes(&cnf, &String::from_utf8(proof).unwrap()).is_ok());
        #[cfg(feature = "cadical")]
        {
            let (cnf, proof, _) = solve_with_proof_args(&model, &["--solver", "cadical"], "drat");
            prop_assert!(drat_refutes(&cnf, &String::from_utf8(proof).unwrap()).is_ok());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    /// The explanation of a random unsolvable grid is a set of weathercocks
    /// that cannot all spin, and dropping any one lets the rest spin. Both
    /// claims are checked on fresh puzzles built from the listing, not on the
    /// formula the explanation came from.
    #[test]
    fn explanations_are_minimal_unsolvable_subsets(rows in crowded_grid()) {
        prop_assume!(unsolvable(&rows));
        let text = fans_model(&rows.join("\n"));
        let puzzle = load_puzzle(&Source::from_text("m.toml", text.clone())).unwrap();
        let dynamic = somaria::puzzles::load(&Source::from_text("m.toml", text)).unwrap();
        let report = dynamic.explain(&Default::default()).unwrap();
        prop_assert_eq!(report.status, somaria::puzzles::Status::NoSolution);
        let places: Vec<(usize, usize)> =
            report.constraints.iter().map(|c| (c.row.unwrap(), c.col.unwrap())).collect();
        let hits_of = |place: &(usize, usize)| -> Vec<Hit> {
            puzzle.weathercocks().iter().find(|w| w.place == Some(*place)).unwrap().hit_by.clone()
        };
        let subset = |skip: Option<usize>| {
            let lists = places.iter().enumerate().filter(|(i, _)| Some(*i) != skip).map(|(_, p)| hits_of(p)).collect();
            FanPuzzle::from_list(puzzle.num_fans(), lists).unwrap()
        };
        prop_assert!(subset(None).solve_directions().unwrap().is_none());
        for (i, place) in places.iter().enumerate() {
            prop_assert!(subset(Some(i)).solve_directions().unwrap().is_some(), "dropping {:?} still unsolvable", place);
        }
    }
}

#[test]
fn explain_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let model = model_file(&dir, &["WFW".into(), ".W.".into(), "#.F".into()]);
    let out = somaria().arg("explain").arg(&model).args(["--format", "json"]).assert().code(1);
    let json = json_of(&out.get_output().stdout);
    assert_eq!(json["status"], "no_solution");
    assert_eq!(json["constraints"].as_array().unwrap().len(), 2);
    assert!(json["sat_calls"].as_u64().unwrap() >= 2);
    assert_eq!(json["constraints"][0]["name"], "weathercock at (0, 0) spins");
    let out = somaria().args(["explain", "models/akh-vaquot.toml", "--format", "json"]).assert().success();
    let json = json_of(&out.get_output().stdout);
    assert_eq!(json["status"], "solved");
}

/// CaDiCaL's own tracer writes the DRAT proof, which the checker accepts;
/// it is the default format with `--solver cadical`, and the varisat format,
/// which CaDiCaL cannot write, is refused as bad input.
#[cfg(feature = "cadical")]
#[test]
fn cadical_writes_drat_proofs_that_check_and_refuses_the_varisat_format() {
    let dir = tempfile::tempdir().unwrap();
    let model = model_file(&dir, &["WFW".into(), ".W.".into(), "#.F".into()]);
    let (cnf, proof, json) = solve_with_proof_args(&model, &["--solver", "cadical"], "drat");
    assert_eq!(json["proof"]["format"], "drat");
    drat_refutes(&cnf, &String::from_utf8(proof).unwrap()).unwrap();
    let proof = dir.path().join("default.proof");
    let out = somaria()
        .arg("solve")
        .arg(&model)
        .args(["--solver", "cadical", "--format", "json", "--proof"])
        .arg(&proof)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json_of(&out.stdout)["proof"]["format"], "drat");
    let cnf_text = {
        let (cnf, _, _) = solve_with_proof(&model, "drat");
        cnf
    };
    drat_refutes(&cnf_text, &std::fs::read_to_string(&proof).unwrap()).unwrap();
    let refused = dir.path().join("refused.proof");
    let out = somaria()
        .arg("solve")
        .arg(&model)
        .args(["--solver", "cadical", "--proof-format", "varisat", "--proof"])
        .arg(&refused)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--solver cadical cannot write a varisat proof; expected --proof-format drat"), "{stderr}");
    assert!(!refused.exists());
}

/// Solves a model with extra arguments, `--dimacs` and `--proof`; returns the
/// CNF, the proof and the JSON report.
fn solve_with_proof_args(model: &Path, args: &[&str], format: &str) -> (String, Vec<u8>, Value) {
    let dir = tempfile::tempdir().unwrap();
    let (cnf, proof) = (dir.path().join("f.cnf"), dir.path().join("f.proof"));
    let out = somaria()
        .arg("solve")
        .arg(model)
        .args(args)
        .arg("--dimacs")
        .arg(&cnf)
        .arg("--proof")
        .arg(&proof)
        .args(["--proof-format", format, "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!dir.path().join("f.proof.partial").exists());
    let json = json_of(&out.stdout);
    (std::fs::read_to_string(cnf).unwrap(), std::fs::read(proof).unwrap(), json)
}

#[test]
fn keys_and_doors_sat_refutations_check_in_both_formats() {
    let dir = tempfile::tempdir().unwrap();
    let rooms = [("locked-in", "@.A.a"), ("two-rooms", "@.B.a\n##b##\n..A.."), ("sealed", "@.#a\n..#.\nb.#.")];
    for (name, grid) in rooms {
        let model = dir.path().join(format!("{name}.toml"));
        std::fs::write(&model, format!("kind = \"keys-doors\"\ngrid = \"\"\"\n{grid}\n\"\"\"\n")).unwrap();
        let (cnf, proof, json) = solve_with_proof_args(&model, &["--engine", "sat"], "varisat");
        assert_eq!(json["proof"]["format"], "varisat", "{name}");
        varisat_refutes(&cnf, &proof).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (cnf, proof, _) = solve_with_proof_args(&model, &["--engine", "sat"], "drat");
        drat_refutes(&cnf, &String::from_utf8(proof).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        // The exact search refutes too, but has no SAT proof to give.
        let out = somaria()
            .arg("solve")
            .arg(&model)
            .args(["--engine", "bfs", "--format", "json", "--proof"])
            .arg(dir.path().join("none.proof"))
            .assert()
            .code(1);
        let json = json_of(&out.get_output().stdout);
        assert!(json["proof"]["path"].is_null());
        assert!(json["proof"]["reason"].as_str().unwrap().contains("exact search"), "{name}");
    }
}

/// Rooms whose lazy refutation needs cuts added between solves, and Hero's
/// Cave itself: the proof must cover the cuts, which `--dimacs` includes.
#[test]
fn tile_cover_refutations_with_cuts_check_in_both_formats() {
    let dir = tempfile::tempdir().unwrap();
    let rooms = ["...S\n##..\n..##\n..##", "..#..\n.....\n...##\n..#S.", "...\n...\n###\n..#\n..S"];
    let mut models: Vec<std::path::PathBuf> = rooms
        .iter()
        .enumerate()
        .map(|(i, grid)| {
            let model = dir.path().join(format!("room{i}.toml"));
            std::fs::write(&model, format!("kind = \"tile-cover\"\ngrid = \"\"\"\n{grid}\n\"\"\"\n")).unwrap();
            model
        })
        .collect();
    models.push("models/heros-cave.toml".into());
    let mut cut_rounds = 0;
    for model in &models {
        for engine in ["lazy", "lazy-nogood", "rank", "steps"] {
            let args = ["--engine", engine, "--no-presolve"];
            let (cnf, proof, json) = solve_with_proof_args(model, &args, "varisat");
            assert_eq!(json["status"], "no_solution");
            if json["stats"]["sat_calls"].as_u64().unwrap() > 1 {
                cut_rounds += 1;
            }
            varisat_refutes(&cnf, &proof).unwrap_or_else(|e| panic!("{} {engine}: {e}", model.display()));
            let (cnf, proof, _) = solve_with_proof_args(model, &args, "drat");
            drat_refutes(&cnf, &String::from_utf8(proof).unwrap())
                .unwrap_or_else(|e| panic!("{} {engine}: {e}", model.display()));
        }
    }
    assert!(cut_rounds >= 3, "the rooms exercise refutations that needed cuts ({cut_rounds})");
}

/// Every walk from `S` over distinct tiles (at least one; ending on `E` when
/// there is one), as the set of cells it covers: a brute force that shares
/// nothing with the encodings.
fn covered_sets(rows: &[Vec<char>]) -> Vec<HashSet<(usize, usize)>> {
    let mut sets = Vec::new();
    rooms::walks(rows, &mut |path| {
        sets.push(path.iter().copied().collect());
        true
    });
    sets
}

fn small_room() -> impl Strategy<Value = Vec<Vec<char>>> {
    (2usize..=4, 2usize..=4, any::<prop::sample::Index>(), any::<bool>(), any::<prop::sample::Index>()).prop_flat_map(
        |(h, w, start, with_end, end)| {
            prop::collection::vec(prop::sample::select(vec!['.', '.', '.', '#']), h * w).prop_map(move |mut cells| {
                let s = start.index(h * w);
                cells[s] = 'S';
                let e = end.index(h * w);
                if with_end && e != s {
                    cells[e] = 'E';
                }
                cells.chunks(w).map(|r| r.to_vec()).collect::<Vec<Vec<char>>>()
            })
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    /// The tiles `explain` names cannot all be covered by one walk, and
    /// dropping any one of them lets a walk cover the rest; checked against
    /// every walk in the room.
    #[test]
    fn tile_cover_explanations_are_minimal(rows in small_room(), engine in prop::sample::select(vec!["lazy", "rank"])) {
        let text: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
        let model = format!("kind = \"tile-cover\"\ngrid = \"\"\"\n{}\n\"\"\"\n", text.join("\n"));
        let puzzle = somaria::puzzles::load(&Source::from_text("room.toml", model)).unwrap();
        let walks = covered_sets(&rows);
        let tiles = rows.iter().flatten().filter(|&&c| c == '.' || c == 'E').count();
        prop_assume!(!walks.iter().any(|w| w.len() == tiles));
        let options = somaria::puzzles::SolveOptions { engine: Some(engine.to_string()), ..Default::default() };
        let report = puzzle.explain(&options).unwrap();
        prop_assert_eq!(report.status, somaria::puzzles::Status::NoSolution);
        let named: Vec<(usize, usize)> = report.constraints.iter().map(|c| (c.row.unwrap(), c.col.unwrap())).collect();
        let covers = |set: &[(usize, usize)]| walks.iter().any(|w| set.iter().all(|p| w.contains(p)));
        prop_assert!(!covers(&named), "a walk covers all of {:?}", named);
        for i in 0..named.len() {
            let rest: Vec<(usize, usize)> = named.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, p)| *p).collect();
            prop_assert!(covers(&rest), "dropping {:?} still leaves {:?} uncoverable", named[i], rest);
        }
    }
}

#[test]
fn keys_doors_explanations_name_a_key_that_cannot_be_collected() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.toml");
    std::fs::write(&model, "kind = \"keys-doors\"\ngrid = \"\"\"\n@.A.a\n.b#..\n\"\"\"\n").unwrap();
    let out = somaria().arg("explain").arg(&model).args(["--format", "json"]).assert().code(1);
    let json = json_of(&out.get_output().stdout);
    assert_eq!(json["constraints"].as_array().unwrap().len(), 1);
    assert_eq!(json["constraints"][0]["name"], "collect key 'a' at (0, 4)");
    assert!(json["certificate"].as_str().unwrap().contains("door 'A'"));
    // Alone, that key still cannot be collected: the exact search agrees.
    std::fs::write(&model, "kind = \"keys-doors\"\ngrid = \"\"\"\n@.A.a\n...#..\n\"\"\"\n".replace("...#..", ".#..."))
        .unwrap();
    somaria().arg("solve").arg(&model).assert().code(1);
}

/// Runs `steps MODEL --proof FILE` (with `--given GIVEN` unless empty) and
/// checks each step's proof: FILE.N refutes FILE.N.cnf by the independent
/// DRAT checker, and without its last clause ("some new fact fails") the
/// formula has a model, so the refutation is of the step and not of its
/// constraints alone. Returns each step's formula and JSON.
fn step_proofs_check(model: &Path, proof: &Path, given: &str) -> Vec<(String, Value)> {
    let mut args = vec!["steps".to_string(), model.display().to_string(), "--format".into(), "json".into()];
    args.extend(["--proof".to_string(), proof.display().to_string()]);
    if !given.is_empty() {
        args.extend(["--given".to_string(), given.to_string()]);
    }
    let out = somaria().args(&args).output().unwrap();
    let json = json_of(&out.stdout);
    let steps = json["steps"].as_array().unwrap();
    assert!(!steps.is_empty(), "{}", model.display());
    let mut formulas = Vec::new();
    for (n, step) in steps.iter().enumerate() {
        let formula_path = format!("{}.{}.cnf", proof.display(), n + 1);
        assert_eq!(step["proof"]["formula"], formula_path.as_str());
        let cnf = std::fs::read_to_string(&formula_path).unwrap();
        let drat = std::fs::read_to_string(step["proof"]["proof"].as_str().unwrap()).unwrap();
        drat_refutes(&cnf, &drat).unwrap_or_else(|e| panic!("{} step {}: {e}", model.display(), n + 1));
        let (vars, clauses) = dimacs::header(&cnf);
        let mut lines: Vec<&str> = cnf.lines().filter(|l| !l.starts_with('c') && !l.starts_with('p')).collect();
        lines.pop();
        let weaker = format!("p cnf {vars} {}\n{}\n", clauses - 1, lines.join("\n"));
        assert!(dimacs::is_satisfiable(&weaker), "{} step {}: the constraints alone refute", model.display(), n + 1);
        formulas.push((cnf, step.clone()));
    }
    formulas
}

/// `steps --proof FILE` writes each step's re-check as FILE.N.cnf and its
/// DRAT refutation as FILE.N, and each checks ([`step_proofs_check`]).
/// Steps that lean on "the route is one piece" carry its cuts in the
/// formula.
#[test]
fn tile_cover_step_proofs_check() {
    let dir = tempfile::tempdir().unwrap();
    let rooms = [("S..\n...\n...", 0, "moves=R"), ("S...\n....\n.#..", 1, "moves=D"), ("S.#\n..E\n...", 0, "")];
    let mut checked = 0;
    let mut with_cuts = 0;
    for (i, (grid, k, given)) in rooms.iter().enumerate() {
        let model = dir.path().join(format!("room{i}.toml"));
        std::fs::write(&model, common::models::tile_cover_model(grid, *k)).unwrap();
        for (cnf, _) in step_proofs_check(&model, &dir.path().join(format!("room{i}.drat")), given) {
            with_cuts += usize::from(cnf.contains("c group") && cnf.contains("one piece\", added between solves"));
            checked += 1;
        }
    }
    assert!(checked >= 6, "{checked} step proofs");
    assert!(with_cuts >= 1, "some step's formula carries cuts ({with_cuts} of {checked})");
}

/// The clues of a 4 × 4 slitherlink whose steps need the loop.
const SMALL_SLITHERLINK_CLUES: &str = "[| 3,-1,-1, 3 | -1, 1, 1,-1 | -1, 1, 1,-1 | 3,-1,-1, 3 |]";

/// The same for csp models (the shrine, the zebra, a small slitherlink
/// whose loop steps carry the loop's cuts, recorded as the solver made
/// them) and for the fans shrine.
#[test]
fn csp_and_fans_step_proofs_check() {
    let dir = tempfile::tempdir().unwrap();
    let slitherlink = dir.path().join("slitherlink.toml");
    std::fs::write(&slitherlink, common::models::slitherlink_4x4(SMALL_SLITHERLINK_CLUES)).unwrap();
    let models = [
        Path::new("models/akh-vaquot.toml").to_path_buf(),
        Path::new("models/csp/akh-vaquot.toml").to_path_buf(),
        Path::new("models/csp/zebra.toml").to_path_buf(),
        slitherlink,
    ];
    let mut loop_steps = 0;
    for (i, model) in models.iter().enumerate() {
        for (_, step) in step_proofs_check(model, &dir.path().join(format!("m{i}.drat")), "") {
            loop_steps += usize::from(step["because"].as_array().unwrap().iter().any(|r| r["name"] == "one loop"));
        }
    }
    assert!(loop_steps >= 2, "{loop_steps} steps of the loop");
}

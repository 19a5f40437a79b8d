//! The finite-domain engine against the SAT engines on the shipped and
//! bench models in its fragment: the same counts, optima and verdicts
//! (the random models of `csp_random` set it against brute force), and
//! `compare` runs it beside them.

use somaria::model::Source;
use somaria::puzzles::compare::{CompareOptions, agree, compare};
use somaria::puzzles::csp::load_puzzle;
use somaria::puzzles::{CountOptions, Puzzle, SolveOptions, Status};

fn load(path: &str) -> somaria::puzzles::csp::CspPuzzle {
    load_puzzle(&Source::read(path.as_ref()).unwrap()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn count(puzzle: &dyn Puzzle, engine: &str) -> u64 {
    let options = CountOptions { engine: Some(engine.into()), ..Default::default() };
    let report = puzzle.count(&options).unwrap_or_else(|e| panic!("{engine}: {e}"));
    assert!(report.complete);
    report.count
}

fn solve(puzzle: &dyn Puzzle, engine: &str) -> (Status, Option<i64>) {
    let options = SolveOptions { engine: Some(engine.into()), ..Default::default() };
    let report = puzzle.solve(&options).unwrap_or_else(|e| panic!("{engine}: {e}"));
    (report.status, report.objective)
}

#[test]
fn the_fd_engine_counts_and_solves_as_the_sat_engines_do() {
    let models = [
        "models/csp/queens.toml",
        "models/csp/magic-square.toml",
        "models/csp/costas-array.toml",
        "models/csp/send-more-money.toml",
        "models/csp/knapsack.toml",
        "models/csp/sudoku-17.toml",
        "benches/models/golomb-8.toml",
    ];
    for path in models {
        let puzzle = load(path);
        assert!(puzzle.compared_engines().contains(&"fd"), "{path} is in the fd engine's fragment");
        assert_eq!(count(&puzzle, "fd"), count(&puzzle, "direct"), "{path}: count");
        assert_eq!(solve(&puzzle, "fd"), solve(&puzzle, "direct"), "{path}: solve");
    }
}

#[test]
fn compare_runs_the_fd_engine_beside_the_sat_engines_and_they_agree() {
    let puzzle = load("models/csp/magic-square.toml");
    let report = compare(&puzzle, &CompareOptions { count: true, ..Default::default() }).unwrap();
    let engines: Vec<&str> = report.results.iter().map(|r| r.encoding.as_str()).collect();
    assert!(engines.contains(&"fd") && engines.contains(&"direct"), "{engines:?}");
    assert!(report.results.iter().all(|r| r.count == Some(8)), "{:?}", report.results);
    assert!(agree(&report.results));
}

#[test]
fn models_outside_the_fragment_are_refused_by_name_and_left_to_sat_under_auto() {
    let text = "kind = \"csp\"\n[vars]\nx = \"1..4\"\ny = \"1..4\"\n[[constraint]]\nexpr = 'x < 2 \\/ y < 2'\n";
    let puzzle = load_puzzle(&Source::from_text("m.toml", text)).unwrap();
    assert!(!puzzle.compared_engines().contains(&"fd"));
    let refused = puzzle.count(&CountOptions { engine: Some("fd".into()), ..Default::default() }).unwrap_err();
    assert!(refused.to_string().contains("disjunction"), "{refused}");
    assert_eq!(count(&puzzle, "auto"), 7);
    let facts = puzzle.facts(&SolveOptions { engine: Some("fd".into()), ..Default::default() }).unwrap_err();
    assert!(facts.to_string().contains("needs a SAT engine"), "{facts}");
}

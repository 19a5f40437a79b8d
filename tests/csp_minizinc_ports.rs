//! Public MiniZinc puzzle models translated into `kind = "csp"` models:
//! each gives its known answer, checked here against the puzzle's rules
//! written out in Rust, and its known count, on every engine.

use somaria::puzzles::compare::{CompareOptions, compare};
use somaria::puzzles::{Puzzle, SolveOptions, Status};

mod common;

use common::models::{count, load_file};
use common::reports::int_grid;

fn solution(puzzle: &dyn Puzzle) -> serde_json::Value {
    let report = puzzle.solve(&SolveOptions::default()).unwrap();
    assert_eq!(report.status, Status::Solved);
    report.solution.unwrap().json
}

/// The model's own table, read with the toml crate rather than somaria.
fn table(path: &str) -> toml::Table {
    std::fs::read_to_string(path).unwrap().parse().unwrap()
}

fn every_engine_agrees(path: &str) {
    let puzzle = load_file(path);
    let report = compare(puzzle.as_ref(), &CompareOptions { count: true, ..Default::default() }).unwrap();
    assert!(report.agree, "{path}: {report:?}");
}

#[test]
fn takuzu_from_partly_given_data() {
    let path = "models/csp/takuzu.toml";
    let puzzle = load_file(path);
    let x = int_grid(&solution(puzzle.as_ref())["x"]);
    let n = x.len();
    assert_eq!(n, 10);
    let column = |j: usize| -> Vec<i64> { x.iter().map(|row| row[j]).collect() };
    let lines: Vec<Vec<i64>> = x.iter().cloned().chain((0..n).map(column)).collect();
    for line in &lines {
        assert_eq!(line.iter().filter(|&&v| v == 0).count(), n / 2, "{line:?}");
        assert!(line.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])), "{line:?}");
    }
    for (i, a) in lines[..n].iter().enumerate() {
        assert!(lines[..n].iter().skip(i + 1).all(|b| a != b), "rows differ");
    }
    for (i, a) in lines[n..].iter().enumerate() {
        assert!(lines[n..].iter().skip(i + 1).all(|b| a != b), "columns differ");
    }
    let model = table(path);
    let given = model["vars"]["problem"]["given"].as_array().unwrap();
    let mut clues = 0;
    for (i, row) in given.iter().enumerate() {
        for (j, entry) in row.as_array().unwrap().iter().enumerate() {
            if let Some(v) = entry.as_integer() {
                assert_eq!(x[i][j], v, "the clue at {i},{j}");
                clues += 1;
            }
        }
    }
    assert_eq!(clues, 22);
    assert_eq!(count(puzzle.as_ref(), None), 1);
    every_engine_agrees(path);
}

//! The `regular` and `circuit` models under `models/csp/` (ported from
//! public MiniZinc models) and a knight's tour built here: each answer is
//! checked against the puzzle's rules written out in Rust, each count
//! against a count made here by other means, and every engine agrees.

use somaria::puzzles::compare::{CompareOptions, compare};
use somaria::puzzles::{Puzzle, SolveOptions, Status};

use crate::common;

use common::models::{count, load_file, load_text};
use common::reports::int_grid;

fn solution(puzzle: &dyn Puzzle) -> serde_json::Value {
    let report = puzzle.solve(&SolveOptions::default()).unwrap();
    assert_eq!(report.status, Status::Solved);
    report.solution.unwrap().json
}

fn every_engine_agrees(puzzle: &dyn Puzzle) {
    let report = compare(puzzle, &CompareOptions { count: true, ..Default::default() }).unwrap();
    assert!(report.agree, "{report:?}");
}

/// The lengths of the runs of `shaded` in `line`.
fn runs(line: &[i64], shaded: i64) -> Vec<i64> {
    line.split(|&v| v != shaded).filter(|r| !r.is_empty()).map(|r| r.len() as i64).collect()
}

#[test]
fn nonogram_car_matches_its_clues_and_is_unique() {
    let path = "models/csp/nonogram-car.toml";
    let puzzle = load_file(path);
    let x = int_grid(&solution(puzzle.as_ref())["x"]);
    assert_eq!((x.len(), x[0].len()), (10, 15));
    // The clues, from the comments naming each automaton's pattern (rows
    // first), rather than from the automata that somaria runs.
    let text = std::fs::read_to_string(path).unwrap();
    let clues: Vec<Vec<i64>> = text
        .lines()
        .filter_map(|l| l.strip_prefix("#   pattern "))
        .map(|l| {
            l.split(':').next().unwrap().split(',').map(|v| v.trim().parse().unwrap()).filter(|&v| v > 0).collect()
        })
        .collect();
    assert_eq!(clues.len(), 10 + 15);
    for (i, row) in x.iter().enumerate() {
        assert_eq!(runs(row, 2), clues[i], "row {}", i + 1);
    }
    for j in 0..15 {
        let column: Vec<i64> = x.iter().map(|r| r[j]).collect();
        assert_eq!(runs(&column, 2), clues[10 + j], "column {}", j + 1);
    }
    assert_eq!(count(puzzle.as_ref(), None), 1);
    every_engine_agrees(puzzle.as_ref());
}

/// Whether the successors (1-based) form one cycle through every node.
fn one_cycle(succ: &[i64]) -> bool {
    let mut node = 0usize;
    let mut seen = vec![false; succ.len()];
    for _ in 0..succ.len() {
        if seen[node] {
            return false;
        }
        seen[node] = true;
        node = succ[node] as usize - 1;
    }
    node == 0
}

#[test]
fn circuit_test_has_every_cyclic_order() {
    let path = "models/csp/circuit-test.toml";
    let puzzle = load_file(path);
    let x: Vec<i64> = solution(puzzle.as_ref())["x"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    assert!(one_cycle(&x), "{x:?}");
    // Cycles through n labelled nodes: (n - 1)!.
    let n = x.len() as u64;
    assert_eq!(count(puzzle.as_ref(), None), (1..n).product::<u64>());
    every_engine_agrees(puzzle.as_ref());
}

/// Knight moves between the cells of an r × c board, numbered row by row
/// from 0.
fn knight_moves(r: usize, c: usize) -> Vec<Vec<usize>> {
    let at = |i: usize| ((i / c) as i64, (i % c) as i64);
    (0..r * c)
        .map(|i| {
            (0..r * c)
                .filter(|&j| {
                    let ((a, b), (p, q)) = (at(i), at(j));
                    (a - p).abs() * (b - q).abs() == 2
                })
                .collect()
        })
        .collect()
}

/// Directed closed knight's tours, by depth-first search from cell 0.
fn closed_tours(moves: &[Vec<usize>]) -> u64 {
    fn extend(moves: &[Vec<usize>], at: usize, depth: usize, used: &mut [bool]) -> u64 {
        if depth == used.len() {
            return u64::from(moves[at].contains(&0));
        }
        let mut found = 0;
        for &next in &moves[at] {
            if !used[next] {
                used[next] = true;
                found += extend(moves, next, depth + 1, used);
                used[next] = false;
            }
        }
        found
    }
    let mut used = vec![false; moves.len()];
    used[0] = true;
    extend(moves, 0, 1, &mut used)
}

#[test]
fn closed_knights_tours_on_5x6_count_as_search_does() {
    let text = "kind = \"csp\"\n[params]\nr = 5\nc = 6\n[vars]\nx = { index = [\"1..r*c\"], domain = \"1..r*c\" }\n\
        [[constraint]]\nexpr = 'circuit(x)'\n[[constraint]]\n\
        expr = 'forall(i, j in 1..r*c)(abs((i-1) div c - (j-1) div c) * abs((i-1) mod c - (j-1) mod c) != 2 -> x[i] != j)'\n";
    let puzzle = load_text(text);
    let moves = knight_moves(5, 6);
    let x: Vec<i64> = solution(puzzle.as_ref())["x"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    assert!(one_cycle(&x), "{x:?}");
    assert!(x.iter().enumerate().all(|(i, &j)| moves[i].contains(&(j as usize - 1))), "{x:?}");
    let tours = closed_tours(&moves);
    assert_eq!(tours, 16, "8 closed tours, each in two directions");
    assert_eq!(count(puzzle.as_ref(), None), tours);
}

//! The shipped nurikabe and numberlinks: each answer checked by the
//! puzzle's own rules, by code written here from the clue tables read out
//! of the model files (islands as flood fills over the shading, lines as
//! walks over the cells), never by somaria's encodings; and each puzzle is
//! unique, under the lazy engine and the eager one.

use std::collections::{BTreeSet, HashSet};

use serde_json::Value;
use somaria::puzzles::{CountOptions, SolveOptions, Status};

use crate::common;

use common::models::load_file;
use common::reports::int_grid;

const NURIKABE: &str = "models/csp/nurikabe.toml";
const NUMBERLINK: &str = "models/csp/numberlink.toml";
const NUMBERLINK_20: &str = "models/csp/numberlink-20x20.toml";

fn solve(path: &str) -> Value {
    let report = load_file(path).solve(&SolveOptions::default()).unwrap();
    assert_eq!(report.status, Status::Solved, "{path}");
    report.solution.unwrap().json
}

/// The count with a limit of 2: 1 means unique.
fn count(path: &str, engine: Option<&str>) -> u64 {
    let options = CountOptions { engine: engine.map(String::from), limit: Some(2), ..Default::default() };
    let report = load_file(path).count(&options).unwrap();
    report.count
}

fn params(path: &str) -> toml::Table {
    let text = std::fs::read_to_string(path).unwrap();
    let table: toml::Table = toml::from_str(&text).unwrap();
    table["params"].as_table().unwrap().clone()
}

fn int(table: &toml::Table, key: &str) -> usize {
    table[key].as_integer().unwrap() as usize
}

/// The rows of a table of integers, such as the clues.
fn rows_of(table: &toml::Table, key: &str) -> Vec<Vec<i64>> {
    let rows = table[key].as_array().unwrap();
    rows.iter().map(|r| r.as_array().unwrap().iter().map(|v| v.as_integer().unwrap()).collect()).collect()
}

fn neighbours(rows: usize, cols: usize, (r, c): (usize, usize)) -> impl Iterator<Item = (usize, usize)> {
    [(0, 1), (1, 0), (0, -1), (-1, 0)].into_iter().filter_map(move |(dr, dc): (i64, i64)| {
        let (nr, nc) = (r as i64 + dr, c as i64 + dc);
        (nr >= 0 && nc >= 0 && (nr as usize) < rows && (nc as usize) < cols).then_some((nr as usize, nc as usize))
    })
}

/// The 4-connected pieces of the cells where `keep` holds.
fn pieces(rows: usize, cols: usize, keep: impl Fn((usize, usize)) -> bool) -> Vec<Vec<(usize, usize)>> {
    let mut seen = vec![vec![false; cols]; rows];
    let mut found = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if seen[r][c] || !keep((r, c)) {
                continue;
            }
            seen[r][c] = true;
            let mut piece = vec![(r, c)];
            let mut next = 0;
            while next < piece.len() {
                for n in neighbours(rows, cols, piece[next]) {
                    if !seen[n.0][n.1] && keep(n) {
                        seen[n.0][n.1] = true;
                        piece.push(n);
                    }
                }
                next += 1;
            }
            found.push(piece);
        }
    }
    found
}

/// Nurikabe's rules over a shading (`true` = sea) and clues `(row, col,
/// size)` counted from 1: every island (a piece of unshaded cells) holds
/// exactly one clue, equal to its size; the sea is one piece; no 2 x 2 of sea.
fn check_nurikabe(sea: &[Vec<bool>], clues: &[Vec<i64>]) -> Result<(), String> {
    let (rows, cols) = (sea.len(), sea[0].len());
    for island in pieces(rows, cols, |(r, c)| !sea[r][c]) {
        let inside: Vec<&Vec<i64>> =
            clues.iter().filter(|k| island.contains(&(k[0] as usize - 1, k[1] as usize - 1))).collect();
        match inside[..] {
            [clue] if clue[2] as usize == island.len() => {}
            [clue] => return Err(format!("the island of clue {clue:?} has {} cells", island.len())),
            _ => return Err(format!("the island at {:?} holds {} clues", island[0], inside.len())),
        }
    }
    let seas = pieces(rows, cols, |(r, c)| sea[r][c]).len();
    if seas != 1 {
        return Err(format!("the sea is in {seas} pieces"));
    }
    for r in 0..rows - 1 {
        for c in 0..cols - 1 {
            if sea[r][c] && sea[r + 1][c] && sea[r][c + 1] && sea[r + 1][c + 1] {
                return Err(format!("a pool at ({r}, {c})"));
            }
        }
    }
    Ok(())
}

/// Numberlink's rules (every cell on a line) over routes, each its cells
/// `(row, col)` counted from 1 in order, and ends `(r1, c1, r2, c2)`: each
/// pair is joined by exactly one route of side-adjacent cells from one end
/// to the other, no cell is on two routes or twice on one, and every cell
/// of the grid is on a route.
fn check_numberlink(rows: usize, cols: usize, routes: &[Vec<(i64, i64)>], ends: &[Vec<i64>]) -> Result<(), String> {
    let mut used = HashSet::new();
    for route in routes {
        for pair in route.windows(2) {
            let ((r1, c1), (r2, c2)) = (pair[0], pair[1]);
            if (r1 - r2).abs() + (c1 - c2).abs() != 1 {
                return Err(format!("a step from {:?} to {:?}", pair[0], pair[1]));
            }
        }
        for &(r, c) in route {
            if r < 1 || c < 1 || r > rows as i64 || c > cols as i64 || !used.insert((r, c)) {
                return Err(format!("the cell {:?} is used twice or lies outside", (r, c)));
            }
        }
    }
    if used.len() != rows * cols {
        return Err(format!("{} of {} cells are on a line", used.len(), rows * cols));
    }
    let joined: BTreeSet<_> = routes
        .iter()
        .map(|route| {
            let (a, b) = (route[0], route[route.len() - 1]);
            (a.min(b), a.max(b))
        })
        .collect();
    let wanted: BTreeSet<_> = ends
        .iter()
        .map(|e| {
            let (a, b) = ((e[0], e[1]), (e[2], e[3]));
            (a.min(b), a.max(b))
        })
        .collect();
    if routes.len() != ends.len() || joined != wanted {
        return Err(format!("the routes join {joined:?}, the puzzle asks for {wanted:?}"));
    }
    Ok(())
}

fn nurikabe_answer() -> (Vec<Vec<bool>>, Vec<Vec<i64>>) {
    let table = params(NURIKABE);
    let clues = rows_of(&table, "clues");
    assert_eq!(int(&table, "islands"), clues.len());
    let island = int_grid(&solve(NURIKABE)["island"]);
    assert_eq!((island.len(), island[0].len()), (int(&table, "rows"), int(&table, "cols")));
    let sea: Vec<Vec<bool>> = island.iter().map(|row| row.iter().map(|&k| k == 0).collect()).collect();
    (sea, clues)
}

#[test]
fn the_nurikabe_answer_keeps_the_rules() {
    let (sea, clues) = nurikabe_answer();
    check_nurikabe(&sea, &clues).unwrap();
}

#[test]
fn the_nurikabe_checker_rejects_a_changed_answer() {
    let (sea, clues) = nurikabe_answer();
    // Flipping any one cell changes an island's size or makes an island
    // without a clue, so the checker must refuse every such answer.
    for r in 0..sea.len() {
        for c in 0..sea[0].len() {
            let mut other = sea.clone();
            other[r][c] = !other[r][c];
            assert!(check_nurikabe(&other, &clues).is_err(), "flipping ({r}, {c})");
        }
    }
}

#[test]
fn the_nurikabe_is_unique() {
    assert_eq!(count(NURIKABE, None), 1);
    assert_eq!(count(NURIKABE, Some("eager")), 1);
}

/// A solved numberlink: its size, its answer's routes and its ends.
struct Numberlink {
    rows: usize,
    cols: usize,
    routes: Vec<Vec<(i64, i64)>>,
    ends: Vec<Vec<i64>>,
}

/// The routes of a solved numberlink, checked against its `line` grid: the
/// cells of each route hold one number, the number of no other route.
fn numberlink_answer(path: &str) -> Numberlink {
    let table = params(path);
    let (rows, cols) = (int(&table, "rows"), int(&table, "cols"));
    let ends = rows_of(&table, "ends");
    assert_eq!(int(&table, "numbers"), ends.len());
    let answer = solve(path);
    let line = int_grid(&answer["line"]);
    let routes: Vec<Vec<(i64, i64)>> = answer["grid_path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let cells = p["cells"].as_array().unwrap();
            cells.iter().map(|rc| (rc[0].as_i64().unwrap(), rc[1].as_i64().unwrap())).collect()
        })
        .collect();
    let mut numbers = HashSet::new();
    for route in &routes {
        let number = line[route[0].0 as usize - 1][route[0].1 as usize - 1];
        assert!(route.iter().all(|&(r, c)| line[r as usize - 1][c as usize - 1] == number));
        assert!(numbers.insert(number), "two routes hold {number}");
    }
    Numberlink { rows, cols, routes, ends }
}

#[test]
fn the_numberlink_answers_keep_the_rules() {
    for path in [NUMBERLINK, NUMBERLINK_20] {
        let Numberlink { rows, cols, routes, ends } = numberlink_answer(path);
        check_numberlink(rows, cols, &routes, &ends).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
}

#[test]
fn the_numberlink_checker_rejects_changed_answers() {
    let Numberlink { rows, cols, routes, ends } = numberlink_answer(NUMBERLINK);
    let longest = (0..routes.len()).max_by_key(|&i| routes[i].len()).unwrap();
    let mut cut = routes.clone();
    let last = cut[longest].pop().unwrap();
    assert!(check_numberlink(rows, cols, &cut, &ends).is_err(), "a line stops short");
    let mut shuffled = routes.clone();
    shuffled[longest].swap(0, 1);
    assert!(check_numberlink(rows, cols, &shuffled, &ends).is_err() || routes[longest].len() < 3);
    let mut doubled = routes.clone();
    doubled[(longest + 1) % routes.len()].push(last);
    assert!(check_numberlink(rows, cols, &doubled, &ends).is_err(), "a cell twice");
    let mut swapped_ends = ends.clone();
    swapped_ends[0][0] = ends[1][0];
    swapped_ends[0][1] = ends[1][1];
    assert!(check_numberlink(rows, cols, &routes, &swapped_ends).is_err(), "other ends");
}

#[test]
fn the_numberlinks_are_unique() {
    assert_eq!(count(NUMBERLINK, None), 1);
    assert_eq!(count(NUMBERLINK, Some("eager")), 1);
    assert_eq!(count(NUMBERLINK_20, None), 1);
    assert_eq!(count(NUMBERLINK_20, Some("eager")), 1);
}

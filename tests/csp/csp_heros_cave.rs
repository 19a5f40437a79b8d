//! Hero's Cave as csp models (`models/csp/heros-cave*.toml`) against the
//! tile-cover family's files for the same room: the same verdicts under the
//! lazy and eager forms of `grid_path`, a walk that a checker written here
//! from the room's rules accepts, and `facts` naming the same 56 tiles as
//! the family.

use serde_json::Value;

use crate::common;

use common::cli::run_json;
use common::models::grid_of;

/// The room, read from the family's file: `true` for a tile, and the start.
fn room() -> (Vec<Vec<bool>>, (usize, usize)) {
    let grid = grid_of("models/heros-cave.toml");
    let start = (0..grid.len()).flat_map(|r| (0..grid[r].len()).map(move |c| (r, c))).find(|&(r, c)| grid[r][c] == 'S');
    let tiles = grid.iter().map(|row| row.iter().map(|&ch| ch != '#').collect()).collect();
    (tiles, start.unwrap())
}

/// A walk by the room's rules: it starts on the start, takes 4-neighbour
/// steps, stands only on tiles, never twice on one, and leaves at most
/// `leave` tiles unwalked. `cells` count from 1, like the model's arrays.
fn assert_walk(cells: &[(usize, usize)], leave: usize) {
    let (tiles, start) = room();
    let cells: Vec<(usize, usize)> = cells.iter().map(|&(r, c)| (r - 1, c - 1)).collect();
    assert_eq!(cells[0], start, "the walk starts on the start");
    for pair in cells.windows(2) {
        let ((r0, c0), (r1, c1)) = (pair[0], pair[1]);
        assert_eq!(r0.abs_diff(r1) + c0.abs_diff(c1), 1, "a step to a neighbour: {pair:?}");
    }
    let mut seen = std::collections::HashSet::new();
    for &(r, c) in &cells {
        assert!(tiles[r][c], "({r},{c}) is a tile");
        assert!(seen.insert((r, c)), "({r},{c}) walked once");
    }
    let total = tiles.iter().flatten().filter(|&&t| t).count();
    assert!(cells.len() + leave >= total, "{} of {total} tiles walked", cells.len());
}

fn route(solution: &Value) -> Vec<(usize, usize)> {
    let cells = &solution["grid_path"][0]["cells"];
    serde_json::from_value(cells.clone()).unwrap()
}

#[test]
fn the_cave_has_no_walk_in_either_form_as_in_the_family() {
    let (family, _) = run_json(&["solve", "models/heros-cave.toml"]);
    assert_eq!(family, 1);
    for engine in ["auto", "eager"] {
        let (code, report) = run_json(&["solve", "models/csp/heros-cave.toml", "--engine", engine]);
        assert_eq!((code, report["status"].as_str()), (1, Some("no_solution")), "{engine}");
        let (code, counted) = run_json(&["count", "models/csp/heros-cave.toml", "--engine", engine]);
        assert_eq!((code, counted["count"].as_u64()), (0, Some(0)), "{engine}");
    }
}

#[test]
fn with_the_cane_the_walk_is_checked_and_the_same_56_tiles_can_be_left() {
    for engine in ["auto", "eager"] {
        let (code, report) = run_json(&["solve", "models/csp/heros-cave-somaria.toml", "--engine", engine]);
        assert_eq!(code, 0, "{engine}");
        let cells = route(&report["solution"]);
        assert_walk(&cells, 1);
        // The walked array is the walk's cells.
        let walked: Vec<Vec<bool>> = serde_json::from_value(report["solution"]["walked"].clone()).unwrap();
        let on: usize = walked.iter().flatten().filter(|&&w| w).count();
        assert_eq!(on, cells.len());
        for &(r, c) in &cells {
            assert!(walked[r - 1][c - 1]);
        }
    }
    let (_, family) = run_json(&["facts", "models/heros-cave-somaria.toml"]);
    let left: Vec<(usize, usize)> = serde_json::from_value(family["can_be_left"].clone()).unwrap();
    assert_eq!(left.len(), 56);
    let (_, facts) = run_json(&["facts", "models/csp/heros-cave-somaria.toml"]);
    let values = facts["values"]["walked"].as_array().unwrap();
    let mut possible_off = Vec::new();
    for (r, row) in values.iter().enumerate() {
        for (c, cell) in row.as_array().unwrap().iter().enumerate() {
            if cell.as_array().unwrap().contains(&Value::Bool(false)) && room().0[r][c] {
                possible_off.push((r, c));
            }
        }
    }
    assert_eq!(possible_off, left);
    // The 56 are the tiles of the start's colour, where a walk of an odd
    // number of tiles must end or skip one.
    let (_, start) = room();
    assert!(left.iter().all(|&(r, c)| (r + c) % 2 == (start.0 + start.1) % 2));
}

#[test]
fn counts_agree_with_the_family_up_to_a_limit() {
    for limit in ["1", "40"] {
        let (_, family) = run_json(&["count", "models/heros-cave-somaria.toml", "--limit", limit]);
        let (_, csp) = run_json(&["count", "models/csp/heros-cave-somaria.toml", "--limit", limit]);
        assert_eq!(family["count"], csp["count"], "limit {limit}");
        assert_eq!(csp["count"].as_u64().unwrap().to_string(), limit);
    }
}

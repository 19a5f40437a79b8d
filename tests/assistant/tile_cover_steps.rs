//! `hint` and `steps` on tile-cover rooms, from the moves walked so far,
//! against a brute force that shares nothing with somaria: every route of
//! the room found by a depth-first search (`common::rooms::walks`). Each
//! step's facts ("step from (r, c)" takes a direction, or does not) must
//! hold in every route that starts with the moves given; the end must match
//! the number of those routes, and a solved end the one route. Bad walks are
//! refused with the move that is wrong, and a walk that no route extends is
//! named as the clash.

use std::collections::HashMap;

use somaria::hints::{self, PlanRequest};
use somaria::puzzles::SolveOptions;
use somaria::report::steps::{PlanStatus, Reveal, ShownFact, StepsReport};
use somaria::rng::SplitMix64;

use crate::common;

use common::cli::{somaria, write_model};
use common::models::{grid_text, load_text, tile_cover_model};
use common::rooms::{self, Cell};

/// A route as the direction of the step from each cell it leaves.
type Steps = HashMap<Cell, &'static str>;

fn direction(from: Cell, to: Cell) -> &'static str {
    match (to.0 as i64 - from.0 as i64, to.1 as i64 - from.1 as i64) {
        (-1, 0) => "up",
        (1, 0) => "down",
        (0, -1) => "left",
        _ => "right",
    }
}

fn start_of(cells: &[Vec<char>]) -> Cell {
    let at = cells.iter().flatten().position(|&c| c == 'S').unwrap();
    (at / cells[0].len(), at % cells[0].len())
}

/// Every route: a walk leaving at most `k` tiles, as its cells after the start.
fn routes(cells: &[Vec<char>], k: usize) -> Vec<Vec<Cell>> {
    let need = rooms::tiles(cells).saturating_sub(k);
    let mut found = Vec::new();
    rooms::walks(cells, &mut |path| {
        if path.len() >= need {
            found.push(path.to_vec());
        }
        true
    });
    found
}

fn steps_of(start: Cell, route: &[Cell]) -> Steps {
    let mut from = start;
    let mut steps = Steps::new();
    for &to in route {
        steps.insert(from, direction(from, to));
        from = to;
    }
    steps
}

/// "(r, c)" of a fact about "step from (r, c)".
fn cell_of(fact: &ShownFact) -> Cell {
    let inside = fact.var.trim_start_matches("step from (").trim_end_matches(')');
    let (r, c) = inside.split_once(", ").unwrap_or_else(|| panic!("a step fact: {:?}", fact.var));
    (r.parse().unwrap(), c.parse().unwrap())
}

fn holds(fact: &ShownFact, steps: &Steps) -> bool {
    let value = fact.value.as_str().unwrap();
    (steps.get(&cell_of(fact)) == Some(&value)) == (fact.op == "=")
}

fn letters(start: Cell, route: &[Cell]) -> String {
    let mut from = start;
    let mut out = Vec::new();
    for &to in route {
        out.push(direction(from, to)[..1].to_uppercase());
        from = to;
    }
    out.join(",")
}

/// Runs `steps` and `hint` on the room from `walked` and checks them
/// against the routes that start with it.
fn check_room(cells: &[Vec<char>], k: usize, walked: &[Cell]) {
    let text = tile_cover_model(&grid_text(cells), k);
    let puzzle = load_text(&text);
    let start = start_of(cells);
    let given: Vec<String> =
        if walked.is_empty() { Vec::new() } else { vec![format!("moves={}", letters(start, walked))] };
    let request = PlanRequest { given, count_limit: 1000, ..PlanRequest::default() };
    let options = SolveOptions::default();
    let report: StepsReport = hints::steps(puzzle.as_ref(), &options, &request).unwrap();
    let agreeing: Vec<Steps> =
        routes(cells, k).iter().filter(|r| r.starts_with(walked)).map(|r| steps_of(start, r)).collect();
    let expected = match agreeing.len() {
        0 => PlanStatus::NoSolution,
        1 => PlanStatus::Solved,
        _ => PlanStatus::GuessNeeded,
    };
    assert_eq!(report.status, expected, "{text}{request:?}");
    if expected == PlanStatus::GuessNeeded {
        assert_eq!(report.end.remaining, Some(agreeing.len() as u64), "{text}");
    }
    if expected == PlanStatus::NoSolution && !walked.is_empty() && !routes(cells, k).is_empty() {
        let clash = report.end.clash.as_ref().unwrap_or_else(|| panic!("a clash is named: {text}"));
        assert!(clash.entries.iter().all(|e| e.starts_with("move ")), "{:?}", clash.entries);
    }
    for (i, step) in report.steps.iter().enumerate() {
        assert_eq!(step.size, step.because.len());
        for fact in &step.facts {
            assert!(agreeing.iter().all(|s| holds(fact, s)), "step {i}: {fact:?} fails a route\n{text}{request:?}");
        }
    }
    if expected == PlanStatus::Solved {
        let fixed: HashMap<Cell, String> = report
            .state
            .iter()
            .filter(|f| f.op == "=")
            .map(|f| (cell_of(f), f.value.as_str().unwrap().to_string()))
            .collect();
        let route: HashMap<Cell, String> = agreeing[0].iter().map(|(&c, &d)| (c, d.to_string())).collect();
        assert_eq!(fixed, route, "{text}");
    }
    let hint = hints::hint(puzzle.as_ref(), &options, &request, Reveal::What).unwrap();
    assert_eq!(hint.step.as_ref(), report.steps.first(), "{text}");
}

/// Some moves to give: a prefix of a route, or of any walk (which no
/// route may extend), or none.
fn some_walk(rng: &mut SplitMix64, cells: &[Vec<char>], k: usize) -> Vec<Cell> {
    let routes = routes(cells, k);
    let mut walks = Vec::new();
    rooms::walks(cells, &mut |path| {
        walks.push(path.to_vec());
        walks.len() < 200
    });
    let pool = if rng.below(3) > 0 && !routes.is_empty() { routes } else { walks };
    if pool.is_empty() {
        return Vec::new();
    }
    let whole = &pool[rng.below(pool.len())];
    whole[..rng.below(whole.len() + 1)].to_vec()
}

#[test]
fn steps_from_given_moves_agree_with_brute_force() {
    let mut rng = SplitMix64::new(25);
    let shapes = [(2, 3), (3, 3), (2, 4), (3, 4), (1, 5)];
    for _ in 0..150 {
        let (cells, k) = rooms::random_room(&mut rng, &shapes, &[0, 10, 25]);
        let walked = some_walk(&mut rng, &cells, k);
        check_room(&cells, k, &walked);
    }
}

/// Rooms of up to 15 cells that may leave 3 to 5 tiles, half of them with
/// an end tile: where the colour count once leaned on the allowance (its
/// counters stopped there), so that with "at most k tiles are left" off
/// it refused walks the colour rule allows, and let through models that
/// break it (the check then stopped `steps`).
#[test]
fn steps_with_many_tiles_to_leave_agree_with_brute_force() {
    let mut rng = SplitMix64::new(41);
    let shapes = [(3, 5), (3, 4), (2, 5), (4, 3)];
    for _ in 0..60 {
        let shape = shapes[rng.below(shapes.len())];
        let cells = rooms::scattered(&mut rng, shape, 10, 2);
        let k = (3 + rng.below(3)).min(rooms::tiles(&cells));
        check_room(&cells, k, &[]);
    }
}

/// The room that found it: 4 routes, and `steps` stopped with "the colours
/// do not alternate".
#[test]
fn the_room_whose_colour_count_leaned_on_the_allowance() {
    let cells = rooms::from_lines(&["...#.", ".....", "..SE."]);
    assert_eq!(routes(&cells, 3).len(), 4);
    check_room(&cells, 3, &[]);
    check_room(&cells, 3, &[(1, 2)]);
}

/// A faster variant of the planner once failed on this room, whose many
/// routes leave one tile each: the plan must still agree with brute force
/// (110 routes, none of them forced anywhere), and so must the plan from
/// moves given.
#[test]
fn the_three_by_five_room_with_a_tile_to_leave() {
    let cells = rooms::from_lines(&["S....", ".....", "....."]);
    assert_eq!(routes(&cells, 1).len(), 110);
    check_room(&cells, 1, &[]);
    check_room(&cells, 1, &[(0, 1), (0, 2)]);
    check_room(&cells, 1, &[(1, 0), (1, 1), (0, 1)]);
}

fn refusal(args: &[&str]) -> (i32, String) {
    let out = somaria().args(args).output().unwrap();
    (out.status.code().unwrap(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_walk_that_cannot_be_walked_is_refused_with_its_move() {
    let dir = tempfile::tempdir().unwrap();
    let model = write_model(dir.path(), "room.toml", tile_cover_model("S..\n.#.", 0));
    let model = model.to_str().unwrap();
    for (moves, wanted) in [
        ("moves=U", "move 1 (U) from (0, 0) leaves the room"),
        ("moves=R,D", "move 2 (D) from (0, 1) walks into the wall at (1, 1)"),
        ("moves=R,L", "move 2 (L) from (0, 1) returns to the start"),
        ("moves=D,U", "move 2 (U) from (1, 0) returns to the start"),
        ("moves=R,R,D,U", "move 4 (U) steps on (0, 2) a second time"),
        ("moves=R,X", "\"X\" is not a move"),
    ] {
        for command in ["hint", "steps"] {
            let (code, stderr) = refusal(&[command, model, "--given", moves]);
            assert_eq!(code, 2, "{moves}: {stderr}");
            assert!(stderr.contains(wanted), "{moves}: {stderr}");
        }
    }
}

#[test]
fn a_walk_that_no_route_extends_is_named() {
    let dir = tempfile::tempdir().unwrap();
    // From S, right then down leaves (0, 2) for good: a dead end.
    let model = write_model(dir.path(), "room.toml", tile_cover_model("S..\n...", 0));
    let out = somaria().args(["hint", model.to_str().unwrap(), "--given", "moves=R,D"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("move 2 (D): step from (0, 1) = down"), "{stdout}");
    assert!(stdout.contains("cannot be right"), "{stdout}");
}

/// `--given FILE` takes a route's moves, as `solve --format json` writes
/// them, and a route given whole is solved with nothing left to deduce.
#[test]
fn a_state_file_of_moves_gives_the_route() {
    let dir = tempfile::tempdir().unwrap();
    let model = write_model(dir.path(), "room.toml", tile_cover_model("S..\n...", 0));
    let state = write_model(dir.path(), "state.json", r#"{"moves": ["right", "right", "down", "left", "left"]}"#);
    let out = somaria()
        .args(["steps", model.to_str().unwrap(), "--given", state.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["status"], "solved");
    let bad = write_model(dir.path(), "bad.json", r#"{"moves": ["right", "sideways"]}"#);
    let (code, stderr) = refusal(&["hint", model.to_str().unwrap(), "--given", bad.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("bad.json:1:"), "{stderr}");
}

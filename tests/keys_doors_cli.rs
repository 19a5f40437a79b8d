//! The `somaria` command on keys-and-doors models: the lesson's five grids
//! with both engines, routes that replay, counts, compare, DIMACS output, and
//! malformed models that must fail with exit 2 and a message naming the
//! place, never a panic.

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use proptest::prelude::*;
use serde_json::Value;

const LESSON: &[(&str, Option<usize>)] = &[
    ("one-key", Some(3)),
    ("back-through-the-door", Some(5)),
    ("short-corridor", Some(2)),
    ("locked-in", None),
    ("two-doors", Some(8)),
];

fn somaria() -> Command {
    Command::cargo_bin("somaria").unwrap()
}

fn model(name: &str) -> String {
    format!("models/keys-doors/{name}.toml")
}

/// The grid of a model file, read with the toml crate rather than somaria.
fn grid_of(path: &str) -> Vec<Vec<char>> {
    let table: toml::Table = std::fs::read_to_string(path).unwrap().parse().unwrap();
    table["grid"]
        .as_str()
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim().chars().collect())
        .collect()
}

/// Walks the moves from '@' and returns the keys in the order picked up;
/// panics on a move the rules forbid or a route that stops short or goes on.
fn replay(grid: &[Vec<char>], moves: &[Value]) -> Vec<char> {
    let wanted = grid.iter().flatten().filter(|c| c.is_ascii_lowercase()).count();
    let mut at = (0..grid.len())
        .flat_map(|r| (0..grid[0].len()).map(move |c| (r, c)))
        .find(|&(r, c)| grid[r][c] == '@')
        .unwrap();
    let mut order: Vec<char> = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        assert!(order.len() < wanted, "move {i} comes after the last key");
        at = match m.as_str().unwrap() {
            "up" => (at.0.wrapping_sub(1), at.1),
            "down" => (at.0 + 1, at.1),
            "left" => (at.0, at.1.wrapping_sub(1)),
            "right" => (at.0, at.1 + 1),
            other => panic!("unknown move {other}"),
        };
        let symbol = *grid.get(at.0).and_then(|row| row.get(at.1)).expect("inside the grid");
        assert_ne!(symbol, '#', "move {i} walks into a wall");
        if symbol.is_ascii_uppercase() {
            assert!(order.contains(&symbol.to_ascii_lowercase()), "move {i} opens {symbol} without its key");
        }
        if symbol.is_ascii_lowercase() && !order.contains(&symbol) {
            order.push(symbol);
        }
    }
    assert_eq!(order.len(), wanted, "keys left behind");
    order
}

#[test]
fn the_lesson_grids_give_3_5_2_none_and_8_with_both_engines_and_routes_replay() {
    for &(name, steps) in LESSON {
        for engine in ["bfs", "sat"] {
            let output =
                somaria().args(["solve", "--format", "json", "--engine", engine, &model(name)]).output().unwrap();
            let json: Value = serde_json::from_slice(&output.stdout).unwrap();
            match steps {
                Some(steps) => {
                    assert_eq!(output.status.code(), Some(0), "{name} {engine}");
                    assert_eq!(json["status"], "solved");
                    let solution = &json["solution"];
                    assert_eq!(solution["steps"], steps, "{name} {engine}");
                    let moves = solution["moves"].as_array().unwrap();
                    assert_eq!(moves.len(), steps);
                    let order = replay(&grid_of(&model(name)), moves);
                    let printed: Vec<char> = solution["key_order"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|k| k.as_str().unwrap().chars().next().unwrap())
                        .collect();
                    assert_eq!(printed, order, "{name} {engine}");
                    assert_eq!(solution["path"].as_array().unwrap().len(), steps + 1);
                }
                None => {
                    assert_eq!(output.status.code(), Some(1), "{name} {engine}");
                    assert_eq!(json["status"], "no_solution");
                    assert!(json["explanation"].as_str().unwrap().contains("key 'a' cannot be reached"));
                }
            }
        }
    }
}

#[test]
fn the_text_report_draws_the_route_and_lists_the_keys_in_order() {
    somaria()
        .args(["solve", &model("two-doors")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("@ → a ↓ .\n# # # ↓ #\nb ← A ← B\n"))
        .stdout(predicate::str::contains("8 steps; keys in the order 'a', 'b'"))
        .stdout(predicate::str::contains("steps 3-8: right, down ×2, left ×3; picks up 'b' at (2, 0)"));
    somaria()
        .args(["solve", "--engine", "sat", &model("back-through-the-door")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("# a # #\n@ + A b\n"));
}

#[test]
fn counts_agree_across_engines_and_compare_passes() {
    for &(name, steps) in LESSON {
        let expected = u64::from(steps.is_some());
        for engine in ["bfs", "sat"] {
            let output =
                somaria().args(["count", "--format", "json", "--engine", engine, &model(name)]).output().unwrap();
            assert_eq!(output.status.code(), Some(0));
            let json: Value = serde_json::from_slice(&output.stdout).unwrap();
            assert_eq!(json["count"], expected, "{name} {engine}");
            assert_eq!(json["complete"], true);
        }
        somaria()
            .args(["compare", "--count", &model(name)])
            .assert()
            .code(0)
            .stdout(predicate::str::contains("all engines answered and agree"));
    }
}

#[test]
fn an_open_room_has_many_shortest_routes_and_the_limit_stops_the_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("room.toml");
    // From one corner to the key in the other: C(6, 3) = 20 shortest routes.
    std::fs::write(&path, "kind = \"keys-doors\"\ngrid = \"\"\"\n@...\n....\n....\n...a\n\"\"\"\n").unwrap();
    for engine in ["bfs", "sat"] {
        let output = somaria().args(["count", "--format", "json", "--engine", engine]).arg(&path).output().unwrap();
        let json: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["count"], 20, "{engine}");
        let output = somaria()
            .args(["count", "--format", "json", "--limit", "7", "--engine", engine])
            .arg(&path)
            .output()
            .unwrap();
        let json: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!((json["count"].as_u64(), json["complete"].as_bool()), (Some(7), Some(false)), "{engine}");
    }
}

const MAZE: &str = "models/keys-doors/maze-41.toml";

#[test]
fn the_larger_maze_route_replays() {
    let output = somaria().args(["solve", "--format", "json", MAZE]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let moves = json["solution"]["moves"].as_array().unwrap();
    assert!(moves.len() > 100, "the maze should take a real walk, not {} steps", moves.len());
    assert_eq!(replay(&grid_of(MAZE), moves).len(), 6);
}

/// Both engines on the 41×41 maze, counts included (about a second with the
/// SAT engine; other 41×41 seeds take it minutes, so this maze was chosen).
#[test]
fn the_larger_maze_agrees_across_engines() {
    let output = somaria().args(["compare", "--count", "--format", "json", MAZE]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["agree"], true);
    assert_eq!(json["results"][1]["count"], json["results"][0]["count"]);
}

#[test]
fn dimacs_is_written_for_sat_and_states_the_horizon() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("route.cnf");
    somaria()
        .args(["solve", "--engine", "sat", "--dimacs"])
        .arg(&cnf)
        .arg(model("back-through-the-door"))
        .assert()
        .code(0);
    let text = std::fs::read_to_string(&cnf).unwrap();
    assert!(text.contains("p cnf "));
    assert!(text.contains("the route ends within 5 steps"));
    assert!(text.contains("holds key 'a' after step 2"));
}

#[test]
fn an_unknown_engine_is_bad_input() {
    somaria()
        .args(["solve", "--engine", "dfs", &model("one-key")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("expected one of bfs, sat"));
}

fn write_model(dir: &Path, text: &str) -> std::path::PathBuf {
    let path = dir.join("bad.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn malformed_models_fail_with_exit_2_naming_the_place() {
    let cases: &[(&str, &str)] = &[
        (
            "kind = \"keys-doors\"\ngrid = \"\"\"\n@..a\n@.\n\"\"\"\n",
            "bad.toml:4:3: ragged grid: row 1 has 2 cells, but row 0 has 4",
        ),
        (
            "kind = \"keys-doors\"\ngrid = \"\"\"\n...a\n....\n\"\"\"\n",
            "no start '@' in the grid; expected exactly one '@'",
        ),
        (
            "kind = \"keys-doors\"\ngrid = \"\"\"\n@..a\n..@.\n\"\"\"\n",
            "bad.toml:4:3: a second start '@' at grid cell (1, 2), after the one at (0, 0); expected exactly one '@'",
        ),
        (
            "kind = \"keys-doors\"\ngrid = \"\"\"\n@.?a\n\"\"\"\n",
            "bad.toml:3:3: unknown symbol '?' at grid cell (0, 2); expected '@' start, '.' floor, '#' wall, 'a'-'z' key or 'A'-'Z' door",
        ),
        (
            "kind = \"keys-doors\"\ngrid = \"\"\"\n@a.a\n\"\"\"\n",
            "bad.toml:3:4: a second key 'a' at grid cell (0, 3), after the one at (0, 1); expected each key letter at most once",
        ),
        ("kind = \"keys-doors\"\ngrid = \"\"\"\n\n\"\"\"\n", "the grid is empty"),
        ("kind = \"keys-doors\"\n", "missing field `grid`"),
        ("kind = \"keys-doors\"\ngrid = \"@a\"\nkeys = 3\n", "unknown field `keys`"),
        ("kind = \"keys-doors\"\ngrid = 7\n", "bad.toml:2:8"),
        ("this is not toml\n", "bad.toml:1:"),
        ("kind = \"keys-doors\"\ngrid = \"\"\"\n@.é\n\"\"\"\n", "unknown symbol 'é'"),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (text, message) in cases {
        let path = write_model(dir.path(), text);
        for command in ["solve", "count", "compare"] {
            let output = somaria().arg(command).arg(&path).output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{command} on {text:?}: {stderr}");
            assert!(stderr.contains(message), "{command} on {text:?}: {stderr}");
            assert!(!stderr.contains("panicked"), "{stderr}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Grid text from the model's own symbols plus a few strangers, with
    /// ragged rows and stray blank lines: loading never panics, and what
    /// loads can be solved by both engines to the same verdict.
    #[test]
    fn arbitrary_grid_text_never_panics(rows in prop::collection::vec("[@.#abAB?é \t]{0,6}", 0..5)) {
        let picture = rows.join("\n");
        if let Ok(puzzle) = somaria::puzzles::keys_doors::KeysDoorsPuzzle::from_picture(&picture) {
            let bfs = puzzle.shortest_route("bfs").unwrap().map(|r| r.len());
            let sat = puzzle.shortest_route("sat").unwrap().map(|r| r.len());
            prop_assert_eq!(bfs, sat);
        }
    }

    /// Whole model files mutated byte by byte: loading never panics.
    #[test]
    fn mutated_model_files_never_panic(
        edits in prop::collection::vec((0usize..80, any::<u8>()), 0..6),
    ) {
        let mut bytes = b"kind = \"keys-doors\"\ntitle = \"t\"\ngrid = \"\"\"\n#a##\n@.Ab\n\"\"\"\n".to_vec();
        for (at, byte) in edits {
            let at = at % bytes.len();
            bytes[at] = byte;
        }
        if let Ok(text) = String::from_utf8(bytes) {
            let source = somaria::model::Source::from_text("m.toml", text);
            let _ = somaria::puzzles::load(&source);
        }
    }
}

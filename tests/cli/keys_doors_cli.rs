//! The `somaria` command on keys-and-doors models: the lesson's five grids
//! with every engine, routes that replay, several walkers, counts, compare,
//! DIMACS output, and malformed models that must fail with exit 2 and a
//! message naming the place, never a panic.

use std::path::Path;

use predicates::prelude::*;
use proptest::prelude::*;
use serde_json::Value;

use crate::common;

use common::cli::{json_of, somaria, write_model};
use common::dimacs;
use common::keys_doors::{moves_of, replay};
use common::models::grid_of;
use common::reports::formula_size;

const LESSON: &[(&str, Option<usize>)] = &[
    ("one-key", Some(3)),
    ("back-through-the-door", Some(5)),
    ("short-corridor", Some(2)),
    ("locked-in", None),
    ("two-doors", Some(8)),
];

const ENGINES: [&str; 4] = ["keygraph", "bfs", "sat-keys", "sat"];

fn model(name: &str) -> String {
    format!("models/keys-doors/{name}.toml")
}

#[test]
fn the_lesson_grids_give_3_5_2_none_and_8_with_every_engine_and_routes_replay() {
    for &(name, steps) in LESSON {
        for engine in ENGINES {
            let output =
                somaria().args(["solve", "--format", "json", "--engine", engine, &model(name)]).output().unwrap();
            let json = json_of(&output.stdout);
            match steps {
                Some(steps) => {
                    assert_eq!(output.status.code(), Some(0), "{name} {engine}");
                    assert_eq!(json["status"], "solved");
                    let solution = &json["solution"];
                    assert_eq!(solution["steps"], steps, "{name} {engine}");
                    let moves = solution["moves"].as_array().unwrap();
                    assert_eq!(moves.len(), steps);
                    let order = replay(&grid_of(&model(name)), &moves_of(solution)).unwrap();
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
        for engine in ENGINES {
            let output =
                somaria().args(["count", "--format", "json", "--engine", engine, &model(name)]).output().unwrap();
            assert_eq!(output.status.code(), Some(0));
            let json = json_of(&output.stdout);
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
    for engine in ENGINES {
        let output = somaria().args(["count", "--format", "json", "--engine", engine]).arg(&path).output().unwrap();
        let json = json_of(&output.stdout);
        assert_eq!(json["count"], 20, "{engine}");
        let output = somaria()
            .args(["count", "--format", "json", "--limit", "7", "--engine", engine])
            .arg(&path)
            .output()
            .unwrap();
        let json = json_of(&output.stdout);
        assert_eq!((json["count"].as_u64(), json["complete"].as_bool()), (Some(7), Some(false)), "{engine}");
    }
}

const MAZE: &str = "models/keys-doors/maze-41.toml";

#[test]
fn the_larger_maze_route_replays() {
    let output = somaria().args(["solve", "--format", "json", MAZE]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let json = json_of(&output.stdout);
    let moves = json["solution"]["moves"].as_array().unwrap();
    assert!(moves.len() > 100, "the maze should take a real walk, not {} steps", moves.len());
    assert_eq!(replay(&grid_of(MAZE), &moves_of(&json["solution"])).unwrap().len(), 6);
}

/// Both engines on the 41×41 maze, counts included (about a second with the
/// SAT engine; other 41×41 seeds take it minutes, so this maze was chosen).
#[test]
fn the_larger_maze_agrees_across_engines() {
    let output = somaria().args(["compare", "--count", "--format", "json", MAZE]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let json = json_of(&output.stdout);
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
        .stderr(predicate::str::contains("expected one of keygraph, bfs, sat-keys, sat"));
}

/// Keys-and-doors steps are legs of a route found by search, not
/// refutations: `--proof` is refused rather than ignored, and nothing is
/// written.
#[test]
fn steps_and_hint_refuse_a_proof_they_cannot_write() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("steps.drat");
    for command in ["steps", "hint"] {
        somaria()
            .args([command, &model("one-key"), "--proof", proof.to_str().unwrap()])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--proof: the steps of keys-doors puzzles cannot be written as proofs"));
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
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
            "no start '@' in the grid; expected one to four '@', one per walker",
        ),
        (
            "kind = \"keys-doors\"\ngrid = \"\"\"\n@.@a\n@.@@\n\"\"\"\n",
            "bad.toml:4:4: a fifth start '@' at grid cell (1, 3); expected one to four '@', one per walker",
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
        let path = write_model(dir.path(), "bad.toml", text);
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
    /// loads can be solved by every engine to the same verdict.
    #[test]
    fn arbitrary_grid_text_never_panics(rows in prop::collection::vec("[@.#abAB?é \t]{0,6}", 0..5)) {
        use somaria::puzzles::keys_doors::{Engine, KeysDoorsPuzzle};
        let picture = rows.join("\n");
        if let Ok(puzzle) = KeysDoorsPuzzle::from_picture(&picture) {
            let bfs = puzzle.shortest_route(Engine::Bfs).unwrap().map(|r| r.len());
            for engine in [Engine::Keygraph, Engine::SatKeys, Engine::Sat] {
                let steps = puzzle.shortest_route(engine).unwrap().map(|r| r.len());
                prop_assert_eq!(bfs, steps, "{}", engine);
            }
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

fn solve_json(engine: &str, path: &str) -> Value {
    let output = somaria().args(["solve", "--format", "json", "--engine", engine, path]).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{engine} {path}: {}", String::from_utf8_lossy(&output.stderr));
    json_of(&output.stdout)
}

#[test]
fn two_walkers_share_keys_with_every_engine_and_the_json_lists_each_walker() {
    let path = model("two-walkers");
    for engine in ENGINES {
        let json = solve_json(engine, &path);
        let solution = &json["solution"];
        assert_eq!(solution["steps"], 5, "{engine}");
        assert_eq!(solution["walkers"].as_array().unwrap().len(), 2);
        assert_eq!(solution["walkers"][0]["start"], serde_json::json!([1, 3]));
        assert_eq!(solution["walkers"][1]["start"], serde_json::json!([3, 4]));
        // The one-walker fields are left out rather than half filled.
        assert!(solution.get("moves").is_none() && solution.get("path").is_none());
        let moves = moves_of(solution);
        let per_walker: usize = (0..2).map(|w| solution["walkers"][w]["moves"].as_array().unwrap().len()).sum();
        assert_eq!((moves.len(), per_walker), (5, 5));
        assert_eq!(replay(&grid_of(&path), &moves), Ok(vec!['a', 'b']), "{engine}");
        assert_eq!(solution["pickups"][1]["walker"], 1);
    }
    // Door A waits for 'a': walker 1's first step can go before, between or
    // after walker 0's two, and its last two come after: 3 sequences.
    for engine in ["bfs", "sat"] {
        let output = somaria().args(["count", "--format", "json", "--engine", engine, &path]).output().unwrap();
        let json = json_of(&output.stdout);
        assert_eq!(json["count"], 3, "{engine}");
    }
    // With several walkers, count defaults to bfs, which counts interleavings.
    somaria().args(["count", &path]).assert().code(0).stdout(predicate::str::contains("3 solutions"));
    for engine in ["keygraph", "sat-keys"] {
        somaria()
            .args(["count", "--engine", engine, &path])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("counting several walkers with {engine}")))
            .stderr(predicate::str::contains("use --engine bfs or sat"));
    }
    // compare sets the whole-leg engines' counts aside instead of failing.
    let output = somaria().args(["compare", "--count", "--format", "json", &path]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let json = json_of(&output.stdout);
    assert_eq!(json["agree"], true);
    let counts: Vec<Value> = (0..4).map(|i| json["results"][i]["count"].clone()).collect();
    assert_eq!(counts, vec![Value::Null, 3.into(), Value::Null, 3.into()]);
    somaria()
        .args(["solve", &path])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("5 steps by 2 walkers; keys in the order 'a', 'b'"))
        .stdout(predicate::str::contains("walker 2 picks up 'b' at (1, 5)"));
}

#[test]
fn a_one_walker_solution_keeps_its_form_and_lists_the_walker_too() {
    let json = solve_json("keygraph", &model("two-doors"));
    let solution = &json["solution"];
    assert_eq!(solution["moves"].as_array().unwrap().len(), 8);
    assert_eq!(solution["path"].as_array().unwrap().len(), 9);
    assert!(solution.get("sequence").is_none());
    assert_eq!(solution["walkers"][0]["moves"], solution["moves"]);
}

const VAULT: &str = "models/keys-doors/vault-81.toml";

/// The four-walker form of the shipped vault, written from the generator
/// (it is not shipped: counting four walkers' interleaved moves, which
/// `count` does by default with bfs, is out of reach on it).
fn four_walker_vault(dir: &Path) -> String {
    let path = dir.join("vault-81-four.toml");
    std::fs::write(&path, somaria::puzzles::keys_doors::maze::vault_model("vault, four walkers", 4, 4).unwrap())
        .unwrap();
    path.to_str().unwrap().to_string()
}

/// The generated 81×81 vault (seed 4 of `keys_doors_vault`): keygraph and
/// bfs agree on the one-walker form, and every route replays.
#[test]
fn the_generated_vault_is_answered_alike_by_keygraph_and_bfs() {
    let grid = grid_of(VAULT);
    assert_eq!((grid.len(), grid[0].len()), (81, 81));
    assert_eq!(grid.iter().flatten().filter(|c| c.is_ascii_uppercase()).count(), 26);
    let keygraph = solve_json("keygraph", VAULT);
    let bfs = solve_json("bfs", VAULT);
    assert_eq!(keygraph["solution"]["steps"], bfs["solution"]["steps"]);
    let steps = keygraph["solution"]["steps"].as_u64().unwrap();
    assert!((3000..=8000).contains(&steps), "{steps} steps");
    for json in [&keygraph, &bfs] {
        assert_eq!(replay(&grid, &moves_of(&json["solution"])).unwrap().len(), 26);
    }
}

/// The four-walker form: keygraph and sat-keys agree (bfs over four walkers'
/// joint cells is out of reach), and the routes replay.
#[test]
fn the_four_walker_vault_is_answered_alike_by_keygraph_and_sat_keys() {
    let dir = tempfile::tempdir().unwrap();
    let vault_four = four_walker_vault(dir.path());
    let grid = grid_of(&vault_four);
    assert_eq!(grid.iter().flatten().filter(|&&c| c == '@').count(), 4);
    // The same maze, keys and doors as the one-walker form; only the centre differs.
    let one = grid_of(VAULT);
    let differing = (0..81).flat_map(|r| (0..81).map(move |c| (r, c))).filter(|&(r, c)| one[r][c] != grid[r][c]);
    assert!(differing.clone().all(|(r, c)| (39..=41).contains(&r) && (39..=41).contains(&c)));
    assert_eq!(differing.count(), 9);
    let keygraph = solve_json("keygraph", &vault_four);
    let sat_keys = solve_json("sat-keys", &vault_four);
    assert_eq!(keygraph["solution"]["steps"], sat_keys["solution"]["steps"]);
    for json in [&keygraph, &sat_keys] {
        assert_eq!(replay(&grid, &moves_of(&json["solution"])).unwrap().len(), 26);
    }
    // Fewer steps than one walker from the centre: no walking between quarters.
    let one = solve_json("keygraph", VAULT)["solution"]["steps"].as_u64().unwrap();
    assert!(keygraph["solution"]["steps"].as_u64().unwrap() < one);
}

/// An open room with 26 keys and no doors, where the sets of keys held
/// explode for bfs: sat-keys answers, and the route replays.
#[test]
fn an_open_room_with_26_keys_is_answered_by_sat_keys() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("room.toml");
    let grid = somaria::puzzles::keys_doors::maze::open_room(8, 8, 26, 5).unwrap();
    std::fs::write(&path, format!("kind = \"keys-doors\"\ngrid = \"\"\"\n{grid}\n\"\"\"\n")).unwrap();
    let json = solve_json("sat-keys", path.to_str().unwrap());
    let grid: Vec<Vec<char>> = grid.lines().map(|l| l.chars().collect()).collect();
    assert_eq!(replay(&grid, &moves_of(&json["solution"])).unwrap().len(), 26);
    assert_eq!(json["stats"]["engine"], "sat-keys");
}

#[test]
fn the_stats_of_each_sat_engine_match_the_dimacs_it_writes() {
    let dir = tempfile::tempdir().unwrap();
    for (engine, name) in
        [("sat", "two-doors"), ("sat", "locked-in"), ("sat-keys", "two-doors"), ("sat-keys", "locked-in")]
    {
        let cnf = dir.path().join("out.cnf");
        let output = somaria()
            .args(["solve", "--format", "json", "--engine", engine, "--dimacs"])
            .arg(&cnf)
            .arg(model(name))
            .output()
            .unwrap();
        let json = json_of(&output.stdout);
        let text = std::fs::read_to_string(&cnf).unwrap();
        let header = dimacs::header(&text);
        let clauses = text.lines().filter(|l| !l.starts_with('c') && !l.starts_with('p')).count() as u64;
        assert_eq!(header.1, clauses, "{engine} {name}: the header counts the clauses written");
        assert_eq!(formula_size(&json["stats"]), header, "{engine} {name}");
    }
}

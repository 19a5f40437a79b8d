//! The CLI contract on tile-cover rooms: Hero's Cave refuted with the colour
//! count, by the presolve and by every encoding alone; the Somaria route;
//! the facts checked against one assumption solve per tile; compare; and
//! bad models refused with exit 2, never a panic.

use proptest::prelude::*;
use somaria::model::Source;
use somaria::puzzles::tile_cover::{ENGINES, load_puzzle};
use somaria::puzzles::{self, Puzzle, SolveOptions, Status};

use crate::common;

use common::cli::{json_of, refused, somaria};
use common::dimacs;
use common::models::tile_cover_model;
use common::reports::{cells, formula_size};

#[test]
fn heros_cave_is_refuted_by_the_colour_count_without_sat() {
    let out = somaria().args(["solve", "models/heros-cave.toml"]).assert().code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("the 112 cells visited including the start would have to be 56 of each colour"), "{text}");
    assert!(text.contains("57 of one colour and 55 of the other"), "{text}");
    let out = somaria().args(["solve", "models/heros-cave.toml", "--format", "json"]).assert().code(1);
    let json = json_of(&out.get_output().stdout);
    assert_eq!(json["status"], "no_solution");
    assert_eq!(json["stats"]["sat_calls"], 0);
    assert!(json["explanation"].as_str().unwrap().contains("56 of each colour"));
}

#[test]
fn every_encoding_refutes_heros_cave_alone() {
    for engine in ENGINES {
        let args = ["solve", "models/heros-cave.toml", "--no-presolve", "--format", "json", "--encoding", engine];
        let out = somaria().args(args).assert().code(1);
        let json = json_of(&out.get_output().stdout);
        assert_eq!(json["status"], "no_solution", "{engine}");
        assert!(json["stats"]["sat_calls"].as_u64().unwrap() >= 1, "{engine} used SAT");
    }
}

#[test]
fn the_encodings_refute_heros_cave_without_the_colour_count_too() {
    use somaria::puzzles::tile_cover::EncodeOptions;
    let puzzle = load_puzzle(&Source::read("models/heros-cave.toml".as_ref()).unwrap()).unwrap();
    for engine in ["lazy", "rank"] {
        let options = SolveOptions { engine: Some(engine.into()), skip_presolve: true, ..Default::default() };
        let report =
            puzzle.solve_with(&options, EncodeOptions { colour_count: false, ..EncodeOptions::default() }).unwrap();
        assert_eq!(report.status, Status::NoSolution, "{engine}");
    }
}

#[test]
fn the_somaria_room_has_a_route_leaving_one_tile() {
    let out = somaria().args(["solve", "models/heros-cave-somaria.toml", "--format", "json"]).assert().success();
    let json = json_of(&out.get_output().stdout);
    assert_eq!(json["status"], "solved");
    let solution = &json["solution"];
    let path = cells(&solution["path"]);
    let uncovered = cells(&solution["uncovered"]);
    assert_eq!(path.len(), 110);
    assert_eq!(uncovered.len(), 1);
    assert_eq!(solution["moves"].as_array().unwrap().len(), 110);
    // Walk the moves here too: they must land on the listed path.
    let mut here = (4usize, 12usize);
    for (step, name) in solution["moves"].as_array().unwrap().iter().enumerate() {
        here = match name.as_str().unwrap() {
            "up" => (here.0 - 1, here.1),
            "down" => (here.0 + 1, here.1),
            "left" => (here.0, here.1 - 1),
            "right" => (here.0, here.1 + 1),
            other => panic!("unknown move {other}"),
        };
        assert_eq!(here, path[step]);
    }
    let (r, c) = uncovered[0];
    assert_eq!((r + c) % 2, 0, "the tile left has the start's colour");
    let text = somaria().args(["solve", "models/heros-cave-somaria.toml"]).assert().success();
    let text = String::from_utf8(text.get_output().stdout.clone()).unwrap();
    assert!(text.contains("110 moves: "), "{text}");
    assert!(text.contains("left uncovered: "), "{text}");
}

#[test]
fn the_facts_match_one_assumption_solve_per_tile() {
    let out = somaria().args(["facts", "models/heros-cave-somaria.toml", "--format", "json"]).assert().success();
    let json = json_of(&out.get_output().stdout);
    assert_eq!(json["kind"], "tile-cover");
    assert_eq!(json["status"], "solved");
    let can_be_left = cells(&json["can_be_left"]);
    let always_covered = cells(&json["always_covered"]);
    assert_eq!(can_be_left.len(), 56);
    assert_eq!(always_covered.len(), 55);
    assert!(can_be_left.iter().all(|&(r, c)| (r + c) % 2 == 0));
    let calls = json["stats"]["sat_calls"].as_u64().unwrap();
    assert!(calls < 111, "the facts loop made {calls} SAT calls, no better than one per tile");
    let puzzle = load_puzzle(&Source::read("models/heros-cave-somaria.toml".as_ref()).unwrap()).unwrap();
    for engine in ["lazy", "rank"] {
        let (by_tile, _) = puzzle.leavable_by_assumptions(Some(engine)).unwrap();
        assert_eq!(by_tile, can_be_left, "{engine}");
    }
}

#[test]
fn facts_match_per_tile_checks_on_small_rooms() {
    let rooms = [("S...\n.#..\n....", 2), ("S..\n...\n..E", 1), ("..S..\n.....\n#...#", 3), ("S.\n..", 0)];
    for (grid, k) in rooms {
        let puzzle = load_puzzle(&Source::from_text("room.toml", tile_cover_model(grid, k))).unwrap();
        for engine in ENGINES {
            let options = SolveOptions { engine: Some(engine.to_string()), ..Default::default() };
            let facts = puzzle.facts(&options).unwrap();
            let (by_tile, _) = puzzle.leavable_by_assumptions(Some(engine)).unwrap();
            match facts.status {
                Status::Solved => assert_eq!(cells(&facts.json["can_be_left"]), by_tile, "{engine} on\n{grid}"),
                _ => assert!(by_tile.is_empty()),
            }
        }
    }
}

#[test]
fn compare_shows_every_encoding_agreeing() {
    // The somaria room takes the steps encoding seconds; a smaller room with a tile to leave does here.
    let out = somaria().args(["compare", "models/tile-cover-corner-5x5.toml", "--format", "json"]).assert().success();
    let json = json_of(&out.get_output().stdout);
    assert_eq!(json["agree"], true);
    let names: Vec<&str> =
        json["results"].as_array().unwrap().iter().map(|r| r["encoding"].as_str().unwrap()).collect();
    assert_eq!(names, ENGINES);
    let out = somaria().args(["compare", "models/heros-cave.toml", "--no-presolve"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("all engines answered and agree"), "{text}");
    let out =
        somaria().args(["compare", "models/tile-cover-end.toml", "--count", "--format", "json"]).assert().success();
    let json = json_of(&out.get_output().stdout);
    assert_eq!(json["agree"], true);
    assert!(json["results"].as_array().unwrap().iter().all(|r| r["count"] == 12));
}

#[test]
fn the_example_rooms_solve() {
    for model in ["models/tile-cover-end.toml", "models/tile-cover-24x24.toml", "models/tile-cover-corner-5x5.toml"] {
        let out = somaria().args(["solve", model, "--format", "json"]).assert().success();
        let json = json_of(&out.get_output().stdout);
        assert_eq!(json["status"], "solved", "{model}");
    }
    // The exit leaves 12 of the 755 routes that cover the room.
    let with_end = somaria().args(["count", "models/tile-cover-end.toml", "--format", "json"]).assert().success();
    assert_eq!(json_of(&with_end.get_output().stdout)["count"], 12);
}

#[test]
fn dimacs_holds_the_cnf_that_was_solved() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("room.cnf");
    let out = somaria()
        .args(["solve", "models/heros-cave-somaria.toml", "--format", "json", "--dimacs"])
        .arg(&path)
        .assert()
        .success();
    let json = json_of(&out.get_output().stdout);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(dimacs::header(&text), formula_size(&json["stats"]));
}

#[test]
fn malformed_rooms_are_refused_with_the_place_and_the_problem() {
    let room = |grid: &str| format!("kind = \"tile-cover\"\ngrid = \"\"\"\n{grid}\n\"\"\"\n");
    let cases: [(String, &[&str]); 8] = [
        (room("S.x\n..."), &["bad.toml:3:3:", "unknown symbol 'x'", "'S' start"]),
        (room("...\n..."), &["bad.toml:2:", "no start 'S'", "exactly one 'S'"]),
        (room("S..\n..S"), &["bad.toml:4:3:", "a second start 'S' at grid cell (1, 2)", "exactly one 'S'"]),
        (room("SE.\n.E."), &["bad.toml:4:2:", "a second end 'E'", "at most one 'E'"]),
        (room("S..\n.."), &["bad.toml:4:", "ragged grid", "row 1 has 2 cells"]),
        (
            format!("leave_uncovered = -1\n{}", room("S..")),
            &["bad.toml:1:19:", "`leave_uncovered = -1`", "from 0 to 2"],
        ),
        (format!("leave_uncovered = 3\n{}", room("S..")), &["`leave_uncovered = 3`", "from 0 to 2"]),
        (format!("colour = 1\n{}", room("S..")), &["bad.toml:1:1:", "colour"]),
    ];
    for (text, parts) in cases {
        let stderr = refused(&text);
        for part in parts {
            assert!(stderr.contains(part), "expected {part:?} in {stderr:?} for\n{text}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Mutated rooms never panic: each either loads and gets a verdict, or
    /// is refused with a located message.
    #[test]
    fn mutated_rooms_load_or_are_refused(
        edits in prop::collection::vec((0usize..40, prop::sample::select(vec!['.', '#', 'S', 'E', 'x', '\n', ' ', '"', 'é'])), 0..6),
        k in -2i64..5,
    ) {
        let mut grid: Vec<char> = "S..#\n....\n.#.E".chars().collect();
        for (at, symbol) in edits {
            let at = at % (grid.len() + 1);
            if at < grid.len() && at.is_multiple_of(3) { grid[at] = symbol } else { grid.insert(at, symbol) }
        }
        let grid: String = grid.into_iter().collect();
        let text = format!("kind = \"tile-cover\"\nleave_uncovered = {k}\ngrid = \"\"\"\n{grid}\n\"\"\"\n");
        match puzzles::load(&Source::from_text("m.toml", text)) {
            Ok(puzzle) => {
                let report = puzzle.solve(&SolveOptions::default()).unwrap();
                prop_assert!(report.status != Status::Unknown);
            }
            Err(e) => prop_assert!(e.to_string().starts_with("m.toml"), "{}", e),
        }
    }
}

//! The shipped csp models give their known answers, every engine agrees on
//! them, and the command line keeps the JSON contract.

use serde_json::Value;
use somaria::puzzles::compare::{CompareOptions, compare};
use somaria::puzzles::{Puzzle, SolveOptions, Status};

use crate::common;

use common::cli::{json_of, run_json, somaria, write_model};
use common::models::{count, load_file, load_text};
use common::reports::int_grid;

fn solution(puzzle: &dyn Puzzle) -> Value {
    let report = puzzle.solve(&SolveOptions::default()).unwrap();
    assert_eq!(report.status, Status::Solved);
    report.solution.unwrap().json
}

/// A valid sudoku: rows, columns and boxes hold 1 to 9, and the givens stand.
fn assert_sudoku(cells: &[Vec<i64>], givens: &[Vec<i64>]) {
    let full: Vec<i64> = (1..=9).collect();
    let sorted = |mut v: Vec<i64>| {
        v.sort();
        v
    };
    for i in 0..9 {
        assert_eq!(sorted(cells[i].clone()), full, "row {i}");
        assert_eq!(sorted((0..9).map(|j| cells[j][i]).collect()), full, "column {i}");
        let (r, c) = (3 * (i / 3), 3 * (i % 3));
        assert_eq!(sorted((0..9).map(|k| cells[r + k / 3][c + k % 3]).collect()), full, "box {i}");
        for j in 0..9 {
            if givens[i][j] != 0 {
                assert_eq!(cells[i][j], givens[i][j], "given at ({i}, {j})");
            }
        }
    }
}

fn givens(path: &str) -> Vec<Vec<i64>> {
    let text = std::fs::read_to_string(path).unwrap();
    let table: toml::Table = toml::from_str(&text).unwrap();
    let rows = table["params"]["givens"].as_array().unwrap();
    rows.iter().map(|r| r.as_array().unwrap().iter().map(|v| v.as_integer().unwrap()).collect()).collect()
}

#[test]
fn the_hardest_sudoku_has_its_published_unique_solution() {
    let puzzle = load_file("models/csp/sudoku-hardest.toml");
    let cells = int_grid(&solution(puzzle.as_ref())["cell"]);
    let published = [
        "812753649",
        "943682175",
        "675491283",
        "154237896",
        "369845721",
        "287169534",
        "521974368",
        "438526917",
        "796318452",
    ];
    let expected: Vec<Vec<i64>> =
        published.iter().map(|r| r.chars().map(|c| c.to_digit(10).unwrap() as i64).collect()).collect();
    assert_eq!(cells, expected);
    assert_sudoku(&cells, &givens("models/csp/sudoku-hardest.toml"));
    for engine in puzzle.engines() {
        assert_eq!(count(puzzle.as_ref(), Some(engine)), 1, "{engine}");
    }
}

#[test]
fn the_17_given_sudoku_is_unique() {
    let puzzle = load_file("models/csp/sudoku-17.toml");
    let cells = int_grid(&solution(puzzle.as_ref())["cell"]);
    assert_sudoku(&cells, &givens("models/csp/sudoku-17.toml"));
    assert_eq!(givens("models/csp/sudoku-17.toml").iter().flatten().filter(|&&v| v != 0).count(), 17);
    for engine in puzzle.engines() {
        assert_eq!(count(puzzle.as_ref(), Some(engine)), 1, "{engine}");
    }
}

#[test]
fn queens_counts_for_n_from_4_to_10() {
    let text = std::fs::read_to_string("models/csp/queens.toml").unwrap();
    for (n, expected) in [(4, 2), (5, 10), (6, 4), (7, 40), (8, 92), (9, 352), (10, 724)] {
        let puzzle = load_text(&text.replace("n = 8", &format!("n = {n}")));
        assert_eq!(count(puzzle.as_ref(), None), expected, "n = {n}");
    }
    // No solution for 2 and 3.
    for n in [2, 3] {
        let puzzle = load_text(&text.replace("n = 8", &format!("n = {n}")));
        assert_eq!(count(puzzle.as_ref(), None), 0, "n = {n}");
        assert_eq!(puzzle.solve(&SolveOptions::default()).unwrap().status, Status::NoSolution);
    }
}

#[test]
fn every_engine_counts_the_8_queens() {
    let puzzle = load_file("models/csp/queens.toml");
    for engine in puzzle.engines() {
        assert_eq!(count(puzzle.as_ref(), Some(engine)), 92, "{engine}");
    }
    let q: Vec<i64> = solution(puzzle.as_ref())["q"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    for i in 0..8 {
        for j in i + 1..8 {
            assert!(q[i] != q[j] && (q[i] - q[j]).abs() != (j - i) as i64, "{q:?}");
        }
    }
}

#[test]
fn send_more_money_is_unique() {
    let puzzle = load_file("models/csp/send-more-money.toml");
    let s = solution(puzzle.as_ref());
    let digits: Vec<i64> = ["S", "E", "N", "D", "M", "O", "R", "Y"].iter().map(|l| s[*l].as_i64().unwrap()).collect();
    assert_eq!(digits, vec![9, 5, 6, 7, 1, 0, 8, 2]);
    for engine in puzzle.engines() {
        assert_eq!(count(puzzle.as_ref(), Some(engine)), 1, "{engine}");
    }
}

#[test]
fn magic_squares_and_latin_squares() {
    let magic = load_file("models/csp/magic-square.toml");
    let latin = load_file("models/csp/latin-square.toml");
    for engine in magic.engines() {
        assert_eq!(count(magic.as_ref(), Some(engine)), 8, "{engine}");
        assert_eq!(count(latin.as_ref(), Some(engine)), 576, "{engine}");
    }
    let square = int_grid(&solution(magic.as_ref())["square"]);
    for (i, row) in square.iter().enumerate() {
        assert_eq!(row.iter().sum::<i64>(), 15);
        assert_eq!(square.iter().map(|r| r[i]).sum::<i64>(), 15);
    }
}

#[test]
fn the_zebra_belongs_to_the_japanese_and_the_norwegian_drinks_water() {
    let puzzle = load_file("models/csp/zebra.toml");
    let s = solution(puzzle.as_ref());
    let house = |array: &str, index: usize| s[array][index].as_i64().unwrap();
    // Enum order: Nation english, spanish, ukrainian, norwegian, japanese; Pet ... zebra last; Drink ... water last.
    assert_eq!(house("pet", 4), house("nation", 4), "the Japanese owns the zebra");
    assert_eq!(house("drink", 4), house("nation", 3), "the Norwegian drinks water");
    for engine in puzzle.engines() {
        assert_eq!(count(puzzle.as_ref(), Some(engine)), 1, "{engine}");
    }
}

#[test]
fn the_shrine_as_constraints_agrees_with_the_fans_family() {
    let csp = load_file("models/csp/akh-vaquot.toml");
    let fans = load_file("models/akh-vaquot-listed.toml");
    let from_csp: Vec<String> =
        solution(csp.as_ref())["fan"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
    let from_fans: Vec<String> = solution(fans.as_ref())["fans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["dir"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(from_csp, from_fans);
    assert_eq!(count(csp.as_ref(), None), 1);
    assert_eq!(count(fans.as_ref(), None), 1);
}

#[test]
fn the_knapsack_optimum_and_its_count_match_brute_force() {
    let text = std::fs::read_to_string("models/csp/knapsack.toml").unwrap();
    let table: toml::Table = toml::from_str(&text).unwrap();
    let numbers = |key: &str| -> Vec<i64> {
        table["params"][key].as_array().unwrap().iter().map(|v| v.as_integer().unwrap()).collect()
    };
    let (weight, value) = (numbers("weight"), numbers("value"));
    let capacity = table["params"]["capacity"].as_integer().unwrap();
    let mut best = i64::MIN;
    let mut optimal = 0;
    for subset in 0u32..1 << weight.len() {
        let pick = |v: &[i64]| (0..v.len()).filter(|i| subset >> i & 1 == 1).map(|i| v[i]).sum::<i64>();
        if pick(&weight) <= capacity {
            match pick(&value).cmp(&best) {
                std::cmp::Ordering::Greater => (best, optimal) = (pick(&value), 1),
                std::cmp::Ordering::Equal => optimal += 1,
                std::cmp::Ordering::Less => {}
            }
        }
    }
    let puzzle = load_file("models/csp/knapsack.toml");
    for engine in puzzle.engines() {
        let options = SolveOptions { engine: Some(engine.to_string()), ..Default::default() };
        let report = puzzle.solve(&options).unwrap();
        assert_eq!(report.objective, Some(best), "{engine}");
        assert_eq!(count(puzzle.as_ref(), Some(engine)), optimal, "{engine}");
    }
    // A second optimum: with a value changed so two subsets tie, both are counted.
    let tied = text.replace(
        "value = [92, 57, 49, 68, 60, 43, 67, 84, 87, 72, 13, 21]",
        "value = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",
    );
    let puzzle = load_text(&tied);
    let report = puzzle.solve(&SolveOptions::default()).unwrap();
    let mut items = 0;
    let mut ways = 0;
    let mut sorted = weight.clone();
    sorted.sort();
    while items < sorted.len() && sorted[..=items].iter().sum::<i64>() <= capacity {
        items += 1;
    }
    for subset in 0u32..1 << weight.len() {
        let w: i64 = (0..weight.len()).filter(|i| subset >> i & 1 == 1).map(|i| weight[i]).sum();
        if subset.count_ones() as usize == items && w <= capacity {
            ways += 1;
        }
    }
    assert_eq!(report.objective, Some(items as i64));
    assert!(ways > 1);
    assert_eq!(count(puzzle.as_ref(), None), ways);
}

#[test]
fn every_engine_agrees_in_compare() {
    for model in [
        "sudoku-hardest",
        "queens",
        "send-more-money",
        "magic-square",
        "latin-square",
        "zebra",
        "akh-vaquot",
        "knapsack",
        "exam-timetable",
    ] {
        let puzzle = load_file(&format!("models/csp/{model}.toml"));
        let report = compare(puzzle.as_ref(), &CompareOptions { count: true, ..Default::default() }).unwrap();
        assert!(report.agree, "{model}: {report:?}");
        // The four SAT encodings, and the fd engine where the model is in
        // its fragment.
        assert_eq!(report.results.len(), puzzle.compared_engines().len(), "{model}");
        assert!(report.results.len() >= 4, "{model}");
    }
}

#[test]
fn solve_json_keeps_the_contract() {
    let (code, json) = run_json(&["solve", "models/csp/zebra.toml"]);
    assert_eq!(code, 0);
    assert_eq!(json["kind"], "csp");
    assert_eq!(json["status"], "solved");
    assert_eq!(json["solution"]["colour"].as_array().unwrap().len(), 5);
    assert!(json.get("objective").is_none(), "no objective without minimize/maximize");
    assert_eq!(json["stats"]["engine"], "auto");

    let (_, json) = run_json(&["solve", "models/csp/akh-vaquot.toml"]);
    assert_eq!(json["solution"]["fan"][0], "right", "enums by name");
    let (_, json) = run_json(&["solve", "models/csp/sudoku-17.toml"]);
    assert_eq!(json["solution"]["cell"].as_array().unwrap().len(), 9, "2-D arrays nested");
    assert_eq!(json["solution"]["cell"][0].as_array().unwrap().len(), 9);
    let (_, json) = run_json(&["solve", "models/csp/knapsack.toml"]);
    assert_eq!(json["objective"], 309);
    assert!(json["solution"]["take"][0].is_boolean());

    let (code, json) = run_json(&["count", "models/csp/queens.toml"]);
    assert_eq!(code, 0);
    assert_eq!(
        (json["kind"].as_str(), json["count"].as_u64(), json["complete"].as_bool()),
        (Some("csp"), Some(92), Some(true))
    );
    let (_, json) = run_json(&["count", "models/csp/queens.toml", "--limit", "5"]);
    assert_eq!((json["count"].as_u64(), json["complete"].as_bool()), (Some(5), Some(false)));
}

#[test]
fn facts_json_lists_the_values_each_element_can_take() {
    let (code, json) = run_json(&["facts", "models/csp/magic-square.toml"]);
    assert_eq!(code, 0);
    assert_eq!(json["status"], "solved");
    assert_eq!(json["values"]["square"][1][1], serde_json::json!([5]), "the centre is forced");
    assert_eq!(json["values"]["square"][0][0], serde_json::json!([2, 4, 6, 8]));
    let (code, json) = run_json(&["facts", "models/csp/exam-timetable.toml"]);
    assert_eq!(code, 1);
    assert_eq!(json["status"], "no_solution");
}

#[test]
fn explain_names_a_minimal_set_with_lines() {
    let (code, json) = run_json(&["explain", "models/csp/exam-timetable.toml"]);
    assert_eq!(code, 1);
    assert_eq!(json["status"], "no_solution");
    let names: Vec<&str> =
        json["constraints"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["Ann takes algebra and biology", "Cat takes biology and chemistry", "Dan takes algebra and chemistry"]
    );
    let lines: Vec<u64> = json["constraints"].as_array().unwrap().iter().map(|c| c["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [18, 26, 34]);
    assert!(json["sat_calls"].as_u64().unwrap() >= 2);

    let (code, json) = run_json(&["explain", "models/csp/zebra.toml"]);
    assert_eq!((code, json["status"].as_str()), (0, Some("solved")));

    // A forall instance is named with its loop values.
    let text = std::fs::read_to_string("models/csp/queens.toml").unwrap().replace("n = 8", "n = 3");
    let puzzle = load_text(&text);
    let report = puzzle.explain(&SolveOptions::default()).unwrap();
    assert_eq!(report.status, Status::NoSolution);
    assert!(report.constraints.iter().any(|c| c.name.starts_with("no two queens on a diagonal (i = ")), "{report:?}");
}

#[test]
fn text_output_draws_grids_and_names_enums() {
    // Without its drawing table a model's 2-D arrays are drawn as matrices;
    // with it, as the table says.
    let model = std::fs::read_to_string("models/csp/sudoku-hardest.toml").unwrap();
    let (plain, _) = model.split_once("\n[draw]").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sudoku.toml");
    std::fs::write(&path, plain).unwrap();
    let out = somaria().arg("solve").arg(&path).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("cell =\n  8 1 2 7 5 3 6 4 9\n  9 4 3 6 8 2 1 7 5\n"), "{text}");
    let out = somaria().args(["solve", "models/csp/sudoku-hardest.toml"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("┃ 8   1   2 ┃ 7   5   3 ┃ 6   4   9 ┃\n"), "{text}");
    let out = somaria().args(["solve", "models/csp/zebra.toml"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    // The zebra's table draws a grid of houses by attribute, each value
    // named in the house it is in (english in 3, spanish in 4, ukrainian
    // in 2, norwegian in 1, japanese in 5).
    let nation = text.lines().find(|l| l.trim_start().starts_with("nation │")).expect("a row of nations");
    let names: Vec<&str> = nation.split(['│', ' ']).filter(|w| !w.is_empty()).collect();
    assert_eq!(names, ["nation", "norwegian", "ukrainian", "english", "spanish", "japanese"], "{text}");
    let out = somaria().args(["solve", "models/csp/knapsack.toml"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("objective = 309 (the proven maximum)"), "{text}");
}

#[test]
fn no_solution_comes_with_a_checkable_proof_and_dimacs() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("proof.bin");
    let cnf = dir.path().join("model.cnf");
    let out = somaria()
        .args(["solve", "models/csp/exam-timetable.toml", "--proof"])
        .arg(&proof)
        .arg("--dimacs")
        .arg(&cnf)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let mut checker = varisat_checker::Checker::new();
    checker.add_dimacs_cnf(std::fs::File::open(&cnf).unwrap()).unwrap();
    checker.check_proof(std::fs::File::open(&proof).unwrap()).unwrap();
    let dimacs = std::fs::read_to_string(&cnf).unwrap();
    assert!(dimacs.contains("Ann takes algebra and biology"), "groups named in comments");
}

#[test]
fn unknown_engines_are_refused_with_the_list() {
    let out = somaria().args(["solve", "models/csp/queens.toml", "--engine", "cp"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("auto, direct, order, log"), "{stderr}");
}

#[test]
fn a_time_limit_stops_a_long_count_with_the_partial_count() {
    let dir = tempfile::tempdir().unwrap();
    let queens = std::fs::read_to_string("models/csp/queens.toml").unwrap().replace("n = 8", "n = 14");
    let path = write_model(dir.path(), "queens-14.toml", queens);
    // 2 s, so that a loaded machine still counts some of the 365,596 first.
    let out = somaria().args(["count", "--timeout", "2", "--format", "json"]).arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let json = json_of(&out.stdout);
    assert_eq!(json["complete"], false);
    assert!(json["count"].as_u64().unwrap() > 0, "{json}");
}

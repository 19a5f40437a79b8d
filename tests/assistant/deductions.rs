//! `Deducible::deductions` as the commands built on it see it: the rules say
//! what they speak of, the facts and conflicts it gives agree with `facts`
//! and `explain` on every shipped model that has deductions, and a family
//! without them says so.

use crate::common;

use common::models::{load_file, load_text};
use somaria::deduce::{self, Wanted};
use somaria::puzzles::{Puzzle, SolveOptions, Status};
use somaria::solver::Answer;

/// Shipped models of every family that offers deductions, quick enough to
/// run each way.
const MODELS: &[&str] = &[
    "models/akh-vaquot.toml",
    "models/akh-vaquot-listed.toml",
    "models/heros-cave.toml",
    "models/heros-cave-somaria.toml",
    "models/tile-cover-end.toml",
    "models/csp/zebra.toml",
    "models/csp/queens.toml",
    "models/csp/send-more-money.toml",
    "models/csp/knapsack.toml",
    "models/csp/heros-cave.toml",
    "models/csp/slitherlink.toml",
];

/// The set of facts that can hold, from the deductions with every rule
/// switched on, is the one `facts` reports; the conflict among all the
/// rules is what `explain` reports.
#[test]
fn deductions_with_every_rule_on_agree_with_facts_and_explain() {
    for path in MODELS {
        let puzzle = load_file(path);
        let options = SolveOptions::default();
        let mut steps = puzzle.deducible().unwrap().deductions(&options, Wanted::STEPS).unwrap();
        let every: Vec<usize> = (0..steps.rules.len()).collect();
        let conflict = deduce::minimal_conflict(&mut steps, &every).unwrap();
        let explained = puzzle.explain(&options).unwrap();
        assert_eq!(conflict.is_some(), explained.status == Status::NoSolution, "{path}");
        let names: Vec<String> = conflict.iter().flatten().map(|&r| steps.rules[r].name.clone()).collect();
        if explained.certificate.is_none() {
            let reported: Vec<String> = explained.constraints.iter().map(|c| c.name.clone()).collect();
            assert_eq!(names, reported, "{path}");
        }
        let mut fixed = puzzle.deducible().unwrap().deductions(&options, Wanted::FACTS).unwrap();
        let possible = deduce::possible_facts(&mut fixed).unwrap();
        let facts = puzzle.facts(&options).unwrap();
        assert_eq!(possible.is_some(), facts.status == Status::Solved, "{path}");
        if let Some(possible) = possible {
            assert_eq!(possible.len(), fixed.facts.len(), "{path}");
            // The slow way: one call per fact, assuming it.
            for (fact, &p) in fixed.facts.iter().zip(&possible).take(200) {
                let mut assumed = fixed.assumptions.clone();
                assumed.push(fact.lit);
                let answer = fixed.solver.solve_under(&assumed).unwrap();
                assert_eq!(answer == Answer::Sat, p, "{path}: {}", fact.name);
            }
        }
    }
}

#[test]
fn a_fan_rule_speaks_of_its_weathercock_and_the_fans_that_reach_it() {
    // Fan 0 reaches the weathercock from the left, fan 1 from below; fan 2 cannot.
    let puzzle = load_text("kind = \"fans\"\ngrid = \"\"\"\nFW.\n.F#\nF..\n\"\"\"\n");
    let d = puzzle.deducible().unwrap().deductions(&SolveOptions::default(), Wanted::STEPS).unwrap();
    assert_eq!(d.rules.len(), 1);
    assert_eq!(d.rules[0].name, "weathercock at (0, 1) spins");
    assert_eq!(d.rules[0].cells, vec![(0, 1), (0, 0), (1, 1)]);
    assert_eq!(d.rules[0].subjects, vec![0, 1]);
    assert_eq!(d.facts.len(), 12);
    assert_eq!(d.facts[4].name, "fan 1 at (1, 1) blows up");
}

#[test]
fn a_tile_rule_is_its_tile_and_the_facts_are_steps() {
    let puzzle = load_text("kind = \"tile-cover\"\ngrid = \"\"\"\nS.\n#.\n\"\"\"\n");
    let d = puzzle.deducible().unwrap().deductions(&SolveOptions::default(), Wanted::STEPS).unwrap();
    let names: Vec<&str> = d.rules.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "the walk leaves the start (0, 0) once",
            "the tile at (0, 1) is entered once and left once, unless it is the last",
            "the tile at (1, 1) is entered once and left once, unless it is the last",
            "the walk ends once",
            "the colour count: the walk alternates the checkerboard's colours",
            "the route is one piece: every covered tile is reached from the start",
        ]
    );
    assert_eq!(d.rules[2].cells, vec![(1, 1)]);
    // Arcs: start -> (0, 1), (0, 1) -> (1, 1), (1, 1) -> (0, 1).
    let facts: Vec<(&str, &serde_json::Value)> = d.facts.iter().map(|f| (f.about.as_str(), &f.shown)).collect();
    assert_eq!(facts.len(), 3);
    assert_eq!(facts[1], ("step from (0, 1)", &serde_json::json!("down")));
    assert_eq!(d.facts[1].name, "the route steps down from (0, 1)");
    // The rule of (1, 1) speaks of the steps from it and into it.
    assert_eq!(d.rules[2].subjects, vec![d.facts[1].subject, d.facts[2].subject]);
}

#[test]
fn a_csp_rule_names_the_cells_of_the_array_it_reads() {
    let text = "kind = \"csp\"\n[vars]\nx = { index = [\"1..2\", \"3..4\"], domain = \"1..3\" }\ny = \"1..3\"\n\
                [[constraint]]\nname = \"corner\"\nexpr = 'x[1,4] + x[2,3] = y'\n";
    let puzzle = load_text(text);
    let d = puzzle.deducible().unwrap().deductions(&SolveOptions::default(), Wanted::STEPS).unwrap();
    assert_eq!(d.rules.len(), 1);
    assert_eq!(d.rules[0].line, Some(7));
    // x[1,4] and x[2,3] are the second and third scalars; y the fifth.
    assert_eq!(d.rules[0].subjects, vec![1, 2, 4]);
    assert_eq!(d.rules[0].cells, vec![(0, 1), (1, 0)]);
    assert!(d.facts.iter().any(|f| f.name == "x[2,3] = 2"), "{:?}", d.facts);
}

#[test]
fn keys_and_doors_offers_no_deductions() {
    let puzzle: Box<dyn Puzzle> = load_file("models/keys-doors/one-key.toml");
    assert!(puzzle.deducible().is_none(), "keys and doors offers deductions");
}

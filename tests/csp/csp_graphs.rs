//! `graph_connected` and `graph_acyclic` against brute force: random small
//! graphs (up to 7 nodes, up to 9 edges, self-loops and parallel edges
//! among them), each node's (or edge's) Boolean fixed true, fixed false or
//! a decision variable `x[k]`, and the array's index range shifted. A
//! counter written here walks every assignment of `x`, judges it by its own
//! search (a breadth-first search over the nodes that are on, a count of
//! pieces against edges for a forest) and counts the ones that hold; every
//! engine that takes the global must count the same, `solve` must agree on
//! whether there is a solution, and `facts` must give each `x[k]` exactly
//! the values some solution gives it. Bad calls are refused with exit 2,
//! their place, what was found and what was expected.

use std::collections::VecDeque;

use proptest::prelude::*;
use somaria::puzzles::{Puzzle, SolveOptions, Status};

use crate::common;
use common::cli::{assert_mentions, refused, refused_with};
use common::models::{engines_count_as, load_text};

/// One Boolean of the global's array: fixed, or `x[k]`.
#[derive(Clone, Copy, Debug)]
enum Flag {
    Fixed(bool),
    Free,
}

/// One random case.
#[derive(Clone, Debug)]
struct Case {
    /// `graph_acyclic` (the flags are the edges'), else `graph_connected`
    /// (the flags are the nodes').
    acyclic: bool,
    /// The first index of the global's array.
    first: i64,
    /// The flags, one per node (or edge).
    flags: Vec<Flag>,
    /// The edges: for `graph_connected` node numbers from 0, for
    /// `graph_acyclic` any integers.
    edges: Vec<(i64, i64)>,
}

impl Case {
    /// Whether the global holds when `x` takes the bits of `mask`.
    fn holds(&self, mask: u32) -> bool {
        let on: Vec<bool> = self
            .flags
            .iter()
            .enumerate()
            .map(|(k, f)| match f {
                Flag::Fixed(b) => *b,
                Flag::Free => mask >> k & 1 == 1,
            })
            .collect();
        if self.acyclic { is_forest(&self.edges, &on) } else { connected(&self.edges, &on) }
    }

    fn model(&self) -> String {
        let n = self.flags.len();
        let (lo, hi) = (self.first, self.first + n as i64 - 1);
        let list = |values: Vec<String>| format!("[{}]", values.join(", "));
        let shift = if self.acyclic { 0 } else { self.first };
        let from = list(self.edges.iter().map(|e| (e.0 + shift).to_string()).collect());
        let to = list(self.edges.iter().map(|e| (e.1 + shift).to_string()).collect());
        let flags = list(
            self.flags
                .iter()
                .enumerate()
                .map(|(k, f)| match f {
                    Flag::Fixed(b) => b.to_string(),
                    Flag::Free => format!("x[{}]", k + 1),
                })
                .collect(),
        );
        let global = if self.acyclic { "graph_acyclic" } else { "graph_connected" };
        format!(
            "kind = \"csp\"\n[params]\nfrom = \"{from}\"\nto = \"{to}\"\n[vars]\n\
             x = {{ index = [\"1..{n}\"], domain = \"bool\" }}\n\
             [[constraint]]\nexpr = '{global}(array1d({lo}..{hi}, {flags}), from, to)'\n"
        )
    }
}

/// The nodes that are on are connected over the edges between them.
fn connected(edges: &[(i64, i64)], on: &[bool]) -> bool {
    let Some(first) = on.iter().position(|&b| b) else { return true };
    let mut reached = vec![false; on.len()];
    reached[first] = true;
    let mut queue = VecDeque::from([first]);
    while let Some(node) = queue.pop_front() {
        for &(a, b) in edges {
            let (a, b) = (a as usize, b as usize);
            let other = if a == node {
                b
            } else if b == node {
                a
            } else {
                continue;
            };
            if on[other] && !reached[other] {
                reached[other] = true;
                queue.push_back(other);
            }
        }
    }
    on.iter().zip(&reached).all(|(&o, &r)| !o || r)
}

/// The used edges hold no cycle: a graph whose pieces are trees has as
/// many edges as nodes less pieces.
fn is_forest(edges: &[(i64, i64)], used: &[bool]) -> bool {
    let mut nodes: Vec<i64> = edges.iter().flat_map(|&(a, b)| [a, b]).collect();
    nodes.sort_unstable();
    nodes.dedup();
    let mut label: Vec<usize> = (0..nodes.len()).collect();
    let at = |v: i64| nodes.binary_search(&v).unwrap();
    let mut taken = 0;
    for (&(a, b), _) in edges.iter().zip(used).filter(|(_, u)| **u) {
        taken += 1;
        let (la, lb) = (label[at(a)], label[at(b)]);
        label.iter_mut().filter(|l| **l == la).for_each(|l| *l = lb);
    }
    let pieces = (0..nodes.len()).filter(|&k| label[k] == k).count();
    taken == nodes.len() - pieces
}

/// The solutions, as the values of `x` (its free bits; the others free
/// too, since `x[k]` of a fixed flag is read by no constraint).
fn brute_force(case: &Case) -> Vec<u32> {
    (0u32..1 << case.flags.len()).filter(|&mask| case.holds(mask)).collect()
}

fn flag() -> impl Strategy<Value = Flag> {
    prop_oneof![2 => Just(Flag::Free), 1 => any::<bool>().prop_map(Flag::Fixed)]
}

fn case() -> impl Strategy<Value = Case> {
    let connected = (1usize..=7, -2i64..=3).prop_flat_map(|(n, first)| {
        let edges = proptest::collection::vec((0..n as i64, 0..n as i64), 0..=9);
        (proptest::collection::vec(flag(), n), edges).prop_map(move |(flags, edges)| Case {
            acyclic: false,
            first,
            flags,
            edges,
        })
    });
    let acyclic = (0usize..=9, -2i64..=3).prop_flat_map(|(m, first)| {
        // Few labels, so that self-loops, parallel edges and cycles come often.
        let edges = proptest::collection::vec((-3i64..=2, -3i64..=2), m);
        (proptest::collection::vec(flag(), m), edges).prop_map(move |(flags, edges)| Case {
            acyclic: true,
            first,
            flags,
            edges,
        })
    });
    prop_oneof![connected, acyclic]
}

/// Counts and solves `case` with every engine that takes it, and checks
/// `facts` with the default engine.
fn check(case: &Case) {
    let text = case.model();
    let puzzle = load_text(&text);
    let solutions = brute_force(case);
    let engines = puzzle.engines();
    assert_eq!(engines.contains(&"eager"), !case.acyclic, "graph_acyclic has no eager form\n{text}");
    engines_count_as(puzzle.as_ref(), &text, engines, solutions.len() as u64);
    check_facts(case, puzzle.as_ref(), &solutions, &text);
}

fn check_facts(case: &Case, puzzle: &dyn Puzzle, solutions: &[u32], text: &str) {
    let facts = puzzle.facts(&SolveOptions::default()).unwrap_or_else(|e| panic!("facts: {e}\n{text}"));
    assert_eq!(facts.status == Status::Solved, !solutions.is_empty(), "facts\n{text}");
    if solutions.is_empty() {
        return;
    }
    for k in 0..case.flags.len() {
        let took: Vec<bool> =
            facts.json["values"]["x"][k].as_array().unwrap().iter().map(|v| v.as_bool().unwrap()).collect();
        let wanted: Vec<bool> =
            [false, true].into_iter().filter(|&b| solutions.iter().any(|&m| (m >> k & 1 == 1) == b)).collect();
        assert_eq!(took, wanted, "facts of x[{}]\n{text}", k + 1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn graph_globals_count_as_brute_force(case in case()) {
        check(&case);
    }
}

#[test]
fn the_brute_force_counts_known_graphs() {
    let free = |n: usize| vec![Flag::Free; n];
    // A 5-cycle: connected sets are the empty one, 5 singletons, 5 arcs of
    // each length 2, 3 and 4, and the whole cycle.
    let cycle: Vec<(i64, i64)> = (0..5).map(|k| (k, (k + 1) % 5)).collect();
    let ring = Case { acyclic: false, first: 1, flags: free(5), edges: cycle.clone() };
    assert_eq!(brute_force(&ring).len(), 22);
    check(&ring);
    // Its edges as a forest: every set but the whole cycle.
    let forest = Case { acyclic: true, first: 1, flags: free(5), edges: cycle };
    assert_eq!(brute_force(&forest).len(), 31);
    check(&forest);
    // A self-loop is never used; of two parallel edges at most one is.
    let small = Case { acyclic: true, first: 0, flags: free(3), edges: vec![(4, 4), (1, 2), (2, 1)] };
    assert_eq!(brute_force(&small).len(), 3);
    check(&small);
}

/// A model with `on` (6 Booleans, 1..6), `used` (3 Booleans), `x` (an
/// integer) and the call `call` on line 7.
fn bad_model(call: &str) -> String {
    format!(
        "kind = \"csp\"\n[vars]\non = {{ index = [\"1..6\"], domain = \"bool\" }}\n\
         used = {{ index = [\"1..3\"], domain = \"bool\" }}\nx = \"1..6\"\n[[constraint]]\nexpr = '{call}'\n"
    )
}

#[test]
fn bad_uses_are_refused_with_their_place() {
    let cases: Vec<(&str, &[&str])> = vec![
        // An end outside `on`'s indices.
        (
            "graph_connected(on, [1, 2, 3], [2, 7, 4])",
            &["bad.toml:7:40:", "`to[2]` = 7, not a node", "expected an index of `on` (the first argument): 1..6"],
        ),
        ("graph_connected(on, [0, 1], [1, 2])", &["bad.toml:7:29:", "`from[1]` = 0"]),
        // `from` and `to` of different lengths.
        (
            "graph_connected(on, [1, 2, 3], [2, 3])",
            &["bad.toml:7:40:", "`to` (argument 3 of `graph_connected`) with 2 element(s)", "expected 3 element(s)"],
        ),
        (
            "graph_acyclic(used, [1, 2], [2, 3])",
            &["bad.toml:7:29:", "`from` (argument 2 of `graph_acyclic`) with 2 element(s)", "expected 3 element(s)"],
        ),
        // Ends that depend on decision variables.
        (
            "graph_connected(on, [1, x], [2, 3])",
            &["bad.toml:7:29:", "depends on decision variables", "a fixed 1-D array `from`"],
        ),
        ("graph_acyclic(used, [1, 2, 3], [x, 2, 3])", &["bad.toml:7:40:", "depends on decision variables"]),
        // Wrong types.
        ("graph_connected([1, 2, 3], [1, 2], [2, 3])", &["bad.toml:7:25:", "a 1-D array of Booleans"]),
        (
            "graph_connected(on, [true, false], [2, 3])",
            &["bad.toml:7:29:", "of type array[int] of bool", "a fixed 1-D array `from` of int values"],
        ),
        (
            "graph_acyclic(used, [1, 2, 3], array2d(1..1, 1..3, [1, 2, 3]))",
            &["bad.toml:7:40:", "array[int, int] of int", "a fixed 1-D array `to` of integers"],
        ),
        ("graph_connected(array2d(1..2, 1..3, on), [1], [2])", &["bad.toml:7:25:", "expected a 1-D array of Booleans"]),
        // Wrong arity.
        ("graph_connected(on, [1, 2])", &["bad.toml:7:9:", "`graph_connected` with 2 arguments"]),
        ("graph_acyclic(used)", &["bad.toml:7:9:", "`graph_acyclic` with 1 argument"]),
        // Under a negation.
        ("not graph_acyclic(used, [1, 2, 3], [2, 3, 1])", &["bad.toml:7:13:", "graph_acyclic"]),
    ];
    for (call, parts) in cases {
        let stderr = refused(bad_model(call));
        assert_mentions(&stderr, parts);
    }
    let good = bad_model("graph_acyclic(used, [1, 2, 3], [2, 3, 1])");
    let stderr = refused_with(&good, &["--engine", "eager"]);
    assert_mentions(&stderr, &["graph_acyclic", "no eager form", "expected another engine"]);
}

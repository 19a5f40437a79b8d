//! `grid_connected` under a Boolean guard (`guard -> grid_connected(x)`),
//! and `graph_connected` over the grid's side neighbours given as edges,
//! against brute force: random grids up to 3 × 3 with some cells fixed,
//! and guards of every kind the compiler meets (a variable of its own, a
//! cell of the grid, a conjunction, a comparison, a constant). A counter
//! written here walks every assignment and counts those where the guard is
//! false or the cells that are on are one 4-connected piece, by its own
//! flood fill; every engine, the eager one included, must count the same
//! and `solve` (whose answers the verifier checks) must agree on whether
//! there is a solution. A grid global in a place still not supported is
//! refused with exit 2, its position, what was found and what was expected.

use proptest::prelude::*;

use crate::common;
use common::cli::{assert_mentions, refused};
use common::models::{engines_count_as, load_text};

/// The guards, as written in the model.
const GUARDS: [&str; 6] = ["b", "x[1, 1]", "b /\\ c", "sum(x) >= 2", "1 > 2", "not b \\/ c"];

/// One random case.
#[derive(Clone, Debug)]
struct Case {
    rows: usize,
    cols: usize,
    /// Per cell, its value when fixed.
    fixed: Vec<Option<bool>>,
    /// Which of [`GUARDS`].
    guard: usize,
    /// Whether the model says it with `graph_connected` over `array1d(x)`
    /// and the grid's side neighbours as edges, rather than with
    /// `grid_connected(x)`.
    as_graph: bool,
}

impl Case {
    fn connected(&self, on: &[bool]) -> bool {
        let Some(first) = on.iter().position(|&o| o) else { return true };
        let mut reached = vec![false; on.len()];
        reached[first] = true;
        let mut stack = vec![first];
        while let Some(k) = stack.pop() {
            let (r, c) = (k / self.cols, k % self.cols);
            let mut next = Vec::new();
            if r > 0 {
                next.push(k - self.cols);
            }
            if r + 1 < self.rows {
                next.push(k + self.cols);
            }
            if c > 0 {
                next.push(k - 1);
            }
            if c + 1 < self.cols {
                next.push(k + 1);
            }
            for n in next {
                if on[n] && !reached[n] {
                    reached[n] = true;
                    stack.push(n);
                }
            }
        }
        on.iter().zip(&reached).all(|(&o, &r)| !o || r)
    }

    fn brute_force(&self) -> u64 {
        let n = self.rows * self.cols;
        let mut count = 0;
        for mask in 0u64..1 << (n + 2) {
            let on: Vec<bool> = (0..n).map(|k| mask >> k & 1 == 1).collect();
            let (b, c) = (mask >> n & 1 == 1, mask >> (n + 1) & 1 == 1);
            if self.fixed.iter().zip(&on).any(|(f, &o)| f.is_some_and(|f| f != o)) {
                continue;
            }
            let guard = match self.guard {
                0 => b,
                1 => on[0],
                2 => b && c,
                3 => on.iter().filter(|&&o| o).count() >= 2,
                4 => false,
                _ => !b || c,
            };
            count += u64::from(!guard || self.connected(&on));
        }
        count
    }

    fn model(&self) -> String {
        let (rows, cols) = (self.rows, self.cols);
        let mut text = format!(
            "kind = \"csp\"\n[vars]\nx = {{ index = [\"1..{rows}\", \"1..{cols}\"], domain = \"bool\" }}\n\
             b = {{ domain = \"bool\" }}\nc = {{ domain = \"bool\" }}\n"
        );
        let global = if self.as_graph { self.graph_call() } else { "grid_connected(x)".to_string() };
        text += &format!("[[constraint]]\nexpr = '{} -> {global}'\n", GUARDS[self.guard]);
        for (k, f) in self.fixed.iter().enumerate() {
            if let Some(f) = f {
                let not = if *f { "" } else { "not " };
                text += &format!("[[constraint]]\nexpr = '{not}x[{}, {}]'\n", k / cols + 1, k % cols + 1);
            }
        }
        text
    }

    /// `graph_connected(array1d(x), from, to)` with an edge, numbered row
    /// by row from 1, between each two cells side by side.
    fn graph_call(&self) -> String {
        let (rows, cols) = (self.rows, self.cols);
        let mut edges = Vec::new();
        for k in 0..rows * cols {
            if k % cols + 1 < cols {
                edges.push((k + 1, k + 2));
            }
            if k / cols + 1 < rows {
                edges.push((k + 1, k + cols + 1));
            }
        }
        let list =
            |end: fn(&(usize, usize)) -> usize| edges.iter().map(|e| end(e).to_string()).collect::<Vec<_>>().join(", ");
        format!("graph_connected(array1d(x), [{}], [{}])", list(|e| e.0), list(|e| e.1))
    }
}

fn case() -> impl Strategy<Value = Case> {
    let shape = prop_oneof![Just((1usize, 4usize)), Just((2, 2)), Just((2, 3)), Just((3, 3))];
    (shape, 0..GUARDS.len(), any::<bool>()).prop_flat_map(|((rows, cols), guard, as_graph)| {
        proptest::collection::vec(proptest::option::weighted(0.2, any::<bool>()), rows * cols)
            .prop_map(move |fixed| Case { rows, cols, fixed, guard, as_graph })
    })
}

/// Counts and solves `case` with every engine.
fn check(case: &Case) {
    let text = case.model();
    let puzzle = load_text(&text);
    let expected = case.brute_force();
    engines_count_as(puzzle.as_ref(), &text, puzzle.engines(), expected);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn guarded_regions_count_as_brute_force(case in case()) {
        check(&case);
    }
}

#[test]
fn the_brute_force_counts_a_known_grid() {
    // 1 × 4 with b: b false leaves all 16 fillings of x (and c free: 32);
    // b true leaves the fillings whose cells on are one run (1 + 4 + 3 +
    // 2 + 1 = 11, and c free: 22).
    let case = Case { rows: 1, cols: 4, fixed: vec![None; 4], guard: 0, as_graph: false };
    assert_eq!(case.brute_force(), 54);
    check(&case);
    check(&Case { as_graph: true, ..case });
}

#[test]
fn globals_where_still_unsupported_are_refused() {
    let model = |expr: &str| {
        format!(
            "kind = \"csp\"\n[vars]\nx = {{ index = [\"1..2\", \"1..3\"], domain = \"bool\" }}\n\
             b = {{ domain = \"bool\" }}\n[[constraint]]\nexpr = '{expr}'\n"
        )
    };
    let expected = "`grid_connected` or `graph_connected` under a guard (`b -> grid_connected(on)`)";
    let cases: [(&str, &[&str]); 6] = [
        ("not grid_connected(x)", &["bad.toml:6:13", "`grid_connected` under `not`", expected]),
        ("grid_connected(x) -> b", &["`grid_connected` under `->`"]),
        ("b -> grid_path(x, 1, 1)", &["`grid_path` under `->`"]),
        ("b -> graph_acyclic(array1d(x), [1, 2, 3, 4, 5, 6], [2, 3, 4, 5, 6, 1])", &["`graph_acyclic` under `->`"]),
        ("(b -> grid_connected(x)) \\/ b", &["`grid_connected` under `\\/`"]),
        ("grid_connected(x) -> grid_connected(x)", &["`grid_connected` in the guard of `->`"]),
    ];
    for (expr, mentions) in cases {
        let stderr = refused(model(expr));
        assert_mentions(&stderr, mentions);
    }
}

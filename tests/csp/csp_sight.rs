//! `grid_sight` against brute force: random grids up to 3 × 4 whose cells
//! are open or blocked (a decision variable, its negation, or fixed), with
//! sight-line counts asked of random cells (`=`, `<=` or `>=` a number), in
//! both forms (with marks, a second array of variables, the count is of
//! the marked cells seen). A counter written here walks every assignment
//! and counts sight lines by its own walk; nothing is shared with
//! somaria's code. Every engine must count the same, and `solve` (whose
//! answers the verifier checks) must agree on whether there is a solution.
//! Bad calls are refused with exit 2.

use proptest::prelude::*;
use somaria::puzzles::CountOptions;

use crate::common;
use common::bool_cells::{BoolCell, array2d};
use common::cli::{assert_mentions, refused};
use common::models::{engines_count_as, load_text};

/// One random case.
#[derive(Clone, Debug)]
struct Case {
    rows: usize,
    cols: usize,
    cells: Vec<BoolCell>,
    /// Whether the counts are of the marked cells seen (`m[i, j]`).
    marked: bool,
    /// `(cell, relation, number)`: relation 0 is `=`, 1 `<=`, 2 `>=`.
    asks: Vec<(usize, u8, i64)>,
}

impl Case {
    /// Cells seen from `from` (itself included, open or not), when `open`
    /// says which cells are open.
    fn seen(&self, open: &[bool], from: usize) -> Vec<usize> {
        let (r, c) = ((from / self.cols) as i64, (from % self.cols) as i64);
        let mut seen = vec![from];
        for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            let (mut i, mut j) = (r + dr, c + dc);
            while i >= 0 && j >= 0 && i < self.rows as i64 && j < self.cols as i64 {
                let k = i as usize * self.cols + j as usize;
                if !open[k] {
                    break;
                }
                seen.push(k);
                (i, j) = (i + dr, j + dc);
            }
        }
        seen
    }

    fn brute_force(&self) -> u64 {
        let n = self.rows * self.cols;
        let bits = if self.marked { 2 * n } else { n };
        let mut count = 0;
        for mask in 0u64..1 << bits {
            let x = |k: usize| mask >> k & 1 == 1;
            let m = |k: usize| mask >> (n + k) & 1 == 1;
            let open: Vec<bool> = self.cells.iter().enumerate().map(|(k, cell)| cell.value(x(k))).collect();
            let holds = self.asks.iter().all(|&(from, relation, number)| {
                let seen = self.seen(&open, from);
                let got = if self.marked { seen.iter().filter(|&&k| m(k)).count() } else { seen.len() } as i64;
                match relation {
                    0 => got == number,
                    1 => got <= number,
                    _ => got >= number,
                }
            });
            count += u64::from(holds);
        }
        count
    }

    fn model(&self) -> String {
        let (rows, cols) = (self.rows, self.cols);
        let mut text =
            format!("kind = \"csp\"\n[vars]\nx = {{ index = [\"1..{rows}\", \"1..{cols}\"], domain = \"bool\" }}\n");
        if self.marked {
            text += &format!("m = {{ index = [\"1..{rows}\", \"1..{cols}\"], domain = \"bool\" }}\n");
        }
        let open = array2d(&self.cells, cols, 1);
        for &(from, relation, number) in &self.asks {
            let marks = if self.marked { ", m" } else { "" };
            let op = ["=", "<=", ">="][relation as usize];
            let (r, c) = (from / cols + 1, from % cols + 1);
            text += &format!("[[constraint]]\nexpr = 'grid_sight({open}, {r}, {c}{marks}) {op} {number}'\n");
        }
        text
    }
}

fn case() -> impl Strategy<Value = Case> {
    let shape = prop_oneof![Just((1usize, 4usize)), Just((2, 2)), Just((2, 3)), Just((3, 3)), Just((3, 4))];
    (shape, any::<bool>()).prop_flat_map(|((rows, cols), marked)| {
        // Marks double the assignments the counter walks.
        let (rows, cols) = if marked && rows * cols > 9 { (3, 3) } else { (rows, cols) };
        let n = rows * cols;
        let cell = BoolCell::strategy();
        let ask = (0..n, 0u8..3, 0i64..=(rows + cols) as i64);
        (proptest::collection::vec(cell, n), proptest::collection::vec(ask, 1..=3))
            .prop_map(move |(cells, asks)| Case { rows, cols, cells, marked, asks })
    })
}

/// Counts and solves `case` with every engine.
fn check(case: &Case) {
    let text = case.model();
    let puzzle = load_text(&text);
    let expected = case.brute_force();
    engines_count_as(puzzle.as_ref(), &text, puzzle.compared_engines(), expected);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn sight_counts_as_brute_force(case in case()) {
        check(&case);
    }
}

#[test]
fn the_brute_force_counts_a_known_grid() {
    // (1, 2) seeing 3 of the 2 × 3 grid, itself included: two of its
    // three neighbours open and the third blocked, each with 2 values of
    // (1, 2) and 4 fillings of (2, 1) and (2, 3).
    let case = Case {
        rows: 2,
        cols: 3,
        cells: vec![BoolCell::Var { negated: false }; 6],
        marked: false,
        asks: vec![(1, 0, 3)],
    };
    assert_eq!(case.brute_force(), 24);
    check(&case);
}

#[test]
fn sight_is_a_value_in_any_expression() {
    // Under a negation, in a sum and in an if: a function like any other.
    let text = "kind = \"csp\"\n[vars]\nx = { index = [\"1..1\", \"1..4\"], domain = \"bool\" }\n\
                [[constraint]]\nexpr = 'not (grid_sight(x, 1, 1) = 4) /\\ grid_sight(x, 1, 1) + grid_sight(x, 1, 4) = 4'\n";
    // Counted by brute force: each end and the run of open cells after it.
    let mut expected = 0;
    for mask in 0u32..16 {
        let x = |k: usize| mask >> k & 1 == 1;
        let run = |cells: &mut dyn Iterator<Item = usize>| cells.take_while(|&k| x(k)).count();
        let a = 1 + run(&mut (1..4));
        let b = 1 + run(&mut (0..3).rev());
        expected += u32::from(a != 4 && a + b == 4);
    }
    let puzzle = load_text(text);
    let counted = puzzle.count(&CountOptions::default()).unwrap();
    assert_eq!(counted.count, u64::from(expected));
}

#[test]
fn bad_calls_are_refused() {
    let model = |expr: &str| {
        format!(
            "kind = \"csp\"\n[vars]\nx = {{ index = [\"1..2\", \"1..3\"], domain = \"bool\" }}\n\
             y = {{ index = [\"1..3\", \"1..3\"], domain = \"bool\" }}\nk = {{ domain = \"1..2\" }}\n\
             [[constraint]]\nexpr = '{expr}'\n"
        )
    };
    let cases: [(&str, &[&str]); 5] = [
        ("grid_sight(x, 3, 1) = 1", &["the row 3 seen from, outside the array", "its rows are 1..2"]),
        ("grid_sight(x, k, 1) = 1", &["depends on decision variables", "a fixed value"]),
        ("grid_sight(x, 1, 1, y) = 1", &["fourth argument of `grid_sight`", "rows 1..3", "rows 1..2"]),
        ("grid_sight([true, false], 1, 1) = 1", &["a 2-D array of Booleans"]),
        ("grid_sight(x, 1) = 1", &["grid_sight"]),
    ];
    for (expr, mentions) in cases {
        let stderr = refused(model(expr));
        assert_mentions(&stderr, mentions);
    }
}

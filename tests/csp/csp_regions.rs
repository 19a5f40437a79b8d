//! `grid_regions` against brute force: random grids up to 3 × 3 (and
//! strips 1 × 4), in two forms. Fillomino's, where cells side by side are
//! joined exactly when their numbers are equal and each number is its
//! region's size, with some numbers given and the domain cut to 1..d; and
//! free joins, where the step arrays are decision variables (some fixed)
//! and the sizes follow, with some sizes given. A counter written here
//! walks every assignment (of the numbers, or of the joins), finds the
//! pieces by its own search and counts those whose sizes are right;
//! nothing is shared with somaria's code. Every engine that takes the
//! global must count the same and `solve` must agree on whether there is a
//! solution; the eager engine, and bad calls, are refused with exit 2.

use proptest::prelude::*;

use crate::common;
use common::cli::{assert_mentions, refused, refused_with};
use common::models::{engines_count_as, load_text};

/// One random case.
#[derive(Clone, Debug)]
struct Case {
    rows: usize,
    cols: usize,
    /// Fillomino's form (numbers decide the joins), else free joins.
    equal: bool,
    /// The largest number (fillomino's form) or size (free joins).
    most: usize,
    /// Per cell, the size given there, if any.
    given: Vec<Option<usize>>,
    /// Per step (across ones row by row, then down ones), the join fixed
    /// there, if any (free joins only).
    fixed: Vec<Option<bool>>,
}

/// The steps of a grid: pairs of cells, the across ones row by row, then
/// the down ones.
fn steps(rows: usize, cols: usize) -> Vec<(usize, usize)> {
    let across = (0..rows).flat_map(|r| (0..cols - 1).map(move |c| (r * cols + c, r * cols + c + 1)));
    let down = (0..rows - 1).flat_map(|r| (0..cols).map(move |c| (r * cols + c, (r + 1) * cols + c)));
    across.chain(down).collect()
}

/// Each cell's piece size when the steps `joined` (by step number) join.
fn piece_sizes(cells: usize, pairs: &[(usize, usize)], joined: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut sizes = vec![0; cells];
    let mut seen = vec![false; cells];
    for first in 0..cells {
        if seen[first] {
            continue;
        }
        seen[first] = true;
        let mut piece = vec![first];
        let mut k = 0;
        while k < piece.len() {
            let here = piece[k];
            k += 1;
            for (s, &(a, b)) in pairs.iter().enumerate() {
                let other = if a == here {
                    b
                } else if b == here {
                    a
                } else {
                    continue;
                };
                if joined(s) && !seen[other] {
                    seen[other] = true;
                    piece.push(other);
                }
            }
        }
        piece.iter().for_each(|&c| sizes[c] = piece.len());
    }
    sizes
}

/// The solutions, counted by walking every assignment.
fn brute_force(case: &Case) -> u64 {
    let cells = case.rows * case.cols;
    let pairs = steps(case.rows, case.cols);
    let gives = |sizes: &[usize]| case.given.iter().zip(sizes).all(|(g, &s)| g.is_none_or(|g| g == s));
    let mut count = 0;
    if case.equal {
        let mut numbers = vec![1usize; cells];
        loop {
            let sizes = piece_sizes(cells, &pairs, |s| numbers[pairs[s].0] == numbers[pairs[s].1]);
            count += u64::from(sizes == numbers && gives(&sizes));
            // The next assignment, as a number in base `most`.
            let Some(k) = numbers.iter().position(|&n| n < case.most) else { break };
            numbers[k] += 1;
            numbers[..k].iter_mut().for_each(|n| *n = 1);
        }
    } else {
        for mask in 0u32..1 << pairs.len() {
            let joined = |s: usize| mask >> s & 1 == 1;
            let fixed_kept = case.fixed.iter().enumerate().all(|(s, f)| f.is_none_or(|f| f == joined(s)));
            let sizes = piece_sizes(cells, &pairs, joined);
            count += u64::from(fixed_kept && gives(&sizes) && sizes.iter().all(|&s| s <= case.most));
        }
    }
    count
}

impl Case {
    fn model(&self) -> String {
        let (rows, cols) = (self.rows, self.cols);
        let mut text = format!(
            "kind = \"csp\"\n[vars]\nn = {{ index = [\"1..{rows}\", \"1..{cols}\"], domain = \"1..{}\" }}\n",
            self.most
        );
        let (across, down) = if self.equal {
            (
                format!(
                    "array2d(1..{rows}, 1..{}, [n[i, j] = n[i, j + 1] | i in 1..{rows}, j in 1..{}])",
                    cols - 1,
                    cols - 1
                ),
                format!(
                    "array2d(1..{}, 1..{cols}, [n[i, j] = n[i + 1, j] | i in 1..{}, j in 1..{cols}])",
                    rows - 1,
                    rows - 1
                ),
            )
        } else {
            text += &format!("across = {{ index = [\"1..{rows}\", \"1..{}\"], domain = \"bool\" }}\n", cols - 1);
            text += &format!("down = {{ index = [\"1..{}\", \"1..{cols}\"], domain = \"bool\" }}\n", rows - 1);
            ("across".to_string(), "down".to_string())
        };
        text += &format!("[[constraint]]\nexpr = 'grid_regions(n, {across}, {down})'\n");
        for (k, given) in self.given.iter().enumerate() {
            if let Some(g) = given {
                text += &format!("[[constraint]]\nexpr = 'n[{}, {}] = {g}'\n", k / cols + 1, k % cols + 1);
            }
        }
        let across_steps = rows * (cols - 1);
        for (s, fixed) in self.fixed.iter().enumerate() {
            if let Some(f) = fixed {
                let name = if s < across_steps {
                    format!("across[{}, {}]", s / (cols - 1) + 1, s % (cols - 1) + 1)
                } else {
                    let d = s - across_steps;
                    format!("down[{}, {}]", d / cols + 1, d % cols + 1)
                };
                text += &format!("[[constraint]]\nexpr = '{}{name}'\n", if *f { "" } else { "not " });
            }
        }
        text
    }
}

fn case() -> impl Strategy<Value = Case> {
    let shape = prop_oneof![Just((1usize, 4usize)), Just((2, 2)), Just((2, 3)), Just((3, 2)), Just((3, 3))];
    (shape, any::<bool>(), 2usize..=5).prop_flat_map(|((rows, cols), equal, most)| {
        let cells = rows * cols;
        // A strip has no down steps to declare as variables.
        let equal = equal || rows == 1;
        let most = if equal { most.min(4) } else { cells.min(most + 3) };
        let nsteps = steps(rows, cols).len();
        let given = proptest::collection::vec(proptest::option::weighted(0.3, 1..=most), cells);
        let fixed = proptest::collection::vec(proptest::option::weighted(0.25, any::<bool>()), nsteps);
        (given, fixed).prop_map(move |(given, fixed)| {
            // Fillomino's form fixes no join of its own.
            let fixed = if equal { Vec::new() } else { fixed };
            Case { rows, cols, equal, most, given, fixed }
        })
    })
}

/// Counts and solves `case` with every engine that takes it.
fn check(case: &Case) {
    let text = case.model();
    let puzzle = load_text(&text);
    let expected = brute_force(case);
    assert_eq!(puzzle.engines(), ["auto", "direct", "order", "log"], "no eager form");
    engines_count_as(puzzle.as_ref(), &text, puzzle.engines(), expected);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn regions_count_as_brute_force(case in case()) {
        check(&case);
    }
}

#[test]
fn the_brute_force_counts_known_grids() {
    let free = |rows, cols, most| Case {
        rows,
        cols,
        equal: false,
        most,
        given: vec![None; rows * cols],
        fixed: vec![None; steps(rows, cols).len()],
    };
    // Every set of the 4 steps of a 2 x 2 grid is a division.
    assert_eq!(brute_force(&free(2, 2, 4)), 16);
    // Regions of at most 1 cell: no step joined.
    assert_eq!(brute_force(&free(2, 3, 1)), 1);
    // Fillomino's 1 x 3 strip: 1 2 2, 2 2 1 and 3 3 3.
    let strip = Case { rows: 1, cols: 3, equal: true, most: 3, given: vec![None; 3], fixed: Vec::new() };
    assert_eq!(brute_force(&strip), 3);
    check(&strip);
}

/// A 2 x 3 model with the call `call` on line 5.
fn bad_model(call: &str) -> String {
    format!(
        "kind = \"csp\"\n[vars]\nn = {{ index = [\"1..2\", \"1..3\"], domain = \"1..6\" }}\n\
         [[constraint]]\nexpr = '{call}'\n"
    )
}

#[test]
fn bad_uses_are_refused_with_their_place() {
    let across = "array2d(1..2, 1..2, [n[i, j] = n[i, j + 1] | i in 1..2, j in 1..2])";
    let down = "array2d(1..1, 1..3, [n[i, j] = n[i + 1, j] | i in 1..1, j in 1..3])";
    let cases: Vec<(String, &[&str])> = vec![
        // Booleans where the sizes go.
        (
            format!("grid_regions(array2d(1..2, 1..3, [n[i, j] > 1 | i in 1..2, j in 1..3]), {across}, {down})"),
            &["bad.toml:5:22:", "expected a 2-D array of integers"],
        ),
        // `across` as big as the grid.
        (
            format!("grid_regions(n, array2d(1..2, 1..3, [true | i in 1..2, j in 1..3]), {down})"),
            &[
                "bad.toml:5:25:",
                "rows 1..2 and columns 1..3",
                "expected rows 1..2 and columns 1..2",
                "one fewer column",
            ],
        ),
        // The step arrays swapped.
        (format!("grid_regions(n, {down}, {across})"), &["bad.toml:5:25:", "`across`"]),
        // Two arguments.
        (format!("grid_regions(n, {across})"), &["bad.toml:5:9:", "`grid_regions` with 2 arguments"]),
        // Under a negation.
        (format!("not grid_regions(n, {across}, {down})"), &["bad.toml:5:13:", "grid_regions"]),
    ];
    for (call, parts) in cases {
        let text = bad_model(&call);
        let stderr = refused(&text);
        assert_mentions(&stderr, parts);
    }
    let good = bad_model(&format!("grid_regions(n, {across}, {down})"));
    let stderr = refused_with(&good, &["--engine", "eager"]);
    assert_mentions(&stderr, &["grid_regions", "no eager form", "expected another engine"]);
}

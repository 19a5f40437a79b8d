//! `grid_place` against brute force: random grids up to 3 × 4 whose cells
//! are a decision variable, its negation, or fixed, and random pieces of 1
//! to 4 cells in a box up to 3 × 3 (connected or not: the definition is
//! about the cell set), drawn in 0s and 1s or in Booleans; the call stands
//! alone or negated. A counter written here walks every assignment and
//! asks whether the owned cells are a copy of the piece, by its own search
//! over the eight signed permutation matrices and the translations;
//! nothing is shared with somaria's code. Every engine must count the
//! same, and `solve` (whose answers the verifier checks) must agree on
//! whether there is a solution. Bad calls are refused with exit 2.

use std::collections::BTreeSet;

use proptest::prelude::*;

use crate::common;
use common::bool_cells::{BoolCell, array2d};
use common::cli::{assert_mentions, refused};
use common::models::{engines_count_as, load_text};

/// One random case.
#[derive(Clone, Debug)]
struct Case {
    rows: usize,
    cols: usize,
    /// The own array's first row and column number (0 or 1).
    base: usize,
    cells: Vec<BoolCell>,
    /// The piece's box.
    tall: usize,
    wide: usize,
    /// The piece's cells, as positions in its box row by row.
    piece: BTreeSet<usize>,
    /// The shape written with `true` and `false` rather than 1 and 0.
    booleans: bool,
    /// The call under `not`.
    negated: bool,
}

/// Whether `owned` (row, column pairs) is `piece` moved by one of the
/// square's symmetries and a translation: the eight matrices with one
/// nonzero entry ±1 per row and column, each image then matched against
/// `owned` by the shift that takes its least cell to `owned`'s least.
fn is_copy(owned: &BTreeSet<(i64, i64)>, piece: &[(i64, i64)]) -> bool {
    let Some(&first) = owned.iter().next() else { return false };
    let mut matrices = Vec::new();
    for a in -1i64..=1 {
        for b in -1i64..=1 {
            for c in -1i64..=1 {
                for d in -1i64..=1 {
                    let one_per_line = (a == 0) != (b == 0) && (c == 0) != (d == 0) && (a == 0) != (c == 0);
                    if one_per_line {
                        matrices.push([a, b, c, d]);
                    }
                }
            }
        }
    }
    assert_eq!(matrices.len(), 8);
    matrices.iter().any(|[a, b, c, d]| {
        let image: BTreeSet<(i64, i64)> = piece.iter().map(|&(r, s)| (a * r + b * s, c * r + d * s)).collect();
        let least = *image.iter().next().expect("a piece has a cell");
        let (dr, dc) = (first.0 - least.0, first.1 - least.1);
        image.len() == owned.len() && image.iter().all(|&(r, s)| owned.contains(&(r + dr, s + dc)))
    })
}

impl Case {
    fn piece_cells(&self) -> Vec<(i64, i64)> {
        self.piece.iter().map(|&k| ((k / self.wide) as i64, (k % self.wide) as i64)).collect()
    }

    fn brute_force(&self) -> u64 {
        let n = self.rows * self.cols;
        let piece = self.piece_cells();
        let mut count = 0;
        for mask in 0u64..1 << n {
            let owned: BTreeSet<(i64, i64)> = self
                .cells
                .iter()
                .enumerate()
                .filter(|&(k, cell)| cell.value(mask >> k & 1 == 1))
                .map(|(k, _)| ((k / self.cols) as i64, (k % self.cols) as i64))
                .collect();
            count += u64::from(is_copy(&owned, &piece) != self.negated);
        }
        count
    }

    fn model(&self) -> String {
        let (rows, cols) = (self.rows, self.cols);
        let mut text =
            format!("kind = \"csp\"\n[vars]\nx = {{ index = [\"1..{rows}\", \"1..{cols}\"], domain = \"bool\" }}\n");
        let own = array2d(&self.cells, cols, self.base);
        let entries: Vec<String> = (0..self.tall * self.wide)
            .map(|k| match (self.booleans, self.piece.contains(&k)) {
                (true, on) => on.to_string(),
                (false, on) => u8::from(on).to_string(),
            })
            .collect();
        let shape = format!("array2d(1..{}, 1..{}, [{}])", self.tall, self.wide, entries.join(", "));
        let not = if self.negated { "not " } else { "" };
        text += &format!("[[constraint]]\nexpr = '{not}grid_place({own}, {shape})'\n");
        text
    }
}

fn case() -> impl Strategy<Value = Case> {
    let grid = prop_oneof![Just((1usize, 4usize)), Just((2, 2)), Just((2, 3)), Just((3, 3)), Just((3, 4))];
    (grid, 1usize..=3, 1usize..=3, 0usize..=1, any::<bool>(), 0u8..4).prop_flat_map(
        |((rows, cols), tall, wide, base, booleans, negated)| {
            let cell = BoolCell::strategy();
            let piece = proptest::collection::btree_set(0..tall * wide, 1..=(tall * wide).min(4));
            (proptest::collection::vec(cell, rows * cols), piece).prop_map(move |(cells, piece)| Case {
                rows,
                cols,
                base,
                cells,
                tall,
                wide,
                piece,
                booleans,
                negated: negated == 0,
            })
        },
    )
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
    fn placements_count_as_brute_force(case in case()) {
        check(&case);
    }
}

/// A case over a grid of free cells.
fn free(rows: usize, cols: usize, tall: usize, wide: usize, piece: &[usize]) -> Case {
    Case {
        rows,
        cols,
        base: 1,
        cells: vec![BoolCell::Var { negated: false }; rows * cols],
        tall,
        wide,
        piece: piece.iter().copied().collect(),
        booleans: false,
        negated: false,
    }
}

#[test]
fn the_brute_force_counts_known_grids() {
    // The L tetromino on a 3 × 3 grid: 8 images of a 2 × 3 or 3 × 2 box,
    // each in 2 places.
    let l = free(3, 3, 3, 2, &[0, 2, 4, 5]);
    assert_eq!(l.brute_force(), 16);
    check(&l);
    // The square: one image, in 6 places of a 3 × 4 grid.
    let square = free(3, 4, 2, 2, &[0, 1, 2, 3]);
    assert_eq!(square.brute_force(), 6);
    check(&square);
    // Two cells corner to corner, in a box with an empty row: 2 images,
    // each in 2 × 3 places of a 3 × 4 grid.
    let diagonal = free(3, 4, 3, 2, &[0, 3]);
    assert_eq!(diagonal.brute_force(), 12);
    check(&diagonal);
    // The S tetromino and its mirror, the Z, 2 images each: lying in 2 × 2
    // places of a 3 × 4 grid, standing in 1 × 3.
    let s = free(3, 4, 2, 3, &[1, 2, 3, 4]);
    assert_eq!(s.brute_force(), 2 * 4 + 2 * 3);
    check(&s);
}

/// A 2 × 3 model with the call `call` on line 6.
fn bad_model(call: &str) -> String {
    format!(
        "kind = \"csp\"\n[vars]\nx = {{ index = [\"1..2\", \"1..3\"], domain = \"bool\" }}\n\
         n = {{ index = [\"1..2\", \"1..3\"], domain = \"1..2\" }}\n[[constraint]]\nexpr = '{call}'\n"
    )
}

#[test]
fn bad_calls_are_refused_with_their_place() {
    let cases: [(&str, &[&str]); 8] = [
        (
            "grid_place(x, array2d(1..1, 1..2, [x[1, 1], true]))",
            &["bad.toml:6:23:", "depends on decision variables", "a fixed 2-D array of 0s and 1s"],
        ),
        ("grid_place(x, [1, 1])", &["bad.toml:6:23:", "expected a fixed 2-D array of 0s and 1s"]),
        ("grid_place(x, [| 1, 2 | 1, 0 |])", &["bad.toml:6:23:", "the value 2 at [1, 2] of the shape", "0s and 1s"]),
        ("grid_place(x, [| 0, 0 | 0, 0 |])", &["bad.toml:6:23:", "no 1", "a piece of one cell or more"]),
        ("grid_place(n, [| 1 |])", &["bad.toml:6:20:", "expected a 2-D array of Booleans"]),
        ("grid_place([true, false], [| 1 |])", &["bad.toml:6:20:", "expected a 2-D array of Booleans"]),
        ("grid_place(x)", &["bad.toml:6:9:", "`grid_place` with 1 argument"]),
        ("grid_place(x, [| 1 |], [| 1 |])", &["bad.toml:6:9:", "`grid_place` with 3 arguments"]),
    ];
    for (call, parts) in cases {
        let stderr = refused(bad_model(call));
        assert_mentions(&stderr, parts);
    }
}

//! A 2-D Boolean array argument whose cells are each fixed, a decision
//! variable `x[i, j]`, or its negation: how the random cases of the grid
//! Booleans (`grid_place`, `grid_sight`) build their arrays, and how their
//! brute force reads a cell under an assignment of the `x`s.

use proptest::prelude::*;

/// What one cell of the array is.
#[derive(Copy, Clone, Debug)]
pub enum BoolCell {
    Fixed(bool),
    /// `x[i, j]`, or `not x[i, j]` when negated.
    Var {
        negated: bool,
    },
}

impl BoolCell {
    /// A random cell: a variable four times in five.
    pub fn strategy() -> impl Strategy<Value = BoolCell> {
        prop_oneof![
            1 => any::<bool>().prop_map(BoolCell::Fixed),
            4 => any::<bool>().prop_map(|negated| BoolCell::Var { negated }),
        ]
    }

    /// The cell's value when its `x` is `x`.
    pub fn value(self, x: bool) -> bool {
        match self {
            BoolCell::Fixed(b) => b,
            BoolCell::Var { negated } => x != negated,
        }
    }
}

/// `cells` (row by row, `cols` across) as an `array2d` whose rows and
/// columns are numbered from `base`; a variable cell is the `x` of its own
/// place, numbered from 1.
pub fn array2d(cells: &[BoolCell], cols: usize, base: usize) -> String {
    let rows = cells.len() / cols;
    let written: Vec<String> = cells
        .iter()
        .enumerate()
        .map(|(k, cell)| match cell {
            BoolCell::Fixed(b) => b.to_string(),
            BoolCell::Var { negated } => {
                format!("{}x[{}, {}]", if *negated { "not " } else { "" }, k / cols + 1, k % cols + 1)
            }
        })
        .collect();
    format!("array2d({base}..{}, {base}..{}, [{}])", base + rows - 1, base + cols - 1, written.join(", "))
}

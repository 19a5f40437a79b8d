//! Random fan puzzles with a planted solution, for designers and benches.

use super::{Cell, FanPuzzle};
use crate::grid::{Dir, Grid};

/// A small, fast, seeded pseudo-random generator (SplitMix64). Puzzles are
/// reproducible from their seed on every platform.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A `rows` x `cols` grid with about `fan_rate` fans and `wall_rate` walls,
/// solvable by construction: random directions are chosen for the fans, and
/// every cell left in their wind becomes a weathercock with probability one
/// half. Other puzzles may share the layout's answers; this one has at least
/// the planted one.
///
/// ```
/// use somaria::puzzles::fans::generate::planted;
/// let puzzle = planted(10, 10, 0.1, 0.05, 7);
/// assert!(puzzle.solve_directions().unwrap().is_some());
/// ```
pub fn planted(rows: usize, cols: usize, fan_rate: f64, wall_rate: f64, seed: u64) -> FanPuzzle {
    let mut rng = SplitMix64::new(seed);
    let mut cells: Vec<Vec<Cell>> = (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| {
                    if rng.chance(fan_rate) {
                        Cell::Fan
                    } else if rng.chance(wall_rate) {
                        Cell::Wall
                    } else {
                        Cell::Floor
                    }
                })
                .collect()
        })
        .collect();
    let layout = Grid::from_rows(cells.clone()).expect("a non-empty rectangle");
    let mut blown = vec![vec![false; cols]; rows];
    for (pos, cell) in layout.cells() {
        if *cell == Cell::Fan {
            let dir = Dir::ALL[rng.below(4)];
            let mut at = pos;
            while let Some(next) = layout.step(at, dir) {
                if layout[next] == Cell::Wall {
                    break;
                }
                blown[next.0][next.1] = true;
                at = next;
            }
        }
    }
    for (row, line) in cells.iter_mut().enumerate() {
        for (col, cell) in line.iter_mut().enumerate() {
            if *cell == Cell::Floor && blown[row][col] && rng.chance(0.5) {
                *cell = Cell::Weathercock;
            }
        }
    }
    FanPuzzle::from_grid(Grid::from_rows(cells).expect("a non-empty rectangle"))
}

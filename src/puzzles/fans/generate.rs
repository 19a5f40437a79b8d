//! Random fan puzzles with a planted solution, for designers and benches.

use super::{Cell, FanPuzzle};
use crate::grid::{Dir, Grid};
use crate::puzzles::GenerateError;
use crate::rng::SplitMix64;

/// A `rows` x `cols` grid with about `fan_rate` fans and `wall_rate` walls,
/// solvable by construction: random directions are chosen for the fans, and
/// every cell left in their wind becomes a weathercock with probability one
/// half. Other puzzles may share the layout's answers; this one has at least
/// the planted one.
///
/// ```
/// use somaria::puzzles::fans::generate::planted;
/// let puzzle = planted(10, 10, 0.1, 0.05, 7).unwrap();
/// assert!(puzzle.solve_directions().unwrap().is_some());
/// assert!(planted(0, 0, 0.1, 0.05, 7).is_err());
/// ```
pub fn planted(rows: usize, cols: usize, fan_rate: f64, wall_rate: f64, seed: u64) -> Result<FanPuzzle, GenerateError> {
    let size_error = || GenerateError::new(format!("a {rows} x {cols} grid"), "at least one row and one column");
    if rows == 0 || cols == 0 {
        return Err(size_error());
    }
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
    let layout = Grid::from_rows(cells.clone()).ok_or_else(size_error)?;
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
    Ok(FanPuzzle::from_grid(Grid::from_rows(cells).ok_or_else(size_error)?))
}

//! The independent check of a fan answer. It blows the wind forward from
//! each fan over the grid, the opposite way from how the encoding looks
//! outward from each weathercock, and shares no code with the CNF.

use super::{Cell, FanPuzzle};
use crate::grid::Dir;

/// Checks that `dirs` gives every fan a direction and makes every
/// weathercock spin. The error names the first weathercock left still.
///
/// ```
/// use somaria::grid::{Dir, Grid};
/// use somaria::puzzles::fans::{check, Cell, FanPuzzle};
/// let grid = Grid::from_rows(vec![vec![Cell::Fan, Cell::Wall, Cell::Weathercock]]).unwrap();
/// let puzzle = FanPuzzle::from_grid(grid);
/// assert!(check(&puzzle, &[Dir::Right]).unwrap_err().contains("(0, 2)"));
/// ```
pub fn check(puzzle: &FanPuzzle, dirs: &[Dir]) -> Result<(), String> {
    let all: Vec<usize> = (0..puzzle.weathercocks().len()).collect();
    check_demands(puzzle, dirs, &all)
}

/// Checks `dirs` as [`check`] does, but asks only the weathercocks numbered
/// in `demanded` (in reading order) to spin: the puzzle with the others'
/// demands switched off, as an explanation's witness must meet it.
///
/// ```
/// use somaria::grid::{Dir, Grid};
/// use somaria::puzzles::fans::{check_demands, Cell, FanPuzzle};
/// let grid = Grid::from_rows(vec![vec![Cell::Weathercock, Cell::Fan, Cell::Weathercock]]).unwrap();
/// let puzzle = FanPuzzle::from_grid(grid);
/// assert!(check_demands(&puzzle, &[Dir::Right], &[1]).is_ok());
/// assert!(check_demands(&puzzle, &[Dir::Right], &[0, 1]).unwrap_err().contains("(0, 0)"));
/// ```
pub fn check_demands(puzzle: &FanPuzzle, dirs: &[Dir], demanded: &[usize]) -> Result<(), String> {
    if dirs.len() != puzzle.num_fans() {
        return Err(format!("{} directions for {} fans", dirs.len(), puzzle.num_fans()));
    }
    let spinning = spinning(puzzle, dirs);
    let Some(&still) = demanded.iter().find(|&&w| !spinning[w]) else { return Ok(()) };
    match puzzle.weathercocks()[still].place {
        Some((row, col)) => Err(format!("the weathercock at ({row}, {col}) is in no fan's wind")),
        None => Err(format!("weathercock {still} is hit by none of the chosen directions")),
    }
}

/// Per weathercock in reading order, whether `dirs` makes it spin: in the
/// grid form by blowing each fan's wind forward to the first wall, in the
/// listed form by the hit lists.
fn spinning(puzzle: &FanPuzzle, dirs: &[Dir]) -> Vec<bool> {
    let Some(layout) = puzzle.layout() else {
        return puzzle.weathercocks().iter().map(|w| w.hit_by.iter().any(|hit| dirs[hit.fan] == hit.dir)).collect();
    };
    let mut blown = vec![false; layout.rows() * layout.cols()];
    let fans = layout.cells().filter(|(_, c)| **c == Cell::Fan).map(|(p, _)| p);
    for (fan_pos, &dir) in fans.zip(dirs) {
        let mut pos = fan_pos;
        while let Some(next) = layout.step(pos, dir) {
            if layout[next] == Cell::Wall {
                break;
            }
            blown[layout.index_of(next)] = true;
            pos = next;
        }
    }
    layout.cells().filter(|(_, c)| **c == Cell::Weathercock).map(|(p, _)| blown[layout.index_of(p)]).collect()
}

/// Every direction assignment for `num_fans` fans, in a fixed order. Only
/// for small puzzles: there are 4^n of them.
#[cfg(test)]
fn all_assignments(num_fans: usize) -> impl Iterator<Item = Vec<Dir>> {
    let total = 4usize.pow(u32::try_from(num_fans).expect("few fans"));
    (0..total).map(move |mut code| {
        (0..num_fans)
            .map(|_| {
                let dir = Dir::ALL[code % 4];
                code /= 4;
                dir
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    fn grid(rows: &[&str]) -> FanPuzzle {
        let cells = rows.iter().map(|r| r.chars().map(|c| Cell::from_symbol(c).unwrap()).collect()).collect();
        FanPuzzle::from_grid(Grid::from_rows(cells).unwrap())
    }

    #[test]
    fn wind_passes_fans_and_weathercocks_and_stops_at_walls() {
        let puzzle = grid(&["FFWW#W"]);
        assert!(check(&puzzle, &[Dir::Right, Dir::Left]).is_err());
        assert!(check(&puzzle, &[Dir::Right, Dir::Up]).unwrap_err().contains("(0, 5)"));
        let puzzle = grid(&["FFWW.W"]);
        assert!(check(&puzzle, &[Dir::Right, Dir::Up]).is_ok());
    }

    #[test]
    fn a_fan_does_not_blow_on_itself() {
        let puzzle = grid(&["W", "F"]);
        assert!(check(&puzzle, &[Dir::Down]).is_err());
        assert!(check(&puzzle, &[Dir::Up]).is_ok());
    }

    #[test]
    fn wrong_length_is_refused() {
        assert!(check(&grid(&["FW"]), &[]).is_err());
    }

    #[test]
    fn all_assignments_lists_each_once() {
        let all: std::collections::BTreeSet<Vec<Dir>> = all_assignments(3).collect();
        assert_eq!(all.len(), 64);
    }
}

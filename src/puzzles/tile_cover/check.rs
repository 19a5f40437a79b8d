//! The independent check of a route. It walks the moves over the grid
//! itself, as a player would, and shares no code with the encodings or the
//! room graph.

use super::Cell;
use crate::grid::{Dir, Grid, Pos};

/// Checks that `moves`, walked from the start, is a route: every move stays
/// in the room, lands on a tile not yet covered (never a wall or the
/// start), there is at least one move, the end tile (if any) comes last, and
/// at most `leave_uncovered` tiles are left. Returns the tiles in order.
///
/// ```
/// use somaria::grid::{Dir, Grid};
/// use somaria::puzzles::tile_cover::{check, Cell};
/// let grid = Grid::from_rows(vec![vec![Cell::Start, Cell::Tile, Cell::Tile]]).unwrap();
/// assert_eq!(check(&grid, 0, &[Dir::Right, Dir::Right]).unwrap(), vec![(0, 1), (0, 2)]);
/// assert!(check(&grid, 0, &[Dir::Right]).unwrap_err().contains("(0, 2)"));
/// assert!(check(&grid, 1, &[Dir::Right]).is_ok());
/// ```
pub fn check(grid: &Grid<Cell>, leave_uncovered: usize, moves: &[Dir]) -> Result<Vec<Pos>, String> {
    let mut starts = grid.cells().filter(|(_, c)| **c == Cell::Start).map(|(p, _)| p);
    let (Some(start), None) = (starts.next(), starts.next()) else {
        return Err("the room does not have exactly one start".to_string());
    };
    if moves.is_empty() {
        return Err("the route has no move".to_string());
    }
    let mut covered = vec![false; grid.rows() * grid.cols()];
    let mut here = start;
    let mut route = Vec::with_capacity(moves.len());
    for (number, &dir) in moves.iter().enumerate() {
        let Some(next) = grid.step(here, dir) else {
            return Err(format!("move {} ({dir}) from {here:?} leaves the room", number + 1));
        };
        match grid[next] {
            Cell::Wall => return Err(format!("move {} ({dir}) walks into the wall at {next:?}", number + 1)),
            Cell::Start => return Err(format!("move {} ({dir}) returns to the start", number + 1)),
            Cell::Tile | Cell::End if covered[grid.index_of(next)] => {
                return Err(format!("move {} ({dir}) steps on {next:?} a second time", number + 1));
            }
            Cell::Tile | Cell::End => covered[grid.index_of(next)] = true,
        }
        route.push(next);
        here = next;
    }
    if let Some((end, _)) = grid.cells().find(|(_, c)| **c == Cell::End)
        && here != end
    {
        return Err(format!("the route ends at {here:?}, not on the end tile {end:?}"));
    }
    let left: Vec<Pos> = grid
        .cells()
        .filter(|(p, c)| matches!(c, Cell::Tile | Cell::End) && !covered[grid.index_of(*p)])
        .map(|(p, _)| p)
        .collect();
    if left.len() > leave_uncovered {
        let shown: Vec<String> = left.iter().take(5).map(|p| format!("{p:?}")).collect();
        return Err(format!(
            "the route leaves {} tiles uncovered ({}{}), more than the {leave_uncovered} allowed",
            left.len(),
            shown.join(", "),
            if left.len() > 5 { ", ..." } else { "" }
        ));
    }
    Ok(route)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid<Cell> {
        Grid::from_rows(rows.iter().map(|r| r.chars().map(|c| Cell::from_symbol(c).unwrap()).collect()).collect())
            .unwrap()
    }

    #[test]
    fn each_rule_is_enforced() {
        let room = grid(&["S.#", "..E"]);
        use Dir::*;
        assert!(check(&room, 0, &[]).unwrap_err().contains("no move"));
        assert!(check(&room, 0, &[Up]).unwrap_err().contains("leaves the room"));
        assert!(check(&room, 0, &[Right, Right]).unwrap_err().contains("wall"));
        assert!(check(&room, 0, &[Right, Left]).unwrap_err().contains("start"));
        assert!(check(&room, 0, &[Down, Right, Up, Down]).unwrap_err().contains("second time"));
        assert!(check(&room, 1, &[Right, Down]).unwrap_err().contains("end tile"));
        assert!(check(&room, 0, &[Down, Right, Right]).unwrap_err().contains("uncovered"));
        assert!(check(&room, 0, &[Right, Down, Right]).unwrap_err().contains("uncovered"));
        assert_eq!(check(&room, 1, &[Right, Down, Right]).unwrap(), vec![(0, 1), (1, 1), (1, 2)]);
        assert!(check(&room, 1, &[Down, Right, Right]).is_ok());
    }
}

//! The independent check of a route. It replays the moves on the model's
//! cells with its own arithmetic and keeps keys as a set of letters, so it
//! shares nothing with the engines' numbering of cells and key bits.

use std::collections::BTreeSet;

use super::{Cell, KeysDoorsPuzzle, Move};
use crate::grid::{Dir, Pos};

/// Replays `moves` from the starts (walker `i` on the `i`-th `@` in reading
/// order) and checks that each one names a walker of the grid, enters the
/// grid on a cell that is not a wall, enters a door only when some walker
/// has picked up its key, and that the last key is picked up by the last
/// move (a route with no keys to collect has no moves). The error names the
/// first move that breaks a rule.
///
/// ```
/// use somaria::grid::Dir;
/// use somaria::puzzles::keys_doors::{check, KeysDoorsPuzzle, Move};
/// let puzzle = KeysDoorsPuzzle::from_picture("@.Aa").unwrap();
/// let right = Move::of_first(Dir::Right);
/// assert!(check(&puzzle, &[right, right, right]).unwrap_err().contains("door 'A'"));
/// assert!(check(&puzzle, &[Move::of_first(Dir::Left)]).unwrap_err().contains("outside the grid"));
/// assert!(check(&puzzle, &[Move { walker: 1, dir: Dir::Right }]).unwrap_err().contains("walker 1"));
/// ```
pub fn check(puzzle: &KeysDoorsPuzzle, moves: &[Move]) -> Result<(), String> {
    let layout = puzzle.layout();
    let wanted: BTreeSet<char> = layout
        .cells()
        .filter_map(|(_, cell)| match cell {
            Cell::Key(letter) => Some(*letter),
            _ => None,
        })
        .collect();
    // The walkers stand where the puzzle says: on its `@` in reading order,
    // or, for the rest of a route from a player's state, where they were
    // left (two may share a cell).
    let mut walkers: Vec<(i64, i64)> = puzzle.starts().iter().map(|&(row, col)| (row as i64, col as i64)).collect();
    if walkers.is_empty() {
        return Err("the grid has no start".to_string());
    }
    let mut held: BTreeSet<char> = BTreeSet::new();
    if wanted.is_empty() && !moves.is_empty() {
        return Err(format!("there are no keys to collect, but the route has {} moves", moves.len()));
    }
    for (index, mv) in moves.iter().enumerate() {
        let step = index + 1;
        let dir = mv.dir;
        if held == wanted {
            return Err(format!("every key is held after move {index}, but the route goes on to move {step}"));
        }
        let Some((row, col)) = walkers.get_mut(mv.walker) else {
            return Err(format!("move {step} is made by walker {}, but the grid has {}", mv.walker, walkers.len()));
        };
        let (d_row, d_col) = match dir {
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
        };
        *row += d_row;
        *col += d_col;
        let (row, col) = (*row, *col);
        if row < 0 || col < 0 || row >= layout.rows() as i64 || col >= layout.cols() as i64 {
            return Err(format!("move {step} ({dir}) leaves the grid: ({row}, {col}) is outside the grid"));
        }
        match layout[(row as usize, col as usize)] {
            Cell::Wall => return Err(format!("move {step} ({dir}) walks into the wall at ({row}, {col})")),
            Cell::Door(letter) if !held.contains(&letter.to_ascii_lowercase()) => {
                return Err(format!("move {step} ({dir}) enters door '{letter}' at ({row}, {col}) without its key"));
            }
            Cell::Key(letter) => {
                held.insert(letter);
            }
            Cell::Door(_) | Cell::Floor | Cell::Start => {}
        }
    }
    if held != wanted {
        let missing: String = wanted.difference(&held).collect();
        return Err(format!("after all {} moves, keys {missing:?} are still missing", moves.len()));
    }
    Ok(())
}

/// Re-walks the legs of a route from a state (walker `i` at `at[i]`, the
/// keys `held` picked up), apart from the search that found them: each leg
/// is one walker's moves that stay in the grid, off walls and out of doors
/// whose key is not held, pick up no key but the last cell's, and are as
/// few as the fewest such moves to that key (found here breadth-first);
/// after the last, every key is held. Returns the steps of all legs.
pub fn check_legs(
    puzzle: &KeysDoorsPuzzle,
    mut at: Vec<Pos>,
    mut held: BTreeSet<char>,
    legs: &[(usize, Vec<Dir>)],
) -> Result<usize, String> {
    let layout = puzzle.layout();
    let mut total = 0;
    for (number, (walker, moves)) in legs.iter().enumerate() {
        let leg = number + 1;
        let here = *at.get(*walker).ok_or(format!("leg {leg} is walked by walker {walker}, who is not in the grid"))?;
        let mut cell = here;
        let mut picked = None;
        for (i, &dir) in moves.iter().enumerate() {
            if picked.is_some() {
                return Err(format!("leg {leg} goes on after picking up a key"));
            }
            cell = layout.step(cell, dir).ok_or(format!("leg {leg}, move {}: leaves the grid", i + 1))?;
            match layout[cell] {
                Cell::Wall => return Err(format!("leg {leg}, move {}: walks into the wall at {cell:?}", i + 1)),
                Cell::Door(d) if !held.contains(&d.to_ascii_lowercase()) => {
                    return Err(format!("leg {leg}, move {}: enters door '{d}' without its key", i + 1));
                }
                Cell::Key(k) if !held.contains(&k) => picked = Some(k),
                _ => {}
            }
        }
        let Some(key) = picked else { return Err(format!("leg {leg} picks up no key")) };
        let fewest = fewest_moves(puzzle, here, cell, &held);
        if fewest != Some(moves.len()) {
            return Err(format!("leg {leg} takes {} moves to '{key}', but the fewest are {fewest:?}", moves.len()));
        }
        held.insert(key);
        at[*walker] = cell;
        total += moves.len();
    }
    let left = puzzle.keys().iter().filter(|(k, _)| !held.contains(k)).count();
    if left > 0 {
        return Err(format!("after the last leg {left} keys are still missing"));
    }
    Ok(total)
}

/// The fewest moves from `from` to the key at `to` holding `held`, picking
/// up no other key on the way.
fn fewest_moves(puzzle: &KeysDoorsPuzzle, from: Pos, to: Pos, held: &BTreeSet<char>) -> Option<usize> {
    let layout = puzzle.layout();
    let mut seen = vec![false; layout.rows() * layout.cols()];
    let mut queue = std::collections::VecDeque::from([(from, 0)]);
    seen[layout.index_of(from)] = true;
    while let Some((cell, dist)) = queue.pop_front() {
        if cell == to {
            return Some(dist);
        }
        for dir in Dir::ALL {
            let Some(next) = layout.step(cell, dir) else { continue };
            let open = match layout[next] {
                Cell::Wall => false,
                Cell::Door(d) => held.contains(&d.to_ascii_lowercase()),
                Cell::Key(k) => next == to || held.contains(&k),
                Cell::Floor | Cell::Start => true,
            };
            if open && !std::mem::replace(&mut seen[layout.index_of(next)], true) {
                queue.push_back((next, dist + 1));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use Dir::*;

    fn puzzle(picture: &str) -> KeysDoorsPuzzle {
        KeysDoorsPuzzle::from_picture(picture).unwrap()
    }

    fn check(puzzle: &KeysDoorsPuzzle, dirs: &[Dir]) -> Result<(), String> {
        let moves: Vec<Move> = dirs.iter().map(|&dir| Move::of_first(dir)).collect();
        super::check(puzzle, &moves)
    }

    fn walk(walker: usize, dir: Dir) -> Move {
        Move { walker, dir }
    }

    #[test]
    fn walkers_share_keys_and_each_moves_from_its_own_start() {
        // Walker 0 takes 'a' on the left; walker 1 then passes A for 'b'.
        let p = puzzle("a.@#@Ab");
        assert_eq!(super::check(&p, &[walk(0, Left), walk(0, Left), walk(1, Right), walk(1, Right)]), Ok(()));
        let early = super::check(&p, &[walk(1, Right), walk(0, Left), walk(0, Left), walk(1, Right)]);
        assert!(early.unwrap_err().contains("move 1 (right) enters door 'A'"));
        assert!(super::check(&p, &[walk(2, Left)]).unwrap_err().contains("walker 2, but the grid has 2"));
        assert!(super::check(&p, &[walk(0, Right)]).unwrap_err().contains("wall"));
    }

    #[test]
    fn legs_that_are_not_fewest_or_pick_up_no_key_are_refused() {
        let p = puzzle("@..a\n....");
        let start = || (vec![(0, 0)], BTreeSet::new());
        let (at, held) = start();
        assert_eq!(check_legs(&p, at, held, &[(0, vec![Right, Right, Right])]), Ok(3));
        let (at, held) = start();
        let detour = check_legs(&p, at, held, &[(0, vec![Down, Right, Right, Right, Up])]);
        assert!(detour.unwrap_err().contains("the fewest are Some(3)"));
        let (at, held) = start();
        assert!(check_legs(&p, at, held, &[(0, vec![Right])]).unwrap_err().contains("picks up no key"));
        let (at, held) = start();
        assert!(check_legs(&p, at, held, &[]).unwrap_err().contains("1 keys are still missing"));
    }

    #[test]
    fn the_lesson_routes_pass() {
        assert_eq!(check(&puzzle("@..a"), &[Right, Right, Right]), Ok(()));
        assert_eq!(check(&puzzle("#a##\n@.Ab"), &[Right, Up, Down, Right, Right]), Ok(()));
    }

    #[test]
    fn walls_edges_and_locked_doors_are_refused() {
        let p = puzzle("#a##\n@.Ab");
        assert!(check(&p, &[Up]).unwrap_err().contains("wall"));
        assert!(check(&p, &[Down]).unwrap_err().contains("outside"));
        assert!(check(&p, &[Right, Right, Right]).unwrap_err().contains("without its key"));
    }

    #[test]
    fn a_door_without_a_key_in_the_grid_never_opens() {
        assert!(check(&puzzle("@Ba"), &[Right, Right]).unwrap_err().contains("door 'B'"));
    }

    #[test]
    fn the_route_must_end_on_the_last_pickup() {
        let p = puzzle("@a.");
        assert!(check(&p, &[Right, Right]).unwrap_err().contains("goes on"));
        assert!(check(&p, &[]).unwrap_err().contains("missing"));
        assert_eq!(check(&puzzle("@.."), &[]), Ok(()));
        assert!(check(&puzzle("@.."), &[Right]).is_err());
    }

    #[test]
    fn a_key_entered_twice_counts_once() {
        let p = puzzle("@ab");
        assert_eq!(check(&p, &[Right, Left, Right, Right]), Ok(()));
    }
}

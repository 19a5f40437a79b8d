//! Reasoning before SAT that can prove a room has no solution and say why
//! in a player's words: unreachable tiles, the checkerboard colour count, and
//! the one-in/one-out degree relaxation as a bipartite matching (Hall's
//! condition).
//!
//! Every check is a relaxation: it only refutes rooms that truly have no
//! solution, and lets the rest through to SAT.

use std::collections::VecDeque;

use super::graph::{Room, START};

/// Rooms with more nodes than this skip the matching check, whose cost grows
/// with the square of the room.
pub const MATCHING_LIMIT: usize = 200_000;

/// A sentence that proves the room has no solution, or `None` when these
/// checks find no reason.
///
/// ```
/// use somaria::model::Source;
/// use somaria::puzzles::tile_cover::{load_puzzle, presolve};
/// let source = Source::from_text("m.toml", "kind = \"tile-cover\"\ngrid = \"\"\"\nS..\n.#.\n\"\"\"\n");
/// let why = presolve::refute(load_puzzle(&source).unwrap().room()).unwrap();
/// assert!(why.contains("would have to be 3 of the start's colour and 2 of the other"), "{why}");
/// ```
pub fn refute(room: &Room) -> Option<String> {
    if room.num_tiles() == 0 {
        return Some("the room has no tile to step on, and a route covers at least one".to_string());
    }
    unreachable_tiles(room).or_else(|| colour_count(room)).or_else(|| matching(room))
}

fn list(room: &Room, nodes: &[usize]) -> String {
    const SHOWN: usize = 8;
    let mut names: Vec<String> = nodes.iter().take(SHOWN).map(|&n| room.label(n)).collect();
    if nodes.len() > SHOWN {
        names.push(format!("{} more", nodes.len() - SHOWN));
    }
    match names.len() {
        0 => String::new(),
        1 => names.remove(0),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

fn unreachable_tiles(room: &Room) -> Option<String> {
    let distances = room.distances();
    let cut_off: Vec<usize> = room.tiles().filter(|&t| distances[t].is_none()).collect();
    let k = room.leave_uncovered();
    if let Some(end) = room.end().filter(|&e| distances[e].is_none()) {
        return Some(format!("the end tile at {} cannot be reached from the start", room.label(end)));
    }
    (cut_off.len() > k).then(|| {
        format!(
            "{} cannot be reached from the start ({}), but at most {} may be left uncovered",
            plural(cut_off.len(), "tile", "tiles"),
            list(room, &cut_off),
            k
        )
    })
}

/// Visited cells of the start's colour minus the others, as a range allowed
/// by how a walk alternates: `(lowest, highest)`.
fn allowed_excess(room: &Room) -> (i64, i64) {
    match room.end() {
        Some(end) if room.same_colour_as_start(end) => (1, 1),
        Some(_) => (0, 0),
        None => (0, 1),
    }
}

fn colour_count(room: &Room) -> Option<String> {
    let same_tiles = room.tiles().filter(|&t| room.same_colour_as_start(t)).count();
    let other_tiles = room.num_tiles() - same_tiles;
    let same = 1 + same_tiles as i64;
    let other = other_tiles as i64;
    let (lowest, highest) = allowed_excess(room);
    let k = room.leave_uncovered() as i64;
    let end_same = room.end().map(|e| room.same_colour_as_start(e));
    let spare_same = same_tiles as i64 - i64::from(end_same == Some(true));
    let spare_other = other_tiles as i64 - i64::from(end_same == Some(false));
    // Leaving s tiles of the start's colour and o of the other changes the
    // excess by o - s; can some such choice, with s + o <= k, bring it in range?
    let feasible = (lowest..=highest).any(|wanted| {
        let change = wanted - (same - other);
        match change {
            0 => true,
            c if c > 0 => c <= k && c <= spare_other,
            c => -c <= k && -c <= spare_same,
        }
    });
    if feasible {
        return None;
    }
    let n = same + other;
    let ending = match end_same {
        Some(true) => ", and the route ends on the end tile, which has the start's colour",
        Some(false) => ", and the route ends on the end tile, which has the other colour",
        None => "",
    };
    let rule = "Every step moves to a cell of the other colour, as on a chessboard";
    if k == 0 {
        let need = match (lowest, highest, n % 2) {
            (_, _, 0) if lowest == 0 => format!("would have to be {} of each colour", n / 2),
            (_, _, 1) if highest == 1 => {
                format!("would have to be {} of the start's colour and {} of the other", n / 2 + 1, n / 2)
            }
            (0, 0, _) => "would have to be an even number, as many of each colour".to_string(),
            _ => "would have to be an odd number, one more of the start's colour".to_string(),
        };
        let has = if n % 2 == 0 && lowest == 0 {
            format!("{} of one colour and {} of the other", same.max(other), same.min(other))
        } else {
            format!("{same} of the start's colour and {other} of the other")
        };
        Some(format!("{rule}{ending}, so the {n} cells visited including the start {need}, but the room has {has}."))
    } else {
        let need = match (lowest, highest) {
            (0, 1) => "as many of the start's colour as of the other, or one more",
            (1, 1) => "exactly one more of the start's colour than of the other",
            _ => "as many of each colour",
        };
        Some(format!(
            "{rule}{ending}, so the cells visited including the start must be {need}. The room has {same} of the \
             start's colour and {other} of the other, and leaving at most {} cannot even that out.",
            plural(k as usize, "tile", "tiles")
        ))
    }
}

/// The degree relaxation: each covered tile is entered from a different
/// cell (the start, or a tile that is not the end). A maximum matching
/// from cells to the tiles they lead to must therefore reach all but k
/// tiles; when it cannot, the alternating search from an unmatched tile
/// finds tiles whose possible predecessors are too few.
fn matching(room: &Room) -> Option<String> {
    if room.num_nodes() > MATCHING_LIMIT {
        return None;
    }
    let can_lead = |node: usize| Some(node) != room.end();
    let mut predecessor_of: Vec<Option<usize>> = vec![None; room.num_nodes()];
    let mut successor_of: Vec<Option<usize>> = vec![None; room.num_nodes()];
    // Greedy first, then augmenting paths found by breadth-first search.
    for &(from, to) in room.arcs() {
        if can_lead(from) && successor_of[from].is_none() && predecessor_of[to].is_none() {
            successor_of[from] = Some(to);
            predecessor_of[to] = Some(from);
        }
    }
    for tile in room.tiles() {
        if predecessor_of[tile].is_some() {
            continue;
        }
        // BFS over tiles: from a tile, try each cell that could lead into it.
        let mut came_from: Vec<Option<(usize, usize)>> = vec![None; room.num_nodes()];
        let mut seen = vec![false; room.num_nodes()];
        seen[tile] = true;
        let mut queue = VecDeque::from([tile]);
        let mut free_cell = None;
        'search: while let Some(t) = queue.pop_front() {
            for &arc in room.in_arcs(t) {
                let cell = room.arcs()[arc].0;
                if !can_lead(cell) {
                    continue;
                }
                match successor_of[cell] {
                    None => {
                        free_cell = Some((cell, t));
                        break 'search;
                    }
                    Some(next) if !seen[next] => {
                        seen[next] = true;
                        came_from[next] = Some((cell, t));
                        queue.push_back(next);
                    }
                    Some(_) => {}
                }
            }
        }
        if let Some((mut cell, mut t)) = free_cell {
            // Flip the path: each cell on it takes the tile it was found leading into.
            loop {
                successor_of[cell] = Some(t);
                predecessor_of[t] = Some(cell);
                let Some((earlier_cell, earlier_tile)) = came_from[t].filter(|_| t != tile) else { break };
                cell = earlier_cell;
                t = earlier_tile;
            }
        }
    }
    let unmatched: Vec<usize> = room.tiles().filter(|&t| predecessor_of[t].is_none()).collect();
    if unmatched.len() <= room.leave_uncovered() {
        return None;
    }
    // Kőnig: tiles reachable from unmatched tiles by alternating paths, and
    // the cells that could lead into them; every such cell is matched.
    let mut tiles_in = vec![false; room.num_nodes()];
    let mut cells_in = vec![false; room.num_nodes()];
    let mut queue: VecDeque<usize> = unmatched.iter().copied().collect();
    for &t in &unmatched {
        tiles_in[t] = true;
    }
    while let Some(t) = queue.pop_front() {
        for &arc in room.in_arcs(t) {
            let cell = room.arcs()[arc].0;
            if !can_lead(cell) || cells_in[cell] {
                continue;
            }
            cells_in[cell] = true;
            if let Some(next) = successor_of[cell].filter(|&n| !tiles_in[n]) {
                tiles_in[next] = true;
                queue.push_back(next);
            }
        }
    }
    let tiles: Vec<usize> = room.tiles().filter(|&t| tiles_in[t]).collect();
    let cells: Vec<usize> = (START..room.num_nodes()).filter(|&c| cells_in[c]).collect();
    let short = tiles.len() - cells.len();
    let k = room.leave_uncovered();
    let allowance = if k == 0 { String::new() } else { format!(", more than the {k} that may be left") };
    Some(format!(
        "the {} {} can only be entered from the {} {}, and each cell leads on to just one tile, so at least {} \
         would stay uncovered{allowance}",
        plural(tiles.len(), "tile", "tiles"),
        list(room, &tiles),
        plural(cells.len(), "cell", "cells"),
        list(room, &cells),
        plural(short, "tile", "tiles"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::puzzles::tile_cover::Cell;

    fn room(rows: &[&str], k: usize) -> Room {
        let cells = rows.iter().map(|r| r.chars().map(|c| Cell::from_symbol(c).unwrap()).collect()).collect();
        Room::new(&Grid::from_rows(cells).unwrap(), k)
    }

    #[test]
    fn two_dead_ends_behind_one_cell_fail_halls_condition() {
        let rows = ["...", "#.#", "#..", ".S."];
        let why = refute(&room(&rows, 0)).unwrap();
        assert_eq!(
            why,
            "the 2 tiles (0, 0) and (0, 2) can only be entered from the 1 cell (0, 1), and each cell leads on to \
             just one tile, so at least 1 tile would stay uncovered"
        );
        // One tile may be left, and the colours still balance without it.
        assert_eq!(refute(&room(&rows, 1)), None);
    }

    #[test]
    fn unreachable_tiles_are_named() {
        let why = refute(&room(&["S.#.", "..#."], 1)).unwrap();
        assert!(why.starts_with("2 tiles cannot be reached from the start ((0, 3) and (1, 3))"), "{why}");
        assert!(refute(&room(&["S.#E"], 1)).unwrap().contains("end tile at (0, 3) cannot be reached"));
    }

    #[test]
    fn leaving_tiles_mends_the_colour_count_only_when_enough_may_be_left() {
        // The start and four neighbours of the other colour: three must go.
        let cross = ["#.#", ".S.", "#.#"];
        assert!(refute(&room(&cross, 0)).unwrap().contains("the room has 1 of the start's colour and 4 of the other"));
        assert!(refute(&room(&cross, 2)).unwrap().contains("leaving at most 2 tiles cannot even that out"));
        assert_eq!(refute(&room(&cross, 3)), None);
    }

    #[test]
    fn an_empty_room_has_no_route() {
        assert!(refute(&room(&["S#"], 0)).unwrap().contains("no tile"));
    }
}

//! Hall's condition on entries: each covered tile is entered from a
//! different cell (the start, or a tile that is not the end). Holds for any
//! `leave_uncovered`: a maximum matching from cells to the tiles they lead
//! to must reach all but the tiles that may be left. The degree matching
//! ([`super::degree`]) covers this rule when nothing may be left; it stays
//! for rooms with tiles to leave, where the two budgets differ.

use std::collections::VecDeque;

use super::{MATCHING_LIMIT, Refutation, Rule, list, plural};
use crate::puzzles::tile_cover::graph::{Room, START};

/// The degree relaxation: each covered tile is entered from a different
/// cell (the start, or a tile that is not the end). A maximum matching
/// from cells to the tiles they lead to must therefore reach all but k
/// tiles; when it cannot, the alternating search from an unmatched tile
/// finds tiles whose possible predecessors are too few.
pub(super) fn entry_matching(room: &Room) -> Result<(), Refutation> {
    if room.num_nodes() > MATCHING_LIMIT {
        return Ok(());
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
        return Ok(());
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
    let text = format!(
        "the {} {} can only be entered from the {} {}, and each cell leads on to just one tile, so at least {} \
         would stay uncovered{allowance}",
        plural(tiles.len(), "tile", "tiles"),
        list(room, &tiles),
        plural(cells.len(), "cell", "cells"),
        list(room, &cells),
        plural(short, "tile", "tiles"),
    );
    Err(Refutation::new(Rule::EntryMatching, text, tiles))
}

#[cfg(test)]
mod tests {
    use super::super::tests::room;
    use super::*;

    #[test]
    fn two_dead_ends_behind_one_cell_fail_halls_condition() {
        let rows = ["...", "#.#", "#..", ".S."];
        let why = entry_matching(&room(&rows, 0)).unwrap_err();
        assert_eq!(
            why.text,
            "the 2 tiles (0, 0) and (0, 2) can only be entered from the 1 cell (0, 1), and each cell leads on to \
             just one tile, so at least 1 tile would stay uncovered"
        );
        // One tile may be left, and the colours still balance without it.
        assert!(entry_matching(&room(&rows, 1)).is_ok());
    }
}

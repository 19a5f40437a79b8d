//! Tiles the start cannot reach. Holds for any `leave_uncovered`: such tiles
//! are always left, so there may be no more of them than may be left, and
//! the end tile must be reachable.

use super::{Deductions, Refutation, Rule, list, plural};
use crate::puzzles::tile_cover::graph::Room;

pub(super) fn unreachable_tiles(room: &Room, known: &mut Deductions) -> Result<(), Refutation> {
    let distances = room.distances();
    let cut_off: Vec<usize> = room.tiles().filter(|&t| distances[t].is_none()).collect();
    let k = room.leave_uncovered();
    if let Some(end) = room.end().filter(|&e| distances[e].is_none()) {
        let text = format!("the end tile at {} cannot be reached from the start", room.label(end));
        return Err(Refutation::new(Rule::Unreachable, text, vec![end]));
    }
    if cut_off.len() > k {
        let text = format!(
            "{} cannot be reached from the start ({}), but at most {} may be left uncovered",
            plural(cut_off.len(), "tile", "tiles"),
            list(room, &cut_off),
            k
        );
        return Err(Refutation::new(Rule::Unreachable, text, cut_off));
    }
    known.restrict_ends(|node| distances[node].is_some());
    known.left_mask = distances.iter().map(Option::is_none).collect();
    known.always_left.extend(cut_off);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::room;
    use super::super::*;

    #[test]
    fn unreachable_tiles_are_named() {
        let why = refute(&room(&["S.#.", "..#."], 1)).unwrap();
        assert!(why.starts_with("2 tiles cannot be reached from the start ((0, 3) and (1, 3))"), "{why}");
        assert!(refute(&room(&["S.#E"], 1)).unwrap().contains("end tile at (0, 3) cannot be reached"));
    }

    #[test]
    fn unreachable_tiles_within_the_allowance_cannot_end_the_route() {
        let r = room(&["S..#.", "...#."], 2);
        let analysis = analyse(&r);
        assert_eq!(analysis.refutation, None);
        assert!(!analysis.deductions.may_end(r.node_at((0, 4)).unwrap()));
        assert!(analysis.deductions.may_end(r.node_at((0, 1)).unwrap()));
    }
}

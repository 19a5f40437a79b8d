//! Tiles with one open side. A tile the route passes through is entered on
//! one side and left by another, so a tile with a single open neighbour is
//! either the route's last tile or left uncovered. Holds for any
//! `leave_uncovered`: all such tiles but the last one count against the
//! tiles that may be left. With nothing to leave, a single one is the end.

use super::{Deductions, Refutation, Rule, list, plural};
use crate::puzzles::tile_cover::graph::{Room, START};

pub(super) fn dead_ends(room: &Room, known: &mut Deductions) -> Result<(), Refutation> {
    let k = room.leave_uncovered();
    let others = room.num_tiles() - 1;
    let dead: Vec<usize> = room.tiles().filter(|&t| room.neighbours(t).len() == 1 && !known.is_left(t)).collect();
    // A tile whose only neighbour is the start ends the route at its first
    // step, leaving every other tile.
    let only_from_start = |t: usize| room.neighbours(t) == [START];
    let can_end = |t: usize| known.may_end(t) && !(only_from_start(t) && others > k);
    let ender = dead.iter().copied().find(|&t| can_end(t));
    let must_leave = dead.len() - usize::from(ender.is_some());
    known.dead_ends = dead.clone();
    if must_leave <= k {
        if k == 0
            && let Some(end) = ender
            && room.end().is_none()
        {
            known.restrict_ends(|n| n == end);
            known.end_reasons.push(format!("{} has only one open side, so the route must end there", room.label(end)));
        }
        return Ok(());
    }
    let pass = "a tile the route passes through is entered on one side and left by another";
    let text = if k == 0 {
        match (&dead[..], room.end()) {
            ([d], _) if only_from_start(*d) => format!(
                "{} can only be reached from the start, so a route covering it would end there after one step and \
                 leave the other {}",
                room.label(*d),
                plural(others, "tile", "tiles")
            ),
            ([d], Some(end)) => format!(
                "{} has only one open side, so it would have to be the last tile ({pass}), but the route must end on \
                 the end tile {}",
                room.label(*d),
                room.label(end)
            ),
            (_, end) => {
                let ending = match end {
                    Some(e) => format!(", and the route must end on the end tile {}", room.label(e)),
                    None => ", and there is only one".to_string(),
                };
                format!(
                    "the tiles {} have only one open side each, so each would have to be the last tile ({pass}){ending}",
                    list(room, &dead)
                )
            }
        }
    } else {
        format!(
            "the tiles {} have only one open side each, so each is either the last tile or left uncovered ({pass}): \
             at least {} would be left, more than the {k} that may be",
            list(room, &dead),
            plural(must_leave, "tile", "tiles")
        )
    };
    let mut cells = dead;
    if let [d] = cells[..]
        && only_from_start(d)
        && let Some(other) = room.tiles().find(|&t| t != d && !known.is_left(t))
    {
        cells.push(other);
    }
    Err(Refutation::new(Rule::DeadEnds, text, cells))
}

#[cfg(test)]
mod tests {
    use super::super::tests::room;
    use super::super::*;

    #[test]
    fn two_dead_ends_are_one_too_many() {
        let why = analyse(&room(&[".#.", ".S."], 0)).refutation.unwrap();
        assert_eq!(why.rule, Rule::DeadEnds);
        assert_eq!(
            why.text,
            "the tiles (0, 0) and (0, 2) have only one open side each, so each would have to be the last tile (a \
             tile the route passes through is entered on one side and left by another), and there is only one"
        );
    }

    #[test]
    fn a_dead_end_must_be_the_end_tile() {
        let why = refute(&room(&["#....", "..E.S"], 0)).unwrap();
        assert!(why.starts_with("(1, 0) has only one open side, so it would have to be the last tile"), "{why}");
        assert!(why.ends_with("but the route must end on the end tile (1, 2)"), "{why}");
    }

    #[test]
    fn a_tile_reached_only_from_the_start_ends_the_route_at_once() {
        let why = analyse(&room(&[".#..", "S...", "#..."], 0)).refutation.unwrap();
        assert!(why.text.starts_with("(0, 0) can only be reached from the start"), "{}", why.text);
        // Covering it and any other tile is impossible, even leaving the rest.
        assert_eq!(why.cells.len(), 2);
    }

    #[test]
    fn with_tiles_to_leave_the_dead_ends_count_against_them() {
        // Two dead ends besides the end tile: with one tile to leave, two would be left.
        let why = analyse(&room(&["..E..", "#S..#"], 1)).refutation.unwrap();
        assert_eq!(why.rule, Rule::DeadEnds);
        assert_eq!(
            why.text,
            "the tiles (0, 0) and (0, 4) have only one open side each, so each is either the last tile or left \
             uncovered (a tile the route passes through is entered on one side and left by another): at least 2 \
             tiles would be left, more than the 1 that may be"
        );
    }

    #[test]
    fn a_single_dead_end_is_the_end() {
        let r = room(&["S...", "...#", "...#"], 0);
        let analysis = analyse(&r);
        assert_eq!(analysis.refutation, None);
        // (0, 3) has one open side.
        let end = r.node_at((0, 3)).unwrap();
        assert!(r.tiles().all(|t| analysis.deductions.may_end(t) == (t == end)));
    }
}

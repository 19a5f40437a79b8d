//! The checkerboard colour count. Every step moves to a cell of the other
//! colour, so the cells visited, the start included, are as many of each
//! colour when the route ends on the other colour, and one more of the
//! start's colour when it ends on that. Both rules hold for any
//! `leave_uncovered`: leaving tiles of the larger colour can restore the
//! balance, and the rules say when no choice of at most that many can.

use super::{Deductions, Refutation, Rule, list, plural};
use crate::puzzles::tile_cover::graph::Room;

/// Visited cells of the start's colour minus the others, as a range allowed
/// by how a walk alternates: `(lowest, highest)`.
fn allowed_excess(room: &Room) -> (i64, i64) {
    match room.end() {
        Some(end) if room.same_colour_as_start(end) => (1, 1),
        Some(_) => (0, 0),
        None => (0, 1),
    }
}

/// The count over the whole room, with the end tile's colour when there is one.
pub(super) fn colour_count(room: &Room) -> Result<(), Refutation> {
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
        return Ok(());
    }
    let n = same + other;
    let ending = match end_same {
        Some(true) => ", and the route ends on the end tile, which has the start's colour",
        Some(false) => ", and the route ends on the end tile, which has the other colour",
        None => "",
    };
    let rule = "Every step moves to a cell of the other colour, as on a chessboard";
    let text = if k == 0 {
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
        format!("{rule}{ending}, so the {n} cells visited including the start {need}, but the room has {has}.")
    } else {
        let need = match (lowest, highest) {
            (0, 1) => "as many of the start's colour as of the other, or one more",
            (1, 1) => "exactly one more of the start's colour than of the other",
            _ => "as many of each colour",
        };
        format!(
            "{rule}{ending}, so the cells visited including the start must be {need}. The room has {same} of the \
             start's colour and {other} of the other, and leaving at most {} cannot even that out.",
            plural(k as usize, "tile", "tiles")
        )
    };
    Err(Refutation::new(Rule::ColourCount, text, Vec::new()))
}

/// Whether a route can end on a tile of the start's colour (`end_same`),
/// given the tiles every route leaves and the dead ends, each of which is
/// the end or left: the numbers of each colour left, within the allowance,
/// must bring the visited cells to the excess the end's colour demands.
fn end_colour_feasible(room: &Room, known: &Deductions, end_same: bool) -> bool {
    let candidates: Vec<usize> =
        room.tiles().filter(|&t| known.may_end(t) && room.same_colour_as_start(t) == end_same).collect();
    if candidates.is_empty() {
        return false;
    }
    let k = room.leave_uncovered() as i64;
    let count = |nodes: &[usize], same: bool| nodes.iter().filter(|&&n| room.same_colour_as_start(n) == same).count();
    let a = room.tiles().filter(|&t| room.same_colour_as_start(t)).count() as i64;
    let b = room.num_tiles() as i64 - a;
    let end_is_dead = candidates.iter().any(|&c| room.neighbours(c).len() == 1 && !known.is_left(c));
    let left = |same: bool| -> i64 {
        let forced = count(&known.always_left, same) + count(&known.dead_ends, same);
        forced as i64 - i64::from(end_is_dead && same == end_same)
    };
    let (min_same, min_other) = (left(true), left(false));
    // Visited: 1 + a - u_s of the start's colour, b - u_o of the other.
    let delta = i64::from(end_same) - 1 - a + b; // u_o - u_s
    (min_same..=k).any(|u_s| {
        let u_o = u_s + delta;
        u_o >= min_other && u_s + u_o <= k && u_s <= a - i64::from(end_same) && u_o <= b - i64::from(!end_same)
    })
}

/// The count once the rules before it have narrowed where the route can end
/// (dead ends, cut tiles) and which tiles it must leave.
pub(super) fn end_colour(room: &Room, known: &mut Deductions) -> Result<(), Refutation> {
    let same_ok = end_colour_feasible(room, known, true);
    let other_ok = end_colour_feasible(room, known, false);
    match (same_ok, other_ok) {
        (true, true) => return Ok(()),
        (true, false) | (false, true) => {
            let narrowed = known.num_possible_ends();
            known.restrict_ends(|n| room.same_colour_as_start(n) == same_ok);
            if known.num_possible_ends() < narrowed {
                let colour = if same_ok { "the start's colour" } else { "the other colour" };
                known.end_reasons.push(format!("counting colours, the route must end on a tile of {colour}"));
            }
            return Ok(());
        }
        (false, false) => {}
    }
    let k = room.leave_uncovered();
    let same = 1 + room.tiles().filter(|&t| room.same_colour_as_start(t)).count();
    let other = room.num_nodes() - same;
    let ends: Vec<usize> = room.tiles().filter(|&t| known.may_end(t)).collect();
    let where_ = if ends.len() <= 3 {
        format!("on {}", list(room, &ends))
    } else if ends.iter().all(|&e| room.same_colour_as_start(e)) {
        "on a tile of the start's colour".to_string()
    } else if ends.iter().all(|&e| !room.same_colour_as_start(e)) {
        "on a tile of the other colour".to_string()
    } else {
        format!("on one of {} tiles", ends.len())
    };
    let reasons = known.end_reasons();
    let premise = if reasons.is_empty() { String::new() } else { format!("{}. ", cap(&reasons)) };
    let rule = "Every step moves to a cell of the other colour, as on a chessboard";
    let text = if k == 0 {
        let end_same = ends.first().is_some_and(|&e| room.same_colour_as_start(e));
        let (need, colour) = if end_same {
            ("one more of the start's colour than of the other", "the start's colour")
        } else {
            ("as many of each colour", "the other colour")
        };
        let ending = if ends.len() <= 3 { format!("{where_}, of {colour}") } else { where_.clone() };
        format!(
            "{premise}{rule}, and the route ends {ending}, so the {} cells visited including the start would have \
             to be {need}, but the room has {same} of the start's colour and {other} of the other.",
            same + other
        )
    } else {
        let mut left = Vec::new();
        if !known.always_left.is_empty() {
            let noun = if known.always_left.len() == 1 { "tile" } else { "tiles" };
            left.push(format!("the unreachable {noun} {}", list(room, &known.always_left)));
        }
        if !known.dead_ends.is_empty() {
            left.push(format!(
                "the tiles with one open side other than the last one ({}), since a tile passed through needs two",
                list(room, &known.dead_ends)
            ));
        }
        let forced =
            if left.is_empty() { String::new() } else { format!(" The route must leave {}.", left.join(" and ")) };
        let premise = if premise.is_empty() { premise } else { format!("{premise}The route ends {where_}. ") };
        format!(
            "{premise}{rule}, so the cells visited including the start must be one more of the start's colour when \
             the route ends on that colour, and as many of each when it ends on the other.{forced} The room has \
             {same} of the start's colour and {other} of the other, and leaving at most {} cannot bring it to either.",
            plural(k, "tile", "tiles")
        )
    };
    Err(Refutation::new(Rule::EndColour, text, Vec::new()))
}

/// The sentence with its first letter in capitals.
pub(super) fn cap(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{room, rule_of};
    use super::super::*;

    #[test]
    fn leaving_tiles_mends_the_colour_count_only_when_enough_may_be_left() {
        // The start and four neighbours of the other colour: three must go.
        let cross = ["#.#", ".S.", "#.#"];
        assert!(refute(&room(&cross, 0)).unwrap().contains("the room has 1 of the start's colour and 4 of the other"));
        assert!(refute(&room(&cross, 2)).unwrap().contains("leaving at most 2 tiles cannot even that out"));
        assert_eq!(refute(&room(&cross, 3)), None);
    }

    #[test]
    fn a_dead_end_fixes_the_end_colour() {
        // 14 cells, as many of each colour, so a route ends on the other
        // colour; but (3, 5), with one open side, has the start's colour.
        let rows = ["S.....", "......", "#####.", "#####."];
        let refutation = analyse(&room(&rows, 0)).refutation.unwrap();
        assert_eq!(refutation.rule, Rule::EndColour, "{}", refutation.text);
        assert!(
            refutation.text.contains("(3, 5) has only one open side, so the route must end there"),
            "{}",
            refutation.text
        );
        assert!(refutation.text.contains("one more of the start's colour than of the other"), "{}", refutation.text);
        // Leaving the tail of two tiles restores it.
        assert_eq!(rule_of(&rows, 2), None);
    }

    #[test]
    fn the_colour_count_narrows_the_ends() {
        let r = room(&["S..", "..."], 0);
        let analysis = analyse(&r);
        assert_eq!(analysis.refutation, None);
        // 6 cells: even, so the route ends on the other colour.
        for t in r.tiles() {
            assert_eq!(analysis.deductions.may_end(t), !r.same_colour_as_start(t), "{}", r.label(t));
        }
    }
}

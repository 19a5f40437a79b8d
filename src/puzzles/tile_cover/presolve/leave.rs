//! With tiles to leave: case by case, back to covering everything.
//!
//! Most structural rules need every tile covered. With `leave_uncovered >
//! 0`, split on where the route ends: on one of the tiles with one open
//! side (then the others are left), or elsewhere (then all of them are
//! left); the unreachable tiles are left either way. When, in a case, the
//! colour count allows no further tile to be left (leaving one would
//! unbalance the colours, and the allowance holds no pair), the route
//! covers every other tile, so that case is a room with those tiles walled
//! and nothing to leave, and every rule applies to it. When every case is
//! refuted, so is the room. A case where more tiles could be left stops the
//! rule: it then proves nothing.

use super::colour::cap;
use super::{Deductions, Refutation, Rule, analyse, list, plural};
use crate::puzzles::tile_cover::graph::Room;

/// Rooms larger than this skip the cases, each of which runs every rule.
const CASES_LIMIT: usize = 100_000;

/// The most cases worth running.
const MOST_CASES: usize = 6;

/// One way the route can end, and what it then leaves for sure.
struct Case {
    /// The tile with one open side the route ends on, or `None` for
    /// "elsewhere".
    end: Option<usize>,
    left: Vec<usize>,
}

/// The extra tiles of each colour (start's, other) that can be left beyond
/// `left`, for the colours the end may have.
fn extras(room: &Room, left: &[usize], end_colours: &[bool]) -> Vec<(i64, i64)> {
    let k = room.leave_uncovered() as i64;
    let a = room.tiles().filter(|&t| room.same_colour_as_start(t)).count() as i64;
    let b = room.num_tiles() as i64 - a;
    let f_s = left.iter().filter(|&&t| room.same_colour_as_start(t)).count() as i64;
    let f_o = left.len() as i64 - f_s;
    let mut found = Vec::new();
    for &end_same in end_colours {
        for x_s in 0..=k {
            // (1 + a - f_s - x_s) - (b - f_o - x_o) = [end_same]
            let x_o = i64::from(end_same) - 1 - a + b + f_s + x_s - f_o;
            if x_o >= 0 && f_s + f_o + x_s + x_o <= k && !found.contains(&(x_s, x_o)) {
                found.push((x_s, x_o));
            }
        }
    }
    found
}

pub(super) fn leave_cases(room: &Room, known: &Deductions) -> Result<(), Refutation> {
    let k = room.leave_uncovered();
    if k == 0 || room.num_nodes() > CASES_LIMIT {
        return Ok(());
    }
    let dead = &known.dead_ends;
    if dead.len() + 1 > MOST_CASES {
        return Ok(());
    }
    let mut cases: Vec<Case> = Vec::new();
    for &d in dead.iter().filter(|&&d| known.may_end(d)) {
        let mut left = known.always_left.clone();
        left.extend(dead.iter().copied().filter(|&x| x != d));
        cases.push(Case { end: Some(d), left });
    }
    let elsewhere: Vec<usize> = room.tiles().filter(|&t| known.may_end(t) && !dead.contains(&t)).collect();
    if !elsewhere.is_empty() {
        let mut left = known.always_left.clone();
        left.extend(dead.iter().copied());
        cases.push(Case { end: None, left });
    }
    let mut texts = Vec::new();
    for case in &cases {
        let end_colours: Vec<bool> = match case.end {
            Some(d) => vec![room.same_colour_as_start(d)],
            None => {
                let mut colours: Vec<bool> = elsewhere.iter().map(|&t| room.same_colour_as_start(t)).collect();
                colours.sort_unstable();
                colours.dedup();
                colours
            }
        };
        let ways = extras(room, &case.left, &end_colours);
        let opening = match (case.end, dead.is_empty()) {
            (Some(d), _) => format!("If the route ends on {}, which has one open side", room.label(d)),
            (None, true) => String::new(),
            (None, false) => "If it ends on a tile with more than one open side".to_string(),
        };
        let forced =
            if case.left.is_empty() { String::new() } else { format!(", {} must be left", list(room, &case.left)) };
        if ways.is_empty() {
            let text = format!(
                "{opening}{forced}, and leaving at most {} cannot then balance the colours",
                plural(k, "tile", "tiles")
            );
            texts.push(text.trim_start_matches(", ").to_string());
            continue;
        }
        if ways != [(0, 0)] {
            // More tiles may be left here: no proof from this case.
            return Ok(());
        }
        let mut keep = vec![true; room.num_nodes()];
        for &t in &case.left {
            keep[t] = false;
        }
        let end = case.end.or(room.end());
        let (sub, _) = room.restricted(&keep, end, 0);
        let Some(refutation) = analyse(&sub).refutation else { return Ok(()) };
        let why = if case.left.is_empty() && case.end.is_none() {
            "leaving any tile would unbalance the colours, so every tile is covered".to_string()
        } else {
            format!("{forced}, and leaving any more would unbalance the colours, so every other tile is covered")
                .trim_start_matches(", ")
                .to_string()
        };
        let joined = if opening.is_empty() { why } else { format!("{opening}, {why}") };
        texts.push(format!("{joined}: {}", lower(&refutation.text)));
    }
    if texts.is_empty() {
        return Ok(());
    }
    let reasons = if dead.iter().any(|&d| !known.may_end(d)) && !known.end_reasons.is_empty() {
        format!(" {}.", cap(&known.end_reasons()))
    } else {
        String::new()
    };
    let text = format!(
        "At most {} may be left.{reasons} {}",
        plural(k, "tile", "tiles"),
        texts.iter().map(|t| cap(t)).collect::<Vec<_>>().join(" ")
    );
    Err(Refutation::new(Rule::LeaveCases, text, Vec::new()))
}

fn lower(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if !text.starts_with("(") => first.to_lowercase().chain(chars).collect(),
        Some(first) => std::iter::once(first).chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{room, rule_of};
    use super::super::*;

    #[test]
    fn one_tile_to_leave_cannot_mend_balanced_colours() {
        let why = analyse(&room(&["..S.", "...E", "...#"], 1)).refutation.unwrap();
        assert_eq!(why.rule, Rule::LeaveCases, "{}", why.text);
        assert!(
            why.text.starts_with(
                "At most 1 tile may be left. Leaving any tile would unbalance the colours, so every tile is \
                 covered: the route must end on the end tile (1, 3); (0, 3) has only two open sides"
            ),
            "{}",
            why.text
        );
    }

    #[test]
    fn each_way_to_end_is_a_case() {
        let why = analyse(&room(&[".S..E", ".#..."], 2)).refutation.unwrap();
        assert_eq!(why.rule, Rule::LeaveCases, "{}", why.text);
        assert!(
            why.text.contains(
                "If it ends on a tile with more than one open side, (1, 0) must be left, and leaving any more \
                 would unbalance the colours, so every other tile is covered: (0, 0) can only be reached from the \
                 start"
            ),
            "{}",
            why.text
        );
    }

    #[test]
    fn a_pair_to_leave_proves_nothing() {
        // Two tiles may be left, one of each colour, so the cases do not
        // reduce to covering everything.
        assert_eq!(rule_of(&["S...", "....", "...."], 2), None);
    }
}

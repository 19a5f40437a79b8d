//! Hall's condition on route neighbours: in the route, each tile it passes
//! through has two neighbours (the cells before and after it), and the
//! start and the last tile one. Joining the last tile to an extra node
//! `end`, every tile has two and the start and `end` one: a subgraph with
//! these degrees (a b-matching) must exist. The grid is a checkerboard, so
//! this is a flow from the start's colour to the other; when the flow falls
//! short, the cells of the start's colour it cannot serve and their
//! neighbours are the certificate (Hall's condition for b-matchings).
//!
//! `end` sits on the side opposite the last tile's colour, so each end
//! colour is its own flow. Holds for any `leave_uncovered`: a tile left
//! needs no neighbours, so each one left lowers the demand of its colour
//! by two, and the colours must still balance. With nothing to leave, the
//! flow runs inside each part between cut tiles, whose ends are fixed, which
//! is stronger than over the whole room. It covers [`super::entry`]'s rule
//! when nothing may be left: a b-matching orients into one way in per tile.

use super::colour::cap;
use super::{Deductions, MATCHING_LIMIT, Part, Refutation, Rule, list_up_to, plural};
use crate::puzzles::tile_cover::flow::{Flow, MAX_PHASES, NONE};
use crate::puzzles::tile_cover::graph::{Room, START};

/// One flow problem: the cells of a stretch with how many route neighbours
/// each needs, and where the route may end (joined to `end`).
struct Stretch<'a> {
    room: &'a Room,
    nodes: Vec<usize>,
    need: Vec<u8>,
    ends: Vec<usize>,
    end_same: bool,
}

/// The shortfall of the flow and the cells that show it: (demand, supply,
/// cells of the start's colour, their neighbours, whether `end` is among
/// the first or the second).
struct Shortfall {
    demand: u32,
    supply: u32,
    cells: Vec<usize>,
    neighbours: Vec<usize>,
    end_in_cells: bool,
    end_in_neighbours: bool,
}

impl Stretch<'_> {
    /// Runs the flow; `None` when it reaches `wanted`, or when it takes too
    /// long to tell.
    fn shortfall(&self, wanted: u32) -> Option<Shortfall> {
        let room = self.room;
        let n = self.nodes.len();
        let mut index = vec![NONE; room.num_nodes()];
        for (i, &v) in self.nodes.iter().enumerate() {
            index[v] = i;
        }
        // Network nodes: the cells 0..n, `end` n, source n + 1, sink n + 2.
        let (end, source, sink) = (n, n + 1, n + 2);
        let mut flow = Flow::new(n + 3);
        let left = |v: usize| room.same_colour_as_start(v);
        let end_left = !self.end_same;
        for (i, &v) in self.nodes.iter().enumerate() {
            if left(v) {
                flow.add(source, i, self.need[i]);
                for &w in room.neighbours(v) {
                    if index[w] != NONE {
                        flow.add(i, index[w], 1);
                    }
                }
            } else {
                flow.add(i, sink, self.need[i]);
            }
        }
        if !self.ends.is_empty() {
            if end_left {
                flow.add(source, end, 1);
                for &e in &self.ends {
                    flow.add(end, index[e], 1);
                }
            } else {
                for &e in &self.ends {
                    flow.add(index[e], end, 1);
                }
                flow.add(end, sink, 1);
            }
        }
        // A flow that does not settle in time proves nothing.
        let got = flow.max_flow(source, sink, wanted, MAX_PHASES)?;
        if got >= wanted {
            return None;
        }
        let reached = flow.reached(source);
        let in_x = |i: usize| reached[i] && (if i == end { end_left } else { left(self.nodes[i]) });
        let cells: Vec<usize> = (0..n).filter(|&i| in_x(i)).map(|i| self.nodes[i]).collect();
        let end_in_cells = !self.ends.is_empty() && in_x(end);
        let mut may_end = vec![false; n];
        for &e in &self.ends {
            may_end[index[e]] = true;
        }
        let mut touches = vec![0u8; n + 1];
        for (i, &v) in self.nodes.iter().enumerate() {
            if in_x(i) {
                for &w in room.neighbours(v) {
                    if index[w] != NONE {
                        touches[index[w]] += 1;
                    }
                }
                if may_end[i] && !end_left {
                    touches[end] += 1;
                }
            }
        }
        if end_in_cells {
            for &e in &self.ends {
                touches[index[e]] += 1;
            }
        }
        let neighbours: Vec<usize> = (0..n).filter(|&i| touches[i] > 0).map(|i| self.nodes[i]).collect();
        let end_in_neighbours = touches[end] > 0;
        let demand: u32 =
            (0..n).filter(|&i| in_x(i)).map(|i| self.need[i] as u32).sum::<u32>() + u32::from(end_in_cells);
        let supply: u32 = (0..=n)
            .filter(|&i| touches[i] > 0)
            .map(|i| touches[i].min(if i == end { 1 } else { self.need[i] }) as u32)
            .sum();
        Some(Shortfall { demand, supply, cells, neighbours, end_in_cells, end_in_neighbours })
    }
}

fn describe(room: &Room, short: &Shortfall, stretch_note: &str) -> String {
    // Every cell, up to a size a player can still check.
    let list = |nodes: &[usize]| list_up_to(room, nodes, 60);
    let mut cells = list(&short.cells);
    if short.end_in_cells {
        cells = format!("{cells} and the route's end (one step from a tile it can end on)");
    }
    let mut around = list(&short.neighbours);
    if short.end_in_neighbours {
        around = format!("{around}, or the route ending on one of them");
    }
    format!(
        "Each tile the route passes through is joined by its steps to two neighbours, and the start and the last \
         tile to one{stretch_note}. The {} {cells} need {} in all, but every neighbour they have is among {around}, \
         which can take at most {} of them (two each, one for the start or an end of the stretch, and never more \
         than the cells of the first group each touches), so {} short",
        plural(short.cells.len(), "cell", "cells"),
        plural(short.demand as usize, "step", "steps"),
        short.supply,
        plural((short.demand - short.supply.min(short.demand)) as usize, "step is", "steps are"),
    )
}

pub(super) fn degree_matching(room: &Room, known: &mut Deductions) -> Result<(), Refutation> {
    if room.num_nodes() > MATCHING_LIMIT {
        return Ok(());
    }
    if room.leave_uncovered() == 0 && known.parts.len() >= 2 {
        let parts = known.parts.clone();
        for part in &parts {
            part_matching(room, known, part)?;
        }
        return Ok(());
    }
    whole_room(room, known)
}

/// With nothing to leave, inside one part: the entry and exit need one
/// neighbour in the part, the rest two; the last part ends where it may.
fn part_matching(room: &Room, known: &Deductions, part: &Part) -> Result<(), Refutation> {
    let need: Vec<u8> =
        part.nodes.iter().map(|&v| if v == part.entry || Some(v) == part.exit { 1 } else { 2 }).collect();
    let entry_same = room.same_colour_as_start(part.entry);
    let ends: Vec<usize> = match part.exit {
        Some(_) => Vec::new(),
        None => part.nodes.iter().copied().filter(|&v| v != part.entry && known.may_end(v)).collect(),
    };
    // The part's colours fix the end's colour (see the part colours).
    let like = part.nodes.iter().filter(|&&v| room.same_colour_as_start(v) == entry_same).count();
    let end_like_entry = 2 * like > part.nodes.len();
    let end_same = if end_like_entry { entry_same } else { !entry_same };
    let ends: Vec<usize> = ends.into_iter().filter(|&e| room.same_colour_as_start(e) == end_same).collect();
    if part.exit.is_none() && ends.is_empty() {
        return Ok(());
    }
    let stretch = Stretch { room, nodes: part.nodes.clone(), need, ends, end_same };
    let wanted: u32 = part
        .nodes
        .iter()
        .zip(&stretch.need)
        .filter(|(v, _)| room.same_colour_as_start(**v))
        .map(|(_, &b)| b as u32)
        .sum::<u32>()
        + u32::from(part.exit.is_none() && !end_same);
    let Some(short) = stretch.shortfall(wanted) else { return Ok(()) };
    let note = match part.exit {
        _ if known.parts.len() < 2 => String::new(),
        Some(exit) => format!(
            "; inside the stretch from {} to {}, which the route covers in one go since cut tiles split the room, \
             those two have one neighbour each",
            label(room, part.entry),
            room.label(exit)
        ),
        None => format!(
            "; inside the last stretch, from {} on, which the route covers in one go since cut tiles split the \
             room, {} has one neighbour",
            room.label(part.entry),
            room.label(part.entry)
        ),
    };
    let mut text = describe(room, &short, &note);
    if short.end_in_cells || short.end_in_neighbours {
        let reasons = known.end_reasons();
        if !reasons.is_empty() {
            text = format!("{}. {text}", cap(&reasons));
        }
    }
    // Degrees count on every tile being covered: no local core.
    Err(Refutation::new(Rule::DegreeMatching, format!("{text}."), Vec::new()))
}

fn label(room: &Room, node: usize) -> String {
    if node == START { "the start".to_string() } else { room.label(node) }
}

/// Over the whole room, for each colour the last tile may have, with the
/// tiles that may be left.
pub(super) fn whole_room(room: &Room, known: &Deductions) -> Result<(), Refutation> {
    let k = room.leave_uncovered() as i64;
    let nodes: Vec<usize> = (START..room.num_nodes()).filter(|&v| !known.is_left(v)).collect();
    let budget = k - known.always_left.len() as i64;
    let a = nodes.iter().filter(|&&v| v != START && room.same_colour_as_start(v)).count() as i64;
    let b = nodes.len() as i64 - 1 - a;
    let mut failures = Vec::new();
    for end_same in [true, false] {
        let ends: Vec<usize> =
            nodes.iter().copied().filter(|&v| known.may_end(v) && room.same_colour_as_start(v) == end_same).collect();
        if ends.is_empty() {
            continue;
        }
        // The most tiles of the start's colour that may be left with the
        // colours balanced for this end.
        let delta = i64::from(end_same) - 1 - a + b;
        let most = (0..=budget).rev().find(|&u_s| {
            let u_o = u_s + delta;
            u_o >= 0 && u_s + u_o <= budget && u_s <= a - i64::from(end_same) && u_o <= b - i64::from(!end_same)
        });
        let Some(most) = most else { continue };
        let need: Vec<u8> = nodes.iter().map(|&v| if v == START { 1 } else { 2 }).collect();
        let demand: i64 = nodes
            .iter()
            .zip(&need)
            .filter(|(v, _)| room.same_colour_as_start(**v))
            .map(|(_, &x)| x as i64)
            .sum::<i64>()
            + i64::from(!end_same);
        let wanted = (demand - 2 * most).max(0) as u32;
        let stretch = Stretch { room, nodes: nodes.clone(), need, ends, end_same };
        match stretch.shortfall(wanted) {
            None => return Ok(()),
            Some(short) => failures.push((end_same, most, short)),
        }
    }
    if failures.is_empty() {
        return Ok(());
    }
    let mut texts = Vec::new();
    for (end_same, most, short) in &failures {
        let mut text = describe(room, short, "");
        if k > 0 {
            text = format!(
                "{text}. Each of them left uncovered needs two fewer, and with the colours balanced at most {} of \
                 the start's colour may be left, which makes up at most {}",
                plural(*most as usize, "tile", "tiles"),
                2 * most
            );
        }
        if failures.len() > 1 {
            let colour = if *end_same { "the start's colour" } else { "the other colour" };
            text = format!("If the route ends on a tile of {colour}: {}", lower(&text));
        }
        texts.push(text);
    }
    let mut text = texts.join(". ");
    let reasons = known.end_reasons();
    if !reasons.is_empty() && failures.iter().any(|(_, _, s)| s.end_in_cells || s.end_in_neighbours) {
        text = format!("{}. {text}", cap(&reasons));
    }
    Err(Refutation::new(Rule::DegreeMatching, format!("{text}."), Vec::new()))
}

fn lower(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::room;
    use super::super::*;
    use super::*;

    #[test]
    fn two_dead_ends_behind_one_cell_fail_the_degree_count() {
        // Both (0, 0) and (0, 2) need their one neighbour (0, 1), and that
        // one needs a step on towards the rest too.
        let r = room(&["...", "#.#", "#..", ".S."], 0);
        let why = whole_room(&r, &Deductions::new(&r)).unwrap_err();
        assert_eq!(why.rule, Rule::DegreeMatching);
        assert!(why.text.contains("short"), "{}", why.text);
        let open = room(&["S..", "..."], 0);
        assert!(whole_room(&open, &Deductions::new(&open)).is_ok());
    }

    #[test]
    fn a_generated_room_one_step_short() {
        // From `tile_room 8 8 3`: every earlier rule passes.
        let rows = ["....#...", "..#.....", "........", "..##....", ".S.....#", ".....#..", "........", "........"];
        let why = analyse(&room(&rows, 0)).refutation.unwrap();
        assert_eq!(why.rule, Rule::DegreeMatching, "{}", why.text);
        assert!(why.text.contains("The 23 cells (0, 3), (0, 5), (0, 7)"), "{}", why.text);
        assert!(why.text.ends_with("which can take at most 45 of them (two each, one for the start or an end of the stretch, and never more than the cells of the first group each touches), so 1 step is short."), "{}", why.text);
    }
}

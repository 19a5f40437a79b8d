//! The presolve's deductions as clauses for the arc encodings, so that SAT
//! starts from what the structural rules know when they cannot decide alone:
//! units against ends ruled out ("this tile is the last" is one variable per
//! tile, with exactly one true), units against arcs no route takes (back
//! into a cut tile, into a part it cannot go on into, steps dropped by the
//! forced-steps propagation), units for arcs every route takes, a clause per
//! forced step whose direction is open, and units for tiles every route
//! covers. Every deduction holds for every route, so counts do not change.

use super::graph::Room;
use super::presolve::Deductions;
use crate::cnf::card::{Bounds, Totalizer};
use crate::cnf::{Cnf, Lit, Var};

/// Adds the deductions over the arc variables (by the room's arc number),
/// the "last tile" literals (by node) and the "covered" literals.
pub(super) fn add_deductions(
    cnf: &mut Cnf,
    room: &Room,
    deductions: &Deductions,
    arcs: &[Var],
    ends: &[Option<Lit>],
    covered: &[Lit],
) {
    cnf.open_group("presolve: where the route can end", None);
    for tile in room.tiles() {
        if let Some(end) = ends[tile]
            && !deductions.may_end(tile)
        {
            cnf.add_clause(&[!end]);
        }
    }
    cnf.open_group("presolve: steps no route takes (cut tiles, forced steps)", None);
    for (arc, var) in arcs.iter().enumerate() {
        if !deductions.arc_allowed(arc) {
            cnf.add_clause(&[var.neg()]);
        }
    }
    cnf.open_group("presolve: steps every route takes", None);
    for &arc in deductions.forced_arcs() {
        cnf.add_clause(&[arcs[arc].pos()]);
    }
    for &(a, b) in deductions.forced_steps() {
        let either: Vec<Lit> = room
            .out_arcs(a)
            .iter()
            .chain(room.out_arcs(b))
            .copied()
            .filter(|&arc| {
                let (x, y) = room.arcs()[arc];
                (x, y) == (a, b) || (x, y) == (b, a)
            })
            .map(|arc| arcs[arc].pos())
            .collect();
        cnf.add_clause(&either);
    }
    cnf.open_group("presolve: tiles every route covers", None);
    for &tile in deductions.must_cover() {
        cnf.add_clause(&[covered[tile]]);
    }
}

/// The colour count tied to the last tile's colour, for rooms with tiles to
/// leave and no end tile. The cells visited, the start included, have one
/// more of the start's colour when the route ends on that colour and as
/// many of each otherwise; with nothing to leave the presolve fixes the end's
/// colour, but with tiles to leave SAT must link the two itself, or it meets
/// the parity wall (it cannot see, without search, that a choice of tiles to
/// leave and an end do not add up). Counted on the tiles left, at most k,
/// so only for small allowances, whose counters stay small (`explain`
/// encodes its room with every tile allowed to be left).
pub(super) fn end_colour_link(cnf: &mut Cnf, room: &Room, covered: &[Lit], ends: &[Option<Lit>], truth: Lit) {
    const MOST_LEFT: usize = 16;
    let k = room.leave_uncovered();
    if k == 0 || k > MOST_LEFT || room.end().is_some() || room.num_tiles() == 0 {
        return;
    }
    cnf.open_group("the last tile's colour fixes the colour count", None);
    let end_same = cnf.new_var().pos();
    cnf.name_var(end_same.var(), "the last tile has the start's colour".to_string());
    for tile in room.tiles() {
        if let Some(end) = ends[tile] {
            let colour = if room.same_colour_as_start(tile) { end_same } else { !end_same };
            cnf.add_clause(&[!end, colour]);
        }
    }
    let left = |same: bool| -> Vec<Lit> {
        room.tiles().filter(|&t| room.same_colour_as_start(t) == same).map(|t| !covered[t]).collect()
    };
    let (left_same, left_other) = (left(true), left(false));
    let base = 1 + left_same.len() as i64 - left_other.len() as i64;
    let count =
        |cnf: &mut Cnf, lits: &[Lit]| (!lits.is_empty()).then(|| Totalizer::build(cnf, lits, k + 1, Bounds::Both));
    let same = count(cnf, &left_same);
    let other = count(cnf, &left_other);
    // "At least i left"; more than k are never left.
    let at_least = |counter: &Option<Totalizer>, i: i64| -> Lit {
        if i <= 0 {
            return truth;
        }
        counter.as_ref().and_then(|t| t.at_least(i as usize)).unwrap_or(!truth)
    };
    // Left of the start's colour minus left of the other = base - [end_same].
    for (when, difference) in [(end_same, base - 1), (!end_same, base)] {
        for j in 0..=k as i64 {
            cnf.add_clause(&[!when, !at_least(&other, j), at_least(&same, j + difference)]);
            cnf.add_clause(&[!when, at_least(&other, j + 1), !at_least(&same, j + difference + 1)]);
        }
    }
}

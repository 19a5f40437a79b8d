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

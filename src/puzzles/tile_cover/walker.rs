//! The repair step of the lazy encodings: every model is turned into a
//! single walk before anyone reads it. A model with detached cycles has them
//! spliced into the walk when that is allowed and possible, and otherwise
//! gets cuts ([`crate::graph::judge_path`]), and the driver in
//! [`crate::solver::Lazy`] solves again.
//!
//! Cuts hold for every solution, so they stay for the life of the solver,
//! through counting, facts and explanations alike. Every walk accepted is
//! first confirmed by the caller's independent check.

use std::borrow::Borrow;

use super::encode::{Encoding, Scheme};
use super::graph::{Room, START};
use crate::cnf::{Lit, Var};
use crate::graph::{Cover, Judgement, PathReading, judge_path};
use crate::solver::{Repair, Repairer};

/// The independent check a walk must pass before it is accepted: the
/// walk's tiles in order, after the start, in the room.
pub trait Confirm: Fn(&Room, &[usize]) -> Result<(), String> {}

impl<F: Fn(&Room, &[usize]) -> Result<(), String>> Confirm for F {}

/// A walker over a room and encoding that its caller keeps.
pub type BorrowedWalker<'a, C> = Walker<&'a Room, &'a Encoding, C>;

/// Judges models of an [`Encoding`] of a room, as a [`Repairer`]. The room
/// and encoding are borrowed for a search that lives in one call, or owned
/// by a walker that outlives its builder (deductions).
pub struct Walker<R, E, C> {
    room: R,
    encoding: E,
    splice: bool,
    confirm: C,
    covered: Vec<Lit>,
    always_covered: Vec<bool>,
    walk: Vec<usize>,
}

impl<R, E, C> Walker<R, E, C>
where
    R: Borrow<Room>,
    E: Borrow<Encoding>,
    C: Confirm,
{
    /// A walker that accepts only models that are walks, or, when `splice`,
    /// also models whose detached cycles can be spliced into the walk. A
    /// spliced walk covers the same tiles as the model but uses other arcs,
    /// so splicing suits searches that read only "covered" (solve, facts,
    /// explain) and not those that tell solutions apart by arcs (count).
    pub fn new(room: R, encoding: E, splice: bool, confirm: C) -> Walker<R, E, C> {
        let nodes = room.borrow().num_nodes();
        let covered = (0..nodes).map(|n| encoding.borrow().covered(n)).collect();
        let always_covered = (0..nodes).map(|n| n == START).collect();
        Walker { room, encoding, splice, confirm, covered, always_covered, walk: Vec::new() }
    }

    /// The walk of the last accepted model: its tiles in order.
    pub fn walk(&self) -> &[usize] {
        &self.walk
    }

    /// Accepts `walk` for the model `value` reads, once it passes the
    /// independent check and covers exactly the tiles the model calls covered.
    fn accept(&mut self, walk: Vec<usize>, value: &dyn Fn(Lit) -> bool) -> Result<Repair, String> {
        let room = self.room.borrow();
        (self.confirm)(room, &walk)?;
        let mut on_walk = vec![false; room.num_nodes()];
        for &node in &walk {
            on_walk[node] = true;
        }
        if let Some(tile) = room.tiles().find(|&t| on_walk[t] != value(self.covered[t])) {
            let says = if on_walk[tile] { "uncovered" } else { "covered" };
            return Err(format!("the model calls {} {says}, but its walk does not agree", room.label(tile)));
        }
        self.walk = walk;
        Ok(Repair::Accept)
    }
}

impl<R, E, C> Repairer for Walker<R, E, C>
where
    R: Borrow<Room>,
    E: Borrow<Encoding>,
    C: Confirm,
{
    fn repair(&mut self, value: &dyn Fn(Lit) -> bool, _: &mut dyn FnMut() -> Var) -> Result<Repair, String> {
        let (room, encoding) = (self.room.borrow(), self.encoding.borrow());
        let (Some(arcs), Some(ends)) = (encoding.arc_vars(), encoding.end_lits()) else {
            // The steps encoding: one tile per step, never a cycle.
            return match encoding.read(room, value) {
                PathReading::Walk(walk) => self.accept(walk, value),
                PathReading::Broken(why) => Err(format!("the model is not a walk: {why}")),
                PathReading::Cycles(..) => Err("the encoding let a detached cycle through".to_string()),
            };
        };
        let style = match encoding.scheme() {
            Scheme::Lazy(style) => Some(style),
            Scheme::Rank | Scheme::Steps => None,
        };
        let cover =
            Cover { on: &self.covered, always_on: &self.always_covered, most_off: Some(room.leave_uncovered()) };
        match judge_path(room, arcs, ends, &cover, style, self.splice, value)? {
            Judgement::Accept(walk) => self.accept(walk, value),
            Judgement::Cut(cuts) => Ok(Repair::Cut(cuts)),
        }
    }
}

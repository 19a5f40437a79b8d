//! The repair step of the lazy encodings: every model is turned into a
//! single walk before anyone reads it. A model with detached cycles has them
//! spliced into the walk when that is allowed and possible, and otherwise
//! gets cuts ([`crate::graph::judge_path`]), and the driver in
//! [`crate::solver::Lazy`] solves again.
//!
//! Cuts hold for every solution, so they stay for the life of the solver,
//! through counting, facts and explanations alike. Every walk accepted is
//! first confirmed by the caller's independent check.

use super::encode::{Encoding, Scheme};
use super::graph::{Room, START};
use crate::cnf::Lit;
use crate::graph::{Cover, Judgement, PathReading, judge_path};
use crate::solver::{Repair, Repairer};

/// The independent check a walk must pass before it is accepted: the
/// tiles in order, after the start.
pub type Confirm<'a> = dyn Fn(&[usize]) -> Result<(), String> + 'a;

/// Judges models of an [`Encoding`] of a room, as a [`Repairer`].
pub struct Walker<'a> {
    room: &'a Room,
    encoding: &'a Encoding,
    splice: bool,
    confirm: &'a Confirm<'a>,
    covered: Vec<Lit>,
    always_covered: Vec<bool>,
    walk: Vec<usize>,
}

impl<'a> Walker<'a> {
    /// A walker that accepts only models that are walks, or, when `splice`,
    /// also models whose detached cycles can be spliced into the walk. A
    /// spliced walk covers the same tiles as the model but uses other arcs,
    /// so splicing suits searches that read only "covered" (solve, facts,
    /// explain) and not those that tell solutions apart by arcs (count).
    pub fn new(room: &'a Room, encoding: &'a Encoding, splice: bool, confirm: &'a Confirm<'a>) -> Walker<'a> {
        let covered = (0..room.num_nodes()).map(|n| encoding.covered(n)).collect();
        let always_covered = (0..room.num_nodes()).map(|n| n == START).collect();
        Walker { room, encoding, splice, confirm, covered, always_covered, walk: Vec::new() }
    }

    /// The walk of the last accepted model: its tiles in order.
    pub fn walk(&self) -> &[usize] {
        &self.walk
    }

    /// Accepts `walk` for the model `value` reads, once it passes the
    /// independent check and covers exactly the tiles the model calls covered.
    fn accept(&mut self, walk: Vec<usize>, value: &dyn Fn(Lit) -> bool) -> Result<Repair, String> {
        (self.confirm)(&walk)?;
        let mut on_walk = vec![false; self.room.num_nodes()];
        for &node in &walk {
            on_walk[node] = true;
        }
        if let Some(tile) = self.room.tiles().find(|&t| on_walk[t] != value(self.encoding.covered(t))) {
            let says = if on_walk[tile] { "uncovered" } else { "covered" };
            return Err(format!("the model calls {} {says}, but its walk does not agree", self.room.label(tile)));
        }
        self.walk = walk;
        Ok(Repair::Accept)
    }
}

impl Repairer for Walker<'_> {
    fn repair(&mut self, value: &dyn Fn(Lit) -> bool) -> Result<Repair, String> {
        let (Some(arcs), Some(ends)) = (self.encoding.arc_vars(), self.encoding.end_lits()) else {
            // The steps encoding: one tile per step, never a cycle.
            return match self.encoding.read(self.room, value) {
                PathReading::Walk(walk) => self.accept(walk, value),
                PathReading::Broken(why) => Err(format!("the model is not a walk: {why}")),
                PathReading::Cycles(..) => Err("the encoding let a detached cycle through".to_string()),
            };
        };
        let style = match self.encoding.scheme() {
            Scheme::Lazy(style) => Some(style),
            Scheme::Rank | Scheme::Steps => None,
        };
        let cover =
            Cover { on: &self.covered, always_on: &self.always_covered, most_off: Some(self.room.leave_uncovered()) };
        match judge_path(self.room, arcs, ends, &cover, style, self.splice, value)? {
            Judgement::Accept(walk) => self.accept(walk, value),
            Judgement::Cut(cuts) => Ok(Repair::Cut(cuts)),
        }
    }
}

//! Propagation to a fixed point and depth-first search.
//!
//! Each node picks a variable and its least value `v`, and tries `x = v`
//! below it; back at the node, `x ≠ v` holds from then on and propagates
//! before the next choice (binary branching, as Gecode's). The next
//! solution is the next leaf: nothing is learnt and nothing is blocked.
//! With an objective, each solution tightens a bound that every later
//! node propagates (branch and bound), so the last solution is optimal
//! once the tree is exhausted.

use std::collections::VecDeque;

use super::props::Prop;
use super::store::{Event, Fail, Store, Var};
use super::{FdError, Stats};
use crate::solver::Stop;

/// What a leaf's visitor tells the search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    Stop,
}

/// How the next variable is chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// The first unfixed variable in the model's order.
    Input,
    /// The unfixed variable with the fewest values, the first on a tie.
    FirstFail,
}

/// The propagators over a store, with their queue.
pub(crate) struct Engine<'s> {
    pub store: Store,
    pub props: Vec<Prop>,
    /// Per variable, the propagators that read it and the least event that
    /// wakes them.
    watchers: Vec<Vec<(usize, Event)>>,
    queue: VecDeque<usize>,
    /// The costly propagators woken, run once the cheap ones are at a
    /// fixed point (as Gecode orders them by cost).
    slow: VecDeque<usize>,
    queued: Vec<bool>,
    /// The variables searched on, in order; every other variable is fixed
    /// by propagation once they are.
    pub decisions: Vec<Var>,
    /// The propagator that bounds the objective, run at every node.
    pub bound: Option<usize>,
    pub order: Order,
    pub stats: Stats,
    stop: &'s Stop,
}

impl<'s> Engine<'s> {
    pub fn new(store: Store, props: Vec<Prop>, decisions: Vec<Var>, stop: &'s Stop) -> Engine<'s> {
        let mut watchers = vec![Vec::new(); store.len()];
        for (p, prop) in props.iter().enumerate() {
            for (x, event) in prop.watches() {
                watchers[x].push((p, event));
            }
        }
        let queued = vec![false; props.len()];
        let (queue, stats) = (VecDeque::new(), Stats::default());
        let slow = VecDeque::new();
        Engine { store, props, watchers, queue, slow, queued, decisions, bound: None, order: Order::Input, stats, stop }
    }

    fn enqueue(&mut self, p: usize) {
        if !self.queued[p] {
            self.queued[p] = true;
            if self.props[p].costly() { self.slow.push_back(p) } else { self.queue.push_back(p) }
        }
    }

    /// Wakes the watchers of every change so far, except `done`, a
    /// propagator that has just run and leaves a fixed point of its own.
    fn wake(&mut self, done: Option<usize>) {
        let changes = std::mem::take(&mut self.store.changes);
        for &(x, event) in &changes {
            for i in 0..self.watchers[x].len() {
                let (p, wanted) = self.watchers[x][i];
                if event >= wanted && Some(p) != done {
                    self.enqueue(p);
                }
            }
        }
        self.store.changes = changes;
        self.store.changes.clear();
    }

    /// Runs every propagator from scratch (the root).
    pub fn propagate_all(&mut self) -> Result<(), Fail> {
        for p in 0..self.props.len() {
            self.enqueue(p);
        }
        self.propagate()
    }

    /// Propagates the changes so far, and the objective's bound, to a
    /// fixed point.
    pub fn propagate(&mut self) -> Result<(), Fail> {
        if let Some(p) = self.bound {
            self.enqueue(p);
        }
        self.wake(None);
        while let Some(p) = self.queue.pop_front().or_else(|| self.slow.pop_front()) {
            self.queued[p] = false;
            self.stats.propagations += 1;
            if let Err(fail) = self.props[p].propagate(&mut self.store) {
                for q in self.queue.drain(..).chain(self.slow.drain(..)) {
                    self.queued[q] = false;
                }
                self.store.changes.clear();
                return Err(fail);
            }
            let done = self.props[p].idempotent().then_some(p);
            self.wake(done);
        }
        Ok(())
    }

    /// The next variable to branch on, if any is unfixed.
    fn choose(&self) -> Option<Var> {
        let mut open = self.decisions.iter().copied().filter(|&x| !self.store.is_fixed(x));
        match self.order {
            Order::Input => open.next(),
            Order::FirstFail => open.min_by_key(|&x| self.store.size(x)),
        }
    }

    /// Searches for one assignment of `vars` below the current node and
    /// calls `leaf` at it; whether there is one. The domains and the
    /// decisions are as they were afterwards.
    pub fn first_of(
        &mut self,
        vars: Vec<Var>,
        leaf: &mut dyn FnMut(&mut Engine<'_>) -> Result<(), FdError>,
    ) -> Result<bool, FdError> {
        let saved = std::mem::replace(&mut self.decisions, vars);
        self.store.push();
        let mut found = false;
        let result = self.search(&mut |engine| {
            found = true;
            leaf(engine)?;
            Ok(Flow::Stop)
        });
        self.store.pop();
        self.decisions = saved;
        result.map(|_| found)
    }

    /// Searches below the current node, calling `leaf` at every solution.
    pub fn search(&mut self, leaf: &mut dyn FnMut(&mut Engine<'_>) -> Result<Flow, FdError>) -> Result<Flow, FdError> {
        loop {
            let Some(x) = self.choose() else { return leaf(self) };
            self.stats.nodes += 1;
            if self.stats.nodes.is_multiple_of(1024) {
                self.stop.check().map_err(FdError::Stopped)?;
            }
            let v = self.store.min(x);
            self.store.push();
            let below = match self.store.fix(x, v).and_then(|()| self.propagate()) {
                Ok(()) => self.search(leaf)?,
                Err(Fail) => {
                    self.stats.fails += 1;
                    Flow::Continue
                }
            };
            self.store.pop();
            if below == Flow::Stop {
                return Ok(Flow::Stop);
            }
            if self.store.remove(x, v).and_then(|()| self.propagate()).is_err() {
                self.stats.fails += 1;
                return Ok(Flow::Continue);
            }
        }
    }
}

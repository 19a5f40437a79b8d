//! Enumeration by a depth-first walk over unit propagation alone.
//!
//! A CDCL solver starts each model afresh: after a blocking clause it goes
//! back to the root and decides every variable again, so over 100,000
//! variables each model costs milliseconds however easy the formula is. A
//! walk that backtracks one decision per model finds the next model of an
//! easy formula in the time its propagation takes. It learns nothing, so
//! after a budget of conflicts it gives up and hands back the part of the
//! search it has not covered, as cubes for the CDCL solver.

use super::Propagator;
use crate::cnf::{Cnf, Lit, Var};

/// What [`Walk::step`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum WalkStep {
    /// A model, readable through [`Walk::value`] until the next call. Its
    /// projection differs from every earlier model's.
    Model,
    /// Every model has been found.
    Done,
    /// The budget ran out. The models not yet found are exactly those that
    /// satisfy one of these cubes (conjunctions of literals, pairwise
    /// disjoint, and disjoint from every model found), each with a
    /// projection no earlier model had.
    GaveUp(Vec<Vec<Lit>>),
}

/// One decision of the walk.
struct Frame {
    lit: Lit,
    /// The trail before the decision.
    mark: usize,
    /// Whether this is the decision's second branch.
    flipped: bool,
    /// The decided variable's place in [`Walk::order`].
    at: usize,
}

/// A depth-first enumeration of the models of a [`Cnf`] projected onto
/// some of its variables: the projected variables are decided first, and
/// the others only to show that a model extends the projection, which is
/// then counted once.
///
/// ```
/// use somaria::cnf::{Cnf, card};
/// use somaria::solver::{Walk, WalkStep};
/// let mut cnf = Cnf::new();
/// let xs: Vec<_> = cnf.new_vars(4).iter().map(|v| v.pos()).collect();
/// card::exactly_one(&mut cnf, &xs);
/// let mut walk = Walk::new(&cnf, &xs, 100);
/// let mut models = 0;
/// while walk.step() == WalkStep::Model {
///     models += 1;
/// }
/// assert_eq!(models, 4);
/// ```
pub struct Walk {
    propagator: Propagator,
    /// The projection's variables, then every other variable.
    order: Vec<Var>,
    projected: usize,
    frames: Vec<Frame>,
    conflicts: u64,
    budget: u64,
    at_model: bool,
    done: bool,
    /// The variables whose values may have changed since the last model
    /// ([`Walk::changed`]), with repeats.
    changed: Vec<Var>,
    /// The lowest the trail has been since the last model.
    low: usize,
    /// With [`Walk::deciding_by_groups`], the projection's groups.
    groups: Option<Groups>,
}

/// The groups of [`Walk::deciding_by_groups`].
struct Groups {
    /// Each projected position's group.
    at: Vec<u32>,
    /// Scratch, per group: its open variables, and the first one's place.
    open: Vec<(u32, usize)>,
}

impl Walk {
    /// The walk over `cnf`'s models projected onto `projection`'s
    /// variables, giving up after `budget` conflicts. Variables the clauses
    /// do not know are taken as false.
    pub fn new(cnf: &Cnf, projection: &[Lit], budget: u64) -> Walk {
        let mut propagator = Propagator::new(cnf);
        let mut placed = vec![false; propagator.num_vars()];
        let mut order = Vec::with_capacity(propagator.num_vars());
        for var in projection.iter().map(|l| l.var()) {
            if var.index() < placed.len() && !std::mem::replace(&mut placed[var.index()], true) {
                order.push(var);
            }
        }
        propagator = propagator.tracking_satisfaction(&placed);
        let projected = order.len();
        order.extend((0..placed.len()).filter(|&i| !placed[i]).map(Var::from_index));
        let done = !propagator.is_consistent();
        Walk {
            propagator,
            order,
            projected,
            frames: Vec::new(),
            conflicts: 0,
            budget,
            at_model: false,
            done,
            changed: Vec::new(),
            low: 0,
            groups: None,
        }
    }

    /// The same walk, deciding first among the projection's groups the one
    /// with the fewest open variables (first-fail, as constraint solvers
    /// choose the variable with the smallest domain), its first open
    /// variable. `sizes` splits the projection, in order, into groups of
    /// these many literals, such as the literals of one integer. The
    /// models are the same, in another order.
    pub fn deciding_by_groups(mut self, sizes: &[usize], projection: &[Lit]) -> Walk {
        let mut group_of_var = vec![u32::MAX; self.propagator.num_vars()];
        let mut lits = projection.iter();
        for (g, &size) in sizes.iter().enumerate() {
            for lit in lits.by_ref().take(size) {
                if let Some(slot) = group_of_var.get_mut(lit.var().index()) {
                    *slot = (*slot).min(g as u32);
                }
            }
        }
        let group_at: Vec<u32> = self.order[..self.projected].iter().map(|v| group_of_var[v.index()]).collect();
        // Projected literals past the sizes given form one more group.
        let groups = sizes.len() + 1;
        let group_at = group_at.into_iter().map(|g| g.min(sizes.len() as u32)).collect();
        self.groups = Some(Groups { at: group_at, open: vec![(0, 0); groups] });
        self
    }

    /// For the model just found, every variable whose value may differ
    /// from the previous model's (some more than once, some unchanged); for
    /// the first model, every variable the clauses have set. So a reader
    /// that keeps the last model's values needs to read only these again.
    pub fn changed(&self) -> &[Var] {
        &self.changed
    }

    /// Undoes the assignments since `mark`, noting their variables as
    /// changed.
    fn undo_to(&mut self, mark: usize) {
        self.changed.extend(self.propagator.trail_since(mark).iter().map(|l| l.var()));
        self.low = self.low.min(mark);
        self.propagator.undo_to(mark);
    }

    /// The value of `lit` in the model just found.
    pub fn value(&self, lit: Lit) -> bool {
        self.propagator.value(lit).unwrap_or(!lit.is_positive())
    }

    /// Allows `conflicts` more conflicts before the walk gives up.
    pub fn extend_budget(&mut self, conflicts: u64) {
        self.budget = self.budget.saturating_add(conflicts);
    }

    /// The conflicts met so far.
    pub fn conflicts(&self) -> u64 {
        self.conflicts
    }

    /// The next model, or the end of the walk.
    pub fn step(&mut self) -> WalkStep {
        if self.done {
            return WalkStep::Done;
        }
        if std::mem::take(&mut self.at_model) {
            self.changed.clear();
            self.low = self.propagator.mark();
            if !self.leave_model() {
                return self.finish(WalkStep::Done);
            }
        }
        loop {
            if self.conflicts > self.budget {
                let cubes = self.open_cubes();
                return self.finish(WalkStep::GaveUp(cubes));
            }
            let Some(at) = self.next_decision() else {
                self.changed.extend(self.propagator.trail_since(self.low).iter().map(|l| l.var()));
                self.at_model = true;
                return WalkStep::Model;
            };
            let lit = self.order[at].neg();
            self.frames.push(Frame { lit, mark: self.propagator.mark(), flipped: false, at });
            if !self.propagator.assume(lit) {
                self.conflicts += 1;
                if !self.backtrack() {
                    return self.finish(WalkStep::Done);
                }
            }
        }
    }

    /// The place in the order of the variable to decide next; none at a
    /// model.
    fn next_decision(&mut self) -> Option<usize> {
        // Once every clause holds, any values of the open variables make
        // a model, so only the projection's open variables are decided.
        let end = if self.propagator.all_satisfied() { self.projected } else { self.order.len() };
        let mut start = self.frames.last().map_or(0, |f| f.at + 1);
        if let Some(Groups { at: group_at, open: counts }) = &mut self.groups {
            counts.fill((0, 0));
            for (i, &g) in group_at.iter().enumerate() {
                if self.propagator.value(self.order[i].pos()).is_none() {
                    let (open, first) = &mut counts[g as usize];
                    if *open == 0 {
                        *first = i;
                    }
                    *open += 1;
                }
            }
            let best = counts.iter().filter(|(open, _)| *open > 0).min_by_key(|(open, _)| *open);
            if let Some(&(_, first)) = best {
                return Some(first);
            }
            start = start.max(self.projected);
        }
        (start.min(end)..end).find(|&i| self.propagator.value(self.order[i].pos()).is_none())
    }

    fn finish(&mut self, step: WalkStep) -> WalkStep {
        self.done = true;
        step
    }

    /// Drops the decisions on unprojected variables, which only showed that
    /// the projection extends to a model, and moves to the next branch;
    /// false when there is none.
    fn leave_model(&mut self) -> bool {
        // The decisions are in the order's order, so the projected come first.
        let first = self.frames.partition_point(|f| f.at < self.projected);
        if let Some(frame) = self.frames.get(first) {
            self.undo_to(frame.mark);
            self.frames.truncate(first);
        }
        self.backtrack()
    }

    /// Takes the second branch of the deepest decision that has one left,
    /// going on past branches that conflict at once; false when none is
    /// left.
    fn backtrack(&mut self) -> bool {
        while let Some(frame) = self.frames.pop() {
            self.undo_to(frame.mark);
            if frame.flipped {
                continue;
            }
            let lit = !frame.lit;
            self.frames.push(Frame { lit, flipped: true, ..frame });
            if self.propagator.assume(lit) {
                return true;
            }
            self.conflicts += 1;
        }
        false
    }

    /// The cubes not yet searched: each decision's untaken branch, and the
    /// current node. Below the projected variables one cube stands for the
    /// whole current projection, for which no model has been found yet.
    fn open_cubes(&self) -> Vec<Vec<Lit>> {
        let projected: Vec<&Frame> = self.frames.iter().filter(|f| f.at < self.projected).collect();
        let mut cubes = Vec::new();
        for (i, frame) in projected.iter().enumerate().filter(|(_, f)| !f.flipped) {
            let mut cube: Vec<Lit> = projected[..i].iter().map(|f| f.lit).collect();
            cube.push(!frame.lit);
            cubes.push(cube);
        }
        cubes.push(projected.iter().map(|f| f.lit).collect());
        cubes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{ProjectedModels, new_solver};
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    /// The models a walk finds, then the models of its cubes by
    /// enumeration with the CDCL solver: the projections, each once.
    fn walked(cnf: &Cnf, projection: &[Lit], budget: u64, groups: Option<&[usize]>) -> (Vec<Vec<bool>>, bool) {
        let mut walk = Walk::new(cnf, projection, budget);
        if let Some(sizes) = groups {
            walk = walk.deciding_by_groups(sizes, projection);
        }
        let mut found = Vec::new();
        let mut last: Option<Vec<bool>> = None;
        loop {
            match walk.step() {
                // Each model in full, on the proptest's small formulas.
                WalkStep::Model if cnf.num_vars() <= 64 => {
                    let model: Vec<bool> = (0..cnf.num_vars()).map(|i| walk.value(Var::from_index(i).pos())).collect();
                    assert!(cnf.is_satisfied_by(&model), "the walk's model breaks a clause");
                    if let Some(last) = &last {
                        for (i, (was, is)) in last.iter().zip(&model).enumerate() {
                            assert!(was == is || walk.changed().contains(&Var::from_index(i)), "an unlisted change");
                        }
                    }
                    last = Some(model);
                    found.push(projection.iter().map(|&l| walk.value(l)).collect());
                }
                WalkStep::Model => found.push(projection.iter().map(|&l| walk.value(l)).collect()),
                WalkStep::Done => return (found, false),
                WalkStep::GaveUp(cubes) => {
                    let mut solver = new_solver(cnf, None);
                    for cube in cubes {
                        for model in ProjectedModels::new(&mut solver, projection.to_vec(), &cube) {
                            found.push(model.unwrap());
                        }
                    }
                    return (found, true);
                }
            }
        }
    }

    #[test]
    fn an_exactly_one_over_many_variables_is_walked_one_decision_per_model() {
        let mut cnf = Cnf::new();
        let xs: Vec<Lit> = cnf.new_vars(20_000).iter().map(|v| v.pos()).collect();
        crate::cnf::card::exactly_one(&mut cnf, &xs);
        let (found, gave_up) = walked(&cnf, &xs, 0, None);
        assert!(!gave_up);
        assert_eq!(found.len(), 20_000);
        assert!(found.iter().all(|m| m.iter().filter(|&&b| b).count() == 1));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]

        /// Random 3-CNF over 8 variables, projected onto the first `p`,
        /// decided in order or by groups of the projection (some past its
        /// end, some leaving its tail ungrouped), with budgets small enough
        /// that most walks give up somewhere:
        /// the walk's models and its cubes' together are exactly the
        /// distinct projections of the formula's models, by brute force.
        #[test]
        fn walk_and_cubes_match_brute_force(
            clauses in prop::collection::vec(prop::collection::vec((0usize..8, any::<bool>()), 1..4), 0..24),
            p in 0usize..=8,
            budget in 0u64..12,
            negated in any::<bool>(),
            sizes in prop::option::of(prop::collection::vec(1usize..4, 0..4)),
        ) {
            let mut cnf = Cnf::new();
            let vars = cnf.new_vars(8);
            for clause in &clauses {
                let lits: Vec<Lit> = clause.iter().map(|&(v, pol)| vars[v].lit(pol)).collect();
                cnf.add_clause(&lits);
            }
            let projection: Vec<Lit> = vars[..p].iter().map(|v| v.lit(!negated)).collect();
            let mut expected = BTreeSet::new();
            for bits in 0u32..256 {
                let assignment: Vec<bool> = (0..8).map(|i| bits >> i & 1 == 1).collect();
                if cnf.is_satisfied_by(&assignment) {
                    expected.insert(projection.iter().map(|l| l.holds(&assignment)).collect::<Vec<bool>>());
                }
            }
            let (found, _) = walked(&cnf, &projection, budget, sizes.as_deref());
            let distinct: BTreeSet<_> = found.iter().cloned().collect();
            prop_assert_eq!(distinct.len(), found.len(), "a projection came twice");
            prop_assert_eq!(distinct, expected);
        }
    }
}

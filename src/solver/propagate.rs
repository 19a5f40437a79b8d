//! Unit propagation over a fixed [`Cnf`], apart from any SAT backend.
//!
//! Enumeration uses it to shorten blocking clauses: if a few of a model's
//! literals imply the rest of its projection by propagation alone, every
//! model that has those few has the same projection, so blocking them
//! blocks exactly that projection. Propagation over a subset of the
//! solver's clauses is sound for the whole formula, so clauses the solver
//! gained later (cuts, extensions) need not be here.

use crate::cnf::{Cnf, Lit};

/// Two-watched-literal unit propagation over the clauses of one [`Cnf`].
pub struct Propagator {
    lits: Vec<Lit>,
    starts: Vec<usize>,
    watches: Vec<Vec<u32>>,
    /// Per variable: 0 unknown, 1 true, -1 false.
    values: Vec<i8>,
    trail: Vec<Lit>,
    head: usize,
    /// The trail's length after the unit clauses: what a reset keeps.
    fixed: usize,
    /// The clauses alone are contradictory by propagation.
    contradictory: bool,
    /// The assumptions since the last reset met a conflict.
    conflicted: bool,
    /// With [`Propagator::tracking_satisfaction`]: per literal, the stored
    /// clauses it is in; empty otherwise.
    occurs: Vec<Vec<u32>>,
    /// Per stored clause, how many of its literals hold.
    holding: Vec<u32>,
    /// The stored clauses counted in `holding` none of whose literals holds.
    unsatisfied: usize,
    /// Whether [`Propagator::tracking_satisfaction`] made it.
    tracking: bool,
}

impl Propagator {
    /// The propagator of `cnf`'s clauses, with its unit clauses applied.
    pub fn new(cnf: &Cnf) -> Propagator {
        Propagator::with_vars(cnf, cnf.num_vars())
    }

    /// [`Propagator::new`] knowing at least `num_vars` variables, so that
    /// assumptions on variables beyond the clauses' are kept as values.
    pub fn with_vars(cnf: &Cnf, num_vars: usize) -> Propagator {
        let num_vars = num_vars.max(cnf.num_vars());
        let mut propagator = Propagator {
            lits: Vec::new(),
            starts: vec![0],
            watches: vec![Vec::new(); 2 * num_vars],
            values: vec![0; num_vars],
            trail: Vec::new(),
            head: 0,
            fixed: 0,
            contradictory: false,
            conflicted: false,
            occurs: Vec::new(),
            holding: Vec::new(),
            unsatisfied: 0,
            tracking: false,
        };
        let mut units = Vec::new();
        for clause in cnf.clauses() {
            let mut clause = clause.to_vec();
            clause.sort_unstable();
            clause.dedup();
            if clause.windows(2).any(|pair| pair[0] == !pair[1]) {
                continue;
            }
            match clause.len() {
                0 => propagator.contradictory = true,
                1 => units.push(clause[0]),
                _ => propagator.add_watched(&clause),
            }
        }
        for unit in units {
            if !propagator.assume(unit) {
                propagator.contradictory = true;
            }
        }
        propagator.fixed = propagator.trail.len();
        propagator.contradictory |= propagator.conflicted;
        propagator
    }

    fn add_watched(&mut self, clause: &[Lit]) {
        let index = u32::try_from(self.starts.len() - 1).expect("clause count fits in u32");
        self.watches[clause[0].code()].push(index);
        self.watches[clause[1].code()].push(index);
        self.lits.extend_from_slice(clause);
        self.starts.push(self.lits.len());
    }

    /// Whether `lit` holds (`Some(true)`), fails, or is open. A literal over
    /// a variable the clauses do not know is always open.
    pub fn value(&self, lit: Lit) -> Option<bool> {
        match self.values.get(lit.var().index()).copied().unwrap_or(0) {
            0 => None,
            v => Some((v > 0) == lit.is_positive()),
        }
    }

    /// The same propagator, also keeping count of the stored clauses over
    /// a variable outside `settled` (indexed by variable) that the
    /// assignment does not yet satisfy, so that
    /// [`Propagator::all_satisfied`] can tell when any values of the open
    /// variables outside `settled` complete it to a model, once those in
    /// `settled` are all set. Each assignment then also visits every such
    /// clause its literal is in; a clause over `settled` alone costs
    /// nothing, since setting its variables without a conflict satisfies it.
    pub fn tracking_satisfaction(mut self, settled: &[bool]) -> Propagator {
        let clauses = self.starts.len() - 1;
        self.occurs = vec![Vec::new(); self.watches.len()];
        self.holding = vec![0; clauses];
        self.tracking = true;
        let is_settled = |lit: Lit| settled.get(lit.var().index()).copied().unwrap_or(false);
        for clause in 0..clauses {
            let lits = &self.lits[self.starts[clause]..self.starts[clause + 1]];
            if lits.iter().all(|&l| is_settled(l)) {
                continue;
            }
            for k in self.starts[clause]..self.starts[clause + 1] {
                let lit = self.lits[k];
                self.occurs[lit.code()].push(clause as u32);
                if self.value(lit) == Some(true) {
                    self.holding[clause] += 1;
                }
            }
            if self.holding[clause] == 0 {
                self.unsatisfied += 1;
            }
        }
        self
    }

    /// Whether the assignment, with no conflict, satisfies every clause
    /// that [`Propagator::tracking_satisfaction`] keeps count of, so that
    /// once its settled variables are set, any values of the other open
    /// variables complete it to a model. Always false unless that made it.
    pub fn all_satisfied(&self) -> bool {
        self.tracking && self.unsatisfied == 0 && self.is_consistent()
    }

    /// The literals assigned since `mark`, in order.
    pub fn trail_since(&self, mark: usize) -> &[Lit] {
        &self.trail[mark.min(self.trail.len())..]
    }

    /// Undoes every [`Propagator::assume`] since the unit clauses.
    pub fn reset(&mut self) {
        self.unassign_down_to(self.fixed);
        self.head = self.fixed;
        self.conflicted = false;
    }

    fn unassign_down_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let lit = self.trail.pop().expect("the trail is longer than the mark");
            self.values[lit.var().index()] = 0;
            if let Some(clauses) = self.occurs.get(lit.code()) {
                for &clause in clauses {
                    self.holding[clause as usize] -= 1;
                    if self.holding[clause as usize] == 0 {
                        self.unsatisfied += 1;
                    }
                }
            }
        }
    }

    /// The point the assignment has reached, to come back to with
    /// [`Propagator::undo_to`]; take it only while consistent.
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Undoes every assignment made since `mark`, and the conflict, if any,
    /// met since then.
    pub fn undo_to(&mut self, mark: usize) {
        let mark = mark.max(self.fixed);
        self.unassign_down_to(mark);
        self.head = mark;
        self.conflicted = false;
    }

    /// How many clauses of two literals or more it watches (after sorting,
    /// dropping repeats and tautologies): those [`Propagator::clause`] reads.
    pub fn num_clauses(&self) -> usize {
        self.starts.len() - 1
    }

    /// The literals of watched clause `index`, in an order that changes as
    /// the watches move.
    pub fn clause(&self, index: usize) -> &[Lit] {
        &self.lits[self.starts[index]..self.starts[index + 1]]
    }

    /// How many variables the clauses know.
    pub fn num_vars(&self) -> usize {
        self.values.len()
    }

    /// Whether no conflict was met: neither in the clauses alone nor since
    /// the last reset.
    pub fn is_consistent(&self) -> bool {
        !self.contradictory && !self.conflicted
    }

    /// Makes `lit` true and propagates; false on a conflict, now or since
    /// the last reset. A literal the clauses do not know is taken as true
    /// and implies nothing.
    pub fn assume(&mut self, lit: Lit) -> bool {
        if !self.is_consistent() {
            return false;
        }
        match self.value(lit) {
            Some(holds) => self.conflicted = !holds,
            None if lit.var().index() >= self.values.len() => {}
            None => {
                self.set(lit);
                self.conflicted = !self.propagate();
            }
        }
        !self.conflicted
    }

    fn set(&mut self, lit: Lit) {
        self.values[lit.var().index()] = if lit.is_positive() { 1 } else { -1 };
        self.trail.push(lit);
        if let Some(clauses) = self.occurs.get(lit.code()) {
            for &clause in clauses {
                if self.holding[clause as usize] == 0 {
                    self.unsatisfied -= 1;
                }
                self.holding[clause as usize] += 1;
            }
        }
    }

    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let falsified = !self.trail[self.head];
            self.head += 1;
            let mut watching = std::mem::take(&mut self.watches[falsified.code()]);
            let mut kept = 0;
            let mut conflict = false;
            for at in 0..watching.len() {
                let clause = watching[at];
                if conflict || self.keeps_watch(clause as usize, falsified) {
                    watching[kept] = clause;
                    kept += 1;
                    conflict = conflict || self.clause_conflicts(clause as usize);
                }
            }
            watching.truncate(kept);
            self.watches[falsified.code()] = watching;
            if conflict {
                return false;
            }
        }
        true
    }

    /// Moves the clause's watch off `falsified` if another literal can take
    /// it; true when the watch stays (the clause is then unit, satisfied by
    /// its other watch, or in conflict).
    fn keeps_watch(&mut self, clause: usize, falsified: Lit) -> bool {
        let (start, end) = (self.starts[clause], self.starts[clause + 1]);
        if self.lits[start] == falsified {
            self.lits.swap(start, start + 1);
        }
        if self.value(self.lits[start]) == Some(true) {
            return true;
        }
        for k in start + 2..end {
            if self.value(self.lits[k]) != Some(false) {
                self.lits.swap(start + 1, k);
                self.watches[self.lits[start + 1].code()].push(clause as u32);
                return false;
            }
        }
        true
    }

    /// After [`Propagator::keeps_watch`] kept the watch: sets the clause's
    /// other watch if it is open, and says whether it is false.
    fn clause_conflicts(&mut self, clause: usize) -> bool {
        let start = self.starts[clause];
        if self.value(self.lits[start + 1]) != Some(false) {
            return false;
        }
        match self.value(self.lits[start]) {
            Some(true) => false,
            Some(false) => true,
            None => {
                self.set(self.lits[start]);
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cnf_of(num_vars: usize, clauses: &[Vec<(usize, bool)>]) -> Cnf {
        let mut cnf = Cnf::new();
        let vars = cnf.new_vars(num_vars);
        for clause in clauses {
            let lits: Vec<Lit> = clause.iter().map(|&(v, sign)| vars[v].lit(sign)).collect();
            cnf.add_clause(&lits);
        }
        cnf
    }

    /// The literals unit propagation must derive, by the textbook fixpoint.
    fn naive_closure(num_vars: usize, clauses: &[Vec<(usize, bool)>], assumed: &[(usize, bool)]) -> Option<Vec<i8>> {
        let mut values = vec![0i8; num_vars];
        for &(v, sign) in assumed {
            let want = if sign { 1 } else { -1 };
            if values[v] == -want {
                return None;
            }
            values[v] = want;
        }
        loop {
            let mut changed = false;
            for clause in clauses {
                let mut clause = clause.clone();
                clause.sort_unstable();
                clause.dedup();
                let holds = |&(v, sign): &(usize, bool)| values[v] == if sign { 1 } else { -1 };
                if clause.iter().any(holds) {
                    continue;
                }
                let open: Vec<_> = clause.iter().filter(|&&(v, _)| values[v] == 0).collect();
                match open.len() {
                    0 => return None,
                    1 => {
                        let &(v, sign) = open[0];
                        values[v] = if sign { 1 } else { -1 };
                        changed = true;
                    }
                    _ => {}
                }
            }
            if !changed {
                return Some(values);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn propagation_matches_the_textbook_fixpoint(
            clauses in prop::collection::vec(prop::collection::vec((0usize..8, any::<bool>()), 0..4), 0..14),
            assumed in prop::collection::vec((0usize..8, any::<bool>()), 0..4),
        ) {
            let cnf = cnf_of(8, &clauses);
            let mut propagator = Propagator::new(&cnf);
            // Twice, to check that a reset forgets the first round.
            for _ in 0..2 {
                propagator.reset();
                for &(v, sign) in &assumed {
                    propagator.assume(Var::from_index(v).lit(sign));
                }
                let consistent = propagator.is_consistent();
                let expected = naive_closure(8, &clauses, &assumed);
                prop_assert_eq!(consistent, expected.is_some());
                if let Some(values) = expected {
                    for (v, &value) in values.iter().enumerate() {
                        let got = propagator.value(Var::from_index(v).pos());
                        prop_assert_eq!(got, (value != 0).then_some(value > 0), "variable {}", v);
                    }
                }
            }
        }
    }

    use crate::cnf::Var;
}

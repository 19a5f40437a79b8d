//! The lazy-constraint driver: a formula that leaves a constraint out (such
//! as "the route is one piece") is solved, each model is handed to a
//! [`Repairer`] that knows the missing constraint, and the repairer either
//! accepts the model or returns clauses that cut it off. The loop goes on
//! until a model is accepted or none is left. A cut may speak through
//! fresh variables of its own (such as "some node of this set is on"), which
//! the repairer takes from the solver while it judges.
//!
//! [`Lazy`] is itself a [`Solve`], so everything built on the trait
//! (enumeration with [`super::ProjectedModels`], [`super::possible_literals`],
//! cores and [`super::shrink_by_deletion`]) works on lazily constrained
//! formulas unchanged: each of those calls sees only accepted models.

use std::cell::RefCell;

use super::{Answer, Solve, SolveStats, SolverError, StopCause};
use crate::cnf::{ClauseSink, Lit, Var};

/// What a [`Repairer`] makes of a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Repair {
    /// The model stands as a solution.
    Accept,
    /// The model breaks the left-out constraint. Each clause holds in every
    /// solution of the whole problem, and together they rule the model out;
    /// they are kept for good.
    Cut(Vec<Vec<Lit>>),
}

/// Knows a constraint the formula leaves out, and judges models against it.
pub trait Repairer {
    /// Judges the model whose values `value` reads; `fresh` gives new
    /// variables of the solver for the cuts to use. An `Err` says the model
    /// is broken in a way no cut can mend, which is a bug in the encoding.
    fn repair(&mut self, value: &dyn Fn(Lit) -> bool, fresh: &mut dyn FnMut() -> Var) -> Result<Repair, String>;
}

/// A solver whose models all pass a [`Repairer`].
///
/// ```
/// use somaria::cnf::{ClauseSink, Cnf, Lit, Var};
/// use somaria::solver::{new_solver, Answer, Lazy, Repair, Repairer, Solve, ProjectedModels};
/// // Left out of the formula: "not both a and b". The repairer cuts it in.
/// struct NotBoth(Lit, Lit);
/// impl Repairer for NotBoth {
///     fn repair(&mut self, value: &dyn Fn(Lit) -> bool, _: &mut dyn FnMut() -> Var) -> Result<Repair, String> {
///         Ok(if value(self.0) && value(self.1) { Repair::Cut(vec![vec![!self.0, !self.1]]) } else { Repair::Accept })
///     }
/// }
/// let mut cnf = Cnf::new();
/// let (a, b) = (cnf.new_var(), cnf.new_var());
/// let mut lazy = Lazy::new(new_solver(&cnf, None), NotBoth(a.pos(), b.pos()));
/// assert_eq!(lazy.solve_under(&[a.pos(), b.pos()]).unwrap(), Answer::Unsat);
/// // Three of the four assignments of (a, b) survive.
/// assert_eq!(ProjectedModels::new(&mut lazy, vec![a, b], &[]).count(), 3);
/// assert_eq!(lazy.cuts().len(), 1);
/// ```
pub struct Lazy<S, R> {
    // Shared between the model the repairer reads and the fresh variables
    // it takes, one call at a time.
    solver: RefCell<S>,
    repairer: R,
    cuts: Vec<Vec<Lit>>,
    round_limit: Option<u64>,
}

impl<S: Solve, R: Repairer> Lazy<S, R> {
    /// Drives `solver`, which must hold the formula without the left-out
    /// constraint, with `repairer`.
    pub fn new(solver: S, repairer: R) -> Lazy<S, R> {
        Lazy { solver: RefCell::new(solver), repairer, cuts: Vec::new(), round_limit: None }
    }

    /// The repairer, for what it learned of the last accepted model.
    pub fn repairer(&self) -> &R {
        &self.repairer
    }

    /// Every cut added so far, in order: with the starting formula, the
    /// formula that was solved.
    pub fn cuts(&self) -> &[Vec<Lit>] {
        &self.cuts
    }
}

impl<S: Solve, R: Repairer> ClauseSink for Lazy<S, R> {
    fn new_var(&mut self) -> Var {
        self.solver.get_mut().new_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.solver.get_mut().add_clause(clause);
    }
}

impl<S: Solve, R: Repairer> Solve for Lazy<S, R> {
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        let mut refused = 0;
        loop {
            if self.solver.get_mut().solve_under(assumptions)? == Answer::Unsat {
                return Ok(Answer::Unsat);
            }
            let solver = &self.solver;
            let judged = self.repairer.repair(&|lit| solver.borrow().value(lit), &mut || solver.borrow_mut().new_var());
            match judged.map_err(SolverError::ModelRejected)? {
                Repair::Accept => return Ok(Answer::Sat),
                Repair::Cut(clauses) if clauses.is_empty() => {
                    // Solving again would find the same model forever.
                    let message = "a model was refused without a cut to rule it out".to_string();
                    return Err(SolverError::ModelRejected(message));
                }
                Repair::Cut(clauses) => {
                    for clause in clauses {
                        self.solver.get_mut().add_clause(&clause);
                        self.cuts.push(clause);
                    }
                    // The cuts are kept: a call that gives up leaves the
                    // solver stronger for the next.
                    refused += 1;
                    if self.round_limit.is_some_and(|limit| refused >= limit) {
                        return Err(SolverError::Stopped(StopCause::Rounds(refused)));
                    }
                }
            }
        }
    }

    fn value(&self, lit: Lit) -> bool {
        self.solver.borrow().value(lit)
    }

    fn failed_core(&self) -> Vec<Lit> {
        self.solver.borrow().failed_core()
    }

    fn num_vars(&self) -> usize {
        self.solver.borrow().num_vars()
    }

    fn stats(&self) -> SolveStats {
        let inner = self.solver.borrow().stats();
        SolveStats { cuts: inner.cuts + self.cuts.len() as u64, ..inner }
    }

    fn limit_repair_rounds(&mut self, rounds: Option<u64>) {
        self.round_limit = rounds;
        self.solver.get_mut().limit_repair_rounds(rounds);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Cnf;
    use crate::solver::{ProjectedModels, new_solver, possible_literals};
    use proptest::prelude::*;

    /// Left out: "at most `limit` of these are true", cut one model at a time.
    struct AtMost {
        lits: Vec<Lit>,
        limit: usize,
    }

    impl Repairer for AtMost {
        fn repair(&mut self, value: &dyn Fn(Lit) -> bool, _: &mut dyn FnMut() -> Var) -> Result<Repair, String> {
            let on: Vec<Lit> = self.lits.iter().copied().filter(|&l| value(l)).collect();
            Ok(if on.len() <= self.limit {
                Repair::Accept
            } else {
                Repair::Cut(vec![on[..=self.limit].iter().map(|&l| !l).collect()])
            })
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        /// Random 3-CNF over 6 variables with "at most k true" left out and
        /// cut in lazily: enumeration and possible literals see exactly the
        /// assignments that meet both, found by trying all 64.
        #[test]
        fn lazy_models_are_the_models_of_the_whole(
            clauses in prop::collection::vec(prop::collection::vec((0usize..6, any::<bool>()), 1..4), 0..10),
            limit in 0usize..7,
        ) {
            let mut cnf = Cnf::new();
            let vars = cnf.new_vars(6);
            for clause in &clauses {
                let lits: Vec<Lit> = clause.iter().map(|&(v, pol)| vars[v].lit(pol)).collect();
                cnf.add_clause(&lits);
            }
            let whole = |a: &[bool]| cnf.is_satisfied_by(a) && a.iter().filter(|&&x| x).count() <= limit;
            let expected: Vec<Vec<bool>> = (0u32..64)
                .map(|bits| (0..6).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
                .filter(|a| whole(a))
                .collect();
            let repairer = AtMost { lits: vars.iter().map(|v| v.pos()).collect(), limit };
            let mut lazy = Lazy::new(new_solver(&cnf, None), repairer);
            let mut found: Vec<Vec<bool>> = ProjectedModels::new(&mut lazy, vars.clone(), &[])
                .collect::<Result<_, _>>().unwrap();
            found.sort();
            let mut sorted = expected.clone();
            sorted.sort();
            prop_assert_eq!(found, sorted);
            let candidates: Vec<Lit> = vars.iter().map(|v| v.pos()).collect();
            let found = possible_literals(&mut lazy, &candidates, &[]).unwrap();
            // Only accepted models count towards the loop's own calls: each
            // past the first meets a new whole model, or is the last.
            if let Some(found) = &found {
                prop_assert!(found.rounds <= expected.len() as u64 + 1, "{} rounds for {} models", found.rounds, expected.len());
                prop_assert!(found.sat_calls >= found.rounds);
            }
            let possible = found.map(|p| p.possible);
            let brute = (!expected.is_empty())
                .then(|| (0..6).map(|i| expected.iter().any(|a| a[i])).collect::<Vec<bool>>());
            prop_assert_eq!(possible, brute);
        }
    }

    #[test]
    fn a_call_past_its_round_limit_gives_up_and_keeps_its_cuts() {
        // At most one of four literals, cut in one pair at a time: the first
        // model of all four needs several rounds.
        let mut cnf = Cnf::new();
        let vars = cnf.new_vars(4);
        let lits: Vec<Lit> = vars.iter().map(|v| v.pos()).collect();
        let mut lazy = Lazy::new(new_solver(&cnf, None), AtMost { lits: lits.clone(), limit: 1 });
        let all_but_last = &lits[..3];
        lazy.limit_repair_rounds(Some(1));
        let gave_up = lazy.solve_under(&[all_but_last[0], all_but_last[1]]);
        assert!(matches!(gave_up, Err(SolverError::Stopped(StopCause::Rounds(1)))), "{gave_up:?}");
        assert_eq!(lazy.cuts().len(), 1, "the cut made before giving up is kept");
        lazy.limit_repair_rounds(None);
        assert_eq!(lazy.solve_under(&[all_but_last[0], all_but_last[1]]).unwrap(), Answer::Unsat);
        assert_eq!(lazy.solve_under(&[all_but_last[0]]).unwrap(), Answer::Sat);
    }

    #[test]
    fn a_refusal_without_a_cut_is_an_error_not_a_loop() {
        struct Refuse;
        impl Repairer for Refuse {
            fn repair(&mut self, _: &dyn Fn(Lit) -> bool, _: &mut dyn FnMut() -> Var) -> Result<Repair, String> {
                Ok(Repair::Cut(Vec::new()))
            }
        }
        let mut lazy = Lazy::new(new_solver(&Cnf::new(), None), Refuse);
        assert!(matches!(lazy.solve(), Err(SolverError::ModelRejected(_))));
    }
}

//! A solver that checks every model it finds, so that counts, facts and
//! explanations built on it rest only on checked solutions.

use super::{Answer, Solve, SolveStats, SolverError};
use crate::cnf::{ClauseSink, Lit, Var};

/// Passes every model of `inner` to `check` before anyone reads it. The
/// first failure is kept and reported by [`Checked::verdict`]; the search
/// goes on meanwhile, so that the caller decides when to look.
///
/// ```
/// use somaria::cnf::{Cnf, Lit};
/// use somaria::solver::{Checked, ProjectedModels, new_solver};
/// let mut cnf = Cnf::new();
/// let a = cnf.new_var();
/// let mut solver = new_solver(&cnf, None);
/// let mut checked = Checked::new(&mut solver, |value: &dyn Fn(Lit) -> bool| {
///     if value(a.pos()) { Err("a is never true".to_string()) } else { Ok(()) }
/// });
/// assert_eq!(ProjectedModels::new(&mut checked, vec![a], &[]).count(), 2);
/// assert!(checked.verdict().is_err());
/// ```
pub struct Checked<'s, S: Solve + ?Sized, F> {
    inner: &'s mut S,
    check: F,
    failure: Option<String>,
}

impl<'s, S: Solve + ?Sized, F: FnMut(&dyn Fn(Lit) -> bool) -> Result<(), String>> Checked<'s, S, F> {
    /// Checks every model of `inner` with `check`.
    pub fn new(inner: &'s mut S, check: F) -> Self {
        Checked { inner, check, failure: None }
    }

    /// The first check that failed, as the error it is: the encoding let
    /// through something that is not a solution.
    pub fn verdict(&self) -> Result<(), SolverError> {
        match &self.failure {
            Some(why) => Err(SolverError::ModelRejected(why.clone())),
            None => Ok(()),
        }
    }
}

impl<S: Solve + ?Sized, F> ClauseSink for Checked<'_, S, F> {
    fn new_var(&mut self) -> Var {
        self.inner.new_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.inner.add_clause(clause)
    }
}

impl<S: Solve + ?Sized, F: FnMut(&dyn Fn(Lit) -> bool) -> Result<(), String>> Solve for Checked<'_, S, F> {
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        let answer = self.inner.solve_under(assumptions)?;
        if answer == Answer::Sat && self.failure.is_none() {
            let inner = &*self.inner;
            if let Err(why) = (self.check)(&|lit| inner.value(lit)) {
                self.failure = Some(why);
            }
        }
        Ok(answer)
    }

    fn value(&self, lit: Lit) -> bool {
        self.inner.value(lit)
    }

    fn failed_core(&self) -> Vec<Lit> {
        self.inner.failed_core()
    }

    fn stats(&self) -> SolveStats {
        self.inner.stats()
    }
}

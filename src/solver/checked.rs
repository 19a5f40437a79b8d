//! A solver that checks every model it finds, so that counts, facts and
//! explanations built on it rest only on checked solutions.

use super::{Answer, Solve, SolveStats, SolverError};
use crate::cnf::{ClauseSink, Lit, Var};

/// Passes every model of `inner` to `check` before anyone reads it. A
/// model that fails is an error of the call that found it
/// ([`SolverError::ModelRejected`]: the encoding let through something that
/// is not a solution), so no search goes on past it.
///
/// ```
/// use somaria::cnf::{Cnf, Lit};
/// use somaria::solver::{Answer, Checked, Solve, SolverError, new_solver};
/// let mut cnf = Cnf::new();
/// let a = cnf.new_var();
/// let mut solver = new_solver(&cnf, None);
/// let mut checked = Checked::new(&mut solver, |value: &dyn Fn(Lit) -> bool| {
///     if value(a.pos()) { Err("a is never true".to_string()) } else { Ok(()) }
/// });
/// assert_eq!(checked.solve_under(&[a.neg()]).unwrap(), Answer::Sat);
/// assert!(matches!(checked.solve_under(&[a.pos()]), Err(SolverError::ModelRejected(_))));
/// ```
pub struct Checked<'s, S: Solve + ?Sized, F> {
    inner: &'s mut S,
    check: F,
}

impl<'s, S: Solve + ?Sized, F: FnMut(&dyn Fn(Lit) -> bool) -> Result<(), String>> Checked<'s, S, F> {
    /// Checks every model of `inner` with `check`.
    pub fn new(inner: &'s mut S, check: F) -> Self {
        Checked { inner, check }
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
        if answer == Answer::Sat {
            let inner = &*self.inner;
            (self.check)(&|lit| inner.value(lit)).map_err(SolverError::ModelRejected)?;
        }
        Ok(answer)
    }

    fn value(&self, lit: Lit) -> bool {
        self.inner.value(lit)
    }

    fn failed_core(&self) -> Vec<Lit> {
        self.inner.failed_core()
    }

    fn num_vars(&self) -> usize {
        self.inner.num_vars()
    }

    fn stats(&self) -> SolveStats {
        self.inner.stats()
    }

    fn limit_repair_rounds(&mut self, rounds: Option<u64>) {
        self.inner.limit_repair_rounds(rounds)
    }
}

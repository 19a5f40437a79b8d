//! A solver that keeps the formula handed to it: a formula grown between
//! solves (one horizon at a time, say) can then be written out for DIMACS
//! or a proof without the caller keeping a copy and a solver in step.

use std::cell::RefCell;
use std::rc::Rc;

use super::{Answer, Solve, SolveStats, SolverError};
use crate::cnf::{ClauseSink, Cnf, Lit, Var};

/// Every variable and clause given to it goes both to a [`Cnf`] and, when
/// there is one, to a solver. Without a solver it only records, for
/// building a formula to export without solving.
///
/// Work done on the solver alone (an enumeration's blocking clauses, through
/// [`Recorded::solver_mut`]) is not recorded; the variables it takes are
/// skipped in the record, so the two numberings stay the same.
///
/// ```
/// use somaria::cnf::ClauseSink;
/// use somaria::solver::{Answer, Recorded, Solve, new_solver};
/// let mut formula = Recorded::new(Some(new_solver(&Default::default(), None)));
/// let a = formula.new_var();
/// formula.cnf_mut().open_group("a holds", None);
/// formula.add_clause(&[a.pos()]);
/// assert_eq!(formula.solve_under(&[a.neg()]).unwrap(), Answer::Unsat);
/// assert_eq!(formula.cnf().num_clauses(), 1);
/// ```
pub struct Recorded {
    cnf: Cnf,
    solver: Option<Box<dyn Solve>>,
}

impl Recorded {
    /// A record feeding `solver`, or only recording when `None`.
    pub fn new(solver: Option<Box<dyn Solve>>) -> Recorded {
        Recorded { cnf: Cnf::new(), solver }
    }

    /// A record that starts from `cnf`, whose clauses `solver` already
    /// holds (as when it was built with [`super::new_solver`]).
    pub fn from_parts(cnf: Cnf, solver: Box<dyn Solve>) -> Recorded {
        Recorded { cnf, solver: Some(solver) }
    }

    /// The formula recorded so far.
    pub fn cnf(&self) -> &Cnf {
        &self.cnf
    }

    /// The record, for naming variables and opening clause groups; clauses
    /// added here directly would not reach the solver, so add them through
    /// [`ClauseSink::add_clause`] on the `Recorded` itself.
    pub fn cnf_mut(&mut self) -> &mut Cnf {
        &mut self.cnf
    }

    /// The solver alone, for work that is not part of the formula.
    pub fn solver_mut(&mut self) -> Option<&mut Box<dyn Solve>> {
        self.solver.as_mut()
    }

    /// This record as a solver that a driver (such as [`super::Lazy`]) can
    /// own, and a handle to read the formula it has recorded so far: every
    /// clause given to it, the driver's cuts included.
    pub fn shared(self) -> (SharedRecord, Rc<RefCell<Recorded>>) {
        let record = Rc::new(RefCell::new(self));
        (SharedRecord(Rc::clone(&record)), record)
    }

    fn no_solver() -> SolverError {
        SolverError::Backend("this formula is only being recorded; there is no solver to ask".to_string())
    }
}

impl ClauseSink for Recorded {
    fn new_var(&mut self) -> Var {
        match &mut self.solver {
            Some(solver) => {
                let var = solver.new_var();
                while self.cnf.num_vars() <= var.index() {
                    self.cnf.new_var();
                }
                var
            }
            None => self.cnf.new_var(),
        }
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.cnf.add_clause(clause);
        if let Some(solver) = &mut self.solver {
            solver.add_clause(clause);
        }
    }
}

impl Solve for Recorded {
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        self.solver.as_mut().ok_or_else(Recorded::no_solver)?.solve_under(assumptions)
    }

    fn value(&self, lit: Lit) -> bool {
        self.solver.as_ref().is_some_and(|s| s.value(lit))
    }

    fn failed_core(&self) -> Vec<Lit> {
        self.solver.as_ref().map(|s| s.failed_core()).unwrap_or_default()
    }

    fn num_vars(&self) -> usize {
        self.solver.as_ref().map_or(self.cnf.num_vars(), |s| s.num_vars())
    }

    fn stats(&self) -> SolveStats {
        self.solver.as_ref().map(|s| s.stats()).unwrap_or_default()
    }

    fn limit_repair_rounds(&mut self, rounds: Option<u64>) {
        if let Some(solver) = &mut self.solver {
            solver.limit_repair_rounds(rounds)
        }
    }
}

/// The solver half of [`Recorded::shared`].
pub struct SharedRecord(Rc<RefCell<Recorded>>);

impl ClauseSink for SharedRecord {
    fn new_var(&mut self) -> Var {
        self.0.borrow_mut().new_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.0.borrow_mut().add_clause(clause)
    }
}

impl Solve for SharedRecord {
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        self.0.borrow_mut().solve_under(assumptions)
    }

    fn value(&self, lit: Lit) -> bool {
        self.0.borrow().value(lit)
    }

    fn failed_core(&self) -> Vec<Lit> {
        self.0.borrow().failed_core()
    }

    fn num_vars(&self) -> usize {
        self.0.borrow().num_vars()
    }

    fn stats(&self) -> SolveStats {
        self.0.borrow().stats()
    }

    fn limit_repair_rounds(&mut self, rounds: Option<u64>) {
        self.0.borrow_mut().limit_repair_rounds(rounds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{ProjectedModels, new_solver};

    #[test]
    fn variables_taken_by_the_solver_alone_are_skipped_in_the_record() {
        let mut formula = Recorded::new(Some(new_solver(&Cnf::new(), None)));
        let a = formula.new_var();
        formula.add_clause(&[a.pos(), a.neg()]);
        let models = ProjectedModels::new(formula.solver_mut().unwrap(), vec![a], &[]).count();
        assert_eq!(models, 2);
        let b = formula.new_var();
        assert_eq!(b.index(), 2, "the enumeration's selector took index 1");
        assert_eq!(formula.cnf().num_vars(), 3);
        formula.add_clause(&[b.pos()]);
        assert_eq!(formula.cnf().num_clauses(), 2, "blocking clauses are not recorded");
        assert_eq!(formula.solve_under(&[b.neg()]).unwrap(), Answer::Unsat);
    }

    #[test]
    fn without_a_solver_it_only_records() {
        let mut formula = Recorded::new(None);
        let a = formula.new_var();
        formula.add_clause(&[a.pos()]);
        assert_eq!(formula.cnf().num_clauses(), 1);
        assert!(formula.solve().is_err());
    }
}

//! The accounting every backend shares: [`Metered`] turns a
//! [`BackendSolver`] into a [`Solve`], counting its calls, time and growth
//! and honouring the [`Stop`] token before each call.

use std::sync::Arc;
use std::time::Instant;

use super::backend::BackendSolver;
use super::{Answer, Progress, Solve, SolveStats, SolverError, Stop};
use crate::cnf::{ClauseSink, Cnf, Lit, Var};

/// A backend with its counters: SAT calls and solve time in
/// [`Solve::stats`], and calls, variables and clauses in the run's
/// [`Progress`] when given. A call asked for after the [`Stop`] token says
/// stop is refused with [`SolverError::Stopped`], before the backend runs.
pub struct Metered<B> {
    backend: B,
    stop: Stop,
    progress: Option<Arc<Progress>>,
    stats: SolveStats,
}

impl<B: BackendSolver> Metered<B> {
    /// Meters `backend` under `stop`, counting in `progress`.
    pub fn new(backend: B, stop: Stop, progress: Option<Arc<Progress>>) -> Metered<B> {
        Metered { backend, stop, progress, stats: SolveStats::default() }
    }

    /// Hands the variables and clauses of `cnf` to the backend, counting
    /// the variables at once.
    pub fn add_cnf(&mut self, cnf: &Cnf) {
        for _ in 0..cnf.num_vars() {
            self.backend.new_var();
        }
        if let Some(progress) = &self.progress {
            progress.record_growth(cnf.num_vars() as u64, 0);
        }
        for clause in cnf.clauses() {
            self.add_clause(clause);
        }
    }

    /// The backend, for what only it can do once solving is over (such as
    /// finishing a proof).
    pub fn into_backend(self) -> B {
        self.backend
    }
}

impl<B: BackendSolver> ClauseSink for Metered<B> {
    fn new_var(&mut self) -> Var {
        if let Some(progress) = &self.progress {
            progress.record_growth(1, 0);
        }
        self.backend.new_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        if let Some(progress) = &self.progress {
            progress.record_growth(0, 1);
        }
        self.backend.add_clause(clause);
    }
}

impl<B: BackendSolver> Solve for Metered<B> {
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        self.stop.before_sat_call().map_err(SolverError::Stopped)?;
        let start = Instant::now();
        let answer = self.backend.solve_under(assumptions);
        self.stats.sat_calls += 1;
        self.stats.solve_time += start.elapsed();
        if let Some(progress) = &self.progress {
            progress.record_sat_call();
        }
        answer
    }

    fn value(&self, lit: Lit) -> bool {
        self.backend.value(lit)
    }

    fn failed_core(&self) -> Vec<Lit> {
        self.backend.failed_core()
    }

    fn num_vars(&self) -> usize {
        self.backend.num_vars()
    }

    fn stats(&self) -> SolveStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::StopCause;

    /// A backend that answers from a script and counts what reaches it.
    #[derive(Default)]
    struct Scripted {
        answers: Vec<Answer>,
        vars: usize,
        clauses: usize,
        calls: usize,
    }

    impl ClauseSink for Scripted {
        fn new_var(&mut self) -> Var {
            self.vars += 1;
            Var::from_index(self.vars - 1)
        }

        fn add_clause(&mut self, _: &[Lit]) {
            self.clauses += 1;
        }
    }

    impl BackendSolver for Scripted {
        fn solve_under(&mut self, _: &[Lit]) -> Result<Answer, SolverError> {
            self.calls += 1;
            Ok(self.answers[self.calls - 1])
        }

        fn value(&self, _: Lit) -> bool {
            false
        }

        fn failed_core(&self) -> Vec<Lit> {
            Vec::new()
        }

        fn num_vars(&self) -> usize {
            self.vars
        }
    }

    #[test]
    fn calls_and_growth_are_counted_once_each_and_a_stop_reaches_no_backend() {
        let progress = Arc::new(Progress::default());
        let stop = Stop::never().with_sat_call_budget(3);
        let backend = Scripted { answers: vec![Answer::Sat, Answer::Unsat, Answer::Sat], ..Scripted::default() };
        let mut solver = Metered::new(backend, stop.clone(), Some(progress.clone()));
        let mut cnf = Cnf::new();
        let a = cnf.new_var();
        cnf.new_var();
        cnf.add_clause(&[a.pos()]);
        solver.add_cnf(&cnf);
        solver.new_var();
        solver.add_clause(&[a.neg()]);
        assert_eq!((progress.variables(), progress.clauses()), (3, 2));
        assert_eq!(solver.solve().unwrap(), Answer::Sat);
        assert_eq!(solver.solve_under(&[a.pos()]).unwrap(), Answer::Unsat);
        assert_eq!((solver.stats().sat_calls, progress.sat_calls()), (2, 2));
        stop.raise();
        assert!(matches!(solver.solve(), Err(SolverError::Stopped(StopCause::Raised))));
        let backend = solver.into_backend();
        assert_eq!((backend.vars, backend.clauses, backend.calls), (3, 2, 2));
        assert_eq!(progress.sat_calls(), 2, "a refused call is not a SAT call");
    }

    #[test]
    fn the_budget_refuses_the_call_past_it() {
        let backend = Scripted { answers: vec![Answer::Sat; 2], ..Scripted::default() };
        let mut solver = Metered::new(backend, Stop::never().with_sat_call_budget(2), None);
        assert!(solver.solve().is_ok() && solver.solve().is_ok());
        assert!(matches!(solver.solve(), Err(SolverError::Stopped(StopCause::Budget(2)))));
        assert_eq!(solver.stats().sat_calls, 2);
    }
}

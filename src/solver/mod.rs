//! Solving a [`Cnf`]: the [`Solve`] trait, the backends behind it (chosen by
//! a [`SolverConfig`], metered alike, and stopped by a [`Stop`] token), and
//! what is built on the trait alone: projected model enumeration with
//! blocking clauses, possible literals, minimal unsatisfiable subsets of
//! assumptions, the smallest sets passing a test, checked models ([`Checked`]), and the lazy-constraint driver
//! [`Lazy`]. Beside them, exact projected model counting over a [`Cnf`]
//! without enumeration ([`count_projected`]).

mod backend;
mod checked;
mod enumerate;
mod exact_count;
mod facts;
mod lazy;
mod metered;
mod mus;
mod propagate;
mod recorded;
mod stop;
mod subsets;
mod walk;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

pub use backend::{Backend, BackendInfo, UnknownBackend};
pub use checked::Checked;
pub use enumerate::ProjectedModels;
pub use exact_count::count_projected;
pub use facts::{Possible, possible_literals};
pub use lazy::{Lazy, Repair, Repairer};
pub use mus::shrink_by_deletion;
pub use propagate::Propagator;
pub use recorded::{Recorded, SharedRecord};
pub use stop::{Stop, StopCause};
pub use subsets::{SmallestSets, smallest_sets};
pub use walk::{Walk, WalkStep};

use crate::cnf::{ClauseSink, Cnf, Lit};
use metered::Metered;

/// The verdict of one SAT call.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A model exists; read it with [`Solve::value`].
    Sat,
    /// No model exists under the current clauses and assumptions.
    Unsat,
}

/// A failure during a solve, not a verdict about the formula.
#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    /// The SAT backend itself failed or refused the request.
    #[error("the SAT solver failed: {0}")]
    Backend(String),
    /// A [`Repairer`] found a model it could neither accept nor cut: the
    /// encoding let through something that is not a solution.
    #[error("{0}")]
    ModelRejected(String),
    /// The [`Stop`] token said stop before the search reached a verdict.
    /// Not a verdict, and not a failure of the puzzle or of the solver.
    #[error("the search was stopped before a verdict: {0}")]
    Stopped(StopCause),
}

/// What a solver offers its callers, whatever the backend: incremental
/// variables and clauses (as a [`ClauseSink`]), solving under assumptions,
/// the last model, the failed assumptions, and its counters. A call made
/// after the solver's [`Stop`] token says stop fails with
/// [`SolverError::Stopped`].
pub trait Solve: ClauseSink {
    /// Solves with `assumptions` holding for this call only.
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError>;

    /// Solves with no assumptions.
    fn solve(&mut self) -> Result<Answer, SolverError> {
        self.solve_under(&[])
    }

    /// The value of `lit` in the model of the last satisfiable call.
    fn value(&self, lit: Lit) -> bool;

    /// After an unsatisfiable call, a subset of the assumptions that is
    /// already unsatisfiable; not necessarily minimal.
    fn failed_core(&self) -> Vec<Lit>;

    /// Counters for reports.
    fn stats(&self) -> SolveStats;

    /// How many variables the solver has numbered: the formula's, and any
    /// it numbered itself (a lazy driver's side variables), so that a
    /// caller that defines more variables later numbers them after these.
    fn num_vars(&self) -> usize;

    /// From now on, each call that a lazy driver ([`Lazy`]) would go on
    /// repairing past `rounds` refused models gives up with
    /// [`StopCause::Rounds`] instead; `None` lifts the limit. A caller that
    /// can do without an answer uses it to bound a call that repairs its
    /// way through many models. A solver with no lazy driver ignores it.
    fn limit_repair_rounds(&mut self, rounds: Option<u64>) {
        let _ = rounds;
    }
}

impl<S: Solve + ?Sized> Solve for Box<S> {
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        (**self).solve_under(assumptions)
    }

    fn value(&self, lit: Lit) -> bool {
        (**self).value(lit)
    }

    fn failed_core(&self) -> Vec<Lit> {
        (**self).failed_core()
    }

    fn stats(&self) -> SolveStats {
        (**self).stats()
    }

    fn num_vars(&self) -> usize {
        (**self).num_vars()
    }

    fn limit_repair_rounds(&mut self, rounds: Option<u64>) {
        (**self).limit_repair_rounds(rounds)
    }
}

/// A solver of the default backend holding the clauses of `cnf`, counting
/// its calls and its growth in `progress` when given, that never stops: the
/// default [`SolverConfig`]. Callers see only [`Solve`], so the backend can
/// change without touching them.
///
/// ```
/// use somaria::cnf::Cnf;
/// use somaria::solver::{new_solver, Answer, Solve};
/// let mut cnf = Cnf::new();
/// let a = cnf.new_var();
/// cnf.add_clause(&[a.neg()]);
/// let mut solver = new_solver(&cnf, None);
/// assert_eq!(solver.solve_under(&[a.pos()]).unwrap(), Answer::Unsat);
/// assert_eq!(solver.failed_core(), vec![a.pos()]);
/// ```
pub fn new_solver(cnf: &Cnf, progress: Option<Arc<Progress>>) -> Box<dyn Solve> {
    SolverConfig::default().new_solver(cnf, progress)
}

/// Which backend solves, and when it must give up: what a run's options
/// carry to every solver they build.
#[derive(Clone, Debug, Default)]
pub struct SolverConfig {
    /// The SAT backend.
    pub backend: Backend,
    /// When every solver built from this configuration must stop.
    pub stop: Stop,
}

impl SolverConfig {
    /// A solver of the configured backend holding the clauses of `cnf`,
    /// stopping on the configured token, and counting its calls and its
    /// growth in `progress` when given.
    ///
    /// ```
    /// use somaria::cnf::Cnf;
    /// use somaria::solver::{Solve, SolverConfig, SolverError, Stop, StopCause};
    /// let config = SolverConfig { stop: Stop::never(), ..SolverConfig::default() };
    /// let mut solver = config.new_solver(&Cnf::new(), None);
    /// assert!(solver.solve().is_ok());
    /// config.stop.raise();
    /// assert!(matches!(solver.solve(), Err(SolverError::Stopped(StopCause::Raised))));
    /// ```
    pub fn new_solver(&self, cnf: &Cnf, progress: Option<Arc<Progress>>) -> Box<dyn Solve> {
        self.backend.new_solver(cnf, self.stop.clone(), progress)
    }
}

/// Solves `cnf` once, from scratch and with no assumptions, writing a proof
/// of the verdict in `format` to `out`. A refutation written this way covers
/// exactly `cnf`, which is what a checker is given beside it. The configured
/// backend writes it; one that cannot write `format` (see
/// [`Backend::proof_formats`]) is refused rather than replaced.
pub fn solve_with_proof(
    cnf: &Cnf,
    config: &SolverConfig,
    progress: Option<Arc<Progress>>,
    out: Box<dyn std::io::Write + Send>,
    format: ProofFormat,
) -> Result<Answer, SolverError> {
    let backend = config.backend;
    if !backend.proof_formats().contains(&format) {
        return Err(SolverError::Backend(format!("the {backend} SAT backend cannot write a {} proof", format.name())));
    }
    backend.prove(cnf, config.stop.clone(), progress, out, format)
}

/// Counters kept by a solver.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Number of SAT calls made.
    pub sat_calls: u64,
    /// Time spent inside SAT calls.
    pub solve_time: Duration,
    /// Clauses a lazy driver ([`Lazy`]) added between calls: with the
    /// starting formula, the formula that was solved.
    pub cuts: u64,
}

/// Live counters shared between a running search and whoever watches it: a
/// progress display, or a time limit that must report how far the search got.
///
/// ```
/// use somaria::solver::Progress;
/// let progress = Progress::default();
/// progress.record_solution();
/// assert_eq!(progress.solutions(), 1);
/// ```
#[derive(Debug, Default)]
pub struct Progress {
    sat_calls: AtomicU64,
    solutions: AtomicU64,
    variables: AtomicU64,
    clauses: AtomicU64,
}

impl Progress {
    /// Counts one SAT call.
    pub fn record_sat_call(&self) {
        self.sat_calls.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts one solution found.
    pub fn record_solution(&self) {
        self.solutions.fetch_add(1, Ordering::Relaxed);
    }

    /// Sets the solution count, for searches that count in bulk.
    pub fn set_solutions(&self, count: u64) {
        self.solutions.store(count, Ordering::Relaxed);
    }

    /// Counts variables and clauses handed to a solver, so that a run
    /// stopped before it reports can still say how large its formula was.
    pub fn record_growth(&self, variables: u64, clauses: u64) {
        self.variables.fetch_add(variables, Ordering::Relaxed);
        self.clauses.fetch_add(clauses, Ordering::Relaxed);
    }

    /// Variables handed to solvers so far.
    pub fn variables(&self) -> u64 {
        self.variables.load(Ordering::Relaxed)
    }

    /// Clauses handed to solvers so far.
    pub fn clauses(&self) -> u64 {
        self.clauses.load(Ordering::Relaxed)
    }

    /// SAT calls so far.
    pub fn sat_calls(&self) -> u64 {
        self.sat_calls.load(Ordering::Relaxed)
    }

    /// Solutions so far.
    pub fn solutions(&self) -> u64 {
        self.solutions.load(Ordering::Relaxed)
    }
}

/// The proof formats somaria can write; [`Backend::proof_formats`] says
/// which backend writes which.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ProofFormat {
    /// varisat's own format, checked by the varisat-checker crate.
    Varisat,
    /// Textual DRAT, checked by drat-trim and most other checkers.
    Drat,
}

impl ProofFormat {
    /// The format's name, as `--proof-format` takes it.
    pub fn name(self) -> &'static str {
        match self {
            ProofFormat::Varisat => "varisat",
            ProofFormat::Drat => "drat",
        }
    }
}

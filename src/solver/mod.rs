//! Solving a [`Cnf`]: the [`Solve`] trait, its varisat implementation, and
//! projected model enumeration with blocking clauses.

mod enumerate;
mod facts;
mod mus;

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub use enumerate::ProjectedModels;
pub use facts::{Possible, possible_literals};
pub use mus::{Mus, minimal_unsat_subset, shrink_by_deletion};

use crate::cnf::{Cnf, Lit, Var};

/// The verdict of one SAT call.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A model exists; read it with [`Solve::value`].
    Sat,
    /// No model exists under the current clauses and assumptions.
    Unsat,
}

/// A failure of the solver itself, not a verdict about the formula.
#[derive(Debug, thiserror::Error)]
#[error("the SAT solver failed: {0}")]
pub struct SolverError(String);

/// What every SAT backend offers: incremental clauses, solving under
/// assumptions, the last model and the failed assumptions.
pub trait Solve {
    /// A fresh variable, for clauses added after loading.
    fn new_var(&mut self) -> Var;

    /// Adds a clause; it holds for every later call.
    fn add_clause(&mut self, clause: &[Lit]);

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
}

/// Counters kept by a solver.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Number of SAT calls made.
    pub sat_calls: u64,
    /// Time spent inside SAT calls.
    pub solve_time: Duration,
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

    /// SAT calls so far.
    pub fn sat_calls(&self) -> u64 {
        self.sat_calls.load(Ordering::Relaxed)
    }

    /// Solutions so far.
    pub fn solutions(&self) -> u64 {
        self.solutions.load(Ordering::Relaxed)
    }
}

/// The proof formats varisat can write.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ProofFormat {
    /// varisat's own format, checked by the varisat-checker crate.
    Varisat,
    /// Textual DRAT, checked by drat-trim and most other checkers.
    Drat,
}

/// The varisat CDCL solver behind the [`Solve`] trait.
///
/// ```
/// use somaria::cnf::Cnf;
/// use somaria::solver::{Answer, Solve, VarisatSolver};
/// let mut cnf = Cnf::new();
/// let a = cnf.new_var();
/// let b = cnf.new_var();
/// cnf.add_clause(&[a.pos(), b.pos()]);
/// cnf.add_clause(&[a.neg()]);
/// let mut solver = VarisatSolver::from_cnf(&cnf);
/// assert_eq!(solver.solve().unwrap(), Answer::Sat);
/// assert!(solver.value(b.pos()));
/// assert_eq!(solver.solve_under(&[b.neg()]).unwrap(), Answer::Unsat);
/// assert_eq!(solver.failed_core(), vec![b.neg()]);
/// ```
pub struct VarisatSolver {
    inner: varisat::Solver<'static>,
    num_vars: usize,
    model: Vec<bool>,
    stats: SolveStats,
    progress: Option<Arc<Progress>>,
    writes_proof: bool,
    drat: bool,
    assumed: bool,
    refused: Option<String>,
}

impl VarisatSolver {
    /// A solver holding the clauses of `cnf`.
    pub fn from_cnf(cnf: &Cnf) -> VarisatSolver {
        VarisatSolver::build(cnf, None, None)
    }

    /// A solver holding the clauses of `cnf` that counts its SAT calls in
    /// `progress` and, when asked, writes a proof of every verdict to `proof`.
    ///
    /// The proof must be set up before the first clause, which is why it is
    /// given here and not later. A DRAT proof cannot record assumptions or
    /// clauses added after the first solve; doing either makes the next solve
    /// fail with an error rather than write a wrong proof.
    pub fn build(
        cnf: &Cnf,
        progress: Option<Arc<Progress>>,
        proof: Option<(Box<dyn Write + Send>, ProofFormat)>,
    ) -> VarisatSolver {
        let mut inner = varisat::Solver::new();
        let writes_proof = proof.is_some();
        let drat = matches!(proof, Some((_, ProofFormat::Drat)));
        if let Some((out, format)) = proof {
            let format = match format {
                ProofFormat::Varisat => varisat::ProofFormat::Varisat,
                ProofFormat::Drat => varisat::ProofFormat::Drat,
            };
            inner.write_proof(std::io::BufWriter::new(out), format);
        }
        let mut solver = VarisatSolver {
            inner,
            num_vars: cnf.num_vars(),
            model: Vec::new(),
            stats: SolveStats::default(),
            progress,
            writes_proof,
            drat,
            assumed: false,
            refused: None,
        };
        for clause in cnf.clauses() {
            solver.add_clause(clause);
        }
        solver
    }

    /// Finishes and flushes the proof, if one is being written. Dropping the
    /// solver does this too, but cannot report a failure.
    pub fn close_proof(&mut self) -> Result<(), SolverError> {
        if self.writes_proof {
            self.writes_proof = false;
            self.inner.close_proof().map_err(|e| SolverError(e.to_string()))?;
        }
        Ok(())
    }
}

impl Drop for VarisatSolver {
    fn drop(&mut self) {
        let _ = self.close_proof();
    }
}

fn to_varisat(lit: Lit) -> varisat::Lit {
    varisat::Lit::from_code(lit.code())
}

impl Solve for VarisatSolver {
    fn new_var(&mut self) -> Var {
        let var = Var::from_index(self.num_vars);
        self.num_vars += 1;
        var
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        use varisat::ExtendFormula;
        if self.drat && self.stats.sat_calls > 0 {
            // varisat cannot record this in DRAT and would panic; the next
            // solve reports it instead.
            self.refused = Some("a DRAT proof cannot cover clauses added after solving".to_string());
            return;
        }
        let lits: Vec<varisat::Lit> = clause.iter().map(|&l| to_varisat(l)).collect();
        self.inner.add_clause(&lits);
    }

    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        // varisat keeps assumptions across calls, so reset them whenever some
        // were set; but never touch them with a DRAT proof, which cannot
        // record assumptions (varisat panics if asked to).
        if let Some(why) = &self.refused {
            return Err(SolverError(why.clone()));
        }
        if !assumptions.is_empty() || self.assumed {
            if self.drat {
                return Err(SolverError(
                    "a DRAT proof cannot cover solving under assumptions; use the varisat proof format".into(),
                ));
            }
            let lits: Vec<varisat::Lit> = assumptions.iter().map(|&l| to_varisat(l)).collect();
            self.inner.assume(&lits);
            self.assumed = !assumptions.is_empty();
        }
        let start = Instant::now();
        let result = self.inner.solve();
        self.stats.sat_calls += 1;
        self.stats.solve_time += start.elapsed();
        if let Some(progress) = &self.progress {
            progress.record_sat_call();
        }
        match result.map_err(|e| SolverError(e.to_string()))? {
            true => {
                // Variables in no clause are unknown to varisat; they read false.
                self.model.clear();
                self.model.resize(self.num_vars, false);
                for lit in self.inner.model().unwrap_or_default() {
                    if let Some(slot) = self.model.get_mut(lit.index()) {
                        *slot = lit.is_positive();
                    }
                }
                Ok(Answer::Sat)
            }
            false => Ok(Answer::Unsat),
        }
    }

    fn value(&self, lit: Lit) -> bool {
        self.model.get(lit.var().index()).copied().unwrap_or(false) == lit.is_positive()
    }

    fn failed_core(&self) -> Vec<Lit> {
        self.inner.failed_core().unwrap_or(&[]).iter().map(|l| Lit::from_code(l.code())).collect()
    }

    fn stats(&self) -> SolveStats {
        self.stats
    }
}

//! The varisat CDCL solver behind the [`Solve`] trait.

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use super::{Answer, Progress, ProofFormat, Solve, SolveStats, SolverError};
use crate::cnf::{ClauseSink, Cnf, Lit, Var};

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
    /// Reused for each clause, to spare an allocation per clause.
    lits: Vec<varisat::Lit>,
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
        if let Some(progress) = &progress {
            progress.record_growth(cnf.num_vars() as u64, 0);
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
            lits: Vec::new(),
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
            self.inner.close_proof().map_err(|e| SolverError::Backend(e.to_string()))?;
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

impl ClauseSink for VarisatSolver {
    fn new_var(&mut self) -> Var {
        let var = Var::from_index(self.num_vars);
        self.num_vars += 1;
        if let Some(progress) = &self.progress {
            progress.record_growth(1, 0);
        }
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
        if let Some(progress) = &self.progress {
            progress.record_growth(0, 1);
        }
        self.lits.clear();
        self.lits.extend(clause.iter().map(|&l| to_varisat(l)));
        self.inner.add_clause(&self.lits);
    }
}

impl Solve for VarisatSolver {
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        // varisat keeps assumptions across calls, so reset them whenever some
        // were set; but never touch them with a DRAT proof, which cannot
        // record assumptions (varisat panics if asked to).
        if let Some(why) = &self.refused {
            return Err(SolverError::Backend(why.clone()));
        }
        if !assumptions.is_empty() || self.assumed {
            if self.drat {
                return Err(SolverError::Backend(
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
        match result.map_err(|e| SolverError::Backend(e.to_string()))? {
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

//! CaDiCaL (through the `rustsat-cadical` crate) as a [`BackendSolver`]:
//! a search that its terminate callback stops inside a call, and DRAT
//! proofs written by CaDiCaL's own tracer.

use std::io::Write;

use rustsat::solvers::{ControlSignal, Solve as _, SolveIncremental as _, SolverResult, Terminate as _};
use rustsat::types::TernaryVal;
use rustsat_cadical::CaDiCaL;

use super::{BackendInfo, BackendSolver, Build, metered, prove};
use crate::cnf::{ClauseSink, Lit, Var};
use crate::solver::{Answer, ProofFormat, SolverError, Stop, StopCause};

/// CaDiCaL's row of the backend table.
pub(super) const ROW: BackendInfo = BackendInfo {
    name: "cadical",
    summary: "a CDCL solver in C++, through the rustsat-cadical crate",
    proof_formats: &[ProofFormat::Drat],
    interruptible: true,
    new: metered::<Cadical>,
    prove: prove::<Cadical>,
};

/// CaDiCaL behind [`BackendSolver`].
pub(super) struct Cadical {
    inner: CaDiCaL<'static, 'static>,
    stop: Stop,
    num_vars: usize,
    /// Which variables CaDiCaL has seen, in a clause or an assumption; the
    /// others read false, as the trait asks (CaDiCaL would give them a
    /// phase of its own).
    seen: Vec<bool>,
    model: Vec<bool>,
    core: Vec<Lit>,
    /// The proof CaDiCaL's tracer writes, and where it is copied when it
    /// is finished.
    proof: Option<(tempfile::NamedTempFile, Box<dyn Write + Send>)>,
    /// Reused for each clause, to spare an allocation per clause.
    lits: Vec<rustsat::types::Lit>,
}

impl Cadical {
    /// A solver whose search stops, inside a call too, when `stop` says so.
    fn new(stop: Stop) -> Cadical {
        let mut inner = CaDiCaL::default();
        // CaDiCaL asks the callback only every `terminateint` of its checks
        // (10, and 100 times that in some inprocessing loops); the token is
        // cheap to read, so ask at every check, for a prompt stop.
        inner.set_option("terminateint", 1).expect("CaDiCaL has the terminateint option");
        let watched = stop.clone();
        inner.attach_terminator(move || match watched.check_inside_call() {
            Ok(()) => ControlSignal::Continue,
            Err(_) => ControlSignal::Terminate,
        });
        Cadical {
            inner,
            stop,
            num_vars: 0,
            seen: Vec::new(),
            model: Vec::new(),
            core: Vec::new(),
            proof: None,
            lits: Vec::new(),
        }
    }

    /// `lit` in CaDiCaL's numbering, marking its variable seen.
    fn seen_lit(&mut self, lit: Lit) -> rustsat::types::Lit {
        let index = lit.var().index();
        if let Some(seen) = self.seen.get_mut(index) {
            *seen = true;
        }
        let index = u32::try_from(index).expect("a variable index fits in u32");
        rustsat::types::Lit::new(index, !lit.is_positive())
    }

    fn read_model(&mut self) -> Result<(), SolverError> {
        self.model.clear();
        self.model.resize(self.num_vars, false);
        for (index, slot) in self.model.iter_mut().enumerate() {
            if self.seen[index] {
                let var = rustsat::types::Var::new(u32::try_from(index).expect("a variable index fits in u32"));
                let value = self.inner.var_val(var).map_err(|e| SolverError::Backend(e.to_string()))?;
                *slot = value == TernaryVal::True;
            }
        }
        Ok(())
    }
}

impl Build for Cadical {
    fn build(stop: Stop) -> Cadical {
        Cadical::new(stop)
    }

    /// A solver that writes a DRAT proof of its verdict, to be copied to
    /// `out` by [`Build::finish_proof`]. CaDiCaL's tracer writes to a path,
    /// so the proof goes to a temporary file first.
    fn proving(stop: Stop, out: Box<dyn Write + Send>, format: ProofFormat) -> Result<Cadical, SolverError> {
        if format != ProofFormat::Drat {
            return Err(SolverError::Backend(format!("CaDiCaL cannot write a {} proof", format.name())));
        }
        let file = tempfile::NamedTempFile::new()
            .map_err(|e| SolverError::Backend(format!("cannot make a file for CaDiCaL's proof: {e}")))?;
        let mut solver = Cadical::new(stop);
        solver
            .inner
            .trace_proof(file.path(), rustsat_cadical::ProofFormat::Drat { binary: false })
            .map_err(|e| SolverError::Backend(format!("CaDiCaL cannot write its proof: {e}")))?;
        solver.proof = Some((file, out));
        Ok(solver)
    }

    /// Closes the proof (releasing the solver flushes CaDiCaL's tracer) and
    /// copies it to its writer.
    fn finish_proof(self) -> Result<(), SolverError> {
        let Cadical { inner, proof, .. } = self;
        drop(inner);
        let Some((file, mut out)) = proof else { return Ok(()) };
        let copied = std::fs::File::open(file.path())
            .and_then(|mut proof| std::io::copy(&mut proof, &mut out))
            .and_then(|_| out.flush());
        copied.map_err(|e| SolverError::Backend(format!("cannot finish the proof: {e}")))
    }
}

impl ClauseSink for Cadical {
    fn new_var(&mut self) -> Var {
        let var = Var::from_index(self.num_vars);
        self.num_vars += 1;
        self.seen.push(false);
        var
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        let mut lits = std::mem::take(&mut self.lits);
        lits.clear();
        lits.extend(clause.iter().map(|&l| self.seen_lit(l)));
        // Fails only when CaDiCaL is out of memory; the memory limit stops
        // the run long before.
        self.inner.add_clause_ref(&lits[..]).expect("CaDiCaL accepts a clause");
        self.lits = lits;
    }
}

impl BackendSolver for Cadical {
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        let assumed: Vec<rustsat::types::Lit> = assumptions.iter().map(|&l| self.seen_lit(l)).collect();
        let result = self.inner.solve_assumps(&assumed).map_err(|e| SolverError::Backend(e.to_string()))?;
        match result {
            SolverResult::Sat => {
                self.read_model()?;
                Ok(Answer::Sat)
            }
            SolverResult::Unsat => {
                // rustsat gives the core as the clause it implies: the
                // failed assumptions negated.
                let core = self.inner.core().map_err(|e| SolverError::Backend(e.to_string()))?;
                self.core = core.into_iter().map(|l| !Lit::from_code(l.lidx())).collect();
                Ok(Answer::Unsat)
            }
            SolverResult::Interrupted => {
                Err(SolverError::Stopped(self.stop.check_inside_call().err().unwrap_or(StopCause::Raised)))
            }
        }
    }

    fn value(&self, lit: Lit) -> bool {
        self.model.get(lit.var().index()).copied().unwrap_or(false) == lit.is_positive()
    }

    fn failed_core(&self) -> Vec<Lit> {
        self.core.clone()
    }

    fn num_vars(&self) -> usize {
        self.num_vars
    }
}

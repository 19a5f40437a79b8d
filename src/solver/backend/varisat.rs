//! The varisat CDCL solver as a [`BackendSolver`], with its proof writing
//! and the quirks of both.

use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

use super::{BackendInfo, BackendSolver, Build, metered, prove};
use crate::cnf::{ClauseSink, Lit, Var};
use crate::solver::{Answer, ProofFormat, SolverError, Stop};

/// varisat's row of the backend table.
pub(super) const ROW: BackendInfo = BackendInfo {
    name: "varisat",
    summary: "a CDCL solver in pure Rust",
    proof_formats: &[ProofFormat::Varisat, ProofFormat::Drat],
    interruptible: false,
    new: metered::<Varisat>,
    prove: prove::<Varisat>,
};

/// varisat behind [`BackendSolver`].
pub(super) struct Varisat {
    inner: varisat::Solver<'static>,
    num_vars: usize,
    model: Vec<bool>,
    /// Whether the assumptions varisat holds are not empty; it keeps them
    /// across calls.
    assumed: bool,
    solved: bool,
    proof: Option<Proof>,
    refused: Option<String>,
    /// The core of the last call when it was refuted before varisat ran:
    /// a literal assumed together with its negation.
    clashing: Option<[Lit; 2]>,
    /// The core of the last call refuted under assumptions, as checked by
    /// [`Varisat::checked_core`].
    core: Vec<varisat::Lit>,
    /// Reused for each clause, to spare an allocation per clause.
    lits: Vec<varisat::Lit>,
    /// Per variable, the polarity assumed in the call being set up (0 for
    /// none, 1 true, 2 false); all 0 between calls.
    assumed_polarity: Vec<u8>,
}

/// The proof being written: its format, and the end of the file varisat
/// writes, which the solver keeps a handle on to finish it.
struct Proof {
    format: ProofFormat,
    out: Arc<Mutex<TailWriter>>,
    /// Whether the last call refuted the formula with no assumptions.
    refuted: bool,
}

impl Varisat {
    pub(super) fn new() -> Varisat {
        Varisat {
            inner: varisat::Solver::new(),
            num_vars: 0,
            model: Vec::new(),
            assumed: false,
            solved: false,
            proof: None,
            refused: None,
            clashing: None,
            core: Vec::new(),
            lits: Vec::new(),
            assumed_polarity: Vec::new(),
        }
    }

    /// A solver that writes a proof of every verdict to `out`.
    ///
    /// The proof must be set up before the first clause, which is why it is
    /// given here and not later. A DRAT proof cannot record assumptions or
    /// clauses added after the first solve; doing either makes the next solve
    /// fail with an error rather than write a wrong proof.
    pub(super) fn writing_proof(out: Box<dyn Write + Send>, format: ProofFormat) -> Varisat {
        let mut solver = Varisat::new();
        let out = Arc::new(Mutex::new(TailWriter { out, tail: Vec::new() }));
        let varisat_format = match format {
            ProofFormat::Varisat => varisat::ProofFormat::Varisat,
            ProofFormat::Drat => varisat::ProofFormat::Drat,
        };
        solver.inner.write_proof(std::io::BufWriter::new(SharedWriter(out.clone())), varisat_format);
        solver.proof = Some(Proof { format, out, refuted: false });
        solver
    }

    fn writes_drat(&self) -> bool {
        self.proof.as_ref().is_some_and(|p| p.format == ProofFormat::Drat)
    }
}

impl Build for Varisat {
    /// varisat has no terminate callback: [`super::Metered`] checks the
    /// token before each call, and a call runs to its end.
    fn build(_stop: Stop) -> Varisat {
        Varisat::new()
    }

    fn proving(_stop: Stop, out: Box<dyn Write + Send>, format: ProofFormat) -> Result<Varisat, SolverError> {
        Ok(Varisat::writing_proof(out, format))
    }

    /// Finishes and flushes the proof. varisat omits the empty clause from a
    /// DRAT refutation when unit propagation alone refutes the formula; some
    /// checkers insist on it, and it is always a valid last step of a
    /// refutation, so it is added when missing.
    fn finish_proof(mut self) -> Result<(), SolverError> {
        let Some(proof) = self.proof.take() else { return Ok(()) };
        self.inner.close_proof().map_err(|e| SolverError::Backend(e.to_string()))?;
        let mut out = proof.out.lock().unwrap_or_else(PoisonError::into_inner);
        let finished = if proof.format == ProofFormat::Drat && proof.refuted && !out.ends_with_empty_clause() {
            out.write_all(b"0\n").and_then(|()| out.flush())
        } else {
            out.flush()
        };
        finished.map_err(|e| SolverError::Backend(format!("cannot finish the proof: {e}")))
    }
}

fn to_varisat(lit: Lit) -> varisat::Lit {
    varisat::Lit::from_code(lit.code())
}

impl ClauseSink for Varisat {
    fn new_var(&mut self) -> Var {
        let var = Var::from_index(self.num_vars);
        self.num_vars += 1;
        var
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        use varisat::ExtendFormula;
        if self.writes_drat() && self.solved {
            // varisat cannot record this in DRAT and would panic; the next
            // solve reports it instead.
            self.refused = Some("a DRAT proof cannot cover clauses added after solving".to_string());
            return;
        }
        self.lits.clear();
        self.lits.extend(clause.iter().map(|&l| to_varisat(l)));
        self.inner.add_clause(&self.lits);
    }
}

impl Varisat {
    /// The core of a call refuted under `assumed`, checked. varisat can name
    /// a core that the formula satisfies (a random 3-CNF under assumptions,
    /// after calls whose assumptions failed at level 0, got the core
    /// `[¬x5]` where `[¬x3, ¬x5]` was needed: `tests/proptest-regressions/
    /// backends.txt`), and a wrong core would make `explain` name a
    /// conflict that is none. So a core smaller than the set just refuted
    /// is solved again alone: refuted, it stands (or its own smaller core is
    /// checked in turn); satisfied, the last set refuted is the core.
    fn checked_core(&mut self, assumed: Vec<varisat::Lit>) -> Result<Vec<varisat::Lit>, SolverError> {
        let mut refuted = assumed;
        loop {
            let core = self.inner.failed_core().unwrap_or(&[]).to_vec();
            if core.len() >= refuted.len() {
                return Ok(refuted);
            }
            self.inner.assume(&core);
            if self.inner.solve().map_err(|e| SolverError::Backend(e.to_string()))? {
                return Ok(refuted);
            }
            refuted = core;
        }
    }

    /// `assumptions` with each literal once, for varisat; or a literal
    /// assumed with its negation, as `[negation, literal]`.
    fn once_each(&mut self, assumptions: &[Lit]) -> Result<Vec<varisat::Lit>, [Lit; 2]> {
        let mut lits = Vec::with_capacity(assumptions.len());
        let mut outcome = Ok(());
        for &l in assumptions {
            let index = l.var().index();
            if index >= self.assumed_polarity.len() {
                self.assumed_polarity.resize(index + 1, 0);
            }
            let polarity = if l.is_positive() { 1 } else { 2 };
            match self.assumed_polarity[index] {
                0 => {
                    self.assumed_polarity[index] = polarity;
                    lits.push(to_varisat(l));
                }
                seen if seen == polarity => {}
                _ => {
                    outcome = Err([!l, l]);
                    break;
                }
            }
        }
        for l in assumptions {
            if let Some(slot) = self.assumed_polarity.get_mut(l.var().index()) {
                *slot = 0;
            }
        }
        outcome.map(|()| lits)
    }
}

impl BackendSolver for Varisat {
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        if let Some(why) = &self.refused {
            return Err(SolverError::Backend(why.clone()));
        }
        self.clashing = None;
        self.core.clear();
        let mut assumed = Vec::new();
        // varisat keeps assumptions across calls, so reset them whenever some
        // were set; but never touch them with a DRAT proof, which cannot
        // record assumptions (varisat panics if asked to).
        if !assumptions.is_empty() || self.assumed {
            if self.writes_drat() {
                return Err(SolverError::Backend(
                    "a DRAT proof cannot cover solving under assumptions; use the varisat proof format".into(),
                ));
            }
            // varisat, asked to assume a literal whose negation an earlier
            // assumption set, can name a core without that literal, which
            // the formula may satisfy; and a literal assumed twice took part
            // in the one such core seen. So each literal is assumed once, and
            // a clash is answered here with its own two literals as the core.
            let lits = match self.once_each(assumptions) {
                Ok(lits) => lits,
                Err(clash) => {
                    self.clashing = Some(clash);
                    return Ok(Answer::Unsat);
                }
            };
            self.inner.assume(&lits);
            self.assumed = !assumptions.is_empty();
            assumed = lits;
        }
        self.solved = true;
        let satisfiable = self.inner.solve().map_err(|e| SolverError::Backend(e.to_string()))?;
        if let Some(proof) = &mut self.proof {
            proof.refuted = !satisfiable && assumptions.is_empty();
        }
        if !satisfiable {
            if !assumed.is_empty() {
                self.core = self.checked_core(assumed)?;
            }
            return Ok(Answer::Unsat);
        }
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

    fn value(&self, lit: Lit) -> bool {
        self.model.get(lit.var().index()).copied().unwrap_or(false) == lit.is_positive()
    }

    fn failed_core(&self) -> Vec<Lit> {
        if let Some(clash) = self.clashing {
            return clash.to_vec();
        }
        self.core.iter().map(|l| Lit::from_code(l.code())).collect()
    }

    fn num_vars(&self) -> usize {
        self.num_vars
    }
}

/// The proof file, remembering the last bytes written to it so that a
/// missing last step can be told.
struct TailWriter {
    out: Box<dyn Write + Send>,
    tail: Vec<u8>,
}

impl TailWriter {
    /// Whether what was written ends with the empty clause `0`, as a line
    /// of its own.
    fn ends_with_empty_clause(&self) -> bool {
        self.tail == b"0\n" || self.tail.ends_with(b"\n0\n")
    }
}

impl Write for TailWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let written = self.out.write(buf)?;
        self.tail.extend_from_slice(&buf[..written]);
        let excess = self.tail.len().saturating_sub(3);
        self.tail.drain(..excess);
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// varisat's handle on the proof file; the solver keeps another, to finish
/// the file after varisat has closed its own.
struct SharedWriter(Arc<Mutex<TailWriter>>);

impl Write for SharedWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A proof file in memory, readable after the solver is gone.
    #[derive(Clone, Default)]
    struct Memory(Arc<Mutex<Vec<u8>>>);

    impl Write for Memory {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn drat_of(clauses: &[&[Lit]]) -> (Answer, Vec<u8>) {
        let file = Memory::default();
        let mut solver = Varisat::writing_proof(Box::new(file.clone()), ProofFormat::Drat);
        solver.new_var();
        for clause in clauses {
            solver.add_clause(clause);
        }
        let answer = solver.solve_under(&[]).unwrap();
        solver.finish_proof().unwrap();
        let bytes = file.0.lock().unwrap().clone();
        (answer, bytes)
    }

    #[test]
    fn a_drat_refutation_ends_with_the_empty_clause_exactly_once() {
        let a = Var::from_index(0);
        // Unit propagation alone refutes this; varisat leaves out the empty clause.
        let (answer, proof) = drat_of(&[&[a.pos()], &[a.neg()]]);
        assert_eq!(answer, Answer::Unsat);
        let ends_with_empty = |proof: &[u8]| proof == b"0\n" || proof.ends_with(b"\n0\n");
        assert!(ends_with_empty(&proof), "{:?}", String::from_utf8_lossy(&proof));
        assert!(!proof.ends_with(b"0\n0\n"), "{:?}", String::from_utf8_lossy(&proof));
        let (answer, proof) = drat_of(&[&[a.pos(), a.neg()]]);
        assert_eq!(answer, Answer::Sat);
        assert!(!ends_with_empty(&proof), "a model needs no refutation: {:?}", String::from_utf8_lossy(&proof));
    }

    #[test]
    fn a_drat_proof_refuses_assumptions_and_late_clauses() {
        let mut solver = Varisat::writing_proof(Box::new(Memory::default()), ProofFormat::Drat);
        let a = solver.new_var();
        solver.add_clause(&[a.pos(), a.neg()]);
        assert!(solver.solve_under(&[a.pos()]).is_err());
        assert_eq!(solver.solve_under(&[]).unwrap(), Answer::Sat);
        solver.add_clause(&[a.pos()]);
        assert!(solver.solve_under(&[]).is_err());
    }
}

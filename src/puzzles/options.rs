//! The options of [`super::Puzzle::solve`] and [`super::Puzzle::count`].

use std::sync::Arc;

use super::Error;
use crate::cnf::Cnf;
use crate::solver::{Answer, Progress, ProofFormat, Solve, SolverConfig};

/// Where a refutation proof goes: a writer, opened only when a proof is
/// written (when SAT refutes the puzzle), so nothing is made for a puzzle
/// with a solution. Any closure that returns a writer is one; the command
/// line's opens a file, a server's may fill a buffer.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use somaria::puzzles::{ProofRequest, SolveOptions};
/// use somaria::solver::ProofFormat;
///
/// /// A proof kept in memory.
/// #[derive(Clone, Default)]
/// struct Kept(Arc<Mutex<Vec<u8>>>);
/// impl std::io::Write for Kept {
///     fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
///         self.0.lock().unwrap().extend_from_slice(bytes);
///         Ok(bytes.len())
///     }
///     fn flush(&mut self) -> std::io::Result<()> {
///         Ok(())
///     }
/// }
///
/// let kept = Kept::default();
/// let sink = kept.clone();
/// let proof = ProofRequest::new(ProofFormat::Drat, move || -> std::io::Result<Box<dyn std::io::Write + Send>> {
///     Ok(Box::new(sink.clone()))
/// });
/// // Three queens on a 3×3 board: no solution, refuted by SAT.
/// let text = std::fs::read_to_string("models/csp/queens.toml").unwrap().replace("n = 8", "n = 3");
/// let puzzle = somaria::load_str("queens-3.toml", &text).unwrap();
/// let options = SolveOptions { skip_presolve: true, proof: Some(proof), ..SolveOptions::default() };
/// assert_eq!(puzzle.solve(&options).unwrap().status, somaria::Status::NoSolution);
/// assert!(kept.0.lock().unwrap().ends_with(b"0\n"), "a DRAT refutation ends with the empty clause");
/// ```
pub trait ProofSink: Send + Sync {
    /// A writer for the proof.
    fn open(&self) -> std::io::Result<Box<dyn std::io::Write + Send>>;
}

impl<F: Fn() -> std::io::Result<Box<dyn std::io::Write + Send>> + Send + Sync> ProofSink for F {
    fn open(&self) -> std::io::Result<Box<dyn std::io::Write + Send>> {
        self()
    }
}

/// Where to write a refutation proof, and in which format.
#[derive(Clone)]
pub struct ProofRequest {
    /// Where the proof goes; the caller decides what to do with it
    /// afterwards.
    pub sink: Arc<dyn ProofSink>,
    /// The format.
    pub format: ProofFormat,
}

impl ProofRequest {
    /// A proof in `format`, written to the writer `sink` opens.
    pub fn new(format: ProofFormat, sink: impl ProofSink + 'static) -> ProofRequest {
        ProofRequest { sink: Arc::new(sink), format }
    }
}

impl std::fmt::Debug for ProofRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProofRequest").field("format", &self.format).finish_non_exhaustive()
    }
}

/// Options for [`Puzzle::solve`](super::Puzzle::solve).
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// The encoding or engine by name; `None` picks the family's default.
    pub engine: Option<String>,
    /// Return the CNF that was solved, for DIMACS output.
    pub keep_cnf: bool,
    /// Skip any reasoning the family does before SAT, so that the SAT
    /// encoding alone gives the verdict.
    pub skip_presolve: bool,
    /// Write the main solver's proof here.
    pub proof: Option<ProofRequest>,
    /// Live counters for a progress display or a time limit.
    pub progress: Arc<Progress>,
    /// The SAT backend, and when every search of the run must stop.
    pub solver: SolverConfig,
    /// Steps and hints reason over the parts of the constraints rather
    /// than whole ones (a csp `alldifferent` split per value,
    /// [`crate::lang::parts`]).
    pub parts: bool,
}

impl SolveOptions {
    /// A solver of [`SolveOptions::solver`] for a family's SAT search,
    /// holding `cnf` and counting its calls and growth in
    /// [`SolveOptions::progress`].
    pub fn new_solver(&self, cnf: &Cnf) -> Box<dyn Solve> {
        self.solver.new_solver(cnf, Some(self.progress.clone()))
    }

    /// The formula a solve reports, built by `formula` only when something
    /// needs it: refuted once more for the proof when `refuted` and a proof
    /// was asked for, and returned when [`SolveOptions::keep_cnf`] asked for
    /// it (for `--dimacs`). Every family's solve ends with this, so the proof
    /// and the DIMACS file always describe the same formula.
    pub fn settle_formula(&self, refuted: bool, formula: impl FnOnce() -> Cnf) -> Result<Option<Cnf>, Error> {
        let proving = refuted && self.proof.is_some();
        if !proving && !self.keep_cnf {
            return Ok(None);
        }
        let cnf = formula();
        if proving {
            self.prove_unsat(&cnf)?;
        }
        Ok(self.keep_cnf.then_some(cnf))
    }

    /// When a proof was asked for, refutes `cnf` once more from scratch with
    /// a solver that writes the proof. A family calls this with the formula
    /// it reports (the one `--dimacs` writes) after its own search found no
    /// solution; a search may have used assumptions or added clauses between
    /// calls, which a DRAT proof cannot record, so the proof comes from a
    /// single plain solve of exactly that formula.
    fn prove_unsat(&self, cnf: &Cnf) -> Result<(), Error> {
        let Some(request) = &self.proof else { return Ok(()) };
        let out = request.sink.open().map_err(|e| Error::Output(format!("cannot write the proof: {e}")))?;
        let progress = Some(self.progress.clone());
        if crate::solver::solve_with_proof(cnf, &self.solver, progress, out, request.format)? == Answer::Sat {
            let message = "the search found no solution, but the formula it reports has a model";
            return Err(Error::Internal(message.to_string()));
        }
        Ok(())
    }
}

/// Options for [`Puzzle::count`](super::Puzzle::count).
#[derive(Clone, Debug, Default)]
pub struct CountOptions {
    /// The encoding or engine by name; `None` picks the family's default.
    pub engine: Option<String>,
    /// Stop after this many solutions.
    pub limit: Option<u64>,
    /// List the solutions one by one, or count them without listing.
    pub method: CountMethod,
    /// Skip any reasoning the family does before SAT.
    pub skip_presolve: bool,
    /// Live counters: each family records every solution it counts here, so
    /// that a run stopped by a time limit can still report its partial count.
    pub progress: Arc<Progress>,
    /// The SAT backend, and when every search of the run must stop.
    pub solver: SolverConfig,
}

/// How `count` counts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum CountMethod {
    /// Every solution is found by a SAT call, checked against the rules by
    /// code apart from the encoding, and blocked.
    #[default]
    Enumerate,
    /// The formula is counted by an exact projected model counter
    /// ([`crate::solver::count_projected`]): no solution is listed or
    /// checked one by one, so counts far beyond any enumeration come out.
    Exact,
}

impl CountOptions {
    /// Refuses [`CountMethod::Exact`] for a family whose count is not one
    /// plain formula's (`family` names it in the message).
    pub fn enumerating(&self, family: &str) -> Result<(), Error> {
        match self.method {
            CountMethod::Enumerate => Ok(()),
            CountMethod::Exact => Err(Error::BadRequest(format!(
                "count --method exact counts csp and tile-cover models only, not {family} models; expected --method enumerate"
            ))),
        }
    }

    /// A solver of [`CountOptions::solver`] holding `cnf` that counts its
    /// calls and growth in [`CountOptions::progress`].
    pub fn new_solver(&self, cnf: &Cnf) -> Box<dyn Solve> {
        self.solver.new_solver(cnf, Some(self.progress.clone()))
    }
}

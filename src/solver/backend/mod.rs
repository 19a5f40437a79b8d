//! The SAT backends: one table of them ([`Backend::ALL`], one row each: its
//! name, what it can do beyond solving, and how its solvers are built), and
//! the thin trait each implements ([`BackendSolver`]). Callers never see a
//! backend's type: [`super::SolverConfig::new_solver`] wraps it in
//! [`super::Metered`], which does the accounting for all of them.
//!
//! A new backend is a file here implementing [`BackendSolver`] and
//! `Build`, its row (a `ROW` constant beside its type), and one line of
//! [`Backend::ALL`] under its cargo feature; `tests/properties/backends.rs` runs the
//! backend contract on every row.

#[cfg(feature = "cadical")]
mod cadical;
mod varisat;

use std::io::Write;
use std::sync::Arc;

use super::{Answer, Metered, Progress, ProofFormat, Solve, SolverError, Stop};
use crate::cnf::{ClauseSink, Cnf, Lit};
/// What a SAT backend implements: incremental variables and clauses (as a
/// [`ClauseSink`]), solving under assumptions, the last model and the failed
/// assumptions. Nothing else: counting, timing and stopping are
/// [`Metered`]'s, so they work the same on every backend.
pub trait BackendSolver: ClauseSink {
    /// Solves with `assumptions` holding for this call only.
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError>;

    /// The value of `lit` in the model of the last satisfiable call; a
    /// variable in no clause reads false, so that every backend reads the
    /// same model the same way.
    fn value(&self, lit: Lit) -> bool;

    /// After an unsatisfiable call, a subset of the assumptions that is
    /// already unsatisfiable; not necessarily minimal.
    fn failed_core(&self) -> Vec<Lit>;

    /// How many variables [`ClauseSink::new_var`] has numbered.
    fn num_vars(&self) -> usize;
}

/// How a backend's solvers are built: plain, or writing a proof of their
/// verdict. A row of the table builds its solvers through [`metered`] and
/// [`prove`] over its type.
trait Build: BackendSolver + Sized + 'static {
    /// A solver whose search stops on `stop`, inside a call too when the
    /// backend can be interrupted ([`BackendInfo::interruptible`]).
    fn build(stop: Stop) -> Self;

    /// A solver that writes a proof of the verdict of its calls to `out`
    /// in `format` (one of the row's [`BackendInfo::proof_formats`]); the
    /// proof is complete after [`Build::finish_proof`].
    fn proving(stop: Stop, out: Box<dyn Write + Send>, format: ProofFormat) -> Result<Self, SolverError>;

    /// Finishes the proof, after the last call, and flushes it to its
    /// writer; a solver without a proof does nothing.
    fn finish_proof(self) -> Result<(), SolverError>;
}

/// A solver of backend `B` holding `cnf`, metered under `stop` and
/// `progress`: what every row's `new` is.
fn metered<B: Build>(cnf: &Cnf, stop: Stop, progress: Option<Arc<Progress>>) -> Box<dyn Solve> {
    let mut solver = Metered::new(B::build(stop.clone()), stop, progress);
    solver.add_cnf(cnf);
    Box::new(solver)
}

/// Solves `cnf` once on backend `B`, with no assumptions, writing the proof
/// of the verdict to `out`: what every row's `prove` is.
fn prove<B: Build>(
    cnf: &Cnf,
    stop: Stop,
    progress: Option<Arc<Progress>>,
    out: Box<dyn Write + Send>,
    format: ProofFormat,
) -> Result<Answer, SolverError> {
    let mut prover = Metered::new(B::proving(stop.clone(), out, format)?, stop, progress);
    prover.add_cnf(cnf);
    let answer = prover.solve()?;
    prover.into_backend().finish_proof()?;
    Ok(answer)
}

/// One row of the backend table: a SAT backend's name, what it can do
/// beyond solving, and how its solvers are built.
pub struct BackendInfo {
    /// The name `--solver` takes.
    pub name: &'static str,
    /// What it is, in a few words.
    pub summary: &'static str,
    /// The proof formats it writes, its default first.
    pub proof_formats: &'static [ProofFormat],
    /// Whether the [`Stop`] token stops a SAT call under way (from a
    /// terminate callback). Every backend honours it between calls; one that
    /// cannot be interrupted runs a call to its end, so a watchdog must
    /// abandon it (see [`crate::limits`]).
    pub interruptible: bool,
    new: NewSolver,
    prove: Prove,
}

/// How a row builds a metered solver holding a formula ([`metered`]).
type NewSolver = fn(&Cnf, Stop, Option<Arc<Progress>>) -> Box<dyn Solve>;

/// How a row solves a formula once, writing the proof of the verdict
/// ([`prove`]).
type Prove = fn(&Cnf, Stop, Option<Arc<Progress>>, Box<dyn Write + Send>, ProofFormat) -> Result<Answer, SolverError>;

/// A SAT backend somaria can solve with: a row of the table
/// [`Backend::ALL`], which says what it can do. Every backend honours the
/// [`Stop`] token between calls; CaDiCaL also inside a call, from its
/// terminate callback, while varisat cannot be interrupted and runs a call
/// to its end. CaDiCaL is built only with the `cadical` cargo feature (its
/// build compiles C++ and needs libclang for the bindings); without it the
/// name is known but refused, saying how to build it.
///
/// ```
/// use somaria::solver::{Backend, ProofFormat};
/// let backend: Backend = "varisat".parse().unwrap();
/// assert_eq!(backend, Backend::default());
/// assert!(backend.proof_formats().contains(&ProofFormat::Drat));
/// assert!(!backend.interruptible());
/// assert!("minisat".parse::<Backend>().unwrap_err().to_string().contains("expected one of varisat"));
/// ```
#[derive(Copy, Clone)]
pub struct Backend(&'static BackendInfo);

/// The backends that cargo features add, by name and feature, so that a
/// build without one can say how to get it.
const OPTIONAL: &[(&str, &str)] = &[("cadical", "cadical")];

/// A backend name that is not in [`Backend::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", unknown_backend_message(found))]
pub struct UnknownBackend {
    /// The name given.
    pub found: String,
}

fn unknown_backend_message(found: &str) -> String {
    let expected = Backend::names().collect::<Vec<_>>().join(", ");
    match OPTIONAL.iter().find(|&&(name, _)| name == found) {
        Some((name, feature)) => format!(
            "this somaria was built without the {name} SAT backend (build it with `cargo build --release --features \
             {feature}`); expected one of {expected}"
        ),
        None => format!("unknown SAT backend {found:?}; expected one of {expected}"),
    }
}

impl Backend {
    /// The table: every backend built in, the default first, one row each
    /// under its cargo feature.
    pub const ALL: &'static [Backend] = &[
        Backend(&varisat::ROW),
        #[cfg(feature = "cadical")]
        Backend(&cadical::ROW),
    ];

    /// Every backend's name, in the order of [`Backend::ALL`].
    pub fn names() -> impl Iterator<Item = &'static str> {
        Backend::ALL.iter().map(|b| b.name())
    }

    /// The backend of this name, when it is built in.
    pub fn named(name: &str) -> Option<Backend> {
        Backend::ALL.iter().copied().find(|b| b.name() == name)
    }

    /// The backend's row.
    pub fn info(self) -> &'static BackendInfo {
        self.0
    }

    /// The backend's name, as `--solver` takes it.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// The proof formats the backend can write, its default first.
    pub fn proof_formats(self) -> &'static [ProofFormat] {
        self.0.proof_formats
    }

    /// Whether the [`Stop`] token stops a SAT call under way.
    pub fn interruptible(self) -> bool {
        self.0.interruptible
    }

    /// A solver of this backend holding `cnf`, metered under `stop` and
    /// `progress`.
    pub(super) fn new_solver(self, cnf: &Cnf, stop: Stop, progress: Option<Arc<Progress>>) -> Box<dyn Solve> {
        (self.0.new)(cnf, stop, progress)
    }

    /// Solves `cnf` once, with no assumptions, writing the proof of the
    /// verdict to `out`; the backend must list `format` among its
    /// [`Backend::proof_formats`].
    pub(super) fn prove(
        self,
        cnf: &Cnf,
        stop: Stop,
        progress: Option<Arc<Progress>>,
        out: Box<dyn Write + Send>,
        format: ProofFormat,
    ) -> Result<Answer, SolverError> {
        (self.0.prove)(cnf, stop, progress, out, format)
    }
}

impl Default for Backend {
    /// The first row of the table: varisat.
    fn default() -> Backend {
        Backend::ALL[0]
    }
}

/// Backends are told apart by name, which the table keeps unique.
impl PartialEq for Backend {
    fn eq(&self, other: &Backend) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Backend {}

impl std::hash::Hash for Backend {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state)
    }
}

impl std::fmt::Debug for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Backend").field(&self.name()).finish()
    }
}

impl std::str::FromStr for Backend {
    type Err = UnknownBackend;

    fn from_str(text: &str) -> Result<Backend, UnknownBackend> {
        Backend::named(text).ok_or_else(|| UnknownBackend { found: text.into() })
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

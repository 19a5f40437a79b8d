//! Why a run, a generator or a state file failed. None of these is a
//! verdict about the puzzle.

use crate::solver::{SolverError, StopCause};

/// A generator asked for a puzzle it cannot build, such as a grid with no
/// cells or more keys than letters.
///
/// ```
/// let e = somaria::puzzles::GenerateError::new("a 0 x 3 grid", "at least one row and one column");
/// assert_eq!(e.to_string(), "cannot generate a 0 x 3 grid; expected at least one row and one column");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot generate {found}; expected {expected}")]
pub struct GenerateError {
    /// What was asked for.
    pub found: String,
    /// What the generator can build.
    pub expected: String,
}

impl GenerateError {
    /// The error for `found`, when `expected` is what can be built.
    pub fn new(found: impl Into<String>, expected: impl Into<String>) -> GenerateError {
        GenerateError { found: found.into(), expected: expected.into() }
    }
}

/// Why a run failed. None of these is a verdict about the puzzle.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The engine name is not one the family has.
    #[error("unknown engine {found:?} for this kind of puzzle; expected one of {expected}")]
    UnknownEngine {
        /// The name given.
        found: String,
        /// The engines the family has.
        expected: String,
    },
    /// The SAT solver failed.
    #[error(transparent)]
    Solver(SolverError),
    /// The run's stop token stopped the search before a verdict; what it
    /// found so far is in the run's progress.
    #[error("stopped before a verdict: {0}")]
    Stopped(StopCause),
    /// A bug in somaria other than a failed check.
    #[error("INTERNAL ERROR: {0}. This is a bug in somaria; please report it with the model file.")]
    Internal(String),
    /// The puzzle is too large for the chosen engine on this machine; the
    /// message says the limit.
    #[error("{0}")]
    TooLarge(String),
    /// An output file could not be written.
    #[error("{0}")]
    Output(String),
    /// A request the puzzle cannot take, such as a given entry that names
    /// nothing in it; the message says what was expected.
    #[error("{0}")]
    BadRequest(String),
    /// The engine solves without a CNF, so there is no formula to export.
    #[error("the {engine} engine does not build a CNF ({why}); expected an engine that does: {expected}")]
    NoFormula {
        /// The engine asked for.
        engine: &'static str,
        /// How it solves instead.
        why: &'static str,
        /// The engines that build a CNF.
        expected: String,
    },
    /// The family does not offer this command.
    #[error("{command} is not available for {kind} puzzles")]
    Unsupported {
        /// The command asked for.
        command: &'static str,
        /// The family's kind.
        kind: &'static str,
    },
    /// An answer failed the independent check: a bug in somaria.
    #[error(
        "INTERNAL ERROR: the solver's answer failed the independent check of the puzzle's rules: {0}. This is a bug in somaria; please report it with the model file."
    )]
    CheckFailed(String),
    /// `generate` made no puzzle where it was asked for one (its clues never
    /// made a unique puzzle, or the template has no solution to draw): an
    /// outcome, as "no solution" is, not a fault of the request.
    #[error("{0}")]
    NotMade(String),
}

impl From<SolverError> for Error {
    /// A model that a repair step rejected failed the puzzle's own rules, so
    /// it is reported as a failed check; a stopped search is neither a
    /// verdict nor a failure; other failures are the solver's.
    fn from(e: SolverError) -> Error {
        match e {
            SolverError::ModelRejected(why) => Error::CheckFailed(why),
            SolverError::Stopped(cause) => Error::Stopped(cause),
            other => Error::Solver(other),
        }
    }
}

impl From<crate::compile::CompileError> for Error {
    fn from(e: crate::compile::CompileError) -> Error {
        use crate::compile::CompileError;
        match e {
            CompileError::TooLarge(why) => Error::TooLarge(why),
            CompileError::Internal(why) => Error::Internal(why),
            CompileError::Unsupported(why) => Error::BadRequest(why),
        }
    }
}

/// What is wrong with a state file ([`super::Deducible::entries_of_solution`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateError {
    /// The top-level member the problem is in, when it is in one.
    pub member: Option<String>,
    /// What was found and what was expected.
    pub message: String,
}

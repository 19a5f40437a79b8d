//! The pieces of the command line that are not argument parsing: safe
//! output files, the supervisor that enforces time and memory limits, and
//! the memory counter behind the latter.

pub mod memory;
pub mod output;
pub mod supervise;

/// Exit codes, part of the CLI contract.
pub mod exit {
    pub const SOLVED: u8 = 0;
    pub const NO_SOLUTION: u8 = 1;
    pub const BAD_INPUT: u8 = 2;
    pub const UNKNOWN: u8 = 3;
    pub const INTERNAL: u8 = 4;
}

/// A failure that ends the run, with its exit code.
#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
}

impl Failure {
    /// A usage or input problem (exit 2).
    pub fn bad_input(message: impl Into<String>) -> Failure {
        Failure { code: exit::BAD_INPUT, message: message.into() }
    }

    /// Whether the run's stop token stopped the search: the one failure
    /// with the exit code of "unknown", which the supervisor reports as a
    /// stop.
    pub fn is_stop(&self) -> bool {
        self.code == exit::UNKNOWN
    }
}

impl From<somaria::model::LoadError> for Failure {
    fn from(e: somaria::model::LoadError) -> Failure {
        Failure::bad_input(e.to_string())
    }
}

impl From<somaria::puzzles::Error> for Failure {
    fn from(e: somaria::puzzles::Error) -> Failure {
        use somaria::puzzles::Error;
        let code = match e {
            Error::UnknownEngine { .. }
            | Error::Unsupported { .. }
            | Error::Output(_)
            | Error::TooLarge(_)
            | Error::NoFormula { .. } => exit::BAD_INPUT,
            Error::Stopped(_) => exit::UNKNOWN,
            Error::Solver(_) | Error::CheckFailed(_) | Error::Internal(_) => exit::INTERNAL,
        };
        Failure { code, message: e.to_string() }
    }
}

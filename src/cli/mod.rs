//! The command line's machinery, apart from the list of commands in
//! `main.rs`: the shared arguments, one command's run and its generic
//! runner, the commands with more to do than print a report (solve's
//! output files, compare, encode), safe output files, and the supervisor
//! that runs a command under the library's limits ([`somaria::limits`])
//! with Ctrl-C and a progress display.

pub mod args;
pub mod commands;
pub mod generate;
pub mod genres;
pub mod given;
pub mod output;
pub mod play;
pub mod run;
pub mod supervise;

use std::path::Path;

pub use somaria::report::exit;

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

impl From<somaria::genres::OpenError> for Failure {
    fn from(e: somaria::genres::OpenError) -> Failure {
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
            | Error::BadRequest(_)
            | Error::TooLarge(_)
            | Error::NoFormula { .. } => exit::BAD_INPUT,
            Error::Stopped(_) => exit::UNKNOWN,
            Error::NotMade(_) => exit::NO_SOLUTION,
            Error::Solver(_) | Error::CheckFailed(_) | Error::Internal(_) => exit::INTERNAL,
        };
        Failure { code, message: e.to_string() }
    }
}

/// The failure of an output file that cannot be written.
pub fn cannot_write(path: &Path, e: std::io::Error) -> Failure {
    Failure::bad_input(format!("{}: cannot write: {}", path.display(), without_path(e)))
}

/// The error without the path of the temporary file it names, which the
/// user never gave; the message names the path they did give.
fn without_path(e: std::io::Error) -> std::io::Error {
    let os_code = e.raw_os_error().or_else(|| {
        let inner = e.get_ref()?.source()?;
        inner.downcast_ref::<std::io::Error>()?.raw_os_error()
    });
    match os_code {
        Some(code) => std::io::Error::from_raw_os_error(code),
        None if e.get_ref().is_some() => std::io::Error::from(e.kind()),
        None => e,
    }
}

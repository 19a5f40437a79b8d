//! csp model texts of grid puzzles, written from their clues: read from a
//! puzz.link URL ([`puzzlink`]), or made with exactly one solution by a
//! generator of one genre ([`slitherlink`], [`nurikabe`], [`numberlink`]).
//! The example programs of the same names print them; the tests call them
//! here.
//!
//! Each generator draws a random solution first, then looks for a second
//! one with somaria and changes the puzzle until there is none. Nothing in
//! them knows how somaria encodes a puzzle. `somaria generate` makes
//! puzzles the other way, from a model's design table (see
//! [`crate::generate`]).
//!
//! The model texts are `format!` templates ([`templates`]) in the layouts of
//! `models/csp/slitherlink.toml` and `models/csp/nurikabe.toml`; the
//! puzz.link layer of parametric genre models is meant to replace them and
//! the decoder.

pub mod numberlink;
pub mod nurikabe;
pub mod puzzlink;
pub mod slitherlink;
pub mod templates;

pub use templates::{nurikabe_model, slitherlink_model};

use crate::model::Source;
use crate::puzzles::{self, Puzzle};

/// Why a generator made no puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MakeError {
    /// A model it wrote did not load, or a count or solve of it failed.
    #[error("{0}")]
    Failed(String),
    /// It found no puzzle from these arguments; another seed may.
    #[error("{0}")]
    GaveUp(String),
}

/// Loads a model a generator wrote, named `name`.
fn load(name: &str, text: String) -> Result<Box<dyn Puzzle>, MakeError> {
    puzzles::load(&Source::from_text(name, text))
        .map_err(|e| MakeError::Failed(format!("the generated model does not load: {e}")))
}

/// The value after the option `name` in `args`, taken out of them with the
/// option; `Ok(None)` when the option is not there.
fn take_option(args: &mut Vec<String>, name: &str, usage: &str) -> Result<Option<String>, String> {
    let Some(at) = args.iter().position(|a| a == name) else { return Ok(None) };
    let value = args.get(at + 1).cloned().ok_or_else(|| usage.to_string())?;
    args.drain(at..at + 2);
    Ok(Some(value))
}

/// `text` read as a number, or the usage line.
fn parse_or_usage<T: std::str::FromStr>(text: &str, usage: &str) -> Result<T, String> {
    text.parse().map_err(|_| usage.to_string())
}

//! Grid puzzles made with exactly one solution by a generator of one
//! genre ([`slitherlink`], [`nurikabe`], [`numberlink`]). The example
//! programs of the same names print them; the tests call them here.
//!
//! Each generator draws a random solution first, then looks for a second
//! one with somaria and changes the puzzle until there is none. Nothing in
//! them knows how somaria encodes a puzzle, and none writes a rule: the
//! model text is the genre's parametric model (`models/genres/`) with the
//! puzzle's parameters, written by [`crate::genres`] (`genre_model`).
//! `somaria generate` makes puzzles the other way, from a model's design
//! table (see [`crate::generate`]).

pub mod numberlink;
pub mod nurikabe;
pub mod slitherlink;

use crate::genres;
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

/// The text of `genre`'s model (a [`crate::genres`] id) with a grid of
/// `clue`s (-1 where a cell has none) and the `extra` parameters, under
/// the `origin` header.
fn genre_model(
    genre: &str,
    clue: &[Vec<i64>],
    extra: &[(&str, toml::Value)],
    origin: &str,
) -> Result<String, MakeError> {
    let mut params = toml::Table::new();
    params.insert("rows".into(), (clue.len() as i64).into());
    params.insert("cols".into(), (clue.first().map_or(0, Vec::len) as i64).into());
    let rows = clue.iter().map(|row| toml::Value::Array(row.iter().map(|&v| v.into()).collect()));
    params.insert("clue".into(), toml::Value::Array(rows.collect()));
    for (name, value) in extra {
        params.insert((*name).into(), value.clone());
    }
    let puzzle = genres::instance_of(genre, &params).map_err(MakeError::Failed)?;
    let source = genres::model_of(puzzle.as_ref()).map_err(|e| MakeError::Failed(e.to_string()))?;
    Ok(format!("{origin}\n{}", source.text()))
}

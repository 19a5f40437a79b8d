//! What `generate` asks of a family: a [`Designer`] draws a random
//! solution from a template, as a [`Draft`] that names the clues it gives
//! and writes the model's text with any of them kept. Each family's
//! designer lives in its own folder and is registered in
//! [`super::FAMILIES`]; the driver that drops clues and recounts knows
//! only these traits.

use crate::model::{LoadError, Source};
use crate::puzzles::Error;
use crate::rng::SplitMix64;
use crate::solver::{SolveStats, SolverConfig};

/// A clue's cell in its array's grid, for the symmetries.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Which of the designer's clue arrays.
    pub array: usize,
    /// Row and column; `None` for a clue off any grid (dropped alone).
    pub place: Option<(usize, usize)>,
    /// The array's rows and columns.
    pub extent: (usize, usize),
}

/// How dropping a clue acts on the drawn solution.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Drops {
    /// A clue only narrows the solutions: the drawn solution stays one
    /// whatever is dropped, so a check that finds none is a bug, and a clue
    /// that cannot be dropped never can once others are gone.
    Narrow,
    /// A dropped clue changes the puzzle (a wall that becomes a tile the
    /// route must cover): a drop may leave no solution, the one solution
    /// may move, and a clue kept once may be dropped after others are.
    Reshape,
}

/// A kind of puzzle `generate` can make from a template.
pub trait Designer: Sync {
    /// The template's file name, for messages and the generated models.
    fn name(&self) -> &str;

    /// A random solution, which depends on `rng` alone; `None` when the
    /// template has none.
    fn draw<'a>(&'a self, rng: &mut SplitMix64, solver: &SolverConfig) -> Result<Option<Box<dyn Draft + 'a>>, Error>;

    /// How dropping a clue acts; most designers' clues narrow.
    fn drops(&self) -> Drops {
        Drops::Narrow
    }
}

/// A random solution with the clues it gives.
pub trait Draft: Send {
    /// The clues, one slot each.
    fn slots(&self) -> Vec<Slot>;

    /// The model's text with the clues in `kept` (one flag per slot).
    fn write(&self, kept: &[bool]) -> String;

    /// The one solution of the puzzle with the clues in `kept`, as `solve
    /// --format json` writes it under `"solution"` (those members the
    /// recount compares). A designer whose drops reshape the puzzle finds
    /// it on the written text, with an engine of its own choosing.
    fn solution(&self, kept: &[bool], solver: &SolverConfig) -> Result<serde_json::Value, Error>;

    /// One solver that answers every uniqueness check of this draft, the
    /// clues switched on and off by assumptions; `None` when the designer
    /// has none, and each check loads the written text afresh instead.
    fn clue_solver<'s>(
        &'s self,
        _engine: Option<&str>,
        _solver: &SolverConfig,
    ) -> Result<Option<Box<dyn ClueSolver + 's>>, Error> {
        Ok(None)
    }
}

/// What a count up to 2 found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No solution.
    None,
    /// Exactly one.
    Unique,
    /// Two or more.
    Several,
    /// The budget ran out first.
    OverBudget,
}

/// Uniqueness checks of one draft on one solver kept between them.
pub trait ClueSolver {
    /// The count up to 2 of the puzzle with the clues in `kept` (one flag
    /// per slot of the draft).
    fn verdict(&mut self, kept: &[bool]) -> Result<Verdict, Error>;

    /// The solver's counters so far.
    fn stats(&self) -> SolveStats;
}

/// A family's designer from a template of its kind.
pub type DesignerOf = fn(&Source) -> Result<Box<dyn Designer>, LoadError>;

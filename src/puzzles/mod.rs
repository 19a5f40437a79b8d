//! The puzzle families, each in its own module, behind the [`Puzzle`] trait.
//!
//! A family turns a model file into a validated puzzle, and the puzzle knows
//! how to solve, count and check itself. Adding a family means adding its
//! module and one row to [`FAMILIES`].
//!
//! The trait is the core every family answers; what only some families can
//! do sits behind an accessor that returns `None` by default:
//! [`Puzzle::deducible`] for step-by-step deductions (hints, steps, play)
//! and [`Puzzle::routed`] for a puzzle whose answer is a route. A family's
//! designer for `generate` is its registry row's [`Family::design`].

#[macro_use]
mod engines;

pub mod compare;
pub mod csp;
pub mod design;
mod error;
pub mod fans;
pub mod keys_doors;
mod options;
mod play;
mod registry;
mod report;
mod text;
pub mod tile_cover;

pub use error::{Error, GenerateError, StateError};
pub use options::{CountMethod, CountOptions, ProofRequest, ProofSink, SolveOptions};
pub use play::{Entry, PlayState, RouteLeg, RouteLegs, read_moves};
pub use registry::{FAMILIES, Family, designer, known_kinds, load, load_file, load_str};
pub use report::{
    CountReport, DecidedBy, Drawn, ExplainReport, FactsReport, Formula, NamedConstraint, Payload, Solution,
    SolveReport, Stats, Status,
};
pub use text::{counted, listed, wrapped};

use crate::deduce::{Deductions, Wanted};
use crate::draw::Scene;

/// A loaded, validated puzzle of any family. Puzzles are plain data, so a
/// caller may run one on another thread, for instance under a time limit.
pub trait Puzzle: Send + Sync {
    /// The family's `kind` name.
    fn kind(&self) -> &'static str;

    /// The model's title, when it has one.
    fn title(&self) -> Option<&str>;

    /// The encodings or engines this puzzle can run; the first is the default.
    fn engines(&self) -> &'static [&'static str];

    /// The engines `compare` runs: [`Puzzle::engines`] and any engine that
    /// answers only `solve` and `count` (the csp family's fd engine).
    fn compared_engines(&self) -> &'static [&'static str] {
        self.engines()
    }

    /// Finds a solution and checks it, or proves there is none.
    fn solve(&self, options: &SolveOptions) -> Result<SolveReport, Error>;

    /// Counts the distinct solutions, checking each one.
    fn count(&self, options: &CountOptions) -> Result<CountReport, Error>;

    /// Reports what holds in every solution and what can vary.
    fn facts(&self, options: &SolveOptions) -> Result<FactsReport, Error> {
        let _ = options;
        Err(Error::Unsupported { command: "facts", kind: self.kind() })
    }

    /// For a puzzle with no solution, a minimal set of its constraints that
    /// already has none.
    fn explain(&self, options: &SolveOptions) -> Result<ExplainReport, Error> {
        let _ = options;
        Err(Error::Unsupported { command: "explain", kind: self.kind() })
    }

    /// The CNF the engine would hand to the solver first, built without
    /// solving, so that a hard instance can go to another SAT solver.
    fn formula(&self, engine: Option<&str>) -> Result<Formula, Error>;

    /// A picture of a report this puzzle gave, drawn from the report's
    /// payload: the answer drawn on the grid, the facts shaded, or the
    /// explanation's constraints outlined.
    fn picture(&self, of: Drawn<'_>) -> Result<Scene, Error> {
        let _ = of;
        Err(Error::Unsupported { command: "a picture", kind: self.kind() })
    }

    /// A report this puzzle gave, as text for a person, drawn from the
    /// report's payload as [`Puzzle::picture`] draws it: the answer, the
    /// facts, or the puzzle with the explanation's cells outlined. `None`
    /// where the family writes nothing of its own, and the report's own
    /// lines stand alone.
    fn text(&self, of: Drawn<'_>) -> Result<Option<String>, Error> {
        let _ = of;
        Ok(None)
    }

    /// The puzzle's deductions, for a family whose hints and steps are
    /// values deduced from named rules; `None` for one that has none.
    fn deducible(&self) -> Option<&dyn Deducible> {
        None
    }

    /// The puzzle as a route to walk, for a family whose hints are the legs
    /// of a fewest-steps route rather than values deduced.
    fn routed(&self) -> Option<&dyn Routed> {
        None
    }
}

/// A puzzle whose hints and steps are deductions: what `hint`, `steps` and
/// a play session need of a family, apart from the core trait.
pub trait Deducible {
    /// The puzzle ready for deductions ([`crate::deduce`]): its named rules
    /// as switches, its candidate facts as literals, a solver holding both
    /// and the independent check of a model. `wanted` says which parts the
    /// caller will use, so that nothing else is built.
    fn deductions(&self, options: &SolveOptions, wanted: Wanted) -> Result<Deductions<'_>, Error>;

    /// The techniques a step may be named by, in the order they are tried:
    /// the model's hint table's ([`crate::lang::hints`]); none by default.
    fn techniques(&self) -> &[crate::lang::hints::Technique] {
        &[]
    }

    /// The player's entries that a value in the shape of `solve`'s
    /// `solution` states, as `--given` takes them (`NAME=VALUE`): a state
    /// file read back. Holes (`null`, `"_"` or a missing member) state
    /// nothing. `None` when the family takes no state file.
    fn entries_of_solution(&self, solution: &serde_json::Value) -> Option<Result<Vec<String>, StateError>> {
        let _ = solution;
        None
    }

    /// The state file (`--given FILE`) of the entries `known`: the value
    /// [`Self::entries_of_solution`] reads back. `None` when the family
    /// takes no state file.
    fn state_file(&self, known: &[Entry]) -> Option<serde_json::Value> {
        let _ = known;
        None
    }

    /// The player's entries as `--given` facts (`NAME=VALUE`), each with
    /// how a message names it: a family that takes entries of its own, such
    /// as the moves walked in a tile-cover room, reads them into facts here.
    /// By default every entry stands as it is.
    fn given_entries(&self, given: &[String]) -> Result<Vec<(String, String)>, Error> {
        Ok(given.iter().map(|g| (g.clone(), g.clone())).collect())
    }

    /// A state of play (a hint's step) drawn as the puzzle is drawn, with
    /// the style its text is drawn in; `None` when the family draws no
    /// state of its own, and a step's picture is a grid of the facts' cells.
    fn state_picture(&self, state: &PlayState<'_>) -> Option<(Scene, crate::draw::text::Style)> {
        let _ = state;
        None
    }
}

/// A puzzle whose answer is a route of fewest steps: hints and steps show
/// the legs of such a route from the player's moves.
pub trait Routed {
    /// The legs of a fewest-steps route from the state the `given` entries
    /// walk to, each checked by the family.
    fn route_legs(&self, options: &SolveOptions, given: &[String]) -> Result<RouteLegs, Error>;
}

//! somaria models logic puzzles, encodes them in CNF, solves them with the
//! varisat SAT solver, checks every answer against the puzzle's own rules,
//! and counts solutions to prove a puzzle unique or unsolvable.
//!
//! The data flows one way:
//!
//! - [`model`] reads a TOML model file and reports errors by file, line and
//!   column;
//! - [`cnf`] builds formulas, with the cardinality encodings in [`cnf::card`];
//! - [`graph`] holds constraints over grid graphs (paths, loops, connected
//!   regions) that puzzle families and csp models share;
//! - [`solver`] solves them, under assumptions or enumerating models;
//! - [`lang`] is the csp modeler's language, with no SAT in it: MiniZinc-syntax
//!   constraints in a TOML model, checked and unrolled, an independent
//!   evaluator that judges answers, and the table of built-in functions and
//!   globals ([`lang::builtins`]);
//! - [`compile`] encodes the language's unrolled model as CNF, and repairs
//!   its grid globals between solves;
//! - [`puzzles`] holds one module per family, each with its encoding, decoding
//!   and independent check, and the picture of its grid as a [`draw::Scene`];
//!   `puzzles::csp` is the family of csp models, a thin adapter over
//!   [`lang`] and [`compile`];
//! - [`draw`] draws scenes as SVG or as text, knowing nothing of families;
//! - [`report`] turns reports into text for people or JSON for programs,
//!   behind one trait, [`report::Report`].
//!
//! - [`deduce`] sits on [`solver`] and knows no puzzle: a family's named
//!   rules as switches and its facts as literals ([`puzzles::Deducible::deductions`]),
//!   from which `facts` and `explain` are computed once for every family,
//!   and the planner of step-by-step deductions with its re-check;
//! - [`hints`] runs that planner on any [`Puzzle`] for `hint` and `steps`.
//!
//! - [`grid_models`] writes csp models of grid puzzles from their clues:
//!   decoded from puzz.link URLs, or made unique by a generator of one
//!   genre (the example programs print them).
//!
//! Beside the layers, [`limits`] runs work under a time limit, a memory cap
//! and an interrupt flag on a worker thread, for the command line and a
//! server alike.
//!
//! What an application needs is re-exported here: load a model, run a
//! command on it under options (whose [`SolverConfig`] picks the backend
//! and carries the [`Stop`] token that bounds the run), and print or draw
//! the report.
//!
//! ```
//! use std::time::Duration;
//! use somaria::{CountOptions, Puzzle, SolveOptions, SolverConfig, Status, Stop};
//! let puzzle = somaria::load_file("models/akh-vaquot.toml".as_ref()).unwrap();
//! let report = puzzle.solve(&SolveOptions::default()).unwrap();
//! assert_eq!(report.status, Status::Solved);
//! // Unique, proven within ten seconds or stopped with an error.
//! let solver = SolverConfig { stop: Stop::after(Duration::from_secs(10)), ..SolverConfig::default() };
//! let count = puzzle.count(&CountOptions { limit: Some(2), solver, ..CountOptions::default() }).unwrap();
//! assert_eq!((count.count, count.complete), (1, true));
//! ```
//!
//! The book in the repository's `docs/` (`mdbook build docs`) explains the
//! commands, the model files and the csp language; its Library page is the
//! guide to embedding this crate.

#![warn(missing_docs)]

pub mod cnf;
pub mod compile;
pub mod deduce;
pub mod draw;
pub mod fd;
pub mod generate;
pub mod genres;
pub mod graph;
pub mod grid;
pub mod grid_models;
pub mod hints;
pub mod lang;
pub mod limits;
pub mod model;
pub mod play;
pub mod puzzles;
pub mod report;
pub mod rng;
pub mod solver;

pub use deduce::{Deductions, Fact, Rule, Wanted};
pub use draw::Scene;
pub use model::{LoadError, Source};
pub use puzzles::{
    CountOptions, CountReport, Deducible, Drawn, Error, ExplainReport, FactsReport, Puzzle, SolveOptions, SolveReport,
    Status, load, load_file, load_str,
};
pub use report::{Report, Stoppable};
pub use solver::{Backend, Progress, SolverConfig, Stop, StopCause};

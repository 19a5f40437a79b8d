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
//! ```
//! use somaria::puzzles::{self, SolveOptions, Status};
//! let puzzle = puzzles::load_file("models/akh-vaquot.toml".as_ref()).unwrap();
//! let report = puzzle.solve(&SolveOptions::default()).unwrap();
//! assert_eq!(report.status, Status::Solved);
//! ```

pub mod cnf;
pub mod compile;
pub mod deduce;
pub mod draw;
pub mod graph;
pub mod grid;
pub mod lang;
pub mod model;
pub mod puzzles;
pub mod report;
pub mod rng;
pub mod solver;

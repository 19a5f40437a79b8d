//! The csp language: MiniZinc-syntax constraints over finite domains in a
//! TOML model, read, checked and unrolled, with no SAT in sight.
//!
//! The pipeline, one module per step:
//!
//! - [`syntax`]: the expression subset's lexer, syntax tree and parser;
//! - `load`: the TOML tables, each expression parsed with its place in the
//!   file; `check`: names and types; `lower`: parameters folded in and
//!   generators unrolled into the `ir`, grouped by constraint (a top-level
//!   `forall` gives one group per instance, for `explain`);
//! - `verify`: an independent evaluator of the model's own syntax trees,
//!   which judges every answer before it is printed.
//!
//! [`crate::compile`] takes the [`Program`] on to CNF.

mod check;
pub(crate) mod ir;
pub(crate) mod load;
mod lower;
pub mod model;
pub mod syntax;
pub(crate) mod verify;

use ir::{BExpr, GridGlobal, IExpr};
use model::Sense;

/// One unrolled constraint, or one instance of a top-level `forall`.
#[derive(Clone, Debug)]
pub struct Group {
    /// The constraint's name, with the instance's loop values.
    pub name: String,
    /// The line of the constraint's expression.
    pub line: usize,
    /// The unrolled expression.
    pub(crate) expr: BExpr,
    /// Which `[[constraint]]` it came from.
    pub constraint: usize,
    /// The position in each enclosing `forall` generator.
    pub positions: Vec<usize>,
}

/// The unrolled model.
#[derive(Clone, Debug)]
pub struct Program {
    /// The groups in file order.
    pub groups: Vec<Group>,
    pub(crate) objective: Option<(Sense, IExpr)>,
    /// The line of `minimize` or `maximize`.
    pub objective_line: usize,
    /// The grid globals, in the order the constraints unroll to them.
    pub(crate) grids: Vec<GridGlobal>,
}

//! The csp language: MiniZinc-syntax constraints over finite domains in a
//! TOML model, read, checked and unrolled. It knows no SAT: [`crate::compile`]
//! takes its output on to CNF.
//!
//! The pipeline, one module per step, from a model's text to the answer's
//! check:
//!
//! - [`syntax`]: the expression subset's lexer, syntax tree and parser;
//! - `load`: the TOML tables, each expression parsed with its place in the
//!   file, then checked and unrolled, into a [`model::Model`] (the
//!   validated declarations) and a [`Program`];
//! - `check`: names resolved and types checked, every fault reported at
//!   its sub-expression before anything is unrolled;
//! - `lower`: parameters folded in and generators unrolled into the `ir`,
//!   grouped by constraint (a top-level `forall` gives one group per
//!   instance, for `explain`);
//! - `functions`: the user-defined predicates and functions, their
//!   recursion refused and their bodies checked once;
//! - `ir`: the unrolled Boolean and integer expressions, and the grid
//!   globals, which [`crate::compile`] encodes;
//! - `verify`: an independent evaluator of the model's own syntax trees,
//!   which judges every answer before it is printed.
//!
//! [`builtins`] is the one table of built-in functions and globals, with
//! the hooks `check`, `lower` and `verify` call and what each global
//! constrains and draws.
//!
//! ```
//! use somaria::lang::load_model;
//! use somaria::model::Source;
//! let text = "kind = \"csp\"\n[vars]\nx = \"1..3\"\n[[constraint]]\nexpr = 'alldifferent([x, 2])'\n";
//! let (model, program) = load_model(&Source::from_text("m.toml", text)).unwrap();
//! assert_eq!((model.vars.len(), program.groups.len()), (1, 1));
//! ```

pub mod builtins;
mod check;
pub mod design;
pub mod drawing;
mod functions;
pub mod hints;
pub(crate) mod ir;
mod load;
mod lower;
pub mod model;
pub mod parts;
pub mod syntax;
pub mod verify;

pub use load::load_model;

use ir::{BExpr, GridGlobal, IExpr};
use model::Sense;

/// One unrolled constraint, or one instance of a top-level `forall`.
#[derive(Clone, Debug)]
pub struct Group {
    /// The constraint's name, with the instance's loop values.
    pub name: String,
    /// The line of the constraint's expression.
    pub line: usize,
    /// The column where the expression starts, in characters from 1.
    pub column: usize,
    /// The unrolled expression.
    pub(crate) expr: BExpr,
    /// Which `[[constraint]]` it came from.
    pub constraint: usize,
    /// The position in each enclosing `forall` generator.
    pub positions: Vec<usize>,
    /// Each enclosing `forall` variable with its value, as the name shows it.
    pub bindings: Vec<(String, String)>,
    /// When the group is one part of a constraint instance split for
    /// reasoning ([`Program::in_parts`]), what that part says.
    pub part: Option<parts::Part>,
}

/// The unrolled model.
#[derive(Clone, Debug)]
pub struct Program {
    /// The model file as the user named it, for messages that point into it.
    pub file: String,
    /// Where each variable of the model is declared: line and column.
    pub var_places: Vec<(usize, usize)>,
    /// The groups in file order.
    pub groups: Vec<Group>,
    pub(crate) objective: Option<(Sense, IExpr)>,
    /// The line of `minimize` or `maximize`.
    pub objective_line: usize,
    /// The grid globals, in the order the constraints unroll to them.
    pub(crate) grids: Vec<GridGlobal>,
}

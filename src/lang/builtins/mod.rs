//! The built-in functions and globals, in one table: each entry has its
//! name, the forms it takes, and its hooks for the three passes that read
//! calls: the checker types it, the unroller lowers it to the IR, the
//! verifier evaluates it on an answer's values. An entry also records
//! which arguments hold the variables it constrains (its scope, from which
//! a hint names the cells a constraint touches) and what a picture draws
//! for it. Adding a built-in means one entry and its hooks, in the file of
//! its kind.
//!
//! The verify hooks are written apart from the lowering hooks beside them:
//! they compute on values, never on the IR, so a lowering bug cannot hide
//! behind a shared helper.
//!
//! ```
//! use somaria::lang::builtins::{self, Drawing};
//! let path = builtins::lookup("grid_path").unwrap();
//! // The cells, and the across and down step arrays when given.
//! assert_eq!((path.scope, path.drawing), (&[0, 5, 6][..], Drawing::CellRoute));
//! let count = builtins::lookup("count").unwrap();
//! assert_eq!((count.arities, count.drawing), (&[2, 3][..], Drawing::Nothing));
//! assert!(builtins::lookup("alldiferent").is_none());
//! ```

mod alldifferent;
mod arithmetic;
mod arrays;
mod circuit;
mod counting;
mod graph;
mod grid;
mod logic;
mod ordering;
mod place;
mod regular;
mod sets;
mod sight;
mod table;

use super::check::{Fault, TypedCall};
use super::ir::BExpr;
use super::lower::{LVal, LoweredCall, Lowerer};
use super::model::{Base, Shape, Type};
use super::verify::{Ev, Eval, EvaluatedCall};

/// One built-in function or global.
#[derive(Debug)]
pub struct Builtin {
    /// Its name in expressions.
    pub name: &'static str,
    /// The forms it takes, as messages quote them.
    pub forms: &'static str,
    /// The numbers of arguments it takes. In the generator form
    /// `name(generators)(body)`, the body's values are its one argument.
    pub arities: &'static [usize],
    /// The positions of the arguments whose decision variables it
    /// constrains or, for a function that reshapes an array (`row`,
    /// `array2d`), passes on; positions past a call's arguments do not
    /// apply. The cells a constraint touches are those these arguments
    /// mention.
    pub scope: &'static [usize],
    /// What a picture draws for it.
    pub drawing: Drawing,
    /// A grid global: a constraint of its own only (never negated, reified
    /// or made conditional), unrolled to a grid global of the IR, and
    /// judged on the route the answer gives as its witness.
    pub grid_global: bool,
    /// For a generator form that takes a `where` on decision variables
    /// (`forall`, `exists`, `sum`): an element kept under its condition.
    pub(crate) conditional: Option<fn(BExpr, LVal) -> LVal>,
    /// For `forall` and `exists`: the element value that settles the call,
    /// so that the verifier can stop there.
    pub(crate) settled_by: Option<bool>,
    /// Types a call whose arity is checked.
    pub(crate) check: Check,
    /// Unrolls a checked call.
    pub(crate) lower: Lower,
    /// Evaluates a call on values.
    pub(crate) verify: Verify,
}

type Check = fn(&TypedCall<'_>) -> Result<Type, Fault>;
type Lower = fn(&mut Lowerer<'_, '_>, &LoweredCall) -> Result<LVal, Fault>;
type Verify = fn(&EvaluatedCall<'_>) -> Eval<Ev>;

impl Builtin {
    /// A plain built-in, as most are: one argument, whose variables it
    /// constrains, drawn as nothing, not a grid global, with no generator
    /// hooks. An entry that differs says so in its fields and takes the
    /// rest from here (`..Builtin::plain(...)`).
    const fn plain(name: &'static str, forms: &'static str, check: Check, lower: Lower, verify: Verify) -> Builtin {
        Builtin {
            name,
            forms,
            arities: &[1],
            scope: &[0],
            drawing: Drawing::Nothing,
            grid_global: false,
            conditional: None,
            settled_by: None,
            check,
            lower,
            verify,
        }
    }
}

/// Checks that argument `i` of `call` is a fixed set of `base`, or says it
/// expected `expected`.
fn fixed_set(call: &TypedCall<'_>, i: usize, base: Base, expected: &str) -> Result<(), Fault> {
    let (ty, _) = &call.args[i];
    if ty.shape != Shape::Set || !ty.base.fits(base) {
        return Err(call.wrong(i, expected));
    }
    Ok(())
}

/// What a picture draws for a built-in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Drawing {
    /// Nothing of its own: the values it reads are drawn with their arrays.
    Nothing,
    /// `grid_path`: a route through the cells of its first argument, from
    /// its start to its end.
    CellRoute,
    /// `grid_loop`: a closed loop through the points of its first argument,
    /// each step between 4-neighbours, which slitherlink reads as the
    /// corners of a grid of cells (its step arrays, when given, are the
    /// grid lines the loop runs along).
    CornerLoop,
    /// `grid_connected`: a region, the cells of its first argument that are
    /// on.
    Region,
    /// `grid_regions`: a division of the grid, whose borders are the steps
    /// that are not joined.
    Borders,
    /// `graph_connected`: a connected set of a graph's nodes, the ones of
    /// its first argument that are on.
    GraphNodes,
    /// `graph_acyclic`: a forest, the edges of its first argument that are
    /// used.
    GraphEdges,
}

/// Every built-in, in the order messages list them.
static BUILTINS: [Builtin; 46] = [
    logic::FORALL,
    logic::EXISTS,
    arithmetic::SUM,
    arithmetic::PRODUCT,
    arithmetic::MIN,
    arithmetic::MAX,
    arithmetic::ABS,
    arithmetic::BOOL2INT,
    alldifferent::ALLDIFFERENT,
    alldifferent::ALL_DIFFERENT,
    counting::COUNT,
    counting::EXACTLY,
    counting::AT_MOST,
    counting::AT_LEAST,
    table::TABLE,
    ordering::INCREASING,
    ordering::DECREASING,
    ordering::ALL_EQUAL,
    ordering::LEX_LESS,
    ordering::LEX_LESSEQ,
    ordering::AMONG,
    ordering::NVALUE,
    ordering::GLOBAL_CARDINALITY,
    ordering::INVERSE,
    ordering::VALUE_PRECEDE,
    circuit::CIRCUIT,
    circuit::SUBCIRCUIT,
    regular::REGULAR,
    arrays::ROW,
    arrays::COL,
    arrays::INDEX_SET,
    arrays::INDEX_SET_1OF2,
    arrays::INDEX_SET_2OF2,
    arrays::LENGTH,
    arrays::ARRAY2D,
    arrays::ARRAY1D,
    arrays::REVERSE,
    sets::CARD,
    grid::GRID_PATH,
    grid::GRID_LOOP,
    grid::GRID_CONNECTED,
    grid::GRID_REGIONS,
    graph::GRAPH_CONNECTED,
    graph::GRAPH_ACYCLIC,
    sight::GRID_SIGHT,
    place::GRID_PLACE,
];

/// The built-in called `name`.
pub fn lookup(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}

/// Every built-in, in the order messages list them.
pub fn all() -> &'static [Builtin] {
    &BUILTINS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_forms_start_with_them() {
        for (k, builtin) in BUILTINS.iter().enumerate() {
            assert!(BUILTINS[..k].iter().all(|b| b.name != builtin.name), "{} twice", builtin.name);
            assert!(builtin.forms.starts_with(&format!("{}(", builtin.name)), "{}", builtin.forms);
            assert!(!builtin.arities.is_empty());
        }
    }

    #[test]
    fn grid_globals_are_drawn_and_the_rest_are_not() {
        for builtin in &BUILTINS {
            assert_eq!(builtin.grid_global, builtin.drawing != Drawing::Nothing, "{}", builtin.name);
        }
    }
}

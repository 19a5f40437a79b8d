//! Functions on fixed sets: `card`. (`in`, `..`, `union`, `intersect`,
//! `diff` and `symdiff` are operators, in the checker, the unroller and
//! the verifier.)

use super::{Builtin, Drawing};
use crate::lang::check::{Fault, TypedCall};
use crate::lang::ir::IExpr;
use crate::lang::lower::{LVal, internal};
use crate::lang::model::{Base, Shape, Type};
use crate::lang::verify::{Ev, bug};

pub(super) const CARD: Builtin = Builtin {
    name: "card",
    forms: "card(fixed set)",
    arities: &[1],
    scope: &[],
    drawing: Drawing::Nothing,
    grid_global: false,
    conditional: None,
    settled_by: None,
    check: check_card,
    lower: |_, call| match &call.args[0].0 {
        LVal::Set(set, _) => Ok(LVal::Int(IExpr::constant(set.len() as i64), Base::Int)),
        _ => Err(internal(call.args[0].1, "a set")),
    },
    // Counted value by value, not from the intervals' widths.
    verify: |call| match &call.args[0] {
        Ev::Set(set) => Ok(Ev::Int(set.values().count() as i64)),
        _ => Err(bug("card of a non-set")),
    },
};

fn check_card(call: &TypedCall<'_>) -> Result<Type, Fault> {
    if call.args[0].0.shape != Shape::Set {
        return Err(call.wrong(0, "a fixed set such as `1..n`, `{1, 3}`, a set parameter or `S union T`"));
    }
    Ok(Type::scalar(Base::Int, false))
}

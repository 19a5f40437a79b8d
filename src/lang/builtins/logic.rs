//! `forall` and `exists` over an array of Booleans.

use super::{Builtin, Drawing};
use crate::lang::check::{Fault, TypedCall};
use crate::lang::ir::BExpr;
use crate::lang::lower::LVal;
use crate::lang::model::{Base, Type};
use crate::lang::verify::{Ev, Eval, EvaluatedCall, bug};

pub(super) const FORALL: Builtin = Builtin {
    name: "forall",
    forms: "forall(array of bool) or forall(generators)(bool)",
    arities: &[1],
    scope: &[0],
    drawing: Drawing::Nothing,
    grid_global: false,
    conditional: Some(|condition, element| match element {
        LVal::Bool(b) => LVal::Bool(BExpr::implies(condition, b)),
        other => other,
    }),
    settled_by: Some(false),
    check,
    lower: |_, call| Ok(LVal::Bool(BExpr::and(call.bools(0)?))),
    verify: |call| Ok(Ev::Bool(truths(call)?.iter().all(|&b| b))),
};

pub(super) const EXISTS: Builtin = Builtin {
    name: "exists",
    forms: "exists(array of bool) or exists(generators)(bool)",
    arities: &[1],
    scope: &[0],
    drawing: Drawing::Nothing,
    grid_global: false,
    conditional: Some(|condition, element| match element {
        LVal::Bool(b) => LVal::Bool(BExpr::and(vec![condition, b])),
        other => other,
    }),
    settled_by: Some(true),
    check,
    lower: |_, call| Ok(LVal::Bool(BExpr::or(call.bools(0)?))),
    verify: |call| Ok(Ev::Bool(truths(call)?.iter().any(|&b| b))),
};

fn check(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let (_, var, _) = call.array(0, Some(Base::Bool), None, "an array of Booleans")?;
    Ok(Type::scalar(Base::Bool, var))
}

/// The values of the array of Booleans.
fn truths(call: &EvaluatedCall<'_>) -> Eval<Vec<bool>> {
    call.elems(0)?
        .iter()
        .map(|e| match e {
            Ev::Bool(b) => Ok(*b),
            _ => Err(bug("a non-Boolean element")),
        })
        .collect()
}

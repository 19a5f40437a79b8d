//! `alldifferent` (also spelt `all_different`): the elements of an array
//! take pairwise different values.

use super::Builtin;
use crate::lang::check::{Fault, TypedCall};
use crate::lang::ir::{BExpr, IExpr};
use crate::lang::lower::{LVal, LoweredCall, Lowerer};
use crate::lang::model::{Base, IntSet, Type};
use crate::lang::verify::{Ev, Eval, EvaluatedCall};

pub(super) const ALLDIFFERENT: Builtin =
    Builtin { name: "alldifferent", forms: "alldifferent(array of int)", ..ALL_DIFFERENT };

pub(super) const ALL_DIFFERENT: Builtin =
    Builtin::plain("all_different", "all_different(array of int)", check, lower, verify);

fn check(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let (_, var, _) = call.array(0, None, None, "an array of integers or enum values")?;
    Ok(Type::scalar(Base::Bool, var))
}

fn lower(_: &mut Lowerer<'_, '_>, call: &LoweredCall) -> Result<LVal, Fault> {
    let items = call.ints(0)?;
    if items.len() < 2 {
        return Ok(LVal::Bool(BExpr::Const(true)));
    }
    if items.iter().all(|x| x.as_const().is_some()) {
        let values: Vec<i64> = items.iter().filter_map(IExpr::as_const).collect();
        let distinct = IntSet::from_values(values.iter().copied()).len() as usize == values.len();
        return Ok(LVal::Bool(BExpr::Const(distinct)));
    }
    Ok(LVal::Bool(BExpr::AllDifferent(items)))
}

/// False when an element is undefined.
fn verify(call: &EvaluatedCall<'_>) -> Eval<Ev> {
    let Some(items) = call.ints(0)?.into_iter().collect::<Option<Vec<i64>>>() else { return Ok(Ev::Bool(false)) };
    let distinct = IntSet::from_values(items.iter().copied()).len() as usize;
    Ok(Ev::Bool(distinct == items.len()))
}

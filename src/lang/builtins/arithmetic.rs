//! Integer functions: `sum`, `product`, `min`, `max`, `abs` and
//! `bool2int`.

use super::{Builtin, Drawing};
use crate::lang::check::{Fault, TypedCall};
use crate::lang::ir::{BExpr, IExpr};
use crate::lang::lower::{LVal, LoweredCall, internal};
use crate::lang::model::{Base, Type};
use crate::lang::verify::{Ev, Eval, EvaluatedCall, bug};

pub(super) const SUM: Builtin = Builtin {
    name: "sum",
    forms: "sum(array of int) or sum(generators)(int)",
    arities: &[1],
    scope: &[0],
    drawing: Drawing::Nothing,
    grid_global: false,
    conditional: Some(|condition, element| match element {
        LVal::Int(x, base) => LVal::Int(IExpr::ite(vec![(condition, x)], IExpr::constant(0)), base),
        LVal::Bool(b) => LVal::Int(IExpr::bool2int(BExpr::and(vec![condition, b])), Base::Int),
        other => other,
    }),
    settled_by: None,
    check: check_fold,
    lower: |_, call| {
        let terms = call.ints(0)?.into_iter().map(|x| (1, x)).collect();
        Ok(LVal::Int(IExpr::sum(terms, 0).map_err(|_| call.overflow())?, Base::Int))
    },
    verify: |call| fold(call, 0, i64::checked_add),
};

pub(super) const PRODUCT: Builtin = Builtin {
    name: "product",
    forms: "product(array of int) or product(generators)(int)",
    arities: &[1],
    scope: &[0],
    drawing: Drawing::Nothing,
    grid_global: false,
    conditional: None,
    settled_by: None,
    check: check_fold,
    lower: |_, call| {
        let mut product = IExpr::constant(1);
        for x in call.ints(0)? {
            product = IExpr::mul(product, x).map_err(|_| call.overflow())?;
        }
        Ok(LVal::Int(product, Base::Int))
    },
    verify: |call| fold(call, 1, i64::checked_mul),
};

pub(super) const MIN: Builtin = Builtin {
    arities: &[1, 2],
    scope: &[0, 1],
    ..Builtin::plain(
        "min",
        "min(a, b) or min(array)",
        check_extremum,
        |_, call| lower_extremum(call, "min", false),
        |call| verify_extremum(call, |items| items.iter().min().copied()),
    )
};

pub(super) const MAX: Builtin = Builtin {
    arities: &[1, 2],
    scope: &[0, 1],
    ..Builtin::plain(
        "max",
        "max(a, b) or max(array)",
        check_extremum,
        |_, call| lower_extremum(call, "max", true),
        |call| verify_extremum(call, |items| items.iter().max().copied()),
    )
};

pub(super) const ABS: Builtin = Builtin::plain(
    "abs",
    "abs(int)",
    |call| Ok(Type::scalar(Base::Int, call.scalar(0, Base::Int, true, "an integer")?)),
    |_, call| Ok(LVal::Int(IExpr::abs(call.int(0)?), Base::Int)),
    |call| Ok(call.int(0)?.map_or(Ev::Undef, |v| Ev::Int(v.abs()))),
);

pub(super) const BOOL2INT: Builtin = Builtin {
    name: "bool2int",
    forms: "bool2int(bool)",
    arities: &[1],
    scope: &[0],
    drawing: Drawing::Nothing,
    grid_global: false,
    conditional: None,
    settled_by: None,
    check: |call| Ok(Type::scalar(Base::Int, call.scalar(0, Base::Bool, true, "a Boolean")?)),
    lower: |_, call| match &call.args[0].0 {
        LVal::Bool(b) => Ok(LVal::Int(IExpr::bool2int(b.clone()), Base::Int)),
        _ => Err(internal(call.args[0].1, "a Boolean")),
    },
    verify: |call| match call.args[0] {
        Ev::Bool(b) => Ok(Ev::Int(i64::from(b))),
        _ => Err(bug("bool2int of a non-Boolean")),
    },
};

/// `sum` and `product`: an array of integers, or of Booleans counted as 0
/// and 1.
fn check_fold(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let what_for = "an array of integers or Booleans";
    let (base, var, _) = call.array(0, Some(call.args[0].0.base), None, what_for)?;
    if !crate::lang::check::int_position(base) {
        return Err(call.wrong(0, what_for));
    }
    Ok(Type::scalar(Base::Int, var))
}

/// `sum` or `product` of the array from `start`; undefined when an element
/// is.
fn fold(call: &EvaluatedCall<'_>, start: i64, step: fn(i64, i64) -> Option<i64>) -> Eval<Ev> {
    let mut total = start;
    for x in call.ints(0)? {
        let Some(x) = x else { return Ok(Ev::Undef) };
        total = step(total, x).ok_or_else(|| bug("an overflowing sum"))?;
    }
    Ok(Ev::Int(total))
}

/// `min` and `max`: of two values of one kind, or of an array.
fn check_extremum(call: &TypedCall<'_>) -> Result<Type, Fault> {
    if call.args.len() == 1 {
        let (base, var, _) = call.array(0, None, None, "an array of integers or enum values")?;
        return Ok(Type::scalar(base, var));
    }
    // A Boolean is coerced to 0 or 1, as MiniZinc does: `max(x < y, z)`.
    let base = match call.args[0].0.base {
        Base::Bool => Base::Int,
        base => base,
    };
    if !base.is_intlike() {
        return Err(call.wrong(0, "an integer or enum value"));
    }
    let a = call.scalar(0, base, true, "an integer or enum value")?;
    let b = call.scalar(1, base, true, "a value of the first argument's type")?;
    Ok(Type::scalar(base, a || b))
}

fn lower_extremum(call: &LoweredCall, name: &str, max: bool) -> Result<LVal, Fault> {
    let base = match &call.args[0].0 {
        LVal::Array(a) if a.base != Base::Bool => a.base,
        LVal::Int(_, b) => *b,
        _ => Base::Int,
    };
    let items = if call.args.len() == 2 { vec![call.int(0)?, call.int(1)?] } else { call.ints(0)? };
    if items.is_empty() {
        return Err(Fault::new(call.span, format!("`{name}` of an empty array"), "an array with at least one element"));
    }
    Ok(LVal::Int(IExpr::extremum(items, max), base))
}

/// The value `pick` chooses among the items; undefined when one is.
fn verify_extremum(call: &EvaluatedCall<'_>, pick: fn(&[i64]) -> Option<i64>) -> Eval<Ev> {
    let items = if call.args.len() == 2 { vec![call.int(0)?, call.int(1)?] } else { call.ints(0)? };
    let Some(items) = items.into_iter().collect::<Option<Vec<i64>>>() else { return Ok(Ev::Undef) };
    pick(&items).map(Ev::Int).ok_or_else(|| bug("an empty min or max"))
}

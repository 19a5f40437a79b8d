//! How many elements of an array take a value: `count`, `exactly`,
//! `at_most` and `at_least`.

use super::{Builtin, Drawing};
use crate::lang::check::{Fault, TypedCall};
use crate::lang::ir::{BExpr, Cmp, IExpr, Overflow};
use crate::lang::lower::{LVal, LoweredCall};
use crate::lang::model::{Base, Type};
use crate::lang::verify::{Ev, Eval, EvaluatedCall};

pub(super) const COUNT: Builtin = Builtin {
    name: "count",
    forms: "count(array, value) or count(array, value, n)",
    arities: &[2, 3],
    scope: &[0, 1, 2],
    drawing: Drawing::Nothing,
    grid_global: false,
    conditional: None,
    settled_by: None,
    check: check_count,
    lower: |_, call| {
        let total = count(call.ints(0)?, call.int(1)?).map_err(|_| call.overflow())?;
        if call.args.len() == 3 {
            return Ok(LVal::Bool(BExpr::cmp(Cmp::Eq, total, call.int(2)?)));
        }
        Ok(LVal::Int(total, Base::Int))
    },
    verify: |call| {
        let n = value_count(&call.ints(0)?, call.int(1)?);
        if call.args.len() == 3 {
            let c = call.int(2)?;
            return Ok(Ev::Bool(n.is_some() && c == n));
        }
        Ok(n.map_or(Ev::Undef, Ev::Int))
    },
};

pub(super) const EXACTLY: Builtin = Builtin {
    name: "exactly",
    forms: "exactly(n, array, value)",
    lower: |_, call| bounded(call, |total, n| BExpr::cmp(Cmp::Eq, total, n)),
    verify: |call| verify_bounded(call, |c, n| c == n),
    ..AT_LEAST
};

pub(super) const AT_MOST: Builtin = Builtin {
    name: "at_most",
    forms: "at_most(n, array, value)",
    lower: |_, call| bounded(call, |total, n| BExpr::cmp(Cmp::Le, total, n)),
    verify: |call| verify_bounded(call, |c, n| c <= n),
    ..AT_LEAST
};

pub(super) const AT_LEAST: Builtin = Builtin {
    arities: &[3],
    scope: &[0, 1, 2],
    ..Builtin::plain(
        "at_least",
        "at_least(n, array, value)",
        check_bounded,
        |_, call| bounded(call, |total, n| BExpr::cmp(Cmp::Le, n, total)),
        |call| verify_bounded(call, |c, n| c >= n),
    )
};

/// `count(array, value)`, an integer, or `count(array, value, n)`, a
/// constraint.
fn check_count(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let (base, var, _) = call.array(0, None, None, "an array of integers or enum values")?;
    let v = call.scalar(1, base, true, "a value of the array's element type")?;
    if call.args.len() == 3 {
        let c = call.scalar(2, Base::Int, true, "an integer count")?;
        return Ok(Type::scalar(Base::Bool, var || v || c));
    }
    Ok(Type::scalar(Base::Int, var || v))
}

/// `exactly`, `at_most` and `at_least`: `(n, array, value)`.
fn check_bounded(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let n = call.scalar(0, Base::Int, true, "an integer count")?;
    let (base, var, _) = call.array(1, None, None, "an array of integers or enum values")?;
    let v = call.scalar(2, base, true, "a value of the array's element type")?;
    Ok(Type::scalar(Base::Bool, n || var || v))
}

/// How many of `items` equal `v`. As in MiniZinc, an undefined element or
/// value leaves the count undefined: the zero-weight terms carry their
/// definedness.
fn count(items: Vec<IExpr>, v: IExpr) -> Result<IExpr, Overflow> {
    let mut terms: Vec<(i64, IExpr)> =
        items.iter().map(|x| (1, IExpr::bool2int(BExpr::cmp(Cmp::Eq, x.clone(), v.clone())))).collect();
    terms.extend(items.into_iter().chain([v.clone()]).filter(|x| x.partial).map(|x| (0, x)));
    IExpr::sum(terms, 0)
}

/// `relation(count, n)` for `(n, array, value)`.
fn bounded(call: &LoweredCall, relation: fn(IExpr, IExpr) -> BExpr) -> Result<LVal, Fault> {
    let n = call.int(0)?;
    let total = count(call.ints(1)?, call.int(2)?).map_err(|_| call.overflow())?;
    Ok(LVal::Bool(relation(total, n)))
}

/// How many of `items` equal `v`; undefined when an element or the value
/// is.
fn value_count(items: &[Option<i64>], v: Option<i64>) -> Option<i64> {
    let items: Vec<i64> = items.iter().copied().collect::<Option<_>>()?;
    let v = v?;
    Some(items.iter().filter(|&&x| x == v).count() as i64)
}

/// `holds(count, n)` for `(n, array, value)`; false when anything is
/// undefined.
fn verify_bounded(call: &EvaluatedCall<'_>, holds: fn(i64, i64) -> bool) -> Eval<Ev> {
    let Some(n) = call.int(0)? else { return Ok(Ev::Bool(false)) };
    let Some(c) = value_count(&call.ints(1)?, call.int(2)?) else { return Ok(Ev::Bool(false)) };
    Ok(Ev::Bool(holds(c, n)))
}

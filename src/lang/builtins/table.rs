//! `table(array, tuples)`: the array's values are one of the tuples.

use super::Builtin;
use crate::lang::check::{Fault, TypedCall};
use crate::lang::ir::{BExpr, IExpr};
use crate::lang::lower::{LVal, LoweredCall, Lowerer, internal};
use crate::lang::model::{Base, Type};
use crate::lang::verify::{Ev, Eval, EvaluatedCall, bug};

pub(super) const TABLE: Builtin = Builtin {
    arities: &[2],
    ..Builtin::plain("table", "table(array of int, [| tuple | tuple |])", check, lower, verify)
};

fn check(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let (base, var, dims) = call.array(0, None, None, "a 1-D array of integers or enum values")?;
    if dims != 1 {
        return Err(call.wrong(0, "a 1-D array of integers or enum values"));
    }
    let (_, tuples_var, _) = call.array(
        1,
        Some(base),
        Some(2),
        "a 2-D array of tuples such as [| 1, 2 | 3, 4 |], of the first array's element type",
    )?;
    if tuples_var {
        return Err(Fault::new(call.args[1].1.span, "tuples that depend on decision variables", "fixed tuples"));
    }
    Ok(Type::scalar(Base::Bool, var))
}

fn lower(_: &mut Lowerer<'_, '_>, call: &LoweredCall) -> Result<LVal, Fault> {
    let items = call.ints(0)?;
    let at = call.args[1].1;
    let tuples = call.array(1, "a tuple array")?;
    let width = (tuples.index[1].1 - tuples.index[1].0 + 1).max(0) as usize;
    let rows = (tuples.index[0].1 - tuples.index[0].0 + 1).max(0) as usize;
    if rows > 0 && width != items.len() {
        return Err(Fault::new(
            at,
            format!("tuples of {width} values"),
            format!("tuples of {} values, one per element of the first array", items.len()),
        ));
    }
    let mut table = Vec::with_capacity(rows);
    for r in 0..rows {
        let mut tuple = Vec::with_capacity(width);
        for c in 0..width {
            match &tuples.elems[r * width + c] {
                LVal::Int(x, _) => tuple.push(x.as_const().ok_or_else(|| internal(at, "a fixed tuple"))?),
                _ => return Err(internal(at, "an integer tuple")),
            }
        }
        table.push(tuple);
    }
    if items.iter().all(|x| x.as_const().is_some()) {
        let values: Vec<i64> = items.iter().filter_map(IExpr::as_const).collect();
        return Ok(LVal::Bool(BExpr::Const(table.contains(&values))));
    }
    Ok(LVal::Bool(BExpr::Table(items, table)))
}

/// False when an element is undefined.
fn verify(call: &EvaluatedCall<'_>) -> Eval<Ev> {
    let Some(items) = call.ints(0)?.into_iter().collect::<Option<Vec<i64>>>() else { return Ok(Ev::Bool(false)) };
    let Ev::Array(index, tuples) = &call.args[1] else { return Err(bug("table without tuples")) };
    let width = (index[1].1 - index[1].0 + 1).max(0) as usize;
    let found = tuples
        .chunks(width.max(1))
        .any(|row| width == items.len() && row.iter().zip(&items).all(|(t, x)| *t == Ev::Int(*x)));
    Ok(Ev::Bool(found && !tuples.is_empty()))
}

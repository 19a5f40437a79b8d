//! Functions on arrays that constrain nothing: `row`, `col`, the index
//! sets, `length`, `array1d`, `array2d` and `reverse` reshape an array or
//! read its shape.

use super::Builtin;
use crate::lang::check::{Fault, TypedCall};
use crate::lang::ir::IExpr;
use crate::lang::lower::{LArray, LVal, LoweredCall, Lowerer, internal};
use crate::lang::model::{Base, IntSet, Shape, Type, flat_position};
use crate::lang::verify::{Ev, Eval, EvaluatedCall, bug};

pub(super) const ROW: Builtin = Builtin {
    arities: &[2],
    ..Builtin::plain(
        "row",
        "row(2-D array, i)",
        |call| check_line(call, 0),
        |lowerer, call| lower_line(lowerer, call, 0),
        |call| verify_line(call, 0),
    )
};

pub(super) const COL: Builtin = Builtin {
    name: "col",
    forms: "col(2-D array, j)",
    check: |call| check_line(call, 1),
    lower: |lowerer, call| lower_line(lowerer, call, 1),
    verify: |call| verify_line(call, 1),
    ..ROW
};

pub(super) const INDEX_SET: Builtin = Builtin {
    name: "index_set",
    forms: "index_set(1-D array)",
    arities: &[1],
    scope: &[],
    check: |call| check_index_set(call, 1, 0),
    lower: |_, call| lower_index_set(call, 0),
    verify: |call| verify_index_set(call, 0),
    ..ROW
};

pub(super) const INDEX_SET_1OF2: Builtin = Builtin {
    name: "index_set_1of2",
    forms: "index_set_1of2(2-D array)",
    check: |call| check_index_set(call, 2, 0),
    ..INDEX_SET
};

pub(super) const INDEX_SET_2OF2: Builtin = Builtin {
    name: "index_set_2of2",
    forms: "index_set_2of2(2-D array)",
    check: |call| check_index_set(call, 2, 1),
    lower: |_, call| lower_index_set(call, 1),
    verify: |call| verify_index_set(call, 1),
    ..INDEX_SET
};

pub(super) const LENGTH: Builtin = Builtin {
    name: "length",
    forms: "length(array)",
    check: |call| {
        call.array(0, Some(call.args[0].0.base), None, "an array")?;
        Ok(Type::scalar(Base::Int, false))
    },
    lower: |_, call| {
        let a = call.array(0, "an array")?;
        Ok(LVal::Int(IExpr::constant(a.elems.len() as i64), Base::Int))
    },
    verify: |call| Ok(Ev::Int(call.elems(0)?.len() as i64)),
    ..INDEX_SET
};

pub(super) const ARRAY2D: Builtin = Builtin {
    name: "array2d",
    forms: "array2d(rows, cols, 1-D array), such as array2d(1..n, 1..m, [e | i in 1..n, j in 1..m])",
    arities: &[3],
    scope: &[2],
    check: check_array2d,
    lower: lower_array2d,
    verify: verify_array2d,
    ..ROW
};

pub(super) const ARRAY1D: Builtin = Builtin {
    name: "array1d",
    forms: "array1d(array) or array1d(index set, array), such as array1d(1..n*n, grid)",
    arities: &[1, 2],
    scope: &[0, 1],
    check: check_array1d,
    lower: lower_array1d,
    verify: verify_array1d,
    ..ROW
};

pub(super) const REVERSE: Builtin = Builtin {
    name: "reverse",
    forms: "reverse(1-D array)",
    arities: &[1],
    scope: &[0],
    check: |call| {
        call.array(0, Some(call.args[0].0.base), Some(1), "a 1-D array")?;
        Ok(call.args[0].0.clone())
    },
    lower: |_, call| {
        let a = call.array(0, "a 1-D array")?;
        Ok(LVal::Array(LArray { elems: a.elems.iter().rev().cloned().collect(), ..a.clone() }))
    },
    // As MiniZinc defines it: element i is x[min + max - i], over the same index set.
    verify: |call| {
        let Ev::Array(index, elems) = &call.args[0] else { return Err(bug("reverse of a non-array")) };
        let (lo, hi) = index[0];
        let at = |i: i64| elems[(lo + hi - i - lo) as usize].clone();
        Ok(Ev::Array(index.clone(), (lo..=hi).map(at).collect()))
    },
    ..ROW
};

/// `array1d(a)`, over `1..length(a)`, or `array1d(S, a)`, over `S`: the
/// elements of an array of any dimensions, row by row.
fn check_array1d(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let (index, of) = match call.args.len() {
        1 => (Base::Int, 0),
        _ => {
            let ty = &call.args[0].0;
            if ty.shape != Shape::Set {
                return Err(call.wrong(0, "the index range of the result, such as `1..n*n`"));
            }
            (if ty.base == Base::Any { Base::Int } else { ty.base }, 1)
        }
    };
    let (base, var, _) = call.array(of, Some(call.args[of].0.base), None, "an array of the elements")?;
    Ok(Type { base, shape: Shape::Array(vec![index]), var })
}

fn lower_array1d(_: &mut Lowerer<'_, '_>, call: &LoweredCall) -> Result<LVal, Fault> {
    let of = call.args.len() - 1;
    let a = call.array(of, "an array")?;
    let n = a.elems.len() as i64;
    let (range, base) = match &call.args[..of] {
        [] => ((1, n), Base::Int),
        [(LVal::Set(set, base), at)] => match (set.intervals(), set.len() == n as u64) {
            ([], true) => ((1, 0), *base),
            ([(lo, hi)], true) => ((*lo, *hi), *base),
            (_, false) => {
                return Err(Fault::new(
                    *at,
                    format!("the index set {set}, of {} values", set.len()),
                    format!("{n} values, one per element of the array"),
                ));
            }
            _ => {
                return Err(Fault::new(
                    *at,
                    format!("the index set {set}, which has gaps"),
                    "a contiguous range such as `1..n`",
                ));
            }
        },
        _ => return Err(internal(call.span, "an index set")),
    };
    let base_index = if base == Base::Any { Base::Int } else { base };
    Ok(LVal::Array(LArray { index: vec![range], index_bases: vec![base_index], base: a.base, elems: a.elems.clone() }))
}

fn verify_array1d(call: &EvaluatedCall<'_>) -> Eval<Ev> {
    let items = call.elems(call.args.len() - 1)?.to_vec();
    let range = match call.args.first() {
        Some(Ev::Set(set)) if call.args.len() == 2 => match (set.min(), set.max()) {
            (Some(lo), Some(hi)) if (hi - lo + 1) as usize == items.len() => (lo, hi),
            (None, None) if items.is_empty() => (1, 0),
            _ => return Err(bug("array1d over the wrong index set")),
        },
        _ => (1, items.len() as i64),
    };
    Ok(Ev::Array(vec![range], items))
}

/// `row` (`which` 0) or `col` (1) of a 2-D array, at a fixed index.
fn check_line(call: &TypedCall<'_>, which: usize) -> Result<Type, Fault> {
    let ty = &call.args[0].0;
    call.array(0, Some(ty.base), Some(2), "a 2-D array")?;
    let index = call.index(0);
    call.scalar(1, index[which], false, "a fixed index")?;
    Ok(Type { base: ty.base, shape: Shape::Array(vec![index[1 - which]]), var: ty.var })
}

fn lower_line(lowerer: &mut Lowerer<'_, '_>, call: &LoweredCall, which: usize) -> Result<LVal, Fault> {
    let a = call.array(0, "a 2-D array")?;
    let at = call.args[1].1;
    let fixed = call.fixed(1, "a fixed index")?;
    let (lo, hi) = a.index[which];
    if fixed < lo || fixed > hi {
        return Err(lowerer.out_of_range(at, fixed, a.index_bases[which], (lo, hi), "the array"));
    }
    let other = a.index[1 - which];
    let mut elems = Vec::new();
    for k in other.0..=other.1 {
        let tuple = if which == 0 { [fixed, k] } else { [k, fixed] };
        let position = flat_position(&a.index, &tuple).ok_or_else(|| internal(call.span, "a checked index"))?;
        elems.push(a.elems[position].clone());
    }
    Ok(LVal::Array(LArray { index: vec![other], index_bases: vec![a.index_bases[1 - which]], base: a.base, elems }))
}

fn verify_line(call: &EvaluatedCall<'_>, which: usize) -> Eval<Ev> {
    let Ev::Array(index, elems) = &call.args[0] else { return Err(bug("row of a non-array")) };
    let Some(fixed) = call.int(1)? else { return Err(bug("an undefined row")) };
    let other = index[1 - which];
    let mut out = Vec::new();
    for k in other.0..=other.1 {
        let tuple = if which == 0 { [fixed, k] } else { [k, fixed] };
        let p = flat_position(index, &tuple).ok_or_else(|| bug("a row out of range"))?;
        out.push(elems[p].clone());
    }
    Ok(Ev::Array(vec![other], out))
}

/// The index set of dimension `which` of an array of `dims` dimensions.
fn check_index_set(call: &TypedCall<'_>, dims: usize, which: usize) -> Result<Type, Fault> {
    let what_for = if dims == 1 { "a 1-D array" } else { "a 2-D array" };
    call.array(0, Some(call.args[0].0.base), Some(dims), what_for)?;
    Ok(Type { base: call.index(0)[which], shape: Shape::Set, var: false })
}

fn lower_index_set(call: &LoweredCall, which: usize) -> Result<LVal, Fault> {
    let a = call.array(0, "an array")?;
    let (lo, hi) = a.index[which];
    Ok(LVal::Set(IntSet::range(lo, hi), a.index_bases[which]))
}

fn verify_index_set(call: &EvaluatedCall<'_>, which: usize) -> Eval<Ev> {
    let Ev::Array(index, _) = &call.args[0] else { return Err(bug("index_set of a non-array")) };
    let (lo, hi) = index[which];
    Ok(Ev::Set(IntSet::range(lo, hi)))
}

/// `array2d(rows, cols, elements)`: two index sets and a 1-D array.
fn check_array2d(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let mut index = Vec::new();
    for (i, which) in [(0, "rows"), (1, "columns")] {
        let ty = &call.args[i].0;
        if ty.shape != Shape::Set {
            return Err(call.wrong(i, format!("the index range of the {which}, such as `1..n`")));
        }
        index.push(if ty.base == Base::Any { Base::Int } else { ty.base });
    }
    let (base, var, dims) = call.array(2, Some(call.args[2].0.base), None, "a 1-D array of the elements")?;
    if dims != 1 {
        return Err(call.wrong(2, "a 1-D array of the elements, row by row"));
    }
    Ok(Type { base, shape: Shape::Array(index), var })
}

fn lower_array2d(_: &mut Lowerer<'_, '_>, call: &LoweredCall) -> Result<LVal, Fault> {
    let mut index = Vec::new();
    let mut index_bases = Vec::new();
    for (value, at) in &call.args[..2] {
        let LVal::Set(set, base) = value else { return Err(internal(*at, "an index set")) };
        match set.intervals() {
            [] => index.push((1, 0)),
            [(lo, hi)] => index.push((*lo, *hi)),
            _ => {
                return Err(Fault::new(
                    *at,
                    format!("the index set {set}, which has gaps"),
                    "a contiguous range such as `1..n`",
                ));
            }
        }
        index_bases.push(if *base == Base::Any { Base::Int } else { *base });
    }
    let a = call.array(2, "an array")?;
    let cells = index.iter().map(|&(lo, hi)| (hi - lo + 1).max(0) as u64).product::<u64>();
    if cells != a.elems.len() as u64 {
        return Err(Fault::new(
            call.args[2].1,
            format!("an array of {} elements", a.elems.len()),
            format!("{cells} elements, one per cell of the rows and columns given, row by row"),
        ));
    }
    Ok(LVal::Array(LArray { index, index_bases, base: a.base, elems: a.elems.clone() }))
}

fn verify_array2d(call: &EvaluatedCall<'_>) -> Eval<Ev> {
    let mut index = Vec::new();
    for arg in &call.args[..2] {
        let Ev::Set(set) = arg else { return Err(bug("array2d without an index set")) };
        index.push(match (set.min(), set.max()) {
            (Some(lo), Some(hi)) if set.len() as i128 == hi as i128 - lo as i128 + 1 => (lo, hi),
            (None, None) => (1, 0),
            _ => return Err(bug("array2d over an index set with gaps")),
        });
    }
    let items = call.elems(2)?.to_vec();
    let cells: i64 = index.iter().map(|&(lo, hi)| (hi - lo + 1).max(0)).product();
    if cells != items.len() as i64 {
        return Err(bug("array2d with the wrong number of elements"));
    }
    Ok(Ev::Array(index, items))
}

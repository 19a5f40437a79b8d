//! Globals that order, compare or tally arrays, as MiniZinc's library
//! defines them: `increasing`, `decreasing`, `all_equal`, `lex_less`,
//! `lex_lesseq`, `among`, `nvalue`, `global_cardinality`, `inverse` and
//! `value_precede`. Each lowers to a decomposition over the IR's
//! comparisons; an undefined element makes the call false, as MiniZinc's
//! relational semantics says, which the lowering states with a guard on
//! each partial element. The verify hooks compute on the values.

use super::Builtin;
use crate::lang::check::{Fault, TypedCall};
use crate::lang::ir::{BExpr, Cmp, IExpr};
use crate::lang::lower::{LVal, LoweredCall, internal};
use crate::lang::model::{Base, IntSet, Type};
use crate::lang::verify::{Ev, Eval, EvaluatedCall, bug};

/// The most candidate values `nvalue` tries, the union of its elements'
/// bounds.
const MAX_NVALUE_VALUES: u64 = 10_000;

const BASE: Builtin = Builtin::plain(
    "increasing",
    "increasing(array of int)",
    check_one_array,
    |_, call| ordered(call, Cmp::Le, false),
    |call| verify_pairs(call, |a, b| a <= b),
);

pub(super) const INCREASING: Builtin = BASE;

pub(super) const DECREASING: Builtin = Builtin {
    name: "decreasing",
    forms: "decreasing(array of int)",
    lower: |_, call| ordered(call, Cmp::Le, true),
    verify: |call| verify_pairs(call, |a, b| a >= b),
    ..BASE
};

pub(super) const ALL_EQUAL: Builtin = Builtin {
    name: "all_equal",
    forms: "all_equal(array of int)",
    lower: |_, call| ordered(call, Cmp::Eq, false),
    verify: |call| verify_pairs(call, |a, b| a == b),
    ..BASE
};

pub(super) const LEX_LESS: Builtin = Builtin {
    name: "lex_less",
    forms: "lex_less(array of int, array of int)",
    arities: &[2],
    scope: &[0, 1],
    check: check_two_arrays,
    lower: |_, call| lex(call, true),
    verify: |call| verify_lex(call, true),
    ..BASE
};

pub(super) const LEX_LESSEQ: Builtin = Builtin {
    name: "lex_lesseq",
    forms: "lex_lesseq(array of int, array of int)",
    lower: |_, call| lex(call, false),
    verify: |call| verify_lex(call, false),
    ..LEX_LESS
};

pub(super) const AMONG: Builtin = Builtin {
    name: "among",
    forms: "among(n, array of int, set of int)",
    arities: &[3],
    scope: &[0, 1],
    check: |call| {
        let n = call.scalar(0, Base::Int, true, "an integer count")?;
        let (base, var, _) = call.array(1, None, Some(1), "a one-dimensional array of integers or enum values")?;
        fixed_set(call, 2, base)?;
        Ok(Type::scalar(Base::Bool, n || var))
    },
    lower: |_, call| {
        let LVal::Set(set, _) = &call.args[2].0 else { return Err(internal(call.args[2].1, "a set")) };
        let items = call.ints(1)?;
        let terms: Vec<(i64, IExpr)> =
            items.iter().map(|x| (1, IExpr::bool2int(BExpr::member(x.clone(), set.clone())))).collect();
        let total = IExpr::sum(terms, 0).map_err(|_| call.overflow())?;
        let mut parts = defined(&items);
        parts.push(BExpr::cmp(Cmp::Eq, total, call.int(0)?));
        Ok(LVal::Bool(BExpr::and(parts)))
    },
    verify: |call| {
        let Ev::Set(set) = &call.args[2] else { return Err(bug("`among` without a set")) };
        let (Some(n), Some(items)) = (call.int(0)?, all_defined(call, 1)?) else { return Ok(Ev::Bool(false)) };
        Ok(Ev::Bool(items.iter().filter(|&&x| set.contains(x)).count() as i64 == n))
    },
    ..BASE
};

pub(super) const NVALUE: Builtin = Builtin {
    name: "nvalue",
    forms: "nvalue(array of int) or nvalue(n, array of int)",
    arities: &[1, 2],
    scope: &[0, 1],
    check: |call| {
        let last = call.args.len() - 1;
        let (_, var, _) = call.array(last, None, None, "an array of integers or enum values")?;
        if last == 1 {
            let n = call.scalar(0, Base::Int, true, "an integer count")?;
            return Ok(Type::scalar(Base::Bool, n || var));
        }
        Ok(Type::scalar(Base::Int, var))
    },
    lower: |_, call| {
        let last = call.args.len() - 1;
        let items = call.ints(last)?;
        let candidates = items.iter().fold(IntSet::default(), |s, x| s.union(&IntSet::range(x.lo, x.hi)));
        if candidates.len() > MAX_NVALUE_VALUES {
            return Err(Fault::new(
                call.args[last].1,
                format!("`nvalue` over elements whose bounds span {} values", candidates.len()),
                format!("elements whose bounds together span at most {MAX_NVALUE_VALUES} values"),
            ));
        }
        let terms: Vec<(i64, IExpr)> = candidates
            .values()
            .map(|v| {
                let taken = items.iter().map(|x| BExpr::cmp(Cmp::Eq, x.clone(), IExpr::constant(v))).collect();
                (1, IExpr::bool2int(BExpr::or(taken)))
            })
            .collect();
        let total = IExpr::sum(terms, 0).map_err(|_| call.overflow())?;
        let guard = defined(&items);
        if last == 0 {
            if guard.is_empty() {
                return Ok(LVal::Int(total, Base::Int));
            }
            let holds = BExpr::and(guard);
            // `[total][bool2int(holds)]`: index 0, out of range, when undefined.
            let guarded = IExpr::element(vec![IExpr::bool2int(holds)], vec![(1, 1)], vec![total]);
            return Ok(LVal::Int(guarded, Base::Int));
        }
        let mut parts = guard;
        parts.push(BExpr::cmp(Cmp::Eq, total, call.int(0)?));
        Ok(LVal::Bool(BExpr::and(parts)))
    },
    verify: |call| {
        let last = call.args.len() - 1;
        let distinct = all_defined(call, last)?.map(|items| IntSet::from_values(items).len() as i64);
        if last == 0 {
            return Ok(distinct.map_or(Ev::Undef, Ev::Int));
        }
        Ok(Ev::Bool(distinct.is_some() && distinct == call.int(0)?))
    },
    ..BASE
};

pub(super) const GLOBAL_CARDINALITY: Builtin = Builtin {
    name: "global_cardinality",
    forms: "global_cardinality(array of int, array of int, array of int)",
    arities: &[3],
    scope: &[0, 2],
    check: |call| {
        let (base, var, _) = call.array(0, None, Some(1), "a one-dimensional array of integers or enum values")?;
        let (_, cover_var, _) = call.array(1, Some(base), Some(1), "a one-dimensional array of the values counted")?;
        if cover_var {
            return Err(call.wrong(1, "a fixed array of the values counted"));
        }
        let (_, counts, _) = call.array(2, Some(Base::Int), Some(1), "a one-dimensional array of integer counts")?;
        Ok(Type::scalar(Base::Bool, var || counts))
    },
    lower: |_, call| {
        let items = call.ints(0)?;
        let cover = call.ints(1)?;
        let counts = call.ints(2)?;
        if cover.len() != counts.len() {
            return Err(Fault::new(
                call.span,
                format!("{} values to count and {} counts", cover.len(), counts.len()),
                "one count per value counted, as MiniZinc requires",
            ));
        }
        let mut parts = defined(&items);
        parts.extend(defined(&counts));
        for (v, n) in cover.into_iter().zip(counts) {
            let terms = items.iter().map(|x| (1, IExpr::bool2int(BExpr::cmp(Cmp::Eq, x.clone(), v.clone())))).collect();
            parts.push(BExpr::cmp(Cmp::Eq, IExpr::sum(terms, 0).map_err(|_| call.overflow())?, n));
        }
        Ok(LVal::Bool(BExpr::and(parts)))
    },
    verify: |call| {
        let (Some(items), Some(cover), Some(counts)) =
            (all_defined(call, 0)?, all_defined(call, 1)?, all_defined(call, 2)?)
        else {
            return Ok(Ev::Bool(false));
        };
        if cover.len() != counts.len() {
            return Err(bug("`global_cardinality` with as many counts as values"));
        }
        let holds = cover.iter().zip(&counts).all(|(v, &n)| items.iter().filter(|x| *x == v).count() as i64 == n);
        Ok(Ev::Bool(holds))
    },
    ..BASE
};

pub(super) const INVERSE: Builtin = Builtin {
    name: "inverse",
    forms: "inverse(array of int, array of int)",
    arities: &[2],
    scope: &[0, 1],
    check: |call| {
        let (_, a, _) = call.array(0, Some(Base::Int), Some(1), "a one-dimensional array of integers")?;
        let (_, b, _) = call.array(1, Some(Base::Int), Some(1), "a one-dimensional array of integers")?;
        Ok(Type::scalar(Base::Bool, a || b))
    },
    lower: |_, call| {
        let (f, g) = (call.array(0, "an array")?, call.array(1, "an array")?);
        let (fi, gi) = (f.index[0], g.index[0]);
        let (fs, gs) = (call.ints(0)?, call.ints(1)?);
        let mut parts = Vec::new();
        for (x, range) in fs.iter().map(|x| (x, gi)).chain(gs.iter().map(|x| (x, fi))) {
            parts.push(BExpr::member(x.clone(), IntSet::range(range.0, range.1)));
        }
        for (i, x) in (fi.0..=fi.1).zip(&fs) {
            for (j, y) in (gi.0..=gi.1).zip(&gs) {
                let there = BExpr::cmp(Cmp::Eq, x.clone(), IExpr::constant(j));
                let back = BExpr::cmp(Cmp::Eq, y.clone(), IExpr::constant(i));
                parts.push(BExpr::iff(there, back));
            }
        }
        Ok(LVal::Bool(BExpr::and(parts)))
    },
    verify: |call| {
        let (Ev::Array(fi, _), Ev::Array(gi, _)) = (&call.args[0], &call.args[1]) else {
            return Err(bug("`inverse` without arrays"));
        };
        let (Some(f), Some(g)) = (all_defined(call, 0)?, all_defined(call, 1)?) else { return Ok(Ev::Bool(false)) };
        let (f0, g0) = (fi[0].0, gi[0].0);
        let back = |a: &[i64], a0: i64, b: &[i64], b0: i64| {
            a.iter()
                .enumerate()
                .all(|(i, &v)| usize::try_from(v - b0).ok().and_then(|k| b.get(k)).is_some_and(|&w| w == i as i64 + a0))
        };
        Ok(Ev::Bool(back(&f, f0, &g, g0) && back(&g, g0, &f, f0)))
    },
    ..BASE
};

pub(super) const VALUE_PRECEDE: Builtin = Builtin {
    name: "value_precede",
    forms: "value_precede(s, t, array of int)",
    arities: &[3],
    scope: &[2],
    check: |call| {
        let (base, var, _) = call.array(2, None, Some(1), "a one-dimensional array of integers or enum values")?;
        call.scalar(0, base, false, "a fixed value of the array's element type")?;
        call.scalar(1, base, false, "a fixed value of the array's element type")?;
        Ok(Type::scalar(Base::Bool, var))
    },
    lower: |_, call| {
        let (s, t) = (call.int(0)?, call.int(1)?);
        let items = call.ints(2)?;
        let mut parts = defined(&items);
        for (i, x) in items.iter().enumerate() {
            let earlier = items[..i].iter().map(|y| BExpr::cmp(Cmp::Eq, y.clone(), s.clone())).collect();
            parts.push(BExpr::implies(BExpr::cmp(Cmp::Eq, x.clone(), t.clone()), BExpr::or(earlier)));
        }
        Ok(LVal::Bool(BExpr::and(parts)))
    },
    verify: |call| {
        let (Some(s), Some(t)) = (call.int(0)?, call.int(1)?) else { return Err(bug("an undefined fixed value")) };
        let Some(items) = all_defined(call, 2)? else { return Ok(Ev::Bool(false)) };
        // Wherever `t` first occurs, `s` occurs before it.
        let first = |v: i64| items.iter().position(|&x| x == v);
        let holds = match (first(s), first(t)) {
            (_, None) => true,
            (Some(i), Some(j)) => i < j,
            (None, Some(_)) => false,
        };
        Ok(Ev::Bool(holds))
    },
    ..BASE
};

fn check_one_array(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let (_, var, _) = call.array(0, None, Some(1), "a one-dimensional array of integers or enum values")?;
    Ok(Type::scalar(Base::Bool, var))
}

fn check_two_arrays(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let (base, a, _) = call.array(0, None, Some(1), "a one-dimensional array of integers or enum values")?;
    let (_, b, _) = call.array(1, Some(base), Some(1), "a one-dimensional array of the first's element type")?;
    Ok(Type::scalar(Base::Bool, a || b))
}

/// Checks that argument `i` is a fixed set of `base`.
fn fixed_set(call: &TypedCall<'_>, i: usize, base: Base) -> Result<(), Fault> {
    super::fixed_set(call, i, base, "a fixed set of the array's element type, such as `{1, 3}` or `1..n`")
}

/// For each partial element, that it has a value: within its bounds.
fn defined(items: &[IExpr]) -> Vec<BExpr> {
    items.iter().filter(|x| x.partial).map(|x| BExpr::member(x.clone(), IntSet::range(x.lo, x.hi))).collect()
}

/// Each neighbouring pair `a op b` (`b op a` when `reversed`).
fn ordered(call: &LoweredCall, op: Cmp, reversed: bool) -> Result<LVal, Fault> {
    let items = call.ints(0)?;
    let mut parts = defined(&items);
    for pair in items.windows(2) {
        let (a, b) = if reversed { (pair[1].clone(), pair[0].clone()) } else { (pair[0].clone(), pair[1].clone()) };
        parts.push(BExpr::cmp(op, a, b));
    }
    Ok(LVal::Bool(BExpr::and(parts)))
}

/// `a <lex b` (`strict`) or `a <=lex b`: from the last common position
/// back, each position either decides or passes on to the next; when one
/// array is a prefix of the other, the shorter comes first.
fn lex(call: &LoweredCall, strict: bool) -> Result<LVal, Fault> {
    let (a, b) = (call.ints(0)?, call.ints(1)?);
    let tail = if strict { a.len() < b.len() } else { a.len() <= b.len() };
    let mut rest = BExpr::Const(tail);
    for (x, y) in a.iter().zip(&b).rev() {
        let less = BExpr::cmp(Cmp::Lt, x.clone(), y.clone());
        let equal = BExpr::cmp(Cmp::Eq, x.clone(), y.clone());
        rest = BExpr::or(vec![less, BExpr::and(vec![equal, rest])]);
    }
    let mut parts = defined(&a);
    parts.extend(defined(&b));
    parts.push(rest);
    Ok(LVal::Bool(BExpr::and(parts)))
}

/// The elements of argument `i`, `None` when one is undefined.
fn all_defined(call: &EvaluatedCall<'_>, i: usize) -> Eval<Option<Vec<i64>>> {
    Ok(call.ints(i)?.into_iter().collect())
}

fn verify_pairs(call: &EvaluatedCall<'_>, holds: fn(i64, i64) -> bool) -> Eval<Ev> {
    let Some(items) = all_defined(call, 0)? else { return Ok(Ev::Bool(false)) };
    Ok(Ev::Bool(items.windows(2).all(|w| holds(w[0], w[1]))))
}

fn verify_lex(call: &EvaluatedCall<'_>, strict: bool) -> Eval<Ev> {
    let (Some(a), Some(b)) = (all_defined(call, 0)?, all_defined(call, 1)?) else { return Ok(Ev::Bool(false)) };
    // Rust's slice order is the lexicographic order, a prefix first.
    Ok(Ev::Bool(if strict { a < b } else { a <= b }))
}

//! `grid_sight`: how many cells a cell sees along its row and column, up
//! to a blocked cell or the edge (kurodoko's, cave's and nurimisaki's
//! numbers), or how many marked cells among those (light up's lights).
//!
//! The cell looked from counts whether it is open or not (a number stands
//! in an open cell anyway), so that the count is one constant plus the
//! ladders.
//!
//! The lowering builds one ladder per direction: "the first k cells that
//! way are all open" is the conjunction of "the first k − 1 are" and the
//! k-th cell, so each rung is one literal of three clauses, shared by the
//! next rung (the encoder caches a reified expression), and the count is
//! the sum of the rungs. An unrolled `forall(m in 1..k)` per prefix would
//! cost a clause per cell of every prefix instead. The rungs are not
//! flattened into one conjunction on purpose: that would undo the sharing.
//!
//! The verifier walks the answer's values from the cell outwards.

use super::Builtin;
use crate::lang::check::{Fault, TypedCall};
use crate::lang::ir::{BExpr, IExpr};
use crate::lang::lower::{LArray, LVal, LoweredCall, Lowerer, internal};
use crate::lang::model::{Base, Type};
use crate::lang::verify::{Ev, Eval, EvaluatedCall, bug};

/// The four directions a cell sees along.
const DIRECTIONS: [(i64, i64); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

pub(super) const GRID_SIGHT: Builtin = Builtin {
    arities: &[3, 4],
    scope: &[0, 3],
    ..Builtin::plain(
        "grid_sight",
        "grid_sight(open, r, c) or grid_sight(open, r, c, marked): the number of cells seen from (r, c) along its \
         row and column up to a cell that is not open or the edge, (r, c) itself included whether open or not; with \
         `marked`, the number of marked cells among them",
        check_sight,
        lower_sight,
        verify_sight,
    )
};

/// `(open, r, c)` and maybe `marked`: a 2-D Boolean array, fixed indices of
/// it, and a second Boolean array over the same index kinds.
fn check_sight(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let grid = "a 2-D array of Booleans (decision variables or fixed), the cells that let sight through";
    let (_, mut var, _) = call.array(0, Some(Base::Bool), Some(2), grid)?;
    let index = call.index(0).to_vec();
    for (i, dim, role) in [(1, 0, "row"), (2, 1, "column")] {
        let base = call.base_name(index[dim]);
        call.scalar(i, index[dim], false, &format!("the {role} seen from, a fixed {base} index of the array"))?;
    }
    if call.args.len() == 4 {
        let marked = format!(
            "a 2-D array of Booleans with {} rows and {} columns like the open cells' array, the cells counted",
            call.base_name(index[0]),
            call.base_name(index[1])
        );
        let (_, marked_var, _) = call.array(3, Some(Base::Bool), Some(2), &marked)?;
        if call.index(3).iter().zip(&index).any(|(a, b)| !a.fits(*b)) {
            return Err(call.wrong(3, marked));
        }
        var |= marked_var;
    }
    Ok(Type::scalar(Base::Int, var))
}

/// The sum of the ladders' rungs (each rung with its cell's mark, when
/// marks are given).
fn lower_sight(lowerer: &mut Lowerer<'_, '_>, call: &LoweredCall) -> Result<LVal, Fault> {
    let open = call.array(0, "a 2-D array")?;
    if open.index.len() != 2 {
        return Err(internal(call.args[0].1, "a 2-D array"));
    }
    let [(r0, r1), (c0, c1)] = [open.index[0], open.index[1]];
    let mut from = [0i64; 2];
    for (d, (lo, hi)) in [(r0, r1), (c0, c1)].into_iter().enumerate() {
        let v = call.fixed(d + 1, "a fixed index")?;
        if v < lo || v > hi {
            let found = |role: &str, value: &str| format!("the {role} {value} seen from, outside the array");
            return Err(super::grid::outside(lowerer, open, d, v, found, call.args[d + 1].1));
        }
        from[d] = v;
    }
    // Only the cells along the four lines are read: cloning the whole
    // array for each cell looked from made a grid's counts cost cells².
    let cell = |k: usize| match &open.elems[k] {
        LVal::Bool(b) => Ok(b.clone()),
        _ => Err(internal(call.args[0].1, "a Boolean array")),
    };
    let marks = match call.args.len() {
        4 => Some(marks(lowerer, call, open)?),
        _ => None,
    };
    let width = c1 - c0 + 1;
    let at = |r: i64, c: i64| ((r - r0) * width + (c - c0)) as usize;
    let counted = |seen: &BExpr, k: usize| match &marks {
        Some(marks) => rung(seen, marks[k].clone()),
        None => seen.clone(),
    };
    let here = at(from[0], from[1]);
    let mut terms = vec![counted(&BExpr::Const(true), here)];
    for (dr, dc) in DIRECTIONS {
        let mut seen = BExpr::Const(true);
        let (mut r, mut c) = (from[0] + dr, from[1] + dc);
        while (r0..=r1).contains(&r) && (c0..=c1).contains(&c) && seen != BExpr::Const(false) {
            seen = rung(&seen, cell(at(r, c))?);
            terms.push(counted(&seen, at(r, c)));
            (r, c) = (r + dr, c + dc);
        }
    }
    let total = IExpr::sum(terms.into_iter().map(|t| (1, IExpr::bool2int(t))).collect(), 0);
    Ok(LVal::Int(total.map_err(|_| call.overflow())?, Base::Int))
}

/// The marks, checked to cover the open cells' array exactly.
fn marks(lowerer: &Lowerer<'_, '_>, call: &LoweredCall, open: &LArray) -> Result<Vec<BExpr>, Fault> {
    let marked = call.array(3, "a 2-D array")?;
    if marked.index != open.index {
        let shape = |a: &LArray| {
            let range = |d: usize| {
                let (lo, hi) = a.index[d];
                let base = a.index_bases[d];
                format!("{}..{}", lowerer.value_name(base, lo), lowerer.value_name(base, hi))
            };
            if a.index.len() == 2 {
                format!("rows {} and columns {}", range(0), range(1))
            } else {
                format!("{} dimension(s)", a.index.len())
            }
        };
        return Err(Fault::new(
            call.args[3].1,
            format!("an array of marks (the fourth argument of `grid_sight`) with {}", shape(marked)),
            format!("the open cells' rows and columns, {}", shape(open)),
        ));
    }
    call.bools(3)
}

/// `seen /\ next`, kept as a conjunction of two so that `seen` stays one
/// literal (constants folded).
fn rung(seen: &BExpr, next: BExpr) -> BExpr {
    match (seen, next) {
        (BExpr::Const(false), _) | (_, BExpr::Const(false)) => BExpr::Const(false),
        (BExpr::Const(true), next) => next,
        (seen, BExpr::Const(true)) => seen.clone(),
        (seen, next) => BExpr::And(vec![seen.clone(), next]),
    }
}

/// Walks from the cell outwards in each direction while the cells are
/// open, counting them (or the marked ones among them).
fn verify_sight(call: &EvaluatedCall<'_>) -> Eval<Ev> {
    let Ev::Array(index, open) = &call.args[0] else { return Err(bug("grid_sight without its array")) };
    let [(r0, r1), (c0, c1)] = index[..] else { return Err(bug("grid_sight over an array that is not 2-D")) };
    let (Some(r), Some(c)) = (call.int(1)?, call.int(2)?) else { return Err(bug("grid_sight without its cell")) };
    let marked = match call.args.get(3) {
        Some(Ev::Array(_, marks)) => Some(marks),
        Some(_) => return Err(bug("grid_sight's marks that are not an array")),
        None => None,
    };
    let truth = |elems: &[Ev], (i, j): (i64, i64)| -> Eval<bool> {
        let k = (i - r0) * (c1 - c0 + 1) + (j - c0);
        match elems.get(k as usize) {
            Some(Ev::Bool(b)) => Ok(*b),
            _ => Err(bug("a grid_sight array that is not Boolean or too short")),
        }
    };
    let inside = |(i, j): (i64, i64)| r0 <= i && i <= r1 && c0 <= j && j <= c1;
    if !inside((r, c)) {
        return Err(bug("grid_sight from a cell outside its array"));
    }
    let mut seen = vec![(r, c)];
    for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
        let mut cell = (r + dr, c + dc);
        while inside(cell) && truth(open, cell)? {
            seen.push(cell);
            cell = (cell.0 + dr, cell.1 + dc);
        }
    }
    let mut count = 0;
    for cell in seen {
        count += i64::from(marked.map_or(Ok(true), |marks| truth(marks, cell))?);
    }
    Ok(Ev::Int(count))
}

//! `grid_place(own, shape)`: the cells of `own` that are true are exactly
//! one copy of the piece `shape` draws (its 1s), turned by any quarter turn
//! and mirrored at will, anywhere in the grid (LITS's and statue park's
//! pieces).
//!
//! The lowering makes the piece's distinct images here (a square has one,
//! an L eight) and every placement of them that fits the grid. A placement
//! is "all its cells are owned", a conjunction over `own` that the encoder
//! gives one literal: so the selectors are functions of `own` and counts
//! stay exact. Exactly one placement holds, and a cell is owned only when a
//! placement that holds covers it (a cell no placement covers is never
//! owned). Since distinct placements cover distinct cell sets of one size,
//! the one that holds is then `own` itself.
//!
//! The verifier shares none of this: it takes the owned cells of the
//! answer, shifts them to the origin, and compares them with the shape's
//! cells under each of the eight symmetries of the square, shifted alike.

use std::collections::BTreeSet;

use super::Builtin;
use crate::lang::check::{Fault, TypedCall, what};
use crate::lang::ir::{BExpr, IExpr};
use crate::lang::lower::{LArray, LVal, LoweredCall, Lowerer, compare, internal};
use crate::lang::model::{Base, Shape, Type};
use crate::lang::syntax::BinOp;
use crate::lang::verify::{Ev, Eval, EvaluatedCall, bug};

/// The most cells, summed over the placements, that one call may unroll
/// to (a 100 × 100 grid takes a 20-cell piece in its 8 images).
const MAX_PLACEMENT_CELLS: usize = 2_000_000;

pub(super) const GRID_PLACE: Builtin = Builtin {
    arities: &[2],
    ..Builtin::plain(
        "grid_place",
        "grid_place(own, shape): the cells of own that are true are exactly one copy of the piece that the fixed 0/1 \
         array shape draws in its box, turned by quarter turns and mirrored at will, anywhere in the grid",
        check_place,
        lower_place,
        verify_place,
    )
};

/// `(own, shape)`: a 2-D Boolean array and a fixed 2-D array of 0/1 or
/// Booleans.
fn check_place(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let own = "a 2-D array of Booleans (decision variables or fixed), the cells the piece covers";
    let (_, var, _) = call.array(0, Some(Base::Bool), Some(2), own)?;
    let shape = "a fixed 2-D array of 0s and 1s (or Booleans), the piece drawn in its box, such as [| 1, 1 | 0, 1 |]";
    let (ty, e) = &call.args[1];
    let two_d = matches!(&ty.shape, Shape::Array(index) if index.len() == 2);
    if !two_d || !matches!(ty.base, Base::Int | Base::Bool | Base::Any) {
        return Err(call.wrong(1, shape));
    }
    if ty.var {
        return Err(Fault::new(e.span, format!("{} that depends on decision variables", what(e)), shape));
    }
    Ok(Type::scalar(Base::Bool, var))
}

/// Exactly one placement's cells all owned, and each owned cell covered
/// by a placement whose cells are all owned.
fn lower_place(lowerer: &mut Lowerer<'_, '_>, call: &LoweredCall) -> Result<LVal, Fault> {
    let own = call.array(0, "a 2-D array")?;
    let [(r0, r1), (c0, c1)] = own.index[..] else { return Err(internal(call.args[0].1, "a 2-D array")) };
    let cells = call.bools(0)?;
    let piece = piece_cells(lowerer, call)?;
    let (rows, cols) = ((r1 - r0 + 1).max(0), (c1 - c0 + 1).max(0));
    let placements = placements(&images(&piece), rows, cols);
    let size: usize = placements.iter().map(Vec::len).sum();
    if size > MAX_PLACEMENT_CELLS {
        return Err(Fault::new(
            call.span,
            format!("a piece of {} cells with {} placements on a {rows} × {cols} grid", piece.len(), placements.len()),
            format!("at most {MAX_PLACEMENT_CELLS} cells over all placements"),
        ));
    }
    let held: Vec<BExpr> =
        placements.iter().map(|p| BExpr::and(p.iter().map(|&k| cells[k].clone()).collect())).collect();
    let mut covering: Vec<Vec<BExpr>> = vec![Vec::new(); cells.len()];
    for (placement, holds) in placements.iter().zip(&held) {
        for &k in placement {
            covering[k].push(holds.clone());
        }
    }
    let count = IExpr::sum(held.into_iter().map(|h| (1, IExpr::bool2int(h))).collect(), 0);
    // The count first: its literals, reified both ways, serve the covers.
    let mut parts = vec![compare(BinOp::Eq, count.map_err(|_| call.overflow())?, IExpr::constant(1))];
    for (cell, covers) in cells.into_iter().zip(covering) {
        parts.push(BExpr::implies(cell, BExpr::or(covers)));
    }
    Ok(LVal::Bool(BExpr::and(parts)))
}

/// The piece's cells, `(row, column)` from its box's top-left corner;
/// refuses a value other than 0 and 1, and a shape with no cell.
fn piece_cells(lowerer: &Lowerer<'_, '_>, call: &LoweredCall) -> Result<Vec<(i64, i64)>, Fault> {
    let at = call.args[1].1;
    let shape: &LArray = call.array(1, "a 2-D array")?;
    let [(r0, _), (c0, c1)] = shape.index[..] else { return Err(internal(at, "a 2-D array")) };
    let width = (c1 - c0 + 1).max(1);
    let mut cells = Vec::new();
    for (k, elem) in shape.elems.iter().enumerate() {
        let value = match elem {
            LVal::Bool(b) => b.as_const().map(i64::from),
            LVal::Int(x, _) => x.as_const(),
            _ => None,
        };
        let (r, c) = (k as i64 / width, k as i64 % width);
        match value {
            Some(0) => {}
            Some(1) => cells.push((r, c)),
            Some(v) => {
                let name = |d: usize, i: i64| lowerer.value_name(shape.index_bases[d], i);
                return Err(Fault::new(
                    at,
                    format!("the value {v} at [{}, {}] of the shape", name(0, r0 + r), name(1, c0 + c)),
                    "0s and 1s: 1 where the piece has a cell, 0 where its box has none",
                ));
            }
            None => return Err(internal(at, "a fixed shape")),
        }
    }
    if cells.is_empty() {
        return Err(Fault::new(
            at,
            format!("a shape of {} entries with no 1", shape.elems.len()),
            "a piece of one cell or more: a 1 where the piece has a cell",
        ));
    }
    Ok(cells)
}

/// The piece's distinct images under quarter turns and a mirror, each
/// shifted so that its top row and left column are 0, its cells sorted.
fn images(piece: &[(i64, i64)]) -> BTreeSet<Vec<(i64, i64)>> {
    let shifted = |cells: Vec<(i64, i64)>| -> Vec<(i64, i64)> {
        let top = cells.iter().map(|&(r, _)| r).min().unwrap_or(0);
        let left = cells.iter().map(|&(_, c)| c).min().unwrap_or(0);
        let mut cells: Vec<(i64, i64)> = cells.into_iter().map(|(r, c)| (r - top, c - left)).collect();
        cells.sort_unstable();
        cells
    };
    let mut found = BTreeSet::new();
    for start in [piece.to_vec(), piece.iter().map(|&(r, c)| (r, -c)).collect()] {
        let mut turned = start;
        for _ in 0..4 {
            turned = turned.iter().map(|&(r, c)| (c, -r)).collect();
            found.insert(shifted(turned.clone()));
        }
    }
    found
}

/// Every placement of the images inside a `rows` × `cols` grid, as the
/// grid's cell numbers (row by row from 0).
fn placements(images: &BTreeSet<Vec<(i64, i64)>>, rows: i64, cols: i64) -> Vec<Vec<usize>> {
    let mut all = Vec::new();
    for image in images {
        let tall = image.iter().map(|&(r, _)| r + 1).max().unwrap_or(0);
        let wide = image.iter().map(|&(_, c)| c + 1).max().unwrap_or(0);
        for top in 0..=rows - tall {
            for left in 0..=cols - wide {
                all.push(image.iter().map(|&(r, c)| ((top + r) * cols + left + c) as usize).collect());
            }
        }
    }
    all
}

/// Whether the owned cells, shifted to the origin, are the shape's cells
/// under one of the square's eight symmetries, shifted alike.
fn verify_place(call: &EvaluatedCall<'_>) -> Eval<Ev> {
    let owned = marked(&call.args[0], "own")?;
    let piece = marked(&call.args[1], "shape")?;
    let answer = at_origin(owned);
    for (swap, down, across) in (0..8).map(|m| (m & 1 == 1, m & 2 == 2, m & 4 == 4)) {
        let image = piece
            .iter()
            .map(|&(r, c)| {
                let (a, b) = if swap { (c, r) } else { (r, c) };
                (if down { -a } else { a }, if across { -b } else { b })
            })
            .collect();
        if at_origin(image) == answer {
            return Ok(Ev::Bool(true));
        }
    }
    Ok(Ev::Bool(false))
}

/// The positions (row, column) of a 2-D array's true or 1 elements.
fn marked(array: &Ev, role: &str) -> Eval<Vec<(i64, i64)>> {
    let Ev::Array(index, elems) = array else { return Err(bug(&format!("grid_place's {role} not an array"))) };
    let [(_, _), (c0, c1)] = index[..] else { return Err(bug(&format!("grid_place's {role} not 2-D"))) };
    let width = (c1 - c0 + 1).max(1);
    let mut cells = Vec::new();
    for (k, elem) in elems.iter().enumerate() {
        match elem {
            Ev::Bool(true) | Ev::Int(1) => cells.push((k as i64 / width, k as i64 % width)),
            Ev::Bool(false) | Ev::Int(0) => {}
            _ => return Err(bug(&format!("grid_place's {role} with an element other than 0 and 1"))),
        }
    }
    Ok(cells)
}

/// The cells moved so that the smallest row and column are 0, as a set.
fn at_origin(cells: Vec<(i64, i64)>) -> BTreeSet<(i64, i64)> {
    let r = cells.iter().map(|p| p.0).min().unwrap_or(0);
    let c = cells.iter().map(|p| p.1).min().unwrap_or(0);
    cells.into_iter().map(|(i, j)| (i - r, j - c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_drop_repeats() {
        let count = |cells: &[(i64, i64)]| images(cells).len();
        assert_eq!(count(&[(0, 0), (0, 1), (1, 0), (1, 1)]), 1, "the square");
        assert_eq!(count(&[(0, 0), (0, 1), (0, 2), (0, 3)]), 2, "the I");
        assert_eq!(count(&[(0, 0), (0, 1), (0, 2), (1, 1)]), 4, "the T");
        assert_eq!(count(&[(0, 0), (0, 1), (1, 1), (1, 2)]), 4, "the S and its mirror, the Z");
        assert_eq!(count(&[(0, 0), (1, 0), (2, 0), (2, 1)]), 8, "the L");
        assert_eq!(count(&[(0, 0), (1, 1)]), 2, "two cells corner to corner");
    }

    #[test]
    fn placements_fit_the_grid() {
        // An L tromino in a 2 × 3 grid: 4 images, each in 2 places.
        let l = images(&[(0, 0), (1, 0), (1, 1)]);
        let all = placements(&l, 2, 3);
        assert_eq!(all.len(), 8);
        assert!(all.iter().all(|p| p.len() == 3 && p.iter().all(|&k| k < 6)));
        // Too wide a piece has none.
        assert!(placements(&images(&[(0, 0), (0, 1), (0, 2), (0, 3)]), 2, 3).is_empty());
    }
}

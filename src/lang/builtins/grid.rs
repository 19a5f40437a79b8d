//! The grid globals over a 2-D array of Booleans, one per cell:
//! `grid_path` (the cells that are on form one path), `grid_loop` (one
//! loop) and `grid_connected` (one 4-connected region); and
//! `grid_regions`, a division of the grid into connected regions with
//! each cell's region size as a value. Each holds only as
//! a constraint of its own; the unroller gives each a grid global of the
//! IR, which the compiler encodes and repairs.
//!
//! The verifier judges them by walking the grid itself, never through the
//! graph code the encodings share: a region by a breadth-first search over
//! the cells that are on, a path or loop by stepping along the route the
//! answer reports for it (its witness), which must move between
//! 4-adjacent cells that are on, never repeat one, and take every cell
//! that is on.

use std::collections::{HashSet, VecDeque};

use super::{Builtin, Drawing};
use crate::lang::check::{Fault, TypedCall};
use crate::lang::ir::{BExpr, GridGlobal, GridKind, StepArrays};
use crate::lang::lower::{LArray, LVal, LoweredCall, Lowerer, internal};
use crate::lang::model::{Base, Type};
use crate::lang::syntax::Span;
use crate::lang::verify::{Ev, Eval, EvaluatedCall, bug};

pub(super) const GRID_PATH: Builtin = Builtin {
    name: "grid_path",
    forms: "grid_path(on, start_row, start_col), grid_path(on, start_row, start_col, end_row, end_col) or \
            grid_path(on, start_row, start_col, end_row, end_col, across, down): across[i, j] is the step (i, j)-(i, j+1), \
            down[i, j] the step (i, j)-(i+1, j)",
    arities: &[3, 5, 7],
    scope: &[0, 5, 6],
    drawing: Drawing::CellRoute,
    grid_global: true,
    conditional: None,
    settled_by: None,
    check: check_path,
    lower: lower_path,
    verify: verify_path,
};

pub(super) const GRID_LOOP: Builtin = Builtin {
    name: "grid_loop",
    forms: "grid_loop(on) or grid_loop(on, across, down): across[i, j] is the step (i, j)-(i, j+1), down[i, j] the step \
            (i, j)-(i+1, j)",
    arities: &[1, 3],
    scope: &[0, 1, 2],
    drawing: Drawing::CornerLoop,
    grid_global: true,
    conditional: None,
    settled_by: None,
    check: check_loop,
    lower: lower_loop,
    verify: verify_loop,
};

pub(super) const GRID_CONNECTED: Builtin = Builtin {
    name: "grid_connected",
    forms: "grid_connected(on)",
    arities: &[1],
    scope: &[0],
    drawing: Drawing::Region,
    check: |call| {
        check_on(call)?;
        // A constraint to solve, even over a fixed array.
        Ok(Type::scalar(Base::Bool, true))
    },
    lower: |lowerer, call| register(lowerer, call, GridKind::Connected, None),
    verify: verify_connected,
    ..GRID_PATH
};

pub(super) const GRID_REGIONS: Builtin = Builtin {
    name: "grid_regions",
    forms: "grid_regions(size, across, down): the grid divides into regions, the pieces that the joined steps make \
            (across[i, j] joins cells (i, j) and (i, j+1), down[i, j] joins (i, j) and (i+1, j)), each connected by \
            construction, and size[i, j] is the number of cells of the region of (i, j). One global, cut lazily: it \
            costs nothing like one grid_connected per cell",
    arities: &[3],
    scope: &[0, 1, 2],
    drawing: Drawing::Borders,
    check: check_regions,
    lower: lower_regions,
    verify: verify_regions,
    ..GRID_PATH
};

/// `(size, across, down)`: a 2-D array of integers and the step arrays of
/// Booleans over the same index kinds.
fn check_regions(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let sizes = "a 2-D array of integers (decision variables or fixed), each cell's region size";
    call.array(0, Some(Base::Int), Some(2), sizes)?;
    check_steps(call, 1, "regions")?;
    Ok(Type::scalar(Base::Bool, true))
}

/// A division into regions: the sizes, and the step arrays as the joins.
fn lower_regions(lowerer: &mut Lowerer<'_, '_>, call: &LoweredCall) -> Result<LVal, Fault> {
    let a = on_array(call)?;
    let index = [a.index[0], a.index[1]];
    let steps = step_arrays(lowerer, a, &call.args[1], &call.args[2], "grid_regions", ["second", "third"])?;
    let sizes = a
        .elems
        .iter()
        .map(|v| match v {
            LVal::Int(e, _) => Ok(e.clone()),
            _ => Err(internal(call.args[0].1, "an integer array")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let on = vec![BExpr::Const(true); sizes.len()];
    let global =
        GridGlobal { kind: GridKind::Regions, index, on, steps: Some(steps), sizes, span: call.span, group: 0 };
    let id = lowerer.add_grid(global);
    Ok(LVal::Bool(BExpr::Grid(id)))
}

/// Each cell's size is the number of cells it reaches over joined steps,
/// by a breadth-first search per region.
fn verify_regions(call: &EvaluatedCall<'_>) -> Eval<Ev> {
    let [Ev::Array(index, sizes), Ev::Array(_, across), Ev::Array(_, down)] = call.args else {
        return Err(bug("grid_regions without its three arrays"));
    };
    let [(r0, r1), (c0, c1)] = index[..] else { return Err(bug("grid_regions over an array that is not 2-D")) };
    let (rows, cols) = ((r1 - r0 + 1).max(0) as usize, (c1 - c0 + 1).max(0) as usize);
    let joined = |elems: &[Ev], k: usize| -> Eval<bool> {
        match elems.get(k) {
            Some(Ev::Bool(b)) => Ok(*b),
            _ => Err(bug("a step array of grid_regions that is not Boolean or too short")),
        }
    };
    let mut region = vec![usize::MAX; rows * cols];
    for first in 0..rows * cols {
        if region[first] != usize::MAX {
            continue;
        }
        region[first] = first;
        let mut members = vec![first];
        let mut k = 0;
        while let Some(&cell) = members.get(k) {
            k += 1;
            let (r, c) = (cell / cols, cell % cols);
            let mut next = Vec::with_capacity(4);
            if c + 1 < cols && joined(across, r * (cols - 1) + c)? {
                next.push(cell + 1);
            }
            if c > 0 && joined(across, r * (cols - 1) + c - 1)? {
                next.push(cell - 1);
            }
            if r + 1 < rows && joined(down, cell)? {
                next.push(cell + cols);
            }
            if r > 0 && joined(down, cell - cols)? {
                next.push(cell - cols);
            }
            for n in next {
                if region[n] == usize::MAX {
                    region[n] = first;
                    members.push(n);
                }
            }
        }
        for &cell in &members {
            if sizes.get(cell) != Some(&Ev::Int(members.len() as i64)) {
                return Ok(Ev::Bool(false));
            }
        }
    }
    Ok(Ev::Bool(true))
}

/// The first argument: a 2-D array of Booleans.
fn check_on(call: &TypedCall<'_>) -> Result<(), Fault> {
    let grid = "a 2-D array of Booleans (decision variables or fixed), one per cell of the grid";
    call.array(0, Some(Base::Bool), Some(2), grid)?;
    Ok(())
}

/// `(on, start_row, start_col)` and maybe `end_row, end_col`: fixed indices
/// of the array.
fn check_path(call: &TypedCall<'_>) -> Result<Type, Fault> {
    check_on(call)?;
    let index = call.index(0);
    let coordinates = [(1, 0, "start row"), (2, 1, "start column"), (3, 0, "end row"), (4, 1, "end column")];
    for &(i, dim, role) in coordinates.iter().take(call.args.len().min(5) - 1) {
        let base = call.base_name(index[dim]);
        call.scalar(i, index[dim], false, &format!("the {role}, a fixed {base} index of the array"))?;
    }
    if call.args.len() == 7 {
        check_steps(call, 5, "path")?;
    }
    // A constraint to solve, even over a fixed array.
    Ok(Type::scalar(Base::Bool, true))
}

/// `(on)` or `(on, across, down)`: step arrays of Booleans over the same
/// index kinds as `on`.
fn check_loop(call: &TypedCall<'_>) -> Result<Type, Fault> {
    check_on(call)?;
    if call.args.len() == 3 {
        check_steps(call, 1, "loop")?;
    }
    Ok(Type::scalar(Base::Bool, true))
}

/// The step arrays `across` and `down` at arguments `first` and the next:
/// Booleans over the same index kinds as `on`.
fn check_steps(call: &TypedCall<'_>, first: usize, what: &str) -> Result<(), Fault> {
    let index = call.index(0);
    for (i, role) in [(first, "across"), (first + 1, "down")] {
        let rows = call.base_name(index[0]);
        let cols = call.base_name(index[1]);
        let steps = format!(
            "a 2-D array of Booleans `{role}` with {rows} rows and {cols} columns like the {what}'s array, one per \
             step between neighbouring cells"
        );
        call.array(i, Some(Base::Bool), Some(2), &steps)?;
        if call.index(i).iter().zip(index).any(|(a, b)| !a.fits(*b)) {
            return Err(call.wrong(i, steps));
        }
    }
    Ok(())
}

/// Registers the grid global of `call` with the unroller, and stands for it
/// in the constraint.
fn register(
    lowerer: &mut Lowerer<'_, '_>,
    call: &LoweredCall,
    kind: GridKind,
    steps: Option<StepArrays>,
) -> Result<LVal, Fault> {
    let a = on_array(call)?;
    let index = [a.index[0], a.index[1]];
    let on = booleans(&call.args[0])?;
    let id = lowerer.add_grid(GridGlobal { kind, index, on, steps, sizes: Vec::new(), span: call.span, group: 0 });
    Ok(LVal::Bool(BExpr::Grid(id)))
}

/// The first argument, a 2-D array.
fn on_array(call: &LoweredCall) -> Result<&LArray, Fault> {
    let a = call.array(0, "a 2-D array")?;
    if a.index.len() != 2 {
        return Err(internal(call.args[0].1, "a 2-D array"));
    }
    Ok(a)
}

/// The elements of a Boolean array argument.
fn booleans(arg: &(LVal, Span)) -> Result<Vec<BExpr>, Fault> {
    let LVal::Array(a) = &arg.0 else { return Err(internal(arg.1, "a 2-D array")) };
    a.elems
        .iter()
        .map(|v| match v {
            LVal::Bool(b) => Ok(b.clone()),
            _ => Err(internal(arg.1, "a Boolean array")),
        })
        .collect()
}

/// A path from its start to its end, if given: each checked to lie inside
/// the array.
fn lower_path(lowerer: &mut Lowerer<'_, '_>, call: &LoweredCall) -> Result<LVal, Fault> {
    let a = on_array(call)?;
    let mut cells = Vec::new();
    for (pair, which) in call.args[1..call.args.len().min(5)].chunks(2).zip(["start", "end"]) {
        let mut cell = [0i64; 2];
        for (d, (value, at)) in pair.iter().enumerate() {
            let LVal::Int(x, _) = value else { return Err(internal(*at, "an index")) };
            let v = x.as_const().ok_or_else(|| internal(*at, "a fixed index"))?;
            let (lo, hi) = a.index[d];
            if v < lo || v > hi {
                let found = |role: &str, value: &str| format!("the {which} {role} {value}, outside the array");
                return Err(outside(lowerer, a, d, v, found, *at));
            }
            cell[d] = v;
        }
        cells.push((cell[0], cell[1]));
    }
    let kind = GridKind::Path { start: cells[0], end: cells.get(1).copied() };
    let steps = match &call.args[..] {
        [_, _, _, _, _, across, down] => {
            Some(step_arrays(lowerer, a, across, down, "grid_path", ["sixth", "seventh"])?)
        }
        _ => None,
    };
    register(lowerer, call, kind, steps)
}

/// The step arrays `across` and `down` of a path or loop over `a`.
fn step_arrays(
    lowerer: &Lowerer<'_, '_>,
    a: &LArray,
    across: &(LVal, Span),
    down: &(LVal, Span),
    global: &str,
    ordinals: [&str; 2],
) -> Result<StepArrays, Fault> {
    let [rows, cols] = [a.index[0], a.index[1]];
    Ok(StepArrays {
        across: step_array(lowerer, a, across, ("across", ordinals[0], global), [rows, (cols.0, cols.1 - 1)])?,
        down: step_array(lowerer, a, down, ("down", ordinals[1], global), [(rows.0, rows.1 - 1), cols])?,
    })
}

/// A fixed index `v` in dimension `d` that lies outside the array `a`;
/// `found` words what was given from the index's role ("row" or "column")
/// and its value as the model names it.
pub(super) fn outside(
    lowerer: &Lowerer<'_, '_>,
    a: &LArray,
    d: usize,
    v: i64,
    found: impl Fn(&str, &str) -> String,
    at: Span,
) -> Fault {
    let (lo, hi) = a.index[d];
    let base = a.index_bases[d];
    let (role, dimension) = [("row", "rows"), ("column", "columns")][d];
    let range = if lo > hi {
        "none: the array is empty".to_string()
    } else {
        format!("{}..{}", lowerer.value_name(base, lo), lowerer.value_name(base, hi))
    };
    Fault::new(
        at,
        found(role, &lowerer.value_name(base, v)),
        format!("a cell inside the array: its {dimension} are {range}"),
    )
}

/// A loop, with its step arrays when given.
fn lower_loop(lowerer: &mut Lowerer<'_, '_>, call: &LoweredCall) -> Result<LVal, Fault> {
    let a = on_array(call)?;
    let steps = match &call.args[..] {
        [_, across, down] => Some(step_arrays(lowerer, a, across, down, "grid_loop", ["second", "third"])?),
        _ => None,
    };
    register(lowerer, call, GridKind::Loop, steps)
}

/// A path's or loop's step array (`across` or `down`, the argument `arg`,
/// the `ordinal` argument of `global`), whose index ranges must be
/// `wanted`: one element per pair of neighbouring cells of `on`, at the
/// pair's first cell.
fn step_array(
    lowerer: &Lowerer<'_, '_>,
    on: &LArray,
    arg: &(LVal, Span),
    (role, ordinal, global): (&str, &str, &str),
    wanted: [(i64, i64); 2],
) -> Result<Vec<BExpr>, Fault> {
    let LVal::Array(a) = &arg.0 else { return Err(internal(arg.1, "a 2-D array")) };
    let range = |d: usize, (lo, hi): (i64, i64)| -> String {
        if lo > hi {
            "none".to_string()
        } else {
            format!("{}..{}", lowerer.value_name(on.index_bases[d], lo), lowerer.value_name(on.index_bases[d], hi))
        }
    };
    let fits = |(lo, hi): (i64, i64), (wlo, whi): (i64, i64)| (lo, hi) == (wlo, whi) || (lo > hi && wlo > whi);
    if a.index.len() != 2 || !fits(a.index[0], wanted[0]) || !fits(a.index[1], wanted[1]) {
        let shape = |index: &[(i64, i64)]| format!("rows {} and columns {}", range(0, index[0]), range(1, index[1]));
        let (along, pair) = if role == "across" {
            ("one fewer column than", "(i, j) and (i, j+1)")
        } else {
            ("one fewer row than", "(i, j) and (i+1, j)")
        };
        let found = if a.index.len() == 2 { shape(&a.index) } else { format!("{} dimension(s)", a.index.len()) };
        let what = global.trim_start_matches("grid_");
        return Err(Fault::new(
            arg.1,
            format!("a step array `{role}` (the {ordinal} argument of `{global}`) with {found}"),
            format!(
                "{}, {along} the {what}'s array (rows {}, columns {}): element [i, j] is the step between cells {pair}",
                shape(&wanted),
                range(0, on.index[0]),
                range(1, on.index[1])
            ),
        ));
    }
    booleans(arg)
}

/// The array of a grid global in an answer: its index ranges and cells.
struct Grid<'a> {
    rows: (i64, i64),
    cols: (i64, i64),
    elems: &'a [Ev],
}

impl Grid<'_> {
    fn of<'a>(call: &EvaluatedCall<'a>) -> Eval<Grid<'a>> {
        let Some(Ev::Array(index, elems)) = call.args.first() else {
            return Err(bug("a grid global without an array"));
        };
        let [rows, cols] = index[..] else { return Err(bug("a grid global over an array that is not 2-D")) };
        Ok(Grid { rows, cols, elems })
    }

    fn on(&self, (r, c): (i64, i64)) -> bool {
        let ((r0, r1), (c0, c1)) = (self.rows, self.cols);
        let width = (c1 - c0 + 1).max(0);
        r0 <= r && r <= r1 && c0 <= c && c <= c1 && self.elems[((r - r0) * width + (c - c0)) as usize] == Ev::Bool(true)
    }

    /// The cells that are on, row by row.
    fn cells(&self) -> Vec<(i64, i64)> {
        let ((r0, r1), (c0, c1)) = (self.rows, self.cols);
        (r0..=r1).flat_map(|r| (c0..=c1).map(move |c| (r, c))).filter(|&p| self.on(p)).collect()
    }

    /// Whether `route` steps between 4-adjacent cells that are on, never
    /// repeats one, and takes every cell that is on.
    fn covered_by(&self, route: &[(i64, i64)]) -> bool {
        let distinct: HashSet<&(i64, i64)> = route.iter().collect();
        let steps_ok = route.windows(2).all(|w| touching(w[0], w[1]));
        let covers =
            distinct.len() == route.len() && route.len() == self.cells().len() && route.iter().all(|&p| self.on(p));
        covers && steps_ok
    }
}

fn touching((a, b): (i64, i64), (c, d): (i64, i64)) -> bool {
    (a - c).abs() + (b - d).abs() == 1
}

/// Argument `k`, a fixed index.
fn fixed(call: &EvaluatedCall<'_>, k: usize) -> Eval<i64> {
    match call.args.get(k) {
        Some(Ev::Int(v)) => Ok(*v),
        _ => Err(bug("a grid global without its start or end")),
    }
}

/// The cells that are on are 4-connected, by a breadth-first search.
fn verify_connected(call: &EvaluatedCall<'_>) -> Eval<Ev> {
    let grid = Grid::of(call)?;
    let cells = grid.cells();
    let Some(&first) = cells.first() else { return Ok(Ev::Bool(true)) };
    let mut reached = HashSet::from([first]);
    let mut queue = VecDeque::from([first]);
    while let Some((r, c)) = queue.pop_front() {
        for next in [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)] {
            if grid.on(next) && reached.insert(next) {
                queue.push_back(next);
            }
        }
    }
    Ok(Ev::Bool(reached.len() == cells.len()))
}

/// The witness covers the cells that are on, from the start to the end if
/// given.
fn verify_path(call: &EvaluatedCall<'_>) -> Eval<Ev> {
    let grid = Grid::of(call)?;
    let Some(route) = call.witness else { return Ok(Ev::Bool(false)) };
    let start = (fixed(call, 1)?, fixed(call, 2)?);
    let ends = match call.args.len() {
        3 => true,
        _ => route.last() == Some(&(fixed(call, 3)?, fixed(call, 4)?)),
    };
    let given_steps = match call.args {
        [_, _, _, _, _, across, down] => steps_match(route, false, across, down, [grid.rows, grid.cols])?,
        _ => true,
    };
    Ok(Ev::Bool(grid.covered_by(route) && ends && route.first() == Some(&start) && given_steps))
}

/// The witness covers the cells that are on and closes, along the steps the
/// step arrays name when given.
fn verify_loop(call: &EvaluatedCall<'_>) -> Eval<Ev> {
    let grid = Grid::of(call)?;
    let Some(route) = call.witness else { return Ok(Ev::Bool(false)) };
    let closes = route.len() >= 3 && touching(route[route.len() - 1], route[0]);
    let given_steps = match call.args {
        [_, across, down] => steps_match(route, true, across, down, [grid.rows, grid.cols])?,
        _ => true,
    };
    Ok(Ev::Bool(grid.covered_by(route) && closes && given_steps))
}

/// Whether the step arrays of a path or loop name exactly the steps of
/// `route` (closed for a loop) over `on`'s index ranges `index`:
/// `across[i, j]` the step between (i, j) and (i, j+1), `down[i, j]` the
/// one between (i, j) and (i+1, j).
fn steps_match(route: &[(i64, i64)], closed: bool, across: &Ev, down: &Ev, index: [(i64, i64); 2]) -> Eval<bool> {
    let [(r0, r1), (c0, c1)] = index;
    let mut taken = HashSet::new();
    let pairs = route.windows(2).map(|w| (w[0], w[1]));
    let closing = (closed && route.len() > 1).then(|| (route[route.len() - 1], route[0]));
    for (a, b) in pairs.chain(closing) {
        taken.insert((a.min(b), a.max(b)));
    }
    let mut named = 0;
    for (array, (dr, dc)) in [(across, (0, 1)), (down, (1, 0))] {
        let Ev::Array(shape, elems) = array else { return Err(bug("a step array that is not an array")) };
        let fits = |(lo, hi): (i64, i64), (wlo, whi): (i64, i64)| (lo, hi) == (wlo, whi) || (lo > hi && wlo > whi);
        if shape.len() != 2 || !fits(shape[0], (r0, r1 - dr)) || !fits(shape[1], (c0, c1 - dc)) {
            return Err(bug("a step array whose shape does not fit the loop's array"));
        }
        let width = (c1 - dc - c0 + 1).max(0);
        for (k, elem) in elems.iter().enumerate() {
            let (r, c) = (r0 + k as i64 / width, c0 + k as i64 % width);
            let step = taken.contains(&((r, c), (r + dr, c + dc)));
            match elem {
                Ev::Bool(b) if *b == step => named += usize::from(step),
                Ev::Bool(_) => return Ok(false),
                _ => return Err(bug("a step array that is not Boolean")),
            }
        }
    }
    // Every step of the route lies inside the arrays, so each was named.
    Ok(named == taken.len())
}

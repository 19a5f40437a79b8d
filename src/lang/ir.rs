//! The unrolled model: every generator expanded, every parameter folded in,
//! every constant index resolved. What is left are Boolean and integer
//! expressions over the scalar decision variables, grouped by the
//! constraint (or `forall` instance) they came from. The encodings in
//! [`crate::compile`] turn this into CNF.
//!
//! Integer expressions carry bounds, and whether they can be undefined
//! (a division by a variable that may be 0, an index that may be out of
//! range). Undefinedness follows MiniZinc's relational semantics: it makes
//! the nearest enclosing Boolean expression false.

use super::model::{IntSet, MAX_ABS};

/// An integer expression over the decision variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IExpr {
    /// What it is.
    pub kind: IKind,
    /// A lower bound on its value.
    pub lo: i64,
    /// An upper bound on its value.
    pub hi: i64,
    /// True when some assignment leaves it undefined.
    pub partial: bool,
}

/// The integer expression forms.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IKind {
    /// A constant.
    Const(i64),
    /// A scalar decision variable (int or enum).
    Var(usize),
    /// `Σ c·e + k`; no term is a constant or a sum, no coefficient is 0.
    Sum(Vec<(i64, IExpr)>, i64),
    /// A product of two non-constant expressions.
    Mul(Box<IExpr>, Box<IExpr>),
    /// Truncating division.
    Div(Box<IExpr>, Box<IExpr>),
    /// The remainder of truncating division (sign of the dividend).
    Mod(Box<IExpr>, Box<IExpr>),
    /// Absolute value.
    Abs(Box<IExpr>),
    /// Least of two or more.
    Min(Vec<IExpr>),
    /// Greatest of two or more.
    Max(Vec<IExpr>),
    /// `items[index]` with a variable index; `dims` are the index ranges.
    Element { index: Vec<IExpr>, dims: Vec<(i64, i64)>, items: Vec<IExpr> },
    /// `if c1 then e1 elseif ... else e endif` with variable conditions.
    Ite(Vec<(BExpr, IExpr)>, Box<IExpr>),
    /// 1 when the Boolean holds, else 0.
    BoolToInt(Box<BExpr>),
}

/// Comparison operators after normalisation (`a > b` is `b < a`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
}

/// A Boolean expression over the decision variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BExpr {
    /// A constant.
    Const(bool),
    /// A Boolean decision variable.
    Var(usize),
    /// Negation.
    Not(Box<BExpr>),
    /// Conjunction of two or more.
    And(Vec<BExpr>),
    /// Disjunction of two or more.
    Or(Vec<BExpr>),
    /// `a <-> b`.
    Iff(Box<BExpr>, Box<BExpr>),
    /// `a xor b`.
    Xor(Box<BExpr>, Box<BExpr>),
    /// Integer comparison.
    Cmp(Cmp, IExpr, IExpr),
    /// Membership in a fixed set.
    In(IExpr, IntSet),
    /// All values pairwise different.
    AllDifferent(Vec<IExpr>),
    /// The values form one of the rows.
    Table(Vec<IExpr>, Vec<Vec<i64>>),
    /// `items[index]` with a variable index, for Boolean arrays.
    Element { index: Vec<IExpr>, dims: Vec<(i64, i64)>, items: Vec<BExpr> },
    /// `if c1 then e1 elseif ... else e endif` with variable conditions.
    Ite(Vec<(BExpr, BExpr)>, Box<BExpr>),
    /// The grid global with this number in [`super::Program::grids`]; only
    /// ever a constraint of its own (alone or in a top-level conjunction).
    Grid(usize),
}

/// Which grid global, with its own arguments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GridKind {
    /// `grid_path(on, r, c)` or `grid_path(on, r, c, er, ec)`: the start
    /// and end as the array's own indices.
    Path {
        /// The start cell.
        start: (i64, i64),
        /// The end cell, when given.
        end: Option<(i64, i64)>,
    },
    /// `grid_loop(on)` or `grid_loop(on, across, down)`.
    Loop,
    /// `grid_connected(on)`.
    Connected,
    /// `grid_regions(size, across, down)`: the regions are the pieces the
    /// joined steps (its step arrays) make, and each cell's size (in
    /// [`GridGlobal::sizes`]) is the number of cells of its region.
    Regions,
    /// `graph_connected(on, from, to)`: the nodes that are on (one per
    /// element of `on`, numbered from 0 in its order) are connected over
    /// the undirected `edges`, pairs of node numbers.
    GraphConnected {
        /// The edges, as node numbers.
        edges: Vec<(usize, usize)>,
    },
    /// `graph_acyclic(used, from, to)`: the edges that are used (one per
    /// element of `used`, in [`GridGlobal::on`]) contain no cycle.
    GraphAcyclic {
        /// How many nodes the edges name.
        nodes: usize,
        /// Each edge's two nodes, numbered from 0 in the order of their
        /// first mention.
        edges: Vec<(usize, usize)>,
    },
}

/// One grid global, unrolled: which one, the index ranges of its array,
/// and each cell's "on" expression in row-major order. A graph global
/// (`graph_connected`, `graph_acyclic`) is one too, over its 1-D array as a
/// grid of one column: its "cells" are the nodes or the edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridGlobal {
    /// Which global.
    pub kind: GridKind,
    /// The array's `(lo, hi)` per dimension: rows, then columns (for a
    /// graph global, its 1-D array's range, then `(0, 0)`).
    pub index: [(i64, i64); 2],
    /// The cells' Booleans, row by row.
    pub on: Vec<BExpr>,
    /// For `grid_loop(on, across, down)`, the step arrays the loop's steps
    /// are bound to.
    pub steps: Option<StepArrays>,
    /// For `grid_regions`, each cell's size, row by row; empty for the
    /// others.
    pub sizes: Vec<IExpr>,
    /// Where the call is, for messages.
    pub span: super::syntax::Span,
    /// The group (constraint instance) it belongs to.
    pub group: usize,
}

/// The Booleans of a loop's steps, as the model names them: `across` has
/// one per pair of neighbours in a row (rows × (cols − 1), row by row, the
/// step from column j to j + 1 at column j), `down` one per pair in a column
/// ((rows − 1) × cols, the step from row i to i + 1 at row i).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepArrays {
    /// Steps within a row.
    pub across: Vec<BExpr>,
    /// Steps within a column.
    pub down: Vec<BExpr>,
}

/// The scalar decision variables an expression reads, each once: the scope
/// of a constraint, which a hint names and a picture outlines. A grid
/// global reads its cells' and steps' expressions, found in `grids`.
pub fn read_scalars(expr: &BExpr, grids: &[GridGlobal]) -> std::collections::BTreeSet<usize> {
    let mut found = std::collections::BTreeSet::new();
    expr.read(grids, &mut found);
    found
}

/// The scalars a constraint fixes and the values it fixes them to, when
/// that is all it says: `x = 5` (either way round), `x in {5}`, a Boolean
/// `b` or `not b` (1 or 0), or a conjunction of these, once parameters are
/// folded in (a Sudoku's given digit, a clue). `None` for anything else,
/// however simple (`x >= 2`, `2*x - 3 >= -1`, `x = y`): what those say
/// about a value is a deduction.
pub fn fixed_values(expr: &BExpr) -> Option<Vec<(usize, i64)>> {
    let mut fixed = Vec::new();
    expr.fixes(&mut fixed).then_some(fixed)
}

impl BExpr {
    /// Adds what [`fixed_values`] finds to `fixed`; false when the
    /// expression says anything else.
    fn fixes(&self, fixed: &mut Vec<(usize, i64)>) -> bool {
        let one = |set: &IntSet| match set.intervals() {
            [(lo, hi)] if lo == hi => Some(*lo),
            _ => None,
        };
        let pair = match self {
            BExpr::Var(b) => Some((*b, 1)),
            BExpr::Not(inner) => match &**inner {
                BExpr::Var(b) => Some((*b, 0)),
                _ => None,
            },
            BExpr::And(items) => return items.iter().all(|item| item.fixes(fixed)),
            BExpr::Cmp(Cmp::Eq, a, b) => match (&a.kind, &b.kind) {
                (IKind::Var(v), IKind::Const(c)) | (IKind::Const(c), IKind::Var(v)) => Some((*v, *c)),
                _ => None,
            },
            BExpr::In(a, set) => match (&a.kind, one(set)) {
                (IKind::Var(v), Some(c)) => Some((*v, c)),
                _ => None,
            },
            _ => None,
        };
        fixed.extend(pair);
        pair.is_some()
    }

    fn read(&self, grids: &[GridGlobal], found: &mut std::collections::BTreeSet<usize>) {
        match self {
            BExpr::Const(_) => {}
            BExpr::Var(v) => {
                found.insert(*v);
            }
            BExpr::Not(a) => a.read(grids, found),
            BExpr::And(items) | BExpr::Or(items) => items.iter().for_each(|b| b.read(grids, found)),
            BExpr::Iff(a, b) | BExpr::Xor(a, b) => {
                a.read(grids, found);
                b.read(grids, found);
            }
            BExpr::Cmp(_, a, b) => {
                a.read(grids, found);
                b.read(grids, found);
            }
            BExpr::In(a, _) => a.read(grids, found),
            BExpr::AllDifferent(items) | BExpr::Table(items, _) => items.iter().for_each(|i| i.read(grids, found)),
            BExpr::Element { index, items, .. } => {
                index.iter().for_each(|i| i.read(grids, found));
                items.iter().for_each(|b| b.read(grids, found));
            }
            BExpr::Ite(branches, otherwise) => {
                for (condition, value) in branches {
                    condition.read(grids, found);
                    value.read(grids, found);
                }
                otherwise.read(grids, found);
            }
            BExpr::Grid(g) => {
                let grid = &grids[*g];
                let steps = grid.steps.iter().flat_map(|s| s.across.iter().chain(&s.down));
                grid.on.iter().chain(steps).for_each(|b| b.read(grids, found));
                grid.sizes.iter().for_each(|e| e.read(grids, found));
            }
        }
    }
}

impl IExpr {
    /// The scalar decision variables the expression reads, into `found`.
    pub fn read(&self, grids: &[GridGlobal], found: &mut std::collections::BTreeSet<usize>) {
        match &self.kind {
            IKind::Const(_) => {}
            IKind::Var(v) => {
                found.insert(*v);
            }
            IKind::Sum(terms, _) => terms.iter().for_each(|(_, e)| e.read(grids, found)),
            IKind::Mul(a, b) | IKind::Div(a, b) | IKind::Mod(a, b) => {
                a.read(grids, found);
                b.read(grids, found);
            }
            IKind::Abs(a) => a.read(grids, found),
            IKind::Min(items) | IKind::Max(items) => items.iter().for_each(|e| e.read(grids, found)),
            IKind::Element { index, items, .. } => {
                index.iter().chain(items).for_each(|e| e.read(grids, found));
            }
            IKind::Ite(branches, otherwise) => {
                for (condition, value) in branches {
                    condition.read(grids, found);
                    value.read(grids, found);
                }
                otherwise.read(grids, found);
            }
            IKind::BoolToInt(b) => b.read(grids, found),
        }
    }
}

/// The value of every scalar an expression reads, when it is known; an
/// evaluation with one unknown or undefined part has no value.
pub type Known<'a> = &'a dyn Fn(usize) -> Option<i64>;

impl IExpr {
    /// The value under `known`, `None` when a scalar it needs is unknown or
    /// the expression is undefined there (a division by 0, an index out of
    /// range). Pictures read cell values with it; answers are judged by the
    /// verifier on the model's own syntax, never by this.
    pub fn eval(&self, known: Known<'_>) -> Option<i64> {
        let two = |a: &IExpr, b: &IExpr| Some((a.eval(known)?, b.eval(known)?));
        match &self.kind {
            IKind::Const(v) => Some(*v),
            IKind::Var(v) => known(*v),
            IKind::Sum(terms, k) => {
                terms.iter().try_fold(*k, |acc, (c, e)| acc.checked_add(c.checked_mul(e.eval(known)?)?))
            }
            IKind::Mul(a, b) => two(a, b).and_then(|(a, b)| a.checked_mul(b)),
            IKind::Div(a, b) => two(a, b).and_then(|(a, b)| a.checked_div(b)),
            IKind::Mod(a, b) => two(a, b).and_then(|(a, b)| a.checked_rem(b)),
            IKind::Abs(a) => a.eval(known).map(i64::abs),
            IKind::Min(items) => items.iter().map(|e| e.eval(known)).collect::<Option<Vec<_>>>()?.into_iter().min(),
            IKind::Max(items) => items.iter().map(|e| e.eval(known)).collect::<Option<Vec<_>>>()?.into_iter().max(),
            IKind::Element { index, dims, items } => items.get(element_position(index, dims, known)?)?.eval(known),
            IKind::Ite(branches, otherwise) => {
                for (condition, value) in branches {
                    if condition.eval(known)? {
                        return value.eval(known);
                    }
                }
                otherwise.eval(known)
            }
            IKind::BoolToInt(b) => b.eval(known).map(i64::from),
        }
    }
}

/// The row-major position an element's index selects, when it is known and
/// within `dims`.
fn element_position(index: &[IExpr], dims: &[(i64, i64)], known: Known<'_>) -> Option<usize> {
    let mut position = 0usize;
    for (i, &(lo, hi)) in index.iter().zip(dims) {
        let v = i.eval(known)?;
        if v < lo || v > hi {
            return None;
        }
        position = position * (hi - lo + 1) as usize + (v - lo) as usize;
    }
    Some(position)
}

impl BExpr {
    /// The truth value under `known`, as [`IExpr::eval`]; a grid global has
    /// none here (its truth is a route, which the verifier walks).
    pub fn eval(&self, known: Known<'_>) -> Option<bool> {
        match self {
            BExpr::Const(b) => Some(*b),
            BExpr::Var(v) => known(*v).map(|x| x != 0),
            BExpr::Not(a) => a.eval(known).map(|b| !b),
            BExpr::And(items) => items.iter().try_fold(true, |acc, b| Some(acc & b.eval(known)?)),
            BExpr::Or(items) => items.iter().try_fold(false, |acc, b| Some(acc | b.eval(known)?)),
            BExpr::Iff(a, b) => Some(a.eval(known)? == b.eval(known)?),
            BExpr::Xor(a, b) => Some(a.eval(known)? != b.eval(known)?),
            BExpr::Cmp(op, a, b) => {
                let (a, b) = (a.eval(known)?, b.eval(known)?);
                Some(match op {
                    Cmp::Eq => a == b,
                    Cmp::Ne => a != b,
                    Cmp::Lt => a < b,
                    Cmp::Le => a <= b,
                })
            }
            BExpr::In(a, set) => Some(set.contains(a.eval(known)?)),
            BExpr::AllDifferent(items) => {
                let values = items.iter().map(|e| e.eval(known)).collect::<Option<Vec<_>>>()?;
                let distinct: std::collections::BTreeSet<i64> = values.iter().copied().collect();
                Some(distinct.len() == values.len())
            }
            BExpr::Table(items, rows) => {
                let values = items.iter().map(|e| e.eval(known)).collect::<Option<Vec<_>>>()?;
                Some(rows.contains(&values))
            }
            BExpr::Element { index, dims, items } => items.get(element_position(index, dims, known)?)?.eval(known),
            BExpr::Ite(branches, otherwise) => {
                for (condition, value) in branches {
                    if condition.eval(known)? {
                        return value.eval(known);
                    }
                }
                otherwise.eval(known)
            }
            BExpr::Grid(_) => None,
        }
    }
}

impl GridGlobal {
    /// The function's name, as written.
    pub fn name(&self) -> &'static str {
        match self.kind {
            GridKind::Path { .. } => "grid_path",
            GridKind::Loop => "grid_loop",
            GridKind::Connected => "grid_connected",
            GridKind::Regions => "grid_regions",
            GridKind::GraphConnected { .. } => "graph_connected",
            GridKind::GraphAcyclic { .. } => "graph_acyclic",
        }
    }

    /// Rows and columns of the array.
    pub fn shape(&self) -> (usize, usize) {
        let [(r0, r1), (c0, c1)] = self.index;
        ((r1 - r0 + 1).max(0) as usize, (c1 - c0 + 1).max(0) as usize)
    }

    /// The 0-based grid position of a cell given by the array's indices.
    pub fn position(&self, (row, col): (i64, i64)) -> (usize, usize) {
        ((row - self.index[0].0) as usize, (col - self.index[1].0) as usize)
    }

    /// The array's indices of a 0-based grid position.
    pub fn cell(&self, (row, col): (usize, usize)) -> (i64, i64) {
        (self.index[0].0 + row as i64, self.index[1].0 + col as i64)
    }

    /// The first grid global a constraint holds anywhere but at its top
    /// (alone, or as an item of its top-level conjunction, or under a guard
    /// there: `b -> g` is `not b \/ g`).
    pub fn misplaced_in(expr: &BExpr) -> Option<usize> {
        let item = |b: &BExpr| match b {
            BExpr::Grid(_) => None,
            BExpr::Or(items) if guarded(items).is_some() => {
                items.iter().filter(|i| !matches!(i, BExpr::Grid(_))).find_map(first_grid)
            }
            other => first_grid(other),
        };
        match expr {
            BExpr::And(items) => items.iter().find_map(item),
            other => item(other),
        }
    }

    /// Every grid global at the top of a constraint, guarded or not.
    pub fn at_top(expr: &BExpr) -> Vec<usize> {
        let item = |b: &BExpr| match b {
            BExpr::Grid(id) => Some(*id),
            BExpr::Or(items) => guarded(items),
            _ => None,
        };
        match expr {
            BExpr::And(items) => items.iter().filter_map(item).collect(),
            other => item(other).into_iter().collect(),
        }
    }
}

/// The one grid global among the items of a disjunction, if exactly one
/// is: the global, guarded by the others being false.
fn guarded(items: &[BExpr]) -> Option<usize> {
    let mut grids = items.iter().filter_map(|b| if let BExpr::Grid(id) = b { Some(*id) } else { None });
    match (grids.next(), grids.next()) {
        (Some(id), None) => Some(id),
        _ => None,
    }
}

/// The first grid global anywhere in `b`.
fn first_grid(b: &BExpr) -> Option<usize> {
    match b {
        BExpr::Grid(id) => Some(*id),
        BExpr::Const(_) | BExpr::Var(_) => None,
        BExpr::Not(inner) => first_grid(inner),
        BExpr::And(items) | BExpr::Or(items) => items.iter().find_map(first_grid),
        BExpr::Iff(a, c) | BExpr::Xor(a, c) => first_grid(a).or_else(|| first_grid(c)),
        BExpr::Element { items, .. } => items.iter().find_map(first_grid),
        BExpr::Ite(branches, otherwise) => {
            branches.iter().find_map(|(c, v)| first_grid(c).or_else(|| first_grid(v))).or_else(|| first_grid(otherwise))
        }
        BExpr::Cmp(..) | BExpr::In(..) | BExpr::AllDifferent(_) | BExpr::Table(..) => None,
    }
}

/// An integer bound went past [`MAX_ABS`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Overflow;

fn bounded(lo: i128, hi: i128) -> Result<(i64, i64), Overflow> {
    let limit = MAX_ABS as i128;
    if lo < -limit || hi > limit { Err(Overflow) } else { Ok((lo as i64, hi as i64)) }
}

impl IExpr {
    /// A constant.
    pub fn constant(value: i64) -> IExpr {
        IExpr { kind: IKind::Const(value), lo: value, hi: value, partial: false }
    }

    /// A decision variable with its domain.
    pub fn var(id: usize, domain: &IntSet) -> IExpr {
        let lo = domain.min().unwrap_or(0);
        let hi = domain.max().unwrap_or(0);
        IExpr { kind: IKind::Var(id), lo, hi, partial: false }
    }

    /// The value, when constant.
    pub fn as_const(&self) -> Option<i64> {
        match self.kind {
            IKind::Const(v) => Some(v),
            _ => None,
        }
    }

    fn build(kind: IKind, (lo, hi): (i64, i64), partial: bool) -> IExpr {
        if lo == hi && !partial && !matches!(kind, IKind::Var(_)) && is_pure(&kind) {
            return IExpr::constant(lo);
        }
        IExpr { kind, lo, hi, partial }
    }

    /// `Σ c·e + k`, flattened and merged.
    pub fn sum(terms: Vec<(i64, IExpr)>, constant: i64) -> Result<IExpr, Overflow> {
        // No room is taken before a term needs it: most sums the unrolling
        // makes are of constants (index arithmetic).
        let mut flat: Vec<(i64, IExpr)> = Vec::new();
        let mut k = constant as i128;
        for (c, e) in terms {
            flatten_term(&mut flat, &mut k, c as i128, e)?;
        }
        merge_equal_terms(&mut flat)?;
        flat.retain(|(c, e)| *c != 0 || e.partial);
        let k = i64::try_from(k).map_err(|_| Overflow)?;
        let (mut lo, mut hi) = (k as i128, k as i128);
        for (c, e) in &flat {
            let (a, b) = (*c as i128 * e.lo as i128, *c as i128 * e.hi as i128);
            lo += a.min(b);
            hi += a.max(b);
        }
        let bounds = bounded(lo, hi)?;
        let partial = flat.iter().any(|(_, e)| e.partial);
        if flat.is_empty() {
            return Ok(IExpr::constant(k));
        }
        if flat.len() == 1 && flat[0].0 == 1 && k == 0 {
            return Ok(flat.pop().map(|(_, e)| e).expect("one term"));
        }
        Ok(IExpr { kind: IKind::Sum(flat, k), lo: bounds.0, hi: bounds.1, partial })
    }

    /// The constant `value`, within the integer bounds, as [`IExpr::sum`]
    /// gives a sum of constants.
    fn fixed(value: i128) -> Result<IExpr, Overflow> {
        Ok(IExpr::constant(bounded(value, value)?.0))
    }

    /// `a + b`.
    pub fn add(a: IExpr, b: IExpr) -> Result<IExpr, Overflow> {
        // Index arithmetic over loop variables is most of the unrolling's
        // sums: folded here, it makes no sum at all.
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            return IExpr::fixed(x as i128 + y as i128);
        }
        IExpr::sum(vec![(1, a), (1, b)], 0)
    }

    /// `a - b`.
    pub fn sub(a: IExpr, b: IExpr) -> Result<IExpr, Overflow> {
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            return IExpr::fixed(x as i128 - y as i128);
        }
        IExpr::sum(vec![(1, a), (-1, b)], 0)
    }

    /// `a * b`; a constant factor stays linear.
    pub fn mul(a: IExpr, b: IExpr) -> Result<IExpr, Overflow> {
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            return IExpr::fixed(x as i128 * y as i128);
        }
        if let Some(c) = a.as_const() {
            return IExpr::sum(vec![(c, b)], 0);
        }
        if let Some(c) = b.as_const() {
            return IExpr::sum(vec![(c, a)], 0);
        }
        let corners = [
            a.lo as i128 * b.lo as i128,
            a.lo as i128 * b.hi as i128,
            a.hi as i128 * b.lo as i128,
            a.hi as i128 * b.hi as i128,
        ];
        let bounds = bounded(*corners.iter().min().expect("four"), *corners.iter().max().expect("four"))?;
        let partial = a.partial || b.partial;
        Ok(IExpr::build(IKind::Mul(Box::new(a), Box::new(b)), bounds, partial))
    }

    /// `a div b`; `None` for a constant divisor of 0 (the caller reports it).
    pub fn div(a: IExpr, b: IExpr) -> Option<Result<IExpr, Overflow>> {
        if b.as_const() == Some(0) {
            return None;
        }
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            return Some(Ok(IExpr::constant(x / y)));
        }
        let mut values = Vec::new();
        for y in divisor_corners(b.lo, b.hi) {
            values.push(a.lo / y);
            values.push(a.hi / y);
        }
        let (lo, hi) = match (values.iter().min(), values.iter().max()) {
            (Some(&lo), Some(&hi)) => (lo, hi),
            _ => (0, 0),
        };
        let partial = a.partial || b.partial || (b.lo <= 0 && b.hi >= 0);
        Some(Ok(IExpr::build(IKind::Div(Box::new(a), Box::new(b)), (lo, hi), partial)))
    }

    /// `a mod b`; `None` for a constant divisor of 0.
    pub fn modulo(a: IExpr, b: IExpr) -> Option<Result<IExpr, Overflow>> {
        if b.as_const() == Some(0) {
            return None;
        }
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            return Some(Ok(IExpr::constant(x % y)));
        }
        let m = b.lo.unsigned_abs().max(b.hi.unsigned_abs()).saturating_sub(1) as i64;
        let lo = if a.lo < 0 { a.lo.max(-m) } else { 0 };
        let hi = if a.hi > 0 { a.hi.min(m) } else { 0 };
        let partial = a.partial || b.partial || (b.lo <= 0 && b.hi >= 0);
        Some(Ok(IExpr::build(IKind::Mod(Box::new(a), Box::new(b)), (lo, hi), partial)))
    }

    /// `a div b` or `a mod b` with a divisor that is 0 whatever the
    /// variables: undefined everywhere.
    pub fn undefined_div(div: bool, a: IExpr, b: IExpr) -> IExpr {
        let kind = if div { IKind::Div(Box::new(a), Box::new(b)) } else { IKind::Mod(Box::new(a), Box::new(b)) };
        IExpr { kind, lo: 0, hi: 0, partial: true }
    }

    /// `abs(a)`.
    pub fn abs(a: IExpr) -> IExpr {
        if let Some(v) = a.as_const() {
            return IExpr::constant(v.abs());
        }
        let hi = a.lo.abs().max(a.hi.abs());
        let lo = if a.lo <= 0 && a.hi >= 0 { 0 } else { a.lo.abs().min(a.hi.abs()) };
        let partial = a.partial;
        IExpr::build(IKind::Abs(Box::new(a)), (lo, hi), partial)
    }

    /// `min(items)` or `max(items)` of at least one item.
    pub fn extremum(items: Vec<IExpr>, max: bool) -> IExpr {
        if items.len() == 1 {
            return items.into_iter().next().expect("one item");
        }
        if items.iter().all(|e| e.as_const().is_some()) {
            let values = items.iter().filter_map(IExpr::as_const);
            let v = if max { values.max() } else { values.min() };
            return IExpr::constant(v.unwrap_or(0));
        }
        let pick = |f: fn(&IExpr) -> i64| {
            let values = items.iter().map(f);
            if max { values.max().unwrap_or(0) } else { values.min().unwrap_or(0) }
        };
        let (lo, hi) = (pick(|e| e.lo), pick(|e| e.hi));
        let partial = items.iter().any(|e| e.partial);
        let kind = if max { IKind::Max(items) } else { IKind::Min(items) };
        IExpr::build(kind, (lo, hi), partial)
    }

    /// `items[index]` for variable indices over the given index ranges.
    pub fn element(index: Vec<IExpr>, dims: Vec<(i64, i64)>, items: Vec<IExpr>) -> IExpr {
        let lo = items.iter().map(|e| e.lo).min().unwrap_or(0);
        let hi = items.iter().map(|e| e.hi).max().unwrap_or(0);
        let in_range = index.iter().zip(&dims).all(|(i, &(a, b))| !i.partial && i.lo >= a && i.hi <= b);
        let partial = !in_range || items.iter().any(|e| e.partial);
        IExpr { kind: IKind::Element { index, dims, items }, lo, hi, partial }
    }

    /// `if c1 then e1 ... else e endif` with variable conditions.
    pub fn ite(branches: Vec<(BExpr, IExpr)>, otherwise: IExpr) -> IExpr {
        if branches.is_empty() {
            return otherwise;
        }
        let lo = branches.iter().map(|(_, e)| e.lo).chain([otherwise.lo]).min().unwrap_or(0);
        let hi = branches.iter().map(|(_, e)| e.hi).chain([otherwise.hi]).max().unwrap_or(0);
        let partial = otherwise.partial || branches.iter().any(|(_, e)| e.partial);
        IExpr { kind: IKind::Ite(branches, Box::new(otherwise)), lo, hi, partial }
    }

    /// `bool2int(b)`.
    pub fn bool2int(b: BExpr) -> IExpr {
        match b {
            BExpr::Const(v) => IExpr::constant(i64::from(v)),
            b => IExpr { kind: IKind::BoolToInt(Box::new(b)), lo: 0, hi: 1, partial: false },
        }
    }
}

/// The divisors at the ends of each sign's part of `lo..hi`, 0 excluded.
fn divisor_corners(lo: i64, hi: i64) -> Vec<i64> {
    let mut corners = Vec::new();
    if hi >= 1 {
        corners.extend([lo.max(1), hi]);
    }
    if lo <= -1 {
        corners.extend([lo, hi.min(-1)]);
    }
    corners
}

/// True when the expression has no variable inside (so equal bounds mean a
/// constant).
fn is_pure(kind: &IKind) -> bool {
    match kind {
        IKind::Const(_) => true,
        IKind::Var(_) | IKind::Element { .. } | IKind::Ite(..) | IKind::BoolToInt(_) => false,
        IKind::Sum(terms, _) => terms.iter().all(|(_, e)| is_pure(&e.kind)),
        IKind::Mul(a, b) | IKind::Div(a, b) | IKind::Mod(a, b) => is_pure(&a.kind) && is_pure(&b.kind),
        IKind::Abs(a) => is_pure(&a.kind),
        IKind::Min(items) | IKind::Max(items) => items.iter().all(|e| is_pure(&e.kind)),
    }
}

impl BExpr {
    /// The value, when constant.
    pub fn as_const(&self) -> Option<bool> {
        match self {
            BExpr::Const(v) => Some(*v),
            _ => None,
        }
    }

    /// `not b`.
    #[allow(clippy::should_implement_trait)]
    pub fn not(b: BExpr) -> BExpr {
        match b {
            BExpr::Const(v) => BExpr::Const(!v),
            BExpr::Not(inner) => *inner,
            b => BExpr::Not(Box::new(b)),
        }
    }

    /// Conjunction, flattened, with constants folded.
    pub fn and(items: Vec<BExpr>) -> BExpr {
        let mut flat = Vec::new();
        for item in items {
            match item {
                BExpr::Const(true) => {}
                BExpr::Const(false) => return BExpr::Const(false),
                BExpr::And(inner) => flat.extend(inner),
                item => flat.push(item),
            }
        }
        match flat.len() {
            0 => BExpr::Const(true),
            1 => flat.pop().expect("one item"),
            _ => BExpr::And(flat),
        }
    }

    /// Disjunction, flattened, with constants folded.
    pub fn or(items: Vec<BExpr>) -> BExpr {
        let mut flat = Vec::new();
        for item in items {
            match item {
                BExpr::Const(false) => {}
                BExpr::Const(true) => return BExpr::Const(true),
                BExpr::Or(inner) => flat.extend(inner),
                item => flat.push(item),
            }
        }
        match flat.len() {
            0 => BExpr::Const(false),
            1 => flat.pop().expect("one item"),
            _ => BExpr::Or(flat),
        }
    }

    /// `a -> b`.
    pub fn implies(a: BExpr, b: BExpr) -> BExpr {
        BExpr::or(vec![BExpr::not(a), b])
    }

    /// `a <-> b`.
    pub fn iff(a: BExpr, b: BExpr) -> BExpr {
        match (a.as_const(), b.as_const()) {
            (Some(x), _) => {
                if x {
                    b
                } else {
                    BExpr::not(b)
                }
            }
            (_, Some(y)) => {
                if y {
                    a
                } else {
                    BExpr::not(a)
                }
            }
            _ => BExpr::Iff(Box::new(a), Box::new(b)),
        }
    }

    /// `a xor b`.
    pub fn xor(a: BExpr, b: BExpr) -> BExpr {
        match (a.as_const(), b.as_const()) {
            (Some(x), _) => {
                if x {
                    BExpr::not(b)
                } else {
                    b
                }
            }
            (_, Some(y)) => {
                if y {
                    BExpr::not(a)
                } else {
                    a
                }
            }
            _ => BExpr::Xor(Box::new(a), Box::new(b)),
        }
    }

    /// `a op b`, folded when both sides are constant.
    pub fn cmp(op: Cmp, a: IExpr, b: IExpr) -> BExpr {
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            return BExpr::Const(match op {
                Cmp::Eq => x == y,
                Cmp::Ne => x != y,
                Cmp::Lt => x < y,
                Cmp::Le => x <= y,
            });
        }
        BExpr::Cmp(op, a, b)
    }

    /// `a in set`.
    pub fn member(a: IExpr, set: IntSet) -> BExpr {
        match a.as_const() {
            Some(v) => BExpr::Const(set.contains(v)),
            None => BExpr::In(a, set),
        }
    }

    /// `if c1 then b1 ... else b endif` with variable conditions.
    pub fn ite(branches: Vec<(BExpr, BExpr)>, otherwise: BExpr) -> BExpr {
        if branches.is_empty() { otherwise } else { BExpr::Ite(branches, Box::new(otherwise)) }
    }
}

/// Appends `c·e` to `flat`, a sum's terms: a constant goes to `k`, a sum's
/// terms one by one, anything else as it is.
fn flatten_term(flat: &mut Vec<(i64, IExpr)>, k: &mut i128, c: i128, e: IExpr) -> Result<(), Overflow> {
    // A term times 0 is still undefined where the term is.
    if c == 0 && !e.partial {
        return Ok(());
    }
    match e.kind {
        IKind::Const(v) => *k += c * v as i128,
        IKind::Sum(terms, k2) => {
            *k += c * k2 as i128;
            for (c2, e2) in terms {
                flatten_term(flat, k, c * c2 as i128, e2)?;
            }
        }
        _ => flat.push((i64::try_from(c).map_err(|_| Overflow)?, e)),
    }
    Ok(())
}

/// Below this many terms a sum finds equal terms by comparing each with
/// those before it, with no table to build.
const SMALL_SUM: usize = 8;

/// Merges each term of `flat` into the first term of an equal expression,
/// their coefficients added, keeping the first terms in order. The terms
/// are compared in place, never cloned: cloning and hashing whole
/// expression trees made the sums of the unrolling a large part of it.
fn merge_equal_terms(flat: &mut Vec<(i64, IExpr)>) -> Result<(), Overflow> {
    if flat.len() <= SMALL_SUM {
        let mut i = 1;
        while i < flat.len() {
            match (0..i).find(|&j| flat[j].1 == flat[i].1) {
                Some(j) => {
                    let (c, _) = flat.remove(i);
                    flat[j].0 = flat[j].0.checked_add(c).ok_or(Overflow)?;
                }
                None => i += 1,
            }
        }
        return Ok(());
    }
    // Where each term is: a linear scan per term made a sum of n terms
    // cost n² comparisons.
    let first: Vec<usize> = {
        let mut seen: rustc_hash::FxHashMap<&IExpr, usize> =
            rustc_hash::FxHashMap::with_capacity_and_hasher(flat.len(), Default::default());
        flat.iter().enumerate().map(|(i, (_, e))| *seen.entry(e).or_insert(i)).collect()
    };
    if first.iter().enumerate().all(|(i, &f)| i == f) {
        return Ok(());
    }
    for (i, &f) in first.iter().enumerate() {
        if f != i {
            let c = flat[i].0;
            let term = &mut flat[f].0;
            *term = term.checked_add(c).ok_or(Overflow)?;
        }
    }
    let mut i = 0;
    flat.retain(|_| {
        i += 1;
        first[i - 1] == i - 1
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(id: usize, lo: i64, hi: i64) -> IExpr {
        IExpr::var(id, &IntSet::range(lo, hi))
    }

    /// Evaluating an expression over variables agrees with building it
    /// from the variables' values, which the constructors fold.
    #[test]
    fn evaluation_agrees_with_folding_constants() {
        for a in -4..=4 {
            for b in -3..=3 {
                let known = |id: usize| Some([a, b][id]);
                let (x, y) = (v(0, -4, 4), v(1, -3, 3));
                let (ca, cb) = (IExpr::constant(a), IExpr::constant(b));
                let pairs: [(Option<IExpr>, Option<IExpr>); 5] = [
                    (IExpr::add(x.clone(), y.clone()).ok(), IExpr::add(ca.clone(), cb.clone()).ok()),
                    (IExpr::mul(x.clone(), y.clone()).ok(), IExpr::mul(ca.clone(), cb.clone()).ok()),
                    (
                        IExpr::div(x.clone(), y.clone()).and_then(Result::ok),
                        IExpr::div(ca.clone(), cb.clone()).and_then(Result::ok),
                    ),
                    (
                        IExpr::modulo(x.clone(), y.clone()).and_then(Result::ok),
                        IExpr::modulo(ca.clone(), cb.clone()).and_then(Result::ok),
                    ),
                    (
                        Some(IExpr::extremum(vec![x.clone(), y.clone()], true)),
                        Some(IExpr::extremum(vec![ca.clone(), cb.clone()], true)),
                    ),
                ];
                for (over_vars, folded) in pairs {
                    let expected = folded.and_then(|f| f.as_const());
                    assert_eq!(over_vars.and_then(|e| e.eval(&known)), expected, "a = {a}, b = {b}");
                }
                let lt = BExpr::cmp(Cmp::Lt, x.clone(), y.clone());
                assert_eq!(lt.eval(&known), Some(a < b));
                assert_eq!(BExpr::not(lt).eval(&|_| None), None, "unknown values give no value");
            }
        }
    }

    /// Only `x = c`, `x in {c}`, `b`, `not b` and their conjunctions fix
    /// values outright; anything else says more, or less.
    #[test]
    fn only_a_constant_for_a_variable_fixes_a_value() {
        let (x, y) = (v(0, 0, 9), v(1, 0, 9));
        let eq = |a: IExpr, b: IExpr| BExpr::Cmp(Cmp::Eq, a, b);
        let five = IExpr::constant(5);
        let both = BExpr::And(vec![eq(five.clone(), x.clone()), BExpr::Not(Box::new(BExpr::Var(2)))]);
        assert_eq!(fixed_values(&both), Some(vec![(0, 5), (2, 0)]));
        assert_eq!(fixed_values(&BExpr::In(y.clone(), IntSet::range(3, 3))), Some(vec![(1, 3)]));
        assert_eq!(fixed_values(&BExpr::Var(2)), Some(vec![(2, 1)]));
        let twice = IExpr::sum(vec![(2, x.clone())], -3).unwrap();
        for says_more in [
            BExpr::Cmp(Cmp::Le, five.clone(), x.clone()),
            eq(twice, five.clone()),
            eq(x.clone(), y.clone()),
            BExpr::In(y.clone(), IntSet::range(3, 4)),
            BExpr::Or(vec![eq(x.clone(), five.clone()), eq(y.clone(), five.clone())]),
            BExpr::And(vec![eq(x.clone(), five.clone()), BExpr::Cmp(Cmp::Ne, y.clone(), five.clone())]),
        ] {
            assert_eq!(fixed_values(&says_more), None, "{says_more:?}");
        }
    }

    #[test]
    fn sums_flatten_merge_and_fold() {
        let x = v(0, 0, 9);
        let s = IExpr::sum(vec![(2, x.clone()), (3, IExpr::constant(4))], 1).unwrap();
        let s = IExpr::sub(s, x.clone()).unwrap();
        assert_eq!(s.kind, IKind::Sum(vec![(1, x.clone())], 13));
        assert_eq!((s.lo, s.hi), (13, 22));
        assert_eq!(IExpr::sub(x.clone(), x.clone()).unwrap(), IExpr::constant(0));
        assert_eq!(IExpr::add(x.clone(), IExpr::constant(0)).unwrap(), x);
        // Times 0, a partial term keeps its undefinedness.
        let partial = IExpr::div(x.clone(), v(1, -1, 1)).unwrap().unwrap();
        assert!(IExpr::mul(partial, IExpr::constant(0)).unwrap().partial);
    }

    #[test]
    fn bounds_of_division_and_remainder_follow_truncation() {
        let x = v(0, -7, 7);
        let y = v(1, -2, 3);
        let d = IExpr::div(x.clone(), y.clone()).unwrap().unwrap();
        assert_eq!((d.lo, d.hi), (-7, 7));
        assert!(d.partial);
        let m = IExpr::modulo(x, y).unwrap().unwrap();
        assert_eq!((m.lo, m.hi), (-2, 2));
        assert!(IExpr::div(v(0, 1, 2), IExpr::constant(0)).is_none());
        assert_eq!(IExpr::div(IExpr::constant(-7), IExpr::constant(2)).unwrap().unwrap(), IExpr::constant(-3));
        assert_eq!(IExpr::modulo(IExpr::constant(-7), IExpr::constant(2)).unwrap().unwrap(), IExpr::constant(-1));
    }

    #[test]
    fn overflow_is_reported() {
        let x = v(0, 0, MAX_ABS);
        assert_eq!(IExpr::add(x.clone(), x.clone()), Err(Overflow));
        assert_eq!(IExpr::mul(x.clone(), v(1, 0, 2)), Err(Overflow));
    }

    #[test]
    fn booleans_fold() {
        let a = BExpr::Var(0);
        assert_eq!(BExpr::and(vec![BExpr::Const(true), a.clone()]), a);
        assert_eq!(BExpr::or(vec![BExpr::Const(true), a.clone()]), BExpr::Const(true));
        assert_eq!(BExpr::not(BExpr::not(a.clone())), a);
        assert_eq!(BExpr::iff(BExpr::Const(false), a.clone()), BExpr::not(a));
    }
}

//! Unrolling: generators are expanded, parameters and loop variables folded
//! in, constant indices resolved, and what remains becomes the
//! [`ir`](super::ir) of each constraint. Runs after [`check`](super::check),
//! so type errors are already ruled out; the faults found here are about
//! values: an index out of range, a division by a constant 0, an overflow of
//! the integer bounds, an empty `min`.

use std::collections::HashMap;

use super::builtins;
use super::check::{Fault, Named};
use super::ir::{BExpr, Cmp, GridGlobal, IExpr, Overflow};
use super::model::{
    ArrayValue, Base, EnumDecl, Function, IntSet, MAX_ABS, Param, Shape, Value, VarDecl, flat_position,
};
use super::syntax::{BinOp, Expr, ExprKind, Generator, LetDecl, LetItem, LetType, Span, UnOp};

/// The most generator bindings one model may unroll to.
pub const MAX_UNROLL: u64 = 300_000;

/// A value during unrolling: fixed, or an expression over the variables.
#[derive(Clone, Debug)]
pub enum LVal {
    /// An integer or enum expression, with its kind.
    Int(IExpr, Base),
    /// A Boolean expression.
    Bool(BExpr),
    /// A fixed set, with its element kind.
    Set(IntSet, Base),
    /// An array.
    Array(LArray),
}

/// An array during unrolling.
#[derive(Clone, Debug)]
pub struct LArray {
    /// `(lo, hi)` per dimension.
    pub index: Vec<(i64, i64)>,
    /// The kind of each dimension's index.
    pub index_bases: Vec<Base>,
    /// The element kind.
    pub base: Base,
    /// Elements in row-major order.
    pub elems: Vec<LVal>,
}

/// What [`Lowerer::each`] calls per binding, with the filters that depend
/// on variables.
type Visit<'v, 'c, 'm> = dyn FnMut(&mut Lowerer<'c, 'm>, &[BExpr]) -> Result<(), Fault> + 'v;

/// The declarations unrolling reads.
pub struct Context<'m> {
    /// Every declared name.
    pub names: &'m HashMap<String, Named>,
    /// The enums.
    pub enums: &'m [EnumDecl],
    /// The parameters declared so far, with values.
    pub params: &'m [Param],
    /// The variables declared so far.
    pub vars: &'m [VarDecl],
    /// The user-defined predicates and functions.
    pub functions: &'m [Function],
}

/// The deepest nesting of user-defined calls unrolled: recursion is
/// refused when the model loads, so only a long chain of definitions
/// calling one another reaches it.
pub const MAX_CALL_DEPTH: usize = 64;

/// One unrolled piece of a constraint: the loop bindings that produced it
/// (empty for a constraint that is not a `forall`) and its expression.
#[derive(Clone, Debug)]
pub struct Instance {
    /// `(name, value as shown)` for each enclosing top-level `forall` variable.
    pub bindings: Vec<(String, String)>,
    /// The position taken in each enclosing top-level `forall` generator,
    /// one per loop variable, outermost first.
    pub positions: Vec<usize>,
    /// The constraint.
    pub expr: BExpr,
}

/// A call's unrolled arguments, each with its place, as a built-in's
/// lowering hook sees them.
pub(crate) struct LoweredCall {
    /// The arguments.
    pub args: Vec<(LVal, Span)>,
    /// The whole call.
    pub span: Span,
}

impl LoweredCall {
    /// Argument `i`, an array, or a bug named `what`.
    pub fn array(&self, i: usize, what: &str) -> Result<&LArray, Fault> {
        match &self.args[i].0 {
            LVal::Array(a) => Ok(a),
            _ => Err(internal(self.args[i].1, what)),
        }
    }

    /// The elements of argument `i`, an array of integers (Booleans as 0
    /// and 1).
    pub fn ints(&self, i: usize) -> Result<Vec<IExpr>, Fault> {
        let at = self.args[i].1;
        let a = self.array(i, "an array")?;
        a.elems.iter().map(|v| v.as_int().ok_or_else(|| internal(at, "an integer array"))).collect()
    }

    /// The elements of argument `i`, an array of Booleans.
    pub fn bools(&self, i: usize) -> Result<Vec<BExpr>, Fault> {
        let at = self.args[i].1;
        let a = self.array(i, "an array")?;
        a.elems
            .iter()
            .map(|v| match v {
                LVal::Bool(b) => Ok(b.clone()),
                _ => Err(internal(at, "a Boolean array")),
            })
            .collect()
    }

    /// Argument `i`, an integer or enum value (a Boolean as 0 or 1).
    pub fn int(&self, i: usize) -> Result<IExpr, Fault> {
        self.args[i].0.as_int().ok_or_else(|| internal(self.args[i].1, "an integer"))
    }

    /// Argument `i`, a fixed integer or enum value, or a bug named `what`.
    pub fn fixed(&self, i: usize, what: &str) -> Result<i64, Fault> {
        self.int(i)?.as_const().ok_or_else(|| internal(self.args[i].1, what))
    }

    /// An overflow of the integer bounds in this call.
    pub fn overflow(&self) -> Fault {
        overflow(self.span)
    }
}

/// The unroller, with the loop variables bound so far.
pub struct Lowerer<'c, 'm> {
    ctx: &'c Context<'m>,
    locals: Vec<(String, LVal)>,
    /// Which of `locals` stand for a local decision variable without a
    /// definition, bound to one value at a time: variables all the same.
    undecided: Vec<usize>,
    positions: Vec<usize>,
    unrolled: u64,
    grids: Vec<GridGlobal>,
    grid_base: usize,
    /// How many user-defined calls are being unrolled, one inside another.
    calls: usize,
}

/// A value beyond the integer bounds, at `span`.
pub(super) fn overflow(span: Span) -> Fault {
    Fault::new(
        span,
        format!("an expression whose value can go beyond ±{MAX_ABS}"),
        format!("integer values and bounds within ±{MAX_ABS} (2^40)"),
    )
}

/// A value the checker should have ruled out: a bug.
pub(super) fn internal(span: Span, what: &str) -> Fault {
    Fault::new(span, format!("INTERNAL ERROR: {what}"), "a value of the checked type; this is a bug in somaria")
}

impl LVal {
    /// A fixed value as an unrolled one, with the kinds from its type.
    pub fn from_value(value: &Value, base: Base, index_bases: &[Base]) -> LVal {
        match value {
            Value::Int(v) => LVal::Int(IExpr::constant(*v), base),
            Value::Bool(b) => LVal::Bool(BExpr::Const(*b)),
            Value::Set(s) => LVal::Set(s.clone(), base),
            Value::Array(a) => LVal::Array(LArray {
                index: a.index.clone(),
                index_bases: index_bases.to_vec(),
                base,
                elems: a.elems.iter().map(|e| LVal::from_value(e, base, &[])).collect(),
            }),
        }
    }

    /// The value where an integer is expected: an integer or enum value, or
    /// a Boolean as 0 or 1 (MiniZinc's automatic `bool2int`).
    pub fn as_int(&self) -> Option<IExpr> {
        match self {
            LVal::Int(x, _) => Some(x.clone()),
            LVal::Bool(b) => Some(IExpr::bool2int(b.clone())),
            _ => None,
        }
    }

    /// [`LVal::as_int`] of a value no longer needed, without a copy.
    pub fn into_int(self) -> Option<IExpr> {
        match self {
            LVal::Int(x, _) => Some(x),
            LVal::Bool(b) => Some(IExpr::bool2int(b)),
            _ => None,
        }
    }

    /// The fixed value, when there is no variable in it.
    pub fn to_value(&self) -> Option<Value> {
        match self {
            LVal::Int(e, _) => e.as_const().map(Value::Int),
            LVal::Bool(b) => b.as_const().map(Value::Bool),
            LVal::Set(s, _) => Some(Value::Set(s.clone())),
            LVal::Array(a) => Some(Value::Array(ArrayValue {
                index: a.index.clone(),
                elems: a.elems.iter().map(LVal::to_value).collect::<Option<Vec<_>>>()?,
            })),
        }
    }
}

impl<'c, 'm> Lowerer<'c, 'm> {
    /// An unroller with no loop variables bound.
    pub fn new(ctx: &'c Context<'m>) -> Lowerer<'c, 'm> {
        Lowerer {
            ctx,
            locals: Vec::new(),
            undecided: Vec::new(),
            positions: Vec::new(),
            unrolled: 0,
            grids: Vec::new(),
            grid_base: 0,
            calls: 0,
        }
    }

    /// An unroller whose grid globals are numbered from `base` on, after
    /// those of earlier constraints.
    pub fn numbering_grids_from(mut self, base: usize) -> Lowerer<'c, 'm> {
        self.grid_base = base;
        self
    }

    /// The grid globals met so far, numbered from the base on, with their
    /// group left for the caller to set.
    pub fn take_grids(&mut self) -> Vec<GridGlobal> {
        std::mem::take(&mut self.grids)
    }

    /// How a message shows the value `v` of kind `base`.
    pub(super) fn value_name(&self, base: Base, v: i64) -> String {
        match base {
            Base::Enum(e) => self.ctx.enums[e].values.get((v - 1) as usize).cloned().unwrap_or_else(|| v.to_string()),
            Base::Bool => (v != 0).to_string(),
            _ => v.to_string(),
        }
    }

    /// Unrolls an expression.
    pub fn lower(&mut self, e: &Expr) -> Result<LVal, Fault> {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(v) => {
                if v.unsigned_abs() > MAX_ABS as u64 {
                    return Err(overflow(span));
                }
                Ok(LVal::Int(IExpr::constant(*v), Base::Int))
            }
            ExprKind::Bool(b) => Ok(LVal::Bool(BExpr::Const(*b))),
            ExprKind::Name(name) => self.name(name, span),
            ExprKind::Assert { condition, message, value } => match self.boolean(condition)? {
                BExpr::Const(true) => match value {
                    Some(value) => self.lower(value),
                    None => Ok(LVal::Bool(BExpr::Const(true))),
                },
                BExpr::Const(false) => Err(Fault::new(
                    span,
                    format!("the assertion \"{message}\", which does not hold"),
                    "parameters for which the assertion's condition holds",
                )),
                _ => Err(internal(condition.span, "an assertion over decision variables")),
            },
            ExprKind::Index { array, indices } => self.index(array, indices, span),
            ExprKind::AllIndices => Err(internal(span, "`..` outside a slice")),
            ExprKind::Unary { op: UnOp::Neg, operand } => {
                let x = self.int(operand)?;
                Ok(LVal::Int(IExpr::sum(vec![(-1, x)], 0).map_err(|_| overflow(span))?, Base::Int))
            }
            ExprKind::Unary { op: UnOp::Not, operand } => Ok(LVal::Bool(BExpr::not(self.boolean(operand)?))),
            ExprKind::Binary { op, left, right } => self.binary(*op, left, right, span),
            ExprKind::If { branches, otherwise } => self.if_then_else(branches, otherwise, span),
            ExprKind::Call { name, args, .. } => {
                let mut values = Vec::with_capacity(args.len());
                for arg in args {
                    values.push((self.lower(arg)?, arg.span));
                }
                self.call(name, values, span)
            }
            ExprKind::GenCall { name, generators, body, .. } => self.gen_call(name, generators, body, span),
            ExprKind::Let { items, body } => {
                let kept = self.locals.len();
                let value = self.let_in(items, body, span, 1);
                self.locals.truncate(kept);
                value
            }
            ExprKind::Array(items) => {
                let mut elems = Vec::with_capacity(items.len());
                for item in items {
                    elems.push(self.lower(item)?);
                }
                let base = unify(&mut elems);
                Ok(LVal::Array(LArray {
                    index: vec![(1, elems.len() as i64)],
                    index_bases: vec![Base::Int],
                    base,
                    elems,
                }))
            }
            ExprKind::Array2d(rows) => {
                let mut elems = Vec::new();
                for item in rows.iter().flatten() {
                    elems.push(self.lower(item)?);
                }
                let base = unify(&mut elems);
                let cols = rows.first().map_or(0, Vec::len);
                Ok(LVal::Array(LArray {
                    index: vec![(1, rows.len() as i64), (1, cols as i64)],
                    index_bases: vec![Base::Int, Base::Int],
                    base,
                    elems,
                }))
            }
            ExprKind::Comprehension { body, generators } => self.comprehension(body, generators, span),
            ExprKind::Set(items) => self.set_literal(items),
        }
    }

    /// A one-dimensional array from a comprehension over parameters.
    fn comprehension(&mut self, body: &Expr, generators: &[Generator], span: Span) -> Result<LVal, Fault> {
        let mut elems = Vec::new();
        let mut base = Base::Any;
        self.each(generators, &mut |this, filters| {
            if !filters.is_empty() {
                return Err(internal(span, "a comprehension filter on variables"));
            }
            let value = this.lower(body)?;
            if base == Base::Any {
                base = base_of(&value);
            }
            elems.push(value);
            Ok(())
        })?;
        Ok(LVal::Array(LArray { index: vec![(1, elems.len() as i64)], index_bases: vec![Base::Int], base, elems }))
    }

    /// A set literal of constants.
    fn set_literal(&mut self, items: &[Expr]) -> Result<LVal, Fault> {
        let mut values = Vec::with_capacity(items.len());
        let mut base = Base::Int;
        for item in items {
            match self.lower(item)? {
                LVal::Int(x, b) => {
                    base = b;
                    values.push(x.as_const().ok_or_else(|| internal(item.span, "a variable set element"))?);
                }
                _ => return Err(internal(item.span, "a set element that is not an integer")),
            }
        }
        Ok(LVal::Set(IntSet::from_values(values), base))
    }

    /// Unrolls an integer (or enum) expression; a Boolean is 0 or 1.
    pub fn int(&mut self, e: &Expr) -> Result<IExpr, Fault> {
        self.lower(e)?.into_int().ok_or_else(|| internal(e.span, "expected an integer"))
    }

    /// Unrolls a Boolean expression.
    pub fn boolean(&mut self, e: &Expr) -> Result<BExpr, Fault> {
        match self.lower(e)? {
            LVal::Bool(b) => Ok(b),
            _ => Err(internal(e.span, "expected a Boolean")),
        }
    }

    /// Unrolls a fixed set.
    pub fn set(&mut self, e: &Expr) -> Result<(IntSet, Base), Fault> {
        match self.lower(e)? {
            LVal::Set(s, b) => Ok((s, b)),
            _ => Err(internal(e.span, "expected a set")),
        }
    }

    fn name(&self, name: &str, span: Span) -> Result<LVal, Fault> {
        if let Some((_, value)) = self.locals.iter().rev().find(|(n, _)| n == name) {
            return Ok(value.clone());
        }
        match self.ctx.names.get(name) {
            Some(Named::EnumType(e)) => {
                Ok(LVal::Set(IntSet::range(1, self.ctx.enums[*e].values.len() as i64), Base::Enum(*e)))
            }
            Some(Named::EnumValue(e, v)) => Ok(LVal::Int(IExpr::constant(*v), Base::Enum(*e))),
            Some(Named::Param(p)) => {
                let param = &self.ctx.params[*p];
                let index_bases = match &param.ty.shape {
                    Shape::Array(index) => index.clone(),
                    _ => Vec::new(),
                };
                Ok(LVal::from_value(&param.value, param.ty.base, &index_bases))
            }
            Some(Named::Var(v)) => {
                let decl = &self.ctx.vars[*v];
                if decl.index.is_empty() {
                    return Ok(self.var_elem(decl, 0));
                }
                let elems = (0..decl.len).map(|k| self.var_elem(decl, k)).collect();
                Ok(LVal::Array(LArray {
                    index: decl.index.clone(),
                    index_bases: decl.index_bases.clone(),
                    base: decl.base,
                    elems,
                }))
            }
            None => Err(internal(span, "an unresolved name")),
        }
    }

    fn var_elem(&self, decl: &VarDecl, k: usize) -> LVal {
        let id = decl.first + k;
        // A given entry is data: the encoder fixes its scalar.
        if let Some(v) = decl.given_at(k) {
            return match decl.base {
                Base::Bool => LVal::Bool(BExpr::Const(v != 0)),
                base => LVal::Int(IExpr::constant(v), base),
            };
        }
        match decl.base {
            Base::Bool => LVal::Bool(BExpr::Var(id)),
            base => LVal::Int(IExpr::var(id, &decl.domain), base),
        }
    }

    fn index(&mut self, array: &Expr, indices: &[Expr], span: Span) -> Result<LVal, Fault> {
        let mut at = Vec::with_capacity(indices.len());
        let mut slices = Vec::new();
        for (d, index) in indices.iter().enumerate() {
            match &index.kind {
                ExprKind::AllIndices => slices.push((d, None)),
                _ => match self.lower(index)? {
                    LVal::Set(set, _) => slices.push((d, Some(set))),
                    value => {
                        let value = value.into_int().ok_or_else(|| internal(index.span, "expected an integer"))?;
                        at.push((value, index.span));
                    }
                },
            }
        }
        if !slices.is_empty() {
            return self.slice(array, indices, &at, &slices);
        }
        // A declared variable array indexed by constants needs no copy of the array.
        if let ExprKind::Name(name) = &array.kind
            && !self.locals.iter().any(|(n, _)| n == name)
            && let Some(Named::Var(v)) = self.ctx.names.get(name)
            && at.iter().all(|(i, _)| i.as_const().is_some())
            && flat_position(&self.ctx.vars[*v].index, &at.iter().filter_map(|(i, _)| i.as_const()).collect::<Vec<_>>())
                .is_some()
        {
            let decl = &self.ctx.vars[*v];
            let tuple: Vec<i64> = at.iter().filter_map(|(i, _)| i.as_const()).collect();
            let position = self.position(&decl.index, &decl.index_bases, &tuple, &at, name)?;
            return Ok(self.var_elem(decl, position));
        }
        // Nor does a parameter array: a clue table read once per cell in a
        // generator was copied whole at every read, most of the time spent
        // unrolling a 20 x 20 nurikabe.
        if let ExprKind::Name(name) = &array.kind
            && !self.locals.iter().any(|(n, _)| n == name)
            && let Some(Named::Param(p)) = self.ctx.names.get(name)
            && let Value::Array(values) = &self.ctx.params[*p].value
            && let Some(tuple) = at.iter().map(|(i, _)| i.as_const()).collect::<Option<Vec<i64>>>()
            && let Some(position) = flat_position(&values.index, &tuple)
        {
            return Ok(LVal::from_value(&values.elems[position], self.ctx.params[*p].ty.base, &[]));
        }
        let LVal::Array(a) = self.lower(array)? else {
            return Err(internal(array.span, "indexing a non-array"));
        };
        let label = match &array.kind {
            ExprKind::Name(name) => format!("`{name}`"),
            _ => "the array".to_string(),
        };
        // Constant indices fix their dimension; the rest index an element
        // constraint. An index that mentions a variable but folded to a
        // constant out of range is undefined, not an error (MiniZinc's
        // relational semantics); a fixed one is an error.
        let mut sub_index = Vec::new();
        let mut sub_exprs = Vec::new();
        for (d, (i, ispan)) in at.iter().enumerate() {
            if let Some(v) = i.as_const() {
                let (lo, hi) = a.index[d];
                if (v < lo || v > hi) && !self.mentions_vars(&indices[d]) {
                    return Err(self.out_of_range(*ispan, v, a.index_bases[d], (lo, hi), &label));
                }
                if v < lo || v > hi {
                    sub_index.push(d);
                    sub_exprs.push(i.clone());
                }
            } else {
                sub_index.push(d);
                sub_exprs.push(i.clone());
            }
        }
        let fixed = |position: usize| -> bool {
            let tuple = super::model::index_tuple(&a.index, position);
            at.iter()
                .zip(&tuple)
                .enumerate()
                .all(|(d, ((i, _), &t))| sub_index.contains(&d) || i.as_const().is_none_or(|v| v == t))
        };
        if sub_index.is_empty() {
            let tuple: Vec<i64> = at.iter().filter_map(|(i, _)| i.as_const()).collect();
            let position = flat_position(&a.index, &tuple).ok_or_else(|| internal(span, "a checked index"))?;
            return Ok(a.elems[position].clone());
        }
        let dims: Vec<(i64, i64)> = sub_index.iter().map(|&d| a.index[d]).collect();
        let items: Vec<&LVal> = (0..a.elems.len()).filter(|&p| fixed(p)).map(|p| &a.elems[p]).collect();
        if a.base == Base::Bool {
            let items = items
                .into_iter()
                .map(|v| match v {
                    LVal::Bool(b) => Ok(b.clone()),
                    _ => Err(internal(span, "a Boolean array element")),
                })
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(LVal::Bool(BExpr::Element { index: sub_exprs, dims, items }));
        }
        let items = items
            .into_iter()
            .map(|v| match v {
                LVal::Int(x, _) => Ok(x.clone()),
                _ => Err(internal(span, "an integer array element")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(LVal::Int(IExpr::element(sub_exprs, dims, items), a.base))
    }

    fn position(
        &self,
        index: &[(i64, i64)],
        bases: &[Base],
        tuple: &[i64],
        at: &[(IExpr, Span)],
        name: &str,
    ) -> Result<usize, Fault> {
        for (d, &v) in tuple.iter().enumerate() {
            let (lo, hi) = index[d];
            if v < lo || v > hi {
                return Err(self.out_of_range(at[d].1, v, bases[d], (lo, hi), &format!("`{name}`")));
            }
        }
        flat_position(index, tuple).ok_or_else(|| internal(at[0].1, "a checked index"))
    }

    /// An index `v` outside `lo..hi` of the array `label`.
    /// `a[i, ..]`, `a[2..3, j]`: the dimensions given a set keep the set's
    /// values as their index set, the others are fixed at their index.
    fn slice(
        &mut self,
        array: &Expr,
        indices: &[Expr],
        fixed: &[(IExpr, Span)],
        slices: &[(usize, Option<IntSet>)],
    ) -> Result<LVal, Fault> {
        let LVal::Array(a) = self.lower(array)? else {
            return Err(internal(array.span, "slicing a non-array"));
        };
        let label = match &array.kind {
            ExprKind::Name(name) => format!("`{name}`"),
            _ => "the array".to_string(),
        };
        let mut ranges = Vec::with_capacity(indices.len());
        let mut fixed = fixed.iter();
        for (d, index) in indices.iter().enumerate() {
            let (lo, hi) = a.index[d];
            let range = match slices.iter().find(|(k, _)| *k == d) {
                Some((_, None)) => (lo, hi),
                Some((_, Some(set))) => match (set.intervals(), set.min(), set.max()) {
                    ([], ..) => (1, 0),
                    ([_], Some(from), Some(to)) if from >= lo && to <= hi => (from, to),
                    ([_], Some(from), Some(to)) => {
                        let outside = if from < lo { from } else { to };
                        return Err(self.out_of_range(index.span, outside, a.index_bases[d], (lo, hi), &label));
                    }
                    _ => {
                        return Err(Fault::new(
                            index.span,
                            format!("the slice {set}, which has gaps"),
                            "a contiguous range such as `2..3`, or `..` for the whole dimension",
                        ));
                    }
                },
                None => {
                    let (value, at) = fixed.next().ok_or_else(|| internal(index.span, "a slice's index"))?;
                    let v = value.as_const().ok_or_else(|| internal(*at, "a fixed index in a slice"))?;
                    if v < lo || v > hi {
                        return Err(self.out_of_range(*at, v, a.index_bases[d], (lo, hi), &label));
                    }
                    (v, v)
                }
            };
            ranges.push(range);
        }
        let kept: Vec<usize> = slices.iter().map(|(d, _)| *d).collect();
        let index: Vec<(i64, i64)> = kept.iter().map(|&d| ranges[d]).collect();
        let cells = index.iter().map(|&(lo, hi)| (hi - lo + 1).max(0) as usize).product::<usize>();
        let mut elems = Vec::with_capacity(cells);
        for position in 0..cells {
            let inner = super::model::index_tuple(&index, position);
            let mut tuple: Vec<i64> = ranges.iter().map(|r| r.0).collect();
            for (&d, v) in kept.iter().zip(inner) {
                tuple[d] = v;
            }
            let p = flat_position(&a.index, &tuple).ok_or_else(|| internal(array.span, "a checked slice"))?;
            elems.push(a.elems[p].clone());
        }
        let index_bases = kept.iter().map(|&d| a.index_bases[d]).collect();
        Ok(LVal::Array(LArray { index, index_bases, base: a.base, elems }))
    }

    pub(super) fn out_of_range(&self, span: Span, v: i64, base: Base, (lo, hi): (i64, i64), label: &str) -> Fault {
        let range = if lo > hi {
            "none: the index set is empty".to_string()
        } else {
            format!("{}..{}", self.value_name(base, lo), self.value_name(base, hi))
        };
        Fault::new(
            span,
            format!("index {} out of range", self.value_name(base, v)),
            format!("an index of {label} in {range}"),
        )
    }

    fn binary(&mut self, op: BinOp, left: &Expr, right: &Expr, span: Span) -> Result<LVal, Fault> {
        let ovf = |_: Overflow| overflow(span);
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => {
                let a = self.int(left)?;
                let b = self.int(right)?;
                // The dividend again, for a division by a 0 that the
                // variables folded to (copied only then).
                let a_copy = (matches!(op, BinOp::Div | BinOp::Mod) && b.as_const() == Some(0)).then(|| a.clone());
                let result = match op {
                    BinOp::Add => IExpr::add(a, b).map_err(ovf)?,
                    BinOp::Sub => IExpr::sub(a, b).map_err(ovf)?,
                    BinOp::Mul => IExpr::mul(a, b).map_err(ovf)?,
                    BinOp::Div | BinOp::Mod => {
                        let result = if op == BinOp::Div { IExpr::div(a, b) } else { IExpr::modulo(a, b) };
                        match result {
                            Some(r) => r.map_err(ovf)?,
                            // A divisor over variables that folded to 0: undefined everywhere.
                            None if self.mentions_vars(right) => {
                                let a = a_copy.ok_or_else(|| internal(span, "the dividend of a division by 0"))?;
                                IExpr::undefined_div(op == BinOp::Div, a, IExpr::constant(0))
                            }
                            None => {
                                return Err(Fault::new(
                                    right.span,
                                    format!("`{}` by 0", op.text()),
                                    "a divisor that is not the constant 0",
                                ));
                            }
                        }
                    }
                    _ => unreachable!("arithmetic operator"),
                };
                Ok(LVal::Int(result, Base::Int))
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let a = self.lower(left)?;
                let b = self.lower(right)?;
                Ok(LVal::Bool(comparison(op, a, b, span)?))
            }
            BinOp::And => {
                let a = self.boolean(left)?;
                if a == BExpr::Const(false) {
                    return Ok(LVal::Bool(a));
                }
                Ok(LVal::Bool(BExpr::and(vec![a, self.boolean(right)?])))
            }
            BinOp::Or => {
                let a = self.boolean(left)?;
                if a == BExpr::Const(true) {
                    return Ok(LVal::Bool(a));
                }
                Ok(LVal::Bool(BExpr::or(vec![a, self.boolean(right)?])))
            }
            BinOp::Implies => {
                let a = self.boolean(left)?;
                // A guarded grid global is registered all the same, so that
                // the verifier, which evaluates it whatever the guard, meets
                // the globals in the same order.
                if a == BExpr::Const(false) && !super::check::grid_call(right) {
                    return Ok(LVal::Bool(BExpr::Const(true)));
                }
                Ok(LVal::Bool(BExpr::implies(a, self.boolean(right)?)))
            }
            BinOp::ImpliedBy => {
                let a = self.boolean(left)?;
                if a == BExpr::Const(true) {
                    return Ok(LVal::Bool(BExpr::Const(true)));
                }
                Ok(LVal::Bool(BExpr::implies(self.boolean(right)?, a)))
            }
            BinOp::Iff => Ok(LVal::Bool(BExpr::iff(self.boolean(left)?, self.boolean(right)?))),
            BinOp::Xor => Ok(LVal::Bool(BExpr::xor(self.boolean(left)?, self.boolean(right)?))),
            BinOp::In => {
                let a = self.int(left)?;
                let (set, _) = self.set(right)?;
                Ok(LVal::Bool(BExpr::member(a, set)))
            }
            BinOp::Union | BinOp::Intersect | BinOp::Diff | BinOp::Symdiff => {
                let (a, a_base) = self.set(left)?;
                let (b, b_base) = self.set(right)?;
                let set = match op {
                    BinOp::Union => a.union(&b),
                    BinOp::Intersect => a.intersect(&b),
                    BinOp::Diff => a.difference(&b),
                    _ => a.difference(&b).union(&b.difference(&a)),
                };
                Ok(LVal::Set(set, if a_base == Base::Any { b_base } else { a_base }))
            }
            BinOp::Range => {
                let (a, base) = match self.lower(left)? {
                    LVal::Int(a, base) => (a, base),
                    _ => return Err(internal(left.span, "a range start")),
                };
                let b = self.int(right)?;
                match (a.as_const(), b.as_const()) {
                    (Some(lo), Some(hi)) => Ok(LVal::Set(IntSet::range(lo, hi), base)),
                    _ => Err(internal(span, "a range with variable bounds")),
                }
            }
        }
    }

    fn if_then_else(&mut self, branches: &[(Expr, Expr)], otherwise: &Expr, span: Span) -> Result<LVal, Fault> {
        let mut open: Vec<(BExpr, LVal)> = Vec::new();
        let mut last = None;
        for (condition, value) in branches {
            match self.boolean(condition)? {
                BExpr::Const(false) => {}
                BExpr::Const(true) => {
                    last = Some(self.lower(value)?);
                    break;
                }
                c => open.push((c, self.lower(value)?)),
            }
        }
        let last = match last {
            Some(v) => v,
            None => self.lower(otherwise)?,
        };
        if open.is_empty() {
            return Ok(last);
        }
        // A Boolean branch beside an integer one is 0 or 1.
        let mut values: Vec<LVal> = open.iter().map(|(_, v)| v.clone()).chain([last]).collect();
        unify(&mut values);
        let last = values.pop().expect("the else branch");
        let open: Vec<(BExpr, LVal)> = open.into_iter().zip(values).map(|((c, _), v)| (c, v)).collect();
        match last {
            LVal::Int(e, base) => {
                let branches = open
                    .into_iter()
                    .map(|(c, v)| match v {
                        LVal::Int(x, _) => Ok((c, x)),
                        _ => Err(internal(span, "if branches of different types")),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(LVal::Int(IExpr::ite(branches, e), base))
            }
            LVal::Bool(b) => {
                let branches = open
                    .into_iter()
                    .map(|(c, v)| match v {
                        LVal::Bool(x) => Ok((c, x)),
                        _ => Err(internal(span, "if branches of different types")),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(LVal::Bool(BExpr::ite(branches, b)))
            }
            _ => Err(internal(span, "an if-then-else of arrays with variable conditions")),
        }
    }

    /// Runs `visit` once per binding of the generators, with the filters
    /// that depend on variables (fixed filters skip bindings).
    fn each(&mut self, generators: &[Generator], visit: &mut Visit<'_, 'c, 'm>) -> Result<(), Fault> {
        let mut filters = Vec::new();
        self.each_from(generators, 0, &mut filters, visit)
    }

    fn each_from(
        &mut self,
        generators: &[Generator],
        depth: usize,
        filters: &mut Vec<BExpr>,
        visit: &mut Visit<'_, 'c, 'm>,
    ) -> Result<(), Fault> {
        // "i, j in S" is one binding level per name: the level `depth` is
        // name n of generator g (found without a list of the levels, which
        // this made at every binding).
        let mut rest = depth;
        let mut level = None;
        for (g, generator) in generators.iter().enumerate() {
            if rest < generator.names.len() {
                level = Some((g, rest));
                break;
            }
            rest -= generator.names.len();
        }
        let Some((g, n)) = level else {
            return visit(self, filters);
        };
        let generator = &generators[g];
        let values: Vec<LVal> = match self.lower(&generator.source)? {
            LVal::Set(set, base) => {
                if set.len() > MAX_UNROLL {
                    return Err(self.too_many(generator.source.span));
                }
                set.values().map(|v| LVal::Int(IExpr::constant(v), base)).collect()
            }
            LVal::Array(a) => a.elems,
            _ => return Err(internal(generator.source.span, "a generator over a scalar")),
        };
        let last_name = n + 1 == generator.names.len();
        for (position, value) in values.into_iter().enumerate() {
            self.unrolled += 1;
            if self.unrolled > MAX_UNROLL {
                return Err(self.too_many(generator.source.span));
            }
            self.locals.push((generator.names[n].0.clone(), value));
            let kept = filters.len();
            let mut skip = false;
            if last_name && let Some(filter) = &generator.filter {
                match self.boolean(filter) {
                    Ok(BExpr::Const(true)) => {}
                    Ok(BExpr::Const(false)) => skip = true,
                    Ok(condition) => filters.push(condition),
                    Err(e) => {
                        self.locals.pop();
                        return Err(e);
                    }
                }
            }
            self.positions.push(position);
            let result = if skip { Ok(()) } else { self.each_from(generators, depth + 1, filters, visit) };
            self.positions.pop();
            filters.truncate(kept);
            self.locals.pop();
            result?;
        }
        Ok(())
    }

    /// Whether an expression mentions a decision variable, directly or
    /// through a loop variable bound to one. Folding may still make it
    /// constant, as in `x - x`.
    fn mentions_vars(&self, e: &Expr) -> bool {
        fn has_vars(value: &LVal) -> bool {
            match value {
                LVal::Int(x, _) => x.as_const().is_none(),
                LVal::Bool(b) => b.as_const().is_none(),
                LVal::Set(..) => false,
                LVal::Array(a) => a.elems.iter().any(has_vars),
            }
        }
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::AllIndices => false,
            ExprKind::Name(name) => match self.locals.iter().rposition(|(n, _)| n == name) {
                Some(at) => self.undecided.contains(&at) || has_vars(&self.locals[at].1),
                None => matches!(self.ctx.names.get(name), Some(Named::Var(_))),
            },
            ExprKind::Index { array, indices } => {
                self.mentions_vars(array) || indices.iter().any(|i| self.mentions_vars(i))
            }
            ExprKind::Unary { operand, .. } => self.mentions_vars(operand),
            ExprKind::Binary { left, right, .. } => self.mentions_vars(left) || self.mentions_vars(right),
            ExprKind::If { branches, otherwise } => {
                branches.iter().any(|(c, v)| self.mentions_vars(c) || self.mentions_vars(v))
                    || self.mentions_vars(otherwise)
            }
            ExprKind::Call { name, args, .. } => {
                args.iter().any(|a| self.mentions_vars(a))
                    || self.ctx.functions.iter().any(|f| &f.name == name && f.reads_vars)
            }
            ExprKind::GenCall { generators, body, .. } | ExprKind::Comprehension { body, generators } => {
                self.mentions_vars(body)
                    || generators.iter().any(|g| {
                        self.mentions_vars(&g.source) || g.filter.as_ref().is_some_and(|f| self.mentions_vars(f))
                    })
            }
            ExprKind::Array(items) | ExprKind::Set(items) => items.iter().any(|i| self.mentions_vars(i)),
            ExprKind::Array2d(rows) => rows.iter().flatten().any(|i| self.mentions_vars(i)),
            ExprKind::Assert { value, .. } => value.as_deref().is_some_and(|v| self.mentions_vars(v)),
            // A local decision variable is a variable, whatever it reads.
            ExprKind::Let { items, .. } if items.iter().any(|i| matches!(i, LetItem::Decl(d) if d.var)) => true,
            ExprKind::Let { .. } => super::syntax::children(e).into_iter().any(|c| self.mentions_vars(c)),
        }
    }

    /// The items of a `let` from the first on, then its body: each local
    /// bound in turn, each local constraint guarding the value. A local
    /// decision variable without a definition (in a positive context, which
    /// the loader checked) is tried at each value of its domain: the `let`
    /// holds when it holds for one of them, MiniZinc's existential
    /// reading. `paths` counts the combinations tried so far.
    fn let_in(&mut self, items: &[LetItem], body: &Expr, span: Span, paths: u64) -> Result<LVal, Fault> {
        let Some((first, rest)) = items.split_first() else { return self.lower(body) };
        let d = match first {
            LetItem::Constraint(c) => {
                let holds = self.boolean(c)?;
                let value = self.let_in(rest, body, span, paths)?;
                return guarded(holds, value, span);
            }
            LetItem::Decl(d) => d,
        };
        let domain = match &d.ty {
            LetType::Set(e) => Some(self.set(e)?),
            LetType::Bool => None,
            LetType::Int => None,
        };
        let base = match (&d.ty, &domain) {
            (LetType::Bool, _) => Base::Bool,
            (_, Some((_, base))) if *base != Base::Any => *base,
            _ => Base::Int,
        };
        let Some(value) = &d.value else {
            return self.free_local(d, base, domain.map(|(s, _)| s), rest, body, span, paths);
        };
        let value = self.lower(value)?;
        let (value, inside) = match value {
            LVal::Bool(b) if base == Base::Bool => (LVal::Bool(b), None),
            other => {
                let x = other.into_int().ok_or_else(|| internal(span, "a local's value"))?;
                // The definition holds where its value is defined and in the domain.
                let inside = match &domain {
                    Some((set, _)) => Some(BExpr::member(x.clone(), set.clone())),
                    None if x.partial => Some(BExpr::member(x.clone(), IntSet::range(x.lo, x.hi))),
                    None => None,
                };
                (LVal::Int(x, base), inside)
            }
        };
        self.locals.push((d.name.clone(), value));
        let result = self.let_in(rest, body, span, paths);
        self.locals.pop();
        match inside {
            Some(holds) => guarded(holds, result?, span),
            None => result,
        }
    }

    /// A local decision variable without a definition, tried at each value.
    #[allow(clippy::too_many_arguments)]
    fn free_local(
        &mut self,
        d: &LetDecl,
        base: Base,
        domain: Option<IntSet>,
        rest: &[LetItem],
        body: &Expr,
        span: Span,
        paths: u64,
    ) -> Result<LVal, Fault> {
        let values: Vec<i64> = match &domain {
            Some(set) => set.values().take(MAX_LET_PATHS as usize + 1).collect(),
            None => vec![0, 1],
        };
        let paths = paths.saturating_mul(values.len() as u64);
        if paths > MAX_LET_PATHS {
            return Err(Fault::new(
                d.span,
                format!("local variables without definitions whose values combine in more than {MAX_LET_PATHS} ways"),
                "fewer or smaller local domains, or a definition (`var int: t = ...`) for some: each combination is \
                 tried in turn",
            ));
        }
        let mut options = Vec::with_capacity(values.len());
        for v in values {
            let local =
                if base == Base::Bool { LVal::Bool(BExpr::Const(v != 0)) } else { LVal::Int(IExpr::constant(v), base) };
            self.undecided.push(self.locals.len());
            self.locals.push((d.name.clone(), local));
            let result = self.let_in(rest, body, span, paths);
            self.locals.pop();
            self.undecided.pop();
            match result? {
                LVal::Bool(b) => options.push(b),
                _ => {
                    return Err(Fault::new(
                        d.span,
                        format!(
                            "the local variable `{}` without a definition in a `let` whose value is not a Boolean",
                            d.name
                        ),
                        "a definition (`var int: t = ...`), or a Boolean `let`: a constraint",
                    ));
                }
            }
        }
        Ok(LVal::Bool(BExpr::or(options)))
    }

    fn too_many(&self, span: Span) -> Fault {
        Fault::new(
            span,
            format!("a model that unrolls to more than {MAX_UNROLL} generator bindings"),
            "a smaller model",
        )
    }

    /// A call in the generator form, `name(generators)(body)`: a call on
    /// the array of the body's values. A built-in that takes conditions on
    /// decision variables keeps each element under its condition.
    fn gen_call(&mut self, name: &str, generators: &[Generator], body: &Expr, span: Span) -> Result<LVal, Fault> {
        let Some(conditional) = builtins::lookup(name).and_then(|b| b.conditional) else {
            // The comprehension `[body | generators]`, without a copy of its syntax.
            let array = self.comprehension(body, generators, span)?;
            return self.call(name, vec![(array, span)], span);
        };
        let mut elems = Vec::new();
        let mut base = Base::Any;
        self.each(generators, &mut |this, filters| {
            let value = this.lower(body)?;
            if base == Base::Any {
                base = base_of(&value);
            }
            elems.push(if filters.is_empty() { value } else { conditional(BExpr::and(filters.to_vec()), value) });
            Ok(())
        })?;
        let array = LArray { index: vec![(1, elems.len() as i64)], index_bases: vec![Base::Int], base, elems };
        self.call(name, vec![(LVal::Array(array), span)], span)
    }

    fn call(&mut self, name: &str, args: Vec<(LVal, Span)>, span: Span) -> Result<LVal, Fault> {
        if let Some(function) = self.ctx.functions.iter().find(|f| f.name == name) {
            return self.user_call(function, args, span);
        }
        let builtin = builtins::lookup(name).ok_or_else(|| internal(span, "an unknown function"))?;
        (builtin.lower)(self, &LoweredCall { args, span })
    }

    /// A call of a user-defined predicate or function: its body unrolled
    /// with the arguments bound to the parameters and none of the caller's
    /// loop variables in sight.
    fn user_call(&mut self, function: &'m Function, args: Vec<(LVal, Span)>, span: Span) -> Result<LVal, Fault> {
        if self.calls >= MAX_CALL_DEPTH {
            return Err(Fault::new(
                span,
                format!("user-defined calls nested more than {MAX_CALL_DEPTH} deep"),
                "fewer predicates and functions calling one another",
            ));
        }
        let mut bound = Vec::with_capacity(args.len());
        for ((value, at), (param, ty)) in args.into_iter().zip(&function.params) {
            let value = if ty.base == Base::Int { as_ints(value) } else { value };
            let value = match value {
                value @ (LVal::Int(..) | LVal::Bool(_) | LVal::Set(..)) => value,
                LVal::Array(a) if a.elems.is_empty() => LVal::Array(LArray { base: ty.base, ..a }),
                LVal::Array(a) => LVal::Array(a),
            };
            if matches!(value, LVal::Array(_)) != matches!(ty.shape, Shape::Array(_)) {
                return Err(internal(at, "an argument of the checked shape"));
            }
            bound.push((param.clone(), value));
        }
        let caller = (std::mem::replace(&mut self.locals, bound), std::mem::take(&mut self.undecided));
        self.calls += 1;
        let result = self.lower(&function.body);
        self.calls -= 1;
        (self.locals, self.undecided) = caller;
        let result = result?;
        Ok(if function.result.base == Base::Int { as_ints(result) } else { result })
    }

    /// Registers a grid global met in the constraint being unrolled;
    /// returns its number.
    pub(super) fn add_grid(&mut self, global: GridGlobal) -> usize {
        let id = self.grid_base + self.grids.len();
        self.grids.push(global);
        id
    }

    /// Unrolls a top-level constraint, splitting a `forall` (and a `forall`
    /// directly under it) into one instance per binding.
    pub fn constraint(&mut self, e: &Expr) -> Result<Vec<Instance>, Fault> {
        let mut instances = Vec::new();
        self.split(e, &mut Vec::new(), &mut instances)?;
        Ok(instances)
    }

    fn split(&mut self, e: &Expr, bindings: &mut Vec<(String, String)>, out: &mut Vec<Instance>) -> Result<(), Fault> {
        let ExprKind::GenCall { name, generators, body, .. } = &e.kind else {
            out.push(Instance {
                bindings: bindings.clone(),
                positions: self.positions.clone(),
                expr: self.boolean(e)?,
            });
            return Ok(());
        };
        if name != "forall" {
            out.push(Instance {
                bindings: bindings.clone(),
                positions: self.positions.clone(),
                expr: self.boolean(e)?,
            });
            return Ok(());
        }
        let names: Vec<String> = generators.iter().flat_map(|g| g.names.iter().map(|(n, _)| n.clone())).collect();
        self.each(generators, &mut |this, filters| {
            let kept = bindings.len();
            for name in &names {
                let shown = match this.locals.iter().rev().find(|(n, _)| n == name) {
                    Some((_, LVal::Int(x, base))) => match x.as_const() {
                        Some(v) => this.value_name(*base, v),
                        None => "a variable".to_string(),
                    },
                    Some((_, LVal::Bool(BExpr::Const(b)))) => b.to_string(),
                    _ => "a variable".to_string(),
                };
                bindings.push((name.clone(), shown));
            }
            let before = out.len();
            let result = this.split(body, bindings, out);
            if result.is_ok() && !filters.is_empty() {
                let condition = BExpr::and(filters.to_vec());
                for instance in &mut out[before..] {
                    let expr = std::mem::replace(&mut instance.expr, BExpr::Const(true));
                    instance.expr = BExpr::implies(condition.clone(), expr);
                }
            }
            bindings.truncate(kept);
            result
        })
    }
}

/// The most combinations of values that the local variables without
/// definitions of one `let` may take: each is unrolled.
pub const MAX_LET_PATHS: u64 = 4096;

/// `value` where `holds`, and undefined elsewhere: false for a Boolean, an
/// integer with no value (which makes its nearest Boolean false).
fn guarded(holds: BExpr, value: LVal, span: Span) -> Result<LVal, Fault> {
    match (holds.as_const(), value) {
        (Some(true), value) => Ok(value),
        (_, LVal::Bool(b)) => Ok(LVal::Bool(BExpr::and(vec![holds, b]))),
        (Some(false), LVal::Int(_, base)) => {
            Ok(LVal::Int(IExpr::undefined_div(true, IExpr::constant(0), IExpr::constant(0)), base))
        }
        (None, LVal::Int(x, base)) => {
            // `[x][bool2int(holds)]`: index 0, out of range, when it fails.
            Ok(LVal::Int(IExpr::element(vec![IExpr::bool2int(holds)], vec![(1, 1)], vec![x]), base))
        }
        _ => Err(Fault::new(
            span,
            "a `let` whose value is an array or set, under local constraints that may fail",
            "a single value under local constraints, or constraints that hold",
        )),
    }
}

/// A value passed for an integer parameter: Booleans become 0 and 1, in an
/// array element by element.
fn as_ints(value: LVal) -> LVal {
    match value {
        LVal::Bool(b) => LVal::Int(IExpr::bool2int(b), Base::Int),
        LVal::Array(a) if a.base == Base::Bool => {
            LVal::Array(LArray { base: Base::Int, elems: a.elems.into_iter().map(as_ints).collect(), ..a })
        }
        other => other,
    }
}

/// The common kind of unrolled elements side by side, with Booleans turned
/// into 0 and 1 where they stand beside integers (the checker allowed that
/// pair only).
fn unify(elems: &mut [LVal]) -> Base {
    let ints = elems.iter().any(|v| matches!(v, LVal::Int(_, Base::Int)));
    let bools = elems.iter().any(|v| matches!(v, LVal::Bool(_)));
    if ints && bools {
        for v in elems.iter_mut() {
            if let LVal::Bool(b) = v {
                *v = LVal::Int(IExpr::bool2int(b.clone()), Base::Int);
            }
        }
        return Base::Int;
    }
    elems.iter().map(base_of).find(|&b| b != Base::Any).unwrap_or(Base::Any)
}

fn base_of(value: &LVal) -> Base {
    match value {
        LVal::Int(_, base) | LVal::Set(_, base) => *base,
        LVal::Bool(_) => Base::Bool,
        LVal::Array(a) => a.base,
    }
}

/// `a op b` over two values of the checked types: scalars, or for `=` and
/// `!=` two arrays over the same index sets, element by element (MiniZinc
/// refuses arrays whose index sets differ, and so does this).
fn comparison(op: BinOp, a: LVal, b: LVal, span: Span) -> Result<BExpr, Fault> {
    let (a, b) = match (a, b) {
        (LVal::Array(x), LVal::Array(y)) => {
            if x.index != y.index {
                let sets = |a: &LArray| a.index.iter().map(|(lo, hi)| format!("{lo}..{hi}")).collect::<Vec<_>>();
                return Err(Fault::new(
                    span,
                    format!("arrays over the index sets [{}] and [{}]", sets(&x).join(", "), sets(&y).join(", ")),
                    format!("arrays over the same index sets to compare with `{}`", op.text()),
                ));
            }
            let (mut pairs, mut defined) = (Vec::new(), Vec::new());
            for (p, q) in x.elems.into_iter().zip(y.elems) {
                let partial = [&p, &q].iter().any(|v| matches!(v, LVal::Int(e, _) if e.partial));
                if op == BinOp::Ne && partial {
                    // An undefined element makes the whole comparison
                    // false, `!=` included: "equal or not" holds only
                    // where both elements are defined.
                    let differ = comparison(BinOp::Ne, p.clone(), q.clone(), span)?;
                    defined.push(BExpr::or(vec![comparison(BinOp::Eq, p.clone(), q.clone(), span)?, differ]));
                }
                pairs.push(comparison(BinOp::Eq, p, q, span)?);
            }
            let all = BExpr::and(pairs);
            return Ok(match op {
                BinOp::Ne => BExpr::and(defined.into_iter().chain([BExpr::not(all)]).collect()),
                _ => all,
            });
        }
        (LVal::Bool(x), LVal::Bool(y)) => match op {
            BinOp::Eq => return Ok(BExpr::iff(x, y)),
            BinOp::Ne => return Ok(BExpr::xor(x, y)),
            _ => (IExpr::bool2int(x), IExpr::bool2int(y)),
        },
        (LVal::Int(x, _), LVal::Int(y, _)) => (x, y),
        (x, y) => match (x.into_int(), y.into_int()) {
            (Some(x), Some(y)) => (x, y),
            _ => return Err(internal(span, "comparing values of different types")),
        },
    };
    Ok(compare(op, a, b))
}

/// `a op b` with `>` and `>=` turned around.
pub fn compare(op: BinOp, a: IExpr, b: IExpr) -> BExpr {
    match op {
        BinOp::Eq => BExpr::cmp(Cmp::Eq, a, b),
        BinOp::Ne => BExpr::cmp(Cmp::Ne, a, b),
        BinOp::Lt => BExpr::cmp(Cmp::Lt, a, b),
        BinOp::Le => BExpr::cmp(Cmp::Le, a, b),
        BinOp::Gt => BExpr::cmp(Cmp::Lt, b, a),
        _ => BExpr::cmp(Cmp::Le, b, a),
    }
}

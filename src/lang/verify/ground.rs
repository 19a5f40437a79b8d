//! The verifier's ground form: each constraint unrolled once, from the
//! model's own syntax trees, into a tree over the scalars' slots, with
//! loops, comprehensions, parameters, enum values and constant indices
//! already evaluated. Checking a solution then evaluates these trees, with
//! no name lookup, no loop-variable environment and no array built per
//! access; the semantics are the tree walk's own (`super`), whose scalar
//! operations both share.
//!
//! It is made by partial evaluation with the walk's rules, not by the
//! lowering to the IR, and shares nothing with `compile` or `fd`. What it
//! does not ground (a `let`, a user function, a grid global, an assertion,
//! a loop or `where` over decision variables, a variable index into a
//! multi-dimensional array) leaves that constraint to the tree walk.

use super::{Ev, Eval, Verifier, bug, compared, set_operation, slice_parts};
use crate::lang::builtins::{self, Builtin};
use crate::lang::check::Named;
use crate::lang::model::{Base, IntSet, Value, flat_position};
use crate::lang::syntax::{BinOp, Expr, ExprKind, Generator, UnOp};

/// A scalar value during a ground evaluation, as [`Ev`]'s scalars.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(super) enum Sc {
    Int(i64),
    Undef,
    Bool(bool),
}

impl Sc {
    fn of(ev: &Ev) -> Option<Sc> {
        match ev {
            Ev::Int(v) => Some(Sc::Int(*v)),
            Ev::Undef => Some(Sc::Undef),
            Ev::Bool(b) => Some(Sc::Bool(*b)),
            _ => None,
        }
    }

    fn ev(self) -> Ev {
        match self {
            Sc::Int(v) => Ev::Int(v),
            Sc::Undef => Ev::Undef,
            Sc::Bool(b) => Ev::Bool(b),
        }
    }

    /// The integer, a Boolean as 0 or 1, `None` when undefined.
    fn int(self) -> Option<i64> {
        match self {
            Sc::Int(v) => Some(v),
            Sc::Bool(b) => Some(i64::from(b)),
            Sc::Undef => None,
        }
    }

    fn truth(self) -> Eval<bool> {
        match self {
            Sc::Bool(b) => Ok(b),
            _ => Err(bug("a constraint that is not Boolean")),
        }
    }
}

/// One ground expression over the scalars' values.
#[derive(Clone, Debug)]
pub(super) enum Node {
    Const(Sc),
    /// An integer scalar's value.
    Slot(usize),
    /// A Boolean scalar's value.
    BoolSlot(usize),
    Neg(Box<Node>),
    Not(Box<Node>),
    /// `+ - * div mod`.
    Arith(BinOp, Box<Node>, Box<Node>),
    /// `= != < <= > >=` on scalars.
    Compare(BinOp, Box<Node>, Box<Node>),
    /// `/\` and `forall`: true when each holds, judged in order.
    All(Vec<Node>),
    /// `\/` and `exists`.
    Any(Vec<Node>),
    /// `-> <- <-> xor`.
    Logic(BinOp, Box<Node>, Box<Node>),
    In(Box<Node>, IntSet),
    If(Vec<(Node, Node)>, Box<Node>),
    /// A 1-D array at a variable index: `elems[index - lo]`, and out of
    /// range undefined (false for an array of Booleans).
    Element {
        elems: Vec<Node>,
        lo: i64,
        index: Box<Node>,
        booleans: bool,
    },
    /// `=` (or `!=`) of two arrays, element by element.
    ArrayCompare {
        ne: bool,
        pairs: Vec<(Node, Node)>,
    },
    /// A built-in with a scalar result, run by its own verify hook.
    Call(&'static Builtin, Vec<Ground>),
}

/// A ground value: a scalar expression, a fixed set, or an array.
#[derive(Clone, Debug)]
pub(super) enum Ground {
    Scalar(Node),
    Set(IntSet),
    Array(Vec<(i64, i64)>, Vec<Ground>),
}

/// Why a constraint is left to the tree walk.
pub(super) struct Unground;

type Grounded<T> = Result<T, Unground>;

/// The built-ins that only reshape their arrays: run on placeholders for
/// the elements, their results read back element by element.
const RESHAPING: &[&str] =
    &["row", "col", "index_set", "index_set_1of2", "index_set_2of2", "length", "array2d", "array1d", "reverse"];

/// The budget of nodes for one model, past which the rest is left to the
/// tree walk rather than held in memory.
const NODE_BUDGET: usize = 4_000_000;

impl Node {
    fn konst(&self) -> Option<Sc> {
        match self {
            Node::Const(s) => Some(*s),
            _ => None,
        }
    }

    /// Whether the node is always a Boolean (`Some(true)`), never one
    /// (`Some(false)`), or may be either.
    fn boolean(&self) -> Option<bool> {
        match self {
            Node::Const(s) => Some(matches!(s, Sc::Bool(_))),
            Node::Slot(_) | Node::Neg(_) | Node::Arith(..) => Some(false),
            Node::BoolSlot(_)
            | Node::Not(_)
            | Node::Compare(..)
            | Node::All(_)
            | Node::Any(_)
            | Node::Logic(..)
            | Node::In(..)
            | Node::ArrayCompare { .. } => Some(true),
            Node::Element { booleans, .. } => Some(*booleans),
            Node::If(branches, otherwise) => {
                let kind = otherwise.boolean()?;
                branches.iter().all(|(_, v)| v.boolean() == Some(kind)).then_some(kind)
            }
            Node::Call(builtin, _) => matches!(builtin.name, "bool2int" | "count").then_some(false),
        }
    }

    pub(super) fn eval(&self, values: &[i64]) -> Eval<Sc> {
        Ok(match self {
            Node::Const(s) => *s,
            Node::Slot(s) => Sc::Int(values[*s]),
            Node::BoolSlot(s) => Sc::Bool(values[*s] != 0),
            Node::Neg(a) => negated(a.eval(values)?),
            Node::Not(a) => Sc::Bool(!a.truth(values)?),
            Node::Arith(op, a, b) => arithmetic(*op, a.eval(values)?, b.eval(values)?),
            Node::Compare(op, a, b) => Sc::Bool(compared(*op, a.eval(values)?.ev(), b.eval(values)?.ev())?),
            Node::All(items) => {
                for item in items {
                    if !item.truth(values)? {
                        return Ok(Sc::Bool(false));
                    }
                }
                Sc::Bool(true)
            }
            Node::Any(items) => {
                for item in items {
                    if item.truth(values)? {
                        return Ok(Sc::Bool(true));
                    }
                }
                Sc::Bool(false)
            }
            Node::Logic(op, a, b) => Sc::Bool(match op {
                BinOp::Implies => !a.truth(values)? || b.truth(values)?,
                BinOp::ImpliedBy => a.truth(values)? || !b.truth(values)?,
                BinOp::Iff => a.truth(values)? == b.truth(values)?,
                _ => a.truth(values)? != b.truth(values)?,
            }),
            Node::In(a, set) => Sc::Bool(a.eval(values)?.int().is_some_and(|v| set.contains(v))),
            Node::If(branches, otherwise) => {
                for (condition, value) in branches {
                    if condition.truth(values)? {
                        return value.eval(values);
                    }
                }
                otherwise.eval(values)?
            }
            Node::Element { elems, lo, index, booleans } => {
                let at =
                    index.eval(values)?.int().and_then(|i| i.checked_sub(*lo)).and_then(|p| usize::try_from(p).ok());
                match at.and_then(|p| elems.get(p)) {
                    Some(elem) => elem.eval(values)?,
                    None if *booleans => Sc::Bool(false),
                    None => Sc::Undef,
                }
            }
            Node::ArrayCompare { ne, pairs } => {
                let mut sides = Vec::with_capacity(pairs.len());
                for (a, b) in pairs {
                    sides.push((a.eval(values)?, b.eval(values)?));
                }
                if sides.iter().any(|(a, b)| *a == Sc::Undef || *b == Sc::Undef) {
                    return Ok(Sc::Bool(false));
                }
                let mut equal = true;
                for (a, b) in sides {
                    equal &= compared(BinOp::Eq, a.ev(), b.ev())?;
                }
                Sc::Bool(equal != *ne)
            }
            Node::Call(builtin, args) => {
                let args: Vec<Ev> = args.iter().map(|a| a.eval(values)).collect::<Eval<_>>()?;
                let value = (builtin.verify)(&super::EvaluatedCall { args: &args, witness: None })?;
                Sc::of(&value).ok_or_else(|| bug("a call without a scalar value"))?
            }
        })
    }

    pub(super) fn truth(&self, values: &[i64]) -> Eval<bool> {
        self.eval(values)?.truth()
    }
}

impl Ground {
    fn eval(&self, values: &[i64]) -> Eval<Ev> {
        Ok(match self {
            Ground::Scalar(node) => node.eval(values)?.ev(),
            Ground::Set(set) => Ev::Set(set.clone()),
            Ground::Array(index, elems) => {
                Ev::Array(index.clone(), elems.iter().map(|e| e.eval(values)).collect::<Eval<_>>()?)
            }
        })
    }

    /// The value when it is fixed.
    fn fixed(&self) -> Option<Ev> {
        match self {
            Ground::Scalar(node) => node.konst().map(Sc::ev),
            Ground::Set(set) => Some(Ev::Set(set.clone())),
            Ground::Array(index, elems) => {
                Some(Ev::Array(index.clone(), elems.iter().map(Ground::fixed).collect::<Option<_>>()?))
            }
        }
    }

    fn of(ev: Ev) -> Ground {
        match ev {
            Ev::Set(set) => Ground::Set(set),
            Ev::Array(index, elems) => Ground::Array(index, elems.into_iter().map(Ground::of).collect()),
            scalar => Ground::Scalar(Node::Const(Sc::of(&scalar).unwrap_or(Sc::Undef))),
        }
    }

    fn scalar(self) -> Grounded<Node> {
        match self {
            Ground::Scalar(node) => Ok(node),
            _ => Err(Unground),
        }
    }
}

fn negated(a: Sc) -> Sc {
    a.int().and_then(i64::checked_neg).map_or(Sc::Undef, Sc::Int)
}

/// `a op b` for `+ - * div mod`, as the tree walk computes it.
fn arithmetic(op: BinOp, a: Sc, b: Sc) -> Sc {
    let (Some(a), Some(b)) = (a.int(), b.int()) else { return Sc::Undef };
    super::checked_arithmetic(op, a, b).map_or(Sc::Undef, Sc::Int)
}

/// The grounding of one model's expressions: the verifier's names, the
/// loop variables bound so far, and the nodes left in the budget.
pub(super) struct Grounder<'v, 'm> {
    verifier: &'v Verifier<'m>,
    locals: Vec<(&'m str, Ground)>,
    budget: usize,
}

impl<'v, 'm> Grounder<'v, 'm> {
    pub fn new(verifier: &'v Verifier<'m>) -> Self {
        Grounder { verifier, locals: Vec::new(), budget: NODE_BUDGET }
    }

    /// A constraint's ground form, or `None` when the tree walk must judge it.
    pub fn constraint(&mut self, e: &'m Expr) -> Option<Node> {
        self.locals.clear();
        let node = self.ground(e).and_then(Ground::scalar).ok()?;
        (node.boolean() != Some(false)).then_some(node)
    }

    fn spend(&mut self, nodes: usize) -> Grounded<()> {
        self.budget = self.budget.checked_sub(nodes).ok_or(Unground)?;
        Ok(())
    }

    fn scalar(&mut self, e: &'m Expr) -> Grounded<Node> {
        self.ground(e)?.scalar()
    }

    /// A fixed value, or none.
    fn fixed(&mut self, e: &'m Expr) -> Grounded<Ev> {
        self.ground(e)?.fixed().ok_or(Unground)
    }

    fn ground(&mut self, e: &'m Expr) -> Grounded<Ground> {
        self.spend(1)?;
        let node = match &e.kind {
            ExprKind::Int(v) => Node::Const(Sc::Int(*v)),
            ExprKind::Bool(b) => Node::Const(Sc::Bool(*b)),
            ExprKind::Name(name) => return self.name(name),
            ExprKind::Index { array, indices } => return self.index(array, indices),
            ExprKind::Unary { op: UnOp::Neg, operand } => match self.scalar(operand)? {
                Node::Const(a) => Node::Const(negated(a)),
                a => Node::Neg(Box::new(a)),
            },
            ExprKind::Unary { op: UnOp::Not, operand } => match self.scalar(operand)? {
                Node::Const(a) => Node::Const(Sc::Bool(!a.truth().map_err(|_| Unground)?)),
                a => Node::Not(Box::new(a)),
            },
            ExprKind::Binary { op, left, right } => return self.binary(*op, left, right),
            ExprKind::If { branches, otherwise } => {
                let mut kept = Vec::new();
                for (condition, value) in branches {
                    let condition = self.scalar(condition)?;
                    match condition.konst() {
                        Some(Sc::Bool(false)) => continue,
                        Some(Sc::Bool(true)) if kept.is_empty() => return self.ground(value),
                        Some(Sc::Bool(true)) => {
                            let value = self.scalar(value)?;
                            return Ok(Ground::Scalar(Node::If(kept, Box::new(value))));
                        }
                        Some(_) => return Err(Unground),
                        None => kept.push((condition, self.scalar(value)?)),
                    }
                }
                if kept.is_empty() {
                    return self.ground(otherwise);
                }
                Node::If(kept, Box::new(self.scalar(otherwise)?))
            }
            ExprKind::Call { name, args, .. } => return self.call(name, args),
            ExprKind::GenCall { name, generators, body, .. } => return self.gen_call(name, generators, body),
            ExprKind::Array(items) => {
                let items: Vec<Ground> = items.iter().map(|i| self.ground(i)).collect::<Grounded<_>>()?;
                let len = items.len() as i64;
                return Ok(Ground::Array(vec![(1, len)], ints_beside_ints(items)?));
            }
            ExprKind::Array2d(rows) => {
                let items: Vec<Ground> = rows.iter().flatten().map(|i| self.ground(i)).collect::<Grounded<_>>()?;
                let cols = rows.first().map_or(0, Vec::len) as i64;
                return Ok(Ground::Array(vec![(1, rows.len() as i64), (1, cols)], ints_beside_ints(items)?));
            }
            ExprKind::Comprehension { body, generators } => {
                let mut items = Vec::new();
                self.each(generators, 0, &mut |this| {
                    items.push(this.ground(body)?);
                    Ok(())
                })?;
                return Ok(Ground::Array(vec![(1, items.len() as i64)], items));
            }
            ExprKind::Set(items) => {
                let mut values = Vec::new();
                for item in items {
                    values.push(self.scalar(item)?.konst().and_then(Sc::int).ok_or(Unground)?);
                }
                return Ok(Ground::Set(IntSet::from_values(values)));
            }
            ExprKind::Assert { .. } | ExprKind::Let { .. } | ExprKind::AllIndices => return Err(Unground),
        };
        Ok(Ground::Scalar(node))
    }

    fn name(&mut self, name: &str) -> Grounded<Ground> {
        if let Some(at) = self.locals.iter().rposition(|(n, _)| *n == name) {
            let local = self.locals[at].1.clone();
            self.spend(size(&local))?;
            return Ok(local);
        }
        let verifier = self.verifier;
        match verifier.names.get(name) {
            Some(Named::EnumType(k)) => Ok(Ground::Set(IntSet::range(1, verifier.model.enums[*k].values.len() as i64))),
            Some(Named::EnumValue(_, v)) => Ok(Ground::Scalar(Node::Const(Sc::Int(*v)))),
            Some(Named::Param(p)) => Ok(Ground::of(Verifier::param_value(&verifier.model.params[*p].value))),
            Some(Named::Var(v)) => {
                let decl = &verifier.model.vars[*v];
                self.spend(decl.len)?;
                let slot = |s: usize| if decl.base == Base::Bool { Node::BoolSlot(s) } else { Node::Slot(s) };
                if decl.index.is_empty() {
                    Ok(Ground::Scalar(slot(decl.first)))
                } else {
                    let elems = (decl.first..decl.first + decl.len).map(|s| Ground::Scalar(slot(s))).collect();
                    Ok(Ground::Array(decl.index.clone(), elems))
                }
            }
            None => Err(Unground),
        }
    }

    /// An element or a slice of an array, as `Verifier::eval_index` takes it.
    fn index(&mut self, array: &'m Expr, indices: &'m [Expr]) -> Grounded<Ground> {
        let mut given = Vec::with_capacity(indices.len());
        let mut variable = None;
        for (k, i) in indices.iter().enumerate() {
            if matches!(i.kind, ExprKind::AllIndices) {
                given.push(None);
                continue;
            }
            match self.ground(i)? {
                Ground::Set(set) => given.push(Some(Ev::Set(set))),
                Ground::Scalar(Node::Const(s)) => given.push(Some(s.ev())),
                Ground::Scalar(node) if variable.is_none() => {
                    variable = Some((k, node));
                    given.push(Some(Ev::Int(0)));
                }
                _ => return Err(Unground),
            }
        }
        if given.iter().any(|g| matches!(g, None | Some(Ev::Set(_)))) {
            if variable.is_some() {
                return Err(Unground);
            }
            let Ground::Array(index, elems) = self.ground(array)? else { return Err(Unground) };
            let (index, elems) = slice_parts(index, elems, &given).map_err(|_| Unground)?;
            return Ok(Ground::Array(index, elems));
        }
        if let Some((_, node)) = variable {
            let Ground::Array(index, elems) = self.ground(array)? else { return Err(Unground) };
            let [(lo, _)] = index[..] else { return Err(Unground) };
            let elems: Vec<Node> = elems.into_iter().map(Ground::scalar).collect::<Grounded<_>>()?;
            let booleans = first_is_boolean(&elems)?;
            return Ok(Ground::Scalar(Node::Element { elems, lo, index: Box::new(node), booleans }));
        }
        let mut at = Vec::with_capacity(given.len());
        let mut undefined = false;
        for g in &given {
            match g {
                Some(Ev::Int(v)) => at.push(*v),
                Some(Ev::Bool(b)) => at.push(i64::from(*b)),
                Some(Ev::Undef) => {
                    undefined = true;
                    at.push(0);
                }
                _ => return Err(Unground),
            }
        }
        if !undefined && let Some(element) = self.declared_element(array, &at) {
            return Ok(element);
        }
        let Ground::Array(index, mut elems) = self.ground(array)? else { return Err(Unground) };
        match (undefined, flat_position(&index, &at)) {
            (false, Some(p)) => Ok(elems.swap_remove(p)),
            _ => {
                let booleans = match elems.first() {
                    Some(Ground::Scalar(node)) => node.boolean().ok_or(Unground)?,
                    Some(_) => return Err(Unground),
                    None => false,
                };
                Ok(Ground::Scalar(Node::Const(if booleans { Sc::Bool(false) } else { Sc::Undef })))
            }
        }
    }

    /// A declared variable's or parameter's element at fixed indices in
    /// range, without grounding the whole array.
    fn declared_element(&self, array: &Expr, at: &[i64]) -> Option<Ground> {
        let ExprKind::Name(name) = &array.kind else { return None };
        if self.locals.iter().any(|(n, _)| n == name) {
            return None;
        }
        let model = self.verifier.model;
        match self.verifier.names.get(name.as_str()) {
            Some(Named::Var(v)) => {
                let decl = &model.vars[*v];
                let s = decl.first + flat_position(&decl.index, at)?;
                Some(Ground::Scalar(if decl.base == Base::Bool { Node::BoolSlot(s) } else { Node::Slot(s) }))
            }
            Some(Named::Param(p)) => match &model.params[*p].value {
                Value::Array(a) => flat_position(&a.index, at).map(|p| Ground::of(Verifier::param_value(&a.elems[p]))),
                _ => None,
            },
            _ => None,
        }
    }

    fn binary(&mut self, op: BinOp, left: &'m Expr, right: &'m Expr) -> Grounded<Ground> {
        let node = match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => {
                let (a, b) = (self.scalar(left)?, self.scalar(right)?);
                match (a.konst(), b.konst()) {
                    (Some(a), Some(b)) => Node::Const(arithmetic(op, a, b)),
                    _ => Node::Arith(op, Box::new(a), Box::new(b)),
                }
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                match (self.ground(left)?, self.ground(right)?) {
                    (Ground::Scalar(a), Ground::Scalar(b)) => match (a.konst(), b.konst()) {
                        (Some(a), Some(b)) => {
                            Node::Const(Sc::Bool(compared(op, a.ev(), b.ev()).map_err(|_| Unground)?))
                        }
                        _ => Node::Compare(op, Box::new(a), Box::new(b)),
                    },
                    (Ground::Array(ia, ea), Ground::Array(ib, eb)) if matches!(op, BinOp::Eq | BinOp::Ne) => {
                        if ia != ib || ea.len() != eb.len() {
                            return Err(Unground);
                        }
                        let pairs = ea
                            .into_iter()
                            .zip(eb)
                            .map(|(a, b)| Ok((a.scalar()?, b.scalar()?)))
                            .collect::<Grounded<_>>()?;
                        Node::ArrayCompare { ne: op == BinOp::Ne, pairs }
                    }
                    _ => return Err(Unground),
                }
            }
            BinOp::And | BinOp::Or => {
                let (a, b) = (self.scalar(left)?, self.scalar(right)?);
                junction(op == BinOp::And, vec![a, b])?
            }
            BinOp::Implies | BinOp::ImpliedBy | BinOp::Iff | BinOp::Xor => {
                let (a, b) = (self.scalar(left)?, self.scalar(right)?);
                match (a.konst(), b.konst()) {
                    (Some(_), Some(_)) => {
                        Node::Const(Node::Logic(op, Box::new(a), Box::new(b)).eval(&[]).map_err(|_| Unground)?)
                    }
                    _ => Node::Logic(op, Box::new(a), Box::new(b)),
                }
            }
            BinOp::In => {
                let a = self.scalar(left)?;
                let Ev::Set(set) = self.fixed(right)? else { return Err(Unground) };
                match a.konst() {
                    Some(a) => Node::Const(Sc::Bool(a.int().is_some_and(|v| set.contains(v)))),
                    None => Node::In(Box::new(a), set),
                }
            }
            BinOp::Union | BinOp::Intersect | BinOp::Diff | BinOp::Symdiff => {
                let (Ev::Set(a), Ev::Set(b)) = (self.fixed(left)?, self.fixed(right)?) else { return Err(Unground) };
                return Ok(Ground::Set(set_operation(op, &a, &b)));
            }
            BinOp::Range => {
                let (a, b) = (self.fixed(left)?, self.fixed(right)?);
                let (Some(a), Some(b)) = (Sc::of(&a).and_then(Sc::int), Sc::of(&b).and_then(Sc::int)) else {
                    return Err(Unground);
                };
                return Ok(Ground::Set(IntSet::range(a, b)));
            }
        };
        Ok(Ground::Scalar(node))
    }

    /// A built-in call: evaluated now when its arguments are fixed, a
    /// reshaping one run on placeholders, and any other with a scalar
    /// result left to its hook at each check.
    fn call(&mut self, name: &str, args: &'m [Expr]) -> Grounded<Ground> {
        if self.verifier.function(name).is_some() {
            return Err(Unground);
        }
        let builtin = builtins::lookup(name).ok_or(Unground)?;
        if builtin.grid_global {
            return Err(Unground);
        }
        let args: Vec<Ground> = args.iter().map(|a| self.ground(a)).collect::<Grounded<_>>()?;
        self.apply(builtin, args)
    }

    fn apply(&mut self, builtin: &'static Builtin, args: Vec<Ground>) -> Grounded<Ground> {
        if let Some(fixed) = args.iter().map(Ground::fixed).collect::<Option<Vec<Ev>>>() {
            let value =
                (builtin.verify)(&super::EvaluatedCall { args: &fixed, witness: None }).map_err(|_| Unground)?;
            return Ok(Ground::of(value));
        }
        if RESHAPING.contains(&builtin.name) {
            return reshaped(builtin, args);
        }
        if matches!(builtin.name, "forall" | "exists") && args.len() == 1 {
            let Some(Ground::Array(_, items)) = args.into_iter().next() else { return Err(Unground) };
            let items = items.into_iter().map(Ground::scalar).collect::<Grounded<_>>()?;
            return Ok(Ground::Scalar(junction(builtin.name == "forall", items)?));
        }
        Ok(Ground::Scalar(Node::Call(builtin, args)))
    }

    fn gen_call(&mut self, name: &str, generators: &'m [Generator], body: &'m Expr) -> Grounded<Ground> {
        if self.verifier.function(name).is_some() {
            return Err(Unground);
        }
        let builtin = builtins::lookup(name).ok_or(Unground)?;
        let mut items = Vec::new();
        self.each(generators, 0, &mut |this| {
            items.push(this.ground(body)?);
            Ok(())
        })?;
        if let Some(deciding) = builtin.settled_by {
            let items = items.into_iter().map(Ground::scalar).collect::<Grounded<_>>()?;
            return Ok(Ground::Scalar(junction(!deciding, items)?));
        }
        let len = items.len() as i64;
        self.apply(builtin, vec![Ground::Array(vec![(1, len)], items)])
    }

    /// Calls `visit` for each binding of the generators whose `where`
    /// holds; a source or a `where` that is not fixed leaves the whole to
    /// the tree walk.
    fn each(
        &mut self,
        generators: &'m [Generator],
        at: usize,
        visit: &mut dyn FnMut(&mut Self) -> Grounded<()>,
    ) -> Grounded<()> {
        let Some(generator) = generators.get(at) else { return visit(self) };
        self.bind(generator, 0, &mut |this| {
            if let Some(filter) = &generator.filter {
                match this.scalar(filter)?.konst() {
                    Some(Sc::Bool(true)) => {}
                    Some(Sc::Bool(false)) => return Ok(()),
                    _ => return Err(Unground),
                }
            }
            this.each(generators, at + 1, visit)
        })
    }

    fn bind(
        &mut self,
        generator: &'m Generator,
        name: usize,
        visit: &mut dyn FnMut(&mut Self) -> Grounded<()>,
    ) -> Grounded<()> {
        let Some((var, _)) = generator.names.get(name) else { return visit(self) };
        let items = match self.ground(&generator.source)? {
            Ground::Set(set) => set.values().map(|v| Ground::Scalar(Node::Const(Sc::Int(v)))).collect(),
            Ground::Array(_, elems) => elems,
            Ground::Scalar(_) => return Err(Unground),
        };
        for item in items {
            self.locals.push((var.as_str(), item));
            let result = self.bind(generator, name + 1, visit);
            self.locals.pop();
            result?;
        }
        Ok(())
    }
}

/// `forall` (`all`) or `exists` of `items`, settled now where a fixed item
/// settles it.
fn junction(all: bool, items: Vec<Node>) -> Grounded<Node> {
    let mut kept = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Node::Const(Sc::Bool(b)) if b == all => {}
            Node::Const(Sc::Bool(_)) => return Ok(Node::Const(Sc::Bool(!all))),
            Node::Const(_) => return Err(Unground),
            Node::All(inner) if all => kept.extend(inner),
            Node::Any(inner) if !all => kept.extend(inner),
            item => kept.push(item),
        }
    }
    Ok(match kept.len() {
        0 => Node::Const(Sc::Bool(all)),
        1 if kept[0].boolean() == Some(true) => kept.pop().ok_or(Unground)?,
        _ if all => Node::All(kept),
        _ => Node::Any(kept),
    })
}

/// Whether an array's out-of-range access is false rather than undefined,
/// as the tree walk reads it from the first element.
fn first_is_boolean(elems: &[Node]) -> Grounded<bool> {
    match elems.first() {
        Some(node) => node.boolean().ok_or(Unground),
        None => Ok(false),
    }
}

/// An array literal's elements with Booleans as 0 and 1 beside integers,
/// as `as_ints_beside_ints` does, when the elements' kinds are known now.
fn ints_beside_ints(items: Vec<Ground>) -> Grounded<Vec<Ground>> {
    let mut ints = false;
    for item in &items {
        match item {
            Ground::Scalar(node) => ints |= !node.boolean().ok_or(Unground)?,
            // The walk's literal keeps sets and arrays as they are.
            _ => return Ok(items),
        }
    }
    if !ints {
        return Ok(items);
    }
    Ok(items
        .into_iter()
        .map(|item| match item {
            Ground::Scalar(Node::Const(Sc::Bool(b))) => Ground::Scalar(Node::Const(Sc::Int(i64::from(b)))),
            Ground::Scalar(node) if node.boolean() == Some(true) => {
                Ground::Scalar(Node::Arith(BinOp::Add, Box::new(node), Box::new(Node::Const(Sc::Int(0)))))
            }
            other => other,
        })
        .collect())
}

/// A reshaping built-in's result: the hook run with each array element
/// replaced by its number, and the numbers read back as the elements.
fn reshaped(builtin: &'static Builtin, args: Vec<Ground>) -> Grounded<Ground> {
    let mut elements = Vec::new();
    let mut placeholders = Vec::with_capacity(args.len());
    for arg in args {
        placeholders.push(match arg {
            Ground::Array(index, elems) => {
                let numbers = elems
                    .into_iter()
                    .map(|e| {
                        elements.push(Some(e));
                        Ev::Int(elements.len() as i64 - 1)
                    })
                    .collect();
                Ev::Array(index, numbers)
            }
            other => other.fixed().ok_or(Unground)?,
        });
    }
    let value = (builtin.verify)(&super::EvaluatedCall { args: &placeholders, witness: None }).map_err(|_| Unground)?;
    match value {
        Ev::Array(index, numbers) => {
            let mut elems = Vec::with_capacity(numbers.len());
            for number in numbers {
                let Ev::Int(k) = number else { return Err(Unground) };
                let element = usize::try_from(k).ok().and_then(|k| elements.get_mut(k)).and_then(Option::take);
                elems.push(element.ok_or(Unground)?);
            }
            Ok(Ground::Array(index, elems))
        }
        // `length` and `index_set`: fixed by the shape alone.
        Ev::Int(_) | Ev::Set(_) => Ok(Ground::of(value)),
        _ => Err(Unground),
    }
}

/// How many nodes a local's value holds.
fn size(g: &Ground) -> usize {
    match g {
        Ground::Array(_, elems) => elems.iter().map(size).sum::<usize>() + 1,
        _ => 1,
    }
}

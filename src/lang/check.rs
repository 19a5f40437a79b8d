//! Static checks of expressions: every name resolves, every operator and
//! function gets operands of the right types, ranges and generator sources
//! are fixed. Each problem is a [`Fault`] at the offending sub-expression,
//! found before anything is unrolled, so it is reported even inside a
//! branch or loop that would never run.

use std::collections::HashMap;

use super::builtins;
use super::model::{Base, EnumDecl, Function, Param, Shape, Type, VarDecl};
use super::syntax::{BinOp, Expr, ExprKind, Generator, LetDecl, LetItem, LetType, Span, UnOp};

/// A problem at a place in an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Where.
    pub span: Span,
    /// What was found.
    pub found: String,
    /// What was expected.
    pub expected: String,
}

impl Fault {
    /// A fault at `span`.
    pub fn new(span: Span, found: impl Into<String>, expected: impl Into<String>) -> Fault {
        Fault { span, found: found.into(), expected: expected.into() }
    }
}

/// What a declared name refers to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Named {
    /// An enum type: as a value, the set of its values.
    EnumType(usize),
    /// An enum value: (enum, value from 1).
    EnumValue(usize, i64),
    /// A parameter by index.
    Param(usize),
    /// A decision variable by index.
    Var(usize),
}

/// The declarations an expression may refer to.
pub struct Scope<'m> {
    /// Every declared name.
    pub names: &'m HashMap<String, Named>,
    /// The enums.
    pub enums: &'m [EnumDecl],
    /// The parameters declared so far.
    pub params: &'m [Param],
    /// The variables declared so far.
    pub vars: &'m [VarDecl],
    /// The user-defined predicates and functions checked so far.
    pub functions: &'m [Function],
}

impl Scope<'_> {
    /// The user-defined predicate or function called `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }
}

/// The declared names nearest to `name`, when some are near enough to be a
/// likely typo: a few edits away, or sharing most of a prefix (Jaro-Winkler),
/// as "`n`" or "`n` or `q`" for a message.
pub fn nearest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    let length = name.chars().count();
    let mut near: Vec<(usize, &str)> = candidates
        .filter(|&c| c != name)
        .filter_map(|c| {
            let edits = strsim::levenshtein(name, c);
            let close = edits <= 2.max(length / 3) && edits < length.max(2);
            (close || strsim::jaro_winkler(name, c) >= 0.88).then_some((edits, c))
        })
        .collect();
    near.sort();
    near.dedup();
    let best = near.first()?.0;
    let names: Vec<String> = near.iter().take_while(|(d, _)| *d == best).map(|(_, c)| format!("`{c}`")).collect();
    // More than two equally near names is no hint at all.
    (names.len() <= 2).then(|| names.join(" or "))
}

/// The type checker for one expression at a time, with the loop variables
/// in scope.
pub struct Checker<'s, 'm> {
    scope: &'s Scope<'m>,
    locals: Vec<(String, Type)>,
}

/// Whether a value of `base` may stand where an integer is expected: an
/// integer, or a Boolean coerced to 0 or 1 (MiniZinc's automatic
/// `bool2int`), but not an enum value.
pub(crate) fn int_position(base: Base) -> bool {
    base.fits(Base::Int) || base == Base::Bool
}

/// The common type of a Boolean and an integer side by side (array
/// elements, if-then-else branches): an integer, the Boolean coerced to 0
/// or 1. `None` for any other pair.
fn coerced(a: Base, b: Base) -> Option<Base> {
    let pair = |x: Base, y: Base| x == Base::Bool && y == Base::Int;
    (pair(a, b) || pair(b, a)).then_some(Base::Int)
}

fn int() -> Type {
    Type::scalar(Base::Int, false)
}

fn boolean(var: bool) -> Type {
    Type::scalar(Base::Bool, var)
}

impl<'s, 'm> Checker<'s, 'm> {
    /// A checker with no loop variables bound.
    pub fn new(scope: &'s Scope<'m>) -> Checker<'s, 'm> {
        Checker { scope, locals: Vec::new() }
    }

    /// A checker for a body, with the parameters bound: the body sees
    /// them and the model's declarations, never a caller's loop variables.
    pub fn with_params(scope: &'s Scope<'m>, params: Vec<(String, Type)>) -> Checker<'s, 'm> {
        Checker { scope, locals: params }
    }

    fn describe(&self, ty: &Type) -> String {
        ty.describe(self.scope.enums)
    }

    fn wrong(&self, e: &Expr, ty: &Type, expected: impl Into<String>) -> Fault {
        Fault::new(e.span, format!("{} of type {}", what(e), self.describe(ty)), expected)
    }

    /// Checks that `e` is a Boolean; `var` decides whether it may depend on
    /// decision variables.
    pub fn expect_bool(&mut self, e: &Expr, allow_var: bool) -> Result<bool, Fault> {
        let ty = self.check(e)?;
        if ty.shape != Shape::Scalar || !ty.base.fits(Base::Bool) {
            return Err(self.wrong(e, &ty, "a Boolean expression"));
        }
        if ty.var && !allow_var {
            return Err(Fault::new(
                e.span,
                format!("{} that depends on decision variables", what(e)),
                "a fixed Boolean",
            ));
        }
        Ok(ty.var)
    }

    /// Checks that `e` is an integer (not an enum); a Boolean counts as 0
    /// or 1, as MiniZinc coerces it with `bool2int`.
    pub fn expect_int(&mut self, e: &Expr, allow_var: bool) -> Result<bool, Fault> {
        let ty = self.check(e)?;
        if ty.shape != Shape::Scalar || !int_position(ty.base) {
            return Err(self.wrong(e, &ty, "an integer expression"));
        }
        if ty.var && !allow_var {
            return Err(Fault::new(
                e.span,
                format!("{} that depends on decision variables", what(e)),
                "a fixed integer",
            ));
        }
        Ok(ty.var)
    }

    /// Checks that `e` is a fixed set (a range, a set literal or an enum
    /// name) and returns its element kind.
    pub fn expect_set(&mut self, e: &Expr) -> Result<Base, Fault> {
        let ty = self.check(e)?;
        if ty.shape != Shape::Set {
            return Err(self.wrong(e, &ty, "a set such as `1..n`, `{1, 3}` or an enum name"));
        }
        Ok(ty.base)
    }

    /// The type of `e`.
    pub fn check(&mut self, e: &Expr) -> Result<Type, Fault> {
        match &e.kind {
            ExprKind::Int(_) => Ok(int()),
            ExprKind::Bool(_) => Ok(boolean(false)),
            ExprKind::Name(name) => self.name(name, e.span),
            ExprKind::Assert { condition, value, .. } => {
                self.expect_bool(condition, false).map_err(|mut f| {
                    if f.expected == "a fixed Boolean" {
                        f.expected = "a fixed condition: an assert checks parameters, not decision variables".into();
                    }
                    f
                })?;
                match value {
                    Some(value) => self.check(value),
                    None => Ok(boolean(false)),
                }
            }
            ExprKind::Index { array, indices } => self.index(array, indices),
            ExprKind::AllIndices => Err(Fault::new(
                e.span,
                "`..` alone",
                "an expression; `..` alone stands only as an index, for a whole dimension, as in `a[i, ..]`",
            )),
            ExprKind::Unary { op, operand } => match op {
                UnOp::Neg => Ok(Type::scalar(Base::Int, self.expect_int(operand, true)?)),
                UnOp::Not => Ok(boolean(self.expect_bool(operand, true)?)),
            },
            ExprKind::Binary { op, left, right } => self.binary(*op, left, right),
            ExprKind::If { branches, otherwise } => self.if_then_else(branches, otherwise, e.span),
            ExprKind::Call { name, name_span, args } => self.call(name, *name_span, args, e.span),
            ExprKind::Let { items, body } => {
                let kept = self.locals.len();
                let ty = self.let_in(items, body);
                self.locals.truncate(kept);
                ty
            }
            ExprKind::GenCall { name, name_span, generators, body } => {
                self.gen_call(name, *name_span, generators, body, e.span)
            }
            ExprKind::Array(items) => self.array_literal(items),
            ExprKind::Array2d(rows) => self.array2d_literal(rows),
            ExprKind::Comprehension { body, generators } => {
                let bound = self.generators(generators, false)?;
                let body_ty = self.check(body);
                self.locals.truncate(self.locals.len() - bound.0);
                let body_ty = body_ty?;
                if body_ty.shape != Shape::Scalar {
                    return Err(self.wrong(body, &body_ty, "a single value as the comprehension's element"));
                }
                Ok(Type { base: body_ty.base, shape: Shape::Array(vec![Base::Int]), var: body_ty.var || bound.1 })
            }
            ExprKind::Set(items) => {
                let mut base = Base::Any;
                for item in items {
                    let ty = self.check(item)?;
                    if ty.shape != Shape::Scalar || !ty.base.is_intlike() || !ty.base.fits(base) {
                        return Err(self.wrong(item, &ty, "a fixed integer or enum value as a set element"));
                    }
                    if ty.var {
                        return Err(Fault::new(
                            item.span,
                            format!("{} that depends on decision variables", what(item)),
                            "a fixed set element",
                        ));
                    }
                    if base == Base::Any {
                        base = ty.base;
                    }
                }
                Ok(Type { base: if base == Base::Any { Base::Int } else { base }, shape: Shape::Set, var: false })
            }
        }
    }

    /// A two-dimensional array literal's type: its elements' common type.
    fn array2d_literal(&mut self, rows: &[Vec<Expr>]) -> Result<Type, Fault> {
        let (base, var) =
            self.elements_type(rows.iter().flatten(), |_, _| "an element of the same type as the first".to_string())?;
        Ok(Type { base, shape: Shape::Array(vec![Base::Int, Base::Int]), var })
    }

    /// An array literal's type: its elements' common type.
    fn array_literal(&mut self, items: &[Expr]) -> Result<Type, Fault> {
        let (base, var) = self.elements_type(items, |base, enums| {
            if base == Base::Any {
                "a single value as an array element".to_string()
            } else {
                format!("an element of type {}, like the first", super::model::base_name(base, enums))
            }
        })?;
        Ok(Type { base, shape: Shape::Array(vec![Base::Int]), var })
    }

    /// The common base of an array literal's elements, and whether one is
    /// over decision variables; an element that does not fit is refused
    /// with `expected` (given the base so far).
    fn elements_type<'e>(
        &mut self,
        items: impl IntoIterator<Item = &'e Expr>,
        expected: impl Fn(Base, &[EnumDecl]) -> String,
    ) -> Result<(Base, bool), Fault> {
        let mut base = Base::Any;
        let mut var = false;
        for item in items {
            let ty = self.check(item)?;
            if ty.shape == Shape::Scalar
                && let Some(common) = coerced(base, ty.base)
            {
                base = common;
                var |= ty.var;
                continue;
            }
            if ty.shape != Shape::Scalar || !ty.base.fits(base) {
                return Err(self.wrong(item, &ty, expected(base, self.scope.enums)));
            }
            if base == Base::Any {
                base = ty.base;
            }
            var |= ty.var;
        }
        Ok((base, var))
    }

    /// A call over generators, such as `sum(i in 1..n)(x[i])`: the call's
    /// type over an array of the body's.
    fn gen_call(
        &mut self,
        name: &str,
        name_span: Span,
        generators: &[Generator],
        body: &Expr,
        span: Span,
    ) -> Result<Type, Fault> {
        let var_filter = builtins::lookup(name).is_some_and(|b| b.conditional.is_some());
        let bound = self.generators(generators, var_filter)?;
        let body_ty = self.check(body);
        self.locals.truncate(self.locals.len() - bound.0);
        let mut body_ty = body_ty?;
        body_ty.var |= bound.1;
        if body_ty.shape != Shape::Scalar {
            return Err(self.wrong(body, &body_ty, "a single value under the generators"));
        }
        let array = Type { base: body_ty.base, shape: Shape::Array(vec![Base::Int]), var: body_ty.var };
        self.call_with_types(name, name_span, &[(array, body)], span)
    }

    /// An if-then-else's type: its branches' common type, over decision
    /// variables when a condition is.
    fn if_then_else(&mut self, branches: &[(Expr, Expr)], otherwise: &Expr, span: Span) -> Result<Type, Fault> {
        let mut var = false;
        let result = self.check(otherwise)?;
        let mut result = result;
        for (condition, value) in branches {
            var |= self.expect_bool(condition, true)?;
            let ty = self.check(value)?;
            if ty.shape == Shape::Scalar
                && result.shape == Shape::Scalar
                && let Some(common) = coerced(result.base, ty.base)
            {
                result.base = common;
                var |= ty.var;
                continue;
            }
            if ty.shape != result.shape || !ty.base.fits(result.base) {
                return Err(Fault::new(
                    value.span,
                    format!("a branch of type {}", self.describe(&ty)),
                    format!("the type of the `else` branch, {}", self.describe(&result)),
                ));
            }
            var |= ty.var;
        }
        if var && result.shape != Shape::Scalar {
            return Err(Fault::new(
                span,
                "an if-then-else of arrays or sets with conditions on decision variables",
                "fixed conditions when the branches are arrays or sets",
            ));
        }
        Ok(Type { var: var || result.var, ..result })
    }

    /// A `let`'s type: its body's, over decision variables when a local
    /// constraint is; the locals stay bound for the caller to drop.
    fn let_in(&mut self, items: &[LetItem], body: &Expr) -> Result<Type, Fault> {
        let mut var = false;
        for item in items {
            match item {
                LetItem::Constraint(c) => var |= self.expect_bool(c, true)?,
                LetItem::Decl(d) => {
                    let ty = self.let_decl(d)?;
                    self.locals.push((d.name.clone(), ty));
                }
            }
        }
        let mut ty = self.check(body)?;
        ty.var |= var;
        Ok(ty)
    }

    /// A local declaration's type, with its value checked against it.
    fn let_decl(&mut self, d: &LetDecl) -> Result<Type, Fault> {
        let base = match &d.ty {
            LetType::Int => Base::Int,
            LetType::Bool => Base::Bool,
            LetType::Set(e) => match self.expect_set(e)? {
                Base::Any => Base::Int,
                base => base,
            },
        };
        let declared = Type::scalar(base, d.var);
        let Some(value) = &d.value else {
            if !d.var {
                return Err(Fault::new(
                    d.span,
                    format!("the local parameter `{}` without a value", d.name),
                    format!("a value, as in `int: {} = n div 2`, or `var` for a local decision variable", d.name),
                ));
            }
            if d.ty == LetType::Int {
                return Err(Fault::new(
                    d.span,
                    format!("the unbounded local variable `var int: {}`", d.name),
                    format!("a domain, as in `var 1..9: {0}`, or a value, as in `var int: {0} = ...`", d.name),
                ));
            }
            return Ok(declared);
        };
        let ty = self.check(value)?;
        let fits = ty.shape == Shape::Scalar
            && match base {
                Base::Bool => ty.base.fits(Base::Bool),
                Base::Int => int_position(ty.base),
                base => ty.base.fits(base),
            };
        if !fits {
            return Err(self.wrong(value, &ty, format!("a value of type {}", self.describe(&declared))));
        }
        if ty.var && !d.var {
            return Err(Fault::new(
                value.span,
                format!("{} that depends on decision variables", what(value)),
                format!("a fixed value for the local parameter `{}`, or `var` before its type", d.name),
            ));
        }
        Ok(declared)
    }

    fn name(&self, name: &str, span: Span) -> Result<Type, Fault> {
        if let Some((_, ty)) = self.locals.iter().rev().find(|(n, _)| n == name) {
            return Ok(ty.clone());
        }
        match self.scope.names.get(name) {
            Some(Named::EnumType(e)) => Ok(Type { base: Base::Enum(*e), shape: Shape::Set, var: false }),
            Some(Named::EnumValue(e, _)) => Ok(Type::scalar(Base::Enum(*e), false)),
            Some(Named::Param(p)) => Ok(self.scope.params[*p].ty.clone()),
            Some(Named::Var(v)) => Ok(self.scope.vars[*v].ty()),
            None => {
                if builtins::lookup(name).is_some() || self.scope.function(name).is_some() {
                    return Err(Fault::new(
                        span,
                        format!("the function `{name}` without arguments"),
                        format!("a call such as `{name}(...)`"),
                    ));
                }
                let declared =
                    self.scope.names.keys().map(String::as_str).chain(self.locals.iter().map(|(n, _)| n.as_str()));
                let hint = match nearest(name, declared) {
                    Some(near) => format!(" (did you mean {near}?)"),
                    None => String::new(),
                };
                Err(Fault::new(
                    span,
                    format!("unknown name `{name}`"),
                    format!("a declared parameter, variable, enum or loop variable{hint}"),
                ))
            }
        }
    }

    fn index(&mut self, array: &Expr, indices: &[Expr]) -> Result<Type, Fault> {
        let ty = self.check(array)?;
        let Shape::Array(index_bases) = &ty.shape else {
            return Err(self.wrong(array, &ty, "an array to index"));
        };
        if index_bases.len() != indices.len() {
            return Err(Fault::new(
                indices[0].span.to(indices[indices.len() - 1].span),
                format!("{} {}", indices.len(), if indices.len() == 1 { "index" } else { "indices" }),
                format!(
                    "{} for {}, an array of {} dimension{}",
                    index_bases.len(),
                    what(array),
                    index_bases.len(),
                    if index_bases.len() == 1 { "" } else { "s" }
                ),
            ));
        }
        let mut var = ty.var;
        // A set index (`2..3`, `S`, `..` alone) slices its dimension, as in
        // MiniZinc; the slice keeps the dimensions so indexed, with the sets
        // as their index sets.
        let mut kept = Vec::new();
        let mut var_index = None;
        for (index, &base) in indices.iter().zip(index_bases) {
            if index.kind == ExprKind::AllIndices {
                kept.push(base);
                continue;
            }
            let ity = self.check(index)?;
            if ity.shape == Shape::Set && ity.base.fits(base) {
                kept.push(base);
                continue;
            }
            if ity.shape != Shape::Scalar || !ity.base.fits(base) || !ity.base.is_intlike() {
                return Err(self.wrong(
                    index,
                    &ity,
                    format!(
                        "an index of type {0}, or a set of {0} to slice with",
                        super::model::base_name(base, self.scope.enums)
                    ),
                ));
            }
            if ity.var && var_index.is_none() {
                var_index = Some(index);
            }
            var |= ity.var;
        }
        if kept.is_empty() {
            return Ok(Type::scalar(ty.base, var));
        }
        if let Some(index) = var_index {
            return Err(Fault::new(
                index.span,
                format!("{} that depends on decision variables, in a slice", what(index)),
                "fixed indices beside the sets of a slice",
            ));
        }
        Ok(Type { base: ty.base, shape: Shape::Array(kept), var: ty.var })
    }

    /// `x = y` or `x != y` over arrays, as MiniZinc has them: the same
    /// number of dimensions and elements of comparable kinds (that the
    /// index sets agree is checked when they are known, in unrolling).
    fn array_equality(&self, op: BinOp, (a, right, b): (&Type, &Expr, &Type), dims: usize) -> Result<Type, Fault> {
        let comparable = b.base.fits(a.base)
            || (a.base == Base::Bool && b.base.fits(Base::Int))
            || (b.base == Base::Bool && a.base.fits(Base::Int));
        match &b.shape {
            Shape::Array(other) if other.len() == dims && comparable => Ok(boolean(a.var || b.var)),
            _ => Err(self.wrong(
                right,
                b,
                format!(
                    "an array of {} with {dims} dimension{} to compare with `{}`",
                    super::model::base_name(a.base, self.scope.enums),
                    if dims == 1 { "" } else { "s" },
                    op.text()
                ),
            )),
        }
    }

    fn binary(&mut self, op: BinOp, left: &Expr, right: &Expr) -> Result<Type, Fault> {
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => {
                let a = self.expect_int(left, true)?;
                let b = self.expect_int(right, true)?;
                Ok(Type::scalar(Base::Int, a || b))
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let a = self.check(left)?;
                let b = self.check(right)?;
                if let (Shape::Array(dims), BinOp::Eq | BinOp::Ne) = (&a.shape, op) {
                    return self.array_equality(op, (&a, right, &b), dims.len());
                }
                if a.shape != Shape::Scalar {
                    return Err(self.wrong(left, &a, format!("a single value to compare with `{}`", op.text())));
                }
                // A Boolean compared with an integer is coerced to 0 or 1.
                let coerced = (a.base == Base::Bool && b.base.fits(Base::Int))
                    || (b.base == Base::Bool && a.base.fits(Base::Int));
                if b.shape != Shape::Scalar || !(b.base.fits(a.base) || coerced) {
                    return Err(self.wrong(
                        right,
                        &b,
                        format!(
                            "a value of type {} to compare with the left side",
                            super::model::base_name(a.base, self.scope.enums)
                        ),
                    ));
                }
                Ok(boolean(a.var || b.var))
            }
            BinOp::And | BinOp::Or | BinOp::Implies | BinOp::ImpliedBy | BinOp::Iff | BinOp::Xor => {
                let a = self.expect_bool(left, true)?;
                let b = self.expect_bool(right, true)?;
                Ok(boolean(a || b))
            }
            BinOp::In => {
                let a = self.check(left)?;
                if a.shape != Shape::Scalar || !(a.base.is_intlike() || a.base == Base::Bool) {
                    return Err(self.wrong(left, &a, "an integer or enum value to test for membership"));
                }
                let base = self.expect_set(right)?;
                if !base.fits(a.base) && coerced(base, a.base).is_none() {
                    return Err(Fault::new(
                        right.span,
                        format!("a set of {}", super::model::base_name(base, self.scope.enums)),
                        format!("a set of {}", super::model::base_name(a.base, self.scope.enums)),
                    ));
                }
                Ok(boolean(a.var))
            }
            BinOp::Range => {
                let a = self.check(left)?;
                if a.shape != Shape::Scalar || !a.base.is_intlike() {
                    return Err(self.wrong(left, &a, "an integer or enum value as the start of a range"));
                }
                let b = self.check(right)?;
                if b.shape != Shape::Scalar || !b.base.fits(a.base) {
                    return Err(self.wrong(right, &b, "a value of the start's type as the end of a range"));
                }
                for (side, ty) in [(left, &a), (right, &b)] {
                    if ty.var {
                        return Err(Fault::new(
                            side.span,
                            format!("{} that depends on decision variables", what(side)),
                            "a fixed range bound",
                        ));
                    }
                }
                Ok(Type { base: if a.base == Base::Any { b.base } else { a.base }, shape: Shape::Set, var: false })
            }
            BinOp::Union | BinOp::Intersect | BinOp::Diff | BinOp::Symdiff => {
                let a = self.expect_set(left)?;
                let b = self.expect_set(right)?;
                if !a.fits(b) && !b.fits(a) {
                    return Err(Fault::new(
                        right.span,
                        format!("a set of {}", super::model::base_name(b, self.scope.enums)),
                        format!("a set of {} for `{}`", super::model::base_name(a, self.scope.enums), op.text()),
                    ));
                }
                Ok(Type { base: if a == Base::Any { b } else { a }, shape: Shape::Set, var: false })
            }
        }
    }

    /// Binds the generators' variables; returns how many were bound and
    /// whether a filter depends on decision variables.
    fn generators(&mut self, generators: &[Generator], allow_var_filter: bool) -> Result<(usize, bool), Fault> {
        let before = self.locals.len();
        let mut var_filter = false;
        let result = (|| {
            for generator in generators {
                let ty = self.check(&generator.source)?;
                let element = match &ty.shape {
                    Shape::Set => Type::scalar(ty.base, false),
                    Shape::Array(_) => Type::scalar(ty.base, ty.var),
                    Shape::Scalar => {
                        return Err(self.wrong(&generator.source, &ty, "a range, set, enum or array to iterate over"));
                    }
                };
                for (name, span) in &generator.names {
                    // As in MiniZinc, one comprehension binds a name once.
                    if self.locals[before..].iter().any(|(bound, _)| bound == name) {
                        return Err(Fault::new(
                            *span,
                            format!("the generator name `{name}` bound twice in one comprehension"),
                            "a different name for each generator",
                        ));
                    }
                    self.locals.push((name.clone(), element.clone()));
                }
                if let Some(filter) = &generator.filter {
                    var_filter |= self.expect_bool(filter, allow_var_filter).map_err(|mut f| {
                        if f.expected == "a fixed Boolean" {
                            f.expected = "a fixed `where` condition (a condition on decision variables is allowed only in forall, exists and sum)".to_string();
                        }
                        f
                    })?;
                }
            }
            Ok(())
        })();
        match result {
            Ok(()) => Ok((self.locals.len() - before, var_filter)),
            Err(fault) => {
                self.locals.truncate(before);
                Err(fault)
            }
        }
    }

    fn call(&mut self, name: &str, name_span: Span, args: &[Expr], span: Span) -> Result<Type, Fault> {
        let mut typed = Vec::with_capacity(args.len());
        for arg in args {
            typed.push((self.check(arg)?, arg));
        }
        self.call_with_types(name, name_span, &typed, span)
    }

    fn call_with_types(
        &mut self,
        name: &str,
        name_span: Span,
        args: &[(Type, &Expr)],
        span: Span,
    ) -> Result<Type, Fault> {
        if let Some(function) = self.scope.function(name) {
            return self.user_call(function, args, span);
        }
        let Some(builtin) = builtins::lookup(name) else {
            let user = self.scope.functions.iter().map(|f| f.name.as_str());
            let names = || builtins::all().iter().map(|b| b.name).chain(user.clone());
            let hint = match nearest(name, names()) {
                Some(near) => format!(" (did you mean {near}?)"),
                None => String::new(),
            };
            return Err(Fault::new(
                name_span,
                format!("unknown function `{name}`"),
                format!("one of {}{hint}", names().collect::<Vec<_>>().join(", ")),
            ));
        };
        if !builtin.arities.contains(&args.len()) {
            return Err(Fault::new(
                span,
                format!("`{name}` with {} argument{}", args.len(), if args.len() == 1 { "" } else { "s" }),
                format!("the form {}", builtin.forms),
            ));
        }
        (builtin.check)(&TypedCall { args, enums: self.scope.enums })
    }
}

impl Checker<'_, '_> {
    /// A call of a user-defined predicate or function: each argument fits
    /// its parameter's type (a Boolean may stand for an integer, a fixed
    /// value for a `var` one); the result depends on decision variables
    /// when an argument or the body does.
    fn user_call(&self, function: &Function, args: &[(Type, &Expr)], span: Span) -> Result<Type, Fault> {
        let name = &function.name;
        if args.len() != function.params.len() {
            let declared: Vec<String> =
                function.params.iter().map(|(p, ty)| format!("{}: {p}", self.describe(ty))).collect();
            return Err(Fault::new(
                span,
                format!("`{name}` with {} argument{}", args.len(), if args.len() == 1 { "" } else { "s" }),
                format!(
                    "{} argument{}, as declared: {name}({})",
                    declared.len(),
                    if declared.len() == 1 { "" } else { "s" },
                    declared.join(", ")
                ),
            ));
        }
        let mut var = function.reads_vars;
        for ((ty, e), (param, declared)) in args.iter().zip(&function.params) {
            if !fits_param(ty, declared) {
                return Err(Fault::new(
                    e.span,
                    format!("{} of type {}", what(e), self.describe(ty)),
                    format!("an argument of type {} for the parameter `{param}` of `{name}`", self.describe(declared)),
                ));
            }
            var |= ty.var;
        }
        Ok(Type { var: var && function.result.var, ..function.result.clone() })
    }
}

/// Whether an argument of type `arg` may be passed for a parameter of type
/// `param`: the same shape and index kinds, a fitting element kind (a
/// Boolean for an integer, as `bool2int`), and fixed unless the parameter
/// is `var`.
pub(crate) fn fits_param(arg: &Type, param: &Type) -> bool {
    let shape = match (&arg.shape, &param.shape) {
        (Shape::Array(a), Shape::Array(p)) => a.len() == p.len() && a.iter().zip(p).all(|(a, p)| a.fits(*p)),
        (a, p) => a == p,
    };
    let base = arg.base.fits(param.base) || (param.base == Base::Int && arg.base == Base::Bool);
    shape && base && (param.var || !arg.var)
}

/// A call's arguments with their types, as a built-in's typing hook sees
/// them; its arity is already checked.
pub(crate) struct TypedCall<'a> {
    /// Each argument's type and expression.
    pub args: &'a [(Type, &'a Expr)],
    enums: &'a [EnumDecl],
}

impl TypedCall<'_> {
    /// How a message names a type.
    pub fn describe(&self, ty: &Type) -> String {
        ty.describe(self.enums)
    }

    /// How a message names an element or index kind.
    pub fn base_name(&self, base: Base) -> String {
        super::model::base_name(base, self.enums)
    }

    /// A fault at argument `i`: what it is, of which type, and what was
    /// expected instead.
    pub fn wrong(&self, i: usize, expected: impl Into<String>) -> Fault {
        let (ty, e) = &self.args[i];
        Fault::new(e.span, format!("{} of type {}", what(e), self.describe(ty)), expected)
    }

    /// Checks that argument `i` is an array (of `dims` dimensions, when
    /// given) of `base` elements, or of integer or enum elements when no
    /// base is given; returns its element kind, whether it depends on
    /// decision variables, and its dimensions.
    pub fn array(
        &self,
        i: usize,
        base: Option<Base>,
        dims: Option<usize>,
        what_for: &str,
    ) -> Result<(Base, bool, usize), Fault> {
        let (ty, _) = &self.args[i];
        let ok_shape = match &ty.shape {
            Shape::Array(index) => dims.is_none_or(|d| d == index.len()),
            _ => false,
        };
        let ok_base = base.is_none_or(|b| ty.base.fits(b)) && (base.is_some() || ty.base.is_intlike());
        if !ok_shape || !ok_base {
            return Err(self.wrong(i, what_for));
        }
        let dims = if let Shape::Array(index) = &ty.shape { index.len() } else { 0 };
        Ok((ty.base, ty.var, dims))
    }

    /// Checks that argument `i` is a single value of `base`, fixed unless
    /// `allow_var`; returns whether it depends on decision variables.
    pub fn scalar(&self, i: usize, base: Base, allow_var: bool, what_for: &str) -> Result<bool, Fault> {
        let (ty, e) = &self.args[i];
        let fits = ty.base.fits(base) || (base == Base::Int && int_position(ty.base));
        if ty.shape != Shape::Scalar || !fits {
            return Err(self.wrong(i, what_for));
        }
        if ty.var && !allow_var {
            return Err(Fault::new(
                e.span,
                format!("{} that depends on decision variables", what(e)),
                format!("a fixed value: {what_for}"),
            ));
        }
        Ok(ty.var)
    }

    /// The index kinds of argument `i`, which the hook checked to be an
    /// array.
    pub fn index(&self, i: usize) -> &[Base] {
        match &self.args[i].0.shape {
            Shape::Array(index) => index,
            _ => &[],
        }
    }
}

/// Whether `e` is a call of a grid global that may stand under a guard
/// (`b -> grid_connected(on)`).
pub(crate) fn guardable_grid(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call { name, .. } if name == "grid_connected" || name == "graph_connected")
}

/// Whether `e` is a call of a grid global.
pub(crate) fn grid_call(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call { name, .. } if builtins::lookup(name).is_some_and(|b| b.grid_global))
}

/// The first grid global in `e` that is not a constraint of its own: the
/// grid globals may stand alone, joined by `/\`, or under a top-level
/// `forall`, and `grid_connected` or `graph_connected` under a guard
/// (`b -> grid_connected(on)` there), and nowhere else (they cannot be
/// negated, reified or made conditional otherwise).
pub fn misplaced_grid(e: &Expr) -> Option<Fault> {
    fn visit(e: &Expr, place: Option<&str>) -> Option<Fault> {
        let inside = |what: String| -> Option<String> { Some(place.map_or(what, str::to_string)) };
        match &e.kind {
            ExprKind::Call { name, args, .. } if builtins::lookup(name).is_some_and(|b| b.grid_global) => match place {
                Some(place) => Some(Fault::new(
                    e.span,
                    format!("`{name}` {place}"),
                    "the grid globals as constraints of their own: alone, joined by `/\\`, or under a top-level \
                     `forall`, and `grid_connected` or `graph_connected` under a guard (`b -> grid_connected(on)`); they \
                     cannot be negated, reified or made conditional otherwise",
                )),
                None => {
                    args.iter().find_map(|a| visit(a, inside(format!("inside an argument of `{name}`")).as_deref()))
                }
            },
            ExprKind::Binary { op: BinOp::And, left, right } => visit(left, place).or_else(|| visit(right, place)),
            ExprKind::Binary { op: BinOp::Implies, left, right } if place.is_none() && guardable_grid(right) => {
                visit(left, Some("in the guard of `->`")).or_else(|| visit(right, None))
            }
            ExprKind::Binary { op, left, right } => {
                let here = inside(format!("under `{}`", op.text()));
                visit(left, here.as_deref()).or_else(|| visit(right, here.as_deref()))
            }
            ExprKind::Unary { op, operand } => {
                let here = match op {
                    UnOp::Not => inside("under `not`".to_string()),
                    UnOp::Neg => inside("under a negation".to_string()),
                };
                visit(operand, here.as_deref())
            }
            ExprKind::GenCall { name, generators, body, .. } => {
                let sources = inside(format!("inside the generators of `{name}`"));
                let found = generators.iter().find_map(|g| {
                    visit(&g.source, sources.as_deref())
                        .or_else(|| g.filter.as_ref().and_then(|f| visit(f, sources.as_deref())))
                });
                let here =
                    if name == "forall" { place.map(str::to_string) } else { inside(format!("inside `{name}`")) };
                found.or_else(|| visit(body, here.as_deref()))
            }
            ExprKind::Call { name, args, .. } => {
                let here = inside(format!("inside `{name}`"));
                args.iter().find_map(|a| visit(a, here.as_deref()))
            }
            ExprKind::If { branches, otherwise } => {
                let here = inside("inside an if-then-else".to_string());
                branches
                    .iter()
                    .find_map(|(c, v)| visit(c, here.as_deref()).or_else(|| visit(v, here.as_deref())))
                    .or_else(|| visit(otherwise, here.as_deref()))
            }
            ExprKind::Index { array, indices } => {
                let here = inside("inside an array access".to_string());
                visit(array, here.as_deref()).or_else(|| indices.iter().find_map(|i| visit(i, here.as_deref())))
            }
            ExprKind::Array(items) | ExprKind::Set(items) => {
                let here = inside("inside an array".to_string());
                items.iter().find_map(|i| visit(i, here.as_deref()))
            }
            ExprKind::Array2d(rows) => {
                let here = inside("inside an array".to_string());
                rows.iter().flatten().find_map(|i| visit(i, here.as_deref()))
            }
            ExprKind::Comprehension { body, generators } => {
                let here = inside("inside a comprehension".to_string());
                generators
                    .iter()
                    .find_map(|g| {
                        visit(&g.source, here.as_deref())
                            .or_else(|| g.filter.as_ref().and_then(|f| visit(f, here.as_deref())))
                    })
                    .or_else(|| visit(body, here.as_deref()))
            }
            ExprKind::Assert { value, .. } => value.as_deref().and_then(|v| visit(v, place)),
            ExprKind::Let { items, body } => {
                let here = inside("inside a `let`".to_string());
                let_parts(items, body).into_iter().find_map(|part| visit(part, here.as_deref()))
            }
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) | ExprKind::AllIndices => None,
        }
    }
    visit(e, None)
}

/// The expressions of a `let`: its items' and its body.
fn let_parts<'e>(items: &'e [LetItem], body: &'e Expr) -> Vec<&'e Expr> {
    let mut parts = Vec::new();
    for item in items {
        match item {
            LetItem::Constraint(c) => parts.push(c),
            LetItem::Decl(d) => {
                if let LetType::Set(e) = &d.ty {
                    parts.push(e);
                }
                parts.extend(&d.value);
            }
        }
    }
    parts.push(body);
    parts
}

/// The first local decision variable without a definition that is not in a
/// positive context, as MiniZinc refuses it: such a local exists once for
/// the constraint, so it may stand where the constraint must hold (at the
/// top, under `/\`, `\/`, `forall`, `exists`, the right of `->`, the
/// branches of an if-then-else) and nowhere it could be negated, reified or
/// counted. `place` says where an objective or definition puts `e`.
/// A call of a user-defined predicate whose body has such a local (the
/// `functions` say which) counts as one.
pub fn misplaced_free_local(e: &Expr, place: Option<&str>, functions: &[Function]) -> Option<Fault> {
    fn visit(e: &Expr, place: Option<&str>, functions: &[Function]) -> Option<Fault> {
        // The nearest place is the one to name.
        let inside = |what: String| -> Option<String> { Some(what) };
        let visit = |e: &Expr, place: Option<&str>| visit(e, place, functions);
        if let ExprKind::Call { name, .. } | ExprKind::GenCall { name, .. } = &e.kind
            && let Some(place) = place
            && functions.iter().any(|f| &f.name == name && f.free_locals)
        {
            return Some(Fault::new(
                e.span,
                format!("a call of `{name}`, whose body has a local variable without a definition, {place}"),
                "the call where its constraint must hold: at the top, under `/\\`, `\\/`, `forall` or `exists`, \
                 right of `->`, or in a branch",
            ));
        }
        match &e.kind {
            ExprKind::Let { items, body } => {
                if let Some(place) = place {
                    let free = items.iter().find_map(|item| match item {
                        LetItem::Decl(d) if d.var && d.value.is_none() => Some(d),
                        _ => None,
                    });
                    if let Some(d) = free {
                        return Some(Fault::new(
                            d.span,
                            format!("the local variable `{}` without a definition, {place}", d.name),
                            "a definition (`var int: t = ...`), or the `let` where its constraint must hold: at \
                             the top, under `/\\`, `\\/`, `forall` or `exists`, right of `->`, or in a branch",
                        ));
                    }
                }
                let found = items.iter().find_map(|item| match item {
                    LetItem::Constraint(c) => visit(c, place),
                    LetItem::Decl(d) => {
                        let here = inside(format!("inside the definition of the local `{}`", d.name));
                        d.value.as_ref().and_then(|v| visit(v, here.as_deref()))
                    }
                });
                found.or_else(|| visit(body, place))
            }
            ExprKind::Binary { op: BinOp::And | BinOp::Or, left, right } => {
                visit(left, place).or_else(|| visit(right, place))
            }
            ExprKind::Binary { op: op @ (BinOp::Implies | BinOp::ImpliedBy), left, right } => {
                let (condition, result) = if *op == BinOp::Implies { (left, right) } else { (right, left) };
                let here = inside(format!("in the condition of `{}`", op.text()));
                visit(condition, here.as_deref()).or_else(|| visit(result, place))
            }
            ExprKind::Binary { op, left, right } => {
                let here = inside(format!("under `{}`", op.text()));
                visit(left, here.as_deref()).or_else(|| visit(right, here.as_deref()))
            }
            ExprKind::Unary { op, operand } => {
                let here = inside(if *op == UnOp::Not { "under `not`" } else { "under a negation" }.to_string());
                visit(operand, here.as_deref())
            }
            ExprKind::GenCall { name, generators, body, .. } => {
                let sources = inside(format!("inside the generators of `{name}`"));
                let found = generators.iter().find_map(|g| {
                    visit(&g.source, sources.as_deref())
                        .or_else(|| g.filter.as_ref().and_then(|f| visit(f, sources.as_deref())))
                });
                let positive = name == "forall" || name == "exists";
                let here = if positive { place.map(str::to_string) } else { inside(format!("inside `{name}`")) };
                found.or_else(|| visit(body, here.as_deref()))
            }
            ExprKind::If { branches, otherwise } => {
                let conditions = inside("in the condition of an if-then-else".to_string());
                branches
                    .iter()
                    .find_map(|(c, v)| visit(c, conditions.as_deref()).or_else(|| visit(v, place)))
                    .or_else(|| visit(otherwise, place))
            }
            ExprKind::Assert { value, .. } => value.as_deref().and_then(|v| visit(v, place)),
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) | ExprKind::AllIndices => None,
            _ => {
                let here = inside(format!("inside {}", what(e)));
                super::syntax::children(e).into_iter().find_map(|c| visit(c, here.as_deref()))
            }
        }
    }
    visit(e, place, functions)
}

/// How a message names an expression.
pub fn what(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(n) => format!("`{n}`"),
        ExprKind::Bool(b) => format!("`{b}`"),
        ExprKind::Name(name) => format!("`{name}`"),
        ExprKind::Call { name, .. } | ExprKind::GenCall { name, .. } => format!("the `{name}` call"),
        ExprKind::Index { .. } => "the array access".to_string(),
        ExprKind::AllIndices => "`..`".to_string(),
        ExprKind::Binary { op, .. } => format!("the `{}` expression", op.text()),
        ExprKind::Unary { op: UnOp::Neg, .. } => "the negation".to_string(),
        ExprKind::Unary { op: UnOp::Not, .. } => "the `not` expression".to_string(),
        ExprKind::If { .. } => "the if-then-else".to_string(),
        ExprKind::Array(_) | ExprKind::Array2d(_) => "the array literal".to_string(),
        ExprKind::Comprehension { .. } => "the comprehension".to_string(),
        ExprKind::Set(_) => "the set literal".to_string(),
        ExprKind::Assert { .. } => "the assert".to_string(),
        ExprKind::Let { .. } => "the `let`".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_names_are_suggested_only_when_close() {
        let names = ["queens", "n", "board", "q"];
        assert_eq!(nearest("m", ["n", "q", "x"].into_iter()), None);
        assert_eq!(nearest("queen", names.iter().copied()).as_deref(), Some("`queens`"));
        assert_eq!(nearest("m", names.iter().copied()).as_deref(), Some("`n` or `q`"));
        assert_eq!(nearest("zebra", names.iter().copied()), None);
        let functions = || builtins::all().iter().map(|b| b.name);
        assert_eq!(nearest("alldiferent", functions()).as_deref(), Some("`alldifferent`"));
        assert_eq!(nearest("alldiff", functions()).as_deref(), Some("`alldifferent`"));
    }
}

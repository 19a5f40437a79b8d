//! The independent check of an answer: an evaluator of the model's own
//! syntax trees on a full assignment of the decision variables, written
//! apart from the unrolling and the encodings. It follows MiniZinc's
//! relational semantics: an undefined integer (a division by 0, an index
//! out of range) makes the nearest enclosing Boolean expression false.
//!
//! It shares name resolution with the front end, names and not semantics:
//! a declared name means what the checker's `Named` says, and a call
//! runs the verify hook of the built-in of that name in
//! [`super::builtins`], which computes on values apart from the lowering
//! hook beside it. The grid globals are judged there by walking the grid,
//! a path or loop along the route the answer reports for it (its
//! witness); the witnesses are given in the order the constraints meet
//! their grid globals.

mod ground;
mod incremental;

pub(crate) use incremental::IncrementalCheck;

use super::builtins::{self, Builtin};
use super::check::Named;
use super::model::{Base, Function, IntSet, Model, Value, flat_position};
use super::syntax::{BinOp, Expr, ExprKind, Generator, LetItem, LetType, UnOp};

/// FNV-1a: names are short, and the check runs once per solution counted,
/// so a cheap hash pays.
#[derive(Default)]
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

type BuildFnv = std::hash::BuildHasherDefault<Fnv>;

/// A value during evaluation.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ev {
    Int(i64),
    /// An integer expression with no value, such as `x div 0`.
    Undef,
    Bool(bool),
    Set(IntSet),
    Array(Vec<(i64, i64)>, Vec<Ev>),
}

/// Evaluates a model's constraints and objective on assignments.
pub struct Verifier<'m> {
    model: &'m Model,
    names: std::collections::HashMap<&'m str, Named, BuildFnv>,
    /// Each constraint's ground form, made at the first check; `None`
    /// where the tree walk judges it.
    ground: std::sync::OnceLock<Vec<Option<ground::Node>>>,
}

struct Env<'a> {
    values: &'a [i64],
    locals: Vec<(&'a str, Ev)>,
    /// Each grid global's route, in the order the constraints meet them.
    routes: &'a [Option<Vec<(i64, i64)>>],
    /// The number of the next grid global met.
    next_grid: usize,
}

/// A value, or why the checker could not judge: a bug.
pub(crate) type Eval<T> = Result<T, String>;

/// What the checker met that the front end should have ruled out.
pub(crate) fn bug(what: &str) -> String {
    format!("the checker met {what}")
}

/// The built-in `name`.
fn builtin(name: &str) -> Eval<&'static Builtin> {
    builtins::lookup(name).ok_or_else(|| bug(&format!("the unknown function `{name}`")))
}

impl<'m> Verifier<'m> {
    /// A verifier for `model`.
    pub fn new(model: &'m Model) -> Verifier<'m> {
        let mut names = std::collections::HashMap::with_hasher(BuildFnv::default());
        for (e, decl) in model.enums.iter().enumerate() {
            names.insert(decl.name.as_str(), Named::EnumType(e));
            for (k, value) in decl.values.iter().enumerate() {
                names.insert(value.as_str(), Named::EnumValue(e, k as i64 + 1));
            }
        }
        for (p, param) in model.params.iter().enumerate() {
            names.insert(param.name.as_str(), Named::Param(p));
        }
        for (v, var) in model.vars.iter().enumerate() {
            names.insert(var.name.as_str(), Named::Var(v));
        }
        Verifier { model, names, ground: std::sync::OnceLock::new() }
    }

    /// The constraints' ground forms.
    fn ground(&self) -> &[Option<ground::Node>] {
        self.ground.get_or_init(|| {
            let mut grounder = ground::Grounder::new(self);
            self.model.constraints.iter().map(|c| grounder.constraint(&c.expr)).collect()
        })
    }

    /// How many of the constraints have a ground form (the rest are judged
    /// by walking their syntax trees).
    pub fn grounded(&self) -> usize {
        self.ground().iter().filter(|g| g.is_some()).count()
    }

    /// Checks that `values` (one per scalar, Booleans as 0 and 1) lies in
    /// every domain and meets every constraint, with `routes` the witness of
    /// each grid global (a path's or loop's cells in order) in the order the
    /// constraints meet them; the error names the first that fails. Each
    /// constraint is judged on its ground form where it has one.
    pub fn check(&self, values: &[i64], routes: &[Option<Vec<(i64, i64)>>]) -> Result<(), String> {
        self.check_with(values, routes, true)
    }

    /// [`Verifier::check`] by walking every constraint's syntax tree, as
    /// the ground form's tests judge it.
    pub fn check_by_walk(&self, values: &[i64], routes: &[Option<Vec<(i64, i64)>>]) -> Result<(), String> {
        self.check_with(values, routes, false)
    }

    fn check_with(&self, values: &[i64], routes: &[Option<Vec<(i64, i64)>>], grounded: bool) -> Result<(), String> {
        if values.len() != self.model.num_scalars() {
            return Err(format!("{} values for {} variables", values.len(), self.model.num_scalars()));
        }
        for decl in &self.model.vars {
            for k in 0..decl.len {
                let v = values[decl.first + k];
                if !decl.domain.contains(v) {
                    let name = self.model.scalar_name(decl.first + k);
                    return Err(format!("{name} = {v} is outside its domain {}", decl.domain));
                }
                if let Some(given) = decl.given_at(k)
                    && given != v
                {
                    let name = self.model.scalar_name(decl.first + k);
                    return Err(format!("{name} = {v}, but the model gives it as {given}"));
                }
            }
        }
        let ground = if grounded { self.ground() } else { &[] };
        let mut next_grid = 0;
        for c in 0..self.model.constraints.len() {
            // A ground form that meets what the front end rules out leaves
            // the walk to report it.
            let holds = match ground.get(c).and_then(Option::as_ref).map(|node| node.truth(values)) {
                Some(Ok(holds)) => holds,
                _ => self.constraint_holds(c, values, routes, &mut next_grid)?,
            };
            if !holds {
                let constraint = &self.model.constraints[c];
                let named = crate::model::with_line(&format!("{:?}", constraint.name), Some(constraint.line));
                return Err(format!("the constraint {named} does not hold"));
            }
        }
        Ok(())
    }

    /// Whether constraint `c` holds, its grid globals' witnesses taken from
    /// `routes[*next_grid]` on, which it moves past them.
    fn constraint_holds(
        &self,
        c: usize,
        values: &[i64],
        routes: &[Option<Vec<(i64, i64)>>],
        next_grid: &mut usize,
    ) -> Result<bool, String> {
        self.holds(&self.model.constraints[c].expr, values, routes, next_grid)
    }

    /// Whether the Boolean `e`, outside any loop, holds; as
    /// [`Verifier::constraint_holds`].
    fn holds(
        &self,
        e: &Expr,
        values: &[i64],
        routes: &[Option<Vec<(i64, i64)>>],
        next_grid: &mut usize,
    ) -> Result<bool, String> {
        let mut env = Env { values, locals: Vec::new(), routes, next_grid: *next_grid };
        let holds = self.truth(e, &mut env)?;
        *next_grid = env.next_grid;
        Ok(holds)
    }

    /// The declaration of scalar `s`.
    fn decl_of(&self, s: usize) -> Option<&'m super::model::VarDecl> {
        let at = self.model.vars.partition_point(|d| d.first + d.len <= s);
        self.model.vars.get(at).filter(|d| (d.first..d.first + d.len).contains(&s))
    }

    /// Whether scalar `s` may take `v`: in its domain and as the model
    /// gives it, if it does.
    fn admits(&self, s: usize, v: i64) -> bool {
        self.decl_of(s)
            .is_some_and(|decl| decl.domain.contains(v) && decl.given_at(s - decl.first).is_none_or(|given| given == v))
    }

    /// The objective's value under `values`; an error when there is no
    /// objective or it is undefined.
    pub fn objective(&self, values: &[i64]) -> Result<i64, String> {
        let objective = self.model.objective.as_ref().ok_or_else(|| "the model has no objective".to_string())?;
        let mut env = Env { values, locals: Vec::new(), routes: &[], next_grid: 0 };
        match self.eval(&objective.expr, &mut env)? {
            Ev::Int(v) => Ok(v),
            Ev::Bool(b) => Ok(i64::from(b)),
            Ev::Undef => Err("the objective is undefined".to_string()),
            _ => Err(bug("an objective that is not an integer")),
        }
    }

    /// Whether one unrolled instance of a constraint holds: the instance is
    /// given by the position taken in each enclosing top-level `forall`
    /// generator (outermost first) along `depth` nested `forall`s. An
    /// instance whose `where` fails holds vacuously. Its grid globals take
    /// their witnesses from `routes`, the first from `routes[first_grid]`.
    pub fn instance_holds(
        &self,
        constraint: usize,
        positions: &[usize],
        values: &[i64],
        routes: &[Option<Vec<(i64, i64)>>],
        first_grid: usize,
    ) -> Result<bool, String> {
        let constraint = self.model.constraints.get(constraint).ok_or_else(|| bug("an unknown constraint"))?;
        let mut env = Env { values, locals: Vec::new(), routes, next_grid: first_grid };
        let mut expr = &constraint.expr;
        let mut positions = positions.iter().copied();
        while let ExprKind::GenCall { name, generators, body, .. } = &expr.kind {
            if name != "forall" || positions.len() == 0 {
                break;
            }
            for generator in generators {
                for (name, _) in &generator.names {
                    let source = self.eval(&generator.source, &mut env)?;
                    let items = self.items(source)?;
                    let at = positions.next().ok_or_else(|| bug("too few loop positions"))?;
                    let item = items.into_iter().nth(at).ok_or_else(|| bug("a loop position past the end"))?;
                    env.locals.push((name.as_str(), item));
                }
                if let Some(filter) = &generator.filter
                    && !self.truth(filter, &mut env)?
                {
                    return Ok(true);
                }
            }
            expr = body;
        }
        self.truth(expr, &mut env)
    }

    /// The elements a generator ranges over.
    fn items(&self, source: Ev) -> Eval<Vec<Ev>> {
        match source {
            Ev::Set(set) => Ok(set.values().map(Ev::Int).collect()),
            Ev::Array(_, elems) => Ok(elems),
            _ => Err(bug("a generator over a scalar")),
        }
    }

    /// A Boolean expression's truth; undefined integers inside its atoms
    /// make those atoms false.
    fn truth<'a>(&self, e: &'a Expr, env: &mut Env<'a>) -> Eval<bool> {
        match self.eval(e, env)? {
            Ev::Bool(b) => Ok(b),
            _ => Err(bug("a constraint that is not Boolean")),
        }
    }

    /// An integer's value, `None` when undefined; a Boolean counts as 0 or
    /// 1, as MiniZinc coerces it.
    fn int<'a>(&self, e: &'a Expr, env: &mut Env<'a>) -> Eval<Option<i64>> {
        match self.eval(e, env)? {
            Ev::Int(v) => Ok(Some(v)),
            Ev::Bool(b) => Ok(Some(i64::from(b))),
            Ev::Undef => Ok(None),
            _ => Err(bug("a non-integer where an integer belongs")),
        }
    }

    fn param_value(value: &Value) -> Ev {
        match value {
            Value::Int(v) => Ev::Int(*v),
            Value::Bool(b) => Ev::Bool(*b),
            Value::Set(s) => Ev::Set(s.clone()),
            Value::Array(a) => Ev::Array(a.index.clone(), a.elems.iter().map(Verifier::param_value).collect()),
        }
    }

    fn var_value(&self, base: Base, v: i64) -> Ev {
        if base == Base::Bool { Ev::Bool(v != 0) } else { Ev::Int(v) }
    }

    fn eval<'a>(&self, e: &'a Expr, env: &mut Env<'a>) -> Eval<Ev> {
        match &e.kind {
            ExprKind::Int(v) => Ok(Ev::Int(*v)),
            ExprKind::Bool(b) => Ok(Ev::Bool(*b)),
            ExprKind::Assert { condition, value, .. } => {
                if !self.truth(condition, env)? {
                    return Err(bug("an assertion that does not hold"));
                }
                match value {
                    Some(value) => self.eval(value, env),
                    None => Ok(Ev::Bool(true)),
                }
            }
            ExprKind::Name(name) => self.eval_name(name, env),
            ExprKind::Index { array, indices } => self.eval_index(array, indices, env),
            ExprKind::AllIndices => Err(bug("`..` outside a slice")),
            ExprKind::Unary { op: UnOp::Neg, operand } => {
                Ok(self.int(operand, env)?.map_or(Ev::Undef, |v| Ev::Int(-v)))
            }
            ExprKind::Unary { op: UnOp::Not, operand } => Ok(Ev::Bool(!self.truth(operand, env)?)),
            ExprKind::Binary { op, left, right } => self.binary(*op, left, right, env),
            ExprKind::If { branches, otherwise } => {
                for (condition, value) in branches {
                    if self.truth(condition, env)? {
                        return self.eval(value, env);
                    }
                }
                self.eval(otherwise, env)
            }
            ExprKind::Call { name, args, .. } => self.eval_call(name, args, env),
            ExprKind::GenCall { name, generators, body, .. } => self.eval_gen_call(name, generators, body, env),
            ExprKind::Array(items) => {
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    values.push(self.eval(item, env)?);
                }
                Ok(Ev::Array(vec![(1, values.len() as i64)], as_ints_beside_ints(values)))
            }
            ExprKind::Array2d(rows) => {
                let mut values = Vec::new();
                for item in rows.iter().flatten() {
                    values.push(self.eval(item, env)?);
                }
                let values = as_ints_beside_ints(values);
                let cols = rows.first().map_or(0, Vec::len) as i64;
                Ok(Ev::Array(vec![(1, rows.len() as i64), (1, cols)], values))
            }
            ExprKind::Comprehension { body, generators } => {
                let mut items = Vec::new();
                self.each(generators, 0, env, &mut |this, env| {
                    items.push(this.eval(body, env)?);
                    Ok(())
                })?;
                Ok(Ev::Array(vec![(1, items.len() as i64)], items))
            }
            ExprKind::Set(items) => {
                let mut values = Vec::new();
                for item in items {
                    values.push(self.int(item, env)?.ok_or_else(|| bug("an undefined set element"))?);
                }
                Ok(Ev::Set(IntSet::from_values(values)))
            }
            ExprKind::Let { items, body } => {
                let kept = env.locals.len();
                let value = self.let_in(items, body, env);
                env.locals.truncate(kept);
                value
            }
        }
    }

    /// A call over generators: a user function's over the array of the body's
    /// values, or a built-in's, which stops at the first instance that settles
    /// it where it can.
    fn eval_gen_call<'a>(
        &self,
        name: &str,
        generators: &'a [Generator],
        body: &'a Expr,
        env: &mut Env<'a>,
    ) -> Eval<Ev> {
        if let Some(function) = self.function(name) {
            let mut items = Vec::new();
            self.each(generators, 0, env, &mut |this, env| {
                items.push(this.eval(body, env)?);
                Ok(())
            })?;
            return self.user_call(function, vec![Ev::Array(vec![(1, items.len() as i64)], items)], env);
        }
        let builtin = builtin(name)?;
        if let Some(deciding) = builtin.settled_by {
            // Stop at the first instance that settles it.
            let mut settled = false;
            self.each(generators, 0, env, &mut |this, env| {
                if !settled && this.truth(body, env)? == deciding {
                    settled = true;
                }
                Ok(())
            })?;
            return Ok(Ev::Bool(settled == deciding));
        }
        let mut items = Vec::new();
        self.each(generators, 0, env, &mut |this, env| {
            items.push(this.eval(body, env)?);
            Ok(())
        })?;
        let args = [Ev::Array(vec![(1, items.len() as i64)], items)];
        (builtin.verify)(&EvaluatedCall { args: &args, witness: None })
    }

    /// A call of a user function or a built-in; a grid global takes the next
    /// route of the answer as its witness.
    fn eval_call<'a>(&self, name: &str, args: &'a [Expr], env: &mut Env<'a>) -> Eval<Ev> {
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            values.push(self.eval(arg, env)?);
        }
        if let Some(function) = self.function(name) {
            return self.user_call(function, values, env);
        }
        let builtin = builtin(name)?;
        let witness = if builtin.grid_global {
            let route = env.routes.get(env.next_grid).and_then(Option::as_deref);
            env.next_grid += 1;
            route
        } else {
            None
        };
        (builtin.verify)(&EvaluatedCall { args: &values, witness })
    }

    /// An element or a slice of an array; undefined out of range (false for
    /// a Boolean element).
    fn eval_index<'a>(&self, array: &'a Expr, indices: &'a [Expr], env: &mut Env<'a>) -> Eval<Ev> {
        // Most accesses have a few integer indices: they are kept on the
        // stack, since this runs for every access of every solution checked.
        const FEW: usize = 4;
        let mut given: [Option<Ev>; FEW] = [const { None }; FEW];
        let (mut many, n) = (Vec::new(), indices.len());
        for (k, i) in indices.iter().enumerate() {
            let value = match i.kind {
                ExprKind::AllIndices => None,
                _ => Some(self.eval(i, env)?),
            };
            if n <= FEW {
                given[k] = value;
            } else {
                many.push(value);
            }
        }
        let given: &[Option<Ev>] = if n <= FEW { &given[..n] } else { &many };
        if given.iter().any(|g| matches!(g, None | Some(Ev::Set(_)))) {
            let array = self.eval(array, env)?;
            return slice_of(array, given);
        }
        let mut at = [0i64; FEW];
        let mut at_many = Vec::new();
        let mut undefined = false;
        for (k, g) in given.iter().enumerate() {
            let v = match g {
                Some(Ev::Int(v)) => *v,
                Some(Ev::Bool(b)) => i64::from(*b),
                Some(Ev::Undef) => {
                    undefined = true;
                    0
                }
                _ => return Err(bug("a non-integer index")),
            };
            if n <= FEW {
                at[k] = v;
            } else {
                at_many.push(v);
            }
        }
        let at: &[i64] = if n <= FEW { &at[..n] } else { &at_many };
        if !undefined && let Some(value) = self.declared_element(array, at, env) {
            return Ok(value);
        }
        let array = self.eval(array, env)?;
        let Ev::Array(index, elems) = array else { return Err(bug("indexing a non-array")) };
        let bool_array = elems.first().is_some_and(|v| matches!(v, Ev::Bool(_)));
        match (undefined, flat_position(&index, at)) {
            (false, Some(p)) => Ok(elems[p].clone()),
            // Out of range: undefined, which a Boolean access turns into false.
            _ if bool_array => Ok(Ev::Bool(false)),
            _ => Ok(Ev::Undef),
        }
    }

    /// A name's value: a local's, an enum's, a parameter's or a variable's.
    fn eval_name(&self, name: &str, env: &mut Env<'_>) -> Eval<Ev> {
        if let Some((_, v)) = env.locals.iter().rev().find(|(n, _)| *n == name) {
            return Ok(v.clone());
        }
        match self.names.get(name) {
            Some(Named::EnumType(k)) => Ok(Ev::Set(IntSet::range(1, self.model.enums[*k].values.len() as i64))),
            Some(Named::EnumValue(_, v)) => Ok(Ev::Int(*v)),
            Some(Named::Param(p)) => Ok(Verifier::param_value(&self.model.params[*p].value)),
            Some(Named::Var(v)) => {
                let decl = &self.model.vars[*v];
                let values: Vec<Ev> =
                    (0..decl.len).map(|k| self.var_value(decl.base, env.values[decl.first + k])).collect();
                if decl.index.is_empty() {
                    Ok(values.into_iter().next().unwrap_or(Ev::Undef))
                } else {
                    Ok(Ev::Array(decl.index.clone(), values))
                }
            }
            None => Err(bug(&format!("the unknown name `{name}`"))),
        }
    }

    /// The user-defined predicate or function called `name`.
    fn function(&self, name: &str) -> Option<&'m Function> {
        self.model.functions.iter().find(|f| f.name == name)
    }

    /// A user-defined call: the body evaluated with the parameters bound to
    /// the argument values, and nothing of the caller's loop variables.
    fn user_call(&self, function: &'m Function, args: Vec<Ev>, env: &mut Env<'_>) -> Eval<Ev> {
        let mut locals = Vec::with_capacity(args.len());
        for (value, (param, ty)) in args.into_iter().zip(&function.params) {
            let value = if ty.base == Base::Int { bools_as_ints(value) } else { value };
            locals.push((param.as_str(), value));
        }
        let mut inner = Env { values: env.values, locals, routes: env.routes, next_grid: env.next_grid };
        let value = self.eval(&function.body, &mut inner)?;
        env.next_grid = inner.next_grid;
        Ok(if function.result.base == Base::Int { bools_as_ints(value) } else { value })
    }

    /// A `let` from its first item on: a failed local constraint, or a
    /// definition that is undefined or outside its domain, leaves the value
    /// undefined (false for a Boolean); a local variable without a
    /// definition holds when some value of its domain makes the rest hold.
    fn let_in<'a>(&self, items: &'a [LetItem], body: &'a Expr, env: &mut Env<'a>) -> Eval<Ev> {
        let Some((first, rest)) = items.split_first() else { return self.eval(body, env) };
        let d = match first {
            LetItem::Constraint(c) => {
                let holds = self.truth(c, env)?;
                let value = self.let_in(rest, body, env)?;
                return if holds { Ok(value) } else { undefined_like(value) };
            }
            LetItem::Decl(d) => d,
        };
        let domain = match &d.ty {
            LetType::Set(e) => match self.eval(e, env)? {
                Ev::Set(set) => Some(set),
                _ => return Err(bug("a local's domain that is not a set")),
            },
            LetType::Int | LetType::Bool => None,
        };
        let boolean = d.ty == LetType::Bool;
        let Some(value) = &d.value else {
            let values: Vec<Ev> = match &domain {
                Some(set) => set.values().map(Ev::Int).collect(),
                None => vec![Ev::Bool(false), Ev::Bool(true)],
            };
            for value in values {
                env.locals.push((d.name.as_str(), value));
                let holds = self.truth_of_rest(rest, body, env);
                env.locals.pop();
                if holds? {
                    return Ok(Ev::Bool(true));
                }
            }
            return Ok(Ev::Bool(false));
        };
        let value = match self.eval(value, env)? {
            Ev::Bool(b) if !boolean => Ev::Int(i64::from(b)),
            other => other,
        };
        let defined = match (&value, &domain) {
            (Ev::Undef, _) => false,
            (Ev::Int(v), Some(set)) => set.contains(*v),
            _ => true,
        };
        env.locals.push((d.name.as_str(), value));
        let result = self.let_in(rest, body, env);
        env.locals.pop();
        if defined { result } else { undefined_like(result?) }
    }

    fn truth_of_rest<'a>(&self, rest: &'a [LetItem], body: &'a Expr, env: &mut Env<'a>) -> Eval<bool> {
        match self.let_in(rest, body, env)? {
            Ev::Bool(b) => Ok(b),
            _ => Err(bug("a local variable without a definition in a `let` that is not Boolean")),
        }
    }

    /// `a[i, ..]` for a declared variable or parameter array `a` (not
    /// shadowed by a loop variable) at defined, in-range indices, read
    /// without copying the array; `None` when the general path must decide.
    fn declared_element(&self, array: &Expr, at: &[i64], env: &Env<'_>) -> Option<Ev> {
        let ExprKind::Name(name) = &array.kind else { return None };
        if env.locals.iter().any(|(n, _)| n == name) {
            return None;
        }
        match self.names.get(name.as_str()) {
            Some(Named::Var(v)) => {
                let decl = &self.model.vars[*v];
                flat_position(&decl.index, at).map(|p| self.var_value(decl.base, env.values[decl.first + p]))
            }
            Some(Named::Param(p)) => match &self.model.params[*p].value {
                Value::Array(a) => flat_position(&a.index, at).map(|p| Verifier::param_value(&a.elems[p])),
                _ => None,
            },
            _ => None,
        }
    }

    /// Visits each binding of the generators whose `where` holds.
    fn each<'a>(
        &self,
        generators: &'a [Generator],
        at: usize,
        env: &mut Env<'a>,
        visit: &mut dyn FnMut(&Self, &mut Env<'a>) -> Eval<()>,
    ) -> Eval<()> {
        let Some(generator) = generators.get(at) else { return visit(self, env) };
        self.bind(generator, 0, env, &mut |this, env| {
            if let Some(filter) = &generator.filter
                && !this.truth(filter, env)?
            {
                return Ok(());
            }
            this.each(generators, at + 1, env, visit)
        })
    }

    fn bind<'a>(
        &self,
        generator: &'a Generator,
        name: usize,
        env: &mut Env<'a>,
        visit: &mut dyn FnMut(&Self, &mut Env<'a>) -> Eval<()>,
    ) -> Eval<()> {
        let Some((var, _)) = generator.names.get(name) else { return visit(self, env) };
        let source = self.eval(&generator.source, env)?;
        for item in self.items(source)? {
            env.locals.push((var.as_str(), item));
            let result = self.bind(generator, name + 1, env, visit);
            env.locals.pop();
            result?;
        }
        Ok(())
    }

    fn binary<'a>(&self, op: BinOp, left: &'a Expr, right: &'a Expr, env: &mut Env<'a>) -> Eval<Ev> {
        let arithmetic = |a: i64, b: i64| checked_arithmetic(op, a, b);
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => {
                let (a, b) = (self.int(left, env)?, self.int(right, env)?);
                Ok(match (a, b) {
                    (Some(a), Some(b)) => arithmetic(a, b).map_or(Ev::Undef, Ev::Int),
                    _ => Ev::Undef,
                })
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let a = self.eval(left, env)?;
                let b = self.eval(right, env)?;
                compared(op, a, b).map(Ev::Bool)
            }
            BinOp::And => Ok(Ev::Bool(self.truth(left, env)? && self.truth(right, env)?)),
            BinOp::Or => Ok(Ev::Bool(self.truth(left, env)? || self.truth(right, env)?)),
            // A guarded grid global is evaluated whatever the guard, so that
            // the globals meet their witnesses in the unroller's order.
            BinOp::Implies if crate::lang::check::grid_call(right) => {
                let guard = self.truth(left, env)?;
                let holds = self.truth(right, env)?;
                Ok(Ev::Bool(!guard || holds))
            }
            BinOp::Implies => Ok(Ev::Bool(!self.truth(left, env)? || self.truth(right, env)?)),
            BinOp::ImpliedBy => Ok(Ev::Bool(self.truth(left, env)? || !self.truth(right, env)?)),
            BinOp::Iff => Ok(Ev::Bool(self.truth(left, env)? == self.truth(right, env)?)),
            BinOp::Xor => Ok(Ev::Bool(self.truth(left, env)? != self.truth(right, env)?)),
            BinOp::In => {
                let a = self.int(left, env)?;
                let Ev::Set(set) = self.eval(right, env)? else { return Err(bug("`in` without a set")) };
                Ok(Ev::Bool(a.is_some_and(|v| set.contains(v))))
            }
            BinOp::Union | BinOp::Intersect | BinOp::Diff | BinOp::Symdiff => {
                let (Ev::Set(a), Ev::Set(b)) = (self.eval(left, env)?, self.eval(right, env)?) else {
                    return Err(bug("a set operation on a non-set"));
                };
                Ok(Ev::Set(set_operation(op, &a, &b)))
            }
            BinOp::Range => {
                let (a, b) = (self.int(left, env)?, self.int(right, env)?);
                match (a, b) {
                    (Some(a), Some(b)) => Ok(Ev::Set(IntSet::range(a, b))),
                    _ => Err(bug("a range with an undefined bound")),
                }
            }
        }
    }
}

/// The slice of `array` that `given` picks: `None` (`..`) or a set keeps
/// a dimension, over the set's values; an integer fixes one. Found by
/// filtering the elements, apart from how the encoding builds a slice.
fn slice_of(array: Ev, given: &[Option<Ev>]) -> Eval<Ev> {
    let Ev::Array(index, elems) = array else { return Err(bug("slicing a non-array")) };
    let (kept, out) = slice_parts(index, elems, given)?;
    Ok(Ev::Array(kept, out))
}

/// An array's index sets and its elements.
type Sliced<T> = (Vec<(i64, i64)>, Vec<T>);

/// The index sets and elements of the slice of an array (`index`,
/// `elems`) that `given` picks, as [`slice_of`] takes them.
fn slice_parts<T>(index: Vec<(i64, i64)>, elems: Vec<T>, given: &[Option<Ev>]) -> Eval<Sliced<T>> {
    let mut kept = Vec::new();
    for (d, g) in given.iter().enumerate() {
        match g {
            None => kept.push(index[d]),
            Some(Ev::Set(set)) => kept.push(match (set.min(), set.max()) {
                (Some(lo), Some(hi)) => (lo, hi),
                _ => (1, 0),
            }),
            Some(Ev::Int(_)) => {}
            Some(_) => return Err(bug("an undefined index in a slice")),
        }
    }
    let wanted = |d: usize, v: i64| match &given[d] {
        None => true,
        Some(Ev::Set(set)) => set.contains(v),
        Some(Ev::Int(i)) => *i == v,
        Some(_) => false,
    };
    let mut out = Vec::new();
    for (p, elem) in elems.into_iter().enumerate() {
        // The index tuple of position p, last dimension fastest.
        let mut rest = p;
        let mut keep = true;
        for d in (0..index.len()).rev() {
            let (lo, hi) = index[d];
            let width = (hi - lo + 1).max(1) as usize;
            keep &= wanted(d, lo + (rest % width) as i64);
            rest /= width;
        }
        if keep {
            out.push(elem);
        }
    }
    let cells: i64 = kept.iter().map(|&(lo, hi)| (hi - lo + 1).max(0)).product();
    if cells != out.len() as i64 {
        return Err(bug("a slice outside its array"));
    }
    Ok((kept, out))
}

/// A fixed set operation, by testing each stretch between the sets'
/// bounds for membership rather than merging intervals as the encoding
/// does.
fn set_operation(op: BinOp, a: &IntSet, b: &IntSet) -> IntSet {
    let mut cuts: Vec<i64> = a.intervals().iter().chain(b.intervals()).flat_map(|&(lo, hi)| [lo, hi]).collect();
    cuts.sort_unstable();
    cuts.dedup();
    let keep = |v: i64| {
        let (x, y) = (a.contains(v), b.contains(v));
        match op {
            BinOp::Union => x || y,
            BinOp::Intersect => x && y,
            BinOp::Diff => x && !y,
            _ => x != y,
        }
    };
    let mut values = Vec::new();
    for (k, &cut) in cuts.iter().enumerate() {
        if keep(cut) {
            values.push((cut, cut));
        }
        // Every value strictly between two cuts is alike.
        if let Some(&next) = cuts.get(k + 1)
            && next > cut + 1
            && keep(cut + 1)
        {
            values.push((cut + 1, next - 1));
        }
    }
    IntSet::from_intervals(values)
}

/// A value passed for an integer parameter: Booleans as 0 and 1, in an
/// array element by element, so that an access out of range is undefined
/// rather than false.
fn bools_as_ints(value: Ev) -> Ev {
    match value {
        Ev::Bool(b) => Ev::Int(i64::from(b)),
        Ev::Array(index, elems) => Ev::Array(index, elems.into_iter().map(bools_as_ints).collect()),
        other => other,
    }
}

/// What a `let` is when its constraints fail: false, or an integer with no value.
fn undefined_like(value: Ev) -> Eval<Ev> {
    match value {
        Ev::Bool(_) => Ok(Ev::Bool(false)),
        Ev::Int(_) | Ev::Undef => Ok(Ev::Undef),
        _ => Err(bug("a `let` of an array or set under constraints that fail")),
    }
}

/// Array elements with Booleans as 0 and 1 when integers stand beside
/// them: the literal is an array of integers then, whose access out of
/// range is undefined rather than false.
fn as_ints_beside_ints(values: Vec<Ev>) -> Vec<Ev> {
    let ints = values.iter().any(|v| matches!(v, Ev::Int(_) | Ev::Undef));
    if !ints {
        return values;
    }
    values.into_iter().map(|v| if let Ev::Bool(b) = v { Ev::Int(i64::from(b)) } else { v }).collect()
}

/// A call's evaluated arguments, as a built-in's verify hook sees them.
pub(crate) struct EvaluatedCall<'a> {
    /// The arguments' values.
    pub args: &'a [Ev],
    /// For a grid global, the route the answer gives as its witness.
    pub witness: Option<&'a [(i64, i64)]>,
}

impl EvaluatedCall<'_> {
    /// The elements of argument `i`, an array.
    pub fn elems(&self, i: usize) -> Eval<&[Ev]> {
        match &self.args[i] {
            Ev::Array(_, elems) => Ok(elems),
            _ => Err(bug("a non-array argument")),
        }
    }

    /// The elements of argument `i`, an array of integers, `None` where
    /// undefined.
    pub fn ints(&self, i: usize) -> Eval<Vec<Option<i64>>> {
        self.elems(i)?
            .iter()
            .map(|e| match e {
                Ev::Int(x) => Ok(Some(*x)),
                Ev::Bool(b) => Ok(Some(i64::from(*b))),
                Ev::Undef => Ok(None),
                _ => Err(bug("a non-integer element")),
            })
            .collect()
    }

    /// Argument `i`, an integer, `None` when undefined.
    pub fn int(&self, i: usize) -> Eval<Option<i64>> {
        match &self.args[i] {
            Ev::Int(x) => Ok(Some(*x)),
            Ev::Bool(b) => Ok(Some(i64::from(*b))),
            Ev::Undef => Ok(None),
            _ => Err(bug("a non-integer argument")),
        }
    }
}

/// `a op b` on two values: scalars, where an undefined side makes it
/// false; or for `=` and `!=` two arrays over the same index sets, equal
/// when every pair of elements is.
fn compared(op: BinOp, a: Ev, b: Ev) -> Result<bool, String> {
    let (a, b) = match (a, b) {
        (Ev::Int(a), Ev::Int(b)) => (a, b),
        (Ev::Bool(a), Ev::Bool(b)) => (i64::from(a), i64::from(b)),
        (Ev::Bool(a), Ev::Int(b)) => (i64::from(a), b),
        (Ev::Int(a), Ev::Bool(b)) => (a, i64::from(b)),
        (Ev::Undef, _) | (_, Ev::Undef) => return Ok(false),
        (Ev::Array(ia, ea), Ev::Array(ib, eb)) if matches!(op, BinOp::Eq | BinOp::Ne) => {
            if ia != ib || ea.len() != eb.len() {
                return Err(bug("arrays over different index sets compared"));
            }
            // An undefined element makes the comparison false, `!=`
            // included, as it does a scalar `!=`.
            if ea.iter().chain(&eb).any(|e| matches!(e, Ev::Undef)) {
                return Ok(false);
            }
            let mut equal = true;
            for (p, q) in ea.into_iter().zip(eb) {
                equal &= compared(BinOp::Eq, p, q)?;
            }
            return Ok(equal == (op == BinOp::Eq));
        }
        _ => return Err(bug("a comparison of mixed values")),
    };
    Ok(match op {
        BinOp::Eq => a == b,
        BinOp::Ne => a != b,
        BinOp::Lt => a < b,
        BinOp::Le => a <= b,
        BinOp::Gt => a > b,
        _ => a >= b,
    })
}

/// `a op b` for `+ - * div mod` (truncating division, as MiniZinc's), or
/// `None` when it overflows or divides by zero: the undefined value. The
/// tree walk and the compiled form both judge arithmetic by it.
pub(super) fn checked_arithmetic(op: BinOp, a: i64, b: i64) -> Option<i64> {
    match op {
        BinOp::Add => a.checked_add(b),
        BinOp::Sub => a.checked_sub(b),
        BinOp::Mul => a.checked_mul(b),
        BinOp::Div => a.checked_div(b),
        BinOp::Mod => a.checked_rem(b),
        _ => None,
    }
}

//! User-defined predicates and functions, the `[[predicate]]` items: their
//! declared types resolved, recursion refused, and each body checked once
//! against its parameters' types, callees before their callers. Calls are
//! typed by the checker and unrolled afresh by the lowering at each call;
//! the verifier evaluates the same body on values.

use super::builtins;
use super::check::{Checker, Fault, Scope, misplaced_free_local, what};
use super::model::{Base, EnumDecl, Function, Shape, Type};
use super::syntax::{Definition, Expr, ExprKind, LetItem, Span, TypeExpr, children};

/// The user-defined predicate or function that a constraint calls at its
/// top, under any top-level `forall`s: it names the constraint.
pub fn called<'e>(expr: &'e Expr, functions: &[Function]) -> Option<&'e str> {
    match &expr.kind {
        ExprKind::GenCall { name, body, .. } if name == "forall" => called(body, functions),
        ExprKind::Call { name, .. } | ExprKind::GenCall { name, .. } => {
            functions.iter().any(|f| &f.name == name).then_some(name.as_str())
        }
        _ => None,
    }
}

/// A declared type as the checker's [`Type`].
pub fn resolve_type(t: &TypeExpr, enums: &[EnumDecl]) -> Result<Type, Fault> {
    let base_of = |name: &str| -> Option<Base> {
        match name {
            "int" => Some(Base::Int),
            "bool" => Some(Base::Bool),
            _ => enums.iter().position(|e| e.name == name).map(Base::Enum),
        }
    };
    let unknown = |name: &str| {
        let known = ["int", "bool"].into_iter().chain(enums.iter().map(|e| e.name.as_str()));
        let hint = super::check::nearest(name, known).map(|n| format!(" (did you mean {n}?)")).unwrap_or_default();
        Fault::new(t.span, format!("the unknown type `{name}`"), format!("`int`, `bool` or an enum's name{hint}"))
    };
    let base = base_of(&t.base).ok_or_else(|| unknown(&t.base))?;
    let mut index = Vec::with_capacity(t.index.len());
    for name in &t.index {
        match base_of(name) {
            Some(Base::Bool) | None => {
                return Err(Fault::new(
                    t.span,
                    format!("the index type `{name}`"),
                    "`int` or an enum's name as an array's index type",
                ));
            }
            Some(b) => index.push(b),
        }
    }
    if t.set && (t.var || !index.is_empty() || base == Base::Bool) {
        return Err(Fault::new(
            t.span,
            "a set of decision variables, of Booleans, or an array of sets",
            "`set of int` or `set of` an enum: a fixed set of integers",
        ));
    }
    let shape = if t.set {
        Shape::Set
    } else if index.is_empty() {
        Shape::Scalar
    } else {
        Shape::Array(index)
    };
    Ok(Type { base, shape, var: t.var })
}

/// The user-defined calls in a body, with their places.
fn calls<'e>(body: &'e Expr, names: &[&str]) -> Vec<(&'e str, Span)> {
    let mut found = Vec::new();
    let mut stack = vec![body];
    while let Some(e) = stack.pop() {
        if let ExprKind::Call { name, name_span, .. } | ExprKind::GenCall { name, name_span, .. } = &e.kind
            && names.contains(&name.as_str())
        {
            found.push((name.as_str(), *name_span));
        }
        stack.extend(children(e));
    }
    found.sort_by_key(|(_, span)| span.start);
    found
}

/// The definitions in an order where each comes after those it calls; a
/// call that leads back to its own definition is refused at the call.
pub fn order(defs: &[Definition]) -> Result<Vec<usize>, Fault> {
    let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
    let edges: Vec<Vec<(usize, Span)>> = defs
        .iter()
        .map(|d| {
            calls(&d.body, &names)
                .into_iter()
                .filter_map(|(n, span)| names.iter().position(|&m| m == n).map(|k| (k, span)))
                .collect()
        })
        .collect();
    dependency_order(&edges).map_err(|cycle| {
        let chain: Vec<String> = cycle.path.iter().map(|&n| format!("`{}`", names[n])).collect();
        Fault::new(
            cycle.span,
            format!("a recursive call of `{}` ({})", names[cycle.path[0]], chain.join(" calls ")),
            "a predicate or function that does not call itself, directly or through others: every call \
             is unrolled, so recursion is not supported; write the repetition with a generator",
        )
    })
}

/// A chain of items that leads back to its first, and the place of the
/// use that closes it.
pub struct Cycle {
    /// The items along the chain, the first one again at the end.
    pub path: Vec<usize>,
    /// Where the last item uses the first.
    pub span: Span,
}

/// An order of items where each comes after those it uses (`uses[i]`: the
/// items that item `i` uses, with where), found depth first from the
/// first item so that independent items keep their order.
pub fn dependency_order(uses: &[Vec<(usize, Span)>]) -> Result<Vec<usize>, Cycle> {
    // 0: not met, 1: on the path being walked, 2: done.
    let mut state = vec![0u8; uses.len()];
    let mut order = Vec::with_capacity(uses.len());
    for root in 0..uses.len() {
        if state[root] != 0 {
            continue;
        }
        let mut path: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(&mut (node, ref mut next)) = path.last_mut() {
            let Some(&(used, span)) = uses[node].get(*next) else {
                state[node] = 2;
                order.push(node);
                path.pop();
                continue;
            };
            *next += 1;
            match state[used] {
                0 => {
                    state[used] = 1;
                    path.push((used, 0));
                }
                1 => {
                    let from = path.iter().position(|&(n, _)| n == used).unwrap_or(0);
                    let path = path[from..].iter().map(|&(n, _)| n).chain(std::iter::once(used)).collect();
                    return Err(Cycle { path, span });
                }
                _ => {}
            }
        }
    }
    Ok(order)
}

/// Checks a definition's parameters and body against its declared types.
pub fn check(def: &Definition, scope: &Scope<'_>) -> Result<Function, Fault> {
    let mut params: Vec<(String, Type)> = Vec::with_capacity(def.params.len());
    for (ty, name, span) in &def.params {
        if params.iter().any(|(p, _)| p == name) {
            return Err(Fault::new(
                *span,
                format!("the parameter `{name}` twice in `{}`", def.name),
                "a different name for each parameter",
            ));
        }
        params.push((name.clone(), resolve_type(ty, scope.enums)?));
    }
    let result = resolve_type(&def.result, scope.enums)?;
    if let Some(fault) = grid_global_in(&def.body, &def.name) {
        return Err(fault);
    }
    if let Some(fault) = misplaced_free_local(&def.body, None, scope.functions) {
        return Err(fault);
    }
    let free_locals = has_free_local(&def.body, scope.functions);
    let body = Checker::with_params(scope, params.clone()).check(&def.body)?;
    let shape_fits = match (&body.shape, &result.shape) {
        (Shape::Array(b), Shape::Array(r)) => b.len() == r.len() && b.iter().zip(r).all(|(b, r)| b.fits(*r)),
        (b, r) => b == r,
    };
    let base_fits = body.base.fits(result.base) || (result.base == Base::Int && body.base == Base::Bool);
    if !shape_fits || !base_fits {
        let kind = if def.predicate { "predicate" } else { "function" };
        return Err(Fault::new(
            def.body.span,
            format!("{} of type {}", what(&def.body), body.describe(scope.enums)),
            format!("a body of type {}, as the {kind} `{}` declares", result.describe(scope.enums), def.name),
        ));
    }
    if body.var && !result.var {
        return Err(Fault::new(
            def.body.span,
            format!("{} that depends on decision variables", what(&def.body)),
            format!("a fixed value, or `var` in the declared result of `{}`", def.name),
        ));
    }
    // With every parameter fixed, does the body still read variables?
    let fixed: Vec<(String, Type)> =
        params.iter().map(|(n, t)| (n.clone(), Type { var: false, ..t.clone() })).collect();
    let reads_vars = match Checker::with_params(scope, fixed).check(&def.body) {
        Ok(t) => t.var,
        Err(_) => true,
    };
    Ok(Function { name: def.name.clone(), params, result, reads_vars, free_locals, body: def.body.clone() })
}

/// Whether a body has a local variable without a definition, itself or in
/// a function it calls.
fn has_free_local(body: &Expr, functions: &[Function]) -> bool {
    let mut stack = vec![body];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Let { items, .. }
                if items.iter().any(|i| matches!(i, LetItem::Decl(d) if d.var && d.value.is_none())) =>
            {
                return true;
            }
            ExprKind::Call { name, .. } | ExprKind::GenCall { name, .. }
                if functions.iter().any(|f| &f.name == name && f.free_locals) =>
            {
                return true;
            }
            _ => stack.extend(children(e)),
        }
    }
    false
}

/// A grid global in a body: they stand as constraints of their own, which
/// a call might negate, so bodies may not use them.
fn grid_global_in(body: &Expr, name: &str) -> Option<Fault> {
    let mut stack = vec![body];
    while let Some(e) = stack.pop() {
        if let ExprKind::Call { name: global, .. } = &e.kind
            && builtins::lookup(global).is_some_and(|b| b.grid_global)
        {
            return Some(Fault::new(
                e.span,
                format!("`{global}` in the body of `{name}`"),
                "the grid globals as constraints of their own, in `[[constraint]]`, not inside a predicate",
            ));
        }
        stack.extend(children(e));
    }
    None
}

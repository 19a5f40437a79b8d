//! The graph globals, over a graph given as data: two fixed 1-D arrays
//! `from` and `to` of equal length, whose elements at the same position
//! are the two ends of one undirected edge.
//!
//! - `graph_connected(on, from, to)`: `on` has one Boolean per node (the
//!   ends are indices of `on`), and the nodes that are on form one
//!   connected piece over the edges (none at all is connected);
//! - `graph_acyclic(used, from, to)`: `used` has one Boolean per edge (the
//!   ends are any integers), and the edges that are used contain no cycle
//!   (a self-loop, or two parallel edges, is one).
//!
//! Like the grid globals, each holds only as a constraint of its own, and
//! the unroller gives each a grid global of the IR, which the compiler
//! encodes and repairs. The verifier judges them by its own walk over the
//! data, never through the graph code the encodings share: a breadth-first
//! search over the nodes that are on, and a union-find over the edges that
//! are used.

use std::collections::{HashMap, VecDeque};

use super::{Builtin, Drawing};
use crate::lang::check::{Fault, TypedCall, what};
use crate::lang::ir::{BExpr, GridGlobal, GridKind};
use crate::lang::lower::{LArray, LVal, LoweredCall, Lowerer, internal};
use crate::lang::model::{Base, Type};
use crate::lang::verify::{Ev, Eval, EvaluatedCall, bug};

pub(super) const GRAPH_CONNECTED: Builtin = Builtin {
    name: "graph_connected",
    forms: "graph_connected(on, from, to): on[k] says whether node k is on; from and to are fixed 1-D arrays of \
            equal length, edge e joining nodes from[e] and to[e] (indices of on). The nodes that are on are \
            connected over the edges",
    arities: &[3],
    scope: &[0],
    drawing: Drawing::GraphNodes,
    grid_global: true,
    conditional: None,
    settled_by: None,
    check: check_connected,
    lower: lower_connected,
    verify: verify_connected,
};

pub(super) const GRAPH_ACYCLIC: Builtin = Builtin {
    name: "graph_acyclic",
    forms: "graph_acyclic(used, from, to): used[e] says whether edge e is used; from and to are fixed 1-D arrays \
            with as many elements as used, edge e joining nodes from[e] and to[e] (any integers). The used edges \
            contain no cycle: they form a forest",
    drawing: Drawing::GraphEdges,
    check: check_acyclic,
    lower: lower_acyclic,
    verify: verify_acyclic,
    ..GRAPH_CONNECTED
};

/// `(on, from, to)`: a 1-D array of Booleans, and fixed 1-D arrays of its
/// index kind.
fn check_connected(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let nodes = "a 1-D array of Booleans (decision variables or fixed), one per node of the graph";
    call.array(0, Some(Base::Bool), Some(1), nodes)?;
    let node = call.index(0)[0];
    let name = call.base_name(node);
    for (i, role) in [(1, "from"), (2, "to")] {
        let ends = format!("a fixed 1-D array `{role}` of {name} values, one end of each edge, each an index of `on`");
        check_ends(call, i, Some(node), &ends)?;
    }
    // A constraint to solve, even over a fixed array.
    Ok(Type::scalar(Base::Bool, true))
}

/// `(used, from, to)`: a 1-D array of Booleans, and fixed 1-D arrays of
/// integers.
fn check_acyclic(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let edges = "a 1-D array of Booleans (decision variables or fixed), one per edge of the graph";
    call.array(0, Some(Base::Bool), Some(1), edges)?;
    for (i, role) in [(1, "from"), (2, "to")] {
        let ends = format!("a fixed 1-D array `{role}` of integers, one end of each edge, as many as `used` has");
        check_ends(call, i, None, &ends)?;
    }
    Ok(Type::scalar(Base::Bool, true))
}

/// Argument `i`: a fixed 1-D array of `base` values (integers or enum
/// values when `None`).
fn check_ends(call: &TypedCall<'_>, i: usize, base: Option<Base>, expected: &str) -> Result<(), Fault> {
    let (_, var, _) = call.array(i, base, Some(1), expected)?;
    if var {
        let e = call.args[i].1;
        return Err(Fault::new(e.span, format!("{} that depends on decision variables", what(e)), expected));
    }
    Ok(())
}

/// The fixed values of a `from` or `to` argument, with its array.
fn ends(call: &LoweredCall, i: usize) -> Result<(&LArray, Vec<i64>), Fault> {
    let (a, at) = (call.array(i, "a 1-D array")?, call.args[i].1);
    let values = a
        .elems
        .iter()
        .map(|v| match v {
            LVal::Int(x, _) => x.as_const().ok_or_else(|| internal(at, "a fixed integer")),
            _ => Err(internal(at, "an integer array")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((a, values))
}

/// The Booleans of argument 0, a 1-D array, and its index range.
fn booleans(call: &LoweredCall) -> Result<((i64, i64), Vec<BExpr>), Fault> {
    let (a, at) = (call.array(0, "a 1-D array")?, call.args[0].1);
    let [range] = a.index[..] else { return Err(internal(at, "a 1-D array")) };
    let elems = a
        .elems
        .iter()
        .map(|v| match v {
            LVal::Bool(b) => Ok(b.clone()),
            _ => Err(internal(at, "a Boolean array")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((range, elems))
}

/// A refusal of `from` or `to` (argument `i` of `global`, of length
/// `found`), whose length must be `wanted`, as `against` says.
fn wrong_length(call: &LoweredCall, global: &str, i: usize, found: usize, wanted: usize, against: &str) -> Fault {
    let role = ["", "from", "to"][i];
    Fault::new(
        call.args[i].1,
        format!("`{role}` (argument {} of `{global}`) with {found} element(s)", i + 1),
        format!("{wanted} element(s), {against}: element e of `from` and of `to` are the two ends of edge e"),
    )
}

/// Connectivity over the nodes of `on`: the ends checked to be its indices.
fn lower_connected(lowerer: &mut Lowerer<'_, '_>, call: &LoweredCall) -> Result<LVal, Fault> {
    let ((lo, hi), on) = booleans(call)?;
    let node_base = call.array(0, "a 1-D array")?.index_bases[0];
    let (from, to) = (ends(call, 1)?, ends(call, 2)?);
    if to.1.len() != from.1.len() {
        let against = format!("as many as `from` has ({})", from.1.len());
        return Err(wrong_length(call, "graph_connected", 2, to.1.len(), from.1.len(), &against));
    }
    for (i, (a, values)) in [(1, &from), (2, &to)] {
        if let Some(k) = values.iter().position(|&v| v < lo || v > hi) {
            let range = if lo > hi {
                "none: `on` is empty".to_string()
            } else {
                format!("{}..{}", lowerer.value_name(node_base, lo), lowerer.value_name(node_base, hi))
            };
            let role = ["", "from", "to"][i];
            let at = lowerer.value_name(a.index_bases[0], a.index[0].0 + k as i64);
            return Err(Fault::new(
                call.args[i].1,
                format!(
                    "`{role}[{at}]` = {}, not a node of `graph_connected`",
                    lowerer.value_name(node_base, values[k])
                ),
                format!("an index of `on` (the first argument): {range}"),
            ));
        }
    }
    let edges = from.1.iter().zip(&to.1).map(|(&u, &v)| ((u - lo) as usize, (v - lo) as usize)).collect();
    Ok(register(lowerer, call, GridKind::GraphConnected { edges }, (lo, hi), on))
}

/// Acyclicity over the edges of `used`: `from` and `to` of its length, the
/// nodes numbered in the order of their first mention.
fn lower_acyclic(lowerer: &mut Lowerer<'_, '_>, call: &LoweredCall) -> Result<LVal, Fault> {
    let (range, used) = booleans(call)?;
    let (from, to) = (ends(call, 1)?.1, ends(call, 2)?.1);
    for (i, values) in [(1, &from), (2, &to)] {
        if values.len() != used.len() {
            let against = "one per edge, as many as `used` (the first argument) has";
            return Err(wrong_length(call, "graph_acyclic", i, values.len(), used.len(), against));
        }
    }
    let mut number: HashMap<i64, usize> = HashMap::new();
    let mut node = |v: i64| {
        let next = number.len();
        *number.entry(v).or_insert(next)
    };
    let edges: Vec<(usize, usize)> = from.iter().zip(&to).map(|(&u, &v)| (node(u), node(v))).collect();
    let kind = GridKind::GraphAcyclic { nodes: number.len(), edges };
    Ok(register(lowerer, call, kind, range, used))
}

/// Registers the graph global with the unroller, its 1-D array as a grid of
/// one column, and stands for it in the constraint.
fn register(
    lowerer: &mut Lowerer<'_, '_>,
    call: &LoweredCall,
    kind: GridKind,
    range: (i64, i64),
    on: Vec<BExpr>,
) -> LVal {
    let global =
        GridGlobal { kind, index: [range, (0, 0)], on, steps: None, sizes: Vec::new(), span: call.span, group: 0 };
    LVal::Bool(BExpr::Grid(lowerer.add_grid(global)))
}

/// An answer's view of a graph global: the first index of its Boolean
/// array, the array's values, and the edges as the ends' values.
type Answer<'a> = (i64, &'a [Ev], Vec<(i64, i64)>);

/// The answer's arrays: the Booleans with their first index, and the
/// integers of `from` and `to`.
fn arrays<'a>(call: &EvaluatedCall<'a>, name: &str) -> Eval<Answer<'a>> {
    let [Ev::Array(index, flags), Ev::Array(_, from), Ev::Array(_, to)] = call.args else {
        return Err(bug(&format!("{name} without its three arrays")));
    };
    let int = |e: &Ev| match e {
        Ev::Int(v) => Ok(*v),
        _ => Err(bug(&format!("an end of an edge of {name} that is not an integer"))),
    };
    if from.len() != to.len() {
        return Err(bug(&format!("{name} with `from` and `to` of different lengths")));
    }
    let edges = from.iter().zip(to).map(|(a, b)| Ok((int(a)?, int(b)?))).collect::<Eval<Vec<_>>>()?;
    let first = index.first().map_or(0, |&(lo, _)| lo);
    Ok((first, flags, edges))
}

/// The nodes that are on are connected: a breadth-first search from the
/// first of them, over the edges between nodes that are on.
fn verify_connected(call: &EvaluatedCall<'_>) -> Eval<Ev> {
    let (lo, on, edges) = arrays(call, "graph_connected")?;
    let is_on = |v: i64| usize::try_from(v - lo).ok().and_then(|k| on.get(k)) == Some(&Ev::Bool(true));
    let mut next: HashMap<i64, Vec<i64>> = HashMap::new();
    for &(u, v) in edges.iter().filter(|&&(u, v)| is_on(u) && is_on(v)) {
        next.entry(u).or_default().push(v);
        next.entry(v).or_default().push(u);
    }
    let lit: Vec<i64> = (0..on.len() as i64).map(|k| lo + k).filter(|&v| is_on(v)).collect();
    let Some(&first) = lit.first() else { return Ok(Ev::Bool(true)) };
    let mut reached = std::collections::HashSet::from([first]);
    let mut queue = VecDeque::from([first]);
    while let Some(node) = queue.pop_front() {
        for &n in next.get(&node).into_iter().flatten() {
            if reached.insert(n) {
                queue.push_back(n);
            }
        }
    }
    Ok(Ev::Bool(reached.len() == lit.len()))
}

/// The used edges hold no cycle: joined one by one in a union-find, none
/// may join two nodes already joined (a self-loop joins a node to itself).
fn verify_acyclic(call: &EvaluatedCall<'_>) -> Eval<Ev> {
    let (_, used, edges) = arrays(call, "graph_acyclic")?;
    if used.len() != edges.len() {
        return Err(bug("graph_acyclic with `used` and the edges of different lengths"));
    }
    let mut parent: HashMap<i64, i64> = HashMap::new();
    fn top(parent: &mut HashMap<i64, i64>, mut v: i64) -> i64 {
        while let Some(&p) = parent.get(&v) {
            v = p;
        }
        v
    }
    for (flag, &(u, v)) in used.iter().zip(&edges) {
        match flag {
            Ev::Bool(false) => continue,
            Ev::Bool(true) => {}
            _ => return Err(bug("a used flag of graph_acyclic that is not Boolean")),
        }
        let (a, b) = (top(&mut parent, u), top(&mut parent, v));
        if a == b {
            return Ok(Ev::Bool(false));
        }
        parent.insert(a, b);
    }
    Ok(Ev::Bool(true))
}

//! `circuit(x)` and `subcircuit(x)`: `x[i]` is the successor of node `i`,
//! the nodes being the array's index set.
//!
//! Both lower to an eager order encoding in the IR, with no variable of
//! their own: `pos[0]` is a start node and `pos[k] = x[pos[k-1]]`, an
//! element expression, so `pos[k]` is the node `k` steps on. The compile
//! layer gives each `pos[k]` an auxiliary integer, which the successors
//! determine, so counts stay exact. With `x` a permutation (all different,
//! in range), the walk from the start returns to it first after the length
//! of the start's cycle; `circuit` asks that no `pos[k]` for `0 < k < n` is
//! the start, and `subcircuit` (starting from the first node not fixed to
//! itself) that no return comes before the number of such nodes. Lazy cuts,
//! as the grid globals use, were the other way: they need a propagator
//! loop that only the grid globals' own engine has, while this stays a
//! formula that every engine, the negation and the exact counter read.
//! The verify hooks follow the successors on the values.
//!
//! As in MiniZinc's library, no node of a `circuit` is its own successor,
//! so `circuit` of one node is false; an empty array, on which MiniZinc
//! stops with an error, is a circuit (and a subcircuit) of no nodes.

use super::Builtin;
use crate::lang::check::{Fault, TypedCall};
use crate::lang::ir::{BExpr, Cmp, IExpr};
use crate::lang::lower::{LVal, LoweredCall};
use crate::lang::model::{Base, IntSet, Type};
use crate::lang::verify::{Ev, Eval, EvaluatedCall, bug};

pub(super) const CIRCUIT: Builtin =
    Builtin::plain("circuit", "circuit(array of int)", check, |_, call| walk(call, false), |call| verify(call, false));

pub(super) const SUBCIRCUIT: Builtin = Builtin {
    name: "subcircuit",
    forms: "subcircuit(array of int)",
    lower: |_, call| walk(call, true),
    verify: |call| verify(call, true),
    ..CIRCUIT
};

fn check(call: &TypedCall<'_>) -> Result<Type, Fault> {
    let (_, var, _) =
        call.array(0, Some(Base::Int), Some(1), "a one-dimensional array of integers, each node's successor")?;
    Ok(Type::scalar(Base::Bool, var))
}

/// `items[index]`, read off when the index is a constant in range.
fn at(index: IExpr, (lo, hi): (i64, i64), items: &[IExpr]) -> IExpr {
    match index.as_const() {
        Some(i) if (lo..=hi).contains(&i) => items[(i - lo) as usize].clone(),
        _ => IExpr::element(vec![index], vec![(lo, hi)], items.to_vec()),
    }
}

fn walk(call: &LoweredCall, sub: bool) -> Result<LVal, Fault> {
    let x = call.ints(0)?;
    let (lo, hi) = call.array(0, "an array")?.index[0];
    let n = x.len() as i64;
    if n == 0 {
        return Ok(LVal::Bool(BExpr::Const(true)));
    }
    let nodes = IntSet::range(lo, hi);
    let mut parts: Vec<BExpr> = x.iter().map(|s| BExpr::member(s.clone(), nodes.clone())).collect();
    parts.push(BExpr::AllDifferent(x.clone()));
    let away: Vec<BExpr> =
        x.iter().zip(lo..).map(|(s, i)| BExpr::cmp(Cmp::Ne, s.clone(), IExpr::constant(i))).collect();
    let start = if sub {
        // The first node not fixed to itself, or the last node when all are.
        let candidates =
            away.iter().zip(lo..).map(|(b, i)| IExpr::ite(vec![(b.clone(), IExpr::constant(i))], IExpr::constant(hi)));
        IExpr::extremum(candidates.collect(), false)
    } else {
        // No node is its own successor, a lone node included, as in MiniZinc.
        parts.extend(away.iter().cloned());
        IExpr::constant(lo)
    };
    let in_cycle = if sub {
        let terms = away.into_iter().map(|b| (1, IExpr::bool2int(b))).collect();
        Some(IExpr::sum(terms, 0).map_err(|_| call.overflow())?)
    } else {
        None
    };
    let mut pos = start.clone();
    let mut walked = vec![pos.clone()];
    for k in 1..n {
        pos = at(pos, (lo, hi), &x);
        let back = BExpr::cmp(Cmp::Eq, pos.clone(), start.clone());
        parts.push(match &in_cycle {
            // Back at the start after k steps only when the cycle has k nodes or fewer.
            Some(m) => BExpr::implies(back, BExpr::cmp(Cmp::Le, m.clone(), IExpr::constant(k))),
            None => BExpr::not(back),
        });
        walked.push(pos.clone());
    }
    if !sub && n > 1 {
        // Implied: the walk meets each node once, which helps propagation.
        parts.push(BExpr::AllDifferent(walked));
    }
    Ok(LVal::Bool(BExpr::and(parts)))
}

/// False when a successor is undefined or out of the index set.
fn verify(call: &EvaluatedCall<'_>, sub: bool) -> Eval<Ev> {
    let Ev::Array(index, _) = &call.args[0] else { return Err(bug("`circuit` without an array")) };
    let lo = index[0].0;
    let Some(next) = call.ints(0)?.into_iter().collect::<Option<Vec<i64>>>() else { return Ok(Ev::Bool(false)) };
    let n = next.len();
    let succ: Option<Vec<usize>> = next.iter().map(|&v| usize::try_from(v - lo).ok().filter(|&k| k < n)).collect();
    let Some(succ) = succ else { return Ok(Ev::Bool(false)) };
    let moving: Vec<usize> = (0..n).filter(|&i| succ[i] != i).collect();
    if !sub && moving.len() < n {
        return Ok(Ev::Bool(false));
    }
    let Some(&first) = moving.first() else { return Ok(Ev::Bool(true)) };
    // Follow the successors from the first moving node: the cycle closes
    // on it after exactly as many steps as there are moving nodes.
    let mut seen = vec![false; n];
    let (mut node, mut steps) = (first, 0);
    while !seen[node] {
        seen[node] = true;
        node = succ[node];
        steps += 1;
    }
    Ok(Ev::Bool(node == first && steps == moving.len()))
}

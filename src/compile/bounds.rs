//! Difference bounds implied by the constraints that hold in every
//! solution: the top-level comparisons `x - y ≤ c` (and `x ≤ c`, `x ≥ c`)
//! over integer scalars with unit coefficients, closed under addition
//! (shortest paths). They narrow the auxiliary variables that stand for a
//! difference before those are encoded: in a Golomb ruler the marks
//! increase, so `mark[j] - mark[i]` is at least `j - i` and never negative,
//! which halves the domain every distance is encoded over.
//!
//! Only sound while every constraint holds; the encoder asks for them only
//! when no group can be switched off.

use std::collections::{HashMap, HashSet};

use crate::lang::Program;
use crate::lang::ir::{BExpr, Cmp, IExpr, IKind};
use crate::lang::model::{Base, Model};

/// The most scalars the closure runs over (it is cubic in them).
const MAX_NODES: usize = 400;

/// "Unbounded" in the distance matrix.
const INF: i64 = i64::MAX / 4;

/// `dist[a][b]`: the least `c` with `node b - node a ≤ c` implied; node 0 is
/// the constant 0.
#[derive(Clone, Debug, Default)]
pub(crate) struct DiffBounds {
    node: HashMap<usize, usize>,
    dist: Vec<Vec<i64>>,
}

/// `Σ c·scalar + k` with unit coefficients over at most two scalars.
fn unit_linear(e: &IExpr, sign: i64, terms: &mut Vec<(i64, usize)>, k: &mut i64) -> bool {
    match &e.kind {
        IKind::Const(v) => {
            *k = k.saturating_add(sign.saturating_mul(*v));
            true
        }
        IKind::Var(s) => {
            terms.push((sign, *s));
            true
        }
        IKind::Sum(items, c) => {
            *k = k.saturating_add(sign.saturating_mul(*c));
            items.iter().all(|(c, t)| c.abs() == 1 && unit_linear(t, sign * c, terms, k))
        }
        _ => false,
    }
}

impl DiffBounds {
    /// The bounds implied by the program's constraints (all taken as
    /// holding) and the integer scalars' domains; empty when the
    /// difference constraints contradict each other (the solver will say
    /// so) or involve too many scalars.
    pub fn of(model: &Model, program: &Program) -> DiffBounds {
        // Edges a → b of weight c: node b - node a ≤ c.
        let mut edges: Vec<(usize, usize, i64)> = Vec::new();
        let mut node: HashMap<usize, usize> = HashMap::new();
        for group in &program.groups {
            collect(&group.expr, &mut |terms: &[(i64, usize)], c: i64| {
                let mut id = |s: usize| {
                    let next = node.len() + 1;
                    *node.entry(s).or_insert(next)
                };
                match *terms {
                    [(1, b)] => edges.push((0, id(b), c)),
                    [(-1, a)] => edges.push((id(a), 0, c)),
                    [(1, b), (-1, a)] | [(-1, a), (1, b)] if a != b => edges.push((id(a), id(b), c)),
                    _ => {}
                }
            });
        }
        if node.is_empty() || node.len() >= MAX_NODES {
            return DiffBounds::default();
        }
        for decl in model.vars.iter().filter(|d| d.base != Base::Bool) {
            for k in 0..decl.len {
                let Some(&n) = node.get(&(decl.first + k)) else { continue };
                let (lo, hi) = match decl.given_at(k) {
                    Some(v) => (v, v),
                    None => (decl.domain.min().unwrap_or(0), decl.domain.max().unwrap_or(0)),
                };
                edges.push((0, n, hi));
                edges.push((n, 0, lo.saturating_neg()));
            }
        }
        let size = node.len() + 1;
        let mut dist = vec![vec![INF; size]; size];
        for (a, row) in dist.iter_mut().enumerate() {
            row[a] = 0;
        }
        for (a, b, c) in edges {
            dist[a][b] = dist[a][b].min(c.clamp(-INF, INF));
        }
        for m in 0..size {
            let through_m = dist[m].clone();
            for row in dist.iter_mut() {
                let am = row[m];
                if am >= INF {
                    continue;
                }
                for (ab, &mb) in row.iter_mut().zip(&through_m) {
                    *ab = (*ab).min((am + mb).clamp(-INF, INF));
                }
            }
        }
        if (0..size).any(|a| dist[a][a] < 0) {
            return DiffBounds::default();
        }
        DiffBounds { node, dist }
    }

    /// The least and greatest values `x - y` takes in any solution, for
    /// scalars x and y, when both are known.
    pub fn difference(&self, x: usize, y: usize) -> Option<(i64, i64)> {
        let (&nx, &ny) = (self.node.get(&x)?, self.node.get(&y)?);
        let (hi, neg_lo) = (self.dist[ny][nx], self.dist[nx][ny]);
        (hi < INF && neg_lo < INF).then(|| (-neg_lo, hi))
    }
}

/// What [`collect`] reports each comparison to.
type Found<'a> = dyn FnMut(&[(i64, usize)], i64) + 'a;

/// Calls `found(terms, c)` for every comparison `Σ terms ≤ c` that a
/// top-level conjunction asserts, with unit coefficients over at most two
/// scalars.
fn collect(e: &BExpr, found: &mut Found<'_>) {
    match e {
        BExpr::And(items) => items.iter().for_each(|item| collect(item, found)),
        BExpr::Cmp(op, a, b) if !a.partial && !b.partial => {
            let (mut terms, mut k) = (Vec::new(), 0i64);
            if !unit_linear(a, 1, &mut terms, &mut k) || !unit_linear(b, -1, &mut terms, &mut k) {
                return;
            }
            let merged = merge_repeated_scalars(terms);
            if merged.len() > 2 || merged.iter().any(|&(c, _)| c.abs() != 1) {
                return;
            }
            // Σ terms + k op 0.
            match op {
                Cmp::Le => found(&merged, k.saturating_neg()),
                Cmp::Lt => found(&merged, k.saturating_neg().saturating_sub(1)),
                Cmp::Eq => {
                    found(&merged, k.saturating_neg());
                    let negated: Vec<(i64, usize)> = merged.iter().map(|&(c, s)| (-c, s)).collect();
                    found(&negated, k);
                }
                Cmp::Ne => {}
            }
        }
        _ => {}
    }
}

/// Sorted by scalar, so that a sum over 100,000 terms merges in
/// O(n log n), not in a search per term.
fn merge_repeated_scalars(mut terms: Vec<(i64, usize)>) -> Vec<(i64, usize)> {
    terms.sort_unstable_by_key(|&(_, s)| s);
    let mut merged: Vec<(i64, usize)> = Vec::new();
    for (c, s) in terms {
        match merged.last_mut() {
            Some(slot) if slot.1 == s => slot.0 = slot.0.saturating_add(c),
            _ => merged.push((c, s)),
        }
    }
    merged.retain(|&(c, _)| c != 0);
    merged
}

/// Above this many values, a scalar whose differences must all differ is
/// encoded in bits under `auto`.
pub const DISTANCE_DOMAIN: u64 = 32;

/// The wide scalars (more than [`DISTANCE_DOMAIN`] values) that appear in
/// the items of a top-level `alldifferent` over expressions, such as the
/// marks of a Golomb ruler in `alldifferent([m[j] - m[i] | ...])`. Every
/// item becomes an auxiliary variable over the values of a difference,
/// defined from its arguments: in bits, a few adders; in the direct
/// encoding, a clause per pair of values, which made `auto` the slowest
/// engine on the ruler.
pub fn distance_scalars(model: &Model, program: &Program) -> HashSet<usize> {
    let mut found = HashSet::new();
    let wide = |s: usize| {
        model.vars.iter().any(|d| (d.first..d.first + d.len).contains(&s) && d.domain.len() > DISTANCE_DOMAIN)
    };
    for group in &program.groups {
        visit_all_different(&group.expr, &mut |items: &[IExpr]| {
            for item in items {
                if let IKind::Sum(terms, _) = &item.kind {
                    for (_, t) in terms {
                        if let IKind::Var(s) = t.kind
                            && wide(s)
                        {
                            found.insert(s);
                        }
                    }
                }
            }
        });
    }
    found
}

fn visit_all_different(e: &BExpr, found: &mut dyn FnMut(&[IExpr])) {
    match e {
        BExpr::And(items) => items.iter().for_each(|item| visit_all_different(item, found)),
        BExpr::AllDifferent(items) => found(items),
        _ => {}
    }
}

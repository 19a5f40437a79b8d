//! Bounds presolve: values that no solution has, found before anything is
//! encoded, so that each decision variable is encoded over what is left.
//!
//! The facts are the top-level conjuncts of every constraint (they hold in
//! every solution): comparisons, `in`, Boolean variables. Each is pushed
//! down its expression, as a set the expression must fall in, to the
//! variables: through sums (bounds propagation), `abs` (both signs), `min`
//! and `max`, products (a value away from 0 bounds both factors), and
//! elements over fixed data (only the positions whose item fits), with the
//! other side's bounds or, for an element over fixed data, its exact set
//! of values. Rounds repeat until nothing narrows, up to [`MAX_ROUNDS`].
//!
//! `abs(x) = 45` leaves x two values; `distances[i, x[i]] = d[i]` leaves
//! `d[i]` the values of row i. Only sound while every constraint holds,
//! so the compiler narrows only when no group can be switched off: the
//! constraint sets of `explain`, `hint` and `steps` stay exact. A
//! contradiction found here narrows nothing; the solver finds it again.

use crate::lang::Program;
use crate::lang::ir::{BExpr, Cmp, IExpr, IKind};
use crate::lang::model::{Base, IntSet, Model};

/// Rounds over all facts before the presolve settles for what it has.
const MAX_ROUNDS: usize = 30;

/// The most values an element's set of reachable items is collected for.
const MAX_ELEMENT_ITEMS: usize = 100_000;

/// Beyond any domain's value ([`crate::lang::model::MAX_ABS`] is 2^40).
const UNBOUNDED: i128 = 1 << 100;

/// Each scalar's values after the presolve: Booleans as `0..1`.
#[derive(Clone, Debug)]
pub(crate) struct Domains {
    of: Vec<IntSet>,
}

impl Domains {
    /// The declared domains, a given value as its only value.
    fn declared(model: &Model) -> Domains {
        let mut of = vec![IntSet::range(0, 1); model.num_scalars()];
        for decl in &model.vars {
            for k in 0..decl.len {
                of[decl.first + k] = match (decl.given_at(k), decl.base) {
                    (Some(v), _) => IntSet::range(v, v),
                    (None, Base::Bool) => IntSet::range(0, 1),
                    (None, _) => decl.domain.clone(),
                };
            }
        }
        Domains { of }
    }

    /// The narrowed domain of a scalar.
    pub fn of(&self, scalar: usize) -> &IntSet {
        &self.of[scalar]
    }

    /// The declared domains narrowed by the program's top-level facts; the
    /// declared ones when the facts contradict each other.
    pub fn narrowed(model: &Model, program: &Program) -> Domains {
        let declared = Domains::declared(model);
        let mut facts: Vec<&BExpr> = Vec::new();
        for group in &program.groups {
            conjuncts(&group.expr, &mut facts);
        }
        let mut run = Run { doms: declared.clone(), changed: false, empty: false };
        for _ in 0..MAX_ROUNDS {
            run.changed = false;
            for fact in &facts {
                run.fact(fact);
                if run.empty {
                    return declared;
                }
            }
            if !run.changed {
                break;
            }
        }
        run.doms
    }
}

fn conjuncts<'a>(e: &'a BExpr, found: &mut Vec<&'a BExpr>) {
    match e {
        BExpr::And(items) => items.iter().for_each(|item| conjuncts(item, found)),
        _ => found.push(e),
    }
}

/// One presolve: the domains so far, and whether this round narrowed one.
struct Run {
    doms: Domains,
    changed: bool,
    /// A domain became empty: the facts contradict each other.
    empty: bool,
}

/// `lo..hi` as a set, clamped to the values a domain can hold.
fn span(lo: i128, hi: i128) -> IntSet {
    let limit = i64::MAX as i128 / 2;
    IntSet::range(lo.max(-limit) as i64, hi.min(limit) as i64)
}

fn div_floor(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) { q - 1 } else { q }
}

fn div_ceil(a: i128, b: i128) -> i128 {
    -div_floor(-a, b)
}

impl Run {
    /// Narrows by one fact, which holds in every solution.
    fn fact(&mut self, fact: &BExpr) {
        match fact {
            BExpr::Var(s) => self.restrict_scalar(*s, &IntSet::range(1, 1)),
            BExpr::Not(inner) => {
                if let BExpr::Var(s) = **inner {
                    self.restrict_scalar(s, &IntSet::range(0, 0));
                }
            }
            BExpr::In(e, set) => self.restrict(e, set),
            BExpr::Cmp(op, a, b) => self.comparison(*op, a, b),
            _ => {}
        }
    }

    fn comparison(&mut self, op: Cmp, a: &IExpr, b: &IExpr) {
        let ((alo, ahi), (blo, bhi)) = (self.bounds(a), self.bounds(b));
        match op {
            Cmp::Eq => {
                let (va, vb) = (self.values(a), self.values(b));
                self.restrict(a, &vb);
                self.restrict(b, &va);
            }
            Cmp::Le => {
                self.restrict(a, &span(-UNBOUNDED, bhi));
                self.restrict(b, &span(alo, UNBOUNDED));
            }
            Cmp::Lt => {
                self.restrict(a, &span(-UNBOUNDED, bhi - 1));
                self.restrict(b, &span(alo + 1, UNBOUNDED));
            }
            Cmp::Ne => {
                if alo == ahi {
                    self.restrict(b, &span(-UNBOUNDED, UNBOUNDED).difference(&span(alo, alo)));
                }
                if blo == bhi {
                    self.restrict(a, &span(-UNBOUNDED, UNBOUNDED).difference(&span(blo, blo)));
                }
            }
        }
    }

    fn restrict_scalar(&mut self, s: usize, set: &IntSet) {
        let dom = &self.doms.of[s];
        let (Some(lo), Some(hi)) = (dom.min(), dom.max()) else { return };
        let within = set.intervals().iter().any(|&(a, b)| a <= lo && hi <= b);
        if within {
            return;
        }
        let narrowed = dom.intersect(set);
        if narrowed.len() < dom.len() {
            self.empty |= narrowed.is_empty();
            self.doms.of[s] = narrowed;
            self.changed = true;
        }
    }

    /// Narrows the variables of `e` to values with which `e` can fall in
    /// `set` (where `e` is defined: a fact needs its expressions defined).
    fn restrict(&mut self, e: &IExpr, set: &IntSet) {
        let (Some(lo), Some(hi)) = (set.min(), set.max()) else {
            self.empty = true;
            return;
        };
        let (elo, ehi) = self.bounds(e);
        if elo >= lo as i128 && ehi <= hi as i128 && set.intervals().len() == 1 {
            return;
        }
        match &e.kind {
            IKind::Var(s) => self.restrict_scalar(*s, set),
            IKind::BoolToInt(b) => match (**b).clone() {
                BExpr::Var(s) => self.restrict_scalar(s, set),
                BExpr::Not(inner) => {
                    if let BExpr::Var(s) = *inner {
                        let flipped: Vec<i64> = [0, 1].into_iter().filter(|v| set.contains(1 - v)).collect();
                        self.restrict_scalar(s, &IntSet::from_values(flipped));
                    }
                }
                _ => {}
            },
            IKind::Sum(terms, k) => self.restrict_sum(terms, *k, lo as i128, hi as i128),
            IKind::Abs(t) => {
                let (lo, hi) = (lo.max(0), hi.max(0));
                let both = IntSet::range(-hi, -lo).union(&IntSet::range(lo, hi));
                self.restrict(t, &both);
            }
            IKind::Min(items) => items.iter().for_each(|item| self.restrict(item, &span(lo as i128, UNBOUNDED))),
            IKind::Max(items) => items.iter().for_each(|item| self.restrict(item, &span(-UNBOUNDED, hi as i128))),
            IKind::Mul(a, b) if lo > 0 || hi < 0 => {
                // Neither factor is 0, so neither is larger than the product.
                let m = lo.unsigned_abs().max(hi.unsigned_abs()) as i128;
                let apart = span(-m, -1).union(&span(1, m));
                self.restrict(a, &apart);
                self.restrict(b, &apart);
            }
            IKind::Element { index, dims, items } => self.restrict_element(index, dims, items, set),
            _ => {}
        }
    }

    /// Bounds propagation on `Σ c·t + k ∈ lo..hi`.
    fn restrict_sum(&mut self, terms: &[(i64, IExpr)], k: i64, lo: i128, hi: i128) {
        let parts: Vec<(i128, i128)> = terms
            .iter()
            .map(|(c, t)| {
                let (tlo, thi) = self.bounds(t);
                let (a, b) = (*c as i128 * tlo, *c as i128 * thi);
                (a.min(b), a.max(b))
            })
            .collect();
        let least: i128 = parts.iter().map(|p| p.0).sum::<i128>() + k as i128;
        let most: i128 = parts.iter().map(|p| p.1).sum::<i128>() + k as i128;
        for ((c, t), &(plo, phi)) in terms.iter().zip(&parts) {
            // What this term may be, given the others' extremes: at least
            // what the others at their greatest leave short of `lo`.
            let (from, to) = (lo - (most - phi), hi - (least - plo));
            if from <= plo && to >= phi {
                continue;
            }
            let c = *c as i128;
            let (tlo, thi) =
                if c > 0 { (div_ceil(from, c), div_floor(to, c)) } else { (div_ceil(to, c), div_floor(from, c)) };
            self.restrict(t, &span(tlo, thi));
        }
    }

    /// An element over fixed items: its index only where the item fits.
    fn restrict_element(&mut self, index: &[IExpr], dims: &[(i64, i64)], items: &[IExpr], set: &IntSet) {
        let [only] = index else { return };
        let [(first, _)] = dims else { return };
        if items.iter().any(|item| item.as_const().is_none()) {
            return;
        }
        let fits = items
            .iter()
            .enumerate()
            .filter(|(_, item)| item.as_const().is_some_and(|v| set.contains(v)))
            .map(|(p, _)| first + p as i64);
        self.restrict(only, &IntSet::from_values(fits));
    }

    /// The values `e` may take, as a set: exact for a variable and for an
    /// element over fixed items, else the bounds.
    fn values(&self, e: &IExpr) -> IntSet {
        match &e.kind {
            IKind::Var(s) => self.doms.of[*s].clone(),
            IKind::Element { index, dims, items } if items.len() <= MAX_ELEMENT_ITEMS => {
                match (&index[..], &dims[..]) {
                    ([only], [(first, _)]) if items.iter().all(|item| item.as_const().is_some()) => {
                        let reach = self.values(only);
                        IntSet::from_values(
                            items
                                .iter()
                                .enumerate()
                                .filter(|(p, _)| reach.contains(first + *p as i64))
                                .filter_map(|(_, item)| item.as_const()),
                        )
                    }
                    _ => self.bounded(e),
                }
            }
            _ => self.bounded(e),
        }
    }

    fn bounded(&self, e: &IExpr) -> IntSet {
        let (lo, hi) = self.bounds(e);
        span(lo, hi)
    }

    /// Bounds on the defined values of `e` over the domains so far.
    fn bounds(&self, e: &IExpr) -> (i128, i128) {
        let (lo, hi) = match &e.kind {
            IKind::Const(v) => (*v as i128, *v as i128),
            IKind::Var(s) => {
                let dom = &self.doms.of[*s];
                (dom.min().unwrap_or(0) as i128, dom.max().unwrap_or(0) as i128)
            }
            IKind::Sum(terms, k) => terms.iter().fold((*k as i128, *k as i128), |(lo, hi), (c, t)| {
                let (tlo, thi) = self.bounds(t);
                let (a, b) = (*c as i128 * tlo, *c as i128 * thi);
                (lo + a.min(b), hi + a.max(b))
            }),
            IKind::Mul(a, b) => {
                let ((alo, ahi), (blo, bhi)) = (self.bounds(a), self.bounds(b));
                let corners = [alo * blo, alo * bhi, ahi * blo, ahi * bhi];
                (*corners.iter().min().expect("four"), *corners.iter().max().expect("four"))
            }
            IKind::Abs(t) => {
                let (tlo, thi) = self.bounds(t);
                let hi = tlo.abs().max(thi.abs());
                let lo = if tlo <= 0 && thi >= 0 { 0 } else { tlo.abs().min(thi.abs()) };
                (lo, hi)
            }
            IKind::Min(items) | IKind::Max(items) => {
                let all: Vec<(i128, i128)> = items.iter().map(|item| self.bounds(item)).collect();
                let pick = |f: fn(&(i128, i128)) -> i128| {
                    let values = all.iter().map(f);
                    if matches!(e.kind, IKind::Max(_)) { values.max() } else { values.min() }
                };
                (pick(|b| b.0).unwrap_or(0), pick(|b| b.1).unwrap_or(0))
            }
            IKind::BoolToInt(b) => match **b {
                BExpr::Var(s) => self.bounds(&IExpr { kind: IKind::Var(s), lo: 0, hi: 1, partial: false }),
                _ => (0, 1),
            },
            _ => (e.lo as i128, e.hi as i128),
        };
        (lo.max(e.lo as i128), hi.min(e.hi as i128))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Source;

    fn narrowed(vars: &str, constraint: &str) -> Vec<String> {
        let text = format!("kind = \"csp\"\n[vars]\n{vars}\n[[constraint]]\nexpr = '{constraint}'\n");
        let (model, program) =
            crate::lang::load_model(&Source::from_text("m.toml", text)).unwrap_or_else(|e| panic!("{e}"));
        let doms = Domains::narrowed(&model, &program);
        (0..model.num_scalars()).map(|s| doms.of(s).to_string()).collect()
    }

    #[test]
    fn unary_facts_narrow_to_a_fixpoint() {
        let wide = "x = \"-1000000000000..1000000000000\"\ny = \"0..1000\"";
        assert_eq!(narrowed(wide, "abs(x) = 45 /\\ x div y <= 45"), ["{-45, 45}", "0..1000"]);
        assert_eq!(narrowed(wide, "x + y = 3"), ["-997..3", "0..1000"]);
        assert_eq!(narrowed(wide, "x + y = 3 /\\ x >= 2"), ["2..3", "0..1"]);
        let narrow = "x = \"-1000..1000\"\ny = \"0..1000\"";
        assert_eq!(narrowed(narrow, "x * y = 6"), ["{-6..-1, 1..6}", "1..6"]);
        assert_eq!(narrowed(wide, "x in {1, 5, 9} /\\ x != 5 /\\ y < x"), ["{1, 9}", "0..8"]);
        assert_eq!(narrowed(wide, "max(x, y) <= 4 /\\ min(x, y) >= 2"), ["2..4", "2..4"]);
    }

    #[test]
    fn an_element_over_fixed_data_leaves_its_items_and_the_positions_that_fit() {
        let vars = "p = \"1..4\"\nd = \"0..1000\"\n[params]\nt = [[5, 7, 5, 9]]";
        assert_eq!(narrowed(vars, "t[1, p] = d"), ["1..4", "{5, 7, 9}"]);
        assert_eq!(narrowed(vars, "t[1, p] = d /\\ d <= 6"), ["{1, 3}", "5..5"]);
    }

    #[test]
    fn booleans_are_fixed_and_contradictions_narrow_nothing() {
        let vars = "b = { index = [\"1..3\"], domain = \"0..1\" }\nx = \"0..9\"";
        assert_eq!(narrowed(vars, "sum(b) >= 3 /\\ x <= 4"), ["1..1", "1..1", "1..1", "0..4"]);
        assert_eq!(narrowed(vars, "sum(b) <= 2 /\\ b[1] + b[2] >= 2"), ["1..1", "1..1", "0..0", "0..9"]);
        assert_eq!(narrowed(vars, "x < 3 /\\ x > 5"), ["0..1", "0..1", "0..1", "0..9"]);
        let bools = "b = { index = [\"1..3\"], domain = \"bool\" }";
        assert_eq!(narrowed(bools, "not b[2] /\\ b[1] /\\ sum(b) <= 1"), ["1..1", "0..0", "0..0"]);
        // Bounds that creep one step per round stop after the last round.
        let creep = narrowed("x = \"0..1000\"\ny = \"0..1000\"", "x < y /\\ y < x + 2 /\\ x != y - 1");
        assert_eq!(creep.len(), 2);
    }
}

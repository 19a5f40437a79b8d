//! Linear constraints `Σ c·x + k ⋈ 0`: one variable is a literal, two
//! variables one clause per value of the smaller domain, more variables a
//! pseudo-Boolean constraint over the literals that spell the variables
//! out: a totalizer (from [`crate::cnf::card`]) when every weight is the
//! same, otherwise rustsat's generalized totalizer when the sums it must
//! track are few, and rustsat's binary adder when they are many.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use rustsat::encodings::CollectClauses;
use rustsat::encodings::pb::{BoundUpper, GeneralizedTotalizer};
use rustsat::instances::ManageVars;
use rustsat::types as rs;

use super::CompileError;
use super::mdd::{self, Next};
use super::{Encoder, Repr};
use crate::cnf::card::{self, AmoEncoding, Bounds, Totalizer};
use crate::cnf::{Cnf, Lit, Var};
use crate::lang::model::IntSet;

/// The largest at-most-one encoded pairwise (above, a sequential counter).
pub const PAIRWISE_AMO: usize = 16;

/// Binary constraints are enumerated over the smaller domain up to this size.
pub const ENUM_LIMIT: u64 = 1024;

/// The generalized totalizer is used while the distinct sums it must track
/// stay below this; the binary adder above.
pub const GTE_LIMIT: usize = 4096;

/// The most nodes a decision diagram for one linear constraint may have
/// before the pseudo-Boolean encodings take over.
pub const MDD_NODES: usize = 200_000;

/// The most edges (node × value) such a diagram may have.
pub const MDD_EDGES: usize = 4_000_000;

/// The most variables a decision diagram takes.
pub const MDD_LAYERS: usize = 512;

/// `Σ c·x + k`, over integer variables of the encoder.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lin {
    /// Coefficient and variable.
    pub terms: Vec<(i64, usize)>,
    /// The constant.
    pub k: i64,
}

/// How a linear expression compares with 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rel {
    /// `≤ 0`
    Le,
    /// `= 0`
    Eq,
    /// `≠ 0`
    Ne,
}

pub(super) fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) { q - 1 } else { q }
}

fn ceil_div(a: i128, b: i128) -> i128 {
    -floor_div(-a, b)
}

fn clamp(v: i128) -> i64 {
    v.clamp(-(1i128 << 62), 1i128 << 62) as i64
}

pub(super) fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

impl Lin {
    /// `c·x`.
    pub fn var(c: i64, x: usize) -> Lin {
        Lin { terms: vec![(c, x)], k: 0 }
    }

    /// A constant.
    pub fn constant(k: i64) -> Lin {
        Lin { terms: Vec::new(), k }
    }

    /// `self + c·other`.
    pub fn add_scaled(&mut self, c: i64, other: &Lin) {
        self.terms.extend(other.terms.iter().map(|&(d, x)| (c * d, x)));
        self.k += c * other.k;
    }

    /// `-self`.
    pub fn negated(&self) -> Lin {
        Lin { terms: self.terms.iter().map(|&(c, x)| (-c, x)).collect(), k: -self.k }
    }
}

/// Collects rustsat's clauses in our literals.
pub(super) struct Collector {
    pub(super) clauses: Vec<Vec<Lit>>,
}

impl CollectClauses for Collector {
    fn n_clauses(&self) -> usize {
        self.clauses.len()
    }

    fn extend_clauses<T: IntoIterator<Item = rs::Clause>>(&mut self, clauses: T) -> Result<(), rustsat::OutOfMemory> {
        for clause in clauses {
            self.clauses.push(clause.iter().map(|&l| from_rs(l)).collect());
        }
        Ok(())
    }
}

/// Hands rustsat fresh variable numbers after ours.
pub(super) struct Numbering {
    pub(super) next: u32,
}

impl ManageVars for Numbering {
    fn new_var(&mut self) -> rs::Var {
        let var = rs::Var::new(self.next);
        self.next += 1;
        var
    }

    fn max_var(&self) -> Option<rs::Var> {
        self.next.checked_sub(1).map(rs::Var::new)
    }

    fn increase_next_free(&mut self, v: rs::Var) -> bool {
        if v.idx32() > self.next {
            self.next = v.idx32();
            true
        } else {
            false
        }
    }

    fn combine(&mut self, other: Self) {
        self.next = self.next.max(other.next);
    }

    fn n_used(&self) -> u32 {
        self.next
    }

    fn forget_from(&mut self, min_var: rs::Var) {
        self.next = self.next.min(min_var.idx32());
    }
}

pub(super) fn to_rs(l: Lit) -> rs::Lit {
    rs::Lit::new(l.var().index() as u32, !l.is_positive())
}

pub(super) fn from_rs(l: rs::Lit) -> Lit {
    Var::from_index(l.vidx()).lit(!l.is_neg())
}

/// How the literals of a scratch formula built by [`crate::cnf::card`] map
/// to ours: its first variables stand for the inputs, the rest are new.
pub(super) struct CardMap {
    inputs: Vec<Lit>,
    first_new: usize,
}

impl CardMap {
    pub(super) fn map(&self, l: Lit) -> Lit {
        let i = l.var().index();
        let ours = match self.inputs.get(i) {
            Some(&input) => input,
            None => Var::from_index(self.first_new + i - self.inputs.len()).pos(),
        };
        if l.is_positive() { ours } else { !ours }
    }
}

impl Encoder {
    /// Runs one of [`crate::cnf::card`]'s encodings over `inputs` and
    /// copies its clauses in, into the current sink.
    pub(super) fn card<T>(
        &mut self,
        inputs: &[Lit],
        build: impl FnOnce(&mut Cnf, &[Lit]) -> T,
    ) -> Result<(T, CardMap), CompileError> {
        let mut scratch = Cnf::new();
        let lits: Vec<Lit> = scratch.new_vars(inputs.len()).into_iter().map(|v| v.pos()).collect();
        let result = build(&mut scratch, &lits);
        let map = CardMap { inputs: inputs.to_vec(), first_new: self.num_vars };
        for _ in inputs.len()..scratch.num_vars() {
            self.new_var()?;
        }
        for clause in scratch.clauses() {
            let mapped: Vec<Lit> = clause.iter().map(|&l| map.map(l)).collect();
            self.clause(&mapped);
        }
        Ok((result, map))
    }

    /// Merges repeated variables, folds constants and returns the bounds.
    pub(super) fn normalize(&self, lin: &Lin) -> (Vec<(i128, usize)>, i128, i128, i128) {
        let mut merged: Vec<(i128, usize)> = Vec::with_capacity(lin.terms.len());
        let mut slots: HashMap<usize, usize> = HashMap::with_capacity(lin.terms.len());
        let mut k = lin.k as i128;
        for &(c, x) in &lin.terms {
            if c == 0 {
                continue;
            }
            let dom = &self.ints[x].dom;
            if dom.len() == 1 {
                k += c as i128 * dom.min().unwrap_or(0) as i128;
                continue;
            }
            match slots.entry(x) {
                Entry::Occupied(slot) => merged[*slot.get()].0 += c as i128,
                Entry::Vacant(slot) => {
                    slot.insert(merged.len());
                    merged.push((c as i128, x));
                }
            }
        }
        merged.retain(|(c, _)| *c != 0);
        let (mut lo, mut hi) = (k, k);
        for &(c, x) in &merged {
            let dom = &self.ints[x].dom;
            let (a, b) = (c * dom.min().unwrap_or(0) as i128, c * dom.max().unwrap_or(0) as i128);
            lo += a.min(b);
            hi += a.max(b);
        }
        (merged, k, lo, hi)
    }

    /// Posts `guard → (lin rel 0)` into the current sink.
    pub(super) fn post_lin(&mut self, guard: &[Lit], lin: &Lin, rel: Rel) -> Result<(), CompileError> {
        let (terms, k, lo, hi) = self.normalize(lin);
        if self.keep_linear && terms.len() >= 2 && guard.iter().all(|&g| g == self.t()) {
            match rel {
                Rel::Le => self.linear_facts.push((terms.clone(), k)),
                Rel::Eq => {
                    self.linear_facts.push((terms.iter().map(|&(c, x)| (-c, x)).collect(), -k));
                    self.linear_facts.push((terms.clone(), k));
                }
                Rel::Ne => {}
            }
        }
        let never = |enc: &mut Encoder| -> Result<(), CompileError> {
            let clause: Vec<Lit> = guard.iter().map(|&g| !g).collect();
            enc.clause(&clause);
            Ok(())
        };
        match rel {
            Rel::Le if hi <= 0 => return Ok(()),
            Rel::Le if lo > 0 => return never(self),
            Rel::Eq if lo > 0 || hi < 0 => return never(self),
            Rel::Eq if lo == 0 && hi == 0 => return Ok(()),
            Rel::Ne if lo > 0 || hi < 0 => return Ok(()),
            Rel::Ne if lo == 0 && hi == 0 => return never(self),
            _ => {}
        }
        let g = terms.iter().fold(0, |g, &(c, _)| gcd(g, c));
        let (terms, k): (Vec<(i128, usize)>, i128) = match rel {
            Rel::Le => (terms.iter().map(|&(c, x)| (c / g, x)).collect(), -floor_div(-k, g)),
            _ if k % g != 0 => return if rel == Rel::Eq { never(self) } else { Ok(()) },
            _ => (terms.iter().map(|&(c, x)| (c / g, x)).collect(), k / g),
        };
        match terms[..] {
            [(c, x)] => {
                let l = self.unary(c, x, k, rel)?;
                let mut clause: Vec<Lit> = guard.iter().map(|&g| !g).collect();
                clause.push(l);
                self.clause(&clause);
                Ok(())
            }
            [(c1, x1), (c2, x2)]
                if self.size(x1).min(self.size(x2)) <= ENUM_LIMIT && !self.binary && !self.cases_too_wide(x1, x2) =>
            {
                let ((cx, x), (cy, y)) =
                    if self.size(x1) <= self.size(x2) { ((c1, x1), (c2, x2)) } else { ((c2, x2), (c1, x1)) };
                self.binary(guard, (cx, x), (cy, y), k, rel)
            }
            _ if rel != Rel::Ne && !self.plain_count(&terms, k, rel) && self.mdd(guard, &terms, k, rel)? => Ok(()),
            _ => self.post_pb_lin(guard, &terms, k, rel),
        }
    }

    /// Whether `Σ c·x + k rel 0` counts two-valued variables (Booleans,
    /// negated or not) with one weight against 0, 1, n − 1 or n of them:
    /// then it is unit clauses, one clause or an at-most-one
    /// ([`Encoder::at_most`]), where a decision diagram costs a literal and
    /// a few clauses per node. Light up's "every cell sees a light" and "a
    /// light sees no other" as `grid_sight` sums took 3,221 clauses through
    /// diagrams against 249 for its pairwise form.
    fn plain_count(&self, terms: &[(i128, usize)], k: i128, rel: Rel) -> bool {
        if terms.iter().any(|&(_, x)| self.size(x) != 2) {
            return false;
        }
        let (weighted, k) = self.weighted_form(terms, k);
        let Some(&(w, _)) = weighted.first() else { return false };
        if weighted.iter().any(|&(v, _)| v != w) || (rel == Rel::Eq && k % w as i128 != 0) {
            return false;
        }
        let (bound, n) = (floor_div(-k, w as i128), weighted.len() as i128);
        bound <= 1 || bound >= n - 1
    }

    /// Whether one clause per value of the smaller of `x1` and `x2` would be
    /// much larger than an adder: each clause compares the other variable,
    /// spelt in bits, with a bound, which is a circuit of its own. `|r| <
    /// |y|` over 1,001 values of `|r|` and a 30-bit `y` took 30,000 of them.
    pub(super) fn cases_too_wide(&self, x1: usize, x2: usize) -> bool {
        let (small, big) = if self.size(x1) <= self.size(x2) { (x1, x2) } else { (x2, x1) };
        self.repr(big) == Repr::Log && self.size(small) > 2 * self.bits_of_span(small) + 8
    }

    /// `guard → (Σ c·x + k rel 0)` by the pseudo-Boolean encodings. Beside
    /// a variable spelt in bits the sum will be a binary adder, so a unary
    /// variable with many values joins it through its log twin: 2,001 order
    /// literals beside a 30-bit variable made `x mod y = 25` 191,000
    /// clauses that took 25 s to solve.
    fn post_pb_lin(&mut self, guard: &[Lit], terms: &[(i128, usize)], k: i128, rel: Rel) -> Result<(), CompileError> {
        let terms = if self.unary_adder(terms, k) {
            terms.iter().map(|&(c, x)| Ok((c, self.spelt_in_bits(x)?))).collect::<Result<Vec<_>, CompileError>>()?
        } else {
            self.pb_terms(terms)?
        };
        match rel {
            Rel::Le => self.pb_le(guard, &terms, k),
            Rel::Eq => self.pb_eq(guard, &terms, k),
            Rel::Ne => {
                // Σ ≤ -1 or Σ ≥ 1, each under its own literal.
                let below = self.new_lit()?;
                let above = self.new_lit()?;
                let negated: Vec<(i128, usize)> = terms.iter().map(|&(c, x)| (-c, x)).collect();
                if !self.mdd(&[below], &terms, k + 1, Rel::Le)? {
                    self.pb_le(&[below], &terms, k + 1)?;
                }
                if !self.mdd(&[above], &negated, -k + 1, Rel::Le)? {
                    self.pb_le(&[above], &negated, -k + 1)?;
                }
                let mut clause: Vec<Lit> = guard.iter().map(|&g| !g).collect();
                clause.extend([below, above]);
                self.clause(&clause);
                Ok(())
            }
        }
    }

    /// Whether the sum of several unary variables would become a binary
    /// adder over their literals (one per order literal), where over their
    /// log twins it is one per bit: `a·x` for Booleans a and x in
    /// -1000..1000, three times, summed to 13, was an adder over 6,000
    /// order literals that CaDiCaL took 12 s to satisfy.
    fn unary_adder(&self, terms: &[(i128, usize)], k: i128) -> bool {
        if terms.len() < 2 || terms.iter().all(|&(_, x)| self.bits_of_span(x) <= 4) {
            return false;
        }
        let (weighted, k) = self.weighted_form(terms, k);
        let total: i128 = weighted.iter().map(|&(w, _)| w as i128).sum();
        let bound = (-k).clamp(0, total);
        [bound, total - bound].iter().any(|&b| choose_pb(&weighted, b as u64, self.binary) == Pb::Adder)
    }

    /// The terms a pseudo-Boolean encoding sums: as they are, or, beside a
    /// variable spelt in bits or past [`WIDE_SUM_LITERALS`] unary literals,
    /// each unary variable with many values through its log twin.
    pub(super) fn pb_terms(&mut self, terms: &[(i128, usize)]) -> Result<Vec<(i128, usize)>, CompileError> {
        let unary_literals: u64 = terms
            .iter()
            .filter(|&&(_, x)| self.repr(x) != Repr::Log)
            .map(|&(_, x)| self.size(x).saturating_sub(1))
            .sum();
        let in_bits = terms.iter().any(|&(_, x)| self.repr(x) == Repr::Log)
            || (terms.len() > 1 && unary_literals > WIDE_SUM_LITERALS);
        if in_bits { terms.iter().map(|&(c, x)| Ok((c, self.spelt_in_bits(x)?))).collect() } else { Ok(terms.to_vec()) }
    }

    /// `guard → (Σ c·x + k rel 0)` for `rel` ≤ or =, as a reduced decision
    /// diagram over the variables' values, one layer per variable, largest
    /// contributions first ([`super::mdd`]). Returns false, having added
    /// nothing, when the diagram would be too large.
    fn mdd(&mut self, guard: &[Lit], terms: &[(i128, usize)], k: i128, rel: Rel) -> Result<bool, CompileError> {
        if !self.diagrams
            || terms.len() > MDD_LAYERS
            // Each edge over bits is a conjunction per value: a difference
            // of two log variables made the Golomb ruler 4× slower.
            || terms.iter().any(|&(_, x)| self.repr(x) == Repr::Log && self.size(x) > 4)
        {
            return Ok(false);
        }
        let mut layers: Vec<(i128, usize)> = terms.to_vec();
        let span = |enc: &Encoder, &(c, x): &(i128, usize)| {
            let dom = &enc.ints[x].dom;
            c.abs() * (dom.max().unwrap_or(0) as i128 - dom.min().unwrap_or(0) as i128)
        };
        layers.sort_by_key(|t| std::cmp::Reverse(span(self, t)));
        let spec: Vec<(i128, Vec<i64>)> =
            layers.iter().map(|&(c, x)| (c, self.ints[x].dom.values().collect())).collect();
        let Some(diagram) = mdd::build(&spec, -k, rel == Rel::Eq, MDD_NODES, MDD_EDGES) else { return Ok(false) };
        let negated_guard: Vec<Lit> = guard.iter().map(|&g| !g).collect();
        let root = match diagram.root {
            Next::True => return Ok(true),
            Next::False => {
                self.clause(&negated_guard);
                return Ok(true);
            }
            Next::Node(id) => id,
        };
        // One literal per node; the root is the guard itself.
        let mut lits: Vec<Lit> = Vec::with_capacity(diagram.nodes.len());
        for id in 0..diagram.nodes.len() {
            lits.push(if id == root { self.t() } else { self.new_lit()? });
        }
        for (id, node) in diagram.nodes.iter().enumerate() {
            let (_, x) = layers[node.layer];
            let head: Vec<Lit> = if id == root { negated_guard.clone() } else { vec![!lits[id]] };
            // Support: a node that holds takes one of its live edges, so
            // when every edge dies the node dies too, by unit propagation.
            let mut live: Vec<(Vec<Vec<Lit>>, Lit)> = Vec::new();
            for (a, b, next) in &node.edges {
                let target = match next {
                    Next::True => self.t(),
                    Next::False => self.f(),
                    Next::Node(child) => lits[*child],
                };
                let inside = self.within(x, *a, *b)?;
                if target != self.t() {
                    // Down: the node and the value lead to the child.
                    for parts in &inside {
                        let mut clause = head.clone();
                        clause.extend(parts.iter().map(|&l| !l));
                        clause.push(target);
                        self.clause(&clause);
                    }
                }
                if target != self.f() {
                    live.push((inside, target));
                }
            }
            match &live[..] {
                [(inside, target)] if inside.len() == 1 => {
                    for &l in inside[0].iter().chain([target]) {
                        let mut clause = head.clone();
                        clause.push(l);
                        self.clause(&clause);
                    }
                }
                _ => {
                    let mut support = head.clone();
                    for (inside, target) in &live {
                        let edge = self.new_lit()?;
                        self.clause(&[!edge, *target]);
                        if inside.len() == 1 {
                            for &l in &inside[0] {
                                self.clause(&[!edge, l]);
                            }
                        } else {
                            let any: Vec<Lit> =
                                inside.iter().map(|parts| self.and_lit(parts)).collect::<Result<_, _>>()?;
                            let mut clause = vec![!edge];
                            clause.extend(any);
                            self.clause(&clause);
                        }
                        support.push(edge);
                    }
                    self.clause(&support);
                }
            }
        }
        Ok(true)
    }

    /// "x in a..b" as a disjunction of conjunctions: one conjunction of two
    /// order literals for an order variable, else one per value.
    fn within(&mut self, x: usize, a: i64, b: i64) -> Result<Vec<Vec<Lit>>, CompileError> {
        if self.repr(x) == Repr::Order || a == b {
            if self.repr(x) == Repr::Order {
                let lo = self.ge(x, a)?;
                let hi = !self.ge(x, b + 1)?;
                return Ok(vec![[lo, hi].into_iter().filter(|&l| l != self.t()).collect()]);
            }
            return Ok(vec![self.is(x, a)?]);
        }
        let run: Vec<i64> = self.ints[x].dom.intersect(&IntSet::range(a, b)).values().collect();
        run.into_iter().map(|v| self.is(x, v)).collect()
    }

    /// The literal for `c·x + k rel 0`.
    pub(super) fn unary(&mut self, c: i128, x: usize, k: i128, rel: Rel) -> Result<Lit, CompileError> {
        let t = -k;
        match rel {
            Rel::Le if c > 0 => self.le(x, clamp(floor_div(t, c))),
            Rel::Le => self.ge(x, clamp(ceil_div(t, c))),
            Rel::Eq | Rel::Ne => {
                let l = if t % c == 0 { self.eq(x, clamp(t / c))? } else { self.f() };
                Ok(if rel == Rel::Eq { l } else { !l })
            }
        }
    }

    /// The literals whose disjunction says `c·y + k rel 0`: for a direct
    /// variable with a small domain, its allowed values; otherwise one
    /// literal.
    fn unary_clause(&mut self, c: i128, y: usize, k: i128, rel: Rel) -> Result<Vec<Lit>, CompileError> {
        if rel == Rel::Le && self.repr(y) == Repr::Direct && self.size(y) <= 32 {
            let values: Vec<i64> = self.ints[y].values.clone();
            let mut lits = Vec::new();
            for v in values {
                if c * v as i128 + k <= 0 {
                    lits.push(self.eq(y, v)?);
                }
            }
            return Ok(lits);
        }
        Ok(vec![self.unary(c, y, k, rel)?])
    }

    /// `guard → (cx·x + cy·y + k rel 0)`, one clause per value of `x`.
    fn binary(
        &mut self,
        guard: &[Lit],
        (cx, x): (i128, usize),
        (cy, y): (i128, usize),
        k: i128,
        rel: Rel,
    ) -> Result<(), CompileError> {
        let values: Vec<i64> = self.ints[x].dom.values().collect();
        let monotone = rel == Rel::Le && self.repr(x) == Repr::Order;
        for (i, &a) in values.iter().enumerate() {
            let residual = k + cx * a as i128;
            let mut clause: Vec<Lit> = guard.iter().map(|&g| !g).collect();
            if monotone {
                // With cx > 0 a larger x only tightens y's bound, so "x ≥ a"
                // suffices; with cx < 0, "x ≤ a".
                if cx > 0 {
                    clause.push(!self.ge(x, a)?);
                } else {
                    let next = values.get(i + 1).copied().unwrap_or(i64::MAX);
                    clause.push(self.ge(x, next)?);
                }
            } else {
                for l in self.is(x, a)? {
                    clause.push(!l);
                }
            }
            let lits = self.unary_clause(cy, y, residual, rel)?;
            if lits.contains(&self.t()) {
                continue;
            }
            clause.extend(lits);
            self.clause(&clause);
        }
        Ok(())
    }

    /// `guard → (Σ c·x + k ≤ 0)` by a pseudo-Boolean encoding.
    fn pb_le(&mut self, guard: &[Lit], terms: &[(i128, usize)], k: i128) -> Result<(), CompileError> {
        let Some((kept, bound)) = self.positive_form(guard, terms, k, false)? else { return Ok(()) };
        self.post_pb(guard, &kept, bound)
    }

    /// `guard → Σ w·l ≤ bound`, by the encoding [`choose_pb`] picks.
    fn post_pb(&mut self, guard: &[Lit], kept: &[(u64, Lit)], bound: u64) -> Result<(), CompileError> {
        if kept.iter().map(|&(w, _)| w as u128).sum::<u128>() <= bound as u128 {
            return Ok(());
        }
        match choose_pb(kept, bound, self.binary) {
            Pb::Unit => {
                let lits: Vec<Lit> = kept.iter().map(|&(_, l)| l).collect();
                self.at_most(guard, &lits, bound as usize)
            }
            Pb::Totalizer => {
                let assumptions = self.rustsat_ub::<GeneralizedTotalizer>(kept, bound)?;
                let negated_guard: Vec<Lit> = guard.iter().map(|&g| !g).collect();
                for a in assumptions {
                    let mut clause = negated_guard.clone();
                    clause.push(a);
                    self.clause(&clause);
                }
                Ok(())
            }
            Pb::Adder => {
                let digits = self.binary_sum(kept)?;
                self.digits_at_most(guard, &digits, bound);
                Ok(())
            }
        }
    }

    /// `guard → (Σ c·x + k = 0)`: as two bounds when each is a unary count
    /// or a generalized totalizer, else one binary adder whose digits must
    /// spell the bound.
    fn pb_eq(&mut self, guard: &[Lit], terms: &[(i128, usize)], k: i128) -> Result<(), CompileError> {
        let negated: Vec<(i128, usize)> = terms.iter().map(|&(c, x)| (-c, x)).collect();
        let Some((kept, bound)) = self.positive_form(guard, terms, k, true)? else {
            return self.pb_le(guard, &negated, -k);
        };
        let total: u64 = kept.iter().map(|&(w, _)| w).sum();
        if choose_pb(&kept, bound, self.binary) != Pb::Adder
            && choose_pb(&kept, total - bound, self.binary) != Pb::Adder
        {
            // Σ w·l ≥ bound is Σ w·¬l ≤ total - bound.
            let complement: Vec<(u64, Lit)> = kept.iter().map(|&(w, l)| (w, !l)).collect();
            self.post_pb(guard, &kept, bound)?;
            return self.post_pb(guard, &complement, total - bound);
        }
        let digits = self.binary_sum(&kept)?;
        self.digits_equal(guard, &digits, bound);
        Ok(())
    }

    /// `Σ c·x + k` as `Σ w·l + k'` over positive weights on the literals
    /// that spell the variables out: the weighted literals and `k'`.
    pub(super) fn weighted_form(&self, terms: &[(i128, usize)], k: i128) -> (Weighted, i128) {
        let spelt: Vec<(i128, Spelt)> = terms.iter().map(|&(c, x)| (c, self.weighted(x))).collect();
        weighted_form(&spelt, k)
    }

    /// `Σ c·x + k ≤ 0` (or `= 0` when `exact`) as `Σ w·l ≤ bound` over
    /// positive weights on the literals that spell the variables out,
    /// divided by their common divisor, with the literals heavier than the
    /// bound forced false. `None` when that settles it (the clauses, if
    /// any, are added); for `exact`, `None` means the upper half is settled
    /// and only `Σ ≥ bound` is left to post.
    fn positive_form(
        &mut self,
        guard: &[Lit],
        terms: &[(i128, usize)],
        k: i128,
        exact: bool,
    ) -> Result<Option<(Weighted, u64)>, CompileError> {
        let (weighted, mut k) = self.weighted_form(terms, k);
        // Under the guard its own literals are known: `l → Σ ≤ 1` over a
        // sum that counts `l` is `l → (Σ without l) ≤ 0`.
        let mut weighted = weighted;
        weighted.retain(|&(w, l)| {
            if guard.contains(&l) {
                k += w as i128;
            }
            !guard.contains(&l) && !guard.contains(&!l)
        });
        let bound = -k;
        let negated_guard: Vec<Lit> = guard.iter().map(|&g| !g).collect();
        let total: i128 = weighted.iter().map(|&(w, _)| w as i128).sum();
        if bound < 0 || (exact && total < bound) {
            self.clause(&negated_guard);
            return Ok(None);
        }
        if total <= bound && !exact {
            return Ok(None);
        }
        if total > 1i128 << 62 {
            return Err(CompileError::TooLarge(format!(
                "a linear constraint whose weights add up to {total}, beyond the 2^62 the pseudo-Boolean encodings take"
            )));
        }
        let bound = bound as u64;
        // A literal heavier than the bound must be false.
        let mut kept = Vec::with_capacity(weighted.len());
        for (w, l) in weighted {
            if w > bound {
                let mut clause = negated_guard.clone();
                clause.push(!l);
                self.clause(&clause);
            } else {
                kept.push((w, l));
            }
        }
        let g = kept.iter().fold(0u64, |g, &(w, _)| gcd(g as i128, w as i128) as u64).max(1);
        if exact && !bound.is_multiple_of(g) {
            self.clause(&negated_guard);
            return Ok(None);
        }
        let bound = bound / g;
        let kept: Vec<(u64, Lit)> = kept.into_iter().map(|(w, l)| (w / g, l)).collect();
        if kept.iter().map(|&(w, _)| w as u128).sum::<u128>() <= bound as u128 {
            return Ok(None);
        }
        Ok(Some((kept, bound)))
    }

    /// `guard → at most k of lits`, by [`crate::cnf::card`].
    pub(super) fn at_most(&mut self, guard: &[Lit], lits: &[Lit], k: usize) -> Result<(), CompileError> {
        let negated_guard: Vec<Lit> = guard.iter().map(|&g| !g).collect();
        if k >= lits.len() {
            return Ok(());
        }
        if k == 0 {
            for &l in lits {
                let mut clause = negated_guard.clone();
                clause.push(!l);
                self.clause(&clause);
            }
            return Ok(());
        }
        let guarded = guard.iter().any(|&g| g != self.t());
        if !guarded && k == 1 {
            return self.at_most_one(lits);
        }
        if k == 1 {
            return self.guarded_at_most_one(&negated_guard, lits);
        }
        if !guarded {
            self.card(lits, |cnf, xs| card::at_most_k(cnf, xs, k))?;
            return Ok(());
        }
        // A totalizer cut off at k + 1 is O(n·k); near n, demanding that
        // n - k literals be false is O(n·(n - k)).
        let spare = lits.len() - k;
        let mut clause = negated_guard;
        if spare == 1 {
            clause.extend(lits.iter().map(|&l| !l));
            self.card(&clause, card::chained_clause)?;
            return Ok(());
        } else if spare < k {
            let negated: Vec<Lit> = lits.iter().map(|&l| !l).collect();
            let (count, map) = self.card(&negated, |cnf, xs| Totalizer::build(cnf, xs, spare, Bounds::Lower))?;
            let enough = count.at_least(spare).map(|l| map.map(l));
            clause.push(enough.ok_or_else(|| CompileError::Internal("totalizer cut-off".into()))?);
        } else {
            let (count, map) = self.card(lits, |cnf, xs| Totalizer::build(cnf, xs, k + 1, Bounds::Upper))?;
            let over = count.at_least(k + 1).map(|l| map.map(l));
            clause.push(!over.ok_or_else(|| CompileError::Internal("totalizer cut-off".into()))?);
        }
        self.clause(&clause);
        Ok(())
    }

    /// At most one of `lits`: pairwise up to [`PAIRWISE_AMO`] literals,
    /// where binary clauses propagate fastest and need no variables, and by
    /// [`crate::cnf::card`]'s sequential counter above.
    pub(super) fn at_most_one(&mut self, lits: &[Lit]) -> Result<(), CompileError> {
        if lits.len() <= PAIRWISE_AMO {
            for (i, &a) in lits.iter().enumerate() {
                for &b in &lits[i + 1..] {
                    self.clause(&[!a, !b]);
                }
            }
            return Ok(());
        }
        self.card(lits, |cnf, xs| card::at_most_one_with(cnf, xs, AmoEncoding::Sequential))?;
        Ok(())
    }

    /// `guard → at most one of lits` (`negated_guard` is the guard's
    /// negation): pairwise up to [`card::PAIRWISE_LIMIT`] literals, each
    /// pair's clause with the guard; above, Sinz's sequential counter
    /// whose ladder `s[i]` ("one of the first i + 1 holds") is free and
    /// only the clauses that forbid a second literal carry the guard.
    fn guarded_at_most_one(&mut self, negated_guard: &[Lit], lits: &[Lit]) -> Result<(), CompileError> {
        let with_guard = |lits: &[Lit]| -> Vec<Lit> { negated_guard.iter().chain(lits).copied().collect() };
        if lits.len() <= card::PAIRWISE_LIMIT {
            for (i, &a) in lits.iter().enumerate() {
                for &b in &lits[i + 1..] {
                    self.clause(&with_guard(&[!a, !b]));
                }
            }
            return Ok(());
        }
        let mut before = lits[0];
        for (i, &l) in lits.iter().enumerate().skip(1) {
            self.clause(&with_guard(&[!before, !l]));
            if i + 1 < lits.len() {
                let s = self.new_lit()?;
                self.clause(&[!before, s]);
                self.clause(&[!l, s]);
                before = s;
            }
        }
        Ok(())
    }

    /// Encodes `Σ w·l ≤ bound` with a rustsat encoding and returns the
    /// literals that enforce it.
    fn rustsat_ub<E>(&mut self, weighted: &[(u64, Lit)], bound: u64) -> Result<Vec<Lit>, CompileError>
    where
        E: BoundUpper + FromIterator<(rs::Lit, usize)>,
    {
        let too_large =
            |e: &dyn std::fmt::Display| CompileError::TooLarge(format!("a pseudo-Boolean encoding failed: {e}"));
        let mut encoding: E = weighted.iter().map(|&(w, l)| (to_rs(l), w as usize)).collect();
        let mut collector = Collector { clauses: Vec::new() };
        let mut numbering = Numbering { next: self.num_vars as u32 };
        let bound = bound as usize;
        encoding.encode_ub(bound..=bound, &mut collector, &mut numbering).map_err(|e| too_large(&e))?;
        let assumptions = encoding.enforce_ub(bound).map_err(|e| too_large(&e))?;
        while self.num_vars < numbering.next as usize {
            self.new_var()?;
        }
        for clause in collector.clauses {
            self.clause(&clause);
        }
        Ok(assumptions.into_iter().map(from_rs).collect())
    }
}

/// Weighted literals `Σ w·l` over positive weights.
pub(super) type Weighted = Vec<(u64, Lit)>;

/// An integer variable as `offset + Σ w·l` over its own literals.
pub(super) type Spelt = (i64, Vec<(i64, Lit)>);

/// `Σ c·(offset + Σ w·l) + k` as `Σ w·l + k'` over positive weights, each
/// literal once.
pub(super) fn weighted_form(spelt: &[(i128, Spelt)], k: i128) -> (Weighted, i128) {
    // Coefficients on positive literals, by variable.
    let mut coef: HashMap<Var, i128> = HashMap::new();
    let mut order: Vec<Var> = Vec::new();
    let mut k = k;
    for (c, (offset, lits)) in spelt {
        let c = *c;
        k += c * *offset as i128;
        for &(w, l) in lits {
            let w = c * w as i128;
            let slot = coef.entry(l.var()).or_insert_with(|| {
                order.push(l.var());
                0
            });
            if l.is_positive() {
                *slot += w;
            } else {
                *slot -= w;
                k += w;
            }
        }
    }
    let mut weighted: Vec<(u64, Lit)> = Vec::new();
    for var in order {
        let c = coef[&var];
        if c > 0 {
            weighted.push((c as u64, var.pos()));
        } else if c < 0 {
            weighted.push(((-c) as u64, var.neg()));
            k += c;
        }
    }
    (weighted, k)
}

/// The pseudo-Boolean encodings of `Σ w·l ≤ bound`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Pb {
    /// Every weight is 1: a cardinality constraint from [`crate::cnf::card`].
    Unit,
    /// Few distinct sums up to the bound: rustsat's generalized totalizer.
    Totalizer,
    /// Otherwise a binary adder ([`super::adder`]), whose size does not
    /// depend on the bound.
    Adder,
}

/// The most clauses a generalized totalizer is guessed to take (inputs
/// times distinct sums) before the binary adder is used instead.
pub(super) const GTE_CLAUSES: usize = 2_000_000;

/// The encoding for `Σ w·l ≤ bound`; `binary` asks for the adder
/// whenever the weights differ.
fn choose_pb(kept: &[(u64, Lit)], bound: u64, binary: bool) -> Pb {
    if kept.iter().all(|&(w, _)| w == 1) {
        let cost = count_cost(kept.len(), bound as usize);
        let long = kept.len() as u64 >= WIDE_SUM_LITERALS && cost > WIDE_COUNT_CLAUSES_PER_LITERAL * kept.len();
        return if cost <= UNIT_CLAUSES && !long { Pb::Unit } else { Pb::Adder };
    }
    if binary {
        return Pb::Adder;
    }
    let sums = distinct_sums(kept, bound);
    if sums <= GTE_LIMIT && kept.len().saturating_mul(sums) <= GTE_CLAUSES { Pb::Totalizer } else { Pb::Adder }
}

/// Past this many literals among a sum's unary terms, the sum goes over
/// their log twins: as a count it would be a totalizer of millions of
/// clauses or an adder over thousands of literals, and `sum(d) = z` over 16
/// variables in 52..2789 and z in 0..50000 either asked for gigabytes or
/// gave varisat a formula it could not satisfy in minutes. Booleans have no
/// twin and stay as they are.
const WIDE_SUM_LITERALS: u64 = 20_000;

/// The most clauses a cut-off totalizer for a count may take before the
/// binary adder, linear in the literals whatever the bound, is used
/// instead. The adder propagates poorly, so the totalizer keeps every count
/// the clause limit would let through (4,000 order literals against a bound
/// near 3,000 is 3.5 million clauses); past this, a count of 43,000 order
/// literals (16 variables over 52..2789) against a bound near 19,000 asked
/// for gigabytes before a clause was written.
const UNIT_CLAUSES: usize = 8_000_000;

/// Past [`WIDE_SUM_LITERALS`] literals, the most clauses per literal a
/// count's totalizer may take before the adder is used instead: "at most 44
/// of 100,000 Booleans" was 7.4 million totalizer clauses, several seconds
/// to build and load; with the adder the whole formula is 1.5 million.
const WIDE_COUNT_CLAUSES_PER_LITERAL: usize = 20;

/// About how many clauses [`Encoder::at_most`] takes for "at most `k` of
/// `n` literals", case by case as it builds them.
fn count_cost(n: usize, k: usize) -> usize {
    match n.saturating_sub(k) {
        0 => 0,
        _ if k == 0 => n,
        1 => n,
        _ if k == 1 => 3 * n,
        spare => totalizer_cost(n, (k + 1).min(spare)),
    }
}

/// About how many clauses [`crate::cnf::card`]'s totalizer over `n`
/// literals cut off at `cutoff` builds: each merge pairs every count of
/// one half with every count of the other, each capped at the cut-off.
fn totalizer_cost(n: usize, cutoff: usize) -> usize {
    if n <= 1 {
        return 0;
    }
    let (a, b) = (n / 2, n - n / 2);
    let merge = (a.min(cutoff) + 1).saturating_mul(b.min(cutoff) + 1);
    totalizer_cost(a, cutoff).saturating_add(totalizer_cost(b, cutoff)).saturating_add(merge)
}

/// How many distinct sums of subsets of the weights lie within the bound
/// (counting all larger sums as one), capped a little above [`GTE_LIMIT`].
pub(super) fn distinct_sums(weighted: &[(u64, Lit)], bound: u64) -> usize {
    if bound > 1_000_000 {
        return usize::MAX;
    }
    let width = bound as usize + 2;
    let mut reachable = vec![false; width];
    reachable[0] = true;
    for &(w, _) in weighted {
        let w = w as usize;
        for s in (0..width).rev() {
            if reachable[s] {
                let t = (s + w).min(width - 1);
                reachable[t] = true;
            }
        }
    }
    reachable.iter().filter(|&&r| r).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_division() {
        assert_eq!((floor_div(7, 2), floor_div(-7, 2), floor_div(7, -2), floor_div(-7, -2)), (3, -4, -4, 3));
        assert_eq!((ceil_div(7, 2), ceil_div(-7, 2), ceil_div(7, -2)), (4, -3, -3));
    }

    /// The estimate that picks between a count and an adder stays within a
    /// factor of two of the clauses the totalizer really builds.
    #[test]
    fn totalizer_cost_follows_the_built_totalizer() {
        for (n, k) in [(10, 3), (100, 7), (400, 150), (1000, 40), (2000, 1500)] {
            let mut cnf = Cnf::new();
            let lits: Vec<Lit> = cnf.new_vars(n).into_iter().map(|v| v.pos()).collect();
            card::at_most_k(&mut cnf, &lits, k);
            let built = cnf.num_clauses();
            let estimate = totalizer_cost(n, (k + 1).min(n - k));
            assert!(estimate <= 2 * built && built <= 2 * estimate, "n {n} k {k}: built {built}, estimated {estimate}");
        }
    }

    #[test]
    fn distinct_sums_counts_subset_sums() {
        let l = Var::from_index(0).pos();
        assert_eq!(distinct_sums(&[(1, l), (2, l), (4, l)], 100), 8);
        assert_eq!(distinct_sums(&[(3, l), (3, l)], 4), 3);
    }
}

//! Expressions to clauses: integer terms as linear expressions over integer
//! variables (with auxiliary variables for the non-linear ones), Boolean
//! expressions asserted under a guard or reified into a literal.

use super::CompileError;
use super::linear::{ENUM_LIMIT, Lin, Rel};
use super::{Encoder, Pol, memo};
use crate::cnf::Lit;
use crate::lang::ir::{BExpr, Cmp, IExpr, IKind};
use crate::lang::model::IntSet;

/// The most pairs of values a function of two variables is tabulated over.
const PAIR_LIMIT: u64 = 4096;

/// The most pairs of values a product is spelt out over, value by value
/// of its smaller side, before it goes to partial products over bits.
const CASES_PAIRS: u64 = 100_000;

/// The most pairs of literals a product over wide domains multiplies.
const MAX_PARTIAL_PRODUCTS: usize = 100_000;

/// The most values a function of one variable is tabulated over; wider
/// ones are tied to their argument by linear constraints.
const TABULATED: u64 = ENUM_LIMIT * 64;

/// The most values an exact domain of an auxiliary variable is computed for.
const EXACT_LIMIT: usize = 1 << 16;

fn negated(guard: &[Lit]) -> Vec<Lit> {
    guard.iter().map(|&g| !g).collect()
}

impl Encoder {
    /// An integer expression as a linear expression over integer
    /// variables, and the literals that must hold for it to be defined.
    pub(super) fn int_term(&mut self, e: &IExpr) -> Result<(Lin, Vec<Lit>), CompileError> {
        match &e.kind {
            IKind::Const(v) => Ok((Lin::constant(*v), Vec::new())),
            IKind::Var(id) => {
                let x = self.scalar_ints[*id]
                    .ok_or_else(|| CompileError::Internal("an integer scalar without a variable".into()))?;
                Ok((Lin::var(1, x), Vec::new()))
            }
            IKind::Sum(terms, k) => {
                let mut lin = Lin::constant(*k);
                let mut defs = Vec::new();
                for (c, t) in terms {
                    let (l, d) = self.int_term(t)?;
                    lin.add_scaled(*c, &l);
                    defs.extend(d);
                }
                Ok((lin, defs))
            }
            _ => {
                let (x, defs) = self.int_var(e)?;
                Ok((Lin::var(1, x), defs))
            }
        }
    }

    /// An integer expression as one integer variable, and its definedness.
    pub(super) fn int_var(&mut self, e: &IExpr) -> Result<(usize, Vec<Lit>), CompileError> {
        match &e.kind {
            IKind::Var(id) => {
                let x = self.scalar_ints[*id]
                    .ok_or_else(|| CompileError::Internal("an integer scalar without a variable".into()))?;
                return Ok((x, Vec::new()));
            }
            IKind::Const(v) => return Ok((self.new_int(IntSet::range(*v, *v), super::Repr::Const)?, Vec::new())),
            _ => {}
        }
        let hash = memo::hash_of(e);
        if let Some(found) = self.term_cache.find(hash, |k| k == e) {
            return Ok(found.clone());
        }
        let result = self.hard(|enc| enc.define(e))?;
        self.term_cache.insert(hash, e.clone(), result.clone());
        Ok(result)
    }

    /// A new integer variable over `dom` in the engine's encoding for its size.
    fn aux_int(&mut self, dom: IntSet) -> Result<usize, CompileError> {
        if dom.is_empty() {
            return Err(CompileError::Internal("an auxiliary variable with an empty domain".into()));
        }
        let repr = self.repr_for(dom.len());
        self.new_int(dom, repr)
    }

    /// `dom` without the values the difference bounds rule out, when `lin`
    /// is a difference of two decision scalars plus a constant (and some
    /// value is left).
    fn narrowed(&self, lin: &Lin, dom: IntSet) -> IntSet {
        let (x, y) = match lin.terms[..] {
            [(1, x), (-1, y)] | [(-1, y), (1, x)] => (x, y),
            _ => return dom,
        };
        let (Some(&sx), Some(&sy)) = (self.int_scalars.get(&x), self.int_scalars.get(&y)) else { return dom };
        let Some((lo, hi)) = self.diffs.difference(sx, sy) else { return dom };
        let kept = dom.intersect(&IntSet::range(lin.k.saturating_add(lo), lin.k.saturating_add(hi)));
        if kept.is_empty() { dom } else { kept }
    }

    /// The values a linear expression can take: exact while small,
    /// otherwise the interval between its bounds.
    fn lin_domain(&self, lin: &Lin) -> IntSet {
        let (lo, hi) = self.lin_bounds(lin);
        let mut values: Vec<i64> = vec![lin.k];
        for &(c, x) in &lin.terms {
            let dom = &self.ints[x].dom;
            if values.len() as u64 * dom.len() > 4 * EXACT_LIMIT as u64 {
                return IntSet::range(lo, hi);
            }
            let mut next: Vec<i64> = Vec::with_capacity(values.len() * dom.len() as usize);
            for v in dom.values() {
                next.extend(values.iter().map(|s| s.saturating_add(c.saturating_mul(v))));
            }
            next.sort_unstable();
            next.dedup();
            if next.len() > EXACT_LIMIT {
                return IntSet::range(lo, hi);
            }
            values = next;
        }
        IntSet::from_values(values)
    }

    pub(super) fn lin_bounds(&self, lin: &Lin) -> (i64, i64) {
        let (mut lo, mut hi) = (lin.k as i128, lin.k as i128);
        for &(c, x) in &lin.terms {
            let dom = &self.ints[x].dom;
            let (a, b) = (c as i128 * dom.min().unwrap_or(0) as i128, c as i128 * dom.max().unwrap_or(0) as i128);
            lo += a.min(b);
            hi += a.max(b);
        }
        (lo.clamp(i64::MIN as i128, i64::MAX as i128) as i64, hi.clamp(i64::MIN as i128, i64::MAX as i128) as i64)
    }

    /// Defines an auxiliary variable for a non-linear term (in the hard part).
    fn define(&mut self, e: &IExpr) -> Result<(usize, Vec<Lit>), CompileError> {
        match &e.kind {
            IKind::Sum(..) => {
                let (lin, defs) = self.int_term(e)?;
                let dom = self.narrowed(&lin, self.lin_domain(&lin));
                let z = match self.engine {
                    // A difference of log-encoded variables stays in bits.
                    super::Encoding::Auto | super::Encoding::Eager
                        if dom.len() > 2 && lin.terms.iter().any(|&(_, x)| self.repr(x) == super::Repr::Log) =>
                    {
                        self.new_int(dom, super::Repr::Log)?
                    }
                    _ => self.aux_int(dom)?,
                };
                let mut eq = lin.negated();
                eq.terms.push((1, z));
                self.post_lin(&[], &eq, Rel::Eq)?;
                Ok((z, defs))
            }
            IKind::Mul(a, b) => {
                let (x, mut defs) = self.int_var(a)?;
                let (y, dy) = self.int_var(b)?;
                defs.extend(dy);
                Ok((self.times(x, y)?, defs))
            }
            IKind::Div(a, b) | IKind::Mod(a, b) => {
                let (x, mut defs) = self.int_var(a)?;
                let (y, dy) = self.int_var(b)?;
                defs.extend(dy);
                let is_div = matches!(e.kind, IKind::Div(..));
                let (z, defined) = self.divmod(x, y, is_div)?;
                defs.push(defined);
                Ok((z, defs))
            }
            IKind::Abs(a) => {
                let (x, defs) = self.int_var(a)?;
                Ok((self.abs(x)?, defs))
            }
            IKind::Min(items) | IKind::Max(items) => {
                let mut xs = Vec::new();
                let mut defs = Vec::new();
                for item in items {
                    let (x, d) = self.int_var(item)?;
                    xs.push(x);
                    defs.extend(d);
                }
                Ok((self.extremum(&xs, matches!(e.kind, IKind::Max(_)))?, defs))
            }
            IKind::Element { index, dims, items } => self.element(index, dims, items),
            IKind::Ite(branches, otherwise) => self.int_ite(branches, otherwise),
            IKind::BoolToInt(b) => {
                let l = self.reify(b, Pol::Both)?;
                Ok((self.int_of_lit(l)?, Vec::new()))
            }
            IKind::Const(_) | IKind::Var(_) => self.int_var(e),
        }
    }

    /// `z = |x|`: tabulated over a small domain, else two linear
    /// equations, `z = x` where x ≥ 0 and `z = -x` where not.
    fn abs(&mut self, x: usize) -> Result<usize, CompileError> {
        if self.size(x) <= TABULATED && !self.binary {
            return self.function1(x, |v| Some(v.abs()));
        }
        let dom = &self.ints[x].dom;
        let (lo, hi) = (dom.min().unwrap_or(0), dom.max().unwrap_or(0));
        let top = lo.abs().max(hi.abs());
        let bottom = if lo <= 0 && hi >= 0 { 0 } else { lo.abs().min(hi.abs()) };
        let z = self.aux_int(IntSet::range(bottom, top))?;
        let nonnegative = self.ge(x, 0)?;
        self.post_lin(&[nonnegative], &Lin { terms: vec![(1, z), (-1, x)], k: 0 }, Rel::Eq)?;
        self.post_lin(&[!nonnegative], &Lin { terms: vec![(1, z), (1, x)], k: 0 }, Rel::Eq)?;
        Ok(z)
    }

    /// `z = f(x)`, tabulated: each value of x gives z's value, and each
    /// value of z names the values of x that give it.
    fn function1(&mut self, x: usize, f: impl Fn(i64) -> Option<i64>) -> Result<usize, CompileError> {
        if self.size(x) > TABULATED {
            return Err(CompileError::Internal(format!(
                "a function tabulated over {} values, past the {TABULATED} it takes",
                self.size(x)
            )));
        }
        let values: Vec<i64> = self.ints[x].dom.values().collect();
        let image: Vec<(i64, i64)> = values.iter().filter_map(|&a| f(a).map(|b| (a, b))).collect();
        let z = self.aux_int(IntSet::from_values(image.iter().map(|&(_, b)| b)))?;
        for &(a, b) in &image {
            let mut clause: Vec<Lit> = self.is(x, a)?.into_iter().map(|l| !l).collect();
            clause.push(self.eq(z, b)?);
            self.clause(&clause);
        }
        let outputs: Vec<i64> = self.ints[z].dom.values().collect();
        for c in outputs {
            let mut clause = vec![!self.eq(z, c)?];
            for &(a, b) in &image {
                if b == c {
                    clause.push(self.eq(x, a)?);
                }
            }
            self.clause(&clause);
        }
        Ok(z)
    }

    /// `z = f(x, y)` over all pairs of values, where defined; a pair where
    /// `f` is undefined leaves z free.
    fn function2(&mut self, x: usize, y: usize, f: impl Fn(i64, i64) -> Option<i64>) -> Result<usize, CompileError> {
        let xs: Vec<i64> = self.ints[x].dom.values().collect();
        let ys: Vec<i64> = self.ints[y].dom.values().collect();
        let mut image = Vec::new();
        for &a in &xs {
            for &b in &ys {
                if let Some(c) = f(a, b) {
                    image.push(c);
                }
            }
        }
        if image.is_empty() {
            image.push(0);
        }
        let z = self.aux_int(IntSet::from_values(image))?;
        for &a in &xs {
            let xa = self.is(x, a)?;
            for &b in &ys {
                if let Some(c) = f(a, b) {
                    let mut clause: Vec<Lit> = xa.iter().map(|&l| !l).collect();
                    clause.extend(self.is(y, b)?.into_iter().map(|l| !l));
                    clause.push(self.eq(z, c)?);
                    self.clause(&clause);
                }
            }
        }
        // Back from z: with x = a and z = c, y is one of the values that
        // give c (or leave z undefined); or the same from y's side when y
        // has fewer values, since a clause per (value, output) pair over
        // the larger side is quadratic (1,001 × 2,001 for `a * x` with a
        // in 0..1000 and x in -1..1).
        let outputs: Vec<i64> = self.ints[z].dom.values().collect();
        let (outer, inner, fx) = if xs.len() <= ys.len() { (x, y, false) } else { (y, x, true) };
        let (outer_values, inner_values) = if fx { (&ys, &xs) } else { (&xs, &ys) };
        for &a in outer_values {
            for &c in &outputs {
                let mut clause = vec![!self.eq(z, c)?];
                clause.extend(self.is(outer, a)?.into_iter().map(|l| !l));
                for &b in inner_values {
                    let value = if fx { f(b, a) } else { f(a, b) };
                    if value.is_none_or(|v| v == c) {
                        clause.push(self.eq(inner, b)?);
                    }
                }
                self.clause(&clause);
            }
        }
        Ok(z)
    }

    /// `z = x · y`.
    fn times(&mut self, x: usize, y: usize) -> Result<usize, CompileError> {
        let key = (0, x.min(y), x.max(y));
        if let Some(&z) = self.pair_cache.get(&key) {
            return Ok(z);
        }
        let (sx, sy) = (self.size(x), self.size(y));
        let z = if self.binary {
            self.binary_product(x, y)?
        } else if sx.saturating_mul(sy) <= PAIR_LIMIT {
            self.function2(x, y, |a, b| a.checked_mul(b))?
        } else {
            let (small, big) = if sx <= sy { (x, y) } else { (y, x) };
            // One case per value of the small side costs an adder over the
            // big side's bits for each value when the big side is spelt in
            // bits: past a few dozen values the partial products are far
            // smaller (0..1000 times a 31-bit variable took 2.2 million
            // clauses by cases, about 20,000 by partial products).
            // By cases over order literals is about two clauses per pair of
            // values: 1,001 values times 2,001 made 2.5 million.
            if self.size(small) > ENUM_LIMIT || self.cases_too_wide(small, big) || sx.saturating_mul(sy) > CASES_PAIRS {
                let z = self.binary_product(x, y)?;
                self.pair_cache.insert(key, z);
                return Ok(z);
            }
            let (bl, bh) = (self.ints[big].dom.min().unwrap_or(0), self.ints[big].dom.max().unwrap_or(0));
            let mut lo = i64::MAX;
            let mut hi = i64::MIN;
            let values: Vec<i64> = self.ints[small].dom.values().collect();
            for &a in &values {
                for p in [a.saturating_mul(bl), a.saturating_mul(bh)] {
                    lo = lo.min(p);
                    hi = hi.max(p);
                }
            }
            let z = self.aux_int(IntSet::range(lo, hi))?;
            for &a in &values {
                let guard = self.is(small, a)?;
                let lin = Lin { terms: vec![(1, z), (-a, big)], k: 0 };
                self.post_lin(&guard, &lin, Rel::Eq)?;
            }
            z
        };
        self.pair_cache.insert(key, z);
        Ok(z)
    }

    /// `z = x · y` over wide domains, as one linear equation over the
    /// literals that spell x and y out (`x = x0 + Σ w_i·a_i`, the bits in
    /// the log encoding): `z = x0·y + y0·x - x0·y0 + Σ w_i·v_j·(a_i ∧ b_j)`.
    fn binary_product(&mut self, x: usize, y: usize) -> Result<usize, CompileError> {
        let too_large = || CompileError::TooLarge("a product whose partial products pass ±2^62".to_string());
        let (x, y) = (self.spelt_in_bits(x)?, self.spelt_in_bits(y)?);
        let ((x0, xs), (y0, ys)) = (self.weighted(x), self.weighted(y));
        let pairs = xs.len().saturating_mul(ys.len());
        if pairs > MAX_PARTIAL_PRODUCTS {
            return Err(CompileError::TooLarge(format!(
                "a product of two variables with {} and {} values needs {pairs} partial products in the {} encoding, more than {MAX_PARTIAL_PRODUCTS}; the log encoding (--engine log) needs one per pair of bits",
                self.size(x),
                self.size(y),
                self.engine
            )));
        }
        let bounds =
            |v: usize| (self.ints[v].dom.min().unwrap_or(0) as i128, self.ints[v].dom.max().unwrap_or(0) as i128);
        let ((a0, a1), (b0, b1)) = (bounds(x), bounds(y));
        let corners = [a0 * b0, a0 * b1, a1 * b0, a1 * b1];
        let lo = i64::try_from(corners.iter().min().copied().unwrap_or(0)).map_err(|_| too_large())?;
        let hi = i64::try_from(corners.iter().max().copied().unwrap_or(0)).map_err(|_| too_large())?;
        let z = self.aux_int(IntSet::range(lo, hi))?;
        let k = x0.checked_mul(y0).ok_or_else(too_large)?;
        let mut lin = Lin { terms: vec![(1, z), (-x0, y), (-y0, x)], k };
        for &(w, a) in &xs {
            for &(v, b) in &ys {
                let weight = w.checked_mul(v).filter(|p| p.abs() < 1 << 62).ok_or_else(too_large)?;
                let both = self.and_lit(&[a, b])?;
                let term = self.int_of_lit(both)?;
                lin.terms.push((-weight, term));
            }
        }
        self.post_lin(&[], &lin, Rel::Eq)?;
        Ok(z)
    }

    /// `x`, or its log twin when its own literals are more than its bits
    /// would be, so that a product has the fewest partial products.
    pub(super) fn spelt_in_bits(&mut self, x: usize) -> Result<usize, CompileError> {
        let literals = self.weighted(x).1.len() as u64;
        if literals > 2 * self.bits_of_span(x) + 8 { self.log_view(x) } else { Ok(x) }
    }

    /// How many bits spell the distance from `x`'s least value to its
    /// largest.
    pub(super) fn bits_of_span(&self, x: usize) -> u64 {
        let span = self.ints[x].dom.max().unwrap_or(0).abs_diff(self.ints[x].dom.min().unwrap_or(0));
        u64::from(64 - span.leading_zeros())
    }

    /// `x div y` or `x mod y` (truncating), and the literal "y ≠ 0" that
    /// says it is defined.
    fn divmod(&mut self, x: usize, y: usize, div: bool) -> Result<(usize, Lit), CompileError> {
        let defined = if self.ints[y].dom.contains(0) { !self.eq(y, 0)? } else { self.t() };
        let key = (u8::from(div) + 1, x, y);
        if let Some(&z) = self.pair_cache.get(&key) {
            return Ok((z, defined));
        }
        let op = move |a: i64, b: i64| if div { a.checked_div(b) } else { a.checked_rem(b) };
        let (sx, sy) = (self.size(x), self.size(y));
        let z = if sy == 1 && self.ints[y].dom.contains(0) {
            // Never defined: any value will do.
            self.aux_int(IntSet::range(0, 0))?
        } else if sx.saturating_mul(sy) <= PAIR_LIMIT && !self.binary {
            self.function2(x, y, op)?
        } else if sy == 1 && sx <= TABULATED && !self.binary {
            let b = self.ints[y].dom.min().unwrap_or(1);
            self.function1(x, move |a| op(a, b))?
        } else {
            // x = y·q + r with |r| < |y| and r of x's sign, whenever y ≠ 0.
            let (q, r) = self.divmod_pair(x, y, defined)?;
            self.pair_cache.insert((1, x, y), q);
            self.pair_cache.insert((2, x, y), r);
            if div { q } else { r }
        };
        self.pair_cache.insert(key, z);
        Ok((z, defined))
    }

    fn divmod_pair(&mut self, x: usize, y: usize, defined: Lit) -> Result<(usize, usize), CompileError> {
        let dx = self.ints[x].dom.clone();
        let dy = self.ints[y].dom.clone();
        let (xl, xh) = (dx.min().unwrap_or(0), dx.max().unwrap_or(0));
        let (yl, yh) = (dy.min().unwrap_or(0), dy.max().unwrap_or(0));
        let m = xl.abs().max(xh.abs());
        // |q| ≤ |x| / |y| for the least |y| other than 0.
        let least = if yl > 0 {
            yl
        } else if yh < 0 {
            -yh
        } else {
            1
        };
        let q = self.aux_int(IntSet::range(-(m / least), m / least))?;
        let ym = yl.abs().max(yh.abs()).saturating_sub(1);
        let r =
            self.aux_int(IntSet::range(if xl < 0 { -ym.min(-xl) } else { 0 }, if xh > 0 { ym.min(xh) } else { 0 }))?;
        let t = self.times(y, q)?;
        self.post_lin(&[defined], &Lin { terms: vec![(1, x), (-1, t), (-1, r)], k: 0 }, Rel::Eq)?;
        let ar = self.abs(r)?;
        let ay = self.abs(y)?;
        self.post_lin(&[defined], &Lin { terms: vec![(1, ar), (-1, ay)], k: 1 }, Rel::Le)?;
        let positive = self.ge(x, 1)?;
        self.post_lin(&[defined, positive], &Lin { terms: vec![(-1, r)], k: 0 }, Rel::Le)?;
        let negative = self.le(x, -1)?;
        self.post_lin(&[defined, negative], &Lin { terms: vec![(1, r)], k: 0 }, Rel::Le)?;
        Ok((q, r))
    }

    /// `z = min(xs)` or `z = max(xs)`.
    fn extremum(&mut self, xs: &[usize], max: bool) -> Result<usize, CompileError> {
        let pick = |a: i64, b: i64| if max { a.max(b) } else { a.min(b) };
        let mut union = IntSet::default();
        let (mut lo, mut hi) = (None::<i64>, None::<i64>);
        for &x in xs {
            let dom = &self.ints[x].dom;
            union = union.union(dom);
            let (a, b) = (dom.min().unwrap_or(0), dom.max().unwrap_or(0));
            lo = Some(lo.map_or(a, |l| pick(l, a)));
            hi = Some(hi.map_or(b, |h| pick(h, b)));
        }
        let dom = union.intersect(&IntSet::range(lo.unwrap_or(0), hi.unwrap_or(0)));
        let z = self.aux_int(dom)?;
        let mut choices = Vec::with_capacity(xs.len());
        for &x in xs {
            // max: z ≥ x; min: z ≤ x.
            let sign = if max { -1 } else { 1 };
            self.post_lin(&[], &Lin { terms: vec![(sign, z), (-sign, x)], k: 0 }, Rel::Le)?;
            let chosen = self.new_lit()?;
            self.post_lin(&[chosen], &Lin { terms: vec![(1, z), (-1, x)], k: 0 }, Rel::Eq)?;
            choices.push(chosen);
        }
        self.clause(&choices);
        Ok(z)
    }

    /// The literals whose conjunction says the index variables lie in
    /// their ranges.
    fn in_range(&mut self, index: &[usize], dims: &[(i64, i64)]) -> Result<Vec<Lit>, CompileError> {
        let mut lits = Vec::new();
        for (&i, &(lo, hi)) in index.iter().zip(dims) {
            lits.push(self.ge(i, lo)?);
            lits.push(self.le(i, hi)?);
        }
        Ok(lits)
    }

    /// Each position of an element constraint whose index tuple the index
    /// variables can take, with the literals that select it.
    fn positions(&mut self, index: &[usize], dims: &[(i64, i64)]) -> Result<Vec<(usize, Vec<Lit>)>, CompileError> {
        let mut out = vec![(0usize, Vec::new())];
        for (&i, &(lo, hi)) in index.iter().zip(dims) {
            let width = (hi - lo + 1).max(0) as usize;
            let values: Vec<i64> = self.ints[i].dom.intersect(&IntSet::range(lo, hi)).values().collect();
            if values.len() as u64 * out.len() as u64 > 1_000_000 {
                return Err(CompileError::TooLarge("an element constraint over more than 1,000,000 positions".into()));
            }
            let mut next = Vec::with_capacity(out.len() * values.len());
            for (p, sel) in &out {
                for &v in &values {
                    let mut s = sel.clone();
                    s.extend(self.is(i, v)?);
                    next.push((p * width + (v - lo) as usize, s));
                }
            }
            out = next;
        }
        Ok(out)
    }

    fn index_vars(&mut self, index: &[IExpr]) -> Result<(Vec<usize>, Vec<Lit>), CompileError> {
        let mut vars = Vec::new();
        let mut defs = Vec::new();
        for i in index {
            let (x, d) = self.int_var(i)?;
            vars.push(x);
            defs.extend(d);
        }
        Ok((vars, defs))
    }

    /// `z = items[index]`.
    fn element(
        &mut self,
        index: &[IExpr],
        dims: &[(i64, i64)],
        items: &[IExpr],
    ) -> Result<(usize, Vec<Lit>), CompileError> {
        let (ivars, mut defs) = self.index_vars(index)?;
        let positions = self.positions(&ivars, dims)?;
        let mut terms = Vec::with_capacity(items.len());
        let mut union = IntSet::default();
        let mut partial_items = false;
        for &(p, _) in &positions {
            let (lin, d) = self.int_term(&items[p])?;
            partial_items |= !d.is_empty();
            union = union.union(&self.lin_domain(&lin));
            terms.push((lin, d));
        }
        if union.is_empty() {
            union = IntSet::range(0, 0);
        }
        let z = self.aux_int(union)?;
        let mut taken = Vec::new();
        for ((p, sel), (lin, d)) in positions.iter().zip(&terms) {
            let mut eq = lin.negated();
            eq.terms.push((1, z));
            self.post_lin(sel, &eq, Rel::Eq)?;
            if partial_items {
                let mut all = sel.clone();
                all.extend(d.iter().copied());
                taken.push(self.and_lit(&all)?);
            }
            let _ = p;
        }
        if partial_items {
            defs.push(self.or_lit(&taken)?);
        } else {
            let range = self.in_range(&ivars, dims)?;
            defs.push(self.and_lit(&range)?);
        }
        // Back from z for a 1-D array of constants: z = c only at the indices holding c.
        if ivars.len() == 1 && terms.iter().all(|(lin, _)| lin.terms.is_empty()) {
            let values: Vec<i64> = self.ints[z].dom.values().collect();
            let defined = *defs.last().expect("pushed above");
            for c in values {
                let mut clause = vec![!self.eq(z, c)?, !defined];
                for ((_, sel), (lin, _)) in positions.iter().zip(&terms) {
                    if lin.k == c {
                        clause.push(self.and_lit(sel)?);
                    }
                }
                self.clause(&clause);
            }
        }
        Ok((z, defs))
    }

    /// The literal conjunctions under which each branch is taken.
    fn branch_guards(&mut self, conditions: &[&BExpr]) -> Result<Vec<Vec<Lit>>, CompileError> {
        let mut guards = Vec::with_capacity(conditions.len() + 1);
        let mut earlier: Vec<Lit> = Vec::new();
        for c in conditions {
            let l = self.reify(c, Pol::Both)?;
            let mut g = earlier.clone();
            g.push(l);
            guards.push(g);
            earlier.push(!l);
        }
        guards.push(earlier);
        Ok(guards)
    }

    /// `z = if c1 then v1 ... else v endif`.
    fn int_ite(&mut self, branches: &[(BExpr, IExpr)], otherwise: &IExpr) -> Result<(usize, Vec<Lit>), CompileError> {
        let conditions: Vec<&BExpr> = branches.iter().map(|(c, _)| c).collect();
        let guards = self.branch_guards(&conditions)?;
        let values: Vec<&IExpr> = branches.iter().map(|(_, v)| v).chain([otherwise]).collect();
        let mut terms = Vec::with_capacity(values.len());
        let mut union = IntSet::default();
        for v in &values {
            let (lin, d) = self.int_term(v)?;
            union = union.union(&self.lin_domain(&lin));
            terms.push((lin, d));
        }
        let z = self.aux_int(union)?;
        for (guard, (lin, _)) in guards.iter().zip(&terms) {
            let mut eq = lin.negated();
            eq.terms.push((1, z));
            self.post_lin(guard, &eq, Rel::Eq)?;
        }
        let mut defs = Vec::new();
        if terms.iter().any(|(_, d)| !d.is_empty()) {
            let d = self.new_lit()?;
            for (guard, (_, ds)) in guards.iter().zip(&terms) {
                for &x in ds {
                    let mut clause = negated(guard);
                    clause.extend([!d, x]);
                    self.clause(&clause);
                }
                let mut clause = negated(guard);
                clause.push(d);
                clause.extend(ds.iter().map(|&x| !x));
                self.clause(&clause);
            }
            defs.push(d);
        }
        Ok((z, defs))
    }

    /// A comparison as `lin rel 0` with its definedness.
    fn comparison(&mut self, op: Cmp, a: &IExpr, b: &IExpr) -> Result<(Lin, Rel, Vec<Lit>), CompileError> {
        let (mut lin, mut defs) = self.int_term(a)?;
        let (lb, db) = self.int_term(b)?;
        lin.add_scaled(-1, &lb);
        defs.extend(db);
        let rel = match op {
            Cmp::Eq => Rel::Eq,
            Cmp::Ne => Rel::Ne,
            Cmp::Le => Rel::Le,
            Cmp::Lt => {
                lin.k += 1;
                Rel::Le
            }
        };
        Ok((lin, rel, defs))
    }

    /// Asserts `guard → e` into the current sink.
    pub(super) fn assert(&mut self, guard: &[Lit], e: &BExpr) -> Result<(), CompileError> {
        match e {
            BExpr::Const(true) => Ok(()),
            BExpr::Const(false) => {
                self.clause(&negated(guard));
                Ok(())
            }
            BExpr::Var(_) => {
                let l = self.reify(e, Pol::Pos)?;
                let mut clause = negated(guard);
                clause.push(l);
                self.clause(&clause);
                Ok(())
            }
            BExpr::And(items) => items.iter().try_for_each(|item| self.assert(guard, item)),
            BExpr::Not(inner) => match inner.as_ref() {
                BExpr::Or(items) => items.iter().try_for_each(|item| self.assert(guard, &BExpr::not(item.clone()))),
                BExpr::And(items) => self.assert(guard, &BExpr::or(items.iter().cloned().map(BExpr::not).collect())),
                BExpr::Cmp(op, a, b) if !a.partial && !b.partial => {
                    let flipped = match op {
                        Cmp::Eq => BExpr::Cmp(Cmp::Ne, a.clone(), b.clone()),
                        Cmp::Ne => BExpr::Cmp(Cmp::Eq, a.clone(), b.clone()),
                        Cmp::Lt => BExpr::Cmp(Cmp::Le, b.clone(), a.clone()),
                        Cmp::Le => BExpr::Cmp(Cmp::Lt, b.clone(), a.clone()),
                    };
                    self.assert(guard, &flipped)
                }
                _ => {
                    let l = self.reify(inner, Pol::Neg)?;
                    let mut clause = negated(guard);
                    clause.push(!l);
                    self.clause(&clause);
                    Ok(())
                }
            },
            BExpr::Or(items) => self.assert_or(guard, items),
            BExpr::Iff(a, b) | BExpr::Xor(a, b) => {
                let la = self.reify(a, Pol::Both)?;
                let mut lb = self.reify(b, Pol::Both)?;
                if matches!(e, BExpr::Xor(..)) {
                    lb = !lb;
                }
                let mut c1 = negated(guard);
                c1.extend([!la, lb]);
                self.clause(&c1);
                let mut c2 = negated(guard);
                c2.extend([la, !lb]);
                self.clause(&c2);
                Ok(())
            }
            BExpr::Cmp(op, a, b) => {
                let (lin, rel, defs) = self.comparison(*op, a, b)?;
                for d in defs {
                    let mut clause = negated(guard);
                    clause.push(d);
                    self.clause(&clause);
                }
                self.post_lin(guard, &lin, rel)
            }
            BExpr::In(a, set) => self.assert_in(guard, a, set),
            BExpr::AllDifferent(items) if guard.iter().all(|&g| g == self.t()) => self.all_different(items),
            BExpr::Grid(id) => self.grid(*id, guard),
            BExpr::Table(items, rows) => self.table(guard, items, rows),
            _ => {
                let l = self.reify(e, Pol::Pos)?;
                let mut clause = negated(guard);
                clause.push(l);
                self.clause(&clause);
                Ok(())
            }
        }
    }

    /// Asserts `guard → (items[0] ∨ items[1] ∨ ...)`: with at most one
    /// item that is not a literal, the literals join the guard and that
    /// item is asserted under it (no new variable); otherwise one clause of
    /// the items' literals.
    fn assert_or(&mut self, guard: &[Lit], items: &[BExpr]) -> Result<(), CompileError> {
        let literal_like = |b: &BExpr| match b {
            BExpr::Var(_) => true,
            BExpr::Not(inner) => matches!(inner.as_ref(), BExpr::Var(_)),
            _ => false,
        };
        let complex: Vec<&BExpr> = items.iter().filter(|b| !literal_like(b)).collect();
        // A grid global under a guard (`b -> grid_connected(on)`): the
        // other items, whatever they are, join the guard.
        if let Some(grid) = items.iter().find(|b| matches!(b, BExpr::Grid(_))) {
            let mut extended = guard.to_vec();
            for item in items.iter().filter(|b| !matches!(b, BExpr::Grid(_))) {
                let l = self.reify(item, Pol::Pos)?;
                extended.push(!l);
            }
            return self.assert(&extended, grid);
        }
        if complex.len() <= 1 {
            let mut extended = guard.to_vec();
            for item in items.iter().filter(|b| literal_like(b)) {
                let l = self.reify(item, Pol::Pos)?;
                extended.push(!l);
            }
            return match complex.first() {
                Some(item) => self.assert(&extended, item),
                None => {
                    self.clause(&negated(&extended));
                    Ok(())
                }
            };
        }
        let mut clause = negated(guard);
        for item in items {
            clause.push(self.reify(item, Pol::Pos)?);
        }
        self.clause(&clause);
        Ok(())
    }

    /// Asserts `guard → a ∈ set`: the gaps of the set within a's domain
    /// are ruled out, one clause per gap.
    fn assert_in(&mut self, guard: &[Lit], a: &IExpr, set: &IntSet) -> Result<(), CompileError> {
        let (x, defs) = self.int_var(a)?;
        for d in defs {
            let mut clause = negated(guard);
            clause.push(d);
            self.clause(&clause);
        }
        let dom = self.ints[x].dom.clone();
        let (lo, hi) = (dom.min().unwrap_or(0), dom.max().unwrap_or(0));
        let outside = IntSet::range(lo, hi).intersect(&complement(set, lo, hi));
        for &(p, q) in outside.intervals() {
            // Skip parts of the gap the domain does not reach.
            let (Some(p), Some(q)) = (dom.ceil(p), dom.floor(q)) else { continue };
            if p > q {
                continue;
            }
            let mut clause = negated(guard);
            clause.push(!self.ge(x, p)?);
            clause.push(self.ge(x, q + 1)?);
            self.clause(&clause);
        }
        Ok(())
    }

    /// All different, as at-most-one per value over the "x = v" literals,
    /// and at-least-one per value when there are as many values as variables.
    fn all_different(&mut self, items: &[IExpr]) -> Result<(), CompileError> {
        let mut xs = Vec::with_capacity(items.len());
        for item in items {
            let (x, defs) = self.int_var(item)?;
            for d in defs {
                self.clause(&[d]);
            }
            xs.push(x);
        }
        let mut union = IntSet::default();
        for &x in &xs {
            union = union.union(&self.ints[x].dom);
        }
        if (xs.len() as u64) > union.len() {
            self.clause(&[]);
            return Ok(());
        }
        if union.len() > 4096 {
            for i in 0..xs.len() {
                for j in i + 1..xs.len() {
                    self.post_lin(&[], &Lin { terms: vec![(1, xs[i]), (-1, xs[j])], k: 0 }, Rel::Ne)?;
                }
            }
            return Ok(());
        }
        let permutation = xs.len() as u64 == union.len();
        for v in union.values() {
            let mut lits = Vec::new();
            for &x in &xs {
                if self.ints[x].dom.contains(v) {
                    lits.push(self.eq(x, v)?);
                }
            }
            self.at_most(&[], &lits, 1)?;
            if permutation {
                self.clause(&lits);
            }
        }
        Ok(())
    }

    /// `guard → the values form one of the rows`.
    fn table(&mut self, guard: &[Lit], items: &[IExpr], rows: &[Vec<i64>]) -> Result<(), CompileError> {
        let mut xs = Vec::with_capacity(items.len());
        for item in items {
            let (x, defs) = self.int_var(item)?;
            for d in defs {
                let mut clause = negated(guard);
                clause.push(d);
                self.clause(&clause);
            }
            xs.push(x);
        }
        let rows: Vec<&Vec<i64>> =
            rows.iter().filter(|row| row.iter().zip(&xs).all(|(&v, &x)| self.ints[x].dom.contains(v))).collect();
        let mut selectors = Vec::with_capacity(rows.len());
        for row in &rows {
            let s = self.new_lit()?;
            for (&v, &x) in row.iter().zip(&xs) {
                let eq = self.eq(x, v)?;
                self.hard(|enc| enc.clause(&[!s, eq]));
            }
            selectors.push(s);
        }
        let mut clause = negated(guard);
        clause.extend(selectors.iter().copied());
        self.clause(&clause);
        // Support: a value of one variable needs a row that has it there.
        for (i, &x) in xs.iter().enumerate() {
            let values: Vec<i64> = self.ints[x].dom.values().collect();
            if values.len() as u64 > ENUM_LIMIT {
                continue;
            }
            for v in values {
                let mut clause = negated(guard);
                clause.push(!self.eq(x, v)?);
                clause.extend(rows.iter().zip(&selectors).filter(|(row, _)| row[i] == v).map(|(_, &s)| s));
                self.clause(&clause);
            }
        }
        Ok(())
    }

    /// A literal tied to `e` with the given polarity, defined in the hard part.
    pub(super) fn reify(&mut self, e: &BExpr, pol: Pol) -> Result<Lit, CompileError> {
        match e {
            BExpr::Const(b) => return Ok(self.constant(*b)),
            BExpr::Var(id) => {
                return self.scalar_lits[*id]
                    .ok_or_else(|| CompileError::Internal("a Boolean scalar without a literal".into()));
            }
            BExpr::Not(inner) => return Ok(!self.reify(inner, pol.flip())?),
            _ => {}
        }
        // One hash for every polarity, so that a literal tied both ways
        // is found without hashing the expression again.
        let hash = memo::hash_of(e);
        let cached = |p: Pol| move |(k, kp): &(BExpr, Pol)| *kp == p && k == e;
        if let Some(&l) = self.reify_cache.find(hash, cached(pol)) {
            return Ok(l);
        }
        if pol != Pol::Both
            && let Some(&l) = self.reify_cache.find(hash, cached(Pol::Both))
        {
            return Ok(l);
        }
        let l = self.hard(|enc| enc.reify_new(e, pol))?;
        self.reify_cache.insert(hash, (e.clone(), pol), l);
        Ok(l)
    }

    fn reify_new(&mut self, e: &BExpr, pol: Pol) -> Result<Lit, CompileError> {
        match e {
            BExpr::And(items) | BExpr::Or(items) => {
                let and = matches!(e, BExpr::And(_));
                let children: Vec<Lit> = items.iter().map(|item| self.reify(item, pol)).collect::<Result<_, _>>()?;
                let l = self.new_lit()?;
                // For a disjunction, work on the negations: ¬l ⇔ ∧ ¬child.
                let (out, ins): (Lit, Vec<Lit>) =
                    if and { (l, children) } else { (!l, children.iter().map(|&c| !c).collect()) };
                let (down, up) = if and { (pol.pos(), pol.neg()) } else { (pol.neg(), pol.pos()) };
                if down {
                    for &c in &ins {
                        self.clause(&[!out, c]);
                    }
                }
                if up {
                    let mut clause: Vec<Lit> = ins.iter().map(|&c| !c).collect();
                    clause.push(out);
                    self.clause(&clause);
                }
                Ok(l)
            }
            BExpr::Iff(a, b) | BExpr::Xor(a, b) => {
                let la = self.reify(a, Pol::Both)?;
                let mut lb = self.reify(b, Pol::Both)?;
                if matches!(e, BExpr::Xor(..)) {
                    lb = !lb;
                }
                let l = self.new_lit()?;
                if pol.pos() {
                    self.clause(&[!l, !la, lb]);
                    self.clause(&[!l, la, !lb]);
                }
                if pol.neg() {
                    self.clause(&[l, la, lb]);
                    self.clause(&[l, !la, !lb]);
                }
                Ok(l)
            }
            BExpr::Cmp(op, a, b) => self.reify_cmp(*op, a, b, pol),
            BExpr::In(a, set) => {
                let (x, mut defs) = self.int_var(a)?;
                let dom = self.ints[x].dom.clone();
                let inside = dom.intersect(set);
                let mut parts = Vec::new();
                for &(p, q) in IntSet::range(dom.min().unwrap_or(0), dom.max().unwrap_or(0)).intersect(set).intervals()
                {
                    let (Some(p), Some(q)) = (inside.ceil(p), inside.floor(q)) else { continue };
                    if p > q {
                        continue;
                    }
                    let lo = self.ge(x, p)?;
                    let hi = self.le(x, q)?;
                    parts.push(self.and_lit(&[lo, hi])?);
                }
                let member = self.or_lit(&parts)?;
                defs.push(member);
                self.and_lit(&defs)
            }
            BExpr::AllDifferent(items) => {
                let mut pairs = Vec::new();
                for i in 0..items.len() {
                    for j in i + 1..items.len() {
                        pairs.push(BExpr::Cmp(Cmp::Ne, items[i].clone(), items[j].clone()));
                    }
                }
                self.reify(&BExpr::and(pairs), pol)
            }
            BExpr::Table(items, rows) => {
                let mut xs = Vec::with_capacity(items.len());
                let mut defs = Vec::new();
                for item in items {
                    let (x, d) = self.int_var(item)?;
                    xs.push(x);
                    defs.extend(d);
                }
                let mut selectors = Vec::new();
                for row in rows {
                    let mut eqs = Vec::with_capacity(row.len());
                    for (&v, &x) in row.iter().zip(&xs) {
                        eqs.push(self.eq(x, v)?);
                    }
                    selectors.push(self.and_lit(&eqs)?);
                }
                let any = self.or_lit(&selectors)?;
                defs.push(any);
                self.and_lit(&defs)
            }
            BExpr::Element { index, dims, items } => self.reify_element(index, dims, items, pol),
            BExpr::Ite(branches, otherwise) => self.reify_ite(branches, otherwise, pol),
            BExpr::Const(_) | BExpr::Var(_) | BExpr::Not(_) => self.reify(e, pol),
            BExpr::Grid(_) => Err(CompileError::Internal("a grid global under a condition".into())),
        }
    }

    /// A literal for a comparison: the variable's own order or value
    /// literal when one variable is compared with a constant, or else a
    /// new literal with the linear constraint posted each way `pol` asks.
    fn reify_cmp(&mut self, op: Cmp, a: &IExpr, b: &IExpr, pol: Pol) -> Result<Lit, CompileError> {
        let (lin, rel, defs) = self.comparison(op, a, b)?;
        if defs.is_empty() {
            let distinct: std::collections::BTreeSet<usize> =
                lin.terms.iter().filter(|&&(c, x)| c != 0 && self.size(x) > 1).map(|&(_, x)| x).collect();
            if distinct.len() == 1 {
                // One variable: the encoding's own literal.
                let x = *distinct.iter().next().expect("one variable");
                let mut c = 0i128;
                let mut k = lin.k as i128;
                for &(d, y) in &lin.terms {
                    if y == x {
                        c += d as i128;
                    } else {
                        k += d as i128 * self.ints[y].dom.min().unwrap_or(0) as i128;
                    }
                }
                if c != 0 {
                    return self.unary(c, x, k, rel);
                }
            }
        }
        let l = self.new_lit()?;
        if pol.pos() {
            for &d in &defs {
                self.clause(&[!l, d]);
            }
            self.post_lin(&[l], &lin, rel)?;
        }
        if pol.neg() {
            let mut guard = vec![!l];
            guard.extend(defs.iter().copied());
            let (opposite, orel) = match rel {
                Rel::Le => {
                    let mut o = lin.negated();
                    o.k += 1;
                    (o, Rel::Le)
                }
                Rel::Eq => (lin.clone(), Rel::Ne),
                Rel::Ne => (lin.clone(), Rel::Eq),
            };
            self.post_lin(&guard, &opposite, orel)?;
        }
        Ok(l)
    }

    /// A literal for an element of an array of Boolean expressions, at an
    /// index over variables.
    fn reify_element(
        &mut self,
        index: &[IExpr],
        dims: &[(i64, i64)],
        items: &[BExpr],
        pol: Pol,
    ) -> Result<Lit, CompileError> {
        let (ivars, defs) = self.index_vars(index)?;
        let positions = self.positions(&ivars, dims)?;
        let range = self.in_range(&ivars, dims)?;
        let l = self.new_lit()?;
        if pol.pos() {
            for &d in defs.iter().chain(&range) {
                self.clause(&[!l, d]);
            }
        }
        for (p, sel) in &positions {
            let item = self.reify(&items[*p], pol)?;
            if pol.pos() {
                let mut clause = negated(sel);
                clause.extend([!l, item]);
                self.clause(&clause);
            }
            if pol.neg() {
                let mut clause = negated(sel);
                clause.extend(defs.iter().map(|&d| !d));
                clause.extend([l, !item]);
                self.clause(&clause);
            }
        }
        Ok(l)
    }

    /// A literal for an if-then-else over Boolean values.
    fn reify_ite(&mut self, branches: &[(BExpr, BExpr)], otherwise: &BExpr, pol: Pol) -> Result<Lit, CompileError> {
        let conditions: Vec<&BExpr> = branches.iter().map(|(c, _)| c).collect();
        let guards = self.branch_guards(&conditions)?;
        let values: Vec<&BExpr> = branches.iter().map(|(_, v)| v).chain([otherwise]).collect();
        let l = self.new_lit()?;
        for (guard, value) in guards.iter().zip(values) {
            let v = self.reify(value, pol)?;
            if pol.pos() {
                let mut clause = negated(guard);
                clause.extend([!l, v]);
                self.clause(&clause);
            }
            if pol.neg() {
                let mut clause = negated(guard);
                clause.extend([l, !v]);
                self.clause(&clause);
            }
        }
        Ok(l)
    }
}

/// The integers in `lo..=hi` outside `set`.
fn complement(set: &IntSet, lo: i64, hi: i64) -> IntSet {
    let mut gaps = Vec::new();
    let mut next = lo;
    for &(a, b) in set.intervals() {
        if a > next {
            gaps.push((next, (a - 1).min(hi)));
        }
        next = next.max(b.saturating_add(1));
    }
    if next <= hi {
        gaps.push((next, hi));
    }
    let mut out = IntSet::default();
    for (a, b) in gaps {
        if a <= b {
            out = out.union(&IntSet::range(a, b));
        }
    }
    out
}

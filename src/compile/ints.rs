//! The three integer encodings and the literals each gives for "x = v",
//! "x ≥ v" and "x is v".

use super::CompileError;
use super::Encoder;
use crate::cnf::Lit;
use crate::lang::model::IntSet;

/// How an integer variable is spelled out in literals.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Repr {
    /// A single value: no literals.
    Const,
    /// One literal per value, exactly one true.
    Direct,
    /// One literal per "x ≥ v" above the least value, each implying the
    /// one below.
    Order,
    /// The binary digits of x minus its least value, or, when the domain
    /// holds negative and non-negative values, x in two's complement.
    Log,
}

pub(super) enum Kind {
    Const(i64),
    /// `eq[k]` ⇔ x = values[k].
    Direct(Vec<Lit>),
    /// `ge[k - 1]` ⇔ x ≥ values[k], for k ≥ 1.
    Order(Vec<Lit>),
    /// x = lo + Σ 2^i bits[i]. A domain that holds negative and
    /// non-negative values takes lo = -2^(n-1) over n bits, the top one
    /// the negation of a sign literal: that is x in two's complement, zero
    /// when every variable is false.
    Log {
        lo: i64,
        bits: Vec<Lit>,
    },
}

pub(super) struct IntVar {
    pub dom: IntSet,
    /// The values, for every kind but log.
    pub values: Vec<i64>,
    pub kind: Kind,
    /// For a direct variable, "x ≥ values[k]" for k ≥ 1, once asked for.
    pub ladder: Option<Vec<Lit>>,
}

fn bits_for(span: u64) -> usize {
    (64 - span.leading_zeros()) as usize
}

/// The `lo` and the number of bits of a log variable over `min..=max`:
/// offset binary from `min` when the domain has one sign, else two's
/// complement, whose products need no correction by `min` (a sum of
/// products of variables over -1000..1000 that is 7, by the offset form's
/// `-1000·y + …`, was beyond varisat and CaDiCaL in minutes).
fn log_layout(min: i64, max: i64) -> (i64, usize) {
    if min >= 0 || max < 0 {
        return (min, bits_for(max.abs_diff(min)));
    }
    // The fewest n with -2^(n-1) ≤ min and max < 2^(n-1).
    let magnitude = max.max(-(min + 1)) as u64;
    let width = bits_for(magnitude) + 1;
    (-(1i64 << (width - 1)), width)
}

impl IntVar {
    /// The literals that decide the value, and whether exactly one of them
    /// is true in every model.
    pub fn defining_lits(&self) -> (Vec<Lit>, bool) {
        match &self.kind {
            Kind::Const(_) => (Vec::new(), true),
            Kind::Direct(eq) => (eq.clone(), true),
            Kind::Order(ge) => (ge.clone(), false),
            Kind::Log { bits, .. } => (bits.clone(), false),
        }
    }

    /// The value in a model, or why the literals spell none.
    pub fn decode(&self, value: &dyn Fn(Lit) -> bool) -> Result<i64, String> {
        match &self.kind {
            Kind::Const(v) => Ok(*v),
            Kind::Direct(eq) => {
                let set: Vec<usize> = (0..eq.len()).filter(|&k| value(eq[k])).collect();
                match set[..] {
                    [k] => Ok(self.values[k]),
                    _ => Err(format!("{} of its value literals are true", set.len())),
                }
            }
            Kind::Order(ge) => {
                let count = ge.iter().take_while(|&&l| value(l)).count();
                if ge[count..].iter().any(|&l| value(l)) {
                    return Err("its order literals are not a ladder".to_string());
                }
                Ok(self.values[count])
            }
            Kind::Log { lo, bits } => {
                let offset: i64 = bits.iter().enumerate().filter(|(_, l)| value(**l)).map(|(i, _)| 1i64 << i).sum();
                let v = lo + offset;
                if self.dom.contains(v) { Ok(v) } else { Err(format!("its bits spell {v}, outside its domain")) }
            }
        }
    }

    fn index(&self, v: i64) -> Option<usize> {
        self.values.binary_search(&v).ok()
    }
}

impl Encoder {
    /// A new integer variable over `dom` (not empty) spelled out as `repr`.
    pub(super) fn new_int(&mut self, dom: IntSet, repr: super::Repr) -> Result<usize, CompileError> {
        let size = dom.len();
        let repr = if size <= 1 { Repr::Const } else { repr };
        let values: Vec<i64> = if repr == Repr::Log { Vec::new() } else { dom.values().collect() };
        let kind = match repr {
            Repr::Const => Kind::Const(dom.min().unwrap_or(0)),
            Repr::Direct => {
                let eq: Vec<Lit> = (0..values.len()).map(|_| self.new_lit()).collect::<Result<_, _>>()?;
                self.hard(|enc| -> Result<(), CompileError> {
                    enc.clause(&eq);
                    enc.at_most_one(&eq)
                })?;
                Kind::Direct(eq)
            }
            Repr::Order => {
                let ge: Vec<Lit> = (1..values.len()).map(|_| self.new_lit()).collect::<Result<_, _>>()?;
                self.hard(|enc| {
                    for w in ge.windows(2) {
                        enc.clause(&[!w[1], w[0]]);
                    }
                });
                Kind::Order(ge)
            }
            Repr::Log => {
                let (lo, width) = log_layout(dom.min().unwrap_or(0), dom.max().unwrap_or(0));
                let span = (dom.max().unwrap_or(0) - lo) as u64;
                let mut bits: Vec<Lit> = (0..width).map(|_| self.new_lit()).collect::<Result<_, _>>()?;
                if lo < 0 && dom.max().unwrap_or(0) >= 0 {
                    let sign = bits.pop().expect("two's complement has a sign bit");
                    bits.push(!sign);
                }
                self.hard(|enc| {
                    // x - lo ≤ span: a bit set where span has 0 needs a higher
                    // bit clear where span has 1.
                    for i in 0..bits.len() {
                        if span >> i & 1 == 0 {
                            let mut clause = vec![!bits[i]];
                            clause.extend((i + 1..bits.len()).filter(|&j| span >> j & 1 == 1).map(|j| !bits[j]));
                            enc.clause(&clause);
                        }
                    }
                });
                Kind::Log { lo, bits }
            }
        };
        let x = self.ints.len();
        self.ints.push(IntVar { dom: dom.clone(), values, kind, ladder: None });
        if repr == Repr::Log {
            // Two's complement reaches below the least value.
            let least = self.log_ge(x, dom.min().unwrap_or(0))?;
            self.hard(|enc| enc.clause(&[least]));
            // Forbid the holes: single values by their bit pattern, wider
            // gaps by two comparisons.
            let gaps: Vec<(i64, i64)> = dom.intervals().windows(2).map(|w| (w[0].1 + 1, w[1].0 - 1)).collect();
            for (a, b) in gaps {
                let outside: Vec<Lit> = if a == b {
                    self.log_pattern(x, a).into_iter().map(|l| !l).collect()
                } else {
                    let below = !self.log_ge(x, a)?;
                    let above = self.log_ge(x, b + 1)?;
                    vec![below, above]
                };
                self.hard(|enc| enc.clause(&outside));
            }
        }
        Ok(x)
    }

    /// Names the variable's literals for DIMACS comments.
    pub(super) fn name_int(&mut self, x: usize, name: &str) {
        let var = &self.ints[x];
        let named: Vec<(crate::cnf::Var, String)> = match &var.kind {
            Kind::Const(_) => Vec::new(),
            Kind::Direct(eq) => eq.iter().zip(&var.values).map(|(l, v)| (l.var(), format!("{name} = {v}"))).collect(),
            Kind::Order(ge) => {
                ge.iter().zip(&var.values[1..]).map(|(l, v)| (l.var(), format!("{name} >= {v}"))).collect()
            }
            Kind::Log { lo, bits } => bits
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let what = if l.is_positive() { "bit" } else { "sign, the negation of bit" };
                    (l.var(), format!("{name} {what} {i} (value {lo} + bits)"))
                })
                .collect(),
        };
        self.names.extend(named);
    }

    /// The bit literals whose conjunction says x = v (v in range).
    fn log_pattern(&self, x: usize, v: i64) -> Vec<Lit> {
        let Kind::Log { lo, bits } = &self.ints[x].kind else { return Vec::new() };
        let offset = (v - lo) as u64;
        bits.iter().enumerate().map(|(i, &b)| if offset >> i & 1 == 1 { b } else { !b }).collect()
    }

    /// "x ≥ v" for a log variable, by a chain from the lowest bit up:
    /// the bits up to i reach v's bits up to i.
    fn log_ge(&mut self, x: usize, v: i64) -> Result<Lit, CompileError> {
        if let Some(&l) = self.ge_cache.get(&(x, v)) {
            return Ok(l);
        }
        let Kind::Log { lo, bits } = &self.ints[x].kind else {
            return Err(CompileError::Internal("log_ge of a non-log variable".into()));
        };
        let (lo, bits) = (*lo, bits.clone());
        let c = (v - lo) as u64;
        if c == 0 {
            return Ok(self.t());
        }
        if bits.len() < 64 && c >> bits.len() != 0 {
            return Ok(self.f());
        }
        let mut g = self.t();
        for (i, &b) in bits.iter().enumerate() {
            g = if c >> i & 1 == 1 { self.and_lit(&[b, g])? } else { self.or_lit(&[b, g])? };
        }
        self.ge_cache.insert((x, v), g);
        Ok(g)
    }

    /// The literal for "x = v".
    pub(super) fn eq(&mut self, x: usize, v: i64) -> Result<Lit, CompileError> {
        let var = &self.ints[x];
        if !var.dom.contains(v) {
            return Ok(self.f());
        }
        match &var.kind {
            Kind::Const(_) => return Ok(self.t()),
            Kind::Direct(eq) => return Ok(eq[var.index(v).expect("in the domain")]),
            _ => {}
        }
        if let Some(&l) = self.eq_cache.get(&(x, v)) {
            return Ok(l);
        }
        let parts = self.is(x, v)?;
        let l = self.and_lit(&parts)?;
        self.eq_cache.insert((x, v), l);
        Ok(l)
    }

    /// The literals whose conjunction says "x = v", without auxiliary
    /// variables where the encoding allows it.
    pub(super) fn is(&mut self, x: usize, v: i64) -> Result<Vec<Lit>, CompileError> {
        let var = &self.ints[x];
        if !var.dom.contains(v) {
            return Ok(vec![self.f()]);
        }
        match &var.kind {
            Kind::Const(_) => Ok(Vec::new()),
            Kind::Direct(eq) => Ok(vec![eq[var.index(v).expect("in the domain")]]),
            Kind::Order(ge) => {
                let k = var.index(v).expect("in the domain");
                let mut parts = Vec::with_capacity(2);
                if k > 0 {
                    parts.push(ge[k - 1]);
                }
                if k < ge.len() {
                    parts.push(!ge[k]);
                }
                Ok(parts)
            }
            Kind::Log { .. } => Ok(self.log_pattern(x, v)),
        }
    }

    /// The literal for "x ≥ v".
    pub(super) fn ge(&mut self, x: usize, v: i64) -> Result<Lit, CompileError> {
        let var = &self.ints[x];
        let (Some(min), Some(max)) = (var.dom.min(), var.dom.max()) else { return Ok(self.f()) };
        if v <= min {
            return Ok(self.t());
        }
        if v > max {
            return Ok(self.f());
        }
        let v = var.dom.ceil(v).expect("below the maximum");
        match &var.kind {
            Kind::Const(_) => Ok(self.t()),
            Kind::Order(ge) => Ok(ge[var.index(v).expect("in the domain") - 1]),
            Kind::Log { .. } => self.log_ge(x, v),
            Kind::Direct(eq) => {
                let k = var.index(v).expect("in the domain");
                if let Some(ladder) = &var.ladder {
                    return Ok(ladder[k - 1]);
                }
                let eq = eq.clone();
                // The whole ladder at once: ge[k] ⇔ eq[k] ∨ ge[k + 1].
                let ladder: Vec<Lit> = (1..eq.len()).map(|_| self.new_lit()).collect::<Result<_, _>>()?;
                self.hard(|enc| {
                    for j in 1..eq.len() {
                        let g = ladder[j - 1];
                        let next = ladder.get(j).copied();
                        enc.clause(&[!eq[j], g]);
                        match next {
                            Some(n) => {
                                enc.clause(&[!n, g]);
                                enc.clause(&[!g, eq[j], n]);
                            }
                            None => enc.clause(&[!g, eq[j]]),
                        }
                    }
                });
                let l = ladder[k - 1];
                self.ints[x].ladder = Some(ladder);
                Ok(l)
            }
        }
    }

    /// The literal for "x ≤ v".
    pub(super) fn le(&mut self, x: usize, v: i64) -> Result<Lit, CompileError> {
        match v.checked_add(1) {
            Some(next) => Ok(!self.ge(x, next)?),
            None => Ok(self.t()),
        }
    }

    /// The representation of a variable.
    pub(super) fn repr(&self, x: usize) -> Repr {
        match self.ints[x].kind {
            Kind::Const(_) => Repr::Const,
            Kind::Direct(_) => Repr::Direct,
            Kind::Order(_) => Repr::Order,
            Kind::Log { .. } => Repr::Log,
        }
    }

    /// A log-encoded variable equal to `x`, for arithmetic over bits: `x`
    /// itself when it is log-encoded, else a twin whose digits each value
    /// of `x` implies. That direction alone makes them equal, since `x`
    /// takes exactly one value. A product of a unary variable with many
    /// values spelt out as thousands of order literals times a wide
    /// variable's bits is what this avoids.
    pub(super) fn log_view(&mut self, x: usize) -> Result<usize, CompileError> {
        if matches!(self.repr(x), Repr::Log | Repr::Const) {
            return Ok(x);
        }
        if let Some(&twin) = self.log_views.get(&x) {
            return Ok(twin);
        }
        let dom = self.ints[x].dom.clone();
        let twin = self.new_int(IntSet::range(dom.min().unwrap_or(0), dom.max().unwrap_or(0)), Repr::Log)?;
        for v in dom.values() {
            let at_v: Vec<Lit> = self.is(x, v)?;
            let pattern = self.log_pattern(twin, v);
            self.hard(|enc| {
                for &bit in &pattern {
                    let mut clause: Vec<Lit> = at_v.iter().map(|&l| !l).collect();
                    clause.push(bit);
                    enc.clause(&clause);
                }
            });
        }
        self.log_views.insert(x, twin);
        Ok(twin)
    }

    /// The variable as `offset + Σ w·l` over its own literals.
    pub(super) fn weighted(&self, x: usize) -> super::linear::Spelt {
        let var = &self.ints[x];
        match &var.kind {
            Kind::Const(v) => (*v, Vec::new()),
            Kind::Direct(eq) => {
                let base = var.values[0];
                (base, eq.iter().zip(&var.values).skip(1).map(|(&l, &v)| (v - base, l)).collect())
            }
            Kind::Order(ge) => {
                (var.values[0], ge.iter().zip(var.values.windows(2)).map(|(&l, w)| (w[1] - w[0], l)).collect())
            }
            Kind::Log { lo, bits } => {
                let mut spelt: Vec<(i64, Lit)> = bits.iter().enumerate().map(|(i, &l)| (1i64 << i, l)).collect();
                // 2^(n-1)·top = 2^(n-1) - 2^(n-1)·¬top: two's complement,
                // whose products with other variables need no correction.
                match spelt.last_mut() {
                    Some((w, top)) if *lo < 0 && *lo + *w == 0 => {
                        (*w, *top) = (-*w, !*top);
                        (0, spelt)
                    }
                    _ => (*lo, spelt),
                }
            }
        }
    }

    /// The integer variable that is 1 when `l` holds and 0 otherwise.
    pub(super) fn int_of_lit(&mut self, l: Lit) -> Result<usize, CompileError> {
        if let Some(&x) = self.lit_ints.get(&l) {
            return Ok(x);
        }
        let x = self.ints.len();
        let kind = if l == self.t() {
            Kind::Const(1)
        } else if l == self.f() {
            Kind::Const(0)
        } else {
            Kind::Order(vec![l])
        };
        let dom = match kind {
            Kind::Const(v) => IntSet::range(v, v),
            _ => IntSet::range(0, 1),
        };
        let values = dom.values().collect();
        self.ints.push(IntVar { dom, values, kind, ladder: None });
        self.lit_ints.insert(l, x);
        Ok(x)
    }

    /// The number of values of a variable.
    pub(super) fn size(&self, x: usize) -> u64 {
        self.ints[x].dom.len()
    }
}

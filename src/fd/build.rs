//! From the unrolled program to variables and propagators: the model's
//! scalars first (variable `s` is scalar `s`), then one auxiliary
//! variable per sub-expression that a propagator needs as a variable (a
//! difference inside an alldifferent, a reified comparison, an element),
//! each defined by a propagator of its own, so that fixing the scalars
//! fixes them. What has no propagator here is outside the fragment, and
//! the model goes to the SAT engines.

use std::collections::HashMap;

use super::props::Prop;
use super::store::{MAX_SPAN, Store, Var};
use crate::lang::ir::{BExpr, Cmp, IExpr, IKind};
use crate::lang::model::IntSet;

/// A linear form: `Σ c·x + k`.
pub(crate) type Linear = (Vec<(i64, Var)>, i64);

/// Why a model is outside the engine's fragment.
pub(crate) type Outside = String;

/// The variables and propagators built so far.
pub(crate) struct Builder {
    pub domains: Vec<IntSet>,
    pub props: Vec<Prop>,
    /// A constraint that is false whatever the values.
    pub infeasible: bool,
    ints: HashMap<IExpr, Var>,
    bools: HashMap<BExpr, Var>,
}

fn describe(what: &str) -> Outside {
    format!("the fd engine has no propagator for {what}")
}

impl Builder {
    /// A builder whose first variables are the scalars over `domains`.
    pub fn new(domains: Vec<IntSet>) -> Builder {
        Builder { domains, props: Vec::new(), infeasible: false, ints: HashMap::new(), bools: HashMap::new() }
    }

    /// The store of every variable's domain; `None` when one is empty.
    pub fn store(&self) -> Option<Store> {
        let mut store = Store::default();
        for set in &self.domains {
            if set.is_empty() {
                return None;
            }
            store.add(set);
        }
        Some(store)
    }

    fn new_var(&mut self, set: IntSet) -> Result<Var, Outside> {
        let (lo, hi) = (set.min().unwrap_or(0), set.max().unwrap_or(0));
        if (hi as i128 - lo as i128) >= MAX_SPAN as i128 {
            return Err(format!("the fd engine takes domains of at most {MAX_SPAN} values, not {lo}..{hi}"));
        }
        self.domains.push(set);
        Ok(self.domains.len() - 1)
    }

    fn restrict(&mut self, x: Var, set: &IntSet) {
        self.domains[x] = self.domains[x].intersect(set);
        self.infeasible |= self.domains[x].is_empty();
    }

    /// Posts a constraint that must hold.
    pub fn post(&mut self, b: &BExpr) -> Result<(), Outside> {
        match b {
            BExpr::Const(true) => {}
            BExpr::Const(false) => self.infeasible = true,
            BExpr::Var(s) => self.restrict(*s, &IntSet::range(1, 1)),
            BExpr::And(items) => items.iter().try_for_each(|item| self.post(item))?,
            BExpr::Not(inner) => return self.post_negated(inner),
            BExpr::Cmp(op, a, c) => self.post_cmp(*op, a, c)?,
            BExpr::In(e, set) => {
                let x = self.int_var(e)?;
                self.restrict(x, set);
            }
            BExpr::AllDifferent(items) => {
                let xs = items.iter().map(|e| self.int_var(e)).collect::<Result<Vec<_>, _>>()?;
                // One propagator over all: measured on Golomb 9, pairwise `!=`
                // (630 of them) took 1.2 times the CPU time.
                self.props.push(Prop::AllDifferent(xs));
            }
            BExpr::Table(items, rows) => {
                let vars = items.iter().map(|e| self.int_var(e)).collect::<Result<Vec<_>, _>>()?;
                self.props.push(Prop::Table { vars, rows: rows.clone() });
            }
            BExpr::Or(_) => return Err(describe("a disjunction")),
            BExpr::Iff(..) | BExpr::Xor(..) => return Err(describe("an equivalence of Booleans")),
            BExpr::Element { .. } => return Err(describe("an element of Booleans")),
            BExpr::Ite(..) => return Err(describe("an if-then-else")),
            BExpr::Grid(_) => return Err(describe("a grid global")),
        }
        Ok(())
    }

    fn post_negated(&mut self, b: &BExpr) -> Result<(), Outside> {
        match b {
            BExpr::Var(s) => self.restrict(*s, &IntSet::range(0, 0)),
            BExpr::Const(v) => self.infeasible |= *v,
            BExpr::Not(inner) => self.post(inner)?,
            BExpr::Cmp(Cmp::Eq, a, c) => self.post_cmp(Cmp::Ne, a, c)?,
            BExpr::Cmp(Cmp::Ne, a, c) => self.post_cmp(Cmp::Eq, a, c)?,
            BExpr::Cmp(Cmp::Lt, a, c) => self.post_cmp(Cmp::Le, c, a)?,
            BExpr::Cmp(Cmp::Le, a, c) => self.post_cmp(Cmp::Lt, c, a)?,
            BExpr::In(e, set) => {
                let x = self.int_var(e)?;
                let outside = self.domains[x].difference(set);
                self.restrict(x, &outside);
            }
            _ => return Err(describe("the negation of a compound Boolean")),
        }
        Ok(())
    }

    fn post_cmp(&mut self, op: Cmp, a: &IExpr, c: &IExpr) -> Result<(), Outside> {
        let (terms, k) = self.difference(a, c)?;
        self.props.push(match op {
            Cmp::Eq => Prop::Linear { terms, k, eq: true },
            Cmp::Le => Prop::Linear { terms, k, eq: false },
            Cmp::Lt => Prop::Linear { terms, k: k + 1, eq: false },
            Cmp::Ne => Prop::NotEqual { terms, k },
        });
        Ok(())
    }

    /// `a - c` as a linear form.
    fn difference(&mut self, a: &IExpr, c: &IExpr) -> Result<Linear, Outside> {
        let (mut terms, ka) = self.linear(a)?;
        let (others, kc) = self.linear(c)?;
        terms.extend(others.into_iter().map(|(coef, x)| (-coef, x)));
        Ok((merged(terms), ka - kc))
    }

    /// An integer expression as a linear form over variables.
    pub fn linear(&mut self, e: &IExpr) -> Result<Linear, Outside> {
        if e.partial {
            return Err(describe("an expression that may be undefined"));
        }
        match &e.kind {
            IKind::Const(v) => Ok((Vec::new(), *v)),
            IKind::Var(s) => Ok((vec![(1, *s)], 0)),
            IKind::Sum(terms, k) => {
                let mut flat = Vec::with_capacity(terms.len());
                for (c, t) in terms {
                    flat.push((*c, self.int_var(t)?));
                }
                Ok((merged(flat), *k))
            }
            _ => Ok((vec![(1, self.int_var(e)?)], 0)),
        }
    }

    /// A variable equal to `e`: a scalar, or an auxiliary one defined by
    /// a propagator.
    pub fn int_var(&mut self, e: &IExpr) -> Result<Var, Outside> {
        if let IKind::Var(s) = e.kind {
            return Ok(s);
        }
        if let Some(&x) = self.ints.get(e) {
            return Ok(x);
        }
        if e.partial {
            return Err(describe("an expression that may be undefined"));
        }
        let x = match &e.kind {
            IKind::Const(v) => self.new_var(IntSet::range(*v, *v))?,
            IKind::Sum(..) => {
                let (mut terms, k) = self.linear(e)?;
                let y = self.new_var(IntSet::range(e.lo, e.hi))?;
                terms.push((-1, y));
                self.props.push(Prop::Linear { terms, k, eq: true });
                y
            }
            IKind::BoolToInt(b) => self.bool_var(b)?,
            IKind::Element { index, dims, items } => self.element(index, dims, items)?,
            IKind::Mul(..) | IKind::Div(..) | IKind::Mod(..) => return Err(describe("a product or division")),
            IKind::Abs(_) | IKind::Min(_) | IKind::Max(_) => return Err(describe("abs, min or max")),
            IKind::Ite(..) => return Err(describe("an if-then-else")),
            IKind::Var(_) => unreachable!("returned above"),
        };
        self.ints.insert(e.clone(), x);
        Ok(x)
    }

    fn element(&mut self, index: &[IExpr], dims: &[(i64, i64)], items: &[IExpr]) -> Result<Var, Outside> {
        let ([only], [(first, _)]) = (index, dims) else { return Err(describe("an element of several indices")) };
        let items: Vec<i64> = items
            .iter()
            .map(IExpr::as_const)
            .collect::<Option<_>>()
            .ok_or_else(|| describe("an element over variables"))?;
        let index = self.int_var(only)?;
        let value = self.new_var(IntSet::from_values(items.iter().copied()))?;
        self.props.push(Prop::Element { index, first: *first, items, value });
        Ok(value)
    }

    /// A 0..1 variable that is 1 exactly when `b` holds.
    pub fn bool_var(&mut self, b: &BExpr) -> Result<Var, Outside> {
        match b {
            BExpr::Var(s) => return Ok(*s),
            BExpr::Const(v) => return self.new_var(IntSet::range(i64::from(*v), i64::from(*v))),
            _ => {}
        }
        if let Some(&y) = self.bools.get(b) {
            return Ok(y);
        }
        let y = match b {
            BExpr::Not(inner) => {
                let r = self.bool_var(inner)?;
                let y = self.new_var(IntSet::range(0, 1))?;
                self.props.push(Prop::Linear { terms: vec![(1, y), (1, r)], k: -1, eq: true });
                y
            }
            BExpr::Cmp(op, a, c) => self.reified(*op, a, c)?,
            BExpr::In(e, set) if set.len() == 1 => {
                let x = self.int_var(e)?;
                let y = self.new_var(IntSet::range(0, 1))?;
                self.props.push(Prop::ReifEq { b: y, x, c: set.min().unwrap_or(0) });
                y
            }
            _ => return Err(describe("a reified compound Boolean")),
        };
        self.bools.insert(b.clone(), y);
        Ok(y)
    }

    /// `a op c` reified: over one variable `x` against a constant, else
    /// over an auxiliary variable equal to `a - c`.
    fn reified(&mut self, op: Cmp, a: &IExpr, c: &IExpr) -> Result<Var, Outside> {
        let (terms, k) = self.difference(a, c)?;
        // `sign·x + k op 0`.
        let (sign, x, k) = match terms[..] {
            [(s, x)] if s == 1 || s == -1 => (s, x, k),
            _ => {
                let (lo, hi) = terms.iter().fold((k as i128, k as i128), |(lo, hi), &(coef, x)| {
                    let (p, q) = (
                        coef as i128 * self.domains[x].min().unwrap_or(0) as i128,
                        coef as i128 * self.domains[x].max().unwrap_or(0) as i128,
                    );
                    (lo + p.min(q), hi + p.max(q))
                });
                let y = self.new_var(IntSet::range(lo.max(-(1 << 40)) as i64, hi.min(1 << 40) as i64))?;
                let mut defined = terms;
                defined.push((-1, y));
                self.props.push(Prop::Linear { terms: defined, k, eq: true });
                (1, y, 0)
            }
        };
        let b = self.new_var(IntSet::range(0, 1))?;
        // With sign 1: x op -k; with sign -1: -k op x.
        let c = -k;
        let prop = match (op, sign) {
            (Cmp::Eq | Cmp::Ne, _) => Prop::ReifEq { b, x, c: sign * c },
            (Cmp::Le, 1) => Prop::ReifLe { b, x, c },
            (Cmp::Lt, 1) => Prop::ReifLe { b, x, c: c - 1 },
            // -x + k <= 0: x >= k, not (x <= k - 1).
            (Cmp::Le, _) => Prop::ReifLe { b, x, c: k - 1 },
            (Cmp::Lt, _) => Prop::ReifLe { b, x, c: k },
        };
        self.props.push(prop);
        let flips = matches!((op, sign), (Cmp::Ne, _) | (Cmp::Le | Cmp::Lt, -1));
        if !flips {
            return Ok(b);
        }
        let y = self.new_var(IntSet::range(0, 1))?;
        self.props.push(Prop::Linear { terms: vec![(1, y), (1, b)], k: -1, eq: true });
        Ok(y)
    }
}

/// The terms with each variable once, and no zero coefficient.
fn merged(terms: Vec<(i64, Var)>) -> Vec<(i64, Var)> {
    let mut at: HashMap<Var, usize> = HashMap::new();
    let mut out: Vec<(i64, Var)> = Vec::with_capacity(terms.len());
    for (c, x) in terms {
        match at.get(&x) {
            Some(&i) => out[i].0 += c,
            None => {
                at.insert(x, out.len());
                out.push((c, x));
            }
        }
    }
    out.retain(|&(c, _)| c != 0);
    out
}

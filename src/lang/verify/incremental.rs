//! The check of a stream of assignments that each differ from the one
//! before in a few scalars, as an enumeration meets them: a linear
//! constraint keeps its sum and is updated by the changes, and every other
//! constraint is evaluated again in full by [`Verifier`]. It accepts
//! exactly the assignments that [`Verifier::check`] without routes
//! accepts, and on a rejection returns that check's own message.

use super::Verifier;
use crate::lang::check::Named;
use crate::lang::model::Value;
use crate::lang::syntax::{BinOp, Expr, ExprKind, UnOp};

/// Sums past this bound (of the terms' largest magnitudes) could overflow
/// the full evaluator's `i64` arithmetic, where it would judge otherwise.
const SAFE_MAGNITUDE: i128 = 1 << 62;

/// A constraint `Σ coefficient · scalar + constant  op  0`.
struct Linear {
    op: BinOp,
    constant: i128,
    /// Σ coefficient · value over the current values.
    total: i128,
}

impl Linear {
    fn holds(&self) -> bool {
        let v = self.total + self.constant;
        match self.op {
            BinOp::Eq => v == 0,
            BinOp::Ne => v != 0,
            BinOp::Lt => v < 0,
            BinOp::Le => v <= 0,
            BinOp::Gt => v > 0,
            _ => v >= 0,
        }
    }
}

/// How one conjunct of a constraint is checked.
enum Part<'m> {
    /// By its sum, kept up to date.
    Linear(usize),
    /// By the evaluator, in full.
    Evaluated(&'m Expr),
}

/// The state of checking a stream of assignments to one model's scalars;
/// for models without grid globals.
pub(crate) struct IncrementalCheck<'v, 'm> {
    verifier: &'v Verifier<'m>,
    values: Vec<i64>,
    /// The constraints' conjuncts (of their top-level `/\`s), in order.
    parts: Vec<Part<'m>>,
    linear: Vec<Linear>,
    /// Per scalar, its terms in the linear parts: (part in `linear`,
    /// coefficient).
    uses: Vec<Vec<(u32, i64)>>,
    /// Per scalar, whether its declaration admits its value.
    admitted: Vec<bool>,
    inadmissible: usize,
}

impl<'v, 'm> IncrementalCheck<'v, 'm> {
    /// The check, starting from `values` (one per scalar), and the full
    /// check's verdict on them.
    pub fn new(verifier: &'v Verifier<'m>, values: Vec<i64>) -> (Self, Result<(), String>) {
        let verdict = verifier.check(&values, &[]);
        let mut uses = vec![Vec::new(); values.len()];
        let mut parts = Vec::new();
        let mut linear = Vec::new();
        let mut conjuncts: Vec<&'m Expr> = verifier.model.constraints.iter().rev().map(|c| &c.expr).collect();
        while let Some(e) = conjuncts.pop() {
            let form = match &e.kind {
                ExprKind::Binary { op: BinOp::And, left, right } => {
                    conjuncts.extend([&**right, &**left]);
                    continue;
                }
                ExprKind::Binary { op, left, right } if is_comparison(*op) => {
                    verifier.linear_difference(left, right, values.len()).map(|f| (*op, f))
                }
                _ => None,
            };
            let Some((op, (terms, constant))) = form else {
                parts.push(Part::Evaluated(e));
                continue;
            };
            let at = linear.len() as u32;
            let total = terms.iter().map(|&(s, c)| i128::from(c) * i128::from(values[s])).sum();
            for (s, c) in terms {
                uses[s].push((at, c));
            }
            linear.push(Linear { op, constant: i128::from(constant), total });
            parts.push(Part::Linear(at as usize));
        }
        let admitted: Vec<bool> = values.iter().enumerate().map(|(s, &v)| verifier.admits(s, v)).collect();
        let inadmissible = admitted.iter().filter(|&&a| !a).count();
        (IncrementalCheck { verifier, values, parts, linear, uses, admitted, inadmissible }, verdict)
    }

    /// Sets each `(scalar, value)` of `changes` and checks the assignment,
    /// as [`Verifier::check`] would with no routes.
    pub fn update(&mut self, changes: &[(usize, i64)]) -> Result<(), String> {
        for &(s, v) in changes {
            let old = std::mem::replace(&mut self.values[s], v);
            if old == v {
                continue;
            }
            let delta = i128::from(v) - i128::from(old);
            for &(l, c) in &self.uses[s] {
                self.linear[l as usize].total += i128::from(c) * delta;
            }
            let admitted = self.verifier.admits(s, v);
            if admitted != std::mem::replace(&mut self.admitted[s], admitted) {
                if admitted {
                    self.inadmissible -= 1;
                } else {
                    self.inadmissible += 1;
                }
            }
        }
        if self.inadmissible == 0 && self.parts_hold() {
            return Ok(());
        }
        // The full check names what fails, in its own order.
        self.verifier.check(&self.values, &[])?;
        Err("the incremental check rejects an assignment the full check accepts".to_string())
    }

    /// Whether every part holds; an evaluation error counts as not, for
    /// the full check to report.
    fn parts_hold(&self) -> bool {
        let mut next_grid = 0;
        self.parts.iter().all(|part| match part {
            Part::Linear(l) => self.linear[*l].holds(),
            Part::Evaluated(e) => self.verifier.holds(e, &self.values, &[], &mut next_grid).unwrap_or(false),
        })
    }
}

fn is_comparison(op: BinOp) -> bool {
    matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
}

impl Verifier<'_> {
    /// `left - right` as `(terms, constant)` when both are linear in the
    /// scalars (integers, parameters, scalar variables, `sum` of a variable
    /// array, `+`, `-`, and products with an integer literal) and no partial
    /// sum the evaluator forms can overflow.
    fn linear_difference(&self, left: &Expr, right: &Expr, scalars: usize) -> Option<(Vec<(usize, i64)>, i64)> {
        let mut terms = Vec::new();
        let mut constant = 0i64;
        self.linear_form(left, 1, &mut terms, &mut constant)?;
        self.linear_form(right, -1, &mut terms, &mut constant)?;
        let mut magnitude = i128::from(constant).abs();
        for &(s, c) in &terms {
            if s >= scalars {
                return None;
            }
            let decl = self.decl_of(s)?;
            let widest = i128::from(decl.domain.min()?).abs().max(i128::from(decl.domain.max()?).abs());
            magnitude += i128::from(c).abs() * widest;
        }
        (magnitude < SAFE_MAGNITUDE).then_some((terms, constant))
    }

    /// Adds `sign · e` to `terms` and `constant`; `None` when `e` is not of
    /// the linear kinds.
    fn linear_form(&self, e: &Expr, sign: i64, terms: &mut Vec<(usize, i64)>, constant: &mut i64) -> Option<()> {
        match &e.kind {
            ExprKind::Int(v) => *constant = constant.checked_add(sign.checked_mul(*v)?)?,
            ExprKind::Name(name) => match self.names.get(name.as_str())? {
                Named::Param(p) => match self.model.params[*p].value {
                    Value::Int(v) => *constant = constant.checked_add(sign.checked_mul(v)?)?,
                    _ => return None,
                },
                Named::Var(v) => {
                    let decl = &self.model.vars[*v];
                    if !decl.index.is_empty() {
                        return None;
                    }
                    terms.push((decl.first, sign));
                }
                _ => return None,
            },
            ExprKind::Call { name, args, .. } if name == "sum" && args.len() == 1 && self.function(name).is_none() => {
                let ExprKind::Name(array) = &args[0].kind else { return None };
                let Named::Var(v) = self.names.get(array.as_str())? else { return None };
                let decl = &self.model.vars[*v];
                if decl.index.is_empty() {
                    return None;
                }
                terms.extend((decl.first..decl.first + decl.len).map(|s| (s, sign)));
            }
            ExprKind::Unary { op: UnOp::Neg, operand } => {
                self.linear_form(operand, sign.checked_neg()?, terms, constant)?
            }
            ExprKind::Binary { op: BinOp::Add, left, right } => {
                self.linear_form(left, sign, terms, constant)?;
                self.linear_form(right, sign, terms, constant)?;
            }
            ExprKind::Binary { op: BinOp::Sub, left, right } => {
                self.linear_form(left, sign, terms, constant)?;
                self.linear_form(right, sign.checked_neg()?, terms, constant)?;
            }
            ExprKind::Binary { op: BinOp::Mul, left, right } => match (&left.kind, &right.kind) {
                // Not by 0, which would hide an overflow inside.
                (ExprKind::Int(c), _) if *c != 0 => self.linear_form(right, sign.checked_mul(*c)?, terms, constant)?,
                (_, ExprKind::Int(c)) if *c != 0 => self.linear_form(left, sign.checked_mul(*c)?, terms, constant)?,
                _ => return None,
            },
            _ => return None,
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::load::load_model;
    use crate::model::Source;
    use proptest::prelude::*;

    /// Constraints over `x`, `y` (scalars), `b` (three Booleans) and `a`
    /// (four integers), linear and not, joined and not.
    const CONSTRAINTS: &[&str] = &[
        "sum(a) = 3",
        "sum(b) <= 1",
        "x + 2 * y - sum(a) >= -4",
        "3 * (x - y) != 1",
        "-x < y + k",
        "sum(b) >= 1 /\\ x * y <= 6",
        "abs(x) = 2 \\/ y > 1",
        "a[1] + a[2] = x",
        "0 * x = 0",
        "x * y + sum(a) = 2",
        "sum(a) + sum(b) = x + 4",
    ];

    fn model(picked: &[usize]) -> String {
        let mut text = String::from(
            "kind = \"csp\"\n[params]\nk = 1\n[vars]\nx = \"-3..3\"\ny = \"0..3\"\n\
             b = { index = [\"1..3\"], domain = \"bool\" }\na = { index = [\"1..4\"], domain = \"0..2\" }\n",
        );
        for &c in picked {
            text += &format!("[[constraint]]\nexpr = '{}'\n", CONSTRAINTS[c]);
        }
        text
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Random models and random walks of assignments (some outside the
        /// domains): each update's verdict and message are the full check's.
        #[test]
        fn updates_agree_with_the_full_check(
            picked in prop::collection::vec(0..CONSTRAINTS.len(), 1..5),
            start in prop::collection::vec(-4i64..5, 9),
            steps in prop::collection::vec(prop::collection::vec((0usize..9, -4i64..5), 0..4), 1..12),
        ) {
            let source = Source::from_text("random.toml", model(&picked));
            let (model, _) = load_model(&source).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(model.num_scalars(), 9);
            let verifier = Verifier::new(&model);
            let mut values = start.clone();
            let (mut check, verdict) = IncrementalCheck::new(&verifier, start);
            prop_assert_eq!(verdict, verifier.check(&values, &[]));
            for changes in steps {
                for &(s, v) in &changes {
                    values[s] = v;
                }
                prop_assert_eq!(check.update(&changes), verifier.check(&values, &[]));
            }
        }
    }
}

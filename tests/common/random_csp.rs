//! Random small csp models over one array `x[1..n]` of small values, for
//! suites that check calls (globals, user predicates) against a brute
//! force written out in Rust: where a call stands in its constraint
//! ([`Place`]), the model's text, every assignment that meets the places,
//! and the check that somaria counts as many.

use std::fmt::Debug;

use proptest::prelude::*;

use super::models::{count, load_text};

/// A call a suite places: its text in a model, and its rule on the values
/// of `x` (0-based).
pub trait Call: Clone + Debug {
    fn text(&self) -> String;
    fn holds(&self, x: &[i64]) -> bool;
}

/// Where a call stands in its constraint.
#[derive(Clone, Debug)]
pub enum Place<C> {
    Top(C),
    Not(C),
    /// The call implies `x[i] != v`.
    Implies(C, usize, i64),
    /// The two calls, as 0 or 1, add up to `k`.
    Counted(C, C, i64),
}

impl<C: Call> Place<C> {
    pub fn text(&self) -> String {
        match self {
            Place::Top(c) => c.text(),
            Place::Not(c) => format!("not ({})", c.text()),
            Place::Implies(c, i, v) => format!("({}) -> x[{}] != {v}", c.text(), i + 1),
            Place::Counted(a, b, k) => format!("({}) + ({}) = {k}", a.text(), b.text()),
        }
    }

    pub fn holds(&self, x: &[i64]) -> bool {
        match self {
            Place::Top(c) => c.holds(x),
            Place::Not(c) => !c.holds(x),
            Place::Implies(c, i, v) => !c.holds(x) || x[*i] != *v,
            Place::Counted(a, b, k) => i64::from(a.holds(x)) + i64::from(b.holds(x)) == *k,
        }
    }
}

/// The model: `x[1..n]` over `0..values - 1`, then `extra` (such as
/// `[[predicate]]` tables), then one constraint per place.
pub fn model<C: Call>(n: usize, values: u32, extra: &str, places: &[Place<C>]) -> String {
    let mut text = format!("kind = \"csp\"\n[vars]\nx = {{ index = [\"1..{n}\"], domain = \"0..{}\" }}\n", values - 1);
    text.push_str(extra);
    for p in places {
        text.push_str(&format!("[[constraint]]\nexpr = '{}'\n", p.text()));
    }
    text
}

/// Every assignment of `x` (each in `0..values`) where all places hold.
pub fn solutions<C: Call>(n: usize, values: u32, places: &[Place<C>]) -> Vec<Vec<i64>> {
    let mut found = Vec::new();
    for code in 0..values.pow(n as u32) {
        let x: Vec<i64> = (0..n).map(|i| i64::from(code / values.pow(i as u32) % values)).collect();
        if places.iter().all(|p| p.holds(&x)) {
            found.push(x);
        }
    }
    found
}

/// somaria counts the model of `places` ([`model`]) as brute force does.
pub fn counts_as_brute_force<C: Call>(
    n: usize,
    values: u32,
    extra: &str,
    places: &[Place<C>],
) -> Result<(), TestCaseError> {
    let text = model(n, values, extra, places);
    let puzzle = load_text(&text);
    prop_assert_eq!(count(puzzle.as_ref(), None), solutions(n, values, places).len() as u64, "{}", text);
    Ok(())
}

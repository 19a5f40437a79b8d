//! The propagators: each takes out values that no solution of its own
//! constraint has, given the other variables' domains, and fails when
//! none is left. None removes a value that some solution uses (the
//! property tests check it); how much each removes is said on it.

use super::store::{Event, Fail, Store, Var};

/// One constraint, as its propagator sees it.
#[derive(Clone, Debug)]
pub(crate) enum Prop {
    /// `Σ c·x + k ≤ 0`, or `= 0` with `eq`: bounds propagation.
    Linear { terms: Vec<(i64, Var)>, k: i64, eq: bool },
    /// `Σ c·x + k ≠ 0`: a value goes when one variable is left.
    NotEqual { terms: Vec<(i64, Var)>, k: i64 },
    /// Pairwise different: a fixed variable's value goes from the others,
    /// and fewer values than variables fails.
    AllDifferent(Vec<Var>),
    /// `b ⇔ x = c`, `b` over 0..1: domain consistent.
    ReifEq { b: Var, x: Var, c: i64 },
    /// `b ⇔ x ≤ c`, `b` over 0..1: domain consistent.
    ReifLe { b: Var, x: Var, c: i64 },
    /// `value = items[index - first]` over fixed items: domain consistent.
    Element { index: Var, first: i64, items: Vec<i64>, value: Var },
    /// The variables take the values of one of the rows: domain consistent.
    Table { vars: Vec<Var>, rows: Vec<Vec<i64>> },
}

impl Prop {
    /// The variables it reads, each with the weakest event that can let
    /// it remove more.
    pub fn watches(&self) -> Vec<(Var, Event)> {
        match self {
            Prop::Linear { terms, .. } => terms.iter().map(|&(_, x)| (x, Event::Bounds)).collect(),
            Prop::NotEqual { terms, .. } => terms.iter().map(|&(_, x)| (x, Event::Fixed)).collect(),
            Prop::AllDifferent(xs) => xs.iter().map(|&x| (x, Event::Fixed)).collect(),
            Prop::ReifEq { b, x, .. } => vec![(*b, Event::Fixed), (*x, Event::Domain)],
            Prop::ReifLe { b, x, .. } => vec![(*b, Event::Fixed), (*x, Event::Bounds)],
            Prop::Element { index, value, .. } => vec![(*index, Event::Domain), (*value, Event::Domain)],
            Prop::Table { vars, .. } => vars.iter().map(|&x| (x, Event::Domain)).collect(),
        }
    }

    /// Removes what it can from `store`.
    pub fn propagate(&self, store: &mut Store) -> Result<(), Fail> {
        match self {
            Prop::Linear { terms, k, eq } => linear(store, terms, *k, *eq),
            Prop::NotEqual { terms, k } => not_equal(store, terms, *k),
            Prop::AllDifferent(xs) => all_different(store, xs),
            Prop::ReifEq { b, x, c } => reif_eq(store, *b, *x, *c),
            Prop::ReifLe { b, x, c } => reif_le(store, *b, *x, *c),
            Prop::Element { index, first, items, value } => element(store, *index, *first, items, *value),
            Prop::Table { vars, rows } => table(store, vars, rows),
        }
    }
}

fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) { q - 1 } else { q }
}

fn ceil_div(a: i128, b: i128) -> i128 {
    -floor_div(-a, b)
}

/// The least and greatest value of `c·x`.
fn term_range(store: &Store, c: i64, x: Var) -> (i128, i128) {
    let (a, b) = (c as i128 * store.min(x) as i128, c as i128 * store.max(x) as i128);
    (a.min(b), a.max(b))
}

/// Narrows `c·x` to `lo..=hi` (either end may be unbounded).
fn narrow_term(store: &mut Store, c: i64, x: Var, lo: Option<i128>, hi: Option<i128>) -> Result<(), Fail> {
    let c = c as i128;
    let clamp = |v: i128| v.clamp(i64::MIN as i128 / 2, i64::MAX as i128 / 2) as i64;
    let (xlo, xhi) = if c > 0 {
        (lo.map(|l| ceil_div(l, c)), hi.map(|h| floor_div(h, c)))
    } else {
        (hi.map(|h| ceil_div(h, c)), lo.map(|l| floor_div(l, c)))
    };
    if let Some(m) = xlo {
        store.set_min(x, clamp(m))?;
    }
    if let Some(m) = xhi {
        store.set_max(x, clamp(m))?;
    }
    Ok(())
}

/// Bounds propagation, to a fixed point.
fn linear(store: &mut Store, terms: &[(i64, Var)], k: i64, eq: bool) -> Result<(), Fail> {
    loop {
        let (mut least, mut most) = (k as i128, k as i128);
        for &(c, x) in terms {
            let (a, b) = term_range(store, c, x);
            least += a;
            most += b;
        }
        if least > 0 || (eq && most < 0) {
            return Err(Fail);
        }
        let before = store.changes.len();
        for &(c, x) in terms {
            let (a, b) = term_range(store, c, x);
            // The term is at most what the others at their least leave,
            // and (for `=`) at least what the others at their most leave.
            let hi = a - least;
            let lo = eq.then(|| b - most);
            narrow_term(store, c, x, lo, Some(hi))?;
        }
        if store.changes.len() == before {
            return Ok(());
        }
    }
}

fn not_equal(store: &mut Store, terms: &[(i64, Var)], k: i64) -> Result<(), Fail> {
    let mut open = None;
    let mut sum = k as i128;
    for &(c, x) in terms {
        if store.is_fixed(x) {
            sum += c as i128 * store.min(x) as i128;
        } else if open.is_some() {
            return Ok(());
        } else {
            open = Some((c, x));
        }
    }
    match open {
        None if sum == 0 => Err(Fail),
        None => Ok(()),
        Some((c, x)) => {
            let c = c as i128;
            if sum % c == 0 {
                let v = -sum / c;
                if let Ok(v) = i64::try_from(v) {
                    store.remove(x, v)?;
                }
            }
            Ok(())
        }
    }
}

fn all_different(store: &mut Store, xs: &[Var]) -> Result<(), Fail> {
    let mut done = vec![false; xs.len()];
    loop {
        let mut again = false;
        for i in 0..xs.len() {
            if done[i] || !store.is_fixed(xs[i]) {
                continue;
            }
            done[i] = true;
            let v = store.min(xs[i]);
            for (j, &y) in xs.iter().enumerate() {
                if j != i {
                    let was = store.size(y);
                    store.remove(y, v)?;
                    again |= was > 1 && store.is_fixed(y);
                }
            }
        }
        if !again {
            break;
        }
    }
    // Pigeonhole: the values left must be enough for every variable.
    let (lo, hi) = xs.iter().fold((i64::MAX, i64::MIN), |(lo, hi), &x| (lo.min(store.min(x)), hi.max(store.max(x))));
    if ((hi as i128 - lo as i128 + 1) as usize) < xs.len() { Err(Fail) } else { Ok(()) }
}

fn reif_eq(store: &mut Store, b: Var, x: Var, c: i64) -> Result<(), Fail> {
    if store.is_fixed(b) {
        return if store.min(b) == 1 { store.fix(x, c) } else { store.remove(x, c) };
    }
    if !store.contains(x, c) {
        store.fix(b, 0)
    } else if store.is_fixed(x) {
        store.fix(b, 1)
    } else {
        Ok(())
    }
}

fn reif_le(store: &mut Store, b: Var, x: Var, c: i64) -> Result<(), Fail> {
    if store.is_fixed(b) {
        return if store.min(b) == 1 { store.set_max(x, c) } else { store.set_min(x, c.saturating_add(1)) };
    }
    if store.max(x) <= c {
        store.fix(b, 1)
    } else if store.min(x) > c {
        store.fix(b, 0)
    } else {
        Ok(())
    }
}

fn element(store: &mut Store, index: Var, first: i64, items: &[i64], value: Var) -> Result<(), Fail> {
    let positions: Vec<i64> = store.values(index).collect();
    let mut reached = Vec::with_capacity(positions.len());
    for p in positions {
        let item = usize::try_from(p - first).ok().and_then(|at| items.get(at));
        match item {
            Some(&v) if store.contains(value, v) => reached.push(v),
            _ => store.remove(index, p)?,
        }
    }
    reached.sort_unstable();
    let values: Vec<i64> = store.values(value).collect();
    for v in values {
        if reached.binary_search(&v).is_err() {
            store.remove(value, v)?;
        }
    }
    Ok(())
}

fn table(store: &mut Store, vars: &[Var], rows: &[Vec<i64>]) -> Result<(), Fail> {
    let mut supported: Vec<Vec<i64>> = vec![Vec::new(); vars.len()];
    for row in rows {
        if vars.iter().zip(row).all(|(&x, &v)| store.contains(x, v)) {
            for (seen, &v) in supported.iter_mut().zip(row) {
                seen.push(v);
            }
        }
    }
    for (&x, seen) in vars.iter().zip(&mut supported) {
        seen.sort_unstable();
        let values: Vec<i64> = store.values(x).collect();
        for v in values {
            if seen.binary_search(&v).is_err() {
                store.remove(x, v)?;
            }
        }
    }
    Ok(())
}

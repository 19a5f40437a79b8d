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
    /// Pairwise different, bounds consistent: Hall intervals (López-Ortiz,
    /// Quimper, Tromp and van Beek, 2003) narrow each variable's bounds to
    /// values that some assignment of the others within their bounds
    /// leaves free. Not posted: beside the value elimination, run after
    /// the cheap propagators, it took Golomb 9 from 31,710 to 21,022 nodes
    /// at the same time (0.60 against 0.54-0.61 s), and 12 queens from
    /// 0.63 to 0.82 s (no pruning there), measured with benches/fd_gecode.sh.
    #[cfg_attr(not(test), allow(dead_code))]
    AllDifferentBounds(Vec<Var>),
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
            Prop::AllDifferentBounds(xs) => xs.iter().map(|&x| (x, Event::Bounds)).collect(),
            Prop::ReifEq { b, x, .. } => vec![(*b, Event::Fixed), (*x, Event::Domain)],
            Prop::ReifLe { b, x, .. } => vec![(*b, Event::Fixed), (*x, Event::Bounds)],
            Prop::Element { index, value, .. } => vec![(*index, Event::Domain), (*value, Event::Domain)],
            Prop::Table { vars, .. } => vars.iter().map(|&x| (x, Event::Domain)).collect(),
        }
    }

    /// Whether it costs more than a pass over its variables, so that it
    /// should wait until the cheap ones are at a fixed point.
    pub fn costly(&self) -> bool {
        matches!(self, Prop::AllDifferentBounds(_))
    }

    /// Whether one run leaves nothing more for it to remove, so that its
    /// own changes need not wake it again.
    pub fn idempotent(&self) -> bool {
        !matches!(self, Prop::Table { .. })
    }

    /// Removes what it can from `store`.
    pub fn propagate(&self, store: &mut Store) -> Result<(), Fail> {
        match self {
            Prop::Linear { terms, k, eq } => linear(store, terms, *k, *eq),
            Prop::NotEqual { terms, k } => not_equal(store, terms, *k),
            Prop::AllDifferent(xs) => all_different(store, xs),
            Prop::AllDifferentBounds(xs) => all_different_bounds(store, xs),
            Prop::ReifEq { b, x, c } => reif_eq(store, *b, *x, *c),
            Prop::ReifLe { b, x, c } => reif_le(store, *b, *x, *c),
            Prop::Element { index, first, items, value } => element(store, *index, *first, items, *value),
            Prop::Table { vars, rows } => table(store, vars, rows),
        }
    }
}

fn floor_div(a: i128, b: i128) -> i128 {
    // 128-bit division took 15% of a 4x4 magic square count: a unit
    // coefficient needs none, and values that fit 64 bits need only that.
    match b {
        1 => return a,
        -1 => return -a,
        _ => {}
    }
    if let (Ok(a), Ok(b)) = (i64::try_from(a), i64::try_from(b)) {
        let q = a / b;
        return i128::from(if a % b != 0 && ((a < 0) != (b < 0)) { q - 1 } else { q });
    }
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
        for &(c, x) in terms.iter().filter(|&&(c, _)| c != 0) {
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
    for &(c, x) in terms.iter().filter(|&&(c, _)| c != 0) {
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

/// Bounds consistency for alldifferent, repeated until the domains' holes
/// move no bound further.
fn all_different_bounds(store: &mut Store, xs: &[Var]) -> Result<(), Fail> {
    thread_local! {
        /// The working arrays, kept between runs: this runs at every node.
        static HALL: std::cell::RefCell<HallIntervals> = std::cell::RefCell::default();
    }
    HALL.with_borrow_mut(|hall| {
        loop {
            let before = store.changes.len();
            hall.narrow(store, xs)?;
            if store.changes.len() == before {
                return Ok(());
            }
        }
    })
}

/// The working arrays of one pass of the Hall-interval algorithm.
#[derive(Default)]
struct HallIntervals {
    /// Per variable: its bounds as `[min, max + 1)`, and their ranks in `bounds`.
    lo: Vec<i64>,
    hi: Vec<i64>,
    min_rank: Vec<usize>,
    max_rank: Vec<usize>,
    /// The distinct bounds, sorted, with a sentinel at each end.
    bounds: Vec<i64>,
    /// The variables by least and by greatest bound.
    by_min: Vec<usize>,
    by_max: Vec<usize>,
    /// The union-find paths over the bounds: critical capacities (`t`),
    /// Hall intervals (`h`), and each gap's free values (`d`).
    t: Vec<usize>,
    h: Vec<usize>,
    d: Vec<i64>,
}

fn refill(v: &mut Vec<usize>, items: impl Iterator<Item = usize>) {
    v.clear();
    v.extend(items);
}

fn path_set(t: &mut [usize], start: usize, end: usize, to: usize) {
    let mut l = start;
    while l != end {
        let k = t[l];
        t[l] = to;
        l = k;
    }
}

fn path_max(t: &[usize], mut i: usize) -> usize {
    while t[i] > i {
        i = t[i];
    }
    i
}

fn path_min(t: &[usize], mut i: usize) -> usize {
    while t[i] < i {
        i = t[i];
    }
    i
}

impl HallIntervals {
    /// One pass: every lower bound inside a Hall interval's reach moves
    /// past it, then every upper bound; fails on an interval with more
    /// variables than values.
    fn narrow(&mut self, store: &mut Store, xs: &[Var]) -> Result<(), Fail> {
        let n = xs.len();
        if n == 0 {
            return Ok(());
        }
        self.lo.clear();
        self.lo.extend(xs.iter().map(|&x| store.min(x)));
        self.hi.clear();
        self.hi.extend(xs.iter().map(|&x| store.max(x) + 1));
        self.sort_bounds(n);
        let nb = self.bounds.len() - 2;
        let (new_lo, new_hi) = (self.filter_lower(n, nb)?, self.filter_upper(n, nb)?);
        for (i, &x) in xs.iter().enumerate() {
            if let Some(m) = new_lo[i] {
                store.set_min(x, m)?;
            }
            if let Some(m) = new_hi[i] {
                store.set_max(x, m)?;
            }
        }
        Ok(())
    }

    /// Ranks every variable's bounds among the distinct bounds.
    fn sort_bounds(&mut self, n: usize) {
        let (lo, hi) = (&self.lo, &self.hi);
        self.by_min.clear();
        self.by_min.extend(0..n);
        self.by_min.sort_unstable_by_key(|&i| lo[i]);
        self.by_max.clear();
        self.by_max.extend(0..n);
        self.by_max.sort_unstable_by_key(|&i| hi[i]);
        self.min_rank.resize(n, 0);
        self.max_rank.resize(n, 0);
        let mut last = lo[self.by_min[0]] - 2;
        self.bounds.clear();
        self.bounds.push(last);
        let (mut i, mut j) = (0, 0);
        loop {
            if i < n && lo[self.by_min[i]] <= hi[self.by_max[j]] {
                let min = lo[self.by_min[i]];
                if min != last {
                    last = min;
                    self.bounds.push(min);
                }
                self.min_rank[self.by_min[i]] = self.bounds.len() - 1;
                i += 1;
            } else {
                let max = hi[self.by_max[j]];
                if max != last {
                    last = max;
                    self.bounds.push(max);
                }
                self.max_rank[self.by_max[j]] = self.bounds.len() - 1;
                j += 1;
                if j == n {
                    break;
                }
            }
        }
        self.bounds.push(last + 2);
    }

    /// The new lower bounds, by the variables in order of their upper
    /// bounds.
    fn filter_lower(&mut self, n: usize, nb: usize) -> Result<Vec<Option<i64>>, Fail> {
        let bounds = &self.bounds;
        refill(&mut self.t, (0..=nb + 1).map(|i| i.saturating_sub(1)));
        refill(&mut self.h, (0..=nb + 1).map(|i| i.saturating_sub(1)));
        self.d.clear();
        self.d.extend((0..=nb + 1).map(|i| if i == 0 { 0 } else { bounds[i] - bounds[i - 1] }));
        let (t, h, d) = (&mut self.t, &mut self.h, &mut self.d);
        let mut out = vec![None; n];
        for &v in &self.by_max {
            let (x, y) = (self.min_rank[v], self.max_rank[v]);
            let mut z = path_max(t, x + 1);
            let j = t[z];
            d[z] -= 1;
            if d[z] == 0 {
                t[z] = z + 1;
                z = path_max(t, t[z]);
                t[z] = j;
            }
            path_set(t, x + 1, z, z);
            if d[z] < bounds[z] - bounds[y] {
                return Err(Fail);
            }
            if h[x] > x {
                let w = path_max(h, h[x]);
                out[v] = Some(bounds[w]);
                path_set(h, x, w, w);
            }
            if d[z] == bounds[z] - bounds[y] {
                let start = h[y];
                path_set(h, start, j - 1, y);
                h[y] = j - 1;
            }
        }
        Ok(out)
    }

    /// The new upper bounds, by the variables in reverse order of their
    /// lower bounds.
    fn filter_upper(&mut self, n: usize, nb: usize) -> Result<Vec<Option<i64>>, Fail> {
        let bounds = &self.bounds;
        refill(&mut self.t, (0..=nb + 1).map(|i| (i + 1).min(nb + 1)));
        refill(&mut self.h, (0..=nb + 1).map(|i| (i + 1).min(nb + 1)));
        self.d.clear();
        self.d.extend((0..=nb + 1).map(|i| if i <= nb { bounds[i + 1] - bounds[i] } else { 0 }));
        let (t, h, d) = (&mut self.t, &mut self.h, &mut self.d);
        let mut out = vec![None; n];
        for &v in self.by_min.iter().rev() {
            let (x, y) = (self.max_rank[v], self.min_rank[v]);
            let mut z = path_min(t, x - 1);
            let j = t[z];
            d[z] -= 1;
            if d[z] == 0 {
                t[z] = z - 1;
                z = path_min(t, t[z]);
                t[z] = j;
            }
            path_set(t, x - 1, z, z);
            if d[z] < bounds[y] - bounds[z] {
                return Err(Fail);
            }
            if h[x] < x {
                let w = path_min(h, h[x]);
                out[v] = Some(bounds[w] - 1);
                path_set(h, x, w, w);
            }
            if d[z] == bounds[y] - bounds[z] {
                let start = h[y];
                path_set(h, start, j + 1, y);
                h[y] = j + 1;
            }
        }
        Ok(out)
    }
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::lang::model::IntSet;

    /// Whether `values` satisfies the constraint, evaluated here apart
    /// from the propagators.
    fn holds(prop: &Prop, values: &[i64]) -> bool {
        let sum = |terms: &[(i64, Var)], k: i64| terms.iter().map(|&(c, x)| c * values[x]).sum::<i64>() + k;
        match prop {
            Prop::Linear { terms, k, eq } => {
                let s = sum(terms, *k);
                if *eq { s == 0 } else { s <= 0 }
            }
            Prop::NotEqual { terms, k } => sum(terms, *k) != 0,
            Prop::AllDifferent(xs) | Prop::AllDifferentBounds(xs) => {
                xs.iter().enumerate().all(|(i, &x)| xs[..i].iter().all(|&y| values[x] != values[y]))
            }
            Prop::ReifEq { b, x, c } => (values[*b] == 1) == (values[*x] == *c) && values[*b] <= 1,
            Prop::ReifLe { b, x, c } => (values[*b] == 1) == (values[*x] <= *c) && values[*b] <= 1,
            Prop::Element { index, first, items, value } => usize::try_from(values[*index] - first)
                .ok()
                .and_then(|at| items.get(at))
                .is_some_and(|&v| v == values[*value]),
            Prop::Table { vars, rows } => rows.iter().any(|row| vars.iter().zip(row).all(|(&x, &v)| values[x] == v)),
        }
    }

    /// Every assignment of the store's domains.
    fn assignments(store: &Store) -> Vec<Vec<i64>> {
        let mut all = vec![Vec::new()];
        for x in 0..store.len() {
            let values: Vec<i64> = store.values(x).collect();
            all = all
                .into_iter()
                .flat_map(|a: Vec<i64>| values.iter().map(move |&v| [a.clone(), vec![v]].concat()))
                .collect();
        }
        all
    }

    fn domains() -> impl Strategy<Value = Vec<Vec<i64>>> {
        prop::collection::vec(prop::collection::btree_set(-3i64..=3, 1..=5).prop_map(|s| s.into_iter().collect()), 4)
    }

    fn prop_strategy() -> impl Strategy<Value = Prop> {
        let terms = prop::collection::vec((-3i64..=3, 0usize..4), 1..=4);
        prop_oneof![
            (terms.clone(), -6i64..=6, any::<bool>()).prop_map(|(terms, k, eq)| Prop::Linear { terms, k, eq }),
            (terms, -6i64..=6).prop_map(|(terms, k)| Prop::NotEqual { terms, k }),
            prop::collection::vec(0usize..4, 2..=4).prop_map(|mut xs| {
                xs.sort_unstable();
                xs.dedup();
                Prop::AllDifferent(xs)
            }),
            prop::collection::vec(0usize..4, 2..=4).prop_map(|mut xs| {
                xs.sort_unstable();
                xs.dedup();
                Prop::AllDifferentBounds(xs)
            }),
            (1usize..4, -3i64..=3).prop_map(|(x, c)| Prop::ReifEq { b: 0, x, c }),
            (1usize..4, -3i64..=3).prop_map(|(x, c)| Prop::ReifLe { b: 0, x, c }),
            (-4i64..=0, prop::collection::vec(-3i64..=3, 1..=6)).prop_map(|(first, items)| Prop::Element {
                index: 1,
                first,
                items,
                value: 2
            }),
            prop::collection::vec(prop::collection::vec(-3i64..=3, 3), 0..=6)
                .prop_map(|rows| Prop::Table { vars: vec![1, 2, 3], rows }),
        ]
    }

    /// The store over `domains`; a reified constraint's `b` (variable 0)
    /// over a part of 0..1.
    fn store_of(prop: &Prop, domains: &[Vec<i64>]) -> Store {
        let mut store = Store::default();
        for (x, values) in domains.iter().enumerate() {
            let reified = matches!(prop, Prop::ReifEq { .. } | Prop::ReifLe { .. }) && x == 0;
            let values: Vec<i64> =
                if reified { values.iter().map(|v| v.rem_euclid(2)).collect() } else { values.clone() };
            store.add(&IntSet::from_values(values));
        }
        store
    }

    /// Whether each variable's least and greatest values have a support:
    /// the others, taking any value within their bounds (holes ignored),
    /// all different from it and from each other. Brute force.
    fn bounds_supported(store: &Store, xs: &[Var]) -> bool {
        fn extend(store: &Store, xs: &[Var], taken: &mut Vec<i64>) -> bool {
            let Some((&x, rest)) = xs.split_first() else { return true };
            (store.min(x)..=store.max(x)).any(|v| {
                if taken.contains(&v) {
                    return false;
                }
                taken.push(v);
                let found = extend(store, rest, taken);
                taken.pop();
                found
            })
        }
        xs.iter().enumerate().all(|(i, &x)| {
            let others: Vec<Var> = xs.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &y)| y).collect();
            [store.min(x), store.max(x)].into_iter().all(|v| extend(store, &others, &mut vec![v]))
        })
    }

    /// Domains of 3 to 7 variables, up to 6 values each between -4 and 4,
    /// some with holes.
    fn wider_domains() -> impl Strategy<Value = Vec<Vec<i64>>> {
        prop::collection::vec(
            prop::collection::btree_set(-4i64..=4, 1..=6).prop_map(|s| s.into_iter().collect()),
            3..=7,
        )
    }

    /// A divisor or dividend at the edges of 64 bits, or an ordinary one.
    fn dividend() -> impl Strategy<Value = i128> {
        prop_oneof![
            -1000i128..1000,
            any::<i64>().prop_map(i128::from),
            any::<i128>().prop_map(|v| v >> 2),
            Just(i128::from(i64::MIN)),
            Just(i128::from(i64::MAX)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The rounding divisions with their 64-bit and unit shortcuts
        /// agree with the plain 128-bit definition.
        #[test]
        fn the_shortcut_divisions_round_as_the_plain_ones(a in dividend(), b in dividend()) {
            prop_assume!(b != 0);
            let floor = a.div_euclid(b) - i128::from(b < 0 && a.rem_euclid(b) != 0);
            prop_assert_eq!(floor_div(a, b), floor);
            prop_assert_eq!(ceil_div(a, b), -(-a).div_euclid(b) + i128::from(b < 0 && (-a).rem_euclid(b) != 0));
        }

        /// The Hall-interval propagator on every variable of random
        /// domains: it keeps every value some solution uses, fails only
        /// where there is none, and leaves every bound with a support
        /// among the others' bounds (bounds consistency).
        #[test]
        fn hall_intervals_are_sound_and_bounds_consistent(domains in wider_domains()) {
            let xs: Vec<Var> = (0..domains.len()).collect();
            let prop = Prop::AllDifferentBounds(xs.clone());
            let mut store = store_of(&prop, &domains);
            let solutions: Vec<Vec<i64>> = assignments(&store).into_iter().filter(|v| holds(&prop, v)).collect();
            if prop.propagate(&mut store).is_err() {
                // Failing is sound when no solution exists, and right when
                // the bounds alone leave none (the relaxation it decides).
                prop_assert!(solutions.is_empty(), "{domains:?}: failed with solutions {solutions:?}");
                return Ok(());
            }
            for solution in &solutions {
                for (x, &v) in solution.iter().enumerate() {
                    prop_assert!(store.contains(x, v), "{domains:?}: removed {v} from {x}, used by {solution:?}");
                }
            }
            prop_assert!(bounds_supported(&store, &xs), "{domains:?}: a bound without support");
        }
    }

    proptest! {
        /// Whatever a propagator removes, no solution of its constraint
        /// within the domains uses; it fails only where there is none.
        /// The domain-consistent ones leave only values some solution
        /// uses, and alldifferent leaves no fixed value elsewhere.
        #[test]
        fn no_propagator_removes_a_value_a_solution_uses(prop in prop_strategy(), domains in domains()) {
            let mut store = store_of(&prop, &domains);
            let solutions: Vec<Vec<i64>> = assignments(&store).into_iter().filter(|v| holds(&prop, v)).collect();
            store.push();
            let outcome = prop.propagate(&mut store);
            if outcome.is_err() {
                prop_assert!(solutions.is_empty(), "{prop:?} failed with solutions {solutions:?}");
                return Ok(());
            }
            for solution in &solutions {
                for (x, &v) in solution.iter().enumerate() {
                    prop_assert!(store.contains(x, v), "{prop:?} removed {v} from {x}, used by {solution:?}");
                }
            }
            let domain_consistent =
                matches!(prop, Prop::ReifEq { .. } | Prop::ReifLe { .. } | Prop::Element { .. } | Prop::Table { .. });
            if domain_consistent {
                for x in prop.watches().into_iter().map(|(x, _)| x) {
                    for v in store.values(x) {
                        prop_assert!(solutions.iter().any(|s| s[x] == v), "{prop:?} left {v} in {x}, in no solution");
                    }
                }
            }
            if let Prop::AllDifferent(xs) = &prop {
                for &x in xs.iter().filter(|&&x| store.is_fixed(x)) {
                    let v = store.min(x);
                    prop_assert!(xs.iter().all(|&y| y == x || !store.contains(y, v)), "{prop:?} left {v} beside fixed {x}");
                }
            }
            if let Prop::AllDifferentBounds(xs) = &prop {
                prop_assert!(bounds_supported(&store, xs), "{prop:?} left a bound without support");
            }
            store.pop();
            for (x, values) in domains.iter().enumerate() {
                prop_assert_eq!(store.size(x) as usize, store_of(&prop, &domains).size(x) as usize, "{} restored", x);
                let _ = values;
            }
        }
    }
}

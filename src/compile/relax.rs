//! Bounds on an objective from one linear constraint alone: `max Σ c·x`
//! subject to `Σ w·x ≤ cap` and each x within its bounds. Dropping every
//! other constraint only relaxes, so the relaxation's optimum bounds the
//! model's from above, and a search that reaches it has proven the optimum
//! without refuting the next value. Two relaxations: with x real (the
//! linear program; for a knapsack, Dantzig's greedy fractional bound), and,
//! while the capacity is small, with x integer, by dynamic programming over
//! the capacity, which also gives an assignment that reaches the bound (for
//! a knapsack alone, the optimum itself, which the solver then only has to
//! confirm against the other constraints).

/// One variable: its objective coefficient, its weight in the constraint,
/// and its least and greatest values.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Column {
    pub c: i128,
    pub w: i128,
    pub lo: i128,
    pub hi: i128,
}

/// Past this magnitude the products might overflow: no bound.
const MAX_MAGNITUDE: i128 = 1 << 40;

/// The floor of `k + max Σ c·x` subject to `Σ w·x ≤ cap`, `lo ≤ x ≤ hi`;
/// `None` when the relaxation is infeasible, a column both costs and frees
/// capacity (c < 0 and w < 0, not the greedy's case), or the numbers are
/// too large.
pub fn upper_bound(k: i128, columns: &[Column], cap: i128) -> Option<i128> {
    let big = |v: i128| v.abs() > MAX_MAGNITUDE;
    if big(k) || big(cap) || columns.iter().any(|col| big(col.c) || big(col.w) || big(col.lo) || big(col.hi)) {
        return None;
    }
    // Shift every variable to 0..u, then take what is free.
    let (mut value, mut room) = (k, cap);
    let mut items: Vec<(i128, i128, i128)> = Vec::new();
    for col in columns {
        if col.lo > col.hi {
            return None;
        }
        value += col.c * col.lo;
        room -= col.w * col.lo;
        let u = col.hi - col.lo;
        if col.c >= 0 && col.w <= 0 {
            value += col.c * u;
            room -= col.w * u;
        } else if col.c <= 0 && col.w >= 0 {
            // Left at its least value.
        } else if col.c > 0 && col.w > 0 {
            items.push((col.c, col.w, u));
        } else {
            return None;
        }
    }
    if room < 0 {
        return None;
    }
    // Best value per unit of weight first.
    items.sort_by(|a, b| (b.0 * a.1).cmp(&(a.0 * b.1)));
    for (c, w, u) in items {
        if w * u <= room {
            value += c * u;
            room -= w * u;
        } else {
            value += (c * room).div_euclid(w);
            break;
        }
    }
    Some(value)
}

/// The most capacity units the dynamic program runs over.
const MAX_ROOM: i128 = 1 << 20;

/// The most table entries (items × capacity) it keeps to read the
/// assignment back.
const MAX_TABLE: i128 = 1 << 22;

/// The most steps (items × capacity × values) it takes.
const MAX_STEPS: i128 = 1 << 25;

/// The exact optimum of `k + max Σ c·x` subject to `Σ w·x ≤ cap`,
/// `lo ≤ x ≤ hi` with x integer, and a value per column that reaches it;
/// `None` where [`upper_bound`] has none or the capacity is too large to
/// tabulate.
pub fn integer_optimum(k: i128, columns: &[Column], cap: i128) -> Option<(i128, Vec<i128>)> {
    upper_bound(k, columns, cap)?;
    let (mut value, mut room) = (k, cap);
    let mut values: Vec<i128> = Vec::with_capacity(columns.len());
    let mut items: Vec<usize> = Vec::new();
    for (i, col) in columns.iter().enumerate() {
        let u = col.hi - col.lo;
        value += col.c * col.lo;
        room -= col.w * col.lo;
        if col.c >= 0 && col.w <= 0 {
            value += col.c * u;
            room -= col.w * u;
            values.push(col.hi);
        } else {
            values.push(col.lo);
            if col.c > 0 && col.w > 0 {
                items.push(i);
            }
        }
    }
    let steps: i128 = items.iter().map(|&i| (columns[i].hi - columns[i].lo + 1) * (room + 1)).sum();
    if room > MAX_ROOM || (items.len() as i128) * (room + 1) > MAX_TABLE || steps > MAX_STEPS {
        return None;
    }
    let width = room as usize + 1;
    // best[r]: the most the items so far add within capacity r.
    let mut best = vec![0i128; width];
    let mut taken: Vec<Vec<u32>> = Vec::with_capacity(items.len());
    for &i in &items {
        let col = columns[i];
        let (u, w) = (col.hi - col.lo, col.w as usize);
        let mut next = best.clone();
        let mut count = vec![0u32; width];
        for r in 0..width {
            let mut t = 1;
            while t <= u && t as usize * w <= r {
                let candidate = best[r - t as usize * w] + t * col.c;
                if candidate > next[r] {
                    next[r] = candidate;
                    count[r] = t as u32;
                }
                t += 1;
            }
        }
        best = next;
        taken.push(count);
    }
    let mut r = width - 1;
    for (n, &i) in items.iter().enumerate().rev() {
        let t = taken[n][r];
        values[i] += t as i128;
        r -= t as usize * columns[i].w as usize;
    }
    Some((value + best[width - 1], values))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute_max(k: i128, columns: &[Column], cap: i128) -> Option<i128> {
        let mut best = None;
        let mut values: Vec<i128> = columns.iter().map(|c| c.lo).collect();
        loop {
            let weight: i128 = columns.iter().zip(&values).map(|(c, v)| c.w * v).sum();
            if weight <= cap {
                let value = k + columns.iter().zip(&values).map(|(c, v)| c.c * v).sum::<i128>();
                best = Some(best.map_or(value, |b: i128| b.max(value)));
            }
            let mut i = 0;
            loop {
                if i == values.len() {
                    return best;
                }
                if values[i] < columns[i].hi {
                    values[i] += 1;
                    break;
                }
                values[i] = columns[i].lo;
                i += 1;
            }
        }
    }

    #[test]
    fn greedy_knapsack_bound() {
        // Items (value, weight) (60, 10), (100, 20), (120, 30), capacity 50:
        // the LP takes the first two and 2/3 of the third, 240.
        let cols: Vec<Column> =
            [(60, 10), (100, 20), (120, 30)].iter().map(|&(c, w)| Column { c, w, lo: 0, hi: 1 }).collect();
        assert_eq!(upper_bound(0, &cols, 50), Some(240));
        assert_eq!(brute_max(0, &cols, 50), Some(220));
    }

    proptest! {
        #[test]
        fn never_below_the_integer_optimum(
            k in -5i128..5,
            cap in -10i128..30,
            raw in prop::collection::vec((-6i128..7, -6i128..7, -2i128..3, 0i128..3), 1..5),
        ) {
            let columns: Vec<Column> = raw.iter().map(|&(c, w, lo, span)| Column { c, w, lo, hi: lo + span }).collect();
            let exact = brute_max(k, &columns, cap);
            if let (Some(bound), Some(exact)) = (upper_bound(k, &columns, cap), exact) {
                prop_assert!(bound >= exact, "bound {bound} below the optimum {exact}");
            }
            if exact.is_some() && columns.iter().all(|c| !(c.c < 0 && c.w < 0)) {
                prop_assert!(upper_bound(k, &columns, cap).is_some());
                let (optimum, values) = integer_optimum(k, &columns, cap).expect("small enough to tabulate");
                prop_assert_eq!(Some(optimum), exact);
                let weight: i128 = columns.iter().zip(&values).map(|(c, v)| c.w * v).sum();
                let value: i128 = k + columns.iter().zip(&values).map(|(c, v)| c.c * v).sum::<i128>();
                prop_assert!(weight <= cap && value == optimum, "{values:?} weighs {weight}, is worth {value}");
                prop_assert!(columns.iter().zip(&values).all(|(c, &v)| c.lo <= v && v <= c.hi));
            }
        }
    }
}

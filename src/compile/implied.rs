//! Implied constraints that a presolve adds when every constraint holds:
//! the two sums that a complete set of counts implies.
//!
//! Where the model counts, for every value `v` that the variables `x[j]`
//! can take, `c_v = sum(j)(bool2int(x[j] = v))`, each `x[j]` is counted
//! exactly once, so `sum(v)(c_v) = length(x)`, and weighting each count by
//! its value gives `sum(v)(v * c_v) = sum(x)`. Neither changes the
//! solutions; both let a solver see at once what the counts say together
//! (on the magic sequence, that the counts' weighted sum is the
//! sequence's own sum), which the reified equalities one by one hide.

use std::collections::BTreeMap;

use super::presolve::Domains;
use crate::lang::Program;
use crate::lang::ir::{BExpr, Cmp, IExpr, IKind};

/// The counts found over one list of variables: per value, what equals
/// the number of variables that take it.
type Counts = BTreeMap<i64, IExpr>;

/// The implied sums of every complete set of counts in `program`, whose
/// variables take the values of `domains`.
pub(crate) fn count_sums(program: &Program, domains: &Domains) -> Vec<BExpr> {
    let mut families: BTreeMap<Vec<usize>, Counts> = BTreeMap::new();
    let mut facts = Vec::new();
    for group in &program.groups {
        top_conjuncts(&group.expr, &mut facts);
    }
    for fact in facts {
        let BExpr::Cmp(Cmp::Eq, a, b) = fact else { continue };
        let found = counted(b).map(|(xs, v)| (xs, v, a)).or_else(|| counted(a).map(|(xs, v)| (xs, v, b)));
        if let Some((xs, v, count)) = found
            && !count.partial
        {
            families.entry(xs).or_default().entry(v).or_insert_with(|| count.clone());
        }
    }
    let mut implied = Vec::new();
    for (xs, counts) in families {
        let complete = xs.iter().all(|&x| {
            let dom = domains.of(x);
            dom.len() <= counts.len() as u64 && dom.values().all(|v| counts.contains_key(&v))
        });
        if !complete {
            continue;
        }
        if let Some(sums) = sums_of(&xs, &counts, domains) {
            implied.extend(sums);
        }
    }
    implied
}

fn top_conjuncts<'a>(e: &'a BExpr, found: &mut Vec<&'a BExpr>) {
    match e {
        BExpr::And(items) => items.iter().for_each(|item| top_conjuncts(item, found)),
        _ => found.push(e),
    }
}

/// `sum(j)(bool2int(x[j] = v))` over distinct variables: the variables,
/// sorted, and `v`.
fn counted(e: &IExpr) -> Option<(Vec<usize>, i64)> {
    let IKind::Sum(terms, 0) = &e.kind else { return None };
    let mut value = None;
    let mut xs = Vec::with_capacity(terms.len());
    for (c, term) in terms {
        let IKind::BoolToInt(b) = &term.kind else { return None };
        let (x, v) = var_equals(b)?;
        if *c != 1 || value.is_some_and(|w| w != v) {
            return None;
        }
        value = Some(v);
        xs.push(x);
    }
    xs.sort_unstable();
    let distinct = xs.windows(2).all(|w| w[0] != w[1]);
    (distinct && xs.len() >= 2).then_some((xs, value?))
}

/// `x = v` (either way round) for a variable `x` and a constant `v`.
fn var_equals(b: &BExpr) -> Option<(usize, i64)> {
    match b {
        BExpr::Cmp(Cmp::Eq, a, c) => match (&a.kind, &c.kind) {
            (IKind::Var(x), IKind::Const(v)) | (IKind::Const(v), IKind::Var(x)) => Some((*x, *v)),
            _ => None,
        },
        _ => None,
    }
}

/// `sum(v)(c_v) = length(x)` and `sum(v)(v * c_v) = sum(x)`; `None` when
/// a bound would overflow.
fn sums_of(xs: &[usize], counts: &Counts, domains: &Domains) -> Option<[BExpr; 2]> {
    let total = IExpr::sum(counts.values().map(|c| (1, c.clone())).collect(), 0).ok()?;
    let weighted = counts.iter().map(|(&v, c)| (v, c.clone()));
    let minus_x = xs.iter().map(|&x| (-1, IExpr::var(x, domains.of(x))));
    let balance = IExpr::sum(weighted.chain(minus_x).collect(), 0).ok()?;
    let length = IExpr::constant(i64::try_from(xs.len()).ok()?);
    Some([BExpr::cmp(Cmp::Eq, total, length), BExpr::cmp(Cmp::Eq, balance, IExpr::constant(0))])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Source;

    fn implied(text: &str) -> Vec<BExpr> {
        let (model, program) =
            crate::lang::load_model(&Source::from_text("m.toml", text.to_string())).unwrap_or_else(|e| panic!("{e}"));
        count_sums(&program, &Domains::narrowed(&model, &program))
    }

    const MAGIC: &str = "kind = \"csp\"\n[params]\nn = 5\n[vars]\ns = { index = [\"0..n-1\"], domain = \"0..n-1\" }\n\
        [[constraint]]\nexpr = 'forall(i in 0..n-1)(s[i] = sum(j in 0..n-1)(bool2int(s[j] = i)))'\n";

    #[test]
    fn a_complete_set_of_counts_implies_two_sums() {
        let sums = implied(MAGIC);
        assert_eq!(sums.len(), 2, "{sums:?}");
        // Leaving out the count of one value that the sequence can take
        // leaves the set incomplete.
        assert!(implied(&MAGIC.replace("0..n-1)(s[i] =", "1..n-1)(s[i] =")).is_empty());
    }
}

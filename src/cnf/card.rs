//! Cardinality constraints: at-most-one, exactly-one, at-most-k and
//! at-least-k.
//!
//! At-most-one is pairwise for small sets, where it needs no extra variables,
//! and a sequential counter (Sinz 2005) above [`PAIRWISE_LIMIT`], where the
//! pairwise clause count grows quadratically. At-most-k and at-least-k use a
//! totalizer (Bailleux and Boufkhad 2003) cut off at k + 1, whose outputs can
//! also be kept as a unary count of the inputs.

use super::{ClauseSink, Lit};

/// The largest set that [`at_most_one`] encodes pairwise.
///
/// Six literals take 15 binary clauses pairwise against 14 clauses and 5
/// extra variables for the sequential counter; above that the counter wins.
pub const PAIRWISE_LIMIT: usize = 6;

/// How to encode at-most-one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AmoEncoding {
    /// Pairwise up to [`PAIRWISE_LIMIT`] literals, sequential above.
    Auto,
    /// One binary clause per pair: n(n-1)/2 clauses, no variables.
    Pairwise,
    /// A sequential counter: 3n - 4 clauses and n - 1 variables.
    Sequential,
}

/// At most one of `lits` is true.
///
/// ```
/// use somaria::cnf::{Cnf, card};
/// let mut cnf = Cnf::new();
/// let xs: Vec<_> = cnf.new_vars(3).into_iter().map(|v| v.pos()).collect();
/// card::at_most_one(&mut cnf, &xs);
/// assert_eq!(cnf.num_clauses(), 3); // pairwise below the limit
/// ```
pub fn at_most_one<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit]) {
    at_most_one_with(sink, lits, AmoEncoding::Auto);
}

/// At most one of `lits` is true, with a chosen encoding.
///
/// ```
/// use somaria::cnf::{Cnf, card::{self, AmoEncoding}};
/// let mut cnf = Cnf::new();
/// let xs: Vec<_> = cnf.new_vars(10).into_iter().map(|v| v.pos()).collect();
/// card::at_most_one_with(&mut cnf, &xs, AmoEncoding::Sequential);
/// assert_eq!(cnf.num_vars(), 10 + 9);
/// assert_eq!(cnf.num_clauses(), 3 * 10 - 4);
/// ```
pub fn at_most_one_with<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], encoding: AmoEncoding) {
    if lits.len() < 2 {
        return;
    }
    let sequential = match encoding {
        AmoEncoding::Auto => lits.len() > PAIRWISE_LIMIT,
        AmoEncoding::Pairwise => false,
        AmoEncoding::Sequential => true,
    };
    if sequential {
        sequential_at_most_one(sink, lits, lits.len() >= TWO_WAY_LADDER);
    } else {
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                sink.add_clause(&[!a, !b]);
            }
        }
    }
}

/// Exactly one of `lits` is true. With no literals this is unsatisfiable.
///
/// ```
/// use somaria::cnf::{Cnf, card};
/// let mut cnf = Cnf::new();
/// let xs: Vec<_> = cnf.new_vars(4).into_iter().map(|v| v.pos()).collect();
/// card::exactly_one(&mut cnf, &xs);
/// assert!(cnf.is_satisfied_by(&[false, true, false, false]));
/// assert!(!cnf.is_satisfied_by(&[false, true, true, false]));
/// assert!(!cnf.is_satisfied_by(&[false, false, false, false]));
/// ```
pub fn exactly_one<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit]) {
    sink.add_clause(lits);
    at_most_one(sink, lits);
}

/// From this many literals on, a sequential ladder is defined both ways.
/// On long ladders that lets a walk over the models (`solver::Walk`) settle
/// each `s[i]` at once as literals are decided false, where otherwise the
/// last true literal settled the whole ladder one after another, per model
/// (`count --limit 1000` of `sum(a) = 1` over 10^5 Booleans: 9.4 s against
/// 1.9 s). On short ones the extra clauses only steer the CDCL search:
/// `facts` on the magic sequence of 40 took 21.8 s with them, 6.7 s without.
pub const TWO_WAY_LADDER: usize = 1_000;

/// Sinz's sequential counter: `s[i]` means "one of the first i + 1 literals
/// is true".
fn sequential_at_most_one<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], two_way: bool) {
    let n = lits.len();
    let s: Vec<Lit> = sink.new_vars(n - 1).into_iter().map(|v| v.pos()).collect();
    sink.add_clause(&[!lits[0], s[0]]);
    if two_way {
        sink.add_clause(&[lits[0], !s[0]]);
    }
    for i in 1..n - 1 {
        sink.add_clause(&[!lits[i], s[i]]);
        if two_way {
            sink.add_clause(&[lits[i], s[i - 1], !s[i]]);
        }
        sink.add_clause(&[!s[i - 1], s[i]]);
        sink.add_clause(&[!lits[i], !s[i - 1]]);
    }
    sink.add_clause(&[!lits[n - 1], !s[n - 2]]);
}

/// At most `k` of `lits` are true.
///
/// ```
/// use somaria::cnf::{Cnf, card};
/// let mut cnf = Cnf::new();
/// let xs: Vec<_> = cnf.new_vars(4).into_iter().map(|v| v.pos()).collect();
/// card::at_most_k(&mut cnf, &xs, 2);
/// // The totalizer adds variables; check through a solver instead of by hand.
/// use somaria::solver::{Solve, new_solver, Answer};
/// let mut solver = new_solver(&cnf, None);
/// assert_eq!(solver.solve_under(&[xs[0], xs[1], xs[2]]).unwrap(), Answer::Unsat);
/// assert_eq!(solver.solve_under(&[xs[0], xs[3]]).unwrap(), Answer::Sat);
/// ```
pub fn at_most_k<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], k: usize) {
    match k {
        _ if k >= lits.len() => {}
        0 => lits.iter().for_each(|&l| sink.add_clause(&[!l])),
        1 => at_most_one(sink, lits),
        // A totalizer cut off at k + 1 is O(n·k): near n, count the false
        // literals instead, which keeps it O(n·(n - k)).
        _ if lits.len() - k < k => at_least_k(sink, &negate(lits), lits.len() - k),
        _ => {
            let count = Totalizer::build(sink, lits, k + 1, Bounds::Upper);
            sink.add_clause(&[!count.at_least(k + 1).expect("cut off at k + 1")]);
        }
    }
}

/// At least `k` of `lits` are true. More than `lits.len()` is unsatisfiable.
///
/// ```
/// use somaria::cnf::{Cnf, card};
/// use somaria::solver::{Solve, new_solver, Answer};
/// let mut cnf = Cnf::new();
/// let xs: Vec<_> = cnf.new_vars(5).into_iter().map(|v| v.pos()).collect();
/// card::at_least_k(&mut cnf, &xs, 3);
/// let mut solver = new_solver(&cnf, None);
/// assert_eq!(solver.solve_under(&[!xs[0], !xs[1], !xs[2]]).unwrap(), Answer::Unsat);
/// assert_eq!(solver.solve_under(&[!xs[0], !xs[1]]).unwrap(), Answer::Sat);
/// ```
pub fn at_least_k<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], k: usize) {
    match k {
        0 => {}
        _ if k > lits.len() => sink.add_clause(&[]),
        1 => chained_clause(sink, lits),
        _ if k == lits.len() => lits.iter().for_each(|&l| sink.add_clause(&[l])),
        // As in `at_most_k`: near n, at most n - k of the negations.
        _ if lits.len() - k + 1 < k => at_most_k(sink, &negate(lits), lits.len() - k),
        _ => {
            let count = Totalizer::build(sink, lits, k, Bounds::Lower);
            sink.add_clause(&[count.at_least(k).expect("cut off at k")]);
        }
    }
}

/// The longest clause [`chained_clause`] writes as one clause.
pub const CHAIN_AFTER: usize = 64;

/// The clause `lits`, split past [`CHAIN_AFTER`] literals into a chain of
/// three-literal clauses through fresh variables, each meaning "the rest of
/// the clause holds". A CDCL solver scans a long clause each time one of its
/// watches moves: enumerating the models of an exactly-one over 10^5
/// Booleans spent 60% of its time in that one clause.
///
/// ```
/// use somaria::cnf::{Cnf, card};
/// use somaria::solver::{Answer, Solve, new_solver};
/// let mut cnf = Cnf::new();
/// let xs: Vec<_> = cnf.new_vars(200).into_iter().map(|v| v.pos()).collect();
/// card::chained_clause(&mut cnf, &xs);
/// assert!(cnf.clauses().all(|c| c.len() <= 3));
/// let mut solver = new_solver(&cnf, None);
/// let all_false: Vec<_> = xs.iter().map(|&x| !x).collect();
/// assert_eq!(solver.solve_under(&all_false).unwrap(), Answer::Unsat);
/// assert_eq!(solver.solve_under(&all_false[1..]).unwrap(), Answer::Sat);
/// ```
pub fn chained_clause<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit]) {
    if lits.len() <= CHAIN_AFTER {
        sink.add_clause(lits);
        return;
    }
    linked_clause(sink, lits, 3);
}

/// The clause `lits` as links of at most `link` literals (at least 3),
/// joined by fresh variables: `(c1 ∨ a1) (¬a1 ∨ c2 ∨ a2) … (¬am ∨ cm+1)`.
/// The links hold exactly when some literal of `lits` does (the fresh
/// variables can always be set to match), and unit propagation draws the
/// same conclusions from them as from the clause. Longer links take fewer
/// fresh variables, which matters when many such clauses are added.
///
/// ```
/// use somaria::cnf::{Cnf, card};
/// let mut cnf = Cnf::new();
/// let xs: Vec<_> = cnf.new_vars(100).into_iter().map(|v| v.pos()).collect();
/// card::linked_clause(&mut cnf, &xs, 40);
/// assert_eq!((cnf.num_vars(), cnf.num_clauses()), (102, 3));
/// assert!(cnf.clauses().all(|c| c.len() <= 40));
/// ```
pub fn linked_clause<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], link: usize) {
    let inner = link.max(3) - 2;
    if lits.len() <= inner + 1 {
        sink.add_clause(lits);
        return;
    }
    let mut joint: Option<Lit> = None;
    let mut rest = lits;
    while !rest.is_empty() {
        let last = rest.len() <= inner + 1;
        let take = if last {
            rest.len()
        } else if joint.is_none() {
            inner + 1
        } else {
            inner
        };
        let mut part: Vec<Lit> = joint.map(|a| !a).into_iter().chain(rest[..take].iter().copied()).collect();
        rest = &rest[take..];
        if !last {
            let next = sink.new_var().pos();
            part.push(next);
            joint = Some(next);
        }
        sink.add_clause(&part);
    }
}

fn negate(lits: &[Lit]) -> Vec<Lit> {
    lits.iter().map(|&l| !l).collect()
}

/// Which implications a [`Totalizer`] encodes between inputs and outputs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bounds {
    /// "i inputs true ⇒ output i true": enough to forbid counts above a bound.
    Upper,
    /// "output i true ⇒ i inputs true": enough to demand counts below a bound.
    Lower,
    /// Both, so the outputs are the exact unary count (up to the cut-off).
    Both,
}

/// A unary count of a set of literals, built as a totalizer tree.
///
/// `at_least(i)` is a literal meaning "at least i inputs are true" for
/// `1 <= i <= cutoff`. Counts above the cut-off are merged into the last
/// output, which keeps the encoding at O(n · cutoff) clauses.
///
/// ```
/// use somaria::cnf::{Cnf, card::{Totalizer, Bounds}};
/// use somaria::solver::{Solve, new_solver, Answer};
/// let mut cnf = Cnf::new();
/// let xs: Vec<_> = cnf.new_vars(4).into_iter().map(|v| v.pos()).collect();
/// let count = Totalizer::build(&mut cnf, &xs, 4, Bounds::Both);
/// let mut solver = new_solver(&cnf, None);
/// // Two inputs true: "at least 2" must hold and "at least 3" must not.
/// let two = [xs[0], !xs[1], xs[2], !xs[3]];
/// assert_eq!(solver.solve_under(&[&two[..], &[!count.at_least(2).unwrap()]].concat()).unwrap(), Answer::Unsat);
/// assert_eq!(solver.solve_under(&[&two[..], &[count.at_least(3).unwrap()]].concat()).unwrap(), Answer::Unsat);
/// ```
#[derive(Clone, Debug)]
pub struct Totalizer {
    outputs: Vec<Lit>,
}

impl Totalizer {
    /// Builds the tree over `lits` with outputs up to `cutoff`. With no
    /// inputs or a cut-off of 0 there are no outputs, and no clauses.
    ///
    /// ```
    /// use somaria::cnf::{Cnf, card::{Totalizer, Bounds}};
    /// let mut cnf = Cnf::new();
    /// assert!(Totalizer::build(&mut cnf, &[], 3, Bounds::Both).outputs().is_empty());
    /// let x = cnf.new_var().pos();
    /// assert_eq!(Totalizer::build(&mut cnf, &[x], 0, Bounds::Both).outputs(), &[]);
    /// assert_eq!(Totalizer::build(&mut cnf, &[x], 5, Bounds::Both).outputs(), &[x]);
    /// assert_eq!(cnf.num_clauses(), 0);
    /// ```
    pub fn build<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], cutoff: usize, bounds: Bounds) -> Totalizer {
        if lits.is_empty() || cutoff == 0 {
            return Totalizer { outputs: Vec::new() };
        }
        Totalizer { outputs: build_node(sink, lits, cutoff, bounds) }
    }

    /// The literal for "at least `i` inputs are true", for `1 <= i <=`
    /// min(cutoff, number of inputs); `None` outside that range.
    pub fn at_least(&self, i: usize) -> Option<Lit> {
        i.checked_sub(1).and_then(|j| self.outputs.get(j)).copied()
    }

    /// All outputs: entry `j` means "at least j + 1 inputs are true".
    pub fn outputs(&self) -> &[Lit] {
        &self.outputs
    }
}

fn build_node<S: ClauseSink + ?Sized>(sink: &mut S, lits: &[Lit], cutoff: usize, bounds: Bounds) -> Vec<Lit> {
    if lits.len() == 1 {
        return lits.to_vec();
    }
    let (left, right) = lits.split_at(lits.len() / 2);
    let a = build_node(sink, left, cutoff, bounds);
    let b = build_node(sink, right, cutoff, bounds);
    let width = (a.len() + b.len()).min(cutoff);
    let r: Vec<Lit> = sink.new_vars(width).into_iter().map(|v| v.pos()).collect();
    // a[i - 1] stands for "left has at least i"; index 0 of the sums means none.
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            if matches!(bounds, Bounds::Upper | Bounds::Both) && i + j >= 1 {
                let mut clause = Vec::with_capacity(3);
                if i > 0 {
                    clause.push(!a[i - 1]);
                }
                if j > 0 {
                    clause.push(!b[j - 1]);
                }
                clause.push(r[(i + j).min(width) - 1]);
                sink.add_clause(&clause);
            }
            if matches!(bounds, Bounds::Lower | Bounds::Both) && i + j < width {
                let mut clause = Vec::with_capacity(3);
                clause.push(!r[i + j]);
                if i < a.len() {
                    clause.push(a[i]);
                }
                if j < b.len() {
                    clause.push(b[j]);
                }
                sink.add_clause(&clause);
            }
        }
    }
    r
}

/// A running sum of weighted terms in unary, up to a cut-off: the
/// sequential weight counter (Hölldobler, Manthey and Steinke, "A compact
/// encoding of pseudo-Boolean constraints into SAT", 2012), generalised to
/// terms that take one of several values.
///
/// A term is a list of `(literal, value)`: while the literal holds, the
/// term is worth at least that value, and it is worth the largest value
/// among its true literals. `at_least(c)` is forced true whenever the terms
/// are worth `c` or more in all, so assuming its negation bounds the sum
/// by `c - 1`; the outputs are ordered ("at least c + 1" implies "at least
/// c"), so one assumption also rules out every larger sum. As with
/// [`Bounds::Upper`], only that direction is encoded. A layer of `cutoff`
/// variables per term, and `cutoff` clauses per literal, so it suits sums
/// bounded close to what they must be anyway.
///
/// ```
/// use somaria::cnf::{Cnf, card::WeightedCounter};
/// use somaria::solver::{Solve, new_solver, Answer};
/// let mut cnf = Cnf::new();
/// let xs: Vec<_> = cnf.new_vars(3).into_iter().map(|v| v.pos()).collect();
/// // 2·x0 + (x1 ? 3 : 0) + (x2 ? 5 : 0), counted up to 8.
/// let sum = WeightedCounter::build(&mut cnf, &[vec![(xs[0], 2)], vec![(xs[1], 3)], vec![(xs[2], 5)]], 8);
/// let mut solver = new_solver(&cnf, None);
/// let under = |bound: u64| vec![xs[0], !xs[1], xs[2], !sum.at_least(bound + 1).unwrap()];
/// assert_eq!(solver.solve_under(&under(6)).unwrap(), Answer::Unsat);
/// assert_eq!(solver.solve_under(&under(7)).unwrap(), Answer::Sat);
/// ```
#[derive(Clone, Debug)]
pub struct WeightedCounter {
    sums: Vec<Lit>,
}

impl WeightedCounter {
    /// Builds the counter over `terms` with outputs up to `cutoff`. Terms
    /// whose values are all 0 add nothing; with none left, or a cut-off of
    /// 0, there are no outputs and no clauses.
    pub fn build<S: ClauseSink + ?Sized>(sink: &mut S, terms: &[Vec<(Lit, u64)>], cutoff: u64) -> WeightedCounter {
        let width = usize::try_from(cutoff).unwrap_or(usize::MAX);
        let mut sums: Vec<Lit> = Vec::new();
        if width == 0 {
            return WeightedCounter { sums };
        }
        for term in terms.iter().filter(|term| term.iter().any(|&(_, value)| value > 0)) {
            let next: Vec<Lit> = sink.new_vars(width).into_iter().map(|v| v.pos()).collect();
            for pair in next.windows(2) {
                sink.add_clause(&[!pair[1], pair[0]]);
            }
            // sums[c] and next[c] stand for "at least c + 1".
            for (&before, &after) in sums.iter().zip(&next) {
                sink.add_clause(&[!before, after]);
            }
            for &(lit, value) in term.iter().filter(|&&(_, value)| value > 0) {
                let value = usize::try_from(value).unwrap_or(usize::MAX).min(width);
                sink.add_clause(&[!lit, next[value - 1]]);
                for (c, &before) in sums.iter().enumerate() {
                    let reached = (c + 1).saturating_add(value).min(width);
                    sink.add_clause(&[!before, !lit, next[reached - 1]]);
                }
            }
            sums = next;
        }
        WeightedCounter { sums }
    }

    /// The literal for "the terms are worth at least `c`", for `1 <= c <=`
    /// the cut-off; `None` outside that range, or when no term is worth
    /// anything (the sum is then always 0).
    pub fn at_least(&self, c: u64) -> Option<Lit> {
        let index = usize::try_from(c).ok()?.checked_sub(1)?;
        self.sums.get(index).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Cnf;
    use crate::solver::{Answer, Solve, new_solver};
    use proptest::prelude::*;

    /// For every assignment of the inputs, the encoding is satisfiable exactly
    /// when `allowed(count of true inputs)`.
    fn check_semantics(n: usize, encode: impl Fn(&mut Cnf, &[Lit]), allowed: impl Fn(usize) -> bool) {
        let mut cnf = Cnf::new();
        let xs: Vec<Lit> = cnf.new_vars(n).into_iter().map(|v| v.pos()).collect();
        encode(&mut cnf, &xs);
        let mut solver = new_solver(&cnf, None);
        for bits in 0u32..(1 << n) {
            let assumption: Vec<Lit> =
                xs.iter().enumerate().map(|(i, &x)| if bits >> i & 1 == 1 { x } else { !x }).collect();
            let expected = if allowed(bits.count_ones() as usize) { Answer::Sat } else { Answer::Unsat };
            assert_eq!(solver.solve_under(&assumption).unwrap(), expected, "n={n} bits={bits:b}");
        }
    }

    #[test]
    fn every_amo_encoding_allows_exactly_counts_zero_and_one() {
        for n in 0..=9 {
            for enc in [AmoEncoding::Auto, AmoEncoding::Pairwise, AmoEncoding::Sequential] {
                check_semantics(n, |cnf, xs| at_most_one_with(cnf, xs, enc), |c| c <= 1);
            }
            check_semantics(n, exactly_one, |c| c == 1);
        }
    }

    #[test]
    fn a_two_way_ladder_allows_the_same_and_is_settled_by_the_literals() {
        for n in 2..=8 {
            check_semantics(n, |cnf, xs| sequential_at_most_one(cnf, xs, true), |c| c <= 1);
            let mut cnf = Cnf::new();
            let xs: Vec<Lit> = cnf.new_vars(n).into_iter().map(|v| v.pos()).collect();
            sequential_at_most_one(&mut cnf, &xs, true);
            let first = xs.iter().map(|x| x.var().index()).max().unwrap() + 1;
            assert_eq!(cnf.num_vars(), first + n - 1);
            let ladder: Vec<Lit> = (first..first + n - 1).map(|v| crate::cnf::Var::from_index(v).pos()).collect();
            let mut solver = new_solver(&cnf, None);
            for bits in 0u32..(1 << n) {
                if bits.count_ones() > 1 {
                    continue;
                }
                let assumption: Vec<Lit> =
                    xs.iter().enumerate().map(|(i, &x)| if bits >> i & 1 == 1 { x } else { !x }).collect();
                // s[i] is "one of lits[..=i]", and nothing else is possible.
                for (i, &s) in ladder.iter().enumerate() {
                    let any_before = bits & ((2u32 << i) - 1) != 0;
                    let wrong = if any_before { !s } else { s };
                    let mut under = assumption.clone();
                    under.push(wrong);
                    assert_eq!(solver.solve_under(&under).unwrap(), Answer::Unsat, "n={n} bits={bits:b} s[{i}]");
                }
            }
        }
    }

    #[test]
    fn sequential_counter_has_the_textbook_size() {
        let mut cnf = Cnf::new();
        let xs: Vec<Lit> = cnf.new_vars(20).into_iter().map(|v| v.pos()).collect();
        at_most_one(&mut cnf, &xs);
        assert_eq!(cnf.num_vars(), 20 + 19);
        assert_eq!(cnf.num_clauses(), 3 * 20 - 4);
        // The textbook's 3n - 4, and n - 1 clauses defining a long ladder both ways.
        let mut cnf = Cnf::new();
        let n = TWO_WAY_LADDER;
        let xs: Vec<Lit> = cnf.new_vars(n).into_iter().map(|v| v.pos()).collect();
        at_most_one(&mut cnf, &xs);
        assert_eq!(cnf.num_clauses(), 4 * n - 5);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn at_most_k_matches_counting(n in 0usize..8, k in 0usize..10) {
            check_semantics(n, |cnf, xs| at_most_k(cnf, xs, k), |c| c <= k);
        }

        /// Past the chain's threshold, on 64..=200 inputs: satisfiable under
        /// an assignment of the inputs exactly when one input is true.
        #[test]
        fn a_chained_clause_is_the_clause(n in 60usize..=200, trues in prop::collection::vec(0usize..200, 0..3)) {
            let mut cnf = Cnf::new();
            let xs: Vec<Lit> = cnf.new_vars(n).into_iter().map(|v| v.pos()).collect();
            chained_clause(&mut cnf, &xs);
            let assignment: Vec<Lit> = (0..n).map(|i| if trues.contains(&i) { xs[i] } else { !xs[i] }).collect();
            let mut solver = crate::solver::new_solver(&cnf, None);
            let sat = solver.solve_under(&assignment).unwrap() == crate::solver::Answer::Sat;
            prop_assert_eq!(sat, trues.iter().any(|&t| t < n));
        }

        #[test]
        fn at_least_k_matches_counting(n in 0usize..8, k in 0usize..10) {
            check_semantics(n, |cnf, xs| at_least_k(cnf, xs, k), |c| c >= k);
        }

        /// Under every assignment of the inputs, "at least c" can be false
        /// exactly when the terms are worth less than c.
        #[test]
        fn the_weighted_counter_bounds_the_weighted_sum(
            terms in prop::collection::vec(prop::collection::vec((0usize..5, 0u64..7), 0..4), 0..5),
            cutoff in 0u64..16,
        ) {
            let mut cnf = Cnf::new();
            let xs: Vec<Lit> = cnf.new_vars(5).into_iter().map(|v| v.pos()).collect();
            let terms: Vec<Vec<(Lit, u64)>> =
                terms.iter().map(|t| t.iter().map(|&(i, value)| (xs[i], value)).collect()).collect();
            let sum = WeightedCounter::build(&mut cnf, &terms, cutoff);
            let mut solver = new_solver(&cnf, None);
            for bits in 0u32..32 {
                let holds = |lit: Lit| xs.iter().position(|&x| x == lit).is_some_and(|i| bits >> i & 1 == 1);
                let worth: u64 =
                    terms.iter().map(|t| t.iter().filter(|&&(l, _)| holds(l)).map(|&(_, v)| v).max().unwrap_or(0)).sum();
                let inputs: Vec<Lit> = xs.iter().enumerate().map(|(i, &x)| if bits >> i & 1 == 1 { x } else { !x }).collect();
                for c in 1..=cutoff {
                    let Some(output) = sum.at_least(c) else {
                        prop_assert_eq!(worth, 0, "no output, yet the terms are worth {}", worth);
                        continue;
                    };
                    let mut under = inputs.clone();
                    under.push(!output);
                    let expected = if worth < c { Answer::Sat } else { Answer::Unsat };
                    prop_assert_eq!(solver.solve_under(&under).unwrap(), expected, "bits {:b}, c {}", bits, c);
                }
            }
        }

        #[test]
        fn totalizer_outputs_are_the_exact_count(n in 0usize..8, cutoff in 0usize..9, target in 0usize..9) {
            // "at least `target`" output forced true and "at least target+1"
            // forced false leaves exactly the inputs counting to `target`
            // (or, at the cut-off, to target or more).
            check_semantics(n, |cnf, xs| {
                let count = Totalizer::build(cnf, xs, cutoff, Bounds::Both);
                if target >= 1 {
                    match count.at_least(target) {
                        Some(lit) => cnf.add_clause(&[lit]),
                        None => cnf.add_clause(&[]),
                    }
                }
                if let Some(lit) = count.at_least(target + 1) {
                    cnf.add_clause(&[!lit]);
                }
            }, |c| {
                let width = n.min(cutoff);
                if target > width { false }
                else if target == width { c >= target }
                else { c == target }
            });
        }
    }
}

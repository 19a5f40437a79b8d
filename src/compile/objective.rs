//! The objective encoded once for the solution-improving search. Each bound
//! used to be a new linear constraint, a decision diagram or adder built
//! afresh: for a tour's length over 16 cities, half a million variables per
//! bound. Here the objective's terms are spelt out once as weighted literals
//! and summed by one rustsat counter, which grows lazily as bounds are asked
//! for; a bound is a selector over the counter's own output literals, so a
//! tighter bound costs a few clauses and the solver keeps what it learnt
//! about the sum.
//!
//! The counter is rustsat's generalized totalizer while the distinct sums
//! up to the first bound are few (one output per sum, which propagates
//! best), else its dynamic polynomial watchdog, whose size follows the
//! number of weights and their bits rather than the sums. Both are "if"
//! encodings: the inputs push the outputs up, never down, so the clauses
//! forbid nothing until a selector is assumed.

use rustsat::encodings::pb::{BoundUpper, BoundUpperIncremental, DynamicPolyWatchdog, GeneralizedTotalizer};

use super::linear::{self, Collector, Lin, Numbering, Weighted};
use super::{CompileError, Encoder};
use crate::cnf::Lit;

/// The counter behind the bounds.
enum Counter {
    /// One output literal per distinct sum.
    Totalizer(GeneralizedTotalizer),
    /// Outputs per bit level, with tares that make every bound exact.
    Watchdog(DynamicPolyWatchdog),
}

/// Bounds on one side of the objective `z`: with `sign` +1 it is bounded
/// from above, with −1 from below, through `sign·z = k + divisor·Σ w·l`.
pub(crate) struct Tightening {
    sign: i128,
    k: i128,
    divisor: i128,
    total: u64,
    counter: Counter,
}

/// The most pairs of sums the totalizer's top merge may take.
const TOTALIZER_MERGE: usize = 1 << 20;

/// Which counter to build: `binary` (the wide-domain path,
/// [`super::Linear::Binary`]) always takes the watchdog, so that the random
/// models cross-check it; otherwise the totalizer while its sums up to
/// `first` are few.
fn choose(weighted: &Weighted, first: u64, binary: bool) -> Counter {
    // A merge pairs every sum of one half with every sum of the other.
    let (left, right) = weighted.split_at(weighted.len() / 2);
    let merge = linear::distinct_sums(left, first).saturating_mul(linear::distinct_sums(right, first));
    let small = merge <= TOTALIZER_MERGE;
    let inputs = weighted.iter().map(|&(w, l)| (linear::to_rs(l), w as usize));
    if small && !binary { Counter::Totalizer(inputs.collect()) } else { Counter::Watchdog(inputs.collect()) }
}

impl Encoder {
    /// The tightening for `objective` on the side `sign`, built on the first
    /// call for that side, with `first` (the first bound asked for) to choose
    /// its counter. `None` when the objective has fewer than three variables:
    /// its bounds are one literal, or one clause per value, already.
    fn tightening(&mut self, objective: &Lin, sign: i128, first: i64) -> Result<Option<usize>, CompileError> {
        let side = usize::from(sign < 0);
        if self.tightenings[side].is_some() {
            return Ok(Some(side));
        }
        let (terms, k, _, _) = self.normalize(objective);
        if terms.len() < 3 {
            return Ok(None);
        }
        let signed: Vec<(i128, usize)> = terms.iter().map(|&(c, x)| (sign * c, x)).collect();
        let signed = self.pb_terms(&signed)?;
        let (weighted, k) = self.weighted_form(&signed, sign * k);
        let divisor = weighted.iter().fold(0i128, |g, &(w, _)| linear::gcd(g, w as i128)).max(1);
        let weighted: Weighted = weighted.into_iter().map(|(w, l)| ((w as i128 / divisor) as u64, l)).collect();
        let total: u128 = weighted.iter().map(|&(w, _)| w as u128).sum();
        if total > 1u128 << 62 {
            return Err(CompileError::TooLarge(format!(
                "an objective whose weights add up to {total}, beyond the 2^62 the pseudo-Boolean encodings take"
            )));
        }
        let first = linear::floor_div(sign * first as i128 - k, divisor).clamp(0, total as i128) as u64;
        let counter = choose(&weighted, first, self.binary);
        self.tightenings[side] = Some(Tightening { sign, k, divisor, total: total as u64, counter });
        Ok(Some(side))
    }

    /// A selector that, when assumed, makes the objective at most `v`
    /// (`sign` +1) or at least `v` (`sign` −1), on the objective's one
    /// counter; `None` when the objective is too small to need one
    /// ([`Encoder::tightening`]).
    pub(super) fn tightened(&mut self, objective: &Lin, sign: i128, v: i64) -> Result<Option<Lit>, CompileError> {
        let Some(side) = self.tightening(objective, sign, v)? else { return Ok(None) };
        let Some(mut t) = self.tightenings[side].take() else {
            return Err(CompileError::Internal("a tightening that was just built is gone".into()));
        };
        let result = self.enforce(&mut t, v);
        self.tightenings[side] = Some(t);
        result.map(Some)
    }

    /// The selector for `t`'s bound at `v`, extending its counter as needed.
    fn enforce(&mut self, t: &mut Tightening, v: i64) -> Result<Lit, CompileError> {
        let selector = self.new_lit()?;
        // sign·z ≤ sign·v  ⟺  Σ w·l ≤ ⌊(sign·v − k) / divisor⌋.
        let bound = linear::floor_div(t.sign * v as i128 - t.k, t.divisor);
        if bound < 0 {
            self.clause(&[!selector]);
            return Ok(selector);
        }
        if bound >= t.total as i128 {
            return Ok(selector);
        }
        let bound = bound as usize;
        let too_large =
            |e: &dyn std::fmt::Display| CompileError::TooLarge(format!("the objective's encoding failed: {e}"));
        let mut collector = Collector { clauses: Vec::new() };
        let mut numbering = Numbering { next: self.num_vars as u32 };
        let assumptions = match &mut t.counter {
            Counter::Totalizer(gte) => {
                gte.encode_ub_change(bound..=bound, &mut collector, &mut numbering).map_err(|e| too_large(&e))?;
                gte.enforce_ub(bound).map_err(|e| too_large(&e))?
            }
            Counter::Watchdog(dpw) => {
                dpw.encode_ub_change(bound..=bound, &mut collector, &mut numbering).map_err(|e| too_large(&e))?;
                dpw.enforce_ub(bound).map_err(|e| too_large(&e))?
            }
        };
        while self.num_vars < numbering.next as usize {
            self.new_var()?;
        }
        for clause in collector.clauses {
            self.clause(&clause);
        }
        for a in assumptions {
            self.clause(&[!selector, linear::from_rs(a)]);
        }
        Ok(selector)
    }
}

//! What a set of rules forces about a wide subject (one with hundreds of
//! open values, such as `x` in `x + y = 1000` over 1..1000), read from its
//! bounds. Showing each value of such a subject possible takes a model of
//! its own, so a set's test gives up on it ([`super::plan`]'s wide
//! subjects); but the values below the least and above the greatest it can
//! take are ruled out by one unsatisfiable call each, found by halving.
//! The values between are left untested: a hole there is not shown.

use std::collections::HashSet;

use super::Deductions;
use super::plan::{Forced, Settled, lit, under};
use super::witness::Witnesses;
use crate::cnf::Lit;
use crate::solver::{Answer, SolverError};

/// The candidates about subjects in `wide` that `rules`, with the `known`
/// facts, force by bounds: each subject's values below the least it can
/// take and above the greatest, and its value when only one is left. The
/// core is the known facts of the cores that proved them.
pub(super) fn forced_by_bounds(
    d: &mut Deductions<'_>,
    pool: &mut Witnesses,
    rules: &[usize],
    known: &[Settled],
    candidates: &[Settled],
    wide: &HashSet<usize>,
) -> Result<Forced, SolverError> {
    let assumptions = under(d, rules, known);
    let mut subjects: Vec<usize> = wide.iter().copied().collect();
    subjects.sort_unstable();
    let mut probe = Probe { d, pool, assumptions, known, core: HashSet::new() };
    let mut facts = Vec::new();
    for subject in subjects {
        let about = |c: &&Settled| probe.d.facts[c.fact].subject == subject;
        let mut ruled_out: Vec<Settled> = candidates.iter().filter(about).filter(|c| !c.holds).copied().collect();
        ruled_out.sort_by_key(|c| probe.d.facts[c.fact].value);
        // The values a model may give it, as literals, least first.
        let values: Vec<Lit> = ruled_out.iter().map(|&c| lit(probe.d, Settled { fact: c.fact, holds: true })).collect();
        let below = probe.longest_impossible(&values)?;
        let reversed: Vec<Lit> = values[below..].iter().rev().copied().collect();
        let above = probe.longest_impossible(&reversed)?;
        let inside = &ruled_out[below..ruled_out.len() - above];
        facts.extend_from_slice(&ruled_out[..below]);
        facts.extend_from_slice(&ruled_out[ruled_out.len() - above..]);
        // One value left: it holds, unless no value is left at all.
        if let [only] = inside {
            let placed = candidates.iter().find(|c| c.holds && c.fact == only.fact);
            if let Some(&placed) = placed
                && probe.impossible(&[lit(probe.d, Settled { fact: only.fact, holds: false })])?
            {
                facts.push(placed);
            }
        }
    }
    let mut core: Vec<Settled> = known.iter().filter(|k| probe.core.contains(&k.fact)).copied().collect();
    core.sort();
    if facts.is_empty() {
        core.clear();
    }
    Ok(Forced { facts, core })
}

/// SAT calls under one set of rules and known facts, each with a clause of
/// its own behind a selector retired after the call ([`Deductions::retire`]).
struct Probe<'a, 'd, 'p> {
    d: &'a mut Deductions<'p>,
    pool: &'a mut Witnesses,
    assumptions: Vec<Lit>,
    known: &'d [Settled],
    /// The known facts met by the cores of the calls that had no model.
    core: HashSet<usize>,
}

impl Probe<'_, '_, '_> {
    /// Whether no model makes one of `any` true.
    fn impossible(&mut self, any: &[Lit]) -> Result<bool, SolverError> {
        let selector = self.d.solver.new_var().pos();
        let mut clause = any.to_vec();
        clause.push(!selector);
        self.d.solver.add_clause(&clause);
        let mut assumptions = self.assumptions.clone();
        assumptions.push(selector);
        let answer = self.d.solver.solve_under(&assumptions);
        let impossible = match answer {
            Ok(Answer::Sat) => {
                self.pool.record(self.d);
                Ok(false)
            }
            Ok(Answer::Unsat) => {
                let core: HashSet<Lit> = self.d.solver.failed_core().into_iter().collect();
                let met = self.known.iter().filter(|&&k| core.contains(&lit(self.d, k)));
                self.core.extend(met.map(|k| k.fact));
                Ok(true)
            }
            Err(e) => Err(e),
        };
        self.d.retire(selector);
        impossible
    }

    /// The most of `values` (from the front) that no model takes, found by
    /// halving: if none of the first k can hold, none of fewer can.
    fn longest_impossible(&mut self, values: &[Lit]) -> Result<usize, SolverError> {
        if values.is_empty() || !self.impossible(&values[..1])? {
            return Ok(0);
        }
        let (mut lo, mut hi) = (1, values.len());
        // Invariant: the first `lo` are impossible; past `hi` some may hold.
        if self.impossible(values)? {
            return Ok(values.len());
        }
        hi -= 1;
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if self.impossible(&values[..mid])? {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        Ok(lo)
    }
}

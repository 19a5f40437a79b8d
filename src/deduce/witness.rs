//! Models met during a search, kept as witnesses. A model in which a
//! rule's selector is true satisfies that rule (its clauses are guarded by
//! the selector, and a lazy rule judges every model whose selector is
//! true), so a model seen once shows, with no new SAT call, that the rules
//! it satisfies, the facts it makes true and the fixed part can all hold
//! together. A set of rules with known facts cannot force a fact that such
//! a model refutes: the planner asks the pool before the solver.

use super::Deductions;
use super::plan::Settled;
use crate::cnf::Lit;
use crate::solver::{Answer, SolverError};

/// A ring of the last models seen, each as bits: the facts' literals, then
/// the rules' selectors.
#[derive(Clone, Debug)]
pub struct Witnesses {
    fact_words: usize,
    words: usize,
    bits: Vec<u64>,
    capacity: usize,
    len: usize,
    next: usize,
    /// Models kept since the pool was made, the oldest perhaps gone.
    kept: usize,
}

impl Witnesses {
    /// An empty pool for `d`'s facts and rules, holding at most `capacity`
    /// models (the oldest go first).
    pub fn new(d: &Deductions<'_>, capacity: usize) -> Witnesses {
        let fact_words = d.facts.len().div_ceil(64);
        let words = fact_words + d.rules.len().div_ceil(64);
        Witnesses { fact_words, words, bits: Vec::new(), capacity: capacity.max(1), len: 0, next: 0, kept: 0 }
    }

    /// Solves `d` under `assumptions` (which must hold `d`'s fixed ones):
    /// the failed core when unsatisfiable; otherwise the model is kept and
    /// the answer is `None`. The test [`crate::solver::shrink_by_deletion`]
    /// asks for, with every model it meets kept.
    pub fn core_or_keep(
        &mut self,
        d: &mut Deductions<'_>,
        assumptions: &[Lit],
    ) -> Result<Option<Vec<Lit>>, SolverError> {
        Ok(match d.solver.solve_under(assumptions)? {
            Answer::Unsat => Some(d.solver.failed_core()),
            Answer::Sat => {
                self.record(d);
                None
            }
        })
    }

    /// Keeps the model of `d`'s last satisfiable call, which must have held
    /// `d`'s fixed assumptions.
    pub fn record(&mut self, d: &Deductions<'_>) {
        let mut model = vec![0u64; self.words];
        for (i, f) in d.facts.iter().enumerate() {
            if d.solver.value(f.lit) {
                model[i / 64] |= 1 << (i % 64);
            }
        }
        let fact = |f: usize| model[f / 64] >> (f % 64) & 1 == 1;
        let holds: Vec<bool> = d
            .rules
            .iter()
            .map(|r| d.solver.value(r.selector) || r.reads.as_ref().is_some_and(|reads| reads.satisfied(fact)))
            .collect();
        for (i, &holds) in holds.iter().enumerate() {
            if holds {
                model[self.fact_words + i / 64] |= 1 << (i % 64);
            }
        }
        self.keep(&model);
    }

    /// Keeps `model`, in this pool's layout, over the oldest when full.
    fn keep(&mut self, model: &[u64]) {
        if self.len < self.capacity {
            self.bits.extend_from_slice(model);
            self.len += 1;
        } else {
            self.bits[self.next * self.words..(self.next + 1) * self.words].copy_from_slice(model);
        }
        self.next = (self.next + 1) % self.capacity;
        self.kept += 1;
    }

    /// How many models were kept since the pool was made (some perhaps
    /// gone since): a mark for [`Witnesses::copy_since`].
    pub fn kept(&self) -> usize {
        self.kept
    }

    /// Copies into `into` (a pool for the same facts and rules) the models
    /// kept here after `mark` (an earlier [`Witnesses::kept`]) that are
    /// still here, oldest first.
    pub fn copy_since(&self, mark: usize, into: &mut Witnesses) {
        let fresh = (self.kept - mark).min(self.len);
        for back in (1..=fresh).rev() {
            let slot = (self.next + self.capacity - back) % self.capacity;
            into.keep(&self.bits[slot * self.words..(slot + 1) * self.words]);
        }
    }

    /// Drops from `wanted` every entry that some model makes true while it
    /// satisfies each of the rules `on` (indices into the rules) and agrees
    /// with every one of `known`.
    pub fn drop_shown(&self, on: &[usize], known: &[Settled], wanted: &mut Vec<Settled>) {
        if wanted.is_empty() {
            return;
        }
        for model in self.bits.chunks_exact(self.words) {
            let fact = |f: usize| model[f / 64] >> (f % 64) & 1 == 1;
            let rule = |r: usize| model[self.fact_words + r / 64] >> (r % 64) & 1 == 1;
            if on.iter().all(|&r| rule(r)) && known.iter().all(|k| fact(k.fact) == k.holds) {
                wanted.retain(|w| fact(w.fact) != w.holds);
                if wanted.is_empty() {
                    return;
                }
            }
        }
    }

    /// The 64-bit words one model takes.
    pub fn model_words(&self) -> usize {
        self.words
    }

    /// The models kept.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no model is kept.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

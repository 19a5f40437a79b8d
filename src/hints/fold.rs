//! Placements with their reasons: the planner's steps taken one by one,
//! as `--next any` shows them, and each step that settles a shown thing
//! (a digit written, a cell shaded) shown with the earlier steps it needs
//! folded into its reason. The steps no placement needs are never shown:
//! on an easy Sudoku they are the 25 or so eliminations ("cell[1,4] ≠ 7
//! because of each box") that come before the first digit, which a player
//! does not want as hints of their own.
//!
//! Each step is re-checked as it is taken, folded or not; a folded step's
//! rules and public facts are re-checked to force its placements
//! ([`crate::deduce::verify::check_forced`]).

use std::collections::{HashMap, HashSet};

use crate::deduce::Deductions;
use crate::deduce::plan::{Settled, Step};

/// Which steps a question shows.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Next {
    /// Every step the planner takes, eliminations included.
    #[default]
    Any,
    /// Only the steps that settle a shown thing, each with the steps it
    /// needs folded into its reason.
    Placement,
}

/// A placement and the earlier steps it needs.
pub(super) struct Folded {
    /// The placement: its facts are the values settled; its rules are those
    /// of every step it needs, in increasing order; its facts used are the
    /// ones known without those steps.
    pub step: Step,
    /// The steps it needs, in the order they were taken; the last found
    /// the placement.
    pub via: Vec<Step>,
}

/// The steps taken so far in one question, and which were shown.
#[derive(Default)]
pub(super) struct Folding {
    /// Every step taken, in order, and whether a shown step holds it.
    taken: Vec<(Step, bool)>,
    /// Per fact found by a step not yet shown, that step.
    origin: HashMap<usize, usize>,
}

/// Whether `fact`, settled, gives its thing a value: it holds, or its
/// thing has no other fact (a Boolean with one literal).
pub(super) fn places(d: &Deductions<'_>, fact: Settled) -> bool {
    let subject = d.facts[fact.fact].subject;
    fact.holds || d.facts.iter().filter(|f| f.subject == subject).count() == 1
}

impl Folding {
    /// Records `step`, just taken; the placement it makes with the steps it
    /// needs, when it makes one.
    pub fn record(&mut self, d: &Deductions<'_>, step: &Step) -> Option<Folded> {
        let index = self.taken.len();
        self.taken.push((step.clone(), false));
        let placed: Vec<Settled> = step.facts.iter().copied().filter(|&f| places(d, f)).collect();
        for f in &step.facts {
            if !placed.contains(f) {
                self.origin.insert(f.fact, index);
            }
        }
        if placed.is_empty() {
            return None;
        }
        let needed = self.needed(index);
        let mut because: Vec<usize> = Vec::new();
        let mut using: Vec<Settled> = Vec::new();
        for &i in &needed {
            let (s, shown) = &mut self.taken[i];
            *shown = true;
            because.extend(&s.because);
            using.extend(s.using.iter().filter(|u| !self.origin.contains_key(&u.fact)));
        }
        because.sort_unstable();
        because.dedup();
        using.sort();
        using.dedup();
        // Each step shown with only the facts the next ones use, or the
        // placements: the rest are of no use to this placement.
        let used: HashSet<usize> = needed.iter().flat_map(|&i| self.taken[i].0.using.iter().map(|u| u.fact)).collect();
        let via: Vec<Step> = needed
            .iter()
            .map(|&i| {
                let mut s = self.taken[i].0.clone();
                s.facts.retain(|f| if i == index { placed.contains(f) } else { used.contains(&f.fact) });
                s
            })
            .collect();
        // A fact shown is known from now on; one left out is still found
        // by its step, which a later placement that uses it shows again.
        let shown: HashSet<usize> = via.iter().flat_map(|s| s.facts.iter().map(|f| f.fact)).collect();
        self.origin.retain(|fact, _| !shown.contains(fact));
        let smallest = via.len() == 1 && step.smallest;
        let using_minimal = via.len() == 1 && step.using_minimal;
        let step = Step { facts: placed, because, using, smallest, using_minimal };
        Some(Folded { step, via })
    }

    /// The steps not yet shown that step `last` needs, with it, in order:
    /// those that found a fact it uses, and the steps they need in turn.
    fn needed(&self, last: usize) -> Vec<usize> {
        let mut needed: HashSet<usize> = HashSet::from([last]);
        let mut stack = vec![last];
        while let Some(i) = stack.pop() {
            for u in &self.taken[i].0.using {
                if let Some(&from) = self.origin.get(&u.fact)
                    && from != i
                    && needed.insert(from)
                {
                    stack.push(from);
                }
            }
        }
        let mut needed: Vec<usize> = needed.into_iter().collect();
        needed.sort_unstable();
        needed
    }

    /// The steps taken and not shown, in order.
    pub fn unshown(&self) -> impl Iterator<Item = &Step> {
        self.taken.iter().filter(|(_, shown)| !shown).map(|(s, _)| s)
    }
}

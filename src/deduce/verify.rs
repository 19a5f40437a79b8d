//! The re-check of a step, apart from the search that found it: on a
//! [`Deductions`] of its own (built afresh by the family for checking
//! only), with only the step's rules switched on and only the facts it
//! uses assumed, each new fact's negation must have no model, and with any
//! one rule dropped it must have one, which passes the family's check of
//! the rules left.

use super::Deductions;
use super::plan::{Step, lit};
use crate::cnf::Lit;
use crate::solver::{Checked, SolverError, possible_literals};

/// Re-checks `step` on `checker`, whose rules and facts must be those the
/// step's indices were taken from. A step that fails is an error
/// ([`SolverError::ModelRejected`]) saying what failed.
pub fn check_step(checker: &mut Deductions<'_>, step: &Step) -> Result<(), SolverError> {
    let negations: Vec<Lit> = step.facts.iter().map(|&f| !lit(checker, f)).collect();
    let name = |d: &Deductions<'_>, i: usize| d.facts[step.facts[i].fact].name.clone();
    let forced = holding(checker, &step.because, step, &negations)?;
    let Some(possible) = forced else {
        return Err(rejected("its rules and the facts it uses contradict each other".to_string()));
    };
    if let Some(i) = possible.iter().position(|&p| p) {
        return Err(rejected(format!("its rules and facts do not force {:?}", name(checker, i))));
    }
    for (at, &dropped) in step.because.iter().enumerate() {
        let rest: Vec<usize> = step.because.iter().enumerate().filter(|&(i, _)| i != at).map(|(_, &r)| r).collect();
        let Some(possible) = holding(checker, &rest, step, &negations)? else {
            return Err(rejected("without one of its rules its facts still contradict each other".to_string()));
        };
        if let Some(i) = possible.iter().position(|&p| !p) {
            let rule = &checker.rules[dropped].name;
            return Err(rejected(format!(
                "without {rule:?} it still forces {:?}: its set is not minimal",
                name(checker, i)
            )));
        }
    }
    Ok(())
}

/// Re-checks that `step`'s rules, with the facts it uses, force its new
/// facts, without asking that every rule be needed: the check of a step
/// folded from several ([`crate::hints`]'s placements), each of which
/// passed [`check_step`] when it was taken.
pub fn check_forced(checker: &mut Deductions<'_>, step: &Step) -> Result<(), SolverError> {
    let negations: Vec<Lit> = step.facts.iter().map(|&f| !lit(checker, f)).collect();
    let Some(possible) = holding(checker, &step.because, step, &negations)? else {
        return Err(rejected("its rules and the facts it uses contradict each other".to_string()));
    };
    match possible.iter().position(|&p| p) {
        Some(i) => {
            let name = checker.facts[step.facts[i].fact].name.clone();
            Err(rejected(format!("its rules and facts do not force {name:?}")))
        }
        None => Ok(()),
    }
}

/// For each of `negations`, whether it can hold with `rules` on and the
/// step's used facts; every model is checked against `rules`.
fn holding(
    checker: &mut Deductions<'_>,
    rules: &[usize],
    step: &Step,
    negations: &[Lit],
) -> Result<Option<Vec<bool>>, SolverError> {
    if let (true, Some(truth)) = (rules.is_empty(), checker.domains_only) {
        return Ok(possible_by_domains(checker, truth, step, negations));
    }
    let mut assumptions = checker.assumptions.clone();
    assumptions.extend(rules.iter().map(|&r| checker.rules[r].selector));
    assumptions.extend(checker.off_judged(rules));
    assumptions.extend(step.using.iter().map(|&u| lit(checker, u)));
    let Deductions { solver, check, .. } = checker;
    let mut checked = Checked::new(&mut **solver, |value: &dyn Fn(Lit) -> bool| check(value, Some(rules)));
    Ok(possible_literals(&mut checked, negations, &assumptions)?.map(|p| p.possible))
}

/// [`holding`] with no rule on, over a fixed part that holds only the
/// subjects' domains ([`Deductions::domains_only`]): each subject takes
/// exactly one of its facts' values, any whose literal is not the
/// constant's negation and that the used facts leave it, whatever the
/// others take. Worked out here rather than by the search's own shortcut,
/// so that the re-check stays apart from it; a SAT test would show one
/// value of a subject per model (2,700 models for a tour's leg lengths).
fn possible_by_domains(checker: &Deductions<'_>, truth: Lit, step: &Step, negations: &[Lit]) -> Option<Vec<bool>> {
    use std::collections::HashMap;
    let used: HashMap<usize, bool> = step.using.iter().map(|u| (u.fact, u.holds)).collect();
    // Per subject: the facts it may take, and those it must (at most one).
    let mut may: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut must: HashMap<usize, Vec<usize>> = HashMap::new();
    for (f, fact) in checker.facts.iter().enumerate() {
        let said = used.get(&f).copied();
        if said != Some(false) && fact.lit != !truth {
            may.entry(fact.subject).or_default().push(f);
        }
        if said == Some(true) || fact.lit == truth {
            must.entry(fact.subject).or_default().push(f);
        }
    }
    let values = |subject: usize| -> Vec<usize> {
        let may = may.get(&subject).map_or(&[][..], |v| &v[..]);
        match must.get(&subject).map(|m| &m[..]) {
            None | Some([]) => may.to_vec(),
            Some([one]) => may.iter().copied().filter(|f| f == one).collect(),
            Some(_) => Vec::new(),
        }
    };
    // A subject the used facts leave no value: no model at all.
    let speaks_of = step.using.iter().map(|u| checker.facts[u.fact].subject);
    if speaks_of.clone().any(|s| values(s).is_empty()) {
        return None;
    }
    let mut left: HashMap<usize, Vec<usize>> = HashMap::new();
    let possible = step
        .facts
        .iter()
        .zip(negations)
        .map(|(f, &negation)| {
            let subject = checker.facts[f.fact].subject;
            let values = left.entry(subject).or_insert_with(|| values(subject));
            // The negation makes the fact's value hold, or another one.
            let holds = negation == checker.facts[f.fact].lit;
            if holds { values.contains(&f.fact) } else { values.iter().any(|&g| g != f.fact) }
        })
        .collect();
    Some(possible)
}

fn rejected(why: String) -> SolverError {
    SolverError::ModelRejected(format!("a step failed its re-check: {why}"))
}

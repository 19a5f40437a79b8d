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
    let mut assumptions = checker.assumptions.clone();
    assumptions.extend(rules.iter().map(|&r| checker.rules[r].selector));
    assumptions.extend(checker.off_judged(rules));
    assumptions.extend(step.using.iter().map(|&u| lit(checker, u)));
    let Deductions { solver, check, .. } = checker;
    let mut checked = Checked::new(&mut **solver, |value: &dyn Fn(Lit) -> bool| check(value, Some(rules)));
    Ok(possible_literals(&mut checked, negations, &assumptions)?.map(|p| p.possible))
}

fn rejected(why: String) -> SolverError {
    SolverError::ModelRejected(format!("a step failed its re-check: {why}"))
}

//! `--proof FILE`: a step's re-check written out for an outside checker.
//! The formula holds only the mechanics, the step's constraints (every
//! other rule's clauses left out, cuts included: a cut belongs to its
//! rule), the facts the step uses and "some new fact fails"; a fresh solver
//! refutes it, writing DRAT. A cut is a clause the rule implies that the
//! solver added between solves: the formula states it, so the checker
//! checks the refutation of the formula with the cuts, and each cut holds
//! by its rule's argument, not by the proof.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::cnf::{Cnf, Lit};
use crate::deduce::Deductions;
use crate::deduce::plan::{Step, lit};
use crate::puzzles::Error;
use crate::report::steps::StepProof;
use crate::solver::{Answer, ProofFormat, SolverConfig, solve_with_proof};

/// Refuses `--proof` up front for a puzzle whose deductions give no formula.
pub(super) fn available(checker: &Deductions<'_>, kind: &str) -> Result<(), Error> {
    match checker.formula {
        Some(_) => Ok(()),
        None => Err(unavailable(kind)),
    }
}

/// The refusal of `--proof` for a kind whose steps are not refutations
/// (a keys-and-doors step is a leg of a route found by search).
pub(super) fn unavailable(kind: &str) -> Error {
    Error::BadRequest(format!(
        "--proof: the steps of {kind} puzzles cannot be written as proofs; expected a csp, fans or tile-cover \
         model, or no --proof"
    ))
}

/// Where step `number` (from 1) is written: `FILE` itself for a hint, else
/// `FILE.number`; its formula goes beside it, with `.cnf` added.
pub(super) fn paths(file: &Path, number: Option<usize>) -> (PathBuf, PathBuf) {
    let mut proof = file.as_os_str().to_owned();
    if let Some(n) = number {
        proof.push(format!(".{n}"));
    }
    let mut formula = proof.clone();
    formula.push(".cnf");
    (PathBuf::from(proof), PathBuf::from(formula))
}

/// The formula of `step`'s re-check on `checker`; see the module documentation.
pub fn step_formula(checker: &Deductions<'_>, step: &Step) -> Option<Cnf> {
    let whole = (checker.formula.as_ref()?)();
    let on: HashSet<usize> = step.because.iter().copied().collect();
    let off: HashSet<Lit> =
        checker.rules.iter().enumerate().filter(|(r, _)| !on.contains(r)).map(|(_, rule)| !rule.selector).collect();
    let mut cnf = Cnf::new();
    cnf.new_vars(whole.num_vars());
    // Each clause under its group's name, so the cuts show as cuts.
    let mut last = None;
    for (group, clause) in whole.grouped_clauses() {
        if clause.iter().any(|l| off.contains(l)) {
            continue;
        }
        if last != Some(group) {
            cnf.open_group(whole.groups()[group.index()].name.clone(), None);
            last = Some(group);
        }
        cnf.add_clause(clause);
    }
    cnf.open_group("the step's constraints are on", None);
    for &r in &step.because {
        cnf.add_clause(&[checker.rules[r].selector]);
    }
    for &a in &checker.assumptions {
        cnf.add_clause(&[a]);
    }
    cnf.open_group("the known facts the step uses", None);
    for &u in &step.using {
        cnf.add_clause(&[lit(checker, u)]);
    }
    cnf.open_group("some new fact fails", None);
    let negations: Vec<Lit> = step.facts.iter().map(|&f| !lit(checker, f)).collect();
    cnf.add_clause(&negations);
    Some(cnf)
}

/// Writes `step`'s formula and its DRAT refutation to `paths`.
pub(super) fn write(
    checker: &Deductions<'_>,
    step: &Step,
    config: &SolverConfig,
    (proof, formula): (PathBuf, PathBuf),
) -> Result<StepProof, Error> {
    let cannot = |path: &Path, e: std::io::Error| Error::Output(format!("{}: cannot write: {e}", path.display()));
    let Some(cnf) = step_formula(checker, step) else {
        return Err(Error::Internal("a step proof was asked of deductions that give no formula".into()));
    };
    let file = std::fs::File::create(&formula).map_err(|e| cannot(&formula, e))?;
    cnf.write_dimacs(std::io::BufWriter::new(file)).map_err(|e| cannot(&formula, e))?;
    let out = std::fs::File::create(&proof).map_err(|e| cannot(&proof, e))?;
    let out: Box<dyn std::io::Write + Send> = Box::new(std::io::BufWriter::new(out));
    if solve_with_proof(&cnf, config, None, out, ProofFormat::Drat)? == Answer::Sat {
        return Err(Error::Internal(format!(
            "the re-check of a step was refuted, but its formula {} has a model",
            formula.display()
        )));
    }
    Ok(StepProof { formula: formula.display().to_string(), proof: proof.display().to_string() })
}

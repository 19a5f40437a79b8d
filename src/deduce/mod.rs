//! Deductions over a puzzle's named rules: what holds in every solution,
//! which rules cannot all hold together, and (for the commands to come)
//! which few rules force a fact. It knows no puzzle and no family: a family
//! hands it a [`Deductions`] through `Deducible::deductions`, and `facts`,
//! `explain`, hints, steps and clue minimisation are written once, here.
//!
//! A [`Deductions`] is a solver holding the puzzle with each named [`Rule`]
//! behind a selector literal (its clauses, and any lazy cuts it makes, hold
//! only while the selector is assumed), the candidate [`Fact`]s as
//! literals, and the family's independent check of a model. Every claim made
//! here rests on the solver and on that check: a set of rules is "possible
//! together" only when a model of them passes it.

use std::collections::HashMap;

use crate::cnf::{Cnf, GroupId, Lit};
use crate::grid::Pos;
use crate::solver::{Answer, Checked, Solve, SolverError, possible_literals, shrink_by_deletion};

/// One of the puzzle's rules, in its own words, that can be switched off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The literal under which the rule holds; unassumed, the rule is off.
    pub selector: Lit,
    /// What the rule demands, such as "weathercock at (1, 4) spins".
    pub name: String,
    /// Where it stands on the grid, when it has one place.
    pub place: Option<Pos>,
    /// The line of the model file that states it, when it has one.
    pub line: Option<usize>,
    /// The cells it speaks of, for pictures; empty when it has none.
    pub cells: Vec<Pos>,
    /// The subjects ([`Fact::subject`]) it speaks of, in increasing order:
    /// the facts a step that uses it may settle.
    pub subjects: Vec<usize>,
    /// What it says, when it says only how many of some facts hold, such
    /// as a part "7 at most once in this row" ([`crate::lang::parts`]).
    /// `None`: it may say more.
    pub reads: Option<Reads>,
    /// The house it is, or is a part of, when the model names one: cells
    /// among which each value is taken at most once, for naming steps.
    pub house: Option<House>,
}

/// Subjects among which each value is taken at most once, such as a
/// Sudoku's row, as a model's hint table names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct House {
    /// Its kind (a row, a box), as the model numbers its kinds.
    pub kind: usize,
    /// Its number among the houses of its kind, from 1.
    pub number: usize,
    /// Its name, such as "box 2".
    pub label: String,
    /// Its subjects ([`Fact::subject`]).
    pub subjects: Vec<usize>,
}

/// A rule that says only "at most one (or exactly one) of these facts
/// holds". Once its facts are all known, the known facts entail it, so no
/// smallest set holds it; and any model whose facts satisfy it shows that
/// it can hold with them, whether or not its selector was on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reads {
    /// The facts, indices into [`Deductions::facts`].
    pub facts: Vec<usize>,
    /// Exactly one holds, not at most one.
    pub exactly: bool,
}

impl Reads {
    /// Whether the facts' values (`holds(f)` for fact `f`) satisfy it.
    pub fn satisfied(&self, holds: impl Fn(usize) -> bool) -> bool {
        let n = self.facts.iter().filter(|&&f| holds(f)).count();
        if self.exactly { n == 1 } else { n <= 1 }
    }
}

/// A statement about a solution that may or may not hold in every one,
/// such as "fan 3 blows right" or "`x[2,4] = 5`".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// The literal that is true exactly when the statement holds.
    pub lit: Lit,
    /// The statement, in the puzzle's words.
    pub name: String,
    /// The cell it is about, when it has one.
    pub place: Option<Pos>,
    /// The family's number for the thing the fact is about (a fan, a tile,
    /// a model variable), so that facts about one thing can be grouped.
    pub subject: usize,
    /// The value the fact gives its subject (a direction's index, an
    /// integer, 0 or 1).
    pub value: i64,
    /// The subject in the puzzle's words, such as "fan 2" or "`x[2,4]`": what
    /// a player names when they enter the fact.
    pub about: String,
    /// The value in the puzzle's words, as JSON: a number, `true`/`false`,
    /// or a name such as "right".
    pub shown: serde_json::Value,
}

/// What a caller will ask of a [`Deductions`], so that a family builds only
/// that: facts on a solver with every rule fixed cost what they did before
/// rules could be switched, and an explanation needs no fact literals.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Wanted {
    /// Each rule behind a selector ([`Deductions::rules`]); otherwise every
    /// rule holds outright and `rules` is empty.
    pub switchable: bool,
    /// The candidate facts ([`Deductions::facts`]); otherwise it is empty.
    pub facts: bool,
}

impl Wanted {
    /// What `facts` needs: the candidate facts, every rule fixed.
    pub const FACTS: Wanted = Wanted { switchable: false, facts: true };
    /// What `explain` needs: switchable rules, no facts.
    pub const EXPLANATION: Wanted = Wanted { switchable: true, facts: false };
    /// What a step-by-step solver needs: both.
    pub const STEPS: Wanted = Wanted { switchable: true, facts: true };
}

/// The independent check of a model, read through its literal values: with
/// `None`, against the whole puzzle; with `Some(rules)`, against the fixed
/// part and those rules only (indices into [`Deductions::rules`]). The error
/// says what the model breaks.
pub trait ModelCheck: FnMut(&dyn Fn(Lit) -> bool, Option<&[usize]>) -> Result<(), String> {}

impl<F: FnMut(&dyn Fn(Lit) -> bool, Option<&[usize]>) -> Result<(), String>> ModelCheck for F {}

/// A puzzle ready for deductions: see the module documentation.
pub struct Deductions<'p> {
    /// The solver: the fixed part of the puzzle, each rule under its selector.
    pub solver: Box<dyn Solve + 'p>,
    /// Literals assumed in every call, such as "the objective is optimal".
    pub assumptions: Vec<Lit>,
    /// The switchable rules (empty unless [`Wanted::switchable`]).
    pub rules: Vec<Rule>,
    /// The candidate facts (empty unless [`Wanted::facts`]).
    pub facts: Vec<Fact>,
    /// The givens: the rules (indices into `rules`, increasing) that fix
    /// things that have facts to values outright and say nothing else,
    /// such as a Sudoku's given digit or a clue (a `x = 5`, not a `x >= 2`).
    /// A player knows their facts from the start, as the entries they
    /// make; every other fact, however simple, is a step that names its
    /// rules. No easiest set needs a given, since its facts are known.
    pub stated: Vec<usize>,
    /// Set when building already proved that the puzzle has no solution
    /// (an optimisation found none), so nothing need be asked.
    pub refuted: bool,
    /// The formula the solver holds, when the family gives it, for proofs:
    /// the fixed part, each rule's clauses with its selector's negation
    /// added, and every cut made so far (each guarded by its rule's
    /// selector).
    pub formula: Option<Box<dyn Fn() -> Cnf + 'p>>,
    /// Set by a family whose fixed part holds nothing but its subjects'
    /// domains, with the literal it makes true outright (the constant
    /// truth): with no rule on, each subject takes exactly one of its
    /// facts' values, and may take any one whose literal is not the
    /// constant's negation, whatever the other subjects take. What the
    /// known facts force with no rule on is then found subject by subject,
    /// with no SAT call. (A SAT test shows at most one value of a subject
    /// per model: 2,730 rounds for the leg lengths of a 14-city tour.)
    pub domains_only: Option<Lit>,
    /// The rules (indices into `rules`, increasing) that a repairer judges
    /// in every model where their selector is true, such as a grid
    /// global's "one loop". Their selectors occur only negated (in their
    /// clauses and cuts), so a test that leaves such a rule off may assume
    /// its selector false ([`Deductions::off_judged`]) and loses no model.
    /// Left free, the solver may switch the rule on by itself, and the
    /// model then costs repair rounds that test nothing (one clue of the
    /// 20×20 slitherlink: 15 s and 192 SAT calls, given up).
    pub judged: Vec<usize>,
    check: Box<dyn ModelCheck + 'p>,
    /// Selectors of one-call clauses that are done with but not yet fixed
    /// false ([`Deductions::retire`]).
    retired: Vec<Lit>,
}

/// How many selectors [`Deductions::retire`] gathers before it fixes them
/// false together: each unit clause makes the solver simplify its whole
/// clause database at its next call (a fifth of a Killer Sudoku's `steps`
/// when each was fixed at once).
const RETIRE_BATCH: usize = 64;

impl<'p> Deductions<'p> {
    /// Deductions over `solver` with the family's `check`; the rules, facts
    /// and assumptions are filled in by the family afterwards.
    pub fn new(solver: Box<dyn Solve + 'p>, check: impl ModelCheck + 'p) -> Deductions<'p> {
        Deductions {
            solver,
            assumptions: Vec::new(),
            rules: Vec::new(),
            facts: Vec::new(),
            stated: Vec::new(),
            refuted: false,
            formula: None,
            domains_only: None,
            judged: Vec::new(),
            check: Box::new(check),
            retired: Vec::new(),
        }
    }

    /// Retires `selector`, a fresh variable that guards clauses of one
    /// test and occurs nowhere else unnegated: it is fixed false with the
    /// next batch of retired selectors. Until then it is left free, which
    /// changes no answer (false satisfies every clause it guards, and a
    /// call never assumes it again) and spares a simplification per test.
    pub fn retire(&mut self, selector: Lit) {
        self.retired.push(selector);
        if self.retired.len() >= RETIRE_BATCH {
            for retired in std::mem::take(&mut self.retired) {
                self.solver.add_clause(&[!retired]);
            }
        }
    }

    /// The negated selectors of the [`Deductions::judged`] rules not in
    /// `on` (indices into `rules`, any order): assumed with `on`, they keep
    /// the rules left off from being judged, with the same models.
    pub fn off_judged(&self, on: &[usize]) -> Vec<Lit> {
        let off = self.judged.iter().filter(|r| !on.contains(r));
        off.map(|&r| !self.rules[r].selector).collect()
    }
}

/// For each fact, whether it holds in some solution; `None` when the puzzle
/// has no solution. A fact that holds in no solution holds its negation in
/// every one. Every model behind the answer passes the family's check.
pub fn possible_facts(deductions: &mut Deductions<'_>) -> Result<Option<Vec<bool>>, SolverError> {
    if deductions.refuted {
        return Ok(None);
    }
    let candidates: Vec<Lit> = deductions.facts.iter().map(|f| f.lit).collect();
    let Deductions { solver, assumptions, check, .. } = deductions;
    let mut checked = Checked::new(&mut **solver, |value: &dyn Fn(Lit) -> bool| check(value, None));
    let found = possible_literals(&mut checked, &candidates, assumptions)?;
    Ok(found.map(|f| f.possible))
}

/// A minimal set of the rules `among` (indices into [`Deductions::rules`])
/// that cannot all hold with the fixed part: dropping any one of them leaves
/// a set that can, shown by a model that passes the family's check of those
/// rules. `None` when all of `among` can hold together. The result keeps the
/// order of `among`.
pub fn minimal_conflict(deductions: &mut Deductions<'_>, among: &[usize]) -> Result<Option<Vec<usize>>, SolverError> {
    let Deductions { solver, assumptions, rules, check, .. } = deductions;
    let selectors: Vec<Lit> = among.iter().map(|&r| rules[r].selector).collect();
    let rule_of: HashMap<Lit, usize> = among.iter().map(|&r| (rules[r].selector, r)).collect();
    let fixed = assumptions.len();
    let mut with_fixed = assumptions.clone();
    let kept = shrink_by_deletion(&selectors, |assumed| {
        with_fixed.truncate(fixed);
        with_fixed.extend_from_slice(assumed);
        match solver.solve_under(&with_fixed)? {
            Answer::Unsat => Ok(Some(solver.failed_core())),
            Answer::Sat => {
                // The claim "these rules can hold together" rests on a checked witness.
                let on: Vec<usize> = assumed.iter().map(|s| rule_of[s]).collect();
                let model = &*solver;
                check(&|lit| model.value(lit), Some(&on)).map_err(SolverError::ModelRejected)?;
                Ok(None)
            }
        }
    })?;
    Ok(kept.map(|lits| lits.iter().map(|s| rule_of[s]).collect()))
}

/// `cnf` with each of the `soft` groups behind a selector of its own: the
/// same variables, then one selector per soft group in the order given, then
/// every clause in order, a soft group's clauses with the negated selector
/// added. The other groups stay as they are: the puzzle's mechanics rather
/// than its demands.
///
/// ```
/// use somaria::cnf::Cnf;
/// use somaria::deduce::switchable;
/// let mut cnf = Cnf::new();
/// let a = cnf.new_var();
/// let wants_a = cnf.open_group("a", None);
/// cnf.add_clause(&[a.pos()]);
/// let (guarded, selectors) = switchable(&cnf, &[wants_a]);
/// assert_eq!(guarded.num_vars(), 2);
/// assert_eq!(guarded.clauses().next().unwrap(), &[a.pos(), !selectors[0]]);
/// ```
pub fn switchable(cnf: &Cnf, soft: &[GroupId]) -> (Cnf, Vec<Lit>) {
    let mut guarded = Cnf::new();
    guarded.new_vars(cnf.num_vars());
    let selectors: Vec<Lit> = soft.iter().map(|_| guarded.new_var().pos()).collect();
    let mut selector_of: Vec<Option<Lit>> = vec![None; cnf.groups().len()];
    for (group, &selector) in soft.iter().zip(&selectors) {
        selector_of[group.index()] = Some(selector);
    }
    let mut clause = Vec::new();
    for (group, lits) in cnf.grouped_clauses() {
        clause.clear();
        clause.extend_from_slice(lits);
        if let Some(selector) = selector_of[group.index()] {
            clause.push(!selector);
        }
        guarded.add_clause(&clause);
    }
    (guarded, selectors)
}

/// The rule a clause group of `cnf` states, behind `selector`: its name
/// and place; the family adds what the rule speaks of.
pub fn rule_of_group(cnf: &Cnf, group: GroupId, selector: Lit) -> Rule {
    let group = &cnf.groups()[group.index()];
    Rule {
        selector,
        name: group.name.clone(),
        place: group.place,
        line: None,
        cells: group.place.into_iter().collect(),
        subjects: Vec::new(),
        reads: None,
        house: None,
    }
}

mod bounds;
mod colours;
pub mod plan;
pub mod verify;
pub mod witness;

#[cfg(test)]
mod tests;

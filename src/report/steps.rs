//! The reports of `hint` and `steps`: deductions in the puzzle's words,
//! the difficulty rating, and where the time went. Their JSON is a
//! contract (see the book's page on hints and steps, docs/src/guide/hints-and-steps.md).

use serde::Serialize;
use serde_json::Value;

use super::picture::state_text;
use super::{Report, Stoppable, exit, heading, printable};
use crate::grid::Pos;
use crate::puzzles::{Entry, Error, NamedConstraint, Puzzle, Stats, counted};
use crate::solver::Progress;

/// A fact as a step states it: `{"var": "q[3]", "op": "=", "value": 5}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShownFact {
    /// The variable or thing, as the model names it.
    pub var: String,
    /// "=" when the fact holds, "!=" when it is ruled out.
    pub op: &'static str,
    /// The value, as `solve` writes it.
    pub value: Value,
    /// Its cell, for pictures.
    #[serde(skip)]
    pub place: Option<Pos>,
    /// The fact as the family numbers it, for pictures drawn as the
    /// puzzle is; `None` for a fact no deduction numbers (a route's leg).
    #[serde(skip)]
    pub entry: Option<Entry>,
}

impl ShownFact {
    /// A fact that no deduction numbers: a thing of the family's own, such
    /// as a route's next key, with its value and cell.
    pub fn named(var: String, value: Value, place: Option<Pos>) -> ShownFact {
        ShownFact { var, op: "=", value, place, entry: None }
    }

    fn value_text(&self) -> String {
        match &self.value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }
}

/// A rule as a step names it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShownRule {
    /// What the rule demands, as `explain` names it.
    pub name: String,
    /// The line of the model that states it, when it has one.
    pub line: Option<usize>,
    /// The cells it speaks of, for pictures.
    #[serde(skip)]
    pub cells: Vec<Pos>,
}

/// One deduction, as `hint` and `steps` print it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShownStep {
    /// The new facts.
    pub facts: Vec<ShownFact>,
    /// The rules that force them.
    pub because: Vec<ShownRule>,
    /// The known facts the deduction uses.
    pub using: Vec<ShownFact>,
    /// The number of rules in `because`.
    pub size: usize,
    /// How hard the step is to follow: its rules and the known facts it
    /// uses (`size` plus the length of `using`), as Demystify weighs a step
    /// by the size of its minimal unsatisfiable set. With the constraints
    /// split into parts (a csp `alldifferent` into one part per value), a
    /// hidden single, a pair and an X-wing weigh differently.
    pub weight: usize,
    /// Whether every smaller set of rules was ruled out (otherwise the set
    /// is only minimal: dropping any one rule breaks it).
    pub smallest: bool,
    /// False when `using` suffices but was not shown minimal: a test of
    /// dropping one of its facts gave up, and the fact was kept.
    #[serde(skip_serializing_if = "is_true")]
    pub using_minimal: bool,
    /// The step in a sentence, when the family has one, such as "collect
    /// c next: 14 steps; the fewest in all is 86".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// With `steps --merge`: how many steps of at most one constraint
    /// each this step is, taken one after another.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged: Option<usize>,
    /// The moves of a route's leg, when the step is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub walk: Option<ShownWalk>,
    /// With `--proof`: where the step's re-check was written as a formula
    /// and its DRAT refutation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<StepProof>,
    /// The technique the step is, when the model's hint table names its
    /// shape and the step has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub technique: Option<ShownTechnique>,
    /// With `--next placement`: the steps the placement needs, in the order
    /// they were taken (the last found the placement), each re-checked.
    /// Their rules and the facts they use from before are the step's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub via: Vec<ShownStep>,
}

/// A step named as a player names it: "hidden single", with the step as
/// a sentence ("7 goes in (2, 5): it is the only place for 7 in box 2").
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShownTechnique {
    /// The technique's name, as the model's hint table gives it.
    pub name: String,
    /// The step as a sentence.
    pub text: String,
    /// The houses it speaks of, by name: the one it happens in first.
    pub houses: Vec<String>,
    /// The new facts it speaks of.
    pub facts: Vec<ShownFact>,
    /// For several placements named one by one, each, in the order named:
    /// each holds with the facts the step uses and the placements before it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub each: Vec<ShownTechnique>,
}

/// A step's re-check as files: the formula of only the step's constraints,
/// the facts it uses and the negation of its new facts (DIMACS), and the
/// DRAT proof that it has no model.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepProof {
    /// The DIMACS file.
    pub formula: String,
    /// The DRAT file.
    pub proof: String,
}

/// A leg's moves, for scripts that re-walk it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShownWalk {
    /// The walker, from 1, when there are several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub walker: Option<usize>,
    /// Where the leg starts, `[row, col]`.
    pub from: Pos,
    /// Where it ends.
    pub to: Pos,
    /// Its moves.
    pub moves: Vec<crate::grid::Dir>,
}

/// What is known before the first step: the model's givens (constraints
/// that fix a value outright, such as a Sudoku's digits), the player's
/// entries, and the facts they state. Every other fact is a step's, and a
/// step uses only facts known from here or found by a step before it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StartState {
    /// The constraints that fix values outright, as `explain` names them.
    pub givens: Vec<ShownRule>,
    /// The things whose value the model fixes: by those constraints, or in
    /// their declaration (a partly given array).
    #[serde(skip)]
    pub given_values: usize,
    /// The player's entries, as given.
    pub entries: Vec<String>,
    /// Every fact they state, either way: with a thing's value, that it
    /// takes no other.
    pub facts: Vec<ShownFact>,
}

/// How hard the deductions were: figures of every step taken, the same
/// whichever steps a question shows (`--next placement` or `any`), so that
/// `steps`, `generate --difficulty` and the play page rate a puzzle alike.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Difficulty {
    /// Steps taken, eliminations included.
    pub steps: usize,
    /// The most rules one step needed.
    pub largest: usize,
    /// The rules of all steps together.
    pub total: usize,
    /// Steps that needed more than one rule.
    pub multi_rule_steps: usize,
    /// The most rules one placement's reason needs, with the steps it
    /// needs folded in (at least `largest`'s step, when no placement needs
    /// more).
    pub hardest_placement: usize,
    /// One number for how hard the puzzle is: `largest` times
    /// `hardest_placement`. Over 164 Sudokus rated by Sudoku Explainer (SE
    /// 1.2-9.3), Spearman's rho with SE is 0.81, against 0.77 for
    /// `largest` alone (benches/sudoku_rating.py).
    pub rating: usize,
    /// The most one step taken weighs ([`ShownStep::weight`]).
    pub hardest_step: usize,
    /// The most one placement's reason weighs, with the steps it needs
    /// folded in (at least `hardest_step`).
    pub heaviest_placement: usize,
}

impl Difficulty {
    /// The figures of `steps` as shown: each step's parts (`via`) are the
    /// steps taken, and the step itself a placement's reason.
    pub fn of(steps: &[ShownStep]) -> Difficulty {
        let parts: Vec<&ShownStep> =
            steps.iter().flat_map(|s| if s.via.is_empty() { vec![s] } else { s.via.iter().collect() }).collect();
        let mut figures = Figures::default();
        for part in parts {
            figures.took(part.size, part.weight);
        }
        for step in steps {
            figures.placed(step.size, step.weight);
        }
        figures.difficulty()
    }
}

/// The figures of a [`Difficulty`], gathered step by step.
#[derive(Clone, Debug, Default)]
pub struct Figures {
    steps: usize,
    largest: usize,
    total: usize,
    multi_rule_steps: usize,
    hardest_placement: usize,
    hardest_step: usize,
    heaviest_placement: usize,
}

impl Figures {
    /// A step of `size` rules and `weight` ([`ShownStep::weight`]) was taken.
    pub fn took(&mut self, size: usize, weight: usize) {
        self.steps += 1;
        self.hardest_step = self.hardest_step.max(weight);
        self.largest = self.largest.max(size);
        self.total += size;
        self.multi_rule_steps += usize::from(size > 1);
    }

    /// A placement's reason, its steps folded in, needs `size` rules and
    /// weighs `weight`.
    pub fn placed(&mut self, size: usize, weight: usize) {
        self.heaviest_placement = self.heaviest_placement.max(weight);
        self.hardest_placement = self.hardest_placement.max(size);
    }

    /// The difficulty so far.
    pub fn difficulty(&self) -> Difficulty {
        let hardest_placement = self.hardest_placement.max(self.largest);
        Difficulty {
            steps: self.steps,
            largest: self.largest,
            total: self.total,
            multi_rule_steps: self.multi_rule_steps,
            hardest_placement,
            rating: self.largest * hardest_placement,
            hardest_step: self.hardest_step,
            heaviest_placement: self.heaviest_placement.max(self.hardest_step),
        }
    }
}

/// Where the time of a plan went.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlanTimes {
    /// The engine, formula size and SAT calls of the whole run (search and
    /// re-checks).
    #[serde(flatten)]
    pub run: Stats,
    /// Searches for a next deduction.
    pub searches: u64,
    /// Sets of rules tested in exhaustive searches.
    pub sets_tested: u64,
    /// Searches that fell back to a deletion-minimal set.
    pub fallbacks: u64,
    /// Open facts (candidates) per search, on average.
    pub candidates_per_search: f64,
    /// The most open facts in one search.
    pub max_candidates: u64,
    /// Milliseconds in exhaustive set searches.
    pub set_search_ms: f64,
    /// Milliseconds finding deletion-minimal sets.
    pub fallback_ms: f64,
    /// Milliseconds finding the facts used.
    pub used_ms: f64,
    /// Milliseconds re-checking the steps.
    pub check_ms: f64,
    /// Searches that found no step within `--upto` though some sets of
    /// that size went untested: a step within the limit may remain.
    pub untested_within_upto: u64,
}

/// The overall outcome of a plan.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanStatus {
    /// Every fact is settled: one solution is left.
    Solved,
    /// No deduction is left and several solutions remain.
    GuessNeeded,
    /// No solution agrees with the model (and the given entries).
    NoSolution,
    /// `--upto` stopped the steps; deductions larger than it remain.
    Partial,
    /// A hint is given.
    Hint,
    /// A limit stopped the run.
    Unknown,
}

/// Given entries that no solution agrees with, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Clash {
    /// The entries, as they were given.
    pub entries: Vec<String>,
    /// The rules they break, together.
    pub constraints: Vec<NamedConstraint>,
}

/// What `steps` and `hint` both report beside their steps: how the plan
/// ended, from what start, and at what cost. Flattened into each report's
/// JSON, so its members sit beside the report's own.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlanEnd {
    /// Solutions that agree with the final state: 1 when solved, 0 with no
    /// solution, and with a guess needed as many as were counted.
    pub remaining: Option<u64>,
    /// Whether `remaining` is the whole count (otherwise a floor).
    pub remaining_complete: bool,
    /// With no solution: `explain`'s constraints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<Vec<NamedConstraint>>,
    /// Given entries that no solution agrees with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clash: Option<Clash>,
    /// What stopped the run early.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// Sizes, calls and times.
    pub stats: PlanTimes,
    /// What is known before the first step.
    pub start: StartState,
    /// The rows and columns the facts' cells span, for pictures.
    #[serde(skip)]
    pub extent: (usize, usize),
}

impl PlanEnd {
    /// The end of a run stopped before it planned anything.
    pub fn stopped(stats: Stats, why: String) -> PlanEnd {
        PlanEnd { stopped: Some(why), stats: PlanTimes { run: stats, ..PlanTimes::default() }, ..PlanEnd::default() }
    }

    /// How the plan ended, for a person: the solutions left, or why there
    /// are none.
    fn ending_text(&self, status: PlanStatus) -> String {
        let mut out = ending_text(status, self.remaining, self.remaining_complete, &self.explanation, &self.clash);
        if status == Status::Partial && self.stats.untested_within_upto > 0 {
            out.push_str(
                "not every set of constraints within --upto was tested (a test gave up on a variable with \
                 many values or on a grid global, or the budget of sets ran out): a step within the limit \
                 may remain\n",
            );
        }
        out
    }
}

/// The report of `steps`.
#[derive(Clone, Debug, Serialize)]
pub struct StepsReport {
    /// The outcome.
    pub status: PlanStatus,
    /// The steps, in order.
    pub steps: Vec<ShownStep>,
    /// The rating.
    pub difficulty: Difficulty,
    /// Every fact known in the final state, either way: entries that
    /// `--given` takes back as `var=value` or `var!=value`.
    pub state: Vec<ShownFact>,
    /// How the steps ended, from what start.
    #[serde(flatten)]
    pub end: PlanEnd,
}

/// How much a hint's text and picture give away.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reveal {
    /// Only what the deduction is about.
    #[default]
    Where,
    /// Also the rules and the facts used.
    Why,
    /// Also the new facts.
    What,
}

/// The report of `hint`: the easiest next step, or why there is none.
#[derive(Clone, Debug, Serialize)]
pub struct HintReport {
    /// [`PlanStatus::Hint`] when a step is given; otherwise why none is.
    pub status: PlanStatus,
    /// The step; the JSON always holds all of it, whatever `reveal` says.
    pub step: Option<ShownStep>,
    /// How much the text gives away.
    pub reveal: Reveal,
    /// As in [`StepsReport`]; its start is the state the hint starts from.
    #[serde(flatten)]
    pub end: PlanEnd,
}

/// Facts for a person: one entry per variable, "x = 5" or "x ≠ 1, 2"; a
/// variable that is fixed shows only its value.
pub fn facts_text(facts: &[ShownFact], values: bool) -> String {
    let entries = fact_entries(facts, values);
    if entries.is_empty() { "nothing".to_string() } else { entries.join("; ") }
}

/// [`facts_text`] of at most `most` variables, with a count of the rest.
fn facts_text_at_most(facts: &[ShownFact], most: usize) -> String {
    let entries = fact_entries(facts, true);
    if entries.len() <= most {
        return facts_text(facts, true);
    }
    format!("{}; and {} more", entries[..most].join("; "), entries.len() - most)
}

fn fact_entries(facts: &[ShownFact], values: bool) -> Vec<String> {
    let mut order: Vec<&str> = Vec::new();
    for f in facts {
        if !order.contains(&f.var.as_str()) {
            order.push(&f.var);
        }
    }
    order
        .iter()
        .map(|&var| {
            let about: Vec<&ShownFact> = facts.iter().filter(|f| f.var == var).collect();
            if !values {
                return printable(var);
            }
            match about.iter().find(|f| f.op == "=") {
                Some(fixed) => format!("{} = {}", printable(var), printable(&fixed.value_text())),
                None => {
                    let out: Vec<String> = about.iter().map(|f| printable(&f.value_text())).collect();
                    format!("{} ≠ {}", printable(var), value_runs(&out))
                }
            }
        })
        .collect()
}

/// Values joined by commas, ten or more consecutive integers as one
/// run `a..b`: a wide variable's values ruled out by its bounds are
/// hundreds, while a digit's candidates read best one by one.
fn value_runs(values: &[String]) -> String {
    const RUN: i64 = 10;
    let mut pieces: Vec<String> = Vec::new();
    let mut run: Option<(i64, i64)> = None;
    let close = |run: Option<(i64, i64)>, pieces: &mut Vec<String>| match run {
        Some((a, b)) if b - a + 1 >= RUN => pieces.push(format!("{a}..{b}")),
        Some((a, b)) => pieces.extend((a..=b).map(|v| v.to_string())),
        None => {}
    };
    for value in values {
        match (value.parse::<i64>().ok(), run) {
            (Some(v), Some((a, b))) if v == b + 1 => run = Some((a, v)),
            (Some(v), _) => {
                close(run, &mut pieces);
                run = Some((v, v));
            }
            (None, _) => {
                close(run.take(), &mut pieces);
                pieces.push(value.clone());
            }
        }
    }
    close(run, &mut pieces);
    pieces.join(", ")
}

/// The variables the start line lists before it counts the rest.
const START_SHOWN: usize = 8;

/// "known from the start: 30 givens: `cell[1,1] = 8`; ...; and 22 more".
pub fn start_text(start: &StartState) -> String {
    let mut sources = Vec::new();
    if start.given_values > 0 {
        sources.push(counted(start.given_values, "given"));
    }
    if !start.entries.is_empty() {
        let n = start.entries.len();
        sources.push(if n == 1 { "1 entry".to_string() } else { format!("{n} entries") });
    }
    if start.facts.is_empty() && sources.is_empty() {
        return "known from the start: nothing\n".to_string();
    }
    let from = if sources.is_empty() { String::new() } else { format!("{}: ", sources.join(" and ")) };
    format!("known from the start: {from}{}\n", facts_text_at_most(&start.facts, START_SHOWN))
}

fn rule_text(rule: &ShownRule) -> String {
    printable(&crate::model::with_line(&rule.name, rule.line))
}

/// A step for a person, as much as `reveal` gives away.
pub fn step_text(step: &ShownStep, reveal: Reveal) -> String {
    let kind = match (step.merged.is_some(), step.smallest) {
        _ if !step.via.is_empty() => format!("by {} steps, shown below", step.via.len()),
        (false, true) => "smallest".to_string(),
        (false, false) => "minimal, not known to be smallest".to_string(),
        (true, true) => "each step smallest".to_string(),
        (true, false) => "some steps only minimal".to_string(),
    };
    let mut out = match reveal {
        Reveal::Where => format!("look at: {}\n", facts_text(&step.facts, false)),
        Reveal::Why => format!("about: {}\n", facts_text(&step.facts, false)),
        Reveal::What => format!("new: {}\n", facts_text(&step.facts, true)),
    };
    if let Some(technique) = &step.technique {
        // The sentence gives the new facts away; the name and the houses
        // only where to look.
        out.push_str(&match reveal {
            Reveal::What => format!("  {} ({})\n", printable(&technique.text), printable(&technique.name)),
            _ if technique.houses.is_empty() => format!("  technique: {}\n", printable(&technique.name)),
            _ => format!("  technique: {} in {}\n", printable(&technique.name), printable(&technique.houses[0])),
        });
    }
    if let Some(note) = step.note.as_ref().filter(|_| reveal == Reveal::What) {
        out.push_str(&format!("  {}\n", printable(note)));
    }
    if let Some(n) = step.merged {
        out.push_str(&format!("  ({n} steps of at most one constraint each, merged; each re-checked)\n"));
    }
    if reveal == Reveal::Where {
        out.push_str(&format!("  ({}, {kind})\n", counted(step.size, "constraint")));
        return out;
    }
    if step.because.is_empty() {
        out.push_str(
            "  because: it follows from the facts known, with no constraint (every variable takes one value)\n",
        );
    } else {
        out.push_str(&format!("  because ({}, {kind}):\n", counted(step.size, "constraint")));
        for rule in &step.because {
            out.push_str(&format!("    - {}\n", rule_text(rule)));
        }
    }
    let spare = if step.using_minimal { "" } else { " (enough; some may be spare)" };
    out.push_str(&format!("  using{spare}: {}\n", facts_text(&step.using, true)));
    out.push_str(&via_text(&step.via, reveal));
    if let Some(proof) = &step.proof {
        out.push_str(&format!("  proof: {} refutes {} (DRAT)\n", printable(&proof.proof), printable(&proof.formula)));
    }
    out
}

/// The steps a placement needs, one a line, each with its rules and the
/// facts it uses; at `Why`, without the last, which finds the placement.
fn via_text(via: &[ShownStep], reveal: Reveal) -> String {
    let shown = match reveal {
        Reveal::Where => 0,
        Reveal::Why => via.len().saturating_sub(1),
        Reveal::What => via.len(),
    };
    if shown == 0 {
        return String::new();
    }
    let mut out = "  step by step:\n".to_string();
    for step in &via[..shown] {
        let rules: Vec<String> = step.because.iter().map(rule_text).collect();
        let rules =
            if rules.is_empty() { "no constraint (each thing takes one value)".to_string() } else { rules.join("; ") };
        let facts = facts_text(&step.facts, true);
        let named = match &step.technique {
            Some(t) => format!("{} ({}); ", printable(&t.text), printable(&t.name)),
            None => String::new(),
        };
        out.push_str(&format!("    - {facts}: {named}by {rules}, using {}\n", facts_text(&step.using, true)));
    }
    out
}

/// Entries refuted with no constraint, by what every puzzle of the kind
/// takes for granted (each variable takes one value).
fn clash_of_entries(entries: &[String]) -> String {
    match entries {
        [entry] => format!(
            "your entry {} cannot be right on its own: no constraint is needed to rule it out\n",
            printable(entry)
        ),
        _ => {
            let mut out = "these entries contradict each other, with no constraint needed to see it:\n".to_string();
            for entry in entries {
                out.push_str(&format!("  - {}\n", printable(entry)));
            }
            out
        }
    }
}

/// Why a run of `hint` or `steps` ended where it did, for a person.
pub fn ending_text(
    status: PlanStatus,
    remaining: Option<u64>,
    complete: bool,
    explanation: &Option<Vec<NamedConstraint>>,
    clash: &Option<Clash>,
) -> String {
    let mut out = String::new();
    if let Some(clash) = clash {
        if clash.constraints.is_empty() {
            return clash_of_entries(&clash.entries);
        }
        for entry in &clash.entries {
            out.push_str(&format!("your entry {} cannot be right", printable(entry)));
            out.push_str(if clash.entries.len() > 1 { " (together with the others listed)\n" } else { "\n" });
        }
        out.push_str("  it clashes with:\n");
        for c in &clash.constraints {
            out.push_str(&format!(
                "    - {}\n",
                rule_text(&ShownRule { name: c.name.clone(), line: c.line, cells: Vec::new() })
            ));
        }
        return out;
    }
    match status {
        Status::Solved => {
            out.push_str("solved: every value is fixed, and the solution passed the puzzle's independent check\n")
        }
        Status::GuessNeeded => {
            let n = remaining.unwrap_or(0);
            let n = if complete { n.to_string() } else { format!("at least {n}") };
            out.push_str(&format!("from here a guess is needed; {n} solutions remain\n"));
        }
        Status::NoSolution => {
            out.push_str("no solution");
            if let Some(constraints) = explanation {
                out.push_str(": these constraints cannot all hold:\n");
                for c in constraints {
                    out.push_str(&format!(
                        "  - {}\n",
                        rule_text(&ShownRule { name: c.name.clone(), line: c.line, cells: Vec::new() })
                    ));
                }
            } else {
                out.push('\n');
            }
        }
        Status::Partial | Status::Hint => {}
        Status::Unknown => out.push_str("unknown: the run was stopped\n"),
    }
    out
}

use PlanStatus as Status;

fn times_line(t: &PlanTimes) -> String {
    format!(
        "{}: {} SAT calls, {} searches, {} sets tested, {} fallbacks, {:.1} candidates per search; {:.1} ms set search, \
         {:.1} ms fallback, {:.1} ms facts used, {:.1} ms re-checks, {:.1} ms in all",
        t.run.engine,
        t.run.sat_calls,
        t.searches,
        t.sets_tested,
        t.fallbacks,
        t.candidates_per_search,
        t.set_search_ms,
        t.fallback_ms,
        t.used_ms,
        t.check_ms,
        t.run.solve_ms
    )
}

impl Report for StepsReport {
    fn text(&self, puzzle: &dyn Puzzle) -> Result<String, Error> {
        let mut out = heading(puzzle.kind(), puzzle.title());
        let ran = self.status != Status::Unknown || !self.steps.is_empty();
        if ran && self.end.clash.is_none() && self.end.explanation.is_none() {
            out.push_str(&start_text(&self.end.start));
        }
        for (i, step) in self.steps.iter().enumerate() {
            out.push_str(&format!("step {}: {}", i + 1, step_text(step, Reveal::What)));
        }
        if self.status == Status::Partial {
            out.push_str(&format!("state reached: {}\n", facts_text(&self.state, true)));
        }
        // The state reached, drawn when the steps stop short of a solution.
        if matches!(self.status, Status::Partial | Status::GuessNeeded) {
            out.push_str(&state_text(puzzle, &self.state, None, Reveal::What).unwrap_or_default());
        }
        out.push_str(&self.end.ending_text(self.status));
        let d = &self.difficulty;
        out.push_str(&format!(
            "difficulty: {} steps, largest {}, {} constraints in all, {} steps of more than one constraint; \
             hardest placement {}, rating {}\n",
            d.steps, d.largest, d.total, d.multi_rule_steps, d.hardest_placement, d.rating
        ));
        if let Some(why) = &self.end.stopped {
            out.push_str(&format!("stopped: {why}\n"));
        }
        out.push_str(&format!("({})\n", times_line(&self.end.stats)));
        Ok(out)
    }

    fn exit_code(&self) -> u8 {
        match self.status {
            Status::Solved | Status::GuessNeeded | Status::Partial | Status::Hint => exit::SOLVED,
            Status::NoSolution => exit::NO_SOLUTION,
            Status::Unknown => exit::UNKNOWN,
        }
    }
}

impl Stoppable for StepsReport {
    fn stopped(stats: Stats, why: String, _: &Progress) -> StepsReport {
        StepsReport {
            status: Status::Unknown,
            steps: Vec::new(),
            difficulty: Difficulty::default(),
            state: Vec::new(),
            end: PlanEnd::stopped(stats, why),
        }
    }
}

impl Report for HintReport {
    fn text(&self, puzzle: &dyn Puzzle) -> Result<String, Error> {
        let mut out = heading(puzzle.kind(), puzzle.title());
        match &self.step {
            Some(step) => {
                out.push_str(&start_text(&self.end.start));
                out.push_str(&format!("hint: {}", step_text(step, self.reveal)));
                // The state before the step, as much as `reveal` gives away.
                out.push_str(&state_text(puzzle, &self.end.start.facts, Some(step), self.reveal).unwrap_or_default());
            }
            None => out.push_str(&self.end.ending_text(self.status)),
        }
        if let Some(why) = &self.end.stopped {
            out.push_str(&format!("stopped: {why}\n"));
        }
        out.push_str(&format!("({})\n", times_line(&self.end.stats)));
        Ok(out)
    }

    fn exit_code(&self) -> u8 {
        match self.status {
            Status::NoSolution => exit::NO_SOLUTION,
            Status::Unknown => exit::UNKNOWN,
            _ => exit::SOLVED,
        }
    }
}

impl Stoppable for HintReport {
    fn stopped(stats: Stats, why: String, _: &Progress) -> HintReport {
        HintReport { status: Status::Unknown, step: None, reveal: Reveal::default(), end: PlanEnd::stopped(stats, why) }
    }
}

fn is_true(b: &bool) -> bool {
    *b
}

/// The report of `facts --given`: the values each thing can still take in
/// some solution that agrees with the entries.
#[derive(Clone, Debug, Serialize)]
pub struct CandidatesReport {
    /// `solved` when some solution agrees with the entries, else
    /// `no_solution`.
    pub status: crate::puzzles::Status,
    /// Each value still possible, as `{"var", "op": "=", "value"}`.
    pub candidates: Vec<ShownFact>,
    /// The engine and the time taken.
    pub stats: Stats,
}

impl Report for CandidatesReport {
    fn text(&self, puzzle: &dyn Puzzle) -> Result<String, Error> {
        let mut out = heading(puzzle.kind(), puzzle.title());
        if self.status == crate::puzzles::Status::NoSolution {
            out.push_str("no solution agrees with the entries\n");
        } else {
            out.push_str("the values each thing can still take, with the entries:\n");
            let mut vars: Vec<&str> = Vec::new();
            for f in &self.candidates {
                if !vars.contains(&f.var.as_str()) {
                    vars.push(&f.var);
                }
            }
            for var in vars {
                let values: Vec<String> =
                    self.candidates.iter().filter(|f| f.var == var).map(|f| printable(&f.value_text())).collect();
                out.push_str(&format!("  {}: {}\n", printable(var), values.join(", ")));
            }
        }
        out.push_str(&format!("({}: {:.1} ms)\n", self.stats.engine, self.stats.solve_ms));
        Ok(out)
    }

    fn exit_code(&self) -> u8 {
        match self.status {
            crate::puzzles::Status::NoSolution => exit::NO_SOLUTION,
            crate::puzzles::Status::Unknown => exit::UNKNOWN,
            _ => exit::SOLVED,
        }
    }
}

impl Stoppable for CandidatesReport {
    fn stopped(stats: Stats, _why: String, _: &Progress) -> CandidatesReport {
        CandidatesReport { status: crate::puzzles::Status::Unknown, candidates: Vec::new(), stats }
    }
}

#[cfg(test)]
mod tests {
    use super::value_runs;

    #[test]
    fn ten_or_more_consecutive_values_are_one_run() {
        let values = |vs: &[&str]| vs.iter().map(|v| v.to_string()).collect::<Vec<_>>();
        let digits = values(&["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
        assert_eq!(value_runs(&digits), "1, 2, 3, 4, 5, 6, 7, 8, 9");
        let mut wide: Vec<String> = (-3..=20).map(|v: i64| v.to_string()).collect();
        wide.extend(values(&["22", "red", "30", "31"]));
        wide.extend((40..=49).map(|v: i64| v.to_string()));
        assert_eq!(value_runs(&wide), "-3..20, 22, red, 30, 31, 40..49");
    }
}

//! `hint` and `steps` for every kind that offers deductions, written once
//! over the [`Puzzle`] trait and [`crate::deduce`]: the player's entries
//! read as facts, the planner run step by step, every step re-checked on a
//! second [`Deductions`] built for checking only, and the outcome in the
//! puzzle's words ([`crate::report::steps`]).

mod proof;
mod route;
mod state;

use std::time::Instant;

pub use proof::step_formula;

use crate::deduce::plan::{self, Limits, PlanStats, Settled, Start, State, Step, Target};
use crate::deduce::verify::check_step;
use crate::deduce::{Deductions, Wanted};
use crate::puzzles::{Entry, Error, NamedConstraint, Puzzle, SolveOptions, Stats, Status};
use crate::report::steps::{
    Clash, Difficulty, HintReport, PlanEnd, PlanStatus, PlanTimes, Reveal, ShownFact, ShownRule, ShownStep, StartState,
    StepsReport,
};
use crate::solver::SolverError;

/// What `hint` and `steps` are asked for.
#[derive(Clone, Debug, Default)]
pub struct PlanRequest {
    /// The player's entries, such as `x[2,3]=5`, `fan 2=right` or `q!=4`.
    pub given: Vec<String>,
    /// State files (`--given FILE`), whose entries follow those of `given`.
    pub state_files: Vec<crate::model::Source>,
    /// Apply only steps of at most this many rules.
    pub upto: Option<usize>,
    /// Merge each run of steps of at most one constraint into one step.
    pub merge: bool,
    /// The most steps to take (`hint` takes one).
    pub max_steps: Option<usize>,
    /// The most remaining solutions counted when a guess is needed.
    pub count_limit: u64,
    /// How hard to search.
    pub limits: Limits,
    /// Where to write each step's re-check as a formula and its DRAT
    /// refutation: this file for a hint, `FILE.1`, `FILE.2`, ... for steps,
    /// each formula beside its proof with `.cnf` added.
    pub proof: Option<std::path::PathBuf>,
}

/// The steps from the player's state, and how they ended.
struct Planned {
    status: PlanStatus,
    steps: Vec<ShownStep>,
    state: Vec<ShownFact>,
    end: PlanEnd,
}

/// `somaria steps`: every step from the given state to the end.
pub fn steps(puzzle: &dyn Puzzle, options: &SolveOptions, request: &PlanRequest) -> Result<StepsReport, Error> {
    let p = plan(puzzle, options, request)?;
    let difficulty = Difficulty::of(&p.steps);
    let steps = if request.merge { merged(p.steps) } else { p.steps };
    Ok(StepsReport { status: p.status, difficulty, steps, state: p.state, end: p.end })
}

/// `somaria hint`: the easiest next step from the given state.
pub fn hint(
    puzzle: &dyn Puzzle,
    options: &SolveOptions,
    request: &PlanRequest,
    reveal: Reveal,
) -> Result<HintReport, Error> {
    let limits = Limits { first_only: true, ..request.limits };
    let request = PlanRequest { max_steps: Some(1), limits, ..request.clone() };
    let p = plan(puzzle, options, &request)?;
    let step = p.steps.into_iter().next();
    let status = if step.is_some() { PlanStatus::Hint } else { p.status };
    Ok(HintReport { status, step, reveal, end: p.end })
}

fn plan(puzzle: &dyn Puzzle, options: &SolveOptions, request: &PlanRequest) -> Result<Planned, Error> {
    let mut given = request.given.clone();
    for source in &request.state_files {
        given.extend(state::entries(puzzle, source)?);
    }
    if let Some(routed) = puzzle.routed() {
        let legs = routed.route_legs(options, &given)?;
        if request.proof.is_some() {
            return Err(proof::unavailable(puzzle.kind()));
        }
        return Ok(route::planned(legs, &given, request.max_steps));
    }
    let Some(deducible) = puzzle.deducible() else {
        return Err(Error::Unsupported { command: "deductions", kind: puzzle.kind() });
    };
    let (entries, labels): (Vec<String>, Vec<String>) = deducible.given_entries(&given)?.into_iter().unzip();
    let started = Instant::now();
    let mut d = deducible.deductions(options, Wanted::STEPS)?;
    let mut checker = deducible.deductions(options, Wanted::STEPS)?;
    same_shape(&d, &checker)?;
    if request.proof.is_some() {
        proof::available(&checker, puzzle.kind())?;
    }
    let givens = read_givens(&d, &entries)?;
    let mut planned = Planned {
        status: PlanStatus::Unknown,
        steps: Vec::new(),
        state: Vec::new(),
        end: PlanEnd {
            start: StartState { entries: labels.clone(), ..StartState::default() },
            extent: extent(&d),
            ..PlanEnd::default()
        },
    };
    let mut stats = PlanStats::default();
    let mut check_time = std::time::Duration::ZERO;
    let mut proofs = Proofs { file: request.proof.as_deref(), config: &options.solver, error: None };
    let result = walk(&mut d, &mut checker, &givens, request, &mut planned, &mut stats, &mut check_time, &mut proofs);
    if let Some(e) = proofs.error {
        return Err(e);
    }
    match result {
        Ok(Some((given, rules))) => {
            if given.is_empty() {
                let explained = puzzle.explain(options)?;
                planned.end.explanation = Some(explained.constraints);
            } else {
                planned.end.clash = Some(Clash {
                    entries: given.iter().map(|&g| labels.get(g).cloned().unwrap_or_default()).collect(),
                    constraints: rules.iter().map(|&r| NamedConstraint::from(&d.rules[r])).collect(),
                });
            }
            planned.status = PlanStatus::NoSolution;
            planned.end.remaining = Some(0);
            planned.end.remaining_complete = true;
        }
        Ok(None) => {}
        Err(SolverError::Stopped(cause)) => {
            planned.status = PlanStatus::Unknown;
            planned.end.stopped = Some(format!("stopped before the end: {cause}"));
        }
        Err(e) => return Err(e.into()),
    }
    let solver_stats = d.solver.stats();
    let checker_stats = checker.solver.stats();
    let mut run = Stats::of_sat_size(puzzle.engines()[0], (0, 0), solver_stats, 0.0);
    run.sat_calls += checker_stats.sat_calls;
    run.solve_ms = Stats::ms(started.elapsed());
    planned.end.stats = PlanTimes {
        run,
        searches: stats.searches,
        sets_tested: stats.sets_tested,
        fallbacks: stats.fallbacks,
        candidates_per_search: if stats.searches == 0 { 0.0 } else { stats.candidates as f64 / stats.searches as f64 },
        max_candidates: stats.max_candidates,
        set_search_ms: Stats::ms(stats.set_search),
        fallback_ms: Stats::ms(stats.fallback),
        used_ms: Stats::ms(stats.used),
        check_ms: Stats::ms(check_time),
    };
    Ok(planned)
}

/// Given entries (indices into the request's) and rules that cannot all
/// hold; no entries when the puzzle itself has no solution.
type Conflict = (Vec<usize>, Vec<usize>);

/// Where the steps' proofs go, and the first failure to write one.
struct Proofs<'a> {
    file: Option<&'a std::path::Path>,
    config: &'a crate::solver::SolverConfig,
    error: Option<Error>,
}

/// The planner's loop: steps until none is left, re-checking each; fills
/// `planned`, or returns the clash of givens and rules when no solution
/// agrees with the givens.
#[allow(clippy::too_many_arguments)]
fn walk(
    d: &mut Deductions<'_>,
    checker: &mut Deductions<'_>,
    givens: &[Settled],
    request: &PlanRequest,
    planned: &mut Planned,
    stats: &mut PlanStats,
    check_time: &mut std::time::Duration,
    proofs: &mut Proofs<'_>,
) -> Result<Option<Conflict>, SolverError> {
    if d.refuted {
        return Ok(Some((Vec::new(), Vec::new())));
    }
    let mut memo = plan::Memo::default();
    let (target, mut state) = match plan::start(d, givens, &mut memo)? {
        Start::Clash(given, rules) => return Ok(Some((given, rules))),
        Start::Ready(target, state, model) => {
            let valued = model.iter().filter(|s| s.holds).map(|s| d.facts[s.fact].subject);
            planned.end.start.given_values = valued.collect::<std::collections::HashSet<_>>().len();
            (target, state)
        }
    };
    planned.end.start.givens = d.stated.iter().map(|&r| shown_rule(&d.rules[r])).collect();
    planned.end.start.facts = fixed_values(d, &state);
    let mut taken = 0;
    'outer: loop {
        let found = plan::next_steps(d, &target, &state, request.upto, &request.limits, &mut memo, stats)?;
        if found.is_empty() {
            break;
        }
        for (i, step) in found.into_iter().enumerate() {
            // The first step is found in this state; a later one, in the
            // state before the first, so it is derived again here.
            let step = match i {
                0 => step,
                _ => match plan::shown_in(d, &target, &state, &step, &mut memo, stats)? {
                    Some(step) => step,
                    None => continue 'outer,
                },
            };
            if step.facts.is_empty() {
                continue;
            }
            let started = Instant::now();
            check_step(checker, &step)?;
            *check_time += started.elapsed();
            let mut shown = shown_step(d, &step);
            if let Some(file) = proofs.file {
                let number = (request.max_steps != Some(1)).then_some(taken + 1);
                match proof::write(checker, &step, proofs.config, proof::paths(file, number)) {
                    Ok(written) => shown.proof = Some(written),
                    Err(e) => {
                        proofs.error = Some(e);
                        return Ok(None);
                    }
                }
            }
            planned.steps.push(shown);
            state.apply(&step.facts);
            plan::taken(d, &step, &mut memo)?;
            taken += 1;
            if request.max_steps.is_some_and(|m| taken >= m) {
                break 'outer;
            }
        }
    }
    planned.state = fixed_values(d, &state);
    finish(d, &target, &state, request, planned)?;
    Ok(None)
}

/// The status at the end, and the solutions left.
fn finish(
    d: &mut Deductions<'_>,
    target: &Target,
    state: &State,
    request: &PlanRequest,
    planned: &mut Planned,
) -> Result<(), SolverError> {
    let open = plan::open_facts(target, state);
    if !open.is_empty() {
        planned.status = PlanStatus::Partial;
        return Ok(());
    }
    let (count, complete) = plan::remaining(d, state, request.count_limit.max(2))?;
    planned.end.remaining = Some(count);
    planned.end.remaining_complete = complete;
    planned.status = match count {
        0 => return Err(SolverError::ModelRejected("the steps reached a state that no solution agrees with".into())),
        1 if complete => PlanStatus::Solved,
        _ => PlanStatus::GuessNeeded,
    };
    Ok(())
}

/// The search and the checker must speak of the same rules and facts, as
/// the step's indices pass from one to the other.
fn same_shape(d: &Deductions<'_>, checker: &Deductions<'_>) -> Result<(), Error> {
    let same_rules =
        d.rules.len() == checker.rules.len() && d.rules.iter().zip(&checker.rules).all(|(a, b)| a.name == b.name);
    let same_facts =
        d.facts.len() == checker.facts.len() && d.facts.iter().zip(&checker.facts).all(|(a, b)| a.name == b.name);
    if same_rules && same_facts {
        Ok(())
    } else {
        Err(Error::Internal("two builds of the same puzzle's deductions differ".into()))
    }
}

/// The rows and columns the facts' cells span.
fn extent(d: &Deductions<'_>) -> (usize, usize) {
    let places = d.facts.iter().filter_map(|f| f.place);
    places.fold((0, 0), |(rows, cols), (r, c)| (rows.max(r + 1), cols.max(c + 1)))
}

fn shown_fact(d: &Deductions<'_>, s: Settled) -> ShownFact {
    let fact = &d.facts[s.fact];
    ShownFact {
        var: fact.about.clone(),
        op: if s.holds { "=" } else { "!=" },
        value: fact.shown.clone(),
        place: fact.place,
        entry: Some(Entry { subject: fact.subject, value: fact.value, holds: s.holds }),
    }
}

fn shown_rule(rule: &crate::deduce::Rule) -> ShownRule {
    ShownRule { name: rule.name.clone(), line: rule.line, cells: rule.cells.clone() }
}

fn shown_step(d: &Deductions<'_>, step: &Step) -> ShownStep {
    let because = step.because.iter().map(|&r| shown_rule(&d.rules[r]));
    ShownStep {
        facts: step.facts.iter().map(|&f| shown_fact(d, f)).collect(),
        because: because.collect(),
        using: step.using.iter().map(|&f| shown_fact(d, f)).collect(),
        size: step.size(),
        smallest: step.smallest,
        using_minimal: step.using_minimal,
        note: None,
        merged: None,
        walk: None,
        proof: None,
    }
}

/// The facts known, either way, in fact order: what `--given` takes back.
fn fixed_values(d: &Deductions<'_>, state: &State) -> Vec<ShownFact> {
    state.settled().into_iter().map(|s| shown_fact(d, s)).collect()
}

/// The player's entries as facts: `thing=value` or `thing!=value`, the
/// thing as the model names it (spaces ignored), the value as `solve`
/// writes it.
fn read_givens(d: &Deductions<'_>, given: &[String]) -> Result<Vec<Settled>, Error> {
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let value_text = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut settled = Vec::new();
    for entry in given {
        let (about, holds, value) = match entry.split_once("!=") {
            Some((a, v)) => (a, false, v),
            None => match entry.split_once('=') {
                Some((a, v)) => (a, true, v),
                None => {
                    return Err(Error::BadRequest(format!(
                        "--given {entry:?}: expected NAME=VALUE or NAME!=VALUE, such as x[2,3]=5"
                    )));
                }
            },
        };
        // Matched without spaces; echoed as given.
        let (shown_about, shown_value) = (about.trim(), value.trim());
        let (about, value) = (squeeze(about), squeeze(value));
        let of_thing: Vec<usize> = (0..d.facts.len()).filter(|&f| squeeze(&d.facts[f].about) == about).collect();
        if of_thing.is_empty() {
            let mut names: Vec<String> = d.facts.iter().map(|f| f.about.clone()).collect();
            names.dedup();
            let names = crate::puzzles::listed(&names, 6);
            return Err(Error::BadRequest(format!(
                "--given {entry:?}: nothing is named {shown_about:?}; expected one of {names}"
            )));
        }
        let Some(&fact) = of_thing.iter().find(|&&f| squeeze(&value_text(&d.facts[f].shown)) == value) else {
            let values: Vec<String> = of_thing.iter().map(|&f| value_text(&d.facts[f].shown)).collect();
            let values = crate::puzzles::listed(&values, 12);
            let named = &d.facts[of_thing[0]].about;
            return Err(Error::BadRequest(format!(
                "--given {entry:?}: {shown_value:?} is not a value of {named}; expected one of {values}"
            )));
        };
        settled.push(Settled { fact, holds });
    }
    Ok(settled)
}

/// Each run of two or more steps of at most one constraint as one step,
/// which says how many it is: its facts and constraints are theirs in
/// order, and it uses the facts they use that none of them found.
fn merged(steps: Vec<ShownStep>) -> Vec<ShownStep> {
    let mut out: Vec<ShownStep> = Vec::new();
    let mut run: Vec<ShownStep> = Vec::new();
    let flush = |run: &mut Vec<ShownStep>, out: &mut Vec<ShownStep>| {
        if run.len() < 2 {
            out.append(run);
            return;
        }
        let mut step = ShownStep {
            merged: Some(run.len()),
            smallest: run.iter().all(|s| s.smallest),
            using_minimal: run.iter().all(|s| s.using_minimal),
            proof: None,
            ..run[0].clone()
        };
        step.facts.clear();
        step.because.clear();
        step.using.clear();
        for s in run.drain(..) {
            for u in s.using {
                if !step.facts.contains(&u) && !step.using.contains(&u) {
                    step.using.push(u);
                }
            }
            step.facts.extend(s.facts);
            for r in s.because {
                if !step.because.contains(&r) {
                    step.because.push(r);
                }
            }
        }
        step.size = step.because.len();
        out.push(step);
    };
    for step in steps {
        if step.size <= 1 && step.walk.is_none() {
            run.push(step);
        } else {
            flush(&mut run, &mut out);
            out.push(step);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// Whether a status from `solve` agrees with a plan's.
pub fn agrees(solve: Status, plan: PlanStatus) -> bool {
    matches!(
        (solve, plan),
        (Status::Solved, PlanStatus::Solved | PlanStatus::GuessNeeded | PlanStatus::Partial | PlanStatus::Hint)
            | (Status::NoSolution, PlanStatus::NoSolution)
            | (Status::Unknown, _)
            | (_, PlanStatus::Unknown)
    )
}

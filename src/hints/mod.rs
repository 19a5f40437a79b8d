//! `hint` and `steps` for every kind that offers deductions, written once
//! over the [`Puzzle`] trait and [`crate::deduce`]: the player's entries
//! read as facts, the planner run step by step, every step re-checked on a
//! second [`crate::Deductions`] built for checking only, and the outcome in
//! the puzzle's words ([`crate::report::steps`]). Both are one question
//! asked of a fresh [`Planner`], the session a player's page keeps.

mod fold;
mod proof;
mod route;
mod session;
mod state;
mod techniques;

pub use fold::Next;
pub use proof::step_formula;
pub use session::{CellThing, CheckReport, EdgeThing, Edit, Planner};

use crate::deduce::plan::Limits;
use crate::puzzles::{Error, Puzzle, SolveOptions, Status};
use crate::report::steps::{
    CandidatesReport, HintReport, PlanEnd, PlanStatus, Reveal, ShownFact, ShownStep, StepsReport,
};

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
    /// The most steps to show (`hint` shows one).
    pub max_steps: Option<usize>,
    /// Which steps are shown: every one, or the placements with the steps
    /// they need folded into their reasons.
    pub next: Next,
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
    /// The figures of every step taken, whichever were shown (none where
    /// every step taken is shown, as a route's legs are).
    figures: Option<crate::report::steps::Figures>,
}

/// `somaria steps`: every step from the given state to the end.
pub fn steps(puzzle: &dyn Puzzle, options: &SolveOptions, request: &PlanRequest) -> Result<StepsReport, Error> {
    one_shot(puzzle, options, request)?.steps(request)
}

/// `somaria hint`: the easiest next step from the given state.
pub fn hint(
    puzzle: &dyn Puzzle,
    options: &SolveOptions,
    request: &PlanRequest,
    reveal: Reveal,
) -> Result<HintReport, Error> {
    one_shot(puzzle, options, request)?.hint(request, reveal)
}

/// `somaria facts --given`: the values each thing can still take with the
/// request's entries (`given`, then the state files').
pub fn candidates(
    puzzle: &dyn Puzzle,
    options: &SolveOptions,
    request: &PlanRequest,
) -> Result<CandidatesReport, Error> {
    let started = std::time::Instant::now();
    let mut planner = one_shot(puzzle, options, request)?;
    let candidates = planner.candidates()?;
    let mut stats = crate::puzzles::Stats::of_sat_size(puzzle.engines()[0], (0, 0), Default::default(), 0.0);
    stats.solve_ms = crate::puzzles::Stats::ms(started.elapsed());
    let status = if candidates.is_some() { Status::Solved } else { Status::NoSolution };
    Ok(CandidatesReport { status, candidates: candidates.unwrap_or_default(), stats })
}

/// A session holding the request's entries (`given`, then the state
/// files'), read when the question is asked, as a command reads them.
fn one_shot<'p>(puzzle: &'p dyn Puzzle, options: &SolveOptions, request: &PlanRequest) -> Result<Planner<'p>, Error> {
    let mut given = request.given.clone();
    for source in &request.state_files {
        given.extend(state::entries(puzzle, source)?);
    }
    let mut planner = Planner::new(puzzle, options)?;
    planner.entries = given;
    Ok(planner)
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
            technique: None,
            ..run[0].clone()
        };
        step.facts.clear();
        step.because.clear();
        step.using.clear();
        step.via.clear();
        for s in run.drain(..) {
            step.via.extend(s.via);
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
        step.weight = step.size + step.using.len();
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

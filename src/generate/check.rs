//! The uniqueness checks of `generate`: a model's text loaded afresh and
//! counted up to 2, optionally within a time budget, and the final recount
//! of a puzzle before it is output.
//!
//! The budget works through the solver seam: the count runs on a worker
//! thread under a stop token due at the end of the budget. Backends that can
//! be interrupted (CaDiCaL) stop inside a SAT call; varisat stops at its next
//! call, and a worker stuck in one long call is left to finish on its own
//! while the generator moves on. No child process is needed.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::model::Source;
use crate::puzzles::{self, CountOptions, Error, SolveOptions, Stats, Status};
use crate::solver::{SolverConfig, SolverError, Stop};

pub use crate::puzzles::design::Verdict;

/// Loads a model's text afresh, as a new file would be.
pub fn load(name: &str, text: &str) -> Result<Box<dyn puzzles::Puzzle>, Error> {
    puzzles::load(&Source::from_text(name, text))
        .map_err(|e| Error::Internal(format!("a generated model does not load: {e}")))
}

/// Counts the solutions of a model's text up to 2 on a fresh solver.
pub fn count_upto_two(name: &str, text: &str, engine: Option<&str>, solver: SolverConfig) -> Result<Verdict, Error> {
    let puzzle = load(name, text)?;
    let options =
        CountOptions { limit: Some(2), engine: engine.map(str::to_string), solver, ..CountOptions::default() };
    match puzzle.count(&options) {
        Ok(report) => Ok(match report.count {
            0 => Verdict::None,
            1 if report.complete => Verdict::Unique,
            _ => Verdict::Several,
        }),
        Err(e) => Err(e),
    }
}

/// Whether an error is a stop token's.
fn is_stop(e: &Error) -> bool {
    matches!(e, Error::Solver(SolverError::Stopped(_)) | Error::Stopped(_))
}

/// [`count_upto_two`] within `budget`, when there is one: on a worker
/// thread under a stop token due when the budget ends.
pub fn budgeted(
    name: &str,
    text: &str,
    engine: Option<&str>,
    solver: &SolverConfig,
    budget: Option<Duration>,
) -> Result<Verdict, Error> {
    let Some(budget) = budget else { return count_upto_two(name, text, engine, solver.clone()) };
    // The budget's own token; the run's (a Ctrl-C) is checked when it fires.
    let stop = Stop::after(budget);
    let config = SolverConfig { stop: stop.clone(), ..solver.clone() };
    let (name, text, engine) = (name.to_string(), text.to_string(), engine.map(str::to_string));
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(count_upto_two(&name, &text, engine.as_deref(), config));
    });
    // A little past the deadline, for a worker that saw it between calls.
    let verdict = match receiver.recv_timeout(budget + Duration::from_millis(20)) {
        Ok(Err(e)) if is_stop(&e) => Ok(Verdict::OverBudget),
        Ok(verdict) => verdict,
        Err(_) => {
            stop.raise();
            Ok(Verdict::OverBudget)
        }
    };
    match solver.stop.check() {
        Err(cause) => Err(Error::Stopped(cause)),
        Ok(()) => verdict,
    }
}

/// The final, independent check of a puzzle before it is output.
#[derive(Clone, Debug, Serialize)]
pub struct Recount {
    /// The count, up to 2 (so 1 means proven unique).
    pub count: u64,
    /// The count's sizes, calls and times.
    pub stats: Stats,
    /// The whole recount (load, count, solve), in milliseconds.
    pub ms: f64,
}

/// Loads the written text afresh, counts it up to 2 on a fresh solver, and
/// solves it; the puzzle passes when the count is exactly 1 and the
/// solution's shown values are `solution`'s.
pub fn recount(
    name: &str,
    text: &str,
    solution: &serde_json::Value,
    engine: Option<&str>,
    solver: &SolverConfig,
) -> Result<Recount, Error> {
    let started = Instant::now();
    let puzzle = load(name, text)?;
    let engine = engine.map(str::to_string);
    let options =
        CountOptions { limit: Some(2), engine: engine.clone(), solver: solver.clone(), ..CountOptions::default() };
    let report = puzzle.count(&options)?;
    if report.count != 1 || !report.complete {
        return Err(Error::CheckFailed(format!(
            "a generated puzzle counted {} solution(s) when recounted from its text",
            report.count
        )));
    }
    let solved = puzzle.solve(&SolveOptions { engine, solver: solver.clone(), ..SolveOptions::default() })?;
    let found = solved.solution.as_ref().filter(|_| solved.status == Status::Solved).map(|s| &s.json);
    let agrees = match (found, solution.as_object()) {
        (Some(found), Some(wanted)) => wanted.iter().all(|(k, v)| found.get(k) == Some(v)),
        _ => false,
    };
    if !agrees {
        return Err(Error::CheckFailed(
            "a generated puzzle's one solution is not the solution its clues were read from".to_string(),
        ));
    }
    Ok(Recount { count: report.count, stats: report.stats, ms: Stats::ms(started.elapsed()) })
}

//! New puzzles for the page: `generate` on a served model that has a
//! designer (a csp model's `[design]` table, a fans grid, a room or a
//! vault), one puzzle from the page's seed and difficulty range, under the
//! request's deadline and the memory cap. The run's counters are published
//! under the page's progress token while it runs, so the page can show
//! them; the puzzle's rating is the one `steps` gives it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use super::{Response, Served};
use crate::generate::{self, GenerateOptions, GenerateProgress, Generated};
use crate::limits::memory;
use crate::puzzles::{self, Error, SolveOptions};
use crate::solver::{SolverConfig, Stop};

/// The runs going on, by the page's progress token.
#[derive(Default)]
pub(super) struct Runs {
    running: Mutex<HashMap<String, Run>>,
}

/// A run going on: its counters, and the stop that ends it when the page
/// asks something else.
struct Run {
    progress: Arc<GenerateProgress>,
    stop: Stop,
    cancelled: Arc<AtomicBool>,
}

/// The longest progress token a page may choose.
const TOKEN_LENGTH: usize = 32;

/// How often the memory watch looks.
const TICK: Duration = Duration::from_millis(20);

impl Runs {
    /// The counters of the run under `token`: `None` when none runs.
    pub(super) fn progress(&self, token: &str) -> Option<Value> {
        let running = self.running.lock().ok()?;
        let progress = &running.get(token)?.progress;
        Some(json!({
            "running": true,
            "checks": progress.checks(),
            "clues_left": progress.clues_left(),
            "made": progress.made(),
        }))
    }

    /// Stops the run under `token`, as the page moved on; whether one ran.
    pub(super) fn cancel(&self, token: &str) -> bool {
        let Ok(running) = self.running.lock() else { return false };
        let Some(run) = running.get(token) else { return false };
        run.cancelled.store(true, Ordering::SeqCst);
        run.stop.raise();
        true
    }

    /// Runs `run` with fresh counters published under `token` (when the
    /// page gave one) until it returns; [`Runs::cancel`] raises `stop`.
    fn published<T>(
        &self,
        token: Option<&str>,
        stop: &Stop,
        cancelled: &Arc<AtomicBool>,
        run: impl FnOnce(&GenerateProgress) -> T,
    ) -> T {
        let progress = Arc::new(GenerateProgress::default());
        if let (Some(token), Ok(mut running)) = (token, self.running.lock()) {
            let published =
                Run { progress: Arc::clone(&progress), stop: stop.clone(), cancelled: Arc::clone(cancelled) };
            running.insert(token.to_string(), published);
        }
        let made = run(&progress);
        if let (Some(token), Ok(mut running)) = (token, self.running.lock()) {
            running.remove(token);
        }
        made
    }
}

/// Whether `token` is one a page may name a run by: 1 to 32 letters,
/// digits, `-` or `_`.
pub(super) fn is_token(token: &str) -> bool {
    (1..=TOKEN_LENGTH).contains(&token.len())
        && token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// What the page asks for.
pub(super) struct Wanted<'a> {
    /// The served model.
    pub served: &'a Served,
    pub seed: u64,
    /// The rating range, as `--difficulty LO..HI`.
    pub difficulty: Option<(usize, usize)>,
    /// The page's progress token.
    pub token: Option<&'a str>,
}

/// A new puzzle and its rating, as the page shows it.
pub(super) struct Made {
    pub puzzle: Generated,
    pub rating: Value,
}

/// Whether the model at `path` has a designer, so the page offers New
/// puzzle.
pub(super) fn designable(served: &Served) -> bool {
    served.source().is_ok_and(|source| puzzles::designer(&source).is_ok())
}

/// One new puzzle from `wanted`, within `time` and `memory_cap`.
pub(super) fn make(
    runs: &Runs,
    wanted: &Wanted<'_>,
    options: &SolveOptions,
    time: Duration,
    memory_cap: Option<u64>,
) -> Result<Made, Response> {
    let source = wanted.served.source().map_err(|e| Response::error(400, e))?;
    let designer = puzzles::designer(&source).map_err(|e| Response::error(400, e.to_string()))?;
    let stop = Stop::after(time);
    let generate = GenerateOptions {
        seed: wanted.seed,
        difficulty: wanted.difficulty,
        engine: options.engine.clone(),
        solver: SolverConfig { stop: stop.clone(), ..options.solver.clone() },
        ..GenerateOptions::default()
    };
    let done = AtomicBool::new(false);
    let cancelled = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        if let Some(cap) = memory_cap {
            let (done, stop) = (&done, &stop);
            scope.spawn(move || {
                while !done.load(Ordering::Relaxed) && !stop.is_raised() {
                    if memory::in_use() > cap {
                        stop.raise();
                    }
                    std::thread::sleep(TICK);
                }
            });
        }
        let made = runs.published(wanted.token, &stop, &cancelled, |progress| {
            generate::generate(designer.as_ref(), &generate, progress)
        });
        let rated = made.and_then(|mut all| match all.pop() {
            Some(Ok(puzzle)) => rating(&wanted.served.name, &puzzle, &generate).map(|rating| Made { puzzle, rating }),
            Some(Err(e)) => Err(e),
            None => Err(Error::Internal("generate made no puzzle and no error".into())),
        });
        done.store(true, Ordering::Relaxed);
        rated.map_err(|e| {
            // Past the deadline a run may end in any error (a rating cut
            // short ends "unknown"): the deadline is the reason.
            if stop.check().is_ok() {
                return super::api::refusal(e);
            }
            let why = match memory_cap.filter(|&cap| memory::in_use() > cap) {
                _ if cancelled.load(Ordering::SeqCst) => "the page, which asked something else".to_string(),
                Some(cap) => format!("the memory cap of {cap} bytes"),
                None => format!("the deadline of {:.1} s", time.as_secs_f64()),
            };
            Response::error(
                503,
                format!("no new puzzle: stopped by {why}; expected a wider range or a longer --timeout"),
            )
        })
    })
}

/// The puzzle's rating: the kind's own measure, or the `steps` rating
/// (made for the range, or now).
fn rating(name: &str, puzzle: &Generated, options: &GenerateOptions) -> Result<Value, Error> {
    if let Some(measure) = &puzzle.measure {
        return Ok(json!({ "text": format!("{} {}", measure.name, measure.value), "measure": measure }));
    }
    let difficulty = match &puzzle.rating {
        Some(rating) => rating.clone(),
        None => generate::rate(name, &puzzle.model, options)?,
    };
    Ok(json!({
        "text": format!(
            "rated {} ({} steps, {} constraints in all)",
            difficulty.largest, difficulty.steps, difficulty.total
        ),
        "difficulty": difficulty,
    }))
}

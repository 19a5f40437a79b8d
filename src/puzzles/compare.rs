//! Running every encoding or engine of a puzzle side by side and checking
//! that they agree.

use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use super::{CountMethod, CountOptions, Error, Puzzle, SolveOptions, Stats, Status};
use crate::solver::{Backend, Progress, SolverConfig};

/// How to compare.
#[derive(Clone, Debug, Default)]
pub struct CompareOptions {
    /// Also count solutions with each engine.
    pub count: bool,
    /// Stop each count after this many solutions.
    pub limit: Option<u64>,
    /// Skip the family's presolve, so each encoding gives its own verdict.
    pub skip_presolve: bool,
    /// Live counters shared by every run.
    pub progress: Arc<Progress>,
    /// The SAT backend and the stop token every run shares.
    pub solver: SolverConfig,
    /// The SAT backends to run each engine on, in order; when empty, the
    /// one of `solver` alone.
    pub backends: Vec<Backend>,
}

impl CompareOptions {
    /// The runs a comparison makes, in order: each engine on each backend.
    pub fn runs(&self, engines: &[&'static str]) -> Vec<(&'static str, Backend)> {
        let backends = if self.backends.is_empty() { vec![self.solver.backend] } else { self.backends.clone() };
        engines.iter().flat_map(|&engine| backends.iter().map(move |&backend| (engine, backend))).collect()
    }
}

/// One engine's run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineResult {
    /// The encoding or engine.
    pub encoding: String,
    /// The SAT backend it ran on.
    pub solver: String,
    /// Its verdict.
    pub status: Status,
    /// Wall-clock time of the solve, in milliseconds.
    pub ms: f64,
    /// Variables in its CNF.
    pub variables: usize,
    /// Clauses in its CNF.
    pub clauses: usize,
    /// SAT calls made by the solve.
    pub sat_calls: u64,
    /// The minimised quantity, when the puzzle has one.
    pub cost: Option<u64>,
    /// The proven optimum of the model's objective, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective: Option<i64>,
    /// Solutions counted, when counting was asked for.
    pub count: Option<u64>,
    /// Whether the count is complete, when counting was asked for.
    pub count_complete: Option<bool>,
    /// Wall-clock time of the count, in milliseconds, when counting was
    /// asked for.
    pub count_ms: Option<f64>,
    /// SAT calls made by the count, when counting was asked for.
    pub count_sat_calls: Option<u64>,
    /// Why the engine gave no verdict, when it did not.
    pub note: Option<String>,
    /// Whether it answered, refused the model, or was stopped.
    pub outcome: Outcome,
}

/// How an engine's run ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// It reached a verdict (a count it refused is in `note`).
    Answered,
    /// It refused the model as too large for it before solving, as
    /// `solve --engine` does with exit 2.
    Refused,
    /// A time or memory limit, or Ctrl-C, stopped it.
    Stopped,
    /// The comparison was stopped before the engine's turn.
    NotRun,
}

impl EngineResult {
    /// The entry of an engine that gave no verdict on `backend`, how its
    /// run ended, and why.
    pub fn unfinished(engine: &str, backend: Backend, outcome: Outcome, why: impl Into<String>) -> EngineResult {
        EngineResult {
            encoding: engine.to_string(),
            solver: backend.name().to_string(),
            status: Status::Unknown,
            ms: 0.0,
            variables: 0,
            clauses: 0,
            sat_calls: 0,
            cost: None,
            objective: None,
            count: None,
            count_complete: None,
            count_ms: None,
            count_sat_calls: None,
            note: Some(why.into()),
            outcome,
        }
    }
}

/// How far the engines agree.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Agreement {
    /// Every engine answered, and they all agree.
    All,
    /// The engines that answered agree, but some gave no verdict.
    Partial,
    /// Two engines reached different verdicts, costs or complete counts.
    Disagree,
}

/// All engines' runs and whether they agree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompareReport {
    /// One entry per engine, in the family's order.
    pub results: Vec<EngineResult>,
    /// True only when every engine answered and they all agree, so that a
    /// script reading this one field cannot be misled.
    pub agree: bool,
    /// How far they agree; `partial` when some gave no verdict.
    pub agreement: Agreement,
    /// The engines that gave no verdict.
    pub unfinished: Vec<String>,
}

impl CompareReport {
    /// The report on `results`.
    pub fn of(results: Vec<EngineResult>) -> CompareReport {
        let several = several_solvers(&results);
        let unfinished: Vec<String> = results
            .iter()
            .filter(|r| r.status == Status::Unknown || r.note.is_some())
            .map(|r| r.label(several))
            .collect();
        let agreement = if !agree(&results) {
            Agreement::Disagree
        } else if unfinished.is_empty() {
            Agreement::All
        } else {
            Agreement::Partial
        };
        CompareReport { results, agree: agreement == Agreement::All, agreement, unfinished }
    }

    /// True when an engine was stopped or not run, so that the comparison
    /// itself is unfinished; refusals alone leave it finished.
    pub fn stopped(&self) -> bool {
        self.results.iter().any(|r| matches!(r.outcome, Outcome::Stopped | Outcome::NotRun))
    }

    /// True when no engine took the model at all.
    pub fn all_refused(&self) -> bool {
        self.results.iter().all(|r| r.outcome == Outcome::Refused)
    }
}

impl EngineResult {
    /// The run's name in a report: the engine, and the backend when the
    /// comparison ran on `several` of them.
    pub fn label(&self, several: bool) -> String {
        if several { format!("{} on {}", self.encoding, self.solver) } else { self.encoding.clone() }
    }
}

/// Whether `results` ran on more than one SAT backend.
pub fn several_solvers(results: &[EngineResult]) -> bool {
    results.windows(2).any(|w| w[0].solver != w[1].solver)
}

/// Runs every engine of `puzzle` on every backend asked for, and compares
/// them.
///
/// ```
/// use somaria::puzzles::{self, compare::{compare, CompareOptions}};
/// let puzzle = puzzles::load_file("models/akh-vaquot.toml".as_ref()).unwrap();
/// let report = compare(puzzle.as_ref(), &CompareOptions { count: true, ..Default::default() }).unwrap();
/// assert!(report.agree);
/// assert_eq!(report.results[0].count, Some(1));
/// assert!(report.unfinished.is_empty());
/// ```
pub fn compare(puzzle: &dyn Puzzle, options: &CompareOptions) -> Result<CompareReport, Error> {
    let results = options
        .runs(puzzle.compared_engines())
        .into_iter()
        .map(|(engine, backend)| run_engine(puzzle, engine, backend, options))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(CompareReport::of(results))
}

/// One engine's run, as [`compare`] makes it; for callers that want the
/// results one at a time. An engine that refuses the puzzle as too large
/// for it gives no verdict, with the reason, rather than failing the rest.
pub fn run_engine(
    puzzle: &dyn Puzzle,
    engine: &str,
    backend: Backend,
    options: &CompareOptions,
) -> Result<EngineResult, Error> {
    let started = Instant::now();
    let solver = SolverConfig { backend, ..options.solver.clone() };
    let solve_options = SolveOptions {
        engine: Some(engine.to_string()),
        skip_presolve: options.skip_presolve,
        progress: options.progress.clone(),
        solver: solver.clone(),
        ..SolveOptions::default()
    };
    let report = match puzzle.solve(&solve_options) {
        Err(Error::TooLarge(why)) => return Ok(EngineResult::unfinished(engine, backend, Outcome::Refused, why)),
        other => other?,
    };
    let ms = Stats::ms(started.elapsed());
    let mut result = EngineResult {
        encoding: engine.to_string(),
        solver: backend.name().to_string(),
        status: report.status,
        ms,
        variables: report.stats.variables,
        clauses: report.stats.clauses,
        sat_calls: report.stats.sat_calls,
        cost: report.cost,
        objective: report.objective,
        count: None,
        count_complete: None,
        count_ms: None,
        count_sat_calls: None,
        note: None,
        outcome: if report.status == Status::Unknown { Outcome::Stopped } else { Outcome::Answered },
    };
    if options.count {
        let count_options = CountOptions {
            engine: Some(engine.to_string()),
            limit: options.limit,
            method: CountMethod::Enumerate,
            skip_presolve: options.skip_presolve,
            progress: options.progress.clone(),
            solver,
        };
        let counting = Instant::now();
        match puzzle.count(&count_options) {
            Err(Error::TooLarge(why)) => result.note = Some(format!("the count was refused: {why}")),
            // An engine that does not count this puzzle at all (keys and
            // doors with several walkers, for the whole-leg engines) is left
            // without a count; its verdict still stands.
            Err(Error::Unsupported { .. }) => {}
            other => {
                let counted = other?;
                result.count = Some(counted.count);
                result.count_complete = Some(counted.complete);
                result.count_sat_calls = Some(counted.stats.sat_calls);
            }
        }
        result.count_ms = Some(Stats::ms(counting.elapsed()));
    }
    Ok(result)
}

/// True when no two results reached different verdicts, costs or complete
/// counts. An unknown verdict disagrees with nothing; [`CompareReport::of`]
/// tells apart full agreement from partial.
pub fn agree(results: &[EngineResult]) -> bool {
    let decided: Vec<&EngineResult> = results.iter().filter(|r| r.status != Status::Unknown).collect();
    let same_status = decided.windows(2).all(|w| w[0].status == w[1].status);
    let same_cost = decided.windows(2).all(|w| w[0].cost == w[1].cost && w[0].objective == w[1].objective);
    let complete_counts: Vec<u64> =
        results.iter().filter(|r| r.count_complete == Some(true)).filter_map(|r| r.count).collect();
    let same_count = complete_counts.windows(2).all(|w| w[0] == w[1]);
    same_status && same_cost && same_count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answered(engine: &str, status: Status) -> EngineResult {
        EngineResult { status, note: None, outcome: Outcome::Answered, ..refused(engine) }
    }

    fn refused(engine: &str) -> EngineResult {
        EngineResult::unfinished(engine, Backend::default(), Outcome::Refused, "too large")
    }

    #[test]
    fn refusals_leave_a_comparison_finished_and_stops_do_not() {
        let report = CompareReport::of(vec![answered("auto", Status::Solved), refused("direct")]);
        assert_eq!(report.agreement, Agreement::Partial);
        assert!(!report.stopped() && !report.all_refused());
        let report = CompareReport::of(vec![refused("direct"), refused("order")]);
        assert!(report.all_refused() && !report.stopped());
        let stopped = EngineResult::unfinished("log", Backend::default(), Outcome::Stopped, "time limit");
        let report = CompareReport::of(vec![answered("auto", Status::Solved), refused("direct"), stopped]);
        assert!(report.stopped() && !report.all_refused());
        assert_eq!(report.unfinished, ["direct", "log"]);
    }
}

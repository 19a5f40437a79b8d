//! The stop token through the library: a long search stops soon after its
//! deadline or its flag, with its partial count in the progress, and a
//! stopped search is never taken for a verdict or a failed check.

use std::sync::Arc;
use std::time::{Duration, Instant};

use somaria::model::Source;
use somaria::puzzles::{self, CountOptions, Error, Puzzle, SolveOptions};
use somaria::solver::{Progress, SolverConfig, Stop, StopCause};

/// Twelve queens: 14,200 solutions, several seconds of counting, one short
/// SAT call per solution.
fn twelve_queens() -> Box<dyn Puzzle> {
    let text = std::fs::read_to_string("models/csp/queens.toml").unwrap().replace("n = 8", "n = 12");
    puzzles::load(&Source::from_text("queens-12.toml", &text)).unwrap()
}

fn counting_under(stop: Stop, progress: &Arc<Progress>) -> CountOptions {
    CountOptions {
        progress: progress.clone(),
        solver: SolverConfig { stop, ..SolverConfig::default() },
        ..Default::default()
    }
}

/// How long after `moment` it is now.
fn since(moment: Instant) -> Duration {
    Instant::now().saturating_duration_since(moment)
}

#[test]
fn a_long_count_stops_within_100_ms_of_its_deadline_with_its_partial_count() {
    let puzzle = twelve_queens();
    let progress = Arc::new(Progress::default());
    let deadline = Instant::now() + Duration::from_millis(200);
    let result = puzzle.count(&counting_under(Stop::at(deadline), &progress));
    let late = since(deadline);
    assert!(matches!(result, Err(Error::Stopped(StopCause::Deadline))), "{result:?}");
    assert!(late < Duration::from_millis(100), "stopped {late:?} after the deadline");
    let partial = progress.solutions();
    assert!(0 < partial && partial < 14_200, "partial count {partial}");
    assert!(progress.sat_calls() >= partial);
}

#[test]
fn a_flag_raised_from_another_thread_stops_the_count_within_100_ms() {
    let puzzle = twelve_queens();
    let progress = Arc::new(Progress::default());
    let stop = Stop::never();
    let raiser = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            stop.raise();
            Instant::now()
        })
    };
    let result = puzzle.count(&counting_under(stop, &progress));
    let raised = raiser.join().unwrap();
    assert!(matches!(result, Err(Error::Stopped(StopCause::Raised))), "{result:?}");
    assert!(since(raised) < Duration::from_millis(100), "stopped {:?} after the flag", since(raised));
    assert!(progress.solutions() > 0);
}

#[test]
fn a_budget_of_sat_calls_stops_a_tile_cover_count_at_exactly_that_many_calls() {
    let room = puzzles::tile_cover::rooms::open_room(7, 7, (0, 0), None).unwrap();
    let text = format!("kind = \"tile-cover\"\ngrid = \"\"\"\n{room}\"\"\"\n");
    let puzzle = puzzles::load(&Source::from_text("open-7x7.toml", &text)).unwrap();
    let progress = Arc::new(Progress::default());
    let result = puzzle.count(&counting_under(Stop::never().with_sat_call_budget(40), &progress));
    assert!(matches!(result, Err(Error::Stopped(StopCause::Budget(40)))), "{result:?}");
    assert_eq!(progress.sat_calls(), 40);
    assert!(progress.solutions() > 0);
}

/// What a command reported, without its times, to compare runs by.
fn outcome(puzzle: &dyn Puzzle, command: &str, engine: &str, solver: SolverConfig) -> Result<String, Error> {
    let solving = SolveOptions { engine: Some(engine.to_string()), solver: solver.clone(), ..Default::default() };
    let counting = CountOptions { engine: Some(engine.to_string()), limit: Some(50), solver, ..Default::default() };
    Ok(match command {
        "solve" => {
            let r = puzzle.solve(&solving)?;
            format!("{:?} {:?} {:?} {:?}", r.status, r.solution.map(|s| s.json), r.cost, r.objective)
        }
        "count" => {
            let r = puzzle.count(&counting)?;
            format!("{} {} {}", r.count, r.complete, r.saturated)
        }
        "facts" => {
            let r = puzzle.facts(&solving)?;
            format!("{:?} {:?}", r.status, r.json)
        }
        _ => {
            let r = puzzle.explain(&solving)?;
            format!("{:?} {:?} {:?}", r.status, r.constraints, r.certificate)
        }
    })
}

/// Quick models of every family, with and without solutions.
fn quick_models() -> Vec<(String, Box<dyn Puzzle>)> {
    let paths = [
        "models/akh-vaquot.toml",
        "models/tile-cover-corner-5x5.toml",
        "models/tile-cover-end.toml",
        "models/keys-doors/locked-in.toml",
        "models/keys-doors/two-doors.toml",
        "models/keys-doors/two-walkers.toml",
        "models/csp/heros-cave.toml",
        "models/csp/knapsack.toml",
        "models/csp/queens.toml",
        "models/csp/sudoku-17.toml",
    ];
    let mut models: Vec<(String, Box<dyn Puzzle>)> =
        paths.iter().map(|&path| (path.to_string(), puzzles::load_file(path.as_ref()).unwrap())).collect();
    // Five tiles of one colour and four of the other, entered on the four's.
    let unsolvable_room = "kind = \"tile-cover\"\ngrid = \"\"\"\n.S.\n...\n...\n\"\"\"\n";
    models.push(("a 3x3 room".to_string(), puzzles::load(&Source::from_text("room.toml", unsolvable_room)).unwrap()));
    models
}

/// Every command and engine on every quick model, under budgets too small
/// for most of them: each run either stops with [`Error::Stopped`] or
/// reports exactly what the unbounded run reports. A stop taken for a
/// verdict, a failed check or another error would show here.
#[test]
fn a_stopped_search_is_never_a_verdict_or_a_failure() {
    for (path, puzzle) in quick_models() {
        for &engine in puzzle.engines() {
            for command in ["solve", "count", "facts", "explain"] {
                let unbounded = outcome(puzzle.as_ref(), command, engine, SolverConfig::default());
                for budget in [0, 1, 3, 10] {
                    let stop = Stop::never().with_sat_call_budget(budget);
                    let bounded =
                        outcome(puzzle.as_ref(), command, engine, SolverConfig { stop, ..Default::default() });
                    let same = match (&bounded, &unbounded) {
                        (Err(Error::Stopped(StopCause::Budget(b))), _) => *b == budget,
                        (Ok(b), Ok(u)) => b == u,
                        (Err(b), Err(u)) => b.to_string() == u.to_string(),
                        _ => false,
                    };
                    assert!(
                        same,
                        "{command} --engine {engine} {path}, {budget} calls: {bounded:?}, unbounded {unbounded:?}"
                    );
                }
            }
        }
    }
}

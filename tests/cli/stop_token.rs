//! The stop token through the library: a long search stops after its
//! deadline or its flag, with its partial count in the progress, and a
//! stopped search is never taken for a verdict or a failed check.
//!
//! The tests assert the kind of answer (stopped, by what, with a partial
//! count), on searches that could not finish without the stop; the one
//! bound on time is a minute, which holds on a loaded machine. How soon a
//! stop comes is a figure, measured by `benches/stop_latency.sh`.

use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use somaria::model::Source;
use somaria::puzzles::{self, CountOptions, Error, Puzzle, SolveOptions};
use somaria::solver::{Backend, Progress, SolverConfig, Stop, StopCause};

/// Sixteen queens: 14,772,512 solutions, some forty minutes of counting
/// (the first 16 by SAT calls, then the walk by propagation), so a count
/// that ends within a minute was stopped.
fn sixteen_queens() -> Box<dyn Puzzle> {
    let text = std::fs::read_to_string("models/csp/queens.toml").unwrap().replace("n = 8", "n = 16");
    puzzles::load(&Source::from_text("queens-16.toml", &text)).unwrap()
}

/// Thirty fans: 4^30 solutions, each found by a SAT call of its own.
fn thirty_fans() -> Box<dyn Puzzle> {
    puzzles::load(&Source::from_text("fans-30.toml", "kind = \"fans\"\nfans = 30\n")).unwrap()
}

fn counting_under(backend: Backend, stop: Stop, progress: &Arc<Progress>) -> CountOptions {
    CountOptions { progress: progress.clone(), solver: SolverConfig { backend, stop }, ..Default::default() }
}

/// Runs `job` on a thread of its own and waits at most a minute for it, so
/// that a search that ignores its stop fails the test instead of hanging it.
fn within_a_minute<T: Send + 'static>(what: &str, job: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(job());
    });
    receive.recv_timeout(Duration::from_secs(60)).unwrap_or_else(|_| panic!("{what}: not stopped within a minute"))
}

/// Raises `stop` from another thread as soon as `progress` counts a
/// solution, so that the stop comes while the count is under way however
/// slow the machine is.
fn raise_once_counting(stop: &Stop, progress: &Arc<Progress>) {
    let (stop, progress) = (stop.clone(), Arc::clone(progress));
    std::thread::spawn(move || {
        while progress.solutions() == 0 {
            std::thread::sleep(Duration::from_millis(10));
        }
        stop.raise();
    });
}

#[test]
fn a_long_count_stops_at_its_deadline_with_its_partial_count() {
    // The queens by a SAT encoding (under `auto` their count goes to the
    // fd engine, which is checked on its own: it makes no SAT calls).
    type Case = (&'static str, fn() -> Box<dyn Puzzle>, u64, Option<&'static str>);
    let cases: [Case; 3] = [
        ("queens", sixteen_queens, 14_772_512, Some("direct")),
        ("queens by fd", sixteen_queens, 14_772_512, Some("fd")),
        ("fans", thirty_fans, u64::MAX, None),
    ];
    for &backend in Backend::ALL {
        for (name, puzzle, total, engine) in cases {
            let progress = Arc::new(Progress::default());
            let counted = Arc::clone(&progress);
            let result = within_a_minute(&format!("{backend} {name}"), move || {
                let stop = Stop::at(Instant::now() + Duration::from_millis(200));
                let options =
                    CountOptions { engine: engine.map(String::from), ..counting_under(backend, stop, &counted) };
                puzzle().count(&options).map(|r| r.count)
            });
            assert!(matches!(result, Err(Error::Stopped(StopCause::Deadline))), "{backend} {name}: {result:?}");
            let partial = progress.solutions();
            assert!(partial < total, "{backend} {name}: partial count {partial}");
            // The SAT calls are recorded too: one per solution up to the
            // 16th of the queens, after which the walk counts without them.
            if engine != Some("fd") {
                let calls = progress.sat_calls();
                assert!(calls >= partial.min(16), "{backend} {name}: {calls} SAT calls");
            }
        }
    }
}

#[test]
fn a_flag_raised_from_another_thread_stops_the_count() {
    for &backend in Backend::ALL {
        let progress = Arc::new(Progress::default());
        let counted = Arc::clone(&progress);
        let result = within_a_minute(&format!("{backend}"), move || {
            let puzzle = sixteen_queens();
            let stop = Stop::never();
            raise_once_counting(&stop, &counted);
            puzzle.count(&counting_under(backend, stop, &counted)).map(|r| r.count)
        });
        assert!(matches!(result, Err(Error::Stopped(StopCause::Raised))), "{backend}: {result:?}");
        let partial = progress.solutions();
        assert!(0 < partial && partial < 14_772_512, "{backend}: partial count {partial}");
    }
}

/// A 5×5 magic square: one SAT call of 3 s or more under CaDiCaL, after an
/// encoding of a few tens of milliseconds.
#[cfg(feature = "cadical")]
fn magic_square_5() -> Box<dyn Puzzle> {
    let text = std::fs::read_to_string("models/csp/magic-square.toml").unwrap().replace("n = 3", "n = 5");
    puzzles::load(&Source::from_text("magic-5.toml", &text)).unwrap()
}

/// Solves the 5×5 magic square under CaDiCaL with a deadline `after` the
/// model is loaded, or, with `raise`, a flag raised that long after; the
/// result and the SAT calls made. The encoding takes a few tens of
/// milliseconds, so the stop comes during the call.
#[cfg(feature = "cadical")]
fn magic_square_stopped(after: Duration, raise: bool) -> (Result<(), Error>, u64) {
    within_a_minute("cadical", move || {
        let puzzle = magic_square_5();
        let progress = Arc::new(Progress::default());
        let stop = if raise { Stop::never() } else { Stop::at(Instant::now() + after) };
        if raise {
            let stop = stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(after);
                stop.raise();
            });
        }
        let options = SolveOptions {
            progress: progress.clone(),
            solver: SolverConfig { backend: Backend::named("cadical").unwrap(), stop },
            ..Default::default()
        };
        let result = puzzle.solve(&options).map(drop);
        (result, progress.sat_calls())
    })
}

/// CaDiCaL's terminate callback reads the token, so a deadline stops the
/// one long call itself, on the calling thread, so nothing is left running.
/// The solve makes one SAT call, so a stop after one call can only have
/// come inside it (a call left to finish gives a solution). How soon after
/// the deadline is measured by `benches/stop_latency.sh`.
#[cfg(feature = "cadical")]
#[test]
fn a_deadline_stops_cadical_inside_one_long_call() {
    let (result, calls) = magic_square_stopped(Duration::from_millis(500), false);
    assert!(matches!(result, Err(Error::Stopped(StopCause::Deadline))), "{result:?}");
    assert_eq!(calls, 1, "the stop came inside the first call");
}

/// The flag (what Ctrl-C and the memory limit raise) stops a CaDiCaL call
/// under way too.
#[cfg(feature = "cadical")]
#[test]
fn a_raised_flag_stops_cadical_inside_one_long_call() {
    let (result, calls) = magic_square_stopped(Duration::from_millis(500), true);
    assert!(matches!(result, Err(Error::Stopped(StopCause::Raised))), "{result:?}");
    assert_eq!(calls, 1, "the stop came inside the first call");
}

#[test]
fn a_budget_of_sat_calls_stops_a_tile_cover_count_at_exactly_that_many_calls() {
    let room = puzzles::tile_cover::rooms::open_room(7, 7, (0, 0), None).unwrap();
    let text = format!("kind = \"tile-cover\"\ngrid = \"\"\"\n{room}\"\"\"\n");
    let puzzle = puzzles::load(&Source::from_text("open-7x7.toml", &text)).unwrap();
    for &backend in Backend::ALL {
        let progress = Arc::new(Progress::default());
        let result = puzzle.count(&counting_under(backend, Stop::never().with_sat_call_budget(40), &progress));
        assert!(matches!(result, Err(Error::Stopped(StopCause::Budget(40)))), "{backend}: {result:?}");
        assert_eq!(progress.sat_calls(), 40);
        assert!(progress.solutions() > 0);
    }
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
            for (command, &backend) in ["solve", "count", "facts", "explain"]
                .into_iter()
                .flat_map(|c| Backend::ALL.iter().map(move |b| (c, b)))
            {
                let unbounded =
                    outcome(puzzle.as_ref(), command, engine, SolverConfig { backend, stop: Stop::never() });
                for budget in [0, 1, 3, 10] {
                    let stop = Stop::never().with_sat_call_budget(budget);
                    let bounded = outcome(puzzle.as_ref(), command, engine, SolverConfig { backend, stop });
                    let same = match (&bounded, &unbounded) {
                        (Err(Error::Stopped(StopCause::Budget(b))), _) => *b == budget,
                        (Ok(b), Ok(u)) => b == u,
                        (Err(b), Err(u)) => b.to_string() == u.to_string(),
                        _ => false,
                    };
                    assert!(
                        same,
                        "{command} --engine {engine} --solver {backend} {path}, {budget} calls: {bounded:?}, unbounded {unbounded:?}"
                    );
                }
            }
        }
    }
}

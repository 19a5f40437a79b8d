//! The limits a program that embeds the library runs work under
//! (`somaria::limits`): a closure on a worker thread, stopped by a time
//! limit, a memory cap or an interrupt flag, and a worker that cannot be
//! interrupted abandoned and counted. This binary installs the counting
//! allocator, as the `somaria` binary does; the memory cap also reads the
//! resident memory, which sees CaDiCaL's C++ allocations (run with
//! `--features cadical` for that test).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, mpsc};
use std::time::{Duration, Instant};

use somaria::limits::memory::{self, CountingAllocator};
use somaria::limits::{Finished, Limits, Reached, abandoned_workers};
use somaria::solver::Stop;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Taken by every test: the memory counts and the abandoned workers are
/// the process's, so the tests must not run beside one another.
static ALONE: Mutex<()> = Mutex::new(());

fn alone() -> MutexGuard<'static, ()> {
    ALONE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Waits, for a minute at most, until `done` holds.
fn eventually(what: &str, done: impl Fn() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < Duration::from_secs(60), "{what} never happened");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Waits until `stop` is raised, as a search does between SAT calls.
fn until_raised(stop: &Stop) {
    while !stop.is_raised() {
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn work_within_its_limits_returns_its_value() {
    let _alone = alone();
    let limits = Limits::new(Some(Duration::from_secs(60)), Some(memory::in_use() + (1 << 30)));
    assert!(matches!(limits.run(|| 6 * 7), Finished::Done(42)));
    assert!(matches!(limits.run(|| -> Result<(), String> { Err("no".into()) }), Finished::Done(Err(_))));
    assert_eq!(limits.reached(), None);
}

#[test]
fn a_panic_is_returned_with_its_message() {
    let _alone = alone();
    match Limits::new(None, None).run(|| -> u8 { panic!("a bug here") }) {
        Finished::Panicked(what) => assert_eq!(what, "a bug here"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_time_limit_raises_the_token_that_the_work_watches() {
    let _alone = alone();
    let limits = Limits::new(Some(Duration::from_millis(100)), None);
    let stop = limits.stop.clone();
    let finished = limits.run(move || until_raised(&stop));
    assert!(matches!(finished, Finished::Stopped(Reached::Time(limit)) if limit == Duration::from_millis(100)));
    assert_eq!(limits.reached(), Some(Reached::Time(Duration::from_millis(100))));
    assert!(limits.stop.check().is_err());
}

#[test]
fn the_interrupt_flag_stops_the_work() {
    let _alone = alone();
    let flag = Arc::new(AtomicBool::new(false));
    let limits = Limits::new(None, None).with_interrupt(Arc::clone(&flag));
    let stop = limits.stop.clone();
    let raiser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        flag.store(true, Ordering::SeqCst);
    });
    assert!(matches!(limits.run(move || until_raised(&stop)), Finished::Stopped(Reached::Interrupted)));
    raiser.join().unwrap();
}

/// Work that does not look at the token (as varisat inside one long call)
/// is left running when a limit is reached, and counted until it ends.
#[test]
fn work_that_cannot_be_interrupted_is_abandoned_and_counted_until_it_ends() {
    let _alone = alone();
    let before = abandoned_workers();
    let (release, released) = mpsc::channel::<()>();
    let limits = Limits::new(Some(Duration::from_millis(50)), None);
    let finished = limits.run(move || released.recv_timeout(Duration::from_secs(120)).is_ok());
    assert!(matches!(finished, Finished::Stopped(Reached::Time(_))), "{finished:?}");
    assert_eq!(abandoned_workers(), before + 1);
    release.send(()).unwrap();
    eventually("the abandoned worker's end", || abandoned_workers() == before);
}

/// A block the allocator counts at once, before its pages are touched (so
/// before the resident memory shows it).
#[test]
fn the_memory_cap_counts_the_rust_heap() {
    let _alone = alone();
    let before = memory::allocated().expect("this binary installs the counting allocator");
    let cap = memory::in_use() + (32 << 20);
    // Untouched, so not resident: only the count can pass the cap.
    let size = (memory::in_use() - before) as usize + (64 << 20);
    let limits = Limits::new(Some(Duration::from_secs(60)), Some(cap));
    let stop = limits.stop.clone();
    let finished = limits.run(move || {
        let block: Vec<u8> = Vec::with_capacity(size);
        until_raised(&stop);
        block.capacity()
    });
    assert!(matches!(finished, Finished::Stopped(Reached::Memory(c)) if c == cap), "{finished:?}");
    eventually("the block's release", || memory::allocated().unwrap() < before + (16 << 20));
}

/// Memory the allocator does not see (here a block from the C library's
/// `malloc`, as C++ code allocates) is resident, and the cap counts it.
#[cfg(target_os = "linux")]
#[test]
fn the_memory_cap_counts_resident_memory_the_allocator_does_not_see() {
    let _alone = alone();
    let cap = memory::in_use() + (32 << 20);
    let counted = memory::allocated().unwrap();
    let limits = Limits::new(Some(Duration::from_secs(60)), Some(cap));
    let stop = limits.stop.clone();
    let (sender, receiver) = mpsc::channel();
    let finished = limits.run(move || {
        let size = 96 << 20;
        // SAFETY: a plain allocation, written in full, then freed once.
        unsafe {
            let block = libc::malloc(size).cast::<u8>();
            assert!(!block.is_null());
            std::ptr::write_bytes(block, 1, size);
            // Written for real: the compiler may not drop the stores.
            std::hint::black_box(block);
            let _ = sender.send(memory::allocated().unwrap());
            until_raised(&stop);
            libc::free(block.cast());
        }
    });
    assert!(matches!(finished, Finished::Stopped(Reached::Memory(c)) if c == cap), "{finished:?}");
    let while_held = receiver.recv().unwrap();
    assert!(while_held < counted + (16 << 20), "the allocator saw the C block: {counted} then {while_held}");
}

/// CaDiCaL's clauses live in C++ memory: the allocator count hardly moves
/// while they are added, the resident memory grows by their size, and the
/// cap stops the run on them.
#[cfg(all(feature = "cadical", target_os = "linux"))]
#[test]
fn the_memory_cap_counts_cadicals_clauses() {
    use somaria::cnf::{ClauseSink, Cnf, Var};
    use somaria::solver::Backend;

    let _alone = alone();
    let (counted, resident) = (memory::allocated().unwrap(), memory::resident().unwrap());
    let cap = memory::in_use() + (48 << 20);
    let limits = Limits::new(Some(Duration::from_secs(60)), Some(cap));
    let config = limits.solver(Backend::named("cadical").unwrap());
    let stop = limits.stop.clone();
    let (sender, receiver) = mpsc::channel();
    let finished = limits.run(move || {
        let mut solver = config.new_solver(&Cnf::new(), None);
        let vars: Vec<Var> = (0..100_000).map(|_| solver.new_var()).collect();
        let mut state = 12345u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        let mut clause = Vec::with_capacity(3);
        // Two million clauses of three literals: over 100 MB in CaDiCaL.
        for _ in 0..2_000_000 {
            clause.clear();
            clause.extend((0..3).map(|_| vars[next() % vars.len()].lit(next() % 2 == 0)));
            solver.add_clause(&clause);
            if stop.is_raised() {
                break;
            }
        }
        let _ = sender.send((memory::allocated().unwrap(), memory::resident().unwrap()));
        until_raised(&stop);
    });
    assert!(matches!(finished, Finished::Stopped(Reached::Memory(c)) if c == cap), "{finished:?}");
    let (counted_after, resident_after) = receiver.recv().unwrap();
    assert!(counted_after < counted + (16 << 20), "the allocator saw CaDiCaL: {counted} then {counted_after}");
    assert!(resident_after > resident + (32 << 20), "resident {resident} then {resident_after}");
}

/// `n` queens as a csp model: its encoding grows with `n`³ (about 2 million
/// clauses at 140), all of it held until the solve.
fn queens(n: usize) -> Box<dyn somaria::Puzzle> {
    let source = std::fs::read_to_string("models/csp/queens.toml").unwrap();
    assert!(source.contains("\nn = 8\n"), "models/csp/queens.toml no longer sets n = 8");
    somaria::load_str("queens.toml", &source.replace("\nn = 8\n", &format!("\nn = {n}\n"))).unwrap()
}

/// Solves a big model on `backend` under a cap well below what its
/// encoding takes: the run is answered "stopped by the memory limit", not
/// solved, and the worker ends soon after (at its next SAT call, which the
/// raised token refuses), so nothing is left running.
fn a_big_model_is_stopped_by_the_memory_cap(backend: &str) {
    use somaria::{Backend, SolveOptions};

    let _alone = alone();
    let puzzle = queens(140);
    let before = abandoned_workers();
    let cap = memory::in_use() + (48 << 20);
    let limits = Limits::new(None, Some(cap));
    let options = SolveOptions { solver: limits.solver(Backend::named(backend).unwrap()), ..SolveOptions::default() };
    let finished = limits.run(move || puzzle.solve(&options).map(|report| report.status));
    assert!(matches!(finished, Finished::Stopped(Reached::Memory(c)) if c == cap), "{backend}: {finished:?}");
    assert_eq!(limits.reached(), Some(Reached::Memory(cap)));
    eventually("the stopped worker's end", || abandoned_workers() == before);
}

#[test]
fn a_big_model_is_stopped_by_the_memory_cap_on_varisat() {
    a_big_model_is_stopped_by_the_memory_cap("varisat");
}

#[cfg(feature = "cadical")]
#[test]
fn a_big_model_is_stopped_by_the_memory_cap_on_cadical() {
    a_big_model_is_stopped_by_the_memory_cap("cadical");
}

/// The same model solves within a cap it fits under: the cap above did not
/// stop it for being a cap.
#[test]
fn a_model_within_the_memory_cap_is_solved() {
    let _alone = alone();
    let puzzle = queens(20);
    let limits = Limits::new(None, Some(memory::in_use() + (512 << 20)));
    let options = somaria::SolveOptions { solver: limits.solver(somaria::Backend::default()), ..Default::default() };
    let finished = limits.run(move || puzzle.solve(&options).map(|report| report.status));
    assert!(matches!(finished, Finished::Done(Ok(somaria::Status::Solved))), "{finished:?}");
}

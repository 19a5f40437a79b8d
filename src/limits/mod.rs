//! Work run under limits, for the command line and a server alike: a time
//! limit, a memory cap ([`memory`] says what it counts) and an interrupt
//! flag (Ctrl-C, or a client gone), with a watchdog for the backend call
//! that cannot be interrupted.
//!
//! [`Limits::run`] runs a closure on a worker thread of its own and
//! watches it from the calling thread. When a limit is reached it raises
//! the limits' [`Stop`] token, so the solvers built from
//! [`Limits::solver`] stop at their next SAT call (CaDiCaL inside the call
//! too), and gives the worker a short grace to come back. varisat cannot
//! be interrupted inside a call, so a worker in one long varisat call is
//! *abandoned*: the answer is "stopped" at once, and the thread runs on to
//! the end of that call, then ends. A command-line run exits soon after; a
//! server should bound the work it has left running, which
//! [`abandoned_workers`] counts, and prefer an interruptible backend
//! ([`crate::solver::Backend::interruptible`]) when it is built.
//!
//! The work between SAT calls does not look at the token: a worker
//! stopped while it loads or encodes a model is abandoned the same way and
//! ends at its next SAT call, which the raised token refuses. Its memory
//! goes on growing until then, so the memory cap stops a run soon after it
//! is passed but is no ceiling: a worker stopped in the middle of encoding
//! a model finishes the encoding, and holds it, before it ends.
//!
//! One request of a server:
//!
//! ```
//! use std::time::Duration;
//! use somaria::limits::{Finished, Limits};
//! use somaria::{Backend, SolveOptions, Status};
//!
//! let puzzle = somaria::load_file("models/akh-vaquot.toml".as_ref()).unwrap();
//! let limits = Limits::new(Some(Duration::from_secs(10)), Some(512 << 20));
//! let options = SolveOptions { solver: limits.solver(Backend::default()), ..SolveOptions::default() };
//! match limits.run(move || puzzle.solve(&options)) {
//!     Finished::Done(Ok(report)) => assert_eq!(report.status, Status::Solved),
//!     Finished::Done(Err(error)) => panic!("{error}"),
//!     Finished::Stopped(reached) => panic!("stopped by {reached}"),
//!     Finished::Panicked(what) => panic!("a bug: {what}"),
//! }
//! ```

pub mod memory;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::solver::{Backend, SolverConfig, Stop};

/// What a run may spend, shared by every phase of it (a command-line run's
/// loading included).
#[derive(Clone, Debug)]
pub struct Limits {
    /// When the run began.
    pub started: Instant,
    /// The time limit, from `started`.
    pub time: Option<Duration>,
    /// The most bytes the process may hold ([`memory::in_use`]).
    pub memory: Option<u64>,
    /// A flag that stops the run when set, such as Ctrl-C's.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// The stop token of every solver of the run: due at the time limit,
    /// and raised when any limit is reached.
    pub stop: Stop,
}

/// Which limit stopped a run.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Reached {
    /// The time limit.
    #[error("the time limit of {} s", .0.as_secs_f64())]
    Time(Duration),
    /// The memory cap, in bytes.
    #[error("the memory limit of {}", memory::describe(*.0))]
    Memory(u64),
    /// The interrupt flag was set.
    #[error("an interrupt")]
    Interrupted,
}

/// How a run under [`Limits`] ended.
#[derive(Debug)]
pub enum Finished<T> {
    /// The work finished, with this value. A value that is itself a stop
    /// (the solvers saw the deadline before the watchdog did) is returned
    /// as it is; [`Limits::reached`] tells which limit it was.
    Done(T),
    /// A limit was reached first. The work was stopped, or, when it did
    /// not come back within a short grace, abandoned (see
    /// [`abandoned_workers`]).
    Stopped(Reached),
    /// The work panicked (a bug), with the panic's message.
    Panicked(String),
}

/// What the watchdog calls while it waits: a progress display, say.
pub trait Watcher {
    /// Called at each tick of the wait (about every 20 ms), with the time
    /// since the run began.
    fn waiting(&mut self, elapsed: Duration) {
        let _ = elapsed;
    }

    /// Called once when the wait is over: the work finished, or a limit
    /// was reached (before the grace given to the work).
    fn over(&mut self) {}
}

/// No watcher.
impl Watcher for () {}

/// How long a stopped worker has to come back before it is abandoned: its
/// solvers stop at their next SAT call, which is usually far sooner.
const GRACE: Duration = Duration::from_millis(200);

/// How often the watchdog looks at the limits: often, so that memory
/// growing fast is caught soon after the cap.
const TICK: Duration = Duration::from_millis(20);

/// Workers abandoned in a call that could not be interrupted, and still
/// running.
static ABANDONED: AtomicUsize = AtomicUsize::new(0);

/// How many workers a watchdog has abandoned (each inside a SAT call that
/// could not be interrupted) and are still running; each ends at the end
/// of its call.
pub fn abandoned_workers() -> usize {
    ABANDONED.load(Ordering::SeqCst)
}

impl Limits {
    /// Limits from now: a time limit and a memory cap, `None` for none.
    pub fn new(time: Option<Duration>, memory: Option<u64>) -> Limits {
        let started = Instant::now();
        let deadline = time.and_then(|limit| started.checked_add(limit));
        Limits { started, time, memory, interrupt: None, stop: deadline.map_or_else(Stop::never, Stop::at) }
    }

    /// The same limits, also stopped when `flag` is set.
    pub fn with_interrupt(self, flag: Arc<AtomicBool>) -> Limits {
        Limits { interrupt: Some(flag), ..self }
    }

    /// The solver configuration of the run's searches: `backend`, stopping
    /// on the limits.
    pub fn solver(&self, backend: Backend) -> SolverConfig {
        SolverConfig { backend, stop: self.stop.clone() }
    }

    /// The limit the run has reached, if any: the time limit first, then
    /// the memory cap, then the interrupt.
    pub fn reached(&self) -> Option<Reached> {
        self.reached_after(self.started.elapsed())
    }

    fn reached_after(&self, waited: Duration) -> Option<Reached> {
        if let Some(limit) = self.time
            && waited >= limit
        {
            Some(Reached::Time(limit))
        } else if let Some(cap) = self.memory
            && memory::in_use() > cap
        {
            Some(Reached::Memory(cap))
        } else if self.interrupt.as_ref().is_some_and(|flag| flag.load(Ordering::SeqCst)) {
            Some(Reached::Interrupted)
        } else {
            None
        }
    }

    /// Runs `job` on a worker thread under the limits and waits for it.
    pub fn run<T: Send + 'static>(&self, job: impl FnOnce() -> T + Send + 'static) -> Finished<T> {
        self.run_watched(job, &mut ())
    }

    /// [`Limits::run`], calling `watcher` while it waits. When a limit is
    /// reached, the stop token is raised and the worker has a short grace
    /// to come back; a worker that comes back is joined, one that does not
    /// is abandoned.
    pub fn run_watched<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
        watcher: &mut dyn Watcher,
    ) -> Finished<T> {
        let worker = Worker::spawn(job);
        loop {
            let waited = self.started.elapsed();
            if let Some(reached) = self.reached_after(waited) {
                self.stop.raise();
                watcher.over();
                worker.stopped();
                return Finished::Stopped(reached);
            }
            let wait = self.time.map_or(TICK, |limit| TICK.min(limit.saturating_sub(waited)));
            match worker.results.recv_timeout(wait) {
                Ok(result) => {
                    watcher.over();
                    worker.join();
                    return result.map_or_else(Finished::Panicked, Finished::Done);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => watcher.waiting(waited),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    watcher.over();
                    return Finished::Panicked("the worker thread ended without an answer".to_string());
                }
            }
        }
    }
}

/// A worker still running.
const RUNNING: u8 = 0;
/// A worker that has finished its job.
const FINISHED: u8 = 1;
/// A worker the watchdog left running.
const LEFT: u8 = 2;

/// A job on a thread of its own, which sends its result, or a panic's
/// message, on `results`.
struct Worker<T> {
    thread: JoinHandle<()>,
    results: mpsc::Receiver<Result<T, String>>,
    state: Arc<AtomicU8>,
}

impl<T: Send + 'static> Worker<T> {
    fn spawn(job: impl FnOnce() -> T + Send + 'static) -> Worker<T> {
        let (sender, results) = mpsc::channel();
        let state = Arc::new(AtomicU8::new(RUNNING));
        let finished = Arc::clone(&state);
        let thread = std::thread::spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).map_err(|panic| {
                panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown cause".to_string())
            });
            if finished.compare_exchange(RUNNING, FINISHED, Ordering::SeqCst, Ordering::SeqCst).is_err() {
                // The watchdog left this worker: it is no longer running.
                ABANDONED.fetch_sub(1, Ordering::SeqCst);
            }
            let _ = sender.send(result);
        });
        Worker { thread, results, state }
    }

    /// After the stop token was raised: joins the worker if it comes back
    /// within [`GRACE`] (its result is not wanted), else leaves it running.
    fn stopped(self) {
        if self.results.recv_timeout(GRACE).is_ok() {
            self.join();
            return;
        }
        ABANDONED.fetch_add(1, Ordering::SeqCst);
        if self.state.compare_exchange(RUNNING, LEFT, Ordering::SeqCst, Ordering::SeqCst).is_err() {
            // It finished just now after all.
            ABANDONED.fetch_sub(1, Ordering::SeqCst);
            self.join();
        }
    }

    /// Waits for the thread, which has sent its result (a panic in the job
    /// was caught and sent), so it is ending.
    fn join(self) {
        let _ = self.thread.join();
    }
}

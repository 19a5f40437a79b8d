//! Running a job on a worker thread under the time limit, the memory cap
//! and Ctrl-C, with a progress display on stderr. A limit raises the run's
//! stop token, and the worker's solvers stop at their next SAT call; varisat
//! cannot be interrupted inside a call, so a worker stuck in one long call is
//! abandoned, and the process exits soon after.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use somaria::solver::{Progress, Stop};

use super::{Failure, exit, memory};

/// Set by Ctrl-C; the supervisor stops waiting when it sees it.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// What a run may spend, shared by every phase of it (loading included).
#[derive(Clone, Debug)]
pub struct Limits {
    /// When the run began.
    pub started: Instant,
    /// The time limit, from `started`.
    pub time: Option<Duration>,
    /// The most bytes the process may hold.
    pub memory: u64,
    /// The stop token of every solver of the run: due at the time limit,
    /// and raised when any limit is reached.
    pub stop: Stop,
}

/// How long a stopped worker has to come back before it is abandoned: its
/// solvers stop at their next SAT call, which is usually far sooner.
const GRACE: Duration = Duration::from_millis(200);

impl Limits {
    /// The limits of a run that began at `started`.
    pub fn new(started: Instant, time: Option<Duration>, memory: u64) -> Limits {
        let deadline = time.and_then(|limit| started.checked_add(limit));
        Limits { started, time, memory, stop: deadline.map_or_else(Stop::never, Stop::at) }
    }

    /// The limit the run has reached, if any, when it has lasted `waited`.
    fn reached(&self, waited: Duration) -> Option<StopReason> {
        if let Some(limit) = self.time
            && waited >= limit
        {
            Some(StopReason::TimeLimit(limit))
        } else if memory::in_use() > self.memory {
            Some(StopReason::MemoryLimit(self.memory))
        } else if INTERRUPTED.load(Ordering::SeqCst) {
            Some(StopReason::Interrupted)
        } else {
            None
        }
    }
}

/// Why a run was stopped before it finished.
#[derive(Copy, Clone, Debug)]
pub enum StopReason {
    TimeLimit(Duration),
    MemoryLimit(u64),
    Interrupted,
}

impl StopReason {
    pub fn describe(&self) -> String {
        match self {
            StopReason::TimeLimit(limit) => format!("stopped by the time limit of {} s", limit.as_secs_f64()),
            StopReason::MemoryLimit(cap) => {
                format!("stopped by the memory limit of {} (set it with --memory-limit)", memory::describe(*cap))
            }
            StopReason::Interrupted => "interrupted by Ctrl-C".to_string(),
        }
    }
}

pub enum Finished<T> {
    Done(Result<T, Failure>),
    Stopped(StopReason),
}

/// Runs `job` on a worker thread and waits for it, up to the limits or a
/// Ctrl-C, showing progress on stderr when it is a terminal. A limit raises
/// the run's stop token and gives the worker [`GRACE`] to come back; a worker
/// that comes back is joined.
pub fn supervise<T: Send + 'static>(
    limits: &Limits,
    progress: &Arc<Progress>,
    job: impl FnOnce() -> Result<T, Failure> + Send + 'static,
) -> Finished<T> {
    let (worker, receiver) = spawn_worker(job);
    let mut display = ProgressDisplay::new();
    // Short ticks, so that memory growing fast is caught soon after the cap.
    let tick = Duration::from_millis(20);
    let finished = loop {
        let waited = limits.started.elapsed();
        if let Some(reason) = limits.reached(waited) {
            limits.stop.raise();
            display.clear();
            if receiver.recv_timeout(GRACE).is_err() {
                // Inside one long SAT call: left behind, as the process exits soon.
                return Finished::Stopped(reason);
            }
            break Finished::Stopped(reason);
        }
        let wait = limits.time.map_or(tick, |limit| tick.min(limit.saturating_sub(waited)));
        match receiver.recv_timeout(wait) {
            // The worker's solvers saw the deadline before the supervisor did.
            Ok(Err(failure)) if failure.is_stop() => {
                break limits.reached(limits.started.elapsed()).map_or(Finished::Done(Err(failure)), Finished::Stopped);
            }
            Ok(result) => break Finished::Done(result),
            Err(mpsc::RecvTimeoutError::Timeout) => display.update(waited, progress),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let message = "INTERNAL ERROR: the worker thread stopped without an answer".to_string();
                break Finished::Done(Err(Failure { code: exit::INTERNAL, message }));
            }
        }
    };
    display.clear();
    // The worker has sent its result (a panic in it was caught and sent), so
    // it is ending.
    let _ = worker.join();
    finished
}

/// Starts `job` on a thread of its own, which sends its result, or a panic
/// as an internal error, on the channel returned.
fn spawn_worker<T: Send + 'static>(
    job: impl FnOnce() -> Result<T, Failure> + Send + 'static,
) -> (JoinHandle<()>, mpsc::Receiver<Result<T, Failure>>) {
    let (sender, receiver) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        // A panic is a bug in somaria; report it as an internal error rather
        // than as a verdict.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown cause".to_string());
            let message = format!(
                "INTERNAL ERROR: somaria panicked: {what}. This is a bug in somaria; please report it with the model file."
            );
            Err(Failure { code: exit::INTERNAL, message })
        });
        let _ = sender.send(result);
    });
    (worker, receiver)
}

/// A spinner on stderr with the counters of a long run, shown only when
/// stderr is a terminal and the run has lasted a moment.
struct ProgressDisplay {
    bar: Option<indicatif::ProgressBar>,
    enabled: bool,
}

impl ProgressDisplay {
    fn new() -> ProgressDisplay {
        ProgressDisplay { bar: None, enabled: std::io::stderr().is_terminal() }
    }

    fn update(&mut self, elapsed: Duration, progress: &Progress) {
        if !self.enabled || elapsed < Duration::from_millis(500) {
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        bar.set_message(format!(
            "{:.1} s · {} SAT calls · {} solutions · {}",
            elapsed.as_secs_f64(),
            progress.sat_calls(),
            progress.solutions(),
            memory::describe(memory::in_use())
        ));
    }

    fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

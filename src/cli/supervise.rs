//! A command's job run under the library's limits ([`somaria::limits`]):
//! the time limit, the memory cap and Ctrl-C, with a progress display on
//! stderr, and the outcome in the command line's terms (a stop's message,
//! a failure's exit code). A limit raises the run's stop token, and the
//! worker's solvers stop at their next SAT call; varisat cannot be
//! interrupted inside a call, so a worker stuck in one long call is
//! abandoned, and the process exits soon after.

use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

pub use somaria::limits::Limits;
use somaria::limits::{self as library, Reached, Watcher, memory};
use somaria::solver::Progress;

use super::{Failure, exit};

/// Set by Ctrl-C; the supervisor stops waiting when it sees it.
pub static INTERRUPTED: LazyLock<Arc<AtomicBool>> = LazyLock::new(Arc::default);

/// Why a run was stopped before it finished.
#[derive(Copy, Clone, Debug)]
pub struct StopReason(pub Reached);

impl StopReason {
    pub fn describe(&self) -> String {
        match self.0 {
            Reached::Time(limit) => format!("stopped by the time limit of {} s", limit.as_secs_f64()),
            Reached::Memory(cap) => {
                format!("stopped by the memory limit of {} (set it with --memory-limit)", memory::describe(cap))
            }
            Reached::Interrupted => "interrupted by Ctrl-C".to_string(),
        }
    }
}

pub enum Finished<T> {
    Done(Result<T, Failure>),
    Stopped(StopReason),
}

/// Runs `job` on a worker thread under `limits` and waits for it, showing
/// progress on stderr when it is a terminal. A job that fails because its
/// solvers saw the deadline before the supervisor did is stopped by that
/// limit; a panic in it is an internal error.
pub fn supervise<T: Send + 'static>(
    limits: &Limits,
    progress: &Arc<Progress>,
    job: impl FnOnce() -> Result<T, Failure> + Send + 'static,
) -> Finished<T> {
    let mut display = ProgressDisplay::new(Arc::clone(progress));
    match limits.run_watched(job, &mut display) {
        library::Finished::Done(Err(failure)) if failure.is_stop() => {
            limits.reached().map_or(Finished::Done(Err(failure)), |reached| Finished::Stopped(StopReason(reached)))
        }
        library::Finished::Done(result) => Finished::Done(result),
        library::Finished::Stopped(reached) => Finished::Stopped(StopReason(reached)),
        library::Finished::Panicked(what) => {
            // A panic is a bug in somaria; report it as an internal error
            // rather than as a verdict.
            let message = format!(
                "INTERNAL ERROR: somaria panicked: {what}. This is a bug in somaria; please report it with the model file."
            );
            Finished::Done(Err(Failure { code: exit::INTERNAL, message }))
        }
    }
}

/// A spinner on stderr with the counters of a long run, shown only when
/// stderr is a terminal and the run has lasted a moment.
struct ProgressDisplay {
    progress: Arc<Progress>,
    bar: Option<indicatif::ProgressBar>,
    enabled: bool,
}

impl ProgressDisplay {
    fn new(progress: Arc<Progress>) -> ProgressDisplay {
        ProgressDisplay { progress, bar: None, enabled: std::io::stderr().is_terminal() }
    }
}

impl Watcher for ProgressDisplay {
    fn waiting(&mut self, elapsed: Duration) {
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
            self.progress.sat_calls(),
            self.progress.solutions(),
            memory::describe(memory::in_use())
        ));
    }

    fn over(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

//! One player's session on a thread of its own: the [`Planner`] holds
//! solvers that are not `Send`, so it stays on the thread that made it,
//! and each request is a question sent to that thread's inbox. The
//! session's solvers share a renewable [`Stop`] token: each question runs
//! under a deadline of its own, and a new question raises the token of
//! the one running, so the page's latest request is the one answered.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::hints::Planner;
use crate::limits::{Reached, memory};
use crate::puzzles::{Error, Puzzle, SolveOptions};
use crate::solver::{SolverConfig, Stop};

/// A question for the planner, run on the session's thread.
type Job = Box<dyn for<'p> FnOnce(&mut Planner<'p>) + Send>;

/// How long a question whose solver call cannot be interrupted has, past
/// its deadline, before it is given up (the session finishes that call,
/// then takes the next question).
const GRACE: Duration = Duration::from_millis(200);

/// How often the watch looks at the clock and the memory.
const TICK: Duration = Duration::from_millis(20);

/// A live session: see the module documentation.
pub struct Session {
    inbox: mpsc::Sender<Job>,
    stop: Stop,
    /// Questions sent and not yet answered.
    busy: Arc<AtomicUsize>,
}

/// Why a question got no answer.
#[derive(Debug)]
pub enum Unanswered {
    /// A limit was reached first.
    Stopped(Reached),
    /// The session's thread ended (a bug made it panic).
    Ended,
}

impl Session {
    /// A session over `puzzle` on a thread of its own, its solvers built
    /// with `options` and the session's stop token; the planner's error
    /// when the puzzle offers no deductions or routes.
    pub fn start(puzzle: Arc<dyn Puzzle>, options: &SolveOptions) -> Result<Session, Error> {
        let stop = Stop::renewable();
        let solver = SolverConfig { stop: stop.clone(), ..options.solver.clone() };
        let options = SolveOptions { solver, ..options.clone() };
        let (inbox, questions) = mpsc::channel::<Job>();
        let (ready, started) = mpsc::channel();
        let thread = std::thread::Builder::new().name("play session".into()).spawn(move || {
            let mut planner = match Planner::new(puzzle.as_ref(), &options) {
                Ok(planner) => planner,
                Err(e) => {
                    let _ = ready.send(Err(e));
                    return;
                }
            };
            let _ = ready.send(Ok(()));
            for job in questions {
                let asked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mut planner)));
                if asked.is_err() {
                    // The planner may be half-way through a change: end the session.
                    return;
                }
            }
        });
        thread.map_err(|e| Error::Internal(format!("cannot start a session's thread: {e}")))?;
        started.recv().map_err(|_| Error::Internal("a session's thread ended as it started".into()))??;
        Ok(Session { inbox, stop, busy: Arc::new(AtomicUsize::new(0)) })
    }

    /// Whether a question is running or waiting.
    pub fn is_busy(&self) -> bool {
        self.busy.load(Ordering::SeqCst) > 0
    }

    /// Asks `question` of the planner within `time` (and, when given, while
    /// the process holds at most `memory` bytes), stopping any question
    /// still running first. A question that runs past its time stops at
    /// its next solver call; one inside a call that cannot be interrupted
    /// is given up after a short grace, and its answer dropped.
    pub fn ask<T: Send + 'static>(
        &self,
        time: Duration,
        memory_cap: Option<u64>,
        question: impl for<'p> FnOnce(&mut Planner<'p>) -> T + Send + 'static,
    ) -> Result<T, Unanswered> {
        if self.is_busy() {
            self.stop.raise();
        }
        let (answer, answered) = mpsc::channel();
        let (stop, busy) = (self.stop.clone(), Arc::clone(&self.busy));
        let job: Job = Box::new(move |planner| {
            stop.renew(Some(time));
            let _ = answer.send(question(planner));
            busy.fetch_sub(1, Ordering::SeqCst);
        });
        self.busy.fetch_add(1, Ordering::SeqCst);
        if self.inbox.send(job).is_err() {
            self.busy.fetch_sub(1, Ordering::SeqCst);
            return Err(Unanswered::Ended);
        }
        let sent = Instant::now();
        loop {
            match answered.recv_timeout(TICK) {
                Ok(answer) => return Ok(answer),
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(Unanswered::Ended),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            // The time counts from the question's start on the session's
            // thread, so a question queued behind a stopped one is not
            // cut short by the wait; the watch gives up on the total.
            if sent.elapsed() > time + GRACE + GRACE {
                self.stop.raise();
                return Err(Unanswered::Stopped(Reached::Time(time)));
            }
            if let Some(cap) = memory_cap
                && memory::in_use() > cap
            {
                self.stop.raise();
                return Err(Unanswered::Stopped(Reached::Memory(cap)));
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // The thread ends when its inbox closes, after the question it runs.
        self.stop.raise();
    }
}

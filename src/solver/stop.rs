//! The stop token: when a search must give up, shared by every solver of a
//! run and by whoever watches it.
//!
//! Every SAT call made through [`super::Solve`] checks the token first, so
//! the searches built on many calls (enumeration, possible literals, cores,
//! lazy cuts, optimisation) stop between two calls. A backend that can be
//! interrupted also checks it inside a call (CaDiCaL, from its terminate
//! callback); varisat cannot, so one long varisat call runs to its end.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Why a search was stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StopCause {
    /// The token's deadline passed.
    #[error("the deadline passed")]
    Deadline,
    /// Someone raised the token's flag.
    #[error("it was asked to stop")]
    Raised,
    /// The token's budget of SAT calls was spent.
    #[error("its budget of {0} SAT calls was spent")]
    Budget(u64),
    /// A lazy driver refused this many models in one call, the limit set
    /// by [`super::Solve::limit_repair_rounds`]: that call gave up.
    #[error("one call refused {0} models, its limit")]
    Rounds(u64),
}

/// When a search must give up: a deadline, a flag that another thread can
/// raise, and a budget of SAT calls. Clones share the flag and the budget,
/// so one token bounds a whole run however many solvers it builds.
///
/// A budget of conflicts would need a backend that counts them; varisat
/// does not, so the budget counts SAT calls, which every backend makes.
///
/// ```
/// use std::time::Duration;
/// use somaria::solver::{Stop, StopCause};
/// assert_eq!(Stop::default().check(), Ok(()));
/// let stop = Stop::after(Duration::from_secs(60));
/// let watcher = stop.clone();
/// std::thread::spawn(move || watcher.raise()).join().unwrap();
/// assert!(stop.is_raised());
/// assert_eq!(stop.check(), Err(StopCause::Raised));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Stop {
    deadline: Option<Instant>,
    flag: Arc<AtomicBool>,
    budget: Option<Arc<CallBudget>>,
    renewed: Option<Arc<Renewed>>,
}

/// The deadline of a renewable token ([`Stop::renewable`]), shared by its
/// clones: nanoseconds after `epoch`, [`u64::MAX`] for none.
#[derive(Debug)]
struct Renewed {
    epoch: Instant,
    nanos: AtomicU64,
}

/// SAT calls that may still be made, shared by every clone of a token.
#[derive(Debug)]
struct CallBudget {
    calls: u64,
    spent: AtomicU64,
}

impl Stop {
    /// A token that stops only when raised.
    pub fn never() -> Stop {
        Stop::default()
    }

    /// A token that stops at `deadline`.
    pub fn at(deadline: Instant) -> Stop {
        Stop { deadline: Some(deadline), ..Stop::default() }
    }

    /// A token that stops `limit` from now (never, if that is past the end
    /// of time as the clock counts it).
    pub fn after(limit: Duration) -> Stop {
        Instant::now().checked_add(limit).map_or_else(Stop::never, Stop::at)
    }

    /// A token whose deadline is set anew for each piece of work by
    /// [`Stop::renew`], for solvers that outlive one request (a play
    /// session keeps its solvers across the player's moves); until the
    /// first renewal it stops only when raised.
    ///
    /// ```
    /// use std::time::Duration;
    /// use somaria::solver::{Stop, StopCause};
    /// let stop = Stop::renewable();
    /// let solvers = stop.clone();
    /// stop.renew(Some(Duration::ZERO));
    /// assert_eq!(solvers.check(), Err(StopCause::Deadline));
    /// stop.raise();
    /// stop.renew(Some(Duration::from_secs(60)));
    /// assert_eq!(solvers.check(), Ok(()));
    /// ```
    pub fn renewable() -> Stop {
        let renewed = Renewed { epoch: Instant::now(), nanos: AtomicU64::new(u64::MAX) };
        Stop { renewed: Some(Arc::new(renewed)), ..Stop::default() }
    }

    /// For a token made by [`Stop::renewable`] (and every clone of it): the
    /// flag lowered and the deadline set `limit` from now (none for
    /// `None`). A token made otherwise keeps its fixed deadline, and only
    /// its flag is lowered.
    pub fn renew(&self, limit: Option<Duration>) {
        if let Some(renewed) = &self.renewed {
            let due = limit.map_or(u64::MAX, |limit| {
                let nanos = (renewed.epoch.elapsed() + limit).as_nanos();
                u64::try_from(nanos).unwrap_or(u64::MAX)
            });
            renewed.nanos.store(due, Ordering::SeqCst);
        }
        self.flag.store(false, Ordering::SeqCst);
    }

    /// The deadline now in force: the fixed one, or a renewable token's
    /// latest.
    fn due(&self) -> Option<Instant> {
        let renewed = self.renewed.as_ref().and_then(|r| match r.nanos.load(Ordering::SeqCst) {
            u64::MAX => None,
            nanos => r.epoch.checked_add(Duration::from_nanos(nanos)),
        });
        renewed.or(self.deadline)
    }

    /// The same token, that also stops after `calls` SAT calls made under
    /// it by all its clones together.
    ///
    /// ```
    /// use somaria::cnf::Cnf;
    /// use somaria::solver::{Solve, SolverConfig, SolverError, Stop, StopCause};
    /// let config = SolverConfig { stop: Stop::never().with_sat_call_budget(2), ..SolverConfig::default() };
    /// let mut solver = config.new_solver(&Cnf::new(), None);
    /// assert!(solver.solve().is_ok() && solver.solve().is_ok());
    /// assert!(matches!(solver.solve(), Err(SolverError::Stopped(StopCause::Budget(2)))));
    /// ```
    pub fn with_sat_call_budget(self, calls: u64) -> Stop {
        Stop { budget: Some(Arc::new(CallBudget { calls, spent: AtomicU64::new(0) })), ..self }
    }

    /// The deadline, if the token has one.
    pub fn deadline(&self) -> Option<Instant> {
        self.due()
    }

    /// Raises the flag: every search under this token or a clone of it
    /// stops before its next SAT call.
    pub fn raise(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether the flag was raised.
    pub fn is_raised(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// Why a search under this token must stop now, if it must; spends
    /// nothing of the budget.
    pub fn check(&self) -> Result<(), StopCause> {
        if self.is_raised() {
            return Err(StopCause::Raised);
        }
        if self.due().is_some_and(|deadline| Instant::now() >= deadline) {
            return Err(StopCause::Deadline);
        }
        match &self.budget {
            Some(budget) if budget.spent.load(Ordering::Relaxed) >= budget.calls => {
                Err(StopCause::Budget(budget.calls))
            }
            _ => Ok(()),
        }
    }

    /// Why a SAT call already under way must stop, for a backend that can
    /// be interrupted: the flag, the deadline, or a budget that some call
    /// was refused (the call under way was granted its share, so a budget
    /// just spent to the last call does not stop it).
    #[cfg_attr(not(feature = "cadical"), allow(dead_code))]
    pub(super) fn check_inside_call(&self) -> Result<(), StopCause> {
        if self.is_raised() {
            return Err(StopCause::Raised);
        }
        if self.due().is_some_and(|deadline| Instant::now() >= deadline) {
            return Err(StopCause::Deadline);
        }
        match &self.budget {
            Some(budget) if budget.spent.load(Ordering::Relaxed) > budget.calls => Err(StopCause::Budget(budget.calls)),
            _ => Ok(()),
        }
    }

    /// [`Stop::check`] before one SAT call, which it then spends of the
    /// budget.
    pub(super) fn before_sat_call(&self) -> Result<(), StopCause> {
        self.check()?;
        if let Some(budget) = &self.budget
            && budget.spent.fetch_add(1, Ordering::Relaxed) >= budget.calls
        {
            // Another clone spent the last call since the check.
            return Err(StopCause::Budget(budget.calls));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_in_the_past_stops_and_one_in_the_future_does_not() {
        assert_eq!(Stop::at(Instant::now()).check(), Err(StopCause::Deadline));
        assert_eq!(Stop::after(Duration::from_secs(3600)).check(), Ok(()));
        assert_eq!(Stop::after(Duration::MAX).deadline(), None);
    }

    #[test]
    fn clones_share_the_flag_and_the_budget() {
        let stop = Stop::never().with_sat_call_budget(3);
        let other = stop.clone();
        assert_eq!(stop.before_sat_call(), Ok(()));
        assert_eq!(other.before_sat_call(), Ok(()));
        assert_eq!(stop.before_sat_call(), Ok(()));
        assert_eq!(other.check(), Err(StopCause::Budget(3)));
        assert_eq!(other.before_sat_call(), Err(StopCause::Budget(3)));
        let fresh = Stop::never();
        fresh.clone().raise();
        assert_eq!(fresh.check(), Err(StopCause::Raised));
    }
}

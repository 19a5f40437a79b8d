//! Which SAT backends a suite's case runs on: every case on the default
//! backend, and every `CADICAL_EVERY`-th case (4 unless set in the
//! environment; 1 runs all) on the others too, so that the suite stays
//! quick on two cores while each backend meets many cases.

use somaria::solver::Backend;

/// The backends case number `case` runs on, the default first.
pub fn backends_for(case: u64) -> Vec<Backend> {
    let every = std::env::var("CADICAL_EVERY").ok().and_then(|v| v.parse::<u64>().ok()).unwrap_or(4).max(1);
    Backend::ALL.iter().copied().filter(|&b| b == Backend::default() || case.is_multiple_of(every)).collect()
}

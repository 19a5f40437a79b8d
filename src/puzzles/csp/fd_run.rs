//! `solve` and `count` on the finite-domain engine ([`crate::fd`]), and
//! the rule that sends a model there under `auto`.
//!
//! The engine searches the program's integer variables; each solution it
//! reaches is checked by the same [`Verifier`] as a SAT answer (and its
//! objective by the verifier's own evaluation), so a propagator that
//! removed too little is caught at the first wrong leaf. One that removed
//! too much would lose solutions: the tests set the engine's counts
//! against the SAT engines' and brute force.

use std::time::Instant;

use super::{CspPuzzle, render};
use crate::fd::{FdError, Problem};
use crate::lang::ir::IKind;
use crate::lang::verify::Verifier;
use crate::puzzles::{
    CountOptions, CountReport, DecidedBy, Error, Payload, Solution, SolveOptions, SolveReport, Stats, Status,
};

/// The engine's name.
pub const FD: &str = "fd";

impl CspPuzzle {
    /// The model as the fd engine's problem, or why the engine cannot
    /// take it.
    fn fd_problem(&self) -> Result<Problem, Error> {
        Problem::build(&self.model, &self.program).map_err(|why| {
            Error::BadRequest(format!("{why}, so the fd engine cannot take this model; expected --engine auto"))
        })
    }

    /// Whether the fd engine takes this model (computed once).
    pub(super) fn fd_fits(&self) -> bool {
        *self.fd_fits.get_or_init(|| Problem::build(&self.model, &self.program).is_ok())
    }

    /// Whether `solve` (`counting` false) or `count` runs on the fd
    /// engine for the engine requested: always for `fd`, under `auto` (or
    /// none) by the measured rule, never for a named SAT encoding.
    ///
    /// The rule: `auto` takes the fd engine when every constraint is in
    /// its fragment, for a count without an objective, and for a solve or
    /// count of a model that minimises or maximises one variable.
    /// Measured (CPU seconds, one run of benches/fd_gecode.sh, fd against
    /// `--engine direct`): 4×4 magic squares counted in 1.50 s against a
    /// SAT timeout at 120 s, Costas 8 0.07 s against 1.16 s, the magic
    /// sequence of 40 0.01 s against 0.98 s, but 12 queens 1.19 s against
    /// 0.96 s (a count with no sums, where unit propagation is already
    /// the propagator); Golomb rulers, whose objective is the last mark,
    /// 0.06 s against 2.9 s (golomb-8) and 0.55 s against a timeout
    /// (golomb-9). An objective that is a weighted sum is bounded only
    /// term by term by the fd engine's bounds propagation: knapsack-30 did
    /// not finish in 30 s there against 8 ms by SAT. A satisfaction
    /// model's one solution stays with SAT, whose clause learning is the
    /// safer bet on a hard instance.
    pub(super) fn runs_on_fd(&self, requested: Option<&str>, counting: bool) -> bool {
        match requested {
            Some(FD) => true,
            None | Some("auto") => {
                let one_variable = matches!(&self.program.objective, Some((_, e)) if matches!(e.kind, IKind::Var(_)));
                let unbounded = self.program.objective.is_none() && counting;
                (unbounded || one_variable) && self.presolve && self.fd_fits()
            }
            Some(_) => false,
        }
    }

    /// The verifier's check of a solution the engine found.
    fn fd_check<'v>(verifier: &'v Verifier<'_>) -> impl FnMut(&[i64]) -> Result<(), String> + 'v {
        move |values: &[i64]| verifier.check(values, &[])
    }

    pub(super) fn solve_fd(&self, options: &SolveOptions) -> Result<SolveReport, Error> {
        let started = Instant::now();
        let problem = self.fd_problem()?;
        let encode_ms = Stats::ms(started.elapsed());
        let verifier = Verifier::new(&self.model);
        let mut check = Self::fd_check(&verifier);
        let (found, search) = problem.solve(&options.solver.stop, &mut check).map_err(fd_error)?;
        let stats = fd_stats(&problem, search, encode_ms, started);
        let (status, solution, objective) = match found {
            None => (Status::NoSolution, None, None),
            Some((values, objective)) => {
                let evaluated = match objective {
                    Some(found) => {
                        let evaluated = verifier.objective(&values).map_err(Error::CheckFailed)?;
                        if evaluated != found {
                            return Err(Error::CheckFailed(format!(
                                "the fd engine gives the objective {found}, the model's expression {evaluated}"
                            )));
                        }
                        Some(evaluated)
                    }
                    None => None,
                };
                let typed = render::solution(&self.model, &values, evaluated, &[]);
                let json = serde_json::to_value(&typed).map_err(|e| Error::Internal(e.to_string()))?;
                (Status::Solved, Some(Solution { json, payload: Payload::of(typed) }), evaluated)
            }
        };
        let explanation = None;
        Ok(SolveReport {
            status,
            solution,
            explanation,
            cost: None,
            objective,
            decided_by: DecidedBy::Search,
            stats,
            cnf: None,
        })
    }

    pub(super) fn count_fd(&self, options: &CountOptions) -> Result<CountReport, Error> {
        let started = Instant::now();
        let problem = self.fd_problem()?;
        let encode_ms = Stats::ms(started.elapsed());
        let verifier = Verifier::new(&self.model);
        let mut check = Self::fd_check(&verifier);
        let mut search = crate::fd::Stats::default();
        // With an objective, only the optimal solutions count.
        let optimum = match self.program.objective {
            None => Some(None),
            Some(_) => {
                let (found, first) = problem.solve(&options.solver.stop, &mut check).map_err(fd_error)?;
                search = first;
                found.map(|(_, value)| value)
            }
        };
        let (count, complete) = match optimum {
            None => (0, true),
            Some(optimum) => {
                let progress = &options.progress;
                let mut counted = |n: u64| progress.set_solutions(n);
                let shown = self.shown_scalars();
                let within = (&shown[..], optimum, options.limit);
                let (count, complete, more) =
                    problem.count(&options.solver.stop, within, &mut check, &mut counted).map_err(fd_error)?;
                search = search.plus(more);
                (count, complete)
            }
        };
        let stats = fd_stats(&problem, search, encode_ms, started);
        Ok(CountReport { count, complete, saturated: false, stats, stopped: None })
    }
}

fn fd_error(e: FdError) -> Error {
    match e {
        FdError::Stopped(cause) => Error::Stopped(cause),
        FdError::Rejected(why) => Error::CheckFailed(format!("the fd engine found a non-solution: {why}")),
    }
}

fn fd_stats(problem: &Problem, search: crate::fd::Stats, encode_ms: f64, started: Instant) -> Stats {
    let total = Stats::ms(started.elapsed());
    Stats {
        engine: FD.to_string(),
        variables: problem.num_vars(),
        encode_ms,
        solve_ms: (total - encode_ms).max(0.0),
        search: Some(search),
        ..Stats::default()
    }
}

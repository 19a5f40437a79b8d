//! The SAT backends: which ones there are and what each can do
//! ([`Backend`]), and the thin trait each implements ([`BackendSolver`]).
//! Callers never see a backend's type: [`super::SolverConfig::new_solver`]
//! wraps it in [`super::Metered`], which does the accounting for all of them.

#[cfg(feature = "cadical")]
mod cadical;
mod varisat;

use std::io::Write;
use std::sync::Arc;

use super::{Answer, Metered, Progress, ProofFormat, Solve, SolverError, Stop};
use crate::cnf::{ClauseSink, Cnf, Lit};

/// What a SAT backend implements: incremental variables and clauses (as a
/// [`ClauseSink`]), solving under assumptions, the last model and the failed
/// assumptions. Nothing else: counting, timing and stopping are
/// [`Metered`]'s, so they work the same on every backend.
pub trait BackendSolver: ClauseSink {
    /// Solves with `assumptions` holding for this call only.
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError>;

    /// The value of `lit` in the model of the last satisfiable call; a
    /// variable in no clause reads false, so that every backend reads the
    /// same model the same way.
    fn value(&self, lit: Lit) -> bool;

    /// After an unsatisfiable call, a subset of the assumptions that is
    /// already unsatisfiable; not necessarily minimal.
    fn failed_core(&self) -> Vec<Lit>;

    /// How many variables [`ClauseSink::new_var`] has numbered.
    fn num_vars(&self) -> usize;
}

/// The SAT backends somaria can solve with, and what each can do beyond
/// solving: the proof formats it writes. Every backend honours the [`Stop`]
/// token between calls; CaDiCaL also inside a call, from its terminate
/// callback, while varisat cannot be interrupted and runs a call to its end.
/// CaDiCaL is built only with the `cadical` cargo feature (its build compiles
/// C++ and needs libclang for the bindings); without it the name is known
/// but refused, saying how to build it.
///
/// ```
/// use somaria::solver::{Backend, ProofFormat};
/// let backend: Backend = "varisat".parse().unwrap();
/// assert_eq!(backend, Backend::default());
/// assert!(backend.proof_formats().contains(&ProofFormat::Drat));
/// assert!("minisat".parse::<Backend>().unwrap_err().to_string().contains("expected one of varisat"));
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Backend {
    /// varisat, a CDCL solver in pure Rust.
    #[default]
    Varisat,
    /// CaDiCaL, a CDCL solver in C++, through the `rustsat-cadical` crate.
    #[cfg(feature = "cadical")]
    Cadical,
}

/// A backend name that is not one of [`Backend::NAMES`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", unknown_backend_message(found))]
pub struct UnknownBackend {
    /// The name given.
    pub found: String,
}

fn unknown_backend_message(found: &str) -> String {
    let expected = Backend::NAMES.join(", ");
    if found == "cadical" {
        format!(
            "this somaria was built without the cadical SAT backend (build it with `cargo build --release --features \
             cadical`); expected one of {expected}"
        )
    } else {
        format!("unknown SAT backend {found:?}; expected one of {expected}")
    }
}

impl Backend {
    /// Every backend, the default first.
    pub const ALL: &'static [Backend] = &[
        Backend::Varisat,
        #[cfg(feature = "cadical")]
        Backend::Cadical,
    ];

    /// Every backend's name, in the order of [`Backend::ALL`].
    pub const NAMES: &'static [&'static str] = &[
        "varisat",
        #[cfg(feature = "cadical")]
        "cadical",
    ];

    /// The backend's name, as `--solver` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Varisat => "varisat",
            #[cfg(feature = "cadical")]
            Backend::Cadical => "cadical",
        }
    }

    /// The proof formats the backend can write.
    pub fn proof_formats(self) -> &'static [ProofFormat] {
        match self {
            Backend::Varisat => &[ProofFormat::Varisat, ProofFormat::Drat],
            #[cfg(feature = "cadical")]
            Backend::Cadical => &[ProofFormat::Drat],
        }
    }

    /// A solver of this backend holding `cnf`, metered under `stop` and
    /// `progress`.
    pub(super) fn new_solver(self, cnf: &Cnf, stop: Stop, progress: Option<Arc<Progress>>) -> Box<dyn Solve> {
        match self {
            Backend::Varisat => {
                let mut solver = Metered::new(varisat::Varisat::new(), stop, progress);
                solver.add_cnf(cnf);
                Box::new(solver)
            }
            #[cfg(feature = "cadical")]
            Backend::Cadical => {
                let mut solver = Metered::new(cadical::Cadical::new(stop.clone()), stop, progress);
                solver.add_cnf(cnf);
                Box::new(solver)
            }
        }
    }

    /// Solves `cnf` once, with no assumptions, writing the proof of the
    /// verdict to `out`; the backend must list `format` among its
    /// [`Backend::proof_formats`].
    pub(super) fn prove(
        self,
        cnf: &Cnf,
        stop: Stop,
        progress: Option<Arc<Progress>>,
        out: Box<dyn Write + Send>,
        format: ProofFormat,
    ) -> Result<Answer, SolverError> {
        match self {
            Backend::Varisat => {
                let mut prover = Metered::new(varisat::Varisat::writing_proof(out, format), stop, progress);
                prover.add_cnf(cnf);
                let answer = prover.solve()?;
                prover.into_backend().finish_proof()?;
                Ok(answer)
            }
            #[cfg(feature = "cadical")]
            Backend::Cadical => {
                let mut prover = Metered::new(cadical::Cadical::writing_drat(stop.clone())?, stop, progress);
                prover.add_cnf(cnf);
                let answer = prover.solve()?;
                prover.into_backend().finish_proof(out)?;
                Ok(answer)
            }
        }
    }
}

impl std::str::FromStr for Backend {
    type Err = UnknownBackend;

    fn from_str(text: &str) -> Result<Backend, UnknownBackend> {
        Backend::ALL.iter().copied().find(|b| b.name() == text).ok_or_else(|| UnknownBackend { found: text.into() })
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Var;
    use proptest::prelude::*;

    #[test]
    fn the_names_are_the_enum_in_order() {
        let names: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
        assert_eq!(names, Backend::NAMES);
        assert_eq!(Backend::ALL[0], Backend::default());
        for &backend in Backend::ALL {
            assert_eq!(backend.to_string().parse::<Backend>(), Ok(backend));
        }
    }

    /// Solves `clauses` over `vars` variables on `solver` under
    /// `assumptions`; when unsatisfiable, checks that the failed core is a
    /// subset of the assumptions and is itself unsatisfiable, by trying every
    /// assignment.
    fn failed_core_holds(
        mut solver: impl BackendSolver,
        vars: usize,
        clauses: &[Vec<Lit>],
        assumptions: &[Lit],
    ) -> Result<(), TestCaseError> {
        for _ in 0..vars {
            solver.new_var();
        }
        for clause in clauses {
            solver.add_clause(clause);
        }
        let holds = |assumed: &[Lit]| {
            (0u32..1 << vars).any(|bits| {
                let assignment: Vec<bool> = (0..vars).map(|i| bits >> i & 1 == 1).collect();
                let holds = |l: &Lit| l.holds(&assignment);
                clauses.iter().all(|c| c.iter().any(holds)) && assumed.iter().all(holds)
            })
        };
        let answer = solver.solve_under(assumptions).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(answer == Answer::Sat, holds(assumptions));
        if answer == Answer::Unsat {
            let core = solver.failed_core();
            prop_assert!(core.iter().all(|l| assumptions.contains(l)), "{core:?} is not within {assumptions:?}");
            prop_assert!(!holds(&core), "the core {core:?} can hold");
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Random 3-CNF over 5 variables and random assumptions, on every
        /// backend.
        #[test]
        fn a_failed_core_is_an_unsatisfiable_subset_of_the_assumptions(
            clauses in prop::collection::vec(prop::collection::vec((0usize..5, any::<bool>()), 1..4), 0..12),
            assumed in prop::collection::vec((0usize..5, any::<bool>()), 0..6),
        ) {
            let lit = |&(v, positive): &(usize, bool)| Var::from_index(v).lit(positive);
            let clauses: Vec<Vec<Lit>> = clauses.iter().map(|c| c.iter().map(lit).collect()).collect();
            let assumptions: Vec<Lit> = assumed.iter().map(lit).collect();
            for &backend in Backend::ALL {
                match backend {
                    Backend::Varisat => failed_core_holds(varisat::Varisat::new(), 5, &clauses, &assumptions)?,
                    #[cfg(feature = "cadical")]
                    Backend::Cadical => {
                        failed_core_holds(cadical::Cadical::new(Stop::never()), 5, &clauses, &assumptions)?
                    }
                }
            }
        }
    }
}

//! The SAT backend contract, written once and run on every row of the
//! backend table (`Backend::ALL`), as rustsat's `solvertests` run one suite
//! on every solver: a backend added to the table meets all of it with no
//! line added here. Build with `--features cadical` to run it on CaDiCaL
//! too (`.ci/run` does).
//!
//! The contract is what `BackendSolver` and `Solve` promise and what the
//! row says the backend can do: incremental clauses and calls under
//! assumptions that agree with brute force, models that satisfy the
//! formula, variables in no clause reading false, failed cores that are
//! unsatisfiable subsets of the assumptions, the empty clause, the stop
//! token (refused before a call on every backend; inside a call on those
//! the row calls interruptible), and each proof format the row lists,
//! written to any `Write` and read by a checker that shares no code with
//! the solver.

use std::collections::HashSet;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use somaria::cnf::{ClauseSink, Cnf, Lit, Var};
use somaria::solver::{Answer, Backend, ProofFormat, Solve, SolverConfig, SolverError, Stop, StopCause};

use crate::common;

use common::proofs::{drat_refutes, varisat_refutes};

/// A solver of `backend` holding no clauses, stopping on `stop`.
fn solver(backend: Backend, stop: Stop) -> Box<dyn Solve> {
    SolverConfig { backend, stop }.new_solver(&Cnf::new(), None)
}

/// Whether some assignment of `vars` variables satisfies every clause and
/// every assumed literal, trying them all.
fn holds(vars: usize, clauses: &[Vec<Lit>], assumed: &[Lit]) -> bool {
    (0u32..1 << vars).any(|bits| {
        let assignment: Vec<bool> = (0..vars).map(|i| bits >> i & 1 == 1).collect();
        let holds = |l: &Lit| l.holds(&assignment);
        clauses.iter().all(|c| c.iter().any(holds)) && assumed.iter().all(holds)
    })
}

#[test]
fn the_table_names_each_backend_once_the_default_first() {
    assert!(!Backend::ALL.is_empty());
    assert_eq!(Backend::ALL[0], Backend::default());
    let names: Vec<&str> = Backend::names().collect();
    assert_eq!(names.iter().collect::<HashSet<_>>().len(), names.len(), "{names:?}");
    for &backend in Backend::ALL {
        assert_eq!(backend.to_string().parse::<Backend>(), Ok(backend));
        assert_eq!(Backend::named(backend.name()), Some(backend));
        assert!(!backend.proof_formats().is_empty(), "{backend} writes no proof");
        assert!(!backend.info().summary.is_empty(), "{backend} has no summary");
    }
    assert_eq!(Backend::named("cadical").is_some(), cfg!(feature = "cadical"));
    let unknown = "minisat".parse::<Backend>().unwrap_err().to_string();
    assert!(unknown.contains(&format!("expected one of {}", names.join(", "))), "{unknown}");
}

/// One call of a run: the clauses added before it, and its assumptions.
type Round = (Vec<Vec<Lit>>, Vec<Lit>);

const VARS: usize = 6;

/// Runs `rounds` on one solver of `backend`, checking each call against
/// brute force over every clause so far.
fn incremental_rounds_hold(backend: Backend, rounds: &[Round]) -> Result<(), TestCaseError> {
    let mut solver = solver(backend, Stop::never());
    let vars: Vec<Var> = (0..VARS).map(|_| solver.new_var()).collect();
    prop_assert_eq!(vars, (0..VARS).map(Var::from_index).collect::<Vec<_>>());
    let mut clauses: Vec<Vec<Lit>> = Vec::new();
    let mut mentioned: HashSet<Var> = HashSet::new();
    for (call, (added, assumed)) in rounds.iter().enumerate() {
        for clause in added {
            solver.add_clause(clause);
            clauses.push(clause.clone());
        }
        mentioned.extend(clauses.iter().flatten().chain(assumed).map(|l| l.var()));
        let answer = solver.solve_under(assumed).map_err(|e| TestCaseError::fail(format!("{backend}: {e}")))?;
        prop_assert_eq!(answer == Answer::Sat, holds(VARS, &clauses, assumed), "{} call {}", backend, call);
        prop_assert_eq!(solver.stats().sat_calls, call as u64 + 1);
        if answer == Answer::Sat {
            let value = |l: &Lit| solver.value(*l);
            prop_assert!(clauses.iter().all(|c| c.iter().any(value)), "{}: the model breaks a clause", backend);
            prop_assert!(assumed.iter().all(value), "{}: the model breaks an assumption", backend);
            for var in (0..VARS).map(Var::from_index).filter(|v| !mentioned.contains(v)) {
                prop_assert!(
                    !solver.value(var.pos()) && solver.value(var.neg()),
                    "{}: unseen {:?} is true",
                    backend,
                    var
                );
            }
        } else {
            let core = solver.failed_core();
            prop_assert!(
                core.iter().all(|l| assumed.contains(l)),
                "{}: {:?} is not within {:?}",
                backend,
                core,
                assumed
            );
            prop_assert!(!holds(VARS, &clauses, &core), "{}: the core {:?} can hold", backend, core);
        }
    }
    prop_assert_eq!(solver.num_vars(), VARS);
    Ok(())
}

fn literal() -> impl Strategy<Value = Lit> {
    (0..VARS, any::<bool>()).prop_map(|(v, positive)| Var::from_index(v).lit(positive))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random 3-CNF over six variables, given a few clauses at a time
    /// between calls under random assumptions: each call's verdict, model
    /// and failed core on every backend, against brute force. The
    /// assumptions of one call do not hold in the next.
    #[test]
    fn incremental_calls_under_assumptions_agree_with_brute_force(
        rounds in prop::collection::vec(
            (
                prop::collection::vec(prop::collection::vec(literal(), 1..4), 0..6),
                prop::collection::vec(literal(), 0..5),
            ),
            1..6,
        ),
    ) {
        for &backend in Backend::ALL {
            incremental_rounds_hold(backend, &rounds)?;
        }
    }
}

#[test]
fn an_empty_clause_makes_every_later_call_unsatisfiable() {
    for &backend in Backend::ALL {
        let mut solver = solver(backend, Stop::never());
        let a = solver.new_var();
        assert_eq!(solver.solve_under(&[a.pos()]).unwrap(), Answer::Sat, "{backend}");
        solver.add_clause(&[]);
        assert_eq!(solver.solve().unwrap(), Answer::Unsat, "{backend}");
        assert_eq!(solver.solve_under(&[a.neg()]).unwrap(), Answer::Unsat, "{backend}");
        assert!(solver.failed_core().iter().all(|&l| l == a.neg()), "{backend}: {:?}", solver.failed_core());
    }
}

#[test]
fn a_stopped_token_refuses_the_next_call_before_it_runs() {
    for &backend in Backend::ALL {
        let stop = Stop::never();
        let mut solver = solver(backend, stop.clone());
        let a = solver.new_var();
        solver.add_clause(&[a.pos()]);
        assert_eq!(solver.solve().unwrap(), Answer::Sat, "{backend}");
        stop.raise();
        assert!(matches!(solver.solve(), Err(SolverError::Stopped(StopCause::Raised))), "{backend}");
        assert_eq!(solver.stats().sat_calls, 1, "{backend}: a refused call was counted");

        let mut late = self::solver(backend, Stop::at(Instant::now()));
        assert!(matches!(late.solve(), Err(SolverError::Stopped(StopCause::Deadline))), "{backend}");

        let mut budgeted = self::solver(backend, Stop::never().with_sat_call_budget(2));
        assert!(budgeted.solve().is_ok() && budgeted.solve().is_ok(), "{backend}");
        assert!(matches!(budgeted.solve(), Err(SolverError::Stopped(StopCause::Budget(2)))), "{backend}");
    }
}

/// `holes + 1` pigeons in `holes` holes, each in one: unsatisfiable, and
/// exponentially hard for resolution, so no CDCL solver refutes 13 pigeons
/// in 12 holes in less than hours.
fn pigeonhole(holes: usize) -> Cnf {
    let mut cnf = Cnf::new();
    let sits: Vec<Vec<Var>> = (0..=holes).map(|_| cnf.new_vars(holes)).collect();
    for pigeon in &sits {
        cnf.add_clause(&pigeon.iter().map(|v| v.pos()).collect::<Vec<_>>());
    }
    for (a, first) in sits.iter().enumerate() {
        for second in &sits[a + 1..] {
            for (x, y) in first.iter().zip(second) {
                cnf.add_clause(&[x.neg(), y.neg()]);
            }
        }
    }
    cnf
}

/// A backend whose row says it can be interrupted stops one long call
/// when the token is raised from another thread. (The call alone takes
/// hours; the minute allowed is only for a loaded machine.)
#[test]
fn an_interruptible_backend_stops_inside_one_long_call() {
    for &backend in Backend::ALL.iter().filter(|b| b.interruptible()) {
        let stop = Stop::never();
        let (sender, receiver) = std::sync::mpsc::channel();
        let searching = stop.clone();
        std::thread::spawn(move || {
            let mut solver = SolverConfig { backend, stop: searching }.new_solver(&pigeonhole(12), None);
            let answer = solver.solve();
            let _ = sender.send((answer, solver.stats().sat_calls));
        });
        std::thread::sleep(Duration::from_millis(200));
        stop.raise();
        let (answer, calls) = receiver
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("{backend} is called interruptible but ran on a minute after the flag"));
        assert!(matches!(answer, Err(SolverError::Stopped(StopCause::Raised))), "{backend}: {answer:?}");
        assert_eq!(calls, 1, "{backend}: the stop came inside the one call");
    }
}

/// A proof in memory: any `Write` takes a proof.
#[derive(Clone, Default)]
struct Memory(Arc<Mutex<Vec<u8>>>);

impl Write for Memory {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Solves `cnf` on `backend` writing a proof in `format` to memory.
fn proved(cnf: &Cnf, backend: Backend, format: ProofFormat) -> (Result<Answer, SolverError>, Vec<u8>) {
    let memory = Memory::default();
    let config = SolverConfig { backend, stop: Stop::never() };
    let answer = somaria::solver::solve_with_proof(cnf, &config, None, Box::new(memory.clone()), format);
    let bytes = memory.0.lock().unwrap().clone();
    (answer, bytes)
}

fn dimacs(cnf: &Cnf) -> String {
    let mut text = Vec::new();
    cnf.write_dimacs(&mut text).unwrap();
    String::from_utf8(text).unwrap()
}

/// The proof of `cnf`'s refutation in `format` checks.
fn refutes(cnf: &Cnf, format: ProofFormat, proof: &[u8]) -> Result<(), String> {
    match format {
        ProofFormat::Drat => drat_refutes(&dimacs(cnf), std::str::from_utf8(proof).map_err(|e| e.to_string())?),
        ProofFormat::Varisat => varisat_refutes(&dimacs(cnf), proof),
    }
}

#[test]
fn every_proof_format_a_backend_lists_refutes_and_checks() {
    let mut unit = Cnf::new();
    let a = unit.new_var();
    unit.add_clause(&[a.pos()]);
    unit.add_clause(&[a.neg()]);
    let formulas = [("a and not a", unit), ("4 pigeons in 3 holes", pigeonhole(3)), ("6 in 5", pigeonhole(5))];
    for &backend in Backend::ALL {
        for &format in backend.proof_formats() {
            for (name, cnf) in &formulas {
                let (answer, proof) = proved(cnf, backend, format);
                assert_eq!(answer.unwrap(), Answer::Unsat, "{backend} {name}");
                refutes(cnf, format, &proof)
                    .unwrap_or_else(|e| panic!("{backend}'s {} proof of {name} fails: {e}", format.name()));
            }
            // The checks are not fooled: no proof refutes a formula with a
            // model, such as the pigeons' without the first one's clause.
            let (_, proof) = proved(&pigeonhole(3), backend, format);
            let mut relaxed = Cnf::new();
            relaxed.new_vars(pigeonhole(3).num_vars());
            pigeonhole(3).clauses().skip(1).for_each(|c| relaxed.add_clause(c));
            assert!(
                refutes(&relaxed, format, &proof).is_err(),
                "{backend}: a {} proof refutes too much",
                format.name()
            );
            let mut satisfiable = Cnf::new();
            let b = satisfiable.new_var();
            satisfiable.add_clause(&[b.pos()]);
            assert_eq!(proved(&satisfiable, backend, format).0.unwrap(), Answer::Sat, "{backend}");
        }
        for format in [ProofFormat::Varisat, ProofFormat::Drat] {
            if !backend.proof_formats().contains(&format) {
                let refused = proved(&pigeonhole(3), backend, format).0.unwrap_err().to_string();
                assert!(refused.contains(&format!("cannot write a {} proof", format.name())), "{backend}: {refused}");
            }
        }
    }
}

/// Assumptions that contradict each other: the core must still be an
/// unsatisfiable subset of them. The calls replay a planner's: varisat,
/// asked to assume a literal whose negation an earlier assumption had set,
/// named a core without that literal, which the formula satisfied, and the
/// planner then called a refuted candidate forced.
#[test]
fn complementary_assumptions_give_a_core_that_cannot_hold() {
    const VARS: usize = 8;
    let lit = |code: usize| Var::from_index(code / 2).lit(code.is_multiple_of(2));
    let lits = |codes: &[usize]| -> Vec<Lit> { codes.iter().map(|&c| lit(c)).collect() };
    let calls: [(&[&[usize]], &[usize]); 6] = [
        (&[&[0], &[5], &[1, 9], &[4, 11]], &[10, 4]),
        (&[], &[10]),
        (&[&[11]], &[]),
        (&[&[4, 13]], &[12]),
        (&[&[13], &[5, 6, 15]], &[0, 5, 7, 14, 5, 6]),
        (&[], &[7, 14, 6]),
    ];
    for &backend in Backend::ALL {
        let mut solver = solver(backend, Stop::never());
        for _ in 0..VARS {
            let _ = solver.new_var();
        }
        let mut clauses: Vec<Vec<Lit>> = Vec::new();
        for (added, assumed) in calls {
            for clause in added {
                solver.add_clause(&lits(clause));
                clauses.push(lits(clause));
            }
            let assumed = lits(assumed);
            let answer = solver.solve_under(&assumed).unwrap();
            assert_eq!(answer == Answer::Sat, holds(VARS, &clauses, &assumed), "{backend}: {assumed:?}");
            if answer == Answer::Unsat {
                let core = solver.failed_core();
                assert!(core.iter().all(|l| assumed.contains(l)), "{backend}: {core:?}");
                assert!(!holds(VARS, &clauses, &core), "{backend}: the core {core:?} of {assumed:?} can hold");
            }
        }
    }
}

//! Which literals can hold in some model, and so which hold in every model.
//!
//! The loop asks for a model that makes at least one literal true that no
//! model so far has made true: one clause, "one of these at once", rather than
//! one SAT call per literal. Each model found may settle many literals, and
//! the final unsatisfiable call proves the rest can never hold. With `m`
//! distinct models (told apart on the candidates) it makes at most `m + 1`
//! calls: each satisfiable call past the first meets a new one. Over a
//! [`super::Lazy`] solver each of those calls may itself take several SAT
//! calls, one per model the repairer cuts off.

use super::{Answer, Solve, SolverError};
use crate::cnf::Lit;

/// What [`possible_literals`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Possible {
    /// Entry `i` is true when `candidates[i]` holds in some model.
    pub possible: Vec<bool>,
    /// SAT calls made, as the solver counts them: over a [`super::Lazy`]
    /// solver, with every model its repairer cut off.
    pub sat_calls: u64,
    /// Calls the loop made on the solver it was given: the first solve, one
    /// per model that showed a new literal, and the last (unsatisfiable)
    /// one, if any literal was left.
    pub rounds: u64,
}

/// For each candidate, whether some model of the solver (under `assumptions`)
/// makes it true. `None` when there is no model at all.
///
/// The clauses it adds are guarded by a selector that is retired at the end,
/// so the solver is unchanged for later calls.
///
/// ```
/// use somaria::cnf::{Cnf, card};
/// use somaria::solver::{new_solver, possible_literals};
/// let mut cnf = Cnf::new();
/// let v = cnf.new_vars(3);
/// card::exactly_one(&mut cnf, &[v[0].pos(), v[1].pos()]);
/// cnf.add_clause(&[v[2].neg()]);
/// let mut solver = new_solver(&cnf, None);
/// let candidates = [v[0].pos(), v[1].pos(), v[2].pos(), v[2].neg()];
/// let found = possible_literals(&mut solver, &candidates, &[]).unwrap().unwrap();
/// assert_eq!(found.possible, vec![true, true, false, true]);
/// ```
pub fn possible_literals<S: Solve + ?Sized>(
    solver: &mut S,
    candidates: &[Lit],
    assumptions: &[Lit],
) -> Result<Option<Possible>, SolverError> {
    let calls_before = solver.stats().sat_calls;
    let mut rounds = 1;
    if solver.solve_under(assumptions)? == Answer::Unsat {
        return Ok(None);
    }
    let mut possible: Vec<bool> = candidates.iter().map(|&l| solver.value(l)).collect();
    let selector = solver.new_var().pos();
    let mut guarded = assumptions.to_vec();
    guarded.push(selector);
    loop {
        let mut clause: Vec<Lit> = candidates.iter().zip(&possible).filter(|(_, p)| !**p).map(|(&l, _)| l).collect();
        if clause.is_empty() {
            break;
        }
        clause.push(!selector);
        solver.add_clause(&clause);
        rounds += 1;
        match solver.solve_under(&guarded) {
            Err(e) => {
                solver.add_clause(&[!selector]);
                return Err(e);
            }
            Ok(Answer::Unsat) => break,
            Ok(Answer::Sat) => {
                for (slot, &lit) in possible.iter_mut().zip(candidates) {
                    *slot |= solver.value(lit);
                }
            }
        }
    }
    solver.add_clause(&[!selector]);
    Ok(Some(Possible { possible, sat_calls: solver.stats().sat_calls - calls_before, rounds }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Cnf;
    use crate::solver::new_solver;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// On random 3-CNF over 6 variables, the possible literals are exactly
        /// those true in some of the 64 assignments that satisfy the formula.
        #[test]
        fn possible_literals_match_brute_force(
            clauses in prop::collection::vec(prop::collection::vec((0usize..6, any::<bool>()), 1..4), 0..16),
        ) {
            let mut cnf = Cnf::new();
            let vars = cnf.new_vars(6);
            for clause in &clauses {
                let lits: Vec<Lit> = clause.iter().map(|&(v, pol)| vars[v].lit(pol)).collect();
                cnf.add_clause(&lits);
            }
            let candidates: Vec<Lit> = vars.iter().flat_map(|v| [v.pos(), v.neg()]).collect();
            let mut expected = vec![false; candidates.len()];
            let mut models = 0u64;
            for bits in 0u32..64 {
                let assignment: Vec<bool> = (0..6).map(|i| bits >> i & 1 == 1).collect();
                if cnf.is_satisfied_by(&assignment) {
                    models += 1;
                    for (slot, lit) in expected.iter_mut().zip(&candidates) {
                        *slot |= lit.holds(&assignment);
                    }
                }
            }
            let mut solver = new_solver(&cnf, None);
            let found = possible_literals(&mut solver, &candidates, &[]).unwrap();
            // The backbone loop's bound, not one call per literal: each call
            // past the first meets a new model, or is the last.
            if let Some(found) = &found {
                prop_assert_eq!(found.sat_calls, found.rounds);
                prop_assert!(found.rounds <= models + 1, "{} calls for {} models", found.rounds, models);
            }
            prop_assert_eq!(found.map(|f| f.possible), (models > 0).then_some(expected));
        }
    }
}

//! Minimal unsatisfiable subsets of named clause groups: the smallest story
//! of why a puzzle has no solution, told in the puzzle's own rules.
//!
//! Each soft group gets a selector literal added to its clauses; solving
//! under all selectors gives a failed core, which deletion then shrinks until
//! dropping any one group left makes the rest satisfiable. Groups not listed
//! as soft stay as they are: the puzzle's mechanics rather than its demands.

use std::collections::HashMap;
use std::sync::Arc;

use super::{Answer, Progress, Solve, SolverConfig, SolverError};
use crate::cnf::{ClauseSink, Cnf, GroupId, Lit};

/// What [`minimal_unsat_subset`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mus {
    /// The groups, in the order of `soft`; together with the hard clauses
    /// they have no model, and without any one of them they have one.
    pub groups: Vec<GroupId>,
    /// SAT calls made.
    pub sat_calls: u64,
}

/// A minimal subset of the `soft` groups of `cnf` that, with every other
/// group, has no model; `None` when the whole formula has a model. Solved
/// on a solver of `config`, counting in `progress`.
///
/// ```
/// use somaria::cnf::Cnf;
/// use somaria::solver::{SolverConfig, minimal_unsat_subset};
/// let mut cnf = Cnf::new();
/// let a = cnf.new_var();
/// let wants_a = cnf.open_group("a", None);
/// cnf.add_clause(&[a.pos()]);
/// let wants_not_a = cnf.open_group("not a", None);
/// cnf.add_clause(&[a.neg()]);
/// let harmless = cnf.open_group("a or not a", None);
/// cnf.add_clause(&[a.pos(), a.neg()]);
/// let soft = [wants_a, wants_not_a, harmless];
/// let mus = minimal_unsat_subset(&cnf, &soft, &SolverConfig::default(), None).unwrap().unwrap();
/// assert_eq!(mus.groups, vec![wants_a, wants_not_a]);
/// ```
pub fn minimal_unsat_subset(
    cnf: &Cnf,
    soft: &[GroupId],
    config: &SolverConfig,
    progress: Option<Arc<Progress>>,
) -> Result<Option<Mus>, SolverError> {
    let mut solver = config.new_solver(&Cnf::new(), progress);
    for _ in 0..cnf.num_vars() {
        solver.new_var();
    }
    let selectors: HashMap<GroupId, Lit> = soft.iter().map(|&g| (g, solver.new_var().pos())).collect();
    for (group, clause) in cnf.grouped_clauses() {
        match selectors.get(&group) {
            Some(&selector) => {
                let mut guarded = clause.to_vec();
                guarded.push(!selector);
                solver.add_clause(&guarded);
            }
            None => solver.add_clause(clause),
        }
    }
    let group_of: HashMap<Lit, GroupId> = selectors.iter().map(|(&g, &s)| (s, g)).collect();

    let everything: Vec<Lit> = soft.iter().map(|g| selectors[g]).collect();
    let shrunk = shrink_by_deletion(&everything, |assumptions| {
        Ok(match solver.solve_under(assumptions)? {
            Answer::Sat => None,
            Answer::Unsat => Some(solver.failed_core()),
        })
    })?;
    let Some(kept) = shrunk else { return Ok(None) };
    let groups: Vec<GroupId> = kept.iter().map(|l| group_of[l]).collect();
    Ok(Some(Mus { groups, sat_calls: solver.stats().sat_calls }))
}

/// Shrinks a set of assumption literals that cannot all hold to a minimal
/// such set, by deletion. `solve` answers for a set of assumptions: `None`
/// when they can all hold, or a subset of them that cannot (a failed core).
/// Returns `None` when the whole set can hold; otherwise a minimal subset,
/// in the order of `assumptions`.
///
/// Each core is used to drop, at once, every literal outside it, so the
/// number of calls is usually far below one per literal.
///
/// ```
/// use somaria::cnf::Lit;
/// use somaria::solver::shrink_by_deletion;
/// // Literals 0..6; any set containing both 2 and 5 "cannot hold".
/// let lits: Vec<Lit> = (0..6).map(|i| Lit::from_code(2 * i)).collect();
/// let conflict = |set: &[Lit]| -> Result<Option<Vec<Lit>>, ()> {
///     let both = set.contains(&lits[2]) && set.contains(&lits[5]);
///     Ok(both.then(|| set.to_vec()))
/// };
/// assert_eq!(shrink_by_deletion(&lits, conflict).unwrap(), Some(vec![lits[2], lits[5]]));
/// ```
pub fn shrink_by_deletion<E>(
    assumptions: &[Lit],
    mut solve: impl FnMut(&[Lit]) -> Result<Option<Vec<Lit>>, E>,
) -> Result<Option<Vec<Lit>>, E> {
    let Some(core) = solve(assumptions)? else { return Ok(None) };
    let in_order = |set: &[Lit]| -> Vec<Lit> { assumptions.iter().copied().filter(|l| set.contains(l)).collect() };
    let mut unknown = in_order(&core);
    let mut necessary: Vec<Lit> = Vec::new();
    while let Some(candidate) = unknown.pop() {
        let trial: Vec<Lit> = necessary.iter().chain(&unknown).copied().collect();
        match solve(&trial)? {
            None => necessary.push(candidate),
            // The new core shows which of the rest are not needed either.
            Some(core) => unknown.retain(|l| core.contains(l)),
        }
    }
    Ok(Some(in_order(&necessary)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn satisfiable(cnf: &Cnf, keep: &dyn Fn(GroupId) -> bool) -> bool {
        (0u32..1 << cnf.num_vars()).any(|bits| {
            let assignment: Vec<bool> = (0..cnf.num_vars()).map(|i| bits >> i & 1 == 1).collect();
            cnf.grouped_clauses().filter(|(g, _)| keep(*g)).all(|(_, c)| c.iter().any(|l| l.holds(&assignment)))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Random groups of clauses over 4 variables, the first group hard:
        /// the subset is unsatisfiable, and dropping any one of its groups
        /// makes it satisfiable, checked over all 16 assignments.
        #[test]
        fn the_subset_is_unsatisfiable_and_minimal(
            groups in prop::collection::vec(
                prop::collection::vec(prop::collection::vec((0usize..4, any::<bool>()), 1..3), 1..3), 2..9),
        ) {
            let mut cnf = Cnf::new();
            let vars = cnf.new_vars(4);
            let mut ids = Vec::new();
            for (i, clauses) in groups.iter().enumerate() {
                ids.push(cnf.open_group(format!("g{i}"), None));
                for clause in clauses {
                    let lits: Vec<Lit> = clause.iter().map(|&(v, p)| vars[v].lit(p)).collect();
                    cnf.add_clause(&lits);
                }
            }
            let soft = &ids[1..];
            let found = minimal_unsat_subset(&cnf, soft, &SolverConfig::default(), None).unwrap();
            let whole = satisfiable(&cnf, &|_| true);
            prop_assert_eq!(found.is_none(), whole);
            if let Some(mus) = found {
                let hard = |g: GroupId| !soft.contains(&g);
                prop_assert!(!satisfiable(&cnf, &|g| hard(g) || mus.groups.contains(&g)));
                for &dropped in &mus.groups {
                    prop_assert!(satisfiable(&cnf, &|g| hard(g) || (g != dropped && mus.groups.contains(&g))));
                }
            }
        }
    }
}

//! Enumeration of models projected onto chosen variables or literals.
//!
//! Each model found is blocked on the projection only, so two models that
//! differ only in auxiliary variables count once. The blocking clauses are
//! guarded by a fresh selector literal that is assumed during the
//! enumeration and retired when it ends, so the solver can be used again
//! afterwards as if the enumeration had never happened.

use super::{Answer, Solve, SolverError};
use crate::cnf::Lit;

/// An iterator over the distinct values the projection takes in the models
/// of a solver. Item `i` of each model is the value of `projection[i]`; a
/// projection is given as variables or as literals (a variable stands for
/// its positive literal).
///
/// ```
/// use somaria::cnf::{Cnf, card};
/// use somaria::solver::{ProjectedModels, new_solver};
/// let mut cnf = Cnf::new();
/// let xs = cnf.new_vars(3);
/// let lits: Vec<_> = xs.iter().map(|v| v.pos()).collect();
/// card::exactly_one(&mut cnf, &lits);
/// let mut solver = new_solver(&cnf, None);
/// let models: Vec<Vec<bool>> = ProjectedModels::new(&mut solver, xs, &[])
///     .collect::<Result<_, _>>()
///     .unwrap();
/// assert_eq!(models.len(), 3);
/// ```
pub struct ProjectedModels<'s, S: Solve + ?Sized> {
    solver: &'s mut S,
    projection: Vec<Lit>,
    assumptions: Vec<Lit>,
    selector: Lit,
    done: bool,
    true_literals_only: bool,
}

impl<'s, S: Solve + ?Sized> ProjectedModels<'s, S> {
    /// Enumerates the models of `solver` under `assumptions`, projected onto
    /// `projection`.
    pub fn new<L: Into<Lit>>(solver: &'s mut S, projection: impl IntoIterator<Item = L>, assumptions: &[Lit]) -> Self {
        let projection = projection.into_iter().map(Into::into).collect();
        let selector = solver.new_var().pos();
        let mut all_assumptions = assumptions.to_vec();
        all_assumptions.push(selector);
        ProjectedModels {
            solver,
            projection,
            assumptions: all_assumptions,
            selector,
            done: false,
            true_literals_only: false,
        }
    }

    /// Blocks each model on the projected literals it makes true only: "not
    /// all of these at once". That is enough, and gives far shorter clauses,
    /// when no two solutions differ only in literals that one of them makes
    /// false, as when the projection is made of exactly-one groups (a fan's
    /// four directions). With other formulas it would skip models, so it is
    /// the caller's claim.
    ///
    /// ```
    /// use somaria::cnf::{Cnf, card};
    /// use somaria::solver::{ProjectedModels, new_solver};
    /// let mut cnf = Cnf::new();
    /// let xs = cnf.new_vars(4);
    /// card::exactly_one(&mut cnf, &xs.iter().map(|v| v.pos()).collect::<Vec<_>>());
    /// let mut solver = new_solver(&cnf, None);
    /// let models = ProjectedModels::new(&mut solver, xs, &[]).block_on_true_literals().count();
    /// assert_eq!(models, 4);
    /// ```
    pub fn block_on_true_literals(mut self) -> Self {
        self.true_literals_only = true;
        self
    }

    /// The solver, for reading statistics mid-enumeration.
    pub fn solver(&self) -> &S {
        self.solver
    }
}

impl<S: Solve + ?Sized> Iterator for ProjectedModels<'_, S> {
    type Item = Result<Vec<bool>, SolverError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.solver.solve_under(&self.assumptions) {
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
            Ok(Answer::Unsat) => {
                self.done = true;
                None
            }
            Ok(Answer::Sat) => {
                let values: Vec<bool> = self.projection.iter().map(|&l| self.solver.value(l)).collect();
                let mut blocking: Vec<Lit> = self
                    .projection
                    .iter()
                    .zip(&values)
                    .filter(|(_, value)| !self.true_literals_only || **value)
                    .map(|(&l, &value)| if value { !l } else { l })
                    .collect();
                blocking.push(!self.selector);
                self.solver.add_clause(&blocking);
                Some(Ok(values))
            }
        }
    }
}

impl<S: Solve + ?Sized> Drop for ProjectedModels<'_, S> {
    fn drop(&mut self) {
        self.solver.add_clause(&[!self.selector]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Cnf;
    use crate::solver::new_solver;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Random 3-CNF over 6 variables, projected onto the first `p`: the
        /// enumeration yields exactly the distinct projections of the
        /// formula's models, found by trying all 64 assignments.
        #[test]
        fn enumeration_matches_brute_force(
            clauses in prop::collection::vec(prop::collection::vec((0usize..6, any::<bool>()), 1..4), 0..14),
            p in 0usize..=6,
        ) {
            let mut cnf = Cnf::new();
            let vars = cnf.new_vars(6);
            for clause in &clauses {
                let lits: Vec<Lit> = clause.iter().map(|&(v, pol)| vars[v].lit(pol)).collect();
                cnf.add_clause(&lits);
            }
            let mut expected = std::collections::BTreeSet::new();
            for bits in 0u32..64 {
                let assignment: Vec<bool> = (0..6).map(|i| bits >> i & 1 == 1).collect();
                if cnf.is_satisfied_by(&assignment) {
                    expected.insert(assignment[..p].to_vec());
                }
            }
            let mut solver = new_solver(&cnf, None);
            let found: Vec<Vec<bool>> = ProjectedModels::new(&mut solver, vars[..p].to_vec(), &[])
                .collect::<Result<_, _>>().unwrap();
            let distinct: std::collections::BTreeSet<_> = found.iter().cloned().collect();
            prop_assert_eq!(distinct.len(), found.len(), "a projection came twice");
            prop_assert_eq!(distinct, expected);
            // The retired blocking clauses leave the formula as it was.
            let again = ProjectedModels::new(&mut solver, vars[..p].to_vec(), &[]).count();
            prop_assert_eq!(again, found.len());
        }
    }
}

//! Enumeration of models projected onto chosen variables or literals.
//!
//! Each model found is blocked on the projection only, so two models that
//! differ only in auxiliary variables count once. The blocking clauses are
//! guarded by a fresh selector literal that is assumed during the
//! enumeration and retired when it ends, so the solver can be used again
//! afterwards as if the enumeration had never happened.

use super::{Answer, Propagator, Solve, SolverError};
use crate::cnf::{Cnf, Lit};

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
    shortener: Option<Shortener>,
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
            shortener: None,
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

    /// Blocks each model on only those of its projected literals that imply
    /// the rest by unit propagation over `cnf`, which must hold only clauses
    /// the solver has too. A model with those literals then has the same
    /// projection, so the shorter clause blocks exactly as much; over a
    /// projection of many variables it keeps each solve fast.
    ///
    /// ```
    /// use somaria::cnf::{Cnf, card};
    /// use somaria::solver::{ProjectedModels, new_solver};
    /// let mut cnf = Cnf::new();
    /// let xs = cnf.new_vars(50);
    /// card::exactly_one(&mut cnf, &xs.iter().map(|v| v.pos()).collect::<Vec<_>>());
    /// let mut solver = new_solver(&cnf, None);
    /// let models = ProjectedModels::new(&mut solver, xs, &[]).shortened_by(&cnf).count();
    /// assert_eq!(models, 50);
    /// ```
    pub fn shortened_by(mut self, cnf: &Cnf) -> Self {
        self.shortener = Some(Shortener { propagator: Propagator::new(cnf), seen: Vec::new(), models: 0 });
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
                let held: Vec<Lit> = self
                    .projection
                    .iter()
                    .zip(&values)
                    .filter(|(_, value)| !self.true_literals_only || **value)
                    .map(|(&l, &value)| if value { l } else { !l })
                    .collect();
                let premises = &self.assumptions[..self.assumptions.len() - 1];
                let deciding = self.shortener.as_mut().and_then(|s| s.deciding(premises, &held));
                let mut blocking: Vec<Lit> = deciding.unwrap_or(held).into_iter().map(|l| !l).collect();
                blocking.push(!self.selector);
                crate::cnf::card::linked_clause(self.solver, &blocking, LINK);
                Some(Ok(values))
            }
        }
    }
}

/// The longest blocking clause added as one clause. varisat looks for a
/// new watch from the start of a clause each time one is falsified, so a
/// blocking clause over 20,000 unshortened literals made each model cost
/// seconds of propagation; links of this length keep each look short while
/// adding few fresh variables per model.
const LINK: usize = 48;

/// What [`ProjectedModels::shortened_by`] keeps between models.
struct Shortener {
    propagator: Propagator,
    /// By literal code: in how many earlier models the literal held.
    seen: Vec<u32>,
    models: u32,
}

impl Shortener {
    /// Some of `held` that, with `premises`, imply all of `held` by
    /// propagation; `None` when propagation meets a conflict, which a model
    /// of the clauses cannot cause, so the caller blocks on all of `held`.
    /// Literals that held in few earlier models go first: they are the ones
    /// that tell this model apart, and imply the common ones.
    fn deciding(&mut self, premises: &[Lit], held: &[Lit]) -> Option<Vec<Lit>> {
        let propagator = &mut self.propagator;
        propagator.reset();
        if !premises.iter().all(|&l| propagator.assume(l)) {
            return None;
        }
        let seen = |l: Lit| self.seen.get(l.code()).copied().unwrap_or(0);
        let (rare, common): (Vec<Lit>, Vec<Lit>) = held.iter().partition(|&&l| seen(l) <= self.models / 2);
        let mut deciding = Self::greedy(propagator, rare.iter().chain(&common))?;
        if deciding.len() > 1 {
            // The last literals taken are often the ones that imply the
            // earlier ones (the one true variable of an exactly-one): a
            // second pass from the back keeps only what is needed then.
            propagator.reset();
            if !premises.iter().all(|&l| propagator.assume(l)) {
                return None;
            }
            deciding = Self::greedy(propagator, deciding.iter().rev())?;
        }
        for &lit in held {
            if self.seen.len() <= lit.code() {
                self.seen.resize(lit.code() + 1, 0);
            }
            self.seen[lit.code()] += 1;
        }
        self.models += 1;
        Some(deciding)
    }
}

impl Shortener {
    /// The literals of `order` that propagation has not yet implied when
    /// their turn comes, each assumed as it is taken.
    fn greedy<'l>(propagator: &mut Propagator, order: impl Iterator<Item = &'l Lit>) -> Option<Vec<Lit>> {
        let mut taken = Vec::new();
        for &lit in order {
            match propagator.value(lit) {
                Some(true) => continue,
                Some(false) => return None,
                None => {
                    taken.push(lit);
                    if !propagator.assume(lit) {
                        return None;
                    }
                }
            }
        }
        Some(taken)
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

    /// Blocking clauses over a projection of 120 variables are chained;
    /// each model is still found exactly once.
    #[test]
    fn long_blocking_clauses_block_exactly_one_model() {
        let mut cnf = Cnf::new();
        let xs = cnf.new_vars(120);
        crate::cnf::card::exactly_one(&mut cnf, &xs.iter().map(|v| v.pos()).collect::<Vec<_>>());
        let mut solver = new_solver(&cnf, None);
        let models: Vec<Vec<bool>> = ProjectedModels::new(&mut solver, xs, &[]).collect::<Result<_, _>>().unwrap();
        let distinct: std::collections::BTreeSet<_> = models.iter().cloned().collect();
        assert_eq!((models.len(), distinct.len()), (120, 120));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// A linked clause holds under an assignment of its literals'
        /// variables exactly when one of its literals does.
        #[test]
        fn a_chained_clause_holds_when_one_literal_does(
            polarity in prop::collection::vec(any::<bool>(), 1..200),
            values in prop::collection::vec(prop::bool::weighted(0.02), 200),
            link in 0usize..100,
        ) {
            let mut cnf = Cnf::new();
            let vars = cnf.new_vars(polarity.len());
            let clause: Vec<Lit> = vars.iter().zip(&polarity).map(|(v, &p)| v.lit(p)).collect();
            let mut solver = new_solver(&cnf, None);
            crate::cnf::card::linked_clause(&mut solver, &clause, 3 + link % 60);
            let assignment: Vec<Lit> = vars.iter().zip(&values).map(|(v, &b)| v.lit(b)).collect();
            let holds = clause.iter().zip(&values).zip(&polarity).any(|((_, &b), &p)| b == p);
            let answer = solver.solve_under(&assignment).unwrap();
            prop_assert_eq!(answer == Answer::Sat, holds);
        }

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

        /// Blocking clauses shortened by propagation over some of the
        /// solver's clauses, under assumptions, still give exactly the
        /// distinct projections, by brute force over 256 assignments.
        #[test]
        fn shortened_enumeration_matches_brute_force(
            clauses in prop::collection::vec(prop::collection::vec((0usize..8, any::<bool>()), 1..4), 0..20),
            known in 0usize..=20,
            assumed in prop::collection::vec((0usize..8, any::<bool>()), 0..3),
            p in 0usize..=8,
        ) {
            let mut cnf = Cnf::new();
            let mut part = Cnf::new();
            let vars = cnf.new_vars(8);
            part.new_vars(8);
            for (i, clause) in clauses.iter().enumerate() {
                let lits: Vec<Lit> = clause.iter().map(|&(v, pol)| vars[v].lit(pol)).collect();
                cnf.add_clause(&lits);
                if i < known {
                    part.add_clause(&lits);
                }
            }
            let assumptions: Vec<Lit> = assumed.iter().map(|&(v, pol)| vars[v].lit(pol)).collect();
            let mut expected = std::collections::BTreeSet::new();
            for bits in 0u32..256 {
                let assignment: Vec<bool> = (0..8).map(|i| bits >> i & 1 == 1).collect();
                if cnf.is_satisfied_by(&assignment) && assumptions.iter().all(|l| l.holds(&assignment)) {
                    expected.insert(assignment[..p].to_vec());
                }
            }
            let mut solver = new_solver(&cnf, None);
            let found: Vec<Vec<bool>> = ProjectedModels::new(&mut solver, vars[..p].to_vec(), &assumptions)
                .shortened_by(&part)
                .collect::<Result<_, _>>().unwrap();
            let distinct: std::collections::BTreeSet<_> = found.iter().cloned().collect();
            prop_assert_eq!(distinct.len(), found.len(), "a projection came twice");
            prop_assert_eq!(distinct, expected);
        }
    }
}

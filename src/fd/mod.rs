//! A finite-domain engine: depth-first search over the integer variables
//! of the unrolled csp model, with propagators in place of a CNF.
//!
//! Where a CDCL solver does badly (the proof that a Golomb ruler one
//! shorter than the optimum has no marks; the full count of 4×4 magic
//! squares, each sum a decision diagram of some 590 auxiliary variables),
//! a plain search over bitset domains with bounds propagation, value
//! elimination and a trail does what a CP solver does, with about its
//! node counts. Nothing is learnt, so every node is cheap.
//!
//! The engine takes the program of [`crate::lang`] as it is: the scalars'
//! domains narrowed by the presolve, every group's constraint, the
//! implied sums of complete counts (`compile::implied`), and the
//! objective. A model with anything it has no propagator for (a
//! disjunction, a product, a grid global; see `build`) is outside its
//! fragment, and `Problem::build` says why. Each solution is handed to
//! the caller, which checks it with the language's verifier as it checks
//! a SAT answer: the engine shares no code with that check.

mod build;
mod props;
mod search;
mod store;

use crate::compile::implied;
use crate::compile::presolve::Domains;
use crate::lang::Program;
use crate::lang::model::{IntSet, Model, Sense};
use crate::solver::{Stop, StopCause};
pub(crate) use build::Outside;
use build::{Builder, Linear};
use props::Prop;
use search::{Engine, Flow, Order};

/// What a search did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Branching nodes.
    pub nodes: u64,
    /// Propagator runs.
    pub propagations: u64,
    /// Nodes that failed.
    pub fails: u64,
    /// Leaves (solutions) reached.
    pub solutions: u64,
}

impl Stats {
    /// The figures of two searches together.
    pub fn plus(self, other: Stats) -> Stats {
        Stats {
            nodes: self.nodes + other.nodes,
            propagations: self.propagations + other.propagations,
            fails: self.fails + other.fails,
            solutions: self.solutions + other.solutions,
        }
    }
}

/// Why a search ended without its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FdError {
    /// The run's stop token was raised.
    Stopped(StopCause),
    /// The caller's check refused a solution: a bug in a propagator.
    Rejected(String),
}

/// A model as variables and propagators, ready to search.
pub(crate) struct Problem {
    builder: Builder,
    scalars: usize,
    objective: Option<(Sense, Linear)>,
}

/// What a solve found: the scalars' values and the objective's value,
/// optimal when there is an objective.
pub(crate) type Found = Option<(Vec<i64>, Option<i64>)>;

impl Problem {
    /// The model's constraints and objective as propagators, or why the
    /// engine cannot take them.
    pub fn build(model: &Model, program: &Program) -> Result<Problem, Outside> {
        if !program.grids.is_empty() {
            return Err("the fd engine has no propagator for a grid global".into());
        }
        let narrowed = Domains::narrowed(model, program);
        let scalars = model.num_scalars();
        let domains: Vec<IntSet> = (0..scalars).map(|s| narrowed.of(s).clone()).collect();
        for (s, set) in domains.iter().enumerate() {
            let span = set.max().unwrap_or(0) as i128 - set.min().unwrap_or(0) as i128;
            if span >= store::MAX_SPAN as i128 {
                let name = model.scalar_name(s);
                return Err(format!("the fd engine takes domains of at most {} values, not {name}'s", store::MAX_SPAN));
            }
        }
        let mut builder = Builder::new(domains);
        for group in &program.groups {
            builder.post(&group.expr)?;
        }
        for sum in implied::count_sums(program, &narrowed) {
            builder.post(&sum)?;
        }
        let objective = match &program.objective {
            Some((sense, expr)) => Some((*sense, builder.linear(expr)?)),
            None => None,
        };
        Ok(Problem { builder, scalars, objective })
    }

    /// How many variables the search has: the scalars and the auxiliary ones.
    pub fn num_vars(&self) -> usize {
        self.builder.domains.len()
    }

    /// The engine at the root, propagated; `None` when the root fails.
    fn root<'s>(&self, stop: &'s Stop, extra: Option<Prop>) -> Option<Engine<'s>> {
        if self.builder.infeasible {
            return None;
        }
        let store = self.builder.store()?;
        let mut props = self.builder.props.clone();
        props.extend(extra);
        let mut engine = Engine::new(store, props, (0..self.scalars).collect(), stop);
        engine.propagate_all().ok()?;
        Some(engine)
    }

    /// The objective's value at the engine's current (fixed) values.
    fn objective_value(&self, engine: &Engine<'_>) -> Option<i64> {
        let (_, (terms, k)) = self.objective.as_ref()?;
        Some(terms.iter().map(|&(c, x)| c * engine.store.min(x)).sum::<i64>() + k)
    }

    fn values(&self, engine: &Engine<'_>) -> Vec<i64> {
        (0..self.scalars).map(|s| engine.store.min(s)).collect()
    }

    /// A solution, optimal when there is an objective (branch and bound
    /// in input order, the least value first), each one found passed to
    /// `check`; and the search's figures.
    pub fn solve(
        &self,
        stop: &Stop,
        check: &mut dyn FnMut(&[i64]) -> Result<(), String>,
    ) -> Result<(Found, Stats), FdError> {
        // Minimising `Σ c·x + k` below `best` is `Σ c·x + k - best + 1 ≤ 0`;
        // maximising negates both sides. No bound holds before the first solution.
        let bound = self.objective.as_ref().map(|(sense, (terms, k))| {
            let sign = if *sense == Sense::Maximize { -1 } else { 1 };
            let terms = terms.iter().map(|&(c, x)| (sign * c, x)).collect();
            (sign, sign * k, Prop::Linear { terms, k: i64::MIN / 4, eq: false })
        });
        let Some(mut engine) = self.root(stop, bound.as_ref().map(|(_, _, p)| p.clone())) else {
            return Ok((None, Stats::default()));
        };
        engine.order = Order::Input;
        if bound.is_some() {
            engine.bound = Some(engine.props.len() - 1);
        }
        let mut best: Found = None;
        engine.search(&mut |engine| {
            engine.stats.solutions += 1;
            let values = self.values(engine);
            check(&values).map_err(FdError::Rejected)?;
            let value = self.objective_value(engine);
            best = Some((values, value));
            let (Some((sign, k0, _)), Some(v), Some(p)) = (&bound, value, engine.bound) else {
                return Ok(Flow::Stop);
            };
            if let Prop::Linear { k, .. } = &mut engine.props[p] {
                *k = k0 - sign * v + 1;
            }
            Ok(Flow::Continue)
        })?;
        Ok((best, engine.stats))
    }

    /// Counts the solutions (at the objective's value `optimum`, when
    /// given) up to `limit`, told apart by the scalars `shown` alone:
    /// first-fail over them, and below each of their assignments a search
    /// for one assignment of the others. Each solution is passed to
    /// `check` and its number to `counted`. Returns the count, whether it
    /// is complete, and the figures.
    pub fn count(
        &self,
        stop: &Stop,
        (shown, optimum, limit): (&[usize], Option<i64>, Option<u64>),
        check: &mut dyn FnMut(&[i64]) -> Result<(), String>,
        counted: &mut dyn FnMut(u64),
    ) -> Result<(u64, bool, Stats), FdError> {
        let at_optimum = match (&self.objective, optimum) {
            (Some((_, (terms, k))), Some(v)) => Some(Prop::Linear { terms: terms.clone(), k: k - v, eq: true }),
            _ => None,
        };
        let Some(mut engine) = self.root(stop, at_optimum) else { return Ok((0, true, Stats::default())) };
        engine.order = Order::FirstFail;
        engine.decisions = shown.to_vec();
        let hidden: Vec<usize> = (0..self.scalars).filter(|s| !shown.contains(s)).collect();
        let mut count = 0u64;
        let flow = engine.search(&mut |engine| {
            let mut checked = |engine: &mut Engine<'_>| check(&self.values(engine)).map_err(FdError::Rejected);
            if !engine.first_of(hidden.clone(), &mut checked)? {
                return Ok(Flow::Continue);
            }
            engine.stats.solutions += 1;
            count += 1;
            counted(count);
            // As the SAT enumeration does, a count that reaches the limit
            // stops there, incomplete.
            Ok(if limit.is_some_and(|limit| count >= limit) { Flow::Stop } else { Flow::Continue })
        })?;
        Ok((count, flow == Flow::Continue, engine.stats))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::verify::Verifier;
    use crate::model::Source;

    const QUEENS: &str = "kind = \"csp\"\n[vars]\nq = { index = [\"1..6\"], domain = \"1..6\" }\n[[constraint]]\n\
        expr = 'alldifferent(q) /\\ forall(i, j in 1..6 where i < j)(q[i] + i != q[j] + j /\\ q[i] - i != q[j] - j)'\n";

    /// The solutions of the 6 queens, searched with the propagators that
    /// `keep` leaves, each checked by the language's verifier.
    fn queens(keep: impl Fn(&Prop) -> bool) -> Result<u64, FdError> {
        let (model, program) = crate::lang::load_model(&Source::from_text("q.toml", QUEENS)).unwrap();
        let mut problem = Problem::build(&model, &program).unwrap();
        problem.builder.props.retain(keep);
        let verifier = Verifier::new(&model);
        let mut check = |values: &[i64]| verifier.check(values, &[]);
        let shown: Vec<usize> = (0..model.num_scalars()).collect();
        let (count, complete, _) = problem.count(&Stop::never(), (&shown, None, None), &mut check, &mut |_| {})?;
        assert!(complete);
        Ok(count)
    }

    #[test]
    fn the_verifier_rejects_what_a_weakened_propagator_lets_through() {
        assert_eq!(queens(|_| true), Ok(4));
        // Without the diagonals' propagators, the first leaf is a
        // permutation with queens on a diagonal: the check refuses it.
        let weakened = queens(|p| !matches!(p, Prop::NotEqual { .. }));
        assert!(matches!(&weakened, Err(FdError::Rejected(why)) if !why.is_empty()), "{weakened:?}");
    }
}

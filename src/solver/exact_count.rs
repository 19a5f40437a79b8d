//! Exact projected model counting without listing the models: how many
//! distinct assignments of the projection variables extend to a model of
//! a [`Cnf`] under assumptions.
//!
//! The counter is a DPLL search in the manner of sharpSAT and GANAK: unit
//! propagation by two watched literals ([`Propagator`]), decisions on projection variables
//! first, the formula left over split into connected components (which are
//! counted apart and multiplied), and each component's count cached by the
//! component's variables and clauses. A component that does not fall apart
//! is split again only every few decisions: a split walks all of its
//! clauses, which on formulas that never fall apart (queens, Latin
//! squares) cost more than the search itself. A component that holds no projection
//! variable counts 1 or 0, by a satisfiability search of the same kind.
//! There is no clause learning: puzzle models are counted by propagation
//! and decomposition, and a counter kept this small is easy to trust.
//!
//! Counts are kept in `u128` and saturate rather than wrap; every step
//! (sum, product) is monotone, so a saturated count is still a floor.

use rustc_hash::FxHashMap;

use super::{Propagator, Stop, StopCause};
use crate::cnf::{Cnf, Lit, Var};

/// The number of distinct values the `projection` variables take over the
/// models of `cnf` in which every `assumptions` literal holds; `u128::MAX`
/// when the count reached it (then a floor). Checks `stop` as it goes.
///
/// ```
/// use somaria::cnf::{Cnf, card};
/// use somaria::solver::{Stop, count_projected};
/// let mut cnf = Cnf::new();
/// let xs = cnf.new_vars(4);
/// card::exactly_one(&mut cnf, &xs[..3].iter().map(|v| v.pos()).collect::<Vec<_>>());
/// // Three choices of the one, times both values of the free fourth.
/// assert_eq!(count_projected(&cnf, &xs, &[], &Stop::never()), Ok(6));
/// // Projected onto the fourth alone: its two values.
/// assert_eq!(count_projected(&cnf, &xs[3..], &[], &Stop::never()), Ok(2));
/// assert_eq!(count_projected(&cnf, &xs, &[xs[0].pos(), xs[1].pos()], &Stop::never()), Ok(0));
/// ```
pub fn count_projected(cnf: &Cnf, projection: &[Var], assumptions: &[Lit], stop: &Stop) -> Result<u128, StopCause> {
    // The search recurses once per decision, which can be thousands deep on
    // a large formula: it runs on a thread with a stack to match.
    std::thread::scope(|scope| {
        let counting = std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || Counter::new(cnf, projection, assumptions, stop).count_all(assumptions));
        match counting {
            Ok(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to be had: count here, with the stack there is.
            Err(_) => Counter::new(cnf, projection, assumptions, stop).count_all(assumptions),
        }
    })
}

const STACK_BYTES: usize = 512 << 20;

/// Words of cache keys kept before the cache is emptied, bounding its
/// memory (about 4 bytes a word); forgetting counts is always sound.
const CACHE_WORDS: usize = 1 << 25;

/// Decisions between two splits of a component that its last split left
/// whole. Measured (CPU time) on the queens, whose formula never falls
/// apart: 11 queens took 0.88 s splitting at every decision, 0.15 s at
/// every 4th and 0.13 s at every 16th; 12 queens 0.81 s at every 4th and
/// 0.67 s at every 8th.
const SPLIT_EVERY: u32 = 8;

/// Decisions between two looks at the stop token.
const STOP_EVERY: u64 = 1 << 10;

/// What is left of the formula to count: unassigned variables and the
/// clauses over them that no assignment satisfies yet, connected.
struct Component {
    vars: Vec<u32>,
    clauses: Vec<u32>,
    projected: bool,
    /// Whether its split left it in one piece, so that splitting it again
    /// soon is unlikely to pay.
    whole: bool,
    /// The variable to decide first.
    branch: u32,
}

struct Counter<'s> {
    /// The clauses, the assignment and its trail.
    prop: Propagator,
    projected: Vec<bool>,
    /// Scratch for splitting, by variable: union-find parents, the
    /// component of a root, open clauses holding the variable.
    parent: Vec<u32>,
    slot: Vec<u32>,
    occurrences: Vec<u32>,
    cache: FxHashMap<Box<[u32]>, u128>,
    cache_words: usize,
    decisions: u64,
    stop: &'s Stop,
}

impl<'s> Counter<'s> {
    /// A counter over every variable of `cnf`, and of the projection and
    /// assumptions too (those the formula lacks are free).
    fn new(cnf: &Cnf, projection: &[Var], assumptions: &[Lit], stop: &'s Stop) -> Counter<'s> {
        let mentioned = projection.iter().copied().chain(assumptions.iter().map(|l| l.var()));
        let n = mentioned.map(|v| v.index() + 1).fold(cnf.num_vars(), usize::max);
        let mut projected = vec![false; n];
        for v in projection {
            projected[v.index()] = true;
        }
        Counter {
            prop: Propagator::with_vars(cnf, n),
            projected,
            parent: (0..n as u32).collect(),
            slot: vec![u32::MAX; n],
            occurrences: vec![0; n],
            cache: FxHashMap::default(),
            cache_words: 0,
            decisions: 0,
            stop,
        }
    }

    fn count_all(mut self, assumptions: &[Lit]) -> Result<u128, StopCause> {
        for &lit in assumptions {
            self.prop.assume(lit);
        }
        if !self.prop.is_consistent() {
            return Ok(0);
        }
        let everything = Component {
            vars: (0..self.prop.num_vars() as u32).collect(),
            clauses: (0..self.prop.num_clauses() as u32).collect(),
            projected: true,
            whole: true,
            branch: 0,
        };
        self.count_split(&everything)
    }

    /// The count of what `within` has left after the last assignments: the
    /// product of its components' counts, times 2 for each of its
    /// projection variables that no clause constrains any more.
    fn count_split(&mut self, within: &Component) -> Result<u128, StopCause> {
        let (parts, free) = self.split(within);
        let mut product = 1u128.checked_shl(free).unwrap_or(u128::MAX);
        for part in &parts {
            let count = if part.projected { self.count(part)? } else { u128::from(self.satisfiable(part)?) };
            if count == 0 {
                return Ok(0);
            }
            product = product.saturating_mul(count);
        }
        Ok(product)
    }

    /// The count of one component, from the cache or by deciding one of its
    /// projection variables both ways.
    fn count(&mut self, component: &Component) -> Result<u128, StopCause> {
        let key = Self::key(component);
        if let Some(&known) = self.cache.get(&key) {
            return Ok(known);
        }
        let total = self.count_unsplit(component, component.branch, 1)?;
        self.remember(key, total);
        Ok(total)
    }

    /// The count of what `component` has left, by deciding `branch` both
    /// ways, `depth` decisions below the component's last split. A
    /// component that came out of its split whole is split again only
    /// every [`SPLIT_EVERY`] decisions; in between, the next decision is
    /// its first open projection variable.
    fn count_unsplit(&mut self, component: &Component, branch: u32, depth: u32) -> Result<u128, StopCause> {
        let var = Var::from_index(branch as usize);
        let mut total = 0u128;
        for lit in [var.pos(), var.neg()] {
            let mark = self.decide()?;
            if self.prop.assume(lit) {
                let next = match depth % self.split_every(component) {
                    0 => None,
                    _ => self.first_open_projected(component),
                };
                let below = match next {
                    Some(v) => self.count_unsplit(component, v, depth + 1)?,
                    None => self.count_split(component)?,
                };
                total = total.saturating_add(below);
            }
            self.prop.undo_to(mark);
        }
        Ok(total)
    }

    /// How many decisions apart `component` is split: at each one when it
    /// is a part of a formula that fell apart, else every [`SPLIT_EVERY`].
    fn split_every(&self, component: &Component) -> u32 {
        if component.whole { SPLIT_EVERY } else { 1 }
    }

    fn first_open_projected(&self, component: &Component) -> Option<u32> {
        component.vars.iter().copied().find(|&v| self.projected[v as usize] && self.is_open(v as usize))
    }

    /// Whether a component without projection variables has a model.
    fn satisfiable(&mut self, component: &Component) -> Result<bool, StopCause> {
        let key = Self::key(component);
        if let Some(&known) = self.cache.get(&key) {
            return Ok(known != 0);
        }
        let var = Var::from_index(component.branch as usize);
        let mut found = false;
        for lit in [var.pos(), var.neg()] {
            let mark = self.decide()?;
            if self.prop.assume(lit) {
                let (parts, _) = self.split(component);
                found = true;
                for part in &parts {
                    if !self.satisfiable(part)? {
                        found = false;
                        break;
                    }
                }
            }
            self.prop.undo_to(mark);
            if found {
                break;
            }
        }
        self.remember(key, u128::from(found));
        Ok(found)
    }

    /// Starts a decision: the mark to undo it to.
    fn decide(&mut self) -> Result<usize, StopCause> {
        self.decisions += 1;
        if self.decisions.is_multiple_of(STOP_EVERY) {
            self.stop.check()?;
        }
        Ok(self.prop.mark())
    }

    fn is_open(&self, var: usize) -> bool {
        self.prop.value(Var::from_index(var).pos()).is_none()
    }

    /// The components of what `within` has left, and how many of its
    /// projection variables are unassigned and in no open clause. Each
    /// component keeps its variables and clauses in the order of
    /// `within`'s, which starts sorted, so its cache key needs no sort.
    fn split(&mut self, within: &Component) -> (Vec<Component>, u32) {
        let open: Vec<u32> = within.clauses.iter().copied().filter(|&c| !self.satisfied(c)).collect();
        for &v in &within.vars {
            self.parent[v as usize] = v;
        }
        for &c in &open {
            let mut first = None;
            for &lit in self.prop.clause(c as usize) {
                let v = lit.var().index();
                if self.prop.value(lit).is_some() {
                    continue;
                }
                self.occurrences[v] += 1;
                let root = root(&mut self.parent, v as u32);
                match first {
                    None => first = Some(root),
                    Some(r) => self.parent[root as usize] = r,
                }
            }
        }
        let mut parts: Vec<Component> = Vec::new();
        for &c in &open {
            let Some(v) = self.prop.clause(c as usize).iter().find(|&&l| self.prop.value(l).is_none()) else {
                continue;
            };
            let root = root(&mut self.parent, v.var().index() as u32) as usize;
            if self.slot[root] == u32::MAX {
                self.slot[root] = parts.len() as u32;
                parts.push(Component {
                    vars: Vec::new(),
                    clauses: Vec::new(),
                    projected: false,
                    whole: false,
                    branch: 0,
                });
            }
            parts[self.slot[root] as usize].clauses.push(c);
        }
        // Each part branches on its variable in the most open clauses, a
        // projection variable if it has one.
        let mut best = vec![(false, 0u32); parts.len()];
        let mut free = 0;
        for &v in &within.vars {
            let var = v as usize;
            if !self.is_open(var) {
                continue;
            }
            let root = root(&mut self.parent, v) as usize;
            match self.slot[root] {
                u32::MAX => free += u32::from(self.projected[var]),
                at => {
                    let part = &mut parts[at as usize];
                    part.vars.push(v);
                    part.projected |= self.projected[var];
                    // The first projection variable, so that the decisions
                    // between splits ([`Counter::count_unsplit`]) keep to
                    // the same order; else the one in the most clauses.
                    let rank = match self.projected[var] {
                        true => (true, u32::MAX - v),
                        false => (false, self.occurrences[var]),
                    };
                    if rank > best[at as usize] {
                        best[at as usize] = rank;
                        part.branch = v;
                    }
                }
            }
        }
        for &v in &within.vars {
            self.occurrences[v as usize] = 0;
            self.slot[v as usize] = u32::MAX;
        }
        // Small components first: a zero among them ends the product early.
        parts.sort_by_key(|p| p.clauses.len());
        if let [part] = &mut parts[..] {
            part.whole = true;
        }
        (parts, free)
    }

    fn satisfied(&self, c: u32) -> bool {
        self.prop.clause(c as usize).iter().any(|&l| self.prop.value(l) == Some(true))
    }

    /// The component's variables, then its clauses: with every other
    /// variable of its clauses false, they fix what is left to count.
    fn key(component: &Component) -> Box<[u32]> {
        let mut key = Vec::with_capacity(component.vars.len() + component.clauses.len() + 1);
        key.extend_from_slice(&component.vars);
        key.push(u32::MAX);
        key.extend_from_slice(&component.clauses);
        key.into_boxed_slice()
    }

    fn remember(&mut self, key: Box<[u32]>, count: u128) {
        if self.cache_words + key.len() > CACHE_WORDS {
            self.cache.clear();
            self.cache_words = 0;
        }
        self.cache_words += key.len();
        self.cache.insert(key, count);
    }
}

/// The root of `v`'s set in the union-find forest `parent`, halving the
/// path on the way.
fn root(parent: &mut [u32], mut v: u32) -> u32 {
    while parent[v as usize] != v {
        let up = parent[parent[v as usize] as usize];
        parent[v as usize] = up;
        v = up;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{ProjectedModels, new_solver};
    use proptest::prelude::*;

    fn brute_force(cnf: &Cnf, n: usize, projection: &[Var], assumptions: &[Lit]) -> u128 {
        let mut seen = std::collections::BTreeSet::new();
        for bits in 0u32..1 << n {
            let assignment: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
            if cnf.is_satisfied_by(&assignment) && assumptions.iter().all(|l| l.holds(&assignment)) {
                seen.insert(projection.iter().map(|v| assignment[v.index()]).collect::<Vec<_>>());
            }
        }
        seen.len() as u128
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Random CNFs over 10 variables, with clauses of 1 to 4 literals,
        /// assumptions and a random projection: the exact count is the
        /// number of distinct projections over all 1024 assignments, and
        /// the number of models the enumeration lists.
        #[test]
        fn exact_count_matches_brute_force_and_enumeration(
            clauses in prop::collection::vec(prop::collection::vec((0usize..10, any::<bool>()), 1..5), 0..30),
            assumed in prop::collection::vec((0usize..10, any::<bool>()), 0..3),
            shown in prop::collection::vec(any::<bool>(), 10),
        ) {
            let mut cnf = Cnf::new();
            let vars = cnf.new_vars(10);
            for clause in &clauses {
                let lits: Vec<Lit> = clause.iter().map(|&(v, pol)| vars[v].lit(pol)).collect();
                cnf.add_clause(&lits);
            }
            let assumptions: Vec<Lit> = assumed.iter().map(|&(v, pol)| vars[v].lit(pol)).collect();
            let projection: Vec<Var> = vars.iter().zip(&shown).filter(|(_, s)| **s).map(|(v, _)| *v).collect();
            let exact = count_projected(&cnf, &projection, &assumptions, &Stop::never()).unwrap();
            prop_assert_eq!(exact, brute_force(&cnf, 10, &projection, &assumptions));
            let mut solver = new_solver(&cnf, None);
            let listed = ProjectedModels::new(&mut solver, projection.clone(), &assumptions).count();
            prop_assert_eq!(exact, listed as u128);
        }

        /// Many small independent pieces: the decomposition multiplies
        /// their counts, checked against the brute force over 14 variables.
        #[test]
        fn components_multiply(
            pieces in prop::collection::vec(prop::collection::vec((0usize..3, any::<bool>()), 1..3), 0..12),
            shown in prop::collection::vec(any::<bool>(), 14),
        ) {
            let mut cnf = Cnf::new();
            let vars = cnf.new_vars(14);
            // Piece i lives on variables 3i..3i+3 (mod 14), so pieces overlap
            // only now and then.
            for (i, piece) in pieces.iter().enumerate() {
                let lits: Vec<Lit> = piece.iter().map(|&(v, pol)| vars[(3 * i + v) % 14].lit(pol)).collect();
                cnf.add_clause(&lits);
            }
            let projection: Vec<Var> = vars.iter().zip(&shown).filter(|(_, s)| **s).map(|(v, _)| *v).collect();
            let exact = count_projected(&cnf, &projection, &[], &Stop::never()).unwrap();
            prop_assert_eq!(exact, brute_force(&cnf, 14, &projection, &[]));
        }
    }

    #[test]
    fn an_empty_clause_has_no_models_and_no_clauses_count_every_projection() {
        let mut cnf = Cnf::new();
        let xs = cnf.new_vars(130);
        assert_eq!(count_projected(&cnf, &xs[..5], &[], &Stop::never()), Ok(32));
        // 2^130 saturates instead of wrapping.
        assert_eq!(count_projected(&cnf, &xs, &[], &Stop::never()), Ok(u128::MAX));
        cnf.add_clause(&[]);
        assert_eq!(count_projected(&cnf, &xs, &[], &Stop::never()), Ok(0));
    }

    #[test]
    fn a_raised_stop_ends_the_count() {
        // Pigeonhole 9 into 8 has no model, and without learning takes
        // far more than one look at the token to refute.
        let mut cnf = Cnf::new();
        let x: Vec<Vec<Var>> = (0..9).map(|_| cnf.new_vars(8)).collect();
        for row in &x {
            cnf.add_clause(&row.iter().map(|v| v.pos()).collect::<Vec<_>>());
        }
        for a in 0..9 {
            for b in a + 1..9 {
                for (p, q) in x[a].iter().zip(&x[b]) {
                    cnf.add_clause(&[p.neg(), q.neg()]);
                }
            }
        }
        let stop = Stop::never();
        stop.raise();
        let all: Vec<Var> = x.concat();
        assert_eq!(count_projected(&cnf, &all, &[], &stop), Err(StopCause::Raised));
    }
}

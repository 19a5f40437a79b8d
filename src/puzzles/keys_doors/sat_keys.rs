//! The order encoding: a CNF over the keys rather than the cells.
//!
//! Each walker's route is a chain of legs from its start through some of the
//! keys; the legs and their lengths come from one search of the grid per
//! place ([`super::legs`]): a leg needs the keys of the doors it passes and,
//! in mazes without loops, the keys it walks over (open rooms, where the
//! ways round keys multiply, use legs that may walk over keys instead).
//!
//! Variables:
//!
//! - `leg(u, v, j)`: key v is reached from node u (a walker's start or
//!   another key) by the j-th way on the Pareto front of that pair; a way
//!   needs some keys held and has a length;
//! - `pred(u, v)`: some way from u to v is taken;
//! - `rank(v) ≥ i`, the order encoding of the position of key v in the
//!   global order of collection, which is a permutation of 1..=keys
//!   (`place(v, i)`: key v is the i-th).
//!
//! Rules: each key is reached by exactly one leg; each node starts at most
//! one leg; a leg from key u to key v has `rank(u) < rank(v)` (so chains
//! have no cycles and each ends at a walker's start); a leg that needs key d
//! has `rank(d) < rank(v)`: a door's key is collected before any leg
//! through that door; every position holds some key.
//!
//! Why this is exact, with walking over keys and several walkers. Any route
//! can be rearranged so that each walker walks a whole leg just before the
//! pickup it ends on (keys are never lost, so every move stays legal), and
//! each leg then needs only keys collected before it, so the route's order
//! satisfies the rules with a total no longer than the route. Conversely the
//! legs of any model, walked in the order of their ranks, make a legal route
//! no longer than the model's total (walking over a key early only opens
//! more doors); it may collect the last key before its end, and is then
//! cut there. So the least total of a model is the fewest steps.
//!
//! The total is minimised by tightening a pseudo-Boolean bound under
//! assumptions: each key's incoming leg costs at least the shortest leg into
//! it, and the excess over that floor is bounded. Two encodings of the bound
//! are built on the same model:
//!
//! - [`Objective::Unary`]: each key's excess in unary, summed by a totalizer
//!   cut off above the first bound; a tighter bound is one more assumption.
//!   Strong propagation, size grows with excess × bound; chosen when small.
//! - [`Objective::Binary`]: each key's excess in binary, summed by an adder
//!   network; each tighter bound adds a comparator behind a fresh selector
//!   that is assumed. Compact at any length.
//!
//! The first bound is the length of a greedy route (nearest collectable key
//! next), so the first call is satisfiable whenever a route exists; each
//! model found gives a route, and the next bound is one step shorter, until
//! the call is unsatisfiable.
//!
//! `count` enumerates, at the optimal bound, the distinct chains (projected
//! on `pred`), and for each sums the product of the shortest direct paths of
//! its legs ([`super::legs::Reading::Direct`]) when those add up to the
//! optimum: every shortest route splits at its pickups into such legs in one
//! way only. With several walkers the interleavings of moves are not
//! counted, so `count` refuses them.

use std::sync::Arc;

use super::Move;
use super::board::{Board, KeySet};
use super::legs::{Leg, Legs, Reading};
use crate::cnf::card::{self, Bounds, Totalizer};
use crate::cnf::{ClauseSink, Cnf, Lit, Var};
use crate::puzzles::Error;
use crate::solver::{Answer, Progress, ProjectedModels, Recorded, Solve, SolveStats, SolverConfig, SolverError};

/// The largest unary objective (inputs × cut-off) chosen without being asked.
const UNARY_LIMIT: u64 = 4_000_000;

/// How the bound on the total is encoded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Unary excesses and a totalizer.
    Unary,
    /// Binary excesses and an adder network.
    Binary,
}

/// The outcome of a count.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    /// The fewest steps, or `None` when no route exists.
    pub steps: Option<u64>,
    /// Distinct shortest move sequences.
    pub routes: u64,
    /// True when `routes` stopped at `u64::MAX`.
    pub saturated: bool,
    /// Distinct optimal orders of collection enumerated.
    pub orders: u64,
}

/// One way a key can be reached.
#[derive(Copy, Clone, Debug)]
struct Way {
    from: usize,
    key: usize,
    len: u32,
    needs: KeySet,
    var: Var,
}

/// The encoded bound on the total.
enum Bound {
    /// No route exists, so no bound was built.
    None,
    Unary(Totalizer),
    Binary {
        sum: Vec<Lit>,
        selectors: Vec<(u64, Lit)>,
    },
}

/// The order model on an incremental solver.
pub struct OrderModel<'b> {
    board: &'b Board,
    legs: Legs,
    /// The formula and the solver it is fed to, in step.
    formula: Recorded,
    truth: Lit,
    ways: Vec<Way>,
    /// `pred[from][key]`.
    pred: Vec<Vec<Option<Var>>>,
    /// `rank[key][i]` means "rank ≥ i", for i in 0..=keys + 1.
    rank: Vec<Vec<Lit>>,
    /// The least total: the sum of each key's shortest incoming leg.
    floor: u64,
    /// The greedy route's length, when one exists.
    greedy: Option<u64>,
    bound: Bound,
    /// The best route so far and whether it is proven optimal.
    best: Option<Vec<Move>>,
    proven: bool,
}

impl<'b> OrderModel<'b> {
    /// The model with the objective chosen by size, on a solver of `config`
    /// that counts its calls in `progress`.
    pub fn new(
        board: &'b Board,
        config: &SolverConfig,
        progress: Option<Arc<Progress>>,
    ) -> Result<OrderModel<'b>, Error> {
        OrderModel::with_objective(board, config, progress, None)
    }

    /// [`OrderModel::new`] with a chosen objective encoding, or one chosen
    /// by size.
    pub fn with_objective(
        board: &'b Board,
        config: &SolverConfig,
        progress: Option<Arc<Progress>>,
        objective: Option<Objective>,
    ) -> Result<OrderModel<'b>, Error> {
        let legs = choose_legs(board)?;
        let mut cnf = Cnf::new();
        let truth_var = cnf.new_var();
        cnf.name_var(truth_var, "true");
        cnf.open_group("a constant", None);
        cnf.add_clause(&[truth_var.pos()]);
        let truth = truth_var.pos();
        let keys = board.num_keys();
        let nodes = legs.num_walkers() + keys;
        let letter = |key: usize| board.key_letters()[key];
        let node_name = |node: usize| match node.checked_sub(legs.num_walkers()) {
            Some(key) => format!("key '{}'", letter(key)),
            None => format!("walker {node}'s start"),
        };

        let (alive, before) = forced_order(board, &legs);
        let mut ways = Vec::new();
        let mut pred = vec![vec![None; keys]; nodes];
        for (from, row) in pred.iter_mut().enumerate() {
            for (key, slot) in row.iter_mut().enumerate() {
                let options: Vec<Leg> = alive[from][key].clone();
                if options.is_empty() {
                    continue;
                }
                let p = cnf.new_var();
                cnf.name_var(p, format!("{} is reached from {}", node_name(legs.key_node(key)), node_name(from)));
                *slot = Some(p);
                for (j, leg) in options.iter().enumerate() {
                    let var = cnf.new_var();
                    let name = format!("way {j} ({} steps) from {} to key '{}'", leg.len, node_name(from), letter(key));
                    cnf.name_var(var, name);
                    ways.push(Way { from, key, len: leg.len, needs: leg.needs, var });
                }
            }
        }
        let mut rank: Vec<Vec<Lit>> = Vec::with_capacity(keys);
        for key in 0..keys {
            let mut lits = vec![truth, truth];
            for i in 2..=keys {
                let var = cnf.new_var();
                cnf.name_var(var, format!("key '{}' is collected {i}th or later", letter(key)));
                lits.push(var.pos());
            }
            lits.push(!truth);
            rank.push(lits);
        }

        cnf.open_group("the order of collection is a permutation", None);
        for lits in &rank {
            for i in 2..keys {
                cnf.add_clause(&[!lits[i + 1], lits[i]]);
            }
        }
        for i in 1..=keys {
            let mut someone = Vec::with_capacity(keys);
            for lits in &rank {
                let place = cnf.new_var();
                cnf.add_clause(&[place.neg(), lits[i]]);
                cnf.add_clause(&[place.neg(), !lits[i + 1]]);
                someone.push(place.pos());
            }
            cnf.add_clause(&someone);
        }

        cnf.open_group("each key is reached by exactly one leg", None);
        for key in 0..keys {
            let into: Vec<Lit> = ways.iter().filter(|w| w.key == key).map(|w| w.var.pos()).collect();
            card::exactly_one(&mut cnf, &into);
        }
        cnf.open_group("a leg is a way between its ends", None);
        for (from, row) in pred.iter().enumerate() {
            for (key, p) in row.iter().enumerate() {
                let Some(p) = p else { continue };
                let mut clause = vec![p.neg()];
                for way in ways.iter().filter(|w| w.from == from && w.key == key) {
                    cnf.add_clause(&[way.var.neg(), p.pos()]);
                    clause.push(way.var.pos());
                }
                cnf.add_clause(&clause);
            }
        }
        cnf.open_group("each walker's start and each key begin at most one leg", None);
        for row in &pred {
            let out: Vec<Lit> = row.iter().flatten().map(|p| p.pos()).collect();
            card::at_most_one(&mut cnf, &out);
        }
        cnf.open_group("a leg from a key comes after that key", None);
        for from_key in 0..keys {
            for (key, p) in pred[legs.key_node(from_key)].iter().enumerate() {
                if let Some(p) = p {
                    precede(&mut cnf, p.pos(), &rank[from_key], &rank[key]);
                }
            }
        }
        cnf.open_group("keys that every way into a key needs come before it (implied, stated for propagation)", None);
        for (key, &needed) in before.iter().enumerate() {
            for earlier in (0..keys).filter(|&d| needed & (1 << d) != 0) {
                precede(&mut cnf, truth, &rank[earlier], &rank[key]);
            }
        }
        if legs.num_walkers() == 1 {
            cnf.open_group("one walker: a leg joins keys of consecutive ranks (implied)", None);
            for (from, row) in pred.iter().enumerate() {
                for (key, p) in row.iter().enumerate() {
                    let Some(p) = p else { continue };
                    match from.checked_sub(1) {
                        None => cnf.add_clause(&[p.neg(), !rank[key][2]]),
                        Some(from_key) => {
                            for i in 1..keys {
                                cnf.add_clause(&[p.neg(), !rank[key][i + 2], rank[from_key][i + 1]]);
                            }
                        }
                    }
                }
            }
        }
        cnf.open_group("a door's key is collected before any leg through that door", None);
        for way in &ways {
            for needed in (0..keys).filter(|&d| way.needs & (1 << d) != 0) {
                precede(&mut cnf, way.var.pos(), &rank[needed], &rank[way.key]);
            }
        }

        let floor_of = |key: usize| ways.iter().filter(|w| w.key == key).map(|w| w.len).min();
        let floor: u64 = (0..keys).map(|k| u64::from(floor_of(k).unwrap_or(0))).sum();
        let greedy = greedy_total(board, &legs);
        let bound = match greedy {
            None => Bound::None,
            Some(greedy) => {
                let cutoff = greedy - floor + 1;
                let excess = |way: &Way| u64::from(way.len - floor_of(way.key).expect("a way into the key"));
                let unary_size: u64 = (0..keys)
                    .map(|k| ways.iter().filter(|w| w.key == k).map(excess).max().unwrap_or(0).min(cutoff))
                    .sum::<u64>()
                    * cutoff;
                let chosen =
                    objective.unwrap_or(if unary_size <= UNARY_LIMIT { Objective::Unary } else { Objective::Binary });
                cnf.open_group(format!("the total is at most {greedy} steps, the greedy route's length"), None);
                match chosen {
                    Objective::Unary => unary_bound(&mut cnf, &ways, keys, cutoff, excess),
                    Objective::Binary => binary_bound(&mut cnf, &ways, keys, truth, excess),
                }
            }
        };
        let solver = config.new_solver(&cnf, progress);
        Ok(OrderModel {
            board,
            legs,
            formula: Recorded::from_parts(cnf, solver),
            truth,
            ways,
            pred,
            rank,
            floor,
            greedy,
            bound,
            best: None,
            proven: false,
        })
    }

    /// The shortest route, or `None` when no route collects every key.
    pub fn shortest(&mut self) -> Result<Option<Vec<Move>>, Error> {
        let Some(greedy) = self.greedy else {
            // No route: the model itself must say so.
            if self.formula.solve()? == Answer::Sat {
                return Err(Error::Internal("the order model has a model but no greedy route exists".into()));
            }
            self.proven = true;
            return Ok(None);
        };
        let mut limit = greedy;
        loop {
            let assumptions: Vec<Lit> = self.bound_literal(limit).into_iter().collect();
            if self.formula.solve_under(&assumptions)? == Answer::Unsat {
                break;
            }
            let route = self.decode()?;
            let steps = route.len() as u64;
            if steps > limit {
                return Err(Error::Internal(format!("a model under the bound {limit} gave a route of {steps} steps")));
            }
            self.best = Some(route);
            if steps == 0 || steps <= self.floor {
                break;
            }
            limit = steps - 1;
        }
        self.proven = true;
        let Some(route) = self.best.clone() else {
            return Err(Error::Internal("the greedy route's bound has no model".into()));
        };
        // The reported formula states the optimum as a bound.
        self.bound_literal(route.len() as u64);
        Ok(Some(route))
    }

    /// The number of distinct shortest move sequences, for one walker.
    pub fn count(&mut self) -> Result<Counted, Error> {
        if self.board.num_walkers() > 1 {
            return Err(Error::Unsupported {
                command: "counting several walkers with sat-keys (it moves whole legs, so it cannot count interleaved \
                          moves; use --engine bfs or sat)",
                kind: super::KIND,
            });
        }
        let Some(route) = self.shortest()? else {
            return Ok(Counted { steps: None, routes: 0, saturated: false, orders: 0 });
        };
        let steps = route.len() as u64;
        if self.board.num_keys() == 0 {
            return Ok(Counted { steps: Some(0), routes: 1, saturated: false, orders: 1 });
        }
        let direct = Legs::new(self.board, Reading::Direct)?;
        let assumptions: Vec<Lit> = self.bound_literal(steps).into_iter().collect();
        let slots: Vec<(usize, usize, Var)> = self
            .pred
            .iter()
            .enumerate()
            .flat_map(|(from, row)| row.iter().enumerate().filter_map(move |(key, p)| p.map(|p| (from, key, p))))
            .collect();
        let projection: Vec<Var> = slots.iter().map(|s| s.2).collect();
        let keys = self.board.num_keys();
        let (mut routes, mut saturated, mut orders) = (0u64, direct.saturated(), 0u64);
        let models =
            ProjectedModels::new(self.formula.solver_mut().ok_or_else(no_solver)?.as_mut(), projection, &assumptions)
                .block_on_true_literals();
        for model in models {
            let model = model?;
            orders += 1;
            let mut next_of = vec![None; keys + 1];
            for (&(from, key, _), _) in slots.iter().zip(&model).filter(|(_, v)| **v) {
                next_of[from] = Some(key);
            }
            // One walker: follow the chain from its start.
            let (mut at, mut held, mut total, mut paths) = (0usize, 0 as KeySet, 0u64, 1u64);
            let mut complete = true;
            for _ in 0..keys {
                let Some(key) = next_of[at] else {
                    complete = false;
                    break;
                };
                let Some((len, ways)) = direct.best(at, key, held) else {
                    complete = false;
                    break;
                };
                total += u64::from(len);
                paths = paths.checked_mul(ways).unwrap_or_else(|| {
                    saturated = true;
                    u64::MAX
                });
                held |= 1 << key;
                at = direct.key_node(key);
            }
            if complete && total == steps {
                routes = routes.checked_add(paths).unwrap_or_else(|| {
                    saturated = true;
                    u64::MAX
                });
            }
        }
        Ok(Counted { steps: Some(steps), routes, saturated: saturated && routes == u64::MAX, orders })
    }

    /// The length of the greedy route the first bound comes from, when a
    /// route exists.
    pub fn greedy_steps(&self) -> Option<u64> {
        self.greedy
    }

    /// The solver's counters.
    pub fn solver_stats(&self) -> SolveStats {
        self.formula.stats()
    }

    /// The formula reports and `--dimacs` show: the model with the total
    /// bounded by the optimum once it is proven (so its models are exactly
    /// the optimal orders), and without a bound when there is no route (so
    /// it is unsatisfiable); before solving, bounded by the greedy route.
    pub fn reported_cnf(&self) -> Cnf {
        let mut cnf = self.formula.cnf().clone();
        if let Some(lit) = self.reported_bound() {
            cnf.open_group(format!("the total is at most {} steps", self.reported_steps().unwrap_or(0)), None);
            cnf.add_clause(&[lit]);
        }
        cnf
    }

    /// The size of [`OrderModel::reported_cnf`]: `(variables, clauses)`.
    pub fn reported_size(&self) -> (usize, usize) {
        let bound = usize::from(self.reported_bound().is_some());
        (self.formula.cnf().num_vars(), self.formula.cnf().num_clauses() + bound)
    }

    fn reported_steps(&self) -> Option<u64> {
        match (&self.best, self.proven) {
            (Some(route), true) => Some(route.len() as u64),
            (_, false) => self.greedy,
            (None, true) => None,
        }
    }

    /// The literal that bounds the reported formula, built into the formula
    /// (not the solver) when it is new.
    fn reported_bound(&self) -> Option<Lit> {
        let steps = self.reported_steps()?;
        match &self.bound {
            Bound::None => None,
            Bound::Unary(total) => total.at_least((steps - self.floor + 1) as usize).map(|l| !l),
            Bound::Binary { selectors, .. } => selectors.iter().find(|(s, _)| *s == steps).map(|(_, l)| *l),
        }
    }

    /// The assumption that bounds the total by `steps`, built when new.
    fn bound_literal(&mut self, steps: u64) -> Option<Lit> {
        let excess = steps.checked_sub(self.floor);
        match &mut self.bound {
            Bound::None => None,
            Bound::Unary(total) => match excess {
                Some(excess) => total.at_least(excess as usize + 1).map(|l| !l),
                None => Some(!self.truth),
            },
            Bound::Binary { sum, selectors } => {
                if let Some(&(_, lit)) = selectors.iter().find(|(s, _)| *s == steps) {
                    return Some(lit);
                }
                let selector = self.formula.new_var();
                self.formula.cnf_mut().name_var(selector, format!("the total is at most {steps} steps"));
                self.formula.cnf_mut().open_group(format!("the total is at most {steps} steps, when assumed"), None);
                match excess {
                    Some(excess) => at_most(&mut self.formula, selector.pos(), sum, excess),
                    None => self.formula.add_clause(&[selector.neg()]),
                }
                selectors.push((steps, selector.pos()));
                Some(selector.pos())
            }
        }
    }

    /// The route of the last model: each key's leg, walked in the order of
    /// the ranks by the walker whose chain holds it, on a shortest path with
    /// the keys held by then; cut at the last pickup.
    fn decode(&self) -> Result<Vec<Move>, Error> {
        let board = self.board;
        let keys = board.num_keys();
        let rank_of = |key: usize| (1..=keys).filter(|&i| self.formula.value(self.rank[key][i])).max().unwrap_or(1);
        let mut order: Vec<usize> = (0..keys).collect();
        order.sort_by_key(|&k| rank_of(k));
        let mut from_of = vec![usize::MAX; keys];
        for way in self.ways.iter().filter(|w| self.formula.value(w.var.pos())) {
            from_of[way.key] = way.from;
        }
        let walker_of = |mut key: usize| {
            for _ in 0..=keys {
                let from = from_of[key];
                match from.checked_sub(self.legs.num_walkers()) {
                    Some(previous) if from != usize::MAX => key = previous,
                    _ => return (from != usize::MAX).then_some(from),
                }
            }
            None
        };
        let mut held: KeySet = 0;
        let mut moves = Vec::new();
        for &key in &order {
            if held == board.all_keys() {
                break;
            }
            let walker = walker_of(key).ok_or_else(|| Error::Internal("a key's chain has no walker".into()))?;
            let from = from_of[key];
            let from_cell = match from.checked_sub(self.legs.num_walkers()) {
                Some(previous) => board.key_cell(previous),
                None => board.starts()[from],
            };
            let path = super::keygraph::shortest_path(board, from_cell, board.key_cell(key), held)
                .ok_or_else(|| Error::Internal("a leg of the order model has no path".into()))?;
            let mut cell = from_cell;
            for dir in path {
                cell =
                    board.neighbours(cell).find(|&(d, _)| d == dir).map(|(_, c)| c).expect("a path stays on the grid");
                moves.push(Move { walker, dir });
                if let Some(bit) = board.key_at(cell) {
                    held |= 1 << bit;
                }
                if held == board.all_keys() {
                    break;
                }
            }
        }
        Ok(moves)
    }
}

/// The legs the model is built on: direct legs (which walk over no key they
/// do not hold, so every key they pass must come earlier: more precedence
/// for the solver) when they are about as few as the legs that may walk
/// over keys, as in mazes without loops; otherwise, as in open rooms where
/// ways round the keys multiply, legs that may walk over keys. Both make
/// the model exact (see the module notes).
fn choose_legs(board: &Board) -> Result<Legs, Error> {
    let direct = Legs::new(board, Reading::Direct)?;
    let pairs = (board.num_walkers() + board.num_keys()) * board.num_keys();
    if direct.num_legs() <= 2 * pairs.max(1) {
        return Ok(direct);
    }
    Legs::new(board, Reading::Doors)
}

/// The ways worth encoding, `alive[from][key]`, and for each key the keys
/// that every route collects before it.
///
/// A key must come after the keys every remaining way into it needs (and
/// the key it starts from, and what those need in turn); a way is dropped
/// when it needs, or starts from, a key that must come after its target,
/// and, with one walker, when some key must come between its ends (one
/// chain holds every key, so its legs join consecutive keys). Dropping
/// ways only shrinks the intersections' domain, so the two steps repeat
/// until nothing changes. Everything dropped is impossible in every route,
/// so the model stays exact; the point is propagation the solver would
/// otherwise have to learn.
fn forced_order(board: &Board, legs: &Legs) -> (Vec<Vec<Vec<Leg>>>, Vec<KeySet>) {
    let keys = board.num_keys();
    let walkers = legs.num_walkers();
    let nodes = walkers + keys;
    let mut alive: Vec<Vec<Vec<Leg>>> = (0..nodes)
        .map(|from| {
            (0..keys)
                .map(|key| legs.legs(from, key).iter().filter(|leg| leg.needs & (1 << key) == 0).copied().collect())
                .collect()
        })
        .collect();
    let mut before: Vec<KeySet> = vec![0; keys];
    loop {
        // Keys before each key, from the ways still alive.
        let mut next: Vec<KeySet> = vec![0; keys];
        for (key, slot) in next.iter_mut().enumerate() {
            let mut common: Option<KeySet> = None;
            for (from, row) in alive.iter().enumerate() {
                let own = from.checked_sub(walkers).map_or(0, |k| 1 << k | before[k]);
                for leg in &row[key] {
                    let needs = (0..keys)
                        .filter(|&d| leg.needs & (1 << d) != 0)
                        .fold(leg.needs | own, |acc, d| acc | before[d]);
                    common = Some(common.map_or(needs, |c| c & needs));
                }
            }
            *slot = common.unwrap_or(0) | before[key];
        }
        loop {
            let mut grew = false;
            for key in 0..keys {
                let widened = (0..keys).filter(|&d| next[key] & (1 << d) != 0).fold(next[key], |acc, d| acc | next[d]);
                if widened != next[key] {
                    next[key] = widened;
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        let mut dropped = false;
        for (from, row) in alive.iter_mut().enumerate() {
            let from_key = from.checked_sub(walkers);
            for (key, ways) in row.iter_mut().enumerate() {
                let kept_before = ways.len();
                ways.retain(|leg| {
                    let after_target = |d: usize| next[d] & (1 << key) != 0;
                    if (0..keys).any(|d| leg.needs & (1 << d) != 0 && after_target(d)) {
                        return false;
                    }
                    match from_key {
                        Some(u) if after_target(u) || u == key => false,
                        Some(u) if walkers == 1 => {
                            // Some key forced after u and before the target.
                            !(0..keys).any(|w| next[key] & (1 << w) != 0 && next[w] & (1 << u) != 0)
                        }
                        None if walkers == 1 => next[key] == 0,
                        _ => true,
                    }
                });
                dropped |= ways.len() != kept_before;
            }
        }
        let settled = next == before;
        before = next;
        if settled && !dropped {
            return (alive, before);
        }
    }
}

/// When `when` holds, rank(before) < rank(after), over order encodings
/// `rank[i]` = "rank ≥ i" for i in 0..=n + 1 (the ends constant).
fn precede(cnf: &mut Cnf, when: Lit, before: &[Lit], after: &[Lit]) {
    let n = before.len() - 2;
    for i in 1..=n {
        cnf.add_clause(&[!when, !before[i], after[i + 1]]);
    }
}

/// The length of a route that always walks, with the walker and key that
/// are nearest, to a key it can reach; `None` when it gets stuck, which
/// happens exactly when no route collects every key (the keys collectable
/// together are closed under union).
fn greedy_total(board: &Board, legs: &Legs) -> Option<u64> {
    let mut at: Vec<usize> = (0..board.num_walkers()).collect();
    let mut held: KeySet = 0;
    let mut total = 0u64;
    while held != board.all_keys() {
        let mut best: Option<(u32, usize, usize)> = None;
        for (walker, &from) in at.iter().enumerate() {
            for key in (0..board.num_keys()).filter(|&k| held & (1 << k) == 0) {
                if let Some((len, _)) = legs.best(from, key, held)
                    && best.is_none_or(|b| len < b.0)
                {
                    best = Some((len, walker, key));
                }
            }
        }
        let (len, walker, key) = best?;
        total += u64::from(len);
        held |= 1 << key;
        at[walker] = legs.key_node(key);
    }
    Some(total)
}

/// Each key's excess over its shortest incoming leg in unary, summed by a
/// totalizer with outputs up to `cutoff`.
fn unary_bound(cnf: &mut Cnf, ways: &[Way], keys: usize, cutoff: u64, excess: impl Fn(&Way) -> u64) -> Bound {
    let mut inputs = Vec::new();
    for key in 0..keys {
        let into: Vec<&Way> = ways.iter().filter(|w| w.key == key).collect();
        let top = into.iter().map(|w| excess(w)).max().unwrap_or(0).min(cutoff) as usize;
        let units: Vec<Var> = cnf.new_vars(top);
        for pair in units.windows(2) {
            cnf.add_clause(&[pair[1].neg(), pair[0].pos()]);
        }
        for way in into {
            let e = excess(way).min(cutoff) as usize;
            if e > 0 {
                cnf.add_clause(&[way.var.neg(), units[e - 1].pos()]);
            }
        }
        inputs.extend(units.iter().map(|u| u.pos()));
    }
    if inputs.is_empty() {
        // Every key's cheapest leg is its only one: nothing to bound.
        let never = cnf.new_var();
        cnf.add_clause(&[never.neg()]);
        return Bound::Unary(Totalizer::build(cnf, &[never.pos()], 1, Bounds::Upper));
    }
    Bound::Unary(Totalizer::build(cnf, &inputs, cutoff as usize, Bounds::Upper))
}

/// Each key's excess in binary (bit b set when the leg taken has it), summed
/// by an adder network into binary digits, least significant first.
fn binary_bound(cnf: &mut Cnf, ways: &[Way], keys: usize, truth: Lit, excess: impl Fn(&Way) -> u64) -> Bound {
    let mut buckets: Vec<Vec<Lit>> = Vec::new();
    for key in 0..keys {
        let into: Vec<&Way> = ways.iter().filter(|w| w.key == key).collect();
        let top = into.iter().map(|w| excess(w)).max().unwrap_or(0);
        let width = (64 - top.leading_zeros()) as usize;
        for bit in 0..width {
            let digit = cnf.new_var();
            for way in into.iter().filter(|w| excess(w) >> bit & 1 == 1) {
                cnf.add_clause(&[way.var.neg(), digit.pos()]);
            }
            if buckets.len() <= bit {
                buckets.resize(bit + 1, Vec::new());
            }
            buckets[bit].push(digit.pos());
        }
    }
    let mut sum = Vec::new();
    let mut bit = 0;
    while bit < buckets.len() {
        while buckets[bit].len() >= 2 {
            let a = buckets[bit].pop().expect("two");
            let b = buckets[bit].pop().expect("two");
            let c = buckets[bit].pop();
            let (s, carry) = add_bits(cnf, a, b, c);
            buckets[bit].insert(0, s);
            if buckets.len() <= bit + 1 {
                buckets.push(Vec::new());
            }
            buckets[bit + 1].push(carry);
        }
        sum.push(buckets[bit].pop().unwrap_or(!truth));
        bit += 1;
    }
    Bound::Binary { sum, selectors: Vec::new() }
}

/// A full adder (or a half adder without `c`): the sum and carry digits.
fn add_bits(cnf: &mut impl ClauseSink, a: Lit, b: Lit, c: Option<Lit>) -> (Lit, Lit) {
    let s = cnf.new_var().pos();
    let carry = cnf.new_var().pos();
    match c {
        Some(c) => {
            // s = a xor b xor c
            for mask in 0..8u8 {
                let pick = |lit: Lit, bit: u8| if mask >> bit & 1 == 1 { lit } else { !lit };
                let odd = mask.count_ones() % 2 == 1;
                cnf.add_clause(&[!pick(a, 0), !pick(b, 1), !pick(c, 2), if odd { s } else { !s }]);
            }
            // carry = at least two of a, b, c
            for (x, y) in [(a, b), (a, c), (b, c)] {
                cnf.add_clause(&[!x, !y, carry]);
                cnf.add_clause(&[x, y, !carry]);
            }
        }
        None => {
            cnf.add_clause(&[!a, !b, !s]);
            cnf.add_clause(&[a, b, !s]);
            cnf.add_clause(&[!a, b, s]);
            cnf.add_clause(&[a, !b, s]);
            cnf.add_clause(&[!a, !b, carry]);
            cnf.add_clause(&[a, !carry]);
            cnf.add_clause(&[b, !carry]);
        }
    }
    (s, carry)
}

/// When `selector` holds, the binary number `sum` (least significant digit
/// first) is at most `limit`: for each 0 digit of the limit, that digit of
/// the sum is 0 or some higher 1 digit of the limit is 0 in the sum.
fn at_most(cnf: &mut impl ClauseSink, selector: Lit, sum: &[Lit], limit: u64) {
    for i in 0..sum.len() {
        if limit >> i & 1 == 1 {
            continue;
        }
        let mut clause = vec![!selector, !sum[i]];
        clause.extend((i + 1..sum.len()).filter(|&j| limit >> j & 1 == 1).map(|j| !sum[j]));
        cnf.add_clause(&clause);
    }
}

fn no_solver() -> SolverError {
    SolverError::Backend("the order model has no solver".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::keys_doors::{KeysDoorsPuzzle, bfs, check};

    fn steps(picture: &str, objective: Objective) -> (Option<u64>, Option<u64>) {
        let puzzle = KeysDoorsPuzzle::from_picture(picture).unwrap();
        let board = Board::new(&puzzle);
        let mut model = OrderModel::with_objective(&board, &SolverConfig::default(), None, Some(objective)).unwrap();
        let route = model.shortest().unwrap();
        if let Some(route) = &route {
            check(&puzzle, route).unwrap();
        }
        (route.map(|r| r.len() as u64), bfs::search(&board, false).steps)
    }

    #[test]
    fn both_objectives_match_bfs_on_the_lesson_grids_and_tricky_legs() {
        let grids = [
            "@..a",
            "#a##\n@.Ab",
            "@.a..",
            "@.A.a",
            "@.a..\n###.#\nb.A.B",
            "@abc",
            "a.@.b",
            "@Ab\n.#.\na..",
            "@.#\n.b.\n.Aa",
            "a.@#@Ab",
            "a.@#@..b",
            "@ab#@",
            "@.A#@#a",
            "@.#\n.A.",
            // The leg to 'c' passes 'b' and then door B: 'b' is collected en route.
            "@.b.B.c\n#a#####",
        ];
        for picture in grids {
            for objective in [Objective::Unary, Objective::Binary] {
                let (found, reference) = steps(picture, objective);
                assert_eq!(found, reference, "{objective:?} on\n{picture}");
            }
        }
    }

    #[test]
    fn the_adder_and_comparator_agree_with_arithmetic() {
        use crate::solver::new_solver;
        for limit in 0..12u64 {
            let mut cnf = Cnf::new();
            let truth = cnf.new_var().pos();
            cnf.add_clause(&[truth]);
            let inputs: Vec<Lit> = cnf.new_vars(5).into_iter().map(|v| v.pos()).collect();
            // Weights 1, 1, 2, 3, 5 in buckets by bit.
            let weights = [1u64, 1, 2, 3, 5];
            let mut buckets: Vec<Vec<Lit>> = vec![Vec::new(); 3];
            for (lit, w) in inputs.iter().zip(weights) {
                for (bit, bucket) in buckets.iter_mut().enumerate() {
                    if w >> bit & 1 == 1 {
                        bucket.push(*lit);
                    }
                }
            }
            let mut sum = Vec::new();
            let mut bit = 0;
            while bit < buckets.len() {
                while buckets[bit].len() >= 2 {
                    let a = buckets[bit].pop().unwrap();
                    let b = buckets[bit].pop().unwrap();
                    let c = buckets[bit].pop();
                    let (s, carry) = add_bits(&mut cnf, a, b, c);
                    buckets[bit].insert(0, s);
                    if buckets.len() <= bit + 1 {
                        buckets.push(Vec::new());
                    }
                    buckets[bit + 1].push(carry);
                }
                sum.push(buckets[bit].pop().unwrap_or(!truth));
                bit += 1;
            }
            let selector = cnf.new_var().pos();
            at_most(&mut cnf, selector, &sum, limit);
            let mut solver = new_solver(&cnf, None);
            for mask in 0..32u32 {
                let total: u64 = weights.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, w)| w).sum();
                let mut assumptions: Vec<Lit> =
                    inputs.iter().enumerate().map(|(i, &l)| if mask >> i & 1 == 1 { l } else { !l }).collect();
                assumptions.push(selector);
                let expected = if total <= limit { Answer::Sat } else { Answer::Unsat };
                assert_eq!(solver.solve_under(&assumptions).unwrap(), expected, "limit {limit} mask {mask:b}");
            }
        }
    }

    #[test]
    fn counts_match_bfs_and_several_walkers_are_refused() {
        for picture in ["a.@.b", "@..\n.b.\n..a", "@Ab\n.#.\na..", "@...\n....\n...a", "@.b.B.c\n#a#####"] {
            let puzzle = KeysDoorsPuzzle::from_picture(picture).unwrap();
            let board = Board::new(&puzzle);
            let counted = OrderModel::new(&board, &SolverConfig::default(), None).unwrap().count().unwrap();
            let reference = bfs::search(&board, false);
            assert_eq!((counted.steps, counted.routes), (reference.steps, reference.routes), "{picture}");
        }
        let board = Board::new(&KeysDoorsPuzzle::from_picture("a@#@b").unwrap());
        let refused = OrderModel::new(&board, &SolverConfig::default(), None).unwrap().count();
        assert!(matches!(refused, Err(Error::Unsupported { .. })));
    }
}

#[cfg(test)]
mod examples {
    #[test]
    fn ordermodel() {
        use crate::puzzles::keys_doors::{Board, KeysDoorsPuzzle, sat_keys::OrderModel};
        use crate::solver::SolverConfig;
        let puzzle = KeysDoorsPuzzle::from_picture("@.a..\n###.#\nb.A.B").unwrap();
        let board = Board::new(&puzzle);
        let mut model = OrderModel::new(&board, &SolverConfig::default(), None).unwrap();
        assert_eq!(model.shortest().unwrap().unwrap().len(), 8);
    }
}

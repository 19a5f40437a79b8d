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
//! assumptions. Three encodings of the bound are built on the same model:
//!
//! - [`Objective::Cuts`], for one walker: each leg's length split into the
//!   bridges of the grid it crosses and the rest; the bridges a route must
//!   cross, by the order every route follows, make a floor close to the
//!   optimum on mazes, and a sequential weight counter bounds what lies
//!   above it (see [`CutPlan`]). Chosen whenever it is small enough.
//! - [`Objective::Unary`]: each key's incoming leg costs at least the
//!   shortest leg into it, and each key's excess over that floor in unary
//!   is summed by a totalizer cut off above the first bound; a tighter
//!   bound is one more assumption. Strong propagation, size grows with
//!   excess × bound; chosen when small.
//! - [`Objective::Binary`]: each key's excess in binary, summed by an adder
//!   network; each tighter bound adds a comparator behind a fresh selector
//!   that is assumed. Compact at any length.
//!
//! The first route comes without SAT ([`super::heuristic`]: a greedy walk
//! to the nearest collectable key, improved by moving pickups in the order);
//! its length is the first bound, each model found gives a shorter route,
//! and the next bound is one step shorter than the best route, until the
//! call is unsatisfiable or the best route reaches the floor. The answer is
//! the last route, proven shortest by that call.
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
use super::bridges;
use super::heuristic::{self, Order};
use super::legs::{Leg, Legs, Reading};
use crate::cnf::card::{self, Bounds, Totalizer, WeightedCounter};
use crate::cnf::{ClauseSink, Cnf, Lit, Var};
use crate::puzzles::Error;
use crate::solver::{Answer, Progress, ProjectedModels, Recorded, Solve, SolveStats, SolverConfig, SolverError};

/// The largest unary objective (inputs × cut-off) chosen without being asked.
const UNARY_LIMIT: u64 = 4_000_000;

/// The bound over bridges is chosen without being asked when the floor is
/// within 1/NEAR_FLOOR of the heuristic route: refutations near the floor
/// are then cheap, and the search for the optimum starts from below.
const NEAR_FLOOR: u64 = 16;

/// How the bound on the total is encoded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Unary excesses and a totalizer.
    Unary,
    /// Binary excesses and an adder network.
    Binary,
    /// One walker: the bridges each leg crosses and the rest of each leg,
    /// above a floor from the order every route must follow, under a
    /// sequential weight counter; see [`cut_bound`].
    Cuts,
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
    /// The total is `base + scale × (the counter's sum)`, and no less than
    /// `floor`.
    Cuts {
        counter: WeightedCounter,
        base: u64,
        floor: u64,
        scale: u64,
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
    /// A route found without SAT, when one exists: its order and total.
    heuristic: Option<Order>,
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
        let (alive, before) = forced_order(board, &legs);
        let (ways, pred) = new_ways(&mut cnf, board, &legs, &alive);
        let rank = new_ranks(&mut cnf, board, truth);
        let vars = OrderVars { ways: &ways, pred: &pred, rank: &rank, before: &before, truth };
        add_order(&mut cnf, &legs, &vars);
        let (floor, heuristic, bound) = choose_bound(&mut cnf, board, &legs, objective, &vars)?;
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
            heuristic,
            bound,
            best: None,
            proven: false,
        })
    }

    /// The shortest route, or `None` when no route collects every key.
    pub fn shortest(&mut self) -> Result<Option<Vec<Move>>, Error> {
        let Some(first) = self.heuristic_steps() else {
            // No route: the model itself must say so.
            if self.formula.solve()? == Answer::Sat {
                return Err(Error::Internal("the order model has a model but the greedy walk got stuck".into()));
            }
            self.proven = true;
            return Ok(None);
        };
        match self.bound {
            Bound::Cuts { .. } => self.search_from_the_floor()?,
            _ => self.descend(first)?,
        }
        self.proven = true;
        let Some(route) = self.best.clone() else {
            return Err(Error::Internal("the heuristic route is lost".into()));
        };
        // The reported formula states the optimum as a bound.
        self.bound_literal(route.len() as u64);
        Ok(Some(route))
    }

    /// Searches between the floor and the heuristic route's length, halving
    /// the gap with each call: near a close floor refutations are cheap,
    /// and a call well below the heuristic route finds a short one fast.
    fn search_from_the_floor(&mut self) -> Result<(), Error> {
        let Some(order) = &self.heuristic else { return Ok(()) };
        let picks: Vec<(usize, usize, usize)> = order
            .picks
            .iter()
            .scan(vec![None; self.legs.num_walkers()], |last, &(walker, key)| {
                let from = last[walker].map_or(walker, |k| self.legs.key_node(k));
                last[walker] = Some(key);
                Some((walker, from, key))
            })
            .collect();
        let route = self.walk(&picks)?;
        // No model is shorter than `lower`; the best route has `upper` steps.
        let (mut lower, mut upper) = (self.least_total(), route.len() as u64);
        self.best = Some(route);
        while lower < upper {
            let limit = lower + (upper - 1 - lower) / 2;
            match self.improve_under(limit)? {
                Some(steps) => upper = steps,
                None => lower = limit + 1,
            }
        }
        Ok(())
    }

    /// Tightens the bound from `first` one step below each route found,
    /// until a call is unsatisfiable or a route reaches the floor.
    fn descend(&mut self, first: u64) -> Result<(), Error> {
        let mut limit = first;
        while let Some(steps) = self.improve_under(limit)? {
            if steps == 0 || steps <= self.least_total() {
                break;
            }
            limit = steps - 1;
        }
        Ok(())
    }

    /// The length of a route of at most `limit` steps, kept as the best, or
    /// `None` when no model is that short.
    fn improve_under(&mut self, limit: u64) -> Result<Option<u64>, Error> {
        let assumptions: Vec<Lit> = self.bound_literal(limit).into_iter().collect();
        if self.formula.solve_under(&assumptions)? == Answer::Unsat {
            return Ok(None);
        }
        let route = self.decode()?;
        let steps = route.len() as u64;
        if steps > limit {
            return Err(Error::Internal(format!("a model under the bound {limit} gave a route of {steps} steps")));
        }
        self.best = Some(route);
        Ok(Some(steps))
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

    /// A total no model can beat: the larger of the two floors.
    fn least_total(&self) -> u64 {
        match &self.bound {
            Bound::Cuts { floor, .. } => self.floor.max(*floor),
            _ => self.floor,
        }
    }

    /// The length of the heuristic route the first bound comes from, when a
    /// route exists.
    pub fn heuristic_steps(&self) -> Option<u64> {
        self.heuristic.as_ref().map(|order| order.total)
    }

    /// The solver's counters.
    pub fn solver_stats(&self) -> SolveStats {
        self.formula.stats()
    }

    /// The formula reports and `--dimacs` show: the model with the total
    /// bounded by the optimum once it is proven (so its models are exactly
    /// the optimal orders), and without a bound when there is no route (so
    /// it is unsatisfiable); before solving, bounded by the heuristic route.
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
            (_, false) => self.heuristic_steps(),
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
            Bound::Cuts { .. } => self.cut_literal(steps),
        }
    }

    /// The assumption that bounds the total by `steps` under
    /// [`Objective::Cuts`]: the counter's sum is at most `(steps − base) /
    /// scale`, rounded down; false below the base.
    fn cut_literal(&self, steps: u64) -> Option<Lit> {
        let Bound::Cuts { counter, base, scale, .. } = &self.bound else { return None };
        match steps.checked_sub(*base) {
            Some(excess) => counter.at_least(excess / scale + 1).map(|l| !l),
            None => Some(!self.truth),
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
            Bound::Cuts { .. } => self.cut_literal(steps),
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
        let picks = order
            .iter()
            .map(|&key| {
                let walker = walker_of(key).ok_or_else(|| Error::Internal("a key's chain has no walker".into()))?;
                Ok((walker, from_of[key], key))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        self.walk(&picks)
    }

    /// The route that walks each pickup `(walker, from node, key)` in turn
    /// on a shortest path with the keys held by then, cut at the last
    /// pickup.
    fn walk(&self, picks: &[(usize, usize, usize)]) -> Result<Vec<Move>, Error> {
        let board = self.board;
        let mut held: KeySet = 0;
        let mut moves = Vec::new();
        for &(walker, from, key) in picks {
            if held == board.all_keys() {
                break;
            }
            let from_cell = match from.checked_sub(self.legs.num_walkers()) {
                Some(previous) => board.key_cell(previous),
                None => board.starts()[from],
            };
            let path = board
                .shortest_path(from_cell, board.key_cell(key), held)
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
/// The name of a node of the leg graph: a walker's start or a key.
fn node_name(board: &Board, legs: &Legs, node: usize) -> String {
    match node.checked_sub(legs.num_walkers()) {
        Some(key) => format!("key '{}'", board.key_letters()[key]),
        None => format!("walker {node}'s start"),
    }
}

/// A variable per way into each key from each node (`ways`), and per
/// pair of nodes that a leg may join (`pred[from][key]`).
fn new_ways(cnf: &mut Cnf, board: &Board, legs: &Legs, alive: &[Vec<Vec<Leg>>]) -> (Vec<Way>, Vec<Vec<Option<Var>>>) {
    let keys = board.num_keys();
    let nodes = legs.num_walkers() + keys;
    let letter = |key: usize| board.key_letters()[key];
    let node_name = |node: usize| node_name(board, legs, node);
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
    (ways, pred)
}

/// Each key's rank in the order of collection, in unary (`rank[key][i]`:
/// collected i-th or later), with the clauses that make it a permutation.
fn new_ranks(cnf: &mut Cnf, board: &Board, truth: Lit) -> Vec<Vec<Lit>> {
    let keys = board.num_keys();
    let letter = |key: usize| board.key_letters()[key];
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

    rank
}

/// The variables of the order model, for the clauses between them.
struct OrderVars<'a> {
    ways: &'a [Way],
    pred: &'a [Vec<Option<Var>>],
    rank: &'a [Vec<Lit>],
    before: &'a [KeySet],
    truth: Lit,
}

/// The clauses that make the legs one route per walker in the order of
/// the ranks, doors after their keys.
fn add_order(cnf: &mut Cnf, legs: &Legs, order: &OrderVars<'_>) {
    let OrderVars { ways, pred, rank, before, truth } = *order;
    let keys = rank.len();
    cnf.open_group("each key is reached by exactly one leg", None);
    for key in 0..keys {
        let into: Vec<Lit> = ways.iter().filter(|w| w.key == key).map(|w| w.var.pos()).collect();
        card::exactly_one(cnf, &into);
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
    for row in pred {
        let out: Vec<Lit> = row.iter().flatten().map(|p| p.pos()).collect();
        card::at_most_one(cnf, &out);
    }
    cnf.open_group("a leg from a key comes after that key", None);
    for from_key in 0..keys {
        for (key, p) in pred[legs.key_node(from_key)].iter().enumerate() {
            if let Some(p) = p {
                precede(cnf, p.pos(), &rank[from_key], &rank[key]);
            }
        }
    }
    cnf.open_group("keys that every way into a key needs come before it (implied, stated for propagation)", None);
    for (key, &needed) in before.iter().enumerate() {
        for earlier in (0..keys).filter(|&d| needed & (1 << d) != 0) {
            precede(cnf, truth, &rank[earlier], &rank[key]);
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
    for way in ways {
        for needed in (0..keys).filter(|&d| way.needs & (1 << d) != 0) {
            precede(cnf, way.var.pos(), &rank[needed], &rank[way.key]);
        }
    }
}

/// The bound on the total from the heuristic route, in the objective
/// encoding asked for or chosen by size: the floor of the total, the
/// heuristic route, and the bound.
fn choose_bound(
    cnf: &mut Cnf,
    board: &Board,
    legs: &Legs,
    objective: Option<Objective>,
    order: &OrderVars<'_>,
) -> Result<(u64, Option<Order>, Bound), Error> {
    let OrderVars { ways, pred, rank, before, truth } = *order;
    let keys = rank.len();
    let floor_of = |key: usize| ways.iter().filter(|w| w.key == key).map(|w| w.len).min();
    let floor: u64 = (0..keys).map(|k| u64::from(floor_of(k).unwrap_or(0))).sum();
    let greedy = heuristic::greedy(board, legs);
    let plan = CutPlan::new(board, legs.num_walkers(), ways, pred, rank, before)?;
    // The bound over bridges when its floor is close to an improved
    // route, as on mazes; otherwise the greedy route and a bound over
    // whole legs, whose floor is far below the optimum.
    let improved = greedy.clone().map(|order| heuristic::improve(legs, order));
    let cuts_fit = match (&plan, &improved) {
        (Some(plan), Some(order)) => {
            order.total - plan.floor.min(order.total) <= order.total / NEAR_FLOOR
                && plan.size(order.total) <= UNARY_LIMIT
        }
        _ => false,
    };
    let chosen = objective.or(cuts_fit.then_some(Objective::Cuts));
    let heuristic = if chosen == Some(Objective::Cuts) { improved } else { greedy };
    let bound = match &heuristic {
        None => Bound::None,
        Some(order) => {
            let first = order.total;
            let cutoff = first - floor + 1;
            let excess = |way: &Way| u64::from(way.len - floor_of(way.key).expect("a way into the key"));
            let unary_size: u64 = (0..keys)
                .map(|k| ways.iter().filter(|w| w.key == k).map(excess).max().unwrap_or(0).min(cutoff))
                .sum::<u64>()
                * cutoff;
            let by_size = if unary_size <= UNARY_LIMIT { Objective::Unary } else { Objective::Binary };
            cnf.open_group(format!("the total is at most {first} steps, the heuristic route's length"), None);
            match (chosen.unwrap_or(by_size), plan) {
                (Objective::Cuts, Some(plan)) => plan.encode(cnf, first)?,
                (Objective::Cuts, None) => {
                    return Err(Error::Internal("the bound over bridges is for one walker".into()));
                }
                (Objective::Unary, _) => unary_bound(cnf, ways, keys, cutoff, excess),
                (Objective::Binary, _) => binary_bound(cnf, ways, keys, truth, excess),
            }
        }
    };
    Ok((floor, heuristic, bound))
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
    // With one walker the keys guarding each key on the grid start the
    // sets: from the ways alone, keys behind one door could each be reached
    // from another behind it, and the door's key would never be found to
    // come first, which the floor over bridges needs. With several walkers
    // the sets start empty: the ways they would prune tip the objective to
    // a unary one that is slower there (a four-walker vault: 18 s, not 3 s).
    let mut before: Vec<KeySet> = if walkers == 1 { board.guarding_keys() } else { vec![0; keys] };
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

/// The bound of [`Objective::Cuts`], planned before it is encoded.
///
/// With one walker the legs form one chain from the start through every key
/// in the order of collection. Each leg is a path that visits no cell twice
/// (a way that does is beaten by the same way without the loop), so it
/// crosses once each bridge between its ends and no other
/// ([`super::bridges`]). The total is therefore, exactly,
///
///   Σ over groups of bridges: (their steps) × (legs crossing them)
///   + Σ over keys: the rest of the leg into the key,
///
/// where the rest is the leg's length less its bridges. A group is crossed
/// once for each switch of side in the order of collection (the start on
/// the near side), and every order the model allows keeps the precedences
/// of `before`, so a group is crossed at least as often as the sides switch
/// along the longest chain of those precedences, and the key collected
/// last ends every chain. Only keys that no key needs before it can be
/// last, often one or two. Each group's crossings are counted by a
/// totalizer over the legs that cross it, and each key that may be last
/// implies the least count that its being last forces.
///
/// The counter sums each group's crossings above the least over the keys
/// that may be last, and each key's rest above its least rest; with those
/// least values it makes the base of the total. It needs to count only up
/// to the heuristic route's excess over the base, which on vaults (mazes
/// without loops but for the centre) is a few percent of the total. The
/// floor, the least total, takes the best key to end on.
struct CutPlan {
    /// The total when the counter's sum is 0.
    base: u64,
    /// Steps no model can go below: at least `base`.
    floor: u64,
    groups: Vec<BridgeGroup>,
    /// "This key is collected last", for each key that may be.
    lasts: Vec<Lit>,
    /// Per key: each way into it whose rest exceeds the least rest into that
    /// key, with the excess.
    rests: Vec<Vec<(Lit, u64)>>,
}

/// A group of bridges with the same keys beyond them, as the bound over
/// bridges counts it.
struct BridgeGroup {
    /// The legs that cross it.
    crossing: Vec<Lit>,
    /// The fewest crossings every model makes.
    least: u64,
    /// The number of bridges in the group.
    steps: u64,
    /// "This key is last" and the crossings that forces, where that is
    /// more than `least`.
    forced: Vec<(Lit, u64)>,
}

impl CutPlan {
    /// The plan for one walker; `None` for several, whose legs form several
    /// chains.
    fn new(
        board: &Board,
        walkers: usize,
        ways: &[Way],
        pred: &[Vec<Option<Var>>],
        rank: &[Vec<Lit>],
        before: &[KeySet],
    ) -> Result<Option<CutPlan>, Error> {
        if walkers != 1 {
            return Ok(None);
        }
        let keys = board.num_keys();
        let cuts = bridges::cuts(board, board.start());
        // Node 0 is the start, on the near side of every bridge.
        let far = |far: KeySet, node: usize| node.checked_sub(1).is_some_and(|key| far >> key & 1 == 1);
        let needed = before.iter().fold(0, |acc, &b| acc | b);
        let mut may_end: Vec<usize> = (0..keys).filter(|&k| needed >> k & 1 == 0).collect();
        if may_end.is_empty() {
            // Precedences in a cycle: no route, and any key bounds as well.
            may_end = (0..keys).collect();
        }
        let (mut base, mut by_end) = (0u64, vec![0u64; may_end.len()]);
        let mut groups = Vec::with_capacity(cuts.len());
        for cut in &cuts {
            let crossing: Vec<Lit> = pred
                .iter()
                .enumerate()
                .flat_map(|(from, row)| row.iter().enumerate().map(move |(key, p)| (from, key, p)))
                .filter(|&(from, key, _)| far(cut.far, from) != far(cut.far, key + 1))
                .filter_map(|(_, _, p)| p.map(|p| p.pos()))
                .collect();
            let steps = u64::from(cut.steps);
            let ending: Vec<u64> = may_end.iter().map(|&z| u64::from(least_crossings(cut.far, before, z))).collect();
            let least = ending.iter().copied().min().unwrap_or(0);
            base += least * steps;
            for (total, &crossings) in by_end.iter_mut().zip(&ending) {
                *total += crossings * steps;
            }
            let forced = may_end
                .iter()
                .zip(&ending)
                .filter(|&(_, &crossings)| crossings > least)
                .map(|(&z, &crossings)| (rank[z][keys], crossings))
                .collect();
            groups.push(BridgeGroup { crossing, least, steps, forced });
        }
        let mut floor = by_end.into_iter().min().unwrap_or(0);
        let mut rests = vec![Vec::new(); board.num_keys()];
        for (key, rest) in rests.iter_mut().enumerate() {
            let mut into: Vec<(Lit, u64)> = Vec::new();
            for way in ways.iter().filter(|w| w.key == key) {
                let crossed: u32 =
                    cuts.iter().filter(|c| far(c.far, way.from) != far(c.far, key + 1)).map(|c| c.steps).sum();
                let left = way
                    .len
                    .checked_sub(crossed)
                    .ok_or_else(|| Error::Internal(format!("a way of {} steps crosses {crossed} bridges", way.len)))?;
                into.push((way.var.pos(), u64::from(left)));
            }
            let least = into.iter().map(|&(_, left)| left).min().unwrap_or(0);
            base += least;
            floor += least;
            *rest = into.into_iter().filter(|&(_, left)| left > least).map(|(lit, left)| (lit, left - least)).collect();
        }
        let lasts = may_end.iter().map(|&z| rank[z][keys]).collect();
        Ok(Some(CutPlan { base, floor, groups, lasts, rests }))
    }

    /// About how many clauses the counter takes under the bound `first`.
    fn size(&self, first: u64) -> u64 {
        let budget = first.saturating_sub(self.base) + 1;
        let levels: u64 = self.groups.iter().map(|group| budget / group.steps + 1).sum::<u64>()
            + self.rests.iter().map(|r| r.len() as u64).sum::<u64>();
        (levels + self.groups.len() as u64 + self.rests.len() as u64) * budget
    }

    /// Encodes the counter up to the bound `first`, a route's length.
    fn encode(self, cnf: &mut Cnf, first: u64) -> Result<Bound, Error> {
        if self.floor > first {
            let floor = self.floor;
            return Err(Error::Internal(format!("the floor over bridges, {floor}, is above a route of {first} steps")));
        }
        let budget = first - self.base;
        cnf.open_group("some key that no key needs first is collected last (implied)", None);
        cnf.add_clause(&self.lasts);
        let mut terms: Vec<Vec<(Lit, u64)>> = Vec::new();
        for BridgeGroup { crossing, least, steps, forced } in &self.groups {
            // Enough outputs to see the budget exceeded.
            let extra = budget / steps + 1;
            let top = forced.iter().map(|&(_, crossings)| crossings).fold(least + extra, u64::max);
            let count = Totalizer::build(cnf, crossing, top as usize, Bounds::Upper);
            for &(last, crossings) in forced {
                match count.at_least(crossings as usize) {
                    Some(lit) => cnf.add_clause(&[!last, lit]),
                    None => cnf.add_clause(&[!last]),
                }
            }
            let term: Vec<(Lit, u64)> =
                (1..=extra).map_while(|j| count.at_least((least + j) as usize).map(|lit| (lit, j * steps))).collect();
            terms.push(term);
        }
        terms.extend(self.rests);
        let scale = terms.iter().flatten().fold(0, |g, &(_, value)| gcd(g, value)).max(1);
        for (_, value) in terms.iter_mut().flatten() {
            *value /= scale;
        }
        let counter = WeightedCounter::build(cnf, &terms, budget / scale + 1);
        Ok(Bound::Cuts { counter, base: self.base, floor: self.floor, scale })
    }
}

/// The fewest times an order allowed by `before` (each key's set of keys
/// that come before it, closed under itself) that ends on key `last`
/// switches between the keys in `far` and the rest, starting on the near
/// side: the most switches along a chain of precedences followed by
/// `last`, since such an order holds every such chain as a subsequence and
/// a subsequence switches no more often.
fn least_crossings(far: KeySet, before: &[KeySet], last: usize) -> u32 {
    let mut order: Vec<usize> = (0..before.len()).collect();
    // A key's predecessors have strictly fewer predecessors of their own.
    order.sort_by_key(|&key| before[key].count_ones());
    let mut most = vec![0u32; before.len()];
    for &key in &order {
        let side = far >> key & 1 == 1;
        most[key] = (0..before.len())
            .filter(|&d| before[key] >> d & 1 == 1)
            .map(|d| most[d] + u32::from((far >> d & 1 == 1) != side))
            .fold(u32::from(side), u32::max);
    }
    let on_far = |key: usize| far >> key & 1 == 1;
    (0..before.len())
        .filter(|&key| key != last)
        .map(|key| most[key] + u32::from(on_far(key) != on_far(last)))
        .fold(u32::from(on_far(last)), u32::max)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
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
    fn every_objective_matches_bfs_on_the_lesson_grids_and_tricky_legs() {
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
            let one_walker = picture.matches('@').count() == 1;
            for objective in [Objective::Unary, Objective::Binary, Objective::Cuts] {
                if objective == Objective::Cuts && !one_walker {
                    continue;
                }
                let (found, reference) = steps(picture, objective);
                assert_eq!(found, reference, "{objective:?} on\n{picture}");
            }
        }
    }

    /// Mazes without loops and with a few (bridges everywhere or almost),
    /// with many doors: every objective's fewest steps against bfs.
    #[test]
    fn every_objective_matches_bfs_on_mazes_with_and_without_loops() {
        use crate::puzzles::keys_doors::maze;
        for seed in 0..60 {
            let picture =
                maze::generate(9 + 2 * (seed as usize % 3), 11, 3 + seed as usize % 6, seed as usize % 4 * 5, seed)
                    .unwrap();
            for objective in [Objective::Unary, Objective::Binary, Objective::Cuts] {
                let (found, reference) = steps(&picture, objective);
                assert_eq!(found, reference, "{objective:?} on seed {seed}\n{picture}");
            }
        }
    }

    /// The floor over bridges never exceeds the fewest steps, and on mazes
    /// without loops it is most of them.
    #[test]
    fn the_floor_over_bridges_is_a_lower_bound() {
        use crate::puzzles::keys_doors::maze;
        let (mut floors, mut optima) = (0u64, 0u64);
        for seed in 0..60 {
            let picture = maze::generate(11, 13, 2 + seed as usize % 7, seed as usize % 3 * 10, seed).unwrap();
            let puzzle = KeysDoorsPuzzle::from_picture(&picture).unwrap();
            let board = Board::new(&puzzle);
            let model =
                OrderModel::with_objective(&board, &SolverConfig::default(), None, Some(Objective::Cuts)).unwrap();
            let optimum = bfs::search(&board, false).steps.unwrap();
            assert!(model.least_total() <= optimum, "floor {} above {optimum} on\n{picture}", model.least_total());
            if seed % 3 == 0 {
                floors += model.least_total();
                optima += optimum;
            }
        }
        assert!(floors * 10 >= optima * 9, "floors {floors} against optima {optima} on mazes without loops");
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

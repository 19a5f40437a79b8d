//! The planning engine: a CNF that says "a route of exactly T steps collects
//! the last key on its last step", grown one step at a time on one solver.
//!
//! Variables, for each step t from 0 to the horizon:
//!
//! - `at(t, w, c)`: walker w stands on cell c after t steps. Only cells that
//!   the open grid (every door with a key in the grid open) reaches from w's
//!   start in t steps or fewer get a variable; with one walker, only those
//!   with the parity of t as well: the grid is bipartite and every step
//!   changes colour.
//! - `moves(t, w)`, with several walkers: walker w makes step t.
//! - `held(t, k)`: key k is held after t steps.
//! - `goal(t)`: every key is held after step t, and some key was missing
//!   after step t − 1, so the route ends on the pickup of the last key.
//!
//! Rules, for each step t → t + 1: each walker on exactly one cell; with
//! several walkers exactly one of them moves and the others stay put; a
//! moving walker on c moves to one of c's open neighbours, and one on c came
//! from one of them; standing on a door needs its key held at t (keys are
//! never lost, so this covers walkers that entered it earlier);
//! `held(t + 1, k)` ⇔ `held(t, k)` or some walker on the cell of k.
//!
//! Each horizon T is one SAT call assuming `goal(T)`; the clauses of earlier
//! horizons stay and only step T is added, so the first satisfiable horizon
//! is the fewest steps. Calls start at the farthest key's distance from its
//! nearest walker in the open grid, below which no route fits. "No solution" is proven by reaching
//! [`horizon_bound`] with every call unsatisfiable.

use std::sync::Arc;

use super::Move;
use super::board::{Access, Board};
use crate::cnf::ClauseSink;
use crate::cnf::{Cnf, Lit, Var, card};
use crate::puzzles::Error;
use crate::solver::{Answer, Progress, ProjectedModels, Recorded, Solve, SolveStats, SolverConfig, SolverError};

/// The most variables the plan may grow to before the engine gives up with
/// an error rather than exhaust memory.
pub const MAX_VARIABLES: usize = 40_000_000;

/// The longest horizon that can hold a shortest route: keys × (cells of the
/// open grid − 1).
///
/// A shortest route splits at its pickups into one leg per key (with several
/// walkers, after moving each walker's moves to just before its next pickup,
/// which keeps the route legal). Within a leg the keys held do not change,
/// so the leg is a shortest path between its ends among the cells those keys
/// open (a shorter path would give a shorter route); a shortest path visits
/// no cell twice, and every cell it visits is in the open grid, so a leg has
/// at most (open cells − 1) steps.
pub fn horizon_bound(board: &Board) -> u64 {
    let distances: Vec<Vec<u32>> = board.starts().iter().map(|&s| board.open_distances_from(s)).collect();
    let open_cells = (0..board.num_cells()).filter(|&c| distances.iter().any(|d| d[c] != u32::MAX)).count() as u64;
    board.num_keys() as u64 * (open_cells - 1)
}

/// The fewest steps any route could take: the farthest key from its nearest
/// walker with every door open (0 when a key is out of every walker's reach,
/// which the bound then refutes).
pub fn first_useful_horizon(board: &Board) -> u64 {
    let distances: Vec<Vec<u32>> = board.starts().iter().map(|&s| board.open_distances_from(s)).collect();
    (0..board.num_keys())
        .map(|k| distances.iter().map(|d| d[board.key_cell(k)]).min().unwrap_or(u32::MAX))
        .filter(|&d| d != u32::MAX)
        .max()
        .map_or(0, u64::from)
}

/// The growing formula and the solver that holds it.
pub struct Planner<'b> {
    board: &'b Board,
    /// The cells some walker can reach in the open grid; a cell's slot is
    /// its index here.
    cells: Vec<usize>,
    /// `first_step[w][slot]`: steps from walker w's start to the slot in the
    /// open grid, `u32::MAX` out of its reach.
    first_step: Vec<Vec<u32>>,
    /// Each board cell's slot, if it is in the open grid.
    slot_of: Vec<Option<usize>>,
    /// `at[t][w][slot]`, `None` where walker w cannot be at step t.
    at: Vec<Vec<Vec<Option<Var>>>>,
    /// `moves[t][w]` for t ≥ 1, with several walkers.
    moves: Vec<Vec<Var>>,
    held: Vec<Vec<Var>>,
    goal: Vec<Var>,
    /// The formula and the solver it is fed to, in step.
    formula: Recorded,
    bound: u64,
}

impl<'b> Planner<'b> {
    /// The formula for horizon 0, loaded into a fresh solver of `config`
    /// that counts its calls in `progress`.
    pub fn new(board: &'b Board, config: &SolverConfig, progress: Option<Arc<Progress>>) -> Planner<'b> {
        Planner::with_formula(board, Recorded::new(Some(config.new_solver(&Cnf::new(), progress))))
    }

    /// A planner over `formula`, which may only record (for export).
    fn with_formula(board: &'b Board, formula: Recorded) -> Planner<'b> {
        let distances: Vec<Vec<u32>> = board.starts().iter().map(|&s| board.open_distances_from(s)).collect();
        let cells: Vec<usize> =
            (0..board.num_cells()).filter(|&c| distances.iter().any(|d| d[c] != u32::MAX)).collect();
        let first_step = distances.iter().map(|d| cells.iter().map(|&c| d[c]).collect()).collect();
        let mut slot_of = vec![None; board.num_cells()];
        for (slot, &cell) in cells.iter().enumerate() {
            slot_of[cell] = Some(slot);
        }
        let mut planner = Planner {
            board,
            cells,
            first_step,
            slot_of,
            at: Vec::new(),
            moves: Vec::new(),
            held: Vec::new(),
            goal: Vec::new(),
            formula,
            bound: horizon_bound(board),
        };
        planner.encode_start();
        planner
    }

    /// The horizon encoded so far.
    pub fn horizon(&self) -> u64 {
        self.goal.len() as u64 - 1
    }

    /// The solver's counters.
    pub fn solver_stats(&self) -> SolveStats {
        self.formula.stats()
    }

    /// The size of [`Planner::cnf_with_goal`], the formula reports and
    /// `--dimacs` show: `(variables, clauses)`.
    pub fn reported_size(&self) -> (usize, usize) {
        (self.formula.cnf().num_vars(), self.formula.cnf().num_clauses() + 1)
    }

    /// The formula so far with one more clause, "the route ends at some
    /// step up to the horizon", in place of the assumption each call made.
    /// Satisfiable exactly when a route of at most that many steps exists.
    pub fn cnf_with_goal(&self) -> Cnf {
        let mut cnf = self.formula.cnf().clone();
        cnf.open_group(format!("the route ends within {} steps (assumed one step at a time)", self.horizon()), None);
        let goals: Vec<Lit> = self.goal.iter().map(|g| g.pos()).collect();
        cnf.add_clause(&goals);
        cnf
    }

    /// Encodes steps up to `horizon`, without solving.
    pub fn extend_to(&mut self, horizon: u64) {
        while self.horizon() < horizon {
            self.extend();
        }
    }

    /// The formula of [`Planner::cnf_with_goal`] at `horizon`, built without
    /// solving; refused past [`MAX_VARIABLES`].
    pub fn formula_at(board: &Board, horizon: u64) -> Result<Cnf, Error> {
        let mut planner = Planner::with_formula(board, Recorded::new(None));
        while planner.horizon() < horizon {
            if planner.formula.cnf().num_vars() > MAX_VARIABLES {
                return Err(Error::TooLarge(format!(
                    "the SAT plan reached {} variables at horizon {} of {horizon}; the limit is {MAX_VARIABLES}",
                    planner.formula.cnf().num_vars(),
                    planner.horizon()
                )));
            }
            planner.extend();
        }
        Ok(planner.cnf_with_goal())
    }

    /// Grows the horizon from where it stands until a route fits, or the
    /// bound is passed. Returns the fewest steps, or `None` when there is no
    /// route at all.
    pub fn shortest(&mut self) -> Result<Option<u64>, Error> {
        self.extend_to(first_useful_horizon(self.board).min(self.bound));
        loop {
            let horizon = self.horizon();
            if self.formula.solve_under(&[self.goal[horizon as usize].pos()])? == Answer::Sat {
                return Ok(Some(horizon));
            }
            if horizon >= self.bound {
                return Ok(None);
            }
            if self.formula.cnf().num_vars() > MAX_VARIABLES {
                return Err(Error::TooLarge(format!(
                    "the SAT plan reached {} variables at horizon {horizon} without a route; the limit is \
                     {MAX_VARIABLES} (the keygraph and bfs engines have no such limit)",
                    self.formula.cnf().num_vars()
                )));
            }
            self.extend();
        }
    }

    /// The route in the last model, after [`Planner::shortest`] found one.
    /// A model that does not trace a walk is refused with the reason.
    pub fn route(&self) -> Result<Vec<Move>, String> {
        let values: Vec<bool> = self.projection().iter().map(|v| self.formula.value(v.pos())).collect();
        self.decoder().decode(&values)
    }

    /// The position variables of steps 1 to the horizon, which fix a route;
    /// the keys held and the walker that moves follow from them.
    pub fn projection(&self) -> Vec<Var> {
        self.at[1..].iter().flatten().flatten().flatten().copied().collect()
    }

    /// Every route at the current horizon that ends on the last pickup,
    /// each decoded from a model projected onto [`Planner::projection`].
    /// Stops after `limit` routes; the flag says whether all were found.
    pub fn routes(
        &mut self,
        limit: Option<u64>,
        mut each: impl FnMut(Vec<Move>) -> Result<(), String>,
    ) -> Result<bool, RouteError> {
        let projection = self.projection();
        let goal = self.goal[self.horizon() as usize].pos();
        let decoder = Decoder { board: self.board, cells: &self.cells, at: &self.at };
        let solver = self.formula.solver_mut().ok_or_else(|| RouteError::Solver(no_solver()))?;
        let mut models = ProjectedModels::new(solver, projection, &[goal]);
        let mut found = 0u64;
        loop {
            if limit.is_some_and(|limit| found >= limit) {
                return Ok(false);
            }
            let Some(model) = models.next() else { return Ok(true) };
            let route = decoder.decode(&model?).map_err(RouteError::Decode)?;
            each(route).map_err(RouteError::Decode)?;
            found += 1;
        }
    }

    fn decoder(&self) -> Decoder<'_> {
        Decoder { board: self.board, cells: &self.cells, at: &self.at }
    }

    fn walkers(&self) -> usize {
        self.board.num_walkers()
    }

    /// Step 0: each walker on its '@', holding nothing.
    fn encode_start(&mut self) {
        let mut at = Vec::new();
        for walker in 0..self.walkers() {
            let start_slot = self.slot_of[self.board.starts()[walker]].expect("a start is in the open grid");
            let mut cells = vec![None; self.cells.len()];
            let start = self.formula.new_var();
            let place = self.place(start_slot);
            self.formula.cnf_mut().name_var(start, format!("walker {walker} at {place:?} after step 0"));
            cells[start_slot] = Some(start);
            self.formula.cnf_mut().open_group(format!("step 0: walker {walker} starts on its '@'"), Some(place));
            self.formula.add_clause(&[start.pos()]);
            at.push(cells);
        }
        let held = self.new_held(0);
        self.formula.cnf_mut().open_group("step 0: no key is held", None);
        for var in &held {
            self.formula.add_clause(&[var.neg()]);
        }
        self.at.push(at);
        self.moves.push(Vec::new());
        self.held.push(held);
        let goal = self.formula.new_var();
        self.formula.cnf_mut().name_var(goal, "the route ends after step 0");
        self.formula.cnf_mut().open_group("goal at step 0: every key is held", None);
        for var in &self.held[0] {
            self.formula.add_clause(&[goal.neg(), var.pos()]);
        }
        self.goal.push(goal);
    }

    /// Whether walker `walker` may stand on `slot` after `step` steps.
    fn may_be_at(&self, walker: usize, slot: usize, step: usize) -> bool {
        let first = self.first_step[walker][slot];
        if first == u32::MAX || first as usize > step {
            return false;
        }
        // One walker changes colour with every step; several need not.
        self.walkers() > 1 || (step - first as usize).is_multiple_of(2)
    }

    /// Adds step t + 1 to a formula that ends at step t.
    fn extend(&mut self) {
        let t = self.at.len() - 1;
        let next = t + 1;
        let moves = self.new_moves(next);
        let at = self.new_positions(next);
        self.add_moves(t, &at, &moves);
        self.add_doors(next, &at);
        let held = self.add_keys(t, &at);
        let goal = self.add_goal(t, &held);
        self.at.push(at);
        self.moves.push(moves);
        self.held.push(held);
        self.goal.push(goal);
    }

    /// With several walkers, which one makes step `next` (exactly one);
    /// with one, nothing: it always moves.
    fn new_moves(&mut self, next: usize) -> Vec<Var> {
        let several = self.walkers() > 1;
        let mut moves = Vec::new();
        if several {
            for walker in 0..self.walkers() {
                let var = self.formula.new_var();
                self.formula.cnf_mut().name_var(var, format!("walker {walker} makes step {next}"));
                moves.push(var);
            }
            self.formula.cnf_mut().open_group(format!("step {next}: exactly one walker moves"), None);
            let lits: Vec<Lit> = moves.iter().map(|v| v.pos()).collect();
            card::exactly_one(&mut self.formula, &lits);
        }
        moves
    }

    /// Each walker's cell after step `next`: a variable per cell it may
    /// be on, exactly one of them true.
    fn new_positions(&mut self, next: usize) -> Vec<Vec<Option<Var>>> {
        let several = self.walkers() > 1;
        let mut at = Vec::new();
        for walker in 0..self.walkers() {
            let mut cells = vec![None; self.cells.len()];
            for (slot, entry) in cells.iter_mut().enumerate() {
                if self.may_be_at(walker, slot, next) {
                    let var = self.formula.new_var();
                    let name = match several {
                        true => format!("walker {walker} at {:?} after step {next}", self.place(slot)),
                        false => format!("at {:?} after step {next}", self.place(slot)),
                    };
                    self.formula.cnf_mut().name_var(var, name);
                    *entry = Some(var);
                }
            }
            let here: Vec<Lit> = cells.iter().flatten().map(|v| v.pos()).collect();
            self.formula.cnf_mut().open_group(format!("step {next}: walker {walker} is on exactly one cell"), None);
            card::exactly_one(&mut self.formula, &here);
            at.push(cells);
        }

        at
    }

    /// A moving walker goes from its cell at step `t` to an open
    /// neighbour; a walker not chosen stays put.
    fn add_moves(&mut self, t: usize, at: &[Vec<Option<Var>>], moves: &[Var]) {
        let next = t + 1;
        for (walker, now) in at.iter().enumerate() {
            // With one walker it always moves; with several, only when chosen.
            let moving: Vec<Lit> = moves.get(walker).map(|m| vec![m.neg()]).unwrap_or_default();
            self.formula
                .cnf_mut()
                .open_group(format!("step {next}: a moving walker goes to a neighbouring open cell"), None);
            for (slot, &after) in now.iter().enumerate() {
                if let Some(before) = self.at[t][walker][slot] {
                    let mut clause = moving.clone();
                    clause.push(before.neg());
                    clause.extend(self.open_neighbours(slot).filter_map(|n| now[n]).map(|v| v.pos()));
                    self.formula.add_clause(&clause);
                }
                if let Some(after) = after {
                    let mut clause = moving.clone();
                    clause.push(after.neg());
                    clause.extend(self.open_neighbours(slot).filter_map(|n| self.at[t][walker][n]).map(|v| v.pos()));
                    self.formula.add_clause(&clause);
                }
            }
            if let Some(&walks) = moves.get(walker) {
                self.formula
                    .cnf_mut()
                    .open_group(format!("step {next}: walker {walker} stays put unless it moves"), None);
                for (slot, &after) in now.iter().enumerate() {
                    match (self.at[t][walker][slot], after) {
                        (Some(before), Some(after)) => {
                            self.formula.add_clause(&[walks.pos(), before.neg(), after.pos()]);
                            self.formula.add_clause(&[walks.pos(), after.neg(), before.pos()]);
                        }
                        (Some(before), None) => self.formula.add_clause(&[walks.pos(), before.neg()]),
                        (None, Some(after)) => self.formula.add_clause(&[walks.pos(), after.neg()]),
                        (None, None) => {}
                    }
                }
            }
        }
    }

    /// A door's cell is entered only with its key held.
    fn add_doors(&mut self, next: usize, at: &[Vec<Option<Var>>]) {
        let t = next - 1;
        self.formula.cnf_mut().open_group(format!("step {next}: a door is entered only with its key"), None);
        for now in at {
            for (&cell, &after) in self.cells.iter().zip(now) {
                if let (Access::Door(key), Some(after)) = (self.board.access(cell), after) {
                    self.formula.add_clause(&[after.neg(), self.held[t][key as usize].pos()]);
                }
            }
        }
    }

    /// Which keys are held after step `t + 1`: those held before, and
    /// those whose cell a walker is on.
    fn add_keys(&mut self, t: usize, at: &[Vec<Option<Var>>]) -> Vec<Var> {
        let next = t + 1;
        let held = self.new_held(next);
        self.formula.cnf_mut().open_group(format!("step {next}: a key is held once its cell has been entered"), None);
        for (key, &is) in held.iter().enumerate() {
            let was = self.held[t][key];
            let pickups: Vec<Var> = match self.slot_of[self.board.key_cell(key)] {
                Some(slot) => at.iter().filter_map(|cells| cells[slot]).collect(),
                None => Vec::new(),
            };
            self.formula.add_clause(&[was.neg(), is.pos()]);
            for on_key in &pickups {
                self.formula.add_clause(&[on_key.neg(), is.pos()]);
            }
            let mut clause = vec![is.neg(), was.pos()];
            clause.extend(pickups.iter().map(|v| v.pos()));
            self.formula.add_clause(&clause);
        }

        held
    }

    /// Whether the route ends after step `t + 1`: every key held, and not
    /// one step earlier.
    fn add_goal(&mut self, t: usize, held: &[Var]) -> Var {
        let next = t + 1;
        let goal = self.formula.new_var();
        self.formula.cnf_mut().name_var(goal, format!("the route ends after step {next}"));
        self.formula
            .cnf_mut()
            .open_group(format!("goal at step {next}: every key is held, and was not one step earlier"), None);
        for var in held {
            self.formula.add_clause(&[goal.neg(), var.pos()]);
        }
        let mut missing_before = vec![goal.neg()];
        missing_before.extend(self.held[t].iter().map(|v| v.neg()));
        self.formula.add_clause(&missing_before);

        goal
    }

    fn new_held(&mut self, step: usize) -> Vec<Var> {
        let letters = self.board.key_letters().to_vec();
        letters
            .into_iter()
            .map(|letter| {
                let var = self.formula.new_var();
                self.formula.cnf_mut().name_var(var, format!("holds key '{letter}' after step {step}"));
                var
            })
            .collect()
    }

    fn open_neighbours(&self, slot: usize) -> impl Iterator<Item = usize> + '_ {
        self.board.neighbours(self.cells[slot]).filter_map(|(_, cell)| self.slot_of[cell])
    }

    fn place(&self, slot: usize) -> (usize, usize) {
        let cell = self.cells[slot];
        (cell / self.board.cols(), cell % self.board.cols())
    }
}

fn no_solver() -> SolverError {
    SolverError::Backend("the plan was built for export, without a solver".to_string())
}

/// Why route enumeration stopped short.
#[derive(Debug, thiserror::Error)]
pub enum RouteError {
    /// The solver failed.
    #[error(transparent)]
    Solver(#[from] SolverError),
    /// A model did not decode to a checked route.
    #[error("{0}")]
    Decode(String),
}

/// Reads a route back from the values of [`Planner::projection`].
struct Decoder<'p> {
    board: &'p Board,
    cells: &'p [usize],
    at: &'p [Vec<Vec<Option<Var>>>],
}

impl Decoder<'_> {
    fn decode(&self, values: &[bool]) -> Result<Vec<Move>, String> {
        let mut values = values.iter().copied();
        let mut where_now: Vec<usize> = self.board.starts().to_vec();
        let mut moves = Vec::with_capacity(self.at.len() - 1);
        for (step, walkers) in self.at.iter().enumerate().skip(1) {
            let mut moved = Vec::new();
            for (walker, vars) in walkers.iter().enumerate() {
                let mut on = Vec::new();
                for (slot, var) in vars.iter().enumerate() {
                    if var.is_some() && values.next().unwrap_or(false) {
                        on.push(slot);
                    }
                }
                let [slot] = on[..] else {
                    return Err(format!("the model puts walker {walker} on {} cells after step {step}", on.len()));
                };
                let next = self.cells[slot];
                if next != where_now[walker] {
                    let Some((dir, _)) = self.board.neighbours(where_now[walker]).find(|&(_, n)| n == next) else {
                        return Err(format!("the model jumps between cells that do not touch at step {step}"));
                    };
                    moved.push(Move { walker, dir });
                    where_now[walker] = next;
                }
            }
            let [single] = moved[..] else {
                return Err(format!("the model moves {} walkers at step {step}", moved.len()));
            };
            moves.push(single);
        }
        Ok(moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::keys_doors::{KeysDoorsPuzzle, check};

    fn planner_steps(picture: &str) -> (Option<u64>, u64) {
        let puzzle = KeysDoorsPuzzle::from_picture(picture).unwrap();
        let board = Board::new(&puzzle);
        let mut planner = Planner::new(&board, &SolverConfig::default(), None);
        let steps = planner.shortest().unwrap();
        let mut routes = 0;
        if steps.is_some() {
            check(&puzzle, &planner.route().unwrap()).unwrap();
            planner
                .routes(None, |route| {
                    routes += 1;
                    check(&puzzle, &route)
                })
                .unwrap();
        }
        (steps, routes)
    }

    #[test]
    fn the_lesson_grids() {
        assert_eq!(planner_steps("@..a"), (Some(3), 1));
        assert_eq!(planner_steps("#a##\n@.Ab"), (Some(5), 1));
        assert_eq!(planner_steps("@.a.."), (Some(2), 1));
        assert_eq!(planner_steps("@.A.a"), (None, 0));
        assert_eq!(planner_steps("@.a..\n###.#\nb.A.B"), (Some(8), 1));
    }

    #[test]
    fn routes_that_would_go_on_after_the_last_key_are_not_counted() {
        // "a.@.b": a-then-b and b-then-a, 6 steps each. Walking on past the
        // last key, or holding every key earlier, must not add models.
        assert_eq!(planner_steps("a.@.b"), (Some(6), 2));
        assert_eq!(planner_steps("@ab"), (Some(2), 1));
    }

    #[test]
    fn several_walkers_move_one_at_a_time_and_share_keys() {
        assert_eq!(planner_steps("a.@#@Ab"), (Some(4), 1));
        assert_eq!(planner_steps("a.@#@..b"), (Some(5), 10));
        assert_eq!(planner_steps("@ab#@"), (Some(2), 1));
        assert_eq!(planner_steps("@.A#@#a"), (None, 0));
    }

    #[test]
    fn the_reported_size_is_the_size_of_the_reported_formula() {
        let puzzle = KeysDoorsPuzzle::from_picture("#a##\n@.Ab").unwrap();
        let board = Board::new(&puzzle);
        let mut planner = Planner::new(&board, &SolverConfig::default(), None);
        planner.shortest().unwrap();
        let cnf = planner.cnf_with_goal();
        assert_eq!(planner.reported_size(), (cnf.num_vars(), cnf.num_clauses()));
        let mut dimacs = Vec::new();
        cnf.write_dimacs(&mut dimacs).unwrap();
        let header = String::from_utf8(dimacs).unwrap().lines().find(|l| l.starts_with("p cnf")).unwrap().to_string();
        assert_eq!(header, format!("p cnf {} {}", planner.reported_size().0, planner.reported_size().1));
    }

    #[test]
    fn no_keys_means_zero_steps_and_a_stuck_walker_means_no_route() {
        assert_eq!(planner_steps("@#\n#."), (Some(0), 1));
        assert_eq!(planner_steps("@#a"), (None, 0));
    }

    #[test]
    fn the_bound_is_keys_times_open_cells_minus_one() {
        let puzzle = KeysDoorsPuzzle::from_picture("@.A.a\n##Z.b").unwrap();
        // Door Z has no key, so it is a wall: 7 open cells, 2 keys.
        assert_eq!(horizon_bound(&Board::new(&puzzle)), 2 * 6);
    }

    #[test]
    fn the_cnf_with_goal_is_satisfiable_exactly_from_the_shortest_horizon() {
        let puzzle = KeysDoorsPuzzle::from_picture("#a##\n@.Ab").unwrap();
        let board = Board::new(&puzzle);
        let mut planner = Planner::new(&board, &SolverConfig::default(), None);
        for horizon in 0..=5 {
            let mut solver = crate::solver::new_solver(&planner.cnf_with_goal(), None);
            let expected = if horizon < 5 { Answer::Unsat } else { Answer::Sat };
            assert_eq!(solver.solve().unwrap(), expected, "horizon {horizon}");
            planner.extend();
        }
    }
}

#[cfg(test)]
mod examples {
    #[test]
    fn horizon_bound() {
        use crate::puzzles::keys_doors::{Board, KeysDoorsPuzzle, sat};
        let puzzle = KeysDoorsPuzzle::from_picture("@.A.a").unwrap();
        assert_eq!(sat::horizon_bound(&Board::new(&puzzle)), 4);
    }
    #[test]
    fn first_useful_horizon() {
        use crate::puzzles::keys_doors::{Board, KeysDoorsPuzzle, sat};
        let puzzle = KeysDoorsPuzzle::from_picture("@.A.a\nb....").unwrap();
        assert_eq!(sat::first_useful_horizon(&Board::new(&puzzle)), 4);
    }
    #[test]
    fn planner() {
        use crate::puzzles::keys_doors::{Board, KeysDoorsPuzzle, sat::Planner};
        use crate::solver::SolverConfig;
        let puzzle = KeysDoorsPuzzle::from_picture("@..a").unwrap();
        let board = Board::new(&puzzle);
        let mut planner = Planner::new(&board, &SolverConfig::default(), None);
        assert_eq!(planner.shortest().unwrap(), Some(3));
        assert_eq!(planner.route().unwrap().len(), 3);
    }
}

//! The planning engine: a CNF that says "a route of exactly T steps collects
//! the last key on its last step", grown one step at a time on one solver.
//!
//! Variables, for each step t from 0 to the horizon:
//!
//! - `at(t, c)`: the walker stands on cell c after t steps. Only cells that
//!   the open grid (every door with a key in the grid open) reaches in t steps
//!   or fewer, with the parity of t, get a variable: the grid is bipartite
//!   and every step changes colour.
//! - `held(t, k)`: key k is held after t steps.
//! - `goal(t)`: every key is held after step t, and some key was missing
//!   after step t − 1, so the route ends on the pickup of the last key.
//!
//! Rules, for each step t → t + 1: exactly one cell per step (the
//! at-least-one half follows from the moves); a walker on c moves to one of
//! c's open neighbours, and a walker on c came from one of them; stepping
//! onto a door needs its key held at t; `held(t + 1, k)` ⇔ `held(t, k)` or
//! `at(t + 1, cell of k)`.
//!
//! Each horizon T is one SAT call assuming `goal(T)`; the clauses of earlier
//! horizons stay and only step T is added, so the first satisfiable horizon
//! is the fewest steps. "No solution" is proven by reaching
//! [`horizon_bound`] with every call unsatisfiable.

use std::sync::Arc;

use super::board::{Access, Board};
use crate::cnf::{Cnf, Lit, Var, card};
use crate::grid::Dir;
use crate::puzzles::Error;
use crate::solver::{Answer, Progress, ProjectedModels, Solve, SolveStats, SolverError, new_solver};

/// The most variables the plan may grow to before the engine gives up with
/// an error rather than exhaust memory.
pub const MAX_VARIABLES: usize = 40_000_000;

/// The longest horizon that can hold a shortest route: keys × (cells of the
/// open grid − 1).
///
/// A shortest route splits at its pickups into one leg per key. Within a leg
/// the keys held do not change, so the leg is a shortest path between its
/// ends among the cells those keys open (a shorter path would give a shorter
/// route); a shortest path visits no cell twice, and every cell it visits is
/// in the open grid, so a leg has at most (open cells − 1) steps.
///
/// ```
/// use somaria::puzzles::keys_doors::{sat, Board, KeysDoorsPuzzle};
/// let puzzle = KeysDoorsPuzzle::from_picture("@.A.a").unwrap();
/// assert_eq!(sat::horizon_bound(&Board::new(&puzzle)), 4);
/// ```
pub fn horizon_bound(board: &Board) -> u64 {
    let open_cells = board.open_distances().iter().filter(|&&d| d != u32::MAX).count() as u64;
    board.num_keys() as u64 * (open_cells - 1)
}

/// The growing formula and the solver that holds it.
///
/// ```
/// use somaria::puzzles::keys_doors::{sat::Planner, Board, KeysDoorsPuzzle};
/// let puzzle = KeysDoorsPuzzle::from_picture("@..a").unwrap();
/// let board = Board::new(&puzzle);
/// let mut planner = Planner::new(&board, None);
/// assert_eq!(planner.shortest().unwrap(), Some(3));
/// assert_eq!(planner.route().unwrap().len(), 3);
/// ```
pub struct Planner<'b> {
    board: &'b Board,
    /// The open grid's cells; a cell's slot is its index here.
    cells: Vec<usize>,
    /// Steps from the start to each slot in the open grid.
    first_step: Vec<u32>,
    /// Each board cell's slot, if it is in the open grid.
    slot_of: Vec<Option<usize>>,
    /// `at[t][slot]`, `None` where the cell cannot be reached at step t.
    at: Vec<Vec<Option<Var>>>,
    held: Vec<Vec<Var>>,
    goal: Vec<Var>,
    cnf: Cnf,
    solver: Box<dyn Solve>,
    clauses_fed: usize,
    solver_vars: usize,
    bound: u64,
}

impl<'b> Planner<'b> {
    /// The formula for horizon 0, loaded into a fresh solver that counts its
    /// calls in `progress`.
    pub fn new(board: &'b Board, progress: Option<Arc<Progress>>) -> Planner<'b> {
        let distances = board.open_distances();
        let cells: Vec<usize> = (0..board.num_cells()).filter(|&c| distances[c] != u32::MAX).collect();
        let first_step = cells.iter().map(|&c| distances[c]).collect();
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
            held: Vec::new(),
            goal: Vec::new(),
            cnf: Cnf::new(),
            solver: new_solver(&Cnf::new(), progress),
            clauses_fed: 0,
            solver_vars: 0,
            bound: horizon_bound(board),
        };
        planner.encode_start();
        planner.feed();
        planner
    }

    /// The horizon encoded so far.
    pub fn horizon(&self) -> u64 {
        self.goal.len() as u64 - 1
    }

    /// The formula so far.
    pub fn cnf(&self) -> &Cnf {
        &self.cnf
    }

    /// The solver's counters.
    pub fn solver_stats(&self) -> SolveStats {
        self.solver.stats()
    }

    /// The formula so far with one more clause, "the route ends at some
    /// step up to the horizon", in place of the assumption each call made.
    /// Satisfiable exactly when a route of at most that many steps exists.
    pub fn cnf_with_goal(&self) -> Cnf {
        let mut cnf = self.cnf.clone();
        cnf.open_group(format!("the route ends within {} steps (assumed one step at a time)", self.horizon()), None);
        let goals: Vec<Lit> = self.goal.iter().map(|g| g.pos()).collect();
        cnf.add_clause(&goals);
        cnf
    }

    /// The formula of [`Planner::cnf_with_goal`] at `horizon`, built without
    /// solving; refused past [`MAX_VARIABLES`].
    pub fn formula_at(board: &Board, horizon: u64) -> Result<Cnf, Error> {
        let mut planner = Planner::new(board, None);
        while planner.horizon() < horizon {
            if planner.cnf.num_vars() > MAX_VARIABLES {
                return Err(Error::TooLarge(format!(
                    "the SAT plan reached {} variables at horizon {} of {horizon}; the limit is {MAX_VARIABLES}",
                    planner.cnf.num_vars(),
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
        loop {
            let horizon = self.horizon();
            if self.solver.solve_under(&[self.goal[horizon as usize].pos()])? == Answer::Sat {
                return Ok(Some(horizon));
            }
            if horizon >= self.bound {
                return Ok(None);
            }
            if self.cnf.num_vars() > MAX_VARIABLES {
                return Err(Error::TooLarge(format!(
                    "the SAT plan reached {} variables at horizon {horizon} without a route; the limit is \
                     {MAX_VARIABLES} (the bfs engine has no such limit)",
                    self.cnf.num_vars()
                )));
            }
            self.extend();
        }
    }

    /// The route in the last model, after [`Planner::shortest`] found one.
    /// A model that does not trace a walk is refused with the reason.
    pub fn route(&self) -> Result<Vec<Dir>, String> {
        let values: Vec<bool> = self.projection().iter().map(|v| self.solver.value(v.pos())).collect();
        self.decode(&values)
    }

    /// The position variables of steps 1 to the horizon, which fix a route;
    /// the keys held follow from them.
    pub fn projection(&self) -> Vec<Var> {
        self.at[1..].iter().flatten().flatten().copied().collect()
    }

    /// Every route at the current horizon that ends on the last pickup,
    /// each decoded from a model projected onto [`Planner::projection`].
    /// Stops after `limit` routes; the flag says whether all were found.
    pub fn routes(
        &mut self,
        limit: Option<u64>,
        mut each: impl FnMut(Vec<Dir>) -> Result<(), String>,
    ) -> Result<bool, RouteError> {
        let projection = self.projection();
        let goal = self.goal[self.horizon() as usize].pos();
        let decoder = Decoder { board: self.board, cells: &self.cells, at: &self.at };
        self.solver_vars += 1;
        let mut models = ProjectedModels::new(&mut self.solver, projection, &[goal]);
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

    fn decode(&self, values: &[bool]) -> Result<Vec<Dir>, String> {
        Decoder { board: self.board, cells: &self.cells, at: &self.at }.decode(values)
    }

    /// Step 0: on the start, holding nothing.
    fn encode_start(&mut self) {
        let start_slot = self.slot_of[self.board.start()].expect("the start is in the open grid");
        let mut at = vec![None; self.cells.len()];
        let start = self.cnf.new_var();
        self.cnf.name_var(start, format!("at {:?} after step 0", self.place(start_slot)));
        at[start_slot] = Some(start);
        self.cnf.open_group("step 0: the walker starts on '@'", Some(self.place(start_slot)));
        self.cnf.add_clause(&[start.pos()]);
        let held = self.new_held(0);
        self.cnf.open_group("step 0: no key is held", None);
        for var in &held {
            self.cnf.add_clause(&[var.neg()]);
        }
        self.at.push(at);
        self.held.push(held);
        let goal = self.cnf.new_var();
        self.cnf.name_var(goal, "the route ends after step 0");
        self.cnf.open_group("goal at step 0: every key is held", None);
        for var in &self.held[0] {
            self.cnf.add_clause(&[goal.neg(), var.pos()]);
        }
        self.goal.push(goal);
    }

    /// Adds step t + 1 to a formula that ends at step t.
    fn extend(&mut self) {
        // An enumeration took a solver variable for its selector; skip it so
        // the formula and the solver keep numbering variables alike.
        while self.cnf.num_vars() < self.solver_vars {
            self.cnf.new_var();
        }
        let t = self.at.len() - 1;
        let next = t + 1;
        let mut at = vec![None; self.cells.len()];
        for (slot, entry) in at.iter_mut().enumerate() {
            let first = self.first_step[slot] as usize;
            if first <= next && (next - first).is_multiple_of(2) {
                let var = self.cnf.new_var();
                self.cnf.name_var(var, format!("at {:?} after step {next}", self.place(slot)));
                *entry = Some(var);
            }
        }
        let here: Vec<Lit> = at.iter().flatten().map(|v| v.pos()).collect();
        self.cnf.open_group(format!("step {next}: the walker is on exactly one cell"), None);
        card::exactly_one(&mut self.cnf, &here);

        self.cnf.open_group(format!("step {next}: each step goes to a neighbouring open cell"), None);
        for slot in 0..self.cells.len() {
            if let Some(before) = self.at[t][slot] {
                let mut clause = vec![before.neg()];
                clause.extend(
                    self.open_neighbours(slot).map(|n| at[n].expect("a neighbour is reachable one step later").pos()),
                );
                self.cnf.add_clause(&clause);
            }
            if let Some(after) = at[slot] {
                let mut clause = vec![after.neg()];
                clause.extend(self.open_neighbours(slot).filter_map(|n| self.at[t][n]).map(|v| v.pos()));
                self.cnf.add_clause(&clause);
            }
        }

        self.cnf.open_group(format!("step {next}: a door is entered only with its key"), None);
        for (&cell, &after) in self.cells.iter().zip(&at) {
            if let (Access::Door(key), Some(after)) = (self.board.access(cell), after) {
                self.cnf.add_clause(&[after.neg(), self.held[t][key as usize].pos()]);
            }
        }

        let held = self.new_held(next);
        self.cnf.open_group(format!("step {next}: a key is held once its cell has been entered"), None);
        for (key, &is) in held.iter().enumerate() {
            let was = self.held[t][key];
            let pickup = self.slot_of[self.board.key_cell(key)].and_then(|slot| at[slot]);
            self.cnf.add_clause(&[was.neg(), is.pos()]);
            match pickup {
                Some(on_key) => {
                    self.cnf.add_clause(&[on_key.neg(), is.pos()]);
                    self.cnf.add_clause(&[is.neg(), was.pos(), on_key.pos()]);
                }
                None => self.cnf.add_clause(&[is.neg(), was.pos()]),
            }
        }

        let goal = self.cnf.new_var();
        self.cnf.name_var(goal, format!("the route ends after step {next}"));
        self.cnf.open_group(format!("goal at step {next}: every key is held, and was not one step earlier"), None);
        for var in &held {
            self.cnf.add_clause(&[goal.neg(), var.pos()]);
        }
        let mut missing_before = vec![goal.neg()];
        missing_before.extend(self.held[t].iter().map(|v| v.neg()));
        self.cnf.add_clause(&missing_before);

        self.at.push(at);
        self.held.push(held);
        self.goal.push(goal);
        self.feed();
    }

    fn new_held(&mut self, step: usize) -> Vec<Var> {
        let letters = self.board.key_letters().to_vec();
        letters
            .into_iter()
            .map(|letter| {
                let var = self.cnf.new_var();
                self.cnf.name_var(var, format!("holds key '{letter}' after step {step}"));
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

    /// Hands the solver the variables and clauses added since the last call.
    fn feed(&mut self) {
        while self.solver_vars < self.cnf.num_vars() {
            self.solver.new_var();
            self.solver_vars += 1;
        }
        for clause in self.cnf.clauses().skip(self.clauses_fed) {
            self.solver.add_clause(clause);
        }
        self.clauses_fed = self.cnf.num_clauses();
    }
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
    at: &'p [Vec<Option<Var>>],
}

impl Decoder<'_> {
    fn decode(&self, values: &[bool]) -> Result<Vec<Dir>, String> {
        let mut values = values.iter().copied();
        let mut cell = self.board.start();
        let mut moves = Vec::with_capacity(self.at.len() - 1);
        for (step, vars) in self.at.iter().enumerate().skip(1) {
            let mut on = Vec::new();
            for (slot, var) in vars.iter().enumerate() {
                if var.is_some() && values.next().unwrap_or(false) {
                    on.push(slot);
                }
            }
            let [slot] = on[..] else {
                return Err(format!("the model puts the walker on {} cells after step {step}", on.len()));
            };
            let next = self.cells[slot];
            let Some((dir, _)) = self.board.neighbours(cell).find(|&(_, n)| n == next) else {
                return Err(format!("the model jumps between cells that do not touch at step {step}"));
            };
            moves.push(dir);
            cell = next;
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
        let mut planner = Planner::new(&board, None);
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
        let mut planner = Planner::new(&board, None);
        for horizon in 0..=5 {
            let mut solver = new_solver(&planner.cnf_with_goal(), None);
            let expected = if horizon < 5 { Answer::Unsat } else { Answer::Sat };
            assert_eq!(solver.solve().unwrap(), expected, "horizon {horizon}");
            planner.extend();
        }
    }
}

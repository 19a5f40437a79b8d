//! Keys and doors: walk a grid from `@`, picking up every key in the fewest
//! steps, where a door opens only to a walker holding its key.
//!
//! Symbols: `@` start, `.` floor, `#` wall, `a`–`z` keys, `A`–`Z` doors.
//! Stepping onto a key picks it up, and the cell is floor from then on. A
//! door whose key is not in the grid never opens. The route ends on the step
//! that picks up the last key; a grid without keys is solved in 0 steps.
//!
//! A grid may hold one to four `@`, one walker each, numbered in reading
//! order. One walker moves at a time, the steps of all walkers are summed,
//! every key picked up opens its doors for all of them, and walkers do not
//! block each other.
//!
//! Four engines give the same answers by different means:
//!
//! - `keygraph`, the default: one search of the grid from each walker's
//!   start and each key gives the legs between them (with the doors and keys
//!   each passes), then A* over (walker positions, keys held);
//! - `bfs`, the reference: breadth-first search over (cells of the
//!   walkers, keys held), counting shortest move sequences exactly;
//! - `sat-keys`: a CNF over the order in which keys are collected, with
//!   leg lengths from the grid and the total minimised under a
//!   pseudo-Boolean bound;
//! - `sat`: a CNF over cells and steps, grown one step (horizon) at a time.
//!
//! [`check`] replays every route on the model's own cells, sharing no code
//! with any engine.

mod bfs;
mod board;
mod bridges;
mod check;
pub mod designer;
mod heuristic;
mod keygraph;
mod legs;
mod load;
pub mod maze;
mod route_hints;
mod sat;
mod sat_keys;

use std::collections::BTreeSet;
use std::time::Instant;

use serde::Serialize;

pub(crate) use board::Board;
pub use check::check;
pub use load::{load, load_puzzle};

use super::{
    CountOptions, CountReport, DecidedBy, Drawn, Error, ExplainReport, Formula, NamedConstraint, Puzzle, Solution,
    SolveOptions, SolveReport, Stats, Status,
};
use crate::cnf::Cnf;
use crate::draw::{Ground, Mark, Scene, Tint, Trail, text};
use crate::grid::{Dir, Grid, Pos};
use crate::model::{LoadError, Source};
use crate::solver::SolverConfig;

/// The `kind` of keys-and-doors models.
pub const KIND: &str = "keys-doors";

/// The most walkers a grid may have.
pub const MAX_WALKERS: usize = 4;

engines! {
    /// The keys-and-doors engines, the default (fastest measured) first.
    ///
    /// ```
    /// use somaria::puzzles::keys_doors::Engine;
    /// assert_eq!("sat-keys".parse::<Engine>().unwrap(), Engine::SatKeys);
    /// assert_eq!(Engine::ALL[0].to_string(), "keygraph");
    /// assert!("dfs".parse::<Engine>().unwrap_err().to_string().contains("keygraph, bfs, sat-keys, sat"));
    /// ```
    pub enum Engine {
        /// Legs between keys from the grid, then A* over (positions, keys held).
        Keygraph = "keygraph",
        /// Breadth-first search over (cells, keys held): the exact reference.
        Bfs = "bfs",
        /// SAT over the order of collection, total length under a PB bound.
        SatKeys = "sat-keys",
        /// SAT over cells and steps, one horizon at a time.
        Sat = "sat",
    }
}

/// The engines' names, the default first.
pub const ENGINES: &[&str] = Engine::NAMES;

/// The symbols of the grid, for messages.
pub const SYMBOLS: &str = "'@' start, '.' floor, '#' wall, 'a'-'z' key or 'A'-'Z' door";

/// A cell of the grid.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Where a walker starts; floor otherwise.
    Start,
    /// Open floor.
    Floor,
    /// Never entered.
    Wall,
    /// A key, by its lowercase letter.
    Key(char),
    /// A door, by its uppercase letter; it needs the key of the same letter.
    Door(char),
}

impl Cell {
    /// The cell a model symbol stands for.
    ///
    /// ```
    /// use somaria::puzzles::keys_doors::Cell;
    /// assert_eq!(Cell::from_symbol('q'), Some(Cell::Key('q')));
    /// assert_eq!(Cell::from_symbol('?'), None);
    /// ```
    pub fn from_symbol(symbol: char) -> Option<Cell> {
        match symbol {
            '@' => Some(Cell::Start),
            '.' => Some(Cell::Floor),
            '#' => Some(Cell::Wall),
            'a'..='z' => Some(Cell::Key(symbol)),
            'A'..='Z' => Some(Cell::Door(symbol)),
            _ => None,
        }
    }

    /// The symbol for this cell.
    pub fn symbol(self) -> char {
        match self {
            Cell::Start => '@',
            Cell::Floor => '.',
            Cell::Wall => '#',
            Cell::Key(letter) | Cell::Door(letter) => letter,
        }
    }
}

/// A grid that breaks the rules beyond its symbols.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// There is no `@`.
    #[error("no start '@' in the grid; expected one to four '@', one per walker")]
    NoStart,
    /// A fifth `@`.
    #[error("a fifth start '@' at grid cell {fifth:?}; expected one to four '@', one per walker")]
    TooManyStarts {
        /// The fifth start.
        fifth: Pos,
    },
    /// A second key of the same letter.
    #[error(
        "a second key '{letter}' at grid cell {second:?}, after the one at {first:?}; expected each key letter at most once"
    )]
    SecondKey {
        /// The key's letter.
        letter: char,
        /// The first key.
        first: Pos,
        /// The second key.
        second: Pos,
    },
}

impl LayoutError {
    /// The message split into what was found and what was expected.
    fn found_and_expected(&self) -> (String, String) {
        let message = self.to_string();
        let (found, expected) = message.split_once("; expected ").expect("every message says what was expected");
        (found.to_string(), expected.to_string())
    }
}

/// One move of one walker.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Move {
    /// The walker, numbered from 0 in reading order of the `@`.
    pub walker: usize,
    /// Where it steps.
    #[serde(rename = "move")]
    pub dir: Dir,
}

impl Move {
    /// A move of walker 0, the only one in a one-walker grid.
    pub fn of_first(dir: Dir) -> Move {
        Move { walker: 0, dir }
    }
}

/// A checked route in the puzzle's terms, the `solution` of the JSON
/// output; the text report is drawn from it too.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RouteSolution {
    /// Moves of all walkers together.
    pub steps: usize,
    /// With one walker: its moves (the form used before several walkers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<Dir>>,
    /// With one walker: the cells it visits from the start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<[usize; 2]>>,
    /// Each walker's start, moves and cells, in walker order.
    pub walkers: Vec<WalkerRoute>,
    /// With several walkers: every move in the order made, which the
    /// per-walker lists alone do not tell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequence: Option<Vec<Move>>,
    /// The keys in the order picked up.
    pub key_order: Vec<String>,
    /// Each pickup: the key, the walker, the step (counted over all walkers,
    /// from 1) and the cell.
    pub pickups: Vec<Pickup>,
}

/// One walker's part of a route.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WalkerRoute {
    /// Its `@`.
    pub start: [usize; 2],
    /// Its moves, in order.
    pub moves: Vec<Dir>,
    /// The cells it visits, from its start.
    pub path: Vec<[usize; 2]>,
}

/// A key picked up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pickup {
    /// The key's letter.
    pub key: String,
    /// The walker that picked it up.
    pub walker: usize,
    /// The step, counted over all walkers from 1.
    pub step: usize,
    /// The key's cell.
    pub at: [usize; 2],
}

/// A keys-and-doors puzzle.
///
/// ```
/// use somaria::puzzles::keys_doors::KeysDoorsPuzzle;
/// let puzzle = KeysDoorsPuzzle::from_picture("@..a").unwrap();
/// assert_eq!(puzzle.starts(), &[(0, 0)]);
/// assert_eq!(puzzle.keys(), &[('a', (0, 3))]);
/// ```
#[derive(Clone, Debug)]
pub struct KeysDoorsPuzzle {
    title: Option<String>,
    layout: Grid<Cell>,
    starts: Vec<Pos>,
    keys: Vec<(char, Pos)>,
}

impl KeysDoorsPuzzle {
    /// A puzzle from its cells: one to four starts, each key letter at most
    /// once.
    pub fn from_grid(layout: Grid<Cell>) -> Result<KeysDoorsPuzzle, LayoutError> {
        let mut starts = Vec::new();
        let mut keys: Vec<(char, Pos)> = Vec::new();
        for (pos, cell) in layout.cells() {
            match *cell {
                Cell::Start if starts.len() == MAX_WALKERS => return Err(LayoutError::TooManyStarts { fifth: pos }),
                Cell::Start => starts.push(pos),
                Cell::Key(letter) => match keys.iter().find(|(l, _)| *l == letter) {
                    None => keys.push((letter, pos)),
                    Some(&(_, first)) => return Err(LayoutError::SecondKey { letter, first, second: pos }),
                },
                _ => {}
            }
        }
        if starts.is_empty() {
            return Err(LayoutError::NoStart);
        }
        keys.sort();
        Ok(KeysDoorsPuzzle { title: None, layout, starts, keys })
    }

    /// A puzzle from the grid alone, rows separated by newlines, read as the
    /// `grid` of a model file would be.
    ///
    /// ```
    /// use somaria::puzzles::keys_doors::KeysDoorsPuzzle;
    /// assert!(KeysDoorsPuzzle::from_picture("@.\n.").is_err()); // ragged
    /// ```
    pub fn from_picture(picture: &str) -> Result<KeysDoorsPuzzle, LoadError> {
        let text = format!("kind = \"{KIND}\"\ngrid = '''\n{picture}\n'''\n");
        load_puzzle(&Source::from_text("picture", text))
    }

    /// Sets the title shown in reports.
    pub fn with_title(mut self, title: Option<String>) -> KeysDoorsPuzzle {
        self.title = title;
        self
    }

    /// The cells.
    pub fn layout(&self) -> &Grid<Cell> {
        &self.layout
    }

    /// The walkers' start cells, in reading order.
    pub fn starts(&self) -> &[Pos] {
        &self.starts
    }

    /// The keys and their cells, by letter.
    pub fn keys(&self) -> &[(char, Pos)] {
        &self.keys
    }

    /// The fewest steps and one shortest route with the chosen engine,
    /// checked; `None` when no route collects every key.
    ///
    /// ```
    /// use somaria::puzzles::keys_doors::{Engine, KeysDoorsPuzzle};
    /// let puzzle = KeysDoorsPuzzle::from_picture("@.a..\n###.#\nb.A.B").unwrap();
    /// for &engine in Engine::ALL {
    ///     assert_eq!(puzzle.shortest_route(engine).unwrap().unwrap().len(), 8);
    /// }
    /// let locked = KeysDoorsPuzzle::from_picture("@.A.a").unwrap();
    /// assert_eq!(locked.shortest_route(Engine::Bfs).unwrap(), None);
    /// // Two walkers share their keys: 'a' opens A for the second.
    /// let two = KeysDoorsPuzzle::from_picture("@.a#b.A@").unwrap();
    /// assert_eq!(two.shortest_route(Engine::Keygraph).unwrap().unwrap().len(), 2 + 3);
    /// ```
    pub fn shortest_route(&self, engine: Engine) -> Result<Option<Vec<Move>>, Error> {
        let options = SolveOptions { engine: Some(engine.to_string()), ..SolveOptions::default() };
        Ok(self.run(engine, &options)?.route)
    }

    /// Runs an engine: the checked route, the stats and, for SAT, the CNF.
    fn run(&self, engine: Engine, options: &SolveOptions) -> Result<EngineRun, Error> {
        let started = Instant::now();
        let board = Board::new(self);
        let search_stats = |encode_ms: f64, searched: Instant| Stats {
            engine: engine.to_string(),
            encode_ms,
            solve_ms: Stats::ms(searched.elapsed()),
            ..Stats::default()
        };
        let (route, stats, cnf, decided_by) = match engine {
            Engine::Bfs => {
                let encode_ms = Stats::ms(started.elapsed());
                let searched = Instant::now();
                let outcome = bfs::search(&board, true);
                (outcome.route, search_stats(encode_ms, searched), None, DecidedBy::Search)
            }
            Engine::Keygraph => {
                let graph = keygraph::KeyGraph::new(&board)?;
                let encode_ms = Stats::ms(started.elapsed());
                let searched = Instant::now();
                let route = graph.shortest_route()?;
                (route, search_stats(encode_ms, searched), None, DecidedBy::Search)
            }
            Engine::SatKeys => {
                let mut model = sat_keys::OrderModel::new(&board, &options.solver, Some(options.progress.clone()))?;
                let route = model.shortest()?;
                let cnf = options.settle_formula(route.is_none(), || model.reported_cnf())?;
                let (variables, clauses) = model.reported_size();
                let stats = Stats::of_sat_size(engine.name(), (variables, clauses), model.solver_stats(), 0.0);
                let stats = with_encode_time(stats, started);
                (route, stats, cnf, DecidedBy::Sat)
            }
            Engine::Sat => {
                let mut planner = sat::Planner::new(&board, &options.solver, Some(options.progress.clone()));
                let route = match planner.shortest()? {
                    Some(_) => Some(planner.route().map_err(Error::CheckFailed)?),
                    None => None,
                };
                // The planner answered one horizon at a time under
                // assumptions; the reported formula has the goal clause.
                let cnf = options.settle_formula(route.is_none(), || planner.cnf_with_goal())?;
                let stats = Stats::of_sat_size(engine.name(), planner.reported_size(), planner.solver_stats(), 0.0);
                (route, with_encode_time(stats, started), cnf, DecidedBy::Sat)
            }
        };
        if let Some(moves) = &route {
            check(self, moves).map_err(Error::CheckFailed)?;
        }
        Ok(EngineRun { route, stats, cnf, decided_by })
    }

    /// A checked route in the puzzle's terms.
    ///
    /// ```
    /// use somaria::grid::Dir;
    /// use somaria::puzzles::keys_doors::{KeysDoorsPuzzle, Move};
    /// let puzzle = KeysDoorsPuzzle::from_picture("@.a").unwrap();
    /// let solution = puzzle.solution(&[Move::of_first(Dir::Right), Move::of_first(Dir::Right)]);
    /// assert_eq!(solution.steps, 2);
    /// assert_eq!(solution.moves, Some(vec![Dir::Right, Dir::Right]));
    /// assert_eq!(solution.pickups[0].at, [0, 2]);
    /// ```
    pub fn solution(&self, moves: &[Move]) -> RouteSolution {
        let place = |(r, c): Pos| [r, c];
        let mut walkers: Vec<WalkerRoute> = self
            .starts
            .iter()
            .map(|&start| WalkerRoute { start: place(start), moves: Vec::new(), path: vec![place(start)] })
            .collect();
        let mut at: Vec<Pos> = self.starts.clone();
        let mut pickups: Vec<Pickup> = Vec::new();
        for (index, mv) in moves.iter().enumerate() {
            let next = self.layout.step(at[mv.walker], mv.dir).expect("a checked route stays in the grid");
            at[mv.walker] = next;
            walkers[mv.walker].moves.push(mv.dir);
            walkers[mv.walker].path.push(place(next));
            if let Cell::Key(letter) = self.layout[next]
                && pickups.iter().all(|p| !p.key.starts_with(letter))
            {
                pickups.push(Pickup { key: letter.to_string(), walker: mv.walker, step: index + 1, at: place(next) });
            }
        }
        let one = walkers.len() == 1;
        RouteSolution {
            steps: moves.len(),
            moves: one.then(|| walkers[0].moves.clone()),
            path: one.then(|| walkers[0].path.clone()),
            sequence: (!one).then(|| moves.to_vec()),
            key_order: pickups.iter().map(|p| p.key.clone()).collect(),
            pickups,
            walkers,
        }
    }

    /// The route for a person, drawn from the solution: the grid with the
    /// way out of each floor cell drawn as an arrow (`+` where routes leave
    /// a cell more than once), then the route from pickup to pickup.
    pub fn solution_text(&self, solution: &RouteSolution) -> String {
        let mut out = text::draw(&self.scene(|scene| Self::draw_routes(scene, solution)), &TEXT_STYLE);
        out.push_str("(arrows show where the route leaves a floor cell; + marks a cell it leaves more than once)\n\n");
        let several = solution.walkers.len() > 1;
        if several {
            let starts: Vec<String> = solution
                .walkers
                .iter()
                .enumerate()
                .map(|(i, w)| format!("{} from ({}, {})", i + 1, w.start[0], w.start[1]))
                .collect();
            out.push_str(&format!("walkers {}\n", starts.join(", ")));
        }
        let by = if several { format!(" by {} walkers", solution.walkers.len()) } else { String::new() };
        match solution.pickups.len() {
            0 => out.push_str("no keys to collect: the route is empty, 0 steps\n"),
            _ => {
                let order: Vec<String> = solution.key_order.iter().map(|l| format!("'{l}'")).collect();
                out.push_str(&format!(
                    "{}{by}; keys in the order {}\n",
                    super::counted(solution.steps, "step"),
                    order.join(", ")
                ));
            }
        }
        let sequence: Vec<Move> = match &solution.sequence {
            Some(sequence) => sequence.clone(),
            None => solution.walkers[0].moves.iter().map(|&dir| Move::of_first(dir)).collect(),
        };
        let mut leg_start = 0;
        for pickup in &solution.pickups {
            let step = pickup.step;
            let steps =
                if step == leg_start + 1 { format!("step {step}") } else { format!("steps {}-{step}", leg_start + 1) };
            let moves = walker_runs(&sequence[leg_start..step], several);
            let who = if several { format!("walker {} ", pickup.walker + 1) } else { String::new() };
            out.push_str(&format!(
                "  {steps}: {moves}; {who}picks up '{}' at ({}, {})\n",
                pickup.key, pickup.at[0], pickup.at[1]
            ));
            leg_start = step;
        }
        out
    }

    /// Why no route exists, in a player's terms: the keys that can never be
    /// reached and the doors that stay shut.
    fn no_route_reason(&self, board: &Board) -> String {
        let collectable = board.collectable_keys();
        let letters = |held: bool| -> Vec<String> {
            let keys = board.key_letters().iter().enumerate();
            keys.filter(|(bit, _)| (collectable >> bit & 1 == 1) == held).map(|(_, l)| format!("'{l}'")).collect()
        };
        let (reachable, stranded) = (letters(true), letters(false));
        let shut: Vec<String> = self
            .layout
            .cells()
            .filter_map(|(_, cell)| match *cell {
                Cell::Door(letter) => Some(letter),
                _ => None,
            })
            .filter(|door| {
                let key = door.to_ascii_lowercase();
                board.key_letters().iter().position(|&l| l == key).is_none_or(|bit| collectable >> bit & 1 == 0)
            })
            .collect::<BTreeSet<char>>()
            .into_iter()
            .map(|d| format!("'{d}'"))
            .collect();
        let held = match reachable.len() {
            0 => "no key can be collected".to_string(),
            _ => format!("only {} can be collected", listing("key", &reachable)),
        };
        let blocked = match shut.len() {
            0 => "the walls cut the rest off".to_string(),
            1 => format!("{} stays shut", listing("door", &shut)),
            _ => format!("{} stay shut", listing("door", &shut)),
        };
        format!("{} cannot be reached: {held}, and {blocked}", listing("key", &stranded))
    }
}

/// The stats with the time outside the solver counted as encoding.
fn with_encode_time(stats: Stats, started: Instant) -> Stats {
    let total = Stats::ms(started.elapsed());
    Stats { encode_ms: (total - stats.solve_ms).max(0.0), ..stats }
}

/// "key 'a'" or "keys 'a', 'b'".
fn listing(noun: &str, items: &[String]) -> String {
    match items.len() {
        1 => format!("{noun} {}", items[0]),
        _ => format!("{noun}s {}", items.join(", ")),
    }
}

/// Moves with repeats folded, such as "right ×3, up"; with several walkers,
/// each run of one walker's moves is named, such as "walker 2: up ×2".
fn walker_runs(moves: &[Move], several: bool) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut index = 0;
    while index < moves.len() {
        let walker = moves[index].walker;
        let length = moves[index..].iter().take_while(|m| m.walker == walker).count();
        let dirs: Vec<Dir> = moves[index..index + length].iter().map(|m| m.dir).collect();
        parts.push(match several {
            true => format!("walker {}: {}", walker + 1, runs(&dirs)),
            false => runs(&dirs),
        });
        index += length;
    }
    parts.join("; ")
}

/// Moves with repeats folded, such as "right ×3, up".
fn runs(moves: &[Dir]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut index = 0;
    while index < moves.len() {
        let length = moves[index..].iter().take_while(|&&d| d == moves[index]).count();
        parts.push(match length {
            1 => moves[index].name().to_string(),
            n => format!("{} ×{n}", moves[index].name()),
        });
        index += length;
    }
    parts.join(", ")
}

/// What one engine run produced.
struct EngineRun {
    /// The checked route, or `None` when there is none.
    route: Option<Vec<Move>>,
    stats: Stats,
    /// The reported CNF, for the SAT engines when it was asked for.
    cnf: Option<Cnf>,
    decided_by: DecidedBy,
}

impl Puzzle for KeysDoorsPuzzle {
    fn kind(&self) -> &'static str {
        KIND
    }

    fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    fn engines(&self) -> &'static [&'static str] {
        ENGINES
    }

    fn solve(&self, options: &SolveOptions) -> Result<SolveReport, Error> {
        let engine = Engine::choose(options.engine.as_deref())?;
        let EngineRun { route, stats, cnf, decided_by } = self.run(engine, options)?;
        Ok(match route {
            Some(moves) => {
                let typed = self.solution(&moves);
                SolveReport {
                    status: Status::Solved,
                    solution: Some(Solution::of(&typed)),
                    explanation: None,
                    cost: Some(moves.len() as u64),
                    objective: None,
                    decided_by,
                    stats,
                    cnf,
                }
            }
            None => {
                let explanation = Some(self.no_route_reason(&Board::new(self)));
                SolveReport {
                    status: Status::NoSolution,
                    solution: None,
                    explanation,
                    cost: None,
                    objective: None,
                    decided_by,
                    stats,
                    cnf,
                }
            }
        })
    }

    /// Counts distinct shortest move sequences. With several walkers the
    /// default is `bfs`, which counts every interleaving of the walkers'
    /// moves; `keygraph` and `sat-keys` treat each leg as a whole and refuse.
    fn count(&self, options: &CountOptions) -> Result<CountReport, Error> {
        options.enumerating("keys-doors")?;
        let board = Board::new(self);
        let engine = match options.engine.as_deref() {
            None if board.num_walkers() > 1 => Engine::Bfs,
            requested => Engine::choose(requested)?,
        };
        let started = Instant::now();
        let limited = |routes: u64, saturated: bool| match options.limit {
            Some(limit) if limit < routes => (limit, false, false),
            _ => (routes, saturated, true),
        };
        let search_stats =
            || Stats { engine: engine.to_string(), solve_ms: Stats::ms(started.elapsed()), ..Stats::default() };
        match engine {
            Engine::Bfs => {
                let outcome = bfs::search(&board, false);
                let (count, saturated, complete) = limited(outcome.routes, outcome.saturated);
                options.progress.set_solutions(count);
                Ok(CountReport { count, saturated, complete, stats: search_stats(), stopped: None })
            }
            Engine::Keygraph => {
                let outcome = keygraph::KeyGraph::for_counting(&board)?.count()?;
                let (count, saturated, complete) = limited(outcome.routes, outcome.saturated);
                options.progress.set_solutions(count);
                Ok(CountReport { count, saturated, complete, stats: search_stats(), stopped: None })
            }
            Engine::SatKeys => {
                let mut model = sat_keys::OrderModel::new(&board, &options.solver, Some(options.progress.clone()))?;
                let outcome = model.count()?;
                let (count, saturated, complete) = limited(outcome.routes, outcome.saturated);
                options.progress.set_solutions(count);
                let stats = Stats::of_sat_size(engine.name(), model.reported_size(), model.solver_stats(), 0.0);
                Ok(CountReport { count, saturated, complete, stats: with_encode_time(stats, started), stopped: None })
            }
            Engine::Sat => {
                let mut planner = sat::Planner::new(&board, &options.solver, Some(options.progress.clone()));
                let mut count = 0u64;
                let mut complete = true;
                if let Some(steps) = planner.shortest()? {
                    complete = planner
                        .routes(options.limit, |moves| {
                            if moves.len() as u64 != steps {
                                return Err(format!("a route of {} moves at horizon {steps}", moves.len()));
                            }
                            check(self, &moves)?;
                            count += 1;
                            options.progress.record_solution();
                            Ok(())
                        })
                        .map_err(|e| match e {
                            sat::RouteError::Solver(e) => Error::from(e),
                            sat::RouteError::Decode(message) => Error::CheckFailed(message),
                        })?;
                }
                let stats = Stats::of_sat_size(engine.name(), planner.reported_size(), planner.solver_stats(), 0.0);
                Ok(CountReport {
                    count,
                    saturated: false,
                    complete,
                    stats: with_encode_time(stats, started),
                    stopped: None,
                })
            }
        }
    }

    /// Keys only ever open doors and every move can be walked back, so the
    /// keys that can be collected together are closed under union: if each
    /// key of a set can be collected, so can the whole set. A minimal set of
    /// keys that cannot all be collected is therefore one key that cannot be
    /// collected at all, found by the same fixpoint the explanation uses.
    fn explain(&self, options: &SolveOptions) -> Result<ExplainReport, Error> {
        let engine = Engine::choose(options.engine.as_deref())?;
        let started = Instant::now();
        let board = Board::new(self);
        let collectable = board.collectable_keys();
        let stats = Stats { engine: engine.to_string(), solve_ms: Stats::ms(started.elapsed()), ..Stats::default() };
        let stranded = (0..board.num_keys()).find(|&bit| collectable >> bit & 1 == 0);
        let Some(bit) = stranded else {
            return Ok(ExplainReport::solved(stats));
        };
        let cell = board.key_cell(bit);
        let (row, col) = (cell / board.cols(), cell % board.cols());
        let letter = board.key_letters()[bit];
        let constraint = NamedConstraint {
            name: format!("collect key '{letter}' at ({row}, {col})"),
            row: Some(row),
            col: Some(col),
            line: None,
            cells: vec![(row, col)],
        };
        let certificate = Some(self.no_route_reason(&board));
        Ok(ExplainReport { certificate, ..ExplainReport::conflict(vec![constraint], stats) })
    }

    /// The formula a SAT engine hands the solver, built without solving; each
    /// has a model exactly when a route exists. For `sat-keys`, the order
    /// model with the total bounded by a heuristic route's length (which exists
    /// exactly when some route does); for `sat`, the plan at the horizon
    /// bound keys × (open cells − 1) with the goal "every key is held within
    /// the bound" (the engine itself grows the horizon from the farthest
    /// key's distance and stops at the first that fits).
    ///
    /// ```
    /// use somaria::puzzles::{keys_doors::KeysDoorsPuzzle, Puzzle};
    /// let puzzle = KeysDoorsPuzzle::from_picture("@.a..\n###.#\nb.A.B").unwrap();
    /// assert!(puzzle.formula(Some("sat-keys")).unwrap().equisatisfiable);
    /// assert!(puzzle.formula(Some("sat")).unwrap().cnf.num_clauses() > 0);
    /// assert!(puzzle.formula(Some("keygraph")).is_err());
    /// ```
    fn formula(&self, engine: Option<&str>) -> Result<Formula, Error> {
        let engine = Engine::choose(engine)?;
        let sat_engines = || [Engine::SatKeys, Engine::Sat].map(|e| e.name()).join(", ");
        let board = Board::new(self);
        match engine {
            Engine::Keygraph => Err(Error::NoFormula {
                engine: engine.name(),
                why: "it searches (walker positions, keys held) with A* over legs between keys",
                expected: sat_engines(),
            }),
            Engine::Bfs => Err(Error::NoFormula {
                engine: engine.name(),
                why: "it searches (cells, keys held) breadth-first",
                expected: sat_engines(),
            }),
            Engine::SatKeys => {
                let model = sat_keys::OrderModel::new(&board, &SolverConfig::default(), None)?;
                let note = match model.heuristic_steps() {
                    Some(steps) => format!(
                        "the order of collection with the total bounded by {steps} steps, a heuristic route's length; \
                         sat-keys tightens that bound under assumptions until it is unsatisfiable"
                    ),
                    None => "no route exists, so the order model is stated without a bound".to_string(),
                };
                Ok(Formula {
                    cnf: model.reported_cnf(),
                    engine: engine.name(),
                    equisatisfiable: true,
                    notes: vec![note],
                })
            }
            Engine::Sat => {
                let bound = sat::horizon_bound(&board);
                let cnf = sat::Planner::formula_at(&board, bound)?;
                Ok(Formula {
                    cnf,
                    engine: engine.name(),
                    equisatisfiable: true,
                    notes: vec![format!(
                        "the plan at horizon {bound} (keys x (open cells - 1), the longest a shortest route can be) \
                         with the goal 'every key is held within {bound} steps'; the sat engine grows the horizon \
                         from the farthest key's distance and stops at the first that fits"
                    )],
                })
            }
        }
    }

    /// The grid with walls, keys and doors by their letters and each
    /// walker's start (a ring): the route of each walker as a line of its
    /// own colour, or the key that cannot be collected outlined.
    fn picture(&self, of: Drawn<'_>) -> Result<Scene, Error> {
        let width = (self.layout.cols() * 3).max(30);
        let mut caption = Vec::new();
        let mut scene = match of {
            Drawn::Solution(report) => {
                let solution = report.solution.as_ref().map(|s| s.typed::<RouteSolution>()).transpose()?;
                if solution.is_some() {
                    let steps = report.cost.unwrap_or_default() as usize;
                    caption.push(format!("{}; one colour per walker", super::counted(steps, "step")));
                }
                if let Some(why) = &report.explanation {
                    caption.extend(super::wrapped(&format!("no route: {why}"), width));
                }
                self.scene(|scene| solution.into_iter().for_each(|solution| Self::draw_routes(scene, solution)))
            }
            Drawn::Facts(_) => {
                return Err(Error::Unsupported { command: "facts", kind: KIND });
            }
            Drawn::Explanation(report) => {
                if let Some(certificate) = &report.certificate {
                    caption.extend(super::wrapped(&format!("no route: {certificate}"), width));
                }
                let mut scene = self.scene(|_| {});
                scene.outlines.extend(report.places());
                scene
            }
        };
        scene.caption = caption;
        Ok(scene)
    }

    /// The route drawn and listed.
    fn text(&self, of: Drawn<'_>) -> Result<Option<String>, Error> {
        Ok(match of {
            Drawn::Solution(SolveReport { solution: Some(solution), .. }) => {
                Some(self.solution_text(solution.typed()?))
            }
            _ => None,
        })
    }

    fn routed(&self) -> Option<&dyn crate::puzzles::Routed> {
        Some(self)
    }
}

impl crate::puzzles::Routed for KeysDoorsPuzzle {
    fn route_legs(&self, options: &SolveOptions, given: &[String]) -> Result<super::RouteLegs, Error> {
        route_hints::route_legs(self, options, given)
    }
}

impl KeysDoorsPuzzle {
    /// The grid with walls and keys and doors by their letters, what `draw`
    /// adds, then each walker's start (a ring).
    fn scene(&self, draw: impl FnOnce(&mut Scene)) -> Scene {
        let mut scene = Scene::new(self.layout.rows(), self.layout.cols());
        for (pos, cell) in self.layout.cells() {
            match *cell {
                Cell::Wall => scene.set_ground(pos, Ground::Wall),
                Cell::Key(letter) => scene.marks.push((pos, Mark::Label(letter.to_string(), Tint::Goal))),
                Cell::Door(letter) => scene.marks.push((pos, Mark::Label(letter.to_string(), Tint::Obstacle))),
                Cell::Start | Cell::Floor => {}
            }
        }
        draw(&mut scene);
        for (walker, &start) in self.starts.iter().enumerate() {
            scene.marks.push((start, Mark::Ring(Tint::Route(walker))));
        }
        scene
    }

    /// Each walker's route as a line of its own colour, to a square where
    /// it stops.
    fn draw_routes(scene: &mut Scene, solution: &RouteSolution) {
        for (walker, route) in solution.walkers.iter().enumerate() {
            let cells: Vec<Pos> = route.path.iter().map(|&[r, c]| (r, c)).collect();
            if let Some(&last) = cells.last().filter(|_| cells.len() > 1) {
                scene.marks.push((last, Mark::Square(Tint::Route(walker))));
            }
            scene.trails.push(Trail { cells, tint: Tint::Route(walker), closed: false });
        }
    }
}

/// How the grid is drawn as text: the model's own symbols, with the way
/// out of each floor cell as an arrow (`+` where routes leave it more than
/// once); where a walker stops shows what lies there.
const TEXT_STYLE: text::Style =
    text::Style { floor: '.', wall: '#', shaded: '.', dot: None, ring: Some('@'), square: None, indent: "" };

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engine_names_are_the_enum_in_order() {
        let names: Vec<&str> = Engine::ALL.iter().map(|e| e.name()).collect();
        assert_eq!(names, ENGINES);
        for &engine in Engine::ALL {
            assert_eq!(engine.to_string().parse::<Engine>().unwrap(), engine);
        }
        assert!(matches!("horizon".parse::<Engine>(), Err(Error::UnknownEngine { .. })));
    }

    #[test]
    fn the_sat_keys_formula_is_satisfiable_exactly_down_to_the_optimum() {
        use crate::solver::{Answer, new_solver};
        let puzzle = KeysDoorsPuzzle::from_picture("@.a..\n###.#\nb.A.B").unwrap();
        let board = Board::new(&puzzle);
        let mut model = sat_keys::OrderModel::new(&board, &SolverConfig::default(), None).unwrap();
        assert_eq!(model.shortest().unwrap().unwrap().len(), 8);
        let cnf = model.reported_cnf();
        assert_eq!(model.reported_size(), (cnf.num_vars(), cnf.num_clauses()));
        assert_eq!(new_solver(&cnf, None).solve().unwrap(), Answer::Sat);
        let starting = Puzzle::formula(&puzzle, Some("sat-keys")).unwrap().cnf;
        assert_eq!(new_solver(&starting, None).solve().unwrap(), Answer::Sat);
        let locked = KeysDoorsPuzzle::from_picture("@.A.a").unwrap();
        let refuted = Puzzle::formula(&locked, Some("sat-keys")).unwrap().cnf;
        assert_eq!(new_solver(&refuted, None).solve().unwrap(), Answer::Unsat);
        // No route: the reported formula is unsatisfiable.
        let locked = KeysDoorsPuzzle::from_picture("@.A.a").unwrap();
        let board = Board::new(&locked);
        let mut model = sat_keys::OrderModel::new(&board, &SolverConfig::default(), None).unwrap();
        assert_eq!(model.shortest().unwrap(), None);
        assert_eq!(new_solver(&model.reported_cnf(), None).solve().unwrap(), Answer::Unsat);
    }
}

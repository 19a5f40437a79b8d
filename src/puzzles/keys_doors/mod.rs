//! Keys and doors: walk a grid from `@`, picking up every key in the fewest
//! steps, where a door opens only to a walker holding its key.
//!
//! Symbols: `@` start, `.` floor, `#` wall, `a`–`z` keys, `A`–`Z` doors.
//! Stepping onto a key picks it up, and the cell is floor from then on. A
//! door whose key is not in the grid never opens. The route ends on the step
//! that picks up the last key; a grid without keys is solved in 0 steps.
//!
//! Two engines give the same answers by different means:
//!
//! - [`bfs`], the default, searches (cell, keys held) breadth-first and
//!   counts shortest routes exactly;
//! - [`sat`] grows a planning CNF one step at a time on one solver until a
//!   route fits, and counts by enumerating the models at that horizon.
//!
//! [`check`] replays every route on the model's own cells, sharing no code
//! with either engine.

pub mod bfs;
mod board;
mod check;
mod load;
pub mod maze;
pub mod sat;

use std::collections::BTreeSet;
use std::time::Instant;

use serde_json::json;

pub use board::{Access, Board, KeySet};
pub use check::check;
pub use load::{load, load_puzzle};

use super::{
    CountOptions, CountReport, DecidedBy, Error, ExplainReport, NamedConstraint, Puzzle, Solution, SolveOptions,
    SolveReport, Stats, Status,
};
use crate::grid::{Dir, Grid, Pos};
use crate::model::{LoadError, Source};

/// The `kind` of keys-and-doors models.
pub const KIND: &str = "keys-doors";

/// The engines: exact BFS (the default) and SAT planning.
pub const ENGINES: &[&str] = &["bfs", "sat"];

/// The symbols of the grid, for messages.
pub const SYMBOLS: &str = "'@' start, '.' floor, '#' wall, 'a'-'z' key or 'A'-'Z' door";

/// A cell of the grid.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Where the walker starts; floor otherwise.
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
    #[error("no start '@' in the grid; expected exactly one '@'")]
    NoStart,
    /// A second `@`.
    #[error("a second start '@' at grid cell {second:?}, after the one at {first:?}; expected exactly one '@'")]
    SecondStart {
        /// The first start.
        first: Pos,
        /// The second start.
        second: Pos,
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

/// A keys-and-doors puzzle.
///
/// ```
/// use somaria::puzzles::keys_doors::KeysDoorsPuzzle;
/// let puzzle = KeysDoorsPuzzle::from_picture("@..a").unwrap();
/// assert_eq!(puzzle.start(), (0, 0));
/// assert_eq!(puzzle.keys(), &[('a', (0, 3))]);
/// ```
#[derive(Clone, Debug)]
pub struct KeysDoorsPuzzle {
    title: Option<String>,
    layout: Grid<Cell>,
    start: Pos,
    keys: Vec<(char, Pos)>,
}

impl KeysDoorsPuzzle {
    /// A puzzle from its cells: exactly one start, each key letter at most once.
    pub fn from_grid(layout: Grid<Cell>) -> Result<KeysDoorsPuzzle, LayoutError> {
        let mut start = None;
        let mut keys: Vec<(char, Pos)> = Vec::new();
        for (pos, cell) in layout.cells() {
            match *cell {
                Cell::Start => match start {
                    None => start = Some(pos),
                    Some(first) => return Err(LayoutError::SecondStart { first, second: pos }),
                },
                Cell::Key(letter) => match keys.iter().find(|(l, _)| *l == letter) {
                    None => keys.push((letter, pos)),
                    Some(&(_, first)) => return Err(LayoutError::SecondKey { letter, first, second: pos }),
                },
                _ => {}
            }
        }
        let start = start.ok_or(LayoutError::NoStart)?;
        keys.sort();
        Ok(KeysDoorsPuzzle { title: None, layout, start, keys })
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

    /// The start cell.
    pub fn start(&self) -> Pos {
        self.start
    }

    /// The keys and their cells, by letter.
    pub fn keys(&self) -> &[(char, Pos)] {
        &self.keys
    }

    /// The fewest steps and one shortest route with the chosen engine
    /// (`"bfs"` or `"sat"`), checked; `None` when no route collects every key.
    ///
    /// ```
    /// use somaria::puzzles::keys_doors::KeysDoorsPuzzle;
    /// let puzzle = KeysDoorsPuzzle::from_picture("@.a..\n###.#\nb.A.B").unwrap();
    /// assert_eq!(puzzle.shortest_route("sat").unwrap().unwrap().len(), 8);
    /// assert_eq!(KeysDoorsPuzzle::from_picture("@.A.a").unwrap().shortest_route("bfs").unwrap(), None);
    /// ```
    pub fn shortest_route(&self, engine: &str) -> Result<Option<Vec<Dir>>, Error> {
        let options = SolveOptions { engine: Some(engine.to_string()), ..SolveOptions::default() };
        Ok(self.run(&options)?.route)
    }

    /// Runs an engine: the checked route, the stats and, for SAT, the CNF.
    fn run(&self, options: &SolveOptions) -> Result<EngineRun, Error> {
        let engine = super::choose_engine(ENGINES, options.engine.as_deref())?;
        let started = Instant::now();
        let board = Board::new(self);
        let (route, stats, cnf, decided_by) = match engine {
            "bfs" => {
                let encode_ms = Stats::ms(started.elapsed());
                let searched = Instant::now();
                let outcome = bfs::search(&board, true);
                let stats = Stats {
                    engine: engine.to_string(),
                    encode_ms,
                    solve_ms: Stats::ms(searched.elapsed()),
                    ..Stats::default()
                };
                (outcome.route, stats, None, DecidedBy::Search)
            }
            _ => {
                let mut planner = sat::Planner::new(&board, Some(options.progress.clone()));
                let route = match planner.shortest()? {
                    Some(_) => Some(planner.route().map_err(Error::CheckFailed)?),
                    None => None,
                };
                // The planner answered one horizon at a time under
                // assumptions; the reported formula has the goal clause.
                let cnf = options.settle_formula(route.is_none(), || planner.cnf_with_goal())?;
                let stats = sat_stats(engine, &planner, started);
                (route, stats, cnf, DecidedBy::Sat)
            }
        };
        if let Some(moves) = &route {
            check(self, moves).map_err(Error::CheckFailed)?;
        }
        Ok(EngineRun { route, stats, cnf, decided_by })
    }

    /// The cells a route visits, from the start, and each key with the step
    /// that picks it up.
    fn trace(&self, moves: &[Dir]) -> (Vec<Pos>, Vec<(char, usize)>) {
        let mut cells = vec![self.start];
        let mut pickups: Vec<(char, usize)> = Vec::new();
        for (index, &dir) in moves.iter().enumerate() {
            let here = *cells.last().expect("starts with the start");
            let next = self.layout.step(here, dir).expect("a checked route stays in the grid");
            if let Cell::Key(letter) = self.layout[next]
                && pickups.iter().all(|(l, _)| *l != letter)
            {
                pickups.push((letter, index + 1));
            }
            cells.push(next);
        }
        (cells, pickups)
    }

    /// The route as JSON: `steps`, `moves`, `path` (cells from the start)
    /// and `key_order`.
    pub fn solution_json(&self, moves: &[Dir]) -> serde_json::Value {
        let (cells, pickups) = self.trace(moves);
        let path: Vec<[usize; 2]> = cells.iter().map(|&(r, c)| [r, c]).collect();
        let key_order: Vec<String> = pickups.iter().map(|(l, _)| l.to_string()).collect();
        json!({ "steps": moves.len(), "moves": moves, "path": path, "key_order": key_order })
    }

    /// The route for a person: the grid with the way out of each floor cell
    /// drawn as an arrow (`+` where the route leaves a cell more than once),
    /// then the route leg by leg, one leg per key.
    pub fn solution_text(&self, moves: &[Dir]) -> String {
        let (cells, pickups) = self.trace(moves);
        let mut exits: Vec<Vec<Dir>> = vec![Vec::new(); self.layout.rows() * self.layout.cols()];
        for (from, dir) in cells.iter().zip(moves) {
            exits[self.layout.index_of(*from)].push(*dir);
        }
        let mut out = self.layout.draw(|pos, &cell| match (cell, &exits[self.layout.index_of(pos)][..]) {
            (Cell::Floor, [dir]) => dir.arrow(),
            (Cell::Floor, [_, _, ..]) => '+',
            _ => cell.symbol(),
        });
        out.push_str("(arrows show where the route leaves a floor cell; + marks a cell it leaves more than once)\n\n");
        match pickups.len() {
            0 => out.push_str("no keys to collect: the route is empty, 0 steps\n"),
            _ => {
                let order: Vec<String> = pickups.iter().map(|(l, _)| format!("'{l}'")).collect();
                out.push_str(&format!("{} steps; keys in the order {}\n", moves.len(), order.join(", ")));
            }
        }
        let mut leg_start = 0;
        for &(letter, step) in &pickups {
            let (row, col) = cells[step];
            let steps =
                if step == leg_start + 1 { format!("step {step}") } else { format!("steps {}-{step}", leg_start + 1) };
            out.push_str(&format!(
                "  {steps}: {}; picks up '{letter}' at ({row}, {col})\n",
                runs(&moves[leg_start..step])
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

/// "key 'a'" or "keys 'a', 'b'".
fn listing(noun: &str, items: &[String]) -> String {
    match items.len() {
        1 => format!("{noun} {}", items[0]),
        _ => format!("{noun}s {}", items.join(", ")),
    }
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
    route: Option<Vec<Dir>>,
    stats: Stats,
    /// The reported CNF, for the SAT engine when it was asked for.
    cnf: Option<crate::cnf::Cnf>,
    decided_by: DecidedBy,
}

fn sat_stats(engine: &str, planner: &sat::Planner, started: Instant) -> Stats {
    let solver = planner.solver_stats();
    let total = Stats::ms(started.elapsed());
    let solve_ms = Stats::ms(solver.solve_time);
    Stats {
        engine: engine.to_string(),
        variables: planner.cnf().num_vars(),
        clauses: planner.cnf().num_clauses(),
        sat_calls: solver.sat_calls,
        encode_ms: (total - solve_ms).max(0.0),
        solve_ms,
    }
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
        let EngineRun { route, stats, cnf, decided_by } = self.run(options)?;
        Ok(match route {
            Some(moves) => {
                let solution = Solution { json: self.solution_json(&moves), text: self.solution_text(&moves) };
                let cost = Some(moves.len() as u64);
                SolveReport {
                    status: Status::Solved,
                    solution: Some(solution),
                    explanation: None,
                    cost,
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

    fn count(&self, options: &CountOptions) -> Result<CountReport, Error> {
        let engine = super::choose_engine(ENGINES, options.engine.as_deref())?;
        let started = Instant::now();
        let board = Board::new(self);
        if engine == "bfs" {
            let outcome = bfs::search(&board, false);
            let stats =
                Stats { engine: engine.to_string(), solve_ms: Stats::ms(started.elapsed()), ..Stats::default() };
            let (count, complete) = match options.limit {
                Some(limit) if limit < outcome.routes => (limit, false),
                _ => (outcome.routes, true),
            };
            options.progress.set_solutions(count);
            return Ok(CountReport { count, saturated: outcome.saturated && complete, complete, stats });
        }
        let mut planner = sat::Planner::new(&board, Some(options.progress.clone()));
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
                    sat::RouteError::Solver(e) => Error::Solver(e),
                    sat::RouteError::Decode(message) => Error::CheckFailed(message),
                })?;
        }
        let stats = sat_stats(engine, &planner, started);
        Ok(CountReport { count, saturated: false, complete, stats })
    }

    /// Keys only ever open doors and every move can be walked back, so the
    /// keys that can be collected together are closed under union: if each
    /// key of a set can be collected, so can the whole set. A minimal set of
    /// keys that cannot all be collected is therefore one key that cannot be
    /// collected at all, found by the same fixpoint the explanation uses.
    fn explain(&self, options: &SolveOptions) -> Result<ExplainReport, Error> {
        let engine = super::choose_engine(ENGINES, options.engine.as_deref())?;
        let started = Instant::now();
        let board = Board::new(self);
        let collectable = board.collectable_keys();
        let stats = Stats { engine: engine.to_string(), solve_ms: Stats::ms(started.elapsed()), ..Stats::default() };
        let stranded = (0..board.num_keys()).find(|&bit| collectable >> bit & 1 == 0);
        let Some(bit) = stranded else {
            return Ok(ExplainReport { status: Status::Solved, constraints: Vec::new(), certificate: None, stats });
        };
        let cell = board.key_cell(bit);
        let (row, col) = (cell / board.cols(), cell % board.cols());
        let letter = board.key_letters()[bit];
        let constraint = NamedConstraint {
            name: format!("collect key '{letter}' at ({row}, {col})"),
            row: Some(row),
            col: Some(col),
            line: None,
        };
        let certificate = Some(self.no_route_reason(&board));
        Ok(ExplainReport { status: Status::NoSolution, constraints: vec![constraint], certificate, stats })
    }
}

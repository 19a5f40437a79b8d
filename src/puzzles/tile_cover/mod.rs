//! Tile cover: walk from the start over every tile once, as in Hero's Cave
//! (Oracle of Ages), possibly leaving a few tiles for the Cane of Somaria.
//!
//! The grid has `.` tiles to cover, `#` walls, one `S` start (stood on
//! already) and at most one `E`, a tile that must be the last. A solution is
//! a sequence of distinct tiles, each 4-adjacent to the one before and the
//! first to the start, that leaves at most `leave_uncovered` tiles. It is a
//! Hamiltonian path problem, and the encoding decides everything, so there
//! are several (see [`encode`]):
//!
//! - `lazy` (the default): successor arcs with exactly one in and one out
//!   per covered tile, and cut-set clauses against detached cycles added
//!   between incremental solves;
//! - `lazy-nogood`: the same, cutting each cycle with "not all these arcs";
//! - `rank`: successor arcs and binary positions, in one eager CNF;
//! - `steps`: which tile is visited at each step, pruned by colour.
//!
//! [`presolve::refute`] proves many rooms unsolvable before SAT, in words a
//! player follows, and [`check`] judges every answer by walking it.

mod check;
pub mod encode;
mod graph;
mod load;
pub mod presolve;
pub mod rooms;
mod session;

use std::time::Instant;

use serde_json::json;

pub use check::check;
pub use graph::{Room, START};
pub use load::{load, load_puzzle};

use self::encode::{CutStyle, EncodeOptions, Encoding, Scheme};
use self::session::Session;
use super::{
    CountOptions, CountReport, DecidedBy, Error, ExplainReport, FactsReport, NamedConstraint, Puzzle, Solution,
    SolveOptions, SolveReport, Stats, Status,
};
use crate::cnf::Lit;
use crate::grid::{Dir, Grid, Pos};
use crate::solver::{VarisatSolver, shrink_by_deletion};

/// The `kind` of tile-cover models.
pub const KIND: &str = "tile-cover";

/// The encodings, the default (fastest measured) first.
pub const ENGINES: &[&str] = &["lazy", "lazy-nogood", "rank", "steps"];

/// The symbols of the grid, for messages.
pub const SYMBOLS: &str = "'.' tile, '#' wall, 'S' start or 'E' end tile";

/// A cell of the room.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// A tile to cover.
    Tile,
    /// A wall or statue: never entered.
    Wall,
    /// The start, stood on already and never entered again.
    Start,
    /// A tile to cover that must be the last one.
    End,
}

impl Cell {
    /// The cell a model symbol stands for.
    pub fn from_symbol(symbol: char) -> Option<Cell> {
        match symbol {
            '.' => Some(Cell::Tile),
            '#' => Some(Cell::Wall),
            'S' => Some(Cell::Start),
            'E' => Some(Cell::End),
            _ => None,
        }
    }
}

/// The most variables an encoding may need before it is refused up front.
pub const MAX_VARIABLES: u64 = 40_000_000;

/// Builds an encoding, refusing one whose size would exceed [`MAX_VARIABLES`]
/// rather than exhaust memory on the way.
fn encode(room: &Room, engine: &str, options: EncodeOptions) -> Result<Encoding, Error> {
    let scheme = scheme(engine).expect("engine names map to schemes");
    let tiles = room.num_tiles() as u64;
    let arcs = room.arcs().len() as u64;
    let estimate = match scheme {
        Scheme::Lazy(_) => arcs + 3 * tiles,
        Scheme::Rank => arcs + 3 * tiles + tiles * (64 - tiles.leading_zeros() as u64) * 2,
        Scheme::Steps => tiles * tiles + 2 * tiles,
    };
    if estimate > MAX_VARIABLES {
        return Err(Error::TooLarge(format!(
            "the {engine} encoding of this room would need about {estimate} variables; the limit is {MAX_VARIABLES} \
             (the lazy encoding needs about {} here)",
            arcs + 3 * tiles
        )));
    }
    Ok(Encoding::new(room, scheme, options))
}

/// The scheme behind an engine name from [`ENGINES`].
pub fn scheme(engine: &str) -> Option<Scheme> {
    match engine {
        "lazy" => Some(Scheme::Lazy(CutStyle::CutSet)),
        "lazy-nogood" => Some(Scheme::Lazy(CutStyle::Nogood)),
        "rank" => Some(Scheme::Rank),
        "steps" => Some(Scheme::Steps),
        _ => None,
    }
}

/// A validated tile-cover room.
///
/// ```
/// use somaria::model::Source;
/// use somaria::puzzles::{Puzzle, SolveOptions, Status};
/// use somaria::puzzles::tile_cover::load_puzzle;
/// let source = Source::from_text("m.toml", "kind = \"tile-cover\"\ngrid = \"\"\"\nS..\n...\n\"\"\"\n");
/// let report = load_puzzle(&source).unwrap().solve(&SolveOptions::default()).unwrap();
/// assert_eq!(report.status, Status::Solved);
/// assert_eq!(report.solution.unwrap().json["path"].as_array().unwrap().len(), 5);
/// ```
#[derive(Clone, Debug)]
pub struct TileCoverPuzzle {
    title: Option<String>,
    grid: Grid<Cell>,
    room: Room,
}

/// A route found by an encoding and confirmed by [`check`].
struct Route {
    moves: Vec<Dir>,
    path: Vec<Pos>,
}

impl TileCoverPuzzle {
    /// A puzzle from a grid with exactly one [`Cell::Start`] and at most one
    /// [`Cell::End`], as the loader guarantees.
    pub fn new(grid: Grid<Cell>, leave_uncovered: usize) -> TileCoverPuzzle {
        let room = Room::new(&grid, leave_uncovered);
        TileCoverPuzzle { title: None, grid, room }
    }

    /// Sets the title shown in reports.
    pub fn with_title(mut self, title: Option<String>) -> TileCoverPuzzle {
        self.title = title;
        self
    }

    /// The grid.
    pub fn grid(&self) -> &Grid<Cell> {
        &self.grid
    }

    /// The room as a graph.
    pub fn room(&self) -> &Room {
        &self.room
    }

    /// Solves with an engine and the encoding options given, for benches
    /// that measure what a part of the encoding is worth.
    pub fn solve_with(&self, options: &SolveOptions, encode_options: EncodeOptions) -> Result<SolveReport, Error> {
        let engine = super::choose_engine(ENGINES, options.engine.as_deref())?;
        let started = Instant::now();
        if !options.skip_presolve
            && let Some(why) = presolve::refute(&self.room)
        {
            let stats =
                Stats { engine: engine.to_string(), encode_ms: Stats::ms(started.elapsed()), ..Stats::default() };
            return Ok(SolveReport {
                status: Status::NoSolution,
                solution: None,
                explanation: Some(why),
                cost: None,
                objective: None,
                decided_by: DecidedBy::Presolve,
                stats,
                cnf: None,
            });
        }
        let encoding = encode(&self.room, engine, encode_options)?;
        let mut session = Session::new(&self.room, &encoding, options.new_solver(encoding.cnf()));
        let encode_ms = Stats::ms(started.elapsed());
        let walk = if encode_options.splice_cycles { session.walk_or_splice(&[])? } else { session.walk(&[])? };
        let cnf = options.settle_formula(walk.is_none(), || session.solved_cnf())?;
        let (status, solution) = match walk {
            None => (Status::NoSolution, None),
            Some(walk) => {
                let route = self.confirm(&walk)?;
                (Status::Solved, Some(Solution { json: self.route_json(&route), text: self.route_text(&route) }))
            }
        };
        let stats = Stats::of_sat_size(engine, session.solved_size(), session.stats(), encode_ms);
        Ok(SolveReport {
            status,
            solution,
            explanation: None,
            cost: None,
            objective: None,
            decided_by: DecidedBy::Sat,
            stats,
            cnf,
        })
    }

    /// For each tile, whether some route leaves it uncovered, found the
    /// slow and simple way: one solve per tile under the assumption "this
    /// tile is uncovered", on one incremental solver. Returns the tiles that
    /// can be left and the SAT calls made. The test suite checks
    /// [`Puzzle::facts`] against it.
    pub fn leavable_by_assumptions(&self, engine: Option<&str>) -> Result<(Vec<Pos>, u64), Error> {
        let engine = super::choose_engine(ENGINES, engine)?;
        let encoding = encode(&self.room, engine, EncodeOptions::default())?;
        let mut session = Session::new(&self.room, &encoding, VarisatSolver::from_cnf(encoding.cnf()));
        let mut leavable = Vec::new();
        for tile in self.room.tiles() {
            if let Some(walk) = session.walk_or_splice(&[!encoding.covered(tile)])? {
                let route = self.confirm(&walk)?;
                if route.path.contains(&self.room.position(tile)) {
                    return Err(Error::CheckFailed(format!("tile {} was assumed uncovered", self.room.label(tile))));
                }
                leavable.push(self.room.position(tile));
            }
        }
        Ok((leavable, session.stats().sat_calls))
    }

    /// Turns a walk over nodes into moves and checks them independently.
    fn confirm(&self, walk: &[usize]) -> Result<Route, Error> {
        self.confirm_in(&self.room, walk)
    }

    /// [`TileCoverPuzzle::confirm`] for a walk over `room`, which may allow
    /// more tiles to be left than the puzzle does.
    fn confirm_in(&self, room: &Room, walk: &[usize]) -> Result<Route, Error> {
        let mut moves = Vec::with_capacity(walk.len());
        let mut here = room.position(START);
        for &node in walk {
            let next = room.position(node);
            let dir = Dir::ALL
                .into_iter()
                .find(|&d| self.grid.step(here, d) == Some(next))
                .ok_or_else(|| Error::CheckFailed(format!("the walk jumps from {here:?} to {next:?}")))?;
            moves.push(dir);
            here = next;
        }
        let path = check(&self.grid, room.leave_uncovered(), &moves).map_err(Error::CheckFailed)?;
        Ok(Route { moves, path })
    }

    fn uncovered(&self, path: &[Pos]) -> Vec<Pos> {
        let mut covered = vec![false; self.grid.rows() * self.grid.cols()];
        for &pos in path {
            covered[self.grid.index_of(pos)] = true;
        }
        self.grid
            .cells()
            .filter(|(p, c)| matches!(c, Cell::Tile | Cell::End) && !covered[self.grid.index_of(*p)])
            .map(|(p, _)| p)
            .collect()
    }

    fn route_json(&self, route: &Route) -> serde_json::Value {
        let cells = |list: &[Pos]| list.iter().map(|&(r, c)| json!([r, c])).collect::<Vec<_>>();
        json!({
            "moves": route.moves.iter().map(|d| d.name()).collect::<Vec<_>>(),
            "path": cells(&route.path),
            "uncovered": cells(&self.uncovered(&route.path)),
        })
    }

    /// The room with an arrow on the start and each tile pointing to the
    /// next, the last tile marked, and the tiles left marked; then the moves.
    fn route_text(&self, route: &Route) -> String {
        let mut marks: Vec<char> = self
            .grid
            .cells()
            .map(|(_, cell)| match cell {
                Cell::Wall => '#',
                Cell::Start => 'S',
                Cell::Tile | Cell::End => 'o',
            })
            .collect();
        let start = self.room.position(START);
        let stops: Vec<Pos> = std::iter::once(start).chain(route.path.iter().copied()).collect();
        for (from, dir) in stops.iter().zip(&route.moves).skip(1) {
            marks[self.grid.index_of(*from)] = dir.arrow();
        }
        if let Some(&last) = route.path.last() {
            marks[self.grid.index_of(last)] = if self.grid[last] == Cell::End { 'E' } else { '*' };
        }
        let mut out = self.grid.draw(|pos, _| marks[self.grid.index_of(pos)]);
        let left = self.uncovered(&route.path);
        out.push_str("\nS start, arrows show the next move, * or E the last tile, o a tile left uncovered, # wall\n");
        let names: Vec<&str> = route.moves.iter().map(|d| d.name()).collect();
        out.push_str(&format!("{} moves: {}\n", names.len(), names.join(" ")));
        if !left.is_empty() {
            let shown: Vec<String> = left.iter().map(|(r, c)| format!("({r}, {c})")).collect();
            out.push_str(&format!("left uncovered: {}\n", shown.join(", ")));
        }
        out
    }

    fn no_facts(&self, stats: Stats, why: Option<String>) -> FactsReport {
        let mut json = serde_json::Map::new();
        json.insert("can_be_left".into(), json!(null));
        json.insert("always_covered".into(), json!(null));
        json.insert("explanation".into(), json!(why));
        let text = match why {
            Some(why) => format!("no solution, so there are no facts to report\nwhy: {why}\n"),
            None => "no solution, so there are no facts to report\n".to_string(),
        };
        FactsReport { status: Status::NoSolution, json, text, stats }
    }
}

impl Puzzle for TileCoverPuzzle {
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
        self.solve_with(options, EncodeOptions::default())
    }

    fn count(&self, options: &CountOptions) -> Result<CountReport, Error> {
        let engine = super::choose_engine(ENGINES, options.engine.as_deref())?;
        let started = Instant::now();
        if !options.skip_presolve && presolve::refute(&self.room).is_some() {
            let stats =
                Stats { engine: engine.to_string(), encode_ms: Stats::ms(started.elapsed()), ..Stats::default() };
            return Ok(CountReport { count: 0, saturated: false, complete: true, stats });
        }
        let encoding = encode(&self.room, engine, EncodeOptions::default())?;
        let mut session = Session::new(&self.room, &encoding, options.new_solver(encoding.cnf()));
        let encode_ms = Stats::ms(started.elapsed());
        // Blocking clauses are guarded by a selector, retired at the end; the
        // cuts added while repairing models are valid for good.
        let selector = session.new_selector();
        let mut count = 0u64;
        let mut complete = true;
        loop {
            if options.limit.is_some_and(|limit| count >= limit) {
                complete = false;
                break;
            }
            let Some(walk) = session.walk(&[selector])? else { break };
            self.confirm(&walk)?;
            count += 1;
            options.progress.record_solution();
            let mut blocking = encoding.blocking_clause(|lit| session.value(lit));
            blocking.push(!selector);
            session.add_clause(&blocking);
        }
        session.add_clause(&[!selector]);
        let stats = Stats::of_sat_size(engine, session.solved_size(), session.stats(), encode_ms);
        Ok(CountReport { count, saturated: false, complete, stats })
    }

    /// Which tiles some route leaves uncovered, and which every route covers.
    ///
    /// The loop asks for a route that leaves at least one tile no route so
    /// far has left: one clause "one of these at once" per call. Each model
    /// is repaired into a single walk with cuts before its values are read.
    fn facts(&self, options: &SolveOptions) -> Result<FactsReport, Error> {
        let engine = super::choose_engine(ENGINES, options.engine.as_deref())?;
        let started = Instant::now();
        let base_stats =
            || Stats { engine: engine.to_string(), encode_ms: Stats::ms(started.elapsed()), ..Stats::default() };
        if !options.skip_presolve
            && let Some(why) = presolve::refute(&self.room)
        {
            return Ok(self.no_facts(base_stats(), Some(why)));
        }
        let encoding = encode(&self.room, engine, EncodeOptions::default())?;
        let mut session = Session::new(&self.room, &encoding, options.new_solver(encoding.cnf()));
        let encode_ms = Stats::ms(started.elapsed());
        let finish = |session: &Session| Stats::of_sat_size(engine, session.solved_size(), session.stats(), encode_ms);
        let Some(walk) = session.walk_or_splice(&[])? else {
            return Ok(self.no_facts(finish(&session), None));
        };
        self.confirm(&walk)?;
        let tiles: Vec<usize> = self.room.tiles().collect();
        let mut can_be_left: Vec<bool> = tiles.iter().map(|&t| !session.value(encoding.covered(t))).collect();
        if self.room.leave_uncovered() > 0 {
            let selector = session.new_selector();
            loop {
                let mut clause: Vec<Lit> = tiles
                    .iter()
                    .zip(&can_be_left)
                    .filter(|(_, left)| !**left)
                    .map(|(&t, _)| !encoding.covered(t))
                    .collect();
                if clause.is_empty() {
                    break;
                }
                clause.push(!selector);
                session.add_clause(&clause);
                let Some(walk) = session.walk_or_splice(&[selector])? else { break };
                self.confirm(&walk)?;
                for (slot, &t) in can_be_left.iter_mut().zip(&tiles) {
                    *slot |= !session.value(encoding.covered(t));
                }
            }
            session.add_clause(&[!selector]);
        }
        let stats = finish(&session);
        let pick = |wanted: bool| -> Vec<Pos> {
            tiles.iter().zip(&can_be_left).filter(|(_, l)| **l == wanted).map(|(&t, _)| self.room.position(t)).collect()
        };
        let (left, always) = (pick(true), pick(false));
        let cells = |list: &[Pos]| list.iter().map(|&(r, c)| json!([r, c])).collect::<Vec<_>>();
        let mut json = serde_json::Map::new();
        json.insert("can_be_left".into(), json!(cells(&left)));
        json.insert("always_covered".into(), json!(cells(&always)));
        let mut marks: Vec<char> = self
            .grid
            .cells()
            .map(|(_, cell)| match cell {
                Cell::Wall => '#',
                Cell::Start => 'S',
                Cell::End => 'E',
                Cell::Tile => '.',
            })
            .collect();
        for &pos in &left {
            marks[self.grid.index_of(pos)] = 'o';
        }
        let mut text = self.grid.draw(|pos, _| marks[self.grid.index_of(pos)]);
        text.push_str(&format!(
            "\no: {} that some route leaves uncovered; every route covers the other {}\n",
            if left.len() == 1 { "1 tile".to_string() } else { format!("{} tiles", left.len()) },
            always.len()
        ));
        Ok(FactsReport { status: Status::Solved, json, text, stats })
    }

    /// Leads with the presolve's certificate when it refutes the room, then
    /// names a minimal set of tiles that no single walk from the start can
    /// all cover: the room is encoded with every tile allowed to be left,
    /// "this tile is covered" is assumed for each, and the failed core is
    /// shrunk by deletion.
    fn explain(&self, options: &SolveOptions) -> Result<ExplainReport, Error> {
        let engine = super::choose_engine(ENGINES, options.engine.as_deref())?;
        let started = Instant::now();
        let certificate = if options.skip_presolve { None } else { presolve::refute(&self.room) };
        let relaxed = Room::new(&self.grid, self.room.num_tiles());
        let encoding = encode(&relaxed, engine, EncodeOptions::default())?;
        let mut session = Session::new(&relaxed, &encoding, options.new_solver(encoding.cnf()));
        let encode_ms = Stats::ms(started.elapsed());
        let demands: Vec<Lit> = relaxed.tiles().map(|t| encoding.covered(t)).collect();
        let shrunk = shrink_by_deletion(&demands, |assumptions| -> Result<Option<Vec<Lit>>, Error> {
            Ok(match session.walk(assumptions)? {
                Some(walk) => {
                    let route = self.confirm_in(&relaxed, &walk)?;
                    if let Some(missed) = relaxed
                        .tiles()
                        .filter(|&t| assumptions.contains(&encoding.covered(t)))
                        .find(|&t| !route.path.contains(&relaxed.position(t)))
                    {
                        let message = format!("a walk assumed to cover {} does not", relaxed.label(missed));
                        return Err(Error::CheckFailed(message));
                    }
                    None
                }
                None => Some(session.failed_core()),
            })
        })?;
        let stats = Stats::of_sat_size(engine, session.solved_size(), session.stats(), encode_ms);
        let Some(kept) = shrunk else {
            return Ok(ExplainReport { status: Status::Solved, constraints: Vec::new(), certificate, stats });
        };
        let constraints = kept
            .iter()
            .map(|&lit| {
                let tile = relaxed.tiles().find(|&t| encoding.covered(t) == lit).expect("a tile's literal");
                let (row, col) = relaxed.position(tile);
                NamedConstraint {
                    name: format!("cover the tile at ({row}, {col})"),
                    row: Some(row),
                    col: Some(col),
                    line: None,
                }
            })
            .collect();
        Ok(ExplainReport { status: Status::NoSolution, constraints, certificate, stats })
    }
}

//! Tile cover: walk from the start over every tile once, as in Hero's Cave
//! (Oracle of Ages), possibly leaving a few tiles for the Cane of Somaria.
//!
//! The grid has `.` tiles to cover, `#` walls, one `S` start (stood on
//! already) and at most one `E`, a tile that must be the last. A solution is
//! a sequence of distinct tiles, each 4-adjacent to the one before and the
//! first to the start, that leaves at most `leave_uncovered` tiles. It is a
//! Hamiltonian path problem, and the encoding decides everything, so there
//! are several (see [`Engine`]):
//!
//! - `lazy` (the default): successor arcs with exactly one in and one out
//!   per covered tile, and cut-set clauses against detached cycles added
//!   between incremental solves;
//! - `lazy-nogood`: the same, cutting each cycle with "not all these arcs";
//! - `rank`: successor arcs and binary positions, in one eager CNF;
//! - `steps`: which tile is visited at each step, pruned by colour.
//!
//! Before SAT, [`presolve::analyse`] proves many rooms unsolvable with
//! structural arguments (dead ends, cut tiles, forced steps, colour and
//! degree counts), each certified in words a player follows, and hands what
//! it learns to the encodings as clauses; [`construct`] builds a route
//! directly where the room allows (a serpentine, or a flow whose loops are
//! spliced together). [`check`] judges every answer by walking it.

mod check;
pub mod construct;
pub mod designer;
mod encode;
mod flow;
mod graph;
mod load;
pub mod presolve;
pub mod rooms;
mod route_steps;
mod structure;
mod walker;

use std::time::Instant;

use serde::{Deserialize, Serialize};

pub use check::check;
pub use encode::EncodeOptions;
pub use graph::{Room, START};
pub use load::{load, load_puzzle};

use self::encode::{CutStyle, Encoding, Scheme};
use self::walker::{BorrowedWalker, Confirm, Walker};
use super::{
    CountMethod, CountOptions, CountReport, DecidedBy, Drawn, Error, ExplainReport, FactsReport, Formula,
    NamedConstraint, Puzzle, Solution, SolveOptions, SolveReport, Stats, Status,
};
use crate::cnf::{Lit, Var, card};
use crate::deduce::{self, Fact, Rule, Wanted};
use crate::draw::{Ground, Mark, Scene, Tint, Trail, text};
use crate::grid::{Dir, Grid, Pos};
use crate::solver::{Answer, Lazy, ProjectedModels, Solve, SolveStats, count_projected};

/// The `kind` of tile-cover models.
pub const KIND: &str = "tile-cover";

engines! {
    /// The encodings, the default (fastest measured) first.
    pub enum Engine {
        /// Successor arcs, with cut-set clauses against detached cycles added between solves.
        Lazy = "lazy",
        /// Successor arcs, cutting each detached cycle with "not all these arcs".
        LazyNogood = "lazy-nogood",
        /// Successor arcs and binary positions, in one eager CNF.
        Rank = "rank",
        /// Which tile is visited at each step.
        Steps = "steps",
    }
}

impl Engine {
    /// The encoding scheme behind the engine.
    pub fn scheme(self) -> Scheme {
        match self {
            Engine::Lazy => Scheme::Lazy(CutStyle::CutSet),
            Engine::LazyNogood => Scheme::Lazy(CutStyle::Nogood),
            Engine::Rank => Scheme::Rank,
            Engine::Steps => Scheme::Steps,
        }
    }
}

/// The engine names, the default first.
pub const ENGINES: &[&str] = Engine::NAMES;

/// A route, as the JSON output gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteSolution {
    /// The moves from the start, in order.
    pub moves: Vec<Dir>,
    /// The tiles the moves reach, in order, as `[row, col]`.
    pub path: Vec<Pos>,
    /// The tiles left uncovered, in reading order.
    pub uncovered: Vec<Pos>,
}

/// What `facts` found: which tiles some route leaves uncovered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoverFacts {
    /// Tiles that some route leaves uncovered; `None` when there is no route.
    pub can_be_left: Option<Vec<Pos>>,
    /// Tiles that every route covers; `None` when there is no route.
    pub always_covered: Option<Vec<Pos>>,
    /// Why there is no route, when the presolve knows.
    pub explanation: Option<String>,
}

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

/// The most tiles over which `explain` searches for a smallest set of tiles
/// when the presolve's certificate names none.
pub const EXPLAIN_SEARCH_LIMIT: usize = 200;

/// The most variables an encoding may need before it is refused up front.
pub const MAX_VARIABLES: u64 = 40_000_000;

/// Builds an encoding, with the presolve's deductions as clauses when given
/// (see [`structure`]), refusing one whose size would exceed
/// [`MAX_VARIABLES`] rather than exhaust memory on the way.
fn encode(
    room: &Room,
    engine: Engine,
    options: EncodeOptions,
    deductions: Option<&presolve::Deductions>,
) -> Result<Encoding, Error> {
    let scheme = engine.scheme();
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
    let deductions = deductions.filter(|_| options.deductions);
    Ok(Encoding::with_deductions(room, scheme, options, deductions))
}

/// A grid that breaks the rules beyond its symbols.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// There is no `S`.
    #[error("no start 'S' in the grid; expected exactly one 'S', the cell the walk starts on")]
    NoStart,
    /// A second `S` or `E`.
    #[error(
        "a second '{symbol}' at grid cell {second:?}, after the one at {first:?}; expected one 'S' and at most one 'E'"
    )]
    Second {
        /// `S` or `E`.
        symbol: char,
        /// The first.
        first: Pos,
        /// The second.
        second: Pos,
    },
    /// More tiles to leave than there are.
    #[error("{leave_uncovered} tiles to leave uncovered; expected at most {tiles}, the tiles in the room")]
    TooManyLeft {
        /// Tiles that may be left.
        leave_uncovered: usize,
        /// Tiles in the room.
        tiles: usize,
    },
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

/// A walk confirmed by [`check`]: its moves and the tiles they reach.
struct Route {
    moves: Vec<Dir>,
    path: Vec<Pos>,
}

impl TileCoverPuzzle {
    /// A puzzle from a grid with exactly one [`Cell::Start`] and at most one
    /// [`Cell::End`], in which at most `leave_uncovered` of the tiles may be
    /// left; anything else is refused with what is wrong.
    ///
    /// ```
    /// use somaria::grid::Grid;
    /// use somaria::puzzles::tile_cover::{Cell, TileCoverPuzzle};
    /// let grid = Grid::from_rows(vec![vec![Cell::Start, Cell::Tile]]).unwrap();
    /// assert!(TileCoverPuzzle::new(grid.clone(), 1).is_ok());
    /// assert!(TileCoverPuzzle::new(grid, 2).is_err());
    /// ```
    pub fn new(grid: Grid<Cell>, leave_uncovered: usize) -> Result<TileCoverPuzzle, LayoutError> {
        for (cell, symbol) in [(Cell::Start, 'S'), (Cell::End, 'E')] {
            let mut found = grid.cells().filter(|(_, c)| **c == cell).map(|(p, _)| p);
            if let (Some(first), Some(second)) = (found.next(), found.next()) {
                return Err(LayoutError::Second { symbol, first, second });
            }
        }
        if !grid.cells().any(|(_, c)| *c == Cell::Start) {
            return Err(LayoutError::NoStart);
        }
        let tiles = grid.cells().filter(|(_, c)| matches!(c, Cell::Tile | Cell::End)).count();
        if leave_uncovered > tiles {
            return Err(LayoutError::TooManyLeft { leave_uncovered, tiles });
        }
        let room = Room::new(&grid, leave_uncovered);
        Ok(TileCoverPuzzle { title: None, grid, room })
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

    /// A solver over `encoding` of `room` whose every model is a walk that
    /// passed the independent check: see [`Walker`].
    fn walker<'a>(
        &'a self,
        room: &'a Room,
        encoding: &'a Encoding,
        solver: Box<dyn Solve>,
        splice: bool,
    ) -> Lazy<Box<dyn Solve>, BorrowedWalker<'a, impl Confirm + 'a>> {
        Lazy::new(solver, Walker::new(room, encoding, splice, self.confirm()))
    }

    /// The independent check of a walk in a room: [`TileCoverPuzzle::route_in`].
    fn confirm(&self) -> impl Confirm + '_ {
        |room: &Room, walk: &[usize]| self.route_in(room, walk).map(drop)
    }

    /// The stats of a run over `encoding` whose solver added `cuts`.
    fn sat_stats(engine: Engine, encoding: &Encoding, cuts: usize, solver: &impl Solve, encode_ms: f64) -> Stats {
        let size = (encoding.cnf().num_vars(), encoding.cnf().num_clauses() + cuts);
        Stats::of_sat_size(engine.name(), size, solver.stats(), encode_ms)
    }

    /// `count --method exact`: the room's eager formula (the `steps` engine
    /// unless `--engine rank`: measured on the open 5×5 room, its count took
    /// 0.04 s of CPU against 0.49 s), counted by [`count_projected`] onto the
    /// literals the enumeration blocks on, the arcs or visits and the tiles
    /// left, so both count the same routes. A lazy engine's formula allows
    /// detached cycles that only its cuts remove, so it is refused.
    fn count_exact(&self, options: &CountOptions) -> Result<CountReport, Error> {
        let engine = Engine::choose(Some(options.engine.as_deref().unwrap_or(Engine::Steps.name())))?;
        if let Scheme::Lazy(_) = engine.scheme() {
            return Err(Error::BadRequest(format!(
                "count --method exact cannot count with the {engine} engine: it cuts detached cycles lazily between \
                 SAT calls, so its formula alone allows more than the routes; expected --engine steps or --engine rank"
            )));
        }
        let started = Instant::now();
        let analysis = (!options.skip_presolve).then(|| presolve::analyse(&self.room));
        if analysis.as_ref().is_some_and(|a| a.refutation.is_some()) {
            return Ok(CountReport::exact(0, options, Self::presolve_stats(engine, started)));
        }
        let encoding = encode(&self.room, engine, EncodeOptions::default(), analysis.as_ref().map(|a| &a.deductions))?;
        let encode_ms = Stats::ms(started.elapsed());
        let counting = Instant::now();
        let vars: Vec<Var> = encoding.distinguishing_literals().iter().map(|l| l.var()).collect();
        let count = count_projected(encoding.cnf(), &vars, &[], &options.solver.stop).map_err(Error::Stopped)?;
        let size = (encoding.cnf().num_vars(), encoding.cnf().num_clauses());
        let mut stats = Stats::of_sat_size(engine.name(), size, SolveStats::default(), encode_ms);
        stats.solve_ms += Stats::ms(counting.elapsed());
        Ok(CountReport::exact(count, options, stats))
    }

    /// The report of a presolve refutation.
    fn presolve_stats(engine: Engine, started: Instant) -> Stats {
        Stats { engine: engine.to_string(), encode_ms: Stats::ms(started.elapsed()), ..Stats::default() }
    }

    /// Solves with an engine and the encoding options given, for benches
    /// that measure what a part of the encoding is worth.
    pub fn solve_with(&self, options: &SolveOptions, encode_options: EncodeOptions) -> Result<SolveReport, Error> {
        let engine = Engine::choose(options.engine.as_deref())?;
        let started = Instant::now();
        // A construction solves nothing, so when the solved formula is asked
        // for (`--dimacs`), SAT finds the route.
        let construct = !options.skip_presolve && encode_options.construct && !options.keep_cnf;
        // A whole rectangle from a corner needs no analysis at all.
        if construct && let Some(walk) = construct::serpentine(&self.room) {
            return self.constructed(&walk, "serpentine", started);
        }
        let analysis = (!options.skip_presolve).then(|| presolve::analyse(&self.room));
        if let Some(analysis) = analysis.as_ref().filter(|_| construct)
            && analysis.refutation.is_none()
            && self.room.num_nodes() <= construct::SPLICE_LIMIT
            && let Some(walk) = construct::splice(&self.room, Some(&analysis.deductions))
        {
            return self.constructed(&walk, "splice", started);
        }
        if let Some(refutation) = analysis.as_ref().and_then(|a| a.refutation.clone()) {
            return Ok(SolveReport {
                status: Status::NoSolution,
                solution: None,
                explanation: Some(refutation.text),
                cost: None,
                objective: None,
                decided_by: DecidedBy::Presolve,
                stats: Self::presolve_stats(engine, started),
                cnf: None,
            });
        }
        let encoding = encode(&self.room, engine, encode_options, analysis.as_ref().map(|a| &a.deductions))?;
        let mut solver =
            self.walker(&self.room, &encoding, options.new_solver(encoding.cnf()), encode_options.splice_cycles);
        let encode_ms = Stats::ms(started.elapsed());
        let answer = solver.solve()?;
        let cnf = options.settle_formula(answer == Answer::Unsat, || {
            encoding.cnf().extended("cuts against detached cycles, added between solves", solver.cuts())
        })?;
        let (status, solution) = match answer {
            Answer::Unsat => (Status::NoSolution, None),
            Answer::Sat => {
                let route = self.route_in(&self.room, solver.repairer().walk()).map_err(Error::CheckFailed)?;
                let solution = self.solution(&route);
                (Status::Solved, Some(Solution::of(&solution)))
            }
        };
        let stats = Self::sat_stats(engine, &encoding, solver.cuts().len(), &solver, encode_ms);
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

    /// The report for a route built without SAT, once it passes the check.
    fn constructed(&self, walk: &[usize], method: &str, started: Instant) -> Result<SolveReport, Error> {
        let route = self.route_in(&self.room, walk).map_err(Error::CheckFailed)?;
        let solution = self.solution(&route);
        let stats = Stats { engine: method.to_string(), encode_ms: Stats::ms(started.elapsed()), ..Stats::default() };
        Ok(SolveReport {
            status: Status::Solved,
            solution: Some(Solution::of(&solution)),
            explanation: None,
            cost: None,
            objective: None,
            decided_by: DecidedBy::Construction,
            stats,
            cnf: None,
        })
    }

    /// For each tile, whether some route leaves it uncovered, found the
    /// slow and simple way: one solve per tile under the assumption "this
    /// tile is uncovered", on one incremental solver. Returns the tiles that
    /// can be left and the SAT calls made. The test suite checks
    /// [`Puzzle::facts`] against it.
    pub fn leavable_by_assumptions(&self, engine: Option<&str>) -> Result<(Vec<Pos>, u64), Error> {
        let engine = Engine::choose(engine)?;
        let encoding = encode(&self.room, engine, EncodeOptions::default(), None)?;
        let plain = crate::solver::new_solver(encoding.cnf(), None);
        let mut solver = self.walker(&self.room, &encoding, plain, true);
        let mut leavable = Vec::new();
        for tile in self.room.tiles() {
            if solver.solve_under(&[!encoding.covered(tile)])? == Answer::Sat {
                let route = self.route_in(&self.room, solver.repairer().walk()).map_err(Error::CheckFailed)?;
                if route.path.contains(&self.room.position(tile)) {
                    return Err(Error::CheckFailed(format!("tile {} was assumed uncovered", self.room.label(tile))));
                }
                leavable.push(self.room.position(tile));
            }
        }
        Ok((leavable, solver.stats().sat_calls))
    }

    /// Turns a walk over the nodes of `room` into moves and checks them
    /// independently against the grid, with the tiles `room` may leave.
    fn route_in(&self, room: &Room, walk: &[usize]) -> Result<Route, String> {
        let mut moves = Vec::with_capacity(walk.len());
        let mut here = room.position(START);
        for &node in walk {
            let next = room.position(node);
            let dir = Dir::ALL
                .into_iter()
                .find(|&d| self.grid.step(here, d) == Some(next))
                .ok_or_else(|| format!("the walk jumps from {here:?} to {next:?}"))?;
            moves.push(dir);
            here = next;
        }
        let path = check(&self.grid, room.leave_uncovered(), &moves)?;
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

    fn solution(&self, route: &Route) -> RouteSolution {
        RouteSolution { moves: route.moves.clone(), path: route.path.clone(), uncovered: self.uncovered(&route.path) }
    }

    /// The room with an arrow on the start and each tile pointing to the
    /// next, the last tile marked, and the tiles left marked; then the moves.
    fn route_text(&self, route: &RouteSolution) -> String {
        let mut out = text::draw(&self.route_scene(route), &TEXT_STYLE);
        out.push_str("\nS start, arrows show the next move, * or E the last tile, o a tile left uncovered, # wall\n");
        let names: Vec<&str> = route.moves.iter().map(|d| d.name()).collect();
        out.push_str(&format!("{}: {}\n", super::counted(names.len(), "move"), names.join(" ")));
        if !route.uncovered.is_empty() {
            let shown: Vec<String> = route.uncovered.iter().map(|(r, c)| format!("({r}, {c})")).collect();
            out.push_str(&format!("left uncovered: {}\n", shown.join(", ")));
        }
        out
    }

    fn facts_text(&self, facts: &CoverFacts) -> String {
        let (Some(left), Some(always)) = (&facts.can_be_left, &facts.always_covered) else {
            return match &facts.explanation {
                Some(why) => format!("no solution, so there are no facts to report\nwhy: {why}\n"),
                None => "no solution, so there are no facts to report\n".to_string(),
            };
        };
        let mut text = text::draw(&self.scene(left, |_| {}), &TEXT_STYLE);
        text.push_str(&format!(
            "\no: {} that some route leaves uncovered; every route covers the other {}\n",
            super::counted(left.len(), "tile"),
            always.len()
        ));
        text
    }

    /// The room with its walls and the `shaded` tiles, what `draw` adds,
    /// then the start (a ring) and the end tile (`E`).
    fn scene(&self, shaded: &[Pos], draw: impl FnOnce(&mut Scene)) -> Scene {
        let mut scene = Scene::new(self.grid.rows(), self.grid.cols());
        for (pos, cell) in self.grid.cells() {
            if *cell == Cell::Wall {
                scene.set_ground(pos, Ground::Wall);
            }
        }
        for &pos in shaded {
            scene.set_ground(pos, Ground::Shaded(Tint::Highlight));
        }
        draw(&mut scene);
        scene.marks.push((self.room.position(START), Mark::ring(Tint::Ink)));
        if let Some(end) = self.room.end() {
            scene.marks.push((self.room.position(end), Mark::label("E", Tint::Ink)));
        }
        scene
    }

    /// The route as one line from the start to its last tile (a square),
    /// the tiles it leaves shaded.
    fn route_scene(&self, route: &RouteSolution) -> Scene {
        self.scene(&route.uncovered, |scene| {
            let cells: Vec<Pos> =
                std::iter::once(self.room.position(START)).chain(route.path.iter().copied()).collect();
            if let Some(&last) = route.path.last() {
                scene.marks.push((last, Mark::square(Tint::Route(0))));
            }
            scene.trails.push(Trail { cells, tint: Tint::Route(0), closed: false });
        })
    }

    fn no_facts(&self, stats: Stats, explanation: Option<String>) -> FactsReport {
        let facts = CoverFacts { can_be_left: None, always_covered: None, explanation };
        FactsReport::of(Status::NoSolution, &facts, stats)
    }
}

/// What building a room's deductions measured and found, for the report.
struct Built {
    /// The size of the encoding, before any demands or cuts.
    size: (usize, usize),
    encode_ms: f64,
    /// The presolve's certificate, when it refuted the room before SAT.
    refutation: Option<String>,
}

impl Built {
    /// The stats of a run on the deductions' solver: its cuts count
    /// towards the formula that was solved.
    fn stats(&self, engine: Engine, solver: SolveStats) -> Stats {
        Stats::of_sat_size(engine.name(), (self.size.0, self.size.1 + solver.cuts as usize), solver, self.encode_ms)
    }
}

impl TileCoverPuzzle {
    /// The deductions over the lazy solver. With every rule fixed, it is the
    /// room itself, with the presolve's deductions as clauses (or refuted,
    /// when the presolve refutes it). Switchable, it is the room with every
    /// tile allowed to be left and one rule per tile, "cover this tile", of
    /// which `leave_uncovered` may fail: the rules hold together exactly
    /// when some walk covers all but that many of them. The facts are "this
    /// tile is left uncovered", per tile.
    fn deduce(&self, options: &SolveOptions, wanted: Wanted) -> Result<(deduce::Deductions<'_>, Built), Error> {
        let engine = Engine::choose(options.engine.as_deref())?;
        let started = Instant::now();
        if wanted == Wanted::STEPS {
            return Ok(self.route_step_deductions(options, started));
        }
        let fixed = !wanted.switchable;
        let analysis = (fixed && !options.skip_presolve).then(|| presolve::analyse(&self.room));
        if let Some(refutation) = analysis.as_ref().and_then(|a| a.refutation.clone()) {
            let encode_ms = Stats::ms(started.elapsed());
            let built = Built { size: (0, 0), encode_ms, refutation: Some(refutation.text) };
            let mut deductions = deduce::Deductions::new(options.new_solver(&Default::default()), |_, _| Ok(()));
            deductions.refuted = true;
            return Ok((deductions, built));
        }
        let room = if fixed { self.room.clone() } else { Room::new(&self.grid, self.room.num_tiles()) };
        let encoding = encode(&room, engine, EncodeOptions::default(), analysis.as_ref().map(|a| &a.deductions))?;
        let size = (encoding.cnf().num_vars(), encoding.cnf().num_clauses());
        let covered: Vec<Lit> = (0..room.num_nodes()).map(|n| encoding.covered(n)).collect();
        let facts = if wanted.facts { self.left_facts(&room, &covered) } else { Vec::new() };
        let solver = options.new_solver(encoding.cnf());
        let mut walker = Lazy::new(solver, Walker::new(room, encoding, true, self.confirm()));
        let budget = self.room.leave_uncovered();
        let tiles: Vec<usize> = self.room.tiles().collect();
        let rules = if fixed { Vec::new() } else { self.cover_rules(&mut walker, &covered, budget) };
        // The walker has confirmed the walk and that the model's "covered"
        // agrees with it; what is left is the budget over the tiles demanded.
        let check = move |value: &dyn Fn(Lit) -> bool, demanded: Option<&[usize]>| {
            let missed = match demanded {
                None => tiles.iter().filter(|&&t| !value(covered[t])).count(),
                Some(rules) => rules.iter().filter(|&&r| !value(covered[tiles[r]])).count(),
            };
            if missed > budget {
                return Err(format!("a walk assumed to leave at most {budget} demanded tiles left {missed}"));
            }
            Ok(())
        };
        let mut deductions = deduce::Deductions::new(Box::new(walker), check);
        deductions.rules = rules;
        deductions.facts = facts;
        Ok((deductions, Built { size, encode_ms: Stats::ms(started.elapsed()), refutation: None }))
    }

    /// The deductions of `hint` and `steps`: the route's steps as facts and
    /// the room's rules as a player states them ([`route_steps`]), with
    /// "the route is one piece" cut in between solves under its selector.
    /// Every model is checked rule by rule, and with every rule on it is
    /// walked over the grid.
    fn route_step_deductions(&self, options: &SolveOptions, started: Instant) -> (deduce::Deductions<'_>, Built) {
        let steps = route_steps::build(self);
        let size = (steps.guarded.num_vars(), steps.guarded.num_clauses());
        let cuts = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let solver = Lazy::new(options.new_solver(&steps.guarded), steps.check.pieces(steps.piece, cuts.clone()));
        let rule_check = steps.check.clone();
        let check = move |value: &dyn Fn(Lit) -> bool, on: Option<&[usize]>| match on {
            Some(rules) => rule_check.rules(value, rules),
            None => {
                let every: Vec<usize> = (0..rule_check.rule_count()).collect();
                rule_check.rules(value, &every)?;
                let walk = rule_check.walk(value)?;
                self.route_in(&self.room, &walk).map(drop)
            }
        };
        let mut deductions = deduce::Deductions::new(Box::new(solver), check);
        deductions.rules = steps.rules;
        deductions.facts = steps.facts;
        let guarded = steps.guarded;
        deductions.formula = Some(Box::new(move || {
            guarded.extended("cuts for \"the route is one piece\", added between solves", &cuts.borrow())
        }));
        (deductions, Built { size, encode_ms: Stats::ms(started.elapsed()), refutation: None })
    }

    /// One rule per tile, "cover the tile at (r, c)": the tile's "covered"
    /// literal itself when no tile may be left, and otherwise a demand that
    /// is met when the tile is covered or counted among at most `budget`
    /// misses, added to `solver`.
    fn cover_rules(&self, solver: &mut dyn Solve, covered: &[Lit], budget: usize) -> Vec<Rule> {
        let mut unmet = Vec::new();
        let rules = self
            .room
            .tiles()
            .map(|t| {
                let selector = if budget == 0 {
                    covered[t]
                } else {
                    let (demand, miss) = (solver.new_var().pos(), solver.new_var().pos());
                    solver.add_clause(&[!demand, covered[t], miss]);
                    unmet.push(miss);
                    demand
                };
                let (row, col) = self.room.position(t);
                let name = format!("cover the tile at ({row}, {col})");
                Rule {
                    selector,
                    name,
                    place: Some((row, col)),
                    line: None,
                    cells: vec![(row, col)],
                    subjects: vec![t],
                    reads: None,
                    house: None,
                }
            })
            .collect();
        if budget > 0 {
            card::at_most_k(solver, &unmet, budget);
        }
        rules
    }

    /// "The tile at (r, c) is left uncovered", per tile of `room`.
    fn left_facts(&self, room: &Room, covered: &[Lit]) -> Vec<Fact> {
        room.tiles()
            .map(|t| {
                let (row, col) = room.position(t);
                let name = format!("the tile at ({row}, {col}) is left uncovered");
                let about = format!("tile ({row}, {col})");
                let (subject, value, shown) = (t, 0, "uncovered".into());
                Fact { lit: !covered[t], name, place: Some((row, col)), subject, value, about, shown }
            })
            .collect()
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
        Engine::NAMES
    }

    fn solve(&self, options: &SolveOptions) -> Result<SolveReport, Error> {
        self.solve_with(options, EncodeOptions::default())
    }

    /// Counts routes by enumerating the models of the lazy solver (no
    /// splicing, so each model is its own route), blocked on the arcs they
    /// choose and the tiles they leave; or, with `--method exact`, by
    /// counting an eager formula (`TileCoverPuzzle::count_exact`).
    fn count(&self, options: &CountOptions) -> Result<CountReport, Error> {
        if options.method == CountMethod::Exact {
            return self.count_exact(options);
        }
        let engine = Engine::choose(options.engine.as_deref())?;
        let started = Instant::now();
        let analysis = (!options.skip_presolve).then(|| presolve::analyse(&self.room));
        if analysis.as_ref().is_some_and(|a| a.refutation.is_some()) {
            return Ok(CountReport {
                count: 0,
                saturated: false,
                complete: true,
                stats: Self::presolve_stats(engine, started),
                stopped: None,
            });
        }
        let deductions = analysis.as_ref().map(|a| &a.deductions);
        let encoding = encode(&self.room, engine, EncodeOptions::default(), deductions)?;
        let mut solver = self.walker(&self.room, &encoding, options.new_solver(encoding.cnf()), false);
        let encode_ms = Stats::ms(started.elapsed());
        let mut count = 0u64;
        let mut complete = true;
        // A route is fixed by its arcs; two routes with the same arcs and
        // tiles left are one, and a route with more arcs covers more tiles.
        let mut models =
            ProjectedModels::new(&mut solver, encoding.distinguishing_literals(), &[]).block_on_true_literals();
        loop {
            if options.limit.is_some_and(|limit| count >= limit) {
                complete = false;
                break;
            }
            let Some(model) = models.next() else { break };
            model?;
            count += 1;
            options.progress.record_solution();
        }
        drop(models);
        let stats = Self::sat_stats(engine, &encoding, solver.cuts().len(), &solver, encode_ms);
        Ok(CountReport { count, saturated: false, complete, stats, stopped: None })
    }

    /// Which tiles some route leaves uncovered, and which every route
    /// covers: the possible facts "this tile is left" on the lazy solver
    /// (splicing allowed: a spliced walk leaves the same tiles).
    fn facts(&self, options: &SolveOptions) -> Result<FactsReport, Error> {
        let engine = Engine::choose(options.engine.as_deref())?;
        let (mut deductions, built) = self.deduce(options, Wanted::FACTS)?;
        let stats = built.stats(engine, deductions.solver.stats());
        if let Some(refutation) = built.refutation {
            return Ok(self.no_facts(stats, Some(refutation)));
        }
        let Some(possible) = deduce::possible_facts(&mut deductions)? else {
            return Ok(self.no_facts(built.stats(engine, deductions.solver.stats()), None));
        };
        let stats = built.stats(engine, deductions.solver.stats());
        let pick = |wanted: bool| -> Vec<Pos> {
            let marked = deductions.facts.iter().zip(&possible).filter(|(_, p)| **p == wanted);
            marked.filter_map(|(fact, _)| fact.place).collect()
        };
        let facts = CoverFacts { can_be_left: Some(pick(true)), always_covered: Some(pick(false)), explanation: None };
        Ok(FactsReport::of(Status::Solved, &facts, stats))
    }

    /// Leads with the presolve's certificate when it refutes the room, then
    /// names a minimal set of tiles that no walk from the start can cover
    /// while leaving at most `leave_uncovered` of them (the rules of the
    /// switchable deductions: see `TileCoverPuzzle::deduce`). With every
    /// tile demanded this is the puzzle itself, so the verdict agrees with
    /// `solve`.
    fn explain(&self, options: &SolveOptions) -> Result<ExplainReport, Error> {
        let engine = Engine::choose(options.engine.as_deref())?;
        let refutation = if options.skip_presolve { None } else { presolve::analyse(&self.room).refutation };
        let (mut deductions, built) = self.deduce(options, Wanted::EXPLANATION)?;
        // When the certificate names tiles that no walk covers together (a
        // dead end, a cut tile and the parts beyond it), the shrinking
        // starts from them, so the constraints listed are the certificate's
        // own. The relaxed room numbers its nodes as the room does.
        let seed: Vec<usize> = refutation.iter().flat_map(|r| &r.cells).map(|&t| t - 1).collect();
        let certificate = refutation.map(|r| r.text);
        let mut kept = None;
        if !seed.is_empty() {
            kept = deduce::minimal_conflict(&mut deductions, &seed)?;
        }
        let tiles = deductions.rules.len();
        if kept.is_none() && certificate.is_some() && tiles > EXPLAIN_SEARCH_LIMIT {
            // A global argument (a colour count, a matching) over many tiles
            // is one CDCL proves only slowly, if at all, and every deletion
            // step would ask for it again; the certificate is the proof.
            let rule = format!(
                "the certificate above is the explanation: a smallest set of tiles is searched for only in rooms of \
                 up to {EXPLAIN_SEARCH_LIMIT} tiles, or from the tiles a certificate names"
            );
            let stats = built.stats(engine, deductions.solver.stats());
            return Ok(ExplainReport { certificate, rule: Some(rule), ..ExplainReport::conflict(Vec::new(), stats) });
        }
        if kept.is_none() {
            kept = deduce::minimal_conflict(&mut deductions, &(0..tiles).collect::<Vec<_>>())?;
        }
        let stats = built.stats(engine, deductions.solver.stats());
        let Some(kept) = kept else {
            return Ok(ExplainReport { certificate, ..ExplainReport::solved(stats) });
        };
        let constraints = kept.iter().map(|&r| NamedConstraint::from(&deductions.rules[r])).collect();
        let budget = self.room.leave_uncovered();
        let rule =
            (budget > 0).then(|| format!("a route may leave at most {budget} of the tiles named below uncovered"));
        Ok(ExplainReport { certificate, rule, ..ExplainReport::conflict(constraints, stats) })
    }

    fn formula(&self, engine: Option<&str>) -> Result<Formula, Error> {
        let engine = Engine::choose(engine)?;
        // As `solve` hands it over: with the presolve's deductions as clauses.
        let analysis = presolve::analyse(&self.room);
        let encoding = encode(&self.room, engine, EncodeOptions::default(), Some(&analysis.deductions))?;
        let (equisatisfiable, notes) = match engine.scheme() {
            Scheme::Lazy(_) => (
                false,
                vec![
                    format!(
                        "the {engine} engine's starting formula: it leaves out that the route is one piece, which \
                         the engine adds as cut clauses between solves when a model has detached cycles"
                    ),
                    "so a model of this formula may be a route plus detached cycles; if it has none the room has \
                     no route, and for a formula with a model exactly when a route exists use --engine rank"
                        .to_string(),
                ],
            ),
            Scheme::Rank | Scheme::Steps => {
                (true, vec![format!("the {engine} encoding: a model is a route, and every route is a model")])
            }
        };
        Ok(Formula { cnf: encoding.cnf().clone(), engine: engine.name(), equisatisfiable, notes })
    }

    /// The room with its walls: the route as one line from the start (a
    /// ring) to its last tile (a square), tiles left shaded; or the tiles
    /// some route may leave shaded; or the explanation's tiles outlined,
    /// with its words in a caption.
    fn picture(&self, of: Drawn<'_>) -> Result<Scene, Error> {
        let width = (self.grid.cols() * 3).max(30);
        Ok(match of {
            Drawn::Solution(report) => {
                let route = report.solution.as_ref().map(|s| s.typed::<RouteSolution>()).transpose()?;
                let mut scene = route.map_or_else(|| self.scene(&[], |_| {}), |route| self.route_scene(route));
                if let Some(route) = route {
                    let mut line = super::counted(route.moves.len(), "move");
                    if !route.uncovered.is_empty() {
                        line.push_str(&format!(
                            "; shaded: {} left uncovered",
                            super::counted(route.uncovered.len(), "tile")
                        ));
                    }
                    scene.caption.push(line);
                }
                if let Some(why) = &report.explanation {
                    scene.caption.extend(super::wrapped(&format!("no route: {why}"), width));
                }
                scene
            }
            Drawn::Facts(report) => match report.typed::<CoverFacts>()?.and_then(|f| f.can_be_left.as_ref()) {
                Some(left) => {
                    let mut scene = self.scene(left, |_| {});
                    let line =
                        format!("shaded: {} that some route leaves uncovered", super::counted(left.len(), "tile"));
                    scene.caption.push(line);
                    scene
                }
                None => {
                    let mut scene = self.scene(&[], |_| {});
                    scene.caption.push("no route, so there are no facts".to_string());
                    scene
                }
            },
            Drawn::Explanation(report) => {
                let mut scene = self.scene(&[], |_| {});
                scene.outlines.extend(report.places());
                if let Some(certificate) = &report.certificate {
                    scene.caption.extend(super::wrapped(&format!("no route: {certificate}"), width));
                }
                if !report.constraints.is_empty() {
                    let n = super::counted(report.constraints.len(), "tile");
                    let line = match &report.rule {
                        Some(rule) => format!("outlined: no route covers these {n} ({rule})"),
                        None => format!("outlined: no route covers all {n}"),
                    };
                    scene.caption.extend(super::wrapped(&line, width));
                }
                if report.status == Status::Solved {
                    scene.caption.push("the room has a route, so there is nothing to explain".to_string());
                }
                scene
            }
        })
    }

    /// The route drawn and listed, or the tiles some route may leave.
    fn text(&self, of: Drawn<'_>) -> Result<Option<String>, Error> {
        Ok(match of {
            Drawn::Solution(report) => match &report.solution {
                Some(solution) => Some(self.route_text(solution.typed()?)),
                None => None,
            },
            Drawn::Facts(report) => report.typed::<CoverFacts>()?.map(|facts| self.facts_text(facts)),
            Drawn::Explanation(_) => None,
        })
    }

    fn deducible(&self) -> Option<&dyn crate::puzzles::Deducible> {
        Some(self)
    }
}

impl crate::puzzles::Deducible for TileCoverPuzzle {
    fn deductions(&self, options: &SolveOptions, wanted: Wanted) -> Result<deduce::Deductions<'_>, Error> {
        Ok(self.deduce(options, wanted)?.0)
    }

    /// `moves=R,R,D`, walked from the start, as the steps it takes.
    fn given_entries(&self, given: &[String]) -> Result<Vec<(String, String)>, Error> {
        route_steps::given_entries(&self.grid, given)
    }

    /// The moves of a route in the shape of `solve`'s solution.
    fn entries_of_solution(&self, solution: &serde_json::Value) -> Option<Result<Vec<String>, super::StateError>> {
        Some(moves_of_solution(solution))
    }
}

/// A route's `moves` (a prefix of them, or all), as `moves=...`.
fn moves_of_solution(solution: &serde_json::Value) -> Result<Vec<String>, super::StateError> {
    let bad = |message: String| super::StateError { member: Some("moves".into()), message };
    let Some(moves) = solution.get("moves") else {
        return Err(super::StateError {
            member: None,
            message: "no member \"moves\"; expected the moves walked so far, as solve's solution gives them".into(),
        });
    };
    let Some(list) = moves.as_array() else { return Err(bad(format!("moves is {moves}; expected a list"))) };
    let mut words = Vec::new();
    for m in list {
        match m.as_str() {
            Some(word) if Dir::from_name(word).is_some() => words.push(word.to_string()),
            _ => return Err(bad(format!("a move {m}; expected \"up\", \"down\", \"left\" or \"right\""))),
        }
    }
    Ok(if words.is_empty() { Vec::new() } else { vec![format!("moves={}", words.join(","))] })
}

/// How the room is drawn as text: the model's own symbols, `o` for a tile
/// left, `*` for the route's last tile.
const TEXT_STYLE: text::Style =
    text::Style { floor: '.', wall: '#', shaded: 'o', dot: None, ring: Some('S'), square: Some('*'), indent: "" };

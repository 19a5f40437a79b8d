//! Fans and weathercocks, as in the Akh Va'quot shrine.
//!
//! Each fan blows one of four ways; every weathercock must stand in the wind
//! of some fan. The puzzle comes in two forms:
//!
//! - a grid (`F` fan, `W` weathercock, `.` floor, `#` wall), where a fan's
//!   wind covers every cell in its direction up to the first wall or the
//!   edge, passing over fans and weathercocks; fans are numbered in reading
//!   order;
//! - a listing that says, for each weathercock, which fan directions hit it.
//!
//! The CNF has one variable per fan and direction, exactly one direction per
//! fan, and one clause per weathercock naming the fan directions that cover
//! it. [`check`] judges answers by recomputing the wind from the grid or the
//! listing, without the CNF.

mod check;
mod encode;
pub mod generate;
mod load;

use std::time::Instant;

use serde_json::json;

pub use check::check;
pub use encode::Encoding;
pub use load::{MAX_FANS, load, load_puzzle};

use super::{
    CountOptions, CountReport, DecidedBy, Error, ExplainReport, FactsReport, NamedConstraint, Puzzle, Solution,
    SolveOptions, SolveReport, Stats, Status,
};
use crate::grid::{Dir, Grid, Pos};
use crate::solver::{ProjectedModels, Solve, VarisatSolver, minimal_unsat_subset, possible_literals};

/// The `kind` of fan models.
pub const KIND: &str = "fans";

/// The engines: one SAT encoding.
pub const ENGINES: &[&str] = &["sat"];

/// A cell of the grid form.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// A fan, to be turned.
    Fan,
    /// A weathercock, which must be in some fan's wind.
    Weathercock,
    /// Open floor: wind passes.
    Floor,
    /// A wall: wind stops.
    Wall,
}

impl Cell {
    /// The cell a model symbol stands for.
    pub fn from_symbol(symbol: char) -> Option<Cell> {
        match symbol {
            'F' => Some(Cell::Fan),
            'W' => Some(Cell::Weathercock),
            '.' => Some(Cell::Floor),
            '#' => Some(Cell::Wall),
            _ => None,
        }
    }

    /// The symbol for this cell.
    pub fn symbol(self) -> char {
        match self {
            Cell::Fan => 'F',
            Cell::Weathercock => 'W',
            Cell::Floor => '.',
            Cell::Wall => '#',
        }
    }
}

/// The symbols of the grid form, for messages.
pub const SYMBOLS: &str = "'F' fan, 'W' weathercock, '.' floor or '#' wall";

/// "Fan `fan` blowing `dir`".
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hit {
    /// The fan's index.
    pub fan: usize,
    /// The direction it must blow.
    pub dir: Dir,
}

/// A weathercock and the fan directions that make it spin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weathercock {
    /// Its cell, in the grid form.
    pub place: Option<Pos>,
    /// The fan directions whose wind reaches it, sorted and without repeats.
    pub hit_by: Vec<Hit>,
}

/// A fans-and-weathercocks puzzle in either form.
///
/// ```
/// use somaria::grid::{Dir, Grid};
/// use somaria::puzzles::fans::{Cell, FanPuzzle};
/// // F W : the fan must blow right.
/// let grid = Grid::from_rows(vec![vec![Cell::Fan, Cell::Weathercock]]).unwrap();
/// let puzzle = FanPuzzle::from_grid(grid);
/// assert_eq!(puzzle.solve_directions().unwrap(), Some(vec![Dir::Right]));
/// ```
#[derive(Clone, Debug)]
pub struct FanPuzzle {
    title: Option<String>,
    layout: Option<Grid<Cell>>,
    fan_places: Vec<Option<Pos>>,
    weathercocks: Vec<Weathercock>,
}

impl FanPuzzle {
    /// The grid form. The wind rule decides which fan directions hit each
    /// weathercock; fans and weathercocks are numbered in reading order.
    pub fn from_grid(layout: Grid<Cell>) -> FanPuzzle {
        let fan_places: Vec<Option<Pos>> =
            layout.cells().filter(|(_, c)| **c == Cell::Fan).map(|(p, _)| Some(p)).collect();
        let numbers = fan_numbers(&layout);
        let fan_index = |pos: Pos| numbers[layout.index_of(pos)].expect("a fan cell");
        let weathercocks = layout
            .cells()
            .filter(|(_, c)| **c == Cell::Weathercock)
            .map(|(place, _)| {
                // Look outward from the weathercock; a fan seen looking up
                // reaches it by blowing down, and so on.
                let mut hit_by = Vec::new();
                for look in Dir::ALL {
                    let mut pos = place;
                    while let Some(next) = layout.step(pos, look) {
                        match layout[next] {
                            Cell::Wall => break,
                            Cell::Fan => hit_by.push(Hit { fan: fan_index(next), dir: look.opposite() }),
                            Cell::Weathercock | Cell::Floor => {}
                        }
                        pos = next;
                    }
                }
                hit_by.sort();
                Weathercock { place: Some(place), hit_by }
            })
            .collect();
        FanPuzzle { title: None, layout: Some(layout), fan_places, weathercocks }
    }

    /// The listed form: `fans` fans and, per weathercock, the fan directions
    /// that hit it. Fan indices must be below `fans`.
    ///
    /// ```
    /// use somaria::grid::Dir;
    /// use somaria::puzzles::fans::{FanPuzzle, Hit};
    /// let puzzle = FanPuzzle::from_list(1, vec![vec![Hit { fan: 0, dir: Dir::Up }]]);
    /// assert_eq!(puzzle.solve_directions().unwrap(), Some(vec![Dir::Up]));
    /// ```
    pub fn from_list(fans: usize, hit_lists: Vec<Vec<Hit>>) -> FanPuzzle {
        assert!(hit_lists.iter().flatten().all(|h| h.fan < fans), "fan index out of range");
        let weathercocks = hit_lists
            .into_iter()
            .map(|mut hit_by| {
                hit_by.sort();
                hit_by.dedup();
                Weathercock { place: None, hit_by }
            })
            .collect();
        FanPuzzle { title: None, layout: None, fan_places: vec![None; fans], weathercocks }
    }

    /// Sets the title shown in reports.
    pub fn with_title(mut self, title: Option<String>) -> FanPuzzle {
        self.title = title;
        self
    }

    /// The grid, in the grid form.
    pub fn layout(&self) -> Option<&Grid<Cell>> {
        self.layout.as_ref()
    }

    /// Number of fans.
    pub fn num_fans(&self) -> usize {
        self.fan_places.len()
    }

    /// The cell of fan `i`, in the grid form.
    pub fn fan_place(&self, i: usize) -> Option<Pos> {
        self.fan_places[i]
    }

    /// The weathercocks with the fan directions that hit each.
    pub fn weathercocks(&self) -> &[Weathercock] {
        &self.weathercocks
    }

    /// Solves and checks; `None` when there is no solution.
    pub fn solve_directions(&self) -> Result<Option<Vec<Dir>>, Error> {
        let (encoding, mut solver, _) = self.encoded(VarisatSolver::from_cnf);
        match solver.solve()? {
            crate::solver::Answer::Unsat => Ok(None),
            crate::solver::Answer::Sat => Ok(Some(self.checked(encoding.decode(|lit| solver.value(lit)))?)),
        }
    }

    /// The encoding, a solver holding it made by `new_solver`, and the
    /// milliseconds both took.
    fn encoded(&self, new_solver: impl FnOnce(&crate::cnf::Cnf) -> VarisatSolver) -> (Encoding, VarisatSolver, f64) {
        let started = Instant::now();
        let encoding = Encoding::new(self);
        let solver = new_solver(encoding.cnf());
        (encoding, solver, Stats::ms(started.elapsed()))
    }

    /// Directions decoded from a model, once the independent check accepts them.
    fn checked(&self, decoded: Result<Vec<Dir>, String>) -> Result<Vec<Dir>, Error> {
        let dirs = decoded.map_err(Error::CheckFailed)?;
        check(self, &dirs).map_err(Error::CheckFailed)?;
        Ok(dirs)
    }

    /// The solution as JSON: each fan's index, direction and, in the grid
    /// form, its cell.
    pub fn solution_json(&self, dirs: &[Dir]) -> serde_json::Value {
        let fans: Vec<serde_json::Value> = dirs
            .iter()
            .enumerate()
            .map(|(index, dir)| match self.fan_places[index] {
                Some((row, col)) => json!({"index": index, "row": row, "col": col, "dir": dir}),
                None => json!({"index": index, "dir": dir}),
            })
            .collect();
        json!({ "fans": fans })
    }

    /// The solution for a person: the grid with an arrow on each fan, or a
    /// list of fans in the listed form.
    pub fn solution_text(&self, dirs: &[Dir]) -> String {
        let mut out = String::new();
        if let Some(layout) = &self.layout {
            let numbers = fan_numbers(layout);
            out.push_str(&layout.draw(|pos, cell| match numbers[layout.index_of(pos)] {
                Some(fan) => dirs[fan].arrow(),
                None => cell.symbol(),
            }));
            out.push('\n');
        }
        for (index, dir) in dirs.iter().enumerate() {
            match self.fan_places[index] {
                Some((row, col)) => out.push_str(&format!("fan {index} at ({row}, {col}): {dir}\n")),
                None => out.push_str(&format!("fan {index}: {dir}\n")),
            }
        }
        out
    }
}

/// Each cell's fan number in reading order, `None` where there is no fan.
fn fan_numbers(layout: &Grid<Cell>) -> Vec<Option<usize>> {
    let mut next = 0;
    layout
        .cells()
        .map(|(_, cell)| {
            (*cell == Cell::Fan).then(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

impl Puzzle for FanPuzzle {
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
        let engine = super::choose_engine(ENGINES, options.engine.as_deref())?;
        let (encoding, mut solver, encode_ms) = self.encoded(|cnf| options.new_solver(cnf));
        let answer = solver.solve()?;
        let cnf = options.settle_formula(answer == crate::solver::Answer::Unsat, || encoding.cnf().clone())?;
        let (status, solution) = match answer {
            crate::solver::Answer::Unsat => (Status::NoSolution, None),
            crate::solver::Answer::Sat => {
                let dirs = self.checked(encoding.decode(|lit| solver.value(lit)))?;
                let text = self.solution_text(&dirs);
                (Status::Solved, Some(Solution { json: self.solution_json(&dirs), text }))
            }
        };
        let explanation = (status == Status::NoSolution).then(|| self.unsolvable_hint()).flatten();
        let stats = Stats::of_sat_run(engine, encoding.cnf(), solver.stats(), encode_ms);
        Ok(SolveReport {
            status,
            solution,
            explanation,
            cost: None,
            objective: None,
            decided_by: DecidedBy::Sat,
            stats,
            cnf,
        })
    }

    fn count(&self, options: &CountOptions) -> Result<CountReport, Error> {
        let engine = super::choose_engine(ENGINES, options.engine.as_deref())?;
        let (encoding, mut solver, encode_ms) = self.encoded(|cnf| options.new_solver(cnf));
        let mut count = 0u64;
        let mut complete = true;
        // Each fan's four directions form an exactly-one group, so the directions
        // a model picks decide the rest.
        let mut models = ProjectedModels::new(&mut solver, encoding.decision_vars(), &[]).block_on_true_literals();
        loop {
            if options.limit.is_some_and(|limit| count >= limit) {
                complete = false;
                break;
            }
            let Some(model) = models.next() else { break };
            self.checked(encoding.decode_projection(&model?))?;
            count += 1;
            options.progress.record_solution();
        }
        drop(models);
        let stats = Stats::of_sat_run(engine, encoding.cnf(), solver.stats(), encode_ms);
        Ok(CountReport { count, complete, saturated: false, stats })
    }

    fn facts(&self, options: &SolveOptions) -> Result<FactsReport, Error> {
        let engine = super::choose_engine(ENGINES, options.engine.as_deref())?;
        let (encoding, mut solver, encode_ms) = self.encoded(|cnf| options.new_solver(cnf));
        let candidates: Vec<crate::cnf::Lit> = encoding.decision_vars().into_iter().map(|v| v.pos()).collect();
        let found = possible_literals(&mut solver, &candidates, &[])?;
        let stats = Stats::of_sat_run(engine, encoding.cnf(), solver.stats(), encode_ms);
        let Some(found) = found else {
            let mut json = serde_json::Map::new();
            json.insert("fans".into(), json!(null));
            let text = "no solution, so there are no facts to report\n".to_string();
            return Ok(FactsReport { status: Status::NoSolution, json, text, stats });
        };
        let mut fans = Vec::with_capacity(self.num_fans());
        let mut text = String::new();
        for (index, possible) in found.possible.chunks(4).enumerate() {
            let dirs: Vec<Dir> = Dir::ALL.into_iter().filter(|d| possible[d.index()]).collect();
            let forced = (dirs.len() == 1).then(|| dirs[0]);
            let mut entry = json!({"index": index, "possible": dirs, "forced": forced});
            let label = match self.fan_places[index] {
                Some((row, col)) => {
                    entry["row"] = json!(row);
                    entry["col"] = json!(col);
                    format!("fan {index} at ({row}, {col})")
                }
                None => format!("fan {index}"),
            };
            match forced {
                Some(dir) => text.push_str(&format!("{label}: always {dir}\n")),
                None => {
                    let names: Vec<&str> = dirs.iter().map(|d| d.name()).collect();
                    text.push_str(&format!("{label}: any of {}\n", names.join(", ")));
                }
            }
            fans.push(entry);
        }
        let mut json = serde_json::Map::new();
        json.insert("fans".into(), json!(fans));
        Ok(FactsReport { status: Status::Solved, json, text, stats })
    }

    fn explain(&self, options: &SolveOptions) -> Result<ExplainReport, Error> {
        let engine = super::choose_engine(ENGINES, options.engine.as_deref())?;
        let started = Instant::now();
        let encoding = Encoding::new(self);
        let encode_ms = Stats::ms(started.elapsed());
        let solving = Instant::now();
        // Each fan turning one way is the mechanism; the weathercocks are the demands.
        let found =
            minimal_unsat_subset(encoding.cnf(), encoding.weathercock_groups(), Some(options.progress.clone()))?;
        let mut stats = Stats::of_sat_run(engine, encoding.cnf(), Default::default(), encode_ms);
        stats.solve_ms = Stats::ms(solving.elapsed());
        let Some(mus) = found else {
            stats.sat_calls = 1;
            return Ok(ExplainReport { status: Status::Solved, constraints: Vec::new(), certificate: None, stats });
        };
        stats.sat_calls = mus.sat_calls;
        let constraints = mus
            .groups
            .iter()
            .map(|g| {
                let group = &encoding.cnf().groups()[g.index()];
                NamedConstraint {
                    name: group.name.clone(),
                    row: group.place.map(|p| p.0),
                    col: group.place.map(|p| p.1),
                    line: None,
                }
            })
            .collect();
        Ok(ExplainReport { status: Status::NoSolution, constraints, certificate: None, stats })
    }
}

impl FanPuzzle {
    /// A reason a person can see at a glance, when some weathercock has no
    /// fan that could ever reach it.
    fn unsolvable_hint(&self) -> Option<String> {
        let stranded: Vec<String> = self
            .weathercocks
            .iter()
            .enumerate()
            .filter(|(_, w)| w.hit_by.is_empty())
            .map(|(i, w)| match w.place {
                Some((row, col)) => format!("the weathercock at ({row}, {col})"),
                None => format!("weathercock {i}"),
            })
            .collect();
        (!stranded.is_empty()).then(|| format!("no fan direction reaches {}", stranded.join(", ")))
    }
}

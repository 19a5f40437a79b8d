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
pub mod designer;
mod encode;
pub mod generate;
mod load;

use std::time::Instant;

use serde::{Deserialize, Serialize};

pub use check::{check, check_demands};
pub(crate) use encode::Encoding;
pub use load::{MAX_FANS, load, load_puzzle};

use super::{
    CountOptions, CountReport, DecidedBy, Drawn, Error, ExplainReport, FactsReport, Formula, NamedConstraint, Puzzle,
    Solution, SolveOptions, SolveReport, Stats, Status,
};
use crate::cnf::Cnf;
use crate::cnf::Lit;
use crate::deduce::{self, Deductions, Fact, Wanted};
use crate::draw::{Ground, Mark, Scene, Tint, Trail, text};
use crate::grid::{Dir, Grid, Pos};
use crate::solver::{Answer, ProjectedModels, Solve, SolveStats};

/// The `kind` of fan models.
pub const KIND: &str = "fans";

engines! {
    /// The engines: one SAT encoding.
    pub enum Engine {
        /// Exactly one direction per fan, one clause per weathercock.
        Sat = "sat",
    }
}

/// A solution: each fan's direction, in fan order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FanSolution {
    /// One entry per fan.
    pub fans: Vec<FanDirection>,
}

/// One fan's direction in a [`FanSolution`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FanDirection {
    /// The fan's index, in reading order for the grid form.
    pub index: usize,
    /// Its row, in the grid form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<usize>,
    /// Its column, in the grid form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub col: Option<usize>,
    /// The way it blows.
    pub dir: Dir,
}

/// What `facts` found: per fan, the directions some solution gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FanFacts {
    /// One entry per fan; `None` when the puzzle has no solution.
    pub fans: Option<Vec<FanChoices>>,
}

/// One fan's entry in [`FanFacts`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FanChoices {
    /// The fan's index.
    pub index: usize,
    /// Its row, in the grid form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<usize>,
    /// Its column, in the grid form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub col: Option<usize>,
    /// The directions it takes in some solution.
    pub possible: Vec<Dir>,
    /// The one direction it takes in every solution, when there is one.
    pub forced: Option<Dir>,
}

/// Why a listed fan puzzle cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ListError {
    /// A weathercock names a fan that does not exist.
    #[error("weathercock {weathercock} names fan {fan}, but there are only {fans} fans (0 to {fans} - 1)")]
    NoSuchFan {
        /// The weathercock's index.
        weathercock: usize,
        /// The fan index it names.
        fan: usize,
        /// The number of fans.
        fans: usize,
    },
}

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
    /// let puzzle = FanPuzzle::from_list(1, vec![vec![Hit { fan: 0, dir: Dir::Up }]]).unwrap();
    /// assert_eq!(puzzle.solve_directions().unwrap(), Some(vec![Dir::Up]));
    /// assert!(FanPuzzle::from_list(1, vec![vec![Hit { fan: 1, dir: Dir::Up }]]).is_err());
    /// ```
    pub fn from_list(fans: usize, hit_lists: Vec<Vec<Hit>>) -> Result<FanPuzzle, ListError> {
        for (weathercock, hits) in hit_lists.iter().enumerate() {
            if let Some(hit) = hits.iter().find(|h| h.fan >= fans) {
                return Err(ListError::NoSuchFan { weathercock, fan: hit.fan, fans });
            }
        }
        let weathercocks = hit_lists
            .into_iter()
            .map(|mut hit_by| {
                hit_by.sort();
                hit_by.dedup();
                Weathercock { place: None, hit_by }
            })
            .collect();
        Ok(FanPuzzle { title: None, layout: None, fan_places: vec![None; fans], weathercocks })
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
        let (encoding, mut solver, _) = self.encoded(|cnf| crate::solver::new_solver(cnf, None));
        match solver.solve()? {
            Answer::Unsat => Ok(None),
            Answer::Sat => Ok(Some(self.checked(encoding.decode(|lit| solver.value(lit)))?)),
        }
    }

    /// The encoding, a solver holding it made by `new_solver`, and the
    /// milliseconds both took.
    fn encoded(&self, new_solver: impl FnOnce(&Cnf) -> Box<dyn Solve>) -> (Encoding, Box<dyn Solve>, f64) {
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

    /// The typed solution for a list of directions, one per fan.
    pub fn solution(&self, dirs: &[Dir]) -> FanSolution {
        let fans = dirs
            .iter()
            .enumerate()
            .map(|(index, &dir)| {
                let place = self.fan_places[index];
                FanDirection { index, row: place.map(|p| p.0), col: place.map(|p| p.1), dir }
            })
            .collect();
        FanSolution { fans }
    }

    /// The solution for a person: the grid with an arrow on each fan, or a
    /// list of fans in the listed form.
    pub fn solution_text(&self, solution: &FanSolution) -> String {
        let mut out = String::new();
        if let Some(layout) = &self.layout {
            out.push_str(&text::draw(&self.scene(layout, &solution_arrows(solution), "F"), &TEXT_STYLE));
            out.push('\n');
        }
        for fan in &solution.fans {
            match (fan.row, fan.col) {
                (Some(row), Some(col)) => out.push_str(&format!("fan {} at ({row}, {col}): {}\n", fan.index, fan.dir)),
                _ => out.push_str(&format!("fan {}: {}\n", fan.index, fan.dir)),
            }
        }
        out
    }

    /// The facts for a person: each fan's forced direction or its choices.
    fn facts_text(&self, facts: &FanFacts) -> String {
        let Some(fans) = &facts.fans else {
            return "no solution, so there are no facts to report\n".to_string();
        };
        let mut text = String::new();
        for fan in fans {
            let label = match (fan.row, fan.col) {
                (Some(row), Some(col)) => format!("fan {} at ({row}, {col})", fan.index),
                _ => format!("fan {}", fan.index),
            };
            match fan.forced {
                Some(dir) => text.push_str(&format!("{label}: always {dir}\n")),
                None => {
                    let names: Vec<&str> = fan.possible.iter().map(|d| d.name()).collect();
                    text.push_str(&format!("{label}: any of {}\n", names.join(", ")));
                }
            }
        }
        text
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
        Engine::NAMES
    }

    fn solve(&self, options: &SolveOptions) -> Result<SolveReport, Error> {
        let engine = Engine::choose(options.engine.as_deref())?;
        let (encoding, mut solver, encode_ms) = self.encoded(|cnf| options.new_solver(cnf));
        let answer = solver.solve()?;
        let cnf = options.settle_formula(answer == Answer::Unsat, || encoding.cnf().clone())?;
        let (status, solution) = match answer {
            Answer::Unsat => (Status::NoSolution, None),
            Answer::Sat => {
                let solution = self.solution(&self.checked(encoding.decode(|lit| solver.value(lit)))?);
                (Status::Solved, Some(Solution::of(&solution)))
            }
        };
        let explanation = (status == Status::NoSolution).then(|| self.unsolvable_hint()).flatten();
        let stats = Stats::of_sat_run(engine.name(), encoding.cnf(), solver.stats(), encode_ms);
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
        options.enumerating("fans")?;
        let engine = Engine::choose(options.engine.as_deref())?;
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
        let stats = Stats::of_sat_run(engine.name(), encoding.cnf(), solver.stats(), encode_ms);
        Ok(CountReport { count, complete, saturated: false, stats, stopped: None })
    }

    fn facts(&self, options: &SolveOptions) -> Result<FactsReport, Error> {
        let engine = Engine::choose(options.engine.as_deref())?;
        let (mut deductions, built) = self.deduce(options, Wanted::FACTS)?;
        let found = deduce::possible_facts(&mut deductions)?;
        let stats = built.stats(engine, deductions.solver.stats());
        let fans = found.as_ref().map(|possible| {
            possible
                .chunks(4)
                .enumerate()
                .map(|(index, possible)| {
                    let possible: Vec<Dir> = Dir::ALL.into_iter().filter(|d| possible[d.index()]).collect();
                    let forced = (possible.len() == 1).then(|| possible[0]);
                    let place = self.fan_places[index];
                    FanChoices { index, row: place.map(|p| p.0), col: place.map(|p| p.1), possible, forced }
                })
                .collect()
        });
        let status = if fans.is_some() { Status::Solved } else { Status::NoSolution };
        let facts = FanFacts { fans };
        Ok(FactsReport::of(status, &facts, stats))
    }

    /// The weathercocks are the demands; each fan turning one way is the
    /// mechanism that stays.
    fn explain(&self, options: &SolveOptions) -> Result<ExplainReport, Error> {
        let engine = Engine::choose(options.engine.as_deref())?;
        let solving = Instant::now();
        let (mut deductions, built) = self.deduce(options, Wanted::EXPLANATION)?;
        let every: Vec<usize> = (0..deductions.rules.len()).collect();
        let found = deduce::minimal_conflict(&mut deductions, &every)?;
        let mut stats = built.stats(engine, deductions.solver.stats());
        stats.solve_ms = Stats::ms(solving.elapsed());
        let Some(rules) = found else { return Ok(ExplainReport::solved(stats)) };
        let constraints = rules.iter().map(|&r| NamedConstraint::from(&deductions.rules[r])).collect();
        Ok(ExplainReport::conflict(constraints, stats))
    }

    fn formula(&self, engine: Option<&str>) -> Result<Formula, Error> {
        let engine = Engine::choose(engine)?;
        Ok(Formula {
            cnf: Encoding::new(self).into_cnf(),
            engine: engine.name(),
            equisatisfiable: true,
            notes: vec!["one variable per fan and direction; a model is an answer".to_string()],
        })
    }

    /// The grid with walls, weathercocks as dots and fans: the answer's
    /// arrows and wind, the facts' forced arrows ("?" where a fan is free),
    /// or the explanation's weathercocks outlined.
    fn picture(&self, of: Drawn<'_>) -> Result<Scene, Error> {
        let Some(layout) = &self.layout else {
            return Err(Error::Unsupported { command: "a picture of the listed form (it has no grid)", kind: KIND });
        };
        let width = (layout.cols() * 3).max(30);
        let mut caption = Vec::new();
        let (arrows, free) = match of {
            Drawn::Solution(report) => {
                if let Some(why) = &report.explanation {
                    caption.extend(super::wrapped(&format!("no solution: {why}"), width));
                }
                match &report.solution {
                    Some(solution) => (solution_arrows(solution.typed()?), "F"),
                    None => (vec![None; self.num_fans()], "F"),
                }
            }
            Drawn::Facts(report) => match report.typed::<FanFacts>()?.and_then(|facts| facts.fans.as_ref()) {
                Some(fans) => {
                    caption.push("arrows: the way a fan points in every solution; ?: it varies".into());
                    (fans.iter().map(|fan| fan.forced).collect(), "?")
                }
                None => {
                    caption.push("no solution, so there are no facts".into());
                    (vec![None; self.num_fans()], "F")
                }
            },
            Drawn::Explanation(report) => {
                if report.status == Status::NoSolution {
                    let n = report.constraints.len();
                    let line = format!("outlined: {} that cannot all spin at once", super::counted(n, "weathercock"));
                    caption.extend(super::wrapped(&line, width));
                }
                (vec![None; self.num_fans()], "F")
            }
        };
        let mut scene = self.scene(layout, &arrows, free);
        if let Drawn::Explanation(report) = of {
            scene.outlines.extend(report.places());
        }
        scene.caption = caption;
        Ok(scene)
    }

    /// The solution drawn with its list of fans, or the facts listed.
    fn text(&self, of: Drawn<'_>) -> Result<Option<String>, Error> {
        Ok(match of {
            Drawn::Solution(report) => match &report.solution {
                Some(solution) => Some(self.solution_text(solution.typed()?)),
                None => None,
            },
            Drawn::Facts(report) => report.typed::<FanFacts>()?.map(|facts| self.facts_text(facts)),
            Drawn::Explanation(_) => None,
        })
    }

    fn deducible(&self) -> Option<&dyn crate::puzzles::Deducible> {
        Some(self)
    }
}

impl crate::puzzles::Deducible for FanPuzzle {
    fn deductions(&self, options: &SolveOptions, wanted: Wanted) -> Result<Deductions<'_>, Error> {
        Ok(self.deduce(options, wanted)?.0)
    }

    /// The grid with each fan whose direction is known drawn turned, with
    /// its wind (an "F" where none is known yet); a step's fans shaded,
    /// turned too when its values are shown. The entries are the
    /// direction facts' (fan, direction index), as `Self::direction_facts`
    /// numbers them.
    fn state_picture(&self, state: &crate::puzzles::PlayState<'_>) -> Option<(Scene, text::Style)> {
        let layout = self.layout.as_ref()?;
        let mut arrows = vec![None; self.num_fans()];
        let new = if state.new_shown { state.new } else { &[] };
        for entry in state.known.iter().chain(new).filter(|e| e.holds) {
            let dir = usize::try_from(entry.value).ok().and_then(|d| Dir::ALL.get(d));
            if let (Some(arrow), Some(&dir)) = (arrows.get_mut(entry.subject), dir) {
                *arrow = Some(dir);
            }
        }
        let mut scene = self.scene(layout, &arrows, "F");
        for entry in state.new {
            if let Some(pos) = self.fan_places.get(entry.subject).copied().flatten() {
                scene.set_ground(pos, Ground::Shaded(Tint::Highlight));
            }
        }
        scene.outlines.extend(state.outlined.iter().copied());
        scene.outlines.sort_unstable();
        scene.outlines.dedup();
        Some((scene, TEXT_STYLE))
    }
}

/// How the fans' grid is drawn as text: the model's own symbols.
const TEXT_STYLE: text::Style =
    text::Style { floor: '.', wall: '#', shaded: '.', dot: Some('W'), ring: None, square: None, indent: "" };

/// Each fan's direction in a solution, by fan index.
fn solution_arrows(solution: &FanSolution) -> Vec<Option<Dir>> {
    solution.fans.iter().map(|fan| Some(fan.dir)).collect()
}

impl FanPuzzle {
    /// The grid with walls and weathercocks (dots), and each fan: its
    /// arrow and wind where `arrows` gives it a direction, else the label
    /// `free`.
    fn scene(&self, layout: &Grid<Cell>, arrows: &[Option<Dir>], free: &str) -> Scene {
        let mut scene = Scene::new(layout.rows(), layout.cols());
        for (pos, cell) in layout.cells() {
            match cell {
                Cell::Wall => scene.set_ground(pos, Ground::Wall),
                Cell::Weathercock => scene.marks.push((pos, Mark::dot(Tint::Goal))),
                Cell::Fan | Cell::Floor => {}
            }
        }
        for (index, place) in self.fan_places.iter().enumerate() {
            let Some(pos) = *place else { continue };
            let Some(dir) = arrows[index] else {
                scene.marks.push((pos, Mark::label(free, Tint::Ink)));
                continue;
            };
            let mut reach = pos;
            while let Some(next) = layout.step(reach, dir) {
                if layout[next] == Cell::Wall {
                    break;
                }
                reach = next;
            }
            if reach != pos {
                scene.trails.push(Trail { cells: vec![pos, reach], tint: Tint::Wind, closed: false });
            }
            scene.marks.push((pos, Mark::arrow(dir, Tint::Ink)));
        }
        scene
    }
}

/// What building a fan puzzle's deductions measured, for the stats.
struct Built {
    /// The size of the puzzle's own formula, before any selectors.
    size: (usize, usize),
    encode_ms: f64,
}

impl Built {
    fn stats(&self, engine: Engine, solver: SolveStats) -> Stats {
        Stats::of_sat_size(engine.name(), self.size, solver, self.encode_ms)
    }
}

impl FanPuzzle {
    /// The deductions over the encoding: each weathercock a rule (when
    /// `wanted.switchable`), each fan's direction a fact (when
    /// `wanted.facts`), every model checked by [`check_demands`].
    fn deduce(&self, options: &SolveOptions, wanted: Wanted) -> Result<(Deductions<'_>, Built), Error> {
        Engine::choose(options.engine.as_deref())?;
        let started = Instant::now();
        let encoding = Encoding::new(self);
        let encode_ms = Stats::ms(started.elapsed());
        let built = Built { size: (encoding.cnf().num_vars(), encoding.cnf().num_clauses()), encode_ms };
        let (solver, rules, guarded) = if wanted.switchable {
            let soft = encoding.weathercock_groups();
            let (guarded, selectors) = deduce::switchable(encoding.cnf(), soft);
            let rules = soft.iter().zip(selectors).zip(&self.weathercocks).map(|((&g, s), weathercock)| {
                let mut rule = deduce::rule_of_group(encoding.cnf(), g, s);
                rule.subjects = weathercock.hit_by.iter().map(|hit| hit.fan).collect();
                rule.subjects.dedup();
                rule.cells.extend(rule.subjects.iter().filter_map(|&fan| self.fan_places[fan]));
                rule
            });
            (options.new_solver(&guarded), rules.collect(), Some(guarded))
        } else {
            (options.new_solver(encoding.cnf()), Vec::new(), None)
        };
        let every: Vec<usize> = (0..self.weathercocks.len()).collect();
        let facts = if wanted.facts { self.direction_facts(&encoding) } else { Vec::new() };
        let check = move |value: &dyn Fn(Lit) -> bool, demanded: Option<&[usize]>| {
            check_demands(self, &encoding.decode(value)?, demanded.unwrap_or(&every))
        };
        let mut deductions = Deductions::new(solver, check);
        deductions.rules = rules;
        deductions.facts = facts;
        // The solver is never given a clause of the puzzle after this: the
        // facts are the encoding's own literals, so the formula stays this.
        if let Some(guarded) = guarded {
            deductions.formula = Some(Box::new(move || guarded.clone()));
        }
        Ok((deductions, built))
    }

    /// "Fan i blows d", for every fan and direction, fan by fan.
    fn direction_facts(&self, encoding: &Encoding) -> Vec<Fact> {
        let vars = encoding.decision_vars();
        let facts = (0..self.num_fans()).flat_map(|fan| Dir::ALL.map(|dir| (fan, dir)));
        facts
            .map(|(fan, dir)| Fact {
                lit: vars[4 * fan + dir.index()].pos(),
                name: format!("{} blows {dir}", encode::fan_label(self, fan)),
                place: self.fan_places[fan],
                subject: fan,
                value: dir.index() as i64,
                about: format!("fan {fan}"),
                shown: dir.name().into(),
            })
            .collect()
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
        (!stranded.is_empty()).then(|| format!("no fan direction reaches {}", super::listed(&stranded, 10)))
    }
}

//! Fans grids as a [`Designer`]: the template's size and its numbers of
//! fans and walls are kept; fans, walls and directions are placed anew,
//! every floor cell in the wind becomes a weathercock (the clues), and the
//! weathercocks are dropped while the orientation stays unique. A layout
//! with a fan that cannot blow, or with no weathercock, is drawn again, so
//! no puzzle is empty; drawing the number of fans rather than each cell's
//! chance of one keeps puzzles with many fans, which are harder to make
//! unique, from being outnumbered by the easy ones with few.

use serde::Deserialize;

use super::{Cell, FanPuzzle, load_puzzle};
use crate::grid::{Dir, Grid, Pos};
use crate::model::{LoadError, Problem, Source, Spanned};
use crate::puzzles::design::{Designer, Draft, Slot, Symmetry, family_title_edit, rewrite_grid};
use crate::puzzles::{CountOptions, Error, Puzzle};
use crate::rng::SplitMix64;
use crate::solver::SolverConfig;

/// A fans model in the grid form, as a template.
pub struct FansDesigner {
    name: String,
    text: String,
    /// Where the grid's string is in `text`.
    grid_span: std::ops::Range<usize>,
    /// The `[design]` title's edit of `text`, if it has one.
    title: Option<(std::ops::Range<usize>, String)>,
    rows: usize,
    cols: usize,
    /// The template's fans and walls, which every layout has (as near as a
    /// symmetry allows); its weathercocks are drawn anew.
    fans: usize,
    walls: usize,
}

/// A random layout with its directions.
struct FansDraft<'a> {
    designer: &'a FansDesigner,
    /// Fans, walls and floor, row by row; the weathercocks are the slots.
    cells: Vec<Vec<Cell>>,
    /// Each fan's direction, by its cell.
    dirs: Vec<(Pos, Dir)>,
    /// The floor cells in some fan's wind, in reading order.
    blown: Vec<Pos>,
}

#[derive(Deserialize)]
struct GridOnly {
    grid: Option<Spanned<String>>,
}

impl FansDesigner {
    /// The designer of a fans model; the listed form (no grid) is refused.
    pub fn new(source: &Source) -> Result<FansDesigner, LoadError> {
        let template = load_puzzle(source)?;
        let file: GridOnly = source.parse()?;
        let (Some(grid), Some(layout)) = (file.grid, template.layout()) else {
            return Err(source.error(
                None,
                Problem::Invalid {
                    found: "a fans model in the listed form".into(),
                    expected: "a grid (`grid = \"\"\"...\"\"\"`), whose size generate keeps".into(),
                },
            ));
        };
        let count = |kind: Cell| layout.cells().filter(|(_, c)| **c == kind).count();
        let (fans, walls) = (count(Cell::Fan), count(Cell::Wall));
        if fans == 0 || fans + walls == layout.rows() * layout.cols() {
            return Err(source.error_at(
                &grid,
                Problem::Invalid {
                    found: format!("a grid of {fans} fans, {walls} walls and no other cell"),
                    expected: "a template with a fan and a cell beside fans and walls: generate keeps its numbers of \
                               fans and walls, and a puzzle needs a fan and a weathercock"
                        .into(),
                },
            ));
        }
        Ok(FansDesigner {
            name: source.name().to_string(),
            text: source.text().to_string(),
            grid_span: grid.span(),
            title: family_title_edit(source)?,
            rows: layout.rows(),
            cols: layout.cols(),
            fans,
            walls,
        })
    }

    /// [`FansDesigner::new`] as the family's registered designer.
    pub fn boxed(source: &Source) -> Result<Box<dyn Designer>, LoadError> {
        Ok(Box::new(FansDesigner::new(source)?))
    }
}

impl Designer for FansDesigner {
    fn name(&self) -> &str {
        &self.name
    }

    /// Fans, walls and directions are drawn symmetric (a fan's image turned
    /// with it), so the weathercocks, every floor cell in the wind, are too.
    fn allows(&self, _: Symmetry) -> Result<(), String> {
        Ok(())
    }

    /// A layout whose weathercocks all together leave one orientation,
    /// drawn again until one does (up to `MAX_LAYOUTS`; then the last is
    /// returned, which the driver finds not unique): with many fans few
    /// layouts do, and drawing again only at the driver's attempts would
    /// keep the puzzles with fewer fans than the template.
    fn draw<'a>(
        &'a self,
        rng: &mut SplitMix64,
        solver: &SolverConfig,
        symmetry: Symmetry,
    ) -> Result<Option<Box<dyn Draft + 'a>>, Error> {
        let mut last = None;
        for _ in 0..MAX_LAYOUTS {
            let Some(draft) = self.layout(rng, symmetry) else { continue };
            if draft.unique_with_every_weathercock(solver)? {
                return Ok(Some(Box::new(draft)));
            }
            last = Some(draft);
        }
        if let Some(draft) = last {
            return Ok(Some(Box::new(draft)));
        }
        Err(Error::NotMade(format!(
            "{}: no layout of {} fans and {} walls in {} × {} cells{} gave every fan a direction with wind and \
             some weathercock, in {MAX_LAYOUTS} tries",
            self.name,
            self.fans,
            self.walls,
            self.rows,
            self.cols,
            match symmetry {
                Symmetry::None => String::new(),
                other => format!(" ({} symmetric)", other.name()),
            }
        )))
    }
}

/// Layouts drawn for one attempt at a puzzle.
const MAX_LAYOUTS: usize = 1000;

impl FansDesigner {
    /// A random layout with the template's numbers of fans and walls (the
    /// nearest that `symmetry` allows, cells taken with their images), each
    /// fan turned a random way its wind can blow (its image turned the
    /// image way); `None` when some fan has no such way, or no floor cell
    /// is in the wind: a puzzle with no fan or no weathercock is no puzzle.
    fn layout(&self, rng: &mut SplitMix64, symmetry: Symmetry) -> Option<FansDraft<'_>> {
        let extent = (self.rows, self.cols);
        let mut orbits: Vec<Vec<Pos>> = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                match symmetry.image((r, c), extent) {
                    Some(image) if image < (r, c) => {}
                    Some(image) if image != (r, c) => orbits.push(vec![(r, c), image]),
                    _ => orbits.push(vec![(r, c)]),
                }
            }
        }
        rng.shuffle(&mut orbits);
        let mut cells = vec![vec![Cell::Floor; self.cols]; self.rows];
        // A fan on its own image must point along the axis: none under rot180.
        let fits_fan = |orbit: &Vec<Pos>| orbit.len() == 2 || symmetry != Symmetry::Rot180;
        let mut left = self.fans;
        for orbit in orbits.iter().filter(|o| fits_fan(o)) {
            if orbit.len() <= left {
                orbit.iter().for_each(|&(r, c)| cells[r][c] = Cell::Fan);
                left -= orbit.len();
            }
        }
        let mut left = self.walls;
        for orbit in &orbits {
            if orbit.len() <= left && cells[orbit[0].0][orbit[0].1] == Cell::Floor {
                orbit.iter().for_each(|&(r, c)| cells[r][c] = Cell::Wall);
                left -= orbit.len();
            }
        }
        let layout = Grid::from_rows(cells.clone())?;
        let mut dirs = Vec::new();
        for orbit in orbits.iter().filter(|o| layout[o[0]] == Cell::Fan) {
            let place = orbit[0];
            let open: Vec<Dir> = Dir::ALL
                .into_iter()
                .filter(|&d| layout.step(place, d).is_some_and(|next| layout[next] != Cell::Wall))
                .filter(|&d| orbit.len() == 2 || turned(d, symmetry) == d)
                .collect();
            if open.is_empty() {
                return None;
            }
            let dir = rng.choose(&open);
            dirs.push((place, dir));
            if let Some(&image) = orbit.get(1) {
                dirs.push((image, turned(dir, symmetry)));
            }
        }
        let mut in_wind = vec![false; self.rows * self.cols];
        for &(place, dir) in &dirs {
            let mut at = place;
            while let Some(next) = layout.step(at, dir) {
                if layout[next] == Cell::Wall {
                    break;
                }
                in_wind[next.0 * self.cols + next.1] = true;
                at = next;
            }
        }
        let blown: Vec<Pos> = (0..self.rows)
            .flat_map(|r| (0..self.cols).map(move |c| (r, c)))
            .filter(|&(r, c)| cells[r][c] == Cell::Floor && in_wind[r * self.cols + c])
            .collect();
        (!dirs.is_empty() && !blown.is_empty()).then_some(FansDraft { designer: self, cells, dirs, blown })
    }
}

/// A direction as `symmetry` maps it: a half turn reverses it, a mirror
/// across the vertical axis swaps left and right.
fn turned(dir: Dir, symmetry: Symmetry) -> Dir {
    match (symmetry, dir) {
        (Symmetry::None, d) => d,
        (Symmetry::Rot180, Dir::Up) => Dir::Down,
        (Symmetry::Rot180, Dir::Down) => Dir::Up,
        (_, Dir::Left) => Dir::Right,
        (_, Dir::Right) => Dir::Left,
        (Symmetry::Mirror, d) => d,
    }
}

impl FansDraft<'_> {
    /// Whether the puzzle with every weathercock has one orientation.
    fn unique_with_every_weathercock(&self, solver: &SolverConfig) -> Result<bool, Error> {
        let mut cells = self.cells.clone();
        for &(r, c) in &self.blown {
            cells[r][c] = Cell::Weathercock;
        }
        let layout = Grid::from_rows(cells).ok_or_else(|| Error::Internal("an empty fans grid".into()))?;
        let options = CountOptions { limit: Some(2), solver: solver.clone(), ..CountOptions::default() };
        let report = FanPuzzle::from_grid(layout).count(&options)?;
        Ok(report.count == 1 && report.complete)
    }
}

impl Draft for FansDraft<'_> {
    fn slots(&self) -> Vec<Slot> {
        let extent = (self.designer.rows, self.designer.cols);
        self.blown.iter().map(|&p| Slot { array: 0, place: Some(p), extent }).collect()
    }

    fn write(&self, kept: &[bool]) -> String {
        let mut cells = self.cells.clone();
        for (&(r, c), _) in self.blown.iter().zip(kept).filter(|(_, k)| **k) {
            cells[r][c] = Cell::Weathercock;
        }
        let rows: Vec<String> = cells.iter().map(|row| row.iter().map(|c| c.symbol()).collect()).collect();
        let d = self.designer;
        rewrite_grid(&d.text, &d.grid_span, d.title.as_ref(), &rows)
    }

    fn solution(&self, _: &[bool], _: &SolverConfig) -> Result<serde_json::Value, Error> {
        let layout = Grid::from_rows(self.cells.clone()).ok_or_else(|| Error::Internal("an empty fans grid".into()))?;
        let puzzle = FanPuzzle::from_grid(layout);
        let dirs: Vec<Dir> = (0..puzzle.num_fans())
            .map(|i| {
                let place = puzzle.fan_place(i);
                self.dirs.iter().find(|(p, _)| Some(*p) == place).map_or(Dir::Up, |&(_, d)| d)
            })
            .collect();
        serde_json::to_value(puzzle.solution(&dirs)).map_err(|e| Error::Internal(e.to_string()))
    }
}

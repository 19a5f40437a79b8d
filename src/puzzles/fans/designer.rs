//! Fans grids as a [`Designer`]: the template's size and its share of fans
//! and walls are kept; fans, walls and directions are drawn anew, every
//! floor cell in the wind becomes a weathercock (the clues), and the
//! weathercocks are dropped while the orientation stays unique.

use serde::Deserialize;

use super::{Cell, FanPuzzle, load_puzzle};
use crate::grid::{Dir, Grid, Pos};
use crate::model::{LoadError, Problem, Source, Spanned};
use crate::puzzles::Error;
use crate::puzzles::design::{Designer, Draft, Slot, family_title_edit, rewrite_grid};
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
    fan_rate: f64,
    wall_rate: f64,
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
        let cells = (layout.rows() * layout.cols()) as f64;
        let count = |kind: Cell| layout.cells().filter(|(_, c)| **c == kind).count() as f64;
        let fans = count(Cell::Fan).max(1.0);
        Ok(FansDesigner {
            name: source.name().to_string(),
            text: source.text().to_string(),
            grid_span: grid.span(),
            title: family_title_edit(source)?,
            rows: layout.rows(),
            cols: layout.cols(),
            fan_rate: fans / cells,
            wall_rate: count(Cell::Wall) / (cells - fans).max(1.0),
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

    fn draw<'a>(&'a self, rng: &mut SplitMix64, _: &SolverConfig) -> Result<Option<Box<dyn Draft + 'a>>, Error> {
        let rows: Vec<Vec<Cell>> = (0..self.rows)
            .map(|_| {
                (0..self.cols)
                    .map(|_| {
                        if rng.chance(self.fan_rate) {
                            Cell::Fan
                        } else if rng.chance(self.wall_rate) {
                            Cell::Wall
                        } else {
                            Cell::Floor
                        }
                    })
                    .collect()
            })
            .collect();
        let mut rows = rows;
        let layout = Grid::from_rows(rows.clone()).ok_or_else(|| Error::Internal("an empty fans grid".into()))?;
        let mut dirs = Vec::new();
        let places: Vec<Pos> = layout.cells().filter(|(_, c)| **c == Cell::Fan).map(|(p, _)| p).collect();
        for place in places {
            // Only a direction with wind in it can be forced by a weathercock.
            let open: Vec<Dir> = Dir::ALL
                .into_iter()
                .filter(|&d| layout.step(place, d).is_some_and(|next| layout[next] != Cell::Wall))
                .collect();
            if open.is_empty() {
                rows[place.0][place.1] = Cell::Floor;
            } else {
                dirs.push((place, rng.choose(&open)));
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
        let blown = (0..self.rows)
            .flat_map(|r| (0..self.cols).map(move |c| (r, c)))
            .filter(|&(r, c)| rows[r][c] == Cell::Floor && in_wind[r * self.cols + c])
            .collect();
        Ok(Some(Box::new(FansDraft { designer: self, cells: rows, dirs, blown })))
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

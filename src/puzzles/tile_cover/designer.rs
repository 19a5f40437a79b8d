//! Tile-cover rooms as a [`Designer`]: the template's size, start and
//! `leave_uncovered` are kept; its walls (and any end tile) are not. A room
//! is drawn as a short random walk from the start with every other cell a
//! wall (and, when tiles may be left, that many walls next to the walk
//! opened as tiles to leave); the walls are the clues. A wall dropped is a
//! tile every route must cover (or leave, within the allowance), so drops
//! reshape the room, and the room grows: a wall is kept when the room
//! without it has no route or several. With `minimal`, the walls are tried
//! again until none can go, so no wall left can be opened with the room
//! keeping exactly one route; without, each is tried once.

use serde::Deserialize;

use super::{Cell, load_puzzle};
use crate::grid::{Dir, Grid, Pos};
use crate::model::{LoadError, Problem, Source, Spanned};
use crate::puzzles::Error;
use crate::puzzles::design::{Designer, Draft, Drops, Slot, Symmetry, family_title_edit, rewrite_grid, solve_written};
use crate::rng::SplitMix64;
use crate::solver::SolverConfig;

/// The engine the designer finds a room's one route with: not the default,
/// which the recount solves with, so that two encodings must agree.
const ROUTE_ENGINE: &str = "rank";

/// A tile-cover model as a template.
pub struct TileCoverDesigner {
    name: String,
    text: String,
    /// Where the grid's string is in `text`.
    grid_span: std::ops::Range<usize>,
    /// The `[design]` title's edit of `text`, if it has one.
    title: Option<(std::ops::Range<usize>, String)>,
    /// The template's size, every cell a wall.
    blank: Grid<bool>,
    start: Pos,
    leave_uncovered: usize,
}

/// A room drawn: which cells are walls at first.
struct TileCoverDraft<'a> {
    designer: &'a TileCoverDesigner,
    /// The walls, in reading order: the slots.
    walls: Vec<Pos>,
}

#[derive(Deserialize)]
struct GridOnly {
    grid: Spanned<String>,
}

impl TileCoverDesigner {
    /// The designer of a tile-cover model.
    pub fn new(source: &Source) -> Result<TileCoverDesigner, LoadError> {
        let template = load_puzzle(source)?;
        let file: GridOnly = source.parse()?;
        let grid = template.grid();
        let start = grid.cells().find(|(_, c)| **c == Cell::Start).map_or((0, 0), |(p, _)| p);
        Ok(TileCoverDesigner {
            name: source.name().to_string(),
            text: source.text().to_string(),
            grid_span: file.grid.span(),
            title: family_title_edit(source)?,
            blank: Grid::from_rows(vec![vec![false; grid.cols()]; grid.rows()]).ok_or_else(|| {
                source.error(
                    None,
                    Problem::Invalid { found: "an empty grid".into(), expected: "a room of at least one cell".into() },
                )
            })?,
            start,
            leave_uncovered: template.room().leave_uncovered(),
        })
    }

    /// [`TileCoverDesigner::new`] as the family's registered designer.
    pub fn boxed(source: &Source) -> Result<Box<dyn Designer>, LoadError> {
        Ok(Box::new(TileCoverDesigner::new(source)?))
    }

    /// A random self-avoiding walk from the start, of at most a quarter of
    /// the cells, that opens no 2 × 2 block (the smallest place where a
    /// route can go two ways): a seed the drops grow into a room. Returns
    /// the open cells and the walk's end.
    fn walk(&self, rng: &mut SplitMix64) -> (Grid<bool>, Pos) {
        let mut open = self.blank.clone();
        open[self.start] = true;
        let (mut at, longest) = (self.start, (open.rows() * open.cols() / 4).max(1));
        for _ in 1..longest {
            let steps: Vec<Pos> = neighbours(&open, at).filter(|&n| !open[n] && !closes_block(&open, n)).collect();
            if steps.is_empty() {
                break;
            }
            at = rng.choose(&steps);
            open[at] = true;
        }
        (open, at)
    }
}

fn neighbours<T>(grid: &Grid<T>, at: Pos) -> impl Iterator<Item = Pos> + '_ {
    Dir::ALL.into_iter().filter_map(move |d| grid.step(at, d))
}

/// Whether opening `at` makes a 2 × 2 block of open cells.
fn closes_block(open: &Grid<bool>, (r, c): Pos) -> bool {
    let is_open = |p: (usize, usize)| p == (r, c) || open.get(p).copied().unwrap_or(false);
    let corners = [(r.wrapping_sub(1), c.wrapping_sub(1)), (r.wrapping_sub(1), c), (r, c.wrapping_sub(1)), (r, c)];
    corners.into_iter().any(|(top, left)| {
        [
            (top, left),
            (top, left.wrapping_add(1)),
            (top.wrapping_add(1), left),
            (top.wrapping_add(1), left.wrapping_add(1)),
        ]
        .into_iter()
        .all(is_open)
    })
}

impl Designer for TileCoverDesigner {
    fn name(&self) -> &str {
        &self.name
    }

    fn draw<'a>(
        &'a self,
        rng: &mut SplitMix64,
        _: &SolverConfig,
        _: Symmetry,
    ) -> Result<Option<Box<dyn Draft + 'a>>, Error> {
        let (mut open, end) = self.walk(rng);
        // The tiles to leave: walls next to the walk, opened; not next to
        // its end, where a second route would step on one.
        let mut beside: Vec<Pos> = open
            .cells()
            .filter(|&(p, o)| !o && neighbours(&open, p).any(|n| open[n]) && !neighbours(&open, p).any(|n| n == end))
            .map(|(p, _)| p)
            .collect();
        rng.shuffle(&mut beside);
        for &p in beside.iter().take(self.leave_uncovered) {
            open[p] = true;
        }
        let walls = open.cells().filter(|(_, o)| !**o).map(|(p, _)| p).collect();
        Ok(Some(Box::new(TileCoverDraft { designer: self, walls })))
    }

    fn allows(&self, symmetry: Symmetry) -> Result<(), String> {
        match symmetry {
            Symmetry::None => Ok(()),
            _ => Err(format!(
                "{}: a tile-cover room grows from one random walk out of the template's start, and its walls are \
                 what that walk leaves; generate draws no symmetric room, so it cannot keep the walls in pairs",
                self.name
            )),
        }
    }

    fn drops(&self) -> Drops {
        Drops::Reshape
    }
}

impl Draft for TileCoverDraft<'_> {
    fn slots(&self) -> Vec<Slot> {
        let extent = (self.designer.blank.rows(), self.designer.blank.cols());
        self.walls.iter().map(|&p| Slot { array: 0, place: Some(p), extent }).collect()
    }

    fn write(&self, kept: &[bool]) -> String {
        let d = self.designer;
        let mut cells = vec![vec!['.'; d.blank.cols()]; d.blank.rows()];
        cells[d.start.0][d.start.1] = 'S';
        for (&(r, c), _) in self.walls.iter().zip(kept).filter(|(_, k)| **k) {
            cells[r][c] = '#';
        }
        let rows: Vec<String> = cells.iter().map(|row| row.iter().collect()).collect();
        rewrite_grid(&d.text, &d.grid_span, d.title.as_ref(), &rows)
    }

    fn solution(&self, kept: &[bool], solver: &SolverConfig) -> Result<serde_json::Value, Error> {
        let text = self.write(kept);
        solve_written(load_puzzle(&Source::from_text(&self.designer.name, text)), ROUTE_ENGINE, solver, "room")
    }
}

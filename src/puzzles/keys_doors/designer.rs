//! Keys-and-doors vaults as a [`Designer`]: the template's size and number
//! of keys are kept; walls, keys and doors are drawn anew by the family's
//! maze code ([`maze::generate`], `@` at the top left): a perfect maze
//! whose doors impose an order on the keys. The clues are the walls the
//! maze code would knock out to make loops ([`LOOPS_PERCENT`] of the walls
//! between two rooms, the same seed): a clue dropped is a wall knocked out,
//! a loop that gives the routes a choice, so drops reshape the vault. A
//! wall is knocked out when the vault keeps exactly one fewest-steps route
//! (one shortest move sequence); a maze that has several before any is
//! knocked out is drawn again. With `minimal`, none of the drawn walls
//! left standing can be knocked out so. Every vault is rated by its fewest
//! steps.
//!
//! Only the drawn walls are clues: with every wall between two rooms a
//! clue, the drops turn the maze into an open grid of pillars (a route
//! along a row stays unique) and the doors stop mattering.
//!
//! One walker only: with several, shortest routes come in every
//! interleaving of the walkers' moves, so "exactly one" has no meaning.

use serde::Deserialize;

use super::{Cell, SYMBOLS, load_puzzle, maze};
use crate::model::{LoadError, Problem, Source, Spanned};
use crate::puzzles::Error;
use crate::puzzles::design::{
    Designer, Draft, Drops, Measure, Slot, Symmetry, family_title_edit, rewrite_grid, solve_written,
};
use crate::rng::SplitMix64;
use crate::solver::SolverConfig;

/// The engine the designer finds a vault's one route with: breadth-first
/// over (cell, keys held), not the default (keygraph) that the uniqueness
/// check and the recount count and solve with, so that two searches must
/// agree on the route.
const ROUTE_ENGINE: &str = "bfs";

/// A keys-and-doors model as a template.
pub struct KeysDoorsDesigner {
    name: String,
    text: String,
    /// Where the grid's string is in `text`.
    grid_span: std::ops::Range<usize>,
    /// The `[design]` title's edit of `text`, if it has one.
    title: Option<(std::ops::Range<usize>, String)>,
    rows: usize,
    cols: usize,
    keys: usize,
}

/// The share of a maze's walls between two rooms that are clues, the
/// walls its loops would knock out: about as many loops as the shipped
/// 41 × 41 maze has.
pub const LOOPS_PERCENT: usize = 10;

/// A vault drawn: the perfect maze's cells, and the walls its loops would
/// knock out (the slots), in reading order.
struct KeysDoorsDraft<'a> {
    designer: &'a KeysDoorsDesigner,
    cells: Vec<Vec<char>>,
    walls: Vec<(usize, usize)>,
}

#[derive(Deserialize)]
struct GridOnly {
    grid: Spanned<String>,
}

impl KeysDoorsDesigner {
    /// The designer of a keys-and-doors model: one walker, and a size the
    /// maze code can fit its keys into.
    pub fn new(source: &Source) -> Result<KeysDoorsDesigner, LoadError> {
        let template = load_puzzle(source)?;
        let file: GridOnly = source.parse()?;
        if let [_, second, ..] = template.starts() {
            let parsed = source.parse_grid(&file.grid, SYMBOLS, Cell::from_symbol)?;
            return Err(source.error(
                Some(parsed.offset_of(*second)),
                Problem::Invalid {
                    found: format!("a second walker '@' at grid cell {second:?}"),
                    expected: "one '@': generate makes vaults with exactly one fewest-steps route, which several \
                               walkers never have (their moves interleave)"
                        .into(),
                },
            ));
        }
        let layout = template.layout();
        let (rows, cols, keys) = (layout.rows(), layout.cols(), template.keys().len());
        if let Err(e) = maze::generate(rows, cols, keys, 0, 0) {
            let problem = Problem::Invalid {
                found: format!("{} keys in a {rows} x {cols} grid", keys),
                expected: format!("{} (generate keeps the template's size and number of keys)", e.expected),
            };
            return Err(source.error(Some(file.grid.span().start), problem));
        }
        Ok(KeysDoorsDesigner {
            name: source.name().to_string(),
            text: source.text().to_string(),
            grid_span: file.grid.span(),
            title: family_title_edit(source)?,
            rows,
            cols,
            keys,
        })
    }

    /// [`KeysDoorsDesigner::new`] as the family's registered designer.
    pub fn boxed(source: &Source) -> Result<Box<dyn Designer>, LoadError> {
        Ok(Box::new(KeysDoorsDesigner::new(source)?))
    }
}

impl Designer for KeysDoorsDesigner {
    fn name(&self) -> &str {
        &self.name
    }

    fn draw<'a>(
        &'a self,
        rng: &mut SplitMix64,
        _: &SolverConfig,
        _: Symmetry,
    ) -> Result<Option<Box<dyn Draft + 'a>>, Error> {
        // The maze code draws the same tree, keys and doors for a seed
        // whatever share of loops it knocks out after them.
        let seed = rng.next_u64();
        let cells_of = |loops: usize| -> Result<Vec<Vec<char>>, Error> {
            let picture = maze::generate(self.rows, self.cols, self.keys, loops, seed)
                .map_err(|e| Error::Internal(format!("a vault the template allowed: {e}")))?;
            Ok(picture.lines().map(|row| row.chars().collect()).collect())
        };
        let (cells, loopy) = (cells_of(0)?, cells_of(LOOPS_PERCENT)?);
        let walls = (0..self.rows)
            .flat_map(|r| (0..self.cols).map(move |c| (r, c)))
            .filter(|&(r, c)| cells[r][c] != loopy[r][c])
            .collect();
        Ok(Some(Box::new(KeysDoorsDraft { designer: self, cells, walls })))
    }

    fn allows(&self, symmetry: Symmetry) -> Result<(), String> {
        match symmetry {
            Symmetry::None => Ok(()),
            _ => Err(format!(
                "{}: a vault's walls are a maze the family's maze code draws from the top left, which is never \
                 symmetric; generate cannot keep its walls in pairs",
                self.name
            )),
        }
    }

    fn drops(&self) -> Drops {
        Drops::Reshape
    }

    fn measure(&self, solution: &serde_json::Value) -> Option<Measure> {
        let steps = solution.get("steps")?.as_u64()?;
        Some(Measure { name: "fewest steps", value: steps as usize })
    }
}

impl Draft for KeysDoorsDraft<'_> {
    fn slots(&self) -> Vec<Slot> {
        let extent = (self.designer.rows, self.designer.cols);
        self.walls.iter().map(|&p| Slot { array: 0, place: Some(p), extent }).collect()
    }

    fn write(&self, kept: &[bool]) -> String {
        let d = self.designer;
        let mut cells = self.cells.clone();
        for (&(r, c), _) in self.walls.iter().zip(kept).filter(|(_, k)| !**k) {
            cells[r][c] = '.';
        }
        let rows: Vec<String> = cells.iter().map(|row| row.iter().collect()).collect();
        rewrite_grid(&d.text, &d.grid_span, d.title.as_ref(), &rows)
    }

    fn solution(&self, kept: &[bool], solver: &SolverConfig) -> Result<serde_json::Value, Error> {
        let text = self.write(kept);
        solve_written(load_puzzle(&Source::from_text(&self.designer.name, text)), ROUTE_ENGINE, solver, "vault")
    }
}

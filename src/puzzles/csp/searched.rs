//! csp templates whose design searches the clues (`values` in place of
//! `read`): those whose clues size their variables (a nurikabe's islands,
//! one per number), which have no solution to draw before there are clues.
//!
//! The search starts from the template's own clues, which must give a
//! solution. It first walks at random (a move sets one clue to a random
//! value or blanks it, and is kept when the puzzle keeps a solution), so
//! that each puzzle starts somewhere of its own; then it keeps a move when
//! the puzzle keeps a solution and leaves no more of the shown cells
//! undecided (a cell is decided when every solution gives it one value, as
//! `facts` finds), until none is: the puzzle then has one solution. A clue
//! set it cannot bring there in its moves is handed on all the same, and
//! the driver's first count finds it not unique and draws again. The
//! driver then drops clues as a reshaping designer's (each check loads the
//! written text afresh), and recounts the puzzle it keeps.

use super::design::{FoundClues, grid_extent, with_clues};
use super::{CspPuzzle, load_puzzle, regions};
use crate::lang::design::Design;
use crate::lang::model::Value;
use crate::model::{LoadError, Problem, Source};
use crate::puzzles::design::{Designer, Draft, Drops, Slot, Symmetry, title_edit};
use crate::puzzles::{Error, SolveOptions};
use crate::rng::SplitMix64;
use crate::solver::SolverConfig;

/// How many moves the search makes for each clue cell, at most, once its
/// random walk is over; a clue set still not unique then is drawn again.
const MOVES_PER_CELL: usize = 12;

/// A clue cell, (clue array, cell row-major), and its image under the
/// run's symmetry (itself when there is none).
type CellAndImage = ((usize, usize), (usize, usize));

/// A csp template whose design searches its clues.
pub struct SearchedDesigner {
    name: String,
    /// The template's text, kept as it is but for the clue arrays.
    text: String,
    design: Design,
    /// The template's clues, per clue array, row-major: where each search
    /// starts.
    start: Vec<Vec<i64>>,
    /// The design's title, and where it goes in `text`.
    title: Option<super::design::Edit>,
}

/// The clues a search found.
struct SearchedDraft<'a> {
    designer: &'a SearchedDesigner,
    /// The clues found, and the cells that hold one.
    found: FoundClues,
}

impl SearchedDesigner {
    /// The designer of `template`, loaded from `source`, whose design
    /// searches its clues.
    pub fn new(source: &Source, template: &CspPuzzle) -> Result<SearchedDesigner, LoadError> {
        let design = template.design().filter(|d| d.searched()).cloned().ok_or_else(|| {
            source.error(None, Problem::Invalid { found: "no searched design".into(), expected: "values".into() })
        })?;
        let start: Vec<Vec<i64>> = design
            .clues
            .iter()
            .map(|c| match &template.model.params[c.param].value {
                Value::Array(array) => {
                    array.elems.iter().map(|e| if let Value::Int(v) = e { *v } else { c.blank }).collect()
                }
                _ => vec![c.blank; c.len()],
            })
            .collect();
        refuse_broken_regions(source, template, &design, &start)?;
        let title = design.title.as_ref().map(|title| title_edit(source, title)).transpose()?;
        let text = source.text().to_string();
        Ok(SearchedDesigner { name: source.name().to_string(), text, design, start, title })
    }

    /// The template with `clues` written in; `None` when the model refuses
    /// them (a clue its params cannot take).
    fn puzzle(&self, clues: &[Vec<i64>]) -> Option<CspPuzzle> {
        load_puzzle(&Source::from_text(&self.name, with_clues(&self.text, &self.design, clues))).ok()
    }

    /// How many shown cells the puzzle with `clues` leaves undecided;
    /// `None` when it has no solution, or refuses the clues.
    fn undecided(&self, clues: &[Vec<i64>], options: &SolveOptions) -> Result<Option<usize>, Error> {
        match self.puzzle(clues) {
            Some(puzzle) => puzzle.undecided(options),
            None => Ok(None),
        }
    }

    /// The clue cells, as (array, cell) pairs, and each one's image under
    /// `symmetry` (itself when it has none).
    fn cells(&self, symmetry: Symmetry) -> Vec<CellAndImage> {
        let mut out = Vec::new();
        for (a, array) in self.design.clues.iter().enumerate() {
            let extent = grid_extent(&array.index);
            for k in 0..array.len() {
                let image = symmetry.image((k / extent.1, k % extent.1), extent).map_or(k, |(r, c)| r * extent.1 + c);
                out.push(((a, k), (a, image)));
            }
        }
        out
    }

    /// `clues` with one random move made on a clue cell and its image (half
    /// the time a cell that holds a clue, when there is one): a blank cell
    /// gets a random value; a clue is blanked, or takes the next value
    /// above or below, or (with no symmetry) slides to a blank cell beside
    /// it; a value given or blanked may take a second cell with it. The small moves keep most puzzles whose numbers size their
    /// regions solvable, where a random value seldom does.
    fn moved(
        &self,
        clues: &[Vec<i64>],
        cells: &[CellAndImage],
        symmetry: Symmetry,
        rng: &mut SplitMix64,
    ) -> Vec<Vec<i64>> {
        let mut next = clues.to_vec();
        let given: Vec<_> = cells.iter().filter(|((a, k), _)| clues[*a][*k] != self.design.clues[*a].blank).collect();
        let ((a, k), (_, image)) = match given.is_empty() || rng.below(2) == 0 {
            true => cells[rng.below(cells.len())],
            false => *given[rng.below(given.len())],
        };
        let array = &self.design.clues[a];
        if array.regions.is_some() {
            // A cell joins a region beside it; the moves that would leave a
            // region empty or in two pieces are never among those drawn.
            let moves = regions::moves(&next[a], grid_extent(&array.index));
            if !moves.is_empty() {
                let (cell, region) = moves[rng.below(moves.len())];
                next[a][cell] = region;
            }
            return next;
        }
        let values = array.values.as_deref().unwrap_or(&[]);
        let value = next[a][k];
        // With no symmetry, half the time a second cell goes with the
        // first: a blank one takes the same value, or a clue of the same
        // value is blanked too, so that a pair of numbers (a numberlink's
        // line) comes or goes in one move.
        let paired = symmetry == Symmetry::None && rng.below(2) == 0;
        if value == array.blank {
            for cell in [k, image] {
                next[a][cell] = values[rng.below(values.len())];
            }
            if paired && let Some(other) = another(&next[a], k, array.blank, rng) {
                next[a][other] = next[a][k];
            }
            return next;
        }
        match rng.below(3) {
            0 => {
                for cell in [k, image] {
                    next[a][cell] = array.blank;
                }
                if paired && let Some(other) = another(&next[a], k, value, rng) {
                    next[a][other] = array.blank;
                }
            }
            1 => {
                for cell in [k, image] {
                    let at = values.partition_point(|&v| v < next[a][cell]);
                    let up = rng.below(2) == 0;
                    next[a][cell] = match (up, at) {
                        (true, _) => values[(at + 1).min(values.len() - 1)],
                        (false, 0) => values[0],
                        (false, _) => values[at - 1],
                    };
                }
            }
            _ => {
                let extent = grid_extent(&array.index);
                let (r, c) = (k / extent.1, k % extent.1);
                let beside: Vec<usize> = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)]
                    .into_iter()
                    .filter(|&(r, c)| r < extent.0 && c < extent.1)
                    .map(|(r, c)| r * extent.1 + c)
                    .filter(|&cell| next[a][cell] == array.blank)
                    .collect();
                if symmetry == Symmetry::None && !beside.is_empty() {
                    next[a][beside[rng.below(beside.len())]] = value;
                    next[a][k] = array.blank;
                }
            }
        }
        next
    }
}

/// Refuses a template whose region array is not a division into regions
/// (each numbered from 1, one piece of cells next to each other), or whose
/// count of them says another number: the search keeps the division and
/// its count as they are, and starts from them.
fn refuse_broken_regions(
    source: &Source,
    template: &CspPuzzle,
    design: &Design,
    start: &[Vec<i64>],
) -> Result<(), LoadError> {
    for (array, cells) in design.clues.iter().zip(start) {
        let Some(division) = &array.regions else { continue };
        let at = Some(array.value_span.start);
        let expected = "each cell's region, numbered from 1 with none missing, each region one piece of cells next to \
                        each other (a region array's moves keep it so)";
        if let Some(found) = regions::fault(cells, grid_extent(&array.index)) {
            return Err(source.error(
                at,
                Problem::Invalid { found: format!("`{}` with {found}", array.name), expected: expected.into() },
            ));
        }
        let Some(count) = division.count else { continue };
        let regions = regions::count(cells);
        if let Value::Int(said) = template.model.params[count].value
            && said != regions as i64
        {
            let name = &template.model.params[count].name;
            return Err(source.error(
                at,
                Problem::Invalid {
                    found: format!("`{}` with {regions} regions, and {name} = {said}", array.name),
                    expected: format!("{name} = {regions}, the count of `{}`'s regions", array.name),
                },
            ));
        }
    }
    Ok(())
}

/// A random cell of `cells` other than `k` that holds `value`; `None`
/// when there is none.
fn another(cells: &[i64], k: usize, value: i64, rng: &mut SplitMix64) -> Option<usize> {
    let holding: Vec<usize> = (0..cells.len()).filter(|&c| c != k && cells[c] == value).collect();
    (!holding.is_empty()).then(|| holding[rng.below(holding.len())])
}

impl Designer for SearchedDesigner {
    fn name(&self) -> &str {
        &self.name
    }

    /// A move sets a cell and its image alike (blank or not), so the clues
    /// found are symmetric when the template's are. A region array moves
    /// one cell at a time, which keeps no symmetry: refused.
    fn allows(&self, symmetry: Symmetry) -> Result<(), String> {
        match self.design.clues.iter().find(|c| c.regions.is_some()) {
            Some(array) if symmetry != Symmetry::None => Err(format!(
                "{}: the regions of `{}` are searched one cell at a time, which keeps no symmetry",
                self.name, array.name
            )),
            _ => Ok(()),
        }
    }

    fn needs_clues(&self) -> bool {
        true
    }

    fn drops(&self) -> Drops {
        Drops::Reshape
    }

    fn draw<'a>(
        &'a self,
        rng: &mut SplitMix64,
        solver: &SolverConfig,
        symmetry: Symmetry,
    ) -> Result<Option<Box<dyn Draft + 'a>>, Error> {
        let options = SolveOptions { engine: None, solver: solver.clone(), ..SolveOptions::default() };
        let cells = self.cells(symmetry);
        let mut clues = self.start.clone();
        let Some(mut open) = self.undecided(&clues, &options)? else {
            return Err(Error::NotMade(format!(
                "{}: the template's clues give no solution; a design with `values` searches the clues from the \
                 template's own, so give a template with a solution (a genre's sample puzzle, say)",
                self.name
            )));
        };
        // The walk: as many kept moves as there are cells, tried twice over.
        let mut kept = 0;
        for _ in 0..2 * cells.len() {
            if kept == cells.len() {
                break;
            }
            let next = self.moved(&clues, &cells, symmetry, rng);
            if let Some(left) = self.undecided(&next, &options)? {
                (clues, open, kept) = (next, left, kept + 1);
            }
        }
        for _ in 0..MOVES_PER_CELL * cells.len() {
            if open == 0 {
                break;
            }
            let next = self.moved(&clues, &cells, symmetry, rng);
            if let Some(left) = self.undecided(&next, &options)?.filter(|&left| left <= open) {
                (clues, open) = (next, left);
            }
        }
        for (array, cells) in self.design.clues.iter().zip(&clues).filter(|(c, _)| c.regions.is_some()) {
            if let Some(fault) = regions::fault(cells, grid_extent(&array.index)) {
                return Err(Error::Internal(format!("{}: the search broke `{}`: {fault}", self.name, array.name)));
            }
        }
        let found = FoundClues::new(&self.design, clues);
        Ok(Some(Box::new(SearchedDraft { designer: self, found })))
    }
}

impl Draft for SearchedDraft<'_> {
    fn slots(&self) -> Vec<Slot> {
        self.found.slots(&self.designer.design)
    }

    fn write(&self, kept: &[bool]) -> String {
        let designer = self.designer;
        self.found.write(&designer.design, &designer.text, designer.title.clone(), kept)
    }

    /// Found on the written text: a reshaping drop may move the solution.
    fn solution(&self, kept: &[bool], solver: &SolverConfig) -> Result<serde_json::Value, Error> {
        let options = SolveOptions { engine: None, solver: solver.clone(), ..SolveOptions::default() };
        let puzzle = self
            .designer
            .puzzle(&self.found.kept(&self.designer.design, kept))
            .ok_or_else(|| Error::Internal("a searched puzzle's text does not load".into()))?;
        let (values, _) = puzzle
            .random_solution(&mut SplitMix64::new(0), &options)?
            .ok_or_else(|| Error::Internal("a searched puzzle kept as unique has no solution".into()))?;
        Ok(puzzle.shown_json(&values))
    }
}

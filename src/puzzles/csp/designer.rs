//! csp models with a design table as a [`Designer`]: the random solution
//! is drawn on the template with every clue array blank, and a puzzle is
//! the template's text with its clue arrays written anew.

use super::design::with_clues;
use super::{CspPuzzle, load_puzzle};
use crate::lang::design::Design;
use crate::model::{LoadError, Problem, Source};
use crate::puzzles::design::{ClueSolver, Designer, Draft, Slot, Symmetry, rewrite, title_edit};
use crate::puzzles::{Error, SolveOptions};
use crate::rng::SplitMix64;
use crate::solver::SolverConfig;

/// A csp model with a `[design]` table.
pub struct CspDesigner {
    name: String,
    /// The template's text, kept as it is but for the clue arrays.
    text: String,
    /// The template's design, whose places are in `text`.
    design: Design,
    /// The template with every clue array blank, whose solutions are drawn.
    blank: CspPuzzle,
    /// The design's title, and where it goes in `text`: over the model's
    /// title's value, or a line of its own at the top.
    title: Option<(std::ops::Range<usize>, String)>,
}

/// A random solution and its clues.
struct CspDraft<'a> {
    designer: &'a CspDesigner,
    values: Vec<i64>,
    /// Per clue array, row-major.
    clues: Vec<Vec<i64>>,
    /// Per slot: its array and cell (row-major).
    at: Vec<(usize, usize)>,
}

impl CspDesigner {
    /// The designer of a csp model; refused (as bad input) when it has no
    /// design table.
    pub fn new(source: &Source) -> Result<CspDesigner, LoadError> {
        let template = load_puzzle(source)?;
        let Some(design) = template.design() else {
            return Err(source.error(
                None,
                Problem::Invalid {
                    found: "a csp model without a [design] table".into(),
                    expected: "[[design.clue]] tables naming the clue arrays, their blank and how to read a clue \
                               off a solution (see the README's generate section)"
                        .into(),
                },
            ));
        };
        let blanks: Vec<Vec<i64>> = design.clues.iter().map(|c| vec![c.blank; c.len()]).collect();
        let text = source.text().to_string();
        let blank = load_puzzle(&Source::from_text(source.name(), with_clues(&text, design, &blanks)))?;
        let title = design.title.as_ref().map(|title| title_edit(source, title)).transpose()?;
        let design = design.clone();
        Ok(CspDesigner { name: source.name().to_string(), text, design, blank, title })
    }

    /// [`CspDesigner::new`] as the family's registered designer.
    pub fn boxed(source: &Source) -> Result<Box<dyn Designer>, LoadError> {
        Ok(Box::new(CspDesigner::new(source)?))
    }
}

impl Designer for CspDesigner {
    fn name(&self) -> &str {
        &self.name
    }

    /// Every clue array has images: a 1-D array is a row (its clues paired
    /// end to end), and one of more dimensions a grid of its last index
    /// across and the others down, so `rot180` reverses every index and
    /// `mirror` the last.
    fn allows(&self, _: Symmetry) -> Result<(), String> {
        Ok(())
    }

    fn draw<'a>(
        &'a self,
        rng: &mut SplitMix64,
        solver: &SolverConfig,
        _: Symmetry,
    ) -> Result<Option<Box<dyn Draft + 'a>>, Error> {
        let solve = SolveOptions { engine: None, solver: solver.clone(), ..SolveOptions::default() };
        let Some(values) = self.blank.random_solution(rng, &solve)? else { return Ok(None) };
        let clues = self.blank.clues_of(&values);
        let design = &self.design;
        let at = clues
            .iter()
            .enumerate()
            .flat_map(|(a, cells)| {
                let blank = design.clues[a].blank;
                cells.iter().enumerate().filter(move |(_, v)| **v != blank).map(move |(k, _)| (a, k))
            })
            .collect();
        Ok(Some(Box::new(CspDraft { designer: self, values, clues, at })))
    }
}

impl Draft for CspDraft<'_> {
    fn slots(&self) -> Vec<Slot> {
        let design = &self.designer.design;
        self.at
            .iter()
            .map(|&(a, k)| {
                // A grid of the last index across and the others down.
                let sizes: Vec<usize> =
                    design.clues[a].index.iter().map(|&(lo, hi)| (hi - lo + 1).max(0) as usize).collect();
                let cols = sizes.last().copied().unwrap_or(1).max(1);
                let rows = sizes.iter().rev().skip(1).product::<usize>();
                Slot { array: a, place: Some((k / cols, k % cols)), extent: (rows, cols) }
            })
            .collect()
    }

    fn write(&self, kept: &[bool]) -> String {
        let design = &self.designer.design;
        let mut values: Vec<Vec<i64>> = design.clues.iter().map(|c| vec![c.blank; c.len()]).collect();
        for (&(a, k), _) in self.at.iter().zip(kept).filter(|(_, keep)| **keep) {
            values[a][k] = self.clues[a][k];
        }
        let mut edits: Vec<_> =
            design.clues.iter().zip(&values).map(|(c, v)| (c.value_span.clone(), c.written(v))).collect();
        edits.extend(self.designer.title.clone());
        rewrite(&self.designer.text, edits)
    }

    fn solution(&self, _: &[bool], _: &SolverConfig) -> Result<serde_json::Value, Error> {
        Ok(self.designer.blank.shown_json(&self.values))
    }

    fn clue_solver<'s>(
        &'s self,
        engine: Option<&str>,
        solver: &SolverConfig,
    ) -> Result<Option<Box<dyn ClueSolver + 's>>, Error> {
        let clues = self.at.iter().map(|&(a, k)| (a, k, self.clues[a][k])).collect();
        let found = self.designer.blank.clue_solver(clues, engine, solver)?;
        Ok(found.map(|s| Box::new(s) as Box<dyn ClueSolver + 's>))
    }
}

//! csp models with a design table as a [`Designer`]: the random solution
//! is drawn on the template with every clue array blank, and a puzzle is
//! the template's text with its clue arrays written anew.

use super::{Designer, GenerateOptions, Slot};
use crate::lang::design::Design;
use crate::model::Source;
use crate::puzzles::csp::design::with_clues;
use crate::puzzles::csp::{CspPuzzle, load_puzzle};
use crate::puzzles::{Error, SolveOptions};
use crate::rng::SplitMix64;

/// A csp model with a `[design]` table.
pub struct CspDesigner {
    name: String,
    /// The template's text, kept as it is but for the clue arrays.
    text: String,
    /// The template's design, whose places are in `text`.
    design: Design,
    /// The template with every clue array blank, whose solutions are drawn.
    blank: CspPuzzle,
}

/// A random solution and its clues.
pub struct CspDrawn {
    values: Vec<i64>,
    /// Per clue array, row-major.
    clues: Vec<Vec<i64>>,
    /// Per slot: its array and cell (row-major).
    at: Vec<(usize, usize)>,
}

impl CspDesigner {
    /// The designer of a csp model; refused (as bad input) when it has no
    /// design table.
    pub fn new(source: &Source) -> Result<CspDesigner, crate::model::LoadError> {
        let template = load_puzzle(source)?;
        let Some(design) = template.design() else {
            return Err(source.error(
                None,
                crate::model::Problem::Invalid {
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
        let design = design.clone();
        Ok(CspDesigner { name: source.name().to_string(), text, design, blank })
    }
}

impl Designer for CspDesigner {
    type Drawn = CspDrawn;

    fn name(&self) -> &str {
        &self.name
    }

    fn draw(&self, rng: &mut SplitMix64, options: &GenerateOptions) -> Result<Option<CspDrawn>, Error> {
        let solve = SolveOptions { engine: None, solver: options.solver.clone(), ..SolveOptions::default() };
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
        Ok(Some(CspDrawn { values, clues, at }))
    }

    fn slots(&self, drawn: &CspDrawn) -> Vec<Slot> {
        let design = &self.design;
        drawn
            .at
            .iter()
            .map(|&(a, k)| {
                let index = &design.clues[a].index;
                match index[..] {
                    [(r0, r1), (c0, c1)] => {
                        let cols = (c1 - c0 + 1) as usize;
                        Slot { array: a, place: Some((k / cols, k % cols)), extent: ((r1 - r0 + 1) as usize, cols) }
                    }
                    _ => Slot { array: a, place: None, extent: (0, 0) },
                }
            })
            .collect()
    }

    fn write(&self, drawn: &CspDrawn, kept: &[bool]) -> String {
        let design = &self.design;
        let mut values: Vec<Vec<i64>> = design.clues.iter().map(|c| vec![c.blank; c.len()]).collect();
        for (&(a, k), _) in drawn.at.iter().zip(kept).filter(|(_, keep)| **keep) {
            values[a][k] = drawn.clues[a][k];
        }
        with_clues(&self.text, design, &values)
    }

    fn solution(&self, drawn: &CspDrawn) -> serde_json::Value {
        self.blank.shown_json(&drawn.values)
    }
}

//! csp models with a design table as a [`Designer`]: the random solution
//! is drawn on the template without the constraints that read its clue
//! arrays (with every clue array blank, when those hold trivially there),
//! and a puzzle is the template's text with its clue arrays written anew.

use super::clue_reads::{ClueReads, clue_reads};
use super::clue_solver::Anchor;
use super::design::{FoundClues, with_clues};
use super::searched::SearchedDesigner;
use super::{CspPuzzle, load_puzzle};
use crate::lang::design::{Design, unroll};
use crate::lang::verify::Verifier;
use crate::model::{LoadError, Problem, Source};
use crate::puzzles::design::{ClueSolver, Designer, Draft, Drops, Slot, Symmetry, title_edit};
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
    /// The template with every clue array blank.
    blank: CspPuzzle,
    /// What the clue arrays reach.
    reads: ClueReads,
    /// The template without the constraints that read the clue arrays,
    /// whose solutions are drawn and which the kept solver encodes; `None`
    /// when those constraints hold trivially with every clue blank, and
    /// `blank` serves.
    fixed: Option<CspPuzzle>,
    /// How a dropped clue acts: narrowing when the clues are read cell by
    /// cell, else anchored on the drawn solution.
    drops: Drops,
    /// The design's title, and where it goes in `text`: over the model's
    /// title's value, or a line of its own at the top.
    title: Option<(std::ops::Range<usize>, String)>,
}

/// A random solution and its clues.
struct CspDraft<'a> {
    designer: &'a CspDesigner,
    /// The solution's values and routes.
    solution: Anchor,
    /// The clues read off it, and the cells that hold one.
    found: FoundClues,
}

impl CspDesigner {
    /// The designer of a csp model; refused (as bad input) when it has no
    /// design table, or reads its clue arrays in a way generate cannot
    /// check exactly ([`clue_reads`]).
    pub fn new(source: &Source) -> Result<CspDesigner, LoadError> {
        CspDesigner::of_template(source, load_puzzle(source)?)
    }

    /// [`CspDesigner::new`] of `template`, already loaded from `source`.
    fn of_template(source: &Source, template: CspPuzzle) -> Result<CspDesigner, LoadError> {
        let Some(design) = template.design() else {
            return Err(source.error(
                None,
                Problem::Invalid {
                    found: "a csp model without a [design] table".into(),
                    expected: "[[design.clue]] tables naming the clue arrays, their blank and how to read a clue \
                               off a solution (see the book's page on drawing and design tables)"
                        .into(),
                },
            ));
        };
        let reads = clue_reads(source, &template.model, design)?;
        let blanks: Vec<Vec<i64>> = design.clues.iter().map(|c| vec![c.blank; c.len()]).collect();
        let text = source.text().to_string();
        let blank = load_puzzle(&Source::from_text(source.name(), with_clues(&text, design, &blanks)))?;
        // Narrow: every instance reads one clue cell and holds trivially
        // with that cell blank, so a clue dropped only takes its instances away.
        let trivial = unroll(&blank.model, &reads.dependent)
            .is_ok_and(|instances| instances.iter().all(|i| i.as_const() == Some(true)));
        let drops = if reads.cellwise && trivial { Drops::Narrow } else { Drops::Anchored };
        if drops == Drops::Anchored {
            refuse_unanchorable(source, &template, &reads)?;
        }
        let fixed = (drops == Drops::Anchored).then(|| blank.without_constraints(&reads.dependent));
        let title = design.title.as_ref().map(|title| title_edit(source, title)).transpose()?;
        let design = design.clone();
        Ok(CspDesigner { name: source.name().to_string(), text, design, blank, reads, fixed, drops, title })
    }

    /// [`CspDesigner::new`] as the family's registered designer.
    /// A template whose design searches its clues (`values`) gets a
    /// [`SearchedDesigner`].
    pub fn boxed(source: &Source) -> Result<Box<dyn Designer>, LoadError> {
        let template = load_puzzle(source)?;
        if template.design().is_some_and(Design::searched) {
            return Ok(Box::new(SearchedDesigner::new(source, &template)?));
        }
        Ok(Box::new(CspDesigner::of_template(source, template)?))
    }

    /// The template solutions are drawn on.
    fn fixed(&self) -> &CspPuzzle {
        self.fixed.as_ref().unwrap_or(&self.blank)
    }

    /// How the clue arrays are read, for people: which constraints read
    /// them and whether drops narrow.
    pub fn reads(&self) -> (&ClueReads, Drops) {
        (&self.reads, self.drops)
    }
}

/// A constraint as a message names it: its name, and its line unless the
/// name says it.
fn named(constraint: &crate::lang::model::Constraint) -> String {
    let line = format!("(line {})", constraint.line);
    match constraint.name.ends_with(&line) {
        true => format!("\"{}\"", constraint.name),
        false => format!("\"{}\" {line}", constraint.name),
    }
}

/// Refuses a template whose clues are read otherwise than cell by cell
/// when a check could not tell whether the drawn solution is still one:
/// with a grid global among the constraints that read them (the verifier
/// needs its route, which only a solve finds), or an objective (a solution
/// of the constraints need not be the optimum).
fn refuse_unanchorable(source: &Source, template: &CspPuzzle, reads: &ClueReads) -> Result<(), LoadError> {
    let model = &template.model;
    let Some(&first) = reads.dependent.first() else { return Ok(()) };
    let first = &model.constraints[first];
    let why = "constraints that read the clue arrays cell by cell (`forall(i in .. where c[i] != blank)(..c[i]..)`, \
               each instance holding with its cell blank): these read which clues are present, and generate \
               checks each drop by whether the solution the clues were read from is still one";
    if let Some(k) = reads.grid {
        let constraint = &model.constraints[k];
        return Err(source.error(
            Some(constraint.expr.span.start),
            Problem::Invalid {
                found: format!("the grid global in {}, which reads the clue arrays", named(constraint)),
                expected: format!("{why}, which a grid global's route, found only by a solve, keeps from it"),
            },
        ));
    }
    if let Some(objective) = &model.objective {
        return Err(source.error(
            Some(objective.expr.span.start),
            Problem::Invalid {
                found: format!("an objective beside {}, which reads the clue arrays", named(first)),
                expected: format!("{why}, which an objective keeps from it (a solution need not be the optimum)"),
            },
        ));
    }
    Ok(())
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

    fn needs_clues(&self) -> bool {
        true
    }

    fn drops(&self) -> Drops {
        self.drops
    }

    fn draw<'a>(
        &'a self,
        rng: &mut SplitMix64,
        solver: &SolverConfig,
        _: Symmetry,
    ) -> Result<Option<Box<dyn Draft + 'a>>, Error> {
        let solve = SolveOptions { engine: None, solver: solver.clone(), ..SolveOptions::default() };
        let Some(mut solution) = self.fixed().random_solution(rng, &solve)? else { return Ok(None) };
        let found = FoundClues::new(&self.design, self.blank.clues_of(&solution.0));
        // Anchored checks verify the drawn solution against each puzzle,
        // so it needs the values of the variables the design does not read
        // that the dropped constraints set: solved for on the puzzle with
        // every clue. None there means its own clues rule it out, which
        // the first check finds.
        if self.drops == Drops::Anchored {
            let text = found.write(&self.design, &self.text, None, &vec![true; found.at.len()]);
            let puzzle = load_puzzle(&Source::from_text(&self.name, text))
                .map_err(|e| Error::Internal(format!("a generated model does not load: {e}")))?;
            if let Some(full) = puzzle.completed(&solution.0, &solve)? {
                solution = full;
            }
        }
        Ok(Some(Box::new(CspDraft { designer: self, solution, found })))
    }
}

impl Draft for CspDraft<'_> {
    fn slots(&self) -> Vec<Slot> {
        self.found.slots(&self.designer.design)
    }

    fn write(&self, kept: &[bool]) -> String {
        let designer = self.designer;
        self.found.write(&designer.design, &designer.text, designer.title.clone(), kept)
    }

    fn solution(&self, _: &[bool], _: &SolverConfig) -> Result<serde_json::Value, Error> {
        Ok(self.designer.blank.shown_json(&self.solution.0))
    }

    /// The written text loaded afresh, and the drawn solution checked
    /// against it by the verifier.
    fn holds(&self, kept: &[bool]) -> Result<bool, Error> {
        let text = self.write(kept);
        let puzzle = load_puzzle(&Source::from_text(&self.designer.name, text))
            .map_err(|e| Error::Internal(format!("a generated model does not load: {e}")))?;
        let (values, routes) = &self.solution;
        Ok(Verifier::new(&puzzle.model).check(values, routes).is_ok())
    }

    fn clue_solver<'s>(
        &'s self,
        engine: Option<&str>,
        solver: &SolverConfig,
    ) -> Result<Option<Box<dyn ClueSolver + 's>>, Error> {
        let designer = self.designer;
        let clues = (0..self.found.at.len())
            .map(|j| {
                let (a, cells) = self.found.cells(&designer.design, j);
                cells.map(|k| (a, k, self.found.clues[a][k])).collect()
            })
            .collect();
        let anchor = (designer.drops == Drops::Anchored).then(|| self.solution.clone());
        let found =
            designer.fixed().clue_solver(&designer.blank.model, &designer.reads, clues, anchor, (engine, solver))?;
        Ok(found.map(|s| Box::new(s) as Box<dyn ClueSolver + 's>))
    }
}

//! The uniqueness checks of `generate` on one solver per drawn solution:
//! the template is encoded once with every clue array blank, and each clue
//! is one more constraint, "`read` = the clue", posted under a selector
//! literal. A check assumes the selectors of the clues kept, so dropping a
//! clue costs one SAT call on a solver that keeps what it learnt, in place
//! of loading, compiling and counting the written text afresh.
//!
//! The first check (every clue, or any set of clues not within the first)
//! finds a solution and blocks it on the literals that tell solutions
//! apart, under an activation literal. Fewer clues only widen the
//! solutions (the design's clues narrow), so that solution stays one, and
//! each later check is "is there another?": one call under the kept
//! selectors and the activation. A check with clues outside the first's
//! retires the blocking clause (the activation's negation as a unit) and
//! starts again.
//!
//! Every model the solver finds is decoded and checked by the independent
//! verifier against the model as the puzzle's text would state it (the
//! template with the kept clues in its clue arrays), and its clues read off
//! it by the design's `read` must be the clues assumed: a wrong selector
//! encoding is an error, not a count. So "two or more" always rests on two
//! checked solutions of the written puzzle (the first one checked again
//! under the clues of each check), which is what `--minimal` claims of
//! each clue; "one" rests on the encoding, and the puzzle output is
//! counted once more from its text ([`crate::generate::check::recount`]).

use std::cell::RefCell;
use std::rc::Rc;

use super::{CspPuzzle, Engine};
use crate::cnf::Lit;
use crate::compile::repair::RepairLog;
use crate::compile::repair::Route;
use crate::compile::{Compiled, GridEncoding, ObjectiveUse};
use crate::lang::model::{Model, Value};
use crate::lang::verify::Verifier;
use crate::puzzles::Error;
use crate::puzzles::design::{ClueSolver, Verdict};
use crate::solver::{Answer, Checked, Solve, SolveStats, SolverConfig};

/// One clue of a draft: its array, its cell (row-major) and its value.
pub type Clue = (usize, usize, i64);

/// A csp template's [`ClueSolver`].
pub struct CspClueSolver<'a> {
    puzzle: &'a CspPuzzle,
    /// The template with the clue arrays as the last check's puzzle
    /// writes them, for the verifier.
    written: Model,
    compiled: Compiled,
    solver: Box<dyn Solve + 'a>,
    log: Rc<RefCell<RepairLog>>,
    clues: Vec<Clue>,
    /// Per clue, the literal that gives it.
    selectors: Vec<Lit>,
    projection: Vec<Lit>,
    one_hot: bool,
    /// The solution found by the first check, blocked under the
    /// activation literal, and the clues that check kept.
    blocked: Option<(Lit, Vec<bool>)>,
    /// That solution's values and routes.
    first: (Vec<i64>, Vec<Option<Route>>),
}

impl CspPuzzle {
    /// A [`CspClueSolver`] for `clues` (read off a solution of this
    /// template with its clue arrays blank); `None` for a model with an
    /// objective, whose counts are of its optimal solutions.
    pub fn clue_solver<'a>(
        &'a self,
        clues: Vec<Clue>,
        engine: Option<&str>,
        config: &SolverConfig,
    ) -> Result<Option<CspClueSolver<'a>>, Error> {
        if self.program.objective.is_some() {
            return Ok(None);
        }
        let Some(design) = self.design() else { return Ok(None) };
        let (mut compiled, _) = self.compiled(Engine::choose(engine)?, ObjectiveUse::Optimize)?;
        let grids: Rc<[GridEncoding]> = std::mem::take(&mut compiled.grids).into();
        let log = Rc::new(RefCell::new(RepairLog::default()));
        // No splicing, as in `count`: solutions are told apart by their routes.
        let mut solver = self.driver(&grids, config.new_solver(&compiled.cnf, None), Vec::new(), false, &log);
        let selectors = compiled.encoder.extend(&mut *solver, |enc| {
            clues.iter().map(|&(a, k, v)| enc.eq_selector(&design.clues[a].read[k], v)).collect::<Result<Vec<_>, _>>()
        })?;
        let (projection, one_hot) = self.solution_projection(&compiled.encoder, &grids);
        Ok(Some(CspClueSolver {
            puzzle: self,
            written: self.model.clone(),
            compiled,
            solver,
            log,
            clues,
            selectors,
            projection,
            one_hot,
            blocked: None,
            first: (Vec::new(), Vec::new()),
        }))
    }
}

impl CspClueSolver<'_> {
    /// Writes the clues of `kept` into the clue arrays of `written`, the
    /// rest blank.
    fn write_clues(&mut self, kept: &[bool]) -> Result<(), Error> {
        let Some(design) = self.puzzle.design() else { return Ok(()) };
        for (a, clue) in design.clues.iter().enumerate() {
            let Value::Array(array) = &mut self.written.params[clue.param].value else {
                return Err(Error::Internal(format!("the clue param {} is not an array", clue.name)));
            };
            let given = self.clues.iter().zip(kept).filter(|((b, _, _), keep)| **keep && *b == a);
            array.elems.iter_mut().for_each(|e| *e = Value::Int(clue.blank));
            for ((_, k, v), _) in given {
                array.elems[*k] = Value::Int(*v);
            }
        }
        Ok(())
    }

    /// One call under the selectors of `kept` and `extra`, every model
    /// checked: by the verifier of the written puzzle, and its clues
    /// against those assumed. A model found is kept in `last`.
    fn call(&mut self, kept: &[bool], extra: Option<Lit>) -> Result<Answer, Error> {
        self.write_clues(kept)?;
        let mut assumptions: Vec<Lit> =
            self.selectors.iter().zip(kept).filter(|(_, keep)| **keep).map(|(&s, _)| s).collect();
        assumptions.extend(extra);
        let verifier = Verifier::new(&self.written);
        let (puzzle, encoder, log, clues) = (self.puzzle, &self.compiled.encoder, &self.log, &self.clues);
        let mut last = None;
        let check = |value: &dyn Fn(Lit) -> bool| {
            let routes = log.borrow().routes.clone();
            let (values, _) = puzzle.check_model(&verifier, encoder, None, value, &routes)?;
            let read = puzzle.clues_of(&values);
            if let Some(((a, k, v), _)) = clues.iter().zip(kept).find(|((a, k, v), keep)| **keep && read[*a][*k] != *v)
            {
                return Err(format!(
                    "a solution under the clue {v} of {}[{k}] reads {} there: the clue's selector does not say \
                     what `read` says",
                    puzzle.design().map_or("", |d| d.clues[*a].name.as_str()),
                    read[*a][*k]
                ));
            }
            last = Some((values, routes));
            Ok(())
        };
        let answer = Checked::new(&mut *self.solver, check).solve_under(&assumptions)?;
        if let Some(found) = last.filter(|_| answer == Answer::Sat && extra.is_none()) {
            self.first = found;
        }
        Ok(answer)
    }

    /// "Several" once the first solution is checked again as a solution of
    /// the puzzle the last call wrote: the second one was checked by the call.
    fn several(&self) -> Result<Verdict, Error> {
        let (values, routes) = &self.first;
        Verifier::new(&self.written).check(values, routes).map_err(|e| {
            Error::CheckFailed(format!("the first solution of a draft is not one of a puzzle with fewer clues: {e}"))
        })?;
        Ok(Verdict::Several)
    }

    /// Blocks the last model on the projection under a fresh activation
    /// literal, which it returns.
    fn block_last(&mut self) -> Lit {
        let activation = self.solver.new_var().pos();
        let mut clause: Vec<Lit> = self
            .projection
            .iter()
            .filter_map(|&l| match self.solver.value(l) {
                true => Some(!l),
                false if !self.one_hot => Some(l),
                false => None,
            })
            .collect();
        clause.push(!activation);
        crate::cnf::card::linked_clause(&mut *self.solver, &clause, 48);
        activation
    }
}

impl ClueSolver for CspClueSolver<'_> {
    fn verdict(&mut self, kept: &[bool]) -> Result<Verdict, Error> {
        if let Some((activation, first)) = &self.blocked {
            if kept.iter().zip(first).all(|(&k, &f)| f || !k) {
                let activation = *activation;
                return match self.call(kept, Some(activation))? {
                    Answer::Sat => self.several(),
                    Answer::Unsat => Ok(Verdict::Unique),
                };
            }
            self.solver.add_clause(&[!*activation]);
            self.blocked = None;
        }
        if self.call(kept, None)? == Answer::Unsat {
            return Ok(Verdict::None);
        }
        let activation = self.block_last();
        self.blocked = Some((activation, kept.to_vec()));
        match self.call(kept, Some(activation))? {
            Answer::Sat => self.several(),
            Answer::Unsat => Ok(Verdict::Unique),
        }
    }

    fn stats(&self) -> SolveStats {
        self.solver.stats()
    }
}

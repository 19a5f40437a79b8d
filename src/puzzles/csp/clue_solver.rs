//! The uniqueness checks of `generate` on one solver per drawn solution.
//!
//! The template's constraints that do not read its clue arrays are
//! encoded once ([`super::clue_reads`]). Those that do are unrolled from
//! the template's model with the clues written into its clue arrays,
//! exactly as the puzzle's text states them. When they read the clues cell
//! by cell (for a Sudoku, "`cell[2,3] = 7`" where the givens have a 7), they
//! are unrolled once with every clue, and the instances of each clue's
//! cell are encoded under a selector literal of that clue; a cell with no
//! clue has only instances that hold trivially. Otherwise (a constraint on
//! how many clues there are) they are unrolled again for each check, each
//! instance met encoded once under a selector of its own. A check assumes
//! the selectors of what its puzzle has. So dropping a clue costs one SAT
//! call on a solver that keeps what it learnt, in place of loading,
//! compiling and counting the written text afresh, and the formula of each
//! check is the puzzle's own, whatever its constraints make of the clues.
//!
//! The first check (every clue, or any set of clues not within the first)
//! finds a solution and blocks it on the literals that tell solutions
//! apart, under an activation literal. When the drops narrow (the clues
//! are read cell by cell), fewer clues only widen the solutions, so that
//! solution stays one, and each later check is "is there another?": one
//! call under the kept selectors and the activation. When the puzzle reads
//! which clues are present, each check first asks the independent verifier
//! whether the drawn solution (the anchor) is one of the puzzle; if not,
//! the check finds none, and if it is, "is there another?" as before. A
//! check with clues outside the first's retires the blocking clause (the
//! activation's negation as a unit) and starts again.
//!
//! Every model the solver finds is decoded and checked by the independent
//! verifier against the model as the puzzle's text would state it. So "two
//! or more" always rests on two checked solutions of the written puzzle
//! (the first one, or the anchor, checked again under the clues of each
//! check), which is what `--minimal` claims of each clue; "one" rests on
//! the encoding, and the puzzle output is counted once more from its text
//! ([`crate::generate::check::recount`]).

use std::collections::HashMap;

use super::CspPuzzle;
use super::clue_reads::ClueReads;
use super::instance::{Instance, Setup};
use crate::cnf::Lit;
use crate::compile::repair::Route;
use crate::lang::design::{unroll, unroll_instances};
use crate::lang::ir::BExpr;
use crate::lang::model::{Model, Value, flat_position};
use crate::lang::verify::Verifier;
use crate::puzzles::Error;
use crate::puzzles::design::{ClueSolver, Verdict};
use crate::solver::{Answer, Checked, Solve, SolveStats, SolverConfig};

/// One cell of a draft's clue: its array, its cell (row-major) and its
/// value.
pub type Clue = (usize, usize, i64);

/// A solution's values (one per scalar) and the route of each grid global.
pub type Anchor = (Vec<i64>, Vec<Option<Route>>);

/// A csp template's [`ClueSolver`].
pub struct CspClueSolver<'a> {
    /// The whole template with the clue arrays as the last check's puzzle
    /// writes them, for the verifier and the unrolling.
    written: Model,
    /// The constraints of `written` that read a clue array.
    dependent: &'a [usize],
    /// The puzzle prepared for the checks.
    instance: Instance<'a>,
    /// Per slot, the cells of its clue: one, or a list's entries.
    clues: Vec<Vec<Clue>>,
    /// When the clues are read cell by cell, per clue the literal that
    /// makes the instances of its cell hold.
    per_clue: Option<Vec<Lit>>,
    /// Else, per instance of a dependent constraint met so far, the literal
    /// that makes it hold.
    selectors: HashMap<BExpr, Lit>,
    /// The drawn solution, which every check must keep when the puzzle
    /// reads which clues are present.
    anchor: Option<Anchor>,
    projection: Vec<Lit>,
    one_hot: bool,
    /// The solution found by the first check, blocked under the
    /// activation literal, and the clues that check kept.
    blocked: Option<(Lit, Vec<bool>)>,
    /// That solution's values and routes.
    first: Anchor,
}

impl CspPuzzle {
    /// A [`CspClueSolver`] for `clues` (per slot, the cells of its clue),
    /// read off a solution of `template`
    /// (the whole template, with its clue arrays blank), on this puzzle
    /// (the template without the constraints `reads.dependent`); `None`
    /// for a model with an objective, whose counts are of its optimal
    /// solutions, and for a template whose clues the check cannot unroll
    /// again on its own (a parameter computed from them, a grid global
    /// among the constraints that read them). With an `anchor`, each check
    /// first asks whether it is a solution of the puzzle.
    pub fn clue_solver<'a>(
        &'a self,
        template: &Model,
        reads: &'a ClueReads,
        clues: Vec<Vec<Clue>>,
        anchor: Option<Anchor>,
        (engine, config): (Option<&str>, &SolverConfig),
    ) -> Result<Option<CspClueSolver<'a>>, Error> {
        if self.program.objective.is_some() || !reads.derived.is_empty() || reads.grid.is_some() {
            return Ok(None);
        }
        if template.design.is_none() {
            return Ok(None);
        }
        // No splicing, as in `count`: solutions are told apart by their routes.
        let instance = self.prepare(Setup::counting(super::sat_engine(engine)?), |cnf| config.new_solver(cnf, None))?;
        let (projection, one_hot) = instance.reader.projection();
        let cellwise = reads.cellwise && anchor.is_none();
        let mut solver = CspClueSolver {
            written: template.clone(),
            dependent: &reads.dependent,
            instance,
            clues,
            per_clue: None,
            selectors: HashMap::new(),
            anchor,
            projection,
            one_hot,
            blocked: None,
            first: (Vec::new(), Vec::new()),
        };
        if cellwise {
            solver.per_clue = Some(solver.clue_selectors(&reads.cells)?);
        }
        Ok(Some(solver))
    }
}

/// The value a loop variable's shown value stands for: a number, a
/// Boolean, or an enum value's name.
fn shown_value(shown: &str, enums: &[crate::lang::model::EnumDecl]) -> Option<i64> {
    match shown {
        "true" => Some(1),
        "false" => Some(0),
        _ => shown
            .parse()
            .ok()
            .or_else(|| enums.iter().find_map(|e| e.values.iter().position(|v| v == shown).map(|k| k as i64 + 1))),
    }
}

impl CspClueSolver<'_> {
    /// Writes the clues of `kept` into the clue arrays of `written`, the
    /// rest blank.
    fn write_clues(&mut self, kept: &[bool]) -> Result<(), Error> {
        let Some(design) = self.written.design.clone() else { return Ok(()) };
        for (a, clue) in design.clues.iter().enumerate() {
            let Value::Array(array) = &mut self.written.params[clue.param].value else {
                return Err(Error::Internal(format!("the clue param {} is not an array", clue.name)));
            };
            let given = self.clues.iter().zip(kept).filter(|(_, keep)| **keep).flat_map(|(cells, _)| cells);
            array.elems.iter_mut().for_each(|e| *e = Value::Int(clue.blank));
            for (_, k, v) in given.filter(|(b, _, _)| *b == a) {
                array.elems[*k] = Value::Int(*v);
            }
        }
        Ok(())
    }

    /// Per clue, a literal that makes the instances of its cell hold: the
    /// dependent constraints, which read one clue cell per instance
    /// (`cells`: per constraint, the clue array and the loop variables that
    /// index it), unrolled once with every clue, each instance put under
    /// the selector of the clue in its cell. An instance of a cell with no
    /// clue holds trivially, as `reads` found with every clue blank.
    fn clue_selectors(&mut self, cells: &[(usize, Vec<String>)]) -> Result<Vec<Lit>, Error> {
        self.write_clues(&vec![true; self.clues.len()])?;
        let Some(design) = self.written.design.as_ref() else { return Ok(Vec::new()) };
        let slot: HashMap<(usize, usize), usize> = self
            .clues
            .iter()
            .enumerate()
            .flat_map(|(j, cells)| cells.iter().map(move |&(a, k, _)| ((a, k), j)))
            .collect();
        let mut parts: Vec<Vec<BExpr>> = vec![Vec::new(); self.clues.len()];
        for (&k, (a, by)) in self.dependent.iter().zip(cells) {
            let index = &design.clues[*a].index;
            let instances = unroll_instances(&self.written, k)
                .map_err(|why| Error::BadRequest(format!("the puzzle with every drawn clue does not load: {why}")))?;
            for (bindings, expr) in instances {
                if expr.as_const() == Some(true) {
                    continue;
                }
                let at: Option<Vec<i64>> = by
                    .iter()
                    .map(|name| {
                        let (_, shown) = bindings.iter().find(|(n, _)| n == name)?;
                        shown_value(shown, &self.written.enums)
                    })
                    .collect();
                match at.and_then(|at| flat_position(index, &at)).and_then(|p| slot.get(&(*a, p))) {
                    Some(&j) => parts[j].push(expr),
                    None => {
                        return Err(Error::Internal(format!(
                            "an instance of \"{}\" with no clue in its cell does not hold trivially",
                            self.written.constraints[k].name
                        )));
                    }
                }
            }
        }
        self.instance.extend(|enc| {
            parts.into_iter().map(|exprs| enc.selector(&BExpr::and(exprs))).collect::<Result<Vec<_>, _>>()
        })
    }

    /// The literals to assume for the clues of `kept`: per clue, or the
    /// selectors of the instances of the dependent constraints as
    /// `written` states them, each instance encoded the first time it is
    /// met.
    fn selectors(&mut self, kept: &[bool]) -> Result<Vec<Lit>, Error> {
        if let Some(per_clue) = &self.per_clue {
            return Ok(per_clue.iter().zip(kept).filter(|(_, keep)| **keep).map(|(&l, _)| l).collect());
        }
        let instances = unroll(&self.written, self.dependent)
            .map_err(|why| Error::BadRequest(format!("a puzzle with some of the drawn clues does not load: {why}")))?;
        let mut conjuncts = Vec::new();
        for instance in instances {
            match instance {
                BExpr::And(items) => conjuncts.extend(items),
                other => conjuncts.push(other),
            }
        }
        let mut lits = Vec::with_capacity(conjuncts.len());
        for conjunct in conjuncts {
            if conjunct.as_const() == Some(true) {
                continue;
            }
            let lit = match self.selectors.get(&conjunct) {
                Some(&lit) => lit,
                None => {
                    let lit = self.instance.extend(|enc| enc.selector(&conjunct))?;
                    self.selectors.insert(conjunct, lit);
                    lit
                }
            };
            lits.push(lit);
        }
        Ok(lits)
    }

    /// One call under `selectors` and `extra`, every model checked by the
    /// verifier of the written puzzle. A model found is kept in `first`
    /// when there is no `extra`.
    fn call(&mut self, selectors: &[Lit], extra: Option<Lit>) -> Result<Answer, Error> {
        let mut assumptions = selectors.to_vec();
        assumptions.extend(extra);
        let verifier = Verifier::new(&self.written);
        let Instance { solver, reader, .. } = &mut self.instance;
        let mut last = None;
        let check = |value: &dyn Fn(Lit) -> bool| {
            last = Some(reader.solution(&verifier, value)?);
            Ok(())
        };
        let answer = Checked::new(&mut **solver, check).solve_under(&assumptions)?;
        if let Some(found) = last.filter(|_| answer == Answer::Sat && extra.is_none()) {
            self.first = found;
        }
        Ok(answer)
    }

    /// "Several" once a solution other than the one the last call found is
    /// checked as a solution of the puzzle the last call wrote: the anchor
    /// (checked before the call), or else the first solution.
    fn several(&self) -> Result<Verdict, Error> {
        if self.anchor.is_none() {
            let (values, routes) = &self.first;
            Verifier::new(&self.written).check(values, routes).map_err(|e| {
                Error::CheckFailed(format!(
                    "the first solution of a draft is not one of a puzzle with fewer clues: {e}"
                ))
            })?;
        }
        Ok(Verdict::Several)
    }

    /// Blocks the last model on the projection under a fresh activation
    /// literal, which it returns.
    fn block_last(&mut self) -> Lit {
        let solver = &mut self.instance.solver;
        let activation = solver.new_var().pos();
        let mut clause: Vec<Lit> = self
            .projection
            .iter()
            .filter_map(|&l| match solver.value(l) {
                true => Some(!l),
                false if !self.one_hot => Some(l),
                false => None,
            })
            .collect();
        clause.push(!activation);
        crate::cnf::card::linked_clause(&mut **solver, &clause, 48);
        activation
    }
}

impl ClueSolver for CspClueSolver<'_> {
    fn verdict(&mut self, kept: &[bool]) -> Result<Verdict, Error> {
        self.write_clues(kept)?;
        if let Some((values, routes)) = &self.anchor
            && Verifier::new(&self.written).check(values, routes).is_err()
        {
            return Ok(Verdict::None);
        }
        let selectors = self.selectors(kept)?;
        if let Some((activation, first)) = &self.blocked {
            if kept.iter().zip(first).all(|(&k, &f)| f || !k) {
                let activation = *activation;
                return match self.call(&selectors, Some(activation))? {
                    Answer::Sat => self.several(),
                    Answer::Unsat => Ok(Verdict::Unique),
                };
            }
            self.instance.solver.add_clause(&[!*activation]);
            self.blocked = None;
        }
        if self.call(&selectors, None)? == Answer::Unsat {
            return Ok(Verdict::None);
        }
        let activation = self.block_last();
        self.blocked = Some((activation, kept.to_vec()));
        match self.call(&selectors, Some(activation))? {
            Answer::Sat => self.several(),
            Answer::Unsat => Ok(Verdict::Unique),
        }
    }

    fn stats(&self) -> SolveStats {
        self.instance.solver.stats()
    }
}

//! `count` on a csp model by enumeration: a walk by unit propagation over
//! a large projection, then the CDCL solver's enumeration over a list of
//! parts (cubes of assumptions). Every solution counted passes the
//! independent verifier.

use std::cell::RefCell;
use std::rc::Rc;

use super::{CspPuzzle, Engine};
use crate::cnf::{Cnf, Lit};
use crate::compile::repair::RepairLog;
use crate::compile::{Compiled, Encoder, GridEncoding, ObjectiveUse};
use crate::lang::model::Model;
use crate::lang::verify::{self, IncrementalCheck};
use crate::puzzles::{CountOptions, CountReport, Error};
use crate::solver::{Checked, ProjectedModels, Solve, SolverError, Walk, WalkStep};

/// A count that passes this many solutions starts again split into cubes:
/// measured on the queens, a restart this early pays for itself (8 queens
/// lose about 10%, 10 queens gain about 20%).
const CUBE_AFTER: u64 = 16;

/// The most values of the variable whose values split a count into cubes.
const CUBE_VALUES: u64 = 64;

/// From this many projected literals a count starts with a [`Walk`]:
/// measured on `sum(a) = 1`, each of varisat's models costs about a
/// microsecond per variable, which only a large projection makes the
/// larger part of a count.
const WALK_FROM: usize = 2_000;

/// The conflicts a count's walk may meet before it hands the rest of the
/// search to the CDCL solver.
const WALK_CONFLICTS: u64 = 2_000;

/// How the enumeration of a list of parts ended.
enum PartsEnd {
    /// Every part's models were counted.
    Counted,
    /// The options' limit was reached.
    Limit,
    /// The count passed the restart point.
    Restart,
}

/// What the enumeration counts models of.
struct Enumeration<'a> {
    projection: &'a [Lit],
    /// Whether blocking a model on its true literals suffices.
    one_hot: bool,
    cnf: &'a Cnf,
}

impl Enumeration<'_> {
    /// Counts into `count` the models of each part in turn, up to the
    /// options' limit, and up to `restart_at` when given.
    fn count_parts(
        &self,
        solver: &mut dyn Solve,
        parts: &[Vec<Lit>],
        options: &CountOptions,
        count: &mut u64,
        restart_at: Option<u64>,
    ) -> Result<PartsEnd, Error> {
        for part in parts {
            let mut models = ProjectedModels::new(&mut *solver, self.projection.to_vec(), part).shortened_by(self.cnf);
            if self.one_hot {
                models = models.block_on_true_literals();
            }
            loop {
                if options.limit.is_some_and(|limit| *count >= limit) {
                    return Ok(PartsEnd::Limit);
                }
                if restart_at.is_some_and(|at| *count >= at) {
                    return Ok(PartsEnd::Restart);
                }
                let Some(model) = models.next() else { break };
                model?;
                *count += 1;
                options.progress.set_solutions(*count);
            }
        }
        Ok(PartsEnd::Counted)
    }
}

/// Counts the models of `cnf` by a walk into `count` up to the options'
/// limit: `None` when the walk finished or reached the limit, or the cubes
/// it left for the CDCL solver. Each model is decoded again only in the
/// scalars whose literals the walk changed, and checked by an
/// [`IncrementalCheck`], which accepts what the full verifier accepts.
fn walk_count(
    cnf: &Cnf,
    projection: &[Lit],
    (model, encoder, verifier): (&Model, &Encoder, &verify::Verifier<'_>),
    options: &CountOptions,
    count: &mut u64,
) -> Result<Option<Vec<Vec<Lit>>>, Error> {
    let mut walk = Walk::new(cnf, projection, WALK_CONFLICTS);
    let mut readers: Vec<Vec<usize>> = vec![Vec::new(); cnf.num_vars()];
    for (var, s) in encoder.decoding_vars(model) {
        if let Some(scalars) = readers.get_mut(var.index()) {
            scalars.push(s);
        }
    }
    let mut check: Option<IncrementalCheck<'_, '_>> = None;
    let mut seen = vec![0u64; model.num_scalars()];
    let mut changes: Vec<(usize, i64)> = Vec::new();
    loop {
        if options.limit.is_some_and(|limit| *count >= limit) {
            return Ok(None);
        }
        options.solver.stop.check().map_err(Error::Stopped)?;
        match walk.step() {
            WalkStep::Model => {
                let value = |lit| walk.value(lit);
                let verdict = match &mut check {
                    None => {
                        let values = encoder.decode(model, &value).map_err(SolverError::ModelRejected)?;
                        let (started, verdict) = IncrementalCheck::new(verifier, values);
                        check = Some(started);
                        verdict
                    }
                    Some(check) => {
                        changes.clear();
                        for var in walk.changed() {
                            for &s in readers.get(var.index()).map_or(&[][..], Vec::as_slice) {
                                if std::mem::replace(&mut seen[s], *count + 1) != *count + 1 {
                                    let v =
                                        encoder.decode_scalar(model, s, &value).map_err(SolverError::ModelRejected)?;
                                    changes.push((s, v));
                                }
                            }
                        }
                        check.update(&changes)
                    }
                };
                verdict.map_err(SolverError::ModelRejected)?;
                *count += 1;
                options.progress.set_solutions(*count);
            }
            WalkStep::Done => return Ok(None),
            WalkStep::GaveUp(cubes) => return Ok(Some(cubes)),
        }
    }
}

impl CspPuzzle {
    /// `count` by enumeration: first, over a large projection of a model
    /// whose whole formula is the CNF, a walk; then the CDCL enumeration,
    /// of the walk's cubes, or plainly and, past [`CUBE_AFTER`] solutions,
    /// again split by the values of one shown scalar.
    pub(super) fn count_by_enumeration(&self, options: &CountOptions) -> Result<CountReport, Error> {
        let verifier = verify::Verifier::new(&self.model);
        let engine = Engine::choose(options.engine.as_deref())?;
        let (mut compiled, encode_ms) = self.compiled(engine, ObjectiveUse::Optimize)?;
        let grids: Rc<[GridEncoding]> = std::mem::take(&mut compiled.grids).into();
        let log = Rc::new(RefCell::new(RepairLog::default()));
        // No splicing: a spliced route takes other arcs than the model, and
        // solutions are told apart by their routes.
        let mut solver = self.driver(&grids, options.new_solver(&compiled.cnf), Vec::new(), false, &log);
        let mut count = 0u64;
        let mut complete = true;
        // Without an objective the enumeration itself finds the first solution.
        let optimum = match self.program.objective {
            None => Some(None),
            Some(_) => self.search(&verifier, &mut compiled, &mut *solver, &log)?.map(|(_, optimum, _)| optimum),
        };
        if let Some(optimum) = optimum {
            let assumptions = self.at_optimum(&mut compiled, &mut *solver, optimum)?;
            let (projection, one_hot) = self.solution_projection(&compiled.encoder, &grids);
            // A walk first over a large projection, where each CDCL model
            // would cost a decision per variable; it needs the whole formula
            // in the CNF, so no grid's cuts and no objective's bound.
            let walkable = grids.is_empty()
                && self.program.objective.is_none()
                && assumptions.is_empty()
                && projection.len() >= WALK_FROM;
            let plain = [assumptions.clone()];
            let runs: Vec<Vec<Vec<Lit>>> = if walkable {
                let parts = (&self.model, &compiled.encoder, &verifier);
                match walk_count(&compiled.cnf, &projection, parts, options, &mut count)? {
                    Some(cubes) => vec![cubes],
                    None => Vec::new(),
                }
            } else {
                let cubes = self.value_cubes(&mut compiled, &mut *solver, &assumptions)?;
                if cubes.is_empty() { vec![plain.to_vec()] } else { vec![plain.to_vec(), cubes] }
            };
            if walkable && runs.is_empty() {
                complete = options.limit.is_none_or(|limit| count < limit);
            }
            let (encoder, objective) = (&compiled.encoder, compiled.objective.as_ref());
            let check = |value: &dyn Fn(Lit) -> bool| {
                let (_, found) = self.check_model(&verifier, encoder, objective, value, &log.borrow().routes)?;
                if found != optimum {
                    return Err(format!("a counted solution has the objective {found:?}, not the optimum {optimum:?}"));
                }
                Ok(())
            };
            let mut checked = Checked::new(&mut *solver, check);
            let enumeration = Enumeration { projection: &projection, one_hot, cnf: &compiled.cnf };
            let walked = count;
            for (run, parts) in runs.iter().enumerate() {
                count = walked;
                let restart_at = (run + 1 < runs.len()).then_some(CUBE_AFTER);
                match enumeration.count_parts(&mut checked, parts, options, &mut count, restart_at)? {
                    PartsEnd::Counted => break,
                    PartsEnd::Limit => {
                        complete = false;
                        break;
                    }
                    PartsEnd::Restart => {}
                }
            }
        }
        let cuts = log.borrow().cuts.len();
        let stats = Self::run_stats(engine, &compiled.cnf, cuts, &*solver, encode_ms);
        Ok(CountReport { count, complete, saturated: false, stats, stopped: None })
    }

    /// Cubes: one per value of the shown scalar with the most values (up
    /// to [`CUBE_VALUES`]), each under `assumptions`, so that each
    /// enumeration's blocking clauses stay few; they are retired when its
    /// cube is done. None when no shown scalar fits.
    fn value_cubes(
        &self,
        compiled: &mut Compiled,
        solver: &mut dyn Solve,
        assumptions: &[Lit],
    ) -> Result<Vec<Vec<Lit>>, Error> {
        let splitter = self
            .shown_scalars()
            .into_iter()
            .filter_map(|s| compiled.encoder.scalar_int(s))
            .filter(|&x| (2..=CUBE_VALUES).contains(&compiled.encoder.domain(x).len()))
            .max_by_key(|&x| compiled.encoder.domain(x).len());
        let mut cubes = Vec::new();
        if let Some(x) = splitter {
            let values: Vec<i64> = compiled.encoder.domain(x).values().collect();
            for v in values {
                let lit = compiled.encoder.extend(solver, |enc| enc.eq_lit(x, v))?;
                cubes.push([assumptions, &[lit]].concat());
            }
        }
        Ok(cubes)
    }
}

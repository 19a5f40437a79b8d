//! `count` on a csp model by enumeration: a walk by unit propagation over
//! a large projection, then the CDCL solver's enumeration over a list of
//! parts (cubes of assumptions). Every solution counted passes the
//! independent verifier.

use std::time::{Duration, Instant};

use super::CspPuzzle;
use super::instance::{CspEngine, Holder, Instance, Setup};
use crate::cnf::{Cnf, Lit};
use crate::compile::Encoder;
use crate::lang::model::Model;
use crate::lang::verify::{self, IncrementalCheck};
use crate::puzzles::{CountOptions, CountReport, Error, Stats};
use crate::solver::{Checked, ProjectedModels, Solve, SolverError, Walk, WalkStep, count_projected};

/// A count that passes this many solutions starts again split into cubes:
/// measured on the queens, a restart this early pays for itself (8 queens
/// lose about 10%, 10 queens gain about 20%).
const CUBE_AFTER: u64 = 16;

/// The most values of the variable whose values split a count into cubes.
const CUBE_VALUES: u64 = 64;

/// From this many projected literals a count starts with a [`Walk`]:
/// measured on `sum(a) = 1`, each of varisat's models costs about a
/// microsecond per variable, which only a large projection makes the
/// larger part of a count. Below it the walk starts once the CDCL
/// enumeration passes [`CUBE_AFTER`] solutions.
const WALK_FROM: usize = 2_000;

/// The conflicts a count's walk may meet before it hands the rest of the
/// search to the CDCL solver, to begin with.
const WALK_CONFLICTS: u64 = 2_000;

/// The conflicts each model found adds to the walk's budget. A walk keeps
/// its place between models, where each CDCL model is a search from the
/// root; measured on the 4×4 magic squares, the walk meets about 80
/// conflicts per model and still beats the CDCL enumeration, whose models
/// cost about 10 ms each. A formula that has many models for few conflicts
/// (12 queens: 111,076 conflicts for 14,200) is walked to the end.
const WALK_CONFLICTS_PER_MODEL: u64 = 200;

/// How the enumeration of a list of parts ended.
enum PartsEnd {
    /// Every part's models were counted.
    Counted,
    /// The options' limit was reached.
    Limit,
    /// The count passed the restart point.
    Restart,
}

/// The model, its encoder and its verifier, which decode and check a
/// walk's models.
type Reading<'a> = (&'a Model, &'a Encoder, &'a verify::Verifier<'a>);

/// What the enumeration counts models of.
struct Enumeration<'a> {
    projection: &'a [Lit],
    /// Whether blocking a model on its true literals suffices.
    one_hot: bool,
    cnf: &'a Cnf,
    /// When the CNF is the whole formula (no grid's cuts, no objective's
    /// bound, no assumptions): what a [`Walk`] over it reads models with.
    walk: Option<Reading<'a>>,
    /// How many literals of the projection each shown scalar has, in order.
    groups: Vec<usize>,
}

impl Enumeration<'_> {
    /// Counts into `count` the models of `runs`, each a list of parts
    /// counted from zero, every run but the last up to [`CUBE_AFTER`]
    /// solutions; with a walk, every run up to [`CUBE_AFTER`], then the
    /// walk from zero, then the CDCL enumeration of the cubes it leaves.
    /// Returns whether the count is complete (no limit reached), and the
    /// time the walk took, which no SAT call's time holds.
    fn count_runs(
        &self,
        solver: &mut dyn Solve,
        runs: &[Vec<Vec<Lit>>],
        options: &CountOptions,
        count: &mut u64,
    ) -> Result<(bool, Duration), Error> {
        for (run, parts) in runs.iter().enumerate() {
            *count = 0;
            let restart_at = (self.walk.is_some() || run + 1 < runs.len()).then_some(CUBE_AFTER);
            match self.count_parts(solver, parts, options, count, restart_at)? {
                PartsEnd::Counted => return Ok((true, Duration::ZERO)),
                PartsEnd::Limit => return Ok((false, Duration::ZERO)),
                PartsEnd::Restart => {}
            }
        }
        let Some(reading) = self.walk else { return Ok((true, Duration::ZERO)) };
        *count = 0;
        let walking = Instant::now();
        let cubes = walk_count(self.cnf, self.projection, reading, &self.groups, options, count)?;
        let walked = walking.elapsed();
        let complete = match cubes {
            None => options.limit.is_none_or(|limit| *count < limit),
            Some(cubes) => !matches!(self.count_parts(solver, &cubes, options, count, None)?, PartsEnd::Limit),
        };
        Ok((complete, walked))
    }

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
    (model, encoder, verifier): Reading<'_>,
    groups: &[usize],
    options: &CountOptions,
    count: &mut u64,
) -> Result<Option<Vec<Vec<Lit>>>, Error> {
    let mut walk = Walk::new(cnf, projection, WALK_CONFLICTS);
    // Choosing the scalar to decide scans the projection at each decision,
    // which a large projection cannot afford.
    if projection.len() < WALK_FROM {
        walk = walk.deciding_by_groups(groups, projection);
    }
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
                walk.extend_budget(WALK_CONFLICTS_PER_MODEL);
            }
            WalkStep::Done => return Ok(None),
            WalkStep::GaveUp(cubes) => return Ok(Some(cubes)),
        }
    }
}

impl CspPuzzle {
    /// `count` by enumeration: the CDCL enumeration, plainly and, past
    /// [`CUBE_AFTER`] solutions, again split by the values of one shown
    /// scalar; or, on a model whose whole formula is the CNF, a walk, at
    /// once over a large projection and otherwise past [`CUBE_AFTER`]
    /// solutions, and the CDCL enumeration of the cubes it leaves.
    pub(super) fn count_by_enumeration(&self, options: &CountOptions) -> Result<CountReport, Error> {
        let engine = super::sat_engine(options.engine.as_deref())?;
        // No splicing: a spliced route takes other arcs than the model, and
        // solutions are told apart by their routes.
        let mut instance = self.prepare(Setup::counting(engine), |cnf| options.new_solver(cnf))?;
        let mut count = 0u64;
        let (mut complete, mut walked) = (true, Duration::ZERO);
        // Without an objective the enumeration itself finds the first solution.
        let optimum = match self.program.objective {
            None => Some(None),
            Some(_) => instance.search()?.map(|(_, optimum, _)| optimum),
        };
        if let Some(optimum) = optimum {
            (complete, walked) = self.enumerate(&mut instance, optimum, options, &mut count)?;
        }
        let mut stats = instance.stats();
        stats.solve_ms += Stats::ms(walked);
        Ok(CountReport { count, complete, saturated: false, stats, stopped: None })
    }

    /// Counts into `count` the solutions of `instance` whose objective is
    /// `optimum`, each checked: see [`CspPuzzle::count_by_enumeration`].
    /// Returns whether the count is complete, and the time a walk took.
    fn enumerate(
        &self,
        instance: &mut Instance<'_>,
        optimum: Option<i64>,
        options: &CountOptions,
        count: &mut u64,
    ) -> Result<(bool, Duration), Error> {
        let assumptions = instance.at_optimum(optimum)?;
        let (projection, one_hot) = instance.reader.projection();
        // A walk needs the whole formula in the CNF, so no grid's cuts
        // and no objective's bound. It starts at once over a large
        // projection, where each CDCL model would cost a decision per
        // variable, and otherwise once the formula shows many models.
        let walkable = !instance.reader.has_grids() && self.program.objective.is_none() && assumptions.is_empty();
        let plain = vec![assumptions.clone()];
        let runs: Vec<Vec<Vec<Lit>>> = match walkable {
            true if projection.len() >= WALK_FROM => Vec::new(),
            true => vec![plain],
            false => {
                let cubes = self.value_cubes(instance, &assumptions)?;
                if cubes.is_empty() { vec![plain] } else { vec![plain, cubes] }
            }
        };
        let Instance { solver, reader, .. } = instance;
        let check = |value: &dyn Fn(Lit) -> bool| {
            let (_, found) = reader.check(value)?;
            if found != optimum {
                return Err(format!("a counted solution has the objective {found:?}, not the optimum {optimum:?}"));
            }
            Ok(())
        };
        let mut checked = Checked::new(&mut **solver, check);
        let encoder = &reader.compiled.encoder;
        let walk = walkable.then_some((&self.model, encoder, &reader.verifier));
        let groups = self.shown_scalars().iter().map(|&s| encoder.projection(&[s]).0.len()).collect();
        let enumeration = Enumeration { projection: &projection, one_hot, cnf: &reader.compiled.cnf, walk, groups };
        enumeration.count_runs(&mut checked, &runs, options, count)
    }

    /// `count --method exact`: the formula, with what the search for an
    /// optimum added, counted by [`count_projected`] onto the variables of
    /// the shown scalars, under the optimum when there is an objective.
    /// These are the literals the enumeration blocks on, so both count the
    /// same solutions. A grid global is cut lazily between SAT calls: its
    /// formula alone allows more than the solutions, so it is refused.
    pub(super) fn count_exact(&self, options: &CountOptions) -> Result<CountReport, Error> {
        if let Some(grid) = self.program.grids.first() {
            return Err(Error::BadRequest(format!(
                "count --method exact cannot count this model: its {} constraint is cut lazily between SAT calls, \
                 so its formula alone allows more than the solutions; expected --method enumerate",
                grid.name()
            )));
        }
        let engine = super::sat_engine(options.engine.as_deref())?;
        let setup = Setup { holder: Holder::Recorded, ..Setup::solving(engine) };
        let mut instance = self.prepare(setup, |cnf| options.new_solver(cnf))?;
        let optimum = match self.program.objective {
            None => Some(None),
            Some(_) => instance.search()?.map(|(_, optimum, _)| optimum),
        };
        let mut count = 0u128;
        let counting = Instant::now();
        if let Some(optimum) = optimum {
            let record =
                instance.record().ok_or_else(|| Error::Internal("a recorded count without its record".into()))?;
            let assumptions = instance.at_optimum(optimum)?;
            let (vars, _) = instance.encoder().projection(&self.shown_scalars());
            let stop = &options.solver.stop;
            count = count_projected(record.borrow().cnf(), &vars, &assumptions, stop).map_err(Error::Stopped)?;
        }
        let mut stats = instance.stats();
        stats.solve_ms += Stats::ms(counting.elapsed());
        Ok(CountReport::exact(count, options, stats))
    }

    /// Cubes: one per value of the shown scalar with the most values (up
    /// to [`CUBE_VALUES`]), each under `assumptions`, so that each
    /// enumeration's blocking clauses stay few; they are retired when its
    /// cube is done. None when no shown scalar fits.
    fn value_cubes(&self, instance: &mut Instance<'_>, assumptions: &[Lit]) -> Result<Vec<Vec<Lit>>, Error> {
        let encoder = instance.encoder();
        let splitter = self
            .shown_scalars()
            .into_iter()
            .filter_map(|s| encoder.scalar_int(s))
            .filter(|&x| (2..=CUBE_VALUES).contains(&encoder.domain(x).len()))
            .max_by_key(|&x| encoder.domain(x).len());
        let mut cubes = Vec::new();
        if let Some(x) = splitter {
            let values: Vec<i64> = encoder.domain(x).values().collect();
            for v in values {
                let lit = instance.extend(|enc| enc.eq_lit(x, v))?;
                cubes.push([assumptions, &[lit]].concat());
            }
        }
        Ok(cubes)
    }
}

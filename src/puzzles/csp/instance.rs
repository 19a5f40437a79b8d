//! One csp model prepared for the SAT engine: compiled by one encoding,
//! loaded into a solver (behind the lazy driver of its grid globals, when
//! it has any), with the verifier that checks every model the solver finds.
//! Every csp command starts from an [`Instance`], built in one place
//! ([`CspPuzzle::prepare`]), so the chain compile → grids → repair log →
//! driver → search → check is written once.
//!
//! An instance is two parts, so that a command can hand the solver to
//! something that drives it (a [`crate::solver::Checked`] enumeration, a
//! [`Deductions`]) while the checks read the models it finds:
//! - [`Instance::solver`] searches;
//! - [`Instance::reader`] decodes a model into the model's values and
//!   checks them with the verifier, reading the routes the repair step
//!   accepted from the repair log that it shares with the driver.
//!
//! The seam for another engine is [`CspEngine`]: it speaks of values only
//! (a checked solution, optimal when there is an objective; the run's
//! figures; the formula for a proof), and `solve` reaches the instance
//! through it. A CP solver over the same [`crate::lang::Program`], its
//! answers checked by the same verifier, would implement it. The methods
//! that speak in literals (`at_optimum`, `projection`, `extend`,
//! `into_deductions`) are the SAT engine's own: counting by blocking
//! clauses, facts, explanations and hints stay with it.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

use super::clue_solver::Anchor;
use super::{CspPuzzle, Engine};
use crate::cnf::{Cnf, Lit};
use crate::compile::repair::{GridRepair, RepairLog, Route};
use crate::compile::{CompileError, Compiled, Encoder, GridEncoding, Objective, ObjectiveUse};
use crate::deduce::{self, Deductions, ModelCheck};
use crate::lang::model::Sense;
use crate::lang::verify::Verifier;
use crate::puzzles::{Error, SolveOptions, Stats};
use crate::solver::{Answer, Lazy, Recorded, Solve};

/// The checked values of every scalar, the objective's value, and each grid
/// global's route.
pub(super) type Found = (Vec<i64>, Option<i64>, Vec<Option<Route>>);

/// A record of every clause a solver is given, shared with the solver.
pub(super) type Record = Rc<RefCell<Recorded>>;

/// The reaches, in bits around zero, that a first solve tries in turn
/// before the whole domains ([`Instance::solve_small_values_first`]).
const PROBE_BITS: [u32; 3] = [4, 8, 16];

/// The best solution an optimisation has found so far.
struct Best {
    values: Vec<i64>,
    routes: Vec<Option<Route>>,
    /// The objective's value.
    value: i64,
}

/// What a csp command needs of whatever solves a prepared model, in the
/// model's values: the SAT [`Instance`], or another engine (a CP solver
/// over the same program) that would take its place.
pub(super) trait CspEngine {
    /// A solution, optimal when the model has an objective, checked by the
    /// independent verifier; `None` when the model has none.
    fn search(&mut self) -> Result<Option<Found>, Error>;

    /// The formula the report carries, and the proof of a refutation
    /// (`refuted`), as `options` ask for them.
    fn settle(&self, options: &SolveOptions, refuted: bool) -> Result<Option<Cnf>, Error>;

    /// The run's figures so far.
    fn stats(&self) -> Stats;
}

/// What the solver under an [`Instance`] holds the compiled formula in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Holder {
    /// The backend's solver alone.
    Plain,
    /// The backend's solver behind a record of every clause it is given
    /// ([`Instance::record`]): the formula with what the search added.
    Recorded,
    /// Each constraint group behind a selector ([`Instance::selectors`]),
    /// recorded as [`Holder::Recorded`] is, for proofs; a grid global's cuts
    /// hold only while its constraint's selector does.
    Switchable,
}

/// How to prepare an [`Instance`].
#[derive(Copy, Clone, Debug)]
pub(super) struct Setup {
    /// The integer encoding.
    pub engine: Engine,
    /// Whether the objective is optimised or is one more group.
    pub objective: ObjectiveUse,
    /// Whether the repair step merges detached cycles where they fit rather
    /// than cut them: right for solve, facts and explain, wrong wherever
    /// solutions are told apart by their routes (counting, clue checks).
    pub splice: bool,
    pub holder: Holder,
}

impl Setup {
    /// A solve's setup: optimised, spliced, on a plain solver.
    pub fn solving(engine: Engine) -> Setup {
        Setup { engine, objective: ObjectiveUse::Optimize, splice: true, holder: Holder::Plain }
    }

    /// A count's setup: optimised, not spliced, on a plain solver.
    pub fn counting(engine: Engine) -> Setup {
        Setup { splice: false, ..Setup::solving(engine) }
    }
}

/// A csp model compiled and loaded into a solver: see the module
/// documentation.
pub(super) struct Instance<'p> {
    /// The compiled formula, behind the lazy driver of the grid globals
    /// when the model has any.
    pub solver: Box<dyn Solve + 'p>,
    /// What reads and checks the solver's models.
    pub reader: Reader<'p>,
    engine: Engine,
    encode_ms: f64,
    /// When compiling ended.
    compiled_at: Instant,
    /// With [`Holder::Recorded`] and [`Holder::Switchable`], every clause the
    /// solver was given, cuts included.
    record: Option<Record>,
    /// With [`Holder::Switchable`], per group of the formula after the first,
    /// the literal under which it holds.
    selectors: Vec<Lit>,
}

/// Decodes the models of an [`Instance`]'s solver and checks them.
pub(super) struct Reader<'p> {
    puzzle: &'p CspPuzzle,
    /// The independent check of the whole model.
    pub verifier: Verifier<'p>,
    /// The formula and its encoder (the grids taken out, into `grids`).
    pub compiled: Compiled,
    grids: Rc<[GridEncoding]>,
    /// Written by the driver's repair step, read by the checks.
    log: Rc<RefCell<RepairLog>>,
}

impl CspPuzzle {
    /// This model compiled as `setup` says, in a solver that `new_solver`
    /// makes for the compiled formula (or, with [`Holder::Switchable`], for
    /// its guarded form), behind the lazy driver of the grid globals when
    /// the model has any. The driver's repair step writes the routes it
    /// accepts and the cuts it makes into the log that the reader reads.
    pub(super) fn prepare<'p>(
        &'p self,
        setup: Setup,
        new_solver: impl FnOnce(&Cnf) -> Box<dyn Solve>,
    ) -> Result<Instance<'p>, Error> {
        let (mut compiled, encode_ms) = self.compiled(setup.engine, setup.objective)?;
        let compiled_at = Instant::now();
        let grids: Rc<[GridEncoding]> = std::mem::take(&mut compiled.grids).into();
        let log = Rc::new(RefCell::new(RepairLog::default()));
        let (plain, record, selectors) = hold(setup.holder, &compiled.cnf, new_solver);
        let solver: Box<dyn Solve + 'p> = if grids.is_empty() {
            plain
        } else {
            // A switchable global's cuts hold only while its constraint is selected.
            let switchable = setup.holder == Holder::Switchable;
            let guards = self.program.grids.iter().map(|g| switchable.then(|| selectors[g.group])).collect();
            let specs = &self.program.grids;
            let repair = GridRepair::new(specs, Rc::clone(&grids), guards, setup.splice, Rc::clone(&log));
            Box::new(Lazy::new(plain, repair))
        };
        let reader = Reader { puzzle: self, verifier: Verifier::new(&self.model), compiled, grids, log };
        Ok(Instance { solver, reader, engine: setup.engine, encode_ms, compiled_at, record, selectors })
    }
}

/// The solver `new_solver` makes, holding `cnf` as `holder` says; the
/// record of what it is given, and the groups' selectors, when it has them.
fn hold(
    holder: Holder,
    cnf: &Cnf,
    new_solver: impl FnOnce(&Cnf) -> Box<dyn Solve>,
) -> (Box<dyn Solve>, Option<Record>, Vec<Lit>) {
    match holder {
        Holder::Plain => (new_solver(cnf), None, Vec::new()),
        Holder::Recorded => {
            let plain = new_solver(cnf);
            let (recorded, record) = Recorded::from_parts(cnf.clone(), plain).shared();
            (Box::new(recorded), Some(record), Vec::new())
        }
        Holder::Switchable => {
            // The first group only defines literals; the others are the model's.
            let soft: Vec<_> = cnf.opened_groups().collect();
            let (guarded, selectors) = deduce::switchable(cnf, &soft);
            let plain = new_solver(&guarded);
            let (recorded, record) = Recorded::from_parts(guarded, plain).shared();
            (Box::new(recorded), Some(record), selectors)
        }
    }
}

impl<'p> Instance<'p> {
    /// The encoder, for the literals of values.
    pub fn encoder(&self) -> &Encoder {
        &self.reader.compiled.encoder
    }

    /// Runs `f` to define more literals on the encoder, and gives them to
    /// the solver.
    pub fn extend<T>(&mut self, f: impl FnOnce(&mut Encoder) -> Result<T, CompileError>) -> Result<T, Error> {
        Ok(self.reader.compiled.encoder.extend(&mut *self.solver, f)?)
    }

    /// The size of the compiled formula, `(variables, clauses)`, before
    /// selectors and cuts.
    pub fn size(&self) -> (usize, usize) {
        (self.reader.compiled.cnf.num_vars(), self.reader.compiled.cnf.num_clauses())
    }

    /// The time compiling took, in milliseconds, and when it ended.
    pub fn encoded(&self) -> (f64, Instant) {
        (self.encode_ms, self.compiled_at)
    }

    /// The record of every clause the solver was given (with
    /// [`Holder::Recorded`] and [`Holder::Switchable`]).
    pub fn record(&self) -> Option<Record> {
        self.record.clone()
    }

    /// The selector of each group after the first (with [`Holder::Switchable`]).
    pub fn selectors(&self) -> &[Lit] {
        &self.selectors
    }

    /// The last model's values and routes, checked against the model (its
    /// objective left aside).
    pub fn solution(&self) -> Result<Anchor, Error> {
        let solver = &self.solver;
        self.reader.solution(&self.reader.verifier, &|l| solver.value(l)).map_err(Error::CheckFailed)
    }

    /// The last model, checked, with its objective's value.
    fn found(&self) -> Result<Found, Error> {
        let solver = &self.solver;
        let routes = self.reader.routes();
        let (values, best) = self.reader.check(&|l| solver.value(l)).map_err(Error::CheckFailed)?;
        Ok((values, best, routes))
    }

    /// One solve, trying first with every wide variable near zero (within
    /// 2^4, then 2^8, …), then without: wide arithmetic spelt in bits
    /// propagates poorly, and a sum of products over -1000..1000 equal to 7
    /// was beyond varisat in minutes while its small solutions were found
    /// at once. Only a model counts from the probes; their "no" says
    /// nothing, so the last call is the plain one.
    fn solve_small_values_first(&mut self) -> Result<Answer, Error> {
        for bits in PROBE_BITS {
            let near_zero = self.extend(|enc| enc.small_values(bits))?;
            if near_zero.is_empty() {
                break;
            }
            if self.solver.solve_under(&near_zero)? == Answer::Sat {
                return Ok(Answer::Sat);
            }
        }
        Ok(self.solver.solve()?)
    }

    /// Finds a solution, optimal when there is an objective: a
    /// solution-improving search, each step one call on the same solver
    /// under an assumption that asks for better than the best so far, until
    /// the bounds meet: the best value, and the best not ruled out (the
    /// relaxation's bound, lowered by each failed call). Halving the gap
    /// from the top instead sent the calls to hard bounds far above the
    /// optimum. Returns the checked values and objective.
    pub fn search(&mut self) -> Result<Option<Found>, Error> {
        if self.solve_small_values_first()? == Answer::Unsat {
            return Ok(None);
        }
        let (values, best, routes) = self.found()?;
        let (Some(z), Some((sense, _))) =
            (self.reader.compiled.objective.clone(), &self.reader.puzzle.program.objective)
        else {
            return Ok(Some((values, best, routes)));
        };
        let Some(value) = best else { return Err(Error::Internal("an objective without a value".into())) };
        let maximize = *sense == Sense::Maximize;
        let (lo, hi) = self.encoder().objective_range(&z);
        let relaxed = self.encoder().objective_relaxation(&z, maximize);
        // The best value not ruled out: the range's end, or the relaxation's
        // bound when tighter. Distances below count towards better values.
        let sign = if maximize { 1 } else { -1 };
        let end = if maximize { hi } else { lo };
        let limit = relaxed.as_ref().map_or(end, |(r, _)| if sign > 0 { (*r).min(hi) } else { (*r).max(lo) });
        if sign * (limit - value) < 0 {
            return Err(Error::Internal(format!("a solution of value {value} beats the relaxation's bound {limit}")));
        }
        let mut best = Best { values, routes, value };
        // First the relaxation's own optimum, which reaches the bound when
        // the other constraints allow it.
        if let Some((_, witness)) = relaxed.filter(|(_, w)| !w.is_empty() && value != limit) {
            let lits =
                self.extend(|enc| witness.iter().map(|&(x, v)| enc.eq_lit(x, v)).collect::<Result<Vec<_>, _>>())?;
            if self.solver.solve_under(&lits)? == Answer::Sat {
                let (v, b, r) = self.found()?;
                let found = b.ok_or_else(|| Error::Internal("an objective without a value".into()))?;
                if sign * (found - value) > 0 {
                    best = Best { values: v, routes: r, value: found };
                }
            }
        }
        let best = self.improve(&z, sign, limit, best)?;
        Ok(Some((best.values, Some(best.value), best.routes)))
    }

    /// Solution-improving steps from `best` that double while they succeed, so that a failing call asks for
    /// little more than the best so far, until the best meets `limit`, the
    /// best not ruled out; `sign` is 1 to maximise, -1 to minimise.
    fn improve(&mut self, z: &Objective, sign: i64, mut limit: i64, best: Best) -> Result<Best, Error> {
        let Best { mut values, mut routes, mut value } = best;
        let mut step = 1i64;
        while sign * (limit - value) > 0 {
            let target = value + sign * step.min(sign * (limit - value));
            let bound = self.extend(|enc| {
                let order = if sign > 0 { std::cmp::Ordering::Greater } else { std::cmp::Ordering::Less };
                enc.objective_bound(z, order, target)
            })?;
            if self.solver.solve_under(&[bound])? == Answer::Unsat {
                limit = target - sign;
                step = 1;
                continue;
            }
            let best;
            (values, best, routes) = self.found()?;
            let found = best.ok_or_else(|| Error::Internal("an objective without a value".into()))?;
            if sign * (found - target) < 0 || sign * (limit - found) < 0 {
                return Err(Error::Internal(format!("a bound asked for {target} within {limit} and got {found}")));
            }
            value = found;
            step = step.saturating_mul(2);
        }
        Ok(Best { values, routes, value })
    }

    /// The assumptions that keep a search among the solutions whose
    /// objective is `optimum` (none without an objective).
    pub fn at_optimum(&mut self, optimum: Option<i64>) -> Result<Vec<Lit>, Error> {
        match (self.reader.compiled.objective.clone(), optimum) {
            (Some(z), Some(v)) => Ok(vec![self.extend(|enc| enc.objective_bound(&z, std::cmp::Ordering::Equal, v))?]),
            _ => Ok(Vec::new()),
        }
    }

    /// The formula that was solved: the compiled one and the cuts the
    /// driver added.
    pub fn solved_formula(&self) -> Cnf {
        let cnf = &self.reader.compiled.cnf;
        cnf.extended("cuts against grid globals in pieces, added between solves", &self.reader.log.borrow().cuts)
    }

    /// The deductions over this instance: its solver, each model checked
    /// by the reader ([`Reader::into_model_check`] says against what).
    pub fn into_deductions(self, optimum: Option<Option<i64>>, at_optimum: Option<(usize, i64)>) -> Deductions<'p> {
        Deductions::new(self.solver, self.reader.into_model_check(optimum, at_optimum))
    }

    /// The deductions over this instance when its search found no
    /// solution: refuted, with nothing to check.
    pub fn into_refuted_deductions(self) -> Deductions<'p> {
        let mut deductions = Deductions::new(self.solver, |_, _| Ok(()));
        deductions.refuted = true;
        deductions
    }
}

impl CspEngine for Instance<'_> {
    fn search(&mut self) -> Result<Option<Found>, Error> {
        Instance::search(self)
    }

    fn settle(&self, options: &SolveOptions, refuted: bool) -> Result<Option<Cnf>, Error> {
        options.settle_formula(refuted, || self.solved_formula())
    }

    fn stats(&self) -> Stats {
        let cnf = &self.reader.compiled.cnf;
        let size = (cnf.num_vars(), cnf.num_clauses() + self.reader.log.borrow().cuts.len());
        Stats::of_sat_size(self.engine.name(), size, self.solver.stats(), self.encode_ms)
    }
}

impl<'p> Reader<'p> {
    /// The route of each grid global in the last model the repair step
    /// accepted.
    fn routes(&self) -> Vec<Option<Route>> {
        self.log.borrow().routes.clone()
    }

    /// Whether the model has grid globals, which the driver cuts lazily.
    pub fn has_grids(&self) -> bool {
        !self.grids.is_empty()
    }

    /// Decodes a model and checks it against the rules; returns the values
    /// of every scalar and the objective's value, if any.
    pub fn check(&self, value: &dyn Fn(Lit) -> bool) -> Result<(Vec<i64>, Option<i64>), String> {
        self.check_model(&self.verifier, self.compiled.objective.as_ref(), value, &self.log.borrow().routes)
    }

    /// Decodes a model and checks it against `verifier`, the objective left
    /// aside; returns the values of every scalar and the routes.
    pub fn solution(&self, verifier: &Verifier<'_>, value: &dyn Fn(Lit) -> bool) -> Result<Anchor, String> {
        let routes = self.routes();
        let (values, _) = self.check_model(verifier, None, value, &routes)?;
        Ok((values, routes))
    }

    fn check_model(
        &self,
        verifier: &Verifier<'_>,
        objective: Option<&Objective>,
        value: &dyn Fn(Lit) -> bool,
        routes: &[Option<Route>],
    ) -> Result<(Vec<i64>, Option<i64>), String> {
        let encoder = &self.compiled.encoder;
        let values = encoder.decode(&self.puzzle.model, value)?;
        verifier.check(&values, routes)?;
        let objective = match objective {
            Some(z) => {
                let encoded = encoder.objective_value(z, value)?;
                let evaluated = verifier.objective(&values)?;
                if encoded != evaluated {
                    return Err(format!(
                        "the encoding gives the objective {encoded}, the model's expression {evaluated}"
                    ));
                }
                Some(evaluated)
            }
            None => None,
        };
        Ok((values, objective))
    }

    /// The literals that tell two solutions apart (the shown values and
    /// each path's or loop's route), and whether blocking a solution on its
    /// true literals alone is enough: with grid globals, each variable that
    /// is not in an exactly-one group comes with both signs.
    pub fn projection(&self) -> (Vec<Lit>, bool) {
        let (vars, one_hot) = self.compiled.encoder.projection(&self.puzzle.shown_scalars());
        let grids = &self.grids;
        let projection: Vec<Lit> = if grids.is_empty() || one_hot {
            vars.iter().map(|v| v.pos()).collect()
        } else {
            vars.iter().flat_map(|v| [v.pos(), v.neg()]).collect()
        };
        let projection: Vec<Lit> =
            projection.into_iter().chain(grids.iter().flat_map(GridEncoding::distinguishing_literals)).collect();
        (projection, one_hot || !grids.is_empty())
    }

    /// The independent check of a model: against the whole model (at the
    /// optimum, when `optimum` is given), or against the groups switched on
    /// (and, with `at_optimum`, the objective's rule at its best value).
    fn into_model_check(self, optimum: Option<Option<i64>>, at_optimum: Option<(usize, i64)>) -> impl ModelCheck + 'p {
        move |value: &dyn Fn(Lit) -> bool, on: Option<&[usize]>| {
            let routes = self.routes();
            let Some(on) = on else {
                let (_, found) = self.check_model(&self.verifier, self.compiled.objective.as_ref(), value, &routes)?;
                return match optimum {
                    Some(optimum) if found != optimum => Err(format!(
                        "a solution behind the facts has the objective {found:?}, not the optimum {optimum:?}"
                    )),
                    _ => Ok(()),
                };
            };
            let program = &self.puzzle.program;
            let values = self.compiled.encoder.decode(&self.puzzle.model, value)?;
            for &g in on {
                let Some(group) = program.groups.get(g) else {
                    let found = self.verifier.objective(&values)?;
                    if let Some((rule, best)) = at_optimum
                        && rule == g
                        && found != best
                    {
                        return Err(format!("the witness has the objective {found}, not its best value {best}"));
                    }
                    continue;
                };
                if let Some(part) = &group.part {
                    // A part is checked by itself: its value counted among its scalars.
                    if part.holds(&values) != Some(true) {
                        return Err(format!("the witness breaks \"{}\"", group.name));
                    }
                    continue;
                }
                let first_grid = program.grids.partition_point(|grid| grid.group < g);
                if !self.verifier.instance_holds(group.constraint, &group.positions, &values, &routes, first_grid)? {
                    return Err(format!("the witness breaks \"{}\"", group.name));
                }
            }
            Ok(())
        }
    }
}

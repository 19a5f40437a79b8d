//! `kind = "csp"`: any finite-domain puzzle as a TOML model with
//! MiniZinc-syntax constraints.
//!
//! A thin adapter from the modeler to the [`Puzzle`] trait: the language
//! ([`crate::lang`]: syntax, checker, unrolling, the independent verifier)
//! loads the model, [`crate::compile`] encodes it as CNF and repairs the
//! grid globals between solves, and this module runs the solver for each
//! command (an objective's search, counting, facts, explanations), checks
//! every answer with the verifier, and shows it in the model's terms
//! (`render`).
//!
//! ```
//! use somaria::model::Source;
//! use somaria::puzzles::{self, CountOptions};
//! let text = "kind = \"csp\"\n[vars]\nx = \"1..3\"\ny = \"1..3\"\n[[constraint]]\nexpr = 'x < y'\n";
//! let puzzle = puzzles::load(&Source::from_text("m.toml", text)).unwrap();
//! assert_eq!(puzzle.count(&CountOptions::default()).unwrap().count, 3);
//! ```

pub mod clue_reads;
pub mod clue_solver;
mod count;
pub mod design;
pub mod designer;
mod render;
mod state;
pub mod table;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

use crate::compile::repair::{GridRepair, RepairLog, Route};
use crate::compile::{self, Compiled, Encoder, Encoding, GridEncoding, Objective, ObjectiveUse};
pub use crate::compile::{Linear, OBJECTIVE_DEFINED};
use crate::lang::ir;
use crate::lang::model::{Base, Model, Sense};
pub use crate::lang::{Group, Program, model, syntax};
use crate::lang::{load_model, verify};

use super::{
    CountMethod, CountOptions, CountReport, DecidedBy, Drawn, Error, ExplainReport, FactsReport, Formula,
    NamedConstraint, Payload, PlayState, Puzzle, Solution, SolveOptions, SolveReport, Stats, Status,
};
use crate::cnf::{ClauseSink, Cnf, GroupId, Lit};
use crate::deduce::{self, Deductions, Fact, ModelCheck, Rule, Wanted};
use crate::draw::Scene;
use crate::model::{LoadError, Source};
use crate::solver::{Answer, Lazy, Recorded, Solve, SolveStats, count_projected};

pub use render::{CspFacts, CspSolution, Shown, ShownRoute};

/// The `kind` of csp models.
pub const KIND: &str = "csp";

engines! {
    /// The integer encodings.
    pub enum Engine {
        /// Per variable: direct up to 64 values, order up to 65,536, log above.
        Auto = "auto",
        /// One literal per value ("one-hot"), exactly one true.
        Direct = "direct",
        /// One literal per "x ≥ v" (a ladder).
        Order = "order",
        /// Binary digits.
        Log = "log",
        /// As auto, with the grid globals encoded eagerly: positions along
        /// paths and loops, a ranked tree for regions; one CNF, no cuts.
        Eager = "eager",
    }
}

impl Engine {
    /// The compiler's encoding for this engine.
    fn encoding(self) -> Encoding {
        match self {
            Engine::Auto => Encoding::Auto,
            Engine::Direct => Encoding::Direct,
            Engine::Order => Encoding::Order,
            Engine::Log => Encoding::Log,
            Engine::Eager => Encoding::Eager,
        }
    }
}

/// The engines' names, the default first, for models without grid globals
/// (for them `eager` is `auto`).
pub const ENGINES: &[&str] = &["auto", "direct", "order", "log"];

/// The engines' names for models with grid globals: also `eager`, against
/// which `compare` sets the lazy forms.
pub const GRID_ENGINES: &[&str] = Engine::NAMES;

/// A loaded csp model.
#[derive(Clone, Debug)]
pub struct CspPuzzle {
    model: Model,
    program: Program,
    linear: Linear,
    /// Whether to encode each variable over the values the presolve leaves
    /// it, when every constraint holds.
    presolve: bool,
    /// With a drawing table, the grid cell each scalar it draws stands in.
    drawn_cells: Option<std::collections::HashMap<usize, Vec<crate::grid::Pos>>>,
}

/// Loads a `kind = "csp"` model.
pub fn load(source: &Source) -> Result<Box<dyn Puzzle>, LoadError> {
    Ok(Box::new(load_puzzle(source)?))
}

/// Loads a `kind = "csp"` model as a [`CspPuzzle`].
///
/// ```
/// use somaria::model::Source;
/// use somaria::puzzles::csp::load_puzzle;
/// let bad = Source::from_text("m.toml", "kind = \"csp\"\n[vars]\nq = \"1..8\"\n[[constraint]]\nexpr = 'q < qq'\n");
/// let message = load_puzzle(&bad).unwrap_err().to_string();
/// assert!(message.starts_with("m.toml:5:13: unknown name `qq`"), "{message}");
/// assert!(message.contains("did you mean `q`?"));
/// ```
pub fn load_puzzle(source: &Source) -> Result<CspPuzzle, LoadError> {
    let (model, program) = load_model(source)?;
    let drawn_cells = model.drawing.as_ref().map(table::cells_of_scalars);
    Ok(CspPuzzle { model, program, linear: Linear::default(), presolve: true, drawn_cells })
}

/// The checked values of every scalar, the objective's value, and each grid
/// global's route.
type Found = (Vec<i64>, Option<i64>, Vec<Option<Route>>);

impl CspPuzzle {
    /// The same puzzle with linear constraints encoded the given way, to
    /// compare the decision diagrams with the pseudo-Boolean encodings.
    ///
    /// ```
    /// use somaria::puzzles::{CountOptions, Puzzle};
    /// use somaria::puzzles::csp::{Linear, load_puzzle};
    /// let source = somaria::model::Source::read("models/csp/magic-square.toml".as_ref()).unwrap();
    /// let puzzle = load_puzzle(&source).unwrap().with_linear(Linear::PseudoBoolean);
    /// assert_eq!(puzzle.count(&CountOptions::default()).unwrap().count, 8);
    /// ```
    pub fn with_linear(mut self, linear: Linear) -> CspPuzzle {
        self.linear = linear;
        self
    }

    /// The same puzzle with every variable encoded over its declared
    /// domain, to check that the presolve changes no count.
    ///
    /// ```
    /// use somaria::puzzles::{CountOptions, Puzzle};
    /// use somaria::puzzles::csp::load_puzzle;
    /// let text = "kind = \"csp\"\n[vars]\nx = \"-9..9\"\n[[constraint]]\nexpr = 'abs(x) = 4'\n";
    /// let puzzle = load_puzzle(&somaria::model::Source::from_text("m.toml", text)).unwrap();
    /// let narrowed = puzzle.cnf(None).unwrap().num_vars();
    /// let puzzle = puzzle.without_presolve();
    /// assert!(puzzle.cnf(None).unwrap().num_vars() > narrowed);
    /// assert_eq!(puzzle.count(&CountOptions::default()).unwrap().count, 2);
    /// ```
    pub fn without_presolve(mut self) -> CspPuzzle {
        self.presolve = false;
        self
    }

    /// The validated model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The unrolled constraints.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The CNF an engine (`None`: the default) solves, built without
    /// solving: the constraints only, without any bound on the objective.
    ///
    /// ```
    /// use somaria::model::Source;
    /// use somaria::puzzles::csp::load_puzzle;
    /// let text = "kind = \"csp\"\n[vars]\nx = \"1..4\"\n[[constraint]]\nexpr = 'x != 2'\n";
    /// let puzzle = load_puzzle(&Source::from_text("m.toml", text)).unwrap();
    /// let cnf = puzzle.cnf(Some("direct")).unwrap();
    /// assert_eq!(cnf.groups()[1].name, "constraint 1 (line 5)");
    /// assert!(puzzle.cnf(Some("sat")).is_err());
    /// ```
    pub fn cnf(&self, engine_name: Option<&str>) -> Result<Cnf, Error> {
        Ok(self.compiled(Engine::choose(engine_name)?, ObjectiveUse::Optimize)?.0.cnf)
    }

    fn compiled(&self, engine: Engine, use_: ObjectiveUse) -> Result<(Compiled, f64), Error> {
        let started = Instant::now();
        let compiled =
            compile::compile(&self.model, &self.program, engine.encoding(), use_, (self.linear, self.presolve))?;
        Ok((compiled, Stats::ms(started.elapsed())))
    }

    /// Decodes a model and checks it against the rules; returns the values
    /// of every scalar and the objective's value, if any.
    fn check_model(
        &self,
        verifier: &verify::Verifier<'_>,
        encoder: &Encoder,
        objective: Option<&Objective>,
        value: &dyn Fn(Lit) -> bool,
        routes: &[Option<Route>],
    ) -> Result<(Vec<i64>, Option<i64>), String> {
        let values = encoder.decode(&self.model, value)?;
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

    /// Finds a solution, optimal when there is an objective: a
    /// solution-improving search, each step one call on the same solver
    /// under an assumption that asks for better than the best so far, until
    /// the bounds meet: the best value, and the best not ruled out (the
    /// relaxation's bound, lowered by each failed call). Halving the gap
    /// from the top instead sent the calls to hard bounds far above the
    /// optimum. Returns the checked values and objective.
    /// One solve, trying first with every wide variable near zero (within
    /// 2^4, then 2^8, …), then without: wide arithmetic spelt in bits
    /// propagates poorly, and a sum of products over -1000..1000 equal to 7
    /// was beyond varisat in minutes while its small solutions were found
    /// at once. Only a model counts from the probes; their "no" says
    /// nothing, so the last call is the plain one.
    fn solve_small_values_first(compiled: &mut Compiled, solver: &mut dyn Solve) -> Result<Answer, Error> {
        for bits in PROBE_BITS {
            let near_zero = compiled.encoder.extend(solver, |enc| enc.small_values(bits))?;
            if near_zero.is_empty() {
                break;
            }
            if solver.solve_under(&near_zero)? == Answer::Sat {
                return Ok(Answer::Sat);
            }
        }
        Ok(solver.solve()?)
    }

    fn search(
        &self,
        verifier: &verify::Verifier<'_>,
        compiled: &mut Compiled,
        solver: &mut dyn Solve,
        log: &RefCell<RepairLog>,
    ) -> Result<Option<Found>, Error> {
        if Self::solve_small_values_first(compiled, solver)? == Answer::Unsat {
            return Ok(None);
        }
        let objective = compiled.objective.clone();
        let check = |enc: &Encoder, solver: &dyn Solve| {
            let routes = log.borrow().routes.clone();
            let (values, best) = self
                .check_model(verifier, enc, objective.as_ref(), &|l| solver.value(l), &routes)
                .map_err(Error::CheckFailed)?;
            Ok::<_, Error>((values, best, routes))
        };
        let (mut values, mut best, mut routes) = check(&compiled.encoder, solver)?;
        let (Some(z), Some((sense, _))) = (&objective, &self.program.objective) else {
            return Ok(Some((values, best, routes)));
        };
        let Some(mut value) = best else { return Err(Error::Internal("an objective without a value".into())) };
        let (lo, hi) = compiled.encoder.objective_range(z);
        let relaxed = compiled.encoder.objective_relaxation(z, *sense == Sense::Maximize);
        // The best value not ruled out: the range's end, or the relaxation's
        // bound when tighter. Distances below count towards better values.
        let sign = if *sense == Sense::Maximize { 1 } else { -1 };
        let end = if *sense == Sense::Maximize { hi } else { lo };
        let mut limit = relaxed.as_ref().map_or(end, |(r, _)| if sign > 0 { (*r).min(hi) } else { (*r).max(lo) });
        if sign * (limit - value) < 0 {
            return Err(Error::Internal(format!("a solution of value {value} beats the relaxation's bound {limit}")));
        }
        // First the relaxation's own optimum, which reaches the bound when
        // the other constraints allow it.
        if let Some((_, witness)) = relaxed.filter(|(_, w)| !w.is_empty() && value != limit) {
            let lits = compiled.encoder.extend(solver, |enc| {
                witness.iter().map(|&(x, v)| enc.eq_lit(x, v)).collect::<Result<Vec<Lit>, _>>()
            })?;
            if solver.solve_under(&lits)? == Answer::Sat {
                let (v, b, r) = check(&compiled.encoder, solver)?;
                let found = b.ok_or_else(|| Error::Internal("an objective without a value".into()))?;
                if sign * (found - value) > 0 {
                    (values, routes, value) = (v, r, found);
                }
            }
        }
        // Then solution-improving steps that double while they succeed, so
        // that a failing call asks for little more than the best so far.
        let mut step = 1i64;
        while sign * (limit - value) > 0 {
            let target = value + sign * step.min(sign * (limit - value));
            let bound = compiled.encoder.extend(solver, |enc| {
                let order = if sign > 0 { std::cmp::Ordering::Greater } else { std::cmp::Ordering::Less };
                enc.objective_bound(z, order, target)
            })?;
            if solver.solve_under(&[bound])? == Answer::Unsat {
                limit = target - sign;
                step = 1;
                continue;
            }
            (values, best, routes) = check(&compiled.encoder, solver)?;
            let found = best.ok_or_else(|| Error::Internal("an objective without a value".into()))?;
            if sign * (found - target) < 0 || sign * (limit - found) < 0 {
                return Err(Error::Internal(format!("a bound asked for {target} within {limit} and got {found}")));
            }
            value = found;
            step = step.saturating_mul(2);
        }
        Ok(Some((values, Some(value), routes)))
    }

    /// The solver for a compiled model: the plain SAT solver, or, with grid
    /// globals, the lazy driver that judges every model against them (each
    /// under its guard, when `guards` has them) before anyone reads it.
    fn driver<'a>(
        &'a self,
        grids: &Rc<[GridEncoding]>,
        plain: Box<dyn Solve>,
        guards: Vec<Option<Lit>>,
        splice: bool,
        log: &Rc<RefCell<RepairLog>>,
    ) -> Box<dyn Solve + 'a> {
        if grids.is_empty() {
            return plain;
        }
        let guards = if guards.is_empty() { vec![None; grids.len()] } else { guards };
        let repair = GridRepair::new(&self.program.grids, Rc::clone(grids), guards, splice, Rc::clone(log));
        Box::new(Lazy::new(plain, repair))
    }

    /// The literals that tell two solutions apart (the shown values and
    /// each path's or loop's route), and whether blocking a solution on its
    /// true literals alone is enough: with grid globals, each variable that
    /// is not in an exactly-one group comes with both signs.
    fn solution_projection(&self, encoder: &Encoder, grids: &[GridEncoding]) -> (Vec<Lit>, bool) {
        let (vars, one_hot) = encoder.projection(&self.shown_scalars());
        let projection: Vec<Lit> = if grids.is_empty() || one_hot {
            vars.iter().map(|v| v.pos()).collect()
        } else {
            vars.iter().flat_map(|v| [v.pos(), v.neg()]).collect()
        };
        let projection: Vec<Lit> =
            projection.into_iter().chain(grids.iter().flat_map(GridEncoding::distinguishing_literals)).collect();
        (projection, one_hot || !grids.is_empty())
    }

    /// The stats of a run over `cnf` that added `cuts`.
    fn run_stats(engine: Engine, cnf: &Cnf, cuts: usize, solver: &dyn Solve, encode_ms: f64) -> Stats {
        Stats::of_sat_size(engine.name(), (cnf.num_vars(), cnf.num_clauses() + cuts), solver.stats(), encode_ms)
    }

    /// The assumptions that keep a search among optimal solutions.
    fn at_optimum(
        &self,
        compiled: &mut Compiled,
        solver: &mut dyn Solve,
        optimum: Option<i64>,
    ) -> Result<Vec<Lit>, Error> {
        match (&compiled.objective, optimum) {
            (Some(z), Some(v)) => {
                Ok(vec![compiled.encoder.extend(solver, |enc| enc.objective_bound(z, std::cmp::Ordering::Equal, v))?])
            }
            _ => Ok(Vec::new()),
        }
    }

    /// `count --method exact`: the formula, with what the search for an
    /// optimum added, counted by [`count_projected`] onto the variables of
    /// the shown scalars, under the optimum when there is an objective.
    /// These are the literals the enumeration blocks on, so both count the
    /// same solutions. A grid global is cut lazily between SAT calls: its
    /// formula alone allows more than the solutions, so it is refused.
    fn count_exact(&self, options: &CountOptions) -> Result<CountReport, Error> {
        if let Some(grid) = self.program.grids.first() {
            return Err(Error::BadRequest(format!(
                "count --method exact cannot count this model: its {} constraint is cut lazily between SAT calls, \
                 so its formula alone allows more than the solutions; expected --method enumerate",
                grid.name()
            )));
        }
        let verifier = verify::Verifier::new(&self.model);
        let engine = Engine::choose(options.engine.as_deref())?;
        let (mut compiled, encode_ms) = self.compiled(engine, ObjectiveUse::Optimize)?;
        let log = RefCell::new(RepairLog::default());
        let mut solver = Recorded::from_parts(compiled.cnf.clone(), options.new_solver(&compiled.cnf));
        let optimum = match self.program.objective {
            None => Some(None),
            Some(_) => self.search(&verifier, &mut compiled, &mut solver, &log)?.map(|(_, optimum, _)| optimum),
        };
        let mut count = 0u128;
        let counting = Instant::now();
        if let Some(optimum) = optimum {
            let assumptions = self.at_optimum(&mut compiled, &mut solver, optimum)?;
            let (vars, _) = compiled.encoder.projection(&self.shown_scalars());
            count = count_projected(solver.cnf(), &vars, &assumptions, &options.solver.stop).map_err(Error::Stopped)?;
        }
        let mut stats = Self::run_stats(engine, &compiled.cnf, 0, &solver, encode_ms);
        stats.solve_ms += Stats::ms(counting.elapsed());
        Ok(CountReport::exact(count, options, stats))
    }

    /// The routes of the grid paths and loops, for the output.
    fn shown_routes(&self, routes: &[Option<Route>]) -> Vec<ShownRoute> {
        let globals = self.program.grids.iter().zip(routes).enumerate();
        globals
            .filter_map(|(grid, (spec, route))| {
                let group = &self.program.groups[spec.group];
                Some(ShownRoute {
                    global: spec.name(),
                    constraint: group.name.clone(),
                    line: group.line,
                    cells: route.clone()?,
                    index: spec.index,
                    grid,
                })
            })
            .collect()
    }

    /// The model's drawing table drawn from what `known` says, when the
    /// model has a table: the one picture of every command (and of a hint's
    /// step, given the scalars it has settled).
    pub fn drawing(&self, known: &table::Known<'_>) -> Option<Scene> {
        Some(table::scene(&self.model, self.model.drawing.as_ref()?, known))
    }

    /// A solution drawn by the table.
    fn solution_scene(&self, solution: &CspSolution) -> Option<Scene> {
        let values = |s: usize| solution.scalars.get(s).map_or(&[][..], std::slice::from_ref);
        let known = table::Known {
            values: &values,
            routes: &solution.routes,
            crosses: false,
            sets_as_text: false,
            settled: &[],
            outlined: &[],
        };
        self.drawing(&known)
    }

    /// Facts drawn by the table: forced values as in a solution, the others
    /// as `?` or, in text, their sets, and the sides a loop never takes
    /// crossed.
    fn facts_scene(&self, facts: &CspFacts, sets_as_text: bool) -> Option<Scene> {
        let values = |s: usize| facts.sets.get(&s).map_or(&[][..], Vec::as_slice);
        let known =
            table::Known { values: &values, routes: &[], crosses: true, sets_as_text, settled: &[], outlined: &[] };
        self.drawing(&known)
    }

    /// The cells the constraints of an explanation read, outlined on the
    /// puzzle alone, when the model has a table.
    fn explanation_scene(&self, constraints: &[NamedConstraint]) -> Option<Scene> {
        let mut outlined: Vec<crate::grid::Pos> = constraints.iter().flat_map(|c| c.cells.iter().copied()).collect();
        outlined.sort_unstable();
        outlined.dedup();
        self.drawing(&table::Known::nothing(&outlined))
    }

    fn shown_scalars(&self) -> Vec<usize> {
        self.model
            .show
            .iter()
            .flat_map(|&v| {
                let decl = &self.model.vars[v];
                decl.first..decl.first + decl.len
            })
            .collect()
    }
}

/// What building a model's deductions measured and found, for the report.
struct Built {
    /// The size of the compiled formula, before selectors and cuts.
    size: (usize, usize),
    encode_ms: f64,
    /// When compiling ended; an explanation's time runs from here.
    compiled: Instant,
    /// The optimum, proven, when every rule is fixed and there is an objective.
    optimum: Option<i64>,
}

impl Built {
    fn stats(&self, engine: Engine, solver: SolveStats) -> Stats {
        Stats::of_sat_size(engine.name(), (self.size.0, self.size.1 + solver.cuts as usize), solver, self.encode_ms)
    }
}

impl CspPuzzle {
    /// The deductions over the compiled model. With every rule fixed, the
    /// objective is optimised first and the search kept at the optimum;
    /// switchable, each group (each instance of a top-level `forall`, and
    /// "the objective is defined") is a rule, and a grid global's cuts hold
    /// only while its constraint is on. The facts are "this shown scalar
    /// takes this value", per scalar and value.
    fn deduce(&self, options: &SolveOptions, wanted: Wanted) -> Result<(Deductions<'_>, Built), Error> {
        let engine = Engine::choose(options.engine.as_deref())?;
        let use_ = if wanted.switchable { ObjectiveUse::Group } else { ObjectiveUse::Optimize };
        let (mut compiled, encode_ms) = self.compiled(engine, use_)?;
        let compiled_at = Instant::now();
        let size = (compiled.cnf.num_vars(), compiled.cnf.num_clauses());
        let grids: Rc<[GridEncoding]> = std::mem::take(&mut compiled.grids).into();
        let log = Rc::new(RefCell::new(RepairLog::default()));
        let verifier = verify::Verifier::new(&self.model);
        let (mut solver, mut rules, record) = if wanted.switchable {
            let (solver, rules, record) = self.switchable_solver(&compiled.cnf, &grids, options, &log);
            (solver, rules, Some(record))
        } else {
            (self.driver(&grids, options.new_solver(&compiled.cnf), Vec::new(), true, &log), Vec::new(), None)
        };
        // A fixed scalar's facts are the constant literal: a model that
        // left it false would need one more call to show them possible.
        solver.add_clause(&[compiled.encoder.truth()]);
        let mut optimum = None;
        let mut assumptions = Vec::new();
        if !wanted.switchable {
            match self.search(&verifier, &mut compiled, &mut *solver, &log)? {
                None => {
                    let built = Built { size, encode_ms, compiled: compiled_at, optimum };
                    let mut deductions = Deductions::new(solver, |_, _| Ok(()));
                    deductions.refuted = true;
                    return Ok((deductions, built));
                }
                Some((_, best, _)) => optimum = best,
            }
            assumptions = self.at_optimum(&mut compiled, &mut *solver, optimum)?;
        }
        if wanted.switchable && wanted.facts && self.program.objective.is_some() {
            // Steps lead to the optimal solutions, the ones `facts` reports:
            // the objective's rule becomes "it takes its best value".
            let Some(best) = self.optimum(options)? else {
                let built = Built { size, encode_ms, compiled: compiled_at, optimum };
                let mut deductions = Deductions::new(solver, |_, _| Ok(()));
                deductions.refuted = true;
                return Ok((deductions, built));
            };
            optimum = best;
            self.objective_at_optimum(&mut compiled, &mut *solver, &mut rules, best)?;
        }
        let facts = if wanted.facts { self.value_facts(&mut compiled, &mut *solver)? } else { Vec::new() };
        let at = if wanted.switchable { optimum.map(|v| (rules.len() - 1, v)) } else { None };
        let whole = (!wanted.switchable || at.is_some()).then_some(optimum);
        let check = self.model_check(verifier, compiled, log, whole, at);
        let mut deductions = Deductions::new(solver, check);
        deductions.assumptions = assumptions;
        // A constraint on one shown variable is the model's data, such as a
        // given digit: its facts are known from the start.
        deductions.stated = deduce::single_subject_rules(&rules, &facts);
        deductions.rules = rules;
        deductions.facts = facts;
        if let Some(record) = record {
            deductions.formula = Some(Box::new(move || record.borrow().cnf().clone()));
        }
        Ok((deductions, Built { size, encode_ms, compiled: compiled_at, optimum }))
    }

    /// The best value of the objective, as `facts` finds it: `None` when
    /// the model has no solution.
    fn optimum(&self, options: &SolveOptions) -> Result<Option<Option<i64>>, Error> {
        let (deductions, built) = self.deduce(options, Wanted { switchable: false, facts: false })?;
        Ok((!deductions.refuted).then_some(built.optimum))
    }

    /// Turns the last rule, "the objective is defined", into "the objective
    /// takes its best value `best`": its selector now bounds the objective
    /// and switches the definition on.
    fn objective_at_optimum(
        &self,
        compiled: &mut Compiled,
        solver: &mut dyn Solve,
        rules: &mut [Rule],
        best: Option<i64>,
    ) -> Result<(), Error> {
        let (Some(z), Some(v), Some(rule)) = (compiled.objective.clone(), best, rules.last_mut()) else {
            return Err(Error::Internal("an optimum without an objective rule".into()));
        };
        let bound = compiled.encoder.extend(solver, |enc| enc.objective_bound(&z, std::cmp::Ordering::Equal, v))?;
        solver.add_clause(&[!bound, rule.selector]);
        let most = match self.program.objective {
            Some((Sense::Maximize, _)) => "the most",
            _ => "the least",
        };
        rule.selector = bound;
        rule.name = format!("the objective takes {most} value it can: {v}");
        Ok(())
    }

    /// The solver with each group of `cnf` but the first behind a selector,
    /// the rules they state, and the record of every clause the solver is
    /// given (cuts included), for proofs.
    fn switchable_solver<'a>(
        &'a self,
        cnf: &Cnf,
        grids: &Rc<[GridEncoding]>,
        options: &SolveOptions,
        log: &Rc<RefCell<RepairLog>>,
    ) -> (Box<dyn Solve + 'a>, Vec<Rule>, Rc<RefCell<Recorded>>) {
        // The first group only defines literals; the others are the model's.
        let soft: Vec<GroupId> = cnf.opened_groups().collect();
        let (guarded, selectors) = deduce::switchable(cnf, &soft);
        // A grid global's cuts hold only while its constraint is selected.
        let guards = self.program.grids.iter().map(|g| Some(selectors[g.group])).collect();
        let plain = options.new_solver(&guarded);
        let (recorded, record) = Recorded::from_parts(guarded, plain).shared();
        let solver = self.driver(grids, Box::new(recorded), guards, true, log);
        let rules = selectors.iter().enumerate().map(|(g, &selector)| {
            let (name, line, read) = match (self.program.groups.get(g), &self.program.objective) {
                (Some(group), _) => {
                    (group.name.clone(), group.line, ir::read_scalars(&group.expr, &self.program.grids))
                }
                (None, objective) => {
                    let mut read = std::collections::BTreeSet::new();
                    objective.iter().for_each(|(_, z)| z.read(&self.program.grids, &mut read));
                    (OBJECTIVE_DEFINED.to_string(), self.program.objective_line, read)
                }
            };
            let subjects: Vec<usize> = read.into_iter().collect();
            let mut cells: Vec<crate::grid::Pos> = subjects.iter().flat_map(|&s| self.cells_of(s)).collect();
            cells.sort_unstable();
            cells.dedup();
            Rule { selector, name, place: None, line: Some(line), cells, subjects }
        });
        (solver, rules.collect(), record)
    }

    /// The cells of a scalar: where the drawing table draws it, or without
    /// a table, its cell in a two-dimensional array, counted from the
    /// array's first row and column.
    fn cells_of(&self, scalar: usize) -> Vec<crate::grid::Pos> {
        if let Some(cells) = &self.drawn_cells {
            return cells.get(&scalar).cloned().unwrap_or_default();
        }
        self.cell_of(scalar).into_iter().collect()
    }

    /// A scalar's cell in its two-dimensional array, counted from the
    /// array's first row and column: where the value grids and the facts
    /// place it.
    fn cell_of(&self, scalar: usize) -> Option<crate::grid::Pos> {
        let (decl, at) = self.model.scalar_owner(scalar);
        match (&decl.index[..], &at[..]) {
            ([(r0, _), (c0, _)], [r, c]) => Some(((r - r0) as usize, (c - c0) as usize)),
            _ => None,
        }
    }

    /// "This shown scalar takes this value": a Boolean's two values, an
    /// integer's every value, as literals made on `solver`.
    fn value_facts(&self, compiled: &mut Compiled, solver: &mut dyn Solve) -> Result<Vec<Fact>, Error> {
        let mut facts = Vec::new();
        for s in self.shown_scalars() {
            let fact = |lit: Lit, value: i64| {
                let name = render::value_statement(&self.model, s, value);
                let (about, shown) = (self.model.scalar_name(s), render::value_json(&self.model, s, value));
                Fact { lit, name, place: self.cell_of(s), subject: s, value, about, shown }
            };
            if let Some(l) = compiled.encoder.scalar_lit(s) {
                facts.extend([fact(!l, 0), fact(l, 1)]);
            } else if let Some(x) = compiled.encoder.scalar_int(s) {
                let values: Vec<i64> = compiled.encoder.domain(x).values().collect();
                for v in values {
                    facts.push(fact(compiled.encoder.extend(&mut *solver, |enc| enc.eq_lit(x, v))?, v));
                }
            }
        }
        Ok(facts)
    }

    /// The independent check of a model: against the whole model (at the
    /// optimum, when `optimum` is given), or against the groups switched on.
    fn model_check<'a>(
        &'a self,
        verifier: verify::Verifier<'a>,
        compiled: Compiled,
        log: Rc<RefCell<RepairLog>>,
        optimum: Option<Option<i64>>,
        at_optimum: Option<(usize, i64)>,
    ) -> impl ModelCheck + 'a {
        move |value: &dyn Fn(Lit) -> bool, on: Option<&[usize]>| {
            let routes = log.borrow().routes.clone();
            let Some(on) = on else {
                let (_, found) =
                    self.check_model(&verifier, &compiled.encoder, compiled.objective.as_ref(), value, &routes)?;
                return match optimum {
                    Some(optimum) if found != optimum => Err(format!(
                        "a solution behind the facts has the objective {found:?}, not the optimum {optimum:?}"
                    )),
                    _ => Ok(()),
                };
            };
            let values = compiled.encoder.decode(&self.model, value)?;
            for &g in on {
                let Some(group) = self.program.groups.get(g) else {
                    let found = verifier.objective(&values)?;
                    if let Some((rule, best)) = at_optimum
                        && rule == g
                        && found != best
                    {
                        return Err(format!("the witness has the objective {found}, not its best value {best}"));
                    }
                    continue;
                };
                let first_grid = self.program.grids.partition_point(|grid| grid.group < g);
                if !verifier.instance_holds(group.constraint, &group.positions, &values, &routes, first_grid)? {
                    return Err(format!("the witness breaks \"{}\"", group.name));
                }
            }
            Ok(())
        }
    }
}

/// The reaches, in bits around zero, that a first solve tries in turn
/// before the whole domains ([`CspPuzzle::solve_small_values_first`]).
const PROBE_BITS: [u32; 3] = [4, 8, 16];

impl Puzzle for CspPuzzle {
    fn kind(&self) -> &'static str {
        KIND
    }

    fn title(&self) -> Option<&str> {
        self.model.title.as_deref()
    }

    fn engines(&self) -> &'static [&'static str] {
        if self.program.grids.is_empty() { ENGINES } else { GRID_ENGINES }
    }

    fn solve(&self, options: &SolveOptions) -> Result<SolveReport, Error> {
        let verifier = verify::Verifier::new(&self.model);
        let engine = Engine::choose(options.engine.as_deref())?;
        let (mut compiled, encode_ms) = self.compiled(engine, ObjectiveUse::Optimize)?;
        let grids: Rc<[GridEncoding]> = std::mem::take(&mut compiled.grids).into();
        let log = Rc::new(RefCell::new(RepairLog::default()));
        let mut solver = self.driver(&grids, options.new_solver(&compiled.cnf), Vec::new(), true, &log);
        let found = self.search(&verifier, &mut compiled, &mut *solver, &log)?;
        let cuts = std::mem::take(&mut log.borrow_mut().cuts);
        let cnf = options.settle_formula(found.is_none(), || {
            compiled.cnf.extended("cuts against grid globals in pieces, added between solves", &cuts)
        })?;
        let stats = Self::run_stats(engine, &compiled.cnf, cuts.len(), &*solver, encode_ms);
        let (status, solution, objective) = match found {
            None => (Status::NoSolution, None, None),
            Some((values, objective, routes)) => {
                let typed = render::solution(&self.model, &values, objective, &self.shown_routes(&routes));
                let json = serde_json::to_value(&typed).map_err(|e| Error::Internal(e.to_string()))?;
                let text = match self.solution_scene(&typed) {
                    Some(scene) => table::text(&scene) + &render::objective_text(&typed),
                    None => render::solution_text(&self.model, &typed),
                };
                (Status::Solved, Some(Solution { json, text, payload: Payload::of(typed) }), objective)
            }
        };
        Ok(SolveReport {
            status,
            solution,
            explanation: None,
            cost: None,
            objective,
            decided_by: DecidedBy::Sat,
            stats,
            cnf,
        })
    }

    fn count(&self, options: &CountOptions) -> Result<CountReport, Error> {
        if options.method == CountMethod::Exact {
            return self.count_exact(options);
        }
        self.count_by_enumeration(options)
    }

    fn facts(&self, options: &SolveOptions) -> Result<FactsReport, Error> {
        let engine = Engine::choose(options.engine.as_deref())?;
        let (mut deductions, built) = self.deduce(options, Wanted::FACTS)?;
        let possible = deduce::possible_facts(&mut deductions)?;
        let stats = built.stats(engine, deductions.solver.stats());
        if deductions.refuted {
            let mut json = serde_json::Map::new();
            json.insert("values".into(), serde_json::Value::Null);
            let text = "no solution, so there are no facts to report\n".to_string();
            return Ok(FactsReport { status: Status::NoSolution, json, text, stats, payload: Payload::default() });
        }
        let possible = possible.ok_or_else(|| Error::Internal("a model with a solution has no facts".into()))?;
        let mut sets: std::collections::HashMap<usize, Vec<i64>> = std::collections::HashMap::new();
        for (fact, &p) in deductions.facts.iter().zip(&possible) {
            if p {
                sets.entry(fact.subject).or_default().push(fact.value);
            }
        }
        let typed = render::facts(&self.model, &|s| sets.get(&s).cloned().unwrap_or_default());
        let mut json = serde_json::Map::new();
        json.insert("values".into(), serde_json::to_value(&typed).map_err(|e| Error::Internal(e.to_string()))?);
        if let Some(v) = built.optimum {
            json.insert("objective".into(), serde_json::json!(v));
        }
        let text = match self.facts_scene(&typed, true) {
            Some(scene) => table::text(&scene) + table::facts_legend(&scene),
            None => render::facts_text(&self.model, &typed),
        };
        Ok(FactsReport { status: Status::Solved, json, text, stats, payload: Payload::of(typed) })
    }

    fn explain(&self, options: &SolveOptions) -> Result<ExplainReport, Error> {
        let engine = Engine::choose(options.engine.as_deref())?;
        let (mut deductions, built) = self.deduce(options, Wanted::EXPLANATION)?;
        let every: Vec<usize> = (0..deductions.rules.len()).collect();
        let kept = deduce::minimal_conflict(&mut deductions, &every)?;
        let mut stats = built.stats(engine, deductions.solver.stats());
        stats.solve_ms = Stats::ms(built.compiled.elapsed());
        let Some(kept) = kept else { return Ok(ExplainReport::solved(stats)) };
        let constraints: Vec<NamedConstraint> =
            kept.iter().map(|&r| NamedConstraint::from(&deductions.rules[r])).collect();
        let picture = self.explanation_scene(&constraints).map(|scene| {
            let legend = if scene.outlines.is_empty() { "" } else { "([ ]: the cells these constraints read)\n" };
            table::text(&scene) + legend
        });
        Ok(ExplainReport { picture, ..ExplainReport::conflict(constraints, stats) })
    }

    fn deductions(&self, options: &SolveOptions, wanted: Wanted) -> Result<Deductions<'_>, Error> {
        Ok(self.deduce(options, wanted)?.0)
    }

    fn entries_of_solution(&self, solution: &serde_json::Value) -> Result<Vec<String>, super::StateError> {
        state::entries(&self.model, solution)
    }

    fn formula(&self, engine: Option<&str>) -> Result<Formula, Error> {
        let engine = Engine::choose(engine)?;
        let mut notes = vec![format!(
            "the {engine} integer encoding of the model's constraints; an objective, if any, is not bounded here, \
             so a model is a solution (optimal or not)"
        )];
        let lazy = !self.program.grids.is_empty() && engine != Engine::Eager;
        if lazy {
            notes.push(format!(
                "the {engine} engine's starting formula: it leaves out that each grid_path, grid_loop and \
                 grid_connected is one piece, which the engine adds as cut clauses between solves"
            ));
            notes.push(
                "so a model of this formula may have a path with detached cycles, several loops or a region in \
                 pieces; if it has none the model has no solution, and for a formula with a model exactly when a \
                 solution exists use --engine eager"
                    .to_string(),
            );
        }
        Ok(Formula { cnf: self.cnf(Some(engine.name()))?, engine: engine.name(), equisatisfiable: !lazy, notes })
    }

    /// The shown 2-D arrays as grids of values, one under another, with
    /// the other shown values and the explanation's constraints in the
    /// caption; `facts` shades the cells that can take more than one value.
    fn picture(&self, of: Drawn<'_>) -> Result<Scene, Error> {
        Ok(match of {
            Drawn::Solution(report) => {
                let mut scene = match &report.solution {
                    Some(solution) => {
                        let typed: &CspSolution = solution.typed()?;
                        self.solution_scene(typed)
                            .unwrap_or_else(|| render::picture(&self.model, &typed.values, false, &typed.routes))
                    }
                    None => {
                        let mut scene = self.drawing(&table::Known::nothing(&[])).unwrap_or_else(|| Scene::new(0, 0));
                        scene.caption.push("no solution".to_string());
                        scene
                    }
                };
                if let Some(z) = report.objective {
                    scene.caption.push(format!("objective: {z}"));
                }
                scene
            }
            Drawn::Facts(report) => {
                let typed = report.typed::<CspFacts>()?;
                if let Some(mut scene) = typed.and_then(|facts| self.facts_scene(facts, false)) {
                    let crossed = |s: crate::draw::Stroke| matches!(s, crate::draw::Stroke::Cross(_));
                    let legend = if scene.edges.iter().any(|e| crossed(e.stroke)) {
                        "?: a cell that differs between solutions; ×: a side the loop never takes"
                    } else if scene.links.iter().any(|l| crossed(l.stroke)) {
                        "?: a cell that differs between solutions; ×: a step the loop never takes"
                    } else {
                        "?: a cell that differs between solutions"
                    };
                    scene.caption.push(legend.to_string());
                    return Ok(scene);
                }
                let values = typed.map_or(&[][..], |facts| &facts.values);
                let mut scene = render::picture(&self.model, values, true, &[]);
                scene.caption.push("shaded: cells that take more than one value across solutions".to_string());
                scene
            }
            Drawn::Explanation(report) => {
                let mut scene = self.explanation_scene(&report.constraints).unwrap_or_else(|| Scene::new(0, 0));
                for constraint in &report.constraints {
                    let named = crate::model::with_line(&constraint.name, constraint.line);
                    scene.caption.push(format!("cannot all hold: {named}"));
                }
                if report.status == Status::Solved {
                    scene.caption.push("the model has a solution, so there is nothing to explain".to_string());
                }
                scene
            }
        })
    }

    /// A state of play drawn by the table: the scalars the entries fix (a
    /// Boolean ruled out one way takes the other), the new entries' cells
    /// shaded, the sides a loop is known not to take crossed.
    fn state_picture(&self, state: &PlayState<'_>) -> Option<(Scene, crate::draw::text::Style)> {
        let table = self.model.drawing.as_ref()?;
        let mut fixed: std::collections::HashMap<usize, i64> = std::collections::HashMap::new();
        for entry in state.known.iter().chain(state.new.iter().filter(|_| state.new_shown)) {
            let boolean = self.model.scalar_owner(entry.subject).0.base == Base::Bool;
            if entry.holds || boolean {
                fixed.insert(entry.subject, if entry.holds { entry.value } else { 1 - entry.value });
            }
        }
        let mut settled: Vec<usize> = state.new.iter().map(|e| e.subject).collect();
        settled.sort_unstable();
        settled.dedup();
        let values = |s: usize| fixed.get(&s).map_or(&[][..], std::slice::from_ref);
        let known = table::Known {
            values: &values,
            routes: &[],
            crosses: true,
            sets_as_text: false,
            settled: &settled,
            outlined: state.outlined,
        };
        let scene = table::scene(&self.model, table, &known);
        let style = table::style(&scene);
        Some((scene, style))
    }
}

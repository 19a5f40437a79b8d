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

mod render;

use std::cell::RefCell;
use std::time::Instant;

use crate::compile::repair::{GridRepair, RepairLog, Route};
use crate::compile::{self, Compiled, Encoder, Encoding, GridEncoding, Objective, ObjectiveUse};
pub use crate::compile::{Linear, OBJECTIVE_DEFINED};
use crate::lang::ir::GridKind;
use crate::lang::model::{Model, Sense};
pub use crate::lang::{Group, Program, model, syntax};
use crate::lang::{load_model, verify};

use super::{
    CountOptions, CountReport, DecidedBy, Drawn, Error, ExplainReport, FactsReport, Formula, NamedConstraint, Puzzle,
    Solution, SolveOptions, SolveReport, Stats, Status,
};
use crate::cnf::{ClauseSink, Cnf, Lit, Var};
use crate::model::{LoadError, Source};
use crate::render::picture::Picture;
use crate::solver::{
    Answer, Lazy, ProjectedModels, Solve, SolveStats, SolverError, possible_literals, shrink_by_deletion,
};

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

/// A count that passes this many solutions starts again split into cubes:
/// measured on the queens, a restart this early pays for itself (8 queens
/// lose about 10%, 10 queens gain about 20%).
const CUBE_AFTER: u64 = 16;

/// The most values of the variable whose values split a count into cubes.
const CUBE_VALUES: u64 = 64;

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
    Ok(CspPuzzle { model, program, linear: Linear::default() })
}

/// Checks a model read through its literal values.
type ModelCheck<'a> = dyn Fn(&dyn Fn(Lit) -> bool) -> Result<(), String> + 'a;

/// The checked values of every scalar, the objective's value, and each grid
/// global's route.
type Found = (Vec<i64>, Option<i64>, Vec<Option<Route>>);

/// A solver wrapper that decodes and checks every model it finds, so that
/// counts, facts and explanations rest only on checked solutions.
struct Checked<'a, S: Solve + ?Sized> {
    inner: &'a mut S,
    check: &'a ModelCheck<'a>,
    failure: Option<String>,
}

impl<S: Solve + ?Sized> ClauseSink for Checked<'_, S> {
    fn new_var(&mut self) -> Var {
        self.inner.new_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.inner.add_clause(clause)
    }
}

impl<S: Solve + ?Sized> Solve for Checked<'_, S> {
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Answer, SolverError> {
        let answer = self.inner.solve_under(assumptions)?;
        if answer == Answer::Sat && self.failure.is_none() {
            let inner = &*self.inner;
            if let Err(e) = (self.check)(&|l| inner.value(l)) {
                self.failure = Some(e);
            }
        }
        Ok(answer)
    }

    fn value(&self, lit: Lit) -> bool {
        self.inner.value(lit)
    }

    fn failed_core(&self) -> Vec<Lit> {
        self.inner.failed_core()
    }

    fn stats(&self) -> SolveStats {
        self.inner.stats()
    }
}

impl<S: Solve + ?Sized> Checked<'_, S> {
    fn verdict(&self) -> Result<(), Error> {
        match &self.failure {
            Some(e) => Err(Error::CheckFailed(e.clone())),
            None => Ok(()),
        }
    }
}

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
        let compiled = compile::compile(&self.model, &self.program, engine.encoding(), use_, self.linear)?;
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

    /// Finds a solution, optimal when there is an objective: a binary search
    /// on the objective's bound, each step one call on the same solver under
    /// an assumption. Returns the checked values and objective.
    fn search(
        &self,
        verifier: &verify::Verifier<'_>,
        compiled: &mut Compiled,
        solver: &mut dyn Solve,
        log: &RefCell<RepairLog>,
    ) -> Result<Option<Found>, Error> {
        if solver.solve()? == Answer::Unsat {
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
        // The best value not yet ruled out on the other side.
        let mut limit = match sense {
            Sense::Minimize => lo.min(value),
            Sense::Maximize => hi.max(value),
        };
        while value != limit {
            let mid = limit + (value - limit) / 2;
            let mid = if mid == value { limit } else { mid };
            let bound = compiled.encoder.extend(solver, |enc| match sense {
                Sense::Minimize => enc.objective_bound(z, std::cmp::Ordering::Less, mid),
                Sense::Maximize => enc.objective_bound(z, std::cmp::Ordering::Greater, mid),
            })?;
            match solver.solve_under(&[bound])? {
                Answer::Sat => {
                    (values, best, routes) = check(&compiled.encoder, solver)?;
                    value = best.ok_or_else(|| Error::Internal("an objective without a value".into()))?;
                }
                Answer::Unsat => {
                    limit = match sense {
                        Sense::Minimize => mid + 1,
                        Sense::Maximize => mid - 1,
                    };
                }
            }
        }
        Ok(Some((values, Some(value), routes)))
    }

    /// The solver for a compiled model: the plain SAT solver, or, with grid
    /// globals, the lazy driver that judges every model against them (each
    /// under its guard, when `guards` has them) before anyone reads it.
    fn driver<'a>(
        &'a self,
        grids: &'a [GridEncoding],
        plain: Box<dyn Solve>,
        guards: Vec<Option<Lit>>,
        splice: bool,
        log: &'a RefCell<RepairLog>,
    ) -> Box<dyn Solve + 'a> {
        if grids.is_empty() {
            return plain;
        }
        let guards = if guards.is_empty() { vec![None; grids.len()] } else { guards };
        Box::new(Lazy::new(plain, GridRepair::new(&self.program.grids, grids, guards, splice, log)))
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

    /// The routes of the grid paths and loops, for the output.
    fn shown_routes(&self, routes: &[Option<Route>]) -> Vec<ShownRoute> {
        let globals = self.program.grids.iter().zip(routes);
        globals
            .filter_map(|(spec, route)| {
                let group = &self.program.groups[spec.group];
                Some(ShownRoute {
                    global: spec.name(),
                    constraint: group.name.clone(),
                    line: group.line,
                    cells: route.clone()?,
                    index: spec.index,
                })
            })
            .collect()
    }

    /// The paths and loops of a solution's JSON, placed on their arrays.
    fn drawn_routes(&self, values: &serde_json::Value) -> Vec<render::DrawnRoute> {
        // The solution lists each kind's routes in the order of the globals
        // (see `shown_routes`), and globals joined by `/\` share their
        // constraint's name and line, so the order is what ties an entry to
        // its global.
        let mut drawn = Vec::new();
        for kind in ["grid_path", "grid_loop"] {
            let entries = values.get(kind).and_then(|v| v.as_array()).map(Vec::as_slice).unwrap_or_default();
            let specs = self.program.grids.iter().filter(|spec| spec.name() == kind);
            for (spec, entry) in specs.zip(entries) {
                let Ok(cells) = serde_json::from_value::<Vec<(i64, i64)>>(entry["cells"].clone()) else { continue };
                drawn.push(render::DrawnRoute {
                    constraint: self.program.groups[spec.group].name.clone(),
                    shape: spec.shape(),
                    cells: cells.into_iter().map(|cell| spec.position(cell)).collect(),
                    closed: matches!(spec.kind, GridKind::Loop),
                });
            }
        }
        drawn
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
        let grids = std::mem::take(&mut compiled.grids);
        let log = RefCell::new(RepairLog::default());
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
                let text = render::solution_text(&self.model, &typed);
                (Status::Solved, Some(Solution { json, text }), objective)
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
        let verifier = verify::Verifier::new(&self.model);
        let engine = Engine::choose(options.engine.as_deref())?;
        let (mut compiled, encode_ms) = self.compiled(engine, ObjectiveUse::Optimize)?;
        let grids = std::mem::take(&mut compiled.grids);
        let log = RefCell::new(RepairLog::default());
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
            let shown = self.shown_scalars();
            let (vars, one_hot) = compiled.encoder.projection(&shown);
            // A solution is the shown values and each path's or loop's
            // route. Blocked on its true literals: with both signs of each
            // variable that is not in an exactly-one group.
            let projection: Vec<Lit> = if grids.is_empty() || one_hot {
                vars.iter().map(|v| v.pos()).collect()
            } else {
                vars.iter().flat_map(|v| [v.pos(), v.neg()]).collect()
            };
            let projection: Vec<Lit> =
                projection.into_iter().chain(grids.iter().flat_map(GridEncoding::distinguishing_literals)).collect();
            let one_hot = one_hot || !grids.is_empty();
            // Cubes: one per value of the shown scalar with the most values
            // (up to CUBE_VALUES), so that each enumeration's blocking clauses
            // stay few; they are retired when its cube is done.
            let splitter = shown
                .iter()
                .filter_map(|&s| compiled.encoder.scalar_int(s))
                .filter(|&x| (2..=CUBE_VALUES).contains(&compiled.encoder.domain(x).len()))
                .max_by_key(|&x| compiled.encoder.domain(x).len());
            let mut cubes: Vec<Vec<Lit>> = Vec::new();
            if let Some(x) = splitter {
                let values: Vec<i64> = compiled.encoder.domain(x).values().collect();
                for v in values {
                    let lit = compiled.encoder.extend(&mut *solver, |enc| enc.eq_lit(x, v))?;
                    let mut cube = assumptions.clone();
                    cube.push(lit);
                    cubes.push(cube);
                }
            }
            let encoder = &compiled.encoder;
            let objective = compiled.objective.as_ref();
            let check = |value: &dyn Fn(Lit) -> bool| {
                let (_, found) = self.check_model(&verifier, encoder, objective, value, &log.borrow().routes)?;
                if found != optimum {
                    return Err(format!("a counted solution has the objective {found:?}, not the optimum {optimum:?}"));
                }
                Ok(())
            };
            let mut checked = Checked { inner: &mut *solver, check: &check, failure: None };
            // First without cubes; a count that runs past CUBE_AFTER starts
            // again split into cubes.
            let plain = [assumptions.clone()];
            let mut runs: Vec<&[Vec<Lit>]> = vec![&plain];
            if !cubes.is_empty() {
                runs.push(&cubes);
            }
            for (run, parts) in runs.iter().enumerate() {
                let last_run = run + 1 == runs.len();
                count = 0;
                let mut restart = false;
                for part in parts.iter() {
                    let mut models = ProjectedModels::new(&mut checked, projection.clone(), part);
                    if one_hot {
                        models = models.block_on_true_literals();
                    }
                    loop {
                        if options.limit.is_some_and(|limit| count >= limit) {
                            complete = false;
                            break;
                        }
                        if !last_run && count >= CUBE_AFTER {
                            restart = true;
                            break;
                        }
                        let Some(model) = models.next() else { break };
                        model?;
                        count += 1;
                        options.progress.set_solutions(count);
                    }
                    if !complete || restart {
                        break;
                    }
                }
                if !restart {
                    break;
                }
            }
            checked.verdict()?;
        }
        let cuts = log.borrow().cuts.len();
        let stats = Self::run_stats(engine, &compiled.cnf, cuts, &*solver, encode_ms);
        Ok(CountReport { count, complete, saturated: false, stats })
    }

    fn facts(&self, options: &SolveOptions) -> Result<FactsReport, Error> {
        let verifier = verify::Verifier::new(&self.model);
        let engine = Engine::choose(options.engine.as_deref())?;
        let (mut compiled, encode_ms) = self.compiled(engine, ObjectiveUse::Optimize)?;
        let grids = std::mem::take(&mut compiled.grids);
        let log = RefCell::new(RepairLog::default());
        let mut solver = self.driver(&grids, options.new_solver(&compiled.cnf), Vec::new(), true, &log);
        let found = self.search(&verifier, &mut compiled, &mut *solver, &log)?;
        let Some((_, optimum, _)) = found else {
            let stats = Self::run_stats(engine, &compiled.cnf, log.borrow().cuts.len(), &*solver, encode_ms);
            let mut json = serde_json::Map::new();
            json.insert("values".into(), serde_json::Value::Null);
            let text = "no solution, so there are no facts to report\n".to_string();
            return Ok(FactsReport { status: Status::NoSolution, json, text, stats });
        };
        let assumptions = self.at_optimum(&mut compiled, &mut *solver, optimum)?;
        // One candidate literal per shown scalar and value.
        let scalars = self.shown_scalars();
        let mut candidates: Vec<Lit> = Vec::new();
        let mut owners: Vec<(usize, i64)> = Vec::new();
        for &s in &scalars {
            if let Some(l) = compiled.encoder.scalar_lit(s) {
                candidates.extend([!l, l]);
                owners.extend([(s, 0), (s, 1)]);
            } else if let Some(x) = compiled.encoder.scalar_int(s) {
                let values: Vec<i64> = compiled.encoder.domain(x).values().collect();
                for v in values {
                    candidates.push(compiled.encoder.extend(&mut *solver, |enc| enc.eq_lit(x, v))?);
                    owners.push((s, v));
                }
            }
        }
        let encoder = &compiled.encoder;
        let objective = compiled.objective.as_ref();
        let check = |value: &dyn Fn(Lit) -> bool| {
            let (_, found) = self.check_model(&verifier, encoder, objective, value, &log.borrow().routes)?;
            if found != optimum {
                return Err(format!(
                    "a solution behind the facts has the objective {found:?}, not the optimum {optimum:?}"
                ));
            }
            Ok(())
        };
        let mut checked = Checked { inner: &mut *solver, check: &check, failure: None };
        let possible = possible_literals(&mut checked, &candidates, &assumptions)?;
        checked.verdict()?;
        let possible = possible.ok_or_else(|| Error::Internal("a model with a solution has no facts".into()))?;
        let mut sets: std::collections::HashMap<usize, Vec<i64>> = std::collections::HashMap::new();
        for (&(s, v), &p) in owners.iter().zip(&possible.possible) {
            if p {
                sets.entry(s).or_default().push(v);
            }
        }
        let typed = render::facts(&self.model, &|s| sets.get(&s).cloned().unwrap_or_default());
        let mut json = serde_json::Map::new();
        json.insert("values".into(), serde_json::to_value(&typed).map_err(|e| Error::Internal(e.to_string()))?);
        if let Some(v) = optimum {
            json.insert("objective".into(), serde_json::json!(v));
        }
        let text = render::facts_text(&self.model, &typed);
        let stats = Self::run_stats(engine, &compiled.cnf, log.borrow().cuts.len(), &*solver, encode_ms);
        Ok(FactsReport { status: Status::Solved, json, text, stats })
    }

    fn explain(&self, options: &SolveOptions) -> Result<ExplainReport, Error> {
        let engine = Engine::choose(options.engine.as_deref())?;
        let (mut compiled, encode_ms) = self.compiled(engine, ObjectiveUse::Group)?;
        let grids = std::mem::take(&mut compiled.grids);
        let started = Instant::now();
        // Each group gets a selector; the hard clauses define literals only.
        let cnf = &compiled.cnf;
        let mut guarded = Cnf::new();
        for _ in 0..cnf.num_vars() {
            guarded.new_var();
        }
        let groups = cnf.groups().len() - 1;
        let selectors: Vec<Lit> = (0..groups).map(|_| guarded.new_var().pos()).collect();
        for (group, clause) in cnf.grouped_clauses() {
            match group.index() {
                0 => guarded.add_clause(clause),
                g => {
                    let mut with = clause.to_vec();
                    with.push(!selectors[g - 1]);
                    guarded.add_clause(&with);
                }
            }
        }
        let log = RefCell::new(RepairLog::default());
        // A grid global's cuts hold only while its constraint is selected.
        let guards = self.program.grids.iter().map(|g| Some(selectors[g.group])).collect();
        let mut solver = self.driver(&grids, options.new_solver(&guarded), guards, true, &log);
        let verifier = verify::Verifier::new(&self.model);
        let kept = shrink_by_deletion(&selectors, |assumptions| -> Result<Option<Vec<Lit>>, Error> {
            match solver.solve_under(assumptions)? {
                Answer::Unsat => Ok(Some(solver.failed_core())),
                Answer::Sat => {
                    // The claim "these groups can hold together" rests on a checked witness.
                    let values =
                        compiled.encoder.decode(&self.model, &|l| solver.value(l)).map_err(Error::CheckFailed)?;
                    let routes = log.borrow().routes.clone();
                    for (g, s) in selectors.iter().enumerate() {
                        if assumptions.contains(s) {
                            let Some(group) = self.program.groups.get(g) else {
                                verifier.objective(&values).map_err(Error::CheckFailed)?;
                                continue;
                            };
                            let first_grid = self.program.grids.partition_point(|grid| grid.group < g);
                            let holds = verifier
                                .instance_holds(group.constraint, &group.positions, &values, &routes, first_grid)
                                .map_err(Error::CheckFailed)?;
                            if !holds {
                                return Err(Error::CheckFailed(format!("the witness breaks \"{}\"", group.name)));
                            }
                        }
                    }
                    Ok(None)
                }
            }
        })?;
        let mut stats = Self::run_stats(engine, cnf, log.borrow().cuts.len(), &*solver, encode_ms);
        stats.solve_ms = Stats::ms(started.elapsed());
        let Some(kept) = kept else {
            return Ok(ExplainReport::solved(stats));
        };
        let constraints = kept
            .iter()
            .filter_map(|l| selectors.iter().position(|s| s == l))
            .map(|g| match self.program.groups.get(g) {
                Some(group) => {
                    NamedConstraint { name: group.name.clone(), row: None, col: None, line: Some(group.line) }
                }
                None => NamedConstraint {
                    name: OBJECTIVE_DEFINED.to_string(),
                    row: None,
                    col: None,
                    line: Some(self.program.objective_line),
                },
            })
            .collect();
        Ok(ExplainReport { status: Status::NoSolution, constraints, certificate: None, rule: None, stats })
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
    fn picture(&self, of: Drawn<'_>) -> Result<Picture, Error> {
        Ok(match of {
            Drawn::Solution(report) => {
                let values = report.solution.as_ref().map(|s| s.json.clone()).unwrap_or_default();
                let mut picture = render::picture(&values, false, &self.drawn_routes(&values));
                if report.solution.is_none() {
                    picture.caption.push("no solution".to_string());
                }
                if let Some(z) = report.objective {
                    picture.caption.push(format!("objective: {z}"));
                }
                picture
            }
            Drawn::Facts(report) => {
                let values = report.json.get("values").cloned().unwrap_or_default();
                let mut picture = render::picture(&values, true, &[]);
                picture.caption.push("shaded: cells that take more than one value across solutions".to_string());
                picture
            }
            Drawn::Explanation(report) => {
                let mut picture = Picture::new(0, 0);
                for constraint in &report.constraints {
                    let line = constraint.line.map(|l| format!(" (line {l})")).unwrap_or_default();
                    picture.caption.push(format!("cannot all hold: {}{line}", constraint.name));
                }
                if report.status == Status::Solved {
                    picture.caption.push("the model has a solution, so there is nothing to explain".to_string());
                }
                picture
            }
        })
    }
}

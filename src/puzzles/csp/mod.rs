//! `kind = "csp"`: any finite-domain puzzle as a TOML model with
//! MiniZinc-syntax constraints.
//!
//! A thin adapter from the modeler to the [`Puzzle`] trait: the language
//! ([`crate::lang`]: syntax, checker, unrolling, the independent verifier)
//! loads the model, [`crate::compile`] encodes it as CNF and repairs the
//! grid globals between solves, and this module prepares the compiled
//! model in a solver, with its verifier, for each command (`instance`),
//! runs the command's search (an objective's, counting, facts,
//! explanations), checks every answer with the verifier, and shows it in
//! the model's terms (`render`).
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
mod fd_run;
mod instance;
pub mod regions;
mod render;
pub mod searched;
mod state;
pub mod table;

use std::time::Instant;

use crate::compile::repair::Route;
use crate::compile::{self, Compiled, Encoding, ObjectiveUse};
pub use crate::compile::{Linear, OBJECTIVE_DEFINED};
use crate::lang::ir;
use crate::lang::load_model;
use crate::lang::model::{Base, Model, Sense};
pub use crate::lang::{Group, Program, model, syntax};

use super::{
    CountMethod, CountOptions, CountReport, DecidedBy, Drawn, Error, ExplainReport, FactsReport, Formula,
    NamedConstraint, Payload, PlayState, Puzzle, Solution, SolveOptions, SolveReport, Stats, Status,
};
use crate::cnf::{ClauseSink, Cnf, Lit};
use crate::deduce::{self, Deductions, Fact, Rule, Wanted};
use crate::draw::Scene;
use crate::model::{LoadError, Source};
use crate::solver::SolveStats;
use instance::{CspEngine, Holder, Instance, Setup};

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
/// (for them `eager` is `auto`), and for models with a `grid_regions`,
/// which has no eager form.
pub const ENGINES: &[&str] = &["auto", "direct", "order", "log"];

/// [`ENGINES`] and the finite-domain engine, for models in its fragment.
pub const FD_ENGINES: &[&str] = &["auto", "direct", "order", "log", fd_run::FD];

/// The SAT encoding named (the default when none is); the fd engine's
/// name is refused with what it answers.
fn sat_engine(requested: Option<&str>) -> Result<Engine, Error> {
    if requested == Some(fd_run::FD) {
        return Err(Error::BadRequest(format!(
            "the fd engine answers solve, count and compare; this command needs a SAT engine: expected one of {}",
            Engine::NAMES.join(", ")
        )));
    }
    Engine::choose(requested)
}

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
    drawn_cells: Option<table::ScalarCells>,
    /// Whether every constraint is in the fd engine's fragment, once asked.
    fd_fits: std::sync::OnceLock<bool>,
    /// The same puzzle with its constraints split into the parts a person
    /// reasons with ([`Program::in_parts`]), once asked: what steps and
    /// hints reason over. `None` when nothing splits.
    parts: std::sync::OnceLock<Option<Box<CspPuzzle>>>,
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
    let (fd_fits, parts) = (std::sync::OnceLock::new(), std::sync::OnceLock::new());
    Ok(CspPuzzle { model, program, linear: Linear::default(), presolve: true, drawn_cells, fd_fits, parts })
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
        Ok(self.compiled(sat_engine(engine_name)?, ObjectiveUse::Optimize)?.0.cnf)
    }

    fn compiled(&self, engine: Engine, use_: ObjectiveUse) -> Result<(Compiled, f64), Error> {
        let started = Instant::now();
        let compiled =
            compile::compile(&self.model, &self.program, engine.encoding(), use_, (self.linear, self.presolve))?;
        Ok((compiled, Stats::ms(started.elapsed())))
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
            narrowed: None,
            outlined: &[],
        };
        self.drawing(&known)
    }

    /// Facts drawn by the table: forced values as in a solution, the others
    /// as `?` or, in text, their sets, and the sides a loop never takes
    /// crossed.
    fn facts_scene(&self, facts: &CspFacts, sets_as_text: bool) -> Option<Scene> {
        let values = |s: usize| facts.sets.get(&s).map_or(&[][..], Vec::as_slice);
        let known = table::Known {
            values: &values,
            routes: &[],
            crosses: true,
            sets_as_text,
            settled: &[],
            narrowed: None,
            outlined: &[],
        };
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
        // Steps may reason over the parts of the constraints; `explain`
        // names whole constraints, and `facts` needs no rules.
        if wanted == Wanted::STEPS
            && options.parts
            && let Some(parts) = self.in_parts()
        {
            return parts.deduce(options, wanted);
        }
        let engine = sat_engine(options.engine.as_deref())?;
        let setup = match wanted.switchable {
            true => Setup { objective: ObjectiveUse::Group, holder: Holder::Switchable, ..Setup::solving(engine) },
            false => Setup::solving(engine),
        };
        let mut instance = self.prepare(setup, |cnf| options.new_solver(cnf))?;
        let ((encode_ms, compiled), size) = (instance.encoded(), instance.size());
        let mut rules = self.rules(instance.selectors());
        // A fixed scalar's facts are the constant literal: a model that
        // left it false would need one more call to show them possible.
        let truth = instance.encoder().truth();
        instance.solver.add_clause(&[truth]);
        let mut optimum = None;
        let mut assumptions = Vec::new();
        if !wanted.switchable {
            match instance.search()? {
                None => {
                    let built = Built { size, encode_ms, compiled, optimum };
                    return Ok((instance.into_refuted_deductions(), built));
                }
                Some((_, best, _)) => optimum = best,
            }
            assumptions = instance.at_optimum(optimum)?;
        }
        let mut refuted = false;
        if wanted.switchable && wanted.facts && self.program.objective.is_some() {
            // Steps lead to the optimal solutions, the ones `facts` reports:
            // the objective's rule becomes "it takes its best value". With
            // no solution there is no best value; the rules and facts are
            // still built, so that the player's entries are read (and a
            // wrong one refused) before the steps end with the explanation.
            match self.optimum(options)? {
                None => refuted = true,
                Some(best) => {
                    optimum = best;
                    self.objective_at_optimum(&mut instance, &mut rules, best)?;
                }
            }
        }
        let facts = if wanted.facts { self.value_facts(&mut instance)? } else { Vec::new() };
        let at = if wanted.switchable { optimum.map(|v| (rules.len() - 1, v)) } else { None };
        let whole = (!wanted.switchable || at.is_some()).then_some(optimum);
        let judged = self.judged(&rules, instance.selectors());
        let record = instance.record();
        let mut deductions = instance.into_deductions(whole, at);
        deductions.judged = judged;
        deductions.assumptions = assumptions;
        deductions.refuted = refuted;
        // A constraint that fixes shown values to constants is the model's
        // data, such as a given digit: its facts are known from the start.
        deductions.stated = if wanted.switchable { self.givens(&facts) } else { Vec::new() };
        // Switchable, the fixed part is the first group, which only encodes
        // each scalar's domain and defines literals (`instance::hold`).
        deductions.domains_only = wanted.switchable.then_some(truth);
        self.part_reads(&mut rules, &facts);
        deductions.rules = rules;
        deductions.facts = facts;
        if let Some(record) = record {
            deductions.formula = Some(Box::new(move || record.borrow().cnf().clone()));
        }
        Ok((deductions, Built { size, encode_ms, compiled, optimum }))
    }

    /// The rules of the grid globals, which the lazy driver judges while
    /// their selectors are true ([`crate::deduce::Deductions::judged`]):
    /// those whose selector is still their group's (`selectors`, empty
    /// unless switchable), whose clauses and cuts hold it only negated.
    fn judged(&self, rules: &[Rule], selectors: &[Lit]) -> Vec<usize> {
        let mut judged: Vec<usize> = self.program.grids.iter().map(|g| g.group).collect();
        judged.retain(|&g| selectors.get(g).is_some_and(|&s| rules.get(g).is_some_and(|r| r.selector == s)));
        judged.sort_unstable();
        judged.dedup();
        judged
    }

    /// Notes, of each rule that is a part of a split constraint, the facts
    /// it reads: its value taken by each of its scalars.
    fn part_reads(&self, rules: &mut [Rule], facts: &[Fact]) {
        let index: std::collections::HashMap<(usize, i64), usize> =
            facts.iter().enumerate().map(|(f, fact)| ((fact.subject, fact.value), f)).collect();
        for (rule, group) in rules.iter_mut().zip(&self.program.groups) {
            let Some(part) = &group.part else { continue };
            let facts: Option<Vec<usize>> =
                part.scalars.iter().map(|&s| index.get(&(s, part.value)).copied()).collect();
            rule.reads = facts.map(|facts| crate::deduce::Reads { facts, exactly: part.exactly });
        }
    }

    /// The puzzle over its constraints' parts, when some constraint splits.
    fn in_parts(&self) -> Option<&CspPuzzle> {
        let parts = self.parts.get_or_init(|| {
            let program = self.program.in_parts()?;
            Some(Box::new(CspPuzzle {
                model: self.model.clone(),
                program,
                linear: self.linear,
                presolve: self.presolve,
                drawn_cells: self.drawn_cells.clone(),
                fd_fits: std::sync::OnceLock::new(),
                parts: std::sync::OnceLock::from(None),
            }))
        });
        parts.as_deref()
    }

    /// The rules (indices, increasing) that fix shown scalars to constants
    /// and say nothing else ([`ir::fixed_values`]): the givens, known from
    /// the start. Rule `g` is group `g`; the objective's rule comes after
    /// them and is never one.
    fn givens(&self, facts: &[Fact]) -> Vec<usize> {
        let shown: std::collections::HashSet<usize> = facts.iter().map(|f| f.subject).collect();
        let fixes_shown = |group: &Group| {
            ir::fixed_values(&group.expr)
                .is_some_and(|fixed| !fixed.is_empty() && fixed.iter().all(|(scalar, _)| shown.contains(scalar)))
        };
        self.program.groups.iter().enumerate().filter(|(_, g)| fixes_shown(g)).map(|(i, _)| i).collect()
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
        instance: &mut Instance<'_>,
        rules: &mut [Rule],
        best: Option<i64>,
    ) -> Result<(), Error> {
        let objective = instance.reader.compiled.objective.clone();
        let (Some(z), Some(v), Some(rule)) = (objective, best, rules.last_mut()) else {
            return Err(Error::Internal("an optimum without an objective rule".into()));
        };
        let bound = instance.extend(|enc| enc.objective_bound(&z, std::cmp::Ordering::Equal, v))?;
        instance.solver.add_clause(&[!bound, rule.selector]);
        let most = match self.program.objective {
            Some((Sense::Maximize, _)) => "the most",
            _ => "the least",
        };
        rule.selector = bound;
        rule.name = format!("the objective takes {most} value it can: {v}");
        Ok(())
    }

    /// The rules the groups of a switchable instance state, one per
    /// selector: each group of the formula after the first (a constraint
    /// instance, and last, with an objective, "the objective is defined").
    fn rules(&self, selectors: &[Lit]) -> Vec<Rule> {
        let houses = self.model.hints.as_ref().map(|t| t.houses_of(&self.program.groups)).unwrap_or_default();
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
            let cells = self.cells_of(&subjects);
            let house = houses.get(g).cloned().flatten().map(|h| crate::deduce::House {
                kind: h.kind,
                number: h.number,
                label: h.label,
                subjects: h.scalars,
            });
            Rule { selector, name, place: None, line: Some(line), cells, subjects, reads: None, house }
        });
        rules.collect()
    }

    /// The cells of the scalars a constraint reads: where the drawing
    /// table draws them ([`table::ScalarCells::read_by`]), or without a
    /// table, their cells in two-dimensional arrays, counted from each
    /// array's first row and column.
    fn cells_of(&self, scalars: &[usize]) -> Vec<crate::grid::Pos> {
        if let Some(cells) = &self.drawn_cells {
            return cells.read_by(scalars);
        }
        let mut cells: Vec<crate::grid::Pos> = scalars.iter().filter_map(|&s| self.cell_of(s)).collect();
        cells.sort_unstable();
        cells.dedup();
        cells
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
    /// integer's every value, as literals made on the instance's solver.
    fn value_facts(&self, instance: &mut Instance<'_>) -> Result<Vec<Fact>, Error> {
        let mut facts = Vec::new();
        for s in self.shown_scalars() {
            let fact = |lit: Lit, value: i64| {
                let name = render::value_statement(&self.model, s, value);
                let (about, shown) = (self.model.scalar_name(s), render::value_json(&self.model, s, value));
                Fact { lit, name, place: self.cell_of(s), subject: s, value, about, shown }
            };
            if let Some(l) = instance.encoder().scalar_lit(s) {
                facts.extend([fact(!l, 0), fact(l, 1)]);
            } else if let Some(x) = instance.encoder().scalar_int(s) {
                let values: Vec<i64> = instance.encoder().domain(x).values().collect();
                for v in values {
                    facts.push(fact(instance.extend(|enc| enc.eq_lit(x, v))?, v));
                }
            }
        }
        Ok(facts)
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
        use crate::lang::ir::GridKind;
        // These are cut lazily and have no eager form.
        let lazy_only =
            self.program.grids.iter().any(|g| matches!(g.kind, GridKind::Regions | GridKind::GraphAcyclic { .. }));
        if self.program.grids.is_empty() || lazy_only { ENGINES } else { GRID_ENGINES }
    }

    fn compared_engines(&self) -> &'static [&'static str] {
        if self.fd_fits() { FD_ENGINES } else { self.engines() }
    }

    fn solve(&self, options: &SolveOptions) -> Result<SolveReport, Error> {
        if self.runs_on_fd(options.engine.as_deref(), false) {
            return self.solve_fd(options);
        }
        let engine = sat_engine(options.engine.as_deref())?;
        let mut instance = self.prepare(Setup::solving(engine), |cnf| options.new_solver(cnf))?;
        let search: &mut dyn CspEngine = &mut instance;
        let found = search.search()?;
        let cnf = search.settle(options, found.is_none())?;
        let stats = search.stats();
        let (status, solution, objective) = match found {
            None => (Status::NoSolution, None, None),
            Some((values, objective, routes)) => {
                let typed = render::solution(&self.model, &values, objective, &self.shown_routes(&routes));
                let json = serde_json::to_value(&typed).map_err(|e| Error::Internal(e.to_string()))?;
                (Status::Solved, Some(Solution { json, payload: Payload::of(typed) }), objective)
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
        if self.runs_on_fd(options.engine.as_deref(), true) {
            return self.count_fd(options);
        }
        self.count_by_enumeration(options)
    }

    fn facts(&self, options: &SolveOptions) -> Result<FactsReport, Error> {
        let engine = sat_engine(options.engine.as_deref())?;
        let (mut deductions, built) = self.deduce(options, Wanted::FACTS)?;
        let possible = deduce::possible_facts(&mut deductions)?;
        let stats = built.stats(engine, deductions.solver.stats());
        if deductions.refuted {
            let mut json = serde_json::Map::new();
            json.insert("values".into(), serde_json::Value::Null);
            return Ok(FactsReport { status: Status::NoSolution, json, stats, payload: Payload::default() });
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
        Ok(FactsReport { status: Status::Solved, json, stats, payload: Payload::of(typed) })
    }

    fn explain(&self, options: &SolveOptions) -> Result<ExplainReport, Error> {
        let engine = sat_engine(options.engine.as_deref())?;
        let (mut deductions, built) = self.deduce(options, Wanted::EXPLANATION)?;
        let every: Vec<usize> = (0..deductions.rules.len()).collect();
        let kept = deduce::minimal_conflict(&mut deductions, &every)?;
        let mut stats = built.stats(engine, deductions.solver.stats());
        stats.solve_ms = Stats::ms(built.compiled.elapsed());
        let Some(kept) = kept else { return Ok(ExplainReport::solved(stats)) };
        let constraints: Vec<NamedConstraint> =
            kept.iter().map(|&r| NamedConstraint::from(&deductions.rules[r])).collect();
        Ok(ExplainReport::conflict(constraints, stats))
    }

    fn formula(&self, engine: Option<&str>) -> Result<Formula, Error> {
        let engine = sat_engine(engine)?;
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

    /// The shown arrays drawn as text (with the objective), the facts
    /// with a legend, or the puzzle with the explanation's cells outlined;
    /// a listing where the model draws no grid.
    fn text(&self, of: Drawn<'_>) -> Result<Option<String>, Error> {
        Ok(match of {
            Drawn::Solution(SolveReport { solution: Some(solution), .. }) => {
                let typed: &CspSolution = solution.typed()?;
                Some(match self.solution_scene(typed) {
                    Some(scene) => table::text(&scene) + &render::objective_text(typed),
                    None => render::solution_text(&self.model, typed),
                })
            }
            Drawn::Solution(_) => None,
            Drawn::Facts(report) => report.typed::<CspFacts>()?.map(|typed| match self.facts_scene(typed, true) {
                Some(scene) => table::text(&scene) + table::facts_legend(&scene),
                None => render::facts_text(&self.model, typed),
            }),
            Drawn::Explanation(report) if report.status == Status::NoSolution => {
                self.explanation_scene(&report.constraints).map(|scene| {
                    let legend =
                        if scene.outlines.is_empty() { "" } else { "([ ]: the cells these constraints read)\n" };
                    table::text(&scene) + legend
                })
            }
            Drawn::Explanation(_) => None,
        })
    }

    fn deducible(&self) -> Option<&dyn crate::puzzles::Deducible> {
        Some(self)
    }
}

impl crate::puzzles::Deducible for CspPuzzle {
    fn deductions(&self, options: &SolveOptions, wanted: Wanted) -> Result<Deductions<'_>, Error> {
        Ok(self.deduce(options, wanted)?.0)
    }

    fn techniques(&self) -> &[crate::lang::hints::Technique] {
        self.model.hints.as_ref().map_or(&[], |t| &t.techniques)
    }

    fn entries_of_solution(&self, solution: &serde_json::Value) -> Option<Result<Vec<String>, super::StateError>> {
        Some(state::entries(&self.model, solution))
    }

    fn state_file(&self, known: &[super::Entry]) -> Option<serde_json::Value> {
        Some(state::of_entries(&self.model, known))
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
        let mut by_subject: std::collections::HashMap<usize, Vec<(&crate::puzzles::Entry, bool)>> =
            std::collections::HashMap::new();
        for (entry, new) in state.known.iter().map(|e| (e, false)).chain(state.new.iter().map(|e| (e, true))) {
            by_subject.entry(entry.subject).or_default().push((entry, new));
        }
        // What a scalar can take once the entries (the new ones too, or
        // not) have held or ruled out their values.
        let narrowed = |s: usize| {
            let entries = by_subject.get(&s).map_or(&[][..], Vec::as_slice);
            let left = |with_new: bool| -> Vec<i64> {
                let taken = entries.iter().filter(|(_, new)| with_new || !new).map(|(e, _)| *e);
                let mut values: Vec<i64> = self.model.scalar_owner(s).0.domain.values().collect();
                for entry in taken {
                    values.retain(|&v| (v == entry.value) == entry.holds);
                }
                values
            };
            (left(false), left(true))
        };
        let known = table::Known {
            values: &values,
            routes: &[],
            crosses: true,
            sets_as_text: false,
            settled: &settled,
            narrowed: Some(&narrowed),
            outlined: state.outlined,
        };
        let scene = table::scene(&self.model, table, &known);
        let style = table::style(&scene);
        Some((scene, style))
    }
}

//! A planner session: one puzzle's deductions (the search and its
//! re-checking twin) built once and kept across the player's moves, the
//! player's entries with their undo and redo, and the questions a player
//! asks of a state: a hint, the steps from it, which entries cannot be
//! right, how many solutions are left, and the state drawn. `hint` and
//! `steps` are one question asked of a fresh session.
//!
//! The deductions hold solvers that are not `Send` (varisat's is not), so
//! a session lives on the thread that made it; a server keeps each one on
//! a thread of its own and sends it the player's requests. Every request
//! runs under the session's options, whose [`crate::Stop`] token a server
//! renews per request ([`crate::Stop::renewable`]).

use std::time::{Duration, Instant};

use serde::Serialize;

use super::fold::{Folding, Next};
use super::{PlanRequest, Planned, proof, route, techniques};
use crate::deduce::plan::{self, PlanStats, Settled, Start, State, Step, Target};
use crate::deduce::verify::{check_forced, check_step};
use crate::deduce::{Deductions, Wanted};
use crate::draw::Scene;
use crate::puzzles::{Deducible, Entry, Error, NamedConstraint, PlayState, Puzzle, Routed, SolveOptions, Stats};
use crate::report::steps::Figures;
use crate::report::steps::{
    Clash, HintReport, PlanEnd, PlanStatus, PlanTimes, Reveal, ShownFact, ShownRule, ShownStep, ShownTechnique,
    StartState, StepsReport,
};
use crate::solver::{SolveStats, SolverError};

/// A change the player makes to their entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// An entry as `--given` takes it: `x[2,3]=5` gives the thing a value
    /// (in place of any it had), `x[2,3]!=5` rules a value out, and
    /// `moves=R,R,D` are the moves walked.
    Enter(String),
    /// Every entry about a thing, named as the model names it (`x[2,3]`).
    Clear(String),
    /// Every entry.
    ClearAll,
    /// Back to the entries before the last edit.
    Undo,
    /// The edit undone last, made again.
    Redo,
}

/// A planner session over one puzzle: see the module documentation.
pub struct Planner<'p> {
    puzzle: &'p dyn Puzzle,
    options: SolveOptions,
    engine: Engine<'p>,
    pub(super) entries: Vec<String>,
    /// The entries before each edit, the last edit's last.
    done: Vec<Vec<String>>,
    /// The entries before each undo, the last undo's last.
    undone: Vec<Vec<String>>,
}

/// How the puzzle answers: by deductions, or by the legs of a route.
enum Engine<'p> {
    Deduced(&'p dyn Deducible, Option<Box<Built<'p>>>),
    Routed(&'p dyn Routed),
}

/// The deductions, built at the first question and kept.
struct Built<'p> {
    d: Deductions<'p>,
    checker: Deductions<'p>,
    /// When building began: the first question's time counts from there.
    began: Option<Instant>,
    /// The two solvers' counters at the end of the last question.
    counted: (SolveStats, SolveStats),
    /// Per fact, whether it holds in some solution and whether it fails in
    /// some (`None`: no solution at all); found by the first check.
    possible: Option<Option<Vec<[bool; 2]>>>,
    /// What the player enters on the drawing's edges; found at the first
    /// question that asks.
    edges: Option<Vec<EdgeThing>>,
}

/// A thing the player enters on a cell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellThing {
    /// The cell, `(row, col)` from 0.
    pub place: crate::grid::Pos,
    /// The thing, as an entry names it, such as `x[2,3]` or `fan 2`.
    pub name: String,
    /// The values it can take, as entries write them.
    pub values: Vec<serde_json::Value>,
}

/// A thing the player enters on an edge of the drawing: a side of the
/// cells that a line runs along (slitherlink), or a step of a line between
/// the centres of two cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EdgeThing {
    /// `side` (from the corner `at`) or `step` (from the cell `at`).
    pub kind: &'static str,
    /// The corner or the cell it starts from, `(row, col)` from 0.
    pub at: crate::grid::Pos,
    /// `across` (to the right) or `down`, as [`crate::draw::Along`] says.
    pub along: &'static str,
    /// The thing, as an entry names it, such as `across[2,3]`.
    pub name: String,
    /// The values it can take, as entries write them.
    pub values: Vec<serde_json::Value>,
}

/// Which of the player's entries cannot be right, without a word on the
/// values that would be.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CheckReport {
    /// The entries that no solution agrees with, each on its own, named as
    /// the entries' error messages name them.
    pub wrong: Vec<String>,
    /// When every entry could be right alone but no solution agrees with
    /// them all: a few entries that clash, and the rules they break.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clash: Option<Clash>,
    /// Whether the puzzle itself has no solution, entries or none.
    pub no_solution: bool,
}

impl CheckReport {
    /// The check in a sentence or two, for a person.
    pub fn text(&self) -> String {
        if self.no_solution {
            return "the puzzle has no solution, whatever is entered".to_string();
        }
        if !self.wrong.is_empty() {
            let cannot = if self.wrong.len() == 1 { "cannot be right" } else { "cannot be right, each on its own" };
            return format!("{} {cannot}", crate::puzzles::listed(&self.wrong, 12));
        }
        match &self.clash {
            Some(clash) => {
                let rules: Vec<String> = clash.constraints.iter().map(|c| c.name.clone()).collect();
                let because = if rules.is_empty() { String::new() } else { format!(": {}", rules.join("; ")) };
                format!("these entries cannot all be right together: {}{because}", clash.entries.join(", "))
            }
            None => "no entry is wrong so far".to_string(),
        }
    }
}

impl<'p> Planner<'p> {
    /// A session over `puzzle` with no entries; its deductions are built
    /// at the first question. `Unsupported` for a family that gives
    /// neither deductions nor routes.
    pub fn new(puzzle: &'p dyn Puzzle, options: &SolveOptions) -> Result<Planner<'p>, Error> {
        let engine = match (puzzle.routed(), puzzle.deducible()) {
            (Some(routed), _) => Engine::Routed(routed),
            (None, Some(deducible)) => Engine::Deduced(deducible, None),
            (None, None) => return Err(Error::Unsupported { command: "deductions", kind: puzzle.kind() }),
        };
        Ok(Planner {
            puzzle,
            options: options.clone(),
            engine,
            entries: Vec::new(),
            done: Vec::new(),
            undone: Vec::new(),
        })
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &'p dyn Puzzle {
        self.puzzle
    }

    /// The player's entries, as `--given` takes them.
    pub fn entries(&self) -> &[String] {
        &self.entries
    }

    /// Whether there is an edit to undo, and one to redo.
    pub fn can_undo_redo(&self) -> (bool, bool) {
        (!self.done.is_empty(), !self.undone.is_empty())
    }

    /// The entries replaced by `entries`, an edit that can be undone, once
    /// each is read as the puzzle reads `--given` (the error names the
    /// first that is not).
    pub fn set_entries(&mut self, entries: Vec<String>) -> Result<(), Error> {
        if entries == self.entries {
            return Ok(());
        }
        self.read(&entries)?;
        let before = std::mem::replace(&mut self.entries, entries);
        self.done.push(before);
        self.undone.clear();
        Ok(())
    }

    /// Makes `edit`; whether it changed the entries.
    pub fn edit(&mut self, edit: Edit) -> Result<bool, Error> {
        let entries = match edit {
            Edit::Undo => return Ok(self.back(true)),
            Edit::Redo => return Ok(self.back(false)),
            Edit::ClearAll => Vec::new(),
            Edit::Clear(name) => {
                let name = squeeze(&name);
                self.entries.iter().filter(|e| entry_key(e).0 != name).cloned().collect()
            }
            Edit::Enter(entry) => entered(self.entries.clone(), &entry)?,
        };
        let changed = entries != self.entries;
        self.set_entries(entries)?;
        Ok(changed)
    }

    /// Enters each of `entries` in turn as [`Edit::Enter`] does, as one
    /// edit (one undo takes them all back); whether it changed anything.
    pub fn enter_all(&mut self, entries: &[String]) -> Result<bool, Error> {
        let mut after = self.entries.clone();
        for entry in entries {
            after = entered(after, entry)?;
        }
        let changed = after != self.entries;
        self.set_entries(after)?;
        Ok(changed)
    }

    /// Undoes (`undo`) or redoes the last edit; whether there was one.
    fn back(&mut self, undo: bool) -> bool {
        let (from, to) = if undo { (&mut self.done, &mut self.undone) } else { (&mut self.undone, &mut self.done) };
        let Some(entries) = from.pop() else { return false };
        to.push(std::mem::replace(&mut self.entries, entries));
        true
    }

    /// Reads `entries` as the questions will, building the deductions if
    /// need be: the first entry the puzzle cannot read is an error.
    fn read(&mut self, entries: &[String]) -> Result<(), Error> {
        match &mut self.engine {
            Engine::Routed(_) => Ok(()),
            Engine::Deduced(deducible, built) => {
                let deducible = *deducible;
                let (entries, _): (Vec<String>, Vec<String>) = deducible.given_entries(entries)?.into_iter().unzip();
                let built = build(deducible, &self.options, built)?;
                read_givens(&built.d, &entries).map(|_| ())
            }
        }
    }

    /// `steps` from the entries: every step to the end, or to where
    /// `request` stops them. The request's own entries are not read: the
    /// session's stand in their place.
    pub fn steps(&mut self, request: &PlanRequest) -> Result<StepsReport, Error> {
        // One step of any kind is the first step the whole search would
        // take: among the easiest, steps that use no known fact keep the
        // search's order and come first, and a search that stops at the
        // first of them finds it (with every set before it tested alike).
        // On the 20×20 numberlink the whole first search tests 61 paths of
        // 24,400 candidates each, minutes of CPU; the first such set is
        // the first tested.
        let first = request.max_steps == Some(1) && request.next == Next::Any;
        let limits = plan::Limits { first_only: request.limits.first_only || first, ..request.limits };
        let p = self.plan(&PlanRequest { limits, ..request.clone() })?;
        let difficulty = match &p.figures {
            Some(figures) => figures.difficulty(),
            None => crate::report::steps::Difficulty::of(&p.steps),
        };
        let steps = if request.merge { super::merged(p.steps) } else { p.steps };
        Ok(StepsReport { status: p.status, difficulty, steps, state: p.state, end: p.end })
    }

    /// `hint` from the entries: the easiest next step. The request's own
    /// entries are not read, as for [`Planner::steps`].
    pub fn hint(&mut self, request: &PlanRequest, reveal: Reveal) -> Result<HintReport, Error> {
        // Each search stops at its first easiest set: with placements too,
        // whose first can come after many steps (54 searches on the Killer
        // Sudoku, 40 s of CPU when each search tests every set of its size).
        // The placement reached may then differ from `steps`' first.
        let limits = plan::Limits { first_only: true, ..request.limits };
        let request = PlanRequest { max_steps: Some(1), limits, ..request.clone() };
        let p = self.plan(&request)?;
        let step = p.steps.into_iter().next();
        let status = if step.is_some() { PlanStatus::Hint } else { p.status };
        Ok(HintReport { status, step, reveal, end: p.end })
    }

    fn plan(&mut self, request: &PlanRequest) -> Result<Planned, Error> {
        let given = &self.entries;
        match &mut self.engine {
            Engine::Routed(routed) => {
                let legs = routed.route_legs(&self.options, given)?;
                if request.proof.is_some() {
                    return Err(proof::unavailable(self.puzzle.kind()));
                }
                Ok(route::planned(legs, given, request.max_steps))
            }
            Engine::Deduced(deducible, built) => {
                let deducible = *deducible;
                let (entries, labels): (Vec<String>, Vec<String>) = deducible.given_entries(given)?.into_iter().unzip();
                let started = Instant::now();
                let built = build(deducible, &self.options, built)?;
                let started = built.began.take().unwrap_or(started);
                if request.proof.is_some() {
                    proof::available(&built.checker, self.puzzle.kind())?;
                }
                let givens = read_givens(&built.d, &entries)?;
                built.planned(self.puzzle, &self.options, &givens, labels, request, started)
            }
        }
    }

    /// Which entries cannot be right: those no solution agrees with, each
    /// on its own, or else a few that clash together.
    pub fn check(&mut self) -> Result<CheckReport, Error> {
        let given = &self.entries;
        match &mut self.engine {
            Engine::Routed(routed) => {
                let legs = routed.route_legs(&self.options, given)?;
                let mut report = CheckReport::default();
                if let Some((entry, why)) = legs.clash {
                    report.wrong.push(format!("{entry} ({why})"));
                } else if legs.fewest_in_all.is_none() {
                    report.no_solution = legs.fewest_from_start.is_none();
                    if !report.no_solution {
                        let why = legs.explanation.unwrap_or_default();
                        report.clash = Some(Clash { entries: given.clone(), constraints: why });
                    }
                }
                Ok(report)
            }
            Engine::Deduced(deducible, built) => {
                let deducible = *deducible;
                let (entries, labels): (Vec<String>, Vec<String>) = deducible.given_entries(given)?.into_iter().unzip();
                let built = build(deducible, &self.options, built)?;
                let givens = read_givens(&built.d, &entries)?;
                built.check(&givens, &labels).map_err(Error::from)
            }
        }
    }

    /// The values each thing can still take in some solution that agrees
    /// with the entries, as facts `thing = value` in fact order; `None`
    /// when no solution agrees with them. Empty for a route puzzle.
    pub fn candidates(&mut self) -> Result<Option<Vec<ShownFact>>, Error> {
        let given = &self.entries;
        let Engine::Deduced(deducible, built) = &mut self.engine else { return Ok(Some(Vec::new())) };
        let deducible = *deducible;
        let (entries, _): (Vec<String>, Vec<String>) = deducible.given_entries(given)?.into_iter().unzip();
        let built = build(deducible, &self.options, built)?;
        let givens = read_givens(&built.d, &entries)?;
        let Some(possible) = plan::possible_with(&mut built.d, &givens)? else { return Ok(None) };
        let held = possible.iter().enumerate().filter(|&(_, &p)| p);
        Ok(Some(held.map(|(fact, _)| shown_fact(&built.d, Settled { fact, holds: true })).collect()))
    }

    /// The solutions that agree with the entries, counted up to `limit`,
    /// and whether that is all of them. A route puzzle counts 1 while a
    /// route collects every key from the moves walked, else 0.
    pub fn remaining(&mut self, limit: u64) -> Result<(u64, bool), Error> {
        let given = &self.entries;
        match &mut self.engine {
            Engine::Routed(routed) => {
                let legs = routed.route_legs(&self.options, given)?;
                Ok((u64::from(legs.fewest_in_all.is_some() && legs.clash.is_none()), true))
            }
            Engine::Deduced(deducible, built) => {
                let deducible = *deducible;
                let (entries, _): (Vec<String>, Vec<String>) = deducible.given_entries(given)?.into_iter().unzip();
                let built = build(deducible, &self.options, built)?;
                let givens = read_givens(&built.d, &entries)?;
                let mut state = State::new(built.d.facts.len());
                state.apply(&givens);
                Ok(plan::remaining(&mut built.d, &state, limit.max(1))?)
            }
        }
    }

    /// What the player can enter on each cell: per cell, in cell order,
    /// the first thing whose facts stand there and the values it can
    /// take, as entries name them. Empty for a route puzzle, whose entries
    /// are moves.
    pub fn cells(&mut self) -> Result<Vec<CellThing>, Error> {
        let Engine::Deduced(deducible, built) = &mut self.engine else { return Ok(Vec::new()) };
        let built = build(*deducible, &self.options, built)?;
        let mut cells: Vec<CellThing> = Vec::new();
        for fact in &built.d.facts {
            let Some(place) = fact.place else { continue };
            match cells.iter_mut().find(|c| c.place == place) {
                Some(cell) if cell.name == fact.about => {
                    if !cell.values.contains(&fact.shown) {
                        cell.values.push(fact.shown.clone());
                    }
                }
                Some(_) => {}
                None => cells.push(CellThing { place, name: fact.about.clone(), values: vec![fact.shown.clone()] }),
            }
        }
        cells.sort_by_key(|c| c.place);
        Ok(cells)
    }

    /// What the player can enter on the drawing's edges: each thing whose
    /// fact, drawn by the family as a step's new fact, singles out exactly
    /// one side or one step of a line. Found from the family's own
    /// pictures, so the drawing and the entries cannot disagree; empty
    /// where the family draws no state or no lines.
    pub fn edges(&mut self) -> Result<Vec<EdgeThing>, Error> {
        let Engine::Deduced(deducible, built) = &mut self.engine else { return Ok(Vec::new()) };
        let deducible = *deducible;
        let built = build(deducible, &self.options, built)?;
        if let Some(edges) = &built.edges {
            return Ok(edges.clone());
        }
        let mut edges: Vec<EdgeThing> = Vec::new();
        let mut drawn: std::collections::HashMap<&str, Option<usize>> = std::collections::HashMap::new();
        for fact in &built.d.facts {
            if let Some(at) = drawn.get(fact.about.as_str()) {
                if let Some(thing) = at.map(|at| &mut edges[at])
                    && !thing.values.contains(&fact.shown)
                {
                    thing.values.push(fact.shown.clone());
                }
                continue;
            }
            let entry = Entry { subject: fact.subject, value: fact.value, holds: true };
            let state = PlayState { known: &[], new: std::slice::from_ref(&entry), new_shown: false, outlined: &[] };
            let Some((scene, _)) = deducible.state_picture(&state) else { break };
            let along = |a: crate::draw::Along| if a == crate::draw::Along::Across { "across" } else { "down" };
            let sides = scene.edges.iter().filter(|e| e.highlight).map(|e| ("side", e.corner, along(e.along)));
            let steps = scene.links.iter().filter(|l| l.highlight).map(|l| ("step", l.cell, along(l.along)));
            let lines: Vec<_> = sides.chain(steps).collect();
            let at = match lines[..] {
                [(kind, at, along)] => {
                    let values = vec![fact.shown.clone()];
                    edges.push(EdgeThing { kind, at, along, name: fact.about.clone(), values });
                    Some(edges.len() - 1)
                }
                _ => None,
            };
            drawn.insert(&fact.about, at);
        }
        built.edges = Some(edges.clone());
        Ok(edges)
    }

    /// The entries as a state file that `--given FILE` reads back (JSON in
    /// the shape of `solve`'s solution); `None` where the family takes no
    /// state file (a route puzzle's entries are its moves).
    pub fn state_file(&mut self) -> Result<Option<serde_json::Value>, Error> {
        let given = &self.entries;
        let Engine::Deduced(deducible, built) = &mut self.engine else { return Ok(None) };
        let deducible = *deducible;
        let (entries, _): (Vec<String>, Vec<String>) = deducible.given_entries(given)?.into_iter().unzip();
        let built = build(deducible, &self.options, built)?;
        let known: Vec<Entry> = read_givens(&built.d, &entries)?
            .iter()
            .map(|g| {
                let fact = &built.d.facts[g.fact];
                Entry { subject: fact.subject, value: fact.value, holds: g.holds }
            })
            .collect();
        Ok(deducible.state_file(&known))
    }

    /// The puzzle with the entries written in, drawn as `hint --format
    /// svg` draws a state (a route puzzle: as drawn with no answer).
    pub fn scene(&mut self) -> Result<Scene, Error> {
        let given = &self.entries;
        let (known, extent) = match &mut self.engine {
            Engine::Routed(_) => (Vec::new(), (0, 0)),
            Engine::Deduced(deducible, built) => {
                let deducible = *deducible;
                let (entries, _): (Vec<String>, Vec<String>) = deducible.given_entries(given)?.into_iter().unzip();
                let built = build(deducible, &self.options, built)?;
                let givens = read_givens(&built.d, &entries)?;
                (givens.iter().map(|&g| shown_fact(&built.d, g)).collect(), extent(&built.d))
            }
        };
        crate::report::picture::state_picture(self.puzzle, extent, &known)
    }
}

/// The deductions of `built`, built now if they are not yet.
fn build<'b, 'p>(
    deducible: &'p dyn Deducible,
    options: &SolveOptions,
    built: &'b mut Option<Box<Built<'p>>>,
) -> Result<&'b mut Built<'p>, Error> {
    if let Some(built) = built {
        return Ok(built);
    }
    let began = Instant::now();
    let d = deducible.deductions(options, Wanted::STEPS)?;
    let checker = deducible.deductions(options, Wanted::STEPS)?;
    same_shape(&d, &checker)?;
    let fresh = Built { d, checker, began: Some(began), counted: Default::default(), possible: None, edges: None };
    Ok(built.insert(Box::new(fresh)))
}

/// A's counters since B.
fn since(a: SolveStats, b: SolveStats) -> SolveStats {
    SolveStats {
        sat_calls: a.sat_calls.saturating_sub(b.sat_calls),
        solve_time: a.solve_time.saturating_sub(b.solve_time),
        cuts: a.cuts.saturating_sub(b.cuts),
    }
}

/// Given entries (indices into the request's) and rules that cannot all
/// hold; no entries when the puzzle itself has no solution.
type Conflict = (Vec<usize>, Vec<usize>);

/// Where the steps' proofs go, and the first failure to write one.
struct Proofs<'a> {
    file: Option<&'a std::path::Path>,
    config: &'a crate::solver::SolverConfig,
    error: Option<Error>,
}

impl Built<'_> {
    /// The steps from `givens` (read from the entries labelled `labels`),
    /// with how they ended and what they cost since `started`.
    fn planned(
        &mut self,
        puzzle: &dyn Puzzle,
        options: &SolveOptions,
        givens: &[Settled],
        labels: Vec<String>,
        request: &PlanRequest,
        started: Instant,
    ) -> Result<Planned, Error> {
        let mut walk = Walk {
            d: &mut self.d,
            checker: &mut self.checker,
            request,
            planned: Planned {
                status: PlanStatus::Unknown,
                steps: Vec::new(),
                state: Vec::new(),
                end: PlanEnd {
                    start: StartState { entries: labels.clone(), ..StartState::default() },
                    ..PlanEnd::default()
                },
                figures: Some(Figures::default()),
            },
            stats: PlanStats::default(),
            check_time: Duration::ZERO,
            proofs: Proofs { file: request.proof.as_deref(), config: &options.solver, error: None },
            memo: plan::Memo::default(),
            folding: Folding::default(),
            techniques: puzzle.deducible().map(|p| p.techniques()).unwrap_or_default(),
            values: std::collections::HashMap::new(),
        };
        if !walk.techniques.is_empty() {
            walk.values = techniques::values_of(walk.d);
        }
        walk.planned.end.extent = extent(walk.d);
        let result = walk.run(givens);
        if let Some(e) = walk.proofs.error.take() {
            return Err(e);
        }
        let Walk { mut planned, stats, check_time, .. } = walk;
        match result {
            Ok(Some((given, rules))) => {
                if given.is_empty() {
                    let explained = puzzle.explain(options)?;
                    planned.end.explanation = Some(explained.constraints);
                } else {
                    planned.end.clash = Some(Clash {
                        entries: given.iter().map(|&g| labels.get(g).cloned().unwrap_or_default()).collect(),
                        constraints: rules.iter().map(|&r| NamedConstraint::from(&self.d.rules[r])).collect(),
                    });
                }
                planned.status = PlanStatus::NoSolution;
                planned.end.remaining = Some(0);
                planned.end.remaining_complete = true;
            }
            Ok(None) => {}
            Err(SolverError::Stopped(cause)) => {
                planned.status = PlanStatus::Unknown;
                planned.end.stopped = Some(format!("stopped before the end: {cause}"));
            }
            Err(e) => return Err(e.into()),
        }
        let now = (self.d.solver.stats(), self.checker.solver.stats());
        let (solver_stats, checker_stats) = (since(now.0, self.counted.0), since(now.1, self.counted.1));
        self.counted = now;
        let engine = options.engine.as_deref().unwrap_or(puzzle.engines()[0]);
        let mut run = Stats::of_sat_size(engine, (0, 0), solver_stats, 0.0);
        run.sat_calls += checker_stats.sat_calls;
        run.solve_ms = Stats::ms(started.elapsed());
        planned.end.stats = PlanTimes {
            run,
            searches: stats.searches,
            sets_tested: stats.sets_tested,
            fallbacks: stats.fallbacks,
            candidates_per_search: if stats.searches == 0 {
                0.0
            } else {
                stats.candidates as f64 / stats.searches as f64
            },
            max_candidates: stats.max_candidates,
            set_search_ms: Stats::ms(stats.set_search),
            fallback_ms: Stats::ms(stats.fallback),
            used_ms: Stats::ms(stats.used),
            check_ms: Stats::ms(check_time),
            untested_within_upto: stats.untested_within_upto,
        };
        Ok(planned)
    }

    /// [`Planner::check`] on the deductions.
    fn check(&mut self, givens: &[Settled], labels: &[String]) -> Result<CheckReport, SolverError> {
        let possible = match &self.possible {
            Some(possible) => possible.clone(),
            None => {
                let found = plan::possible_settled(&mut self.d)?;
                self.possible.insert(found).clone()
            }
        };
        let Some(possible) = possible else {
            return Ok(CheckReport { no_solution: true, ..CheckReport::default() });
        };
        let mut report = CheckReport::default();
        for (i, g) in givens.iter().enumerate() {
            if !possible[g.fact][usize::from(g.holds)] {
                let label = labels.get(i).cloned().unwrap_or_default();
                if !report.wrong.contains(&label) {
                    report.wrong.push(label);
                }
            }
        }
        if report.wrong.is_empty()
            && !givens.is_empty()
            && let Start::Clash(given, rules) = plan::start(&mut self.d, givens, &mut plan::Memo::default())?
        {
            report.clash = Some(Clash {
                entries: given.iter().map(|&g| labels.get(g).cloned().unwrap_or_default()).collect(),
                constraints: rules.iter().map(|&r| NamedConstraint::from(&self.d.rules[r])).collect(),
            });
        }
        Ok(report)
    }
}

/// The planner's loop over one question: what it fills in as it goes.
struct Walk<'a, 'p> {
    d: &'a mut Deductions<'p>,
    checker: &'a mut Deductions<'p>,
    request: &'a PlanRequest,
    planned: Planned,
    stats: PlanStats,
    check_time: Duration,
    proofs: Proofs<'a>,
    memo: plan::Memo,
    folding: Folding,
    /// The techniques the model names, and each subject's values, to name
    /// the steps shown.
    techniques: &'a [crate::lang::hints::Technique],
    values: std::collections::HashMap<usize, Vec<i64>>,
}

impl Walk<'_, '_> {
    /// Steps until none is left, re-checking each; fills `planned`, or
    /// returns the clash of givens and rules when no solution agrees with
    /// the givens.
    fn run(&mut self, givens: &[Settled]) -> Result<Option<Conflict>, SolverError> {
        if self.d.refuted {
            return Ok(Some((Vec::new(), Vec::new())));
        }
        let (target, mut state) = match plan::start(self.d, givens, &mut self.memo)? {
            Start::Clash(given, rules) => return Ok(Some((given, rules))),
            Start::Ready(target, state, model) => {
                let valued = model.iter().filter(|s| s.holds).map(|s| self.d.facts[s.fact].subject);
                self.planned.end.start.given_values = valued.collect::<std::collections::HashSet<_>>().len();
                (target, state)
            }
        };
        let d = &*self.d;
        self.planned.end.start.givens = d.stated.iter().map(|&r| shown_rule(&d.rules[r])).collect();
        self.planned.end.start.facts = fixed_values(d, &state);
        let mut taken = 0;
        let mut searches = 0;
        'outer: loop {
            let request = self.request;
            searches += 1;
            let hint = request.max_steps == Some(1) && request.next == Next::Placement;
            if hint && searches > HINT_SEARCHES {
                // No placement yet: the first step found is the hint.
                break;
            }
            let found = plan::next_steps(
                self.d,
                &target,
                &state,
                request.upto,
                &request.limits,
                &mut self.memo,
                &mut self.stats,
            )?;
            if found.is_empty() {
                break;
            }
            for (i, step) in found.into_iter().enumerate() {
                // The first step is found in this state; a later one, in the
                // state before the first, so it is derived again here.
                let step = match i {
                    0 => step,
                    _ => match plan::shown_in(self.d, &target, &state, &step, &mut self.memo, &mut self.stats)? {
                        Some(step) => step,
                        None => continue 'outer,
                    },
                };
                if step.facts.is_empty() {
                    continue;
                }
                let shown = match self.take(&step, taken)? {
                    Some(shown) => shown,
                    None => return Ok(None),
                };
                state.apply(&step.facts);
                plan::taken(self.d, &step, &mut self.memo)?;
                taken += usize::from(shown);
                if request.max_steps.is_some_and(|m| taken >= m) {
                    break 'outer;
                }
            }
        }
        if self.planned.steps.is_empty() {
            // No placement was reached: the steps taken are shown as they
            // are, so that what can be deduced is not hidden.
            let most = self.request.max_steps.unwrap_or(usize::MAX);
            let unshown: Vec<Step> = self.folding.unshown().take(most).cloned().collect();
            for step in &unshown {
                let technique = self.named(step).technique;
                if !self.show(step, Vec::new(), self.planned.steps.len(), technique)? {
                    return Ok(None);
                }
            }
        }
        self.planned.state = fixed_values(self.d, &state);
        finish(self.d, &target, &state, self.request, &mut self.planned)?;
        Ok(None)
    }

    /// Re-checks `step` and shows it, or with `--next placement` the
    /// placement it makes with the steps it needs folded in; whether a step
    /// was shown, `None` when its proof could not be written (the error is
    /// kept).
    fn take(&mut self, step: &Step, taken: usize) -> Result<Option<bool>, SolverError> {
        let started = Instant::now();
        check_step(self.checker, step)?;
        self.check_time += started.elapsed();
        // The figures count every step, and fold placements whichever are
        // shown, so that both ways of showing rate a puzzle alike.
        let folded = self.folding.record(self.d, step);
        if let Some(figures) = &mut self.planned.figures {
            figures.took(step.size(), weight(step));
            if let Some(folded) = &folded {
                figures.placed(folded.step.size(), weight(&folded.step));
            }
        }
        if self.request.next == Next::Any {
            let technique = self.named(step).technique;
            return Ok(self.show(step, Vec::new(), taken, technique)?.then_some(true));
        }
        let Some(folded) = folded else { return Ok(Some(false)) };
        let started = Instant::now();
        check_forced(self.checker, &folded.step)?;
        self.check_time += started.elapsed();
        let via = match folded.via.len() {
            1 => Vec::new(),
            _ => folded.via.iter().map(|s| self.named(s)).collect(),
        };
        // The placement is named as its last step found it, with the facts
        // the earlier ones found.
        let technique = folded.via.last().and_then(|last| self.named(last).technique);
        Ok(self.show(&folded.step, via, taken, technique)?.then_some(true))
    }

    /// `step` as shown, named when the model names its shape.
    fn named(&self, step: &Step) -> ShownStep {
        let mut shown = shown_step(self.d, step);
        shown.technique = techniques::name(self.d, &self.values, self.techniques, step);
        shown
    }

    /// Writes `step`'s proof when asked and shows it, with the steps it
    /// needs (`via`); false when its proof could not be written (the error
    /// is kept).
    fn show(
        &mut self,
        step: &Step,
        via: Vec<ShownStep>,
        taken: usize,
        technique: Option<ShownTechnique>,
    ) -> Result<bool, SolverError> {
        let mut shown = shown_step(self.d, step);
        shown.via = via;
        shown.technique = technique;
        if let Some(file) = self.proofs.file {
            let number = (self.request.max_steps != Some(1)).then_some(taken + 1);
            match proof::write(self.checker, step, self.proofs.config, proof::paths(file, number)) {
                Ok(written) => shown.proof = Some(written),
                Err(e) => {
                    self.proofs.error = Some(e);
                    return Ok(false);
                }
            }
        }
        self.planned.steps.push(shown);
        Ok(true)
    }
}

/// The most searches a hint with `--next placement` makes for a placement
/// before it gives the first step found instead. A Sudoku's first
/// placement takes one or two searches (one finds every step of its
/// size); the Killer Sudoku's, 45 (25 s of CPU, against 0.2 s for its
/// first step).
const HINT_SEARCHES: usize = 6;

/// The status at the end, and the solutions left.
fn finish(
    d: &mut Deductions<'_>,
    target: &Target,
    state: &State,
    request: &PlanRequest,
    planned: &mut Planned,
) -> Result<(), SolverError> {
    let open = plan::open_facts(target, state);
    if !open.is_empty() {
        planned.status = PlanStatus::Partial;
        return Ok(());
    }
    let (count, complete) = plan::remaining(d, state, request.count_limit.max(2))?;
    planned.end.remaining = Some(count);
    planned.end.remaining_complete = complete;
    planned.status = match count {
        0 => return Err(SolverError::ModelRejected("the steps reached a state that no solution agrees with".into())),
        1 if complete => PlanStatus::Solved,
        _ => PlanStatus::GuessNeeded,
    };
    Ok(())
}

/// The search and the checker must speak of the same rules and facts, as
/// the step's indices pass from one to the other.
fn same_shape(d: &Deductions<'_>, checker: &Deductions<'_>) -> Result<(), Error> {
    let same_rules =
        d.rules.len() == checker.rules.len() && d.rules.iter().zip(&checker.rules).all(|(a, b)| a.name == b.name);
    let same_facts =
        d.facts.len() == checker.facts.len() && d.facts.iter().zip(&checker.facts).all(|(a, b)| a.name == b.name);
    if same_rules && same_facts {
        Ok(())
    } else {
        Err(Error::Internal("two builds of the same puzzle's deductions differ".into()))
    }
}

/// The rows and columns the facts' cells span.
fn extent(d: &Deductions<'_>) -> (usize, usize) {
    let places = d.facts.iter().filter_map(|f| f.place);
    places.fold((0, 0), |(rows, cols), (r, c)| (rows.max(r + 1), cols.max(c + 1)))
}

pub(super) fn shown_fact(d: &Deductions<'_>, s: Settled) -> ShownFact {
    let fact = &d.facts[s.fact];
    ShownFact {
        var: fact.about.clone(),
        op: if s.holds { "=" } else { "!=" },
        value: fact.shown.clone(),
        place: fact.place,
        entry: Some(Entry { subject: fact.subject, value: fact.value, holds: s.holds }),
    }
}

fn shown_rule(rule: &crate::deduce::Rule) -> ShownRule {
    ShownRule { name: rule.name.clone(), line: rule.line, cells: rule.cells.clone() }
}

/// A step's weight: its rules and the known facts it uses, as
/// Demystify weighs a step by the size of its minimal unsatisfiable set.
fn weight(step: &Step) -> usize {
    step.size() + step.using.len()
}

fn shown_step(d: &Deductions<'_>, step: &Step) -> ShownStep {
    let because = step.because.iter().map(|&r| shown_rule(&d.rules[r]));
    ShownStep {
        facts: step.facts.iter().map(|&f| shown_fact(d, f)).collect(),
        because: because.collect(),
        using: step.using.iter().map(|&f| shown_fact(d, f)).collect(),
        size: step.size(),
        weight: weight(step),
        smallest: step.smallest,
        using_minimal: step.using_minimal,
        note: None,
        merged: None,
        walk: None,
        proof: None,
        technique: None,
        via: Vec::new(),
    }
}

/// The facts known, either way, in fact order: what `--given` takes back.
fn fixed_values(d: &Deductions<'_>, state: &State) -> Vec<ShownFact> {
    state.settled().into_iter().map(|s| shown_fact(d, s)).collect()
}

/// The player's entries as facts: `thing=value` or `thing!=value`, the
/// thing as the model names it (spaces ignored), the value as `solve`
/// writes it.
fn read_givens(d: &Deductions<'_>, given: &[String]) -> Result<Vec<Settled>, Error> {
    let value_text = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut settled = Vec::new();
    for entry in given {
        let (about, holds, value) = match entry.split_once("!=") {
            Some((a, v)) => (a, false, v),
            None => match entry.split_once('=') {
                Some((a, v)) => (a, true, v),
                None => {
                    return Err(Error::BadRequest(format!(
                        "--given {entry:?}: expected NAME=VALUE or NAME!=VALUE, such as x[2,3]=5"
                    )));
                }
            },
        };
        // Matched without spaces; echoed as given.
        let (shown_about, shown_value) = (about.trim(), value.trim());
        let (about, value) = (squeeze(about), squeeze(value));
        let of_thing: Vec<usize> = (0..d.facts.len()).filter(|&f| squeeze(&d.facts[f].about) == about).collect();
        if of_thing.is_empty() {
            let mut names: Vec<String> = d.facts.iter().map(|f| f.about.clone()).collect();
            names.dedup();
            let names = crate::puzzles::listed(&names, 6);
            return Err(Error::BadRequest(format!(
                "--given {entry:?}: nothing is named {shown_about:?}; expected one of {names}"
            )));
        }
        let Some(&fact) = of_thing.iter().find(|&&f| squeeze(&value_text(&d.facts[f].shown)) == value) else {
            let values: Vec<String> = of_thing.iter().map(|&f| value_text(&d.facts[f].shown)).collect();
            let values = crate::puzzles::listed(&values, 12);
            let named = &d.facts[of_thing[0]].about;
            return Err(Error::BadRequest(format!(
                "--given {entry:?}: {shown_value:?} is not a value of {named}; expected one of {values}"
            )));
        };
        settled.push(Settled { fact, holds });
    }
    Ok(settled)
}

/// `entries` with `entry` entered: a value given replaces the thing's
/// value; a value ruled out is one more entry, unless it is there already.
fn entered(entries: Vec<String>, entry: &str) -> Result<Vec<String>, Error> {
    let (name, holds) = entry_key(entry);
    if name.is_empty() || !entry.contains('=') {
        return Err(Error::BadRequest(format!(
            "entry {entry:?}: expected NAME=VALUE or NAME!=VALUE, such as x[2,3]=5"
        )));
    }
    let same = |e: &String| match holds {
        true => entry_key(e) == (name.clone(), true),
        false => squeeze(e) == squeeze(entry),
    };
    let mut entries: Vec<String> = entries.into_iter().filter(|e| !same(e)).collect();
    entries.push(entry.trim().to_string());
    Ok(entries)
}

/// `s` without its spaces: how entries and names are matched.
fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// What an entry is about (without spaces) and whether it gives a value
/// (`=`) rather than ruling one out (`!=`).
fn entry_key(entry: &str) -> (String, bool) {
    match entry.split_once("!=") {
        Some((about, _)) => (squeeze(about), false),
        None => (squeeze(entry.split_once('=').map_or(entry, |(about, _)| about)), true),
    }
}

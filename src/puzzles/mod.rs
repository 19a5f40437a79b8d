//! The puzzle families, each in its own module, behind the [`Puzzle`] trait.
//!
//! A family turns a model file into a validated puzzle, and the puzzle knows
//! how to solve, count and check itself. Adding a family means adding its
//! module and one line to [`FAMILIES`].

#[macro_use]
mod engines;

pub mod compare;
pub mod csp;
pub mod design;
pub mod fans;
pub mod keys_doors;
pub mod tile_cover;

use std::any::{Any, type_name};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::cnf::Cnf;
use crate::deduce::{Deductions, Rule, Wanted};
use crate::draw::Scene;
use crate::model::{LoadError, Problem, Source};
use crate::solver::{Answer, Progress, ProofFormat, Solve, SolveStats, SolverConfig, SolverError, StopCause};

/// The verdict on a puzzle.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A solution was found and passed the independent check.
    Solved,
    /// It is proven that there is no solution.
    NoSolution,
    /// No verdict was reached.
    Unknown,
}

/// Sizes and times of one run, for reports and comparisons.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    /// The encoding or engine that ran.
    pub engine: String,
    /// Variables in the CNF (0 for engines without one).
    pub variables: usize,
    /// Clauses in the CNF (0 for engines without one).
    pub clauses: usize,
    /// SAT calls made.
    pub sat_calls: u64,
    /// Time spent building the encoding, in milliseconds.
    pub encode_ms: f64,
    /// Time spent solving, in milliseconds.
    pub solve_ms: f64,
}

impl Stats {
    /// The stats of a SAT run: the formula's size and the solver's counters.
    pub fn of_sat_run(engine: &str, cnf: &Cnf, solver: SolveStats, encode_ms: f64) -> Stats {
        Stats::of_sat_size(engine, (cnf.num_vars(), cnf.num_clauses()), solver, encode_ms)
    }

    /// [`Stats::of_sat_run`] for a formula known by its size, `(variables, clauses)`.
    pub fn of_sat_size(
        engine: &str,
        (variables, clauses): (usize, usize),
        solver: SolveStats,
        encode_ms: f64,
    ) -> Stats {
        Stats {
            engine: engine.to_string(),
            variables,
            clauses,
            sat_calls: solver.sat_calls,
            encode_ms,
            solve_ms: Stats::ms(solver.solve_time),
        }
    }

    /// Records a duration in the millisecond fields' unit.
    pub fn ms(duration: Duration) -> f64 {
        (duration.as_secs_f64() * 1_000_000.0).round() / 1000.0
    }
}

/// A solution in the puzzle's own terms, ready to print.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The machine-readable form, the `solution` member of the JSON output.
    pub json: serde_json::Value,
    /// The drawing and listing for a person.
    pub text: String,
    /// The family's typed answer, which its picture is drawn from.
    pub payload: Payload,
}

/// A solution is written as its JSON form.
impl Serialize for Solution {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(serializer)
    }
}

impl Solution {
    /// A solution from a family's typed answer and the text drawn from it;
    /// the answer is kept as the payload.
    ///
    /// ```
    /// #[derive(Clone, serde::Serialize)]
    /// struct Answer { steps: u64 }
    /// let solution = somaria::puzzles::Solution::of(&Answer { steps: 3 }, "3 steps".to_string());
    /// assert_eq!(solution.json["steps"], 3);
    /// assert_eq!(solution.typed::<Answer>().unwrap().steps, 3);
    /// assert!(solution.typed::<u64>().is_err());
    /// ```
    pub fn of<T: Serialize + Clone + Send + Sync + 'static>(answer: &T, text: String) -> Solution {
        let json =
            serde_json::to_value(answer).unwrap_or_else(|e| serde_json::json!({ "unserializable": e.to_string() }));
        Solution { json, text, payload: Payload::of(answer.clone()) }
    }

    /// The family's typed answer; an internal error when the solution
    /// carries none, or one of another type.
    pub fn typed<T: Any>(&self) -> Result<&T, Error> {
        self.payload.get()?.ok_or_else(|| Error::Internal(format!("a solution carries no {}", type_name::<T>())))
    }
}

/// Two solutions are equal when their JSON and text are: the payload is
/// the answer both were made from.
impl PartialEq for Solution {
    fn eq(&self, other: &Solution) -> bool {
        self.json == other.json && self.text == other.text
    }
}

/// A family's typed report (its solution or facts), carried beside the JSON
/// so that the family can draw it again without reading its own output
/// back. A report made outside the family, such as that of a run stopped
/// by a time limit, carries none.
#[derive(Clone, Default)]
pub struct Payload(Option<(Arc<dyn Any + Send + Sync>, &'static str)>);

impl Payload {
    /// A payload holding `value`.
    pub fn of<T: Any + Send + Sync>(value: T) -> Payload {
        Payload(Some((Arc::new(value), type_name::<T>())))
    }

    /// The value, when there is one; an internal error when it is not a `T`.
    ///
    /// ```
    /// use somaria::puzzles::{Error, Payload};
    /// let payload = Payload::of(3u8);
    /// assert_eq!(payload.get::<u8>().unwrap(), Some(&3));
    /// assert!(matches!(payload.get::<i64>(), Err(Error::Internal(_))));
    /// assert_eq!(Payload::default().get::<u8>().unwrap(), None);
    /// ```
    pub fn get<T: Any>(&self) -> Result<Option<&T>, Error> {
        let Some((value, held)) = &self.0 else { return Ok(None) };
        let message = || format!("a report carries a {held} where a {} was expected", type_name::<T>());
        value.downcast_ref().map(Some).ok_or_else(|| Error::Internal(message()))
    }
}

impl std::fmt::Debug for Payload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some((_, held)) => write!(f, "Payload({held})"),
            None => f.write_str("Payload(none)"),
        }
    }
}

/// The formula an engine hands to the SAT solver first, built without
/// solving, for `somaria encode`.
#[derive(Clone, Debug)]
pub struct Formula {
    /// The CNF, with its named groups and variables.
    pub cnf: Cnf,
    /// The engine that built it.
    pub engine: &'static str,
    /// Whether the formula has a model exactly when the puzzle has a
    /// solution. A lazy engine's starting formula leaves a constraint out
    /// (it has a model whenever the puzzle has a solution, but maybe more);
    /// [`Formula::notes`] says which.
    pub equisatisfiable: bool,
    /// What a reader of the file should know, one line each: written as
    /// DIMACS comments.
    pub notes: Vec<String>,
}

/// The outcome of [`Puzzle::solve`]. Its JSON (with the `kind`, through
/// [`crate::report::Report`]) is the `solve` output's contract.
#[derive(Clone, Debug, Serialize)]
pub struct SolveReport {
    /// The verdict.
    pub status: Status,
    /// The checked solution, when the status is [`Status::Solved`].
    pub solution: Option<Solution>,
    /// Why there is no solution, in the puzzle's words, when that is known.
    pub explanation: Option<String>,
    /// The quantity the puzzle minimises (such as steps), when it has one;
    /// engines that agree must agree on it.
    #[serde(skip)]
    pub cost: Option<u64>,
    /// The value of the model's objective (csp `minimize`/`maximize`) in
    /// the solution, proven optimal, when the model has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective: Option<i64>,
    /// What reached the verdict.
    #[serde(skip)]
    pub decided_by: DecidedBy,
    /// Sizes and times.
    pub stats: Stats,
    /// The CNF that was solved, when [`SolveOptions::keep_cnf`] asked for it.
    #[serde(skip)]
    pub cnf: Option<Cnf>,
}

/// What reached a verdict, which says what kind of evidence backs it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DecidedBy {
    /// The SAT solver; a "no solution" comes with a refutation proof when one
    /// was asked for.
    Sat,
    /// Reasoning before SAT, such as a colour count; the explanation is its
    /// certificate.
    Presolve,
    /// An exact search outside SAT, such as breadth-first search.
    Search,
    /// A solution built directly (such as a serpentine route) and checked
    /// like any other; it proves a solution exists, and nothing more.
    Construction,
}

/// The outcome of [`Puzzle::count`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CountReport {
    /// Distinct solutions found, each checked; `u64::MAX` when saturated.
    pub count: u64,
    /// True when the true count exceeds `u64::MAX`, so `count` is a floor.
    /// Counts are never wrapped.
    pub saturated: bool,
    /// False when the limit stopped the enumeration early.
    pub complete: bool,
    /// Sizes and times.
    pub stats: Stats,
    /// What cut the count short, when it was not the limit but a stop of
    /// the whole run (a time limit), as a command line reports it.
    #[serde(skip)]
    pub stopped: Option<String>,
}

impl CountReport {
    /// The report of an exact count ([`CountMethod::Exact`]), which knows
    /// the whole count at once: a count past the limit is cut to it, as an
    /// enumeration stops there, and one past `u64::MAX` is saturated. The
    /// count shown is recorded in `options.progress`.
    pub fn exact(count: u128, options: &CountOptions, stats: Stats) -> CountReport {
        let complete = options.limit.is_none_or(|limit| count <= u128::from(limit));
        let shown = match options.limit {
            Some(limit) if !complete => limit,
            _ => u64::try_from(count).unwrap_or(u64::MAX),
        };
        options.progress.set_solutions(shown);
        CountReport {
            count: shown,
            complete,
            saturated: count > u128::from(u64::MAX) && complete,
            stats,
            stopped: None,
        }
    }
}

/// Where a refutation proof goes: a writer, opened only when a proof is
/// written (when SAT refutes the puzzle), so nothing is made for a puzzle
/// with a solution. Any closure that returns a writer is one; the command
/// line's opens a file, a server's may fill a buffer.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use somaria::puzzles::{ProofRequest, SolveOptions};
/// use somaria::solver::ProofFormat;
///
/// /// A proof kept in memory.
/// #[derive(Clone, Default)]
/// struct Kept(Arc<Mutex<Vec<u8>>>);
/// impl std::io::Write for Kept {
///     fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
///         self.0.lock().unwrap().extend_from_slice(bytes);
///         Ok(bytes.len())
///     }
///     fn flush(&mut self) -> std::io::Result<()> {
///         Ok(())
///     }
/// }
///
/// let kept = Kept::default();
/// let sink = kept.clone();
/// let proof = ProofRequest::new(ProofFormat::Drat, move || -> std::io::Result<Box<dyn std::io::Write + Send>> {
///     Ok(Box::new(sink.clone()))
/// });
/// // Three queens on a 3×3 board: no solution, refuted by SAT.
/// let text = std::fs::read_to_string("models/csp/queens.toml").unwrap().replace("n = 8", "n = 3");
/// let puzzle = somaria::load_str("queens-3.toml", &text).unwrap();
/// let options = SolveOptions { skip_presolve: true, proof: Some(proof), ..SolveOptions::default() };
/// assert_eq!(puzzle.solve(&options).unwrap().status, somaria::Status::NoSolution);
/// assert!(kept.0.lock().unwrap().ends_with(b"0\n"), "a DRAT refutation ends with the empty clause");
/// ```
pub trait ProofSink: Send + Sync {
    /// A writer for the proof.
    fn open(&self) -> std::io::Result<Box<dyn std::io::Write + Send>>;
}

impl<F: Fn() -> std::io::Result<Box<dyn std::io::Write + Send>> + Send + Sync> ProofSink for F {
    fn open(&self) -> std::io::Result<Box<dyn std::io::Write + Send>> {
        self()
    }
}

/// Where to write a refutation proof, and in which format.
#[derive(Clone)]
pub struct ProofRequest {
    /// Where the proof goes; the caller decides what to do with it
    /// afterwards.
    pub sink: Arc<dyn ProofSink>,
    /// The format.
    pub format: ProofFormat,
}

impl ProofRequest {
    /// A proof in `format`, written to the writer `sink` opens.
    pub fn new(format: ProofFormat, sink: impl ProofSink + 'static) -> ProofRequest {
        ProofRequest { sink: Arc::new(sink), format }
    }
}

impl std::fmt::Debug for ProofRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProofRequest").field("format", &self.format).finish_non_exhaustive()
    }
}

/// Options for [`Puzzle::solve`].
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// The encoding or engine by name; `None` picks the family's default.
    pub engine: Option<String>,
    /// Return the CNF that was solved, for DIMACS output.
    pub keep_cnf: bool,
    /// Skip any reasoning the family does before SAT, so that the SAT
    /// encoding alone gives the verdict.
    pub skip_presolve: bool,
    /// Write the main solver's proof here.
    pub proof: Option<ProofRequest>,
    /// Live counters for a progress display or a time limit.
    pub progress: Arc<Progress>,
    /// The SAT backend, and when every search of the run must stop.
    pub solver: SolverConfig,
}

impl SolveOptions {
    /// A solver of [`SolveOptions::solver`] for a family's SAT search,
    /// holding `cnf` and counting its calls and growth in
    /// [`SolveOptions::progress`].
    pub fn new_solver(&self, cnf: &Cnf) -> Box<dyn Solve> {
        self.solver.new_solver(cnf, Some(self.progress.clone()))
    }

    /// The formula a solve reports, built by `formula` only when something
    /// needs it: refuted once more for the proof when `refuted` and a proof
    /// was asked for, and returned when [`SolveOptions::keep_cnf`] asked for
    /// it (for `--dimacs`). Every family's solve ends with this, so the proof
    /// and the DIMACS file always describe the same formula.
    pub fn settle_formula(&self, refuted: bool, formula: impl FnOnce() -> Cnf) -> Result<Option<Cnf>, Error> {
        let proving = refuted && self.proof.is_some();
        if !proving && !self.keep_cnf {
            return Ok(None);
        }
        let cnf = formula();
        if proving {
            self.prove_unsat(&cnf)?;
        }
        Ok(self.keep_cnf.then_some(cnf))
    }

    /// When a proof was asked for, refutes `cnf` once more from scratch with
    /// a solver that writes the proof. A family calls this with the formula
    /// it reports (the one `--dimacs` writes) after its own search found no
    /// solution; a search may have used assumptions or added clauses between
    /// calls, which a DRAT proof cannot record, so the proof comes from a
    /// single plain solve of exactly that formula.
    fn prove_unsat(&self, cnf: &Cnf) -> Result<(), Error> {
        let Some(request) = &self.proof else { return Ok(()) };
        let out = request.sink.open().map_err(|e| Error::Output(format!("cannot write the proof: {e}")))?;
        let progress = Some(self.progress.clone());
        if crate::solver::solve_with_proof(cnf, &self.solver, progress, out, request.format)? == Answer::Sat {
            let message = "the search found no solution, but the formula it reports has a model";
            return Err(Error::Internal(message.to_string()));
        }
        Ok(())
    }
}

/// Options for [`Puzzle::count`].
#[derive(Clone, Debug, Default)]
pub struct CountOptions {
    /// The encoding or engine by name; `None` picks the family's default.
    pub engine: Option<String>,
    /// Stop after this many solutions.
    pub limit: Option<u64>,
    /// List the solutions one by one, or count them without listing.
    pub method: CountMethod,
    /// Skip any reasoning the family does before SAT.
    pub skip_presolve: bool,
    /// Live counters: each family records every solution it counts here, so
    /// that a run stopped by a time limit can still report its partial count.
    pub progress: Arc<Progress>,
    /// The SAT backend, and when every search of the run must stop.
    pub solver: SolverConfig,
}

/// How `count` counts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum CountMethod {
    /// Every solution is found by a SAT call, checked against the rules by
    /// code apart from the encoding, and blocked.
    #[default]
    Enumerate,
    /// The formula is counted by an exact projected model counter
    /// ([`crate::solver::count_projected`]): no solution is listed or
    /// checked one by one, so counts far beyond any enumeration come out.
    Exact,
}

impl CountOptions {
    /// Refuses [`CountMethod::Exact`] for a family whose count is not one
    /// plain formula's (`family` names it in the message).
    pub fn enumerating(&self, family: &str) -> Result<(), Error> {
        match self.method {
            CountMethod::Enumerate => Ok(()),
            CountMethod::Exact => Err(Error::BadRequest(format!(
                "count --method exact counts csp and tile-cover models only, not {family} models; expected --method enumerate"
            ))),
        }
    }

    /// A solver of [`CountOptions::solver`] holding `cnf` that counts its
    /// calls and growth in [`CountOptions::progress`].
    pub fn new_solver(&self, cnf: &Cnf) -> Box<dyn Solve> {
        self.solver.new_solver(cnf, Some(self.progress.clone()))
    }
}

/// The outcome of [`Puzzle::facts`]: what holds in every solution.
#[derive(Clone, Debug, Serialize)]
pub struct FactsReport {
    /// [`Status::Solved`] when there are solutions to draw facts from.
    pub status: Status,
    /// The family's facts as JSON members, merged into the output object.
    #[serde(flatten)]
    pub json: serde_json::Map<String, serde_json::Value>,
    /// The facts for a person.
    #[serde(skip)]
    pub text: String,
    /// Sizes and times; `sat_calls` counts every call the facts took.
    pub stats: Stats,
    /// The family's typed facts, which its picture is drawn from.
    #[serde(skip)]
    pub payload: Payload,
}

impl FactsReport {
    /// A report from a family's typed facts, whose members are merged into
    /// the JSON output object, and the text drawn from them; the facts are
    /// kept as the payload.
    pub fn of<T: Serialize + Clone + Send + Sync + 'static>(
        status: Status,
        facts: &T,
        text: String,
        stats: Stats,
    ) -> FactsReport {
        let json = match serde_json::to_value(facts) {
            Ok(serde_json::Value::Object(members)) => members,
            Ok(other) => serde_json::Map::from_iter([("facts".to_string(), other)]),
            Err(e) => serde_json::Map::from_iter([("unserializable".to_string(), e.to_string().into())]),
        };
        FactsReport { status, json, text, stats, payload: Payload::of(facts.clone()) }
    }

    /// The family's typed facts: `None` for a report made without them
    /// (a run stopped before the family reported), an internal error when
    /// they are of another type.
    pub fn typed<T: Any>(&self) -> Result<Option<&T>, Error> {
        self.payload.get()
    }
}

/// A generator asked for a puzzle it cannot build, such as a grid with no
/// cells or more keys than letters.
///
/// ```
/// let e = somaria::puzzles::GenerateError::new("a 0 x 3 grid", "at least one row and one column");
/// assert_eq!(e.to_string(), "cannot generate a 0 x 3 grid; expected at least one row and one column");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot generate {found}; expected {expected}")]
pub struct GenerateError {
    /// What was asked for.
    pub found: String,
    /// What the generator can build.
    pub expected: String,
}

impl GenerateError {
    /// The error for `found`, when `expected` is what can be built.
    pub fn new(found: impl Into<String>, expected: impl Into<String>) -> GenerateError {
        GenerateError { found: found.into(), expected: expected.into() }
    }
}

/// Up to `shown` items joined with commas, and how many more were left out,
/// so that a message about a huge puzzle stays readable.
///
/// ```
/// let items: Vec<String> = (1..=5).map(|i| i.to_string()).collect();
/// assert_eq!(somaria::puzzles::listed(&items, 3), "1, 2, 3 and 2 more");
/// assert_eq!(somaria::puzzles::listed(&items[..2], 3), "1, 2");
/// ```
pub fn listed(items: &[String], shown: usize) -> String {
    if items.len() <= shown {
        return items.join(", ");
    }
    format!("{} and {} more", items[..shown].join(", "), items.len() - shown)
}

/// "1 move", "2 moves": a count with its noun in the right number.
///
/// ```
/// assert_eq!(somaria::puzzles::counted(1, "move"), "1 move");
/// assert_eq!(somaria::puzzles::counted(0, "tile"), "0 tiles");
/// ```
pub fn counted(count: usize, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}

/// The outcome of [`Puzzle::explain`].
#[derive(Clone, Debug)]
pub struct ExplainReport {
    /// [`Status::NoSolution`] with the constraints below, or
    /// [`Status::Solved`] when the puzzle has a solution and nothing to explain.
    pub status: Status,
    /// A minimal set of the puzzle's own constraints that already has no
    /// solution: drop any one and the rest can be met.
    pub constraints: Vec<NamedConstraint>,
    /// A certificate from the presolve, when it refutes the puzzle by itself.
    pub certificate: Option<String>,
    /// How the constraints are to be read together, when that is not simply
    /// "all of them", such as a budget of constraints that may be missed.
    pub rule: Option<String>,
    /// Sizes and times; `sat_calls` counts every call the explanation took.
    pub stats: Stats,
    /// Why the run stopped before an explanation, when a stop of the whole
    /// run (a time limit) cut it short, as a command line reports it.
    pub stopped: Option<String>,
    /// The puzzle drawn as text with the cells the constraints read
    /// outlined, when the family draws it so (not in the JSON).
    pub picture: Option<String>,
}

/// The `explain` output's members: `sat_calls` repeats `stats.sat_calls` at
/// the top level, as the output always had it, and `explanation` says why a
/// stopped run has none.
impl Serialize for ExplainReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("status", &self.status)?;
        map.serialize_entry("constraints", &self.constraints)?;
        map.serialize_entry("certificate", &self.certificate)?;
        map.serialize_entry("rule", &self.rule)?;
        map.serialize_entry("sat_calls", &self.stats.sat_calls)?;
        map.serialize_entry("stats", &self.stats)?;
        if let Some(why) = &self.stopped {
            map.serialize_entry("explanation", why)?;
        }
        map.end()
    }
}

impl ExplainReport {
    /// The report on a puzzle that has a solution, so nothing to explain.
    pub fn solved(stats: Stats) -> ExplainReport {
        ExplainReport {
            status: Status::Solved,
            constraints: Vec::new(),
            certificate: None,
            rule: None,
            stats,
            stopped: None,
            picture: None,
        }
    }

    /// The report on a puzzle without a solution: `constraints` have none
    /// together, and dropping any one of them leaves a solution.
    pub fn conflict(constraints: Vec<NamedConstraint>, stats: Stats) -> ExplainReport {
        ExplainReport { status: Status::NoSolution, constraints, ..ExplainReport::solved(stats) }
    }

    /// The grid cells of the constraints that have one, for pictures.
    pub fn places(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.constraints.iter().filter_map(|c| c.row.zip(c.col))
    }
}

/// One of the puzzle's constraints, in its own words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NamedConstraint {
    /// What the constraint demands.
    pub name: String,
    /// Its row, when it has a place on the grid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<usize>,
    /// Its column, when it has a place on the grid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub col: Option<usize>,
    /// The line of the model file that states it, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The cells it speaks of, which a picture outlines (not in the JSON,
    /// which has always named a constraint by its words and place).
    #[serde(skip)]
    pub cells: Vec<(usize, usize)>,
}

impl From<&Rule> for NamedConstraint {
    fn from(rule: &Rule) -> NamedConstraint {
        NamedConstraint {
            name: rule.name.clone(),
            row: rule.place.map(|p| p.0),
            col: rule.place.map(|p| p.1),
            line: rule.line,
            cells: rule.cells.clone(),
        }
    }
}

/// Why a run failed. None of these is a verdict about the puzzle.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The engine name is not one the family has.
    #[error("unknown engine {found:?} for this kind of puzzle; expected one of {expected}")]
    UnknownEngine {
        /// The name given.
        found: String,
        /// The engines the family has.
        expected: String,
    },
    /// The SAT solver failed.
    #[error(transparent)]
    Solver(SolverError),
    /// The run's stop token stopped the search before a verdict; what it
    /// found so far is in the run's progress.
    #[error("stopped before a verdict: {0}")]
    Stopped(StopCause),
    /// A bug in somaria other than a failed check.
    #[error("INTERNAL ERROR: {0}. This is a bug in somaria; please report it with the model file.")]
    Internal(String),
    /// The puzzle is too large for the chosen engine on this machine; the
    /// message says the limit.
    #[error("{0}")]
    TooLarge(String),
    /// An output file could not be written.
    #[error("{0}")]
    Output(String),
    /// A request the puzzle cannot take, such as a given entry that names
    /// nothing in it; the message says what was expected.
    #[error("{0}")]
    BadRequest(String),
    /// The engine solves without a CNF, so there is no formula to export.
    #[error("the {engine} engine does not build a CNF ({why}); expected an engine that does: {expected}")]
    NoFormula {
        /// The engine asked for.
        engine: &'static str,
        /// How it solves instead.
        why: &'static str,
        /// The engines that build a CNF.
        expected: String,
    },
    /// The family does not offer this command.
    #[error("{command} is not available for {kind} puzzles")]
    Unsupported {
        /// The command asked for.
        command: &'static str,
        /// The family's kind.
        kind: &'static str,
    },
    /// An answer failed the independent check: a bug in somaria.
    #[error(
        "INTERNAL ERROR: the solver's answer failed the independent check of the puzzle's rules: {0}. This is a bug in somaria; please report it with the model file."
    )]
    CheckFailed(String),
}

impl From<SolverError> for Error {
    /// A model that a repair step rejected failed the puzzle's own rules, so
    /// it is reported as a failed check; a stopped search is neither a
    /// verdict nor a failure; other failures are the solver's.
    fn from(e: SolverError) -> Error {
        match e {
            SolverError::ModelRejected(why) => Error::CheckFailed(why),
            SolverError::Stopped(cause) => Error::Stopped(cause),
            other => Error::Solver(other),
        }
    }
}

impl From<crate::compile::CompileError> for Error {
    fn from(e: crate::compile::CompileError) -> Error {
        use crate::compile::CompileError;
        match e {
            CompileError::TooLarge(why) => Error::TooLarge(why),
            CompileError::Internal(why) => Error::Internal(why),
        }
    }
}

/// A loaded, validated puzzle of any family. Puzzles are plain data, so a
/// caller may run one on another thread, for instance under a time limit.
pub trait Puzzle: Send + Sync {
    /// The family's `kind` name.
    fn kind(&self) -> &'static str;

    /// The model's title, when it has one.
    fn title(&self) -> Option<&str>;

    /// The encodings or engines this puzzle can run; the first is the default.
    fn engines(&self) -> &'static [&'static str];

    /// Finds a solution and checks it, or proves there is none.
    fn solve(&self, options: &SolveOptions) -> Result<SolveReport, Error>;

    /// Counts the distinct solutions, checking each one.
    fn count(&self, options: &CountOptions) -> Result<CountReport, Error>;

    /// Reports what holds in every solution and what can vary.
    fn facts(&self, options: &SolveOptions) -> Result<FactsReport, Error> {
        let _ = options;
        Err(Error::Unsupported { command: "facts", kind: self.kind() })
    }

    /// For a puzzle with no solution, a minimal set of its constraints that
    /// already has none.
    fn explain(&self, options: &SolveOptions) -> Result<ExplainReport, Error> {
        let _ = options;
        Err(Error::Unsupported { command: "explain", kind: self.kind() })
    }

    /// The puzzle ready for deductions ([`crate::deduce`]): its named rules
    /// as switches, its candidate facts as literals, a solver holding both
    /// and the independent check of a model. `wanted` says which parts the
    /// caller will use, so that nothing else is built. [`Puzzle::facts`] and
    /// [`Puzzle::explain`] rest on it where a family offers it.
    fn deductions(&self, options: &SolveOptions, wanted: Wanted) -> Result<Deductions<'_>, Error> {
        let _ = (options, wanted);
        Err(Error::Unsupported { command: "deductions", kind: self.kind() })
    }

    /// The player's entries that a value in the shape of `solve`'s
    /// `solution` states, as `--given` takes them (`NAME=VALUE`): a state
    /// file read back. Holes (`null`, `"_"` or a missing member) state
    /// nothing.
    fn entries_of_solution(&self, solution: &serde_json::Value) -> Result<Vec<String>, StateError> {
        let _ = solution;
        Err(StateError {
            member: None,
            message: format!(
                "a state file is not taken for {} puzzles; expected --given entries such as NAME=VALUE",
                self.kind()
            ),
        })
    }

    /// The player's entries as `--given` facts (`NAME=VALUE`), each with
    /// how a message names it: a family that takes entries of its own, such
    /// as the moves walked in a tile-cover room, reads them into facts here.
    /// By default every entry stands as it is.
    fn given_entries(&self, given: &[String]) -> Result<Vec<(String, String)>, Error> {
        Ok(given.iter().map(|g| (g.clone(), g.clone())).collect())
    }

    /// For a puzzle whose answer is a route of fewest steps rather than
    /// values deduced: the legs of a fewest-steps route from the state the
    /// `given` entries walk to, each checked by the family. `None` when the
    /// family's hints are deductions ([`Puzzle::deductions`]).
    fn route_legs(&self, options: &SolveOptions, given: &[String]) -> Result<Option<RouteLegs>, Error> {
        let _ = (options, given);
        Ok(None)
    }

    /// The CNF the engine would hand to the solver first, built without
    /// solving, so that a hard instance can go to another SAT solver.
    fn formula(&self, engine: Option<&str>) -> Result<Formula, Error>;

    /// A picture of a report this puzzle gave, drawn from the report's
    /// payload: the answer drawn on the grid, the facts shaded, or the
    /// explanation's constraints outlined.
    fn picture(&self, of: Drawn<'_>) -> Result<Scene, Error> {
        let _ = of;
        Err(Error::Unsupported { command: "a picture", kind: self.kind() })
    }

    /// A state of play (a hint's step) drawn as the puzzle is drawn, with
    /// the style its text is drawn in; `None` when the family draws no
    /// state of its own, and a step's picture is a grid of the facts' cells.
    fn state_picture(&self, state: &PlayState<'_>) -> Option<(Scene, crate::draw::text::Style)> {
        let _ = state;
        None
    }
}

/// One fact of a state of play: a subject takes a value (or, when `holds`
/// is false, does not), both numbered as [`crate::deduce::Fact`] numbers them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The family's number for the thing.
    pub subject: usize,
    /// The family's number for the value.
    pub value: i64,
    /// Whether the thing takes the value.
    pub holds: bool,
}

/// A state of play to draw: what is known, what a step settles and the
/// cells its rules read.
#[derive(Copy, Clone, Debug)]
pub struct PlayState<'a> {
    /// The facts known before the step.
    pub known: &'a [Entry],
    /// The facts the step settles, whose cells are shaded.
    pub new: &'a [Entry],
    /// Whether the new facts' values are drawn too (otherwise only where
    /// they are).
    pub new_shown: bool,
    /// Cells outlined, such as those the step's rules read.
    pub outlined: &'a [crate::grid::Pos],
}

/// A fewest-steps route from a player's state, leg by leg: what `hint`
/// and `steps` show for a route puzzle ([`Puzzle::route_legs`]).
#[derive(Clone, Debug, Default)]
pub struct RouteLegs {
    /// The goals reached by the moves given, in order, such as "a".
    pub reached: Vec<String>,
    /// The moves given, as `--given moves=...` writes them.
    pub walked: Vec<String>,
    /// The legs from there, in order, every one checked.
    pub legs: Vec<RouteLeg>,
    /// The fewest steps of a route that starts with the moves given; `None`
    /// when no route does.
    pub fewest_in_all: Option<u64>,
    /// The fewest steps of any route from the start.
    pub fewest_from_start: Option<u64>,
    /// A given move that cannot be made, and why.
    pub clash: Option<(String, String)>,
    /// Why no route exists from the state, when none does.
    pub explanation: Option<Vec<NamedConstraint>>,
    /// Sizes and times.
    pub stats: Stats,
}

/// One leg of a route: one walker's moves to the next goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteLeg {
    /// The goal it reaches, in the puzzle's words, such as "c".
    pub goal: String,
    /// The walker, numbered from 1, when the puzzle has several.
    pub walker: Option<usize>,
    /// Where it starts and ends.
    pub from: crate::grid::Pos,
    /// Where it ends: the goal's cell.
    pub to: crate::grid::Pos,
    /// Its moves.
    pub moves: Vec<crate::grid::Dir>,
}

/// Moves as a player gives them: `R,R,D`, or with several walkers `1R,2U`
/// (`1:right` and the full names work too), separated by commas or
/// spaces. Each move is (walker from 1 when named, direction).
///
/// ```
/// use somaria::grid::Dir;
/// let moves = somaria::puzzles::read_moves("R, 2:up,d").unwrap();
/// assert_eq!(moves, vec![(None, Dir::Right), (Some(2), Dir::Up), (None, Dir::Down)]);
/// assert!(somaria::puzzles::read_moves("R,X").unwrap_err().contains("\"X\""));
/// ```
pub fn read_moves(text: &str) -> Result<Vec<(Option<usize>, crate::grid::Dir)>, String> {
    use crate::grid::Dir;
    let words = text.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty());
    words
        .map(|word| {
            let digits = word.chars().take_while(char::is_ascii_digit).count();
            let walker = (digits > 0).then(|| word[..digits].parse::<usize>().ok()).flatten();
            let name = word[digits..].trim_start_matches(':').to_ascii_lowercase();
            let dir = match name.as_str() {
                "r" => Some(Dir::Right),
                "l" => Some(Dir::Left),
                "u" => Some(Dir::Up),
                "d" => Some(Dir::Down),
                other => Dir::from_name(other),
            };
            match dir {
                Some(dir) if digits == 0 || walker.is_some_and(|w| w >= 1) => Ok((walker, dir)),
                _ => Err(format!(
                    "{word:?} is not a move; expected U, D, L or R (or up, down, left, right), with a walker number \
                     first when there are several, such as 2R"
                )),
            }
        })
        .collect()
}

/// What is wrong with a state file ([`Puzzle::entries_of_solution`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateError {
    /// The top-level member the problem is in, when it is in one.
    pub member: Option<String>,
    /// What was found and what was expected.
    pub message: String,
}

/// The report a picture is drawn for.
#[derive(Copy, Clone, Debug)]
pub enum Drawn<'a> {
    /// The answer of `solve`, or the puzzle alone when there is none.
    Solution(&'a SolveReport),
    /// What `facts` found.
    Facts(&'a FactsReport),
    /// What `explain` found.
    Explanation(&'a ExplainReport),
}

/// Splits `text` into lines of at most about `width` characters, at spaces,
/// for captions that cannot wrap themselves.
///
/// ```
/// assert_eq!(somaria::puzzles::wrapped("one two three", 8), vec!["one two", "three"]);
/// ```
pub fn wrapped(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// A puzzle family: the `kind` name and its loader.
pub struct Family {
    /// The `kind` value that selects this family.
    pub kind: &'static str,
    /// Builds a validated puzzle from a model file of this kind.
    pub load: fn(&Source) -> Result<Box<dyn Puzzle>, LoadError>,
    /// Builds the designer `generate` makes puzzles with from a template
    /// of this kind, for the families that have one.
    pub design: Option<design::DesignerOf>,
}

/// Every family somaria knows.
pub const FAMILIES: &[Family] = &[
    Family { kind: fans::KIND, load: fans::load, design: Some(fans::designer::FansDesigner::boxed) },
    Family {
        kind: keys_doors::KIND,
        load: keys_doors::load,
        design: Some(keys_doors::designer::KeysDoorsDesigner::boxed),
    },
    Family {
        kind: tile_cover::KIND,
        load: tile_cover::load,
        design: Some(tile_cover::designer::TileCoverDesigner::boxed),
    },
    Family { kind: csp::KIND, load: csp::load, design: Some(csp::designer::CspDesigner::boxed) },
];

/// The known kinds, quoted and joined for messages.
pub fn known_kinds() -> String {
    FAMILIES.iter().map(|f| format!("{:?}", f.kind)).collect::<Vec<_>>().join(", ")
}

/// Loads a model file of any kind.
///
/// ```
/// let puzzle = somaria::puzzles::load_file("models/akh-vaquot.toml".as_ref()).unwrap();
/// assert_eq!(puzzle.kind(), "fans");
/// ```
pub fn load_file(path: &Path) -> Result<Box<dyn Puzzle>, LoadError> {
    load(&Source::read(path)?)
}

/// Loads a model of any kind from its text; `name` is the file name its
/// errors give.
///
/// ```
/// let text = "kind = \"fans\"\ngrid = \"FW\"\n";
/// let puzzle = somaria::puzzles::load_str("mine.toml", text).unwrap();
/// assert_eq!(puzzle.kind(), "fans");
/// let error = somaria::puzzles::load_str("mine.toml", "kind = 3").err().unwrap();
/// assert!(error.to_string().starts_with("mine.toml:1:8: "), "{error}");
/// ```
pub fn load_str(name: &str, text: &str) -> Result<Box<dyn Puzzle>, LoadError> {
    load(&Source::from_text(name, text))
}

/// The designer of a template of any kind, dispatching on `kind`; a kind
/// with no designer is refused, after the template is loaded (so a broken
/// model is reported as such).
pub fn designer(source: &Source) -> Result<Box<dyn design::Designer>, LoadError> {
    let puzzle = load(source)?;
    let family = FAMILIES.iter().find(|f| f.kind == puzzle.kind());
    if let Some(design) = family.and_then(|f| f.design) {
        return design(source);
    }
    let kinds: Vec<String> = FAMILIES.iter().filter(|f| f.design.is_some()).map(|f| format!("{:?}", f.kind)).collect();
    let problem = Problem::Invalid {
        found: format!("a model of kind {:?}, which generate has no designer for", puzzle.kind()),
        expected: format!("a template generate makes puzzles from: kind = {}", kinds.join(", ")),
    };
    match source.kind()? {
        Some(kind) => Err(source.error_at(&kind, problem)),
        None => Err(source.error(None, problem)),
    }
}

/// Loads a model of any kind from its source, dispatching on `kind`.
pub fn load(source: &Source) -> Result<Box<dyn Puzzle>, LoadError> {
    let Some(kind) = source.kind()? else {
        return Err(source.error(None, Problem::MissingKind { expected: known_kinds() }));
    };
    match FAMILIES.iter().find(|f| f.kind == kind.get_ref()) {
        Some(family) => (family.load)(source),
        None => {
            let problem = Problem::UnknownKind { found: kind.get_ref().clone(), expected: known_kinds() };
            Err(source.error_at(&kind, problem))
        }
    }
}

//! The reports of the commands every family answers (solve, count, facts,
//! explain), as data: what a front end prints, serialises or draws.

use std::any::{Any, type_name};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use super::{CountOptions, Error};
use crate::cnf::Cnf;
use crate::deduce::Rule;
use crate::solver::SolveStats;

/// The verdict of a run: `"solved"`, `"no_solution"` or `"unknown"` in JSON.
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
    /// The finite-domain engine's search figures, when it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<crate::fd::Stats>,
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
            search: None,
        }
    }

    /// Records a duration in the millisecond fields' unit.
    pub fn ms(duration: Duration) -> f64 {
        (duration.as_secs_f64() * 1_000_000.0).round() / 1000.0
    }
}

/// A solution in the puzzle's own terms: its JSON form, and the family's
/// typed answer, which the family draws as a picture or as text on demand
/// ([`super::Puzzle::picture`], [`super::Puzzle::text`]).
#[derive(Clone, Debug)]
pub struct Solution {
    /// The machine-readable form, the `solution` member of the JSON output.
    pub json: serde_json::Value,
    /// The family's typed answer, which its picture and text are drawn from.
    pub payload: Payload,
}

/// A solution is written as its JSON form.
impl Serialize for Solution {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(serializer)
    }
}

impl Solution {
    /// A solution from a family's typed answer, kept as the payload.
    ///
    /// ```
    /// #[derive(Clone, serde::Serialize)]
    /// struct Answer { steps: u64 }
    /// let solution = somaria::puzzles::Solution::of(&Answer { steps: 3 });
    /// assert_eq!(solution.json["steps"], 3);
    /// assert_eq!(solution.typed::<Answer>().unwrap().steps, 3);
    /// assert!(solution.typed::<u64>().is_err());
    /// ```
    pub fn of<T: Serialize + Clone + Send + Sync + 'static>(answer: &T) -> Solution {
        let json =
            serde_json::to_value(answer).unwrap_or_else(|e| serde_json::json!({ "unserializable": e.to_string() }));
        Solution { json, payload: Payload::of(answer.clone()) }
    }

    /// The family's typed answer; an internal error when the solution
    /// carries none, or one of another type.
    pub fn typed<T: Any>(&self) -> Result<&T, Error> {
        self.payload.get()?.ok_or_else(|| Error::Internal(format!("a solution carries no {}", type_name::<T>())))
    }
}

/// Two solutions are equal when their JSON is: the payload is the answer
/// both were made from.
impl PartialEq for Solution {
    fn eq(&self, other: &Solution) -> bool {
        self.json == other.json
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

/// The outcome of [`Puzzle::solve`](super::Puzzle::solve). Its JSON (with the `kind`, through
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
    /// The CNF that was solved, when [`SolveOptions::keep_cnf`](super::SolveOptions::keep_cnf) asked for it.
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

/// The outcome of [`Puzzle::count`](super::Puzzle::count).
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
    /// The report of an exact count ([`CountMethod::Exact`](super::CountMethod::Exact)), which knows
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

/// The outcome of [`Puzzle::facts`](super::Puzzle::facts): what holds in every solution.
#[derive(Clone, Debug, Serialize)]
pub struct FactsReport {
    /// [`Status::Solved`] when there are solutions to draw facts from.
    pub status: Status,
    /// The family's facts as JSON members, merged into the output object.
    #[serde(flatten)]
    pub json: serde_json::Map<String, serde_json::Value>,
    /// Sizes and times; `sat_calls` counts every call the facts took.
    pub stats: Stats,
    /// The family's typed facts, which its picture and text are drawn from.
    #[serde(skip)]
    pub payload: Payload,
}

impl FactsReport {
    /// A report from a family's typed facts, whose members are merged into
    /// the JSON output object; the facts are kept as the payload.
    pub fn of<T: Serialize + Clone + Send + Sync + 'static>(status: Status, facts: &T, stats: Stats) -> FactsReport {
        let json = match serde_json::to_value(facts) {
            Ok(serde_json::Value::Object(members)) => members,
            Ok(other) => serde_json::Map::from_iter([("facts".to_string(), other)]),
            Err(e) => serde_json::Map::from_iter([("unserializable".to_string(), e.to_string().into())]),
        };
        FactsReport { status, json, stats, payload: Payload::of(facts.clone()) }
    }

    /// The family's typed facts: `None` for a report made without them
    /// (a run stopped before the family reported), an internal error when
    /// they are of another type.
    pub fn typed<T: Any>(&self) -> Result<Option<&T>, Error> {
        self.payload.get()
    }
}

/// The outcome of [`Puzzle::explain`](super::Puzzle::explain).
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

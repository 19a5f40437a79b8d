//! Reports as text for a person or JSON for a program.
//!
//! The JSON shapes are a contract that scripts rely on; see the README.

use serde_json::{Value, json};

use crate::puzzles::{CountReport, SolveReport, Stats, Status};

/// The output format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// For a person.
    Text,
    /// One JSON object.
    Json,
}

/// The `solve` report as one JSON object: `kind`, `status`, `solution`,
/// `explanation` and `stats`.
///
/// ```
/// use somaria::puzzles::{self, SolveOptions};
/// let puzzle = puzzles::load_file("models/akh-vaquot.toml".as_ref()).unwrap();
/// let report = puzzle.solve(&SolveOptions::default()).unwrap();
/// let json = somaria::render::solve_json(puzzle.kind(), &report);
/// assert_eq!(json["status"], "solved");
/// assert_eq!(json["solution"]["fans"][0]["dir"], "right");
/// ```
pub fn solve_json(kind: &str, report: &SolveReport) -> Value {
    json!({
        "kind": kind,
        "status": report.status,
        "solution": report.solution.as_ref().map(|s| s.json.clone()),
        "explanation": report.explanation,
        "stats": report.stats,
    })
}

/// The `count` report as one JSON object: `kind`, `count`, `complete` and
/// `stats`.
pub fn count_json(kind: &str, report: &CountReport) -> Value {
    json!({
        "kind": kind,
        "count": report.count,
        "complete": report.complete,
        "stats": report.stats,
    })
}

/// The `solve` report for a person: the title, the drawn solution or the
/// reason there is none, and a summary line.
pub fn solve_text(kind: &str, title: Option<&str>, report: &SolveReport) -> String {
    let mut out = heading(kind, title);
    if let Some(solution) = &report.solution {
        out.push_str(&solution.text);
        if !solution.text.ends_with('\n') {
            out.push('\n');
        }
    }
    let verdict = match report.status {
        Status::Solved => "solved; the answer passed an independent check of the puzzle's rules",
        Status::NoSolution => "no solution; proven",
        Status::Unknown => "unknown; no verdict was reached",
    };
    if let Some(why) = &report.explanation {
        out.push_str(&format!("why: {why}\n"));
    }
    out.push_str(&format!("{verdict} ({})\n", stats_line(&report.stats)));
    out
}

/// The `count` report for a person.
pub fn count_text(kind: &str, title: Option<&str>, report: &CountReport) -> String {
    let mut out = heading(kind, title);
    let noun = if report.count == 1 { "solution" } else { "solutions" };
    let line = if report.complete {
        let meaning = match report.count {
            0 => "; the puzzle cannot be solved",
            1 => "; the puzzle is unique",
            _ => "",
        };
        format!("{} {noun}, all found{meaning}", report.count)
    } else {
        format!("at least {} {noun}; the limit stopped the count", report.count)
    };
    out.push_str(&format!("{line} ({})\n", stats_line(&report.stats)));
    out
}

fn heading(kind: &str, title: Option<&str>) -> String {
    match title {
        Some(title) => format!("{title} ({kind})\n\n"),
        None => String::new(),
    }
}

fn stats_line(stats: &Stats) -> String {
    let calls = if stats.sat_calls == 1 { "call" } else { "calls" };
    format!(
        "{}: {} variables, {} clauses, {} SAT {calls}, {:.2} ms encoding, {:.2} ms solving",
        stats.engine, stats.variables, stats.clauses, stats.sat_calls, stats.encode_ms, stats.solve_ms
    )
}

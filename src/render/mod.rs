//! Reports as text for a person or JSON for a program. Pictures are drawn
//! by [`crate::draw`].
//!
//! The JSON shapes are a contract that scripts rely on; see the README.

use serde_json::{Value, json};

use crate::puzzles::compare::{Agreement, CompareReport};
use crate::puzzles::{CountReport, ExplainReport, FactsReport, SolveReport, Stats, Status};

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
    let mut json = json!({
        "kind": kind,
        "status": report.status,
        "solution": report.solution.as_ref().map(|s| s.json.clone()),
        "explanation": report.explanation,
        "stats": report.stats,
    });
    if let Some(objective) = report.objective {
        json["objective"] = json!(objective);
    }
    json
}

/// The `count` report as one JSON object: `kind`, `count`, `complete`,
/// `saturated` and `stats`.
pub fn count_json(kind: &str, report: &CountReport) -> Value {
    json!({
        "kind": kind,
        "count": report.count,
        "complete": report.complete,
        "saturated": report.saturated,
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

/// The `count` report for a person. `stopped` says what cut an incomplete
/// count short when it was not the limit, such as a time limit.
pub fn count_text(kind: &str, title: Option<&str>, report: &CountReport, stopped: Option<&str>) -> String {
    let mut out = heading(kind, title);
    let noun = if report.count == 1 { "solution" } else { "solutions" };
    let line = if report.saturated {
        format!("more than {} solutions; the count saturated", report.count)
    } else if report.complete {
        let meaning = match report.count {
            0 => "; the puzzle cannot be solved",
            1 => "; the puzzle is unique",
            _ => "",
        };
        format!("{} {noun}, all found{meaning}", report.count)
    } else {
        let why = stopped.unwrap_or("the limit stopped the count");
        format!("at least {} {noun}; {why}", report.count)
    };
    out.push_str(&format!("{line} ({})\n", stats_line(&report.stats)));
    out
}

fn heading(kind: &str, title: Option<&str>) -> String {
    match title {
        Some(title) => format!("{} ({kind})\n\n", printable(title)),
        None => String::new(),
    }
}

/// Text from a model file made safe for a terminal: control characters
/// (such as the escape that starts a colour code) are shown escaped.
///
/// ```
/// assert_eq!(somaria::render::printable("a\u{1b}[31mb"), "a\\u{1b}[31mb");
/// assert_eq!(somaria::render::printable("Akh Va'quot"), "Akh Va'quot");
/// ```
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// Text with its drawing glyphs (arrows, the multiplication sign) replaced
/// by ASCII, for terminals that draw them badly or double-width.
///
/// ```
/// assert_eq!(somaria::render::ascii("→ ↓ ← ↑ right ×3"), "> v < ^ right x3");
/// ```
pub fn ascii(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '→' => '>',
            '←' => '<',
            '↑' => '^',
            '↓' => 'v',
            '×' => 'x',
            '·' => '.',
            other => other,
        })
        .collect()
}

/// The most constraints listed in a text explanation; JSON lists them all.
const SHOWN_CONSTRAINTS: usize = 50;

fn stats_line(stats: &Stats) -> String {
    let calls = if stats.sat_calls == 1 { "call" } else { "calls" };
    format!(
        "{}: {} variables, {} clauses, {} SAT {calls}, {:.2} ms encoding, {:.2} ms solving",
        stats.engine, stats.variables, stats.clauses, stats.sat_calls, stats.encode_ms, stats.solve_ms
    )
}

/// The `facts` report as one JSON object: `kind`, `status`, the family's
/// facts and `stats`.
pub fn facts_json(kind: &str, report: &FactsReport) -> Value {
    let mut object = serde_json::Map::new();
    object.insert("kind".into(), json!(kind));
    object.insert("status".into(), json!(report.status));
    object.extend(report.json.clone());
    object.insert("stats".into(), json!(report.stats));
    Value::Object(object)
}

/// The `facts` report for a person.
pub fn facts_text(kind: &str, title: Option<&str>, report: &FactsReport) -> String {
    let mut out = heading(kind, title);
    out.push_str(&report.text);
    if !report.text.is_empty() && !report.text.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!("({})\n", stats_line(&report.stats)));
    out
}

/// The `compare` report as one JSON object: `kind`, `results`, `agree`
/// (true only when every engine answered and they agree), `agreement`
/// (`all`, `partial` or `disagree`) and `unfinished`.
pub fn compare_json(kind: &str, report: &CompareReport) -> Value {
    json!({
        "kind": kind,
        "results": report.results,
        "agree": report.agree,
        "agreement": report.agreement,
        "unfinished": report.unfinished,
    })
}

/// The `compare` report for a person: a table, one row per engine.
pub fn compare_text(kind: &str, title: Option<&str>, report: &CompareReport) -> String {
    let mut out = heading(kind, title);
    let counting = report.results.iter().any(|r| r.count.is_some());
    let costs = report.results.iter().any(|r| r.cost.is_some());
    let objectives = report.results.iter().any(|r| r.objective.is_some());
    let mut rows = vec![{
        let mut header = vec!["encoding", "variables", "clauses", "SAT calls", "ms", "answer"];
        if costs {
            header.push("cost");
        }
        if objectives {
            header.push("objective");
        }
        if counting {
            header.extend(["count", "count SAT calls", "count ms"]);
        }
        header.into_iter().map(String::from).collect::<Vec<_>>()
    }];
    for r in &report.results {
        let status = serde_json::to_value(r.status).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
        let mut row = vec![
            r.encoding.clone(),
            r.variables.to_string(),
            r.clauses.to_string(),
            r.sat_calls.to_string(),
            format!("{:.2}", r.ms),
            status,
        ];
        if costs {
            row.push(r.cost.map_or("-".to_string(), |c| c.to_string()));
        }
        if objectives {
            row.push(r.objective.map_or("-".to_string(), |c| c.to_string()));
        }
        if counting {
            row.push(match (r.count, r.count_complete) {
                (Some(n), Some(false)) => format!(">= {n}"),
                (Some(n), _) => n.to_string(),
                (None, _) => "-".to_string(),
            });
            row.push(r.count_sat_calls.map_or("-".to_string(), |c| c.to_string()));
            row.push(r.count_ms.map_or("-".to_string(), |ms| format!("{ms:.2}")));
        }
        rows.push(row);
    }
    let widths: Vec<usize> =
        (0..rows[0].len()).map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0)).collect();
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (cell, &w))| if i == 0 { format!("{cell:<w$}") } else { format!("{cell:>w$}") })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    for r in &report.results {
        if let Some(note) = &r.note {
            out.push_str(&format!("{}: {}\n", r.encoding, note));
        }
    }
    out.push_str(match report.agreement {
        Agreement::All => "all engines answered and agree\n",
        Agreement::Partial => "the engines that answered agree, but not every engine answered\n",
        Agreement::Disagree => "ENGINES DISAGREE\n",
    });
    out
}

/// The `explain` report as one JSON object: `kind`, `status`, `constraints`,
/// `certificate`, `sat_calls` and `stats`.
pub fn explain_json(kind: &str, report: &ExplainReport) -> Value {
    json!({
        "kind": kind,
        "status": report.status,
        "constraints": report.constraints,
        "certificate": report.certificate,
        "rule": report.rule,
        "sat_calls": report.stats.sat_calls,
        "stats": report.stats,
    })
}

/// The `explain` report for a person.
pub fn explain_text(kind: &str, title: Option<&str>, report: &ExplainReport) -> String {
    let mut out = heading(kind, title);
    match report.status {
        Status::Solved => out.push_str("the puzzle has a solution, so there is nothing to explain\n"),
        Status::Unknown => out.push_str("unknown; no explanation was reached\n"),
        Status::NoSolution => {
            if let Some(certificate) = &report.certificate {
                out.push_str(&format!("no solution: {certificate}\n"));
            }
            if !report.constraints.is_empty() {
                let n = report.constraints.len();
                if n == 1 {
                    out.push_str("no solution: this constraint alone cannot hold:\n");
                } else {
                    out.push_str(&format!(
                        "no solution: these {n} constraints cannot all hold, and dropping any one of them leaves a solvable puzzle:\n"
                    ));
                }
                if let Some(rule) = &report.rule {
                    out.push_str(&format!("  ({rule})\n"));
                }
                for constraint in report.constraints.iter().take(SHOWN_CONSTRAINTS) {
                    out.push_str(&format!("  - {}\n", printable(&constraint.name)));
                }
                if n > SHOWN_CONSTRAINTS {
                    out.push_str(&format!(
                        "  ... and {} more (the JSON output lists them all)\n",
                        n - SHOWN_CONSTRAINTS
                    ));
                }
            } else if let Some(rule) = &report.rule {
                out.push_str(&format!("({rule})\n"));
            } else if report.certificate.is_none() {
                out.push_str("no solution: the puzzle's fixed rules alone cannot be met\n");
            }
        }
    }
    out.push_str(&format!("({})\n", stats_line(&report.stats)));
    out
}

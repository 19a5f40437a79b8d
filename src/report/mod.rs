//! Reports as text for a person or JSON for a program, behind one trait,
//! [`Report`], so that a command line prints any command's report, draws
//! its picture and exits with its code in one way. Pictures are drawn by
//! [`crate::draw`].
//!
//! The JSON shapes are a contract that scripts rely on; see the book's
//! JSON page (docs/src/reference/json.md).
//! Each report's JSON is its `Serialize` form with the puzzle's `kind`
//! added, members in alphabetical order.

pub mod picture;
pub mod steps;

use serde::Serialize;
use serde_json::Value;

use crate::puzzles::compare::{Agreement, CompareReport, Outcome, several_solvers};
use crate::puzzles::{
    CountReport, Drawn, Error, ExplainReport, FactsReport, Payload, Puzzle, SolveReport, Stats, Status,
};
use crate::solver::Progress;

/// The exit codes of the command line, part of its contract.
pub mod exit {
    /// Solved, or done (a count, a comparison that agrees, a formula written).
    pub const SOLVED: u8 = 0;
    /// Proven to have no solution, or engines that disagree.
    pub const NO_SOLUTION: u8 = 1;
    /// Bad input or usage.
    pub const BAD_INPUT: u8 = 2;
    /// No verdict: stopped by a limit, or some engine gave none.
    pub const UNKNOWN: u8 = 3;
    /// A bug in somaria.
    pub const INTERNAL: u8 = 4;
}

/// What every command's report offers its printer.
pub trait Report: Serialize {
    /// The report as one JSON object, with the puzzle's `kind`.
    ///
    /// ```
    /// use somaria::puzzles::{self, SolveOptions};
    /// use somaria::report::Report;
    /// let puzzle = puzzles::load_file("models/akh-vaquot.toml".as_ref()).unwrap();
    /// let json = puzzle.solve(&SolveOptions::default()).unwrap().json(puzzle.kind());
    /// assert_eq!(json["status"], "solved");
    /// assert_eq!(json["solution"]["fans"][0]["dir"], "right");
    /// ```
    fn json(&self, kind: &str) -> Value {
        let mut json =
            serde_json::to_value(self).unwrap_or_else(|e| serde_json::json!({ "unserializable": e.to_string() }));
        if let Value::Object(members) = &mut json {
            members.insert("kind".to_string(), Value::from(kind));
        }
        json
    }

    /// The report for a person, under the model's title when it has one,
    /// made on demand: what the family draws of it comes from
    /// [`Puzzle::text`], from the report's payload.
    fn text(&self, puzzle: &dyn Puzzle) -> Result<String, Error>;

    /// What a picture of the report shows; `None` when it has none.
    fn drawn(&self) -> Option<Drawn<'_>> {
        None
    }

    /// The command line's exit code for this report.
    fn exit_code(&self) -> u8;
}

/// A report that can stand for a run stopped before it finished (by a time
/// limit, the memory cap or Ctrl-C).
pub trait Stoppable: Report {
    /// The report of a stopped run: what it had built (`stats`), why it
    /// stopped, and how far it got (`progress`).
    fn stopped(stats: Stats, why: String, progress: &Progress) -> Self;
}

/// The exit code of a verdict.
pub fn status_code(status: Status) -> u8 {
    match status {
        Status::Solved => exit::SOLVED,
        Status::NoSolution => exit::NO_SOLUTION,
        Status::Unknown => exit::UNKNOWN,
    }
}

impl Report for SolveReport {
    /// The title, the drawn solution or the reason there is none, and a
    /// summary line.
    fn text(&self, puzzle: &dyn Puzzle) -> Result<String, Error> {
        let mut out = heading(puzzle.kind(), puzzle.title());
        if let Some(text) = puzzle.text(Drawn::Solution(self))? {
            out.push_str(&text);
            if !text.ends_with('\n') {
                out.push('\n');
            }
        }
        let verdict = match self.status {
            Status::Solved => "solved; the answer passed an independent check of the puzzle's rules",
            Status::NoSolution => "no solution; proven",
            Status::Unknown => "unknown; no verdict was reached",
        };
        if let Some(why) = &self.explanation {
            out.push_str(&format!("why: {why}\n"));
        }
        out.push_str(&format!("{verdict} ({})\n", stats_line(&self.stats)));
        Ok(out)
    }

    fn drawn(&self) -> Option<Drawn<'_>> {
        Some(Drawn::Solution(self))
    }

    fn exit_code(&self) -> u8 {
        status_code(self.status)
    }
}

impl Stoppable for SolveReport {
    fn stopped(stats: Stats, why: String, _: &Progress) -> SolveReport {
        SolveReport {
            status: Status::Unknown,
            solution: None,
            explanation: Some(why),
            cost: None,
            objective: None,
            decided_by: crate::puzzles::DecidedBy::Sat,
            stats,
            cnf: None,
        }
    }
}

impl Report for CountReport {
    fn text(&self, puzzle: &dyn Puzzle) -> Result<String, Error> {
        let mut out = heading(puzzle.kind(), puzzle.title());
        let noun = if self.count == 1 { "solution" } else { "solutions" };
        let line = if self.saturated {
            format!("more than {} solutions; the count saturated", self.count)
        } else if self.complete {
            let meaning = match self.count {
                0 => "; the puzzle cannot be solved",
                1 => "; the puzzle is unique",
                _ => "",
            };
            format!("{} {noun}, all found{meaning}", self.count)
        } else {
            let why = self.stopped.as_deref().unwrap_or("the limit stopped the count");
            format!("at least {} {noun}; {why}", self.count)
        };
        out.push_str(&format!("{line} ({})\n", stats_line(&self.stats)));
        Ok(out)
    }

    fn exit_code(&self) -> u8 {
        if self.stopped.is_some() { exit::UNKNOWN } else { exit::SOLVED }
    }
}

impl Stoppable for CountReport {
    /// The solutions counted and checked before the stop.
    fn stopped(stats: Stats, why: String, progress: &Progress) -> CountReport {
        CountReport { count: progress.solutions(), complete: false, saturated: false, stats, stopped: Some(why) }
    }
}

impl Report for FactsReport {
    fn text(&self, puzzle: &dyn Puzzle) -> Result<String, Error> {
        let mut out = heading(puzzle.kind(), puzzle.title());
        let text = match puzzle.text(Drawn::Facts(self))? {
            Some(text) => text,
            None => match self.status {
                Status::NoSolution => "no solution, so there are no facts to report\n".to_string(),
                Status::Unknown => {
                    let why = self.json.get("explanation").and_then(Value::as_str).unwrap_or("no verdict was reached");
                    format!("unknown: {why}\n")
                }
                Status::Solved => String::new(),
            },
        };
        out.push_str(&text);
        if !text.is_empty() && !text.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!("({})\n", stats_line(&self.stats)));
        Ok(out)
    }

    fn drawn(&self) -> Option<Drawn<'_>> {
        Some(Drawn::Facts(self))
    }

    fn exit_code(&self) -> u8 {
        status_code(self.status)
    }
}

impl Stoppable for FactsReport {
    fn stopped(stats: Stats, why: String, _: &Progress) -> FactsReport {
        FactsReport {
            status: Status::Unknown,
            json: serde_json::Map::from_iter([("explanation".to_string(), Value::from(why.clone()))]),
            stats,
            payload: Payload::default(),
        }
    }
}

impl Report for ExplainReport {
    fn text(&self, puzzle: &dyn Puzzle) -> Result<String, Error> {
        let mut out = heading(puzzle.kind(), puzzle.title());
        match self.status {
            Status::Solved => out.push_str("the puzzle has a solution, so there is nothing to explain\n"),
            Status::Unknown => out.push_str("unknown; no explanation was reached\n"),
            Status::NoSolution => {
                if let Some(certificate) = &self.certificate {
                    out.push_str(&format!("no solution: {certificate}\n"));
                }
                if !self.constraints.is_empty() {
                    let n = self.constraints.len();
                    if n == 1 {
                        out.push_str("no solution: this constraint alone cannot hold:\n");
                    } else {
                        out.push_str(&format!(
                            "no solution: these {n} constraints cannot all hold, and dropping any one of them leaves a solvable puzzle:\n"
                        ));
                    }
                    if let Some(rule) = &self.rule {
                        out.push_str(&format!("  ({rule})\n"));
                    }
                    for constraint in self.constraints.iter().take(SHOWN_CONSTRAINTS) {
                        out.push_str(&format!("  - {}\n", printable(&constraint.name)));
                    }
                    if n > SHOWN_CONSTRAINTS {
                        out.push_str(&format!(
                            "  ... and {} more (the JSON output lists them all)\n",
                            n - SHOWN_CONSTRAINTS
                        ));
                    }
                } else if let Some(rule) = &self.rule {
                    out.push_str(&format!("({rule})\n"));
                } else if self.certificate.is_none() {
                    out.push_str("no solution: the puzzle's fixed rules alone cannot be met\n");
                }
                out.push_str(&puzzle.text(Drawn::Explanation(self))?.unwrap_or_default());
            }
        }
        out.push_str(&format!("({})\n", stats_line(&self.stats)));
        if let Some(why) = &self.stopped {
            out.push_str(&format!("why: {why}\n"));
        }
        Ok(out)
    }

    fn drawn(&self) -> Option<Drawn<'_>> {
        Some(Drawn::Explanation(self))
    }

    fn exit_code(&self) -> u8 {
        status_code(self.status)
    }
}

impl Stoppable for ExplainReport {
    fn stopped(stats: Stats, why: String, _: &Progress) -> ExplainReport {
        ExplainReport {
            status: Status::Unknown,
            constraints: Vec::new(),
            certificate: None,
            rule: None,
            stats,
            stopped: Some(why),
        }
    }
}

impl Report for CompareReport {
    /// A table, one row per engine, and whether they agree.
    fn text(&self, puzzle: &dyn Puzzle) -> Result<String, Error> {
        let mut out = heading(puzzle.kind(), puzzle.title());
        let counting = self.results.iter().any(|r| r.count.is_some());
        let costs = self.results.iter().any(|r| r.cost.is_some());
        let objectives = self.results.iter().any(|r| r.objective.is_some());
        let several = several_solvers(&self.results);
        let mut rows = vec![{
            let mut header = vec!["encoding", "variables", "clauses", "SAT calls", "ms", "answer"];
            if several {
                header.insert(1, "solver");
            }
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
        for r in &self.results {
            let status = match r.outcome {
                Outcome::Answered => {
                    serde_json::to_value(r.status).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
                }
                Outcome::Refused => "refused".to_string(),
                Outcome::Stopped => "stopped".to_string(),
                Outcome::NotRun => "not run".to_string(),
            };
            let mut row = vec![
                r.encoding.clone(),
                r.variables.to_string(),
                r.clauses.to_string(),
                r.sat_calls.to_string(),
                format!("{:.2}", r.ms),
                status,
            ];
            if several {
                row.insert(1, r.solver.clone());
            }
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
                .map(
                    |(i, (cell, &w))| {
                        if i == 0 || several && i == 1 { format!("{cell:<w$}") } else { format!("{cell:>w$}") }
                    },
                )
                .collect();
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        }
        for r in &self.results {
            if let Some(note) = &r.note {
                out.push_str(&format!("{}: {}\n", r.label(several), note));
            }
        }
        out.push_str(match self.agreement {
            Agreement::All => "all engines answered and agree\n",
            Agreement::Partial if self.all_refused() => "no engine took the model\n",
            Agreement::Partial if !self.stopped() => {
                "the engines that answered agree; the others refused the model as too large for them\n"
            }
            Agreement::Partial => "the engines that answered agree, but not every engine answered\n",
            Agreement::Disagree => "ENGINES DISAGREE\n",
        });
        Ok(out)
    }

    fn exit_code(&self) -> u8 {
        match self.agreement {
            Agreement::All => exit::SOLVED,
            Agreement::Disagree => exit::NO_SOLUTION,
            // A refusal is bad input for that engine, as with solve; only a
            // stop leaves the comparison without a verdict.
            Agreement::Partial if self.all_refused() => exit::BAD_INPUT,
            Agreement::Partial if !self.stopped() => exit::SOLVED,
            Agreement::Partial => exit::UNKNOWN,
        }
    }
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
/// assert_eq!(somaria::report::printable("a\u{1b}[31mb"), "a\\u{1b}[31mb");
/// assert_eq!(somaria::report::printable("Akh Va'quot"), "Akh Va'quot");
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

/// Text with its drawing glyphs (arrows, the multiplication sign, box
/// lines, shaded cells and marks) replaced by ASCII, for terminals that
/// draw them badly or double-width.
///
/// ```
/// assert_eq!(somaria::report::ascii("→ ↓ ← ↑ right ×3"), "> v < ^ right x3");
/// assert_eq!(somaria::report::ascii("┏━┳━┓\n┃●│█┃"), "+-+-+\n|*|#|");
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
            '●' => '*',
            '○' => 'o',
            '■' | '█' => '#',
            '─' | '━' | '╴' | '╶' | '╸' | '╺' => '-',
            '│' | '┃' | '╵' | '╷' | '╹' | '╻' => '|',
            '┄' | '┅' | '┈' | '┉' => '.',
            '┆' | '┇' | '┊' | '┋' => ':',
            '★' => '*',
            '−' => '-',
            '÷' => '/',
            '◤' | '◢' => '/',
            '◥' | '◣' => '\\',
            '☼' => 'S',
            '☽' => 'M',
            '\u{2500}'..='\u{257f}' => '+',
            other => other,
        })
        .collect()
}

/// The most constraints listed in a text explanation; JSON lists them all.
const SHOWN_CONSTRAINTS: usize = 50;

/// `text` without its statistics: each "(ENGINE: ...)" that ends a line,
/// as `stats_line` and the plans' times write them, and a line left
/// empty by that. For `--quiet`.
pub fn without_stats(text: &str, engine: &str) -> String {
    let opening = format!("({engine}: ");
    let mut out = String::new();
    for line in text.lines() {
        let kept = match line.find(&opening) {
            Some(at) if line.ends_with(')') => line[..at].trim_end(),
            _ => line,
        };
        if !kept.is_empty() || line.is_empty() {
            out.push_str(kept);
            out.push('\n');
        }
    }
    out
}

fn stats_line(stats: &Stats) -> String {
    if let Some(search) = &stats.search {
        return format!(
            "{}: {} variables, {} nodes, {} fails, {} propagations, {:.2} ms building, {:.2} ms searching",
            stats.engine,
            stats.variables,
            search.nodes,
            search.fails,
            search.propagations,
            stats.encode_ms,
            stats.solve_ms
        );
    }
    let calls = if stats.sat_calls == 1 { "call" } else { "calls" };
    format!(
        "{}: {} variables, {} clauses, {} SAT {calls}, {:.2} ms encoding, {:.2} ms solving",
        stats.engine, stats.variables, stats.clauses, stats.sat_calls, stats.encode_ms, stats.solve_ms
    )
}

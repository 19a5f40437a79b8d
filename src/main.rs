//! The `somaria` command line: parse arguments, load the model, run the
//! puzzle on a worker thread under an optional time limit, print the report,
//! and exit with the code of the verdict.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::json;

use somaria::puzzles::compare::{self, CompareOptions, CompareReport, EngineResult};
use somaria::puzzles::{
    self, CountOptions, CountReport, DecidedBy, ExplainReport, FactsReport, ProofRequest, Puzzle, SolveOptions,
    SolveReport, Stats, Status,
};
use somaria::render;
use somaria::solver::{Progress, ProofFormat};

/// Exit codes, part of the CLI contract.
mod exit {
    pub const SOLVED: u8 = 0;
    pub const NO_SOLUTION: u8 = 1;
    pub const BAD_INPUT: u8 = 2;
    pub const UNKNOWN: u8 = 3;
    pub const INTERNAL: u8 = 4;
}

#[derive(Parser)]
#[command(
    name = "somaria",
    version,
    about = "Model logic puzzles, solve them with SAT, and prove them unique or unsolvable."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The arguments every command shares.
#[derive(clap::Args)]
struct Common {
    /// The model file (TOML).
    model: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
    /// Give up after SECONDS and report "unknown" (exit 3) with the progress so far.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    timeout: Option<Duration>,
}

#[derive(Subcommand)]
enum Command {
    /// Find a solution and check it, or prove that there is none.
    ///
    /// Exit code: 0 solved, 1 no solution, 2 bad input, 3 unknown, 4 internal error.
    Solve {
        #[command(flatten)]
        common: Common,
        /// Write the CNF that is solved to FILE in DIMACS format.
        #[arg(long, value_name = "FILE")]
        dimacs: Option<PathBuf>,
        /// When SAT proves there is no solution, write its refutation proof to FILE.
        #[arg(long, value_name = "FILE")]
        proof: Option<PathBuf>,
        /// The proof format.
        #[arg(long, value_enum, default_value_t = ProofFormatArg::Varisat, requires = "proof")]
        proof_format: ProofFormatArg,
        /// The encoding or engine to use; the default is the family's fastest.
        #[arg(long, visible_alias = "encoding", value_name = "NAME")]
        engine: Option<String>,
        /// Skip the reasoning done before SAT, so the encoding alone decides.
        #[arg(long)]
        no_presolve: bool,
    },
    /// Count the distinct solutions, checking each one.
    ///
    /// Exit code: 0 whatever the count, 2 bad input, 3 stopped early by the time limit, 4 internal error.
    Count {
        #[command(flatten)]
        common: Common,
        /// Stop after N solutions (N >= 1); the report then says the count is incomplete.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        limit: Option<u64>,
        /// The encoding or engine to use; the default is the family's fastest.
        #[arg(long, visible_alias = "encoding", value_name = "NAME")]
        engine: Option<String>,
        /// Skip the reasoning done before SAT, so the encoding alone decides.
        #[arg(long)]
        no_presolve: bool,
    },
    /// Report what holds in every solution and what can vary.
    ///
    /// Exit code: 0 solved, 1 no solution, 2 bad input, 3 unknown, 4 internal error.
    Facts {
        #[command(flatten)]
        common: Common,
        /// The encoding or engine to use; the default is the family's fastest.
        #[arg(long, visible_alias = "encoding", value_name = "NAME")]
        engine: Option<String>,
    },
    /// For a puzzle with no solution, name a minimal set of its constraints that cannot all hold.
    ///
    /// Exit code: 0 the puzzle has a solution, 1 no solution (explained), 2 bad input, 3 unknown, 4 internal error.
    Explain {
        #[command(flatten)]
        common: Common,
        /// The encoding or engine to use; the default is the family's fastest.
        #[arg(long, visible_alias = "encoding", value_name = "NAME")]
        engine: Option<String>,
    },
    /// Run every encoding or engine on the model and check that they agree.
    ///
    /// Exit code: 0 all agree, 1 some disagree, 2 bad input, 3 stopped by the time limit, 4 internal error.
    Compare {
        #[command(flatten)]
        common: Common,
        /// Also count the solutions with each engine.
        #[arg(long)]
        count: bool,
        /// Stop each count after N solutions.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), requires = "count")]
        limit: Option<u64>,
        /// Skip the reasoning done before SAT, so each encoding decides alone.
        #[arg(long)]
        no_presolve: bool,
    },
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum OutputFormat {
    Text,
    Json,
}

#[derive(Copy, Clone, ValueEnum)]
enum ProofFormatArg {
    /// varisat's own format (check with varisat-checker).
    Varisat,
    /// Textual DRAT (check with drat-trim).
    Drat,
}

fn parse_timeout(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text.parse().map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if seconds.is_finite() && seconds > 0.0 && seconds < 1e9 {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(format!("{text} is out of range; expected a number of seconds above 0"))
    }
}

/// A failure that ends the run, with its exit code.
struct Failure {
    code: u8,
    message: String,
}

impl From<somaria::model::LoadError> for Failure {
    fn from(e: somaria::model::LoadError) -> Failure {
        Failure { code: exit::BAD_INPUT, message: e.to_string() }
    }
}

impl From<puzzles::Error> for Failure {
    fn from(e: puzzles::Error) -> Failure {
        let code = match e {
            puzzles::Error::UnknownEngine { .. }
            | puzzles::Error::Unsupported { .. }
            | puzzles::Error::Output(_)
            | puzzles::Error::TooLarge(_) => exit::BAD_INPUT,
            puzzles::Error::Solver(_) | puzzles::Error::CheckFailed(_) | puzzles::Error::Internal(_) => exit::INTERNAL,
        };
        Failure { code, message: e.to_string() }
    }
}

/// Set by Ctrl-C; the supervisor stops waiting when it sees it.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

fn main() -> ExitCode {
    let cli = Cli::parse();
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            // A second Ctrl-C means now.
            std::process::exit(130);
        }
    });
    match run(cli.command) {
        Ok(code) => ExitCode::from(code),
        Err(failure) => {
            eprintln!("error: {}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}

fn run(command: Command) -> Result<u8, Failure> {
    match command {
        Command::Solve { common, dimacs, proof, proof_format, engine, no_presolve } => {
            let run = Run::start(&common)?;
            let partial_proof = proof.as_deref().map(partial_path);
            let format = match proof_format {
                ProofFormatArg::Varisat => ProofFormat::Varisat,
                ProofFormatArg::Drat => ProofFormat::Drat,
            };
            let options = SolveOptions {
                engine: engine.clone(),
                keep_cnf: dimacs.is_some(),
                skip_presolve: no_presolve,
                proof: partial_proof.clone().map(|path| ProofRequest { path, format }),
                progress: run.progress.clone(),
            };
            let report = match run.supervise(move |puzzle| puzzle.solve(&options)) {
                Finished::Done(result) => result.inspect_err(|_| remove_partial(partial_proof.as_deref()))?,
                Finished::Stopped(reason) => {
                    remove_partial(partial_proof.as_deref());
                    SolveReport {
                        status: Status::Unknown,
                        solution: None,
                        explanation: Some(reason.describe()),
                        cost: None,
                        objective: None,
                        decided_by: DecidedBy::Sat,
                        stats: run.partial_stats(engine.as_deref(), &reason),
                        cnf: None,
                    }
                }
            };
            if let (Some(path), Some(cnf)) = (&dimacs, &report.cnf) {
                write_whole(path, |out| cnf.write_dimacs(out))?;
            }
            let proof_note = match (&proof, &partial_proof) {
                (Some(path), Some(partial)) => Some(settle_proof(&report, path, partial, proof_format)?),
                _ => None,
            };
            let mut json = render::solve_json(run.kind(), &report);
            let mut text = render::solve_text(run.kind(), run.title(), &report);
            if let Some(note) = proof_note {
                json["proof"] = note.json;
                text.push_str(&note.text);
            }
            run.emit(json, text);
            Ok(status_code(report.status))
        }
        Command::Count { common, limit, engine, no_presolve } => {
            let run = Run::start(&common)?;
            let options = CountOptions {
                engine: engine.clone(),
                limit,
                skip_presolve: no_presolve,
                progress: run.progress.clone(),
            };
            let (report, stopped) = match run.supervise(move |puzzle| puzzle.count(&options)) {
                Finished::Done(result) => (result?, None),
                Finished::Stopped(reason) => {
                    let stats = run.partial_stats(engine.as_deref(), &reason);
                    let report =
                        CountReport { count: run.progress.solutions(), complete: false, saturated: false, stats };
                    (report, Some(reason.describe()))
                }
            };
            let text = render::count_text(run.kind(), run.title(), &report, stopped.as_deref());
            run.emit(render::count_json(run.kind(), &report), text);
            Ok(if stopped.is_some() { exit::UNKNOWN } else { exit::SOLVED })
        }
        Command::Facts { common, engine } => {
            let run = Run::start(&common)?;
            let options =
                SolveOptions { engine: engine.clone(), progress: run.progress.clone(), ..SolveOptions::default() };
            let report = match run.supervise(move |puzzle| puzzle.facts(&options)) {
                Finished::Done(result) => result?,
                Finished::Stopped(reason) => FactsReport {
                    status: Status::Unknown,
                    json: serde_json::Map::new(),
                    text: format!("unknown: {}\n", reason.describe()),
                    stats: run.partial_stats(engine.as_deref(), &reason),
                },
            };
            run.emit(render::facts_json(run.kind(), &report), render::facts_text(run.kind(), run.title(), &report));
            Ok(status_code(report.status))
        }
        Command::Explain { common, engine } => {
            let run = Run::start(&common)?;
            let options =
                SolveOptions { engine: engine.clone(), progress: run.progress.clone(), ..SolveOptions::default() };
            let report = match run.supervise(move |puzzle| puzzle.explain(&options)) {
                Finished::Done(result) => result?,
                Finished::Stopped(reason) => ExplainReport {
                    status: Status::Unknown,
                    constraints: Vec::new(),
                    certificate: None,
                    stats: run.partial_stats(engine.as_deref(), &reason),
                },
            };
            run.emit(render::explain_json(run.kind(), &report), render::explain_text(run.kind(), run.title(), &report));
            Ok(status_code(report.status))
        }
        Command::Compare { common, count, limit, no_presolve } => {
            let run = Run::start(&common)?;
            let options = CompareOptions { count, limit, skip_presolve: no_presolve, progress: run.progress.clone() };
            let (sender, receiver) = mpsc::channel();
            // Each engine's result is sent as it finishes, so a time limit
            // still reports the engines that got through.
            let finished = run.supervise(move |puzzle| {
                for engine in puzzle.engines() {
                    let _ = sender.send(compare::run_engine(puzzle, engine, &options)?);
                }
                Ok(())
            });
            let mut results: Vec<EngineResult> = receiver.try_iter().collect();
            let stopped = match finished {
                Finished::Done(result) => {
                    result?;
                    false
                }
                Finished::Stopped(_) => true,
            };
            for engine in &run.puzzle.engines()[results.len()..] {
                results.push(EngineResult {
                    encoding: engine.to_string(),
                    status: Status::Unknown,
                    ms: 0.0,
                    variables: 0,
                    clauses: 0,
                    sat_calls: 0,
                    cost: None,
                    objective: None,
                    count: None,
                    count_complete: None,
                });
            }
            let report = CompareReport { agree: compare::agree(&results), results };
            run.emit(render::compare_json(run.kind(), &report), render::compare_text(run.kind(), run.title(), &report));
            Ok(if stopped {
                exit::UNKNOWN
            } else if report.agree {
                exit::SOLVED
            } else {
                exit::NO_SOLUTION
            })
        }
    }
}

/// One command's run: the loaded puzzle, its live counters, and how to
/// print the report.
struct Run {
    puzzle: Arc<dyn Puzzle>,
    progress: Arc<Progress>,
    format: OutputFormat,
    timeout: Option<Duration>,
}

impl Run {
    fn start(common: &Common) -> Result<Run, Failure> {
        Ok(Run {
            puzzle: Arc::from(puzzles::load_file(&common.model)?),
            progress: Arc::new(Progress::default()),
            format: common.format,
            timeout: common.timeout,
        })
    }

    fn kind(&self) -> &'static str {
        self.puzzle.kind()
    }

    fn title(&self) -> Option<&str> {
        self.puzzle.title()
    }

    /// Runs `job` on the puzzle under the time limit; see [`supervise`].
    fn supervise<T: Send + 'static>(
        &self,
        job: impl FnOnce(&dyn Puzzle) -> Result<T, puzzles::Error> + Send + 'static,
    ) -> Finished<T> {
        let puzzle = Arc::clone(&self.puzzle);
        supervise(self.timeout, &self.progress, move || job(puzzle.as_ref()))
    }

    /// What a stopped run knew: the engine, the SAT calls so far, the time.
    fn partial_stats(&self, engine: Option<&str>, reason: &StopReason) -> Stats {
        let limit_ms = match reason {
            StopReason::TimeLimit(limit) => Stats::ms(*limit),
            StopReason::Interrupted => 0.0,
        };
        Stats {
            engine: engine.unwrap_or(self.puzzle.engines()[0]).to_string(),
            sat_calls: self.progress.sat_calls(),
            solve_ms: limit_ms,
            ..Stats::default()
        }
    }

    /// Prints the report in the chosen format.
    fn emit(&self, json: serde_json::Value, text: String) {
        match self.format {
            OutputFormat::Json => print(&json.to_string()),
            OutputFormat::Text => print(text.trim_end()),
        }
    }
}

fn status_code(status: Status) -> u8 {
    match status {
        Status::Solved => exit::SOLVED,
        Status::NoSolution => exit::NO_SOLUTION,
        Status::Unknown => exit::UNKNOWN,
    }
}

/// Why a run was stopped before it finished.
enum StopReason {
    TimeLimit(Duration),
    Interrupted,
}

impl StopReason {
    fn describe(&self) -> String {
        match self {
            StopReason::TimeLimit(limit) => format!("stopped by the time limit of {} s", limit.as_secs_f64()),
            StopReason::Interrupted => "interrupted by Ctrl-C".to_string(),
        }
    }
}

enum Finished<T> {
    Done(Result<T, puzzles::Error>),
    Stopped(StopReason),
}

/// Runs `job` on a worker thread and waits for it, up to the time limit or
/// a Ctrl-C, showing progress on stderr when it is a terminal. varisat has no
/// interrupt, so a stopped worker is abandoned; the process exits soon after.
fn supervise<T: Send + 'static>(
    timeout: Option<Duration>,
    progress: &Arc<Progress>,
    job: impl FnOnce() -> Result<T, puzzles::Error> + Send + 'static,
) -> Finished<T> {
    let started = Instant::now();
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        // A panic is a bug in somaria; report it as an internal error rather
        // than as a verdict.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown cause".to_string());
            Err(puzzles::Error::Internal(format!("somaria panicked: {what}")))
        });
        let _ = sender.send(result);
    });
    let mut display = ProgressDisplay::new();
    loop {
        let waited = started.elapsed();
        if let Some(limit) = timeout
            && waited >= limit
        {
            display.clear();
            return Finished::Stopped(StopReason::TimeLimit(limit));
        }
        if INTERRUPTED.load(Ordering::SeqCst) {
            display.clear();
            return Finished::Stopped(StopReason::Interrupted);
        }
        let tick = Duration::from_millis(100);
        let wait = timeout.map_or(tick, |limit| tick.min(limit.saturating_sub(waited)));
        match receiver.recv_timeout(wait) {
            Ok(result) => {
                display.clear();
                return Finished::Done(result);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => display.update(waited, progress),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                display.clear();
                let message = "the worker thread stopped without an answer".to_string();
                return Finished::Done(Err(puzzles::Error::Internal(message)));
            }
        }
    }
}

/// A spinner on stderr with the counters of a long run, shown only when
/// stderr is a terminal and the run has lasted a moment.
struct ProgressDisplay {
    bar: Option<indicatif::ProgressBar>,
    enabled: bool,
}

impl ProgressDisplay {
    fn new() -> ProgressDisplay {
        ProgressDisplay { bar: None, enabled: std::io::stderr().is_terminal() }
    }

    fn update(&mut self, elapsed: Duration, progress: &Progress) {
        if !self.enabled || elapsed < Duration::from_millis(500) {
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        bar.set_message(format!(
            "{:.1} s · {} SAT calls · {} solutions",
            elapsed.as_secs_f64(),
            progress.sat_calls(),
            progress.solutions()
        ));
    }

    fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// What became of a requested proof, for the text and JSON reports.
struct ProofNote {
    json: serde_json::Value,
    text: String,
}

/// Keeps the proof when SAT refuted the puzzle; otherwise removes it and
/// says why there is none.
fn settle_proof(
    report: &SolveReport,
    path: &Path,
    partial: &Path,
    format: ProofFormatArg,
) -> Result<ProofNote, Failure> {
    let format_name = match format {
        ProofFormatArg::Varisat => "varisat",
        ProofFormatArg::Drat => "drat",
    };
    let refuted_by_sat = report.status == Status::NoSolution && report.decided_by == DecidedBy::Sat;
    if refuted_by_sat && partial.exists() {
        std::fs::rename(partial, path).map_err(|e| Failure {
            code: exit::BAD_INPUT,
            message: format!("{}: cannot write: {e}", path.display()),
        })?;
        return Ok(ProofNote {
            json: json!({"path": path.display().to_string(), "format": format_name}),
            text: format!("\nproof of no solution written to {} ({format_name} format)\n", path.display()),
        });
    }
    remove_partial(Some(partial));
    let reason = match (report.status, report.decided_by) {
        (Status::Solved, _) => "the puzzle has a solution, so there is nothing to refute".to_string(),
        (Status::Unknown, _) => "no verdict was reached".to_string(),
        (Status::NoSolution, DecidedBy::Presolve) => format!(
            "the verdict came from the presolve, not from SAT; its certificate: {}",
            report.explanation.as_deref().unwrap_or("(none given)")
        ),
        (Status::NoSolution, _) => "the verdict came from an exact search outside SAT".to_string(),
    };
    Ok(ProofNote { json: json!({"path": null, "reason": reason}), text: format!("\nno proof written: {reason}\n") })
}

fn partial_path(path: &Path) -> PathBuf {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    PathBuf::from(partial)
}

fn remove_partial(partial: Option<&Path>) {
    if let Some(path) = partial {
        let _ = std::fs::remove_file(path);
    }
}

/// Prints a line to stdout, ignoring a closed pipe (as with `| head`).
fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
}

/// Writes a file through a temporary sibling and renames it into place, so a
/// reader never sees it half-written.
fn write_whole(path: &Path, write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>) -> Result<(), Failure> {
    let partial = partial_path(path);
    let result = std::fs::File::create(&partial).and_then(|mut file| {
        write(&mut file)?;
        file.sync_all()
    });
    match result.and_then(|()| std::fs::rename(&partial, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            remove_partial(Some(&partial));
            Err(Failure { code: exit::BAD_INPUT, message: format!("{}: cannot write: {e}", path.display()) })
        }
    }
}

//! The `somaria` command line: parse arguments, load the model and run the
//! puzzle on a worker thread under the time and memory limits, write any
//! output files safely, print the report, and exit with the code of the
//! verdict.

mod cli;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::json;

use cli::output::{Target, refuse_shared};
use cli::supervise::{Finished, INTERRUPTED, Limits, supervise};
use cli::{Failure, exit, memory};
use somaria::puzzles::compare::{self, CompareOptions, CompareReport, EngineResult};
use somaria::puzzles::{
    self, CountOptions, CountReport, DecidedBy, Drawn, ExplainReport, FactsReport, Payload, ProofRequest, Puzzle,
    SolveOptions, SolveReport, Stats, Status,
};
use somaria::render;
use somaria::solver::{Progress, ProofFormat, SolverConfig};

#[global_allocator]
static ALLOCATOR: memory::CountingAllocator = memory::CountingAllocator;

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
    /// The model file (TOML), or - for standard input.
    model: PathBuf,
    /// Output format: text, JSON, or an SVG picture (for solve, facts and explain).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
    /// Write the report (for encode, the DIMACS file) to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// In text reports, draw arrows and other glyphs with plain ASCII.
    #[arg(long)]
    ascii: bool,
    /// Give up after SECONDS (0.001 to 31536000, one year), loading included, and report "unknown" (exit 3) with
    /// the progress so far.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    timeout: Option<Duration>,
    /// Give up with "unknown" (exit 3) when the process holds more than SIZE of memory, such as 512M or 2G
    /// [default: half of the machine's memory].
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_size)]
    memory_limit: Option<u64>,
}

#[derive(Subcommand)]
enum Command {
    /// Find a solution and check it, or prove that there is none.
    ///
    /// Exit code: 0 solved, 1 no solution, 2 bad input, 3 unknown, 4 internal error.
    Solve {
        #[command(flatten)]
        common: Common,
        /// Write the CNF that is solved to FILE in DIMACS format (- for standard output, before the report).
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
    /// Exit code: 0 whatever the count, 2 bad input, 3 stopped early by a limit, 4 internal error.
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
    /// Exit code: 0 all answered and agree, 1 some disagree, 2 bad input, 3 some gave no verdict (stopped by a
    /// limit or refused), 4 internal error.
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
    /// Write the CNF an engine would hand to the SAT solver, without solving, for use with another solver.
    ///
    /// Exit code: 0 written, 2 bad input or an engine without a CNF, 3 stopped by a limit, 4 internal error.
    Encode {
        #[command(flatten)]
        common: Common,
        /// The encoding or engine to use; the default is the family's fastest.
        #[arg(long, visible_alias = "encoding", value_name = "NAME")]
        engine: Option<String>,
    },
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum OutputFormat {
    Text,
    Json,
    Svg,
}

#[derive(Copy, Clone, ValueEnum)]
enum ProofFormatArg {
    /// varisat's own format (check with varisat-checker).
    Varisat,
    /// Textual DRAT (check with drat-trim).
    Drat,
}

impl ProofFormatArg {
    fn format(self) -> ProofFormat {
        match self {
            ProofFormatArg::Varisat => ProofFormat::Varisat,
            ProofFormatArg::Drat => ProofFormat::Drat,
        }
    }

    fn name(self) -> &'static str {
        match self {
            ProofFormatArg::Varisat => "varisat",
            ProofFormatArg::Drat => "drat",
        }
    }
}

/// The shortest and longest time limits accepted: a millisecond, a year.
const TIMEOUT_RANGE: (f64, f64) = (0.001, 365.0 * 24.0 * 3600.0);

fn parse_timeout(text: &str) -> Result<Duration, String> {
    let range =
        format!("expected a number of seconds from {} (1 ms) to {} (one year)", TIMEOUT_RANGE.0, TIMEOUT_RANGE.1);
    let seconds: f64 = text.trim().parse().map_err(|_| format!("{text:?} is not a number of seconds; {range}"))?;
    if seconds.is_finite() && (TIMEOUT_RANGE.0..=TIMEOUT_RANGE.1).contains(&seconds) {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(format!("{text} is out of range; {range}"))
    }
}

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
            solve(&common, dimacs.as_deref(), proof.as_deref(), proof_format, engine, no_presolve)
        }
        Command::Count { common, limit, engine, no_presolve } => {
            let run = Run::start(&common, &[])?;
            let options = CountOptions {
                engine: engine.clone(),
                limit,
                skip_presolve: no_presolve,
                progress: run.progress.clone(),
                solver: run.solver(),
            };
            let (report, stopped) = match run.supervise(move |puzzle| puzzle.count(&options)) {
                Finished::Done(result) => (result?, None),
                Finished::Stopped(reason) => {
                    let stats = run.partial_stats(engine.as_deref());
                    let report =
                        CountReport { count: run.progress.solutions(), complete: false, saturated: false, stats };
                    (report, Some(reason.describe()))
                }
            };
            let text = render::count_text(run.kind(), run.title(), &report, stopped.as_deref());
            run.emit(render::count_json(run.kind(), &report), text, None)?;
            Ok(if stopped.is_some() { exit::UNKNOWN } else { exit::SOLVED })
        }
        Command::Facts { common, engine } => {
            let run = Run::start(&common, &[])?;
            let options = SolveOptions {
                engine: engine.clone(),
                progress: run.progress.clone(),
                solver: run.solver(),
                ..SolveOptions::default()
            };
            let report = match run.supervise(move |puzzle| puzzle.facts(&options)) {
                Finished::Done(result) => result?,
                Finished::Stopped(reason) => FactsReport {
                    status: Status::Unknown,
                    json: serde_json::Map::from_iter([("explanation".to_string(), json!(reason.describe()))]),
                    text: format!("unknown: {}\n", reason.describe()),
                    stats: run.partial_stats(engine.as_deref()),
                    payload: Payload::default(),
                },
            };
            let json = render::facts_json(run.kind(), &report);
            let text = render::facts_text(run.kind(), run.title(), &report);
            run.emit(json, text, Some(Drawn::Facts(&report)))?;
            Ok(status_code(report.status))
        }
        Command::Explain { common, engine } => {
            let run = Run::start(&common, &[])?;
            let options = SolveOptions {
                engine: engine.clone(),
                progress: run.progress.clone(),
                solver: run.solver(),
                ..SolveOptions::default()
            };
            let (report, stopped) = match run.supervise(move |puzzle| puzzle.explain(&options)) {
                Finished::Done(result) => (result?, None),
                Finished::Stopped(reason) => {
                    let report = ExplainReport {
                        status: Status::Unknown,
                        constraints: Vec::new(),
                        certificate: None,
                        rule: None,
                        stats: run.partial_stats(engine.as_deref()),
                    };
                    (report, Some(reason.describe()))
                }
            };
            let mut json = render::explain_json(run.kind(), &report);
            let mut text = render::explain_text(run.kind(), run.title(), &report);
            if let Some(why) = stopped {
                text.push_str(&format!("why: {why}\n"));
                json["explanation"] = json!(why);
            }
            run.emit(json, text, Some(Drawn::Explanation(&report)))?;
            Ok(status_code(report.status))
        }
        Command::Compare { common, count, limit, no_presolve } => compare(&common, count, limit, no_presolve),
        Command::Encode { common, engine } => encode(&common, engine),
    }
}

fn solve(
    common: &Common,
    dimacs: Option<&Path>,
    proof: Option<&Path>,
    proof_format: ProofFormatArg,
    engine: Option<String>,
    no_presolve: bool,
) -> Result<u8, Failure> {
    let dimacs_target = dimacs.map(Target::resolve).transpose().map_err(Failure::bad_input)?;
    let proof_target = proof.map(Target::resolve).transpose().map_err(Failure::bad_input)?;
    let mut others = Vec::new();
    if let (Some(path), Some(target)) = (dimacs, &dimacs_target) {
        others.push(("--dimacs", path, target));
    }
    if let (Some(path), Some(target)) = (proof, &proof_target) {
        others.push(("--proof", path, target));
    }
    let run = Run::start(common, &others)?;
    // The proof goes to a temporary file of its own, kept only when SAT
    // refutes the puzzle.
    let proof_temp = match &proof_target {
        Some(target) => Some(target.temp_file().map_err(|e| cannot_write(proof.unwrap_or(Path::new("")), e))?),
        None => None,
    };
    let options = SolveOptions {
        engine: engine.clone(),
        keep_cnf: dimacs.is_some(),
        skip_presolve: no_presolve,
        proof: proof_temp
            .as_ref()
            .map(|t| ProofRequest { path: t.path().to_path_buf(), format: proof_format.format() }),
        progress: run.progress.clone(),
        solver: run.solver(),
    };
    let (report, stopped) = match run.supervise(move |puzzle| puzzle.solve(&options)) {
        Finished::Done(result) => (result?, false),
        Finished::Stopped(reason) => {
            let report = SolveReport {
                status: Status::Unknown,
                solution: None,
                explanation: Some(reason.describe()),
                cost: None,
                objective: None,
                decided_by: DecidedBy::Sat,
                stats: run.partial_stats(engine.as_deref()),
                cnf: None,
            };
            (report, true)
        }
    };
    let mut notes: Vec<(&str, serde_json::Value, String)> = Vec::new();
    if let (Some(path), Some(target)) = (dimacs, &dimacs_target) {
        let note = write_dimacs(&run, path, target, &report, stopped, engine.as_deref())?;
        notes.push(("dimacs", note.0, note.1));
    }
    if let (Some(path), Some(target), Some(temp)) = (proof, &proof_target, proof_temp) {
        let note = settle_proof(&report, path, target, temp, proof_format)?;
        notes.push(("proof", note.0, note.1));
    }
    let mut json = render::solve_json(run.kind(), &report);
    let mut text = render::solve_text(run.kind(), run.title(), &report);
    for (key, value, line) in notes {
        json[key] = value;
        text.push_str(&line);
    }
    run.emit(json, text, Some(Drawn::Solution(&report)))?;
    Ok(status_code(report.status))
}

/// Writes `--dimacs`: the formula the solve reported, or, when something
/// other than SAT decided, the formula the engine would have solved; or
/// says why there is none. Returns the JSON member and the text line.
fn write_dimacs(
    run: &Run,
    path: &Path,
    target: &Target,
    report: &SolveReport,
    stopped: bool,
    engine: Option<&str>,
) -> Result<(serde_json::Value, String), Failure> {
    let shown = path.display();
    if let Some(cnf) = &report.cnf {
        target.write(|out| cnf.write_dimacs(out)).map_err(|e| cannot_write(path, e))?;
        let line = format!("\nDIMACS of the formula solved written to {shown}\n");
        return Ok((json!({"path": shown.to_string(), "formula": "solved"}), line));
    }
    let why_none = if stopped {
        Some("the run was stopped before it built a formula to report; `somaria encode` writes the starting formula without solving".to_string())
    } else {
        let engine = engine.map(str::to_string);
        match run.supervise(move |puzzle| puzzle.formula(engine.as_deref())) {
            Finished::Done(Ok(formula)) => {
                target
                    .write(|out| formula.cnf.write_dimacs_noted(out, &formula.notes))
                    .map_err(|e| cannot_write(path, e))?;
                let decided = match report.decided_by {
                    DecidedBy::Presolve => "the presolve decided without SAT",
                    DecidedBy::Search => "an exact search outside SAT decided",
                    DecidedBy::Construction => "a route was built without SAT",
                    DecidedBy::Sat => "the solve reported no formula",
                };
                let line = format!(
                    "\n{decided}; DIMACS of the formula the {} engine would have solved written to {shown}\n",
                    formula.engine
                );
                return Ok((json!({"path": shown.to_string(), "formula": "unsolved", "note": decided}), line));
            }
            Finished::Done(Err(failure)) => Some(failure.message),
            Finished::Stopped(reason) => Some(format!("building the formula was {}", reason.describe())),
        }
    };
    let why = why_none.unwrap_or_default();
    Ok((json!({"path": null, "reason": why}), format!("\nno DIMACS written: {why}\n")))
}

/// Keeps the proof when SAT refuted the puzzle; otherwise drops it and
/// says why there is none.
fn settle_proof(
    report: &SolveReport,
    path: &Path,
    target: &Target,
    temp: tempfile::NamedTempFile,
    format: ProofFormatArg,
) -> Result<(serde_json::Value, String), Failure> {
    let refuted_by_sat = report.status == Status::NoSolution && report.decided_by == DecidedBy::Sat;
    if refuted_by_sat {
        target.settle(temp).map_err(|e| cannot_write(path, e))?;
        let shown = path.display();
        return Ok((
            json!({"path": shown.to_string(), "format": format.name()}),
            format!("\nproof of no solution written to {shown} ({} format)\n", format.name()),
        ));
    }
    let reason = match (report.status, report.decided_by) {
        (Status::Solved, _) => "the puzzle has a solution, so there is nothing to refute".to_string(),
        (Status::Unknown, _) => "no verdict was reached".to_string(),
        (Status::NoSolution, DecidedBy::Presolve) => format!(
            "the verdict came from the presolve, not from SAT; its certificate: {}",
            report.explanation.as_deref().unwrap_or("(none given)")
        ),
        (Status::NoSolution, _) => "the verdict came from an exact search outside SAT".to_string(),
    };
    Ok((json!({"path": null, "reason": reason}), format!("\nno proof written: {reason}\n")))
}

fn compare(common: &Common, count: bool, limit: Option<u64>, no_presolve: bool) -> Result<u8, Failure> {
    let run = Run::start(common, &[])?;
    let options = CompareOptions {
        count,
        limit,
        skip_presolve: no_presolve,
        progress: run.progress.clone(),
        solver: run.solver(),
    };
    let (sender, receiver) = mpsc::channel();
    // Each engine's result is sent as it finishes, so a stop still reports
    // the engines that got through.
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
            None
        }
        Finished::Stopped(reason) => Some(reason),
    };
    for engine in &run.puzzle.engines()[results.len()..] {
        let why = match &stopped {
            Some(reason) if results.len() == run.puzzle.engines().iter().position(|e| e == engine).unwrap_or(0) => {
                format!("{} while it ran", reason.describe())
            }
            Some(_) => "not run: the comparison was stopped before it".to_string(),
            None => "not run".to_string(),
        };
        results.push(EngineResult::unfinished(engine, why));
    }
    let report = CompareReport::of(results);
    run.emit(render::compare_json(run.kind(), &report), render::compare_text(run.kind(), run.title(), &report), None)?;
    Ok(match report.agreement {
        compare::Agreement::All => exit::SOLVED,
        compare::Agreement::Disagree => exit::NO_SOLUTION,
        compare::Agreement::Partial => exit::UNKNOWN,
    })
}

fn encode(common: &Common, engine: Option<String>) -> Result<u8, Failure> {
    if common.format == OutputFormat::Svg {
        return Err(Failure::bad_input("encode writes DIMACS; expected --format text or json for its summary"));
    }
    let output = common.output.as_deref();
    let target = match output {
        Some(path) => Target::resolve(path).map_err(Failure::bad_input)?,
        None => Target::Stdout,
    };
    // The DIMACS file takes -o here; the summary goes to standard output.
    let run = Run::start_with(common, None)?;
    let formula = match run.supervise(move |puzzle| puzzle.formula(engine.as_deref())) {
        Finished::Done(result) => result?,
        Finished::Stopped(reason) => {
            let message = format!("{} while building the formula", reason.describe());
            return Err(Failure { code: exit::UNKNOWN, message });
        }
    };
    let mut notes = formula.notes.clone();
    notes.insert(0, format!("{} puzzle, {} engine, not solved", run.kind(), formula.engine));
    let shown = output.map_or("standard output".to_string(), |p| p.display().to_string());
    match target.write(|out| formula.cnf.write_dimacs_noted(out, &notes)) {
        // `somaria encode M | head` closes the pipe by choice, as for reports.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe && matches!(target, Target::Stdout) => {}
        written => written.map_err(|e| cannot_write(Path::new(&shown), e))?,
    }
    if !matches!(target, Target::Stdout) {
        let json = json!({
            "kind": run.kind(),
            "engine": formula.engine,
            "path": shown,
            "variables": formula.cnf.num_vars(),
            "clauses": formula.cnf.num_clauses(),
            "equisatisfiable": formula.equisatisfiable,
            "notes": formula.notes,
        });
        let meaning = if formula.equisatisfiable {
            "it has a model exactly when the puzzle has a solution"
        } else {
            "it leaves a constraint out: no model means no solution, but a model may not be a solution (see the \
             comments in the file)"
        };
        let text = format!(
            "wrote {shown}: the {} engine's formula, {} variables and {} clauses, not solved; {meaning}\n",
            formula.engine,
            formula.cnf.num_vars(),
            formula.cnf.num_clauses()
        );
        run.emit(json, text, None)?;
    }
    Ok(exit::SOLVED)
}

fn cannot_write(path: &Path, e: std::io::Error) -> Failure {
    Failure::bad_input(format!("{}: cannot write: {e}", path.display()))
}

/// One command's run: the loaded puzzle, its live counters and limits, and
/// how to print the report.
struct Run {
    puzzle: Arc<dyn Puzzle>,
    progress: Arc<Progress>,
    format: OutputFormat,
    ascii: bool,
    limits: Limits,
    /// Where the report goes, when not to standard output.
    report_target: Option<Target>,
}

impl Run {
    /// Settles where the report goes (refusing a file that another output
    /// also names), then loads the model.
    fn start(common: &Common, others: &[(&str, &Path, &Target)]) -> Result<Run, Failure> {
        let report_target = match &common.output {
            Some(path) => {
                let target = Target::resolve(path).map_err(Failure::bad_input)?;
                let mut all = others.to_vec();
                all.push(("--output", path, &target));
                refuse_shared(&all).map_err(Failure::bad_input)?;
                Some(target)
            }
            None => {
                refuse_shared(others).map_err(Failure::bad_input)?;
                None
            }
        };
        Run::start_with(common, report_target)
    }

    /// Loads the model under the limits, which the rest of the run shares.
    fn start_with(common: &Common, report_target: Option<Target>) -> Result<Run, Failure> {
        let limits =
            Limits::new(Instant::now(), common.timeout, common.memory_limit.unwrap_or_else(memory::default_cap));
        let progress = Arc::new(Progress::default());
        let path = common.model.clone();
        let puzzle = match supervise(&limits, &progress, move || Ok(puzzles::load_file(&path)?)) {
            Finished::Done(result) => result?,
            Finished::Stopped(reason) => {
                let message = format!("{}: {} while loading the model", common.model.display(), reason.describe());
                return Err(Failure { code: exit::UNKNOWN, message });
            }
        };
        Ok(Run {
            puzzle: Arc::from(puzzle),
            progress,
            format: common.format,
            ascii: common.ascii,
            limits,
            report_target,
        })
    }

    fn kind(&self) -> &'static str {
        self.puzzle.kind()
    }

    fn title(&self) -> Option<&str> {
        self.puzzle.title()
    }

    /// Runs `job` on the puzzle under the run's limits.
    fn supervise<T: Send + 'static>(
        &self,
        job: impl FnOnce(&dyn Puzzle) -> Result<T, puzzles::Error> + Send + 'static,
    ) -> Finished<T> {
        let puzzle = Arc::clone(&self.puzzle);
        supervise(&self.limits, &self.progress, move || Ok(job(puzzle.as_ref())?))
    }

    /// The solver configuration of the run's searches: the default backend,
    /// stopping on the run's limits.
    fn solver(&self) -> SolverConfig {
        SolverConfig { stop: self.limits.stop.clone(), ..SolverConfig::default() }
    }

    /// What a stopped run had built: the engine, the formula handed to the
    /// solver so far, the SAT calls and the time.
    fn partial_stats(&self, engine: Option<&str>) -> Stats {
        Stats {
            engine: engine.unwrap_or(self.puzzle.engines()[0]).to_string(),
            variables: self.progress.variables() as usize,
            clauses: self.progress.clauses() as usize,
            sat_calls: self.progress.sat_calls(),
            solve_ms: Stats::ms(self.limits.started.elapsed()),
            ..Stats::default()
        }
    }

    /// Writes the report in the chosen format, to standard output or the
    /// `--output` file. `drawn` is what an SVG picture shows; commands
    /// without a picture refuse `--format svg`.
    fn emit(&self, json: serde_json::Value, text: String, drawn: Option<Drawn<'_>>) -> Result<(), Failure> {
        let target = self.report_target.clone().unwrap_or(Target::Stdout);
        let shown = self.report_target_name();
        let written = match self.format {
            OutputFormat::Json => target.write(|out| writeln!(out, "{json}")),
            OutputFormat::Text => {
                let text = if self.ascii { render::ascii(text.trim_end()) } else { text.trim_end().to_string() };
                target.write(|out| writeln!(out, "{text}"))
            }
            OutputFormat::Svg => {
                let Some(drawn) = drawn else {
                    return Err(Failure::bad_input(
                        "--format svg draws the reports of solve, facts and explain; expected --format text or json",
                    ));
                };
                let scene = self.puzzle.picture(drawn)?;
                target.write(|out| somaria::draw::svg::write(&scene, out))
            }
        };
        match written {
            Ok(()) => Ok(()),
            // A closed pipe (as with `| head`) is the reader's choice, not a failure.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            Err(e) => Err(cannot_write(Path::new(&shown), e)),
        }
    }

    fn report_target_name(&self) -> String {
        match &self.report_target {
            Some(Target::File(path) | Target::Stream(path)) => path.display().to_string(),
            _ => "standard output".to_string(),
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

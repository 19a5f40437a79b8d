//! One command's run: the model loaded under the limits, its live counters,
//! the job run on a worker under the supervisor, and its report printed in
//! the chosen format. [`run_report`] is a whole command for any report: a
//! new command is one call of it.

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;
use somaria::genres::{self, Answer, Instance};
use somaria::limits::memory;
use somaria::puzzles::{self, CountOptions, Drawn, Puzzle, SolveOptions, Stats};
use somaria::report::{self, Report, Stoppable};
use somaria::solver::{Backend, Progress, SolverConfig};

use super::args::{Common, OutputFormat};
use super::output::{Inputs, Target, refuse_shared};
use super::supervise::{self, Finished, Limits, supervise};
use super::{Failure, exit};

/// Loads the model of `common`, runs on it the job that `job` makes for the
/// run (with the run's options), and prints the job's report, or the report
/// of a stopped run when a limit stops it first. Returns the exit code.
/// `engine` names the engine in a stopped run's stats.
pub fn run_report<R, J>(common: &Common, engine: Option<&str>, job: impl FnOnce(&Run) -> J) -> Result<u8, Failure>
where
    R: Stoppable + Send + 'static,
    J: FnOnce(&dyn Puzzle) -> Result<R, puzzles::Error> + Send + 'static,
{
    run_report_reading(common, &Inputs::of_model(&common.model), engine, job)
}

/// [`run_report`] for a command that reads `inputs` besides the model
/// (they include it), none of which an output may replace.
pub fn run_report_reading<R, J>(
    common: &Common,
    inputs: &Inputs,
    engine: Option<&str>,
    job: impl FnOnce(&Run) -> J,
) -> Result<u8, Failure>
where
    R: Stoppable + Send + 'static,
    J: FnOnce(&dyn Puzzle) -> Result<R, puzzles::Error> + Send + 'static,
{
    let run = Run::start(common, inputs, &[])?;
    let work = job(&run);
    let report = run.finish(engine, run.supervise(work))?;
    run.emit(&report, Vec::new())?;
    Ok(report.exit_code())
}

/// A line added to a report: a JSON member and a line of text, such as
/// where `--dimacs` wrote its file.
pub type Note = (&'static str, Value, String);

/// One command's run: the loaded puzzle, its live counters and limits, and
/// how to print the report.
pub struct Run {
    pub puzzle: Arc<dyn Puzzle>,
    /// The puzzle as a puzz.link genre's, or why it is none.
    pub genre: Result<Box<dyn Instance>, String>,
    pub progress: Arc<Progress>,
    format: OutputFormat,
    ascii: bool,
    quiet: bool,
    limits: Limits,
    backend: Backend,
    /// Where the report goes, when not to standard output.
    report_target: Option<Target>,
}

impl Run {
    /// Settles where the report goes (refusing a file that another output
    /// also names, or that is one of `inputs`), then loads the model.
    pub fn start(common: &Common, inputs: &Inputs, others: &[(&str, &Path, &Target)]) -> Result<Run, Failure> {
        let report_target = match &common.output {
            Some(path) => Some(Target::resolve(path).map_err(Failure::bad_input)?),
            None => None,
        };
        let mut all = others.to_vec();
        if let (Some(path), Some(target)) = (&common.output, &report_target) {
            all.push(("--output", path, target));
        }
        refuse_shared(&all).map_err(Failure::bad_input)?;
        inputs.refuse_all(&all).map_err(Failure::bad_input)?;
        Run::start_with(common, report_target)
    }

    /// Loads the model under the limits, which the rest of the run shares.
    pub fn start_with(common: &Common, report_target: Option<Target>) -> Result<Run, Failure> {
        let cap = common.memory_limit.unwrap_or_else(memory::default_cap);
        let limits = Limits::new(common.timeout, Some(cap)).with_interrupt(Arc::clone(&supervise::INTERRUPTED));
        let progress = Arc::new(Progress::default());
        let arg = common.model.to_string_lossy().to_string();
        let opened = match supervise(&limits, &progress, move || Ok(genres::open(&arg)?)) {
            Finished::Done(result) => result?,
            Finished::Stopped(reason) => {
                let message = format!("{}: {} while loading the model", common.model.display(), reason.describe());
                return Err(Failure { code: exit::UNKNOWN, message });
            }
        };
        Ok(Run {
            puzzle: Arc::from(opened.puzzle),
            genre: opened.instance,
            progress,
            format: common.format,
            ascii: common.ascii,
            quiet: common.quiet,
            limits,
            backend: common.solver,
            report_target,
        })
    }

    pub fn kind(&self) -> &'static str {
        self.puzzle.kind()
    }

    /// Runs `job` on the puzzle under the run's limits.
    pub fn supervise<T: Send + 'static>(
        &self,
        job: impl FnOnce(&dyn Puzzle) -> Result<T, puzzles::Error> + Send + 'static,
    ) -> Finished<T> {
        let puzzle = Arc::clone(&self.puzzle);
        supervise(&self.limits, &self.progress, move || Ok(job(puzzle.as_ref())?))
    }

    /// The report of a supervised job: its own, or that of a stopped run.
    pub fn finish<R: Stoppable>(&self, engine: Option<&str>, finished: Finished<R>) -> Result<R, Failure> {
        match finished {
            Finished::Done(result) => result,
            Finished::Stopped(reason) => Ok(R::stopped(self.partial_stats(engine), reason.describe(), &self.progress)),
        }
    }

    /// The solver configuration of the run's searches: the backend of
    /// `--solver`, stopping on the run's limits.
    pub fn solver(&self) -> SolverConfig {
        SolverConfig { backend: self.backend, stop: self.limits.stop.clone() }
    }

    /// Options for one engine's solve, facts or explanation, counting in
    /// the run's progress and stopping on its limits.
    pub fn solve_options(&self, engine: Option<String>) -> SolveOptions {
        SolveOptions { engine, progress: self.progress.clone(), solver: self.solver(), ..SolveOptions::default() }
    }

    /// Options for one engine's count, as [`Run::solve_options`].
    pub fn count_options(&self, engine: Option<String>) -> CountOptions {
        CountOptions { engine, progress: self.progress.clone(), solver: self.solver(), ..CountOptions::default() }
    }

    /// What a stopped run had built: the engine, the formula handed to the
    /// solver so far, the SAT calls and the time.
    pub fn partial_stats(&self, engine: Option<&str>) -> Stats {
        Stats {
            engine: engine.unwrap_or(self.puzzle.engines()[0]).to_string(),
            variables: self.progress.variables() as usize,
            clauses: self.progress.clauses() as usize,
            sat_calls: self.progress.sat_calls(),
            solve_ms: Stats::ms(self.limits.started.elapsed()),
            ..Stats::default()
        }
    }

    /// Prints `report` with `notes` added, in the chosen format, to standard
    /// output or the `--output` file.
    pub fn emit<R: Report>(&self, report: &R, notes: Vec<Note>) -> Result<(), Failure> {
        let mut json = report.json(self.kind());
        // The text is drawn only when it is printed.
        let mut text = match self.format {
            OutputFormat::Text => report.text(self.puzzle.as_ref())?,
            OutputFormat::Json | OutputFormat::Svg | OutputFormat::Url | OutputFormat::Pzprv3 => String::new(),
        };
        for (key, value, line) in notes {
            json[key] = value;
            text.push_str(&line);
        }
        self.emit_raw(json, text, report.drawn())
    }

    /// Writes a report given as JSON and text. `drawn` is what an SVG picture
    /// shows; commands without a picture refuse `--format svg`.
    pub fn emit_raw(&self, json: Value, text: String, drawn: Option<Drawn<'_>>) -> Result<(), Failure> {
        let target = self.report_target.clone().unwrap_or(Target::Stdout);
        let written = match self.format {
            OutputFormat::Json => target.write(|out| writeln!(out, "{json}")),
            OutputFormat::Text => {
                let engine = json.pointer("/stats/engine").and_then(Value::as_str).filter(|_| self.quiet);
                let text = match engine {
                    Some(engine) => report::without_stats(&text, engine),
                    None => text,
                };
                let text = if self.ascii { report::ascii(text.trim_end()) } else { text.trim_end().to_string() };
                target.write(|out| writeln!(out, "{text}"))
            }
            OutputFormat::Url => {
                let url = genres::url_of(self.instance()?).map_err(|e| Failure::bad_input(e.0))?;
                target.write(|out| writeln!(out, "{url}"))
            }
            OutputFormat::Pzprv3 => {
                let answer = answer_in(&json);
                let file = self.instance()?.file(&answer).map_err(|e| Failure::from(puzzles::Error::Internal(e)))?;
                target.write(|out| write!(out, "{file}"))
            }
            OutputFormat::Svg => {
                let Some(drawn) = drawn else {
                    return Err(Failure::bad_input(
                        "--format svg draws the reports of solve, facts, explain and hint (and with -o DIR, steps); \
                         expected --format text or json",
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
            Err(e) => Err(super::cannot_write(Path::new(&self.report_target_name()), e)),
        }
    }

    /// Writes a picture as SVG, to standard output or the `--output` file.
    pub fn emit_scene(&self, scene: &somaria::Scene) -> Result<(), Failure> {
        let target = self.report_target.clone().unwrap_or(Target::Stdout);
        match target.write(|out| somaria::draw::svg::write(scene, out)) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            Err(e) => Err(super::cannot_write(Path::new(&self.report_target_name()), e)),
        }
    }

    /// The puzzle as a puzz.link genre's, for `--format url` and `pzprv3`.
    fn instance(&self) -> Result<&dyn Instance, Failure> {
        self.genre.as_deref().map_err(|why| {
            Failure::bad_input(format!("{why}; expected a puzz.link genre's model or URL for --format url or pzprv3"))
        })
    }

    fn report_target_name(&self) -> String {
        match &self.report_target {
            Some(Target::File(path) | Target::Stream(path)) => path.display().to_string(),
            _ => "standard output".to_string(),
        }
    }
}

/// What a report's JSON fills a pzprv3 file with: solve's solution, the
/// state steps reached, or nothing (the question alone).
fn answer_in(json: &Value) -> Answer<'_> {
    if json["status"] == "solved"
        && let Some(solution) = json.get("solution").filter(|s| s.is_object())
    {
        return Answer::Solution(solution);
    }
    match json.get("state").and_then(Value::as_array) {
        Some(facts) => Answer::of_facts(facts),
        None => Answer::Question,
    }
}

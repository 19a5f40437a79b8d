//! The commands that do more than print one report: `solve` (which may
//! write the formula it solved and a refutation proof beside its report),
//! `compare` (which reports the engines that finished when a limit stops
//! it) and `encode` (which writes a formula and, with `-o`, a summary).

use std::path::{Path, PathBuf};
use std::sync::mpsc;

use serde_json::json;
use somaria::deduce::plan::Limits;
use somaria::hints::{self, PlanRequest};
use somaria::puzzles::compare::{self, CompareOptions, CompareReport, EngineResult, Outcome};
use somaria::puzzles::{DecidedBy, ProofRequest, SolveOptions, SolveReport, Status};
use somaria::report::Report;
use somaria::report::steps::Reveal;
use somaria::solver::ProofFormat;

use super::args::{Common, OutputFormat, ProofFormatArg};
use super::output::{Inputs, Target, is_stdout_alias};
use super::run::{Note, Run, run_report_reading};
use super::supervise::Finished;
use super::{Failure, cannot_write, exit};

/// What `solve` is asked for besides the report.
pub struct SolveArgs {
    pub dimacs: Option<std::path::PathBuf>,
    pub proof: Option<std::path::PathBuf>,
    /// The proof format asked for; the backend's first when none is.
    pub proof_format: Option<ProofFormatArg>,
    pub engine: Option<String>,
    pub no_presolve: bool,
}

/// `somaria solve`: the report, and the DIMACS file and proof when asked.
pub fn solve(common: &Common, args: SolveArgs) -> Result<u8, Failure> {
    let proof_format = proof_format(common, args.proof_format)?;
    let (dimacs, proof) = (args.dimacs.as_deref(), args.proof.as_deref());
    let dimacs_target = dimacs.map(Target::resolve).transpose().map_err(Failure::bad_input)?;
    let proof_target = proof.map(Target::resolve).transpose().map_err(Failure::bad_input)?;
    let mut others = Vec::new();
    if let (Some(path), Some(target)) = (dimacs, &dimacs_target) {
        others.push(("--dimacs", path, target));
    }
    if let (Some(path), Some(target)) = (proof, &proof_target) {
        others.push(("--proof", path, target));
    }
    let run = Run::start(common, &Inputs::of_model(&common.model), &others)?;
    // The proof goes to a temporary file of its own, kept only when SAT
    // refutes the puzzle.
    let proof_temp = match &proof_target {
        Some(target) => Some(target.temp_file().map_err(|e| cannot_write(proof.unwrap_or(Path::new("")), e))?),
        None => None,
    };
    let options = SolveOptions {
        keep_cnf: dimacs.is_some(),
        skip_presolve: args.no_presolve,
        proof: proof_temp.as_ref().map(|temp| ProofRequest::new(proof_format, file_sink(temp.path().to_path_buf()))),
        ..run.solve_options(args.engine.clone())
    };
    let finished = run.supervise(move |puzzle| puzzle.solve(&options));
    let stopped = matches!(finished, Finished::Stopped(_));
    let report = run.finish(args.engine.as_deref(), finished)?;
    let mut notes: Vec<Note> = Vec::new();
    if let (Some(path), Some(target)) = (dimacs, &dimacs_target) {
        let (json, line) = write_dimacs(&run, path, target, &report, stopped, args.engine.as_deref())?;
        notes.push(("dimacs", json, line));
    }
    if let (Some(path), Some(target), Some(temp)) = (proof, &proof_target, proof_temp) {
        let (json, line) = settle_proof(&report, path, target, temp, proof_format)?;
        notes.push(("proof", json, line));
    }
    run.emit(&report, notes)?;
    Ok(report.exit_code())
}

/// The proof's writer: the file at `path` (a temporary file of the run),
/// made afresh when the proof is written.
fn file_sink(path: std::path::PathBuf) -> impl somaria::puzzles::ProofSink {
    move || -> std::io::Result<Box<dyn std::io::Write + Send>> {
        let file = std::fs::File::create(&path)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        Ok(Box::new(file))
    }
}

/// The proof format of `--proof-format`, or the backend's own when none is
/// given; a format the backend cannot write is refused.
fn proof_format(common: &Common, asked: Option<ProofFormatArg>) -> Result<ProofFormat, Failure> {
    let formats = common.solver.proof_formats();
    let Some(asked) = asked else { return Ok(formats[0]) };
    let format = asked.format();
    if formats.contains(&format) {
        return Ok(format);
    }
    let names: Vec<&str> = formats.iter().map(|f| f.name()).collect();
    Err(Failure::bad_input(format!(
        "--solver {} cannot write a {} proof; expected --proof-format {}, or a --solver that writes {} proofs",
        common.solver,
        format.name(),
        names.join(" or "),
        format.name()
    )))
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
        "the run was stopped before it built a formula to report; `somaria encode` writes the starting formula \
         without solving"
            .to_string()
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
            Finished::Done(Err(failure)) => failure.message,
            Finished::Stopped(reason) => format!("building the formula was {}", reason.describe()),
        }
    };
    Ok((json!({"path": null, "reason": why_none}), format!("\nno DIMACS written: {why_none}\n")))
}

/// Keeps the proof when SAT refuted the puzzle; otherwise drops it and
/// says why there is none.
fn settle_proof(
    report: &SolveReport,
    path: &Path,
    target: &Target,
    temp: tempfile::NamedTempFile,
    format: ProofFormat,
) -> Result<(serde_json::Value, String), Failure> {
    let refuted_by_sat = report.status == Status::NoSolution && report.decided_by == DecidedBy::Sat;
    let format = format.name();
    if refuted_by_sat {
        target.settle(temp).map_err(|e| cannot_write(path, e))?;
        let shown = path.display();
        return Ok((
            json!({"path": shown.to_string(), "format": format}),
            format!("\nproof of no solution written to {shown} ({format} format)\n"),
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

/// `somaria compare`: every engine in turn. Each engine's result is sent
/// as it finishes, so a stop still reports the engines that got through.
pub fn compare(common: &Common, options: impl FnOnce(&Run) -> CompareOptions) -> Result<u8, Failure> {
    let run = Run::start(common, &Inputs::of_model(&common.model), &[])?;
    let options = options(&run);
    let (sender, receiver) = mpsc::channel();
    let runs = options.runs(run.puzzle.compared_engines());
    let planned = runs.clone();
    let finished = run.supervise(move |puzzle| {
        for (engine, backend) in planned {
            let _ = sender.send(compare::run_engine(puzzle, engine, backend, &options)?);
        }
        Ok(())
    });
    let mut results: Vec<EngineResult> = receiver.try_iter().collect();
    let stopped = match finished {
        Finished::Done(result) => {
            result?;
            None
        }
        Finished::Stopped(reason) => Some(reason.describe()),
    };
    let finished = results.len();
    for (at, &(engine, backend)) in runs.iter().enumerate().skip(finished) {
        let (outcome, why) = match &stopped {
            Some(reason) if at == finished => (Outcome::Stopped, format!("{reason} while it ran")),
            Some(_) => (Outcome::NotRun, "not run: the comparison was stopped before it".to_string()),
            None => (Outcome::NotRun, "not run".to_string()),
        };
        results.push(EngineResult::unfinished(engine, backend, outcome, why));
    }
    let report = CompareReport::of(results);
    run.emit(&report, Vec::new())?;
    Ok(report.exit_code())
}

/// `somaria encode`: the DIMACS file, to standard output or `-o`, and with
/// `-o` a summary of it as the report.
pub fn encode(common: &Common, engine: Option<String>) -> Result<u8, Failure> {
    if common.format == OutputFormat::Svg {
        return Err(Failure::bad_input("encode writes DIMACS; expected --format text or json for its summary"));
    }
    let output = common.output.as_deref();
    let target = match output {
        Some(path) => Target::resolve(path).map_err(Failure::bad_input)?,
        None => Target::Stdout,
    };
    if let Some(path) = output {
        Inputs::of_model(&common.model).refuse("--output", path).map_err(Failure::bad_input)?;
    }
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
    if matches!(target, Target::Stdout) {
        return Ok(exit::SOLVED);
    }
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
    run.emit_raw(json, text, None)?;
    Ok(exit::SOLVED)
}

/// The folder of `steps --format svg -o DIR`. Standard output is refused
/// (it takes one picture, not a folder of them), and so is a folder
/// holding a picture's name that is an input.
fn picture_folder(common: &Common, inputs: &Inputs) -> Result<PathBuf, Failure> {
    let Some(dir) = common.output.clone() else {
        return Err(Failure::bad_input("steps --format svg writes one picture per step; expected -o DIR"));
    };
    if is_stdout_alias(&dir) {
        return Err(Failure::bad_input(format!(
            "-o {}: steps --format svg writes one picture per step into a folder, not to standard output; expected \
             -o DIR",
            dir.display()
        )));
    }
    let is_step_picture = |name: &[u8]| {
        let number = name.strip_prefix(b"step-").and_then(|rest| rest.strip_suffix(b".svg"));
        number.is_some_and(|n| !n.is_empty() && n.iter().all(u8::is_ascii_digit))
    };
    inputs.refuse_family("--output", &dir, is_step_picture).map_err(Failure::bad_input)?;
    Ok(dir)
}

/// What `hint` and `steps` are asked for besides the shared arguments.
pub struct PlanArgs {
    pub given: Vec<String>,
    pub upto: Option<usize>,
    pub limit: u64,
    pub reveal: Reveal,
    pub engine: Option<String>,
    pub exact: usize,
    pub merge: bool,
    pub proof: Option<std::path::PathBuf>,
    pub next: somaria::hints::Next,
    pub max_steps: Option<usize>,
    pub parts: bool,
}

impl PlanArgs {
    /// The `--given` arguments that are entries (they have an `=`); the
    /// others name state files.
    fn is_entry(given: &str) -> bool {
        given.contains('=')
    }

    /// The files the run reads: the model and the state files.
    fn inputs(&self, common: &Common) -> Inputs {
        let mut inputs = Inputs::of_model(&common.model);
        for path in self.given.iter().filter(|g| !PlanArgs::is_entry(g)) {
            inputs.add_state_file(Path::new(path));
        }
        inputs
    }

    /// The run's solve options, with `--parts`.
    fn options(&self, run: &Run) -> SolveOptions {
        SolveOptions { parts: self.parts, ..run.solve_options(self.engine.clone()) }
    }

    /// The request, with every `--given` that is not an entry read as a
    /// state file.
    fn request(&self) -> Result<PlanRequest, Failure> {
        let (given, state_files) = super::given::split(&self.given)?;
        Ok(PlanRequest {
            given,
            state_files,
            upto: self.upto,
            merge: self.merge,
            count_limit: self.limit,
            limits: Limits { exact_size: self.exact, ..Limits::default() },
            proof: self.proof.clone(),
            next: self.next,
            max_steps: self.max_steps,
        })
    }

    /// Refuses `--proof` files that would replace an input: for a hint,
    /// FILE and FILE.cnf; for steps, any of FILE.1, FILE.1.cnf, FILE.2, ...
    /// already there (the run creates the others).
    fn refuse_proof_on_inputs(&self, inputs: &Inputs, steps: bool) -> Result<(), Failure> {
        let Some(proof) = &self.proof else { return Ok(()) };
        if !steps {
            let mut formula = proof.as_os_str().to_owned();
            formula.push(".cnf");
            for path in [proof.as_path(), Path::new(&formula)] {
                inputs.refuse("--proof", path).map_err(Failure::bad_input)?;
            }
            return Ok(());
        }
        let Some(stem) = proof.file_name() else {
            return Err(Failure::bad_input(format!("--proof {}: expected a file name", proof.display())));
        };
        let stem = std::os::unix::ffi::OsStrExt::as_bytes(stem);
        let numbered = |name: &[u8]| {
            let Some(number) = name.strip_prefix(stem).and_then(|rest| rest.strip_prefix(b".")) else {
                return false;
            };
            let number = number.strip_suffix(b".cnf").unwrap_or(number);
            !number.is_empty() && number.iter().all(u8::is_ascii_digit)
        };
        let dir = proof.parent().unwrap_or(Path::new(""));
        inputs.refuse_family("--proof", dir, numbered).map_err(Failure::bad_input)
    }
}

/// `somaria hint`: the report, or with `--format svg` the picture of the
/// step, drawn as `--reveal` says (or of why there is none).
pub fn hint(common: &Common, args: PlanArgs) -> Result<u8, Failure> {
    let inputs = args.inputs(common);
    args.refuse_proof_on_inputs(&inputs, false)?;
    let request = args.request()?;
    if common.format != OutputFormat::Svg {
        return run_report_reading(common, &inputs, args.engine.as_deref(), |run| {
            let options = args.options(run);
            let reveal = args.reveal;
            move |puzzle| hints::hint(puzzle, &options, &request, reveal)
        });
    }
    let run = Run::start(common, &inputs, &[])?;
    let options = args.options(&run);
    let reveal = args.reveal;
    let finished = run.supervise(move |puzzle| hints::hint(puzzle, &options, &request, reveal));
    let report = run.finish(args.engine.as_deref(), finished)?;
    let scene = match &report.step {
        Some(step) => somaria::report::picture::step_picture(
            run.puzzle.as_ref(),
            report.end.extent,
            &report.end.start.facts,
            step,
            reveal,
        )?,
        None => somaria::report::picture::no_step_picture(run.puzzle.as_ref(), &report)?,
    };
    run.emit_scene(&scene)?;
    Ok(report.exit_code())
}

/// `somaria steps`: the report, or with `--format svg -o DIR` one picture
/// per step in DIR (step-001.svg, ...), each of the state before the step.
pub fn steps(common: &Common, args: PlanArgs) -> Result<u8, Failure> {
    let inputs = args.inputs(common);
    args.refuse_proof_on_inputs(&inputs, true)?;
    let request = args.request()?;
    if common.format != OutputFormat::Svg {
        return run_report_reading(common, &inputs, args.engine.as_deref(), |run| {
            let options = args.options(run);
            move |puzzle| hints::steps(puzzle, &options, &request)
        });
    }
    let dir = picture_folder(common, &inputs)?;
    let run = Run::start_with(common, None)?;
    let options = args.options(&run);
    let finished = run.supervise(move |puzzle| hints::steps(puzzle, &options, &request));
    let report = run.finish(args.engine.as_deref(), finished)?;
    std::fs::create_dir_all(&dir).map_err(|e| cannot_write(&dir, e))?;
    let paths: Vec<PathBuf> = (1..=report.steps.len()).map(|n| dir.join(format!("step-{n:03}.svg"))).collect();
    for path in &paths {
        inputs.refuse("--output", path).map_err(Failure::bad_input)?;
    }
    let mut known = report.end.start.facts.clone();
    for (step, path) in report.steps.iter().zip(&paths) {
        let scene =
            somaria::report::picture::step_picture(run.puzzle.as_ref(), report.end.extent, &known, step, Reveal::What)?;
        let target = Target::resolve(path).map_err(Failure::bad_input)?;
        target.write(|out| somaria::draw::svg::write(&scene, out)).map_err(|e| cannot_write(path, e))?;
        known.extend(step.facts.iter().filter(|f| f.op == "=").cloned());
    }
    let summary = format!("wrote {} pictures to {}\n", report.steps.len(), dir.display());
    print!("{summary}");
    Ok(report.exit_code())
}

/// `somaria show`: the puzzle with nothing solved, as text or (with
/// `--format svg`) a picture, drawn as a play session draws it with no
/// entries.
pub fn show(common: &Common) -> Result<u8, Failure> {
    if !matches!(common.format, OutputFormat::Text | OutputFormat::Svg) {
        return Err(Failure::bad_input("show draws the puzzle; expected --format text or svg"));
    }
    let inputs = Inputs::of_model(&common.model);
    let run = Run::start(common, &inputs, &[])?;
    let options = run.solve_options(None);
    let finished = run.supervise(move |puzzle| {
        let scene = match hints::Planner::new(puzzle, &options) {
            Ok(mut planner) => planner.scene()?,
            Err(somaria::puzzles::Error::Unsupported { .. }) => {
                somaria::report::picture::state_picture(puzzle, (0, 0), &[])?
            }
            Err(e) => return Err(e),
        };
        let text = somaria::report::picture::puzzle_text(puzzle, &scene);
        Ok((scene, text))
    });
    let (scene, text) = match finished {
        Finished::Done(result) => result?,
        Finished::Stopped(reason) => return Err(Failure { code: exit::UNKNOWN, message: reason.describe() }),
    };
    match common.format {
        OutputFormat::Svg => run.emit_scene(&scene)?,
        _ => run.emit_raw(json!({}), text, None)?,
    }
    Ok(exit::SOLVED)
}

/// `somaria facts --given`: the values each thing can still take with the
/// entries and state files given.
pub fn candidates(common: &Common, given: Vec<String>, engine: Option<String>) -> Result<u8, Failure> {
    let args = PlanArgs {
        given,
        upto: None,
        limit: 2,
        reveal: Reveal::What,
        engine,
        exact: Limits::default().exact_size,
        merge: false,
        proof: None,
        next: hints::Next::Any,
        max_steps: None,
        parts: false,
    };
    let inputs = args.inputs(common);
    let request = args.request()?;
    run_report_reading(common, &inputs, args.engine.as_deref(), |run| {
        let options = run.solve_options(args.engine.clone());
        move |puzzle| hints::candidates(puzzle, &options, &request)
    })
}

//! `somaria generate`: the options as clap parses them, the designer of
//! the model's kind, a progress bar on a terminal, and the puzzles written
//! as model files in a directory or as JSON lines.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::ValueEnum;
use somaria::generate::{self, Designer, GenerateOptions, GenerateProgress, Generated, Shard, Symmetry};
use somaria::model::Source;
use somaria::puzzles::Error;
use somaria::solver::{Backend, SolverConfig, Stop};

use super::output::{Inputs, Target, is_stdout_alias};
use super::supervise::INTERRUPTED;
use super::{Failure, cannot_write, exit};

/// The arguments of `generate`.
#[derive(clap::Args)]
pub struct GenerateArgs {
    /// The template: a csp model with a [design] table (a puzz.link genre's model or URL among them), or a fans,
    /// tile-cover or keys-doors model (its size is kept).
    pub model: PathBuf,
    /// Puzzles in the whole run (every shard together).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub count: u64,
    /// The run's seed: the same seed gives the same puzzles on every machine.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Try every clue, so that none left can go: dropping one gives a second solution (or, where the template reads which clues are present, rules out the drawn one).
    #[arg(long)]
    pub minimal: bool,
    /// Keep only puzzles whose rating (the most constraints one deduction of `steps` needs) is in LO..HI.
    #[arg(long, value_name = "LO..HI", value_parser = parse_range)]
    pub difficulty: Option<(usize, usize)>,
    /// Drop clues in symmetric pairs (csp clue arrays, fans grids; refused for tile-cover rooms and vaults).
    #[arg(long, value_enum, default_value_t = SymmetryArg::None)]
    pub symmetry: SymmetryArg,
    /// Threads making puzzles at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: u64,
    /// Make only the puzzles of shard I of N (0 <= I < N): those whose index is I modulo N.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Keep a clue whose uniqueness check takes longer than SECONDS (the output then depends on the machine).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub budget: Option<Duration>,
    /// Write each puzzle to DIR as STEM-NNNN.toml (- for standard output, as without -o).
    #[arg(short, long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// text: the models (or with -o, a line per file written); json: one JSON object per puzzle and line; url: the
    /// puzz.link URL of each puzzle of a genre's model, one a line.
    #[arg(long, value_enum, default_value_t = GenerateFormat::Text)]
    pub format: GenerateFormat,
    /// The encoding or engine of the checks.
    #[arg(long, value_name = "NAME")]
    pub engine: Option<String>,
    /// The SAT backend of the checks.
    #[arg(long, value_name = "NAME", default_value_t = Backend::default())]
    pub solver: Backend,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum SymmetryArg {
    None,
    Rot180,
    Mirror,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum GenerateFormat {
    Text,
    Json,
    Url,
}

fn parse_range(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{text:?} is not a range; expected LO..HI of whole numbers with LO <= HI, such as 1..3");
    let (lo, hi) = text.split_once("..").ok_or_else(bad)?;
    let (lo, hi): (usize, usize) = (lo.trim().parse().map_err(|_| bad())?, hi.trim().parse().map_err(|_| bad())?);
    if lo > hi {
        return Err(bad());
    }
    Ok((lo, hi))
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("{text:?} is not a shard; expected I/N with 0 <= I < N, such as 0/4");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (index, of): (u64, u64) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if of == 0 || index >= of {
        return Err(bad());
    }
    Ok(Shard { index, of })
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let bad = || format!("{text:?} is not a time; expected a number of seconds from 0.001 to 86400");
    let seconds: f64 = text.trim().parse().map_err(|_| bad())?;
    if !(0.001..=86400.0).contains(&seconds) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// `somaria generate`.
pub fn run(mut args: GenerateArgs) -> Result<u8, Failure> {
    // `-o -` is standard output, where the puzzles go without -o.
    if args.output.as_deref().is_some_and(is_stdout_alias) {
        args.output = None;
    }
    let arg = args.model.to_string_lossy();
    let source = if somaria::genres::is_url(&arg) {
        somaria::genres::open_url(&arg)?.source
    } else if args.model == Path::new("-") {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .map_err(|e| Failure::bad_input(format!("standard input: cannot read: {e}")))?;
        Source::from_text("-", text)
    } else {
        Source::read(&args.model)?
    };
    let options = GenerateOptions {
        count: args.count,
        seed: args.seed,
        minimal: args.minimal,
        difficulty: args.difficulty,
        symmetry: match args.symmetry {
            SymmetryArg::None => Symmetry::None,
            SymmetryArg::Rot180 => Symmetry::Rot180,
            SymmetryArg::Mirror => Symmetry::Mirror,
        },
        shard: args.shard.unwrap_or_default(),
        budget: args.budget,
        jobs: args.jobs as usize,
        engine: args.engine.clone(),
        solver: SolverConfig { backend: args.solver, stop: Stop::never() },
        ..GenerateOptions::default()
    };
    let designer = somaria::puzzles::designer(&source)?;
    let inputs = Inputs::of_model(&args.model);
    if let Some(dir) = &args.output {
        let stem = file_stem(designer.name());
        let is_puzzle_file = |name: &[u8]| {
            let number = name
                .strip_prefix(stem.as_bytes())
                .and_then(|rest| rest.strip_prefix(b"-"))
                .and_then(|rest| rest.strip_suffix(b".toml"));
            number.is_some_and(|n| !n.is_empty() && n.iter().all(u8::is_ascii_digit))
        };
        inputs.refuse_family("--output", dir, is_puzzle_file).map_err(Failure::bad_input)?;
        std::fs::create_dir_all(dir).map_err(|e| cannot_write(dir, e))?;
    }
    emit(&args, &inputs, designer.as_ref(), &options)
}

/// The stem of the files `-o DIR` writes: the template's file name without
/// its extension.
fn file_stem(name: &str) -> String {
    Path::new(name).file_stem().map_or("puzzle".into(), |s| s.to_string_lossy().to_string())
}

/// Makes the puzzles and writes each as soon as it and those before it
/// are done; the exit code is the worst outcome.
fn emit(
    args: &GenerateArgs,
    inputs: &Inputs,
    designer: &dyn Designer,
    options: &GenerateOptions,
) -> Result<u8, Failure> {
    let progress = Arc::new(GenerateProgress::default());
    let planned = generate::shard_indices(options.count, options.shard).len() as u64;
    let done = Arc::new(AtomicBool::new(false));
    let watcher = watch(planned, &progress, &done, options.solver.stop.clone());
    let mut code = exit::SOLVED;
    let mut written: Result<(), Failure> = Ok(());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut first = true;
    let run = generate::generate_each(designer, options, &progress, &mut |result| {
        match result {
            Ok(puzzle) => {
                written = write_puzzle(args, inputs, designer.name(), &puzzle, first, &mut out).and_then(|()| {
                    out.flush().map_err(|e| Failure { code: exit::BAD_INPUT, message: format!("standard output: {e}") })
                });
                first = false;
            }
            Err(e) => {
                let failure = Failure::from(e);
                code = code.max(failure.code);
                eprintln!("error: {}", failure.message);
            }
        }
        written.is_ok()
    });
    done.store(true, Ordering::Relaxed);
    if let Some(w) = watcher {
        let _ = w.join();
    }
    run?;
    written?;
    Ok(code)
}

fn write_puzzle(
    args: &GenerateArgs,
    inputs: &Inputs,
    name: &str,
    puzzle: &Generated,
    first: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let broken = |e: std::io::Error| Failure { code: exit::BAD_INPUT, message: format!("standard output: {e}") };
    let path = args.output.as_ref().map(|dir| dir.join(format!("{}-{:04}.toml", file_stem(name), puzzle.index)));
    if let Some(path) = &path {
        // Whole files only, and never over the template.
        inputs.refuse("--output", path).map_err(Failure::bad_input)?;
        let target = Target::resolve(path).map_err(Failure::bad_input)?;
        target.write(|out| out.write_all(puzzle.model.as_bytes())).map_err(|e| cannot_write(path, e))?;
    }
    match (args.format, &path) {
        (GenerateFormat::Url, _) => {
            let made = Source::from_text(name, puzzle.model.clone());
            let opened = somaria::genres::open_source(made)?;
            let instance = opened.instance.map_err(|why| {
                Failure::bad_input(format!("{why}; expected a puzz.link genre's model or URL for --format url"))
            })?;
            let url = somaria::genres::url_of(instance.as_ref()).map_err(|e| Failure::bad_input(e.0))?;
            writeln!(out, "{url}").map_err(broken)
        }
        (GenerateFormat::Json, _) => {
            let line = serde_json::to_string(puzzle).map_err(|e| Failure::from(Error::Internal(e.to_string())))?;
            writeln!(out, "{line}").map_err(broken)
        }
        (GenerateFormat::Text, Some(path)) => writeln!(
            out,
            "wrote {}: {} of {} clues, unique (recounted in {:.1} ms){}",
            path.display(),
            puzzle.clues,
            puzzle.clues_drawn,
            puzzle.uniqueness.recount.ms,
            rating_text(puzzle)
        )
        .map_err(broken),
        (GenerateFormat::Text, None) => {
            let gap = if first { "" } else { "\n" };
            write!(out, "{gap}{}", puzzle.model).map_err(broken)
        }
    }
}

fn rating_text(puzzle: &Generated) -> String {
    let measure = puzzle.measure.as_ref().map_or(String::new(), |m| format!("; {} {}", m.name, m.value));
    let rating = puzzle.rating.as_ref().map_or(String::new(), |r| {
        format!("; rated {} ({} steps, {} constraints in all)", r.largest, r.steps, r.total)
    });
    measure + &rating
}

/// On a terminal, a progress bar of the puzzles made, with the clues left
/// and the checks per second; a Ctrl-C raises the run's stop token.
fn watch(
    planned: u64,
    progress: &Arc<GenerateProgress>,
    done: &Arc<AtomicBool>,
    stop: Stop,
) -> Option<std::thread::JoinHandle<()>> {
    let (progress, done) = (Arc::clone(progress), Arc::clone(done));
    let terminal = std::io::stderr().is_terminal();
    Some(std::thread::spawn(move || {
        let started = Instant::now();
        let bar = terminal.then(|| {
            let bar = indicatif::ProgressBar::new(planned);
            if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} puzzles · {msg}") {
                bar.set_style(style);
            }
            bar
        });
        while !done.load(Ordering::Relaxed) {
            if INTERRUPTED.load(Ordering::SeqCst) {
                stop.raise();
            }
            if let Some(bar) = &bar {
                let rate = progress.checks() as f64 / started.elapsed().as_secs_f64().max(1e-3);
                bar.set_position(progress.made());
                bar.set_message(format!("{} clues left · {rate:.0} checks/s", progress.clues_left()));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
    }))
}

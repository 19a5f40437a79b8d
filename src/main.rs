//! The `somaria` command line: the commands and their arguments, each
//! command handed to the machinery in [`cli`]: load the model and run the
//! puzzle on a worker thread under the time and memory limits, write any
//! output files safely, print the report, and exit with the code of the
//! verdict.

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use clap::{Parser, Subcommand};

use cli::Failure;
use cli::args::{Common, CountMethodArg, EngineArg, PlanArg, ProofFormatArg, RevealArg};
use cli::commands::{self, PlanArgs, SolveArgs};
use cli::run::run_report;
use cli::supervise::INTERRUPTED;
use somaria::puzzles::CountOptions;
use somaria::puzzles::compare::CompareOptions;
use somaria::solver::Backend;

/// Counts the Rust heap for the memory cap (a library cannot install a
/// global allocator; the binary chooses it).
#[global_allocator]
static ALLOCATOR: somaria::limits::memory::CountingAllocator = somaria::limits::memory::CountingAllocator;

#[derive(Parser)]
#[command(
    name = "somaria",
    version,
    about = "Model logic puzzles, solve them with SAT, and prove them unique or unsolvable.",
    after_help = "The book (docs/ in the repository, `mdbook build docs`) explains every command, the model files and the \
                  csp language; `somaria COMMAND --help` gives a command's options."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Find a solution and check it, or prove that there is none.
    ///
    /// Exit code: 0 solved, 1 no solution, 2 bad input, 3 unknown, 4 internal error.
    #[command(
        after_help = "Example: somaria solve models/akh-vaquot.toml --format json\nThe book: docs/src/guide/commands.md"
    )]
    Solve {
        #[command(flatten)]
        common: Common,
        /// Write the CNF that is solved to FILE in DIMACS format (- for standard output, before the report).
        #[arg(long, value_name = "FILE")]
        dimacs: Option<PathBuf>,
        /// When SAT proves there is no solution, write its refutation proof to FILE.
        #[arg(long, value_name = "FILE")]
        proof: Option<PathBuf>,
        /// The proof format [default: varisat; drat with --solver cadical, which writes DRAT only].
        #[arg(long, value_enum, requires = "proof")]
        proof_format: Option<ProofFormatArg>,
        #[command(flatten)]
        engine: EngineArg,
        /// Skip the reasoning done before SAT, so the encoding alone decides.
        #[arg(long)]
        no_presolve: bool,
    },
    /// Count the distinct solutions, checking each one (or, with --method exact, counting without listing them).
    ///
    /// Exit code: 0 whatever the count, 2 bad input, 3 stopped early by a limit, 4 internal error.
    #[command(
        after_help = "Example: somaria count models/csp/sudoku-17.toml --limit 2\nThe book: docs/src/guide/commands.md"
    )]
    Count {
        #[command(flatten)]
        common: Common,
        /// Stop after N solutions (N >= 1); the report then says the count is incomplete.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        limit: Option<u64>,
        /// enumerate: find, check and block each solution; exact: count the formula with an exact projected model
        /// counter, without listing or checking solutions one by one (csp models without grid globals).
        #[arg(long, value_enum, default_value_t = CountMethodArg::Enumerate)]
        method: CountMethodArg,
        #[command(flatten)]
        engine: EngineArg,
        /// Skip the reasoning done before SAT, so the encoding alone decides.
        #[arg(long)]
        no_presolve: bool,
    },
    /// Report what holds in every solution and what can vary.
    ///
    /// Exit code: 0 solved, 1 no solution, 2 bad input, 3 unknown, 4 internal error.
    #[command(
        after_help = "Example: somaria facts models/heros-cave-somaria.toml\nThe book: docs/src/guide/commands.md"
    )]
    Facts {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        engine: EngineArg,
        /// An entry of the player's state (NAME=VALUE or NAME!=VALUE) or a state file, as hint takes them; with
        /// any, the report is the values each thing can still take with the entries.
        #[arg(long, value_name = "ENTRY")]
        given: Vec<String>,
    },
    /// Print the puzzle with nothing solved (with --format svg, draw it).
    ///
    /// Exit code: 0 shown, 2 bad input, 3 stopped by a limit, 4 internal error.
    Show {
        #[command(flatten)]
        common: Common,
    },
    /// For a puzzle with no solution, name a minimal set of its constraints that cannot all hold.
    ///
    /// Exit code: 0 the puzzle has a solution, 1 no solution (explained), 2 bad input, 3 unknown, 4 internal error.
    #[command(after_help = "Example: somaria explain models/heros-cave.toml\nThe book: docs/src/trust.md")]
    Explain {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        engine: EngineArg,
    },
    /// The easiest next deduction from the given state: the facts it settles, the fewest constraints that force
    /// them, and the known facts it uses; each re-checked by a solver of its own.
    ///
    /// Exit code: 0 a hint given (or nothing left to deduce), 1 no solution agrees with the model and the given
    /// entries, 2 bad input, 3 unknown, 4 internal error.
    #[command(
        after_help = "Example: somaria hint models/csp/sudoku-17.toml --given 'cell[1,1]=6' --reveal why\nThe book: docs/src/guide/hints-and-steps.md"
    )]
    Hint {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        plan: PlanArg,
        /// How much to give away in the text and the picture (the JSON always holds the whole step).
        #[arg(long, value_enum, default_value_t = RevealArg::Where)]
        reveal: RevealArg,
        #[command(flatten)]
        engine: EngineArg,
    },
    /// Every deduction from the given state to the solution, easiest first, with a difficulty rating.
    ///
    /// Exit code: 0 solved, stopped by --upto or a guess needed, 1 no solution, 2 bad input, 3 unknown,
    /// 4 internal error.
    #[command(after_help = "Example: somaria steps models/csp/zebra.toml\nThe book: docs/src/guide/hints-and-steps.md")]
    Steps {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        plan: PlanArg,
        /// Apply only the steps of at most K constraints, and print the state reached.
        #[arg(long, value_name = "K")]
        upto: Option<usize>,
        /// Show each run of steps of at most one constraint as one step that says how many it is (the rating
        /// still counts them one by one).
        #[arg(long)]
        merge: bool,
        /// Show every step, each elimination on its own (as --next any).
        #[arg(long)]
        detail: bool,
        #[command(flatten)]
        engine: EngineArg,
    },
    /// Run every encoding or engine on the model and check that they agree.
    ///
    /// Exit code: 0 the engines that took the model all answered and agree (the others refused it as too large
    /// for them), 1 some disagree, 2 bad input or every engine refused the model, 3 a limit or Ctrl-C stopped
    /// an engine, 4 internal error.
    #[command(
        after_help = "Example: somaria compare models/csp/queens.toml --count\nThe book: docs/src/guide/solver.md"
    )]
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
        /// Run every engine on each of these SAT backends, such as varisat,cadical [default: the --solver one].
        #[arg(long, value_name = "NAMES", value_delimiter = ',', conflicts_with = "solver")]
        solvers: Vec<Backend>,
    },
    /// Make new puzzles with exactly one solution from a template: a csp model with a [design] table, or a fans
    /// grid. Each is counted once more from its written text before it is output.
    ///
    /// Exit code: 0 every puzzle made, 1 some could not be made, 2 bad input, 3 stopped, 4 internal error.
    #[command(
        after_help = "Example: somaria generate models/csp/sudoku-17.toml --count 5 --minimal -o puzzles\nThe book: docs/src/guide/generate.md"
    )]
    Generate(cli::generate::GenerateArgs),
    /// Serve a page on which to play the model (or any model of a folder) in a browser, with hints, checks, undo
    /// and the steps to the end, each from a planner session that keeps its solvers between moves.
    ///
    /// Exit code: 2 bad input (no model, or the address cannot be listened on); otherwise it serves until stopped.
    #[command(after_help = "Example: somaria play models --open\nThe book: docs/src/guide/playing.md")]
    Play(cli::play::PlayArgs),
    /// List the puzz.link genres somaria reads, each with a sample URL.
    #[command(after_help = "Example: somaria genres --json\nThe book: docs/src/guide/genres.md")]
    Genres {
        /// Print a JSON array instead of a line per genre.
        #[arg(long)]
        json: bool,
    },
    /// Write the puzzle of a puzz.link URL as a model file of its own.
    ///
    /// Exit code: 0 written, 2 a URL that cannot be read.
    #[command(
        after_help = "Example: somaria import 'https://puzz.link/p?nurikabe/5/5/g5k2o1k3g' -o nurikabe.toml\nThe book: docs/src/guide/genres.md"
    )]
    Import(cli::genres::ImportArgs),
    /// Write the CNF an engine would hand to the SAT solver, without solving, for use with another solver.
    ///
    /// Exit code: 0 written, 2 bad input or an engine without a CNF, 3 stopped by a limit, 4 internal error.
    #[command(
        after_help = "Example: somaria encode models/tile-cover-24x24.toml -o room.cnf\nThe book: docs/src/guide/commands.md"
    )]
    Encode {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        engine: EngineArg,
    },
    /// Print this program's manual page (roff, for `man -l -`), made from these definitions by clap_mangen.
    #[command(hide = true)]
    Manpage,
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
            let engine = engine.engine;
            commands::solve(&common, SolveArgs { dimacs, proof, proof_format, engine, no_presolve })
        }
        Command::Count { common, limit, method, engine, no_presolve } => {
            run_report(&common, engine.engine.as_deref(), |run| {
                let method = method.method();
                let options = CountOptions {
                    limit,
                    method,
                    skip_presolve: no_presolve,
                    ..run.count_options(engine.engine.clone())
                };
                move |puzzle| puzzle.count(&options)
            })
        }
        Command::Facts { common, engine, given } if !given.is_empty() => {
            commands::candidates(&common, given, engine.engine)
        }
        Command::Facts { common, engine, .. } => run_report(&common, engine.engine.as_deref(), |run| {
            let options = run.solve_options(engine.engine.clone());
            move |puzzle| puzzle.facts(&options)
        }),
        Command::Explain { common, engine } => run_report(&common, engine.engine.as_deref(), |run| {
            let options = run.solve_options(engine.engine.clone());
            move |puzzle| puzzle.explain(&options)
        }),
        Command::Compare { common, count, limit, no_presolve, solvers } => {
            commands::compare(&common, |run| CompareOptions {
                count,
                limit,
                skip_presolve: no_presolve,
                progress: run.progress.clone(),
                solver: run.solver(),
                backends: solvers,
            })
        }
        Command::Show { common } => commands::show(&common),
        Command::Encode { common, engine } => commands::encode(&common, engine.engine),
        Command::Generate(args) => cli::generate::run(args),
        Command::Play(args) => cli::play::run(args),
        Command::Genres { json } => cli::genres::list(json),
        Command::Import(args) => cli::genres::import(&args),
        Command::Manpage => manpage(),
        Command::Hint { common, plan, reveal, engine } => {
            let (next, count) = plan.next(false).map_err(Failure::bad_input)?;
            if count.is_some() {
                return Err(Failure::bad_input("hint gives one step; --next N is for steps"));
            }
            let args = PlanArgs {
                next,
                max_steps: None,
                given: plan.given,
                upto: None,
                limit: plan.limit,
                reveal: reveal.reveal(),
                engine: engine.engine,
                exact: plan.exact as usize,
                merge: false,
                proof: plan.proof,
                parts: plan.parts,
            };
            commands::hint(&common, args)
        }
        Command::Steps { common, plan, upto, merge, detail, engine } => {
            let (next, max_steps) = plan.next(detail).map_err(Failure::bad_input)?;
            let args = PlanArgs {
                next,
                max_steps,
                given: plan.given,
                upto,
                limit: plan.limit,
                reveal: somaria::report::steps::Reveal::What,
                engine: engine.engine,
                exact: plan.exact as usize,
                merge,
                proof: plan.proof,
                parts: plan.parts,
            };
            commands::steps(&common, args)
        }
    }
}

/// The manual page, made from the same definitions as `--help` (so it
/// cannot drift from them); the book keeps a copy that a test compares.
fn manpage() -> Result<u8, Failure> {
    use clap::CommandFactory;
    let written = clap_mangen::Man::new(Cli::command()).render(&mut std::io::stdout().lock());
    written.map_err(|e| cli::cannot_write(std::path::Path::new("standard output"), e))?;
    Ok(0)
}

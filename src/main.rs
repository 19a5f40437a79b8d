//! The `somaria` command line: parse arguments, load the model, run the
//! puzzle, print the report, and exit with the code of the verdict.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use somaria::puzzles::compare::{CompareOptions, compare};
use somaria::puzzles::{self, CountOptions, SolveOptions, Status};
use somaria::render::{self, Format};

/// Exit codes, part of the CLI contract.
mod exit {
    pub const SOLVED: u8 = 0;
    pub const NO_SOLUTION: u8 = 1;
    pub const BAD_INPUT: u8 = 2;
    pub const UNKNOWN: u8 = 3;
    pub const INTERNAL: u8 = 4;
}

#[derive(Parser)]
#[command(name = "somaria", version, about = "Model logic puzzles, solve them with SAT, and prove them unique or unsolvable.")]
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
        /// The encoding or engine to use; the default is the family's fastest.
        #[arg(long, visible_alias = "encoding", value_name = "NAME")]
        engine: Option<String>,
        /// Skip the reasoning done before SAT, so the encoding alone decides.
        #[arg(long)]
        no_presolve: bool,
    },
    /// Count the distinct solutions, checking each one.
    ///
    /// Exit code: 0 whatever the count, 2 bad input, 4 internal error.
    Count {
        #[command(flatten)]
        common: Common,
        /// Stop after N solutions (N >= 1); the report then says the count is incomplete.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        limit: Option<u64>,
        /// The encoding or engine to use; the default is the family's fastest.
        #[arg(long, visible_alias = "encoding", value_name = "NAME")]
        engine: Option<String>,
    },
    /// Report what holds in every solution and what can vary.
    ///
    /// Exit code: 0 solved, 1 no solution, 2 bad input, 4 internal error.
    Facts {
        #[command(flatten)]
        common: Common,
        /// The encoding or engine to use; the default is the family's fastest.
        #[arg(long, visible_alias = "encoding", value_name = "NAME")]
        engine: Option<String>,
    },
    /// Run every encoding or engine on the model and check that they agree.
    ///
    /// Exit code: 0 all agree, 1 some disagree, 2 bad input, 4 internal error.
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

#[derive(Copy, Clone, ValueEnum)]
enum OutputFormat {
    Text,
    Json,
}

impl From<OutputFormat> for Format {
    fn from(format: OutputFormat) -> Format {
        match format {
            OutputFormat::Text => Format::Text,
            OutputFormat::Json => Format::Json,
        }
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
            puzzles::Error::UnknownEngine { .. } | puzzles::Error::Unsupported { .. } => exit::BAD_INPUT,
            puzzles::Error::Solver(_) | puzzles::Error::CheckFailed(_) => exit::INTERNAL,
        };
        Failure { code, message: e.to_string() }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
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
        Command::Solve { common, dimacs, engine, no_presolve } => {
            let puzzle = puzzles::load_file(&common.model)?;
            let options = SolveOptions { engine, keep_cnf: dimacs.is_some(), skip_presolve: no_presolve };
            let report = puzzle.solve(&options)?;
            if let (Some(path), Some(cnf)) = (&dimacs, &report.cnf) {
                write_whole(path, |out| cnf.write_dimacs(out))?;
            }
            match Format::from(common.format) {
                Format::Json => print(&render::solve_json(puzzle.kind(), &report).to_string()),
                Format::Text => print(render::solve_text(puzzle.kind(), puzzle.title(), &report).trim_end()),
            }
            Ok(status_code(report.status))
        }
        Command::Count { common, limit, engine } => {
            let puzzle = puzzles::load_file(&common.model)?;
            let report = puzzle.count(&CountOptions { engine, limit })?;
            match Format::from(common.format) {
                Format::Json => print(&render::count_json(puzzle.kind(), &report).to_string()),
                Format::Text => print(render::count_text(puzzle.kind(), puzzle.title(), &report).trim_end()),
            }
            Ok(exit::SOLVED)
        }
        Command::Facts { common, engine } => {
            let puzzle = puzzles::load_file(&common.model)?;
            let report = puzzle.facts(&SolveOptions { engine, ..SolveOptions::default() })?;
            match Format::from(common.format) {
                Format::Json => print(&render::facts_json(puzzle.kind(), &report).to_string()),
                Format::Text => print(render::facts_text(puzzle.kind(), puzzle.title(), &report).trim_end()),
            }
            Ok(status_code(report.status))
        }
        Command::Compare { common, count, limit, no_presolve } => {
            let puzzle = puzzles::load_file(&common.model)?;
            let options = CompareOptions { count, limit, skip_presolve: no_presolve };
            let report = compare(puzzle.as_ref(), &options)?;
            match Format::from(common.format) {
                Format::Json => print(&render::compare_json(puzzle.kind(), &report).to_string()),
                Format::Text => print(render::compare_text(puzzle.kind(), puzzle.title(), &report).trim_end()),
            }
            Ok(if report.agree { exit::SOLVED } else { exit::NO_SOLUTION })
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

/// Prints a line to stdout, ignoring a closed pipe (as with `| head`).
fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
}

/// Writes a file through a temporary sibling and renames it into place, so a
/// reader never sees it half-written.
fn write_whole(path: &Path, write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>) -> Result<(), Failure> {
    let fail = |e: std::io::Error| Failure { code: exit::BAD_INPUT, message: format!("{}: cannot write: {e}", path.display()) };
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let result = std::fs::File::create(&partial).and_then(|mut file| {
        write(&mut file)?;
        file.sync_all()
    });
    match result.and_then(|()| std::fs::rename(&partial, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(fail(e))
        }
    }
}

//! The arguments the commands share, as clap parses them.

use std::path::PathBuf;
use std::time::Duration;

use clap::ValueEnum;
use somaria::limits::memory;
use somaria::solver::{Backend, ProofFormat};

/// The arguments every command shares.
#[derive(clap::Args)]
pub struct Common {
    /// The model file (TOML), a puzz.link URL (quote it: 'https://puzz.link/p?slither/5/5/cbcbcddad'), or - for
    /// standard input.
    pub model: PathBuf,
    /// Output format: text, JSON, an SVG picture (for solve, facts, explain and hint; steps writes one per step
    /// into -o DIR), or for a puzz.link genre's puzzle its URL or its pzprv3 file (with solve's answer, or the
    /// state steps reached, filled in).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// Write the report (for encode, the DIMACS file) to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// In text reports, draw arrows and other glyphs with plain ASCII.
    #[arg(long)]
    pub ascii: bool,
    /// In text reports, leave out the statistics (engine, SAT calls, times); JSON keeps them.
    #[arg(long, short)]
    pub quiet: bool,
    /// Give up after SECONDS (0.001 to 31536000, one year), loading included, and report "unknown" (exit 3) with
    /// the progress so far.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
    /// Give up with "unknown" (exit 3) when the process holds more than SIZE of memory, such as 512M or 2G
    /// [default: half of the machine's memory].
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_size)]
    pub memory_limit: Option<u64>,
    /// The SAT backend: varisat (pure Rust) or cadical (C++, in builds with the `cadical` feature; its searches
    /// stop inside a SAT call at a limit).
    #[arg(long, value_name = "NAME", default_value_t = Backend::default())]
    pub solver: Backend,
}

/// The engine choice of the commands that run one engine.
#[derive(clap::Args)]
pub struct EngineArg {
    /// The encoding or engine to use; the default is the family's fastest.
    #[arg(long, visible_alias = "encoding", value_name = "NAME")]
    pub engine: Option<String>,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
    Svg,
    /// The puzzle's puzz.link URL.
    Url,
    /// pzprjs's file format, which puzz.link opens with File > Open.
    Pzprv3,
}

/// How `count` counts.
#[derive(Copy, Clone, ValueEnum)]
pub enum CountMethodArg {
    /// Find, check and block each solution.
    Enumerate,
    /// Count the formula exactly without listing the solutions.
    Exact,
}

impl CountMethodArg {
    pub fn method(self) -> somaria::puzzles::CountMethod {
        use somaria::puzzles::CountMethod;
        match self {
            CountMethodArg::Enumerate => CountMethod::Enumerate,
            CountMethodArg::Exact => CountMethod::Exact,
        }
    }
}

/// How much `hint` gives away.
#[derive(Copy, Clone, ValueEnum)]
pub enum RevealArg {
    /// Only the cells or things the deduction is about.
    Where,
    /// Also the constraints and the known facts it uses.
    Why,
    /// Also the new facts.
    What,
}

impl RevealArg {
    pub fn reveal(self) -> somaria::report::steps::Reveal {
        use somaria::report::steps::Reveal;
        match self {
            RevealArg::Where => Reveal::Where,
            RevealArg::Why => Reveal::Why,
            RevealArg::What => Reveal::What,
        }
    }
}

/// The player's state and the planner's options, shared by `hint` and `steps`.
#[derive(clap::Args)]
pub struct PlanArg {
    /// An entry of the player's state, NAME=VALUE or NAME!=VALUE, such as 'cell[3,4]=5' or 'fan 2=right',
    /// or a state file (JSON or TOML in the shape of solve's solution); repeat for more.
    #[arg(long, value_name = "ENTRY")]
    pub given: Vec<String>,
    /// When a guess is needed, count at most N of the solutions that remain.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(2..))]
    pub limit: u64,
    /// Search every set of up to K constraints before settling for a minimal one; larger K proves more steps
    /// smallest, and takes longer.
    #[arg(long, value_name = "K", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=6))]
    pub exact: u64,
    /// Write each step's re-check as a DIMACS formula and its DRAT refutation: FILE and FILE.cnf for a hint,
    /// FILE.1 and FILE.1.cnf, FILE.2 and FILE.2.cnf, ... for steps (tile-cover models).
    #[arg(long, value_name = "FILE")]
    pub proof: Option<std::path::PathBuf>,
    /// Which steps to show: placement (the default), the easiest step that settles a shown thing (a digit
    /// written, a cell shaded) with the eliminations it needs folded into its reason; any, every step,
    /// eliminations included. For steps, a number N as well (--next N, repeatable beside the mode) stops
    /// after N steps.
    #[arg(long, value_name = "WHAT", value_parser = parse_next)]
    pub next: Vec<NextArg>,
    /// Reason over the parts of the constraints rather than whole ones: a csp `alldifferent` becomes one
    /// part per value ("7 exactly once in this row"). Experimental: about 15 times slower on a Sudoku, and
    /// its steps do not yet rate puzzles better than whole constraints do.
    #[arg(long)]
    pub parts: bool,
}

/// A `--next` value: which steps are shown, or how many.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NextArg {
    /// Only placements, with their reasons.
    Placement,
    /// Every step.
    Any,
    /// At most this many steps.
    Count(usize),
}

fn parse_next(text: &str) -> Result<NextArg, String> {
    match text.trim() {
        "placement" => Ok(NextArg::Placement),
        "any" => Ok(NextArg::Any),
        number => match number.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(NextArg::Count(n)),
            _ => Err(format!("found {text:?}; expected placement, any, or a number of steps of at least 1")),
        },
    }
}

impl PlanArg {
    /// The mode `--next` names (placement unless `detail` or `--next any`)
    /// and the count it gives; an error when it names two modes or two
    /// counts.
    pub fn next(&self, detail: bool) -> Result<(somaria::hints::Next, Option<usize>), String> {
        use somaria::hints::Next;
        let modes: Vec<Next> = self
            .next
            .iter()
            .filter_map(|n| match n {
                NextArg::Placement => Some(Next::Placement),
                NextArg::Any => Some(Next::Any),
                NextArg::Count(_) => None,
            })
            .chain(detail.then_some(Next::Any))
            .collect();
        let counts: Vec<usize> =
            self.next.iter().filter_map(|n| if let NextArg::Count(c) = n { Some(*c) } else { None }).collect();
        if modes.windows(2).any(|w| w[0] != w[1]) {
            return Err("--next placement and --next any (or --detail) ask for different steps; expected one".into());
        }
        if counts.len() > 1 {
            return Err(format!("--next gives {} counts of steps; expected at most one", counts.len()));
        }
        Ok((modes.first().copied().unwrap_or(Next::Placement), counts.first().copied()))
    }
}

#[derive(Copy, Clone, ValueEnum)]
pub enum ProofFormatArg {
    /// varisat's own format (check with varisat-checker).
    Varisat,
    /// Textual DRAT (check with drat-trim).
    Drat,
}

impl ProofFormatArg {
    pub fn format(self) -> ProofFormat {
        match self {
            ProofFormatArg::Varisat => ProofFormat::Varisat,
            ProofFormatArg::Drat => ProofFormat::Drat,
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

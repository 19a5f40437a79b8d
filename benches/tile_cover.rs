//! Scaling of the tile-cover encodings on irregular rooms from 8 × 8 to
//! 30 × 30: a prefix of a random Hamiltonian path with the rest walled off
//! (solvable), and the same with one more cell walled to unbalance the
//! colours (unsolvable). A second table measures what the parts of the
//! lazy encoding are worth: splicing cycles into the walk, cut-sets against
//! nogoods, and the colour count when the presolve is off.
//!
//! Each case runs in a child process (this same program with `--child`),
//! so a case past the time limit is killed rather than left running.
//!
//! ```text
//! cargo bench --bench tile_cover                       # both tables, a few minutes
//! cargo bench --bench tile_cover -- --timeout 20 --sizes 8,20,30 --encodings lazy,rank --fill 100 --seeds 1,2
//! ```

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use somaria::model::Source;
use somaria::puzzles::SolveOptions;
use somaria::puzzles::tile_cover::encode::EncodeOptions;
use somaria::puzzles::tile_cover::load_puzzle;
use somaria::puzzles::tile_cover::rooms::prefix_room;

struct Args {
    timeout: Duration,
    sizes: Vec<usize>,
    encodings: Vec<String>,
    seeds: Vec<u64>,
    fill_percent: usize,
}

fn parse_args(list: &[String]) -> Args {
    let mut args = Args {
        timeout: Duration::from_secs(10),
        sizes: vec![8, 12, 16, 20, 24, 30],
        encodings: ["lazy", "lazy-nogood", "rank", "steps"].map(String::from).to_vec(),
        seeds: vec![1, 2],
        fill_percent: 75,
    };
    let mut items = list.iter();
    while let Some(flag) = items.next() {
        let value = || items.clone().next().cloned().unwrap_or_default();
        match flag.as_str() {
            "--timeout" => args.timeout = Duration::from_secs_f64(value().parse().unwrap_or(10.0)),
            "--sizes" => args.sizes = value().split(',').filter_map(|s| s.parse().ok()).collect(),
            "--encodings" => args.encodings = value().split(',').map(String::from).collect(),
            "--seeds" => args.seeds = value().split(',').filter_map(|s| s.parse().ok()).collect(),
            "--fill" => args.fill_percent = value().parse().unwrap_or(75),
            _ => continue,
        }
        items.next();
    }
    args
}

/// One case, described by what the child needs to run it.
#[derive(Clone)]
struct Case {
    encoding: String,
    presolve: bool,
    splice: bool,
    colour_count: bool,
}

impl Case {
    fn variant(&self) -> &'static str {
        match (self.splice, self.colour_count) {
            (true, true) => "default",
            (false, true) => "no splice",
            (true, false) => "no colour",
            (false, false) => "neither",
        }
    }
}

/// The child: solve one model in-process and print "status sat_calls".
fn child(list: &[String]) {
    let [model, encoding, presolve, splice, colour] = list else { panic!("--child MODEL ENCODING P S C") };
    let puzzle = load_puzzle(&Source::read(model.as_ref()).expect("model")).expect("room");
    let options =
        SolveOptions { engine: Some(encoding.clone()), skip_presolve: presolve == "0", ..SolveOptions::default() };
    let encode =
        EncodeOptions { splice_cycles: splice == "1", colour_count: colour == "1", ..EncodeOptions::default() };
    let report = puzzle.solve_with(&options, encode).expect("solve");
    println!("{:?} {}", report.status, report.stats.sat_calls);
}

/// Wall-clock seconds, and the verdict and SAT calls, or `None` past the limit.
fn run(model: &std::path::Path, case: &Case, timeout: Duration) -> (f64, Option<(String, String)>) {
    let flag = |b: bool| if b { "1" } else { "0" };
    let mut command = Command::new(std::env::current_exe().expect("this program"));
    command.arg("--child").arg(model).arg(&case.encoding);
    command.args([flag(case.presolve), flag(case.splice), flag(case.colour_count)]);
    let started = Instant::now();
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("the bench runs itself");
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            return (started.elapsed().as_secs_f64(), None);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let seconds = started.elapsed().as_secs_f64();
    let mut out = String::new();
    let _ = child.stdout.take().expect("piped").read_to_string(&mut out);
    let mut words = out.split_whitespace().map(String::from);
    let status = words.next().unwrap_or_else(|| "error".to_string());
    (seconds, Some((status, words.next().unwrap_or_default())))
}

fn table(args: &Args, dir: &std::path::Path, title: &str, cases: impl Fn(bool) -> Vec<Case>) {
    println!("\n{title}");
    println!(
        "{:<12} {:<10} {:>3} {:>4} {:<10} {:<8} {:>8} {:>6}  answer",
        "encoding", "variant", "n", "seed", "room", "presolve", "seconds", "SAT"
    );
    for &size in &args.sizes {
        for &seed in &args.seeds {
            for solvable in [true, false] {
                let grid = prefix_room(size, size * size * args.fill_percent / 100, seed, solvable);
                let model = dir.join(format!("room-{size}-{seed}-{solvable}.toml"));
                std::fs::write(&model, format!("kind = \"tile-cover\"\ngrid = \"\"\"\n{grid}\"\"\"\n")).expect("write");
                let room = if solvable { "solvable" } else { "unbalanced" };
                for case in cases(solvable) {
                    let (seconds, outcome) = run(&model, &case, args.timeout);
                    let (answer, calls) = outcome.unwrap_or_else(|| ("timeout".to_string(), "-".to_string()));
                    let presolve = if case.presolve { "on" } else { "off" };
                    println!(
                        "{:<12} {:<10} {size:>3} {seed:>4} {room:<10} {presolve:<8} {seconds:>8.3} {calls:>6}  {answer}",
                        case.encoding,
                        case.variant()
                    );
                }
            }
        }
    }
}

fn main() {
    let list: Vec<String> = std::env::args().skip(1).collect();
    if list.first().map(String::as_str) == Some("--child") {
        return child(&list[1..]);
    }
    let args = parse_args(&list);
    let dir = tempfile::tempdir().expect("a temporary directory");
    println!(
        "rooms: the first {}% of the cells of a random Hamiltonian path of n x n, the rest walled; \
         'unbalanced' walls one more cell; time limit {:?}; wall-clock per case includes process start",
        args.fill_percent, args.timeout
    );
    let plain = |encoding: &str, presolve: bool| Case {
        encoding: encoding.to_string(),
        presolve,
        splice: true,
        colour_count: true,
    };
    table(&args, dir.path(), "Encodings (presolve on; unbalanced rooms also with presolve off):", |solvable| {
        let mut cases: Vec<Case> = args.encodings.iter().map(|e| plain(e, true)).collect();
        if !solvable {
            cases = vec![plain("lazy", true)];
            cases.extend(args.encodings.iter().map(|e| plain(e, false)));
        }
        cases
    });
    table(&args, dir.path(), "Parts of the lazy encoding:", |solvable| {
        if solvable {
            ["lazy", "lazy-nogood"].into_iter().map(|e| Case { splice: false, ..plain(e, true) }).collect()
        } else {
            vec![Case { colour_count: false, ..plain("lazy", false) }]
        }
    });
}

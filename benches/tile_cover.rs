//! Tile cover benches, as tables printed by child processes:
//!
//! - `encodings`: the encodings on irregular rooms from 8 × 8 to 30 × 30, a
//!   prefix of a random Hamiltonian path with the rest walled off (solvable),
//!   and the same with one more cell walled to unbalance the colours
//!   (unsolvable);
//! - `parts`: what the parts of the lazy encoding are worth: splicing
//!   cycles into the walk, cut-sets against nogoods, the colour count when
//!   the presolve is off;
//! - `scattered`: the generator's rooms (`rooms::scattered_room`, as
//!   `examples/tile_room.rs` prints them), 8 × 8 to 40 × 40 with 2, 5, 8 and
//!   12 % walls and 3 seeds, whole `somaria solve` process: how each was
//!   decided (presolve rule, construction or SAT), and the seconds;
//! - `open`: open n × n rooms up to 1000 × 1000 (start in a corner or in the
//!   middle, a few walls, an end tile), whole process with peak memory.
//!
//! Each case runs in a child process, killed past the time limit.
//!
//! ```text
//! cargo bench --bench tile_cover                       # every table, a few minutes
//! cargo bench --bench tile_cover -- --tables scattered,open
//! cargo bench --bench tile_cover -- --timeout 20 --sizes 8,20,30 --encodings lazy,rank --fill 100 --seeds 1,2
//! ```

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use somaria::model::Source;
use somaria::puzzles::SolveOptions;
use somaria::puzzles::tile_cover::EncodeOptions;
use somaria::puzzles::tile_cover::load_puzzle;
use somaria::puzzles::tile_cover::presolve;
use somaria::puzzles::tile_cover::rooms::{open_room, prefix_room, scattered_room, scattered_room_without_dead_ends};

struct Args {
    timeout: Duration,
    sizes: Vec<usize>,
    encodings: Vec<String>,
    seeds: Vec<u64>,
    fill_percent: usize,
    tables: Vec<String>,
}

fn parse_args(list: &[String]) -> Args {
    let mut args = Args {
        timeout: Duration::from_secs(10),
        sizes: vec![8, 12, 16, 20, 24, 30],
        encodings: ["lazy", "lazy-nogood", "rank", "steps"].map(String::from).to_vec(),
        seeds: vec![1, 2],
        fill_percent: 75,
        tables: ["encodings", "parts", "scattered", "open"].map(String::from).to_vec(),
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
            "--tables" => args.tables = value().split(',').map(String::from).collect(),
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
    construct: bool,
}

impl Case {
    fn variant(&self) -> &'static str {
        match (self.construct && self.presolve, self.splice, self.colour_count) {
            (true, true, true) => "default",
            (false, true, true) => "SAT only",
            (_, false, true) => "no splice",
            (_, true, false) => "no colour",
            (_, false, false) => "neither",
        }
    }
}

/// The child: solve one model in-process and print "status sat_calls".
fn child(list: &[String]) {
    let [model, encoding, presolve, splice, colour, construct] = list else {
        panic!("--child MODEL ENCODING PRESOLVE SPLICE COLOUR CONSTRUCT")
    };
    let puzzle = load_puzzle(&Source::read(model.as_ref()).expect("model")).expect("room");
    let options =
        SolveOptions { engine: Some(encoding.clone()), skip_presolve: presolve == "0", ..SolveOptions::default() };
    let encode = EncodeOptions {
        splice_cycles: splice == "1",
        colour_count: colour == "1",
        construct: construct == "1",
        ..EncodeOptions::default()
    };
    let report = puzzle.solve_with(&options, encode).expect("solve");
    println!("{:?} {}", report.status, report.stats.sat_calls);
}

/// Wall-clock seconds, and the verdict and SAT calls, or `None` past the limit.
fn run(model: &std::path::Path, case: &Case, timeout: Duration) -> (f64, Option<(String, String)>) {
    let flag = |b: bool| if b { "1" } else { "0" };
    let mut command = Command::new(std::env::current_exe().expect("this program"));
    command.arg("--child").arg(model).arg(&case.encoding);
    command.args([flag(case.presolve), flag(case.splice), flag(case.colour_count), flag(case.construct)]);
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
                let grid =
                    prefix_room(size, size * size * args.fill_percent / 100, seed, solvable).expect("a valid size");
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

/// A whole `somaria` process: wall-clock seconds, peak resident memory in
/// MB, and the verdict and engine it printed, or `None` past the limit.
/// Only the tail of the output is kept (the verdict and stats come last),
/// so that this process stays small: a child forked from it counts the
/// parent's memory at the fork in its peak.
fn cli(model: &std::path::Path, timeout: Duration) -> (f64, f64, Option<(String, String)>) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_somaria"));
    command.args(["solve", "--format", "json"]).arg(model);
    let started = Instant::now();
    // Reaped below by wait4, which also reports the child's peak memory.
    #[allow(clippy::zombie_processes)]
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("somaria runs");
    let mut out = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut tail: Vec<u8> = Vec::new();
        let mut buffer = vec![0u8; 1 << 16];
        while let Ok(n) = out.read(&mut buffer) {
            if n == 0 {
                break;
            }
            tail.extend_from_slice(&buffer[..n]);
            if tail.len() > 1 << 17 {
                tail.drain(..tail.len() - (1 << 16));
            }
        }
        String::from_utf8_lossy(&tail).into_owned()
    });
    let pid = child.id() as libc::pid_t;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut status = 0;
    let mut finished = true;
    loop {
        // wait4 reaps the child and reports its own peak memory.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            break;
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
            finished = false;
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let seconds = started.elapsed().as_secs_f64();
    let tail = reader.join().unwrap_or_default();
    let field = |key: &str| -> Option<String> {
        let at = tail.rfind(&format!("\"{key}\":"))? + key.len() + 3;
        let rest = tail[at..].trim_start().strip_prefix('"')?;
        Some(rest[..rest.find('"')?].to_string())
    };
    let verdict =
        finished.then(|| (field("status"), field("engine"))).and_then(|(s, e)| Some((s?, e.unwrap_or_default())));
    (seconds, usage.ru_maxrss as f64 / 1024.0, verdict)
}

/// How a verdict was reached, from the output and the presolve's rule.
fn decided(verdict: &Option<(String, String)>, rule: Option<presolve::Rule>) -> String {
    match (verdict, rule) {
        (Some((status, _)), Some(rule)) if status == "no_solution" => format!("presolve {}", rule.name()),
        (Some((status, engine)), _) if status == "solved" && (engine == "serpentine" || engine == "splice") => {
            format!("construction {engine}")
        }
        (Some((status, _)), _) => format!("SAT ({status})"),
        (None, _) => "-".to_string(),
    }
}

fn write_model(dir: &std::path::Path, name: &str, grid: &str, leave: usize) -> std::path::PathBuf {
    let model = dir.join(format!("{name}.toml"));
    let text = format!("kind = \"tile-cover\"\nleave_uncovered = {leave}\ngrid = \"\"\"\n{grid}\"\"\"\n");
    std::fs::write(&model, text).expect("write");
    model
}

/// The generator's rooms, whole process, in four families: as generated,
/// without dead ends, and each with tiles to leave; a summary line per
/// family.
fn scattered_table(args: &Args, dir: &std::path::Path) {
    let sizes =
        if args.sizes == vec![8, 12, 16, 20, 24, 30] { vec![8, 12, 16, 20, 24, 30, 40] } else { args.sizes.clone() };
    let seeds = if args.seeds == vec![1, 2] { vec![1, 2, 3] } else { args.seeds.clone() };
    let families: [(&str, bool, usize); 4] = [
        ("scattered walls (the issue's table)", false, 0),
        ("scattered walls, no dead ends", true, 0),
        ("scattered walls, leave_uncovered = 1", false, 1),
        ("scattered walls, no dead ends, leave_uncovered = 2", true, 2),
    ];
    let mut summaries = Vec::new();
    for (family, prune, leave) in families {
        println!("\n{family} (whole `somaria solve` process, limit {:?}):", args.timeout);
        println!(
            "{:>3} {:>6} {:>4} {:>6} {:>8}  {:<12} decided by",
            "n", "walls%", "seed", "tiles", "seconds", "answer"
        );
        let (mut times, mut by_presolve, mut by_construction, mut by_sat, mut over) = (Vec::new(), 0, 0, 0, 0);
        for &size in &sizes {
            for percent in [2.0, 5.0, 8.0, 12.0] {
                for &seed in &seeds {
                    let grid = if prune {
                        scattered_room_without_dead_ends(size, percent, seed)
                    } else {
                        scattered_room(size, percent, seed)
                    }
                    .expect("a valid size");
                    let tiles = grid.chars().filter(|&c| c == '.').count();
                    let leave = leave.min(tiles);
                    let model =
                        write_model(dir, &format!("scattered-{prune}-{leave}-{size}-{percent}-{seed}"), &grid, leave);
                    let puzzle = load_puzzle(&Source::read(&model).expect("model")).expect("room");
                    let rule = presolve::analyse(puzzle.room()).refutation.map(|r| r.rule);
                    let (seconds, _, verdict) = cli(&model, args.timeout);
                    let answer = verdict.as_ref().map_or("timeout".to_string(), |(s, _)| s.clone());
                    let how = decided(&verdict, rule);
                    by_presolve += usize::from(how.starts_with("presolve"));
                    by_construction += usize::from(how.starts_with("construction"));
                    by_sat += usize::from(how.starts_with("SAT"));
                    over += usize::from(seconds > 1.0 || answer == "timeout" || answer == "unknown");
                    times.push(seconds);
                    println!("{size:>3} {percent:>6} {seed:>4} {tiles:>6} {seconds:>8.3}  {answer:<12} {how}");
                }
            }
        }
        times.sort_by(f64::total_cmp);
        let summary = format!(
            "{family}: {} rooms, median {:.3} s, slowest {:.3} s, {over} over 1 s or unanswered; decided by the \
             presolve alone {by_presolve}, by a construction {by_construction}, by SAT {by_sat}",
            times.len(),
            times[times.len() / 2],
            times.last().copied().unwrap_or(0.0)
        );
        println!("{summary}");
        summaries.push(summary);
    }
    println!();
    for summary in summaries {
        println!("{summary}");
    }
}

/// Open rooms at scale, whole process with peak memory.
fn open_table(args: &Args, dir: &std::path::Path) {
    println!("\nOpen rooms (whole `somaria solve --format json` process, limit {:?}):", args.timeout);
    println!("{:<34} {:>9} {:>8} {:>8}  {:<10} engine", "room", "tiles", "seconds", "peak MB", "answer");
    let mut cases: Vec<(String, String)> = Vec::new();
    let room = |n: usize, start, end| open_room(n, n, start, end).expect("a valid room");
    for n in [60, 80, 100, 300, 1000] {
        cases.push((format!("{n}x{n}, start in a corner"), room(n, (0, 0), None)));
    }
    for n in [100, 1000] {
        cases.push((format!("{n}x{n}, start in the middle"), room(n, (n / 2, n / 2), None)));
    }
    for n in [100, 1000] {
        // Four walls, two of each colour so the colours stay even; the start
        // off centre, the end tile in the far corner, on the colour the
        // counts ask for.
        let mut grid: Vec<Vec<char>> =
            room(n, (n / 2, n / 2 + 1), Some((n - 1, n - 1))).lines().map(|l| l.chars().collect()).collect();
        let spots = [(n / 10, n / 10), (n / 5, 3 * n / 10), (7 * n / 10, 11 * n / 20), (9 * n / 10, 9 * n / 10)];
        for (i, (r, mut c)) in spots.into_iter().enumerate() {
            if (r + c) % 2 != i % 2 {
                c += 1;
            }
            grid[r][c] = '#';
        }
        let text: String = grid.into_iter().map(|row| row.into_iter().collect::<String>() + "\n").collect();
        cases.push((format!("{n}x{n}, 4 walls, start off centre, E"), text));
    }
    for (i, (name, grid)) in cases.iter().enumerate() {
        let model = write_model(dir, &format!("open-{i}"), grid, 0);
        let tiles = grid.chars().filter(|&c| c == '.' || c == 'E').count();
        let (seconds, peak, verdict) = cli(&model, args.timeout);
        let (answer, engine) = verdict.unwrap_or(("timeout".to_string(), "-".to_string()));
        println!("{name:<34} {tiles:>9} {seconds:>8.3} {peak:>8.0}  {answer:<10} {engine}");
    }
}

fn main() {
    let list: Vec<String> = std::env::args().skip(1).collect();
    if list.first().map(String::as_str) == Some("--child") {
        return child(&list[1..]);
    }
    let args = parse_args(&list);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let wants = |table: &str| args.tables.iter().any(|t| t == table);
    let plain = |encoding: &str, presolve: bool| Case {
        encoding: encoding.to_string(),
        presolve,
        splice: true,
        colour_count: true,
        construct: true,
    };
    // The encodings themselves, without a constructive route first.
    let sat_only = |encoding: &str| Case { construct: false, ..plain(encoding, true) };
    if wants("encodings") || wants("parts") {
        println!(
            "rooms: the first {}% of the cells of a random Hamiltonian path of n x n, the rest walled; \
             'unbalanced' walls one more cell; time limit {:?}; wall-clock per case includes process start",
            args.fill_percent, args.timeout
        );
    }
    if wants("encodings") {
        let title = "Encodings (presolve on; solvable rooms also without constructions, unbalanced rooms also with \
                     presolve off):";
        table(&args, dir.path(), title, |solvable| {
            let mut cases = vec![plain("lazy", true)];
            cases.extend(args.encodings.iter().map(|e| sat_only(e)));
            if !solvable {
                cases = vec![plain("lazy", true)];
                cases.extend(args.encodings.iter().map(|e| plain(e, false)));
            }
            cases
        });
    }
    if wants("parts") {
        table(&args, dir.path(), "Parts of the lazy encoding:", |solvable| {
            if solvable {
                ["lazy", "lazy-nogood"].into_iter().map(|e| Case { splice: false, ..sat_only(e) }).collect()
            } else {
                vec![Case { colour_count: false, ..plain("lazy", false) }]
            }
        });
    }
    if wants("scattered") {
        scattered_table(&args, dir.path());
    }
    if wants("open") {
        open_table(&args, dir.path());
    }
}

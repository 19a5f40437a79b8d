//! Scaling of the tile-cover encodings on irregular rooms from 8 × 8 to
//! 30 × 30: a prefix of a random Hamiltonian path with the rest walled off
//! (solvable), and the same with one more cell walled to unbalance the
//! colours (unsolvable).
//!
//! Each case runs the release `somaria` binary in a child process, so a
//! case past the time limit is killed rather than left running.
//!
//! ```text
//! cargo bench --bench tile_cover                       # default table, a few minutes
//! cargo bench --bench tile_cover -- --timeout 20 --sizes 8,20,30 --encodings lazy,rank --fill 100 --seeds 1,2
//! ```

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use somaria::puzzles::tile_cover::rooms::prefix_room;

struct Args {
    timeout: Duration,
    sizes: Vec<usize>,
    encodings: Vec<String>,
    seeds: Vec<u64>,
    fill_percent: usize,
}

fn parse_args() -> Args {
    let mut args = Args {
        timeout: Duration::from_secs(20),
        sizes: vec![8, 12, 16, 20, 24, 30],
        encodings: ["lazy", "lazy-nogood", "rank", "steps"].map(String::from).to_vec(),
        seeds: vec![1, 2],
        fill_percent: 75,
    };
    let list: Vec<String> = std::env::args().skip(1).collect();
    let mut items = list.iter();
    while let Some(flag) = items.next() {
        let value = || items.clone().next().cloned().unwrap_or_default();
        match flag.as_str() {
            "--timeout" => args.timeout = Duration::from_secs_f64(value().parse().unwrap_or(20.0)),
            "--sizes" => args.sizes = value().split(',').filter_map(|s| s.parse().ok()).collect(),
            "--encodings" => args.encodings = value().split(',').map(String::from).collect(),
            "--fill" => args.fill_percent = value().parse().unwrap_or(75),
            "--seeds" => args.seeds = value().split(',').filter_map(|s| s.parse().ok()).collect(),
            _ => continue,
        }
        items.next();
    }
    args
}

/// One run: wall-clock seconds, and the verdict and SAT calls, or `None`
/// past the time limit.
fn run(model: &std::path::Path, encoding: &str, presolve: bool, timeout: Duration) -> (f64, Option<(String, u64)>) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_somaria"));
    command.args(["solve", "--format", "json", "--encoding", encoding]).arg(model);
    if !presolve {
        command.arg("--no-presolve");
    }
    let started = Instant::now();
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("the somaria binary runs");
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            return (started.elapsed().as_secs_f64(), None);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let seconds = started.elapsed().as_secs_f64();
    let mut out = String::new();
    let _ = child.stdout.take().expect("piped").read_to_string(&mut out);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap_or_default();
    let status = json["status"].as_str().unwrap_or("error").to_string();
    (seconds, Some((status, json["stats"]["sat_calls"].as_u64().unwrap_or(0))))
}

fn main() {
    let args = parse_args();
    let dir = tempfile::tempdir().expect("a temporary directory");
    println!(
        "rooms: prefix of {}% of the cells of a random Hamiltonian path of n x n; time limit {:?}",
        args.fill_percent, args.timeout
    );
    println!("{:<12} {:>5} {:>5} {:<11} {:<9} {:>9} {:>8}  answer", "encoding", "n", "seed", "room", "presolve", "seconds", "SAT");
    for &size in &args.sizes {
        for &seed in &args.seeds {
            for solvable in [true, false] {
                let grid = prefix_room(size, size * size * args.fill_percent / 100, seed, solvable);
                let model = dir.path().join(format!("room-{size}-{seed}-{solvable}.toml"));
                std::fs::write(&model, format!("kind = \"tile-cover\"\ngrid = \"\"\"\n{grid}\"\"\"\n")).expect("write");
                let room = if solvable { "solvable" } else { "unbalanced" };
                // Presolve answers the unbalanced rooms alone; time it once, then
                // let each encoding face them without it.
                let settings: &[bool] = if solvable { &[true] } else { &[true, false] };
                for &presolve in settings {
                    let encodings: Vec<&str> =
                        if presolve && !solvable { vec!["lazy"] } else { args.encodings.iter().map(String::as_str).collect() };
                    for encoding in encodings {
                        let (seconds, outcome) = run(&model, encoding, presolve, args.timeout);
                        let (answer, calls) = match outcome {
                            Some((status, calls)) => (status, calls.to_string()),
                            None => ("timeout".to_string(), "-".to_string()),
                        };
                        let presolve = if presolve { "on" } else { "off" };
                        println!("{encoding:<12} {size:>5} {seed:>5} {room:<11} {presolve:<9} {seconds:>9.3} {calls:>8}  {answer}");
                    }
                }
            }
        }
    }
}

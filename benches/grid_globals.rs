//! Grid globals, whole `somaria` processes, printed as tables of medians:
//!
//! - `cave`: Hero's Cave as the tile-cover family (with and without its
//!   presolve) and as the csp model `models/csp/heros-cave.toml` (lazy and
//!   eager `grid_path`);
//! - `rooms`: the tile-cover bench's rooms (the first 75 % of a random
//!   Hamiltonian path of n × n, solvable and with one more cell walled to
//!   unbalance the colours; and scattered rooms with 5 % walls), each as the
//!   family and as a csp model with `grid_path` over the room's cells, with
//!   the csp model's time as a multiple of the family's;
//! - `models`: every model under `models/csp/` that uses a grid global,
//!   `solve` and `count --limit 2` (a solution and the proof that it is the
//!   only one), lazy against eager.
//!
//! Each case runs as a child `somaria` process, killed past the time limit;
//! a cell shows the median wall-clock of the runs (process start included)
//! or `>LIMIT`.
//!
//! ```text
//! cargo bench --bench grid_globals                         # every table, a few minutes
//! cargo bench --bench grid_globals -- --tables cave,models --runs 21
//! cargo bench --bench grid_globals -- --tables rooms --sizes 20,30 --seeds 1,2,3 --timeout 20
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use somaria::puzzles::tile_cover::rooms::{prefix_room, scattered_room};

struct Args {
    timeout: Duration,
    runs: usize,
    sizes: Vec<usize>,
    seeds: Vec<u64>,
    tables: Vec<String>,
}

fn parse_args(list: &[String]) -> Args {
    let mut args = Args {
        timeout: Duration::from_secs(10),
        runs: 7,
        sizes: vec![8, 16, 24, 30],
        seeds: vec![1, 2],
        tables: ["cave", "rooms", "models"].map(String::from).to_vec(),
    };
    let mut items = list.iter();
    while let Some(flag) = items.next() {
        let value = || items.clone().next().cloned().unwrap_or_default();
        match flag.as_str() {
            "--timeout" => args.timeout = Duration::from_secs_f64(value().parse().unwrap_or(10.0)),
            "--runs" => args.runs = value().parse().unwrap_or(7).max(1),
            "--sizes" => args.sizes = value().split(',').filter_map(|s| s.parse().ok()).collect(),
            "--seeds" => args.seeds = value().split(',').filter_map(|s| s.parse().ok()).collect(),
            "--tables" => args.tables = value().split(',').map(String::from).collect(),
            _ => continue,
        }
        items.next();
    }
    args
}

/// The median wall-clock seconds of `runs` runs of `somaria ARGS`, and the
/// exit code of the last; `None` when a run passed the limit (the rest are
/// then skipped: the case is out of reach).
fn time(arguments: &[&str], args: &Args) -> Option<(f64, i32)> {
    let mut seconds = Vec::new();
    let mut code = 0;
    for _ in 0..args.runs {
        let started = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_somaria"))
            .args(arguments)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the somaria binary runs");
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                code = status.code().unwrap_or(-1);
                break;
            }
            if started.elapsed() > args.timeout {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        seconds.push(started.elapsed().as_secs_f64());
    }
    seconds.sort_by(f64::total_cmp);
    Some((seconds[seconds.len() / 2], code))
}

fn cell(measured: Option<(f64, i32)>, args: &Args) -> String {
    match measured {
        Some((s, _)) if s < 1.0 => format!("{:.1} ms", s * 1000.0),
        Some((s, _)) => format!("{s:.2} s"),
        None => format!(">{:?}", args.timeout),
    }
}

fn verdict(code: i32) -> &'static str {
    match code {
        0 => "solved",
        1 => "none",
        3 => "unknown",
        _ => "error",
    }
}

/// The room as a csp model: the cells to walk are a param table (1 a tile,
/// 0 a wall), the walk one `grid_path` from the start, to the end tile if
/// the room has one.
fn csp_room(grid: &str) -> String {
    let rows: Vec<Vec<char>> = grid.lines().map(|l| l.chars().collect()).collect();
    let (h, w) = (rows.len(), rows[0].len());
    let find = |symbol: char| {
        (0..h)
            .flat_map(|r| (0..w).map(move |c| (r, c)))
            .find(|&(r, c)| rows[r][c] == symbol)
            .map(|(r, c)| (r + 1, c + 1))
    };
    let (sr, sc) = find('S').expect("a room has a start");
    let end = find('E').map(|(r, c)| format!(", {r}, {c}")).unwrap_or_default();
    let table: Vec<String> = rows
        .iter()
        .map(|r| r.iter().map(|&c| if c == '#' { "0" } else { "1" }).collect::<Vec<_>>().join(","))
        .collect();
    format!(
        "kind = \"csp\"\n[params]\nroom = \"\"\"[|\n{}\n|]\"\"\"\n[vars]\n[[constraint]]\nname = \"walk\"\n\
         expr = 'grid_path(array2d(1..{h}, 1..{w}, [room[i, j] = 1 | i in 1..{h}, j in 1..{w}]), {sr}, {sc}{end})'\n",
        table.join(" |\n")
    )
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a model");
    path
}

fn cave_table(args: &Args) {
    println!("\nHero's Cave, `somaria solve` (no route exists), median of {} runs:", args.runs);
    println!("| model | engine | median | verdict |\n| --- | --- | --- | --- |");
    let cases: [(&str, &[&str]); 4] = [
        ("models/heros-cave.toml", &[]),
        ("models/heros-cave.toml", &["--no-presolve"]),
        ("models/csp/heros-cave.toml", &[]),
        ("models/csp/heros-cave.toml", &["--engine", "eager"]),
    ];
    for (model, extra) in cases {
        let mut arguments = vec!["solve", model];
        arguments.extend_from_slice(extra);
        let measured = time(&arguments, args);
        let engine = if extra.is_empty() { "default".to_string() } else { extra.join(" ") };
        println!("| {model} | {engine} | {} | {} |", cell(measured, args), measured.map_or("-", |m| verdict(m.1)));
    }
}

fn rooms_table(args: &Args, dir: &Path) {
    println!(
        "\nRooms, `somaria solve`, median of {} runs: the family (default, and without presolve) against the csp \
         model (lazy, eager); 'ratio' is csp lazy over the family's default",
        args.runs
    );
    println!(
        "| room | n | seed | family | family, no presolve | csp lazy | csp eager | ratio | verdict |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    );
    let mut ratios = Vec::new();
    for &n in &args.sizes {
        for &seed in &args.seeds {
            let rooms = [
                ("prefix", prefix_room(n, n * n * 3 / 4, seed, true)),
                ("unbalanced", prefix_room(n, n * n * 3 / 4, seed, false)),
                ("scattered", scattered_room(n, 5.0, seed)),
            ];
            for (kind, grid) in rooms {
                let Ok(grid) = grid else { continue };
                let name = format!("{kind}-{n}-{seed}");
                let family = write(
                    dir,
                    &format!("{name}.toml"),
                    &format!("kind = \"tile-cover\"\ngrid = \"\"\"\n{grid}\"\"\"\n"),
                );
                let csp = write(dir, &format!("{name}-csp.toml"), &csp_room(&grid));
                let (family, csp) = (family.to_str().expect("utf-8"), csp.to_str().expect("utf-8"));
                let by_family = time(&["solve", family], args);
                let bare = time(&["solve", family, "--no-presolve"], args);
                let lazy = time(&["solve", csp], args);
                let eager = time(&["solve", csp, "--engine", "eager"], args);
                let ratio = match (lazy, by_family) {
                    (Some((l, _)), Some((f, _))) => {
                        ratios.push(l / f);
                        format!("{:.1}x", l / f)
                    }
                    _ => "-".into(),
                };
                let verdicts: Vec<&str> = [by_family, lazy].iter().flatten().map(|m| verdict(m.1)).collect();
                let agreed = if verdicts.windows(2).all(|w| w[0] == w[1]) { "" } else { " DISAGREE" };
                println!(
                    "| {kind} | {n} | {seed} | {} | {} | {} | {} | {ratio} | {}{agreed} |",
                    cell(by_family, args),
                    cell(bare, args),
                    cell(lazy, args),
                    cell(eager, args),
                    verdicts.first().copied().unwrap_or("-")
                );
            }
        }
    }
    if !ratios.is_empty() {
        ratios.sort_by(f64::total_cmp);
        println!(
            "csp lazy over the family: median {:.1}x, largest {:.1}x, over {} rooms",
            ratios[ratios.len() / 2],
            ratios[ratios.len() - 1],
            ratios.len()
        );
    }
}

fn models_table(args: &Args) {
    println!("\nShipped csp models with grid globals, median of {} runs:", args.runs);
    println!("| model | solve lazy | solve eager | count --limit 2 lazy | count --limit 2 eager |");
    println!("| --- | --- | --- | --- | --- |");
    let mut models: Vec<PathBuf> = std::fs::read_dir("models/csp")
        .expect("models/csp")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| std::fs::read_to_string(path).is_ok_and(|text| text.contains("grid_")))
        .collect();
    models.sort();
    for model in models {
        let model = model.to_str().expect("utf-8");
        let row: Vec<String> = [
            vec!["solve", model],
            vec!["solve", model, "--engine", "eager"],
            vec!["count", model, "--limit", "2"],
            vec!["count", model, "--limit", "2", "--engine", "eager"],
        ]
        .iter()
        .map(|arguments| cell(time(arguments, args), args))
        .collect();
        println!("| {model} | {} |", row.join(" | "));
    }
}

fn main() {
    let list: Vec<String> = std::env::args().skip(1).collect();
    let args = parse_args(&list);
    let wants = |table: &str| args.tables.iter().any(|t| t == table);
    let dir = tempfile::tempdir().expect("a scratch directory");
    if wants("cave") {
        cave_table(&args);
    }
    if wants("rooms") {
        rooms_table(&args, dir.path());
    }
    if wants("models") {
        models_table(&args);
    }
}

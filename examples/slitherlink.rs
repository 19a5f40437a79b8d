//! Makes a slitherlink with exactly one solution and prints it as a somaria
//! csp model: the genre's model (`models/genres/slither.toml`) with the
//! puzzle's parameters.
//!
//! ```text
//! cargo run --release --example slitherlink -- N SEED [--engine NAME] [--budget SECONDS] > slitherlink.toml
//! cargo run --release --example slitherlink -- 10 7 > models/csp/slitherlink.toml
//! ```
//!
//! A random loop (the boundary of a random region of cells grown from one
//! cell, with no holes and never touching itself at a corner), every clue,
//! then clues dropped in random order while a count with a limit of 2 still
//! finds exactly one solution. Progress goes to stderr.
//!
//! Without `--budget` the output depends on the arguments alone, and every
//! count runs to the end; on a large grid a dropped clue can leave a count
//! that takes many minutes. `--budget SECONDS` keeps every clue whose count
//! takes longer (so the puzzle stays quick to prove unique), which makes the
//! output depend on the machine's speed and load. A budgeted count is the
//! library's (`somaria::generate::check::budgeted`): a worker thread under a
//! stop token, with no child process. `somaria generate
//! models/csp/slitherlink.toml` makes such puzzles from the model's design
//! table; this example keeps its own loop (the boundary of a grown region)
//! for comparison.

use std::time::Duration;

use somaria::generate::check::{Verdict, budgeted};
use somaria::genres;
use somaria::model::Source;
use somaria::puzzles::{self, CountOptions};
use somaria::rng::SplitMix64;
use somaria::solver::SolverConfig;

/// The share of the cells the region tries to cover: about half keeps the
/// loop long and winding.
const FILL: f64 = 0.5;

/// Growth attempts before settling for a smaller region; a region walled in
/// by its own corner rule stops growing long before this.
const GROWTH_TRIES: usize = 200_000;

fn usage() -> ! {
    eprintln!("usage: slitherlink N SEED [--engine NAME] [--budget SECONDS]");
    std::process::exit(2);
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut option = |name: &str| -> Option<String> {
        let at = args.iter().position(|a| a == name)?;
        let value = args.get(at + 1).cloned().unwrap_or_else(|| usage());
        args.drain(at..at + 2);
        Some(value)
    };
    let engine = option("--engine");
    let budget = option("--budget").map(|b| match b.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds.is_finite() => Duration::from_secs_f64(seconds),
        _ => usage(),
    });
    if args.len() != 2 {
        usage();
    }
    let n: usize = args[0].parse().unwrap_or_else(|_| usage());
    let seed: u64 = args[1].parse().unwrap_or_else(|_| usage());
    if n < 2 {
        eprintln!("N must be at least 2");
        std::process::exit(2);
    }

    let mut arguments = format!("{n} {seed}");
    if let Some(engine) = &engine {
        arguments += &format!(" --engine {engine}");
    }
    if let Some(budget) = budget {
        arguments += &format!(" --budget {}", budget.as_secs_f64());
    }
    let mut rng = SplitMix64::new(seed);
    let inside = region(n, &mut rng);
    let mut clues = clues_of(n, &inside);
    let unique = |clues: &[Vec<i64>]| -> bool {
        let text = model(n, &arguments, clues);
        match budget {
            None => count(&text, engine.clone()) == 1,
            Some(budget) => {
                let verdict =
                    budgeted("slitherlink.toml", &text, engine.as_deref(), &SolverConfig::default(), Some(budget));
                verdict.unwrap_or_else(|e| fail(&format!("count failed: {e}"))) == Verdict::Unique
            }
        }
    };
    if !unique(&clues) {
        fail("every clue given, yet the count is not 1");
    }
    let mut cells: Vec<(usize, usize)> = (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).collect();
    rng.shuffle(&mut cells);
    for (done, &(r, c)) in cells.iter().enumerate() {
        let keep = clues[r][c];
        clues[r][c] = -1;
        if !unique(&clues) {
            clues[r][c] = keep;
        }
        if (done + 1) % n == 0 {
            eprintln!("{} of {} cells tried", done + 1, cells.len());
        }
    }
    let left = clues.iter().flatten().filter(|&&v| v >= 0).count();
    eprintln!("clues left: {left}, cells inside the loop: {}", inside.iter().flatten().filter(|&&v| v).count());
    print!("{}", model(n, &arguments, &clues));
}

/// The model's count with a limit of 2: 1 means unique.
fn count(text: &str, engine: Option<String>) -> u64 {
    let puzzle = match puzzles::load(&Source::from_text("slitherlink.toml", text.to_string())) {
        Ok(puzzle) => puzzle,
        Err(e) => fail(&format!("the generated model does not load: {e}")),
    };
    match puzzle.count(&CountOptions { engine, limit: Some(2), ..Default::default() }) {
        Ok(report) => report.count,
        Err(e) => fail(&format!("count failed: {e}")),
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}

/// A random region of cells whose boundary is one loop: grown a cell at a
/// time, refusing cells that would leave the outside in two pieces (a hole
/// is a second loop) or make two cells meet only at a corner (the loop
/// would touch itself there).
fn region(n: usize, rng: &mut SplitMix64) -> Vec<Vec<bool>> {
    let mut inside = vec![vec![false; n]; n];
    let mut members = vec![(rng.below(n), rng.below(n))];
    inside[members[0].0][members[0].1] = true;
    let target = (n as f64 * n as f64 * FILL) as usize;
    let mut tries = 0;
    while members.len() < target && tries < GROWTH_TRIES {
        tries += 1;
        let (r, c) = members[rng.below(members.len())];
        let (dr, dc) = [(1, 0), (-1, 0), (0, 1), (0, -1)][rng.below(4)];
        let (nr, nc) = (r as i64 + dr, c as i64 + dc);
        if nr < 0 || nc < 0 || nr >= n as i64 || nc >= n as i64 || inside[nr as usize][nc as usize] {
            continue;
        }
        let cell = (nr as usize, nc as usize);
        inside[cell.0][cell.1] = true;
        if keeps_one_loop(&inside, cell) {
            members.push(cell);
        } else {
            inside[cell.0][cell.1] = false;
        }
    }
    inside
}

/// Whether the region, just grown by `cell`, still has one loop as its
/// boundary.
fn keeps_one_loop(inside: &[Vec<bool>], (r, c): (usize, usize)) -> bool {
    let n = inside.len() as i64;
    // Cells beyond the grid are outside, so the border ring joins the
    // outside cells that touch the edge.
    let at = |i: i64, j: i64| i >= 0 && j >= 0 && i < n && j < n && inside[i as usize][j as usize];
    let (r, c) = (r as i64, c as i64);
    for top in [r - 1, r] {
        for left in [c - 1, c] {
            let block = [at(top, left), at(top, left + 1), at(top + 1, left), at(top + 1, left + 1)];
            if block == [true, false, false, true] || block == [false, true, true, false] {
                return false;
            }
        }
    }
    let side = (n + 2) as usize;
    let index = |i: i64, j: i64| (i + 1) as usize * side + (j + 1) as usize;
    let outside = (-1..=n).flat_map(|i| (-1..=n).map(move |j| (i, j))).filter(|&(i, j)| !at(i, j)).count();
    let mut seen = vec![false; side * side];
    let mut stack = vec![(-1i64, -1i64)];
    seen[index(-1, -1)] = true;
    let mut reached = 1;
    while let Some((i, j)) = stack.pop() {
        for (qi, qj) in [(i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)] {
            if qi < -1 || qj < -1 || qi > n || qj > n || at(qi, qj) || seen[index(qi, qj)] {
                continue;
            }
            seen[index(qi, qj)] = true;
            reached += 1;
            stack.push((qi, qj));
        }
    }
    reached == outside
}

/// Each cell's clue: how many of its sides part it from a cell on the
/// other side of the loop.
fn clues_of(n: usize, inside: &[Vec<bool>]) -> Vec<Vec<i64>> {
    let at = |i: i64, j: i64| i >= 0 && j >= 0 && i < n as i64 && j < n as i64 && inside[i as usize][j as usize];
    (0..n as i64)
        .map(|r| {
            (0..n as i64)
                .map(|c| {
                    let here = at(r, c);
                    [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)].iter().filter(|&&(i, j)| at(i, j) != here).count()
                        as i64
                })
                .collect()
        })
        .collect()
}

/// The model text: the genre's model with this puzzle's parameters (the
/// library writes it; no rule is written here), under a header naming the
/// generator's `arguments`, so that the file says how to make it again.
fn model(n: usize, arguments: &str, clues: &[Vec<i64>]) -> String {
    let origin = format!(
        "# Slitherlink, {n} × {n}, made by `cargo run --release --example slitherlink -- {arguments}`\n\
         # (a random loop, every clue, then clues dropped while somaria counts one solution).\n"
    );
    let mut params = toml::Table::new();
    params.insert("rows".into(), (n as i64).into());
    params.insert("cols".into(), (n as i64).into());
    let rows = clues.iter().map(|row| toml::Value::Array(row.iter().map(|&v| v.into()).collect()));
    params.insert("clue".into(), toml::Value::Array(rows.collect()));
    params.insert("full".into(), false.into());
    let puzzle = genres::instance_of("slither", &params).unwrap_or_else(|e| fail(&e));
    let source = genres::model_of(puzzle.as_ref()).unwrap_or_else(|e| fail(&e.to_string()));
    origin + source.text()
}

//! A slitherlink with exactly one solution: a random loop (the boundary of
//! a random region of cells grown from one cell, with no holes and never
//! touching itself at a corner), every clue, then clues dropped in random
//! order while a count with a limit of 2 still finds exactly one solution.
//!
//! Without a budget the puzzle depends on the options alone, and every
//! count runs to the end; on a large grid a dropped clue can leave a count
//! that takes many minutes. A budget keeps every clue whose count takes
//! longer (so the puzzle stays quick to prove unique), which makes the
//! puzzle depend on the machine's speed and load. A budgeted count is
//! [`budgeted`]: a worker thread under a stop token, with no child process.
//! `somaria generate models/csp/slitherlink.toml` makes such puzzles from
//! the model's design table; this generator keeps its own loop (the
//! boundary of a grown region) for comparison.

use std::time::Duration;

use super::{MakeError, load, parse_or_usage, take_option};
use crate::generate::check::{Verdict, budgeted};
use crate::puzzles::CountOptions;
use crate::rng::SplitMix64;
use crate::solver::SolverConfig;

/// The share of the cells the region tries to cover: about half keeps the
/// loop long and winding.
const FILL: f64 = 0.5;

/// Growth attempts before settling for a smaller region; a region walled in
/// by its own corner rule stops growing long before this.
const GROWTH_TRIES: usize = 200_000;

/// The arguments the example reads, in [`Options::from_args`].
pub const USAGE: &str = "usage: slitherlink N SEED [--engine NAME] [--budget SECONDS]";

/// What to make.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The grid is `size` × `size` cells, at least 2.
    pub size: usize,
    /// The seed of the random loop and of the order clues are dropped in.
    pub seed: u64,
    /// The engine of the counts (the family's default when `None`).
    pub engine: Option<String>,
    /// The longest one count may take; a clue whose count takes longer is
    /// kept.
    pub budget: Option<Duration>,
}

impl Options {
    /// Reads `N SEED [--engine NAME] [--budget SECONDS]`; an error is the
    /// line to show.
    pub fn from_args(args: &[String]) -> Result<Options, String> {
        let mut args = args.to_vec();
        let engine = take_option(&mut args, "--engine", USAGE)?;
        let budget = match take_option(&mut args, "--budget", USAGE)? {
            None => None,
            Some(b) => match b.parse::<f64>() {
                Ok(seconds) if seconds > 0.0 && seconds.is_finite() => Some(Duration::from_secs_f64(seconds)),
                _ => return Err(USAGE.to_string()),
            },
        };
        let [size, seed] = &args[..] else { return Err(USAGE.to_string()) };
        let (size, seed) = (parse_or_usage(size, USAGE)?, parse_or_usage(seed, USAGE)?);
        if size < 2 {
            return Err("N must be at least 2".to_string());
        }
        Ok(Options { size, seed, engine, budget })
    }

    /// The arguments as the example takes them, for the model's header.
    fn arguments(&self) -> String {
        let mut arguments = format!("{} {}", self.size, self.seed);
        if let Some(engine) = &self.engine {
            arguments += &format!(" --engine {engine}");
        }
        if let Some(budget) = self.budget {
            arguments += &format!(" --budget {}", budget.as_secs_f64());
        }
        arguments
    }
}

/// The model of a slitherlink with exactly one solution; `progress` is told
/// how far the clues have been tried.
pub fn make(options: &Options, progress: &mut dyn FnMut(&str)) -> Result<String, MakeError> {
    let (n, arguments) = (options.size, options.arguments());
    let mut rng = SplitMix64::new(options.seed);
    let inside = region(n, &mut rng);
    let mut clues = clues_of(n, &inside);
    let unique = |clues: &[Vec<i64>]| -> Result<bool, MakeError> {
        let text = model(n, &arguments, clues)?;
        let engine = options.engine.as_deref();
        match options.budget {
            None => Ok(count(text, engine)? == 1),
            Some(budget) => {
                let verdict = budgeted("slitherlink.toml", &text, engine, &SolverConfig::default(), Some(budget));
                Ok(verdict.map_err(|e| MakeError::Failed(format!("count failed: {e}")))? == Verdict::Unique)
            }
        }
    };
    if !unique(&clues)? {
        return Err(MakeError::Failed("every clue given, yet the count is not 1".to_string()));
    }
    let mut cells: Vec<(usize, usize)> = (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).collect();
    rng.shuffle(&mut cells);
    for (done, &(r, c)) in cells.iter().enumerate() {
        let keep = clues[r][c];
        clues[r][c] = -1;
        if !unique(&clues)? {
            clues[r][c] = keep;
        }
        if (done + 1) % n == 0 {
            progress(&format!("{} of {} cells tried", done + 1, cells.len()));
        }
    }
    let left = clues.iter().flatten().filter(|&&v| v >= 0).count();
    let area = inside.iter().flatten().filter(|&&v| v).count();
    progress(&format!("clues left: {left}, cells inside the loop: {area}"));
    model(n, &arguments, &clues)
}

/// The model's count with a limit of 2: 1 means unique.
fn count(text: String, engine: Option<&str>) -> Result<u64, MakeError> {
    let puzzle = load("slitherlink.toml", text)?;
    let options = CountOptions { engine: engine.map(str::to_string), limit: Some(2), ..Default::default() };
    match puzzle.count(&options) {
        Ok(report) => Ok(report.count),
        Err(e) => Err(MakeError::Failed(format!("count failed: {e}"))),
    }
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

/// The model text: the genre's model (`models/genres/slither.toml`) with
/// these clues; `arguments` are the generator's, named in the header so
/// that the file says how to make it again.
fn model(n: usize, arguments: &str, clues: &[Vec<i64>]) -> Result<String, MakeError> {
    let origin = format!(
        "# Slitherlink, {n} × {n}: draw one closed loop along the grid lines, never\n\
         # crossing or touching itself, so that each number tells how many of the four\n\
         # sides of its cell the loop runs along. Made by\n\
         # `cargo run --release --example slitherlink -- {arguments}` (a random loop,\n\
         # every clue, then clues dropped while somaria counts one solution)."
    );
    super::genre_model("slither", clues, &[("full", false.into())], &origin)
}

//! Makes a nurikabe with exactly one solution and prints it as a somaria csp
//! model (the layout of `models/csp/nurikabe.toml`).
//!
//! ```text
//! cargo run --release --example nurikabe -- ROWS COLS SEED [--max-island N] [--repairs N] [--restarts N] > nurikabe.toml
//! cargo run --release --example nurikabe -- 10 10 2 --max-island 6 > nurikabe.toml
//! ```
//!
//! A random valid solution first: islands grown at random cells, kept apart
//! from each other and leaving the sea one piece, then land dropped into
//! every 2x2 pool that is left. One number per island, at a random cell of
//! it. Then somaria looks for a solution with another shading; while there
//! is one, the intended solution is changed at a cell where the two differ
//! (up to `--repairs` times, default 40, before starting over with a new
//! solution, up to `--restarts` times, default 50). Islands have at most
//! `--max-island` cells when grown (default 5; filling a pool may add two
//! more). Nothing here knows how somaria encodes the puzzle. The output
//! depends on the arguments alone; progress goes to stderr.

use std::collections::BTreeSet;

use serde_json::Value;
use somaria::model::Source;
use somaria::puzzles::{self, SolveOptions, Status};
use somaria::rng::SplitMix64;

type Cell = (usize, usize);

/// Fresh random solutions tried before giving up on a 2x2 pool that no cell
/// can fill.
const SOLUTION_TRIES: usize = 1000;

fn usage() -> ! {
    eprintln!("usage: nurikabe ROWS COLS SEED [--max-island N] [--repairs N] [--restarts N]");
    std::process::exit(2);
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut option = |name: &str, default: usize| -> usize {
        let Some(at) = args.iter().position(|a| a == name) else { return default };
        let value = args.get(at + 1).and_then(|v| v.parse().ok()).unwrap_or_else(|| usage());
        args.drain(at..at + 2);
        value
    };
    let max_island = option("--max-island", 5);
    let repairs = option("--repairs", 40);
    let restarts = option("--restarts", 50);
    if args.len() != 3 {
        usage();
    }
    let rows: usize = args[0].parse().unwrap_or_else(|_| usage());
    let cols: usize = args[1].parse().unwrap_or_else(|_| usage());
    let seed: u64 = args[2].parse().unwrap_or_else(|_| usage());
    if rows < 2 || cols < 2 || max_island == 0 {
        eprintln!("ROWS and COLS must be at least 2 and --max-island at least 1");
        std::process::exit(2);
    }
    let arguments = format!("{rows} {cols} {seed} --max-island {max_island}");

    let mut rng = SplitMix64::new(seed);
    for start in 0..restarts {
        let mut sol = solution(rows, cols, &mut rng, max_island);
        // clues[k - 1] is the numbered cell of island k.
        let mut clues: Vec<Cell> = (1..=sol.sizes.len()).map(|k| rng.choose(&sol.cells_of(k))).collect();
        for step in 0..repairs {
            let text = model_text(rows, cols, &clue_list(&sol, &clues), &arguments);
            let Some(other) = second_solution(&text, &sol) else {
                eprintln!("start {start}, step {step}: {} islands, unique", sol.sizes.len());
                print!("{text}");
                return;
            };
            if !repair(&mut sol, &mut clues, &other, &mut rng) {
                eprintln!("start {start}, step {step}: no repair fits");
                break;
            }
        }
    }
    eprintln!("still not unique; try another seed");
    std::process::exit(1);
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}

/// An intended solution: each cell's island (1-based) or 0 for the sea, and
/// each island's size.
struct Shading {
    grid: Vec<Vec<usize>>,
    sizes: Vec<usize>,
}

impl Shading {
    fn rows(&self) -> usize {
        self.grid.len()
    }

    fn cols(&self) -> usize {
        self.grid[0].len()
    }

    fn neighbours(&self, (r, c): Cell) -> impl Iterator<Item = Cell> + use<> {
        let (rows, cols) = (self.rows(), self.cols());
        [(0i64, 1i64), (1, 0), (0, -1), (-1, 0)].into_iter().filter_map(move |(dr, dc)| {
            let (nr, nc) = (r as i64 + dr, c as i64 + dc);
            (nr >= 0 && nc >= 0 && (nr as usize) < rows && (nc as usize) < cols).then_some((nr as usize, nc as usize))
        })
    }

    fn cells(&self) -> impl Iterator<Item = Cell> + use<> {
        let cols = self.cols();
        (0..self.rows()).flat_map(move |r| (0..cols).map(move |c| (r, c)))
    }

    fn cells_of(&self, island: usize) -> Vec<Cell> {
        self.cells().filter(|&(r, c)| self.grid[r][c] == island).collect()
    }

    /// Whether the cells holding `value` are one piece (true when there are
    /// none).
    fn connected(&self, value: usize) -> bool {
        let cells = self.cells_of(value);
        let Some(&first) = cells.first() else { return true };
        let mut seen = BTreeSet::from([first]);
        let mut todo = vec![first];
        while let Some(cell) = todo.pop() {
            for (nr, nc) in self.neighbours(cell) {
                if self.grid[nr][nc] == value && seen.insert((nr, nc)) {
                    todo.push((nr, nc));
                }
            }
        }
        seen.len() == cells.len()
    }

    fn sea_connected(&self) -> bool {
        self.cells().any(|(r, c)| self.grid[r][c] == 0) && self.connected(0)
    }

    fn islands_touching(&self, cell: Cell) -> BTreeSet<usize> {
        self.neighbours(cell).map(|(r, c)| self.grid[r][c]).filter(|&k| k != 0).collect()
    }

    /// Makes sea `cell` land of `island` (a new island when `None`) if that
    /// keeps islands apart and the sea one piece.
    fn try_land(&mut self, (r, c): Cell, island: Option<usize>) -> bool {
        let touching = self.islands_touching((r, c));
        let island = match island {
            None if touching.is_empty() => {
                self.sizes.push(0);
                self.sizes.len()
            }
            Some(k) if touching.len() == 1 && touching.contains(&k) => k,
            _ => return false,
        };
        self.grid[r][c] = island;
        if !self.sea_connected() {
            self.grid[r][c] = 0;
            if self.sizes[island - 1] == 0 {
                self.sizes.pop();
            }
            return false;
        }
        self.sizes[island - 1] += 1;
        true
    }

    /// The top left corners of the 2x2 blocks that are all sea.
    fn pools(&self) -> Vec<Cell> {
        (0..self.rows() - 1)
            .flat_map(|r| (0..self.cols() - 1).map(move |c| (r, c)))
            .filter(|&(r, c)| self.is_pool((r, c)))
            .collect()
    }

    fn is_pool(&self, (r, c): Cell) -> bool {
        [(0, 0), (0, 1), (1, 0), (1, 1)].iter().all(|&(a, b)| self.grid[r + a][c + b] == 0)
    }

    /// Drops land into the pool at `corner`: a cell joins the one island it
    /// touches, or starts a new one.
    fn fill_pool(&mut self, (r, c): Cell, rng: &mut SplitMix64, max_island: usize) -> bool {
        let mut block = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)];
        rng.shuffle(&mut block);
        for cell in block {
            let touching = self.islands_touching(cell);
            if touching.len() > 1 {
                continue;
            }
            let island = touching.first().copied();
            if island.is_some_and(|k| self.sizes[k - 1] >= max_island + 2) {
                continue;
            }
            if self.try_land(cell, island) {
                return true;
            }
        }
        false
    }
}

fn solution(rows: usize, cols: usize, rng: &mut SplitMix64, max_island: usize) -> Shading {
    for _ in 0..SOLUTION_TRIES {
        let mut sol = Shading { grid: vec![vec![0; cols]; rows], sizes: Vec::new() };
        let mut cells: Vec<Cell> = sol.cells().collect();
        rng.shuffle(&mut cells);
        // Grow islands from random seeds to random sizes.
        for (r, c) in cells {
            if sol.grid[r][c] != 0 || !sol.try_land((r, c), None) {
                continue;
            }
            let (island, want) = (sol.sizes.len(), 1 + rng.below(max_island));
            for _ in 0..4 * want {
                if sol.sizes[island - 1] >= want {
                    break;
                }
                let edge: Vec<Cell> = sol
                    .cells_of(island)
                    .into_iter()
                    .flat_map(|cell| sol.neighbours(cell))
                    .filter(|&(r, c)| sol.grid[r][c] == 0)
                    .collect();
                if !edge.is_empty() {
                    let cell = rng.choose(&edge);
                    sol.try_land(cell, Some(island));
                }
            }
        }
        // Fill the pools that are left: join a neighbouring island or start one.
        loop {
            let mut left = sol.pools();
            if left.is_empty() {
                return sol;
            }
            rng.shuffle(&mut left);
            if !left.into_iter().any(|corner| sol.fill_pool(corner, rng, max_island)) {
                break;
            }
        }
    }
    fail("no valid solution found");
}

/// Changes the intended solution at one cell where `other` (a second
/// solution's "is sea" grid) differs, keeping it a valid solution; false
/// when no such change is valid.
fn repair(sol: &mut Shading, clues: &mut Vec<Cell>, other: &[Vec<bool>], rng: &mut SplitMix64) -> bool {
    let mut differ: Vec<Cell> = sol.cells().filter(|&(r, c)| (sol.grid[r][c] == 0) != other[r][c]).collect();
    rng.shuffle(&mut differ);
    for (r, c) in differ {
        let k = sol.grid[r][c];
        if k == 0 {
            // Sea here, land there: make it an island of its own (a new
            // clue 1). Growing an island instead tends to give it more
            // shapes to choose from, not fewer.
            if sol.try_land((r, c), None) {
                clues.push((r, c));
                return true;
            }
            continue;
        }
        // Land here, sea there: flood it, if that leaves the island one
        // piece, the sea one piece and no pool.
        sol.grid[r][c] = 0;
        let pool = (r.saturating_sub(1)..r.min(sol.rows() - 2) + 1)
            .any(|pr| (c.saturating_sub(1)..c.min(sol.cols() - 2) + 1).any(|pc| sol.is_pool((pr, pc))));
        if !sol.sea_connected() || !sol.connected(k) || pool {
            sol.grid[r][c] = k;
            continue;
        }
        sol.sizes[k - 1] -= 1;
        if sol.sizes[k - 1] == 0 {
            // The island is gone: renumber the last one into its place.
            let last = sol.sizes.len();
            for row in &mut sol.grid {
                for value in row.iter_mut().filter(|v| **v == last) {
                    *value = k;
                }
            }
            sol.sizes[k - 1] = sol.sizes[last - 1];
            clues[k - 1] = clues[last - 1];
            sol.sizes.pop();
            clues.pop();
        } else if clues[k - 1] == (r, c) {
            clues[k - 1] = rng.choose(&sol.cells_of(k));
        }
        return true;
    }
    false
}

/// The clues as the model lists them: 1-based row, column and size, in
/// reading order.
fn clue_list(sol: &Shading, clues: &[Cell]) -> Vec<(usize, usize, usize)> {
    let mut list: Vec<_> = clues.iter().enumerate().map(|(i, &(r, c))| (r + 1, c + 1, sol.sizes[i])).collect();
    list.sort();
    list
}

/// A solution of the puzzle in `text` with another shading than `sol`'s,
/// as a grid of "is sea", or `None`.
fn second_solution(text: &str, sol: &Shading) -> Option<Vec<Vec<bool>>> {
    let same: Vec<String> = sol
        .cells()
        .map(|(r, c)| format!("island[{}, {}] {} 0", r + 1, c + 1, if sol.grid[r][c] == 0 { "=" } else { "!=" }))
        .collect();
    let probe =
        format!("{text}\n[[constraint]]\nname = \"another shading\"\nexpr = 'not forall([{}])'\n", same.join(", "));
    let puzzle = puzzles::load(&Source::from_text("nurikabe-probe.toml", probe))
        .unwrap_or_else(|e| fail(&format!("the generated model does not load: {e}")));
    let report = puzzle.solve(&SolveOptions::default()).unwrap_or_else(|e| fail(&format!("solve failed: {e}")));
    if report.status != Status::Solved {
        return None;
    }
    let json = report.solution.map(|s| s.json).unwrap_or(Value::Null);
    let grid = json["island"].as_array().unwrap_or_else(|| fail("the solution has no island grid"));
    Some(grid.iter().map(|row| row.as_array().into_iter().flatten().map(|v| v.as_i64() == Some(0)).collect()).collect())
}

fn model_text(rows: usize, cols: usize, clues: &[(usize, usize, usize)], arguments: &str) -> String {
    let picture: Vec<String> = (1..=rows)
        .map(|r| {
            let line: Vec<String> = (1..=cols)
                .map(|c| clues.iter().find(|&&(cr, cc, _)| (cr, cc) == (r, c)).map_or(".".into(), |k| k.2.to_string()))
                .collect();
            format!("#   {}", line.join(" "))
        })
        .collect();
    let clue_rows: Vec<String> = clues.iter().map(|(r, c, n)| format!("  [{r}, {c}, {n}]")).collect();
    let (picture, clue_rows, islands) = (picture.join("\n"), clue_rows.join(",\n"), clues.len());
    format!(
        r#"# A nurikabe (generated by `cargo run --release --example nurikabe -- {arguments}`,
# checked unique by somaria; the generator follows the second solutions
# somaria finds, so another version may make another puzzle):
#
{picture}
#
# Shade some cells (the sea) so that every group of unshaded cells
# connected by sides (an island) holds exactly one number, and as many
# cells as that number; the sea is one piece; and no 2x2 block is all sea.
#
# The model gives each cell the island it belongs to, numbered like the
# clues, or 0 for the sea. Cells next to each other that are both land
# share an island, so an island's number labels a whole group of land;
# grid_connected makes each island, and the sea, one piece.
kind = "csp"
title = "Nurikabe {rows}x{cols}"
show = ["island"]

[params]
rows = {rows}
cols = {cols}
islands = {islands}
# One clue per island: its row, its column and its size, in reading order.
clues = [
{clue_rows},
]

[vars]
island = {{ index = ["1..rows", "1..cols"], domain = "0..islands" }}

[[constraint]]
name = "each number lies in its own island"
expr = 'forall(k in 1..islands)(island[clues[k, 1], clues[k, 2]] = k)'

[[constraint]]
name = "land next to land is the same island"
expr = '''
forall(i in 1..rows, j in 1..cols, di in 0..1 where i + di <= rows /\ j + 1 - di <= cols)(
  island[i, j] != 0 /\ island[i + di, j + 1 - di] != 0 -> island[i, j] = island[i + di, j + 1 - di])'''

[[constraint]]
name = "each island is as big as its number"
expr = '''
forall(k in 1..islands)(
  sum(i in 1..rows, j in 1..cols where abs(i - clues[k, 1]) + abs(j - clues[k, 2]) < clues[k, 3])(
    bool2int(island[i, j] = k)) = clues[k, 3])'''

# Cells out of an island's reach (see the last constraint) are written as
# false rather than "island = k": a fixed cell is no node of the global's
# graph, which makes the eager engine's ranks a third of the size.
[[constraint]]
name = "each island is one piece"
expr = '''
forall(k in 1..islands)(grid_connected(array2d(1..rows, 1..cols, [
  if abs(i - clues[k, 1]) + abs(j - clues[k, 2]) < clues[k, 3] then island[i, j] = k else false endif
  | i in 1..rows, j in 1..cols])))'''

[[constraint]]
name = "the sea is one piece"
expr = 'grid_connected(array2d(1..rows, 1..cols, [island[i, j] = 0 | i in 1..rows, j in 1..cols]))'

[[constraint]]
name = "no 2x2 pool"
expr = 'forall(i in 1..rows - 1, j in 1..cols - 1)(exists(di, dj in 0..1)(island[i + di, j + dj] != 0))'

# Implied, not needed for the answer: an island of n cells reaches no
# cell n or more steps from its number. Stating it takes most values off
# most cells before the solver starts: without it, proving the puzzle
# unique took 106 SAT calls and 7.8 s of solving instead of 33 and 0.16 s
# (before the sums above were cut to the reach as well).
[[constraint]]
name = "islands stay within reach of their number"
expr = 'forall(i in 1..rows, j in 1..cols, k in 1..islands where abs(i - clues[k, 1]) + abs(j - clues[k, 2]) >= clues[k, 3])(island[i, j] != k)'
"#
    )
}

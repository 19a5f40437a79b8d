//! Makes a numberlink with exactly one solution and prints it as a somaria
//! csp model: the genre's model (`models/genres/numlin.toml`, with `fill`
//! set) with the puzzle's parameters.
//!
//! ```text
//! cargo run --release --example numberlink -- ROWS COLS SEED [--longest N] > numberlink.toml
//! cargo run --release --example numberlink -- 9 9 1 > numberlink.toml
//! ```
//!
//! The variant: every cell lies on exactly one line (as in Flow Free and
//! most modern numberlinks). A random solution first: every cell a line of
//! its own, then lines joined end to end at random (none longer than
//! `--longest` cells, default unlimited), never so that a line runs
//! alongside itself (a line that touches itself could cut the corner, so it
//! would leave the puzzle less determined). Then somaria looks for a
//! solution that puts some cell on another line; while there is one, a
//! line that differs is split in two at a cell where it differs, which adds
//! a pair of numbers (a puzzle of dominoes is unique, so this ends).
//! Nothing here knows how somaria encodes the puzzle. The output depends on
//! the arguments alone; progress goes to stderr.

use std::collections::BTreeMap;

use serde_json::Value;
use somaria::genres;
use somaria::model::Source;
use somaria::puzzles::{self, SolveOptions, Status};
use somaria::rng::SplitMix64;

type Cell = (usize, usize);

/// Fresh random tilings tried before giving up on a cell no line can take.
const TILING_TRIES: usize = 1000;

fn usage() -> ! {
    eprintln!("usage: numberlink ROWS COLS SEED [--longest N]");
    std::process::exit(2);
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut longest = None;
    if let Some(at) = args.iter().position(|a| a == "--longest") {
        longest = Some(args.get(at + 1).and_then(|v| v.parse::<usize>().ok()).unwrap_or_else(|| usage()));
        args.drain(at..at + 2);
    }
    if args.len() != 3 {
        usage();
    }
    let rows: usize = args[0].parse().unwrap_or_else(|_| usage());
    let cols: usize = args[1].parse().unwrap_or_else(|_| usage());
    let seed: u64 = args[2].parse().unwrap_or_else(|_| usage());
    if rows * cols < 2 || longest.is_some_and(|n| n < 2) {
        eprintln!("the grid needs at least 2 cells and --longest must be at least 2");
        std::process::exit(2);
    }
    let arguments = match longest {
        Some(n) => format!("{rows} {cols} {seed} --longest {n}"),
        None => format!("{rows} {cols} {seed}"),
    };
    let grid = Grid { rows, cols };

    let mut rng = SplitMix64::new(seed);
    let mut lines = grid.random_lines(&mut rng, longest.unwrap_or(usize::MAX));
    for step in 0..rows * cols {
        let ends = ends_of(&lines);
        let text = model_text(grid, &ends, &arguments);
        let number = grid.numbers(&lines, &ends);
        let Some(other) = second_solution(&text, grid, &number) else {
            eprintln!("step {step}: {} lines, unique", lines.len());
            print!("{text}");
            return;
        };
        // Split a line where the other solution differs, between two cells
        // that each keep a neighbour on their side (no line of one cell).
        let mut differ: Vec<Cell> = grid.cells().filter(|&(r, c)| other[r][c] != number[r][c]).collect();
        rng.shuffle(&mut differ);
        let split = differ.into_iter().find_map(|cell| {
            let at = lines.iter().position(|line| line.contains(&cell))?;
            let i = lines[at].iter().position(|&x| x == cell)?;
            let cuts: Vec<usize> = [i, i + 1].into_iter().filter(|&j| 2 <= j && j + 2 <= lines[at].len()).collect();
            (!cuts.is_empty()).then(|| (at, rng.choose(&cuts)))
        });
        let Some((at, cut)) = split else {
            eprintln!("no line can be split; try another seed");
            std::process::exit(1);
        };
        let mut line = lines.remove(at);
        let tail = line.split_off(cut);
        lines.push(line);
        lines.push(tail);
        eprintln!("step {step}: {} lines after a split", lines.len());
    }
    eprintln!("still not unique");
    std::process::exit(1);
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}

#[derive(Clone, Copy)]
struct Grid {
    rows: usize,
    cols: usize,
}

impl Grid {
    fn neighbours(self, (r, c): Cell) -> Vec<Cell> {
        [(0i64, 1i64), (1, 0), (0, -1), (-1, 0)]
            .into_iter()
            .filter_map(|(dr, dc)| {
                let (nr, nc) = (r as i64 + dr, c as i64 + dc);
                (nr >= 0 && nc >= 0 && (nr as usize) < self.rows && (nc as usize) < self.cols)
                    .then_some((nr as usize, nc as usize))
            })
            .collect()
    }

    fn cells(self) -> impl Iterator<Item = Cell> {
        (0..self.rows).flat_map(move |r| (0..self.cols).map(move |c| (r, c)))
    }

    /// Whether two cells of `line` that are not consecutive are neighbours.
    fn touches_itself(self, line: &[Cell]) -> bool {
        let at: BTreeMap<Cell, usize> = line.iter().enumerate().map(|(i, &cell)| (cell, i)).collect();
        line.iter()
            .enumerate()
            .any(|(i, &cell)| self.neighbours(cell).iter().any(|n| at.get(n).is_some_and(|&j| j.abs_diff(i) > 1)))
    }

    /// A random tiling of the grid by lines of at least two cells, none
    /// touching itself except along its own steps.
    fn random_lines(self, rng: &mut SplitMix64, longest: usize) -> Vec<Vec<Cell>> {
        let index = |(r, c): Cell| r * self.cols + c;
        for _ in 0..TILING_TRIES {
            // lines[k] is None once line k has been joined into another.
            let mut lines: Vec<Option<Vec<Cell>>> = self.cells().map(|cell| Some(vec![cell])).collect();
            let mut owner: Vec<usize> = (0..self.rows * self.cols).collect();
            let mut stuck = 0;
            while stuck < 20 * self.rows * self.cols {
                let a = (rng.below(self.rows), rng.below(self.cols));
                let b = rng.choose(&self.neighbours(a));
                let (ka, kb) = (owner[index(a)], owner[index(b)]);
                let (la, lb) = (lines[ka].as_ref().expect("owned"), lines[kb].as_ref().expect("owned"));
                let is_end = |line: &[Cell], cell| line[0] == cell || line[line.len() - 1] == cell;
                if ka == kb || !is_end(la, a) || !is_end(lb, b) || la.len() + lb.len() > longest {
                    stuck += 1;
                    continue;
                }
                let mut joined = la.clone();
                if joined[joined.len() - 1] != a {
                    joined.reverse();
                }
                let mut rest = lb.clone();
                if rest[0] != b {
                    rest.reverse();
                }
                joined.extend(rest);
                if self.touches_itself(&joined) {
                    stuck += 1;
                    continue;
                }
                stuck = 0;
                for &cell in lines[kb].take().expect("owned").iter() {
                    owner[index(cell)] = ka;
                }
                lines[ka] = Some(joined);
            }
            // A cell left alone joins a neighbouring line: at its end, or by
            // cutting that line after the neighbour when the rest keeps two
            // cells.
            let singles: Vec<usize> =
                (0..lines.len()).filter(|&k| lines[k].as_ref().is_some_and(|l| l.len() == 1)).collect();
            for k in singles {
                let cell = lines[k].as_ref().expect("a single")[0];
                let mut around = self.neighbours(cell);
                rng.shuffle(&mut around);
                for n in around {
                    let kn = owner[index(n)];
                    let other = lines[kn].as_mut().expect("owned");
                    if other.len() == 1 {
                        continue;
                    }
                    if other[0] == n {
                        other.reverse();
                    }
                    let i = other.iter().position(|&x| x == n).expect("on its line");
                    if other.len() - i - 1 == 1 {
                        continue;
                    }
                    let rest = other.split_off(i + 1);
                    other.push(cell);
                    owner[index(cell)] = kn;
                    lines[k] = None;
                    if !rest.is_empty() {
                        for &c in &rest {
                            owner[index(c)] = lines.len();
                        }
                        lines.push(Some(rest));
                    }
                    break;
                }
            }
            let lines: Vec<Vec<Cell>> = lines.into_iter().flatten().collect();
            if lines.iter().all(|line| line.len() > 1) {
                return lines;
            }
        }
        fail("no tiling by lines found");
    }

    /// Each cell's number (1-based, the order of `ends`).
    fn numbers(self, lines: &[Vec<Cell>], ends: &[(Cell, Cell)]) -> Vec<Vec<usize>> {
        let mut number = vec![vec![0; self.cols]; self.rows];
        for line in lines {
            let k = 1 + ends.iter().position(|&e| e == end_pair(line)).expect("every line has its ends");
            for &(r, c) in line {
                number[r][c] = k;
            }
        }
        number
    }
}

/// A line's two ends, the first in reading order first.
fn end_pair(line: &[Cell]) -> (Cell, Cell) {
    let (a, b) = (line[0], line[line.len() - 1]);
    (a.min(b), a.max(b))
}

/// The lines' ends in the order the model numbers them.
fn ends_of(lines: &[Vec<Cell>]) -> Vec<(Cell, Cell)> {
    let mut ends: Vec<_> = lines.iter().map(|line| end_pair(line)).collect();
    ends.sort();
    ends
}

/// A solution of the puzzle in `text` that puts some cell on another line
/// than `number` does, as a grid of line numbers, or `None`.
fn second_solution(text: &str, grid: Grid, number: &[Vec<usize>]) -> Option<Vec<Vec<usize>>> {
    let same: Vec<String> =
        grid.cells().map(|(r, c)| format!("line[{}, {}] = {}", r + 1, c + 1, number[r][c])).collect();
    let probe =
        format!("{text}\n[[constraint]]\nname = \"another solution\"\nexpr = 'not forall([{}])'\n", same.join(", "));
    let puzzle = puzzles::load(&Source::from_text("numberlink-probe.toml", probe))
        .unwrap_or_else(|e| fail(&format!("the generated model does not load: {e}")));
    let report = puzzle.solve(&SolveOptions::default()).unwrap_or_else(|e| fail(&format!("solve failed: {e}")));
    if report.status != Status::Solved {
        return None;
    }
    let json = report.solution.map(|s| s.json).unwrap_or(Value::Null);
    let lines = json["line"].as_array().unwrap_or_else(|| fail("the solution has no line grid"));
    Some(
        lines
            .iter()
            .map(|row| row.as_array().into_iter().flatten().map(|v| v.as_u64().unwrap_or(0) as usize).collect())
            .collect(),
    )
}

/// The genre's model with the puzzle's numbers (the k-th pair of ends in
/// order the number k) and every cell on a line; the library writes it, no
/// rule is written here.
fn model_text(grid: Grid, ends: &[(Cell, Cell)], arguments: &str) -> String {
    let (rows, cols) = (grid.rows, grid.cols);
    let mut clue = vec![vec![-1i64; cols]; rows];
    for (k, &(a, b)) in ends.iter().enumerate() {
        clue[a.0][a.1] = k as i64 + 1;
        clue[b.0][b.1] = k as i64 + 1;
    }
    let mut params = toml::Table::new();
    params.insert("rows".into(), (rows as i64).into());
    params.insert("cols".into(), (cols as i64).into());
    let lines = clue.into_iter().map(|row| toml::Value::Array(row.into_iter().map(toml::Value::from).collect()));
    params.insert("clue".into(), toml::Value::Array(lines.collect()));
    params.insert("fill".into(), true.into());
    let puzzle = genres::instance_of("numlin", &params).unwrap_or_else(|e| fail(&e));
    let source = genres::model_of(puzzle.as_ref()).unwrap_or_else(|e| fail(&e.to_string()));
    format!(
        "# A numberlink, every cell on a line (generated by `cargo run --release --example numberlink -- \
         {arguments}`,\n# checked unique by somaria; the generator follows the second solutions somaria finds, so \
         another\n# version may make another puzzle).\n{}",
        source.text()
    )
}

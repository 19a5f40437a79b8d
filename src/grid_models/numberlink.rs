//! A numberlink with exactly one solution, in the variant where every
//! cell lies on exactly one line (as in Flow Free and most modern
//! numberlinks). A random solution first: every cell a line of its own,
//! then lines joined end to end at random (none longer than
//! [`Options::longest`] cells), never so that a line runs alongside itself
//! (a line that touches itself could cut the corner, so it would leave the
//! puzzle less determined). Then somaria looks for a solution that puts
//! some cell on another line; while there is one, a line that differs is
//! split in two at a cell where it differs, which adds a pair of numbers (a
//! puzzle of dominoes is unique, so this ends). Nothing here knows how
//! somaria encodes the puzzle. The puzzle depends on the options alone.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{MakeError, load, parse_or_usage, take_option};
use crate::puzzles::{SolveOptions, Status};
use crate::rng::SplitMix64;

type Cell = (usize, usize);

/// Fresh random tilings tried before giving up on a cell no line can take.
const TILING_TRIES: usize = 1000;

/// The arguments the example reads, in [`Options::from_args`].
pub const USAGE: &str = "usage: numberlink ROWS COLS SEED [--longest N]";

/// What to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Rows of the grid.
    pub rows: usize,
    /// Columns of the grid; the grid has at least 2 cells.
    pub cols: usize,
    /// The seed of the random lines and of the splits.
    pub seed: u64,
    /// The most cells a line is joined to, at least 2 (unlimited when
    /// `None`).
    pub longest: Option<usize>,
}

impl Options {
    /// Reads `ROWS COLS SEED [--longest N]`; an error is the line to show.
    pub fn from_args(args: &[String]) -> Result<Options, String> {
        let mut args = args.to_vec();
        let longest = take_option(&mut args, "--longest", USAGE)?.map(|n| parse_or_usage(&n, USAGE)).transpose()?;
        let [rows, cols, seed] = &args[..] else { return Err(USAGE.to_string()) };
        let (rows, cols, seed): (usize, usize, u64) =
            (parse_or_usage(rows, USAGE)?, parse_or_usage(cols, USAGE)?, parse_or_usage(seed, USAGE)?);
        if rows * cols < 2 || longest.is_some_and(|n| n < 2) {
            return Err("the grid needs at least 2 cells and --longest must be at least 2".to_string());
        }
        Ok(Options { rows, cols, seed, longest })
    }
}

/// The model of a numberlink with exactly one solution; `progress` is told
/// of each split.
pub fn make(options: &Options, progress: &mut dyn FnMut(&str)) -> Result<String, MakeError> {
    let Options { rows, cols, seed, longest } = *options;
    let arguments = match longest {
        Some(n) => format!("{rows} {cols} {seed} --longest {n}"),
        None => format!("{rows} {cols} {seed}"),
    };
    let grid = Grid { rows, cols };
    let mut rng = SplitMix64::new(seed);
    let mut lines = grid.random_lines(&mut rng, longest.unwrap_or(usize::MAX))?;
    for step in 0..rows * cols {
        let ends = ends_of(&lines);
        let text = model_text(grid, &ends, &arguments)?;
        let number = grid.numbers(&lines, &ends);
        let Some(other) = second_solution(&text, grid, &number)? else {
            progress(&format!("step {step}: {} lines, unique", lines.len()));
            return Ok(text);
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
            return Err(MakeError::GaveUp("no line can be split; try another seed".to_string()));
        };
        let mut line = lines.remove(at);
        let tail = line.split_off(cut);
        lines.push(line);
        lines.push(tail);
        progress(&format!("step {step}: {} lines after a split", lines.len()));
    }
    Err(MakeError::GaveUp("still not unique".to_string()))
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
    fn random_lines(self, rng: &mut SplitMix64, longest: usize) -> Result<Vec<Vec<Cell>>, MakeError> {
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
                return Ok(lines);
            }
        }
        Err(MakeError::GaveUp("no tiling by lines found".to_string()))
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
fn second_solution(text: &str, grid: Grid, number: &[Vec<usize>]) -> Result<Option<Vec<Vec<usize>>>, MakeError> {
    let same: Vec<String> =
        grid.cells().map(|(r, c)| format!("line[{}, {}] = {}", r + 1, c + 1, number[r][c])).collect();
    let probe =
        format!("{text}\n[[constraint]]\nname = \"another solution\"\nexpr = 'not forall([{}])'\n", same.join(", "));
    let puzzle = load("numberlink-probe.toml", probe)?;
    let report = puzzle.solve(&SolveOptions::default()).map_err(|e| MakeError::Failed(format!("solve failed: {e}")))?;
    if report.status != Status::Solved {
        return Ok(None);
    }
    let json = report.solution.map(|s| s.json).unwrap_or(Value::Null);
    let Some(lines) = json["line"].as_array() else {
        return Err(MakeError::Failed("the solution has no line grid".to_string()));
    };
    let numbers =
        |row: &Value| row.as_array().into_iter().flatten().map(|v| v.as_u64().unwrap_or(0) as usize).collect();
    Ok(Some(lines.iter().map(numbers).collect()))
}

/// The genre's model (`models/genres/numlin.toml`, with `fill` set: every
/// cell on a line) with the puzzle's numbers, the k-th pair of ends in
/// order the number k; the library writes it, no rule is written here.
fn model_text(grid: Grid, ends: &[(Cell, Cell)], arguments: &str) -> Result<String, MakeError> {
    let mut clue = vec![vec![-1i64; grid.cols]; grid.rows];
    for (k, &(a, b)) in ends.iter().enumerate() {
        clue[a.0][a.1] = k as i64 + 1;
        clue[b.0][b.1] = k as i64 + 1;
    }
    let origin = format!(
        "# A numberlink, every cell on a line (generated by\n\
         # `cargo run --release --example numberlink -- {arguments}`, checked unique by\n\
         # somaria; the generator follows the second solutions somaria finds, so\n\
         # another version may make another puzzle)."
    );
    super::genre_model("numlin", &clue, &[("fill", true.into())], &origin)
}

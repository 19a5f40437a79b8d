//! Nonogram (pzprjs `nonogram`): shade cells so that each row's and each
//! column's runs of shaded cells are, in order, the numbers outside it.
//!
//! URL: `COLS/ROWS/` and the numbers outside: ⌈rows/2⌉ slots above each
//! column then ⌈cols/2⌉ left of each row, the nearest to the grid first,
//! in number16 for outside cells (pzprjs writes each line's numbers
//! pushed up against the grid). File (`pzprv3`, puzz.link's; npm's pzpr
//! does not know the genre): one grid with the numbers above and left of
//! it, and the shaded cells.

use super::board::{Answer, ParamError, ParamsIn, ParamsOut, read_size};
use super::codec::{Cells, NUMBER16_EXCELL, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "nonogram",
    aliases: &[],
    url_id: "nonogram",
    title: "Nonogram",
    flags: &[],
    template: include_str!("../../models/genres/nonogram.toml"),
    sample: "https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3h",
    decode,
    read,
    random: |rng, rows, cols| {
        // The runs of a random shading, some lines left without numbers.
        let shaded: Vec<bool> = (0..rows * cols).map(|_| rng.chance(0.5)).collect();
        let runs = |line: Vec<bool>| {
            let mut out = Vec::new();
            let mut n = 0;
            for s in line.into_iter().chain([false]) {
                if s {
                    n += 1;
                } else if n > 0 {
                    out.push(n);
                    n = 0;
                }
            }
            out
        };
        let mut keep = |r: Vec<i32>| if rng.chance(0.8) { r } else { Vec::new() };
        let col_runs = (0..cols).map(|j| keep(runs((0..rows).map(|i| shaded[i * cols + j]).collect()))).collect();
        let row_runs = (0..rows).map(|i| keep(runs(shaded[i * cols..(i + 1) * cols].to_vec()))).collect();
        Box::new(Nonogram { rows, cols, col_runs, row_runs })
    },
};

/// A nonogram: each column's numbers from top to bottom and each row's
/// from left to right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nonogram {
    pub rows: usize,
    pub cols: usize,
    pub col_runs: Vec<Vec<i32>>,
    pub row_runs: Vec<Vec<i32>>,
}

fn slots(rows: usize, cols: usize) -> (usize, usize) {
    (rows.div_ceil(2), cols.div_ceil(2))
}

fn codec(rows: usize, cols: usize) -> Cells<i32> {
    let (above, beside) = slots(rows, cols);
    Cells { len: cols * above + rows * beside, blank: -1, tokens: NUMBER16_EXCELL, what: "number outside" }
}

/// A line's numbers from its slots, the nearest to the grid first.
fn runs_of(slots: &[i32]) -> Vec<i32> {
    slots.iter().rev().copied().filter(|&v| v != -1).collect()
}

fn slots_of(runs: &[i32], n: usize) -> Vec<i32> {
    let mut s: Vec<i32> = runs.iter().rev().copied().collect();
    s.resize(n, -1);
    s
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let (rows, cols) = (env.rows, env.cols);
    let (above, beside) = slots(rows, cols);
    let numbers = env.decode(&codec(rows, cols))?;
    if let Some(&v) = numbers.iter().find(|&&v| v == -2 || v == 0) {
        return Err(env.body_error(
            0,
            &format!("the number {}", if v == 0 { "0" } else { "?" }),
            "runs of 1 or more cells",
        ));
    }
    let col_runs = (0..cols).map(|j| runs_of(&numbers[j * above..(j + 1) * above])).collect();
    let row_runs =
        (0..rows).map(|i| runs_of(&numbers[cols * above + i * beside..cols * above + (i + 1) * beside])).collect();
    Ok(Box::new(Nonogram { rows, cols, col_runs, row_runs }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    let (above, beside) = slots(rows, cols);
    let what = "a run from 1, or -1 after the last";
    let line = |name: &str, lines: usize, n: usize| -> Result<Vec<Vec<i32>>, ParamError> {
        let grid = p.grid(name, (lines, n), |v| v == -1 || v >= 1, what)?;
        Ok(grid.chunks(n.max(1)).map(|l| l.iter().copied().take_while(|&v| v != -1).collect()).collect())
    };
    Ok(Box::new(Nonogram {
        rows,
        cols,
        col_runs: line("col_clue", cols, above)?,
        row_runs: line("row_clue", rows, beside)?,
    }))
}

impl Instance for Nonogram {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        let (above, beside) = slots(self.rows, self.cols);
        let mut numbers: Vec<i32> = self.col_runs.iter().flat_map(|r| slots_of(r, above)).collect();
        numbers.extend(self.row_runs.iter().flat_map(|r| slots_of(r, beside)));
        encode_body(&codec(self.rows, self.cols), &numbers)
    }

    fn params(&self) -> toml::Table {
        let (above, beside) = slots(self.rows, self.cols);
        let padded = |runs: &[i32], n: usize| {
            let mut v: Vec<i64> = runs.iter().map(|&x| i64::from(x)).collect();
            v.resize(n, -1);
            v
        };
        let p = ParamsOut::default().int("rows", self.rows as i64).int("cols", self.cols as i64);
        let p = p.table("col_clue", self.col_runs.iter().map(|r| padded(r, above)));
        p.table("row_clue", self.row_runs.iter().map(|r| padded(r, beside))).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let (above, beside) = slots(rows, cols);
        let shaded = answer.bools("shaded", (1, 1), rows, cols)?;
        let number = |v: i32| if v == -1 { ".".to_string() } else { v.to_string() };
        let file =
            FileText::new("pzprv3", "nonogram", &[rows, cols]).grid(above + rows, beside + cols, |r, c| {
                match (r.checked_sub(above), c.checked_sub(beside)) {
                    (None, None) => ".".into(),
                    (None, Some(j)) => number(slots_of(&self.col_runs[j], above)[above - 1 - r]),
                    (Some(i), None) => number(slots_of(&self.row_runs[i], beside)[beside - 1 - c]),
                    (Some(i), Some(j)) => answer.mark(shaded[i * cols + j], "#", "+", "."),
                }
            });
        Ok(file.finish())
    }
}

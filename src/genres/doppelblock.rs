//! Doppelblock (pzprjs `doppelblock`): shade two cells in every row and
//! column and write 1 to N - 2 once each in the others; a number outside
//! is the sum of the digits between its line's two shaded cells.
//!
//! URL: `COLS/ROWS/`, the numbers above the columns and left of the rows
//! (number16 for outside cells), then the givens in number16 when there
//! are any. File (`pzprv3`, puzz.link's; npm's pzpr does not know the
//! genre): one grid with the numbers on its top and left, givens as
//! `qN`, digits, and `-` for a shaded cell.

use super::board::{Answer, ParamError, ParamsIn, ParamsOut, as_i64, outside_codec, read_size};
use super::codec::{Cells, NUMBER16, Optional, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "doppelblock",
    aliases: &[],
    url_id: "doppelblock",
    title: "Doppelblock",
    flags: &[],
    template: include_str!("../../models/genres/doppelblock.toml"),
    sample: "https://puzz.link/p?doppelblock/5/5/g6g34g10h",
    decode,
    read,
    random: |rng, rows, _| {
        let n = rows.clamp(3, 6);
        let most = (n - 2) * (n - 1) / 2;
        let outside = (0..2 * n).map(|_| if rng.chance(0.4) { rng.below(most + 1) as i32 } else { -1 }).collect();
        let givens = (0..n * n).map(|_| if rng.chance(0.05) { 1 + rng.below(n - 2) as i32 } else { -1 }).collect();
        Box::new(Doppelblock { n, outside, givens })
    },
};

/// A doppelblock of N × N: the sums above the columns then left of the
/// rows (-1 none), and the givens (-1 none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doppelblock {
    pub n: usize,
    pub outside: Vec<i32>,
    pub givens: Vec<i32>,
}

fn codec(n: usize) -> (Cells<i32>, Optional<Cells<i32>>) {
    (outside_codec(n, n), Optional(Cells { len: n * n, blank: -1, tokens: NUMBER16, what: "cell" }))
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    if env.rows != env.cols || env.rows < 3 {
        let found = format!("{} columns and {} rows", env.cols, env.rows);
        return Err(env.size_error(&found, "a square of at least 3 × 3"));
    }
    let (outside, givens) = env.decode(&codec(env.rows))?;
    Ok(Box::new(Doppelblock { n: env.rows, outside, givens }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    if rows != cols || rows < 3 {
        let found = format!("{rows} rows and {cols} columns");
        return Err(ParamError { param: "cols".into(), found, expected: "a square of at least 3 × 3".into() });
    }
    let n = rows;
    let what = "a sum from 0, -1 (none) or -2 (no number)";
    let mut outside = p.list("col_sum", n, |v| v >= -2, what)?;
    outside.extend(p.list("row_sum", n, |v| v >= -2, what)?);
    let top = (n - 2) as i64;
    let givens = p.grid("clue", (n, n), |v| v == -1 || (1..=top).contains(&v), &format!("1 to {top} or -1"))?;
    Ok(Box::new(Doppelblock { n, outside, givens }))
}

impl Instance for Doppelblock {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.n, self.n)
    }

    fn body(&self) -> Result<String, Unwritable> {
        encode_body(&codec(self.n), &(self.outside.clone(), self.givens.clone()))
    }

    fn params(&self) -> toml::Table {
        let n = self.n;
        let p = ParamsOut::default().int("rows", n as i64).int("cols", n as i64);
        let p = p.list("col_sum", as_i64(&self.outside[..n])).list("row_sum", as_i64(&self.outside[n..]));
        p.grid("clue", n, &self.givens).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let n = self.n;
        let digits = answer.ints("digit", (1, 1), n, n)?;
        let number = |v: i32| if v == -1 { ".".to_string() } else { v.to_string() };
        let file = FileText::new("pzprv3", "doppelblock", &[n, n]).grid(n + 1, n + 1, |r, c| match (r, c) {
            (0, 0) => ".".into(),
            (0, c) => number(self.outside[c - 1]),
            (r, 0) => number(self.outside[n + r - 1]),
            (r, c) => match (self.givens[(r - 1) * n + c - 1], digits[(r - 1) * n + c - 1]) {
                (g, _) if g > 0 => format!("q{g}"),
                (_, Some(0)) => "-".into(),
                (_, Some(d)) => d.to_string(),
                (_, None) => ".".into(),
            },
        });
        Ok(file.finish())
    }
}

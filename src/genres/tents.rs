//! Tents (pzprjs `tents`): place tents so that each tree has its own tent
//! beside it (a one-to-one pairing exists), no two tents touch, not even
//! at a corner, and the numbers outside count the tents in their row or
//! column.
//!
//! URL: `COLS/ROWS/`, the numbers above the columns and left of the rows
//! (number16 for outside cells), then the trees in pzprjs's 1-cell form.
//! File (`pzprv3`, puzz.link's; npm's pzpr does not know the genre): one
//! grid with the numbers on its top and left, trees `1` and tents `A`,
//! then the pairing borders (none written).

use super::board::{Answer, ParamError, ParamsIn, ParamsOut, as_i64, outside_codec, random_outside, read_size};
use super::codec::{Cells, Codec, Fault, Reader, Unwritable, b36, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "tents",
    aliases: &[],
    url_id: "tents",
    title: "Tents",
    flags: &[],
    template: include_str!("../../models/genres/tents.toml"),
    sample: "https://puzz.link/p?tents/5/5/2g0h1i1j82323",
    decode,
    read,
    random: |rng, rows, cols| {
        let outside = random_outside(rng, rows + cols, 0.5, rows.max(cols).div_ceil(2));
        let trees = (0..rows * cols).map(|_| rng.chance(0.2)).collect();
        Box::new(Tents { rows, cols, outside, trees })
    },
};

/// A tents: the numbers above the columns then left of the rows (-1 none),
/// and where the trees stand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tents {
    pub rows: usize,
    pub cols: usize,
    pub outside: Vec<i32>,
    pub trees: Vec<bool>,
}

/// pzprjs's 1-cell form of the cells holding one kind of thing: `0`-`h` a
/// thing then 0 to 17 empty cells, `i`-`z` 1 to 18 empty cells.
pub struct OneCell {
    /// How many cells.
    pub len: usize,
}

impl Codec for OneCell {
    type Value = Vec<bool>;
    fn decode(&self, r: &mut Reader<'_>) -> Result<Vec<bool>, Fault> {
        let mut cells = vec![false; self.len];
        let mut c = 0;
        while c < self.len {
            let expected =
                format!("0-h (a tree and empty cells) or i-z (empty cells) for cell {} of {}", c + 1, self.len);
            let v = r.peek().and_then(|ch| (ch as char).to_digit(36).filter(|_| !ch.is_ascii_uppercase()));
            let Some(v) = v else { return Err(r.fault(&expected)) };
            r.bump();
            if v < 18 {
                cells[c] = true;
                c += v as usize + 1;
            } else {
                c += v as usize - 17;
            }
        }
        Ok(cells)
    }
    fn encode(&self, cells: &Vec<bool>, out: &mut String) -> Result<(), Unwritable> {
        // pzprjs's encode1Cell, step by step.
        let (mut count, mut have) = (-1i32, false);
        let flush = |count: i32, have: bool, out: &mut String| {
            out.push(b36(if have { count } else { count + 18 } as u32));
        };
        for &tree in cells {
            if tree {
                if count >= 0 {
                    flush(count, have, out);
                }
                (have, count) = (true, 0);
                continue;
            }
            count += 1;
            if count == 17 {
                flush(count, have, out);
                (have, count) = (false, -1);
            }
        }
        if count >= 0 {
            flush(count, have, out);
        }
        Ok(())
    }
    fn blank(&self) -> Vec<bool> {
        vec![false; self.len]
    }
}

fn codec(rows: usize, cols: usize) -> (Cells<i32>, OneCell) {
    (outside_codec(rows, cols), OneCell { len: rows * cols })
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let (outside, trees) = env.decode(&codec(env.rows, env.cols))?;
    Ok(Box::new(Tents { rows: env.rows, cols: env.cols, outside, trees }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    let ok = |v: i64| v >= -2;
    let what = "a count from 0, -1 (none) or -2 (no number)";
    let mut outside = p.list("col_count", cols, ok, what)?;
    outside.extend(p.list("row_count", rows, ok, what)?);
    let trees = p.grid("tree", (rows, cols), |v| v == 0 || v == 1, "1 (a tree) or 0")?;
    Ok(Box::new(Tents { rows, cols, outside, trees: trees.into_iter().map(|t| t == 1).collect() }))
}

impl Instance for Tents {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        encode_body(&codec(self.rows, self.cols), &(self.outside.clone(), self.trees.clone()))
    }

    fn params(&self) -> toml::Table {
        let (rows, cols) = self.size();
        let trees: Vec<i32> = self.trees.iter().map(|&t| i32::from(t)).collect();
        let p = ParamsOut::default().int("rows", rows as i64).int("cols", cols as i64);
        let p = p.list("col_count", as_i64(&self.outside[..cols])).list("row_count", as_i64(&self.outside[cols..]));
        p.grid("tree", cols, &trees).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let tent = answer.bools("tent", (1, 1), rows, cols)?;
        let number = |v: i32| if v == -1 { ".".to_string() } else { v.to_string() };
        let file = FileText::new("pzprv3", "tents", &[rows, cols]).grid(rows + 1, cols + 1, |r, c| match (r, c) {
            (0, 0) => ".".into(),
            (0, c) => number(self.outside[c - 1]),
            (r, 0) => number(self.outside[cols + r - 1]),
            (r, c) if self.trees[(r - 1) * cols + c - 1] => "1".into(),
            (r, c) => answer.mark(tent[(r - 1) * cols + c - 1], "A", "-", "."),
        });
        Ok(file.borders(rows, cols, |_, _, _| "0".into()).finish())
    }
}

//! Kakuro (pzprjs `kakuro`): write 1 to 9 in the white cells so that each
//! run of white cells sums to the clue before it and holds no digit twice.
//!
//! URL: `COLS/ROWS/`, the cells (a clue cell as its down sum then its
//! right sum, one character each, `.` a clue cell without sums; `k`-`z`
//! 1 to 16 white cells), then the sums outside the grid: above each column
//! and left of each row that starts white. File (`pzprv3`): one grid with
//! the outside row and column, clue cells as `right,down`, then the
//! digits.

use super::board::{Answer, ParamError, ParamsIn, ParamsOut, read_size};
use super::codec::{Codec, Fault, Reader, Unwritable, b36, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "kakuro",
    aliases: &[],
    url_id: "kakuro",
    title: "Kakuro",
    flags: &[],
    template: include_str!("../../models/genres/kakuro.toml"),
    sample: "https://puzz.link/p?kakuro/5/5/48la0.na0lh3l0Bn.0cl.c4a3",
    decode,
    read,
    random: |rng, rows, cols| {
        let cells: Vec<Option<(i32, i32)>> =
            (0..rows * cols).map(|_| rng.chance(0.3).then(|| (rng.below(20) as i32, rng.below(20) as i32))).collect();
        let top = (0..cols).map(|j| if cells[j].is_none() { rng.below(25) as i32 } else { 0 }).collect();
        let left = (0..rows).map(|i| if cells[i * cols].is_none() { rng.below(25) as i32 } else { 0 }).collect();
        Box::new(Kakuro { rows, cols, cells, top, left })
    },
};

/// A kakuro: each cell white (`None`) or a clue cell with its right and
/// down sums (0 none, -1 unknown); the sums above the columns and left of
/// the rows, kept only where the first cell is white.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kakuro {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Option<(i32, i32)>>,
    pub top: Vec<i32>,
    pub left: Vec<i32>,
}

/// One sum, pzprjs's `decval`: 0-9 and a-j for 0 to 19, A-Z for 20 to 45,
/// `-` unknown.
fn sum_of(c: u8) -> Option<i32> {
    match c {
        b'0'..=b'9' | b'a'..=b'j' => (c as char).to_digit(36).map(|d| d as i32),
        b'A'..=b'Z' => (c as char).to_digit(36).map(|d| d as i32 + 10),
        b'-' => Some(-1),
        _ => None,
    }
}

fn sum_char(v: i32) -> Result<char, Unwritable> {
    match v {
        0..=19 => Ok(b36(v as u32)),
        20..=45 => Ok(b36(v as u32 - 10).to_ascii_uppercase()),
        -1 => Ok('-'),
        _ => Err(Unwritable(format!("the sum {v} (a kakuro's sums are 0 to 45)"))),
    }
}

struct Body {
    rows: usize,
    cols: usize,
}

impl Body {
    fn sum(r: &mut Reader<'_>) -> Result<i32, Fault> {
        let c = r.peek().ok_or_else(|| r.fault("a sum (0-9, a-j, A-Z or -)"))?;
        let v = sum_of(c).ok_or_else(|| r.fault("a sum (0-9, a-j, A-Z or -)"))?;
        r.bump();
        Ok(v)
    }
}

impl Codec for Body {
    type Value = Kakuro;
    fn decode(&self, r: &mut Reader<'_>) -> Result<Kakuro, Fault> {
        let (rows, cols) = (self.rows, self.cols);
        let mut cells = vec![None; rows * cols];
        let mut c = 0;
        while c < rows * cols {
            match r.peek() {
                Some(ch @ b'k'..=b'z') => {
                    r.bump();
                    c += usize::from(ch - b'k') + 1;
                }
                Some(b'.') => {
                    r.bump();
                    cells[c] = Some((0, 0));
                    c += 1;
                }
                Some(_) => {
                    let down = Body::sum(r)?;
                    let right = Body::sum(r)?;
                    cells[c] = Some((right, down));
                    c += 1;
                }
                None => {
                    return Err(r.fault(&format!(
                        "a clue cell or k-z (white cells) for cell {} of {}",
                        c + 1,
                        rows * cols
                    )));
                }
            }
        }
        cells.truncate(rows * cols);
        let mut top = vec![0; cols];
        for (j, t) in top.iter_mut().enumerate() {
            if cells[j].is_none() {
                *t = Body::sum(r)?;
            }
        }
        let mut left = vec![0; rows];
        for (i, l) in left.iter_mut().enumerate() {
            if cells[i * cols].is_none() {
                *l = Body::sum(r)?;
            }
        }
        Ok(Kakuro { rows, cols, cells, top, left })
    }
    fn encode(&self, k: &Kakuro, out: &mut String) -> Result<(), Unwritable> {
        let mut count = 0;
        for cell in &k.cells {
            let written = match cell {
                None => {
                    count += 1;
                    None
                }
                // pzprjs writes `.` for a clue cell whose sums are both
                // unset (-1), as `generate` leaves one without runs.
                Some((0, 0) | (-1, -1)) => Some(".".to_string()),
                Some((right, down)) => Some(format!("{}{}", sum_char(*down)?, sum_char(*right)?)),
            };
            if let Some(w) = &written {
                if count > 0 {
                    out.push(b36(count + 19));
                    count = 0;
                }
                out.push_str(w);
            } else if count == 16 {
                out.push(b36(count + 19));
                count = 0;
            }
        }
        if count > 0 {
            out.push(b36(count + 19));
        }
        for j in 0..k.cols {
            if k.cells[j].is_none() {
                out.push(sum_char(k.top[j])?);
            }
        }
        for i in 0..k.rows {
            if k.cells[i * k.cols].is_none() {
                out.push(sum_char(k.left[i])?);
            }
        }
        Ok(())
    }
    fn blank(&self) -> Kakuro {
        Kakuro {
            rows: self.rows,
            cols: self.cols,
            cells: vec![None; self.rows * self.cols],
            top: vec![0; self.cols],
            left: vec![0; self.rows],
        }
    }
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    Ok(Box::new(env.decode(&Body { rows: env.rows, cols: env.cols })?))
}

/// The outside row and column and the grid as one (rows + 1) × (cols + 1)
/// table of `(block, right, down)`: the corner and the outside cells are
/// blocks whose sums are the top and left ones.
fn table(k: &Kakuro) -> Vec<(bool, i32, i32)> {
    let (rows, cols) = (k.rows, k.cols);
    let mut t = vec![(true, 0, 0); (rows + 1) * (cols + 1)];
    for j in 0..cols {
        t[j + 1].2 = if k.cells[j].is_none() { k.top[j] } else { 0 };
    }
    for i in 0..rows {
        t[(i + 1) * (cols + 1)].1 = if k.cells[i * cols].is_none() { k.left[i] } else { 0 };
        for j in 0..cols {
            t[(i + 1) * (cols + 1) + j + 1] = match k.cells[i * cols + j] {
                None => (false, 0, 0),
                Some((r, d)) => (true, r, d),
            };
        }
    }
    t
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    let size = (rows + 1, cols + 1);
    let block = p.grid("block", size, |v| v == 0 || v == 1, "1 (a clue cell) or 0 (white)")?;
    let what = "a sum from 0 to 45 (0 none) or -1 (not shown)";
    let right = p.grid("right", size, |v| (-1..=45).contains(&v), what)?;
    let down = p.grid("down", size, |v| (-1..=45).contains(&v), what)?;
    let at = |i: usize, j: usize| i * (cols + 1) + j;
    let cells = (0..rows * cols)
        .map(|k| {
            let t = at(k / cols + 1, k % cols + 1);
            (block[t] == 1).then_some((right[t], down[t]))
        })
        .collect::<Vec<_>>();
    let top = (0..cols).map(|j| if cells[j].is_none() { down[at(0, j + 1)] } else { 0 }).collect();
    let left = (0..rows).map(|i| if cells[i * cols].is_none() { right[at(i + 1, 0)] } else { 0 }).collect();
    Ok(Box::new(Kakuro { rows, cols, cells, top, left }))
}

impl Instance for Kakuro {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        encode_body(&Body { rows: self.rows, cols: self.cols }, self)
    }

    fn params(&self) -> toml::Table {
        let t = table(self);
        let of = |f: fn(&(bool, i32, i32)) -> i32| t.iter().map(f).collect::<Vec<i32>>();
        let p = ParamsOut::default().int("rows", self.rows as i64).int("cols", self.cols as i64);
        let w = self.cols + 1;
        p.grid("block", w, &of(|c| i32::from(c.0))).grid("right", w, &of(|c| c.1)).grid("down", w, &of(|c| c.2)).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let digits = answer.ints("digit", (1, 1), rows, cols)?;
        let t = table(self);
        let file = FileText::new("pzprv3", "kakuro", &[rows, cols])
            .grid(rows + 1, cols + 1, |r, c| {
                let (block, right, down) = t[r * (cols + 1) + c];
                match (r, c) {
                    (0, 0) => "0".into(),
                    (0, _) => down.max(0).to_string(),
                    (_, 0) => right.max(0).to_string(),
                    _ if block => format!("{},{}", right.max(0), down.max(0)),
                    _ => ".".into(),
                }
            })
            .grid(rows, cols, |r, c| match (self.cells[r * cols + c], digits[r * cols + c]) {
                (None, Some(d)) => d.to_string(),
                _ => ".".into(),
            });
        Ok(file.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// pzprjs's encodeKakuro writes `.` for a clue cell whose sums are both
    /// unset (-1) and `-` for one unset sum beside a set one.
    #[test]
    fn unset_sums_are_written_as_pzprjs_writes_them() {
        let cells = vec![Some((-1, -1)), None, Some((-1, 5)), None];
        let k = Kakuro { rows: 2, cols: 2, cells, top: vec![0, 7], left: vec![0, 0] };
        assert_eq!(k.body().unwrap(), ".k5-k7");
        let cells = vec![Some((0, 0)), None, Some((0, 5)), None];
        let k = Kakuro { rows: 2, cols: 2, cells, top: vec![0, 7], left: vec![0, 0] };
        assert_eq!(k.body().unwrap(), ".k50k7");
    }
}

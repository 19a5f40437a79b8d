//! Tentaisho, or Spiral Galaxies (pzprjs `tentaisho`): divide the grid
//! into regions, each holding one dot and symmetric about it under a half
//! turn.
//!
//! URL: `COLS/ROWS/`, the dots on the (2 rows - 1) × (2 cols - 1) points
//! (cell centres, border midpoints, grid points) in pzprjs's dot form,
//! then the cells left out of the grid, five to a character, when there
//! are any. File (`pzprv3`): the dots (`1`, `2`, `X` for a cell left out)
//! one line per row of points, the regions' borders as BorderAns, then an
//! empty background block.

use super::board::{Answer, ParamError, ParamsIn, ParamsOut, read_size};
use super::codec::{Codec, Fault, Optional, Packed, Reader, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "tentaisho",
    aliases: &["spiralgalaxies"],
    url_id: "tentaisho",
    title: "Tentaisho",
    flags: &[],
    template: include_str!("../../models/genres/tentaisho.toml"),
    sample: "https://puzz.link/p?tentaisho/5/5/6fl94fi65en8dbf10000",
    decode,
    read,
    random: |rng, rows, cols| {
        let dots = (0..(2 * rows - 1) * (2 * cols - 1))
            .map(|_| if rng.chance(0.15) { 1 + rng.below(2) as u8 } else { 0 })
            .collect();
        let empty = (0..rows * cols).map(|_| rng.chance(0.05)).collect();
        Box::new(Tentaisho { rows, cols, dots, empty })
    },
};

/// A tentaisho: its dots by point, row by row over the (2 rows - 1) ×
/// (2 cols - 1) points (0 none, 1 white, 2 black), and the cells left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tentaisho {
    pub rows: usize,
    pub cols: usize,
    pub dots: Vec<u8>,
    pub empty: Vec<bool>,
}

/// pzprjs's dots: `0`-`f` a dot (white for even, black for odd) and then
/// `v >> 1` points without one, `g`-`z` 1 to 20 points without one.
struct Dots {
    len: usize,
}

impl Codec for Dots {
    type Value = Vec<u8>;
    fn decode(&self, r: &mut Reader<'_>) -> Result<Vec<u8>, Fault> {
        let mut dots = vec![0; self.len];
        let mut s = 0;
        while s < self.len {
            let expected = format!("0-f (a dot) or g-z (points without one) for point {} of {}", s + 1, self.len);
            let v = r.peek().and_then(|c| (c as char).to_digit(36).filter(|_| !c.is_ascii_uppercase()));
            let Some(v) = v else { return Err(r.fault(&expected)) };
            r.bump();
            if v < 16 {
                dots[s] = (v % 2) as u8 + 1;
                s += (v >> 1) as usize + 1;
            } else {
                s += v as usize - 15;
            }
        }
        Ok(dots)
    }
    fn encode(&self, dots: &Vec<u8>, out: &mut String) -> Result<(), Unwritable> {
        // pzprjs's encodeDot, step by step.
        let mut count = 0u32;
        let mut s = 0;
        while s < dots.len() {
            let mut written = None;
            if dots[s] > 0 {
                let color = u32::from(dots[s]) - 1;
                match (1..=7).find(|i| dots.get(s + i).is_some_and(|&d| d > 0)) {
                    Some(i) => {
                        written = Some(2 * (i as u32 - 1) + color);
                        s += i - 1;
                    }
                    None => {
                        written = Some(14 + color);
                        s += 7;
                    }
                }
            } else {
                count += 1;
            }
            if let Some(v) = written {
                if count > 0 {
                    out.push(super::codec::b36(count + 15));
                    count = 0;
                }
                out.push(super::codec::b36(v));
            } else if count == 20 {
                out.push(super::codec::b36(count + 15));
                count = 0;
            }
            s += 1;
        }
        if count > 0 {
            out.push(super::codec::b36(count + 15));
        }
        Ok(())
    }
    fn blank(&self) -> Vec<u8> {
        vec![0; self.len]
    }
}

fn codec(rows: usize, cols: usize) -> (Dots, Optional<Packed>) {
    let empty = Packed { len: rows * cols, base: 2, per_char: 5, what: "cells left out (0-9, a-v)" };
    (Dots { len: (2 * rows - 1) * (2 * cols - 1) }, Optional(empty))
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let (dots, empty) = env.decode(&codec(env.rows, env.cols))?;
    Ok(Box::new(Tentaisho { rows: env.rows, cols: env.cols, dots, empty: empty.into_iter().map(|e| e == 1).collect() }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    let dots = p.grid("dot", (2 * rows - 1, 2 * cols - 1), |v| (0..=2).contains(&v), "0, 1 (white) or 2 (black)")?;
    let empty = p.grid("empty", (rows, cols), |v| v == 0 || v == 1, "1 (left out) or 0")?;
    let dots = dots.into_iter().map(|d| d as u8).collect();
    Ok(Box::new(Tentaisho { rows, cols, dots, empty: empty.into_iter().map(|e| e == 1).collect() }))
}

impl Instance for Tentaisho {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        let empty = self.empty.iter().map(|&e| u8::from(e)).collect();
        encode_body(&codec(self.rows, self.cols), &(self.dots.clone(), empty))
    }

    fn params(&self) -> toml::Table {
        let dots: Vec<i32> = self.dots.iter().map(|&d| i32::from(d)).collect();
        let empty: Vec<i32> = self.empty.iter().map(|&e| i32::from(e)).collect();
        let p = ParamsOut::default().int("rows", self.rows as i64).int("cols", self.cols as i64);
        p.grid("dot", 2 * self.cols - 1, &dots).grid("empty", self.cols, &empty).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let owner = answer.ints("owner", (1, 1), rows, cols)?;
        let width = 2 * cols - 1;
        let mut file = FileText::new("pzprv3", "tentaisho", &[rows, cols]);
        for y in 0..2 * rows - 1 {
            let line: String = (0..width)
                .map(|x| match self.dots[y * width + x] {
                    0 if y % 2 == 0 && x % 2 == 0 && self.empty[(y / 2) * cols + x / 2] => 'X',
                    0 => '.',
                    d => char::from(b'0' + d),
                })
                .collect();
            file = file.line(&line);
        }
        let apart = |a: usize, b: usize| Some(owner[a]? != owner[b]?);
        let colours: Vec<u8> = self.dots.iter().copied().filter(|&d| d > 0).collect();
        let file = file
            .borders(rows, cols, |vertical, r, c| {
                let here = r * cols + c;
                let wall = if vertical { apart(here, here + 1) } else { apart(here, here + cols) };
                answer.mark(wall, "1", "-1", "0")
            })
            // Each cell coloured as its galaxy's dot, as pzprjs paints them.
            .grid(rows, cols, |r, c| match owner[r * cols + c] {
                Some(k) if k >= 1 => colours.get(k as usize - 1).map_or("0".into(), |d| d.to_string()),
                _ => "0".into(),
            });
        Ok(file.finish())
    }
}

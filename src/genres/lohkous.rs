//! Lohkous (pzprjs `lohkous`): divide the grid into regions, each holding
//! one clue cell, whose numbers are exactly the lengths of the straight
//! runs the region's rows and columns cut it into.
//!
//! URL: `COLS/ROWS/` and pzprjs's own clue form: a clue is its digits
//! (`0` a number not shown); `a`-`z` are 1 to 26 empty cells, one fewer
//! right after a clue (so `a` only parts two clues side by side). File
//! (`pzprv3`): the clues (`a,b,c`, `.` none), then the borders between
//! regions (pzprjs's BorderAns, the vertical ones first).

use super::board::{Answer, ParamError, ParamsIn, ParamsOut, read_size};
use super::codec::{Codec, Fault, Reader, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "lohkous",
    aliases: &[],
    url_id: "lohkous",
    title: "Lohkous",
    flags: &[],
    template: include_str!("../../models/genres/lohkous.toml"),
    sample: "https://puzz.link/p?lohkous/5/5/f2b234m2a31c",
    decode,
    read,
    random: |rng, rows, cols| {
        let clues = (0..rows * cols)
            .map(|_| match rng.below(6) {
                0 => vec![1 + rng.below(3) as i32],
                1 => vec![1, 2 + rng.below(2) as i32],
                _ => Vec::new(),
            })
            .collect();
        Box::new(Lohkous { rows, cols, clues })
    },
};

/// A lohkous: each cell's clue, its numbers from 1 to 9 (-2 one not
/// shown), empty for a cell without one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lohkous {
    pub rows: usize,
    pub cols: usize,
    pub clues: Vec<Vec<i32>>,
}

/// pzprjs's `decodeNumber_lohkous`/`encodeNumber_lohkous` over `len` cells.
struct Clues {
    len: usize,
}

impl Codec for Clues {
    type Value = Vec<Vec<i32>>;

    fn decode(&self, r: &mut Reader<'_>) -> Result<Vec<Vec<i32>>, Fault> {
        let mut cells = Vec::with_capacity(self.len);
        let mut after_clue = false;
        while cells.len() < self.len {
            match r.peek() {
                Some(c @ b'0'..=b'9') => {
                    let mut clue = vec![if c == b'0' { -2 } else { i32::from(c - b'0') }];
                    r.bump();
                    while let Some(d @ b'0'..=b'9') = r.peek() {
                        clue.push(if d == b'0' { -2 } else { i32::from(d - b'0') });
                        r.bump();
                    }
                    cells.push(clue);
                    after_clue = true;
                }
                Some(c @ b'a'..=b'z') => {
                    let blanks = usize::from(c - b'a') + 1 - usize::from(after_clue);
                    r.bump();
                    cells.extend(std::iter::repeat_n(Vec::new(), blanks));
                    after_clue = false;
                }
                _ => return Err(r.fault("0-9 (a clue's numbers) or a-z (empty cells)")),
            }
        }
        // Empty cells that run past the last cell are how pzprjs ends some bodies.
        cells.truncate(self.len);
        Ok(cells)
    }

    fn encode(&self, value: &Vec<Vec<i32>>, out: &mut String) -> Result<(), Unwritable> {
        let letter = |count: usize| char::from(b'a' + (count - 1) as u8);
        let mut count = 0;
        for clue in value {
            if clue.is_empty() {
                count += 1;
            }
            let digits: String = clue.iter().map(|&n| if n == -2 { '0' } else { char::from(b'0' + n as u8) }).collect();
            if count == 0 {
                out.push_str(&digits);
                count = 1;
            } else if !digits.is_empty() || count == 26 {
                out.push(letter(count));
                out.push_str(&digits);
                count = usize::from(!digits.is_empty());
            }
        }
        if count > 1 {
            out.push(letter(count));
        }
        Ok(())
    }

    fn blank(&self) -> Vec<Vec<i32>> {
        vec![Vec::new(); self.len]
    }
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let clues = env.decode(&Clues { len: env.rows * env.cols })?;
    if let Some(k) = clues.iter().position(|c| c.contains(&-2)) {
        let found = format!("a number not shown (0) in the clue of cell {}", k + 1);
        return Err(env.body_error(0, &found, "numbers from 1 to 9: somaria reads no lohkous without them"));
    }
    Ok(Box::new(Lohkous { rows: env.rows, cols: env.cols, clues }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    let what = "up to nine numbers 1 to 9, then -1s";
    let table = p.grid("clue", (rows * cols, 9), |v| v == -1 || (1..=9).contains(&v), what)?;
    let clues = table.chunks(9).map(|c| c.iter().copied().take_while(|&v| v != -1).collect()).collect();
    Ok(Box::new(Lohkous { rows, cols, clues }))
}

impl Instance for Lohkous {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        encode_body(&Clues { len: self.rows * self.cols }, &self.clues)
    }

    fn params(&self) -> toml::Table {
        let table = self.clues.iter().map(|c| {
            let mut v: Vec<i64> = c.iter().map(|&n| i64::from(n)).collect();
            v.resize(9, -1);
            v
        });
        ParamsOut::default().int("rows", self.rows as i64).int("cols", self.cols as i64).table("clue", table).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let region = answer.ints("region", (1, 1), rows, cols)?;
        let apart = |a: usize, b: usize| Some(region[a]? != region[b]?);
        let file = FileText::new("pzprv3", "lohkous", &[rows, cols])
            .grid(rows, cols, |r, c| {
                let clue = &self.clues[r * cols + c];
                if clue.is_empty() {
                    return ".".into();
                }
                let parts: Vec<String> = clue.iter().map(|&n| if n < 0 { "-".into() } else { n.to_string() }).collect();
                parts.join(",")
            })
            .borders(rows, cols, |vertical, r, c| {
                let here = r * cols + c;
                let wall = if vertical { apart(here, here + 1) } else { apart(here, here + cols) };
                answer.mark(wall, "1", "-1", "0")
            });
        Ok(file.finish())
    }
}

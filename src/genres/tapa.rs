//! Tapa (pzprjs `tapa`): shade cells so that the shaded cells are one
//! piece with no 2x2 block; a clue cell lists the lengths of the runs of
//! shaded cells among its eight neighbours (in any order).
//!
//! URL: `COLS/ROWS/` and the clues: one number `0`-`8`, `9` for 1 1 1 1,
//! `.` one unknown run; two, three or four numbers as two base-36
//! characters (pzprjs's packing, 0 for an unknown run); `g`-`z` empty
//! cells. File (`pzprv3`): one grid of the clues (`a,b,c`, `-` unknown),
//! the shaded cells (`#`) and dots (`+`).

use super::board::{Answer, ParamError, ParamsIn, ParamsOut, read_size};
use super::codec::{Cells, Fault, GAP, Reader, Token, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "tapa",
    aliases: &[],
    url_id: "tapa",
    title: "Tapa",
    flags: &[],
    template: include_str!("../../models/genres/tapa.toml"),
    sample: "https://puzz.link/p?tapa/5/5/3n5hchhajn2",
    decode,
    read,
    random: |rng, rows, cols| {
        let clues = (0..rows * cols)
            .map(|_| match rng.below(10) {
                0 => vec![rng.below(5) as i32],
                1 => vec![1 + rng.below(3) as i32, 1 + rng.below(3) as i32],
                2 => vec![1, 1, if rng.chance(0.2) { -2 } else { 1 }],
                _ => Vec::new(),
            })
            .collect();
        Box::new(Tapa { rows, cols, clues })
    },
};

/// A tapa: each cell's clue, a list of run lengths (-2 unknown), empty
/// for a cell without one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tapa {
    pub rows: usize,
    pub cols: usize,
    pub clues: Vec<Vec<i32>>,
}

/// One clue cell in pzprjs's tapa form.
struct Clue;

/// The clue packed into two base-36 characters from `base`, each number
/// below `per` (0 for unknown) as a digit of that base.
fn packed(list: &[i32], base: u32, per: u32) -> String {
    let v = list.iter().fold(0, |acc, &n| acc * per + n.max(0) as u32) + base;
    format!("{}{}", super::codec::b36(v / 36), super::codec::b36(v % 36))
}

impl Token<Vec<i32>> for Clue {
    fn expected(&self) -> String {
        "0-9 or . (one clue), a-f and a character (a clue of two to four numbers)".into()
    }
    fn read(&self, r: &mut Reader<'_>, _: &Vec<i32>, out: &mut Vec<Vec<i32>>) -> Option<Result<(), Fault>> {
        let c = r.peek()?;
        let list = match c {
            b'0'..=b'8' => vec![i32::from(c - b'0')],
            b'9' => vec![1, 1, 1, 1],
            b'.' => vec![-2],
            b'a'..=b'f' => {
                let start = r.offset();
                r.bump();
                let second = r.peek().and_then(|d| (d as char).to_digit(36).filter(|_| !d.is_ascii_uppercase()));
                let Some(second) = second else {
                    return Some(Err(r.fault("a second character of the clue (0-9, a-z)")));
                };
                let v = (c as char).to_digit(36).unwrap_or(0) * 36 + second;
                let digits = |v: u32, per: u32, n: usize| {
                    let mut d: Vec<i32> = (0..n).map(|k| (v / per.pow((n - 1 - k) as u32) % per) as i32).collect();
                    d.iter_mut().filter(|x| **x == 0).for_each(|x| *x = -2);
                    d
                };
                match v {
                    360..396 => digits(v - 360, 6, 2),
                    396..460 => digits(v - 396, 4, 3),
                    460..476 => digits(v - 460, 2, 4),
                    _ => return Some(Err(r.fault_at(start, "a clue of two to four numbers (a0-cz)"))),
                }
            }
            _ => return None,
        };
        r.bump();
        out.push(list);
        Some(Ok(()))
    }
    fn write(&self, items: &[Vec<i32>], _: &Vec<i32>, out: &mut String) -> Option<usize> {
        let list = &items[0];
        let fits = |per: i32| list.iter().all(|&n| n == -2 || (1..per).contains(&n));
        match list.len() {
            1 if list[0] == -2 => out.push('.'),
            1 if (0..=8).contains(&list[0]) => out.push(char::from(b'0' + list[0] as u8)),
            2 if fits(6) => out.push_str(&packed(list, 360, 6)),
            3 if fits(4) => out.push_str(&packed(list, 396, 4)),
            4 if list == &[1, 1, 1, 1] => out.push('9'),
            4 if fits(2) => out.push_str(&packed(list, 460, 2)),
            _ => return None,
        }
        Some(1)
    }
}

static CLUES: &[&dyn Token<Vec<i32>>] = &[&Clue, &GAP];

fn codec(rows: usize, cols: usize) -> Cells<Vec<i32>> {
    Cells { len: rows * cols, blank: Vec::new(), tokens: CLUES, what: "cell" }
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let clues = env.decode(&codec(env.rows, env.cols))?;
    Ok(Box::new(Tapa { rows: env.rows, cols: env.cols, clues }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    let what = "up to four numbers 0 to 8 (-2 unknown) then -1s";
    let table = p.grid("clue", (rows * cols, 4), |v| (-2..=8).contains(&v), what)?;
    let clues = table.chunks(4).map(|c| c.iter().copied().take_while(|&v| v != -1).collect()).collect();
    Ok(Box::new(Tapa { rows, cols, clues }))
}

impl Instance for Tapa {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        encode_body(&codec(self.rows, self.cols), &self.clues)
    }

    fn params(&self) -> toml::Table {
        let table = self.clues.iter().map(|c| {
            let mut v: Vec<i64> = c.iter().map(|&n| i64::from(n)).collect();
            v.resize(4, -1);
            v
        });
        ParamsOut::default().int("rows", self.rows as i64).int("cols", self.cols as i64).table("clue", table).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let shaded = answer.bools("shaded", (1, 1), rows, cols)?;
        let file = FileText::new("pzprv3", "tapa", &[rows, cols]).grid(rows, cols, |r, c| {
            let clue = &self.clues[r * cols + c];
            if clue.is_empty() {
                answer.mark(shaded[r * cols + c], "#", "+", ".")
            } else {
                let parts: Vec<String> = clue.iter().map(|&n| if n < 0 { "-".into() } else { n.to_string() }).collect();
                parts.join(",")
            }
        });
        Ok(file.finish())
    }
}

//! Pencils (pzprjs `pencils`): divide part of the grid into pencils, each a
//! straight strip of cells with a tip (an arrow in the cell just past one
//! end, pointing away from it); from each tip a line runs through the
//! cells' centres for as many cells as its pencil is long. Every cell is
//! in a pencil or on a line; lines never enter pencils, branch or cross;
//! a number is in a pencil of that length. Some tips are given.
//!
//! URL: `COLS/ROWS/` and the cells: a number (`0`-`f`, `-` and two hex
//! digits), `.` a number not shown, `g`-`j` a given tip pointing up, down,
//! left or right, `k`-`z` 1 to 16 empty cells. File (`pzprv3`, as
//! puzz.link writes it; npm's pzpr 0.10.1 has no pencils): the clues
//! (`o` and the number, or the tip's direction), the borders drawn round
//! the pencils, the lines as BorderLine, then the tips drawn.

use super::board::{Answer, ParamError, ParamsIn, ParamsOut, read_size};
use super::codec::{Cells, Fault, Gap, Reader, Token, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "pencils",
    aliases: &[],
    url_id: "pencils",
    title: "Pencils",
    flags: &[],
    template: include_str!("../../models/genres/pencils.toml"),
    sample: "https://puzz.link/p?pencils/5/5/p.3k1ngkh3q",
    decode,
    read,
    random: |rng, rows, cols| {
        let clues = (0..rows * cols)
            .map(|_| match rng.below(20) {
                0..=2 => (1 + rng.below(4) as i32, -1),
                3 | 4 => (0, 1 + rng.below(3) as i32),
                5 => (0, -2),
                _ => NONE,
            })
            .collect();
        Box::new(Pencils { rows, cols, clues })
    },
};

/// A cell's clue: a given tip's direction (1 up, 2 down, 3 left, 4 right;
/// 0 none) and a number (-1 none, -2 not shown).
pub type Clue = (i32, i32);
const NONE: Clue = (0, -1);

/// A pencils puzzle: each cell's clue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pencils {
    pub rows: usize,
    pub cols: usize,
    pub clues: Vec<Clue>,
}

/// A number or a tip, in one character (or `-` and two).
struct PencilClue;

impl Token<Clue> for PencilClue {
    fn expected(&self) -> String {
        "0-f or - and two hex digits (a number), . (a number not shown), g-j (a tip up, down, left, right)".into()
    }
    fn read(&self, r: &mut Reader<'_>, _: &Clue, out: &mut Vec<Clue>) -> Option<Result<(), Fault>> {
        let c = r.peek()?;
        let clue = match c {
            b'0'..=b'9' | b'a'..=b'f' => (0, (c as char).to_digit(16).expect("a hex digit") as i32),
            b'-' => {
                r.bump();
                return Some(r.hex(2, "after '-'").map(|n| out.push((0, n as i32))));
            }
            b'.' => (0, -2),
            b'g'..=b'j' => (i32::from(c - b'f'), -1),
            _ => return None,
        };
        r.bump();
        out.push(clue);
        Some(Ok(()))
    }
    fn write(&self, items: &[Clue], _: &Clue, out: &mut String) -> Option<usize> {
        match items[0] {
            (0, n @ 0..16) => out.push_str(&format!("{n:x}")),
            (0, n @ 16..256) => out.push_str(&format!("-{n:x}")),
            (0, -2) => out.push('.'),
            (d @ 1..=4, -1) => out.push((b'f' + d as u8) as char),
            _ => return None,
        }
        Some(1)
    }
}

static TOKENS: &[&dyn Token<Clue>] = &[&PencilClue, &Gap { from: b'k', to: b'z', first: 1 }];

fn codec(cells: usize) -> Cells<Clue> {
    Cells { len: cells, blank: NONE, tokens: TOKENS, what: "cells" }
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let clues = env.decode(&codec(env.rows * env.cols))?;
    Ok(Box::new(Pencils { rows: env.rows, cols: env.cols, clues }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    let dirs = p.grid("dir", (rows, cols), |v| (0..=4).contains(&v), "0 (none), 1 up, 2 down, 3 left or 4 right")?;
    let what = "a number from 0 to 255, -1 (none) or -2 (not shown)";
    let numbers = p.grid("clue", (rows, cols), |v| (-2..256).contains(&v), what)?;
    if let Some(k) = (0..rows * cols).find(|&k| dirs[k] > 0 && numbers[k] != -1) {
        return Err(ParamError {
            param: "clue".into(),
            found: format!("{} on the tip at row {}, column {}", numbers[k], k / cols + 1, k % cols + 1),
            expected: "-1 on a cell with a tip (`dir` > 0)".into(),
        });
    }
    Ok(Box::new(Pencils { rows, cols, clues: dirs.into_iter().zip(numbers).collect() }))
}

impl Pencils {
    /// Whether a border is drawn between cells `a` and `b` (side by side,
    /// `b` in direction `d` from `a`): round each pencil, given the cells'
    /// pencil directions (0 none), the border between a given tip and its
    /// pencil too, as pzprjs's own answer draws it.
    fn border(pdir: &[Option<i64>], a: usize, b: usize, d: i64) -> Option<bool> {
        let (pa, pb) = (pdir[a]?, pdir[b]?);
        let same_pencil = pa == pb && pa > 0 && (pa - 1) / 2 == (d - 1) / 2;
        Some((pa > 0 || pb > 0) && !same_pencil)
    }
}

impl Instance for Pencils {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        encode_body(&codec(self.clues.len()), &self.clues)
    }

    fn params(&self) -> toml::Table {
        let (dirs, numbers): (Vec<i32>, Vec<i32>) = self.clues.iter().copied().unzip();
        let p = ParamsOut::default().int("rows", self.rows as i64).int("cols", self.cols as i64);
        p.grid("dir", self.cols, &dirs).grid("clue", self.cols, &numbers).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let pdir = answer.ints("pencil", (1, 1), rows, cols)?;
        let tip = answer.ints("tip", (1, 1), rows, cols)?;
        let across = answer.bools("across", (1, 1), rows, cols - 1)?;
        let down = answer.bools("down", (1, 1), rows - 1, cols)?;
        let file = FileText::new("pzprv3", "pencils", &[rows, cols])
            .grid(rows, cols, |r, c| match self.clues[r * cols + c] {
                (0, -1) => ".".into(),
                (0, n) => format!("o{n}"),
                (d, _) => d.to_string(),
            })
            .borders(rows, cols, |vertical, r, c| {
                let (a, b, d) =
                    if vertical { (r * cols + c, r * cols + c + 1, 4) } else { (r * cols + c, (r + 1) * cols + c, 2) };
                answer.mark(Pencils::border(&pdir, a, b, d), "1", "0", "0")
            })
            .center_lines(rows, cols, answer, &across, &down)
            .grid(rows, cols, |r, c| match (self.clues[r * cols + c].0, tip[r * cols + c]) {
                (0, Some(d)) if d > 0 => d.to_string(),
                _ => ".".into(),
            });
        Ok(file.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_reads_its_numbers_and_tips() {
        let env = Envelope::parse("https://puzz.link/p?pencils/5/5/p.3k1ngkh3q").unwrap();
        let clues = env.decode(&codec(25)).unwrap();
        assert_eq!(&clues[5..10], &[NONE, (0, -2), (0, 3), NONE, (0, 1)]);
        assert_eq!((clues[14], clues[16], clues[17]), ((1, -1), (2, -1), (0, 3)));
        assert_eq!(encode_body(&codec(25), &clues).unwrap(), "p.3k1ngkh3q");
    }
}

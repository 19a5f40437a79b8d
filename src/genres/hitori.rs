//! Hitori (pzprjs `hitori`): shade cells so that no number is left twice
//! in a row or column, no two shaded cells touch by a side, and the
//! unshaded cells are one piece.
//!
//! URL: `COLS/ROWS/` and one character per cell: a base-36 digit (0-9,
//! a-z), `-` and two of them for 36 to 1295, `@` (or `%`) a cell without a
//! number shown, `.` an empty cell. File (`pzprv3`): the numbers, then the
//! shaded cells.

use super::board::{Answer, ClueGrid, ParamError, ParamsIn};
use super::codec::{Fault, Mark, Reader, Token, Unwritable, b36};
use super::pzprv3::FileText;
use super::url::Envelope;
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "hitori",
    aliases: &[],
    url_id: "hitori",
    title: "Hitori",
    flags: &[],
    template: include_str!("../../models/genres/hitori.toml"),
    sample: "https://puzz.link/p?hitori/4/4/1114142333214213",
    decode: |env: &Envelope<'_>| Ok(Box::new(Hitori(ClueGrid::decode(env, CELLS)?))),
    read,
    random: |rng, rows, cols| {
        let most = rows.max(cols);
        let grid = ClueGrid::random(rng, (rows, cols), 0.95, |rng| 1 + rng.below(most) as i32);
        Box::new(Hitori(grid))
    },
};

/// A hitori: its numbers (-1 an empty cell, -2 a number not shown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hitori(pub ClueGrid);

/// One cell, a number in base 36: one digit below 36, `-` and two digits
/// below 1296.
struct Base36;

impl Token<i32> for Base36 {
    fn expected(&self) -> String {
        "0-9 or a-z (a number), - and 2 of them".to_string()
    }
    fn read(&self, r: &mut Reader<'_>, _: &i32, out: &mut Vec<i32>) -> Option<Result<(), Fault>> {
        let c = r.peek()?;
        let digits = match c {
            b'0'..=b'9' | b'a'..=b'z' => 1,
            b'-' => {
                r.bump();
                2
            }
            _ => return None,
        };
        let mut value = 0;
        for _ in 0..digits {
            let d = r.peek().and_then(|c| (c as char).to_digit(36).filter(|_| !c.is_ascii_uppercase()));
            let Some(d) = d else { return Some(Err(r.fault("a base-36 digit (0-9, a-z) after '-'"))) };
            r.bump();
            value = value * 36 + d as i32;
        }
        out.push(value);
        Some(Ok(()))
    }
    fn write(&self, items: &[i32], _: &i32, out: &mut String) -> Option<usize> {
        match items[0] {
            v @ 0..36 => out.push(b36(v as u32)),
            v @ 36..1296 => {
                out.push('-');
                out.push(b36(v as u32 / 36));
                out.push(b36(v as u32 % 36));
            }
            _ => return None,
        }
        Some(1)
    }
}

static CELLS: &[&dyn Token<i32>] = &[
    &Base36,
    &Mark { ch: b'@', value: -2, means: "a number not shown" },
    &Mark { ch: b'%', value: -2, means: "a number not shown" },
    &Mark { ch: b'.', value: -1, means: "an empty cell" },
];

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let what = "a number from 0 to 1295, -1 (empty) or -2 (not shown)";
    Ok(Box::new(Hitori(ClueGrid::read(p, |v| (-2..1296).contains(&v), what)?)))
}

impl Instance for Hitori {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.0.rows, self.0.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        self.0.body(CELLS)
    }

    fn params(&self) -> toml::Table {
        self.0.params().0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let shaded = answer.bools("shaded", (1, 1), rows, cols)?;
        let file = FileText::new("pzprv3", "hitori", &[rows, cols]).qnums(rows, cols, &self.0.clues);
        Ok(file.shading(rows, cols, answer, &shaded).finish())
    }
}

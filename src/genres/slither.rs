//! Slitherlink (pzprjs `slither`): one loop along the grid lines; a number
//! counts the loop's edges around its cell.
//!
//! URL: `[f/]COLS/ROWS/` and the clues in pzprjs's 4-cell form. The `f`
//! flag asks that the loop visit every grid point. File (`pzprv3.1`): the
//! clues, a zero background block, then the loop's edges on the cells'
//! sides, the frame included.

use super::board::{Answer, ClueGrid, ParamError, ParamsIn, ParamsOut};
use super::codec::{Cells, FOUR_CELL, Unwritable, encode_body};
use super::pzprv3::{FileText, qnum};
use super::url::{Envelope, MAX_SIDE, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "slither",
    aliases: &["slitherlink"],
    url_id: "slither",
    title: "Slitherlink",
    flags: &[('f', "the loop visits every grid point")],
    template: include_str!("../../models/genres/slither.toml"),
    sample: "https://puzz.link/p?slither/5/5/cbcbcddad",
    decode,
    read,
    random: |rng, rows, cols| {
        let grid =
            ClueGrid::random(rng, (rows, cols), 0.4, |rng| if rng.chance(0.05) { -2 } else { rng.below(4) as i32 });
        Box::new(Slither { rows, cols, clues: grid.clues, full: rng.chance(0.1) })
    },
};

/// A slitherlink: its clues row by row (-1 none, -2 a clue without a
/// number), and whether the loop visits every grid point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slither {
    pub rows: usize,
    pub cols: usize,
    pub clues: Vec<i32>,
    pub full: bool,
}

fn codec(rows: usize, cols: usize) -> Cells<i32> {
    Cells { len: rows * cols, blank: -1, tokens: FOUR_CELL, what: "cell" }
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let clues = env.decode(&codec(env.rows, env.cols))?;
    Ok(Box::new(Slither { rows: env.rows, cols: env.cols, clues, full: env.flag('f') }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let side = 1..=MAX_SIDE as i64;
    let (rows, cols) = (p.int("rows", side.clone())? as usize, p.int("cols", side)? as usize);
    let clues = p.grid("clue", (rows, cols), |v| (-2..=4).contains(&v), "0 to 4, -1 (none) or -2 (no number)")?;
    Ok(Box::new(Slither { rows, cols, clues, full: p.bool("full")? }))
}

impl Instance for Slither {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn flags(&self) -> String {
        if self.full { "f".into() } else { String::new() }
    }

    fn body(&self) -> Result<String, Unwritable> {
        encode_body(&codec(self.rows, self.cols), &self.clues)
    }

    fn params(&self) -> toml::Table {
        let p = ParamsOut::default().int("rows", self.rows as i64).int("cols", self.cols as i64);
        p.grid("clue", self.cols, &self.clues).bool("full", self.full).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = (self.rows, self.cols);
        let across = answer.bools("across", (0, 0), rows + 1, cols)?;
        let down = answer.bools("down", (0, 0), rows, cols + 1)?;
        let mut file = FileText::new("pzprv3.1", "slither", &[rows, cols]);
        if self.full {
            file = file.line("f");
        }
        // A line is 1, a cross (a side the loop does not take) -1.
        let line = |b: Option<bool>| answer.mark(b, "1", "-1", "0");
        let file = file
            .grid(rows, cols, |r, c| qnum(self.clues[r * cols + c]))
            .grid(rows, cols, |_, _| "0".into())
            .grid(rows, cols + 1, |r, c| line(down[r * (cols + 1) + c]))
            .grid(rows + 1, cols, |r, c| line(across[r * cols + c]));
        Ok(file.finish())
    }
}

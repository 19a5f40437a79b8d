//! Gokigen Naname, or Slant (pzprjs `gokigen`): draw a diagonal in every
//! cell so that each number on a grid point counts the diagonals that
//! touch it, and the diagonals never close a loop.
//!
//! URL: `COLS/ROWS/` and the numbers on the (rows + 1) × (cols + 1) grid
//! points in pzprjs's 4-cross form. File (`pzprv3`): the points' numbers,
//! then each cell's diagonal (`1` for \, `2` for /).

use super::board::{Answer, ClueGrid, ParamError, ParamsIn, ParamsOut, read_size};
use super::codec::{FOUR_CELL, Unwritable};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "gokigen",
    aliases: &["slant"],
    url_id: "gokigen",
    title: "Gokigen Naname",
    flags: &[],
    template: include_str!("../../models/genres/gokigen.toml"),
    sample: "https://puzz.link/p?gokigen/4/4/iaegcgcj6a",
    decode,
    read,
    random: |rng, rows, cols| {
        let points = ClueGrid::random(rng, (rows + 1, cols + 1), 0.3, |rng| rng.below(4) as i32);
        Box::new(Gokigen { rows, cols, points })
    },
};

/// A gokigen: its numbers on the grid points, (rows + 1) × (cols + 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gokigen {
    pub rows: usize,
    pub cols: usize,
    pub points: ClueGrid,
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let points = ClueGrid::decode_grid(env, env.rows + 1, env.cols + 1, FOUR_CELL)?;
    Ok(Box::new(Gokigen { rows: env.rows, cols: env.cols, points }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    let what = "0 to 4, -1 (none) or -2 (no number)";
    let clues = p.grid("clue", (rows + 1, cols + 1), |v| (-2..=4).contains(&v), what)?;
    Ok(Box::new(Gokigen { rows, cols, points: ClueGrid { rows: rows + 1, cols: cols + 1, clues } }))
}

impl Instance for Gokigen {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        self.points.body(FOUR_CELL)
    }

    fn params(&self) -> toml::Table {
        let p = ParamsOut::default().int("rows", self.rows as i64).int("cols", self.cols as i64);
        p.grid("clue", self.cols + 1, &self.points.clues).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let back = answer.bools("back", (1, 1), rows, cols)?;
        let file = FileText::new("pzprv3", "gokigen", &[rows, cols])
            .qnums(rows + 1, cols + 1, &self.points.clues)
            .grid(rows, cols, |r, c| match back[r * cols + c] {
                Some(true) => "1".into(),
                Some(false) => "2".into(),
                None => ".".into(),
            });
        Ok(file.finish())
    }
}

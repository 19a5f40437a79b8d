//! Creek (pzprjs `creek`): shade cells so that each number on a grid
//! point counts the shaded cells around it, and the unshaded cells are one
//! piece.
//!
//! URL: `COLS/ROWS/` and the numbers on the (rows + 1) × (cols + 1) grid
//! points in pzprjs's 4-cross form. File (`pzprv3`): the points' numbers,
//! then the shaded cells.

use super::board::{Answer, ClueGrid, ParamError, ParamsIn, ParamsOut, read_size};
use super::codec::{FOUR_CELL, Unwritable};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "creek",
    aliases: &[],
    url_id: "creek",
    title: "Creek",
    flags: &[],
    template: include_str!("../../models/genres/creek.toml"),
    sample: "https://puzz.link/p?creek/6/6/gagaich2cgb6769dt",
    decode,
    read,
    random: |rng, rows, cols| {
        let points = ClueGrid::random(rng, (rows + 1, cols + 1), 0.3, |rng| rng.below(5) as i32);
        Box::new(Creek { rows, cols, points })
    },
};

/// A creek: its numbers on the grid points, (rows + 1) × (cols + 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Creek {
    pub rows: usize,
    pub cols: usize,
    pub points: ClueGrid,
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let codec = ClueGrid::codec(env.rows + 1, env.cols + 1, FOUR_CELL);
    let clues = env.decode(&codec)?;
    Ok(Box::new(Creek {
        rows: env.rows,
        cols: env.cols,
        points: ClueGrid { rows: env.rows + 1, cols: env.cols + 1, clues },
    }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    let what = "0 to 4, -1 (none) or -2 (no number)";
    let clues = p.grid("clue", (rows + 1, cols + 1), |v| (-2..=4).contains(&v), what)?;
    Ok(Box::new(Creek { rows, cols, points: ClueGrid { rows: rows + 1, cols: cols + 1, clues } }))
}

impl Instance for Creek {
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
        let shaded = answer.bools("shaded", (1, 1), rows, cols)?;
        let file = FileText::new("pzprv3", "creek", &[rows, cols]).qnums(rows + 1, cols + 1, &self.points.clues);
        Ok(file.shading(rows, cols, answer, &shaded).finish())
    }
}

//! Fillomino (pzprjs `fillomino`): write a number in every cell so that
//! blocks of equal numbers joined by sides hold as many cells as their
//! number, and blocks of one size never touch by a side.
//!
//! URL: `COLS/ROWS/` and the given numbers in pzprjs's number16. File
//! (`pzprv3`): the given numbers, the numbers written (`.` on a given
//! one), then the borders between blocks (pzprjs's BorderAns, the
//! vertical ones first).

use super::board::{Answer, ClueGrid, ParamError, ParamsIn};
use super::codec::{NUMBER16, Unwritable};
use super::pzprv3::FileText;
use super::url::Envelope;
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "fillomino",
    aliases: &[],
    url_id: "fillomino",
    title: "Fillomino",
    flags: &[],
    template: include_str!("../../models/genres/fillomino.toml"),
    sample: "https://puzz.link/p?fillomino/6/6/h4j53g2k5233k2g14j3h",
    decode: |env: &Envelope<'_>| {
        let grid = ClueGrid::decode(env, NUMBER16)?;
        if let Some(k) = grid.clues.iter().position(|&v| v == 0 || v == -2) {
            let found = format!("the clue {} in cell {}", if grid.clues[k] == 0 { "0" } else { "?" }, k + 1);
            return Err(env.body_error(0, &found, "numbers from 1: a fillomino block has at least one cell"));
        }
        Ok(Box::new(Fillomino(grid)))
    },
    read: |p: &ParamsIn| -> Result<Box<dyn Instance>, ParamError> {
        Ok(Box::new(Fillomino(ClueGrid::read(p, |v| v == -1 || v >= 1, "a number from 1, or -1 (none)")?)))
    },
    random: |rng, rows, cols| {
        Box::new(Fillomino(ClueGrid::random(rng, (rows, cols), 0.4, |rng| 1 + rng.below(4) as i32)))
    },
};

/// A fillomino: its given numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fillomino(pub ClueGrid);

impl Instance for Fillomino {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.0.rows, self.0.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        self.0.body(NUMBER16)
    }

    fn params(&self) -> toml::Table {
        self.0.params().0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let number = answer.ints("number", (1, 1), rows, cols)?;
        let clues = &self.0.clues;
        // A border parts two cells whose numbers are known and differ.
        let apart = |a: usize, b: usize| matches!((number[a], number[b]), (Some(x), Some(y)) if x != y);
        let file = FileText::new("pzprv3", "fillomino", &[rows, cols])
            .qnums(rows, cols, clues)
            .grid(rows, cols, |r, c| match (clues[r * cols + c], number[r * cols + c]) {
                (-1, Some(n)) => n.to_string(),
                _ => ".".into(),
            })
            .borders(rows, cols, |vertical, r, c| {
                let here = r * cols + c;
                let wall = if vertical { apart(here, here + 1) } else { apart(here, here + cols) };
                if wall { "1" } else { "0" }.to_string()
            });
        Ok(file.finish())
    }
}

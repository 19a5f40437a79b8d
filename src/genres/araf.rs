//! Araf (pzprjs `araf`): divide the grid into regions, each holding
//! exactly two numbers and a number of cells strictly between them.
//!
//! URL: `COLS/ROWS/` and the numbers in pzprjs's number16. File
//! (`pzprv3`): the numbers, then the borders between regions (pzprjs's
//! BorderAns, the vertical ones first).

use super::board::{Answer, ClueGrid, ParamError, ParamsIn};
use super::codec::{NUMBER16, Unwritable};
use super::pzprv3::FileText;
use super::url::Envelope;
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "araf",
    aliases: &[],
    url_id: "araf",
    title: "Araf",
    flags: &[],
    template: include_str!("../../models/genres/araf.toml"),
    sample: "https://puzz.link/p?araf/5/5/457m3i8ma57",
    decode: |env: &Envelope<'_>| {
        let grid = ClueGrid::decode(env, NUMBER16)?;
        if let Some(k) = grid.clues.iter().position(|&v| v == 0 || v == -2) {
            let found = format!("the clue {} in cell {}", if grid.clues[k] == 0 { "0" } else { "?" }, k + 1);
            return Err(env.body_error(0, &found, "numbers from 1: somaria reads no araf without them"));
        }
        Ok(Box::new(Araf(grid)))
    },
    read: |p: &ParamsIn| -> Result<Box<dyn Instance>, ParamError> {
        Ok(Box::new(Araf(ClueGrid::read(p, |v| v == -1 || v >= 1, "a number from 1, or -1 (none)")?)))
    },
    random: |rng, rows, cols| Box::new(Araf(ClueGrid::random(rng, (rows, cols), 0.35, |rng| 1 + rng.below(6) as i32))),
};

/// An araf: its numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Araf(pub ClueGrid);

impl Instance for Araf {
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
        let region = answer.ints("region", (1, 1), rows, cols)?;
        let apart = |a: usize, b: usize| Some(region[a]? != region[b]?);
        let file = FileText::new("pzprv3", "araf", &[rows, cols]).qnums(rows, cols, &self.0.clues).borders(
            rows,
            cols,
            |vertical, r, c| {
                let here = r * cols + c;
                let wall = if vertical { apart(here, here + 1) } else { apart(here, here + cols) };
                answer.mark(wall, "1", "-1", "0")
            },
        );
        Ok(file.finish())
    }
}

//! Kurodoko (pzprjs `kurodoko`): shade cells so that no two touch by a
//! side, the unshaded cells are one piece, and each number counts the
//! unshaded cells it sees along its row and column, itself included.
//!
//! URL: `COLS/ROWS/` and the numbers in pzprjs's number16. File (`pzprv3`):
//! the numbers, then the shaded cells.

use super::board::{Answer, ClueGrid, ParamError, ParamsIn};
use super::codec::{NUMBER16, Unwritable};
use super::pzprv3::FileText;
use super::url::Envelope;
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "kurodoko",
    aliases: &[],
    url_id: "kurodoko",
    title: "Kurodoko",
    flags: &[],
    template: include_str!("../../models/genres/kurodoko.toml"),
    sample: "https://puzz.link/p?kurodoko/5/5/i7g5l2l2g4i",
    decode: |env: &Envelope<'_>| Ok(Box::new(Kurodoko(ClueGrid::decode(env, NUMBER16)?))),
    read: |p: &ParamsIn| -> Result<Box<dyn Instance>, ParamError> {
        let what = "a count from 1, -1 (none) or -2 (no number)";
        Ok(Box::new(Kurodoko(ClueGrid::read(p, |v| v == -1 || v == -2 || v >= 1, what)?)))
    },
    random: |rng, rows, cols| {
        let most = rows + cols - 1;
        Box::new(Kurodoko(ClueGrid::random(rng, (rows, cols), 0.25, |rng| {
            if rng.chance(0.05) { -2 } else { 1 + rng.below(most) as i32 }
        })))
    },
};

/// A kurodoko: its numbers (-2 a number not shown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kurodoko(pub ClueGrid);

impl Instance for Kurodoko {
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
        let shaded = answer.bools("shaded", (1, 1), rows, cols)?;
        let file = FileText::new("pzprv3", "kurodoko", &[rows, cols]).qnums(rows, cols, &self.0.clues);
        Ok(file.shading(rows, cols, answer, &shaded).finish())
    }
}

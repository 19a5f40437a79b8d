//! Mochikoro (pzprjs `mochikoro`): shade cells so that the unshaded cells
//! form rectangles, each holding at most one number, its area; the
//! rectangles all join up through their corners, and no 2x2 block is
//! shaded.
//!
//! URL: `COLS/ROWS/` and the numbers in pzprjs's number16. File (`pzprv3`):
//! the numbers, then the shaded cells.

use super::board::{Answer, ClueGrid, ParamError, ParamsIn};
use super::codec::{NUMBER16, Unwritable};
use super::pzprv3::FileText;
use super::url::Envelope;
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "mochikoro",
    aliases: &[],
    url_id: "mochikoro",
    title: "Mochikoro",
    flags: &[],
    template: include_str!("../../models/genres/mochikoro.toml"),
    sample: "https://puzz.link/p?mochikoro/5/5/4p2n1i1",
    decode: |env: &Envelope<'_>| Ok(Box::new(Mochikoro(ClueGrid::decode(env, NUMBER16)?))),
    read: |p: &ParamsIn| -> Result<Box<dyn Instance>, ParamError> {
        let what = "an area from 1, -1 (none) or -2 (no number)";
        Ok(Box::new(Mochikoro(ClueGrid::read(p, |v| v == -1 || v == -2 || v >= 1, what)?)))
    },
    random: |rng, rows, cols| {
        Box::new(Mochikoro(ClueGrid::random(rng, (rows, cols), 0.2, |rng| {
            if rng.chance(0.05) { -2 } else { 1 + rng.below(4) as i32 }
        })))
    },
};

/// A mochikoro: its numbers (-2 a number not shown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mochikoro(pub ClueGrid);

impl Instance for Mochikoro {
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
        let file = FileText::new("pzprv3", "mochikoro", &[rows, cols]).qnums(rows, cols, &self.0.clues);
        Ok(file.shading(rows, cols, answer, &shaded).finish())
    }
}

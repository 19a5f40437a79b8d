//! Cave (pzprjs `cave`, once `bag`): shade the rock so that the unshaded
//! cave is one piece, every piece of rock reaches the grid's edge, and
//! each number counts the cave cells it sees along its row and column,
//! itself included.
//!
//! URL: `COLS/ROWS/` and the numbers in pzprjs's number16. File (`pzprv3`,
//! puzz.link's; npm's pzpr reads these URLs as its older genre `bag`, a
//! loop): the numbers, then the shaded cells.

use super::board::{Answer, ClueGrid, ParamError, ParamsIn};
use super::codec::{NUMBER16, Unwritable};
use super::pzprv3::FileText;
use super::url::Envelope;
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "cave",
    aliases: &["bag"],
    url_id: "cave",
    title: "Cave",
    flags: &[],
    template: include_str!("../../models/genres/cave.toml"),
    sample: "https://puzz.link/p?cave/6/6/g3q2h3jbj3i3i2g",
    decode: |env: &Envelope<'_>| Ok(Box::new(Cave(ClueGrid::decode(env, NUMBER16)?))),
    read: |p: &ParamsIn| -> Result<Box<dyn Instance>, ParamError> {
        let what = "a count from 1, -1 (none) or -2 (no number)";
        Ok(Box::new(Cave(ClueGrid::read(p, |v| v == -1 || v == -2 || v >= 1, what)?)))
    },
    random: |rng, rows, cols| {
        let most = rows + cols - 1;
        Box::new(Cave(ClueGrid::random(rng, (rows, cols), 0.25, |rng| {
            if rng.chance(0.05) { -2 } else { 1 + rng.below(most) as i32 }
        })))
    },
};

/// A cave: its numbers (-2 a number not shown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cave(pub ClueGrid);

impl Instance for Cave {
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
        let file = FileText::new("pzprv3", "cave", &[rows, cols]).qnums(rows, cols, &self.0.clues);
        Ok(file.shading(rows, cols, answer, &shaded).finish())
    }
}

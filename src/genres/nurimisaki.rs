//! Nurimisaki (pzprjs `nurimisaki`): shade cells so that the unshaded
//! cells are one piece with no 2x2 block of either colour; the circles
//! are exactly the unshaded dead ends, and a number counts the cells of
//! its cape (itself and the straight run it points along).
//!
//! URL: `COLS/ROWS/` and the circles in pzprjs's number16 (`.` a circle
//! without a number). File (`pzprv3`, puzz.link's; npm's pzpr does not
//! know the genre): the circles, then the shaded cells.

use super::board::{Answer, ClueGrid, ParamError, ParamsIn};
use super::codec::{NUMBER16, Unwritable};
use super::pzprv3::FileText;
use super::url::Envelope;
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "nurimisaki",
    aliases: &[],
    url_id: "nurimisaki",
    title: "Nurimisaki",
    flags: &[],
    template: include_str!("../../models/genres/nurimisaki.toml"),
    sample: "https://puzz.link/p?nurimisaki/5/5/g.i.m2l.j",
    decode: |env: &Envelope<'_>| Ok(Box::new(Nurimisaki(ClueGrid::decode(env, NUMBER16)?))),
    read: |p: &ParamsIn| -> Result<Box<dyn Instance>, ParamError> {
        let what = "a count from 2, -1 (none) or -2 (a circle without a number)";
        Ok(Box::new(Nurimisaki(ClueGrid::read(p, |v| v == -1 || v == -2 || v >= 1, what)?)))
    },
    random: |rng, rows, cols| {
        let most = rows.max(cols);
        Box::new(Nurimisaki(ClueGrid::random(rng, (rows, cols), 0.2, |rng| {
            if rng.chance(0.6) { -2 } else { 2 + rng.below(most.max(2) - 1) as i32 }
        })))
    },
};

/// A nurimisaki: its circles (-2 without a number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nurimisaki(pub ClueGrid);

impl Instance for Nurimisaki {
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
        let file = FileText::new("pzprv3", "nurimisaki", &[rows, cols]).qnums(rows, cols, &self.0.clues);
        Ok(file.shading(rows, cols, answer, &shaded).finish())
    }
}

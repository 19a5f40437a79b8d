//! Kurotto (pzprjs `kurotto`): shade cells so that each number in a circle
//! counts the shaded cells of the blocks touching the circle by a side.
//!
//! URL: `COLS/ROWS/` and the circles in pzprjs's number16 (`.` a circle
//! without a number). File (`pzprv3`): the circles, then the shaded cells.

use super::board::{Answer, ClueGrid, ParamError, ParamsIn};
use super::codec::{NUMBER16, Unwritable};
use super::pzprv3::FileText;
use super::url::Envelope;
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "kurotto",
    aliases: &[],
    url_id: "kurotto",
    title: "Kurotto",
    flags: &[],
    template: include_str!("../../models/genres/kurotto.toml"),
    sample: "https://puzz.link/p?kurotto/5/5/30m4h6h4m02",
    decode: |env: &Envelope<'_>| Ok(Box::new(Kurotto(ClueGrid::decode(env, NUMBER16)?))),
    read: |p: &ParamsIn| -> Result<Box<dyn Instance>, ParamError> {
        let what = "a number from 0, -1 (no circle) or -2 (a circle without a number)";
        Ok(Box::new(Kurotto(ClueGrid::read(p, |v| v >= -2, what)?)))
    },
    random: |rng, rows, cols| {
        Box::new(Kurotto(ClueGrid::random(rng, (rows, cols), 0.25, |rng| {
            if rng.chance(0.1) { -2 } else { rng.below(4) as i32 }
        })))
    },
};

/// A kurotto: its circles (-2 a circle without a number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kurotto(pub ClueGrid);

impl Instance for Kurotto {
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
        let file = FileText::new("pzprv3", "kurotto", &[rows, cols]).qnums(rows, cols, &self.0.clues);
        Ok(file.shading(rows, cols, answer, &shaded).finish())
    }
}

//! Shikaku (pzprjs `shikaku`): divide the grid into rectangles, each
//! holding one number, its area.
//!
//! URL: `COLS/ROWS/` and the numbers in pzprjs's number16. File (`pzprv3`):
//! the numbers, then the rectangles' borders as pzprjs's BorderAns (between
//! the cells side by side, then between the cells one above the other).

use super::board::{Answer, ClueGrid, ParamError, ParamsIn};
use super::codec::{NUMBER16, Unwritable};
use super::pzprv3::FileText;
use super::url::Envelope;
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "shikaku",
    aliases: &[],
    url_id: "shikaku",
    title: "Shikaku",
    flags: &[],
    template: include_str!("../../models/genres/shikaku.toml"),
    sample: "https://puzz.link/p?shikaku/6/6/j3g56h6t6h23g5j",
    decode: |env: &Envelope<'_>| Ok(Box::new(Shikaku(ClueGrid::decode(env, NUMBER16)?))),
    read: |p: &ParamsIn| -> Result<Box<dyn Instance>, ParamError> {
        let what = "an area from 1, -1 (none) or -2 (no number)";
        Ok(Box::new(Shikaku(ClueGrid::read(p, |v| v == -1 || v == -2 || v >= 1, what)?)))
    },
    random: |rng, rows, cols| {
        let most = rows.max(cols) * 2;
        Box::new(Shikaku(ClueGrid::random(rng, (rows, cols), 0.3, |rng| {
            if rng.chance(0.05) { -2 } else { 1 + rng.below(most) as i32 }
        })))
    },
};

/// A shikaku: its numbers (areas from 1, -2 a rectangle of any area).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shikaku(pub ClueGrid);

impl Instance for Shikaku {
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
        let owner = answer.ints("owner", (1, 1), rows, cols)?;
        let apart = |a: usize, b: usize| Some(owner[a]? != owner[b]?);
        let file = FileText::new("pzprv3", "shikaku", &[rows, cols]).qnums(rows, cols, &self.0.clues).borders(
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

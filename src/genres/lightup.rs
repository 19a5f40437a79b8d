//! Light Up, or Akari (pzprjs `lightup`, `akari` in URLs): place lights so
//! that every white cell is lit, no light shines on another, and each
//! numbered wall has that many lights beside it.
//!
//! URL: `COLS/ROWS/` and the walls in pzprjs's 4-cell form (`.` a wall
//! without a number). File (`pzprv3`): one grid of the walls (a number, or
//! `-`), the lights (`#`) and the dotted cells (`+`).

use super::board::{Answer, ClueGrid, ParamError, ParamsIn};
use super::codec::{FOUR_CELL, Unwritable};
use super::pzprv3::FileText;
use super::url::Envelope;
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "lightup",
    aliases: &["akari"],
    url_id: "akari",
    title: "Light Up",
    flags: &[],
    template: include_str!("../../models/genres/lightup.toml"),
    sample: "https://puzz.link/p?akari/6/6/nekcakbl",
    decode: |env: &Envelope<'_>| Ok(Box::new(LightUp(ClueGrid::decode(env, FOUR_CELL)?))),
    read,
    random: |rng, rows, cols| {
        Box::new(LightUp(ClueGrid::random(rng, (rows, cols), 0.25, |rng| {
            if rng.chance(0.4) { -2 } else { rng.below(4) as i32 }
        })))
    },
};

/// A light up: its walls (-2 a wall without a number, 0 to 4 a numbered
/// one; -1 a white cell).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LightUp(pub ClueGrid);

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let what = "0 to 4 (a numbered wall), -2 (a wall) or -1 (a white cell)";
    Ok(Box::new(LightUp(ClueGrid::read(p, |v| (-2..=4).contains(&v), what)?)))
}

impl Instance for LightUp {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.0.rows, self.0.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        self.0.body(FOUR_CELL)
    }

    fn params(&self) -> toml::Table {
        self.0.params().0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let light = answer.bools("light", (1, 1), rows, cols)?;
        let file = FileText::new("pzprv3", "lightup", &[rows, cols]).grid(rows, cols, |r, c| match self.0.at(r, c) {
            -2 => "-".into(),
            n if n >= 0 => n.to_string(),
            _ => answer.mark(light[r * cols + c], "#", "+", "."),
        });
        Ok(file.finish())
    }
}

//! Nurikabe (pzprjs `nurikabe`): shade the sea around islands of given
//! sizes, one number each.
//!
//! URL: `COLS/ROWS/` and the clues in pzprjs's number16. File (`pzprv3`):
//! one grid of the numbers (`-` for a clue without a number), the shaded
//! cells (`#`) and the dotted ones (`+`).

use super::board::{Answer, ClueGrid, ParamError, ParamsIn};
use super::codec::{NUMBER16, Unwritable};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "nurikabe",
    aliases: &[],
    url_id: "nurikabe",
    title: "Nurikabe",
    flags: &[],
    template: include_str!("../../models/genres/nurikabe.toml"),
    sample: "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g",
    decode,
    read,
    random: |rng, rows, cols| {
        let most = (rows * cols).min(9);
        Box::new(Nurikabe(ClueGrid::random(rng, (rows, cols), 0.25, |rng| {
            if rng.chance(0.1) { -2 } else { 1 + rng.below(most) as i32 }
        })))
    },
};

/// A nurikabe: its clues (island sizes from 1, -2 a clue without a number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nurikabe(pub ClueGrid);

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let grid = ClueGrid::decode(env, NUMBER16)?;
    if let Some(k) = grid.clues.iter().position(|&v| v == 0) {
        return Err(env.body_error(0, &format!("an island of size 0 in cell {}", k + 1), "island sizes from 1"));
    }
    Ok(Box::new(Nurikabe(grid)))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let grid = ClueGrid::read(p, |v| v == -1 || v == -2 || v >= 1, "a size from 1, -1 (none) or -2 (no number)")?;
    Ok(Box::new(Nurikabe(grid)))
}

impl Instance for Nurikabe {
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
        let file = FileText::new("pzprv3", "nurikabe", &[rows, cols]).grid(rows, cols, |r, c| match self.0.at(r, c) {
            -2 => "-".into(),
            n if n >= 0 => n.to_string(),
            _ => answer.mark(shaded[r * cols + c], "#", "+", "."),
        });
        Ok(file.finish())
    }
}

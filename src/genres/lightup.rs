//! Light Up, or Akari (pzprjs `lightup`, `akari` in URLs): place lights so
//! that every white cell is lit, no light shines on another, and each
//! numbered wall has that many lights beside it.
//!
//! URL: `COLS/ROWS/` and the walls in pzprjs's 4-cell form (`.` a wall
//! without a number). File (`pzprv3`): one grid of the walls (a number, or
//! `-`), the lights (`#`) and the dotted cells (`+`). Parameters: `wall`
//! (1 a wall) and `clue` (a wall's number, -1 none) apart, so that the
//! walls are the grid a puzzle is made on and the numbers its clues.

use super::board::{Answer, ClueGrid, ParamError, ParamsIn, ParamsOut, read_size};
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
/// one; -1 a white cell), pzprjs's one grid of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LightUp(pub ClueGrid);

/// The grid from `wall` and `clue`: a number stands only on a wall.
fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    let walls = p.grid("wall", (rows, cols), |v| (0..=1).contains(&v), "0 (a white cell) or 1 (a wall)")?;
    let numbers = p.grid("clue", (rows, cols), |v| (-1..=4).contains(&v), "0 to 4 (a wall's number) or -1 (none)")?;
    if let Some(k) = (0..rows * cols).find(|&k| walls[k] == 0 && numbers[k] != -1) {
        return Err(ParamError {
            param: "clue".into(),
            found: format!("{} on the white cell at row {}, column {}", numbers[k], k / cols + 1, k % cols + 1),
            expected: "numbers only on walls (`wall` 1), -1 elsewhere".into(),
        });
    }
    let clues = walls
        .iter()
        .zip(numbers)
        .map(|(&wall, number)| match (wall, number) {
            (0, _) => -1,
            (_, -1) => -2,
            (_, n) => n,
        })
        .collect();
    Ok(Box::new(LightUp(ClueGrid { rows, cols, clues })))
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
        let grid = &self.0;
        let walls: Vec<i32> = grid.clues.iter().map(|&v| i32::from(v != -1)).collect();
        let numbers: Vec<i32> = grid.clues.iter().map(|&v| v.max(-1)).collect();
        let p = ParamsOut::default().int("rows", grid.rows as i64).int("cols", grid.cols as i64);
        p.grid("wall", grid.cols, &walls).grid("clue", grid.cols, &numbers).0
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

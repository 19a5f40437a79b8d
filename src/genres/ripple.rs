//! Ripple Effect (pzprjs `ripple`): fill each room with 1 to its size;
//! two equal digits n in a row or column have at least n cells between
//! them.
//!
//! URL: `COLS/ROWS/`, the borders, then the givens in number16. File
//! (`pzprv3`): the borders as pzprjs's BorderQues, the givens, then the
//! digits written in.

use super::board::{Answer, ParamError, ParamsIn, RoomGrid};
use super::codec::{Borders, Cells, NUMBER16, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "ripple",
    aliases: &["hakyukoka"],
    url_id: "ripple",
    title: "Ripple Effect",
    flags: &[],
    template: include_str!("../../models/genres/ripple.toml"),
    sample: "https://puzz.link/p?ripple/4/4/9n8rigk14h32k",
    decode,
    read,
    random: |rng, rows, cols| {
        let grid = RoomGrid::random(rng, rows, cols);
        let clues = (0..rows * cols).map(|_| if rng.chance(0.2) { 1 + rng.below(3) as i32 } else { -1 }).collect();
        Box::new(Ripple { grid, clues })
    },
};

/// A ripple effect: its rooms and givens (-1 none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ripple {
    pub grid: RoomGrid,
    pub clues: Vec<i32>,
}

fn codec(rows: usize, cols: usize) -> (Borders, Cells<i32>) {
    (Borders { rows, cols }, Cells { len: rows * cols, blank: -1, tokens: NUMBER16, what: "cell" })
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let (walls, clues) = env.decode(&codec(env.rows, env.cols))?;
    Ok(Box::new(Ripple { grid: RoomGrid::new(walls), clues }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let grid = RoomGrid::read(p)?;
    let clues = p.grid("clue", grid.size(), |v| v == -1 || v == -2 || v >= 1, "a digit from 1, -1 or -2")?;
    Ok(Box::new(Ripple { grid, clues }))
}

impl Instance for Ripple {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        self.grid.size()
    }

    fn body(&self) -> Result<String, Unwritable> {
        let (rows, cols) = self.size();
        encode_body(&codec(rows, cols), &(self.grid.walls.clone(), self.clues.clone()))
    }

    fn params(&self) -> toml::Table {
        self.grid.params().grid("clue", self.size().1, &self.clues).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let digits = answer.ints("digit", (1, 1), rows, cols)?;
        let file = FileText::new("pzprv3", "ripple", &[rows, cols])
            .walls(&self.grid.walls)
            .qnums(rows, cols, &self.clues)
            .grid(rows, cols, |r, c| match (self.clues[r * cols + c], digits[r * cols + c]) {
                (-1, Some(d)) => d.to_string(),
                _ => ".".into(),
            });
        Ok(file.finish())
    }
}

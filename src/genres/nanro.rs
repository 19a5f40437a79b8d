//! Nanro (pzprjs `nanro`): write numbers in some cells so that every room
//! holds at least one, each number in a room is the count of its numbered
//! cells, the numbered cells are one piece with no 2x2 block, and equal
//! numbers never touch across a room border.
//!
//! URL: `COLS/ROWS/`, the borders, then the givens in number16. File (npm
//! pzpr's, an older layout than puzz.link's, which puzz.link also opens):
//! the rooms, the givens, then the numbers written in.

use super::board::{Answer, ParamError, ParamsIn, RoomGrid};
use super::codec::{Borders, Cells, NUMBER16, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "nanro",
    aliases: &[],
    url_id: "nanro",
    title: "Nanro",
    flags: &[],
    template: include_str!("../../models/genres/nanro.toml"),
    sample: "https://puzz.link/p?nanro/4/4/6r0s1oi13n1h",
    decode,
    read,
    random: |rng, rows, cols| {
        let grid = RoomGrid::random(rng, rows, cols);
        let givens = (0..rows * cols).map(|_| if rng.chance(0.15) { 1 + rng.below(3) as i32 } else { -1 }).collect();
        Box::new(Nanro { grid, givens })
    },
};

/// A nanro: its rooms and givens (-1 none, -2 a number not shown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nanro {
    pub grid: RoomGrid,
    pub givens: Vec<i32>,
}

fn codec(rows: usize, cols: usize) -> (Borders, Cells<i32>) {
    (Borders { rows, cols }, Cells { len: rows * cols, blank: -1, tokens: NUMBER16, what: "cell" })
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let (walls, givens) = env.decode(&codec(env.rows, env.cols))?;
    Ok(Box::new(Nanro { grid: RoomGrid::new(walls), givens }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let grid = RoomGrid::read(p)?;
    let givens = p.grid("clue", grid.size(), |v| v >= -2 && v != 0, "a number from 1, -1 (none) or -2")?;
    Ok(Box::new(Nanro { grid, givens }))
}

impl Instance for Nanro {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        self.grid.size()
    }

    fn body(&self) -> Result<String, Unwritable> {
        let (rows, cols) = self.size();
        encode_body(&codec(rows, cols), &(self.grid.walls.clone(), self.givens.clone()))
    }

    fn params(&self) -> toml::Table {
        self.grid.params().grid("clue", self.size().1, &self.givens).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let number = answer.ints("number", (1, 1), rows, cols)?;
        let file = FileText::new("pzprv3", "nanro", &[rows, cols])
            .rooms(&self.grid.rooms, rows, cols)
            .qnums(rows, cols, &self.givens)
            .grid(rows, cols, |r, c| match (self.givens[r * cols + c], number[r * cols + c]) {
                (-1, Some(n)) if n > 0 => n.to_string(),
                (-1, Some(0)) if answer.is_state() => "+".into(),
                _ => ".".into(),
            });
        Ok(file.finish())
    }
}

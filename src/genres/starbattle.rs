//! Star Battle (pzprjs `starbattle`): place stars so that every row,
//! column and room holds the same number of them, and no two stars touch,
//! not even at a corner.
//!
//! URL: `COLS/ROWS/STARS/` and the borders. File (npm pzpr's): the number
//! of stars, the rooms, then the stars (`#`) and dotted cells (`+`).

use super::board::{Answer, ParamError, ParamsIn, RoomGrid};
use super::codec::{Borders, Decimal, Literal, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, MAX_SIDE, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "starbattle",
    aliases: &[],
    url_id: "starbattle",
    title: "Star Battle",
    flags: &[],
    template: include_str!("../../models/genres/starbattle.toml"),
    sample: "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou",
    decode,
    read,
    random: |rng, rows, cols| {
        Box::new(StarBattle { grid: RoomGrid::random(rng, rows, cols), stars: 1 + rng.below(2) as i64 })
    },
};

/// A star battle: its rooms and the stars in each row, column and room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StarBattle {
    pub grid: RoomGrid,
    pub stars: i64,
}

fn codec(rows: usize, cols: usize) -> (Decimal, Literal, Borders) {
    (Decimal { min: 1, max: MAX_SIDE as i64, what: "the stars per row" }, Literal(b'/'), Borders { rows, cols })
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let (stars, (), walls) = env.decode(&codec(env.rows, env.cols))?;
    Ok(Box::new(StarBattle { grid: RoomGrid::new(walls), stars }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let grid = RoomGrid::read(p)?;
    let stars = p.int("stars", 1..=MAX_SIDE as i64)?;
    Ok(Box::new(StarBattle { grid, stars }))
}

impl Instance for StarBattle {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        self.grid.size()
    }

    fn body(&self) -> Result<String, Unwritable> {
        let (rows, cols) = self.size();
        encode_body(&codec(rows, cols), &(self.stars, (), self.grid.walls.clone()))
    }

    fn params(&self) -> toml::Table {
        self.grid.params().int("stars", self.stars).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let star = answer.bools("star", (1, 1), rows, cols)?;
        let file = FileText::new("pzprv3", "starbattle", &[rows, cols])
            .line(&self.stars.to_string())
            .rooms(&self.grid.rooms, rows, cols)
            .shading(rows, cols, answer, &star);
        Ok(file.finish())
    }
}

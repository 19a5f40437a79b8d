//! Country Road (pzprjs `country`): draw one loop through the cells'
//! centres that visits every room once; a room's number counts its cells
//! on the loop, and two cells off the loop never touch across a room
//! border.
//!
//! URL: `[e/]COLS/ROWS/`, the borders, then one number16 entry per room;
//! `e` lets the loop skip rooms. File (npm pzpr's, an older layout than
//! puzz.link's, which puzz.link also opens): the rooms, the numbers, the
//! loop as BorderLine, then an empty background block.

use super::board::{
    Answer, ParamError, ParamsIn, RoomGrid, room_numbers_codec, room_values_at_top, room_values_of_grid,
};
use super::codec::Unwritable;
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "country",
    aliases: &[],
    url_id: "country",
    title: "Country Road",
    flags: &[('e', "the loop may leave rooms out")],
    template: include_str!("../../models/genres/country.toml"),
    sample: "https://puzz.link/p?country/5/5/amda0uf02h12h",
    decode,
    read,
    random: |rng, rows, cols| {
        let grid = RoomGrid::random(rng, rows, cols);
        let numbers =
            (0..grid.rooms.count).map(|_| if rng.chance(0.4) { 1 + rng.below(4) as i32 } else { -1 }).collect();
        Box::new(Country { grid, numbers, may_skip: rng.chance(0.2) })
    },
};

/// A country road: its rooms, each room's number (-1 none), and whether
/// rooms may be left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Country {
    pub grid: RoomGrid,
    pub numbers: Vec<i32>,
    pub may_skip: bool,
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let (walls, numbers) = env.decode(&room_numbers_codec(env.rows, env.cols))?;
    Ok(Box::new(Country { grid: RoomGrid::new(walls), numbers, may_skip: env.flag('e') }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let grid = RoomGrid::read(p)?;
    let clue = p.grid("clue", grid.size(), |v| v >= -2, "a number from 0, -1 (none) or -2 (no number)")?;
    let numbers = room_values_of_grid(&grid.rooms, &clue, "clue")?;
    Ok(Box::new(Country { grid, numbers, may_skip: p.bool("may_skip")? }))
}

impl Instance for Country {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        self.grid.size()
    }

    fn flags(&self) -> String {
        if self.may_skip { "e".into() } else { String::new() }
    }

    fn body(&self) -> Result<String, Unwritable> {
        let (rows, cols) = self.size();
        super::codec::encode_body(&room_numbers_codec(rows, cols), &(self.grid.walls.clone(), self.numbers.clone()))
    }

    fn params(&self) -> toml::Table {
        let (rows, cols) = self.size();
        let clue = room_values_at_top(&self.grid.rooms, &self.numbers, rows * cols);
        self.grid.params().grid("clue", cols, &clue).bool("may_skip", self.may_skip).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let across = answer.bools("across", (1, 1), rows, cols - 1)?;
        let down = answer.bools("down", (1, 1), rows - 1, cols)?;
        let clue = room_values_at_top(&self.grid.rooms, &self.numbers, rows * cols);
        let file = FileText::new("pzprv3", "country", &[rows, cols])
            .rooms(&self.grid.rooms, rows, cols)
            .qnums(rows, cols, &clue)
            .center_lines(rows, cols, answer, &across, &down)
            .grid(rows, cols, |_, _| "0".into());
        Ok(file.finish())
    }
}

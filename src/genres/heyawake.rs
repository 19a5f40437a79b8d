//! Heyawake (pzprjs `heyawake`): shade cells so that no two touch by a
//! side, the unshaded cells are one piece, a room's number counts its
//! shaded cells, and no straight run of unshaded cells crosses two room
//! borders.
//!
//! URL: `COLS/ROWS/`, the borders, then one number16 entry per room in
//! pzprjs's room order. File (npm pzpr's): the rooms, the numbers (at each
//! room's top cell), then the shaded cells.

use super::board::{
    Answer, ParamError, ParamsIn, RoomGrid, Rooms, room_numbers_codec, room_values_at_top, room_values_of_grid,
};
use super::codec::{Unwritable, Walls, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "heyawake",
    aliases: &["heyawacky"],
    url_id: "heyawake",
    title: "Heyawake",
    flags: &[],
    template: include_str!("../../models/genres/heyawake.toml"),
    sample: "https://puzz.link/p?heyawake/6/6/lll155007rs12222j",
    decode,
    read,
    random: |rng, rows, cols| {
        // Some borders inside rooms too, which pzprjs counts in runs.
        let mut walls = RoomGrid::random(rng, rows, cols).walls;
        for wall in walls.vertical.iter_mut().chain(walls.horizontal.iter_mut()) {
            *wall |= rng.chance(0.1);
        }
        let grid = RoomGrid::new(walls);
        let numbers = (0..grid.rooms.count).map(|_| if rng.chance(0.5) { rng.below(4) as i32 } else { -1 }).collect();
        Box::new(Heyawake { grid, numbers })
    },
};

/// A heyawake: its rooms and each room's number (-1 none, -2 a `?`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heyawake {
    pub grid: RoomGrid,
    pub numbers: Vec<i32>,
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let (walls, numbers) = env.decode(&room_numbers_codec(env.rows, env.cols))?;
    Ok(Box::new(Heyawake { grid: RoomGrid::new(walls), numbers }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let mut grid = RoomGrid::read(p)?;
    let (rows, cols) = grid.size();
    // The borders as given, a border inside a room included: pzprjs counts
    // it in a run of unshaded cells.
    let bit = |v: i64| v == 0 || v == 1;
    let right = p.list("border_right", rows * (cols - 1), bit, "0 or 1")?;
    let below = p.list("border_below", (rows - 1) * cols, bit, "0 or 1")?;
    let on = |b: Vec<i32>| b.into_iter().map(|b| b == 1).collect();
    let walls = Walls { rows, cols, vertical: on(right), horizontal: on(below) };
    if Rooms::of(&walls) != grid.rooms {
        let found = "borders that divide the grid otherwise than `room` does".to_string();
        let expected = "the borders of the rooms of `room`, and any inside a room".to_string();
        return Err(ParamError { param: "border_right".into(), found, expected });
    }
    grid.walls = walls;
    let clue = p.grid("clue", (rows, cols), |v| v >= -2, "a number from 0, -1 (none) or -2 (no number)")?;
    let numbers = room_values_of_grid(&grid.rooms, &clue, "clue")?;
    Ok(Box::new(Heyawake { grid, numbers }))
}

impl Instance for Heyawake {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        self.grid.size()
    }

    fn body(&self) -> Result<String, Unwritable> {
        let (rows, cols) = self.size();
        encode_body(&room_numbers_codec(rows, cols), &(self.grid.walls.clone(), self.numbers.clone()))
    }

    fn params(&self) -> toml::Table {
        let (rows, cols) = self.size();
        let clue = room_values_at_top(&self.grid.rooms, &self.numbers, rows * cols);
        let walls = &self.grid.walls;
        let bits = |b: &[bool]| b.iter().map(|&b| i64::from(b)).collect::<Vec<i64>>();
        let p = self.grid.params().grid("clue", cols, &clue);
        p.list("border_right", bits(&walls.vertical)).list("border_below", bits(&walls.horizontal)).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let shaded = answer.bools("shaded", (1, 1), rows, cols)?;
        let clue = room_values_at_top(&self.grid.rooms, &self.numbers, rows * cols);
        let file = FileText::new("pzprv3", "heyawake", &[rows, cols])
            .rooms(&self.grid.rooms, rows, cols)
            .qnums(rows, cols, &clue)
            .shading(rows, cols, answer, &shaded);
        Ok(file.finish())
    }
}

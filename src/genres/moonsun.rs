//! Moon or Sun (pzprjs `moonsun`): draw one loop through the cells'
//! centres that visits every room once, passing in each room either all
//! its moons and no sun or all its suns and no moon, the rooms taking
//! turns: a room of moons next to a room of suns along the loop.
//!
//! URL: `COLS/ROWS/`, the borders, then the marks three cells to a
//! base-27 character (1 and 2 the two kinds). File (npm pzpr's, an older
//! layout than puzz.link's, which puzz.link also opens): the rooms, the
//! marks, the loop as BorderLine, then an empty background block.

use super::board::{Answer, ParamError, ParamsIn, RoomGrid};
use super::codec::{Borders, Packed, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "moonsun",
    aliases: &[],
    url_id: "moonsun",
    title: "Moon or Sun",
    flags: &[],
    template: include_str!("../../models/genres/moonsun.toml"),
    sample: "https://puzz.link/p?moonsun/6/6/44ccaa0c0vo0f1767932ii12",
    decode,
    read,
    random: |rng, rows, cols| {
        let grid = RoomGrid::random(rng, rows, cols);
        let marks = (0..rows * cols).map(|_| if rng.chance(0.4) { 1 + rng.below(2) as i32 } else { -1 }).collect();
        Box::new(MoonSun { grid, marks })
    },
};

/// A moon or sun: its rooms and marks (1 and 2, -1 none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoonSun {
    pub grid: RoomGrid,
    pub marks: Vec<i32>,
}

fn codec(rows: usize, cols: usize) -> (Borders, Packed) {
    (Borders { rows, cols }, Packed { len: rows * cols, base: 3, per_char: 3, what: "marks (0-9, a-q)" })
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let (walls, marks) = env.decode(&codec(env.rows, env.cols))?;
    let marks = marks.into_iter().map(|m| if m == 0 { -1 } else { i32::from(m) }).collect();
    Ok(Box::new(MoonSun { grid: RoomGrid::new(walls), marks }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let grid = RoomGrid::read(p)?;
    let marks = p.grid("mark", grid.size(), |v| [-1, 1, 2].contains(&v), "1, 2 or -1 (none)")?;
    Ok(Box::new(MoonSun { grid, marks }))
}

impl Instance for MoonSun {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        self.grid.size()
    }

    fn body(&self) -> Result<String, Unwritable> {
        let (rows, cols) = self.size();
        let marks: Vec<u8> = self.marks.iter().map(|&m| m.max(0) as u8).collect();
        encode_body(&codec(rows, cols), &(self.grid.walls.clone(), marks))
    }

    fn params(&self) -> toml::Table {
        self.grid.params().grid("mark", self.size().1, &self.marks).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let across = answer.bools("across", (1, 1), rows, cols - 1)?;
        let down = answer.bools("down", (1, 1), rows - 1, cols)?;
        let file = FileText::new("pzprv3", "moonsun", &[rows, cols])
            .rooms(&self.grid.rooms, rows, cols)
            .qnums(rows, cols, &self.marks)
            .center_lines(rows, cols, answer, &across, &down)
            .grid(rows, cols, |_, _| "0".into());
        Ok(file.finish())
    }
}

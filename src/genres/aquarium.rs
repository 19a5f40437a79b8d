//! Aquarium (pzprjs `aquarium`): fill some cells with water so that the
//! numbers outside count the water cells of their row or column, and the
//! water in each tank lies level: water rests on water or the tank's wall
//! below and beside it, and each pool's surface is flat.
//!
//! URL: `[r/]COLS/ROWS/`, the borders, `/`, then the numbers above the
//! columns and left of the rows (number16 for outside cells). The `r`
//! flag asks for one level per tank rather than per pool. File (`pzprv3`,
//! puzz.link's; npm's pzpr does not know the genre): the flag, the
//! borders, then one grid with the numbers on its top and left and the
//! water (`#`).

use super::board::{Answer, ParamError, ParamsIn, RoomGrid, as_i64, outside_codec, random_outside};
use super::codec::{Borders, Cells, Literal, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "aquarium",
    aliases: &[],
    url_id: "aquarium",
    title: "Aquarium",
    flags: &[('r', "one water level per tank, not per pool")],
    template: include_str!("../../models/genres/aquarium.toml"),
    sample: "https://puzz.link/p?aquarium/4/4/bu8i90/i3213g",
    decode,
    read,
    random: |rng, rows, cols| {
        let grid = RoomGrid::random(rng, rows, cols);
        let outside = random_outside(rng, rows + cols, 0.5, rows.max(cols));
        Box::new(Aquarium { grid, outside, per_tank: rng.chance(0.3) })
    },
};

/// An aquarium: its tanks, the numbers above the columns then left of the
/// rows (-1 none), and whether each tank has one level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Aquarium {
    pub grid: RoomGrid,
    pub outside: Vec<i32>,
    pub per_tank: bool,
}

fn codec(rows: usize, cols: usize) -> (Borders, Literal, Cells<i32>) {
    (Borders { rows, cols }, Literal(b'/'), outside_codec(rows, cols))
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let (walls, (), outside) = env.decode(&codec(env.rows, env.cols))?;
    Ok(Box::new(Aquarium { grid: RoomGrid::new(walls), outside, per_tank: env.flag('r') }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let grid = RoomGrid::read(p)?;
    let (rows, cols) = grid.size();
    let ok = |v: i64| v >= -2;
    let what = "a count from 0, -1 (none) or -2 (no number)";
    let mut outside = p.list("col_count", cols, ok, what)?;
    outside.extend(p.list("row_count", rows, ok, what)?);
    Ok(Box::new(Aquarium { grid, outside, per_tank: p.bool("per_tank")? }))
}

impl Instance for Aquarium {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        self.grid.size()
    }

    fn flags(&self) -> String {
        if self.per_tank { "r".into() } else { String::new() }
    }

    fn body(&self) -> Result<String, Unwritable> {
        let (rows, cols) = self.size();
        encode_body(&codec(rows, cols), &(self.grid.walls.clone(), (), self.outside.clone()))
    }

    fn params(&self) -> toml::Table {
        let cols = self.size().1;
        let p = self.grid.params().list("col_count", as_i64(&self.outside[..cols]));
        p.list("row_count", as_i64(&self.outside[cols..])).bool("per_tank", self.per_tank).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let water = answer.bools("water", (1, 1), rows, cols)?;
        let mut file = FileText::new("pzprv3", "aquarium", &[rows, cols]);
        if self.per_tank {
            file = file.line("r");
        }
        let number = |v: i32| if v == -1 { ".".to_string() } else { v.to_string() };
        let file = file.walls(&self.grid.walls).grid(rows + 1, cols + 1, |r, c| match (r, c) {
            (0, 0) => ".".into(),
            (0, c) => number(self.outside[c - 1]),
            (r, 0) => number(self.outside[cols + r - 1]),
            (r, c) => answer.mark(water[(r - 1) * cols + c - 1], "#", "+", "."),
        });
        Ok(file.finish())
    }
}

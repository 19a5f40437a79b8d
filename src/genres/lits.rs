//! LITS (pzprjs `lits`): shade four cells in every room, one piece each
//! (an L, I, T or S tetromino), so that all shaded cells are one piece,
//! no 2x2 block is shaded, and two tetrominoes of the same shape never
//! touch across a room border (rotations and reflections alike).
//!
//! URL: `COLS/ROWS/` and the borders. File (`pzprv3`): the rooms, then the
//! shaded cells.

use super::board::{Answer, ParamError, ParamsIn, RoomGrid};
use super::codec::{Borders, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::Envelope;
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "lits",
    aliases: &[],
    url_id: "lits",
    title: "LITS",
    flags: &[],
    template: include_str!("../../models/genres/lits.toml"),
    sample: "https://puzz.link/p?lits/4/4/9q02jg",
    decode: |env: &Envelope<'_>| {
        Ok(Box::new(Lits(RoomGrid::new(env.decode(&Borders { rows: env.rows, cols: env.cols })?))))
    },
    read: |p: &ParamsIn| -> Result<Box<dyn Instance>, ParamError> { Ok(Box::new(Lits(RoomGrid::read(p)?))) },
    random: |rng, rows, cols| Box::new(Lits(RoomGrid::random(rng, rows, cols))),
};

/// A LITS: its rooms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lits(pub RoomGrid);

impl Instance for Lits {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        self.0.size()
    }

    fn body(&self) -> Result<String, Unwritable> {
        let (rows, cols) = self.size();
        encode_body(&Borders { rows, cols }, &self.0.walls)
    }

    fn params(&self) -> toml::Table {
        self.0.params().0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let shaded = answer.bools("shaded", (1, 1), rows, cols)?;
        let file = FileText::new("pzprv3", "lits", &[rows, cols])
            .rooms(&self.0.rooms, rows, cols)
            .shading(rows, cols, answer, &shaded);
        Ok(file.finish())
    }
}

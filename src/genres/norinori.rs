//! Norinori (pzprjs `norinori`): shade two cells in every room so that the
//! shaded cells pair up into dominoes, each shaded cell beside exactly one
//! other.
//!
//! URL: `COLS/ROWS/` and the borders. File (npm pzpr's, an older layout
//! than puzz.link's, which puzz.link also opens): the rooms, then the
//! shaded cells.

use super::board::{Answer, ParamError, ParamsIn, RoomGrid};
use super::codec::{Borders, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::Envelope;
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "norinori",
    aliases: &[],
    url_id: "norinori",
    title: "Norinori",
    flags: &[],
    template: include_str!("../../models/genres/norinori.toml"),
    sample: "https://puzz.link/p?norinori/5/5/cag4ocjo",
    decode: |env: &Envelope<'_>| {
        Ok(Box::new(Norinori(RoomGrid::new(env.decode(&Borders { rows: env.rows, cols: env.cols })?))))
    },
    read: |p: &ParamsIn| -> Result<Box<dyn Instance>, ParamError> { Ok(Box::new(Norinori(RoomGrid::read(p)?))) },
    random: |rng, rows, cols| Box::new(Norinori(RoomGrid::random(rng, rows, cols))),
};

/// A norinori: its rooms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Norinori(pub RoomGrid);

impl Instance for Norinori {
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
        let file = FileText::new("pzprv3", "norinori", &[rows, cols])
            .rooms(&self.0.rooms, rows, cols)
            .shading(rows, cols, answer, &shaded);
        Ok(file.finish())
    }
}

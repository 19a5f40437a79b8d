//! Masyu (pzprjs `mashu`): draw one loop through the cells' centres that
//! passes every pearl: straight through a white one, turning in a cell
//! next to it; turning on a black one, going straight through both cells
//! after it.
//!
//! URL: `COLS/ROWS/` and the pearls, three cells to a base-27 character
//! (0 none, 1 white, 2 black). File (`pzprv3`): the pearls, then the loop
//! as pzprjs's BorderLine.

use super::board::{Answer, ClueGrid, ParamError, ParamsIn};
use super::codec::{Packed, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::Envelope;
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "mashu",
    aliases: &["masyu", "pearl"],
    url_id: "mashu",
    title: "Masyu",
    flags: &[],
    template: include_str!("../../models/genres/mashu.toml"),
    sample: "https://puzz.link/p?mashu/6/6/1063000i3000",
    decode: |env: &Envelope<'_>| {
        let pearls = env.decode(&codec(env.rows * env.cols))?;
        let clues = pearls.into_iter().map(|v| if v == 0 { -1 } else { i32::from(v) }).collect();
        Ok(Box::new(Mashu(ClueGrid { rows: env.rows, cols: env.cols, clues })))
    },
    read: |p: &ParamsIn| -> Result<Box<dyn Instance>, ParamError> {
        Ok(Box::new(Mashu(ClueGrid::read(p, |v| [-1, 1, 2].contains(&v), "1 (white), 2 (black) or -1 (none)")?)))
    },
    random: |rng, rows, cols| Box::new(Mashu(ClueGrid::random(rng, (rows, cols), 0.2, |rng| 1 + rng.below(2) as i32))),
};

/// A masyu: its pearls (1 white, 2 black, -1 none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mashu(pub ClueGrid);

fn codec(cells: usize) -> Packed {
    Packed { len: cells, base: 3, per_char: 3, what: "pearls (0-9, a-q)" }
}

impl Instance for Mashu {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.0.rows, self.0.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        let pearls: Vec<u8> = self.0.clues.iter().map(|&v| v.max(0) as u8).collect();
        encode_body(&codec(pearls.len()), &pearls)
    }

    fn params(&self) -> toml::Table {
        self.0.params().0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let across = answer.bools("across", (1, 1), rows, cols - 1)?;
        let down = answer.bools("down", (1, 1), rows - 1, cols)?;
        let file = FileText::new("pzprv3", "mashu", &[rows, cols])
            .qnums(rows, cols, &self.0.clues)
            .center_lines(rows, cols, answer, &across, &down);
        Ok(file.finish())
    }
}

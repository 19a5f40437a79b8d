//! Yin-Yang (pzprjs `yinyang`): colour every cell black or white so that
//! each colour is one piece and no 2x2 block is all one colour; some
//! cells are given.
//!
//! URL: `COLS/ROWS/` and the circles, three cells to a base-27 character
//! (0 none, 1 white, 2 black). File (`pzprv3`): the circles, then the
//! colours written in (1 white, 2 black).

use super::board::{Answer, ClueGrid, ParamError, ParamsIn};
use super::codec::{Packed, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::Envelope;
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "yinyang",
    aliases: &[],
    url_id: "yinyang",
    title: "Yin-Yang",
    flags: &[],
    template: include_str!("../../models/genres/yinyang.toml"),
    sample: "https://puzz.link/p?yinyang/5/5/016612300",
    decode: |env: &Envelope<'_>| {
        let circles = env.decode(&codec(env.rows * env.cols))?;
        let clues = circles.into_iter().map(|v| if v == 0 { -1 } else { i32::from(v) }).collect();
        Ok(Box::new(YinYang(ClueGrid { rows: env.rows, cols: env.cols, clues })))
    },
    read: |p: &ParamsIn| -> Result<Box<dyn Instance>, ParamError> {
        Ok(Box::new(YinYang(ClueGrid::read(p, |v| [-1, 1, 2].contains(&v), "1 (white), 2 (black) or -1 (none)")?)))
    },
    random: |rng, rows, cols| {
        Box::new(YinYang(ClueGrid::random(rng, (rows, cols), 0.3, |rng| 1 + rng.below(2) as i32)))
    },
};

/// A yin-yang: its given cells (1 white, 2 black, -1 none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YinYang(pub ClueGrid);

fn codec(cells: usize) -> Packed {
    Packed { len: cells, base: 3, per_char: 3, what: "circles (0-9, a-q)" }
}

impl Instance for YinYang {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.0.rows, self.0.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        let circles: Vec<u8> = self.0.clues.iter().map(|&v| v.max(0) as u8).collect();
        encode_body(&codec(circles.len()), &circles)
    }

    fn params(&self) -> toml::Table {
        self.0.params().0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let black = answer.bools("black", (1, 1), rows, cols)?;
        let file = FileText::new("pzprv3", "yinyang", &[rows, cols]).qnums(rows, cols, &self.0.clues).grid(
            rows,
            cols,
            |r, c| match (self.0.at(r, c), black[r * cols + c]) {
                (-1, Some(b)) => if b { "2" } else { "1" }.into(),
                _ => ".".into(),
            },
        );
        Ok(file.finish())
    }
}

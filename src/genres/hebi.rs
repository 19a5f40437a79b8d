//! Hebi Ichigo (pzprjs `hebi`): place snakes of five cells numbered 1 to 5
//! from the head, never touching each other by a side; an arrow's number
//! is the first number it points at (0 for none), and no head looks
//! straight at another snake.
//!
//! URL: `COLS/ROWS/` and the arrows in pzprjs's ArrowNumber16, as
//! yajilin's. File (`pzprv3`): the arrows as `direction,number`, then the
//! numbers written (`.` on a clue cell or an empty one).

use super::board::{Answer, ParamError, ParamsIn, ParamsOut, read_size};
use super::codec::{Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::yajilin::{BLANK, codec};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "hebi",
    aliases: &["hebiichigo", "snakes"],
    url_id: "hebi",
    title: "Hebi Ichigo",
    flags: &[],
    template: include_str!("../../models/genres/hebi.toml"),
    sample: "https://puzz.link/p?hebi/5/5/a43g31b40b42g45a",
    decode,
    read,
    random: |rng, rows, cols| {
        let arrows = (0..rows * cols)
            .map(|_| if rng.chance(0.15) { (rng.below(5) as i32, rng.below(6) as i32) } else { BLANK })
            .collect();
        Box::new(Hebi { rows, cols, arrows })
    },
};

/// A hebi ichigo: each cell's arrow (direction 0 none, 1 up, 2 down, 3
/// left, 4 right; number from 0, -2 none shown), (0, -1) for a cell that
/// is no clue cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hebi {
    pub rows: usize,
    pub cols: usize,
    pub arrows: Vec<(i32, i32)>,
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let arrows = env.decode(&codec(env.rows, env.cols))?;
    if let Some(k) = arrows.iter().position(|a| a.1 == -3) {
        let found = format!("a clue cell without an arrow or number (+) in cell {}", k + 1);
        return Err(env.body_error(0, &found, "arrows with numbers: hebi has no such clue"));
    }
    Ok(Box::new(Hebi { rows: env.rows, cols: env.cols, arrows }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    let dirs = p.grid("dir", (rows, cols), |v| (0..=4).contains(&v), "0 (none), 1 up, 2 down, 3 left or 4 right")?;
    let what = "a number from 0 to 4095, -1 (no clue) or -2 (none shown)";
    let numbers = p.grid("clue", (rows, cols), |v| (-2..4096).contains(&v), what)?;
    let arrows = dirs.into_iter().zip(numbers).map(|(d, n)| if n == -1 { BLANK } else { (d, n) }).collect();
    Ok(Box::new(Hebi { rows, cols, arrows }))
}

impl Instance for Hebi {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        encode_body(&codec(self.rows, self.cols), &self.arrows)
    }

    fn params(&self) -> toml::Table {
        let dirs: Vec<i32> = self.arrows.iter().map(|a| a.0).collect();
        let numbers: Vec<i32> = self.arrows.iter().map(|a| a.1).collect();
        let p = ParamsOut::default().int("rows", self.rows as i64).int("cols", self.cols as i64);
        p.grid("dir", self.cols, &dirs).grid("clue", self.cols, &numbers).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let number = answer.ints("number", (1, 1), rows, cols)?;
        let file = FileText::new("pzprv3", "hebi", &[rows, cols])
            .grid(rows, cols, |r, c| match self.arrows[r * cols + c] {
                (_, -1) => ".".into(),
                (d, -2) => format!("{d},-"),
                (d, n) => format!("{d},{n}"),
            })
            .grid(rows, cols, |r, c| match number[r * cols + c] {
                Some(n) if n > 0 => n.to_string(),
                _ => ".".into(),
            });
        Ok(file.finish())
    }
}

//! Numberlink (pzprjs `numlin`): join each pair of equal numbers by a line
//! through the cells' centres; lines neither branch nor cross, and cells
//! may stay empty.
//!
//! URL: `COLS/ROWS/` and the numbers in pzprjs's number16. File (`pzprv3`):
//! the numbers, then the lines as pzprjs's BorderLine (between the cells
//! side by side, then between the cells one above the other).

use super::board::{Answer, ClueGrid, ParamError, ParamsIn};
use super::codec::{NUMBER16, Unwritable};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "numlin",
    aliases: &["numberlink"],
    url_id: "numlin",
    title: "Numberlink",
    flags: &[],
    template: include_str!("../../models/genres/numlin.toml"),
    sample: "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3",
    decode,
    read,
    random: |rng, rows, cols| {
        let pairs = (rows * cols / 4).max(1);
        let mut clues = vec![-1; rows * cols];
        for n in 1..=pairs as i32 {
            for _ in 0..2 {
                let free: Vec<usize> = (0..clues.len()).filter(|&k| clues[k] == -1).collect();
                if !free.is_empty() {
                    clues[rng.choose(&free)] = n;
                }
            }
        }
        Box::new(Numlin { grid: ClueGrid { rows, cols, clues }, fill: false })
    },
};

/// A numberlink: its numbers (from 1), and whether every cell is on a line
/// (the variant of Flow Free, which puzz.link's URLs cannot say).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Numlin {
    pub grid: ClueGrid,
    pub fill: bool,
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let grid = ClueGrid::decode(env, NUMBER16)?;
    if let Some(k) = grid.clues.iter().position(|&v| v == 0 || v == -2) {
        let found = format!("the clue {} in cell {}", if grid.clues[k] == 0 { "0" } else { "?" }, k + 1);
        return Err(env.body_error(0, &found, "numbers from 1: somaria reads no numberlink without them"));
    }
    Ok(Box::new(Numlin { grid, fill: false }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let grid = ClueGrid::read(p, |v| v == -1 || v >= 1, "a number from 1, or -1 (none)")?;
    Ok(Box::new(Numlin { grid, fill: p.bool("fill")? }))
}

impl Instance for Numlin {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.grid.rows, self.grid.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        if self.fill {
            return Err(Unwritable(
                "a numberlink whose every cell is on a line: puzz.link's URLs have no such variant".into(),
            ));
        }
        self.grid.body(NUMBER16)
    }

    fn params(&self) -> toml::Table {
        self.grid.params().bool("fill", self.fill).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let across = answer.bools("across", (1, 1), rows, cols - 1)?;
        let down = answer.bools("down", (1, 1), rows - 1, cols)?;
        let file = FileText::new("pzprv3", "numlin", &[rows, cols])
            .qnums(rows, cols, &self.grid.clues)
            .center_lines(rows, cols, answer, &across, &down);
        Ok(file.finish())
    }
}

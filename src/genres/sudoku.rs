//! Sudoku (pzprjs `sudoku`): fill the grid with 1 to N, each once in every
//! row, column and block.
//!
//! URL: `N/N/` and the givens in pzprjs's number16; the blocks are pzprjs's:
//! ⌊√N⌋ rows and as many columns (three for N = 6). File (`pzprv3`): one
//! size line, the givens, then the digits written in.

use super::board::{Answer, ClueGrid, ParamError, ParamsIn, ParamsOut};
use super::codec::{NUMBER16, Unwritable};
use super::pzprv3::FileText;
use super::url::{Envelope, MAX_SIDE, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "sudoku",
    aliases: &[],
    url_id: "sudoku",
    title: "Sudoku",
    flags: &[],
    template: include_str!("../../models/genres/sudoku.toml"),
    sample: "https://puzz.link/p?sudoku/4/4/g1k23k3g",
    decode,
    read,
    random: |rng, rows, _| {
        let n = [4, 6, 9][rows % 3];
        Box::new(Sudoku(ClueGrid::random(rng, (n, n), 0.3, |rng| 1 + rng.below(n) as i32)))
    },
};

/// A sudoku: its givens, 1 to N (-2 a given without a number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sudoku(pub ClueGrid);

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    if env.rows != env.cols {
        let found = format!("{} columns and {} rows", env.cols, env.rows);
        return Err(env.size_error(&found, "a square: as many columns as rows"));
    }
    let grid = ClueGrid::decode(env, NUMBER16)?;
    if let Some(k) = grid.clues.iter().position(|&v| v == 0 || v > env.rows as i32) {
        let found = format!("the given {} in cell {}", grid.clues[k], k + 1);
        return Err(env.body_error(0, &found, &format!("givens from 1 to {}", env.rows)));
    }
    Ok(Box::new(Sudoku(grid)))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let n = p.int("size", 1..=MAX_SIDE as i64)?;
    let what = format!("a digit from 1 to {n}, -1 (none) or -2 (a given without a number)");
    let clues = p.grid("clue", (n as usize, n as usize), |v| v == -1 || v == -2 || (1..=n).contains(&v), &what)?;
    Ok(Box::new(Sudoku(ClueGrid { rows: n as usize, cols: n as usize, clues })))
}

impl Instance for Sudoku {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.0.rows, self.0.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        self.0.body(NUMBER16)
    }

    fn params(&self) -> toml::Table {
        ParamsOut::default().int("size", self.0.rows as i64).grid("clue", self.0.cols, &self.0.clues).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let n = self.0.rows;
        let digits = answer.ints("digit", (1, 1), n, n)?;
        let file = FileText::new("pzprv3", "sudoku", &[n]).qnums(n, n, &self.0.clues).grid(n, n, |r, c| {
            match (self.0.at(r, c), digits[r * n + c]) {
                (-1, Some(d)) => d.to_string(),
                _ => ".".into(),
            }
        });
        Ok(file.finish())
    }
}

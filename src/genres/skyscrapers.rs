//! Skyscrapers (pzprjs `skyscrapers`, files `building`): fill the grid with
//! 1 to N, each once in every row and column; a number outside counts the
//! buildings seen from there, a taller one hiding the lower ones behind it.
//!
//! URL: `COLS/ROWS/`, the numbers outside (top, bottom, left, right, in
//! pzprjs's number16 for outside cells), then the givens in number16 when
//! there are any. File (npm pzpr's `building`): one grid with the outside
//! cells round it, the digits inside.

use super::board::{Answer, ParamError, ParamsIn, ParamsOut, read_size};
use super::codec::{Cells, NUMBER16, NUMBER16_EXCELL, Optional, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "skyscrapers",
    aliases: &["building", "skyscraper"],
    url_id: "skyscrapers",
    title: "Skyscrapers",
    flags: &[],
    template: include_str!("../../models/genres/skyscrapers.toml"),
    sample: "https://puzz.link/p?skyscrapers/4/4/k13h4j3g",
    decode,
    read,
    random: |rng, rows, _| {
        let n = rows.clamp(2, 6);
        let mut outside =
            |len: usize| (0..len).map(|_| if rng.chance(0.4) { 1 + rng.below(n) as i32 } else { -1 }).collect();
        let edges = [outside(n), outside(n), outside(n), outside(n)];
        let givens = (0..n * n).map(|_| if rng.chance(0.1) { 1 + rng.below(n) as i32 } else { -1 }).collect();
        Box::new(Skyscrapers { n, edges, givens })
    },
};

/// A skyscrapers of N × N: the numbers outside (top, bottom, left, right,
/// -1 none) and the givens (-1 none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skyscrapers {
    pub n: usize,
    pub edges: [Vec<i32>; 4],
    pub givens: Vec<i32>,
}

fn codec(n: usize) -> (Cells<i32>, Optional<Cells<i32>>) {
    let outside = Cells { len: 4 * n, blank: -1, tokens: NUMBER16_EXCELL, what: "number outside" };
    (outside, Optional(Cells { len: n * n, blank: -1, tokens: NUMBER16, what: "cell" }))
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    if env.rows != env.cols {
        let found = format!("{} columns and {} rows", env.cols, env.rows);
        return Err(env.size_error(&found, "a square: as many columns as rows"));
    }
    let n = env.rows;
    let (outside, givens) = env.decode(&codec(n))?;
    let edges = [0, 1, 2, 3].map(|k| outside[k * n..(k + 1) * n].to_vec());
    if let Some(&v) = outside.iter().chain(&givens).find(|&&v| v == 0 || v > n as i32) {
        return Err(env.body_error(0, &format!("the number {v}"), &format!("numbers from 1 to {n}")));
    }
    Ok(Box::new(Skyscrapers { n, edges, givens }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    if rows != cols {
        let found = format!("{rows} rows and {cols} columns");
        return Err(ParamError { param: "cols".into(), found, expected: "as many columns as rows".into() });
    }
    let n = rows;
    let ok = |v: i64| v == -1 || v == -2 || (1..=n as i64).contains(&v);
    let what = format!("1 to {n}, -1 (none) or -2 (no number)");
    let side = |name: &str| p.list(name, n, ok, &what);
    let edges = [side("top")?, side("bottom")?, side("left")?, side("right")?];
    let givens =
        p.grid("clue", (n, n), |v| v == -1 || (1..=n as i64).contains(&v), &format!("1 to {n} or -1 (none)"))?;
    Ok(Box::new(Skyscrapers { n, edges, givens }))
}

impl Instance for Skyscrapers {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.n, self.n)
    }

    fn body(&self) -> Result<String, Unwritable> {
        encode_body(&codec(self.n), &(self.edges.concat(), self.givens.clone()))
    }

    fn params(&self) -> toml::Table {
        let n = self.n as i64;
        let list = |v: &[i32]| v.iter().map(|&x| i64::from(x)).collect::<Vec<i64>>();
        let p = ParamsOut::default().int("rows", n).int("cols", n).grid("clue", self.n, &self.givens);
        let p = p.list("top", list(&self.edges[0])).list("bottom", list(&self.edges[1]));
        p.list("left", list(&self.edges[2])).list("right", list(&self.edges[3])).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let n = self.n;
        let digits = answer.ints("digit", (1, 1), n, n)?;
        let outside = |v: i32| if v == -1 { ".".to_string() } else { v.to_string() };
        let file = FileText::new("pzprv3", "building", &[n, n]).grid(n + 2, n + 2, |r, c| {
            let inner = |k: usize| (1..=n).contains(&k);
            match (r, c) {
                (0, c) if inner(c) => outside(self.edges[0][c - 1]),
                (r, c) if r == n + 1 && inner(c) => outside(self.edges[1][c - 1]),
                (r, 0) if inner(r) => outside(self.edges[2][r - 1]),
                (r, c) if c == n + 1 && inner(r) => outside(self.edges[3][r - 1]),
                (r, c) if inner(r) && inner(c) => digits[(r - 1) * n + c - 1].map_or(".".into(), |d| d.to_string()),
                _ => ".".into(),
            }
        });
        Ok(file.finish())
    }
}

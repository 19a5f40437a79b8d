//! Statue Park (pzprjs `statuepark`): shade cells so that the blocks of
//! shaded cells are exactly the bank's pieces, each used once, turned and
//! mirrored at will; black circles shaded, white ones not, and the
//! unshaded cells one piece.
//!
//! URL: `COLS/ROWS/`, the circles (three cells to a base-27 character, 1
//! white, 2 black), then the bank: `//` and a preset's key (`p` the
//! pentominoes, `t` the tetrominoes, `d` each tetromino twice, `z` none),
//! or `/COUNT` and `/PIECE` for each piece, a piece being its box's width
//! and height (base 36) and its cells row by row, five bits to a base-32
//! character, trailing zeros dropped. File (`pzprv3`): the bank (a preset's
//! key, or the count and a piece a line), the circles, the shaded cells,
//! and a line of each piece's "done" mark.

use super::board::{Answer, ParamError, ParamsIn, ParamsOut, read_size};
use super::codec::{Codec, Fault, Packed, Reader, Unwritable, b36, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "statuepark",
    aliases: &[],
    url_id: "statuepark",
    title: "Statue Park",
    flags: &[],
    template: include_str!("../../models/genres/statuepark.toml"),
    sample: "https://puzz.link/p?statuepark/7/7/078ii6000000290f0//t",
    decode: |env: &Envelope<'_>| -> Result<Box<dyn Instance>, UrlError> {
        let (circles, bank) = env.decode(&Body { cells: env.rows * env.cols })?;
        Ok(Box::new(StatuePark { rows: env.rows, cols: env.cols, circles, bank }))
    },
    read,
    random: |rng, rows, cols| {
        let circles = (0..rows * cols).map(|_| if rng.chance(0.2) { 1 + rng.below(2) as u8 } else { 0 }).collect();
        let bank = match rng.below(4) {
            0 => preset("t").expect("a preset"),
            _ => (0..1 + rng.below(3)).map(|_| Piece::random(rng)).collect(),
        };
        Box::new(StatuePark { rows, cols, circles, bank })
    },
};

/// pzprjs's bank presets for statue park: key and pieces.
const PRESETS: &[(&str, &[&str])] = &[
    ("p", &["337k", "15v", "24as", "24bo", "23fg", "337i", "23rg", "334u", "335s", "33bk", "24bk", "337o"]),
    ("t", &["14u", "23bg", "22u", "23f", "23eg"]),
    ("d", &["14u", "14u", "23bg", "23bg", "22u", "22u", "23f", "23f", "23eg", "23eg"]),
    ("z", &[]),
];

fn preset(key: &str) -> Option<Vec<Piece>> {
    let (_, pieces) = PRESETS.iter().find(|(k, _)| *k == key)?;
    Some(pieces.iter().map(|p| Piece::parse(p).expect("a preset's piece reads")).collect())
}

/// A piece of the bank: its box's width and height, and its cells row by
/// row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub width: usize,
    pub height: usize,
    pub cells: Vec<bool>,
}

impl Piece {
    /// A piece as pzprjs serializes it, or what is wrong with it.
    fn parse(text: &str) -> Result<Piece, String> {
        let digits: Vec<u32> = text.chars().map(|c| c.to_digit(36)).collect::<Option<_>>().ok_or("a base-36 digit")?;
        if digits.len() < 3 {
            return Err("a width, a height and cells (3 characters at least)".into());
        }
        let (width, height) = (digits[0] as usize, digits[1] as usize);
        if width == 0 || height == 0 {
            return Err("a width and height from 1 to z".into());
        }
        let mut cells = Vec::with_capacity(width * height);
        for &d in &digits[2..] {
            if d >= 32 {
                return Err("cells as base-32 digits (0-v)".into());
            }
            cells.extend((0..5).rev().map(|k| d >> k & 1 == 1));
        }
        cells.resize(width * height, false);
        let piece = Piece { width, height, cells };
        if !piece.is_one_piece() {
            return Err("cells joined by sides (one piece)".into());
        }
        Ok(piece)
    }

    /// pzprjs's serialization.
    fn text(&self) -> String {
        let mut out = format!("{}{}", b36(self.width as u32), b36(self.height as u32));
        for chunk in self.cells.chunks(5) {
            let bits = (0..5).fold(0, |acc, k| acc * 2 + u32::from(*chunk.get(k).unwrap_or(&false)));
            out.push(b36(bits));
        }
        while out.len() > 2 && out.ends_with('0') {
            out.pop();
        }
        out
    }

    fn is_one_piece(&self) -> bool {
        let Some(start) = self.cells.iter().position(|&c| c) else { return false };
        let (mut seen, mut stack) = (vec![false; self.cells.len()], vec![start]);
        seen[start] = true;
        while let Some(k) = stack.pop() {
            let (r, c) = (k / self.width, k % self.width);
            let next = [
                (r > 0).then(|| k - self.width),
                (r + 1 < self.height).then(|| k + self.width),
                (c > 0).then(|| k - 1),
                (c + 1 < self.width).then(|| k + 1),
            ];
            for n in next.into_iter().flatten() {
                if self.cells[n] && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        self.cells.iter().zip(&seen).all(|(&c, &s)| !c || s)
    }

    /// A random piece of 1 to 4 cells grown from one cell.
    fn random(rng: &mut crate::rng::SplitMix64) -> Piece {
        let mut cells: Vec<(i32, i32)> = vec![(0, 0)];
        for _ in 0..rng.below(4) {
            let (r, c) = cells[rng.below(cells.len())];
            let (dr, dc) = [(0, 1), (1, 0), (0, -1), (-1, 0)][rng.below(4)];
            if !cells.contains(&(r + dr, c + dc)) {
                cells.push((r + dr, c + dc));
            }
        }
        let (r0, c0) = (cells.iter().map(|x| x.0).min().unwrap(), cells.iter().map(|x| x.1).min().unwrap());
        let height = (cells.iter().map(|x| x.0).max().unwrap() - r0 + 1) as usize;
        let width = (cells.iter().map(|x| x.1).max().unwrap() - c0 + 1) as usize;
        let mut grid = vec![false; width * height];
        for (r, c) in cells {
            grid[(r - r0) as usize * width + (c - c0) as usize] = true;
        }
        Piece { width, height, cells: grid }
    }
}

/// The body: the circles (left out when the body starts with `/`), then the
/// bank.
struct Body {
    cells: usize,
}

impl Body {
    fn circles(&self) -> Packed {
        Packed { len: self.cells, base: 3, per_char: 3, what: "circles (0-9, a-q)" }
    }
}

impl Codec for Body {
    type Value = (Vec<u8>, Vec<Piece>);

    fn decode(&self, r: &mut Reader<'_>) -> Result<Self::Value, Fault> {
        let circles = if r.peek() == Some(b'/') { self.circles().blank() } else { self.circles().decode(r)? };
        if r.next("'/' and the piece bank")? != b'/' {
            return Err(r.fault_at(r.offset() - 1, "'/' and the piece bank"));
        }
        if r.peek() == Some(b'/') {
            r.bump();
            let at = r.offset();
            let key = r.next("a preset's key (p, t, d or z)")?;
            let bank =
                preset(&(key as char).to_string()).ok_or_else(|| r.fault_at(at, "a preset's key (p, t, d or z)"))?;
            return Ok((circles, bank));
        }
        let count = r.decimal(3, "the number of pieces")? as usize;
        let mut bank = Vec::with_capacity(count);
        for _ in 0..count {
            if r.next("'/' and a piece")? != b'/' {
                return Err(r.fault_at(r.offset() - 1, "'/' and a piece"));
            }
            let at = r.offset();
            while r.peek().is_some_and(|c| c != b'/') {
                r.bump();
            }
            let text = r.since(at).to_string();
            let piece = Piece::parse(&text).map_err(|why| {
                let mut fault = r.fault_at(at, &format!("a piece: {why}"));
                fault.found = format!("{text:?}");
                fault
            })?;
            bank.push(piece);
        }
        Ok((circles, bank))
    }

    fn encode(&self, (circles, bank): &Self::Value, out: &mut String) -> Result<(), Unwritable> {
        self.circles().encode(circles, out)?;
        out.push('/');
        let texts: Vec<String> = bank.iter().map(Piece::text).collect();
        if let Some((key, _)) = PRESETS.iter().find(|(_, pieces)| *pieces == texts) {
            out.push('/');
            out.push_str(key);
            return Ok(());
        }
        out.push_str(&texts.len().to_string());
        for text in texts {
            out.push('/');
            out.push_str(&text);
        }
        Ok(())
    }

    fn blank(&self) -> Self::Value {
        (self.circles().blank(), preset("p").expect("a preset"))
    }
}

/// A statue park: each cell's circle (0 none, 1 white, 2 black) and the
/// bank of pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatuePark {
    pub rows: usize,
    pub cols: usize,
    pub circles: Vec<u8>,
    pub bank: Vec<Piece>,
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    let circles = p.grid("circle", (rows, cols), |v| (0..=2).contains(&v), "0 (none), 1 (white) or 2 (black)")?;
    let count = p.int("pieces", 0..=999)? as usize;
    let side = |v: i64| (1..36).contains(&v);
    let widths = p.list("width", count, side, "a width from 1 to 35")?;
    let heights = p.list("height", count, side, "a height from 1 to 35")?;
    let area = widths.iter().zip(&heights).map(|(w, h)| (w * h) as usize).max().unwrap_or(1);
    let shapes = if count == 0 { Vec::new() } else { p.grid("shape", (count, area), |v| v == 0 || v == 1, "0 or 1")? };
    let mut bank = Vec::with_capacity(count);
    for k in 0..count {
        let (width, height) = (widths[k] as usize, heights[k] as usize);
        let row = &shapes[k * area..(k + 1) * area];
        let piece = Piece { width, height, cells: row[..width * height].iter().map(|&v| v == 1).collect() };
        if !piece.is_one_piece() || row[width * height..].iter().any(|&v| v != 0) {
            let found = format!("piece {} = {:?}", k + 1, row);
            let expected = "the cells of the piece's box, joined by sides, then 0s".into();
            return Err(ParamError { param: "shape".into(), found, expected });
        }
        bank.push(piece);
    }
    let circles = circles.into_iter().map(|v| v as u8).collect();
    Ok(Box::new(StatuePark { rows, cols, circles, bank }))
}

impl Instance for StatuePark {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn body(&self) -> Result<String, Unwritable> {
        encode_body(&Body { cells: self.rows * self.cols }, &(self.circles.clone(), self.bank.clone()))
    }

    fn params(&self) -> toml::Table {
        let circles: Vec<i32> = self.circles.iter().map(|&v| i32::from(v)).collect();
        let area = self.bank.iter().map(|p| p.cells.len()).max().unwrap_or(1);
        let shapes = self.bank.iter().map(|p| {
            let mut row: Vec<i64> = p.cells.iter().map(|&c| i64::from(c)).collect();
            row.resize(area, 0);
            row
        });
        let p = ParamsOut::default().int("rows", self.rows as i64).int("cols", self.cols as i64);
        p.grid("circle", self.cols, &circles)
            .int("pieces", self.bank.len() as i64)
            .list("width", self.bank.iter().map(|p| p.width as i64))
            .list("height", self.bank.iter().map(|p| p.height as i64))
            .table("shape", shapes)
            .0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let shaded = answer.bools("shaded", (1, 1), rows, cols)?;
        let texts: Vec<String> = self.bank.iter().map(Piece::text).collect();
        let mut file = FileText::new("pzprv3", "statuepark", &[rows, cols]);
        match PRESETS.iter().find(|(_, pieces)| *pieces == texts) {
            Some((key, _)) => file = file.line(key),
            None => {
                file = file.line(&texts.len().to_string());
                for text in &texts {
                    file = file.line(text);
                }
            }
        }
        let circles: Vec<i32> = self.circles.iter().map(|&v| if v == 0 { -1 } else { i32::from(v) }).collect();
        let done: String = self.bank.iter().map(|_| "0 ").collect();
        Ok(file.qnums(rows, cols, &circles).shading(rows, cols, answer, &shaded).line(&done).finish())
    }
}

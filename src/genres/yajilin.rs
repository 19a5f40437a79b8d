//! Yajilin (pzprjs `yajilin`, files `yajirin`): shade some cells and draw
//! one loop through all the others; shaded cells never touch by a side,
//! and each arrow's number counts the shaded cells in its direction.
//!
//! URL: `[b/]COLS/ROWS/` and the arrows (pzprjs's ArrowNumber16: a
//! direction digit and a number, `a`-`z` for 1 to 26 empty cells); `b`
//! only draws the clue cells grey. File (npm pzpr's `yajirin`): the
//! arrows as `direction,number`, the shaded cells, then the loop.

use super::board::{Answer, ParamError, ParamsIn, ParamsOut, read_size};
use super::codec::{Cells, Fault, Gap, Reader, Token, Unwritable, encode_body};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "yajilin",
    aliases: &["yajirin"],
    url_id: "yajilin",
    title: "Yajilin",
    flags: &[('b', "the clue cells are drawn grey")],
    template: include_str!("../../models/genres/yajilin.toml"),
    sample: "https://puzz.link/p?yajilin/5/5/m32j10",
    decode,
    read,
    random: |rng, rows, cols| {
        let arrows = (0..rows * cols)
            .map(|_| if rng.chance(0.15) { (rng.below(5) as i32, rng.below(3) as i32) } else { BLANK })
            .collect();
        Box::new(Yajilin { rows, cols, arrows, grey: rng.chance(0.2) })
    },
};

/// No clue in a cell.
pub(super) const BLANK: (i32, i32) = (0, -1);

/// A yajilin: each cell's arrow (direction 0 none, 1 up, 2 down, 3 left,
/// 4 right; number from 0, -2 none shown, -3 a clue cell without either),
/// (0, -1) for a cell without a clue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Yajilin {
    pub rows: usize,
    pub cols: usize,
    pub arrows: Vec<(i32, i32)>,
    pub grey: bool,
}

/// pzprjs's ArrowNumber16, one clue cell.
struct Arrow;

impl Token<(i32, i32)> for Arrow {
    fn expected(&self) -> String {
        "+ (a clue cell), 0-4 and a digit or . (an arrow and its number), 5-9 and 2 digits, - and 4 digits".into()
    }
    fn read(&self, r: &mut Reader<'_>, _: &(i32, i32), out: &mut Vec<(i32, i32)>) -> Option<Result<(), Fault>> {
        let c = r.peek()?;
        let (dir, digits) = match c {
            b'+' => {
                r.bump();
                out.push((0, -3));
                return Some(Ok(()));
            }
            b'0'..=b'4' => (i32::from(c - b'0'), 1),
            b'5'..=b'9' => (i32::from(c - b'5'), 2),
            b'-' => {
                r.bump();
                match r.peek() {
                    Some(d @ b'0'..=b'4') => (i32::from(d - b'0'), 3),
                    _ => return Some(Err(r.fault("a direction 0-4 after '-'"))),
                }
            }
            _ => return None,
        };
        r.bump();
        if digits == 1 && r.peek() == Some(b'.') {
            r.bump();
            out.push((dir, -2));
            return Some(Ok(()));
        }
        Some(r.hex(digits, "(the arrow's number)").map(|n| out.push((dir, n as i32))))
    }
    fn write(&self, items: &[(i32, i32)], _: &(i32, i32), out: &mut String) -> Option<usize> {
        let (dir, n) = items[0];
        match n {
            -3 => out.push('+'),
            -2 => out.push_str(&format!("{dir}.")),
            0..16 => out.push_str(&format!("{dir}{n:x}")),
            16..256 => out.push_str(&format!("{}{n:02x}", dir + 5)),
            256..4096 => out.push_str(&format!("-{dir}{n:03x}")),
            _ => return None,
        }
        Some(1)
    }
}

static ARROWS: &[&dyn Token<(i32, i32)>] = &[&Arrow, &Gap { from: b'a', to: b'z', first: 1 }];

/// pzprjs's ArrowNumber16 over a grid's cells (hebi's clues are the same).
pub(super) fn codec(rows: usize, cols: usize) -> Cells<(i32, i32)> {
    Cells { len: rows * cols, blank: BLANK, tokens: ARROWS, what: "cell" }
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let arrows = env.decode(&codec(env.rows, env.cols))?;
    Ok(Box::new(Yajilin { rows: env.rows, cols: env.cols, arrows, grey: env.flag('b') }))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    let dirs = p.grid("dir", (rows, cols), |v| (0..=4).contains(&v), "0 (none), 1 up, 2 down, 3 left or 4 right")?;
    let what = "a number from 0 to 4095, -1 (no clue), -2 (none shown) or -3 (a clue cell alone)";
    let numbers = p.grid("clue", (rows, cols), |v| (-3..4096).contains(&v), what)?;
    let arrows = dirs.into_iter().zip(numbers).map(|(d, n)| if n == -1 { BLANK } else { (d, n) }).collect();
    Ok(Box::new(Yajilin { rows, cols, arrows, grey: p.bool("grey")? }))
}

impl Instance for Yajilin {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn flags(&self) -> String {
        if self.grey { "b".into() } else { String::new() }
    }

    fn body(&self) -> Result<String, Unwritable> {
        encode_body(&codec(self.rows, self.cols), &self.arrows)
    }

    fn params(&self) -> toml::Table {
        let dirs: Vec<i32> = self.arrows.iter().map(|a| a.0).collect();
        let numbers: Vec<i32> = self.arrows.iter().map(|a| a.1).collect();
        let p = ParamsOut::default().int("rows", self.rows as i64).int("cols", self.cols as i64);
        p.grid("dir", self.cols, &dirs).grid("clue", self.cols, &numbers).bool("grey", self.grey).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let shaded = answer.bools("shaded", (1, 1), rows, cols)?;
        let across = answer.bools("across", (1, 1), rows, cols - 1)?;
        let down = answer.bools("down", (1, 1), rows - 1, cols)?;
        let file = FileText::new("pzprv3", "yajirin", &[rows, cols])
            .grid(rows, cols, |r, c| match self.arrows[r * cols + c] {
                (_, -1) => ".".into(),
                (d, -2) => format!("{d},-"),
                (d, n) => format!("{d},{n}"),
            })
            .shading(rows, cols, answer, &shaded)
            .center_lines(rows, cols, answer, &across, &down);
        Ok(file.finish())
    }
}

//! Slalom (pzprjs `slalom`): draw one loop through the cells' centres that
//! starts at the circle, passes every gate once (a run of gate cells
//! between black cells, crossed at right angles), and never enters a black
//! cell; a number on a black cell says when the loop passes the gate it
//! touches (the arrow, when there is one, says which gate), counted from
//! the circle in one of the two directions.
//!
//! URL (`d` flag, as pzprjs writes it): the cells (`1` black, `2` a
//! vertical gate cell, `3` a horizontal one, `4`-`z` 1 to 32 empty cells),
//! then each black cell's arrow and number (`0`-`4` with one hex digit,
//! `5`-`9` with two, `-` with an arrow digit and three, `g`-`z` 1 to 20
//! black cells without one), then `/` and the circle's cell number. The
//! `p` flag gives the numbers without arrows; no flag gives each gate's
//! number, which pzprjs shows on the black cells beside it.
//!
//! File: npm's pzpr 0.10.1 layout (`pzprv3.2`), which puzz.link also
//! opens: the cells (`o` the circle, `i`/`-` gate cells, `#` black,
//! `arrow,number` a numbered black cell), then the loop as BorderLine.
//!
//! Which gate a number belongs to is pzprjs's own reading (its
//! `generateGateNumberAll`, a number touching two gates goes to the one
//! no other number claims); it is computed here and given to the model as
//! each black cell's `aim`, the gates its number belongs to. On a black
//! cell without a number, `aim` names a gate beside it that no number
//! names, where a design may write one: a generated slalom's numbers stand
//! where its template aims, and reading it back gives a number an arrow
//! where pzprjs would otherwise read it for another gate.

use super::board::{Answer, ParamError, ParamsIn, ParamsOut, read_size};
use super::codec::{
    Cells, Codec, Decimal, Fault, GAP, Hex, Literal, Reader, Then, Token, Trailing, Unwritable, b36, blanks,
    encode_body,
};
use super::pzprv3::FileText;
use super::url::{Envelope, UrlError};
use super::{Genre, Instance};

pub static GENRE: Genre = Genre {
    id: "slalom",
    aliases: &[],
    url_id: "slalom",
    title: "Slalom",
    flags: &[('d', "numbers with arrows on the black cells"), ('p', "numbers on the black cells, without arrows")],
    template: include_str!("../../models/genres/slalom.toml"),
    sample: "https://puzz.link/p?slalom/d/6/6/9314131314131a1131ag0404j0101/33",
    decode,
    read,
    random,
};

/// No cell, a black cell, a vertical gate cell (the loop crosses it left
/// to right), a horizontal one: the URL's digits.
const EMPTY: i32 = 0;
const BLACK: i32 = 1;
const VERTICAL: i32 = 2;
const HORIZONTAL: i32 = 3;

/// A black cell's arrow (0 none, 1 up, 2 down, 3 left, 4 right) and number
/// (-1 none).
pub type Clue = (i32, i32);
const NO_CLUE: Clue = (0, -1);

/// A slalom: each cell's kind, each black cell's clue ([`NO_CLUE`]
/// elsewhere), and the circle's cell (row-major).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slalom {
    pub rows: usize,
    pub cols: usize,
    pub kinds: Vec<i32>,
    pub clues: Vec<Clue>,
    pub start: usize,
}

/// The run of 1 to 32 empty cells, `4`-`9` and `a`-`z`.
struct EmptyRun;

impl Token<i32> for EmptyRun {
    fn expected(&self) -> String {
        "4-9 or a-z (1 to 32 empty cells)".into()
    }
    fn read(&self, r: &mut Reader<'_>, blank: &i32, out: &mut Vec<i32>) -> Option<Result<(), Fault>> {
        let c = r.peek().filter(|c| !c.is_ascii_uppercase())?;
        let v = (c as char).to_digit(36).filter(|&v| v >= 4)?;
        r.bump();
        out.extend(std::iter::repeat_n(*blank, v as usize - 3));
        Some(Ok(()))
    }
    fn write(&self, items: &[i32], blank: &i32, out: &mut String) -> Option<usize> {
        let n = blanks(items, blank, 32);
        (n > 0).then(|| out.push(b36(n as u32 + 3))).map(|()| n)
    }
}

/// A cell's kind as one digit.
struct Kind(u8, i32);

impl Token<i32> for Kind {
    fn expected(&self) -> String {
        let what = ["", "a black cell", "a vertical gate cell", "a horizontal gate cell"][self.1 as usize];
        format!("{} ({what})", self.0 as char)
    }
    fn read(&self, r: &mut Reader<'_>, _: &i32, out: &mut Vec<i32>) -> Option<Result<(), Fault>> {
        r.peek().filter(|&c| c == self.0)?;
        r.bump();
        out.push(self.1);
        Some(Ok(()))
    }
    fn write(&self, items: &[i32], _: &i32, out: &mut String) -> Option<usize> {
        (items[0] == self.1).then(|| out.push(self.0 as char)).map(|()| 1)
    }
}

static KINDS: &[&dyn Token<i32>] = &[&Kind(b'1', BLACK), &Kind(b'2', VERTICAL), &Kind(b'3', HORIZONTAL), &EmptyRun];

/// A black cell's arrow and number: `d` in the form with arrows, the
/// number alone (arrow 0) in the `p` form.
struct Numbered {
    arrows: bool,
}

impl Numbered {
    fn read_clue(&self, r: &mut Reader<'_>) -> Option<Result<Clue, Fault>> {
        let c = r.peek()?;
        let digit = (c as char).to_digit(16).filter(|_| !c.is_ascii_uppercase());
        let (dir_digits, num_digits, dir) = match (self.arrows, c, digit) {
            (true, _, Some(d)) if d <= 4 => (0, 1, d as i64),
            (true, _, Some(d)) if (5..=9).contains(&d) => (0, 2, d as i64 - 5),
            (true, b'-', _) => (1, 3, 0),
            (false, _, Some(_)) => return Some(Ok((0, digit? as i32))).inspect(|_| r.bump()),
            (false, b'-', _) => (0, 2, 0),
            _ => return None,
        };
        r.bump();
        let mut read = || -> Result<Clue, Fault> {
            let dir = if dir_digits == 1 { r.hex(1, "(an arrow) after '-'")? } else { dir };
            if dir > 4 {
                return Err(r.fault_at(r.offset() - 1, "an arrow 0-4"));
            }
            Ok((dir as i32, r.hex(num_digits, &format!("after {:?}", c as char))? as i32))
        };
        Some(read())
    }
}

impl Token<Clue> for Numbered {
    fn expected(&self) -> String {
        match self.arrows {
            true => "0-4 and a hex digit, 5-9 and two, - and four (an arrow and a number)".into(),
            false => "0-f, or - and two hex digits (a number)".into(),
        }
    }
    fn read(&self, r: &mut Reader<'_>, blank: &Clue, out: &mut Vec<Clue>) -> Option<Result<(), Fault>> {
        // A number 0 is no number to pzprjs: it shows and counts nothing.
        Some(self.read_clue(r)?.map(|clue| out.push(if clue.1 <= 0 { *blank } else { clue })))
    }
    fn write(&self, items: &[Clue], _: &Clue, out: &mut String) -> Option<usize> {
        let (d, n) = items[0];
        let text = match (self.arrows, n) {
            (_, ..=0) | (_, 4096..) | (false, 256..) => return None,
            (true, 1..16) => format!("{d}{n:x}"),
            (true, 16..256) => format!("{}{n:02x}", d + 5),
            (true, _) => format!("-{d}{n:03x}"),
            (false, 1..16) => format!("{n:x}"),
            (false, _) => format!("-{n:02x}"),
        };
        out.push_str(&text);
        Some(1)
    }
}

static WITH_ARROWS: &[&dyn Token<Clue>] = &[&Numbered { arrows: true }, &GAP];
static WITHOUT_ARROWS: &[&dyn Token<Clue>] = &[&Numbered { arrows: false }, &GAP];
/// The gates' numbers of the form without a flag.
static GATE_NUMBERS: &[&dyn Token<i32>] = &[
    &Hex { lead: None, digits: 1, offset: 0, min: 0, max: 15 },
    &Hex { lead: Some(b'-'), digits: 2, offset: 0, min: 16, max: 255 },
    &GAP,
];

fn kinds_codec(cells: usize) -> Cells<i32> {
    Cells { len: cells, blank: EMPTY, tokens: KINDS, what: "cells" }
}

/// The circle's cell, after a `/`, 0 when the body ends before it.
fn start_codec(cells: usize) -> Trailing<(Literal, Decimal)> {
    Trailing((Literal(b'/'), Decimal { min: 0, max: cells as i64 - 1, what: "the circle's cell" }))
}

/// The body of the `d` and `p` forms: each cell's kind, then the black
/// cells' clues, and the circle's cell after a `/`.
type Body = (Vec<i32>, (Vec<Clue>, ((), i64)));

/// The body of the `d` and `p` forms: cells, black cells' clues, circle.
fn codec(cells: usize, arrows: bool) -> impl Codec<Value = Body> {
    let tokens = if arrows { WITH_ARROWS } else { WITHOUT_ARROWS };
    Then {
        first: kinds_codec(cells),
        then: move |kinds: &Vec<i32>| {
            let black = kinds.iter().filter(|&&k| k == BLACK).count();
            (Cells { len: black, blank: NO_CLUE, tokens, what: "black cells" }, start_codec(cells))
        },
    }
}

fn decode(env: &Envelope<'_>) -> Result<Box<dyn Instance>, UrlError> {
    let (rows, cols) = (env.rows, env.cols);
    let (kinds, clues, start) = if env.flag('d') || env.flag('p') {
        let (kinds, (black_clues, (_, start))) = env.decode(&codec(rows * cols, env.flag('d')))?;
        let mut clues = black_clues.into_iter();
        let clues = kinds.iter().map(|&k| if k == BLACK { clues.next().unwrap_or(NO_CLUE) } else { NO_CLUE });
        (kinds.clone(), clues.collect(), start)
    } else {
        decode_gate_numbers(env)?
    };
    let slalom = Slalom { rows, cols, kinds, clues, start: start as usize };
    if slalom.kinds[slalom.start] == VERTICAL || slalom.kinds[slalom.start] == HORIZONTAL {
        let found = format!("the circle on a gate cell (cell {})", slalom.start);
        return Err(env.body_error(env.body.len(), &found, "the circle on a cell that is no gate"));
    }
    Ok(Box::new(slalom))
}

/// pzprjs's oldest form: a number per gate, shown on the black cells
/// beside it (the least of the gates' numbers a black cell touches).
fn decode_gate_numbers(env: &Envelope<'_>) -> Result<(Vec<i32>, Vec<Clue>, i64), UrlError> {
    let cells = env.rows * env.cols;
    let (kinds, (numbers, (_, start))) = env.decode(&Then {
        first: kinds_codec(cells),
        then: |kinds: &Vec<i32>| {
            let gates = Gates::of(kinds, env.cols).count;
            (Cells { len: gates, blank: -1, tokens: GATE_NUMBERS, what: "gates" }, start_codec(cells))
        },
    })?;
    let gates = Gates::of(&kinds, env.cols);
    let clues = (0..cells)
        .map(|k| {
            let least = gates.touching(&kinds, k, 0).into_iter().map(|g| numbers[g - 1]).filter(|&n| n > 0).min();
            least.map_or(NO_CLUE, |n| (0, n))
        })
        .collect();
    Ok((kinds, clues, start))
}

fn read(p: &ParamsIn) -> Result<Box<dyn Instance>, ParamError> {
    let (rows, cols) = read_size(p)?;
    let what = "0 (empty), 1 (black), 2 (a vertical gate cell) or 3 (a horizontal one)";
    let kinds = p.grid("kind", (rows, cols), |v| (0..=3).contains(&v), what)?;
    let dirs = p.grid("dir", (rows, cols), |v| (0..=4).contains(&v), "0 (none), 1 up, 2 down, 3 left or 4 right")?;
    let numbers = p.grid("clue", (rows, cols), |v| v == -1 || (1..4096).contains(&v), "-1 (none) or 1 to 4095")?;
    let start_row = p.int("start_row", 1..=rows as i64)? as usize;
    let start_col = p.int("start_col", 1..=cols as i64)? as usize;
    let start = (start_row - 1) * cols + start_col - 1;
    let clues = (0..rows * cols)
        .map(|k| match (kinds[k], numbers[k]) {
            (BLACK, n) if n > 0 => Ok((dirs[k], n)),
            (_, -1) => Ok(NO_CLUE),
            _ => Err(ParamError {
                param: "clue".into(),
                found: format!("{} on a cell that is not black ({}, {})", numbers[k], k / cols + 1, k % cols + 1),
                expected: "numbers on black cells (kind 1) only".into(),
            }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if kinds[start] == VERTICAL || kinds[start] == HORIZONTAL {
        let found = format!("({start_row}, {start_col}), a gate cell");
        return Err(ParamError { param: "start_row".into(), found, expected: "a cell that is no gate".into() });
    }
    let what = "0 to 15, the sum of 1 (the gate above), 2 (below), 4 (left) and 8 (right)";
    let aim = p.grid("aim", (rows, cols), |v| (0..16).contains(&v), what)?;
    Ok(Box::new(Slalom { rows, cols, kinds, clues, start }.aimed_as(&aim)?))
}

impl Slalom {
    /// The slalom whose numbers pzprjs reads for the gates `aim` names: as
    /// it is, or else with each number whose gates differ given an arrow to
    /// its gate (a generated slalom's numbers are read for the gates its
    /// template's `aim` names, whatever arrows the template had).
    fn aimed_as(mut self, aim: &[i32]) -> Result<Slalom, ParamError> {
        let gates = Gates::of(&self.kinds, self.cols);
        let at = |k: usize| format!("row {}, column {}", k / self.cols + 1, k % self.cols + 1);
        for (k, &a) in aim.iter().enumerate() {
            let beside: i32 = gates.beside(&self.kinds, k, 0).iter().map(|&(d, _)| bit(d)).sum();
            if a & !beside != 0 {
                return Err(ParamError {
                    param: "aim".into(),
                    found: format!("{a} at {}, where the gates beside the cell make {beside}", at(k)),
                    expected: "bits of gates beside a black cell only".into(),
                });
            }
        }
        let owners_now = owners(&self, &gates);
        let numbered = |k: &usize| self.clues[*k].1 > 0;
        if (0..aim.len()).filter(numbered).all(|k| owners_now[k] == aim[k]) {
            return Ok(self);
        }
        for (k, &a) in aim.iter().enumerate() {
            let (dir, number) = self.clues[k];
            let pointed: i32 = gates.beside(&self.kinds, k, dir).iter().map(|&(d, _)| bit(d)).sum();
            if number > 0 && pointed != a {
                // An arrow to the one gate aimed at, or away from every gate.
                let to = (1..=4).find(|&d| match a {
                    0 => gates.beside(&self.kinds, k, d).is_empty(),
                    a => a == bit(d),
                });
                self.clues[k].0 = to.unwrap_or(dir);
            }
        }
        let owners_then = owners(&self, &gates);
        match (0..aim.len()).find(|&k| self.clues[k].1 > 0 && owners_then[k] != aim[k]) {
            None => Ok(self),
            Some(k) => Err(ParamError {
                param: "aim".into(),
                found: format!("{} at {}, where pzprjs reads the number for {}", aim[k], at(k), owners_then[k]),
                expected: "the gates pzprjs reads each number for, with or without an arrow".into(),
            }),
        }
    }
}

fn random(rng: &mut crate::rng::SplitMix64, rows: usize, cols: usize) -> Box<dyn Instance> {
    Box::new(random_slalom(rng, rows, cols))
}

fn random_slalom(rng: &mut crate::rng::SplitMix64, rows: usize, cols: usize) -> Slalom {
    let kinds: Vec<i32> = (0..rows * cols)
        .map(|_| match rng.below(10) {
            0 | 1 => BLACK,
            2 => VERTICAL,
            3 => HORIZONTAL,
            _ => EMPTY,
        })
        .collect();
    let clues = kinds
        .iter()
        .map(|&k| match k == BLACK && rng.chance(0.5) {
            true => (rng.below(5) as i32, 1 + rng.below(4) as i32),
            false => NO_CLUE,
        })
        .collect();
    let free: Vec<usize> = (0..rows * cols).filter(|&k| kinds[k] != VERTICAL && kinds[k] != HORIZONTAL).collect();
    let mut kinds = kinds;
    let start = match free.is_empty() {
        true => {
            kinds[0] = EMPTY;
            0
        }
        false => free[rng.below(free.len())],
    };
    let mut clues: Vec<Clue> = clues;
    clues[start] = if kinds[start] == BLACK { clues[start] } else { NO_CLUE };
    Slalom { rows, cols, kinds, clues, start }
}

/// The gates: runs of vertical gate cells one above another, and of
/// horizontal ones side by side, numbered from 1 in the order of their
/// first cells (pzprjs's order of its gate graph's components).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gates {
    /// Each cell's gate, 0 for none.
    pub of: Vec<usize>,
    /// How many gates.
    pub count: usize,
    cols: usize,
}

impl Gates {
    fn of(kinds: &[i32], cols: usize) -> Gates {
        let mut of = vec![0; kinds.len()];
        let mut count = 0;
        for k in 0..kinds.len() {
            let (step, kind) = match kinds[k] {
                VERTICAL => (cols, VERTICAL),
                HORIZONTAL => (1, HORIZONTAL),
                _ => continue,
            };
            let continues = |k: usize| step == cols || !k.is_multiple_of(cols);
            of[k] = if k >= step && kinds[k - step] == kind && continues(k) {
                of[k - step]
            } else {
                count += 1;
                count
            };
        }
        Gates { of, count, cols }
    }

    /// The gates black cell `k` touches that its arrow `dir` (0 any) points
    /// at, in pzprjs's order: up, down, left, right.
    fn touching(&self, kinds: &[i32], k: usize, dir: i32) -> Vec<usize> {
        self.beside(kinds, k, dir).into_iter().map(|(_, gate)| gate).collect()
    }

    /// [`Gates::touching`] with the direction (1 up, 2 down, 3 left, 4
    /// right) of each gate.
    fn beside(&self, kinds: &[i32], k: usize, dir: i32) -> Vec<(i32, usize)> {
        let (cols, cells) = (self.cols, kinds.len());
        let (r, c) = (k / cols, k % cols);
        let near = [
            (1, VERTICAL, (r > 0).then(|| k - cols)),
            (2, VERTICAL, (k + cols < cells).then_some(k + cols)),
            (3, HORIZONTAL, (c > 0).then(|| k - 1)),
            (4, HORIZONTAL, (c + 1 < cols).then_some(k + 1)),
        ];
        if kinds[k] != BLACK {
            return Vec::new();
        }
        near.into_iter()
            .filter(|&(d, kind, at)| (dir == 0 || dir == d) && at.is_some_and(|a| kinds[a] == kind))
            .map(|(d, _, at)| (d, self.of[at.expect("filtered")]))
            .collect()
    }
}

/// A direction's bit in the model's `aim`: 1 up, 2 down, 4 left, 8 right.
fn bit(dir: i32) -> i32 {
    1 << (dir - 1)
}

/// The model's `aim` of each numbered black cell (0 elsewhere): the gates
/// beside it (that its arrow points at) whose number, as pzprjs reads the
/// numbers, is its own.
fn owners(slalom: &Slalom, gates: &Gates) -> Vec<i32> {
    let numbers = gate_numbers(slalom, gates);
    let mut aim = vec![0; slalom.kinds.len()];
    for (k, &(dir, n)) in slalom.clues.iter().enumerate().filter(|(_, c)| c.1 > 0) {
        for (d, gate) in gates.beside(&slalom.kinds, k, dir) {
            if numbers[gate - 1] == n {
                aim[k] |= bit(d);
            }
        }
    }
    aim
}

/// The model's `aim`: [`owners`] on the numbered black cells, and on the
/// others, for a design to number, one gate beside each that no number
/// names yet (the first in pzprjs's order), while there is one.
fn aims(slalom: &Slalom, gates: &Gates) -> Vec<i32> {
    let mut aim = owners(slalom, gates);
    let mut named = vec![false; gates.count + 1];
    for (k, &a) in aim.iter().enumerate() {
        for (d, gate) in gates.beside(&slalom.kinds, k, 0) {
            named[gate] |= a & bit(d) != 0;
        }
    }
    for (k, a) in aim.iter_mut().enumerate() {
        if slalom.clues[k].1 <= 0
            && let Some((d, gate)) = gates.beside(&slalom.kinds, k, 0).into_iter().find(|&(_, g)| !named[g])
        {
            *a = bit(d);
            named[gate] = true;
        }
    }
    aim
}

/// Each gate's number (-1 none), as pzprjs's `generateGateNumberAll`
/// gives it: a gate whose two black cells both show the same number takes
/// it; then, again and again, a gate with one number that no other gate
/// also has alone takes it, and else a gate with exactly one number that
/// no other gate has takes that one. A number taken is gone from the other
/// gates.
fn gate_numbers(slalom: &Slalom, gates: &Gates) -> Vec<i32> {
    let g = gates.count;
    let mut nums: Vec<Vec<i32>> = vec![Vec::new(); g];
    for (k, &(dir, n)) in slalom.clues.iter().enumerate() {
        if n > 0 {
            for gate in gates.touching(&slalom.kinds, k, dir) {
                nums[gate - 1].push(n);
            }
        }
    }
    let mut number = vec![-1; g];
    let mut done = std::collections::BTreeSet::new();
    for r in 0..g {
        if nums[r].len() == 2 && nums[r][0] > 0 && nums[r][0] == nums[r][1] {
            number[r] = nums[r][0];
            done.insert(nums[r][0]);
            nums[r].clear();
        }
    }
    let erase = |nums: &mut Vec<Vec<i32>>, done: &std::collections::BTreeSet<i32>| {
        nums.iter_mut().for_each(|list| list.retain(|n| !done.contains(n)));
    };
    erase(&mut nums, &done);
    // pzprjs counts in an array of the gates' length: a number past it
    // counts as NaN, which no comparison holds.
    let counted = |n: i32| n >= 0 && (n as usize) < g;
    loop {
        let mut again = false;
        let mut alone = vec![0; g];
        for list in nums.iter().filter(|l| l.len() == 1 && counted(l[0])) {
            alone[list[0] as usize] += 1;
        }
        for r in 0..g {
            let cand = if nums[r].len() == 1 { nums[r][0] } else { -1 };
            if cand > 0 && !(counted(cand) && alone[cand as usize] > 1) {
                number[r] = cand;
                done.insert(cand);
                nums[r].clear();
                again = true;
            }
        }
        erase(&mut nums, &done);
        if again {
            continue;
        }
        let mut seen = vec![0; g];
        for &n in nums.iter().flatten().filter(|&&n| counted(n)) {
            seen[n as usize] += 1;
        }
        for r in 0..g {
            let single: Vec<i32> = nums[r].iter().copied().filter(|&n| counted(n) && seen[n as usize] == 1).collect();
            if single.len() == 1 && single[0] > 0 {
                number[r] = single[0];
                done.insert(single[0]);
                nums[r].clear();
                again = true;
            }
        }
        erase(&mut nums, &done);
        if !again {
            return number;
        }
    }
}

impl Instance for Slalom {
    fn genre(&self) -> &'static Genre {
        &GENRE
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn flags(&self) -> String {
        "d".into()
    }

    fn body(&self) -> Result<String, Unwritable> {
        let black: Vec<Clue> =
            (0..self.kinds.len()).filter(|&k| self.kinds[k] == BLACK).map(|k| self.clues[k]).collect();
        encode_body(&codec(self.kinds.len(), true), &(self.kinds.clone(), (black, ((), self.start as i64))))
    }

    fn params(&self) -> toml::Table {
        let gates = Gates::of(&self.kinds, self.cols);
        let gate: Vec<i32> = gates.of.iter().map(|&g| g as i32).collect();
        let (dirs, clues): (Vec<i32>, Vec<i32>) = self.clues.iter().copied().unzip();
        let p = ParamsOut::default().int("rows", self.rows as i64).int("cols", self.cols as i64);
        let p = p.grid("kind", self.cols, &self.kinds).grid("dir", self.cols, &dirs).grid("clue", self.cols, &clues);
        let p = p
            .int("start_row", (self.start / self.cols + 1) as i64)
            .int("start_col", (self.start % self.cols + 1) as i64);
        p.int("gates", gates.count as i64).grid("gate", self.cols, &gate).grid("aim", self.cols, &aims(self, &gates)).0
    }

    fn file(&self, answer: &Answer<'_>) -> Result<String, String> {
        let (rows, cols) = self.size();
        let across = answer.bools("across", (1, 1), rows, cols - 1)?;
        let down = answer.bools("down", (1, 1), rows - 1, cols)?;
        let file = FileText::new("pzprv3.2", "slalom", &[rows, cols]).grid(rows, cols, |r, c| {
            let k = r * cols + c;
            match (self.kinds[k], self.clues[k]) {
                _ if k == self.start => "o".into(),
                (VERTICAL, _) => "i".into(),
                (HORIZONTAL, _) => "-".into(),
                (BLACK, (_, ..=0)) => "#".into(),
                (BLACK, (d, n)) => format!("{d},{n}"),
                _ => ".".into(),
            }
        });
        Ok(file.center_lines(rows, cols, answer, &across, &down).finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slalom(url: &str) -> Slalom {
        let env = Envelope::parse(url).unwrap();
        let (kinds, clues, start) = if env.flags.is_empty() {
            decode_gate_numbers(&env).unwrap()
        } else {
            let (kinds, (black, (_, start))) = env.decode(&codec(env.rows * env.cols, env.flag('d'))).unwrap();
            let mut black = black.into_iter();
            let clues = kinds.iter().map(|&k| if k == BLACK { black.next().unwrap() } else { NO_CLUE }).collect();
            (kinds, clues, start)
        };
        Slalom { rows: env.rows, cols: env.cols, kinds, clues, start: start as usize }
    }

    #[test]
    fn the_three_forms_of_pzprjs_sample_give_its_gate_numbers() {
        // The sample in the `p` form (each black cell's number) and in the
        // oldest one (each gate's number: the second and the fifth gate).
        let new = slalom("https://puzz.link/p?slalom/d/6/6/9314131314131a1131ag0404j0101/33");
        assert_eq!(slalom("https://puzz.link/p?slalom/p/6/6/9314131314131a1131ag44j11/33"), new);
        assert_eq!(slalom("https://puzz.link/p?slalom/6/6/9314131314131a1131ag4h1/33"), new);
        let gates = Gates::of(&new.kinds, 6);
        assert_eq!(gates.count, 5);
        let numbers = gate_numbers(&new, &gates);
        assert_eq!(numbers.iter().filter(|&&n| n > 0).count(), 2, "{numbers:?}");
        assert!(numbers.contains(&4) && numbers.contains(&1));
    }

    #[test]
    fn a_number_touching_two_gates_goes_to_the_one_no_other_number_claims() {
        // [2]-[3]-[4] on the first row: gate 1 between 2 and 3, gate 2
        // between 3 and 4; gate 1 takes 2 and gate 2 takes 4. Five more
        // gates below, as pzprjs counts numbers only below the gates' count.
        let (b, h, e) = (BLACK, HORIZONTAL, EMPTY);
        let kinds = vec![b, h, b, h, b, h, e, h, e, h, h, e, h, e, h];
        let mut clues = vec![NO_CLUE; 15];
        (clues[0], clues[2], clues[4]) = ((0, 2), (0, 3), (0, 4));
        let s = Slalom { rows: 3, cols: 5, kinds, clues, start: 6 };
        let gates = Gates::of(&s.kinds, 5);
        assert_eq!(gates.count, 8);
        assert_eq!(gate_numbers(&s, &gates), vec![2, 4, -1, -1, -1, -1, -1, -1]);
        // [2]-[3] alone: both numbers on the one gate, neither taken.
        let s = Slalom { rows: 1, cols: 3, kinds: vec![b, h, b], clues: vec![(0, 2), NO_CLUE, (0, 3)], start: 0 };
        assert_eq!(gate_numbers(&s, &Gates::of(&s.kinds, 3)), vec![-1]);
    }

    #[test]
    fn numbers_written_where_a_template_aims_are_read_for_the_gates_it_aims_at() {
        // As a design writes them: each black cell that aims at one gate
        // shows that gate's number (here the gate's own index, distinct),
        // under whatever arrow the template had there.
        let mut rng = crate::rng::SplitMix64::new(7);
        let (mut numbered, mut arrowed) = (0, 0);
        for _ in 0..2000 {
            let template = random_slalom(&mut rng, 4, 5);
            let gates = Gates::of(&template.kinds, template.cols);
            let aim = aims(&template, &gates);
            let mut made = template.clone();
            for (k, &a) in aim.iter().enumerate() {
                let aimed = gates.beside(&made.kinds, k, 0).into_iter().find(|&(d, _)| a == bit(d));
                made.clues[k] = aimed.map_or(NO_CLUE, |(_, gate)| (template.clues[k].0, gate as i32));
            }
            let read = made.clone().aimed_as(&aim).unwrap_or_else(|e| panic!("{made:?}: {e:?}"));
            let owners = owners(&read, &gates);
            for k in (0..aim.len()).filter(|&k| read.clues[k].1 > 0) {
                assert_eq!(owners[k], aim[k], "{read:?} at {k}");
                numbered += 1;
                arrowed += usize::from(read.clues[k].0 != made.clues[k].0);
            }
        }
        // Both kinds occur: numbers read for their gates as they stand, and
        // numbers that needed an arrow.
        assert!(numbered > 1000 && arrowed > 20, "{numbered} numbers, {arrowed} arrows");
    }
}

//! Pencils against brute force written here: npm's pzpr does not know the
//! genre, so tiny random puzzles are counted by somaria and by trying every
//! drawing (tips, lines, and the borders between cells no line passes)
//! against pzprjs's checks, ported one by one from its `pencils.js`: the
//! board's rooms come from the borders, a room is a pencil when a tip
//! points away from an end of it, and each check reads the rooms, tips and
//! lines as pzprjs does, sharing nothing with the model.
//!
//! A drawing here is counted once for its tips and lines, whatever borders
//! make it pass: pzprjs's player may draw any borders between line cells,
//! and somaria's answer has none there.

use std::collections::BTreeSet;

use somaria::genres::{self, GENRES};
use somaria::rng::SplitMix64;
use somaria::{CountOptions, Status};

/// A drawing on a `rows` × `cols` board: each cell's tip (the given ones
/// and the drawn ones, 0 none), the lines (`across` row by row, then
/// `down`), and the borders (`walls`: vertical, then horizontal).
struct Board<'a> {
    rows: usize,
    cols: usize,
    numbers: &'a [i64],
    tips: &'a [i64],
    across: &'a [bool],
    down: &'a [bool],
    walls_v: &'a [bool],
    walls_h: &'a [bool],
}

impl Board<'_> {
    /// The cell beside `k` in direction `d` (1 up, 2 down, 3 left, 4 right).
    fn beside(&self, k: usize, d: i64) -> Option<usize> {
        let (r, c) = (k / self.cols, k % self.cols);
        match d {
            1 => (r > 0).then(|| k - self.cols),
            2 => (r + 1 < self.rows).then_some(k + self.cols),
            3 => (c > 0).then(|| k - 1),
            _ => (c + 1 < self.cols).then_some(k + 1),
        }
    }

    fn line(&self, k: usize, d: i64) -> bool {
        let (r, c) = (k / self.cols, k % self.cols);
        self.beside(k, d).is_some()
            && match d {
                1 => self.down[(r - 1) * self.cols + c],
                2 => self.down[r * self.cols + c],
                3 => self.across[r * (self.cols - 1) + c - 1],
                _ => self.across[r * (self.cols - 1) + c],
            }
    }

    fn wall(&self, k: usize, d: i64) -> bool {
        let (r, c) = (k / self.cols, k % self.cols);
        match d {
            1 => self.walls_h[(r - 1) * self.cols + c],
            2 => self.walls_h[r * self.cols + c],
            3 => self.walls_v[r * (self.cols - 1) + c - 1],
            _ => self.walls_v[r * (self.cols - 1) + c],
        }
    }

    fn lcnt(&self, k: usize) -> usize {
        (1..=4).filter(|&d| self.line(k, d)).count()
    }

    /// The groups of cells joined by `joined` (a flood fill).
    fn groups(&self, joined: impl Fn(usize, i64) -> bool) -> Vec<usize> {
        let mut of = vec![usize::MAX; self.rows * self.cols];
        let mut id = 0;
        for start in 0..of.len() {
            if of[start] != usize::MAX {
                continue;
            }
            let mut stack = vec![start];
            of[start] = id;
            while let Some(k) = stack.pop() {
                for d in 1..=4 {
                    if let Some(n) = self.beside(k, d).filter(|&n| of[n] == usize::MAX && joined(k, d)) {
                        of[n] = id;
                        stack.push(n);
                    }
                }
            }
            id += 1;
        }
        of
    }

    /// pzprjs's checks, in its order; whether every one passes.
    fn complete(&self) -> bool {
        let cells = self.rows * self.cols;
        if (0..cells).any(|k| self.lcnt(k) > 2) {
            return false;
        }
        let rooms_of = self.groups(|k, d| !self.wall(k, d));
        let room = &rooms_of;
        let members = |r: usize| (0..cells).filter(move |&k| room[k] == r);
        // A room's tips: a tip past an end of a straight room pointing away.
        let tips_of = |r: usize| -> Vec<usize> {
            let cells: Vec<usize> = members(r).collect();
            let (rs, cs): (BTreeSet<usize>, BTreeSet<usize>) =
                cells.iter().map(|&k| (k / self.cols, k % self.cols)).unzip();
            let mut out = Vec::new();
            let ends = [(rs.len() == 1, 3, cells[0]), (rs.len() == 1, 4, *cells.last().unwrap())];
            let ends2 = [(cs.len() == 1, 1, cells[0]), (cs.len() == 1, 2, *cells.last().unwrap())];
            for (straight, d, end) in ends.into_iter().chain(ends2) {
                if let Some(t) = self.beside(end, d).filter(|&t| straight && self.tips[t] == d) {
                    out.push(t);
                }
            }
            out
        };
        let rooms = room.iter().max().unwrap() + 1;
        let is_pencil: Vec<bool> = (0..rooms).map(|r| !tips_of(r).is_empty()).collect();
        let size = |r: usize| members(r).count();
        // The pencil a tip is the tip of, if any.
        let pencil_of = |t: usize| -> Option<usize> {
            let d = self.tips[t];
            let start = self.beside(t, [0, 2, 1, 4, 3][d as usize])?;
            tips_of(room[start]).contains(&t).then_some(room[start])
        };
        let tip = |k: usize| self.tips[k] > 0;
        let comps_of = self.groups(|k, d| self.line(k, d));
        let comp = &comps_of;
        let comp_size = |k: usize| (0..cells).filter(|&n| comp[n] == comp[k]).count();
        let line_comps: BTreeSet<usize> = (0..cells).filter(|&k| self.lcnt(k) > 0).map(|k| comp[k]).collect();
        let ends = |c: usize| (0..cells).filter(|&k| comp[k] == c && tip(k) && self.lcnt(k) == 1).count();
        let length_ok = |t: usize| pencil_of(t).is_none_or(|p| comp_size(t) - 1 == size(p));
        let numbers_ok =
            |k: usize| !is_pencil[room[k]] || self.numbers[k] <= 0 || self.numbers[k] as usize == size(room[k]);
        (0..rooms).all(|r| tips_of(r).len() <= 1)
            && line_comps.iter().all(|&c| ends(c) == 1)
            && (0..cells).filter(|&k| tip(k) && self.lcnt(k) == 1).all(length_ok)
            && (0..cells).all(numbers_ok)
            && (0..cells).all(|k| !(tip(k) && is_pencil[room[k]]))
            && (0..cells).all(|k| !(self.lcnt(k) > 0 && is_pencil[room[k]]))
            && (0..cells).all(|k| !((self.numbers[k] == -2 || self.numbers[k] > 0) && !is_pencil[room[k]]))
            && (0..cells).all(|k| !tip(k) || self.lcnt(k) == 1)
            && (0..cells).all(|k| !tip(k) || pencil_of(k).is_some())
            && (0..cells).all(|k| self.lcnt(k) > 0 || is_pencil[room[k]])
    }
}

/// A puzzle's given tips and numbers, from its parameters.
fn clues(instance: &dyn genres::Instance) -> (usize, usize, Vec<i64>, Vec<i64>) {
    let params = instance.params();
    let flat = |name: &str| -> Vec<i64> {
        params[name]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap().iter().map(|v| v.as_integer().unwrap()))
            .collect()
    };
    let (rows, cols) = instance.size();
    (rows, cols, flat("dir"), flat("clue"))
}

/// The bits of `n`, `len` of them.
fn bits(n: u64, len: usize) -> Vec<bool> {
    (0..len).map(|i| n >> i & 1 == 1).collect()
}

/// How many drawings (tips and lines) pass for some borders.
fn brute_count(rows: usize, cols: usize, dirs: &[i64], numbers: &[i64]) -> u64 {
    let cells = rows * cols;
    let (n_across, n_down) = (rows * (cols - 1), (rows - 1) * cols);
    let free: Vec<usize> = (0..cells).filter(|&k| dirs[k] == 0 && numbers[k] == -1).collect();
    let mut count = 0;
    for choice in 0..5u64.pow(free.len() as u32) {
        let mut tips = dirs.to_vec();
        let mut rest = choice;
        for &k in &free {
            tips[k] = (rest % 5) as i64;
            rest /= 5;
        }
        for lines in 0..1u64 << (n_across + n_down) {
            let all = bits(lines, n_across + n_down);
            let (across, down) = all.split_at(n_across);
            if passes_for_some_borders(rows, cols, numbers, &tips, across, down) {
                count += 1;
            }
        }
    }
    count
}

/// Whether the drawing passes with a border between every line cell and
/// every other cell, none between line cells, and some choice of borders
/// between the cells no line passes.
fn passes_for_some_borders(
    rows: usize,
    cols: usize,
    numbers: &[i64],
    tips: &[i64],
    across: &[bool],
    down: &[bool],
) -> bool {
    let (walls_v, walls_h) = (vec![false; rows * (cols - 1)], vec![false; (rows - 1) * cols]);
    let board = Board { rows, cols, numbers, tips, across, down, walls_v: &walls_v, walls_h: &walls_h };
    let used: Vec<bool> = (0..rows * cols).map(|k| board.lcnt(k) > 0).collect();
    // Checks that no borders change, first: no branch, a line at each tip.
    if (0..rows * cols).any(|k| board.lcnt(k) > 2 || (tips[k] > 0 && board.lcnt(k) != 1)) {
        return false;
    }
    let pairs: Vec<(bool, usize, usize, usize)> = (0..walls_v.len())
        .map(|i| (true, i, (i / (cols - 1)) * cols + i % (cols - 1), (i / (cols - 1)) * cols + i % (cols - 1) + 1))
        .chain((0..walls_h.len()).map(|i| (false, i, i, i + cols)))
        .collect();
    let open: Vec<usize> = (0..pairs.len()).filter(|&p| !used[pairs[p].2] && !used[pairs[p].3]).collect();
    for choice in 0..1u64 << open.len() {
        let (mut v, mut h) = (walls_v.clone(), walls_h.clone());
        for (p, &(vertical, i, a, b)) in pairs.iter().enumerate() {
            let wall = match open.iter().position(|&o| o == p) {
                Some(bit) => choice >> bit & 1 == 1,
                None => used[a] != used[b],
            };
            if vertical { v[i] = wall } else { h[i] = wall }
        }
        if (Board { walls_v: &v, walls_h: &h, ..board }).complete() {
            return true;
        }
    }
    false
}

/// A pencils puzzle with no clue.
fn blank(rows: usize, cols: usize) -> Box<dyn genres::Instance> {
    let grid = |v: i64| toml::Value::Array(vec![toml::Value::Array(vec![v.into(); cols]); rows]);
    let mut params = toml::Table::new();
    params.insert("rows".into(), (rows as i64).into());
    params.insert("cols".into(), (cols as i64).into());
    params.insert("dir".into(), grid(0));
    params.insert("clue".into(), grid(-1));
    genres::instance_of("pencils", &params).unwrap()
}

#[test]
fn pencils_agree_with_brute_force_on_tiny_puzzles() {
    let genre = GENRES.iter().find(|g| g.id == "pencils").unwrap();
    let mut rng = SplitMix64::new(5);
    let mut solvable = 0;
    let mut puzzles = 0;
    for &(rows, cols) in &[(1, 4), (1, 5), (2, 2), (2, 3), (3, 2)] {
        for n in 0..13 {
            // The first of each size has no clue at all, so many drawings pass.
            let instance = match n {
                0 => blank(rows, cols),
                _ => (genre.random)(&mut rng, rows, cols),
            };
            let url = genres::url_of(instance.as_ref()).unwrap();
            let (rows, cols, dirs, numbers) = clues(instance.as_ref());
            let theirs = brute_count(rows, cols, &dirs, &numbers);
            let opened = genres::open_url(&url).unwrap();
            let count = opened.puzzle.count(&CountOptions { limit: Some(10_000), ..Default::default() }).unwrap();
            assert_eq!((count.count, count.complete), (theirs, true), "{url}");
            solvable += usize::from(theirs > 0);
            puzzles += 1;
        }
    }
    eprintln!("{puzzles} tiny pencils, {solvable} with a solution, counted alike");
}

#[test]
fn the_sample_answer_passes_pzprjs_checks_with_its_borders() {
    let url = "https://puzz.link/p?pencils/5/5/p.3k1ngkh3q";
    let opened = genres::open_url(url).unwrap();
    let report = opened.puzzle.solve(&Default::default()).unwrap();
    assert_eq!(report.status, Status::Solved);
    let file =
        opened.instance.as_ref().unwrap().file(&genres::Answer::Solution(&report.solution.unwrap().json)).unwrap();
    // The file's sections: clues, borders, lines, tips; read back here.
    let lines: Vec<&str> = file.lines().skip(4).collect();
    let row = |l: &str| -> Vec<String> { l.split_whitespace().map(String::from).collect() };
    let flat = |from: usize, n: usize| -> Vec<String> { lines[from..from + n].iter().flat_map(|l| row(l)).collect() };
    let on = |v: Vec<String>| -> Vec<bool> { v.iter().map(|t| t == "1").collect() };
    let (walls_v, walls_h) = (on(flat(5, 5)), on(flat(10, 4)));
    let (across, down) = (on(flat(14, 5)), on(flat(19, 4)));
    let (_, _, dirs, numbers) = clues(opened.instance.as_deref().unwrap());
    let drawn: Vec<i64> = flat(23, 5).iter().map(|t| t.parse().unwrap_or(0)).collect();
    let tips: Vec<i64> = dirs.iter().zip(&drawn).map(|(&g, &d)| g.max(d)).collect();
    let board = Board {
        rows: 5,
        cols: 5,
        numbers: &numbers,
        tips: &tips,
        across: &across,
        down: &down,
        walls_v: &walls_v,
        walls_h: &walls_h,
    };
    assert!(board.complete(), "{file}");
    // pzprjs's test script's answer draws the same lines and tips.
    assert_eq!(
        flat(14, 9).join(" "),
        "1 1 0 1 0 0 0 0 0 0 0 1 1 0 0 0 0 0 1 0 1 0 0 0 0 0 0 0 1 0 1 0 0 0 0 0 0 0 1 0"
    );
    let tips_row = |r: &str| r.split(' ').map(String::from).collect::<Vec<_>>();
    let empty = ". . . . .";
    let expected = [". . 1 . 1", empty, empty, empty, ". . 4 . ."].map(tips_row).concat();
    assert_eq!(flat(23, 5), expected);
}

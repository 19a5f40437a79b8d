//! The grid as the engines see it: cells numbered in reading order, what it
//! takes to enter each one, and which key lies where, with key letters
//! mapped to bit indices so that a set of keys fits in a `u32`.

use super::{Cell, KeysDoorsPuzzle};
use crate::grid::Dir;

/// A set of keys held, one bit per key in [`Board::key_letters`] order.
pub type KeySet = u32;

/// What it takes to step onto a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// Never: a wall, or a door whose key is not in the grid.
    Blocked,
    /// Always: floor, the start or a key.
    Open,
    /// Holding the key with this bit index.
    Door(u8),
}

/// The engines' view of a puzzle.
#[derive(Clone, Debug)]
pub struct Board {
    rows: usize,
    cols: usize,
    access: Vec<Access>,
    key_at: Vec<Option<u8>>,
    starts: Vec<usize>,
    key_cells: Vec<usize>,
    key_letters: Vec<char>,
}

impl Board {
    /// Numbers the cells and keys of a puzzle.
    pub fn new(puzzle: &KeysDoorsPuzzle) -> Board {
        let layout = puzzle.layout();
        let key_letters: Vec<char> = puzzle.keys().iter().map(|(letter, _)| *letter).collect();
        let key_cells = puzzle.keys().iter().map(|(_, pos)| layout.index_of(*pos)).collect();
        let bit_of = |letter: char| key_letters.iter().position(|&k| k == letter).map(|b| b as u8);
        let mut access = Vec::with_capacity(layout.rows() * layout.cols());
        let mut key_at = Vec::with_capacity(layout.rows() * layout.cols());
        for (_, cell) in layout.cells() {
            access.push(match *cell {
                Cell::Wall => Access::Blocked,
                Cell::Start | Cell::Floor | Cell::Key(_) => Access::Open,
                Cell::Door(letter) => bit_of(letter.to_ascii_lowercase()).map_or(Access::Blocked, Access::Door),
            });
            key_at.push(match *cell {
                Cell::Key(letter) => bit_of(letter),
                _ => None,
            });
        }
        let starts = puzzle.starts().iter().map(|&pos| layout.index_of(pos)).collect();
        Board { rows: layout.rows(), cols: layout.cols(), access, key_at, starts, key_cells, key_letters }
    }

    /// Number of cells, walls included.
    pub fn num_cells(&self) -> usize {
        self.access.len()
    }

    /// Number of columns, to turn a cell index back into `(row, col)`.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The first walker's start cell.
    pub fn start(&self) -> usize {
        self.starts[0]
    }

    /// Each walker's start cell, walkers in reading order of their `@`.
    pub fn starts(&self) -> &[usize] {
        &self.starts
    }

    /// Number of walkers.
    pub fn num_walkers(&self) -> usize {
        self.starts.len()
    }

    /// The key letters present, sorted; key `i` has bit `1 << i`.
    pub fn key_letters(&self) -> &[char] {
        &self.key_letters
    }

    /// The cell of the key with bit index `key`.
    pub fn key_cell(&self, key: usize) -> usize {
        self.key_cells[key]
    }

    /// Number of keys in the grid.
    pub fn num_keys(&self) -> usize {
        self.key_letters.len()
    }

    /// The set of every key in the grid.
    pub fn all_keys(&self) -> KeySet {
        // 26 letters at most, so the shift never reaches 32.
        ((1u64 << self.key_letters.len()) - 1) as KeySet
    }

    /// What it takes to enter `cell`.
    pub fn access(&self, cell: usize) -> Access {
        self.access[cell]
    }

    /// The bit index of the key lying on `cell`, if any.
    pub fn key_at(&self, cell: usize) -> Option<u8> {
        self.key_at[cell]
    }

    /// Whether `cell` can be entered while holding `keys`.
    pub fn can_enter(&self, cell: usize, keys: KeySet) -> bool {
        match self.access[cell] {
            Access::Blocked => false,
            Access::Open => true,
            Access::Door(bit) => keys & (1 << bit) != 0,
        }
    }

    /// The cells next to `cell` inside the grid, with the direction that leads
    /// to each; walls included.
    pub fn neighbours(&self, cell: usize) -> impl Iterator<Item = (Dir, usize)> + use<> {
        let (row, col) = (cell / self.cols, cell % self.cols);
        let (rows, cols) = (self.rows, self.cols);
        Dir::ALL.into_iter().filter_map(move |dir| {
            let next = match dir {
                Dir::Up => (row.checked_sub(1)?, col),
                Dir::Down => (row + 1, col),
                Dir::Left => (row, col.checked_sub(1)?),
                Dir::Right => (row, col + 1),
            };
            (next.0 < rows && next.1 < cols).then_some((dir, next.0 * cols + next.1))
        })
    }

    /// The cells reachable from `from` when every door whose key is in the
    /// grid is open: no walker starting there ever leaves them. Returned with
    /// each cell's distance from `from` in that open grid, `u32::MAX`
    /// elsewhere.
    pub fn open_distances_from(&self, from: usize) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.num_cells()];
        dist[from] = 0;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(cell) = queue.pop_front() {
            for (_, next) in self.neighbours(cell) {
                if dist[next] == u32::MAX && self.access[next] != Access::Blocked {
                    dist[next] = dist[cell] + 1;
                    queue.push_back(next);
                }
            }
        }
        dist
    }

    /// A shortest path on the grid from `from` to `to` holding `held`,
    /// walking over keys freely; `None` when `to` cannot be reached.
    pub fn shortest_path(&self, from: usize, to: usize, held: KeySet) -> Option<Vec<Dir>> {
        let mut came: Vec<Option<(Dir, usize)>> = vec![None; self.num_cells()];
        let mut queue = std::collections::VecDeque::from([from]);
        let mut seen = vec![false; self.num_cells()];
        seen[from] = true;
        while let Some(cell) = queue.pop_front() {
            if cell == to {
                let mut path = Vec::new();
                let mut at = to;
                while let Some((dir, before)) = came[at] {
                    path.push(dir);
                    at = before;
                }
                path.reverse();
                return Some(path);
            }
            for (dir, next) in self.neighbours(cell) {
                if !seen[next] && self.can_enter(next, held) {
                    seen[next] = true;
                    came[next] = Some((dir, cell));
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// For each key, the keys every route collects before it: those of the
    /// doors and key cells that every walk from a start to it steps on
    /// (with every door open, a walk that avoids such a cell does not
    /// exist). A walker steps on a door only holding its key, and picks up
    /// a key it steps on, so both come first. One flood fill per door and
    /// key, from all starts at once, with that cell walled.
    pub fn guarding_keys(&self) -> Vec<KeySet> {
        let mut before = vec![0; self.num_keys()];
        let guards = (0..self.num_cells()).filter_map(|cell| match (self.access[cell], self.key_at[cell]) {
            (Access::Door(bit), _) | (_, Some(bit)) => Some((cell, bit)),
            _ => None,
        });
        for (guard, bit) in guards {
            let mut seen = vec![false; self.num_cells()];
            seen[guard] = true;
            let mut stack: Vec<usize> = self.starts.iter().copied().filter(|&s| s != guard).collect();
            for &start in &stack {
                seen[start] = true;
            }
            while let Some(cell) = stack.pop() {
                for (_, next) in self.neighbours(cell) {
                    if !seen[next] && self.access[next] != Access::Blocked {
                        seen[next] = true;
                        stack.push(next);
                    }
                }
            }
            for (key, slot) in before.iter_mut().enumerate() {
                if !seen[self.key_cells[key]] && key != usize::from(bit) {
                    *slot |= 1 << bit;
                }
            }
        }
        before
    }

    /// The keys that can be collected at all: grow the set of keys held
    /// until a flood fill through the doors they open finds no new one.
    /// Keys are never lost, every step can be walked back and the walkers
    /// share their keys, so this is exactly the set of keys some route
    /// collects.
    pub fn collectable_keys(&self) -> KeySet {
        let mut held: KeySet = 0;
        loop {
            let mut seen = vec![false; self.num_cells()];
            for &start in &self.starts {
                seen[start] = true;
            }
            let mut stack = self.starts.clone();
            let mut found = held;
            while let Some(cell) = stack.pop() {
                if let Some(bit) = self.key_at[cell] {
                    found |= 1 << bit;
                }
                for (_, next) in self.neighbours(cell) {
                    if !seen[next] && self.can_enter(next, held) {
                        seen[next] = true;
                        stack.push(next);
                    }
                }
            }
            if found == held {
                return held;
            }
            held = found;
        }
    }
}

#[cfg(test)]
mod examples {
    #[test]
    fn board() {
        use crate::puzzles::keys_doors::KeysDoorsPuzzle;
        use crate::puzzles::keys_doors::board::{Access, Board};
        // Keys a and c, no b: they get bits 0 and 1. Door B has no key, so it is a wall.
        let puzzle = KeysDoorsPuzzle::from_picture("@aBC\nc...").unwrap();
        let board = Board::new(&puzzle);
        assert_eq!(board.key_letters(), &['a', 'c']);
        assert_eq!(board.access(2), Access::Blocked);
        assert_eq!(board.access(3), Access::Door(1));
        assert_eq!(board.all_keys(), 0b11);
    }
}

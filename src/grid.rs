//! Rectangular grids of cells and the four directions of movement, shared by
//! every grid puzzle.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A cell position, `(row, col)`, both from 0 at the top left.
pub type Pos = (usize, usize);

/// One of the four grid directions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    /// Towards row 0.
    Up,
    /// Towards the last row.
    Down,
    /// Towards column 0.
    Left,
    /// Towards the last column.
    Right,
}

impl Dir {
    /// All four, in the order up, down, left, right.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The position of this direction in [`Dir::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The lowercase name, as used in models and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }

    /// Parses a lowercase name.
    ///
    /// ```
    /// use somaria::grid::Dir;
    /// assert_eq!(Dir::from_name("left"), Some(Dir::Left));
    /// assert_eq!(Dir::from_name("north"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The opposite direction.
    ///
    /// ```
    /// use somaria::grid::Dir;
    /// assert_eq!(Dir::Up.opposite(), Dir::Down);
    /// ```
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// An arrow for drawing.
    pub fn arrow(self) -> char {
        match self {
            Dir::Up => '↑',
            Dir::Down => '↓',
            Dir::Left => '←',
            Dir::Right => '→',
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rectangular grid of cells stored row by row.
///
/// ```
/// use somaria::grid::{Dir, Grid};
/// let grid = Grid::from_rows(vec![vec!['a', 'b'], vec!['c', 'd']]).unwrap();
/// assert_eq!(grid[(1, 0)], 'c');
/// assert_eq!(grid.step((0, 0), Dir::Right), Some((0, 1)));
/// assert_eq!(grid.step((0, 0), Dir::Up), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid<T> {
    rows: usize,
    cols: usize,
    cells: Vec<T>,
}

impl<T> Grid<T> {
    /// A grid from equal-length rows; `None` when rows differ in length or
    /// there are none.
    pub fn from_rows(rows: Vec<Vec<T>>) -> Option<Grid<T>> {
        let cols = rows.first()?.len();
        if cols == 0 || rows.iter().any(|r| r.len() != cols) {
            return None;
        }
        let height = rows.len();
        Some(Grid { rows: height, cols, cells: rows.into_iter().flatten().collect() })
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The cell at `pos`, or `None` outside the grid.
    pub fn get(&self, (row, col): Pos) -> Option<&T> {
        (row < self.rows && col < self.cols).then(|| &self.cells[row * self.cols + col])
    }

    /// The neighbour of `pos` in direction `dir`, or `None` at the edge.
    pub fn step(&self, (row, col): Pos, dir: Dir) -> Option<Pos> {
        let next = match dir {
            Dir::Up => (row.checked_sub(1)?, col),
            Dir::Down => (row + 1, col),
            Dir::Left => (row, col.checked_sub(1)?),
            Dir::Right => (row, col + 1),
        };
        (next.0 < self.rows && next.1 < self.cols).then_some(next)
    }

    /// Every position in reading order (row by row, left to right) with its cell.
    pub fn cells(&self) -> impl Iterator<Item = (Pos, &T)> + '_ {
        let cols = self.cols;
        self.cells.iter().enumerate().map(move |(i, cell)| ((i / cols, i % cols), cell))
    }

    /// The index of `pos` in reading order.
    pub fn index_of(&self, (row, col): Pos) -> usize {
        row * self.cols + col
    }

    /// A picture for a person: one character per cell from `mark`, cells
    /// separated by spaces so the grid keeps its shape, a line per row.
    ///
    /// ```
    /// use somaria::grid::Grid;
    /// let grid = Grid::from_rows(vec![vec![1, 2], vec![3, 4]]).unwrap();
    /// assert_eq!(grid.draw(|_, n| if n % 2 == 0 { '#' } else { '.' }), ". #\n. #\n");
    /// ```
    pub fn draw(&self, mark: impl Fn(Pos, &T) -> char) -> String {
        let mut out = String::with_capacity(self.cells.len() * 2);
        for (pos, cell) in self.cells() {
            if pos.1 > 0 {
                out.push(' ');
            }
            out.push(mark(pos, cell));
            if pos.1 + 1 == self.cols {
                out.truncate(out.trim_end().len());
                out.push('\n');
            }
        }
        out
    }
}

impl<T> std::ops::Index<Pos> for Grid<T> {
    type Output = T;
    fn index(&self, pos: Pos) -> &T {
        self.get(pos).expect("position inside the grid")
    }
}

impl<T> std::ops::IndexMut<Pos> for Grid<T> {
    fn index_mut(&mut self, pos: Pos) -> &mut T {
        assert!(pos.0 < self.rows && pos.1 < self.cols, "position inside the grid");
        let at = self.index_of(pos);
        &mut self.cells[at]
    }
}

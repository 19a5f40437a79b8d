//! A [`Scene`]: a picture of a grid puzzle, described by what is on it
//! rather than how it is drawn: each family says which cells are walls,
//! which are shaded, which marks stand where and which routes run through
//! which cells, and [`super::svg`] draws it. A family never writes SVG
//! itself.

use crate::grid::{Dir, Pos};

/// What a cell's ground is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ground {
    /// Open floor.
    Floor,
    /// A wall.
    Wall,
    /// A cell singled out, such as a tile left uncovered or one that some
    /// route may leave.
    Shaded,
}

/// A colour role; the drawing picks the colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tint {
    /// The `n`th route or walker (colours cycle).
    Route(usize),
    /// A fan's wind.
    Wind,
    /// Something the puzzle asks for: a key, a weathercock.
    Goal,
    /// Something in the way: a door.
    Obstacle,
    /// Plain ink.
    Ink,
}

/// A mark drawn in a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// An arrow pointing one way.
    Arrow(Dir, Tint),
    /// A short label, such as a key's letter or a number.
    Label(String, Tint),
    /// A ring: where a route starts.
    Start(Tint),
    /// A filled square: where a route ends.
    End(Tint),
    /// A small disc.
    Dot(Tint),
}

/// A route through cell centres, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trail {
    /// The cells, in order; consecutive cells need not touch (a fan's wind
    /// is one straight trail from the fan to where it stops).
    pub cells: Vec<Pos>,
    /// Its colour role.
    pub tint: Tint,
    /// Whether it closes back on its first cell.
    pub closed: bool,
}

/// A picture of a grid and what is on it.
///
/// ```
/// use somaria::draw::{Ground, Scene};
/// let mut scene = Scene::new(2, 3);
/// scene.set_ground((0, 1), Ground::Wall);
/// assert_eq!(scene.ground((0, 1)), Ground::Wall);
/// assert_eq!(scene.ground((1, 2)), Ground::Floor);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    rows: usize,
    cols: usize,
    grounds: Vec<Ground>,
    /// Marks, each in a cell.
    pub marks: Vec<(Pos, Mark)>,
    /// Routes, drawn over the ground and under the marks.
    pub trails: Vec<Trail>,
    /// Cells drawn with a heavy outline, such as those an explanation names.
    pub outlines: Vec<Pos>,
    /// Lines of text under the grid.
    pub caption: Vec<String>,
}

impl Scene {
    /// A `rows` × `cols` grid of floor with nothing on it.
    pub fn new(rows: usize, cols: usize) -> Scene {
        Scene {
            rows,
            cols,
            grounds: vec![Ground::Floor; rows * cols],
            marks: Vec::new(),
            trails: Vec::new(),
            outlines: Vec::new(),
            caption: Vec::new(),
        }
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The ground of a cell; cells outside the grid read as floor.
    pub fn ground(&self, (row, col): Pos) -> Ground {
        if row < self.rows && col < self.cols { self.grounds[row * self.cols + col] } else { Ground::Floor }
    }

    /// Sets the ground of a cell; cells outside the grid are ignored.
    pub fn set_ground(&mut self, (row, col): Pos, ground: Ground) {
        if row < self.rows && col < self.cols {
            self.grounds[row * self.cols + col] = ground;
        }
    }

    /// Runs of cells with the same ground in one row: `(row, first col,
    /// length, ground)`, so that a large room is drawn with few shapes.
    pub fn ground_runs(&self) -> impl Iterator<Item = (usize, usize, usize, Ground)> + '_ {
        (0..self.rows).flat_map(move |row| {
            let line = &self.grounds[row * self.cols..(row + 1) * self.cols];
            let mut runs = Vec::new();
            let mut start = 0;
            for col in 1..=line.len() {
                if col == line.len() || line[col] != line[start] {
                    runs.push((row, start, col - start, line[start]));
                    start = col;
                }
            }
            runs
        })
    }
}

//! A [`Scene`]: a picture of a grid puzzle, described by what is on it
//! rather than how it is drawn. A family says which cells are walls, which
//! are shaded, which marks and labels stand where, which lines run along
//! the cells' sides, which cells form regions, and which routes run through
//! which cells; [`super::svg`] and [`super::text`] draw it. A family never
//! writes SVG itself.

use crate::grid::{Dir, Pos};

/// What a cell's ground is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ground {
    /// Open floor.
    Floor,
    /// A wall.
    Wall,
    /// A cell singled out, such as a tile left uncovered or one that some
    /// route may leave, in a colour role.
    Shaded(Tint),
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
    /// A cell singled out: a tile left uncovered, a value that varies.
    Highlight,
    /// Plain ink.
    Ink,
    /// A puzzle's given: a clue's cell, a Sudoku's given digit.
    Given,
}

/// What stands in a cell: a shape or a label. Marks are drawn in the order
/// they were added, so a later mark in a cell stands on an earlier one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// An arrow pointing one way.
    Arrow(Dir, Tint),
    /// A short label: a clue number, a key's letter, an enum value's name.
    Label(String, Tint),
    /// A ring, such as where a route starts.
    Ring(Tint),
    /// A filled square, such as where a route ends.
    Square(Tint),
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

/// Which way a side of a cell runs from its corner.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Along {
    /// To the right: the top side of cell `(row, col)` from corner `(row, col)`.
    Across,
    /// Downwards: the left side of cell `(row, col)` from corner `(row, col)`.
    Down,
}

/// What an edge shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stroke {
    /// A line along the side, such as a slitherlink loop.
    Line(Tint),
    /// A cross on the side: it is known not to be a line.
    Cross(Tint),
}

/// A side of a cell on the corner lattice: corners are `(row, col)` with
/// `row` up to the grid's rows and `col` up to its columns, and a side runs
/// from its corner one step [`Along`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The corner it starts from.
    pub corner: Pos,
    /// Which way it runs.
    pub along: Along,
    /// What it shows.
    pub stroke: Stroke,
}

/// A picture of an R × C grid and what is on it, in layers: the ground of
/// each cell, region borders, edges along the cells' sides (with dots at
/// the corners), trails through cell centres, marks in cells, outlines on
/// cells and a caption under the grid.
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
    /// Each cell's region, once any is set.
    regions: Option<Vec<usize>>,
    /// Marks, each in a cell, in drawing order.
    pub marks: Vec<(Pos, Mark)>,
    /// Routes, drawn over the ground and under the marks.
    pub trails: Vec<Trail>,
    /// Sides of cells, drawn over the region borders.
    pub edges: Vec<Edge>,
    /// Whether a dot stands on every corner of the lattice, as slitherlink
    /// draws its grid.
    pub corner_dots: bool,
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
            regions: None,
            marks: Vec::new(),
            trails: Vec::new(),
            edges: Vec::new(),
            corner_dots: false,
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

    fn index(&self, (row, col): Pos) -> Option<usize> {
        (row < self.rows && col < self.cols).then_some(row * self.cols + col)
    }

    /// The ground of a cell; cells outside the grid read as floor.
    pub fn ground(&self, pos: Pos) -> Ground {
        self.index(pos).map_or(Ground::Floor, |i| self.grounds[i])
    }

    /// Sets the ground of a cell; cells outside the grid are ignored.
    pub fn set_ground(&mut self, pos: Pos, ground: Ground) {
        if let Some(i) = self.index(pos) {
            self.grounds[i] = ground;
        }
    }

    /// The region of a cell, when the scene has regions: cells start in
    /// region 0 once any cell's region is set. Cells outside the grid have
    /// none.
    pub fn region(&self, pos: Pos) -> Option<usize> {
        Some(self.regions.as_ref()?[self.index(pos)?])
    }

    /// Puts a cell in a region; a heavy border is drawn between cells of
    /// different regions, and around the grid. Cells outside the grid are
    /// ignored.
    ///
    /// ```
    /// use somaria::draw::{Along, Scene};
    /// let mut scene = Scene::new(2, 2);
    /// assert_eq!(scene.region((0, 0)), None);
    /// scene.set_region((0, 1), 7);
    /// assert_eq!((scene.region((0, 0)), scene.region((0, 1))), (Some(0), Some(7)));
    /// assert!(scene.is_border((0, 1), Along::Down), "between (0, 0) and (0, 1)");
    /// assert!(!scene.is_border((1, 0), Along::Across), "between (0, 0) and (1, 0)");
    /// ```
    pub fn set_region(&mut self, pos: Pos, region: usize) {
        let Some(i) = self.index(pos) else { return };
        self.regions.get_or_insert_with(|| vec![0; self.rows * self.cols])[i] = region;
    }

    /// Whether a region border runs along a side: between two cells of
    /// different regions, or between a cell and the outside of the grid
    /// (the grid's outline is a border once the scene has regions).
    pub fn is_border(&self, (row, col): Pos, along: Along) -> bool {
        let Some(regions) = &self.regions else { return false };
        let before = match along {
            Along::Across => row.checked_sub(1).map(|r| (r, col)),
            Along::Down => col.checked_sub(1).map(|c| (row, c)),
        };
        let region = |pos: Option<Pos>| pos.and_then(|p| self.index(p)).map(|i| regions[i]);
        region(before) != region(Some((row, col)))
    }

    /// Whether the scene has regions, whose borders are drawn.
    pub fn has_regions(&self) -> bool {
        self.regions.is_some()
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

/// A small scene for the back ends' tests: two rows of three cells, the
/// right column a region of its own, a clue in two cells, a line along two
/// sides of the top-left cell and a cross under the middle one.
#[cfg(test)]
pub(super) fn sample() -> Scene {
    let mut scene = Scene::new(2, 3);
    for row in 0..2 {
        scene.set_region((row, 2), 1);
    }
    scene.marks.push(((0, 0), Mark::Label("3".into(), Tint::Ink)));
    scene.marks.push(((1, 2), Mark::Label("12".into(), Tint::Ink)));
    let line = Stroke::Line(Tint::Route(0));
    scene.edges.push(Edge { corner: (1, 0), along: Along::Across, stroke: line });
    scene.edges.push(Edge { corner: (0, 1), along: Along::Down, stroke: line });
    scene.edges.push(Edge { corner: (1, 1), along: Along::Across, stroke: Stroke::Cross(Tint::Ink) });
    scene
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_merge_cells_of_one_ground() {
        let mut scene = Scene::new(1, 5);
        for col in 1..4 {
            scene.set_ground((0, col), Ground::Wall);
        }
        let runs: Vec<_> = scene.ground_runs().collect();
        assert_eq!(runs, vec![(0, 0, 1, Ground::Floor), (0, 1, 3, Ground::Wall), (0, 4, 1, Ground::Floor)]);
    }

    #[test]
    fn the_grid_outline_is_a_border_once_there_are_regions() {
        let mut scene = Scene::new(1, 2);
        assert!(!scene.is_border((0, 2), Along::Down));
        scene.set_region((0, 0), 0);
        assert!(scene.is_border((0, 2), Along::Down), "the right side of the grid");
        assert!(scene.is_border((0, 0), Along::Across) && scene.is_border((1, 1), Along::Across));
        assert!(!scene.is_border((0, 1), Along::Down), "inside region 0");
        assert!(!scene.is_border((0, 2), Along::Across), "off the lattice");
    }
}

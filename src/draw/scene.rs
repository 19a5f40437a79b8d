//! A [`Scene`]: a picture of a grid puzzle, described by what is on it
//! rather than how it is drawn. A family says which cells are walls, which
//! are shaded, which marks and labels stand where, which lines run along
//! the cells' sides or between their centres, which cells form regions
//! (any number of layers of them, each with its own border), which clues
//! stand outside the grid, and which routes run through which cells;
//! [`super::svg`] and [`super::text`] draw it. A family never writes SVG
//! itself.
//!
//! A scene and all its parts are [`Serialize`], so that a page can draw
//! one itself; the colours stand as roles ([`Tint`]) except where a model
//! gives its own ([`Tint::Rgb`]).

use serde::Serialize;

use crate::grid::{Dir, Pos};

/// What a cell's ground is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ground {
    /// Open floor.
    Floor,
    /// A wall.
    Wall,
    /// A cell singled out, such as a tile left uncovered or one that some
    /// route may leave, in a colour role.
    Shaded(Tint),
    /// No cell: bare paper without grid lines, such as the room beside a
    /// narrower array or the line that names an array.
    Blank,
}

/// A colour role; the drawing picks the colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
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
    /// The paper: a white pearl, a cell's bare ground.
    Paper,
    /// A colour a model names, as red, green and blue.
    Rgb([u8; 3]),
}

/// The shape of a [`Mark`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// A short label in the cell's middle: a clue number, a key's letter,
    /// an enum value's name.
    Label(String),
    /// A small label in the cell's top-left corner, such as a Killer
    /// Sudoku's cage sum or a KenKen cage's `12+`, leaving the middle to a
    /// value.
    CornerLabel(String),
    /// An arrow pointing one way.
    Arrow(Dir),
    /// A number with a small arrow beside it, pointing one way, as a
    /// Yajilin clue.
    NumberedArrow(Dir, String),
    /// A ring, such as where a route starts.
    Ring,
    /// A circle with an ink rim, filled with the mark's tint: a white
    /// pearl ([`Tint::Paper`]), a black one ([`Tint::Ink`]).
    Circle,
    /// A filled disc: a queen, a weathercock, a black pearl.
    Dot,
    /// A filled square, such as where a route ends.
    Square,
    /// A five-pointed star.
    Star,
    /// A cross, such as a cell known to be empty.
    Cross,
    /// A right triangle filling half the cell, its right angle in this
    /// corner.
    Triangle(Corner),
    /// A sun: a disc with rays.
    Sun,
    /// A moon: a crescent.
    Moon,
    /// A heading that starts at the cell's left side and runs on along its
    /// row, such as the name of an array drawn below it.
    Heading(String),
}

/// A corner of a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Corner {
    /// Up and left.
    TopLeft,
    /// Up and right.
    TopRight,
    /// Down and left.
    BottomLeft,
    /// Down and right.
    BottomRight,
}

/// What stands in a cell: a shape or a label, in a colour and a size.
/// Marks are drawn in the order they were added, above lines, so that a
/// later mark in a cell stands on an earlier one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mark {
    /// What is drawn.
    pub shape: Shape,
    /// Its colour.
    pub tint: Tint,
    /// Its size in hundredths of a cell: a label's font size, a circle's
    /// diameter, a square's side.
    pub size: u8,
}

impl Shape {
    /// The size a mark of this shape has unless it is given one.
    pub fn default_size(&self) -> u8 {
        match self {
            Shape::Label(_) => 60,
            Shape::CornerLabel(_) => 28,
            Shape::NumberedArrow(..) => 45,
            Shape::Arrow(_) => 57,
            Shape::Ring => 60,
            Shape::Circle | Shape::Star | Shape::Sun | Shape::Moon => 72,
            Shape::Dot => 28,
            Shape::Square => 44,
            Shape::Cross => 50,
            Shape::Triangle(_) => 100,
            Shape::Heading(_) => 55,
        }
    }
}

impl Mark {
    /// A mark of `shape` in `tint`, at the shape's usual size.
    pub fn new(shape: Shape, tint: Tint) -> Mark {
        let size = shape.default_size();
        Mark { shape, tint, size }
    }

    /// The same mark at `size` hundredths of a cell.
    pub fn sized(self, size: u8) -> Mark {
        Mark { size, ..self }
    }

    /// A label in the cell's middle.
    pub fn label(text: impl Into<String>, tint: Tint) -> Mark {
        Mark::new(Shape::Label(text.into()), tint)
    }

    /// A small label in the cell's top-left corner.
    pub fn corner_label(text: impl Into<String>, tint: Tint) -> Mark {
        Mark::new(Shape::CornerLabel(text.into()), tint)
    }

    /// An arrow.
    pub fn arrow(dir: Dir, tint: Tint) -> Mark {
        Mark::new(Shape::Arrow(dir), tint)
    }

    /// A ring.
    pub fn ring(tint: Tint) -> Mark {
        Mark::new(Shape::Ring, tint)
    }

    /// A filled square.
    pub fn square(tint: Tint) -> Mark {
        Mark::new(Shape::Square, tint)
    }

    /// A small disc.
    pub fn dot(tint: Tint) -> Mark {
        Mark::new(Shape::Dot, tint)
    }

    /// The text of a label, a corner label or a numbered arrow.
    pub fn text(&self) -> Option<&str> {
        match &self.shape {
            Shape::Label(text) | Shape::CornerLabel(text) | Shape::NumberedArrow(_, text) | Shape::Heading(text) => {
                Some(text)
            }
            _ => None,
        }
    }
}

/// A route through cell centres, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Trail {
    /// The cells, in order; consecutive cells need not touch (a fan's wind
    /// is one straight trail from the fan to where it stops).
    pub cells: Vec<Pos>,
    /// Its colour role.
    pub tint: Tint,
    /// Whether it closes back on its first cell.
    pub closed: bool,
}

/// Which way a side of a cell, or a step between cells, runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Along {
    /// To the right: the top side of cell `(row, col)` from corner `(row,
    /// col)`; the step from cell `(row, col)` to `(row, col + 1)`.
    Across,
    /// Downwards: the left side of cell `(row, col)` from corner `(row,
    /// col)`; the step from cell `(row, col)` to `(row + 1, col)`.
    Down,
}

/// What an edge or a link shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stroke {
    /// A line, such as a slitherlink loop along a side or a masyu loop
    /// between two cells' centres.
    Line(Tint),
    /// A small cross: it is known not to be a line.
    Cross(Tint),
    /// Nothing is known of it: drawn only when it is singled out.
    Unknown,
}

/// A side of a cell on the corner lattice: corners are `(row, col)` with
/// `row` up to the grid's rows and `col` up to its columns, and a side runs
/// from its corner one step [`Along`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Edge {
    /// The corner it starts from.
    pub corner: Pos,
    /// Which way it runs.
    pub along: Along,
    /// What it shows.
    pub stroke: Stroke,
    /// Whether it is singled out, as what a hint's step settles.
    pub highlight: bool,
}

/// A step between the centres of two neighbouring cells, as a loop through
/// cells takes it: from `cell` to the cell right of it ([`Along::Across`])
/// or below it ([`Along::Down`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Link {
    /// The cell it starts from.
    pub cell: Pos,
    /// Which way it runs.
    pub along: Along,
    /// What it shows: a line, or a cross where it is known not to be one.
    pub stroke: Stroke,
    /// Whether it is singled out, as what a hint's step settles.
    pub highlight: bool,
}

/// How the borders of one layer of regions are drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Border {
    /// A heavy line on the cells' sides: a Sudoku's boxes, a KenKen's cages.
    Heavy,
    /// A thin line on the cells' sides.
    Thin,
    /// A dashed line just inside each region, as a Killer Sudoku's cages are
    /// drawn, so that it shows beside a heavy border on the same side.
    Dashed,
}

/// One layer of regions: each cell's region, and how their borders are
/// drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Regions {
    /// How the borders are drawn.
    pub border: Border,
    /// Their colour.
    pub tint: Tint,
    /// Each cell's region, row by row.
    pub cells: Vec<usize>,
}

/// A side of the grid.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Above the grid.
    Top,
    /// Below the grid.
    Bottom,
    /// Left of the grid.
    Left,
    /// Right of the grid.
    Right,
}

/// A clue outside the grid, such as a skyscraper's count or a number of a
/// nonogram's clue list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outside {
    /// The side it stands on.
    pub side: Side,
    /// The row (left and right) or column (top and bottom) it belongs to.
    pub line: usize,
    /// How far out it stands: 0 beside the grid, 1 one cell further out.
    pub depth: usize,
    /// What it says.
    pub text: String,
    /// Its colour.
    pub tint: Tint,
}

/// A picture of an R × C grid and what is on it, in layers: the ground of
/// each cell, region borders (each layer of regions in order), edges along
/// the cells' sides (with dots at the corners), trails through cell
/// centres, links between them, marks in cells, outlines on cells, clues
/// outside the grid and a caption under it.
///
/// ```
/// use somaria::draw::{Ground, Scene};
/// let mut scene = Scene::new(2, 3);
/// scene.set_ground((0, 1), Ground::Wall);
/// assert_eq!(scene.ground((0, 1)), Ground::Wall);
/// assert_eq!(scene.ground((1, 2)), Ground::Floor);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Scene {
    rows: usize,
    cols: usize,
    grounds: Vec<Ground>,
    /// The layers of regions, each drawn over the ones before.
    regions: Vec<Regions>,
    /// Marks, each in a cell, in drawing order.
    pub marks: Vec<(Pos, Mark)>,
    /// Routes, drawn over the ground and under the marks.
    pub trails: Vec<Trail>,
    /// Sides of cells, drawn over the region borders.
    pub edges: Vec<Edge>,
    /// Steps between the centres of neighbouring cells, drawn over the
    /// trails and under the marks.
    pub links: Vec<Link>,
    /// Whether a dot stands on every corner of the lattice, as slitherlink
    /// draws its grid.
    pub corner_dots: bool,
    /// Cells drawn with a heavy outline, such as those an explanation names.
    pub outlines: Vec<Pos>,
    /// Clues outside the grid.
    pub outside: Vec<Outside>,
    /// Lines of text under the grid.
    pub caption: Vec<String>,
    /// How many times wider than tall a cell is drawn (1 unless set), so
    /// that a grid of names, such as a zebra puzzle's houses, is legible.
    pub col_width: usize,
    /// The lines a player draws, in every state: each has a place in the
    /// picture of its own, known or not, so that a page built on the
    /// picture can take a click on it.
    pub line_places: LinePlaces,
}

/// Which lines of a grid a puzzle draws: the sides of its cells (a
/// slitherlink's loop), the steps between their centres (a masyu's), or
/// both.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LinePlaces {
    /// Every side of every cell, from corner to corner.
    pub sides: bool,
    /// Every step between the centres of two neighbouring cells.
    pub steps: bool,
}

impl Scene {
    /// A `rows` × `cols` grid of floor with nothing on it.
    pub fn new(rows: usize, cols: usize) -> Scene {
        Scene {
            rows,
            cols,
            grounds: vec![Ground::Floor; rows * cols],
            regions: Vec::new(),
            marks: Vec::new(),
            trails: Vec::new(),
            edges: Vec::new(),
            links: Vec::new(),
            corner_dots: false,
            outlines: Vec::new(),
            outside: Vec::new(),
            caption: Vec::new(),
            col_width: 1,
            line_places: LinePlaces::default(),
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

    /// Adds a layer of regions whose borders are drawn `border` in `tint`,
    /// every cell in region 0 until [`Scene::set_region_in`] says
    /// otherwise; returns the layer's number.
    pub fn add_regions(&mut self, border: Border, tint: Tint) -> usize {
        self.regions.push(Regions { border, tint, cells: vec![0; self.rows * self.cols] });
        self.regions.len() - 1
    }

    /// The layers of regions, in drawing order.
    pub fn region_layers(&self) -> &[Regions] {
        &self.regions
    }

    /// Puts a cell in a region of the layer `layer`; cells outside the
    /// grid, and layers that do not exist, are ignored.
    pub fn set_region_in(&mut self, layer: usize, pos: Pos, region: usize) {
        let Some(i) = self.index(pos) else { return };
        if let Some(regions) = self.regions.get_mut(layer) {
            regions.cells[i] = region;
        }
    }

    /// The region of a cell in the first layer of regions, when the scene
    /// has one: cells start in region 0 once any cell's region is set.
    /// Cells outside the grid have none.
    pub fn region(&self, pos: Pos) -> Option<usize> {
        Some(self.regions.first()?.cells[self.index(pos)?])
    }

    /// Puts a cell in a region of the first layer of regions, which is one
    /// of heavy borders in ink when none is there yet; a border is drawn
    /// between cells of different regions, and around the grid. Cells
    /// outside the grid are ignored.
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
        if self.index(pos).is_none() {
            return;
        }
        if self.regions.is_empty() {
            self.add_regions(Border::Heavy, Tint::Ink);
        }
        self.set_region_in(0, pos, region);
    }

    /// Whether the layer `regions` has a border along a side: between two
    /// cells of different regions, or between a cell and the outside of the
    /// grid.
    pub fn layer_border(&self, regions: &Regions, (row, col): Pos, along: Along) -> bool {
        let before = match along {
            Along::Across => row.checked_sub(1).map(|r| (r, col)),
            Along::Down => col.checked_sub(1).map(|c| (row, c)),
        };
        let region = |pos: Option<Pos>| pos.and_then(|p| self.index(p)).map(|i| regions.cells[i]);
        region(before) != region(Some((row, col)))
    }

    /// The border drawn along a side, the heaviest of any layer's: heavy
    /// over thin over dashed.
    pub fn border(&self, pos: Pos, along: Along) -> Option<Border> {
        let rank = |b: Border| match b {
            Border::Heavy => 2,
            Border::Thin => 1,
            Border::Dashed => 0,
        };
        self.regions.iter().filter(|r| self.layer_border(r, pos, along)).map(|r| r.border).max_by_key(|&b| rank(b))
    }

    /// Whether a heavy region border runs along a side: between two cells
    /// of different regions, or between a cell and the outside of the grid
    /// (the grid's outline is a border once the scene has regions).
    pub fn is_border(&self, pos: Pos, along: Along) -> bool {
        self.border(pos, along) == Some(Border::Heavy)
    }

    /// Whether the scene has regions, whose borders are drawn.
    pub fn has_regions(&self) -> bool {
        !self.regions.is_empty()
    }

    /// How many cells deep the clues outside the grid stand on a side.
    pub fn margin(&self, side: Side) -> usize {
        self.outside.iter().filter(|o| o.side == side).map(|o| o.depth + 1).max().unwrap_or(0)
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
    scene.marks.push(((0, 0), Mark::label("3", Tint::Ink)));
    scene.marks.push(((1, 2), Mark::label("12", Tint::Ink)));
    let line = Stroke::Line(Tint::Route(0));
    scene.edges.push(Edge { corner: (1, 0), along: Along::Across, stroke: line, highlight: false });
    scene.edges.push(Edge { corner: (0, 1), along: Along::Down, stroke: line, highlight: false });
    let cross = Stroke::Cross(Tint::Ink);
    scene.edges.push(Edge { corner: (1, 1), along: Along::Across, stroke: cross, highlight: false });
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
    fn a_scene_serializes_with_its_parts_named() {
        let mut scene = sample();
        scene.add_regions(Border::Dashed, Tint::Rgb([1, 2, 3]));
        scene.marks.push(((0, 1), Mark::corner_label("12+", Tint::Ink)));
        scene.links.push(Link { cell: (0, 0), along: Along::Down, stroke: Stroke::Unknown, highlight: true });
        scene.outside.push(Outside { side: Side::Top, line: 1, depth: 0, text: "3".into(), tint: Tint::Given });
        let json = serde_json::to_value(&scene).unwrap();
        assert_eq!(json["rows"], 2);
        assert_eq!(json["marks"][0][1]["shape"]["label"], "3");
        assert_eq!(json["marks"][2][1]["shape"]["corner_label"], "12+");
        assert_eq!(json["regions"][1]["border"], "dashed");
        assert_eq!(json["regions"][1]["tint"]["rgb"], serde_json::json!([1, 2, 3]));
        assert_eq!(json["edges"][2]["stroke"]["cross"], "ink");
        assert_eq!(json["links"][0]["stroke"], "unknown");
        assert_eq!(json["outside"][0]["side"], "top");
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

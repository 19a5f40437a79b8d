//! Drawing a [`Scene`] as lines of text, for the text reports.
//!
//! Each cell shows one glyph: its topmost mark that has one (a label's
//! text, an arrow, or the [`Style`]'s glyph for a ring, a square or a dot),
//! else what the trails make of it (the arrow towards the next cell where a
//! trail leaves it, `+` where trails leave it more than once, the turn of a
//! loop), else its ground. Columns are as wide as their widest glyph, and
//! glyphs stand at their right.
//!
//! A scene with neither edges, regions nor corner dots is drawn compactly,
//! one line per row with a space between cells (a loop's steps between
//! cells of a row drawn `─`). Otherwise it is drawn on the corner lattice:
//! a line of corners and sides above each row of cells, with edges as light
//! lines (`─`, `│`, `×` for a cross), region borders as heavy ones (`━`,
//! `┃`), and corners as the junction of what meets there (or `·`, with
//! corner dots).
//!
//! Outlined cells are bracketed: on the lattice each one, `[5]`; in the
//! compact form each run of them in a row, `[1 2] 3`, every row then
//! starting with a column for a bracket.

use std::collections::HashMap;

use super::{Along, Ground, Mark, Scene, Stroke};
use crate::grid::{Dir, Pos};

/// The glyphs a family draws its cells with, and the indent of each line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Style {
    /// A floor cell with nothing on it.
    pub floor: char,
    /// A wall.
    pub wall: char,
    /// A shaded cell with nothing on it.
    pub shaded: char,
    /// A dot; `None` shows what lies under it.
    pub dot: Option<char>,
    /// A ring; `None` shows what lies under it.
    pub ring: Option<char>,
    /// A square; `None` shows what lies under it.
    pub square: Option<char>,
    /// Written before every line.
    pub indent: &'static str,
}

/// Draws `scene` in `style`: the grid's lines, then the caption's, each
/// ending in a newline and without trailing spaces.
///
/// ```
/// use somaria::draw::{Ground, Mark, Scene, Tint, Trail, text};
/// let mut scene = Scene::new(2, 3);
/// scene.set_ground((1, 0), Ground::Wall);
/// scene.trails.push(Trail { cells: vec![(0, 0), (0, 1), (1, 1)], tint: Tint::Route(0), closed: false });
/// scene.marks.push(((0, 0), Mark::Ring(Tint::Ink)));
/// scene.marks.push(((1, 2), Mark::Label("10".into(), Tint::Ink)));
/// let style = text::Style { floor: '.', wall: '#', shaded: 'o', dot: None, ring: Some('S'), square: None, indent: "" };
/// assert_eq!(text::draw(&scene, &style), "S ↓  .\n# . 10\n");
/// ```
pub fn draw(scene: &Scene, style: &Style) -> String {
    let glyphs = Glyphs::of(scene, style);
    let widths = glyphs.widths(scene);
    let mut out = String::new();
    let mut write = |line: &str| {
        out.push_str(style.indent);
        out.push_str(line);
        out.truncate(out.trim_end().len());
        out.push('\n');
    };
    if scene.edges.is_empty() && !scene.has_regions() && !scene.corner_dots {
        for row in 0..scene.rows() {
            write(&compact_row(&glyphs, &widths, row));
        }
    } else {
        let lattice = Lattice::of(scene);
        for row in 0..=scene.rows() {
            write(&lattice.corner_row(scene, &glyphs, &widths, row));
            if row < scene.rows() {
                write(&lattice.cell_row(scene, &glyphs, &widths, row));
            }
        }
    }
    for line in &scene.caption {
        write(line);
    }
    out
}

/// What one cell shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Glyph<'a> {
    Char(char),
    Text(&'a str),
}

impl Glyph<'_> {
    fn width(self) -> usize {
        match self {
            Glyph::Char(_) => 1,
            Glyph::Text(text) => text.chars().count(),
        }
    }

    /// Writes the glyph at the right of `width` characters.
    fn write_padded(self, line: &mut String, width: usize) {
        line.extend(std::iter::repeat_n(' ', width.saturating_sub(self.width())));
        match self {
            Glyph::Char(c) => line.push(c),
            Glyph::Text(text) => line.push_str(text),
        }
    }
}

/// What the trails make of a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Passage {
    None,
    /// Left once, this way.
    Exit(Dir),
    /// Left more than once.
    Exits,
    /// On a loop, which turns here as the glyph shows.
    Loop(char),
}

/// Each cell's glyph, worked out once for the scene.
struct Glyphs<'a> {
    scene: &'a Scene,
    style: &'a Style,
    /// The topmost mark with a glyph, by cell index.
    marks: HashMap<usize, Glyph<'a>>,
    /// By cell index; empty without trails.
    passages: Vec<Passage>,
    /// Whether a loop steps from each cell to the one on its right, and to
    /// the one below, by cell index; empty without loops.
    joined_right: Vec<bool>,
    joined_down: Vec<bool>,
    /// Whether each cell is outlined, by cell index; empty without outlines.
    outlined: Vec<bool>,
}

impl<'a> Glyphs<'a> {
    fn of(scene: &'a Scene, style: &'a Style) -> Glyphs<'a> {
        let cols = scene.cols();
        let inside = |(row, col): Pos| (row < scene.rows() && col < cols).then_some(row * cols + col);
        let mut marks = HashMap::new();
        for (pos, mark) in &scene.marks {
            let glyph = match mark {
                Mark::Arrow(dir, _) => Some(Glyph::Char(dir.arrow())),
                Mark::Label(text, _) => Some(Glyph::Text(text.as_str())),
                Mark::Ring(_) => style.ring.map(Glyph::Char),
                Mark::Square(_) => style.square.map(Glyph::Char),
                Mark::Dot(_) => style.dot.map(Glyph::Char),
            };
            if let (Some(glyph), Some(i)) = (glyph, inside(*pos)) {
                marks.insert(i, glyph);
            }
        }
        let mut outlined = Vec::new();
        for &pos in &scene.outlines {
            if let Some(i) = inside(pos) {
                outlined.resize(scene.rows() * cols, false);
                outlined[i] = true;
            }
        }
        let (joined_right, joined_down) = (Vec::new(), Vec::new());
        let mut glyphs = Glyphs { scene, style, marks, passages: Vec::new(), joined_right, joined_down, outlined };
        glyphs.trace_trails(&inside);
        glyphs
    }

    /// Marks where each trail leaves a cell, and each loop's turns and steps.
    fn trace_trails(&mut self, inside: &impl Fn(Pos) -> Option<usize>) {
        let cells = self.scene.rows() * self.scene.cols();
        if !self.scene.trails.is_empty() {
            self.passages = vec![Passage::None; cells];
        }
        for trail in &self.scene.trails {
            let n = trail.cells.len();
            for (i, &cell) in trail.cells.iter().enumerate() {
                let Some(at) = inside(cell) else { continue };
                let next = if i + 1 < n {
                    Some(trail.cells[i + 1])
                } else if trail.closed && n > 1 {
                    Some(trail.cells[0])
                } else {
                    None
                };
                if !trail.closed {
                    if let Some(next) = next {
                        self.passages[at] = match self.passages[at] {
                            Passage::None => Passage::Exit(towards(cell, next)),
                            Passage::Exit(_) | Passage::Exits => Passage::Exits,
                            turn @ Passage::Loop(_) => turn,
                        };
                    }
                    continue;
                }
                let before = trail.cells[(i + n - 1) % n];
                self.passages[at] = Passage::Loop(turn(cell, before, next));
                if let Some(next) = next {
                    self.join(cell, next, cells);
                }
            }
        }
    }

    /// Records a loop's step between two cells of a row or a column.
    fn join(&mut self, (row, col): Pos, (next_row, next_col): Pos, cells: usize) {
        if self.joined_right.is_empty() {
            self.joined_right = vec![false; cells];
            self.joined_down = vec![false; cells];
        }
        let cols = self.scene.cols();
        if next_row == row {
            self.joined_right[row * cols + col.min(next_col)] = true;
        } else if next_col == col {
            self.joined_down[row.min(next_row) * cols + col] = true;
        }
    }

    fn at(&self, (row, col): Pos) -> Glyph<'a> {
        let i = row * self.scene.cols() + col;
        if let Some(&glyph) = self.marks.get(&i) {
            return glyph;
        }
        match self.passages.get(i).copied().unwrap_or(Passage::None) {
            Passage::Exit(dir) => return Glyph::Char(dir.arrow()),
            Passage::Exits => return Glyph::Char('+'),
            Passage::Loop(turn) => return Glyph::Char(turn),
            Passage::None => {}
        }
        Glyph::Char(match self.scene.ground((row, col)) {
            Ground::Floor => self.style.floor,
            Ground::Wall => self.style.wall,
            Ground::Shaded(_) => self.style.shaded,
        })
    }

    fn joined_right(&self, (row, col): Pos) -> bool {
        self.joined_right.get(row * self.scene.cols() + col).copied().unwrap_or(false)
    }

    fn joined_down(&self, (row, col): Pos) -> bool {
        self.joined_down.get(row * self.scene.cols() + col).copied().unwrap_or(false)
    }

    fn outlined(&self, (row, col): Pos) -> bool {
        col < self.scene.cols() && self.outlined.get(row * self.scene.cols() + col).copied().unwrap_or(false)
    }

    /// Each column's width: its widest glyph.
    fn widths(&self, scene: &Scene) -> Vec<usize> {
        let mut widths = vec![0; scene.cols()];
        for row in 0..scene.rows() {
            for (col, width) in widths.iter_mut().enumerate() {
                *width = (*width).max(self.at((row, col)).width());
            }
        }
        widths
    }
}

/// The direction from one cell towards another: vertical first, as a
/// straight trail between two cells of a column runs.
fn towards((row, col): Pos, (to_row, to_col): Pos) -> Dir {
    if to_row < row {
        Dir::Up
    } else if to_row > row {
        Dir::Down
    } else if to_col < col {
        Dir::Left
    } else {
        Dir::Right
    }
}

/// The box-drawing glyph of a loop through `cell` from `before` to `next`
/// (`o` where the loop does not turn through two sides, as a loop of one or
/// two cells).
fn turn(cell: Pos, before: Pos, next: Option<Pos>) -> char {
    let side = |other: Pos| match (other.0 as i64 - cell.0 as i64, other.1 as i64 - cell.1 as i64) {
        (-1, 0) => Dir::Up,
        (1, 0) => Dir::Down,
        (0, -1) => Dir::Left,
        _ => Dir::Right,
    };
    let (a, b) = (side(before), next.map_or(side(before), side));
    match (a.min(b), a.max(b)) {
        (Dir::Up, Dir::Down) => '│',
        (Dir::Left, Dir::Right) => '─',
        (Dir::Down, Dir::Right) => '┌',
        (Dir::Down, Dir::Left) => '┐',
        (Dir::Up, Dir::Right) => '└',
        (Dir::Up, Dir::Left) => '┘',
        _ => 'o',
    }
}

fn compact_row(glyphs: &Glyphs, widths: &[usize], row: usize) -> String {
    let mut line = String::new();
    let brackets = !glyphs.outlined.is_empty();
    for (col, &width) in widths.iter().enumerate() {
        let before = col.checked_sub(1).is_some_and(|c| glyphs.outlined((row, c)));
        if col > 0 && glyphs.joined_right((row, col - 1)) {
            line.push('─');
        } else if col > 0 || brackets {
            line.push(bracket(before, glyphs.outlined((row, col))));
        }
        glyphs.at((row, col)).write_padded(&mut line, width);
    }
    if glyphs.outlined((row, widths.len().saturating_sub(1))) {
        line.push(']');
    }
    line
}

/// What stands between two cells of a compact row, by whether each is
/// outlined: a bracket where a run of outlined cells starts or ends.
fn bracket(before: bool, after: bool) -> char {
    match (before, after) {
        (false, true) => '[',
        (true, false) => ']',
        _ => ' ',
    }
}

/// How heavily a side is drawn: an edge's line over a region border.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Weight {
    None,
    Light,
    Heavy,
}

/// What is drawn along one side of the lattice.
#[derive(Copy, Clone, Debug)]
struct Side {
    weight: Weight,
    crossed: bool,
}

/// The edges of the lattice, by corner and direction.
struct Lattice {
    edges: HashMap<(Pos, Along), Stroke>,
}

impl Lattice {
    fn of(scene: &Scene) -> Lattice {
        Lattice { edges: scene.edges.iter().map(|edge| ((edge.corner, edge.along), edge.stroke)).collect() }
    }

    fn side(&self, scene: &Scene, corner: Pos, along: Along) -> Side {
        let stroke = self.edges.get(&(corner, along));
        let weight = match stroke {
            Some(Stroke::Line(_)) => Weight::Light,
            _ if scene.is_border(corner, along) => Weight::Heavy,
            _ => Weight::None,
        };
        Side { weight, crossed: matches!(stroke, Some(Stroke::Cross(_))) }
    }

    /// The corners of a lattice row and the sides between them.
    fn corner_row(&self, scene: &Scene, glyphs: &Glyphs, widths: &[usize], row: usize) -> String {
        let mut line = String::new();
        for col in 0..=scene.cols() {
            line.push(self.corner(scene, (row, col)));
            let Some(&width) = widths.get(col) else { break };
            let side = self.side(scene, (row, col), Along::Across);
            let fill = match side.weight {
                Weight::Light => '─',
                Weight::Heavy => '━',
                Weight::None => ' ',
            };
            let mut drawn: Vec<char> = vec![fill; width + 2];
            let stepped = row > 0 && row < scene.rows() && glyphs.joined_down((row - 1, col));
            if side.crossed {
                drawn[width.div_ceil(2)] = '×';
            } else if stepped && side.weight == Weight::None {
                // Under the glyphs, which stand at the right of the column.
                drawn[width] = '│';
            }
            line.extend(drawn);
        }
        line
    }

    /// A row of cells and the sides between them: each cell's glyph with a
    /// margin on either side, drawn `─` where a loop steps across.
    fn cell_row(&self, scene: &Scene, glyphs: &Glyphs, widths: &[usize], row: usize) -> String {
        let mut line = String::new();
        for col in 0..=scene.cols() {
            let stepped = col > 0 && col < scene.cols() && glyphs.joined_right((row, col - 1));
            let margin = if stepped { '─' } else { ' ' };
            let outlined = |c: usize| !stepped && glyphs.outlined((row, c));
            if col > 0 {
                line.push(if outlined(col - 1) { ']' } else { margin });
            }
            let side = self.side(scene, (row, col), Along::Down);
            line.push(match side.weight {
                _ if side.crossed => '×',
                Weight::Light => '│',
                Weight::Heavy => '┃',
                Weight::None => margin,
            });
            let Some(&width) = widths.get(col) else { break };
            line.push(if outlined(col) { '[' } else { margin });
            glyphs.at((row, col)).write_padded(&mut line, width);
        }
        line
    }

    /// The glyph at a corner: the junction of the lines that meet there.
    fn corner(&self, scene: &Scene, (row, col): Pos) -> char {
        if scene.corner_dots {
            return '·';
        }
        let weight = |side: Option<Side>| side.map_or(Weight::None, |s| s.weight);
        let arms = [
            weight(row.checked_sub(1).map(|r| self.side(scene, (r, col), Along::Down))),
            weight(Some(self.side(scene, (row, col), Along::Down))),
            weight(col.checked_sub(1).map(|c| self.side(scene, (row, c), Along::Across))),
            weight(Some(self.side(scene, (row, col), Along::Across))),
        ];
        let mask = arms.iter().enumerate().filter(|(_, w)| **w != Weight::None).fold(0, |m, (i, _)| m | 1 << i);
        junction(mask, arms.contains(&Weight::Heavy))
    }
}

/// The box-drawing junction of the arms in `mask` (bits: up, down, left,
/// right), light or heavy.
fn junction(mask: usize, heavy: bool) -> char {
    const LIGHT: [char; 16] = [' ', '╵', '╷', '│', '╴', '┘', '┐', '┤', '╶', '└', '┌', '├', '─', '┴', '┬', '┼'];
    const HEAVY: [char; 16] = [' ', '╹', '╻', '┃', '╸', '┛', '┓', '┫', '╺', '┗', '┏', '┣', '━', '┻', '┳', '╋'];
    if heavy { HEAVY[mask] } else { LIGHT[mask] }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{Tint, Trail};

    const PLAIN: Style =
        Style { floor: ' ', wall: '#', shaded: 'o', dot: Some('*'), ring: Some('S'), square: None, indent: "" };

    #[test]
    fn labels_edges_and_region_borders_are_drawn_on_the_lattice() {
        let mut scene = super::super::scene::sample();
        scene.caption.push("a caption".to_string());
        let expected = "\
┏━━━┳━━━┳━━━━┓
┃ 3 │   ┃    ┃
┣───┘ × ┃    ┃
┃       ┃ 12 ┃
┗━━━━━━━┻━━━━┛
a caption
";
        assert_eq!(draw(&scene, &PLAIN), expected);
    }

    #[test]
    fn outlined_cells_are_bracketed() {
        let mut scene = Scene::new(1, 4);
        for (col, label) in ["1", "2", "3", "4"].into_iter().enumerate() {
            scene.marks.push(((0, col), Mark::Label(label.into(), Tint::Ink)));
        }
        assert_eq!(draw(&scene, &PLAIN), "1 2 3 4\n");
        scene.outlines = vec![(0, 1), (0, 2)];
        assert_eq!(draw(&scene, &PLAIN), " 1[2 3]4\n");
        scene.outlines = vec![(0, 0), (0, 3), (5, 5)];
        assert_eq!(draw(&scene, &PLAIN), "[1]2 3[4]\n");
        let mut scene = super::super::scene::sample();
        scene.outlines = vec![(0, 0), (1, 2)];
        let expected = "\
┏━━━┳━━━┳━━━━┓
┃[3]│   ┃    ┃
┣───┘ × ┃    ┃
┃       ┃[12]┃
┗━━━━━━━┻━━━━┛
";
        assert_eq!(draw(&scene, &PLAIN), expected);
    }

    #[test]
    fn corner_dots_stand_on_every_corner() {
        let mut scene = Scene::new(1, 2);
        scene.corner_dots = true;
        scene.edges.push(crate::draw::Edge { corner: (0, 0), along: Along::Down, stroke: Stroke::Line(Tint::Ink) });
        scene.marks.push(((0, 1), Mark::Label("2".into(), Tint::Ink)));
        assert_eq!(draw(&scene, &Style { indent: "  ", ..PLAIN }), "  ·   ·   ·\n  │     2\n  ·   ·   ·\n");
    }

    #[test]
    fn a_loop_turns_in_its_cells_and_steps_between_them() {
        let mut scene = Scene::new(3, 3);
        let cells = vec![(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (1, 1), (1, 0)];
        scene.trails.push(Trail { cells, tint: Tint::Route(0), closed: true });
        assert_eq!(draw(&scene, &Style { floor: '.', ..PLAIN }), "┌───┐\n└─┐ │\n. └─┘\n");
        scene.set_region((2, 0), 1);
        let expected = "\
┏━━━━━━━━━━━┓
┃ ┌───────┐ ┃
┃ │       │ ┃
┃ └───┐   │ ┃
┣━━━┓ │   │ ┃
┃ . ┃ └───┘ ┃
┗━━━┻━━━━━━━┛
";
        assert_eq!(draw(&scene, &Style { floor: '.', ..PLAIN }), expected, "steps between rows too");
    }

    #[test]
    fn the_topmost_mark_with_a_glyph_shows_and_trails_show_their_exits() {
        let mut scene = Scene::new(1, 4);
        scene.set_ground((0, 3), Ground::Shaded(Tint::Highlight));
        scene.trails.push(Trail { cells: vec![(0, 0), (0, 1), (0, 2)], tint: Tint::Route(0), closed: false });
        scene.trails.push(Trail { cells: vec![(0, 1), (0, 0)], tint: Tint::Route(1), closed: false });
        scene.marks.push(((0, 2), Mark::Label("k".into(), Tint::Goal)));
        scene.marks.push(((0, 2), Mark::Square(Tint::Route(0))));
        assert_eq!(draw(&scene, &PLAIN), "→ + k o\n");
    }
}

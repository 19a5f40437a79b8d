//! Drawing a [`Scene`] as lines of text, for the text reports.
//!
//! Each cell shows one glyph: its topmost mark that has one (a label's
//! text, an arrow, a symbol, or the [`Style`]'s glyph for a ring, a square
//! or a dot), else what the trails make of it (the arrow towards the next
//! cell where a trail leaves it, `+` where trails leave it more than once,
//! the turn of a loop), else the junction of the links that meet in it
//! (`└`, `─`, `╴` for a loop known in part), else its ground. Columns are
//! as wide as their widest glyph, and glyphs stand at their right. A shaded
//! cell that shows a glyph keeps its shading: the room around the glyph is
//! filled with the style's shaded glyph, `█5█`, as inverse video would.
//!
//! A scene with neither edges, regions, links, corner labels nor corner
//! dots is drawn compactly, one line per row with a space between cells (a
//! loop's steps between cells of a row drawn `─`). Otherwise it is drawn on
//! the corner lattice: a line of corners and sides above each row of cells,
//! with edges as light lines (`─`, `│`, `×` for a cross), region borders
//! as heavy (`━`, `┃`), light or dashed (`┄`, `┆`) ones, and corners as
//! the junction of what meets there (or `·`, with corner dots). A corner
//! label stands in the line above its cell, at its left.
//!
//! Clues outside the grid stand in columns left and right of it and in
//! lines above and below it, each under or beside its row or column.
//!
//! Outlined cells are bracketed: on the lattice each one, `[5]`; in the
//! compact form each run of them in a row, `[1 2] 3`, every row then
//! starting with a column for a bracket.

use std::collections::{HashMap, HashSet};

use super::{Along, Corner, Ground, Mark, Scene, Shape, Side, Stroke, Tint};
use crate::grid::{Dir, Pos};

/// The glyphs a family draws its cells with, and the indent of each line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Style {
    /// A floor cell with nothing on it.
    pub floor: char,
    /// A wall.
    pub wall: char,
    /// A shaded cell with nothing on it, and the room around the glyph of
    /// a shaded cell with something on it.
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
/// scene.marks.push(((0, 0), Mark::ring(Tint::Ink)));
/// scene.marks.push(((1, 2), Mark::label("10", Tint::Ink)));
/// let style = text::Style { floor: '.', wall: '#', shaded: 'o', dot: None, ring: Some('S'), square: None, indent: "" };
/// assert_eq!(text::draw(&scene, &style), "S ↓  .\n# . 10\n");
/// ```
pub fn draw(scene: &Scene, style: &Style) -> String {
    let glyphs = Glyphs::of(scene, style);
    let widths = glyphs.widths(scene);
    let mut grid = Lines::default();
    if glyphs.compact() {
        let margined = glyphs.shaded_text;
        for row in 0..scene.rows() {
            let (line, ends) = compact_row(&glyphs, &widths, row, margined);
            grid.push_cells(line, ends);
        }
    } else {
        let lattice = Lattice::of(scene);
        for row in 0..=scene.rows() {
            grid.push_between(lattice.corner_row(scene, &glyphs, &widths, row));
            if row < scene.rows() {
                let (line, ends) = lattice.cell_row(scene, &glyphs, &widths, row);
                grid.push_cells(line, ends);
            }
        }
    }
    if !scene.outside.is_empty() {
        grid.add_outside(scene);
    }
    let mut out = String::new();
    // Each line without its trailing spaces; a line of nothing but spaces
    // stays, empty, so that the rows keep their places.
    let mut write = |line: &str| {
        out.push_str(style.indent);
        out.push_str(line.trim_end());
        out.push('\n');
    };
    // The lattice's first and last lines, when nothing is drawn on them
    // (a loop's cells with no border round them).
    let blank = |line: &Vec<char>| line.iter().all(|&c| c == ' ');
    let first = grid.lines.iter().position(|l| !blank(l)).unwrap_or(grid.lines.len());
    let last = grid.lines.iter().rposition(|l| !blank(l)).map_or(first, |l| l + 1);
    for line in &grid.lines[first..last.max(first)] {
        write(&line.iter().collect::<String>());
    }
    for line in &scene.caption {
        write(line);
    }
    out
}

/// The grid's lines as characters, and which are rows of cells with where
/// each cell's glyph ends in them.
#[derive(Default)]
struct Lines {
    lines: Vec<Vec<char>>,
    /// Per row of cells: its line, and the column after each cell's glyph.
    cells: Vec<(usize, Vec<usize>)>,
}

impl Lines {
    fn push_cells(&mut self, line: String, ends: Vec<usize>) {
        self.cells.push((self.lines.len(), ends));
        self.lines.push(line.chars().collect());
    }

    fn push_between(&mut self, line: String) {
        self.lines.push(line.chars().collect());
    }

    /// The clues outside the grid: columns left and right of it, lines
    /// above and below it.
    fn add_outside(&mut self, scene: &Scene) {
        let on = |side: Side| {
            let mut found: HashMap<(usize, usize), &str> = HashMap::new();
            for clue in scene.outside.iter().filter(|o| o.side == side) {
                found.insert((clue.line, clue.depth), clue.text.as_str());
            }
            found
        };
        // Left and right: a column per depth, as wide as its widest clue.
        for (side, left) in [(Side::Left, true), (Side::Right, false)] {
            let clues = on(side);
            let depths = scene.margin(side);
            if depths == 0 {
                continue;
            }
            let width = |d: usize| clues.iter().filter(|((_, k), _)| *k == d).map(|(_, t)| t.chars().count()).max();
            let widths: Vec<usize> = (0..depths).map(|d| width(d).unwrap_or(0)).collect();
            let span: usize = widths.iter().map(|w| w + 1).sum();
            let full = self.lines.iter().map(Vec::len).max().unwrap_or(0);
            let cell_rows: HashMap<usize, usize> =
                self.cells.iter().enumerate().map(|(row, (line, _))| (*line, row)).collect();
            for (at, line) in self.lines.iter_mut().enumerate() {
                let mut margin = String::new();
                let order: Vec<usize> = if left { (0..depths).rev().collect() } else { (0..depths).collect() };
                for d in order {
                    let text = cell_rows.get(&at).and_then(|row| clues.get(&(*row, d))).copied().unwrap_or("");
                    let pad = widths[d].saturating_sub(text.chars().count());
                    if !left {
                        margin.push(' ');
                    }
                    margin.extend(std::iter::repeat_n(' ', pad));
                    margin.push_str(text);
                    if left {
                        margin.push(' ');
                    }
                }
                if left {
                    let mut drawn: Vec<char> = margin.chars().collect();
                    drawn.append(line);
                    *line = drawn;
                } else {
                    line.resize(full, ' ');
                    line.extend(margin.chars());
                }
            }
            if left {
                for (_, ends) in &mut self.cells {
                    ends.iter_mut().for_each(|e| *e += span);
                }
            }
        }
        // Above and below: a line per depth, each clue ending where its
        // column's glyphs end.
        let Some(ends) = self.cells.first().map(|(_, ends)| ends.clone()) else { return };
        for side in [Side::Top, Side::Bottom] {
            let clues = on(side);
            let mut added: Vec<Vec<char>> = Vec::new();
            for d in 0..scene.margin(side) {
                let mut line: Vec<char> = Vec::new();
                for (col, &end) in ends.iter().enumerate() {
                    let Some(text) = clues.get(&(col, d)) else { continue };
                    let text: Vec<char> = text.chars().collect();
                    let from = end.saturating_sub(text.len());
                    if line.len() < end {
                        line.resize(end, ' ');
                    }
                    line[from..end].copy_from_slice(&text);
                }
                added.push(line);
            }
            if side == Side::Top {
                added.reverse();
                let n = added.len();
                self.lines.splice(0..0, added);
                self.cells.iter_mut().for_each(|(line, _)| *line += n);
            } else {
                self.lines.extend(added);
            }
        }
    }
}

/// Whether [`draw`] draws `scene` on the corner lattice: when it has
/// edges, regions, links, corner labels, corner dots or clues outside the
/// grid.
pub fn on_lattice(scene: &Scene) -> bool {
    !scene.edges.is_empty()
        || scene.has_regions()
        || scene.corner_dots
        || !scene.links.is_empty()
        || !scene.outside.is_empty()
        || scene.marks.iter().any(|(_, mark)| matches!(mark.shape, Shape::CornerLabel(_)))
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

    /// Writes the glyph at the right of `width` characters, the room
    /// before it filled with `fill`.
    fn write_padded(self, line: &mut String, width: usize, fill: char) {
        line.extend(std::iter::repeat_n(fill, width.saturating_sub(self.width())));
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
    /// The corner label, by cell index.
    corners: HashMap<usize, &'a str>,
    /// By cell index; empty without trails.
    passages: Vec<Passage>,
    /// The sides (bits: up, down, left, right) by which links leave each
    /// cell, by cell index.
    arms: HashMap<usize, usize>,
    /// Whether a loop steps from each cell to the one on its right, and to
    /// the one below, by cell index; empty without loops.
    joined_right: Vec<bool>,
    joined_down: Vec<bool>,
    /// The cells whose link to the right, or down, is known not to be.
    crossed_right: HashSet<usize>,
    crossed_down: HashSet<usize>,
    /// Whether each cell is outlined, by cell index; empty without outlines.
    outlined: Vec<bool>,
    /// Whether some shaded cell shows a glyph, whose shading is drawn
    /// around it.
    shaded_text: bool,
}

/// The glyph of a symbol that has the same one in every style.
fn symbol_glyph(mark: &Mark) -> Option<char> {
    Some(match &mark.shape {
        Shape::Arrow(dir) => dir.arrow(),
        Shape::Circle if matches!(mark.tint, Tint::Paper) || is_light(mark.tint) => '○',
        Shape::Circle => '●',
        Shape::Star => '★',
        Shape::Cross => '×',
        Shape::Triangle(Corner::TopLeft) => '◤',
        Shape::Triangle(Corner::TopRight) => '◥',
        Shape::Triangle(Corner::BottomLeft) => '◣',
        Shape::Triangle(Corner::BottomRight) => '◢',
        Shape::Sun => '☼',
        Shape::Moon => '☽',
        _ => return None,
    })
}

/// Whether a ground's shading is drawn around a glyph: a given's pale
/// ground, which only sets a clue apart from an answer in a picture, is
/// not.
fn shows_shading(ground: Ground) -> bool {
    matches!(ground, Ground::Shaded(tint) if tint != Tint::Given)
}

/// Whether a model's own colour is light, drawn as an open symbol.
fn is_light(tint: Tint) -> bool {
    match tint {
        Tint::Rgb([r, g, b]) => u32::from(r) + u32::from(g) + u32::from(b) > 3 * 160,
        Tint::Paper => true,
        _ => false,
    }
}

impl<'a> Glyphs<'a> {
    fn of(scene: &'a Scene, style: &'a Style) -> Glyphs<'a> {
        let cols = scene.cols();
        let inside = |(row, col): Pos| (row < scene.rows() && col < cols).then_some(row * cols + col);
        let mut marks = HashMap::new();
        let mut corners = HashMap::new();
        for (pos, mark) in &scene.marks {
            let glyph = match &mark.shape {
                Shape::Label(text) | Shape::NumberedArrow(_, text) | Shape::Heading(text) => {
                    Some(Glyph::Text(text.as_str()))
                }
                Shape::CornerLabel(text) => {
                    if let Some(i) = inside(*pos) {
                        corners.insert(i, text.as_str());
                    }
                    None
                }
                Shape::Ring => style.ring.map(Glyph::Char),
                Shape::Square => style.square.map(Glyph::Char),
                Shape::Dot => style.dot.map(Glyph::Char),
                _ => symbol_glyph(mark).map(Glyph::Char),
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
        let shaded_text = marks.keys().any(|&i| shows_shading(scene.ground((i / cols, i % cols))));
        let mut glyphs = Glyphs {
            scene,
            style,
            marks,
            corners,
            passages: Vec::new(),
            arms: HashMap::new(),
            joined_right: Vec::new(),
            joined_down: Vec::new(),
            crossed_right: HashSet::new(),
            crossed_down: HashSet::new(),
            outlined,
            shaded_text,
        };
        glyphs.trace_trails(&inside);
        glyphs.trace_links(&inside);
        glyphs
    }

    /// Whether the scene is drawn compactly, without the lattice.
    fn compact(&self) -> bool {
        !on_lattice(self.scene)
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

    /// Records each link: a line joins its cells and gives each an arm, a
    /// cross marks the side between them.
    fn trace_links(&mut self, inside: &impl Fn(Pos) -> Option<usize>) {
        let cells = self.scene.rows() * self.scene.cols();
        for link in &self.scene.links {
            let (row, col) = link.cell;
            let (to, out_arm, in_arm) = match link.along {
                Along::Across => ((row, col + 1), 3, 2),
                Along::Down => ((row + 1, col), 1, 0),
            };
            let (Some(from_at), Some(to_at)) = (inside(link.cell), inside(to)) else { continue };
            match link.stroke {
                Stroke::Line(_) => {
                    self.join(link.cell, to, cells);
                    *self.arms.entry(from_at).or_default() |= 1 << out_arm;
                    *self.arms.entry(to_at).or_default() |= 1 << in_arm;
                }
                Stroke::Cross(_) if link.along == Along::Across => {
                    self.crossed_right.insert(from_at);
                }
                Stroke::Cross(_) => {
                    self.crossed_down.insert(from_at);
                }
                Stroke::Unknown => {}
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
        if let Some(&arms) = self.arms.get(&i) {
            return Glyph::Char(junction(arms, false));
        }
        Glyph::Char(match self.scene.ground((row, col)) {
            Ground::Floor => self.style.floor,
            Ground::Blank => ' ',
            Ground::Wall => self.style.wall,
            Ground::Shaded(_) => self.style.shaded,
        })
    }

    /// The glyph that fills the room around a cell's glyph: the shading of
    /// a shaded cell that shows a mark, else a space.
    fn fill(&self, (row, col): Pos) -> char {
        let i = row * self.scene.cols() + col;
        if self.marks.contains_key(&i) && shows_shading(self.scene.ground((row, col))) {
            self.style.shaded
        } else {
            ' '
        }
    }

    fn joined_right(&self, (row, col): Pos) -> bool {
        self.joined_right.get(row * self.scene.cols() + col).copied().unwrap_or(false)
    }

    fn joined_down(&self, (row, col): Pos) -> bool {
        self.joined_down.get(row * self.scene.cols() + col).copied().unwrap_or(false)
    }

    fn crossed_right(&self, (row, col): Pos) -> bool {
        col < self.scene.cols() && self.crossed_right.contains(&(row * self.scene.cols() + col))
    }

    fn crossed_down(&self, (row, col): Pos) -> bool {
        col < self.scene.cols() && self.crossed_down.contains(&(row * self.scene.cols() + col))
    }

    fn outlined(&self, (row, col): Pos) -> bool {
        col < self.scene.cols() && self.outlined.get(row * self.scene.cols() + col).copied().unwrap_or(false)
    }

    fn corner_label(&self, (row, col): Pos) -> Option<&'a str> {
        (row < self.scene.rows() && col < self.scene.cols())
            .then(|| self.corners.get(&(row * self.scene.cols() + col)).copied())
            .flatten()
    }

    /// Each column's width: its widest glyph, and room for its corner
    /// labels in the line above (two characters of which are the glyph's
    /// margins).
    fn widths(&self, scene: &Scene) -> Vec<usize> {
        let mut widths = vec![0; scene.cols()];
        for row in 0..scene.rows() {
            for (col, width) in widths.iter_mut().enumerate() {
                let corner = self.corner_label((row, col)).map_or(0, |t| t.chars().count().saturating_sub(2));
                *width = (*width).max(self.at((row, col)).width()).max(corner);
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

/// A compact row, and the column after each cell's glyph. `margined`: each
/// cell has a margin on either side, where its shading or an outline's
/// bracket shows; otherwise one character stands between cells.
fn compact_row(glyphs: &Glyphs, widths: &[usize], row: usize, margined: bool) -> (String, Vec<usize>) {
    let mut line = String::new();
    let mut ends = Vec::with_capacity(widths.len());
    let brackets = !glyphs.outlined.is_empty();
    for (col, &width) in widths.iter().enumerate() {
        let before = col.checked_sub(1).is_some_and(|c| glyphs.outlined((row, c)));
        let joined = col > 0 && glyphs.joined_right((row, col - 1));
        let fill = glyphs.fill((row, col));
        if margined {
            line.push(if glyphs.outlined((row, col)) {
                '['
            } else if joined {
                '─'
            } else {
                fill
            });
        } else if joined {
            line.push('─');
        } else if col > 0 && glyphs.crossed_right((row, col - 1)) {
            line.push('×');
        } else if col > 0 || brackets {
            line.push(bracket(before, glyphs.outlined((row, col))));
        }
        glyphs.at((row, col)).write_padded(&mut line, width, fill);
        ends.push(line.chars().count());
        if margined {
            line.push(if glyphs.outlined((row, col)) {
                ']'
            } else if glyphs.joined_right((row, col)) {
                '─'
            } else {
                fill
            });
        }
    }
    if !margined && glyphs.outlined((row, widths.len().saturating_sub(1))) {
        line.push(']');
    }
    (line, ends)
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

/// How heavily a side is drawn: an edge's line over a region border, a
/// heavy border over a light one over a dashed one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Weight {
    None,
    Dashed,
    Light,
    Heavy,
}

/// What is drawn along one side of the lattice.
#[derive(Copy, Clone, Debug)]
struct Drawn {
    weight: Weight,
    crossed: bool,
}

/// The edges of the lattice, by corner and direction, and whether the
/// grid is framed (so that clues outside it stand apart).
struct Lattice {
    edges: HashMap<(Pos, Along), Stroke>,
    frame: bool,
}

impl Lattice {
    fn of(scene: &Scene) -> Lattice {
        let edges = scene.edges.iter().map(|edge| ((edge.corner, edge.along), edge.stroke)).collect();
        Lattice { edges, frame: !scene.outside.is_empty() }
    }

    /// Whether a side lies on the grid's outline.
    fn on_outline(scene: &Scene, (row, col): Pos, along: Along) -> bool {
        match along {
            Along::Across => col < scene.cols() && (row == 0 || row == scene.rows()),
            Along::Down => row < scene.rows() && (col == 0 || col == scene.cols()),
        }
    }

    fn side(&self, scene: &Scene, corner: Pos, along: Along) -> Drawn {
        let stroke = self.edges.get(&(corner, along));
        let weight = match (stroke, scene.border(corner, along)) {
            (Some(Stroke::Line(_)), _) => Weight::Light,
            (_, Some(super::Border::Heavy)) => Weight::Heavy,
            (_, Some(super::Border::Thin)) => Weight::Light,
            (_, Some(super::Border::Dashed)) => Weight::Dashed,
            (_, None) if self.frame && Self::on_outline(scene, corner, along) => Weight::Light,
            (_, None) => Weight::None,
        };
        Drawn { weight, crossed: matches!(stroke, Some(Stroke::Cross(_))) }
    }

    /// The corners of a lattice row and the sides between them, with the
    /// corner labels of the cells below.
    fn corner_row(&self, scene: &Scene, glyphs: &Glyphs, widths: &[usize], row: usize) -> String {
        let mut line = String::new();
        for col in 0..=scene.cols() {
            line.push(self.corner(scene, (row, col)));
            let Some(&width) = widths.get(col) else { break };
            let side = self.side(scene, (row, col), Along::Across);
            let fill = match side.weight {
                Weight::Light => '─',
                Weight::Heavy => '━',
                Weight::Dashed => '┄',
                Weight::None => ' ',
            };
            let mut drawn: Vec<char> = vec![fill; width + 2];
            let stepped = row > 0 && row < scene.rows() && glyphs.joined_down((row - 1, col));
            if side.crossed {
                drawn[width.div_ceil(2)] = '×';
            } else if row > 0 && glyphs.crossed_down((row - 1, col)) {
                drawn[width] = '×';
            } else if stepped && side.weight == Weight::None {
                // Under the glyphs, which stand at the right of the column.
                drawn[width] = '│';
            }
            if let Some(label) = glyphs.corner_label((row, col)) {
                for (k, c) in label.chars().enumerate().take(width + 2) {
                    drawn[k] = c;
                }
            }
            line.extend(drawn);
        }
        line
    }

    /// A row of cells and the sides between them: each cell's glyph with a
    /// margin on either side, drawn `─` where a loop steps across; and the
    /// column after each cell's glyph.
    fn cell_row(&self, scene: &Scene, glyphs: &Glyphs, widths: &[usize], row: usize) -> (String, Vec<usize>) {
        let mut line = String::new();
        let mut ends = Vec::with_capacity(widths.len());
        for col in 0..=scene.cols() {
            let stepped = col > 0 && col < scene.cols() && glyphs.joined_right((row, col - 1));
            let margin = if stepped { '─' } else { ' ' };
            let outlined = |c: usize| !stepped && glyphs.outlined((row, c));
            if col > 0 {
                line.push(if outlined(col - 1) {
                    ']'
                } else if stepped {
                    margin
                } else {
                    glyphs.fill((row, col - 1))
                });
            }
            let side = self.side(scene, (row, col), Along::Down);
            let crossed = side.crossed || (col > 0 && glyphs.crossed_right((row, col - 1)));
            line.push(match side.weight {
                _ if crossed => '×',
                Weight::Light => '│',
                Weight::Heavy => '┃',
                Weight::Dashed => '┆',
                Weight::None => margin,
            });
            let Some(&width) = widths.get(col) else { break };
            let fill = glyphs.fill((row, col));
            line.push(if outlined(col) {
                '['
            } else if stepped {
                margin
            } else {
                fill
            });
            glyphs.at((row, col)).write_padded(&mut line, width, fill);
            ends.push(line.chars().count());
        }
        (line, ends)
    }

    /// The glyph at a corner: the junction of the lines that meet there.
    fn corner(&self, scene: &Scene, (row, col): Pos) -> char {
        if scene.corner_dots {
            return '·';
        }
        let weight = |side: Option<Drawn>| side.map_or(Weight::None, |s| s.weight);
        let arms = [
            weight(row.checked_sub(1).map(|r| self.side(scene, (r, col), Along::Down))),
            weight(Some(self.side(scene, (row, col), Along::Down))),
            weight(col.checked_sub(1).map(|c| self.side(scene, (row, c), Along::Across))),
            weight(Some(self.side(scene, (row, col), Along::Across))),
        ];
        let mask = arms.iter().enumerate().filter(|(_, w)| **w != Weight::None).fold(0, |m, (i, _)| m | 1 << i);
        // A dashed line runs on dashed through a corner where nothing
        // crosses it.
        let dashed = arms.iter().all(|w| matches!(w, Weight::None | Weight::Dashed));
        match mask {
            0b0011 if dashed => '┆',
            0b1100 if dashed => '┄',
            _ => junction(mask, arms.contains(&Weight::Heavy)),
        }
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
            scene.marks.push(((0, col), Mark::label(label, Tint::Ink)));
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
        scene.edges.push(crate::draw::Edge {
            corner: (0, 0),
            along: Along::Down,
            stroke: Stroke::Line(Tint::Ink),
            highlight: false,
        });
        scene.marks.push(((0, 1), Mark::label("2", Tint::Ink)));
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
        scene.marks.push(((0, 2), Mark::label("k", Tint::Goal)));
        scene.marks.push(((0, 2), Mark::square(Tint::Route(0))));
        assert_eq!(draw(&scene, &PLAIN), "→ + k o\n");
    }
}

//! Drawing a [`Scene`] as SVG, streamed element by element so that a
//! room of a million cells is written without holding the document in
//! memory. The many small elements (cells, lines, dots, labels) are
//! written here directly, their attributes in the order the `svg` crate
//! writes them, since building each through the crate cost some 5 µs, 50
//! times what a 100 × 100 grid's JSON report costs per cell; the few long
//! ones (trails, arrows) still come from the crate.
//!
//! One cell is one unit of the view box, so a cell's centre is at
//! `(col + 0.5, row + 0.5)` and the image is `cols × CELL_PX` wide. Clues
//! outside the grid widen the picture by whole cells: the grid and what is
//! on it are then drawn in a group moved right and down by the left and
//! top margins, so that a cell keeps its coordinates inside the group.
//!
//! The layers, each over the one before: the grounds, outlines, the thin
//! grid lines, each layer of region borders in order, the highlights under what a step
//! settles, the edges along the cells' sides and their crosses, corner
//! dots, trails, the links between cell centres and their crosses, marks
//! (above every line), the clues outside the grid and the caption. A
//! picture with clues outside the grid frames the grid in ink.
//!
//! Over all of them, unseen (no fill, no stroke, but `pointer-events="fill"`:
//! the inside only, as "all" counts a stroke one cell wide around each),
//! is one element per cell with its `data-row` and `data-col` (0-based, as
//! the CLI's `(row, col)`), and where the scene has [`LinePlaces`](super::LinePlaces), one per
//! line with its `data-edge`: `side R C across` is the side from corner
//! `(R, C)` to `(R, C + 1)`, `side R C down` to `(R + 1, C)`; `step R C
//! across` joins the centres of cells `(R, C)` and `(R, C + 1)`, `step R C
//! down` those of `(R, C)` and `(R + 1, C)`. A page built on the picture
//! takes clicks on them, and tests and screen readers find cells by them.

use std::fmt::Display;
use std::io::{self, Write};

use svg::node::element::Polyline;

use super::{
    Along, Border, Corner, Edge, Ground, Link, Mark, Outside, Regions, Scene, Shape, Side, Stroke, Tint, Trail,
};
use crate::grid::{Dir, Pos};

/// Pixels per cell in the image's width and height.
pub const CELL_PX: usize = 24;

/// The colour of walls.
pub const WALL: &str = "#3b3b3b";
/// The colour of open floor.
pub const FLOOR: &str = "#ffffff";
/// The colour of shaded cells (tiles left uncovered, tiles that can be left).
pub const SHADE: &str = "#f4d35e";
/// The colours of routes, one per walker, cycling.
pub const ROUTES: [&str; 4] = ["#1f6fb4", "#c4302b", "#2a9d3f", "#8a4fbf"];
/// The colour of a fan's wind.
pub const WIND: &str = "#8ecae6";
/// The colour of goals (keys, weathercocks).
pub const GOAL: &str = "#d08c00";
/// The colour of obstacles (doors).
pub const OBSTACLE: &str = "#7a3e00";
/// The colour of plain marks, region borders and corner dots.
pub const INK: &str = "#202020";
/// The colour of the thin lines between cells.
pub const GRID: &str = "#c8c8c8";
/// The colour of outlines on named cells.
pub const OUTLINE: &str = "#e63946";
/// The colour of a given's cell: a clue, a Sudoku's given digit.
pub const GIVEN: &str = "#dde6f0";
/// The colour of the paper: a white pearl.
pub const PAPER: &str = FLOOR;

/// A colour as the document writes it: `#rrggbb`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Paint(Tint);

impl Display for Paint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Tint::Rgb([r, g, b]) => write!(f, "#{r:02x}{g:02x}{b:02x}"),
            tint => f.write_str(role_colour(tint)),
        }
    }
}

/// The colour of a tint.
pub fn colour(tint: Tint) -> Paint {
    Paint(tint)
}

/// The colour of a role; a model's own colour is written by [`Paint`].
fn role_colour(tint: Tint) -> &'static str {
    match tint {
        Tint::Route(n) => ROUTES[n % ROUTES.len()],
        Tint::Wind => WIND,
        Tint::Goal => GOAL,
        Tint::Obstacle => OBSTACLE,
        Tint::Highlight => SHADE,
        Tint::Ink => INK,
        Tint::Given => GIVEN,
        Tint::Paper => PAPER,
        Tint::Rgb(_) => INK,
    }
}

/// How far below a cell's centre its label's baseline is, in cells.
const LABEL_DROP: f64 = 0.2;

/// A coordinate or length as the document writes it: rounded to a
/// thousandth of a cell (0.024 px), so that a sum such as `2 + 3 × 0.8`
/// reads `4.4`, not `4.4000000000000004`, and a whole number has no point.
/// Every number computed in floating point goes through it.
#[derive(Clone, Copy)]
struct Num(f64);

impl Num {
    /// The value rounded as it is written.
    fn rounded(value: f64) -> f64 {
        // A multiple of 1/1000 divided back is the double nearest that
        // decimal, which `Display` writes in its shortest form.
        let rounded = (value * 1000.0).round() / 1000.0;
        // Not `-0`.
        if rounded == 0.0 { 0.0 } else { rounded }
    }
}

impl Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", Num::rounded(self.0))
    }
}

/// Height of one caption line, in cells.
const CAPTION_LINE: f64 = 0.8;

/// The margins the clues outside the grid take, in cells: a line of
/// clues above and below per depth, a column left and right per depth as
/// wide as its widest clue (a row's name may be a word).
#[derive(Clone, Debug, Default)]
struct Margins {
    left: Vec<f64>,
    top: usize,
    right: Vec<f64>,
    bottom: usize,
    /// Room all round a lattice, so that the dots, crosses and highlights
    /// on the grid's outline are drawn whole.
    pad: f64,
}

/// The room round a lattice's outline, in cells: `Margins::pad`.
pub const LATTICE_PAD: f64 = 0.25;

/// The font size of a clue outside the grid.
fn outside_size(text: &str) -> f64 {
    if text.chars().count() > 2 { 0.45 } else { 0.55 }
}

impl Margins {
    fn of(scene: &Scene) -> Margins {
        let columns = |side: Side| -> Vec<f64> {
            let mut widths = vec![1.0; scene.margin(side)];
            for clue in scene.outside.iter().filter(|o| o.side == side) {
                let width = clue.text.chars().count() as f64 * outside_size(&clue.text) * 0.6 + 0.3;
                widths[clue.depth] = f64::max(widths[clue.depth], Num::rounded(width.ceil()));
            }
            widths
        };
        Margins {
            left: columns(Side::Left),
            top: scene.margin(Side::Top),
            right: columns(Side::Right),
            bottom: scene.margin(Side::Bottom),
            pad: if scene.corner_dots || !scene.edges.is_empty() { LATTICE_PAD } else { 0.0 },
        }
    }

    fn any(&self) -> bool {
        !self.left.is_empty() || !self.right.is_empty() || self.top + self.bottom > 0 || self.pad > 0.0
    }

    /// The room left of the grid.
    fn left_width(&self) -> f64 {
        self.pad + self.left.iter().sum::<f64>()
    }

    /// The room right of the grid.
    fn right_width(&self) -> f64 {
        self.pad + self.right.iter().sum::<f64>()
    }

    /// The room above the grid.
    fn top_height(&self) -> f64 {
        self.pad + self.top as f64
    }

    /// The room below the grid.
    fn bottom_height(&self) -> f64 {
        self.pad + self.bottom as f64
    }

    /// The middle of the column of clues at `depth` beside the grid, as a
    /// distance from the grid's side.
    fn column_middle(widths: &[f64], depth: usize) -> f64 {
        widths[..depth].iter().sum::<f64>() + widths[depth] / 2.0
    }
}

/// Writes `scene` as an SVG document to `out`: a white ground under the
/// whole picture (so that the caption never stands on a viewer's own,
/// often dark, background), then the layers the module describes. A scene
/// of no cells (nothing to draw but its caption) has no grid.
///
/// ```
/// use somaria::draw::{Ground, Scene};
/// let mut scene = Scene::new(1, 2);
/// scene.set_ground((0, 1), Ground::Wall);
/// let mut out = Vec::new();
/// somaria::draw::svg::write(&scene, &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
/// assert!(text.contains(somaria::draw::svg::WALL));
/// ```
pub fn write(scene: &Scene, out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let (rows, cols) = (scene.rows(), scene.cols());
    let margins = Margins::of(scene);
    let grid_height = margins.top_height() + rows as f64 + margins.bottom_height();
    let grid_width = margins.left_width() + (cols * scene.col_width) as f64 + margins.right_width();
    let height = Num::rounded(grid_height + scene.caption.len() as f64 * CAPTION_LINE + 0.2);
    // Wide enough for the longest caption line, at about 0.3 cells a letter.
    let longest = scene.caption.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let width = grid_width.max((longest as f64 * 0.3 + 0.2).ceil());
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" width="{}" height="{}">"#,
        Num(width),
        Num(height),
        (width * CELL_PX as f64).ceil() as usize,
        (height * CELL_PX as f64).ceil() as usize
    )?;
    // The floor of the grid, and the ground of the caption.
    rect(&mut out, 0.0, 0.0, width, height, &FLOOR)?;
    if margins.any() {
        writeln!(out, r#"<g transform="translate({} {})">"#, Num(margins.left_width()), Num(margins.top_height()))?;
    }
    grid(&mut out, scene)?;
    marks(&mut out, scene)?;
    outside_clues(&mut out, scene, &margins)?;
    places(&mut out, scene)?;
    if margins.any() {
        writeln!(out, "</g>")?;
    }
    for (i, line) in scene.caption.iter().enumerate() {
        let y = Num(grid_height + (i as f64 + 1.0) * CAPTION_LINE);
        let attributes: [(&str, &dyn Display); 5] =
            [("fill", &INK), ("font-family", &"sans-serif"), ("font-size", &0.55), ("x", &0.1), ("y", &y)];
        text_element(&mut out, line, &attributes)?;
    }
    writeln!(out, "</svg>")?;
    out.flush()
}

/// The grid under the marks: grounds, grid lines, region borders, edges,
/// corner dots, trails and links.
fn grid(out: &mut impl Write, scene: &Scene) -> io::Result<()> {
    let (rows, cols) = (scene.rows(), scene.cols());
    let mut number = itoa::Buffer::new();
    for (row, col, length, ground) in scene.ground_runs() {
        let fill = match ground {
            Ground::Floor | Ground::Blank => continue,
            Ground::Wall => Paint(Tint::Rgb([0x3b, 0x3b, 0x3b])),
            Ground::Shaded(tint) => colour(tint),
        };
        // As `rect` writes it: a whole number of cells prints as an integer.
        write!(out, r#"<rect fill="{fill}" height="1" width=""#)?;
        let w = scene.col_width;
        for (value, end) in [(length * w, "\" x=\""), (col * w, "\" y=\""), (row, "\"/>\n")] {
            out.write_all(number.format(value).as_bytes())?;
            out.write_all(end.as_bytes())?;
        }
    }
    outlines(out, scene)?;
    if rows > 0 && cols > 0 {
        grid_lines(out, scene)?;
    }
    if !scene.outside.is_empty() && !scene.has_regions() && rows > 0 && cols > 0 {
        let (width, height) = (Num((cols * scene.col_width) as f64), rows);
        let attributes: [(&str, &dyn Display); 7] = [
            ("fill", &"none"),
            ("height", &height),
            ("stroke", &INK),
            ("stroke-width", &0.05),
            ("width", &width),
            ("x", &0),
            ("y", &0),
        ];
        element(out, "rect", &attributes)?;
    }
    for layer in scene.region_layers() {
        match layer.border {
            Border::Heavy | Border::Thin => region_borders(out, scene, layer)?,
            Border::Dashed => dashed_borders(out, scene, layer)?,
        }
    }
    highlights(out, scene)?;
    edge_lines(out, &scene.edges, scene.col_width)?;
    for edge in scene.edges.iter().filter(|e| matches!(e.stroke, Stroke::Cross(_))) {
        edge_elements(out, edge, scene.col_width)?;
    }
    let w = scene.col_width;
    if scene.corner_dots {
        corner_dots(out, rows, cols, w)?;
    }
    for trail in &scene.trails {
        writeln!(out, "{}", trail_element(trail, w))?;
    }
    link_lines(out, &scene.links, w)?;
    for link in scene.links.iter().filter(|l| matches!(l.stroke, Stroke::Cross(_))) {
        let (x, y) = link_middle(link, w);
        cross(out, x, y, link.stroke)?;
    }
    Ok(())
}

/// The marks, each in its cell, in the order they were added. Runs of
/// plain labels of one colour share a group that carries their style, so
/// that a grid of numbers is not mostly repeated attributes. In a scene
/// with corner labels every middle label stands a little lower, so that
/// the two never overlap and the digits still line up.
fn marks(out: &mut impl Write, scene: &Scene) -> io::Result<()> {
    let (rows, cols) = (scene.rows(), scene.cols());
    let places = Places::of(rows, cols, scene.col_width);
    let cornered = scene.marks.iter().any(|(_, mark)| matches!(mark.shape, Shape::CornerLabel(_)));
    let mut open_group: Option<Tint> = None;
    for (pos, mark) in &scene.marks {
        let plain = matches!(mark.shape, Shape::Label(_)) && mark.size == 60 && !cornered;
        let label_tint = plain.then_some(readable(mark.tint, scene.ground(*pos)));
        if open_group.is_some() && open_group != label_tint {
            writeln!(out, "</g>")?;
            open_group = None;
        }
        match (&mark.shape, label_tint) {
            (Shape::Label(text), Some(tint)) => {
                if open_group.is_none() {
                    writeln!(
                        out,
                        r#"<g fill="{}" font-family="sans-serif" font-size="0.6" text-anchor="middle">"#,
                        colour(tint)
                    )?;
                    open_group = Some(tint);
                }
                if let Some((x, baseline)) = places.label(*pos) {
                    for part in ["<text x=\"", x, "\" y=\"", baseline, "\">\n"] {
                        out.write_all(part.as_bytes())?;
                    }
                    text_content(out, text)?;
                } else {
                    let (x, y) = centre(*pos, scene.col_width);
                    text_element(out, text, &[("x", &Num(x)), ("y", &Num(y + LABEL_DROP))])?;
                }
            }
            // As `circle` writes it, from the places worked out once.
            (Shape::Dot, _) if mark.size == 28 => match places.centre(*pos) {
                Some((x, y)) => {
                    let fill = colour(mark.tint).to_string();
                    for part in ["<circle cx=\"", x, "\" cy=\"", y, "\" fill=\"", &fill, "\" r=\"0.14\"/>\n"] {
                        out.write_all(part.as_bytes())?;
                    }
                }
                None => mark_elements(out, scene, *pos, mark, false)?,
            },
            _ => mark_elements(out, scene, *pos, mark, cornered)?,
        }
    }
    if open_group.is_some() {
        writeln!(out, "</g>")?;
    }
    Ok(())
}

/// The colour a label is written in on a ground: ink on a dark ground
/// (a wall, a cell shaded in ink, as a Hitori's) turns to paper, as
/// inverse video, so that the label stays legible.
fn readable(tint: Tint, ground: Ground) -> Tint {
    match (tint, ground) {
        (Tint::Ink, Ground::Wall | Ground::Shaded(Tint::Ink)) => Tint::Paper,
        _ => tint,
    }
}

/// Writes one empty element, `<name a="v" .../>`, on its own line; the
/// attributes in the order given.
fn element(out: &mut impl Write, name: &str, attributes: &[(&str, &dyn Display)]) -> io::Result<()> {
    write!(out, "<{name}")?;
    for (key, value) in attributes {
        write!(out, " {key}=\"{value}\"")?;
    }
    writeln!(out, "/>")
}

fn rect(out: &mut impl Write, x: f64, y: f64, width: f64, height: f64, fill: &dyn Display) -> io::Result<()> {
    let (x, y, width, height) = (Num(x), Num(y), Num(width), Num(height));
    element(out, "rect", &[("fill", fill), ("height", &height), ("width", &width), ("x", &x), ("y", &y)])
}

/// A `<text>` element holding `content`, escaped.
fn text_element(out: &mut impl Write, content: &str, attributes: &[(&str, &dyn Display)]) -> io::Result<()> {
    write!(out, "<text")?;
    for (key, value) in attributes {
        write!(out, " {key}=\"{value}\"")?;
    }
    out.write_all(b">\n")?;
    text_content(out, content)
}

/// A `<text>` element's content, escaped, and its end.
fn text_content(out: &mut impl Write, content: &str) -> io::Result<()> {
    if content.contains(['&', '<', '>']) {
        let escaped = content.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
        out.write_all(escaped.as_bytes())?;
    } else {
        out.write_all(content.as_bytes())?;
    }
    out.write_all(b"\n</text>\n")
}

/// The coordinates of the cells' centres and of their labels' baselines,
/// as text, worked out once per row and column: a grid of 10 000 labels
/// would otherwise format 20 000 floating-point numbers. They are the
/// numbers [`centre`] gives, formatted as every other coordinate is.
struct Places {
    xs: Vec<String>,
    ys: Vec<String>,
    baselines: Vec<String>,
}

impl Places {
    fn of(rows: usize, cols: usize, w: usize) -> Places {
        Places {
            xs: (0..cols).map(|col| Num(centre((0, col), w).0).to_string()).collect(),
            ys: (0..rows).map(|row| Num(centre((row, 0), w).1).to_string()).collect(),
            baselines: (0..rows).map(|row| Num(centre((row, 0), w).1 + LABEL_DROP).to_string()).collect(),
        }
    }

    /// A cell's centre, when it is inside the grid.
    fn centre(&self, (row, col): Pos) -> Option<(&str, &str)> {
        Some((self.xs.get(col)?, self.ys.get(row)?))
    }

    /// Where a cell's label stands, when it is inside the grid.
    fn label(&self, (row, col): Pos) -> Option<(&str, &str)> {
        Some((self.xs.get(col)?, self.baselines.get(row)?))
    }
}

/// A heavy outline inside each outlined cell, under the lines and marks
/// so that they stay readable where a step's constraints read every cell.
fn outlines(out: &mut impl Write, scene: &Scene) -> io::Result<()> {
    let w = scene.col_width as f64;
    for &(row, col) in &scene.outlines {
        let (x, y) = (Num(col as f64 * w + 0.06), Num(row as f64 + 0.06));
        let attributes: [(&str, &dyn Display); 7] = [
            ("fill", &"none"),
            ("height", &0.88),
            ("stroke", &OUTLINE),
            ("stroke-width", &0.12),
            ("width", &Num(w - 0.12)),
            ("x", &x),
            ("y", &y),
        ];
        element(out, "rect", &attributes)?;
    }
    Ok(())
}

/// Thin lines between cells, one per straight run of sides that touch a
/// cell (a blank cell has none of its own): with no blank cells, one per
/// row and column boundary.
fn grid_lines(out: &mut impl Write, scene: &Scene) -> io::Result<()> {
    let (rows, cols, w) = (scene.rows(), scene.cols(), scene.col_width);
    let mut line = |x1: usize, y1: usize, x2: usize, y2: usize| {
        let (x1, x2) = (x1 * w, x2 * w);
        let attributes: [(&str, &dyn Display); 6] =
            [("stroke", &GRID), ("stroke-width", &0.03), ("x1", &x1), ("x2", &x2), ("y1", &y1), ("y2", &y2)];
        element(&mut *out, "line", &attributes)
    };
    let is_cell = |row: Option<usize>, col: Option<usize>| match (row, col) {
        (Some(r), Some(c)) if r < rows && c < cols => scene.ground((r, c)) != Ground::Blank,
        _ => false,
    };
    for row in 0..=rows {
        for (from, to) in runs(cols, |col| is_cell(row.checked_sub(1), Some(col)) || is_cell(Some(row), Some(col))) {
            line(from, row, to, row)?;
        }
    }
    for col in 0..=cols {
        for (from, to) in runs(rows, |row| is_cell(Some(row), col.checked_sub(1)) || is_cell(Some(row), Some(col))) {
            line(col, from, col, to)?;
        }
    }
    Ok(())
}

/// Solid lines along the sides where one layer's regions meet, each
/// straight run of border one line: heavy or thin.
fn region_borders(out: &mut impl Write, scene: &Scene, layer: &Regions) -> io::Result<()> {
    let (rows, cols, w) = (scene.rows(), scene.cols(), scene.col_width);
    let paint = colour(layer.tint);
    let width: &dyn Display = if layer.border == Border::Heavy { &0.1 } else { &0.05 };
    let mut line = |x1: usize, y1: usize, x2: usize, y2: usize| {
        let (x1, x2) = (x1 * w, x2 * w);
        let attributes: [(&str, &dyn Display); 7] = [
            ("stroke", &paint),
            ("stroke-linecap", &"square"),
            ("stroke-width", width),
            ("x1", &x1),
            ("x2", &x2),
            ("y1", &y1),
            ("y2", &y2),
        ];
        element(&mut *out, "line", &attributes)
    };
    for row in 0..=rows {
        for (from, to) in runs(cols, |col| scene.layer_border(layer, (row, col), Along::Across)) {
            line(from, row, to, row)?;
        }
    }
    for col in 0..=cols {
        for (from, to) in runs(rows, |row| scene.layer_border(layer, (row, col), Along::Down)) {
            line(col, from, col, to)?;
        }
    }
    Ok(())
}

/// A straight piece of a dashed border in thousandths of a cell: where it
/// runs (y across, x down), then from and to.
type Segment = (i64, i64, i64);

/// How far inside its region a dashed border runs, in cells.
const DASH_INSET: f64 = 0.12;

/// A dashed line just inside each region of a layer, as a Killer Sudoku's
/// cages are drawn, so that it shows beside a heavy border on the same
/// side: one path of the layer's segments, those that continue one another
/// joined.
fn dashed_borders(out: &mut impl Write, scene: &Scene, layer: &Regions) -> io::Result<()> {
    let (rows, cols, w) = (scene.rows(), scene.cols(), scene.col_width as f64);
    let d = DASH_INSET;
    let region = |r: i64, c: i64| {
        (r >= 0 && c >= 0 && (r as usize) < rows && (c as usize) < cols)
            .then(|| layer.cells[r as usize * cols + c as usize])
    };
    // Horizontal segments as (y, x1, x2), vertical ones as (x, y1, y2),
    // in thousandths of a cell so that they sort and join exactly.
    let milli = |v: f64| (v * 1000.0).round() as i64;
    let (mut across, mut down): (Vec<Segment>, Vec<Segment>) = (Vec::new(), Vec::new());
    for r in 0..rows as i64 {
        for c in 0..cols as i64 {
            let here = region(r, c);
            let same = |dr: i64, dc: i64| region(r + dr, c + dc) == here;
            let (x, y) = (c as f64 * w, r as f64);
            // The end of a side's segment towards a neighbour along it:
            // short of the corner where the region turns away, to the
            // corner where the border runs on, past it where the region
            // turns round the corner.
            let end = |along: bool, beyond: bool| match (along, beyond) {
                (false, _) => d,
                (true, false) => 0.0,
                (true, true) => -d,
            };
            for (dr, line) in [(-1, y + d), (1, y + 1.0 - d)] {
                if !same(dr, 0) {
                    let x1 = x + end(same(0, -1), same(dr, -1));
                    let x2 = x + w - end(same(0, 1), same(dr, 1));
                    across.push((milli(line), milli(x1), milli(x2)));
                }
            }
            for (dc, line) in [(-1, x + d), (1, x + w - d)] {
                if !same(0, dc) {
                    let y1 = y + end(same(-1, 0), same(-1, dc));
                    let y2 = y + 1.0 - end(same(1, 0), same(1, dc));
                    down.push((milli(line), milli(y1), milli(y2)));
                }
            }
        }
    }
    let mut d_attr = String::new();
    for (segments, horizontal) in [(&mut across, true), (&mut down, false)] {
        segments.sort_unstable();
        let mut joined: Vec<Segment> = Vec::new();
        for &(at, from, to) in segments.iter() {
            match joined.last_mut() {
                Some(last) if last.0 == at && last.2 == from => last.2 = to,
                _ => joined.push((at, from, to)),
            }
        }
        let n = |v: i64| Num(v as f64 / 1000.0);
        for (at, from, to) in joined {
            let segment = if horizontal {
                format!("M{} {}H{}", n(from), n(at), n(to))
            } else {
                format!("M{} {}V{}", n(at), n(from), n(to))
            };
            d_attr.push_str(&segment);
        }
    }
    if d_attr.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        r#"<path d="{d_attr}" fill="none" stroke="{}" stroke-dasharray="0.1 0.07" stroke-width="0.04"/>"#,
        colour(layer.tint)
    )
}

/// The maximal runs `[from, to)` of `0..length` where `on` holds.
fn runs(length: usize, on: impl Fn(usize) -> bool) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut start = None;
    for i in 0..=length {
        match (start, i < length && on(i)) {
            (None, true) => start = Some(i),
            (Some(from), false) => {
                found.push((from, i));
                start = None;
            }
            _ => {}
        }
    }
    found
}

/// The ends of a side of a cell, in cells, with cells `w` wide.
fn side_ends(edge: &Edge, w: usize) -> ((f64, f64), (f64, f64)) {
    let (row, col) = edge.corner;
    let (to_row, to_col) = match edge.along {
        Along::Across => (row, col + 1),
        Along::Down => (row + 1, col),
    };
    (((col * w) as f64, row as f64), ((to_col * w) as f64, to_row as f64))
}

/// The ends of a link, at the centres of its two cells.
fn link_ends(link: &Link, w: usize) -> ((f64, f64), (f64, f64)) {
    let (row, col) = link.cell;
    let to = match link.along {
        Along::Across => (row, col + 1),
        Along::Down => (row + 1, col),
    };
    (centre((row, col), w), centre(to, w))
}

/// The middle of a link: the middle of the side between its cells.
fn link_middle(link: &Link, w: usize) -> (f64, f64) {
    let ((x1, y1), (x2, y2)) = link_ends(link, w);
    ((x1 + x2) / 2.0, (y1 + y2) / 2.0)
}

/// A wide band of highlight under each edge and link a step settles, as a
/// marker pen singles out a line.
fn highlights(out: &mut impl Write, scene: &Scene) -> io::Result<()> {
    let w = scene.col_width;
    let sides = scene.edges.iter().filter(|e| e.highlight).map(|e| side_ends(e, w));
    let links = scene.links.iter().filter(|l| l.highlight).map(|l| link_ends(l, w));
    let mut d = String::new();
    for ((x1, y1), (x2, y2)) in sides.chain(links) {
        d.push_str(&format!("M{} {}L{} {}", Num(x1), Num(y1), Num(x2), Num(y2)));
    }
    if d.is_empty() {
        return Ok(());
    }
    writeln!(out, r#"<path d="{d}" fill="none" stroke="{SHADE}" stroke-linecap="round" stroke-width="0.36"/>"#)
}

/// A small cross at `(x, y)`: a side or a link known not to be a line.
fn cross(out: &mut impl Write, x: f64, y: f64, stroke: Stroke) -> io::Result<()> {
    let Stroke::Cross(tint) = stroke else { return Ok(()) };
    let arm = 0.12;
    for (dx, dy) in [(arm, arm), (arm, -arm)] {
        let attributes: [(&str, &dyn Display); 6] = [
            ("stroke", &colour(tint)),
            ("stroke-width", &0.05),
            ("x1", &Num(x - dx)),
            ("x2", &Num(x + dx)),
            ("y1", &Num(y - dy)),
            ("y2", &Num(y + dy)),
        ];
        element(out, "line", &attributes)?;
    }
    Ok(())
}

/// A cross on a side known not to be a line.
fn edge_elements(out: &mut impl Write, edge: &Edge, w: usize) -> io::Result<()> {
    let ((x1, y1), (x2, y2)) = side_ends(edge, w);
    cross(out, (x1 + x2) / 2.0, (y1 + y2) / 2.0, edge.stroke)
}

fn circle(out: &mut impl Write, x: &dyn Display, y: &dyn Display, r: f64, fill: &dyn Display) -> io::Result<()> {
    element(out, "circle", &[("cx", x), ("cy", y), ("fill", fill), ("r", &Num(r))])
}

/// A dot on every corner of the lattice: one pattern of a dot per cell,
/// offset by half a cell, filling the grid and half a cell around it, so
/// that a large lattice costs two elements instead of one per corner.
fn corner_dots(out: &mut impl Write, rows: usize, cols: usize, w: usize) -> io::Result<()> {
    let half = Num(w as f64 / 2.0);
    writeln!(
        out,
        r#"<defs><pattern height="1" id="corner-dots" patternUnits="userSpaceOnUse" width="{w}" x="-{half}" y="-0.5"><circle cx="{half}" cy="0.5" fill="{INK}" r="0.07"/></pattern></defs>"#
    )?;
    let (width, height) = ((cols + 1) * w, rows + 1);
    let x = Num(-(w as f64) / 2.0);
    element(
        out,
        "rect",
        &[("fill", &"url(#corner-dots)"), ("height", &height), ("width", &width), ("x", &x), ("y", &-0.5)],
    )
}

/// The distinct tints of the lines among `strokes`, in order of first use.
fn line_tints(strokes: impl Iterator<Item = Stroke>) -> Vec<Tint> {
    let mut tints: Vec<Tint> = Vec::new();
    for stroke in strokes {
        if let Stroke::Line(tint) = stroke
            && !tints.contains(&tint)
        {
            tints.push(tint);
        }
    }
    tints
}

/// The lines along the cells' sides, one path per colour.
fn edge_lines(out: &mut impl Write, edges: &[Edge], w: usize) -> io::Result<()> {
    let across = format!("h{w}");
    for tint in line_tints(edges.iter().map(|e| e.stroke)) {
        let mut d = String::new();
        let mut number = itoa::Buffer::new();
        for edge in edges.iter().filter(|e| e.stroke == Stroke::Line(tint)) {
            let (row, col) = edge.corner;
            let step = match edge.along {
                Along::Across => across.as_str(),
                Along::Down => "v1",
            };
            d.push('M');
            d.push_str(number.format(col * w));
            d.push(' ');
            d.push_str(number.format(row));
            d.push_str(step);
        }
        writeln!(
            out,
            r#"<path d="{d}" fill="none" stroke="{}" stroke-linecap="round" stroke-linejoin="round" stroke-width="0.12"/>"#,
            colour(tint)
        )?;
    }
    Ok(())
}

/// The lines between the cells' centres, one path per colour.
fn link_lines(out: &mut impl Write, links: &[Link], w: usize) -> io::Result<()> {
    let across = format!("h{w}");
    for tint in line_tints(links.iter().map(|l| l.stroke)) {
        let mut d = String::new();
        for link in links.iter().filter(|l| l.stroke == Stroke::Line(tint)) {
            let ((x, y), _) = link_ends(link, w);
            let step = match link.along {
                Along::Across => across.as_str(),
                Along::Down => "v1",
            };
            d.push_str(&format!("M{} {}{step}", Num(x), Num(y)));
        }
        writeln!(
            out,
            r#"<path d="{d}" fill="none" stroke="{}" stroke-linecap="round" stroke-linejoin="round" stroke-width="0.14"/>"#,
            colour(tint)
        )?;
    }
    Ok(())
}

/// A cell's centre, with cells `w` wide.
fn centre((row, col): Pos, w: usize) -> (f64, f64) {
    ((col * w) as f64 + w as f64 / 2.0, row as f64 + 0.5)
}

fn trail_element(trail: &Trail, w: usize) -> Polyline {
    let mut points = String::with_capacity(trail.cells.len() * 12);
    let mut cells: Vec<Pos> = trail.cells.clone();
    if trail.closed
        && let Some(&first) = cells.first()
    {
        cells.push(first);
    }
    for (i, &pos) in cells.iter().enumerate() {
        let (x, y) = centre(pos, w);
        if i > 0 {
            points.push(' ');
        }
        points.push_str(&format!("{},{}", Num(x), Num(y)));
    }
    let width = if trail.tint == Tint::Wind { 0.2 } else { 0.34 };
    Polyline::new()
        .set("points", points)
        .set("fill", "none")
        .set("stroke", colour(trail.tint).to_string())
        .set("stroke-width", width)
        .set("stroke-linecap", "round")
        .set("stroke-linejoin", "round")
}

/// `points` as a polygon's attribute, each rounded.
fn polygon(out: &mut impl Write, points: &[(f64, f64)], fill: Paint) -> io::Result<()> {
    let points = points.iter().map(|&(x, y)| format!("{},{}", Num(x), Num(y))).collect::<Vec<_>>().join(" ");
    let shape = svg::node::element::Polygon::new().set("points", points).set("fill", fill.to_string());
    writeln!(out, "{shape}")
}

/// The unit step of a direction, in cells.
fn step(dir: Dir) -> (f64, f64) {
    match dir {
        Dir::Up => (0.0, -1.0),
        Dir::Down => (0.0, 1.0),
        Dir::Left => (-1.0, 0.0),
        Dir::Right => (1.0, 0.0),
    }
}

/// A triangle pointing `dir` from `(x, y)`, `length` long from its back to
/// its tip.
fn arrow_head(out: &mut impl Write, (x, y): (f64, f64), dir: Dir, length: f64, fill: Paint) -> io::Result<()> {
    let (dx, dy) = step(dir);
    let (tip, back) = (length * 0.32 / 0.57, length * 0.25 / 0.57);
    let tip_point = (x + tip * dx, y + tip * dy);
    let left = (x - back * dx - back * dy, y - back * dy + back * dx);
    let right = (x - back * dx + back * dy, y - back * dy - back * dx);
    polygon(out, &[tip_point, left, right], fill)
}

/// Text centred at `x` with its baseline at `y`.
fn centred_text(out: &mut impl Write, text: &str, (x, y): (f64, f64), size: f64, fill: Paint) -> io::Result<()> {
    let attributes: [(&str, &dyn Display); 6] = [
        ("fill", &fill),
        ("font-family", &"sans-serif"),
        ("font-size", &Num(size)),
        ("text-anchor", &"middle"),
        ("x", &Num(x)),
        ("y", &Num(y)),
    ];
    text_element(out, text, &attributes)
}

/// The colour under a cell's marks, for the halo round a corner label.
fn ground_paint(scene: &Scene, pos: Pos) -> Paint {
    match scene.ground(pos) {
        Ground::Floor | Ground::Blank => Paint(Tint::Paper),
        Ground::Wall => Paint(Tint::Rgb([0x3b, 0x3b, 0x3b])),
        Ground::Shaded(tint) => colour(tint),
    }
}

/// One mark that is not a plain label or a plain dot. `cornered`: the
/// scene has corner labels, which middle labels keep clear of.
fn mark_elements(out: &mut impl Write, scene: &Scene, pos: Pos, mark: &Mark, cornered: bool) -> io::Result<()> {
    let w = scene.col_width as f64;
    let (x, y) = centre(pos, scene.col_width);
    let size = f64::from(mark.size) / 100.0;
    let paint = colour(readable(mark.tint, scene.ground(pos)));
    match &mark.shape {
        Shape::Arrow(dir) => arrow_head(out, (x, y), *dir, size, paint),
        Shape::Label(text) if cornered => centred_text(out, text, (x, y + 0.08 + size / 3.0), size, paint),
        Shape::Label(text) => centred_text(out, text, (x, y + size / 3.0), size, paint),
        Shape::CornerLabel(text) => {
            // On a halo of the cell's ground, so that a dashed cage border
            // under it does not strike it through.
            let (row, col) = pos;
            let attributes: [(&str, &dyn Display); 9] = [
                ("fill", &paint),
                ("font-family", &"sans-serif"),
                ("font-size", &Num(size)),
                ("paint-order", &"stroke"),
                ("stroke", &ground_paint(scene, pos)),
                ("stroke-width", &Num(size * 0.25)),
                ("text-anchor", &"start"),
                ("x", &Num(col as f64 * w + 0.06)),
                ("y", &Num(row as f64 + 0.04 + size * 0.8)),
            ];
            text_element(out, text, &attributes)
        }
        Shape::NumberedArrow(dir, text) => {
            // The number in the middle, the arrow beside it: above a
            // sideways one, left of an upright one, as Yajilin prints it.
            let (arrow_at, text_at) = match dir {
                Dir::Left | Dir::Right => ((x, y - 0.28), (x, y + 0.32)),
                Dir::Up | Dir::Down => ((x - 0.28, y), (x + 0.1, y + 0.17)),
            };
            arrow_head(out, arrow_at, *dir, 0.3, paint)?;
            centred_text(out, text, text_at, size, paint)
        }
        Shape::Heading(text) => {
            let (row, col) = pos;
            let attributes: [(&str, &dyn Display); 5] = [
                ("fill", &paint),
                ("font-family", &"sans-serif"),
                ("font-size", &Num(size)),
                ("x", &Num(col as f64 * w + 0.05)),
                ("y", &Num(row as f64 + 0.72)),
            ];
            text_element(out, text, &attributes)
        }
        Shape::Ring => {
            let attributes: [(&str, &dyn Display); 6] = [
                ("cx", &Num(x)),
                ("cy", &Num(y)),
                ("fill", &"none"),
                ("r", &Num(size / 2.0)),
                ("stroke", &paint),
                ("stroke-width", &0.1),
            ];
            element(out, "circle", &attributes)
        }
        Shape::Circle => {
            let attributes: [(&str, &dyn Display); 6] = [
                ("cx", &Num(x)),
                ("cy", &Num(y)),
                ("fill", &paint),
                ("r", &Num(size / 2.0)),
                ("stroke", &INK),
                ("stroke-width", &0.05),
            ];
            element(out, "circle", &attributes)
        }
        Shape::Square => rect(out, x - size / 2.0, y - size / 2.0, size, size, &paint),
        Shape::Dot => circle(out, &Num(x), &Num(y), size / 2.0, &paint),
        Shape::Star => {
            let points: Vec<(f64, f64)> = (0..10)
                .map(|k| {
                    let r = if k % 2 == 0 { size / 2.0 } else { size / 5.0 };
                    let angle = std::f64::consts::PI * (k as f64 / 5.0 - 0.5);
                    (x + r * angle.cos(), y + 0.03 + r * angle.sin())
                })
                .collect();
            polygon(out, &points, paint)
        }
        Shape::Cross => cross_mark(out, (x, y), size, paint),
        Shape::Triangle(corner) => {
            let (row, col) = (pos.0 as f64, pos.1 as f64 * w);
            let inset = (1.0 - size) / 2.0;
            let (left, top, right, bottom) = (col + inset, row + inset, col + w - inset, row + 1.0 - inset);
            let points = match corner {
                Corner::TopLeft => [(left, top), (right, top), (left, bottom)],
                Corner::TopRight => [(left, top), (right, top), (right, bottom)],
                Corner::BottomLeft => [(left, top), (left, bottom), (right, bottom)],
                Corner::BottomRight => [(right, top), (right, bottom), (left, bottom)],
            };
            polygon(out, &points, paint)
        }
        Shape::Sun => sun_mark(out, (x, y), size, paint),
        Shape::Moon => moon_mark(out, (x, y), size, paint),
    }
}

/// A cross (an X) of arms `size / 2` about `(x, y)`.
fn cross_mark(out: &mut impl Write, (x, y): (f64, f64), size: f64, paint: Paint) -> io::Result<()> {
    let arm = size / 2.0;
    let attributes: [(&str, &dyn Display); 5] = [
        (
            "d",
            &format!(
                "M{} {}L{} {}M{} {}L{} {}",
                Num(x - arm),
                Num(y - arm),
                Num(x + arm),
                Num(y + arm),
                Num(x - arm),
                Num(y + arm),
                Num(x + arm),
                Num(y - arm)
            ),
        ),
        ("fill", &"none"),
        ("stroke", &paint),
        ("stroke-linecap", &"round"),
        ("stroke-width", &0.08),
    ];
    element(out, "path", &attributes)
}

/// A sun: a disc with eight rays, as Moon-or-Sun prints it.
fn sun_mark(out: &mut impl Write, (x, y): (f64, f64), size: f64, paint: Paint) -> io::Result<()> {
    let r = size * 0.3;
    let mut d = String::new();
    for k in 0..8 {
        let angle = std::f64::consts::PI * k as f64 / 4.0;
        let (c, s) = (angle.cos(), angle.sin());
        d.push_str(&format!(
            "M{} {}L{} {}",
            Num(x + c * r * 1.25),
            Num(y + s * r * 1.25),
            Num(x + c * size / 2.0),
            Num(y + s * size / 2.0)
        ));
    }
    let rays: [(&str, &dyn Display); 5] =
        [("d", &d), ("fill", &"none"), ("stroke", &paint), ("stroke-linecap", &"round"), ("stroke-width", &0.05)];
    element(out, "path", &rays)?;
    circle(out, &Num(x), &Num(y), r, &paint)
}

/// A crescent moon: the outer arc of a disc, back along a smaller arc
/// that bites into it from the right.
fn moon_mark(out: &mut impl Write, (x, y): (f64, f64), size: f64, paint: Paint) -> io::Result<()> {
    let r = size / 2.0;
    let d = format!(
        "M{} {}A{} {} 0 1 0 {} {}A{} {} 0 1 1 {} {}Z",
        Num(x + r * 0.35),
        Num(y - r * 0.94),
        Num(r),
        Num(r),
        Num(x + r * 0.35),
        Num(y + r * 0.94),
        Num(r * 0.8),
        Num(r * 0.8),
        Num(x + r * 0.35),
        Num(y - r * 0.94)
    );
    element(out, "path", &[("d", &d), ("fill", &paint)])
}

/// The clues outside the grid, each in the place its side, line and depth
/// give: a cell's width above and below, its column's width beside.
fn outside_clues(out: &mut impl Write, scene: &Scene, margins: &Margins) -> io::Result<()> {
    let w = scene.col_width as f64;
    let (rows, cols) = (scene.rows() as f64, scene.cols() as f64 * w);
    for Outside { side, line, depth, text, tint } in &scene.outside {
        let (line, depth) = (*line as f64 + 0.5, *depth);
        let pad = margins.pad;
        let (x, y) = match side {
            Side::Top => (line * w, -(depth as f64) - 0.5 - pad),
            Side::Bottom => (line * w, rows + depth as f64 + 0.5 + pad),
            Side::Left => (-Margins::column_middle(&margins.left, depth) - pad, line),
            Side::Right => (cols + Margins::column_middle(&margins.right, depth) + pad, line),
        };
        let size = outside_size(text);
        centred_text(out, text, (x, y + size / 3.0), size, colour(*tint))?;
    }
    Ok(())
}

/// How far a line's place reaches on either side of the line, in cells.
const LINE_REACH: f64 = 0.15;

/// The unseen places of the cells and the lines, on top of everything so
/// that a click lands on them: a line's place is a thin band along it,
/// short of its ends, so that a click near a corner or a centre is the
/// cell's.
fn places(out: &mut impl Write, scene: &Scene) -> io::Result<()> {
    let (rows, cols, w) = (scene.rows(), scene.cols(), scene.col_width);
    if rows == 0 || cols == 0 {
        return Ok(());
    }
    writeln!(out, r#"<g fill="none" pointer-events="fill">"#)?;
    let mut number = itoa::Buffer::new();
    for row in 0..rows {
        for col in 0..cols {
            out.write_all(b"<rect data-col=\"")?;
            out.write_all(number.format(col).as_bytes())?;
            out.write_all(b"\" data-row=\"")?;
            out.write_all(number.format(row).as_bytes())?;
            write!(out, "\" height=\"1\" width=\"{w}\" x=\"")?;
            out.write_all(number.format(col * w).as_bytes())?;
            out.write_all(b"\" y=\"")?;
            out.write_all(number.format(row).as_bytes())?;
            out.write_all(b"\"/>\n")?;
        }
    }
    let (width, reach) = (w as f64, LINE_REACH);
    if scene.line_places.sides {
        for (row, col) in (0..=rows).flat_map(|r| (0..cols).map(move |c| (r, c))) {
            let (x, y) = ((col * w) as f64, row as f64);
            line_place(out, ("side", row, col, "across"), (x + reach, y - reach), (width - 2.0 * reach, 2.0 * reach))?;
        }
        for (row, col) in (0..rows).flat_map(|r| (0..=cols).map(move |c| (r, c))) {
            let (x, y) = ((col * w) as f64, row as f64);
            line_place(out, ("side", row, col, "down"), (x - reach, y + reach), (2.0 * reach, 1.0 - 2.0 * reach))?;
        }
    }
    if scene.line_places.steps {
        for (row, col) in (0..rows).flat_map(|r| (0..cols.saturating_sub(1)).map(move |c| (r, c))) {
            let (x, y) = (((col + 1) * w) as f64, row as f64 + 0.5);
            let half = width / 2.0 - reach;
            line_place(out, ("step", row, col, "across"), (x - half, y - reach), (2.0 * half, 2.0 * reach))?;
        }
        for (row, col) in (0..rows.saturating_sub(1)).flat_map(|r| (0..cols).map(move |c| (r, c))) {
            let (x, y) = ((col * w) as f64 + width / 2.0, (row + 1) as f64);
            let half = 0.5 - reach;
            line_place(out, ("step", row, col, "down"), (x - reach, y - half), (2.0 * reach, 2.0 * half))?;
        }
    }
    writeln!(out, "</g>")
}

/// The place of one line, named `kind row col along`, a band from `(x, y)`
/// of `(width, height)` cells.
fn line_place(
    out: &mut impl Write,
    (kind, row, col, along): (&str, usize, usize, &str),
    (x, y): (f64, f64),
    (width, height): (f64, f64),
) -> io::Result<()> {
    writeln!(
        out,
        r#"<rect data-edge="{kind} {row} {col} {along}" height="{}" width="{}" x="{}" y="{}"/>"#,
        Num(height),
        Num(width),
        Num(x),
        Num(y)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scene rendered with resvg, read in pixels.
    struct Rendered(resvg::tiny_skia::Pixmap);

    impl Rendered {
        fn of(scene: &Scene) -> (String, Rendered) {
            let mut out = Vec::new();
            write(scene, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            let tree = resvg::usvg::Tree::from_str(&text, &resvg::usvg::Options::default()).unwrap();
            let size = tree.size().to_int_size();
            let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
            resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());
            (text, Rendered(pixmap))
        }

        /// The colour at a point given in cells.
        fn at(&self, (x, y): (f64, f64)) -> [u8; 3] {
            let p = self.0.pixel((x * CELL_PX as f64) as u32, (y * CELL_PX as f64) as u32).unwrap();
            [p.red(), p.green(), p.blue()]
        }

        fn centre(&self, (row, col): Pos) -> [u8; 3] {
            self.at(centre((row, col), 1))
        }
    }

    fn rgb(hex: &str) -> [u8; 3] {
        let n = u32::from_str_radix(&hex[1..], 16).unwrap();
        [(n >> 16) as u8, (n >> 8) as u8, n as u8]
    }

    #[test]
    fn numbers_are_written_to_a_thousandth_of_a_cell() {
        let written: Vec<String> =
            [2.0 + 3.0 * 0.8, 0.8200000000000001, 2.6000000000000005, 6.0, -0.0001, 0.0625, 1.0 / 3.0]
                .iter()
                .map(|&v| Num(v).to_string())
                .collect();
        assert_eq!(written, ["4.4", "0.82", "2.6", "6", "0", "0.063", "0.333"]);
        // Three caption lines and an arrow: sums that were written with
        // sixteen digits.
        let mut scene = Scene::new(2, 2);
        scene.marks.push(((1, 1), Mark::arrow(Dir::Left, Tint::Ink)));
        scene.caption.extend(["one", "two", "three"].map(String::from));
        let (text, _) = Rendered::of(&scene);
        assert!(text.contains(r#"y="3.6""#) && text.contains(r#"y="4.4""#), "{text}");
        assert!(text.contains("1.18,1.5 1.75,1.25 1.75,1.75"), "{text}");
    }

    #[test]
    fn every_mark_shape_is_drawn_in_its_colour_and_size() {
        // One cell per shape, each in a colour of its own; read where each
        // shape surely has paint (its middle, or a triangle's corner).
        let shapes = [
            (Shape::Dot, (0.5, 0.5)),
            (Shape::Square, (0.5, 0.5)),
            (Shape::Circle, (0.5, 0.5)),
            (Shape::Star, (0.5, 0.5)),
            (Shape::Cross, (0.5, 0.5)),
            (Shape::Triangle(Corner::TopRight), (0.9, 0.1)),
            (Shape::Triangle(Corner::BottomLeft), (0.1, 0.9)),
            (Shape::Sun, (0.5, 0.5)),
            (Shape::Moon, (0.25, 0.5)),
            (Shape::Arrow(Dir::Up), (0.5, 0.5)),
            (Shape::Ring, (0.5 + 0.3, 0.5)),
        ];
        let mut scene = Scene::new(1, shapes.len());
        for (col, (shape, _)) in shapes.iter().enumerate() {
            let tint = Tint::Rgb([10 * col as u8, 100, 200]);
            scene.marks.push(((0, col), Mark::new(shape.clone(), tint)));
        }
        let (_, rendered) = Rendered::of(&scene);
        for (col, (shape, (x, y))) in shapes.iter().enumerate() {
            assert_eq!(rendered.at((col as f64 + x, *y)), [10 * col as u8, 100, 200], "{shape:?}");
        }
        // A mark's size: a dot of 0.6 reaches 0.25 from its middle, the
        // usual one (0.28) does not.
        let mut scene = Scene::new(1, 2);
        scene.marks.push(((0, 0), Mark::dot(Tint::Ink)));
        scene.marks.push(((0, 1), Mark::dot(Tint::Ink).sized(60)));
        let (_, rendered) = Rendered::of(&scene);
        assert_eq!(rendered.at((0.75, 0.5)), rgb(FLOOR));
        assert_eq!(rendered.at((1.75, 0.5)), rgb(INK));
    }

    #[test]
    fn a_scene_of_no_cells_is_its_caption_on_white() {
        let mut scene = Scene::new(0, 0);
        scene.caption.push("nothing to draw".to_string());
        let (text, rendered) = Rendered::of(&scene);
        assert!(!text.contains("<line") && !text.contains(r#"height="0""#), "{text}");
        assert_eq!(rendered.at((0.05, 0.9)), rgb(FLOOR), "the caption's ground");
    }

    #[test]
    fn walls_shading_and_routes_land_on_their_cells() {
        let mut scene = Scene::new(2, 3);
        scene.set_ground((0, 2), Ground::Wall);
        scene.set_ground((1, 2), Ground::Shaded(Tint::Highlight));
        scene.trails.push(Trail { cells: vec![(0, 0), (0, 1), (1, 1), (1, 0)], tint: Tint::Route(0), closed: false });
        scene.caption.push("a <caption> & more".to_string());
        let (text, rendered) = Rendered::of(&scene);
        assert!(text.contains("a &lt;caption&gt; &amp; more"), "text is escaped");
        assert_eq!(rendered.centre((0, 2)), rgb(WALL));
        assert_eq!(rendered.centre((1, 2)), rgb(SHADE));
        for cell in [(0, 0), (0, 1), (1, 1), (1, 0)] {
            assert_eq!(rendered.centre(cell), rgb(ROUTES[0]), "{cell:?}");
        }
    }

    #[test]
    fn labels_edges_and_region_borders_are_drawn_where_they_stand() {
        let mut scene = super::super::scene::sample();
        scene.corner_dots = true;
        let (text, rendered) = Rendered::of(&scene);
        // Two labels; the borders: the frame (4 runs) and the region's
        // left side (1); 3 + 4 thin grid lines and a cross of two; the two
        // edges in one path.
        assert_eq!(text.matches("<text").count(), 2);
        assert!(text.contains(">\n12\n</text>"), "{text}");
        assert_eq!(text.matches("<line").count(), 7 + 5 + 2);
        assert_eq!(text.matches("<path").count(), 1, "the edges of one colour in one path");
        assert!(text.contains("url(#corner-dots)"), "a dot on every corner, by a pattern");
        // The region border is heavier than a thin grid line; the lattice
        // stands LATTICE_PAD inside the picture.
        let at = |(x, y): (f64, f64)| rendered.at((x + LATTICE_PAD, y + LATTICE_PAD));
        let beside = 0.5 / CELL_PX as f64;
        assert_eq!(at((2.0 + beside, 1.25)), rgb(INK), "by the border between (1, 1) and (1, 2)");
        assert_ne!(at((1.0 + beside, 1.25)), rgb(INK), "by the thin line between (1, 0) and (1, 1)");
        // The edges, at their midpoints; a side with no edge stays floor.
        assert_eq!(at((0.25, 1.0)), rgb(ROUTES[0]), "the line under (0, 0)");
        assert_eq!(at((1.0, 0.75)), rgb(ROUTES[0]), "the line between (0, 0) and (0, 1)");
        assert_eq!(at((1.5, 1.5)), rgb(FLOOR));
    }

    /// The attribute `name`'s values in the order they stand.
    fn values<'t>(text: &'t str, name: &str) -> Vec<&'t str> {
        let key = format!(" {name}=\"");
        text.match_indices(&key).map(|(at, _)| &text[at + key.len()..]).map(|v| &v[..v.find('"').unwrap()]).collect()
    }

    #[test]
    fn every_cell_and_line_has_an_unseen_place_of_its_own() {
        let mut scene = super::super::scene::sample();
        scene.line_places = super::super::LinePlaces { sides: true, steps: true };
        let (rows, cols) = (scene.rows(), scene.cols());
        let (text, rendered) = Rendered::of(&scene);
        // One place per cell, with its row and column, one unit wide.
        let cells: Vec<(usize, usize)> = values(&text, "data-row")
            .iter()
            .zip(values(&text, "data-col"))
            .map(|(r, c)| (r.parse().unwrap(), c.parse().unwrap()))
            .collect();
        let every: Vec<(usize, usize)> = (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))).collect();
        assert_eq!(cells, every);
        assert!(text.contains(r#"<rect data-col="2" data-row="1" height="1" width="1" x="2" y="1"/>"#), "{text}");
        // One per side of the lattice and one per step between centres,
        // each named once.
        let edges = values(&text, "data-edge");
        let sides = (rows + 1) * cols + rows * (cols + 1);
        let steps = rows * (cols - 1) + (rows - 1) * cols;
        assert_eq!(edges.iter().filter(|e| e.starts_with("side ")).count(), sides);
        assert_eq!(edges.iter().filter(|e| e.starts_with("step ")).count(), steps);
        let distinct: std::collections::HashSet<&&str> = edges.iter().collect();
        assert_eq!(distinct.len(), edges.len());
        // The side below corner (0, 1) is a band about x = 1; the step
        // right of cell (1, 0) one about x = 1, y = 1.5.
        assert!(text.contains(r#"<rect data-edge="side 0 1 down" height="0.7" width="0.3" x="0.85" y="0.15"/>"#));
        assert!(text.contains(r#"<rect data-edge="step 1 0 across" height="0.3" width="0.7" x="0.65" y="1.35"/>"#));
        // Unseen: the picture without them is the same, pixel for pixel.
        let start = text.find("<g fill=\"none\" pointer-events=\"fill\">").unwrap();
        let end = start + text[start..].find("</g>").unwrap() + "</g>\n".len();
        let without = format!("{}{}", &text[..start], &text[end..]);
        let tree = resvg::usvg::Tree::from_str(&without, &resvg::usvg::Options::default()).unwrap();
        let mut pixmap = resvg::tiny_skia::Pixmap::new(rendered.0.width(), rendered.0.height()).unwrap();
        resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());
        assert!(pixmap.data() == rendered.0.data(), "the places draw nothing");
        // A scene without lines to draw has places for its cells only.
        let (text, _) = Rendered::of(&Scene::new(2, 2));
        assert_eq!((values(&text, "data-row").len(), values(&text, "data-edge").len()), (4, 0));
    }
}

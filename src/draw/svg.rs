//! Drawing a [`Scene`] as SVG, streamed element by element so that a
//! room of a million cells is written without holding the document in
//! memory. The many small elements (cells, lines, dots, labels) are
//! written here directly, their attributes in the order the `svg` crate
//! writes them, since building each through the crate cost some 5 µs, 50
//! times what a 100 × 100 grid's JSON report costs per cell; the few long
//! ones (trails, arrows) still come from the crate.
//!
//! One cell is one unit of the view box, so a cell's centre is at
//! `(col + 0.5, row + 0.5)` and the image is `cols × CELL_PX` wide.

use std::io::{self, Write};

use std::fmt::Display;

use svg::node::element::Polyline;

use super::{Along, Edge, Ground, Mark, Scene, Stroke, Tint, Trail};
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

/// The colour of a tint.
pub fn colour(tint: Tint) -> &'static str {
    match tint {
        Tint::Route(n) => ROUTES[n % ROUTES.len()],
        Tint::Wind => WIND,
        Tint::Goal => GOAL,
        Tint::Obstacle => OBSTACLE,
        Tint::Highlight => SHADE,
        Tint::Ink => INK,
        Tint::Given => GIVEN,
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

/// Writes `scene` as an SVG document to `out`: a white ground under the
/// whole picture (so that the caption never stands on a viewer's own,
/// often dark, background), the cells' grounds, the thin grid lines, region
/// borders, edges, corner dots, trails, marks, outlines and the caption,
/// each layer over the one before. A scene of no cells (nothing to draw
/// but its caption) has no grid.
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
    let height = Num::rounded(rows as f64 + scene.caption.len() as f64 * CAPTION_LINE + 0.2);
    // Wide enough for the longest caption line, at about 0.3 cells a letter.
    let longest = scene.caption.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let width = (cols as f64).max((longest as f64 * 0.3 + 0.2).ceil());
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" width="{}" height="{}">"#,
        Num(width),
        Num(height),
        (width * CELL_PX as f64).ceil() as usize,
        (height * CELL_PX as f64).ceil() as usize
    )?;
    // The floor of the grid, and the ground of the caption.
    rect(&mut out, 0.0, 0.0, width, height, FLOOR)?;
    let mut number = itoa::Buffer::new();
    for (row, col, length, ground) in scene.ground_runs() {
        let fill = match ground {
            Ground::Floor => continue,
            Ground::Wall => WALL,
            Ground::Shaded(tint) => colour(tint),
        };
        // As `rect` writes it: a whole number of cells prints as an integer.
        write!(out, r#"<rect fill="{fill}" height="1" width=""#)?;
        for (value, end) in [(length, "\" x=\""), (col, "\" y=\""), (row, "\"/>\n")] {
            out.write_all(number.format(value).as_bytes())?;
            out.write_all(end.as_bytes())?;
        }
    }
    if rows > 0 && cols > 0 {
        grid_lines(&mut out, rows, cols)?;
    }
    if scene.has_regions() {
        region_borders(&mut out, scene)?;
    }
    edge_lines(&mut out, &scene.edges)?;
    for edge in scene.edges.iter().filter(|e| matches!(e.stroke, Stroke::Cross(_))) {
        edge_elements(&mut out, edge)?;
    }
    if scene.corner_dots {
        corner_dots(&mut out, rows, cols)?;
    }
    for trail in &scene.trails {
        writeln!(out, "{}", trail_element(trail))?;
    }
    // Runs of labels of one colour share a group that carries their style,
    // so that a grid of numbers is not mostly repeated attributes.
    let places = Places::of(rows, cols);
    let mut open_group: Option<Tint> = None;
    for (pos, mark) in &scene.marks {
        let label_tint = if let Mark::Label(_, tint) = mark { Some(*tint) } else { None };
        if open_group.is_some() && open_group != label_tint {
            writeln!(out, "</g>")?;
            open_group = None;
        }
        match (mark, label_tint) {
            (Mark::Label(text, _), Some(tint)) => {
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
                    text_content(&mut out, text)?;
                } else {
                    let (x, y) = centre(*pos);
                    text_element(&mut out, text, &[("x", &Num(x)), ("y", &Num(y + LABEL_DROP))])?;
                }
            }
            // As `circle` writes it, from the places worked out once.
            (&Mark::Dot(tint), _) => match places.centre(*pos) {
                Some((x, y)) => {
                    for part in ["<circle cx=\"", x, "\" cy=\"", y, "\" fill=\"", colour(tint), "\" r=\"0.14\"/>\n"] {
                        out.write_all(part.as_bytes())?;
                    }
                }
                None => mark_elements(&mut out, *pos, mark)?,
            },
            _ => mark_elements(&mut out, *pos, mark)?,
        }
    }
    if open_group.is_some() {
        writeln!(out, "</g>")?;
    }
    for &(row, col) in &scene.outlines {
        let (x, y) = (Num(col as f64 + 0.06), Num(row as f64 + 0.06));
        let attributes: [(&str, &dyn Display); 7] = [
            ("fill", &"none"),
            ("height", &0.88),
            ("stroke", &OUTLINE),
            ("stroke-width", &0.12),
            ("width", &0.88),
            ("x", &x),
            ("y", &y),
        ];
        element(&mut out, "rect", &attributes)?;
    }
    for (i, line) in scene.caption.iter().enumerate() {
        let y = Num(rows as f64 + (i as f64 + 1.0) * CAPTION_LINE);
        let attributes: [(&str, &dyn Display); 5] =
            [("fill", &INK), ("font-family", &"sans-serif"), ("font-size", &0.55), ("x", &0.1), ("y", &y)];
        text_element(&mut out, line, &attributes)?;
    }
    writeln!(out, "</svg>")?;
    out.flush()
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

fn rect(out: &mut impl Write, x: f64, y: f64, width: f64, height: f64, fill: &str) -> io::Result<()> {
    let (x, y, width, height) = (Num(x), Num(y), Num(width), Num(height));
    element(out, "rect", &[("fill", &fill), ("height", &height), ("width", &width), ("x", &x), ("y", &y)])
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
    fn of(rows: usize, cols: usize) -> Places {
        Places {
            xs: (0..cols).map(|col| Num(centre((0, col)).0).to_string()).collect(),
            ys: (0..rows).map(|row| Num(centre((row, 0)).1).to_string()).collect(),
            baselines: (0..rows).map(|row| Num(centre((row, 0)).1 + LABEL_DROP).to_string()).collect(),
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

/// Thin lines between cells, one per row and column boundary.
fn grid_lines(out: &mut impl Write, rows: usize, cols: usize) -> io::Result<()> {
    let mut line = |x1: usize, y1: usize, x2: usize, y2: usize| {
        let attributes: [(&str, &dyn Display); 6] =
            [("stroke", &GRID), ("stroke-width", &0.03), ("x1", &x1), ("x2", &x2), ("y1", &y1), ("y2", &y2)];
        element(&mut *out, "line", &attributes)
    };
    for row in 0..=rows {
        line(0, row, cols, row)?;
    }
    for col in 0..=cols {
        line(col, 0, col, rows)?;
    }
    Ok(())
}

/// Heavy lines along the sides where regions meet, each straight run of
/// border one line.
fn region_borders(out: &mut impl Write, scene: &Scene) -> io::Result<()> {
    let (rows, cols) = (scene.rows(), scene.cols());
    let mut heavy = |x1: usize, y1: usize, x2: usize, y2: usize| {
        let attributes: [(&str, &dyn Display); 7] = [
            ("stroke", &INK),
            ("stroke-linecap", &"square"),
            ("stroke-width", &0.1),
            ("x1", &x1),
            ("x2", &x2),
            ("y1", &y1),
            ("y2", &y2),
        ];
        element(&mut *out, "line", &attributes)
    };
    for row in 0..=rows {
        for (from, to) in runs(cols, |col| scene.is_border((row, col), Along::Across)) {
            heavy(from, row, to, row)?;
        }
    }
    for col in 0..=cols {
        for (from, to) in runs(rows, |row| scene.is_border((row, col), Along::Down)) {
            heavy(col, from, col, to)?;
        }
    }
    Ok(())
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

/// A cross on a side known not to be a line.
fn edge_elements(out: &mut impl Write, edge: &Edge) -> io::Result<()> {
    let Stroke::Cross(tint) = edge.stroke else { return Ok(()) };
    let (row, col) = edge.corner;
    let (to_row, to_col) = match edge.along {
        Along::Across => (row, col + 1),
        Along::Down => (row + 1, col),
    };
    let (x, y) = ((col + to_col) as f64 / 2.0, (row + to_row) as f64 / 2.0);
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

fn circle(out: &mut impl Write, x: &dyn Display, y: &dyn Display, r: f64, fill: &str) -> io::Result<()> {
    element(out, "circle", &[("cx", x), ("cy", y), ("fill", &fill), ("r", &r)])
}

/// A dot on every corner of the lattice: one pattern of a dot per cell,
/// offset by half a cell, filling the grid and half a cell around it, so
/// that a large lattice costs two elements instead of one per corner.
fn corner_dots(out: &mut impl Write, rows: usize, cols: usize) -> io::Result<()> {
    writeln!(
        out,
        r#"<defs><pattern height="1" id="corner-dots" patternUnits="userSpaceOnUse" width="1" x="-0.5" y="-0.5"><circle cx="0.5" cy="0.5" fill="{INK}" r="0.07"/></pattern></defs>"#
    )?;
    let (width, height) = (cols + 1, rows + 1);
    element(
        out,
        "rect",
        &[("fill", &"url(#corner-dots)"), ("height", &height), ("width", &width), ("x", &-0.5), ("y", &-0.5)],
    )
}

/// The lines along the cells' sides, one path per colour.
fn edge_lines(out: &mut impl Write, edges: &[Edge]) -> io::Result<()> {
    let mut tints: Vec<Tint> = Vec::new();
    for edge in edges {
        if let Stroke::Line(tint) = edge.stroke
            && !tints.contains(&tint)
        {
            tints.push(tint);
        }
    }
    for tint in tints {
        let mut d = String::new();
        let mut number = itoa::Buffer::new();
        for edge in edges.iter().filter(|e| e.stroke == Stroke::Line(tint)) {
            let (row, col) = edge.corner;
            let step = match edge.along {
                Along::Across => "h1",
                Along::Down => "v1",
            };
            d.push('M');
            d.push_str(number.format(col));
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

fn centre((row, col): Pos) -> (f64, f64) {
    (col as f64 + 0.5, row as f64 + 0.5)
}

fn trail_element(trail: &Trail) -> Polyline {
    let mut points = String::with_capacity(trail.cells.len() * 12);
    let mut cells: Vec<Pos> = trail.cells.clone();
    if trail.closed
        && let Some(&first) = cells.first()
    {
        cells.push(first);
    }
    for (i, &pos) in cells.iter().enumerate() {
        let (x, y) = centre(pos);
        if i > 0 {
            points.push(' ');
        }
        points.push_str(&format!("{},{}", Num(x), Num(y)));
    }
    let width = if trail.tint == Tint::Wind { 0.2 } else { 0.34 };
    Polyline::new()
        .set("points", points)
        .set("fill", "none")
        .set("stroke", colour(trail.tint))
        .set("stroke-width", width)
        .set("stroke-linecap", "round")
        .set("stroke-linejoin", "round")
}

fn mark_elements(out: &mut impl Write, pos: Pos, mark: &Mark) -> io::Result<()> {
    let (x, y) = centre(pos);
    match mark {
        Mark::Arrow(dir, tint) => {
            // A triangle pointing `dir`, drawn as a closed polyline.
            let (dx, dy) = match dir {
                Dir::Up => (0.0, -1.0),
                Dir::Down => (0.0, 1.0),
                Dir::Left => (-1.0, 0.0),
                Dir::Right => (1.0, 0.0),
            };
            let tip = (x + 0.32 * dx, y + 0.32 * dy);
            let left = (x - 0.25 * dx - 0.25 * dy, y - 0.25 * dy + 0.25 * dx);
            let right = (x - 0.25 * dx + 0.25 * dy, y - 0.25 * dy - 0.25 * dx);
            let points = [tip, left, right].map(|(x, y)| format!("{},{}", Num(x), Num(y))).join(" ");
            let arrow = svg::node::element::Polygon::new().set("points", points).set("fill", colour(*tint));
            writeln!(out, "{arrow}")
        }
        Mark::Label(text, tint) => {
            let attributes: [(&str, &dyn Display); 6] = [
                ("fill", &colour(*tint)),
                ("font-family", &"sans-serif"),
                ("font-size", &0.6),
                ("text-anchor", &"middle"),
                ("x", &Num(x)),
                ("y", &Num(y + LABEL_DROP)),
            ];
            text_element(out, text, &attributes)
        }
        Mark::Ring(tint) => {
            let attributes: [(&str, &dyn Display); 6] = [
                ("cx", &Num(x)),
                ("cy", &Num(y)),
                ("fill", &"none"),
                ("r", &0.3),
                ("stroke", &colour(*tint)),
                ("stroke-width", &0.1),
            ];
            element(out, "circle", &attributes)
        }
        Mark::Square(tint) => rect(out, x - 0.22, y - 0.22, 0.44, 0.44, colour(*tint)),
        Mark::Dot(tint) => circle(out, &Num(x), &Num(y), 0.14, colour(*tint)),
    }
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
            self.at(centre((row, col)))
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
        scene.marks.push(((1, 1), Mark::Arrow(Dir::Left, Tint::Ink)));
        scene.caption.extend(["one", "two", "three"].map(String::from));
        let (text, _) = Rendered::of(&scene);
        assert!(text.contains(r#"y="3.6""#) && text.contains(r#"y="4.4""#), "{text}");
        assert!(text.contains("1.18,1.5 1.75,1.25 1.75,1.75"), "{text}");
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
        // The region border is heavier than a thin grid line.
        let beside = 0.5 / CELL_PX as f64;
        assert_eq!(rendered.at((2.0 + beside, 1.25)), rgb(INK), "by the border between (1, 1) and (1, 2)");
        assert_ne!(rendered.at((1.0 + beside, 1.25)), rgb(INK), "by the thin line between (1, 0) and (1, 1)");
        // The edges, at their midpoints; a side with no edge stays floor.
        assert_eq!(rendered.at((0.25, 1.0)), rgb(ROUTES[0]), "the line under (0, 0)");
        assert_eq!(rendered.at((1.0, 0.75)), rgb(ROUTES[0]), "the line between (0, 0) and (0, 1)");
        assert_eq!(rendered.centre((1, 1)), rgb(FLOOR));
    }
}

//! Drawing a [`Scene`] as SVG, streamed element by element so that a
//! room of a million cells is written without holding the document in
//! memory. The elements come from the `svg` crate, which does the escaping;
//! only the root tag, whose attributes are numbers, is written here.
//!
//! One cell is one unit of the view box, so a cell's centre is at
//! `(col + 0.5, row + 0.5)` and the image is `cols × CELL_PX` wide.

use std::io::{self, Write};

use svg::node::element::{Circle, Line, Polyline, Rectangle, Text};

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

/// Height of one caption line, in cells.
const CAPTION_LINE: f64 = 0.8;

/// Writes `scene` as an SVG document to `out`: the grounds, the thin grid
/// lines, region borders, edges, corner dots, trails, marks, outlines and
/// the caption, each layer over the one before.
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
    let height = rows as f64 + scene.caption.len() as f64 * CAPTION_LINE + 0.2;
    // Wide enough for the longest caption line, at about 0.3 cells a letter.
    let longest = scene.caption.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let width = (cols as f64).max((longest as f64 * 0.3 + 0.2).ceil());
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{}" height="{}">"#,
        (width * CELL_PX as f64).ceil() as usize,
        (height * CELL_PX as f64).ceil() as usize
    )?;
    writeln!(out, "{}", rect(0.0, 0.0, cols as f64, rows as f64, FLOOR))?;
    for (row, col, length, ground) in scene.ground_runs() {
        let fill = match ground {
            Ground::Floor => continue,
            Ground::Wall => WALL,
            Ground::Shaded(tint) => colour(tint),
        };
        writeln!(out, "{}", rect(col as f64, row as f64, length as f64, 1.0, fill))?;
    }
    grid_lines(&mut out, rows, cols)?;
    if scene.has_regions() {
        region_borders(&mut out, scene)?;
    }
    for edge in &scene.edges {
        edge_elements(&mut out, edge)?;
    }
    if scene.corner_dots {
        corner_dots(&mut out, rows, cols)?;
    }
    for trail in &scene.trails {
        writeln!(out, "{}", trail_element(trail))?;
    }
    for (pos, mark) in &scene.marks {
        mark_elements(&mut out, *pos, mark)?;
    }
    for &(row, col) in &scene.outlines {
        let outline = Rectangle::new()
            .set("x", col as f64 + 0.06)
            .set("y", row as f64 + 0.06)
            .set("width", 0.88)
            .set("height", 0.88)
            .set("fill", "none")
            .set("stroke", OUTLINE)
            .set("stroke-width", 0.12);
        writeln!(out, "{outline}")?;
    }
    for (i, line) in scene.caption.iter().enumerate() {
        let text = Text::new(line.as_str())
            .set("x", 0.1)
            .set("y", rows as f64 + (i as f64 + 1.0) * CAPTION_LINE)
            .set("font-size", 0.55)
            .set("font-family", "sans-serif")
            .set("fill", INK);
        writeln!(out, "{text}")?;
    }
    writeln!(out, "</svg>")?;
    out.flush()
}

fn rect(x: f64, y: f64, width: f64, height: f64, fill: &str) -> Rectangle {
    Rectangle::new().set("x", x).set("y", y).set("width", width).set("height", height).set("fill", fill)
}

/// Thin lines between cells, one per row and column boundary.
fn grid_lines(out: &mut impl Write, rows: usize, cols: usize) -> io::Result<()> {
    let line = |x1: usize, y1: usize, x2: usize, y2: usize| {
        Line::new()
            .set("x1", x1)
            .set("y1", y1)
            .set("x2", x2)
            .set("y2", y2)
            .set("stroke", GRID)
            .set("stroke-width", 0.03)
    };
    for row in 0..=rows {
        writeln!(out, "{}", line(0, row, cols, row))?;
    }
    for col in 0..=cols {
        writeln!(out, "{}", line(col, 0, col, rows))?;
    }
    Ok(())
}

fn lattice_line(x1: usize, y1: usize, x2: usize, y2: usize) -> Line {
    Line::new().set("x1", x1).set("y1", y1).set("x2", x2).set("y2", y2)
}

/// Heavy lines along the sides where regions meet, each straight run of
/// border one line.
fn region_borders(out: &mut impl Write, scene: &Scene) -> io::Result<()> {
    let (rows, cols) = (scene.rows(), scene.cols());
    let heavy = |line: Line| line.set("stroke", INK).set("stroke-width", 0.1).set("stroke-linecap", "square");
    for row in 0..=rows {
        for (from, to) in runs(cols, |col| scene.is_border((row, col), Along::Across)) {
            writeln!(out, "{}", heavy(lattice_line(from, row, to, row)))?;
        }
    }
    for col in 0..=cols {
        for (from, to) in runs(rows, |row| scene.is_border((row, col), Along::Down)) {
            writeln!(out, "{}", heavy(lattice_line(col, from, col, to)))?;
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

fn edge_elements(out: &mut impl Write, edge: &Edge) -> io::Result<()> {
    let (row, col) = edge.corner;
    let (to_row, to_col) = match edge.along {
        Along::Across => (row, col + 1),
        Along::Down => (row + 1, col),
    };
    match edge.stroke {
        Stroke::Line(tint) => {
            let line = lattice_line(col, row, to_col, to_row)
                .set("stroke", colour(tint))
                .set("stroke-width", 0.12)
                .set("stroke-linecap", "round");
            writeln!(out, "{line}")
        }
        Stroke::Cross(tint) => {
            let (x, y) = ((col + to_col) as f64 / 2.0, (row + to_row) as f64 / 2.0);
            let arm = 0.12;
            for (dx, dy) in [(arm, arm), (arm, -arm)] {
                let line = Line::new()
                    .set("x1", x - dx)
                    .set("y1", y - dy)
                    .set("x2", x + dx)
                    .set("y2", y + dy)
                    .set("stroke", colour(tint))
                    .set("stroke-width", 0.05);
                writeln!(out, "{line}")?;
            }
            Ok(())
        }
    }
}

fn corner_dots(out: &mut impl Write, rows: usize, cols: usize) -> io::Result<()> {
    for row in 0..=rows {
        for col in 0..=cols {
            writeln!(out, "{}", Circle::new().set("cx", col).set("cy", row).set("r", 0.07).set("fill", INK))?;
        }
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
        points.push_str(&format!("{x},{y}"));
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
            let points = format!("{},{} {},{} {},{}", tip.0, tip.1, left.0, left.1, right.0, right.1);
            let arrow = svg::node::element::Polygon::new().set("points", points).set("fill", colour(*tint));
            writeln!(out, "{arrow}")
        }
        Mark::Label(text, tint) => {
            let label = Text::new(text.as_str())
                .set("x", x)
                .set("y", y + 0.2)
                .set("font-size", 0.6)
                .set("font-family", "sans-serif")
                .set("text-anchor", "middle")
                .set("fill", colour(*tint));
            writeln!(out, "{label}")
        }
        Mark::Ring(tint) => {
            let ring = Circle::new()
                .set("cx", x)
                .set("cy", y)
                .set("r", 0.3)
                .set("fill", "none")
                .set("stroke", colour(*tint))
                .set("stroke-width", 0.1);
            writeln!(out, "{ring}")
        }
        Mark::Square(tint) => writeln!(out, "{}", rect(x - 0.22, y - 0.22, 0.44, 0.44, colour(*tint))),
        Mark::Dot(tint) => {
            writeln!(out, "{}", Circle::new().set("cx", x).set("cy", y).set("r", 0.14).set("fill", colour(*tint)))
        }
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
        // left side (1); 3 + 4 thin grid lines, 2 edges and a cross of two.
        assert_eq!(text.matches("<text").count(), 2);
        assert!(text.contains(">\n12\n</text>"), "{text}");
        assert_eq!(text.matches("<line").count(), 7 + 5 + 2 + 2);
        assert_eq!(text.matches("<circle").count(), 3 * 4, "a dot on every corner");
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

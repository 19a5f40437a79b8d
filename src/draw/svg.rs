//! Drawing a [`Scene`] as SVG, streamed element by element so that a
//! room of a million cells is written without holding the document in
//! memory. The elements come from the `svg` crate, which does the escaping;
//! only the root tag, whose attributes are numbers, is written here.
//!
//! One cell is one unit of the view box, so a cell's centre is at
//! `(col + 0.5, row + 0.5)` and the image is `cols × CELL_PX` wide.

use std::io::{self, Write};

use svg::node::element::{Circle, Line, Polyline, Rectangle, Text};

use super::{Ground, Mark, Scene, Tint, Trail};
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
/// The colour of plain marks and grid lines.
pub const INK: &str = "#202020";
/// The colour of outlines on named cells.
pub const OUTLINE: &str = "#e63946";

/// The colour of a tint.
pub fn colour(tint: Tint) -> &'static str {
    match tint {
        Tint::Route(n) => ROUTES[n % ROUTES.len()],
        Tint::Wind => WIND,
        Tint::Goal => GOAL,
        Tint::Obstacle => OBSTACLE,
        Tint::Ink => INK,
    }
}

/// Height of one caption line, in cells.
const CAPTION_LINE: f64 = 0.8;

/// Writes `picture` as an SVG document to `out`.
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
pub fn write(picture: &Scene, out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let (rows, cols) = (picture.rows(), picture.cols());
    let height = rows as f64 + picture.caption.len() as f64 * CAPTION_LINE + 0.2;
    // Wide enough for the longest caption line, at about 0.3 cells a letter.
    let longest = picture.caption.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let width = (cols as f64).max((longest as f64 * 0.3 + 0.2).ceil());
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{}" height="{}">"#,
        (width * CELL_PX as f64).ceil() as usize,
        (height * CELL_PX as f64).ceil() as usize
    )?;
    writeln!(out, "{}", rect(0.0, 0.0, cols as f64, rows as f64, FLOOR))?;
    for (row, col, length, ground) in picture.ground_runs() {
        let fill = match ground {
            Ground::Floor => continue,
            Ground::Wall => WALL,
            Ground::Shaded => SHADE,
        };
        writeln!(out, "{}", rect(col as f64, row as f64, length as f64, 1.0, fill))?;
    }
    grid_lines(&mut out, rows, cols)?;
    for trail in &picture.trails {
        writeln!(out, "{}", trail_element(trail))?;
    }
    for (pos, mark) in &picture.marks {
        mark_elements(&mut out, *pos, mark)?;
    }
    for &(row, col) in &picture.outlines {
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
    for (i, line) in picture.caption.iter().enumerate() {
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
            .set("stroke", "#c8c8c8")
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
        Mark::Start(tint) => {
            let ring = Circle::new()
                .set("cx", x)
                .set("cy", y)
                .set("r", 0.3)
                .set("fill", "none")
                .set("stroke", colour(*tint))
                .set("stroke-width", 0.1);
            writeln!(out, "{ring}")
        }
        Mark::End(tint) => writeln!(out, "{}", rect(x - 0.22, y - 0.22, 0.44, 0.44, colour(*tint))),
        Mark::Dot(tint) => {
            writeln!(out, "{}", Circle::new().set("cx", x).set("cy", y).set("r", 0.14).set("fill", colour(*tint)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The colour at the centre of a cell, after rendering with resvg.
    fn pixel_at(svg_text: &str, (row, col): Pos) -> [u8; 3] {
        let tree = resvg::usvg::Tree::from_str(svg_text, &resvg::usvg::Options::default()).unwrap();
        let size = tree.size().to_int_size();
        let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
        resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());
        let (x, y) = (col * CELL_PX + CELL_PX / 2, row * CELL_PX + CELL_PX / 2);
        let p = pixmap.pixel(x as u32, y as u32).unwrap();
        [p.red(), p.green(), p.blue()]
    }

    fn rgb(hex: &str) -> [u8; 3] {
        let n = u32::from_str_radix(&hex[1..], 16).unwrap();
        [(n >> 16) as u8, (n >> 8) as u8, n as u8]
    }

    #[test]
    fn walls_shading_and_routes_land_on_their_cells() {
        let mut picture = Scene::new(2, 3);
        picture.set_ground((0, 2), Ground::Wall);
        picture.set_ground((1, 2), Ground::Shaded);
        picture.trails.push(Trail { cells: vec![(0, 0), (0, 1), (1, 1), (1, 0)], tint: Tint::Route(0), closed: false });
        picture.caption.push("a <caption> & more".to_string());
        let mut out = Vec::new();
        write(&picture, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("a &lt;caption&gt; &amp; more"), "text is escaped");
        assert_eq!(pixel_at(&text, (0, 2)), rgb(WALL));
        assert_eq!(pixel_at(&text, (1, 2)), rgb(SHADE));
        for cell in [(0, 0), (0, 1), (1, 1), (1, 0)] {
            assert_eq!(pixel_at(&text, cell), rgb(ROUTES[0]), "{cell:?}");
        }
    }

    #[test]
    fn runs_merge_cells_of_one_ground() {
        let mut picture = Scene::new(1, 5);
        for col in 1..4 {
            picture.set_ground((0, col), Ground::Wall);
        }
        let runs: Vec<_> = picture.ground_runs().collect();
        assert_eq!(runs, vec![(0, 0, 1, Ground::Floor), (0, 1, 3, Ground::Wall), (0, 4, 1, Ground::Floor)]);
    }
}

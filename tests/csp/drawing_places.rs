//! The places of cells and lines in an SVG picture: every cell carries its
//! `data-row` and `data-col` (0-based), every line a player draws its
//! `data-edge`, in every state, as the play page's DOM contract needs; and
//! each place stands where the picture draws its cell or line, read in
//! pixels against the answer.

use somaria::draw::svg::{CELL_PX, ROUTES};

use crate::common;
use crate::drawing_layers::{known_bools, masyu, near, origin_of, svg_of};

use common::cli::{run_json, somaria};
use common::pixels::{Rendered, rgb};

/// One unseen place: what it names, and its box in cells.
struct Place {
    /// `(row, col)` for a cell.
    cell: Option<(usize, usize)>,
    /// `kind row col along` for a line.
    edge: Option<String>,
    x: f64,
    y: f64,
    width: f64,
    height: f64,
}

impl Place {
    fn middle(&self) -> (f64, f64) {
        (self.x + self.width / 2.0, self.y + self.height / 2.0)
    }
}

/// The value of `name` in one element's text.
fn attribute<'t>(element: &'t str, name: &str) -> Option<&'t str> {
    let key = format!(" {name}=\"");
    let at = element.find(&key)? + key.len();
    Some(&element[at..at + element[at..].find('"')?])
}

/// Every element of `svg` that carries a cell's or a line's name.
fn places(svg: &str) -> Vec<Place> {
    let number = |e: &str, name: &str| attribute(e, name).unwrap().parse::<f64>().unwrap();
    svg.lines()
        .filter(|l| l.starts_with("<rect data-"))
        .map(|e| Place {
            cell: attribute(e, "data-row")
                .map(|r| (r.parse().unwrap(), attribute(e, "data-col").unwrap().parse().unwrap())),
            edge: attribute(e, "data-edge").map(str::to_string),
            x: number(e, "x"),
            y: number(e, "y"),
            width: number(e, "width"),
            height: number(e, "height"),
        })
        .collect()
}

/// Every cell of a `rows` × `cols` grid, each once, in its own unit box.
fn assert_cells(places: &[Place], rows: usize, cols: usize, what: &str) {
    let cells: Vec<&Place> = places.iter().filter(|p| p.cell.is_some()).collect();
    let every: Vec<(usize, usize)> = (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))).collect();
    assert_eq!(cells.iter().map(|p| p.cell.unwrap()).collect::<Vec<_>>(), every, "{what}");
    for p in cells {
        let (r, c) = p.cell.unwrap();
        assert_eq!((p.x, p.y, p.width, p.height), (c as f64, r as f64, 1.0, 1.0), "{what}: cell {r}, {c}");
    }
}

/// A line by name: `(row, col, across)`.
type LineName = (usize, usize, bool);

/// The line places of `kind` (`side` or `step`): by name, with their
/// middles.
fn lines(places: &[Place], kind: &str) -> Vec<(LineName, (f64, f64))> {
    places
        .iter()
        .filter_map(|p| {
            let words: Vec<&str> = p.edge.as_deref()?.split(' ').collect();
            (words[0] == kind).then(|| {
                let (r, c) = (words[1].parse().unwrap(), words[2].parse().unwrap());
                assert!(matches!(words[3], "across" | "down"), "{:?}", p.edge);
                ((r, c, words[3] == "across"), p.middle())
            })
        })
        .collect()
}

/// The colour of the rendered picture at `(x, y)` in the grid's cells.
fn colour_at(rendered: &Rendered, origin: (f64, f64), (x, y): (f64, f64)) -> [u8; 3] {
    let px = |v: f64, o: f64| ((v + o) * CELL_PX as f64) as usize;
    rendered.pixel(px(x, origin.0), px(y, origin.1))
}

/// Every line of `across` and `down` named once as `kind`, and the
/// picture's loop colour at each place's middle exactly where the line is
/// taken (`Some(true)`).
fn assert_lines(svg: &str, kind: &str, across: &[Vec<Option<bool>>], down: &[Vec<Option<bool>>], what: &str) {
    assert_named(svg, kind, across, down, what);
    let rendered = Rendered::of(svg);
    let origin = if svg.contains("<g transform=") { origin_of(svg) } else { (0.0, 0.0) };
    for ((r, c, is_across), middle) in lines(&places(svg), kind) {
        let taken = if is_across { across[r][c] } else { down[r][c] };
        let colour = colour_at(&rendered, origin, middle);
        let loop_there = near(colour, rgb(ROUTES[0]));
        assert_eq!(
            loop_there,
            taken == Some(true),
            "{what}: {kind} {r} {c} across={is_across} at {middle:?}: {colour:?}"
        );
    }
}

/// Every line of `across` and `down` (by their shapes) named once as
/// `kind`, and no other.
fn assert_named(svg: &str, kind: &str, across: &[Vec<Option<bool>>], down: &[Vec<Option<bool>>], what: &str) {
    let found = lines(&places(svg), kind);
    let mut expected = Vec::new();
    for (grid, is_across) in [(across, true), (down, false)] {
        for (r, row) in grid.iter().enumerate() {
            expected.extend((0..row.len()).map(|c| (r, c, is_across)));
        }
    }
    let mut names: Vec<LineName> = found.iter().map(|(n, _)| *n).collect();
    names.sort_unstable();
    expected.sort_unstable();
    assert_eq!(names, expected, "{what}: every {kind} named once");
}

#[test]
fn a_slitherlinks_cells_and_sides_carry_their_places_in_every_state() {
    let path = "models/csp/slitherlink.toml";
    let (code, json) = run_json(&["solve", path]);
    assert_eq!(code, 0, "{json}");
    let (across, down) = (known_bools(&json["solution"]["across"]), known_bools(&json["solution"]["down"]));
    assert_eq!((across.len(), across[0].len(), down.len(), down[0].len()), (11, 10, 10, 11));
    let svg = svg_of(&["solve", path]);
    assert_cells(&places(&svg), 10, 10, "solve");
    assert!(lines(&places(&svg), "step").is_empty(), "a slitherlink has no steps between centres");
    assert_lines(&svg, "side", &across, &down, "solve");
    // The first step of `steps --upto 1`: most sides unknown, each still
    // has its place.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    somaria().args(["steps", path, "--next", "any", "--upto", "1", "--format", "svg", "-o", out]).assert().code(0);
    let mut steps: Vec<_> = std::fs::read_dir(out).unwrap().map(|e| e.unwrap().path()).collect();
    steps.sort();
    let svg = std::fs::read_to_string(&steps[0]).unwrap();
    let open = |rows: usize, cols: usize| vec![vec![None; cols]; rows];
    assert_named(&svg, "side", &open(11, 10), &open(10, 11), "the first step");
    assert_cells(&places(&svg), 10, 10, "the first step");
}

#[test]
fn a_masyus_steps_between_centres_carry_their_places() {
    let (_dir, path) = masyu();
    let (code, json) = run_json(&["solve", &path]);
    assert_eq!(code, 0, "{json}");
    let (across, down) = (known_bools(&json["solution"]["across"]), known_bools(&json["solution"]["down"]));
    let svg = svg_of(&["solve", &path]);
    assert_cells(&places(&svg), 6, 6, "masyu");
    assert!(lines(&places(&svg), "side").is_empty(), "a masyu draws no sides");
    assert_lines(&svg, "step", &across, &down, "masyu");
}

#[test]
fn a_grid_without_lines_has_places_for_its_cells_only() {
    for (path, rows, cols) in [("models/csp/sudoku-hardest.toml", 9, 9), ("models/csp/skyscraper.toml", 7, 7)] {
        let svg = svg_of(&["solve", path]);
        let found = places(&svg);
        assert_cells(&found, rows, cols, path);
        assert!(found.iter().all(|p| p.edge.is_none()), "{path}");
    }
}

/// The first step picture of `steps --upto 1` of `path`, and the step's
/// facts as the JSON report gives them.
fn first_step(path: &str) -> (String, Vec<serde_json::Value>) {
    let (_, json) = run_json(&["steps", path, "--next", "any", "--upto", "1"]);
    let facts = json["steps"][0]["facts"].as_array().unwrap().clone();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    somaria().args(["steps", path, "--next", "any", "--upto", "1", "--format", "svg", "-o", out]).assert().code(0);
    (std::fs::read_to_string(dir.path().join("step-001.svg")).unwrap(), facts)
}

/// The cells of a picture shaded as settled, read at their centres; a
/// cell is `w` units wide.
fn shaded_cells(svg: &str, (rows, cols, w): (usize, usize, f64)) -> Vec<(usize, usize)> {
    let rendered = Rendered::of(svg);
    let origin = if svg.contains("<g transform=") { origin_of(svg) } else { (0.0, 0.0) };
    let shade = rgb(somaria::draw::svg::SHADE);
    (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .filter(|&(r, c)| colour_at(&rendered, origin, ((c as f64 + 0.5) * w, r as f64 + 0.5)) == shade)
        .collect()
}

/// A cell drawn from an expression (`x[i] = j`) is shaded only when the
/// step decides what it draws: `x[i] ≠ i` decides cell (i, i) and leaves
/// the rest of row i open. A step that decides no cell (the zebra's
/// `colour[green] ≠ 1`) shades the cells it bears on.
#[test]
fn a_step_shades_the_cells_whose_drawing_it_decides() {
    let (svg, facts) = first_step("models/csp/circuit-test.toml");
    let mut decided: Vec<(usize, usize)> = facts
        .iter()
        .map(|f| {
            assert_eq!(f["op"], "!=", "{f}");
            let i: usize = f["var"].as_str().unwrap().trim_start_matches("x[").trim_end_matches(']').parse().unwrap();
            (i - 1, f["value"].as_u64().unwrap() as usize - 1)
        })
        .collect();
    decided.sort_unstable();
    assert_eq!(decided.len(), 6, "{facts:?}");
    assert_eq!(shaded_cells(&svg, (6, 6, 1.0)), decided);
    // The zebra's first step rules out a house for two colours: no cell of
    // the colour row is decided, so the row, which reads the colours, is
    // shaded, and nothing else.
    let (svg, facts) = first_step("models/csp/zebra.toml");
    assert!(facts.iter().all(|f| f["op"] == "!=" && f["var"].as_str().unwrap().starts_with("colour[")), "{facts:?}");
    assert_eq!(shaded_cells(&svg, (5, 5, 4.0)), (0..5).map(|c| (0, c)).collect::<Vec<_>>());
}

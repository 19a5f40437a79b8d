//! csp models drawn by their drawing tables (`[draw]`): the SVG pictures
//! rendered with resvg and read in pixels at cell centres and edge
//! midpoints against the JSON answer, the text of every shipped grid model
//! kept as a snapshot, and malformed tables refused with their place.

use serde_json::Value;
use somaria::draw::svg::{CELL_PX, FLOOR, GIVEN, INK, OUTLINE, ROUTES, SHADE, WALL};

use crate::common;

use common::cli::{assert_mentions, refused, run_json, somaria, write_model};
use common::pixels::{Rendered, rgb};

fn svg_of(args: &[&str]) -> String {
    let out = somaria().args(args).args(["--format", "svg"]).output().unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Points given in cells.
impl Rendered {
    /// At `(x, y)` in cells: column then row; a point on the picture's
    /// right or bottom side is read on its last pixel.
    fn at(&self, (x, y): (f64, f64)) -> [u8; 3] {
        let px = ((x * CELL_PX as f64) as usize).min(self.0.width() as usize - 1);
        let py = ((y * CELL_PX as f64) as usize).min(self.0.height() as usize - 1);
        self.pixel(px, py)
    }

    fn centre(&self, (row, col): (usize, usize)) -> [u8; 3] {
        self.at((col as f64 + 0.5, row as f64 + 0.5))
    }

    /// Just inside the cell's left side, where an outline is drawn.
    fn rim(&self, (row, col): (usize, usize)) -> [u8; 3] {
        self.pixel(col * CELL_PX + 2, row * CELL_PX + CELL_PX / 2)
    }

    /// How many pixels wide the line across row `y` (in pixels) near
    /// pixel column `x` is: those within 6 pixels that are neither floor
    /// nor a given's ground.
    fn line_width(&self, x: usize, y: usize) -> usize {
        let background = [rgb(FLOOR), rgb(GIVEN)];
        (x.saturating_sub(6)..=x + 6).filter(|&px| !background.contains(&self.pixel(px, y))).count()
    }
}

fn bools(json: &Value) -> Vec<Vec<bool>> {
    json.as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_array().unwrap().iter().map(|b| b.as_bool().unwrap()).collect())
        .collect()
}

fn ints(json: &Value) -> Vec<Vec<i64>> {
    json.as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect())
        .collect()
}

/// The slitherlink's clues, read from the model file's `[| .. |]` literal.
fn slitherlink_clues(path: &str) -> Vec<Vec<i64>> {
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find("clue = \"\"\"[|").unwrap() + "clue = \"\"\"[|".len();
    let end = start + text[start..].find("|]").unwrap();
    text[start..end].split('|').map(|row| row.split(',').map(|v| v.trim().parse().unwrap()).collect()).collect()
}

#[test]
fn slitherlink_clues_stand_in_their_cells_and_the_loop_runs_along_the_sides() {
    for model in ["models/csp/slitherlink.toml", "models/csp/slitherlink-20x20.toml"] {
        let rendered = Rendered::of(&svg_of(&["solve", model]));
        let (_, json) = run_json(&["solve", model]);
        let clues = slitherlink_clues(model);
        // The lattice stands a little inside the picture, its dots whole.
        let pad = somaria::draw::svg::LATTICE_PAD;
        for (r, row) in clues.iter().enumerate() {
            for (c, &clue) in row.iter().enumerate() {
                let colour = rendered.at((c as f64 + 0.5 + pad, r as f64 + 0.5 + pad));
                if clue >= 0 {
                    assert_ne!(colour, rgb(FLOOR), "{model}: clue {clue} at {:?} is not blank", (r, c));
                } else {
                    assert_eq!(colour, rgb(FLOOR), "{model}: no clue at {:?}", (r, c));
                }
            }
        }
        let (across, down) = (bools(&json["solution"]["across"]), bools(&json["solution"]["down"]));
        let mut on = 0;
        for (i, row) in across.iter().enumerate() {
            for (j, &step) in row.iter().enumerate() {
                let colour = rendered.at((j as f64 + 0.5 + pad, i as f64 + pad));
                assert_eq!(colour == rgb(ROUTES[0]), step, "{model}: the side across from corner {:?}", (i, j));
                on += usize::from(step);
            }
        }
        for (i, row) in down.iter().enumerate() {
            for (j, &step) in row.iter().enumerate() {
                let colour = rendered.at((j as f64 + pad, i as f64 + 0.5 + pad));
                assert_eq!(colour == rgb(ROUTES[0]), step, "{model}: the side down from corner {:?}", (i, j));
                on += usize::from(step);
            }
        }
        assert!(on >= 4, "{model}: a loop");
    }
}

#[test]
fn nurikabe_sea_is_shaded_and_islands_are_not() {
    let model = "models/csp/nurikabe.toml";
    let rendered = Rendered::of(&svg_of(&["solve", model]));
    let (_, json) = run_json(&["solve", model]);
    let island = ints(&json["solution"]["island"]);
    let mut sea = 0;
    for (r, row) in island.iter().enumerate() {
        for (c, &k) in row.iter().enumerate() {
            let colour = rendered.centre((r, c));
            if k == 0 {
                assert_eq!(colour, rgb(INK), "sea at {:?}", (r, c));
                sea += 1;
            } else {
                assert!([rgb(FLOOR), rgb(GIVEN)].contains(&colour), "island {k} at {:?}: {colour:?}", (r, c));
            }
        }
    }
    assert!(sea > 0 && sea < 100);
}

#[test]
fn sudoku_box_borders_are_thicker_than_cell_borders() {
    for model in ["models/csp/sudoku-17.toml", "models/csp/sudoku-hardest.toml"] {
        let rendered = Rendered::of(&svg_of(&["solve", model]));
        for row in 0..9 {
            // A third of the way down the cell, clear of a label's glyph.
            let y = row * CELL_PX + CELL_PX / 3;
            for col in 1..9 {
                let width = rendered.line_width(col * CELL_PX, y);
                if col % 3 == 0 {
                    assert!(width >= 2, "{model}: the box border left of {:?} is {width} px", (row, col));
                } else {
                    let box_border = rendered.line_width(3 * CELL_PX, y);
                    assert!(width < box_border, "{model}: the cell border left of {:?}: {width} px", (row, col));
                }
            }
        }
    }
}

#[test]
fn each_queen_stands_on_her_square() {
    let model = "models/csp/queens.toml";
    let rendered = Rendered::of(&svg_of(&["solve", model]));
    let (_, json) = run_json(&["solve", model]);
    let q: Vec<usize> =
        json["solution"]["q"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
    assert_eq!(q.len(), 8);
    for (i, &column) in q.iter().enumerate() {
        for c in 0..8 {
            let colour = rendered.centre((i, c));
            if c + 1 == column {
                assert_eq!(colour, rgb(INK), "the queen of row {i}");
            } else {
                assert_eq!(colour, rgb(FLOOR), "no queen at {:?}", (i, c));
            }
        }
    }
}

#[test]
fn the_route_and_the_tile_left_are_drawn_where_the_answer_has_them() {
    let model = "models/csp/heros-cave-somaria.toml";
    let rendered = Rendered::of(&svg_of(&["solve", model]));
    let (_, json) = run_json(&["solve", model]);
    let walked = bools(&json["solution"]["walked"]);
    let route = json["solution"]["grid_path"][0]["cells"].as_array().unwrap();
    for cell in route {
        let (r, c) = (cell[0].as_u64().unwrap() as usize - 1, cell[1].as_u64().unwrap() as usize - 1);
        assert_eq!(rendered.centre((r, c)), rgb(ROUTES[0]), "the route on {:?}", (r, c));
    }
    for (r, row) in walked.iter().enumerate() {
        for (c, &on) in row.iter().enumerate() {
            let colour = rendered.centre((r, c));
            if !on {
                assert!([rgb(WALL), rgb(SHADE)].contains(&colour), "a statue or the tile left at {:?}", (r, c));
            }
        }
    }
    // The facts shade the tiles that some walk leaves, and only those.
    let rendered = Rendered::of(&svg_of(&["facts", model]));
    let (_, facts) = run_json(&["facts", model]);
    let sets = facts["values"]["walked"].as_array().unwrap();
    let mut varying = 0;
    for (r, row) in sets.iter().enumerate() {
        for (c, set) in row.as_array().unwrap().iter().enumerate() {
            let several = set.as_array().unwrap().len() > 1;
            assert_eq!(rendered.centre((r, c)) == rgb(SHADE), several, "{:?}", (r, c));
            varying += usize::from(several);
        }
    }
    assert_eq!(varying, 56, "the tiles the family lists");
}

#[test]
fn an_explanation_outlines_the_cells_its_constraints_read() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("models/csp/queens.toml").unwrap().replace("n = 8", "n = 3");
    let path = write_model(dir.path(), "queens3.toml", text);
    let path = path.to_str().unwrap();
    let rendered = Rendered::of(&svg_of(&["explain", path]));
    let (code, json) = run_json(&["explain", path]);
    assert_eq!(code, 1);
    let names: Vec<&str> =
        json["constraints"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    // The rows each named constraint reads (a queen's row is her variable).
    let mut rows = std::collections::BTreeSet::new();
    for name in &names {
        if name.starts_with("one queen per column") {
            rows.extend(0..3);
        }
        for (i, j) in [(1, 2), (1, 3), (2, 3)] {
            if name.contains(&format!("(i = {i}, j = {j})")) {
                rows.extend([i - 1, j - 1]);
            }
        }
    }
    for r in 0..3 {
        for c in 0..3 {
            assert_eq!(rendered.rim((r, c)) == rgb(OUTLINE), rows.contains(&r), "{names:?}: {:?}", (r, c));
        }
    }
}

/// The text report of `args`, without its last line (sizes and times).
fn text_of(args: &[&str]) -> String {
    let out = somaria().args(args).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    lines[..lines.len() - 1].join("\n") + "\n"
}

#[test]
fn every_shipped_grid_model_draws_as_text() {
    let models = [
        "akh-vaquot",
        "heros-cave-somaria",
        "latin-square",
        "magic-square",
        "numberlink",
        "numberlink-20x20",
        "nurikabe",
        "queens",
        "slitherlink",
        "slitherlink-20x20",
        "sudoku-17",
        "sudoku-hardest",
    ];
    for name in models {
        let path = format!("models/csp/{name}.toml");
        insta::assert_snapshot!(format!("solve_{name}"), text_of(&["solve", &path]));
    }
    insta::assert_snapshot!("facts_magic-square", text_of(&["facts", "models/csp/magic-square.toml"]));
    insta::assert_snapshot!("facts_akh-vaquot", text_of(&["facts", "models/csp/akh-vaquot.toml"]));
    insta::assert_snapshot!("solve_slitherlink_ascii", text_of(&["solve", "models/csp/slitherlink.toml", "--ascii"]));
}

#[test]
fn a_model_without_a_table_draws_as_before() {
    // Every shipped model has a table now: the zebra without its own.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("models/csp/zebra.toml").unwrap();
    let plain = dir.path().join("zebra.toml");
    std::fs::write(&plain, text.split_once("\n# How to draw it").unwrap().0).unwrap();
    let out = somaria().args(["solve", plain.to_str().unwrap()]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("nation = [english: 3"), "{text}");
    assert!(!text.contains('┃') && !text.contains('·'), "{text}");
}

const GRID_MODEL: &str = r#"kind = "csp"
[params]
clue = [[1, 0], [0, 2]]
[vars]
x = { index = ["1..2", "1..2"], domain = "0..3" }
b = { index = ["1..2", "1..2"], domain = "bool" }
[[constraint]]
expr = 'forall(i, j in 1..2)(b[i, j] <-> x[i, j] > 0)'
[draw]
rows = 2
cols = 2
[[draw.layer]]
"#;

/// The line and column (from 1) where `needle` starts in `text`.
fn place(text: &str, needle: &str) -> String {
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle:?} in {text}"));
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
    format!("bad.toml:{line}:{column}:")
}

#[test]
fn a_layer_naming_an_unknown_array_is_refused_at_the_name() {
    let text = format!("{GRID_MODEL}text = \"clues\"\n");
    let e = refused(&text);
    assert_mentions(&e, &[&place(&text, "clues\""), "unknown name `clues`", "did you mean `clue`?"]);
    let text = format!("{GRID_MODEL}edges = [\"across\", \"b\"]\n");
    let e = refused(&text);
    assert_mentions(&e, &[&place(&text, "across\""), "unknown name `across`"]);
}

#[test]
fn a_layer_whose_shape_is_not_the_grids_is_refused() {
    let text = format!("{GRID_MODEL}text = \"array2d(1..2, 1..3, [0 | i in 1..2, j in 1..3])\"\n");
    let e = refused(&text);
    assert_mentions(&e, &[&place(&text, "array2d"), "an array of 2 × 3", "2 × 2, to match the grid's 2 rows"]);
    // Steps along the sides have one row or one column more than the cells.
    let text = format!("{GRID_MODEL}edges = [\"b\", \"b\"]\n");
    let e = refused(&text);
    assert_mentions(&e, &[&place(&text, "b\", "), "an array of 2 × 2", "3 × 2"]);
    let text = format!("{GRID_MODEL}shade = \"b[1, 1]\"\n");
    let e = refused(&text);
    assert_mentions(&e, &[&place(&text, "b[1, 1]"), "var bool", "a 2-D array of 2 × 2"]);
    let text = GRID_MODEL.replace("cols = 2", "cols = 3") + "text = \"clue\"\n";
    let e = refused(&text);
    assert_mentions(&e, &[&place(&text, "clue\"\n"), "2 × 2", "2 × 3"]);
}

#[test]
fn a_text_layer_over_booleans_is_refused() {
    let text = format!("{GRID_MODEL}text = \"b\"\n");
    let e = refused(&text);
    assert_mentions(&e, &[&place(&text, "b\"\n"), "a `text` layer over \"b\"", "array[int, int] of var bool", "shade"]);
    let text = format!("{GRID_MODEL}mark = \"x\"\n");
    let e = refused(&text);
    assert_mentions(&e, &[&place(&text, "x\"\n"), "a `mark` layer", "a Boolean array"]);
}

#[test]
fn layers_of_no_kind_two_kinds_or_stray_options_are_refused() {
    let text = format!("{GRID_MODEL}blank = 0\n");
    assert_mentions(&refused(&text), &[&place(&text, "0\n"), "a layer of no kind"]);
    let text = format!("{GRID_MODEL}text = \"clue\"\nshade = \"b\"\n");
    assert_mentions(&refused(&text), &[&place(&text, "\"b\""), "a second kind, `shade`"]);
    let text = format!("{GRID_MODEL}shade = \"b\"\nblank = 0\n");
    assert_mentions(&refused(&text), &[&place(&text, "0\n"), "`blank` in a `shade` layer"]);
    let text = format!("{GRID_MODEL}text = \"clue\"\ncolour = \"reddish\"\n");
    assert_mentions(&refused(&text), &[&place(&text, "\"reddish\""), "not a colour"]);
    let text = format!("{GRID_MODEL}lines = \"grid_path\"\n");
    assert_mentions(&refused(&text), &[&place(&text, "\"grid_path\""), "without `grid_path`"]);
    let text = GRID_MODEL.replace("rows = 2", "rows = 0") + "text = \"clue\"\n";
    assert_mentions(&refused(&text), &[&place(&text, "0\ncols"), "rows from 1"]);
}

/// The Latin square of order 3, in a directory of its own; with the
/// entries [`LATIN_ENTRIES`] it has one solution.
fn latin3() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("models/csp/latin-square.toml").unwrap().replace("n = 4", "n = 3");
    let path = write_model(dir.path(), "latin3.toml", text).to_str().unwrap().to_string();
    (dir, path)
}

const LATIN_ENTRIES: [&str; 6] = ["--given", "square[1,1]=1", "--given", "square[1,2]=2", "--given", "square[2,1]=2"];

/// The cell of a fact about `square[i,j]`, from 0.
fn fact_cell(fact: &Value) -> (usize, usize) {
    let var = fact["var"].as_str().unwrap();
    let inside = var.strip_prefix("square[").and_then(|v| v.strip_suffix(']')).unwrap();
    let (i, j) = inside.split_once(',').unwrap();
    (i.trim().parse::<usize>().unwrap() - 1, j.trim().parse::<usize>().unwrap() - 1)
}

/// The cells a Latin square's constraint instance reads: its row or its
/// column, by the instance's name.
fn rule_cells(rule: &Value, n: usize) -> Vec<(usize, usize)> {
    let name = rule["name"].as_str().unwrap();
    let index = |key: &str| {
        let at = name.find(key)? + key.len();
        name[at..].split(')').next()?.trim().parse::<usize>().ok()
    };
    match (index("(i = "), index("(j = ")) {
        (Some(i), None) => (0..n).map(|c| (i - 1, c)).collect(),
        (None, Some(j)) => (0..n).map(|r| (r, j - 1)).collect(),
        _ => panic!("a row or a column: {name}"),
    }
}

/// Checks a picture of `step` on a 3 × 3 grid: its facts' cells shaded
/// and no other, and with `outlined` the cells its constraints read
/// outlined and no other.
fn assert_step_drawn(rendered: &Rendered, step: &Value, outlined: bool) {
    let settled: Vec<(usize, usize)> = step["facts"].as_array().unwrap().iter().map(fact_cell).collect();
    let read: Vec<(usize, usize)> = step["because"].as_array().unwrap().iter().flat_map(|r| rule_cells(r, 3)).collect();
    assert!(!settled.is_empty() && !read.is_empty(), "{step}");
    for r in 0..3 {
        for c in 0..3 {
            // A quarter of the way into the cell: clear of its label and of an outline.
            let ground = rendered.at((c as f64 + 0.25, r as f64 + 0.25));
            assert_eq!(ground == rgb(SHADE), settled.contains(&(r, c)), "shaded {:?} in {step}", (r, c));
            let rim = rendered.rim((r, c)) == rgb(OUTLINE);
            assert_eq!(rim, outlined && read.contains(&(r, c)), "outlined {:?} in {step}", (r, c));
        }
    }
}

#[test]
fn a_hint_picture_shades_what_the_step_settles_and_outlines_what_its_constraints_read() {
    let (_dir, path) = latin3();
    let mut args = vec!["hint", path.as_str(), "--next", "any", "--reveal", "why"];
    args.extend(LATIN_ENTRIES);
    let (code, json) = run_json(&args);
    assert_eq!(code, 0, "{json}");
    let step = &json["step"];
    assert_step_drawn(&Rendered::of(&svg_of(&args)), step, true);
    // `where` gives away only where to look: no outlines.
    args[5] = "where";
    assert_step_drawn(&Rendered::of(&svg_of(&args)), step, false);
    // The text report draws the same state: the entries made, the step's
    // cells marked, the cells its constraints read in brackets.
    args[5] = "why";
    insta::assert_snapshot!("hint_latin3_why", text_of(&args));
}

#[test]
fn steps_pictures_draw_each_step_on_the_state_before_it() {
    let (dir, path) = latin3();
    let mut args = vec!["steps", path.as_str(), "--next", "any"];
    args.extend(LATIN_ENTRIES);
    let (code, json) = run_json(&args);
    assert_eq!((code, json["status"].as_str()), (0, Some("solved")), "{json}");
    let steps = json["steps"].as_array().unwrap();
    let out = dir.path().join("pictures");
    let status = somaria().args(&args).args(["--format", "svg", "-o"]).arg(&out).output().unwrap().status;
    assert!(status.success());
    let mut files: Vec<_> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name()).collect();
    files.sort();
    assert_eq!(files.len(), steps.len());
    // The entries, then each step's facts: what each picture has written in.
    let mut known: usize = 3;
    for (k, step) in steps.iter().enumerate() {
        let svg = std::fs::read_to_string(out.join(format!("step-{:03}.svg", k + 1))).unwrap();
        assert_step_drawn(&Rendered::of(&svg), step, true);
        let settled: usize = step["facts"].as_array().unwrap().iter().filter(|f| f["op"] == "=").count();
        // Cell labels stand in groups (`<text x=`); caption lines carry their own style.
        assert_eq!(svg.matches("<text x=").count(), known + settled, "step {}: the values known and new", k + 1);
        known += settled;
    }
    assert_eq!(known, 9, "every cell ends filled in");
}

#[test]
fn an_explanation_in_text_brackets_the_cells_its_constraints_read() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("models/csp/queens.toml").unwrap().replace("n = 8", "n = 3");
    let path = write_model(dir.path(), "queens3.toml", text);
    let text = text_of(&["explain", path.to_str().unwrap()]);
    assert!(text.contains('[') && text.contains("the cells these constraints read"), "{text}");
    insta::assert_snapshot!("explain_queens3", text);
}

#[test]
fn heros_cave_without_the_cane_draws_its_room_and_says_why_it_has_no_solution() {
    let model = "models/csp/heros-cave.toml";
    insta::assert_snapshot!("solve_heros-cave", text_of(&["solve", model]));
    insta::assert_snapshot!("explain_heros-cave", text_of(&["explain", model]));
    insta::assert_snapshot!("facts_heros-cave", text_of(&["facts", model]));
}

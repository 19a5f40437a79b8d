//! `--format svg` draws every answer, fact and explanation. Each picture is
//! parsed and rendered with resvg, and the pixels at known cell centres must
//! have the colours of what stands there: the route on every covered tile,
//! walls on walls, shading on tiles left or leavable, outlines on the tiles
//! an explanation names. The shrine's SVG text is also kept as a golden file.

use serde_json::Value;
use somaria::draw::svg::{CELL_PX, FLOOR, GOAL, INK, OUTLINE, ROUTES, SHADE, WALL};

use crate::common;

use common::cli::{run_json, somaria};
use common::models::grid_of;
use common::pixels::{Rendered, rgb};
use common::reports::cells;

fn svg_of(args: &[&str]) -> String {
    let out = somaria().args(args).args(["--format", "svg"]).output().unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Cell centres and cell edges.
impl Rendered {
    fn centre(&self, (row, col): (usize, usize)) -> [u8; 3] {
        self.pixel(col * CELL_PX + CELL_PX / 2, row * CELL_PX + CELL_PX / 2)
    }

    /// Just inside the cell's top-left corner, where an outline is drawn.
    fn rim(&self, (row, col): (usize, usize)) -> [u8; 3] {
        self.pixel(col * CELL_PX + 2, row * CELL_PX + CELL_PX / 2)
    }
}

#[test]
fn the_somaria_route_covers_its_tiles_and_shades_the_one_left() {
    let model = "models/heros-cave-somaria.toml";
    let rendered = Rendered::of(&svg_of(&["solve", model]));
    let (_, json) = run_json(&["solve", model]);
    let path = cells(&json["solution"]["path"]);
    let left = cells(&json["solution"]["uncovered"]);
    assert_eq!((path.len(), left.len()), (110, 1));
    for &tile in &path {
        assert_eq!(rendered.centre(tile), rgb(ROUTES[0]), "route on {tile:?}");
    }
    for &tile in &left {
        assert_eq!(rendered.centre(tile), rgb(SHADE), "shading on {tile:?}");
    }
    for (row, line) in grid_of(model).iter().enumerate() {
        for (col, &c) in line.iter().enumerate() {
            if c == '#' {
                assert_eq!(rendered.centre((row, col)), rgb(WALL), "wall at {:?}", (row, col));
            }
        }
    }
}

#[test]
fn the_facts_shade_exactly_the_tiles_that_can_be_left() {
    let model = "models/heros-cave-somaria.toml";
    let rendered = Rendered::of(&svg_of(&["facts", model]));
    let (_, json) = run_json(&["facts", model]);
    let (left, always) = (cells(&json["can_be_left"]), cells(&json["always_covered"]));
    assert_eq!(left.len(), 56);
    for &tile in &left {
        assert_eq!(rendered.centre(tile), rgb(SHADE), "{tile:?}");
    }
    for &tile in &always {
        assert_eq!(rendered.centre(tile), rgb(FLOOR), "{tile:?}");
    }
}

#[test]
fn the_explanation_outlines_the_tiles_it_names() {
    let model = "models/heros-cave.toml";
    let rendered = Rendered::of(&svg_of(&["explain", model]));
    let (_, json) = run_json(&["explain", model]);
    let named: Vec<(usize, usize)> = json["constraints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["row"].as_u64().unwrap() as usize, c["col"].as_u64().unwrap() as usize))
        .collect();
    assert_eq!(named.len(), 56);
    for (row, line) in grid_of(model).iter().enumerate() {
        for (col, &c) in line.iter().enumerate() {
            let expected = if named.contains(&(row, col)) {
                OUTLINE
            } else if c == '#' {
                WALL
            } else {
                FLOOR
            };
            assert_eq!(rendered.rim((row, col)), rgb(expected), "{:?} ({c})", (row, col));
        }
    }
}

#[test]
fn the_shrine_shows_walls_weathercocks_and_turned_fans() {
    let model = "models/akh-vaquot.toml";
    let rendered = Rendered::of(&svg_of(&["solve", model]));
    for (row, line) in grid_of(model).iter().enumerate() {
        for (col, &c) in line.iter().enumerate() {
            let expected = match c {
                '#' => WALL,
                'W' => GOAL,
                'F' => INK,
                _ => continue,
            };
            assert_eq!(rendered.centre((row, col)), rgb(expected), "{:?} ({c})", (row, col));
        }
    }
}

#[test]
fn each_walker_is_drawn_in_its_own_colour() {
    let model = "models/keys-doors/two-walkers.toml";
    let rendered = Rendered::of(&svg_of(&["solve", model]));
    let (_, json) = run_json(&["solve", model]);
    let walkers = json["solution"]["walkers"].as_array().unwrap();
    assert_eq!(walkers.len(), 2);
    let paths: Vec<Vec<(usize, usize)>> = walkers.iter().map(|w| cells(&w["path"])).collect();
    for (i, path) in paths.iter().enumerate() {
        for &cell in path.iter().filter(|c| !paths[1 - i].contains(c)) {
            assert_eq!(rendered.centre(cell), rgb(ROUTES[i]), "walker {i} at {cell:?}");
        }
    }
    for (row, line) in grid_of(model).iter().enumerate() {
        for (col, &c) in line.iter().enumerate() {
            if c == '#' {
                assert_eq!(rendered.centre((row, col)), rgb(WALL), "{:?}", (row, col));
            }
        }
    }
}

/// A csp model's 2-D array is drawn as a grid: `facts` shades the cells that
/// can take more than one value, and only those.
#[test]
fn csp_facts_shade_the_cells_that_vary() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("latin.toml");
    let text = "kind = \"csp\"\n[vars]\nx = { index = [\"1..2\", \"1..3\"], domain = \"1..3\" }\n\
        [[constraint]]\nexpr = 'forall(i in 1..2)(alldifferent([x[i, j] | j in 1..3]))'\n\
        [[constraint]]\nexpr = 'x[1, 1] = 1 /\\ x[2, 1] = 2 /\\ x[2, 2] = 1'\n";
    std::fs::write(&model, text).unwrap();
    let path = model.to_str().unwrap();
    let rendered = Rendered::of(&svg_of(&["facts", path]));
    let (_, json) = run_json(&["facts", path]);
    let sets = json["values"]["x"].as_array().unwrap();
    for (r, row) in sets.iter().enumerate() {
        for (c, options) in row.as_array().unwrap().iter().enumerate() {
            let expected = if options.as_array().unwrap().len() > 1 { SHADE } else { FLOOR };
            assert_eq!(rendered.centre((r + 1, c)), rgb(expected), "{:?}: {options}", (r, c));
        }
    }
    assert!(sets[0][1].as_array().unwrap().len() > 1, "x[1, 2] can be 2 or 3");
    Rendered::of(&svg_of(&["solve", path]));
}

#[test]
fn the_shrine_svg_is_unchanged() {
    insta::assert_snapshot!(svg_of(&["solve", "models/akh-vaquot.toml"]));
}

/// The pictures in the book (docs/src/pictures) are what the tool draws today.
#[test]
fn the_book_pictures_are_current() {
    let pictures: [(&str, &[&str]); 9] = [
        ("docs/src/pictures/shrine.svg", &["solve", "models/akh-vaquot.toml"]),
        ("docs/src/pictures/heros-cave-explain.svg", &["explain", "models/heros-cave.toml"]),
        ("docs/src/pictures/somaria-facts.svg", &["facts", "models/heros-cave-somaria.toml"]),
        ("docs/src/pictures/slitherlink.svg", &["solve", "models/csp/slitherlink.toml"]),
        ("docs/src/pictures/nurikabe.svg", &["solve", "models/csp/nurikabe.toml"]),
        ("docs/src/pictures/sudoku-hardest.svg", &["solve", "models/csp/sudoku-hardest.toml"]),
        ("docs/src/pictures/shrine-hint.svg", &["hint", "models/akh-vaquot.toml", "--reveal", "why"]),
        ("docs/src/pictures/slitherlink-hint.svg", &["hint", "models/csp/slitherlink.toml", "--reveal", "what"]),
        ("docs/src/pictures/heyawake.svg", &["solve", "https://puzz.link/p?heyawake/6/6/lll155007rs12222j"]),
    ];
    for (file, args) in pictures {
        let current = svg_of(args);
        let shipped = std::fs::read_to_string(file).unwrap_or_default();
        assert!(
            shipped == current,
            "{file} is out of date; regenerate it with `cargo run --release -- {} --format svg -o {file}`",
            args.join(" ")
        );
    }
}

#[test]
fn commands_without_a_picture_refuse_svg() {
    for command in ["count", "compare"] {
        somaria().args([command, "models/akh-vaquot.toml", "--format", "svg"]).assert().code(2);
    }
    somaria().args(["solve", "models/akh-vaquot-listed.toml", "--format", "svg"]).assert().code(2);
}

/// The cells of a csp solution's first route of `global`, by the array's
/// own indices less `base`.
fn route_of(json: &Value, global: &str, base: usize) -> Vec<(usize, usize)> {
    cells(&json["solution"][global][0]["cells"]).into_iter().map(|(r, c)| (r - base, c - base)).collect()
}

/// A shipped csp model with its drawing table left out, written into `dir`.
fn without_table(dir: &std::path::Path, model: &str) -> String {
    let text = std::fs::read_to_string(model).unwrap();
    let (plain, _) = text.split_once("\n[draw]").unwrap();
    let path = dir.join(std::path::Path::new(model).file_name().unwrap());
    std::fs::write(&path, plain).unwrap();
    path.to_str().unwrap().to_string()
}

/// Without a drawing table a csp model draws its shown arrays and its
/// routes on grids of their own (`tests/csp/csp_drawing.rs` has the tables).
#[test]
fn csp_paths_and_loops_are_drawn_under_the_shown_arrays() {
    // Hero's Cave with the cane: `walked` (9 rows) under its heading, then
    // the path's grid under its own; the array counts from 1.
    let dir = tempfile::tempdir().unwrap();
    let model = &without_table(dir.path(), "models/csp/heros-cave-somaria.toml");
    let rendered = Rendered::of(&svg_of(&["solve", model]));
    let (_, json) = run_json(&["solve", model]);
    let path = route_of(&json, "grid_path", 1);
    // The start and all 111 tiles but one.
    assert_eq!(path.len(), 111);
    for &(r, c) in &path {
        assert_eq!(rendered.centre((11 + r, c)), rgb(ROUTES[0]), "path on {:?}", (r, c));
    }
    let walls = grid_of("models/heros-cave.toml");
    for (r, line) in walls.iter().enumerate() {
        for (c, &ch) in line.iter().enumerate() {
            if ch == '#' || !path.contains(&(r, c)) {
                assert_ne!(rendered.centre((11 + r, c)), rgb(ROUTES[0]), "no path on {:?}", (r, c));
            }
        }
    }
    // The 10 x 10 slitherlink: `across` (11 rows) and `down` (10), each
    // under its heading, then the loop over the 11 x 11 corners from 0
    // under its own.
    let model = &without_table(dir.path(), "models/csp/slitherlink.toml");
    let rendered = Rendered::of(&svg_of(&["solve", model]));
    let (_, json) = run_json(&["solve", model]);
    let lattice = route_of(&json, "grid_loop", 0);
    assert!(lattice.len() >= 4);
    for r in 0..11 {
        for c in 0..11 {
            let colour = rendered.centre((24 + r, c));
            assert_eq!(colour == rgb(ROUTES[0]), lattice.contains(&(r, c)), "corner {:?}", (r, c));
        }
    }
}

#[test]
fn two_paths_in_one_constraint_are_each_drawn_where_they_run() {
    // Both globals share the constraint's name and line; each must still
    // be drawn with its own cells, in its own colour.
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("two.toml");
    std::fs::write(
        &model,
        "kind = \"csp\"\nshow = []\n[vars]\na = { index = [\"1..2\", \"1..3\"], domain = \"bool\" }\n\
         b = { index = [\"1..2\", \"1..3\"], domain = \"bool\" }\n[[constraint]]\n\
         expr = 'grid_path(a, 1, 1, 1, 3) /\\ grid_path(b, 2, 1, 2, 3) /\\ not a[2, 2] /\\ not b[1, 2]'\n",
    )
    .unwrap();
    let model = model.to_str().unwrap();
    let rendered = Rendered::of(&svg_of(&["solve", model]));
    // No arrays shown: the two paths share the one grid of their shape,
    // under its heading.
    for c in 0..3 {
        assert_eq!(rendered.centre((1, c)), rgb(ROUTES[0]), "a along row 1, column {}", c + 1);
        assert_eq!(rendered.centre((2, c)), rgb(ROUTES[1]), "b along row 2, column {}", c + 1);
    }
}

/// A model with no solution: two constraints on two scalars that cannot
/// both hold, and nothing to draw but a caption.
const NO_SOLUTION: &str = "kind = \"csp\"\n[vars]\nx = \"1..3\"\ny = \"1..3\"\n\
    [[constraint]]\nname = \"bigger\"\nexpr = \"x > y\"\n[[constraint]]\nname = \"smaller\"\nexpr = \"x < y\"\n";

/// Two scalars and nothing to draw; one step fixes both.
const SCALARS: &str = "kind = \"csp\"\n[vars]\nx = \"1..3\"\ny = \"1..3\"\n\
    [[constraint]]\nexpr = \"x + y = 5\"\n[[constraint]]\nexpr = \"x > y\"\n";

/// The outlines of a picture, as their `<rect ... x= y=` text.
fn outlines(svg: &str) -> Vec<&str> {
    svg.lines().filter(|l| l.contains(&format!("stroke=\"{OUTLINE}\""))).collect()
}

/// `hint --format svg` draws a picture whether or not there is a step:
/// with no solution, the constraints that cannot all hold, as `explain`
/// draws them (exit 1); from a solved state, the state and why there is no
/// step (exit 0). It was a usage error that said only solve, facts and
/// explain draw pictures, as `--help` did.
#[test]
fn hint_draws_a_picture_when_there_is_no_step() {
    let dir = tempfile::tempdir().unwrap();
    let model = common::cli::write_model(dir.path(), "none.toml", NO_SOLUTION);
    let model = model.to_str().unwrap();
    let out = somaria().args(["hint", model, "--format", "svg"]).assert().code(1);
    let hint = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert_eq!(hint, svg_of(&["explain", model]), "drawn as explain draws it");
    assert!(hint.contains("cannot all hold: bigger") && hint.contains("cannot all hold: smaller"), "{hint}");
    Rendered::of(&hint);
    // A room with no route: the tiles of explain's constraints outlined.
    let hint = svg_of(&["hint", "models/heros-cave.toml"]);
    let explained = svg_of(&["explain", "models/heros-cave.toml"]);
    assert!(!outlines(&hint).is_empty());
    assert_eq!(outlines(&hint), outlines(&explained));
    // Entries that clash with the model: their constraints, and the entries.
    let scalars = common::cli::write_model(dir.path(), "scalars.toml", SCALARS);
    let scalars = scalars.to_str().unwrap();
    let out = somaria().args(["hint", scalars, "--given", "x=1", "--format", "svg"]).assert().code(1);
    let clash = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(clash.contains("cannot all hold") && clash.contains("with the entries x=1"), "{clash}");
    // Nothing left to deduce.
    let out = somaria().args(["hint", scalars, "--given", "x=3", "--given", "y=2", "--format", "svg"]).assert().code(0);
    let solved = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(solved.contains("solved: every value is fixed"), "{solved}");
    let help = String::from_utf8_lossy(&somaria().args(["hint", "--help"]).output().unwrap().stdout).to_string();
    assert!(help.contains("an SVG picture (for solve, facts, explain and hint"), "{help}");
}

/// A hint on a model that draws nothing is its caption alone: no grid of
/// 0 × 0 cells, and no legend of shaded or outlined cells that are not
/// there.
#[test]
fn a_picture_with_nothing_to_draw_has_no_grid_and_no_legend_of_cells() {
    let dir = tempfile::tempdir().unwrap();
    let model = common::cli::write_model(dir.path(), "scalars.toml", SCALARS);
    for reveal in ["where", "why", "what"] {
        let svg = svg_of(&["hint", model.to_str().unwrap(), "--reveal", reveal]);
        assert!(!svg.contains("<line") && !svg.contains("height=\"0\""), "{reveal}: {svg}");
        assert!(!svg.contains("shaded") && !svg.contains("outlined"), "{reveal}: {svg}");
        assert!(svg.contains(if reveal == "where" { "look at: x; y" } else { "x" }), "{reveal}: {svg}");
        Rendered::of(&svg);
    }
}

/// The numbers of a picture that have more than three decimals, such as
/// `2.6000000000000005`.
fn long_decimals(svg: &str) -> Vec<String> {
    let bytes = svg.as_bytes();
    let mut found = Vec::new();
    for (at, _) in svg.match_indices('.') {
        let before = bytes[..at].iter().rev().take_while(|b| b.is_ascii_digit()).count();
        let after = bytes[at + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if before > 0 && after > 3 {
            found.push(svg[at - before..at + 1 + after].to_string());
        }
    }
    found
}

/// Coordinates are rounded to a thousandth of a cell, everywhere: the
/// shrine's arrows were at 0.8200000000000001, a third caption line at
/// 2.4000000000000004.
#[test]
fn svg_numbers_have_at_most_three_decimals() {
    let dir = tempfile::tempdir().unwrap();
    let scalars = common::cli::write_model(dir.path(), "scalars.toml", SCALARS);
    let cases: [&[&str]; 6] = [
        &["solve", "models/akh-vaquot.toml"],
        &["explain", "models/heros-cave.toml"],
        &["hint", "models/csp/slitherlink.toml", "--reveal", "what"],
        &["hint", scalars.to_str().unwrap()],
        &["solve", "models/csp/kenken.toml"],
        &["facts", "models/heros-cave-somaria.toml"],
    ];
    for args in cases {
        let svg = svg_of(args);
        assert_eq!(long_decimals(&svg), Vec::<String>::new(), "{args:?}");
    }
    assert_eq!(long_decimals("x=\"12.6000000000000005\" y=\"0.25\"."), vec!["12.6000000000000005".to_string()]);
}

/// The relative luminance of a colour (WCAG 2).
fn luminance([r, g, b]: [u8; 3]) -> f64 {
    let channel = |c: u8| {
        let c = c as f64 / 255.0;
        if c <= 0.03928 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
    };
    0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

/// A picture's caption (the knapsack's objective, a hint's step) stands on
/// white, under dark text: the caption's ground was left transparent,
/// which a viewer on a dark background shows as a black bar under text of
/// near-black ink.
#[test]
fn captions_stand_on_white() {
    for args in [&["solve", "models/csp/knapsack.toml"][..], &["hint", "models/akh-vaquot.toml"][..]] {
        let svg = svg_of(args);
        assert!(svg.contains(&format!("<text fill=\"{INK}\" font-family=\"sans-serif\" font-size=\"0.55\"")), "{svg}");
        let rendered = Rendered::of(&svg);
        // By the bottom right corner (its last pixels are cut by the
        // rounding of the size): below the grid, beside the caption.
        let (x, y) = (rendered.0.width() - 3, rendered.0.height() - 3);
        let p = rendered.0.pixel(x, y).unwrap();
        assert_eq!((p.alpha(), [p.red(), p.green(), p.blue()]), (255, rgb(FLOOR)), "{args:?}");
        let (ink, ground) = (luminance(rgb(INK)), luminance(rendered.pixel(x as usize, y as usize)));
        let contrast = (ground + 0.05) / (ink + 0.05);
        assert!(contrast >= 7.0, "{args:?}: contrast {contrast}");
    }
}

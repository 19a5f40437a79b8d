//! Every shipped csp model drawn as its puzzle is drawn in print, by its
//! drawing table: golden SVGs of each model's `solve` (and of `steps
//! --upto 1` where it has steps), the pictures rendered with resvg, their
//! text included, and pixel checks that fail when a layer goes missing.
//!
//! With `SOMARIA_PNG_DIR` set, the rendered pictures are written there as
//! PNG files, for a person to look at.

use somaria::draw::svg::{CELL_PX, FLOOR, GIVEN, INK, ROUTES, SHADE};

use crate::common;

use common::cli::{assert_mentions, refused, run_json, somaria};
use common::pixels::{Rendered, rgb};

/// The SVG picture of `args`, whose exit code is 0 or 1.
pub(super) fn svg_of(args: &[&str]) -> String {
    let out = somaria().args(args).args(["--format", "svg"]).output().unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The text report of `args`, without its last line (sizes and times).
fn text_of(args: &[&str]) -> String {
    let out = somaria().args(args).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    lines[..lines.len().saturating_sub(1)].join("\n") + "\n"
}

/// The shipped csp models, by name.
fn shipped() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir("models/csp")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
        .collect();
    names.sort();
    names
}

/// The models whose `steps --upto 1` is drawn too, first and last step:
/// every shipped model with a step of one constraint whose whole walk plans
/// in a test; the slower ones are in [`SLOW_STEPPED`].
const STEPPED: [&str; 15] = [
    "akh-vaquot",
    "circuit-test",
    "heros-cave-somaria",
    "killer-sudoku",
    "kenken",
    "langford",
    "nonogram-car",
    "send-more-money",
    "skyscraper",
    "slitherlink",
    "sudoku-17",
    "sudoku-easy",
    "sudoku-hardest",
    "takuzu",
    "zebra",
];

/// The shipped models with no step of one constraint, so no picture of
/// `steps --upto 1`: costas-array, latin-square and queens need a guess
/// at once, exam-timetable and heros-cave have no solution, knapsack and
/// magic-square start with steps of more than one constraint.
const UNSTEPPED: [&str; 7] =
    ["costas-array", "exam-timetable", "heros-cave", "knapsack", "latin-square", "magic-square", "queens"];

#[test]
fn every_shipped_model_has_its_steps_drawn_or_has_no_step_of_one_constraint() {
    let slow: Vec<&str> = SLOW_STEPPED.iter().map(|(name, ..)| *name).collect();
    for name in shipped() {
        let (drawn, unstepped) =
            (STEPPED.contains(&name.as_str()) || slow.contains(&name.as_str()), UNSTEPPED.contains(&name.as_str()));
        assert!(drawn != unstepped, "{name}: drawn {drawn}, listed as without steps {unstepped}");
        if !unstepped {
            continue;
        }
        let path = format!("models/csp/{name}.toml");
        let args = ["steps", &path, "--next", "any", "--upto", "1", "--next", "1", "--format", "json"];
        let out = somaria().args(args).output().unwrap();
        // Exit 1: no solution (exam-timetable, heros-cave).
        assert!(matches!(out.status.code(), Some(0 | 1)), "{name}: {out:?}");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["steps"].as_array().map(Vec::len), Some(0), "{name}: {report}");
        // Proved, not given up on.
        assert_eq!(report["stats"]["untested_within_upto"], 0, "{name}: {report}");
    }
}

/// Writes `rendered` as `name.png` under `SOMARIA_PNG_DIR`, when it is set.
fn keep_png(rendered: &Rendered, name: &str) {
    if let Some(dir) = std::env::var_os("SOMARIA_PNG_DIR") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        rendered.save(&dir.join(format!("{name}.png")));
    }
}

#[test]
fn every_shipped_csp_model_has_a_drawing_table() {
    for name in shipped() {
        let text = std::fs::read_to_string(format!("models/csp/{name}.toml")).unwrap();
        assert!(text.contains("\n[draw]\n"), "{name} has no drawing table");
    }
}

#[test]
fn shipped_models_draw_as_their_golden_pictures() {
    for name in shipped() {
        let path = format!("models/csp/{name}.toml");
        let svg = svg_of(&["solve", &path]);
        keep_png(&Rendered::with_text(&svg, 2.0), &format!("{name}-solve"));
        if name == "tsp-circuit" {
            // The tour has two directions of one length, and the engines
            // that race for it find either: the golden picture is of the
            // model held to one direction, whose length is the same.
            let one_way = one_way_tour(&path);
            let pinned = svg_of(&["solve", one_way.1.to_str().unwrap()]);
            assert_eq!(objective(&pinned), objective(&svg), "one direction of the shortest tour is as short");
            insta::assert_snapshot!(format!("solve_{name}"), pinned);
        } else {
            insta::assert_snapshot!(format!("solve_{name}"), svg);
        }
    }
    for name in STEPPED {
        let path = format!("models/csp/{name}.toml");
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().to_str().unwrap();
        somaria().args(["steps", &path, "--next", "any", "--upto", "1", "--format", "svg", "-o", out]).assert().code(0);
        let mut steps: Vec<std::path::PathBuf> = std::fs::read_dir(out).unwrap().map(|e| e.unwrap().path()).collect();
        steps.sort();
        assert!(!steps.is_empty(), "{name} has a step of one constraint");
        // The first step, on the puzzle alone, and the last, on the state
        // the others reached.
        for (which, step) in [("first", &steps[0]), ("last", &steps[steps.len() - 1])] {
            let svg = std::fs::read_to_string(step).unwrap();
            keep_png(&Rendered::with_text(&svg, 2.0), &format!("{name}-steps-upto-1-{which}"));
            insta::assert_snapshot!(format!("steps_upto_1_{which}_{name}"), svg);
        }
    }
}

/// A text a model's file has, and what the test writes in its place.
type Replaced = Option<(&'static str, &'static str)>;

/// The models whose whole `steps --upto 1` takes minutes or more: their golden picture
/// is of their first step of one constraint alone (`--next 1`, every step
/// shown), the partial state a player sees first. A few minutes on a
/// loaded 2-core machine:
/// `cargo test --release --test csp -- --ignored drawing_layers::slow_models_draw_their_first_step`.
/// The 10 x 10 nurikabe's first step takes 20 s of CPU, the 20 x 20
/// numberlink's 7 s and the 20 x 20 slitherlink's 1.3 s. Each entry is the
/// model, its engine, and what its text has in place of what (a smaller
/// instance). The tour is drawn over its first 8 cities (11 s of CPU): over
/// 14 its start alone takes minutes (it proves the two shortest tours).
const SLOW_STEPPED: [(&str, &[&str], Replaced); 6] = [
    ("magic-sequence", &[], None),
    ("numberlink", &[], None),
    ("numberlink-20x20", &[], None),
    ("nurikabe", &[], None),
    ("slitherlink-20x20", &[], None),
    ("tsp-circuit", &["--engine", "log"], Some(("\nn = 14\n", "\nn = 8\n"))),
];

#[test]
#[ignore = "minutes: the slow models' first steps; the command is in SLOW_STEPPED's comment"]
fn slow_models_draw_their_first_step_as_their_golden_pictures() {
    for (name, engine, smaller) in SLOW_STEPPED {
        let dir = tempfile::tempdir().unwrap();
        let mut path = format!("models/csp/{name}.toml");
        if let Some((from, to)) = smaller {
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(text.contains(from), "{name} has {from:?}");
            let written = common::cli::write_model(dir.path(), "smaller.toml", text.replace(from, to));
            path = written.to_str().unwrap().to_string();
        }
        let out = dir.path().join("steps");
        let out = out.to_str().unwrap();
        let args = ["steps", &path, "--upto", "1", "--detail", "--next", "1", "--format", "svg", "-o", out];
        somaria().args(args).args(engine).assert().code(0);
        let steps: Vec<std::path::PathBuf> = std::fs::read_dir(out).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(steps.len(), 1, "{name}: one step asked, {steps:?}");
        let svg = std::fs::read_to_string(&steps[0]).unwrap();
        keep_png(&Rendered::with_text(&svg, 2.0), &format!("{name}-steps-upto-1-next-1"));
        insta::assert_snapshot!(format!("steps_upto_1_next_1_{name}"), svg);
    }
}

/// The 14-city tour's first step of one constraint: each test over its
/// legs (2,738 values each) gives up, so the legs are read from their
/// bounds; before, `--upto 1` ended with no step and said a test gave up.
#[test]
#[ignore = "minutes: the 14-city tour's start proves its two shortest tours; cargo test --release --test csp -- --ignored drawing_layers::a_tour"]
fn a_tour_of_fourteen_cities_takes_its_first_step_from_its_legs_bounds() {
    let args = ["steps", "models/csp/tsp-circuit.toml", "--engine", "log", "--upto", "1", "--detail", "--next", "1"];
    let out = somaria().args(args).assert().code(0).get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("difficulty: 1 steps, largest 1"), "{text}");
    assert!(text.contains("because (1 constraint, smallest)"), "{text}");
    assert!(text.contains("x[14] ≠ 14"), "{text}");
    assert!(!text.contains("not every set of constraints within --upto was tested"), "{text}");
}

/// The tour model of `path` with one more constraint, that city 1's
/// successor is lower than its predecessor, which keeps one of the tour's
/// two directions; written into a folder that lives as long as the path.
fn one_way_tour(path: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let text = std::fs::read_to_string(path).unwrap();
    let (model, table) = text.split_once("\n[draw]").unwrap();
    let extra = "\n[[constraint]]\nname = \"one direction\"\nexpr = 'forall(k in 1..n)(x[k] = 1 -> x[1] < k)'\n";
    let dir = tempfile::tempdir().unwrap();
    let one_way = common::cli::write_model(dir.path(), "tsp-one-way.toml", format!("{model}{extra}\n[draw]{table}"));
    (dir, one_way)
}

/// The caption line of a picture that gives its objective.
fn objective(svg: &str) -> &str {
    svg.lines().find(|l| l.starts_with("objective")).unwrap_or_else(|| panic!("an objective: {svg}"))
}

/// A Masyu: the sample puzzle of pzprjs's test script for `mashu`, whose
/// answer there is the loop this model's one solution takes. The loop runs
/// through cell centres, drawn by a `links` layer, the pearls above it.
const MASYU: &str = r#"kind = "csp"
title = "Masyu 6x6"
show = ["across", "down"]

[params]
n = 6
pearl = """[|
  0, 0, 1, 0, 0, 0 |
  0, 2, 0, 0, 1, 0 |
  0, 0, 0, 0, 0, 0 |
  0, 0, 0, 2, 0, 0 |
  0, 1, 0, 0, 0, 0 |
  0, 0, 0, 0, 0, 0 |]"""

[vars]
on = { index = ["1..n", "1..n"], domain = "bool" }
across = { index = ["1..n", "1..n-1"], domain = "bool" }
down = { index = ["1..n-1", "1..n"], domain = "bool" }

[[predicate]]
def = 'predicate west(int: i, int: j) = if j > 1 then across[i, j - 1] else false endif'
[[predicate]]
def = 'predicate east(int: i, int: j) = if j < n then across[i, j] else false endif'
[[predicate]]
def = 'predicate north(int: i, int: j) = if i > 1 then down[i - 1, j] else false endif'
[[predicate]]
def = 'predicate south(int: i, int: j) = if i < n then down[i, j] else false endif'

[[constraint]]
name = "one loop through cell centres"
expr = 'grid_loop(on, across, down)'

[[constraint]]
name = "white pearls: straight through, turning next to it"
expr = '''forall(i, j in 1..n where pearl[i, j] = 1)(
  (west(i, j) /\ east(i, j) /\ (not west(i, j - 1) \/ not east(i, j + 1)))
  \/ (north(i, j) /\ south(i, j) /\ (not north(i - 1, j) \/ not south(i + 1, j))))'''

[[constraint]]
name = "black pearls: a turn, straight on either side"
expr = '''forall(i, j in 1..n where pearl[i, j] = 2)(
  on[i, j] /\ not (west(i, j) /\ east(i, j)) /\ not (north(i, j) /\ south(i, j))
  /\ (west(i, j) -> west(i, j - 1)) /\ (east(i, j) -> east(i, j + 1))
  /\ (north(i, j) -> north(i - 1, j)) /\ (south(i, j) -> south(i + 1, j)))'''

[draw]
rows = "n"
cols = "n"

[[draw.layer]]
links = ["across", "down"]

[[draw.layer]]
mark = "pearl"
symbol = "circle"
fill = { 1 = "white", 2 = "black" }
size = 0.7
"#;

/// pzprjs's answer to the sample: the steps within rows, then within
/// columns (its `mashu` answer's line blocks).
const MASYU_ACROSS: [[u8; 5]; 6] =
    [[1, 1, 1, 0, 1], [0, 1, 1, 0, 0], [0, 0, 1, 1, 0], [0, 1, 0, 1, 1], [1, 1, 0, 0, 0], [0, 0, 1, 0, 0]];
const MASYU_DOWN: [[u8; 6]; 5] =
    [[1, 0, 0, 1, 1, 1], [1, 1, 0, 0, 1, 1], [1, 1, 1, 0, 0, 1], [1, 0, 0, 1, 0, 0], [0, 0, 1, 1, 0, 0]];

/// A picture rendered twice its size with its text, and read in cells.
struct Picture {
    rendered: Rendered,
    /// Where the grid's top-left corner stands, in cells.
    origin: (f64, f64),
}

impl Picture {
    const SCALE: f64 = 2.0;

    fn of(svg: &str, origin: (f64, f64)) -> Picture {
        Picture { rendered: Rendered::with_text(svg, Self::SCALE as f32), origin }
    }

    /// The colour at `(x, y)` in cells from the grid's corner.
    fn at(&self, (x, y): (f64, f64)) -> [u8; 3] {
        let px = |v: f64, o: f64| ((v + o) * CELL_PX as f64 * Self::SCALE) as usize;
        self.rendered.pixel(px(x, self.origin.0), px(y, self.origin.1))
    }

    /// The colours in a box of cells, `(x0, y0)` to `(x1, y1)`.
    fn colours_in(&self, (x0, y0): (f64, f64), (x1, y1): (f64, f64)) -> Vec<[u8; 3]> {
        let step = 1.0 / (CELL_PX as f64 * Self::SCALE);
        let mut found = Vec::new();
        let mut y = y0;
        while y < y1 {
            let mut x = x0;
            while x < x1 {
                found.push(self.at((x, y)));
                x += step;
            }
            y += step;
        }
        found
    }
}

/// Whether a colour is near another, as anti-aliasing leaves it.
pub(super) fn near(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(&x, y)| x.abs_diff(y) <= 40)
}

/// A link between two cells, read by the middle of the side between
/// them (off the thin grid line there): the loop's colour along it where
/// it is known to run, an ink cross where it is known not to, neither
/// where nothing is known.
fn assert_link(picture: &Picture, (x, y): (f64, f64), across: bool, known: Option<bool>, what: &str) {
    let along = if across { (x + 0.1, y) } else { (x, y + 0.1) };
    let on_arm = (x + 0.06, y + 0.06);
    match known {
        Some(true) => {
            let colour = picture.at(along);
            assert!(near(colour, rgb(ROUTES[0])), "{what}: the loop at {along:?}, found {colour:?}");
        }
        Some(false) => {
            let colour = picture.at(on_arm);
            assert!(near(colour, rgb(INK)), "{what}: a cross at {on_arm:?}, found {colour:?}");
        }
        None => {
            // Neither the loop nor a cross (an outline may be there).
            let (line, arm) = (picture.at(along), picture.at(on_arm));
            assert!(!near(line, rgb(ROUTES[0])), "{what}: no loop at {along:?}, found {line:?}");
            assert!(!near(arm, rgb(INK)), "{what}: no cross at {on_arm:?}, found {arm:?}");
        }
    }
}

/// Each link of a Masyu picture against what is known of it: `across` and
/// `down` the steps' values (None unknown).
fn assert_masyu_links(picture: &Picture, across: &[Vec<Option<bool>>], down: &[Vec<Option<bool>>], what: &str) {
    // A pearl of 0.7 reaches 0.35 from its centre and a side's middle is
    // 0.5 away, so the links are read clear of the pearls.
    for (i, row) in across.iter().enumerate() {
        for (j, &known) in row.iter().enumerate() {
            let what = format!("{what}: across[{}, {}]", i + 1, j + 1);
            assert_link(picture, (j as f64 + 1.0, i as f64 + 0.5), true, known, &what);
        }
    }
    for (i, row) in down.iter().enumerate() {
        for (j, &known) in row.iter().enumerate() {
            let what = format!("{what}: down[{}, {}]", i + 1, j + 1);
            assert_link(picture, (j as f64 + 0.5, i as f64 + 1.0), false, known, &what);
        }
    }
}

/// The values of a Boolean 2-D array in a solution, or the sets of a fact
/// report (one value: known).
pub(super) fn known_bools(json: &serde_json::Value) -> Vec<Vec<Option<bool>>> {
    let leaf = |v: &serde_json::Value| match v {
        serde_json::Value::Bool(b) => Some(*b),
        serde_json::Value::Array(values) if values.len() == 1 => values[0].as_bool(),
        _ => None,
    };
    json.as_array().unwrap().iter().map(|row| row.as_array().unwrap().iter().map(leaf).collect()).collect()
}

pub(super) fn masyu() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = common::cli::write_model(dir.path(), "masyu.toml", MASYU);
    let path = path.to_str().unwrap().to_string();
    (dir, path)
}

#[test]
fn a_masyu_loop_is_drawn_through_cell_centres_under_its_pearls() {
    let (_dir, path) = masyu();
    let (code, json) = run_json(&["solve", &path]);
    assert_eq!(code, 0, "{json}");
    let across = known_bools(&json["solution"]["across"]);
    let down = known_bools(&json["solution"]["down"]);
    let expected = |rows: &[&[u8]]| -> Vec<Vec<Option<bool>>> {
        rows.iter().map(|r| r.iter().map(|&v| Some(v == 1)).collect()).collect()
    };
    assert_eq!(across, expected(&MASYU_ACROSS.iter().map(|r| &r[..]).collect::<Vec<_>>()), "pzprjs's answer");
    assert_eq!(down, expected(&MASYU_DOWN.iter().map(|r| &r[..]).collect::<Vec<_>>()), "pzprjs's answer");
    let svg = svg_of(&["solve", &path]);
    let picture = Picture::of(&svg, (0.0, 0.0));
    keep_png(&picture.rendered, "masyu-solve");
    // A solution shows no crosses: the steps not taken are bare.
    let taken = |rows: &[Vec<Option<bool>>]| -> Vec<Vec<Option<bool>>> {
        rows.iter().map(|r| r.iter().map(|v| v.filter(|&b| b)).collect()).collect()
    };
    assert_masyu_links(&picture, &taken(&across), &taken(&down), "solve");
    // The pearls stand above the loop: a white pearl's middle is paper
    // though the loop runs through it, a black one's ink.
    assert_eq!(picture.at((2.5, 0.5)), rgb(FLOOR), "the white pearl at (1, 3) over the loop");
    assert!(near(picture.at((1.5, 1.5)), rgb(INK)), "the black pearl at (2, 2)");
    // And its rim is ink, 0.35 from its middle.
    assert!(near(picture.at((2.5 + 0.34, 0.5)), rgb(INK)), "the white pearl's rim");
}

#[test]
fn masyu_facts_hints_and_steps_show_the_known_parts_of_the_loop() {
    let (dir, path) = masyu();
    // Facts: after the givens (none), what the puzzle forces: here all of it,
    // the steps it never takes crossed.
    let (_, facts) = run_json(&["facts", &path]);
    let (across, down) = (known_bools(&facts["values"]["across"]), known_bools(&facts["values"]["down"]));
    assert!(across.iter().flatten().any(|v| *v == Some(false)), "some step excluded");
    let picture = Picture::of(&svg_of(&["facts", &path]), (0.0, 0.0));
    keep_png(&picture.rendered, "masyu-facts");
    assert_masyu_links(&picture, &across, &down, "facts");
    // A hint: the steps its step settles highlighted beside the link, and
    // with `what` drawn; nothing else known.
    let (_, hint) = run_json(&["hint", &path, "--next", "any", "--reveal", "what"]);
    let settled: Vec<(String, usize, usize, bool)> =
        hint["step"]["facts"].as_array().unwrap().iter().map(boolean_fact).collect();
    assert!(!settled.is_empty(), "{hint}");
    let picture = Picture::of(&svg_of(&["hint", &path, "--next", "any", "--reveal", "what"]), (0.0, 0.0));
    keep_png(&picture.rendered, "masyu-hint");
    for (name, i, j, value) in &settled {
        let middle = if name == "across" { (*j as f64, *i as f64 - 0.5) } else { (*j as f64 - 0.5, *i as f64) };
        assert_link(&picture, middle, name == "across", Some(*value), &format!("hint: {name}[{i},{j}]"));
        // The highlight runs along the link, a sixth of a cell beside it.
        let beside = if name == "across" { (middle.0, middle.1 + 0.16) } else { (middle.0 + 0.16, middle.1) };
        assert_eq!(picture.at(beside), rgb(SHADE), "hint: {name}[{i},{j}] highlighted");
    }
    // Steps: each picture of `steps --upto 1` draws the state before its
    // step; the last one's, every link the earlier steps settled, drawn or
    // crossed, and nothing where nothing is known yet.
    let (_, steps) = run_json(&["steps", &path, "--next", "any", "--upto", "1"]);
    let shown = steps["steps"].as_array().unwrap();
    assert!(shown.len() >= 2, "{steps}");
    let out = dir.path().join("steps");
    let out = out.to_str().unwrap();
    somaria().args(["steps", &path, "--next", "any", "--upto", "1", "--format", "svg", "-o", out]).assert().code(0);
    let last = shown.len();
    let svg = std::fs::read_to_string(format!("{out}/step-{last:03}.svg")).unwrap();
    let picture = Picture::of(&svg, (0.0, 0.0));
    keep_png(&picture.rendered, "masyu-steps-upto-1-last");
    let mut across: Vec<Vec<Option<bool>>> = vec![vec![None; 5]; 6];
    let mut down: Vec<Vec<Option<bool>>> = vec![vec![None; 6]; 5];
    for step in &shown[..last - 1] {
        for (name, i, j, value) in step["facts"].as_array().unwrap().iter().map(boolean_fact) {
            let grid = if name == "across" { &mut across } else { &mut down };
            grid[i - 1][j - 1] = Some(value);
        }
    }
    let count = |v: Option<bool>| across.iter().chain(&down).flatten().filter(|k| **k == v).count();
    assert!(count(Some(false)) > 0 && count(Some(true)) > 0, "a partial loop, in part excluded");
    // The last step's own facts are the step's to draw (as its reveal
    // says); the others are read.
    let mut touched = std::collections::HashSet::new();
    for (name, i, j, _) in shown[last - 1]["facts"].as_array().unwrap().iter().map(boolean_fact) {
        touched.insert((name, i, j));
    }
    for (name, grid) in [("across", &across), ("down", &down)] {
        for (i, row) in grid.iter().enumerate() {
            for (j, &known) in row.iter().enumerate() {
                if touched.contains(&(name.to_string(), i + 1, j + 1)) {
                    continue;
                }
                let middle =
                    if name == "across" { (j as f64 + 1.0, i as f64 + 0.5) } else { (j as f64 + 0.5, i as f64 + 1.0) };
                let what = format!("steps: {name}[{},{}]", i + 1, j + 1);
                assert_link(&picture, middle, name == "across", known, &what);
            }
        }
    }
}

/// A fact about a Boolean step: its array, indices and value (a `!=`
/// fact is the other value).
fn boolean_fact(fact: &serde_json::Value) -> (String, usize, usize, bool) {
    let (name, i, j) = parse_step(fact["var"].as_str().unwrap());
    let value = fact["value"].as_bool().unwrap();
    (name, i, j, if fact["op"] == "=" { value } else { !value })
}

/// `across[2,3]` as its array and indices.
fn parse_step(about: &str) -> (String, usize, usize) {
    let (name, rest) = about.split_once('[').unwrap();
    let (i, j) = rest.trim_end_matches(']').split_once(',').unwrap();
    (name.to_string(), i.trim().parse().unwrap(), j.trim().parse().unwrap())
}

/// A Hitori: the sample puzzle of pzprjs's test script for `hitori`. Shade
/// cells so that no number is left twice in a row or column, no two shaded
/// cells touch, and the unshaded cells are one piece.
const HITORI: &str = r#"kind = "csp"
title = "Hitori 4x4"
show = ["shaded"]

[params]
n = 4
number = """[| 1, 1, 1, 4 | 1, 4, 2, 3 | 3, 3, 2, 1 | 4, 2, 1, 3 |]"""

[vars]
shaded = { index = ["1..n", "1..n"], domain = "bool" }

[[constraint]]
name = "no number twice in a row or column"
expr = '''forall(i, j, k in 1..n where j < k)(
  (number[i, j] = number[i, k] -> shaded[i, j] \/ shaded[i, k])
  /\ (number[j, i] = number[k, i] -> shaded[j, i] \/ shaded[k, i]))'''

[[constraint]]
name = "no two shaded cells touch"
expr = '''forall(i in 1..n, j in 1..n - 1)(not (shaded[i, j] /\ shaded[i, j + 1]) /\ not (shaded[j, i] /\ shaded[j + 1, i]))'''

[[constraint]]
name = "the unshaded cells are one piece"
expr = 'grid_connected(array2d(1..n, 1..n, [not shaded[i, j] | i, j in 1..n]))'

[draw]
rows = "n"
cols = "n"

[[draw.layer]]
text = "number"

[[draw.layer]]
shade = "shaded"
"#;

/// pzprjs's answer: `#` shaded.
const HITORI_ANSWER: [&str; 4] = ["#.#.", "....", "#.#.", "...#"];

#[test]
fn a_hitori_answer_keeps_its_shading_in_text() {
    let dir = tempfile::tempdir().unwrap();
    let path = common::cli::write_model(dir.path(), "hitori.toml", HITORI);
    let path = path.to_str().unwrap();
    let (_, json) = run_json(&["solve", path]);
    let shaded: Vec<String> = json["solution"]["shaded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_array().unwrap().iter().map(|b| if b.as_bool().unwrap() { '#' } else { '.' }).collect())
        .collect();
    assert_eq!(shaded, HITORI_ANSWER, "pzprjs's answer");
    // Each shaded cell's number stands in its shading; the others bare.
    let expected = "\
█1█ 1 █1█ 4
 1  4  2  3
█3█ 3 █2█ 1
 4  2  1 █3█
";
    let text = text_of(&["solve", path]);
    assert!(text.ends_with(expected), "{text}");
    let ascii = text_of(&["solve", path, "--ascii"]);
    assert!(ascii.ends_with(&expected.replace('█', "#")), "{ascii}");
    // In the picture the shaded cells are ink, their numbers paper.
    let picture = Picture::of(&svg_of(&["solve", path]), (0.0, 0.0));
    keep_png(&picture.rendered, "hitori-solve");
    for (r, row) in HITORI_ANSWER.iter().enumerate() {
        for (c, mark) in row.chars().enumerate() {
            let corner = picture.at((c as f64 + 0.15, r as f64 + 0.15));
            let colours = picture.colours_in((c as f64 + 0.3, r as f64 + 0.25), (c as f64 + 0.7, r as f64 + 0.75));
            if mark == '#' {
                assert_eq!(corner, rgb(INK), "{:?} shaded", (r, c));
                assert!(colours.iter().any(|&p| near(p, rgb(FLOOR))), "{:?}: its number in paper", (r, c));
            } else {
                assert_eq!(corner, rgb(GIVEN), "{:?} bare, on a given's ground", (r, c));
                assert!(colours.iter().any(|&p| near(p, rgb(INK))), "{:?}: its number in ink", (r, c));
            }
        }
    }
}

/// Where a Killer Sudoku's grid stands in its picture: at the corner.
const KILLER: &str = "models/csp/killer-sudoku.toml";

/// The Killer's cages, from the model's `cage` literal.
fn killer_cages() -> Vec<Vec<usize>> {
    let text = std::fs::read_to_string(KILLER).unwrap();
    let start = text.find("cage = \"\"\"[|").unwrap() + "cage = \"\"\"[|".len();
    let end = start + text[start..].find("|]").unwrap();
    text[start..end].split('|').map(|row| row.split(',').map(|v| v.trim().parse().unwrap()).collect()).collect()
}

#[test]
fn killer_cages_are_dashed_beside_the_box_borders() {
    let cages = killer_cages();
    let picture = Picture::of(&svg_of(&["solve", KILLER]), (0.0, 0.0));
    keep_png(&picture.rendered, "killer-sudoku-solve-checked");
    // Along each box border, inside every cell: the heavy line on the side,
    // then paper, then the cage's dashed line 0.12 in (some of its dashes
    // over the cell's middle half), as both layers draw.
    let inked = |colours: Vec<[u8; 3]>| colours.iter().filter(|&&p| near(p, rgb(INK))).count();
    let mut checked = 0;
    for (r, row) in cages.iter().enumerate() {
        for (c, &cage) in row.iter().enumerate() {
            // The cell's top side is a box border and a cage border.
            if r % 3 == 0 && (r == 0 || cages[r - 1][c] != cage) {
                let (x, y) = (c as f64, r as f64);
                assert!(near(picture.at((x + 0.5, y)), rgb(INK)), "box border above {:?}", (r, c));
                assert_eq!(picture.at((x + 0.5, y + 0.075)), rgb(FLOOR), "between the borders {:?}", (r, c));
                let dashes = inked(picture.colours_in((x + 0.3, y + 0.11), (x + 0.7, y + 0.13)));
                assert!(dashes > 0, "the cage's dashed border inside {:?}", (r, c));
                checked += 1;
            }
        }
    }
    assert!(checked >= 9, "the top row at least: {checked}");
}

#[test]
fn a_corner_sum_is_not_covered_by_the_cells_digit() {
    let cages = killer_cages();
    let svg = svg_of(&["solve", KILLER]);
    let with_text = Picture::of(&svg, (0.0, 0.0));
    let without = Picture { rendered: Rendered::scaled(&svg, Picture::SCALE as f32), origin: (0.0, 0.0) };
    // The pixels inked with the text that are not without it.
    let added = |a, b| {
        let (with, bare) = (with_text.colours_in(a, b), without.colours_in(a, b));
        with.iter().zip(&bare).filter(|(w, b)| near(**w, rgb(INK)) && !near(**b, rgb(INK))).count()
    };
    // Each cage's first cell in reading order carries its sum.
    let mut seen = std::collections::HashSet::new();
    for (r, row) in cages.iter().enumerate() {
        for (c, &cage) in row.iter().enumerate() {
            if !seen.insert(cage) {
                continue;
            }
            let (x, y) = (c as f64, r as f64);
            let corner = ((x + 0.05, y + 0.03), (x + 0.4, y + 0.3));
            // The sum adds ink in the corner, beside the dashed border ...
            let inked = added(corner.0, corner.1);
            assert!(inked > 4, "the sum in the corner of {:?}: {inked} pixels", (r, c));
            // ... and the digit, in the solution's blue, keeps out of it
            // though it stands in the middle of the cell.
            let blue = |a, b| with_text.colours_in(a, b).iter().filter(|&&p| near(p, rgb(ROUTES[0]))).count();
            assert_eq!(blue(corner.0, corner.1), 0, "no digit in the corner of {:?}", (r, c));
            assert!(blue((x + 0.3, y + 0.35), (x + 0.7, y + 0.85)) > 10, "the digit in {:?}", (r, c));
        }
    }
    assert_eq!(seen.len(), 29);
}

/// A grid model to add a bad layer to: a 2 × 2 grid, a 1-D array `v`.
const GRID_MODEL: &str = r#"kind = "csp"
[params]
clue = [[1, 0], [0, 2]]
v = [1, 2]
[vars]
x = { index = ["1..2", "1..2"], domain = "0..3" }
[draw]
rows = 2
cols = 2
[[draw.layer]]
"#;

/// The `file:line:column:` where `needle` starts in `text`.
fn place(text: &str, needle: &str) -> String {
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle:?} in {text}"));
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
    format!("bad.toml:{line}:{column}:")
}

#[test]
fn bad_drawing_tables_are_refused_at_their_line_and_column() {
    let cases: [(&str, &str, &[&str]); 9] = [
        (
            "outside = \"v\"\nside = \"north\"\n",
            "\"north\"",
            &["side = \"north\"", "\"top\", \"bottom\", \"left\" or \"right\""],
        ),
        ("outside = \"v\"\n", "\"v\"", &["without a side"]),
        ("outside = \"[1, 2, 3]\"\nside = \"top\"\n", "[1, 2, 3]", &["3 lines of clues", "2, one per line"]),
        ("text = \"v\"\nat = \"corner\"\n", "v\"", &["`text (at the corner)` layer over", "a 2-D array of 2 × 2"]),
        ("text = \"clue\"\nat = \"side\"\n", "\"side\"", &["at = \"side\"", "\"middle\" or \"corner\""]),
        ("text = \"clue\"\ncolour = \"reddish\"\n", "\"reddish\"", &["not a colour", "#rrggbb"]),
        ("mark = \"clue\"\nfill = { 1 = \"blu\" }\n", "{ 1", &["fill with 1 = \"blu\"", "a colour"]),
        (
            "regions = \"clue\"\nborder = \"wavy\"\n",
            "\"wavy\"",
            &["border = \"wavy\"", "\"heavy\", \"thin\" or \"dashed\""],
        ),
        ("mark = \"clue\"\nsize = 2.5\n", "2.5", &["size = 2.5", "a fraction of a cell"]),
    ];
    for (layer, at, says) in cases {
        let text = format!("{GRID_MODEL}{layer}");
        let e = refused(&text);
        assert_mentions(&e, &[&place(&text, at)]);
        assert_mentions(&e, says);
    }
    // An option that another kind of layer takes.
    let text = format!("{GRID_MODEL}links = [\"clue\", \"clue\"]\nside = \"top\"\n");
    assert_mentions(&refused(&text), &[&place(&text, "\"top\""), "`side` in a `links` layer"]);
}

/// A shipped model with its drawing table left out, written into `dir`.
fn without_table(dir: &std::path::Path, model: &str) -> String {
    let text = std::fs::read_to_string(model).unwrap();
    let plain = match text.split_once("\n[draw]") {
        Some((plain, _)) => plain.rsplit_once("\n# How to draw it").map_or(plain, |(p, _)| p).to_string(),
        None => text,
    };
    let path = dir.join(std::path::Path::new(model).file_name().unwrap());
    std::fs::write(&path, plain).unwrap();
    path.to_str().unwrap().to_string()
}

/// Without a drawing table, each shown 2-D array is a clean grid under a
/// heading with its name and true index ranges: no caption bar, no walls
/// beside a narrower grid, no "rows 0 to 5" counted from 0.
#[test]
fn the_fallback_draws_each_array_under_its_name_and_index_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let kenken = without_table(dir.path(), "models/csp/kenken.toml");
    let svg = svg_of(&["solve", &kenken]);
    assert!(svg.contains(">\nx[1..6, 1..6]\n</text>"), "{svg}");
    assert!(!svg.contains("rows 0 to") && !svg.contains("rows 1 to"), "{svg}");
    let picture = Picture::of(&svg, (0.0, 0.0));
    keep_png(&picture.rendered, "fallback-kenken");
    // The heading's row is paper with ink text, the grid under it.
    let heading = picture.colours_in((0.0, 0.0), (4.0, 1.0));
    assert!(heading.iter().any(|&p| near(p, rgb(INK))), "the heading's text");
    assert!(heading.iter().all(|&p| !near(p, rgb(ROUTES[0]))), "no value in the heading's row");
    let (_, json) = run_json(&["solve", &kenken]);
    for (r, row) in json["solution"]["x"].as_array().unwrap().iter().enumerate() {
        for c in 0..row.as_array().unwrap().len() {
            let digit = picture.colours_in((c as f64 + 0.3, r as f64 + 1.3), (c as f64 + 0.7, r as f64 + 1.8));
            assert!(digit.iter().any(|&p| near(p, rgb(INK))), "x[{}, {}] under the heading", r + 1, c + 1);
        }
    }
    // Two arrays of different widths, indexed from 0 and from an enum:
    // each named by its own ranges, paper beside the narrower.
    let model = r#"kind = "csp"
[enums]
Colour = ["red", "green"]
[vars]
wide = { index = ["0..1", "0..4"], domain = "1..2" }
narrow = { index = ["Colour", "3..4"], domain = "bool" }
[[constraint]]
expr = 'wide[0, 0] = 2 /\ narrow[red, 3]'
"#;
    let path = common::cli::write_model(dir.path(), "two.toml", model);
    let svg = svg_of(&["solve", path.to_str().unwrap()]);
    assert!(
        svg.contains(">\nnarrow[red..green, 3..4]\n</text>") && svg.contains(">\nwide[0..1, 0..4]\n</text>"),
        "{svg}"
    );
    let picture = Picture::of(&svg, (0.0, 0.0));
    keep_png(&picture.rendered, "fallback-two-arrays");
    assert!(!svg.contains(somaria::draw::svg::WALL), "no walls: {svg}");
    // Beside `narrow` (rows 1 and 2, two columns) the picture is bare.
    assert!(picture.colours_in((2.1, 1.1), (4.9, 2.9)).iter().all(|&p| p == rgb(FLOOR)), "bare beside narrow");
}

/// The text pictures of the new tables: corner labels in the lines above
/// their cells, dashed cage borders, clues around a framed grid, a partial
/// loop in box-drawing glyphs with its excluded steps crossed.
#[test]
fn text_pictures_keep_corner_labels_outside_clues_and_partial_loops() {
    for name in ["killer-sudoku", "kenken", "skyscraper", "nonogram-car", "zebra", "send-more-money"] {
        let path = format!("models/csp/{name}.toml");
        insta::assert_snapshot!(format!("text_solve_{name}"), text_of(&["solve", &path]));
    }
    insta::assert_snapshot!("text_solve_kenken_ascii", text_of(&["solve", "models/csp/kenken.toml", "--ascii"]));
    let (_dir, path) = masyu();
    let facts = text_of(&["facts", &path]);
    // A loop known in part: turns and crossed steps.
    assert!(facts.contains('┌') && facts.contains('×') && facts.contains('○') && facts.contains('●'), "{facts}");
    insta::assert_snapshot!("text_facts_masyu", facts);
    let hint = text_of(&["hint", &path, "--next", "any", "--reveal", "what"]);
    assert!(hint.contains("╶───○───╴"), "the two steps the hint settles, through the white pearl: {hint}");
}

/// Where a picture's grid stands, in cells: its group's translation.
pub(super) fn origin_of(svg: &str) -> (f64, f64) {
    let prefix = "<g transform=\"translate(";
    let at = svg.find(prefix).expect("a grid moved by its margins") + prefix.len();
    let end = at + svg[at..].find(')').unwrap();
    let (x, y) = svg[at..end].split_once(' ').unwrap();
    (x.parse().unwrap(), y.parse().unwrap())
}

/// The runs of shaded cells (2) along a line.
fn runs(line: &[i64]) -> Vec<i64> {
    line.split(|&v| v != 2).filter(|r| !r.is_empty()).map(|r| r.len() as i64).collect()
}

/// A model's param, parsed by the tool itself: the numbers of an array
/// literal `name = """[| ... |]"""` or `name = [...]` in its text.
fn literal_numbers(path: &str, name: &str) -> Vec<i64> {
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find(&format!("\n{name} = ")).unwrap_or_else(|| panic!("{name} in {path}")) + name.len() + 4;
    let end = start + text[start..].find(['\n']).unwrap();
    let end = if text[start..end].contains("\"\"\"") && !text[start..end].ends_with("\"\"\"") {
        start + text[start..].find("|]").unwrap()
    } else {
        end
    };
    text[start..end]
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect()
}

/// The nonogram's drawn clue lists are the runs of its answer, and its
/// picture writes each beside its line.
#[test]
fn the_nonograms_clue_lists_are_the_runs_of_its_answer() {
    let path = "models/csp/nonogram-car.toml";
    let (_, json) = run_json(&["solve", path]);
    let x: Vec<Vec<i64>> = json["solution"]["x"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect())
        .collect();
    let clues = |name: &str, width: usize| -> Vec<Vec<i64>> {
        literal_numbers(path, name).chunks(width).map(|c| c.iter().copied().filter(|&v| v > 0).collect()).collect()
    };
    let (rows, cols) = (clues("row_clues", 4), clues("col_clues", 2));
    assert_eq!((rows.len(), cols.len()), (10, 15));
    for (i, row) in x.iter().enumerate() {
        assert_eq!(runs(row), rows[i], "row {}", i + 1);
    }
    for (j, column) in cols.iter().enumerate() {
        let line: Vec<i64> = x.iter().map(|r| r[j]).collect();
        assert_eq!(&runs(&line), column, "column {}", j + 1);
    }
    // In the picture: the rows' lists left of the grid, the columns' above,
    // the cells shaded in ink.
    let svg = svg_of(&["solve", path]);
    let clue_count = rows.iter().chain(&cols).map(Vec::len).sum::<usize>();
    assert_eq!(svg.matches("<text").count(), clue_count, "one text per clue");
    let picture = Picture::of(&svg, origin_of(&svg));
    for (i, row) in x.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            let colour = picture.at((j as f64 + 0.5, i as f64 + 0.5));
            assert_eq!(colour == rgb(INK), v == 2, "{:?}", (i + 1, j + 1));
        }
    }
}

/// The KenKen picture's corner labels (`11+`) hold for its answer: each
/// cage's digits give its number under its operation.
#[test]
fn kenkens_printed_operations_hold_for_its_answer() {
    let path = "models/csp/kenken.toml";
    let (_, json) = run_json(&["solve", path]);
    let x: Vec<Vec<i64>> = json["solution"]["x"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect())
        .collect();
    let cages = literal_numbers(path, "P");
    let cages = &cages[5..]; // array2d(1..num_p, 1..2*num_hints+1, — the 2 and the 1s
    let ops = literal_numbers(path, "op");
    let text = text_of(&["solve", path]);
    for (cage, &op) in cages.chunks(9).zip(&ops) {
        let digits: Vec<i64> =
            cage[..8].chunks(2).filter(|rc| rc[0] > 0).map(|rc| x[rc[0] as usize - 1][rc[1] as usize - 1]).collect();
        let (target, sign) = (cage[8], ["+", "−", "×", "÷"][op as usize - 1]);
        let holds = match sign {
            "+" => digits.iter().sum::<i64>() == target,
            "×" => digits.iter().product::<i64>() == target,
            "−" => (digits[0] - digits[1]).abs() == target,
            _ => digits[0] == digits[1] * target || digits[1] == digits[0] * target,
        };
        assert!(holds, "{target}{sign} over {digits:?}");
        assert!(text.contains(&format!("{target}{sign}")), "{target}{sign} in {text}");
    }
}

/// Yajilin's clues: an arrow with a number beside it, from an `arrows`
/// layer with `number`.
#[test]
fn numbered_arrows_draw_the_arrow_and_its_number() {
    let model = r##"kind = "csp"
[enums]
Dir = ["up", "down", "left", "right"]
[params]
dir = "[| up, left | right, down |]"
clue = "[| 2, 0 | 1, 3 |]"
[vars]
x = "0..1"
[draw]
rows = 2
cols = 2
[[draw.layer]]
arrows = "dir"
number = "clue"
colour = "#c4302b"
"##;
    let dir = tempfile::tempdir().unwrap();
    let path = common::cli::write_model(dir.path(), "yajilin.toml", model);
    let svg = svg_of(&["solve", path.to_str().unwrap()]);
    assert_eq!(svg.matches("<polygon").count(), 4, "{svg}");
    for n in ["2", "0", "1", "3"] {
        assert!(svg.contains(&format!(">\n{n}\n</text>")), "{n} in {svg}");
    }
    let picture = Picture::of(&svg, (0.0, 0.0));
    keep_png(&picture.rendered, "numbered-arrows");
    // Each arrow and number in the layer's colour.
    for (r, c) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        let red = picture.colours_in((c as f64, r as f64), (c as f64 + 1.0, r as f64 + 1.0));
        assert!(red.iter().filter(|&&p| near(p, [0xc4, 0x30, 0x2b])).count() > 40, "{:?}", (r, c));
    }
}

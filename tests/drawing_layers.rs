//! Every shipped csp model drawn as its puzzle is drawn in print, by its
//! drawing table: golden SVGs of each model's `solve` (and of `steps
//! --upto 1` where it has steps), the pictures rendered with resvg, their
//! text included, and pixel checks that fail when a layer goes missing.
//!
//! With `SOMARIA_PNG_DIR` set, the rendered pictures are written there as
//! PNG files, for a person to look at.

use somaria::draw::svg::{CELL_PX, FLOOR, INK, ROUTES, SHADE};

mod common;

use common::cli::{assert_mentions, refused, run_json, somaria};
use common::pixels::{Rendered, rgb};

/// The SVG picture of `args`, whose exit code is 0 or 1.
fn svg_of(args: &[&str]) -> String {
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

/// The models whose `steps --upto 1` is drawn too: the puzzles that have
/// steps of one constraint (the others are searches, or too large to plan
/// in a test).
const STEPPED: [&str; 8] =
    ["killer-sudoku", "kenken", "nonogram-car", "skyscraper", "slitherlink", "sudoku-hardest", "takuzu", "zebra"];

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
        // The tour has two directions of one length, and the engines that
        // race for it find either.
        if name != "tsp-circuit" {
            insta::assert_snapshot!(format!("solve_{name}"), svg);
        }
    }
    for name in STEPPED {
        let path = format!("models/csp/{name}.toml");
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().to_str().unwrap();
        somaria().args(["steps", &path, "--upto", "1", "--format", "svg", "-o", out]).assert().code(0);
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

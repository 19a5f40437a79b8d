//! `somaria generate` on the forms a template may take and the options that
//! shape a puzzle: a byte-order mark and CRLF line endings are kept in
//! every kind's output (which loads and counts one solution), `--symmetry`
//! is applied where it has a meaning (1-D clue arrays, fans grids) and
//! refused where it has none, and fans grids keep the template's share of
//! fans and are never empty.

use crate::common;

use common::cli::{somaria, write_model};
use somaria::generate::{self, GenerateOptions, GenerateProgress, Generated, Symmetry};
use somaria::model::Source;
use somaria::puzzles::{self, CountOptions};

/// A 4 × 4 Sudoku with no givens, a design table and a design title (the
/// model has none of its own, so the title goes on a line of its own).
const SUDOKU4: &str = r#"kind = "csp"
show = ["cell"]

[params]
givens = [
  [0, 0, 0, 0],
  [0, 0, 0, 0],
  [0, 0, 0, 0],
  [0, 0, 0, 0],
]

[vars]
cell = { index = ["1..4", "1..4"], domain = "1..4" }

[[constraint]]
expr = 'forall(i, j in 1..4 where givens[i, j] > 0)(cell[i, j] = givens[i, j])'

[[constraint]]
expr = 'forall(i in 1..4)(alldifferent(row(cell, i)))'

[[constraint]]
expr = 'forall(j in 1..4)(alldifferent(col(cell, j)))'

[[constraint]]
expr = 'forall(r, c in 0..1)(alldifferent([cell[2 * r + i, 2 * c + j] | i, j in 1..2]))'

[design]
title = "Made Sudoku"

[[design.clue]]
param = "givens"
blank = 0
read = "cell"
"#;

fn fans_template() -> String {
    "kind = \"fans\"\ngrid = \"\"\"\nF....\n.....\n..F..\n.#...\nF...F\n\"\"\"\n[design]\ntitle = \"Made fans\"\n"
        .to_string()
}

fn tiles_template() -> String {
    "kind = \"tile-cover\"\nleave_uncovered = 0\ngrid = \"\"\"\nS....\n.....\n.....\n.....\n....#\n\"\"\"\n\
     [design]\ntitle = \"Made room\"\n"
        .to_string()
}

fn run(name: &str, text: &str, options: &GenerateOptions) -> Vec<Result<Generated, somaria::puzzles::Error>> {
    let designer = puzzles::designer(&Source::from_text(name, text)).unwrap();
    generate::generate(designer.as_ref(), options, &GenerateProgress::default()).unwrap()
}

fn count_text(text: &str) -> u64 {
    let puzzle = puzzles::load(&Source::from_text("g.toml", text)).unwrap();
    puzzle.count(&CountOptions::default()).unwrap().count
}

fn crlf(text: &str) -> String {
    text.replace('\n', "\r\n")
}

/// Whether every line of `text` ends in CRLF (and none in a lone LF).
fn all_crlf(text: &str) -> bool {
    text.match_indices('\n').all(|(at, _)| at > 0 && text.as_bytes()[at - 1] == b'\r')
}

#[test]
fn a_byte_order_mark_and_crlf_endings_are_kept_in_every_kinds_output() {
    for (name, template) in [("s.toml", SUDOKU4.to_string()), ("f.toml", fans_template()), ("r.toml", tiles_template())]
    {
        for (bom, windows) in [(true, false), (false, true), (true, true)] {
            let body = if windows { crlf(&template) } else { template.clone() };
            let text = if bom { format!("\u{feff}{body}") } else { body };
            let options = GenerateOptions { count: 2, seed: 5, ..GenerateOptions::default() };
            let made: Vec<Generated> = run(name, &text, &options)
                .into_iter()
                .map(|r| r.unwrap_or_else(|e| panic!("{name} (mark {bom}, CRLF {windows}): {e}")))
                .collect();
            assert_eq!(made.len(), 2);
            for puzzle in made {
                let model = &puzzle.model;
                assert_eq!(model.starts_with('\u{feff}'), bom, "{name}: the mark first, or none:\n{model}");
                assert_eq!(model.matches('\u{feff}').count(), usize::from(bom), "{name}: one mark at most");
                assert!(model.trim_start_matches('\u{feff}').starts_with("# Made by"), "{name}: the header first");
                if windows {
                    assert!(all_crlf(model), "{name}: every line ends in CRLF:\n{model:?}");
                } else {
                    assert!(!model.contains('\r'), "{name}: no CR in an LF template's output:\n{model:?}");
                }
                assert!(model.contains("title = \"Made"), "{name}: the design title:\n{model}");
                assert_eq!(count_text(model), 1, "{name}: {model}");
            }
        }
    }
}

/// The CLI writes the same bytes: a template with a mark and CRLF endings
/// gives a file that `count` reads as one solution.
#[test]
fn the_cli_writes_a_marked_crlf_template_s_puzzle_that_loads() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let template = write_model(dir, "t.toml", format!("\u{feff}{}", crlf(SUDOKU4)));
    let out = somaria().args(["generate", template.to_str().unwrap(), "--seed", "2"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with('\u{feff}') && all_crlf(&text));
    let made = write_model(dir, "made.toml", &text);
    let out = somaria().args(["count", made.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A grid's rows from a fans model's text.
fn fans_grid(model: &str) -> Vec<Vec<char>> {
    let table: toml::Table = toml::from_str(model.trim_start_matches('\u{feff}')).unwrap();
    table["grid"].as_str().unwrap().trim().lines().map(|l| l.trim().chars().collect()).collect()
}

/// The orientations of a fans grid under which every weathercock is in
/// some fan's wind, by trying all 4^fans of them on the rules alone (the
/// wind runs to a wall or the edge, over fans and weathercocks).
fn fans_orientations(grid: &[Vec<char>]) -> usize {
    let (rows, cols) = (grid.len() as i64, grid[0].len() as i64);
    let fans: Vec<(i64, i64)> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .filter(|&(r, c)| grid[r as usize][c as usize] == 'F')
        .collect();
    let steps = [(-1, 0), (1, 0), (0, -1), (0, 1)];
    let mut found = 0;
    for code in 0..4usize.pow(fans.len() as u32) {
        let mut blown = vec![vec![false; cols as usize]; rows as usize];
        for (k, &(r, c)) in fans.iter().enumerate() {
            let (dr, dc) = steps[code / 4usize.pow(k as u32) % 4];
            let (mut r, mut c) = (r + dr, c + dc);
            while (0..rows).contains(&r) && (0..cols).contains(&c) && grid[r as usize][c as usize] != '#' {
                blown[r as usize][c as usize] = true;
                (r, c) = (r + dr, c + dc);
            }
        }
        let all = (0..rows as usize).all(|r| (0..cols as usize).all(|c| grid[r][c] != 'W' || blown[r][c]));
        found += usize::from(all);
    }
    found
}

const SHRINE: &str = include_str!("../../models/akh-vaquot.toml");

/// The shrine has six fans among twenty cells; puzzles drawn from it keep
/// six (a share drawn cell by cell kept the puzzles with fewer, which are
/// easier to make unique: a mean of 3.4), and none is empty.
#[test]
fn fans_puzzles_keep_the_templates_fans_and_are_never_empty() {
    for template in [SHRINE.to_string(), fans_template()] {
        let wanted = fans_grid(&template).iter().flatten().filter(|&&c| c == 'F').count();
        let options = GenerateOptions { count: 40, seed: 9, ..GenerateOptions::default() };
        let made: Vec<Generated> = run("f.toml", &template, &options).into_iter().flatten().collect();
        assert!(made.len() >= 36, "most puzzles are made: {} of 40", made.len());
        let mut fans_in_all = 0;
        for puzzle in &made {
            let grid = fans_grid(&puzzle.model);
            let count = |kind: char| grid.iter().flatten().filter(|&&c| c == kind).count();
            assert!(count('F') > 0 && count('W') > 0, "an empty puzzle:\n{}", puzzle.model);
            assert_eq!(fans_orientations(&grid), 1, "one orientation by brute force:\n{}", puzzle.model);
            fans_in_all += count('F');
        }
        let mean = fans_in_all as f64 / made.len() as f64;
        assert!(mean > wanted as f64 - 0.5, "a mean of {mean} fans where the template has {wanted}");
    }
}

#[test]
fn a_fans_template_with_no_fan_or_no_room_for_a_weathercock_is_refused() {
    for grid in ["W..\n...\n", "F#\n#F\n"] {
        let dir = tempfile::tempdir().unwrap();
        let text = format!("kind = \"fans\"\ngrid = \"\"\"\n{grid}\"\"\"\n");
        let template = write_model(dir.path(), "t.toml", text);
        let out = somaria().args(["generate", template.to_str().unwrap()]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("t.toml:2") && stderr.contains("a puzzle needs a fan and a weathercock"), "{stderr}");
    }
}

/// Whether `cells` (row by row) look the same under `symmetry`'s map.
fn symmetric(cells: &[Vec<char>], symmetry: Symmetry, same: impl Fn(char, char) -> bool) -> bool {
    let (rows, cols) = (cells.len(), cells[0].len());
    (0..rows).all(|r| {
        (0..cols).all(|c| {
            let (ir, ic) = match symmetry {
                Symmetry::Rot180 => (rows - 1 - r, cols - 1 - c),
                _ => (r, cols - 1 - c),
            };
            same(cells[r][c], cells[ir][ic])
        })
    })
}

/// Fans grids drawn symmetric: fans, walls and weathercocks sit on each
/// other's images.
#[test]
fn symmetric_fans_grids_have_symmetric_fans_walls_and_weathercocks() {
    for symmetry in [Symmetry::Rot180, Symmetry::Mirror] {
        for template in [SHRINE.to_string(), fans_template()] {
            let options = GenerateOptions { count: 8, seed: 4, symmetry, ..GenerateOptions::default() };
            let made: Vec<Generated> = run("f.toml", &template, &options).into_iter().flatten().collect();
            assert!(made.len() >= 6, "{symmetry:?}: {} of 8 made", made.len());
            for puzzle in &made {
                let grid = fans_grid(&puzzle.model);
                assert!(symmetric(&grid, symmetry, |a, b| a == b), "{symmetry:?}:\n{}", puzzle.model);
                assert_eq!(fans_orientations(&grid), 1, "{}", puzzle.model);
            }
        }
    }
}

/// A permutation of 1..6 with its values as a 1-D clue array.
const ROW6: &str = r#"kind = "csp"
[params]
c = [0, 0, 0, 0, 0, 0]
[vars]
x = { index = ["1..6"], domain = "1..6" }
[[constraint]]
expr = 'alldifferent(x)'
[[constraint]]
expr = 'forall(i in 1..6 where c[i] > 0)(x[i] = c[i])'
[[constraint]]
expr = 'x[1] < x[6] /\ x[2] < x[5]'
[[design.clue]]
param = "c"
blank = 0
read = "x"
"#;

/// A 1-D clue array is a row: `rot180` and `mirror` both keep its clues in
/// pairs from the two ends.
#[test]
fn a_one_dimensional_clue_array_keeps_its_clues_in_pairs_from_the_ends() {
    for symmetry in [Symmetry::Rot180, Symmetry::Mirror] {
        let options = GenerateOptions { count: 12, seed: 3, symmetry, ..GenerateOptions::default() };
        let made: Vec<Generated> = run("row.toml", ROW6, &options).into_iter().map(Result::unwrap).collect();
        for puzzle in &made {
            let table: toml::Table = toml::from_str(&puzzle.model).unwrap();
            let clues: Vec<i64> =
                table["params"]["c"].as_array().unwrap().iter().map(|v| v.as_integer().unwrap()).collect();
            assert!((0..6).all(|k| (clues[k] > 0) == (clues[5 - k] > 0)), "{symmetry:?}: {clues:?}");
            assert_eq!(count_text(&puzzle.model), 1);
        }
    }
}

/// Tile-cover rooms and keys-and-doors vaults have no symmetric form:
/// `--symmetry` is refused, exit 2, rather than ignored.
#[test]
fn symmetry_is_refused_where_the_kind_has_no_symmetric_form() {
    let vault = "kind = \"keys-doors\"\ngrid = \"\"\"\n@....\n.....\n..a..\n.....\n....A\n\"\"\"\n";
    for (text, says) in [(tiles_template(), "tile-cover room"), (vault.to_string(), "vault")] {
        for symmetry in ["rot180", "mirror"] {
            let dir = tempfile::tempdir().unwrap();
            let template = write_model(dir.path(), "t.toml", &text);
            let out =
                somaria().args(["generate", template.to_str().unwrap(), "--symmetry", symmetry]).output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{stderr}");
            assert!(stderr.contains(&format!("--symmetry {symmetry}")) && stderr.contains(says), "{stderr}");
            assert!(out.stdout.is_empty());
        }
    }
}

/// The exit code says whose the failure is: a design whose `read`
/// disagrees with the constraints is the template's fault (exit 2, with the
/// file named); a template whose clues can never make a unique puzzle is an
/// outcome, like "no solution" (exit 1); a sound template makes its
/// puzzles (exit 0).
#[test]
fn generate_exits_2_on_a_read_that_disagrees_and_1_on_a_puzzle_not_made() {
    let dir = tempfile::tempdir().unwrap();
    let sound = write_model(dir.path(), "sound.toml", SUDOKU4);
    // Each given reads one more than the cell's value: the clues read off
    // a solution rule it out (and 4 + 1 is no value at all).
    let wrong = write_model(
        dir.path(),
        "wrong.toml",
        SUDOKU4.replace("read = \"cell\"", "read = \"array2d(1..4, 1..4, [cell[i, j] mod 4 + 1 | i, j in 1..4])\""),
    );
    // A clue array that reads nothing the constraints use: no drawn clue
    // set ever makes the puzzle unique.
    let never = write_model(
        dir.path(),
        "never.toml",
        SUDOKU4.replace("read = \"cell\"", "read = \"array2d(1..4, 1..4, [0 | i, j in 1..4])\""),
    );
    for (template, code, said) in [
        (&sound, 0, ""),
        (&wrong, 2, "wrong.toml: the clues read off a solution rule that solution out"),
        (&never, 1, "never.toml: puzzle 0 not made in"),
    ] {
        let out =
            somaria().args(["generate", template.to_str().unwrap(), "--count", "1", "--seed", "4"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{}: {stderr}", template.display());
        assert!(stderr.contains(said), "{}: {stderr}", template.display());
    }
}

//! Model texts, built from grids or mutated byte by byte to fuzz the
//! loader; models loaded and counted in the library rather than through the
//! binary; and the comparisons the csp suites evaluate by hand.

use somaria::model::Source;
use somaria::puzzles::{self, CountOptions, Puzzle, SolveOptions, Status};

/// Grid rows as the text of a model's `grid`, a line a row.
pub fn grid_text(rows: &[Vec<char>]) -> String {
    rows.iter().map(|r| r.iter().collect::<String>()).collect::<Vec<_>>().join("\n")
}

/// A tile-cover model of the room `grid` that may leave `k` tiles uncovered.
pub fn tile_cover_model(grid: &str, k: usize) -> String {
    format!("kind = \"tile-cover\"\nleave_uncovered = {k}\ngrid = \"\"\"\n{grid}\n\"\"\"\n")
}

/// A 4 × 4 slitherlink as a csp model: one loop along the grid lines
/// (`grid_loop`, named "one loop"), each clue of `clues` (rows in
/// MiniZinc's `[| .. |]` form, -1 for none) counting the loop's steps
/// around its cell.
pub fn slitherlink_4x4(clues: &str) -> String {
    format!(
        r#"kind = "csp"
show = ["across", "down"]
[params]
clue = """{clues}"""
[vars]
on = {{ index = ["0..4", "0..4"], domain = "bool" }}
across = {{ index = ["0..4", "0..3"], domain = "bool" }}
down = {{ index = ["0..3", "0..4"], domain = "bool" }}
[[constraint]]
name = "one loop"
expr = 'grid_loop(on, across, down)'
[[constraint]]
name = "clues"
expr = """forall(i in 1..4, j in 1..4 where clue[i, j] >= 0)(
  bool2int(across[i-1, j-1]) + bool2int(across[i, j-1]) + bool2int(down[i-1, j-1]) + bool2int(down[i-1, j]) = clue[i, j])"""
"#
    )
}

/// The variables and constraints of a 4 × 4 Sudoku, after a `[params]`
/// table that gives its `givens` (0 for none): the givens, then the houses
/// "each row", "each column" and "each box" that hint tables name.
pub const SUDOKU_4X4_RULES: &str = r#"[vars]
cell = { index = ["1..4", "1..4"], domain = "1..4" }
[[constraint]]
name = "the givens"
expr = 'forall(i, j in 1..4 where givens[i, j] > 0)(cell[i, j] = givens[i, j])'
[[constraint]]
name = "each row"
expr = 'forall(i in 1..4)(alldifferent(row(cell, i)))'
[[constraint]]
name = "each column"
expr = 'forall(j in 1..4)(alldifferent(col(cell, j)))'
[[constraint]]
name = "each box"
expr = 'forall(r, c in 0..1)(alldifferent([cell[2 * r + i, 2 * c + j] | i, j in 1..2]))'
"#;

/// A fans model of the grid `grid`.
pub fn fans_model(grid: &str) -> String {
    format!("kind = \"fans\"\ngrid = \"\"\"\n{grid}\n\"\"\"\n")
}

/// The grid of a model file, read with the toml crate rather than somaria:
/// its non-blank lines, trimmed.
pub fn grid_of(path: &str) -> Vec<Vec<char>> {
    let table: toml::Table = std::fs::read_to_string(path).unwrap().parse().unwrap();
    table["grid"]
        .as_str()
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim().chars().collect())
        .collect()
}

/// The model `text`, loaded; panics showing the error and the text.
pub fn load_text(text: &str) -> Box<dyn Puzzle> {
    puzzles::load(&Source::from_text("model.toml", text)).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Counts and solves the model `text` with each of `engines`: every count
/// is `expected` and complete, and every verdict says a solution exists
/// exactly when `expected` is above zero. For the brute-force suites.
pub fn engines_count_as(puzzle: &dyn Puzzle, text: &str, engines: &[&str], expected: u64) {
    for &engine in engines {
        let options = CountOptions { engine: Some(engine.to_string()), ..Default::default() };
        let counted = puzzle.count(&options).unwrap_or_else(|e| panic!("{engine}: {e}\n{text}"));
        assert_eq!((counted.count, counted.complete), (expected, true), "count with {engine}\n{text}");
        let solved = puzzle.solve(&SolveOptions { engine: Some(engine.to_string()), ..Default::default() }).unwrap();
        let status = if expected > 0 { Status::Solved } else { Status::NoSolution };
        assert_eq!(solved.status, status, "solve with {engine}\n{text}");
    }
}

/// The model file at `path`, loaded; panics showing the error.
pub fn load_file(path: &str) -> Box<dyn Puzzle> {
    puzzles::load_file(path.as_ref()).unwrap_or_else(|e| panic!("{e}"))
}

/// Every solution, counted to the end with `engine` (the default when
/// `None`).
pub fn count(puzzle: &dyn Puzzle, engine: Option<&str>) -> u64 {
    let report = puzzle.count(&CountOptions { engine: engine.map(String::from), ..Default::default() }).unwrap();
    assert!(report.complete, "the count finished");
    report.count
}

/// Whether `lhs rel rhs` holds for one of the comparisons `=`, `!=`, `<`,
/// `<=`, `>` and `>=` (any other `rel` is taken as `>=`).
pub fn relation_holds(rel: &str, lhs: i64, rhs: i64) -> bool {
    match rel {
        "=" => lhs == rhs,
        "!=" => lhs != rhs,
        "<" => lhs < rhs,
        "<=" => lhs <= rhs,
        ">" => lhs > rhs,
        _ => lhs >= rhs,
    }
}

/// The grid as a csp 2-d array literal, `[[a, b], [c, d]]`, each cell
/// written as the number `code` gives it.
pub fn csp_array(rows: &[Vec<char>], code: impl Fn(char) -> i64) -> String {
    let rows: Vec<String> = rows
        .iter()
        .map(|r| format!("[{}]", r.iter().map(|&c| code(c).to_string()).collect::<Vec<_>>().join(", ")))
        .collect();
    format!("[{}]", rows.join(", "))
}

/// `text` after the byte edits `(at, kind, byte)` in turn: by `kind` modulo
/// 3, set the byte at `at` (modulo the length) to `byte`, insert `byte`
/// there, or remove the byte there; an empty text only grows.
pub fn mutate(text: &str, edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for &(at, kind, byte) in edits {
        if bytes.is_empty() {
            bytes.push(byte);
            continue;
        }
        let at = at % bytes.len();
        match kind % 3 {
            0 => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            _ => {
                bytes.remove(at);
            }
        }
    }
    bytes
}

/// Cases for each property that fuzzes the loader: 3,000, or
/// `SOMARIA_FUZZ_CASES` for a longer run (see the book's tests page).
pub fn fuzz_cases() -> u32 {
    std::env::var("SOMARIA_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(3000)
}

//! The slitherlink models shipped under `models/csp/`: each is solved
//! through the library, and the answer is checked here against
//! slitherlink's own rules, read from nothing but the model's clue table
//! (through the `toml` crate) and the solution's step arrays: the steps
//! form one closed loop along the edges of the corner lattice, never
//! branching or touching itself, and each clue is the number of the loop's
//! steps around its cell. Nothing here uses somaria's encoding or its
//! checks. Each model must also have exactly one solution.

use std::path::PathBuf;

use somaria::puzzles::{self, CountOptions, SolveOptions, Status};

/// The slitherlink models shipped.
fn models() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/csp");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "toml")
                && p.file_name().unwrap().to_string_lossy().starts_with("slitherlink")
        })
        .collect();
    found.sort();
    found
}

/// The clue table of a model: the `clue` param, a MiniZinc 2-D array
/// literal `[| a, b | c, d |]`, -1 where a cell has no clue.
fn clues(path: &PathBuf) -> Vec<Vec<i64>> {
    let text = std::fs::read_to_string(path).unwrap();
    let file: toml::Table = toml::from_str(&text).unwrap();
    let table = file["params"]["clue"].as_str().expect("a `clue` param as a string");
    let inner = table.trim().strip_prefix("[|").and_then(|t| t.strip_suffix("|]")).expect("a [| .. |] table");
    inner
        .split('|')
        .map(|row| row.split(',').map(|v| v.trim().parse::<i64>().expect("an integer clue")).collect())
        .collect()
}

/// A 2-D array of Booleans from a solution's JSON, checked to be
/// `rows` × `cols`.
fn booleans(value: &serde_json::Value, rows: usize, cols: usize) -> Vec<Vec<bool>> {
    let grid: Vec<Vec<bool>> = value
        .as_array()
        .expect("a 2-D array")
        .iter()
        .map(|row| row.as_array().expect("a row").iter().map(|b| b.as_bool().expect("a Boolean")).collect())
        .collect();
    assert_eq!(grid.len(), rows);
    assert!(grid.iter().all(|row| row.len() == cols), "rows of {cols}");
    grid
}

/// Whether `across` ((n + 1) × m) and `down` (n × (m + 1)), the steps of a
/// loop on the corners of an n × m grid of cells, solve the clues; the
/// reason why not otherwise.
fn check_slitherlink(clues: &[Vec<i64>], across: &[Vec<bool>], down: &[Vec<bool>]) -> Result<(), String> {
    let (n, m) = (clues.len(), clues[0].len());
    // Every corner's steps, as the corners they lead to.
    let mut next = vec![vec![Vec::new(); m + 1]; n + 1];
    let mut steps = 0;
    for i in 0..=n {
        for j in 0..=m {
            if j < m && across[i][j] {
                next[i][j].push((i, j + 1));
                next[i][j + 1].push((i, j));
                steps += 1;
            }
            if i < n && down[i][j] {
                next[i][j].push((i + 1, j));
                next[i + 1][j].push((i, j));
                steps += 1;
            }
        }
    }
    for (i, row) in next.iter().enumerate() {
        for (j, corner) in row.iter().enumerate() {
            if !matches!(corner.len(), 0 | 2) {
                return Err(format!("corner ({i}, {j}) has {} steps", corner.len()));
            }
        }
    }
    // Walk the loop from its first corner: it must take every step.
    let start =
        (0..=n).flat_map(|i| (0..=m).map(move |j| (i, j))).find(|&(i, j)| !next[i][j].is_empty()).ok_or("no loop")?;
    let (mut previous, mut here) = (start, next[start.0][start.1][0]);
    let mut walked = 1;
    while here != start {
        let options = &next[here.0][here.1];
        let onward = if options[0] == previous { options[1] } else { options[0] };
        (previous, here) = (here, onward);
        walked += 1;
        if walked > steps {
            return Err("the walk does not close".to_string());
        }
    }
    if walked != steps {
        return Err(format!("the loop takes {walked} of the {steps} steps: there are several loops"));
    }
    for (i, row) in clues.iter().enumerate() {
        for (j, &clue) in row.iter().enumerate() {
            let around = [across[i][j], across[i + 1][j], down[i][j], down[i][j + 1]].iter().filter(|&&b| b).count();
            if clue >= 0 && around as i64 != clue {
                return Err(format!("cell ({}, {}) has the clue {clue} but {around} steps around it", i + 1, j + 1));
            }
        }
    }
    Ok(())
}

#[test]
fn the_checker_knows_slitherlink() {
    // A 2 x 2 grid of cells: the loop around cell (1, 1) alone.
    let clues = vec![vec![4, 1], vec![1, 0]];
    let across = vec![vec![true, false], vec![true, false], vec![false, false]];
    let down = vec![vec![true, true, false], vec![false, false, false]];
    assert_eq!(check_slitherlink(&clues, &across, &down), Ok(()));
    // A wrong clue.
    let wrong = vec![vec![4, 2], vec![1, 0]];
    assert!(check_slitherlink(&wrong, &across, &down).unwrap_err().contains("cell (1, 2)"));
    // Two loops: around cells (1, 1) and (2, 2), touching at a corner.
    let across2 = vec![vec![true, false], vec![true, true], vec![false, true]];
    let down2 = vec![vec![true, true, false], vec![false, true, true]];
    let none = vec![vec![-1, -1], vec![-1, -1]];
    assert!(check_slitherlink(&none, &across2, &down2).unwrap_err().contains("corner (1, 1) has 4 steps"));
    // Two loops apart: around cells (1, 1) and (1, 3) of a 1 x 3 grid.
    let across3 = vec![vec![true, false, true], vec![true, false, true]];
    let down3 = vec![vec![true, true, true, true]];
    assert!(check_slitherlink(&[vec![-1; 3]], &across3, &down3).unwrap_err().contains("several loops"));
    // A branch.
    let down4 = vec![vec![true, true, true, false]];
    let across4 = vec![vec![true, true, false], vec![true, true, false]];
    assert!(check_slitherlink(&[vec![-1; 3]], &across4, &down4).unwrap_err().contains("has 3 steps"));
}

#[test]
fn every_shipped_slitherlink_has_one_answer_that_keeps_the_rules() {
    let models = models();
    assert!(models.len() >= 2, "the 10 x 10 and the 20 x 20: {models:?}");
    for path in models {
        let name = path.display().to_string();
        let clues = clues(&path);
        let (n, m) = (clues.len(), clues[0].len());
        assert!(clues.iter().all(|row| row.len() == m), "{name}: a rectangular clue table");
        let puzzle = puzzles::load_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let solved = puzzle.solve(&SolveOptions::default()).unwrap();
        assert_eq!(solved.status, Status::Solved, "{name}");
        let json = &solved.solution.expect("a solution").json;
        let across = booleans(&json["across"], n + 1, m);
        let down = booleans(&json["down"], n, m + 1);
        if let Err(why) = check_slitherlink(&clues, &across, &down) {
            panic!("{name}: {why}");
        }
        let counted = puzzle.count(&CountOptions { limit: Some(2), ..Default::default() }).unwrap();
        assert_eq!(counted.count, 1, "{name}: exactly one solution");
        assert!(counted.complete, "{name}");
    }
}

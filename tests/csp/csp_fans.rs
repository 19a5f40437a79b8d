//! Random fan grids written as csp models, with the wind rule stated in
//! MiniZinc over the grid as a parameter, count the same as the fans family
//! on every engine.

use proptest::prelude::*;

use crate::common;

use common::fans::small_grid;
use common::models::{count, csp_array, fans_model, grid_text, load_file, load_text};

/// The fans rule as a csp model over `grid` (0 floor, 1 fan, 2 weathercock,
/// 3 wall): a weathercock spins when some fan in its row or column blows
/// towards it with no wall between. Cells without a fan point up, so only
/// fans' directions are counted.
const RULE: &str = r#"
[enums]
Dir = ["up", "down", "left", "right"]

[vars]
dir = { index = ["1..rows", "1..cols"], domain = "Dir" }

[[constraint]]
name = "cells without a fan point up"
expr = 'forall(r in 1..rows, c in 1..cols where grid[r, c] != 1)(dir[r, c] = up)'

[[constraint]]
name = "weathercock spins"
expr = '''
forall(r in 1..rows, c in 1..cols where grid[r, c] = 2)(
     exists(k in 1..c - 1 where grid[r, k] = 1 /\ forall(m in k + 1..c - 1)(grid[r, m] != 3))(dir[r, k] = right)
  \/ exists(k in c + 1..cols where grid[r, k] = 1 /\ forall(m in c + 1..k - 1)(grid[r, m] != 3))(dir[r, k] = left)
  \/ exists(k in 1..r - 1 where grid[k, c] = 1 /\ not exists(m in k + 1..r - 1)(grid[m, c] = 3))(dir[k, c] = down)
  \/ exists(k in r + 1..rows where grid[k, c] = 1 /\ not exists(m in r + 1..k - 1)(grid[m, c] = 3))(dir[k, c] = up)
)
'''
"#;

fn csp_model(rows: &[Vec<char>]) -> String {
    let code = |c: char| match c {
        'F' => 1,
        'W' => 2,
        '#' => 3,
        _ => 0,
    };
    format!(
        "kind = \"csp\"\n\n[params]\nrows = {}\ncols = {}\ngrid = {}\n{RULE}",
        rows.len(),
        rows[0].len(),
        csp_array(rows, code)
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn csp_models_of_fan_grids_count_like_the_fans_family(rows in small_grid()) {
        let fans = load_text(&fans_model(&grid_text(&rows)));
        let expected = count(fans.as_ref(), Some("sat"));
        let text = csp_model(&rows);
        let csp = load_text(&text);
        for engine in csp.engines() {
            prop_assert_eq!(count(csp.as_ref(), Some(engine)), expected, "{}\n{}", engine, text);
        }
    }
}

#[test]
fn the_shrine_grid_as_a_csp_model_is_unique_with_the_fans_answer() {
    let rows: Vec<Vec<char>> = ["FWWFW", "WWFWW", "WWWFW", "FWWWF"].iter().map(|r| r.chars().collect()).collect();
    let csp = load_text(&csp_model(&rows));
    assert_eq!(count(csp.as_ref(), Some("auto")), 1);
    let solved = csp.solve(&Default::default()).unwrap().solution.unwrap().json;
    let fans = load_file("models/akh-vaquot.toml");
    let expected = fans.solve(&Default::default()).unwrap().solution.unwrap().json;
    for fan in expected["fans"].as_array().unwrap() {
        let (r, c) = (fan["row"].as_u64().unwrap() as usize, fan["col"].as_u64().unwrap() as usize);
        assert_eq!(solved["dir"][r][c], fan["dir"], "fan at ({r}, {c})");
    }
}

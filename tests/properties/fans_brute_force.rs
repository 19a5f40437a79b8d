//! `count` and `solve` against an independent brute-force enumerator on
//! random small fan grids, and the grid form against the article's listing.

use proptest::prelude::*;
use somaria::puzzles::{CountOptions, SolveOptions, Status};

use crate::common;

use common::fans::small_grid;
use common::models::{fans_model, grid_text, load_text};

/// The wind rule, written afresh: a fan blows over every cell in its
/// direction until a wall or the edge.
fn brute_force_count(rows: &[Vec<char>]) -> u64 {
    let height = rows.len() as i64;
    let width = rows[0].len() as i64;
    let fans: Vec<(i64, i64)> = (0..height)
        .flat_map(|r| (0..width).map(move |c| (r, c)))
        .filter(|&(r, c)| rows[r as usize][c as usize] == 'F')
        .collect();
    let deltas = [(-1, 0), (1, 0), (0, -1), (0, 1)];
    let mut count = 0;
    for code in 0..4u64.pow(fans.len() as u32) {
        let mut blown = vec![vec![false; width as usize]; height as usize];
        let mut rest = code;
        for &(r, c) in &fans {
            let (dr, dc) = deltas[(rest % 4) as usize];
            rest /= 4;
            let (mut r, mut c) = (r + dr, c + dc);
            while (0..height).contains(&r) && (0..width).contains(&c) && rows[r as usize][c as usize] != '#' {
                blown[r as usize][c as usize] = true;
                r += dr;
                c += dc;
            }
        }
        let all_spin = (0..height as usize).all(|r| (0..width as usize).all(|c| rows[r][c] != 'W' || blown[r][c]));
        count += all_spin as u64;
    }
    count
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn count_and_solve_agree_with_brute_force(rows in small_grid()) {
        let expected = brute_force_count(&rows);
        let puzzle = load_text(&fans_model(&grid_text(&rows)));
        let counted = puzzle.count(&CountOptions::default()).unwrap();
        prop_assert!(counted.complete);
        prop_assert_eq!(counted.count, expected);
        let solved = puzzle.solve(&SolveOptions::default()).unwrap();
        prop_assert_eq!(solved.status == Status::Solved, expected > 0);
        if expected > 1 {
            let limited = puzzle.count(&CountOptions { limit: Some(1), ..Default::default() }).unwrap();
            prop_assert_eq!((limited.count, limited.complete), (1, false));
        }
    }
}

#[test]
fn the_generator_reaches_both_verdicts() {
    // Guards the property test against a strategy that only makes easy cases.
    let unsolvable = vec!["F#W".chars().collect::<Vec<_>>()];
    let many = vec!["F.F".chars().collect::<Vec<_>>()];
    assert_eq!(brute_force_count(&unsolvable), 0);
    assert_eq!(brute_force_count(&many), 16);
}

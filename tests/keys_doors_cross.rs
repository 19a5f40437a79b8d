//! Both keys-and-doors engines against a brute force written here, on random
//! small grids: the fewest steps, the number of shortest routes, and a
//! replay of every route printed.
//!
//! The brute force counts walks, not states: after t steps it knows how many
//! walks of exactly t moves end in each (cell, keys held), and the first t at
//! which some walk holds every key gives the fewest steps and, summed, the
//! number of shortest routes. It keeps keys as bits by letter ('a' = bit 0)
//! rather than the engines' packed numbering.
//!
//! The heavy variant runs 20,000 grids up to 7 × 7 with 5 keys:
//! `cargo test --release --test keys_doors_cross -- --ignored`.

use std::collections::HashMap;

use somaria::puzzles::keys_doors::KeysDoorsPuzzle;
use somaria::puzzles::{CountOptions, Puzzle, SolveOptions, Status};

/// xorshift64, so that every run sees the same grids.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A random grid of at most `max_rows` × `max_cols` with at most `max_keys`
/// keys of random (so often non-contiguous) letters, doors for some of them
/// and sometimes a door whose key is absent, and walls.
fn random_grid(rng: &mut Rng, max_rows: usize, max_cols: usize, max_keys: usize) -> Vec<Vec<char>> {
    let rows = 1 + rng.below(max_rows);
    let cols = if rows == 1 { 2 + rng.below(max_cols - 1) } else { 1 + rng.below(max_cols) };
    let mut grid = vec![vec!['.'; cols]; rows];
    for row in grid.iter_mut() {
        for cell in row.iter_mut() {
            if rng.below(100) < 22 {
                *cell = '#';
            }
        }
    }
    let mut free: Vec<(usize, usize)> = (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))).collect();
    let mut take = |rng: &mut Rng| (!free.is_empty()).then(|| free.swap_remove(rng.below(free.len())));
    let (r, c) = take(rng).expect("at least two cells");
    grid[r][c] = '@';
    let mut letters: Vec<char> = Vec::new();
    for _ in 0..rng.below(max_keys + 1) {
        let letter = (b'a' + rng.below(6) as u8) as char;
        if letters.contains(&letter) {
            continue;
        }
        let Some((r, c)) = take(rng) else { break };
        grid[r][c] = letter;
        letters.push(letter);
    }
    for _ in 0..rng.below(max_keys + 2) {
        let letter = match letters.len() {
            0 => 'z',
            _ if rng.below(5) == 0 => (b'a' + rng.below(6) as u8) as char,
            n => letters[rng.below(n)],
        };
        let Some((r, c)) = take(rng) else { break };
        grid[r][c] = letter.to_ascii_uppercase();
    }
    grid
}

fn picture(grid: &[Vec<char>]) -> String {
    grid.iter().map(|row| row.iter().collect::<String>()).collect::<Vec<_>>().join("\n")
}

fn bit(letter: char) -> u32 {
    1 << (letter.to_ascii_lowercase() as u32 - 'a' as u32)
}

/// The fewest steps and the number of shortest routes, by counting walks.
fn brute_force(grid: &[Vec<char>]) -> (Option<usize>, u128) {
    let (rows, cols) = (grid.len() as i64, grid[0].len() as i64);
    let wanted = grid.iter().flatten().filter(|c| c.is_ascii_lowercase()).fold(0, |m, &c| m | bit(c));
    if wanted == 0 {
        return (Some(0), 1);
    }
    let start =
        (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))).find(|&(r, c)| grid[r as usize][c as usize] == '@');
    let (r0, c0) = start.expect("a start");
    let mut walks: HashMap<(i64, i64, u32), u128> = HashMap::from([((r0, c0, 0), 1)]);
    // A shortest route never repeats a (cell, keys) state.
    let states = (rows * cols) as usize * (1usize << wanted.count_ones());
    // Walks that never finish can outgrow u128; only a finish needs exact counts.
    let mut overflowed = false;
    for steps in 1..=states {
        let mut next: HashMap<(i64, i64, u32), u128> = HashMap::new();
        for (&(r, c, held), &count) in &walks {
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (nr, nc) = (r + dr, c + dc);
                if nr < 0 || nc < 0 || nr >= rows || nc >= cols {
                    continue;
                }
                let symbol = grid[nr as usize][nc as usize];
                if symbol == '#' || (symbol.is_ascii_uppercase() && held & bit(symbol) == 0) {
                    continue;
                }
                let held = if symbol.is_ascii_lowercase() { held | bit(symbol) } else { held };
                let slot = next.entry((nr, nc, held)).or_insert(0);
                *slot = slot.checked_add(count).unwrap_or_else(|| {
                    overflowed = true;
                    u128::MAX
                });
            }
        }
        let finished: u128 = next.iter().filter(|((_, _, held), _)| *held == wanted).map(|(_, n)| n).sum();
        if finished > 0 {
            assert!(!overflowed, "walk counts overflowed before the finish");
            return (Some(steps), finished);
        }
        walks = next;
    }
    (None, 0)
}

/// Follows the moves of a solution's JSON and returns the steps taken,
/// refusing any move the rules forbid and a route that goes on after the
/// last key.
fn replay(grid: &[Vec<char>], moves: &[serde_json::Value]) -> Result<usize, String> {
    let wanted = grid.iter().flatten().filter(|c| c.is_ascii_lowercase()).fold(0, |m, &c| m | bit(c));
    let (mut r, mut c) = (0..grid.len())
        .flat_map(|r| (0..grid[0].len()).map(move |c| (r, c)))
        .find(|&(r, c)| grid[r][c] == '@')
        .ok_or("no start")?;
    let mut held = 0;
    for (i, m) in moves.iter().enumerate() {
        if held == wanted {
            return Err(format!("move {i} after the last key"));
        }
        let (nr, nc) = match m.as_str() {
            Some("up") => (r.wrapping_sub(1), c),
            Some("down") => (r + 1, c),
            Some("left") => (r, c.wrapping_sub(1)),
            Some("right") => (r, c + 1),
            other => return Err(format!("unknown move {other:?}")),
        };
        let symbol = *grid.get(nr).and_then(|row| row.get(nc)).ok_or(format!("move {i} leaves the grid"))?;
        if symbol == '#' || (symbol.is_ascii_uppercase() && held & bit(symbol) == 0) {
            return Err(format!("move {i} enters {symbol:?}"));
        }
        if symbol.is_ascii_lowercase() {
            held |= bit(symbol);
        }
        (r, c) = (nr, nc);
    }
    if held != wanted {
        return Err("keys left behind".to_string());
    }
    Ok(moves.len())
}

fn cross_check(grids: usize, max_rows: usize, max_cols: usize, max_keys: usize, seed: u64) {
    let mut rng = Rng(seed);
    let mut solved = 0;
    let mut several = 0;
    for _ in 0..grids {
        let grid = random_grid(&mut rng, max_rows, max_cols, max_keys);
        let text = picture(&grid);
        let puzzle = KeysDoorsPuzzle::from_picture(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let (steps, routes) = brute_force(&grid);
        for engine in ["bfs", "sat"] {
            let options = SolveOptions { engine: Some(engine.to_string()), skip_presolve: true, ..Default::default() };
            let report = puzzle.solve(&options).unwrap();
            match steps {
                Some(steps) => {
                    assert_eq!(report.status, Status::Solved, "{engine} on\n{text}");
                    assert_eq!(report.cost, Some(steps as u64), "{engine} on\n{text}");
                    let json = &report.solution.as_ref().unwrap().json;
                    assert_eq!(json["steps"], steps, "{engine} on\n{text}");
                    let moves = json["moves"].as_array().unwrap();
                    assert_eq!(replay(&grid, moves), Ok(steps), "{engine} on\n{text}");
                }
                None => assert_eq!(report.status, Status::NoSolution, "{engine} on\n{text}"),
            }
            let count = puzzle.count(&CountOptions { engine: Some(engine.to_string()), ..Default::default() }).unwrap();
            assert!(count.complete && !count.saturated);
            assert_eq!(u128::from(count.count), routes, "{engine} count on\n{text}");
        }
        solved += usize::from(steps.is_some());
        several += usize::from(routes > 1);
    }
    println!("{grids} grids: {solved} solvable, {several} with several shortest routes");
    // The random grids must exercise both verdicts and real counting.
    assert!(solved > grids / 4 && solved < grids, "{solved} of {grids} solvable");
    assert!(several > grids / 10, "only {several} grids with several shortest routes");
}

#[test]
fn engines_match_brute_force_on_1500_grids_up_to_4_by_5() {
    cross_check(1500, 4, 5, 3, 0x5eed_4b1d);
}

#[test]
fn engines_match_brute_force_on_300_grids_up_to_5_by_6() {
    cross_check(300, 5, 6, 4, 0xface);
}

#[test]
#[ignore = "tens of seconds; run with --ignored"]
fn engines_match_brute_force_on_20000_grids_up_to_7_by_7() {
    cross_check(20_000, 7, 7, 5, 0xdead_beef);
}

/// The walk counter itself, against an explicit enumeration of every move
/// sequence on tiny grids.
#[test]
fn brute_force_matches_explicit_enumeration_on_tiny_grids() {
    let mut rng = Rng(0x7e57);
    for _ in 0..150 {
        let grid = random_grid(&mut rng, 3, 3, 2);
        let (steps, routes) = brute_force(&grid);
        let mut found: Option<(usize, u128)> = None;
        for depth in 0..=10 {
            let mut sequences = 0u128;
            let mut moves = Vec::new();
            enumerate(&grid, depth, &mut moves, &mut sequences);
            if sequences > 0 {
                found = Some((depth, sequences));
                break;
            }
        }
        match (steps, found) {
            (Some(steps), Some((depth, sequences))) => {
                assert_eq!((steps, routes), (depth, sequences), "\n{}", picture(&grid))
            }
            (Some(steps), None) => assert!(steps > 10, "\n{}", picture(&grid)),
            (None, found) => assert_eq!(found, None, "\n{}", picture(&grid)),
        }
    }
}

/// Counts the move sequences of exactly `depth` moves that `replay` accepts.
fn enumerate(grid: &[Vec<char>], depth: usize, moves: &mut Vec<serde_json::Value>, count: &mut u128) {
    if moves.len() == depth {
        *count += u128::from(replay(grid, moves).is_ok());
        return;
    }
    for dir in ["up", "down", "left", "right"] {
        moves.push(dir.into());
        let prefix_ok = replay_prefix(grid, moves);
        if prefix_ok {
            enumerate(grid, depth, moves, count);
        }
        moves.pop();
    }
}

/// Whether a prefix breaks no rule so far (keys may still be missing).
fn replay_prefix(grid: &[Vec<char>], moves: &[serde_json::Value]) -> bool {
    match replay(grid, moves) {
        Ok(_) => true,
        Err(reason) => reason == "keys left behind",
    }
}

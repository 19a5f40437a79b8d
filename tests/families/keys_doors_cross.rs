//! Every keys-and-doors engine against a brute force written here, on random
//! small grids with one walker and with several: the fewest steps, the
//! number of shortest routes, and a replay of every route printed.
//!
//! The brute force counts walks over the joint state, not legs: after t
//! steps it knows how many move sequences of exactly t moves (a move is one
//! walker's step) end in each (cells of the walkers, keys held), and the
//! first t at which some sequence holds every key gives the fewest steps
//! and, summed, the number of shortest routes. It keeps keys as bits by
//! letter ('a' = bit 0) rather than the engines' packed numbering.
//!
//! The SAT engines run on the default backend for every grid and on the
//! others too for the grids `common::backends` picks (every fourth unless
//! `CADICAL_EVERY` says otherwise).
//!
//! The heavy variant runs 20,000 grids up to 7 × 7 with 5 keys:
//! `cargo test --release --test families -- --ignored keys_doors_cross::`.

use std::collections::HashMap;

use somaria::puzzles::keys_doors::KeysDoorsPuzzle;
use somaria::puzzles::{CountOptions, Puzzle, SolveOptions, Status};
use somaria::solver::{Backend, SolverConfig};

use crate::common;

use common::backends::backends_for;
use common::keys_doors::{moves_of, replay};

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
/// and sometimes a door whose key is absent, walls, and `walkers` starts
/// (fewer when the grid has no room for them).
fn random_grid_with(
    rng: &mut Rng,
    max_rows: usize,
    max_cols: usize,
    max_keys: usize,
    walkers: usize,
) -> Vec<Vec<char>> {
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
    for _ in 1..walkers {
        let Some((r, c)) = take(rng) else { break };
        grid[r][c] = '@';
    }
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

/// The fewest steps and the number of shortest routes, by counting move
/// sequences over the joint state of every walker.
fn brute_force(grid: &[Vec<char>]) -> (Option<usize>, u128) {
    let (rows, cols) = (grid.len() as i64, grid[0].len() as i64);
    let wanted = grid.iter().flatten().filter(|c| c.is_ascii_lowercase()).fold(0, |m, &c| m | bit(c));
    if wanted == 0 {
        return (Some(0), 1);
    }
    let starts: Vec<(i64, i64)> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .filter(|&(r, c)| grid[r as usize][c as usize] == '@')
        .collect();
    let mut walks: HashMap<(Vec<(i64, i64)>, u32), u128> = HashMap::from([((starts.clone(), 0), 1)]);
    // A shortest route never repeats a joint state.
    let cells = (rows * cols) as usize;
    let states = cells.pow(starts.len() as u32) * (1usize << wanted.count_ones());
    // Walks that never finish can outgrow u128; only a finish needs exact counts.
    let mut overflowed = false;
    for steps in 1..=states {
        let mut next: HashMap<(Vec<(i64, i64)>, u32), u128> = HashMap::new();
        for ((at, held), &count) in &walks {
            for walker in 0..at.len() {
                let (r, c) = at[walker];
                for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    let (nr, nc) = (r + dr, c + dc);
                    if nr < 0 || nc < 0 || nr >= rows || nc >= cols {
                        continue;
                    }
                    let symbol = grid[nr as usize][nc as usize];
                    if symbol == '#' || (symbol.is_ascii_uppercase() && held & bit(symbol) == 0) {
                        continue;
                    }
                    let held = if symbol.is_ascii_lowercase() { held | bit(symbol) } else { *held };
                    let mut moved = at.clone();
                    moved[walker] = (nr, nc);
                    let slot = next.entry((moved, held)).or_insert(0);
                    *slot = slot.checked_add(count).unwrap_or_else(|| {
                        overflowed = true;
                        u128::MAX
                    });
                }
            }
        }
        let finished: u128 = next.iter().filter(|((_, held), _)| *held == wanted).map(|(_, n)| n).sum();
        if finished > 0 {
            assert!(!overflowed, "walk counts overflowed before the finish");
            return (Some(steps), finished);
        }
        if next.is_empty() {
            return (None, 0);
        }
        walks = next;
    }
    (None, 0)
}

const ENGINES: [&str; 4] = ["keygraph", "bfs", "sat-keys", "sat"];

/// Every engine on the default backend, and the SAT engines on the other
/// backends too for the cases `backends_for` picks.
fn engines_and_backends(case: u64) -> impl Iterator<Item = (&'static str, Backend)> {
    ENGINES.into_iter().flat_map(move |engine| {
        let backends = if engine.starts_with("sat") { backends_for(case) } else { vec![Backend::default()] };
        backends.into_iter().map(move |backend| (engine, backend))
    })
}

/// Runs every engine on `grids` random grids against the brute force and
/// returns how many were solvable and how many had several shortest routes.
fn cross_check(
    grids: usize,
    max_rows: usize,
    max_cols: usize,
    max_keys: usize,
    walkers: usize,
    seed: u64,
) -> (usize, usize) {
    let mut rng = Rng(seed);
    let mut solved = 0;
    let mut several = 0;
    for case in 0..grids {
        let grid = random_grid_with(&mut rng, max_rows, max_cols, max_keys, walkers);
        let text = picture(&grid);
        let puzzle = KeysDoorsPuzzle::from_picture(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let one_walker = puzzle.starts().len() == 1;
        let (steps, routes) = brute_force(&grid);
        for (engine, backend) in engines_and_backends(case as u64) {
            let solver = SolverConfig { backend, ..Default::default() };
            let options = SolveOptions {
                engine: Some(engine.to_string()),
                skip_presolve: true,
                solver: solver.clone(),
                ..Default::default()
            };
            let report = puzzle.solve(&options).unwrap();
            match steps {
                Some(steps) => {
                    assert_eq!(report.status, Status::Solved, "{engine} on {backend:?}:\n{text}");
                    assert_eq!(report.cost, Some(steps as u64), "{engine} on {backend:?}:\n{text}");
                    let json = &report.solution.as_ref().unwrap().json;
                    assert_eq!(json["steps"], steps, "{engine} on {backend:?}:\n{text}");
                    let moves = moves_of(json);
                    assert_eq!(
                        replay(&grid, &moves).map(|_| moves.len()),
                        Ok(steps),
                        "{engine} on {backend:?}:\n{text}"
                    );
                }
                None => assert_eq!(report.status, Status::NoSolution, "{engine} on {backend:?}:\n{text}"),
            }
            let count_options = CountOptions { engine: Some(engine.to_string()), solver, ..Default::default() };
            // Whole-leg engines refuse to count several walkers' interleavings.
            if !one_walker && matches!(engine, "keygraph" | "sat-keys") {
                assert!(puzzle.count(&count_options).is_err(), "{engine} should refuse on\n{text}");
                continue;
            }
            let count = puzzle.count(&count_options).unwrap();
            assert!(count.complete && !count.saturated);
            assert_eq!(u128::from(count.count), routes, "{engine} on {backend:?}: count on\n{text}");
        }
        solved += usize::from(steps.is_some());
        several += usize::from(routes > 1);
    }
    println!("{grids} grids: {solved} solvable, {several} with several shortest routes");
    (solved, several)
}

/// The random grids must exercise both verdicts and real counting.
fn assert_varied((solved, several): (usize, usize), grids: usize) {
    assert!(solved > grids / 4 && solved < grids, "{solved} of {grids} solvable");
    assert!(several > grids / 10, "only {several} grids with several shortest routes");
}

#[test]
fn engines_match_brute_force_on_1500_grids_up_to_4_by_5() {
    assert_varied(cross_check(1500, 4, 5, 3, 1, 0x5eed_4b1d), 1500);
}

#[test]
fn engines_match_brute_force_on_300_grids_up_to_5_by_6() {
    assert_varied(cross_check(300, 5, 6, 4, 1, 0xface), 300);
}

#[test]
fn engines_match_the_joint_brute_force_on_300_grids_with_two_walkers() {
    assert_varied(cross_check(300, 4, 5, 3, 2, 0x2_3a1c), 300);
}

#[test]
fn engines_match_the_joint_brute_force_on_150_grids_with_three_or_four_walkers() {
    let (three, three_several) = cross_check(100, 4, 4, 3, 3, 0x3_3a1c);
    let (four, four_several) = cross_check(50, 3, 5, 3, 4, 0x4_3a1c);
    assert_varied((three + four, three_several + four_several), 150);
}

#[test]
#[ignore = "minutes; run with --ignored"]
fn engines_match_brute_force_on_20000_grids_up_to_7_by_7() {
    assert_varied(cross_check(20_000, 7, 7, 5, 1, 0xdead_beef), 20_000);
    assert_varied(cross_check(2_000, 5, 5, 4, 2, 0xbeef), 2_000);
}

/// The walk counter itself, against an explicit enumeration of every move
/// sequence on tiny grids, with one walker and with two.
#[test]
fn brute_force_matches_explicit_enumeration_on_tiny_grids() {
    let mut rng = Rng(0x7e57);
    for round in 0..200 {
        let grid = random_grid_with(&mut rng, 3, 3, 2, 1 + round % 2);
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
fn enumerate(grid: &[Vec<char>], depth: usize, moves: &mut Vec<(usize, serde_json::Value)>, count: &mut u128) {
    if moves.len() == depth {
        *count += u128::from(replay(grid, moves).is_ok());
        return;
    }
    let walkers = grid.iter().flatten().filter(|&&c| c == '@').count();
    for walker in 0..walkers {
        for dir in ["up", "down", "left", "right"] {
            moves.push((walker, dir.into()));
            let prefix_ok = replay_prefix(grid, moves);
            if prefix_ok {
                enumerate(grid, depth, moves, count);
            }
            moves.pop();
        }
    }
}

/// Whether a prefix breaks no rule so far (keys may still be missing).
fn replay_prefix(grid: &[Vec<char>], moves: &[(usize, serde_json::Value)]) -> bool {
    match replay(grid, moves) {
        Ok(_) => true,
        Err(reason) => reason == "keys left behind",
    }
}

/// Mazes with loops and many keys, where legs have several Pareto ways
/// round doors and keys and shortest routes number in the millions:
/// keygraph's steps and counts against bfs.
#[test]
fn keygraph_matches_bfs_on_loopy_mazes_with_14_keys() {
    use somaria::puzzles::keys_doors::maze;
    for seed in 1..=4 {
        let puzzle = KeysDoorsPuzzle::from_picture(&maze::generate(31, 31, 14, 30, seed).unwrap()).unwrap();
        let mut answers = Vec::new();
        for engine in ["keygraph", "bfs"] {
            let solved = puzzle.solve(&SolveOptions { engine: Some(engine.into()), ..Default::default() }).unwrap();
            let counted = puzzle.count(&CountOptions { engine: Some(engine.into()), ..Default::default() }).unwrap();
            answers.push((solved.cost, counted.count, counted.saturated));
        }
        assert_eq!(answers[0], answers[1], "seed {seed}");
        assert!(answers[0].1 > 1, "seed {seed}: a single shortest route does not test the counting");
    }
}

/// Steps, routes and a replay of sat-keys' route against bfs and keygraph.
fn sat_keys_agrees(puzzle: &KeysDoorsPuzzle, text: &str, count: bool) {
    let grid: Vec<Vec<char>> = text.lines().map(|line| line.chars().collect()).collect();
    let mut answers = Vec::new();
    for engine in ["sat-keys", "keygraph", "bfs"] {
        let solved = puzzle.solve(&SolveOptions { engine: Some(engine.into()), ..Default::default() }).unwrap();
        let json = &solved.solution.as_ref().unwrap().json;
        let moves = moves_of(json);
        assert_eq!(replay(&grid, &moves).map(|_| moves.len() as u64), Ok(solved.cost.unwrap()), "{engine}\n{text}");
        let routes = count.then(|| {
            let counted = puzzle.count(&CountOptions { engine: Some(engine.into()), ..Default::default() }).unwrap();
            counted.count
        });
        answers.push((solved.cost, routes));
    }
    assert_eq!(answers[0], answers[1], "sat-keys against keygraph on\n{text}");
    assert_eq!(answers[0], answers[2], "sat-keys against bfs on\n{text}");
}

/// Small vaults of the generator's kind (mazes without loops, or with a
/// few, one door per key on the way to the next key): sat-keys, whose
/// floor over bridges is built for them, against bfs and keygraph.
#[test]
fn sat_keys_matches_bfs_and_keygraph_on_200_small_mazes_with_doors() {
    use somaria::puzzles::keys_doors::maze;
    for seed in 0..200u64 {
        let (rows, cols) = (7 + 2 * (seed as usize % 4), 9 + 2 * (seed as usize / 4 % 3));
        let keys = 2 + seed as usize % 7;
        let text = maze::generate(rows, cols, keys, seed as usize % 5 * 4, seed).unwrap();
        let puzzle = KeysDoorsPuzzle::from_picture(&text).unwrap();
        sat_keys_agrees(&puzzle, &text, true);
    }
}

/// One-walker 81×81 vaults with 26 keys from the generator
/// (`cargo run --release --example keys_doors_vault -- SEED`).
#[test]
fn sat_keys_matches_bfs_and_keygraph_on_81x81_vaults() {
    use somaria::puzzles::keys_doors::maze;
    for seed in [1, 2, 3, 5] {
        let text = maze::vault(seed, 1).unwrap();
        sat_keys_agrees(&KeysDoorsPuzzle::from_picture(&text).unwrap(), &text, false);
    }
}

/// The shipped vault (seed 4), the slowest for sat-keys:
/// `cargo test --release --test families -- --ignored keys_doors_cross::shipped_vault`.
#[test]
#[ignore = "seconds; run with --ignored"]
fn sat_keys_matches_bfs_and_keygraph_on_the_shipped_vault() {
    let model =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/models/keys-doors/vault-81.toml")).unwrap();
    let text = model.split("\"\"\"").nth(1).unwrap().trim_matches('\n').to_string();
    sat_keys_agrees(&KeysDoorsPuzzle::from_picture(&text).unwrap(), &text, false);
}

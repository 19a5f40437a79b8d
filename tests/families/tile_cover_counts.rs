//! Every tile-cover encoding counts the same routes as a plain depth-first
//! search (in `tests/common/rooms.rs`), on hundreds of random small rooms and on rooms with
//! known counts.
//!
//! `count --method exact` on the eager engines (`rank`, `steps`) counts
//! the same routes, on random rooms and the known counts.
//!
//! The 6 × 6 count (22,144 routes) takes about 1.5 s in a release build, so
//! it runs there (as in CI) and is skipped in debug builds; run it anyway
//! with `cargo test --test families -- --ignored tile_cover_counts::`.

use somaria::puzzles::tile_cover::ENGINES;
use somaria::puzzles::{CountMethod, CountOptions};
use somaria::rng::SplitMix64;

use crate::common;

use common::models::{self, load_text, tile_cover_model};
use common::rooms::{self, count_routes};

/// Routes from `S` over distinct `.`/`E` cells, counted by walking them all
/// ([`rooms::walks`]): a route counts when it has a tile, leaves at most `k`
/// tiles, and ends on `E` if there is one. Nothing is shared with somaria's
/// code.
fn brute_force_count(rows: &[&str], k: usize) -> u64 {
    count_routes(&rooms::from_lines(rows), k)
}

fn count(rows: &[&str], k: usize, engine: &str) -> u64 {
    models::count(load_text(&tile_cover_model(&rows.join("\n"), k)).as_ref(), Some(engine))
}

/// `count --method exact` with `engine` (an eager one): the count, which
/// must be complete.
fn exact(rows: &[&str], k: usize, engine: &str) -> u64 {
    let puzzle = load_text(&tile_cover_model(&rows.join("\n"), k));
    let options = CountOptions { engine: Some(engine.to_string()), method: CountMethod::Exact, ..Default::default() };
    let report = puzzle.count(&options).unwrap_or_else(|e| panic!("exact count, {engine}: {e}"));
    assert!(report.complete, "the exact count finished");
    report.count
}

/// The engines whose formula alone is the routes, which `--method exact`
/// counts.
const EAGER: [&str; 2] = ["rank", "steps"];

fn corner_room(height: usize, width: usize) -> Vec<String> {
    (0..height).map(|r| (0..width).map(|c| if r == 0 && c == 0 { 'S' } else { '.' }).collect()).collect()
}

fn random_room(rng: &mut SplitMix64) -> (Vec<String>, usize) {
    let shape = [(2, 3), (3, 3), (2, 4), (3, 4), (4, 4), (3, 5), (1, 5), (2, 5)][rng.below(8)];
    let cells = rooms::scattered(rng, shape, 18, 3);
    // Mostly 0 to 2 tiles left; sometimes enough to leave a whole cycle.
    let k = if rng.below(5) == 0 { 3 + rng.below(5) } else { rng.below(3) }.min(rooms::tiles(&cells));
    (rooms::lines(&cells), k)
}

#[test]
fn every_encoding_matches_brute_force_on_300_random_rooms() {
    let mut rng = SplitMix64::new(2024);
    let mut solvable = 0;
    for case in 0..300 {
        let (rows, k) = random_room(&mut rng);
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let expected = brute_force_count(&rows, k);
        solvable += usize::from(expected > 0);
        for &engine in ENGINES {
            assert_eq!(count(&rows, k, engine), expected, "case {case}, {engine}, k = {k}:\n{}", rows.join("\n"));
        }
    }
    // The rooms must exercise both verdicts, or the test proves little.
    assert!((60..=270).contains(&solvable), "{solvable} of 300 rooms solvable");
}

#[test]
fn the_exact_count_matches_brute_force_on_200_random_rooms() {
    let mut rng = SplitMix64::new(2026);
    let mut solvable = 0;
    for case in 0..200 {
        let (rows, k) = random_room(&mut rng);
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let expected = brute_force_count(&rows, k);
        solvable += usize::from(expected > 0);
        for engine in EAGER {
            assert_eq!(exact(&rows, k, engine), expected, "case {case}, {engine}, k = {k}:\n{}", rows.join("\n"));
        }
    }
    assert!((40..=180).contains(&solvable), "{solvable} of 200 rooms solvable");
}

#[test]
fn exact_known_counts_from_a_corner() {
    for (h, w, k, expected) in [(5, 5, 0, 824), (4, 6, 0, 469), (5, 5, 1, 2960), (3, 4, 1, 48)] {
        let rows = corner_room(h, w);
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        for engine in EAGER {
            assert_eq!(exact(&rows, k, engine), expected, "{engine} {h}x{w}, k = {k}");
        }
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug builds; CI runs it with --release")]
fn the_exact_count_of_six_by_six_routes_from_a_corner_is_22144() {
    let rows = corner_room(6, 6);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    assert_eq!(exact(&rows, 0, "steps"), 22_144);
}

#[test]
fn known_counts_from_a_corner() {
    for (h, w, k, expected) in [(5, 5, 0, 824), (4, 6, 0, 469), (5, 5, 1, 2960), (3, 4, 1, 48)] {
        let rows = corner_room(h, w);
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        assert_eq!(brute_force_count(&rows, k), expected, "brute force {h}x{w}, k = {k}");
        for engine in ["lazy", "lazy-nogood", "rank"] {
            assert_eq!(count(&rows, k, engine), expected, "{engine} {h}x{w}, k = {k}");
        }
    }
}

#[test]
fn the_steps_encoding_counts_a_known_room() {
    let rows = corner_room(4, 6);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    assert_eq!(count(&rows, 0, "steps"), 469);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug builds; CI runs it with --release")]
fn six_by_six_has_22144_routes_from_a_corner() {
    let rows = corner_room(6, 6);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    assert_eq!(brute_force_count(&rows, 0), 22_144);
    assert_eq!(count(&rows, 0, "lazy"), 22_144);
}

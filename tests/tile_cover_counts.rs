//! Every tile-cover encoding counts the same routes as a plain depth-first
//! search written here, on hundreds of random small rooms and on rooms with
//! known counts.
//!
//! The 6 × 6 count (22,144 routes) takes about 1.5 s in a release build, so
//! it runs there (as in CI) and is skipped in debug builds; run it anyway
//! with `cargo test --test tile_cover_counts -- --ignored`.

use somaria::model::Source;
use somaria::puzzles::tile_cover::ENGINES;
use somaria::puzzles::{self, CountOptions};
use somaria::rng::SplitMix64;

/// Routes from `S` over distinct `.`/`E` cells, counted by walking them all:
/// a route counts when it has a tile, leaves at most `k` tiles, and ends on
/// `E` if there is one. Nothing is shared with somaria's code.
fn brute_force_count(rows: &[&str], k: usize) -> u64 {
    let cells: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let (h, w) = (cells.len(), cells[0].len());
    let tiles = cells.iter().flatten().filter(|&&c| c == '.' || c == 'E').count();
    let start = (0..h).flat_map(|r| (0..w).map(move |c| (r, c))).find(|&(r, c)| cells[r][c] == 'S').unwrap();
    let has_end = tiles > 0 && cells.iter().flatten().any(|&c| c == 'E');
    let mut visited = vec![vec![false; w]; h];
    fn walk(
        cells: &[Vec<char>],
        visited: &mut Vec<Vec<bool>>,
        (r, c): (usize, usize),
        covered: usize,
        tiles: usize,
        k: usize,
        has_end: bool,
    ) -> u64 {
        let here = cells[r][c];
        let mut total = 0;
        if covered >= 1 && tiles - covered <= k && (!has_end || here == 'E') {
            total += 1;
        }
        if here == 'E' {
            return total;
        }
        let moves = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
        for (nr, nc) in moves {
            if nr < cells.len() && nc < cells[0].len() && matches!(cells[nr][nc], '.' | 'E') && !visited[nr][nc] {
                visited[nr][nc] = true;
                total += walk(cells, visited, (nr, nc), covered + 1, tiles, k, has_end);
                visited[nr][nc] = false;
            }
        }
        total
    }
    walk(&cells, &mut visited, start, 0, tiles, k, has_end)
}

fn model(rows: &[&str], k: usize) -> String {
    format!("kind = \"tile-cover\"\nleave_uncovered = {k}\ngrid = \"\"\"\n{}\n\"\"\"\n", rows.join("\n"))
}

fn count(rows: &[&str], k: usize, engine: &str) -> u64 {
    let puzzle = puzzles::load(&Source::from_text("room.toml", model(rows, k))).unwrap();
    let report = puzzle.count(&CountOptions { engine: Some(engine.to_string()), ..Default::default() }).unwrap();
    assert!(report.complete);
    report.count
}

fn corner_room(height: usize, width: usize) -> Vec<String> {
    (0..height).map(|r| (0..width).map(|c| if r == 0 && c == 0 { 'S' } else { '.' }).collect()).collect()
}

fn random_room(rng: &mut SplitMix64) -> (Vec<String>, usize) {
    let (h, w) = [(2, 3), (3, 3), (2, 4), (3, 4), (4, 4), (3, 5), (1, 5), (2, 5)][rng.below(8)];
    let mut cells: Vec<Vec<char>> =
        (0..h).map(|_| (0..w).map(|_| if rng.below(100) < 18 { '#' } else { '.' }).collect()).collect();
    let start = rng.below(h * w);
    cells[start / w][start % w] = 'S';
    if rng.below(3) == 0 {
        let end = rng.below(h * w);
        if end != start {
            cells[end / w][end % w] = 'E';
        }
    }
    let tiles = cells.iter().flatten().filter(|&&c| c == '.' || c == 'E').count();
    // Mostly 0 to 2 tiles left; sometimes enough to leave a whole cycle.
    let k = if rng.below(5) == 0 { 3 + rng.below(5) } else { rng.below(3) }.min(tiles);
    (cells.into_iter().map(|r| r.into_iter().collect()).collect(), k)
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

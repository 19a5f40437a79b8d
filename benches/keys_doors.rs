//! Keys and doors: BFS on a 200x200 maze with 10 keys and 10 doors, and the
//! SAT planning engine beside BFS on the lesson grids and on 10x10 to 20x20
//! mazes. The mazes come from the seeded generator in
//! `somaria::puzzles::keys_doors::maze`, so every run sees the same grids.
//!
//! `cargo bench --bench keys_doors`; peak memory of the 200x200 solve is
//! measured on the CLI, see the README.

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use somaria::puzzles::keys_doors::{Engine, KeysDoorsPuzzle, maze};

const LESSON: &[(&str, &str)] = &[
    ("one-key", "@..a"),
    ("back-through-the-door", "#a##\n@.Ab"),
    ("short-corridor", "@.a.."),
    ("locked-in", "@.A.a"),
    ("two-doors", "@.a..\n###.#\nb.A.B"),
];

fn bfs_large_maze(c: &mut Criterion) {
    let puzzle = KeysDoorsPuzzle::from_picture(&maze::generate(200, 200, 10, 10, 1)).unwrap();
    let mut group = c.benchmark_group("keys_doors_bfs_200x200");
    group.sample_size(10).measurement_time(Duration::from_secs(8));
    group
        .bench_function("10 keys, 10 doors", |b| b.iter(|| puzzle.shortest_route(Engine::Bfs).unwrap().unwrap().len()));
    group.finish();
}

fn sat_beside_bfs(c: &mut Criterion) {
    let mut puzzles: Vec<(String, KeysDoorsPuzzle)> = LESSON
        .iter()
        .map(|(name, picture)| (name.to_string(), KeysDoorsPuzzle::from_picture(picture).unwrap()))
        .collect();
    for size in [10, 12, 14, 16, 18, 20] {
        let picture = maze::generate(size, size, 3, 10, size as u64);
        puzzles.push((format!("maze {size}x{size}"), KeysDoorsPuzzle::from_picture(&picture).unwrap()));
    }
    let mut group = c.benchmark_group("keys_doors_engines");
    group.sample_size(10).warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_secs(1));
    for (name, puzzle) in &puzzles {
        for engine in [Engine::Bfs, Engine::Sat] {
            group.bench_with_input(BenchmarkId::new(engine.name(), name), puzzle, |b, p| {
                b.iter(|| p.shortest_route(engine).unwrap().map(|r| r.len()))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bfs_large_maze, sat_beside_bfs);
criterion_main!(benches);

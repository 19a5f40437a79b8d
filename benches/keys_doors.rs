//! Keys and doors, in process: every engine side by side on the lesson grids
//! and on 10x10 to 20x20 mazes; keygraph, bfs and sat-keys on a generated
//! 81x81 vault in its one- and four-walker forms; keygraph and sat-keys on
//! an open 10x12 room with 26 keys; keygraph and bfs on a 200x200 maze with
//! 10 keys and 10 doors. Every grid comes from the seeded generators in
//! `somaria::puzzles::keys_doors::maze`, so every run sees the same ones.
//!
//! `cargo bench --bench keys_doors` (a few minutes). Whole-process times and
//! peak memory, the figures the book quotes, come from
//! `bash benches/keys_doors_process.sh`.

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

fn puzzle(picture: &str) -> KeysDoorsPuzzle {
    KeysDoorsPuzzle::from_picture(picture).unwrap()
}

fn steps(puzzle: &KeysDoorsPuzzle, engine: Engine) -> Option<usize> {
    puzzle.shortest_route(engine).unwrap().map(|r| r.len())
}

fn engines_side_by_side(c: &mut Criterion) {
    let mut puzzles: Vec<(String, KeysDoorsPuzzle)> =
        LESSON.iter().map(|(name, picture)| (name.to_string(), puzzle(picture))).collect();
    for size in [10, 12, 14, 16, 18, 20] {
        puzzles.push((
            format!("maze {size}x{size}"),
            puzzle(&maze::generate(size, size, 3, 10, size as u64).expect("a valid maze")),
        ));
    }
    let mut group = c.benchmark_group("keys_doors_engines");
    group.sample_size(10).warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_secs(1));
    for (name, puzzle) in &puzzles {
        for &engine in Engine::ALL {
            group.bench_with_input(BenchmarkId::new(engine.name(), name), puzzle, |b, p| b.iter(|| steps(p, engine)));
        }
    }
    group.finish();
}

fn vault(c: &mut Criterion) {
    let one = puzzle(&maze::vault(4, 1).expect("a vault"));
    let four = puzzle(&maze::vault(4, 4).expect("a vault"));
    let mut group = c.benchmark_group("keys_doors_vault_81x81");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    group.bench_function("keygraph, one walker", |b| b.iter(|| steps(&one, Engine::Keygraph)));
    group.bench_function("bfs, one walker", |b| b.iter(|| steps(&one, Engine::Bfs)));
    group.bench_function("keygraph, four walkers", |b| b.iter(|| steps(&four, Engine::Keygraph)));
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("sat-keys, four walkers", |b| b.iter(|| steps(&four, Engine::SatKeys)));
    group.measurement_time(Duration::from_secs(30));
    group.bench_function("sat-keys, one walker", |b| b.iter(|| steps(&one, Engine::SatKeys)));
    group.finish();
}

fn open_room(c: &mut Criterion) {
    let room = puzzle(&maze::open_room(10, 12, 26, 2).expect("a room"));
    let mut group = c.benchmark_group("keys_doors_open_room_10x12_26_keys");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(5));
    for engine in [Engine::Keygraph, Engine::SatKeys] {
        group.bench_function(engine.name(), |b| b.iter(|| steps(&room, engine)));
    }
    group.finish();
}

fn large_maze(c: &mut Criterion) {
    let puzzle = puzzle(&maze::generate(200, 200, 10, 10, 1).expect("a maze"));
    let mut group = c.benchmark_group("keys_doors_200x200");
    group.sample_size(10).measurement_time(Duration::from_secs(8));
    for engine in [Engine::Keygraph, Engine::Bfs] {
        group.bench_function(engine.name(), |b| b.iter(|| steps(&puzzle, engine)));
    }
    group.finish();
}

criterion_group!(benches, engines_side_by_side, vault, open_room, large_maze);
criterion_main!(benches);

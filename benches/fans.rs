//! Fans and weathercocks: the shrine end to end, random planted grids, and
//! the whole `somaria count` process.
//!
//! Run with `cargo bench --bench fans`.

use std::process::Command;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use somaria::puzzles::fans::generate::planted;
use somaria::puzzles::{self, CountOptions, Puzzle, SolveOptions};

fn shrine(c: &mut Criterion) {
    let puzzle = puzzles::load_file("models/akh-vaquot.toml".as_ref()).unwrap();
    c.bench_function("fans/shrine/encode+solve+uniqueness", |b| {
        b.iter(|| {
            let report = puzzle.count(&CountOptions { limit: Some(2), ..Default::default() }).unwrap();
            assert_eq!((report.count, report.complete), (1, true));
        })
    });
    c.bench_function("fans/shrine/load+encode+solve", |b| {
        b.iter(|| {
            let puzzle = puzzles::load_file("models/akh-vaquot.toml".as_ref()).unwrap();
            puzzle.solve(&SolveOptions::default()).unwrap()
        })
    });
}

fn random_grids(c: &mut Criterion) {
    for size in [20, 40] {
        let puzzles: Vec<_> = (0..8).map(|seed| planted(size, size, 0.10, 0.05, seed).expect("a valid size")).collect();
        let mut group = c.benchmark_group(format!("fans/random-{size}x{size}"));
        group.sample_size(20);
        group.bench_function("solve (8 grids)", |b| {
            b.iter(|| {
                for puzzle in &puzzles {
                    puzzle.solve(&SolveOptions::default()).unwrap();
                }
            })
        });
        group.bench_function("count --limit 2 (8 grids)", |b| {
            b.iter(|| {
                for puzzle in &puzzles {
                    puzzle.count(&CountOptions { limit: Some(2), ..Default::default() }).unwrap();
                }
            })
        });
        group.finish();
    }
}

fn whole_process(c: &mut Criterion) {
    let binary = env!("CARGO_BIN_EXE_somaria");
    let mut group = c.benchmark_group("fans/whole-process");
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("somaria count models/akh-vaquot.toml", |b| {
        b.iter(|| {
            let out = Command::new(binary).args(["count", "models/akh-vaquot.toml"]).output().unwrap();
            assert!(out.status.success());
        })
    });
    group.finish();
}

criterion_group!(benches, shrine, random_grids, whole_process);
criterion_main!(benches);

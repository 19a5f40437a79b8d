//! Three reference runs that every change to the shared machinery (the
//! solver seam, the lazy driver, enumeration and possible literals) is
//! measured on, in process:
//!
//! - `tile-cover 6x6 count`: all 22,144 routes of an open 6 × 6 room from a
//!   corner, one blocking clause each on the lazy encoding;
//! - `heros-cave-somaria facts`: which of the 111 tiles some route may leave
//!   (56 can), possible literals on the lazy solver;
//! - `sudoku count`: the hardest Sudoku solved and proven unique (`count`
//!   to the end: one solution, then the refutation of a second).
//!
//! ```text
//! cargo bench --bench reference                              # about a minute
//! cargo bench --bench reference -- --save-baseline before    # then, after a change:
//! cargo bench --bench reference -- --baseline before         # criterion prints the change
//! ```

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use somaria::model::Source;
use somaria::puzzles::{self, CountOptions, Puzzle, SolveOptions, Status};

fn load(name: &str, text: String) -> Box<dyn Puzzle> {
    puzzles::load(&Source::from_text(name, text)).unwrap()
}

fn reference(c: &mut Criterion) {
    let mut group = c.benchmark_group("reference");
    group.sample_size(10).measurement_time(Duration::from_secs(10));

    let open = format!("kind = \"tile-cover\"\ngrid = \"\"\"\nS.....\n{}\"\"\"\n", "......\n".repeat(5));
    let room = load("open-6x6.toml", open);
    group.bench_function("tile-cover 6x6 count", |b| {
        b.iter(|| {
            let report = room.count(&CountOptions::default()).unwrap();
            assert_eq!((report.count, report.complete), (22_144, true));
        })
    });

    let cave = puzzles::load_file("models/heros-cave-somaria.toml".as_ref()).unwrap();
    group.bench_function("heros-cave-somaria facts", |b| {
        b.iter(|| assert_eq!(cave.facts(&SolveOptions::default()).unwrap().status, Status::Solved))
    });

    let sudoku = puzzles::load_file("models/csp/sudoku-hardest.toml".as_ref()).unwrap();
    group.bench_function("sudoku count", |b| {
        b.iter(|| {
            let report = sudoku.count(&CountOptions::default()).unwrap();
            assert_eq!((report.count, report.complete), (1, true));
        })
    });
    group.finish();
}

criterion_group!(benches, reference);
criterion_main!(benches);

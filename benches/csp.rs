//! csp models under every integer encoding: Sudoku solve and uniqueness
//! (two grids), the 8- and 10-queens counts, the zebra puzzle and
//! SEND+MORE=MONEY; the two encodings of linear sums side by side; and the
//! whole `somaria` process for each model with the default engine.
//!
//! Before the timings it prints each model's formula size per engine.
//!
//! ```text
//! cargo bench --bench csp              # a few minutes
//! cargo bench --bench csp -- whole     # only the whole-process figures
//! ```

use std::process::Command;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use somaria::model::Source;
use somaria::puzzles::csp::{CspPuzzle, Linear, load_puzzle};
use somaria::puzzles::{CountOptions, Puzzle};

/// A model: name, file, text, and the count that proves the answer
/// (`limit` 2 for "solve + unique").
struct Case {
    name: &'static str,
    file: String,
    text: String,
    limit: Option<u64>,
    expected: u64,
}

fn cases() -> Vec<Case> {
    let read = |file: &str| std::fs::read_to_string(file).unwrap();
    let queens = read("models/csp/queens.toml");
    let queens10 = queens.replace("n = 8", "n = 10");
    let dir = std::env::temp_dir().join("somaria-csp-bench");
    std::fs::create_dir_all(&dir).unwrap();
    let queens10_file = dir.join("queens-10.toml");
    std::fs::write(&queens10_file, &queens10).unwrap();
    let case =
        |name, file: &str, limit, expected| Case { name, file: file.to_string(), text: read(file), limit, expected };
    vec![
        case("sudoku-hardest solve+unique", "models/csp/sudoku-hardest.toml", Some(2), 1),
        case("sudoku-17 solve+unique", "models/csp/sudoku-17.toml", Some(2), 1),
        case("8-queens count", "models/csp/queens.toml", None, 92),
        Case {
            name: "10-queens count",
            file: queens10_file.display().to_string(),
            text: queens10,
            limit: None,
            expected: 724,
        },
        case("zebra solve+unique", "models/csp/zebra.toml", Some(2), 1),
        case("send-more-money solve+unique", "models/csp/send-more-money.toml", Some(2), 1),
    ]
}

fn puzzle(case: &Case) -> CspPuzzle {
    load_puzzle(&Source::from_text(case.name, case.text.clone())).unwrap()
}

fn run(puzzle: &dyn Puzzle, engine: &str, case: &Case) {
    let options = CountOptions { engine: Some(engine.to_string()), limit: case.limit, ..Default::default() };
    let report = puzzle.count(&options).unwrap();
    assert_eq!(report.count, case.expected, "{} {engine}", case.name);
}

/// Formula sizes per engine, printed once.
fn sizes() {
    println!("\n{:<30} {:>8} {:>10} {:>10}", "model", "engine", "variables", "clauses");
    for case in cases() {
        let puzzle = puzzle(&case);
        for engine in puzzle.engines() {
            let cnf = puzzle.cnf(Some(engine)).unwrap();
            println!("{:<30} {:>8} {:>10} {:>10}", case.name, engine, cnf.num_vars(), cnf.num_clauses());
        }
    }
    println!();
}

fn models(c: &mut Criterion) {
    sizes();
    for case in cases() {
        let puzzle = puzzle(&case);
        let mut group = c.benchmark_group(format!("csp/{}", case.name));
        if case.name.starts_with("10-queens") {
            group.sample_size(10);
            group.measurement_time(Duration::from_secs(8));
        }
        for engine in puzzle.engines() {
            group.bench_function(*engine, |b| b.iter(|| run(&puzzle, engine, &case)));
        }
        group.finish();
    }
}

fn linear_sums(c: &mut Criterion) {
    for (name, file, expected) in [
        ("send-more-money", "models/csp/send-more-money.toml", 1),
        ("magic-square", "models/csp/magic-square.toml", 8),
        ("knapsack", "models/csp/knapsack.toml", 1),
    ] {
        let source = Source::read(file.as_ref()).unwrap();
        let mut group = c.benchmark_group(format!("csp/linear sums/{name} count"));
        // The pseudo-Boolean encodings take up to seconds on SEND+MORE.
        group.sample_size(10);
        for (label, linear) in [("diagrams", Linear::Diagrams), ("pseudo-Boolean", Linear::PseudoBoolean)] {
            let puzzle = load_puzzle(&source).unwrap().with_linear(linear);
            for engine in ["direct", "order", "log"] {
                group.bench_function(format!("{label}/{engine}"), |b| {
                    b.iter(|| {
                        let options = CountOptions { engine: Some(engine.to_string()), ..Default::default() };
                        assert_eq!(puzzle.count(&options).unwrap().count, expected);
                    })
                });
            }
        }
        group.finish();
    }
}

fn whole_process(c: &mut Criterion) {
    let binary = env!("CARGO_BIN_EXE_somaria");
    let mut group = c.benchmark_group("csp/whole process");
    group.measurement_time(Duration::from_secs(5));
    for case in cases() {
        let mut args = vec!["count".to_string(), case.file.clone()];
        if let Some(limit) = case.limit {
            args.extend(["--limit".to_string(), limit.to_string()]);
        }
        if case.name.starts_with("10-queens") {
            group.sample_size(10);
        }
        group.bench_function(format!("somaria {}", args.join(" ")), |b| {
            b.iter(|| {
                let out = Command::new(binary).args(&args).output().unwrap();
                assert!(out.status.success());
            })
        });
    }
    group.finish();
}

criterion_group!(benches, models, linear_sums, whole_process);
criterion_main!(benches);

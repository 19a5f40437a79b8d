//! Drawing a csp model by its drawing table: a solved 100 × 100 grid
//! (numbers, shading, regions, a mark layer and a corner lattice of steps)
//! written as SVG, against the same report written as JSON, as the command
//! line writes each (the solve itself is done once, outside the timings).
//!
//! ```text
//! cargo bench --bench drawing
//! ```

use criterion::{Criterion, criterion_group, criterion_main};
use somaria::puzzles::{Drawn, Puzzle, SolveOptions, SolveReport};
use somaria::report::Report;

/// A 100 × 100 grid whose every value a constraint fixes, so that solving
/// is quick and the picture has something in every layer.
const N: usize = 100;

fn model() -> String {
    format!(
        r#"kind = "csp"
title = "A {N} × {N} grid"
[params]
n = {N}
[vars]
x = {{ index = ["1..n", "1..n"], domain = "0..9" }}
b = {{ index = ["1..n", "1..n"], domain = "bool" }}
across = {{ index = ["0..n", "0..n-1"], domain = "bool" }}
down = {{ index = ["0..n-1", "0..n"], domain = "bool" }}
[[constraint]]
expr = 'forall(i, j in 1..n)(x[i, j] = (i * j) mod 10 /\ (b[i, j] <-> x[i, j] = 0))'
[[constraint]]
expr = 'forall(i in 0..n, j in 0..n-1)(across[i, j] <-> (i + j) mod 3 = 0)'
[[constraint]]
expr = 'forall(i in 0..n-1, j in 0..n)(down[i, j] <-> (i + j) mod 3 = 1)'
[draw]
rows = "n"
cols = "n"
[[draw.layer]]
regions = "array2d(1..n, 1..n, [10 * ((i - 1) div 10) + (j - 1) div 10 | i, j in 1..n])"
[[draw.layer]]
shade = "x"
value = 5
[[draw.layer]]
text = "x"
blank = 0
[[draw.layer]]
mark = "b"
[[draw.layer]]
edges = ["across", "down"]
"#
    )
}

fn solved() -> (Box<dyn Puzzle>, SolveReport) {
    let puzzle = somaria::puzzles::load_str("grid.toml", &model()).unwrap();
    let report = puzzle.solve(&SolveOptions::default()).unwrap();
    assert!(report.solution.is_some(), "the grid is solved");
    (puzzle, report)
}

fn bench(c: &mut Criterion) {
    let (puzzle, report) = solved();
    let mut group = c.benchmark_group(format!("drawing {N}x{N} csp grid"));
    group.sample_size(20);
    group.bench_function("json report", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            std::io::Write::write_fmt(&mut out, format_args!("{}\n", report.json(puzzle.kind()))).unwrap();
            out.len()
        })
    });
    group.bench_function("svg picture", |b| {
        b.iter(|| {
            let scene = puzzle.picture(Drawn::Solution(&report)).unwrap();
            let mut out = Vec::new();
            somaria::draw::svg::write(&scene, &mut out).unwrap();
            out.len()
        })
    });
    group.bench_function("scene alone", |b| b.iter(|| puzzle.picture(Drawn::Solution(&report)).unwrap().marks.len()));
    group.bench_function("text report", |b| b.iter(|| report.text(puzzle.as_ref()).unwrap().len()));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Design aid: generate random fan rooms with a planted solution until one
//! has exactly one answer, then print it as a model file.
//!
//! Run with `cargo run --release --example planted_fans -- 6 7`
//! (rows and columns; defaults 5 by 6).

use somaria::puzzles::fans::generate::planted;
use somaria::puzzles::{CountOptions, Puzzle};

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (rows, cols) = (args.first().copied().unwrap_or(5), args.get(1).copied().unwrap_or(6));
    for seed in 0..10_000u64 {
        let puzzle = match planted(rows, cols, 0.2, 0.05, seed) {
            Ok(puzzle) => puzzle,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        };
        let report = puzzle.count(&CountOptions { limit: Some(2), ..Default::default() }).expect("the solver runs");
        let weathercocks = puzzle.weathercocks().len();
        if report.complete && report.count == 1 && weathercocks >= rows * cols / 3 {
            let layout = puzzle.layout().expect("a grid");
            println!("# seed {seed}: exactly one solution");
            println!("kind = \"fans\"\ntitle = \"Planted room {seed}\"\ngrid = \"\"\"");
            for row in 0..layout.rows() {
                let line: String = (0..layout.cols()).map(|col| layout[(row, col)].symbol()).collect();
                println!("{line}");
            }
            println!("\"\"\"");
            return;
        }
    }
    eprintln!("no unique {rows}x{cols} room in 10,000 seeds; try another size");
    std::process::exit(1);
}

//! Solve the Akh Va'quot shrine through the library and prove it unique.
//!
//! Run with `cargo run --release --example shrine`.

use somaria::puzzles::{self, CountOptions, Drawn, SolveOptions, Status};

fn main() {
    let puzzle = puzzles::load_file("models/akh-vaquot.toml".as_ref()).expect("the shrine model loads");
    let report = puzzle.solve(&SolveOptions::default()).expect("the solver runs");
    assert_eq!(report.status, Status::Solved);
    print!("{}", puzzle.text(Drawn::Solution(&report)).expect("the solution draws").unwrap_or_default());
    let count = puzzle.count(&CountOptions { limit: Some(2), ..Default::default() }).expect("the solver runs");
    match (count.count, count.complete) {
        (1, true) => println!("unique: no other setting of the fans works"),
        (n, complete) => println!("{n} solutions found (complete: {complete})"),
    }
}

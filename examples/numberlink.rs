//! Makes a numberlink with exactly one solution and prints it as a somaria
//! csp model: the genre's model (`models/genres/numlin.toml`, with `fill`
//! set) with the puzzle's parameters.
//!
//! ```text
//! cargo run --release --example numberlink -- ROWS COLS SEED [--longest N] > numberlink.toml
//! cargo run --release --example numberlink -- 9 9 1 > numberlink.toml
//! ```
//!
//! The variant: every cell lies on exactly one line (as in Flow Free and
//! most modern numberlinks). A random solution first (no line longer than
//! `--longest` cells, default unlimited), then, while somaria finds a
//! solution that puts some cell on another line, a line split where the two
//! differ: the library's generator, `somaria::grid_models::numberlink`,
//! which says more. The output depends on the arguments alone; progress
//! goes to stderr.

use somaria::grid_models::numberlink::{Options, make};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = Options::from_args(&args).unwrap_or_else(|why| {
        eprintln!("{why}");
        std::process::exit(2);
    });
    match make(&options, &mut |line| eprintln!("{line}")) {
        Ok(text) => print!("{text}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}

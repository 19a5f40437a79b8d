//! Makes a nurikabe with exactly one solution and prints it as a somaria csp
//! model: the genre's model (`models/genres/nurikabe.toml`) with the
//! puzzle's parameters.
//!
//! ```text
//! cargo run --release --example nurikabe -- ROWS COLS SEED [--max-island N] [--repairs N] [--restarts N] > nurikabe.toml
//! cargo run --release --example nurikabe -- 10 10 2 --max-island 6 > nurikabe.toml
//! ```
//!
//! A random valid solution first, then, while somaria finds a solution with
//! another shading, the intended solution changed where the two differ (up
//! to `--repairs` times, default 40, before starting over with a new
//! solution, up to `--restarts` times, default 50): the library's
//! generator, `somaria::grid_models::nurikabe`, which says more. Islands
//! have at most `--max-island` cells when grown (default 5; filling a pool
//! may add two more). The output depends on the arguments alone; progress
//! goes to stderr.

use somaria::grid_models::nurikabe::{Options, make};

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

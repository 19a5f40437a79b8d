//! Prints a generated keys-and-doors model, for benchmarks and new models.
//!
//! ```text
//! cargo run --release --example keys_doors_maze -- ROWS COLS KEYS [LOOPS_PERCENT] [SEED] > maze.toml
//! ```

use somaria::puzzles::keys_doors::maze;

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let [rows, cols, keys, rest @ ..] = &args[..] else {
        eprintln!("usage: keys_doors_maze ROWS COLS KEYS [LOOPS_PERCENT] [SEED]");
        std::process::exit(2);
    };
    let loops = rest.first().copied().unwrap_or(10);
    let seed = rest.get(1).copied().unwrap_or(1) as u64;
    let title = format!("{rows}x{cols} maze with {keys} keys (seed {seed})");
    match maze::model(&title, *rows, *cols, *keys, loops, seed) {
        Ok(model) => print!("{model}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}

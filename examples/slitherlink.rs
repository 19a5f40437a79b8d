//! Makes a slitherlink with exactly one solution and prints it as a somaria
//! csp model: the genre's model (`models/genres/slither.toml`) with the
//! puzzle's parameters.
//!
//! ```text
//! cargo run --release --example slitherlink -- N SEED [--engine NAME] [--budget SECONDS] > slitherlink.toml
//! cargo run --release --example slitherlink -- 10 7 > models/csp/slitherlink.toml
//! ```
//!
//! A random loop, every clue, then clues dropped in random order while a
//! count with a limit of 2 still finds exactly one solution: the library's
//! generator, `somaria::grid_models::slitherlink`, which says more. Progress
//! goes to stderr.
//!
//! Without `--budget` the output depends on the arguments alone, and every
//! count runs to the end; on a large grid a dropped clue can leave a count
//! that takes many minutes. `--budget SECONDS` keeps every clue whose count
//! takes longer (so the puzzle stays quick to prove unique), which makes the
//! output depend on the machine's speed and load.

use somaria::grid_models::slitherlink::{Options, make};

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

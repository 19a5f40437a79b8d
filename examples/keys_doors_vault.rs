//! Prints a generated keys-and-doors vault: an 81×81 perfect maze in four
//! quarters meeting at the centre, 26 keys and 26 doors, with one walker in
//! the open centre or four walkers round a walled centre.
//!
//! ```text
//! cargo run --release --example keys_doors_vault -- SEED [1|4] > vault.toml
//! ```

use somaria::puzzles::keys_doors::maze;

fn main() {
    let args: Vec<u64> = match std::env::args().skip(1).map(|a| a.parse()).collect() {
        Ok(args) => args,
        Err(_) => usage(),
    };
    let (seed, walkers) = match args[..] {
        [seed] => (seed, 1),
        [seed, walkers @ (1 | 4)] => (seed, walkers as usize),
        _ => usage(),
    };
    let form = if walkers == 1 { "one walker" } else { "four walkers" };
    match maze::vault_model(&format!("81x81 vault, 26 keys, {form} (seed {seed})"), seed, walkers) {
        Ok(model) => print!("{model}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}

fn usage() -> ! {
    eprintln!("usage: keys_doors_vault SEED [1|4]");
    std::process::exit(2);
}

//! Prints an open keys-and-doors room: floor only, `@` in a corner and up to
//! 26 keys on random cells, the kind of grid where (cell, keys held) searches
//! explode.
//!
//! ```text
//! cargo run --release --example keys_doors_room -- ROWS COLS KEYS [SEED] > room.toml
//! ```

use somaria::puzzles::keys_doors::maze;

fn main() {
    let args: Vec<usize> = match std::env::args().skip(1).map(|a| a.parse()).collect() {
        Ok(args) => args,
        Err(_) => usage(),
    };
    let (rows, cols, keys, seed) = match args[..] {
        [rows, cols, keys] => (rows, cols, keys, 1),
        [rows, cols, keys, seed] => (rows, cols, keys, seed as u64),
        _ => usage(),
    };
    let grid = match maze::open_room(rows, cols, keys, seed) {
        Ok(grid) => grid,
        Err(e) => {
            eprintln!("error: {e}");
            usage();
        }
    };
    let title = format!("{rows}x{cols} open room with {keys} keys (seed {seed})");
    print!("kind = \"keys-doors\"\ntitle = {title:?}\ngrid = \"\"\"\n{grid}\n\"\"\"\n");
}

fn usage() -> ! {
    eprintln!("usage: keys_doors_room ROWS COLS KEYS [SEED] (at most 26 keys, fewer than the cells)");
    std::process::exit(2);
}

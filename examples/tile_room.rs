//! Prints a generated tile-cover model: a square room with scattered walls,
//! cut to the start's region and with balanced colours (see
//! `somaria::puzzles::tile_cover::rooms::scattered_room`), for benchmarks
//! and new models.
//!
//! ```text
//! cargo run --release --example tile_room -- SIZE [WALL_PERCENT] [SEED] [LEAVE_UNCOVERED] [--no-dead-ends] > room.toml
//! cargo run --release --example tile_room -- 16 5 2 > room.toml
//!
//! `--no-dead-ends` also walls every tile left with one open side
//! (`rooms::scattered_room_without_dead_ends`).
//! ```

use somaria::puzzles::tile_cover::rooms::{scattered_room, scattered_room_without_dead_ends};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let prune = args.iter().any(|a| a == "--no-dead-ends");
    args.retain(|a| a != "--no-dead-ends");
    let usage = || -> ! {
        eprintln!("usage: tile_room SIZE [WALL_PERCENT] [SEED] [LEAVE_UNCOVERED] [--no-dead-ends]");
        std::process::exit(2);
    };
    let size: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or_else(|| usage());
    let percent: f64 = args.get(1).map_or(Some(5.0), |a| a.parse().ok()).unwrap_or_else(|| usage());
    let seed: u64 = args.get(2).map_or(Some(1), |a| a.parse().ok()).unwrap_or_else(|| usage());
    let leave: usize = args.get(3).map_or(Some(0), |a| a.parse().ok()).unwrap_or_else(|| usage());
    if size == 0 || !(0.0..100.0).contains(&percent) {
        eprintln!("SIZE must be at least 1 and WALL_PERCENT from 0 to below 100");
        std::process::exit(2);
    }
    let grid =
        if prune { scattered_room_without_dead_ends(size, percent, seed) } else { scattered_room(size, percent, seed) };
    let grid = match grid {
        Ok(grid) => grid,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    println!("kind = \"tile-cover\"");
    let style = if prune { ", no dead ends" } else { "" };
    println!("title = \"{size}x{size} room, {percent}% walls, seed {seed}{style}\"");
    if leave > 0 {
        println!("leave_uncovered = {leave}");
    }
    print!("grid = \"\"\"\n{grid}\"\"\"\n");
}

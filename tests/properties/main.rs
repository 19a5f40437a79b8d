//! Property suites on random instances: one verdict per model across the
//! commands, fans and the tile-cover presolve against brute force, generated
//! puzzles recounted by brute force, and the SAT backend contract.
//!
//! One test binary: each module was a binary of its own and keeps its name,
//! so `cargo test --release --test properties MODULE::` runs one of them.

#[path = "../common/mod.rs"]
mod common;

mod backends;
mod consistency;
mod fans_brute_force;
mod generate;
mod generate_clue_reads;
mod tile_cover_presolve;

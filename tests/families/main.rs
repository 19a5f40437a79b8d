//! The built-in families against brute force: fans' listing, every
//! keys-and-doors engine, tile-cover counts and verdicts, and generated
//! vaults.
//!
//! One test binary: each module was a binary of its own and keeps its name,
//! so `cargo test --release --test families MODULE::` runs one of them.

#[path = "../common/mod.rs"]
mod common;

mod fans_listing;
mod generate_vaults;
mod keys_doors_cross;
mod tile_cover_agreement;
mod tile_cover_counts;

//! What helps a solver along: deductions, hints and steps, proofs and
//! explanations, and the pictures of answers, facts and explanations.
//!
//! One test binary: each module was a binary of its own and keeps its name,
//! so `cargo test --release --test assistant MODULE::` runs one of them.

#[path = "../common/mod.rs"]
mod common;

mod browser;
mod deductions;
mod hints;
mod pictures;
mod play_api;
mod proofs_and_explanations;
mod rating;
mod session;
mod techniques;
mod tile_cover_steps;

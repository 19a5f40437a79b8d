//! What helps a solver along: deductions, hints and steps, proofs and
//! explanations, and the pictures of answers, facts and explanations.
//!
//! One test binary: each module was a binary of its own and keeps its name,
//! so `cargo test --release --test assistant MODULE::` runs one of them.

#[path = "../common/mod.rs"]
mod common;

mod deductions;
mod hints;
mod pictures;
mod proofs_and_explanations;
mod tile_cover_steps;

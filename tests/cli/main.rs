//! The `somaria` command as a process: its contract on output files, exit
//! codes, limits and JSON, per family, and its refusal of bad models and
//! options with exit 2.
//!
//! One test binary: each module was a binary of its own and keeps its name,
//! so `cargo test --release --test cli MODULE::` runs one of them.

#[path = "../common/mod.rs"]
mod common;

mod builtins_page;
mod cli_contract;
mod docs;
mod fans_cli;
mod generate_forms;
mod hint_tables;
mod keys_doors_cli;
mod load_errors;
mod stop_token;
mod tile_cover_cli;
mod time_limits;

//! The csp family and its language: the shipped csp models, the globals,
//! predicates, linear and wide constraints and drawing tables against brute
//! force and answers computed here; bad csp models refused; `encode`; the
//! public constructors; and the grid puzzles made by the library's grid
//! generators.
//!
//! One test binary: each module was a binary of its own and keeps its name,
//! so `cargo test --release --test csp MODULE::` runs one of them.

#[path = "../common/mod.rs"]
mod common;

mod constructors;
mod csp_circuit_regular;
mod csp_counts;
mod csp_drawing;
mod csp_errors;
mod csp_exact_count;
mod csp_fans;
mod csp_fd;
mod csp_features;
mod csp_globals;
mod csp_graphs;
mod csp_grids;
mod csp_guarded;
mod csp_heros_cave;
mod csp_linear;
mod csp_minizinc_ports;
mod csp_models;
mod csp_nurikabe_numberlink;
mod csp_optimise;
mod csp_place;
mod csp_predicates;
mod csp_random;
mod csp_regions;
mod csp_sight;
mod csp_slitherlink;
mod csp_tile_cover;
mod csp_wide;
mod drawing_layers;
mod drawing_places;
mod encode;
mod generators;

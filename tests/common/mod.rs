//! What the test suites share. Each test binary (`tests/*/main.rs`) takes
//! these in once with `#[path = "../common/mod.rs"] mod common;`, and its
//! modules with `use crate::common;`, so a helper lives here once instead of
//! being copied from suite to suite. None of it shares code with somaria's
//! encodings: the oracles here (walks over tile rooms, varisat reading a
//! DIMACS file on its own) are what the library is checked against.
//!
//! - [`backends`]: which SAT backends a case runs on;
//! - [`cli`]: running the binary, reading its JSON, refused models;
//! - [`models`]: model texts, and loading and counting them in the library;
//! - [`reports`]: the parts of a JSON report that suites check;
//! - [`dimacs`]: a written formula read back by varisat;
//! - [`proofs`]: refutation proofs checked (DRAT by a naive RUP checker,
//!   varisat's format by varisat-checker);
//! - [`rooms`]: random tile rooms and every walk through one;
//! - [`random_csp`]: random small csp models of placed calls, and their
//!   brute force;
//! - [`keys_doors`]: keys-and-doors routes replayed by the rules;
//! - [`fans`]: random fan grids;
//! - [`pixels`]: SVG pictures rendered with resvg, read in pixels;
//! - [`bool_cells`]: Boolean array arguments of fixed and variable cells.

// Each suite uses a subset of these helpers.
#![allow(dead_code)]

pub mod backends;
pub mod bool_cells;
pub mod cli;
pub mod dimacs;
pub mod fans;
pub mod keys_doors;
pub mod models;
pub mod pixels;
pub mod proofs;
pub mod random_csp;
pub mod reports;
pub mod rooms;

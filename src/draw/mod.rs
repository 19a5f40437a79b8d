//! Drawing grid puzzles: a family describes what is on its grid as a
//! [`Scene`], and [`svg`] draws it. This module knows only [`crate::grid`]:
//! nothing here knows a puzzle family or a report.

mod scene;
pub mod svg;

pub use scene::{Ground, Mark, Scene, Tint, Trail};

//! Drawing grid puzzles. A family describes what is on its grid as a
//! [`Scene`] (grounds, marks and labels, edges along the cells' sides,
//! region borders, trails through cells, outlines, a caption), and two back
//! ends draw it: [`svg`] streams an SVG picture, [`text`] writes the grid
//! as lines of text for a report. This module knows only [`crate::grid`]:
//! nothing here knows a puzzle family or a report.

mod scene;
pub mod svg;
pub mod text;

pub use scene::{Along, Edge, Ground, Mark, Scene, Stroke, Tint, Trail};

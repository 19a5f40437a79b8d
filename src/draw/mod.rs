//! Drawing grid puzzles. A family describes what is on its grid as a
//! [`Scene`] (grounds, marks and labels of every size and colour, edges
//! along the cells' sides, links between their centres, layers of region
//! borders, trails through cells, outlines, clues outside the grid, a
//! caption), and two back ends draw it: [`svg`] streams an SVG picture,
//! [`text`] writes the grid as lines of text for a report. This module
//! knows only [`crate::grid`]: nothing here knows a puzzle family or a
//! report.

mod scene;
pub mod svg;
pub mod text;

pub use scene::{
    Along, Border, Corner, Edge, Ground, LinePlaces, Link, Mark, Outside, Regions, Scene, Shape, Side, Stroke, Tint,
    Trail,
};

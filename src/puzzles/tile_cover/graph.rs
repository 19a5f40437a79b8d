//! The room as a graph: the start and the tiles are its nodes, and the
//! directed arcs join 4-adjacent nodes ([`GridGraph`], shared with the csp
//! modeler's grid globals), with the number of tiles that may be left. Every
//! encoding and the presolve read the room through this view; the
//! independent check does not.

use std::ops::Deref;

use super::Cell;
use crate::graph::GridGraph;
use crate::grid::Grid;

pub use crate::graph::START;

/// The start and the tiles of a room, numbered with the start first and the
/// tiles in reading order, and the arcs between them; it reads as its
/// [`GridGraph`].
///
/// No arc enters the start: the walk stands on it already.
///
/// ```
/// use somaria::grid::Grid;
/// use somaria::puzzles::tile_cover::{Cell, Room};
/// let grid = Grid::from_rows(vec![vec![Cell::Start, Cell::Tile, Cell::Tile]]).unwrap();
/// let room = Room::new(&grid, 0);
/// assert_eq!(room.num_tiles(), 2);
/// // start -> a, a -> b, b -> a
/// assert_eq!(room.arcs().len(), 3);
/// ```
#[derive(Clone, Debug)]
pub struct Room {
    graph: GridGraph,
    leave_uncovered: usize,
}

impl Deref for Room {
    type Target = GridGraph;

    fn deref(&self) -> &GridGraph {
        &self.graph
    }
}

impl Room {
    /// The room of a grid with exactly one [`Cell::Start`], which the loader
    /// guarantees; `leave_uncovered` tiles may stay uncovered.
    pub fn new(grid: &Grid<Cell>, leave_uncovered: usize) -> Room {
        let find = |wanted: Cell| grid.cells().find(|(_, c)| **c == wanted).map(|(p, _)| p);
        let is_tile = |pos| matches!(grid[pos], Cell::Tile | Cell::End);
        let graph = GridGraph::new(grid.rows(), grid.cols(), is_tile, find(Cell::Start), find(Cell::End));
        Room { graph, leave_uncovered }
    }

    /// The room with only the nodes `keep` marks (the start among them), as
    /// if the others were walls, with `end` (a node of this room) as its end
    /// tile and `leave_uncovered` tiles to leave. Node numbers change; the
    /// second value maps the new ones to these.
    pub fn restricted(&self, keep: &[bool], end: Option<usize>, leave_uncovered: usize) -> (Room, Vec<usize>) {
        let (graph, old_of) = self.graph.restricted(keep, end);
        (Room { graph, leave_uncovered }, old_of)
    }

    /// The room as a graph.
    pub fn graph(&self) -> &GridGraph {
        &self.graph
    }

    /// Number of tiles to cover, the end tile included.
    pub fn num_tiles(&self) -> usize {
        self.graph.num_nodes().saturating_sub(1)
    }

    /// The tiles' node numbers.
    pub fn tiles(&self) -> std::ops::Range<usize> {
        1..self.graph.num_nodes()
    }

    /// How many tiles may stay uncovered.
    pub fn leave_uncovered(&self) -> usize {
        self.leave_uncovered
    }

    /// Whether a node has the start's colour on the checkerboard.
    pub fn same_colour_as_start(&self, node: usize) -> bool {
        self.graph.colour(node) == self.graph.colour(START)
    }

    /// Steps from the start to each node through nodes, `None` when
    /// unreachable.
    pub fn distances(&self) -> Vec<Option<usize>> {
        self.graph.distances_from(START)
    }
}

//! The room as a graph: the start and the tiles are its nodes, and the
//! directed arcs join 4-adjacent nodes. Every encoding and the presolve read
//! the room through this view; the independent check does not.

use super::Cell;
use crate::grid::{Dir, Grid, Pos};

/// The start's node number.
pub const START: usize = 0;

/// The start and the tiles of a room, numbered with the start first and the
/// tiles in reading order, and the arcs between them.
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
    positions: Vec<Pos>,
    node_at: Grid<Option<usize>>,
    neighbours: Vec<Vec<usize>>,
    arcs: Vec<(usize, usize)>,
    out_arcs: Vec<Vec<usize>>,
    in_arcs: Vec<Vec<usize>>,
    end: Option<usize>,
    leave_uncovered: usize,
}

impl Room {
    /// The room of a grid with exactly one [`Cell::Start`], which the loader
    /// guarantees; `leave_uncovered` tiles may stay uncovered.
    pub fn new(grid: &Grid<Cell>, leave_uncovered: usize) -> Room {
        let start = grid.cells().find(|(_, c)| **c == Cell::Start).map(|(p, _)| p);
        let tiles = grid.cells().filter(|(_, c)| matches!(c, Cell::Tile | Cell::End)).map(|(p, _)| p);
        let positions: Vec<Pos> = start.into_iter().chain(tiles).collect();
        let mut node_rows = vec![vec![None; grid.cols()]; grid.rows()];
        for (node, &(row, col)) in positions.iter().enumerate() {
            node_rows[row][col] = Some(node);
        }
        let node_at = Grid::from_rows(node_rows).expect("same shape as the grid");
        let neighbours: Vec<Vec<usize>> = positions
            .iter()
            .map(|&pos| Dir::ALL.iter().filter_map(|&d| grid.step(pos, d).and_then(|next| node_at[next])).collect())
            .collect();
        let end = grid.cells().find(|(_, c)| **c == Cell::End).and_then(|(p, _)| node_at[p]);
        Room::assemble(positions, node_at, neighbours, end, leave_uncovered)
    }

    /// The arcs between neighbours, none into the start.
    fn assemble(
        positions: Vec<Pos>,
        node_at: Grid<Option<usize>>,
        neighbours: Vec<Vec<usize>>,
        end: Option<usize>,
        leave_uncovered: usize,
    ) -> Room {
        let mut arcs = Vec::new();
        let mut out_arcs = vec![Vec::new(); positions.len()];
        let mut in_arcs = vec![Vec::new(); positions.len()];
        for (from, next) in neighbours.iter().enumerate() {
            for &to in next.iter().filter(|&&to| to != START) {
                out_arcs[from].push(arcs.len());
                in_arcs[to].push(arcs.len());
                arcs.push((from, to));
            }
        }
        Room { positions, node_at, neighbours, arcs, out_arcs, in_arcs, end, leave_uncovered }
    }

    /// The room with only the nodes `keep` marks (the start among them), as
    /// if the others were walls, with `end` (a node of this room) as its end
    /// tile and `leave_uncovered` tiles to leave. Node numbers change; the
    /// second value maps the new ones to these.
    pub fn restricted(&self, keep: &[bool], end: Option<usize>, leave_uncovered: usize) -> (Room, Vec<usize>) {
        let old_of: Vec<usize> = (0..self.num_nodes()).filter(|&v| keep[v]).collect();
        let mut new_of = vec![None; self.num_nodes()];
        for (new, &old) in old_of.iter().enumerate() {
            new_of[old] = Some(new);
        }
        let positions: Vec<Pos> = old_of.iter().map(|&v| self.positions[v]).collect();
        let mut node_rows = vec![vec![None; self.node_at.cols()]; self.node_at.rows()];
        for (new, &(row, col)) in positions.iter().enumerate() {
            node_rows[row][col] = Some(new);
        }
        let node_at = Grid::from_rows(node_rows).expect("same shape as the room");
        let neighbours =
            old_of.iter().map(|&v| self.neighbours[v].iter().filter_map(|&w| new_of[w]).collect()).collect();
        let end = end.and_then(|e| new_of[e]);
        (Room::assemble(positions, node_at, neighbours, end, leave_uncovered), old_of)
    }

    /// Number of nodes: the start and the tiles.
    pub fn num_nodes(&self) -> usize {
        self.positions.len()
    }

    /// Number of tiles to cover, the end tile included.
    pub fn num_tiles(&self) -> usize {
        self.positions.len().saturating_sub(1)
    }

    /// The tiles' node numbers.
    pub fn tiles(&self) -> std::ops::Range<usize> {
        1..self.positions.len()
    }

    /// The grid cell of a node.
    pub fn position(&self, node: usize) -> Pos {
        self.positions[node]
    }

    /// The node at a grid cell, if the cell is the start or a tile.
    pub fn node_at(&self, pos: Pos) -> Option<usize> {
        self.node_at.get(pos).copied().flatten()
    }

    /// The nodes 4-adjacent to a node, the start included.
    pub fn neighbours(&self, node: usize) -> &[usize] {
        &self.neighbours[node]
    }

    /// Every arc as `(from, to)`; the index is the arc's number.
    pub fn arcs(&self) -> &[(usize, usize)] {
        &self.arcs
    }

    /// The arcs leaving a node.
    pub fn out_arcs(&self, node: usize) -> &[usize] {
        &self.out_arcs[node]
    }

    /// The arcs entering a node (none for the start).
    pub fn in_arcs(&self, node: usize) -> &[usize] {
        &self.in_arcs[node]
    }

    /// The tile the walk must end on, if the room has one.
    pub fn end(&self) -> Option<usize> {
        self.end
    }

    /// How many tiles may stay uncovered.
    pub fn leave_uncovered(&self) -> usize {
        self.leave_uncovered
    }

    /// Whether a node has the start's colour on the checkerboard.
    pub fn same_colour_as_start(&self, node: usize) -> bool {
        let (r0, c0) = self.positions[START];
        let (r, c) = self.positions[node];
        (r + c) % 2 == (r0 + c0) % 2
    }

    /// Steps from the start to each node through nodes, `None` when
    /// unreachable.
    pub fn distances(&self) -> Vec<Option<usize>> {
        let mut dist = vec![None; self.num_nodes()];
        if self.positions.is_empty() {
            return dist;
        }
        dist[START] = Some(0);
        let mut queue = std::collections::VecDeque::from([START]);
        while let Some(node) = queue.pop_front() {
            let next_dist = dist[node].map(|d| d + 1);
            for &next in &self.neighbours[node] {
                if dist[next].is_none() {
                    dist[next] = next_dist;
                    queue.push_back(next);
                }
            }
        }
        dist
    }

    /// "(row, col)" for messages.
    pub fn label(&self, node: usize) -> String {
        let (row, col) = self.positions[node];
        format!("({row}, {col})")
    }
}

//! The graph of chosen cells of a grid: its nodes are the cells, numbered
//! with the start (when there is one) first and the rest in reading order,
//! and its directed arcs join 4-adjacent nodes. No arc enters the start: a
//! path stands on it already.

use crate::grid::{Dir, Pos};

/// The start's node number, in a graph that has a start.
pub const START: usize = 0;

/// Chosen cells of a `rows` × `cols` grid as a graph, with an optional
/// start (node [`START`], never entered) and an optional end.
///
/// ```
/// use somaria::graph::GridGraph;
/// // A 2 x 2 grid with the bottom-right cell left out, starting at the top left.
/// let graph = GridGraph::new(2, 2, |pos| pos != (1, 1), Some((0, 0)), None);
/// assert_eq!(graph.num_nodes(), 3);
/// // start -> (0, 1), start -> (1, 0); nothing enters the start.
/// assert_eq!(graph.arcs().len(), 2);
/// assert_eq!(graph.node_at((1, 0)), Some(2));
/// ```
#[derive(Clone, Debug)]
pub struct GridGraph {
    rows: usize,
    cols: usize,
    positions: Vec<Pos>,
    node_at: Vec<Option<usize>>,
    neighbours: Vec<Vec<usize>>,
    arcs: Vec<(usize, usize)>,
    out_arcs: Vec<Vec<usize>>,
    in_arcs: Vec<Vec<usize>>,
    start: Option<usize>,
    end: Option<usize>,
}

impl GridGraph {
    /// The graph of the cells of a `rows` × `cols` grid that `is_node`
    /// accepts, with `start` (which becomes node [`START`]) and `end` among
    /// them when given; a start or end that `is_node` refuses is a node all
    /// the same.
    pub fn new(
        rows: usize,
        cols: usize,
        is_node: impl Fn(Pos) -> bool,
        start: Option<Pos>,
        end: Option<Pos>,
    ) -> GridGraph {
        let cells = (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c)));
        let others = cells.filter(|&p| Some(p) != start && (is_node(p) || Some(p) == end));
        let positions: Vec<Pos> = start.into_iter().chain(others).collect();
        let mut node_at = vec![None; rows * cols];
        for (node, &(row, col)) in positions.iter().enumerate() {
            node_at[row * cols + col] = Some(node);
        }
        let step = |(row, col): Pos, dir: Dir| -> Option<usize> {
            let (r, c) = match dir {
                Dir::Up => (row.checked_sub(1)?, col),
                Dir::Down => (row + 1, col),
                Dir::Left => (row, col.checked_sub(1)?),
                Dir::Right => (row, col + 1),
            };
            if r < rows && c < cols { node_at[r * cols + c] } else { None }
        };
        let neighbours: Vec<Vec<usize>> =
            positions.iter().map(|&pos| Dir::ALL.iter().filter_map(|&d| step(pos, d)).collect()).collect();
        let start = start.map(|_| START);
        let end = end.and_then(|(row, col)| node_at[row * cols + col]);
        GridGraph::assemble(rows, cols, positions, node_at, neighbours, start, end)
    }

    /// The graph given as data: nodes `0..nodes` that `is_node` accepts,
    /// joined by the undirected `edges` (pairs of node numbers below
    /// `nodes`), as arcs both ways. A self-loop joins nothing and parallel
    /// edges join once; an edge to a node `is_node` refuses is left out.
    /// Node `k` keeps its number when every node is accepted; its position
    /// is `(k, 0)` of a grid of `nodes` rows and one column, so the cut and
    /// encoding code written for grids serves it unchanged. It has no start
    /// and no end, and its checkerboard colours mean nothing.
    ///
    /// ```
    /// use somaria::graph::GridGraph;
    /// // A triangle 0-1-2, the edge 1-2 twice, a self-loop at 3.
    /// let graph = GridGraph::from_edges(4, &[(0, 1), (1, 2), (2, 1), (2, 0), (3, 3)], |_| true);
    /// assert_eq!(graph.num_nodes(), 4);
    /// assert_eq!(graph.arcs().len(), 6);
    /// assert_eq!(graph.neighbours(1), &[0, 2]);
    /// assert!(graph.neighbours(3).is_empty());
    /// ```
    pub fn from_edges(nodes: usize, edges: &[(usize, usize)], is_node: impl Fn(usize) -> bool) -> GridGraph {
        let mut node_at = vec![None; nodes];
        let mut positions = Vec::new();
        for k in (0..nodes).filter(|&k| is_node(k)) {
            node_at[k] = Some(positions.len());
            positions.push((k, 0));
        }
        let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); positions.len()];
        for &(a, b) in edges {
            let (Some(Some(u)), Some(Some(v))) = (node_at.get(a), node_at.get(b)) else { continue };
            if u != v && !neighbours[*u].contains(v) {
                neighbours[*u].push(*v);
                neighbours[*v].push(*u);
            }
        }
        for next in &mut neighbours {
            next.sort_unstable();
        }
        GridGraph::assemble(nodes, 1, positions, node_at, neighbours, None, None)
    }

    /// The arcs between neighbours, none into the start.
    fn assemble(
        rows: usize,
        cols: usize,
        positions: Vec<Pos>,
        node_at: Vec<Option<usize>>,
        neighbours: Vec<Vec<usize>>,
        start: Option<usize>,
        end: Option<usize>,
    ) -> GridGraph {
        let mut arcs = Vec::new();
        let mut out_arcs = vec![Vec::new(); positions.len()];
        let mut in_arcs = vec![Vec::new(); positions.len()];
        for (from, next) in neighbours.iter().enumerate() {
            for &to in next.iter().filter(|&&to| Some(to) != start) {
                out_arcs[from].push(arcs.len());
                in_arcs[to].push(arcs.len());
                arcs.push((from, to));
            }
        }
        GridGraph { rows, cols, positions, node_at, neighbours, arcs, out_arcs, in_arcs, start, end }
    }

    /// The graph with only the nodes `keep` marks (the start among them,
    /// when there is one), as if the others were not chosen, with `end` (a
    /// node of this graph) as its end. Node numbers change; the second value
    /// maps the new ones to these.
    pub fn restricted(&self, keep: &[bool], end: Option<usize>) -> (GridGraph, Vec<usize>) {
        let old_of: Vec<usize> = (0..self.num_nodes()).filter(|&v| keep[v]).collect();
        let mut new_of = vec![None; self.num_nodes()];
        for (new, &old) in old_of.iter().enumerate() {
            new_of[old] = Some(new);
        }
        let positions: Vec<Pos> = old_of.iter().map(|&v| self.positions[v]).collect();
        let mut node_at = vec![None; self.rows * self.cols];
        for (new, &(row, col)) in positions.iter().enumerate() {
            node_at[row * self.cols + col] = Some(new);
        }
        let neighbours =
            old_of.iter().map(|&v| self.neighbours[v].iter().filter_map(|&w| new_of[w]).collect()).collect();
        let start = self.start.and_then(|s| new_of[s]);
        let end = end.and_then(|e| new_of[e]);
        (GridGraph::assemble(self.rows, self.cols, positions, node_at, neighbours, start, end), old_of)
    }

    /// Rows of the grid.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of the grid.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of nodes.
    pub fn num_nodes(&self) -> usize {
        self.positions.len()
    }

    /// The nodes other than the start.
    pub fn others(&self) -> std::ops::Range<usize> {
        usize::from(self.start.is_some()).min(self.positions.len())..self.positions.len()
    }

    /// The grid cell of a node.
    pub fn position(&self, node: usize) -> Pos {
        self.positions[node]
    }

    /// The node at a grid cell, if the cell is one.
    pub fn node_at(&self, (row, col): Pos) -> Option<usize> {
        if row < self.rows && col < self.cols { self.node_at[row * self.cols + col] } else { None }
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

    /// The arc from `to` back to `from` of the arc given, if there is one
    /// (there is none into the start).
    pub fn reverse(&self, arc: usize) -> Option<usize> {
        let (from, to) = self.arcs[arc];
        self.out_arcs[to].iter().copied().find(|&b| self.arcs[b].1 == from)
    }

    /// The start node, [`START`], when the graph has one.
    pub fn start(&self) -> Option<usize> {
        self.start
    }

    /// The node a path must end on, when there is one.
    pub fn end(&self) -> Option<usize> {
        self.end
    }

    /// The checkerboard colour of a node: whether its row plus column is odd.
    pub fn colour(&self, node: usize) -> bool {
        let (row, col) = self.positions[node];
        (row + col) % 2 == 1
    }

    /// Steps from `from` to each node through nodes, `None` when unreachable.
    pub fn distances_from(&self, from: usize) -> Vec<Option<usize>> {
        let mut dist = vec![None; self.num_nodes()];
        if from >= self.num_nodes() {
            return dist;
        }
        dist[from] = Some(0);
        let mut queue = std::collections::VecDeque::from([from]);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_arcs_and_restriction() {
        // . . .
        // . # S
        let graph = GridGraph::new(2, 3, |pos| pos != (1, 1), Some((1, 2)), Some((1, 0)));
        assert_eq!(graph.num_nodes(), 5);
        assert_eq!(graph.position(START), (1, 2));
        assert_eq!(graph.end(), graph.node_at((1, 0)));
        assert!(graph.in_arcs(START).is_empty());
        assert_eq!(graph.out_arcs(START).len(), 1);
        // (0,0)-(0,1), (0,1)-(0,2), (0,0)-(1,0) both ways, and (0,2) -> S is left out.
        assert_eq!(graph.arcs().len(), 1 + 6);
        assert_eq!(graph.others(), 1..5);
        let arc = graph.out_arcs(graph.node_at((0, 0)).unwrap())[0];
        assert_eq!(graph.arcs()[graph.reverse(arc).unwrap()].1, graph.node_at((0, 0)).unwrap());
        let keep: Vec<bool> = (0..5).map(|n| graph.position(n) != (1, 0)).collect();
        let (smaller, old_of) = graph.restricted(&keep, None);
        assert_eq!(smaller.num_nodes(), 4);
        assert_eq!(smaller.end(), None);
        assert_eq!(old_of[0], START);
        assert_eq!(smaller.distances_from(START)[smaller.node_at((0, 0)).unwrap()], Some(3));
    }

    #[test]
    fn a_graph_without_a_start_has_arcs_both_ways() {
        let graph = GridGraph::new(2, 2, |_| true, None, None);
        assert_eq!(graph.arcs().len(), 8);
        assert_eq!(graph.others(), 0..4);
        assert!(graph.colour(1) && !graph.colour(0));
        let empty = GridGraph::new(0, 0, |_| true, None, None);
        assert_eq!(empty.num_nodes(), 0);
        assert_eq!(empty.others(), 0..0);
    }
}

//! Acyclicity of the edges a model uses, over a graph given as data (any
//! undirected multigraph: self-loops and parallel edges included): the
//! cycles of a model, and the repair step's cuts against them.
//!
//! A cycle is cut by "not all of these edges": every solution leaves out
//! an edge of every cycle, so the clause holds for all of them, and the
//! solver keeps it for good.

use super::Judgement;
use crate::cnf::Lit;

/// Cycles among the edges `used` marks (`edges` over nodes `0..nodes`),
/// each as edge numbers: one per used edge that closes a cycle with the
/// used edges before it (its fundamental cycle over the spanning forest of
/// those), so none when the used edges form a forest. A self-loop is a
/// cycle of one edge; two parallel edges, of two.
pub fn forest_cycles(nodes: usize, edges: &[(usize, usize)], used: &[bool]) -> Vec<Vec<usize>> {
    // The spanning forest so far: per node, (neighbour, edge number).
    let mut tree: Vec<Vec<(usize, usize)>> = vec![Vec::new(); nodes];
    let mut piece: Vec<usize> = (0..nodes).collect();
    let mut cycles = Vec::new();
    for (e, &(u, v)) in edges.iter().enumerate().filter(|&(e, _)| used[e]) {
        let (pu, pv) = (root(&mut piece, u), root(&mut piece, v));
        if pu != pv {
            piece[pu] = pv;
            tree[u].push((v, e));
            tree[v].push((u, e));
            continue;
        }
        let mut cycle = tree_path(&tree, u, v);
        cycle.push(e);
        cycles.push(cycle);
    }
    cycles
}

/// The representative of `node`'s piece, halving the path on the way.
fn root(piece: &mut [usize], mut node: usize) -> usize {
    while piece[node] != node {
        piece[node] = piece[piece[node]];
        node = piece[node];
    }
    node
}

/// The edges of the path from `from` to `to` in the forest `tree`, which
/// joins them (empty when they are the same node).
fn tree_path(tree: &[Vec<(usize, usize)>], from: usize, to: usize) -> Vec<usize> {
    let mut came_by: Vec<Option<(usize, usize)>> = vec![None; tree.len()];
    let mut seen = vec![false; tree.len()];
    seen[from] = true;
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(node) = queue.pop_front() {
        if node == to {
            break;
        }
        for &(next, edge) in &tree[node] {
            if !seen[next] {
                seen[next] = true;
                came_by[next] = Some((node, edge));
                queue.push_back(next);
            }
        }
    }
    let mut path = Vec::new();
    let mut node = to;
    while let Some((before, edge)) = came_by[node] {
        path.push(edge);
        node = before;
    }
    path
}

/// Judges a model of a forest: the used edges (each edge's literal in
/// `used`) are accepted when they hold no cycle, else each cycle found is
/// cut by "not all of its edges".
pub fn judge_forest(nodes: usize, edges: &[(usize, usize)], used: &[Lit], value: &dyn Fn(Lit) -> bool) -> Judgement {
    let taken: Vec<bool> = used.iter().map(|&l| value(l)).collect();
    let cycles = forest_cycles(nodes, edges, &taken);
    if cycles.is_empty() {
        return Judgement::Accept(Vec::new());
    }
    Judgement::Cut(cycles.into_iter().map(|cycle| cycle.into_iter().map(|e| !used[e]).collect()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Whether the edges `used` marks hold a cycle, by counting: a forest
    /// on n nodes with c pieces has n - c edges.
    fn has_cycle(nodes: usize, edges: &[(usize, usize)], used: &[bool]) -> bool {
        let mut label: Vec<usize> = (0..nodes).collect();
        let mut taken = 0;
        for (e, &(u, v)) in edges.iter().enumerate() {
            if used[e] {
                taken += 1;
                let (a, b) = (label[u], label[v]);
                label.iter_mut().filter(|l| **l == a).for_each(|l| *l = b);
            }
        }
        let pieces = (0..nodes).filter(|&n| label[n] == n).count();
        taken > nodes - pieces
    }

    #[test]
    fn self_loops_and_parallel_edges_are_cycles() {
        let edges = [(0, 1), (1, 0), (2, 2), (1, 2)];
        assert_eq!(forest_cycles(3, &edges, &[true, true, false, true]), vec![vec![0, 1]]);
        assert_eq!(forest_cycles(3, &edges, &[false, false, true, false]), vec![vec![2]]);
        assert!(forest_cycles(3, &edges, &[true, false, false, true]).is_empty());
    }

    proptest! {
        /// Each cycle found is a closed walk of used edges, one is found
        /// exactly when the used edges are not a forest.
        #[test]
        fn cycles_are_found_exactly_when_there_are_some(
            nodes in 1usize..=6,
            raw in proptest::collection::vec((0usize..6, 0usize..6, any::<bool>()), 0..10),
        ) {
            let edges: Vec<(usize, usize)> = raw.iter().map(|&(a, b, _)| (a % nodes, b % nodes)).collect();
            let used: Vec<bool> = raw.iter().map(|&(_, _, u)| u).collect();
            let cycles = forest_cycles(nodes, &edges, &used);
            prop_assert_eq!(!cycles.is_empty(), has_cycle(nodes, &edges, &used));
            for cycle in &cycles {
                // Every node of a cycle meets an even number of its edges.
                let mut degree = vec![0; nodes];
                for &e in cycle {
                    prop_assert!(used[e]);
                    degree[edges[e].0] += 1;
                    degree[edges[e].1] += 1;
                }
                prop_assert!(degree.iter().all(|d| d % 2 == 0));
            }
        }
    }
}

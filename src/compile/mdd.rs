//! Reduced decision diagrams for linear constraints over integer variables
//! (the multi-valued form of the BDD encoding of pseudo-Boolean
//! constraints; Abío, Nieuwenhuis, Oliveras and Rodríguez-Carbonell, "BDDs
//! for pseudo-Boolean constraints – revisited", 2011). A node is the rest
//! of the sum still to reach, and carries the interval of remainders that
//! lead to the same sub-diagram, so that equivalent nodes are built once.

use std::collections::BTreeMap;

/// Where an edge leads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// The rest of the constraint holds whatever the later variables are.
    True,
    /// The rest of the constraint cannot hold.
    False,
    /// A node.
    Node(usize),
}

/// A node: its layer, and its edges as runs of consecutive domain values
/// `(first, last, next)` that lead to the same place.
#[derive(Clone, Debug)]
pub struct Node {
    /// The layer, which is the variable it branches on.
    pub layer: usize,
    /// The edges.
    pub edges: Vec<(i64, i64, Next)>,
}

/// A built diagram.
#[derive(Clone, Debug)]
pub struct Diagram {
    /// The nodes.
    pub nodes: Vec<Node>,
    /// The root.
    pub root: Next,
}

const INF: i128 = i128::MAX / 4;

struct Builder<'a> {
    layers: &'a [(i128, Vec<i64>)],
    rest: Vec<(i128, i128)>,
    equal: bool,
    memo: Vec<BTreeMap<i128, (i128, Next)>>,
    nodes: Vec<Node>,
    edges: usize,
    max_nodes: usize,
    max_edges: usize,
}

impl Builder<'_> {
    /// The sub-diagram from layer `i` for "the rest adds up to at most
    /// (or exactly) `r`", with the interval of remainders that share it.
    fn visit(&mut self, i: usize, r: i128) -> Option<(i128, i128, Next)> {
        let (lo, hi) = self.rest[i];
        if r < lo {
            return Some((-INF, lo - 1, Next::False));
        }
        if !self.equal && r >= hi {
            return Some((hi, INF, Next::True));
        }
        if self.equal && r > hi {
            return Some((hi + 1, INF, Next::False));
        }
        if i == self.layers.len() {
            // Only an equality reaches here, with r = 0.
            return Some((0, 0, Next::True));
        }
        if let Some((&a, &(b, next))) = self.memo[i].range(..=r).next_back()
            && b >= r
        {
            return Some((a, b, next));
        }
        let (c, values) = &self.layers[i];
        let (mut a, mut b) = (-INF, INF);
        let mut edges: Vec<(i64, i64, Next)> = Vec::new();
        for &v in values {
            self.edges += 1;
            if self.edges > self.max_edges {
                return None;
            }
            let shift = c * v as i128;
            let (ca, cb, next) = self.visit(i + 1, r - shift)?;
            a = a.max(ca.saturating_add(shift));
            b = b.min(cb.saturating_add(shift));
            match edges.last_mut() {
                Some(last) if last.2 == next => last.1 = v,
                _ => edges.push((v, v, next)),
            }
        }
        let next = if edges.len() == 1 {
            edges[0].2
        } else {
            if self.nodes.len() >= self.max_nodes {
                return None;
            }
            self.nodes.push(Node { layer: i, edges });
            Next::Node(self.nodes.len() - 1)
        };
        self.memo[i].insert(a, (b, next));
        Some((a, b, next))
    }
}

/// The reduced diagram of `Σ c_i·x_i ≤ target` (or `= target` when
/// `equal`), where layer i is `(c_i, values of x_i in increasing order)`;
/// `None` when it would have more than `max_nodes` nodes or take more than
/// `max_edges` steps to build. For example `2x + 3y ≤ 6` over x, y in 0..3
/// is `build(&[(2, vec![0, 1, 2, 3]), (3, vec![0, 1, 2, 3])], 6, false, ..)`.
pub fn build(
    layers: &[(i128, Vec<i64>)],
    target: i128,
    equal: bool,
    max_nodes: usize,
    max_edges: usize,
) -> Option<Diagram> {
    let n = layers.len();
    let mut rest = vec![(0i128, 0i128); n + 1];
    for i in (0..n).rev() {
        let (c, values) = &layers[i];
        let first = *values.first()? as i128;
        let last = *values.last()? as i128;
        let (a, b) = (c * first, c * last);
        rest[i] = (rest[i + 1].0 + a.min(b), rest[i + 1].1 + a.max(b));
    }
    let mut builder = Builder {
        layers,
        rest,
        equal,
        memo: vec![BTreeMap::new(); n],
        nodes: Vec::new(),
        edges: 0,
        max_nodes,
        max_edges,
    };
    let (_, _, root) = builder.visit(0, target)?;
    Some(Diagram { nodes: builder.nodes, root })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Follows the diagram for an assignment.
    fn holds(d: &Diagram, values: &[i64]) -> bool {
        let mut at = d.root;
        loop {
            match at {
                Next::True => return true,
                Next::False => return false,
                Next::Node(id) => {
                    let node = &d.nodes[id];
                    let v = values[node.layer];
                    at = node.edges.iter().find(|(a, b, _)| *a <= v && v <= *b).map_or(Next::False, |e| e.2);
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Every assignment is accepted exactly when the sum meets the bound.
        #[test]
        fn diagrams_accept_exactly_the_solutions(
            terms in prop::collection::vec((-5i128..=5, -3i64..=3, 0i64..=3), 1..5),
            target in -20i128..=20,
            equal: bool,
        ) {
            let layers: Vec<(i128, Vec<i64>)> = terms.iter().map(|&(c, lo, w)| (c, (lo..=lo + w).collect())).collect();
            let d = build(&layers, target, equal, 10_000, 100_000).unwrap();
            let mut assignment = vec![0i64; layers.len()];
            let total: usize = layers.iter().map(|(_, v)| v.len()).product();
            for mut code in 0..total {
                for (slot, (_, values)) in assignment.iter_mut().zip(&layers) {
                    *slot = values[code % values.len()];
                    code /= values.len();
                }
                let sum: i128 = layers.iter().zip(&assignment).map(|((c, _), &v)| c * v as i128).sum();
                let expected = if equal { sum == target } else { sum <= target };
                prop_assert_eq!(holds(&d, &assignment), expected, "{:?} {:?}", layers, assignment);
            }
        }
    }

    #[test]
    fn equivalent_remainders_share_a_node() {
        // x1 + ... + x10 ≤ 5 over 0/1: a totalizer-like grid, not 2^10 nodes.
        let layers: Vec<(i128, Vec<i64>)> = (0..10).map(|_| (1, vec![0, 1])).collect();
        let d = build(&layers, 5, false, 10_000, 100_000).unwrap();
        assert!(d.nodes.len() <= 10 * 6, "{} nodes", d.nodes.len());
        assert!(build(&layers, 5, false, 3, 100_000).is_none());
    }
}

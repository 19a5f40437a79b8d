//! Cut clauses: what the lazy encodings add between solves when a model
//! breaks into pieces. Every cut holds in every solution of the whole
//! constraint, not only against the model that prompted it, so a solver
//! keeps them for good, through counting, facts and explanations alike.
//!
//! A cut-set cut says "the path (or loop, or region) enters this set of
//! nodes". It holds in every solution that has a node on inside the set and
//! one outside, so when a solution could have no node on inside, it is
//! guarded node by node ("this node is off, or ..."), and when nothing
//! outside is surely on, by a node outside that the model has on.

use super::cells::{GridGraph, START};
use crate::cnf::{Lit, Var};

/// How a lazy encoding forbids a detached cycle it has found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CutStyle {
    /// "The path enters this set of nodes", for every piece of the model.
    CutSet,
    /// "Not all of these arcs at once".
    Nogood,
}

/// What the cuts may assume about which nodes are on in every solution:
/// each node's literal, the nodes that are always on, and how many nodes
/// may be off at most, when that is known.
#[derive(Clone, Debug)]
pub struct Cover<'a> {
    /// Each node's "on" literal.
    pub on: &'a [Lit],
    /// The nodes that are on in every solution.
    pub always_on: &'a [bool],
    /// At most this many nodes are off in any solution, when known.
    pub most_off: Option<usize>,
}

impl Cover<'_> {
    /// Whether some solution may have every node of `nodes` off.
    fn may_all_be_off(&self, nodes: &[usize]) -> bool {
        !nodes.iter().any(|&n| self.always_on[n]) && self.most_off.is_none_or(|k| nodes.len() <= k)
    }

    /// A node outside `inside` that is always on, if any.
    fn always_on_outside(&self, inside: &[bool]) -> Option<usize> {
        (0..self.always_on.len()).find(|&n| self.always_on[n] && !inside[n])
    }

    /// `body` guarded so that it only binds when a node of `nodes` is on (one
    /// clause per node when all of them may be off) and, when `outside` is
    /// given, when that node is on.
    fn guarded(&self, nodes: &[usize], outside: Option<usize>, body: &[Lit]) -> Vec<Vec<Lit>> {
        let outside: Vec<Lit> = outside.map(|w| !self.on[w]).into_iter().collect();
        if !self.may_all_be_off(nodes) {
            return vec![[&outside[..], body].concat()];
        }
        nodes.iter().map(|&n| [&[!self.on[n]], &outside[..], body].concat()).collect()
    }
}

/// The arcs, by number, that enter the set of nodes `inside` marks.
fn entering(graph: &GridGraph, nodes: &[usize], inside: &[bool], arcs: &[Var]) -> Vec<Lit> {
    nodes
        .iter()
        .flat_map(|&node| graph.in_arcs(node))
        .filter(|&&a| !inside[graph.arcs()[a].0])
        .map(|&a| arcs[a].pos())
        .collect()
}

fn marks(graph: &GridGraph, nodes: &[usize]) -> Vec<bool> {
    let mut inside = vec![false; graph.num_nodes()];
    for &n in nodes {
        inside[n] = true;
    }
    inside
}

/// The groups of cycles that touch each other (a neighbour of one is on
/// another), each as the nodes of its cycles, for groups of more than one
/// cycle.
fn touching_groups(graph: &GridGraph, cycles: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut in_cycle = vec![false; graph.num_nodes()];
    for &arc in cycles.iter().flatten() {
        in_cycle[graph.arcs()[arc].0] = true;
    }
    let mut groups = Vec::new();
    if cycles.len() < 2 {
        return groups;
    }
    let mut seen = vec![false; graph.num_nodes()];
    for first in graph.others() {
        if !in_cycle[first] || seen[first] {
            continue;
        }
        let mut group = vec![first];
        seen[first] = true;
        let mut next = 0;
        while next < group.len() {
            for &n in graph.neighbours(group[next]) {
                if in_cycle[n] && !seen[n] {
                    seen[n] = true;
                    group.push(n);
                }
            }
            next += 1;
        }
        let cycles_inside = cycles.iter().filter(|c| group.contains(&graph.arcs()[c[0]].0)).count();
        if cycles_inside > 1 {
            groups.push(group);
        }
    }
    groups
}

/// The cuts of a path encoding ([`super::path_arcs`]) against the detached
/// `cycles` (each as its arcs) of the model `value` reads: per cycle a
/// cut-set (or a nogood), and with cut-sets also one per group of touching
/// cycles, and "the path leaves the nodes it reaches unless it ends among
/// them".
pub fn path_cuts(
    graph: &GridGraph,
    arcs: &[Var],
    lasts: &[Option<Lit>],
    cover: &Cover<'_>,
    style: CutStyle,
    cycles: &[Vec<usize>],
    value: &dyn Fn(Lit) -> bool,
) -> Vec<Vec<Lit>> {
    let mut cuts = Vec::new();
    for cycle in cycles {
        match style {
            CutStyle::Nogood => cuts.push(cycle.iter().map(|&a| arcs[a].neg()).collect()),
            CutStyle::CutSet => {
                let nodes: Vec<usize> = cycle.iter().map(|&a| graph.arcs()[a].0).collect();
                cuts.extend(path_entry_cuts(graph, arcs, cover, &nodes));
            }
        }
    }
    if style == CutStyle::CutSet {
        for group in touching_groups(graph, cycles) {
            cuts.extend(path_entry_cuts(graph, arcs, cover, &group));
        }
        // The path's nodes: the start and the nodes the model walks to.
        let mut on_walk = vec![false; graph.num_nodes()];
        let mut node = START;
        on_walk[START] = true;
        while let Some(&arc) = graph.out_arcs(node).iter().find(|&&a| value(arcs[a].pos())) {
            node = graph.arcs()[arc].1;
            if on_walk[node] {
                break;
            }
            on_walk[node] = true;
        }
        let mut leave_or_end: Vec<Lit> = (0..graph.num_nodes())
            .filter(|&n| on_walk[n])
            .flat_map(|n| graph.out_arcs(n))
            .filter(|&&a| !on_walk[graph.arcs()[a].1])
            .map(|&a| arcs[a].pos())
            .collect();
        leave_or_end.extend((0..graph.num_nodes()).filter(|&n| on_walk[n]).filter_map(|n| lasts[n]));
        cuts.push(leave_or_end);
    }
    cuts
}

/// "The path enters this set of nodes" (which never holds the start): the
/// start is on and outside, so a path that has a node on inside comes in.
fn path_entry_cuts(graph: &GridGraph, arcs: &[Var], cover: &Cover<'_>, nodes: &[usize]) -> Vec<Vec<Lit>> {
    let inside = marks(graph, nodes);
    let entering = entering(graph, nodes, &inside, arcs);
    cover.guarded(nodes, None, &entering)
}

/// The cuts of a loop encoding ([`super::loop_arcs`]) against a model with
/// several `cycles` (each as its arcs): per cycle "the loop enters it" (or
/// "not all of its steps", over the [`super::undirected_steps`] `steps`),
/// guarded by a node of another cycle being on unless a node outside is
/// always on, and the same for each group of touching cycles.
///
/// Taking all of a cycle's steps closes it, so the loop is that cycle alone
/// and nothing outside it is on: the nogood holds in every solution.
/// Measured on the shipped slitherlinks, whose clues speak about the steps,
/// these short clauses need about a quarter of the solving time of the
/// cut-sets, whose clauses grow with the cycle's size squared.
pub fn loop_cuts(
    graph: &GridGraph,
    arcs: &[Var],
    steps: &[(usize, Lit)],
    cover: &Cover<'_>,
    style: CutStyle,
    cycles: &[Vec<usize>],
) -> Vec<Vec<Lit>> {
    let mut step_of = vec![None; graph.arcs().len()];
    for &(arc, lit) in steps {
        step_of[arc] = Some(lit);
        if let Some(back) = graph.reverse(arc) {
            step_of[back] = Some(lit);
        }
    }
    let mut cuts = Vec::new();
    let first_node = |cycle: &[usize]| graph.arcs()[cycle[0]].0;
    for (i, cycle) in cycles.iter().enumerate() {
        let nodes: Vec<usize> = cycle.iter().map(|&a| graph.arcs()[a].0).collect();
        let inside = marks(graph, &nodes);
        let other = cover.always_on_outside(&inside).is_none().then(|| first_node(&cycles[(i + 1) % cycles.len()]));
        match style {
            CutStyle::Nogood => {
                // An arc without its step (never, for `undirected_steps`)
                // falls back to the arc itself: weaker, still valid.
                let mut clause: Vec<Lit> = cycle.iter().map(|&a| !step_of[a].unwrap_or(arcs[a].pos())).collect();
                clause.extend(other.map(|w| !cover.on[w]));
                cuts.push(clause);
            }
            CutStyle::CutSet => cuts.extend(cover.guarded(&nodes, other, &entering(graph, &nodes, &inside, arcs))),
        }
    }
    if style == CutStyle::CutSet {
        for group in touching_groups(graph, cycles) {
            let inside = marks(graph, &group);
            let outside = cycles.iter().map(|c| first_node(c)).find(|&n| !inside[n]);
            let other = match cover.always_on_outside(&inside) {
                Some(_) => None,
                None if outside.is_some() => outside,
                None => continue,
            };
            cuts.extend(cover.guarded(&group, other, &entering(graph, &group, &inside, arcs)));
        }
    }
    cuts
}

/// The cuts of a region that must be 4-connected, against a model whose
/// nodes that are on fall into several `pieces`: for each piece, "if a node
/// of it and a node of another piece are on, a node next to it is on"
/// (its neighbours separate it from the rest).
pub fn region_cuts(graph: &GridGraph, cover: &Cover<'_>, pieces: &[Vec<usize>]) -> Vec<Vec<Lit>> {
    let mut cuts = Vec::new();
    for (i, piece) in pieces.iter().enumerate() {
        let inside = marks(graph, piece);
        let mut fence = vec![false; graph.num_nodes()];
        let mut boundary: Vec<Lit> = Vec::new();
        for &node in piece {
            for &n in graph.neighbours(node) {
                if !inside[n] && !fence[n] {
                    fence[n] = true;
                    boundary.push(cover.on[n]);
                }
            }
        }
        let other = cover.always_on_outside(&inside).is_none().then(|| pieces[(i + 1) % pieces.len()][0]);
        cuts.extend(cover.guarded(piece, other, &boundary));
    }
    cuts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Cnf;

    #[test]
    fn a_loop_cut_is_guarded_by_another_cycle() {
        // Two 2 x 2 squares side by side with a gap: 2 x 5, middle column out.
        let graph = GridGraph::new(2, 5, |(_, c)| c != 2, None, None);
        let mut cnf = Cnf::new();
        let on: Vec<Lit> = cnf.new_vars(graph.num_nodes()).into_iter().map(|v| v.pos()).collect();
        let arcs = cnf.new_vars(graph.arcs().len());
        let always_on = vec![false; graph.num_nodes()];
        let cover = Cover { on: &on, always_on: &always_on, most_off: None };
        let around = |cells: [(usize, usize); 4]| -> Vec<usize> {
            (0..4)
                .map(|i| {
                    let (from, to) = (graph.node_at(cells[i]).unwrap(), graph.node_at(cells[(i + 1) % 4]).unwrap());
                    graph.out_arcs(from).iter().copied().find(|&a| graph.arcs()[a].1 == to).unwrap()
                })
                .collect()
        };
        let left = around([(0, 0), (0, 1), (1, 1), (1, 0)]);
        let right = around([(0, 3), (0, 4), (1, 4), (1, 3)]);
        let cuts = loop_cuts(&graph, &arcs, &[], &cover, CutStyle::CutSet, &[left, right]);
        // Four guarded clauses per square; nothing enters either square, so
        // each says "this cell off or a cell of the other square off".
        assert_eq!(cuts.len(), 8);
        assert!(cuts.iter().all(|c| c.len() == 2));
        let pieces = vec![
            left_nodes(&graph, &[(0, 0), (0, 1), (1, 1), (1, 0)]),
            left_nodes(&graph, &[(0, 3), (0, 4), (1, 4), (1, 3)]),
        ];
        let region = region_cuts(&graph, &cover, &pieces);
        assert_eq!(region.len(), 8);
    }

    fn left_nodes(graph: &GridGraph, cells: &[(usize, usize)]) -> Vec<usize> {
        cells.iter().map(|&p| graph.node_at(p).unwrap()).collect()
    }
}

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
//!
//! A separator cut ([`CutStyle::Separator`]) guards with the whole of each
//! side instead: it splits the nodes into a far side (what one piece cannot
//! reach without crossing a fence), the fence, and the near side (the
//! rest), and says "if a node of the near side and a node of the far side
//! are on, the fence is crossed", with one fresh literal per side standing
//! for "a node of this side is on". So it binds in every solution, wherever
//! the pieces of the next model lie, and a solver propagates it as soon as
//! both sides have a node on and the fence is shut.

use super::cells::{GridGraph, START};
use crate::cnf::{Lit, Var};

/// How a lazy encoding forbids a detached cycle it has found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CutStyle {
    /// "The path enters this set of nodes", for every piece of the model.
    CutSet,
    /// "Not all of these arcs at once".
    Nogood,
    /// "A node on at either side of this fence means the fence is
    /// crossed", over fresh literals for each side (loops and regions).
    Separator,
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
/// them". A path has no separator cuts of its own: that style cuts as
/// `CutSet`.
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
            CutStyle::CutSet | CutStyle::Separator => {
                let nodes: Vec<usize> = cycle.iter().map(|&a| graph.arcs()[a].0).collect();
                cuts.extend(path_entry_cuts(graph, arcs, cover, &nodes));
            }
        }
    }
    if style != CutStyle::Nogood {
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
/// always on, and the same for each group of touching cycles. The
/// `Separator` style cuts as `CutSet` here; [`loop_separator_cuts`] makes
/// its own cuts.
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
    let step_of = step_literals(graph, steps);
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
            CutStyle::CutSet | CutStyle::Separator => {
                cuts.extend(cover.guarded(&nodes, other, &entering(graph, &nodes, &inside, arcs)))
            }
        }
    }
    if style != CutStyle::Nogood {
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

/// "Some node of `nodes` is on": the literal, defined both ways by clauses
/// pushed to `clauses` over a fresh variable, or `None` when a node of them
/// is always on (the literal would be true).
fn any_on(
    cover: &Cover<'_>,
    nodes: &[usize],
    fresh: &mut dyn FnMut() -> Var,
    clauses: &mut Vec<Vec<Lit>>,
) -> Option<Lit> {
    if nodes.iter().any(|&n| cover.always_on[n]) {
        return None;
    }
    let any = fresh().pos();
    clauses.extend(nodes.iter().map(|&n| vec![!cover.on[n], any]));
    clauses.push(std::iter::once(!any).chain(nodes.iter().map(|&n| cover.on[n])).collect());
    Some(any)
}

/// The separator cut between the nodes `far` marks and the rest but the
/// fence: "a node on at each side means one of `crossing` holds".
fn separator_cut(
    cover: &Cover<'_>,
    far: &[bool],
    fence: &[bool],
    crossing: Vec<Lit>,
    fresh: &mut dyn FnMut() -> Var,
) -> Vec<Vec<Lit>> {
    let mut clauses = Vec::new();
    let (far_nodes, near_nodes): (Vec<usize>, Vec<usize>) =
        (0..far.len()).filter(|&n| !fence[n]).partition(|&n| far[n]);
    let near = any_on(cover, &near_nodes, fresh, &mut clauses);
    let far = any_on(cover, &far_nodes, fresh, &mut clauses);
    clauses.push(near.into_iter().chain(far).map(|l| !l).chain(crossing).collect());
    clauses
}

/// The parts of the graph without the nodes `removed` marks that hold a
/// node `on` marks, each as marks over the nodes.
fn parts_with_on(graph: &GridGraph, removed: &[bool], on: &[bool]) -> Vec<Vec<bool>> {
    let mut seen = removed.to_vec();
    let mut parts = Vec::new();
    for first in 0..graph.num_nodes() {
        if seen[first] || !on[first] {
            continue;
        }
        let mut part = vec![false; graph.num_nodes()];
        let mut stack = vec![first];
        seen[first] = true;
        while let Some(node) = stack.pop() {
            part[node] = true;
            for &n in graph.neighbours(node) {
                if !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        parts.push(part);
    }
    parts
}

/// The separator cuts of a loop against a model with several `cycles`
/// (each as its arcs, `on` the nodes the model has on): for each cycle and
/// each part of the graph without it that holds another cycle, "a node on
/// in that part and one on elsewhere mean a step between the cycle and the
/// part is taken". The part is what the cycle shuts in or out, so one cut
/// rules out every loop that stays on the cycle's side, not only this one.
pub fn loop_separator_cuts(
    graph: &GridGraph,
    arcs: &[Var],
    steps: &[(usize, Lit)],
    cover: &Cover<'_>,
    cycles: &[Vec<usize>],
    on: &[bool],
    fresh: &mut dyn FnMut() -> Var,
) -> Vec<Vec<Lit>> {
    let step_of = step_literals(graph, steps);
    let no_fence = vec![false; graph.num_nodes()];
    let mut cuts = Vec::new();
    for cycle in cycles {
        let nodes: Vec<usize> = cycle.iter().map(|&a| graph.arcs()[a].0).collect();
        let inside = marks(graph, &nodes);
        for part in parts_with_on(graph, &inside, on) {
            // A step stands for both its arcs; an arc without one (never,
            // for `undirected_steps`) stands for itself, each way.
            let crossing: Vec<Lit> = nodes
                .iter()
                .flat_map(|&n| graph.out_arcs(n).iter().chain(graph.in_arcs(n)))
                .filter(|&&a| part[graph.arcs()[a].0] || part[graph.arcs()[a].1])
                .filter(|&&a| step_of[a].is_none() || part[graph.arcs()[a].1])
                .map(|&a| step_of[a].unwrap_or(arcs[a].pos()))
                .collect();
            cuts.extend(separator_cut(cover, &part, &no_fence, crossing, fresh));
        }
    }
    cuts
}

/// The separator cuts of a region that must be 4-connected, against a
/// model whose nodes that are on fall into several `pieces`: for each piece
/// and each part of the graph beyond its neighbours that holds another
/// piece, "a node on in that part and one on elsewhere (the fence aside)
/// mean a node of the fence is on", the fence being the piece's neighbours
/// next to that part.
pub fn region_separator_cuts(
    graph: &GridGraph,
    cover: &Cover<'_>,
    pieces: &[Vec<usize>],
    on: &[bool],
    fresh: &mut dyn FnMut() -> Var,
) -> Vec<Vec<Lit>> {
    let mut cuts = Vec::new();
    for piece in pieces {
        let mut shut = marks(graph, piece);
        for &node in piece {
            for &n in graph.neighbours(node) {
                shut[n] = true;
            }
        }
        for part in parts_with_on(graph, &shut, on) {
            let mut fence = vec![false; graph.num_nodes()];
            for node in (0..graph.num_nodes()).filter(|&n| part[n]) {
                for &n in graph.neighbours(node) {
                    fence[n] |= !part[n];
                }
            }
            let crossing = (0..graph.num_nodes()).filter(|&n| fence[n]).map(|n| cover.on[n]).collect();
            cuts.extend(separator_cut(cover, &part, &fence, crossing, fresh));
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

/// Per arc, the literal of the undirected step it belongs to, if any (both
/// directions of a step share it).
fn step_literals(graph: &GridGraph, steps: &[(usize, Lit)]) -> Vec<Option<Lit>> {
    let mut step_of = vec![None; graph.arcs().len()];
    for &(arc, lit) in steps {
        step_of[arc] = Some(lit);
        if let Some(back) = graph.reverse(arc) {
            step_of[back] = Some(lit);
        }
    }
    step_of
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Cnf;
    use proptest::prelude::*;

    /// The value of `lit` where the nodes, arcs and steps take `base` and
    /// each fresh variable (from index `base.len()` on) is what its
    /// definition in `cuts` says: a clause "not it, or these".
    fn holds(lit: Lit, base: &[bool], cuts: &[Vec<Lit>]) -> bool {
        let index = lit.var().index();
        let value = if index < base.len() {
            base[index]
        } else {
            let definition = cuts.iter().find(|c| c[0] == lit.var().neg()).expect("a fresh variable is defined");
            definition[1..].iter().any(|&l| holds(l, base, cuts))
        };
        value == lit.is_positive()
    }

    fn satisfied(cuts: &[Vec<Lit>], base: &[bool]) -> bool {
        cuts.iter().all(|c| c.iter().any(|&l| holds(l, base, cuts)))
    }

    /// A grid of `rows` x `cols` whose nodes are the cells `mask` keeps.
    fn masked(rows: usize, cols: usize, mask: u32) -> GridGraph {
        GridGraph::new(rows, cols, |(r, c)| mask >> (r * cols + c) & 1 == 1, None, None)
    }

    /// Every node in `always` (by index, when it is a node) is always on.
    fn always_on(graph: &GridGraph, always: Option<usize>) -> Vec<bool> {
        (0..graph.num_nodes()).map(|n| Some(n) == always.map(|a| a % graph.num_nodes())).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]

        /// On small lattices with cells left out, every union of two or
        /// more disjoint cycles gets separator cuts that it breaks and that
        /// every single loop (through the always-on node, if any) keeps.
        #[test]
        fn loop_separator_cuts_hold_for_every_loop_and_cut_the_model(
            rows in 2usize..=3, cols in 2usize..=4, mask in any::<u32>(), always in prop::option::of(0usize..12),
        ) {
            let graph = masked(rows, cols, mask | 0x0f0f);
            prop_assume!(graph.num_nodes() > 0);
            let n = graph.num_nodes();
            let on: Vec<Lit> = (0..n).map(|i| Var::from_index(i).pos()).collect();
            let arcs: Vec<Var> = (0..graph.arcs().len()).map(|a| Var::from_index(n + a)).collect();
            let edges: Vec<usize> = (0..graph.arcs().len()).filter(|&a| graph.arcs()[a].0 < graph.arcs()[a].1).collect();
            let step_base = n + arcs.len();
            let steps: Vec<(usize, Lit)> =
                edges.iter().enumerate().map(|(i, &a)| (a, Var::from_index(step_base + i).pos())).collect();
            let always_on = always_on(&graph, always);
            let cover = Cover { on: &on, always_on: &always_on, most_off: None };
            let base_len = step_base + edges.len();
            let (mut loops, mut broken) = (Vec::new(), Vec::new());
            for subset in 0u32..1 << edges.len() {
                let taken: Vec<usize> = (0..edges.len()).filter(|&i| subset >> i & 1 == 1).map(|i| edges[i]).collect();
                let Some(cycles) = cycles_of(&graph, &taken) else { continue };
                let mut base = vec![false; base_len];
                for arc in cycles.iter().flatten() {
                    base[n + arc] = true;
                    base[graph.arcs()[*arc].0] = true;
                }
                for (i, _) in edges.iter().enumerate().filter(|(_, a)| taken.contains(a)) {
                    base[step_base + i] = true;
                }
                if (0..n).any(|v| always_on[v] && !base[v]) {
                    continue;
                }
                if cycles.len() == 1 { loops.push(base) } else { broken.push((base, cycles)) }
            }
            for (model, cycles) in &broken {
                let mut next = base_len;
                let mut fresh = || { next += 1; Var::from_index(next - 1) };
                let model_on: Vec<bool> = model[..n].to_vec();
                let cuts = loop_separator_cuts(&graph, &arcs, &steps, &cover, cycles, &model_on, &mut fresh);
                prop_assert!(!satisfied(&cuts, model), "the cuts keep the model they were made against");
                for base in &loops {
                    prop_assert!(satisfied(&cuts, base), "a cut rules out a loop");
                }
            }
        }

        /// On small grids with cells left out, every set of nodes in two or
        /// more pieces gets separator cuts that it breaks and that every
        /// 4-connected set (holding the always-on node, if any) keeps.
        #[test]
        fn region_separator_cuts_hold_for_every_region_and_cut_the_model(
            rows in 1usize..=3, cols in 2usize..=4, mask in any::<u32>(), always in prop::option::of(0usize..12),
        ) {
            let graph = masked(rows, cols, mask);
            prop_assume!(graph.num_nodes() > 0);
            let n = graph.num_nodes();
            let on: Vec<Lit> = (0..n).map(|i| Var::from_index(i).pos()).collect();
            let always_on = always_on(&graph, always);
            let cover = Cover { on: &on, always_on: &always_on, most_off: None };
            let sets: Vec<Vec<bool>> = (0u32..1 << n)
                .map(|bits| (0..n).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
                .filter(|set| (0..n).all(|v| !always_on[v] || set[v]))
                .collect();
            let (regions, broken): (Vec<&Vec<bool>>, Vec<&Vec<bool>>) =
                sets.iter().partition(|set| super::super::components(&graph, set).len() <= 1);
            for model in broken {
                let pieces = super::super::components(&graph, model);
                let mut next = n;
                let mut fresh = || { next += 1; Var::from_index(next - 1) };
                let cuts = region_separator_cuts(&graph, &cover, &pieces, model, &mut fresh);
                prop_assert!(!satisfied(&cuts, model), "the cuts keep the model they were made against");
                for region in &regions {
                    prop_assert!(satisfied(&cuts, region), "a cut rules out a connected region");
                }
            }
        }
    }

    /// The cycles (each as its arcs in order) that the undirected steps
    /// `taken` (each by the number of its arc from the lesser node) make,
    /// or `None` when a node has another degree than 0 or 2.
    fn cycles_of(graph: &GridGraph, taken: &[usize]) -> Option<Vec<Vec<usize>>> {
        let mut degree = vec![0; graph.num_nodes()];
        for &a in taken {
            let (u, v) = graph.arcs()[a];
            degree[u] += 1;
            degree[v] += 1;
        }
        if taken.is_empty() || degree.iter().any(|&d| d != 0 && d != 2) {
            return None;
        }
        let edge_of = |a: usize| if graph.arcs()[a].0 < graph.arcs()[a].1 { a } else { graph.reverse(a).unwrap() };
        let mut used = vec![false; graph.arcs().len()];
        let mut cycles = Vec::new();
        for &first in taken {
            if used[first] {
                continue;
            }
            let mut cycle = vec![first];
            used[first] = true;
            used[graph.reverse(first).unwrap()] = true;
            let mut node = graph.arcs()[first].1;
            while node != graph.arcs()[first].0 {
                let next = graph.out_arcs(node).iter().copied().find(|&a| !used[a] && taken.contains(&edge_of(a)))?;
                used[next] = true;
                used[graph.reverse(next).unwrap()] = true;
                cycle.push(next);
                node = graph.arcs()[next].1;
            }
            cycles.push(cycle);
        }
        Some(cycles)
    }

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

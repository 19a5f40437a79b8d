//! The CNF encodings of the three grid constraints, over "on" literals the
//! caller supplies (one per node: constant true for a cell that is always
//! on, a variable or any literal otherwise):
//!
//! - [`path_arcs`]: successor arcs for one path from the start through
//!   exactly the nodes that are on: the start leaves once (unless it is the
//!   last), every other node that is on is entered once and left once unless
//!   it is the last, and the path ends once;
//! - [`loop_arcs`]: successor arcs for cycles through exactly the nodes that
//!   are on, each entered once and left once;
//! - [`binary_rank`]: the eager alternative that makes the arcs one piece,
//!   positions in binary that rise by one along every arc, so that no
//!   chain closes into a cycle (except through an exempt root, for a loop);
//! - [`first_on`] and [`rank_tree`]: the eager form of a connected region, a
//!   tree of parent arcs from its first node, ranked the same way.
//!
//! The successor encodings leave out that the arcs form one piece; the
//! lazy form adds cuts between solves ([`super::cuts`]), the eager one adds
//! ranks. Every encoding here writes to a [`Sink`], which names the parts in
//! the caller's own words.

use super::cells::{GridGraph, START};
use crate::cnf::{ClauseSink, Lit, Var, card};

/// A part of an encoding, for the caller to name: the clauses that follow
/// [`Sink::open`] state it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// The start is left once (or is the last node).
    StartLeft,
    /// A node that is on is entered once.
    Entered(usize),
    /// A node that is on is left once, unless it is the last.
    Left(usize),
    /// The path ends once, on the end node if there is one.
    EndsOnce,
    /// No arc is taken both ways.
    NoBackAndForth,
    /// A node of a loop that is on is entered once and left once.
    OnLoop(usize),
    /// Some node is on, so that there is a loop.
    LoopExists,
    /// Which node is the first that is on, in node order.
    FirstOn,
    /// A node of a region that is on, other than the first, has a parent.
    HasParent(usize),
    /// The start is at position 0.
    StartRank,
    /// The positions after a node.
    RankAfter(usize),
    /// A walk alternates colours.
    ColourCount,
    /// The colour of the node a path ends on fixes the colour count.
    EndColour,
}

/// A variable the encodings create and the caller may name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Named {
    /// The arc with this number is taken.
    Arc(usize),
    /// The node is the last of the path.
    Last(usize),
    /// The path ends on a node of the start's colour.
    EndColour,
}

/// A formula the encodings write to: variables and clauses, and names for
/// the parts in the caller's words (by default none).
pub trait Sink: ClauseSink {
    /// The clauses that follow state `part`.
    fn open(&mut self, part: Part) {
        let _ = part;
    }

    /// Names a variable the encoding created.
    fn name(&mut self, var: Var, what: Named) {
        let _ = (var, what);
    }
}

/// The successor arcs of one path from the start over the nodes whose
/// `on` literal holds: one variable per arc of `graph` (which must have a
/// start), and per node the literal "the path ends here" (`None` for the
/// start unless `start_may_be_last`, when the path may be the start alone).
/// The caller states that the start (and the end node, if any) are on.
pub fn path_arcs<S: Sink + ?Sized>(
    sink: &mut S,
    graph: &GridGraph,
    on: &[Lit],
    start_may_be_last: bool,
) -> (Vec<Var>, Vec<Option<Lit>>) {
    let arcs = sink.new_vars(graph.arcs().len());
    for (index, var) in arcs.iter().enumerate() {
        sink.name(*var, Named::Arc(index));
    }
    let lits = |list: &[usize]| -> Vec<Lit> { list.iter().map(|&a| arcs[a].pos()).collect() };
    let start_last = start_may_be_last.then(|| {
        let var = sink.new_var();
        sink.name(var, Named::Last(START));
        var.pos()
    });
    sink.open(Part::StartLeft);
    let mut leaving_start = lits(graph.out_arcs(START));
    leaving_start.extend(start_last);
    card::exactly_one(sink, &leaving_start);
    let mut ends: Vec<Lit> = start_last.into_iter().collect();
    let mut end_of = vec![start_last];
    for node in graph.others() {
        sink.open(Part::Entered(node));
        let entering = lits(graph.in_arcs(node));
        for &arc in &entering {
            sink.add_clause(&[!arc, on[node]]);
        }
        sink.add_clause(&[&[!on[node]], &entering[..]].concat());
        card::at_most_one(sink, &entering);
        sink.open(Part::Left(node));
        let end = sink.new_var();
        sink.name(end, Named::Last(node));
        let mut leaving = lits(graph.out_arcs(node));
        leaving.push(end.pos());
        for &arc in &leaving {
            sink.add_clause(&[!arc, on[node]]);
        }
        sink.add_clause(&[&[!on[node]], &leaving[..]].concat());
        card::at_most_one(sink, &leaving);
        ends.push(end.pos());
        end_of.push(Some(end.pos()));
    }
    sink.open(Part::EndsOnce);
    match graph.end() {
        Some(end_node) => {
            for (node, end) in end_of.iter().enumerate() {
                if let &Some(end) = end {
                    sink.add_clause(&[if node == end_node { end } else { !end }]);
                }
            }
        }
        None => card::exactly_one(sink, &ends),
    }
    no_back_and_forth(sink, graph, &arcs);
    (arcs, end_of)
}

/// Two-node cycles are the commonest detached cycles; forbid them outright.
fn no_back_and_forth<S: Sink + ?Sized>(sink: &mut S, graph: &GridGraph, arcs: &[Var]) {
    sink.open(Part::NoBackAndForth);
    for index in 0..graph.arcs().len() {
        if let Some(back) = graph.reverse(index)
            && index < back
        {
            sink.add_clause(&[arcs[index].neg(), arcs[back].neg()]);
        }
    }
}

/// The successor arcs of cycles through exactly the nodes whose `on`
/// literal holds (each entered once and left once), and at least one node
/// on; one variable per arc of `graph` (which must have no start).
pub fn loop_arcs<S: Sink + ?Sized>(sink: &mut S, graph: &GridGraph, on: &[Lit]) -> Vec<Var> {
    let arcs = sink.new_vars(graph.arcs().len());
    for (index, var) in arcs.iter().enumerate() {
        sink.name(*var, Named::Arc(index));
    }
    let lits = |list: &[usize]| -> Vec<Lit> { list.iter().map(|&a| arcs[a].pos()).collect() };
    for (node, &here) in on.iter().enumerate() {
        sink.open(Part::OnLoop(node));
        for side in [lits(graph.in_arcs(node)), lits(graph.out_arcs(node))] {
            for &arc in &side {
                sink.add_clause(&[!arc, here]);
            }
            sink.add_clause(&[&[!here], &side[..]].concat());
            card::at_most_one(sink, &side);
        }
    }
    sink.open(Part::LoopExists);
    sink.add_clause(on);
    no_back_and_forth(sink, graph, &arcs);
    arcs
}

/// "This node is the first that is on", per node in node order: the root of
/// a loop's positions, or of a region's tree.
pub fn first_on<S: Sink + ?Sized>(sink: &mut S, on: &[Lit], truth: Lit) -> Vec<Lit> {
    sink.open(Part::FirstOn);
    let mut none_before = truth;
    let mut roots = Vec::with_capacity(on.len());
    for (node, &here) in on.iter().enumerate() {
        let root = sink.new_var().pos();
        // root <-> here /\ none_before.
        sink.add_clause(&[!root, here]);
        sink.add_clause(&[!root, none_before]);
        sink.add_clause(&[root, !here, !none_before]);
        roots.push(root);
        if node + 1 < on.len() {
            // next <-> none_before /\ not here.
            let next = sink.new_var().pos();
            sink.add_clause(&[!next, none_before]);
            sink.add_clause(&[!next, !here]);
            sink.add_clause(&[next, !none_before, here]);
            none_before = next;
        }
    }
    roots
}

/// Binary positions: an arc u -> v makes v's position u's plus one, so the
/// positions rise along every chain of arcs and no chain can close into a
/// cycle. In a graph with a start the start is at 0. An arc into a node
/// whose `exempt` literal holds sets no position: a loop closes through its
/// root.
pub fn binary_rank<S: Sink + ?Sized>(
    sink: &mut S,
    graph: &GridGraph,
    arcs: &[Var],
    truth: Lit,
    exempt: Option<&[Lit]>,
) {
    let mut width = 1;
    while (1usize << width) < graph.num_nodes() + 1 {
        width += 1;
    }
    let rank: Vec<Vec<Lit>> =
        (0..graph.num_nodes()).map(|_| sink.new_vars(width).into_iter().map(|v| v.pos()).collect()).collect();
    if graph.start().is_some() {
        sink.open(Part::StartRank);
        for &bit in &rank[START] {
            sink.add_clause(&[!bit]);
        }
    }
    for node in 0..graph.num_nodes() {
        if graph.out_arcs(node).is_empty() {
            continue;
        }
        sink.open(Part::RankAfter(node));
        // next = rank + 1, bit by bit with a carry; the carry out must be 0.
        let mut carry = truth;
        let mut next = Vec::with_capacity(width);
        for &bit in &rank[node] {
            let sum = sink.new_var().pos();
            sink.add_clause(&[!sum, bit, carry]);
            sink.add_clause(&[!sum, !bit, !carry]);
            sink.add_clause(&[sum, !bit, carry]);
            sink.add_clause(&[sum, bit, !carry]);
            let carry_out = sink.new_var().pos();
            sink.add_clause(&[!carry_out, bit]);
            sink.add_clause(&[!carry_out, carry]);
            sink.add_clause(&[carry_out, !bit, !carry]);
            next.push(sum);
            carry = carry_out;
        }
        sink.add_clause(&[!carry]);
        for &arc in graph.out_arcs(node) {
            let to = graph.arcs()[arc].1;
            match exempt {
                None => {
                    for (&want, &bit) in next.iter().zip(&rank[to]) {
                        sink.add_clause(&[arcs[arc].neg(), !want, bit]);
                        sink.add_clause(&[arcs[arc].neg(), want, !bit]);
                    }
                }
                Some(roots) => {
                    for (&want, &bit) in next.iter().zip(&rank[to]) {
                        sink.add_clause(&[arcs[arc].neg(), roots[to], !want, bit]);
                        sink.add_clause(&[arcs[arc].neg(), roots[to], want, !bit]);
                    }
                }
            }
        }
    }
}

/// The eager form of "the nodes that are on form one 4-connected region":
/// every node that is on, except the first ([`first_on`]), has a parent
/// that is on next to it, one below it in a binary depth; so following
/// parents from any node that is on reaches the first. Returns the parent
/// arcs (by the graph's arc numbers, u -> v meaning u is v's parent).
pub fn rank_tree<S: Sink + ?Sized>(sink: &mut S, graph: &GridGraph, on: &[Lit], truth: Lit) -> Vec<Var> {
    let roots = first_on(sink, on, truth);
    let parents = sink.new_vars(graph.arcs().len());
    for node in 0..graph.num_nodes() {
        sink.open(Part::HasParent(node));
        let mut clause = vec![!on[node], roots[node]];
        for &arc in graph.in_arcs(node) {
            let (from, _) = graph.arcs()[arc];
            sink.add_clause(&[parents[arc].neg(), on[from]]);
            sink.add_clause(&[parents[arc].neg(), on[node]]);
            clause.push(parents[arc].pos());
        }
        sink.add_clause(&clause);
    }
    binary_rank(sink, graph, &parents, truth, None);
    parents
}

/// One literal per undirected step of a loop, "the loop takes this step
/// one way or the other", defined both ways from the arcs: `(arc, literal)`
/// for each arc whose number is below its reverse's. Two loops are the same
/// exactly when they take the same steps.
pub fn undirected_steps<S: Sink + ?Sized>(sink: &mut S, graph: &GridGraph, arcs: &[Var]) -> Vec<(usize, Lit)> {
    let mut steps = Vec::new();
    for index in 0..graph.arcs().len() {
        if let Some(back) = graph.reverse(index)
            && index < back
        {
            let step = sink.new_var().pos();
            let (a, b) = (arcs[index].pos(), arcs[back].pos());
            sink.add_clause(&[!step, a, b]);
            sink.add_clause(&[step, !a]);
            sink.add_clause(&[step, !b]);
            steps.push((index, step));
        }
    }
    steps
}

/// Redundant clauses on the undirected steps: a node on the loop takes
/// exactly two of its steps, a node off none. The arcs imply this, but
/// only through their directions; stated on the steps, the solver
/// propagates it at once from steps a caller constrains (a
/// slitherlink's clues), which cuts the search severalfold.
pub fn step_degrees<S: Sink + ?Sized>(sink: &mut S, graph: &GridGraph, on: &[Lit], steps: &[(usize, Lit)]) {
    let mut at: Vec<Vec<Lit>> = vec![Vec::new(); graph.num_nodes()];
    for &(arc, lit) in steps {
        let (from, to) = graph.arcs()[arc];
        at[from].push(lit);
        at[to].push(lit);
    }
    for (node, around) in at.iter().enumerate() {
        for (i, &a) in around.iter().enumerate() {
            sink.add_clause(&[!a, on[node]]);
            let others: Vec<Lit> = around.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &l)| l).collect();
            sink.add_clause(&[&[!on[node]], &others[..]].concat());
            for (j, &b) in around.iter().enumerate().skip(i + 1) {
                for &c in &around[j + 1..] {
                    sink.add_clause(&[!a, !b, !c]);
                }
            }
        }
        if around.len() < 2 {
            sink.add_clause(&[!on[node]]);
        }
    }
}

impl Sink for crate::cnf::Cnf {}

/// What alternates colours on the checkerboard: a path from the start (to
/// its end node, if the graph has one), or a closed loop.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Walk {
    /// A path from the graph's start.
    Path,
    /// A closed loop.
    Loop,
}

/// Above this many clauses (estimated) the colour count's counters are left
/// out: the count is redundant, and counters over hundreds of free cells
/// cost more clauses than the cuts they would save.
const MOST_COUNTER_CLAUSES: usize = 40_000;

/// The redundant colour count of a walk through exactly the nodes that are
/// on. A walk alternates the checkerboard's colours, so a path's cells of
/// the start's colour outnumber the others by 0 or 1 (exactly 1 or 0 when
/// its end node is fixed), and a loop has as many of each. Without it, CDCL
/// meets the parity wall: it cannot see, without search, that a room with
/// one cell too many of a colour has no walk.
///
/// Counted on the free nodes left off (nodes whose `on` is not `truth`,
/// other than a path's start and end, which the caller makes on), of which
/// at most `most_off` are ever off (`None`: no bound known), so that the
/// counters stay small; with every node fixed it is a constant, the empty
/// clause when violated.
pub fn colour_count<S: Sink + ?Sized>(
    sink: &mut S,
    graph: &GridGraph,
    on: &[Lit],
    truth: Lit,
    walk: Walk,
    most_off: Option<usize>,
) {
    write_colour_count(sink, graph, on, truth, walk, OffBound::promised(most_off));
}

/// [`colour_count`] for a caller that cannot promise its bound: the
/// counters stop above `most_off` of a colour, and each clause holds only
/// while neither colour has more than `most_off` left off. So the clauses
/// follow from the colour count alone, with no bound from elsewhere (a
/// deduction rule's clauses must: the bound is another rule, which may be
/// switched off). Within the bound they say exactly what [`colour_count`]
/// says; beyond it, nothing.
pub fn guarded_colour_count<S: Sink + ?Sized>(
    sink: &mut S,
    graph: &GridGraph,
    on: &[Lit],
    truth: Lit,
    walk: Walk,
    most_off: usize,
) {
    write_colour_count(sink, graph, on, truth, walk, OffBound::Guarded(most_off));
}

fn write_colour_count<S: Sink + ?Sized>(
    sink: &mut S,
    graph: &GridGraph,
    on: &[Lit],
    truth: Lit,
    walk: Walk,
    bound: OffBound,
) {
    let Some(off) = OffCount::build(sink, graph, on, truth, walk, bound, Part::ColourCount) else { return };
    let (lowest, highest) = match (walk, graph.end()) {
        (Walk::Loop, _) => (0, 0),
        (Walk::Path, Some(end)) if graph.colour(end) == off.reference => (1, 1),
        (Walk::Path, Some(_)) => (0, 0),
        (Walk::Path, None) => (0, 1),
    };
    let (lo, hi) = (off.base - highest, off.base - lowest);
    let guard = off.guard();
    for j in 0..=off.most as i64 {
        sink.add_clause(&[&[off.other(j + 1), !off.same(j + hi + 1)], &guard[..]].concat());
        sink.add_clause(&[&[!off.other(j), off.same(j + lo)], &guard[..]].concat());
    }
}

/// The colour count tied to the colour of the node a path without a fixed
/// end stops on (`lasts`, by node, as [`path_arcs`] gives them): the cells
/// on have one more of the start's colour when the path ends on that colour
/// and as many of each otherwise. With nodes free to be off, SAT would
/// otherwise meet the parity wall between a choice of nodes and an end.
pub fn end_colour_link<S: Sink + ?Sized>(
    sink: &mut S,
    graph: &GridGraph,
    on: &[Lit],
    truth: Lit,
    most_off: Option<usize>,
    lasts: &[Option<Lit>],
) {
    write_end_colour_link(sink, graph, on, truth, OffBound::promised(most_off), lasts);
}

/// [`end_colour_link`] with the guard of [`guarded_colour_count`]: its
/// clauses hold only while neither colour has more than `most_off` off.
pub fn guarded_end_colour_link<S: Sink + ?Sized>(
    sink: &mut S,
    graph: &GridGraph,
    on: &[Lit],
    truth: Lit,
    most_off: usize,
    lasts: &[Option<Lit>],
) {
    write_end_colour_link(sink, graph, on, truth, OffBound::Guarded(most_off), lasts);
}

fn write_end_colour_link<S: Sink + ?Sized>(
    sink: &mut S,
    graph: &GridGraph,
    on: &[Lit],
    truth: Lit,
    bound: OffBound,
    lasts: &[Option<Lit>],
) {
    if graph.end().is_some() {
        return;
    }
    let Some(off) = OffCount::build(sink, graph, on, truth, Walk::Path, bound, Part::EndColour) else { return };
    let end_same = sink.new_var().pos();
    sink.name(end_same.var(), Named::EndColour);
    for (n, last) in lasts.iter().enumerate() {
        if let Some(&last) = last.as_ref() {
            let colour = if graph.colour(n) == off.reference { end_same } else { !end_same };
            sink.add_clause(&[!last, colour]);
        }
    }
    let guard = off.guard();
    // Off of the start's colour minus off of the other = base - [end_same].
    for (when, difference) in [(end_same, off.base - 1), (!end_same, off.base)] {
        for j in 0..=off.most as i64 {
            sink.add_clause(&[&[!when, !off.other(j), off.same(j + difference)], &guard[..]].concat());
            sink.add_clause(&[&[!when, off.other(j + 1), !off.same(j + difference + 1)], &guard[..]].concat());
        }
    }
}

/// How many free nodes the colour counters count off.
#[derive(Copy, Clone)]
enum OffBound {
    /// No bound known: they count them all.
    Unknown,
    /// The caller's other clauses let at most this many be off.
    Promised(usize),
    /// At most this many of each colour, for clauses that hold only then
    /// (see [`guarded_colour_count`]).
    Guarded(usize),
}

impl OffBound {
    fn promised(most_off: Option<usize>) -> OffBound {
        most_off.map_or(OffBound::Unknown, OffBound::Promised)
    }
}

/// Counters of the free nodes that are off, per colour: the reference
/// colour (a path's start's) and the other.
struct OffCount {
    reference: bool,
    /// Nodes of the reference colour minus nodes of the other, all counted.
    base: i64,
    /// At most this many free nodes are ever off (or, guarded, of a colour
    /// for the clauses to say anything).
    most: usize,
    guarded: bool,
    truth: Lit,
    same: Option<card::Totalizer>,
    other: Option<card::Totalizer>,
}

impl OffCount {
    /// `None` when the counters would cost too much (the count is redundant).
    fn build<S: Sink + ?Sized>(
        sink: &mut S,
        graph: &GridGraph,
        on: &[Lit],
        truth: Lit,
        walk: Walk,
        bound: OffBound,
        part: Part,
    ) -> Option<OffCount> {
        let reference = match walk {
            Walk::Path => graph.colour(START),
            Walk::Loop => false,
        };
        let ends = |n: usize| walk == Walk::Path && (n == START || Some(n) == graph.end());
        let (mut base, mut off_same, mut off_other) = (0i64, Vec::new(), Vec::new());
        for (n, &lit) in on.iter().enumerate().take(graph.num_nodes()) {
            let same = graph.colour(n) == reference;
            base += if same { 1 } else { -1 };
            if lit != truth && !ends(n) {
                if same { &mut off_same } else { &mut off_other }.push(!lit);
            }
        }
        let (most, guarded) = match bound {
            OffBound::Unknown => (off_same.len() + off_other.len(), false),
            OffBound::Promised(most) => (most, false),
            OffBound::Guarded(most) => (most, true),
        };
        let cost = |lits: &[Lit]| lits.len() * (most + 1).min(lits.len());
        if most > 0 && cost(&off_same) + cost(&off_other) > MOST_COUNTER_CLAUSES {
            return None;
        }
        sink.open(part);
        let mut count = |lits: &[Lit]| {
            // Guarded, "more than the bound are off" is needed even for a bound of 0.
            let counted = !lits.is_empty() && (most > 0 || guarded);
            counted.then(|| card::Totalizer::build(sink, lits, most + 1, card::Bounds::Both))
        };
        let same = count(&off_same);
        let other = count(&off_other);
        Some(OffCount { reference, base, most, guarded, truth, same, other })
    }

    /// "At least i are off", of the reference colour; more than the bound
    /// never are.
    fn same(&self, i: i64) -> Lit {
        self.at_least(&self.same, i)
    }

    /// "At least i are off", of the other colour.
    fn other(&self, i: i64) -> Lit {
        self.at_least(&self.other, i)
    }

    /// Guarded, the literals "more than the bound are off" of each
    /// colour that can have that many: a clause that has them holds only
    /// within the bound. Within it, every "at least i" the clauses read is
    /// exact (above the bound it is false, as it is then), so the clauses
    /// say there what the unguarded ones say.
    fn guard(&self) -> Vec<Lit> {
        let beyond = self.most as i64 + 1;
        let over = [self.same(beyond), self.other(beyond)];
        over.into_iter().filter(|&l| self.guarded && l != !self.truth).collect()
    }

    fn at_least(&self, counter: &Option<card::Totalizer>, i: i64) -> Lit {
        if i <= 0 {
            return self.truth;
        }
        counter.as_ref().and_then(|t| t.at_least(i as usize)).unwrap_or(!self.truth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Cnf;
    use crate::solver::{ProjectedModels, new_solver};

    fn all_on(cnf: &mut Cnf, graph: &GridGraph) -> (Lit, Vec<Lit>) {
        let truth = cnf.new_var().pos();
        cnf.add_clause(&[truth]);
        (truth, vec![truth; graph.num_nodes()])
    }

    #[test]
    fn ranked_paths_of_a_2x3_grid_from_a_corner() {
        // Hamiltonian paths of a 2 x 3 grid from a corner: a-b-c-f-e-d,
        // a-d-e-f-c-b and a-d-e-b-c-f.
        let graph = GridGraph::new(2, 3, |_| true, Some((0, 0)), None);
        let mut cnf = Cnf::new();
        let (truth, on) = all_on(&mut cnf, &graph);
        let (arcs, _) = path_arcs(&mut cnf, &graph, &on, false);
        binary_rank(&mut cnf, &graph, &arcs, truth, None);
        let mut solver = new_solver(&cnf, None);
        assert_eq!(ProjectedModels::new(&mut solver, arcs, &[]).count(), 3);
    }

    #[test]
    fn ranked_loops_of_a_4x4_grid() {
        // Hamiltonian cycles of a 4 x 4 grid: 6, each in two directions.
        let graph = GridGraph::new(4, 4, |_| true, None, None);
        let mut cnf = Cnf::new();
        let (truth, on) = all_on(&mut cnf, &graph);
        let arcs = loop_arcs(&mut cnf, &graph, &on);
        let roots = first_on(&mut cnf, &on, truth);
        binary_rank(&mut cnf, &graph, &arcs, truth, Some(&roots));
        let steps: Vec<Lit> = undirected_steps(&mut cnf, &graph, &arcs).into_iter().map(|(_, l)| l).collect();
        let mut solver = new_solver(&cnf, None);
        assert_eq!(ProjectedModels::new(&mut solver, arcs, &[]).count(), 12);
        assert_eq!(ProjectedModels::new(&mut solver, steps, &[]).count(), 6);
    }

    #[test]
    fn connected_regions_of_a_2x2_grid() {
        // Of the 16 subsets of a 2 x 2 grid, the two diagonal pairs are not
        // connected; the empty set is.
        let graph = GridGraph::new(2, 2, |_| true, None, None);
        let mut cnf = Cnf::new();
        let truth = cnf.new_var().pos();
        cnf.add_clause(&[truth]);
        let on: Vec<Lit> = cnf.new_vars(4).into_iter().map(|v| v.pos()).collect();
        rank_tree(&mut cnf, &graph, &on, truth);
        let mut solver = new_solver(&cnf, None);
        assert_eq!(ProjectedModels::new(&mut solver, on, &[]).count(), 14);
    }
}

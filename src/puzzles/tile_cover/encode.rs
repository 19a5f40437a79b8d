//! The three CNF encodings of a room, and the way back from a model to a
//! walk.
//!
//! All of them share "tile covered" variables, the at-most-k bound on the
//! tiles left, and a redundant colour count. The arc encodings (`lazy` and
//! `rank`) choose one successor arc per covered node; `lazy` leaves
//! detached cycles to cuts added between solves (see [`super::walker`]),
//! `rank` forbids them with binary positions. `steps` says which tile is
//! visited at each step.

use super::graph::{Room, START};
use super::presolve::Deductions;
use crate::cnf::card::{self, Bounds, Totalizer};
use crate::cnf::{Cnf, Lit, Var};

/// Which encoding to build.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// Successor arcs; detached cycles are cut on demand.
    Lazy(CutStyle),
    /// Successor arcs and binary positions along the walk.
    Rank,
    /// Cell at step t, pruned by colour and distance.
    Steps,
}

/// How the lazy encoding forbids a detached cycle it has found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CutStyle {
    /// "The walk enters this set of cells", for every covered cell of it.
    CutSet,
    /// "Not all of these arcs at once".
    Nogood,
}

/// Options that change the work done but never the answers, for measuring
/// what each part is worth.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Add the redundant colour-count constraint.
    pub colour_count: bool,
    /// When solving (not counting), splice detached cycles into the walk
    /// before falling back on cuts and another SAT call.
    pub splice_cycles: bool,
    /// Add the presolve's deductions as clauses, when the presolve runs.
    pub deductions: bool,
    /// When solving with the presolve on, try a constructive route before
    /// SAT (see [`super::construct`]); off, the encoding finds the route.
    pub construct: bool,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions { colour_count: true, splice_cycles: true, deductions: true, construct: true }
    }
}

/// How a model's values are laid out.
#[derive(Clone, Debug)]
enum Layout {
    /// One variable per arc of the room, and "last tile" per node (none
    /// for the start).
    Arcs(Vec<Var>, Vec<Option<Lit>>),
    /// `visits[tile][t]`, where it exists, says the tile is step `t + 1`.
    Steps(Vec<Vec<Option<Var>>>),
}

/// What a model says about the walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// A walk from the start: the tiles in order.
    Walk(Vec<usize>),
    /// The walk from the start (its tiles in order), and detached cycles,
    /// each as its arcs in order.
    Cycles(Vec<usize>, Vec<Vec<usize>>),
    /// The model is not a walk at all: a bug in the encoding.
    Broken(String),
}

/// The CNF of a room under one scheme.
#[derive(Clone, Debug)]
pub struct Encoding {
    scheme: Scheme,
    cnf: Cnf,
    covered: Vec<Lit>,
    layout: Layout,
}

impl Encoding {
    /// Encodes the room with the presolve's deductions for it as extra
    /// clauses (arc encodings only; see `structure.rs`).
    pub fn with_deductions(
        room: &Room,
        scheme: Scheme,
        options: EncodeOptions,
        deductions: Option<&Deductions>,
    ) -> Encoding {
        let mut cnf = Cnf::new();
        let truth = cnf.new_var().pos();
        cnf.open_group("constant true", None);
        cnf.add_clause(&[truth]);
        let covered = covered_vars(&mut cnf, room, truth);
        if options.colour_count {
            colour_count(&mut cnf, room, &covered, truth);
        }
        let layout = match scheme {
            Scheme::Lazy(_) => {
                let (arcs, ends) = successor_arcs(&mut cnf, room, &covered);
                Layout::Arcs(arcs, ends)
            }
            Scheme::Rank => {
                let (arcs, ends) = successor_arcs(&mut cnf, room, &covered);
                binary_rank(&mut cnf, room, &arcs, truth);
                Layout::Arcs(arcs, ends)
            }
            Scheme::Steps => Layout::Steps(time_steps(&mut cnf, room, &covered)),
        };
        // Measured to help the lazy encodings on rooms with tiles to leave,
        // and to slow the rank encoding's assumption solves, so lazy only.
        if let (true, Scheme::Lazy(_), Layout::Arcs(_, ends)) = (options.colour_count, scheme, &layout) {
            super::structure::end_colour_link(&mut cnf, room, &covered, ends, truth);
        }
        if let (Some(deductions), Layout::Arcs(arcs, ends)) = (deductions, &layout) {
            super::structure::add_deductions(&mut cnf, room, deductions, arcs, ends, &covered);
        }
        Encoding { scheme, cnf, covered, layout }
    }

    /// The scheme it was built with.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The formula.
    pub fn cnf(&self) -> &Cnf {
        &self.cnf
    }

    /// "Node covered", by node; the start's entry is the constant true.
    pub fn covered(&self, node: usize) -> Lit {
        self.covered[node]
    }

    /// The arc variables, in the arc order of the room (arc encodings only).
    pub fn arc_vars(&self) -> Option<&[Var]> {
        match &self.layout {
            Layout::Arcs(arcs, _) => Some(arcs),
            Layout::Steps(_) => None,
        }
    }

    /// "The walk ends here", by node (arc encodings only; `None` for the start).
    pub fn end_lits(&self) -> Option<&[Option<Lit>]> {
        match &self.layout {
            Layout::Arcs(_, ends) => Some(ends),
            Layout::Steps(_) => None,
        }
    }

    /// The literals that tell two solutions apart when blocked on the ones
    /// a solution makes true: the choices that define the walk (arcs, or
    /// tiles at steps) and "tile left" for each tile. A different solution
    /// that leaves the same tiles covers as many and so makes as many
    /// choices; it cannot make all of these, and must drop one.
    pub fn distinguishing_literals(&self) -> Vec<Lit> {
        let choices: Vec<Lit> = match &self.layout {
            Layout::Arcs(arcs, _) => arcs.iter().map(|v| v.pos()).collect(),
            Layout::Steps(visits) => visits.iter().flatten().flatten().map(|v| v.pos()).collect(),
        };
        choices.into_iter().chain(self.covered.iter().skip(1).map(|&l| !l)).collect()
    }

    /// Reads the walk from a model, through `value`.
    pub fn read(&self, room: &Room, value: impl Fn(Lit) -> bool) -> Reading {
        match &self.layout {
            Layout::Arcs(arcs, _) => read_arcs(room, arcs, value),
            Layout::Steps(visits) => {
                let mut walk = Vec::new();
                // `t` is a step, the inner index of every tile's row of visits.
                #[allow(clippy::needless_range_loop)]
                for t in 0..room.num_tiles() {
                    let at: Vec<usize> =
                        room.tiles().filter(|&v| visits[v][t].is_some_and(|x| value(x.pos()))).collect();
                    match at[..] {
                        [] => break,
                        [tile] => walk.push(tile),
                        _ => return Reading::Broken(format!("{} tiles at step {}", at.len(), t + 1)),
                    }
                }
                Reading::Walk(walk)
            }
        }
    }
}

fn read_arcs(room: &Room, arcs: &[Var], value: impl Fn(Lit) -> bool) -> Reading {
    let mut next_arc = vec![None; room.num_nodes()];
    for (index, var) in arcs.iter().enumerate() {
        if value(var.pos()) {
            let (from, _) = room.arcs()[index];
            if next_arc[from].replace(index).is_some() {
                return Reading::Broken(format!("two arcs leave {}", room.label(from)));
            }
        }
    }
    let mut on_walk = vec![false; room.num_nodes()];
    on_walk[START] = true;
    let mut walk = Vec::new();
    let mut node = START;
    while let Some(arc) = next_arc[node] {
        node = room.arcs()[arc].1;
        if on_walk[node] {
            return Reading::Broken(format!("the walk returns to {}", room.label(node)));
        }
        on_walk[node] = true;
        walk.push(node);
    }
    let mut cycles = Vec::new();
    for first in room.tiles() {
        if on_walk[first] || next_arc[first].is_none() {
            continue;
        }
        let mut cycle = Vec::new();
        let mut node = first;
        while !on_walk[node] {
            on_walk[node] = true;
            let Some(arc) = next_arc[node] else {
                return Reading::Broken(format!("a second walk ends at {}", room.label(node)));
            };
            cycle.push(arc);
            node = room.arcs()[arc].1;
        }
        cycles.push(cycle);
    }
    if cycles.is_empty() { Reading::Walk(walk) } else { Reading::Cycles(walk, cycles) }
}

/// "Covered" per node, with the start constant true; at most k tiles left,
/// and the end tile covered.
fn covered_vars(cnf: &mut Cnf, room: &Room, truth: Lit) -> Vec<Lit> {
    let mut covered = vec![truth];
    for tile in room.tiles() {
        let var = cnf.new_var();
        cnf.name_var(var, format!("tile {} covered", room.label(tile)));
        covered.push(var.pos());
    }
    let k = room.leave_uncovered();
    cnf.open_group(format!("at most {k} tiles left uncovered"), None);
    let left: Vec<Lit> = room.tiles().map(|t| !covered[t]).collect();
    card::at_most_k(cnf, &left, k);
    if let Some(end) = room.end() {
        cnf.open_group("the end tile is covered", Some(room.position(end)));
        cnf.add_clause(&[covered[end]]);
    }
    covered
}

/// The redundant colour count: a walk alternates colours, so the visited
/// cells of the start's colour outnumber the others by 0 or 1 (exactly 1
/// or 0 when the end's colour is fixed). Counted on the tiles left
/// uncovered, which number at most k, so the totalizers stay small; with
/// nothing left it is a constant, and the empty clause when violated.
fn colour_count(cnf: &mut Cnf, room: &Room, covered: &[Lit], truth: Lit) {
    cnf.open_group("a walk alternates colours", None);
    let k = room.leave_uncovered();
    let eligible = |same: bool| -> Vec<Lit> {
        room.tiles()
            .filter(|&t| room.same_colour_as_start(t) == same && Some(t) != room.end())
            .map(|t| !covered[t])
            .collect()
    };
    let (left_same, left_other) = (eligible(true), eligible(false));
    let same_total = room.tiles().filter(|&t| room.same_colour_as_start(t)).count() as i64;
    let other_total = room.num_tiles() as i64 - same_total;
    // Visited same minus visited other = 1 + same_total - other_total - left_same + left_other.
    let (lowest_excess, highest_excess) = match room.end() {
        Some(end) if room.same_colour_as_start(end) => (1, 1),
        Some(_) => (0, 0),
        None => (0, 1),
    };
    let base = 1 + same_total - other_total;
    // The allowed range of left_same - left_other.
    let (lo, hi) = (base - highest_excess, base - lowest_excess);
    let count = |cnf: &mut Cnf, lits: &[Lit]| {
        (!lits.is_empty() && k > 0).then(|| Totalizer::build(cnf, lits, k + 1, Bounds::Both))
    };
    let same = count(cnf, &left_same);
    let other = count(cnf, &left_other);
    // "At least i left", with the constants outside the totalizer's range;
    // more than k are never left, by the at-most-k bound.
    let at_least = |counter: &Option<Totalizer>, i: i64| -> Lit {
        if i <= 0 {
            return truth;
        }
        match counter {
            Some(t) => t.at_least(i as usize).unwrap_or(!truth),
            None => !truth,
        }
    };
    for j in 0..=k as i64 {
        // left_other <= j  =>  left_same <= j + hi
        cnf.add_clause(&[at_least(&other, j + 1), !at_least(&same, j + hi + 1)]);
        // left_other >= j  =>  left_same >= j + lo
        cnf.add_clause(&[!at_least(&other, j), at_least(&same, j + lo)]);
    }
}

/// One variable per arc; the start leaves once, and each covered tile is
/// entered once and left once unless it is the last.
fn successor_arcs(cnf: &mut Cnf, room: &Room, covered: &[Lit]) -> (Vec<Var>, Vec<Option<Lit>>) {
    let arcs = cnf.new_vars(room.arcs().len());
    for (var, &(from, to)) in arcs.iter().zip(room.arcs()) {
        cnf.name_var(*var, format!("{} -> {}", room.label(from), room.label(to)));
    }
    let lits = |list: &[usize]| -> Vec<Lit> { list.iter().map(|&a| arcs[a].pos()).collect() };
    cnf.open_group("the walk leaves the start once", Some(room.position(START)));
    card::exactly_one(cnf, &lits(room.out_arcs(START)));
    let mut ends = Vec::new();
    let mut end_of = vec![None];
    for tile in room.tiles() {
        let place = Some(room.position(tile));
        cnf.open_group(format!("tile {} is entered once when covered", room.label(tile)), place);
        let entering = lits(room.in_arcs(tile));
        for &arc in &entering {
            cnf.add_clause(&[!arc, covered[tile]]);
        }
        cnf.add_clause(&[&[!covered[tile]], &entering[..]].concat());
        card::at_most_one(cnf, &entering);
        cnf.open_group(format!("tile {} is left once when covered, unless it is the last", room.label(tile)), place);
        let end = cnf.new_var();
        cnf.name_var(end, format!("tile {} is the last", room.label(tile)));
        let mut leaving = lits(room.out_arcs(tile));
        leaving.push(end.pos());
        for &arc in &leaving {
            cnf.add_clause(&[!arc, covered[tile]]);
        }
        cnf.add_clause(&[&[!covered[tile]], &leaving[..]].concat());
        card::at_most_one(cnf, &leaving);
        ends.push(end.pos());
        end_of.push(Some(end.pos()));
    }
    cnf.open_group("the walk ends once", room.end().map(|e| room.position(e)));
    match room.end() {
        Some(end_tile) => {
            for (tile, &end) in room.tiles().zip(&ends) {
                cnf.add_clause(&[if tile == end_tile { end } else { !end }]);
            }
        }
        None => card::exactly_one(cnf, &ends),
    }
    // Two-cell cycles are the commonest detached cycles; forbid them outright.
    cnf.open_group("no arc is walked both ways", None);
    for (index, &(from, to)) in room.arcs().iter().enumerate() {
        if let Some(&back) = room.out_arcs(to).iter().find(|&&b| room.arcs()[b].1 == from)
            && index < back
        {
            cnf.add_clause(&[arcs[index].neg(), arcs[back].neg()]);
        }
    }
    (arcs, end_of)
}

/// Binary positions: the start is 0, and an arc u -> v makes v's position
/// u's plus one, so the positions rise along every chain and no chain can
/// close into a cycle.
fn binary_rank(cnf: &mut Cnf, room: &Room, arcs: &[Var], truth: Lit) {
    let mut width = 1;
    while (1usize << width) < room.num_nodes() + 1 {
        width += 1;
    }
    let rank: Vec<Vec<Lit>> =
        (0..room.num_nodes()).map(|_| cnf.new_vars(width).into_iter().map(|v| v.pos()).collect()).collect();
    cnf.open_group("the start is at position 0", Some(room.position(START)));
    for &bit in &rank[START] {
        cnf.add_clause(&[!bit]);
    }
    for node in 0..room.num_nodes() {
        if room.out_arcs(node).is_empty() {
            continue;
        }
        cnf.open_group(format!("position after {}", room.label(node)), Some(room.position(node)));
        // next = rank + 1, bit by bit with a carry; the carry out must be 0.
        let mut carry = truth;
        let mut next = Vec::with_capacity(width);
        for &bit in &rank[node] {
            let sum = cnf.new_var().pos();
            cnf.add_clause(&[!sum, bit, carry]);
            cnf.add_clause(&[!sum, !bit, !carry]);
            cnf.add_clause(&[sum, !bit, carry]);
            cnf.add_clause(&[sum, bit, !carry]);
            let carry_out = cnf.new_var().pos();
            cnf.add_clause(&[!carry_out, bit]);
            cnf.add_clause(&[!carry_out, carry]);
            cnf.add_clause(&[carry_out, !bit, !carry]);
            next.push(sum);
            carry = carry_out;
        }
        cnf.add_clause(&[!carry]);
        for &arc in room.out_arcs(node) {
            let to = room.arcs()[arc].1;
            for (&want, &bit) in next.iter().zip(&rank[to]) {
                cnf.add_clause(&[arcs[arc].neg(), !want, bit]);
                cnf.add_clause(&[arcs[arc].neg(), want, !bit]);
            }
        }
    }
}

/// `visits[tile][t]`: the tile is step t + 1. A tile's colour fixes the
/// parity of its steps, and no tile comes before its distance from the
/// start.
fn time_steps(cnf: &mut Cnf, room: &Room, covered: &[Lit]) -> Vec<Vec<Option<Var>>> {
    let horizon = room.num_tiles();
    let distances = room.distances();
    let mut visits: Vec<Vec<Option<Var>>> = vec![vec![None; horizon]; room.num_nodes()];
    for tile in room.tiles() {
        let Some(distance) = distances[tile] else { continue };
        for t in distance.max(1)..=horizon {
            // Step t lands on the start's colour exactly when t is even.
            if room.same_colour_as_start(tile) == (t % 2 == 0) {
                let var = cnf.new_var();
                cnf.name_var(var, format!("tile {} is step {t}", room.label(tile)));
                visits[tile][t - 1] = Some(var);
            }
        }
    }
    let active: Vec<Lit> = cnf.new_vars(horizon).into_iter().map(|v| v.pos()).collect();
    cnf.open_group("the walk has at least one tile, and steps run without gaps", None);
    if let Some(&first) = active.first() {
        cnf.add_clause(&[first]);
    } else {
        cnf.add_clause(&[]);
    }
    let must_walk = horizon.saturating_sub(room.leave_uncovered());
    for t in 0..horizon {
        if t + 1 < horizon {
            cnf.add_clause(&[!active[t + 1], active[t]]);
        }
        if t < must_walk {
            cnf.add_clause(&[active[t]]);
        }
    }
    for t in 0..horizon {
        cnf.open_group(format!("step {} is one tile when the walk is that long", t + 1), None);
        let here: Vec<Lit> = room.tiles().filter_map(|v| visits[v][t]).map(|x| x.pos()).collect();
        for &x in &here {
            cnf.add_clause(&[!x, active[t]]);
        }
        cnf.add_clause(&[&[!active[t]], &here[..]].concat());
        card::at_most_one(cnf, &here);
    }
    for tile in room.tiles() {
        let place = Some(room.position(tile));
        cnf.open_group(format!("tile {} is one step when covered", room.label(tile)), place);
        let steps: Vec<Lit> = visits[tile].iter().flatten().map(|x| x.pos()).collect();
        for &x in &steps {
            cnf.add_clause(&[!x, covered[tile]]);
        }
        cnf.add_clause(&[&[!covered[tile]], &steps[..]].concat());
        card::at_most_one(cnf, &steps);
        cnf.open_group(format!("tile {} follows a neighbour", room.label(tile)), place);
        for t in 1..horizon {
            if let Some(x) = visits[tile][t] {
                let before: Vec<Lit> =
                    room.neighbours(tile).iter().filter_map(|&n| visits[n][t - 1]).map(|y| y.pos()).collect();
                cnf.add_clause(&[&[x.neg()], &before[..]].concat());
            }
        }
    }
    if let Some(end) = room.end() {
        cnf.open_group("the walk ends on the end tile", Some(room.position(end)));
        for t in 0..horizon {
            let stops: Vec<Lit> = match active.get(t + 1) {
                Some(&next) => vec![!active[t], next],
                None => vec![!active[t]],
            };
            let end_here: Vec<Lit> = visits[end][t].map(|x| x.pos()).into_iter().collect();
            cnf.add_clause(&[&stops[..], &end_here[..]].concat());
        }
    }
    visits
}

#[cfg(test)]
mod examples {
    #[test]
    fn encoding() {
        use crate::model::Source;
        use crate::puzzles::tile_cover::{
            encode::{CutStyle, EncodeOptions, Encoding, Scheme},
            load_puzzle,
        };
        let source = Source::from_text("m.toml", "kind = \"tile-cover\"\ngrid = \"S..\"\n");
        let puzzle = load_puzzle(&source).unwrap();
        let encoding =
            Encoding::with_deductions(puzzle.room(), Scheme::Lazy(CutStyle::CutSet), EncodeOptions::default(), None);
        assert!(encoding.cnf().num_vars() > 0);
    }
}

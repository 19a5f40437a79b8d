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
use crate::cnf::card;
use crate::cnf::{ClauseSink, Cnf, Lit, Var};
use crate::graph::{
    Named, Part, PathReading, Sink, Walk, binary_rank, colour_count, end_colour_link, path_arcs, read_path,
};

pub use crate::graph::CutStyle;

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

/// The shared encodings of [`crate::graph`] writing into a room's formula,
/// with the parts named in the room's words.
struct Words<'a> {
    cnf: &'a mut Cnf,
    room: &'a Room,
}

impl ClauseSink for Words<'_> {
    fn new_var(&mut self) -> Var {
        self.cnf.new_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.cnf.add_clause(clause);
    }

    fn new_vars(&mut self, count: usize) -> Vec<Var> {
        self.cnf.new_vars(count)
    }
}

impl Sink for Words<'_> {
    fn open(&mut self, part: Part) {
        let room = self.room;
        let (name, place) = match part {
            Part::StartLeft => ("the walk leaves the start once".to_string(), Some(room.position(START))),
            Part::Entered(tile) => {
                (format!("tile {} is entered once when covered", room.label(tile)), Some(room.position(tile)))
            }
            Part::Left(tile) => (
                format!("tile {} is left once when covered, unless it is the last", room.label(tile)),
                Some(room.position(tile)),
            ),
            Part::EndsOnce => ("the walk ends once".to_string(), room.end().map(|e| room.position(e))),
            Part::NoBackAndForth => ("no arc is walked both ways".to_string(), None),
            Part::StartRank => ("the start is at position 0".to_string(), Some(room.position(START))),
            Part::RankAfter(node) => (format!("position after {}", room.label(node)), Some(room.position(node))),
            Part::ColourCount => ("a walk alternates colours".to_string(), None),
            Part::EndColour => ("the last tile's colour fixes the colour count".to_string(), None),
            other => (format!("{other:?}"), None),
        };
        self.cnf.open_group(name, place);
    }

    fn name(&mut self, var: Var, what: Named) {
        let room = self.room;
        let name = match what {
            Named::Arc(arc) => {
                let (from, to) = room.arcs()[arc];
                format!("{} -> {}", room.label(from), room.label(to))
            }
            Named::Last(tile) => format!("tile {} is the last", room.label(tile)),
            Named::EndColour => "the last tile has the start's colour".to_string(),
        };
        self.cnf.name_var(var, name);
    }
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
            let most_off = Some(room.leave_uncovered());
            colour_count(&mut Words { cnf: &mut cnf, room }, room, &covered, truth, Walk::Path, most_off);
        }
        let layout = match scheme {
            Scheme::Lazy(_) => {
                let (arcs, ends) = path_arcs(&mut Words { cnf: &mut cnf, room }, room, &covered, false);
                Layout::Arcs(arcs, ends)
            }
            Scheme::Rank => {
                let mut words = Words { cnf: &mut cnf, room };
                let (arcs, ends) = path_arcs(&mut words, room, &covered, false);
                binary_rank(&mut words, room, &arcs, truth, None);
                Layout::Arcs(arcs, ends)
            }
            Scheme::Steps => Layout::Steps(time_steps(&mut cnf, room, &covered)),
        };
        // Measured to help the lazy encodings on rooms with tiles to leave,
        // and to slow the rank encoding's assumption solves, so lazy only.
        if let (true, Scheme::Lazy(_), Layout::Arcs(_, ends)) = (options.colour_count, scheme, &layout) {
            // Only for small allowances, whose counters stay small (`explain`
            // encodes its room with every tile allowed to be left); with
            // nothing to leave the presolve fixes the end's colour.
            const MOST_LEFT: usize = 16;
            let k = room.leave_uncovered();
            if (1..=MOST_LEFT).contains(&k) && room.num_tiles() > 0 {
                end_colour_link(&mut Words { cnf: &mut cnf, room }, room, &covered, truth, Some(k), ends);
            }
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

    /// Reads the walk from a model, through `value`: the tiles after the
    /// start, with detached cycles for the lazy encodings.
    pub fn read(&self, room: &Room, value: impl Fn(Lit) -> bool) -> PathReading {
        match &self.layout {
            Layout::Arcs(arcs, _) => read_path(room, arcs, value),
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
                        _ => return PathReading::Broken(format!("{} tiles at step {}", at.len(), t + 1)),
                    }
                }
                PathReading::Walk(walk)
            }
        }
    }
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

//! The deductions `hint` and `steps` work on for a room: the route's steps
//! as facts ("step from (4, 12)" takes a direction) and the room's rules as
//! a player states them, each switchable:
//!
//! - per tile, "entered once and left once" (once covered, unless it is the
//!   last), and for the start, "left once";
//! - "the walk ends once" (on the end tile, when the room has one);
//! - "at most k tiles are left uncovered", when the room allows any;
//! - the colour count (the walk alternates the checkerboard's colours),
//!   stated for walks that leave at most k tiles of each colour, so that
//!   it does not borrow the allowance, a rule of its own;
//! - "the route is one piece": every covered tile is reached from the start
//!   along the steps taken, added as cuts between solves ([`Pieces`]),
//!   each guarded by the rule's selector.
//!
//! What no rule names is the mechanics, always on: a step goes between
//! neighbours, never into the start and never straight back; one step at
//! most leaves a tile; every tile is covered when none may be left; the end
//! tile is covered.
//!
//! The check of a model ([`RuleCheck`]) judges each rule switched on by
//! counting over the model's values, and with every rule on walks the
//! route over the grid ([`super::check`]); neither reads the clauses.

use std::cell::RefCell;
use std::rc::Rc;

use super::graph::{Room, START};
use super::{Cell, TileCoverPuzzle};
use crate::cnf::{ClauseSink, Cnf, Lit, Var, card};
use crate::deduce::{Fact, Rule};
use crate::graph::{
    Part, PathReading, Sink, Walk, guarded_colour_count, guarded_end_colour_link, path_arcs, read_path,
};
use crate::grid::{Dir, Grid, Pos};
use crate::puzzles::{Error, read_moves};
use crate::solver::{Repair, Repairer};

/// A clause's owner: a rule (an index into the rules), or the mechanics.
const FIXED: usize = usize::MAX;

/// What each rule is, for the check.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// The start is left once; a tile is entered once and left once.
    Node(usize),
    Ends,
    Budget,
    Colour {
        end_link: bool,
    },
    Piece,
}

/// The room's formula with each clause's owner, as the encodings of
/// [`crate::graph`] write it.
struct Writer {
    cnf: Cnf,
    owner: usize,
    owners: Vec<usize>,
    ends: usize,
    colour: usize,
    end_link: bool,
}

impl ClauseSink for Writer {
    fn new_var(&mut self) -> Var {
        self.cnf.new_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.cnf.add_clause(clause);
        self.owners.push(self.owner);
    }
}

impl Sink for Writer {
    fn open(&mut self, part: Part) {
        self.owner = match part {
            Part::StartLeft => START,
            Part::Entered(node) | Part::Left(node) => node,
            Part::EndsOnce => self.ends,
            Part::ColourCount => self.colour,
            Part::EndColour => {
                self.end_link = true;
                self.colour
            }
            _ => FIXED,
        };
    }
}

/// The route-step deductions of a room, ready for [`crate::deduce::Deductions`].
pub(super) struct RouteSteps {
    /// The formula with every rule's clauses behind its selector.
    pub guarded: Cnf,
    pub rules: Vec<Rule>,
    pub facts: Vec<Fact>,
    /// The selector of "the route is one piece".
    pub piece: Lit,
    pub check: RuleCheck,
}

/// Builds the rules, facts and formula of `puzzle`'s room.
pub(super) fn build(puzzle: &TileCoverPuzzle) -> RouteSteps {
    let room = puzzle.room();
    let nodes = room.num_nodes();
    let k = room.leave_uncovered();
    let (ends, budget) = (nodes, (k > 0).then_some(nodes + 1));
    let colour = nodes + 1 + usize::from(k > 0);
    let mut w = Writer { cnf: Cnf::new(), owner: FIXED, owners: Vec::new(), ends, colour, end_link: false };
    let truth = w.new_var().pos();
    w.add_clause(&[truth]);
    let mut covered = vec![truth];
    covered.extend(room.tiles().map(|_| w.new_var().pos()));
    let left: Vec<Lit> = room.tiles().map(|t| !covered[t]).collect();
    w.owner = budget.unwrap_or(FIXED);
    card::at_most_k(&mut w, &left, k);
    w.owner = FIXED;
    if let Some(end) = room.end() {
        w.add_clause(&[covered[end]]);
    }
    // Guarded: "at most k tiles are left" is a rule of its own, which may be
    // off, so the colour count must not lean on it (issue: a model leaving
    // more failed the check, and a deduction could have used the bound
    // under the colour count's name).
    guarded_colour_count(&mut w, room, &covered, truth, Walk::Path, k);
    let (arcs, lasts) = path_arcs(&mut w, room, &covered, false);
    // The mechanics a player takes for granted: one step from a tile at most.
    w.owner = FIXED;
    for node in 0..nodes {
        let out: Vec<Lit> = room.out_arcs(node).iter().map(|&a| arcs[a].pos()).collect();
        card::at_most_one(&mut w, &out);
    }
    // As the lazy encoding does: only for small allowances, whose counters stay small.
    if (1..=16).contains(&k) && room.num_tiles() > 0 {
        guarded_end_colour_link(&mut w, room, &covered, truth, k, &lasts);
    }
    let has_colour = w.owners.contains(&colour);
    let piece = colour + usize::from(has_colour);
    let mut kinds: Vec<Kind> = (0..nodes).map(Kind::Node).collect();
    kinds.push(Kind::Ends);
    kinds.extend(budget.map(|_| Kind::Budget));
    if has_colour {
        kinds.push(Kind::Colour { end_link: w.end_link });
    }
    kinds.push(Kind::Piece);
    debug_assert_eq!(kinds.len(), piece + 1);
    let mut guarded = Cnf::new();
    guarded.new_vars(w.cnf.num_vars());
    let selectors: Vec<Lit> = kinds.iter().map(|_| guarded.new_var().pos()).collect();
    for (clause, &owner) in w.cnf.clauses().zip(&w.owners) {
        let mut clause = clause.to_vec();
        if owner != FIXED {
            clause.push(!selectors[owner]);
        }
        guarded.add_clause(&clause);
    }
    let rules = kinds.iter().zip(&selectors).map(|(&kind, &selector)| rule(room, kind, selector)).collect();
    let facts = step_facts(room, &arcs);
    let check = RuleCheck { room: room.clone(), kinds, arcs, lasts, covered };
    RouteSteps { guarded, rules, facts, piece: selectors[piece], check }
}

fn rule(room: &Room, kind: Kind, selector: Lit) -> Rule {
    let k = room.leave_uncovered();
    let at = |node: usize| room.position(node);
    let (name, cells, subjects) = match kind {
        Kind::Node(START) => {
            (format!("the walk leaves the start {} once", room.label(START)), vec![at(START)], vec![START])
        }
        Kind::Node(tile) => {
            let when = if k > 0 { ", when covered," } else { "" };
            let unless = if room.end().is_some() { "" } else { ", unless it is the last" };
            let name = format!("the tile at {}{when} is entered once and left once{unless}", room.label(tile));
            let mut subjects: Vec<usize> = room.in_arcs(tile).iter().map(|&a| room.arcs()[a].0).collect();
            subjects.push(tile);
            subjects.sort_unstable();
            subjects.dedup();
            (name, vec![at(tile)], subjects)
        }
        Kind::Ends => match room.end() {
            Some(end) => (format!("the walk ends on the end tile {}", room.label(end)), vec![at(end)], Vec::new()),
            None => ("the walk ends once".to_string(), Vec::new(), Vec::new()),
        },
        Kind::Budget => {
            let name = if k == 1 {
                "at most 1 tile is left uncovered".to_string()
            } else {
                format!("at most {k} tiles are left uncovered")
            };
            (name, Vec::new(), Vec::new())
        }
        Kind::Colour { .. } => {
            ("the colour count: the walk alternates the checkerboard's colours".to_string(), Vec::new(), Vec::new())
        }
        Kind::Piece => {
            ("the route is one piece: every covered tile is reached from the start".to_string(), Vec::new(), Vec::new())
        }
    };
    let place = cells.first().copied();
    Rule { selector, name, place, line: None, cells, subjects, reads: None, house: None }
}

/// "Step from (r, c)" takes a direction, per arc of the room.
fn step_facts(room: &Room, arcs: &[Var]) -> Vec<Fact> {
    let facts = room.arcs().iter().zip(arcs).map(|(&(from, to), var)| {
        let dir = direction(room.position(from), room.position(to));
        let about = format!("step from {}", room.label(from));
        let name = format!("the route steps {} from {}", dir.name(), room.label(from));
        let (place, value, shown) = (Some(room.position(from)), dir.index() as i64, dir.name().into());
        Fact { lit: var.pos(), name, place, subject: from, value, about, shown }
    });
    facts.collect()
}

fn direction((r0, c0): Pos, (r1, c1): Pos) -> Dir {
    match (r1 as i64 - r0 as i64, c1 as i64 - c0 as i64) {
        (-1, _) => Dir::Up,
        (1, _) => Dir::Down,
        (_, -1) => Dir::Left,
        _ => Dir::Right,
    }
}

/// The check of a model against the rules switched on, by counting over
/// its values; see the module documentation.
#[derive(Clone)]
pub(super) struct RuleCheck {
    room: Room,
    kinds: Vec<Kind>,
    arcs: Vec<Var>,
    lasts: Vec<Option<Lit>>,
    covered: Vec<Lit>,
}

impl RuleCheck {
    /// The number of rules.
    pub fn rule_count(&self) -> usize {
        self.kinds.len()
    }

    /// Whether the model `value` reads keeps the mechanics and each rule of `on`.
    pub fn rules(&self, value: &dyn Fn(Lit) -> bool, on: &[usize]) -> Result<(), String> {
        let room = &self.room;
        let taken: Vec<bool> = self.arcs.iter().map(|a| value(a.pos())).collect();
        let covered: Vec<bool> = self.covered.iter().map(|&c| value(c)).collect();
        for (arc, &(from, to)) in room.arcs().iter().enumerate() {
            if taken[arc] && room.reverse(arc).is_some_and(|back| taken[back]) {
                return Err(format!("the model steps from {} to {} and back", room.label(from), room.label(to)));
            }
        }
        if let Some(n) = (0..room.num_nodes()).find(|&n| room.out_arcs(n).iter().filter(|&&a| taken[a]).count() > 1) {
            return Err(format!("the model steps from {} twice", room.label(n)));
        }
        let must_cover = room.tiles().filter(|&t| room.leave_uncovered() == 0 || Some(t) == room.end());
        if let Some(t) = must_cover.into_iter().find(|&t| !covered[t]) {
            return Err(format!("the model leaves {} uncovered", room.label(t)));
        }
        for &r in on {
            self.rule(self.kinds[r], value, &taken, &covered)
                .map_err(|why| format!("the model breaks rule {r} ({:?}): {why}", self.kinds[r]))?;
        }
        Ok(())
    }

    fn rule(&self, kind: Kind, value: &dyn Fn(Lit) -> bool, taken: &[bool], covered: &[bool]) -> Result<(), String> {
        let room = &self.room;
        let count = |arcs: &[usize]| arcs.iter().filter(|&&a| taken[a]).count();
        let last = |n: usize| self.lasts[n].is_some_and(value);
        let ok = |holds: bool, why: &str| if holds { Ok(()) } else { Err(why.to_string()) };
        match kind {
            Kind::Node(START) => ok(count(room.out_arcs(START)) == 1, "the start is not left once"),
            Kind::Node(t) => {
                let (entered, left) = (count(room.in_arcs(t)), count(room.out_arcs(t)) + usize::from(last(t)));
                ok(entered <= 1 && left <= 1 && (entered == 1) == covered[t] && (left == 1) == covered[t], "degrees")
            }
            Kind::Ends => match room.end() {
                Some(end) => ok(room.tiles().all(|t| last(t) == (t == end)), "the walk does not end on the end tile"),
                None => ok(room.tiles().filter(|&t| last(t)).count() == 1, "the walk does not end once"),
            },
            Kind::Budget => {
                ok(room.tiles().filter(|&t| !covered[t]).count() <= room.leave_uncovered(), "too many tiles are left")
            }
            Kind::Colour { end_link } => {
                let same = |n: usize| room.same_colour_as_start(n);
                // The rule's clauses are guarded: they bind only while at
                // most k tiles of each colour (other than the end) are left.
                let left = |colour: bool| {
                    let free = room.tiles().filter(|&t| Some(t) != room.end() && !covered[t]);
                    free.filter(|&t| same(t) == colour).count()
                };
                if left(true) > room.leave_uncovered() || left(false) > room.leave_uncovered() {
                    return Ok(());
                }
                let on = (0..room.num_nodes()).filter(|&n| covered[n]);
                let difference: i64 = on.map(|n| if same(n) { 1 } else { -1 }).sum();
                let allowed = match room.end() {
                    Some(end) => difference == i64::from(same(end)),
                    None => difference == 0 || difference == 1,
                };
                let linked = !end_link || room.tiles().filter(|&t| last(t)).all(|t| difference == i64::from(same(t)));
                ok(allowed && linked, "the colours do not alternate")
            }
            Kind::Piece => {
                let reached = reached(room, taken);
                ok(room.tiles().all(|t| !covered[t] || reached[t]), "a covered tile is not reached from the start")
            }
        }
    }

    /// The walk of a model with every rule on, for the walk over the grid.
    pub fn walk(&self, value: &dyn Fn(Lit) -> bool) -> Result<Vec<usize>, String> {
        match read_path(&self.room, &self.arcs, value) {
            PathReading::Walk(walk) => {
                let mut on_walk = vec![false; self.room.num_nodes()];
                walk.iter().for_each(|&n| on_walk[n] = true);
                match self.room.tiles().find(|&t| on_walk[t] != value(self.covered[t])) {
                    Some(t) => {
                        Err(format!("the model's walk and its covered tiles disagree at {}", self.room.label(t)))
                    }
                    None => Ok(walk),
                }
            }
            PathReading::Cycles(..) => Err("the model has detached cycles".to_string()),
            PathReading::Broken(why) => Err(format!("the model is not a walk: {why}")),
        }
    }

    /// The repair step of "the route is one piece", behind `selector`.
    pub fn pieces(&self, selector: Lit, log: Rc<RefCell<Vec<Vec<Lit>>>>) -> Pieces {
        Pieces { room: self.room.clone(), arcs: self.arcs.clone(), covered: self.covered.clone(), selector, log }
    }
}

/// The nodes reached from the start along the arcs `taken`.
fn reached(room: &Room, taken: &[bool]) -> Vec<bool> {
    let mut seen = vec![false; room.num_nodes()];
    seen[START] = true;
    let mut stack = vec![START];
    while let Some(node) = stack.pop() {
        for &arc in room.out_arcs(node) {
            let to = room.arcs()[arc].1;
            if taken[arc] && !seen[to] {
                seen[to] = true;
                stack.push(to);
            }
        }
    }
    seen
}

/// Cuts for "the route is one piece" while its selector holds: for each
/// piece of the grid among the tiles the model's steps do not reach from
/// the start, "a covered tile in it is entered from outside it", per
/// covered tile. Each holds whenever
/// the rule does, for any set of tiles: a covered tile is reached along
/// taken steps from the start, which is outside the set, so one of those
/// steps enters it.
pub(super) struct Pieces {
    room: Room,
    arcs: Vec<Var>,
    covered: Vec<Lit>,
    selector: Lit,
    log: Rc<RefCell<Vec<Vec<Lit>>>>,
}

impl Repairer for Pieces {
    fn repair(&mut self, value: &dyn Fn(Lit) -> bool, _: &mut dyn FnMut() -> Var) -> Result<Repair, String> {
        if !value(self.selector) {
            return Ok(Repair::Accept);
        }
        let room = &self.room;
        let taken: Vec<bool> = self.arcs.iter().map(|a| value(a.pos())).collect();
        let reached = reached(room, &taken);
        let covered: Vec<bool> = self.covered.iter().map(|&c| value(c)).collect();
        let mut cuts = Vec::new();
        for piece in unreached_pieces(room, &reached, &covered) {
            let mut inside = vec![false; room.num_nodes()];
            piece.iter().for_each(|&n| inside[n] = true);
            let entering: Vec<Lit> = piece
                .iter()
                .flat_map(|&n| room.in_arcs(n))
                .filter(|&&a| !inside[room.arcs()[a].0])
                .map(|&a| self.arcs[a].pos())
                .collect();
            for &n in piece.iter().filter(|&&n| covered[n]) {
                cuts.push([&[!self.covered[n], !self.selector], &entering[..]].concat());
            }
        }
        if cuts.is_empty() {
            return Ok(Repair::Accept);
        }
        self.log.borrow_mut().extend(cuts.iter().cloned());
        Ok(Repair::Cut(cuts))
    }
}

/// The pieces of the grid among the nodes not `reached` that hold a
/// covered node. (Pieces joined by the model's steps instead, its detached
/// cycles, made the Somaria room's steps several times slower: measured
/// from 90 moves of its 110, 15 s against over 60 s.)
fn unreached_pieces(room: &Room, reached: &[bool], covered: &[bool]) -> Vec<Vec<usize>> {
    let mut seen = reached.to_vec();
    let mut pieces = Vec::new();
    for first in room.tiles() {
        if seen[first] || !covered[first] {
            continue;
        }
        let mut piece = vec![first];
        seen[first] = true;
        let mut next = 0;
        while next < piece.len() {
            for &n in room.neighbours(piece[next]) {
                if !seen[n] {
                    seen[n] = true;
                    piece.push(n);
                }
            }
            next += 1;
        }
        pieces.push(piece);
    }
    pieces
}

/// The player's entries with `moves=R,R,D` walked from the start and read
/// as the steps it takes ("step from (4, 12)=left"), each named by its
/// move; other entries pass as they are. A move off the grid, into a wall,
/// onto the start or onto a tile walked already is refused, with its number.
pub(super) fn given_entries(grid: &Grid<Cell>, given: &[String]) -> Result<Vec<(String, String)>, Error> {
    let mut out = Vec::new();
    let mut walked = false;
    for entry in given {
        let Some(("moves", list)) = entry.split_once('=').map(|(k, v)| (k.trim(), v)) else {
            out.push((entry.clone(), entry.clone()));
            continue;
        };
        let bad = |why: String| Error::BadRequest(format!("--given {entry:?}: {why}"));
        if std::mem::replace(&mut walked, true) {
            return Err(bad("a second moves=...; expected the moves walked so far in one list".into()));
        }
        let moves = read_moves(list).map_err(bad)?;
        let start = grid.cells().find(|(_, c)| **c == Cell::Start).map(|(p, _)| p);
        let mut here = start.ok_or_else(|| bad("the room has no start".into()))?;
        let mut covered = vec![false; grid.rows() * grid.cols()];
        for (i, &(walker, dir)) in moves.iter().enumerate() {
            let word = format!("move {} ({})", i + 1, &dir.name()[..1].to_ascii_uppercase());
            if walker.is_some() {
                return Err(bad(format!(
                    "{word} names a walker; a tile-cover room has one, so expected moves such as R,R,D"
                )));
            }
            let why = match grid.step(here, dir) {
                None => Some(format!("{word} from {here:?} leaves the room")),
                Some(next) => match grid[next] {
                    Cell::Wall => Some(format!("{word} from {here:?} walks into the wall at {next:?}")),
                    Cell::Start => Some(format!("{word} from {here:?} returns to the start")),
                    _ if covered[grid.index_of(next)] => Some(format!("{word} steps on {next:?} a second time")),
                    _ => None,
                },
            };
            if let Some(why) = why {
                return Err(bad(format!("{why}; expected moves onto tiles not walked yet")));
            }
            let (r, c) = here;
            out.push((
                format!("step from ({r}, {c})={}", dir.name()),
                format!("{word}: step from ({r}, {c}) = {}", dir.name()),
            ));
            here = grid.step(here, dir).unwrap_or(here);
            covered[grid.index_of(here)] = true;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    //! The rules' clauses against the check, both ways, on small random
    //! rooms: every walk from the start keeps each rule its cells keep (the
    //! true rules, by counting), so the formula with those rules on must
    //! admit it (a formula stronger than its rule would let `steps` deduce
    //! under a rule's name what the rule does not say); and every model of
    //! the formula with some rules on passes the check of those rules (a
    //! weaker one fails it, as the colour count did with the allowance off:
    //! its counters stopped at the allowance).

    use super::*;
    use crate::grid::Grid;
    use crate::rng::SplitMix64;
    use crate::solver::{Answer, Solve, new_solver};

    fn random_puzzle(rng: &mut SplitMix64) -> TileCoverPuzzle {
        let (rows, cols) = [(2, 3), (3, 3), (2, 4), (3, 4), (3, 5), (1, 5)][rng.below(6)];
        let mut cells: Vec<Vec<Cell>> = (0..rows)
            .map(|_| (0..cols).map(|_| if rng.below(6) == 0 { Cell::Wall } else { Cell::Tile }).collect())
            .collect();
        let mut free: Vec<Pos> = (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))).collect();
        rng.shuffle(&mut free);
        cells[free[0].0][free[0].1] = Cell::Start;
        if rng.below(2) == 0 {
            cells[free[1].0][free[1].1] = Cell::End;
        }
        let tiles = cells.iter().flatten().filter(|c| matches!(c, Cell::Tile | Cell::End)).count();
        let k = rng.below(6).min(tiles);
        TileCoverPuzzle::new(Grid::from_rows(cells).unwrap(), k).unwrap()
    }

    /// Every walk from the start over distinct tiles, at least one, as the
    /// arcs it takes; none goes on from the end tile.
    fn walks(room: &Room) -> Vec<Vec<usize>> {
        fn go(room: &Room, at: usize, seen: &mut Vec<bool>, arcs: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if !arcs.is_empty() {
                out.push(arcs.clone());
            }
            if Some(at) == room.end() {
                return;
            }
            for &arc in room.out_arcs(at) {
                let to = room.arcs()[arc].1;
                if to != START && !seen[to] {
                    seen[to] = true;
                    arcs.push(arc);
                    go(room, to, seen, arcs, out);
                    arcs.pop();
                    seen[to] = false;
                }
            }
        }
        let mut out = Vec::new();
        go(room, START, &mut vec![false; room.num_nodes()], &mut Vec::new(), &mut out);
        out
    }

    /// The assumptions that fix the formula's arcs, covered tiles and last
    /// tile to `walk`, and the rules it keeps as `on`.
    fn walk_assumptions(steps: &RouteSteps, room: &Room, walk: &[usize]) -> (Vec<Lit>, Vec<usize>) {
        let check = &steps.check;
        let mut covered = vec![false; room.num_nodes()];
        covered[START] = true;
        walk.iter().for_each(|&a| covered[room.arcs()[a].1] = true);
        let last = room.arcs()[*walk.last().unwrap()].1;
        let mut fixed: Vec<Lit> = Vec::new();
        for (arc, var) in check.arcs.iter().enumerate() {
            fixed.push(if walk.contains(&arc) { var.pos() } else { var.neg() });
        }
        for t in room.tiles() {
            fixed.push(if covered[t] { check.covered[t] } else { !check.covered[t] });
        }
        for (n, l) in check.lasts.iter().enumerate() {
            if let Some(&l) = l.as_ref() {
                fixed.push(if n == last { l } else { !l });
            }
        }
        let left = room.tiles().filter(|&t| !covered[t]).count();
        let keeps = |kind: Kind| match kind {
            Kind::Budget => left <= room.leave_uncovered(),
            Kind::Ends => room.end().is_none_or(|e| e == last),
            _ => true,
        };
        let on: Vec<usize> = (0..check.kinds.len()).filter(|&r| keeps(check.kinds[r])).collect();
        for (r, rule) in steps.rules.iter().enumerate() {
            fixed.push(if on.contains(&r) { rule.selector } else { !rule.selector });
        }
        (fixed, on)
    }

    #[test]
    fn the_rules_clauses_say_what_the_check_says() {
        let mut rng = SplitMix64::new(7);
        let (mut walks_tried, mut models_checked) = (0, 0);
        for _ in 0..300 {
            let puzzle = random_puzzle(&mut rng);
            let room = puzzle.room();
            let steps = build(&puzzle);
            let mut solver = new_solver(&steps.guarded, None);
            let mechanics_allow = |walk: &[usize]| {
                let covered: Vec<usize> = walk.iter().map(|&a| room.arcs()[a].1).collect();
                let end_ok = room.end().is_none_or(|e| covered.contains(&e));
                end_ok && (room.leave_uncovered() > 0 || covered.len() == room.num_tiles())
            };
            for walk in walks(room).into_iter().filter(|w| mechanics_allow(w)) {
                let (fixed, on) = walk_assumptions(&steps, room, &walk);
                let answer = solver.solve_under(&fixed).unwrap();
                assert_eq!(answer, Answer::Sat, "{:?} keeps rules {on:?}, which refuse it", walk);
                walks_tried += 1;
            }
            let rules = steps.rules.len();
            for _ in 0..20 {
                let on: Vec<usize> = (0..rules).filter(|_| rng.below(3) > 0).collect();
                let chosen: Vec<Lit> = (0..rules)
                    .map(|r| if on.contains(&r) { steps.rules[r].selector } else { !steps.rules[r].selector })
                    .collect();
                if solver.solve_under(&chosen).unwrap() == Answer::Sat {
                    let value = |l: Lit| solver.value(l);
                    // "The route is one piece" comes as cuts between solves, not clauses.
                    let in_clauses: Vec<usize> =
                        on.iter().copied().filter(|&r| steps.check.kinds[r] != Kind::Piece).collect();
                    if let Err(why) = steps.check.rules(&value, &in_clauses) {
                        panic!("a model of rules {on:?} fails their check: {why}");
                    }
                    models_checked += 1;
                }
            }
        }
        assert!(walks_tried > 1000 && models_checked > 1000, "{walks_tried} walks, {models_checked} models");
    }
}

//! One incremental solver over an [`Encoding`], which turns every model into
//! a single walk before anyone reads it: with the lazy encoding, a model
//! with detached cycles gets one cut per cycle and is solved again.
//!
//! Cuts hold for every solution, so they stay for the life of the solver,
//! through counting and facts alike.

use super::encode::{CutStyle, Encoding, Reading, Scheme};
use super::graph::{Room, START};
use crate::cnf::{Cnf, Lit};
use crate::puzzles::Error;
use crate::solver::{Answer, Solve, SolveStats, VarisatSolver};

/// A solver over an encoding, with the cuts it has added.
pub struct Session<'a> {
    room: &'a Room,
    encoding: &'a Encoding,
    solver: VarisatSolver,
    cuts: Vec<Vec<Lit>>,
}

impl<'a> Session<'a> {
    /// A session over `solver`, which must hold exactly the encoding's
    /// clauses; the caller builds it so it can attach progress counters.
    pub fn new(room: &'a Room, encoding: &'a Encoding, solver: VarisatSolver) -> Session<'a> {
        Session { room, encoding, solver, cuts: Vec::new() }
    }

    /// After a walk came back `None`, assumptions that already rule every
    /// walk out.
    pub fn failed_core(&self) -> Vec<Lit> {
        self.solver.failed_core()
    }

    /// The solver's counters.
    pub fn stats(&self) -> SolveStats {
        self.solver.stats()
    }

    /// The encoding's CNF with every cut added so far: the formula solved.
    pub fn solved_cnf(&self) -> Cnf {
        let mut cnf = self.encoding.cnf().clone();
        if !self.cuts.is_empty() {
            cnf.open_group("cuts against detached cycles, added between solves", None);
            for cut in &self.cuts {
                cnf.add_clause(cut);
            }
        }
        cnf
    }

    /// The size of [`Session::solved_cnf`], `(variables, clauses)`, without
    /// building it.
    pub fn solved_size(&self) -> (usize, usize) {
        (self.encoding.cnf().num_vars(), self.encoding.cnf().num_clauses() + self.cuts.len())
    }

    /// The value of a literal in the last model.
    pub fn value(&self, lit: Lit) -> bool {
        self.solver.value(lit)
    }

    /// A fresh selector literal for guarded clauses.
    pub fn new_selector(&mut self) -> Lit {
        self.solver.new_var().pos()
    }

    /// Adds a clause that holds from now on.
    pub fn add_clause(&mut self, clause: &[Lit]) {
        self.solver.add_clause(clause);
    }

    /// A walk under the assumptions, as its tiles in order, or `None` when
    /// there is none.
    pub fn walk(&mut self, assumptions: &[Lit]) -> Result<Option<Vec<usize>>, Error> {
        self.walk_with(assumptions, false)
    }

    /// Like [`Session::walk`], but when a model has detached cycles, first
    /// try to splice them into the walk (see [`splice_all`]); the spliced
    /// walk covers the same tiles as the model, though it is not the model.
    pub fn walk_or_splice(&mut self, assumptions: &[Lit]) -> Result<Option<Vec<usize>>, Error> {
        self.walk_with(assumptions, true)
    }

    fn walk_with(&mut self, assumptions: &[Lit], splice: bool) -> Result<Option<Vec<usize>>, Error> {
        loop {
            if self.solver.solve_under(assumptions)? == Answer::Unsat {
                return Ok(None);
            }
            match self.encoding.read(self.room, |lit| self.solver.value(lit)) {
                Reading::Walk(walk) => return Ok(Some(walk)),
                Reading::Broken(why) => return Err(Error::CheckFailed(format!("the model is not a walk: {why}"))),
                Reading::Cycles(walk, cycles) => {
                    let Scheme::Lazy(style) = self.encoding.scheme() else {
                        return Err(Error::CheckFailed("the encoding let a detached cycle through".to_string()));
                    };
                    if splice {
                        let loops: Vec<Vec<usize>> =
                            cycles.iter().map(|c| c.iter().map(|&a| self.room.arcs()[a].0).collect()).collect();
                        if let Some(whole) = splice_all(self.room, &walk, loops) {
                            return Ok(Some(whole));
                        }
                    }
                    let mut cuts = Vec::new();
                    for cycle in &cycles {
                        let cells: Vec<usize> = cycle.iter().map(|&a| self.room.arcs()[a].0).collect();
                        cuts.extend(match style {
                            CutStyle::Nogood => vec![self.nogood(cycle)],
                            CutStyle::CutSet => self.entry_cuts(&cells),
                        });
                    }
                    if style == CutStyle::CutSet {
                        cuts.extend(self.component_cuts(&cycles));
                    }
                    for cut in cuts {
                        self.solver.add_clause(&cut);
                        self.cuts.push(cut);
                    }
                }
            }
        }
    }

    /// "Not all of these arcs at once".
    fn nogood(&self, cycle: &[usize]) -> Vec<Lit> {
        let arc_vars = self.encoding.arc_vars().expect("lazy encodings have arcs");
        cycle.iter().map(|&a| arc_vars[a].neg()).collect()
    }

    /// Cuts for larger sets than single cycles, which also forbid many
    /// cycles not seen yet: each group of touching cycles, and the walk's
    /// own cells, which the walk must leave unless it ends among them.
    fn component_cuts(&self, cycles: &[Vec<usize>]) -> Vec<Vec<Lit>> {
        let arc_vars = self.encoding.arc_vars().expect("lazy encodings have arcs");
        let ends = self.encoding.end_lits().expect("lazy encodings have ends");
        let mut in_cycle = vec![false; self.room.num_nodes()];
        for &arc in cycles.iter().flatten() {
            in_cycle[self.room.arcs()[arc].0] = true;
        }
        let mut cuts = Vec::new();
        if cycles.len() > 1 {
            let mut seen = vec![false; self.room.num_nodes()];
            for first in self.room.tiles() {
                if !in_cycle[first] || seen[first] {
                    continue;
                }
                let mut group = vec![first];
                seen[first] = true;
                let mut next = 0;
                while next < group.len() {
                    for &n in self.room.neighbours(group[next]) {
                        if in_cycle[n] && !seen[n] {
                            seen[n] = true;
                            group.push(n);
                        }
                    }
                    next += 1;
                }
                let cycles_inside = cycles.iter().filter(|c| group.contains(&self.room.arcs()[c[0]].0)).count();
                if cycles_inside > 1 {
                    cuts.extend(self.entry_cuts(&group));
                }
            }
        }
        // The walk's cells: the start and the tiles the model walks to.
        let mut on_walk = vec![false; self.room.num_nodes()];
        let mut node = START;
        on_walk[START] = true;
        while let Some(&arc) = self.room.out_arcs(node).iter().find(|&&a| self.solver.value(arc_vars[a].pos())) {
            node = self.room.arcs()[arc].1;
            if on_walk[node] {
                break;
            }
            on_walk[node] = true;
        }
        let mut leave_or_end: Vec<Lit> = (0..self.room.num_nodes())
            .filter(|&n| on_walk[n])
            .flat_map(|n| self.room.out_arcs(n))
            .filter(|&&a| !on_walk[self.room.arcs()[a].1])
            .map(|&a| arc_vars[a].pos())
            .collect();
        leave_or_end.extend((0..self.room.num_nodes()).filter(|&n| on_walk[n]).filter_map(|n| ends[n]));
        cuts.push(leave_or_end);
        cuts
    }

    /// Cut-set clauses saying the walk enters a set of cells.
    ///
    /// A cut holds in every solution that covers a cell of the set, so when
    /// a solution could leave the whole set uncovered it is guarded, cell by
    /// cell, by that cell being covered; a solution may cover part of the
    /// set, and then it still enters it. The start is
    /// never inside, so a walk that covers a cell of the set comes in from
    /// outside.
    fn entry_cuts(&self, cells: &[usize]) -> Vec<Vec<Lit>> {
        let arc_vars = self.encoding.arc_vars().expect("lazy encodings have arcs");
        let mut inside = vec![false; self.room.num_nodes()];
        for &cell in cells {
            inside[cell] = true;
        }
        let entering: Vec<Lit> = cells
            .iter()
            .flat_map(|&cell| self.room.in_arcs(cell))
            .filter(|&&a| !inside[self.room.arcs()[a].0])
            .map(|&a| arc_vars[a].pos())
            .collect();
        // Only a solution that leaves every cell of the set uncovered may
        // skip it, and that needs more than k cells left.
        if cells.len() > self.room.leave_uncovered() {
            return vec![entering];
        }
        cells
            .iter()
            .map(|&cell| std::iter::once(!self.encoding.covered(cell)).chain(entering.iter().copied()).collect())
            .collect()
    }
}

/// Splices detached cycles into the walk where a walk step a -> b runs
/// alongside a cycle step, so that a -> (around the cycle) -> b is a walk;
/// cycles are also spliced into each other, and, when no end tile is set,
/// appended at the walk's end. Returns the whole walk (tiles only) when
/// every cycle found a place, else `None`. The covered tiles do not change.
pub fn splice_all(room: &Room, walk: &[usize], mut cycles: Vec<Vec<usize>>) -> Option<Vec<usize>> {
    let mut host: Vec<usize> = std::iter::once(START).chain(walk.iter().copied()).collect();
    let mut progress = true;
    while !cycles.is_empty() && progress {
        progress = false;
        let mut index = 0;
        while index < cycles.len() {
            if let Some(merged) = splice(room, &host, false, &cycles[index]) {
                host = merged;
                cycles.swap_remove(index);
                progress = true;
                continue;
            }
            let partner = (0..cycles.len())
                .filter(|&j| j != index)
                .find_map(|j| splice(room, &cycles[j], true, &cycles[index]).map(|merged| (j, merged)));
            if let Some((j, merged)) = partner {
                cycles[j] = merged;
                cycles.swap_remove(index);
                progress = true;
                continue;
            }
            index += 1;
        }
    }
    cycles.is_empty().then(|| host[1..].to_vec())
}

/// `guest` (a cycle) spliced into `host` (the walk from the start, or a
/// cycle when `closed`), or `None` when no place fits.
fn splice(room: &Room, host: &[usize], closed: bool, guest: &[usize]) -> Option<Vec<usize>> {
    let mut place = vec![usize::MAX; room.num_nodes()];
    for (j, &node) in host.iter().enumerate() {
        place[node] = j;
    }
    let after = |j: usize| -> Option<usize> {
        if j + 1 < host.len() {
            Some(j + 1)
        } else if closed {
            Some(0)
        } else {
            None
        }
    };
    let adjacent = |a: usize, b: usize| room.neighbours(a).contains(&b);
    let m = guest.len();
    let insert = |j: usize, run: Vec<usize>| -> Vec<usize> {
        let mut merged = Vec::with_capacity(host.len() + run.len());
        merged.extend_from_slice(&host[..=j]);
        merged.extend(run);
        merged.extend_from_slice(&host[j + 1..]);
        merged
    };
    for i in 0..m {
        let (v, w) = (guest[i], guest[(i + 1) % m]);
        // a -> w, forward around the guest to v, then v -> b.
        for &a in room.neighbours(w) {
            let j = place[a];
            if j == usize::MAX {
                continue;
            }
            if let Some(k) = after(j) {
                if adjacent(v, host[k]) {
                    return Some(insert(j, (0..m).map(|s| guest[(i + 1 + s) % m]).collect()));
                }
            } else if room.end().is_none() {
                return Some(insert(j, (0..m).map(|s| guest[(i + 1 + s) % m]).collect()));
            }
        }
        // a -> v, backward around the guest to w, then w -> b.
        for &a in room.neighbours(v) {
            let j = place[a];
            if j == usize::MAX {
                continue;
            }
            if let Some(k) = after(j)
                && adjacent(w, host[k])
            {
                return Some(insert(j, (0..m).map(|s| guest[(i + m - s) % m]).collect()));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::puzzles::tile_cover::Cell;

    fn room(rows: &[&str]) -> Room {
        let cells = rows.iter().map(|r| r.chars().map(|c| Cell::from_symbol(c).unwrap()).collect()).collect();
        Room::new(&Grid::from_rows(cells).unwrap(), 0)
    }

    fn node(room: &Room, pos: (usize, usize)) -> usize {
        room.node_at(pos).unwrap()
    }

    #[test]
    fn a_cycle_beside_the_walk_is_spliced_in() {
        // S -> (0,1) -> (0,2) -> (0,3), and a cycle over the 2 x 2 block below the start.
        let room = room(&["S...", "..##", "..##"]);
        let n = |p| node(&room, p);
        let walk = vec![n((0, 1)), n((0, 2)), n((0, 3))];
        let cycle = vec![n((1, 0)), n((1, 1)), n((2, 1)), n((2, 0))];
        let whole = splice_all(&room, &walk, vec![cycle]).unwrap();
        assert_eq!(whole.len(), 7);
        let mut seen = whole.clone();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 7);
        let mut here = START;
        for &next in &whole {
            assert!(room.neighbours(here).contains(&next), "{here} -> {next}");
            here = next;
        }
    }

    #[test]
    fn a_cycle_with_no_neighbour_on_the_walk_is_left() {
        let room = room(&["S.#..", "..#.."]);
        let n = |p| node(&room, p);
        let walk = vec![n((0, 1)), n((1, 1)), n((1, 0))];
        let cycle = vec![n((0, 3)), n((0, 4)), n((1, 4)), n((1, 3))];
        assert_eq!(splice_all(&room, &walk, vec![cycle]), None);
    }
}

//! The repair step of the lazy encodings: every model is turned into a
//! single walk before anyone reads it. A model with detached cycles has them
//! spliced into the walk when that is allowed and possible, and otherwise
//! gets one cut per cycle (plus cuts for larger sets), and the driver in
//! [`crate::solver::Lazy`] solves again.
//!
//! Cuts hold for every solution, so they stay for the life of the solver,
//! through counting, facts and explanations alike. Every walk accepted is
//! first confirmed by the caller's independent check.

use super::encode::{CutStyle, Encoding, Reading, Scheme};
use super::graph::{Room, START};
use crate::cnf::Lit;
use crate::solver::{Repair, Repairer};

/// The independent check a walk must pass before it is accepted: the
/// tiles in order, after the start.
pub type Confirm<'a> = dyn Fn(&[usize]) -> Result<(), String> + 'a;

/// Judges models of an [`Encoding`] of a room, as a [`Repairer`].
pub struct Walker<'a> {
    room: &'a Room,
    encoding: &'a Encoding,
    splice: bool,
    confirm: &'a Confirm<'a>,
    walk: Vec<usize>,
}

impl<'a> Walker<'a> {
    /// A walker that accepts only models that are walks, or, when `splice`,
    /// also models whose detached cycles can be spliced into the walk. A
    /// spliced walk covers the same tiles as the model but uses other arcs,
    /// so splicing suits searches that read only "covered" (solve, facts,
    /// explain) and not those that tell solutions apart by arcs (count).
    pub fn new(room: &'a Room, encoding: &'a Encoding, splice: bool, confirm: &'a Confirm<'a>) -> Walker<'a> {
        Walker { room, encoding, splice, confirm, walk: Vec::new() }
    }

    /// The walk of the last accepted model: its tiles in order.
    pub fn walk(&self) -> &[usize] {
        &self.walk
    }

    /// Accepts `walk` for the model `value` reads, once it passes the
    /// independent check and covers exactly the tiles the model calls covered.
    fn accept(&mut self, walk: Vec<usize>, value: &dyn Fn(Lit) -> bool) -> Result<Repair, String> {
        (self.confirm)(&walk)?;
        let mut on_walk = vec![false; self.room.num_nodes()];
        for &node in &walk {
            on_walk[node] = true;
        }
        if let Some(tile) = self.room.tiles().find(|&t| on_walk[t] != value(self.encoding.covered(t))) {
            let says = if on_walk[tile] { "uncovered" } else { "covered" };
            return Err(format!("the model calls {} {says}, but its walk does not agree", self.room.label(tile)));
        }
        self.walk = walk;
        Ok(Repair::Accept)
    }

    /// The cuts against the detached cycles of a model.
    fn cuts(&self, style: CutStyle, cycles: &[Vec<usize>], value: &dyn Fn(Lit) -> bool) -> Vec<Vec<Lit>> {
        let mut cuts = Vec::new();
        for cycle in cycles {
            let cells: Vec<usize> = cycle.iter().map(|&a| self.room.arcs()[a].0).collect();
            match style {
                CutStyle::Nogood => cuts.push(self.nogood(cycle)),
                CutStyle::CutSet => cuts.extend(self.entry_cuts(&cells)),
            }
        }
        if style == CutStyle::CutSet {
            cuts.extend(self.component_cuts(cycles, value));
        }
        cuts
    }

    /// "Not all of these arcs at once".
    fn nogood(&self, cycle: &[usize]) -> Vec<Lit> {
        let arc_vars = self.encoding.arc_vars().expect("lazy encodings have arcs");
        cycle.iter().map(|&a| arc_vars[a].neg()).collect()
    }

    /// Cuts for larger sets than single cycles, which also forbid many
    /// cycles not seen yet: each group of touching cycles, and the walk's
    /// own cells, which the walk must leave unless it ends among them.
    fn component_cuts(&self, cycles: &[Vec<usize>], value: &dyn Fn(Lit) -> bool) -> Vec<Vec<Lit>> {
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
        while let Some(&arc) = self.room.out_arcs(node).iter().find(|&&a| value(arc_vars[a].pos())) {
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

impl Repairer for Walker<'_> {
    fn repair(&mut self, value: &dyn Fn(Lit) -> bool) -> Result<Repair, String> {
        match self.encoding.read(self.room, value) {
            Reading::Walk(walk) => self.accept(walk, value),
            Reading::Broken(why) => Err(format!("the model is not a walk: {why}")),
            Reading::Cycles(walk, cycles) => {
                let Scheme::Lazy(style) = self.encoding.scheme() else {
                    return Err("the encoding let a detached cycle through".to_string());
                };
                if self.splice {
                    let loops: Vec<Vec<usize>> =
                        cycles.iter().map(|c| c.iter().map(|&a| self.room.arcs()[a].0).collect()).collect();
                    if let Some(whole) = splice_all(self.room, &walk, loops) {
                        return self.accept(whole, value);
                    }
                }
                Ok(Repair::Cut(self.cuts(style, &cycles, value)))
            }
        }
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

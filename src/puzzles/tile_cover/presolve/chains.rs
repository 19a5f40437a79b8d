//! Forced steps, with nothing to leave (`leave_uncovered = 0`).
//!
//! Every tile is covered, so each is entered and left, or entered and the
//! last: it has two route neighbours, counting "the route ends here" as one.
//! Add a node `end` joined to every tile the route may end on; the route is
//! then a path from the start to `end` through every node, with the start
//! and `end` on one step each and every tile on two. Propagate, as a
//! circuit constraint would:
//!
//! - a node with only as many open sides as steps it needs takes them all
//!   (a tile with two open sides forces both steps);
//! - a node with all its steps drops its other sides;
//! - a forced stretch never closes into a loop, and the stretch from the
//!   start never meets the one into `end` before every cell is on them.
//!
//! A node with too many or too few steps, a loop, or a route finished early
//! refutes the room; the steps taken and dropped are the deductions handed
//! to SAT. With tiles to leave, a tile beside a skipped one needs one step
//! fewer, so none of this holds and the rule does not run.

use std::collections::VecDeque;

use super::colour::cap;
use super::{Deductions, Refutation, Rule, list, plural};
use crate::puzzles::tile_cover::graph::{Room, START};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum State {
    Open,
    Used,
    Cut,
}

/// Why a step was decided, for the certificate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Why {
    /// Given before propagation: the rules before this one ruled it out.
    Given,
    /// The node had only as many open sides as steps it needs.
    Few(usize),
    /// The node had all its steps already.
    Full(usize),
    /// It would close the forced stretch between these two into a loop.
    Loop(usize, usize),
    /// It would join the stretch from the start (ending at the first) to
    /// the one into the end (starting at the second) too early.
    Early(usize, usize),
}

/// A contradiction, and what it rests on.
enum Conflict {
    Over(usize),
    Under(usize),
    Cycle(usize, usize),
    Early,
}

struct Steps<'a> {
    room: &'a Room,
    end: usize,
    edges: Vec<(usize, usize)>,
    incident: Vec<Vec<usize>>,
    end_edge: Vec<Option<usize>>,
    state: Vec<State>,
    why: Vec<Why>,
    time: Vec<usize>,
    clock: usize,
    used: Vec<u8>,
    open: Vec<usize>,
    other_end: Vec<usize>,
    length: Vec<usize>,
    queue: VecDeque<usize>,
}

impl<'a> Steps<'a> {
    fn new(room: &'a Room, known: &Deductions) -> Steps<'a> {
        let n = room.num_nodes();
        let end = n;
        let mut edges = Vec::new();
        let mut incident = vec![Vec::new(); n + 1];
        let mut end_edge = vec![None; n];
        let mut given_cut = Vec::new();
        for u in 0..n {
            for &w in room.neighbours(u) {
                if u < w {
                    let e = edges.len();
                    edges.push((u, w));
                    incident[u].push(e);
                    incident[w].push(e);
                    let arc_allowed = |from: usize, to: usize| {
                        room.out_arcs(from).iter().any(|&a| room.arcs()[a].1 == to && known.arc_allowed(a))
                    };
                    if !arc_allowed(u, w) && !arc_allowed(w, u) {
                        given_cut.push(e);
                    }
                }
            }
        }
        for t in room.tiles() {
            let e = edges.len();
            edges.push((t, end));
            incident[t].push(e);
            incident[end].push(e);
            end_edge[t] = Some(e);
            if !known.may_end(t) {
                given_cut.push(e);
            }
        }
        let m = edges.len();
        let open = incident.iter().map(Vec::len).collect();
        let mut steps = Steps {
            room,
            end,
            edges,
            incident,
            end_edge,
            state: vec![State::Open; m],
            why: vec![Why::Given; m],
            time: vec![0; m],
            clock: 1,
            used: vec![0; n + 1],
            open,
            other_end: (0..=n).collect(),
            length: vec![1; n + 1],
            queue: (0..=n).collect(),
        };
        for e in given_cut {
            steps.cut(e, Why::Given);
        }
        steps
    }

    fn needs(&self, v: usize) -> u8 {
        if v == START || v == self.end { 1 } else { 2 }
    }

    fn other(&self, e: usize, v: usize) -> usize {
        let (a, b) = self.edges[e];
        if a == v { b } else { a }
    }

    fn edge_between(&self, a: usize, b: usize) -> Option<usize> {
        if a == self.end {
            return self.end_edge.get(b).copied().flatten();
        }
        if b == self.end {
            return self.end_edge.get(a).copied().flatten();
        }
        self.incident[a].iter().copied().find(|&e| self.other(e, a) == b)
    }

    fn cut(&mut self, e: usize, why: Why) {
        if self.state[e] != State::Open {
            return;
        }
        self.state[e] = State::Cut;
        self.why[e] = why;
        self.time[e] = self.clock;
        self.clock += 1;
        let (a, b) = self.edges[e];
        for v in [a, b] {
            self.open[v] -= 1;
            self.queue.push_back(v);
        }
    }

    fn take(&mut self, e: usize, why: Why) -> Result<(), Conflict> {
        if self.state[e] != State::Open {
            return Ok(());
        }
        let (u, w) = self.edges[e];
        if self.other_end[u] == w {
            // Record it, so the loop's certificate can walk it.
            self.state[e] = State::Used;
            self.why[e] = why;
            self.time[e] = self.clock;
            self.clock += 1;
            return Err(Conflict::Cycle(u, w));
        }
        self.state[e] = State::Used;
        self.why[e] = why;
        self.time[e] = self.clock;
        self.clock += 1;
        for v in [u, w] {
            self.open[v] -= 1;
            self.used[v] += 1;
            self.queue.push_back(v);
        }
        let (a, b) = (self.other_end[u], self.other_end[w]);
        let length = self.length[a] + self.length[b];
        self.other_end[a] = b;
        self.other_end[b] = a;
        self.length[a] = length;
        self.length[b] = length;
        let total = self.room.num_nodes() + 1;
        if (a == START && b == self.end) || (a == self.end && b == START) {
            return if length < total { Err(Conflict::Early) } else { Ok(()) };
        }
        if let Some(back) = self.edge_between(a, b) {
            self.cut(back, Why::Loop(a, b));
        }
        // Joining the stretch from the start to the one into the end must
        // not finish the route early.
        let (from_start, into_end) = (self.other_end[START], self.other_end[self.end]);
        if from_start != self.end
            && self.length[START] + self.length[self.end] < total
            && let Some(join) = self.edge_between(from_start, into_end)
        {
            self.cut(join, Why::Early(from_start, into_end));
        }
        Ok(())
    }

    fn propagate(&mut self) -> Result<(), Conflict> {
        while let Some(v) = self.queue.pop_front() {
            let (used, open, needs) = (self.used[v], self.open[v], self.needs(v));
            if used > needs {
                return Err(Conflict::Over(v));
            }
            if (used as usize) + open < needs as usize {
                return Err(Conflict::Under(v));
            }
            let full = used == needs;
            if open == 0 || !(full || used as usize + open == needs as usize) {
                continue;
            }
            let open_edges: Vec<usize> =
                self.incident[v].iter().copied().filter(|&e| self.state[e] == State::Open).collect();
            if full {
                for e in open_edges {
                    self.cut(e, Why::Full(v));
                }
            } else if used as usize + open == needs as usize {
                for e in open_edges {
                    self.take(e, Why::Few(v))?;
                }
            }
        }
        Ok(())
    }

    /// The used edges of the stretch with ends `a` and `b`, as it was
    /// before time `before`.
    fn stretch(&self, a: usize, b: usize, before: usize) -> Vec<usize> {
        let mut edges = Vec::new();
        let (mut here, mut came) = (a, usize::MAX);
        while here != b {
            let next = self.incident[here]
                .iter()
                .copied()
                .find(|&e| e != came && self.state[e] == State::Used && self.time[e] < before);
            let Some(e) = next else { break };
            edges.push(e);
            came = e;
            here = self.other(e, here);
            if edges.len() > self.edges.len() {
                break;
            }
        }
        edges
    }

    /// The decisions at `v` of `state` made before `before`.
    fn at(&self, v: usize, state: State, before: usize) -> Vec<usize> {
        self.incident[v].iter().copied().filter(|&e| self.state[e] == state && self.time[e] < before).collect()
    }

    /// The decisions an edge's decision rests on.
    fn antecedents(&self, e: usize) -> Vec<usize> {
        let t = self.time[e];
        match self.why[e] {
            Why::Given => Vec::new(),
            Why::Few(v) => self.at(v, State::Cut, t),
            Why::Full(v) => self.at(v, State::Used, t),
            Why::Loop(a, b) => self.stretch(a, b, t),
            Why::Early(x, y) => {
                let mut list = self.stretch(START, x, t);
                list.extend(self.stretch(y, self.end, t));
                list
            }
        }
    }

    fn label(&self, v: usize) -> String {
        if v == START { "the start".to_string() } else { self.room.label(v) }
    }

    /// The decisions a conflict starts from, and the sentence that ends
    /// its refutation.
    fn conflict_roots(&self, conflict: Conflict, now: usize) -> (Vec<usize>, String) {
        match conflict {
            Conflict::Over(v) => {
                let used = self.at(v, State::Used, now);
                let sides: Vec<usize> = used.iter().map(|&e| self.other(e, v)).collect();
                let sentence = if v == self.end {
                    format!("so the route would end on both {}", self.names(&sides))
                } else if v == START {
                    format!("so the route would leave the start twice, to {}", self.names(&sides))
                } else {
                    format!(
                        "so {} would be entered or left from {} sides: {}",
                        self.label(v),
                        sides.len(),
                        self.names(&sides)
                    )
                };
                (used, sentence)
            }
            Conflict::Under(v) => {
                let cut = self.at(v, State::Cut, now);
                let left: Vec<usize> = self.incident[v]
                    .iter()
                    .copied()
                    .filter(|&e| self.state[e] != State::Cut)
                    .map(|e| self.other(e, v))
                    .collect();
                let sentence = if v == self.end {
                    "so no tile is left where the route can end".to_string()
                } else if v == START {
                    "so the route has no way to leave the start".to_string()
                } else if left.is_empty() {
                    format!("so {} has no side left to enter it by", self.label(v))
                } else {
                    format!(
                        "so {} keeps only {} ({}), but a tile the route passes through needs two and the route \
                     cannot end there",
                        self.label(v),
                        plural(left.len(), "side", "sides"),
                        self.names(&left)
                    )
                };
                (cut, sentence)
            }
            Conflict::Cycle(u, w) => {
                let e = self.edge_between(u, w).expect("the closing step exists");
                let mut ring = self.stretch(u, w, self.time[e]);
                ring.push(e);
                let cells: Vec<usize> = self.walk_cells(u, &ring);
                (
                    ring,
                    format!(
                        "so the forced steps close into a loop: {}",
                        cells.iter().map(|&c| self.label(c)).collect::<Vec<_>>().join(" - ")
                    ),
                )
            }
            Conflict::Early => {
                let path = self.stretch(START, self.end, now);
                let cells = path.len();
                (
                    path,
                    format!(
                        "so the forced steps make the whole route, start to end, over only {} of the {} cells",
                        cells,
                        self.room.num_nodes()
                    ),
                )
            }
        }
    }

    fn refutation(&self, conflict: Conflict, known: &Deductions) -> Refutation {
        let now = self.clock + 1;
        let (roots, last) = self.conflict_roots(conflict, now);
        // Every decision the conflict rests on, in the order they were made.
        let mut involved = vec![false; self.edges.len()];
        let mut stack = roots.clone();
        while let Some(e) = stack.pop() {
            if involved[e] {
                continue;
            }
            involved[e] = true;
            stack.extend(self.antecedents(e));
        }
        let mut events: Vec<usize> = (0..self.edges.len()).filter(|&e| involved[e]).collect();
        events.sort_by_key(|&e| self.time[e]);
        let given_ends = events.iter().any(|&e| self.why[e] == Why::Given && self.edges[e].1 == self.end);
        let mut sentences = Vec::new();
        if given_ends {
            if let Some(end) = self.room.end() {
                sentences.push(format!("the route must end on the end tile {}", self.room.label(end)));
            }
            if !known.end_reasons.is_empty() {
                sentences.push(known.end_reasons());
            }
        }
        if events.iter().any(|&e| self.why[e] == Why::Given && self.edges[e].1 != self.end) {
            sentences.push("the cut tiles rule out steps back towards the start".to_string());
        }
        // One sentence per deciding node and moment.
        let mut index = 0;
        while index < events.len() {
            let e = events[index];
            let mut group = vec![e];
            while index + 1 < events.len() && self.why[events[index + 1]] == self.why[e] && self.why[e] != Why::Given {
                index += 1;
                group.push(events[index]);
            }
            index += 1;
            if let Some(sentence) = self.sentence(&group) {
                sentences.push(sentence);
            }
        }
        const SHOWN: usize = 14;
        let total = sentences.len();
        if total > SHOWN {
            let skipped = total - SHOWN;
            sentences.drain(SHOWN / 2..SHOWN / 2 + skipped);
            sentences.insert(SHOWN / 2, format!("({} like these)", plural(skipped, "more step", "more steps")));
        }
        sentences.push(last);
        // The argument needs every tile covered, so it names no local core.
        Refutation::new(Rule::ForcedSteps, cap(&format!("{}.", sentences.join("; "))), Vec::new())
    }

    fn sentence(&self, group: &[usize]) -> Option<String> {
        let e = group[0];
        let t = self.time[e];
        match self.why[e] {
            Why::Given => None,
            Why::Few(v) => {
                // The sides v still had, all of which it takes.
                let steps: Vec<usize> = self.incident[v]
                    .iter()
                    .copied()
                    .filter(|&f| !(self.state[f] == State::Cut && self.time[f] < t))
                    .map(|f| self.other(f, v))
                    .collect();
                Some(if v == self.end {
                    format!("{} is the only tile left where the route can end", self.names(&steps))
                } else if v == START {
                    format!("the start can only be left towards {}", self.names(&steps))
                } else {
                    let ends_here = steps.contains(&self.end);
                    let cells: Vec<usize> = steps.iter().copied().filter(|&s| s != self.end).collect();
                    let narrowed = self.at(v, State::Cut, t).iter().any(|&f| self.other(f, v) != self.end);
                    let sides = if narrowed { "sides left" } else { "open sides" };
                    if ends_here {
                        format!(
                            "{} can only be reached from {}, so the route ends there",
                            self.label(v),
                            self.names(&cells)
                        )
                    } else if let [a, b] = cells[..] {
                        format!(
                            "{} has only two {sides}, so the route runs {} - {} - {}",
                            self.label(v),
                            self.label(a),
                            self.label(v),
                            self.label(b)
                        )
                    } else {
                        format!("{} has only {} {sides}", self.label(v), self.names(&cells))
                    }
                })
            }
            Why::Full(v) => {
                let dropped: Vec<usize> = group.iter().map(|&f| self.other(f, v)).collect();
                Some(if v == self.end {
                    "so the route ends nowhere else".to_string()
                } else if v == START {
                    format!("so the route does not leave the start towards {}", self.names(&dropped))
                } else if dropped.contains(&self.end) && dropped.len() == 1 {
                    format!("so {} is passed through and is not the last tile", self.label(v))
                } else {
                    let cells: Vec<usize> = dropped.iter().copied().filter(|&d| d != self.end).collect();
                    format!("so {} is not entered from or left to {}", self.label(v), self.names(&cells))
                })
            }
            Why::Loop(a, b) => Some(format!(
                "a step between {} and {} would close the forced stretch between them into a loop",
                self.label(a),
                self.label(b)
            )),
            Why::Early(x, y) => Some(if y == self.end {
                format!(
                    "the forced stretch from the start reaches {}, so the route cannot end there before covering \
                     the other cells",
                    self.label(x)
                )
            } else {
                format!(
                    "a step between {} and {} would join the stretch from the start to the one into the end before \
                     every cell is covered",
                    self.label(x),
                    self.label(y)
                )
            }),
        }
    }

    fn names(&self, nodes: &[usize]) -> String {
        let cells: Vec<usize> = nodes.iter().copied().filter(|&v| v != self.end).collect();
        let mut text = list(self.room, &cells);
        if cells.len() < nodes.len() {
            text = if text.is_empty() { "the end".to_string() } else { format!("{text} and the end") };
        }
        text
    }

    /// The cells around a ring of edges, starting from `from`.
    fn walk_cells(&self, from: usize, ring: &[usize]) -> Vec<usize> {
        let mut cells = vec![from];
        let mut here = from;
        let mut left: Vec<usize> = ring.to_vec();
        while let Some(i) = left.iter().position(|&e| self.edges[e].0 == here || self.edges[e].1 == here) {
            let e = left.swap_remove(i);
            here = self.other(e, here);
            cells.push(here);
        }
        cells
    }

    /// Hands what was decided to the deductions: steps taken (directed
    /// where a stretch from the start or into the end fixes the direction),
    /// steps dropped, and where the route may end.
    fn record(&self, known: &mut Deductions) {
        let room = self.room;
        let arc = |from: usize, to: usize| room.out_arcs(from).iter().copied().find(|&a| room.arcs()[a].1 == to);
        let mut directed = vec![false; self.edges.len()];
        // Along the stretch from the start, and back from the end.
        for (origin, forward) in [(START, true), (self.end, false)] {
            let (mut here, mut came) = (origin, usize::MAX);
            while let Some(e) = self.incident[here].iter().copied().find(|&e| e != came && self.state[e] == State::Used)
            {
                let next = self.other(e, here);
                if directed[e] {
                    break;
                }
                if next == self.end || here == self.end {
                    if here == self.end && next != START {
                        known.restrict_ends(|n| n == next);
                    }
                    directed[e] = true;
                } else if let Some(a) = if forward { arc(here, next) } else { arc(next, here) } {
                    known.forced_arcs.push(a);
                    directed[e] = true;
                }
                came = e;
                here = next;
                if here == self.end || here == START || self.used[here] < 2 {
                    break;
                }
            }
        }
        let mut cut_end = vec![false; room.num_nodes()];
        for (e, &(u, w)) in self.edges.iter().enumerate() {
            if w == self.end {
                cut_end[u] = self.state[e] == State::Cut;
                continue;
            }
            match self.state[e] {
                State::Used if !directed[e] => known.forced_steps.push((u, w)),
                State::Cut => {
                    for (from, to) in [(u, w), (w, u)] {
                        if let Some(a) = arc(from, to) {
                            known.forbid_arc(a);
                        }
                    }
                }
                _ => {}
            }
        }
        known.restrict_ends(|n| !cut_end[n]);
    }
}

pub(super) fn forced_steps(room: &Room, known: &mut Deductions) -> Result<(), Refutation> {
    if room.leave_uncovered() > 0 {
        return Ok(());
    }
    let mut steps = Steps::new(room, known);
    match steps.propagate() {
        Ok(()) => {
            steps.record(known);
            Ok(())
        }
        Err(conflict) => Err(steps.refutation(conflict, known)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::room;
    use super::super::*;

    #[test]
    fn forced_steps_are_recorded() {
        // A corridor: every step is forced, start to end.
        let r = room(&["S...", "###."], 0);
        let analysis = analyse(&r);
        assert_eq!(analysis.refutation, None);
        assert_eq!(analysis.deductions.forced_arcs().len(), 4);
        assert!(analysis.deductions.may_end(r.node_at((1, 3)).unwrap()));
        assert_eq!(analysis.deductions.num_possible_ends(), 1);
    }

    #[test]
    fn two_forced_stretches_from_the_start() {
        let why = analyse(&room(&["....", "S..E", "...."], 0)).refutation.unwrap();
        assert_eq!(why.rule, Rule::ForcedSteps);
        assert_eq!(
            why.text,
            "The route must end on the end tile (1, 3); (0, 0) has only two open sides, so the route runs the \
             start - (0, 0) - (0, 1); (2, 0) has only two open sides, so the route runs the start - (2, 0) - (2, 1); \
             so the route would leave the start twice, to (0, 0) and (2, 0)."
        );
    }

    #[test]
    fn forced_steps_that_finish_the_route_early() {
        let why = analyse(&room(&[".###..", "......", "#.##..", "#...S#"], 0)).refutation.unwrap();
        assert_eq!(why.rule, Rule::ForcedSteps);
        assert!(why.text.starts_with("(0, 0) has only one open side, so the route must end there;"), "{}", why.text);
        assert!(
            why.text.ends_with("so the forced steps make the whole route, start to end, over only 12 of the 16 cells."),
            "{}",
            why.text
        );
    }

    #[test]
    fn nothing_is_forced_when_tiles_may_be_left() {
        let analysis = analyse(&room(&["S...", "###."], 1));
        assert!(analysis.deductions.forced_arcs().is_empty() && analysis.deductions.forced_steps().is_empty());
    }
}

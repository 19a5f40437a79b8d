//! Routes built directly, before SAT, for rooms whose shape allows it. A
//! construction only ever proposes a route; the caller checks it with the
//! independent [`super::check`] like any other, and falls back on SAT when
//! no construction applies. Each costs time and memory linear in the room
//! (the flow close to it), so rooms of a million tiles get a route in
//! seconds.
//!
//! - [`serpentine`]: a room that is a whole rectangle with the start in a
//!   corner, row by row or column by column (boustrophedon);
//! - [`splice`]: any room, start anywhere, end tile or not: a subgraph in
//!   which the start and the last tile have one route neighbour and every
//!   other tile two (a flow, as in the presolve's degree matching) is a path
//!   from the start plus loops; loops are merged into the path, and into each
//!   other, where one of their steps runs alongside one of its steps across
//!   a 2 × 2 square, by swapping the two parallel steps for the two across.
//!   With tiles to leave, it leaves the tiles with one open side that cannot
//!   end the route and, when the colours demand it, a few tiles of the
//!   larger colour, and covers the rest.

use super::flow::{Flow, MAX_PHASES, NONE};
use super::graph::{Room, START};
use super::presolve::Deductions;
use crate::grid::Pos;

/// The most nodes the splice construction takes on; its flow needs about
/// 150 bytes a node.
pub const SPLICE_LIMIT: usize = 4_000_000;

/// A route built without SAT: its tiles in order, and how it was built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Construction {
    /// The tiles in the order walked, the start excluded.
    pub walk: Vec<usize>,
    /// The method: `"serpentine"` or `"splice"`.
    pub method: &'static str,
}

/// The first construction that applies, or `None`. `deductions` (from the
/// presolve) narrow where the route may end.
///
/// ```
/// use somaria::model::Source;
/// use somaria::puzzles::tile_cover::{construct, load_puzzle};
/// let source = Source::from_text("m.toml", "kind = \"tile-cover\"\ngrid = \"\"\"\n...\n.S.\n...\n\"\"\"\n");
/// let built = construct::construct(load_puzzle(&source).unwrap().room(), None).unwrap();
/// assert_eq!((built.walk.len(), built.method), (8, "splice"));
/// ```
pub fn construct(room: &Room, deductions: Option<&Deductions>) -> Option<Construction> {
    if room.num_tiles() == 0 {
        return None;
    }
    if let Some(walk) = serpentine(room) {
        return Some(Construction { walk, method: "serpentine" });
    }
    if room.num_nodes() <= SPLICE_LIMIT
        && let Some(walk) = splice(room, deductions)
    {
        return Some(Construction { walk, method: "splice" });
    }
    None
}

/// Row by row or column by column over a room that fills its bounding
/// rectangle, from a corner start; the variant that ends on the end tile
/// when there is one.
pub fn serpentine(room: &Room) -> Option<Vec<usize>> {
    // A route makes at least one move.
    if room.num_tiles() == 0 {
        return None;
    }
    let (mut top, mut left, mut bottom, mut right) = (usize::MAX, usize::MAX, 0, 0);
    for node in 0..room.num_nodes() {
        let (r, c) = room.position(node);
        (top, left, bottom, right) = (top.min(r), left.min(c), bottom.max(r), right.max(c));
    }
    let (rows, cols) = (bottom - top + 1, right - left + 1);
    if rows * cols != room.num_nodes() {
        return None;
    }
    let (r0, c0) = room.position(START);
    if (r0 != top && r0 != bottom) || (c0 != left && c0 != right) {
        return None;
    }
    // Steps away from the start's corner.
    let down = r0 == top;
    let rightward = c0 == left;
    let at = |i: usize, j: usize| -> Pos {
        (if down { top + i } else { bottom - i }, if rightward { left + j } else { right - j })
    };
    for by_rows in [true, false] {
        let (lines, length) = if by_rows { (rows, cols) } else { (cols, rows) };
        let mut walk = Vec::with_capacity(room.num_tiles());
        for line in 0..lines {
            for step in 0..length {
                let step = if line % 2 == 0 { step } else { length - 1 - step };
                let pos = if by_rows { at(line, step) } else { at(step, line) };
                let node = room.node_at(pos)?;
                if node != START {
                    walk.push(node);
                }
            }
        }
        if room.end().is_none_or(|end| walk.last() == Some(&end)) {
            return Some(walk);
        }
    }
    None
}

/// The splice construction; see the module documentation.
pub fn splice(room: &Room, deductions: Option<&Deductions>) -> Option<Vec<usize>> {
    let may_end = |t: usize| deductions.is_none_or(|d| d.may_end(t)) && room.end().is_none_or(|e| e == t);
    if room.leave_uncovered() == 0 {
        return cover_all(room, &may_end);
    }
    // Tiles to leave: dead ends that will not end the route, then tiles of
    // the larger colour when the colours need evening out.
    for plan in leave_plans(room, &may_end) {
        if plan.is_empty() {
            if let Some(walk) = cover_all(room, &may_end) {
                return Some(walk);
            }
            continue;
        }
        let mut left = vec![false; room.num_nodes()];
        for &t in &plan {
            left[t] = true;
        }
        if let Some(walk) = cover_all_but(room, &left, &may_end) {
            return Some(walk);
        }
    }
    None
}

/// Which tiles to leave, in the order worth trying.
fn leave_plans(room: &Room, may_end: &dyn Fn(usize) -> bool) -> Vec<Vec<usize>> {
    let k = room.leave_uncovered();
    let dead: Vec<usize> = room.tiles().filter(|&t| room.neighbours(t).len() == 1).collect();
    let mut plans = Vec::new();
    for keep_end in dead.iter().copied().filter(|&d| may_end(d)).map(Some).chain([None]) {
        let base: Vec<usize> = dead.iter().copied().filter(|&d| Some(d) != keep_end).collect();
        if base.len() > k {
            continue;
        }
        let mut in_base = vec![false; room.num_nodes()];
        for &t in &base {
            in_base[t] = true;
        }
        // Even the colours: visited cells of the start's colour minus the
        // others must be 0 or 1, fixed by the end tile's colour if any.
        let mut same = 1 + room.tiles().filter(|&t| room.same_colour_as_start(t)).count() as i64;
        let mut other = room.num_nodes() as i64 - same;
        for &t in &base {
            if room.same_colour_as_start(t) {
                same -= 1;
            } else {
                other -= 1;
            }
        }
        let wanted: Vec<i64> = match (room.end(), keep_end) {
            (Some(e), _) | (None, Some(e)) => vec![i64::from(room.same_colour_as_start(e))],
            (None, None) => vec![0, 1],
        };
        for &excess in &wanted {
            let change = same - other - excess;
            let (count, colour) = (change.unsigned_abs() as usize, change > 0);
            if base.len() + count > k {
                continue;
            }
            // Spare tiles of that colour, fewest open sides first, never the
            // end tile or a tile that stops the start from moving.
            let mut spare: Vec<usize> = room
                .tiles()
                .filter(|&t| {
                    room.same_colour_as_start(t) == colour
                        && !in_base[t]
                        && Some(t) != room.end()
                        && Some(t) != keep_end
                        && !room.neighbours(t).contains(&START)
                })
                .collect();
            spare.sort_by_key(|&t| room.neighbours(t).len());
            for first in 0..spare.len().min(4) {
                if spare.len() < count {
                    break;
                }
                let mut plan = base.clone();
                plan.extend(spare.iter().cycle().skip(first).take(count).copied());
                plans.push(plan);
            }
            if count == 0 {
                plans.push(base.clone());
            }
        }
    }
    plans.dedup();
    plans
}

/// A route over every tile not in `left`, from the room with those tiles
/// walled; mapped back to the room's nodes.
fn cover_all_but(room: &Room, left: &[bool], may_end: &dyn Fn(usize) -> bool) -> Option<Vec<usize>> {
    let keep: Vec<usize> = (0..room.num_nodes()).filter(|&v| !left[v]).collect();
    let mut index = vec![NONE; room.num_nodes()];
    for (i, &v) in keep.iter().enumerate() {
        index[v] = i;
    }
    let sub = Sub { room, keep: &keep, index: &index };
    let walk = route(&sub, &|i| may_end(keep[i]))?;
    Some(walk.into_iter().map(|i| keep[i]).collect())
}

fn cover_all(room: &Room, may_end: &dyn Fn(usize) -> bool) -> Option<Vec<usize>> {
    let keep: Vec<usize> = (0..room.num_nodes()).collect();
    let index: Vec<usize> = keep.clone();
    let sub = Sub { room, keep: &keep, index: &index };
    route(&sub, may_end)
}

/// The room restricted to some nodes, renumbered `0..keep.len()` with the
/// start first.
struct Sub<'a> {
    room: &'a Room,
    keep: &'a [usize],
    index: &'a [usize],
}

impl Sub<'_> {
    fn len(&self) -> usize {
        self.keep.len()
    }

    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.room.neighbours(self.keep[i]).iter().map(|&w| self.index[w]).filter(|&j| j != NONE)
    }

    fn same_colour(&self, i: usize) -> bool {
        self.room.same_colour_as_start(self.keep[i])
    }

    fn position(&self, i: usize) -> Pos {
        self.room.position(self.keep[i])
    }
}

/// The degree subgraph by flow, then loops merged into the path.
fn route(sub: &Sub, may_end: &dyn Fn(usize) -> bool) -> Option<Vec<usize>> {
    let n = sub.len();
    if n < 2 {
        return None;
    }
    let same = (0..n).filter(|&i| sub.same_colour(i)).count();
    let other = n - same;
    // The end's colour follows from the counts: one more of the start's
    // colour when it ends on that colour, as many of each otherwise.
    let end_same = match same as i64 - other as i64 {
        1 => true,
        0 => false,
        _ => return None,
    };
    let ends: Vec<usize> = (1..n).filter(|&i| may_end(i) && sub.same_colour(i) == end_same).collect();
    if ends.is_empty() {
        return None;
    }
    // Network: nodes 0..n, `end` n, source n + 1, sink n + 2.
    let (end, source, sink) = (n, n + 1, n + 2);
    let mut flow = Flow::new(n + 3);
    let mut steps: Vec<(usize, usize, usize)> = Vec::new();
    for i in 0..n {
        let need = if i == START { 1 } else { 2 };
        if sub.same_colour(i) {
            flow.add(source, i, need);
            for j in sub.neighbours(i) {
                steps.push((flow.add(i, j, 1), i, j));
            }
        } else {
            flow.add(i, sink, need);
        }
    }
    if end_same {
        for &e in &ends {
            steps.push((flow.add(e, end, 1), e, end));
        }
        flow.add(end, sink, 1);
    } else {
        flow.add(source, end, 1);
        for &e in &ends {
            steps.push((flow.add(end, e, 1), end, e));
        }
    }
    let wanted = 2 * same as u32 - 1 + u32::from(!end_same);
    if flow.max_flow(source, sink, wanted, MAX_PHASES)? < wanted {
        return None;
    }
    let mut links = Links::new(n + 1);
    for &(arc, a, b) in &steps {
        if flow.carries(arc) > 0 {
            links.join(a, b);
        }
    }
    drop(flow);
    links.merge_loops(sub);
    links.path_from(START, end)
}

/// Each node's (up to) two neighbours in the subgraph, and the loops merged
/// by swapping parallel steps across 2 × 2 squares.
struct Links {
    next: Vec<[usize; 2]>,
}

impl Links {
    fn new(nodes: usize) -> Links {
        Links { next: vec![[NONE; 2]; nodes] }
    }

    fn join(&mut self, a: usize, b: usize) {
        for (x, y) in [(a, b), (b, a)] {
            let slot = if self.next[x][0] == NONE { 0 } else { 1 };
            self.next[x][slot] = y;
        }
    }

    fn linked(&self, a: usize, b: usize) -> bool {
        self.next[a].contains(&b)
    }

    fn unjoin(&mut self, a: usize, b: usize) {
        for (x, y) in [(a, b), (b, a)] {
            for slot in &mut self.next[x] {
                if *slot == y {
                    *slot = NONE;
                }
            }
        }
    }

    /// Which piece (the path or a loop) each node is on.
    fn pieces(&self) -> Vec<usize> {
        let mut piece = vec![NONE; self.next.len()];
        let mut count = 0;
        for first in 0..self.next.len() {
            if piece[first] != NONE {
                continue;
            }
            let mut stack = vec![first];
            piece[first] = count;
            while let Some(v) = stack.pop() {
                for &w in &self.next[v] {
                    if w != NONE && piece[w] == NONE {
                        piece[w] = count;
                        stack.push(w);
                    }
                }
            }
            count += 1;
        }
        piece
    }

    /// Swaps parallel steps of two different pieces across 2 × 2 squares
    /// until one piece is left or no square helps. Any two pieces merge this
    /// way into one: a loop and a loop into a loop, the path and a loop into
    /// the path, whatever their directions.
    fn merge_loops(&mut self, sub: &Sub) {
        let piece = self.pieces();
        let mut parent: Vec<usize> = (0..self.next.len()).collect();
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        let mut pieces = {
            let mut seen: Vec<usize> = piece.clone();
            seen.sort_unstable();
            seen.dedup();
            seen.len()
        };
        // The node at each grid cell, for the squares.
        let at = |pos: Pos| -> usize { sub.room.node_at(pos).map_or(NONE, |v| sub.index[v]) };
        let mut changed = true;
        while pieces > 1 && changed {
            changed = false;
            for a in 0..sub.len() {
                let (r, c) = sub.position(a);
                let right = at((r, c + 1));
                let below = at((r + 1, c));
                let across = at((r + 1, c + 1));
                if right == NONE || below == NONE || across == NONE {
                    continue;
                }
                // Two horizontal steps a-right, below-across, or two
                // vertical ones a-below, right-across.
                for (p, q, s, t) in [(a, right, below, across), (a, below, right, across)] {
                    if !self.linked(p, q) || !self.linked(s, t) {
                        continue;
                    }
                    let (x, y) = (find(&mut parent, piece[p]), find(&mut parent, piece[s]));
                    if x == y {
                        continue;
                    }
                    self.unjoin(p, q);
                    self.unjoin(s, t);
                    self.join(p, s);
                    self.join(q, t);
                    parent[x] = y;
                    pieces -= 1;
                    changed = true;
                    break;
                }
            }
        }
    }

    /// The nodes from `start` to `end` along the links, without either,
    /// when they form one path through every node.
    fn path_from(&self, start: usize, end: usize) -> Option<Vec<usize>> {
        let mut walk = Vec::with_capacity(self.next.len());
        let (mut here, mut came) = (start, NONE);
        loop {
            let next = self.next[here].iter().copied().find(|&w| w != NONE && w != came)?;
            if next == end {
                break;
            }
            walk.push(next);
            if walk.len() > self.next.len() {
                return None;
            }
            came = here;
            here = next;
        }
        (walk.len() + 2 == self.next.len()).then_some(walk)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::puzzles::tile_cover::{Cell, check};

    fn grid(rows: &[&str]) -> Grid<Cell> {
        Grid::from_rows(rows.iter().map(|r| r.chars().map(|c| Cell::from_symbol(c).unwrap()).collect()).collect())
            .unwrap()
    }

    /// Builds and checks with the independent checker.
    fn built(rows: &[&str], k: usize) -> Option<&'static str> {
        let g = grid(rows);
        let room = Room::new(&g, k);
        let made = construct(&room, None)?;
        let mut here = room.position(START);
        let moves: Vec<crate::grid::Dir> = made
            .walk
            .iter()
            .map(|&n| {
                let next = room.position(n);
                let dir = crate::grid::Dir::ALL.into_iter().find(|&d| g.step(here, d) == Some(next)).unwrap();
                here = next;
                dir
            })
            .collect();
        check(&g, k, &moves).unwrap_or_else(|e| panic!("{}: {e}", made.method));
        Some(made.method)
    }

    #[test]
    fn serpentines_from_each_corner_and_to_an_end_tile() {
        assert_eq!(built(&["S...", "....", "...."], 0), Some("serpentine"));
        assert_eq!(built(&["...S", "....", "...."], 0), Some("serpentine"));
        assert_eq!(built(&["....", "....", "S..."], 0), Some("serpentine"));
        // Rows end at (2, 3); columns end at (0, 3).
        assert_eq!(built(&["S..E", "....", "...."], 0), Some("serpentine"));
        assert_eq!(built(&["S...", "....", "...E"], 0), Some("serpentine"));
        // Walls around the rectangle do not matter.
        assert_eq!(built(&["#####", "#S..#", "#...#"], 0), Some("serpentine"));
    }

    #[test]
    fn splices_cover_rooms_with_walls_and_a_start_inside() {
        assert_eq!(built(&["......", "..S...", "..#...", "......"], 0), Some("splice"));
        assert_eq!(built(&["........", ".#......", "....S...", "......#.", "........"], 0), Some("splice"));
        assert_eq!(built(&["......", "..S...", "......", ".....E"], 0), Some("splice"));
    }

    #[test]
    fn tiles_are_left_where_the_colours_ask() {
        // 4 x 4 with the start in the middle: 8 and 8, so an end on the
        // other colour covers all; with one of the start's colour walled off
        // the colours need one tile left.
        assert!(built(&["....", ".S..", "....", "...#"], 1).is_some());
        assert!(built(&["....", ".S..", "....", "...#"], 0).is_none());
    }

    #[test]
    fn nothing_is_built_when_the_colours_forbid_it() {
        // From the middle of an edge of 3 x 3: four of the start's colour
        // and five of the other.
        assert_eq!(built(&[".S.", "...", "..."], 0), None);
        assert_eq!(built(&[".S.", "..."], 0), Some("splice"));
    }
}

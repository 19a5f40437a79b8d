//! The exact engine: breadth-first search over (cell, keys held), counting
//! shortest routes as it goes.
//!
//! Keys are never lost, so every move either keeps the key set or adds one
//! key to it, and a key set is only ever reached from its subsets. Subsets
//! are numerically smaller, so the search takes the key sets in increasing
//! order and, for each, runs a plain BFS over the cells with that set. That
//! BFS starts from the cells where the set was first completed (key cells,
//! each at its own distance), and every step onto a key not yet held hands a
//! start cell to a larger set. One scratch array of cells is reused for every
//! set, so memory grows with the key sets actually reached, never with
//! cells × 2^keys; all 26 letters are allowed.
//!
//! With several walkers the state is the walkers' cells and the keys held,
//! searched layer by layer over a hash map of the states seen: exact, and
//! as large as the joint state space it reaches.
//!
//! Route counts are `u64` and saturate instead of wrapping; the result says
//! when that happened.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::Move;
use super::board::{Board, KeySet};
use crate::grid::Dir;

const UNSEEN: u32 = u32::MAX;

/// A cell where a key set begins: the key cell whose pickup completed it,
/// how many steps that took at the least, and by how many shortest routes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Entry {
    cell: usize,
    dist: u32,
    routes: u64,
}

/// The outcome of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The fewest steps that collect every key, or `None` when no route does.
    pub steps: Option<u64>,
    /// The number of distinct shortest routes; 0 when there is none.
    pub routes: u64,
    /// True when `routes` stopped at `u64::MAX`, so it is a floor.
    pub saturated: bool,
    /// The key sets the search reached, the finishing set included: a
    /// measure of its work and memory.
    pub key_sets: usize,
    /// One shortest route, when asked for and one exists.
    pub route: Option<Vec<Move>>,
}

/// Searches for the shortest routes; reconstructs one of them when
/// `want_route` is set.
pub fn search(board: &Board, want_route: bool) -> Outcome {
    if board.num_walkers() > 1 {
        return search_joint(board, want_route);
    }
    let all = board.all_keys();
    let start = Entry { cell: board.start(), dist: 0, routes: 1 };
    if all == 0 {
        let route = want_route.then(Vec::new);
        return Outcome { steps: Some(0), routes: 1, saturated: false, key_sets: 1, route };
    }
    let mut pending: BTreeMap<KeySet, Vec<Entry>> = BTreeMap::from([(0, vec![start])]);
    let mut explored: HashMap<KeySet, Vec<Entry>> = HashMap::new();
    let mut goals: Vec<Entry> = Vec::new();
    let mut best: Option<u32> = None;
    let mut saturated = false;
    let mut key_sets = 0;
    let mut scratch = Scratch::new(board.num_cells());
    while let Some((keys, arrivals)) = pending.pop_first() {
        let entries = merge(arrivals, &mut saturated);
        scratch.explore(board, keys, &entries, best, &mut saturated, |next_keys, arrival| {
            if next_keys == all {
                best = Some(best.map_or(arrival.dist, |b| b.min(arrival.dist)));
                goals.push(arrival);
            } else {
                pending.entry(next_keys).or_default().push(arrival);
            }
        });
        key_sets += 1;
        if want_route {
            explored.insert(keys, entries);
        }
    }
    let key_sets = key_sets + usize::from(best.is_some());
    let Some(steps) = best else {
        return Outcome { steps: None, routes: 0, saturated: false, key_sets, route: None };
    };
    let finishing: Vec<&Entry> = goals.iter().filter(|g| g.dist == steps).collect();
    let mut routes = 0u64;
    for goal in &finishing {
        routes = add(routes, goal.routes, &mut saturated);
    }
    // A saturation elsewhere in the search only matters if it reached the total.
    let saturated = saturated && routes == u64::MAX;
    let route = want_route.then(|| {
        let dirs = reconstruct(board, &explored, finishing[0], &mut scratch);
        dirs.into_iter().map(Move::of_first).collect()
    });
    Outcome { steps: Some(u64::from(steps)), routes, saturated, key_sets, route }
}

fn add(a: u64, b: u64, saturated: &mut bool) -> u64 {
    a.checked_add(b).unwrap_or_else(|| {
        *saturated = true;
        u64::MAX
    })
}

/// Arrivals at the same cell keep the nearest, summing the routes of equal
/// distance; sorted by distance for [`Scratch::explore`].
fn merge(mut arrivals: Vec<Entry>, saturated: &mut bool) -> Vec<Entry> {
    arrivals.sort_by_key(|a| (a.cell, a.dist));
    let mut merged: Vec<Entry> = Vec::with_capacity(arrivals.len());
    for arrival in arrivals {
        match merged.last_mut() {
            Some(last) if last.cell == arrival.cell => {
                if last.dist == arrival.dist {
                    last.routes = add(last.routes, arrival.routes, saturated);
                }
            }
            _ => merged.push(arrival),
        }
    }
    merged.sort_by_key(|e| e.dist);
    merged
}

/// Distances and route counts over the cells for one key set at a time.
struct Scratch {
    dist: Vec<u32>,
    routes: Vec<u64>,
    touched: Vec<usize>,
}

impl Scratch {
    fn new(cells: usize) -> Scratch {
        Scratch { dist: vec![UNSEEN; cells], routes: vec![0; cells], touched: Vec::new() }
    }

    /// BFS with the key set `keys` from `entries` (sorted by distance),
    /// layer by layer so that a cell's route count is complete before it is
    /// expanded. Steps onto keys not held go to `pick_up` with the new key
    /// set. Layers at or beyond `bound` cannot lead to a shorter finish and
    /// are not expanded.
    fn explore(
        &mut self,
        board: &Board,
        keys: KeySet,
        entries: &[Entry],
        bound: Option<u32>,
        saturated: &mut bool,
        mut pick_up: impl FnMut(KeySet, Entry),
    ) {
        for &cell in &self.touched {
            self.dist[cell] = UNSEEN;
            self.routes[cell] = 0;
        }
        self.touched.clear();
        let mut layer: Vec<usize> = Vec::new();
        let mut next_layer: Vec<usize> = Vec::new();
        let mut waiting = entries.iter().peekable();
        let Some(first) = waiting.peek() else { return };
        let mut dist = first.dist;
        loop {
            while let Some(entry) = waiting.next_if(|e| e.dist == dist) {
                if self.dist[entry.cell] == UNSEEN {
                    self.dist[entry.cell] = dist;
                    self.routes[entry.cell] = entry.routes;
                    self.touched.push(entry.cell);
                    layer.push(entry.cell);
                } else if self.dist[entry.cell] == dist {
                    self.routes[entry.cell] = add(self.routes[entry.cell], entry.routes, saturated);
                }
            }
            if layer.is_empty() {
                match waiting.peek() {
                    Some(entry) => {
                        dist = entry.dist;
                        continue;
                    }
                    None => return,
                }
            }
            if bound.is_some_and(|b| dist >= b) {
                return;
            }
            for &cell in &layer {
                let routes = self.routes[cell];
                for (_, next) in board.neighbours(cell) {
                    if !board.can_enter(next, keys) {
                        continue;
                    }
                    if let Some(bit) = board.key_at(next).filter(|&bit| keys & (1 << bit) == 0) {
                        pick_up(keys | 1 << bit, Entry { cell: next, dist: dist + 1, routes });
                    } else if self.dist[next] == UNSEEN {
                        self.dist[next] = dist + 1;
                        self.routes[next] = routes;
                        self.touched.push(next);
                        next_layer.push(next);
                    } else if self.dist[next] == dist + 1 {
                        self.routes[next] = add(self.routes[next], routes, saturated);
                    }
                }
            }
            std::mem::swap(&mut layer, &mut next_layer);
            next_layer.clear();
            dist += 1;
        }
    }
}

/// Walks back from a finishing pickup to the start. Each key set's BFS is
/// run again for its distances when the walk enters it.
fn reconstruct(board: &Board, explored: &HashMap<KeySet, Vec<Entry>>, goal: &Entry, scratch: &mut Scratch) -> Vec<Dir> {
    let mut moves = Vec::with_capacity(goal.dist as usize);
    // Invariant: `dist` is the fewest steps to stand on `cell` holding `keys`.
    let (mut cell, mut dist, mut keys) = (goal.cell, goal.dist, board.all_keys());
    let mut in_scratch: Option<KeySet> = None;
    let mut ignored = false;
    while dist > 0 {
        let began_here = keys == board.all_keys() || explored[&keys].iter().any(|e| e.cell == cell && e.dist == dist);
        if began_here {
            keys &= !(1 << board.key_at(cell).expect("a key set begins on a key"));
        }
        if in_scratch != Some(keys) {
            scratch.explore(board, keys, &explored[&keys], None, &mut ignored, |_, _| {});
            in_scratch = Some(keys);
        }
        let (dir, from) = board
            .neighbours(cell)
            .find(|&(_, from)| scratch.dist[from] == dist - 1)
            .expect("a cell at distance d > 0 has a neighbour at d - 1");
        moves.push(dir.opposite());
        cell = from;
        dist -= 1;
    }
    moves.reverse();
    moves
}

/// The walkers' cells and the keys held.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Joint {
    cells: Vec<u32>,
    keys: KeySet,
}

impl Joint {
    /// The state after walker `walker` steps onto `next`, if it may.
    fn step(&self, board: &Board, walker: usize, next: usize) -> Option<Joint> {
        if !board.can_enter(next, self.keys) {
            return None;
        }
        let mut cells = self.cells.clone();
        cells[walker] = next as u32;
        let keys = self.keys | board.key_at(next).map_or(0, |bit| 1 << bit);
        Some(Joint { cells, keys })
    }
}

/// Breadth-first search over the joint state of several walkers, one move
/// of one walker per step, counting move sequences.
fn search_joint(board: &Board, want_route: bool) -> Outcome {
    let all = board.all_keys();
    let start = Joint { cells: board.starts().iter().map(|&c| c as u32).collect(), keys: 0 };
    if all == 0 {
        let route = want_route.then(Vec::new);
        return Outcome { steps: Some(0), routes: 1, saturated: false, key_sets: 1, route };
    }
    let mut seen: HashMap<Joint, u32> = HashMap::from([(start.clone(), 0)]);
    let mut layer: Vec<(Joint, u64)> = vec![(start, 1)];
    let mut saturated = false;
    let mut dist = 0u32;
    while !layer.is_empty() {
        let mut next: HashMap<Joint, u64> = HashMap::new();
        let mut finished = 0u64;
        let mut last_move: Option<(Joint, Move)> = None;
        for (state, routes) in &layer {
            for walker in 0..state.cells.len() {
                for (dir, cell) in board.neighbours(state.cells[walker] as usize) {
                    let Some(after) = state.step(board, walker, cell) else { continue };
                    if after.keys == all {
                        finished = add(finished, *routes, &mut saturated);
                        last_move.get_or_insert_with(|| (state.clone(), Move { walker, dir }));
                    } else if !seen.contains_key(&after) {
                        let slot = next.entry(after).or_insert(0);
                        *slot = add(*slot, *routes, &mut saturated);
                    }
                }
            }
        }
        if let Some((before, last)) = last_move {
            let key_sets = seen.keys().map(|s| s.keys).collect::<HashSet<_>>().len() + 1;
            let route = want_route.then(|| {
                let mut moves = walk_back(board, &seen, before, dist);
                moves.push(last);
                moves
            });
            let saturated = saturated && finished == u64::MAX;
            return Outcome { steps: Some(u64::from(dist + 1)), routes: finished, saturated, key_sets, route };
        }
        dist += 1;
        for state in next.keys() {
            seen.insert(state.clone(), dist);
        }
        layer = next.into_iter().collect();
    }
    let key_sets = seen.keys().map(|s| s.keys).collect::<HashSet<_>>().len();
    Outcome { steps: None, routes: 0, saturated: false, key_sets, route: None }
}

/// The moves from the start to `state`, found at distance `dist`, walking
/// back through states one step nearer.
fn walk_back(board: &Board, seen: &HashMap<Joint, u32>, mut state: Joint, mut dist: u32) -> Vec<Move> {
    let mut moves = Vec::with_capacity(dist as usize);
    while dist > 0 {
        let previous = (0..state.cells.len()).find_map(|walker| {
            let here = state.cells[walker] as usize;
            let picked = board.key_at(here).map_or(0, |bit| 1 << bit) & state.keys;
            board.neighbours(here).find_map(|(dir, from)| {
                [state.keys, state.keys & !picked].into_iter().find_map(|keys| {
                    let mut cells = state.cells.clone();
                    cells[walker] = from as u32;
                    let before = Joint { cells, keys };
                    let forward = before.step(board, walker, here).is_some_and(|after| after == state);
                    (forward && seen.get(&before) == Some(&(dist - 1)))
                        .then_some((before, Move { walker, dir: dir.opposite() }))
                })
            })
        });
        let (before, mv) = previous.expect("a state at distance d > 0 has a predecessor at d - 1");
        moves.push(mv);
        state = before;
        dist -= 1;
    }
    moves.reverse();
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::keys_doors::{KeysDoorsPuzzle, check};

    fn run(picture: &str) -> Outcome {
        let puzzle = KeysDoorsPuzzle::from_picture(picture).unwrap();
        let outcome = search(&Board::new(&puzzle), true);
        if let Some(route) = &outcome.route {
            check(&puzzle, route).unwrap();
            assert_eq!(route.len() as u64, outcome.steps.unwrap());
        }
        outcome
    }

    #[test]
    fn several_walkers_share_keys_and_count_every_interleaving() {
        // Walker 1 must wait for walker 0's 'a' before passing door A.
        let outcome = run("a.@#@Ab");
        assert_eq!((outcome.steps, outcome.routes), (Some(4), 1));
        // Independent walkers of 2 and 3 steps: C(5, 2) interleavings.
        let outcome = run("a.@#@..b");
        assert_eq!((outcome.steps, outcome.routes), (Some(5), 10));
        // A walker that need not move does not.
        assert_eq!(run("@ab#@").steps, Some(2));
        assert_eq!(run("@.A#@#a").steps, None);
    }

    fn binomial(n: u128, k: u128) -> u128 {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }

    #[test]
    fn the_lesson_grids() {
        let answers = [
            ("@..a", Some(3)),
            ("#a##\n@.Ab", Some(5)),
            ("@.a..", Some(2)),
            ("@.A.a", None),
            ("@.a..\n###.#\nb.A.B", Some(8)),
        ];
        for (picture, steps) in answers {
            assert_eq!(run(picture).steps, steps, "{picture}");
        }
    }

    #[test]
    fn key_letters_need_not_be_contiguous_and_a_keyless_door_is_a_wall() {
        assert_eq!(run("@a.c").steps, Some(3));
        assert_eq!(run("z.@.a").steps, Some(6));
        assert_eq!(run("@Ba").steps, None);
        assert_eq!(run("@.a\n.#.\nB..").steps, Some(2));
    }

    #[test]
    fn no_keys_is_solved_in_zero_steps_by_one_empty_route() {
        let outcome = run("@.#\nA..");
        assert_eq!((outcome.steps, outcome.routes, outcome.route), (Some(0), 1, Some(vec![])));
    }

    #[test]
    fn the_route_ends_on_the_last_pickup_and_routes_through_other_final_cells_add_up() {
        // a then b takes 1 + 3 steps, b then a 2 + 3; the extra row adds no shortcut.
        let outcome = run("a@.b\n....");
        assert_eq!((outcome.steps, outcome.routes), (Some(4), 1));
        // Symmetric: either key can be last, so two routes end on different cells.
        let outcome = run("a.@.b");
        assert_eq!((outcome.steps, outcome.routes), (Some(6), 2));
    }

    #[test]
    fn routes_through_an_open_room_are_binomial() {
        // Corner to corner of an n x n room: C(2n - 2, n - 1) shortest routes.
        for n in [2usize, 5, 30] {
            let mut rows = vec![".".repeat(n); n];
            rows[0].replace_range(0..1, "@");
            rows[n - 1].replace_range(n - 1..n, "a");
            let outcome = run(&rows.join("\n"));
            let expected = binomial(2 * n as u128 - 2, n as u128 - 1);
            assert_eq!((outcome.routes as u128, outcome.saturated), (expected, false), "{n}");
        }
    }

    #[test]
    fn counts_saturate_instead_of_wrapping() {
        // C(78, 39) is about 2.6e22, beyond u64.
        let mut rows = vec![".".repeat(40); 40];
        rows[0].replace_range(0..1, "@");
        rows[39].replace_range(39..40, "a");
        let outcome = run(&rows.join("\n"));
        assert_eq!((outcome.steps, outcome.routes, outcome.saturated), (Some(78), u64::MAX, true));
    }

    #[test]
    fn all_26_letters_are_allowed_and_only_reached_key_sets_are_stored() {
        let keys: String = ('a'..='z').collect();
        let outcome = run(&format!("@{keys}"));
        assert_eq!((outcome.steps, outcome.routes), (Some(26), 1));
        // Along a corridor each key set is a prefix: 26 explored sets plus the finish.
        assert_eq!(outcome.key_sets, 27);
    }
}

#[cfg(test)]
mod examples {
    #[test]
    fn search() {
        use crate::puzzles::keys_doors::{Board, KeysDoorsPuzzle, bfs};
        let puzzle = KeysDoorsPuzzle::from_picture("#a##\n@.Ab").unwrap();
        let outcome = bfs::search(&Board::new(&puzzle), true);
        assert_eq!(outcome.steps, Some(5));
        assert_eq!(outcome.routes, 1);
        assert_eq!(outcome.route.unwrap().len(), 5);
        // Two walkers, one key each: 1 + 1 steps, in either order.
        let two = KeysDoorsPuzzle::from_picture("a@#@b").unwrap();
        assert_eq!(bfs::search(&Board::new(&two), false).routes, 2);
    }
}

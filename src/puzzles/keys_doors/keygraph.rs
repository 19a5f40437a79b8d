//! The key-graph engine: legs between the walkers' starts and the keys from
//! one search of the grid each ([`super::legs`]), then A* over (the node each
//! walker stands on, keys held), one whole leg per move.
//!
//! Why whole legs suffice with several walkers: in any route, delaying a
//! walker's moves until just before its next pickup keeps every move legal
//! (keys are never lost, so a door open earlier is open later), keeps the
//! total and picks up the same keys in the same order. So some shortest
//! route moves one leg at a time.
//!
//! The heuristic is a minimum spanning tree, with every door open, over the
//! keys still missing and the walkers' nodes merged into one root: the
//! walkers' remaining paths join every missing key to some walker, so they
//! span that graph, and the bound never overestimates. It is consistent
//! (a leg of length `l` lowers it by at most `l`), which with ties broken
//! towards fewer steps makes A* settle a state only after every shortest
//! way into it, so path counts can be summed as the search goes. With one
//! walker, the tree over the missing keys alone is cached by key set and
//! joined to the walker by its nearest missing key, a bound at least as
//! strong.
//!
//! `count` reads legs directly (a leg walks over no key it does not hold, so
//! every route splits into legs at its pickups in one way only) and
//! multiplies the shortest paths of each leg: the number of distinct
//! shortest move sequences, for one walker. With several walkers, moves of
//! different walkers interleave in ways that whole legs do not capture, so
//! counting them is left to the `bfs` and `sat` engines.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::Move;
use super::board::{Board, KeySet};
use super::legs::{Legs, Reading};
use crate::puzzles::Error;

/// Bits of a packed state per walker node: starts and keys number at most
/// 4 + 26 = 30 nodes.
const NODE_BITS: u32 = 5;

/// The outcome of a count.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    /// The fewest steps, or `None` when no route exists.
    pub steps: Option<u64>,
    /// The number of distinct shortest move sequences; 0 without a route.
    pub routes: u64,
    /// True when `routes` stopped at `u64::MAX`, so it is a floor.
    pub saturated: bool,
    /// States the search settled: a measure of its work and memory.
    pub settled: usize,
}

/// The legs of a board, ready for A*.
pub struct KeyGraph<'b> {
    board: &'b Board,
    legs: Legs,
    counting: bool,
}

/// What A* keeps per state.
#[derive(Copy, Clone, Debug)]
struct Node {
    g: u32,
    /// The heuristic, once computed (`u32::MAX` until then).
    h: u32,
    routes: u64,
    parent: u64,
    settled: bool,
}

/// The end of a search.
struct Searched {
    steps: Option<u32>,
    routes: u64,
    saturated: bool,
    goal: Option<u64>,
    nodes: HashMap<u64, Node>,
}

impl<'b> KeyGraph<'b> {
    /// Legs for finding a shortest route.
    pub fn new(board: &'b Board) -> Result<KeyGraph<'b>, Error> {
        Ok(KeyGraph { board, legs: Legs::new(board, Reading::Direct)?, counting: false })
    }

    /// Legs for counting shortest routes: direct legs with their path
    /// counts. Refuses grids with several walkers; see the module notes.
    pub fn for_counting(board: &'b Board) -> Result<KeyGraph<'b>, Error> {
        if board.num_walkers() > 1 {
            return Err(Error::Unsupported {
                command: "counting several walkers with keygraph (it moves whole legs, so it cannot count interleaved \
                          moves; use --engine bfs or sat)",
                kind: super::KIND,
            });
        }
        Ok(KeyGraph { board, legs: Legs::new(board, Reading::Direct)?, counting: true })
    }

    /// One shortest route, or `None` when no route collects every key.
    pub fn shortest_route(&self) -> Result<Option<Vec<Move>>, Error> {
        let searched = self.search(false);
        let Some(goal) = searched.goal else { return Ok(None) };
        let mut chain = vec![goal];
        while let Some(&state) = chain.last() {
            let parent = searched.nodes[&state].parent;
            if parent == state {
                break;
            }
            chain.push(parent);
        }
        chain.reverse();
        let mut moves = Vec::new();
        for pair in chain.windows(2) {
            let (before, after) = (pair[0], pair[1]);
            let walker = (0..self.board.num_walkers())
                .find(|&w| node_of(before, w) != node_of(after, w))
                .ok_or_else(|| Error::Internal("a leg of the key graph moves no walker".to_string()))?;
            let from = self.cell_of(node_of(before, walker));
            let to = self.cell_of(node_of(after, walker));
            let path = self
                .board
                .shortest_path(from, to, keys_of(before))
                .ok_or_else(|| Error::Internal("a leg of the key graph has no path on the grid".to_string()))?;
            moves.extend(path.into_iter().map(|dir| Move { walker, dir }));
        }
        if moves.len() as u64 != u64::from(searched.steps.unwrap_or(0)) {
            return Err(Error::Internal(format!(
                "the key graph's legs add up to {} steps, but their paths to {}",
                searched.steps.unwrap_or(0),
                moves.len()
            )));
        }
        Ok(Some(moves))
    }

    /// The fewest steps and the number of distinct shortest routes; needs
    /// [`KeyGraph::for_counting`].
    pub fn count(&self) -> Result<Counted, Error> {
        if !self.counting {
            return Err(Error::Internal("counting with legs that may walk over keys".to_string()));
        }
        let searched = self.search(true);
        let settled = searched.nodes.values().filter(|n| n.settled).count();
        let saturated = searched.saturated && searched.routes == u64::MAX;
        Ok(Counted { steps: searched.steps.map(u64::from), routes: searched.routes, saturated, settled })
    }

    fn cell_of(&self, node: usize) -> usize {
        match node.checked_sub(self.board.num_walkers()) {
            Some(key) => self.board.key_cell(key),
            None => self.board.starts()[node],
        }
    }

    /// A* from the starts with nothing held to any state holding every key.
    /// When `counting`, goes on through every state as near as the goal and
    /// sums the routes of every shortest way.
    fn search(&self, counting: bool) -> Searched {
        let board = self.board;
        let all = board.all_keys();
        let walkers = board.num_walkers();
        let mut start = 0u64;
        for walker in 0..walkers {
            start |= (walker as u64) << (KEY_BITS + NODE_BITS * walker as u32);
        }
        let mut tree_cache: HashMap<KeySet, u32> = HashMap::new();
        let h0 = self.heuristic(start, &mut tree_cache);
        let start_node = Node { g: 0, h: h0, routes: 1, parent: start, settled: false };
        let mut nodes: HashMap<u64, Node> = HashMap::from([(start, start_node)]);
        if board.collectable_keys() != all {
            return Searched { steps: None, routes: 0, saturated: false, goal: None, nodes };
        }
        let mut heap: BinaryHeap<Reverse<(u32, u32, u64)>> = BinaryHeap::new();
        // Ties go to fewer steps when counting (see the module notes) and
        // to more steps otherwise, which reaches a goal sooner.
        let tie = |g: u32| if counting { g } else { u32::MAX - g };
        heap.push(Reverse((h0, tie(0), start)));
        let (mut best, mut total, mut goal, mut saturated) = (None::<u32>, 0u64, None, self.legs.saturated());
        while let Some(Reverse((f, _, state))) = heap.pop() {
            if best.is_some_and(|b| f > b) {
                break;
            }
            let node = nodes[&state];
            if node.settled || node.g.saturating_add(node.h) != f {
                continue;
            }
            nodes.get_mut(&state).expect("present").settled = true;
            let held = keys_of(state);
            if held == all {
                best.get_or_insert(node.g);
                goal.get_or_insert(state);
                total = total.checked_add(node.routes).unwrap_or_else(|| {
                    saturated = true;
                    u64::MAX
                });
                if !counting {
                    break;
                }
                continue;
            }
            for walker in 0..walkers {
                let from = node_of(state, walker);
                for key in (0..board.num_keys()).filter(|&k| held & (1 << k) == 0) {
                    let Some((len, paths)) = self.legs.best(from, key, held) else { continue };
                    let next = with_node(state, walker, self.legs.key_node(key)) | 1 << key;
                    let g = node.g + len;
                    let routes = match counting {
                        true => node.routes.checked_mul(paths).unwrap_or_else(|| {
                            saturated = true;
                            u64::MAX
                        }),
                        false => 1,
                    };
                    let fresh = Node { g: u32::MAX, h: u32::MAX, routes: 0, parent: state, settled: false };
                    let entry = nodes.entry(next).or_insert(fresh);
                    if entry.settled || g > entry.g {
                        continue;
                    }
                    if g == entry.g {
                        entry.routes = entry.routes.checked_add(routes).unwrap_or_else(|| {
                            saturated = true;
                            u64::MAX
                        });
                        continue;
                    }
                    let h = match entry.h {
                        u32::MAX => self.heuristic(next, &mut tree_cache),
                        known => known,
                    };
                    *entry = Node { g, h, routes, parent: state, settled: false };
                    if h != u32::MAX {
                        heap.push(Reverse((g + h, tie(g), next)));
                    }
                }
            }
        }
        Searched { steps: best, routes: total, saturated, goal, nodes }
    }

    /// A lower bound on the steps still needed from `state`; `u32::MAX`
    /// when some missing key is out of every walker's reach.
    fn heuristic(&self, state: u64, tree_cache: &mut HashMap<KeySet, u32>) -> u32 {
        let held = keys_of(state);
        if held == self.board.all_keys() {
            return 0;
        }
        let walkers = self.board.num_walkers();
        let reach = |key: usize| (0..walkers).map(|w| self.legs.open(node_of(state, w), key)).min().unwrap_or(u32::MAX);
        let missing_keys = || (0..self.board.num_keys()).filter(move |&k| held & (1 << k) == 0);
        if walkers == 1 {
            let join = missing_keys().map(reach).min().unwrap_or(u32::MAX);
            let tree = match tree_cache.get(&held) {
                Some(&tree) => tree,
                None => {
                    let tree = self.spanning_tree(&missing_keys().collect::<Vec<_>>(), None);
                    tree_cache.insert(held, tree);
                    tree
                }
            };
            return join.saturating_add(tree);
        }
        let missing: Vec<usize> = missing_keys().collect();
        let roots: Vec<u32> = missing.iter().map(|&k| reach(k)).collect();
        self.spanning_tree(&missing, Some(&roots))
    }

    /// Prim's minimum spanning tree over `keys` with every door open, plus
    /// a root at distance `roots[i]` from `keys[i]` when given.
    fn spanning_tree(&self, keys: &[usize], roots: Option<&[u32]>) -> u32 {
        let mut link: Vec<u32> = match roots {
            Some(roots) => roots.to_vec(),
            None => {
                let mut link = vec![u32::MAX; keys.len()];
                link[0] = 0;
                link
            }
        };
        let mut joined = vec![false; keys.len()];
        let mut total = 0u32;
        for _ in 0..keys.len() {
            let Some(next) = (0..keys.len()).filter(|&i| !joined[i]).min_by_key(|&i| link[i]) else { break };
            if link[next] == u32::MAX {
                return u32::MAX;
            }
            joined[next] = true;
            total += link[next];
            let from = self.legs.key_node(keys[next]);
            for i in 0..keys.len() {
                if !joined[i] {
                    link[i] = link[i].min(self.legs.open(from, keys[i]));
                }
            }
        }
        total
    }
}

/// The bits of a packed state below the walkers' nodes.
const KEY_BITS: u32 = 26;

fn keys_of(state: u64) -> KeySet {
    (state & ((1 << KEY_BITS) - 1)) as KeySet
}

fn node_of(state: u64, walker: usize) -> usize {
    (state >> (KEY_BITS + NODE_BITS * walker as u32) & ((1 << NODE_BITS) - 1)) as usize
}

fn with_node(state: u64, walker: usize, node: usize) -> u64 {
    let shift = KEY_BITS + NODE_BITS * walker as u32;
    state & !(((1 << NODE_BITS) - 1) << shift) | (node as u64) << shift
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::keys_doors::{KeysDoorsPuzzle, bfs, check};

    fn both(picture: &str) -> (Option<u64>, u64) {
        let puzzle = KeysDoorsPuzzle::from_picture(picture).unwrap();
        let board = Board::new(&puzzle);
        let route = KeyGraph::new(&board).unwrap().shortest_route().unwrap();
        if let Some(route) = &route {
            check(&puzzle, route).unwrap();
        }
        let reference = bfs::search(&board, false);
        assert_eq!(route.map(|r| r.len() as u64), reference.steps, "{picture}");
        if board.num_walkers() == 1 {
            let counted = KeyGraph::for_counting(&board).unwrap().count().unwrap();
            assert_eq!((counted.steps, counted.routes), (reference.steps, reference.routes), "{picture}");
        }
        (reference.steps, reference.routes)
    }

    #[test]
    fn the_lesson_grids() {
        assert_eq!(both("@..a"), (Some(3), 1));
        assert_eq!(both("#a##\n@.Ab"), (Some(5), 1));
        assert_eq!(both("@.a.."), (Some(2), 1));
        assert_eq!(both("@.A.a"), (None, 0));
        assert_eq!(both("@.a..\n###.#\nb.A.B"), (Some(8), 1));
    }

    #[test]
    fn legs_over_other_keys_and_shut_doors_round_loops() {
        assert_eq!(both("@abc"), (Some(3), 1));
        assert_eq!(both("a.@.b"), (Some(6), 2));
        // 'a' first (the loop round door A passes it), then either way to 'b'.
        assert_eq!(both("@Ab\n.#.\na.."), (Some(6), 2));
        // Two ways to 'b', then one to 'a' (door A is shut).
        assert_eq!(both("@.#\n.b.\n.Aa"), (Some(4), 2));
        // Walking over 'b' on the way to 'a' collects it: 4 of the 6 paths.
        assert_eq!(both("@..\n.b.\n..a"), (Some(4), 4));
    }

    #[test]
    fn several_walkers() {
        assert_eq!(both("a.@#@Ab").0, Some(4));
        assert_eq!(both("a.@#@..b").0, Some(5));
        assert_eq!(both("@ab#@").0, Some(2));
        assert_eq!(both("@.A#@#a").0, None);
        let board = Board::new(&KeysDoorsPuzzle::from_picture("a@#@b").unwrap());
        assert!(matches!(KeyGraph::for_counting(&board), Err(Error::Unsupported { .. })));
    }

    #[test]
    fn twenty_six_keys_in_a_corridor_and_no_keys_at_all() {
        let keys: String = ('a'..='z').collect();
        assert_eq!(both(&format!("@{keys}")), (Some(26), 1));
        assert_eq!(both("@.#\n.A."), (Some(0), 1));
    }
}

#[cfg(test)]
mod examples {
    #[test]
    fn keygraph() {
        use crate::puzzles::keys_doors::{Board, KeysDoorsPuzzle, keygraph::KeyGraph};
        let puzzle = KeysDoorsPuzzle::from_picture("@.a..\n###.#\nb.A.B").unwrap();
        let board = Board::new(&puzzle);
        assert_eq!(KeyGraph::new(&board).unwrap().shortest_route().unwrap().unwrap().len(), 8);
        let counted = KeyGraph::for_counting(&board).unwrap().count().unwrap();
        assert_eq!((counted.steps, counted.routes), (Some(8), 1));
    }
}

//! The legs of a route: from a walker's start or a key to another key,
//! found by one search of the grid from each of them.
//!
//! A leg's length depends on the keys held when it is walked: a door on the
//! shortest path may be shut, so a longer way round is the shortest that
//! can be walked. One search from each place therefore keeps, at each cell,
//! every way there that is not beaten by another both shorter (or as short)
//! and needing no more keys: labels (length, keys needed), a Pareto front
//! that is one label per cell in a maze without loops.
//!
//! Two readings of "needed" serve two purposes:
//!
//! - [`Reading::Doors`]: a leg needs the keys of the doors it passes and may
//!   walk over keys not yet held (picking them up early only opens more
//!   doors). The fewest steps over all orders of collection, each order's
//!   legs taken at their shortest with the keys held before them, is the
//!   fewest steps of any route, so this reading finds the optimum with the
//!   fewest labels.
//! - [`Reading::Direct`]: a leg also needs every key it walks over, so that
//!   it picks up nothing but its target. Every route splits into such legs at
//!   its pickups, one way only, so counting shortest direct legs, multiplied
//!   along each order of collection, counts shortest routes exactly; labels
//!   then carry the number of shortest paths with exactly their needs.

use super::board::{Access, Board, KeySet};
use crate::puzzles::Error;

/// The most labels one search may keep before the engine gives up rather
/// than exhaust memory: a grid with loops around many doors and keys can
/// have a Pareto front exponential in them.
pub const MAX_LABELS: usize = 20_000_000;

/// Which keys a leg needs; see the module documentation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Only the keys of the doors passed.
    Doors,
    /// The keys of the doors passed and every key walked over on the way.
    Direct,
}

/// One way from a place to a key: its length, the keys it needs held, and
/// (in the direct reading) how many shortest paths have exactly these needs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Leg {
    /// Steps.
    pub len: u32,
    /// The keys that must be held to walk it.
    pub needs: KeySet,
    /// Paths of this length with exactly these needs; saturates at `u64::MAX`.
    pub paths: u64,
}

/// The places of a route are numbered as nodes: the walkers' starts first,
/// then the keys by bit index.
pub struct Legs {
    num_walkers: usize,
    /// `table[from][key]`: the Pareto front of legs from node `from` to key
    /// `key`, shortest first.
    table: Vec<Vec<Vec<Leg>>>,
    /// The fewest steps from node `from` to key `key` with every door open,
    /// `u32::MAX` when out of reach: a lower bound on any leg.
    open: Vec<Vec<u32>>,
    /// True when some count saturated.
    saturated: bool,
}

impl Legs {
    /// Searches the grid from every start and every key.
    pub fn new(board: &Board, reading: Reading) -> Result<Legs, Error> {
        let num_walkers = board.num_walkers();
        let sources: Vec<usize> =
            board.starts().iter().copied().chain((0..board.num_keys()).map(|k| board.key_cell(k))).collect();
        let mut table = Vec::with_capacity(sources.len());
        let mut open = Vec::with_capacity(sources.len());
        let mut saturated = false;
        let mut fronts = Fronts::new(board.num_cells());
        for (node, &cell) in sources.iter().enumerate() {
            let own = node.checked_sub(num_walkers);
            fronts.search(board, cell, reading, &mut saturated)?;
            let row: Vec<Vec<Leg>> = (0..board.num_keys())
                .map(|key| match own == Some(key) {
                    true => Vec::new(),
                    false => fronts.at(board.key_cell(key)).to_vec(),
                })
                .collect();
            open.push(row.iter().map(|legs| legs.iter().map(|l| l.len).min().unwrap_or(u32::MAX)).collect());
            table.push(row);
        }
        Ok(Legs { num_walkers, table, open, saturated })
    }

    /// Number of walkers, whose starts are nodes `0..num_walkers`.
    pub fn num_walkers(&self) -> usize {
        self.num_walkers
    }

    /// The node of key `key`.
    pub fn key_node(&self, key: usize) -> usize {
        self.num_walkers + key
    }

    /// The Pareto front of legs from `from` to key `key`.
    pub fn legs(&self, from: usize, key: usize) -> &[Leg] {
        &self.table[from][key]
    }

    /// The fewest steps from node `from` to key `key` with every door open.
    pub fn open(&self, from: usize, key: usize) -> u32 {
        self.open[from][key]
    }

    /// The shortest leg from `from` to `key` holding `held`, and the number
    /// of its shortest paths (meaningful in the direct reading).
    pub fn best(&self, from: usize, key: usize, held: KeySet) -> Option<(u32, u64)> {
        let mut best: Option<(u32, u64)> = None;
        for leg in &self.table[from][key] {
            if leg.needs & !held != 0 {
                continue;
            }
            best = match best {
                Some((len, _)) if leg.len > len => break,
                Some((len, paths)) if leg.len == len => Some((len, paths.saturating_add(leg.paths))),
                _ => Some((leg.len, leg.paths)),
            };
        }
        best
    }

    /// Legs on all the Pareto fronts together.
    pub fn num_legs(&self) -> usize {
        self.table.iter().flatten().map(Vec::len).sum()
    }

    /// True when some path count saturated.
    pub fn saturated(&self) -> bool {
        self.saturated
    }
}

/// The labels of one search, cell by cell, reused from search to search.
struct Fronts {
    labels: Vec<Vec<Leg>>,
    touched: Vec<usize>,
}

impl Fronts {
    fn new(cells: usize) -> Fronts {
        Fronts { labels: vec![Vec::new(); cells], touched: Vec::new() }
    }

    fn at(&self, cell: usize) -> &[Leg] {
        &self.labels[cell]
    }

    /// Breadth-first over (cell, label): a label is expanded after every
    /// label one step shorter, so its path count is complete by then.
    fn search(&mut self, board: &Board, source: usize, reading: Reading, saturated: &mut bool) -> Result<(), Error> {
        for &cell in &self.touched {
            self.labels[cell].clear();
        }
        self.touched.clear();
        self.labels[source].push(Leg { len: 0, needs: 0, paths: 1 });
        self.touched.push(source);
        let mut layer: Vec<(usize, usize)> = vec![(source, 0)];
        let mut next_layer: Vec<(usize, usize)> = Vec::new();
        let mut kept = 1usize;
        while !layer.is_empty() {
            for &(cell, index) in &layer {
                let label = self.labels[cell][index];
                // Walking on from a key needs it held in the direct reading;
                // the source's own key is held by then anyway.
                let onward = match (reading, board.key_at(cell)) {
                    (Reading::Direct, Some(bit)) if cell != source => label.needs | 1 << bit,
                    _ => label.needs,
                };
                for (_, next) in board.neighbours(cell) {
                    let needs = match board.access(next) {
                        Access::Blocked => continue,
                        Access::Open => onward,
                        Access::Door(bit) => onward | 1 << bit,
                    };
                    let len = label.len + 1;
                    if let Some(index) = self.insert(next, Leg { len, needs, paths: label.paths }, reading, saturated) {
                        next_layer.push((next, index));
                        kept += 1;
                        if kept > MAX_LABELS {
                            return Err(Error::TooLarge(format!(
                                "the legs from one place need more than {MAX_LABELS} labels (ways round doors and \
                                 keys); the bfs and sat engines have no such limit"
                            )));
                        }
                    }
                }
            }
            std::mem::swap(&mut layer, &mut next_layer);
            next_layer.clear();
        }
        Ok(())
    }

    /// Adds a label at `cell` unless one as short needing no more keys is
    /// there; labels of equal length and needs merge their path counts.
    /// Returns the new label's index when it is new.
    fn insert(&mut self, cell: usize, leg: Leg, reading: Reading, saturated: &mut bool) -> Option<usize> {
        let labels = &mut self.labels[cell];
        for existing in labels.iter_mut() {
            let subset = existing.needs & !leg.needs == 0;
            if existing.len == leg.len && existing.needs == leg.needs {
                existing.paths = existing.paths.checked_add(leg.paths).unwrap_or_else(|| {
                    *saturated = true;
                    u64::MAX
                });
                return None;
            }
            // In the direct reading an equally short label with more needs
            // still counts paths for the key sets that hold those needs.
            let beaten = match reading {
                Reading::Doors => existing.len <= leg.len,
                Reading::Direct => existing.len < leg.len,
            };
            if subset && beaten {
                return None;
            }
        }
        if labels.is_empty() {
            self.touched.push(cell);
        }
        labels.push(leg);
        Some(labels.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::keys_doors::KeysDoorsPuzzle;

    fn legs(picture: &str, reading: Reading) -> Legs {
        Legs::new(&Board::new(&KeysDoorsPuzzle::from_picture(picture).unwrap()), reading).unwrap()
    }

    #[test]
    fn a_door_on_the_short_way_leaves_a_longer_way_round() {
        // From '@' to 'b': 2 steps through door A, or 6 round the loop over 'a'.
        let legs = legs("@Ab\n.#.\na..", Reading::Doors);
        let to_b = legs.legs(0, 1);
        assert_eq!(to_b.iter().map(|l| (l.len, l.needs)).collect::<Vec<_>>(), vec![(2, 0b01), (6, 0)]);
        assert_eq!(legs.best(0, 1, 0).map(|b| b.0), Some(6));
        assert_eq!(legs.best(0, 1, 0b01).map(|b| b.0), Some(2));
        assert_eq!(legs.open(0, 1), 2);
    }

    #[test]
    fn the_direct_reading_needs_the_keys_walked_over_and_counts_paths() {
        // '@' to 'b' over 'a' in a corridor: the direct leg needs 'a'.
        let doors = legs("@ab", Reading::Doors);
        let direct = legs("@ab", Reading::Direct);
        assert_eq!(doors.legs(0, 1).iter().map(|l| l.needs).collect::<Vec<_>>(), vec![0]);
        assert_eq!(direct.legs(0, 1).iter().map(|l| l.needs).collect::<Vec<_>>(), vec![0b01]);
        // Across a 3 x 3 room to the far corner: 6 shortest paths.
        let room = legs("@..\n...\n..a", Reading::Direct);
        assert_eq!(room.best(0, 0, 0), Some((4, 6)));
        // With 'b' in the centre, 4 of them cross it and need it held.
        let room = legs("@..\n.b.\n..a", Reading::Direct);
        assert_eq!(room.best(0, 0, 0), Some((4, 2)));
        assert_eq!(room.best(0, 0, 0b10), Some((4, 6)));
    }
}

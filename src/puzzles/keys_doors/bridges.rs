//! The bridges of the grid with every door open: steps whose removal cuts
//! the open cells in two. Any walk between the two sides of a bridge
//! crosses it, and a path that visits no cell twice crosses it once, so a
//! bridge adds one step to every leg between keys on different sides and
//! nothing to any other leg. In a maze without loops every step is a
//! bridge; in an open room there are few.
//!
//! Bridges are grouped by the keys on their far side from a walker's start:
//! bridges with the same far keys are crossed by exactly the same legs.

use super::board::{Access, Board, KeySet};

/// The bridges whose far side from the start holds exactly `far` (never
/// empty): `steps` of them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The keys on the far side from the start.
    pub far: KeySet,
    /// The number of bridges with that far side.
    pub steps: u32,
}

/// The groups of bridges of the cells reachable from `start` with every
/// door open, ordered by their far keys. Bridges with no key beyond them
/// are left out: no leg between keys crosses them.
pub fn cuts(board: &Board, start: usize) -> Vec<Cut> {
    let mut far_of_bridges: Vec<KeySet> = Vec::new();
    let mut search = Search::new(board, start);
    while let Some(finished) = search.step(board) {
        if finished.is_bridge && finished.keys != 0 {
            far_of_bridges.push(finished.keys);
        }
    }
    far_of_bridges.sort_unstable();
    let mut cuts: Vec<Cut> = Vec::new();
    for far in far_of_bridges {
        match cuts.last_mut() {
            Some(cut) if cut.far == far => cut.steps += 1,
            _ => cuts.push(Cut { far, steps: 1 }),
        }
    }
    cuts
}

/// A cell whose depth-first subtree is complete: whether the step into it
/// is a bridge, and the keys in its subtree (the far side when it is).
struct Finished {
    is_bridge: bool,
    keys: KeySet,
}

/// Tarjan's depth-first search for bridges, without recursion (a maze's
/// depth-first tree can be as deep as it has cells).
struct Search {
    /// Discovery time of each cell, `usize::MAX` before it is reached.
    order: Vec<usize>,
    /// The earliest discovery time reachable from the cell's subtree by
    /// one step that is not the step into the cell.
    low: Vec<usize>,
    keys: Vec<KeySet>,
    /// The cells on the current path, each with its parent and the next
    /// neighbour to try.
    stack: Vec<(usize, usize, usize)>,
    time: usize,
}

impl Search {
    fn new(board: &Board, start: usize) -> Search {
        let cells = board.num_cells();
        let mut search = Search {
            order: vec![usize::MAX; cells],
            low: vec![usize::MAX; cells],
            keys: vec![0; cells],
            stack: Vec::new(),
            time: 0,
        };
        search.enter(board, start, usize::MAX);
        search
    }

    fn enter(&mut self, board: &Board, cell: usize, parent: usize) {
        self.order[cell] = self.time;
        self.low[cell] = self.time;
        self.time += 1;
        self.keys[cell] = board.key_at(cell).map_or(0, |bit| 1 << bit);
        self.stack.push((cell, parent, 0));
    }

    /// Advances until a cell's subtree is complete, and reports it; `None`
    /// when the search is over. The start's own report is left out, as no
    /// step leads into it.
    fn step(&mut self, board: &Board) -> Option<Finished> {
        loop {
            let &mut (cell, parent, ref mut tried) = self.stack.last_mut()?;
            let next = board.neighbours(cell).map(|(_, next)| next).nth(*tried);
            *tried += 1;
            match next {
                Some(next) if board.access(next) == Access::Blocked || next == parent => {}
                Some(next) if self.order[next] != usize::MAX => self.low[cell] = self.low[cell].min(self.order[next]),
                Some(next) => self.enter(board, next, cell),
                None => {
                    self.stack.pop();
                    if parent == usize::MAX {
                        return None;
                    }
                    self.low[parent] = self.low[parent].min(self.low[cell]);
                    self.keys[parent] |= self.keys[cell];
                    return Some(Finished { is_bridge: self.low[cell] > self.order[parent], keys: self.keys[cell] });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::keys_doors::KeysDoorsPuzzle;

    fn cuts_of(picture: &str) -> Vec<(KeySet, u32)> {
        let board = Board::new(&KeysDoorsPuzzle::from_picture(picture).unwrap());
        cuts(&board, board.start()).into_iter().map(|cut| (cut.far, cut.steps)).collect()
    }

    #[test]
    fn a_corridor_is_all_bridges_and_a_loop_has_none() {
        // '@' then 'a' then 'b' in a row: two steps beyond which lie both,
        // three beyond which lies 'b' alone.
        assert_eq!(cuts_of("@.aB.b"), vec![(0b10, 3), (0b11, 2)]);
        // Round a loop no step is a bridge; the spur down to 'b' is, and the
        // one to the left holds no key.
        assert_eq!(cuts_of("@.a\n.#.\n..b"), vec![]);
        assert_eq!(cuts_of("@.a\n.#.\n...\n.#b"), vec![(0b10, 1)]);
    }

    /// Against the definition: a step is a bridge when, without it, its far
    /// end cannot be reached from the start with every door open.
    #[test]
    fn bridges_are_the_steps_that_cut_the_open_grid() {
        use crate::puzzles::keys_doors::maze;
        for seed in 0..30 {
            let picture = maze::generate(7, 9, 4, 30, seed).unwrap();
            let board = Board::new(&KeysDoorsPuzzle::from_picture(&picture).unwrap());
            let open = |cell: usize| board.access(cell) != Access::Blocked;
            let reach = |cut: (usize, usize)| {
                let mut seen = vec![false; board.num_cells()];
                let mut stack = vec![board.start()];
                seen[board.start()] = true;
                while let Some(cell) = stack.pop() {
                    for (_, next) in board.neighbours(cell) {
                        let through_cut = (cell, next) == cut || (next, cell) == cut;
                        if open(next) && !seen[next] && !through_cut {
                            seen[next] = true;
                            stack.push(next);
                        }
                    }
                }
                seen
            };
            let everywhere = reach((usize::MAX, usize::MAX));
            let mut expected: Vec<KeySet> = Vec::new();
            for cell in (0..board.num_cells()).filter(|&c| everywhere[c]) {
                for (_, next) in board.neighbours(cell).filter(|&(_, n)| cell < n && everywhere[n]) {
                    let seen = reach((cell, next));
                    if seen[cell] && seen[next] {
                        continue;
                    }
                    let far = (0..board.num_keys())
                        .filter(|&k| everywhere[board.key_cell(k)] && !seen[board.key_cell(k)])
                        .fold(0, |acc, k| acc | 1 << k);
                    if far != 0 {
                        expected.push(far);
                    }
                }
            }
            expected.sort_unstable();
            let found: Vec<KeySet> = cuts(&board, board.start())
                .iter()
                .flat_map(|cut| std::iter::repeat_n(cut.far, cut.steps as usize))
                .collect();
            assert_eq!(found, expected, "seed {seed}\n{picture}");
        }
    }
}

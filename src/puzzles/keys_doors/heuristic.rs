//! Short routes found without search, as an order of pickups: a greedy walk
//! to the nearest key that can be reached, then improved by moving runs of
//! pickups elsewhere in the order while that shortens the total. Each pickup
//! walks the shortest leg open with the keys held by then ([`Legs::best`]).
//! They give the order model its first bound, and a route to prove optimal
//! or beat.

use super::board::{Board, KeySet};
use super::legs::Legs;

/// The longest run of pickups moved as one.
const MOVED_RUN: usize = 3;

/// An order of pickups: which walker picks up which key, in turn, and the
/// total length of the legs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    /// `(walker, key)` in the order of collection.
    pub picks: Vec<(usize, usize)>,
    /// The sum of the legs' lengths.
    pub total: u64,
}

/// The order that always walks, with the walker and key that are nearest,
/// to a key it can reach; `None` when it gets stuck, which happens exactly
/// when no route collects every key (the keys collectable together are
/// closed under union).
pub fn greedy(board: &Board, legs: &Legs) -> Option<Order> {
    let mut at: Vec<usize> = (0..board.num_walkers()).collect();
    let mut held: KeySet = 0;
    let mut order = Order { picks: Vec::with_capacity(board.num_keys()), total: 0 };
    while held != board.all_keys() {
        let mut best: Option<(u32, usize, usize)> = None;
        for (walker, &from) in at.iter().enumerate() {
            for key in (0..board.num_keys()).filter(|&k| held & (1 << k) == 0) {
                if let Some((len, _)) = legs.best(from, key, held)
                    && best.is_none_or(|b| len < b.0)
                {
                    best = Some((len, walker, key));
                }
            }
        }
        let (len, walker, key) = best?;
        order.total += u64::from(len);
        order.picks.push((walker, key));
        held |= 1 << key;
        at[walker] = legs.key_node(key);
    }
    Some(order)
}

/// `order` with runs of up to [`MOVED_RUN`] pickups moved to other places,
/// one improvement at a time, until no such move shortens it: a local
/// optimum, never longer than `order`.
pub fn improve(legs: &Legs, mut order: Order) -> Order {
    let n = order.picks.len();
    let mut trial = Vec::with_capacity(n);
    loop {
        let mut improved = false;
        for run in 1..=MOVED_RUN.min(n) {
            for from in 0..=n - run {
                for to in (0..=n - run).filter(|&to| to != from) {
                    trial.clear();
                    let moved = &order.picks[from..from + run];
                    let rest = order.picks[..from].iter().chain(&order.picks[from + run..]);
                    trial.extend(rest.clone().take(to));
                    trial.extend_from_slice(moved);
                    trial.extend(rest.skip(to));
                    if let Some(total) = total(legs, &trial)
                        && total < order.total
                    {
                        order = Order { picks: trial.clone(), total };
                        improved = true;
                    }
                }
            }
        }
        if !improved {
            return order;
        }
    }
}

/// The total of the pickups in turn, each on its shortest open leg; `None`
/// when some leg cannot be walked with the keys held by then.
pub fn total(legs: &Legs, picks: &[(usize, usize)]) -> Option<u64> {
    let mut at: Vec<usize> = (0..legs.num_walkers()).collect();
    let mut held: KeySet = 0;
    let mut sum = 0u64;
    for &(walker, key) in picks {
        let (len, _) = legs.best(at[walker], key, held)?;
        sum += u64::from(len);
        held |= 1 << key;
        at[walker] = legs.key_node(key);
    }
    Some(sum)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::keys_doors::legs::Reading;
    use crate::puzzles::keys_doors::{KeysDoorsPuzzle, bfs, maze};

    #[test]
    fn improving_keeps_a_walkable_order_no_longer_and_no_shorter_than_the_optimum() {
        let mut shortened = 0;
        for seed in 0..40 {
            let picture = maze::generate(9, 11, 5, 15, seed).unwrap();
            let board = Board::new(&KeysDoorsPuzzle::from_picture(&picture).unwrap());
            let legs = Legs::new(&board, Reading::Direct).unwrap();
            let first = greedy(&board, &legs).expect("the maze code makes solvable mazes");
            let better = improve(&legs, first.clone());
            assert_eq!(total(&legs, &better.picks), Some(better.total), "{picture}");
            let mut keys: Vec<usize> = better.picks.iter().map(|&(_, key)| key).collect();
            keys.sort_unstable();
            assert_eq!(keys, (0..board.num_keys()).collect::<Vec<_>>());
            assert!(better.total <= first.total);
            assert!(better.total >= bfs::search(&board, false).steps.unwrap());
            shortened += usize::from(better.total < first.total);
        }
        assert!(shortened > 0, "moving pickups never shortened a greedy order");
    }

    #[test]
    fn a_stuck_walk_has_no_order() {
        let board = Board::new(&KeysDoorsPuzzle::from_picture("@Ba.A.b").unwrap());
        let legs = Legs::new(&board, Reading::Direct).unwrap();
        assert_eq!(greedy(&board, &legs), None);
    }
}

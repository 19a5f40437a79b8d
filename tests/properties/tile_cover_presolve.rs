//! The structural presolve against a depth-first search (in
//! `tests/common/rooms.rs`): on random rooms up to 5 × 5 and 4 × 6 with
//! scattered walls, an end tile sometimes, and 0 to 2 tiles to leave, every
//! refutation must be right, every certificate's cells must be uncoverable
//! by any walk, and every deduction handed to SAT must hold for every route.
//! A property test plants a route in larger rooms: no rule may refute them.

use proptest::prelude::*;
use somaria::model::Source;
use somaria::puzzles::tile_cover::presolve::{self, Rule};
use somaria::puzzles::tile_cover::{Room, load_puzzle};
use somaria::rng::SplitMix64;
use std::collections::HashMap;

use crate::common;

use common::models::{grid_text, tile_cover_model};
use common::rooms::{self, Cell};

/// The room's text rows, `S` start, `E` end, `#` wall, `.` tile.
struct Grid {
    rows: Vec<Vec<char>>,
    k: usize,
}

impl Grid {
    fn tiles(&self) -> usize {
        rooms::tiles(&self.rows)
    }

    fn model(&self) -> String {
        tile_cover_model(&self.text(), self.k)
    }

    fn text(&self) -> String {
        grid_text(&self.rows)
    }

    /// Up to `cap` routes (walks leaving at most k tiles), and whether
    /// there are more.
    fn routes(&self, cap: usize) -> (Vec<Vec<Cell>>, bool) {
        let need = self.tiles().saturating_sub(self.k);
        let mut found = Vec::new();
        let mut more = false;
        rooms::walks(&self.rows, &mut |path| {
            if path.len() >= need {
                if found.len() == cap {
                    more = true;
                    return false;
                }
                found.push(path.to_vec());
            }
            true
        });
        (found, more)
    }

    /// Whether some walk (leaving any tiles) covers all of `cells`.
    fn some_walk_covers(&self, cells: &[Cell]) -> bool {
        let mut covered = false;
        rooms::walks(&self.rows, &mut |path| {
            covered = cells.iter().all(|c| path.contains(c));
            !covered
        });
        covered
    }
}

fn random_grid(rng: &mut SplitMix64) -> Grid {
    let shapes = [(3, 3), (3, 4), (4, 4), (4, 5), (5, 5), (4, 6), (2, 5), (3, 5)];
    let (rows, k) = rooms::random_room(rng, &shapes, &[5, 10, 15, 20]);
    Grid { rows, k }
}

/// Every deduction the presolve hands to SAT holds on this route.
fn check_deductions(room: &Room, deductions: &presolve::Deductions, route: &[Cell]) -> Result<(), String> {
    let node = |c: Cell| room.node_at(c).unwrap();
    let last = node(*route.last().unwrap());
    if !deductions.may_end(last) {
        return Err(format!("the route ends on {:?}, ruled out", route.last().unwrap()));
    }
    let mut taken = std::collections::HashSet::new();
    let mut here = somaria::puzzles::tile_cover::START;
    for &cell in route {
        let next = node(cell);
        let arc = room.out_arcs(here).iter().copied().find(|&a| room.arcs()[a].1 == next).unwrap();
        if !deductions.arc_allowed(arc) {
            return Err(format!("the route takes the forbidden step to {cell:?}"));
        }
        taken.insert(arc);
        here = next;
    }
    for &tile in deductions.must_cover() {
        if !route.contains(&room.position(tile)) {
            return Err(format!("the route leaves {}, which it must cover", room.label(tile)));
        }
    }
    for &arc in deductions.forced_arcs() {
        if !taken.contains(&arc) {
            return Err(format!("the route misses the forced arc {:?}", room.arcs()[arc]));
        }
    }
    for &(a, b) in deductions.forced_steps() {
        let used = taken.iter().any(|&arc| {
            let (x, y) = room.arcs()[arc];
            (x, y) == (a, b) || (x, y) == (b, a)
        });
        if !used {
            return Err(format!("the route misses the forced step {} - {}", room.label(a), room.label(b)));
        }
    }
    Ok(())
}

#[test]
fn presolve_verdicts_certificates_and_deductions_match_depth_first_search() {
    let mut rng = SplitMix64::new(11);
    let mut fired: HashMap<(Rule, usize), usize> = HashMap::new();
    let mut unsolvable = [0usize; 3];
    let mut refuted = [0usize; 3];
    for case in 0..2500 {
        let grid = random_grid(&mut rng);
        let puzzle = load_puzzle(&Source::from_text("room.toml", grid.model())).unwrap();
        let analysis = presolve::analyse(puzzle.room());
        let (routes, _) = grid.routes(300);
        let solvable = !routes.is_empty();
        let context = || format!("case {case}, k = {}:\n{}", grid.k, grid.text());
        unsolvable[grid.k] += usize::from(!solvable);
        match &analysis.refutation {
            Some(refutation) => {
                assert!(!solvable, "{}\nwrongly refuted by {:?}: {}", context(), refutation.rule, refutation.text);
                refuted[grid.k] += 1;
                *fired.entry((refutation.rule, grid.k)).or_default() += 1;
                let cells: Vec<Cell> = refutation.cells.iter().map(|&n| puzzle.room().position(n)).collect();
                if !cells.is_empty() {
                    assert!(
                        !grid.some_walk_covers(&cells),
                        "{}\n{:?}'s cells {cells:?} can all be covered: {}",
                        context(),
                        refutation.rule,
                        refutation.text
                    );
                }
            }
            None => {
                for route in &routes {
                    check_deductions(puzzle.room(), &analysis.deductions, route)
                        .unwrap_or_else(|e| panic!("{}\n{e}; route {route:?}", context()));
                }
            }
        }
    }
    // The rooms must exercise each rule where it applies.
    let count = |rule, k| fired.get(&(rule, k)).copied().unwrap_or(0);
    for rule in [Rule::Unreachable, Rule::ColourCount, Rule::DeadEnds, Rule::CutTile, Rule::EndColour] {
        for k in 0..3 {
            assert!(count(rule, k) > 0, "{rule:?} never fired with k = {k}: {fired:?}");
        }
    }
    assert!(count(Rule::ForcedSteps, 0) > 5, "{fired:?}");
    assert!(count(Rule::DegreeMatching, 1) + count(Rule::DegreeMatching, 2) > 0, "{fired:?}");
    assert!(count(Rule::LeaveCases, 1) > 0 && count(Rule::LeaveCases, 2) > 0, "{fired:?}");
    // With nothing to leave, the rules decide these small rooms.
    assert_eq!(refuted[0], unsolvable[0], "{fired:?}");
    assert!(refuted[1] * 10 >= unsolvable[1] * 8, "{refuted:?} of {unsolvable:?}");
}

/// A room around a random self-avoiding walk from the start: the walk's
/// cells are tiles, and the rest is walled or open at random, with as many
/// tiles to leave as are open off the walk. The walk is a route, so no rule
/// may refute the room, and the deductions must hold on it.
fn planted() -> impl Strategy<Value = (Vec<Vec<char>>, usize, Vec<Cell>)> {
    (2usize..9, 2usize..9, any::<u64>(), 0usize..3, any::<bool>()).prop_map(|(h, w, seed, extra, with_end)| {
        let mut rng = SplitMix64::new(seed);
        let start = (rng.below(h), rng.below(w));
        let mut on_walk = vec![vec![false; w]; h];
        on_walk[start.0][start.1] = true;
        let mut walk = Vec::new();
        let mut here = start;
        loop {
            let (r, c) = here;
            let options: Vec<Cell> = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)]
                .into_iter()
                .filter(|&(nr, nc)| nr < h && nc < w && !on_walk[nr][nc])
                .collect();
            if options.is_empty() || (walk.len() > 2 && rng.below(20) == 0) {
                break;
            }
            here = options[rng.below(options.len())];
            on_walk[here.0][here.1] = true;
            walk.push(here);
        }
        let mut rows: Vec<Vec<char>> =
            (0..h).map(|r| (0..w).map(|c| if on_walk[r][c] { '.' } else { '#' }).collect()).collect();
        rows[start.0][start.1] = 'S';
        // A few open tiles off the walk, which the route leaves.
        let mut left = 0;
        for _ in 0..extra {
            let (r, c) = (rng.below(h), rng.below(w));
            if rows[r][c] == '#' {
                rows[r][c] = '.';
                left += 1;
            }
        }
        if with_end && let Some(&(r, c)) = walk.last() {
            rows[r][c] = 'E';
        }
        (rows, left, walk)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]
    #[test]
    fn no_rule_refutes_a_room_with_a_route((rows, left, walk) in planted()) {
        prop_assume!(!walk.is_empty());
        let grid = Grid { rows, k: left };
        let puzzle = load_puzzle(&Source::from_text("room.toml", grid.model())).unwrap();
        let analysis = presolve::analyse(puzzle.room());
        if let Some(refutation) = &analysis.refutation {
            return Err(TestCaseError::fail(format!("{}\nk = {left}: {}", grid.text(), refutation.text)));
        }
        check_deductions(puzzle.room(), &analysis.deductions, &walk).map_err(|e| TestCaseError::fail(format!("{}\n{e}", grid.text())))?;
    }
}

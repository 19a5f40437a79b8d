//! `solve` (with and without the presolve and constructions), `count`,
//! `facts`, `explain` and `compare` agree with a depth-first search on
//! whether a route exists, on random rooms with scattered walls, an end tile
//! sometimes, and 0 to 2 tiles to leave. A wrong "no solution" is the worst
//! bug a solver can have; this is where a structural rule or deduction that
//! is wrong for some `leave_uncovered` would show.

use somaria::grid::{Dir, Grid};
use somaria::model::Source;
use somaria::puzzles::compare::{CompareOptions, compare};
use somaria::puzzles::tile_cover::{Cell, START, check, construct, load_puzzle, presolve};
use somaria::puzzles::{CountOptions, Puzzle, SolveOptions, Status};
use somaria::rng::SplitMix64;

use crate::common;

use common::models::tile_cover_model;
use common::rooms;

fn random_room(rng: &mut SplitMix64) -> (Vec<String>, usize) {
    let shapes = [(3, 3), (3, 4), (4, 4), (4, 5), (5, 5), (4, 6), (2, 5), (3, 5)];
    let (cells, k) = rooms::random_room(rng, &shapes, &[0, 5, 10, 15, 20]);
    (rooms::lines(&cells), k)
}

fn verdict(solved: bool) -> Status {
    if solved { Status::Solved } else { Status::NoSolution }
}

#[test]
fn every_command_agrees_with_depth_first_search_on_random_rooms() {
    let mut rng = SplitMix64::new(314);
    let mut solvable = 0;
    let mut built = 0;
    for case in 0..1500 {
        let (rows, k) = random_room(&mut rng);
        let puzzle = load_puzzle(&Source::from_text("room.toml", tile_cover_model(&rows.join("\n"), k))).unwrap();
        let truth = rooms::has_route(&rooms::from_lines(&rows), k);
        solvable += usize::from(truth);
        let context = || format!("case {case}, k = {k}, route exists: {truth}\n{}", rows.join("\n"));
        let expected = verdict(truth);
        let solve = puzzle.solve(&SolveOptions::default()).unwrap();
        assert_eq!(solve.status, expected, "solve\n{}\n{:?}", context(), solve.explanation);
        let bare = puzzle.solve(&SolveOptions { skip_presolve: true, ..Default::default() }).unwrap();
        assert_eq!(bare.status, expected, "solve --no-presolve\n{}", context());
        for skip_presolve in [false, true] {
            let count = puzzle.count(&CountOptions { limit: Some(1), skip_presolve, ..Default::default() }).unwrap();
            assert_eq!(count.count > 0, truth, "count (no presolve: {skip_presolve})\n{}", context());
        }
        let facts = puzzle.facts(&SolveOptions::default()).unwrap();
        assert_eq!(facts.status, expected, "facts\n{}", context());
        let explain = puzzle.explain(&SolveOptions::default()).unwrap();
        assert_eq!(explain.status, expected, "explain (k = {k})\n{}", context());
        let compared = compare(&puzzle, &CompareOptions::default()).unwrap();
        assert!(compared.agree, "compare\n{}", context());
        assert!(compared.results.iter().all(|r| r.status == expected), "compare\n{}", context());
        // A construction, when one applies, is a route the checker accepts.
        let analysis = presolve::analyse(puzzle.room());
        if analysis.refutation.is_none()
            && let Some(made) = construct::construct(puzzle.room(), Some(&analysis.deductions))
        {
            built += 1;
            let moves = moves_of(puzzle.grid(), puzzle.room(), &made.walk);
            check(puzzle.grid(), k, &moves).unwrap_or_else(|e| panic!("{} route: {e}\n{}", made.method, context()));
        }
    }
    assert!((450..=1200).contains(&solvable), "{solvable} of 1500 rooms solvable");
    eprintln!("{solvable} of 1500 rooms solvable, {built} routes built without SAT");
    // Most small solvable rooms get a route without SAT.
    assert!(built * 10 >= solvable * 7, "{built} built of {solvable} solvable");
}

fn moves_of(grid: &Grid<Cell>, room: &somaria::puzzles::tile_cover::Room, walk: &[usize]) -> Vec<Dir> {
    let mut here = room.position(START);
    walk.iter()
        .map(|&node| {
            let next = room.position(node);
            let dir = Dir::ALL.into_iter().find(|&d| grid.step(here, d) == Some(next)).expect("a step to a neighbour");
            here = next;
            dir
        })
        .collect()
}

/// Rooms from 5 × 5 to 10 × 10, too large for the depth-first search:
/// `solve` with the presolve, its deductions and the constructions must
/// agree with the lazy encoding alone, and every presolve refutation must be
/// confirmed by it.
#[test]
fn the_presolve_and_constructions_agree_with_sat_alone_on_larger_rooms() {
    let mut rng = SplitMix64::new(99);
    let mut refuted = 0;
    for case in 0..1500 {
        let shape = (5 + rng.below(6), 5 + rng.below(6));
        let wall_percent = [2, 5, 8, 12][rng.below(4)];
        let cells = rooms::scattered(&mut rng, shape, wall_percent, 4);
        let k = rng.below(3).min(rooms::tiles(&cells));
        let text = rooms::lines(&cells);
        let puzzle = load_puzzle(&Source::from_text("room.toml", tile_cover_model(&text.join("\n"), k))).unwrap();
        let analysis = presolve::analyse(puzzle.room());
        let bare = puzzle.solve(&SolveOptions { skip_presolve: true, ..Default::default() }).unwrap();
        let full = puzzle.solve(&SolveOptions::default()).unwrap();
        let context = || format!("case {case}, k = {k}\n{}", text.join("\n"));
        assert_eq!(bare.status, full.status, "{}\n{:?}", context(), full.explanation);
        if let Some(refutation) = analysis.refutation {
            refuted += 1;
            assert_eq!(bare.status, Status::NoSolution, "{}\nrefuted by {:?}", context(), refutation.rule);
        }
    }
    assert!((300..=1200).contains(&refuted), "{refuted} refuted");
}

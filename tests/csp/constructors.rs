//! No public constructor panics on any argument, and in particular not at
//! sizes 0 and 1: each returns a value or an error.

use proptest::prelude::*;
use somaria::cnf::card::{self, AmoEncoding, Bounds, Totalizer};
use somaria::cnf::{Cnf, Lit};
use somaria::grid::{Dir, Grid};
use somaria::puzzles::fans::generate::planted;
use somaria::puzzles::fans::{Cell, FanPuzzle, Hit};
use somaria::puzzles::keys_doors::{self, KeysDoorsPuzzle, maze};
use somaria::puzzles::tile_cover::{self, TileCoverPuzzle, rooms};
use somaria::puzzles::{Puzzle, SolveOptions};
use somaria::solver::{Answer, Solve, new_solver};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn planted_fan_rooms_of_any_size_build_or_refuse(
        rows in 0usize..4, cols in 0usize..4, fans in -1.0f64..2.0, walls in -1.0f64..2.0, seed: u64,
    ) {
        match planted(rows, cols, fans, walls, seed) {
            Ok(puzzle) => {
                prop_assert!(rows > 0 && cols > 0);
                // A planted room has its planted answer.
                prop_assert!(puzzle.solve_directions().unwrap().is_some());
            }
            Err(e) => prop_assert!(rows == 0 || cols == 0, "{e}"),
        }
    }

    #[test]
    fn listed_fan_puzzles_refuse_unknown_fans(fans in 0usize..3, hits in prop::collection::vec(prop::collection::vec((0usize..4, 0usize..4), 0..3), 0..3)) {
        let lists: Vec<Vec<Hit>> =
            hits.iter().map(|h| h.iter().map(|&(fan, d)| Hit { fan, dir: Dir::ALL[d] }).collect()).collect();
        let valid = hits.iter().flatten().all(|&(fan, _)| fan < fans);
        match FanPuzzle::from_list(fans, lists) {
            Ok(puzzle) => {
                prop_assert!(valid);
                puzzle.solve(&SolveOptions::default()).unwrap();
            }
            Err(_) => prop_assert!(!valid),
        }
    }

    #[test]
    fn cardinality_encodings_take_any_size(n in 0usize..3, k in 0usize..4, cutoff in 0usize..4) {
        let mut cnf = Cnf::new();
        let xs: Vec<Lit> = cnf.new_vars(n).into_iter().map(|v| v.pos()).collect();
        card::at_most_one_with(&mut cnf, &xs, AmoEncoding::Sequential);
        card::at_most_one_with(&mut cnf, &xs, AmoEncoding::Pairwise);
        card::at_most_k(&mut cnf, &xs, k);
        card::at_least_k(&mut cnf, &xs, k.min(n));
        let total = Totalizer::build(&mut cnf, &xs, cutoff, Bounds::Both);
        prop_assert_eq!(total.outputs().len(), n.min(cutoff));
        let answer = new_solver(&cnf, None).solve().unwrap();
        // At most one, at most k and at least min(k, n, 1): satisfiable
        // unless at least k > 1 true is asked of at most one.
        prop_assert_eq!(answer == Answer::Sat, k.min(n) <= 1);
    }
}

#[test]
fn grids_of_no_cells_are_refused_and_one_cell_is_a_grid() {
    assert!(Grid::<Cell>::from_rows(vec![]).is_none());
    assert!(Grid::<Cell>::from_rows(vec![vec![]]).is_none());
    let one = Grid::from_rows(vec![vec![Cell::Weathercock]]).unwrap();
    let puzzle = FanPuzzle::from_grid(one);
    assert_eq!(puzzle.solve_directions().unwrap(), None);
    let fan = FanPuzzle::from_grid(Grid::from_rows(vec![vec![Cell::Fan]]).unwrap());
    assert!(fan.solve_directions().unwrap().is_some());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Every generator builds a loadable puzzle or says why it cannot.
    #[test]
    fn generators_build_or_refuse(size in 0usize..5, keys in 0usize..30, walkers in 0usize..6, seed: u64, pct in -5.0f64..110.0) {
        let tile = |grid: String| TileCoverPuzzle::new(
            somaria::grid::Grid::from_rows(grid.lines().map(|l| l.chars().map(|c| tile_cover::Cell::from_symbol(c).unwrap()).collect()).collect()).unwrap(), 0);
        if let Ok(grid) = rooms::prefix_room(size, size * size, seed, true) {
            prop_assert!(size >= 2);
            tile(grid).unwrap();
        }
        let scattered = [rooms::scattered_room(size, pct, seed), rooms::scattered_room_without_dead_ends(size, pct, seed)];
        for grid in scattered.into_iter().flatten() {
            tile(grid).unwrap();
        }
        if let Ok(grid) = rooms::open_room(size, size + 1, (0, 0), Some((size.saturating_sub(1), size))) {
            tile(grid).unwrap();
        }
        let vault = |grid: String| KeysDoorsPuzzle::from_picture(&grid).map(|_| ());
        if let Ok(grid) = maze::generate(size * 2 + 1, size * 2 + 3, keys, 10, seed) {
            prop_assert!(vault(grid).is_ok());
        }
        if let Ok(grid) = maze::open_room(size, size + 1, keys, seed) {
            prop_assert!(vault(grid).is_ok());
        }
        prop_assert_eq!(maze::vault(seed, walkers).is_ok(), walkers == 1 || walkers == 4);
    }
}

#[test]
fn puzzles_without_their_start_are_refused() {
    let grid = |rows: &[&str], cell: fn(char) -> Option<tile_cover::Cell>| {
        Grid::from_rows(rows.iter().map(|r| r.chars().map(|c| cell(c).unwrap()).collect()).collect()).unwrap()
    };
    assert!(TileCoverPuzzle::new(grid(&["..", ".#"], tile_cover::Cell::from_symbol), 0).is_err());
    assert!(TileCoverPuzzle::new(grid(&["SS", ".#"], tile_cover::Cell::from_symbol), 0).is_err());
    assert!(TileCoverPuzzle::new(grid(&["S.", "EE"], tile_cover::Cell::from_symbol), 0).is_err());
    assert!(TileCoverPuzzle::new(grid(&["S.", ".."], tile_cover::Cell::from_symbol), 5).is_err());
    assert!(
        TileCoverPuzzle::new(grid(&["S#"], tile_cover::Cell::from_symbol), 0).is_ok(),
        "a room with nothing to cover"
    );
    assert!(TileCoverPuzzle::new(grid(&["S.", ".E"], tile_cover::Cell::from_symbol), 1).is_ok());
    let keys = Grid::from_rows(vec![vec![keys_doors::Cell::Floor, keys_doors::Cell::Key('a')]]).unwrap();
    assert!(KeysDoorsPuzzle::from_grid(keys).is_err());
}

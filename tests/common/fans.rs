//! Random fan grids for the suites that check the fans family against a
//! brute force or another encoding.

use proptest::prelude::*;

/// Grids up to 5 × 5 of fans, weathercocks, floor and walls, with at most
/// six fans, so at most 4^6 assignments of directions.
pub fn small_grid() -> impl Strategy<Value = Vec<Vec<char>>> {
    (1usize..=5, 1usize..=5)
        .prop_flat_map(|(h, w)| {
            prop::collection::vec(prop::collection::vec(prop::sample::select(vec!['F', 'W', 'W', '.', '#']), w), h)
        })
        .prop_filter("at most six fans", |rows| rows.iter().flatten().filter(|&&c| c == 'F').count() <= 6)
}

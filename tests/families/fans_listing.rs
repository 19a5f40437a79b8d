//! The shrine's grid, read with the wind rule, yields exactly the article's
//! fourteen constraints once fans and weathercocks are renumbered column by
//! column, top to bottom.

use std::collections::BTreeSet;

use somaria::grid::{Dir, Pos};
use somaria::model::Source;
use somaria::puzzles::fans::{FanPuzzle, load_puzzle};

fn load(path: &str) -> FanPuzzle {
    load_puzzle(&Source::read(path.as_ref()).unwrap()).unwrap()
}

fn column_major(places: impl Iterator<Item = Pos>) -> Vec<Pos> {
    let mut places: Vec<Pos> = places.collect();
    places.sort_by_key(|&(row, col)| (col, row));
    places
}

#[test]
fn grid_constraints_equal_the_listing_under_column_major_numbering() {
    let grid = load("models/akh-vaquot.toml");
    let listed = load("models/akh-vaquot-listed.toml");
    let fan_order = column_major((0..grid.num_fans()).map(|i| grid.fan_place(i).unwrap()));
    let fan_number = |reading_index: usize| {
        let place = grid.fan_place(reading_index).unwrap();
        fan_order.iter().position(|&p| p == place).unwrap()
    };
    let cock_order = column_major(grid.weathercocks().iter().map(|w| w.place.unwrap()));
    assert_eq!(grid.weathercocks().len(), 14);
    assert_eq!(listed.weathercocks().len(), 14);
    for (article_index, place) in cock_order.iter().enumerate() {
        let from_grid: BTreeSet<(usize, Dir)> = grid
            .weathercocks()
            .iter()
            .find(|w| w.place == Some(*place))
            .unwrap()
            .hit_by
            .iter()
            .map(|h| (fan_number(h.fan), h.dir))
            .collect();
        let from_listing: BTreeSet<(usize, Dir)> =
            listed.weathercocks()[article_index].hit_by.iter().map(|h| (h.fan, h.dir)).collect();
        assert_eq!(from_grid, from_listing, "weathercock {article_index} at {place:?}");
    }
}

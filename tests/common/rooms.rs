//! Tile rooms for the tile-cover suites, as rows of `S` (the start), `E`
//! (an end tile), `.` (a tile) and `#` (a wall): random rooms with scattered
//! walls, and every walk through a room, found by a plain depth-first
//! search that shares nothing with somaria.
//!
//! `somaria::puzzles::tile_cover::rooms::scattered_room` draws square rooms
//! with balanced colours; the suites draw rectangles, unbalanced too, so
//! their rooms are drawn here.

use somaria::rng::SplitMix64;

/// A (row, column) place in a room.
pub type Cell = (usize, usize);

/// The rows as characters.
pub fn from_lines(rows: &[impl AsRef<str>]) -> Vec<Vec<char>> {
    rows.iter().map(|r| r.as_ref().chars().collect()).collect()
}

/// The rows as text, a string a row.
pub fn lines(cells: &[Vec<char>]) -> Vec<String> {
    cells.iter().map(|r| r.iter().collect()).collect()
}

/// How many tiles (`.` and `E`) the room has.
pub fn tiles(cells: &[Vec<char>]) -> usize {
    cells.iter().flatten().filter(|&&c| c == '.' || c == 'E').count()
}

/// A `h` × `w` room drawn from `rng`: each cell in reading order a wall with
/// a chance of `wall_percent` in 100, then the start on a random cell and,
/// one time in `end_one_in`, an end tile on another random cell (none when
/// that draw is the start).
pub fn scattered(
    rng: &mut SplitMix64,
    (h, w): (usize, usize),
    wall_percent: usize,
    end_one_in: usize,
) -> Vec<Vec<char>> {
    let mut cells: Vec<Vec<char>> =
        (0..h).map(|_| (0..w).map(|_| if rng.below(100) < wall_percent { '#' } else { '.' }).collect()).collect();
    let start = rng.below(h * w);
    cells[start / w][start % w] = 'S';
    if rng.below(end_one_in) == 0 {
        let end = rng.below(h * w);
        if end != start {
            cells[end / w][end % w] = 'E';
        }
    }
    cells
}

/// A [`scattered`] room drawn from `rng` with a shape from `shapes`, a wall
/// chance from `wall_percents` and an end tile one time in four, and how
/// many tiles it may leave: 0 to 2, and no more than it has.
pub fn random_room(rng: &mut SplitMix64, shapes: &[Cell], wall_percents: &[usize]) -> (Vec<Vec<char>>, usize) {
    let shape = shapes[rng.below(shapes.len())];
    let wall_percent = wall_percents[rng.below(wall_percents.len())];
    let cells = scattered(rng, shape, wall_percent, 4);
    let k = rng.below(3).min(tiles(&cells));
    (cells, k)
}

/// Every walk from the start over distinct tiles that a route could be: at
/// least one tile, and ending on `E` when there is one (no walk goes on
/// from `E`). Each is handed to `visit` as the tiles in the order walked;
/// `visit` returns false to stop the search.
pub fn walks(cells: &[Vec<char>], visit: &mut dyn FnMut(&[Cell]) -> bool) {
    let find = |symbol: char| {
        (0..cells.len()).flat_map(|r| (0..cells[0].len()).map(move |c| (r, c))).find(|&(r, c)| cells[r][c] == symbol)
    };
    let start = find('S').unwrap();
    let has_end = find('E').is_some();
    let mut seen = vec![vec![false; cells[0].len()]; cells.len()];
    fn go(
        cells: &[Vec<char>],
        seen: &mut Vec<Vec<bool>>,
        path: &mut Vec<Cell>,
        (r, c): Cell,
        has_end: bool,
        visit: &mut dyn FnMut(&[Cell]) -> bool,
    ) -> bool {
        let here = cells[r][c];
        if !path.is_empty() && (!has_end || here == 'E') && !visit(path) {
            return false;
        }
        if here == 'E' {
            return true;
        }
        for (nr, nc) in [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)] {
            if nr < cells.len() && nc < cells[0].len() && matches!(cells[nr][nc], '.' | 'E') && !seen[nr][nc] {
                seen[nr][nc] = true;
                path.push((nr, nc));
                let going = go(cells, seen, path, (nr, nc), has_end, visit);
                path.pop();
                seen[nr][nc] = false;
                if !going {
                    return false;
                }
            }
        }
        true
    }
    go(cells, &mut seen, &mut Vec::new(), start, has_end, visit);
}

/// How many routes the room has: [`walks`] that leave at most `k` tiles.
pub fn count_routes(cells: &[Vec<char>], k: usize) -> u64 {
    let need = tiles(cells).saturating_sub(k);
    let mut routes = 0;
    walks(cells, &mut |path| {
        routes += u64::from(path.len() >= need);
        true
    });
    routes
}

/// Whether the room has a route: a [`walks`] that leaves at most `k` tiles.
pub fn has_route(cells: &[Vec<char>], k: usize) -> bool {
    let need = tiles(cells).saturating_sub(k);
    let mut found = false;
    walks(cells, &mut |path| {
        found = path.len() >= need;
        !found
    });
    found
}

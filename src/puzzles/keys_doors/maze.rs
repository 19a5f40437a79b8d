//! Seeded maze generation for benches, tests and the example models.
//!
//! A maze is carved by depth-first search on the odd cells, so it starts as a
//! tree. Keys go on random cells, in a random order of collection, and each
//! key's door goes on the tree path to the next key in that order, off the
//! paths to the keys before it; the last key's door closes a corridor that
//! leads to no key. Collecting the keys in that order therefore always
//! works, and knocking out extra walls afterwards (to make loops) only adds
//! routes.

use crate::rng::SplitMix64;

/// A solvable maze of `rows` × `cols` cells (at least 3 × 3) with `keys` keys
/// (at most 26) and as many doors, `@` at the top left. `loops_percent` of
/// the inner walls between corridors are knocked out to make loops.
///
/// ```
/// use somaria::puzzles::keys_doors::{maze, KeysDoorsPuzzle};
/// let picture = maze::generate(9, 11, 3, 10, 7);
/// let puzzle = KeysDoorsPuzzle::from_picture(&picture).unwrap();
/// assert_eq!(puzzle.keys().len(), 3);
/// assert!(puzzle.shortest_route("bfs").unwrap().is_some());
/// ```
pub fn generate(rows: usize, cols: usize, keys: usize, loops_percent: usize, seed: u64) -> String {
    assert!(rows >= 3 && cols >= 3 && keys <= 26, "a maze needs 3 x 3 cells and at most 26 keys");
    let mut rng = SplitMix64::new(seed);
    let mut grid = vec![vec!['#'; cols]; rows];
    let mut parent: Vec<Vec<Option<(usize, usize)>>> = vec![vec![None; cols]; rows];
    let rooms: Vec<(usize, usize)> =
        (1..rows - 1).step_by(2).flat_map(|r| (1..cols - 1).step_by(2).map(move |c| (r, c))).collect();
    grid[1][1] = '.';
    let mut stack = vec![(1usize, 1usize)];
    while let Some(&(r, c)) = stack.last() {
        let mut options = Vec::new();
        if r >= 3 && grid[r - 2][c] == '#' {
            options.push((r - 2, c));
        }
        if r + 2 < rows - 1 && grid[r + 2][c] == '#' {
            options.push((r + 2, c));
        }
        if c >= 3 && grid[r][c - 2] == '#' {
            options.push((r, c - 2));
        }
        if c + 2 < cols - 1 && grid[r][c + 2] == '#' {
            options.push((r, c + 2));
        }
        if options.is_empty() {
            stack.pop();
            continue;
        }
        let (nr, nc) = options[rng.below(options.len())];
        let corridor = ((r + nr) / 2, (c + nc) / 2);
        grid[corridor.0][corridor.1] = '.';
        grid[nr][nc] = '.';
        parent[corridor.0][corridor.1] = Some((r, c));
        parent[nr][nc] = Some(corridor);
        stack.push((nr, nc));
    }

    let path_to = |cell: (usize, usize)| {
        let mut path = vec![cell];
        while let Some(up) = parent[path.last().unwrap().0][path.last().unwrap().1] {
            path.push(up);
        }
        path
    };
    let mut key_cells: Vec<(usize, usize)> = Vec::new();
    let candidates: Vec<(usize, usize)> = rooms.iter().copied().filter(|&p| p != (1, 1)).collect();
    while key_cells.len() < keys.min(candidates.len()) {
        let cell = candidates[rng.below(candidates.len())];
        if !key_cells.contains(&cell) {
            key_cells.push(cell);
        }
    }
    // Letters in a shuffled order, so the order of collection is not a-b-c.
    let mut letters: Vec<char> = ('a'..='z').take(key_cells.len()).collect();
    for i in (1..letters.len()).rev() {
        letters.swap(i, rng.below(i + 1));
    }
    let paths: Vec<Vec<(usize, usize)>> = key_cells.iter().map(|&k| path_to(k)).collect();
    for (i, &(r, c)) in key_cells.iter().enumerate() {
        grid[r][c] = letters[i];
    }
    grid[1][1] = '@';
    let on_earlier_path = |cell: &(usize, usize), upto: usize| paths[..=upto].iter().any(|p| p.contains(cell));
    for (i, letter) in letters[..key_cells.len()].iter().enumerate() {
        let door = letter.to_ascii_uppercase();
        let choices: Vec<(usize, usize)> = match paths.get(i + 1) {
            Some(next_path) => next_path.iter().copied().filter(|cell| !on_earlier_path(cell, i)).collect(),
            None => rooms.iter().copied().filter(|cell| !on_earlier_path(cell, i)).collect(),
        };
        let choices: Vec<(usize, usize)> = choices.into_iter().filter(|&(r, c)| grid[r][c] == '.').collect();
        if !choices.is_empty() {
            let (r, c) = choices[rng.below(choices.len())];
            grid[r][c] = door;
        }
    }
    for r in 1..rows - 1 {
        for c in 1..cols - 1 {
            let between_rows = r % 2 == 0 && r + 1 < rows - 1 && grid[r - 1][c] != '#' && grid[r + 1][c] != '#';
            let between_cols = c % 2 == 0 && c + 1 < cols - 1 && grid[r][c - 1] != '#' && grid[r][c + 1] != '#';
            if grid[r][c] == '#' && (between_rows ^ between_cols) && rng.below(100) < loops_percent {
                grid[r][c] = '.';
            }
        }
    }
    grid.iter().map(|row| row.iter().collect::<String>()).collect::<Vec<_>>().join("\n")
}

/// A whole model file around [`generate`].
pub fn model(title: &str, rows: usize, cols: usize, keys: usize, loops_percent: usize, seed: u64) -> String {
    let grid = generate(rows, cols, keys, loops_percent, seed);
    format!("kind = \"keys-doors\"\ntitle = {title:?}\ngrid = \"\"\"\n{grid}\n\"\"\"\n")
}

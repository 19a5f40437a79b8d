//! Seeded maze generation for benches, tests and the example models.
//!
//! A maze is carved by depth-first search on the odd cells, so it starts as a
//! tree. Keys go on random cells, in a random order of collection, and each
//! key's door goes on the tree path to the next key in that order, off the
//! paths to the keys before it; the last key's door closes a corridor that
//! leads to no key. Collecting the keys in that order therefore always
//! works, and knocking out extra walls afterwards (to make loops) only adds
//! routes.

use crate::puzzles::GenerateError;
use crate::rng::SplitMix64;

/// A solvable maze of `rows` × `cols` cells (at least 3 × 3) with `keys` keys
/// (at most 26) and as many doors, `@` at the top left. `loops_percent` of
/// the inner walls between corridors are knocked out to make loops.
///
/// ```
/// use somaria::puzzles::keys_doors::{maze, Engine, KeysDoorsPuzzle};
/// let picture = maze::generate(9, 11, 3, 10, 7).unwrap();
/// let puzzle = KeysDoorsPuzzle::from_picture(&picture).unwrap();
/// assert_eq!(puzzle.keys().len(), 3);
/// assert!(puzzle.shortest_route(Engine::Bfs).unwrap().is_some());
/// ```
pub fn generate(
    rows: usize,
    cols: usize,
    keys: usize,
    loops_percent: usize,
    seed: u64,
) -> Result<String, GenerateError> {
    if rows < 3 || cols < 3 {
        return Err(GenerateError::new(format!("a {rows} x {cols} maze"), "at least 3 x 3 cells"));
    }
    let rooms = (rows - 1) / 2 * ((cols - 1) / 2);
    if keys > 26 || keys >= rooms {
        let found = format!("{keys} keys in a {rows} x {cols} maze");
        return Err(GenerateError::new(found, format!("at most 26 keys, and fewer than its {rooms} rooms")));
    }
    Ok(carve(rows, cols, keys, loops_percent, seed))
}

fn carve(rows: usize, cols: usize, keys: usize, loops_percent: usize, seed: u64) -> String {
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
    rng.shuffle(&mut letters);
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
pub fn model(
    title: &str,
    rows: usize,
    cols: usize,
    keys: usize,
    loops_percent: usize,
    seed: u64,
) -> Result<String, GenerateError> {
    let grid = generate(rows, cols, keys, loops_percent, seed)?;
    Ok(format!("kind = \"keys-doors\"\ntitle = {title:?}\ngrid = \"\"\"\n{grid}\n\"\"\"\n"))
}

/// The side of a vault.
pub const VAULT_SIDE: usize = 81;

/// A vault: an 81 × 81 perfect maze in four quarters that meet only in the
/// 3 × 3 centre, with 26 keys and 26 doors, the form of the
/// best-known keys-and-doors puzzle. With `walkers == 1` the centre is open
/// with `@` in the middle; with `walkers == 4` the centre's cross is walled
/// and a walker starts in each quarter's corner next to it. The same seed
/// gives the same maze, keys and doors in both forms.
///
/// Each quarter is carved by depth-first search from its corner by the
/// centre, so it is a tree hanging from the centre. Keys go on random rooms
/// in a random order of collection, and each key's door goes on the tree
/// path from the centre to the next key in that order, off the paths to the
/// keys before it (the last key's door on a corridor off all of them).
/// Collecting the keys in that order works in both forms: a walker confined
/// to a quarter walks the same tree paths as one coming from the centre.
///
/// ```
/// use somaria::puzzles::keys_doors::{maze, Engine, KeysDoorsPuzzle};
/// let one = KeysDoorsPuzzle::from_picture(&maze::vault(7, 1).unwrap()).unwrap();
/// let four = KeysDoorsPuzzle::from_picture(&maze::vault(7, 4).unwrap()).unwrap();
/// assert!(maze::vault(7, 2).is_err());
/// assert_eq!((one.keys().len(), one.starts().len(), four.starts().len()), (26, 1, 4));
/// assert!(four.shortest_route(Engine::Keygraph).unwrap().is_some());
/// ```
pub fn vault(seed: u64, walkers: usize) -> Result<String, GenerateError> {
    if walkers != 1 && walkers != 4 {
        return Err(GenerateError::new(format!("a vault with {walkers} walkers"), "one walker or four"));
    }
    Ok(carve_vault(seed, walkers))
}

fn carve_vault(seed: u64, walkers: usize) -> String {
    let side = VAULT_SIDE;
    let centre = side / 2;
    let mut rng = SplitMix64::new(seed);
    let mut grid = vec![vec!['#'; side]; side];
    let mut parent: Vec<Vec<Option<(usize, usize)>>> = vec![vec![None; side]; side];
    let corners =
        [(centre - 1, centre - 1), (centre - 1, centre + 1), (centre + 1, centre - 1), (centre + 1, centre + 1)];
    // The quarters' room ranges: odd rows and columns on one side of the centre.
    let quarter_of = |(r, c): (usize, usize)| (r > centre, c > centre);
    for &corner in &corners {
        grid[corner.0][corner.1] = '.';
        parent[corner.0][corner.1] = Some((centre, centre));
        let mut stack = vec![corner];
        while let Some(&(r, c)) = stack.last() {
            let mut options = Vec::new();
            for (dr, dc) in [(-2i64, 0i64), (2, 0), (0, -2), (0, 2)] {
                let (nr, nc) = (r as i64 + dr, c as i64 + dc);
                if nr < 1 || nc < 1 || nr > side as i64 - 2 || nc > side as i64 - 2 {
                    continue;
                }
                let next = (nr as usize, nc as usize);
                if quarter_of(next) == quarter_of(corner) && grid[next.0][next.1] == '#' {
                    options.push(next);
                }
            }
            if options.is_empty() {
                stack.pop();
                continue;
            }
            let next = options[rng.below(options.len())];
            let corridor = ((r + next.0) / 2, (c + next.1) / 2);
            grid[corridor.0][corridor.1] = '.';
            grid[next.0][next.1] = '.';
            parent[corridor.0][corridor.1] = Some((r, c));
            parent[next.0][next.1] = Some(corridor);
            stack.push(next);
        }
    }
    let path_to = |cell: (usize, usize)| {
        let mut path = vec![cell];
        while let Some(up) = parent[path.last().unwrap().0][path.last().unwrap().1] {
            if up == (centre, centre) {
                break;
            }
            path.push(up);
        }
        path
    };
    let rooms: Vec<(usize, usize)> = (1..side - 1)
        .step_by(2)
        .flat_map(|r| (1..side - 1).step_by(2).map(move |c| (r, c)))
        .filter(|room| !corners.contains(room))
        .collect();
    let mut key_cells: Vec<(usize, usize)> = Vec::new();
    while key_cells.len() < 26 {
        let cell = rooms[rng.below(rooms.len())];
        if !key_cells.contains(&cell) {
            key_cells.push(cell);
        }
    }
    let mut letters: Vec<char> = ('a'..='z').collect();
    rng.shuffle(&mut letters);
    let paths: Vec<Vec<(usize, usize)>> = key_cells.iter().map(|&k| path_to(k)).collect();
    for (i, &(r, c)) in key_cells.iter().enumerate() {
        grid[r][c] = letters[i];
    }
    let on_earlier_path = |cell: &(usize, usize), upto: usize| paths[..=upto].iter().any(|p| p.contains(cell));
    for (i, letter) in letters.iter().enumerate() {
        // On the path to a later key, where it leaves the earlier paths, or
        // for the last key (or when no later path leaves them) on any room
        // off the earlier paths.
        let usable =
            |cell: &(usize, usize)| !on_earlier_path(cell, i) && grid[cell.0][cell.1] == '.' && !corners.contains(cell);
        let later: Vec<Vec<(usize, usize)>> = paths[i + 1..]
            .iter()
            .map(|p| p.iter().copied().filter(usable).collect::<Vec<_>>())
            .filter(|choices| !choices.is_empty())
            .collect();
        let choices = match later.len() {
            0 => rooms.iter().copied().filter(usable).collect(),
            n => later[rng.below(n)].clone(),
        };
        if !choices.is_empty() {
            let (r, c) = choices[rng.below(choices.len())];
            grid[r][c] = letter.to_ascii_uppercase();
        }
    }
    for (r, row) in grid.iter_mut().enumerate().take(centre + 2).skip(centre - 1) {
        for (c, cell) in row.iter_mut().enumerate().take(centre + 2).skip(centre - 1) {
            *cell = match (walkers, corners.contains(&(r, c))) {
                (4, true) => '@',
                (4, false) => '#',
                _ => '.',
            };
        }
    }
    if walkers == 1 {
        grid[centre][centre] = '@';
    }
    grid.iter().map(|row| row.iter().collect::<String>()).collect::<Vec<_>>().join("\n")
}

/// A whole model file around [`vault`].
pub fn vault_model(title: &str, seed: u64, walkers: usize) -> Result<String, GenerateError> {
    let grid = vault(seed, walkers)?;
    Ok(format!("kind = \"keys-doors\"\ntitle = {title:?}\ngrid = \"\"\"\n{grid}\n\"\"\"\n"))
}

/// An open room of `rows` × `cols` floor cells (no walls, no doors) with
/// `@` in the top left corner and `keys` keys (at most 26) on random cells:
/// the kind of grid where the key sets a search must track explode.
///
/// ```
/// use somaria::puzzles::keys_doors::{maze, KeysDoorsPuzzle};
/// let room = KeysDoorsPuzzle::from_picture(&maze::open_room(10, 12, 26, 1).unwrap()).unwrap();
/// assert_eq!(room.keys().len(), 26);
/// assert!(maze::open_room(2, 2, 4, 1).is_err());
/// ```
pub fn open_room(rows: usize, cols: usize, keys: usize, seed: u64) -> Result<String, GenerateError> {
    if keys > 26 || keys >= rows * cols {
        let found = format!("{keys} keys in a {rows} x {cols} room");
        return Err(GenerateError::new(found, "at most 26 keys, and a free cell for each beside the start"));
    }
    Ok(place_keys(rows, cols, keys, seed))
}

fn place_keys(rows: usize, cols: usize, keys: usize, seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut grid = vec![vec!['.'; cols]; rows];
    grid[0][0] = '@';
    let mut placed = 0;
    while placed < keys {
        let (r, c) = (rng.below(rows), rng.below(cols));
        if grid[r][c] == '.' {
            grid[r][c] = (b'a' + placed as u8) as char;
            placed += 1;
        }
    }
    grid.iter().map(|row| row.iter().collect::<String>()).collect::<Vec<_>>().join("\n")
}

//! Irregular rooms for tests, benches and example models: a prefix of a
//! random Hamiltonian path of the n × n grid, with every cell after the
//! prefix walled off. The prefix itself is a route, so such a room is
//! solvable; walling one more cell of the right colour breaks the colour
//! balance and makes it unsolvable.

use crate::grid::Pos;
use crate::rng::SplitMix64;

/// A random Hamiltonian path of the `rows` × `cols` grid, by backbite moves
/// from a serpentine path: join an end to one of its grid neighbours on
/// the path, which closes a loop, and open the loop at the other side.
///
/// ```
/// use somaria::puzzles::tile_cover::rooms::hamiltonian_path;
/// let path = hamiltonian_path(4, 5, 7);
/// assert_eq!(path.len(), 20);
/// assert!(path.windows(2).all(|w| w[0].0.abs_diff(w[1].0) + w[0].1.abs_diff(w[1].1) == 1));
/// ```
pub fn hamiltonian_path(rows: usize, cols: usize, seed: u64) -> Vec<Pos> {
    let mut path: Vec<Pos> =
        (0..rows).flat_map(|r| (0..cols).map(move |c| if r % 2 == 0 { (r, c) } else { (r, cols - 1 - c) })).collect();
    if path.len() < 3 {
        return path;
    }
    let mut index_of = vec![0usize; rows * cols];
    for (i, &(r, c)) in path.iter().enumerate() {
        index_of[r * cols + c] = i;
    }
    let mut rng = SplitMix64::new(seed);
    let moves = 20 * rows * cols;
    for _ in 0..moves {
        if rng.below(2) == 1 {
            path.reverse();
            for (i, &(r, c)) in path.iter().enumerate() {
                index_of[r * cols + c] = i;
            }
        }
        let (r, c) = path[0];
        let neighbours = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
        let (nr, nc) = neighbours[rng.below(4)];
        if nr >= rows || nc >= cols {
            continue;
        }
        let i = index_of[nr * cols + nc];
        if i < 2 {
            continue;
        }
        path[..i].reverse();
        for (j, &(r, c)) in path[..i].iter().enumerate() {
            index_of[r * cols + c] = j;
        }
    }
    path
}

/// A room of `size` × `size` whose start and tiles are the first `cells`
/// cells of a random Hamiltonian path; with `solvable` false, one more
/// cell is walled to leave the colours unbalanced. Returns the grid text.
///
/// ```
/// use somaria::puzzles::tile_cover::rooms::prefix_room;
/// let room = prefix_room(6, 30, 1, true);
/// assert_eq!(room.lines().count(), 6);
/// assert_eq!(room.matches('S').count(), 1);
/// assert_eq!(room.matches('.').count(), 29);
/// ```
pub fn prefix_room(size: usize, cells: usize, seed: u64, solvable: bool) -> String {
    let path = hamiltonian_path(size, size, seed);
    let cells = cells.clamp(1, path.len());
    let mut marks = vec![vec!['#'; size]; size];
    for &(r, c) in &path[..cells] {
        marks[r][c] = '.';
    }
    let (r0, c0) = path[0];
    marks[r0][c0] = 'S';
    if !solvable && cells >= 3 {
        // With an odd count the start's colour has one more, so taking one of
        // the other colour leaves a difference of two; with an even count
        // the colours are equal and taking one of the start's colour leaves
        // the other ahead.
        let take_start_colour = cells.is_multiple_of(2);
        let candidates: Vec<Pos> = path[1..cells]
            .iter()
            .copied()
            .filter(|&(r, c)| ((r + c) % 2 == (r0 + c0) % 2) == take_start_colour)
            .collect();
        let mut rng = SplitMix64::new(seed ^ 0xA5A5);
        let (r, c) = candidates[rng.below(candidates.len())];
        marks[r][c] = '#';
    }
    marks.into_iter().map(|row| row.into_iter().collect::<String>() + "\n").collect()
}

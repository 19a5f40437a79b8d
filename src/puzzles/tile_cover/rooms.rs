//! Irregular rooms for tests, benches and example models: a prefix of a
//! random Hamiltonian path of the n × n grid, with every cell after the
//! prefix walled off. The prefix itself is a route, so such a room is
//! solvable; walling one more cell of the right colour breaks the colour
//! balance and makes it unsolvable.

use crate::grid::Pos;
use crate::puzzles::GenerateError;
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
/// let room = prefix_room(6, 30, 1, true).unwrap();
/// assert_eq!(room.lines().count(), 6);
/// assert_eq!(room.matches('S').count(), 1);
/// assert_eq!(room.matches('.').count(), 29);
/// ```
pub fn prefix_room(size: usize, cells: usize, seed: u64, solvable: bool) -> Result<String, GenerateError> {
    if size < 2 {
        return Err(GenerateError::new(format!("a {size} x {size} room"), "a side of at least 2"));
    }
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
    Ok(marks.into_iter().map(|row| row.into_iter().collect::<String>() + "\n").collect())
}

/// A square room of `size` × `size` with about `wall_percent` % of its cells
/// walled at random, the start on a random open cell, every cell the start
/// cannot reach walled, and the colours balanced: counting the start, the
/// start's colour has as many cells as the other or one more, so the colour
/// count alone never refutes it. Balancing walls random cells of the larger
/// colour, preferring ones whose wall keeps the room in one piece. Returns
/// the grid text; the room depends on the arguments alone.
///
/// Such rooms are the test bed for the structural presolve: most have a
/// route, and those that do not usually fail for a reason a player can see
/// (a dead end, a cut tile, a forced chain).
///
/// ```
/// use somaria::puzzles::tile_cover::rooms::scattered_room;
/// let room = scattered_room(12, 5.0, 3).unwrap();
/// assert_eq!(room.lines().count(), 12);
/// assert_eq!(room.matches('S').count(), 1);
/// assert_eq!(room, scattered_room(12, 5.0, 3).unwrap());
/// assert!(scattered_room(1, 5.0, 3).is_err());
/// ```
pub fn scattered_room(size: usize, wall_percent: f64, seed: u64) -> Result<String, GenerateError> {
    generate_scattered(size, wall_percent, seed, false)
}

/// [`scattered_room`], but every tile left with one open side is walled
/// too (which may leave others with one, walled in turn) before the colours
/// are balanced: rooms whose impossibility, when they have no route, lies
/// deeper than a dead end.
///
/// ```
/// use somaria::puzzles::tile_cover::rooms::scattered_room_without_dead_ends;
/// let room = scattered_room_without_dead_ends(16, 8.0, 2).unwrap();
/// assert_eq!(room.matches('S').count(), 1);
/// ```
pub fn scattered_room_without_dead_ends(size: usize, wall_percent: f64, seed: u64) -> Result<String, GenerateError> {
    generate_scattered(size, wall_percent, seed, true)
}

fn generate_scattered(size: usize, wall_percent: f64, seed: u64, prune: bool) -> Result<String, GenerateError> {
    if size < 2 {
        return Err(GenerateError::new(format!("a {size} x {size} room"), "a side of at least 2"));
    }
    if !(0.0..=100.0).contains(&wall_percent) {
        return Err(GenerateError::new(format!("{wall_percent}% walls"), "a share from 0 to 100"));
    }
    Ok(generate_scattered_room(size, wall_percent, seed, prune))
}

fn generate_scattered_room(size: usize, wall_percent: f64, seed: u64, prune_dead_ends: bool) -> String {
    let mut rng = SplitMix64::new(seed);
    let cells = size * size;
    if cells == 0 {
        return String::new();
    }
    let mut wall = vec![false; cells];
    let walls = ((cells as f64) * wall_percent.clamp(0.0, 100.0) / 100.0).round() as usize;
    let mut order: Vec<usize> = (0..cells).collect();
    for i in 0..walls.min(cells - 1) {
        let j = i + rng.below(cells - i);
        order.swap(i, j);
        wall[order[i]] = true;
    }
    let open: Vec<usize> = (0..cells).filter(|&i| !wall[i]).collect();
    let room = Square { size, start: open[rng.below(open.len())] };
    room.cut_to_region(&mut wall);
    if prune_dead_ends {
        room.prune_dead_ends(&mut wall);
    }
    room.balance_colours(&mut wall, &mut rng);
    room.text(&wall)
}

/// A square room of `size` × `size` cells, row by row, walked from `start`.
struct Square {
    size: usize,
    start: usize,
}

impl Square {
    fn cells(&self) -> usize {
        self.size * self.size
    }

    /// Whether cell `i` has the start's colour on a chessboard.
    fn colour(&self, i: usize) -> bool {
        let size = self.size;
        (i / size + i % size) % 2 == (self.start / size + self.start % size) % 2
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (size, r, c) = (self.size, i / self.size, i % self.size);
        let mut list = Vec::with_capacity(4);
        if r > 0 {
            list.push(i - size);
        }
        if r + 1 < size {
            list.push(i + size);
        }
        if c > 0 {
            list.push(i - 1);
        }
        if c + 1 < size {
            list.push(i + 1);
        }
        list
    }

    /// The cells the start reaches, given the walls.
    fn region(&self, wall: &[bool]) -> Vec<bool> {
        let mut seen = vec![false; self.cells()];
        seen[self.start] = true;
        let mut stack = vec![self.start];
        while let Some(i) = stack.pop() {
            for n in self.neighbours(i) {
                if !wall[n] && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        seen
    }

    /// Walls every cell the start does not reach.
    fn cut_to_region(&self, wall: &mut [bool]) {
        let seen = self.region(wall);
        for (w, s) in wall.iter_mut().zip(seen) {
            *w = !s;
        }
    }

    /// Walls every open cell but the start with one open neighbour or
    /// none, until none is left.
    fn prune_dead_ends(&self, wall: &mut [bool]) {
        let mut stack: Vec<usize> = (0..self.cells()).collect();
        while let Some(i) = stack.pop() {
            let open = self.neighbours(i).into_iter().filter(|&n| !wall[n]).count();
            if !wall[i] && i != self.start && open <= 1 {
                wall[i] = true;
                stack.extend(self.neighbours(i));
            }
        }
        self.cut_to_region(wall);
    }

    /// Walls cells of the larger colour until the two colours differ by
    /// at most one in the start's favour (a dominoes' cover needs it).
    fn balance_colours(&self, wall: &mut [bool], rng: &mut SplitMix64) {
        let cells = self.cells();
        loop {
            let same = (0..cells).filter(|&i| !wall[i] && self.colour(i)).count() as i64;
            let other = (0..cells).filter(|&i| !wall[i] && !self.colour(i)).count() as i64;
            let excess = same - other;
            if excess == 0 || excess == 1 {
                break;
            }
            let take_same = excess > 1;
            let candidates: Vec<usize> =
                (0..cells).filter(|&i| !wall[i] && i != self.start && self.colour(i) == take_same).collect();
            if candidates.is_empty() {
                break;
            }
            // A few random tries for a cell whose wall keeps the room whole;
            // otherwise take the last one tried and lose what it cuts off.
            let open_now = (0..cells).filter(|&i| !wall[i]).count();
            let mut chosen = candidates[rng.below(candidates.len())];
            for _ in 0..8 {
                let mut trial = wall.to_vec();
                trial[chosen] = true;
                if self.region(&trial).iter().filter(|&&s| s).count() == open_now - 1 {
                    break;
                }
                chosen = candidates[rng.below(candidates.len())];
            }
            wall[chosen] = true;
            self.cut_to_region(wall);
        }
    }

    /// The room as text: `S` the start, `#` a wall, `.` open.
    fn text(&self, wall: &[bool]) -> String {
        let mut text = String::with_capacity(self.cells() + self.size);
        for r in 0..self.size {
            for c in 0..self.size {
                let i = r * self.size + c;
                text.push(if i == self.start {
                    'S'
                } else if wall[i] {
                    '#'
                } else {
                    '.'
                });
            }
            text.push('\n');
        }
        text
    }
}

/// A `rows` × `cols` room with no wall, the start at `start`, and the end
/// tile at `end` when given: the open rooms a constructive route handles
/// at any size. Returns the grid text.
///
/// ```
/// use somaria::puzzles::tile_cover::rooms::open_room;
/// assert_eq!(open_room(2, 3, (0, 0), Some((1, 2))).unwrap(), "S..\n..E\n");
/// assert!(open_room(2, 3, (0, 0), Some((0, 0))).is_err());
/// ```
pub fn open_room(rows: usize, cols: usize, start: Pos, end: Option<Pos>) -> Result<String, GenerateError> {
    let inside = |(r, c): Pos| r < rows && c < cols;
    if rows * cols < 2 {
        return Err(GenerateError::new(format!("a {rows} x {cols} room"), "a start and at least one tile"));
    }
    if !inside(start) || end.is_some_and(|e| !inside(e) || e == start) {
        let found = format!("a start at {start:?} and an end at {end:?} in a {rows} x {cols} room");
        return Err(GenerateError::new(found, "both inside the room, on different cells"));
    }
    let mut text = String::with_capacity(rows * (cols + 1));
    for r in 0..rows {
        for c in 0..cols {
            text.push(if (r, c) == start {
                'S'
            } else if Some((r, c)) == end {
                'E'
            } else {
                '.'
            });
        }
        text.push('\n');
    }
    Ok(text)
}

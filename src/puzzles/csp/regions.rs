//! A division of a grid into regions, as a design's region array holds it
//! (each cell's region, row-major, numbered from 1): whether an array is
//! one, and the moves that keep it one. A puzzle URL writes the regions as
//! borders, so a region in two pieces would come back as two regions, and
//! an empty one would not come back at all: every move keeps each region
//! one piece and not empty, so the number of regions stays.

/// Why `cells` (row-major over `extent`, rows and columns) is not a
/// division into regions numbered 1 to some `n`, each one piece of cells
/// next to each other: what was found; `None` when it is one.
///
/// ```
/// use somaria::puzzles::csp::regions::fault;
/// assert_eq!(fault(&[1, 1, 2, 2], (2, 2)), None);
/// assert!(fault(&[1, 2, 2, 1], (2, 2)).unwrap().contains("region 1 in 2 pieces"));
/// assert!(fault(&[1, 1, 3, 3], (2, 2)).unwrap().contains("no cell of region 2"));
/// assert!(fault(&[1, 0, 1, 1], (2, 2)).unwrap().contains("0"));
/// ```
pub fn fault(cells: &[i64], extent: (usize, usize)) -> Option<String> {
    if cells.len() != extent.0 * extent.1 {
        return Some(format!("{} cells in a grid of {} by {}", cells.len(), extent.0, extent.1));
    }
    if let Some((at, v)) = cells.iter().enumerate().find(|(_, v)| **v < 1) {
        return Some(format!("{v} at row {}, column {}", at / extent.1 + 1, at % extent.1 + 1));
    }
    let count = cells.iter().copied().max().unwrap_or(0);
    for region in 1..=count {
        let Some(first) = cells.iter().position(|&v| v == region) else {
            return Some(format!("no cell of region {region}, though there is a region {count}"));
        };
        let size = cells.iter().filter(|&&v| v == region).count();
        let reached = reach(cells, extent, first, None);
        if reached < size {
            let pieces = pieces(cells, extent, region);
            return Some(format!("region {region} in {pieces} pieces"));
        }
    }
    None
}

/// How many regions `cells` has (its greatest number).
pub fn count(cells: &[i64]) -> usize {
    cells.iter().copied().max().unwrap_or(0).max(0) as usize
}

/// Every move that keeps `cells` a division into as many regions: a cell
/// joins a region beside it when its own region keeps another cell and
/// stays one piece without it. Each move is (cell, its new region), in
/// cell order.
///
/// ```
/// use somaria::puzzles::csp::regions::moves;
/// // 1 1 2: the middle 1 may join region 2; the 2 may not leave its
/// // region empty, and the first 1 has no other region beside it.
/// assert_eq!(moves(&[1, 1, 2], (1, 3)), vec![(1, 2)]);
/// // A cell in the middle of a row of its region would cut it in two.
/// assert_eq!(moves(&[1, 1, 1, 2, 2, 2], (2, 3)), vec![(0, 2), (2, 2), (3, 1), (5, 1)]);
/// assert!(moves(&[1, 1, 1, 2, 2, 2], (1, 6)).iter().all(|&(cell, _)| cell == 2 || cell == 3));
/// ```
pub fn moves(cells: &[i64], extent: (usize, usize)) -> Vec<(usize, i64)> {
    let mut out = Vec::new();
    for cell in 0..cells.len() {
        let mut beside: Vec<i64> =
            neighbours(cell, extent).map(|n| cells[n]).filter(|&region| region != cells[cell]).collect();
        beside.sort_unstable();
        beside.dedup();
        if beside.is_empty() {
            continue;
        }
        let own = cells[cell];
        let size = cells.iter().filter(|&&v| v == own).count();
        let Some(other) = (0..cells.len()).find(|&k| k != cell && cells[k] == own) else { continue };
        if reach(cells, extent, other, Some(cell)) < size - 1 {
            continue;
        }
        out.extend(beside.into_iter().map(|region| (cell, region)));
    }
    out
}

/// The cells beside `cell` (up, down, left, right) in a grid of `extent`.
fn neighbours(cell: usize, (rows, cols): (usize, usize)) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / cols, cell % cols);
    [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)]
        .into_iter()
        .filter(move |&(r, c)| r < rows && c < cols)
        .map(move |(r, c)| r * cols + c)
}

/// How many cells of `from`'s region are reached from `from` through cells
/// of that region, `skip` left out.
fn reach(cells: &[i64], extent: (usize, usize), from: usize, skip: Option<usize>) -> usize {
    let region = cells[from];
    let mut seen = vec![false; cells.len()];
    seen[from] = true;
    if let Some(skip) = skip {
        seen[skip] = true;
    }
    let mut stack = vec![from];
    let mut reached = 0;
    while let Some(cell) = stack.pop() {
        reached += 1;
        for n in neighbours(cell, extent) {
            if !seen[n] && cells[n] == region {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    reached
}

/// How many pieces `region` is in.
fn pieces(cells: &[i64], extent: (usize, usize), region: i64) -> usize {
    let mut left: Vec<i64> = cells.to_vec();
    let mut pieces = 0;
    while let Some(start) = left.iter().position(|&v| v == region) {
        pieces += 1;
        let mut stack = vec![start];
        left[start] = 0;
        while let Some(cell) = stack.pop() {
            for n in neighbours(cell, extent) {
                if left[n] == region {
                    left[n] = 0;
                    stack.push(n);
                }
            }
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Random walks of moves over random grids keep every region one piece
    /// and the number of regions; every move that would break one is left
    /// out (each cell's other moves tried and judged by `fault`).
    #[test]
    fn moves_keep_a_division_and_are_all_the_moves_that_do() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..40 {
            let extent = (1 + rng.below(5), 1 + rng.below(5));
            let cells_n = extent.0 * extent.1;
            // Columns as regions: a division to start from.
            let mut cells: Vec<i64> = (0..cells_n).map(|k| (k % extent.1) as i64 + 1).collect();
            let regions = count(&cells);
            for _ in 0..30 {
                let legal = moves(&cells, extent);
                for cell in 0..cells_n {
                    for region in 1..=regions as i64 {
                        let mut next = cells.clone();
                        next[cell] = region;
                        let beside = neighbours(cell, extent).any(|n| cells[n] == region);
                        let keeps = region != cells[cell] && beside && fault(&next, extent).is_none();
                        let keeps = keeps && count(&next) == regions;
                        assert_eq!(legal.contains(&(cell, region)), keeps, "{cells:?} {extent:?}: {cell} to {region}");
                    }
                }
                if legal.is_empty() {
                    break;
                }
                let (cell, region) = legal[rng.below(legal.len())];
                cells[cell] = region;
                assert_eq!(fault(&cells, extent), None);
                assert_eq!(count(&cells), regions);
            }
        }
    }
}

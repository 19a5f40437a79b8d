//! Keys-and-doors routes replayed by the rules, from a solution's JSON: the
//! check every engine's route is held to, written without somaria's code.

use serde_json::Value;

/// The moves of a solution's JSON as (walker, direction): `moves` with one
/// walker, `sequence` with several.
pub fn moves_of(solution: &Value) -> Vec<(usize, Value)> {
    match solution["sequence"].as_array() {
        Some(sequence) => {
            sequence.iter().map(|m| (m["walker"].as_u64().unwrap() as usize, m["move"].clone())).collect()
        }
        None => solution["moves"].as_array().unwrap().iter().map(|m| (0, m.clone())).collect(),
    }
}

/// Follows `moves` from the walkers' `@` (in reading order) and returns the
/// keys in the order they are picked up, or the first rule broken: a move
/// after the last key, by an unknown walker, in an unknown direction, off
/// the grid, into a wall or through a door whose key is not held; or, at
/// the end, `keys left behind`.
pub fn replay(grid: &[Vec<char>], moves: &[(usize, Value)]) -> Result<Vec<char>, String> {
    let bit = |letter: char| 1u32 << (letter.to_ascii_lowercase() as u32 - 'a' as u32);
    let wanted = grid.iter().flatten().filter(|c| c.is_ascii_lowercase()).fold(0, |m, &c| m | bit(c));
    let mut at: Vec<(usize, usize)> = (0..grid.len())
        .flat_map(|r| (0..grid[0].len()).map(move |c| (r, c)))
        .filter(|&(r, c)| grid[r][c] == '@')
        .collect();
    let (mut held, mut order) = (0, Vec::new());
    for (i, (walker, m)) in moves.iter().enumerate() {
        if held == wanted {
            return Err(format!("move {i} after the last key"));
        }
        let (r, c) = *at.get(*walker).ok_or(format!("move {i} by an unknown walker"))?;
        let (nr, nc) = match m.as_str() {
            Some("up") => (r.wrapping_sub(1), c),
            Some("down") => (r + 1, c),
            Some("left") => (r, c.wrapping_sub(1)),
            Some("right") => (r, c + 1),
            other => return Err(format!("unknown move {other:?}")),
        };
        let symbol = *grid.get(nr).and_then(|row| row.get(nc)).ok_or(format!("move {i} leaves the grid"))?;
        if symbol == '#' || (symbol.is_ascii_uppercase() && held & bit(symbol) == 0) {
            return Err(format!("move {i} enters {symbol:?}"));
        }
        if symbol.is_ascii_lowercase() && held & bit(symbol) == 0 {
            held |= bit(symbol);
            order.push(symbol);
        }
        at[*walker] = (nr, nc);
    }
    if held != wanted {
        return Err("keys left behind".to_string());
    }
    Ok(order)
}

/// The fewest steps of a one-walker grid and the number of shortest move
/// sequences (saturating), by breadth-first search over (cell, keys held)
/// with a count of shortest paths per state; `None` when no route collects
/// every key. A shortest route's every prefix is a shortest path to its
/// state (else the route could be shortened), so the counts are exact.
pub fn shortest_routes(grid: &[Vec<char>]) -> Option<(usize, u128)> {
    use std::collections::HashMap;
    let bit = |letter: char| 1u32 << (letter.to_ascii_lowercase() as u32 - 'a' as u32);
    let wanted = grid.iter().flatten().filter(|c| c.is_ascii_lowercase()).fold(0, |m, &c| m | bit(c));
    let (rows, cols) = (grid.len(), grid[0].len());
    let start = (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))).find(|&(r, c)| grid[r][c] == '@')?;
    let mut seen: HashMap<((usize, usize), u32), usize> = HashMap::from([((start, 0), 0)]);
    let mut layer: HashMap<((usize, usize), u32), u128> = HashMap::from([((start, 0), 1)]);
    for steps in 0.. {
        let finished: u128 = layer.iter().filter(|((_, held), _)| *held == wanted).map(|(_, n)| *n).sum();
        if finished > 0 {
            return Some((steps, finished));
        }
        if layer.is_empty() {
            return None;
        }
        let mut next: HashMap<((usize, usize), u32), u128> = HashMap::new();
        for (&((r, c), held), &count) in &layer {
            let around = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
            for (nr, nc) in around {
                let Some(&symbol) = grid.get(nr).and_then(|row| row.get(nc)) else { continue };
                if symbol == '#' || (symbol.is_ascii_uppercase() && held & bit(symbol) == 0) {
                    continue;
                }
                let held = if symbol.is_ascii_lowercase() { held | bit(symbol) } else { held };
                let state = ((nr, nc), held);
                if *seen.entry(state).or_insert(steps + 1) == steps + 1 {
                    let slot = next.entry(state).or_insert(0);
                    *slot = slot.saturating_add(count);
                }
            }
        }
        layer = next;
    }
    None
}

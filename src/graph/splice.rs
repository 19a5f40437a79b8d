//! Splicing detached cycles into a path or into one loop: where a step of
//! the host a -> b runs alongside a step of the cycle, a -> (around the
//! cycle) -> b goes through the same nodes in one piece. The nodes stay the
//! same; the arcs change, so a spliced answer suits searches that read only
//! which nodes are on (solve, facts, explain), not those that tell
//! solutions apart by their arcs (counting).

use super::cells::{GridGraph, START};

/// Splices detached cycles (each as its nodes in order) into the path from
/// the start (`walk`: its nodes after the start), into each other, and, when
/// the graph has no end node, onto the path's end. Returns the whole path
/// (nodes after the start) when every cycle found a place, else `None`.
pub fn splice_into_path(graph: &GridGraph, walk: &[usize], mut cycles: Vec<Vec<usize>>) -> Option<Vec<usize>> {
    let mut host: Vec<usize> = std::iter::once(START).chain(walk.iter().copied()).collect();
    let mut progress = true;
    while !cycles.is_empty() && progress {
        progress = false;
        let mut index = 0;
        while index < cycles.len() {
            if let Some(merged) = splice(graph, &host, false, &cycles[index]) {
                host = merged;
                cycles.swap_remove(index);
                progress = true;
                continue;
            }
            let partner = (0..cycles.len())
                .filter(|&j| j != index)
                .find_map(|j| splice(graph, &cycles[j], true, &cycles[index]).map(|merged| (j, merged)));
            if let Some((j, merged)) = partner {
                cycles[j] = merged;
                cycles.swap_remove(index);
                progress = true;
                continue;
            }
            index += 1;
        }
    }
    cycles.is_empty().then(|| host[1..].to_vec())
}

/// Splices cycles (each as its nodes in order) into one, the longest
/// taking the others; `None` when some cycle finds no place.
pub fn splice_into_loop(graph: &GridGraph, mut cycles: Vec<Vec<usize>>) -> Option<Vec<usize>> {
    let longest = (0..cycles.len()).max_by_key(|&i| cycles[i].len())?;
    let mut host = cycles.swap_remove(longest);
    let mut progress = true;
    while !cycles.is_empty() && progress {
        progress = false;
        let mut index = 0;
        while index < cycles.len() {
            if let Some(merged) = splice(graph, &host, true, &cycles[index]) {
                host = merged;
                cycles.swap_remove(index);
                progress = true;
                continue;
            }
            index += 1;
        }
    }
    cycles.is_empty().then_some(host)
}

/// `guest` (a cycle) spliced into `host` (the path from the start, or a
/// cycle when `closed`), or `None` when no place fits.
fn splice(graph: &GridGraph, host: &[usize], closed: bool, guest: &[usize]) -> Option<Vec<usize>> {
    let mut place = vec![usize::MAX; graph.num_nodes()];
    for (j, &node) in host.iter().enumerate() {
        place[node] = j;
    }
    let after = |j: usize| -> Option<usize> {
        if j + 1 < host.len() {
            Some(j + 1)
        } else if closed {
            Some(0)
        } else {
            None
        }
    };
    let adjacent = |a: usize, b: usize| graph.neighbours(a).contains(&b);
    let m = guest.len();
    let insert = |j: usize, run: Vec<usize>| -> Vec<usize> {
        let mut merged = Vec::with_capacity(host.len() + run.len());
        merged.extend_from_slice(&host[..=j]);
        merged.extend(run);
        merged.extend_from_slice(&host[j + 1..]);
        merged
    };
    for i in 0..m {
        let (v, w) = (guest[i], guest[(i + 1) % m]);
        // a -> w, forward around the guest to v, then v -> b.
        for &a in graph.neighbours(w) {
            let j = place[a];
            if j == usize::MAX {
                continue;
            }
            if let Some(k) = after(j) {
                if adjacent(v, host[k]) {
                    return Some(insert(j, (0..m).map(|s| guest[(i + 1 + s) % m]).collect()));
                }
            } else if graph.end().is_none() {
                return Some(insert(j, (0..m).map(|s| guest[(i + 1 + s) % m]).collect()));
            }
        }
        // a -> v, backward around the guest to w, then w -> b.
        for &a in graph.neighbours(v) {
            let j = place[a];
            if j == usize::MAX {
                continue;
            }
            if let Some(k) = after(j)
                && adjacent(w, host[k])
            {
                return Some(insert(j, (0..m).map(|s| guest[(i + m - s) % m]).collect()));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(graph: &GridGraph, pos: (usize, usize)) -> usize {
        graph.node_at(pos).unwrap()
    }

    fn is_cycle(graph: &GridGraph, nodes: &[usize]) -> bool {
        let mut sorted = nodes.to_vec();
        sorted.sort();
        sorted.dedup();
        sorted.len() == nodes.len()
            && (0..nodes.len()).all(|i| graph.neighbours(nodes[i]).contains(&nodes[(i + 1) % nodes.len()]))
    }

    #[test]
    fn a_cycle_beside_the_path_is_spliced_in() {
        // S -> (0,1) -> (0,2) -> (0,3), and a cycle over the 2 x 2 block below the start.
        let graph = GridGraph::new(3, 4, |(r, c)| r == 0 || c < 2, Some((0, 0)), None);
        let n = |p| node(&graph, p);
        let walk = vec![n((0, 1)), n((0, 2)), n((0, 3))];
        let cycle = vec![n((1, 0)), n((1, 1)), n((2, 1)), n((2, 0))];
        let whole = splice_into_path(&graph, &walk, vec![cycle]).unwrap();
        assert_eq!(whole.len(), 7);
        let mut seen = whole.clone();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 7);
        let mut here = START;
        for &next in &whole {
            assert!(graph.neighbours(here).contains(&next), "{here} -> {next}");
            here = next;
        }
    }

    #[test]
    fn a_cycle_with_no_neighbour_on_the_path_is_left() {
        let graph = GridGraph::new(2, 5, |(_, c)| c != 2, Some((0, 0)), None);
        let n = |p| node(&graph, p);
        let walk = vec![n((0, 1)), n((1, 1)), n((1, 0))];
        let cycle = vec![n((0, 3)), n((0, 4)), n((1, 4)), n((1, 3))];
        assert_eq!(splice_into_path(&graph, &walk, vec![cycle]), None);
    }

    #[test]
    fn two_touching_squares_become_one_loop() {
        let graph = GridGraph::new(2, 4, |_| true, None, None);
        let n = |p| node(&graph, p);
        let left = vec![n((0, 0)), n((0, 1)), n((1, 1)), n((1, 0))];
        let right = vec![n((0, 2)), n((0, 3)), n((1, 3)), n((1, 2))];
        let whole = splice_into_loop(&graph, vec![left, right]).unwrap();
        assert_eq!(whole.len(), 8);
        assert!(is_cycle(&graph, &whole));
        let apart = GridGraph::new(2, 5, |(_, c)| c != 2, None, None);
        let m = |p| node(&apart, p);
        let squares =
            vec![vec![m((0, 0)), m((0, 1)), m((1, 1)), m((1, 0))], vec![m((0, 3)), m((0, 4)), m((1, 4)), m((1, 3))]];
        assert_eq!(splice_into_loop(&apart, squares), None);
    }
}

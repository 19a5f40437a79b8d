//! Cut tiles (articulation points) and the parts they split the room into.
//!
//! The route visits a cut tile once. Before it, the route is in the part
//! holding the start; after it, in one other part, and it never comes back.
//! So it can go on into at most one of the parts beyond a cut tile, and the
//! others are left whole; and when it goes on, it ends there. This holds
//! for any `leave_uncovered` (the parts left count against the allowance),
//! and arcs back into the cut tile from beyond are never taken.
//!
//! With nothing to leave, every part must be entered, so the cut tiles line
//! up from the start to the end, and the route covers the part between two
//! of them in one stretch from one to the other: each part's colours must
//! balance for its two ends ([`part_colours`]).

use super::colour::cap;
use super::{Deductions, Part, Refutation, Rule, list, name, plural};
use crate::puzzles::tile_cover::graph::{Room, START};

const UNSEEN: usize = usize::MAX;

/// A depth-first search tree of the start's component, with the low points
/// of Tarjan's algorithm; built without recursion, for rooms of any size.
struct DfsTree {
    disc: Vec<usize>,
    low: Vec<usize>,
    parent: Vec<usize>,
    size: Vec<usize>,
    order: Vec<usize>,
}

impl DfsTree {
    fn new(room: &Room) -> DfsTree {
        let n = room.num_nodes();
        let mut tree = DfsTree {
            disc: vec![UNSEEN; n],
            low: vec![0; n],
            parent: vec![UNSEEN; n],
            size: vec![1; n],
            order: Vec::new(),
        };
        tree.disc[START] = 0;
        tree.order.push(START);
        let mut stack = vec![(START, 0usize)];
        while let Some(top) = stack.last_mut() {
            let (v, i) = *top;
            if let Some(&w) = room.neighbours(v).get(i) {
                top.1 += 1;
                if tree.disc[w] == UNSEEN {
                    tree.disc[w] = tree.order.len();
                    tree.low[w] = tree.disc[w];
                    tree.parent[w] = v;
                    tree.order.push(w);
                    stack.push((w, 0));
                } else if w != tree.parent[v] {
                    tree.low[v] = tree.low[v].min(tree.disc[w]);
                }
            } else {
                stack.pop();
                if let Some(&(p, _)) = stack.last() {
                    tree.low[p] = tree.low[p].min(tree.low[v]);
                    tree.size[p] += tree.size[v];
                }
            }
        }
        tree
    }

    /// Whether `node` lies in the subtree of `root`.
    fn inside(&self, root: usize, node: usize) -> bool {
        let d = self.disc[node];
        d != UNSEEN && self.disc[root] <= d && d < self.disc[root] + self.size[root]
    }

    /// The parts beyond `v`: the subtrees of its children that reach no
    /// higher than `v` (all of them for the start), as their roots.
    fn parts_beyond(&self, room: &Room, v: usize) -> Vec<usize> {
        room.neighbours(v)
            .iter()
            .copied()
            .filter(|&w| self.parent[w] == v && (v == START || self.low[w] >= self.disc[v]))
            .collect()
    }
}

/// What one cut tile demands: the parts beyond it the route may go on into,
/// and whether it may stay on the start's side.
struct Cut {
    tile: usize,
    parts: Vec<usize>,
    choosable: Vec<bool>,
    may_stay: bool,
}

pub(super) fn cut_tiles(room: &Room, known: &mut Deductions) -> Result<(), Refutation> {
    let tree = DfsTree::new(room);
    let k = room.leave_uncovered();
    let mut cuts = Vec::new();
    for &v in &tree.order {
        let parts = tree.parts_beyond(room, v);
        if parts.is_empty() || (v == START && parts.len() < 2) {
            continue;
        }
        let sizes: Vec<usize> = parts.iter().map(|&w| tree.size[w]).collect();
        let sum: usize = sizes.iter().sum();
        let end_part = room.end().and_then(|e| parts.iter().position(|&w| tree.inside(w, e)));
        let choosable: Vec<bool> =
            (0..parts.len()).map(|j| sum - sizes[j] <= k && (room.end().is_none() || end_part == Some(j))).collect();
        let may_stay = v != START && sum <= k && end_part.is_none();
        if !may_stay && !choosable.contains(&true) {
            return Err(split_refutation(room, &tree, v, &parts, end_part));
        }
        // Never back into the cut tile from beyond, and never into a part
        // the route cannot go on into.
        for (j, &w) in parts.iter().enumerate() {
            for &arc in room.in_arcs(v) {
                if tree.inside(w, room.arcs()[arc].0) {
                    known.forbid_arc(arc);
                }
            }
            if !choosable[j] {
                for &arc in room.out_arcs(v) {
                    if tree.inside(w, room.arcs()[arc].1) {
                        known.forbid_arc(arc);
                    }
                }
            }
        }
        if !may_stay && v != START {
            // The route goes on past v, so v is covered, is not the end, and
            // its next tile is beyond it.
            known.must_cover.push(v);
            for &arc in room.out_arcs(v) {
                if !parts.iter().any(|&w| tree.inside(w, room.arcs()[arc].1)) {
                    known.forbid_arc(arc);
                }
            }
        }
        if !may_stay {
            cuts.push(Cut { tile: v, parts, choosable, may_stay });
        }
    }
    restrict_ends(room, &tree, known, &cuts)?;
    if k == 0 {
        known.parts = chain(room, &tree, &cuts);
    }
    Ok(())
}

/// Keeps the ends inside the parts each cut sends the route into: a count
/// over the search order, so the whole room costs one pass. When nothing is
/// left, finds the cuts that emptied it, for the certificate.
fn restrict_ends(room: &Room, tree: &DfsTree, known: &mut Deductions, cuts: &[Cut]) -> Result<(), Refutation> {
    if cuts.is_empty() {
        return Ok(());
    }
    let mut hits = vec![0i64; tree.order.len() + 1];
    for cut in cuts {
        for (j, &w) in cut.parts.iter().enumerate() {
            if cut.choosable[j] {
                hits[tree.disc[w]] += 1;
                hits[tree.disc[w] + tree.size[w]] -= 1;
            }
        }
    }
    let mut allowed = vec![false; room.num_nodes()];
    let mut running = 0;
    for (d, &node) in tree.order.iter().enumerate() {
        running += hits[d];
        allowed[node] = running == cuts.len() as i64;
    }
    let before: Vec<usize> = room.tiles().filter(|&t| known.may_end(t)).collect();
    // The cuts that narrow the ends, applied narrowest first, so that the
    // certificate names only those (in a corridor every tile is a cut).
    let mut order: Vec<&Cut> = cuts.iter().collect();
    let width = |cut: &Cut| -> usize {
        cut.parts.iter().zip(&cut.choosable).filter(|(_, c)| **c).map(|(&w, _)| tree.size[w]).sum()
    };
    order.sort_by_key(|cut| width(cut));
    let narrowest = width(order[0]);
    let possible = known.restrict_ends(|n| allowed[n]);
    let mut left: Vec<usize> = if possible || narrowest < before.len() {
        // Start from the narrowest cut's tiles rather than the whole room.
        let first = order[0];
        first
            .parts
            .iter()
            .zip(&first.choosable)
            .filter(|(_, c)| **c)
            .flat_map(|(&w, _)| tree.order[tree.disc[w]..tree.disc[w] + tree.size[w]].iter().copied())
            .filter(|&n| before.binary_search(&n).is_ok())
            .collect()
    } else {
        before.clone()
    };
    let mut used: Vec<&Cut> = if left.len() < before.len() { vec![order[0]] } else { Vec::new() };
    for &cut in &order[1..] {
        if left.is_empty() {
            break;
        }
        let keep = |n: usize| cut.parts.iter().zip(&cut.choosable).any(|(&w, &c)| c && tree.inside(w, n));
        let kept: Vec<usize> = left.iter().copied().filter(|&n| keep(n)).collect();
        if kept.len() < left.len() {
            used.push(cut);
            left = kept;
        }
    }
    if possible {
        for cut in used {
            known.end_reasons.push(cut_reason(room, tree, cut));
        }
        return Ok(());
    }
    let mut reasons: Vec<String> = known.end_reasons.clone();
    reasons.extend(used.iter().map(|cut| cut_reason(room, tree, cut)));
    // A tile beyond each cut forces the route past it, even when tiles may
    // be left; with the earlier narrowing (the end tile, a dead end).
    let mut cells: Vec<usize> = used
        .iter()
        .filter_map(|cut| cut.parts.iter().zip(&cut.choosable).find(|(_, c)| **c).map(|(&w, _)| w))
        .collect();
    cells.extend(before.iter().copied().filter(|_| before.len() <= 8));
    cells.sort_unstable();
    cells.dedup();
    let text = format!("{}; no tile is left where the route can end", reasons.join("; "));
    Err(Refutation::new(Rule::CutTile, cap(&text), cells))
}

/// Why a cut sends the route beyond it.
fn cut_reason(room: &Room, tree: &DfsTree, cut: &Cut) -> String {
    let targets: Vec<usize> = cut.parts.iter().zip(&cut.choosable).filter(|(_, c)| **c).map(|(&w, _)| w).collect();
    let beyond: usize = targets.iter().map(|&w| tree.size[w]).sum();
    let into = if targets.len() == 1 {
        format!("into the {} from {} on", plural(beyond, "tile", "tiles"), room.label(targets[0]))
    } else {
        format!("into one of the parts from {} on", list(room, &targets))
    };
    if cut.tile == START {
        format!("the route leaves the start once and never comes back, so it goes {into} and ends there")
    } else if room.leave_uncovered() == 0 {
        format!(
            "{} splits the room: the route passes it once and cannot come back, so it goes on {into} and ends there",
            room.label(cut.tile)
        )
    } else {
        format!(
            "{} splits the room, and the tiles beyond it are too many to leave, so the route goes on past it {into} \
             and ends there",
            room.label(cut.tile)
        )
    }
}

fn split_refutation(room: &Room, tree: &DfsTree, v: usize, parts: &[usize], end_part: Option<usize>) -> Refutation {
    let k = room.leave_uncovered();
    let sizes: Vec<usize> = parts.iter().map(|&w| tree.size[w]).collect();
    let sum: usize = sizes.iter().sum();
    let described: Vec<String> = parts
        .iter()
        .zip(&sizes)
        .map(|(&w, &s)| format!("the {} from {} on", plural(s, "tile", "tiles"), room.label(w)))
        .collect();
    let described = match described.len() {
        1 => described[0].clone(),
        n => format!("{} and {}", described[..n - 1].join(", "), described[n - 1]),
    };
    let mut cells: Vec<usize> = parts.to_vec();
    if let Some(end) = room.end() {
        cells.push(end);
    }
    cells.sort_unstable();
    cells.dedup();
    // The fewest tiles some choice leaves, for the allowance.
    let least_left = match (room.end(), end_part) {
        (Some(_), Some(j)) => sum - sizes[j],
        (Some(_), None) => sum,
        (None, _) => sum - sizes.iter().max().copied().unwrap_or(0),
    };
    let allowance = if k == 0 {
        String::new()
    } else {
        format!(
            "; the rest would be left uncovered, at least {}, more than the {k} that may be",
            plural(least_left, "tile", "tiles")
        )
    };
    let text = if v == START {
        format!(
            "the start {} splits the room into {} parts, {described}: the route leaves the start once and can never \
             come back, so it covers only one of them{}{allowance}",
            room.label(START),
            parts.len(),
            match (room.end(), end_part) {
                (Some(e), Some(_)) => format!(", the one with the end tile {}", room.label(e)),
                _ => String::new(),
            }
        )
    } else {
        let end_note = match (room.end(), end_part) {
            (Some(e), None) => {
                format!(", yet the route must end on the end tile {}, which is not beyond it", name(room, e))
            }
            (Some(e), Some(_)) if k > 0 => format!(", and must end on the end tile {}", room.label(e)),
            _ => String::new(),
        };
        let onward = if parts.len() == 1 {
            "so it cannot cover them and come back"
        } else if k == 0 {
            "so it goes on into at most one of these, and the tiles beyond the others would be left uncovered"
        } else {
            "so it goes on into at most one of these"
        };
        format!(
            "{} splits the room: beyond it lie {described}. The route passes {} once, coming from the start's side, \
             and cannot come back, {onward}{end_note}{allowance}",
            room.label(v),
            room.label(v)
        )
    };
    Refutation::new(Rule::CutTile, cap(&text), cells.into_iter().filter(|&c| c != START).collect())
}

/// With nothing to leave: every cut tile has one part beyond it, and the
/// parts nest, so they line up from the start. The stretches between
/// consecutive cut tiles are the parts.
fn chain(room: &Room, tree: &DfsTree, cuts: &[Cut]) -> Vec<Part> {
    let mut line: Vec<(usize, usize)> = cuts
        .iter()
        .filter(|c| c.tile != START && c.parts.len() == 1 && !c.may_stay)
        .map(|c| (c.tile, c.parts[0]))
        .collect();
    if line.is_empty() {
        return Vec::new();
    }
    line.sort_by_key(|&(_, w)| std::cmp::Reverse(tree.size[w]));
    // Nesting holds when the ends are not empty; check rather than assume.
    if line.windows(2).any(|p| !tree.inside(p[0].1, p[1].0)) {
        return Vec::new();
    }
    let mut parts = Vec::with_capacity(line.len() + 1);
    let range = |w: usize| tree.disc[w]..tree.disc[w] + tree.size[w];
    let mut entry = START;
    let mut outer = 0..tree.order.len();
    for (i, &(cut, w)) in line.iter().enumerate() {
        let inner = range(w);
        let mut nodes: Vec<usize> = tree.order[outer.start..inner.start].to_vec();
        nodes.extend_from_slice(&tree.order[inner.end..outer.end]);
        if i > 0 {
            nodes.insert(0, entry);
        }
        parts.push(Part { entry, exit: Some(cut), nodes });
        entry = cut;
        outer = inner;
    }
    let mut nodes = vec![entry];
    nodes.extend_from_slice(&tree.order[outer]);
    parts.push(Part { entry, exit: None, nodes });
    let _ = room;
    parts
}

/// With nothing to leave: the colours of each part between cut tiles. A
/// stretch between two cells of the same colour has one more cell of that
/// colour than of the other; between cells of different colours, as many
/// of each. The last part ends wherever the route may end.
pub(super) fn part_colours(room: &Room, known: &mut Deductions) -> Result<(), Refutation> {
    if room.leave_uncovered() > 0 || known.parts.len() < 2 {
        return Ok(());
    }
    let parts = known.parts.clone();
    for (i, part) in parts.iter().enumerate() {
        let entry_colour = room.same_colour_as_start(part.entry);
        let like_entry = part.nodes.iter().filter(|&&n| room.same_colour_as_start(n) == entry_colour).count();
        let unlike = part.nodes.len() - like_entry;
        let excess = like_entry as i64 - unlike as i64;
        let allowed: Vec<bool> = match part.exit {
            Some(exit) => vec![room.same_colour_as_start(exit) == entry_colour],
            None => {
                let ends: Vec<usize> =
                    part.nodes.iter().copied().filter(|&n| n != part.entry && known.may_end(n)).collect();
                let mut colours: Vec<bool> =
                    ends.iter().map(|&e| room.same_colour_as_start(e) == entry_colour).collect();
                colours.sort_unstable();
                colours.dedup();
                colours
            }
        };
        let fits = |same: bool| excess == i64::from(same);
        if let Some(&ok) = allowed.iter().find(|&&same| fits(same)) {
            if part.exit.is_none() {
                known.restrict_ends(|n| room.same_colour_as_start(n) == (entry_colour == ok));
            }
            continue;
        }
        return Err(part_refutation(room, known, &parts, i, like_entry, unlike));
    }
    Ok(())
}

fn part_refutation(
    room: &Room,
    known: &Deductions,
    parts: &[Part],
    i: usize,
    like_entry: usize,
    unlike: usize,
) -> Refutation {
    let part = &parts[i];
    let tiles: Vec<usize> = part.nodes.iter().copied().filter(|&n| n != START).collect();
    let entry = if part.entry == START { "the start".to_string() } else { room.label(part.entry) };
    let rule = "Every step moves to a cell of the other colour, as on a chessboard";
    let stretch = match part.exit {
        Some(exit) if room.same_colour_as_start(exit) == room.same_colour_as_start(part.entry) => {
            "a stretch between two cells of the same colour has one more cell of that colour than of the other"
                .to_string()
        }
        Some(_) => "a stretch between cells of different colours has as many of each".to_string(),
        None => {
            let ends: Vec<usize> =
                part.nodes.iter().copied().filter(|&n| n != part.entry && known.may_end(n)).collect();
            let why = known.end_reasons();
            let why = if why.is_empty() { String::new() } else { format!(" ({why})") };
            format!(
                "the route can end only on {}{why}, so the stretch has {} of {}'s colour",
                list(room, &ends),
                match ends.first() {
                    Some(&e) if room.same_colour_as_start(e) == room.same_colour_as_start(part.entry) =>
                        "one more cell",
                    _ => "as many cells of each colour, not one more,",
                },
                entry
            )
        }
    };
    let covered = match (i, part.exit) {
        (0, Some(exit)) => format!(
            "{} splits the room, so the route first covers the start's side, the start and the {} {}, in one \
             stretch from the start to {}",
            room.label(exit),
            plural(tiles.len(), "tile", "tiles"),
            list(room, &tiles),
            room.label(exit)
        ),
        (_, Some(exit)) => format!(
            "{} and {} both split the room, so the route covers the {} cells between them, {}, in one stretch \
             from {} to {}",
            room.label(part.entry),
            room.label(exit),
            part.nodes.len(),
            list(room, &part.nodes),
            room.label(part.entry),
            room.label(exit)
        ),
        (_, None) => format!(
            "{} splits the room, so the route ends among the {} cells from it on, {}, which it covers in one \
             stretch from {}",
            room.label(part.entry),
            part.nodes.len(),
            list(room, &part.nodes),
            room.label(part.entry)
        ),
    };
    let whose = if part.entry == START { "the start's".to_string() } else { format!("{entry}'s") };
    let text = format!(
        "{covered}. {rule}, so {stretch}; but these cells are {like_entry} of {whose} colour and {unlike} of the \
         other."
    );
    // Covering the part and a tile beyond its exit forces the stretch, even
    // when other tiles may be left; the last part's ends may rest on the
    // whole room's colours, so it names none.
    let mut cells = Vec::new();
    if let Some(next) = parts.get(i + 1) {
        cells = tiles;
        cells.extend(next.nodes.iter().copied().find(|&n| n != next.entry));
    }
    Refutation::new(Rule::PartColour, cap(&text), cells)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{room, rule_of};
    use super::super::*;

    #[test]
    fn a_start_that_splits_the_room_covers_one_side() {
        let rows = ["..S..", ".##.."];
        let why = analyse(&room(&rows, 0)).refutation.unwrap();
        assert_eq!(why.rule, Rule::CutTile, "{}", why.text);
        assert_eq!(
            why.text,
            "The start (0, 2) splits the room into 2 parts, the 3 tiles from (0, 1) on and the 4 tiles from (0, 3) \
             on: the route leaves the start once and can never come back, so it covers only one of them"
        );
        assert_eq!(why.cells.len(), 2);
        // Leaving the short side is fine.
        assert_eq!(rule_of(&rows, 3), None);
        assert_eq!(rule_of(&rows, 2), Some(Rule::CutTile));
    }

    #[test]
    fn a_cut_tile_with_two_parts_beyond_it() {
        let rows = ["....#", "..#..", "..#S#"];
        let why = analyse(&room(&rows, 0)).refutation.unwrap();
        assert_eq!(why.rule, Rule::CutTile, "{}", why.text);
        assert!(
            why.text.starts_with(
                "(1, 3) splits the room: beyond it lie the 8 tiles from (0, 3) on and the 1 tile from (1, 4) on."
            ),
            "{}",
            why.text
        );
        assert!(why.text.contains("goes on into at most one of these"), "{}", why.text);
        // Leaving (1, 4) is fine.
        assert_eq!(rule_of(&rows, 1), None);
    }

    #[test]
    fn the_end_tile_behind_a_cut_tile() {
        let why = refute(&room(&[".....", "E....", "#....", "..S..", "..#.."], 0)).unwrap();
        assert!(why.starts_with("(3, 1) splits the room: beyond it lie the 3 tiles from (4, 1) on."), "{why}");
        assert!(why.contains("end tile (1, 0), which is not beyond it"), "{why}");
    }

    #[test]
    fn cut_tiles_forbid_arcs_back_and_fix_the_end_side() {
        // (1, 1), (1, 2) and (1, 3) are cut tiles between the start's corner
        // and the block on the right.
        let r = room(&[".S#..", "....."], 0);
        let analysis = analyse(&r);
        assert_eq!(analysis.refutation, None);
        let at = |p| r.node_at(p).unwrap();
        let back = r.in_arcs(at((1, 2))).iter().copied().find(|&a| r.arcs()[a].0 == at((1, 3))).unwrap();
        assert!(!analysis.deductions.arc_allowed(back));
        assert!(analysis.deductions.may_end(at((1, 4))));
        assert!(!analysis.deductions.may_end(at((1, 0))));
        assert_eq!(analysis.deductions.parts().len(), 4, "{:?}", analysis.deductions.parts());
    }

    #[test]
    fn each_part_balances_its_colours() {
        let rows = ["#....", "..#..", "S.##.", "..#.."];
        let why = analyse(&room(&rows, 0)).refutation.unwrap();
        assert_eq!(why.rule, Rule::PartColour, "{}", why.text);
        assert_eq!(
            why.text,
            "(1, 1) splits the room, so the route first covers the start's side, the start and the 5 tiles (1, 0), \
             (1, 1), (2, 1), (3, 1) and (3, 0), in one stretch from the start to (1, 1). Every step moves to a cell \
             of the other colour, as on a chessboard, so a stretch between two cells of the same colour has one \
             more cell of that colour than of the other; but these cells are 3 of the start's colour and 3 of the \
             other."
        );
    }
}

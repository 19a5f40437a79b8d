//! Reasoning before SAT that can prove a room has no route and say why in a
//! player's words, and that hands what it learns to the SAT encodings.
//!
//! Each argument is its own module, works on the room graph ([`Room`]) alone,
//! and is a relaxation: it only refutes rooms that truly have no route. Each
//! states when it applies, since tiles that may be left uncovered
//! (`leave_uncovered > 0`) void some of them:
//!
//! | rule | file | holds when |
//! |---|---|---|
//! | [`Rule::Unreachable`] tiles the start cannot reach | `reach` | always (counts them against the tiles that may be left) |
//! | [`Rule::ColourCount`] the checkerboard count | `colour` | always (leaving tiles may restore the balance) |
//! | [`Rule::DeadEnds`] a tile with one open side is the end or left | `ends` | always |
//! | [`Rule::CutTile`] the route passes a cut tile once and cannot come back | `blocks` | always; parts it cannot enter count against the tiles that may be left |
//! | [`Rule::EndColour`] the colour count with the end's colour fixed | `colour` | always |
//! | [`Rule::PartColour`] the colour count inside each part between cut tiles | `blocks` | nothing may be left |
//! | [`Rule::ForcedSteps`] two open sides force both steps; forced chains must not close or overload a tile | `chains` | nothing may be left |
//! | [`Rule::DegreeMatching`] Hall's condition for two route neighbours per tile | `degree` | always (per part when nothing may be left) |
//! | [`Rule::EntryMatching`] Hall's condition for one way in per tile | `entry` | always |
//! | [`Rule::LeaveCases`] case by case on the end, back to covering everything | `leave` | tiles to leave, when the colours allow no more than the tiles forced out |
//!
//! Besides a verdict, the rules leave [`Deductions`] that hold for every
//! route: where it can end, steps it must take, steps it never takes. The
//! encodings add them as clauses, so SAT benefits where the presolve alone
//! cannot decide.

mod blocks;
mod chains;
mod colour;
mod degree;
mod ends;
mod entry;
mod leave;
mod reach;

use super::graph::{Room, START};

/// Rooms with more nodes than this skip the matching checks, whose cost
/// grows faster than the room.
pub const MATCHING_LIMIT: usize = 200_000;

/// The arguments, in the order they run.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// The room has no tile at all.
    NoTile,
    /// Tiles the start cannot reach.
    Unreachable,
    /// The checkerboard colour count over the whole room.
    ColourCount,
    /// Tiles with one open side: each is the last tile or left uncovered.
    DeadEnds,
    /// A cut tile, passed once, splits the room into parts entered in order.
    CutTile,
    /// The colour count once the end's colour is known.
    EndColour,
    /// The colour count of each part between cut tiles.
    PartColour,
    /// Steps forced by tiles with two open sides, and what they rule out.
    ForcedSteps,
    /// Hall's condition on the subgraph where every tile has two route
    /// neighbours, and the start and the end one.
    DegreeMatching,
    /// Hall's condition on "each covered tile is entered from a different cell".
    EntryMatching,
    /// With tiles to leave: one case per way the route can end, each a room
    /// with nothing to leave, all refuted.
    LeaveCases,
}

impl Rule {
    /// A short name for reports and benches.
    pub fn name(self) -> &'static str {
        match self {
            Rule::NoTile => "no-tile",
            Rule::Unreachable => "unreachable",
            Rule::ColourCount => "colour-count",
            Rule::DeadEnds => "dead-ends",
            Rule::CutTile => "cut-tile",
            Rule::EndColour => "end-colour",
            Rule::PartColour => "part-colour",
            Rule::ForcedSteps => "forced-steps",
            Rule::DegreeMatching => "degree-matching",
            Rule::EntryMatching => "entry-matching",
            Rule::LeaveCases => "leave-cases",
        }
    }
}

/// A proof that a room has no route.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refutation {
    /// The argument that found it.
    pub rule: Rule,
    /// The certificate in a player's words, naming cells as `(row, col)`.
    pub text: String,
    /// When not empty, tiles that no walk from the start covers all of,
    /// even one that may leave any other tile (it still ends on the end
    /// tile when the room has one): the local core of the argument, for
    /// explanations to start from. Empty for global arguments such as the
    /// colour count.
    pub cells: Vec<usize>,
}

impl Refutation {
    fn new(rule: Rule, text: String, cells: Vec<usize>) -> Refutation {
        Refutation { rule, text, cells }
    }
}

/// A part of the room between two cut tiles that every route covers in one
/// stretch: it enters at `entry` and leaves at `exit`, or ends inside when
/// `exit` is `None`. Known only when no tile may be left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The first cell of the stretch: the start, or a cut tile.
    pub entry: usize,
    /// The last cell, a cut tile, or `None` for the part the route ends in.
    pub exit: Option<usize>,
    /// Every node of the part, `entry` and `exit` included.
    pub nodes: Vec<usize>,
}

/// What holds for every route of a room, learnt by the rules.
#[derive(Clone, Debug)]
pub struct Deductions {
    may_end: Vec<bool>,
    end_reasons: Vec<String>,
    forbidden_arcs: Vec<bool>,
    forced_steps: Vec<(usize, usize)>,
    forced_arcs: Vec<usize>,
    must_cover: Vec<usize>,
    dead_ends: Vec<usize>,
    always_left: Vec<usize>,
    left_mask: Vec<bool>,
    parts: Vec<Part>,
}

impl Deductions {
    fn new(room: &Room) -> Deductions {
        let mut may_end = vec![true; room.num_nodes()];
        may_end[START] = false;
        if let Some(end) = room.end() {
            may_end.iter_mut().enumerate().for_each(|(node, slot)| *slot = node == end);
        }
        Deductions {
            may_end,
            end_reasons: Vec::new(),
            forbidden_arcs: vec![false; room.arcs().len()],
            forced_steps: Vec::new(),
            forced_arcs: Vec::new(),
            must_cover: Vec::new(),
            dead_ends: Vec::new(),
            always_left: Vec::new(),
            left_mask: Vec::new(),
            parts: Vec::new(),
        }
    }

    /// Whether some route may end on this node.
    pub fn may_end(&self, node: usize) -> bool {
        self.may_end[node]
    }

    /// Whether some route may take this arc (by the room's arc number).
    pub fn arc_allowed(&self, arc: usize) -> bool {
        !self.forbidden_arcs[arc]
    }

    /// Pairs of neighbours every route steps between, in one direction or
    /// the other.
    pub fn forced_steps(&self) -> &[(usize, usize)] {
        &self.forced_steps
    }

    /// Arcs every route takes, in this direction.
    pub fn forced_arcs(&self) -> &[usize] {
        &self.forced_arcs
    }

    /// Tiles every route covers, even when tiles may be left.
    pub fn must_cover(&self) -> &[usize] {
        &self.must_cover
    }

    /// The parts every route covers one after another, when known.
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// How many tiles may end the route.
    pub fn num_possible_ends(&self) -> usize {
        self.may_end.iter().filter(|&&m| m).count()
    }

    /// Whether every route leaves this node (it is unreachable).
    fn is_left(&self, node: usize) -> bool {
        self.left_mask.get(node).copied().unwrap_or(false)
    }

    /// Keeps only the ends `keep` allows; returns whether any is left.
    fn restrict_ends(&mut self, keep: impl Fn(usize) -> bool) -> bool {
        for (node, slot) in self.may_end.iter_mut().enumerate() {
            *slot &= keep(node);
        }
        self.may_end.iter().any(|&m| m)
    }

    fn forbid_arc(&mut self, arc: usize) {
        self.forbidden_arcs[arc] = true;
    }

    /// Why the route must end where it can, as sentences for certificates.
    fn end_reasons(&self) -> String {
        self.end_reasons.join("; ")
    }
}

/// What the presolve found: a refutation, or the deductions for SAT.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// A proof that the room has no route, when a rule found one.
    pub refutation: Option<Refutation>,
    /// What holds for every route; meaningful when there is no refutation.
    pub deductions: Deductions,
}

/// Runs every rule, cheapest first, and stops at the first refutation.
///
/// ```
/// use somaria::model::Source;
/// use somaria::puzzles::tile_cover::{load_puzzle, presolve};
/// // Two tiles with one open side each: only one of them can be the last.
/// let source = Source::from_text("m.toml", "kind = \"tile-cover\"\ngrid = \"\"\"\n.#.\n.S.\n\"\"\"\n");
/// let analysis = presolve::analyse(load_puzzle(&source).unwrap().room());
/// let refutation = analysis.refutation.unwrap();
/// assert_eq!(refutation.rule, presolve::Rule::DeadEnds);
/// assert!(refutation.text.contains("(0, 0) and (0, 2)"), "{}", refutation.text);
/// ```
pub fn analyse(room: &Room) -> Analysis {
    let mut deductions = Deductions::new(room);
    let refutation = run_rules(room, &mut deductions).err();
    Analysis { refutation, deductions }
}

fn run_rules(room: &Room, known: &mut Deductions) -> Result<(), Refutation> {
    if room.num_tiles() == 0 {
        let text = "the room has no tile to step on, and a route covers at least one".to_string();
        return Err(Refutation::new(Rule::NoTile, text, Vec::new()));
    }
    reach::unreachable_tiles(room, known)?;
    colour::colour_count(room)?;
    ends::dead_ends(room, known)?;
    blocks::cut_tiles(room, known)?;
    colour::end_colour(room, known)?;
    blocks::part_colours(room, known)?;
    chains::forced_steps(room, known)?;
    degree::degree_matching(room, known)?;
    entry::entry_matching(room)?;
    leave::leave_cases(room, known)?;
    Ok(())
}

/// A sentence that proves the room has no route, or `None` when these
/// checks find no reason.
///
/// ```
/// use somaria::model::Source;
/// use somaria::puzzles::tile_cover::{load_puzzle, presolve};
/// let source = Source::from_text("m.toml", "kind = \"tile-cover\"\ngrid = \"\"\"\nS..\n.#.\n\"\"\"\n");
/// let why = presolve::refute(load_puzzle(&source).unwrap().room()).unwrap();
/// assert!(why.contains("would have to be 3 of the start's colour and 2 of the other"), "{why}");
/// ```
pub fn refute(room: &Room) -> Option<String> {
    analyse(room).refutation.map(|r| r.text)
}

/// Names of up to eight nodes, "a, b and c", and a count of the rest.
fn list(room: &Room, nodes: &[usize]) -> String {
    list_up_to(room, nodes, 8)
}

/// Names of up to `shown` nodes, and a count of the rest: for certificates
/// a player checks cell by cell.
fn list_up_to(room: &Room, nodes: &[usize], shown: usize) -> String {
    let mut names: Vec<String> = nodes.iter().take(shown).map(|&n| name(room, n)).collect();
    if nodes.len() > shown {
        names.push(format!("{} more", nodes.len() - shown));
    }
    match names.len() {
        0 => String::new(),
        1 => names.remove(0),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// A node's name: "the start (r, c)" for the start, "(r, c)" for a tile.
fn name(room: &Room, node: usize) -> String {
    if node == START { format!("the start {}", room.label(node)) } else { room.label(node) }
}

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::puzzles::tile_cover::Cell;

    pub(super) fn room(rows: &[&str], k: usize) -> Room {
        let cells = rows.iter().map(|r| r.chars().map(|c| Cell::from_symbol(c).unwrap()).collect()).collect();
        Room::new(&Grid::from_rows(cells).unwrap(), k)
    }

    pub(super) fn rule_of(rows: &[&str], k: usize) -> Option<Rule> {
        analyse(&room(rows, k)).refutation.map(|r| r.rule)
    }

    #[test]
    fn an_empty_room_has_no_route() {
        assert!(refute(&room(&["S#"], 0)).unwrap().contains("no tile"));
    }

    /// The degree matching (after the colour count, which balances its
    /// flow) covers the entry matching when nothing may be left: a
    /// b-matching orients into one way in per tile.
    /// With tiles to leave, the entry matching stays in the chain.
    #[test]
    fn the_degree_matching_covers_the_entry_matching() {
        let mut rng = crate::rng::SplitMix64::new(5);
        let mut both = [0usize; 3];
        let mut entry_only = [0usize; 3];
        let mut degree_only = [0usize; 3];
        for _ in 0..4000 {
            let (h, w) = (2 + rng.below(5), 2 + rng.below(5));
            let mut rows: Vec<String> =
                (0..h).map(|_| (0..w).map(|_| if rng.below(100) < 20 { '#' } else { '.' }).collect()).collect();
            let s = rng.below(h * w);
            rows[s / w].replace_range(s % w..s % w + 1, "S");
            if rng.below(4) == 0 {
                let e = rng.below(h * w);
                if e != s {
                    rows[e / w].replace_range(e % w..e % w + 1, "E");
                }
            }
            let k = rng.below(3);
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let r = room(&rows, k);
            if r.num_tiles() < k {
                continue;
            }
            let by_entry = entry::entry_matching(&r).is_err();
            // The colour count runs first and keeps the flow balanced.
            let by_colour = colour::colour_count(&r).is_err();
            let by_flow = degree::whole_room(&r, &Deductions::new(&r)).is_err();
            let by_degree = by_colour || by_flow;
            match (by_entry, by_degree) {
                (true, true) => both[k] += 1,
                (true, false) => {
                    entry_only[k] += 1;
                    assert!(k > 0, "only the entry matching refutes\n{}", rows.join("\n"));
                }
                (false, true) => degree_only[k] += usize::from(by_flow && !by_colour),
                (false, false) => {}
            }
        }
        assert!(both[0] > 50, "{both:?}");
        assert!(degree_only.iter().all(|&n| n > 20), "{degree_only:?}");
        eprintln!(
            "refuted by both {both:?}, by the entry matching alone {entry_only:?}, by the degrees alone {degree_only:?}"
        );
    }

    #[test]
    fn an_open_room_passes_every_rule() {
        assert_eq!(rule_of(&["S...", "....", "...."], 0), None);
        let analysis = analyse(&room(&["S...", "....", "...."], 0));
        // Twelve cells, so the route ends on the other colour.
        let r = room(&["S...", "....", "...."], 0);
        assert!(r.tiles().all(|t| analysis.deductions.may_end(t) != r.same_colour_as_start(t)));
    }
}

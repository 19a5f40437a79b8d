//! A state of play in a family's own terms: the entries a player has made,
//! what a step settles, and a route puzzle's legs.

use super::{NamedConstraint, Stats};

/// One fact of a state of play: a subject takes a value (or, when `holds`
/// is false, does not), both numbered as [`crate::deduce::Fact`] numbers them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The family's number for the thing.
    pub subject: usize,
    /// The family's number for the value.
    pub value: i64,
    /// Whether the thing takes the value.
    pub holds: bool,
}

/// A state of play to draw: what is known, what a step settles and the
/// cells its rules read.
#[derive(Copy, Clone, Debug)]
pub struct PlayState<'a> {
    /// The facts known before the step.
    pub known: &'a [Entry],
    /// The facts the step settles, whose cells are shaded.
    pub new: &'a [Entry],
    /// Whether the new facts' values are drawn too (otherwise only where
    /// they are).
    pub new_shown: bool,
    /// Cells outlined, such as those the step's rules read.
    pub outlined: &'a [crate::grid::Pos],
}

/// A fewest-steps route from a player's state, leg by leg: what `hint`
/// and `steps` show for a route puzzle ([`super::Routed::route_legs`]).
#[derive(Clone, Debug, Default)]
pub struct RouteLegs {
    /// The goals reached by the moves given, in order, such as "a".
    pub reached: Vec<String>,
    /// The moves given, as `--given moves=...` writes them.
    pub walked: Vec<String>,
    /// The legs from there, in order, every one checked.
    pub legs: Vec<RouteLeg>,
    /// The fewest steps of a route that starts with the moves given; `None`
    /// when no route does.
    pub fewest_in_all: Option<u64>,
    /// The fewest steps of any route from the start.
    pub fewest_from_start: Option<u64>,
    /// A given move that cannot be made, and why.
    pub clash: Option<(String, String)>,
    /// Why no route exists from the state, when none does.
    pub explanation: Option<Vec<NamedConstraint>>,
    /// Sizes and times.
    pub stats: Stats,
}

/// One leg of a route: one walker's moves to the next goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteLeg {
    /// The goal it reaches, in the puzzle's words, such as "c".
    pub goal: String,
    /// The walker, numbered from 1, when the puzzle has several.
    pub walker: Option<usize>,
    /// Where it starts and ends.
    pub from: crate::grid::Pos,
    /// Where it ends: the goal's cell.
    pub to: crate::grid::Pos,
    /// Its moves.
    pub moves: Vec<crate::grid::Dir>,
}

/// Moves as a player gives them: `R,R,D`, or with several walkers `1R,2U`
/// (`1:right` and the full names work too), separated by commas or
/// spaces. Each move is (walker from 1 when named, direction).
///
/// ```
/// use somaria::grid::Dir;
/// let moves = somaria::puzzles::read_moves("R, 2:up,d").unwrap();
/// assert_eq!(moves, vec![(None, Dir::Right), (Some(2), Dir::Up), (None, Dir::Down)]);
/// assert!(somaria::puzzles::read_moves("R,X").unwrap_err().contains("\"X\""));
/// ```
pub fn read_moves(text: &str) -> Result<Vec<(Option<usize>, crate::grid::Dir)>, String> {
    use crate::grid::Dir;
    let words = text.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty());
    words
        .map(|word| {
            let digits = word.chars().take_while(char::is_ascii_digit).count();
            let walker = (digits > 0).then(|| word[..digits].parse::<usize>().ok()).flatten();
            let name = word[digits..].trim_start_matches(':').to_ascii_lowercase();
            let dir = match name.as_str() {
                "r" => Some(Dir::Right),
                "l" => Some(Dir::Left),
                "u" => Some(Dir::Up),
                "d" => Some(Dir::Down),
                other => Dir::from_name(other),
            };
            match dir {
                Some(dir) if digits == 0 || walker.is_some_and(|w| w >= 1) => Ok((walker, dir)),
                _ => Err(format!(
                    "{word:?} is not a move; expected U, D, L or R (or up, down, left, right), with a walker number \
                     first when there are several, such as 2R"
                )),
            }
        })
        .collect()
}

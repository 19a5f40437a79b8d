//! `hint` and `steps` for keys and doors: from the moves a player has
//! walked (`--given moves=R,R,D`), the legs of a fewest-steps route, one
//! key each. The state is replayed here; the rest of the route is the
//! engine's answer on the grid as the state leaves it (keys held turned to
//! floor, their doors open, each walker standing where it is), and its legs
//! are re-walked by [`check_legs`], which finds each leg's fewest moves by
//! a search of its own.

use std::collections::BTreeSet;
use std::time::Instant;

use super::check::check_legs;
use super::{Cell, Engine, KeysDoorsPuzzle, Move};
use crate::grid::{Dir, Pos};
use crate::puzzles::{Error, Puzzle, RouteLeg, RouteLegs, SolveOptions, Stats, read_moves};

/// What the moves given leave: where each walker stands, the keys held
/// and the order they were picked up in.
struct Walked {
    at: Vec<Pos>,
    held: BTreeSet<char>,
    order: Vec<String>,
}

/// The legs of a fewest-steps route from the state `given` walks to.
pub fn route_legs(puzzle: &KeysDoorsPuzzle, options: &SolveOptions, given: &[String]) -> Result<RouteLegs, Error> {
    let started = Instant::now();
    let engine = Engine::choose(options.engine.as_deref())?;
    let moves = given_moves(puzzle, given)?;
    let walked_words: Vec<String> = moves.iter().map(|m| word(puzzle, m)).collect();
    let stats = Stats { engine: engine.to_string(), ..Stats::default() };
    let mut out = RouteLegs { walked: walked_words, stats, ..RouteLegs::default() };
    out.fewest_from_start = puzzle.run(engine, options)?.route.map(|r| r.len() as u64);
    let walked = match walk(puzzle, &moves) {
        Ok(walked) => walked,
        Err((at, why)) => {
            out.clash = Some((format!("move {} ({})", at + 1, word(puzzle, &moves[at])), why));
            return Ok(out);
        }
    };
    out.reached = walked.order.clone();
    let rest = rest_of(puzzle, &walked)?;
    let run = rest.run(engine, options)?;
    out.stats = Stats { engine: engine.to_string(), solve_ms: Stats::ms(started.elapsed()), ..run.stats };
    let Some(route) = run.route else {
        out.explanation = Some(rest.explain(options)?.constraints);
        return Ok(out);
    };
    let legs = legs_of(&rest, &route);
    let walks: Vec<(usize, Vec<Dir>)> = legs.iter().map(|(w, leg)| (*w, leg.moves.clone())).collect();
    let total = check_legs(puzzle, walked.at.clone(), walked.held.clone(), &walks).map_err(Error::CheckFailed)?;
    if total != route.len() {
        return Err(Error::CheckFailed(format!("the legs take {total} steps, the route {}", route.len())));
    }
    out.fewest_in_all = Some((moves.len() + total) as u64);
    out.legs = legs.into_iter().map(|(_, leg)| leg).collect();
    Ok(out)
}

/// The moves of the `moves=...` entries, in order; any other entry is
/// refused, saying what is taken.
fn given_moves(puzzle: &KeysDoorsPuzzle, given: &[String]) -> Result<Vec<Move>, Error> {
    let walkers = puzzle.starts().len();
    let mut moves = Vec::new();
    for entry in given {
        let bad = |why: String| Error::BadRequest(format!("--given {entry:?}: {why}"));
        let Some(("moves", list)) = entry.split_once('=').map(|(k, v)| (k.trim(), v)) else {
            return Err(bad("expected moves=..., the moves walked so far, such as moves=R,R,D".to_string()));
        };
        for (walker, dir) in read_moves(list).map_err(bad)? {
            let walker = match walker {
                None if walkers == 1 => 0,
                None => return Err(bad(format!("name the walker of each move (1 to {walkers}), such as 2R"))),
                Some(w) if w <= walkers => w - 1,
                Some(w) => return Err(bad(format!("walker {w} is not in the grid; expected 1 to {walkers}"))),
            };
            moves.push(Move { walker, dir });
        }
    }
    Ok(moves)
}

/// A move as `--given moves=...` takes it back.
fn word(puzzle: &KeysDoorsPuzzle, mv: &Move) -> String {
    let letter = mv.dir.name()[..1].to_ascii_uppercase();
    if puzzle.starts().len() == 1 { letter } else { format!("{}{letter}", mv.walker + 1) }
}

/// Replays the moves; the error is the first that cannot be made, and why.
fn walk(puzzle: &KeysDoorsPuzzle, moves: &[Move]) -> Result<Walked, (usize, String)> {
    let layout = puzzle.layout();
    let mut walked = Walked { at: puzzle.starts().to_vec(), held: BTreeSet::new(), order: Vec::new() };
    for (i, mv) in moves.iter().enumerate() {
        if walked.held.len() == puzzle.keys().len() {
            return Err((i, "every key is held already, so the route has ended".to_string()));
        }
        let from = walked.at[mv.walker];
        let Some(next) = layout.step(from, mv.dir) else {
            return Err((i, format!("it leaves the grid from {from:?}")));
        };
        match layout[next] {
            Cell::Wall => return Err((i, format!("it walks into the wall at {next:?}"))),
            Cell::Door(d) if !walked.held.contains(&d.to_ascii_lowercase()) => {
                return Err((i, format!("door '{d}' at {next:?} is shut: its key is not held")));
            }
            Cell::Key(k) if walked.held.insert(k) => walked.order.push(k.to_string()),
            _ => {}
        }
        walked.at[mv.walker] = next;
    }
    Ok(walked)
}

/// The grid as the state leaves it: keys held and their doors turned to
/// floor, each walker standing where it was left (two may share a cell),
/// numbered as before.
fn rest_of(puzzle: &KeysDoorsPuzzle, walked: &Walked) -> Result<KeysDoorsPuzzle, Error> {
    let mut layout = puzzle.layout().clone();
    for (pos, cell) in puzzle.layout().cells() {
        let open = match *cell {
            Cell::Start => true,
            Cell::Key(k) | Cell::Door(k) => walked.held.contains(&k.to_ascii_lowercase()),
            _ => false,
        };
        if open {
            layout[pos] = Cell::Floor;
        }
    }
    for &pos in &walked.at {
        layout[pos] = Cell::Start;
    }
    let mut rest = KeysDoorsPuzzle::from_grid(layout).map_err(|e| Error::Internal(format!("the state's grid: {e}")))?;
    rest.starts = walked.at.clone();
    Ok(rest)
}

/// A route split into legs at its pickups: each leg is the picking
/// walker's moves since its last pickup, so the other walkers' moves wait
/// for their own legs (keys only open doors, so a move made later can
/// still be made). Returns (walker, leg) pairs.
fn legs_of(rest: &KeysDoorsPuzzle, route: &[Move]) -> Vec<(usize, RouteLeg)> {
    let several = rest.starts().len() > 1;
    let mut at = rest.starts().to_vec();
    let mut leg_from = at.clone();
    let mut pending: Vec<Vec<Dir>> = vec![Vec::new(); at.len()];
    let mut held = BTreeSet::new();
    let mut legs = Vec::new();
    for mv in route {
        let w = mv.walker;
        at[w] = rest.layout().step(at[w], mv.dir).expect("a checked route stays in the grid");
        pending[w].push(mv.dir);
        if let Cell::Key(k) = rest.layout()[at[w]]
            && held.insert(k)
        {
            let walker = w;
            let leg = RouteLeg {
                goal: k.to_string(),
                walker: several.then_some(walker + 1),
                from: leg_from[w],
                to: at[w],
                moves: std::mem::take(&mut pending[w]),
            };
            legs.push((walker, leg));
            leg_from[w] = at[w];
        }
    }
    legs
}

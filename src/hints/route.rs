//! A route puzzle's legs ([`RouteLegs`]) as steps: each leg is one step
//! whose facts are the goal reached next and the leg's length, because the
//! route is one of fewest steps.

use super::{PlanStatus, Planned};
use crate::puzzles::{NamedConstraint, RouteLeg, RouteLegs};
use crate::report::steps::{Clash, PlanEnd, PlanTimes, ShownFact, ShownRule, ShownStep, ShownWalk, StartState};

/// The plan of `legs`, the first `max_steps` of them when limited.
pub(super) fn planned(legs: RouteLegs, entries: &[String], max_steps: Option<usize>) -> Planned {
    let reached = legs.reached.len();
    let facts: Vec<ShownFact> = legs.reached.iter().enumerate().map(|(i, g)| goal_fact(i + 1, g)).collect();
    let start = StartState { entries: entries.to_vec(), facts, ..StartState::default() };
    let mut planned = Planned {
        status: PlanStatus::Solved,
        steps: Vec::new(),
        state: Vec::new(),
        end: PlanEnd {
            remaining: Some(1),
            remaining_complete: true,
            stats: PlanTimes { run: legs.stats.clone(), ..PlanTimes::default() },
            start,
            ..PlanEnd::default()
        },
        figures: None,
    };
    if let Some((entry, why)) = legs.clash {
        let constraints = vec![NamedConstraint { name: why, row: None, col: None, line: None, cells: Vec::new() }];
        planned.end.clash = Some(Clash { entries: vec![entry], constraints });
        return no_solution(planned);
    }
    let Some(fewest) = legs.fewest_in_all else {
        planned.end.explanation = legs.explanation;
        return no_solution(planned);
    };
    let mut walked = legs.walked.clone();
    let mut known = planned.end.start.facts.clone();
    let taken = legs.legs.len().min(max_steps.unwrap_or(usize::MAX));
    for (i, leg) in legs.legs.iter().take(taken).enumerate() {
        let step = leg_step(reached + i + 1, leg, &known, fewest, legs.fewest_from_start);
        known.push(goal_fact(reached + i + 1, &leg.goal));
        walked.extend(leg.moves.iter().map(|d| word(leg.walker, *d)));
        planned.steps.push(step);
    }
    if taken < legs.legs.len() {
        planned.status = PlanStatus::Partial;
        planned.end.remaining = None;
        planned.end.remaining_complete = false;
    }
    // What `--given` takes back: the moves walked, given and shown.
    let moves = ShownFact::named("moves".into(), walked.join(",").into(), None);
    planned.state.push(moves);
    planned
}

fn no_solution(mut planned: Planned) -> Planned {
    planned.status = PlanStatus::NoSolution;
    planned.end.remaining = Some(0);
    planned
}

/// "key 3 = c": the third goal reached is c.
fn goal_fact(number: usize, goal: &str) -> ShownFact {
    ShownFact::named(format!("key {number}"), goal.into(), None)
}

fn word(walker: Option<usize>, dir: crate::grid::Dir) -> String {
    let letter = dir.name()[..1].to_ascii_uppercase();
    walker.map_or(letter.clone(), |w| format!("{w}{letter}"))
}

fn leg_step(number: usize, leg: &RouteLeg, known: &[ShownFact], fewest: u64, from_start: Option<u64>) -> ShownStep {
    let steps = leg.moves.len();
    let mut facts = vec![ShownFact { place: Some(leg.to), ..goal_fact(number, &leg.goal) }];
    if let Some(w) = leg.walker {
        facts.push(ShownFact::named(format!("key {number} walker"), w.into(), None));
    }
    facts.push(ShownFact::named(format!("leg {number} steps"), steps.into(), None));
    let who = leg.walker.map_or(String::new(), |w| format!("walker {w}: "));
    let mut note = format!("{who}collect {} next: {}; the fewest in all is {fewest}", leg.goal, counted(steps));
    if from_start.is_some_and(|f| f != fewest) {
        note.push_str(&format!(" with the moves walked (from the start: {})", from_start.unwrap_or_default()));
    }
    let rule = ShownRule {
        name: format!("collect every key in the fewest steps ({fewest} in all)"),
        line: None,
        cells: vec![leg.from, leg.to],
    };
    ShownStep {
        facts,
        because: vec![rule],
        using: known.iter().filter(|f| f.var.starts_with("key ")).cloned().collect(),
        size: 1,
        weight: 1 + known.iter().filter(|f| f.var.starts_with("key ")).count(),
        smallest: true,
        using_minimal: true,
        note: Some(note),
        merged: None,
        walk: Some(ShownWalk { walker: leg.walker, from: leg.from, to: leg.to, moves: leg.moves.clone() }),
        proof: None,
        technique: None,
        via: Vec::new(),
    }
}

fn counted(steps: usize) -> String {
    crate::puzzles::counted(steps, "step")
}

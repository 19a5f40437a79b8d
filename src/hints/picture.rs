//! The picture of a step: the puzzle as its family draws a state of play
//! (or, for a family that draws none, as it draws a solution, or a grid of
//! the facts' cells), the values known before the step written in, the new
//! facts' cells shaded and the cells of the step's rules outlined; and the
//! same state as text, for the reports.

use crate::draw::{Ground, Mark, Scene, Tint, text};
use crate::grid::Pos;
use crate::puzzles::{DecidedBy, Drawn, Entry, Error, PlayState, Puzzle, SolveReport, Stats, Status, wrapped};
use crate::report::steps::{Reveal, ShownFact, ShownStep, facts_text, step_text};

/// The state `known`, with `step`'s cells shaded (and with `what` its new
/// values drawn in) and, unless `reveal` is `where`, the cells of its
/// rules outlined, as the family draws a state of play, in its text style.
fn state_scene(
    puzzle: &dyn Puzzle,
    known: &[ShownFact],
    step: Option<&ShownStep>,
    reveal: Reveal,
) -> Option<(Scene, text::Style)> {
    let entries = |facts: &[ShownFact]| facts.iter().filter_map(|f| f.entry).collect::<Vec<Entry>>();
    let new = step.map_or_else(Vec::new, |step| entries(&step.facts));
    let outlined: Vec<Pos> = match step {
        Some(step) if reveal != Reveal::Where => step.because.iter().flat_map(|r| r.cells.iter().copied()).collect(),
        _ => Vec::new(),
    };
    let state = PlayState { known: &entries(known), new: &new, new_shown: reveal == Reveal::What, outlined: &outlined };
    puzzle.deducible()?.state_picture(&state)
}

/// The state `known`, and `step` on it as much as `reveal` gives away,
/// drawn as text as the family draws its states; `None` when it draws none.
pub fn state_text(
    puzzle: &dyn Puzzle,
    known: &[ShownFact],
    step: Option<&ShownStep>,
    reveal: Reveal,
) -> Option<String> {
    let (scene, style) = state_scene(puzzle, known, step, reveal)?;
    let settled = match (step, reveal) {
        (None, _) => return Some(text::draw(&scene, &style)),
        (Some(_), Reveal::Where) => "█: where to look",
        (Some(_), Reveal::Why) => "█: the cells the step settles",
        (Some(_), Reveal::What) => "█ or the new values: the cells the step settles",
    };
    let read = if scene.outlines.is_empty() { "" } else { "; [ ]: the cells its constraints read" };
    Some(format!("{}({settled}{read})\n", text::draw(&scene, &style)))
}

/// The picture of `step` taken from the state `known` (the facts known
/// before it), giving away what `reveal` says; `extent` is the rows and
/// columns of a plain grid, for a family that draws none.
pub fn step_picture(
    puzzle: &dyn Puzzle,
    extent: (usize, usize),
    known: &[ShownFact],
    step: &ShownStep,
    reveal: Reveal,
) -> Result<Scene, Error> {
    if let Some((mut scene, _)) = state_scene(puzzle, known, Some(step), reveal) {
        caption(&mut scene, step, reveal);
        return Ok(scene);
    }
    let blank = SolveReport {
        status: Status::Unknown,
        solution: None,
        explanation: None,
        cost: None,
        objective: None,
        decided_by: DecidedBy::Sat,
        stats: Stats::default(),
        cnf: None,
    };
    let mut scene = match puzzle.picture(Drawn::Solution(&blank)) {
        Ok(scene) if scene.rows() > 0 => scene,
        Ok(_) | Err(Error::Unsupported { .. }) => Scene::new(extent.0, extent.1),
        Err(e) => return Err(e),
    };
    scene.caption.clear();
    let inside = |scene: &Scene, (r, c): (usize, usize)| r < scene.rows() && c < scene.cols();
    if scene.marks.is_empty() {
        for fact in known.iter().filter(|f| f.op == "=") {
            if let Some(place) = fact.place.filter(|&p| inside(&scene, p)) {
                scene.marks.push((place, Mark::Label(label(fact), Tint::Ink)));
            }
        }
    }
    for fact in &step.facts {
        if let Some(place) = fact.place.filter(|&p| inside(&scene, p)) {
            scene.set_ground(place, Ground::Shaded(Tint::Highlight));
            if reveal == Reveal::What && fact.op == "=" {
                scene.marks.push((place, Mark::Label(label(fact), Tint::Goal)));
            }
        }
    }
    if reveal != Reveal::Where {
        for rule in &step.because {
            let cells: Vec<(usize, usize)> = rule.cells.iter().copied().filter(|&p| inside(&scene, p)).collect();
            scene.outlines.extend(cells);
        }
        scene.outlines.sort_unstable();
        scene.outlines.dedup();
    }
    caption(&mut scene, step, reveal);
    Ok(scene)
}

fn caption(scene: &mut Scene, step: &ShownStep, reveal: Reveal) {
    for line in step_text(step, reveal).lines() {
        scene.caption.extend(wrapped(line.trim(), 60));
    }
    if reveal == Reveal::Where {
        scene.caption.push(format!("shaded: {}", facts_text(&step.facts, false)));
    } else {
        scene.caption.push("shaded: the cells the step settles; outlined: the cells of its constraints".into());
    }
}

fn label(fact: &ShownFact) -> String {
    match &fact.value {
        serde_json::Value::String(s) => s.chars().take(3).collect(),
        other => other.to_string(),
    }
}

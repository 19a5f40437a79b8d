//! The picture of a step: the puzzle as its family draws it (or, for a
//! family that draws no grid, a grid of the facts' cells), the values known
//! before the step written in, the new facts' cells shaded and the cells of
//! the step's rules outlined. Kept to one function so that a family's own
//! drawing of a state can replace the grid later.

use crate::draw::{Ground, Mark, Scene, Tint};
use crate::puzzles::{DecidedBy, Drawn, Error, Puzzle, SolveReport, Stats, Status, wrapped};
use crate::report::steps::{Reveal, ShownFact, ShownStep, facts_text, step_text};

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
    for line in step_text(step, reveal).lines() {
        scene.caption.extend(wrapped(line.trim(), 60));
    }
    if reveal == Reveal::Where {
        scene.caption.push(format!("shaded: {}", facts_text(&step.facts, false)));
    } else {
        scene.caption.push("shaded: the cells the step settles; outlined: the cells of its constraints".into());
    }
    Ok(scene)
}

fn label(fact: &ShownFact) -> String {
    match &fact.value {
        serde_json::Value::String(s) => s.chars().take(3).collect(),
        other => other.to_string(),
    }
}

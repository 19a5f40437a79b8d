//! The picture of a step: the puzzle as its family draws a state of play
//! (or, for a family that draws none, as it draws a solution, or a grid of
//! the facts' cells), the values known before the step written in, the new
//! facts' cells shaded and the cells of the step's rules outlined; and the
//! same state as text, for the reports.

use super::steps::{HintReport, PlanStatus, Reveal, ShownFact, ShownStep, ending_text, facts_text, step_text};
use crate::draw::{Ground, Mark, Scene, Tint, text};
use crate::grid::Pos;
use crate::puzzles::{
    DecidedBy, Drawn, Entry, Error, ExplainReport, PlayState, Puzzle, SolveReport, Stats, Status, wrapped,
};

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
        caption(&mut scene, step, reveal, Legend::Drawn);
        return Ok(scene);
    }
    let mut scene = plain_state(puzzle, extent, known)?;
    let mut shaded = false;
    for fact in &step.facts {
        if let Some(place) = fact.place.filter(|&p| inside(&scene, p)) {
            scene.set_ground(place, Ground::Shaded(Tint::Highlight));
            shaded = true;
            if reveal == Reveal::What && fact.op == "=" {
                scene.marks.push((place, Mark::label(label(fact), Tint::Goal)));
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
    let outlined = !scene.outlines.is_empty();
    caption(&mut scene, step, reveal, Legend::Plain { shaded, outlined });
    Ok(scene)
}

/// The picture of a hint that gives no step. With no solution, the
/// constraints that cannot all hold, drawn as `explain` draws them, and
/// the entries that break them; otherwise the state the hint started from,
/// captioned with why there is no step.
pub fn no_step_picture(puzzle: &dyn Puzzle, report: &HintReport) -> Result<Scene, Error> {
    if report.status == PlanStatus::NoSolution {
        let constraints = match (&report.end.clash, &report.end.explanation) {
            (Some(clash), _) => clash.constraints.clone(),
            (None, Some(explanation)) => explanation.clone(),
            (None, None) => Vec::new(),
        };
        let explained = ExplainReport {
            status: Status::NoSolution,
            constraints,
            certificate: None,
            rule: None,
            stats: Stats::default(),
            stopped: None,
        };
        let mut scene = puzzle.picture(Drawn::Explanation(&explained))?;
        match &report.end.clash {
            Some(clash) => scene.caption.extend(wrapped(&format!("with the entries {}", clash.entries.join(", ")), 60)),
            None if explained.constraints.is_empty() => scene.caption.push("no solution".to_string()),
            None => {}
        }
        return Ok(scene);
    }
    let mut scene = match state_scene(puzzle, &report.end.start.facts, None, report.reveal) {
        Some((scene, _)) => scene,
        None => plain_state(puzzle, report.end.extent, &report.end.start.facts)?,
    };
    let ending = ending_text(report.status, report.end.remaining, report.end.remaining_complete, &None, &None);
    for line in ending.lines().chain(report.end.stopped.iter().map(String::as_str)) {
        scene.caption.extend(wrapped(line.trim(), 60));
    }
    Ok(scene)
}

/// The state `known`, drawn as the family draws a state of play, else as
/// it draws a blank solution with the known values written in (a plain
/// grid of `extent` when it draws none): what a play session shows.
pub fn state_picture(puzzle: &dyn Puzzle, extent: (usize, usize), known: &[ShownFact]) -> Result<Scene, Error> {
    match state_scene(puzzle, known, None, Reveal::Where) {
        Some((scene, _)) => Ok(scene),
        None => plain_state(puzzle, extent, known),
    }
}

/// The puzzle with nothing solved, for `somaria show`: as a session
/// draws it with no entries (`scene`, which knows a plain grid's extent
/// when the family draws none), and as text, with its title.
pub fn puzzle_text(puzzle: &dyn Puzzle, scene: &Scene) -> String {
    let mut out = super::heading(puzzle.kind(), puzzle.title());
    match state_text(puzzle, &[], None, Reveal::Where) {
        Some(text) => out.push_str(&text),
        None => {
            let style = crate::draw::text::Style {
                floor: '.',
                wall: '#',
                shaded: '█',
                dot: Some('•'),
                ring: Some('○'),
                square: Some('□'),
                indent: "",
            };
            out.push_str(&crate::draw::text::draw(scene, &style));
        }
    }
    out
}

/// The state `known` for a family that draws no state of play: the puzzle
/// as it draws a blank solution (or a plain grid of `extent` when it draws
/// none), with the known values written in where it wrote nothing.
fn plain_state(puzzle: &dyn Puzzle, extent: (usize, usize), known: &[ShownFact]) -> Result<Scene, Error> {
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
    if scene.marks.is_empty() {
        for fact in known.iter().filter(|f| f.op == "=") {
            if let Some(place) = fact.place.filter(|&p| inside(&scene, p)) {
                scene.marks.push((place, Mark::label(label(fact), Tint::Ink)));
            }
        }
    }
    Ok(scene)
}

fn inside(scene: &Scene, (row, col): Pos) -> bool {
    row < scene.rows() && col < scene.cols()
}

/// What the last caption line explains: the marks of a family's own state
/// picture, or of a plain one, which has shading and outlines only where
/// the step's facts and rules have cells in it.
enum Legend {
    Drawn,
    Plain { shaded: bool, outlined: bool },
}

fn caption(scene: &mut Scene, step: &ShownStep, reveal: Reveal, legend: Legend) {
    for line in step_text(step, reveal).lines() {
        let rows = wrapped(line.trim(), 60);
        let cut = rows.len() > CAPTION_ROWS;
        scene.caption.extend(rows.into_iter().take(if cut { CAPTION_ROWS - 1 } else { CAPTION_ROWS }));
        if cut {
            // A step that rules out thousands of values (a tour's leg
            // lengths) would make a picture metres tall; the text and the
            // JSON reports list them all.
            scene.caption.push("… (the rest in the text or JSON report)".to_string());
        }
    }
    let (shaded, outlined) = match legend {
        Legend::Drawn => (true, reveal != Reveal::Where),
        Legend::Plain { shaded, outlined } => (shaded, outlined),
    };
    // A family's own picture may single out lines (a loop's steps) rather
    // than cells, or both.
    let lines = scene.edges.iter().any(|e| e.highlight) || scene.links.iter().any(|l| l.highlight);
    let cells = !lines || scene.ground_runs().any(|(.., g)| g == Ground::Shaded(Tint::Highlight));
    let settled = match (cells, lines) {
        (true, true) => "the cells and lines the step settles",
        (false, true) => "the lines the step settles",
        _ => "the cells the step settles",
    };
    let mut parts = Vec::new();
    if shaded && reveal == Reveal::Where {
        parts.push(format!("shaded: {}", facts_text(&step.facts, false)));
    } else if shaded {
        parts.push(format!("shaded: {settled}"));
    }
    if outlined {
        parts.push("outlined: the cells of its constraints".to_string());
    }
    if !parts.is_empty() {
        scene.caption.push(parts.join("; "));
    }
}

/// The most rows one line of a step's text takes in a picture's caption.
const CAPTION_ROWS: usize = 6;

fn label(fact: &ShownFact) -> String {
    match &fact.value {
        serde_json::Value::String(s) => s.chars().take(3).collect(),
        other => other.to_string(),
    }
}

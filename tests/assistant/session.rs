//! The planner session ([`somaria::hints::Planner`]) on every kind, with no
//! server: hints taken and entered until solved, wrong entries named by
//! `check` (a wrong entry is made from a hint's own fact, turned round, so
//! no answer is written here), undo and redo, the solutions left, the
//! state drawn, and the session's hint against the one-shot `hint`.

use somaria::hints::{self, Edit, PlanRequest, Planner};
use somaria::puzzles::SolveOptions;
use somaria::report::steps::{PlanStatus, Reveal, ShownFact};

fn load(path: &str) -> Box<dyn somaria::Puzzle> {
    somaria::load_file(path.as_ref()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn value_text(fact: &ShownFact) -> String {
    match &fact.value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The fact as an entry: `var=value` or `var!=value`; `turned` gives its
/// opposite, which no solution agrees with when the fact was a step.
fn entry(fact: &ShownFact, turned: bool) -> String {
    let op = if (fact.op == "=") != turned { "=" } else { "!=" };
    format!("{}{op}{}", fact.var, value_text(fact))
}

fn request() -> PlanRequest {
    PlanRequest { count_limit: 2, ..PlanRequest::default() }
}

/// Takes hints and enters their facts until no hint is left, at most
/// `most` times; the status at the end and the hints taken.
fn play(planner: &mut Planner<'_>, most: usize) -> (PlanStatus, usize) {
    for taken in 0..most {
        let hint = planner.hint(&request(), Reveal::What).unwrap();
        let Some(step) = hint.step else { return (hint.status, taken) };
        assert_eq!(hint.status, PlanStatus::Hint);
        for fact in &step.facts {
            assert!(planner.edit(Edit::Enter(entry(fact, false))).unwrap(), "{fact:?} changed nothing");
        }
    }
    (PlanStatus::Unknown, most)
}

/// A hint's first fact turned round is named by `check`; undo takes it
/// back and redo makes it again; clearing it leaves nothing wrong.
fn wrong_entry_named(path: &str) {
    let puzzle = load(path);
    let mut planner = Planner::new(puzzle.as_ref(), &SolveOptions::default()).unwrap();
    assert_eq!(planner.check().unwrap().text(), "no entry is wrong so far", "{path}");
    let hint = planner.hint(&request(), Reveal::What).unwrap();
    let fact = &hint.step.expect("a hint from the start").facts[0];
    let wrong = entry(fact, true);
    assert!(planner.edit(Edit::Enter(wrong.clone())).unwrap());
    let check = planner.check().unwrap();
    assert_eq!(check.wrong, std::slice::from_ref(&wrong), "{path}: {check:?}");
    assert!(check.text().contains(&wrong) && check.text().contains("cannot be right"), "{}", check.text());
    assert_eq!(planner.remaining(10).unwrap(), (0, true), "{path}");
    assert!(planner.edit(Edit::Undo).unwrap());
    assert!(planner.entries().is_empty() && planner.check().unwrap().wrong.is_empty());
    assert!(planner.edit(Edit::Redo).unwrap());
    assert_eq!(planner.entries(), std::slice::from_ref(&wrong));
    assert!(!planner.edit(Edit::Redo).unwrap(), "nothing left to redo");
    assert!(planner.edit(Edit::Clear(fact.var.clone())).unwrap());
    assert!(planner.entries().is_empty(), "{:?}", planner.entries());
    // The state is drawn as `--format svg` draws a picture.
    let mut svg = Vec::new();
    somaria::draw::svg::write(&planner.scene().unwrap(), &mut svg).unwrap();
    assert!(String::from_utf8(svg).unwrap().starts_with("<svg"), "{path}");
}

#[test]
fn sudoku_slitherlink_and_nurikabe_name_a_wrong_entry() {
    for path in ["models/csp/sudoku-17.toml", "models/csp/slitherlink.toml", "models/csp/nurikabe.toml"] {
        wrong_entry_named(path);
    }
}

#[test]
fn the_shrine_is_played_to_solved_by_hints() {
    let puzzle = load("models/akh-vaquot.toml");
    let mut planner = Planner::new(puzzle.as_ref(), &SolveOptions::default()).unwrap();
    let (status, taken) = play(&mut planner, 20);
    assert_eq!(status, PlanStatus::Solved, "after {taken} hints: {:?}", planner.entries());
    assert!(taken >= 1);
    // The entries are the answer `solve` finds, fan by fan.
    let solved = puzzle.solve(&SolveOptions::default()).unwrap();
    let answer = serde_json::to_value(&solved.solution).unwrap().to_string();
    for e in planner.entries().iter().filter(|e| !e.contains("!=")) {
        let (fan, dir) = e.split_once('=').unwrap();
        let number: usize = fan.trim_start_matches("fan ").parse().unwrap();
        assert!(answer.contains(dir), "{e} not in {answer}");
        assert!(number < 6, "{e}");
    }
    assert_eq!(planner.remaining(10).unwrap(), (1, true));
    let check = planner.check().unwrap();
    assert!(check.wrong.is_empty() && check.clash.is_none(), "{check:?}");
    wrong_entry_named("models/akh-vaquot.toml");
}

#[test]
fn a_sudoku_is_filled_by_easy_steps_and_undone() {
    let puzzle = load("models/csp/sudoku-17.toml");
    let mut planner = Planner::new(puzzle.as_ref(), &SolveOptions::default()).unwrap();
    let easy = planner.steps(&PlanRequest { upto: Some(1), ..request() }).unwrap();
    assert!(!easy.steps.is_empty());
    let entries: Vec<String> = easy.state.iter().map(|f| entry(f, false)).collect();
    planner.set_entries(entries.clone()).unwrap();
    assert!(planner.check().unwrap().wrong.is_empty());
    let (after, _) = planner.remaining(2).unwrap();
    assert_eq!(after, 1);
    assert!(planner.edit(Edit::Undo).unwrap());
    assert!(planner.entries().is_empty());
    assert!(planner.edit(Edit::Redo).unwrap());
    assert_eq!(planner.entries(), entries);
    // The warm session's next hint is the one-shot hint from the same
    // entries, step for step.
    let warm = planner.hint(&request(), Reveal::What).unwrap();
    let cold_request = PlanRequest { given: entries, ..request() };
    let cold = hints::hint(puzzle.as_ref(), &SolveOptions::default(), &cold_request, Reveal::What).unwrap();
    assert_eq!(warm.status, cold.status);
    assert_eq!(warm.step, cold.step);
}

#[test]
fn a_tile_cover_room_is_walked_with_moves() {
    let puzzle = load("models/tile-cover-end.toml");
    let mut planner = Planner::new(puzzle.as_ref(), &SolveOptions::default()).unwrap();
    planner.edit(Edit::Enter("moves=L".into())).unwrap();
    let hint = planner.hint(&request(), Reveal::What).unwrap();
    let step = hint.step.expect("a step after one move");
    assert_eq!(hint.end.start.entries, ["move 1 (L): step from (0, 3) = left"]);
    // A step's fact turned round could be right alone, but not after the
    // move: the two are named as a clash, with the tile they break.
    let turned = entry(&step.facts[0], true);
    planner.edit(Edit::Enter(turned.clone())).unwrap();
    let check = planner.check().unwrap();
    let clash = check.clash.as_ref().expect("a clash");
    assert_eq!(clash.entries, ["move 1 (L): step from (0, 3) = left".to_string(), turned], "{check:?}");
    assert!(check.wrong.is_empty() && !clash.constraints.is_empty(), "{check:?}");
    // A second moves entry replaces the first; a move into a wall is refused.
    planner.edit(Edit::Enter("moves=L,L".into())).unwrap();
    assert_eq!(planner.entries()[1], "moves=L,L");
    let error = planner.edit(Edit::Enter("moves=R,R,D".into())).unwrap_err().to_string();
    assert!(error.contains("wall"), "{error}");
    assert_eq!(planner.entries()[1], "moves=L,L", "a refused edit changes nothing");
    // Hero's Cave has no route at all.
    let cave = load("models/heros-cave.toml");
    let mut planner = Planner::new(cave.as_ref(), &SolveOptions::default()).unwrap();
    assert!(planner.check().unwrap().no_solution);
    assert_eq!(planner.hint(&request(), Reveal::Where).unwrap().status, PlanStatus::NoSolution);
}

#[test]
fn keys_and_doors_show_legs_and_a_move_into_a_wall() {
    let puzzle = load("models/keys-doors/two-doors.toml");
    let mut planner = Planner::new(puzzle.as_ref(), &SolveOptions::default()).unwrap();
    let steps = planner.steps(&request()).unwrap();
    assert_eq!(steps.status, PlanStatus::Solved);
    let walked = steps.state.iter().find(|f| f.var == "moves").expect("the moves walked");
    planner.edit(Edit::Enter(format!("moves={}", value_text(walked)))).unwrap();
    assert_eq!(planner.remaining(10).unwrap(), (1, true));
    let hint = planner.hint(&request(), Reveal::What).unwrap();
    assert!(hint.step.is_none(), "every key is collected: {hint:?}");
    planner.edit(Edit::Enter("moves=U".into())).unwrap();
    let check = planner.check().unwrap();
    assert_eq!(check.wrong.len(), 1, "{check:?}");
    assert!(check.wrong[0].contains("move 1 (U)") && check.wrong[0].contains("leaves the grid"), "{check:?}");
    assert_eq!(planner.remaining(10).unwrap(), (0, true));
    assert!(planner.scene().is_ok());
}

#[test]
fn an_entry_that_is_not_one_is_refused_with_the_cli_message() {
    let puzzle = load("models/csp/sudoku-17.toml");
    let mut planner = Planner::new(puzzle.as_ref(), &SolveOptions::default()).unwrap();
    let error = planner.edit(Edit::Enter("z[1,1]=5".into())).unwrap_err().to_string();
    assert!(error.contains("nothing is named \"z[1,1]\""), "{error}");
    let error = planner.edit(Edit::Enter("cell[1,1]".into())).unwrap_err().to_string();
    assert!(error.contains("expected NAME=VALUE"), "{error}");
    let error = planner.edit(Edit::Enter("cell[1,1]=10".into())).unwrap_err().to_string();
    assert!(error.contains("is not a value of"), "{error}");
    assert!(planner.entries().is_empty() && planner.can_undo_redo() == (false, false));
}

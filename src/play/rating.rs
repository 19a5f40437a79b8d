//! Each served model's difficulty rating, as `steps` gives it from the
//! start: made once per model on a session of its own, in the background,
//! so that a rating which takes its time (a 10 × 10 nurikabe's thousand
//! steps) never holds up the player's own questions. The page asks until
//! it is made; every page on the model shares it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use super::session::{Session, Unanswered};
use crate::hints::PlanRequest;
use crate::puzzles::{Puzzle, SolveOptions};
use crate::report::steps::PlanStatus;

/// A model's rating, made or being made.
#[derive(Clone, Debug)]
enum Rated {
    Running,
    Made(Value),
    /// Why there is no rating (the deadline, the steps' ending).
    Not(String),
}

/// The ratings of the served models, by name.
#[derive(Default)]
pub(super) struct Ratings {
    rated: Arc<Mutex<HashMap<String, Rated>>>,
}

/// How a rating is made: its deadline, the memory cap and the solvers.
pub(super) struct Limits {
    pub time: Duration,
    pub memory: Option<u64>,
    pub options: SolveOptions,
}

impl Ratings {
    /// The rating of the model `name` as the page shows it: `{"running":
    /// true}` while it is made (starting it, with `puzzle`, on the first
    /// ask), then `{"text", "difficulty"}`, or `{"text"}` saying why there
    /// is none.
    pub(super) fn of(
        &self,
        name: &str,
        puzzle: impl FnOnce() -> Result<Arc<dyn Puzzle>, String>,
        limits: Limits,
    ) -> Value {
        let Ok(mut rated) = self.rated.lock() else {
            return json!({ "text": "not rated: the ratings' lock was poisoned" });
        };
        match rated.get(name) {
            Some(Rated::Running) => return json!({ "running": true }),
            Some(Rated::Made(value)) => return value.clone(),
            Some(Rated::Not(why)) => return json!({ "text": format!("not rated: {why}") }),
            None => {}
        }
        let puzzle = match puzzle() {
            Ok(puzzle) => puzzle,
            Err(why) => {
                rated.insert(name.to_string(), Rated::Not(why.clone()));
                return json!({ "text": format!("not rated: {why}") });
            }
        };
        rated.insert(name.to_string(), Rated::Running);
        let (all, name) = (Arc::clone(&self.rated), name.to_string());
        let started = std::thread::Builder::new().name("play rating".into()).spawn(move || {
            let outcome = rate(puzzle, &limits);
            if let Ok(mut rated) = all.lock() {
                rated.insert(name, outcome);
            }
        });
        match started {
            Ok(_) => json!({ "running": true }),
            Err(e) => json!({ "text": format!("not rated: cannot start a thread ({e})") }),
        }
    }
}

/// The steps' rating of `puzzle` from its start, within `limits`.
fn rate(puzzle: Arc<dyn Puzzle>, limits: &Limits) -> Rated {
    let session = match Session::start(puzzle, &limits.options) {
        Ok(session) => session,
        Err(e) => return Rated::Not(e.to_string()),
    };
    let request = PlanRequest { count_limit: 2, ..PlanRequest::default() };
    let report = match session.ask(limits.time, limits.memory, move |planner| planner.steps(&request)) {
        Ok(Ok(report)) => report,
        Ok(Err(e)) => return Rated::Not(e.to_string()),
        Err(Unanswered::Stopped(reached)) => return Rated::Not(format!("stopped by {reached}")),
        Err(Unanswered::Ended) => return Rated::Not("the rating's session ended (a bug)".into()),
    };
    if let Some(why) = &report.end.stopped {
        return Rated::Not(format!("stopped by {why}"));
    }
    if report.status != PlanStatus::Solved {
        return Rated::Not(format!("the steps from the start end {:?}", report.status).to_lowercase());
    }
    let d = &report.difficulty;
    Rated::Made(json!({
        "text": format!("rated {} ({} steps, {} constraints in all)", d.largest, d.steps, d.total),
        "difficulty": d,
    }))
}

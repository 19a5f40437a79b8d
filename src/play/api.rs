//! The routes: the page and its files, the model listing, and the JSON API
//! over a session. Each route reads its body, asks the session one
//! question and writes the answer; the planner does the work.

use std::sync::Arc;

use serde_json::{Value, json};

use super::session::{Session, Unanswered};
use super::{Response, Server, generate, rating};
use crate::draw::Scene;
use crate::hints::{EdgeThing, Edit, PlanRequest, Planner};
use crate::puzzles::Error;
use crate::report::picture::step_picture;
use crate::report::steps::{HintReport, PlanStatus, Reveal, ShownFact, ending_text, step_text};

/// A request as the listener hands it over.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// `GET`, `POST` or `DELETE`.
    pub method: &'a str,
    /// The path, with any query after `?`.
    pub url: &'a str,
    /// The `Host` header, when there is one.
    pub host: Option<&'a str>,
    /// The body.
    pub body: &'a [u8],
}

/// The page's files, by path: the only files served besides the models.
const FILES: &[(&str, &str, &str)] = &[
    ("/", "text/html; charset=utf-8", include_str!("assets/index.html")),
    ("/play.css", "text/css; charset=utf-8", include_str!("assets/play.css")),
    ("/play.js", "text/javascript; charset=utf-8", include_str!("assets/play.js")),
];

/// The routes, for the message that names them.
const ROUTES: &str = "GET /, GET /api/models, POST /api/ratings, GET or DELETE /api/progress/TOKEN, POST /api/sessions, GET or DELETE /api/sessions/ID, POST \
                      /api/sessions/ID/(edit|hint|check|fill|steps|state)";

pub(super) fn route(server: &Server, request: &Request<'_>) -> Response {
    let path = request.url.split(['?', '#']).next().unwrap_or("");
    if let Some((_, content_type, text)) = FILES.iter().find(|(p, _, _)| *p == path) {
        return match request.method {
            "GET" | "HEAD" => Response { status: 200, content_type, body: text.as_bytes().to_vec() },
            method => Response::error(405, format!("{method} {path}: expected GET")),
        };
    }
    let parts: Vec<&str> = path.split('/').collect();
    let answer = match (request.method, &parts[..]) {
        ("GET", ["", "api", "models"]) => Ok(models(server)),
        ("POST", ["", "api", "ratings"]) => model_rating(server, request.body),
        ("GET", ["", "api", "progress", token]) => match generate::is_token(token) {
            true => Ok(server.runs.progress(token).unwrap_or_else(|| json!({ "running": false }))),
            false => Err(Response::error(400, format!("progress {token:?}: expected 1 to 32 letters, digits, - or _"))),
        },
        ("DELETE", ["", "api", "progress", token]) => Ok(json!({ "stopped": server.runs.cancel(token) })),
        ("POST", ["", "api", "sessions"]) => open(server, request.body),
        ("GET", ["", "api", "sessions", name]) => ask(server, name, view),
        ("DELETE", ["", "api", "sessions", name]) => match server.close(name) {
            true => Ok(json!({ "closed": name })),
            false => Err(Response::error(404, format!("no session is named {name:?}"))),
        },
        ("POST", ["", "api", "sessions", name, question]) => question_route(server, name, question, request.body),
        (method, _) => Err(Response::error(404, format!("no route {method} {path}; expected one of {ROUTES}"))),
    };
    match answer {
        Ok(value) => Response::json(200, &value),
        Err(refused) => refused,
    }
}

fn question_route(server: &Server, name: &str, question: &str, body: &[u8]) -> Result<Value, Response> {
    let body = read_body(body)?;
    match question {
        "edit" => {
            let edit = read_edit(&body)?;
            ask(server, name, move |planner| {
                match edit {
                    Edited::One(edit) => planner.edit(edit)?,
                    Edited::All(entries) => {
                        planner.set_entries(entries)?;
                        true
                    }
                };
                view(planner)
            })
        }
        "hint" => {
            let reveal = match body.get("reveal").and_then(Value::as_str).unwrap_or("where") {
                "where" => Reveal::Where,
                "why" => Reveal::Why,
                "what" => Reveal::What,
                other => return Err(Response::error(400, format!("reveal {other:?}: expected where, why or what"))),
            };
            ask(server, name, move |planner| hint(planner, reveal))
        }
        "check" => ask(server, name, |planner| {
            let check = planner.check()?;
            Ok(json!({ "text": check.text(), "check": check }))
        }),
        "fill" => ask(server, name, fill),
        "state" => ask(server, name, |planner| Ok(json!({ "state": planner.state_file()? }))),
        "steps" => {
            let most = match body.get("most") {
                None => None,
                Some(value) => match value.as_u64().and_then(|n| usize::try_from(n).ok()).filter(|&n| n > 0) {
                    Some(n) => Some(n),
                    None => {
                        return Err(Response::error(400, format!("most {value}: expected a number of steps from 1")));
                    }
                },
            };
            ask(server, name, move |planner| steps(planner, most))
        }
        other => Err(Response::error(
            404,
            format!("no question {other:?}; expected edit, hint, check, fill, steps or state"),
        )),
    }
}

/// The body as a JSON object (an empty body is an empty object).
fn read_body(body: &[u8]) -> Result<serde_json::Map<String, Value>, Response> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(serde_json::Map::new());
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(members)) => Ok(members),
        Ok(other) => Err(Response::error(400, format!("a body of {other}; expected a JSON object"))),
        Err(e) => Err(Response::error(400, format!("the body is not JSON: {e}; expected a JSON object"))),
    }
}

/// An edit as the page sends it.
enum Edited {
    One(Edit),
    All(Vec<String>),
}

fn read_edit(body: &serde_json::Map<String, Value>) -> Result<Edited, Response> {
    let text = |key: &str| body.get(key).and_then(Value::as_str).map(str::to_string);
    if let Some(entry) = text("enter") {
        return Ok(Edited::One(Edit::Enter(entry)));
    }
    if let Some(name) = text("clear") {
        return Ok(Edited::One(Edit::Clear(name)));
    }
    for (key, edit) in [("clear_all", Edit::ClearAll), ("undo", Edit::Undo), ("redo", Edit::Redo)] {
        if body.get(key) == Some(&Value::Bool(true)) {
            return Ok(Edited::One(edit));
        }
    }
    if let Some(Value::Array(items)) = body.get("entries") {
        let entries: Option<Vec<String>> = items.iter().map(|v| v.as_str().map(str::to_string)).collect();
        return entries
            .map(Edited::All)
            .ok_or_else(|| Response::error(400, "entries: expected a list of strings such as \"x[2,3]=5\""));
    }
    Err(Response::error(
        400,
        "an edit of nothing; expected {\"enter\": ENTRY}, {\"clear\": NAME}, {\"clear_all\": true}, {\"undo\": true}, \
         {\"redo\": true} or {\"entries\": [ENTRY, ...]}",
    ))
}

fn models(server: &Server) -> Value {
    let names: Vec<&str> = server.models().iter().map(|m| m.name.as_str()).collect();
    json!({ "models": names })
}

/// The difficulty rating of the served `model` from its start, made in
/// the background on the first ask: `{"running": true}` until then.
fn model_rating(server: &Server, body: &[u8]) -> Result<Value, Response> {
    let body = read_body(body)?;
    let Some(Value::String(name)) = body.get("model") else {
        return Err(Response::error(400, "model: expected the name of a model from GET /api/models"));
    };
    let served = server.served(name)?;
    let puzzle = || served.puzzle().map(Arc::from);
    let limits = rating::Limits {
        time: server.config.rating_time,
        memory: server.config.memory,
        options: server.config.options.clone(),
    };
    Ok(server.ratings.of(name, puzzle, limits))
}

/// A new session on a served model, or (given a `seed`) on a new puzzle
/// made from it, with the page's entries when it sends them.
fn open(server: &Server, body: &[u8]) -> Result<Value, Response> {
    let body = read_body(body)?;
    let model = match body.get("model") {
        Some(Value::String(name)) => name.clone(),
        None if server.models().len() == 1 => server.models()[0].name.clone(),
        _ => return Err(Response::error(400, "model: expected the name of a model from GET /api/models")),
    };
    let entries = match body.get("entries") {
        None => None,
        Some(_) => match read_edit(&body)? {
            Edited::All(entries) => Some(entries),
            Edited::One(_) => None,
        },
    };
    let served = server.served(&model)?.clone();
    let made = match body.get("seed") {
        None => None,
        Some(seed) => Some(new_puzzle(server, &served, seed, &body)?),
    };
    let puzzle = match &made {
        None => served.puzzle().map_err(|e| Response::error(400, e))?,
        Some(made) => crate::generate::check::load(&model, &made.puzzle.model).map_err(refusal)?,
    };
    let (name, session) = server.open(&model, Arc::from(puzzle))?;
    let mut view = answer(server, &session, move |planner| {
        if let Some(entries) = entries {
            planner.set_entries(entries)?;
        }
        view(planner)
    })
    .inspect_err(|_| {
        server.close(&name);
    })?;
    view["session"] = json!(name);
    view["model"] = json!(model);
    view["designable"] = json!(generate::designable(&served));
    if let Some(made) = made {
        let puzzle = &made.puzzle;
        view["generated"] = json!({
            "seed": puzzle.seed,
            "run_seed": body.get("seed"),
            "model": puzzle.model,
            "clues": puzzle.clues,
            "clues_drawn": puzzle.clues_drawn,
            "rating": made.rating,
        });
    }
    Ok(view)
}

/// A new puzzle from `served` for the page's `seed`, `difficulty`
/// (`[LO, HI]`) and `progress` token.
fn new_puzzle(
    server: &Server,
    served: &super::Served,
    seed: &Value,
    body: &serde_json::Map<String, Value>,
) -> Result<generate::Made, Response> {
    let seed = seed.as_u64().ok_or_else(|| Response::error(400, format!("seed {seed}: expected a whole number")))?;
    let difficulty = match body.get("difficulty") {
        None | Some(Value::Null) => None,
        Some(range) => {
            let bounds: Option<Vec<usize>> = range
                .as_array()
                .map(|b| b.iter().map(|v| v.as_u64().and_then(|n| usize::try_from(n).ok())).collect::<Option<_>>())
                .unwrap_or(None);
            match bounds.as_deref() {
                Some(&[lo, hi]) if lo <= hi => Some((lo, hi)),
                _ => return Err(Response::error(400, format!("difficulty {range}: expected [LO, HI] with LO <= HI"))),
            }
        }
    };
    let token = match body.get("progress") {
        None => None,
        Some(Value::String(token)) if generate::is_token(token) => Some(token.as_str()),
        Some(other) => {
            return Err(Response::error(400, format!("progress {other}: expected 1 to 32 letters, digits, - or _")));
        }
    };
    let wanted = generate::Wanted { served, seed, difficulty, token };
    generate::make(&server.runs, &wanted, &server.config.options, server.config.timeout, server.config.memory)
}

/// Asks the session named `name` one question under the server's limits.
fn ask(
    server: &Server,
    name: &str,
    question: impl for<'p> FnOnce(&mut Planner<'p>) -> Result<Value, Response> + Send + 'static,
) -> Result<Value, Response> {
    let (session, _) = server.session(name)?;
    answer(server, &session, question)
}

fn answer(
    server: &Server,
    session: &Arc<Session>,
    question: impl for<'p> FnOnce(&mut Planner<'p>) -> Result<Value, Response> + Send + 'static,
) -> Result<Value, Response> {
    match session.ask(server.config.timeout, server.config.memory, question) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(refused)) => Err(refused),
        Err(Unanswered::Stopped(reached)) => Err(Response::error(503, format!("stopped by {reached}"))),
        Err(Unanswered::Ended) => Err(Response::error(500, "the session ended (a bug); expected a new session")),
    }
}

/// An error as the command line words it, with its HTTP status.
pub(super) fn refusal(e: Error) -> Response {
    let status = match e {
        Error::UnknownEngine { .. }
        | Error::Unsupported { .. }
        | Error::Output(_)
        | Error::BadRequest(_)
        | Error::TooLarge(_)
        | Error::NoFormula { .. } => 400,
        Error::Stopped(_) => 503,
        Error::NotMade(_) => 422,
        Error::Solver(_) | Error::CheckFailed(_) | Error::Internal(_) => 500,
    };
    Response::error(status, e.to_string())
}

fn svg(scene: &Scene) -> String {
    let mut out = Vec::new();
    let _ = crate::draw::svg::write(scene, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// The board: the scene as `--format svg` draws it, with its unseen
/// targets over each cell (`data-row`, `data-col`, from 0) and, where the
/// drawing has lines, over each place of one (`data-edge`), for the page's
/// clicks; the view's `edges` say which of those the player enters on.
fn board(scene: &Scene) -> String {
    svg(scene)
}

/// How the picture names an edge's place (its `data-edge`): `KIND ROW COL
/// ALONG`, as [`crate::draw::svg`] writes it.
fn edge_key(edge: &EdgeThing) -> String {
    format!("{} {} {} {}", edge.kind, edge.at.0, edge.at.1, edge.along)
}

/// The state the page shows: the entries, undo and redo, and the board.
fn view(planner: &mut Planner<'_>) -> Result<Value, Response> {
    let (undo, redo) = planner.can_undo_redo();
    let puzzle = planner.puzzle();
    let edges = planner.edges()?;
    let keyed: Vec<Value> = edges
        .iter()
        .map(|e| json!({ "key": edge_key(e), "name": e.name, "values": e.values, "kind": e.kind }))
        .collect();
    Ok(json!({
        "kind": puzzle.kind(),
        "title": puzzle.title(),
        "entries": planner.entries(),
        "undo": undo,
        "redo": redo,
        "svg": board(&planner.scene()?),
        "cells": planner.cells()?,
        "edges": keyed,
    }))
}

/// A question stopped before its end, as a refusal.
fn stopped(why: &Option<String>) -> Result<(), Response> {
    match why {
        Some(why) => Err(Response::error(503, why.clone())),
        None => Ok(()),
    }
}

impl From<Error> for Response {
    fn from(e: Error) -> Response {
        refusal(e)
    }
}

/// A hint at `reveal`: its text, the cells to highlight and its picture;
/// at `where`, no value of the step is sent at all.
fn hint(planner: &mut Planner<'_>, reveal: Reveal) -> Result<Value, Response> {
    let request = PlanRequest { count_limit: 2, next: crate::hints::Next::Placement, ..PlanRequest::default() };
    let report: HintReport = planner.hint(&request, reveal)?;
    stopped(&report.end.stopped)?;
    let Some(step) = &report.step else {
        let end = &report.end;
        let text = ending_text(report.status, end.remaining, end.remaining_complete, &end.explanation, &end.clash);
        return Ok(json!({ "status": report.status, "text": text.trim(), "cells": [] }));
    };
    let cells: Vec<(usize, usize)> = step.facts.iter().filter_map(|f| f.place).collect();
    let picture = step_picture(planner.puzzle(), report.end.extent, &report.end.start.facts, step, reveal)?;
    let mut shown = json!({
        "status": report.status,
        "text": step_text(step, reveal).trim_end(),
        "cells": cells,
        "svg": board(&picture),
    });
    if reveal == Reveal::What {
        let entries: Vec<String> = step.facts.iter().map(entry_of).collect();
        shown["entries"] = json!(entries);
    }
    Ok(shown)
}

/// A fact as an entry the planner takes back.
fn entry_of(fact: &ShownFact) -> String {
    let value = match &fact.value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    format!("{}{}{value}", fact.var, fact.op)
}

/// Fill easy steps: every step of one constraint from the entries, its
/// values entered as one edit.
fn fill(planner: &mut Planner<'_>) -> Result<Value, Response> {
    let request = PlanRequest { upto: Some(1), count_limit: 2, ..PlanRequest::default() };
    let report = planner.steps(&request)?;
    stopped(&report.end.stopped)?;
    let new: Vec<String> = report.steps.iter().flat_map(|s| &s.facts).filter(|f| f.op == "=").map(entry_of).collect();
    planner.enter_all(&new)?;
    let mut shown = view(planner)?;
    shown["filled"] = json!(report.steps.len());
    let text = match report.steps.len() {
        0 => {
            let end = &report.end;
            let why = ending_text(report.status, end.remaining, end.remaining_complete, &end.explanation, &end.clash);
            format!("no easy step left: {}", why.trim())
        }
        steps => format!(
            "{} entered by {}",
            crate::puzzles::counted(new.len(), "value"),
            crate::puzzles::counted(steps, "easy step")
        ),
    };
    shown["text"] = json!(text);
    Ok(shown)
}

/// Steps from the entries to the end (the first `most` of them when
/// given), each with its text and picture.
fn steps(planner: &mut Planner<'_>, most: Option<usize>) -> Result<Value, Response> {
    let report = planner.steps(&PlanRequest { count_limit: 2, max_steps: most, ..PlanRequest::default() })?;
    stopped(&report.end.stopped)?;
    let mut known = report.end.start.facts.clone();
    let mut shown = Vec::new();
    for step in &report.steps {
        let picture = step_picture(planner.puzzle(), report.end.extent, &known, step, Reveal::What)?;
        shown.push(json!({ "text": step_text(step, Reveal::What).trim_end(), "svg": svg(&picture) }));
        known.extend(step.facts.iter().cloned());
    }
    let end = &report.end;
    let ending = ending_text(report.status, end.remaining, end.remaining_complete, &end.explanation, &end.clash);
    Ok(json!({
        "status": report.status,
        "difficulty": report.difficulty,
        "steps": shown,
        "text": ending.trim(),
        "solved": report.status == PlanStatus::Solved,
    }))
}

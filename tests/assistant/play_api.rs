//! `somaria play`'s routes with no sockets: [`Server::handle`] on every
//! kind (csp Sudoku, slitherlink and nurikabe, the fans shrine, a
//! tile-cover room with moves, keys and doors), and hostile requests
//! refused with a 4xx and a JSON message.

use std::time::Duration;

use serde_json::{Value, json};
use somaria::play::{Config, Request, Response, Server, served};

const HOST: &str = "127.0.0.1:7357";

fn server(config: Config) -> Server {
    let models = served("models".as_ref()).unwrap();
    Server::new(models, Config { hosts: vec![HOST.into()], ..config })
}

fn call(server: &Server, method: &str, url: &str, body: &str) -> Response {
    server.handle(&Request { method, url, host: Some(HOST), body: body.as_bytes() })
}

/// The JSON of a response that must succeed.
fn ok(server: &Server, method: &str, url: &str, body: Value) -> Value {
    let response = call(server, method, url, &body.to_string());
    assert_eq!(response.status, 200, "{method} {url} {body}: {}", response.text());
    assert_eq!(response.content_type, "application/json");
    serde_json::from_slice(&response.body).unwrap()
}

/// The message of a response that must be refused with `status`.
fn refused(response: Response, status: u16) -> String {
    assert_eq!(response.status, status, "{}", response.text());
    let value: Value = serde_json::from_slice(&response.body).expect("an error is JSON");
    value["error"].as_str().expect("an error member").to_string()
}

/// Every route on one model: open, hint at each level, an entry turned
/// from a hint and named by check, undo and redo, fill, steps, close.
fn every_route(server: &Server, model: &str, moves: Option<&str>) {
    let opened = ok(server, "POST", "/api/sessions", json!({ "model": model }));
    let name = opened["session"].as_str().unwrap().to_string();
    let at = |question: &str| format!("/api/sessions/{name}/{question}");
    assert!(opened["svg"].as_str().unwrap().contains("data-col=\"0\" data-row=\"0\""), "{model}");
    assert_eq!(ok(server, "GET", &format!("/api/sessions/{name}"), json!({}))["entries"], json!([]));
    if let Some(moves) = moves {
        let view = ok(server, "POST", &at("edit"), json!({ "enter": format!("moves={moves}") }));
        assert_eq!(view["entries"], json!([format!("moves={moves}")]), "{model}");
    }
    let what = ok(server, "POST", &at("hint"), json!({ "reveal": "what" }));
    let whered = ok(server, "POST", &at("hint"), json!({ "reveal": "where" }));
    let why = ok(server, "POST", &at("hint"), json!({ "reveal": "why" }));
    assert_eq!(what["status"], "hint", "{model}: {what}");
    assert!(whered.get("entries").is_none() && why.get("entries").is_none(), "{model}: {whered}");
    assert!(whered["text"].as_str().unwrap().starts_with("look at"), "{model}: {whered}");
    assert!(why["text"].as_str().unwrap().contains("because"), "{model}: {why}");
    assert_eq!(whered["cells"], what["cells"]);
    // The new facts' values are only in the `what` hint.
    let entries: Vec<String> = what["entries"].as_array().unwrap().iter().map(|e| e.as_str().unwrap().into()).collect();
    let first = &entries[0];
    assert!(!whered.to_string().contains(&first.replace("!=", "≠")), "{model}: {whered}");
    let turned = match first.split_once("!=") {
        Some((var, value)) => format!("{var}={value}"),
        None => first.replacen('=', "!=", 1),
    };
    ok(server, "POST", &at("edit"), json!({ "enter": turned }));
    let check = ok(server, "POST", &at("check"), json!({}));
    assert!(check["text"].as_str().unwrap().contains(&turned), "{model}: {check}");
    let undone = ok(server, "POST", &at("edit"), json!({ "undo": true }));
    assert_eq!(undone["redo"], json!(true));
    assert!(!undone["entries"].to_string().contains(&turned));
    let redone = ok(server, "POST", &at("edit"), json!({ "redo": true }));
    assert!(redone["entries"].to_string().contains(&turned.replace('"', "\\\"")), "{model}: {redone}");
    ok(server, "POST", &at("edit"), json!({ "undo": true }));
    let steps = ok(server, "POST", &at("steps"), json!({ "most": 2 }));
    assert_eq!(steps["steps"].as_array().unwrap().len(), 2, "{model}: {steps}");
    assert!(steps["steps"][0]["svg"].as_str().unwrap().starts_with("<svg"));
    let filled = ok(server, "POST", &at("fill"), json!({}));
    assert!(filled["text"].is_string(), "{model}: {filled}");
    let undone = ok(server, "POST", &at("edit"), json!({ "undo": true }));
    assert_eq!(undone["entries"], json!(moves.map_or_else(Vec::new, |m| vec![format!("moves={m}")])), "{model}");
    assert_eq!(ok(server, "DELETE", &format!("/api/sessions/{name}"), json!({}))["closed"], json!(name));
    refused(call(server, "POST", &at("hint"), "{}"), 404);
}

/// A 5 × 5 slitherlink (made by `somaria generate --seed 3` from a blank
/// 5 × 5 copy of models/csp/slitherlink.toml; `count` finds one solution):
/// the 10 × 10 one's every route takes seconds where this takes a tenth.
const SLITHERLINK_5: &str = r#"kind = "csp"
title = "Slitherlink 5 × 5"
show = ["across", "down"]

[params]
clue = """[|
   3,  2, -1,  2, -1 |
  -1,  3,  1,  1,  3 |
   1,  2,  1, -1,  3 |
  -1,  2,  2, -1,  3 |
   3, -1, -1, -1,  1 |]"""

[vars]
on = { index = ["0..5", "0..5"], domain = "bool" }
across = { index = ["0..5", "0..4"], domain = "bool" }
down = { index = ["0..4", "0..5"], domain = "bool" }

[[constraint]]
name = "one loop along the grid lines"
expr = 'grid_loop(on, across, down)'

[[constraint]]
name = "each clue counts the loop's steps around its cell"
expr = """forall(i in 1..5, j in 1..5 where clue[i, j] >= 0)(
  bool2int(across[i-1, j-1]) + bool2int(across[i, j-1]) + bool2int(down[i-1, j-1]) + bool2int(down[i-1, j]) = clue[i, j])"""

[draw]
rows = 5
cols = 5

[[draw.layer]]
text = "clue"
blank = -1

[[draw.layer]]
edges = ["across", "down"]
"#;

/// A 5 × 5 nurikabe with one solution (`count` says so): its clues on the
/// rules of models/csp/nurikabe.toml, whose 10 × 10 puzzle takes a minute
/// to fill and walk.
fn nurikabe_5() -> String {
    let rules = std::fs::read_to_string("models/csp/nurikabe.toml").unwrap();
    let rules = &rules[rules.find("[vars]").unwrap()..];
    format!(
        "kind = \"csp\"\ntitle = \"Nurikabe 5x5\"\nshow = [\"island\"]\n\n[params]\nrows = 5\ncols = 5\nislands = 4\n\
         clues = [[2, 2, 4], [2, 5, 1], [5, 2, 3], [5, 4, 1]]\n\n{rules}"
    )
}

/// A server of the two small grids above, from a folder of their own.
fn small_grids(config: Config) -> (tempfile::TempDir, Server) {
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("slitherlink-5.toml"), SLITHERLINK_5).unwrap();
    std::fs::write(folder.path().join("nurikabe-5.toml"), nurikabe_5()).unwrap();
    let models = served(folder.path()).unwrap();
    (folder, Server::new(models, Config { hosts: vec![HOST.into()], ..config }))
}

#[test]
fn every_route_answers_on_every_kind() {
    // Generous: the other core may be busy.
    let config = Config { timeout: Duration::from_secs(120), ..Config::default() };
    let (_folder, grids) = small_grids(config.clone());
    every_route(&grids, "slitherlink-5.toml", None);
    every_route(&grids, "nurikabe-5.toml", None);
    let server = server(config);
    every_route(&server, "csp/sudoku-17.toml", None);
    every_route(&server, "akh-vaquot.toml", None);
    every_route(&server, "tile-cover-end.toml", Some("L"));
    // Keys and doors: a hint is the next leg; a move into the edge is named.
    let opened = ok(&server, "POST", "/api/sessions", json!({ "model": "keys-doors/two-doors.toml" }));
    let name = opened["session"].as_str().unwrap();
    let hint = ok(&server, "POST", &format!("/api/sessions/{name}/hint"), json!({ "reveal": "what" }));
    assert!(hint["text"].as_str().unwrap().contains("collect a next"), "{hint}");
    ok(&server, "POST", &format!("/api/sessions/{name}/edit"), json!({ "enter": "moves=U" }));
    let check = ok(&server, "POST", &format!("/api/sessions/{name}/check"), json!({}));
    assert!(check["text"].as_str().unwrap().contains("leaves the grid"), "{check}");
    let steps = ok(&server, "POST", &format!("/api/sessions/{name}/edit"), json!({ "entries": [] }));
    assert_eq!(steps["entries"], json!([]));
    let steps = ok(&server, "POST", &format!("/api/sessions/{name}/steps"), json!({}));
    assert_eq!(steps["solved"], json!(true), "{steps}");
    // The page and its files.
    let page = call(&server, "GET", "/", "");
    assert_eq!((page.status, page.content_type), (200, "text/html; charset=utf-8"));
    for button in ["Hint", "Check", "Undo", "Redo", "Fill easy steps", "Steps"] {
        assert!(page.text().contains(&format!(">{button}</button>")), "{button}");
    }
    assert!(page.text().contains("role=\"status\""));
    assert_eq!(call(&server, "GET", "/play.js", "").content_type, "text/javascript; charset=utf-8");
    assert!(ok(&server, "GET", "/api/models", json!({}))["models"].as_array().unwrap().len() > 20);
}

#[test]
fn a_state_is_restored_from_its_entries_and_refused_when_unreadable() {
    let server = server(Config::default());
    let body = json!({ "model": "akh-vaquot.toml", "entries": ["fan 2=left"] });
    assert_eq!(ok(&server, "POST", "/api/sessions", body)["entries"], json!(["fan 2=left"]));
    let body = json!({ "model": "akh-vaquot.toml", "entries": ["fan 9=left"] });
    let message = refused(call(&server, "POST", "/api/sessions", &body.to_string()), 400);
    assert!(message.contains("fan 9"), "{message}");
    assert_eq!(server.live_sessions(), 1, "a refused session is not kept");
}

#[test]
fn hostile_requests_are_refused() {
    let server = server(Config { body_cap: 1000, ..Config::default() });
    let wrong_host = server.handle(&Request { method: "GET", url: "/", host: Some("evil.example:7357"), body: b"" });
    assert!(refused(wrong_host, 403).contains("evil.example"));
    refused(server.handle(&Request { method: "GET", url: "/", host: None, body: b"" }), 400);
    let opened = ok(&server, "POST", "/api/sessions", json!({ "model": "akh-vaquot.toml" }));
    let hint = format!("/api/sessions/{}/hint", opened["session"].as_str().unwrap());
    assert!(refused(call(&server, "POST", &hint, &" ".repeat(1001)), 413).contains("at most 1000"));
    assert!(refused(call(&server, "POST", &hint, "{\"reveal\":"), 400).contains("not JSON"));
    assert!(refused(call(&server, "POST", &hint, "[1]"), 400).contains("expected a JSON object"));
    assert!(refused(call(&server, "POST", &hint, "{\"reveal\":\"all\"}"), 400).contains("where, why or what"));
    let steps = hint.replace("/hint", "/steps");
    assert!(refused(call(&server, "POST", &steps, "{\"most\":-1}"), 400).contains("from 1"));
    for path in ["/../Cargo.toml", "/api/../../etc/passwd", "/play.js/..", "/models/akh-vaquot.toml", "/api/nothing"] {
        refused(call(&server, "GET", path, ""), 404);
    }
    for model in ["../Cargo.toml", "/etc/passwd", "csp/../../Cargo.toml", "nothing.toml"] {
        let message = refused(call(&server, "POST", "/api/sessions", &json!({ "model": model }).to_string()), 404);
        assert!(message.contains("no model is named"), "{message}");
    }
    refused(call(&server, "POST", "/", ""), 405);
    refused(call(&server, "GET", "/api/sessions/0000", ""), 404);
    let edit = hint.replace("/hint", "/edit");
    assert!(refused(call(&server, "POST", &edit, "{}"), 400).contains("an edit of nothing"));
    assert!(refused(call(&server, "POST", &edit, "{\"enter\":\"fan 2\"}"), 400).contains("NAME=VALUE"));
}

/// Thirteen pigeons in twelve holes, pairwise: opened at once, and no SAT
/// solver proves it has no answer in less than minutes.
const PIGEONS: &str = "kind = \"csp\"\ntitle = \"13 pigeons\"\nshow = [\"hole\"]\n[vars]\n\
    hole = { index = [\"1..13\"], domain = \"1..12\" }\n[[constraint]]\n\
    expr = 'forall(i, j in 1..13 where i < j)(hole[i] != hole[j])'\n";

#[test]
fn a_hint_that_takes_long_is_stopped_at_its_deadline() {
    // The deadline leaves the opening ample time on a busy machine (it was
    // a millisecond, and a 20x20 slitherlink's opening met it under load),
    // while the hint needs minutes on any machine.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("pigeons.toml"), PIGEONS).unwrap();
    let config = Config { hosts: vec![HOST.into()], timeout: Duration::from_secs(2), ..Config::default() };
    let server = Server::new(served(dir.path()).unwrap(), config);
    let opened = ok(&server, "POST", "/api/sessions", json!({ "model": "pigeons.toml" }));
    let hint = format!("/api/sessions/{}/hint", opened["session"].as_str().unwrap());
    let message = refused(call(&server, "POST", &hint, "{\"reveal\":\"what\"}"), 503);
    assert!(message.contains("stopped") || message.contains("deadline"), "{message}");
}

#[test]
fn live_sessions_are_capped_and_the_idle_one_dropped() {
    let server = server(Config { max_sessions: 2, ..Config::default() });
    let open = || ok(&server, "POST", "/api/sessions", json!({ "model": "akh-vaquot.toml" }))["session"].clone();
    let first = open();
    let second = open();
    ok(&server, "GET", &format!("/api/sessions/{}", second.as_str().unwrap()), json!({}));
    open();
    assert_eq!(server.live_sessions(), 2);
    refused(call(&server, "GET", &format!("/api/sessions/{}", first.as_str().unwrap()), ""), 404);
    ok(&server, "GET", &format!("/api/sessions/{}", second.as_str().unwrap()), json!({}));
}

#[test]
fn a_new_puzzle_is_made_rated_and_played_from_its_seed() {
    let server = server(Config { timeout: Duration::from_secs(120), ..Config::default() });
    let body = json!({ "model": "csp/sudoku-17.toml", "seed": 5, "difficulty": [1, 2], "progress": "page-1" });
    let opened = ok(&server, "POST", "/api/sessions", body.clone());
    assert_eq!(opened["designable"], json!(true));
    let made = &opened["generated"];
    let text = made["model"].as_str().unwrap();
    // One solution, counted afresh from the text the page can download.
    let puzzle = crate::common::models::load_text(text);
    assert_eq!(crate::common::models::count(puzzle.as_ref(), None), 1, "{text}");
    let rated = made["rating"]["difficulty"]["largest"].as_u64().unwrap();
    assert!((1..=2).contains(&rated), "{made}");
    assert!(made["rating"]["text"].as_str().unwrap().starts_with(&format!("rated {rated} (")), "{made}");
    // The session plays the new puzzle: its steps from no entry solve it
    // with the rating given.
    let name = opened["session"].as_str().unwrap();
    let steps = ok(&server, "POST", &format!("/api/sessions/{name}/steps"), json!({}));
    assert_eq!(steps["solved"], json!(true), "{steps}");
    assert_eq!(steps["difficulty"], made["rating"]["difficulty"]);
    // The same seed makes the same puzzle (a reload), with the entries sent.
    let again = json!({ "model": "csp/sudoku-17.toml", "seed": 5, "difficulty": [1, 2], "entries": ["cell[1,1]=1"] });
    let reopened = ok(&server, "POST", "/api/sessions", again);
    assert_eq!(reopened["generated"]["model"], made["model"]);
    assert_eq!(reopened["entries"], json!(["cell[1,1]=1"]));
    // No run under the token once it is done.
    assert_eq!(ok(&server, "GET", "/api/progress/page-1", json!({}))["running"], json!(false));
}

#[test]
fn a_new_puzzle_shows_its_progress_and_stops_at_its_deadline() {
    let server = server(Config { timeout: Duration::from_secs(3), ..Config::default() });
    let seen = std::thread::scope(|scope| {
        // A range no 10 × 10 slitherlink of these clues reaches in 3 s.
        let body = json!({ "model": "csp/slitherlink.toml", "seed": 5, "difficulty": [9, 9], "progress": "slow" });
        let (server, body) = (&server, body.to_string());
        let run = scope.spawn(move || call(server, "POST", "/api/sessions", &body));
        let mut seen = None;
        while !run.is_finished() {
            let progress = ok(server, "GET", "/api/progress/slow", json!({}));
            if progress["running"] == json!(true) && progress["checks"].as_u64() > Some(0) {
                seen = Some(progress);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let message = refused(run.join().unwrap(), 503);
        assert!(message.contains("stopped by the deadline of 3.0 s"), "{message}");
        seen
    });
    let seen = seen.expect("the run's progress while it ran");
    assert!(seen["clues_left"].as_u64().unwrap() <= 100, "{seen}");
    assert_eq!(server.live_sessions(), 0, "a puzzle not made opens no session");
}

#[test]
fn a_new_puzzle_is_refused_where_the_model_has_no_designer_or_the_request_is_bad() {
    let server = server(Config::default());
    let plain = ok(&server, "POST", "/api/sessions", json!({ "model": "csp/nurikabe.toml" }));
    assert_eq!(plain["designable"], json!(false));
    assert!(plain.get("generated").is_none());
    let open = |body: Value| call(&server, "POST", "/api/sessions", &body.to_string());
    let message = refused(open(json!({ "model": "csp/nurikabe.toml", "seed": 1 })), 400);
    assert!(message.contains("without a [design] table"), "{message}");
    let sudoku = "csp/sudoku-17.toml";
    assert!(refused(open(json!({ "model": sudoku, "seed": "x" })), 400).contains("expected a whole number"));
    for range in [json!([3, 1]), json!([1]), json!("1..2"), json!([-1, 2])] {
        let message = refused(open(json!({ "model": sudoku, "seed": 1, "difficulty": range })), 400);
        assert!(message.contains("expected [LO, HI]"), "{message}");
    }
    for token in [json!("../x"), json!(""), json!(7), json!("x".repeat(33))] {
        let message = refused(open(json!({ "model": sudoku, "seed": 1, "progress": token })), 400);
        assert!(message.contains("letters, digits"), "{message}");
    }
    assert!(refused(call(&server, "GET", "/api/progress/a.b", ""), 400).contains("letters, digits"));
    assert_eq!(server.live_sessions(), 1);
}

#[test]
fn idle_sessions_are_dropped_on_a_timer() {
    let config = Config { idle: Duration::from_millis(50), ..Config::default() };
    let server = std::sync::Arc::new(server(config));
    let opened = ok(&server, "POST", "/api/sessions", json!({ "model": "akh-vaquot.toml" }));
    assert_eq!(server.live_sessions(), 1);
    server.drop_idle_every(Duration::from_millis(10)).unwrap();
    // No new page opens: only the timer can drop it. A minute allows for a
    // busy machine; it takes a few ticks.
    let started = std::time::Instant::now();
    while server.live_sessions() > 0 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(server.live_sessions(), 0);
    let name = opened["session"].as_str().unwrap();
    assert!(refused(call(&server, "GET", &format!("/api/sessions/{name}"), ""), 404).contains("idle too long"));
}

#[test]
fn a_slitherlinks_sides_are_clickable_edges_named_by_their_variables() {
    let (_folder, grids) = small_grids(Config::default());
    let opened = ok(&grids, "POST", "/api/sessions", json!({ "model": "slitherlink-5.toml" }));
    let edges = opened["edges"].as_array().unwrap();
    // 6 rows of 5 sides across, 5 rows of 6 sides down.
    assert_eq!(edges.len(), 6 * 5 + 5 * 6, "{edges:?}");
    let svg = opened["svg"].as_str().unwrap();
    for edge in edges {
        let (name, key) = (edge["name"].as_str().unwrap(), edge["key"].as_str().unwrap());
        // The model's own indices: across[i, j] is the side from corner
        // (i, j) to the right, down[i, j] the one from (i, j) downwards.
        let (array, index) = name.trim_end_matches(']').split_once('[').unwrap();
        assert_eq!(key, format!("side {} {array}", index.replace(',', " ")), "{edge}");
        assert!(svg.contains(&format!("data-edge=\"{key}\"")), "{key}");
        assert_eq!(edge["values"], json!([false, true]), "{edge}");
    }
    // An edge's entry is an entry like any other, and drawn as a line.
    let name = opened["session"].as_str().unwrap();
    assert!(!svg.contains("<path d=\"M0 0h1\""), "no side drawn yet");
    let drawn = ok(&grids, "POST", &format!("/api/sessions/{name}/edit"), json!({ "enter": "across[0,0]=true" }));
    assert_eq!(drawn["entries"], json!(["across[0,0]=true"]));
    // The top side of the top left cell: a line from (0, 0) one cell right.
    assert!(drawn["svg"].as_str().unwrap().contains("<path d=\"M0 0h1\""), "the side drawn");
    // A puzzle with no lines to enter has no edge targets.
    let server = server(Config::default());
    let sudoku = ok(&server, "POST", "/api/sessions", json!({ "model": "csp/sudoku-17.toml" }));
    assert_eq!(sudoku["edges"], json!([]));
    assert!(!sudoku["svg"].as_str().unwrap().contains("data-edge"));
}

#[test]
fn the_shrines_fans_are_drawn_turned_as_entered() {
    let server = server(Config::default());
    let labels = |view: &Value| view["svg"].as_str().unwrap().matches("\nF\n</text>").count();
    let blank = ok(&server, "POST", "/api/sessions", json!({ "model": "akh-vaquot.toml" }));
    let fans = blank["cells"].as_array().unwrap().len();
    assert_eq!(labels(&blank), fans, "every fan unturned");
    let turned = json!({ "model": "akh-vaquot.toml", "entries": ["fan 2=left"] });
    let turned = ok(&server, "POST", "/api/sessions", turned);
    assert_eq!(labels(&turned), fans - 1, "fan 2 drawn as an arrow");
    let arrows = |view: &Value| view["svg"].as_str().unwrap().matches("<polygon").count();
    assert_eq!(arrows(&turned), arrows(&blank) + 1);
    // Ruling a direction out turns no fan.
    let ruled_out = json!({ "model": "akh-vaquot.toml", "entries": ["fan 2!=left"] });
    assert_eq!(labels(&ok(&server, "POST", "/api/sessions", ruled_out)), fans);
}

/// `hint`'s report (but its counters), given the entries one by one or as
/// the state file the page downloads.
fn start_of(puzzle: &dyn somaria::puzzles::Puzzle, given: Vec<String>, file: Option<String>) -> Value {
    use somaria::hints::PlanRequest;
    let state_files = file.into_iter().map(|text| somaria::model::Source::from_text("state.json", text)).collect();
    let request = PlanRequest { given, state_files, count_limit: 2, ..PlanRequest::default() };
    let options = somaria::puzzles::SolveOptions::default();
    let report = somaria::hints::hint(puzzle, &options, &request, somaria::report::steps::Reveal::Where).unwrap();
    let mut report = serde_json::to_value(&report).unwrap();
    // All but the counters and times.
    report.as_object_mut().unwrap().remove("stats");
    report
}

#[test]
fn the_state_downloads_as_a_file_that_given_reads_back() {
    let (_folder, grids) = small_grids(Config::default());
    let server = server(Config::default());
    // The entries in the file's order: by variable, then row by row.
    let cases = [
        (&server, "csp/sudoku-17.toml", vec!["cell[1,1]=1", "cell[2,3]=4", "cell[9,9]=7"]),
        (&grids, "slitherlink-5.toml", vec!["across[0,0]=true", "across[5,4]=true", "down[2,3]=false"]),
    ];
    for (server, model, entries) in cases {
        let opened = ok(server, "POST", "/api/sessions", json!({ "model": model, "entries": entries }));
        let name = opened["session"].as_str().unwrap();
        let state = ok(server, "POST", &format!("/api/sessions/{name}/state"), json!({}))["state"].clone();
        assert!(state.is_object(), "{model}: {state}");
        let path = match model {
            "slitherlink-5.toml" => _folder.path().join(model),
            _ => std::path::Path::new("models").join(model),
        };
        let puzzle = somaria::load_file(&path).unwrap();
        let entries: Vec<String> = entries.iter().map(|e| e.to_string()).collect();
        let from_file = start_of(puzzle.as_ref(), Vec::new(), Some(state.to_string()));
        assert_eq!(from_file, start_of(puzzle.as_ref(), entries, None), "{model}: {state}");
        assert_ne!(from_file, start_of(puzzle.as_ref(), Vec::new(), None), "{model}: the entries count");
    }
    // The shrine takes no state file: its state is null, and the page says
    // to give the entries instead.
    let opened = ok(&server, "POST", "/api/sessions", json!({ "model": "akh-vaquot.toml", "entries": ["fan 2=left"] }));
    let name = opened["session"].as_str().unwrap();
    assert_eq!(ok(&server, "POST", &format!("/api/sessions/{name}/state"), json!({}))["state"], Value::Null);
}

#[test]
fn a_new_puzzle_is_stopped_when_the_page_moves_on() {
    let server = server(Config { timeout: Duration::from_secs(600), ..Config::default() });
    std::thread::scope(|scope| {
        let body = json!({ "model": "csp/slitherlink.toml", "seed": 5, "difficulty": [9, 9], "progress": "moved-on" });
        let (server, body) = (&server, body.to_string());
        let run = scope.spawn(move || call(server, "POST", "/api/sessions", &body));
        while ok(server, "GET", "/api/progress/moved-on", json!({}))["running"] != json!(true) {
            assert!(!run.is_finished(), "the run ended before it was seen");
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(ok(server, "DELETE", "/api/progress/moved-on", json!({}))["stopped"], json!(true));
        let message = refused(run.join().unwrap(), 503);
        assert!(message.contains("stopped by the page"), "{message}");
    });
    assert_eq!(ok(&server, "DELETE", "/api/progress/moved-on", json!({}))["stopped"], json!(false));
}

/// The rating of `model` from the server, asked until it is made.
fn rating_of(server: &Server, model: &str) -> Value {
    let started = std::time::Instant::now();
    loop {
        let answer = ok(server, "POST", "/api/ratings", json!({ "model": model }));
        if answer.get("running").is_none() {
            return answer;
        }
        // Not a timing check: a bound on a wait that would otherwise hang.
        assert!(started.elapsed() < Duration::from_secs(600), "{model}: still being rated");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_models_rating_is_made_in_the_background_and_agrees_with_steps() {
    let server = server(Config { rating_time: Duration::from_secs(300), ..Config::default() });
    let first = ok(&server, "POST", "/api/ratings", json!({ "model": "csp/sudoku-17.toml" }));
    let opened = ok(&server, "POST", "/api/sessions", json!({ "model": "csp/sudoku-17.toml" }));
    // The player's session answers while the rating is made.
    let hint = format!("/api/sessions/{}/hint", opened["session"].as_str().unwrap());
    assert_eq!(ok(&server, "POST", &hint, json!({ "reveal": "where" }))["status"], "hint");
    let rated = rating_of(&server, "csp/sudoku-17.toml");
    assert!(first.get("running").is_some() || first == rated, "{first}");
    // The same figures as `steps` on the command line.
    let (code, steps) = crate::common::cli::run_json(&["steps", "models/csp/sudoku-17.toml"]);
    assert_eq!(code, 0, "{steps}");
    assert_eq!(rated["difficulty"], steps["difficulty"], "{rated}");
    let d = &steps["difficulty"];
    assert_eq!(
        rated["text"],
        format!("rated {} ({} steps, {} constraints in all)", d["largest"], d["steps"], d["total"])
    );
    // Made once: the next ask is answered at once, with the same rating.
    assert_eq!(ok(&server, "POST", "/api/ratings", json!({ "model": "csp/sudoku-17.toml" })), rated);
}

#[test]
fn a_rating_past_its_deadline_says_so_and_a_bad_ask_is_refused() {
    let server = server(Config { rating_time: Duration::from_millis(1), ..Config::default() });
    let rated = rating_of(&server, "csp/slitherlink-20x20.toml");
    let text = rated["text"].as_str().unwrap();
    assert!(text.starts_with("not rated: stopped by"), "{rated}");
    assert!(rated.get("difficulty").is_none());
    let message = refused(call(&server, "POST", "/api/ratings", &json!({ "model": "../Cargo.toml" }).to_string()), 404);
    assert!(message.contains("no model is named"), "{message}");
    let message = refused(call(&server, "POST", "/api/ratings", "{}"), 400);
    assert!(message.contains("expected the name of a model"), "{message}");
}

#[test]
fn a_puzzlink_url_is_served_and_its_loop_entered_step_by_step() {
    // A 4 × 4 masyu with one solution, the loop round the border.
    let url = "https://puzz.link/p?mashu/4/4/j0100i";
    let models = somaria::play::served_url(url).unwrap();
    let server = Server::new(models, Config { hosts: vec![HOST.into()], ..Config::default() });
    assert_eq!(ok(&server, "GET", "/api/models", json!({}))["models"], json!([url]));
    let opened = ok(&server, "POST", "/api/sessions", json!({}));
    let name = opened["session"].as_str().unwrap().to_string();
    // Its steps between cell centres are the places a click enters.
    let edges = opened["edges"].as_array().unwrap();
    assert_eq!(edges.len(), 4 * 3 + 3 * 4, "{edges:?}");
    let svg = opened["svg"].as_str().unwrap();
    for edge in edges {
        let key = edge["key"].as_str().unwrap();
        assert!(key.starts_with("step ") && svg.contains(&format!("data-edge=\"{key}\"")), "{edge}");
    }
    let top_left = edges.iter().find(|e| e["key"] == "step 0 0 across").unwrap()["name"].as_str().unwrap();
    let entered = format!("{top_left}=true");
    let drawn = ok(&server, "POST", &format!("/api/sessions/{name}/edit"), json!({ "enter": entered }));
    assert_ne!(drawn["svg"], opened["svg"], "the step drawn");
    let hint = ok(&server, "POST", &format!("/api/sessions/{name}/hint"), json!({ "reveal": "what" }));
    assert_eq!(hint["status"], "hint", "{hint}");
    let steps = ok(&server, "POST", &format!("/api/sessions/{name}/steps"), json!({}));
    assert_eq!(steps["solved"], json!(true), "{steps}");
    // A URL that does not decode is refused with what was found.
    let message = somaria::play::served_url("https://puzz.link/p?mashu/4/x").unwrap_err().to_string();
    assert!(message.contains("expected"), "{message}");
    // The rating is made from the URL too.
    assert!(rating_of(&server, url)["text"].as_str().unwrap().starts_with("rated"));
}

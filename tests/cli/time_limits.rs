//! Time limits: a run that cannot finish answers "unknown" with exit code 3
//! and what it found so far, and leaves no half-written files.
//!
//! The tests assert the kind of answer. A run is killed after a minute, so
//! one that ignores its limit fails instead of hanging; how soon after its
//! limit a run ends is a figure, measured by `benches/stop_latency.sh`.

use std::time::Duration;

use crate::common;

use common::cli::{json_of, somaria, write_model};

/// Thirty fans and no weathercocks: 4^30 solutions, far too many to count.
const ENDLESS_COUNT: &str = "kind = \"fans\"\nfans = 30\n";

#[test]
fn an_endless_count_stops_at_the_limit_with_a_partial_count() {
    let dir = tempfile::tempdir().unwrap();
    let model = write_model(dir.path(), "endless.toml", ENDLESS_COUNT);
    // 2 s, so that a loaded machine still counts some first (alone, the
    // first solution comes within 20 ms).
    let out = somaria()
        .arg("count")
        .arg(&model)
        .args(["--timeout", "2", "--format", "json"])
        .timeout(Duration::from_secs(60))
        .assert()
        .code(3);
    let json = json_of(&out.get_output().stdout);
    assert_eq!(json["complete"], false);
    assert!(json["count"].as_u64().unwrap() > 0, "some solutions were counted before the limit");
    assert!(json["stats"]["sat_calls"].as_u64().unwrap() >= json["count"].as_u64().unwrap());
}

#[test]
fn a_finished_run_ignores_a_generous_limit() {
    somaria().args(["count", "models/akh-vaquot.toml", "--timeout", "60"]).assert().success();
}

#[test]
fn bad_limits_are_usage_errors() {
    for bad in ["0", "-1", "soon", "inf", "NaN"] {
        somaria().args(["solve", "models/akh-vaquot.toml", "--timeout", bad]).assert().code(2);
    }
}

/// The time-indexed encoding cannot route the 24×24 room in a second: the
/// run is cut off and answers "unknown", whatever the solver is doing at
/// the time. (`solve` would build the route without SAT, so it runs with
/// `--no-presolve`, as `compare` does.)
#[test]
fn a_hard_room_answers_unknown_at_the_limit() {
    for command in ["solve", "count", "facts", "compare"] {
        let mut args = vec![command, "models/tile-cover-24x24.toml", "--timeout", "1", "--format", "json"];
        if command != "compare" {
            args.extend(["--engine", "steps"]);
        }
        if command == "solve" || command == "compare" {
            args.push("--no-presolve");
        }
        let out = somaria().args(&args).timeout(Duration::from_secs(60)).assert().code(3);
        let json = json_of(&out.get_output().stdout);
        match command {
            "solve" => assert_eq!(json["status"], "unknown"),
            "count" => assert_eq!(json["complete"], false),
            "facts" => assert_eq!(json["status"], "unknown"),
            _ => assert!(json["results"].as_array().unwrap().iter().any(|r| r["status"] == "unknown")),
        }
    }
}

#[test]
fn a_stopped_solve_leaves_no_proof_or_dimacs_file() {
    let dir = tempfile::tempdir().unwrap();
    let (proof, cnf) = (dir.path().join("p.proof"), dir.path().join("f.cnf"));
    somaria()
        .args(["solve", "models/tile-cover-24x24.toml", "--engine", "steps", "--timeout", "0.5", "--proof"])
        .arg(&proof)
        .arg("--dimacs")
        .arg(&cnf)
        .assert()
        .code(3);
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
}

//! What the command line promises around the solving: output files that are
//! written, never wrongly replaced; no hang on any input; limits that stop a
//! run with "unknown" and an honest account; reports that say no more than
//! is true.

use std::io::Write;
use std::os::unix::fs::FileTypeExt;
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;

use crate::common;

use common::cli::{json_of, run_json, somaria};
use common::dimacs;

fn stderr_of(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).to_string()
}

#[test]
fn twenty_concurrent_writers_leave_one_whole_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("same.cnf");
    let binary = assert_cmd::cargo::cargo_bin("somaria");
    let children: Vec<_> = (0..20)
        .map(|_| {
            std::process::Command::new(&binary)
                .args(["solve", "models/heros-cave-somaria.toml", "--dimacs"])
                .arg(&target)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let text = std::fs::read_to_string(&target).unwrap();
    let formula = dimacs::formula(&text);
    let (vars, clauses) = dimacs::header(&text);
    assert_eq!((formula.var_count() as u64, formula.len() as u64), (vars, clauses));
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 1, "temporary files left behind: {left:?}");
}

#[test]
fn devices_are_written_through_not_replaced() {
    somaria().args(["solve", "models/heros-cave.toml", "--no-presolve", "--proof", "/dev/null"]).assert().code(1);
    somaria().args(["solve", "models/akh-vaquot.toml", "--dimacs", "/dev/null"]).assert().success();
    assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device(), "/dev/null is still a device");
}

#[test]
fn a_symlinked_output_is_written_at_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let (real, link) = (dir.path().join("real.cnf"), dir.path().join("link.cnf"));
    std::fs::write(&real, "old").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    somaria().args(["solve", "models/akh-vaquot.toml", "--dimacs"]).arg(&link).assert().success();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert!(std::fs::read_to_string(&real).unwrap().contains("p cnf 24 56"));
}

#[test]
fn the_same_file_for_two_outputs_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let same = dir.path().join("x");
    let out = somaria()
        .args(["solve", "models/heros-cave.toml", "--no-presolve", "--proof"])
        .arg(&same)
        .arg("--dimacs")
        .arg(&same)
        .assert()
        .code(2);
    assert!(stderr_of(&out).contains("both name"), "{}", stderr_of(&out));
    assert!(!same.exists());
}

#[test]
fn dimacs_can_go_to_standard_output_before_the_report() {
    let out = somaria().args(["solve", "models/akh-vaquot.toml", "--dimacs", "-"]).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let (cnf_at, report_at) = (text.find("p cnf 24 56").unwrap(), text.find("solved;").unwrap());
    assert!(cnf_at < report_at);
}

/// A FIFO is refused, not waited on: a wait would end at the time limit
/// with exit 3 (or, stuck in `open`, be killed after a minute).
#[test]
fn a_fifo_model_is_refused_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("model.toml");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let out =
        somaria().arg("solve").arg(&fifo).args(["--timeout", "1"]).timeout(Duration::from_secs(60)).assert().code(2);
    assert!(stderr_of(&out).contains("a FIFO"), "{}", stderr_of(&out));
}

/// Waits at most a minute for `child`, killing it after that, so that a run
/// that ignores its time limit fails the test instead of hanging it.
fn output_within_a_minute(child: std::process::Child) -> std::process::Output {
    let pid = child.id().to_string();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(child.wait_with_output());
    });
    match receive.recv_timeout(Duration::from_secs(60)) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            // The child this test started, not yet reaped, so the id is still its.
            let _ = std::process::Command::new("kill").args(["-KILL", &pid]).status();
            panic!("the run was not stopped within a minute");
        }
    }
}

#[test]
fn standard_input_is_read_under_the_time_limit() {
    let binary = assert_cmd::cargo::cargo_bin("somaria");
    let mut child = std::process::Command::new(binary)
        .args(["solve", "-", "--timeout", "0.3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Keep standard input open and silent: the load must be cut off.
    let stdin = child.stdin.take().unwrap();
    let out = output_within_a_minute(child);
    drop(stdin);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("while loading"));
    // And a model on standard input loads like a file.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("somaria"))
        .args(["count", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(include_bytes!("../../models/akh-vaquot.toml")).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 solution, all found"));
}

#[test]
fn time_limits_run_from_a_millisecond_to_a_year() {
    for bad in ["1e-300", "0.0001", "1e9", "0", "-1", "soon", "inf", "NaN"] {
        let out = somaria().args(["solve", "models/akh-vaquot.toml", &format!("--timeout={bad}")]).assert().code(2);
        assert!(stderr_of(&out).contains("one year"), "{bad}: {}", stderr_of(&out));
    }
    for good in ["0.001", "31536000"] {
        somaria().args(["solve", "models/akh-vaquot.toml", "--timeout", good]).assert().code(predicates::ord::le(3));
    }
}

/// An open room with 26 keys and no doors: breadth-first search over
/// (cell, keys held) grows without end, and the memory cap stops it.
#[test]
fn the_memory_cap_stops_a_growing_search_with_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let rows = [
        "@.a.b.c.d.e.",
        "............",
        ".f.g.h.i.j..",
        "............",
        "k.l.m.n.o.p.",
        "............",
        ".q.r.s.t.u..",
        "............",
        "v.w.x.y.z...",
        "............",
    ];
    let model = dir.path().join("open.toml");
    std::fs::write(&model, format!("kind = \"keys-doors\"\ngrid = '''\n{}\n'''\n", rows.join("\n"))).unwrap();
    // The time limit is far off, so the stop names the memory cap.
    let out = somaria()
        .arg("solve")
        .arg(&model)
        .args(["--engine", "bfs", "--memory-limit", "64M", "--format", "json", "--timeout", "600"])
        .assert()
        .code(3);
    let json = json_of(&out.get_output().stdout);
    assert_eq!(json["status"], "unknown");
    assert!(json["explanation"].as_str().unwrap().contains("memory limit of 64 MB"), "{json}");
    somaria().args(["solve", "models/akh-vaquot.toml", "--memory-limit", "lots"]).assert().code(2);
}

#[test]
fn compare_does_not_call_a_partial_answer_agreement() {
    let out = somaria()
        .args(["compare", "models/tile-cover-24x24.toml", "--no-presolve", "--timeout", "1", "--format", "json"])
        .assert()
        .code(3);
    let json = json_of(&out.get_output().stdout);
    assert_eq!(json["agree"], false);
    assert_eq!(json["agreement"], "partial");
    assert!(!json["unfinished"].as_array().unwrap().is_empty());
    // The engine the stop cut short says so; those after it never ran.
    let notes: Vec<&str> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] == "unknown")
        .map(|r| r["note"].as_str().unwrap())
        .collect();
    assert!(notes[0].ends_with("while it ran"), "{json}");
    assert!(notes[1..].iter().all(|n| *n == "not run: the comparison was stopped before it"), "{json}");
}

#[test]
fn compare_count_reports_the_count_phase() {
    let out = somaria().args(["compare", "models/tile-cover-corner-5x5.toml", "--count", "--format", "json"]).assert();
    let json = json_of(&out.success().get_output().stdout);
    for result in json["results"].as_array().unwrap() {
        assert_eq!(result["count"], 824);
        assert!(result["count_sat_calls"].as_u64().unwrap() >= 824, "{result}");
        assert!(result["count_ms"].as_f64().unwrap() > 0.0, "{result}");
    }
}

#[test]
fn dimacs_is_written_or_explained_when_sat_did_not_decide() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("cave.cnf");
    let out = somaria().args(["solve", "models/heros-cave.toml", "--format", "json", "--dimacs"]).arg(&cnf).assert();
    let json = json_of(&out.code(1).get_output().stdout);
    assert_eq!(json["dimacs"]["formula"], "unsolved", "{json}");
    assert!(std::fs::read_to_string(&cnf).unwrap().contains("p cnf"));
    let bfs = dir.path().join("bfs.cnf");
    let out = somaria()
        .args(["solve", "models/keys-doors/one-key.toml", "--engine", "bfs", "--format", "json", "--dimacs"])
        .arg(&bfs)
        .assert();
    let json = json_of(&out.success().get_output().stdout);
    assert!(json["dimacs"]["reason"].as_str().unwrap().contains("does not build a CNF"), "{json}");
    assert!(!bfs.exists());
}

/// The stats describe exactly the formula `--dimacs` writes.
#[test]
fn stats_match_the_written_formula() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[&str]); 5] = [
        ("models/akh-vaquot.toml", &["sat"]),
        ("models/heros-cave.toml", &["lazy", "rank"]),
        ("models/heros-cave-somaria.toml", &["lazy", "lazy-nogood", "rank"]),
        ("models/keys-doors/two-doors.toml", &["sat"]),
        ("models/keys-doors/locked-in.toml", &["sat"]),
    ];
    for (model, engines) in cases {
        for engine in engines {
            let cnf = dir.path().join("f.cnf");
            let out = somaria()
                .args(["solve", model, "--no-presolve", "--engine", engine, "--format", "json", "--dimacs"])
                .arg(&cnf)
                .output()
                .unwrap();
            let json = json_of(&out.stdout);
            let (vars, clauses) = dimacs::header(&std::fs::read_to_string(&cnf).unwrap());
            assert_eq!(
                (json["stats"]["variables"].as_u64(), json["stats"]["clauses"].as_u64()),
                (Some(vars), Some(clauses)),
                "{model} {engine}"
            );
        }
    }
}

#[test]
fn a_stopped_run_reports_the_formula_it_built() {
    let out = somaria()
        .args(["solve", "models/tile-cover-24x24.toml", "--engine", "steps", "--no-presolve", "--timeout", "2"])
        .args(["--format", "json"])
        .assert()
        .code(3);
    let json = json_of(&out.get_output().stdout);
    assert!(json["stats"]["variables"].as_u64().unwrap() > 1000, "{json}");
    assert!(json["stats"]["clauses"].as_u64().unwrap() > 1000, "{json}");
}

#[test]
fn titles_are_printed_without_control_characters() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.toml");
    std::fs::write(&model, "kind = \"tile-cover\"\ntitle = \"\\u001b[31mred\\u0007\"\ngrid = \"S.\"\n").unwrap();
    let out = somaria().arg("solve").arg(&model).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'), "{text:?}");
    assert!(text.contains("red"));
    assert!(text.contains("1 move:"), "{text}");
}

#[test]
fn a_huge_reason_is_cut_with_a_count() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.toml");
    let row = "W".repeat(300);
    let grid: Vec<&str> = (0..300).map(|_| row.as_str()).collect();
    std::fs::write(&model, format!("kind = \"fans\"\ngrid = '''\n{}\n'''\n", grid.join("\n"))).unwrap();
    let out = somaria().arg("solve").arg(&model).assert().code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.lines().all(|l| l.len() < 1000), "a line of {} bytes", text.lines().map(str::len).max().unwrap());
    assert!(text.contains("and 89990 more"), "{text}");
}

#[test]
fn a_missing_output_directory_is_bad_input() {
    let out = somaria().args(["solve", "models/akh-vaquot.toml", "--dimacs", "/no/such/dir/x.cnf"]).assert().code(2);
    assert!(stderr_of(&out).contains("/no/such/dir"));
}

/// A directory that refuses new files names the path the user gave, not the
/// temporary file written first. /sys refuses even root, so the test needs
/// no unprivileged user.
#[test]
fn an_unwritable_directory_names_the_path_given() {
    if !std::path::Path::new("/sys/kernel").is_dir() {
        return;
    }
    for flag in ["-o", "--dimacs"] {
        let out = somaria().args(["solve", "models/akh-vaquot.toml", flag, "/sys/out.txt"]).assert().code(2);
        let stderr = stderr_of(&out);
        assert!(stderr.starts_with("error: /sys/out.txt: cannot write"), "{stderr}");
        assert!(!stderr.contains(".somaria-"), "a temporary path leaked: {stderr}");
    }
}

#[test]
fn the_report_goes_to_the_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    let out = somaria().args(["solve", "models/akh-vaquot.toml", "--format", "json", "-o"]).arg(&report).assert();
    assert!(out.success().get_output().stdout.is_empty(), "nothing on standard output");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["status"], "solved");
    let out = somaria().args(["solve", "models/akh-vaquot.toml", "-o"]).arg(dir.path()).assert().code(2);
    assert!(stderr_of(&out).contains("is a directory"), "{}", stderr_of(&out));
    let cnf = dir.path().join("same");
    let out =
        somaria().args(["solve", "models/akh-vaquot.toml", "--dimacs"]).arg(&cnf).arg("-o").arg(&cnf).assert().code(2);
    assert!(stderr_of(&out).contains("both name"), "{}", stderr_of(&out));
}

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    // `somaria encode M | head -1`: the formula (100 KB, more than a pipe
    // holds) meets a closed pipe, which is the reader's choice.
    use std::io::{BufRead, BufReader};
    for args in [&["encode", "models/csp/slitherlink.toml"][..], &["solve", "models/csp/slitherlink.toml"][..]] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("somaria"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        assert!(!first.is_empty());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn no_output_replaces_the_model_by_path_symlink_hard_link_or_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("model.toml");
    let original = std::fs::read_to_string("models/akh-vaquot.toml").unwrap();
    std::fs::write(&model, &original).unwrap();
    let link = dir.path().join("link.toml");
    std::os::unix::fs::symlink(&model, &link).unwrap();
    let hard = dir.path().join("hard.toml");
    std::fs::hard_link(&model, &hard).unwrap();
    let relative = dir.path().join(".").join("model.toml");
    for (command, flag) in
        [("solve", "-o"), ("solve", "--dimacs"), ("solve", "--proof"), ("count", "-o"), ("encode", "-o")]
    {
        for output in [&model, &link, &hard, &relative] {
            let out = somaria().arg(command).arg(&model).arg(flag).arg(output).assert().code(2);
            let message = stderr_of(&out);
            assert!(message.contains("names the model file"), "{command} {flag} {}: {message}", output.display());
            assert_eq!(std::fs::read_to_string(&model).unwrap(), original, "{command} {flag} {}", output.display());
        }
    }
    // A model read from standard input that is the file an output names.
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("somaria"))
        .args(["solve", "-", "-o"])
        .arg(&link)
        .stdin(std::fs::File::open(&model).unwrap())
        .output()
        .unwrap();
    let message = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(message.contains("standard input"), "{message}");
    assert_eq!(std::fs::read_to_string(&model).unwrap(), original);
    // Another file is written as before.
    let other = dir.path().join("report.txt");
    somaria().arg("solve").arg(&model).arg("-o").arg(&other).assert().success();
    assert!(std::fs::read_to_string(&other).unwrap().contains("solved"));
}

/// Runs `args` and checks the refusal that keeps `input` whole: exit 2, a
/// message that names `named`, and the input's bytes as they were.
fn refused_keeping(args: &[&str], input: &str, named: &str) {
    let before = std::fs::read(input).unwrap();
    let out = somaria().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(named) && stderr.contains("expected a different file"), "{args:?}: {stderr}");
    assert_eq!(std::fs::read(input).unwrap(), before, "{args:?} changed {input}");
}

/// Every file `hint`, `steps` and `generate` write goes through the check
/// of `solve`'s outputs, against every input: the model, and the state
/// files of `--given`, by path, symlink or hard link. The reproducers of
/// issue 35: `steps p.1.cnf --proof p` wrote `p.1.cnf` over its model,
/// `steps --format svg -o DIR` wrote `DIR/step-001.svg` over one, and
/// `hint --given st.json -o st.json` its state file.
#[test]
fn no_output_of_hint_steps_or_generate_replaces_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let shrine = std::fs::read("models/akh-vaquot.toml").unwrap();
    let model = at("m.toml");
    std::fs::write(&model, &shrine).unwrap();
    let the_model = "names the model file";
    // steps --proof FILE writes FILE.1, FILE.1.cnf, FILE.2, ...: the
    // model itself, a hard link and a symlink.
    std::fs::write(at("p.1.cnf"), &shrine).unwrap();
    refused_keeping(&["steps", &at("p.1.cnf"), "--proof", &at("p")], &at("p.1.cnf"), the_model);
    std::fs::hard_link(&model, at("q.2")).unwrap();
    std::os::unix::fs::symlink(&model, at("r.1.cnf")).unwrap();
    for stem in ["q", "r"] {
        refused_keeping(&["steps", &model, "--proof", &at(stem)], &model, the_model);
    }
    // hint --proof FILE writes FILE and FILE.cnf.
    std::os::unix::fs::symlink(&model, at("h.cnf")).unwrap();
    refused_keeping(&["hint", &model, "--proof", &at("h")], &model, the_model);
    // steps --format svg -o DIR writes DIR/step-001.svg, ...
    std::fs::create_dir(at("pictures")).unwrap();
    std::fs::write(at("pictures/step-001.svg"), &shrine).unwrap();
    let svg = ["--format", "svg", "-o"];
    refused_keeping(
        &["steps", &at("pictures/step-001.svg"), svg[0], svg[1], svg[2], &at("pictures")],
        &at("pictures/step-001.svg"),
        the_model,
    );
    std::fs::create_dir(at("linked")).unwrap();
    std::fs::hard_link(&model, at("linked/step-002.svg")).unwrap();
    refused_keeping(&["steps", &model, svg[0], svg[1], svg[2], &at("linked")], &model, the_model);
    // -o over a state file of --given, for hint and steps, text or picture.
    let (_, solved) = common::cli::run_json(&["solve", "models/akh-vaquot.toml"]);
    let state = at("st.json");
    std::fs::write(&state, solved.to_string()).unwrap();
    std::os::unix::fs::symlink(&state, at("st-link.json")).unwrap();
    std::fs::hard_link(&state, at("st-hard.json")).unwrap();
    for command in ["hint", "steps"] {
        for output in ["st.json", "st-link.json", "st-hard.json"] {
            refused_keeping(&[command, &model, "--given", &state, "-o", &at(output)], &state, "names the state file");
        }
    }
    refused_keeping(
        &["hint", &model, "--given", &state, svg[0], svg[1], svg[2], &at("st-link.json")],
        &state,
        "names the state file",
    );
    // generate -o DIR writes DIR/STEM-NNNN.toml; here one is the template.
    std::fs::create_dir(at("made")).unwrap();
    std::fs::hard_link(&model, at("made/m-0000.toml")).unwrap();
    refused_keeping(&["generate", &model, "-o", &at("made")], &model, the_model);
    // Other files are written as before.
    somaria().args(["steps", &model, "--proof", &at("fresh")]).assert().success();
    assert!(dir.path().join("fresh.1").exists() && dir.path().join("fresh.1.cnf").exists());
}

/// `-` (or /dev/stdout) is standard output: `generate` prints its puzzles
/// there, as without -o; `steps --format svg` writes a folder of pictures,
/// so it refuses it. Neither makes a folder named "-".
#[test]
fn standard_output_is_never_made_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let model = std::fs::canonicalize("models/akh-vaquot.toml").unwrap();
    for stdout in ["-", "/dev/stdout"] {
        let out = somaria()
            .current_dir(dir.path())
            .arg("steps")
            .arg(&model)
            .args(["--format", "svg", "-o", stdout])
            .assert()
            .code(2);
        let stderr = stderr_of(&out);
        assert!(stderr.contains("not to standard output") && stderr.contains("expected -o DIR"), "{stderr}");
        let out = somaria().current_dir(dir.path()).arg("generate").arg(&model).args(["-o", stdout]).assert().success();
        let printed = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        assert!(printed.starts_with("# Made by `somaria generate") && printed.contains("kind = \"fans\""), "{printed}");
    }
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

/// The same model gives the same report, run after run: the solver's
/// searches are deterministic, so a report differs only when its input
/// does. The optimisation of a TSP adds pseudo-Boolean bounds between
/// calls; rustsat built them from hash maps with a random seed per process
/// until its `fxhash` feature was turned on, and four runs of this command
/// on 8 cities took 10, 12, 13 and 10 SAT calls.
#[test]
fn five_runs_of_one_optimisation_give_one_report() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("tsp-8.toml");
    let text = std::fs::read_to_string("models/csp/tsp-circuit.toml").unwrap();
    assert!(text.contains("\nn = 14\n"), "the model's size parameter moved");
    std::fs::write(&model, text.replace("\nn = 14\n", "\nn = 8\n")).unwrap();
    let run = || {
        let (code, report) = run_json(&["solve", model.to_str().unwrap(), "--engine", "log"]);
        assert_eq!(code, 0, "{report}");
        (report["stats"]["sat_calls"].clone(), report["solution"].clone(), report["objective"].clone())
    };
    let first = run();
    assert_eq!(first.2, 3578, "the optimum of the first 8 cities");
    for _ in 0..4 {
        assert_eq!(run(), first);
    }
}

//! Every genre against its sample puzzle (the sample of pzprjs's own test
//! scripts, with its checked answer, in the shared data's
//! `pzprjs-samples.json`, which stays outside the project):
//! the URL decodes and is written back as itself; the genre's model
//! solves it with exactly one solution; that answer, written as a pzprv3
//! file, equals the sample's answer where the data has one; and pzprjs's
//! own checker (the npm package `pzpr`, under node) judges the file
//! complete, and judges the question alone incomplete.
//!
//! The checker runs when `node` is on the PATH and the package is installed
//! under `target/pzpr` (`npm install --prefix target/pzpr pzpr@0.10.1`, as
//! `.ci/run` does) or in the directory `SOMARIA_PZPR` names; otherwise each
//! test says it skipped it, or fails when `CI` is set. It does not know every genre (nonogram, tents
//! and a few others came after npm's 0.10.1); those are judged by the
//! answer text and somaria's own independent check alone.

#[path = "../common/mod.rs"]
mod common;

mod brute;
mod cli;
mod pencils;
mod puzzlink;
mod statuepark;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;
use somaria::genres::{self, Answer, Instance};
use somaria::{CountOptions, SolveOptions, Status};

fn samples() -> Value {
    let path = samples_path().unwrap_or_else(|| {
        panic!("no shared/data/pzprjs-samples.json above {}; set SOMARIA_SAMPLES to it", env!("CARGO_MANIFEST_DIR"))
    });
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// pzprjs's samples: `SOMARIA_SAMPLES`, or `shared/data/pzprjs-samples.json`
/// in the checkout's folder or a folder above it. The data comes from
/// pzprjs's test scripts, so it is read where it lies, never copied into
/// the project.
fn samples_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("SOMARIA_SAMPLES") {
        return Some(PathBuf::from(path));
    }
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors().map(|dir| dir.join("shared/data/pzprjs-samples.json")).find(|path| path.is_file())
}

/// The node_modules folder that holds `pzpr`, when node and the package
/// are both there.
fn pzpr_modules() -> Option<PathBuf> {
    let dir = match std::env::var_os("SOMARIA_PZPR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/pzpr/node_modules"),
    };
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let found = node && dir.join("pzpr").is_dir();
    // Outside CI a developer's machine may lack node, and the judged tests
    // say they skipped; under CI a missing judge would pass unjudged.
    assert!(
        found || std::env::var_os("CI").is_none(),
        "node or the npm package pzpr is missing under CI; .ci/run installs them in target/pzpr"
    );
    found.then_some(dir)
}

/// Runs a node `script` with `args` and `input` on its standard input.
fn node_run(script: &str, args: &[&str], modules: &std::path::Path, input: &str) -> std::process::Output {
    let mut child = Command::new("node")
        .arg(script)
        .args(args)
        .env("NODE_PATH", modules)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// A node script's standard output; it must exit 0.
fn node(script: &str, args: &[&str], modules: &std::path::Path, input: &str) -> String {
    let out = node_run(script, args, modules, input);
    assert_eq!(out.status.code(), Some(0), "{script} failed");
    String::from_utf8(out.stdout).unwrap()
}

/// pzprjs's verdict on a pzprv3 file, or why there is none: npm's pzpr
/// 0.10.1 lacks some genres, and reads cave's URLs as another genre.
fn judge(genre: &str, file: &str) -> Result<Value, String> {
    if samples()["genres"][genre]["judged_by_npm_pzpr"] != true {
        return Err(format!("npm's pzpr 0.10.1 does not know {genre} as puzz.link does"));
    }
    let Some(modules) = pzpr_modules() else {
        return Err("node or the npm package pzpr is missing (npm install --prefix target/pzpr pzpr@0.10.1)".into());
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/node/pzpr-check.js");
    let out = node_run(script, &[genre], &modules, file);
    let verdict: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    match out.status.code() {
        Some(0) => Ok(verdict),
        Some(3) => Err(format!("pzpr 0.10.1 does not know {genre}")),
        _ => panic!("pzpr failed on {genre}: {verdict}\n{file}"),
    }
}

/// The whole check of one genre's sample.
fn check_sample(id: &str) {
    let data = samples();
    let sample = &data["genres"][id];
    let url = sample["url"].as_str().unwrap();
    let genre = genres::lookup(id).unwrap();
    assert_eq!(genre.sample, url, "the registry's sample is the data's");
    let opened = genres::open_url(url).unwrap_or_else(|e| panic!("{url}: {e}"));
    let instance: &dyn Instance = opened.instance.as_deref().unwrap();
    assert_eq!(genres::url_of(instance).unwrap(), url, "the URL is written back as itself");
    let count = opened.puzzle.count(&CountOptions { limit: Some(2), ..Default::default() }).unwrap();
    assert_eq!((count.count, count.complete), (1, true), "{url} has one solution");
    let report = opened.puzzle.solve(&SolveOptions::default()).unwrap();
    assert_eq!(report.status, Status::Solved);
    let answer = report.solution.unwrap().json;
    let file = instance.file(&Answer::Solution(&answer)).unwrap();
    if let Some(expected) = sample["answer"].as_str() {
        assert_eq!(file, expected, "{id}: the pzprv3 answer is the sample's");
    }
    // npm's pzpr reads a few samples otherwise (a tentaisho's cell left
    // out): the data gives no answer for them, and they are not judged.
    if sample["answer"].is_null() {
        eprintln!("{id}: the sample is not judged by npm's pzpr");
        return;
    }
    match judge(id, &file) {
        Ok(verdict) => {
            assert_eq!(verdict["complete"], true, "pzprjs judges {id}'s answer: {verdict}\n{file}");
            let question = judge(id, &instance.file(&Answer::Question).unwrap()).unwrap();
            assert_eq!(question["complete"], false, "pzprjs judges {id}'s question alone: {question}");
        }
        Err(why) => eprintln!("{id}: pzprjs's checker skipped: {why}"),
    }
}

macro_rules! samples {
    ($($genre:ident),* $(,)?) => {
        $(
            #[test]
            fn $genre() {
                check_sample(stringify!($genre));
            }
        )*

        /// Every genre of the registry has its sample test above.
        #[test]
        fn every_genre_is_tested() {
            let tested = [$(stringify!($genre)),*];
            for genre in genres::GENRES {
                assert!(tested.contains(&genre.id), "{} has no sample test", genre.id);
            }
        }
    };
}

samples!(
    slither,
    nurikabe,
    heyawake,
    starbattle,
    lightup,
    shikaku,
    hitori,
    sudoku,
    numlin,
    kurodoko,
    norinori,
    yinyang,
    mashu,
    yajilin,
    ripple,
    creek,
    skyscrapers,
    cave,
    nurimisaki,
    tents,
    aquarium,
    doppelblock,
    kakuro,
    country,
    moonsun,
    nanro,
    tentaisho,
    hashikake,
    gokigen,
    nonogram,
    lits,
    mochikoro,
    tapa,
    kurotto,
    fillomino,
    araf,
    hebi,
    lohkous,
    statuepark,
    slalom,
    pencils,
);

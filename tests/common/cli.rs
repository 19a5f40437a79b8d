//! Running the `somaria` binary as a user would: its JSON reports, model
//! files written for it, and the models it must refuse.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// The binary cargo built for this test run.
pub fn somaria() -> Command {
    Command::cargo_bin("somaria").unwrap()
}

/// Standard output read as one JSON report; panics showing it when it is not.
pub fn json_of(stdout: &[u8]) -> Value {
    serde_json::from_slice(stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON object: {e}: {}", String::from_utf8_lossy(stdout)))
}

/// Runs the binary with `args` and `--format json`; the exit code and the
/// report. Panics, showing stderr, when stdout is not JSON.
pub fn run_json(args: &[&str]) -> (i32, Value) {
    let out = somaria().args(args).args(["--format", "json"]).output().unwrap();
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), json)
}

/// Writes `text` to the file `name` in `dir`; its path.
pub fn write_model(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A model the loader must refuse: [`refused_with`] no further arguments,
/// and the message names the file.
pub fn refused(text: impl AsRef<[u8]>) -> String {
    let stderr = refused_with(text, &[]);
    assert!(stderr.contains("bad.toml"), "names the file: {stderr}");
    stderr
}

/// Runs `somaria solve` on a file `bad.toml` holding `text`, with `args`
/// after it, and checks the refusal: exit code 2, nothing on stdout, and on
/// stderr one line that starts `error: `. Returns stderr.
pub fn refused_with(text: impl AsRef<[u8]>, args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = write_model(dir.path(), "bad.toml", text);
    let out = somaria().arg("solve").arg(&path).args(args).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing on stdout: {}", String::from_utf8_lossy(&out.stdout));
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    stderr
}

/// Panics unless `stderr` holds every one of `parts`.
pub fn assert_mentions(stderr: &str, parts: &[&str]) {
    for part in parts {
        assert!(stderr.contains(part), "expected {part:?} in {stderr:?}");
    }
}

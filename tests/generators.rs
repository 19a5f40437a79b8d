//! The puzzle generators in examples/ (slitherlink, nurikabe, numberlink)
//! make models that load, have exactly one solution, and whose solution
//! passes the family's independent check; and the same arguments give the
//! same model. The examples are run through cargo (a test cannot name an
//! example's binary), at sizes that keep each run well under a second.

use std::process::Command;

use somaria::model::Source;
use somaria::puzzles::{self, CountOptions, SolveOptions, Status};

/// Runs an example and returns what it printed.
fn generate(example: &str, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO"))
        .args(["run", "--release", "--quiet", "--example", example, "--"])
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cargo run --example {example}: {e}"));
    assert!(out.status.success(), "{example} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("the model is UTF-8")
}

/// Loads the generated model and checks it has exactly one solution, which
/// solve finds and its checker accepts.
fn assert_unique(example: &str, args: &[&str], command: &str) {
    let text = generate(example, args);
    assert!(text.contains(command), "the header names the command `{command}`:\n{text}");
    let puzzle = puzzles::load(&Source::from_text(example, text.clone())).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let report = puzzle.count(&CountOptions { limit: Some(2), ..Default::default() }).unwrap();
    assert_eq!(report.count, 1, "{example} {args:?} is unique:\n{text}");
    let solved = puzzle.solve(&SolveOptions::default()).unwrap();
    assert_eq!(solved.status, Status::Solved, "{example} {args:?}");
    assert_eq!(generate(example, args), text, "{example} {args:?} depends on its arguments alone");
}

#[test]
fn the_slitherlink_generator_makes_a_unique_puzzle() {
    for seed in ["1", "2"] {
        assert_unique("slitherlink", &["5", seed], &format!("cargo run --release --example slitherlink -- 5 {seed}"));
    }
}

/// A budget no count comes near changes nothing but the header, so the
/// counts in child processes agree with the counts in the process.
#[test]
fn a_generous_budget_gives_the_slitherlink_made_without_one() {
    let plain = generate("slitherlink", &["5", "3"]);
    let budgeted = generate("slitherlink", &["5", "3", "--budget", "60"]);
    assert_eq!(budgeted.replacen("-- 5 3 --budget 60`", "-- 5 3`", 1), plain);
}

#[test]
fn the_nurikabe_generator_makes_a_unique_puzzle() {
    for seed in ["1", "2"] {
        assert_unique(
            "nurikabe",
            &["5", "5", seed],
            &format!("cargo run --release --example nurikabe -- 5 5 {seed} --max-island 5"),
        );
    }
}

#[test]
fn the_numberlink_generator_makes_a_unique_puzzle() {
    for seed in ["1", "2"] {
        assert_unique(
            "numberlink",
            &["5", "5", seed],
            &format!("cargo run --release --example numberlink -- 5 5 {seed}"),
        );
    }
}

#[test]
fn the_generators_refuse_bad_arguments() {
    for (example, args) in [
        ("slitherlink", &["five", "1"][..]),
        ("nurikabe", &["5", "5"][..]),
        ("numberlink", &["5", "5", "1", "--longest"][..]),
    ] {
        let out = Command::new(env!("CARGO"))
            .args(["run", "--release", "--quiet", "--example", example, "--"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{example} {args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("usage:"), "{example} {args:?}");
    }
}

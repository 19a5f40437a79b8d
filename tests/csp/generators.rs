//! The grid puzzle generators (slitherlink, nurikabe, numberlink, in
//! `somaria::grid_models`, which the examples of the same names print) make
//! models that load, have exactly one solution, and whose solution passes
//! the family's independent check; and the same arguments give the same
//! model. Each is called with the arguments its example takes, at sizes
//! that keep each run well under a second.

use somaria::grid_models::{MakeError, numberlink, nurikabe, slitherlink};
use somaria::model::Source;
use somaria::puzzles::{self, CountOptions, SolveOptions, Status};

/// What the example `example` prints for `args` (its model), or why it
/// makes none: the usage line or a size refused (the example's exit 2), or
/// a failed run (its exit 1).
fn make(example: &str, args: &[&str]) -> Result<String, String> {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let quiet = &mut |_: &str| {};
    let made: Result<String, MakeError> = match example {
        "slitherlink" => slitherlink::make(&slitherlink::Options::from_args(&args)?, quiet),
        "nurikabe" => nurikabe::make(&nurikabe::Options::from_args(&args)?, quiet),
        "numberlink" => numberlink::make(&numberlink::Options::from_args(&args)?, quiet),
        _ => panic!("no generator {example}"),
    };
    Ok(made.unwrap_or_else(|e| panic!("{example} {args:?}: {e}")))
}

/// The model the example prints for `args`.
fn generate(example: &str, args: &[&str]) -> String {
    make(example, args).unwrap_or_else(|usage| panic!("{example} {args:?}: {usage}"))
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
        let refused = make(example, args).expect_err(&format!("{example} {args:?} is refused"));
        assert!(refused.contains("usage:"), "{example} {args:?}: {refused}");
    }
}

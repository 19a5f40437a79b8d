//! Every genre's model against brute force by pzprjs's own checker: random
//! tiny puzzles of each genre (random clues, solvable or not) are counted
//! by somaria and, through `tests/node/pzpr-brute.js`, by filling every
//! answer cell in every way on pzprjs's board and asking its checker; the
//! counts must agree. The URL is the only thing the two share, so the
//! codec is checked on the way: pzprjs reads what somaria writes.

use proptest::prelude::*;
use serde_json::{Value, json};
use somaria::generate::{self, GenerateOptions, GenerateProgress};
use somaria::genres::{self, GENRES};
use somaria::model::Source;
use somaria::rng::SplitMix64;
use somaria::{CountOptions, Status};
use std::sync::Arc;

/// How pzprjs's board holds a genre's answer (the slots the brute force
/// fills), and the sizes (rows, columns) small enough to fill every way.
fn answer_slots(id: &str) -> Option<(Value, &'static [(usize, usize)])> {
    let cells =
        |values: Value, where_: &str| json!([{"group": "cell", "prop": "qans", "values": values, "where": where_}]);
    let borders = |prop: &str| json!([{"group": "border", "prop": prop, "values": [0, 1], "where": "inner"}]);
    let anum = |values: Value| json!([{"group": "cell", "prop": "anum", "values": values, "where": "empty"}]);
    let shading = json!([0, 1]);
    Some(match id {
        "slither" => {
            (json!([{"group": "border", "prop": "line", "values": [0, 1], "where": "all"}]), &[(1, 3), (2, 2), (2, 3)])
        }
        "nurikabe" | "kurodoko" => (cells(shading, "empty"), &[(3, 3), (3, 4), (4, 4)]),
        "lightup" => (cells(shading, "empty"), &[(3, 3), (4, 4), (4, 5)]),
        "heyawake" | "hitori" | "norinori" => (cells(shading, "all"), &[(3, 3), (3, 4), (2, 6)]),
        "starbattle" => (cells(shading, "all"), &[(3, 3), (3, 4), (4, 4)]),
        "shikaku" => (borders("qans"), &[(2, 3), (3, 3), (3, 4)]),
        "numlin" => (borders("line"), &[(2, 3), (3, 3), (3, 4)]),
        "yinyang" => (anum(json!([1, 2])), &[(3, 3), (3, 4), (4, 4)]),
        "mashu" => (borders("line"), &[(2, 3), (3, 3), (3, 4)]),
        "ripple" => (anum(json!([1, 2, 3, 4, 5, 6])), &[(1, 4), (2, 2), (2, 3)]),
        "creek" => (cells(json!([0, 1]), "all"), &[(2, 3), (3, 3), (3, 4)]),
        "skyscrapers" => (anum(json!([1, 2, 3])), &[(3, 3)]),
        "fillomino" => (anum(json!([1, 2, 3, 4])), &[(2, 2), (2, 3)]),
        "hebi" => (anum(json!([-1, 1, 2, 3, 4, 5])), &[(1, 5), (2, 3)]),
        "kakuro" => (
            json!([{"group": "cell", "prop": "anum", "values": [1, 2, 3, 4, 5, 6, 7, 8, 9], "where": "white"}]),
            &[(2, 2), (2, 3)],
        ),
        "slalom" => (
            json!([{"group": "border", "prop": "line", "values": [0, 1], "where": "inner"}]),
            &[(2, 3), (3, 3), (3, 4)],
        ),
        "country" | "moonsun" => (borders("line"), &[(2, 3), (3, 3)]),
        "nanro" => (anum(json!([-1, 1, 2, 3, 4])), &[(2, 2), (2, 3)]),
        "tentaisho" => (borders("qans"), &[(2, 3), (3, 3)]),
        "hashikake" => (
            json!([{"group": "border", "prop": "line", "values": [0, 1, 2], "where": "inner", "straight": true}]),
            &[(2, 3), (1, 5), (3, 3)],
        ),
        "gokigen" => (cells(json!([31, 32]), "all"), &[(3, 3), (3, 4)]),
        "lits" => (cells(shading, "all"), &[(3, 3), (3, 4)]),
        "mochikoro" | "tapa" | "kurotto" => (cells(shading, "empty"), &[(3, 3), (3, 4), (4, 4)]),
        "yajilin" => (
            json!([{"group": "cell", "prop": "qans", "values": [0, 1], "where": "empty"},
                   {"group": "border", "prop": "line", "values": [0, 1], "where": "inner"}]),
            &[(2, 2), (2, 3), (2, 4)],
        ),
        _ => return None,
    })
}

/// Whether npm's pzpr 0.10.1 reads the puzzle as puzz.link does: it
/// predates slitherlink's `f` variant, a tentaisho's cells left out and a
/// skyscrapers' givens.
fn npm_reads(instance: &dyn genres::Instance) -> bool {
    let id = instance.genre().id;
    let left_out = instance.params().get("empty").is_some_and(|e| e.to_string().contains('1'));
    let newer_slither = id == "slither" && instance.flags().contains('f');
    // It reads a skyscrapers' numbers outside but not the givens inside.
    let givens = id == "skyscrapers"
        && instance.params().get("clue").and_then(|c| c.as_array()).is_some_and(|rows| {
            rows.iter().flat_map(|r| r.as_array().into_iter().flatten()).any(|v| v.as_integer() != Some(-1))
        });
    !(newer_slither || id == "tentaisho" && left_out || givens)
}

/// pzprjs's counts of `jobs` (URL, slots), at most `limit` each; `None`
/// when node or the package is missing.
fn pzprjs_counts(jobs: &[(String, Value)], limit: u64) -> Option<Vec<(u64, bool)>> {
    let modules = super::pzpr_modules()?;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/node/pzpr-brute.js");
    let input: String = jobs
        .iter()
        .map(|(url, slots)| json!({"url": url, "slots": slots, "limit": limit}).to_string() + "\n")
        .collect();
    let out = super::node(script, &[], &modules, &input);
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), jobs.len(), "{out}");
    Some(
        lines
            .iter()
            .zip(jobs)
            .map(|(l, (url, _))| {
                assert!(l.get("error").is_none(), "pzprjs failed on {url}: {l}");
                (l["count"].as_u64().unwrap(), l["complete"].as_bool().unwrap())
            })
            .collect(),
    )
}

/// somaria's count of `url`, at most `limit`.
fn somaria_count(url: &str, limit: u64) -> (u64, bool) {
    let opened = genres::open_url(url).unwrap_or_else(|e| panic!("{url}: {e}"));
    let count = opened.puzzle.count(&CountOptions { limit: Some(limit), ..Default::default() }).unwrap();
    (count.count, count.complete)
}

/// The default sweep: the smallest size of each genre, two puzzles each, so
/// that every genre's model still meets pzprjs's brute force on every run
/// (a wrong model shows on most random puzzles of its smallest size).
#[test]
fn every_genre_agrees_with_pzprjs_brute_force_on_tiny_puzzles() {
    sweep(38, 1, 2);
}

/// The whole sweep: every size of each genre, three puzzles each (about
/// five minutes on a loaded 2-core machine). Run it with
/// `cargo test --release --test genres -- --ignored brute::the_whole_brute_force_sweep`.
#[test]
#[ignore = "the whole brute-force sweep takes minutes; the default run keeps a smaller one"]
fn the_whole_brute_force_sweep() {
    sweep(38, usize::MAX, 3);
}

/// Random puzzles of each genre pzprjs's brute force can fill, `per_size` of
/// each of its first `sizes` sizes, counted by somaria and by pzprjs.
fn sweep(seed: u64, sizes: usize, per_size: usize) {
    const LIMIT: u64 = 2000;
    let mut jobs = Vec::new();
    let mut rng = SplitMix64::new(seed);
    for genre in GENRES {
        let Some((slots, all_sizes)) = answer_slots(genre.id) else {
            eprintln!("{}: no brute force by pzprjs here", genre.id);
            continue;
        };
        for &(rows, cols) in all_sizes.iter().take(sizes) {
            // The empty board too: pzprjs refuses some (a numberlink with
            // no line), and a generated puzzle may drop every clue.
            if let Ok(empty) = genres::decode(&format!("https://puzz.link/p?{}/{cols}/{rows}/", genre.id))
                && npm_reads(empty.as_ref())
            {
                jobs.push((genres::url_of(empty.as_ref()).unwrap(), slots.clone()));
            }
            let mut made = 0;
            while made < per_size {
                let instance = (genre.random)(&mut rng, rows, cols);
                if !npm_reads(instance.as_ref()) {
                    continue;
                }
                jobs.push((genres::url_of(instance.as_ref()).unwrap(), slots.clone()));
                made += 1;
            }
        }
    }
    let Some(theirs) = pzprjs_counts(&jobs, LIMIT) else {
        eprintln!("skipped: node or the npm package pzpr is missing");
        return;
    };
    let mut solvable = 0;
    let mut differ = Vec::new();
    for ((url, _), theirs) in jobs.iter().zip(theirs) {
        let ours = somaria_count(url, LIMIT);
        // Past the limit a count says "at least": pzprjs's counts one more.
        let at_most = |(count, complete): (u64, bool)| (count.min(LIMIT), complete);
        if at_most(ours) != at_most(theirs) {
            differ.push(format!("{url}: somaria counts {ours:?}, pzprjs's checker {theirs:?}"));
        }
        solvable += usize::from(ours.0 > 0);
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    eprintln!("{} tiny puzzles, {solvable} with a solution, counted alike", jobs.len());
}

/// Every genre that `generate` makes and pzprjs's brute force can fill:
/// two puzzles each on a tiny grid, each of which the brute force must find
/// exactly one answer to. The template is the first random puzzle of that
/// size with a solution (with exactly one, for slalom; a design that
/// searches its clues starts from the template's), and the URL is the only
/// thing the two share.
#[test]
fn generated_tiny_puzzles_have_one_answer_by_pzprjs_brute_force() {
    let mut rng = SplitMix64::new(11);
    let (mut jobs, mut genres_made, mut designed) = (Vec::new(), Vec::new(), Vec::new());
    for genre in GENRES {
        let Some((slots, sizes)) = answer_slots(genre.id) else { continue };
        // npm's pzpr 0.10.1 takes a tentaisho border that ends inside a
        // galaxy (one dot in the middle of a 3 x 2 grid: 11 fillings and
        // more), so its brute force cannot judge a tentaisho unique.
        if genre.id == "tentaisho" {
            continue;
        }
        // The smallest size: a brute force's values (a fillomino's 1 to 4)
        // cover every answer there.
        let (rows, cols) = sizes[0];
        let Some(template) = (0..300).map(|_| (genre.random)(&mut rng, rows, cols)).find(|i| {
            let url = genres::url_of(i.as_ref()).unwrap();
            // A slalom's design keeps the template's black cells, gates
            // and circle, and numbers black cells beside gates: the first
            // 2 x 3 with a solution has no gate to tell its two loops
            // apart, so its template is one its own numbers make unique.
            let limit = if genre.id == "slalom" { 2 } else { 1 };
            npm_reads(i.as_ref()) && somaria_count(&url, limit).0 == 1
        }) else {
            continue;
        };
        let source = genres::model_of(template.as_ref()).unwrap();
        let Ok(designer) = somaria::puzzles::designer(&source) else { continue };
        designed.push(genre.id);
        let options = GenerateOptions { count: 2, seed: 5, ..GenerateOptions::default() };
        let made = generate::generate(designer.as_ref(), &options, &Arc::new(GenerateProgress::default())).unwrap();
        for puzzle in made.into_iter().flatten() {
            let opened = genres::open_source(Source::from_text("made.toml", puzzle.model.as_str())).unwrap();
            let instance = opened.instance.unwrap();
            if !npm_reads(instance.as_ref()) {
                continue;
            }
            let url = genres::url_of(instance.as_ref()).unwrap();
            if !genres_made.contains(&genre.id) {
                genres_made.push(genre.id);
            }
            jobs.push((url, slots.clone()));
        }
    }
    assert_eq!(genres_made, designed, "every designed genre makes puzzles on a tiny grid");
    let Some(theirs) = pzprjs_counts(&jobs, 2) else {
        eprintln!("skipped: node or the npm package pzpr is missing");
        return;
    };
    for ((url, _), theirs) in jobs.iter().zip(theirs) {
        assert_eq!(theirs, (1, true), "{url}: pzprjs's brute force finds {theirs:?} answers");
    }
    eprintln!(
        "{} generated puzzles of {} genres, each with one answer: {genres_made:?}",
        jobs.len(),
        genres_made.len()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// A random puzzle's URL decodes to the same puzzle and is written back
    /// as itself; its parameters read back to it; its model loads.
    #[test]
    fn urls_and_parameters_round_trip(which in 0..GENRES.len(), seed in any::<u64>(), rows in 1usize..9, cols in 1usize..9) {
        let genre = GENRES[which];
        let instance = (genre.random)(&mut SplitMix64::new(seed), rows, cols);
        let url = genres::url_of(instance.as_ref()).unwrap();
        let back = genres::decode(&url).map_err(|e| TestCaseError::fail(format!("{url}: {e}")))?;
        prop_assert_eq!(back.params(), instance.params(), "{}", url);
        prop_assert_eq!(genres::url_of(back.as_ref()).unwrap(), url.clone());
        let model = genres::model_of(instance.as_ref()).unwrap();
        let opened = genres::open_source(model).map_err(|e| TestCaseError::fail(format!("{url}: {e}")))?;
        let again = opened.instance.unwrap();
        prop_assert_eq!(again.params(), instance.params());
        prop_assert_eq!(genres::url_of(again.as_ref()).unwrap(), url);
    }

    /// Any text as a URL is an answer or an error, never a panic.
    #[test]
    fn any_text_is_read_or_refused(text in ".{0,60}", genre in 0..GENRES.len(), tail in "[0-9a-z./?%=_&-]{0,40}") {
        let _ = genres::decode(&text);
        let url = format!("https://puzz.link/p?{}/{tail}", GENRES[genre].id);
        if let Err(e) = genres::decode(&url) {
            prop_assert!(e.to_string().contains("expected"), "{}", e);
        }
    }
}

#[test]
fn a_solved_random_puzzle_is_judged_complete_by_pzprjs() {
    // Random 4x4 to 5x5 puzzles with a solution: somaria's answer as a file,
    // judged by pzprjs's checker.
    let mut rng = SplitMix64::new(7);
    for genre in GENRES {
        let mut judged = 0;
        for _ in 0..40 {
            // araf's model (a region label per cell over every number, one
            // grid_connected per number) takes minutes to refute some random
            // 5x5 arafs, most of which have no solution: it stays at 4x4.
            let most = if genre.id == "araf" { 0 } else { 1 };
            let (rows, cols) = (4 + rng.below(most + 1), 4 + rng.below(most + 1));
            let instance = (genre.random)(&mut rng, rows, cols);
            if !npm_reads(instance.as_ref()) {
                continue;
            }
            let opened = genres::open_url(&genres::url_of(instance.as_ref()).unwrap()).unwrap();
            let report = opened.puzzle.solve(&Default::default()).unwrap();
            if report.status != Status::Solved {
                continue;
            }
            let answer = report.solution.unwrap().json;
            let file = instance.file(&genres::Answer::Solution(&answer)).unwrap();
            match super::judge(genre.id, &file) {
                Ok(verdict) => assert_eq!(verdict["complete"], true, "{}: {verdict}\n{file}", genre.id),
                Err(why) => {
                    eprintln!("{}: {why}", genre.id);
                    break;
                }
            }
            judged += 1;
            if judged == 3 {
                break;
            }
        }
    }
}

//! Bad `[hints]` tables: each gets exit code 2 and a message with its
//! place in the file, what was found and what was expected; no table makes
//! the loader panic; a good one names the steps of `hint`.

use proptest::prelude::*;
use somaria::model::Source;

use crate::common;

use common::cli::{assert_mentions, refused, run_json};
use common::models::SUDOKU_4X4_RULES;

/// A 4×4 Sudoku with a good hint table; each case replaces one line.
static GOOD: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("{SUDOKU_HEAD}{SUDOKU_4X4_RULES}{GOOD_TABLE}"));

/// The start of [`GOOD`]: the kind and the givens.
const SUDOKU_HEAD: &str = r#"kind = "csp"
show = ["cell"]
[params]
givens = [[1, 2, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]]
"#;

/// The end of [`GOOD`]: its hint table.
const GOOD_TABLE: &str = r#"[hints.houses]
"each row" = "row {i}"
"each column" = "column {j}"
"each box" = "box {n}"
[[hints.technique]]
shape = "single place"
name = "hidden single"
text = "{value} goes in {at}: it is the only place for {value} in {house}"
[[hints.technique]]
shape = "subset"
size = 2
houses = ["each box"]
name = "naked pair"
text = "{cells} hold {values}"
"#;

/// `GOOD` with the line `old` replaced by `new`.
fn with(old: &str, new: &str) -> String {
    assert!(GOOD.contains(old), "{old}");
    GOOD.replacen(old, new, 1)
}

/// "bad.toml:LINE:COL:" of the first `needle` in `text`.
fn at(text: &str, needle: &str) -> String {
    let offset = text.find(needle).unwrap_or_else(|| panic!("{needle}"));
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    format!("bad.toml:{line}:{col}:")
}

#[test]
fn a_good_table_names_the_first_hint() {
    let dir = tempfile::tempdir().unwrap();
    let path = common::cli::write_model(dir.path(), "good.toml", GOOD.as_str());
    let (code, json) = run_json(&["hint", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{json}");
    let technique = &json["step"]["technique"];
    assert_eq!(technique["name"], "hidden single", "{json}");
    assert_eq!(technique["text"], "2 goes in (2, 4): it is the only place for 2 in row 2", "{technique}");
}

#[test]
fn a_house_that_is_no_constraint() {
    let text = with(r#""each row" = "row {i}""#, r#""each rwo" = "row {i}""#);
    let e = refused(&text);
    assert_mentions(
        &e,
        &[&at(&text, "\"each rwo\""), "\"each rwo\", which is no constraint's name", "expected", "\"each row\""],
    );
}

#[test]
fn a_house_that_is_no_alldifferent() {
    let text = with(r#""each row" = "row {i}""#, r#""the givens" = "given {i}""#);
    let e = refused(&text);
    assert_mentions(&e, &[&at(&text, "\"the givens\" ="), "not each one `alldifferent` of variables", "expected"]);
}

#[test]
fn a_house_name_with_an_unknown_placeholder() {
    let text = with(r#""each box" = "box {n}""#, r#""each box" = "box {k}""#);
    let e = refused(&text);
    assert_mentions(&e, &[&at(&text, "\"box {k}\""), "the placeholder {k}", "expected one of {n}", "{r}", "{c}"]);
}

#[test]
fn an_unknown_shape() {
    let text = with(r#"shape = "single place""#, r#"shape = "hidden""#);
    let e = refused(&text);
    let expected = ["expected one of \"single place\"", "\"hidden subset\"", "\"fish\""];
    assert_mentions(&e, &[&at(&text, "\"hidden\""), "shape = \"hidden\""]);
    assert_mentions(&e, &expected);
}

#[test]
fn a_sentence_with_a_placeholder_its_shape_has_not() {
    let text = with("text = \"{cells} hold {values}\"", "text = \"{cells} hold {value}\"");
    let e = refused(&text);
    assert_mentions(
        &e,
        &[&at(&text, "\"{cells} hold {value}\""), "the placeholder {value} in a \"subset\" sentence", "{values}"],
    );
}

#[test]
fn an_unclosed_brace() {
    let text = with("text = \"{cells} hold {values}\"", "text = \"{cells} hold {values\"");
    let e = refused(&text);
    assert_mentions(&e, &[&at(&text, "\"{cells} hold {values\""), "an unclosed `{`", "expected"]);
}

#[test]
fn a_size_out_of_place() {
    let text = with("size = 2", "size = 1");
    assert_mentions(&refused(&text), &[&at(&text, "1\nhouses"), "size = 1", "a size from 2 to 64"]);
    let text = with("shape = \"subset\"", "shape = \"single place\"").replace("{cells} hold {values}", "{value}");
    let expected = "only a \"subset\", \"hidden subset\" or \"fish\" has one";
    assert_mentions(&refused(&text), &[&at(&text, "2\nhouses"), "size = 2", expected]);
}

#[test]
fn a_hidden_subset_or_fish_of_a_size_out_of_range() {
    for (shape, sentence) in [("hidden subset", "{cells} hold {values}"), ("fish", "{value} in {other}")] {
        for size in [1, 9, -3] {
            let text = with("shape = \"subset\"", &format!("shape = \"{shape}\""))
                .replace("size = 2", &format!("size = {size}"))
                .replace("{cells} hold {values}", sentence);
            let place = at(&text, &format!("{size}\nhouses"));
            assert_mentions(&refused(&text), &[&place, &format!("size = {size}"), "expected a size from 2 to 8"]);
        }
    }
}

#[test]
fn a_fish_sentence_with_a_subset_placeholder() {
    let text = with("shape = \"subset\"", "shape = \"fish\"");
    let e = refused(&text);
    let expected = ["{value}", "{houses}", "{other}", "{cells}", "{size}"];
    assert_mentions(&e, &[&at(&text, "\"{cells} hold {values}\""), "the placeholder {values} in a \"fish\" sentence"]);
    assert_mentions(&e, &expected);
}

#[test]
fn a_technique_within_an_unnamed_house() {
    let text = with(r#"houses = ["each box"]"#, r#"houses = ["each cage"]"#);
    let e = refused(&text);
    assert_mentions(&e, &[&at(&text, "\"each cage\""), "which [hints.houses] does not name", "\"each box\""]);
}

#[test]
fn a_technique_that_needs_houses_with_none() {
    let text =
        GOOD.replace("\"each row\" = \"row {i}\"\n\"each column\" = \"column {j}\"\n\"each box\" = \"box {n}\"\n", "");
    let e = refused(&text);
    assert_mentions(&e, &[&at(&text, "\"single place\""), "with no houses", "[hints.houses]"]);
}

#[test]
fn an_unknown_key() {
    let text = with("name = \"naked pair\"", "nam = \"naked pair\"");
    assert_mentions(&refused(&text), &[&at(&text, "nam ="), "nam"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::models::fuzz_cases() / 4))]

    /// No edit of the table panics the loader: it loads, or is refused with
    /// a message that names the file.
    #[test]
    fn mutated_tables_never_panic_the_loader(
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), prop::sample::select(b"{}\"[]=, nikabsxz\n".to_vec())), 1..6),
    ) {
        let start = GOOD.find("[hints").unwrap();
        let (model, table) = GOOD.split_at(start);
        let text = [model.as_bytes(), &common::models::mutate(table, &edits)].concat();
        let text = String::from_utf8_lossy(&text).into_owned();
        match somaria::puzzles::load(&Source::from_text("fuzz.toml", text)) {
            Ok(_) => {}
            Err(e) => prop_assert!(e.to_string().starts_with("fuzz.toml"), "{}", e),
        }
    }

    /// Any sentence is read or refused, never a panic.
    #[test]
    fn any_sentence_is_read_or_refused(sentence in "[{}a-z ]{0,30}") {
        let text = with("text = \"{cells} hold {values}\"", &format!("text = \"{sentence}\""));
        if let Err(e) = somaria::puzzles::load(&Source::from_text("fuzz.toml", text)) {
            prop_assert!(e.to_string().starts_with("fuzz.toml"), "{}", e);
        }
    }
}

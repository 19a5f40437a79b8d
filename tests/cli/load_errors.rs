//! Bad model files: each gets exit code 2 and a message naming the file,
//! the place when known, what was found and what was expected. No input
//! makes the loader panic.

use proptest::prelude::*;
use somaria::model::Source;

use crate::common;

use common::cli::{assert_mentions, refused, somaria, write_model};
use common::models::{fuzz_cases, mutate};

#[test]
fn not_toml() {
    let e = refused(b"kind = \"fans\"\ngrid = [unclosed\n");
    assert_mentions(&e, &["bad.toml:2:"]);
}

#[test]
fn missing_kind() {
    assert_mentions(&refused(b"grid = \"FW\"\n"), &["missing `kind`", "\"fans\""]);
}

#[test]
fn unknown_kind() {
    assert_mentions(
        &refused(b"kind = \"sudoku\"\n"),
        &["bad.toml:1:8:", "unknown kind \"sudoku\"", "expected one of", "\"fans\""],
    );
}

#[test]
fn kind_of_the_wrong_type() {
    assert_mentions(&refused(b"kind = 3\n"), &["bad.toml:1:8:"]);
}

#[test]
fn missing_grid_and_fans() {
    assert_mentions(&refused(b"kind = \"fans\"\n"), &["neither `grid` nor `fans`", "expected either `grid"]);
}

#[test]
fn both_forms_at_once() {
    assert_mentions(
        &refused(b"kind = \"fans\"\ngrid = \"FW\"\nfans = 2\n"),
        &["bad.toml:3:8:", "both `grid` and `fans`"],
    );
}

#[test]
fn unknown_key() {
    assert_mentions(&refused(b"kind = \"fans\"\ngird = \"FW\"\n"), &["bad.toml:2:1:", "gird"]);
}

#[test]
fn unknown_symbol_is_named_with_its_place() {
    let e = refused(b"kind = \"fans\"\ngrid = \"\"\"\nFWW\nWXW\n\"\"\"\n");
    assert_mentions(
        &e,
        &["bad.toml:4:2:", "unknown symbol 'X' at grid cell (1, 1)", "expected 'F' fan, 'W' weathercock"],
    );
}

#[test]
fn ragged_rows() {
    let e = refused(b"kind = \"fans\"\ngrid = \"\"\"\nFWW\nWW\n\"\"\"\n");
    assert_mentions(&e, &["bad.toml:4:3:", "row 1 has 2 cells, but row 0 has 3"]);
}

#[test]
fn empty_grid() {
    assert_mentions(&refused(b"kind = \"fans\"\ngrid = \"\"\"\n\n\"\"\"\n"), &["bad.toml:2:8:", "the grid is empty"]);
}

#[test]
fn fan_index_out_of_range() {
    let e = refused(b"kind = \"fans\"\nfans = 2\n[[weathercocks]]\nhit_by = [{ fan = 2, dir = \"up\" }]\n");
    assert_mentions(&e, &["bad.toml:4:19:", "fan index 2", "expected a fan index from 0 to 1"]);
}

#[test]
fn unknown_direction() {
    let e = refused(b"kind = \"fans\"\nfans = 1\n[[weathercocks]]\nhit_by = [{ fan = 0, dir = \"north\" }]\n");
    assert_mentions(&e, &["bad.toml:4:28:", "unknown direction \"north\"", "\"up\", \"down\", \"left\" or \"right\""]);
}

#[test]
fn negative_and_huge_counts() {
    assert_mentions(&refused(b"kind = \"fans\"\nfans = -1\n"), &["bad.toml:2:8:", "`fans = -1`", "from 0 to 100000"]);
    assert_mentions(&refused(b"kind = \"fans\"\nfans = 4000000000\n"), &["bad.toml:2:8:", "`fans = 4000000000`"]);
    assert_mentions(&refused(b"kind = \"fans\"\nfans = 99999999999999999999999\n"), &["bad.toml:2:8:"]);
    assert_mentions(&refused(b"kind = \"fans\"\nfans = 2.5\n"), &["bad.toml:2:8:"]);
}

#[test]
fn binary_junk() {
    let e = refused(b"kind = \"fans\"\n\xff\xfe\x00junk");
    assert_mentions(&e, &["bad.toml:2:1:", "not UTF-8"]);
}

#[test]
fn a_file_that_does_not_exist() {
    let out = somaria().args(["solve", "no/such/model.toml"]).assert().code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert_mentions(&stderr, &["no/such/model.toml", "cannot read the file"]);
}

#[test]
fn a_directory_is_not_a_model() {
    let out = somaria().args(["count", "models"]).assert().code(2);
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("cannot read the file"));
}

/// Valid models of every kind, to mutate.
const SEED_MODELS: [&str; 6] = [
    include_str!("../../models/akh-vaquot.toml"),
    include_str!("../../models/akh-vaquot-listed.toml"),
    include_str!("../../models/heros-cave-somaria.toml"),
    include_str!("../../models/tile-cover-end.toml"),
    include_str!("../../models/keys-doors/two-doors.toml"),
    include_str!("../../models/keys-doors/back-through-the-door.toml"),
];

/// The kinds, for text generated after a `kind` line.
const KINDS: [&str; 3] = ["fans", "tile-cover", "keys-doors"];

fn load_never_panics(bytes: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(bytes).into_owned();
    match somaria::puzzles::load(&Source::from_text("fuzz.toml", text)) {
        Ok(_) => Ok(()),
        Err(e) => {
            let message = e.to_string();
            if message.starts_with("fuzz.toml") && message.len() > "fuzz.toml: ".len() { Ok(()) } else { Err(message) }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases()))]

    #[test]
    fn arbitrary_text_never_panics_the_loader(text in ".{0,200}") {
        prop_assert!(load_never_panics(text.as_bytes()).is_ok());
    }

    #[test]
    fn arbitrary_text_after_a_kind_never_panics_the_loader(
        kind in prop::sample::select(KINDS.to_vec()),
        text in "[FWSE@aAbB.#\\n\"'=a-z\\[\\]{}, 0-9-]{0,120}",
    ) {
        let model = format!("kind = \"{kind}\"\n{text}");
        prop_assert!(load_never_panics(model.as_bytes()).is_ok());
    }

    #[test]
    fn grids_of_arbitrary_symbols_never_panic_the_loader(
        kind in prop::sample::select(KINDS.to_vec()),
        grid in "[FWSE@aAbBzZ.#\\n ]{0,60}",
        extra in prop::sample::select(vec!["", "leave_uncovered = 1\n", "leave_uncovered = -4\n", "fans = 3\n", "title = 7\n"]),
    ) {
        let model = format!("kind = \"{kind}\"\n{extra}grid = \"\"\"\n{grid}\n\"\"\"\n");
        prop_assert!(load_never_panics(model.as_bytes()).is_ok());
    }

    #[test]
    fn mutated_models_never_panic_the_loader(
        which in 0usize..SEED_MODELS.len(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), prop::sample::select(b"FWSE@aA.#\n\"[]{}=,-0123456789 xkindgrfas".to_vec())), 1..6),
    ) {
        prop_assert!(load_never_panics(&mutate(SEED_MODELS[which], &edits)).is_ok());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Through the binary: exit 0, 1 or 2, never a crash, and exit 2 always
    /// comes with a message.
    #[test]
    fn mutated_models_get_a_clean_exit_from_the_cli(
        which in 0usize..SEED_MODELS.len(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..4),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = write_model(dir.path(), "m.toml", mutate(SEED_MODELS[which], &edits));
        let out = somaria().arg("solve").arg(&path).output().unwrap();
        let code = out.status.code();
        prop_assert!(matches!(code, Some(0..=2)), "exit {:?}", code);
        if code == Some(2) {
            prop_assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: "));
        }
    }
}

/// Serde's type errors come out in the model's words in every family: the
/// key, what was found and what a model takes, with no Rust type names.
#[test]
fn wrong_types_and_huge_numbers_are_named_in_the_models_words() {
    let cases: [(&[u8], &[&str]); 6] = [
        (b"kind = \"fans\"\nfans = 2.5\n", &["bad.toml:2:8:", "`fans`: found 2.5, which is not a whole number"]),
        (b"kind = \"fans\"\nfans = \"3\"\n", &["bad.toml:2:8:", "found the text \"3\" in quotes", "without quotes"]),
        (
            b"kind = \"tile-cover\"\ngrid = \"S..\"\nleave_uncovered = 1e20\n",
            &["bad.toml:3:19:", "`leave_uncovered`: found", "not a whole number"],
        ),
        (
            b"kind = \"tile-cover\"\ngrid = \"S..\"\nleave_uncovered = 99999999999999999999999\n",
            &["bad.toml:3:19:", "found 99999999999999999999999, beyond the range"],
        ),
        (b"kind = \"keys-doors\"\ngrid = 5\n", &["bad.toml:2:8:", "`grid`: found 5; expected text in quotes"]),
        (
            b"kind = \"csp\"\n[params]\nn = 99999999999999999999\n[vars]\nx = \"0..3\"\n",
            &["bad.toml:3:5:", "99999999999999999999, beyond"],
        ),
    ];
    for (text, words) in cases {
        let e = refused(text);
        assert_mentions(&e, words);
        for rust_type in ["i64", "i128", "u64", "usize", "invalid type"] {
            assert!(!e.contains(rust_type), "{rust_type} in {e}");
        }
    }
}

#[test]
fn play_refuses_a_url_that_does_not_decode_before_it_listens() {
    let out = somaria().args(["play", "https://puzz.link/p?mashu/4/x", "--port", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(message.contains("expected") && !message.contains("serving"), "{message}");
}

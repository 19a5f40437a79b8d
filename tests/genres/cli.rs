//! The command line with puzz.link URLs: a URL as MODEL for every command,
//! `genres`, `import`, `--format url` and `--format pzprv3`, and bad URLs
//! refused with exit 2.

use super::common::cli::somaria;

const SAMPLE: &str = "https://puzz.link/p?slither/5/5/cbcbcddad";

fn stdout_of(args: &[&str]) -> (i32, String, String) {
    let out = somaria().args(args).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).to_string();
    (out.status.code().unwrap(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn every_command_takes_a_url() {
    for command in [&["solve"][..], &["count", "--limit", "2"], &["facts"], &["explain"], &["hint"], &["steps"]] {
        let mut args = command.to_vec();
        args.extend([SAMPLE, "--format", "json"]);
        let (code, out, err) = stdout_of(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(json["kind"], "csp", "{args:?}: {out}");
    }
    let (code, out, _) = stdout_of(&["count", SAMPLE, "--format", "json"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"count\":1"), "{out}");
}

#[test]
fn the_formats_url_and_pzprv3() {
    let (code, out, _) = stdout_of(&["count", SAMPLE, "--format", "url"]);
    assert_eq!((code, out.as_str()), (0, "https://puzz.link/p?slither/5/5/cbcbcddad\n"));
    let (code, answer, _) = stdout_of(&["solve", SAMPLE, "--format", "pzprv3"]);
    assert_eq!(code, 0);
    let data = super::samples();
    assert_eq!(answer, data["genres"]["slither"]["answer"].as_str().unwrap());
    // The state after the first steps: some sides crossed out (-1), no line
    // drawn that the answer lacks.
    let (code, state, _) = stdout_of(&["steps", SAMPLE, "--upto", "1", "--format", "pzprv3"]);
    assert_eq!(code, 0);
    assert!(state.contains("-1"), "{state}");
    let tokens = |t: &str| {
        t.lines()
            .skip(14)
            .flat_map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    };
    for (s, a) in tokens(&state).iter().zip(tokens(&answer)) {
        assert!(s != "1" || a == "1", "a line drawn that the answer lacks");
        assert!(s != "-1" || a == "0", "a side crossed out that the answer takes");
    }
    let (code, _, err) = stdout_of(&["solve", "models/csp/queens.toml", "--format", "url"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not a puzz.link genre's model"), "{err}");
}

#[test]
fn genres_lists_each_with_its_sample() {
    let (code, out, _) = stdout_of(&["genres"]);
    assert_eq!(code, 0);
    for genre in somaria::genres::GENRES {
        assert!(out.contains(genre.sample), "{} missing: {out}", genre.id);
    }
    let (code, out, _) = stdout_of(&["genres", "--json"]);
    assert_eq!(code, 0);
    let list: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(list.as_array().unwrap().len(), somaria::genres::GENRES.len());
}

#[test]
fn import_writes_a_model_that_loads_and_gives_the_url_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("puzzle.toml");
    let (code, _, err) = stdout_of(&["import", SAMPLE, "-o", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = stdout_of(&["solve", path.to_str().unwrap(), "--format", "url"]);
    assert_eq!((code, out.trim()), (0, SAMPLE));
    let (code, out, _) = stdout_of(&["count", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"count\":1"), "{out}");
}

/// A light up's walls and numbers are two parameters: a number on a white
/// cell is refused with its place, by the model and by the genre's reader.
#[test]
fn a_light_up_number_off_the_walls_is_refused_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lightup.toml");
    let (code, _, err) = stdout_of(&["import", "https://puzz.link/p?akari/6/6/nekcakbl", "-o", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    // (1, 1) is a white cell: `wall` says 0 there.
    std::fs::write(&path, text.replacen("clue = [[-1, ", "clue = [[2, ", 1)).unwrap();
    for args in [&["solve"][..], &["count", "--format", "url"]] {
        let (code, _, err) = stdout_of(&[args, &[path.to_str().unwrap()]].concat());
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("lightup.toml:") && err.contains("a number stands on a wall"), "{args:?}: {err}");
    }
    let instance = somaria::genres::decode("https://puzz.link/p?akari/6/6/nekcakbl").unwrap();
    let mut params = instance.params();
    params.insert("clue".into(), toml::Value::try_from([[2; 6]; 6]).unwrap());
    let error = somaria::genres::instance_of("lightup", &params).err().unwrap();
    assert!(error.contains("on the white cell at row 1, column 1") && error.contains("expected"), "{error}");
}

#[test]
fn generate_from_a_url_gives_urls_that_decode_to_unique_puzzles() {
    let (code, out, err) =
        stdout_of(&["generate", "https://puzz.link/p?slither/4/4/", "--count", "2", "--seed", "5", "--format", "url"]);
    assert_eq!(code, 0, "{err}");
    let urls: Vec<&str> = out.lines().collect();
    assert_eq!(urls.len(), 2, "{out}");
    for url in urls {
        assert!(url.starts_with("https://puzz.link/p?slither/4/4/"), "{url}");
        let (code, count, _) = stdout_of(&["count", url, "--format", "json"]);
        assert_eq!(code, 0);
        assert!(count.contains("\"count\":1"), "{url}: {count}");
        let (_, again, _) = stdout_of(&["count", url, "--format", "url", "--limit", "1"]);
        assert_eq!(again.trim(), url);
    }
}

/// Every genre model with a design table: `generate` on a grid of the
/// genre (a heyawake, ripple effect, nanro or country road keeps its rooms,
/// a statue park its bank of pieces, a light up its walls) gives URLs of
/// the genre that decode to a puzzle with one solution and are written back
/// as themselves.
#[test]
fn every_designed_genre_generates_urls_that_decode_to_unique_puzzles() {
    let templates = [
        ("sudoku", "https://puzz.link/p?sudoku/4/4/", 2),
        // Room counts alone seldom pin a heyawake down: one puzzle is asked.
        ("heyawake", "https://puzz.link/p?heyawake/6/6/lll155007rs12222j", 1),
        ("kurodoko", "https://puzz.link/p?kurodoko/4/4/", 2),
        ("creek", "https://puzz.link/p?creek/4/4/", 2),
        ("gokigen", "https://puzz.link/p?gokigen/3/3/", 2),
        ("yinyang", "https://puzz.link/p?yinyang/4/4/", 2),
        ("skyscrapers", "https://puzz.link/p?skyscrapers/4/4/", 2),
        ("nurimisaki", "https://puzz.link/p?nurimisaki/5/5/", 2),
        ("pencils", "https://puzz.link/p?pencils/5/5/", 2),
        // A drawn fillomino's blocks are big (each number is drawn from the
        // whole domain), and on a 5x5 its checks took minutes: a 4x4.
        ("fillomino", "https://puzz.link/p?fillomino/4/4/", 2),
        ("ripple", "https://puzz.link/p?ripple/4/4/9n8rigk14h32k", 2),
        ("cave", "https://puzz.link/p?cave/5/5/", 2),
        ("mashu", "https://puzz.link/p?mashu/5/5/", 2),
        ("nanro", "https://puzz.link/p?nanro/4/4/6r0s1oi13n1h", 2),
        // pzprjs's samples: the tanks, the trees and the clue cells are kept.
        ("aquarium", "https://puzz.link/p?aquarium/r/4/4/bu8i90/i3213g", 2),
        ("tents", "https://puzz.link/p?tents/5/5/2g0h1i1j82323", 2),
        ("doppelblock", "https://puzz.link/p?doppelblock/5/5/g6g34g10h", 2),
        // Every sum of a random fill seldom pins a kakuro down (about one
        // puzzle of six asked is made on this grid): one puzzle is asked.
        ("kakuro", "https://puzz.link/p?kakuro/5/5/48la0.na0lh3l0Bn.0cl.c4a3", 1),
        ("country", "https://puzz.link/p?country/5/5/amda0uf02h12h", 2),
        ("statuepark", "https://puzz.link/p?statuepark/7/7/078ii6000000290f0//t", 2),
        ("mochikoro", "https://puzz.link/p?mochikoro/6/6/", 2),
        // The walls without numbers: a design keeps them and numbers them anew.
        ("lightup", "https://puzz.link/p?akari/7/7/h.n.h.i.k.k.i.h.n.h", 2),
        // Designs that search their clues start from the template's: the
        // genre's sample.
        ("nurikabe", "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g", 2),
        ("shikaku", "https://puzz.link/p?shikaku/6/6/j3g56h6t6h23g5j", 2),
        ("kurotto", "https://puzz.link/p?kurotto/5/5/30m4h6h4m02", 2),
        ("tentaisho", "https://puzz.link/p?tentaisho/5/5/6fl94fi65en8dbf10000", 2),
        ("hashikake", "https://puzz.link/p?hashi/5/5/4g2i3h23k3g1g3g4g3", 2),
        ("numlin", "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3", 1),
        ("moonsun", "https://puzz.link/p?moonsun/6/6/44ccaa0c0vo0f1767932ii12", 2),
        ("hitori", "https://puzz.link/p?hitori/4/4/1114142333214213", 2),
        ("yajilin", "https://puzz.link/p?yajilin/5/5/m32j10", 2),
        // Designs that search the rooms themselves, from the sample's.
        ("lits", "https://puzz.link/p?lits/4/4/9q02jg", 2),
        ("norinori", "https://puzz.link/p?norinori/5/5/cag4ocjo", 2),
        ("starbattle", "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou", 2),
        // List clues, each kept or dropped whole: a tapa cell's runs, and
        // a nonogram line's (never dropped: a line without numbers is empty).
        ("tapa", "https://puzz.link/p?tapa/5/5/3n5hchhajn2", 2),
        ("nonogram", "https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3h", 2),
        // pzprjs's sample: its black cells, gates and circle are kept, and
        // the black cells beside a gate numbered anew.
        ("slalom", "https://puzz.link/p?slalom/d/6/6/9314131314131a1131ag0404j0101/33", 2),
    ];
    // The genres whose rooms are the puzzle: the design searches them, so
    // only their count (and a star battle's stars) is kept.
    let rooms_searched = ["lits", "norinori", "starbattle"];
    // What each genre's design keeps of its template besides the rooms:
    // the structure its clues are read on.
    let kept_beside_rooms = |genre: &str| -> &[&str] {
        match genre {
            "aquarium" => &["per_tank"],
            "tents" => &["tree"],
            "kakuro" => &["block"],
            "country" => &["may_skip"],
            "statuepark" => &["pieces", "width", "height", "shape"],
            "lightup" => &["wall"],
            "starbattle" => &["stars"],
            "slalom" => &["kind", "gate", "start_row", "start_col"],
            _ => &[],
        }
    };
    let mut searched_anew: Vec<&str> = Vec::new();
    for (genre, template, count) in templates {
        let count_text = count.to_string();
        let args = ["generate", template, "--count", &count_text, "--seed", "3", "--format", "url"];
        let (code, out, err) = stdout_of(&args);
        assert_eq!(code, 0, "{genre}: {err}");
        let urls: Vec<&str> = out.lines().collect();
        assert_eq!(urls.len(), count, "{genre}: {out}");
        for url in urls {
            let instance = somaria::genres::decode(url).unwrap_or_else(|e| panic!("{url}: {e}"));
            assert_eq!(instance.genre().id, genre, "{url}");
            assert_eq!(somaria::genres::url_of(instance.as_ref()).unwrap(), url, "written back as itself");
            let kept = |i: &dyn somaria::genres::Instance, param: &str| i.params().get(param).cloned();
            let template_instance = somaria::genres::decode(template).unwrap();
            for &param in kept_beside_rooms(genre) {
                assert!(kept(template_instance.as_ref(), param).is_some(), "{genre} has no parameter {param}");
            }
            let rooms: &[&str] = if rooms_searched.contains(&genre) { &["rooms"] } else { &["rooms", "room"] };
            for &param in rooms.iter().chain(kept_beside_rooms(genre)) {
                assert_eq!(kept(instance.as_ref(), param), kept(template_instance.as_ref(), param), "{url}: {param}");
            }
            if rooms_searched.contains(&genre)
                && kept(instance.as_ref(), "room") != kept(template_instance.as_ref(), "room")
                && !searched_anew.contains(&genre)
            {
                searched_anew.push(genre);
            }
            let opened = somaria::genres::open_url(url).unwrap();
            let count = opened.puzzle.count(&somaria::CountOptions { limit: Some(2), ..Default::default() }).unwrap();
            assert_eq!(count.count, 1, "{url} has one solution");
        }
    }
    assert_eq!(searched_anew, rooms_searched, "each genre whose rooms are searched makes rooms of its own");
}

#[test]
fn bad_urls_exit_2_with_what_was_found_and_expected() {
    let cases = [
        ("https://puzz.link/p?nosuchgenre/5/5/abc", "found the genre \"nosuchgenre\""),
        ("https://puzz.link/p?slither/5/5/cbcb", "found the end of the body"),
        ("https://puzz.link/p?slither/1000000/1000000/", "found the columns \"1000000\""),
        ("https://puzz.link/p?slither/5/5/cbcb#cddad", "found '#'"),
        ("https://puzz.link/p?slither/5", "expected"),
        ("https://puzz.link/", "no `?`"),
    ];
    for (url, found) in cases {
        for command in ["solve", "count", "import"] {
            let (code, out, err) = stdout_of(&[command, url]);
            assert_eq!(code, 2, "{command} {url}: {out}{err}");
            assert!(err.contains(found) && err.contains("expected"), "{command} {url}: {err}");
            assert!(!err.contains("panicked"), "{err}");
        }
    }
}

/// A tents grid with no tree has one solution, no tent, before any
/// number is read: a template with no room for clues, refused (exit 2)
/// rather than made into the same empty puzzle every time.
#[test]
fn a_template_unique_with_no_clue_is_refused() {
    let (code, out, err) = stdout_of(&["generate", "https://puzz.link/p?tents/5/5/", "--format", "url"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("one solution with no clue at all") && err.contains("tents"), "{err}");
    let (code, out, err) = stdout_of(&["generate", "https://puzz.link/p?tents/5/5/2g0h1i1j82323", "--format", "url"]);
    assert_eq!(code, 0, "{out}{err}");
}

//! Statue park against brute force written here: npm's pzpr does not know
//! the genre, so tiny random puzzles are counted by somaria and by trying
//! every shading against the rules, read from the puzzle's parameters
//! (circles and the bank's pieces) and checked by flood fills and the
//! pieces' shapes compared under turning and mirroring, sharing nothing with
//! the model's placements.

use std::collections::BTreeSet;

use somaria::genres::{self, GENRES};
use somaria::rng::SplitMix64;

type Shape = Vec<(i64, i64)>;

/// The shape of `cells`, the same for every turn and mirror image: the
/// least of the eight images, each moved to the origin and sorted.
fn canonical(cells: &[(i64, i64)]) -> Shape {
    let images = (0..8).map(|t| {
        let mut image: Shape = cells
            .iter()
            .map(|&(r, c)| {
                let (r, c) = if t >= 4 { (c, r) } else { (r, c) };
                (if t & 1 == 1 { -r } else { r }, if t & 2 == 2 { -c } else { c })
            })
            .collect();
        let (r0, c0) = (image.iter().map(|x| x.0).min().unwrap(), image.iter().map(|x| x.1).min().unwrap());
        image.iter_mut().for_each(|x| *x = (x.0 - r0, x.1 - c0));
        image.sort();
        image
    });
    images.min().unwrap()
}

/// The pieces of 4-connected cells among those `keep` marks.
fn blocks(keep: &[bool], rows: usize, cols: usize) -> Vec<Vec<(i64, i64)>> {
    let mut seen = vec![false; keep.len()];
    let mut out = Vec::new();
    for start in 0..keep.len() {
        if !keep[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let (mut stack, mut block) = (vec![start], Vec::new());
        while let Some(k) = stack.pop() {
            let (r, c) = (k / cols, k % cols);
            block.push((r as i64, c as i64));
            let next = [
                (r > 0).then(|| k - cols),
                (r + 1 < rows).then(|| k + cols),
                (c > 0).then(|| k - 1),
                (c + 1 < cols).then(|| k + 1),
            ];
            for n in next.into_iter().flatten() {
                if keep[n] && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        out.push(block);
    }
    out
}

/// The number of shadings of a puzzle with these parameters that keep the
/// rules.
fn brute_count(params: &toml::Table) -> u64 {
    let int = |k: &str| params[k].as_integer().unwrap() as usize;
    let (rows, cols, count) = (int("rows"), int("cols"), int("pieces"));
    let flat = |k: &str| -> Vec<i64> {
        params[k]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap().clone())
            .map(|v| v.as_integer().unwrap())
            .collect()
    };
    let list = |k: &str| -> Vec<usize> {
        params[k].as_array().unwrap().iter().map(|v| v.as_integer().unwrap() as usize).collect()
    };
    let circles = flat("circle");
    let (widths, heights) = (list("width"), list("height"));
    let mut bank: Vec<Shape> = Vec::new();
    if let Some(area) = flat("shape").len().checked_div(count) {
        let shapes = flat("shape");
        for p in 0..count {
            let cells: Vec<(i64, i64)> = (0..widths[p] * heights[p])
                .filter(|&k| shapes[p * area + k] == 1)
                .map(|k| ((k / widths[p]) as i64, (k % widths[p]) as i64))
                .collect();
            bank.push(canonical(&cells));
        }
    }
    bank.sort();
    let cells = rows * cols;
    let mut found = 0;
    for bits in 0u64..1 << cells {
        let shaded: Vec<bool> = (0..cells).map(|k| bits >> k & 1 == 1).collect();
        if (0..cells).any(|k| circles[k] == 1 && shaded[k] || circles[k] == 2 && !shaded[k]) {
            continue;
        }
        let open: Vec<bool> = shaded.iter().map(|s| !s).collect();
        if blocks(&open, rows, cols).len() > 1 {
            continue;
        }
        let mut pieces: Vec<Shape> = blocks(&shaded, rows, cols).iter().map(|b| canonical(b)).collect();
        pieces.sort();
        found += u64::from(pieces == bank);
    }
    found
}

#[test]
fn statue_park_agrees_with_brute_force_on_tiny_puzzles() {
    let genre = GENRES.iter().find(|g| g.id == "statuepark").unwrap();
    let mut rng = SplitMix64::new(38);
    let (mut solvable, mut shapes) = (0, BTreeSet::new());
    for (rows, cols) in [(3, 3), (3, 4), (2, 5), (4, 3)] {
        for _ in 0..6 {
            let instance = (genre.random)(&mut rng, rows, cols);
            let params = instance.params();
            let url = genres::url_of(instance.as_ref()).unwrap();
            let opened = genres::open_url(&url).unwrap_or_else(|e| panic!("{url}: {e}"));
            let options = somaria::CountOptions { limit: Some(5000), ..Default::default() };
            let ours = opened.puzzle.count(&options).unwrap();
            assert!(ours.complete, "{url}");
            let theirs = brute_count(&params);
            assert_eq!(ours.count, theirs, "{url}: somaria counts {}, brute force {theirs}", ours.count);
            solvable += usize::from(theirs > 0);
            shapes.insert(url);
        }
    }
    assert!(solvable >= 4, "too few random puzzles with a solution ({solvable}) to test anything");
    eprintln!("{} tiny statue parks, {solvable} with a solution, counted alike", shapes.len());
}

#[test]
fn statue_park_banks_read_and_refused() {
    let custom = "https://puzz.link/p?statuepark/3/3/000/2/22u/11g";
    let instance = genres::decode(custom).unwrap();
    assert_eq!(instance.params()["pieces"].as_integer(), Some(2));
    assert_eq!(genres::url_of(instance.as_ref()).unwrap(), custom, "a custom bank is written back as itself");
    // The preset's pieces, given one by one, are written as the preset.
    let spelled = "https://puzz.link/p?statuepark/3/3/000/5/14u/23bg/22u/23f/23eg";
    assert_eq!(
        genres::url_of(genres::decode(spelled).unwrap().as_ref()).unwrap(),
        "https://puzz.link/p?statuepark/3/3/000//t"
    );
    let cases = [
        ("https://puzz.link/p?statuepark/3/3/000//x", "a preset's key"),
        ("https://puzz.link/p?statuepark/3/3/000/1/22i", "joined by sides"),
        ("https://puzz.link/p?statuepark/3/3/000/2/22u", "'/' and a piece"),
        ("https://puzz.link/p?statuepark/3/3/000", "the piece bank"),
    ];
    for (url, expected) in cases {
        let error = genres::decode(url).err().unwrap_or_else(|| panic!("{url} is read"));
        assert!(error.to_string().contains(expected), "{url}: {error}");
    }
}

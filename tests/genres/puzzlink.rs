//! puzz.link slitherlinks and nurikabes read by the genres' codecs: the
//! clue grids against the ones published beside the URLs, somaria's
//! answers (and facts, where the puzzle has several solutions) against
//! the published answers, and every other answer against the puzzle's
//! rules, checked here by flood fills and a walk along the loop that share
//! nothing with somaria's encodings.

use serde_json::Value;
use somaria::genres;
use somaria::puzzles::{CountOptions, Puzzle, SolveOptions, Status};

fn load(url: &str) -> Box<dyn Puzzle> {
    genres::open_url(url).unwrap_or_else(|e| panic!("{url}: {e}")).puzzle
}

/// The decoded puzzle: rows, columns, and each cell's clue.
fn decode(url: &str) -> (usize, usize, Vec<Option<u32>>) {
    let params = genres::decode(url).unwrap_or_else(|e| panic!("{url}: {e}")).params();
    let size = |k: &str| params[k].as_integer().unwrap() as usize;
    let clues = params["clue"].as_array().unwrap().iter().flat_map(|r| r.as_array().unwrap().clone());
    (size("rows"), size("cols"), clues.map(|v| u32::try_from(v.as_integer().unwrap()).ok()).collect())
}

fn genre(url: &str) -> &'static str {
    genres::decode(url).unwrap().genre().id
}

fn solution(url: &str) -> Value {
    let puzzle = load(url);
    let count = puzzle.count(&CountOptions { limit: Some(2), ..Default::default() }).unwrap().count;
    assert_eq!(count, 1, "{url} is unique");
    let report = puzzle.solve(&SolveOptions::default()).unwrap();
    assert_eq!(report.status, Status::Solved, "{url}");
    report.solution.unwrap().json
}

fn bools(value: &Value) -> Vec<Vec<bool>> {
    let row = |r: &Value| r.as_array().unwrap().iter().map(|v| v.as_bool().unwrap()).collect();
    value.as_array().unwrap().iter().map(row).collect()
}

/// Which cells a nurikabe solution shades.
fn sea(json: &Value) -> Vec<Vec<bool>> {
    bools(&json["shaded"])
}

/// A picture of `#` (sea) and anything else (land), row by row.
fn picture(rows: &[&str]) -> Vec<Vec<bool>> {
    rows.iter().map(|r| r.chars().map(|c| c == '#').collect()).collect()
}

/// The cells 4-connected to `from` among those `keep` marks.
fn flood(keep: &[Vec<bool>], from: (usize, usize)) -> Vec<(usize, usize)> {
    let (rows, cols) = (keep.len(), keep[0].len());
    let mut seen = vec![vec![false; cols]; rows];
    let mut stack = vec![from];
    seen[from.0][from.1] = true;
    let mut out = Vec::new();
    while let Some((r, c)) = stack.pop() {
        out.push((r, c));
        let next = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
        for (nr, nc) in next {
            if nr < rows && nc < cols && keep[nr][nc] && !seen[nr][nc] {
                seen[nr][nc] = true;
                stack.push((nr, nc));
            }
        }
    }
    out
}

/// The nurikabe rules on a shading: each island holds one clue and that
/// many cells, the sea is one piece, and no 2x2 block is all sea.
fn check_nurikabe(clues: &[Option<u32>], cols: usize, shaded: &[Vec<bool>]) {
    let land: Vec<Vec<bool>> = shaded.iter().map(|r| r.iter().map(|&s| !s).collect()).collect();
    let rows = shaded.len();
    let cells = || (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c)));
    for (r, c) in cells().filter(|&(r, c)| land[r][c]) {
        let island = flood(&land, (r, c));
        let numbers: Vec<u32> = island.iter().filter_map(|&(ir, ic)| clues[ir * cols + ic]).collect();
        assert_eq!(numbers.len(), 1, "the island at ({r}, {c}) holds one number");
        assert_eq!(island.len(), numbers[0] as usize, "the island at ({r}, {c}) has its number of cells");
    }
    let seas: Vec<(usize, usize)> = cells().filter(|&(r, c)| shaded[r][c]).collect();
    if let Some(&first) = seas.first() {
        assert_eq!(flood(shaded, first).len(), seas.len(), "the sea is one piece");
    }
    for (r, c) in cells().filter(|&(r, c)| r + 1 < rows && c + 1 < cols) {
        assert!(
            !(shaded[r][c] && shaded[r + 1][c] && shaded[r][c + 1] && shaded[r + 1][c + 1]),
            "a pool at ({r}, {c})"
        );
    }
}

/// The slitherlink rules on the steps of a solution: every corner has 0 or
/// 2 steps, the steps make one loop, and each clue counts its cell's sides.
fn check_slitherlink(clues: &[Option<u32>], cols: usize, across: &[Vec<bool>], down: &[Vec<bool>]) {
    let rows = clues.len() / cols;
    let mut next: Vec<Vec<(usize, usize)>> = vec![Vec::new(); (rows + 1) * (cols + 1)];
    let mut link = |a: (usize, usize), b: (usize, usize)| {
        next[a.0 * (cols + 1) + a.1].push(b);
        next[b.0 * (cols + 1) + b.1].push(a);
    };
    (0..=rows)
        .flat_map(|i| (0..cols).map(move |j| (i, j)))
        .filter(|&(i, j)| across[i][j])
        .for_each(|(i, j)| link((i, j), (i, j + 1)));
    (0..rows)
        .flat_map(|i| (0..=cols).map(move |j| (i, j)))
        .filter(|&(i, j)| down[i][j])
        .for_each(|(i, j)| link((i, j), (i + 1, j)));
    assert!(next.iter().all(|n| n.is_empty() || n.len() == 2), "every corner on the loop has two steps");
    let steps = next.iter().map(Vec::len).sum::<usize>() / 2;
    let first = (0..next.len()).find(|&k| !next[k].is_empty()).expect("a loop");
    let (mut at, mut from, mut walked) = ((first / (cols + 1), first % (cols + 1)), None, 0);
    loop {
        let here = &next[at.0 * (cols + 1) + at.1];
        let to = if Some(here[0]) == from { here[1] } else { here[0] };
        (from, at, walked) = (Some(at), to, walked + 1);
        if at == (first / (cols + 1), first % (cols + 1)) {
            break;
        }
    }
    assert_eq!(walked, steps, "the steps make one loop");
    for (k, clue) in clues.iter().enumerate().filter_map(|(k, c)| c.map(|c| (k, c))) {
        let (i, j) = (k / cols, k % cols);
        let sides = [across[i][j], across[i + 1][j], down[i][j], down[i][j + 1]];
        assert_eq!(sides.iter().filter(|&&s| s).count() as u32, clue, "the clue at ({i}, {j})");
    }
}

/// cspuz's slitherlink test: the URL, its clues and its one answer.
#[test]
fn cspuzs_slitherlink_decodes_and_solves_as_published() {
    let url = "https://puzz.link/p?slither/4/4/dgdh2c71";
    let (4, 4, clues) = decode(url) else { panic!("4 x 4") };
    let grid = [[3, -1, -1, -1], [3, -1, -1, -1], [-1, 2, 2, -1], [-1, 2, -1, 1]];
    let published: Vec<Option<u32>> = grid.iter().flatten().map(|&n| u32::try_from(n).ok()).collect();
    assert_eq!(clues, published);
    let json = solution(url);
    let across = [[1, 1, 1, 1], [1, 0, 1, 0], [1, 0, 0, 0], [0, 1, 0, 1], [1, 0, 0, 0]];
    let down = [[1, 0, 0, 0, 1], [0, 1, 1, 1, 1], [1, 0, 1, 1, 1], [1, 1, 0, 0, 0]];
    let as_bools =
        |g: &[[i32; 4]]| -> Vec<Vec<bool>> { g.iter().map(|r| r.iter().map(|&x| x == 1).collect()).collect() };
    assert_eq!(bools(&json["across"]), as_bools(&across));
    let down: Vec<Vec<bool>> = down.iter().map(|r| r.iter().map(|&x| x == 1).collect()).collect();
    assert_eq!(bools(&json["down"]), down);
}

/// cspuz's nurikabe test has several solutions: its irrefutable facts
/// (sea, land, or open per cell) against somaria's `facts`.
#[test]
fn cspuzs_nurikabe_has_the_published_facts() {
    let url = "https://puzz.link/p?nurikabe/6/6/m8n8i9u";
    let (_, _, clues) = decode(url);
    let at = |r: usize, c: usize| clues[r * 6 + c];
    assert_eq!((at(1, 1), at(2, 4), at(3, 2)), (Some(8), Some(8), Some(9)));
    assert_eq!(clues.iter().flatten().count(), 3);
    // 0 land, 1 sea, 2 either, from cspuz's expected `is_black` facts.
    let published = [
        [0, 0, 2, 0, 0, 2],
        [2, 0, 2, 2, 2, 2],
        [2, 1, 1, 1, 0, 0],
        [0, 2, 0, 1, 2, 2],
        [0, 2, 0, 2, 0, 0],
        [0, 2, 0, 2, 0, 0],
    ];
    let report = load(url).facts(&SolveOptions::default()).unwrap();
    assert_eq!(report.status, Status::Solved);
    let values = report.json["values"]["shaded"].as_array().unwrap();
    for (r, row) in values.iter().enumerate() {
        for (c, cell) in row.as_array().unwrap().iter().enumerate() {
            let possible: Vec<bool> = cell.as_array().unwrap().iter().map(|v| v.as_bool().unwrap()).collect();
            let fact = match (possible.contains(&true), possible.contains(&false)) {
                (false, _) => 0,
                (true, false) => 1,
                (true, true) => 2,
            };
            assert_eq!(fact, published[r][c], "cell ({r}, {c}) with {possible:?}");
        }
    }
}

/// Nurikabes published with their answers (tck.mn's "Penalty theory in
/// wall puzzles"): `#` is sea.
#[test]
fn nurikabes_solve_to_their_published_answers() {
    let cases: [(&str, &[&str]); 3] = [
        (
            "https://puzz.link/p?nurikabe/7/7/2g4h3o2q2p2i4k5",
            &["-#--#--", "-##-#-#", "#-#-###", "#-###--", "###-###", "--#-#--", "--##---"],
        ),
        ("https://puzz.link/p?nurikabe/7/5/u5n5p", &["#######", "#???#?#", "#5###?#", "#?#5??#", "#######"]),
        (
            "https://puzz.link/p?nurikabe/10/6/g3v5l3l5i3zi",
            &["#3########", "#..#..#.5#", "#####3##.#", "#.5.##3#.#", "#.#.#..#.#", "##########"],
        ),
    ];
    for (url, answer) in cases {
        let (_, cols, clues) = decode(url);
        let shaded = sea(&solution(url));
        check_nurikabe(&clues, cols, &shaded);
        assert_eq!(shaded, picture(answer), "{url}");
    }
}

/// The 30 x 20 nurikabe of the puzzle hunt page that publishes it beside
/// its clue grid: the decoded clues are that grid.
#[test]
fn a_large_nurikabe_decodes_to_its_published_grid() {
    let url = "https://puzz.link/p?nurikabe/30/20/h4gbh7i-12j2m8h3r4u1i2zufgczger1h6l1zr2t1j3kal2zzj1m3zjdk3l1h4u2o3k3zq3t5i1keq9r3zk3g7zczj-10zz3g2j1r3g8j2p4h-10rcj1g5k1";
    let (20, 30, clues) = decode(url) else { panic!("20 x 30") };
    // Each published row's clues as (column, number).
    let published: [&[(usize, u32)]; 20] = [
        &[(2, 4), (4, 11), (7, 7), (11, 18), (16, 2), (24, 8), (27, 3)],
        &[(10, 4), (26, 1)],
        &[(0, 2)],
        &[(6, 15), (8, 12)],
        &[(0, 14), (13, 1), (16, 6), (23, 1)],
        &[(26, 2)],
        &[(11, 1), (16, 3), (22, 10), (29, 2)],
        &[],
        &[(14, 1), (22, 3)],
        &[(17, 13), (23, 3)],
        &[(0, 1), (3, 4), (19, 2), (29, 3)],
        &[(5, 3)],
        &[(7, 3), (22, 5), (26, 1)],
        &[(2, 14), (14, 9), (27, 3)],
        &[(23, 3), (25, 7)],
        &[(16, 12)],
        &[(11, 16)],
        &[(22, 3), (24, 2), (29, 1)],
        &[(12, 3), (14, 8), (19, 2)],
        &[(0, 4), (3, 16), (16, 12), (21, 1), (23, 5), (29, 1)],
    ];
    for (r, row) in published.iter().enumerate() {
        let decoded: Vec<(usize, u32)> = (0..30).filter_map(|c| clues[r * 30 + c].map(|n| (c, n))).collect();
        assert_eq!(&decoded[..], *row, "row {r}");
    }
}

/// Puzzles from penpa-edit's puzz.link import tests, which publish no
/// answers: each is unique, and its answer keeps the rules.
#[test]
fn puzzlink_puzzles_are_unique_and_keep_the_rules() {
    let urls = [
        "https://puzz.link/p?slither/12/10/6b2b76cbbc6ah7656d76dd1dcg6bh56b516b8dcc6bgbbg62d0a3c",
        "https://puzz.link/p?slitherlink/9/9/233333332dk388583d8d38cg73d7c38212173d7c3721317c",
        "https://puzz.link/p?slither/5/5/gch1222ch331bg222",
        "https://puzz.link/p?slither/6/10/h1dgadddg1cgdddcg2cgddbdg1d",
        "https://puzz.link/p?nurikabe/10/10/1k4u1j7i3r6y1w-11m3n2",
        "https://puzz.link/p?nurikabe/10/10/zh3j5t3g3hat3g3h9zr",
        "https://puzz.link/p?nurikabe/18/10/w3g8k1i4n1k5j1i1k9r1l2n3j3n9t1l2h2i1j5h2j7l4n6y",
    ];
    for url in urls {
        let json = solution(url);
        let (_, cols, clues) = decode(url);
        match genre(url) {
            "slither" => check_slitherlink(&clues, cols, &bools(&json["across"]), &bools(&json["down"])),
            _ => check_nurikabe(&clues, cols, &sea(&json)),
        }
    }
}

/// Each malformed URL is refused with what was found and what was expected.
#[test]
fn malformed_urls_are_refused_with_what_was_expected() {
    let cases = [
        ("https://puzz.link/slither/4/4/dgdh2c71", "no `?`"),
        ("https://puzz.link/p?slither/4/4", "found the end of the URL after the rows"),
        ("https://puzz.link/p?nurikabe/v:/6/6/4j4p6h4p6j6", "found the variant \"v:\""),
        ("https://puzz.link/p?sudokuu/4/4/g2j1h1j3g", "found the genre \"sudokuu\""),
        ("https://puzz.link/p?slither/0/4/dgdh2c71", "found the columns \"0\""),
        ("https://puzz.link/p?slither/4/x/dgdh2c71", "found the rows \"x\""),
        ("https://puzz.link/p?slither/4/4/dgdh2c7", "found the end of the body"),
        ("https://puzz.link/p?slither/4/4/dgdh2c71g", "expected the end of the body"),
        ("https://puzz.link/p?slither/4/4/dgdh2f71", "character 38: found 'f'"),
        ("https://puzz.link/p?nurikabe/6/6/m8n8i-1", "found the end of the body; expected 2 hexadecimal digits"),
        ("https://puzz.link/p?nurikabe/6/6/m8n8i-xyu", "found 'x'; expected 2 hexadecimal digits"),
    ];
    for (url, expected) in cases {
        let error = genres::decode(url).expect_err(url).to_string();
        assert!(error.contains(expected), "{url}: {error}");
    }
}

//! The tile-cover family and the same rooms written as csp models, with
//! `grid_path` over a var array of the cells walked and `leave_uncovered`
//! stated as a constraint, count the same routes on 300 random rooms (walls,
//! an end tile sometimes, 0 to 2 tiles to leave), under the lazy and eager
//! forms alike; `solve` agrees on whether there is a route, and `facts`
//! finds the same tiles that can be left.

use somaria::model::Source;
use somaria::puzzles::{self, CountOptions, Puzzle, SolveOptions};
use somaria::rng::SplitMix64;

fn random_room(rng: &mut SplitMix64) -> (Vec<Vec<char>>, usize) {
    let (h, w) = [(3, 3), (3, 4), (4, 4), (4, 5), (2, 5), (3, 5), (3, 6), (2, 3)][rng.below(8)];
    let density = [0, 5, 10, 15, 20][rng.below(5)];
    let mut rows: Vec<Vec<char>> =
        (0..h).map(|_| (0..w).map(|_| if rng.below(100) < density { '#' } else { '.' }).collect()).collect();
    let s = rng.below(h * w);
    rows[s / w][s % w] = 'S';
    if rng.below(4) == 0 {
        let e = rng.below(h * w);
        if e != s {
            rows[e / w][e % w] = 'E';
        }
    }
    let tiles = rows.iter().flatten().filter(|&&c| c == '.' || c == 'E').count();
    (rows, rng.below(3).min(tiles))
}

fn family_model(rows: &[Vec<char>], k: usize) -> String {
    let grid: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    format!("kind = \"tile-cover\"\nleave_uncovered = {k}\ngrid = \"\"\"\n{}\n\"\"\"\n", grid.join("\n"))
}

/// The room as a csp model: `room` holds 0 for a wall, 1 a tile, 2 the
/// start, 3 the end tile; `on` the cells the walk takes.
fn csp_model(rows: &[Vec<char>], k: usize) -> String {
    let (h, w) = (rows.len(), rows[0].len());
    let code = |c: char| match c {
        '#' => 0,
        'S' => 2,
        'E' => 3,
        _ => 1,
    };
    let grid: Vec<String> = rows
        .iter()
        .map(|r| format!("[{}]", r.iter().map(|&c| code(c).to_string()).collect::<Vec<_>>().join(", ")))
        .collect();
    let find = |symbol: char| {
        (0..h)
            .flat_map(|r| (0..w).map(move |c| (r, c)))
            .find(|&(r, c)| rows[r][c] == symbol)
            .map(|(r, c)| (r + 1, c + 1))
    };
    let (sr, sc) = find('S').unwrap();
    let end = find('E').map(|(r, c)| format!(", {r}, {c}")).unwrap_or_default();
    format!(
        r#"kind = "csp"
show = ["on"]

[params]
room = [{grid}]

[vars]
on = {{ index = ["1..{h}", "1..{w}"], domain = "bool" }}

[[constraint]]
name = "walls are never walked on"
expr = 'forall(i in 1..{h}, j in 1..{w} where room[i, j] = 0)(not on[i, j])'

[[constraint]]
name = "at most {k} tiles left"
expr = 'sum(i in 1..{h}, j in 1..{w} where room[i, j] != 0)(bool2int(not on[i, j])) <= {k}'

[[constraint]]
name = "at least one move"
expr = 'sum(c in on)(bool2int(c)) >= 2'

[[constraint]]
name = "one walk from the start"
expr = 'grid_path(on, {sr}, {sc}{end})'
"#,
        grid = grid.join(", ")
    )
}

fn load(text: &str) -> Box<dyn Puzzle> {
    puzzles::load(&Source::from_text("room.toml", text)).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn count(puzzle: &dyn Puzzle, engine: Option<&str>) -> u64 {
    let options = CountOptions { engine: engine.map(String::from), ..Default::default() };
    let report = puzzle.count(&options).unwrap();
    assert!(report.complete);
    report.count
}

#[test]
fn csp_rooms_count_as_the_family() {
    let mut rng = SplitMix64::new(2718);
    let mut routes = 0;
    for case in 0..300 {
        let (rows, k) = random_room(&mut rng);
        let family = load(&family_model(&rows, k));
        let text = csp_model(&rows, k);
        let csp = load(&text);
        let expected = count(family.as_ref(), None);
        routes += expected;
        let context = format!("case {case}\n{text}");
        for engine in ["auto", "eager"] {
            assert_eq!(count(csp.as_ref(), Some(engine)), expected, "{engine}\n{context}");
        }
        let solved = csp.solve(&SolveOptions::default()).unwrap();
        assert_eq!(solved.status, family.solve(&SolveOptions::default()).unwrap().status, "{context}");
        if k > 0 && case % 4 == 0 {
            let left = family.facts(&SolveOptions::default()).unwrap().json["can_be_left"].clone();
            let left: Vec<(usize, usize)> = serde_json::from_value(left).unwrap_or_default();
            let facts = csp.facts(&SolveOptions::default()).unwrap();
            let mut off = Vec::new();
            if let Some(grid) = facts.json["values"]["on"].as_array() {
                for (r, row) in grid.iter().enumerate() {
                    for (c, values) in row.as_array().unwrap().iter().enumerate() {
                        let tile = matches!(rows[r][c], '.' | 'E');
                        if tile && values.as_array().unwrap().contains(&serde_json::Value::Bool(false)) {
                            off.push((r, c));
                        }
                    }
                }
            }
            assert_eq!(off, left, "facts\n{context}");
        }
    }
    assert!(routes > 3000, "the rooms have routes to count: {routes}");
}

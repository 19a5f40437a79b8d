//! The tile-cover family and the same rooms written as csp models, with
//! `grid_path` over a var array of the cells walked and `leave_uncovered`
//! stated as a constraint, count the same routes on 300 random rooms (walls,
//! an end tile sometimes, 0 to 2 tiles to leave), under the lazy and eager
//! forms alike; `solve` agrees on whether there is a route, and `facts`
//! finds the same tiles that can be left.

use somaria::puzzles::SolveOptions;
use somaria::rng::SplitMix64;

use crate::common;

use common::models::{count, csp_array, grid_text, load_text, tile_cover_model};
use common::rooms;

fn random_room(rng: &mut SplitMix64) -> (Vec<Vec<char>>, usize) {
    let shapes = [(3, 3), (3, 4), (4, 4), (4, 5), (2, 5), (3, 5), (3, 6), (2, 3)];
    rooms::random_room(rng, &shapes, &[0, 5, 10, 15, 20])
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
    let room = csp_array(rows, code);
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
room = {room}

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
"#
    )
}

#[test]
fn csp_rooms_count_as_the_family() {
    let mut rng = SplitMix64::new(2718);
    let mut routes = 0;
    for case in 0..300 {
        let (rows, k) = random_room(&mut rng);
        let family = load_text(&tile_cover_model(&grid_text(&rows), k));
        let text = csp_model(&rows, k);
        let csp = load_text(&text);
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

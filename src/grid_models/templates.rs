//! Model texts of grid puzzles from their clues: a nurikabe in the layout
//! of `models/csp/nurikabe.toml` (with the reach of each island stated) and
//! a slitherlink in the layout of `models/csp/slitherlink.toml` (with its
//! drawing and design tables), each under a header that says where it came
//! from.

/// A nurikabe of `rows` x `cols` with one clue per island, `(row, col,
/// size)` from 1 in reading order; `origin` is the header's first comment
/// lines.
pub fn nurikabe_model(rows: usize, cols: usize, clues: &[(usize, usize, usize)], origin: &str) -> String {
    let picture: Vec<String> = (1..=rows)
        .map(|r| {
            let line: Vec<String> = (1..=cols)
                .map(|c| clues.iter().find(|&&(cr, cc, _)| (cr, cc) == (r, c)).map_or(".".into(), |k| k.2.to_string()))
                .collect();
            format!("#   {}", line.join(" "))
        })
        .collect();
    let clue_rows: Vec<String> = clues.iter().map(|(r, c, n)| format!("  [{r}, {c}, {n}]")).collect();
    let (picture, clue_rows, islands) = (picture.join("\n"), clue_rows.join(",\n"), clues.len());
    format!(
        r#"{origin}
#
{picture}
#
# Shade some cells (the sea) so that every group of unshaded cells
# connected by sides (an island) holds exactly one number, and as many
# cells as that number; the sea is one piece; and no 2x2 block is all sea.
#
# The model gives each cell the island it belongs to, numbered like the
# clues, or 0 for the sea. Cells next to each other that are both land
# share an island, so an island's number labels a whole group of land;
# grid_connected makes each island, and the sea, one piece.
kind = "csp"
title = "Nurikabe {rows}x{cols}"
show = ["island"]

[params]
rows = {rows}
cols = {cols}
islands = {islands}
# One clue per island: its row, its column and its size, in reading order.
clues = [
{clue_rows},
]

[vars]
island = {{ index = ["1..rows", "1..cols"], domain = "0..islands" }}

[[constraint]]
name = "each number lies in its own island"
expr = 'forall(k in 1..islands)(island[clues[k, 1], clues[k, 2]] = k)'

[[constraint]]
name = "land next to land is the same island"
expr = '''
forall(i in 1..rows, j in 1..cols, di in 0..1 where i + di <= rows /\ j + 1 - di <= cols)(
  island[i, j] != 0 /\ island[i + di, j + 1 - di] != 0 -> island[i, j] = island[i + di, j + 1 - di])'''

[[constraint]]
name = "each island is as big as its number"
expr = '''
forall(k in 1..islands)(
  sum(i in 1..rows, j in 1..cols where abs(i - clues[k, 1]) + abs(j - clues[k, 2]) < clues[k, 3])(
    bool2int(island[i, j] = k)) = clues[k, 3])'''

# Cells out of an island's reach (see the last constraint) are written as
# false rather than "island = k": a fixed cell is no node of the global's
# graph, which makes the eager engine's ranks a third of the size.
[[constraint]]
name = "each island is one piece"
expr = '''
forall(k in 1..islands)(grid_connected(array2d(1..rows, 1..cols, [
  if abs(i - clues[k, 1]) + abs(j - clues[k, 2]) < clues[k, 3] then island[i, j] = k else false endif
  | i in 1..rows, j in 1..cols])))'''

[[constraint]]
name = "the sea is one piece"
expr = 'grid_connected(array2d(1..rows, 1..cols, [island[i, j] = 0 | i in 1..rows, j in 1..cols]))'

[[constraint]]
name = "no 2x2 pool"
expr = 'forall(i in 1..rows - 1, j in 1..cols - 1)(exists(di, dj in 0..1)(island[i + di, j + dj] != 0))'

# Implied, not needed for the answer: an island of n cells reaches no
# cell n or more steps from its number. Stating it takes most values off
# most cells before the solver starts: without it, proving the puzzle
# unique took 106 SAT calls and 7.8 s of solving instead of 33 and 0.16 s
# (before the sums above were cut to the reach as well).
[[constraint]]
name = "islands stay within reach of their number"
expr = 'forall(i in 1..rows, j in 1..cols, k in 1..islands where abs(i - clues[k, 1]) + abs(j - clues[k, 2]) >= clues[k, 3])(island[i, j] != k)'
"#
    )
}

/// A slitherlink of `rows` x `cols` cells with `clues` in reading order
/// (`None` where a cell has none); `origin` is the header's first comment
/// lines.
pub fn slitherlink_model(rows: usize, cols: usize, clues: &[Option<u32>], origin: &str) -> String {
    let clue_rows: Vec<String> = clues
        .chunks(cols)
        .map(|row| {
            let cells: Vec<String> = row.iter().map(|c| c.map_or("-1".to_string(), |n| format!("{n:2}"))).collect();
            format!("  {}", cells.join(","))
        })
        .collect();
    let clue_rows = clue_rows.join(" |\n");
    let (corner_rows, corner_cols, last_row, last_col) = (rows + 1, cols + 1, rows - 1, cols - 1);
    format!(
        r#"{origin}
#
# The loop runs on the lattice of cell corners, not on the cells: a grid of
# {rows} × {cols} cells has {corner_rows} × {corner_cols} corners, indexed from 0 here so that cell (i, j)
# (from 1) has the corners (i-1, j-1) and (i, j) at its top left and bottom
# right. `grid_loop(on, across, down)` takes
#   - `on`: one Boolean per corner, true where the loop passes;
#   - `across`: one per pair of neighbouring corners in a row:
#     across[i, j] is the step between corners (i, j) and (i, j+1);
#   - `down`: one per pair in a column: down[i, j] is the step
#     between corners (i, j) and (i+1, j).
# The index ranges must be exactly these (somaria refuses others). A step is
# the side of the cells on either side of it, so cell (i, j)'s four sides are
# across[i-1, j-1] (top), across[i, j-1] (bottom), down[i-1, j-1] (left) and
# down[i-1, j] (right).
kind = "csp"
title = "Slitherlink {rows} × {cols}"
show = ["across", "down"]

[params]
# The clues, -1 where a cell has none.
clue = """[|
{clue_rows} |]"""

[vars]
on = {{ index = ["0..{rows}", "0..{cols}"], domain = "bool" }}
across = {{ index = ["0..{rows}", "0..{last_col}"], domain = "bool" }}
down = {{ index = ["0..{last_row}", "0..{cols}"], domain = "bool" }}

[[constraint]]
name = "one loop along the grid lines"
expr = 'grid_loop(on, across, down)'

[[constraint]]
name = "each clue counts the loop's steps around its cell"
expr = """forall(i in 1..{rows}, j in 1..{cols} where clue[i, j] >= 0)(
  bool2int(across[i-1, j-1]) + bool2int(across[i, j-1]) + bool2int(down[i-1, j-1]) + bool2int(down[i-1, j]) = clue[i, j])"""

# How to draw it: the clues in their cells, and the loop along the cells'
# sides, with dots on the corners.
[draw]
rows = {rows}
cols = {cols}

[[draw.layer]]
text = "clue"
blank = -1

[[draw.layer]]
edges = ["across", "down"]

# How to make new puzzles of this kind (`somaria generate`): the clues are
# the numbers, -1 is no clue, and a solution gives each cell the number of
# loop steps along its four sides.
[[design.clue]]
param = "clue"
blank = -1
read = """array2d(1..{rows}, 1..{cols}, [bool2int(across[i-1, j-1]) + bool2int(across[i, j-1])
  + bool2int(down[i-1, j-1]) + bool2int(down[i-1, j]) | i in 1..{rows}, j in 1..{cols}])"""
"#
    )
}

//! What the genres share between their codecs, their models' parameters
//! and their pzprv3 files: rooms from borders, parameter tables built and
//! read back with their errors, and the solution's arrays read by name.

use std::collections::BTreeMap;
use std::ops::Range;

use serde_json::Value;

use crate::rng::SplitMix64;

use super::codec::{Borders, Cells, Then, Token, Trailing, Unwritable, Walls, encode_body};
use super::url::{Envelope, MAX_SIDE, UrlError};

/// The rooms of a grid divided by `walls`: each cell's room, numbered from
/// 0 in the order of each room's first cell in reading order (pzprjs's
/// order), and each room's top cell (its leftmost column, then its top
/// row: where pzprjs puts a room's number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rooms {
    /// The room of each cell, row by row.
    pub of: Vec<usize>,
    /// How many rooms.
    pub count: usize,
    /// Each room's top cell.
    pub top: Vec<usize>,
}

impl Rooms {
    /// The rooms `walls` make.
    pub fn of(walls: &Walls) -> Rooms {
        let (rows, cols) = (walls.rows, walls.cols);
        let mut of = vec![usize::MAX; rows * cols];
        let mut top = Vec::new();
        for start in 0..rows * cols {
            if of[start] != usize::MAX {
                continue;
            }
            let id = top.len();
            let (mut stack, mut best) = (vec![start], start);
            of[start] = id;
            while let Some(cell) = stack.pop() {
                let (r, c) = (cell / cols, cell % cols);
                if (c, r) < (best % cols, best / cols) {
                    best = cell;
                }
                let open = [
                    (r > 0 && !walls.below(r - 1, c)).then(|| cell - cols),
                    (r + 1 < rows && !walls.below(r, c)).then(|| cell + cols),
                    (c > 0 && !walls.right_of(r, c - 1)).then(|| cell - 1),
                    (c + 1 < cols && !walls.right_of(r, c)).then(|| cell + 1),
                ];
                for next in open.into_iter().flatten() {
                    if of[next] == usize::MAX {
                        of[next] = id;
                        stack.push(next);
                    }
                }
            }
            top.push(best);
        }
        Rooms { count: top.len(), of, top }
    }

    /// The walls between cells of different rooms.
    pub fn walls(of: &[usize], rows: usize, cols: usize) -> Walls {
        let mut walls = Walls::none(rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                if c + 1 < cols {
                    walls.vertical[r * (cols - 1) + c] = of[r * cols + c] != of[r * cols + c + 1];
                }
                if r + 1 < rows {
                    walls.horizontal[r * cols + c] = of[r * cols + c] != of[(r + 1) * cols + c];
                }
            }
        }
        walls
    }
}

/// A model's parameters as a TOML table, built value by value.
#[derive(Clone, Debug, Default)]
pub struct ParamsOut(pub toml::Table);

impl ParamsOut {
    /// An integer.
    pub fn int(mut self, name: &str, value: impl Into<i64>) -> ParamsOut {
        self.0.insert(name.into(), toml::Value::Integer(value.into()));
        self
    }

    /// A Boolean.
    pub fn bool(mut self, name: &str, value: bool) -> ParamsOut {
        self.0.insert(name.into(), toml::Value::Boolean(value));
        self
    }

    /// A 1-D array of integers.
    pub fn list(mut self, name: &str, values: impl IntoIterator<Item = i64>) -> ParamsOut {
        self.0.insert(name.into(), toml::Value::Array(values.into_iter().map(toml::Value::Integer).collect()));
        self
    }

    /// A 2-D array of integers, `cols` to a row.
    pub fn grid(self, name: &str, cols: usize, values: &[i32]) -> ParamsOut {
        let rows = values.chunks(cols.max(1)).map(|row| row.iter().map(|&v| i64::from(v)).collect());
        self.table(name, rows)
    }

    /// A 2-D array of integers, row by row.
    pub fn table(mut self, name: &str, rows: impl IntoIterator<Item = Vec<i64>>) -> ParamsOut {
        let row = |r: Vec<i64>| toml::Value::Array(r.into_iter().map(toml::Value::Integer).collect());
        self.0.insert(name.into(), toml::Value::Array(rows.into_iter().map(row).collect()));
        self
    }
}

/// A parameter that does not hold what its genre needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    /// The parameter.
    pub param: String,
    /// What was found.
    pub found: String,
    /// What was expected.
    pub expected: String,
}

/// A model's parameters, read back into a genre's puzzle: each value with
/// where it stands in its file, for errors.
#[derive(Clone, Debug, Default)]
pub struct ParamsIn {
    values: BTreeMap<String, (toml::Value, Option<Range<usize>>)>,
}

impl ParamsIn {
    /// Parameters from a table, each at `span` when known.
    pub fn new(values: impl IntoIterator<Item = (String, toml::Value, Option<Range<usize>>)>) -> ParamsIn {
        ParamsIn { values: values.into_iter().map(|(k, v, s)| (k, (v, s))).collect() }
    }

    /// Where parameter `name` stands in its file.
    pub fn span(&self, name: &str) -> Option<Range<usize>> {
        self.values.get(name).and_then(|(_, s)| s.clone())
    }

    fn get(&self, name: &str, expected: &str) -> Result<&toml::Value, ParamError> {
        self.values.get(name).map(|(v, _)| v).ok_or_else(|| ParamError {
            param: name.into(),
            found: "no such parameter".into(),
            expected: format!("`{name}` = {expected}"),
        })
    }

    /// An integer in `range`.
    pub fn int(&self, name: &str, range: std::ops::RangeInclusive<i64>) -> Result<i64, ParamError> {
        let expected = format!("an integer from {} to {}", range.start(), range.end());
        match self.get(name, &expected)? {
            toml::Value::Integer(v) if range.contains(v) => Ok(*v),
            other => Err(ParamError { param: name.into(), found: shown(other), expected }),
        }
    }

    /// A Boolean.
    pub fn bool(&self, name: &str) -> Result<bool, ParamError> {
        match self.get(name, "true or false")? {
            toml::Value::Boolean(b) => Ok(*b),
            other => Err(ParamError { param: name.into(), found: shown(other), expected: "true or false".into() }),
        }
    }

    /// A 2-D array of `rows` × `cols` integers, each of which `ok` takes
    /// (`what` says which), row by row.
    pub fn grid(
        &self,
        name: &str,
        (rows, cols): (usize, usize),
        ok: impl Fn(i64) -> bool,
        what: &str,
    ) -> Result<Vec<i32>, ParamError> {
        let expected = format!("{rows} rows of {cols} integers, each {what}");
        let bad = |found: String| ParamError { param: name.into(), found, expected: expected.clone() };
        let toml::Value::Array(lines) = self.get(name, &expected)? else {
            return Err(bad(shown(self.get(name, &expected)?)));
        };
        if lines.len() != rows {
            return Err(bad(format!("{} rows", lines.len())));
        }
        let mut out = Vec::with_capacity(rows * cols);
        for (r, line) in lines.iter().enumerate() {
            let cells = line
                .as_array()
                .filter(|l| l.len() == cols)
                .ok_or_else(|| bad(format!("row {} = {}", r + 1, shown(line))))?;
            for (c, v) in cells.iter().enumerate() {
                match v.as_integer() {
                    Some(n) if ok(n) => out.push(n as i32),
                    _ => return Err(bad(format!("{} at row {}, column {}", shown(v), r + 1, c + 1))),
                }
            }
        }
        Ok(out)
    }

    /// A 1-D array of `len` integers, each of which `ok` takes.
    pub fn list(&self, name: &str, len: usize, ok: impl Fn(i64) -> bool, what: &str) -> Result<Vec<i32>, ParamError> {
        let expected = format!("an array of {len} integers, each {what}");
        let bad = |found: String| ParamError { param: name.into(), found, expected: expected.clone() };
        let value = self.get(name, &expected)?;
        let items = value.as_array().filter(|a| a.len() == len).ok_or_else(|| bad(shown(value)))?;
        items
            .iter()
            .enumerate()
            .map(|(k, v)| match v.as_integer() {
                Some(n) if ok(n) => Ok(n as i32),
                _ => Err(bad(format!("{} at item {}", shown(v), k + 1))),
            })
            .collect()
    }
}

fn shown(value: &toml::Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 40 { format!("{}...", text.chars().take(40).collect::<String>()) } else { text }
}

/// What a pzprv3 file is written with: nothing (the question alone), a
/// solution as `solve --format json` gives it, or the state `steps`
/// reached (the facts known, `"across[0,3]" = false`), read by variable
/// name.
#[derive(Clone, Debug)]
pub enum Answer<'a> {
    /// The question alone.
    Question,
    /// A whole solution.
    Solution(&'a Value),
    /// The facts known, by the model's names of the cells.
    State(BTreeMap<String, Value>),
}

impl<'a> Answer<'a> {
    /// The state of a list of `steps` facts (`{"var", "op", "value"}`): the
    /// values known, a Boolean ruled out counting as the other one.
    pub fn of_facts(facts: &[Value]) -> Answer<'a> {
        let mut known = BTreeMap::new();
        for fact in facts {
            let (Some(var), Some(op)) = (fact["var"].as_str(), fact["op"].as_str()) else { continue };
            let value = match (op, &fact["value"]) {
                ("=", v) => v.clone(),
                ("!=", Value::Bool(b)) => Value::Bool(!b),
                _ => continue,
            };
            known.insert(var.to_string(), value);
        }
        Answer::State(known)
    }

    /// Whether this is a state, whose ruled-out marks are written (a cross,
    /// a dot) where a solution leaves the cell plain.
    pub fn is_state(&self) -> bool {
        matches!(self, Answer::State(_))
    }

    /// The `rows` × `cols` values of array `name`, row by row, `None` where
    /// unknown; `origin` is the model's first index of each dimension.
    fn values(&self, name: &str, origin: (i64, i64), rows: usize, cols: usize) -> Result<Vec<Option<&Value>>, String> {
        match self {
            Answer::Question => Ok(vec![None; rows * cols]),
            Answer::State(known) => Ok((0..rows * cols)
                .map(|k| {
                    known.get(&format!("{name}[{},{}]", origin.0 + (k / cols) as i64, origin.1 + (k % cols) as i64))
                })
                .collect()),
            Answer::Solution(solution) => {
                let lines = solution[name].as_array().ok_or_else(|| format!("the solution has no array `{name}`"))?;
                if lines.len() != rows {
                    return Err(format!("`{name}` has {} rows; expected {rows}", lines.len()));
                }
                let mut out = Vec::with_capacity(rows * cols);
                for line in lines {
                    let cells = line.as_array().filter(|l| l.len() == cols);
                    out.extend(cells.ok_or_else(|| format!("a row of `{name}` is not {cols} long"))?.iter().map(Some));
                }
                Ok(out)
            }
        }
    }

    /// A `rows` × `cols` Boolean array, row by row.
    pub fn bools(&self, name: &str, origin: (i64, i64), rows: usize, cols: usize) -> Result<Vec<Option<bool>>, String> {
        let values = self.values(name, origin, rows, cols)?;
        let read = |v: &Value| v.as_bool().ok_or_else(|| format!("`{name}` holds {v}, not a Boolean"));
        values.into_iter().map(|v| v.map(read).transpose()).collect()
    }

    /// A `rows` × `cols` integer array, row by row.
    pub fn ints(&self, name: &str, origin: (i64, i64), rows: usize, cols: usize) -> Result<Vec<Option<i64>>, String> {
        let values = self.values(name, origin, rows, cols)?;
        let read = |v: &Value| v.as_i64().ok_or_else(|| format!("`{name}` holds {v}, not an integer"));
        values.into_iter().map(|v| v.map(read).transpose()).collect()
    }

    /// A 1-D integer array of `len`, from index `origin`.
    pub fn list(&self, name: &str, origin: i64, len: usize) -> Result<Vec<Option<i64>>, String> {
        match self {
            Answer::Question => Ok(vec![None; len]),
            Answer::State(known) => Ok((0..len)
                .map(|k| known.get(&format!("{name}[{}]", origin + k as i64)).and_then(Value::as_i64))
                .collect()),
            Answer::Solution(solution) => {
                let items = solution[name].as_array().filter(|a| a.len() == len);
                let items = items.ok_or_else(|| format!("the solution has no array `{name}` of {len}"))?;
                items.iter().map(|v| v.as_i64().map(Some).ok_or_else(|| format!("`{name}` holds {v}"))).collect()
            }
        }
    }

    /// The token of a Boolean mark: `yes` when on; when ruled out, `no` in a
    /// state (a cross, a dot) and `plain` in a solution, which marks only
    /// what is on, as pzprjs's answers do; `plain` when unknown.
    pub fn mark(&self, value: Option<bool>, yes: &str, no: &str, plain: &str) -> String {
        match value {
            Some(true) => yes,
            Some(false) if self.is_state() => no,
            _ => plain,
        }
        .to_string()
    }

    /// The cells of each route the solution lists under `key` (`grid_path`
    /// or `grid_loop`), in order, as (row, column) in the array's indices;
    /// none for a question or a state.
    pub fn routes(&self, key: &str) -> Result<Vec<Vec<(i64, i64)>>, String> {
        let Answer::Solution(solution) = self else { return Ok(Vec::new()) };
        let routes = solution[key].as_array().ok_or_else(|| format!("the solution lists no `{key}`"))?;
        let cell = |c: &Value| Some((c.get(0)?.as_i64()?, c.get(1)?.as_i64()?));
        routes
            .iter()
            .map(|r| {
                let cells = r["cells"].as_array().ok_or_else(|| format!("a `{key}` without cells"))?;
                cells.iter().map(|c| cell(c).ok_or_else(|| format!("a cell {c} of `{key}`"))).collect()
            })
            .collect()
    }
}

/// Lines between neighbouring cells from routes through cell centres:
/// (vertical borders `rows` × (`cols` - 1), horizontal (`rows` - 1) ×
/// `cols`), each counting the routes that cross it; `origin` is the
/// routes' index of the first row and column.
pub fn route_lines(routes: &[Vec<(i64, i64)>], rows: usize, cols: usize, origin: i64, closed: bool) -> Walls3 {
    let mut lines =
        Walls3 { vertical: vec![0; rows * cols.saturating_sub(1)], horizontal: vec![0; rows.saturating_sub(1) * cols] };
    for route in routes {
        let steps = route.windows(2).map(|w| (w[0], w[1]));
        let closing = (closed && route.len() > 2).then(|| (route[route.len() - 1], route[0]));
        for (a, b) in steps.chain(closing) {
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            let (r, c) = ((a.0 - origin) as usize, (a.1 - origin) as usize);
            if a.0 == b.0 && b.1 == a.1 + 1 {
                lines.vertical[r * (cols - 1) + c] += 1;
            } else if a.1 == b.1 && b.0 == a.0 + 1 {
                lines.horizontal[r * cols + c] += 1;
            }
        }
    }
    lines
}

/// A count per border of a grid (lines or bridges across it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walls3 {
    /// `rows` × (`cols` - 1).
    pub vertical: Vec<u8>,
    /// (`rows` - 1) × `cols`.
    pub horizontal: Vec<u8>,
}

/// A grid of one number (or none) per cell, the puzzle of many genres:
/// `-1` an empty cell, `-2` a clue without a number (pzprjs's `?`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClueGrid {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The clues, row by row.
    pub clues: Vec<i32>,
}

impl ClueGrid {
    /// The codec of a body that is the grid's cells written with `tokens`.
    pub fn codec(rows: usize, cols: usize, tokens: &'static [&'static dyn Token<i32>]) -> Cells<i32> {
        Cells { len: rows * cols, blank: -1, tokens, what: "cell" }
    }

    /// The grid of a URL whose body is its cells written with `tokens`.
    pub fn decode(env: &Envelope<'_>, tokens: &'static [&'static dyn Token<i32>]) -> Result<ClueGrid, UrlError> {
        let clues = env.decode(&ClueGrid::codec(env.rows, env.cols, tokens))?;
        Ok(ClueGrid { rows: env.rows, cols: env.cols, clues })
    }

    /// A `rows` × `cols` grid (of cells or grid points) that is a URL's
    /// whole body, written with `tokens`.
    pub fn decode_grid(
        env: &Envelope<'_>,
        rows: usize,
        cols: usize,
        tokens: &'static [&'static dyn Token<i32>],
    ) -> Result<ClueGrid, UrlError> {
        let clues = env.decode(&ClueGrid::codec(rows, cols, tokens))?;
        Ok(ClueGrid { rows, cols, clues })
    }

    /// The body, its cells written with `tokens`.
    pub fn body(&self, tokens: &'static [&'static dyn Token<i32>]) -> Result<String, Unwritable> {
        encode_body(&ClueGrid::codec(self.rows, self.cols, tokens), &self.clues)
    }

    /// The parameters `rows`, `cols` and `clue`.
    pub fn params(&self) -> ParamsOut {
        ParamsOut::default().int("rows", self.rows as i64).int("cols", self.cols as i64).grid(
            "clue",
            self.cols,
            &self.clues,
        )
    }

    /// The grid read back from `rows`, `cols` and `clue`, each clue one
    /// that `ok` takes (`what` says which).
    pub fn read(p: &ParamsIn, ok: impl Fn(i64) -> bool, what: &str) -> Result<ClueGrid, ParamError> {
        let (rows, cols) = read_size(p)?;
        let clues = p.grid("clue", (rows, cols), ok, what)?;
        Ok(ClueGrid { rows, cols, clues })
    }

    /// A random grid: each cell a clue with chance `density`, its value
    /// drawn by `value`.
    pub fn random(
        rng: &mut SplitMix64,
        (rows, cols): (usize, usize),
        density: f64,
        value: impl Fn(&mut SplitMix64) -> i32,
    ) -> ClueGrid {
        let clues = (0..rows * cols).map(|_| if rng.chance(density) { value(rng) } else { -1 }).collect();
        ClueGrid { rows, cols, clues }
    }

    /// The clue at (r, c), from 0.
    pub fn at(&self, r: usize, c: usize) -> i32 {
        self.clues[r * self.cols + c]
    }
}

/// The parameters `rows` and `cols`, each from 1 to [`MAX_SIDE`].
pub fn read_size(p: &ParamsIn) -> Result<(usize, usize), ParamError> {
    let side = 1..=MAX_SIDE as i64;
    Ok((p.int("rows", side.clone())? as usize, p.int("cols", side)? as usize))
}

/// A grid divided into rooms by borders, the puzzle of the region genres.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomGrid {
    /// The borders.
    pub walls: Walls,
    /// The rooms they make.
    pub rooms: Rooms,
}

impl RoomGrid {
    /// The rooms of `walls`.
    pub fn new(walls: Walls) -> RoomGrid {
        let rooms = Rooms::of(&walls);
        RoomGrid { walls, rooms }
    }

    /// Rows and columns.
    pub fn size(&self) -> (usize, usize) {
        (self.walls.rows, self.walls.cols)
    }

    /// The parameters `rows`, `cols`, `rooms` (how many) and `room` (each
    /// cell's room, from 1 in pzprjs's order).
    pub fn params(&self) -> ParamsOut {
        let (rows, cols) = self.size();
        let ids: Vec<i32> = self.rooms.of.iter().map(|&r| r as i32 + 1).collect();
        let p = ParamsOut::default().int("rows", rows as i64).int("cols", cols as i64);
        p.int("rooms", self.rooms.count as i64).grid("room", cols, &ids)
    }

    /// The rooms read back from `rows`, `cols`, `rooms` and `room`: each
    /// room's cells one piece, the rooms numbered 1 to `rooms`.
    pub fn read(p: &ParamsIn) -> Result<RoomGrid, ParamError> {
        let (rows, cols) = read_size(p)?;
        let count = p.int("rooms", 1..=(rows * cols) as i64)?;
        let ids = p.grid("room", (rows, cols), |v| (1..=count).contains(&v), &format!("a room from 1 to {count}"))?;
        let ids: Vec<usize> = ids.into_iter().map(|v| v as usize).collect();
        let grid = RoomGrid::new(Rooms::walls(&ids, rows, cols));
        if grid.rooms.count != count as usize {
            let found = format!("{} pieces of cells of one room each", grid.rooms.count);
            let expected = format!("{count} rooms, each one piece of cells next to each other");
            return Err(ParamError { param: "room".into(), found, expected });
        }
        Ok(grid)
    }

    /// A random division: random borders, then only those between two
    /// rooms kept (a border inside a room does not survive a model's
    /// `room` parameter).
    pub fn random(rng: &mut SplitMix64, rows: usize, cols: usize) -> RoomGrid {
        let mut walls = Walls::none(rows, cols);
        for wall in walls.vertical.iter_mut().chain(walls.horizontal.iter_mut()) {
            *wall = rng.chance(0.45);
        }
        let rooms = Rooms::of(&walls);
        RoomGrid::new(Rooms::walls(&rooms.of, rows, cols))
    }
}

/// One value per room, placed as pzprjs places it: at the room's top cell
/// (its leftmost column, then its top row).
pub fn room_values_at_top(rooms: &Rooms, values: &[i32], cells: usize) -> Vec<i32> {
    let mut grid = vec![-1; cells];
    for (room, &top) in rooms.top.iter().enumerate() {
        grid[top] = values[room];
    }
    grid
}

/// The value of each room from a grid that gives at most one per room,
/// anywhere in it (read back from a `clue` parameter).
pub fn room_values_of_grid(rooms: &Rooms, grid: &[i32], param: &str) -> Result<Vec<i32>, ParamError> {
    let mut values = vec![-1; rooms.count];
    for (cell, &v) in grid.iter().enumerate() {
        if v == -1 {
            continue;
        }
        let room = rooms.of[cell];
        if values[room] != -1 {
            let found = format!("two numbers in room {}", room + 1);
            return Err(ParamError { param: param.into(), found, expected: "at most one number per room".into() });
        }
        values[room] = v;
    }
    Ok(values)
}

/// The numbers outside the grid above each column and left of each row
/// (pzprjs's excells of a board with them on the top and left sides),
/// read and written as pzprjs's number16 for outside cells: the columns'
/// numbers, then the rows'.
pub fn outside_codec(rows: usize, cols: usize) -> Cells<i32> {
    Cells { len: cols + rows, blank: -1, tokens: super::codec::NUMBER16_EXCELL, what: "number outside" }
}

/// Random numbers outside, each present with chance `density`, from 0 to
/// `most`.
pub fn random_outside(rng: &mut SplitMix64, len: usize, density: f64, most: usize) -> Vec<i32> {
    (0..len).map(|_| if rng.chance(density) { rng.below(most + 1) as i32 } else { -1 }).collect()
}

/// Lists of integers as parameter values.
pub fn as_i64(values: &[i32]) -> Vec<i64> {
    values.iter().map(|&v| i64::from(v)).collect()
}

/// The body of a division into rooms with a number per room: the borders,
/// then one number16 entry per room in pzprjs's room order (heyawake,
/// country road).
pub fn room_numbers_codec(rows: usize, cols: usize) -> Then<Borders, impl Fn(&Walls) -> Trailing<Cells<i32>>> {
    Then {
        first: Borders { rows, cols },
        then: |walls: &Walls| {
            let rooms = Rooms::of(walls).count;
            Trailing(Cells { len: rooms, blank: -1, tokens: super::codec::NUMBER16, what: "room" })
        },
    }
}

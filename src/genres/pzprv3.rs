//! pzprjs's own file format ("pzprv3" text, which puzz.link opens with
//! File > Open), written block by block: a header (the format version, the
//! genre, the size), then grids of tokens, each row a line with every
//! token followed by a space.

use super::board::Answer;
use super::codec::Walls;

/// A pzprv3 file being written.
#[derive(Clone, Debug)]
pub struct FileText {
    text: String,
}

impl FileText {
    /// The header: `version` (`pzprv3`, `pzprv3.1`, ...), the genre id and
    /// the size lines (rows then columns; one line for sudoku).
    pub fn new(version: &str, pid: &str, sizes: &[usize]) -> FileText {
        let mut text = format!("{version}\n{pid}\n");
        for size in sizes {
            text.push_str(&format!("{size}\n"));
        }
        FileText { text }
    }

    /// One line as it is.
    pub fn line(mut self, line: &str) -> FileText {
        self.text.push_str(line);
        self.text.push('\n');
        self
    }

    /// A block of `rows` lines of `cols` tokens each.
    pub fn grid(mut self, rows: usize, cols: usize, token: impl Fn(usize, usize) -> String) -> FileText {
        for r in 0..rows {
            for c in 0..cols {
                self.text.push_str(&token(r, c));
                self.text.push(' ');
            }
            self.text.push('\n');
        }
        self
    }

    /// The inner borders of a grid as pzprjs's BorderQues/BorderAns/
    /// BorderLine blocks: the vertical ones, then the horizontal ones.
    pub fn borders(self, rows: usize, cols: usize, token: impl Fn(bool, usize, usize) -> String) -> FileText {
        self.grid(rows, cols - 1, |r, c| token(true, r, c)).grid(rows - 1, cols, |r, c| token(false, r, c))
    }

    /// Given borders as `1` and `0`.
    pub fn walls(self, walls: &Walls) -> FileText {
        self.borders(walls.rows, walls.cols, |vertical, r, c| {
            let on = if vertical { walls.right_of(r, c) } else { walls.below(r, c) };
            if on { "1" } else { "0" }.to_string()
        })
    }

    /// The rooms block of npm pzpr's files (AreaRoom): the number of rooms,
    /// then each cell's room.
    pub fn rooms(self, rooms: &super::board::Rooms, rows: usize, cols: usize) -> FileText {
        self.line(&rooms.count.to_string()).grid(rows, cols, |r, c| rooms.of[r * cols + c].to_string())
    }

    /// The text.
    pub fn finish(self) -> String {
        self.text
    }
}

/// A clue as pzprjs's CellQnum writes it: the number, `-` for a clue
/// without a number, `.` for none.
pub fn qnum(v: i32) -> String {
    match v {
        -2 => "-".to_string(),
        v if v < 0 => ".".to_string(),
        v => v.to_string(),
    }
}

impl FileText {
    /// The clues of a grid as pzprjs's CellQnum (`-` for a clue without a
    /// number, `.` for none).
    pub fn qnums(self, rows: usize, cols: usize, clues: &[i32]) -> FileText {
        self.grid(rows, cols, |r, c| qnum(clues[r * cols + c]))
    }

    /// Shaded cells as pzprjs's CellAns: `#` shaded, `+` a dot (a cell
    /// known unshaded, in a state), `.`.
    pub fn shading(self, rows: usize, cols: usize, answer: &Answer<'_>, shaded: &[Option<bool>]) -> FileText {
        self.grid(rows, cols, |r, c| answer.mark(shaded[r * cols + c], "#", "+", "."))
    }

    /// Lines between cell centres as pzprjs's BorderLine: the vertical
    /// borders (between (r, c) and (r, c + 1)), then the horizontal ones;
    /// `1` a line, `-1` a cross (in a state), `0`.
    pub fn center_lines(
        self,
        rows: usize,
        cols: usize,
        answer: &Answer<'_>,
        across: &[Option<bool>],
        down: &[Option<bool>],
    ) -> FileText {
        self.borders(rows, cols, |vertical, r, c| {
            let on = if vertical { across[r * (cols - 1) + c] } else { down[r * cols + c] };
            answer.mark(on, "1", "-1", "0")
        })
    }
}

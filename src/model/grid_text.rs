//! Grids written as a TOML string, one row per line, one symbol per cell,
//! with positions traced back to the file so errors can point at a cell.

use super::{LoadError, Problem, Source, Spanned};
use crate::grid::{Grid, Pos};

/// The largest grid accepted, in cells.
pub const MAX_GRID_CELLS: usize = 1_000_000;

/// A parsed grid and the way back from its cells to the model file.
#[derive(Clone, Debug)]
pub struct GridText<T> {
    /// The cells.
    pub grid: Grid<T>,
    /// For each row, the byte offset of its first cell in the file, when the
    /// string has no escapes and so maps one to one onto the file.
    row_offsets: Option<Vec<usize>>,
    /// The offset of the string itself, used when `row_offsets` is `None`.
    string_offset: usize,
}

impl<T> GridText<T> {
    /// The byte offset in the file of the cell at `pos`.
    pub fn offset_of(&self, (row, col): Pos) -> usize {
        match &self.row_offsets {
            Some(rows) => rows[row] + col,
            None => self.string_offset,
        }
    }
}

/// Where the characters of a TOML string value start in the file, when the
/// value is the raw text verbatim.
fn verbatim_start(source: &Source, field: &Spanned<String>) -> Option<usize> {
    let span = field.span();
    let raw = source.text().get(span.clone())?;
    let delimiter = if raw.starts_with("\"\"\"") || raw.starts_with("'''") { 3 } else { 1 };
    let inner = raw.get(delimiter..raw.len().checked_sub(delimiter)?)?;
    // TOML drops a newline right after the opening delimiter of a multi-line string.
    let skipped = match delimiter {
        3 if inner.starts_with("\r\n") => 2,
        3 if inner.starts_with('\n') => 1,
        _ => 0,
    };
    (&inner[skipped..] == field.get_ref().as_str()).then_some(span.start + delimiter + skipped)
}

impl Source {
    /// Parses a grid string. Each line is a row; spaces and tabs around a row
    /// are ignored, as are blank lines before the first row and after the last.
    /// `classify` maps a symbol to a cell, and `expected` describes the
    /// symbols for error messages.
    ///
    /// ```
    /// use somaria::model::{Source, Spanned};
    /// #[derive(serde::Deserialize)]
    /// struct File { grid: Spanned<String> }
    /// let source = Source::from_text("m.toml", "grid = \"\"\"\n.#\n#x\n\"\"\"\n");
    /// let file: File = source.parse().unwrap();
    /// let err = source
    ///     .parse_grid(&file.grid, "'.' or '#'", |c| matches!(c, '.' | '#').then_some(c))
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(), "m.toml:3:2: unknown symbol 'x' at grid cell (1, 1); expected '.' or '#'");
    /// ```
    pub fn parse_grid<T>(
        &self,
        field: &Spanned<String>,
        expected: &str,
        classify: impl Fn(char) -> Option<T>,
    ) -> Result<GridText<T>, LoadError> {
        let string_offset = field.span().start;
        let start = verbatim_start(self, field);
        let at = |offset_in_value: usize| Some(start.map_or(string_offset, |s| s + offset_in_value));

        let mut lines: Vec<(usize, &str)> = Vec::new();
        let mut offset = 0;
        for line in field.get_ref().split('\n') {
            let content = line.strip_suffix('\r').unwrap_or(line);
            let trimmed_start = content.trim_start_matches([' ', '\t']);
            let lead = content.len() - trimmed_start.len();
            lines.push((offset + lead, trimmed_start.trim_end_matches([' ', '\t'])));
            offset += line.len() + 1;
        }
        let first = lines.iter().position(|(_, l)| !l.is_empty());
        let last = lines.iter().rposition(|(_, l)| !l.is_empty());
        let (Some(first), Some(last)) = (first, last) else {
            return Err(self.error(Some(string_offset), Problem::EmptyGrid));
        };
        let lines = &lines[first..=last];

        let width = lines[0].1.chars().count();
        let mut rows = Vec::with_capacity(lines.len());
        let mut cells = 0usize;
        for (row, &(line_offset, line)) in lines.iter().enumerate() {
            let mut cells_in_row = Vec::with_capacity(width);
            for (byte, symbol) in line.char_indices() {
                let col = cells_in_row.len();
                if col == width {
                    let found = line.chars().count();
                    return Err(self.error(at(line_offset + byte), Problem::RaggedRow { row, found, expected: width }));
                }
                cells += 1;
                if cells > MAX_GRID_CELLS {
                    let found = lines.iter().map(|(_, l)| l.chars().count()).sum();
                    return Err(self.error(Some(string_offset), Problem::GridTooLarge { found, limit: MAX_GRID_CELLS }));
                }
                match classify(symbol) {
                    Some(cell) => cells_in_row.push(cell),
                    None => {
                        let problem = Problem::UnknownSymbol { symbol, row, col, expected: expected.to_string() };
                        return Err(self.error(at(line_offset + byte), problem));
                    }
                }
            }
            if cells_in_row.len() != width {
                let problem = Problem::RaggedRow { row, found: cells_in_row.len(), expected: width };
                return Err(self.error(at(line_offset + line.len()), problem));
            }
            rows.push(cells_in_row);
        }
        let ascii = lines.iter().all(|(_, l)| l.is_ascii());
        let row_offsets = start.filter(|_| ascii).map(|s| lines.iter().map(|(o, _)| s + o).collect());
        let grid = Grid::from_rows(rows).expect("rows checked to be non-empty and equal");
        Ok(GridText { grid, row_offsets, string_offset })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct File {
        grid: Spanned<String>,
    }

    fn parse(text: &str) -> Result<GridText<char>, LoadError> {
        let source = Source::from_text("t.toml", text);
        let file: File = source.parse().unwrap();
        source.parse_grid(&file.grid, "'.' or '#'", |c| matches!(c, '.' | '#').then_some(c))
    }

    #[test]
    fn indented_rows_and_blank_edges_are_accepted_and_traced() {
        let text = "grid = \"\"\"\n\n  .#.\n  ###\n\n\"\"\"\n";
        let parsed = parse(text).unwrap();
        assert_eq!((parsed.grid.rows(), parsed.grid.cols()), (2, 3));
        assert_eq!(&text[parsed.offset_of((1, 2))..][..1], "#");
        assert_eq!(&text[parsed.offset_of((0, 1))..][..1], "#");
    }

    #[test]
    fn ragged_rows_name_the_row_and_both_lengths() {
        let err = parse("grid = \"\"\"\n...\n..\n\"\"\"").unwrap_err();
        assert_eq!(err.problem, Problem::RaggedRow { row: 1, found: 2, expected: 3 });
        assert_eq!(err.at.unwrap().line, 3);
        let err = parse("grid = \"\"\"\n...\n....\n\"\"\"").unwrap_err();
        assert_eq!(err.problem, Problem::RaggedRow { row: 1, found: 4, expected: 3 });
        assert_eq!(err.at.unwrap(), crate::model::Location { line: 3, col: 4 });
    }

    #[test]
    fn escaped_strings_point_at_the_string() {
        let err = parse("grid = \"..\\n.x\"").unwrap_err();
        assert!(matches!(err.problem, Problem::UnknownSymbol { symbol: 'x', row: 1, col: 1, .. }));
        assert_eq!(err.at.unwrap().col, 8);
    }

    #[test]
    fn literal_and_single_line_strings_are_traced() {
        let err = parse("grid = '..x'").unwrap_err();
        assert_eq!(err.at.unwrap().col, 11);
        let err = parse("grid = '''\r\n..\r\n.x\r\n'''").unwrap_err();
        assert_eq!(err.at.unwrap(), crate::model::Location { line: 3, col: 2 });
    }

    #[test]
    fn empty_and_blank_grids_are_refused() {
        assert_eq!(parse("grid = \"\"").unwrap_err().problem, Problem::EmptyGrid);
        assert_eq!(parse("grid = \"\"\"\n  \n\n\"\"\"").unwrap_err().problem, Problem::EmptyGrid);
    }

    #[test]
    fn a_blank_row_inside_the_grid_is_ragged() {
        let err = parse("grid = \"\"\"\n..\n\n..\n\"\"\"").unwrap_err();
        assert_eq!(err.problem, Problem::RaggedRow { row: 1, found: 0, expected: 2 });
    }

    #[test]
    fn non_ascii_symbols_are_named() {
        let err = parse("grid = \"\"\"\n.é\n\"\"\"").unwrap_err();
        assert!(matches!(err.problem, Problem::UnknownSymbol { symbol: 'é', row: 0, col: 1, .. }));
    }
}

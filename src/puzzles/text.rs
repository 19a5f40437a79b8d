//! Small helpers that keep messages about large puzzles readable.

/// Up to `shown` items joined with commas, and how many more were left out,
/// so that a message about a huge puzzle stays readable.
///
/// ```
/// let items: Vec<String> = (1..=5).map(|i| i.to_string()).collect();
/// assert_eq!(somaria::puzzles::listed(&items, 3), "1, 2, 3 and 2 more");
/// assert_eq!(somaria::puzzles::listed(&items[..2], 3), "1, 2");
/// ```
pub fn listed(items: &[String], shown: usize) -> String {
    if items.len() <= shown {
        return items.join(", ");
    }
    format!("{} and {} more", items[..shown].join(", "), items.len() - shown)
}

/// "1 move", "2 moves": a count with its noun in the right number.
///
/// ```
/// assert_eq!(somaria::puzzles::counted(1, "move"), "1 move");
/// assert_eq!(somaria::puzzles::counted(0, "tile"), "0 tiles");
/// ```
pub fn counted(count: usize, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}

/// Splits `text` into lines of at most about `width` characters, at spaces,
/// for captions that cannot wrap themselves. A part of a list separated by
/// `; ` (a fact such as `x[6] ≠ 6`) that fits on a line is never split.
///
/// ```
/// use somaria::puzzles::wrapped;
/// assert_eq!(wrapped("one two three", 8), vec!["one two", "three"]);
/// assert_eq!(wrapped("new: x[5] ≠ 5; x[6] ≠ 6", 18), vec!["new: x[5] ≠ 5;", "x[6] ≠ 6"]);
/// ```
pub fn wrapped(text: &str, width: usize) -> Vec<String> {
    fn add(lines: &mut Vec<String>, piece: &str, width: usize) {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + piece.chars().count() <= width => {
                line.push(' ');
                line.push_str(piece);
            }
            _ => lines.push(piece.to_string()),
        }
    }
    let mut lines: Vec<String> = Vec::new();
    let parts: Vec<&str> = text.split("; ").collect();
    for (i, part) in parts.iter().enumerate() {
        let mut words: Vec<String> = part.split_whitespace().map(str::to_string).collect();
        let Some(last) = words.last_mut() else { continue };
        if i + 1 < parts.len() {
            last.push(';');
        }
        let whole = words.join(" ");
        if whole.chars().count() <= width {
            add(&mut lines, &whole, width);
        } else {
            for word in &words {
                add(&mut lines, word, width);
            }
        }
    }
    lines
}

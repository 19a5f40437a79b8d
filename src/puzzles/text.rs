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
/// for captions that cannot wrap themselves.
///
/// ```
/// assert_eq!(somaria::puzzles::wrapped("one two three", 8), vec!["one two", "three"]);
/// ```
pub fn wrapped(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

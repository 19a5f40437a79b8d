//! Serde's type errors in a model's words. The typed schemas of every
//! family are read by serde, whose messages name Rust types ("invalid
//! type: integer `1e20` as i128, expected i64"); a puzzle author should
//! read what was found and what a model takes instead.

/// `message` from serde or the TOML parser, rewritten when it is one of
/// serde's type errors, and named after `key` when the value has one.
pub fn in_model_words(message: &str, key: Option<&str>) -> String {
    let Some(rewritten) = type_error(message) else { return message.to_string() };
    match key {
        Some(key) => format!("`{key}`: {rewritten}"),
        None => rewritten,
    }
}

/// "found ...; expected ..." for serde's "invalid type" and "invalid
/// value" errors, or `None` for any other message.
fn type_error(message: &str) -> Option<String> {
    let rest = message.strip_prefix("invalid type: ").or_else(|| message.strip_prefix("invalid value: "))?;
    let (found, expected) = rest.rsplit_once(", expected ")?;
    let whole = is_whole_number_type(expected);
    let found = found_words(found, whole);
    Some(format!("found {found}; expected {}", expected_words(expected)))
}

fn is_whole_number_type(expected: &str) -> bool {
    matches!(
        expected,
        "i8" | "i16" | "i32" | "i64" | "i128" | "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "isize"
    )
}

/// What serde says it found, such as "integer `-1`" or "string \"1\"".
fn found_words(found: &str, expected_whole: bool) -> String {
    if let Some(number) = found.strip_prefix("integer ") {
        let (number, wide) = match number.strip_suffix(" as i128").or_else(|| number.strip_suffix(" as u128")) {
            Some(n) => (n, true),
            None => (number, false),
        };
        let number = number.trim_matches('`');
        return if wide {
            format!("{number}, beyond the range of whole numbers a model holds (-2^63 to 2^63 - 1)")
        } else {
            number.to_string()
        };
    }
    if let Some(number) = found.strip_prefix("floating point ") {
        let number = number.trim_matches('`');
        return if expected_whole { format!("{number}, which is not a whole number") } else { number.to_string() };
    }
    if let Some(text) = found.strip_prefix("string ") {
        return if expected_whole { format!("the text {text} in quotes") } else { format!("the text {text}") };
    }
    match found {
        "boolean `true`" | "boolean `false`" => found.replace("boolean ", "").replace('`', ""),
        "sequence" => "an array".to_string(),
        "map" => "a table".to_string(),
        _ => found.replace('`', ""),
    }
}

/// What the schema wanted, as a model author would say it.
fn expected_words(expected: &str) -> String {
    let whole = "a whole number, without quotes";
    let natural = "a whole number, 0 or more, without quotes";
    match expected {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => whole.to_string(),
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => natural.to_string(),
        "a boolean" => "true or false".to_string(),
        "a string" => "text in quotes".to_string(),
        "a sequence" => "an array, such as [1, 2]".to_string(),
        "f64" | "f32" => "a number".to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_type_errors_become_found_and_expected() {
        assert_eq!(
            in_model_words("invalid type: floating point `1e20`, expected i64", Some("leave_uncovered")),
            "`leave_uncovered`: found 1e20, which is not a whole number; expected a whole number, without quotes"
        );
        assert_eq!(
            in_model_words("invalid type: string \"1\", expected usize", None),
            "found the text \"1\" in quotes; expected a whole number, 0 or more, without quotes"
        );
        let wide = in_model_words("invalid type: integer `99999999999999999999` as i128, expected i64", Some("n"));
        assert!(wide.starts_with("`n`: found 99999999999999999999, beyond the range"), "{wide}");
        assert!(!wide.contains("i128") && !wide.contains("i64"), "{wide}");
        assert_eq!(
            in_model_words("invalid value: integer `-1`, expected u64", Some("walkers")),
            "`walkers`: found -1; expected a whole number, 0 or more, without quotes"
        );
    }

    #[test]
    fn other_messages_pass_through() {
        assert_eq!(in_model_words("missing field `grid`", Some("x")), "missing field `grid`");
        assert_eq!(
            in_model_words("unknown variant `x`, expected `a` or `b`", None),
            "unknown variant `x`, expected `a` or `b`"
        );
    }
}

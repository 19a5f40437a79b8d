//! A parametric model's `[params]` replaced by other values: how a genre's
//! template becomes one puzzle without any model text written by hand.
//!
//! The template's text is kept, and only the value of each replaced
//! parameter is rewritten, as a TOML inline value on one line followed by
//! as many line breaks as the old value spanned. So every constraint, the
//! drawing and the design table stay at their lines, and an error in them
//! points at the template's own line.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde::de::IgnoredAny;

use super::{LoadError, Problem, Source, Spanned};

#[derive(Deserialize)]
struct ParamsOnly {
    params: Option<BTreeMap<Spanned<String>, Spanned<IgnoredAny>>>,
}

impl Source {
    /// This model with the parameters in `values` replaced; every one of
    /// them must be a parameter the model declares (so a misspelt name is
    /// refused rather than ignored).
    ///
    /// ```
    /// use somaria::model::Source;
    /// let template = Source::from_text("t.toml", "kind = \"csp\"\n[params]\nn = \"\"\"\n3\"\"\"\n[vars]\nx = \"1..n\"\n");
    /// let mut values = toml::Table::new();
    /// values.insert("n".into(), toml::Value::Integer(5));
    /// let model = template.with_params(&values).unwrap();
    /// assert_eq!(model.text(), "kind = \"csp\"\n[params]\nn = 5\n\n[vars]\nx = \"1..n\"\n");
    /// values.insert("m".into(), toml::Value::Integer(5));
    /// let error = template.with_params(&values).unwrap_err().to_string();
    /// assert!(error.contains("the parameter `m`; expected one the model declares: n"), "{error}");
    /// ```
    pub fn with_params(&self, values: &toml::Table) -> Result<Source, LoadError> {
        let declared = self.parse::<ParamsOnly>()?.params.unwrap_or_default();
        let mut edits = Vec::new();
        for (name, value) in values {
            let Some((_, old)) = declared.iter().find(|(k, _)| k.get_ref() == name) else {
                let names: Vec<&str> = declared.keys().map(|k| k.get_ref().as_str()).collect();
                let expected = match names.is_empty() {
                    true => "a model with a [params] table".to_string(),
                    false => format!("one the model declares: {}", names.join(", ")),
                };
                return Err(self.error(None, Problem::Invalid { found: format!("the parameter `{name}`"), expected }));
            };
            let span = old.span();
            let breaks = self.text[span.clone()].matches('\n').count();
            edits.push((span, format!("{}{}", inline(value), "\n".repeat(breaks))));
        }
        edits.sort_by_key(|(span, _)| std::cmp::Reverse(span.start));
        let mut text = self.text.clone();
        for (span, written) in edits {
            text.replace_range(span, &written);
        }
        Ok(Source { name: self.name.clone(), text })
    }

    /// This model with its top-level `title` replaced (or set on a line of
    /// its own at the top when it has none).
    ///
    /// ```
    /// use somaria::model::Source;
    /// let model = Source::from_text("t.toml", "kind = \"csp\"\ntitle = \"Slitherlink\"\n").with_title("Mine").unwrap();
    /// assert_eq!(model.text(), "kind = \"csp\"\ntitle = \"Mine\"\n");
    /// ```
    pub fn with_title(&self, title: &str) -> Result<Source, LoadError> {
        #[derive(Deserialize)]
        struct TitleOnly {
            title: Option<Spanned<String>>,
        }
        let quoted = toml::Value::String(title.to_string()).to_string();
        let mut text = self.text.clone();
        match self.parse::<TitleOnly>()?.title {
            Some(old) => text.replace_range(old.span(), &quoted),
            None => text.insert_str(0, &format!("title = {quoted}\n")),
        }
        Ok(Source { name: self.name.clone(), text })
    }

    /// The same text under another name, for messages.
    pub fn renamed(self, name: impl Into<String>) -> Source {
        Source { name: name.into(), text: self.text }
    }
}

/// A TOML value on one line: arrays and tables inline.
fn inline(value: &toml::Value) -> String {
    match value {
        toml::Value::Array(items) => {
            let items: Vec<String> = items.iter().map(inline).collect();
            format!("[{}]", items.join(", "))
        }
        toml::Value::Table(table) => {
            let entries: Vec<String> = table.iter().map(|(k, v)| format!("{} = {}", key(k), inline(v))).collect();
            format!("{{ {} }}", entries.join(", "))
        }
        other => other.to_string(),
    }
}

fn key(name: &str) -> String {
    let bare = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare { name.to_string() } else { toml::Value::String(name.to_string()).to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_arrays_are_written_on_one_line_and_lines_are_kept() {
        let text = "kind = \"csp\"\n[params]\nclue = [\n  [1, 2],\n  [3, 4],\n]\nrows = 2\n[vars]\nx = \"0..rows\"\n";
        let template = Source::from_text("t.toml", text);
        let mut values = toml::Table::new();
        let row = |a: i64, b: i64| toml::Value::Array(vec![a.into(), b.into()]);
        values.insert("clue".into(), toml::Value::Array(vec![row(-1, 5), row(7, -2), row(0, 0)]));
        values.insert("rows".into(), 3.into());
        let model = template.with_params(&values).unwrap();
        assert_eq!(model.text().lines().count(), text.lines().count());
        assert!(model.text().contains("clue = [[-1, 5], [7, -2], [0, 0]]\n\n\n\nrows = 3\n"), "{}", model.text());
        let parsed: toml::Table = toml::from_str(model.text()).unwrap();
        assert_eq!(parsed["params"]["clue"][2][0].as_integer(), Some(0));
    }

    #[test]
    fn a_model_without_params_refuses_any() {
        let template = Source::from_text("t.toml", "kind = \"csp\"\n");
        let mut values = toml::Table::new();
        values.insert("n".into(), 1.into());
        let error = template.with_params(&values).unwrap_err().to_string();
        assert!(error.contains("expected a model with a [params] table"), "{error}");
    }
}

//! `somaria genres` (the puzz.link genres somaria reads, each with a
//! sample URL) and `somaria import` (a URL's puzzle written as a model).

use std::io::Write;
use std::path::PathBuf;

use serde_json::json;
use somaria::genres::{self, GENRES};

use super::output::Target;
use super::{Failure, cannot_write, exit};

/// The arguments of `import`.
#[derive(clap::Args)]
pub struct ImportArgs {
    /// The puzz.link URL (quote it), such as 'https://puzz.link/p?slither/5/5/cbcbcddad'.
    pub url: String,
    /// Write the model to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `somaria genres`: one line per genre (or one JSON array).
pub fn list(json: bool) -> Result<u8, Failure> {
    let mut out = std::io::stdout().lock();
    let written = if json {
        let rows: Vec<_> = GENRES
            .iter()
            .map(|g| {
                let flags: Vec<_> =
                    g.flags.iter().map(|(f, what)| json!({"flag": f.to_string(), "means": what})).collect();
                json!({"id": g.id, "title": g.title, "aliases": g.aliases, "url_id": g.url_id, "flags": flags,
                       "model": g.template_name(), "sample": g.sample})
            })
            .collect();
        writeln!(out, "{}", serde_json::Value::Array(rows))
    } else {
        let width = GENRES.iter().map(|g| g.id.len()).max().unwrap_or(0);
        let mut text = format!("{} puzz.link genres; `somaria solve URL` reads each:\n", GENRES.len());
        for g in GENRES {
            let aliases = match g.aliases.is_empty() {
                true => String::new(),
                false => format!(" (also {})", g.aliases.join(", ")),
            };
            text.push_str(&format!("{:width$}  {}{aliases}  {}\n", g.id, g.title, g.sample));
        }
        write!(out, "{text}")
    };
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure::bad_input(format!("standard output: {e}")))
        }
        _ => Ok(exit::SOLVED),
    }
}

/// `somaria import URL [-o FILE]`: the puzzle as a standalone model (the
/// genre's model with the URL's parameters), loaded once before it is
/// written so that a file written always loads.
pub fn import(args: &ImportArgs) -> Result<u8, Failure> {
    let target = match &args.output {
        Some(path) => Target::resolve(path).map_err(Failure::bad_input)?,
        None => Target::Stdout,
    };
    let opened = genres::open_url(&args.url)?;
    let header = format!(
        "# Imported by `somaria import` from {}\n# The comments below are the genre's model's, not this puzzle's.\n",
        args.url
    );
    let text = header + opened.source.text();
    let shown = args.output.as_ref().map_or("standard output".to_string(), |p| p.display().to_string());
    match target.write(|out| out.write_all(text.as_bytes())) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe && matches!(target, Target::Stdout) => {}
        written => written.map_err(|e| cannot_write(std::path::Path::new(&shown), e))?,
    }
    if !matches!(target, Target::Stdout) {
        println!("wrote {shown}: {}", opened.puzzle.title().unwrap_or("the puzzle"));
    }
    Ok(exit::SOLVED)
}

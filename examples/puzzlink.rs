//! Prints a puzz.link slitherlink or nurikabe as a somaria csp model (the
//! layouts of `models/csp/slitherlink.toml` and `models/csp/nurikabe.toml`),
//! decoded by the library's `somaria::grid_models::puzzlink`.
//!
//! ```text
//! cargo run --release --example puzzlink -- 'https://puzz.link/p?slither/4/4/dgdh2c71' > slitherlink.toml
//! ```
//!
//! A URL it cannot read is exit 2, with what was found where and what was
//! expected. An all-blank URL (`slither/15/15/zzzzzzzzzzzk`) makes a
//! template for `somaria generate`.

use somaria::grid_models::puzzlink;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [url] = &args[..] else {
        eprintln!("usage: puzzlink URL");
        std::process::exit(2);
    };
    match puzzlink::model_text(url) {
        Ok(text) => print!("{text}"),
        Err(why) => {
            eprintln!("error: {why}");
            std::process::exit(2);
        }
    }
}

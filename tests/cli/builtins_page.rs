//! The book's built-ins page (docs/src/reference/builtins.md) is made from
//! the built-ins table (`somaria::lang::builtins::all`), so that it cannot
//! drift: the committed page must be the one generated here, and its names
//! must be every name the checker accepts, as the checker's own message for
//! an unknown function lists them.
//!
//! After a change to the table, write the page anew with
//!
//! ```text
//! SOMARIA_WRITE_BUILTINS_PAGE=1 cargo test --release --test cli builtins_page::
//! ```

use somaria::lang::builtins::{self, Builtin, Drawing};

const PAGE: &str = "docs/src/reference/builtins.md";

/// `[0, 5, 6]` as "1st, 6th, 7th": argument positions counted from 1, as a
/// reader counts them.
fn positions(scope: &[usize]) -> String {
    if scope.is_empty() {
        return "none".to_string();
    }
    let ordinal = |n: usize| match n % 10 {
        1 if n != 11 => format!("{n}st"),
        2 if n != 12 => format!("{n}nd"),
        3 if n != 13 => format!("{n}rd"),
        _ => format!("{n}th"),
    };
    scope.iter().map(|&i| ordinal(i + 1)).collect::<Vec<_>>().join(", ")
}

fn drawing(builtin: &Builtin) -> &'static str {
    match builtin.drawing {
        Drawing::Nothing => "—",
        Drawing::CellRoute => "a route through the cells, from its start to its end",
        Drawing::CornerLoop => "a closed loop (on a puzzle's corners: along the grid lines)",
        Drawing::Region => "a region, the cells that are on",
        Drawing::Borders => "a division of the grid: borders where the steps are not joined",
        Drawing::GraphNodes => "a connected set of a graph's nodes, the ones that are on",
        Drawing::GraphEdges => "a forest of a graph's edges, the ones that are used",
    }
}

/// A table cell: Markdown's `|` escaped, the forms in code.
fn code_cell(text: &str) -> String {
    text.split(" or ").map(|form| format!("`{}`", form.replace('|', "\\|"))).collect::<Vec<_>>().join(" or ")
}

fn arities(builtin: &Builtin) -> String {
    builtin.arities.iter().map(usize::to_string).collect::<Vec<_>>().join(" or ")
}

/// The page, as the table says it today.
fn generated_page() -> String {
    let mut page = String::from(
        "# Built-ins\n\n\
         <!-- Generated from the built-ins table (src/lang/builtins/mod.rs) by\n\
         `SOMARIA_WRITE_BUILTINS_PAGE=1 cargo test --release --test cli builtins_page::`.\n\
         Do not edit: a test fails when this page and the table differ. -->\n\n\
         Every function and global constraint a csp model can call, in the order\n\
         error messages list them. **Forms** are the calls it takes, as messages\n\
         quote them; **arguments** how many; **constrains** which arguments hold the\n\
         variables it constrains (a hint names the cells these mention); **drawn\n\
         as** what a picture draws for it beyond the arrays' values. A **grid\n\
         global** is a constraint of its own (never negated or reified; only\n\
         `grid_connected` may sit under a Boolean guard, `b -> grid_connected(..)`),\n\
         cut lazily between SAT calls, and judged on the route or region the answer\n\
         gives; see [Grid globals](../models/grid-globals.md).\n\
         The semantics are MiniZinc's; [The csp language](../models/csp.md) says\n\
         where somaria differs.\n\n\
         | name | forms | arguments | constrains | drawn as | grid global |\n\
         | --- | --- | --- | --- | --- | --- |\n",
    );
    for builtin in builtins::all() {
        page.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            builtin.name,
            code_cell(builtin.forms),
            arities(builtin),
            positions(builtin.scope),
            drawing(builtin),
            if builtin.grid_global { "yes" } else { "no" },
        ));
    }
    page
}

#[test]
fn the_builtins_page_is_the_one_the_table_makes() {
    let generated = generated_page();
    if std::env::var_os("SOMARIA_WRITE_BUILTINS_PAGE").is_some() {
        // Written beside and renamed, so that the other tests of this
        // file, which read the page at the same time, never see half of it.
        let beside = format!("{PAGE}.new");
        std::fs::write(&beside, &generated).unwrap();
        std::fs::rename(&beside, PAGE).unwrap();
    }
    let committed = std::fs::read_to_string(PAGE).unwrap_or_default();
    assert!(
        committed == generated,
        "{PAGE} differs from the built-ins table; write it anew with \
         `SOMARIA_WRITE_BUILTINS_PAGE=1 cargo test --release --test cli builtins_page::` and commit it"
    );
}

/// The names in the page's table, in order.
fn names_on_the_page(page: &str) -> Vec<String> {
    page.lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split_once('`'))
        .map(|(name, _)| name.to_string())
        .collect()
}

/// The names the checker accepts, as its message for an unknown function
/// lists them.
fn names_the_checker_accepts() -> Vec<String> {
    let model = "kind = \"csp\"\n[vars]\nx = \"1..2\"\n[[constraint]]\nexpr = 'no_such_builtin(x)'\n";
    let error = somaria::load_str("m.toml", model).err().expect("an unknown function is refused").to_string();
    let (_, list) = error.split_once("expected one of ").unwrap_or_else(|| panic!("no list in {error}"));
    let list = list.split(" (did you mean").next().unwrap();
    list.split(", ").map(|name| name.trim().to_string()).collect()
}

#[test]
fn the_builtins_page_lists_every_builtin_the_checker_accepts() {
    let page = std::fs::read_to_string(PAGE).unwrap_or_default();
    assert_eq!(names_on_the_page(&page), names_the_checker_accepts(), "{PAGE} and the checker disagree");
    // And each is taken as a built-in, not an unknown name: a call with
    // no arguments is refused for its arguments.
    for name in names_on_the_page(&page) {
        let model = format!("kind = \"csp\"\n[vars]\nx = \"1..2\"\n[[constraint]]\nexpr = '{name}()'\n");
        let error = somaria::load_str("m.toml", &model).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(!error.contains("unknown function"), "{name}: {error}");
    }
}

#[test]
fn argument_positions_read_as_a_person_counts() {
    assert_eq!(positions(&[0, 5, 6]), "1st, 6th, 7th");
    assert_eq!(positions(&[1, 2, 10, 11]), "2nd, 3rd, 11th, 12th");
    assert_eq!(positions(&[]), "none");
}

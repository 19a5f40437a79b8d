//! somaria's operator precedences checked against MiniZinc's grammar: the
//! `%left`, `%right` and `%nonassoc` lines of libminizinc's `lib/parser.yxx`
//! are written out below, once as MiniZinc 2.9.0 and later declare them and
//! once as 2.6.0 to 2.8.7 did (Debian 12 ships 2.6.4). Every pair
//! of binary operators is parsed as `a OP1 b OP2 c`, and each unary operator
//! before each binary one, and the tree must be the one both grammars give.
//! Where the two versions read the text differently, somaria must refuse it
//! and ask for parentheses; a MiniZinc operator somaria lacks must be
//! refused, never read as something else (`a ++ b` as `a + (+b)`).
//!
//! With `MINIZINC_PARSER_YXX` set to a libminizinc checkout's
//! `lib/parser.yxx`, the table below is also compared with that file.

use super::{BinOp, Expr, ExprKind, UnOp, parse};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Assoc {
    Left,
    Right,
    Nonassociative,
}
use Assoc::{Left, Nonassociative, Right};

/// One precedence line: its associativity and its tokens, each with the
/// binary operator it spells (`None` for a token that is not one: the
/// annotation marker, `not`, `^-1`, a backquoted name, `::`).
type Line = (Assoc, &'static [(&'static str, Option<&'static str>)]);

/// libminizinc `lib/parser.yxx` from 2.9.0 to 2.10.0 (commit 9c4250e9, "Fix
/// operator precedences for `intersect` and unary plus/minus"), loosest
/// line first. Unary `-` binds as `*` (`MZN_MINUS expr %prec MZN_MULT`),
/// `not` at its own line.
const MINIZINC_2_9: &[Line] = &[
    (Right, &[("PREC_ANNO", None)]),
    (Left, &[("MZN_EQUIV", Some("<->"))]),
    (Left, &[("MZN_IMPL", Some("->")), ("MZN_RIMPL", Some("<-"))]),
    (Left, &[("MZN_OR", Some("\\/")), ("MZN_XOR", Some("xor"))]),
    (Left, &[("MZN_AND", Some("/\\"))]),
    (
        Nonassociative,
        &[
            ("MZN_LE", Some("<")),
            ("MZN_GR", Some(">")),
            ("MZN_LQ", Some("<=")),
            ("MZN_GQ", Some(">=")),
            ("MZN_EQ", Some("=")),
            ("MZN_NQ", Some("!=")),
            ("MZN_WEAK_EQ", Some("~=")),
            ("MZN_WEAK_NQ", Some("~!=")),
        ],
    ),
    (Nonassociative, &[("MZN_IN", Some("in")), ("MZN_SUBSET", Some("subset")), ("MZN_SUPERSET", Some("superset"))]),
    (Left, &[("MZN_UNION", Some("union")), ("MZN_DIFF", Some("diff")), ("MZN_SYMDIFF", Some("symdiff"))]),
    (Left, &[("MZN_INTERSECT", Some("intersect"))]),
    (
        Nonassociative,
        &[
            ("MZN_DOTDOT", Some("..")),
            ("MZN_DOTDOT_LE", Some("..<")),
            ("MZN_LE_DOTDOT", Some("<..")),
            ("MZN_LE_DOTDOT_LE", Some("<..<")),
        ],
    ),
    (
        Left,
        &[
            ("MZN_PLUS", Some("+")),
            ("MZN_MINUS", Some("-")),
            ("MZN_WEAK_PLUS", Some("~+")),
            ("MZN_WEAK_MINUS", Some("~-")),
        ],
    ),
    (
        Left,
        &[
            ("MZN_MULT", Some("*")),
            ("MZN_DIV", Some("/")),
            ("MZN_IDIV", Some("div")),
            ("MZN_MOD", Some("mod")),
            ("MZN_WEAK_MULT", Some("~*")),
            ("MZN_WEAK_DIV", Some("~/")),
            ("MZN_WEAK_IDIV", Some("~div")),
        ],
    ),
    (Left, &[("MZN_POW", Some("^")), ("MZN_POW_MINUS1", None)]),
    (Nonassociative, &[("MZN_NOT", None)]),
    (Left, &[("MZN_PLUSPLUS", Some("++"))]),
    (Left, &[("MZN_DEFAULT", Some("default"))]),
    (Left, &[("MZN_QUOTED_IDENTIFIER", None)]),
    (Left, &[("MZN_COLONCOLON", None)]),
];

/// The one line where 2.6.0 to 2.8.7 differ: `intersect` on the line of
/// `union` (`%left MZN_UNION MZN_DIFF MZN_SYMDIFF MZN_INTERSECT`). Unary `-`
/// bound as `not` then (`%prec MZN_NOT`), which matters only before `^`.
const MINIZINC_2_8_SETS: Line = (
    Left,
    &[
        ("MZN_UNION", Some("union")),
        ("MZN_DIFF", Some("diff")),
        ("MZN_SYMDIFF", Some("symdiff")),
        ("MZN_INTERSECT", Some("intersect")),
    ],
);

fn minizinc_2_8() -> Vec<Line> {
    let mut lines: Vec<Line> = MINIZINC_2_9.to_vec();
    let union = lines.iter().position(|(_, tokens)| tokens[0].0 == "MZN_UNION").expect("the line of union");
    lines[union] = MINIZINC_2_8_SETS;
    lines.remove(union + 1);
    lines
}

/// MiniZinc's binary operators that somaria does not take: each must be
/// refused where it stands.
const NOT_IN_SOMARIA: &[&str] = &[
    "~=", "~!=", "subset", "superset", "..<", "<..", "<..<", "~+", "~-", "/", "~*", "~/", "~div", "^", "++", "default",
];

/// A grammar's levels: operator spelling to (line, associativity), and the
/// line each unary operator binds at.
struct Grammar {
    binary: Vec<(&'static str, usize, Assoc)>,
    unary: [(&'static str, usize); 2],
}

impl Grammar {
    fn of(lines: &[Line], minus_as: &str) -> Grammar {
        let line_of = |token: &str| lines.iter().position(|(_, t)| t.iter().any(|(name, _)| *name == token)).unwrap();
        let mut binary: Vec<(&'static str, usize, Assoc)> = lines
            .iter()
            .enumerate()
            .flat_map(|(level, (assoc, tokens))| {
                tokens.iter().filter_map(move |(_, op)| Some((*op.as_ref()?, level, *assoc)))
            })
            .collect();
        // `==` is MiniZinc's other spelling of `=`: its lexer gives both as `MZN_EQ`.
        binary.push(("==", line_of("MZN_EQ"), Nonassociative));
        Grammar { binary, unary: [("-", line_of(minus_as)), ("not", line_of("MZN_NOT"))] }
    }

    fn level(&self, op: &str) -> (usize, Assoc) {
        let (_, level, assoc) = self.binary.iter().find(|(o, ..)| *o == op).unwrap();
        (*level, *assoc)
    }

    /// How `a op1 b op2 c` reads, or `None` where the grammar refuses it.
    fn pair(&self, op1: &str, op2: &str) -> Option<String> {
        let ((l1, assoc), (l2, _)) = (self.level(op1), self.level(op2));
        let left = format!("((a {} b) {} c)", canonical(op1), canonical(op2));
        let right = format!("(a {} (b {} c))", canonical(op1), canonical(op2));
        match (l1.cmp(&l2), assoc) {
            (std::cmp::Ordering::Greater, _) | (std::cmp::Ordering::Equal, Left) => Some(left),
            (std::cmp::Ordering::Less, _) | (std::cmp::Ordering::Equal, Right) => Some(right),
            (std::cmp::Ordering::Equal, Nonassociative) => None,
        }
    }

    /// How `u a op b` reads: a bison rule `u expr %prec L` reduces before an
    /// operator of line L or looser.
    fn unary(&self, u: &str, op: &str) -> String {
        let (&(_, at), (level, _)) = (self.unary.iter().find(|(name, _)| *name == u).unwrap(), self.level(op));
        let op = canonical(op);
        if at >= level { format!("(({u} a) {op} b)") } else { format!("({u} (a {op} b))") }
    }
}

/// How somaria's tree writes an operator: `==` is `=`.
fn canonical(op: &str) -> &str {
    if op == "==" { "=" } else { op }
}

fn shape(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Name(name) => name.clone(),
        ExprKind::Binary { op, left, right } => format!("({} {} {})", shape(left), op.text(), shape(right)),
        ExprKind::Unary { op: UnOp::Neg, operand } => format!("(- {})", shape(operand)),
        ExprKind::Unary { op: UnOp::Not, operand } => format!("(not {})", shape(operand)),
        other => panic!("an operator tree holds only names here: {other:?}"),
    }
}

fn somaria(text: &str) -> Result<String, super::SyntaxError> {
    parse(text, &|o| o).map(|e| shape(&e))
}

#[test]
fn every_operator_binds_as_in_minizinc_and_a_version_dependent_reading_is_refused() {
    let new = Grammar::of(MINIZINC_2_9, "MZN_MULT");
    let old = Grammar::of(&minizinc_2_8(), "MZN_NOT");
    let ops: Vec<&str> = new.binary.iter().map(|(op, ..)| *op).collect();
    let ours: Vec<&str> = ops.iter().copied().filter(|op| !NOT_IN_SOMARIA.contains(op)).collect();
    for op in &ops {
        let alone = somaria(&format!("a {op} b"));
        if NOT_IN_SOMARIA.contains(op) {
            assert!(alone.is_err(), "`a {op} b` must be refused, not read as {alone:?}");
        } else {
            assert_eq!(alone, Ok(format!("(a {} b)", canonical(op))));
        }
    }
    let mut checked = 0;
    for op1 in &ours {
        for op2 in &ours {
            let text = format!("a {op1} b {op2} c");
            let (by_new, by_old) = (new.pair(op1, op2), old.pair(op1, op2));
            let got = somaria(&text);
            match (&by_new, &by_old) {
                (Some(n), Some(o)) if n == o => {
                    // somaria balances runs of `/\` and of `\/`, which are
                    // associative: `a /\ (b /\ c)` means the same.
                    let associative = op1 == op2 && matches!(*op1, "/\\" | "\\/");
                    let right = format!("(a {op1} (b {op2} c))");
                    let same = got.as_ref().is_ok_and(|g| g == n || (associative && *g == right));
                    assert!(same, "`{text}`: MiniZinc reads {n}, somaria {got:?}");
                }
                (None, None) => assert!(got.is_err(), "`{text}`: MiniZinc refuses it, somaria reads {got:?}"),
                _ => {
                    let error = got.expect_err(&format!("`{text}`: MiniZinc 2.9 reads {by_new:?}, 2.8 {by_old:?}"));
                    assert!(error.expected.contains("MiniZinc 2.9") && error.expected.contains("2.8"), "{error:?}");
                    assert_eq!(&text[error.span.clone()], *op2, "the error is at the second operator");
                }
            }
            checked += 1;
        }
        for u in ["-", "not"] {
            let text = format!("{u} a {op1} b");
            assert_eq!(new.unary(u, op1), old.unary(u, op1), "`{text}` reads alike in both versions");
            assert_eq!(somaria(&text), Ok(new.unary(u, op1)), "`{text}`");
        }
    }
    assert_eq!(checked, 24 * 24, "every pair of the 24 spellings somaria takes");
    // The readings that differ between the versions are exactly `intersect`
    // after `union`, `diff` or `symdiff`.
    let differ: Vec<(&str, &str)> = ours
        .iter()
        .flat_map(|a| ours.iter().map(move |b| (*a, *b)))
        .filter(|(a, b)| new.pair(a, b) != old.pair(a, b))
        .collect();
    assert_eq!(differ, [("union", "intersect"), ("diff", "intersect"), ("symdiff", "intersect")]);
    // Every binary operator of the syntax tree is its MiniZinc token, as
    // MiniZinc spells it.
    for op in ALL_BINOPS {
        let spelled = MINIZINC_2_9.iter().flat_map(|(_, tokens)| tokens.iter()).find(|(name, _)| *name == token_of(op));
        assert_eq!(spelled.and_then(|(_, text)| *text), Some(op.text()), "{op:?}");
        assert!(ours.contains(&op.text()), "{op:?}");
    }
}

/// Every [`BinOp`].
const ALL_BINOPS: [BinOp; 23] = {
    use BinOp::*;
    [
        Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge, And, Or, Implies, ImpliedBy, Iff, Xor, In, Range, Union,
        Intersect, Diff, Symdiff,
    ]
};

/// The MiniZinc token of each [`BinOp`]: a new variant does not compile
/// until it is given one here (and listed in [`ALL_BINOPS`]).
fn token_of(op: BinOp) -> &'static str {
    use BinOp::*;
    match op {
        Add => "MZN_PLUS",
        Sub => "MZN_MINUS",
        Mul => "MZN_MULT",
        Div => "MZN_IDIV",
        Mod => "MZN_MOD",
        Eq => "MZN_EQ",
        Ne => "MZN_NQ",
        Lt => "MZN_LE",
        Le => "MZN_LQ",
        Gt => "MZN_GR",
        Ge => "MZN_GQ",
        And => "MZN_AND",
        Or => "MZN_OR",
        Implies => "MZN_IMPL",
        ImpliedBy => "MZN_RIMPL",
        Iff => "MZN_EQUIV",
        Xor => "MZN_XOR",
        In => "MZN_IN",
        Range => "MZN_DOTDOT",
        Union => "MZN_UNION",
        Intersect => "MZN_INTERSECT",
        Diff => "MZN_DIFF",
        Symdiff => "MZN_SYMDIFF",
    }
}

/// The table above against a libminizinc checkout's grammar, where one is
/// named: `MINIZINC_PARSER_YXX=path/to/libminizinc/lib/parser.yxx`. Set it
/// to a file of 2.8 or earlier to check the older line.
#[test]
fn the_table_is_the_one_in_minizincs_grammar_where_a_checkout_is_named() {
    let Some(path) = std::env::var_os("MINIZINC_PARSER_YXX") else {
        eprintln!("MINIZINC_PARSER_YXX is not set; the table stands as written above");
        return;
    };
    let text = std::fs::read_to_string(&path).expect("MINIZINC_PARSER_YXX names a readable file");
    let declared: Vec<(Assoc, Vec<String>)> = text
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let assoc = match words.next()? {
                "%left" => Left,
                "%right" => Right,
                "%nonassoc" => Nonassociative,
                _ => return None,
            };
            Some((assoc, words.map(str::to_string).collect()))
        })
        .collect();
    let as_names = |lines: &[Line]| -> Vec<(Assoc, Vec<String>)> {
        lines.iter().map(|(a, tokens)| (*a, tokens.iter().map(|(name, _)| name.to_string()).collect())).collect()
    };
    let older = minizinc_2_8();
    assert!(
        declared == as_names(MINIZINC_2_9) || declared == as_names(&older),
        "{}: the precedence lines differ from both tables here: {declared:?}",
        std::path::Path::new(&path).display()
    );
}

//! Tokens of the MiniZinc expression subset, cut by winnow parsers that keep
//! each token's span.

use std::ops::Range;

use winnow::combinator::alt;
use winnow::error::ContextError;
use winnow::prelude::*;
use winnow::stream::{LocatingSlice, Location};
use winnow::token::{literal, one_of, take_until, take_while};

use super::SyntaxError;

/// A token's kind, with its value for numbers and names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An integer literal.
    Int(i64),
    /// A name: a parameter, variable, enum value, loop variable or function.
    Ident(String),
    /// A reserved word of MiniZinc.
    Keyword(Keyword),
    /// An operator or a bracket.
    Punct(Punct),
    /// A string literal, which only the message of `assert` may be.
    Str(String),
    /// The end of the expression.
    End,
}

/// The reserved words the subset uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Keyword {
    True,
    False,
    Not,
    Div,
    Mod,
    Xor,
    In,
    Where,
    If,
    Then,
    Elseif,
    Else,
    Endif,
    Let,
    Var,
    Par,
    Constraint,
    Union,
    Intersect,
    Diff,
    Symdiff,
}

impl Keyword {
    const ALL: [(&'static str, Keyword); 21] = [
        ("true", Keyword::True),
        ("false", Keyword::False),
        ("not", Keyword::Not),
        ("div", Keyword::Div),
        ("mod", Keyword::Mod),
        ("xor", Keyword::Xor),
        ("in", Keyword::In),
        ("where", Keyword::Where),
        ("if", Keyword::If),
        ("then", Keyword::Then),
        ("elseif", Keyword::Elseif),
        ("else", Keyword::Else),
        ("endif", Keyword::Endif),
        ("let", Keyword::Let),
        ("var", Keyword::Var),
        ("par", Keyword::Par),
        ("constraint", Keyword::Constraint),
        ("union", Keyword::Union),
        ("intersect", Keyword::Intersect),
        ("diff", Keyword::Diff),
        ("symdiff", Keyword::Symdiff),
    ];

    /// The word as written.
    pub fn text(self) -> &'static str {
        Keyword::ALL.iter().find(|(_, k)| *k == self).map_or("?", |(t, _)| t)
    }
}

/// Operators and brackets, longest first where one is a prefix of another.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Punct {
    Iff,
    Implies,
    ImpliedBy,
    Le,
    Ge,
    EqEq,
    Ne,
    And,
    Or,
    DotDot,
    OpenTable,
    CloseTable,
    Lt,
    Gt,
    Eq,
    PlusPlus,
    Plus,
    Minus,
    Star,
    Slash,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Bar,
    Colon,
    Semicolon,
}

impl Punct {
    const ALL: [(&'static str, Punct); 30] = [
        ("<->", Punct::Iff),
        ("->", Punct::Implies),
        ("<-", Punct::ImpliedBy),
        ("<=", Punct::Le),
        (">=", Punct::Ge),
        ("==", Punct::EqEq),
        ("!=", Punct::Ne),
        ("/\\", Punct::And),
        ("\\/", Punct::Or),
        ("..", Punct::DotDot),
        ("[|", Punct::OpenTable),
        ("|]", Punct::CloseTable),
        ("<", Punct::Lt),
        (">", Punct::Gt),
        ("=", Punct::Eq),
        ("++", Punct::PlusPlus),
        ("+", Punct::Plus),
        ("-", Punct::Minus),
        ("*", Punct::Star),
        ("/", Punct::Slash),
        ("(", Punct::LParen),
        (")", Punct::RParen),
        ("[", Punct::LBracket),
        ("]", Punct::RBracket),
        ("{", Punct::LBrace),
        ("}", Punct::RBrace),
        (",", Punct::Comma),
        ("|", Punct::Bar),
        (":", Punct::Colon),
        (";", Punct::Semicolon),
    ];

    /// The operator as written.
    pub fn text(self) -> &'static str {
        Punct::ALL.iter().find(|(_, p)| *p == self).map_or("?", |(t, _)| t)
    }
}

impl Tok {
    /// The token as a message shows it.
    pub fn describe(&self) -> String {
        match self {
            Tok::Int(n) => format!("`{n}`"),
            Tok::Ident(name) => format!("`{name}`"),
            Tok::Keyword(k) => format!("`{}`", k.text()),
            Tok::Punct(p) => format!("`{}`", p.text()),
            Tok::Str(text) => format!("the string {text:?}"),
            Tok::End => "the end of the expression".to_string(),
        }
    }
}

/// A token and where it is, in byte offsets of the text lexed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub tok: Tok,
    /// Where it is.
    pub span: Range<usize>,
}

type Input<'a> = LocatingSlice<&'a str>;

/// What a run of characters is, before numbers are converted.
enum Raw<'a> {
    Digits(&'a str),
    Word(&'a str),
    Punct(Punct),
}

fn digits<'a>(input: &mut Input<'a>) -> ModalResult<Raw<'a>, ContextError> {
    take_while(1.., |c: char| c.is_ascii_digit()).map(Raw::Digits).parse_next(input)
}

fn word<'a>(input: &mut Input<'a>) -> ModalResult<Raw<'a>, ContextError> {
    (
        one_of(|c: char| c.is_ascii_alphabetic() || c == '_'),
        take_while(0.., |c: char| c.is_ascii_alphanumeric() || c == '_'),
    )
        .take()
        .map(Raw::Word)
        .parse_next(input)
}

fn punct<'a>(input: &mut Input<'a>) -> ModalResult<Raw<'a>, ContextError> {
    for (text, punct) in Punct::ALL {
        if literal::<_, _, ContextError>(text).parse_next(input).is_ok() {
            return Ok(Raw::Punct(punct));
        }
    }
    Err(winnow::error::ErrMode::Backtrack(ContextError::new()))
}

/// Skips blanks, `% line` comments and `/* block */` comments; an unclosed
/// block comment is an error at its start.
fn skip_blanks(input: &mut Input<'_>) -> Result<(), SyntaxError> {
    loop {
        let _: ModalResult<&str, ContextError> = take_while(0.., char::is_whitespace).parse_next(input);
        let start = input.current_token_start();
        if literal::<_, _, ContextError>("%").parse_next(input).is_ok() {
            let _: ModalResult<&str, ContextError> = take_while(0.., |c| c != '\n').parse_next(input);
        } else if literal::<_, _, ContextError>("/*").parse_next(input).is_ok() {
            let closed: ModalResult<&str, ContextError> = take_until(0.., "*/").parse_next(input);
            if closed.is_err() {
                return Err(SyntaxError::new(start..start + 2, "an unclosed `/*` comment", "`*/` to close it"));
            }
            let _ = literal::<_, _, ContextError>("*/").parse_next(input);
        } else {
            return Ok(());
        }
    }
}

/// Cuts `text` into tokens, ending with [`Tok::End`].
pub fn tokenize(text: &str) -> Result<Vec<Token>, SyntaxError> {
    let mut input = LocatingSlice::new(text);
    let mut tokens = Vec::new();
    loop {
        skip_blanks(&mut input)?;
        let start = input.current_token_start();
        if input.is_empty() {
            tokens.push(Token { tok: Tok::End, span: start..start });
            return Ok(tokens);
        }
        if input.starts_with('"') {
            let rest = &text[start + 1..];
            let Some(len) = rest.find(['"', '\n']).filter(|&at| rest[at..].starts_with('"')) else {
                return Err(SyntaxError::new(start..start + 1, "an unclosed string", "`\"` to close it on its line"));
            };
            let _: ModalResult<&str, ContextError> = take_while(len + 2, |_| true).parse_next(&mut input);
            tokens.push(Token { tok: Tok::Str(rest[..len].to_string()), span: start..start + len + 2 });
            continue;
        }
        let lexed: ModalResult<(Raw<'_>, Range<usize>), ContextError> =
            alt((digits, word, punct)).with_span().parse_next(&mut input);
        let Ok((raw, span)) = lexed else {
            let found = text[start..].chars().next().unwrap_or(' ');
            let end = start + found.len_utf8();
            let expected = match found {
                '\'' => "an expression; strings are written in double quotes, as the message of an assert",
                _ => "a number, a name, an operator or a bracket",
            };
            return Err(SyntaxError::new(start..end, format!("the character {found:?}"), expected));
        };
        let tok = match raw {
            Raw::Digits(digits) => {
                if input.starts_with('.') && !input.starts_with("..") {
                    return Err(SyntaxError::new(
                        span.start..span.end + 1,
                        "a decimal number",
                        "an integer; floats are not part of the supported subset",
                    ));
                }
                match digits.parse::<i64>() {
                    Ok(value) => Tok::Int(value),
                    Err(_) => {
                        return Err(SyntaxError::new(
                            span,
                            format!("the integer {digits}, which is too large"),
                            format!("an integer of at most {}", i64::MAX),
                        ));
                    }
                }
            }
            Raw::Word(word) => match Keyword::ALL.iter().find(|(text, _)| *text == word) {
                Some((_, keyword)) => Tok::Keyword(*keyword),
                None => Tok::Ident(word.to_string()),
            },
            Raw::Punct(punct) => Tok::Punct(punct),
        };
        tokens.push(Token { tok, span });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Tok> {
        tokenize(text).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn operators_take_the_longest_match() {
        assert_eq!(
            kinds("a<->b->c<=d..e"),
            vec![
                Tok::Ident("a".into()),
                Tok::Punct(Punct::Iff),
                Tok::Ident("b".into()),
                Tok::Punct(Punct::Implies),
                Tok::Ident("c".into()),
                Tok::Punct(Punct::Le),
                Tok::Ident("d".into()),
                Tok::Punct(Punct::DotDot),
                Tok::Ident("e".into()),
                Tok::End
            ]
        );
    }

    #[test]
    fn ranges_are_not_decimals_and_comments_are_skipped() {
        assert_eq!(
            kinds("1..9 % to nine\n /* block */ div"),
            vec![Tok::Int(1), Tok::Punct(Punct::DotDot), Tok::Int(9), Tok::Keyword(Keyword::Div), Tok::End]
        );
        assert!(tokenize("1.5").unwrap_err().found.contains("decimal"));
    }

    #[test]
    fn spans_are_byte_offsets() {
        let tokens = tokenize("  x /\\ y").unwrap();
        assert_eq!(tokens[0].span, 2..3);
        assert_eq!(tokens[1].span, 4..6);
        assert_eq!(tokens[3].span, 8..8);
    }

    #[test]
    fn bad_characters_and_huge_numbers_are_errors() {
        let e = tokenize("x @ y").unwrap_err();
        assert_eq!(e.span, 2..3);
        assert!(tokenize("99999999999999999999").unwrap_err().found.contains("too large"));
        assert!(tokenize("/* open").unwrap_err().found.contains("unclosed"));
        assert!(tokenize("é").is_err());
    }
}

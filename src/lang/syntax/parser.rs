//! A Pratt parser over the lexer's tokens, with MiniZinc's precedences
//! (`lib/parser.yxx`): from loosest to tightest `<->`, `-> <-`, `\/ xor`,
//! `/\`, comparisons, `in`, `union diff symdiff`, `intersect`, `..`, `+ -`,
//! `* div mod`; prefix `-` and `not` bind to the atom that follows, and
//! indexing binds tightest. `intersect` right after `union`, `diff` or
//! `symdiff` needs parentheses, as MiniZinc versions read it differently.

use super::lexer::{Keyword, Punct, Tok, Token, tokenize};
use super::{
    BinOp, Definition, Expr, ExprKind, Generator, LetDecl, LetItem, LetType, Span, SyntaxError, TypeExpr, UnOp,
};

/// Deepest nesting of brackets and prefix operators accepted, so that a
/// hostile expression cannot overflow the parser's stack.
const MAX_DEPTH: usize = 200;

/// Deepest syntax tree accepted: a chain `a + b + c + ...` nests one level
/// per operator, and every later pass walks the tree recursively. Longer
/// sums are written with `sum` and arrays; runs of `/\` and `\/` are
/// balanced as they are parsed, so they nest only logarithmically.
pub const MAX_TREE_DEPTH: usize = 400;

/// Parses one expression. `to_file` maps a byte offset in `text` to the
/// offset in the model file, so that every span in the tree, and the span of
/// an error, is a place in the file.
///
/// ```
/// use somaria::lang::syntax::{parse, ExprKind, BinOp};
/// let expr = parse("x + 1 < y", &|o| o + 100).unwrap();
/// let ExprKind::Binary { op, .. } = expr.kind else { panic!() };
/// assert_eq!(op, BinOp::Lt);
/// assert_eq!((expr.span.start, expr.span.end), (100, 109));
/// let error = parse("x + ", &|o| o).unwrap_err();
/// assert_eq!(error.expected, "an expression");
/// ```
pub fn parse(text: &str, to_file: &dyn Fn(usize) -> usize) -> Result<Expr, SyntaxError> {
    let mut parser = Parser::over(text, to_file)?;
    let expr = parser.expr(0)?;
    parser.finish(expr)
}

/// Parses one predicate or function item, `predicate name(params) = body`
/// or `function type: name(params) = body`, with its places mapped to the
/// file as [`parse`] does.
///
/// ```
/// use somaria::lang::syntax::parse_definition;
/// let d = parse_definition("predicate p(array[int] of var int: xs, int: k) = sum(xs) = k", &|o| o).unwrap();
/// assert_eq!((d.name.as_str(), d.params.len(), d.predicate), ("p", 2, true));
/// assert_eq!((d.params[0].0.index.len(), d.params[0].0.var), (1, true));
/// let error = parse_definition("predicate p(var int x) = x > 0", &|o| o).unwrap_err();
/// assert_eq!(error.expected, "`:` and the parameter's name");
/// ```
pub fn parse_definition(text: &str, to_file: &dyn Fn(usize) -> usize) -> Result<Definition, SyntaxError> {
    let mut parser = Parser::over(text, to_file)?;
    let start = parser.span();
    let predicate = match parser.peek() {
        Tok::Ident(word) if word == "predicate" || word == "test" => true,
        Tok::Ident(word) if word == "function" => false,
        _ => return Err(parser.unexpected("`predicate` or `function` to start the item")),
    };
    parser.bump();
    let result = if predicate {
        TypeExpr { var: true, base: "bool".to_string(), set: false, index: Vec::new(), span: start }
    } else {
        let ty = parser.type_expr()?;
        parser.expect(Punct::Colon, "`:` and the function's name")?;
        ty
    };
    let name_span = parser.span();
    let Tok::Ident(name) = parser.peek().clone() else {
        return Err(parser.unexpected("the name of the predicate or function"));
    };
    parser.bump();
    parser.expect(Punct::LParen, "`(` and the parameters")?;
    let mut params = Vec::new();
    if !parser.eat(Punct::RParen) {
        loop {
            let ty = parser.type_expr()?;
            parser.expect(Punct::Colon, "`:` and the parameter's name")?;
            let span = parser.span();
            let Tok::Ident(param) = parser.peek().clone() else {
                return Err(parser.unexpected("the parameter's name"));
            };
            parser.bump();
            params.push((ty, param, span));
            if parser.eat(Punct::RParen) {
                break;
            }
            parser.expect(Punct::Comma, "`,` before another parameter, or `)`")?;
        }
    }
    parser.expect(Punct::Eq, "`=` and the body")?;
    let body = parser.expr(0)?;
    let body = parser.finish(body)?;
    Ok(Definition { name, name_span, result, predicate, params, body })
}

/// `a op b op c ...` for an associative `op`, as a tree of depth log n.
fn balanced(op: BinOp, mut operands: Vec<Expr>) -> Expr {
    if operands.len() == 1 {
        return operands.pop().expect("one operand");
    }
    let right = operands.split_off(operands.len() / 2);
    let (left, right) = (balanced(op, operands), balanced(op, right));
    let span = left.span.to(right.span);
    Expr { kind: ExprKind::Binary { op, left: Box::new(left), right: Box::new(right) }, span }
}

/// The first sub-expression found below `limit` levels, walking without
/// recursion.
fn deeper_than(root: &Expr, limit: usize) -> Option<Span> {
    let mut stack: Vec<(&Expr, usize)> = vec![(root, 1)];
    while let Some((e, depth)) = stack.pop() {
        if depth > limit {
            return Some(e.span);
        }
        stack.extend(children(e).into_iter().map(|child| (child, depth + 1)));
    }
    None
}

/// The direct sub-expressions of an expression.
pub fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) | ExprKind::AllIndices => Vec::new(),
        ExprKind::Index { array, indices } => std::iter::once(array.as_ref()).chain(indices).collect(),
        ExprKind::Unary { operand, .. } => vec![operand],
        ExprKind::Binary { left, right, .. } => vec![left, right],
        ExprKind::If { branches, otherwise } => {
            branches.iter().flat_map(|(c, v)| [c, v]).chain(std::iter::once(otherwise.as_ref())).collect()
        }
        ExprKind::Call { args, .. } => args.iter().collect(),
        ExprKind::GenCall { generators, body, .. } | ExprKind::Comprehension { body, generators } => {
            std::iter::once(body.as_ref())
                .chain(generators.iter().flat_map(|g| std::iter::once(&g.source).chain(g.filter.as_ref())))
                .collect()
        }
        ExprKind::Array(items) | ExprKind::Set(items) => items.iter().collect(),
        ExprKind::Array2d(rows) => rows.iter().flatten().collect(),
        ExprKind::Assert { condition, value, .. } => {
            std::iter::once(condition.as_ref()).chain(value.as_deref()).collect()
        }
        ExprKind::Let { items, body } => items
            .iter()
            .flat_map(|item| -> Vec<&Expr> {
                match item {
                    LetItem::Constraint(c) => vec![c],
                    LetItem::Decl(d) => {
                        let ty = match &d.ty {
                            LetType::Set(e) => Some(e),
                            _ => None,
                        };
                        ty.into_iter().chain(d.value.as_ref()).collect()
                    }
                }
            })
            .chain(std::iter::once(body.as_ref()))
            .collect(),
    }
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    depth: usize,
}

/// How an infix operator binds: its level, and whether `a op b op c` is allowed.
fn infix(tok: &Tok) -> Option<(BinOp, u8, bool)> {
    let op = match tok {
        Tok::Punct(p) => match p {
            Punct::Iff => BinOp::Iff,
            Punct::Implies => BinOp::Implies,
            Punct::ImpliedBy => BinOp::ImpliedBy,
            Punct::Or => BinOp::Or,
            Punct::And => BinOp::And,
            Punct::Eq | Punct::EqEq => BinOp::Eq,
            Punct::Ne => BinOp::Ne,
            Punct::Lt => BinOp::Lt,
            Punct::Le => BinOp::Le,
            Punct::Gt => BinOp::Gt,
            Punct::Ge => BinOp::Ge,
            Punct::DotDot => BinOp::Range,
            Punct::Plus => BinOp::Add,
            Punct::Minus => BinOp::Sub,
            Punct::Star => BinOp::Mul,
            _ => return None,
        },
        Tok::Keyword(k) => match k {
            Keyword::Xor => BinOp::Xor,
            Keyword::In => BinOp::In,
            Keyword::Div => BinOp::Div,
            Keyword::Mod => BinOp::Mod,
            Keyword::Union => BinOp::Union,
            Keyword::Intersect => BinOp::Intersect,
            Keyword::Diff => BinOp::Diff,
            Keyword::Symdiff => BinOp::Symdiff,
            _ => return None,
        },
        _ => return None,
    };
    let (level, chains) = match op {
        BinOp::Iff => (1, true),
        BinOp::Implies | BinOp::ImpliedBy => (2, true),
        BinOp::Or | BinOp::Xor => (3, true),
        BinOp::And => (4, true),
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => (5, false),
        // As MiniZinc 2.9 and later parse them: `intersect` binds tighter
        // than `union`; where MiniZinc 2.8 and earlier, which put the four on
        // one level, would differ, [`Parser::operand`] asks for parentheses.
        BinOp::In => (6, false),
        BinOp::Union | BinOp::Diff | BinOp::Symdiff => (7, true),
        BinOp::Intersect => (8, true),
        BinOp::Range => (9, false),
        BinOp::Add | BinOp::Sub => (10, true),
        BinOp::Mul | BinOp::Div | BinOp::Mod => (11, true),
    };
    Some((op, level, chains))
}

impl Parser {
    /// A parser over `text`'s tokens, their places mapped to the file.
    fn over(text: &str, to_file: &dyn Fn(usize) -> usize) -> Result<Parser, SyntaxError> {
        let map_range = |r: std::ops::Range<usize>| to_file(r.start)..to_file(r.end);
        let tokens: Vec<Token> = tokenize(text)
            .map_err(|e| SyntaxError { span: map_range(e.span.clone()), ..e })?
            .into_iter()
            .map(|t| Token { span: map_range(t.span), tok: t.tok })
            .collect();
        Ok(Parser { tokens, at: 0, depth: 0 })
    }

    /// `expr` if the text ends there and the tree is not too deep.
    fn finish(&self, expr: Expr) -> Result<Expr, SyntaxError> {
        if self.peek() != &Tok::End {
            return Err(self.unexpected("an operator or the end of the expression"));
        }
        if let Some(deep) = deeper_than(&expr, MAX_TREE_DEPTH) {
            return Err(SyntaxError::new(
                deep.start..deep.end,
                format!("an expression nested more than {MAX_TREE_DEPTH} levels deep"),
                "a shallower expression; write long sums and conjunctions with sum(..), forall(..) or an array",
            ));
        }
        Ok(expr)
    }

    /// A parameter or result type: `[var|par] int`, `bool`, an enum name,
    /// `set of int`, or `array[int, ..] of` one of those.
    fn type_expr(&mut self) -> Result<TypeExpr, SyntaxError> {
        let start = self.span();
        let mut index = Vec::new();
        if matches!(self.peek(), Tok::Ident(w) if w == "array") {
            self.bump();
            self.expect(Punct::LBracket, "`[` and the index types of the array")?;
            loop {
                match self.peek().clone() {
                    Tok::Ident(name) => index.push(name),
                    _ => return Err(self.unexpected("an index type: `int` or an enum's name")),
                }
                self.bump();
                if self.eat(Punct::RBracket) {
                    break;
                }
                self.expect(Punct::Comma, "`,` before another index type, or `]`")?;
            }
            if !matches!(self.peek(), Tok::Ident(w) if w == "of") {
                return Err(self.unexpected("`of` and the element type"));
            }
            self.bump();
        }
        let var = self.eat_keyword(Keyword::Var);
        if !var {
            self.eat_keyword(Keyword::Par);
        }
        let set = matches!(self.peek(), Tok::Ident(w) if w == "set");
        if set {
            self.bump();
            if !matches!(self.peek(), Tok::Ident(w) if w == "of") {
                return Err(self.unexpected("`of` and the element type of the set"));
            }
            self.bump();
        }
        let base = match (self.peek().clone(), self.peek_at(1)) {
            (Tok::Ident(name), next) if next != &Tok::Punct(Punct::DotDot) => name,
            _ => {
                return Err(self.unexpected(
                    "a type without a domain: `int`, `bool` or an enum's name (a parameter's domain is written as a \
                     constraint of the body)",
                ));
            }
        };
        self.bump();
        Ok(TypeExpr { var, base, set, index, span: start.to(self.prev_span()) })
    }

    fn peek(&self) -> &Tok {
        &self.tokens[self.at].tok
    }

    fn peek_at(&self, ahead: usize) -> &Tok {
        let last = self.tokens.len() - 1;
        &self.tokens[(self.at + ahead).min(last)].tok
    }

    fn span(&self) -> Span {
        let r = &self.tokens[self.at].span;
        Span { start: r.start, end: r.end }
    }

    fn prev_span(&self) -> Span {
        let r = &self.tokens[self.at.saturating_sub(1)].span;
        Span { start: r.start, end: r.end }
    }

    fn bump(&mut self) -> Token {
        let token = self.tokens[self.at].clone();
        if self.at + 1 < self.tokens.len() {
            self.at += 1;
        }
        token
    }

    fn eat(&mut self, punct: Punct) -> bool {
        if self.peek() == &Tok::Punct(punct) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat_keyword(&mut self, keyword: Keyword) -> bool {
        if self.peek() == &Tok::Keyword(keyword) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn unexpected(&self, expected: impl Into<String>) -> SyntaxError {
        let token = &self.tokens[self.at];
        SyntaxError::new(token.span.clone(), token.tok.describe(), expected)
    }

    fn expect(&mut self, punct: Punct, expected: &str) -> Result<Span, SyntaxError> {
        if self.eat(punct) { Ok(self.prev_span()) } else { Err(self.unexpected(expected)) }
    }

    fn expect_keyword(&mut self, keyword: Keyword, expected: &str) -> Result<(), SyntaxError> {
        if self.eat_keyword(keyword) { Ok(()) } else { Err(self.unexpected(expected)) }
    }

    fn enter(&mut self) -> Result<(), SyntaxError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let token = &self.tokens[self.at];
            return Err(SyntaxError::new(
                token.span.clone(),
                format!("brackets or operators nested more than {MAX_DEPTH} deep"),
                "a shallower expression",
            ));
        }
        Ok(())
    }

    /// An expression whose infix operators all bind at `min_level` or tighter.
    fn expr(&mut self, min_level: u8) -> Result<Expr, SyntaxError> {
        self.operand(min_level, None)
    }

    /// [`Parser::expr`] for the right operand of `after`, when there is one.
    fn operand(&mut self, min_level: u8, after: Option<BinOp>) -> Result<Expr, SyntaxError> {
        self.enter()?;
        let mut left = self.unary()?;
        match self.peek() {
            Tok::Punct(Punct::Slash) => return Err(self.unexpected("an operator; use `div` for integer division")),
            Tok::Punct(Punct::PlusPlus) => {
                let token = &self.tokens[self.at];
                return Err(SyntaxError::new(
                    token.span.clone(),
                    "`++`, MiniZinc's array concatenation, which the subset does not have",
                    "another operator; write the joined array as one literal or comprehension",
                ));
            }
            _ => {}
        }
        while let Some((op, level, chains)) = infix(self.peek()) {
            if level < min_level {
                break;
            }
            if op == BinOp::Intersect
                && let Some(set_op @ (BinOp::Union | BinOp::Diff | BinOp::Symdiff)) = after
            {
                return Err(self.unexpected_intersect(set_op));
            }
            self.bump();
            let right = self.operand(level + 1, Some(op))?;
            if matches!(op, BinOp::And | BinOp::Or) {
                // A run of one associative operator becomes a balanced tree:
                // a generated model's conjunction of 1,000 clues then nests
                // 10 levels deep, not 1,000.
                let mut operands = vec![left, right];
                while let Some((next, next_level, _)) = infix(self.peek())
                    && next == op
                    && next_level == level
                {
                    self.bump();
                    operands.push(self.expr(level + 1)?);
                }
                left = balanced(op, operands);
                continue;
            }
            let span = left.span.to(right.span);
            left = Expr { kind: ExprKind::Binary { op, left: Box::new(left), right: Box::new(right) }, span };
            if !chains
                && let Some((next, next_level, _)) = infix(self.peek())
                && next_level == level
            {
                let token = &self.tokens[self.at];
                return Err(SyntaxError::new(
                    token.span.clone(),
                    format!("`{}` right after a `{}` comparison", next.text(), op.text()),
                    "parentheses: these operators do not chain",
                ));
            }
        }
        self.depth -= 1;
        Ok(left)
    }

    /// `a union b intersect c` (or `diff`, `symdiff`) is
    /// `a union (b intersect c)` in MiniZinc 2.9 and later, and
    /// `(a union b) intersect c` in MiniZinc 2.8 and earlier (Debian 12's is
    /// 2.6.4): two sets, so parentheses must say which is meant.
    fn unexpected_intersect(&self, set_op: BinOp) -> SyntaxError {
        let token = &self.tokens[self.at];
        let op = set_op.text();
        SyntaxError::new(
            token.span.clone(),
            format!("`intersect` right after a `{op}`, without parentheses"),
            format!(
                "parentheses that say which is meant: MiniZinc 2.9 and later read `a {op} b intersect c` as \
                 `a {op} (b intersect c)`, MiniZinc 2.8 and earlier as `(a {op} b) intersect c`"
            ),
        )
    }

    fn unary(&mut self) -> Result<Expr, SyntaxError> {
        let start = self.span();
        let op = match self.peek() {
            Tok::Punct(Punct::Minus) => UnOp::Neg,
            Tok::Keyword(Keyword::Not) => UnOp::Not,
            Tok::Punct(Punct::Plus) => {
                self.bump();
                self.enter()?;
                let operand = self.unary()?;
                self.depth -= 1;
                return Ok(Expr { span: start.to(operand.span), kind: operand.kind });
            }
            _ => return self.postfix(),
        };
        self.bump();
        self.enter()?;
        let operand = self.unary()?;
        self.depth -= 1;
        let span = start.to(operand.span);
        Ok(Expr { kind: ExprKind::Unary { op, operand: Box::new(operand) }, span })
    }

    fn postfix(&mut self) -> Result<Expr, SyntaxError> {
        let mut expr = self.primary()?;
        while self.peek() == &Tok::Punct(Punct::LBracket) {
            self.bump();
            let indices = self.indices()?;
            if indices.is_empty() {
                return Err(SyntaxError::new(
                    self.prev_span().start..self.prev_span().end,
                    "`]`",
                    "an index between the brackets",
                ));
            }
            let span = expr.span.to(self.prev_span());
            expr = Expr { kind: ExprKind::Index { array: Box::new(expr), indices }, span };
        }
        Ok(expr)
    }

    /// The indices of an array access up to `]`, which is consumed: each
    /// an expression, or `..` alone for a whole dimension (a slice).
    fn indices(&mut self) -> Result<Vec<Expr>, SyntaxError> {
        let mut items = Vec::new();
        if self.eat(Punct::RBracket) {
            return Ok(items);
        }
        loop {
            let start = self.span();
            let whole = self.peek() == &Tok::Punct(Punct::DotDot)
                && matches!(self.peek_at(1), Tok::Punct(Punct::Comma | Punct::RBracket));
            if whole {
                self.bump();
                items.push(Expr { kind: ExprKind::AllIndices, span: start });
            } else {
                items.push(self.expr(0)?);
            }
            if self.eat(Punct::RBracket) {
                return Ok(items);
            }
            if !self.eat(Punct::Comma) {
                return Err(self.unexpected("`,` before another index, or `]`"));
            }
        }
    }

    /// Comma-separated expressions up to `close`, which is consumed.
    fn list(&mut self, close: Punct, what: &str) -> Result<Vec<Expr>, SyntaxError> {
        let mut items = Vec::new();
        if self.eat(close) {
            return Ok(items);
        }
        loop {
            items.push(self.expr(0)?);
            if self.eat(close) {
                return Ok(items);
            }
            if !self.eat(Punct::Comma) {
                return Err(self.unexpected(format!("`,` before another {what}, or `{}`", close.text())));
            }
        }
    }

    fn primary(&mut self) -> Result<Expr, SyntaxError> {
        let start = self.span();
        let token = self.bump();
        let kind = match token.tok {
            Tok::Int(n) => ExprKind::Int(n),
            Tok::Keyword(Keyword::True) => ExprKind::Bool(true),
            Tok::Keyword(Keyword::False) => ExprKind::Bool(false),
            Tok::Keyword(Keyword::If) => return self.if_then_else(start),
            Tok::Keyword(Keyword::Let) => return self.let_in(start),
            Tok::Ident(name) => {
                if self.peek() == &Tok::Punct(Punct::LParen) {
                    return self.call(name, start);
                }
                ExprKind::Name(name)
            }
            Tok::Punct(Punct::LParen) => {
                let inner = self.expr(0)?;
                let end = self.expect(Punct::RParen, "`)` to close the `(`")?;
                return Ok(Expr { kind: inner.kind, span: start.to(end) });
            }
            Tok::Punct(Punct::LBracket) => return self.array(start),
            Tok::Punct(Punct::OpenTable) => return self.table(start),
            Tok::Punct(Punct::LBrace) => ExprKind::Set(self.list(Punct::RBrace, "element")?),
            Tok::Punct(Punct::Slash) => {
                return Err(SyntaxError::new(token.span, "`/`", "an expression; use `div` for integer division"));
            }
            Tok::Str(_) => {
                return Err(SyntaxError::new(
                    token.span,
                    token.tok.describe(),
                    "an expression; a string may only be the message of an assert",
                ));
            }
            _ => {
                self.at -= usize::from(token.tok != Tok::End);
                return Err(self.unexpected("an expression"));
            }
        };
        Ok(Expr { kind, span: start.to(self.prev_span()) })
    }

    fn if_then_else(&mut self, start: Span) -> Result<Expr, SyntaxError> {
        let mut branches = Vec::new();
        loop {
            let condition = self.expr(0)?;
            self.expect_keyword(Keyword::Then, "`then`")?;
            let value = self.expr(0)?;
            branches.push((condition, value));
            if self.eat_keyword(Keyword::Elseif) {
                continue;
            }
            if self.eat_keyword(Keyword::Else) {
                break;
            }
            return Err(self.unexpected("`elseif` or `else` (every `if` needs an `else`)"));
        }
        let otherwise = self.expr(0)?;
        self.expect_keyword(Keyword::Endif, "`endif`")?;
        let span = start.to(self.prev_span());
        Ok(Expr { kind: ExprKind::If { branches, otherwise: Box::new(otherwise) }, span })
    }

    /// `let { items } in body`; the `let` is consumed. Items are separated
    /// by `;` or `,`, as MiniZinc allows, with one more allowed at the end.
    fn let_in(&mut self, start: Span) -> Result<Expr, SyntaxError> {
        self.expect(Punct::LBrace, "`{` and the declarations of the `let`")?;
        let mut items = Vec::new();
        while !self.eat(Punct::RBrace) {
            if self.eat_keyword(Keyword::Constraint) {
                items.push(LetItem::Constraint(self.expr(0)?));
            } else {
                items.push(LetItem::Decl(self.let_decl()?));
            }
            if self.eat(Punct::RBrace) {
                break;
            }
            if !self.eat(Punct::Semicolon) && !self.eat(Punct::Comma) {
                return Err(self.unexpected("`;` before the next declaration, or `}` to close the `let`"));
            }
        }
        self.expect_keyword(Keyword::In, "`in` and the value of the `let`")?;
        let body = self.expr(0)?;
        let span = start.to(body.span);
        Ok(Expr { kind: ExprKind::Let { items, body: Box::new(body) }, span })
    }

    /// `var 1..9: t`, `var int: s = e`, `int: k = e`, `bool: b = e`.
    fn let_decl(&mut self) -> Result<LetDecl, SyntaxError> {
        let start = self.span();
        let var = self.eat_keyword(Keyword::Var);
        if !var {
            self.eat_keyword(Keyword::Par);
        }
        let ty = match (self.peek(), self.peek_at(1)) {
            (Tok::Ident(name), Tok::Punct(Punct::Colon)) if name == "int" => LetType::Int,
            (Tok::Ident(name), Tok::Punct(Punct::Colon)) if name == "bool" => LetType::Bool,
            (Tok::Ident(name), _) if name == "array" => {
                return Err(self.unexpected("a single local such as `var 1..9: t`; local arrays are not supported"));
            }
            (Tok::Punct(Punct::RBrace), _) | (Tok::End, _) => {
                return Err(self.unexpected("a declaration such as `var 1..9: t` or `int: k = n div 2`"));
            }
            _ => LetType::Set(self.expr(0)?),
        };
        if !matches!(ty, LetType::Set(_)) {
            self.bump();
        }
        self.expect(Punct::Colon, "`:` and the name of the local")?;
        let name_span = self.span();
        let name = match self.bump().tok {
            Tok::Ident(name) => name,
            tok => {
                self.at -= usize::from(tok != Tok::End);
                return Err(self.unexpected("the name of the local"));
            }
        };
        let value = if self.eat(Punct::Eq) { Some(self.expr(0)?) } else { None };
        let end = value.as_ref().map_or(name_span, |v| v.span);
        Ok(LetDecl { name, span: start.to(end), var, ty, value })
    }

    /// Whether the tokens ahead read `name (, name)* in`.
    fn generators_ahead(&self) -> bool {
        let mut ahead = 0;
        loop {
            if !matches!(self.peek_at(ahead), Tok::Ident(_)) {
                return false;
            }
            match self.peek_at(ahead + 1) {
                Tok::Keyword(Keyword::In) => return true,
                Tok::Punct(Punct::Comma) => ahead += 2,
                _ => return false,
            }
        }
    }

    fn generators(&mut self, close: &[Punct]) -> Result<Vec<Generator>, SyntaxError> {
        let mut generators = Vec::new();
        loop {
            let mut names = Vec::new();
            loop {
                let span = self.span();
                match self.bump().tok {
                    Tok::Ident(name) => names.push((name, span)),
                    _ => {
                        self.at -= 1;
                        return Err(self.unexpected("a loop variable name"));
                    }
                }
                if self.peek() == &Tok::Punct(Punct::Comma) && matches!(self.peek_at(1), Tok::Ident(_)) {
                    self.bump();
                    continue;
                }
                break;
            }
            self.expect_keyword(Keyword::In, "`in` after the loop variables")?;
            let source = self.expr(0)?;
            let filter = if self.eat_keyword(Keyword::Where) { Some(self.expr(0)?) } else { None };
            generators.push(Generator { names, source, filter });
            if close.iter().any(|c| self.peek() == &Tok::Punct(*c)) {
                return Ok(generators);
            }
            if !self.eat(Punct::Comma) {
                let closers: Vec<String> = close.iter().map(|c| format!("`{}`", c.text())).collect();
                return Err(
                    self.unexpected(format!("`where`, `,` before another generator, or {}", closers.join(" or ")))
                );
            }
        }
    }

    /// `assert(condition, "message")` or `assert(condition, "message",
    /// value)`; the `(` is consumed.
    fn assert(&mut self, name_span: Span) -> Result<Expr, SyntaxError> {
        let condition = self.expr(0)?;
        self.expect(Punct::Comma, "`,` and the message of the assertion, in double quotes")?;
        let Tok::Str(message) = self.peek().clone() else {
            return Err(self.unexpected("the message of the assertion, in double quotes"));
        };
        self.bump();
        let value = if self.eat(Punct::Comma) { Some(Box::new(self.expr(0)?)) } else { None };
        let end = self.expect(Punct::RParen, "`)` to close the assert, or `,` and the value it guards")?;
        let kind = ExprKind::Assert { condition: Box::new(condition), message, value };
        Ok(Expr { kind, span: name_span.to(end) })
    }

    fn call(&mut self, name: String, name_span: Span) -> Result<Expr, SyntaxError> {
        self.bump(); // (
        if name == "assert" {
            return self.assert(name_span);
        }
        if self.generators_ahead() {
            let generators = self.generators(&[Punct::RParen])?;
            self.bump(); // )
            self.expect(Punct::LParen, &format!("`(` and the expression that `{name}` ranges over"))?;
            let body = self.expr(0)?;
            let end = self.expect(Punct::RParen, "`)` to close the generator's expression")?;
            let span = name_span.to(end);
            return Ok(Expr { kind: ExprKind::GenCall { name, name_span, generators, body: Box::new(body) }, span });
        }
        let args = self.list(Punct::RParen, "argument")?;
        let span = name_span.to(self.prev_span());
        Ok(Expr { kind: ExprKind::Call { name, name_span, args }, span })
    }

    fn array(&mut self, start: Span) -> Result<Expr, SyntaxError> {
        if self.eat(Punct::RBracket) {
            return Ok(Expr { kind: ExprKind::Array(Vec::new()), span: start.to(self.prev_span()) });
        }
        let first = self.expr(0)?;
        if self.eat(Punct::Bar) {
            let generators = self.generators(&[Punct::RBracket])?;
            self.bump(); // ]
            let span = start.to(self.prev_span());
            return Ok(Expr { kind: ExprKind::Comprehension { body: Box::new(first), generators }, span });
        }
        let mut items = vec![first];
        loop {
            if self.eat(Punct::RBracket) {
                break;
            }
            if !self.eat(Punct::Comma) {
                return Err(self.unexpected("`,` before another element, `|` before generators, or `]`"));
            }
            if self.eat(Punct::RBracket) {
                break;
            }
            items.push(self.expr(0)?);
        }
        Ok(Expr { kind: ExprKind::Array(items), span: start.to(self.prev_span()) })
    }

    /// `[| a, b | c, d |]`; the `[|` is consumed.
    fn table(&mut self, start: Span) -> Result<Expr, SyntaxError> {
        let mut rows: Vec<Vec<Expr>> = Vec::new();
        if self.eat(Punct::CloseTable) {
            return Ok(Expr { kind: ExprKind::Array2d(rows), span: start.to(self.prev_span()) });
        }
        let mut row = Vec::new();
        loop {
            let row_start = self.span();
            row.push(self.expr(0)?);
            if self.eat(Punct::Comma) {
                // MiniZinc allows a comma before the bar that ends a row.
                if !matches!(self.peek(), Tok::Punct(Punct::Bar | Punct::CloseTable)) {
                    continue;
                }
            }
            let closing = self.eat(Punct::CloseTable);
            if !closing && !self.eat(Punct::Bar) {
                return Err(self.unexpected("`,` before another element, `|` to end the row, or `|]`"));
            }
            if let Some(first) = rows.first()
                && first.len() != row.len()
            {
                return Err(SyntaxError::new(
                    row_start.start..self.prev_span().end,
                    format!("a row of {} elements after a first row of {}", row.len(), first.len()),
                    "every row of a `[| .. |]` table to have the same length",
                ));
            }
            rows.push(std::mem::take(&mut row));
            // `| |]` ends the table too.
            if closing || self.eat(Punct::CloseTable) {
                break;
            }
        }
        Ok(Expr { kind: ExprKind::Array2d(rows), span: start.to(self.prev_span()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(n) => n.to_string(),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::Name(n) => n.clone(),
            ExprKind::AllIndices => "..".to_string(),
            ExprKind::Index { array, indices } => {
                format!("{}[{}]", shape(array), indices.iter().map(shape).collect::<Vec<_>>().join(","))
            }
            ExprKind::Unary { op, operand } => format!("({op:?} {})", shape(operand)),
            ExprKind::Binary { op, left, right } => format!("({} {} {})", shape(left), op.text(), shape(right)),
            ExprKind::If { branches, otherwise } => {
                let parts: Vec<String> = branches.iter().map(|(c, v)| format!("{}?{}", shape(c), shape(v))).collect();
                format!("if({}:{})", parts.join(";"), shape(otherwise))
            }
            ExprKind::Call { name, args, .. } => {
                format!("{name}({})", args.iter().map(shape).collect::<Vec<_>>().join(","))
            }
            ExprKind::GenCall { name, generators, body, .. } => {
                format!("{name}<{}>({})", gens(generators), shape(body))
            }
            ExprKind::Array(items) => format!("[{}]", items.iter().map(shape).collect::<Vec<_>>().join(",")),
            ExprKind::Array2d(rows) => {
                let rows: Vec<String> =
                    rows.iter().map(|r| r.iter().map(shape).collect::<Vec<_>>().join(",")).collect();
                format!("[|{}|]", rows.join("|"))
            }
            ExprKind::Comprehension { body, generators } => format!("[{} | {}]", shape(body), gens(generators)),
            ExprKind::Set(items) => format!("{{{}}}", items.iter().map(shape).collect::<Vec<_>>().join(",")),
            ExprKind::Assert { condition, message, value } => {
                let value = value.as_ref().map(|v| format!(", {}", shape(v))).unwrap_or_default();
                format!("assert({}, {message:?}{value})", shape(condition))
            }
            ExprKind::Let { items, body } => {
                let parts: Vec<String> = items
                    .iter()
                    .map(|item| match item {
                        LetItem::Constraint(c) => format!("constraint {}", shape(c)),
                        LetItem::Decl(d) => {
                            let ty = match &d.ty {
                                LetType::Int => "int".to_string(),
                                LetType::Bool => "bool".to_string(),
                                LetType::Set(e) => shape(e),
                            };
                            let value = d.value.as_ref().map(|v| format!(" = {}", shape(v))).unwrap_or_default();
                            format!("{}{ty}: {}{value}", if d.var { "var " } else { "" }, d.name)
                        }
                    })
                    .collect();
                format!("let{{{}}}({})", parts.join("; "), shape(body))
            }
        }
    }

    fn gens(generators: &[Generator]) -> String {
        generators
            .iter()
            .map(|g| {
                let names: Vec<&str> = g.names.iter().map(|(n, _)| n.as_str()).collect();
                let filter = g.filter.as_ref().map(|f| format!(" where {}", shape(f))).unwrap_or_default();
                format!("{} in {}{filter}", names.join(","), shape(&g.source))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn p(text: &str) -> String {
        shape(&parse(text, &|o| o).unwrap_or_else(|e| panic!("{text}: {e:?}")))
    }

    fn fails(text: &str) -> SyntaxError {
        parse(text, &|o| o).unwrap_err()
    }

    #[test]
    fn precedence_follows_minizinc() {
        assert_eq!(p("a + b * c"), "(a + (b * c))");
        assert_eq!(p("a - b - c"), "((a - b) - c)");
        assert_eq!(p("a /\\ b \\/ c"), "((a /\\ b) \\/ c)");
        assert_eq!(p("a -> b <-> c"), "((a -> b) <-> c)");
        assert_eq!(p("x < y /\\ y < z"), "((x < y) /\\ (y < z))");
        assert_eq!(p("not a /\\ b"), "((Not a) /\\ b)");
        assert_eq!(p("-x * y"), "((Neg x) * y)");
        assert_eq!(p("x div 2 mod 3"), "((x div 2) mod 3)");
        assert_eq!(p("x in 1..n+1"), "(x in (1 .. (n + 1)))");
        assert_eq!(p("a xor b /\\ c"), "(a xor (b /\\ c))");
        assert_eq!(p("a == b"), "(a = b)");
    }

    #[test]
    fn calls_generators_and_arrays() {
        assert_eq!(
            p("forall(i, j in 1..n where i < j)(q[i] != q[j])"),
            "forall<i,j in (1 .. n) where (i < j)>((q[i] != q[j]))"
        );
        assert_eq!(p("sum(i in 1..3, j in 1..i)(x[i, j])"), "sum<i in (1 .. 3); j in (1 .. i)>(x[i,j])");
        assert_eq!(p("forall(q)"), "forall(q)");
        assert_eq!(p("alldifferent([x, y, z])"), "alldifferent([x,y,z])");
        assert_eq!(p("[x[i] | i in 1..3 where i != 2]"), "[x[i] | i in (1 .. 3) where (i != 2)]");
        assert_eq!(p("table([x, y], [| 1, 2 | 3, 4 |])"), "table([x,y],[|1,2|3,4|])");
        assert_eq!(p("[| 1, 2, | 3, 4, |]"), "[|1,2|3,4|]");
        assert_eq!(p("{1, 3}"), "{1,3}");
        assert_eq!(p("[]"), "[]");
        assert_eq!(p("if a then 1 elseif b then 2 else 3 endif"), "if(a?1;b?2:3)");
        assert_eq!(p("m[i][j]"), "m[i][j]");
        assert_eq!(p("assert(n > 0, \"n is positive\")"), "assert((n > 0), \"n is positive\")");
        assert_eq!(p("assert(n > 0, \"\", n - 1) + 1"), "(assert((n > 0), \"\", (n - 1)) + 1)");
        assert!(fails("assert(n > 0)").expected.contains("message"));
        assert!(fails("assert(n > 0, n)").expected.contains("double quotes"));
        assert!(fails("x = \"a\"").expected.contains("message of an assert"));
        assert!(fails("assert(n > 0, \"open)").found.contains("unclosed"));
    }

    #[test]
    fn errors_say_what_was_found_and_expected() {
        let e = fails("x + ");
        assert_eq!((e.found.as_str(), e.expected.as_str()), ("the end of the expression", "an expression"));
        assert_eq!(e.span, 4..4);
        let e = fails("(x + 1");
        assert_eq!(e.expected, "`)` to close the `(`");
        let e = fails("a < b < c");
        assert!(e.expected.contains("do not chain"), "{e:?}");
        assert_eq!(e.span, 6..7);
        let e = fails("x / 2");
        assert!(e.expected.contains("div"));
        let e = fails("if a then b endif");
        assert!(e.expected.contains("else"));
        let e = fails("[| 1, 2 | 3 |]");
        assert!(e.found.contains("a row of 1"));
        let e = fails("x y");
        assert_eq!(e.found, "`y`");
        let e = fails("forall(i in 1..3)");
        assert!(e.expected.contains("ranges over"));
    }

    #[test]
    fn lets_take_declarations_constraints_and_a_body_that_reaches_far() {
        assert_eq!(
            p("let { var 1..9: t; constraint t * t = x, int: k = n div 2; } in t + k = y /\\ b"),
            "let{var (1 .. 9): t; constraint ((t * t) = x); int: k = (n div 2)}((((t + k) = y) /\\ b))"
        );
        assert_eq!(p("let { var bool: b; par bool: c = true } in b"), "let{var bool: b; bool: c = true}(b)");
        assert_eq!(p("x + (let { var int: s = x } in s)"), "(x + let{var int: s = x}(s))");
        assert_eq!(fails("let { var 1..9 t } in t").expected, "`:` and the name of the local");
        assert_eq!(fails("let { var 1..9: 3 } in t").expected, "the name of the local");
        assert_eq!(fails("let var 1..9: t in t").expected, "`{` and the declarations of the `let`");
        assert_eq!(fails("let { int: k = 1 } k").expected, "`in` and the value of the `let`");
    }

    #[test]
    fn long_chains_are_refused_not_a_stack_overflow() {
        let chain = vec!["x"; 1000].join(" + ");
        assert!(fails(&chain).found.contains("nested more than"));
        let fine = vec!["x"; 300].join(" /\\ ");
        assert!(parse(&fine, &|o| o).is_ok());
    }

    #[test]
    fn long_conjunctions_and_disjunctions_parse_as_balanced_trees() {
        for op in [" /\\ ", " \\/ "] {
            let chain = (0..5000).map(|i| format!("x{i}")).collect::<Vec<_>>().join(op);
            let tree = parse(&chain, &|o| o).unwrap();
            assert!(deeper_than(&tree, 14).is_none(), "5,000 operands nest about 13 deep");
            // Every operand is kept, in order.
            let mut names = Vec::new();
            let mut stack = vec![&tree];
            while let Some(e) = stack.pop() {
                match &e.kind {
                    ExprKind::Name(n) => names.push(n.clone()),
                    _ => stack.extend(children(e).into_iter().rev()),
                }
            }
            assert_eq!(names, (0..5000).map(|i| format!("x{i}")).collect::<Vec<_>>());
        }
        // Other operators at the same level still associate to the left.
        assert_eq!(p("a \\/ b xor c \\/ d"), "(((a \\/ b) xor c) \\/ d)");
    }

    #[test]
    fn deep_nesting_is_refused_not_a_stack_overflow() {
        let deep = format!("{}x{}", "(".repeat(5000), ")".repeat(5000));
        assert!(fails(&deep).found.contains("nested more than"));
        let negations = format!("{}x", "-".repeat(5000));
        assert!(parse(&negations, &|o| o).is_err());
    }
}

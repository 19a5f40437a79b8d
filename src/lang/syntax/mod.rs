//! The MiniZinc expression subset: tokens, the syntax tree with the place of
//! every node in the model file, and the parser.

mod lexer;
#[cfg(test)]
mod operator_table;
mod parser;

pub use parser::{children, parse, parse_definition};

/// A place in the model file, in byte offsets.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span from the start of `self` to the end of `other`.
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start, end: other.end.max(self.start) }
    }
}

/// A refused expression: where, what was found and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where, in the offsets of the text given to the lexer until
    /// [`parse`] maps them to the file.
    pub span: std::ops::Range<usize>,
    /// What was found.
    pub found: String,
    /// What was expected.
    pub expected: String,
}

impl SyntaxError {
    fn new(span: std::ops::Range<usize>, found: impl Into<String>, expected: impl Into<String>) -> SyntaxError {
        SyntaxError { span, found: found.into(), expected: expected.into() }
    }
}

/// An expression and its place.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

/// The expressions of the subset.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A parameter, variable, enum value, enum type or loop variable.
    Name(String),
    /// `a[i]`, `a[i, j]`.
    Index {
        /// The array.
        array: Box<Expr>,
        /// One index per dimension.
        indices: Vec<Expr>,
    },
    /// `-e` or `not e`.
    Unary {
        /// The operator.
        op: UnOp,
        /// Its operand.
        operand: Box<Expr>,
    },
    /// `a op b`.
    Binary {
        /// The operator.
        op: BinOp,
        /// Left operand.
        left: Box<Expr>,
        /// Right operand.
        right: Box<Expr>,
    },
    /// `if c then a elseif d then b else e endif`.
    If {
        /// Each condition with its value, in order.
        branches: Vec<(Expr, Expr)>,
        /// The `else` value.
        otherwise: Box<Expr>,
    },
    /// `f(a, b)`.
    Call {
        /// The function.
        name: String,
        /// Where the function's name is.
        name_span: Span,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `forall(i in 1..n where c)(body)`, and likewise `exists` and `sum`.
    GenCall {
        /// The function.
        name: String,
        /// Where the function's name is.
        name_span: Span,
        /// The generators, outermost first.
        generators: Vec<Generator>,
        /// The expression under the generators.
        body: Box<Expr>,
    },
    /// `[a, b, c]`.
    Array(Vec<Expr>),
    /// `[| a, b | c, d |]`: rows of equal length.
    Array2d(Vec<Vec<Expr>>),
    /// `[e | i in 1..n where c]`.
    Comprehension {
        /// The element expression.
        body: Box<Expr>,
        /// The generators, outermost first.
        generators: Vec<Generator>,
    },
    /// `{a, b, c}`.
    Set(Vec<Expr>),
    /// `..` alone as an index, `a[i, ..]`: the whole index set of its
    /// dimension, a slice.
    AllIndices,
    /// `let { items } in body`: local parameters, variables and
    /// constraints, the constraints holding where the `let` stands.
    Let {
        /// The declarations and constraints, in order.
        items: Vec<LetItem>,
        /// The value.
        body: Box<Expr>,
    },
    /// `assert(condition, "message")`, true, or `assert(condition,
    /// "message", value)`, the value: a load error with the message when
    /// the fixed condition is false.
    Assert {
        /// The fixed condition.
        condition: Box<Expr>,
        /// What the model's author says when it fails.
        message: String,
        /// The value, in the three-argument form.
        value: Option<Box<Expr>>,
    },
}

/// One item of a `let`: a local declaration or a local constraint.
#[derive(Clone, Debug, PartialEq)]
pub enum LetItem {
    /// `var 1..9: t`, `var int: s = e`, `int: k = e`.
    Decl(LetDecl),
    /// `constraint c`.
    Constraint(Expr),
}

/// A local declaration of a `let`.
#[derive(Clone, Debug, PartialEq)]
pub struct LetDecl {
    /// The local's name.
    pub name: String,
    /// Where the declaration is, from its type to its value.
    pub span: Span,
    /// A decision variable (`var`) rather than a parameter.
    pub var: bool,
    /// The declared type.
    pub ty: LetType,
    /// The defining expression, if any.
    pub value: Option<Expr>,
}

/// The type of a local declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum LetType {
    /// `int`.
    Int,
    /// `bool`.
    Bool,
    /// A fixed set such as `1..9`, `{1, 3}` or an enum name.
    Set(Expr),
}

/// A user-defined predicate or function, one MiniZinc item:
/// `predicate p(array[int] of var int: xs, int: k) = body` or
/// `function var int: f(var int: x) = body`.
#[derive(Clone, Debug, PartialEq)]
pub struct Definition {
    /// Its name.
    pub name: String,
    /// Where its name is.
    pub name_span: Span,
    /// The declared result: `var bool` for a predicate.
    pub result: TypeExpr,
    /// Whether it was declared with `predicate`.
    pub predicate: bool,
    /// The parameters: type, name and the name's place, in order.
    pub params: Vec<(TypeExpr, String, Span)>,
    /// The body.
    pub body: Expr,
}

/// A type as a predicate's parameter or a function's result declares it:
/// `var int`, `bool`, `set of int`, `array[int, int] of var Colour`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeExpr {
    /// Over decision variables (`var`) rather than fixed.
    pub var: bool,
    /// The element type: `int`, `bool` or an enum's name.
    pub base: String,
    /// `set of` the base.
    pub set: bool,
    /// For an array, the type of each dimension's index: `int` or an
    /// enum's name.
    pub index: Vec<String>,
    /// Where the type is written.
    pub span: Span,
}

/// `i, j in source where filter`.
#[derive(Clone, Debug, PartialEq)]
pub struct Generator {
    /// The loop variables, each ranging over the whole source.
    pub names: Vec<(String, Span)>,
    /// A range, set, enum or array to iterate over.
    pub source: Expr,
    /// The condition each binding must meet, tested after this generator's
    /// variables are bound.
    pub filter: Option<Expr>,
}

/// Prefix operators.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// Arithmetic negation.
    Neg,
    /// Boolean negation.
    Not,
}

/// Infix operators.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `div` (truncating)
    Div,
    /// `mod` (truncating)
    Mod,
    /// `=` or `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `/\`
    And,
    /// `\/`
    Or,
    /// `->`
    Implies,
    /// `<-`
    ImpliedBy,
    /// `<->`
    Iff,
    /// `xor`
    Xor,
    /// `in` (set membership)
    In,
    /// `..` (a range)
    Range,
    /// `union`
    Union,
    /// `intersect`
    Intersect,
    /// `diff`
    Diff,
    /// `symdiff`
    Symdiff,
}

impl BinOp {
    /// The operator as written.
    pub fn text(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "div",
            BinOp::Mod => "mod",
            BinOp::Eq => "=",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "/\\",
            BinOp::Or => "\\/",
            BinOp::Implies => "->",
            BinOp::ImpliedBy => "<-",
            BinOp::Iff => "<->",
            BinOp::Xor => "xor",
            BinOp::In => "in",
            BinOp::Range => "..",
            BinOp::Union => "union",
            BinOp::Intersect => "intersect",
            BinOp::Diff => "diff",
            BinOp::Symdiff => "symdiff",
        }
    }

    /// Whether the operator combines two fixed sets into a set.
    pub fn is_set_operation(self) -> bool {
        matches!(self, BinOp::Union | BinOp::Intersect | BinOp::Diff | BinOp::Symdiff)
    }

    /// Whether the operator compares two values.
    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
    }
}

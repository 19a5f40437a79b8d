//! Reading a `kind = "csp"` model: the TOML tables, each expression parsed
//! with its place in the file, names resolved and types checked, parameters
//! evaluated, and the constraints unrolled.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::ops::Range;

use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::builtins;
use super::check::{Checker, Fault, Named, Scope};
use super::functions;
use super::ir::GridGlobal;
use super::lower::{Context, Lowerer};
use super::model::{
    ArrayValue, Base, Constraint, EnumDecl, Function, IntSet, MAX_ABS, Model, Objective, Param, Sense, Shape, Type,
    Value, VarDecl,
};
use super::syntax::{self, Expr, ExprKind, Span};
use super::{Group, Program};
use crate::model::{LoadError, Problem, Source, Spanned};

/// The most scalar decision variables a model may declare.
pub const MAX_SCALARS: u64 = 1_000_000;

/// `[enums]`: each name with its value names, all with their places.
type EnumTable = BTreeMap<Spanned<String>, Spanned<Vec<Spanned<String>>>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CspFile {
    #[allow(dead_code)]
    kind: String,
    title: Option<String>,
    #[allow(dead_code)]
    description: Option<String>,
    /// The puzz.link genre a genre template is of (read by `genres`).
    #[allow(dead_code)]
    genre: Option<String>,
    show: Option<Spanned<Vec<Spanned<String>>>>,
    minimize: Option<Spanned<String>>,
    maximize: Option<Spanned<String>>,
    params: Option<BTreeMap<Spanned<String>, Spanned<ParamValue>>>,
    enums: Option<EnumTable>,
    vars: Option<BTreeMap<Spanned<String>, Spanned<VarSpec>>>,
    constraint: Option<Vec<ConstraintEntry>>,
    predicate: Option<Vec<PredicateEntry>>,
    draw: Option<super::drawing::DrawEntry>,
    design: Option<super::design::DesignEntry>,
    hints: Option<super::hints::HintsEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConstraintEntry {
    name: Option<Spanned<String>>,
    expr: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PredicateEntry {
    def: Spanned<String>,
}

/// A parameter's TOML value, before evaluation.
pub(super) enum ParamValue {
    Int(i64),
    Bool(bool),
    Expr(String),
    Array(Vec<Spanned<ParamValue>>),
    Other(String),
}

impl<'de> Deserialize<'de> for ParamValue {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ParamValue;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an integer, a Boolean, an array or an expression string")
            }
            fn visit_i64<E>(self, v: i64) -> Result<ParamValue, E> {
                Ok(ParamValue::Int(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<ParamValue, E> {
                Ok(i64::try_from(v).map_or_else(
                    |_| ParamValue::Other(format!("the integer {v}, beyond -2^63..2^63 - 1")),
                    ParamValue::Int,
                ))
            }
            fn visit_i128<E>(self, v: i128) -> Result<ParamValue, E> {
                Ok(i64::try_from(v).map_or_else(
                    |_| ParamValue::Other(format!("the integer {v}, beyond -2^63..2^63 - 1")),
                    ParamValue::Int,
                ))
            }
            fn visit_u128<E>(self, v: u128) -> Result<ParamValue, E> {
                Ok(i64::try_from(v).map_or_else(
                    |_| ParamValue::Other(format!("the integer {v}, beyond -2^63..2^63 - 1")),
                    ParamValue::Int,
                ))
            }
            fn visit_bool<E>(self, v: bool) -> Result<ParamValue, E> {
                Ok(ParamValue::Bool(v))
            }
            fn visit_f64<E>(self, v: f64) -> Result<ParamValue, E> {
                Ok(ParamValue::Other(format!("the float {v}")))
            }
            fn visit_str<E>(self, v: &str) -> Result<ParamValue, E> {
                Ok(ParamValue::Expr(v.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ParamValue, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Spanned<ParamValue>>()? {
                    items.push(item);
                }
                Ok(ParamValue::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ParamValue, A::Error> {
                while map.next_key::<IgnoredAny>()?.is_some() {
                    map.next_value::<IgnoredAny>()?;
                }
                Ok(ParamValue::Other("a table".to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// A variable's TOML value: a domain string, or a table with `index` and `domain`.
enum VarSpec {
    Scalar(String),
    Array {
        index: Option<Vec<Spanned<String>>>,
        domain: Option<Spanned<String>>,
        /// The defining expression of a defined variable.
        define: Option<Spanned<String>>,
        /// The fixed entries of a partly given array, `"_"` where unknown.
        given: Option<Spanned<ParamValue>>,
        unknown: Vec<String>,
    },
    Other(String),
}

impl<'de> Deserialize<'de> for VarSpec {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = VarSpec;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a domain string or a table with `index` and `domain`")
            }
            fn visit_str<E>(self, v: &str) -> Result<VarSpec, E> {
                Ok(VarSpec::Scalar(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<VarSpec, E> {
                Ok(VarSpec::Other(format!("the number {v}")))
            }
            fn visit_u64<E>(self, v: u64) -> Result<VarSpec, E> {
                Ok(VarSpec::Other(format!("the number {v}")))
            }
            fn visit_f64<E>(self, v: f64) -> Result<VarSpec, E> {
                Ok(VarSpec::Other(format!("the number {v}")))
            }
            fn visit_bool<E>(self, v: bool) -> Result<VarSpec, E> {
                Ok(VarSpec::Other(format!("`{v}`")))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<VarSpec, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(VarSpec::Other("an array".to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<VarSpec, A::Error> {
                let (mut index, mut domain, mut define, mut given, mut unknown) = (None, None, None, None, Vec::new());
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "index" => index = Some(map.next_value::<Vec<Spanned<String>>>()?),
                        "domain" => domain = Some(map.next_value::<Spanned<String>>()?),
                        "define" => define = Some(map.next_value::<Spanned<String>>()?),
                        "given" => given = Some(map.next_value::<Spanned<ParamValue>>()?),
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                            unknown.push(key);
                        }
                    }
                }
                Ok(VarSpec::Array { index, domain, define, given, unknown })
            }
        }
        d.deserialize_any(V)
    }
}

/// For each byte of a TOML string's value, the offset in the file of the
/// character it came from, and one more entry for the end. Escapes map to
/// their backslash. When the raw text cannot be matched to the value, every
/// entry is the start of the string.
fn value_offsets(text: &str, span: Range<usize>, value: &str) -> Vec<usize> {
    let fallback = || vec![span.start; value.len() + 1];
    let Some(raw) = text.get(span.clone()) else { return fallback() };
    let (open, literal) = if raw.starts_with("'''") {
        (3, true)
    } else if raw.starts_with("\"\"\"") {
        (3, false)
    } else if raw.starts_with('\'') {
        (1, true)
    } else if raw.starts_with('"') {
        (1, false)
    } else {
        return fallback();
    };
    if raw.len() < 2 * open {
        return fallback();
    }
    let mut start = open;
    if open == 3 {
        if raw[start..].starts_with("\r\n") {
            start += 2;
        } else if raw[start..].starts_with('\n') {
            start += 1;
        }
    }
    let end = raw.len() - open;
    if start > end {
        return fallback();
    }
    let content = &raw[start..end];
    let base = span.start + start;
    let mut decoded = String::with_capacity(content.len());
    let mut map = Vec::with_capacity(content.len() + 1);
    let mut chars = content.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let ch = if c == '\\' && !literal {
            let Some((_, n)) = chars.next() else { return fallback() };
            match n {
                'b' => '\u{8}',
                't' => '\t',
                'n' => '\n',
                'f' => '\u{c}',
                'r' => '\r',
                'e' => '\u{1b}',
                '"' => '"',
                '\\' => '\\',
                'u' | 'U' | 'x' => {
                    let digits = match n {
                        'u' => 4,
                        'U' => 8,
                        _ => 2,
                    };
                    let hex: String = (0..digits).filter_map(|_| chars.next().map(|(_, h)| h)).collect();
                    match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                        Some(ch) => ch,
                        None => return fallback(),
                    }
                }
                c if c.is_whitespace() => {
                    while chars.peek().is_some_and(|(_, w)| w.is_whitespace()) {
                        chars.next();
                    }
                    continue;
                }
                _ => return fallback(),
            }
        } else {
            c
        };
        for k in 0..ch.len_utf8() {
            map.push(base + at + if ch == c { k } else { 0 });
        }
        decoded.push(ch);
    }
    map.push(base + content.len());
    if decoded != value { fallback() } else { map }
}

/// The loader's state: the source, the declarations so far.
pub(super) struct Loader<'s> {
    pub(super) source: &'s Source,
    names: HashMap<String, Named>,
    pub(super) enums: Vec<EnumDecl>,
    params: Vec<Param>,
    vars: Vec<VarDecl>,
    /// Where each variable is declared: its key's line and column.
    var_places: Vec<(usize, usize)>,
    /// Where each param's value is in the file, and whether it is a string.
    param_spans: Vec<(Range<usize>, bool)>,
    /// The defined variables' equations, each named, with the place of its
    /// defining expression: constraints before the model's own.
    definitions: Vec<(String, Expr, usize)>,
    /// The user-defined predicates and functions, callees first.
    functions: Vec<Function>,
}

pub(super) fn invalid(found: impl Into<String>, expected: impl Into<String>) -> Problem {
    Problem::Invalid { found: found.into(), expected: expected.into() }
}

/// Keys sorted by their place in the file, so declarations keep file order.
/// The other parameters a parameter's expression names, with where; a
/// name that the expression also binds (a loop or `let` variable) is left
/// out, so that shadowing never makes a false cycle.
fn param_uses(expr: &Expr, params: &[&str]) -> Vec<(usize, Span)> {
    let mut named = Vec::new();
    let mut bound: Vec<&str> = Vec::new();
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Name(name) => named.push((name.as_str(), e.span)),
            ExprKind::GenCall { generators, .. } | ExprKind::Comprehension { generators, .. } => {
                bound.extend(generators.iter().flat_map(|g| g.names.iter().map(|(n, _)| n.as_str())));
            }
            ExprKind::Let { items, .. } => bound.extend(items.iter().filter_map(|item| match item {
                syntax::LetItem::Decl(decl) => Some(decl.name.as_str()),
                syntax::LetItem::Constraint(_) => None,
            })),
            _ => {}
        }
        stack.extend(syntax::children(e));
    }
    let mut uses: Vec<(usize, Span)> = named
        .into_iter()
        .filter(|(name, _)| !bound.contains(name))
        .filter_map(|(name, span)| params.iter().position(|p| *p == name).map(|k| (k, span)))
        .collect();
    uses.sort_by_key(|(_, span)| span.start);
    uses
}

fn in_file_order<T>(map: BTreeMap<Spanned<String>, T>) -> Vec<(Spanned<String>, T)> {
    let mut entries: Vec<_> = map.into_iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    entries
}

impl<'s> Loader<'s> {
    pub(super) fn fault(&self, fault: Fault) -> LoadError {
        self.source.error(Some(fault.span.start), invalid(fault.found, fault.expected))
    }

    pub(super) fn scope(&self) -> Scope<'_> {
        Scope {
            names: &self.names,
            enums: &self.enums,
            params: &self.params,
            vars: &self.vars,
            functions: &self.functions,
        }
    }

    pub(super) fn context(&self) -> Context<'_> {
        Context {
            names: &self.names,
            enums: &self.enums,
            params: &self.params,
            vars: &self.vars,
            functions: &self.functions,
        }
    }

    /// Parses the expression in a TOML string.
    pub(super) fn parse(&self, value: &Spanned<String>) -> Result<Expr, LoadError> {
        let offsets = value_offsets(self.source.text(), value.span(), value.get_ref());
        let to_file = |o: usize| offsets[o.min(offsets.len() - 1)];
        syntax::parse(value.get_ref(), &to_file)
            .map_err(|e| self.source.error(Some(e.span.start), invalid(e.found, e.expected)))
    }

    fn declare(&mut self, key: &Spanned<String>, named: Named) -> Result<(), LoadError> {
        let name = key.get_ref();
        let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(self.source.error_at(
                key,
                invalid(format!("the name {name:?}"), "a name of letters, digits and `_`, starting with a letter"),
            ));
        }
        if RESERVED.contains(&name.as_str()) || builtins::lookup(name).is_some() || name == "bool" || name == "int" {
            return Err(self.source.error_at(
                key,
                invalid(format!("the reserved name `{name}`"), "a name that is not a keyword or a function"),
            ));
        }
        if self.names.contains_key(name) {
            return Err(self.source.error_at(
                key,
                invalid(
                    format!("a second declaration of `{name}`"),
                    "each parameter, enum, enum value and variable declared once",
                ),
            ));
        }
        self.names.insert(name.clone(), named);
        Ok(())
    }
}

/// The words no declaration may take as its name.
pub(super) const RESERVED: [&str; 18] = [
    "true",
    "false",
    "not",
    "div",
    "mod",
    "xor",
    "in",
    "where",
    "if",
    "then",
    "elseif",
    "else",
    "endif",
    "assert",
    "let",
    "var",
    "par",
    "constraint",
];

impl<'s> Loader<'s> {
    /// The `[[predicate]]` items: parsed, named apart from every
    /// declaration and built-in, ordered callees first (recursion
    /// refused), and checked.
    fn functions(&mut self, entries: Vec<PredicateEntry>) -> Result<(), LoadError> {
        let mut defs = Vec::with_capacity(entries.len());
        for entry in &entries {
            let offsets = value_offsets(self.source.text(), entry.def.span(), entry.def.get_ref());
            let to_file = |o: usize| offsets[o.min(offsets.len() - 1)];
            let def = syntax::parse_definition(entry.def.get_ref(), &to_file)
                .map_err(|e| self.source.error(Some(e.span.start), invalid(e.found, e.expected)))?;
            let name = def.name.as_str();
            let taken =
                if RESERVED.contains(&name) || builtins::lookup(name).is_some() || name == "bool" || name == "int" {
                    Some("a name that is not a keyword or a built-in function")
                } else if self.names.contains_key(name) {
                    Some("a name apart from every parameter, enum, enum value and variable")
                } else if defs.iter().any(|d: &syntax::Definition| d.name == name) {
                    Some("each predicate and function defined once (somaria does not overload them)")
                } else {
                    None
                };
            if let Some(expected) = taken {
                return Err(self.fault(Fault::new(
                    def.name_span,
                    format!("the name `{name}` taken already"),
                    expected,
                )));
            }
            defs.push(def);
        }
        for k in super::functions::order(&defs).map_err(|f| self.fault(f))? {
            let function = super::functions::check(&defs[k], &self.scope()).map_err(|f| self.fault(f))?;
            self.functions.push(function);
        }
        Ok(())
    }

    fn enums(&mut self, enums: EnumTable) -> Result<(), LoadError> {
        for (key, values) in in_file_order(enums) {
            let index = self.enums.len();
            self.declare(&key, Named::EnumType(index))?;
            if values.get_ref().is_empty() {
                return Err(self
                    .source
                    .error_at(&values, invalid("an enum with no values", "at least one value name")));
            }
            let mut names = Vec::new();
            for (k, value) in values.get_ref().iter().enumerate() {
                self.declare(value, Named::EnumValue(index, k as i64 + 1))?;
                names.push(value.get_ref().clone());
            }
            self.enums.push(EnumDecl { name: key.get_ref().clone(), values: names });
        }
        Ok(())
    }

    /// Evaluates a fixed expression of any type.
    fn fixed(&self, expr: &Expr) -> Result<(Type, Value), LoadError> {
        let scope = self.scope();
        let ty = Checker::new(&scope).check(expr).map_err(|f| self.fault(f))?;
        if ty.var {
            return Err(self.fault(Fault::new(expr.span, "an expression over decision variables", "a fixed value")));
        }
        let ctx = self.context();
        let value = Lowerer::new(&ctx).lower(expr).map_err(|f| self.fault(f))?;
        let value = value.to_value().ok_or_else(|| {
            self.fault(Fault::new(expr.span, "an expression over decision variables", "a fixed value"))
        })?;
        Ok((ty, value))
    }

    pub(super) fn param(&self, value: &Spanned<ParamValue>) -> Result<(Type, Value), LoadError> {
        match value.get_ref() {
            ParamValue::Int(v) => {
                if v.unsigned_abs() > MAX_ABS as u64 {
                    return Err(self.source.error_at(
                        value,
                        invalid(format!("the integer {v}"), format!("an integer within ±{MAX_ABS} (2^40)")),
                    ));
                }
                Ok((Type::scalar(Base::Int, false), Value::Int(*v)))
            }
            ParamValue::Bool(b) => Ok((Type::scalar(Base::Bool, false), Value::Bool(*b))),
            ParamValue::Expr(text) => {
                let spanned = Spanned::new(value.span(), text.clone());
                self.fixed(&self.parse(&spanned)?)
            }
            ParamValue::Other(what) => Err(self.source.error_at(
                value,
                invalid(
                    what.clone(),
                    "an integer, a Boolean, an array of them (nested for 2-D) or an expression string",
                ),
            )),
            ParamValue::Array(items) => {
                let (dims, base) = self.array_shape(value)?;
                let mut elems = Vec::new();
                self.array_elems(items, &dims, 0, base, &mut elems)?;
                let index = dims.iter().map(|&n| (1, n as i64)).collect();
                let ty = Type { base, shape: Shape::Array(vec![Base::Int; dims.len()]), var: false };
                Ok((ty, Value::Array(ArrayValue { index, elems })))
            }
        }
    }

    /// The lengths of a nested TOML array along its first elements, and the
    /// kind of its leaves.
    fn array_shape(&self, value: &Spanned<ParamValue>) -> Result<(Vec<usize>, Base), LoadError> {
        let mut dims = Vec::new();
        let mut at = value;
        loop {
            match at.get_ref() {
                ParamValue::Array(items) => {
                    dims.push(items.len());
                    match items.first() {
                        Some(first) => at = first,
                        None => return Ok((dims, Base::Int)),
                    }
                }
                ParamValue::Int(_) => return Ok((dims, Base::Int)),
                ParamValue::Bool(_) => return Ok((dims, Base::Bool)),
                _ => {
                    return Err(self.source.error_at(
                        at,
                        invalid(
                            "an array element that is not an integer or a Boolean",
                            "integers or Booleans, nested for 2-D",
                        ),
                    ));
                }
            }
        }
    }

    fn array_elems(
        &self,
        items: &[Spanned<ParamValue>],
        dims: &[usize],
        depth: usize,
        base: Base,
        out: &mut Vec<Value>,
    ) -> Result<(), LoadError> {
        for item in items {
            match (item.get_ref(), depth + 1 < dims.len()) {
                (ParamValue::Array(inner), true) => {
                    if inner.len() != dims[depth + 1] {
                        return Err(self.source.error_at(
                            item,
                            invalid(
                                format!("a row of {} elements", inner.len()),
                                format!(
                                    "{} elements, like the first row (arrays must be rectangular)",
                                    dims[depth + 1]
                                ),
                            ),
                        ));
                    }
                    self.array_elems(inner, dims, depth + 1, base, out)?;
                }
                (ParamValue::Int(v), false) if base == Base::Int => {
                    if v.unsigned_abs() > MAX_ABS as u64 {
                        return Err(self.source.error_at(
                            item,
                            invalid(format!("the integer {v}"), format!("an integer within ±{MAX_ABS} (2^40)")),
                        ));
                    }
                    out.push(Value::Int(*v));
                }
                (ParamValue::Bool(b), false) if base == Base::Bool => out.push(Value::Bool(*b)),
                _ => {
                    let expected = if depth + 1 < dims.len() {
                        format!("a nested array of {} elements", dims[depth + 1])
                    } else {
                        format!(
                            "{}, like the first element",
                            if base == Base::Int { "an integer" } else { "a Boolean" }
                        )
                    };
                    return Err(self
                        .source
                        .error_at(item, invalid("an element of a different kind or depth", expected)));
                }
            }
        }
        Ok(())
    }

    /// Declares the parameters, each after those its expression uses, as
    /// MiniZinc lets a parameter refer to one declared below it.
    fn params(&mut self, params: BTreeMap<Spanned<String>, Spanned<ParamValue>>) -> Result<(), LoadError> {
        let mut entries: Vec<Option<_>> = in_file_order(params).into_iter().map(Some).collect();
        let names: Vec<&str> = entries.iter().flatten().map(|(k, _)| k.get_ref().as_str()).collect();
        let mut uses = Vec::with_capacity(names.len());
        for (_, value) in entries.iter().flatten() {
            uses.push(match value.get_ref() {
                ParamValue::Expr(text) => param_uses(&self.parse(&Spanned::new(value.span(), text.clone()))?, &names),
                _ => Vec::new(),
            });
        }
        let order = functions::dependency_order(&uses).map_err(|cycle| {
            let chain: Vec<String> = cycle.path.iter().map(|&n| format!("`{}`", names[n])).collect();
            self.fault(Fault::new(
                cycle.span,
                format!("the parameter `{}` defined through itself ({})", names[cycle.path[0]], chain.join(" uses ")),
                "parameters that do not depend on themselves, directly or through others",
            ))
        })?;
        for (key, value) in order.into_iter().filter_map(|i| entries[i].take()) {
            let span = (value.span(), matches!(value.get_ref(), ParamValue::Expr(_)));
            let (ty, value) = self.param(&value)?;
            self.declare(&key, Named::Param(self.params.len()))?;
            self.param_spans.push(span);
            self.params.push(Param { name: key.get_ref().clone(), ty, value });
        }
        Ok(())
    }

    /// A domain string: `bool`, or a fixed set of integers or enum values.
    fn domain(&self, text: &Spanned<String>) -> Result<(Base, IntSet), LoadError> {
        if text.get_ref().trim() == "bool" {
            return Ok((Base::Bool, IntSet::range(0, 1)));
        }
        if text.get_ref().trim() == "int" {
            return Err(self.source.error_at(
                text,
                invalid(
                    "the unbounded domain `int`",
                    "a bounded domain such as `0..9`, `{1, 3, 5}`, `bool` or an enum name",
                ),
            ));
        }
        let expr = self.parse(text)?;
        let scope = self.scope();
        let base = Checker::new(&scope).expect_set(&expr).map_err(|mut f| {
            f.expected = "a domain such as `0..9`, `{1, 3, 5}`, `bool` or an enum name".to_string();
            self.fault(f)
        })?;
        let ctx = self.context();
        let (set, _) = Lowerer::new(&ctx).set(&expr).map_err(|f| self.fault(f))?;
        if set.is_empty() {
            return Err(self.source.error_at(
                text,
                invalid(format!("the empty domain {:?}", text.get_ref()), "a domain with at least one value"),
            ));
        }
        if set.min().is_some_and(|v| v < -MAX_ABS) || set.max().is_some_and(|v| v > MAX_ABS) {
            return Err(self
                .source
                .error_at(text, invalid(format!("the domain {set}"), format!("values within ±{MAX_ABS} (2^40)"))));
        }
        Ok((if base == Base::Any { Base::Int } else { base }, set))
    }

    /// A defined variable's kind and domain: the declared domain, or the
    /// bounds of its defining expression over the variables declared
    /// before it; the definition itself joins the constraints.
    fn defined(
        &mut self,
        key: &Spanned<String>,
        index: Option<&Vec<Spanned<String>>>,
        domain: Option<&Spanned<String>>,
        define: &Spanned<String>,
    ) -> Result<(Base, IntSet), LoadError> {
        if let Some(first) = index.and_then(|i| i.first()) {
            return Err(self.source.error_at(
                first,
                invalid("`index` beside `define`", "a defined variable that is a single value, without `index`"),
            ));
        }
        let expr = self.parse(define)?;
        let scope = self.scope();
        let ty = Checker::new(&scope).check(&expr).map_err(|f| self.fault(f))?;
        let scalar_of = |b: Base| ty.shape == Shape::Scalar && ty.base.fits(b);
        let (base, bounds) = if scalar_of(Base::Bool) {
            (Base::Bool, IntSet::range(0, 1))
        } else if ty.shape == Shape::Scalar && ty.base.is_intlike() {
            let ctx = self.context();
            let lowered = Lowerer::new(&ctx).int(&expr).map_err(|f| self.fault(f))?;
            (if ty.base == Base::Any { Base::Int } else { ty.base }, IntSet::range(lowered.lo, lowered.hi))
        } else {
            return Err(self.fault(Fault::new(
                expr.span,
                format!("{} of type {}", super::check::what(&expr), ty.describe(&self.enums)),
                "a single integer, enum or Boolean value defining the variable",
            )));
        };
        let (base, set) = match domain {
            Some(domain) => {
                let (declared, set) = self.domain(domain)?;
                if !declared.fits(base) {
                    return Err(self.source.error_at(
                        domain,
                        invalid(
                            format!("a domain of {}", super::model::base_name(declared, &self.enums)),
                            format!(
                                "a domain of {}, the type of the defining expression",
                                super::model::base_name(base, &self.enums)
                            ),
                        ),
                    ));
                }
                (declared, set)
            }
            None => (base, bounds),
        };
        let span = Span { start: key.span().start, end: key.span().end };
        let name = Expr { kind: ExprKind::Name(key.get_ref().clone()), span };
        let whole = span.to(expr.span);
        let definition = Expr {
            kind: ExprKind::Binary { op: super::syntax::BinOp::Eq, left: Box::new(name), right: Box::new(expr) },
            span: whole,
        };
        let line = self.source.location(define.span().start).line;
        self.definitions.push((format!("{} is defined (line {line})", key.get_ref()), definition, define.span().start));
        Ok((base, set))
    }

    /// An index string: a fixed range or an enum name.
    fn index(&self, text: &Spanned<String>) -> Result<((i64, i64), Base), LoadError> {
        let expr = self.parse(text)?;
        let scope = self.scope();
        let base = Checker::new(&scope).expect_set(&expr).map_err(|mut f| {
            f.expected = "an index range such as `1..n`, or an enum name".to_string();
            self.fault(f)
        })?;
        let ctx = self.context();
        let (set, _) = Lowerer::new(&ctx).set(&expr).map_err(|f| self.fault(f))?;
        match set.intervals() {
            [] => Ok(((1, 0), base)),
            [(lo, hi)] => Ok(((*lo, *hi), base)),
            _ => Err(self.source.error_at(
                text,
                invalid(format!("the index set {set}, which has gaps"), "a contiguous range such as `1..n`"),
            )),
        }
    }

    /// The entries of a partly given array, row-major: nested TOML arrays
    /// of the declared shape whose leaves are values of the domain or `"_"`
    /// for an unknown entry.
    fn given(
        &self,
        given: &Spanned<ParamValue>,
        index: &[(i64, i64)],
        base: Base,
        domain: &IntSet,
    ) -> Result<Vec<Option<i64>>, LoadError> {
        if index.is_empty() {
            return Err(self.source.error_at(
                given,
                invalid("`given` on a single variable", "`given` on an array with `index`; a single value is a domain"),
            ));
        }
        let mut out = Vec::new();
        self.given_entries(given, index, base, domain, &mut out)?;
        Ok(out)
    }

    fn given_entries(
        &self,
        at: &Spanned<ParamValue>,
        index: &[(i64, i64)],
        base: Base,
        domain: &IntSet,
        out: &mut Vec<Option<i64>>,
    ) -> Result<(), LoadError> {
        let Some((&(lo, hi), inner)) = index.split_first() else {
            out.push(self.given_value(at, base, domain)?);
            return Ok(());
        };
        let width = (hi - lo + 1).max(0) as usize;
        let depth = if inner.is_empty() { "an array".to_string() } else { format!("{} nested arrays", index.len()) };
        match at.get_ref() {
            ParamValue::Array(items) if items.len() == width => {
                for item in items {
                    self.given_entries(item, inner, base, domain, out)?;
                }
                Ok(())
            }
            ParamValue::Array(items) => Err(self.source.error_at(
                at,
                invalid(format!("{} entries", items.len()), format!("{width} entries, one per index in {lo}..{hi}")),
            )),
            _ => Err(self.source.error_at(
                at,
                invalid(
                    "a single value where the index calls for an array",
                    format!("{depth} of {width} entries (the declared `index`)"),
                ),
            )),
        }
    }

    /// One given entry: `"_"`, or a value of the array's domain.
    fn given_value(&self, at: &Spanned<ParamValue>, base: Base, domain: &IntSet) -> Result<Option<i64>, LoadError> {
        let value = match (at.get_ref(), base) {
            (ParamValue::Expr(text), _) if text.trim() == "_" => return Ok(None),
            (ParamValue::Int(v), Base::Int) => *v,
            (ParamValue::Bool(b), Base::Bool) => i64::from(*b),
            (ParamValue::Expr(text), Base::Enum(e)) => {
                match self.enums[e].values.iter().position(|n| n == text.trim()) {
                    Some(k) => k as i64 + 1,
                    None => {
                        return Err(self.source.error_at(
                            at,
                            invalid(
                                format!("{text:?}"),
                                format!("a value of {} or \"_\" for an unknown entry", self.enums[e].name),
                            ),
                        ));
                    }
                }
            }
            (ParamValue::Array(_), _) => {
                return Err(self.source.error_at(
                    at,
                    invalid("an array where the index calls for a value", "one value per entry (the declared `index`)"),
                ));
            }
            _ => {
                let kind = match base {
                    Base::Bool => "`true` or `false`".to_string(),
                    Base::Enum(e) => format!("a value of {}", self.enums[e].name),
                    Base::Int | Base::Any => "an integer".to_string(),
                };
                let found = match at.get_ref() {
                    ParamValue::Int(v) => format!("the integer {v}"),
                    ParamValue::Bool(b) => format!("`{b}`"),
                    ParamValue::Expr(text) => format!("{text:?}"),
                    ParamValue::Other(what) => what.clone(),
                    ParamValue::Array(_) => "an array".to_string(),
                };
                return Err(self.source.error_at(at, invalid(found, format!("{kind}, or \"_\" for an unknown entry"))));
            }
        };
        if !domain.contains(value) {
            let shown = match base {
                Base::Enum(e) => self.enums[e].values[(value - 1) as usize].clone(),
                Base::Bool => (value != 0).to_string(),
                _ => value.to_string(),
            };
            return Err(self
                .source
                .error_at(at, invalid(format!("the given value {shown}"), format!("a value of the domain {domain}"))));
        }
        Ok(Some(value))
    }

    fn vars(&mut self, vars: BTreeMap<Spanned<String>, Spanned<VarSpec>>) -> Result<(), LoadError> {
        let mut scalars: u64 = 0;
        for (key, spec) in in_file_order(vars) {
            let first = scalars as usize;
            let (base, domain, index, index_bases, given) = match spec.get_ref() {
                VarSpec::Scalar(text) => {
                    let (base, domain) = self.domain(&Spanned::new(spec.span(), text.clone()))?;
                    (base, domain, Vec::new(), Vec::new(), Vec::new())
                }
                VarSpec::Other(what) => {
                    return Err(self.source.error_at(
                        &spec,
                        invalid(
                            what.clone(),
                            "a domain string such as \"1..9\", or a table `{ index = [\"1..n\"], domain = \"1..n\" }`",
                        ),
                    ));
                }
                VarSpec::Array { index, domain, define, given, unknown } => {
                    if let Some(key) = unknown.first() {
                        return Err(self.source.error_at(
                            &spec,
                            invalid(
                                format!("the unknown key `{key}`"),
                                "only `index`, `domain`, `define` and `given` in a variable's table",
                            ),
                        ));
                    }
                    if let Some(define) = define {
                        if let Some(given) = given {
                            return Err(self.source.error_at(
                                given,
                                invalid("`given` beside `define`", "either a defining expression or given entries"),
                            ));
                        }
                        let (base, set) = self.defined(&key, index.as_ref(), domain.as_ref(), define)?;
                        (base, set, Vec::new(), Vec::new(), Vec::new())
                    } else {
                        let Some(domain) = domain else {
                            return Err(self.source.error_at(
                                &spec,
                                invalid("a variable table without `domain`", "`domain = \"...\"`, such as \"1..9\""),
                            ));
                        };
                        let (base, set) = self.domain(domain)?;
                        let mut ranges = Vec::new();
                        let mut bases = Vec::new();
                        for text in index.iter().flatten() {
                            let (range, b) = self.index(text)?;
                            ranges.push(range);
                            bases.push(b);
                        }
                        let given = match given {
                            Some(given) => self.given(given, &ranges, base, &set)?,
                            None => Vec::new(),
                        };
                        (base, set, ranges, bases, given)
                    }
                }
            };
            let mut len: u64 = 1;
            for &(lo, hi) in &index {
                len = len.saturating_mul((hi - lo + 1).max(0) as u64);
            }
            scalars = scalars.saturating_add(len);
            if scalars > MAX_SCALARS {
                return Err(self.source.error_at(
                    &spec,
                    invalid(format!("more than {MAX_SCALARS} decision variables in all"), "a smaller model"),
                ));
            }
            self.declare(&key, Named::Var(self.vars.len()))?;
            let at = self.source.location(key.span().start);
            self.var_places.push((at.line, at.col));
            self.vars.push(VarDecl {
                name: key.get_ref().clone(),
                base,
                index,
                index_bases,
                domain,
                first,
                len: len as usize,
                given,
            });
        }
        Ok(())
    }
}

impl Loader<'_> {
    /// The variables `show` lists, in its order (every variable when it is
    /// absent).
    fn show(&self, listed: Option<&Spanned<Vec<Spanned<String>>>>) -> Result<Vec<usize>, LoadError> {
        let (loader, source) = (self, self.source);
        Ok(match listed {
            None => (0..loader.vars.len()).collect(),
            Some(list) => {
                let mut show = Vec::new();
                for name in list.get_ref() {
                    match loader.names.get(name.get_ref()) {
                        Some(Named::Var(v)) if !show.contains(v) => show.push(*v),
                        Some(Named::Var(_)) => {}
                        _ => {
                            let vars = loader.vars.iter().map(|v| v.name.as_str());
                            let hint = super::check::nearest(name.get_ref(), vars)
                                .map(|n| format!(" (did you mean {n}?)"))
                                .unwrap_or_default();
                            return Err(source.error_at(
                                name,
                                invalid(
                                    format!("`{}` in `show`", name.get_ref()),
                                    format!("the name of a declared variable{hint}"),
                                ),
                            ));
                        }
                    }
                }
                show
            }
        })
    }

    /// The objective, checked and lowered, with its line: from
    /// `minimize` or `maximize`, of which at most one is given.
    #[allow(clippy::type_complexity)]
    fn objective(
        &self,
        minimize: &Option<Spanned<String>>,
        maximize: &Option<Spanned<String>>,
    ) -> Result<Option<(Objective, (Sense, super::ir::IExpr), usize)>, LoadError> {
        let (loader, source) = (self, self.source);
        let text = match (minimize, maximize) {
            (Some(_), Some(max)) => {
                return Err(source.error_at(max, invalid("both `minimize` and `maximize`", "at most one objective")));
            }
            (Some(text), None) => (Sense::Minimize, text),
            (None, Some(text)) => (Sense::Maximize, text),
            (None, None) => return Ok(None),
        };
        let (sense, text) = text;
        let line = source.location(text.span().start).line;
        let expr = loader.parse(text)?;
        let scope = loader.scope();
        Checker::new(&scope).expect_int(&expr, true).map_err(|mut f| {
            if f.span == expr.span {
                f.expected = "an integer expression to optimise".to_string();
            }
            loader.fault(f)
        })?;
        if let Some(fault) = super::check::misplaced_free_local(&expr, Some("in the objective"), &loader.functions) {
            return Err(loader.fault(fault));
        }
        let ctx = loader.context();
        let lowered = Lowerer::new(&ctx).int(&expr).map_err(|f| loader.fault(f))?;
        Ok(Some((Objective { sense, expr }, (sense, lowered), line)))
    }
}

/// A constraint of the model file: its name, expression, line and column.
struct Entry {
    name: String,
    expr: Expr,
    line: usize,
    column: usize,
}

/// What the constraints unroll to, so far.
struct Unrolled<'a> {
    constraints: &'a mut Vec<Constraint>,
    groups: &'a mut Vec<Group>,
    grids: &'a mut Vec<GridGlobal>,
}

impl Loader<'_> {
    /// Checks one constraint and unrolls it into `out`: its groups (one per
    /// binding of its top-level generators) and grid globals.
    fn constraint(&self, entry: Entry, out: &mut Unrolled<'_>) -> Result<(), LoadError> {
        let loader = self;
        let Entry { name, expr, line, column } = entry;
        let k = out.constraints.len();
        let scope = loader.scope();
        Checker::new(&scope).expect_bool(&expr, true).map_err(|mut f| {
            // Only a constraint of the wrong type asks for a constraint; a
            // whole-constraint call with the wrong arguments keeps its forms.
            if f.span == expr.span && f.expected == "a Boolean expression" {
                f.expected = "a Boolean constraint".to_string();
            }
            loader.fault(f)
        })?;
        if let Some(fault) = super::check::misplaced_grid(&expr) {
            return Err(loader.fault(fault));
        }
        if let Some(fault) = super::check::misplaced_free_local(&expr, None, &loader.functions) {
            return Err(loader.fault(fault));
        }
        let ctx = loader.context();
        let mut lowerer = Lowerer::new(&ctx).numbering_grids_from(out.grids.len());
        let instances = lowerer.constraint(&expr).map_err(|f| loader.fault(f))?;
        let mut found = lowerer.take_grids();
        for (k, instance) in instances.iter().enumerate() {
            if let Some(id) = GridGlobal::misplaced_in(&instance.expr) {
                let global = &found[id - out.grids.len()];
                return Err(loader.fault(Fault::new(
                    global.span,
                    format!("`{}` under a condition on decision variables (a `where` over them)", global.name()),
                    "the grid globals as constraints of their own: alone, joined by `/\\`, or under a top-level \
                 `forall` whose conditions are fixed",
                )));
            }
            for id in GridGlobal::at_top(&instance.expr) {
                found[id - out.grids.len()].group = out.groups.len() + k;
            }
        }
        out.grids.extend(found);
        for instance in instances {
            let name = if instance.bindings.is_empty() {
                name.clone()
            } else {
                let parts: Vec<String> = instance.bindings.iter().map(|(n, v)| format!("{n} = {v}")).collect();
                format!("{name} ({})", parts.join(", "))
            };
            out.groups.push(Group {
                name,
                line,
                column,
                expr: instance.expr,
                constraint: k,
                positions: instance.positions,
                bindings: instance.bindings,
                part: None,
            });
        }
        out.constraints.push(Constraint { name, line, expr });
        Ok(())
    }
}

/// Loads a `kind = "csp"` model and unrolls it.
pub fn load_model(source: &Source) -> Result<(Model, Program), LoadError> {
    let file: CspFile = source.parse()?;
    let mut loader = Loader {
        source,
        names: HashMap::new(),
        enums: Vec::new(),
        params: Vec::new(),
        vars: Vec::new(),
        var_places: Vec::new(),
        param_spans: Vec::new(),
        definitions: Vec::new(),
        functions: Vec::new(),
    };
    loader.enums(file.enums.unwrap_or_default())?;
    loader.params(file.params.unwrap_or_default())?;
    loader.vars(file.vars.unwrap_or_default())?;
    loader.functions(file.predicate.unwrap_or_default())?;

    let show = loader.show(file.show.as_ref())?;
    let (objective, objective_ir, objective_line) = match loader.objective(&file.minimize, &file.maximize)? {
        Some((objective, lowered, line)) => (Some(objective), Some(lowered), line),
        None => (None, None, 0),
    };

    let mut constraints = Vec::new();
    let mut groups = Vec::new();
    let mut grids: Vec<GridGlobal> = Vec::new();
    // The defined variables' equations come first, then the model's own
    // constraints, each with its name, expression, line and column.
    let mut entries: Vec<(String, Expr, usize, usize)> = Vec::new();
    for (name, expr, start) in std::mem::take(&mut loader.definitions) {
        let at = source.location(start);
        entries.push((name, expr, at.line, at.col));
    }
    for (k, entry) in file.constraint.unwrap_or_default().into_iter().enumerate() {
        let line = source.location(entry.expr.span().start).line;
        let expr_start = source.location(entry.expr.span().start);
        let expr = loader.parse(&entry.expr)?;
        let name = match (&entry.name, super::functions::called(&expr, &loader.functions)) {
            (Some(name), _) => name.get_ref().clone(),
            // A call of a user predicate is named by the call.
            (None, Some(called)) => format!("{called} (line {line})"),
            (None, None) => format!("constraint {} (line {line})", k + 1),
        };
        let column = match source.location(expr.span.start) {
            at if at.line == line => at.col,
            _ => expr_start.col,
        };
        entries.push((name, expr, line, column));
    }
    for (name, expr, line, column) in entries {
        loader.constraint(
            Entry { name, expr, line, column },
            &mut Unrolled { constraints: &mut constraints, groups: &mut groups, grids: &mut grids },
        )?;
    }

    let drawing = match &file.draw {
        Some(entry) => Some(loader.drawing(entry, &grids)?),
        None => None,
    };
    let design = match &file.design {
        Some(entry) => Some(loader.design(entry, &loader.param_spans)?),
        None => None,
    };
    let hints = match &file.hints {
        Some(entry) => Some(loader.hints(entry, &constraints, &groups)?),
        None => None,
    };
    let show_span = file.show.as_ref().map(|s| Span { start: s.span().start, end: s.span().end });
    let Loader { enums, params, vars, var_places, functions, .. } = loader;
    let model = Model {
        title: file.title,
        enums,
        params,
        vars,
        constraints,
        functions,
        objective,
        show,
        show_span,
        drawing,
        design,
        hints,
    };
    Ok((
        model,
        Program { file: source.name().to_string(), var_places, groups, objective: objective_ir, objective_line, grids },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offsets_of(raw: &str, value: &str) -> Vec<usize> {
        value_offsets(raw, 0..raw.len(), value)
    }

    #[test]
    fn literal_strings_map_one_to_one() {
        assert_eq!(offsets_of("'a /\\ b'", "a /\\ b"), vec![1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(offsets_of("'''\nab'''", "ab"), vec![4, 5, 6]);
    }

    #[test]
    fn escapes_map_to_their_backslash() {
        assert_eq!(offsets_of("\"a\\\\b\"", "a\\b"), vec![1, 2, 4, 5]);
        assert_eq!(offsets_of("\"x\\u0041y\"", "xAy"), vec![1, 2, 8, 9]);
        assert_eq!(offsets_of("\"\"\"\na \\\n   b\"\"\"", "a b"), vec![4, 5, 11, 12]);
    }

    #[test]
    fn a_mismatch_falls_back_to_the_start() {
        assert_eq!(offsets_of("bare", "x"), vec![0, 0]);
        assert_eq!(offsets_of("'abc'", "abd"), vec![0, 0, 0, 0]);
    }
}

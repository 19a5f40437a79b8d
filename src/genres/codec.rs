//! Two-way codecs of puzz.link URL bodies: one description of a body gives
//! both its decoder and its encoder, in the manner of cspuz_rs's
//! serializer.
//!
//! A body is a sequence of parts ([`Codec`]): a run of cells written with
//! a list of [`Token`]s (a number, a `?`, a run of empty cells, a number
//! with empty cells after it, ...), bits or small digits packed several to
//! a character ([`Packed`], [`Borders`]), a decimal number, a literal
//! character. Tuples of codecs are codecs, read and written in order, and
//! [`Then`] lets a later part depend on an earlier one (the numbers of a
//! heyawake's rooms on its borders). Decoding is strict: a character a
//! part cannot read, a body that ends early or runs on is a [`Fault`] at
//! its place. Encoding writes pzprjs's canonical form, so decoding a
//! canonical URL and encoding it again gives the same URL.

use std::fmt::Write as _;

/// A body that cannot be read: where (a byte offset in the body), what was
/// found and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Byte offset in the body.
    pub at: usize,
    /// What was found there.
    pub found: String,
    /// What was expected.
    pub expected: String,
}

/// A value a codec cannot write (a number out of its format's range).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unwritable(pub String);

/// A cursor over a body.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `text`.
    pub fn new(text: &'a str) -> Reader<'a> {
        Reader { text, at: 0 }
    }

    /// The byte offset read so far.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// The next byte, not consumed.
    pub fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// The text read since byte `at`.
    pub fn since(&self, at: usize) -> &'a str {
        &self.text[at..self.at]
    }

    /// Whether the whole body is read.
    pub fn at_end(&self) -> bool {
        self.at >= self.text.len()
    }

    /// Consumes one byte.
    pub fn bump(&mut self) {
        self.at += 1;
    }

    /// Consumes and returns the next byte, or a fault naming `expected` at
    /// the end.
    pub fn next(&mut self, expected: &str) -> Result<u8, Fault> {
        let c = self.peek().ok_or_else(|| self.fault(expected))?;
        self.at += 1;
        Ok(c)
    }

    /// A fault at the current place: what is there (a character, or the
    /// end of the body) against `expected`.
    pub fn fault(&self, expected: &str) -> Fault {
        self.fault_at(self.at, expected)
    }

    /// A fault at byte `at`.
    pub fn fault_at(&self, at: usize, expected: &str) -> Fault {
        let found = match self.text.get(at..).and_then(|rest| rest.chars().next()) {
            Some(c) => format!("{c:?}"),
            None => "the end of the body".to_string(),
        };
        Fault { at, found, expected: expected.to_string() }
    }

    /// `n` hexadecimal digits as a number.
    pub fn hex(&mut self, n: usize, what: &str) -> Result<i64, Fault> {
        let mut value = 0i64;
        for _ in 0..n {
            let expected = format!("{n} hexadecimal digits {what}");
            let c = self.peek().ok_or_else(|| self.fault(&expected))?;
            let digit = (c as char).to_digit(16).ok_or_else(|| self.fault(&expected))?;
            self.at += 1;
            value = value * 16 + i64::from(digit);
        }
        Ok(value)
    }

    /// A decimal number of at most `max_digits` digits.
    pub fn decimal(&mut self, max_digits: usize, what: &str) -> Result<i64, Fault> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) && self.at - start < max_digits {
            self.at += 1;
        }
        if self.at == start {
            return Err(self.fault(what));
        }
        Ok(self.text[start..self.at].parse().expect("ASCII digits"))
    }
}

/// One part of a body, read and written by one description.
pub trait Codec {
    /// What the part holds.
    type Value;
    /// Reads the part.
    fn decode(&self, r: &mut Reader<'_>) -> Result<Self::Value, Fault>;
    /// Writes the part in pzprjs's canonical form.
    fn encode(&self, value: &Self::Value, out: &mut String) -> Result<(), Unwritable>;
    /// The value of an empty board (an empty body).
    fn blank(&self) -> Self::Value;
}

/// Reads a whole body with `codec`: every character must be read, and an
/// empty body is the empty board, as pzprjs reads it.
pub fn decode_body<C: Codec>(codec: &C, body: &str) -> Result<C::Value, Fault> {
    if body.is_empty() {
        return Ok(codec.blank());
    }
    let mut r = Reader::new(body);
    let value = codec.decode(&mut r)?;
    if !r.at_end() {
        return Err(r.fault("the end of the body (every cell is read)"));
    }
    Ok(value)
}

/// Writes a whole body with `codec`.
pub fn encode_body<C: Codec>(codec: &C, value: &C::Value) -> Result<String, Unwritable> {
    let mut out = String::new();
    codec.encode(value, &mut out)?;
    Ok(out)
}

impl<A: Codec, B: Codec> Codec for (A, B) {
    type Value = (A::Value, B::Value);
    fn decode(&self, r: &mut Reader<'_>) -> Result<Self::Value, Fault> {
        Ok((self.0.decode(r)?, self.1.decode(r)?))
    }
    fn encode(&self, value: &Self::Value, out: &mut String) -> Result<(), Unwritable> {
        self.0.encode(&value.0, out)?;
        self.1.encode(&value.1, out)
    }
    fn blank(&self) -> Self::Value {
        (self.0.blank(), self.1.blank())
    }
}

impl<A: Codec, B: Codec, C: Codec> Codec for (A, B, C) {
    type Value = (A::Value, B::Value, C::Value);
    fn decode(&self, r: &mut Reader<'_>) -> Result<Self::Value, Fault> {
        Ok((self.0.decode(r)?, self.1.decode(r)?, self.2.decode(r)?))
    }
    fn encode(&self, value: &Self::Value, out: &mut String) -> Result<(), Unwritable> {
        self.0.encode(&value.0, out)?;
        self.1.encode(&value.1, out)?;
        self.2.encode(&value.2, out)
    }
    fn blank(&self) -> Self::Value {
        (self.0.blank(), self.1.blank(), self.2.blank())
    }
}

/// A part whose codec depends on the part before it: `first`, then the
/// codec `then` makes from its value.
pub struct Then<A, F> {
    /// The first part.
    pub first: A,
    /// The second part's codec, from the first part's value.
    pub then: F,
}

impl<A: Codec, B: Codec, F: Fn(&A::Value) -> B> Codec for Then<A, F> {
    type Value = (A::Value, B::Value);
    fn decode(&self, r: &mut Reader<'_>) -> Result<Self::Value, Fault> {
        let a = self.first.decode(r)?;
        let b = (self.then)(&a).decode(r)?;
        Ok((a, b))
    }
    fn encode(&self, value: &Self::Value, out: &mut String) -> Result<(), Unwritable> {
        self.first.encode(&value.0, out)?;
        (self.then)(&value.0).encode(&value.1, out)
    }
    fn blank(&self) -> Self::Value {
        let a = self.first.blank();
        let b = (self.then)(&a).blank();
        (a, b)
    }
}

/// A part that may be left out at the end of a body: read when anything
/// is left, written only when it is not blank.
pub struct Optional<C>(pub C);

impl<C: Codec> Codec for Optional<C>
where
    C::Value: PartialEq,
{
    type Value = C::Value;
    fn decode(&self, r: &mut Reader<'_>) -> Result<C::Value, Fault> {
        if r.at_end() { Ok(self.0.blank()) } else { self.0.decode(r) }
    }
    fn encode(&self, value: &C::Value, out: &mut String) -> Result<(), Unwritable> {
        if *value == self.0.blank() { Ok(()) } else { self.0.encode(value, out) }
    }
    fn blank(&self) -> C::Value {
        self.0.blank()
    }
}

/// A part pzprjs always writes but reads as blank when the body ends
/// before it (a heyawake's room numbers).
pub struct Trailing<C>(pub C);

impl<C: Codec> Codec for Trailing<C> {
    type Value = C::Value;
    fn decode(&self, r: &mut Reader<'_>) -> Result<C::Value, Fault> {
        if r.at_end() { Ok(self.0.blank()) } else { self.0.decode(r) }
    }
    fn encode(&self, value: &C::Value, out: &mut String) -> Result<(), Unwritable> {
        self.0.encode(value, out)
    }
    fn blank(&self) -> C::Value {
        self.0.blank()
    }
}

/// One literal character, such as the `/` between two parts.
pub struct Literal(pub u8);

impl Codec for Literal {
    type Value = ();
    fn decode(&self, r: &mut Reader<'_>) -> Result<(), Fault> {
        match r.peek() {
            Some(c) if c == self.0 => {
                r.bump();
                Ok(())
            }
            _ => Err(r.fault(&format!("{:?}", self.0 as char))),
        }
    }
    fn encode(&self, _: &(), out: &mut String) -> Result<(), Unwritable> {
        out.push(self.0 as char);
        Ok(())
    }
    fn blank(&self) {}
}

/// A decimal number in `min..=max`, such as a star battle's stars.
pub struct Decimal {
    /// The least value.
    pub min: i64,
    /// The greatest value.
    pub max: i64,
    /// What the number is, for messages.
    pub what: &'static str,
}

impl Codec for Decimal {
    type Value = i64;
    fn decode(&self, r: &mut Reader<'_>) -> Result<i64, Fault> {
        let start = r.offset();
        let expected = format!("{} from {} to {}", self.what, self.min, self.max);
        let value = r.decimal(12, &expected)?;
        if !(self.min..=self.max).contains(&value) {
            return Err(Fault { at: start, found: value.to_string(), expected });
        }
        Ok(value)
    }
    fn encode(&self, value: &i64, out: &mut String) -> Result<(), Unwritable> {
        if !(self.min..=self.max).contains(value) {
            return Err(Unwritable(format!("{} {value} out of {}..={}", self.what, self.min, self.max)));
        }
        write!(out, "{value}").expect("a String takes any write");
        Ok(())
    }
    fn blank(&self) -> i64 {
        self.min
    }
}

/// The base-36 digit of `v` (0-9, a-z).
pub fn b36(v: u32) -> char {
    char::from_digit(v, 36).expect("a digit below 36")
}

/// Values below `base`, `per_char` of them to a base-36 character (most
/// significant first), over `len` items, the last character padded with
/// zeros: pzprjs's borders and bits (base 2, 5 a character) and circles
/// (base 3, 3 a character).
pub struct Packed {
    /// How many values.
    pub len: usize,
    /// Each value is below this.
    pub base: u32,
    /// Values per character.
    pub per_char: u32,
    /// What the values are, for messages.
    pub what: &'static str,
}

impl Packed {
    fn chars(&self) -> usize {
        self.len.div_ceil(self.per_char as usize)
    }

    fn limit(&self) -> u32 {
        self.base.pow(self.per_char)
    }
}

impl Codec for Packed {
    type Value = Vec<u8>;
    fn decode(&self, r: &mut Reader<'_>) -> Result<Vec<u8>, Fault> {
        let mut values = Vec::with_capacity(self.chars() * self.per_char as usize);
        let limit = self.limit();
        let expected = format!("a digit 0-{} of {}", b36(limit - 1), self.what);
        for _ in 0..self.chars() {
            let c = r.peek().ok_or_else(|| r.fault(&expected))?;
            let digit = (c as char).to_digit(36).filter(|d| *d < limit).ok_or_else(|| r.fault(&expected))?;
            r.bump();
            for k in (0..self.per_char).rev() {
                values.push((digit / self.base.pow(k) % self.base) as u8);
            }
        }
        values.truncate(self.len);
        Ok(values)
    }
    fn encode(&self, values: &Vec<u8>, out: &mut String) -> Result<(), Unwritable> {
        if values.len() != self.len || values.iter().any(|&v| u32::from(v) >= self.base) {
            return Err(Unwritable(format!(
                "{} {values:?}: expected {} values below {}",
                self.what, self.len, self.base
            )));
        }
        for chunk in values.chunks(self.per_char as usize) {
            let digit =
                (0..self.per_char as usize).fold(0, |acc, k| acc * self.base + u32::from(*chunk.get(k).unwrap_or(&0)));
            out.push(b36(digit));
        }
        Ok(())
    }
    fn blank(&self) -> Vec<u8> {
        vec![0; self.len]
    }
}

/// The borders of a grid of cells given as data (rooms): the vertical ones
/// (`rows` × (`cols` - 1), between (r, c) and (r, c + 1)) and the
/// horizontal ones ((`rows` - 1) × `cols`, between (r, c) and (r + 1, c)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walls {
    /// Rows of cells.
    pub rows: usize,
    /// Columns of cells.
    pub cols: usize,
    /// `rows` × (`cols` - 1), row by row.
    pub vertical: Vec<bool>,
    /// (`rows` - 1) × `cols`, row by row.
    pub horizontal: Vec<bool>,
}

impl Walls {
    /// No border at all.
    pub fn none(rows: usize, cols: usize) -> Walls {
        Walls {
            rows,
            cols,
            vertical: vec![false; rows * cols.saturating_sub(1)],
            horizontal: vec![false; rows.saturating_sub(1) * cols],
        }
    }

    /// Whether a border separates (r, c) from (r, c + 1).
    pub fn right_of(&self, r: usize, c: usize) -> bool {
        self.vertical[r * (self.cols - 1) + c]
    }

    /// Whether a border separates (r, c) from (r + 1, c).
    pub fn below(&self, r: usize, c: usize) -> bool {
        self.horizontal[r * self.cols + c]
    }
}

/// pzprjs's borders (`decodeBorder`): the vertical borders, then the
/// horizontal ones, each as bits five to a character.
pub struct Borders {
    /// Rows of cells.
    pub rows: usize,
    /// Columns of cells.
    pub cols: usize,
}

impl Borders {
    fn parts(&self) -> (Packed, Packed) {
        let bits = |len| Packed { len, base: 2, per_char: 5, what: "borders (0-9, a-v)" };
        (bits(self.rows * self.cols.saturating_sub(1)), bits(self.rows.saturating_sub(1) * self.cols))
    }
}

impl Codec for Borders {
    type Value = Walls;
    fn decode(&self, r: &mut Reader<'_>) -> Result<Walls, Fault> {
        let (v, h) = self.parts();
        let bool_of = |bits: Vec<u8>| bits.into_iter().map(|b| b == 1).collect();
        let vertical = bool_of(v.decode(r)?);
        let horizontal = bool_of(h.decode(r)?);
        Ok(Walls { rows: self.rows, cols: self.cols, vertical, horizontal })
    }
    fn encode(&self, walls: &Walls, out: &mut String) -> Result<(), Unwritable> {
        let (v, h) = self.parts();
        let bits_of = |b: &[bool]| b.iter().map(|&b| u8::from(b)).collect::<Vec<u8>>();
        v.encode(&bits_of(&walls.vertical), out)?;
        h.encode(&bits_of(&walls.horizontal), out)
    }
    fn blank(&self) -> Walls {
        Walls::none(self.rows, self.cols)
    }
}

/// One way of writing cells in a run-length list of cells ([`Cells`]).
pub trait Token<T>: Sync {
    /// The characters it reads and what they mean, for messages.
    fn expected(&self) -> String;
    /// Reads cells into `out` when the next character is this token's
    /// (`None` leaves the reader where it was); `blank` is an empty cell.
    fn read(&self, r: &mut Reader<'_>, blank: &T, out: &mut Vec<T>) -> Option<Result<(), Fault>>;
    /// Writes the first of `items` (and any it covers) when this token can,
    /// returning how many items it wrote.
    fn write(&self, items: &[T], blank: &T, out: &mut String) -> Option<usize>;
}

/// `len` cells written one token after another: at each place the first
/// token of the list that reads the character (or writes the items) is
/// taken, so the order of the list is the canonical form's preference.
pub struct Cells<T: 'static> {
    /// How many cells.
    pub len: usize,
    /// An empty cell.
    pub blank: T,
    /// The ways of writing cells, in order of preference.
    pub tokens: &'static [&'static dyn Token<T>],
    /// What the cells are, for messages ("cells", "rooms").
    pub what: &'static str,
}

impl<T: Clone + PartialEq + std::fmt::Debug + 'static> Codec for Cells<T> {
    type Value = Vec<T>;
    fn decode(&self, r: &mut Reader<'_>) -> Result<Vec<T>, Fault> {
        let mut out = Vec::with_capacity(self.len);
        while out.len() < self.len {
            let expected = |done: usize| {
                let ways: Vec<String> = self.tokens.iter().map(|t| t.expected()).collect();
                format!("{} for {} {} of {}", ways.join(", "), self.what, done + 1, self.len)
            };
            if r.at_end() {
                return Err(r.fault(&expected(out.len())));
            }
            let done = out.len();
            match self.tokens.iter().find_map(|t| t.read(r, &self.blank, &mut out)) {
                Some(read) => read?,
                None => return Err(r.fault(&expected(done))),
            }
        }
        // A run of empty cells may run past the last one, as pzprjs's encoders
        // of a number with the empty cells after it write at the end.
        out.truncate(self.len);
        Ok(out)
    }
    fn encode(&self, items: &Vec<T>, out: &mut String) -> Result<(), Unwritable> {
        let mut at = 0;
        while at < items.len() {
            match self.tokens.iter().find_map(|t| t.write(&items[at..], &self.blank, out)) {
                Some(n) => at += n.max(1),
                None => return Err(Unwritable(format!("{} {}: {:?} has no token", self.what, at + 1, items[at]))),
            }
        }
        Ok(())
    }
    fn blank(&self) -> Vec<T> {
        vec![self.blank.clone(); self.len]
    }
}

/// How many of `items` are `blank` from the start, up to `max`.
pub fn blanks<T: PartialEq>(items: &[T], blank: &T, max: usize) -> usize {
    items.iter().take(max).take_while(|x| *x == blank).count()
}

/// A run of empty cells: the characters `from..=to` stand for `first`,
/// `first + 1`, ... empty cells (pzprjs's `g`-`z` = 1-20).
pub struct Gap {
    /// The first character.
    pub from: u8,
    /// The last character.
    pub to: u8,
    /// How many cells `from` stands for.
    pub first: usize,
}

impl Gap {
    fn most(&self) -> usize {
        usize::from(self.to - self.from) + self.first
    }
}

impl<T: Clone + PartialEq> Token<T> for Gap {
    fn expected(&self) -> String {
        format!("{}-{} ({} to {} empty cells)", self.from as char, self.to as char, self.first, self.most())
    }
    fn read(&self, r: &mut Reader<'_>, blank: &T, out: &mut Vec<T>) -> Option<Result<(), Fault>> {
        let c = r.peek().filter(|c| (self.from..=self.to).contains(c))?;
        r.bump();
        out.extend(std::iter::repeat_n(blank.clone(), usize::from(c - self.from) + self.first));
        Some(Ok(()))
    }
    fn write(&self, items: &[T], blank: &T, out: &mut String) -> Option<usize> {
        let n = blanks(items, blank, self.most());
        if n < self.first {
            return None;
        }
        out.push((self.from + (n - self.first) as u8) as char);
        Some(n)
    }
}

/// The g-z run of 1 to 20 empty cells.
pub static GAP: Gap = Gap { from: b'g', to: b'z', first: 1 };

/// One character for one value, such as `.` for a `?` clue (-2).
pub struct Mark {
    /// The character.
    pub ch: u8,
    /// The value.
    pub value: i32,
    /// What it means, for messages.
    pub means: &'static str,
}

impl Token<i32> for Mark {
    fn expected(&self) -> String {
        format!("{} ({})", self.ch as char, self.means)
    }
    fn read(&self, r: &mut Reader<'_>, _: &i32, out: &mut Vec<i32>) -> Option<Result<(), Fault>> {
        r.peek().filter(|&c| c == self.ch)?;
        r.bump();
        out.push(self.value);
        Some(Ok(()))
    }
    fn write(&self, items: &[i32], _: &i32, out: &mut String) -> Option<usize> {
        (items[0] == self.value).then(|| out.push(self.ch as char)).map(|()| 1)
    }
}

/// `.` for a clue without a number (-2).
pub static QUESTION: Mark = Mark { ch: b'.', value: -2, means: "a clue without a number" };

/// A number in hexadecimal: one digit (`0`-`f`) with no lead, or a lead
/// character and `digits` digits, the value `offset` more than they say.
pub struct Hex {
    /// The lead character, none for a bare digit.
    pub lead: Option<u8>,
    /// How many hexadecimal digits.
    pub digits: u32,
    /// Added to the digits' value.
    pub offset: i32,
    /// The least value written this way (the canonical form's choice).
    pub min: i32,
    /// The greatest value written this way (pzprjs's `%` stops below
    /// 12240, where `*` takes over, although three digits say more).
    pub max: i32,
}

impl Token<i32> for Hex {
    fn expected(&self) -> String {
        match self.lead {
            None => "0-f (a number)".to_string(),
            Some(lead) => format!("{} and {} hexadecimal digits (a number)", lead as char, self.digits),
        }
    }
    fn read(&self, r: &mut Reader<'_>, _: &i32, out: &mut Vec<i32>) -> Option<Result<(), Fault>> {
        let c = r.peek()?;
        match self.lead {
            None if c.is_ascii_hexdigit() && !c.is_ascii_uppercase() => {}
            Some(lead) if c == lead => r.bump(),
            _ => return None,
        }
        let value = r.hex(self.digits as usize, &format!("after {:?}", c as char));
        Some(value.map(|v| out.push(self.offset + v as i32)))
    }
    fn write(&self, items: &[i32], _: &i32, out: &mut String) -> Option<usize> {
        let v = items[0];
        if v < self.min || v > self.max {
            return None;
        }
        if let Some(lead) = self.lead {
            out.push(lead as char);
        }
        write!(out, "{:0width$x}", v - self.offset, width = self.digits as usize).expect("a String takes any write");
        Some(1)
    }
}

/// pzprjs's number16: 0-15 as one hex digit, up to 255 as `-` and two, up
/// to 4095 as `+` and three, then `=`, `%`, `*` and `$` for larger numbers
/// (each with its digits padded, which pzprjs's reader needs and its writer
/// forgets); `.` a clue without a number; g-z empty cells.
pub static NUMBER16: &[&dyn Token<i32>] = &[
    &Hex { lead: None, digits: 1, offset: 0, min: 0, max: 15 },
    &Hex { lead: Some(b'-'), digits: 2, offset: 0, min: 16, max: 255 },
    &Hex { lead: Some(b'+'), digits: 3, offset: 0, min: 256, max: 4095 },
    &Hex { lead: Some(b'='), digits: 3, offset: 4096, min: 4096, max: 8191 },
    &Hex { lead: Some(b'%'), digits: 3, offset: 8192, min: 8192, max: 12239 },
    &Hex { lead: Some(b'*'), digits: 4, offset: 12240, min: 12240, max: 77775 },
    &Hex { lead: Some(b'$'), digits: 5, offset: 77776, min: 77776, max: 77776 + 0xfffff },
    &QUESTION,
    &GAP,
];

/// number16 as pzprjs reads it in the clue cells outside the grid: numbers
/// up to 255.
pub static NUMBER16_EXCELL: &[&dyn Token<i32>] = &[
    &Hex { lead: None, digits: 1, offset: 0, min: 0, max: 15 },
    &Hex { lead: Some(b'-'), digits: 2, offset: 0, min: 16, max: 255 },
    &QUESTION,
    &GAP,
];

/// pzprjs's 4-cell form for clues 0 to 4: the digit, with 0, 1 or 2 empty
/// cells after it folded in (`0`-`4`, `5`-`9`, `a`-`e`).
pub struct FourCell;

impl Token<i32> for FourCell {
    fn expected(&self) -> String {
        "0-9 or a-e (a number 0-4 and up to two empty cells)".to_string()
    }
    fn read(&self, r: &mut Reader<'_>, blank: &i32, out: &mut Vec<i32>) -> Option<Result<(), Fault>> {
        let v = (r.peek()? as char).to_digit(16).filter(|&d| d < 15)? as i32;
        r.bump();
        out.push(v % 5);
        out.extend(std::iter::repeat_n(*blank, (v / 5) as usize));
        Some(Ok(()))
    }
    fn write(&self, items: &[i32], blank: &i32, out: &mut String) -> Option<usize> {
        let v = items[0];
        if !(0..=4).contains(&v) {
            return None;
        }
        // Cells past the end count as empty, as in pzprjs's encoder.
        let rest = &items[1..];
        let run = blanks(rest, blank, 2);
        let after = if rest.len() < 2 && run == rest.len() { 2 } else { run };
        out.push(b36((v + 5 * after as i32) as u32));
        Some((1 + after).min(items.len()))
    }
}

/// 4-cell (and 4-cross): clues 0-4 with empty cells folded in, `.`, g-z.
pub static FOUR_CELL: &[&dyn Token<i32>] = &[&FourCell, &QUESTION, &GAP];

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(len: usize, tokens: &'static [&'static dyn Token<i32>]) -> Cells<i32> {
        Cells { len, blank: -1, tokens, what: "cell" }
    }

    #[test]
    fn number16_reads_every_width() {
        let codec = cells(9, NUMBER16);
        let body = "5-1f+1ab=001%002*0003$00004.g";
        let value = decode_body(&codec, body).unwrap();
        assert_eq!(value, vec![5, 31, 427, 4097, 8194, 12243, 77780, -2, -1]);
        assert_eq!(encode_body(&codec, &value).unwrap(), body);
    }

    #[test]
    fn four_cell_folds_the_empty_cells_after_a_clue() {
        let codec = cells(25, FOUR_CELL);
        let value = decode_body(&codec, "cbcbcddad").unwrap();
        assert_eq!(&value[..5], &[2, -1, -1, 1, -1]);
        assert_eq!(encode_body(&codec, &value).unwrap(), "cbcbcddad");
    }

    #[test]
    fn faults_say_where_and_what() {
        let codec = cells(4, NUMBER16);
        let fault = decode_body(&codec, "1-x").unwrap_err();
        assert_eq!((fault.at, fault.found.as_str()), (2, "'x'"));
        assert!(fault.expected.contains("2 hexadecimal digits after '-'"), "{fault:?}");
        let fault = decode_body(&codec, "12").unwrap_err();
        assert_eq!(fault.found, "the end of the body");
        assert!(fault.expected.contains("for cell 3 of 4"), "{fault:?}");
        let fault = decode_body(&codec, "1234h").unwrap_err();
        assert_eq!((fault.at, fault.found.as_str()), (4, "'h'"));
        let fault = decode_body(&codec, "1#").unwrap_err();
        assert!(fault.expected.starts_with("0-f (a number), - and 2"), "{fault:?}");
    }

    #[test]
    fn borders_pack_five_to_a_character() {
        let codec = Borders { rows: 4, cols: 4 };
        let walls = decode_body(&codec, "9q02jg").unwrap();
        assert_eq!(walls.vertical.iter().filter(|&&b| b).count(), 5);
        assert_eq!(encode_body(&codec, &walls).unwrap(), "9q02jg");
        assert!(decode_body(&codec, "9q02j").is_err());
        assert!(decode_body(&codec, "9q02jw").is_err());
    }
}

//! The streaming byte source under every reader: a fixed 64 KiB buffer over any `Read`, with
//! line and column tracking and a whitespace-delimited token scanner.
//!
//! Why bytes and not `String`/`lines()`: a CNF may be gigabytes, a single clause line may be
//! megabytes, and comments may hold any bytes (Latin-1 author names are common in old
//! benchmark files). Working on bytes with a fixed buffer keeps memory flat and makes a
//! non-UTF-8 comment a non-event; outside comments every non-ASCII byte simply fails to be part
//! of a number and becomes a `JunkToken`.
//!
//! Positions are 1-based; a column counts bytes (a tab is one column, a UTF-8 character is as
//! many columns as it has bytes).

use std::io::{self, Read};

use crate::error::{ParseError, ParseErrorKind};

const BUFFER: usize = 1 << 16;

/// How many bytes of a token are kept for error messages.
const SNIPPET: usize = 32;

/// Bytes that separate tokens. Carriage returns count, so CRLF files read like LF files.
#[inline]
pub(crate) fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// What a token's bytes spell, as far as numbers go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Number {
    /// An optional `-` and at least one decimal digit. `-0` is zero with `negative` set.
    Int { negative: bool, magnitude: u64 },
    /// Digits that do not fit in a `u64`.
    Overflow,
    /// Anything else (letters, `+`, a lone `-`, non-ASCII bytes, …).
    Junk,
}

/// One whitespace-delimited token: where it started, its first bytes, and its numeric value.
pub(crate) struct Token {
    pub(crate) line: u64,
    pub(crate) column: u64,
    text: [u8; SNIPPET],
    text_len: usize,
    truncated: bool,
    pub(crate) number: Number,
}

impl Token {
    /// The token's bytes, if it was short enough to be kept whole.
    pub(crate) fn bytes(&self) -> Option<&[u8]> {
        if self.truncated {
            None
        } else {
            self.text.get(..self.text_len)
        }
    }

    /// The token for a message: escaped to printable ASCII, shortened with `...`.
    pub(crate) fn snippet(&self) -> String {
        let kept = self.text.get(..self.text_len).unwrap_or(&[]);
        let mut s = kept.escape_ascii().to_string();
        if self.truncated {
            s.push_str("...");
        }
        s
    }

    /// The sign and magnitude of an integer token. Digits beyond 64 bits are
    /// [`ParseErrorKind::NumberOverflow`]; anything else is [`ParseErrorKind::JunkToken`], expecting
    /// `expected`.
    pub(crate) fn int(&self, expected: &'static str) -> Result<(bool, u64), ParseError> {
        match self.number {
            Number::Int {
                negative,
                magnitude,
            } => Ok((negative, magnitude)),
            Number::Overflow => Err(ParseErrorKind::NumberOverflow {
                token: self.snippet(),
            }
            .at(self.line, self.column)),
            Number::Junk => Err(ParseErrorKind::JunkToken {
                token: self.snippet(),
                expected,
            }
            .at(self.line, self.column)),
        }
    }

    /// The signed value of an `Int` token that fits in an `i64`.
    pub(crate) fn as_i64(&self) -> Option<i64> {
        match self.number {
            Number::Int {
                negative,
                magnitude,
            } => {
                let m = i64::try_from(magnitude).ok()?;
                Some(if negative { -m } else { m })
            }
            _ => None,
        }
    }
}

/// A buffered byte stream with positions. Invariant: `pos <= len <= buf.len()`; bytes
/// `buf[pos..len]` are not yet consumed.
pub(crate) struct Source<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    len: usize,
    line: u64,
    column: u64,
}

impl<R: Read> Source<R> {
    pub(crate) fn new(inner: R) -> Source<R> {
        Source {
            inner,
            buf: vec![0; BUFFER].into_boxed_slice(),
            pos: 0,
            len: 0,
            line: 1,
            column: 1,
        }
    }

    /// Current `(line, column)`: the position of the next byte (or of the end of input).
    #[inline]
    pub(crate) fn position(&self) -> (u64, u64) {
        (self.line, self.column)
    }

    /// The next byte without consuming it; `None` at the end of input.
    #[inline]
    pub(crate) fn peek(&mut self) -> Result<Option<u8>, ParseError> {
        if self.pos < self.len
            && let Some(&b) = self.buf.get(self.pos)
        {
            return Ok(Some(b));
        }
        self.refill()
    }

    #[cold]
    fn refill(&mut self) -> Result<Option<u8>, ParseError> {
        self.pos = 0;
        self.len = 0;
        loop {
            match self.inner.read(&mut self.buf) {
                Ok(n) => {
                    self.len = n.min(self.buf.len());
                    return Ok(self.buf.get(..self.len).and_then(|b| b.first().copied()));
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(source) => return Err(self.io_error(source)),
            }
        }
    }

    fn io_error(&self, source: io::Error) -> ParseError {
        let (line, column) = self.position();
        ParseError::from_read(source, line, column)
    }

    /// Consumes byte `b`, which `peek` just returned.
    #[inline]
    pub(crate) fn bump(&mut self, b: u8) {
        self.pos += 1;
        if b == b'\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
    }

    /// Skips blanks, newlines included; returns the next byte (not consumed).
    #[inline]
    pub(crate) fn skip_blanks(&mut self) -> Result<Option<u8>, ParseError> {
        while let Some(b) = self.peek()? {
            if !is_blank(b) {
                return Ok(Some(b));
            }
            self.bump(b);
        }
        Ok(None)
    }

    /// Skips blanks and comments (a token starting with `c` comments out the rest of its line,
    /// wherever it stands, in every format read here); returns the next byte (not consumed).
    // Forced inline, with `Body::next_token`: out of line (plain `#[inline]` did not do it),
    // the shared literal reader ran manol-pipe-f6b in 2,191M instructions against 2,176M for
    // the reader it replaced; inlined, 2,178M (callgrind, seed 0).
    #[inline(always)]
    pub(crate) fn skip_comments(&mut self) -> Result<Option<u8>, ParseError> {
        loop {
            match self.skip_blanks()? {
                Some(b'c') => self.skip_line()?,
                other => return Ok(other),
            }
        }
    }

    /// Skips blanks other than `\n`; returns the next byte (not consumed), which is `\n`, a
    /// token's first byte, or `None`.
    pub(crate) fn skip_inline_blanks(&mut self) -> Result<Option<u8>, ParseError> {
        while let Some(b) = self.peek()? {
            if b == b'\n' || !is_blank(b) {
                return Ok(Some(b));
            }
            self.bump(b);
        }
        Ok(None)
    }

    /// The next token on the current line, blanks skipped; `None` at the end of the line (the
    /// `\n` is not consumed) or of the input.
    pub(crate) fn line_token(&mut self) -> Result<Option<Token>, ParseError> {
        match self.skip_inline_blanks()? {
            None | Some(b'\n') => Ok(None),
            Some(_) => self.token().map(Some),
        }
    }

    /// Skips the rest of the current line, its `\n` included. Any bytes are fine here: this
    /// is how comments are read.
    pub(crate) fn skip_line(&mut self) -> Result<(), ParseError> {
        loop {
            if self.pos >= self.len && self.refill()?.is_none() {
                return Ok(());
            }
            let rest = self.buf.get(self.pos..self.len).unwrap_or(&[]);
            match rest.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    self.pos += i + 1;
                    self.line += 1;
                    self.column = 1;
                    return Ok(());
                }
                None => {
                    self.column += rest.len() as u64;
                    self.pos = self.len;
                }
            }
        }
    }

    /// The fast path of the clause bodies (issue 40: the byte-at-a-time [`Source::token`],
    /// which keeps a snippet of every token for messages, was most of the reader's CPU time
    /// on a 416 MB export). Skips blanks and comments, then reads the next token if it is a
    /// well-formed integer — an optional `-` and 1 to 19 digits (so it cannot overflow a
    /// `u64`) — followed by a blank inside the buffer: returns its sign, magnitude, line and
    /// column, the token consumed. Anything else — the end of the buffer, any other token
    /// (`%`, `p`, junk, a number of 20 digits or more, a token the buffer cuts) — gives
    /// `Ok(None)` with that token not consumed, for [`Source::token`] to read and report
    /// exactly as before; only blanks and comments may have been consumed, the position kept
    /// as [`Source::bump`] keeps it. The tokens it accepts are therefore exactly those
    /// `token` reads as [`Number::Int`] with at most 19 digits (checked both ways by
    /// `tests/dimacs_fast.rs`). An error is a failed read while skipping a comment.
    #[inline]
    pub(crate) fn fast_int(&mut self) -> Result<Option<(bool, u64, u64, u64)>, ParseError> {
        loop {
            let Some(rest) = self.buf.get(self.pos..self.len) else {
                return Ok(None);
            };
            // Blanks, with the position.
            let mut i = 0;
            let first = loop {
                let Some(&b) = rest.get(i) else {
                    self.pos += i;
                    return Ok(None);
                };
                if !is_blank(b) {
                    break b;
                }
                if b == b'\n' {
                    self.line += 1;
                    self.column = 1;
                } else {
                    self.column += 1;
                }
                i += 1;
            };
            self.pos += i;
            if first == b'c' {
                // A comment: `skip_line` refills the buffer as it needs.
                self.skip_line()?;
                continue;
            }
            let negative = first == b'-';
            let digits_start = i + usize::from(negative);
            let mut j = digits_start;
            let mut magnitude: u64 = 0;
            loop {
                let Some(&b) = rest.get(j) else {
                    return Ok(None);
                };
                if is_blank(b) {
                    break;
                }
                // At most 19 digits: 10^19 - 1 < 2^64, so the arithmetic below is exact.
                if !b.is_ascii_digit() || j - digits_start >= 19 {
                    return Ok(None);
                }
                magnitude = magnitude * 10 + u64::from(b - b'0');
                j += 1;
            }
            if j == digits_start {
                return Ok(None);
            }
            let (line, column) = (self.line, self.column);
            let len = j - i;
            self.pos += len;
            self.column += len as u64;
            return Ok(Some((negative, magnitude, line, column)));
        }
    }

    /// Reads one token: bytes up to the next blank or the end of input. Precondition: the
    /// next byte exists and is not blank (the caller peeked it).
    pub(crate) fn token(&mut self) -> Result<Token, ParseError> {
        let (line, column) = self.position();
        let mut token = Token::start(line, column);
        while let Some(b) = self.peek()? {
            if is_blank(b) {
                break;
            }
            self.bump(b);
            token.push(b);
        }
        Ok(token.finish())
    }
}

/// A token being read: its kept bytes, and the number its bytes spell so far.
pub(crate) struct Scan {
    token: Token,
    /// An `-` came first.
    negative: bool,
    magnitude: u64,
    /// How many digits were seen.
    digits: usize,
    /// A byte that cannot be part of an integer was seen.
    bad: bool,
    /// The magnitude left u64.
    overflow: bool,
    /// Bytes seen, kept or not.
    index: usize,
}

impl Token {
    /// A token starting at `(line, column)`, its bytes to come through [`Scan::push`].
    pub(crate) fn start(line: u64, column: u64) -> Scan {
        Scan {
            token: Token {
                line,
                column,
                text: [0; SNIPPET],
                text_len: 0,
                truncated: false,
                number: Number::Junk,
            },
            negative: false,
            magnitude: 0,
            digits: 0,
            bad: false,
            overflow: false,
            index: 0,
        }
    }

    /// The token spelled by `bytes` (no blank among them), starting at `(line, column)`: for a
    /// reader that had to keep a token whole before knowing what it is.
    pub(crate) fn of_bytes(line: u64, column: u64, bytes: &[u8]) -> Token {
        let mut scan = Token::start(line, column);
        for &b in bytes {
            scan.push(b);
        }
        scan.finish()
    }
}

impl Scan {
    /// The token's next byte.
    #[inline]
    pub(crate) fn push(&mut self, b: u8) {
        let token = &mut self.token;
        match token.text.get_mut(token.text_len) {
            Some(slot) => {
                *slot = b;
                token.text_len += 1;
            }
            None => token.truncated = true,
        }
        if b.is_ascii_digit() {
            self.digits += 1;
            match self
                .magnitude
                .checked_mul(10)
                .and_then(|m| m.checked_add(u64::from(b - b'0')))
            {
                Some(m) => self.magnitude = m,
                None => self.overflow = true,
            }
        } else if b == b'-' && self.index == 0 {
            self.negative = true;
        } else {
            self.bad = true;
        }
        self.index += 1;
    }

    /// The token, its number decided.
    pub(crate) fn finish(self) -> Token {
        let mut token = self.token;
        token.number = if self.bad || self.digits == 0 {
            Number::Junk
        } else if self.overflow {
            Number::Overflow
        } else {
            Number::Int {
                negative: self.negative,
                magnitude: self.magnitude,
            }
        };
        token
    }
}

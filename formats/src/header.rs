//! The one header lexer: the `p` line of DIMACS CNF (`p cnf VARIABLES CLAUSES`) and of the old
//! WCNF format (`p wcnf VARIABLES CLAUSES [TOP]`), read by the same code so that both readers
//! accept the same spacing and report the same errors at the same columns.
//!
//! The line is `p`, the format word, the variable count, the clause count and — WCNF only — an
//! optional top weight, separated by blanks other than a newline, with nothing after them but
//! blanks. Each part that is missing or malformed is a [`ParseErrorKind::BadHeader`] naming what
//! was expected there ([`Syntax`] holds the words that differ between the two formats); a
//! variable count above [`MAX_VARS`] is [`ParseErrorKind::TooManyVariables`], a count that does not
//! fit in 64 bits [`ParseErrorKind::NumberOverflow`] (a top weight: [`ParseErrorKind::WeightOverflow`]).
//!
//! What comes before the line (comments, and what a missing header means) differs between the
//! formats and stays with each reader (`dimacs.rs`, `wcnf.rs`).

use std::io::Read;

use crate::dimacs::MAX_VARS;
use crate::error::{ParseError, ParseErrorKind};
use crate::source::{Number, Source, Token};

/// What the header line of one format spells, and the messages that name it.
pub(crate) struct Syntax {
    /// The format word after `p`.
    word: &'static [u8],
    /// What a wrong or missing format word is reported as expecting.
    expected: &'static str,
    /// The other format's word, recognised to say which reader to use instead.
    other: &'static [u8],
    /// What the other format's word is reported as expecting.
    other_expected: &'static str,
    /// Whether a top weight may follow the clause count (old WCNF).
    top: bool,
}

/// `p cnf VARIABLES CLAUSES`.
pub(crate) const CNF: Syntax = Syntax {
    word: b"cnf",
    expected: "the format `cnf`",
    other: b"wcnf",
    other_expected: "`cnf` (this is a WCNF file; read it with the WCNF reader)",
    top: false,
};

/// `p wcnf VARIABLES CLAUSES [TOP]`.
pub(crate) const WCNF: Syntax = Syntax {
    word: b"wcnf",
    expected: "the format `wcnf`",
    other: b"cnf",
    other_expected: "`wcnf` (this is a CNF file; read it with the DIMACS CNF reader)",
    top: true,
};

/// The numbers of a header line as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HeaderLine {
    /// Declared number of variables (at most [`MAX_VARS`]).
    pub(crate) num_vars: u64,
    /// Declared number of clauses.
    pub(crate) num_clauses: u64,
    /// The top weight (WCNF only; `None` when absent).
    pub(crate) top: Option<u64>,
    /// The line the header is on.
    pub(crate) line: u64,
}

/// Reads the header line of `syntax`. Precondition: the next byte is the line's `p` (the
/// caller peeked it); afterwards the source stands at the line's newline or the end of input.
pub(crate) fn read_header_line<R: Read>(
    src: &mut Source<R>,
    syntax: &Syntax,
) -> Result<HeaderLine, ParseError> {
    let p = src.token()?;
    let line = p.line;
    if p.bytes() != Some(b"p") {
        return Err(bad_header(&p, "`p` followed by a blank"));
    }
    let format = header_token(src, syntax.expected)?;
    match format.bytes() {
        Some(word) if word == syntax.word => {}
        Some(word) if word == syntax.other => {
            return Err(bad_header(&format, syntax.other_expected));
        }
        _ => return Err(bad_header(&format, syntax.expected)),
    }
    let vars_token = header_token(src, "the number of variables")?;
    let num_vars = header_number(
        &vars_token,
        "the number of variables, a non-negative integer",
    )?;
    if num_vars > MAX_VARS {
        return Err(ParseErrorKind::TooManyVariables { value: num_vars }
            .at(vars_token.line, vars_token.column));
    }
    let clauses_token = header_token(src, "the number of clauses")?;
    let num_clauses = header_number(
        &clauses_token,
        "the number of clauses, a non-negative integer",
    )?;
    let (top, last) = if syntax.top {
        (read_top(src)?, "the end of the line after the top weight")
    } else {
        (None, "the end of the line after the clause count")
    };
    if let Some(extra) = src.line_token()? {
        return Err(bad_header(&extra, last));
    }
    Ok(HeaderLine {
        num_vars,
        num_clauses,
        top,
        line,
    })
}

/// The optional top weight after the clause count.
fn read_top<R: Read>(src: &mut Source<R>) -> Result<Option<u64>, ParseError> {
    let Some(token) = src.line_token()? else {
        return Ok(None);
    };
    match token.number {
        Number::Int {
            negative: false,
            magnitude,
        } => Ok(Some(magnitude)),
        Number::Overflow => Err(ParseErrorKind::WeightOverflow {
            token: token.snippet(),
        }
        .at(token.line, token.column)),
        _ => Err(bad_header(
            &token,
            "the top weight TOP (a non-negative integer; clauses weighing at least TOP are \
             hard) or the end of the line",
        )),
    }
}

/// The next token on the header line; the end of the line here is an error.
fn header_token<R: Read>(src: &mut Source<R>, expected: &'static str) -> Result<Token, ParseError> {
    src.line_token()?.ok_or_else(|| {
        let (line, column) = src.position();
        ParseErrorKind::BadHeader {
            expected,
            found: "the end of the line".to_string(),
        }
        .at(line, column)
    })
}

/// A count: a non-negative integer.
fn header_number(token: &Token, expected: &'static str) -> Result<u64, ParseError> {
    match token.number {
        Number::Int {
            negative: false,
            magnitude,
        } => Ok(magnitude),
        Number::Overflow => Err(ParseErrorKind::NumberOverflow {
            token: token.snippet(),
        }
        .at(token.line, token.column)),
        _ => Err(bad_header(token, expected)),
    }
}

fn bad_header(token: &Token, expected: &'static str) -> ParseError {
    ParseErrorKind::BadHeader {
        expected,
        found: format!("`{}`", token.snippet()),
    }
    .at(token.line, token.column)
}

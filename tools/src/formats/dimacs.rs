//! DIMACS CNF: a streaming reader with typed, positioned errors, and a writer.
//!
//! # The grammar accepted
//! ```text
//! c any bytes up to the end of the line          comments: before and after the header,
//! p cnf VARIABLES CLAUSES                         between and inside clause lines
//! 1 -2 3 0   -1 0                                 several clauses per line
//! 4 5
//!   -6 0                                          a clause may span lines
//! %                                               SATLIB end marker: the rest is ignored
//! ```
//! - Tokens are separated by spaces, tabs, CR, LF, VT or FF, so CRLF files read as LF files.
//! - The header must come before the first clause and sit on one line:
//!   `p`, `cnf`, the variable count and the clause count, any blanks between them, nothing
//!   after them but blanks. `p wcnf` is refused here (WCNF has its own reader).
//! - A token starting with `c` begins a comment that runs to the end of the line, wherever
//!   it stands (`1 2 0 c note` is fine). A `%` token ends the input; bytes after it are never
//!   read. Comments may hold any bytes, UTF-8 or not.
//! - A literal is an optional `-` and decimal digits. **`-0` is 0** and ends a clause like `0`
//!   (it is zero numerically, and rejecting it would buy nothing). **A leading `+` is
//!   rejected** as a junk token: DIMACS never defines it, and accepting it would make
//!   `+`-prefixed garbage from a broken generator look valid. Leading zeros are accepted.
//! - The input must not end inside a clause ([`ParseError::MissingFinalZero`]).
//! - **Fewer clauses than the header declares is an error** ([`ParseError::Truncated`]): a file
//!   cut off at a clause boundary (an interrupted download) reads as a valid formula, and
//!   answering it would answer a formula nobody wrote. [`ParseOptions::relaxed`] turns it into
//!   a warning, as MiniSat and CaDiCaL treat it.
//! - A literal beyond the header's variable count, and more clauses than the header declares,
//!   are errors in strict mode ([`ParseOptions::strict`]); otherwise the variable count is
//!   extended and one [`Warning`] per kind is collected.
//!
//! # Bounded allocation
//! Header numbers are never trusted for an allocation: more than `Var::MAX_INDEX + 1`
//! variables is an error naming the limit, and [`read_cnf`] reserves at most
//! [`RESERVE_CAP`] clauses up front whatever the header claims, growing with the input
//! after that. Memory is therefore proportional to the clauses actually present.

use std::io::{self, Read, Write};
use std::path::Path;

use grim_solver::{Lit, Var};

use super::cnf::Cnf;
use super::error::{ParseError, Warning};
use super::open_input;
use super::source::{Number, Source, Token};

/// Largest variable count the engine accepts (`Var::MAX_INDEX + 1`, i.e. 2^31 - 1).
pub const MAX_VARS: u64 = Var::MAX_INDEX as u64 + 1;

/// Clauses reserved up front by [`read_cnf`], whatever the header says: 2^16 clauses are
/// about 1.5 MiB of vector headers, and a real instance past that grows the vector
/// geometrically at an amortised cost far below parsing.
pub const RESERVE_CAP: usize = 1 << 16;

/// How lenient the reader is. The default is lenient about what loses nothing (literals
/// beyond the header's variable count, surplus clauses: warnings, as MiniSat and CaDiCaL
/// treat them) and strict about what may have lost clauses (a truncated input is an error).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// Literals beyond the header's variable count and more clauses than the header declares
    /// are errors instead of warnings. Takes precedence over `relaxed`.
    pub strict: bool,
    /// Fewer clauses than the header declares is a warning instead of
    /// [`ParseError::Truncated`] (`grim-sat --relaxed`): for the old benchmark files whose
    /// headers over-count. Off by default, because the same input is what a truncated
    /// download looks like.
    pub relaxed: bool,
}

impl ParseOptions {
    /// What to do with `found` clauses against the header's `declared`, at the end of the
    /// input at `(line, column)`: `Err` refuses it, `Ok(Some(_))` warns, `Ok(None)` is fine.
    /// Shared by the CNF and the old-format WCNF readers.
    pub(crate) fn clause_count(
        self,
        declared: u64,
        found: u64,
        (line, column): (u64, u64),
    ) -> Result<Option<Warning>, ParseError> {
        if found < declared && (self.strict || !self.relaxed) {
            return Err(ParseError::Truncated {
                line,
                column,
                declared,
                found,
            });
        }
        if found != declared {
            if self.strict {
                return Err(ParseError::ClauseCountMismatch {
                    line,
                    column,
                    declared,
                    found,
                });
            }
            return Ok(Some(Warning::ClauseCountMismatch { declared, found }));
        }
        Ok(None)
    }
}

/// The `p cnf` header as written in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Declared number of variables (at most [`MAX_VARS`]).
    pub num_vars: u64,
    /// Declared number of clauses.
    pub num_clauses: u64,
    /// The line the header is on.
    pub line: u64,
}

/// Where a clause began in the input, as returned by [`Parser::next_clause`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClauseStart {
    /// Line of the clause's first literal (of its `0`, for an empty clause).
    pub line: u64,
    /// Column of that token.
    pub column: u64,
}

/// The streaming reader: the header is read by [`Parser::new`], then one clause per
/// [`Parser::next_clause`], so callers can feed a solver without a copy of the formula.
pub struct Parser<R> {
    src: Source<R>,
    options: ParseOptions,
    header: Header,
    /// Largest variable (1-based) used by any literal so far.
    largest: u64,
    clauses: u64,
    /// First literal beyond the header's count: line, column, value; and how many there were.
    out_of_range: Option<(u64, u64, i64)>,
    out_of_range_count: u64,
    finished: bool,
    warnings: Vec<Warning>,
}

impl<R: Read> Parser<R> {
    /// Reads comments up to and including the `p cnf` header.
    pub fn new(reader: R, options: ParseOptions) -> Result<Parser<R>, ParseError> {
        let mut src = Source::new(reader);
        let header = read_header(&mut src)?;
        Ok(Parser {
            src,
            options,
            header,
            largest: 0,
            clauses: 0,
            out_of_range: None,
            out_of_range_count: 0,
            finished: false,
            warnings: Vec::new(),
        })
    }

    /// The header.
    pub fn header(&self) -> Header {
        self.header
    }

    /// The number of variables: the header's count, or more when (leniently accepted)
    /// literals went beyond it.
    pub fn num_vars(&self) -> u64 {
        self.header.num_vars.max(self.largest)
    }

    /// Clauses read so far.
    pub fn num_clauses(&self) -> u64 {
        self.clauses
    }

    /// Warnings collected; complete once `next_clause` has returned `Ok(None)`.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Reads the next clause into `clause` (cleared first). Returns where it began, or
    /// `None` at the end of the input (after the end-of-input checks: the clause count and
    /// the warnings). Empty clauses are returned like any other.
    pub fn next_clause(
        &mut self,
        clause: &mut Vec<Lit>,
    ) -> Result<Option<ClauseStart>, ParseError> {
        clause.clear();
        if self.finished {
            return Ok(None);
        }
        let mut start: Option<ClauseStart> = None;
        loop {
            let Some(b) = self.src.skip_blanks()? else {
                return self.end_of_input(start);
            };
            match b {
                b'c' => self.src.skip_line()?,
                b'%' => return self.end_of_input(start),
                _ => {
                    let token = self.src.token()?;
                    if token.bytes() == Some(b"p") {
                        return Err(ParseError::DuplicateHeader {
                            line: token.line,
                            column: token.column,
                            first_line: self.header.line,
                        });
                    }
                    let start = *start.get_or_insert(ClauseStart {
                        line: token.line,
                        column: token.column,
                    });
                    match token.number {
                        Number::Int { magnitude: 0, .. } => {
                            self.clauses += 1;
                            if self.options.strict && self.clauses > self.header.num_clauses {
                                return Err(ParseError::ClauseCountMismatch {
                                    line: start.line,
                                    column: start.column,
                                    declared: self.header.num_clauses,
                                    found: self.clauses,
                                });
                            }
                            return Ok(Some(start));
                        }
                        Number::Int { .. } => clause.push(self.literal(&token)?),
                        Number::Overflow => {
                            return Err(ParseError::NumberOverflow {
                                line: token.line,
                                column: token.column,
                                token: token.snippet(),
                            });
                        }
                        Number::Junk => {
                            return Err(ParseError::JunkToken {
                                line: token.line,
                                column: token.column,
                                token: token.snippet(),
                                expected: "a literal (an optional `-` and decimal digits), `0` \
                                           ending the clause, or a comment `c ...`",
                            });
                        }
                    }
                }
            }
        }
    }

    /// Turns a non-zero integer token into a literal, applying the range rules.
    fn literal(&mut self, token: &Token) -> Result<Lit, ParseError> {
        let Number::Int {
            negative,
            magnitude,
        } = token.number
        else {
            // Only called for `Int` tokens; a junk token here would be a reader bug, and
            // reporting it as junk is the honest fallback.
            return Err(ParseError::JunkToken {
                line: token.line,
                column: token.column,
                token: token.snippet(),
                expected: "a literal",
            });
        };
        if magnitude > MAX_VARS {
            return Err(ParseError::TooManyVariables {
                line: token.line,
                column: token.column,
                value: magnitude,
            });
        }
        // magnitude ≤ 2^31 - 1, so the cast and the negation are exact.
        let value = if negative {
            -(magnitude as i64)
        } else {
            magnitude as i64
        };
        if magnitude > self.header.num_vars {
            if self.options.strict {
                return Err(ParseError::LiteralOutOfRange {
                    line: token.line,
                    column: token.column,
                    value,
                    max: self.header.num_vars,
                });
            }
            self.out_of_range_count += 1;
            self.out_of_range
                .get_or_insert((token.line, token.column, value));
        }
        self.largest = self.largest.max(magnitude);
        Lit::from_dimacs(value).ok_or(ParseError::TooManyVariables {
            line: token.line,
            column: token.column,
            value: magnitude,
        })
    }

    /// The input ended (EOF or `%`) with `open` the clause in progress, if any.
    fn end_of_input(
        &mut self,
        open: Option<ClauseStart>,
    ) -> Result<Option<ClauseStart>, ParseError> {
        let (line, column) = self.src.position();
        if let Some(start) = open {
            return Err(ParseError::MissingFinalZero {
                line,
                column,
                clause_line: start.line,
            });
        }
        self.finished = true;
        if let Some(warning) =
            self.options
                .clause_count(self.header.num_clauses, self.clauses, (line, column))?
        {
            self.warnings.push(warning);
        }
        if let Some((line, column, value)) = self.out_of_range {
            self.warnings.push(Warning::LiteralOutOfRange {
                line,
                column,
                value,
                declared: self.header.num_vars,
                largest: self.largest,
                count: self.out_of_range_count,
            });
        }
        Ok(None)
    }
}

/// Reads comments and the header line.
fn read_header<R: Read>(src: &mut Source<R>) -> Result<Header, ParseError> {
    loop {
        let Some(b) = src.skip_blanks()? else {
            let (line, column) = src.position();
            return Err(ParseError::MissingHeader { line, column });
        };
        match b {
            b'c' => src.skip_line()?,
            b'p' => break,
            _ => {
                let token = src.token()?;
                return Err(match token.number {
                    Number::Junk => ParseError::JunkToken {
                        line: token.line,
                        column: token.column,
                        token: token.snippet(),
                        expected: "a comment `c ...` or the header `p cnf VARIABLES CLAUSES`",
                    },
                    _ => ParseError::MissingHeader {
                        line: token.line,
                        column: token.column,
                    },
                });
            }
        }
    }
    let p = src.token()?;
    let line = p.line;
    if p.bytes() != Some(b"p") {
        return Err(bad_header(&p, "`p` followed by a blank"));
    }
    let format = header_token(src, "the format `cnf`")?;
    match format.bytes() {
        Some(b"cnf") => {}
        Some(b"wcnf") => {
            return Err(bad_header(
                &format,
                "`cnf` (this is a WCNF file; read it with the WCNF reader)",
            ));
        }
        _ => return Err(bad_header(&format, "the format `cnf`")),
    }
    let vars_token = header_token(src, "the number of variables")?;
    let num_vars = header_number(
        &vars_token,
        "the number of variables, a non-negative integer",
    )?;
    if num_vars > MAX_VARS {
        return Err(ParseError::TooManyVariables {
            line: vars_token.line,
            column: vars_token.column,
            value: num_vars,
        });
    }
    let clauses_token = header_token(src, "the number of clauses")?;
    let num_clauses = header_number(
        &clauses_token,
        "the number of clauses, a non-negative integer",
    )?;
    match src.skip_inline_blanks()? {
        None | Some(b'\n') => {}
        Some(_) => {
            let extra = src.token()?;
            return Err(bad_header(
                &extra,
                "the end of the line after the clause count",
            ));
        }
    }
    Ok(Header {
        num_vars,
        num_clauses,
        line,
    })
}

/// The next token on the header line; the end of the line here is an error.
fn header_token<R: Read>(src: &mut Source<R>, expected: &'static str) -> Result<Token, ParseError> {
    match src.skip_inline_blanks()? {
        None | Some(b'\n') => {
            let (line, column) = src.position();
            Err(ParseError::BadHeader {
                line,
                column,
                expected,
                found: "the end of the line".to_string(),
            })
        }
        Some(_) => src.token(),
    }
}

fn header_number(token: &Token, expected: &'static str) -> Result<u64, ParseError> {
    match token.number {
        Number::Int {
            negative: false,
            magnitude,
        } => Ok(magnitude),
        Number::Overflow => Err(ParseError::NumberOverflow {
            line: token.line,
            column: token.column,
            token: token.snippet(),
        }),
        _ => Err(bad_header(token, expected)),
    }
}

fn bad_header(token: &Token, expected: &'static str) -> ParseError {
    ParseError::BadHeader {
        line: token.line,
        column: token.column,
        expected,
        found: format!("`{}`", token.snippet()),
    }
}

/// A formula read whole, with its header and the warnings of a lenient read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The formula; `cnf.num_vars` is the header's count or more (see [`Parser::num_vars`]).
    pub cnf: Cnf,
    /// The header as written.
    pub header: Header,
    /// What a strict read would have refused.
    pub warnings: Vec<Warning>,
}

/// Reads a whole DIMACS CNF from `reader` (plain bytes; use [`read_cnf_path`] or
/// [`super::Input::sniff`] for gzip).
pub fn read_cnf<R: Read>(reader: R, options: ParseOptions) -> Result<Parsed, ParseError> {
    let mut parser = Parser::new(reader, options)?;
    let header = parser.header();
    let reserve = usize::try_from(header.num_clauses)
        .unwrap_or(usize::MAX)
        .min(RESERVE_CAP);
    let mut clauses = Vec::with_capacity(reserve);
    let mut clause = Vec::new();
    while parser.next_clause(&mut clause)?.is_some() {
        clauses.push(clause.clone());
    }
    // num_vars ≤ MAX_VARS < 2^31, so it fits a usize on every supported target.
    let num_vars = usize::try_from(parser.num_vars()).unwrap_or(usize::MAX);
    Ok(Parsed {
        cnf: Cnf { num_vars, clauses },
        header,
        warnings: parser.warnings,
    })
}

/// Reads a DIMACS CNF from a file, `-` meaning standard input; gzip is recognised by its
/// magic bytes.
pub fn read_cnf_path(path: &Path, options: ParseOptions) -> Result<Parsed, ParseError> {
    read_cnf(open_input(path)?, options)
}

/// Writes `cnf` as DIMACS: the header, then one clause per line ending in `0`. The variable
/// count written is `num_vars` or, if a clause uses a larger variable, that variable, so the
/// output always reads back without warnings. Unbuffered: wrap `out` in a `BufWriter` for
/// files.
pub fn write_dimacs(cnf: &Cnf, mut out: impl Write) -> io::Result<()> {
    let num_vars = cnf.num_vars.max(cnf.vars_used());
    writeln!(out, "p cnf {num_vars} {}", cnf.clauses.len())?;
    let mut line = String::new();
    for clause in &cnf.clauses {
        line.clear();
        for lit in clause {
            use std::fmt::Write as _;
            // Writing into a String cannot fail.
            let _ = write!(line, "{lit} ");
        }
        line.push_str("0\n");
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

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
//! - The input must not end inside a clause ([`ParseErrorKind::MissingFinalZero`]).
//! - **Fewer clauses than the header declares is an error** ([`ParseErrorKind::Truncated`]): a file
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

use crate::cnf::Cnf;
use crate::error::{ParseError, ParseErrorKind, Warning};
use crate::header::{self, read_header_line};
use crate::literal::Body;
use crate::open_input;
use crate::source::{Number, Source};

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
    /// [`ParseErrorKind::Truncated`] (`grim-sat --relaxed`): for the old benchmark files whose
    /// headers over-count. Off by default, because the same input is what a truncated
    /// download looks like.
    pub relaxed: bool,
}

impl ParseOptions {
    /// `strict` on, `relaxed` off: `grim-sat --strict`, and what a round trip is checked with.
    pub const STRICT: ParseOptions = ParseOptions {
        strict: true,
        relaxed: false,
    };

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
            return Err(ParseErrorKind::Truncated { declared, found }.at(line, column));
        }
        if found != declared {
            if self.strict {
                return Err(
                    ParseErrorKind::ClauseCountMismatch { declared, found }.at(line, column)
                );
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
    header: Header,
    /// The clauses, read and checked against the header's counts.
    body: Body<R>,
}

impl<R: Read> Parser<R> {
    /// Reads comments up to and including the `p cnf` header.
    pub fn new(reader: R, options: ParseOptions) -> Result<Parser<R>, ParseError> {
        let mut src = Source::new(reader);
        let header = read_header(&mut src)?;
        Ok(Parser {
            header,
            body: Body::new(src, options, Some((header.num_vars, header.num_clauses))),
        })
    }

    /// The header.
    pub fn header(&self) -> Header {
        self.header
    }

    /// The number of variables: the header's count, or more when (leniently accepted)
    /// literals went beyond it.
    pub fn num_vars(&self) -> u64 {
        self.header.num_vars.max(self.body.largest())
    }

    /// Clauses read so far.
    pub fn num_clauses(&self) -> u64 {
        self.body.clauses()
    }

    /// Warnings collected; complete once `next_clause` has returned `Ok(None)`.
    pub fn warnings(&self) -> &[Warning] {
        self.body.warnings()
    }

    /// Reads the next clause into `clause` (cleared first). Returns where it began, or
    /// `None` at the end of the input (after the end-of-input checks: the clause count and
    /// the warnings). Empty clauses are returned like any other.
    pub fn next_clause(
        &mut self,
        clause: &mut Vec<Lit>,
    ) -> Result<Option<ClauseStart>, ParseError> {
        clause.clear();
        let mut start = None;
        loop {
            // The fast path: a well-formed integer in the buffer (issue 40); the slow path
            // below reads, and reports, everything else.
            while let Some((negative, magnitude, line, column)) = self.body.fast_int()? {
                let start = *start.get_or_insert(ClauseStart { line, column });
                match self.body.int_item(negative, magnitude, line, column)? {
                    Some(lit) => clause.push(lit),
                    None => {
                        self.body.end_clause((start.line, start.column))?;
                        return Ok(Some(start));
                    }
                }
            }
            let Some(token) = self
                .body
                .next_token(start.map(|s: ClauseStart| s.line), true)?
            else {
                return Ok(None);
            };
            if token.bytes() == Some(b"p") {
                return Err(ParseErrorKind::DuplicateHeader {
                    first_line: self.header.line,
                }
                .at(token.line, token.column));
            }
            let start = *start.get_or_insert(ClauseStart {
                line: token.line,
                column: token.column,
            });
            match self.body.item(&token)? {
                Some(lit) => clause.push(lit),
                None => {
                    self.body.end_clause((start.line, start.column))?;
                    return Ok(Some(start));
                }
            }
        }
    }
}

/// Reads comments and the header line.
fn read_header<R: Read>(src: &mut Source<R>) -> Result<Header, ParseError> {
    match src.skip_comments()? {
        Some(b'p') => {}
        None => {
            let (line, column) = src.position();
            return Err(ParseErrorKind::MissingHeader.at(line, column));
        }
        Some(_) => {
            let token = src.token()?;
            return Err(match token.number {
                Number::Junk => ParseErrorKind::JunkToken {
                    token: token.snippet(),
                    expected: "a comment `c ...` or the header `p cnf VARIABLES CLAUSES`",
                }
                .at(token.line, token.column),
                _ => ParseErrorKind::MissingHeader.at(token.line, token.column),
            });
        }
    }
    let line = read_header_line(src, &header::CNF)?;
    Ok(Header {
        num_vars: line.num_vars,
        num_clauses: line.num_clauses,
        line: line.line,
    })
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
/// [`crate::Input::sniff`] for gzip).
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
        warnings: parser.body.into_warnings(),
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
pub fn write_dimacs(cnf: &Cnf, out: impl Write) -> io::Result<()> {
    write_dimacs_clauses(cnf.num_vars, &cnf.clauses, out)
}

/// [`write_dimacs`] over clauses held elsewhere than in a `Cnf` (a grid model's own, which a
/// 128×128 export would double in memory by copying: issue 40).
pub fn write_dimacs_clauses(
    num_vars: usize,
    clauses: &[Vec<Lit>],
    out: impl Write,
) -> io::Result<()> {
    write_dimacs_clauses_mapped(num_vars, clauses, |lit| lit, out)
}

/// [`write_dimacs_clauses`] with every literal written as `map` gives it: for a writer that
/// renames or negates variables on the way out (the grid export writes its auxiliary variables
/// negated) without a second copy of the clauses. `map` must keep each literal's variable
/// within the header's count (the header is computed from the unmapped clauses).
pub fn write_dimacs_clauses_mapped(
    num_vars: usize,
    clauses: &[Vec<Lit>],
    map: impl Fn(Lit) -> Lit,
    mut out: impl Write,
) -> io::Result<()> {
    let used = clauses
        .iter()
        .flatten()
        .map(|l| l.var().index() + 1)
        .max()
        .unwrap_or(0);
    writeln!(out, "p cnf {} {}", num_vars.max(used), clauses.len())?;
    let mut line = Vec::new();
    let mut mapped = Vec::new();
    for clause in clauses {
        line.clear();
        mapped.clear();
        mapped.extend(clause.iter().map(|&l| map(l)));
        push_clause_line(&mut line, &mapped);
        out.write_all(&line)?;
    }
    Ok(())
}

/// Appends `lits` as a DIMACS clause line (`1 -2 0\n`; `0\n` for the empty clause), the line
/// every writer here puts after its head (none for CNF, a weight or `h` for WCNF). By hand,
/// not through `fmt`: a 128×128 grid export is 16 million such lines, and the formatting
/// machinery costs several times the digits.
pub fn push_clause_line(line: &mut Vec<u8>, lits: &[Lit]) {
    for &lit in lits {
        let n = lit.to_dimacs();
        if n < 0 {
            line.push(b'-');
        }
        let mut v = n.unsigned_abs();
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        line.extend_from_slice(&digits[at..]);
        line.push(b' ');
    }
    line.extend_from_slice(b"0\n");
}

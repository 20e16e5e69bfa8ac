//! WCNF (weighted CNF, MaxSAT): a streaming reader for both dialects, with the typed,
//! positioned errors of the DIMACS reader, and a writer.
//!
//! # The two dialects
//! ```text
//! c the current format (MaxSAT Evaluation 2022 on): no header
//! h 1 -2 0                     hard clause: `h`, literals, `0`
//! 5 -1 3 0                     soft clause: its weight, literals, `0`
//! 0 2 0                        weight 0 is legal (it never costs anything)
//!
//! c the old format (MaxSAT Evaluation up to 2021)
//! p wcnf 3 3 100               variables, clauses, TOP
//! 100 1 -2 0                   weight >= TOP: hard
//! 5 -1 3 0                     weight < TOP: soft
//! ```
//! - The dialect is fixed by the first non-comment token: `p` starts the old format's header
//!   (`p wcnf VARIABLES CLAUSES [TOP]`, on one line), anything else is the headerless format.
//!   `h` in an old-format file, and a `p` line anywhere but before the first clause, are
//!   errors: mixing the dialects means the file is broken, and guessing would change costs.
//! - **TOP may be missing** in very old files (`p wcnf V C`): then every clause is soft, as the
//!   MaxSAT Evaluation 2009–2011 rules read them. A clause is hard exactly when its weight is
//!   at least TOP; nothing checks that TOP exceeds the sum of the soft weights (files in the
//!   wild violate it, and weight ≥ TOP is all that decides hardness).
//! - Tokens, comments and literals follow `dimacs.rs`: blanks include CR, a token starting
//!   with `c` comments out the rest of its line wherever it stands, clauses may span lines,
//!   `-0` is `0`, a leading `+` is junk.
//! - **Weights** are unsigned 64-bit integers. `0` is allowed (and kept, for round trips);
//!   a minus sign ([`ParseErrorKind::NegativeWeight`]), a fraction or any other junk
//!   ([`ParseErrorKind::JunkToken`]) and a value above 2^64 - 1 ([`ParseErrorKind::WeightOverflow`])
//!   are errors. So is a file whose **soft weights sum past 2^64 - 1**
//!   ([`ParseErrorKind::SoftWeightOverflow`]): every cost is then representable, so no consumer
//!   has to check its own additions. Hard weights in the old format are not summed.
//! - Old format only, as in DIMACS: fewer clauses than the header declares is an error
//!   ([`ParseErrorKind::Truncated`]; a warning with [`ParseOptions::relaxed`]); literals beyond the
//!   header's variable count and surplus clauses are errors with [`ParseOptions::strict`],
//!   warnings otherwise. The headerless format has no declared counts: its variable count is the
//!   largest variable used.
//!
//! # Bounded allocation
//! As in `dimacs.rs`: header counts are never trusted for an allocation (more than
//! [`MAX_VARS`](crate::dimacs::MAX_VARS) variables is an error, and at most [`RESERVE_CAP`] clauses are reserved up
//! front); memory grows with the clauses actually present.

use std::io::{self, Read, Write};
use std::path::Path;

use grim_formula::sink::Wcnf;
use grim_solver::Lit;

use crate::dimacs::{ParseOptions, RESERVE_CAP};
use crate::error::{ParseError, ParseErrorKind, Warning};
use crate::header::{self, read_header_line};
use crate::literal::Body;
use crate::open_input;
use crate::source::{Number, Source, Token};

/// Which WCNF dialect a file is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// The current, headerless format: `h` marks hard clauses.
    New,
    /// The old format with a `p wcnf V C TOP` header: weight ≥ TOP marks hard clauses.
    Old,
}

/// The old format's `p wcnf` header as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Declared number of variables (at most [`MAX_VARS`](crate::dimacs::MAX_VARS)).
    pub num_vars: u64,
    /// Declared number of clauses, hard and soft.
    pub num_clauses: u64,
    /// The weight from which a clause is hard; `None` when the header has no fourth number
    /// (then every clause is soft).
    pub top: Option<u64>,
    /// The line the header is on.
    pub line: u64,
}

/// Whether a clause is hard, or soft with a weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weight {
    /// A hard clause (`h`, or weight ≥ TOP in the old format).
    Hard,
    /// A soft clause with its weight.
    Soft(u64),
}

/// A clause as returned by [`Parser::next_clause`]: where it began, and its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClauseStart {
    /// Line of the clause's first token (`h` or the weight).
    pub line: u64,
    /// Column of that token.
    pub column: u64,
    /// Hard, or soft with its weight.
    pub weight: Weight,
}

/// The streaming reader: [`Parser::new`] reads up to the first clause (and the header, in the
/// old format), then one clause per [`Parser::next_clause`].
pub struct Parser<R> {
    header: Option<Header>,
    /// The clauses, read and checked against the header's counts (old format).
    body: Body<R>,
    hard: u64,
    soft_total: u64,
}

impl<R: Read> Parser<R> {
    /// Reads leading comments and, if the input starts with one, the `p wcnf` header.
    pub fn new(reader: R, options: ParseOptions) -> Result<Parser<R>, ParseError> {
        let mut src = Source::new(reader);
        let header = match src.skip_comments()? {
            Some(b'p') => Some(read_header(&mut src)?),
            _ => None,
        };
        Ok(Parser {
            header,
            body: Body::new(src, options, header.map(|h| (h.num_vars, h.num_clauses))),
            hard: 0,
            soft_total: 0,
        })
    }

    /// The dialect: [`Dialect::Old`] when the input has a `p wcnf` header.
    pub fn dialect(&self) -> Dialect {
        if self.header.is_some() {
            Dialect::Old
        } else {
            Dialect::New
        }
    }

    /// The old format's header, if any.
    pub fn header(&self) -> Option<Header> {
        self.header
    }

    /// Warnings collected; complete once `next_clause` has returned `Ok(None)`.
    pub fn warnings(&self) -> &[Warning] {
        self.body.warnings()
    }

    /// The number of variables: the header's count (old format) or the largest variable used,
    /// whichever is larger.
    pub fn num_vars(&self) -> u64 {
        self.header
            .map_or(0, |h| h.num_vars)
            .max(self.body.largest())
    }

    /// Clauses read so far, hard and soft.
    pub fn num_clauses(&self) -> u64 {
        self.body.clauses()
    }

    /// Hard clauses read so far.
    pub fn num_hard(&self) -> u64 {
        self.hard
    }

    /// The sum of the soft weights read so far (it never overflows: see the module docs).
    pub fn soft_total(&self) -> u64 {
        self.soft_total
    }

    /// Reads the next clause's literals into `clause` (cleared first). Returns where it began
    /// and its weight, or `None` at the end of the input (after the end-of-input checks).
    /// Empty clauses are returned like any other.
    pub fn next_clause(
        &mut self,
        clause: &mut Vec<Lit>,
    ) -> Result<Option<ClauseStart>, ParseError> {
        clause.clear();
        let mut start: Option<ClauseStart> = None;
        loop {
            // The fast path for the literals once the weight is read (as DIMACS's reader, issue
            // 40); the slow path below reads the weight, and reads and reports everything else.
            if let Some(open) = start {
                while let Some((negative, magnitude, line, column)) = self.body.fast_int()? {
                    match self.body.int_item(negative, magnitude, line, column)? {
                        Some(lit) => clause.push(lit),
                        None => return self.end_clause(open),
                    }
                }
            }
            let Some(token) = self.body.next_token(start.map(|s| s.line), false)? else {
                return Ok(None);
            };
            if token.bytes() == Some(b"p") {
                return Err(match self.header {
                    Some(h) => ParseErrorKind::DuplicateHeader { first_line: h.line }
                        .at(token.line, token.column),
                    None => ParseErrorKind::JunkToken {
                        token: token.snippet(),
                        expected: "a clause (`h` or a weight, then literals and `0`) or a \
                                   comment; a `p wcnf` header must come before the first clause",
                    }
                    .at(token.line, token.column),
                });
            }
            let Some(open) = start else {
                let weight = self.weight(&token)?;
                start = Some(ClauseStart {
                    line: token.line,
                    column: token.column,
                    weight,
                });
                continue;
            };
            let Some(lit) = self.body.item(&token)? else {
                return self.end_clause(open);
            };
            clause.push(lit);
        }
    }

    /// The `0` of the clause that began at `open` was read: counts it.
    fn end_clause(&mut self, open: ClauseStart) -> Result<Option<ClauseStart>, ParseError> {
        self.body.end_clause((open.line, open.column))?;
        if open.weight == Weight::Hard {
            self.hard += 1;
        }
        Ok(Some(open))
    }

    /// The first token of a clause: `h` (headerless format) or a weight.
    fn weight(&mut self, token: &Token) -> Result<Weight, ParseError> {
        let (line, column) = (token.line, token.column);
        if token.bytes() == Some(b"h") {
            return match self.header {
                None => Ok(Weight::Hard),
                Some(_) => Err(ParseErrorKind::JunkToken {
                    token: token.snippet(),
                    expected: "a clause weight: this file has a `p wcnf` header, where a \
                               clause is hard when its weight is at least TOP (`h` belongs \
                               to the headerless format)",
                }
                .at(line, column)),
            };
        }
        let weight = match token.number {
            Number::Int {
                negative,
                magnitude,
            } => {
                if negative && magnitude != 0 {
                    return Err(ParseErrorKind::NegativeWeight {
                        token: token.snippet(),
                    }
                    .at(line, column));
                }
                magnitude
            }
            Number::Overflow if token.snippet().starts_with('-') => {
                return Err(ParseErrorKind::NegativeWeight {
                    token: token.snippet(),
                }
                .at(line, column));
            }
            Number::Overflow => {
                return Err(ParseErrorKind::WeightOverflow {
                    token: token.snippet(),
                }
                .at(line, column));
            }
            Number::Junk => {
                return Err(ParseErrorKind::JunkToken {
                    token: token.snippet(),
                    expected: if self.header.is_some() {
                        "a clause weight (a non-negative integer up to 2^64 - 1, no fraction \
                         or sign) or a comment `c ...`"
                    } else {
                        "`h` (a hard clause), a clause weight (a non-negative integer up to \
                         2^64 - 1, no fraction or sign) or a comment `c ...`"
                    },
                }
                .at(line, column));
            }
        };
        if let Some(top) = self.header.and_then(|h| h.top)
            && weight >= top
        {
            return Ok(Weight::Hard);
        }
        self.soft_total = self.soft_total.checked_add(weight).ok_or(
            ParseErrorKind::SoftWeightOverflow {
                weight,
                total: self.soft_total,
            }
            .at(line, column),
        )?;
        Ok(Weight::Soft(weight))
    }
}

/// Reads the `p wcnf V C [TOP]` line; the next byte is its `p`.
fn read_header<R: Read>(src: &mut Source<R>) -> Result<Header, ParseError> {
    let line = read_header_line(src, &header::WCNF)?;
    Ok(Header {
        num_vars: line.num_vars,
        num_clauses: line.num_clauses,
        top: line.top,
        line: line.line,
    })
}

/// An instance read whole, with what the file said about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The instance; `wcnf.num_vars` is the header's count or more (see
    /// [`Parser::num_vars`]).
    pub wcnf: Wcnf,
    /// The dialect the file was written in.
    pub dialect: Dialect,
    /// The old format's header, if any.
    pub header: Option<Header>,
    /// What a strict read would have refused.
    pub warnings: Vec<Warning>,
}

/// Reads a whole WCNF, either dialect, from `reader` (plain bytes; use [`read_wcnf_path`] or
/// [`crate::Input::sniff`] for gzip).
pub fn read_wcnf<R: Read>(reader: R, options: ParseOptions) -> Result<Parsed, ParseError> {
    let mut parser = Parser::new(reader, options)?;
    let header = parser.header();
    let reserve = header
        .map_or(0, |h| usize::try_from(h.num_clauses).unwrap_or(usize::MAX))
        .min(RESERVE_CAP);
    let mut wcnf = Wcnf::default();
    wcnf.soft.reserve(reserve);
    let mut clause = Vec::new();
    while let Some(start) = parser.next_clause(&mut clause)? {
        match start.weight {
            Weight::Hard => wcnf.hard.push(clause.clone()),
            Weight::Soft(w) => wcnf.soft.push((w, clause.clone())),
        }
    }
    // num_vars ≤ MAX_VARS < 2^31, so it fits a usize on every supported target.
    wcnf.num_vars = usize::try_from(parser.num_vars()).unwrap_or(usize::MAX);
    Ok(Parsed {
        wcnf,
        dialect: parser.dialect(),
        header,
        warnings: parser.body.into_warnings(),
    })
}

/// Reads a WCNF from a file, `-` meaning standard input; gzip is recognised by its magic
/// bytes.
pub fn read_wcnf_path(path: &Path, options: ParseOptions) -> Result<Parsed, ParseError> {
    read_wcnf(open_input(path)?, options)
}

/// Writes `wcnf` in `dialect`, one clause per line: hard clauses first, then soft ones, each
/// group in its order.
///
/// - [`Dialect::New`]: `h lits 0` and `W lits 0`. The headerless format cannot declare
///   variables that no clause uses, so `num_vars` beyond the largest variable used does not
///   survive a round trip.
/// - [`Dialect::Old`]: `p wcnf V C TOP` with TOP one more than the sum of the soft weights
///   (the smallest TOP that keeps every soft clause soft; at least 1), hard clauses written
///   with weight TOP. When the soft weights sum to 2^64 - 1 (or overflow) no TOP exists and
///   the writer fails with `InvalidInput` before writing anything.
///
/// Unbuffered: wrap `out` in a `BufWriter` for files.
pub fn write_wcnf(wcnf: &Wcnf, dialect: Dialect, mut out: impl Write) -> io::Result<()> {
    use std::fmt::Write as _;
    let top = match dialect {
        Dialect::New => None,
        Dialect::Old => {
            let top = wcnf
                .total_soft_weight()
                .and_then(|sum| sum.checked_add(1))
                .ok_or_else(|| {
                    io::Error::new(
                        io::ErrorKind::InvalidInput,
                        "the soft weights sum to 2^64 - 1 or more: no TOP fits in 64 bits, so \
                         the old WCNF format cannot express this instance; write the \
                         headerless format",
                    )
                })?;
            writeln!(
                out,
                "p wcnf {} {} {top}",
                wcnf.vars_spanned(),
                wcnf.hard.len() + wcnf.soft.len()
            )?;
            Some(top)
        }
    };
    let mut line = String::new();
    let mut write_clause = |head: &dyn std::fmt::Display, clause: &[Lit]| {
        line.clear();
        // Writing into a String cannot fail.
        let _ = write!(line, "{head} ");
        for lit in clause {
            let _ = write!(line, "{lit} ");
        }
        line.push_str("0\n");
        out.write_all(line.as_bytes())
    };
    for clause in &wcnf.hard {
        match top {
            Some(top) => write_clause(&top, clause)?,
            None => write_clause(&"h", clause)?,
        }
    }
    for (weight, clause) in &wcnf.soft {
        write_clause(weight, clause)?;
    }
    Ok(())
}

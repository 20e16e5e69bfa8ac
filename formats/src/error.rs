//! The one error type of the format readers, and the warnings a lenient read collects.
//!
//! Every error that comes from the bytes of an input carries the 1-based `line` and `column`
//! where the problem was seen (columns count bytes, a tab is one column), once, beside its
//! kind ([`ParseError`] `{ line, column, kind }`), and its message says what was expected
//! there, so `grim-sat` can print `FILE:LINE:COLUMN: message` the way compilers do. Written by hand rather than with `thiserror`: the crate's dependency list is
//! fixed, and a `match` in `Display` is all the derive would generate.

use std::fmt;
use std::io;

use crate::compress::{Compression, DecodeFault};

/// Why an input could not be read: what went wrong (`kind`) and where (`line` and `column`,
/// 1-based; see the module documentation for the conventions).
///
/// One position for every kind: the 27 kinds carry only what is particular to them. The one
/// kind without a place in the input is [`ParseErrorKind::Open`] (nothing was read yet): its
/// `line` and `column` are 0, and [`ParseError::position`] says `None`.
#[derive(Debug)]
pub struct ParseError {
    /// The 1-based line where the problem was seen (0 for [`ParseErrorKind::Open`]).
    pub line: u64,
    /// The 1-based column (bytes; a tab is one column; 0 for [`ParseErrorKind::Open`]).
    pub column: u64,
    /// What was wrong there.
    pub kind: ParseErrorKind,
}

/// Which solver output a message of the output readers is about: the three faults both
/// readers find (no `s` line, a model under an answer without one, an answer without its
/// model) are one kind each, and this says which answers and which model form the message
/// names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputKind {
    /// A SAT solver's (`s SATISFIABLE` and `v` literals ending in `0`; [`crate::solution`]).
    Sat,
    /// A MaxSAT solver's (`s OPTIMUM FOUND` and one `v` line of 0/1 characters;
    /// [`crate::maxsat_output`]).
    MaxSat,
}

/// What was wrong, the part of a [`ParseError`] beside its position.
#[derive(Debug)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input file could not be opened (the error has no position).
    Open {
        /// The path as given.
        path: String,
        /// What the operating system said.
        source: io::Error,
    },
    /// Reading failed (after the input was opened; the position is where the read stopped).
    Io {
        /// What the operating system said.
        source: io::Error,
    },
    /// The input starts with the magic bytes of a compression format (gzip, xz, bzip2, lzma)
    /// but its compressed data is corrupt, ends early (a truncated download, typically), or
    /// declares a dictionary beyond the decoder's memory limit. The position is in the
    /// decompressed text, where decompression failed.
    Decompress {
        /// The format the magic bytes named.
        format: Compression,
        /// The decoder's complaint.
        source: io::Error,
    },
    /// A clause (or the end of input) came before the `p cnf` header; the position is the
    /// first non-comment token's (or the end of input).
    MissingHeader,
    /// The `p` line is not `p cnf VARIABLES CLAUSES`; the position is the offending part's.
    BadHeader {
        /// What the reader expected at that point.
        expected: &'static str,
        /// What it found (escaped, shortened), or `end of line`.
        found: String,
    },
    /// A second `p` line (the position is its start).
    DuplicateHeader {
        /// Line of the first header.
        first_line: u64,
    },
    /// A token that is not what the grammar allows at this point (a letter inside a clause,
    /// a `+3`, binary garbage, …); the position is the token's start.
    JunkToken {
        /// The token (escaped, at most 32 bytes shown).
        token: String,
        /// What the reader expected instead.
        expected: &'static str,
    },
    /// A number that does not fit in 64 bits (the position is its start).
    NumberOverflow {
        /// The number (at most 32 digits shown).
        token: String,
    },
    /// A variable count or literal beyond what the engine can represent
    /// ([`grim_solver::Var::MAX_INDEX`] + 1 variables); the position is the number's start.
    TooManyVariables {
        /// The number of variables it asks for.
        value: u64,
    },
    /// Strict mode: a literal whose variable exceeds the header's count (the position is the
    /// literal's start).
    LiteralOutOfRange {
        /// The literal.
        value: i64,
        /// The header's variable count.
        max: u64,
    },
    /// The input ends (or reaches the `%` end marker) inside a clause: the terminating `0`
    /// is missing. The position is where the input ended.
    MissingFinalZero {
        /// Line on which the unterminated clause began.
        clause_line: u64,
    },
    /// Strict mode: the number of clauses differs from the header's. The position is where
    /// the first surplus clause starts, or where the input ended.
    ClauseCountMismatch {
        /// The header's clause count.
        declared: u64,
        /// Clauses found (for a surplus: the count so far, already above `declared`).
        found: u64,
    },
    /// The input ended (at a clause boundary, or at the `%` end marker) after fewer clauses
    /// than the header declares: the file is most likely truncated — an interrupted download
    /// or copy — and answering it would answer a formula nobody wrote. Refused by default;
    /// [`ParseOptions::relaxed`](crate::dimacs::ParseOptions::relaxed) makes it a
    /// warning. CNF, and WCNF with an old-format `p wcnf` header. The position is where the
    /// input ended.
    Truncated {
        /// The header's clause count.
        declared: u64,
        /// Clauses found.
        found: u64,
    },
    /// Solver output: no `s` line (the position is where the output ended).
    MissingStatus {
        /// Whose output: the answers the message lists.
        output: OutputKind,
    },
    /// Solver output: a second `s` line (the position is its start).
    DuplicateStatus {
        /// Line of the first one.
        first_line: u64,
    },
    /// SAT solver output: an `s` line with an unknown answer (the position is the answer's).
    BadStatus {
        /// What was found (escaped, shortened).
        found: String,
    },
    /// SAT solver output: a line that is neither empty nor starts with `c`, `s` or `v` (the
    /// position is its first token's).
    UnexpectedLine {
        /// That token (escaped, shortened).
        found: String,
    },
    /// Solver output: a model (`v` lines) although the answer has none — SAT output: not
    /// `SATISFIABLE`; MaxSAT output: `UNSATISFIABLE`, `UNKNOWN` or no answer at all. The
    /// position is the first `v` line's.
    ModelWithoutSolution {
        /// Whose output.
        output: OutputKind,
        /// The answer given on the `s` line, or `no answer` when the `v` lines came first
        /// and no `s` line followed.
        answer: &'static str,
    },
    /// Solver output: an answer with a solution (`s SATISFIABLE`; MaxSAT: also
    /// `s OPTIMUM FOUND`) without any `v` line. The position is the `s` line's.
    MissingModel {
        /// Whose output.
        output: OutputKind,
        /// The answer given there.
        answer: &'static str,
    },
    /// SAT solver output: the `v` lines end without the `0` that terminates the model (the
    /// output may have been cut off). The position is where the output ended.
    UnterminatedModel {
        /// Line of the first `v` line.
        model_line: u64,
    },
    /// SAT solver output: a `v` literal after the `0` that ends the model (the position is the
    /// literal's).
    LiteralAfterEnd {
        /// The literal.
        value: i64,
        /// Line of the terminating `0`.
        end_line: u64,
    },
    /// SAT solver output: the model contains both `x` and `-x` (the position is the later
    /// literal's).
    ConflictingLiteral {
        /// The later literal.
        value: i64,
        /// Line of the earlier, opposite literal.
        first_line: u64,
    },
    /// WCNF: a clause weight with a minus sign. Weights are unsigned: a negative weight has no
    /// MaxSAT meaning (it would be a reward for falsifying the clause). The position is the
    /// weight's.
    NegativeWeight {
        /// The weight as written (escaped, shortened).
        token: String,
    },
    /// WCNF: a clause weight (or the `p wcnf` top) above 2^64 - 1 (the position is the
    /// weight's).
    WeightOverflow {
        /// The weight as written (at most 32 digits shown).
        token: String,
    },
    /// WCNF: the soft weights read so far sum past 2^64 - 1, so no cost could be represented.
    /// The position is the weight's that overflowed the sum.
    SoftWeightOverflow {
        /// That weight.
        weight: u64,
        /// The sum of the soft weights before it.
        total: u64,
    },
    /// MaxSAT solver output: `s OPTIMUM FOUND` or `s SATISFIABLE` without an `o` line giving
    /// the cost the model is claimed to have. The position is the `s` line's.
    MissingCost {
        /// The answer given there.
        answer: &'static str,
    },
    /// MaxSAT solver output: a second `v` line after a 0/1 model, which is one line (the
    /// position is the second line's).
    DuplicateModel {
        /// Line of the first one.
        first_line: u64,
    },
}

impl ParseErrorKind {
    /// The error of this kind at `(line, column)`.
    pub fn at(self, line: u64, column: u64) -> ParseError {
        ParseError {
            line,
            column,
            kind: self,
        }
    }
}

impl ParseError {
    /// The input file at `path` could not be opened: [`ParseErrorKind::Open`], without a
    /// position.
    pub fn open(path: String, source: io::Error) -> ParseError {
        ParseErrorKind::Open { path, source }.at(0, 0)
    }

    /// `(line, column)` of the problem, or `None` for [`ParseErrorKind::Open`].
    pub fn position(&self) -> Option<(u64, u64)> {
        match self.kind {
            ParseErrorKind::Open { .. } => None,
            _ => Some((self.line, self.column)),
        }
    }

    /// The error for a failed read at `(line, column)`: [`ParseErrorKind::Decompress`] when
    /// the decoder blamed the data, [`ParseErrorKind::Io`] when the operating system failed.
    pub(crate) fn from_read(source: io::Error, line: u64, column: u64) -> ParseError {
        let kind = match DecodeFault::of(&source).map(|fault| fault.format) {
            Some(format) => ParseErrorKind::Decompress { format, source },
            None => ParseErrorKind::Io { source },
        };
        kind.at(line, column)
    }

    /// True when the operating system, not the content, is to blame (the file could not be
    /// opened or read). The CLIs give these their own exit code.
    pub fn is_io(&self) -> bool {
        matches!(
            self.kind,
            ParseErrorKind::Open { .. } | ParseErrorKind::Io { .. }
        )
    }

    /// The message as `PATH:LINE:COLUMN: what` (or `PATH: what` without a position), the
    /// form editors and compilers use, for the command-line tools.
    pub fn with_path<'a>(&'a self, path: &'a str) -> impl fmt::Display + 'a {
        WithPath {
            message: self,
            path,
        }
    }
}

impl ParseErrorKind {
    /// The message without any position.
    fn what(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use OutputKind::{MaxSat, Sat};
        use ParseErrorKind::*;
        match self {
            Open { path, source } => write!(f, "cannot open `{path}`: {source}"),
            Io { source } => write!(f, "read error: {source}"),
            Decompress { format, source } => write!(
                f,
                "the {} data is corrupt or truncated ({source}); check the download or \
                 decompress the file to see where it breaks",
                format.name()
            ),
            MissingHeader => write!(
                f,
                "expected the header `p cnf VARIABLES CLAUSES` before the first clause"
            ),
            BadHeader { expected, found } => {
                write!(f, "malformed header: expected {expected}, found {found}")
            }
            DuplicateHeader { first_line } => write!(
                f,
                "a second `p` header (the first is on line {first_line}); expected a clause \
                 or a comment"
            ),
            JunkToken { token, expected } => write!(f, "unexpected `{token}`: expected {expected}"),
            NumberOverflow { token } => {
                write!(f, "the number `{token}` does not fit in 64 bits")
            }
            TooManyVariables { value } => write!(
                f,
                "{value} variables exceed the engine's limit of {} (2^31 - 1)",
                grim_solver::Var::MAX_INDEX as u64 + 1
            ),
            LiteralOutOfRange { value, max } => write!(
                f,
                "literal {value} exceeds the {max} variables declared in the header \
                 (strict mode; drop --strict to extend the variable count with a warning)"
            ),
            MissingFinalZero { clause_line } => write!(
                f,
                "the input ends inside the clause begun on line {clause_line}: expected `0` \
                 to terminate it"
            ),
            ClauseCountMismatch { declared, found } => {
                if found > declared {
                    write!(
                        f,
                        "more clauses than the {declared} declared in the header (strict mode)"
                    )
                } else {
                    write!(
                        f,
                        "{} but the header declares {declared} (strict mode)",
                        crate::plural(*found, "clause")
                    )
                }
            }
            Truncated { declared, found } => write!(
                f,
                "the input ends after {found} of the {} the header declares: \
                 the file looks truncated (an interrupted download or copy?); expected {} more \
                 clause{} (--relaxed reads it anyway, with a warning)",
                crate::plural(*declared, "clause"),
                declared - found,
                if declared - found == 1 { "" } else { "s" }
            ),
            MissingStatus { output: Sat } => write!(
                f,
                "no `s` line: expected `s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN`"
            ),
            MissingStatus { output: MaxSat } => write!(
                f,
                "no `s` line: expected `s OPTIMUM FOUND`, `s SATISFIABLE`, `s UNSATISFIABLE` \
                 or `s UNKNOWN`"
            ),
            DuplicateStatus { first_line } => {
                write!(f, "a second `s` line (the first is on line {first_line})")
            }
            BadStatus { found } => write!(
                f,
                "unknown answer `{found}`: expected SATISFIABLE, UNSATISFIABLE or UNKNOWN"
            ),
            UnexpectedLine { found } => write!(
                f,
                "unexpected line starting with `{found}`: expected a `c`, `s` or `v` line"
            ),
            ModelWithoutSolution {
                output: Sat,
                answer,
            } => write!(
                f,
                "`v` lines, but the answer is {answer}: a model belongs only to \
                 `s SATISFIABLE`"
            ),
            ModelWithoutSolution {
                output: MaxSat,
                answer,
            } => write!(
                f,
                "a `v` line, but the answer is {answer}: a model belongs only to \
                 `s OPTIMUM FOUND` or `s SATISFIABLE`"
            ),
            MissingModel {
                output: Sat,
                answer,
            } => write!(
                f,
                "`s {answer}` without `v` lines: expected the model, ending in `0`"
            ),
            MissingModel {
                output: MaxSat,
                answer,
            } => write!(
                f,
                "`s {answer}` without a `v` line: expected the model (`v` and a 0/1 string)"
            ),
            UnterminatedModel { model_line } => write!(
                f,
                "the output ends without the `0` that terminates the model begun on line \
                 {model_line}; was the output cut off?"
            ),
            LiteralAfterEnd { value, end_line } => write!(
                f,
                "literal {value} after the `0` that ended the model on line {end_line}"
            ),
            ConflictingLiteral { value, first_line } => write!(
                f,
                "literal {value} contradicts {} given on line {first_line}",
                value.saturating_neg()
            ),
            NegativeWeight { token } => write!(
                f,
                "negative weight `{token}`: expected a weight, a non-negative integer up to \
                 2^64 - 1 (or `h` for a hard clause in the headerless format)"
            ),
            WeightOverflow { token } => write!(
                f,
                "the weight `{token}` exceeds 2^64 - 1 = {}, the largest weight supported",
                u64::MAX
            ),
            SoftWeightOverflow { weight, total } => write!(
                f,
                "the soft weights overflow: {total} so far plus this clause's {weight} exceeds \
                 2^64 - 1, so costs could not be represented; scale the weights down"
            ),
            MissingCost { answer } => write!(
                f,
                "`s {answer}` without an `o` line: expected `o COST` giving the model's cost"
            ),
            DuplicateModel { first_line } => write!(
                f,
                "a second `v` line (the 0/1 model on line {first_line} is complete in one line)"
            ),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_positioned(self, f)
    }
}

impl std::error::Error for ParseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ParseErrorKind::Open { source, .. }
            | ParseErrorKind::Io { source }
            | ParseErrorKind::Decompress { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// What [`ParseError`] and [`Warning`] share for their messages: where (if anywhere), and what.
trait Message {
    /// `(line, column)` of the problem.
    fn at(&self) -> Option<(u64, u64)>;
    /// The message without any position.
    fn what(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    /// Whether a message without a position is still preceded by `PATH: ` in
    /// [`WithPath`] (not for [`ParseErrorKind::Open`], whose message names the path itself).
    const PATH_WITHOUT_POSITION: bool;
}

impl Message for ParseError {
    fn at(&self) -> Option<(u64, u64)> {
        self.position()
    }
    fn what(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.what(f)
    }
    const PATH_WITHOUT_POSITION: bool = false;
}

/// `line L, column C: what`, or `what` without a position.
fn write_positioned(message: &impl Message, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if let Some((line, column)) = message.at() {
        write!(f, "line {line}, column {column}: ")?;
    }
    message.what(f)
}

/// `PATH:LINE:COLUMN: what`, or `PATH: what` without a position.
struct WithPath<'a, M> {
    message: &'a M,
    path: &'a str,
}

impl<M: Message> fmt::Display for WithPath<'_, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.message.at() {
            Some((line, column)) => write!(f, "{}:{line}:{column}: ", self.path)?,
            None if M::PATH_WITHOUT_POSITION => write!(f, "{}: ", self.path)?,
            None => {}
        }
        self.message.what(f)
    }
}

/// Something a lenient read accepted but the user should hear about. Each kind is reported
/// once, with the first place it occurred and how often, so a file with a million surplus
/// literals yields one line, not a million.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Warning {
    /// Literals beyond the header's variable count; the count was extended to `largest`.
    LiteralOutOfRange {
        /// Line of the first such literal.
        line: u64,
        /// Its column.
        column: u64,
        /// The first such literal.
        value: i64,
        /// The header's variable count.
        declared: u64,
        /// The largest variable used.
        largest: u64,
        /// How many literals were out of range.
        count: u64,
    },
    /// The number of clauses differs from the header's.
    ClauseCountMismatch {
        /// The header's count.
        declared: u64,
        /// The number read.
        found: u64,
    },
}

impl Warning {
    /// The message as `PATH:LINE:COLUMN: what` (or `PATH: what`), for the command-line tools.
    pub fn with_path<'a>(&'a self, path: &'a str) -> impl fmt::Display + 'a {
        WithPath {
            message: self,
            path,
        }
    }
}

impl Message for Warning {
    fn at(&self) -> Option<(u64, u64)> {
        match *self {
            Warning::LiteralOutOfRange { line, column, .. } => Some((line, column)),
            Warning::ClauseCountMismatch { .. } => None,
        }
    }

    fn what(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::LiteralOutOfRange {
                value,
                declared,
                largest,
                count,
                ..
            } => write!(
                f,
                "literal {value} exceeds the {declared} variables declared in the header \
                 ({count} such literal{}); using {largest} variables",
                if *count == 1 { "" } else { "s" }
            ),
            Warning::ClauseCountMismatch { declared, found } if found < declared => write!(
                f,
                "the input ends after {found} of the {} the header declares \
                 (truncated?); reading it as it is (--relaxed)",
                crate::plural(*declared, "clause")
            ),
            Warning::ClauseCountMismatch { declared, found } => write!(
                f,
                "the header declares {} but the input has {found}",
                crate::plural(*declared, "clause")
            ),
        }
    }

    const PATH_WITHOUT_POSITION: bool = true;
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_positioned(self, f)
    }
}

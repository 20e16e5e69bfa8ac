//! The competition output of a SAT solver: `s` and `v` lines, read and written.
//!
//! ```text
//! c any comment                   ignored, anywhere
//! s SATISFIABLE                   exactly one `s` line: SATISFIABLE, UNSATISFIABLE or UNKNOWN
//! v 1 -2 3                        the model, over as many `v` lines as the solver likes,
//! v -4 5 0                        ending in `0`; only with SATISFIABLE
//! ```
//! The reader is strict where a lenient reading could hide a wrong answer: a model without
//! its final `0` (the output may be cut off), literals after the `0`, a variable given both
//! signs, `v` lines under an answer other than SATISFIABLE, two `s` lines, or any other kind
//! of line are errors. Empty lines and blanks are fine. The writer keeps every line within
//! [`MAX_LINE`] bytes, the competitions' limit.

use std::cmp::Ordering;
use std::fmt;
use std::io::{self, Read, Write};

use grim_solver::Lit;

use super::dimacs::MAX_VARS;
use super::error::ParseError;
use super::source::{Number, Source};

/// Longest output line, newline included: SAT Competition rules cap lines at 4096 characters,
/// and checkers written in C read them into fixed buffers of that size, so the writer stays
/// at or below 4095 characters plus the newline.
pub const MAX_LINE: usize = 4096;

/// The answer on the `s` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// `s SATISFIABLE`: a model follows.
    Satisfiable,
    /// `s UNSATISFIABLE`.
    Unsatisfiable,
    /// `s UNKNOWN`: the solver gave up (limit or signal).
    Unknown,
}

impl Answer {
    /// The word on the `s` line.
    pub fn as_str(self) -> &'static str {
        match self {
            Answer::Satisfiable => "SATISFIABLE",
            Answer::Unsatisfiable => "UNSATISFIABLE",
            Answer::Unknown => "UNKNOWN",
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A solver's output, read by [`read_solution`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The answer.
    pub answer: Answer,
    /// Line of the `s` line.
    pub answer_line: u64,
    /// The model's literals, sorted by variable, each variable once (empty unless
    /// SATISFIABLE). Variables the model does not mention are unassigned.
    pub model: Vec<Lit>,
}

impl Solution {
    /// The value of `lit` under the model: `None` when its variable is unassigned. A binary
    /// search, so a model of any size costs no more memory than its literals, whatever
    /// variable numbers it names.
    pub fn value(&self, lit: Lit) -> Option<bool> {
        let i = self
            .model
            .binary_search_by_key(&lit.var(), |l| l.var())
            .ok()?;
        self.model.get(i).map(|&m| m == lit)
    }
}

/// Reads a solver's output (see the module documentation for what is accepted).
pub fn read_solution<R: Read>(reader: R) -> Result<Solution, ParseError> {
    let mut src = Source::new(reader);
    // (answer, line, column) of the `s` line.
    let mut status: Option<(Answer, u64, u64)> = None;
    // Position of the first `v` token, and line of the terminating 0.
    let mut first_v: Option<(u64, u64)> = None;
    let mut end_line: Option<u64> = None;
    // Every model literal with its position, for the conflict report.
    let mut lits: Vec<(Lit, u64, u64)> = Vec::new();
    while let Some(b) = src.skip_blanks()? {
        if b == b'c' {
            src.skip_line()?;
            continue;
        }
        let head = src.token()?;
        match head.bytes() {
            Some(b"s") => {
                if let Some((_, first_line, _)) = status {
                    return Err(ParseError::DuplicateStatus {
                        line: head.line,
                        column: head.column,
                        first_line,
                    });
                }
                let answer = read_answer(&mut src)?;
                status = Some((answer, head.line, head.column));
            }
            Some(b"v") => {
                first_v.get_or_insert((head.line, head.column));
                read_values(&mut src, &mut lits, &mut end_line)?;
            }
            _ => {
                return Err(ParseError::UnexpectedLine {
                    line: head.line,
                    column: head.column,
                    found: head.snippet(),
                });
            }
        }
    }
    let Some((answer, answer_line, answer_column)) = status else {
        let (line, column) = src.position();
        return Err(ParseError::MissingStatus { line, column });
    };
    match (answer, first_v) {
        (Answer::Satisfiable, None) => {
            return Err(ParseError::MissingModel {
                line: answer_line,
                column: answer_column,
            });
        }
        (Answer::Satisfiable, Some((v_line, _))) if end_line.is_none() => {
            let (line, column) = src.position();
            return Err(ParseError::UnterminatedModel {
                line,
                column,
                model_line: v_line,
            });
        }
        (Answer::Unsatisfiable | Answer::Unknown, Some((line, column))) => {
            return Err(ParseError::ModelWithoutSat {
                line,
                column,
                answer: answer.as_str(),
            });
        }
        _ => {}
    }
    let model = consistent_model(lits)?;
    Ok(Solution {
        answer,
        answer_line,
        model,
    })
}

/// The rest of an `s` line: one answer word, then the end of the line.
fn read_answer<R: Read>(src: &mut Source<R>) -> Result<Answer, ParseError> {
    let (line, column) = src.position();
    let word = match src.skip_inline_blanks()? {
        None | Some(b'\n') => {
            return Err(ParseError::BadStatus {
                line,
                column,
                found: "the end of the line".to_string(),
            });
        }
        Some(_) => src.token()?,
    };
    let answer = match word.bytes() {
        Some(b"SATISFIABLE") => Answer::Satisfiable,
        Some(b"UNSATISFIABLE") => Answer::Unsatisfiable,
        Some(b"UNKNOWN") => Answer::Unknown,
        _ => {
            return Err(ParseError::BadStatus {
                line: word.line,
                column: word.column,
                found: word.snippet(),
            });
        }
    };
    match src.skip_inline_blanks()? {
        None | Some(b'\n') => Ok(answer),
        Some(_) => {
            let extra = src.token()?;
            Err(ParseError::BadStatus {
                line: word.line,
                column: word.column,
                found: format!("{} {}", word.snippet(), extra.snippet()),
            })
        }
    }
}

/// The rest of a `v` line: literals, possibly the terminating 0.
fn read_values<R: Read>(
    src: &mut Source<R>,
    lits: &mut Vec<(Lit, u64, u64)>,
    end_line: &mut Option<u64>,
) -> Result<(), ParseError> {
    loop {
        match src.skip_inline_blanks()? {
            None | Some(b'\n') => return Ok(()),
            Some(_) => {}
        }
        let token = src.token()?;
        let (line, column) = (token.line, token.column);
        match token.number {
            Number::Int {
                negative,
                magnitude,
            } => {
                if let Some(end_line) = *end_line {
                    return Err(ParseError::LiteralAfterEnd {
                        line,
                        column,
                        value: token.as_i64().unwrap_or(i64::MAX),
                        end_line,
                    });
                }
                if magnitude == 0 {
                    *end_line = Some(line);
                    continue;
                }
                if magnitude > MAX_VARS {
                    return Err(ParseError::TooManyVariables {
                        line,
                        column,
                        value: magnitude,
                    });
                }
                // magnitude ≤ 2^31 - 1: exact.
                let value = if negative {
                    -(magnitude as i64)
                } else {
                    magnitude as i64
                };
                let lit = Lit::from_dimacs(value).ok_or(ParseError::TooManyVariables {
                    line,
                    column,
                    value: magnitude,
                })?;
                lits.push((lit, line, column));
            }
            Number::Overflow => {
                return Err(ParseError::NumberOverflow {
                    line,
                    column,
                    token: token.snippet(),
                });
            }
            Number::Junk => {
                return Err(ParseError::JunkToken {
                    line,
                    column,
                    token: token.snippet(),
                    expected: "a literal (an optional `-` and decimal digits) or the `0` \
                               ending the model",
                });
            }
        }
    }
}

/// Sorts the model by variable, drops repeats, and refuses `x` together with `-x`, naming
/// the conflict whose later literal comes first in the file.
fn consistent_model(mut lits: Vec<(Lit, u64, u64)>) -> Result<Vec<Lit>, ParseError> {
    // Sorted by literal code (x before -x, as codes are 2v and 2v + 1), then by position: the
    // first entry of each literal is its first occurrence in the file.
    lits.sort_unstable();
    let mut conflict: Option<((u64, u64), Lit, u64)> = None;
    let mut previous: Option<(Lit, (u64, u64))> = None;
    for &(lit, line, column) in &lits {
        let here = (line, column);
        match previous {
            Some((p, _)) if p == lit => continue,
            Some((p, p_here)) if p.var() == lit.var() => {
                let (later, later_lit, earlier_line) = match p_here.cmp(&here) {
                    Ordering::Less => (here, lit, p_here.0),
                    _ => (p_here, p, line),
                };
                if conflict.is_none_or(|(pos, _, _)| later < pos) {
                    conflict = Some((later, later_lit, earlier_line));
                }
            }
            _ => {}
        }
        previous = Some((lit, here));
    }
    if let Some(((line, column), lit, first_line)) = conflict {
        return Err(ParseError::ConflictingLiteral {
            line,
            column,
            value: lit.to_dimacs(),
            first_line,
        });
    }
    let mut model: Vec<Lit> = lits.into_iter().map(|(l, _, _)| l).collect();
    model.dedup();
    Ok(model)
}

/// Writes `s ANSWER`.
pub fn write_answer(mut out: impl Write, answer: Answer) -> io::Result<()> {
    writeln!(out, "s {answer}")
}

/// Writes the model as `v` lines: the literals in the order given, then `0`, every line at
/// most [`MAX_LINE`] bytes with its newline. Streams: memory is one line whatever the model's
/// size.
pub fn write_model(mut out: impl Write, lits: impl IntoIterator<Item = Lit>) -> io::Result<()> {
    use std::fmt::Write as _;
    let mut line = String::with_capacity(MAX_LINE);
    let mut item = String::with_capacity(16);
    line.push('v');
    let tokens = lits
        .into_iter()
        .map(|l| l.to_dimacs())
        .chain(std::iter::once(0));
    for value in tokens {
        item.clear();
        // Writing into a String cannot fail.
        let _ = write!(item, " {value}");
        // `+ 1` for the newline.
        if line.len() + item.len() + 1 > MAX_LINE {
            line.push('\n');
            out.write_all(line.as_bytes())?;
            line.clear();
            line.push('v');
        }
        line.push_str(&item);
    }
    line.push('\n');
    out.write_all(line.as_bytes())
}

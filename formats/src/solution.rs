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

use std::io::{self, Read, Write};

use grim_solver::Lit;

use crate::error::{OutputKind, ParseError, ParseErrorKind};
use crate::literal::{ModelLits, Shown};
use crate::output::{Status, answers, each_line, require_status, status_line};
use crate::source::Source;

/// Longest output line, newline included: SAT Competition rules cap lines at 4096 characters,
/// and checkers written in C read them into fixed buffers of that size, so the writer stays
/// at or below 4095 characters plus the newline.
pub const MAX_LINE: usize = 4096;

answers! {
    /// The answer on the `s` line.
    pub enum Answer {
        /// `s SATISFIABLE`: a model follows.
        Satisfiable => "SATISFIABLE",
        /// `s UNSATISFIABLE`.
        Unsatisfiable => "UNSATISFIABLE",
        /// `s UNKNOWN`: the solver gave up (limit or signal).
        Unknown => "UNKNOWN",
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
    let mut status: Status<Answer> = None;
    // Position of the first `v` token.
    let mut first_v: Option<(u64, u64)> = None;
    // Every model literal with its position, for the conflict report.
    let mut lits = ModelLits::default();
    each_line(&mut src, |src, head| match head.bytes() {
        Some(b"s") => status_line(&mut status, src, &head, read_answer),
        Some(b"v") => {
            first_v.get_or_insert((head.line, head.column));
            read_values(src, &mut lits)
        }
        _ => Err(ParseErrorKind::UnexpectedLine {
            found: head.snippet(),
        }
        .at(head.line, head.column)),
    })?;
    let (answer, answer_line, answer_column) = require_status(status, &src, OutputKind::Sat)?;
    match (answer, first_v) {
        (Answer::Satisfiable, None) => {
            return Err(ParseErrorKind::MissingModel {
                output: OutputKind::Sat,
                answer: "SATISFIABLE",
            }
            .at(answer_line, answer_column));
        }
        (Answer::Satisfiable, Some((v_line, _))) if !lits.is_terminated() => {
            let (line, column) = src.position();
            return Err(ParseErrorKind::UnterminatedModel { model_line: v_line }.at(line, column));
        }
        (Answer::Unsatisfiable | Answer::Unknown, Some((line, column))) => {
            return Err(ParseErrorKind::ModelWithoutSolution {
                output: OutputKind::Sat,
                answer: answer.as_str(),
            }
            .at(line, column));
        }
        _ => {}
    }
    let model = lits.into_model()?;
    Ok(Solution {
        answer,
        answer_line,
        model,
    })
}

/// The rest of an `s` line: one answer word, then the end of the line.
fn read_answer<R: Read>(src: &mut Source<R>) -> Result<Answer, ParseError> {
    let (line, column) = src.position();
    let Some(word) = src.line_token()? else {
        return Err(ParseErrorKind::BadStatus {
            found: "the end of the line".to_string(),
        }
        .at(line, column));
    };
    let answer = match word.bytes() {
        Some(b"SATISFIABLE") => Answer::Satisfiable,
        Some(b"UNSATISFIABLE") => Answer::Unsatisfiable,
        Some(b"UNKNOWN") => Answer::Unknown,
        _ => {
            return Err(ParseErrorKind::BadStatus {
                found: word.snippet(),
            }
            .at(word.line, word.column));
        }
    };
    match src.line_token()? {
        None => Ok(answer),
        Some(extra) => Err(ParseErrorKind::BadStatus {
            found: format!("{} {}", word.snippet(), extra.snippet()),
        }
        .at(word.line, word.column)),
    }
}

/// The rest of a `v` line: literals, possibly the terminating 0.
fn read_values<R: Read>(src: &mut Source<R>, lits: &mut ModelLits) -> Result<(), ParseError> {
    let expected = "a literal (an optional `-` and decimal digits) or the `0` ending the model";
    while let Some(token) = src.line_token()? {
        lits.push(&token, expected, Shown::Signed)?;
    }
    Ok(())
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

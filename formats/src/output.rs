//! What the SAT ([`crate::solution`]) and the MaxSAT ([`crate::maxsat_output`]) output readers
//! share: the answer enums of the `s` line (declared through [`answers!`], so each is one table
//! of variants and words), and the line loop that hands each line's first token to the reader
//! and refuses a second `s` line.

use std::io::Read;

use crate::error::{OutputKind, ParseError, ParseErrorKind};
use crate::source::{Source, Token};

/// Declares an answer enum: each variant with the words of its `s` line, `as_str`, `Display`,
/// and `write_answer` beside it.
macro_rules! answers {
    (
        $(#[$meta:meta])*
        pub enum Answer { $( $(#[$vmeta:meta])* $variant:ident => $words:literal, )* }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Answer { $( $(#[$vmeta])* $variant, )* }

        impl Answer {
            /// The words on the `s` line.
            pub fn as_str(self) -> &'static str {
                match self { $( Answer::$variant => $words, )* }
            }
        }

        impl std::fmt::Display for Answer {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        /// Writes `s ANSWER`.
        pub fn write_answer(mut out: impl std::io::Write, answer: Answer) -> std::io::Result<()> {
            writeln!(out, "s {answer}")
        }
    };
}
pub(crate) use answers;

/// Where the `s` line was, with its answer.
pub(crate) type Status<A> = Option<(A, u64, u64)>;

/// Reads the output line by line, comments skipped: `line` gets each line's first token (the
/// source standing after it) and reads the rest of the line.
pub(crate) fn each_line<R: Read>(
    src: &mut Source<R>,
    mut line: impl FnMut(&mut Source<R>, Token) -> Result<(), ParseError>,
) -> Result<(), ParseError> {
    while src.skip_comments()?.is_some() {
        let head = src.token()?;
        line(src, head)?;
    }
    Ok(())
}

/// The `s` line whose first token is `head`, its answer read by `answer`: a second one is
/// [`ParseErrorKind::DuplicateStatus`], reported before its answer is read.
pub(crate) fn status_line<R: Read, A>(
    status: &mut Status<A>,
    src: &mut Source<R>,
    head: &Token,
    answer: impl FnOnce(&mut Source<R>) -> Result<A, ParseError>,
) -> Result<(), ParseError> {
    if let Some((_, first_line, _)) = status {
        return Err(ParseErrorKind::DuplicateStatus {
            first_line: *first_line,
        }
        .at(head.line, head.column));
    }
    *status = Some((answer(src)?, head.line, head.column));
    Ok(())
}

/// The `s` line's answer with its line and column, once the output is read; without one,
/// [`ParseErrorKind::MissingStatus`] at the end of the output (naming the answers `output`
/// has).
pub(crate) fn require_status<R: Read, A>(
    status: Status<A>,
    src: &Source<R>,
    output: OutputKind,
) -> Result<(A, u64, u64), ParseError> {
    status.ok_or_else(|| {
        let (line, column) = src.position();
        ParseErrorKind::MissingStatus { output }.at(line, column)
    })
}

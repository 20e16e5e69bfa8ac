//! The one literal reader: how a token becomes a [`Lit`], for the clause bodies of CNF and WCNF
//! ([`ClauseLits`]) and for the literal-list models of SAT and MaxSAT solver output
//! ([`ModelLits`]).
//!
//! Every reader goes through [`lit`]: a magnitude above [`MAX_VARS`] is
//! [`ParseErrorKind::TooManyVariables`] wherever it stands, and `-0` is `0`. What differs is what
//! surrounds it: a clause body checks literals against the header's variable count (an error
//! in strict mode, one warning otherwise); a model refuses literals after its terminating `0`
//! and a variable given both signs.

use std::cmp::Ordering;
use std::io::Read;

use grim_solver::Lit;

use crate::dimacs::{MAX_VARS, ParseOptions};
use crate::error::{ParseError, ParseErrorKind, Warning};
use crate::source::{Source, Token};

/// The literal `±magnitude` at `(line, column)` with its signed value. Precondition:
/// `magnitude` is not 0 (the callers read `0` as the end of a clause or model).
pub(crate) fn lit(
    negative: bool,
    magnitude: u64,
    line: u64,
    column: u64,
) -> Result<(Lit, i64), ParseError> {
    // The error is built only when needed: built up front and dropped, it cost 0.6% of
    // reading a large CNF (issue 40).
    let too_many = || ParseErrorKind::TooManyVariables { value: magnitude }.at(line, column);
    if magnitude > MAX_VARS {
        return Err(too_many());
    }
    // magnitude ≤ 2^31 - 1, so the cast and the negation are exact.
    let value = if negative {
        -(magnitude as i64)
    } else {
        magnitude as i64
    };
    let lit = Lit::from_dimacs(value).ok_or_else(too_many)?;
    Ok((lit, value))
}

/// The clause bodies of a CNF or WCNF (after the weight): their literals under the range rules
/// against the header's variable count, the clause count against the header's, and what a
/// lenient read reports about both. Shared by the two readers so that they apply one set of
/// rules.
pub(crate) struct Body<R> {
    src: Source<R>,
    options: ParseOptions,
    /// The header's variable count; `None` without a header (headerless WCNF), where every
    /// variable up to [`MAX_VARS`] is in range.
    declared_vars: Option<u64>,
    /// The header's clause count; `None` without a header.
    declared_clauses: Option<u64>,
    /// Clauses ended so far.
    clauses: u64,
    /// Largest variable (1-based) used by any literal so far.
    largest: u64,
    /// First literal beyond `declared_vars`: line, column, value.
    first_beyond: Option<(u64, u64, i64)>,
    /// How many literals were beyond `declared_vars`.
    beyond: u64,
    /// The end of the input was reached and checked.
    finished: bool,
    /// What a lenient read accepted; complete once `finished`.
    warnings: Vec<Warning>,
}

impl<R: Read> Body<R> {
    /// The clauses of `src`, which stands after the header (if any); `declared` is the header's
    /// `(variables, clauses)`, if there is one.
    pub(crate) fn new(
        src: Source<R>,
        options: ParseOptions,
        declared: Option<(u64, u64)>,
    ) -> Body<R> {
        Body {
            src,
            options,
            declared_vars: declared.map(|d| d.0),
            declared_clauses: declared.map(|d| d.1),
            clauses: 0,
            largest: 0,
            first_beyond: None,
            beyond: 0,
            finished: false,
            warnings: Vec::new(),
        }
    }

    /// The next token of the clause section, comments skipped; `None` once the input has
    /// ended — at its end, or at a `%` when `percent_ends` (DIMACS's SATLIB end marker, after
    /// which nothing is read) — and passed the end-of-input checks, with `open` the line of
    /// the clause still open, if any ([`Body::end_of_input`]).
    // Forced inline: see `Source::skip_comments`.
    #[inline(always)]
    pub(crate) fn next_token(
        &mut self,
        open: Option<u64>,
        percent_ends: bool,
    ) -> Result<Option<Token>, ParseError> {
        if self.finished {
            return Ok(None);
        }
        match self.src.skip_comments()? {
            None => {}
            Some(b'%') if percent_ends => {}
            Some(_) => return self.src.token().map(Some),
        }
        self.end_of_input(open)?;
        Ok(None)
    }

    /// The next integer of the clause section by [`Source::fast_int`] (comments skipped), or
    /// `None` when the slow path ([`Body::next_token`]) must read the next token: after the
    /// end of the input, or when the fast path declines it.
    #[inline(always)]
    pub(crate) fn fast_int(&mut self) -> Result<Option<(bool, u64, u64, u64)>, ParseError> {
        if self.finished {
            return Ok(None);
        }
        self.src.fast_int()
    }

    /// A token inside a clause: `Ok(None)` for the `0` that ends it, else its literal.
    #[inline]
    pub(crate) fn item(&mut self, token: &Token) -> Result<Option<Lit>, ParseError> {
        let (negative, magnitude) = token.int(
            "a literal (an optional `-` and decimal digits), `0` ending the clause, or a \
             comment `c ...`",
        )?;
        self.int_item(negative, magnitude, token.line, token.column)
    }

    /// An integer inside a clause, at `(line, column)`: `Ok(None)` for the `0` that ends it,
    /// else its literal under the range rules.
    #[inline(always)]
    pub(crate) fn int_item(
        &mut self,
        negative: bool,
        magnitude: u64,
        line: u64,
        column: u64,
    ) -> Result<Option<Lit>, ParseError> {
        if magnitude == 0 {
            return Ok(None);
        }
        let (lit, value) = lit(negative, magnitude, line, column)?;
        if let Some(declared) = self.declared_vars
            && magnitude > declared
        {
            if self.options.strict {
                return Err(ParseErrorKind::LiteralOutOfRange {
                    value,
                    max: declared,
                }
                .at(line, column));
            }
            self.beyond += 1;
            self.first_beyond.get_or_insert((line, column, value));
        }
        self.largest = self.largest.max(magnitude);
        Ok(Some(lit))
    }

    /// The clause begun at `start` (line, column) has ended: in strict mode, one more than the
    /// header declares is an error there.
    pub(crate) fn end_clause(&mut self, start: (u64, u64)) -> Result<(), ParseError> {
        self.clauses += 1;
        match self.declared_clauses {
            Some(declared) if self.options.strict && self.clauses > declared => {
                Err(ParseErrorKind::ClauseCountMismatch {
                    declared,
                    found: self.clauses,
                }
                .at(start.0, start.1))
            }
            _ => Ok(()),
        }
    }

    /// The input ended with the clause begun on line `open` still open, if any: that is
    /// [`ParseErrorKind::MissingFinalZero`]; otherwise the clause count's verdict
    /// ([`ParseOptions::clause_count`]) and the warnings of a lenient read.
    fn end_of_input(&mut self, open: Option<u64>) -> Result<(), ParseError> {
        let (line, column) = self.src.position();
        if let Some(clause_line) = open {
            return Err(ParseErrorKind::MissingFinalZero { clause_line }.at(line, column));
        }
        self.finished = true;
        if let Some(declared) = self.declared_clauses {
            let verdict = self
                .options
                .clause_count(declared, self.clauses, (line, column))?;
            self.warnings.extend(verdict);
        }
        if let (Some((line, column, value)), Some(declared)) =
            (self.first_beyond, self.declared_vars)
        {
            self.warnings.push(Warning::LiteralOutOfRange {
                line,
                column,
                value,
                declared,
                largest: self.largest,
                count: self.beyond,
            });
        }
        Ok(())
    }

    /// Warnings collected; complete once [`Body::next_token`] has returned `Ok(None)`.
    pub(crate) fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// The warnings, for a reader that has finished.
    pub(crate) fn into_warnings(self) -> Vec<Warning> {
        self.warnings
    }

    /// The largest variable (1-based) used so far; 0 before any literal.
    pub(crate) fn largest(&self) -> u64 {
        self.largest
    }

    /// Clauses ended so far.
    pub(crate) fn clauses(&self) -> u64 {
        self.clauses
    }
}

/// How a [`ParseErrorKind::LiteralAfterEnd`] shows the literal: signed (SAT output), or by its
/// magnitude (MaxSAT output, as its reader has always reported it).
#[derive(Clone, Copy)]
pub(crate) enum Shown {
    /// `-3` is shown as `-3`.
    Signed,
    /// `-3` is shown as `3`.
    Magnitude,
}

/// The literals of a literal-list model (`v` lines), with their positions, until the `0` that
/// terminates it.
#[derive(Default)]
pub(crate) struct ModelLits {
    /// Every literal with its line and column, in input order.
    lits: Vec<(Lit, u64, u64)>,
    /// Line of the terminating `0`, once read.
    end_line: Option<u64>,
}

impl ModelLits {
    /// Whether the terminating `0` has been read.
    pub(crate) fn is_terminated(&self) -> bool {
        self.end_line.is_some()
    }

    /// One token of a `v` line: a literal, or the `0` ending the model. A junk token is a
    /// [`ParseErrorKind::JunkToken`] expecting `expected`.
    pub(crate) fn push(
        &mut self,
        token: &Token,
        expected: &'static str,
        shown: Shown,
    ) -> Result<(), ParseError> {
        let (negative, magnitude) = token.int(expected)?;
        let (line, column) = (token.line, token.column);
        if let Some(end_line) = self.end_line {
            let value = match shown {
                Shown::Signed => token.as_i64(),
                Shown::Magnitude => i64::try_from(magnitude).ok(),
            };
            return Err(ParseErrorKind::LiteralAfterEnd {
                value: value.unwrap_or(i64::MAX),
                end_line,
            }
            .at(line, column));
        }
        if magnitude == 0 {
            self.end_line = Some(line);
            return Ok(());
        }
        let (lit, _) = lit(negative, magnitude, line, column)?;
        self.lits.push((lit, line, column));
        Ok(())
    }

    /// The model: sorted by variable, repeats dropped, `x` together with `-x` refused — naming
    /// the conflict whose later literal comes first in the input.
    pub(crate) fn into_model(self) -> Result<Vec<Lit>, ParseError> {
        let mut lits = self.lits;
        // Sorted by literal code (x before -x, as codes are 2v and 2v + 1), then by position:
        // the first entry of each literal is its first occurrence in the input.
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
            return Err(ParseErrorKind::ConflictingLiteral {
                value: lit.to_dimacs(),
                first_line,
            }
            .at(line, column));
        }
        let mut model: Vec<Lit> = lits.into_iter().map(|(l, _, _)| l).collect();
        model.dedup();
        Ok(model)
    }
}

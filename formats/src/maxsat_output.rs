//! The output of a MaxSAT solver, MaxSAT Evaluation style: `o`, `s` and `v` lines, read and
//! written.
//!
//! ```text
//! c any comment                  ignored, anywhere
//! o 17                           a solution of cost 17 was found (any number of `o` lines;
//! o 12                           the last one is the cost the answer claims)
//! s OPTIMUM FOUND                exactly one `s` line: OPTIMUM FOUND, SATISFIABLE,
//!                                UNSATISFIABLE or UNKNOWN
//! v 01101                        the model: one 0/1 character per variable, variable 1 first
//! ```
//! The model may also be given the pre-2020 way, as literals over one or more `v` lines
//! (`v 1 -2 -3 4`, an optional final `0`); a variable given both signs is an error. The two
//! are told apart by the first `v` line: **one token made of `0`s and `1`s only** is the 0/1
//! string, anything else is a literal list. The one ambiguous case, a single literal `1` or
//! `10` alone on the line, is read as the 0/1 string: a literal list covers every variable, so
//! a one-token list only arises on instances with a single variable, where `v 1` means the
//! same either way.
//!
//! Strictness, as in `solution.rs`: two `s` lines, a second `v` line after a 0/1 string, a
//! model under UNSATISFIABLE/UNKNOWN, an OPTIMUM FOUND/SATISFIABLE without a model or without
//! an `o` line, and any other kind of line are errors. Nothing here judges the model; that is
//! `grim-check`'s job.

use std::io::{self, Read, Write};

use grim_solver::Lit;

use crate::error::{OutputKind, ParseError, ParseErrorKind};
use crate::literal::{ModelLits, Shown};
use crate::output::{Status, answers, each_line, require_status, status_line};
use crate::source::{Number, Source, Token, is_blank};

answers! {
    /// The answer on the `s` line.
    pub enum Answer {
        /// `s OPTIMUM FOUND`: the model's cost is claimed optimal.
        OptimumFound => "OPTIMUM FOUND",
        /// `s SATISFIABLE`: a model, optimality not proven.
        Satisfiable => "SATISFIABLE",
        /// `s UNSATISFIABLE`: the hard clauses alone are unsatisfiable.
        Unsatisfiable => "UNSATISFIABLE",
        /// `s UNKNOWN`: no solution found.
        Unknown => "UNKNOWN",
    }
}

impl Answer {
    /// Whether the answer comes with a model (and a cost).
    pub fn has_solution(self) -> bool {
        matches!(self, Answer::OptimumFound | Answer::Satisfiable)
    }
}

/// A model as given in the output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Model {
    /// The 0/1 string: `bits[i]` is the value of variable `i + 1`.
    Bits(Vec<bool>),
    /// A literal list, sorted by variable, each variable once.
    Lits(Vec<Lit>),
}

impl Model {
    /// The value of `lit`: `None` when the model does not assign its variable (a 0/1 string
    /// that is too short, a literal list that omits it).
    pub fn value(&self, lit: Lit) -> Option<bool> {
        let var = match self {
            Model::Bits(bits) => bits.get(lit.var().index()).copied(),
            Model::Lits(lits) => {
                let i = lits.binary_search_by_key(&lit.var(), |l| l.var()).ok()?;
                lits.get(i).map(|l| l.is_positive())
            }
        }?;
        Some(var == lit.is_positive())
    }

    /// One more than the largest variable the model assigns.
    pub fn num_vars(&self) -> usize {
        match self {
            Model::Bits(bits) => bits.len(),
            Model::Lits(lits) => lits.last().map_or(0, |l| l.var().index() + 1),
        }
    }

    /// How many variables below `num_vars` the model leaves unassigned.
    pub fn unassigned_below(&self, num_vars: usize) -> usize {
        match self {
            Model::Bits(bits) => num_vars.saturating_sub(bits.len()),
            Model::Lits(lits) => {
                num_vars.saturating_sub(lits.iter().filter(|l| l.var().index() < num_vars).count())
            }
        }
    }
}

/// A MaxSAT solver's output, read by [`read_output`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// The answer.
    pub answer: Answer,
    /// Line of the `s` line.
    pub answer_line: u64,
    /// Every `o` line's cost with its line number, in order.
    pub costs: Vec<(u64, u64)>,
    /// The model (present exactly when `answer.has_solution()`).
    pub model: Option<Model>,
    /// Line of the first `v` line.
    pub model_line: Option<u64>,
}

impl Output {
    /// The last `o` line: `(cost, line)`.
    pub fn last_cost(&self) -> Option<(u64, u64)> {
        self.costs.last().copied()
    }
}

/// Model state while reading.
enum Pending {
    None,
    /// Only empty `v` lines so far.
    Empty,
    Bits(Vec<bool>),
    Lits(ModelLits),
}

/// Reads a MaxSAT solver's output (see the module documentation for what is accepted).
pub fn read_output<R: Read>(reader: R) -> Result<Output, ParseError> {
    let mut src = Source::new(reader);
    let mut status: Status<Answer> = None;
    let mut costs = Vec::new();
    let mut first_v: Option<(u64, u64)> = None;
    let mut pending = Pending::None;
    each_line(&mut src, |src, head| match head.bytes() {
        Some(b"s") => status_line(&mut status, src, &head, read_answer),
        Some(b"o") => {
            costs.push((read_cost(src)?, head.line));
            Ok(())
        }
        Some(b"v") => {
            let first_line = first_v.get_or_insert((head.line, head.column)).0;
            read_values(src, &mut pending, first_line)
        }
        _ => Err(ParseErrorKind::JunkToken {
            token: head.snippet(),
            expected: "a `c`, `o`, `s` or `v` line",
        }
        .at(head.line, head.column)),
    })?;
    let (answer, answer_line, answer_column) = require_status(status, &src, OutputKind::MaxSat)?;
    let model = match pending {
        Pending::None => None,
        Pending::Empty => Some(Model::Bits(Vec::new())),
        Pending::Bits(bits) => Some(Model::Bits(bits)),
        Pending::Lits(lits) => Some(Model::Lits(lits.into_model()?)),
    };
    match (answer.has_solution(), first_v) {
        (true, None) => {
            return Err(ParseErrorKind::MissingModel {
                output: OutputKind::MaxSat,
                answer: answer.as_str(),
            }
            .at(answer_line, answer_column));
        }
        (false, Some((line, column))) => {
            return Err(ParseErrorKind::ModelWithoutSolution {
                output: OutputKind::MaxSat,
                answer: answer.as_str(),
            }
            .at(line, column));
        }
        _ => {}
    }
    if answer.has_solution() && costs.is_empty() {
        return Err(ParseErrorKind::MissingCost {
            answer: answer.as_str(),
        }
        .at(answer_line, answer_column));
    }
    Ok(Output {
        answer,
        answer_line,
        costs,
        model,
        model_line: first_v.map(|(line, _)| line),
    })
}

/// The rest of an `s` line.
fn read_answer<R: Read>(src: &mut Source<R>) -> Result<Answer, ParseError> {
    let mut words: Vec<(Vec<u8>, String, u64, u64)> = Vec::new();
    while let Some(token) = src.line_token()? {
        words.push((
            token.bytes().unwrap_or(b"").to_vec(),
            token.snippet(),
            token.line,
            token.column,
        ));
        if words.len() > 2 {
            break;
        }
    }
    let (line, column) = words.first().map_or_else(|| src.position(), |w| (w.2, w.3));
    let spelled: Vec<&[u8]> = words.iter().map(|w| w.0.as_slice()).collect();
    let answer = match spelled.as_slice() {
        [b"OPTIMUM", b"FOUND"] => Answer::OptimumFound,
        [b"SATISFIABLE"] => Answer::Satisfiable,
        [b"UNSATISFIABLE"] => Answer::Unsatisfiable,
        [b"UNKNOWN"] => Answer::Unknown,
        _ => {
            let found: Vec<&str> = words.iter().map(|w| w.1.as_str()).collect();
            return Err(ParseErrorKind::JunkToken {
                token: if found.is_empty() {
                    "the end of the line".to_string()
                } else {
                    found.join(" ")
                },
                expected: "`OPTIMUM FOUND`, `SATISFIABLE`, `UNSATISFIABLE` or `UNKNOWN`",
            }
            .at(line, column));
        }
    };
    Ok(answer)
}

/// The rest of an `o` line: one non-negative integer.
fn read_cost<R: Read>(src: &mut Source<R>) -> Result<u64, ParseError> {
    let expected = "the cost after `o`: a non-negative integer up to 2^64 - 1";
    let Some(token) = src.line_token()? else {
        let (line, column) = src.position();
        return Err(ParseErrorKind::JunkToken {
            token: "the end of the line".to_string(),
            expected,
        }
        .at(line, column));
    };
    let cost = match token.number {
        Number::Int {
            negative,
            magnitude,
        } if !negative || magnitude == 0 => magnitude,
        Number::Overflow if !token.snippet().starts_with('-') => {
            return Err(ParseErrorKind::NumberOverflow {
                token: token.snippet(),
            }
            .at(token.line, token.column));
        }
        _ => {
            return Err(ParseErrorKind::JunkToken {
                token: token.snippet(),
                expected,
            }
            .at(token.line, token.column));
        }
    };
    match src.line_token()? {
        None => Ok(cost),
        Some(extra) => Err(ParseErrorKind::JunkToken {
            token: extra.snippet(),
            expected: "the end of the `o` line after the cost",
        }
        .at(extra.line, extra.column)),
    }
}

/// The rest of a `v` line, into `pending`.
fn read_values<R: Read>(
    src: &mut Source<R>,
    pending: &mut Pending,
    first_line: u64,
) -> Result<(), ParseError> {
    match src.skip_inline_blanks()? {
        None | Some(b'\n') => {
            // An empty `v` line: the empty 0/1 string (an instance without variables).
            if let Pending::None = pending {
                *pending = Pending::Empty;
            }
            return Ok(());
        }
        Some(_) => {}
    }
    if let Pending::Bits(_) = pending {
        let (line, column) = src.position();
        return Err(ParseErrorKind::DuplicateModel { first_line }.at(line, column));
    }
    // The first token, kept whole: it may be a 0/1 string of any length.
    let (line, column) = src.position();
    let mut first = Vec::new();
    while let Some(b) = src.peek()? {
        if is_blank(b) {
            break;
        }
        src.bump(b);
        first.push(b);
    }
    let rest_of_line = !matches!(src.skip_inline_blanks()?, None | Some(b'\n'));
    let all_bits = first.iter().all(|&b| b == b'0' || b == b'1');
    if !rest_of_line && all_bits && matches!(pending, Pending::None | Pending::Empty) {
        *pending = Pending::Bits(first.into_iter().map(|b| b == b'1').collect());
        return Ok(());
    }
    if matches!(pending, Pending::None | Pending::Empty) {
        *pending = Pending::Lits(ModelLits::default());
    }
    let Pending::Lits(lits) = pending else {
        return Ok(());
    };
    let expected = "a model: one string of `0`s and `1`s, or literals (an optional `-` and \
                    decimal digits)";
    lits.push(
        &Token::of_bytes(line, column, &first),
        expected,
        Shown::Magnitude,
    )?;
    while let Some(token) = src.line_token()? {
        lits.push(&token, expected, Shown::Magnitude)?;
    }
    Ok(())
}

/// Writes `o COST`.
pub fn write_cost(mut out: impl Write, cost: u64) -> io::Result<()> {
    writeln!(out, "o {cost}")
}

/// Writes the model as one `v` line of 0/1 characters, variable 1 first. The MaxSAT
/// Evaluation puts no limit on this line's length (it is `num_vars + 3` bytes). Streams in
/// chunks: memory is a fixed buffer whatever the model's size.
pub fn write_bits(mut out: impl Write, model: impl IntoIterator<Item = bool>) -> io::Result<()> {
    let mut line = Vec::with_capacity(8192);
    line.extend_from_slice(b"v ");
    for value in model {
        line.push(if value { b'1' } else { b'0' });
        if line.len() >= 8192 {
            out.write_all(&line)?;
            line.clear();
        }
    }
    line.push(b'\n');
    out.write_all(&line)
}

//! Reading any solver's answer to a `grim-encode` CNF/WCNF: the SAT Competition's `s`/`v`
//! literal lines (CaDiCaL, MiniSat, Kissat, `grim-sat`) or the MaxSAT Evaluation's `o`/`s`
//! lines with a `v 0101…` string or an old-style literal list (RC2, `grim-sat` on WCNF).
//!
//! Which of the two readers is used is decided by the text: an output with an `o` line or an
//! `s OPTIMUM FOUND` line is a MaxSAT output ([`grim_formats::maxsat_output`]), anything
//! else a SAT output ([`grim_formats::solution`]). Both readers are strict (a cut-off model,
//! a variable given both signs, a stray line are errors with their line and column), so a
//! damaged file is reported rather than decoded into a wrong map.

use std::io::Read;

use grim_solver::{Lit, Var};

use grim_formats::maxsat_output::{self, read_output};
use grim_formats::solution::{self, read_solution};
use grim_formats::{ParseError, ParseErrorKind};

/// Largest solver output read into memory (1 GiB). A 256×256 grid's model is a few tens of
/// MB; anything beyond this is not an answer to a grid.
pub const MAX_OUTPUT: u64 = 1 << 30;

/// Which kind of output was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputKind {
    /// `s`/`v` literal lines.
    Sat,
    /// `o`/`s`/`v` lines.
    MaxSat,
}

/// What the solver answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A model: `values[i]` is variable `i + 1`'s value, `None` when the output leaves it
    /// unassigned. `optimal`: the MaxSAT solver claims `OPTIMUM FOUND`; `cost`: its last `o`
    /// line.
    Model {
        /// Per variable, the value given.
        values: Vec<Option<bool>>,
        /// `s OPTIMUM FOUND` (MaxSAT).
        optimal: bool,
        /// The last `o` line (MaxSAT).
        cost: Option<u64>,
        /// One more than the largest variable the output assigns — beyond `num_vars` (or well
        /// short of it) when the output answers another formula: a program decoding it can
        /// say that the variable map does not fit rather than report a cell without a tile.
        assigned: usize,
    },
    /// `s UNSATISFIABLE`.
    Unsatisfiable,
    /// `s UNKNOWN`.
    Unknown,
}

/// Reads a solver's output (see the module documentation) into values for variables
/// `1..=num_vars`; a model's literals beyond `num_vars` are ignored (a solver may add its
/// own variables).
pub fn read_answer(input: impl Read, num_vars: usize) -> Result<(OutputKind, Answer), ParseError> {
    let mut text = Vec::new();
    input
        .take(MAX_OUTPUT + 1)
        .read_to_end(&mut text)
        .map_err(|source| ParseErrorKind::Io { source }.at(1, 1))?;
    if text.len() as u64 > MAX_OUTPUT {
        return Err(ParseErrorKind::Io {
            source: std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("the solver output is larger than {MAX_OUTPUT} bytes"),
            ),
        }
        .at(1, 1));
    }
    let values = |value: &dyn Fn(Lit) -> Option<bool>| -> Vec<Option<bool>> {
        (0..num_vars)
            .map(|i| {
                u32::try_from(i)
                    .ok()
                    .and_then(Var::new)
                    .and_then(|v| value(v.pos()))
            })
            .collect()
    };
    if looks_like_maxsat(&text) {
        let out = read_output(text.as_slice())?;
        let answer = match (out.answer, &out.model) {
            (maxsat_output::Answer::Unsatisfiable, _) => Answer::Unsatisfiable,
            (maxsat_output::Answer::Unknown, _) | (_, None) => Answer::Unknown,
            (a, Some(model)) => Answer::Model {
                values: values(&|l| model.value(l)),
                optimal: a == maxsat_output::Answer::OptimumFound,
                cost: out.last_cost().map(|(cost, _)| cost),
                assigned: model.num_vars(),
            },
        };
        Ok((OutputKind::MaxSat, answer))
    } else {
        let out = read_solution(text.as_slice())?;
        let answer = match out.answer {
            solution::Answer::Satisfiable => Answer::Model {
                values: values(&|l| out.value(l)),
                optimal: false,
                cost: None,
                assigned: out.model.last().map_or(0, |l| l.var().index() + 1),
            },
            solution::Answer::Unsatisfiable => Answer::Unsatisfiable,
            solution::Answer::Unknown => Answer::Unknown,
        };
        Ok((OutputKind::Sat, answer))
    }
}

/// An `o` line, or `s OPTIMUM FOUND`, anywhere at the start of a line.
fn looks_like_maxsat(text: &[u8]) -> bool {
    text.split(|&b| b == b'\n').any(|line| {
        let line = line.trim_ascii_start();
        let o_line =
            line.first() == Some(&b'o') && line.get(1).is_none_or(|b| b.is_ascii_whitespace());
        let optimum = line.first() == Some(&b's')
            && line
                .get(1..)
                .is_some_and(|rest| rest.trim_ascii().starts_with(b"OPTIMUM"));
        o_line || optimum
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(text: &str, n: usize) -> (OutputKind, Vec<Option<bool>>) {
        match read_answer(text.as_bytes(), n).unwrap() {
            (kind, Answer::Model { values, .. }) => (kind, values),
            other => panic!("no model: {other:?}"),
        }
    }

    #[test]
    fn sat_literal_lines_are_read() {
        let (kind, v) = model("c hi\ns SATISFIABLE\nv 1 -2\nv 3 0\n", 4);
        assert_eq!(kind, OutputKind::Sat);
        assert_eq!(v, vec![Some(true), Some(false), Some(true), None]);
    }

    #[test]
    fn maxsat_bit_strings_and_literal_lists_are_read() {
        let (kind, v) = model("o 3\ns OPTIMUM FOUND\nv 101\n", 3);
        assert_eq!(kind, OutputKind::MaxSat);
        assert_eq!(v, vec![Some(true), Some(false), Some(true)]);
        let (kind, v) = model("o 0\ns SATISFIABLE\nv -1 2 0\n", 2);
        assert_eq!(kind, OutputKind::MaxSat);
        assert_eq!(v, vec![Some(false), Some(true)]);
    }

    #[test]
    fn unsatisfiable_and_unknown_are_answers() {
        assert_eq!(
            read_answer("s UNSATISFIABLE\n".as_bytes(), 2).unwrap().1,
            Answer::Unsatisfiable
        );
        assert_eq!(
            read_answer("s UNKNOWN\n".as_bytes(), 2).unwrap().1,
            Answer::Unknown
        );
    }

    #[test]
    fn a_cut_off_model_is_an_error() {
        assert!(read_answer("s SATISFIABLE\nv 1 -2\n".as_bytes(), 2).is_err());
        assert!(read_answer("".as_bytes(), 2).is_err());
    }
}

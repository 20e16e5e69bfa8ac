//! Reading what a solver printed: the competition output format of the SAT Competition (`s`
//! and `v` lines with DIMACS literals) and of the MaxSAT Evaluation (`o` cost lines, `s
//! OPTIMUM FOUND`, and since 2020 one `v` line of 0/1 characters).
//!
//! Deliberately tolerant, and independent of `grim_tools::formats`' strict readers: a
//! reference solver's output is whatever it is (comment lines, progress on stdout, a model
//! split over many `v` lines), and the harness must read every solver the same way
//! `compare.py` does, so that its solved counts match. What matters — the status, the last
//! cost, the model — is then checked, never trusted.

/// The status a solver claimed on its last `s` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// `s SATISFIABLE` (for a WCNF: a solution, not proven optimal).
    Sat,
    /// `s UNSATISFIABLE` (for a WCNF: the hard clauses are unsatisfiable).
    Unsat,
    /// `s OPTIMUM FOUND`.
    Optimum,
    /// `s UNKNOWN`, no `s` line, or anything else.
    Unknown,
}

impl Status {
    /// The short tag used in tables and CSV files.
    pub fn tag(self) -> &'static str {
        match self {
            Status::Sat => "SAT",
            Status::Unsat => "UNSAT",
            Status::Optimum => "OPT",
            Status::Unknown => "?",
        }
    }
}

/// A solver's answer as printed, before any check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// The last `s` line's status (`None`: no `s` line at all).
    pub status: Option<Status>,
    /// The last `o` line's cost, if any parsed.
    pub cost: Option<u64>,
    /// The model: `model[v - 1]` is variable `v`'s value, `None` where the solver gave none.
    /// Only variables `1..=num_vars` of the instance are kept: values beyond it cannot matter
    /// to any clause, and a solver printing `v 2000000000` must not make the harness allocate
    /// gigabytes.
    pub model: Vec<Option<bool>>,
    /// Whether any `v` line was seen.
    pub has_model: bool,
}

impl Answer {
    /// The status, `Unknown` when there was no `s` line.
    pub fn status(&self) -> Status {
        self.status.unwrap_or(Status::Unknown)
    }

    /// The value of DIMACS literal `lit` under the model: unassigned variables count as false,
    /// as in `compare.py` and in the MaxSAT Evaluation's checker.
    pub fn holds(&self, var_index: usize, positive: bool) -> bool {
        self.model
            .get(var_index)
            .copied()
            .flatten()
            .unwrap_or(false)
            == positive
    }
}

/// Parses a solver's standard output. `num_vars` bounds the model kept (see
/// [`Answer::model`]).
///
/// - `s` lines: `SATISFIABLE`, `UNSATISFIABLE`, `OPTIMUM FOUND`; anything else is `Unknown`;
///   the last one wins.
/// - `o` lines: the last parsable one wins (a solver improves its cost over time).
/// - `v` lines: either DIMACS literals (accumulated over lines, a later value of a variable
///   overriding an earlier one, `0` ignored) or one token of at least two characters, all `0`
///   and `1`: the MaxSAT Evaluation's bit string, character `i` being variable `i + 1`; the
///   last such line replaces any earlier model. A single `v 1` or `v 0` reads the same either
///   way (variable 1 true, or the terminator).
pub fn parse_output(text: &str, num_vars: usize) -> Answer {
    let mut answer = Answer {
        model: vec![None; num_vars],
        ..Answer::default()
    };
    for line in text.lines() {
        let Some((head, rest)) = line.split_once(' ') else {
            continue;
        };
        match head {
            "s" => {
                answer.status = Some(match rest.trim() {
                    "SATISFIABLE" => Status::Sat,
                    "UNSATISFIABLE" => Status::Unsat,
                    "OPTIMUM FOUND" => Status::Optimum,
                    _ => Status::Unknown,
                });
            }
            "o" => {
                if let Some(Ok(cost)) = rest.split_whitespace().next().map(str::parse::<u64>) {
                    answer.cost = Some(cost);
                }
            }
            "v" => {
                answer.has_model = true;
                let tokens: Vec<&str> = rest.split_whitespace().collect();
                if let [bits] = tokens[..]
                    && bits.len() > 1
                    && bits.bytes().all(|b| b == b'0' || b == b'1')
                {
                    for (slot, bit) in answer.model.iter_mut().zip(
                        bits.bytes()
                            .map(|b| Some(b == b'1'))
                            .chain(std::iter::repeat(None)),
                    ) {
                        *slot = bit;
                    }
                    continue;
                }
                for token in tokens {
                    let Ok(lit) = token.parse::<i64>() else {
                        continue;
                    };
                    let var = lit.unsigned_abs();
                    if var == 0 {
                        continue;
                    }
                    if let Some(slot) = usize::try_from(var - 1)
                        .ok()
                        .and_then(|i| answer.model.get_mut(i))
                    {
                        *slot = Some(lit > 0);
                    }
                }
            }
            _ => {}
        }
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sat_competition_output_reads_status_and_literals() {
        let a = parse_output("c hello\ns SATISFIABLE\nv 1 -2\nv 3 0\n", 4);
        assert_eq!(a.status(), Status::Sat);
        assert_eq!(a.model, vec![Some(true), Some(false), Some(true), None]);
        assert!(a.holds(2, true) && a.holds(3, false) && !a.holds(3, true));
    }

    #[test]
    fn maxsat_output_reads_the_last_cost_and_the_bit_string() {
        let a = parse_output("o 10\no 7\ns OPTIMUM FOUND\nv 0110\n", 3);
        assert_eq!((a.status(), a.cost), (Status::Optimum, Some(7)));
        assert_eq!(a.model, vec![Some(false), Some(true), Some(true)]);
        let none = parse_output("c nothing\n", 2);
        assert_eq!((none.status, none.has_model), (None, false));
        assert_eq!(none.status(), Status::Unknown);
    }

    #[test]
    fn absurd_literals_and_junk_are_ignored_without_allocating() {
        let a = parse_output("s SATISFIABLE\nv 9999999999999 -1 x 0\ns maybe\n", 1);
        assert_eq!(a.model, vec![Some(false)]);
        assert_eq!(a.status(), Status::Unknown, "the last s line wins");
    }
}

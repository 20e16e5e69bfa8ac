//! `grim-check`'s verdicts as library functions: a SAT solver's answer against a DIMACS CNF, or
//! a MaxSAT solver's answer against a WCNF (the format detected as `grim-sat` does; see
//! [`crate::formats::detect`], and [`CheckOptions::format`] to override), so that the verdict
//! logic is tested in process; the binary (`src/bin/grim-check.rs`) parses its arguments,
//! calls [`check_files`] and prints the [`Report`].
//!
//! The output is read first, then the instance is streamed clause by clause, so neither the
//! formula nor a dense copy of a literal-list model is held in memory.
//!
//! - CNF (`s` and `v` lines; see [`crate::formats::solution`]): for `s SATISFIABLE` every
//!   clause must contain a literal the model makes true.
//! - WCNF (`o`, `s` and `v` lines, the 0/1 `v` string or the old literal list; see
//!   [`crate::formats::maxsat_output`]): for `s OPTIMUM FOUND` and `s SATISFIABLE` every
//!   hard clause must contain a true literal, and the cost recomputed over the soft clauses
//!   must equal the last `o` line. Optimality itself is not checked (that needs a proof or
//!   another solver). An `o` line under `s UNSATISFIABLE` is a contradiction and is reported
//!   as wrong.
//!
//! A variable the model does not mention counts as unassigned and satisfies nothing (so it
//! cannot satisfy a hard clause, and a soft clause that only it could satisfy costs its
//! weight). UNSATISFIABLE and UNKNOWN cannot be refuted without a proof and are reported as
//! unchecked. One verdict line is for standard output, the warnings and notes for standard
//! error; [`crate::cli::check_exit`] has the exit codes.

use std::io::Cursor;
use std::path::Path;

use grim_solver::Lit;

use crate::cli::check_exit;
use crate::formats::detect::{Detected, Format, detect};
use crate::formats::dimacs::{ParseOptions, Parser};
use crate::formats::maxsat_output::{self, read_output};
use crate::formats::solution::{Answer, Solution, read_solution};
use crate::formats::wcnf::{self, Weight};
use crate::formats::{Input, ParseError, Warning, open_input, plural};

/// How the instance is read (`grim-check --strict`, `--relaxed`, `--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// Literals beyond the header's variable count and surplus clauses are errors.
    pub strict: bool,
    /// Fewer clauses than the header declares is a warning, not an error.
    pub relaxed: bool,
    /// The instance's format; `None` detects it.
    pub format: Option<Format>,
}

/// What a check concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `OK`: a model that satisfies every (hard) clause, with the cost of the last `o` line.
    Consistent,
    /// `UNCHECKED`: UNSATISFIABLE or UNKNOWN, which cannot be refuted without a proof.
    Unchecked,
    /// `WRONG`: a falsified (hard) clause, a cost that differs from the last `o` line, or an
    /// output that contradicts itself.
    Wrong,
    /// The instance or the output is malformed or unreadable (or both are standard input).
    Malformed,
}

impl Verdict {
    /// `grim-check`'s exit code for it ([`check_exit`]).
    pub fn exit_code(self) -> u8 {
        match self {
            Verdict::Consistent | Verdict::Unchecked => check_exit::OK,
            Verdict::Wrong => check_exit::WRONG,
            Verdict::Malformed => check_exit::MALFORMED,
        }
    }
}

/// A check's result: the verdict, its line for standard output, and the messages for standard
/// error, in the order `grim-check` prints them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// `OK: …`, `WRONG: …` or `UNCHECKED: …`; `None` when an input was malformed.
    pub line: Option<String>,
    /// Warnings, notes and errors, each a whole line starting `grim-check: `.
    pub messages: Vec<String>,
    /// The verdict.
    pub verdict: Verdict,
}

impl Report {
    fn new() -> Report {
        Report {
            line: None,
            messages: Vec::new(),
            verdict: Verdict::Malformed,
        }
    }

    /// The verdict line.
    fn say(&mut self, verdict: Verdict, line: String) {
        self.verdict = verdict;
        self.line = Some(line);
    }

    /// A line for standard error.
    fn tell(&mut self, message: String) {
        self.messages.push(message);
    }

    /// `grim-check`'s exit code ([`Verdict::exit_code`]).
    pub fn exit_code(&self) -> u8 {
        self.verdict.exit_code()
    }
}

/// The instance's name in messages and where the solver's output comes from.
struct Job {
    instance_name: String,
    output_name: String,
    open_output: Box<dyn FnOnce() -> Result<Input, ParseError>>,
    options: ParseOptions,
}

/// `grim-check INSTANCE OUTPUT`: checks the solver output in the file `output` against the
/// instance in the file `instance` (`-` is standard input, for one of the two).
pub fn check_files(instance: &Path, output: &Path, options: CheckOptions) -> Report {
    let mut r = Report::new();
    if instance == Path::new("-") && output == Path::new("-") {
        r.tell(
            "grim-check: error: only one of INSTANCE and OUTPUT can be standard input".to_string(),
        );
        return r;
    }
    let input = open_input(instance);
    let output_path = output.to_path_buf();
    let job = Job {
        instance_name: display(instance),
        output_name: display(output),
        open_output: Box::new(move || open_input(&output_path)),
        options: ParseOptions {
            strict: options.strict,
            relaxed: options.relaxed,
        },
    };
    check(&mut r, job, input, instance, options.format);
    r
}

/// Checks the solver output `output` against the instance `instance`, both in memory (plain
/// or compressed): [`check_files`] without files. `instance_name` is the instance's name in
/// messages, and what the format detection reads when the contents leave it open (a name
/// ending in `.wcnf` or `.cnf`).
pub fn check_bytes(
    instance: Vec<u8>,
    instance_name: &str,
    output: Vec<u8>,
    options: CheckOptions,
) -> Report {
    let mut r = Report::new();
    let job = Job {
        instance_name: instance_name.to_string(),
        output_name: "<output>".to_string(),
        open_output: Box::new(move || Input::sniff(Cursor::new(output))),
        options: ParseOptions {
            strict: options.strict,
            relaxed: options.relaxed,
        },
    };
    let input = Input::sniff(Cursor::new(instance));
    check(&mut r, job, input, Path::new(instance_name), options.format);
    r
}

fn check(
    r: &mut Report,
    job: Job,
    input: Result<Input, ParseError>,
    path: &Path,
    forced: Option<Format>,
) {
    let detected = match input.and_then(|i| detect(i, path, forced)) {
        Ok(d) => d,
        Err(e) => {
            malformed(r, &job.instance_name, &e);
            return;
        }
    };
    let code = match detected.format {
        Format::Cnf => check_cnf(r, job, detected),
        Format::Wcnf => check_wcnf(r, job, detected),
    };
    debug_assert_eq!(code, r.exit_code(), "the verdict and the exit code agree");
}

fn display(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

fn malformed(r: &mut Report, path: &str, error: &ParseError) -> u8 {
    r.verdict = Verdict::Malformed;
    r.tell(format!("grim-check: error: {}", error.with_path(path)));
    check_exit::MALFORMED
}

/// The first falsified clause: its 1-based index, line, and literals.
struct Violation {
    index: u64,
    line: u64,
    clause: Vec<Lit>,
}

/// The clauses a model leaves unsatisfied: how many, and the first.
#[derive(Default)]
struct Violations {
    first: Option<Violation>,
    count: u64,
}

impl Violations {
    /// Counts clause `index` (1-based), read at `line`, as unsatisfied.
    fn add(&mut self, index: u64, line: u64, clause: &[Lit]) {
        self.count += 1;
        if self.first.is_none() {
            self.first = Some(Violation {
                index,
                line,
                clause: clause.to_vec(),
            });
        }
    }
}

/// Reads the solver's output with `read`, then opens the instance's reader with `open`: what
/// both checks start with. A malformed file is reported with its path and ends the check.
fn read_both<O, P>(
    r: &mut Report,
    job: Job,
    input: Detected,
    read: impl FnOnce(Input) -> Result<O, ParseError>,
    open: impl FnOnce(Detected, ParseOptions) -> Result<P, ParseError>,
) -> Result<(O, P), u8> {
    let output = (job.open_output)()
        .and_then(read)
        .map_err(|e| malformed(r, &job.output_name, &e))?;
    let parser = open(input, job.options).map_err(|e| malformed(r, &job.instance_name, &e))?;
    Ok((output, parser))
}

/// Reads every clause of the instance with `next` (a reader's `next_clause`), handing each
/// to `visit` with the reader (for its counts), the clause's start and its literals: the
/// loop both checks share. A malformed clause is reported with the instance's path and ends
/// the check (the `Err` is the exit code).
fn read_clauses<P, S>(
    r: &mut Report,
    parser: &mut P,
    next: impl Fn(&mut P, &mut Vec<Lit>) -> Result<Option<S>, ParseError>,
    instance_path: &str,
    mut visit: impl FnMut(&P, S, &[Lit]),
) -> Result<(), u8> {
    let mut clause = Vec::new();
    while let Some(start) =
        next(parser, &mut clause).map_err(|e| malformed(r, instance_path, &e))?
    {
        visit(parser, start, &clause);
    }
    Ok(())
}

fn check_cnf(r: &mut Report, job: Job, input: Detected) -> u8 {
    let instance_path = job.instance_name.clone();
    let (solution, mut parser) = match read_both(r, job, input, read_solution, Parser::new) {
        Ok(both) => both,
        Err(code) => return code,
    };
    let check = solution.answer == Answer::Satisfiable;
    let mut violations = Violations::default();
    let read = read_clauses(
        r,
        &mut parser,
        Parser::next_clause,
        &instance_path,
        |parser, start, clause| {
            if check && !clause.iter().any(|&l| solution.value(l) == Some(true)) {
                violations.add(parser.num_clauses(), start.line, clause);
            }
        },
    );
    if let Err(code) = read {
        return code;
    }
    warn(r, parser.warnings(), &instance_path);
    let Violations {
        first,
        count: violated,
    } = violations;
    let clauses = parser.num_clauses();
    match solution.answer {
        Answer::Satisfiable => {
            note_extra_variables(r, &solution, parser.num_vars());
            match first {
                None => {
                    r.say(
                        Verdict::Consistent,
                        format!(
                            "OK: SATISFIABLE, and the model satisfies all {} of \
                         {instance_path}",
                            plural(clauses, "clause")
                        ),
                    );
                    check_exit::OK
                }
                Some(v) => {
                    r.say(Verdict::Wrong, format!(
                        "WRONG: the model does not satisfy clause {} (line {} of {instance_path}): \
                         {} ({violated} of {} unsatisfied)",
                        v.index,
                        v.line,
                        describe(&v.clause, |l| solution.value(l)),
                        plural(clauses, "clause")
                    ));
                    check_exit::WRONG
                }
            }
        }
        Answer::Unsatisfiable => {
            r.say(
                Verdict::Unchecked,
                format!(
                    "UNCHECKED: UNSATISFIABLE cannot be checked without a proof ({} read)",
                    plural(clauses, "clause")
                ),
            );
            check_exit::OK
        }
        Answer::Unknown => {
            r.say(
                Verdict::Unchecked,
                format!(
                    "UNCHECKED: UNKNOWN makes no claim ({} read)",
                    plural(clauses, "clause")
                ),
            );
            check_exit::OK
        }
    }
}

/// Prints the reader's warnings about the instance at `path`.
fn warn(r: &mut Report, warnings: &[Warning], path: &str) {
    for warning in warnings {
        r.tell(format!("grim-check: warning: {}", warning.with_path(path)));
    }
}

/// The clause in DIMACS with each literal's value, shortened past 16 literals:
/// `1 -3 0 [all false]` or `1 -3 0 [1 false, 1 unassigned]`.
fn describe(clause: &[Lit], value: impl Fn(Lit) -> Option<bool>) -> String {
    let mut text: Vec<String> = clause.iter().take(16).map(|l| l.to_string()).collect();
    if clause.len() > 16 {
        text.push(format!("... ({} literals)", clause.len()));
    }
    text.push("0".to_string());
    let unassigned = clause.iter().filter(|&&l| value(l).is_none()).count();
    let values = if clause.is_empty() {
        "the empty clause".to_string()
    } else if unassigned == 0 {
        "all literals false".to_string()
    } else {
        format!(
            "{} false, {unassigned} unassigned",
            clause.len() - unassigned
        )
    };
    format!("{} [{values}]", text.join(" "))
}

/// Literals on variables the instance does not have are harmless but suspicious: say so.
fn note_extra_variables(r: &mut Report, solution: &Solution, num_vars: u64) {
    let extra = solution
        .model
        .iter()
        .filter(|l| l.var().index() as u64 >= num_vars)
        .count();
    if extra > 0 {
        r.tell(format!(
            "grim-check: note: the model assigns {extra} variable{} beyond the instance's {num_vars}",
            if extra == 1 { "" } else { "s" }
        ));
    }
}

/// The WCNF check (see the module documentation).
fn check_wcnf(r: &mut Report, job: Job, input: Detected) -> u8 {
    let output_path = job.output_name.clone();
    let instance_path = job.instance_name.clone();
    let (output, mut parser) = match read_both(r, job, input, read_output, wcnf::Parser::new) {
        Ok(both) => both,
        Err(code) => return code,
    };
    let model = output.model.as_ref();
    let value = |l: Lit| model.and_then(|m| m.value(l));
    let mut violations = Violations::default();
    // Soft clauses falsified and their weight; the reader guarantees the soft weights sum
    // within u64, so the saturating add never saturates.
    let mut cost = 0u64;
    let mut falsified = 0u64;
    let read = read_clauses(
        r,
        &mut parser,
        wcnf::Parser::next_clause,
        &instance_path,
        |parser, start, clause| {
            if model.is_none() || clause.iter().any(|&l| value(l) == Some(true)) {
                return;
            }
            match start.weight {
                Weight::Hard => violations.add(parser.num_hard(), start.line, clause),
                Weight::Soft(w) => {
                    cost = cost.saturating_add(w);
                    falsified += 1;
                }
            }
        },
    );
    if let Err(code) = read {
        return code;
    }
    warn(r, parser.warnings(), &instance_path);
    let hard = parser.num_hard();
    let soft = parser.num_clauses() - hard;
    let num_vars = usize::try_from(parser.num_vars()).unwrap_or(usize::MAX);
    note_rising_costs(r, &output.costs);
    let answer = output.answer;
    match (answer, model, output.last_cost()) {
        (maxsat_output::Answer::Unsatisfiable, _, _) => {
            if let Some(&(claimed, line)) = output.costs.first() {
                r.say(
                    Verdict::Wrong,
                    format!(
                        "WRONG: UNSATISFIABLE, but the `o` line on line {line} of {output_path} \
                     reported a solution of cost {claimed}"
                    ),
                );
                return check_exit::WRONG;
            }
            r.say(
                Verdict::Unchecked,
                format!(
                    "UNCHECKED: UNSATISFIABLE cannot be checked without a proof ({hard} hard \
                 clauses read)"
                ),
            );
            check_exit::OK
        }
        (maxsat_output::Answer::Unknown, _, last) => {
            match last {
                Some((c, _)) => r.say(
                    Verdict::Unchecked,
                    format!(
                        "UNCHECKED: UNKNOWN makes no claim (its last `o` line says {c}, but \
                     without a model that cannot be checked)"
                    ),
                ),
                None => r.say(
                    Verdict::Unchecked,
                    format!("UNCHECKED: UNKNOWN makes no claim ({hard} hard clauses read)"),
                ),
            }
            check_exit::OK
        }
        (_, Some(model), Some((claimed, cost_line))) => {
            let unassigned = model.unassigned_below(num_vars);
            if unassigned > 0 {
                r.tell(format!(
                    "grim-check: note: the model leaves {unassigned} of the instance's \
                     {num_vars} variables unassigned; they satisfy no clause"
                ));
            }
            if model.num_vars() > num_vars {
                r.tell(format!(
                    "grim-check: note: the model assigns {} variables; the instance has \
                     {num_vars}",
                    model.num_vars()
                ));
            }
            if let Some(v) = &violations.first {
                r.say(
                    Verdict::Wrong,
                    format!(
                        "WRONG: the model does not satisfy hard clause {} (line {} of \
                     {instance_path}): {} ({} of {hard} hard clauses unsatisfied)",
                        v.index,
                        v.line,
                        describe(&v.clause, value),
                        violations.count
                    ),
                );
                return check_exit::WRONG;
            }
            if cost != claimed {
                r.say(
                    Verdict::Wrong,
                    format!(
                        "WRONG: the model costs {cost} ({falsified} of {soft} soft clauses \
                     falsified), but the last `o` line (line {cost_line} of {output_path}) \
                     claims {claimed}"
                    ),
                );
                return check_exit::WRONG;
            }
            let optimality = if answer == maxsat_output::Answer::OptimumFound {
                " (optimality not checked)"
            } else {
                ""
            };
            r.say(
                Verdict::Consistent,
                format!(
                    "OK: {answer}, cost {cost}: the model satisfies all {hard} hard clauses of \
                 {instance_path} and its recomputed cost matches the last `o` line{optimality}"
                ),
            );
            check_exit::OK
        }
        // The reader refuses a solution without a model or an `o` line.
        (_, _, _) => {
            r.verdict = Verdict::Malformed;
            r.tell(format!(
                "grim-check: error: {output_path}: {answer} without a model or an `o` line"
            ));
            check_exit::MALFORMED
        }
    }
}

/// The MaxSAT Evaluation expects each `o` line to improve on the previous one; a rise is not
/// wrong (only the last line is checked) but worth a note.
fn note_rising_costs(r: &mut Report, costs: &[(u64, u64)]) {
    if let Some(pair) = costs.windows(2).find(|w| matches!(w, [a, b] if b.0 > a.0))
        && let [a, b] = pair
    {
        r.tell(format!(
            "grim-check: note: the `o` lines do not decrease: {} on line {} after {} on line {}",
            b.0, b.1, a.0, a.1
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CNF: &str = "p cnf 3 3\n1 2 0\n-1 3 0\n-2 -3 0\n";
    const WCNF: &str = "h 1 2 0\nh -1 -2 0\n3 -1 0\n5 -2 0\n";

    /// The check of `output` against the instance `text` named `name` (its ending names the
    /// format).
    fn checked(text: &str, name: &str, output: &str) -> Report {
        let (text, output) = (text.as_bytes().to_vec(), output.as_bytes().to_vec());
        check_bytes(text, name, output, CheckOptions::default())
    }

    fn cnf(output: &str) -> Report {
        checked(CNF, "f.cnf", output)
    }

    fn wcnf(output: &str) -> Report {
        checked(WCNF, "f.wcnf", output)
    }

    #[test]
    fn a_model_that_satisfies_every_clause_is_consistent() {
        let r = cnf("s SATISFIABLE\nv 1 -2 3 0\n");
        assert_eq!(r.verdict, Verdict::Consistent, "{r:?}");
        assert_eq!(
            r.line.as_deref(),
            Some("OK: SATISFIABLE, and the model satisfies all 3 clauses of f.cnf")
        );
        assert_eq!(r.exit_code(), check_exit::OK);
    }

    #[test]
    fn a_falsified_clause_is_wrong_and_named_with_its_line() {
        let r = cnf("s SATISFIABLE\nv 1 2 -3 0\n");
        assert_eq!(r.verdict, Verdict::Wrong, "{r:?}");
        let line = r.line.clone().expect("a verdict line");
        assert!(
            line.starts_with("WRONG: the model does not satisfy clause 2 (line 3 of f.cnf)"),
            "{line}"
        );
        assert_eq!(r.exit_code(), check_exit::WRONG);
    }

    #[test]
    fn unsatisfiable_and_unknown_are_unchecked() {
        for answer in ["UNSATISFIABLE", "UNKNOWN"] {
            let r = cnf(&format!("s {answer}\n"));
            assert_eq!(r.verdict, Verdict::Unchecked, "{r:?}");
            assert_eq!(r.exit_code(), check_exit::OK);
        }
    }

    #[test]
    fn a_malformed_output_is_reported_with_its_name_and_no_verdict_line() {
        let r = cnf("s MAYBE\n");
        assert_eq!(r.verdict, Verdict::Malformed);
        assert_eq!(r.line, None);
        assert!(
            r.messages[0].starts_with("grim-check: error: <output>:1:3: unknown answer"),
            "{:?}",
            r.messages
        );
        assert_eq!(r.exit_code(), check_exit::MALFORMED);
    }

    #[test]
    fn a_maxsat_cost_is_recomputed_against_the_last_o_line() {
        // x1 true, x2 false: the hard clauses hold; soft -1 (3) is falsified.
        let ok = wcnf("o 3\ns OPTIMUM FOUND\nv 10\n");
        assert_eq!(ok.verdict, Verdict::Consistent, "{ok:?}");
        let wrong = wcnf("o 2\ns OPTIMUM FOUND\nv 10\n");
        assert_eq!(wrong.verdict, Verdict::Wrong, "{wrong:?}");
        assert!(
            wrong
                .line
                .as_deref()
                .is_some_and(|l| l.contains("the model costs 3")),
            "{wrong:?}"
        );
        let hard = wcnf("o 0\ns SATISFIABLE\nv 11\n");
        assert_eq!(hard.verdict, Verdict::Wrong, "{hard:?}");
        let contradiction = wcnf("o 3\ns UNSATISFIABLE\n");
        assert_eq!(contradiction.verdict, Verdict::Wrong, "{contradiction:?}");
    }

    #[test]
    fn rising_o_lines_are_noted_but_not_wrong() {
        let r = wcnf("o 3\no 5\no 3\ns SATISFIABLE\nv 10\n");
        assert_eq!(r.verdict, Verdict::Consistent, "{r:?}");
        assert!(
            r.messages.iter().any(|m| m.contains("do not decrease")),
            "{:?}",
            r.messages
        );
    }

    #[test]
    fn both_inputs_on_standard_input_are_refused() {
        let r = check_files(Path::new("-"), Path::new("-"), CheckOptions::default());
        assert_eq!(r.verdict, Verdict::Malformed);
        assert_eq!(r.exit_code(), check_exit::MALFORMED);
    }
}

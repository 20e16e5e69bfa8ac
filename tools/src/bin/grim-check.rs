//! `grim-check INSTANCE OUTPUT`: checks a SAT solver's answer against a DIMACS CNF, or a
//! MaxSAT solver's answer against a WCNF (the format is detected as `grim-sat` does; see
//! `grim_tools::formats::detect`, and `--format` to override).
//!
//! The output is read first, then the instance is streamed clause by clause, so neither the
//! formula nor a dense copy of a literal-list model is held in memory.
//!
//! - CNF (`s` and `v` lines; see `grim_tools::formats::solution`): for `s SATISFIABLE` every
//!   clause must contain a literal the model makes true.
//! - WCNF (`o`, `s` and `v` lines, the 0/1 `v` string or the old literal list; see
//!   `grim_tools::formats::maxsat_output`): for `s OPTIMUM FOUND` and `s SATISFIABLE` every
//!   hard clause must contain a true literal, and the cost recomputed over the soft clauses
//!   must equal the last `o` line. Optimality itself is not checked (that needs a proof or
//!   another solver). An `o` line under `s UNSATISFIABLE` is a contradiction and is reported
//!   as wrong.
//!
//! A variable the model does not mention counts as unassigned and satisfies nothing (so it
//! cannot satisfy a hard clause, and a soft clause that only it could satisfy costs its
//! weight). UNSATISFIABLE and UNKNOWN cannot be refuted without a proof and are reported as
//! unchecked. One verdict line goes to stdout; see `grim_tools::cli::check_exit` for the exit
//! codes.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser as _;
use grim_solver::Lit;
use grim_tools::cli::{FormatArg, check_exit};
use grim_tools::formats::detect::{Detected, Format, detect};
use grim_tools::formats::dimacs::{ParseOptions, Parser};
use grim_tools::formats::maxsat_output::{self, read_output};
use grim_tools::formats::solution::{Answer, Solution, read_solution};
use grim_tools::formats::wcnf::{self, Weight};
use grim_tools::formats::{Input, ParseError, Warning, open_input, plural};

const EXIT_CODES: &str = "\
Exit codes:
  0  consistent: a valid model (WCNF: satisfying every hard clause, with the cost of the last
     `o` line), or an UNSATISFIABLE/UNKNOWN answer (not checkable without a proof)
  1  wrong: the model falsifies a (hard) clause, its cost differs from the last `o` line, or
     the output contradicts itself (`o` lines under UNSATISFIABLE)
  2  malformed or unreadable instance or output, or a bad command line

Format: `p cnf` is CNF; `p wcnf`, or a clause marked `h` in the first 64 KiB, is WCNF; with
neither, a weight first is WCNF unless the name ends in .cnf, and otherwise a name ending in
.wcnf means WCNF and anything else CNF (compression suffixes allowed). --format overrides.";

/// Checks a SAT solver's output (s/v lines) against a DIMACS CNF instance, or a MaxSAT
/// solver's output (o/s/v lines) against a WCNF instance.
#[derive(clap::Parser, Debug)]
#[command(name = "grim-check", version, after_help = EXIT_CODES)]
struct Args {
    /// The instance: DIMACS CNF or WCNF, plain or compressed (gzip, xz, bzip2, lzma), or `-`
    /// for standard input.
    instance: PathBuf,
    /// The solver's output: `c`, `s` and `v` lines (and `o` lines for WCNF), plain or compressed,
    /// or `-` for standard input.
    output: PathBuf,
    /// Read the instance strictly (literals beyond the header's variable count and surplus
    /// clauses are errors).
    #[arg(long, conflicts_with = "relaxed")]
    strict: bool,
    /// Accept an instance with fewer clauses than its header declares (a warning; by default
    /// such an instance is refused as truncated, exit 2).
    #[arg(long)]
    relaxed: bool,
    /// The instance format; `auto` detects it (see the rule below).
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    format: FormatArg,
}

fn display(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.instance == Path::new("-") && args.output == Path::new("-") {
        eprintln!("grim-check: error: only one of INSTANCE and OUTPUT can be standard input");
        return ExitCode::from(check_exit::MALFORMED);
    }
    ExitCode::from(run(&args))
}

fn malformed(path: &str, error: &ParseError) -> u8 {
    eprintln!("grim-check: error: {}", error.with_path(path));
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

impl Args {
    /// How the instance is read (`--strict`, `--relaxed`).
    fn parse_options(&self) -> ParseOptions {
        ParseOptions {
            strict: self.strict,
            relaxed: self.relaxed,
        }
    }
}

fn run(args: &Args) -> u8 {
    let instance_path = display(&args.instance);
    let forced = args.format.forced();
    let detected = match open_input(&args.instance).and_then(|i| detect(i, &args.instance, forced))
    {
        Ok(d) => d,
        Err(e) => return malformed(&instance_path, &e),
    };
    match detected.format {
        Format::Cnf => run_cnf(args, detected),
        Format::Wcnf => run_wcnf(args, detected),
    }
}

/// Reads the solver's output with `read`, then opens the instance's reader with `open`: what
/// both checks start with. A malformed file is reported with its path and ends the check.
fn read_both<O, P>(
    args: &Args,
    input: Detected,
    read: impl FnOnce(Input) -> Result<O, ParseError>,
    open: impl FnOnce(Detected, ParseOptions) -> Result<P, ParseError>,
) -> Result<(O, P), u8> {
    let output = open_input(&args.output)
        .and_then(read)
        .map_err(|e| malformed(&display(&args.output), &e))?;
    let parser =
        open(input, args.parse_options()).map_err(|e| malformed(&display(&args.instance), &e))?;
    Ok((output, parser))
}

/// Reads every clause of the instance with `next` (a reader's `next_clause`), handing each
/// to `visit` with the reader (for its counts), the clause's start and its literals: the
/// loop both checks share. A malformed clause is reported with the instance's path and ends
/// the check (the `Err` is the exit code).
fn read_clauses<P, S>(
    parser: &mut P,
    next: impl Fn(&mut P, &mut Vec<Lit>) -> Result<Option<S>, ParseError>,
    instance_path: &str,
    mut visit: impl FnMut(&P, S, &[Lit]),
) -> Result<(), u8> {
    let mut clause = Vec::new();
    while let Some(start) = next(parser, &mut clause).map_err(|e| malformed(instance_path, &e))? {
        visit(parser, start, &clause);
    }
    Ok(())
}

fn run_cnf(args: &Args, input: Detected) -> u8 {
    let instance_path = display(&args.instance);
    let (solution, mut parser) = match read_both(args, input, read_solution, Parser::new) {
        Ok(both) => both,
        Err(code) => return code,
    };
    let check = solution.answer == Answer::Satisfiable;
    let mut violations = Violations::default();
    let read = read_clauses(
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
    warn(parser.warnings(), &instance_path);
    let Violations {
        first,
        count: violated,
    } = violations;
    let clauses = parser.num_clauses();
    match solution.answer {
        Answer::Satisfiable => {
            note_extra_variables(&solution, parser.num_vars());
            match first {
                None => {
                    println!(
                        "OK: SATISFIABLE, and the model satisfies all {} of \
                         {instance_path}",
                        plural(clauses, "clause")
                    );
                    check_exit::OK
                }
                Some(v) => {
                    println!(
                        "WRONG: the model does not satisfy clause {} (line {} of {instance_path}): \
                         {} ({violated} of {} unsatisfied)",
                        v.index,
                        v.line,
                        describe(&v.clause, |l| solution.value(l)),
                        plural(clauses, "clause")
                    );
                    check_exit::WRONG
                }
            }
        }
        Answer::Unsatisfiable => {
            println!(
                "UNCHECKED: UNSATISFIABLE cannot be checked without a proof ({} read)",
                plural(clauses, "clause")
            );
            check_exit::OK
        }
        Answer::Unknown => {
            println!(
                "UNCHECKED: UNKNOWN makes no claim ({} read)",
                plural(clauses, "clause")
            );
            check_exit::OK
        }
    }
}

/// Prints the reader's warnings about the instance at `path`.
fn warn(warnings: &[Warning], path: &str) {
    for warning in warnings {
        eprintln!("grim-check: warning: {}", warning.with_path(path));
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
fn note_extra_variables(solution: &Solution, num_vars: u64) {
    let extra = solution
        .model
        .iter()
        .filter(|l| l.var().index() as u64 >= num_vars)
        .count();
    if extra > 0 {
        eprintln!(
            "grim-check: note: the model assigns {extra} variable{} beyond the instance's {num_vars}",
            if extra == 1 { "" } else { "s" }
        );
    }
}

/// The WCNF check (see the module documentation).
fn run_wcnf(args: &Args, input: Detected) -> u8 {
    let output_path = display(&args.output);
    let instance_path = display(&args.instance);
    let (output, mut parser) = match read_both(args, input, read_output, wcnf::Parser::new) {
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
    warn(parser.warnings(), &instance_path);
    let hard = parser.num_hard();
    let soft = parser.num_clauses() - hard;
    let num_vars = usize::try_from(parser.num_vars()).unwrap_or(usize::MAX);
    note_rising_costs(&output.costs);
    let answer = output.answer;
    match (answer, model, output.last_cost()) {
        (maxsat_output::Answer::Unsatisfiable, _, _) => {
            if let Some(&(claimed, line)) = output.costs.first() {
                println!(
                    "WRONG: UNSATISFIABLE, but the `o` line on line {line} of {output_path} \
                     reported a solution of cost {claimed}"
                );
                return check_exit::WRONG;
            }
            println!(
                "UNCHECKED: UNSATISFIABLE cannot be checked without a proof ({hard} hard \
                 clauses read)"
            );
            check_exit::OK
        }
        (maxsat_output::Answer::Unknown, _, last) => {
            match last {
                Some((c, _)) => println!(
                    "UNCHECKED: UNKNOWN makes no claim (its last `o` line says {c}, but \
                     without a model that cannot be checked)"
                ),
                None => println!("UNCHECKED: UNKNOWN makes no claim ({hard} hard clauses read)"),
            }
            check_exit::OK
        }
        (_, Some(model), Some((claimed, cost_line))) => {
            let unassigned = model.unassigned_below(num_vars);
            if unassigned > 0 {
                eprintln!(
                    "grim-check: note: the model leaves {unassigned} of the instance's \
                     {num_vars} variables unassigned; they satisfy no clause"
                );
            }
            if model.num_vars() > num_vars {
                eprintln!(
                    "grim-check: note: the model assigns {} variables; the instance has \
                     {num_vars}",
                    model.num_vars()
                );
            }
            if let Some(v) = &violations.first {
                println!(
                    "WRONG: the model does not satisfy hard clause {} (line {} of \
                     {instance_path}): {} ({} of {hard} hard clauses unsatisfied)",
                    v.index,
                    v.line,
                    describe(&v.clause, value),
                    violations.count
                );
                return check_exit::WRONG;
            }
            if cost != claimed {
                println!(
                    "WRONG: the model costs {cost} ({falsified} of {soft} soft clauses \
                     falsified), but the last `o` line (line {cost_line} of {output_path}) \
                     claims {claimed}"
                );
                return check_exit::WRONG;
            }
            let optimality = if answer == maxsat_output::Answer::OptimumFound {
                " (optimality not checked)"
            } else {
                ""
            };
            println!(
                "OK: {answer}, cost {cost}: the model satisfies all {hard} hard clauses of \
                 {instance_path} and its recomputed cost matches the last `o` line{optimality}"
            );
            check_exit::OK
        }
        // The reader refuses a solution without a model or an `o` line.
        (_, _, _) => {
            eprintln!("grim-check: error: {output_path}: {answer} without a model or an `o` line");
            check_exit::MALFORMED
        }
    }
}

/// The MaxSAT Evaluation expects each `o` line to improve on the previous one; a rise is not
/// wrong (only the last line is checked) but worth a note.
fn note_rising_costs(costs: &[(u64, u64)]) {
    if let Some(pair) = costs.windows(2).find(|w| matches!(w, [a, b] if b.0 > a.0))
        && let [a, b] = pair
    {
        eprintln!(
            "grim-check: note: the `o` lines do not decrease: {} on line {} after {} on line {}",
            b.0, b.1, a.0, a.1
        );
    }
}

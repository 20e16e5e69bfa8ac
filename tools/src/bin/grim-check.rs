//! `grim-check INSTANCE OUTPUT`: checks a SAT solver's answer against a DIMACS CNF.
//!
//! The output is read first (`s` line and `v` lines; see `grim_tools::formats::solution` for
//! what is accepted), then the instance is streamed clause by clause, so neither the formula
//! nor a dense copy of the model is held in memory. For `s SATISFIABLE` every clause must
//! contain a literal the model makes true; a variable the model does not mention counts as
//! unassigned and satisfies nothing. UNSATISFIABLE and UNKNOWN cannot be refuted without a
//! proof and are reported as unchecked. One verdict line goes to stdout; see
//! `grim_tools::cli::check_exit` for the exit codes.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser as _;
use grim_solver::Lit;
use grim_tools::cli::check_exit;
use grim_tools::formats::dimacs::{ParseOptions, Parser};
use grim_tools::formats::solution::{Answer, Solution, read_solution};
use grim_tools::formats::{ParseError, open_input};

const EXIT_CODES: &str = "\
Exit codes:
  0  consistent: a valid model, or an UNSATISFIABLE/UNKNOWN answer (not checkable without a proof)
  1  wrong: the model falsifies a clause
  2  malformed or unreadable instance or output, or a bad command line";

/// Checks a SAT solver's output (s/v lines) against a DIMACS CNF instance.
#[derive(clap::Parser, Debug)]
#[command(name = "grim-check", version, after_help = EXIT_CODES)]
struct Args {
    /// The instance: DIMACS CNF, plain or gzip, or `-` for standard input.
    instance: PathBuf,
    /// The solver's output: `c`, `s` and `v` lines, plain or gzip, or `-` for standard input.
    output: PathBuf,
    /// Read the instance strictly (literals beyond the header's variable count and a wrong
    /// clause count are errors).
    #[arg(long)]
    strict: bool,
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

fn run(args: &Args) -> u8 {
    let output_path = display(&args.output);
    let instance_path = display(&args.instance);
    let solution = match open_input(&args.output).and_then(read_solution) {
        Ok(s) => s,
        Err(e) => return malformed(&output_path, &e),
    };
    let input = match open_input(&args.instance) {
        Ok(input) => input,
        Err(e) => return malformed(&instance_path, &e),
    };
    let mut parser = match Parser::new(
        input,
        ParseOptions {
            strict: args.strict,
        },
    ) {
        Ok(p) => p,
        Err(e) => return malformed(&instance_path, &e),
    };
    let check = solution.answer == Answer::Satisfiable;
    let mut first: Option<Violation> = None;
    let mut violated = 0u64;
    let mut clause = Vec::new();
    loop {
        let start = match parser.next_clause(&mut clause) {
            Ok(Some(start)) => start,
            Ok(None) => break,
            Err(e) => return malformed(&instance_path, &e),
        };
        if check && !clause.iter().any(|&l| solution.value(l) == Some(true)) {
            violated += 1;
            if first.is_none() {
                first = Some(Violation {
                    index: parser.num_clauses(),
                    line: start.line,
                    clause: clause.clone(),
                });
            }
        }
    }
    for warning in parser.warnings() {
        eprintln!("grim-check: warning: {}", warning.with_path(&instance_path));
    }
    let clauses = parser.num_clauses();
    match solution.answer {
        Answer::Satisfiable => {
            note_extra_variables(&solution, parser.num_vars());
            match first {
                None => {
                    println!(
                        "OK: SATISFIABLE, and the model satisfies all {clauses} clauses of \
                         {instance_path}"
                    );
                    check_exit::OK
                }
                Some(v) => {
                    println!(
                        "WRONG: the model does not satisfy clause {} (line {} of {instance_path}): \
                         {} ({violated} of {clauses} clauses unsatisfied)",
                        v.index,
                        v.line,
                        describe(&v.clause, &solution)
                    );
                    check_exit::WRONG
                }
            }
        }
        Answer::Unsatisfiable => {
            println!(
                "UNCHECKED: UNSATISFIABLE cannot be checked without a proof ({clauses} clauses \
                 read)"
            );
            check_exit::OK
        }
        Answer::Unknown => {
            println!("UNCHECKED: UNKNOWN makes no claim ({clauses} clauses read)");
            check_exit::OK
        }
    }
}

/// The clause in DIMACS with each literal's value, shortened past 16 literals:
/// `1 -3 0 [all false]` or `1 -3 0 [1 false, 1 unassigned]`.
fn describe(clause: &[Lit], solution: &Solution) -> String {
    let mut text: Vec<String> = clause.iter().take(16).map(|l| l.to_string()).collect();
    if clause.len() > 16 {
        text.push(format!("... ({} literals)", clause.len()));
    }
    text.push("0".to_string());
    let unassigned = clause
        .iter()
        .filter(|&&l| solution.value(l).is_none())
        .count();
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

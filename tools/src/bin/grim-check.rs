//! `grim-check INSTANCE OUTPUT`: checks a SAT solver's answer against a DIMACS CNF, or a
//! MaxSAT solver's answer against a WCNF (the format is detected as `grim-sat` does; see
//! `grim_tools::formats::detect`, and `--format` to override). The checks are the library's
//! (`grim_tools::check`, which documents them); this binary parses its arguments and prints
//! the report: one verdict line on stdout, warnings and notes on stderr; see
//! `grim_tools::cli::check_exit` for the exit codes.
#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser as _;
use grim_tools::check::{CheckOptions, check_files};
use grim_tools::cli::FormatArg;

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

fn main() -> ExitCode {
    let args = Args::parse();
    let options = CheckOptions {
        strict: args.strict,
        relaxed: args.relaxed,
        format: args.format.forced(),
    };
    let report = check_files(&args.instance, &args.output, options);
    for message in &report.messages {
        eprintln!("{message}");
    }
    if let Some(line) = &report.line {
        println!("{line}");
    }
    ExitCode::from(report.exit_code())
}

//! `grim-sat FILE|-`: the engine on a DIMACS CNF, with competition-style output.
//!
//! Output: `c` lines (banner, parse summary, `-v` progress, statistics), then `s SATISFIABLE`
//! with `v` lines (exit 10), `s UNSATISFIABLE` (exit 20) or `s UNKNOWN` (exit 0, a limit or
//! a signal stopped the search). Errors go to stderr as `grim-sat: error: FILE:LINE:COLUMN:
//! message`, with no `s` line on stdout; see `grim_tools::cli::sat_exit` for the codes.
//!
//! Every model is checked twice before it is printed: by the engine (`check_model` is forced
//! on before any clause is added) and here, against grim-sat's own copy of the parsed
//! clauses. A model that fails is an internal error (exit 5), never a printed answer.
#![forbid(unsafe_code)]

use std::io::{self, BufWriter, StdoutLock, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Parser as _;
use grim_solver::{Budget, Lit, Options, Solver, Status, Terminator, Var};
use grim_tools::cli::{options_help, per_second, sat_exit, split_option, stats_lines};
use grim_tools::formats::dimacs::{ParseOptions, Parser};
use grim_tools::formats::solution::{Answer, write_answer, write_model};
use grim_tools::formats::{ParseError, open_input};

const EXIT_CODES: &str = "\
Exit codes:
  10  s SATISFIABLE            20  s UNSATISFIABLE        0  s UNKNOWN (limit or signal)
   2  bad command line          3  malformed input         4  input/output error
   5  internal error (a model failed the check; no answer printed)
A second SIGINT/SIGTERM exits at once with 130/143.";

/// A CDCL SAT solver for DIMACS CNF (gzip recognised by its magic bytes).
#[derive(clap::Parser, Debug)]
#[command(name = "grim-sat", version, after_help = EXIT_CODES)]
struct Args {
    /// The instance: a DIMACS CNF file, plain or gzip, or `-` for standard input.
    #[arg(value_name = "FILE", required_unless_present = "help_options")]
    file: Option<PathBuf>,

    /// Stop with UNKNOWN after N conflicts.
    #[arg(long, value_name = "N")]
    conflicts: Option<u64>,

    /// Stop with UNKNOWN after N propagations.
    #[arg(long, value_name = "N")]
    propagations: Option<u64>,

    /// Stop with UNKNOWN after SECONDS of wall-clock time (fractions allowed), counted from
    /// the start, parsing included.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    time: Option<Duration>,

    /// Print only the `s` and `v` lines.
    #[arg(short, long, conflicts_with = "verbose")]
    quiet: bool,

    /// Print a progress line every --progress-interval conflicts.
    #[arg(short, long)]
    verbose: bool,

    /// Conflicts between two progress lines with -v (the search itself is unaffected).
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    progress_interval: u64,

    /// Treat literals beyond the header's variable count and a wrong clause count as errors
    /// (they are warnings otherwise).
    #[arg(long)]
    strict: bool,

    /// Do not print the `v` lines of a model.
    #[arg(short = 'n', long)]
    no_model: bool,

    /// Set an engine option (repeatable); see --help-options.
    #[arg(long = "opt", value_name = "NAME=VALUE")]
    opts: Vec<String>,

    /// List the engine options with their defaults and ranges, and exit.
    #[arg(long)]
    help_options: bool,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(format!("the time limit must be positive, got {text}"));
    }
    Duration::try_from_secs_f64(seconds).map_err(|e| format!("`{text}`: {e}"))
}

/// Why grim-sat ends without an answer.
enum Failure {
    Usage(String),
    Input { path: String, error: ParseError },
    Output(io::Error),
    Internal(String),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Output(e)
    }
}

fn main() -> ExitCode {
    let start = Instant::now();
    let args = Args::parse();
    if args.help_options {
        let mut stdout = io::stdout().lock();
        return match stdout
            .write_all(options_help().as_bytes())
            .and_then(|()| stdout.flush())
        {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("grim-sat: error: cannot write to standard output: {e}");
                ExitCode::from(sat_exit::IO)
            }
        };
    }
    let code = match run(&args, start) {
        Ok(code) => code,
        Err(Failure::Usage(message)) => {
            eprintln!("grim-sat: error: {message}");
            sat_exit::USAGE
        }
        Err(Failure::Input { path, error }) => {
            eprintln!("grim-sat: error: {}", error.with_path(&path));
            if error.is_io() {
                sat_exit::IO
            } else {
                sat_exit::PARSE
            }
        }
        Err(Failure::Output(e)) => {
            eprintln!("grim-sat: error: cannot write to standard output: {e}");
            sat_exit::IO
        }
        Err(Failure::Internal(message)) => {
            eprintln!("grim-sat: internal error: {message}");
            sat_exit::INTERNAL
        }
    };
    ExitCode::from(code)
}

/// Standard output with the `-q` rule applied to `c` lines.
struct Out {
    w: BufWriter<StdoutLock<'static>>,
    quiet: bool,
}

impl Out {
    fn comment(&mut self, line: &str) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        writeln!(self.w, "c {line}")
    }
}

/// The engine's options from `--opt`, with `check_model` forced on.
fn engine_options(args: &Args) -> Result<Options, Failure> {
    let mut options = Options::default();
    for text in &args.opts {
        let (name, value) = split_option(text)
            .ok_or_else(|| Failure::Usage(format!("--opt expects NAME=VALUE, got `{text}`")))?;
        options
            .set(name, value)
            .map_err(|e| Failure::Usage(format!("--opt {text}: {e}")))?;
    }
    let turned_off = args
        .opts
        .iter()
        .filter_map(|text| split_option(text))
        .any(|(name, _)| name == "check_model");
    if turned_off && !options.check_model {
        eprintln!(
            "grim-sat: warning: check_model is always on in grim-sat; ignoring --opt check_model"
        );
    }
    options.check_model = true;
    Ok(options)
}

/// Signal handling: the first SIGINT/SIGTERM sets the terminate flag (the search stops and
/// grim-sat answers UNKNOWN); a second one exits at once with 128 + the signal number, for
/// the case where something does not reach a check of the flag soon enough.
fn register_signals(term: &Terminator, signalled: &Arc<AtomicBool>) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::flag;
    for (signal, code) in [(SIGINT, 130), (SIGTERM, 143)] {
        let registered = flag::register_conditional_shutdown(signal, code, Arc::clone(signalled))
            .and_then(|_| flag::register(signal, Arc::clone(signalled)))
            .and_then(|_| flag::register(signal, term.flag()));
        if let Err(e) = registered {
            eprintln!("grim-sat: warning: cannot handle signal {signal}: {e}");
        }
    }
}

/// grim-sat's own copy of the clauses, flat, for the independent model check.
#[derive(Default)]
struct Clauses {
    lits: Vec<Lit>,
    ends: Vec<usize>,
}

impl Clauses {
    fn push(&mut self, clause: &[Lit]) {
        self.lits.extend_from_slice(clause);
        self.ends.push(self.lits.len());
    }

    /// The first clause with no true literal under `model`, with its index.
    fn first_unsatisfied(&self, model: &[bool]) -> Option<(usize, &[Lit])> {
        let mut begin = 0;
        for (index, &end) in self.ends.iter().enumerate() {
            let clause = self.lits.get(begin..end).unwrap_or(&[]);
            begin = end;
            let satisfied = clause.iter().any(|l| {
                model
                    .get(l.var().index())
                    .is_some_and(|&value| value != l.is_negative())
            });
            if !satisfied {
                return Some((index, clause));
            }
        }
        None
    }
}

/// Why the search ended without an answer.
#[derive(Clone, Copy)]
enum Stop {
    Signal,
    Time,
    Conflicts(u64),
    Propagations(u64),
    Engine,
}

fn run(args: &Args, start: Instant) -> Result<u8, Failure> {
    let options = engine_options(args)?;
    let defaults = Options::default();
    let changed: Vec<String> = Options::TABLE
        .iter()
        .filter(|spec| spec.name != "check_model")
        .filter_map(|spec| {
            let value = options.get(spec.name)?;
            (Some(&value) != defaults.get(spec.name).as_ref())
                .then(|| format!("{}={value}", spec.name))
        })
        .collect();
    let mut solver = Solver::with_options(options);
    let term = solver.terminator();
    let signalled = Arc::new(AtomicBool::new(false));
    register_signals(&term, &signalled);
    let timed_out = Arc::new(AtomicBool::new(false));
    if let Some(limit) = args.time {
        let term = term.clone();
        let timed_out = Arc::clone(&timed_out);
        let deadline = start + limit;
        // Detached: the process ends without joining it.
        std::thread::spawn(move || {
            std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
            timed_out.store(true, Ordering::SeqCst);
            term.terminate();
        });
    }

    let file = args.file.as_deref().unwrap_or(Path::new("-"));
    let path = if file == Path::new("-") {
        "<stdin>".to_string()
    } else {
        file.display().to_string()
    };
    let input_error = |error| Failure::Input {
        path: path.clone(),
        error,
    };
    let input = open_input(file).map_err(input_error)?;
    let gzip = input.is_gzip();
    let mut parser = Parser::new(
        input,
        ParseOptions {
            strict: args.strict,
        },
    )
    .map_err(input_error)?;
    let mut own = Clauses::default();
    let mut clause = Vec::new();
    let mut interrupted = false;
    while parser
        .next_clause(&mut clause)
        .map_err(input_error)?
        .is_some()
    {
        own.push(&clause);
        solver.add_clause(&clause);
        if own.ends.len() % 4096 == 0 && term.is_set() {
            interrupted = true;
            break;
        }
    }
    for warning in parser.warnings() {
        eprintln!("grim-sat: warning: {}", warning.with_path(&path));
    }
    let header = parser.header();
    // At most MAX_VARS (2^31 - 1): fits a usize wherever grim builds.
    let num_vars = usize::try_from(parser.num_vars()).unwrap_or(usize::MAX);
    let parse_seconds = start.elapsed().as_secs_f64();

    let mut out = Out {
        w: BufWriter::new(io::stdout().lock()),
        quiet: args.quiet,
    };
    out.comment(&format!(
        "grim-sat {} (grimoire CDCL engine)",
        env!("CARGO_PKG_VERSION")
    ))?;
    out.comment(&format!(
        "input: {path}{}",
        if gzip { " (gzip)" } else { "" }
    ))?;
    out.comment(&format!(
        "header: p cnf {} {} (line {})",
        header.num_vars, header.num_clauses, header.line
    ))?;
    if interrupted {
        out.comment("interrupted while reading the input")?;
        return finish(&mut out, Answer::Unknown);
    }
    out.comment(&format!(
        "parsed: {} variables, {} clauses, {} literals in {:.2} s",
        num_vars,
        own.ends.len(),
        own.lits.len(),
        parse_seconds
    ))?;
    if !changed.is_empty() {
        out.comment(&format!("options: {}", changed.join(" ")))?;
    }
    let mut limits = Vec::new();
    if let Some(n) = args.conflicts {
        limits.push(format!("{n} conflicts"));
    }
    if let Some(n) = args.propagations {
        limits.push(format!("{n} propagations"));
    }
    if let Some(t) = args.time {
        limits.push(format!("{:.3} s", t.as_secs_f64()));
    }
    if !limits.is_empty() {
        out.comment(&format!("limits: {}", limits.join(", ")))?;
    }
    out.comment("solving")?;
    out.w.flush()?;

    let solve_start = Instant::now();
    let (status, stop) = search(args, &mut solver, &mut out, &signalled, &timed_out)?;
    let seconds = start.elapsed().as_secs_f64();
    if !args.quiet {
        if let Some(stop) = stop {
            out.comment(&match stop {
                Stop::Signal => "stopped by a signal".to_string(),
                Stop::Time => "stopped by the time limit".to_string(),
                Stop::Conflicts(n) => format!("stopped by the conflict limit ({n})"),
                Stop::Propagations(n) => format!("stopped by the propagation limit ({n})"),
                Stop::Engine => "the engine stopped without an answer".to_string(),
            })?;
        }
        out.comment(&format!(
            "search took {:.2} s",
            solve_start.elapsed().as_secs_f64()
        ))?;
        for line in stats_lines(solver.stats(), seconds) {
            writeln!(out.w, "{line}")?;
        }
    }
    match status {
        Status::Unsat => finish(&mut out, Answer::Unsatisfiable),
        Status::Unknown => finish(&mut out, Answer::Unknown),
        Status::Sat => {
            let Some(model) = solver.model() else {
                return Err(Failure::Internal(
                    "the engine answered SAT but returned no model".to_string(),
                ));
            };
            if let Some((index, clause)) = own.first_unsatisfied(&model) {
                let shown: Vec<String> = clause.iter().map(|l| l.to_string()).collect();
                return Err(Failure::Internal(format!(
                    "the engine's model falsifies clause {} of {path} ({} 0); no answer \
                     printed. Please report this with the input.",
                    index + 1,
                    shown.join(" ")
                )));
            }
            write_answer(&mut out.w, Answer::Satisfiable)?;
            if !args.no_model {
                // Declared variables that occur in no clause are not in the engine's model;
                // any value satisfies, and false is printed.
                let lits = (0..num_vars).filter_map(|i| {
                    let var = Var::new(u32::try_from(i).ok()?)?;
                    Some(var.lit(model.get(i).copied().unwrap_or(false)))
                });
                write_model(&mut out.w, lits)?;
            }
            out.w.flush()?;
            Ok(sat_exit::SATISFIABLE)
        }
    }
}

fn finish(out: &mut Out, answer: Answer) -> Result<u8, Failure> {
    write_answer(&mut out.w, answer)?;
    out.w.flush()?;
    Ok(match answer {
        Answer::Satisfiable => sat_exit::SATISFIABLE,
        Answer::Unsatisfiable => sat_exit::UNSATISFIABLE,
        Answer::Unknown => sat_exit::UNKNOWN,
    })
}

/// Runs the engine within the limits: one `solve` call. With `-v`, the engine's progress
/// callback prints a `c progress` line every `--progress-interval` conflicts; it observes the
/// search without changing it, so `-v` runs take exactly the same path as quiet ones.
fn search(
    args: &Args,
    solver: &mut Solver,
    out: &mut Out,
    signalled: &AtomicBool,
    timed_out: &AtomicBool,
) -> Result<(Status, Option<Stop>), Failure> {
    let base_conflicts = solver.stats().conflicts;
    let base_props = solver.stats().propagations;
    if args.verbose {
        out.w.flush()?;
        let began = Instant::now();
        let mut last = (Instant::now(), base_props);
        solver.set_progress(
            args.progress_interval,
            Some(Box::new(move |stats: &grim_solver::Stats| {
                let now = Instant::now();
                let seconds = now.duration_since(last.0).as_secs_f64();
                let line = format!(
                    "c progress {:8.2} s  conflicts {}  restarts {}  learned {} (deleted {})  \
                     propagations/s {:.0}\n",
                    began.elapsed().as_secs_f64(),
                    stats.conflicts,
                    stats.restarts,
                    stats.learned,
                    stats.deleted,
                    per_second(stats.propagations - last.1, seconds)
                );
                last = (now, stats.propagations);
                // Progress is best effort: a closed stdout shows up at the answer, not here.
                let mut stdout = std::io::stdout().lock();
                let _ = stdout.write_all(line.as_bytes());
                let _ = stdout.flush();
            })),
        );
    }
    let status = solver.solve(
        &[],
        Budget {
            conflicts: args.conflicts,
            propagations: args.propagations,
        },
    );
    solver.set_progress(0, None);
    if status != Status::Unknown {
        return Ok((status, None));
    }
    let stats = solver.stats();
    let used_conflicts = stats.conflicts - base_conflicts;
    let used_props = stats.propagations - base_props;
    let stop = if signalled.load(Ordering::SeqCst) {
        Stop::Signal
    } else if timed_out.load(Ordering::SeqCst) {
        Stop::Time
    } else if let Some(n) = args.conflicts.filter(|&n| used_conflicts >= n) {
        Stop::Conflicts(n)
    } else if let Some(n) = args.propagations.filter(|&n| used_props >= n) {
        Stop::Propagations(n)
    } else {
        Stop::Engine
    };
    Ok((Status::Unknown, Some(stop)))
}

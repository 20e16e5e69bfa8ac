//! `grim-sat FILE|-`: the engine on a DIMACS CNF, or OLL MaxSAT on a WCNF, with
//! competition-style output. The format is detected from the contents (and, for a headerless
//! file starting with a weight, the `.wcnf` name); see `grim_tools::formats::detect`, and
//! `--format` to override.
//!
//! CNF output: `c` lines (banner, parse summary, `-v` progress, statistics), then
//! `s SATISFIABLE` with `v` lines (exit 10), `s UNSATISFIABLE` (exit 20) or `s UNKNOWN`
//! (exit 0, a limit or a signal stopped the search).
//!
//! WCNF output, the MaxSAT Evaluation way: `o COST` at every improvement (flushed at once, so
//! a harness that kills grim-sat still sees it), then `s OPTIMUM FOUND` (exit 30),
//! `s SATISFIABLE` (exit 10: a solution, optimality not proven because a limit or a signal
//! stopped the search), `s UNSATISFIABLE` (exit 20: the hard clauses alone) or `s UNKNOWN`
//! (exit 0), and the model as one `v` line of 0/1 characters, variable 1 first.
//!
//! Errors go to stderr as `grim-sat: error: FILE:LINE:COLUMN: message`, with no `s` line on
//! stdout; see `grim_tools::cli::sat_exit` for the codes.
//!
//! Every model is checked before it is printed: CNF models by the engine (`check_model` is
//! forced on before any clause is added) and here, against grim-sat's own copy of the parsed
//! clauses; WCNF models here, by recomputing the cost over the parsed instance (every hard
//! clause satisfied, the cost equal to the `o` line about to be or last printed). A model
//! that fails is an internal error (exit 5), never a printed answer.
#![forbid(unsafe_code)]

use std::io::{self, BufWriter, StdoutLock, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Parser as _;
use grim_encodings::maxsat::{Event, MaxSatStatus, Oll, OllOptions};
use grim_solver::{Budget, Lit, Options, ProofFormat, Solver, Status, Terminator, Var};
use grim_tools::cli::{
    options_help, parse_seconds, per_second, sat_exit, split_option, stats_lines, stats_summary,
};
use grim_tools::formats::detect::{Detected, Format, Reason, detect};
use grim_tools::formats::dimacs::{ParseOptions, Parser};
use grim_tools::formats::maxsat_output::{self, write_bits, write_cost};
use grim_tools::formats::solution::{Answer, write_answer, write_model};
use grim_tools::formats::wcnf::{self, Dialect, Weight};
use grim_tools::formats::{Compression, ParseError, Wcnf, open_input};

const EXIT_CODES: &str = "\
Exit codes:
  10  s SATISFIABLE (WCNF: a solution, optimality not proven)
  20  s UNSATISFIABLE          30  s OPTIMUM FOUND (WCNF)   0  s UNKNOWN (limit or signal)
   2  bad command line          3  malformed input         4  input/output error
   5  internal error (a model failed the check; no answer printed)
A second SIGINT/SIGTERM exits at once with 130/143.

Format: `p cnf` is CNF; `p wcnf` or a first clause marked `h` is WCNF; otherwise (no header)
a name ending in .wcnf or .wcnf.gz means WCNF and anything else CNF. --format overrides.";

/// The instance format, for `--format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum FormatArg {
    /// Detect from the contents and the name.
    Auto,
    /// DIMACS CNF.
    Cnf,
    /// WCNF (either dialect).
    Wcnf,
}

/// A CDCL SAT solver for DIMACS CNF and an OLL MaxSAT solver for WCNF (gzip, xz, bzip2 and
/// lzma input recognised by their magic bytes).
#[derive(clap::Parser, Debug)]
#[command(
    name = "grim-sat",
    version,
    after_help = EXIT_CODES,
    // FILE is required; clap would show it as `[FILE]` because --help-options needs none.
    override_usage = "grim-sat [OPTIONS] <FILE>\n       grim-sat --help-options"
)]
struct Args {
    /// The instance: a DIMACS CNF or WCNF file, plain or compressed (gzip, xz, bzip2, lzma), or
    /// `-` for standard input.
    #[arg(value_name = "FILE", required_unless_present = "help_options")]
    file: Option<PathBuf>,

    /// The instance format; `auto` detects it (see the rule below).
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    format: FormatArg,

    /// Stop after N conflicts (UNKNOWN; WCNF: SATISFIABLE with the best solution, if any).
    #[arg(long, value_name = "N")]
    conflicts: Option<u64>,

    /// Stop after N propagations (as --conflicts).
    #[arg(long, value_name = "N")]
    propagations: Option<u64>,

    /// Stop after SECONDS of wall-clock time (fractions allowed), counted from the start,
    /// parsing included (as --conflicts).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    time: Option<Duration>,

    /// Print only the `s` and `v` lines (and `o` lines for WCNF).
    #[arg(short, long, conflicts_with = "verbose")]
    quiet: bool,

    /// CNF: print a progress line every --progress-interval conflicts. WCNF: print a `c` line
    /// whenever the lower or the upper bound moves.
    #[arg(short, long)]
    verbose: bool,

    /// Conflicts between two progress lines with -v (the search itself is unaffected).
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    progress_interval: u64,

    /// Treat literals beyond the header's variable count and surplus clauses as errors (they
    /// are warnings otherwise; WCNF: old-format headers only).
    #[arg(long, conflicts_with = "relaxed")]
    strict: bool,

    /// Solve an input with fewer clauses than its header declares, with a warning. By default
    /// it is refused (exit 3): a file cut off at a clause boundary, such as an interrupted
    /// download, would otherwise be answered as if it were the whole formula.
    #[arg(long)]
    relaxed: bool,

    /// Write a DRAT proof of UNSAT to FILE (text; CNF only). Check it with an independent
    /// checker, e.g. `rate INSTANCE FILE` or `drat-trim INSTANCE FILE`.
    #[arg(long, value_name = "FILE")]
    proof: Option<std::path::PathBuf>,

    /// Write the DRAT proof in the binary format (smaller; both checkers read it).
    #[arg(long, requires = "proof")]
    binary_proof: bool,

    /// Print every statistics counter (by default a three-line summary; -v prints them all too).
    #[arg(long)]
    stats: bool,

    /// Do not print the model (`v` lines).
    #[arg(short = 'n', long)]
    no_model: bool,

    /// WCNF: flips of each local-search burst of the anytime phase, which improves the best
    /// solution when the lower bound stalls (0 turns the phase off; for measuring it).
    #[arg(long, value_name = "N", default_value_t = OllOptions::default().anytime_flips)]
    anytime_flips: u64,

    /// Set an engine option (repeatable); see --help-options.
    #[arg(long = "opt", value_name = "NAME=VALUE")]
    opts: Vec<String>,

    /// List the engine options with their defaults and ranges, and exit.
    #[arg(long)]
    help_options: bool,
}

/// Why grim-sat ends without an answer.
enum Failure {
    Usage(String),
    Input {
        path: String,
        error: ParseError,
        hint: Option<&'static str>,
    },
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
        Err(Failure::Input { path, error, hint }) => {
            eprintln!("grim-sat: error: {}", error.with_path(&path));
            if let Some(hint) = hint {
                eprintln!("grim-sat: note: {hint}");
            }
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

/// Signal handling, first half: the first SIGINT/SIGTERM sets `signalled`; a second one exits
/// at once with 128 + the signal number, for the case where something does not reach a check
/// of the flag soon enough. Registered before the input is read, so a signal during parsing
/// is seen.
fn register_signals(signalled: &Arc<AtomicBool>) {
    use signal_hook::consts::{SIGINT, SIGTERM, SIGXCPU};
    use signal_hook::flag;
    for (signal, code) in [(SIGINT, 130), (SIGTERM, 143)] {
        let registered = flag::register_conditional_shutdown(signal, code, Arc::clone(signalled))
            .and_then(|_| flag::register(signal, Arc::clone(signalled)));
        if let Err(e) = registered {
            eprintln!("grim-sat: warning: cannot handle signal {signal}: {e}");
        }
    }
    // SIGXCPU: the soft CPU limit (ulimit -t, RLIMIT_CPU, as competition harnesses set) is
    // answered like SIGTERM. The kernel repeats it every second, so it never forces an exit;
    // the hard limit does that.
    if let Err(e) = flag::register(SIGXCPU, Arc::clone(signalled)) {
        eprintln!("grim-sat: warning: cannot handle signal {SIGXCPU}: {e}");
    }
}

/// Signal handling, second half, once the engine exists: a signal also sets its terminate
/// flag (the search stops; CNF answers UNKNOWN, WCNF its best solution so far). A signal
/// that came before this registration is passed on here.
fn register_terminator(term: &Terminator, signalled: &AtomicBool) {
    use signal_hook::consts::{SIGINT, SIGTERM, SIGXCPU};
    use signal_hook::flag;
    for signal in [SIGINT, SIGTERM, SIGXCPU] {
        if let Err(e) = flag::register(signal, term.flag()) {
            eprintln!("grim-sat: warning: cannot handle signal {signal}: {e}");
        }
    }
    if signalled.load(Ordering::SeqCst) {
        term.terminate();
    }
}

/// `--time`: a detached thread that sets `timed_out` and terminates the search at
/// `start + limit` (at once when that has passed). The process ends without joining it.
fn start_timer(ctx: &Ctx, term: &Terminator) {
    if let Some(limit) = ctx.args.time {
        let term = term.clone();
        let timed_out = Arc::clone(&ctx.timed_out);
        let deadline = ctx.start + limit;
        std::thread::spawn(move || {
            std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
            timed_out.store(true, Ordering::SeqCst);
            term.terminate();
        });
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
    /// WCNF: --conflicts or --propagations (OLL spends them over many SAT calls).
    Budget,
    Engine,
}

impl Stop {
    fn describe(self) -> String {
        match self {
            Stop::Signal => "stopped by a signal".to_string(),
            Stop::Time => "stopped by the time limit".to_string(),
            Stop::Conflicts(n) => format!("stopped by the conflict limit ({n})"),
            Stop::Propagations(n) => format!("stopped by the propagation limit ({n})"),
            Stop::Budget => "stopped by the conflict or propagation limit".to_string(),
            Stop::Engine => "the engine stopped without an answer".to_string(),
        }
    }
}

/// What both paths share.
struct Ctx<'a> {
    args: &'a Args,
    start: Instant,
    /// The input's name for messages (`<stdin>` for `-`).
    path: String,
    /// Engine options that differ from the defaults, as `name=value`.
    changed: Vec<String>,
    signalled: Arc<AtomicBool>,
    timed_out: Arc<AtomicBool>,
}

impl Ctx<'_> {
    fn input_error(&self, error: ParseError) -> Failure {
        Failure::Input {
            path: self.path.clone(),
            error,
            hint: None,
        }
    }

    fn limits(&self) -> Vec<String> {
        let mut limits = Vec::new();
        if let Some(n) = self.args.conflicts {
            limits.push(format!("{n} conflicts"));
        }
        if let Some(n) = self.args.propagations {
            limits.push(format!("{n} propagations"));
        }
        if let Some(t) = self.args.time {
            limits.push(format!("{:.3} s", t.as_secs_f64()));
        }
        limits
    }

    /// Whether `--time` has run out (for loops that run before the engine's timer does).
    fn out_of_time(&self) -> bool {
        self.args.time.is_some_and(|t| self.start.elapsed() >= t)
    }

    fn budget(&self) -> Budget {
        Budget {
            conflicts: self.args.conflicts,
            propagations: self.args.propagations,
        }
    }

    /// The `c` lines after parsing: options and limits.
    fn settings(&self, out: &mut Out) -> io::Result<()> {
        if !self.changed.is_empty() {
            out.comment(&format!("options: {}", self.changed.join(" ")))?;
        }
        let limits = self.limits();
        if !limits.is_empty() {
            out.comment(&format!("limits: {}", limits.join(", ")))?;
        }
        Ok(())
    }
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
    let signalled = Arc::new(AtomicBool::new(false));
    register_signals(&signalled);
    let file = args.file.as_deref().unwrap_or(Path::new("-"));
    let ctx = Ctx {
        args,
        start,
        path: if file == Path::new("-") {
            "<stdin>".to_string()
        } else {
            file.display().to_string()
        },
        changed,
        signalled,
        timed_out: Arc::new(AtomicBool::new(false)),
    };
    let input = open_input(file).map_err(|e| ctx.input_error(e))?;
    let forced = match args.format {
        FormatArg::Auto => None,
        FormatArg::Cnf => Some(Format::Cnf),
        FormatArg::Wcnf => Some(Format::Wcnf),
    };
    let detected = detect(input, file, forced).map_err(|e| ctx.input_error(e))?;
    match detected.format {
        Format::Cnf => run_cnf(&ctx, detected, options),
        Format::Wcnf => run_wcnf(&ctx, detected, options),
    }
}

fn banner(out: &mut Out, ctx: &Ctx, compression: Compression) -> io::Result<()> {
    out.comment(&format!(
        "grim-sat {} (grimoire CDCL engine)",
        env!("CARGO_PKG_VERSION")
    ))?;
    out.comment(&format!(
        "input: {}{}",
        ctx.path,
        match compression {
            Compression::None => String::new(),
            other => format!(" ({})", other.name()),
        }
    ))
}

fn run_cnf(ctx: &Ctx, detected: Detected, options: Options) -> Result<u8, Failure> {
    let args = ctx.args;
    let path = &ctx.path;
    let mut solver = Solver::with_options(options);
    if let Some(proof_path) = &args.proof {
        // Created before any clause is added: the proof is relative to the whole input.
        let file = std::fs::File::create(proof_path).map_err(|e| {
            Failure::Usage(format!(
                "cannot create the proof file {}: {e}",
                proof_path.display()
            ))
        })?;
        let format = if args.binary_proof {
            ProofFormat::Binary
        } else {
            ProofFormat::Text
        };
        solver.set_proof(Box::new(BufWriter::with_capacity(1 << 20, file)), format);
    }
    let term = solver.terminator();
    register_terminator(&term, &ctx.signalled);
    start_timer(ctx, &term);

    let compression = detected.compression();
    let reason = detected.reason;
    let input_error = |error: ParseError| {
        // A headerless file that starts with a number may be a new-format WCNF with an
        // unhelpful name: say how to read it as one.
        let hint = (reason == Reason::Default && matches!(error, ParseError::MissingHeader { .. }))
            .then_some("if this is a headerless WCNF, name it .wcnf or pass --format wcnf");
        Failure::Input {
            path: path.clone(),
            error,
            hint,
        }
    };
    let mut parser = Parser::new(
        detected,
        ParseOptions {
            strict: args.strict,
            relaxed: args.relaxed,
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
        eprintln!("grim-sat: warning: {}", warning.with_path(path));
    }
    let header = parser.header();
    // At most MAX_VARS (2^31 - 1): fits a usize wherever grim builds.
    let num_vars = usize::try_from(parser.num_vars()).unwrap_or(usize::MAX);
    let parse_seconds = ctx.start.elapsed().as_secs_f64();

    let mut out = Out {
        w: BufWriter::new(io::stdout().lock()),
        quiet: args.quiet,
    };
    banner(&mut out, ctx, compression)?;
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
    ctx.settings(&mut out)?;
    out.comment("solving")?;
    out.w.flush()?;

    let solve_start = Instant::now();
    let (status, stop) = search(args, &mut solver, &mut out, &ctx.signalled, &ctx.timed_out)?;
    if args.proof.is_some()
        && let Err(e) = solver.flush_proof()
    {
        // An UNSAT claim without its proof would be worse than no claim: say so and stop.
        return Err(Failure::Internal(format!("writing the proof failed: {e}")));
    }
    let seconds = ctx.start.elapsed().as_secs_f64();
    if !args.quiet {
        if let Some(stop) = stop {
            out.comment(&stop.describe())?;
        }
        out.comment(&format!(
            "search took {:.2} s",
            solve_start.elapsed().as_secs_f64()
        ))?;
        let lines = if args.stats || args.verbose {
            stats_lines(solver.stats(), seconds)
        } else {
            stats_summary(solver.stats(), seconds)
        };
        for line in lines {
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

/// The first hard clause `model` falsifies, described for an internal-error message.
fn falsified_hard(instance: &Wcnf, model: &[bool]) -> String {
    let value = |l: &Lit| model.get(l.var().index()).copied().unwrap_or(false) == l.is_positive();
    match instance.hard.iter().position(|c| !c.iter().any(value)) {
        Some(i) => {
            let shown: Vec<String> = instance
                .hard
                .get(i)
                .map(|c| c.iter().take(16).map(|l| l.to_string()).collect())
                .unwrap_or_default();
            format!("falsifies hard clause {} ({} 0)", i + 1, shown.join(" "))
        }
        None => "has a cost that overflows".to_string(),
    }
}

fn run_wcnf(ctx: &Ctx, detected: Detected, options: Options) -> Result<u8, Failure> {
    let args = ctx.args;
    if let Some(proof) = &args.proof {
        // Silently writing no proof would let a pipeline believe it has one.
        return Err(Failure::Usage(format!(
            "--proof {}: proofs are for CNF (DRAT of an UNSAT answer); this input is WCNF, whose \
             optimum has no DRAT certificate. Drop --proof, or pass --format cnf if the file \
             is a CNF",
            proof.display()
        )));
    }
    let path = &ctx.path;
    let compression = detected.compression();
    let reason = detected.reason;
    let mut parser = wcnf::Parser::new(
        detected,
        ParseOptions {
            strict: args.strict,
            relaxed: args.relaxed,
        },
    )
    .map_err(|e| ctx.input_error(e))?;
    let mut instance = Wcnf::default();
    let mut clause = Vec::new();
    let mut literals = 0usize;
    let mut interrupted = false;
    while let Some(start) = parser
        .next_clause(&mut clause)
        .map_err(|e| ctx.input_error(e))?
    {
        literals += clause.len();
        match start.weight {
            Weight::Hard => instance.hard.push(clause.clone()),
            Weight::Soft(w) => instance.soft.push((w, clause.clone())),
        }
        if parser.num_clauses() % 4096 == 0 {
            // The engine's terminate flag does not exist yet: watch the signal flag and the
            // clock here, so a huge instance still stops on time.
            if ctx.out_of_time() {
                ctx.timed_out.store(true, Ordering::SeqCst);
            }
            if ctx.signalled.load(Ordering::SeqCst) || ctx.timed_out.load(Ordering::SeqCst) {
                interrupted = true;
                break;
            }
        }
    }
    // At most MAX_VARS (2^31 - 1): fits a usize wherever grim builds.
    instance.num_vars = usize::try_from(parser.num_vars()).unwrap_or(usize::MAX);
    for warning in parser.warnings() {
        eprintln!("grim-sat: warning: {}", warning.with_path(path));
    }
    let parse_seconds = ctx.start.elapsed().as_secs_f64();

    let mut out = Out {
        w: BufWriter::new(io::stdout().lock()),
        quiet: args.quiet,
    };
    banner(&mut out, ctx, compression)?;
    let dialect = match parser.dialect() {
        Dialect::New => "headerless (2022+)",
        Dialect::Old => "old, with a p wcnf header",
    };
    out.comment(&format!("format: WCNF, {dialect} ({})", reason.describe()))?;
    if let Some(h) = parser.header() {
        out.comment(&format!(
            "header: p wcnf {} {}{} (line {})",
            h.num_vars,
            h.num_clauses,
            h.top.map(|t| format!(" {t}")).unwrap_or_default(),
            h.line
        ))?;
    }
    if interrupted {
        out.comment("interrupted while reading the input")?;
        return finish_maxsat(&mut out, maxsat_output::Answer::Unknown);
    }
    out.comment(&format!(
        "parsed: {} variables, {} hard and {} soft clauses, {} literals, soft weight {} in \
         {:.2} s",
        instance.num_vars,
        instance.hard.len(),
        instance.soft.len(),
        literals,
        parser.soft_total(),
        parse_seconds
    ))?;
    ctx.settings(&mut out)?;

    let mut oll = Oll::new(
        &instance,
        OllOptions {
            solver: options,
            anytime_flips: args.anytime_flips,
            ..Default::default()
        },
    )
    .map_err(|e| Failure::Internal(format!("OLL refused the instance: {e}")))?;
    let term = oll.terminator();
    register_terminator(&term, &ctx.signalled);
    start_timer(ctx, &term);
    out.comment("solving")?;
    out.w.flush()?;

    let solve_start = Instant::now();
    // The last cost printed on an `o` line, and the first failure inside the callback (it
    // cannot return one; the search is terminated instead).
    let mut printed: Option<u64> = None;
    let mut lower: u64 = 0;
    let mut failure: Option<Failure> = None;
    let verbose = args.verbose;
    let status = oll.solve(ctx.budget(), &mut |event| {
        if failure.is_some() {
            return;
        }
        let result = match event {
            Event::Improved { cost, model } => {
                // Never print an `o` line the model does not back.
                if instance.cost(model) != Some(cost) {
                    failure = Some(Failure::Internal(format!(
                        "OLL reported a solution of cost {cost} whose model {}; no answer \
                         printed. Please report this with the input.",
                        match instance.cost(model) {
                            Some(actual) => format!("costs {actual}"),
                            None => falsified_hard(&instance, model),
                        }
                    )));
                    term.terminate();
                    return;
                }
                printed = Some(cost);
                let bounds = if verbose {
                    writeln!(
                        out.w,
                        "c bounds: lower {lower}, upper {cost} at {:.2} s",
                        solve_start.elapsed().as_secs_f64()
                    )
                } else {
                    Ok(())
                };
                bounds
                    .and_then(|()| write_cost(&mut out.w, cost))
                    .and_then(|()| out.w.flush())
            }
            Event::LowerBound(lb) => {
                lower = lb;
                if verbose {
                    let upper = printed.map_or("none".to_string(), |c| c.to_string());
                    writeln!(
                        out.w,
                        "c bounds: lower {lb}, upper {upper} at {:.2} s",
                        solve_start.elapsed().as_secs_f64()
                    )
                    .and_then(|()| out.w.flush())
                } else {
                    Ok(())
                }
            }
        };
        if let Err(e) = result {
            failure = Some(Failure::Output(e));
            term.terminate();
        }
    });
    if let Some(failure) = failure {
        return Err(failure);
    }
    let answer = match status {
        MaxSatStatus::Optimum => maxsat_output::Answer::OptimumFound,
        MaxSatStatus::Satisfiable => maxsat_output::Answer::Satisfiable,
        MaxSatStatus::Unsatisfiable => maxsat_output::Answer::Unsatisfiable,
        MaxSatStatus::Unknown => maxsat_output::Answer::Unknown,
    };
    if !args.quiet {
        if matches!(
            answer,
            maxsat_output::Answer::Satisfiable | maxsat_output::Answer::Unknown
        ) {
            let stop = if ctx.signalled.load(Ordering::SeqCst) {
                Stop::Signal
            } else if ctx.timed_out.load(Ordering::SeqCst) {
                Stop::Time
            } else if args.conflicts.is_some() || args.propagations.is_some() {
                Stop::Budget
            } else {
                Stop::Engine
            };
            out.comment(&stop.describe())?;
        }
        out.comment(&format!(
            "search took {:.2} s; lower bound {lower}",
            solve_start.elapsed().as_secs_f64()
        ))?;
        let stats = oll.stats();
        let seconds = ctx.start.elapsed().as_secs_f64();
        if !(args.stats || verbose) {
            writeln!(out.w, "c ---- statistics (--stats for every counter) ----")?;
            writeln!(
                out.w,
                "c time {seconds:.2} s, sat calls {}, cores {} (largest {}), totalizers {}, \
                 conflicts {}",
                stats.sat_calls, stats.cores, stats.max_core, stats.totalizers, stats.conflicts
            )?;
        }
        let full = if args.stats || verbose {
            writeln!(out.w, "c ---- statistics ----")?;
            writeln!(out.w, "c {:<20} {:>14.2} s", "time", seconds)?;
            true
        } else {
            false
        };
        for (name, value) in [
            ("sat calls", stats.sat_calls),
            ("cores", stats.cores),
            ("core literals", stats.core_literals),
            ("largest core", stats.max_core),
            ("totalizers", stats.totalizers),
            ("hardened", stats.hardened),
            ("strata", stats.strata),
            ("improvements", stats.improvements),
            ("equivalent merged", stats.equiv_merged),
            ("labels eliminated", stats.sle_hardened),
            ("stalls", stats.stalls),
            ("local search flips", stats.ls_flips),
            ("local search wins", stats.ls_improvements),
            ("bnb bursts", stats.bnb_runs),
            ("bnb nodes", stats.bnb_nodes),
            ("bnb wins", stats.bnb_improvements),
            ("bnb proofs", stats.bnb_proofs),
            ("conflicts", stats.conflicts),
        ]
        .into_iter()
        .filter(|_| full)
        {
            writeln!(out.w, "c {name:<20} {value:>14}")?;
        }
    }
    if !answer.has_solution() {
        return finish_maxsat(&mut out, answer);
    }
    let Some(model) = oll.best_model() else {
        return Err(Failure::Internal(format!(
            "OLL answered {answer} without a model"
        )));
    };
    let Some(cost) = instance.cost(model) else {
        return Err(Failure::Internal(format!(
            "OLL's best model {}; no answer printed. Please report this with the input.",
            falsified_hard(&instance, model)
        )));
    };
    if oll.best_cost() != Some(cost) {
        return Err(Failure::Internal(format!(
            "OLL's best model costs {cost} but OLL claims {:?}; no answer printed",
            oll.best_cost()
        )));
    }
    match printed {
        Some(p) if p == cost => {}
        // OLL reported no improvement event for this model (or a worse one last): the `o`
        // line must still carry the cost of the model printed.
        Some(p) if p < cost => {
            return Err(Failure::Internal(format!(
                "the best model costs {cost} but cost {p} was printed; no answer printed"
            )));
        }
        _ => write_cost(&mut out.w, cost)?,
    }
    write_maxsat_answer(&mut out, answer)?;
    if !args.no_model {
        let bits = (0..instance.num_vars).map(|i| model.get(i).copied().unwrap_or(false));
        write_bits(&mut out.w, bits)?;
    }
    out.w.flush()?;
    Ok(maxsat_exit(answer))
}

fn write_maxsat_answer(out: &mut Out, answer: maxsat_output::Answer) -> io::Result<()> {
    maxsat_output::write_answer(&mut out.w, answer)
}

fn maxsat_exit(answer: maxsat_output::Answer) -> u8 {
    match answer {
        maxsat_output::Answer::OptimumFound => sat_exit::OPTIMUM_FOUND,
        maxsat_output::Answer::Satisfiable => sat_exit::SATISFIABLE,
        maxsat_output::Answer::Unsatisfiable => sat_exit::UNSATISFIABLE,
        maxsat_output::Answer::Unknown => sat_exit::UNKNOWN,
    }
}

fn finish_maxsat(out: &mut Out, answer: maxsat_output::Answer) -> Result<u8, Failure> {
    write_maxsat_answer(out, answer)?;
    out.w.flush()?;
    Ok(maxsat_exit(answer))
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

//! `grim-sat FILE|-`: the engine on a DIMACS CNF, or OLL MaxSAT on a WCNF, with
//! competition-style output. The format is detected from the contents (and, for a headerless
//! file, its `.cnf` or `.wcnf` name); see `grim_tools::formats::detect`, and
//! `--format` to override.
//!
//! CNF output: `c` lines (banner, parse summary, `-v` progress, statistics), then
//! `s SATISFIABLE` with `v` lines (exit 10), `s UNSATISFIABLE` (exit 20) or `s UNKNOWN`
//! (exit 0, a limit or a signal stopped the search).
//!
//! WCNF output, the MaxSAT Evaluation way: `o COST` at every improvement and `c LB BOUND` each
//! time the proven lower bound rises (both flushed at once, so a harness that kills grim-sat
//! still sees them), then `s OPTIMUM FOUND` (exit 30),
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
//!
//! Out of memory: an allocation the system refuses (under a memory limit, `ulimit -v`)
//! prints `c out of memory: …` and `s UNKNOWN` and exits 0, as any other limit does; see
//! [`oom`], the one place this binary allows `unsafe`.
//!
//! The run itself is `grim_tools::run` (tested there); this file parses the arguments,
//! installs the signal handlers, calls it and prints its error.
#![deny(unsafe_code)]

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Parser as _;
use grim_maxsat::OllOptions;
use grim_solver::{Options, Terminator};
use grim_tools::cli::{
    FormatArg, changed_options, options_help, parse_seconds, sat_exit, set_option, split_option,
};
use grim_tools::run::{Run, RunConfig, RunError, run_file};

const EXIT_CODES: &str = "\
Exit codes:
  10  s SATISFIABLE (WCNF: a solution, optimality not proven)
  20  s UNSATISFIABLE          30  s OPTIMUM FOUND (WCNF)
   0  s UNKNOWN (a limit, a signal, or memory ran out)
   2  bad command line          3  malformed input         4  input/output error
   5  internal error (a model failed the check; no answer printed)
A second SIGINT/SIGTERM exits at once with 130/143.

Format: `p cnf` is CNF; `p wcnf`, or a clause marked `h` in the first 64 KiB, is WCNF; with
neither, a weight first is WCNF unless the name ends in .cnf, and otherwise a name ending in
.wcnf means WCNF and anything else CNF (compression suffixes allowed). --format overrides.";

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

    /// Print a `c progress` line every --progress-interval conflicts; WCNF: also a `c` line
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

    /// Write a proof to FILE. CNF: DRAT of UNSAT (text); check it with an independent
    /// checker, e.g. `rate INSTANCE FILE` or `drat-trim INSTANCE FILE`. WCNF (headerless
    /// format): a VeriPB 3.0 proof of the optimum (or of the hard clauses' UNSAT); check it
    /// with `veripb --wcnf INSTANCE FILE`; techniques it does not certify are off while it is
    /// written (listed on a `c proof:` line). If the proof cannot be written, grim-sat says
    /// so and claims no answer (exit 5).
    #[arg(long, value_name = "FILE")]
    proof: Option<std::path::PathBuf>,

    /// Write the proof in the binary format (smaller; the checkers read both).
    #[arg(long, requires = "proof")]
    binary_proof: bool,

    /// Write the proof as LRAT instead of DRAT: every clause with the identifiers of the
    /// clauses that justify it, so a checker follows hints instead of searching (cake_lpr,
    /// lrat-check). Every technique is certified, factoring's extension variables by RAT
    /// steps; the input is read whole before solving (the clause identifiers need its count).
    #[arg(long, requires = "proof")]
    lrat: bool,

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

    /// Set an engine or MaxSAT (OLL) option (repeatable); see --help-options.
    #[arg(long = "opt", value_name = "NAME=VALUE")]
    opts: Vec<String>,

    /// List the engine and MaxSAT (OLL) options with their defaults and ranges, and exit.
    #[arg(long)]
    help_options: bool,
}

/// Why grim-sat ends without an answer: a bad command line, or what the run reports.
enum Failure {
    Usage(String),
    Run(RunError),
}

impl From<RunError> for Failure {
    fn from(e: RunError) -> Failure {
        Failure::Run(e)
    }
}

/// The system allocator, answering `s UNKNOWN` when it refuses memory (see [`oom`]).
#[global_allocator]
static ALLOCATOR: oom::Answering = oom::Answering;

/// What grim-sat does when memory runs out.
///
/// Why: under a memory limit (`ulimit -v`, RLIMIT_AS: how benchmark harnesses and competition
/// runners cap a solver) the system refuses an allocation, and Rust's handler then aborts the
/// process (SIGABRT, no `s` line). A solver that runs out of memory has hit a limit like a
/// time limit, and the competition answer for that is `s UNKNOWN` with exit code 0. So the
/// global allocator is the system's, except that a refused request prints two lines and exits:
/// `c out of memory: an allocation of N bytes was refused` and `s UNKNOWN`.
///
/// Nothing on that path allocates: the message is built in a stack buffer and written to file
/// descriptor 1 directly (not through `std::io::stdout`, whose buffer may not exist yet), then
/// `std::process::exit(0)`. Without a limit Linux overcommits and its OOM killer ends the
/// process instead; no program can answer then.
mod oom {
    #![allow(unsafe_code)]

    use std::alloc::{GlobalAlloc, Layout, System};
    use std::io::Write;
    use std::mem::ManuallyDrop;
    use std::os::fd::FromRawFd;

    /// The system allocator with the out-of-memory answer (module doc).
    pub struct Answering;

    /// Writes the answer and exits 0. Allocates nothing (module doc): the message is formatted
    /// into a stack buffer (`core::fmt` does not allocate).
    #[cold]
    #[inline(never)]
    fn out_of_memory(size: usize) -> ! {
        let mut buf = [0u8; 128];
        let mut text = std::io::Cursor::new(&mut buf[..]);
        // 128 bytes hold the message with any `usize`; a write past them would only clip it.
        let _ = write!(
            text,
            "c out of memory: an allocation of {size} bytes was refused\ns UNKNOWN\n"
        );
        let n = text.position() as usize;
        // SAFETY: descriptor 1 is the process's standard output, open for its whole life; the
        // `File` is never dropped (`ManuallyDrop`), so it does not close it.
        let mut out = ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(1) });
        // Nothing is left to do if even this write fails.
        let _ = out.write_all(&buf[..n]);
        std::process::exit(0)
    }

    /// `p`, a block of `size` bytes the system gave, or the answer when it refused (null).
    #[inline(always)]
    fn given(p: *mut u8, size: usize) -> *mut u8 {
        if p.is_null() {
            out_of_memory(size);
        }
        p
    }

    // SAFETY: every method hands the caller's arguments to `System` unchanged and returns its
    // result unchanged, so `System`'s guarantees are ours; a null result (refused) never
    // returns at all.
    unsafe impl GlobalAlloc for Answering {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: the caller's contract for `alloc` is `System.alloc`'s.
            given(unsafe { System.alloc(layout) }, layout.size())
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            // SAFETY: as `alloc`.
            given(unsafe { System.alloc_zeroed(layout) }, layout.size())
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: `ptr` came from this allocator, that is from `System`, with `layout`.
            unsafe { System.dealloc(ptr, layout) }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            // SAFETY: `ptr` came from `System` with `layout`; the caller's contract is
            // `System.realloc`'s.
            given(unsafe { System.realloc(ptr, layout, new_size) }, new_size)
        }
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
        Err(Failure::Run(e)) => {
            match &e {
                RunError::Internal(_) => eprintln!("grim-sat: internal error: {e}"),
                _ => eprintln!("grim-sat: error: {e}"),
            }
            if let RunError::Input {
                hint: Some(hint), ..
            } = &e
            {
                eprintln!("grim-sat: note: {hint}");
            }
            e.exit_code()
        }
    };
    ExitCode::from(code)
}

/// The engine's and OLL's options from `--anytime-flips` and `--opt` (applied after the flags),
/// with `check_model` forced on.
fn engine_options(args: &Args) -> Result<(Options, OllOptions), Failure> {
    let mut options = Options::default();
    let mut oll = OllOptions {
        anytime_flips: args.anytime_flips,
        ..OllOptions::default()
    };
    for text in &args.opts {
        let (name, value) = split_option(text)
            .ok_or_else(|| Failure::Usage(format!("--opt expects NAME=VALUE, got `{text}`")))?;
        set_option(&mut options, &mut oll, name, value)
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
    Ok((options, oll))
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

/// Parses the options, installs the signal handlers and hands the file to the library.
fn run(args: &Args, start: Instant) -> Result<u8, Failure> {
    let (options, oll) = engine_options(args)?;
    let signalled = Arc::new(AtomicBool::new(false));
    register_signals(&signalled);
    let file = args.file.as_deref().unwrap_or(Path::new("-"));
    let config = RunConfig {
        strict: args.strict,
        relaxed: args.relaxed,
        conflicts: args.conflicts,
        propagations: args.propagations,
        time: args.time,
        quiet: args.quiet,
        verbose: args.verbose,
        progress_interval: args.progress_interval,
        stats: args.stats,
        no_model: args.no_model,
        proof: args.proof.clone(),
        binary_proof: args.binary_proof,
        lrat: args.lrat,
        changed: changed_options(&options, &oll),
    };
    let arm = |term: &Terminator| register_terminator(term, &signalled);
    let warn = |warning: &str| eprintln!("grim-sat: warning: {warning}");
    let ctx = Run {
        config: &config,
        start,
        path: if file == Path::new("-") {
            "<stdin>".to_string()
        } else {
            file.display().to_string()
        },
        signalled: Arc::clone(&signalled),
        timed_out: Arc::new(AtomicBool::new(false)),
        arm: &arm,
        warn: &warn,
    };
    let forced = args.format.forced();
    let mut out = BufWriter::new(io::stdout().lock());
    Ok(run_file(&ctx, file, forced, options, oll, &mut out)?)
}

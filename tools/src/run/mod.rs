//! The two runs of `grim-sat` as library functions: [`run_cnf`] (the engine on a DIMACS CNF,
//! `cnf.rs`) and [`run_wcnf`] (OLL on a WCNF, `wcnf.rs`), each from a detected input to the
//! competition output written to any [`Write`], returning the exit code; [`run_file`] opens
//! and detects the input and picks one.
//!
//! Why here and not in the binary: a run is 400 lines of decisions (what is printed when, how
//! a model is re-checked before it is believed, what a stop says), and those deserve tests
//! that call them directly; the binary (`src/bin/grim-sat.rs`) only parses its arguments,
//! installs the signal handlers (through [`Run::arm`], so that this module needs no
//! signal-handling crate), calls one of these and prints the error.
//!
//! This file is what the two runs share, written once: the configuration and the errors, the
//! `c`-line writer with the `quiet` rule, the banner and the settings lines, the wall-clock
//! timer, the check for a stop while the input is read ([`Run`]'s `reading_stopped`), the
//! reason a search ended without an answer (`Stop`, `stop_reason`) and the `c progress` line
//! of `-v` (`progress_printer`).
//!
//! Output is the one described in `grim-sat.rs`: `c` lines (suppressed by `quiet`), `o` lines
//! flushed at every improvement, one `s` line, `v` lines. Progress lines of `verbose` runs go
//! straight to standard output from the engine's progress callback (the callback must be
//! `'static + Send`, so it cannot borrow the writer); nothing else does.
//!
//! Every model is checked before it is printed: CNF models by the engine (`check_model`, which
//! the caller turns on) and here, against this module's own copy of the parsed clauses; WCNF
//! models here, by recomputing the cost over the parsed instance. A model that fails is a
//! [`RunError::Internal`], never a printed answer.

use std::fmt;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use grim_maxsat::{MaxSatError, OllOptions};
use grim_solver::{Budget, Lit, Options, ProgressFn, Stats, Terminator};

use crate::cli::sat_exit;
use crate::formats::detect::{Format, detect};
use crate::formats::dimacs::ParseOptions;
use crate::formats::maxsat_output;
use crate::formats::{Compression, ParseError, open_input};

mod cnf;
mod wcnf;

pub use cnf::{Clauses, run_cnf};
pub use wcnf::run_wcnf;

/// What a run is asked to do: `grim-sat`'s flags, without the command line.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Literals beyond the header's count and surplus clauses are errors (`--strict`).
    pub strict: bool,
    /// Fewer clauses than declared is a warning, not an error (`--relaxed`).
    pub relaxed: bool,
    /// Conflict limit over the whole run (`--conflicts`).
    pub conflicts: Option<u64>,
    /// Propagation limit over the whole run (`--propagations`).
    pub propagations: Option<u64>,
    /// Wall-clock limit counted from [`Run::start`] (`--time`).
    pub time: Option<Duration>,
    /// Only `s`, `v` (and `o`) lines (`-q`).
    pub quiet: bool,
    /// Progress lines (CNF) or bound lines (WCNF) (`-v`).
    pub verbose: bool,
    /// Conflicts between two progress lines (`--progress-interval`, at least 1).
    pub progress_interval: u64,
    /// Every statistics counter (`--stats`).
    pub stats: bool,
    /// No `v` lines (`-n`).
    pub no_model: bool,
    /// Where the proof goes (`--proof`; CNF only).
    pub proof: Option<PathBuf>,
    /// The binary form of the proof (`--binary-proof`).
    pub binary_proof: bool,
    /// LRAT instead of DRAT (`--lrat`).
    pub lrat: bool,
    /// Options that differ from the defaults, as `name=value`, for the `c options:` line.
    pub changed: Vec<String>,
}

impl RunConfig {
    /// The reader's options: `strict` and `relaxed`.
    pub fn parse_options(&self) -> ParseOptions {
        ParseOptions {
            strict: self.strict,
            relaxed: self.relaxed,
        }
    }
}

impl Default for RunConfig {
    fn default() -> RunConfig {
        RunConfig {
            strict: false,
            relaxed: false,
            conflicts: None,
            propagations: None,
            time: None,
            quiet: false,
            verbose: false,
            progress_interval: 10_000,
            stats: false,
            no_model: false,
            proof: None,
            binary_proof: false,
            lrat: false,
            changed: Vec::new(),
        }
    }
}

/// Why a run ends without an answer. The `Display` text is the message after
/// `grim-sat: error: ` (or `internal error: `); [`RunError::exit_code`] the exit code.
#[derive(Debug)]
pub enum RunError {
    /// The proof file could not be created (a usage error: nothing was solved).
    ProofFile {
        /// The `--proof` path.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// `--lrat` or `--binary-proof` on a WCNF input, whose proof is VeriPB text.
    ProofForWcnf {
        /// The `--proof` path.
        path: PathBuf,
    },
    /// `--proof` on a WCNF with a `p wcnf` header, which the VeriPB checker does not read.
    ProofOldWcnf {
        /// The `--proof` path.
        path: PathBuf,
    },
    /// The input is malformed or unreadable.
    Input {
        /// The input's name for messages.
        path: String,
        /// What the reader found.
        error: ParseError,
        /// A hint on how to read it instead, when there is one.
        hint: Option<&'static str>,
    },
    /// Writing the answer failed.
    Output(io::Error),
    /// An internal error: no answer was printed.
    Internal(Internal),
}

/// The internal errors of a run ([`RunError::Internal`]): an answer that failed its check, or
/// a proof that could not be completed. Each is a bug to report with the input.
#[derive(Debug)]
pub enum Internal {
    /// The proof could not be written (an I/O error, or a proof the engine could not
    /// complete, `Solver::flush_proof`): an UNSAT claim without its proof is not made.
    ProofWrite(io::Error),
    /// The engine answered SAT without a model.
    NoModel,
    /// The engine's model falsifies clause `index` (0-based) of the input.
    FalsifiedClause {
        /// The input's name.
        path: String,
        /// The clause's 0-based index in the input.
        index: usize,
        /// Its literals.
        clause: Vec<Lit>,
    },
    /// OLL refused the parsed instance.
    Refused(MaxSatError),
    /// OLL reported a solution of cost `claimed` whose model `actual` contradicts.
    BadImprovement {
        /// The cost OLL reported.
        claimed: u64,
        /// What the model really is.
        actual: ModelCheck,
    },
    /// OLL's best model fails the check.
    BadBest(ModelCheck),
    /// OLL answered with a solution but has no model.
    NoBestModel(maxsat_output::Answer),
    /// OLL's best model costs `actual` but OLL claims `claimed`.
    BestCostMismatch {
        /// The recomputed cost.
        actual: u64,
        /// OLL's claim.
        claimed: Option<u64>,
    },
    /// The best model costs `actual` but a lower cost `printed` was printed on an `o` line.
    PrintedCostMismatch {
        /// The recomputed cost.
        actual: u64,
        /// The last `o` line.
        printed: u64,
    },
}

/// What recomputing a WCNF model found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelCheck {
    /// It costs this much.
    Costs(u64),
    /// It falsifies hard clause `index` (0-based), whose first literals are `shown`.
    FalsifiesHard {
        /// The clause's 0-based index among the hard clauses.
        index: usize,
        /// Its first 16 literals.
        shown: Vec<Lit>,
    },
    /// Its cost overflows 64 bits.
    Overflows,
}

impl fmt::Display for ModelCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelCheck::Costs(c) => write!(f, "costs {c}"),
            ModelCheck::FalsifiesHard { index, shown } => {
                let shown: Vec<String> = shown.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "falsifies hard clause {} ({} 0)",
                    index + 1,
                    shown.join(" ")
                )
            }
            ModelCheck::Overflows => write!(f, "has a cost that overflows"),
        }
    }
}

impl fmt::Display for Internal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Internal::ProofWrite(e) => write!(
                f,
                "the proof could not be written ({e}); no answer is claimed without it"
            ),
            Internal::NoModel => write!(f, "the engine answered SAT but returned no model"),
            Internal::FalsifiedClause {
                path,
                index,
                clause,
            } => {
                let shown: Vec<String> = clause.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "the engine's model falsifies clause {} of {path} ({} 0); no answer \
                     printed. Please report this with the input.",
                    index + 1,
                    shown.join(" ")
                )
            }
            Internal::Refused(e) => write!(f, "OLL refused the instance: {e}"),
            Internal::BadImprovement { claimed, actual } => write!(
                f,
                "OLL reported a solution of cost {claimed} whose model {actual}; no answer \
                 printed. Please report this with the input."
            ),
            Internal::BadBest(check) => write!(
                f,
                "OLL's best model {check}; no answer printed. Please report this with the input."
            ),
            Internal::NoBestModel(answer) => write!(f, "OLL answered {answer} without a model"),
            Internal::BestCostMismatch { actual, claimed } => write!(
                f,
                "OLL's best model costs {actual} but OLL claims {claimed:?}; no answer printed"
            ),
            Internal::PrintedCostMismatch { actual, printed } => write!(
                f,
                "the best model costs {actual} but cost {printed} was printed; no answer printed"
            ),
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::ProofFile { path, source } => write!(
                f,
                "cannot create the proof file {}: {source}",
                path.display()
            ),
            RunError::ProofForWcnf { path } => write!(
                f,
                "--proof {}: a WCNF's proof is VeriPB text (checked by `veripb --wcnf`); \
                 --lrat and --binary-proof are for CNF. Drop them, or pass --format cnf if the \
                 file is a CNF",
                path.display()
            ),
            RunError::ProofOldWcnf { path } => write!(
                f,
                "--proof {}: this WCNF has a `p wcnf` header, and the VeriPB checker reads only \
                 the headerless (2022+) format; write the instance in that format first (the \
                 clauses in the same order) and prove that file",
                path.display()
            ),
            RunError::Input { path, error, .. } => write!(f, "{}", error.with_path(path)),
            RunError::Output(e) => write!(f, "cannot write to standard output: {e}"),
            RunError::Internal(i) => write!(f, "{i}"),
        }
    }
}

impl std::error::Error for RunError {}

impl RunError {
    /// The exit code of `grim-sat` for this error ([`sat_exit`]).
    pub fn exit_code(&self) -> u8 {
        match self {
            RunError::ProofFile { .. }
            | RunError::ProofForWcnf { .. }
            | RunError::ProofOldWcnf { .. } => sat_exit::USAGE,
            RunError::Input { error, .. } if error.is_io() => sat_exit::IO,
            RunError::Input { .. } => sat_exit::PARSE,
            RunError::Output(_) => sat_exit::IO,
            RunError::Internal(_) => sat_exit::INTERNAL,
        }
    }
}

impl From<io::Error> for RunError {
    fn from(e: io::Error) -> RunError {
        RunError::Output(e)
    }
}

/// Standard output (or any writer) with the `quiet` rule applied to `c` lines.
struct Out<'w> {
    w: &'w mut dyn Write,
    quiet: bool,
}

impl Out<'_> {
    fn comment(&mut self, line: &str) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        writeln!(self.w, "c {line}")
    }
}

/// `--time`: a detached thread that sets `timed_out` and terminates the search at
/// `start + limit` (at once when that has passed). The process ends without joining it.
fn start_timer(ctx: &Run, term: &Terminator) {
    if let Some(limit) = ctx.config.time {
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

/// The `c progress` line of `-v`, printed by the engine's progress callback every
/// `--progress-interval` conflicts: `c progress T s  conflicts C  restarts R  ` and what
/// `tail` adds (CNF: learned clauses and the propagation rate; WCNF: the bounds). The callback
/// observes the search without changing it, so `-v` runs take exactly the same path as quiet
/// ones; it writes straight to standard output (it must be `'static + Send`, so it cannot
/// borrow the run's writer), best effort: a closed stdout shows up at the answer, not here.
fn progress_printer(mut tail: impl FnMut(&Stats) -> String + Send + 'static) -> ProgressFn {
    let began = Instant::now();
    Box::new(move |stats: &Stats| {
        let line = format!(
            "c progress {:8.2} s  conflicts {}  restarts {}  {}\n",
            began.elapsed().as_secs_f64(),
            stats.conflicts,
            stats.restarts,
            tail(stats)
        );
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(line.as_bytes());
        let _ = stdout.flush();
    })
}

/// One run: its configuration, its clock and its stop flags, and the two hooks through which
/// the caller sees the engine's terminate flag and the reader's warnings.
pub struct Run<'a> {
    /// What to do.
    pub config: &'a RunConfig,
    /// When the run started (`time` counts from here, parsing included).
    pub start: Instant,
    /// The input's name for messages (`<stdin>` for `-`).
    pub path: String,
    /// Set by the caller's signal handler: the run stops and says so.
    pub signalled: Arc<AtomicBool>,
    /// Set when `time` runs out.
    pub timed_out: Arc<AtomicBool>,
    /// Called once with the engine's terminate flag, as soon as it exists: `grim-sat` hooks
    /// its signal handlers to it (and passes on a signal that came earlier).
    pub arm: &'a dyn Fn(&Terminator),
    /// Receives each warning of the reader, already prefixed with the input's name.
    pub warn: &'a dyn Fn(&str),
}

impl Run<'_> {
    fn input_error(&self, error: ParseError) -> RunError {
        RunError::Input {
            path: self.path.clone(),
            error,
            hint: None,
        }
    }

    fn limits(&self) -> Vec<String> {
        let mut limits = Vec::new();
        if let Some(n) = self.config.conflicts {
            limits.push(format!("{n} conflicts"));
        }
        if let Some(n) = self.config.propagations {
            limits.push(format!("{n} propagations"));
        }
        if let Some(t) = self.config.time {
            limits.push(format!("{:.3} s", t.as_secs_f64()));
        }
        limits
    }

    /// Whether `--time` has run out (for loops that run before the engine's timer does).
    fn out_of_time(&self) -> bool {
        self.config.time.is_some_and(|t| self.start.elapsed() >= t)
    }

    /// Whether reading the input must stop, asked after each clause with the number read so
    /// far (and looked at every 4096 clauses). With the engine's terminate flag `armed` (the
    /// CNF run creates the engine first: the signal handlers and the timer set that flag), the
    /// flag says; before the engine exists (WCNF), the signal flag and the clock are watched
    /// here, so a huge instance still stops on time.
    fn reading_stopped(&self, clauses: usize, armed: Option<&Terminator>) -> bool {
        if !clauses.is_multiple_of(4096) {
            return false;
        }
        match armed {
            Some(term) => term.is_set(),
            None => {
                if self.out_of_time() {
                    self.timed_out.store(true, Ordering::SeqCst);
                }
                self.signalled.load(Ordering::SeqCst) || self.timed_out.load(Ordering::SeqCst)
            }
        }
    }

    /// Why a search ended without an answer: a signal, the time limit, then the budget —
    /// `spent` (conflicts, propagations) says which limit one engine call reached (CNF); a
    /// run of many calls (WCNF) names the limits together — or else the engine itself.
    fn stop_reason(&self, spent: Option<(u64, u64)>) -> Stop {
        let args = self.config;
        if self.signalled.load(Ordering::SeqCst) {
            return Stop::Signal;
        }
        if self.timed_out.load(Ordering::SeqCst) {
            return Stop::Time;
        }
        match spent {
            Some((conflicts, propagations)) => {
                if let Some(n) = args.conflicts.filter(|&n| conflicts >= n) {
                    Stop::Conflicts(n)
                } else if let Some(n) = args.propagations.filter(|&n| propagations >= n) {
                    Stop::Propagations(n)
                } else {
                    Stop::Engine
                }
            }
            None if args.conflicts.is_some() || args.propagations.is_some() => Stop::Budget,
            None => Stop::Engine,
        }
    }

    fn budget(&self) -> Budget {
        Budget {
            conflicts: self.config.conflicts,
            propagations: self.config.propagations,
        }
    }

    /// The `c` lines after parsing: options and limits.
    fn settings(&self, out: &mut Out) -> io::Result<()> {
        if !self.config.changed.is_empty() {
            out.comment(&format!("options: {}", self.config.changed.join(" ")))?;
        }
        let limits = self.limits();
        if !limits.is_empty() {
            out.comment(&format!("limits: {}", limits.join(", ")))?;
        }
        Ok(())
    }
}

/// The first two `c` lines: the version, and the input with its compression.
fn banner(out: &mut Out, ctx: &Run, compression: Compression) -> io::Result<()> {
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

/// Opens `file` (`-` for standard input), detects its format (`forced` overrides the
/// detection, as `--format` does) and runs [`run_cnf`] or [`run_wcnf`] on it: everything
/// `grim-sat FILE` does after parsing its arguments.
pub fn run_file(
    ctx: &Run,
    file: &std::path::Path,
    forced: Option<Format>,
    options: Options,
    oll: OllOptions,
    sink: &mut dyn Write,
) -> Result<u8, RunError> {
    let input = open_input(file).map_err(|e| ctx.input_error(e))?;
    let detected = detect(input, file, forced).map_err(|e| ctx.input_error(e))?;
    match detected.format {
        Format::Cnf => run_cnf(ctx, detected, options, sink),
        Format::Wcnf => run_wcnf(
            ctx,
            detected,
            OllOptions {
                solver: options,
                ..oll
            },
            sink,
        ),
    }
}

//! The two runs of `grim-sat` as library functions: [`run_cnf`] (the engine on a DIMACS CNF)
//! and [`run_wcnf`] (OLL on a WCNF), each from a detected input to the competition output
//! written to any [`Write`], returning the exit code.
//!
//! Why here and not in the binary: a run is 400 lines of decisions (what is printed when, how
//! a model is re-checked before it is believed, what a stop says), and those deserve tests
//! that call them directly; the binary (`src/bin/grim-sat.rs`) only parses its arguments,
//! installs the signal handlers (through [`Run::arm`], so that this module needs no
//! signal-handling crate), calls one of these and prints the error.
//!
//! Output is the one described in `grim-sat.rs`: `c` lines (suppressed by `quiet`), `o` lines
//! flushed at every improvement, one `s` line, `v` lines. Progress lines of `verbose` CNF runs
//! go straight to standard output from the engine's progress callback (the callback must be
//! `'static + Send`, so it cannot borrow the writer); nothing else does.
//!
//! Every model is checked before it is printed: CNF models by the engine (`check_model`, which
//! the caller turns on) and here, against this module's own copy of the parsed clauses; WCNF
//! models here, by recomputing the cost over the parsed instance. A model that fails is a
//! [`RunError::Internal`], never a printed answer.

use std::fmt;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use grim_maxsat::{Event, MaxSatError, MaxSatStatus, Oll, OllOptions};
use grim_solver::{Budget, Lit, Options, ProofFormat, Solver, Status, Terminator, Var};

use crate::cli::{per_second, sat_exit, stats_lines, stats_summary};
use crate::formats::detect::{Detected, Format, Reason, detect};
use crate::formats::dimacs::{ParseOptions, Parser};
use crate::formats::maxsat_output::{self, write_bits, write_cost};
use crate::formats::solution::{Answer, write_answer, write_model};
use crate::formats::wcnf::{self, Dialect, Weight};
use crate::formats::{Compression, ParseError, Wcnf, open_input, plural};

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
    /// `--proof` on a WCNF input, whose optimum has no DRAT certificate.
    ProofForWcnf {
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
                "--proof {}: proofs are for CNF (DRAT of an UNSAT answer); this input is WCNF, \
                 whose optimum has no DRAT certificate. Drop --proof, or pass --format cnf if \
                 the file is a CNF",
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
            RunError::ProofFile { .. } | RunError::ProofForWcnf { .. } => sat_exit::USAGE,
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

/// grim-sat's own copy of the clauses, flat, for the independent model check.
#[derive(Default)]
pub struct Clauses {
    lits: Vec<Lit>,
    ends: Vec<usize>,
}

impl Clauses {
    pub fn push(&mut self, clause: &[Lit]) {
        self.lits.extend_from_slice(clause);
        self.ends.push(self.lits.len());
    }

    /// Calls `f` with every clause, in order.
    pub fn each(&self, mut f: impl FnMut(&[Lit])) {
        let mut begin = 0;
        for &end in &self.ends {
            f(self.lits.get(begin..end).unwrap_or(&[]));
            begin = end;
        }
    }

    /// The first clause with no true literal under `model`, with its index.
    pub fn first_unsatisfied(&self, model: &[bool]) -> Option<(usize, &[Lit])> {
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

/// The engine on the DIMACS CNF `detected`, with `options` (the caller turns `check_model`
/// on), the output written to `sink`. Returns the exit code of the answer: 10 SAT, 20 UNSAT,
/// 0 UNKNOWN ([`sat_exit`]).
pub fn run_cnf(
    ctx: &Run,
    detected: Detected,
    options: Options,
    sink: &mut dyn Write,
) -> Result<u8, RunError> {
    let args = ctx.config;
    let path = &ctx.path;
    let mut solver = Solver::with_options(options);
    if let Some(proof_path) = &args.proof {
        // Created before any clause is added: the proof is relative to the whole input.
        let file = std::fs::File::create(proof_path).map_err(|source| RunError::ProofFile {
            path: proof_path.clone(),
            source,
        })?;
        let format = match (args.lrat, args.binary_proof) {
            (false, false) => ProofFormat::Text,
            (false, true) => ProofFormat::Binary,
            (true, false) => ProofFormat::LratText,
            (true, true) => ProofFormat::LratBinary,
        };
        solver.set_proof(Box::new(BufWriter::with_capacity(1 << 20, file)), format);
    }
    let term = solver.terminator();
    (ctx.arm)(&term);
    start_timer(ctx, &term);

    let compression = detected.compression();
    let reason = detected.reason;
    let input_error = |error: ParseError| {
        // A headerless file named .cnf that starts with a number may be a new-format WCNF
        // with an unhelpful name: say how to read it as one.
        let hint = (matches!(reason, Reason::Default | Reason::CnfName)
            && matches!(error, ParseError::MissingHeader { .. }))
        .then_some("if this is a headerless WCNF, name it .wcnf or pass --format wcnf");
        RunError::Input {
            path: path.clone(),
            error,
            hint,
        }
    };
    let mut parser = Parser::new(detected, args.parse_options()).map_err(input_error)?;
    let mut own = Clauses::default();
    let mut clause = Vec::new();
    let mut interrupted = false;
    // LRAT numbers the input's clauses 1, 2, … and the derived ones after them: the engine
    // must know how many there are before the first is added (it derives clauses while they
    // are added), so with LRAT the whole input is read first — the header's count may be
    // wrong — then handed over.
    let lrat = args.lrat && args.proof.is_some();
    while parser
        .next_clause(&mut clause)
        .map_err(input_error)?
        .is_some()
    {
        own.push(&clause);
        if !lrat {
            solver.add_clause(&clause);
        }
        if own.ends.len() % 4096 == 0 && term.is_set() {
            interrupted = true;
            break;
        }
    }
    if lrat && !interrupted {
        solver.reserve_clause_ids(own.ends.len() as u64);
        own.each(|c| solver.add_clause(c));
    }
    for warning in parser.warnings() {
        (ctx.warn)(&warning.with_path(path).to_string());
    }
    let header = parser.header();
    // At most MAX_VARS (2^31 - 1): fits a usize wherever grim builds.
    let num_vars = usize::try_from(parser.num_vars()).unwrap_or(usize::MAX);
    let parse_seconds = ctx.start.elapsed().as_secs_f64();

    let mut out = Out {
        w: sink,
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
        "parsed: {}, {}, {} in {:.2} s",
        plural(num_vars, "variable"),
        plural(own.ends.len(), "clause"),
        plural(own.lits.len(), "literal"),
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
        return Err(RunError::Internal(Internal::ProofWrite(e)));
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
                return Err(RunError::Internal(Internal::NoModel));
            };
            if let Some((index, clause)) = own.first_unsatisfied(&model) {
                return Err(RunError::Internal(Internal::FalsifiedClause {
                    path: path.clone(),
                    index,
                    clause: clause.to_vec(),
                }));
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

/// What `model` is for `instance`: its cost, or the first hard clause it falsifies.
fn check_model(instance: &Wcnf, model: &[bool]) -> ModelCheck {
    if let Some(cost) = instance.cost(model) {
        return ModelCheck::Costs(cost);
    }
    let value = |l: &Lit| model.get(l.var().index()).copied().unwrap_or(false) == l.is_positive();
    match instance.hard.iter().position(|c| !c.iter().any(value)) {
        Some(index) => ModelCheck::FalsifiesHard {
            index,
            shown: instance
                .hard
                .get(index)
                .map(|c| c.iter().take(16).copied().collect())
                .unwrap_or_default(),
        },
        None => ModelCheck::Overflows,
    }
}

/// OLL on the WCNF `detected`, with `options`, the output written to `sink` (`o` lines
/// flushed at once). Returns the exit code of the answer: 30 OPTIMUM FOUND, 10 SATISFIABLE
/// (optimality not proven), 20 UNSATISFIABLE, 0 UNKNOWN ([`sat_exit`]).
pub fn run_wcnf(
    ctx: &Run,
    detected: Detected,
    options: OllOptions,
    sink: &mut dyn Write,
) -> Result<u8, RunError> {
    let args = ctx.config;
    if let Some(proof) = &args.proof {
        // Silently writing no proof would let a pipeline believe it has one.
        return Err(RunError::ProofForWcnf {
            path: proof.clone(),
        });
    }
    let path = &ctx.path;
    let compression = detected.compression();
    let reason = detected.reason;
    let mut parser =
        wcnf::Parser::new(detected, args.parse_options()).map_err(|e| ctx.input_error(e))?;
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
        (ctx.warn)(&warning.with_path(path).to_string());
    }
    let parse_seconds = ctx.start.elapsed().as_secs_f64();

    let mut out = Out {
        w: sink,
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
        "parsed: {}, {} hard and {} soft clause{}, {}, soft weight {} in {:.2} s",
        plural(instance.num_vars, "variable"),
        instance.hard.len(),
        instance.soft.len(),
        if instance.soft.len() == 1 { "" } else { "s" },
        plural(literals, "literal"),
        parser.soft_total(),
        parse_seconds
    ))?;
    ctx.settings(&mut out)?;

    let mut oll =
        Oll::new(&instance, options).map_err(|e| RunError::Internal(Internal::Refused(e)))?;
    let term = oll.terminator();
    (ctx.arm)(&term);
    start_timer(ctx, &term);
    out.comment("solving")?;
    out.w.flush()?;

    let solve_start = Instant::now();
    // The last cost printed on an `o` line, and the first failure inside the callback (it
    // cannot return one; the search is terminated instead).
    let mut printed: Option<u64> = None;
    let mut lower: u64 = 0;
    let mut failure: Option<RunError> = None;
    let verbose = args.verbose;
    // With -v, a `c progress` line every --progress-interval conflicts of the engine, bounds
    // or no bounds: a long run whose bounds stall still shows it searches. The bounds reach
    // the engine's callback through these two cells (`u64::MAX`: no upper bound yet).
    let shared = Arc::new((AtomicU64::new(0), AtomicU64::new(u64::MAX)));
    if verbose {
        out.w.flush()?;
        let shared = shared.clone();
        let began = Instant::now();
        oll.set_progress(
            args.progress_interval,
            Some(Box::new(move |stats: &grim_solver::Stats| {
                let upper = match shared.1.load(Ordering::Relaxed) {
                    u64::MAX => "none".to_string(),
                    u => u.to_string(),
                };
                let line = format!(
                    "c progress {:8.2} s  conflicts {}  restarts {}  lower {}  upper {}\n",
                    began.elapsed().as_secs_f64(),
                    stats.conflicts,
                    stats.restarts,
                    shared.0.load(Ordering::Relaxed),
                    upper
                );
                // Best effort, as for CNF: a closed stdout shows up at the answer.
                let mut stdout = std::io::stdout().lock();
                let _ = stdout.write_all(line.as_bytes());
                let _ = stdout.flush();
            })),
        );
    }
    let status = oll.solve(ctx.budget(), &mut |event| {
        if failure.is_some() {
            return;
        }
        let result = match event {
            Event::Improved { cost, model } => {
                // Never print an `o` line the model does not back.
                if instance.cost(model) != Some(cost) {
                    failure = Some(RunError::Internal(Internal::BadImprovement {
                        claimed: cost,
                        actual: check_model(&instance, model),
                    }));
                    term.terminate();
                    return;
                }
                printed = Some(cost);
                shared.1.store(cost, Ordering::Relaxed);
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
                shared.0.store(lb, Ordering::Relaxed);
                // The MaxSAT Evaluation's optional lower-bound line, flushed at once like an
                // `o` line so that a harness that kills the run still sees the last one.
                let lb_line = out
                    .comment(&format!("LB {lb}"))
                    .and_then(|()| out.w.flush());
                if let Err(e) = lb_line {
                    failure = Some(RunError::Output(e));
                    term.terminate();
                    return;
                }
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
            failure = Some(RunError::Output(e));
            term.terminate();
        }
    });
    oll.set_progress(0, None);
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
        return Err(RunError::Internal(Internal::NoBestModel(answer)));
    };
    let Some(cost) = instance.cost(model) else {
        return Err(RunError::Internal(Internal::BadBest(check_model(
            &instance, model,
        ))));
    };
    if oll.best_cost() != Some(cost) {
        return Err(RunError::Internal(Internal::BestCostMismatch {
            actual: cost,
            claimed: oll.best_cost(),
        }));
    }
    match printed {
        Some(p) if p == cost => {}
        // OLL reported no improvement event for this model (or a worse one last): the `o`
        // line must still carry the cost of the model printed.
        Some(p) if p < cost => {
            return Err(RunError::Internal(Internal::PrintedCostMismatch {
                actual: cost,
                printed: p,
            }));
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

fn finish_maxsat(out: &mut Out, answer: maxsat_output::Answer) -> Result<u8, RunError> {
    write_maxsat_answer(out, answer)?;
    out.w.flush()?;
    Ok(maxsat_exit(answer))
}

fn finish(out: &mut Out, answer: Answer) -> Result<u8, RunError> {
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
    args: &RunConfig,
    solver: &mut Solver,
    out: &mut Out,
    signalled: &AtomicBool,
    timed_out: &AtomicBool,
) -> Result<(Status, Option<Stop>), RunError> {
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

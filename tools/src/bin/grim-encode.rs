//! `grim-encode`: grid.json level descriptions to CNF/WCNF and back.
//!
//! - `grim-encode GRID.json [-o OUT]` writes the model as DIMACS CNF (or WCNF when something
//!   is soft), with comment lines mapping variables to cells and carrying the seeded phase
//!   hints (see `grim_levels::encode`), so any external solver can be used. Streamed
//!   (`grim_levels::encode::StreamedExport`): the clauses go to an unlinked scratch file beside
//!   OUT (in `TMPDIR` for standard output or a device) while the model is built, then behind
//!   the comments and header into OUT; memory grows with the variables, not the clauses
//!   (dungeon-128: 62 MB peak, was 2.3 GB), and the disk briefly holds the clauses twice.
//! - `grim-encode decode GRID.json SOLVER-OUTPUT [--svg OUT.svg]` reads a SAT or MaxSAT
//!   solver's answer back into the level, checks it against the clauses and with the
//!   independent referee `check_level`, and prints its text form (tile rows, then each layer's
//!   rows under its name; and draws it).
//! - `grim-encode solve GRID.json [--seed N] [--svg OUT.svg] [--time S]` does it all with our
//!   engine (phase hints applied) and prints the level; `--keep LEVEL.txt --region X,Y,W,H`
//!   solves only a region of an existing level again, `--count N --distinct D` prints N levels
//!   for the seed, pairwise D cells apart.
//! - `grim-encode describe GRID.json [LEVEL]` measures a level (a file in the text form `solve`
//!   and `decode` print, or the level `solve` finds for `--seed`): a table, or `--json`.
//! - `grim-encode range GRID.json --seeds A..B | --levels PATH...` describes many levels: a CSV
//!   row each and an SVG expressive-range picture (`grim_tools::range`, `grim_levels::range`).
//!
//! Errors go to standard error as `grim-encode: error: FILE:LINE:COLUMN: message` (JSON
//! syntax, solver-output syntax) or `grim-encode: error: FILE: field.path: message` (a
//! grid.json rule that is wrong); the exit codes are in `grim_tools::grid::exit` and in
//! `--help`. Files given with `-o` / `--svg` are written by `grim_tools::output::write_file`:
//! a regular file atomically (on any failure the previous file is left as it was), a device,
//! FIFO or symlink's target written through, never replaced.
#![forbid(unsafe_code)]

use std::fs;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{LazyLock, mpsc};
use std::time::{Duration, Instant};

use clap::Parser as _;
use grim_levels::decode::{Answer, OutputKind, read_answer};
use grim_levels::encode::{StreamedExport, Written};
use grim_levels::range::{Metric, Range as ExpressiveRange};
use grim_levels::svg;
use grim_levels::{
    self as grid, ConnectivityStrategy, GridError, GridModel, GridOptions, GridOutcome, GridSpec,
    Level, Region, StopReason,
};
use grim_solver::{Budget, Lit, Terminator, Var};
use grim_tools::cli::parse_seconds;
use grim_tools::formats::wcnf::Dialect;
use grim_tools::formats::{open_input, plural};
use grim_tools::grid::exit;
use grim_tools::output::{scratch_file, write_file};
use grim_tools::range::{
    LevelFileError, RangeProgress, SolveSettings, level_files, parse_seeds, range_files,
    range_seeds, read_level, solve_seed,
};

const AFTER_HELP: &str = "\
Commands:
  grim-encode GRID.json [-o OUT]         write the CNF (WCNF when something is soft)
  grim-encode decode GRID.json OUTPUT    read a solver's answer back into the level
  grim-encode solve GRID.json            solve with grimoire's engine and print the level
  grim-encode describe GRID.json [LEVEL] measure a level (LEVEL, or the one solve finds)
  grim-encode range GRID.json --seeds A..B | --levels PATH...
                                         measure many levels: a CSV row each, an SVG picture

Exit codes:
   0  done: the file was written, or a level was found and passed check_level
   1  decode: the solver's model falsifies a clause, or its level breaks a rule
   2  bad command line
   3  grid.json is malformed or invalid (FILE:LINE:COLUMN or the field path is given), or the
      solver output is malformed or does not assign every cell
   4  a file could not be opened, read or written
   5  internal error: our own level failed the referee (please report it)
   6  no answer: solve ran out of --time/--conflicts (a soft level prints the best level found,
      not proven least), or the solver output says UNKNOWN
  20  no level exists: the hard rules contradict each other (solve), or the solver output
      says UNSATISFIABLE (decode)

decode must be given the --seed and --preferences that encode was given (the defaults come
from grid.json either way): soft preferences change the clauses.";

/// grid.json level descriptions to CNF/WCNF and back, and solved with grimoire's engine.
#[derive(clap::Parser, Debug)]
#[command(
    name = "grim-encode",
    version,
    after_help = AFTER_HELP,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,

    /// The level description (grid.json), or `-` for standard input.
    #[arg(value_name = "GRID.json", required = true)]
    grid: Option<PathBuf>,

    #[command(flatten)]
    model: ModelArgs,

    /// Write to FILE instead of standard output: a regular file atomically (a temporary file
    /// renamed into place), a device, FIFO or symlink's target written through.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// The WCNF dialect when something is soft: `new` (headerless, `h` for hard clauses, the
    /// MaxSAT Evaluation's format since 2022) or `old` (`p wcnf V C TOP`).
    #[arg(long, value_enum, default_value_t = WcnfArg::New)]
    wcnf: WcnfArg,

    /// Print on standard error what the export is made of (variables and clauses per rule
    /// and part of its encoding) and how long building and writing it took.
    #[arg(short, long)]
    verbose: bool,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Read a SAT solver's `s`/`v` lines or a MaxSAT solver's `o`/`s`/`v` lines back into the
    /// level, check it (every clause, then the referee `check_level`) and print it.
    #[command(after_help = AFTER_HELP)]
    Decode {
        /// The level description the CNF/WCNF was written from.
        #[arg(value_name = "GRID.json")]
        grid: PathBuf,
        /// The solver's output (plain, gzip, xz, bzip2 or lzma: recognised by their magic
        /// bytes), or `-` for standard input.
        #[arg(value_name = "SOLVER-OUTPUT")]
        solver_output: PathBuf,
        #[command(flatten)]
        model: ModelArgs,
        /// Also draw the level as an SVG picture into FILE.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// Encode, solve with grimoire's engine (phase hints applied; a proven optimum when
    /// something is soft), check with `check_level`, and print the level.
    #[command(after_help = AFTER_HELP)]
    Solve {
        /// The level description, or `-` for standard input.
        #[arg(value_name = "GRID.json")]
        grid: PathBuf,
        #[command(flatten)]
        model: ModelArgs,
        /// Also draw the level as an SVG picture into FILE.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// Give up after SECONDS of wall-clock time (fractions allowed): exit 6, with no level, or
        /// for a soft level the best one found so far (its cost and lower bound on stderr).
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        time: Option<Duration>,
        /// Give up after N conflicts of the engine: exit 6, as for `--time`.
        #[arg(long, value_name = "N")]
        conflicts: Option<u64>,
        /// How connectivity rules are solved: `propagator` (reachability reasoned about
        /// inside the search, the default), `lazy` (separator cuts added between engine
        /// calls) or `eager` (the founded encoding the CNF export carries).
        #[arg(long, value_enum, default_value_t = ConnectivityArg::Propagator)]
        connectivity: ConnectivityArg,
        /// Print what the solve did on standard error: rounds, cuts, conflicts, model size,
        /// wall-clock time.
        #[arg(long)]
        stats: bool,
        /// Print a progress line on standard error about every second while the search runs:
        /// conflicts, the grid propagator's conflicts, and for soft levels the bounds on the
        /// cost; and for soft levels a line for every better level found on the way (its
        /// cost, the lower bound, CPU seconds so far): the anytime schedule
        /// (`grim_levels::solve_soft_anytime`), which proves the same optimum.
        #[arg(short, long)]
        verbose: bool,
        /// Regenerate a region of LEVEL.txt (a level as `solve` prints it): keep its cells
        /// outside --region, solve the region again under every rule (needs --region).
        #[arg(long, value_name = "LEVEL.txt", requires = "region")]
        keep: Option<PathBuf>,
        /// With --keep: the rectangle to solve again, `X,Y,W,H` (X, Y its north-west cell).
        #[arg(long, value_name = "X,Y,W,H", requires = "keep", value_parser = parse_region)]
        region: Option<Region>,
        /// Print up to N levels for the seed: the level `solve` finds, then the next best,
        /// pairwise --distinct cells apart, one after another with an empty line between.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..),
              conflicts_with_all = ["keep", "svg", "verbose"])]
        count: Option<u64>,
        /// With --count: the least number of cells whose tile differs between any two of the
        /// levels [default: 1].
        #[arg(long, value_name = "D", requires = "count",
              value_parser = clap::value_parser!(u64).range(1..))]
        distinct: Option<u64>,
    },
    /// Measure a level: per tile and class, open fraction, local density, runs, components,
    /// bridges, articulation cells, blocks, cycle rank, chamber cores, dead ends and symmetry
    /// (each defined in grim-levels' FORMAT.md, "Measuring levels: describe"). The level is the
    /// LEVEL file, or without it the level `solve` finds (with --seed). Prints a table, or
    /// JSON with --json.
    #[command(after_help = AFTER_HELP)]
    Describe {
        /// The level description, or `-` for standard input.
        #[arg(value_name = "GRID.json")]
        grid: PathBuf,
        /// A level in the text form `solve` and `decode` print (`-`: standard input). Without
        /// it, GRID.json is solved (as `solve` does) and that level is described.
        #[arg(value_name = "LEVEL", conflicts_with_all = ["seed", "preferences", "time", "conflicts"])]
        level: Option<PathBuf>,
        #[command(flatten)]
        model: ModelArgs,
        /// Print the description as JSON (every measure, with the size lists and run-length
        /// histograms) instead of the table.
        #[arg(long)]
        json: bool,
        /// Write to FILE instead of standard output (atomically for a regular file).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// When solving: give up after SECONDS of wall-clock time (exit 6).
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        time: Option<Duration>,
        /// When solving: give up after N conflicts (exit 6).
        #[arg(long, value_name = "N")]
        conflicts: Option<u64>,
        /// When solving: how connectivity rules are solved (as for `solve`).
        #[arg(long, value_enum, default_value_t = ConnectivityArg::Propagator)]
        connectivity: ConnectivityArg,
    },
    /// Expressive range: solve every seed of --seeds in order (or read the level files of
    /// --levels, e.g. another solver's levels decoded by `decode`), describe each level, and
    /// write a CSV (one row per level: seed or file, status, cost, CPU and wall seconds, then
    /// every scalar measure) and an SVG picture (two measures as axes, a density heatmap of the
    /// levels, thumbnails of the levels at the extremes). A progress line per level goes to
    /// standard error.
    #[command(after_help = AFTER_HELP)]
    Range {
        /// The level description, or `-` for standard input.
        #[arg(value_name = "GRID.json")]
        grid: PathBuf,
        /// The seeds: `A..B` (B excluded: `0..100` is 100 seeds), `A..=B`, or one seed.
        #[arg(
            long,
            value_name = "A..B",
            value_parser = parse_seeds,
            required_unless_present_any = ["levels", "list_metrics"],
            conflicts_with_all = ["levels", "seed"]
        )]
        seeds: Option<std::ops::Range<u64>>,
        /// Level files in the text form `solve` and `decode` print; a directory stands for its
        /// `*.txt` files in name order. Rows say `valid` or `invalid` (check_level).
        #[arg(long, value_name = "PATH", num_args = 1..)]
        levels: Vec<PathBuf>,
        /// The picture's x axis: a measure name as in the CSV header (see --list-metrics).
        /// Default: the open fraction of the first connectivity rule's class (or, failing that,
        /// enclosure class, path `through`, first class, first tile).
        #[arg(long, value_name = "METRIC")]
        x: Option<String>,
        /// The picture's y axis (default: the dead ends of the same set).
        #[arg(long, value_name = "METRIC")]
        y: Option<String>,
        /// Write the CSV to FILE (atomically) instead of standard output.
        #[arg(long, value_name = "FILE")]
        csv: Option<PathBuf>,
        /// Draw the expressive-range picture into FILE.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// Print the names of the measures this GRID.json's levels have, one per line, and
        /// stop.
        #[arg(long)]
        list_metrics: bool,
        #[command(flatten)]
        model: ModelArgs,
        /// Per seed: give up after SECONDS of wall-clock time (the row says `stopped`, or
        /// `best` for a soft level found before the limit).
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        time: Option<Duration>,
        /// Per seed: give up after N conflicts.
        #[arg(long, value_name = "N")]
        conflicts: Option<u64>,
        /// How connectivity rules are solved (as for `solve`).
        #[arg(long, value_enum, default_value_t = ConnectivityArg::Propagator)]
        connectivity: ConnectivityArg,
    },
}

/// What changes the model: shared by the three commands.
#[derive(clap::Args, Debug, Clone, Copy)]
struct ModelArgs {
    /// The preferences' seed, overriding `preferences.seed` (and turning hints on when the
    /// file has no `preferences`).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// How the seeded wishes are used, overriding `preferences.mode`: `hint` (phase hints,
    /// all clauses hard) or `soft` (weighted soft clauses: the output is WCNF).
    #[arg(long, value_enum, value_name = "MODE")]
    preferences: Option<PreferencesArg>,
    /// Large counts as integers in the propagated solve: `on` (the default) gives each an
    /// integer variable with order literals `[count ≥ k]`, so that counts over the same or
    /// nested selections refute each other in one conflict; `off` keeps the counters
    /// explained by cells (figures: benches/results/issue41-ints-2026-12-07b.md).
    #[arg(long, value_enum, value_name = "on|off")]
    count_ints: Option<Switch>,
    /// With integer counts: the largest count kept in one piece; a larger one is split into
    /// blocks of at most N cells, each an integer, so that its reasons name a block and the
    /// blocks' bounds, not every cell of the count (default 0: no blocks;
    /// benches/results/issue41-tree-2026-12-07.md).
    #[arg(long, value_name = "N")]
    count_block: Option<usize>,
}

/// A switch of `--count-ints`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Switch {
    /// On.
    On,
    /// Off.
    Off,
}

impl ModelArgs {
    fn options(self) -> GridOptions {
        GridOptions {
            seed: self.seed,
            soft_preferences: self.preferences.map(|p| p == PreferencesArg::Soft),
            count_ints: self.count_ints.map(|c| c == Switch::On),
            count_block: self.count_block,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum PreferencesArg {
    /// Phase hints.
    Hint,
    /// Weighted soft clauses.
    Soft,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ConnectivityArg {
    /// An external propagator inside the search.
    Propagator,
    /// Separator cuts between engine calls.
    Lazy,
    /// The eager founded encoding.
    Eager,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum WcnfArg {
    /// Headerless, `h` marks hard clauses.
    New,
    /// `p wcnf V C TOP`.
    Old,
}

/// Why a command ends early: the message (printed after `grim-encode: error: `) and the exit
/// code.
struct Failure {
    code: u8,
    message: String,
}

impl Failure {
    fn new(code: u8, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }

    fn io(what: &str, path: &Path, e: &io::Error) -> Failure {
        Failure::new(exit::IO, format!("cannot {what} `{}`: {e}", display(path)))
    }
}

fn display(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// A [`GridError`] about the file `path`, as a message and an exit code.
fn grid_failure(path: &Path, e: &GridError) -> Failure {
    let file = display(path);
    match e {
        GridError::Syntax {
            line,
            column,
            problem,
        } => Failure::new(exit::INPUT, format!("{file}:{line}:{column}: {problem}")),
        GridError::Invalid { .. }
        | GridError::WeightOverflow
        | GridError::TooManyVariables { .. } => Failure::new(exit::INPUT, format!("{file}: {e}")),
        GridError::BadModel { .. } | GridError::BadText { .. } => {
            Failure::new(exit::INPUT, format!("{e}"))
        }
        GridError::BadKeep(_) => Failure::new(exit::INPUT, format!("{file}: {e}")),
        GridError::Rejected { .. } => Failure::new(exit::INTERNAL, format!("{file}: {e}")),
    }
}

/// Largest grid.json read (64 MiB): a hand-written level is a few KB, and a mask for the
/// largest grid (256 × 256) about 70 KB.
const MAX_GRID_JSON: u64 = 64 << 20;

/// Reads and validates grid.json.
fn read_spec(path: &Path) -> Result<GridSpec, Failure> {
    let mut bytes = Vec::new();
    let read = if path == Path::new("-") {
        io::stdin().take(MAX_GRID_JSON + 1).read_to_end(&mut bytes)
    } else {
        fs::File::open(path).and_then(|f| f.take(MAX_GRID_JSON + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| Failure::io("read", path, &e))?;
    if bytes.len() as u64 > MAX_GRID_JSON {
        return Err(Failure::new(
            exit::INPUT,
            format!(
                "{}: larger than {MAX_GRID_JSON} bytes; this is not a hand-written level",
                display(path)
            ),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = e
            .as_bytes()
            .get(..e.utf8_error().valid_up_to())
            .unwrap_or(&[]);
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = valid.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        Failure::new(
            exit::INPUT,
            format!(
                "{}:{line}:{column}: not UTF-8 text (grid.json must be UTF-8)",
                display(path)
            ),
        )
    })?;
    GridSpec::from_json(&text).map_err(|e| grid_failure(path, &e))
}

fn main() -> ExitCode {
    LazyLock::force(&PROCESS_START);
    let args = Args::parse();
    let result = match &args.command {
        None => match &args.grid {
            Some(grid) => encode(
                grid,
                args.model,
                args.output.as_deref(),
                args.wcnf,
                args.verbose,
            ),
            None => Err(Failure::new(exit::USAGE, "no GRID.json given (see --help)")),
        },
        Some(Command::Decode {
            grid,
            solver_output,
            model,
            svg,
        }) => decode(grid, solver_output, *model, svg.as_deref()),
        Some(Command::Solve {
            grid,
            model,
            svg,
            time,
            conflicts,
            connectivity,
            stats,
            verbose,
            keep,
            region,
            count,
            distinct,
        }) => match count {
            // Clap refuses --count beside --keep, --svg and -v: a series prints only levels.
            Some(count) => solve_series(
                grid,
                *model,
                (*time, *conflicts),
                *connectivity,
                (*count, distinct.unwrap_or(1)),
                *stats,
            ),
            None => solve(
                grid,
                *model,
                svg.as_deref(),
                (*time, *conflicts),
                *connectivity,
                Report {
                    stats: *stats,
                    verbose: *verbose,
                },
                keep.as_deref().zip(*region),
            ),
        },
        Some(Command::Describe {
            grid,
            level,
            model,
            json,
            output,
            time,
            conflicts,
            connectivity,
        }) => describe(
            grid,
            level.as_deref(),
            *model,
            *json,
            output.as_deref(),
            settings(*model, *time, *conflicts, *connectivity),
        ),
        Some(Command::Range {
            grid,
            seeds,
            levels,
            x,
            y,
            csv,
            svg,
            list_metrics,
            model,
            time,
            conflicts,
            connectivity,
        }) => range(
            grid,
            RangeSource {
                seeds: seeds.clone(),
                levels,
                list_metrics: *list_metrics,
            },
            (x.as_deref(), y.as_deref()),
            (csv.as_deref(), svg.as_deref()),
            *model,
            settings(*model, *time, *conflicts, *connectivity),
        ),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            eprintln!("grim-encode: error: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

/// How often `-v` reports on an export that is still being built or written: a 128×128 export
/// takes many seconds (issue 40), and a silent terminal looks like a hang.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// `-v` on an export: while the model is built, a line each [`PROGRESS_EVERY`] after the first
/// second, from a thread that stops when the ticker is dropped (the build itself cannot report
/// from inside the library).
struct BuildTicker {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl BuildTicker {
    fn start(started: Instant) -> BuildTicker {
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            // Err(Timeout): still building; anything else (a message or the sender gone): done.
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(PROGRESS_EVERY) {
                eprintln!(
                    "grim-encode: building the model: {:.0} s",
                    started.elapsed().as_secs_f64()
                );
            }
        });
        BuildTicker {
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for BuildTicker {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// `-v` on an export: a writer that passes everything through and, once more than
/// [`PROGRESS_EVERY`] has passed since the last line (or since the start), says how many bytes
/// are out. Without a start time it only passes bytes through.
struct Progress<'a> {
    inner: &'a mut dyn Write,
    started: Option<Instant>,
    last: Instant,
    bytes: u64,
}

impl<'a> Progress<'a> {
    fn new(inner: &'a mut dyn Write, started: Option<Instant>) -> Progress<'a> {
        Progress {
            inner,
            started,
            last: started.unwrap_or_else(Instant::now),
            bytes: 0,
        }
    }
}

impl Write for Progress<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        if let Some(started) = self.started
            && self.last.elapsed() >= PROGRESS_EVERY
        {
            self.last = Instant::now();
            eprintln!(
                "grim-encode: writing: {:.1} MB out, {:.0} s",
                self.bytes as f64 / 1e6,
                started.elapsed().as_secs_f64()
            );
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// `-v` on an export: the model's size per part, largest parts marked by their share.
fn print_sizes(parts: &[grid::PartSize], took: Duration) {
    let vars: usize = parts.iter().map(|p| p.vars).sum();
    let clauses: usize = parts.iter().map(|p| p.clauses).sum();
    eprintln!(
        "grim-encode: model built in {:.2} s: {vars} variables, {clauses} hard clauses",
        took.as_secs_f64()
    );
    eprintln!(
        "{:<28} {:>10} {:>10} {:>6}",
        "part", "variables", "clauses", "share"
    );
    for p in parts {
        let share = 100.0 * p.clauses as f64 / clauses.max(1) as f64;
        eprintln!(
            "{:<28} {:>10} {:>10} {:>5.1}%",
            p.name, p.vars, p.clauses, share
        );
    }
}

/// The seed the model is built with: `--seed`, else the file's, else none.
fn effective_seed(spec: &GridSpec, model: ModelArgs) -> Option<u64> {
    model
        .seed
        .or_else(|| spec.preferences.as_ref().map(|p| p.seed))
}

fn encode(
    grid_path: &Path,
    model_args: ModelArgs,
    output: Option<&Path>,
    wcnf: WcnfArg,
    verbose: bool,
) -> Result<u8, Failure> {
    let spec = read_spec(grid_path)?;
    let started = std::time::Instant::now();
    // Streamed (`grim_levels::encode`, "Streamed"): the clauses go to an unlinked scratch file
    // beside the output as the model is built, so memory does not grow with them.
    let scratch = scratch_file(output).map_err(|e| {
        Failure::new(
            exit::IO,
            format!("cannot create a scratch file for the export: {e}"),
        )
    })?;
    let ticker = verbose.then(|| BuildTicker::start(started));
    let built = StreamedExport::build(&spec, &model_args.options(), scratch);
    drop(ticker);
    let model = built.map_err(|e| grid_failure(grid_path, &e))?;
    if verbose {
        print_sizes(&model.sizes(), started.elapsed());
    }
    let seed = effective_seed(&spec, model_args);
    let dialect = match wcnf {
        WcnfArg::New => Dialect::New,
        WcnfArg::Old => Dialect::Old,
    };
    let written = match output {
        Some(path) => {
            let mut written = None;
            write_file(path, |out| {
                let mut out = Progress::new(out, verbose.then_some(started));
                written = Some(model.write(seed, dialect, &mut out)?);
                Ok(())
            })
            .map_err(|e| Failure::io("write", path, &e))?;
            written
        }
        None => {
            let stdout = io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            let mut out = Progress::new(&mut out, verbose.then_some(started));
            let written = model
                .write(seed, dialect, &mut out)
                .and_then(|w| out.flush().map(|()| w))
                .map_err(|e| Failure::new(exit::IO, format!("cannot write the output: {e}")))?;
            Some(written)
        }
    };
    if verbose {
        eprintln!(
            "grim-encode: model built and written in {:.2} s",
            started.elapsed().as_secs_f64()
        );
    }
    // Phase hints are comments in the export: another solver reads the clauses only, and its level
    // then follows no seed — often one tile wherever the rules let it (on the showcase specs,
    // CaDiCaL gave a map 70% wall, grim-sat without the hints one all grass). Said on every
    // such export, with the way that works with any solver.
    let soft_wishes = model_args
        .options()
        .soft_preferences
        .or(spec.preferences.as_ref().map(|p| p.soft))
        .unwrap_or(false);
    if written.is_some() && seed.is_some() && !soft_wishes {
        eprintln!(
            "grim-encode: warning: the seeded preferences are only phase hints here, written \
             as `c phase` comments that other SAT solvers ignore: their level will not follow \
             the seed and may be degenerate (one tile wherever the rules allow). For a level \
             that follows the seed with any MaxSAT solver, export the wishes as soft clauses: \
             `--preferences soft` (WCNF); or let `grim-encode solve` apply the hints."
        );
    }
    if let (Some(path), Some(written)) = (output, written) {
        let what = match written {
            Written::Cnf => "CNF",
            Written::Wcnf(Dialect::New) => "WCNF",
            Written::Wcnf(Dialect::Old) => "WCNF (old format)",
        };
        eprintln!("grim-encode: wrote {what} to {}", path.display());
    }
    Ok(exit::OK)
}

/// Writes the SVG of `level` to `path` (atomically when it is a regular file: [`write_file`]).
fn write_svg(path: &Path, spec: &GridSpec, level: &Level) -> Result<(), Failure> {
    let text = svg::render(spec, level);
    write_file(path, |out| out.write_all(text.as_bytes()))
        .map_err(|e| Failure::io("write", path, &e))
}

/// Prints the level's text form (`Level::to_text`: tile rows, then each layer) on standard output.
fn print_level(spec: &GridSpec, level: &Level) -> Result<(), Failure> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    out.write_all(level.to_text(spec).as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Failure::new(exit::IO, format!("cannot write the level: {e}")))
}

/// What a cell or layer variable stands for, for messages.
fn describe_var(spec: &GridSpec, model: &GridModel, var: Var) -> Option<String> {
    for y in 0..spec.height {
        for x in 0..spec.width {
            for (t, tile) in spec.tiles.iter().enumerate() {
                if model.cell_var(x, y, t) == var {
                    return Some(format!("cell x={x} y={y} tile {}", tile.name));
                }
            }
            for (l, layer) in spec.layers.iter().enumerate() {
                for (v, value) in layer.values.iter().enumerate() {
                    if model.layer_var(l, x, y, v) == var {
                        return Some(format!("cell x={x} y={y} {}.{}", layer.name, value.name));
                    }
                }
            }
        }
    }
    None
}

fn decode(
    grid_path: &Path,
    output_path: &Path,
    model_args: ModelArgs,
    svg_path: Option<&Path>,
) -> Result<u8, Failure> {
    if grid_path == Path::new("-") && output_path == Path::new("-") {
        return Err(Failure::new(
            exit::USAGE,
            "only one of GRID.json and SOLVER-OUTPUT can be standard input",
        ));
    }
    let spec = read_spec(grid_path)?;
    let model =
        GridModel::build(&spec, &model_args.options()).map_err(|e| grid_failure(grid_path, &e))?;
    let wcnf = model.to_wcnf();
    let out_name = display(output_path);
    let input = open_input(output_path).map_err(|e| {
        let code = if e.is_io() { exit::IO } else { exit::INPUT };
        Failure::new(code, format!("{}", e.with_path(&out_name)))
    })?;
    let (kind, answer) = read_answer(input, wcnf.num_vars).map_err(|e| {
        let code = if e.is_io() { exit::IO } else { exit::INPUT };
        Failure::new(code, format!("{}", e.with_path(&out_name)))
    })?;
    let (values, optimal, claimed_cost, assigned) = match answer {
        Answer::Unsatisfiable => {
            eprintln!(
                "grim-encode: {out_name}: the solver says UNSATISFIABLE: no level satisfies the \
                 hard rules of {}",
                display(grid_path)
            );
            return Ok(exit::UNSATISFIABLE);
        }
        Answer::Unknown => {
            eprintln!("grim-encode: {out_name}: the solver says UNKNOWN: no level to decode");
            return Ok(exit::UNKNOWN);
        }
        Answer::Model {
            values,
            optimal,
            cost,
            assigned,
        } => (values, optimal, cost, assigned),
    };
    // The CNF export writes the auxiliary variables negated: back to the encoding's own.
    let mut values = values;
    model.model_of_export(&mut values);
    // An answer to another formula (another spec, or other --seed/--preferences) first shows
    // in the variables it assigns; say that, not what it makes of some cell.
    let misfit = |what: String| {
        Failure::new(
            exit::INPUT,
            format!(
                "{out_name}: the variable map does not fit {}: {what}; the output assigns \
                 variables 1..{assigned}, the encoding of {} (with these --seed/--preferences) \
                 has {} — was it solved from this grid.json's encoding?",
                display(grid_path),
                display(grid_path),
                wcnf.num_vars
            ),
        )
    };
    if assigned > wcnf.num_vars {
        return Err(misfit(format!(
            "the output assigns variable {assigned}, past the encoding's last"
        )));
    }
    // Every cell and layer variable must be given; auxiliary ones may be missing.
    for y in 0..spec.height {
        for x in 0..spec.width {
            let vars = (0..spec.tiles.len())
                .map(|t| model.cell_var(x, y, t))
                .chain(
                    spec.layers
                        .iter()
                        .enumerate()
                        .flat_map(|(l, layer)| (0..layer.values.len()).map(move |v| (l, v)))
                        .map(|(l, v)| model.layer_var(l, x, y, v)),
                );
            for var in vars {
                if values.get(var.index()).copied().flatten().is_none() {
                    return Err(misfit(format!(
                        "the model does not assign variable {} ({})",
                        var.to_dimacs(),
                        describe_var(&spec, &model, var).unwrap_or_default()
                    )));
                }
            }
        }
    }
    let assignment: Vec<bool> = values.iter().map(|v| v.unwrap_or(false)).collect();
    let value = |l: Lit| values.get(l.var().index()).copied().flatten() == Some(l.is_positive());
    let level = model.decode(&assignment).map_err(|e| match e {
        // A cell with no tile or two: the clauses say exactly one, so this is a model of
        // other clauses.
        GridError::BadModel(fault) => misfit(format!("{fault}")),
        e => Failure::new(exit::INPUT, format!("{out_name}: {e}")),
    })?;
    print_level(&spec, &level)?;
    if let Some(path) = svg_path {
        write_svg(path, &spec, &level)?;
    }
    let mut wrong = false;
    if let Some((i, clause)) = wcnf
        .hard
        .iter()
        .enumerate()
        .find(|(_, c)| !c.iter().any(|&l| value(l)))
    {
        let lits: Vec<String> = clause.iter().map(|l| l.to_string()).collect();
        eprintln!(
            "grim-encode: {out_name}: the model falsifies hard clause {} of the encoding: {} 0",
            i + 1,
            lits.join(" ")
        );
        wrong = true;
    }
    let kind = match kind {
        OutputKind::Sat => "SAT",
        OutputKind::MaxSat => "MaxSAT",
    };
    match grid::check_level(&spec, &level) {
        Ok(()) => eprintln!(
            "grim-encode: {out_name} ({kind} output) decoded; level re-checked by check_level: \
             every hard rule holds"
        ),
        Err(problems) => {
            eprintln!(
                "grim-encode: {out_name}: the level breaks the rules of {} (check_level):",
                display(grid_path)
            );
            for p in &problems {
                eprintln!("grim-encode:   {p}");
            }
            wrong = true;
        }
    }
    if model.is_soft() {
        let cost = wcnf.cost(&assignment);
        match (cost, claimed_cost) {
            (Some(cost), Some(claimed)) if cost != claimed => {
                eprintln!(
                    "grim-encode: {out_name}: the last `o` line claims cost {claimed}, the \
                     model costs {cost}"
                );
                wrong = true;
            }
            (Some(cost), _) => eprintln!(
                "grim-encode: cost {cost}{}",
                if optimal {
                    " (optimum claimed by the solver)"
                } else {
                    ""
                }
            ),
            (None, _) => {}
        }
    }
    Ok(if wrong { exit::WRONG } else { exit::OK })
}

/// What `solve` reports besides the level: `--stats` and `-v`.
#[derive(Clone, Copy, Debug)]
struct Report {
    stats: bool,
    verbose: bool,
}

fn solve(
    grid_path: &Path,
    model_args: ModelArgs,
    svg_path: Option<&Path>,
    (time, conflicts): (Option<Duration>, Option<u64>),
    connectivity: ConnectivityArg,
    report: Report,
    keep: Option<(&Path, Region)>,
) -> Result<u8, Failure> {
    let Report {
        stats: print_stats,
        verbose,
    } = report;
    let start = Instant::now();
    // The progress lines go to standard error, so the level on standard output stays clean.
    let progress = verbose.then(|| grid::ProgressReport {
        every: Duration::from_secs(1),
        report: Box::new(|p: &grid::Progress| {
            let bounds = match (p.lower, p.upper) {
                (Some(lo), Some(up)) => format!("; cost between {lo} and {up}"),
                (Some(lo), None) => format!("; cost at least {lo}, no level yet"),
                _ => String::new(),
            };
            eprintln!(
                "grim-encode: solve: {:.1} s, {} conflicts ({} from the grid propagator){bounds}",
                p.seconds, p.conflicts, p.propagator_conflicts
            );
        }),
    });
    let spec = read_spec(grid_path)?;
    let strategy = match connectivity {
        ConnectivityArg::Propagator => ConnectivityStrategy::Propagator,
        ConnectivityArg::Lazy => ConnectivityStrategy::Lazy,
        ConnectivityArg::Eager => ConnectivityStrategy::Eager,
    };
    let options = model_args.options();
    let budget = Budget {
        conflicts,
        propagations: None,
    };
    let keep = match keep {
        Some((path, region)) => Some(read_keep(&spec, path, region)?),
        None => None,
    };
    // With -v a soft level is solved by the anytime schedule, and each better level found on the
    // way is announced (cost, lower bound, CPU seconds of the process so far).
    let soft = spec.has_soft(
        options
            .soft_preferences
            .or_else(|| spec.preferences.as_ref().map(|p| p.soft))
            .unwrap_or(false),
    );
    let anytime = verbose && soft && strategy == ConnectivityStrategy::Propagator;
    let run = |stop: Option<&Terminator>, progress| match &keep {
        None if anytime => grid::solve_soft_anytime(
            &spec,
            &options,
            budget,
            stop,
            progress,
            &mut |better: &grid::Improvement<'_>| {
                eprintln!(
                    "grim-encode: solve: a level of cost {}, no level costs less than {}; {}",
                    better.cost,
                    better.lower_bound,
                    cpu_so_far()
                );
                grid::Flow::Continue
            },
        ),
        None => grid::solve_within(&spec, &options, budget, strategy, stop, progress),
        Some((keep, _)) => {
            grid::solve_region_within(&spec, keep, &options, budget, strategy, stop, progress)
        }
    };
    let outcome = match time {
        None => run(None, progress),
        Some(limit) => {
            // A watchdog thread sets the engine's stop handle when the time is up (counted from
            // the start, parsing included); the engine then stops at its next conflict or
            // decision and the solve returns `Interrupted`. Nothing has been written by then.
            let stop = Terminator::default();
            let (done, finished) = mpsc::channel::<()>();
            let watchdog = {
                let stop = stop.clone();
                let left = limit.saturating_sub(start.elapsed());
                std::thread::spawn(move || {
                    if finished.recv_timeout(left).is_err() {
                        stop.terminate();
                    }
                })
            };
            let result = run(Some(&stop), progress);
            let _ = done.send(());
            let _ = watchdog.join();
            if let Ok((
                GridOutcome::Stopped {
                    reason: StopReason::Interrupted,
                    best: None,
                    ..
                },
                _,
            )) = result
            {
                return Err(Failure::new(
                    exit::UNKNOWN,
                    format!(
                        "{}: no level within the time limit of {} s; this is not a proof \
                         that none exists",
                        display(grid_path),
                        limit.as_secs_f64()
                    ),
                ));
            }
            result
        }
    }
    .map_err(|e| grid_failure(grid_path, &e))?;
    let (outcome, stats) = outcome;
    if print_stats {
        eprintln!(
            "grim-encode: solve: {}, {}, {}; model {}, {}; {:.3} s wall-clock in all",
            plural(stats.rounds, "round"),
            plural(stats.cuts, "connectivity cut"),
            plural(stats.conflicts, "conflict"),
            plural(stats.vars, "variable"),
            plural(stats.clauses, "hard clause"),
            start.elapsed().as_secs_f64()
        );
    }
    // A soft solve that stopped with a level in hand prints it, with its bounds, and exits 6:
    // a game with a frame budget wants the best level so far, and says so by the limit.
    let (level, unproven) = match outcome {
        GridOutcome::Level(level) => (level, None),
        GridOutcome::Stopped {
            best: Some(level),
            lower_bound,
            reason,
        } => (level, Some((lower_bound, reason))),
        GridOutcome::NoLevel { ref clash } => {
            // Say what `keep` in a clash is: a cell of the level file, not a rule of the spec.
            let kept = match &keep {
                Some((_, path)) if clash.iter().any(|r| r.path == "keep") => format!(
                    " (keep: a cell of `{}` kept outside --region)",
                    display(path)
                ),
                _ => String::new(),
            };
            return Err(Failure::new(
                exit::UNSATISFIABLE,
                format!("{}: {outcome}{kept}", display(grid_path)),
            ));
        }
        // `--time` was reported above, naming the limit; this is the conflict budget.
        GridOutcome::Stopped { .. } => {
            return Err(Failure::new(
                exit::UNKNOWN,
                format!("{}: {outcome}", display(grid_path)),
            ));
        }
    };
    // Never trust our own solver's word: the referee again, independently of the library's
    // own check.
    if let Err(problems) = grid::check_level(&spec, &level) {
        return Err(Failure::new(
            exit::INTERNAL,
            format!(
                "internal error: the engine's level breaks the rules: {}; please report it \
                 with {} and the seed",
                problems
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; "),
                display(grid_path)
            ),
        ));
    }
    print_level(&spec, &level)?;
    if let Some(path) = svg_path {
        write_svg(path, &spec, &level)?;
    }
    let soft_preferences = options
        .soft_preferences
        .or_else(|| spec.preferences.as_ref().map(|p| p.soft))
        .unwrap_or(false);
    let cost = grid::level_cost(&spec, &options, &level);
    if let Some((lower, reason)) = unproven {
        let by = match reason {
            StopReason::Interrupted => "the time limit",
            StopReason::Budget => "the conflict budget",
        };
        eprintln!(
            "grim-encode: {by} stopped the search before the optimum was proven: the level \
             printed costs {cost}, and no level costs less than {lower}"
        );
        return Ok(exit::UNKNOWN);
    }
    if spec.has_soft(soft_preferences) {
        eprintln!("grim-encode: cost {cost} (proven least: the weight of the unmet wishes)");
    }
    Ok(exit::OK)
}

/// The CPU time of this thread so far, for `solve -v` (from `/proc/self/schedstat`, in
/// nanoseconds; Linux only), or the wall-clock time since the process started where that file
/// is missing, said as such.
fn cpu_so_far() -> String {
    let ns = fs::read_to_string("/proc/self/schedstat")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse::<u64>().ok());
    match ns {
        Some(ns) => format!("{:.3} s CPU", ns as f64 / 1e9),
        None => format!("{:.3} s wall-clock", PROCESS_START.elapsed().as_secs_f64()),
    }
}

/// When the process started (first read), for [`cpu_so_far`]'s fallback.
static PROCESS_START: LazyLock<Instant> = LazyLock::new(Instant::now);

/// `--region X,Y,W,H`: four whole numbers (whether the rectangle fits the grid is checked
/// once the grid is read).
fn parse_region(text: &str) -> Result<Region, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let numbers: Option<Vec<usize>> = parts.iter().map(|p| p.parse().ok()).collect();
    match numbers.as_deref() {
        Some(&[x, y, w, h]) => Ok(Region { x, y, w, h }),
        _ => Err(format!(
            "`{text}` is not a region: expected X,Y,W,H, four whole numbers (e.g. 8,8,8,8)"
        )),
    }
}

/// `--keep LEVEL.txt --region X,Y,W,H`: the level read (errors name the file, line and
/// column), the cells outside the region kept; and the level file's path.
fn read_keep<'a>(
    spec: &GridSpec,
    path: &'a Path,
    region: Region,
) -> Result<(grid::Keep, &'a Path), Failure> {
    let level = read_level(spec, path).map_err(|e| level_file_failure(&e))?;
    let keep = grid::Keep::outside(spec, level, region).map_err(|e| {
        let Region { x, y, w, h } = region;
        Failure::new(exit::USAGE, format!("--region {x},{y},{w},{h}: {e}"))
    })?;
    Ok((keep, path))
}

/// `solve --count N --distinct D`: up to N levels, pairwise D cells apart
/// ([`grid::solve_distinct`]), printed one after another with an empty line between; a line
/// on standard error per level (its cost when soft, its distance to the closest earlier one),
/// and why the series ended when it has fewer than N.
fn solve_series(
    grid_path: &Path,
    model_args: ModelArgs,
    (time, conflicts): (Option<Duration>, Option<u64>),
    connectivity: ConnectivityArg,
    (count, distance): (u64, u64),
    print_stats: bool,
) -> Result<u8, Failure> {
    let start = Instant::now();
    if connectivity != ConnectivityArg::Propagator {
        return Err(Failure::new(
            exit::USAGE,
            "--count solves with the default --connectivity propagator only",
        ));
    }
    let spec = read_spec(grid_path)?;
    let options = model_args.options();
    let budget = Budget {
        conflicts,
        propagations: None,
    };
    let want = grid::Distinct {
        count: usize::try_from(count).unwrap_or(usize::MAX),
        distance: usize::try_from(distance).unwrap_or(usize::MAX),
    };
    let stop = Terminator::default();
    let (done, finished) = mpsc::channel::<()>();
    let watchdog = time.map(|limit| {
        let stop = stop.clone();
        let left = limit.saturating_sub(start.elapsed());
        std::thread::spawn(move || {
            if finished.recv_timeout(left).is_err() {
                stop.terminate();
            }
        })
    });
    let series = grid::solve_distinct(&spec, &options, want, budget, Some(&stop));
    let _ = done.send(());
    if let Some(w) = watchdog {
        let _ = w.join();
    }
    let series = series.map_err(|e| grid_failure(grid_path, &e))?;
    if print_stats {
        let s = series.stats;
        eprintln!(
            "grim-encode: solve: {}, {}; model {}, {}; {:.3} s wall-clock in all",
            plural(s.rounds, "round"),
            plural(s.conflicts, "conflict"),
            plural(s.vars, "variable"),
            plural(s.clauses, "hard clause"),
            start.elapsed().as_secs_f64()
        );
    }
    let soft_preferences = options
        .soft_preferences
        .or_else(|| spec.preferences.as_ref().map(|p| p.soft))
        .unwrap_or(false);
    let mut text = String::new();
    for (i, level) in series.levels.iter().enumerate() {
        // Never trust our own solver's word: the referee again, and the distances.
        if let Err(problems) = grid::check_level(&spec, level) {
            return Err(Failure::new(
                exit::INTERNAL,
                format!(
                    "internal error: level {} of the series breaks the rules: {}",
                    i + 1,
                    problems
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
            ));
        }
        let closest = series.levels[..i]
            .iter()
            .map(|e| e.distance_to(level))
            .min();
        if closest.is_some_and(|d| (d as u64) < distance) {
            return Err(Failure::new(
                exit::INTERNAL,
                format!(
                    "internal error: level {} is closer than {distance} cells",
                    i + 1
                ),
            ));
        }
        let cost = if spec.has_soft(soft_preferences) {
            format!("cost {}", grid::level_cost(&spec, &options, level))
        } else {
            "valid".to_string()
        };
        let apart = match closest {
            Some(d) => format!("; {} from the closest earlier level", plural(d, "cell")),
            None => String::new(),
        };
        eprintln!("grim-encode: level {} of {count}: {cost}{apart}", i + 1);
        if i > 0 {
            text.push('\n');
        }
        text.push_str(&level.to_text(&spec));
    }
    write_text(None, &text, "levels")?;
    let found = series.levels.len();
    match series.end {
        grid::SeriesEnd::Complete => Ok(exit::OK),
        grid::SeriesEnd::Exhausted => {
            eprintln!(
                "grim-encode: only {}: no other level differs from {} in at least {} (proven)",
                plural(found, "level"),
                if found == 1 { "it" } else { "each of them" },
                plural(distance, "cell")
            );
            Ok(exit::OK)
        }
        grid::SeriesEnd::NoLevel { clash } => {
            let outcome = GridOutcome::NoLevel { clash };
            Err(Failure::new(
                exit::UNSATISFIABLE,
                format!("{}: {outcome}", display(grid_path)),
            ))
        }
        grid::SeriesEnd::Stopped(reason) => {
            let by = match reason {
                StopReason::Interrupted => "the time limit",
                StopReason::Budget => "the conflict budget",
            };
            eprintln!(
                "grim-encode: {by} stopped the search after {} of {count}; this is not a proof \
                 that no more exist",
                plural(found, "level")
            );
            Ok(exit::UNKNOWN)
        }
    }
}

/// `--connectivity` as the library's strategy.
fn strategy(arg: ConnectivityArg) -> ConnectivityStrategy {
    match arg {
        ConnectivityArg::Propagator => ConnectivityStrategy::Propagator,
        ConnectivityArg::Lazy => ConnectivityStrategy::Lazy,
        ConnectivityArg::Eager => ConnectivityStrategy::Eager,
    }
}

/// How `describe` and `range` solve: the preferences mode of `model`, the limits, the strategy.
fn settings(
    model: ModelArgs,
    time: Option<Duration>,
    conflicts: Option<u64>,
    connectivity: ConnectivityArg,
) -> SolveSettings {
    SolveSettings {
        soft_preferences: model.options().soft_preferences,
        conflicts,
        time,
        strategy: strategy(connectivity),
    }
}

/// A level file that could not be read, as a message and an exit code (4 for the file system,
/// 3 for its contents).
fn level_file_failure(e: &LevelFileError) -> Failure {
    let code = if e.is_io() { exit::IO } else { exit::INPUT };
    Failure::new(code, e.to_string())
}

/// Writes `text` to `path` (atomically: [`write_file`]) or, without a path, to standard output.
fn write_text(path: Option<&Path>, text: &str, what: &str) -> Result<(), Failure> {
    match path {
        Some(path) => write_file(path, |out| out.write_all(text.as_bytes()))
            .map_err(|e| Failure::io("write", path, &e)),
        None => {
            let stdout = io::stdout();
            let mut out = stdout.lock();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| Failure::new(exit::IO, format!("cannot write the {what}: {e}")))
        }
    }
}

fn describe(
    grid_path: &Path,
    level_path: Option<&Path>,
    model_args: ModelArgs,
    json: bool,
    output: Option<&Path>,
    settings: SolveSettings,
) -> Result<u8, Failure> {
    if grid_path == Path::new("-") && level_path == Some(Path::new("-")) {
        return Err(Failure::new(
            exit::USAGE,
            "only one of GRID.json and LEVEL can be standard input",
        ));
    }
    let spec = read_spec(grid_path)?;
    let level = match level_path {
        Some(path) if path == Path::new("-") => {
            let mut text = String::new();
            io::stdin()
                .take(64 << 20)
                .read_to_string(&mut text)
                .map_err(|e| Failure::io("read", path, &e))?;
            Level::from_text(&spec, &text).map_err(|e| match e {
                GridError::BadText {
                    line,
                    column,
                    problem,
                } => Failure::new(exit::INPUT, format!("<stdin>:{line}:{column}: {problem}")),
                e => Failure::new(exit::INPUT, format!("<stdin>: {e}")),
            })?
        }
        Some(path) => read_level(&spec, path).map_err(|e| level_file_failure(&e))?,
        None => {
            let solved = solve_seed(&spec, &model_args.options(), &settings)
                .map_err(|e| grid_failure(grid_path, &e))?;
            match solved.outcome {
                GridOutcome::Level(level) => level,
                GridOutcome::Stopped {
                    best: Some(level), ..
                } => {
                    eprintln!(
                        "grim-encode: the limit stopped the search before the optimum was \
                         proven; describing the best level found"
                    );
                    level
                }
                GridOutcome::NoLevel { .. } => {
                    return Err(Failure::new(
                        exit::UNSATISFIABLE,
                        format!("{}: {}", display(grid_path), solved.outcome),
                    ));
                }
                GridOutcome::Stopped { .. } => {
                    return Err(Failure::new(
                        exit::UNKNOWN,
                        format!("{}: {}", display(grid_path), solved.outcome),
                    ));
                }
            }
        }
    };
    let description = grid::describe(&spec, &level);
    let text = if json {
        description.to_json()
    } else {
        description.to_text()
    };
    write_text(output, &text, "description")?;
    Ok(exit::OK)
}

/// Where `range`'s levels come from.
struct RangeSource<'a> {
    seeds: Option<std::ops::Range<u64>>,
    levels: &'a [PathBuf],
    list_metrics: bool,
}

fn range(
    grid_path: &Path,
    source: RangeSource<'_>,
    (x, y): (Option<&str>, Option<&str>),
    (csv_path, svg_path): (Option<&Path>, Option<&Path>),
    model_args: ModelArgs,
    settings: SolveSettings,
) -> Result<u8, Failure> {
    let spec = read_spec(grid_path)?;
    if source.list_metrics {
        let mut names = grid::describe::scalar_names(&spec).join("\n");
        names.push('\n');
        write_text(None, &names, "measure names")?;
        return Ok(exit::OK);
    }
    let (default_x, default_y) = grid::range::default_axes(&spec);
    let metric = |name: &str| {
        Metric::named(&spec, name).ok_or_else(|| {
            Failure::new(
                exit::USAGE,
                format!(
                    "{}: no measure named `{name}`; `grim-encode range {} --list-metrics` lists \
                     them (e.g. {default_x}, {default_y})",
                    display(grid_path),
                    display(grid_path)
                ),
            )
        })
    };
    let x = metric(x.unwrap_or(&default_x))?;
    let y = metric(y.unwrap_or(&default_y))?;
    let mut levels = ExpressiveRange::new(&spec, x.clone(), y.clone());
    let report = |p: RangeProgress<'_>| {
        let time = p
            .info
            .wall_seconds
            .map(|s| format!(" in {s:.2} s"))
            .unwrap_or_default();
        eprintln!(
            "grim-encode: range: {} of {}: {}: {}{time}; {:.1} s elapsed",
            p.done,
            p.total,
            p.info.label,
            p.info.status.as_str(),
            p.elapsed
        );
    };
    let start = Instant::now();
    let name = grid_path
        .file_name()
        .map_or_else(|| display(grid_path), |n| n.to_string_lossy().into_owned());
    let title = match source.seeds {
        Some(seeds) => {
            let title = format!(
                "Expressive range of {name}, seeds {}..{}",
                seeds.start, seeds.end
            );
            range_seeds(&mut levels, &spec, seeds, &settings, report)
                .map_err(|e| grid_failure(grid_path, &e))?;
            title
        }
        None => {
            let files = level_files(source.levels).map_err(|e| level_file_failure(&e))?;
            let title = format!("Expressive range of {name}, {} level files", files.len());
            range_files(&mut levels, &spec, &files, &model_args.options(), report)
                .map_err(|e| level_file_failure(&e))?;
            title
        }
    };
    // Nothing is written before every level is in: a failure above leaves the files as they were.
    if let Some(path) = svg_path {
        write_text(Some(path), &levels.svg(&title), "picture")?;
    }
    write_text(csv_path, &levels.csv(), "CSV")?;
    let span = |m: &Metric| {
        let i = levels.names().iter().position(|n| n == m.name());
        let values = levels
            .rows()
            .iter()
            .filter_map(|r| r.values.as_ref()?.get(i?).copied().flatten());
        let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
        if lo.is_finite() {
            format!("{} {}..{}", m.name(), short(lo), short(hi))
        } else {
            format!("{} (no level)", m.name())
        }
    };
    let mut statuses: Vec<(&str, usize)> = Vec::new();
    for row in levels.rows() {
        let s = row.info.status.as_str();
        match statuses.iter_mut().find(|(name, _)| *name == s) {
            Some((_, n)) => *n += 1,
            None => statuses.push((s, 1)),
        }
    }
    let statuses: Vec<String> = statuses.iter().map(|(s, n)| format!("{n} {s}")).collect();
    eprintln!(
        "grim-encode: range: {} ({}) in {:.1} s; {}, {}",
        plural(levels.rows().len() as u64, "row"),
        statuses.join(", "),
        start.elapsed().as_secs_f64(),
        span(&x),
        span(&y)
    );
    Ok(exit::OK)
}

/// A measure in a summary line: whole numbers whole, others to four decimals.
fn short(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.4}")
    }
}

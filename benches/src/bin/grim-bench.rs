//! grim-bench: runs SAT / MaxSAT solvers side by side on the same instances, checks every
//! answer independently of the solver that gave it, and reports the competition way: a
//! per-instance table, solved counts and PAR-2 per solver, a CSV and a cactus plot.
//!
//! ```text
//! grim-bench --timeout 60 --solver grim='target/release/grim-sat {}' \
//!     --solver cadical='cadical -q' --solver minisat=../shared/bench/adapters/minisat.sh \
//!     --csv out.csv --cactus out.svg ../shared/bench/sets/sat-main.txt
//! ```
//! Exit status: 0 when every answer passed its checks and the solvers agreed; 1 on a wrong
//! answer or a disagreement (among solvers or with the expected answers); 2 on bad arguments,
//! an unreadable instance, or a solver that could not be started.

use std::collections::BTreeSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum};
use grim_benches::harness::answer::parse_output;
use grim_benches::harness::cactus::{Line, cactus_svg};
use grim_benches::harness::check::{check_run, disagreements};
use grim_benches::harness::expected::KnownAnswers;
use grim_benches::harness::export::{self, Campaign};
use grim_benches::harness::instance::{Instance, display_name, expand};
use grim_benches::harness::report::{
    Layout, Row, RunRecord, csv, rows_from_csv, summarise, summary_text,
};
use grim_benches::harness::run::{Exit, Limits, command_line, run};

const AFTER_HELP: &str = "\
Instances: files (.cnf, .wcnf, plain or .gz; the format is detected as grim-sat does),
directories (searched recursively for such files, sorted), or lists (.txt/.list: one path per
line, relative to the list's folder or, if nothing is there, its parent, as in
../shared/bench/sets/).

Every run gets its CPU limit from the kernel (RLIMIT_CPU: SIGXCPU at the limit, SIGKILL 5 s
later) and, with --memory, an address-space limit (RLIMIT_AS); a run still alive after
--wall-limit seconds of wall time (default 10 x timeout + 60) is killed with its process group. CPU seconds (user + system,
from wait4, children included) are what is reported: the machine may be shared, and wall time
is noise.

Checks: a model must satisfy every (hard) clause; a WCNF's cost is recomputed from the model and
must equal the last `o` line; answers are compared with EXPECTED / OPTIMA / MSE CSV files found
beside the instances and with --expected files; SAT vs UNSAT or different proven optima across
solvers are disagreements. Solved = a checked SAT/UNSAT (CNF) or OPTIMUM FOUND/UNSAT (WCNF)
within the CPU limit. PAR-2 = CPU of solved runs + 2 x timeout per unsolved one.

Exit status: 0 all answers checked and agreeing; 1 a wrong answer or a disagreement; 2 bad
arguments, an unreadable instance, or a solver that could not be started.";

/// Where an exported campaign goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ExportFormat {
    /// A Slurm array job script (one task per instance and solver).
    Slurm,
    /// A BenchExec benchmark definition (XML) and its tool-info module.
    Benchexec,
}

#[derive(Parser, Debug)]
#[command(
    name = "grim-bench",
    version,
    about = "Run SAT/MaxSAT solvers side by side, check every answer, report PAR-2 and a cactus plot",
    after_help = AFTER_HELP
)]
struct Cli {
    /// A solver: NAME=COMMAND, where {} in COMMAND stands for the instance path (appended when
    /// absent). COMMAND is split like a shell would (quotes, backslashes), without expansion.
    /// Repeat for each solver; they run in this order on each instance.
    #[arg(
        short,
        long = "solver",
        value_name = "NAME=COMMAND",
        required_unless_present = "replot"
    )]
    solvers: Vec<String>,
    /// Instance files, directories or lists.
    #[arg(required_unless_present = "replot", value_name = "INSTANCE")]
    instances: Vec<PathBuf>,
    /// Run nothing: read a CSV this tool wrote (a finished or interrupted campaign) and print
    /// its table and summary again, with --cactus to redraw the plot. Use the campaign's
    /// --timeout: PAR-2 and the plot's scale depend on it.
    #[arg(long, value_name = "FILE.csv", conflicts_with_all = ["export", "csv"])]
    replot: Option<PathBuf>,
    /// CPU seconds per run (enforced by RLIMIT_CPU, rounded up to whole seconds).
    #[arg(short, long, default_value_t = 60.0, value_name = "SECONDS")]
    timeout: f64,
    /// Address-space limit per run in MiB (RLIMIT_AS).
    #[arg(short, long, value_name = "MIB")]
    memory: Option<u64>,
    /// Wall seconds after which a run is killed whatever its CPU time (default: ten times the
    /// timeout plus 60): a safety net for solvers that sleep or block; raise it on a heavily
    /// loaded machine, where a run may get a small share of a core.
    #[arg(long, value_name = "SECONDS")]
    wall_limit: Option<f64>,
    /// Instances run in parallel (each runs its solvers one after another). Keep 1 when
    /// comparing speed: on a small machine, parallel runs share caches, memory bandwidth and
    /// cores with each other (and with other users), so their CPU times are inflated unevenly
    /// and not comparable with each other or with a sequential run. Use more only to check
    /// answers quickly.
    #[arg(short, long, default_value_t = 1, value_name = "N")]
    jobs: usize,
    /// The solver the PAR-2 ratios are relative to (default: the first).
    #[arg(long, value_name = "NAME")]
    baseline: Option<String>,
    /// Write one line per run to FILE as CSV.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Draw the cactus plot (solved instances against CPU time, one line per solver) as SVG.
    #[arg(long, value_name = "FILE.svg")]
    cactus: Option<PathBuf>,
    /// Title of the cactus plot.
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// Known answers: `NAME SAT|UNSAT|COST` lines or an MSE regression CSV. Repeatable.
    #[arg(long, value_name = "FILE")]
    expected: Vec<PathBuf>,
    /// Do not load EXPECTED, OPTIMA and *.csv files from the instances' folders.
    #[arg(long)]
    no_auto_expected: bool,
    /// Resolve the paths in instance lists against DIR.
    #[arg(long, value_name = "DIR")]
    list_base: Option<PathBuf>,
    /// Write the campaign for a cluster instead of running it (needs --output).
    #[arg(long, value_enum, requires = "output")]
    export: Option<ExportFormat>,
    /// The exported file: the Slurm script, or the BenchExec XML (its tool-info module
    /// grim_bench/benchexec_tool.py is written beside it).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Where the Slurm job writes the solvers' outputs.
    #[arg(long, value_name = "DIR", default_value = "grim-bench-results")]
    results_dir: PathBuf,
    /// No progress line on standard error.
    #[arg(short, long)]
    quiet: bool,
}

/// What the workers tell the main thread.
enum Event {
    /// A solver started on an instance.
    Started { solver: String, instance: String },
    /// An instance is done.
    Done(Row),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match real_main(&cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("grim-bench: {e}");
            ExitCode::from(2)
        }
    }
}

fn parse_solvers(specs: &[String]) -> Result<Vec<(String, String)>, String> {
    let mut out: Vec<(String, String)> = Vec::new();
    for spec in specs {
        let Some((name, cmd)) = spec.split_once('=') else {
            return Err(format!("--solver `{spec}`: expected NAME=COMMAND"));
        };
        let name = name.trim();
        if name.is_empty() || name.contains([',', '/', '\n']) {
            return Err(format!(
                "--solver `{spec}`: the name must be non-empty, without , or /"
            ));
        }
        if out.iter().any(|(n, _)| n == name) {
            return Err(format!("--solver: the name `{name}` is given twice"));
        }
        command_line(cmd, "x").map_err(|e| format!("--solver {name}: {e}"))?;
        out.push((name.to_string(), cmd.to_string()));
    }
    Ok(out)
}

fn real_main(cli: &Cli) -> Result<ExitCode, String> {
    if !(cli.timeout > 0.0 && cli.timeout.is_finite()) {
        return Err(format!(
            "--timeout {} must be a positive number of seconds",
            cli.timeout
        ));
    }
    if let Some(file) = &cli.replot {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let (rows, names) = rows_from_csv(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        if names.is_empty() {
            return Err(format!("{}: no runs", file.display()));
        }
        return report(cli, &rows, &names);
    }
    let solvers = parse_solvers(&cli.solvers)?;
    if cli.jobs == 0 {
        return Err("--jobs must be at least 1".to_string());
    }
    let names: Vec<String> = solvers.iter().map(|(n, _)| n.clone()).collect();
    if let Some(b) = &cli.baseline
        && !names.contains(b)
    {
        return Err(format!("--baseline {b}: no solver has that name"));
    }
    let paths = expand(&cli.instances, cli.list_base.as_deref())?;
    if paths.is_empty() {
        return Err("no instances found".to_string());
    }
    if let Some(format) = cli.export {
        return export_campaign(cli, format, &solvers, &paths).map(|()| ExitCode::SUCCESS);
    }
    let mut known = KnownAnswers::default();
    if !cli.no_auto_expected {
        let folders: BTreeSet<PathBuf> = paths
            .iter()
            .filter_map(|p| p.parent().map(Path::to_path_buf))
            .collect();
        for folder in folders {
            known.load_folder(&folder)?;
        }
    }
    for file in &cli.expected {
        known.load(file)?;
    }
    let scratch = std::env::temp_dir().join(format!("grim-bench-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)
        .map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
    let limits = Limits {
        cpu_seconds: cli.timeout,
        memory_mib: cli.memory,
        wall_seconds: cli.wall_limit,
    };
    let instance_names: Vec<String> = paths.iter().map(|p| display_name(p)).collect();
    let layout = Layout::new(&instance_names, &names);
    println!(
        "grim-bench: {} instances x {} solvers, {} s CPU per run{}, {} job(s); {} known answers",
        paths.len(),
        names.len(),
        cli.timeout,
        cli.memory.map(|m| format!(", {m} MiB")).unwrap_or_default(),
        cli.jobs,
        known.len()
    );
    println!("{}", layout.header(&names));

    let rows = run_campaign(cli, &solvers, &paths, &known, limits, &scratch, &layout);
    let _ = std::fs::remove_dir_all(&scratch);
    if let Some(file) = &cli.csv {
        write_text(file, &csv(&rows)).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    report(cli, &rows, &names)
}

/// Prints the summary (and, for --replot, the table first), draws the cactus plot, and turns
/// the checks into the exit status.
fn report(cli: &Cli, rows: &[Row], names: &[String]) -> Result<ExitCode, String> {
    let baseline = cli.baseline.clone().unwrap_or_else(|| names[0].clone());
    if !names.contains(&baseline) {
        return Err(format!("--baseline {baseline}: no solver has that name"));
    }
    if cli.replot.is_some() {
        let instance_names: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
        let layout = Layout::new(&instance_names, names);
        println!("{}", layout.header(names));
        for row in rows {
            println!("{}", layout.line(row));
        }
    }

    let summaries = summarise(rows, names, cli.timeout);
    println!();
    println!(
        "{}",
        summary_text(&summaries, &baseline, rows.len(), cli.timeout)
    );
    let wrong: usize = summaries.iter().map(|s| s.wrong).sum();
    let disagreeing = rows.iter().filter(|r| !r.disagreements.is_empty()).count();
    let broken = rows
        .iter()
        .filter(|r| r.error.is_some() || r.runs.iter().any(|x| matches!(x.exit, Exit::Failed(_))))
        .count();
    if wrong + disagreeing + broken > 0 {
        println!(
            "{wrong} wrong answer(s), {disagreeing} instance(s) with disagreements, {broken} \
             instance(s) unreadable or with a solver that could not start"
        );
    }
    if let Some(file) = &cli.cactus {
        let lines: Vec<Line> = names
            .iter()
            .map(|n| Line {
                solver: n.clone(),
                times: rows
                    .iter()
                    .flat_map(|r| r.runs.iter())
                    .filter(|x| &x.solver == n && x.solved)
                    .map(|x| x.cpu)
                    .collect(),
            })
            .collect();
        let title = cli
            .title
            .clone()
            .unwrap_or_else(|| format!("{} instances, {} s CPU limit", rows.len(), cli.timeout));
        let svg = cactus_svg(&lines, rows.len(), cli.timeout, &title)?;
        write_text(file, &svg).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    Ok(if broken > 0 {
        ExitCode::from(2)
    } else if wrong + disagreeing > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Runs every solver on every instance (`--jobs` instances at a time), printing each row as it
/// completes and the progress line meanwhile; returns the rows in instance order.
fn run_campaign(
    cli: &Cli,
    solvers: &[(String, String)],
    paths: &[PathBuf],
    known: &KnownAnswers,
    limits: Limits,
    scratch: &Path,
    layout: &Layout,
) -> Vec<Row> {
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<Event>();
    let start = Instant::now();
    let tty = std::io::stderr().is_terminal();
    let mut rows = Vec::with_capacity(paths.len());
    std::thread::scope(|scope| {
        for worker in 0..cli.jobs.min(paths.len()) {
            let tx = tx.clone();
            let next = Arc::clone(&next);
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(path) = paths.get(index) else {
                        break;
                    };
                    let row =
                        run_instance(index, path, solvers, known, limits, scratch, worker, &tx);
                    if tx.send(Event::Done(row)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut current = String::new();
        let progress = |done: usize, current: &str| {
            format!(
                "[{done}/{}] {}  {current}",
                paths.len(),
                clock(start.elapsed())
            )
        };
        loop {
            match rx.recv_timeout(Duration::from_secs(1)) {
                Ok(Event::Started { solver, instance }) => {
                    current = format!("{solver} on {instance}");
                    if !cli.quiet {
                        if tty {
                            eprint!("\r\x1b[K{}", progress(rows.len(), &current));
                        } else {
                            eprintln!("{}", progress(rows.len(), &current));
                        }
                    }
                }
                Ok(Event::Done(row)) => {
                    if tty && !cli.quiet {
                        eprint!("\r\x1b[K");
                    }
                    println!("{}", layout.line(&row));
                    let _ = std::io::stdout().flush();
                    rows.push(row);
                    // The CSV is rewritten after every instance, so that an interrupted
                    // campaign keeps what it measured (the final write below sorts it).
                    if let Some(file) = &cli.csv {
                        let mut sorted = rows.clone();
                        sorted.sort_by_key(|r| r.index);
                        let _ = write_text(file, &csv(&sorted));
                    }
                    if tty && !cli.quiet {
                        eprint!("{}", progress(rows.len(), &current));
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if tty && !cli.quiet {
                        eprint!("\r\x1b[K{}", progress(rows.len(), &current));
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        if tty && !cli.quiet {
            eprintln!(
                "\r\x1b[K[{}/{}] {} done",
                rows.len(),
                paths.len(),
                clock(start.elapsed())
            );
        }
    });
    rows.sort_by_key(|r| r.index);
    rows
}

/// `1h02m03s`-style elapsed time.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

#[allow(clippy::too_many_arguments)]
fn run_instance(
    index: usize,
    path: &Path,
    solvers: &[(String, String)],
    known: &KnownAnswers,
    limits: Limits,
    scratch: &Path,
    worker: usize,
    tx: &mpsc::Sender<Event>,
) -> Row {
    let name = display_name(path);
    let mut row = Row {
        index,
        name: name.clone(),
        path: path.display().to_string(),
        weighted: false,
        runs: Vec::new(),
        disagreements: Vec::new(),
        error: None,
    };
    let instance = match Instance::read(path) {
        Ok(i) => i,
        Err(e) => {
            row.error = Some(e);
            return row;
        }
    };
    row.weighted = instance.weighted;
    let expected = known.get(&name);
    let out_file = scratch.join(format!("worker-{worker}.out"));
    for (solver, template) in solvers {
        let _ = tx.send(Event::Started {
            solver: solver.clone(),
            instance: name.clone(),
        });
        let result = match command_line(template, &path.display().to_string()) {
            Ok(argv) => run(&argv, limits, &out_file),
            Err(e) => run(&[], limits, &out_file).with_failure(e),
        };
        let answer = parse_output(&result.stdout, instance.num_vars);
        let checked = check_run(&instance, &answer, expected);
        let solved = checked.solves(instance.weighted)
            && result.cpu <= limits.cpu_seconds
            && !matches!(result.exit, Exit::Failed(_) | Exit::WallClock);
        row.runs.push(RunRecord {
            solver: solver.clone(),
            checked,
            cpu: result.cpu,
            wall: result.wall,
            exit: result.exit,
            solved,
        });
    }
    let pairs: Vec<(&str, &_)> = row
        .runs
        .iter()
        .map(|r| (r.solver.as_str(), &r.checked))
        .collect();
    let mut found = disagreements(instance.weighted, &pairs);
    for r in &row.runs {
        if let Some(d) = &r.checked.file_disagrees {
            found.push(format!("{} vs expected answers: {d}", r.solver));
        }
    }
    row.disagreements = found;
    row
}

/// Replaces a result's failure message (used when the command template itself is bad).
trait WithFailure {
    fn with_failure(self, message: String) -> Self;
}

impl WithFailure for grim_benches::harness::run::RunResult {
    fn with_failure(mut self, message: String) -> Self {
        self.exit = Exit::Failed(message);
        self
    }
}

fn export_campaign(
    cli: &Cli,
    format: ExportFormat,
    solvers: &[(String, String)],
    paths: &[PathBuf],
) -> Result<(), String> {
    let Some(output) = &cli.output else {
        return Err("--export needs --output FILE".to_string());
    };
    let instances: Vec<String> = paths
        .iter()
        .map(|p| {
            std::path::absolute(p)
                .unwrap_or_else(|_| p.clone())
                .display()
                .to_string()
        })
        .collect();
    let campaign = Campaign {
        solvers,
        instances: &instances,
        timeout: cli.timeout,
        memory_mib: cli.memory,
        wall_seconds: cli
            .wall_limit
            .unwrap_or_else(|| Limits::default_wall_seconds(cli.timeout)),
    };
    let write = |file: &Path, text: String| {
        write_text(file, &text).map_err(|e| format!("{}: {e}", file.display()))
    };
    match format {
        ExportFormat::Slurm => {
            let results =
                std::path::absolute(&cli.results_dir).unwrap_or_else(|_| cli.results_dir.clone());
            write(output, export::slurm(&campaign, &results))?;
            eprintln!(
                "grim-bench: wrote {} ({} array tasks); submit with `sbatch {}`",
                output.display(),
                instances.len() * solvers.len(),
                output.display()
            );
        }
        ExportFormat::Benchexec => {
            write(output, export::benchexec(&campaign))?;
            let folder = output.parent().unwrap_or(Path::new("."));
            let (package, file) = export::BENCHEXEC_TOOL_FILE;
            let package = folder.join(package);
            std::fs::create_dir_all(&package)
                .map_err(|e| format!("cannot create {}: {e}", package.display()))?;
            write(&package.join("__init__.py"), String::new())?;
            let module = package.join(file);
            write(&module, export::benchexec_tool())?;
            eprintln!(
                "grim-bench: wrote {} and {}; run with `PYTHONPATH={folder} benchexec {} -o \
                 RESULTS/` (where BenchExec cannot mount overlayfs, add `--read-only-dir / \
                 --full-access-dir RESULTS`)",
                output.display(),
                module.display(),
                output.display(),
                folder = if folder.as_os_str().is_empty() {
                    ".".to_string()
                } else {
                    folder.display().to_string()
                },
            );
        }
    }
    Ok(())
}

/// Writes a report or campaign file: atomically when it is a regular file (an interrupted
/// campaign never leaves half a CSV), through to a device, FIFO or symlink's target
/// (`grim_tools::output::write_file`).
fn write_text(path: &Path, text: &str) -> std::io::Result<()> {
    grim_tools::output::write_file(path, |out| out.write_all(text.as_bytes()))
}

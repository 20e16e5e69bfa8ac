//! `grim-encode describe` and `grim-encode range` as library functions: solving one seed with
//! its time measured ([`solve_seed`]), a range over seeds ([`range_seeds`]) or over level
//! files another generator wrote ([`range_files`]), and the seed-range syntax
//! ([`parse_seeds`]). The measuring itself — [`grim_levels::describe()`], the CSV and the
//! picture of [`grim_levels::range`] — is the levels crate's; what is here is what a command
//! line adds around it: files, clocks, budgets, progress.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use grim_levels::range::{Label, Range, RowInfo, RowStatus};
use grim_levels::{
    Budget, ConnectivityStrategy, GridError, GridOptions, GridOutcome, GridSpec, Level, Terminator,
    check_level, level_cost, solve_within,
};

/// Parses `--seeds`: `A..B` (A up to B, B excluded, as a Rust range: `0..100` is 100 seeds),
/// `A..=B` (B included) or a single seed `A`. An empty range is refused: a range of no
/// levels draws nothing.
pub fn parse_seeds(text: &str) -> Result<std::ops::Range<u64>, String> {
    let number = |s: &str| {
        s.trim()
            .parse::<u64>()
            .map_err(|_| format!("`{s}` is not a seed (a whole number from 0 to 2^64 - 1)"))
    };
    let (from, to) = if let Some((a, b)) = text.split_once("..=") {
        let b = number(b)?;
        let end = b
            .checked_add(1)
            .ok_or_else(|| format!("`{text}`: the last seed must be below 2^64 - 1"))?;
        (number(a)?, end)
    } else if let Some((a, b)) = text.split_once("..") {
        (number(a)?, number(b)?)
    } else {
        let a = number(text)?;
        (a, a.saturating_add(1))
    };
    if from >= to {
        return Err(format!(
            "`{text}` holds no seed (A..B stops before B; write A..=B to include it)"
        ));
    }
    Ok(from..to)
}

/// How each seed of a range (or the one seed of `describe`) is solved.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveSettings {
    /// Preferences mode (the seed is set per run).
    pub soft_preferences: Option<bool>,
    /// Conflicts per solve.
    pub conflicts: Option<u64>,
    /// Wall-clock limit per solve.
    pub time: Option<Duration>,
    /// How connectivity is solved.
    pub strategy: ConnectivityStrategy,
}

/// One solve: its outcome and how long it took.
#[derive(Clone, Debug)]
pub struct Solved {
    /// What the solve answered.
    pub outcome: GridOutcome,
    /// CPU seconds of the solving thread ([`thread_cpu_seconds`]), when the system tells.
    pub cpu_seconds: Option<f64>,
    /// Wall-clock seconds.
    pub wall_seconds: f64,
}

impl Solved {
    /// The level, if any: the answer, or with soft rules the best level found before a stop.
    pub fn level(&self) -> Option<&Level> {
        match &self.outcome {
            GridOutcome::Level(level) => Some(level),
            GridOutcome::Stopped {
                best: Some(level), ..
            } => Some(level),
            _ => None,
        }
    }

    /// The CSV status of the outcome.
    pub fn status(&self) -> RowStatus {
        match &self.outcome {
            GridOutcome::Level(_) => RowStatus::Level,
            GridOutcome::Stopped { best: Some(_), .. } => RowStatus::Best,
            GridOutcome::Stopped { best: None, .. } => RowStatus::Stopped,
            GridOutcome::NoLevel { .. } => RowStatus::NoLevel,
        }
    }
}

/// CPU time of the calling thread in seconds, from Linux's `/proc/thread-self/schedstat`
/// (nanoseconds on a CPU), else `/proc/thread-self/stat` (`utime + stime`, in ticks of 1/100 s,
/// the `USER_HZ` of every Linux ABI); `None` elsewhere. Why the thread and not the process:
/// the watchdog of `--time` sleeps on another thread, and a test harness runs other tests
/// beside this one; the solve is the calling thread's.
pub fn thread_cpu_seconds() -> Option<f64> {
    if let Ok(text) = fs::read_to_string("/proc/thread-self/schedstat")
        && let Some(ns) = text
            .split_whitespace()
            .next()
            .and_then(|f| f.parse::<u64>().ok())
    {
        return Some(ns as f64 / 1e9);
    }
    let text = fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count fields after
    // the last `)`. utime and stime are fields 14 and 15, i.e. the 12th and 13th after it.
    let rest = text.get(text.rfind(')')? + 1..)?;
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some((utime + stime) as f64 / 100.0)
}

/// Solves `spec` with `options` under `settings` (the conflict budget, and the time limit
/// through a watchdog thread that sets the engine's stop handle), timing it.
pub fn solve_seed(
    spec: &GridSpec,
    options: &GridOptions,
    settings: &SolveSettings,
) -> Result<Solved, GridError> {
    let budget = Budget {
        conflicts: settings.conflicts,
        propagations: None,
    };
    let cpu_start = thread_cpu_seconds();
    let start = Instant::now();
    let result = match settings.time {
        None => solve_within(spec, options, budget, settings.strategy, None, None),
        Some(limit) => {
            let stop = Terminator::default();
            let (done, finished) = mpsc::channel::<()>();
            let watchdog = {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    if finished.recv_timeout(limit).is_err() {
                        stop.terminate();
                    }
                })
            };
            let result = solve_within(spec, options, budget, settings.strategy, Some(&stop), None);
            let _ = done.send(());
            let _ = watchdog.join();
            result
        }
    };
    let wall_seconds = start.elapsed().as_secs_f64();
    let cpu_seconds = match (cpu_start, thread_cpu_seconds()) {
        (Some(a), Some(b)) => Some((b - a).max(0.0)),
        _ => None,
    };
    let (outcome, _) = result?;
    Ok(Solved {
        outcome,
        cpu_seconds,
        wall_seconds,
    })
}

/// What a range reports after each level, for a progress line.
#[derive(Clone, Debug)]
pub struct RangeProgress<'a> {
    /// Levels done, this one included.
    pub done: usize,
    /// Levels in all.
    pub total: usize,
    /// The row just added.
    pub info: &'a RowInfo,
    /// Wall-clock seconds since the range started.
    pub elapsed: f64,
}

/// The soft cost of `level` under `options` when anything is soft, as the CSV shows it.
fn cost(spec: &GridSpec, options: &GridOptions, level: &Level) -> Option<u64> {
    let soft = options
        .soft_preferences
        .or_else(|| spec.preferences.as_ref().map(|p| p.soft))
        .unwrap_or(false);
    spec.has_soft(soft)
        .then(|| level_cost(spec, options, level))
}

/// Solves every seed of `seeds` in order (the seed overriding the file's) and adds each to
/// `range`, calling `progress` after each. A seed without a level is a row too (`no-level`,
/// `stopped`). Errors are the solve's own (an internal error: the referee rejected a level).
pub fn range_seeds(
    range: &mut Range<'_>,
    spec: &GridSpec,
    seeds: std::ops::Range<u64>,
    settings: &SolveSettings,
    mut progress: impl FnMut(RangeProgress<'_>),
) -> Result<(), GridError> {
    let start = Instant::now();
    let total = usize::try_from(seeds.end - seeds.start).unwrap_or(usize::MAX);
    for (k, seed) in seeds.enumerate() {
        let options = GridOptions {
            seed: Some(seed),
            soft_preferences: settings.soft_preferences,
            ..GridOptions::default()
        };
        let solved = solve_seed(spec, &options, settings)?;
        let level = solved.level();
        let info = RowInfo {
            label: Label::Seed(seed),
            status: solved.status(),
            cost: level.and_then(|l| cost(spec, &options, l)),
            cpu_seconds: solved.cpu_seconds,
            wall_seconds: Some(solved.wall_seconds),
        };
        let row = range.add(info, level);
        progress(RangeProgress {
            done: k + 1,
            total,
            info: &row.info,
            elapsed: start.elapsed().as_secs_f64(),
        });
    }
    Ok(())
}

/// Why a level file could not be added to a range.
#[derive(Debug)]
pub enum LevelFileError {
    /// The file or directory could not be read.
    Io {
        /// The path.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// The file is not a level of the spec in `Level::to_text`'s form (wrong size, unknown
    /// glyph, ...): the error names line and column.
    Text {
        /// The path.
        path: PathBuf,
        /// What `Level::from_text` said (boxed: a `GridError` is large, and the error is
        /// rare).
        error: Box<GridError>,
    },
    /// A directory given to `--levels` holds no `.txt` file.
    EmptyDirectory {
        /// The directory.
        path: PathBuf,
    },
}

impl fmt::Display for LevelFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelFileError::Io { path, error } => {
                write!(f, "cannot read `{}`: {error}", path.display())
            }
            LevelFileError::Text { path, error } => match error.as_ref() {
                GridError::BadText {
                    line,
                    column,
                    problem,
                } => write!(f, "{}:{line}:{column}: {problem}", path.display()),
                error => write!(f, "{}: {error}", path.display()),
            },
            LevelFileError::EmptyDirectory { path } => write!(
                f,
                "`{}` holds no .txt level file (levels as `grim-encode decode` prints them, \
                 one per file)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for LevelFileError {}

impl LevelFileError {
    /// Whether the file system failed (rather than the file's contents).
    pub fn is_io(&self) -> bool {
        matches!(self, LevelFileError::Io { .. })
    }
}

/// The level files `paths` name: a file as it is, a directory as its `*.txt` files sorted by
/// name (byte order, so the rows come in the same order on every system).
pub fn level_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, LevelFileError> {
    let mut out = Vec::new();
    for path in paths {
        let io = |error| LevelFileError::Io {
            path: path.clone(),
            error,
        };
        if fs::metadata(path).map_err(io)?.is_dir() {
            let mut files = Vec::new();
            for entry in fs::read_dir(path).map_err(io)? {
                let entry = entry.map_err(io)?;
                let name = entry.path();
                if name.extension().is_some_and(|e| e == "txt") && !entry.path().is_dir() {
                    files.push(name);
                }
            }
            if files.is_empty() {
                return Err(LevelFileError::EmptyDirectory { path: path.clone() });
            }
            files.sort();
            out.extend(files);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

/// Reads a level file in `Level::to_text`'s form (what `grim-encode solve` and `decode`
/// print), at most 64 MiB (a 256 × 256 level with layers is well under 1 MiB).
pub fn read_level(spec: &GridSpec, path: &Path) -> Result<Level, LevelFileError> {
    use std::io::Read as _;
    const MAX_LEVEL_TEXT: u64 = 64 << 20;
    let io = |error| LevelFileError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut bytes = Vec::new();
    fs::File::open(path)
        .and_then(|f| f.take(MAX_LEVEL_TEXT + 1).read_to_end(&mut bytes))
        .map_err(io)?;
    if bytes.len() as u64 > MAX_LEVEL_TEXT {
        return Err(io(io::Error::new(
            io::ErrorKind::InvalidData,
            "larger than 64 MiB; not a level",
        )));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| io(io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text")))?;
    Level::from_text(spec, &text).map_err(|error| LevelFileError::Text {
        path: path.to_path_buf(),
        error: Box::new(error),
    })
}

/// Adds each level file of `files` (in order) to `range`: status `valid` when the level
/// passes `check_level`, `invalid` (still described) when it breaks a rule; the cost under
/// `options` when anything is soft; no times (the level was made elsewhere). Stops at the
/// first file that cannot be read.
pub fn range_files(
    range: &mut Range<'_>,
    spec: &GridSpec,
    files: &[PathBuf],
    options: &GridOptions,
    mut progress: impl FnMut(RangeProgress<'_>),
) -> Result<(), LevelFileError> {
    let start = Instant::now();
    for (k, path) in files.iter().enumerate() {
        let level = read_level(spec, path)?;
        let status = if check_level(spec, &level).is_ok() {
            RowStatus::Valid
        } else {
            RowStatus::Invalid
        };
        let info = RowInfo {
            label: Label::File(path.display().to_string()),
            status,
            cost: cost(spec, options, &level),
            cpu_seconds: None,
            wall_seconds: None,
        };
        let row = range.add(info, Some(&level));
        progress(RangeProgress {
            done: k + 1,
            total: files.len(),
            info: &row.info,
            elapsed: start.elapsed().as_secs_f64(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_ranges_read_as_rust_ranges() {
        assert_eq!(parse_seeds("0..100"), Ok(0..100));
        assert_eq!(parse_seeds("3..=5"), Ok(3..6));
        assert_eq!(parse_seeds("7"), Ok(7..8));
        assert!(parse_seeds("5..5").is_err());
        assert!(parse_seeds("5..2").is_err());
        assert!(parse_seeds("a..2").is_err());
        assert!(parse_seeds("0..=18446744073709551615").is_err());
        assert!(parse_seeds("-1..3").is_err());
    }

    #[test]
    fn the_thread_cpu_clock_moves_forward() {
        let Some(a) = thread_cpu_seconds() else {
            return; // not Linux: nothing to check
        };
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
        }
        std::hint::black_box(x);
        let b = thread_cpu_seconds().expect("still readable");
        assert!(b >= a, "{a} then {b}");
    }
}

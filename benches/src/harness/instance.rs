//! Reading a benchmark instance for the checks: CNF or WCNF, plain or gzip, through
//! `grim_tools`' own readers and format detection (the same rule `grim-sat` uses: a `p wcnf`
//! header, a first clause marked `h`, or a `.wcnf` name make it WCNF).
//!
//! Each instance is read once, before any solver runs on it, and dropped after its row is
//! checked: the harness never holds more than the instances in flight (`--jobs`).

use std::path::{Path, PathBuf};

use grim_solver::Lit;
use grim_tools::formats::ParseError;
use grim_tools::formats::detect::{Format, detect};
use grim_tools::formats::dimacs::{ParseOptions, read_cnf};
use grim_tools::formats::open_input;
use grim_tools::formats::wcnf::read_wcnf;

/// A benchmark instance in memory: the clauses every answer is checked against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Where it was read from (as given on the command line or in the list).
    pub path: PathBuf,
    /// Whether it is a MaxSAT instance (WCNF): decides what counts as solved
    /// (`OPTIMUM FOUND` or `UNSATISFIABLE` rather than `SATISFIABLE` or `UNSATISFIABLE`).
    pub weighted: bool,
    /// Variables declared or used.
    pub num_vars: usize,
    /// The clauses every model must satisfy (all clauses of a CNF).
    pub hard: Vec<Vec<Lit>>,
    /// Soft clauses with their weights (empty for a CNF).
    pub soft: Vec<(u64, Vec<Lit>)>,
}

impl Instance {
    /// Reads `path`, detecting CNF or WCNF and gzip. Lenient (`strict: false`), as solvers
    /// are: a header whose counts are off is a warning, not a reason to skip the instance.
    pub fn read(path: &Path) -> Result<Instance, String> {
        let shown = path.display().to_string();
        let located = |e: ParseError| e.with_path(&shown).to_string();
        let detected = detect(open_input(path).map_err(located)?, path, None).map_err(located)?;
        let options = ParseOptions::default();
        let (weighted, num_vars, hard, soft) = match detected.format {
            Format::Cnf => {
                let cnf = read_cnf(detected, options).map_err(located)?.cnf;
                (false, cnf.num_vars, cnf.clauses, Vec::new())
            }
            Format::Wcnf => {
                let wcnf = read_wcnf(detected, options).map_err(located)?.wcnf;
                (true, wcnf.num_vars, wcnf.hard, wcnf.soft)
            }
        };
        Ok(Instance {
            path: path.to_path_buf(),
            weighted,
            num_vars,
            hard,
            soft,
        })
    }

    /// The file name, the instance's name in tables and expected-answer files.
    pub fn name(&self) -> String {
        display_name(&self.path)
    }
}

/// The file name of `path` (the whole path when it has none).
pub fn display_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Whether a file name looks like an instance when a directory is scanned: `.cnf`, `.wcnf`,
/// `.dimacs`, each optionally followed by `.gz` (the readers inflate gzip, nothing else).
pub fn looks_like_instance(path: &Path) -> bool {
    let name = display_name(path).to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    name.ends_with(".cnf") || name.ends_with(".wcnf") || name.ends_with(".dimacs")
}

/// Expands the command line's instance arguments in order: a directory gives its instance
/// files (recursively, sorted by path so the order is the same on every machine), a file
/// ending in `.txt` or `.list` is a list of paths (one per line, `#` comments), anything else
/// is an instance.
///
/// A list's relative paths are resolved against `list_base` when given; otherwise against the
/// list's folder, or, when nothing exists there, against its parent — the layout of
/// `../shared/bench/sets/*.txt`, whose paths are relative to `bench/`, not `bench/sets/`.
pub fn expand(args: &[PathBuf], list_base: Option<&Path>) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for arg in args {
        if arg.is_dir() {
            let mut found = Vec::new();
            walk(arg, &mut found)?;
            found.sort();
            out.extend(found);
        } else if is_list(arg) {
            let text = std::fs::read_to_string(arg)
                .map_err(|e| format!("{}: cannot read the instance list: {e}", arg.display()))?;
            let folder = arg.parent().map(Path::to_path_buf).unwrap_or_default();
            for line in text.lines() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let path = match list_base {
                    Some(base) => base.join(line),
                    None => {
                        let here = folder.join(line);
                        let above = folder.join("..").join(line);
                        if !here.exists() && above.exists() {
                            above
                        } else {
                            here
                        }
                    }
                };
                out.push(path);
            }
        } else {
            out.push(arg.clone());
        }
    }
    Ok(out)
}

fn is_list(path: &Path) -> bool {
    let name = display_name(path).to_ascii_lowercase();
    name.ends_with(".txt") || name.ends_with(".list")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("{}: cannot list: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: cannot list: {e}", dir.display()))?;
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if looks_like_instance(&path) {
            out.push(path);
        }
    }
    Ok(())
}

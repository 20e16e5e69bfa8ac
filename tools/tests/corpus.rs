//! The instance corpus (`instances/MANIFEST`): every listed instance gets the answer two
//! external solvers agreed on, under the default options, the aggressive test schedule and two
//! seeds, and every model is checked here against the clauses as read by this file's own
//! reader (not the engine's copy, not `formats::dimacs`).
//!
//! The files are read twice: by `grim_tools::formats::dimacs` and by the tiny reader below,
//! and the two must agree clause for clause, so a reader bug cannot hide behind a model check
//! that uses the reader's own output.

use std::collections::BTreeSet;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;
use grim_solver::{Budget, Lit, Options, Solver, Status};
use grim_tools::formats::dimacs::{ParseOptions, read_cnf_path};

/// A conflict budget far beyond what any corpus instance needs (the slowest takes a few
/// thousand conflicts), so a regression shows up as a failed test with a message rather than
/// a hung test run.
const CONFLICT_BUDGET: u64 = 5_000_000;

fn instances_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../instances")
}

/// One manifest line: the instance's path (relative to `instances/`) and its expected answer.
#[derive(Clone, Debug)]
struct Entry {
    path: String,
    expected: Status,
}

/// Reads `instances/MANIFEST`: `PATH ANSWER` per line, `#` comments and blank lines ignored.
/// Panics (failing the test) on any malformed line.
fn manifest() -> Vec<Entry> {
    let path = instances_dir().join("MANIFEST");
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut entries = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let expected = match fields.as_slice() {
            [_, "SAT"] => Status::Sat,
            [_, "UNSAT"] => Status::Unsat,
            _ => panic!(
                "MANIFEST line {}: expected `PATH SAT|UNSAT`, found `{line}`",
                number + 1
            ),
        };
        entries.push(Entry {
            path: fields[0].to_string(),
            expected,
        });
    }
    entries
}

/// The bytes of an instance, gunzipped when the name ends in `.gz`.
fn instance_bytes(path: &Path) -> Vec<u8> {
    let raw = fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    if path.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        MultiGzDecoder::new(raw.as_slice())
            .read_to_end(&mut out)
            .unwrap_or_else(|e| panic!("cannot gunzip {}: {e}", path.display()));
        out
    } else {
        raw
    }
}

/// A deliberately small DIMACS reader, independent of `formats::dimacs`: comment lines start
/// with `c`, the header is `p cnf V C`, clauses are whitespace-separated integers ending in 0
/// and may span lines. Returns (declared variables, clauses). Panics on anything else — the
/// corpus holds only well-formed files.
fn parse_dimacs(bytes: &[u8], name: &str) -> (usize, Vec<Vec<i64>>) {
    let text = String::from_utf8_lossy(bytes);
    let mut num_vars = None;
    let mut clauses = Vec::new();
    let mut clause = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        if line.starts_with('p') {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert!(
                fields.len() == 4 && fields[1] == "cnf",
                "{name}: bad header `{line}`"
            );
            num_vars = Some(fields[2].parse::<usize>().expect("header variable count"));
            continue;
        }
        for token in line.split_whitespace() {
            let lit: i64 = token
                .parse()
                .unwrap_or_else(|e| panic!("{name}: bad literal `{token}`: {e}"));
            if lit == 0 {
                clauses.push(std::mem::take(&mut clause));
            } else {
                clause.push(lit);
            }
        }
    }
    assert!(clause.is_empty(), "{name}: unterminated clause {clause:?}");
    let num_vars = num_vars.unwrap_or_else(|| panic!("{name}: no `p cnf` header"));
    (num_vars, clauses)
}

/// A corpus instance read by both readers, which must agree.
struct Instance {
    name: String,
    expected: Status,
    num_vars: usize,
    clauses: Vec<Vec<i64>>,
}

fn load(entry: &Entry) -> Instance {
    let path = instances_dir().join(&entry.path);
    assert!(
        path.is_file(),
        "MANIFEST lists {} but {} does not exist",
        entry.path,
        path.display()
    );
    let (num_vars, clauses) = parse_dimacs(&instance_bytes(&path), &entry.path);
    let strict = ParseOptions {
        strict: true,
        ..ParseOptions::default()
    };
    let parsed = read_cnf_path(&path, strict)
        .unwrap_or_else(|e| panic!("formats::dimacs refuses {}: {e}", entry.path));
    assert!(
        parsed.warnings.is_empty(),
        "{}: warnings {:?}",
        entry.path,
        parsed.warnings
    );
    let theirs: Vec<Vec<i64>> = parsed
        .cnf
        .clauses
        .iter()
        .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
        .collect();
    assert_eq!(
        theirs, clauses,
        "{}: formats::dimacs and the test's reader disagree on the clauses",
        entry.path
    );
    assert_eq!(
        parsed.cnf.num_vars, num_vars,
        "{}: variable counts differ",
        entry.path
    );
    Instance {
        name: entry.path.clone(),
        expected: entry.expected,
        num_vars,
        clauses,
    }
}

fn lit(dimacs: i64) -> Lit {
    Lit::from_dimacs(dimacs).unwrap_or_else(|| panic!("literal {dimacs} out of the engine's range"))
}

/// Solves `instance` under `opts` and checks the answer: the expected status, and for SAT a
/// model (from both `value` and `model`) that satisfies every clause as this file read it.
/// Returns a description of the first problem, or `None`.
fn run(instance: &Instance, opts: Options, label: &str) -> Option<String> {
    let mut solver = Solver::with_options(opts);
    solver.reserve_vars(instance.num_vars);
    for clause in &instance.clauses {
        let lits: Vec<Lit> = clause.iter().map(|&l| lit(l)).collect();
        solver.add_clause(&lits);
    }
    let status = solver.solve(&[], Budget::conflicts(CONFLICT_BUDGET));
    let name = &instance.name;
    if status != instance.expected {
        return Some(format!(
            "{name} [{label}]: got {status:?}, expected {:?} ({} conflicts)",
            instance.expected,
            solver.stats().conflicts
        ));
    }
    if status != Status::Sat {
        return None;
    }
    let Some(model) = solver.model() else {
        return Some(format!("{name} [{label}]: Sat without a model"));
    };
    if model.len() < instance.num_vars {
        return Some(format!(
            "{name} [{label}]: model has {} values for {} variables",
            model.len(),
            instance.num_vars
        ));
    }
    for (index, clause) in instance.clauses.iter().enumerate() {
        let by_value = clause.iter().any(|&l| solver.value(lit(l)) == Some(true));
        let by_model = clause.iter().any(|&l| {
            let v = model[(l.unsigned_abs() - 1) as usize];
            v == (l > 0)
        });
        if !by_value || !by_model {
            return Some(format!(
                "{name} [{label}]: clause {index} {clause:?} is false in the model \
                 (value(): {by_value}, model(): {by_model})"
            ));
        }
    }
    None
}

fn checked_defaults() -> Options {
    Options {
        check_model: true,
        ..Default::default()
    }
}

/// Runs every corpus instance under `opts` and fails with the list of problems.
fn run_corpus(configs: &[(&str, Options)]) {
    let entries = manifest();
    assert!(!entries.is_empty(), "instances/MANIFEST lists no instance");
    let mut problems = Vec::new();
    for entry in &entries {
        let instance = load(entry);
        for (label, opts) in configs {
            problems.extend(run(&instance, opts.clone(), label));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s) over {} instances:\n{}",
        problems.len(),
        entries.len(),
        problems.join("\n")
    );
}

#[test]
fn every_corpus_instance_gets_its_expected_answer_and_a_checked_model() {
    run_corpus(&[("default", checked_defaults())]);
}

#[test]
fn the_aggressive_schedule_and_other_seeds_agree_on_every_corpus_instance() {
    run_corpus(&[
        ("aggressive", Options::aggressive()),
        (
            "seed=1",
            Options {
                seed: 1,
                ..checked_defaults()
            },
        ),
        (
            "seed=2",
            Options {
                seed: 2,
                ..checked_defaults()
            },
        ),
    ]);
}

#[test]
fn the_manifest_lists_every_corpus_file_exactly_once_and_nothing_else() {
    let entries = manifest();
    assert!(!entries.is_empty(), "instances/MANIFEST lists no instance");
    let mut listed = BTreeSet::new();
    for entry in &entries {
        assert!(
            listed.insert(entry.path.clone()),
            "MANIFEST lists {} twice",
            entry.path
        );
        let path = instances_dir().join(&entry.path);
        assert!(
            path.is_file(),
            "MANIFEST lists {} but it does not exist",
            entry.path
        );
    }
    let dir = instances_dir().join("cnf");
    let on_disk: BTreeSet<String> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| format!("cnf/{}", e.file_name().to_string_lossy()))
        .filter(|name| name.ends_with(".cnf") || name.ends_with(".cnf.gz"))
        .collect();
    let unlisted: Vec<&String> = on_disk.difference(&listed).collect();
    assert!(
        unlisted.is_empty(),
        "files in instances/cnf/ missing from MANIFEST: {unlisted:?}"
    );
}

#[test]
fn the_corpus_mixes_sat_and_unsat_and_exercises_gzip() {
    let entries = manifest();
    let sat = entries.iter().filter(|e| e.expected == Status::Sat).count();
    let unsat = entries.len() - sat;
    let gzipped = entries.iter().filter(|e| e.path.ends_with(".gz")).count();
    assert!(
        sat >= 10 && unsat >= 10 && gzipped >= 1,
        "corpus has {sat} SAT, {unsat} UNSAT, {gzipped} gzipped instances"
    );
}

#[test]
fn the_test_reader_handles_the_layouts_the_corpus_uses() {
    let text = b"c comment\n\np cnf 3 3\n1 -2\n 3 0 -1 0\nc between\n\t2\t0\n";
    let (vars, clauses) = parse_dimacs(text, "inline");
    assert_eq!(vars, 3);
    assert_eq!(clauses, vec![vec![1, -2, 3], vec![-1], vec![2]]);
    let (vars, clauses) = parse_dimacs(b"p cnf 0 1\n0\n", "inline");
    assert_eq!((vars, clauses), (0, vec![vec![]]));
}

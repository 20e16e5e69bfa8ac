//! The C ABI from C: programs in `tests/c/` compiled with the system C compiler against
//! `include/*.h` and linked against the shared and the static library, their answers checked
//! against the Rust API and by independent checks (models against the clauses, cores re-solved,
//! optima against `Oll` and brute force).
//!
//! Without a C compiler (`$CC`, else `cc`) each test prints that it was skipped; with
//! `GRIM_REQUIRE_REFERENCES=1` (as `.ci/run` sets, after installing one) that is a failure.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use grim_maxsat::Wcnf;
use grim_maxsat::{MaxSatStatus, Oll, OllOptions};
use grim_solver::{Budget, Lit, Solver, Status, Var};
use grim_testkit::{SplitMix64 as Rng, maxsat_optimum};

// ---------------------------------------------------------------- building the C programs

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory holding `libgrim_ipasir.so` and `.a` of this build: the test binary lives in
/// `target/<profile>/deps/`, and cargo puts the library's outputs there and one level up.
fn library_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("deps directory").to_path_buf();
    for dir in [
        deps.clone(),
        deps.parent().map(Path::to_path_buf).unwrap_or_default(),
    ] {
        if dir.join("libgrim_ipasir.so").exists() && dir.join("libgrim_ipasir.a").exists() {
            return dir;
        }
    }
    panic!(
        "libgrim_ipasir.so and .a not found beside {} (cargo builds them with the crate)",
        exe.display()
    );
}

fn compiler() -> Option<String> {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let found = Command::new(&cc)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    found.then_some(cc)
}

/// The C compiler, or `None` after saying the test is skipped (a failure when references are
/// required). The message goes to stderr and to the terminal directly, so that cargo's output
/// capture does not hide it.
fn require_compiler(test: &str) -> Option<String> {
    static CC: OnceLock<Option<String>> = OnceLock::new();
    let cc = CC.get_or_init(compiler).clone();
    if cc.is_none() {
        grim_testkit::reference::skip(
            test,
            "no C compiler (set CC or install one, e.g. `apt-get install gcc`)",
        );
    }
    cc
}

/// [`require_compiler`]'s compiler, or return from the test (which it has reported skipped).
macro_rules! compiler_or_return {
    ($test:expr) => {
        match require_compiler($test) {
            Some(cc) => cc,
            None => return,
        }
    };
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Link {
    Shared,
    Static,
}

/// Compiles `tests/c/NAME.c` with warnings as errors, linked against the library.
fn build(cc: &str, name: &str, link: Link) -> PathBuf {
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("c-abi");
    std::fs::create_dir_all(&out_dir).expect("create the output directory");
    let lib = library_dir();
    let exe = out_dir.join(format!(
        "{name}-{}",
        if link == Link::Shared { "so" } else { "a" }
    ));
    let mut cmd = Command::new(cc);
    cmd.args([
        "-std=c99",
        "-O1",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-Wstrict-prototypes",
    ])
    .arg("-I")
    .arg(crate_dir().join("include"))
    .arg(crate_dir().join("tests/c").join(format!("{name}.c")))
    .arg("-o")
    .arg(&exe);
    match link {
        Link::Shared => {
            cmd.arg("-L")
                .arg(&lib)
                .arg("-lgrim_ipasir")
                .arg(format!("-Wl,-rpath,{}", lib.display()));
        }
        Link::Static => {
            // What a Rust staticlib needs from the system (rustc --print native-static-libs).
            cmd.arg(lib.join("libgrim_ipasir.a")).args([
                "-lgcc_s",
                "-lutil",
                "-lrt",
                "-lpthread",
                "-lm",
                "-ldl",
                "-lc",
            ]);
        }
    }
    let out = cmd.output().expect("run the C compiler");
    assert!(
        out.status.success(),
        "compiling {name}.c failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn run(exe: &Path, input: &str) -> String {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the C program");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write the script");
    let out = child.wait_with_output().expect("wait for the C program");
    assert!(
        out.status.success(),
        "{} exited with {:?}:\n{}\n{}",
        exe.display(),
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("ASCII output")
}

// ---------------------------------------------------------------- a seeded generator

/// A random DIMACS literal over `1..=vars`.
fn random_lit(rng: &mut Rng, vars: u64) -> i32 {
    let v = (rng.below(vars) + 1) as i32;
    if rng.coin() { -v } else { v }
}

fn lit(d: i32) -> Lit {
    Lit::from_dimacs(i64::from(d)).expect("a test literal")
}

// ---------------------------------------------------------------- IPASIR

/// One step of a random incremental sequence.
#[derive(Clone, Debug)]
enum Step {
    Add(Vec<i32>),
    Assume(i32),
    Phase(i32),
    Solve,
}

fn random_sequence(rng: &mut Rng, vars: u64) -> Vec<Step> {
    let mut steps = Vec::new();
    for _round in 0..6 {
        for _ in 0..(1 + rng.below(2 * vars / 3)) {
            let len = 2 + rng.below(2) - u64::from(rng.below(12) == 0);
            let clause: Vec<i32> = (0..len).map(|_| random_lit(rng, vars)).collect();
            steps.push(Step::Add(clause));
        }
        if rng.below(3) == 0 {
            steps.push(Step::Phase(random_lit(rng, vars)));
        }
        for _ in 0..rng.below(6) {
            steps.push(Step::Assume(random_lit(rng, vars)));
        }
        steps.push(Step::Solve);
    }
    steps
}

fn script(vars: u64, steps: &[Step]) -> String {
    let mut s = format!("n {vars}\n");
    for step in steps {
        match step {
            Step::Add(c) => {
                s.push('a');
                for l in c {
                    s.push_str(&format!(" {l}"));
                }
                s.push_str(" 0\n");
            }
            Step::Assume(l) => s.push_str(&format!("u {l}\n")),
            Step::Phase(l) => s.push_str(&format!("p {l}\n")),
            Step::Solve => s.push_str("s\n"),
        }
    }
    s
}

/// What a solve must show, with the clauses and assumptions it was asked under.
struct Answer {
    line: String,
    clauses: Vec<Vec<i32>>,
    assumptions: Vec<i32>,
}

/// The same calls on the Rust API, printed as the C driver prints them.
fn replay(vars: u64, steps: &[Step]) -> (String, Vec<Answer>) {
    let mut solver = Solver::new();
    let mut out = String::new();
    let mut clauses = Vec::new();
    let mut assumptions: Vec<i32> = Vec::new();
    let mut answers = Vec::new();
    for step in steps {
        match step {
            Step::Add(c) => {
                solver.add_clause(&c.iter().map(|&l| lit(l)).collect::<Vec<_>>());
                clauses.push(c.clone());
            }
            Step::Assume(l) => assumptions.push(*l),
            Step::Phase(l) => solver.set_phase(lit(*l)),
            Step::Solve => {
                let lits: Vec<Lit> = assumptions.iter().map(|&l| lit(l)).collect();
                let status = solver.solve(&lits, Budget::UNLIMITED);
                let mut text = String::new();
                match status {
                    Status::Sat => {
                        text.push_str("s 10\nv");
                        for v in 1..=vars as i32 {
                            let value = match solver.value(lit(v)) {
                                Some(true) => v,
                                Some(false) => -v,
                                None => 0,
                            };
                            text.push_str(&format!(" {value}"));
                        }
                    }
                    Status::Unsat => {
                        text.push_str("s 20\nf");
                        for &a in &assumptions {
                            text.push_str(&format!(" {}", i32::from(solver.failed(lit(a)))));
                        }
                    }
                    Status::Unknown => text.push_str("s 0"),
                }
                text.push('\n');
                out.push_str(&text);
                answers.push(Answer {
                    line: text,
                    clauses: clauses.clone(),
                    assumptions: std::mem::take(&mut assumptions),
                });
            }
        }
    }
    (out, answers)
}

/// Independent checks of one answer: a model satisfies every clause and assumption (0 only for
/// a variable in no clause); a failed set is a subset of the assumptions that is unsatisfiable
/// with the clauses (re-solved in a fresh engine). Returns whether the core was non-empty.
fn check_answer(answer: &Answer) -> Option<bool> {
    let mut lines = answer.line.lines();
    let status = lines.next().expect("status line");
    let values: Vec<i32> = lines
        .next()
        .map(|l| {
            l[1..]
                .split_whitespace()
                .map(|t| t.parse().expect("int"))
                .collect()
        })
        .unwrap_or_default();
    match status {
        "s 10" => {
            let holds = |l: i32| values.get(l.unsigned_abs() as usize - 1) == Some(&l);
            for c in &answer.clauses {
                assert!(
                    c.iter().any(|&l| holds(l)),
                    "model {values:?} falsifies {c:?}"
                );
            }
            for &a in &answer.assumptions {
                assert!(holds(a), "model {values:?} violates assumption {a}");
            }
            None
        }
        "s 20" => {
            let failed: Vec<i32> = answer
                .assumptions
                .iter()
                .zip(&values)
                .filter(|&(_, &f)| f == 1)
                .map(|(&a, _)| a)
                .collect();
            let mut fresh = Solver::new();
            for c in &answer.clauses {
                fresh.add_clause(&c.iter().map(|&l| lit(l)).collect::<Vec<_>>());
            }
            let core: Vec<Lit> = failed.iter().map(|&l| lit(l)).collect();
            assert_eq!(
                fresh.solve(&core, Budget::UNLIMITED),
                Status::Unsat,
                "the failed set {failed:?} is not a core of {:?}",
                answer.clauses
            );
            Some(!failed.is_empty())
        }
        other => panic!("unexpected answer {other}"),
    }
}

#[test]
fn random_incremental_sequences_through_the_c_abi_answer_as_the_rust_api_does() {
    let cc = compiler_or_return!("random_incremental_sequences");
    let [shared, statik] = [Link::Shared, Link::Static].map(|link| build(&cc, "sat_driver", link));
    let mut rng = Rng::new(17);
    let (mut sat, mut unsat, mut cores) = (0, 0, 0);
    for case in 0..120 {
        let vars = 6 + rng.below(10);
        let steps = random_sequence(&mut rng, vars);
        let input = script(vars, &steps);
        let (expected, answers) = replay(vars, &steps);
        // The driver's first line is the signature; the answers follow.
        let c_out = run(if case % 4 == 0 { &statik } else { &shared }, &input);
        let (signature, c_answers) = c_out.split_once('\n').expect("signature line");
        assert!(signature.starts_with("c grimoire "), "{signature}");
        assert_eq!(
            c_answers, expected,
            "case {case}: the C ABI and the Rust API disagree on\n{input}"
        );
        for answer in &answers {
            match check_answer(answer) {
                None => sat += 1,
                Some(nonempty) => {
                    unsat += 1;
                    cores += usize::from(nonempty);
                }
            }
        }
    }
    // The sequences exercised both answers and real cores.
    eprintln!("{sat} SAT and {unsat} UNSAT answers, {cores} with a non-empty core");
    assert!(
        sat > 300 && unsat > 200 && cores > 150,
        "sat {sat}, unsat {unsat}, cores {cores}"
    );
}

#[test]
fn every_documented_misuse_has_its_documented_outcome() {
    let cc = compiler_or_return!("every_documented_misuse");
    for link in [Link::Shared, Link::Static] {
        let out = run(&build(&cc, "misuse", link), "");
        assert!(out.ends_with("all expectations held\n"), "{out}");
    }
}

#[test]
fn terminate_and_learn_callbacks_stop_the_search_and_export_implied_units() {
    let cc = compiler_or_return!("terminate_and_learn_callbacks");
    let out = run(&build(&cc, "callbacks", Link::Shared), "");
    let value = |key: &str| -> Vec<String> {
        out.lines()
            .filter_map(|l| l.strip_prefix(key).map(|v| v.trim().to_string()))
            .collect()
    };
    // Stopped after 51 polls (one before the search, then one per conflict), then a stop
    // requested before a solve stops that one, and the next solve proves PHP(8,7) UNSAT.
    assert_eq!(value("stopped "), ["0"], "{out}");
    assert_eq!(value("polls "), ["51"], "{out}");
    assert_eq!(value("grim_terminate "), ["0"], "{out}");
    assert_eq!(value("after "), ["20"], "{out}");
    // Units: every one reported is implied by the clauses (re-solved here), each is reported
    // once, the caller's own unit 99 never; the gadgets make the engine learn at least one.
    let units: Vec<i32> = value("learned ")
        .iter()
        .map(|u| u.parse().expect("a literal"))
        .collect();
    assert!(!units.is_empty(), "{out}");
    assert!(!units.contains(&99), "{out}");
    let mut sorted = units.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), units.len(), "a unit reported twice: {out}");
    for &u in &units {
        let mut s = Solver::new();
        for g in 0..10 {
            let (a, b) = (2 * g + 1, 2 * g + 2);
            s.add_clause(&[lit(-a), lit(b)]);
            s.add_clause(&[lit(-a), lit(-b)]);
        }
        s.add_clause(&[lit(99)]);
        assert_eq!(
            s.solve(&[lit(-u)], Budget::UNLIMITED),
            Status::Unsat,
            "{u} is not implied"
        );
    }
    assert_eq!(value("solve "), ["10", "10"], "{out}");
    // Counted after each solve: the second solve may learn more, never report one again.
    let counts = value("units ");
    let first: usize = counts[0]
        .strip_suffix(" bad 0")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("malformed clause passed to the learn callback: {out}"));
    assert!(first >= 1 && first <= units.len(), "{out}");
    assert_eq!(counts[1], units.len().to_string(), "{out}");
    // IPAMIR: stopped at the first poll (0, no solution), then finished (the hard clauses are
    // a pigeonhole formula: 20).
    assert_eq!(value("maxsat stopped "), ["0"], "{out}");
    assert_eq!(value("maxsat after "), ["20"], "{out}");
}

// ---------------------------------------------------------------- IPAMIR

/// A random weighted instance as an IPAMIR script (soft literals over fresh selector
/// variables for non-unit soft clauses, as the track normalises them) and as the WCNF it means.
struct MaxCase {
    script: String,
    wcnf: Wcnf,
    /// How many variables the answers cover.
    vars: usize,
    /// The assumptions of each solve.
    assumptions: Vec<Vec<i32>>,
}

fn random_maxsat(rng: &mut Rng) -> MaxCase {
    let vars = 5 + rng.below(5);
    let mut script = String::new();
    let mut hard: Vec<Vec<i32>> = Vec::new();
    for _ in 0..(3 + rng.below(8)) {
        let c: Vec<i32> = (0..(1 + rng.below(3)))
            .map(|_| random_lit(rng, vars))
            .collect();
        hard.push(c);
    }
    let mut next = vars as i32;
    let mut soft: Vec<(i32, u64)> = Vec::new();
    for _ in 0..(3 + rng.below(10)) {
        let weight = 1 + rng.below(9);
        let c: Vec<i32> = (0..(1 + rng.below(3)))
            .map(|_| random_lit(rng, vars))
            .collect();
        if let [l] = c[..] {
            soft.push((-l, weight)); // soft unit clause (l) = soft literal -l
        } else {
            next += 1;
            let mut with_selector = c.clone();
            with_selector.push(next);
            hard.push(with_selector);
            soft.push((next, weight));
        }
    }
    let total_vars = next as usize;
    script.push_str(&format!("n {total_vars}\n"));
    for c in &hard {
        script.push('h');
        for l in c {
            script.push_str(&format!(" {l}"));
        }
        script.push_str(" 0\n");
    }
    for &(l, w) in &soft {
        script.push_str(&format!("w {l} {w}\n"));
    }
    let mut assumptions = Vec::new();
    for _ in 0..3 {
        let a: Vec<i32> = (0..rng.below(3)).map(|_| random_lit(rng, vars)).collect();
        for l in &a {
            script.push_str(&format!("u {l}\n"));
        }
        script.push_str("s\n");
        assumptions.push(a);
    }
    let mut wcnf = Wcnf::new(total_vars);
    for c in &hard {
        wcnf.hard.push(c.iter().map(|&l| lit(l)).collect());
    }
    // Repeated declarations of one literal: the last weight counts (as the library does).
    let mut last: Vec<(i32, u64)> = Vec::new();
    for &(l, w) in &soft {
        match last.iter_mut().find(|(x, _)| *x == l) {
            Some(entry) => entry.1 = w,
            None => last.push((l, w)),
        }
    }
    for (l, w) in last {
        wcnf.soft.push((w, vec![lit(-l)]));
    }
    MaxCase {
        script,
        wcnf,
        vars: total_vars,
        assumptions,
    }
}

#[test]
fn ipamir_optima_match_oll_and_brute_force_and_every_model_costs_what_is_claimed() {
    let cc = compiler_or_return!("ipamir_optima");
    let [shared, statik] =
        [Link::Shared, Link::Static].map(|link| build(&cc, "maxsat_driver", link));
    let mut rng = Rng::new(2022);
    let (mut optimal, mut unsat, mut positive) = (0, 0, 0);
    for case in 0..60 {
        let mc = random_maxsat(&mut rng);
        let out = run(if case % 3 == 0 { &statik } else { &shared }, &mc.script);
        let mut lines = out.lines().skip(1);
        for assumed in &mc.assumptions {
            let mut instance = mc.wcnf.clone();
            for &a in assumed {
                instance.hard.push(vec![lit(a)]);
            }
            let mut oll = Oll::new(&instance, OllOptions::default()).expect("Oll takes it");
            let status = oll.solve(Budget::UNLIMITED, &mut |_| {});
            let expected = maxsat_optimum(&Wcnf {
                num_vars: mc.vars,
                ..instance.clone()
            });
            let line = lines.next().expect("an answer");
            match status {
                MaxSatStatus::Optimum => {
                    assert_eq!(line, "s 30", "case {case}:\n{}", mc.script);
                    let cost: u64 = lines
                        .next()
                        .and_then(|l| l.strip_prefix("o "))
                        .and_then(|c| c.parse().ok())
                        .expect("an o line");
                    assert_eq!(Some(cost), oll.best_cost(), "case {case}: against Oll");
                    assert_eq!(Some(cost), expected, "case {case}: against brute force");
                    let model: Vec<bool> = lines
                        .next()
                        .and_then(|l| l.strip_prefix('v'))
                        .expect("a v line")
                        .split_whitespace()
                        .map(|t| t.parse::<i32>().expect("int") > 0)
                        .collect();
                    assert_eq!(instance.cost(&model), Some(cost), "case {case}: the model");
                    optimal += 1;
                    positive += usize::from(cost > 0);
                }
                MaxSatStatus::Unsatisfiable => {
                    assert_eq!(line, "s 20", "case {case}:\n{}", mc.script);
                    assert_eq!(expected, None, "case {case}: brute force finds a solution");
                    unsat += 1;
                }
                other => panic!("Oll answered {other:?} without a budget"),
            }
        }
    }
    let summary = format!("{optimal} optima ({positive} of positive cost), {unsat} UNSAT");
    eprintln!("{summary}");
    assert!(optimal > 100 && unsat > 30 && positive > 60, "{summary}");
}

#[test]
fn the_headers_declare_exactly_the_functions_the_library_exports() {
    let _cc = compiler_or_return!("the_headers_declare");
    let mut declared: Vec<String> = Vec::new();
    for header in ["ipasir.h", "ipamir.h", "grim_ipasir.h"] {
        let text = std::fs::read_to_string(crate_dir().join("include").join(header))
            .expect("read a header");
        for line in text.lines() {
            if line.starts_with(' ') || line.starts_with('/') || line.starts_with('#') {
                continue;
            }
            if let Some(open) = line.find(" (") {
                let name = line[..open].rsplit([' ', '*']).next().unwrap_or_default();
                if !name.is_empty() {
                    declared.push(name.to_string());
                }
            }
        }
    }
    declared.sort();
    let nm = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(library_dir().join("libgrim_ipasir.so"))
        .output();
    let Ok(nm) = nm else {
        eprintln!("the_headers_declare: skipped: nm (binutils) not installed");
        return;
    };
    let mut exported: Vec<String> = String::from_utf8_lossy(&nm.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
        .filter(|n| n.starts_with("ipasir_") || n.starts_with("ipamir_") || n.starts_with("grim_"))
        .collect();
    exported.sort();
    assert_eq!(declared, exported);
    assert_eq!(declared.len(), 10 + 10 + 9, "{declared:?}");
}

#[test]
fn the_readme_python_ctypes_example_runs() {
    let python = Command::new("python3").arg("--version").output();
    if python.is_err() {
        eprintln!("the_readme_python_ctypes_example_runs: skipped: python3 not installed");
        return;
    }
    let out = Command::new("python3")
        .arg(crate_dir().join("examples/ctypes_example.py"))
        .arg(library_dir().join("libgrim_ipasir.so"))
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("SAT: x1 = False, x2 = True"), "{stdout}");
    assert!(stdout.contains("UNSAT, core: [-2]"), "{stdout}");
    assert!(stdout.contains("optimum 3"), "{stdout}");
    // The README shows this same program.
    let readme = std::fs::read_to_string(crate_dir().join("../README.md")).expect("README");
    let example = std::fs::read_to_string(crate_dir().join("examples/ctypes_example.py"))
        .expect("the example");
    let body: String = example
        .lines()
        .skip_while(|l| l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        readme.contains(body.trim()),
        "README.md does not show examples/ctypes_example.py as it is"
    );
}

// ---------------------------------------------------------------- the Rust side of the ABI

#[test]
fn a_null_handle_is_accepted_everywhere_from_rust_too() {
    use grim_ipasir::sat::*;
    let null = std::ptr::null_mut();
    // SAFETY: null is allowed everywhere (the documented contract).
    unsafe {
        ipasir_add(null, 1);
        assert_eq!(ipasir_solve(null), 0);
        assert_eq!(ipasir_val(null, 1), 0);
        ipasir_release(null);
        assert!(grim_ipasir::grim_last_error(null).is_null());
    }
    let _ = Var::new(0);
}

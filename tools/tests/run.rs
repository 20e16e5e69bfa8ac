//! The two runs of `grim-sat` called as library functions (`grim_tools::run`), with the output
//! captured in memory: answers, exit codes, models checked here against the clauses, optima
//! against brute force, limits, warnings, and the errors that are not answers.

use std::cell::{Cell, RefCell};
use std::io::Cursor;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use grim_maxsat::OllOptions;
use grim_solver::{Lit, Options, Terminator};
use grim_testkit::generate::{dimacs_text as dimacs, pigeonhole, random_ksat, random_wcnf};
use grim_testkit::{SplitMix64, clauses_of, maxsat_optimum, satisfies};
use grim_tools::cli::sat_exit;
use grim_tools::formats::Input;
use grim_tools::formats::detect::{Detected, Format, detect};
use grim_tools::formats::wcnf::{Dialect, write_wcnf};
use grim_tools::run::{Internal, Run, RunConfig, RunError, run_cnf, run_wcnf};

/// What one run gave: the exit code (or the error), the output, the warnings, and how many
/// times the terminate flag was handed out.
struct Ran {
    result: Result<u8, RunError>,
    out: String,
    warnings: Vec<String>,
    armed: usize,
}

fn detected(text: &[u8], name: &str, forced: Option<Format>) -> Detected {
    let input = Input::sniff(Cursor::new(text.to_vec())).expect("in memory");
    detect(input, Path::new(name), forced).expect("detectable")
}

fn run_with(config: &RunConfig, text: &[u8], name: &str, options: OllOptions) -> Ran {
    let warnings = RefCell::new(Vec::new());
    let armed = Cell::new(0);
    let arm = |_: &Terminator| armed.set(armed.get() + 1);
    let warn = |w: &str| warnings.borrow_mut().push(w.to_string());
    let ctx = Run {
        config,
        start: Instant::now(),
        path: name.to_string(),
        signalled: Arc::new(AtomicBool::new(false)),
        timed_out: Arc::new(AtomicBool::new(false)),
        arm: &arm,
        warn: &warn,
    };
    let input = detected(text, name, None);
    let mut out = Vec::new();
    let engine = Options {
        check_model: true,
        ..options.solver.clone()
    };
    let result = match input.format {
        Format::Cnf => run_cnf(&ctx, input, engine, &mut out),
        Format::Wcnf => run_wcnf(
            &ctx,
            input,
            OllOptions {
                solver: engine,
                ..options
            },
            &mut out,
        ),
    };
    Ran {
        result,
        out: String::from_utf8(out).expect("ASCII output"),
        warnings: warnings.into_inner(),
        armed: armed.get(),
    }
}

fn run(text: &str, name: &str) -> Ran {
    run_with(
        &RunConfig::default(),
        text.as_bytes(),
        name,
        OllOptions::default(),
    )
}

/// The `v` lines as a model (variable `i` at index `i - 1`).
fn model(out: &str, vars: usize) -> Vec<bool> {
    let mut m = vec![false; vars];
    for l in out
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .flat_map(str::split_whitespace)
    {
        let d: i64 = l.parse().expect("v lines hold integers");
        if d > 0 {
            m[d as usize - 1] = true;
        }
    }
    m
}

fn status(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("s ")).collect()
}

#[test]
fn cnf_runs_answer_with_the_competition_lines_and_every_model_satisfies_its_clauses() {
    let mut rng = SplitMix64::new(18);
    let (mut sat, mut unsat) = (0, 0);
    for round in 0..40 {
        let clauses = random_ksat(&mut rng, 20, 60 + round * 2, 3);
        let ran = run(&dimacs(20, &clauses), "r.cnf");
        assert_eq!(ran.armed, 1, "the terminate flag is handed out once");
        match ran.result {
            Ok(sat_exit::SATISFIABLE) => {
                assert_eq!(status(&ran.out), ["s SATISFIABLE"]);
                let m = model(&ran.out, 20);
                assert!(satisfies(&m, &clauses_of(&clauses)), "{}", ran.out);
                sat += 1;
            }
            Ok(sat_exit::UNSATISFIABLE) => {
                assert_eq!(status(&ran.out), ["s UNSATISFIABLE"]);
                assert!(!ran.out.contains("\nv "), "no model after UNSAT");
                unsat += 1;
            }
            other => panic!("round {round}: {other:?}\n{}", ran.out),
        }
    }
    assert!(
        sat > 5 && unsat > 5,
        "{sat} SAT and {unsat} UNSAT: both answers exercised"
    );
}

#[test]
fn a_conflict_limit_answers_unknown_and_says_which_limit_stopped_it() {
    let config = RunConfig {
        conflicts: Some(10),
        ..RunConfig::default()
    };
    let text = dimacs(72, &pigeonhole(9, 8));
    let ran = run_with(&config, text.as_bytes(), "php.cnf", OllOptions::default());
    assert_eq!(ran.result.ok(), Some(sat_exit::UNKNOWN), "{}", ran.out);
    assert_eq!(status(&ran.out), ["s UNKNOWN"]);
    assert!(ran.out.contains("c limits: 10 conflicts"), "{}", ran.out);
    assert!(
        ran.out.contains("c stopped by the conflict limit (10)"),
        "{}",
        ran.out
    );
}

#[test]
fn quiet_runs_print_only_answer_lines() {
    let config = RunConfig {
        quiet: true,
        ..RunConfig::default()
    };
    let text = "p cnf 2 2\n1 2 0\n-1 0\n";
    let ran = run_with(&config, text.as_bytes(), "q.cnf", OllOptions::default());
    assert_eq!(ran.result.ok(), Some(sat_exit::SATISFIABLE));
    assert_eq!(ran.out, "s SATISFIABLE\nv -1 2 0\n");
}

#[test]
fn reader_warnings_reach_the_callback_with_the_input_name() {
    let ran = run("p cnf 2 1\n1 3 0\n", "w.cnf");
    assert_eq!(ran.result.ok(), Some(sat_exit::SATISFIABLE), "{}", ran.out);
    assert_eq!(ran.warnings.len(), 1, "{:?}", ran.warnings);
    assert!(
        ran.warnings[0].starts_with("w.cnf:2:"),
        "{:?}",
        ran.warnings
    );
}

#[test]
fn a_malformed_input_is_an_input_error_with_its_position_and_exit_3_and_no_answer() {
    let ran = run("p cnf 2 1\n1 x 0\n", "bad.cnf");
    let Err(e) = ran.result else {
        panic!("accepted: {}", ran.out)
    };
    assert!(matches!(e, RunError::Input { .. }), "{e:?}");
    assert_eq!(e.exit_code(), sat_exit::PARSE);
    assert!(e.to_string().starts_with("bad.cnf:2:3:"), "{e}");
    assert!(status(&ran.out).is_empty(), "{}", ran.out);
}

#[test]
fn wcnf_runs_prove_the_brute_force_optimum_and_print_a_model_of_that_cost() {
    let mut rng = SplitMix64::new(0x57);
    let (mut optimum, mut unsat) = (0, 0);
    for round in 0..30 {
        let w = random_wcnf(&mut rng, 10, 4 + round % 12, 12, 9);
        let mut text = Vec::new();
        write_wcnf(&w, Dialect::New, &mut text).expect("in memory");
        let ran = run_with(
            &RunConfig::default(),
            &text,
            "r.wcnf",
            OllOptions::default(),
        );
        match (ran.result, maxsat_optimum(&w)) {
            (Ok(sat_exit::OPTIMUM_FOUND), Some(best)) => {
                let last_o = ran.out.lines().rfind(|l| l.starts_with("o "));
                assert_eq!(last_o, Some(format!("o {best}").as_str()), "{}", ran.out);
                let v = ran
                    .out
                    .lines()
                    .find_map(|l| l.strip_prefix("v "))
                    .expect("a v line");
                let m: Vec<bool> = v.bytes().map(|b| b == b'1').collect();
                assert_eq!(
                    w.cost(&m),
                    Some(best),
                    "the printed model costs the optimum"
                );
                optimum += 1;
            }
            (Ok(sat_exit::UNSATISFIABLE), None) => {
                assert_eq!(status(&ran.out), ["s UNSATISFIABLE"]);
                unsat += 1;
            }
            (got, want) => panic!("round {round}: {got:?}, brute force {want:?}\n{}", ran.out),
        }
    }
    assert!(optimum > 10, "only {optimum} optima ({unsat} UNSAT)");
}

#[test]
fn an_lrat_proof_for_a_wcnf_is_a_usage_error_before_anything_is_printed() {
    let config = RunConfig {
        proof: Some("/nonexistent/p.lrat".into()),
        lrat: true,
        ..RunConfig::default()
    };
    let ran = run_with(&config, b"h 1 0\n1 -1 0\n", "x.wcnf", OllOptions::default());
    let Err(e) = ran.result else {
        panic!("accepted: {}", ran.out)
    };
    assert!(matches!(e, RunError::ProofForWcnf { .. }), "{e:?}");
    assert_eq!(e.exit_code(), sat_exit::USAGE);
    assert!(e.to_string().contains("VeriPB"), "{e}");
    assert!(ran.out.is_empty(), "{}", ran.out);
}

#[test]
fn a_veripb_proof_file_that_cannot_be_created_is_a_usage_error_before_anything_is_printed() {
    let config = RunConfig {
        proof: Some("/nonexistent/p.pbp".into()),
        ..RunConfig::default()
    };
    let ran = run_with(&config, b"h 1 0\n1 -1 0\n", "x.wcnf", OllOptions::default());
    let Err(e) = ran.result else {
        panic!("accepted: {}", ran.out)
    };
    assert!(matches!(e, RunError::ProofFile { .. }), "{e:?}");
    assert_eq!(e.exit_code(), sat_exit::USAGE);
    assert!(ran.out.is_empty(), "{}", ran.out);
}

#[test]
fn internal_errors_name_the_clause_a_model_falsifies() {
    let e = RunError::Internal(Internal::FalsifiedClause {
        path: "f.cnf".to_string(),
        index: 2,
        clause: vec![Lit::from_dimacs(1).unwrap(), Lit::from_dimacs(-3).unwrap()],
    });
    assert_eq!(e.exit_code(), sat_exit::INTERNAL);
    assert!(
        e.to_string()
            .starts_with("the engine's model falsifies clause 3 of f.cnf (1 -3 0)"),
        "{e}"
    );
}

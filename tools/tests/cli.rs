//! `grim-sat` and `grim-check` as a user runs them: exit codes, output lines, options, limits,
//! signals, and errors with positions. Each test writes its inputs into its own directory
//! under the system temp dir.

mod common;

use common::{CHECK, Dir, GEN, SAT, code, p, run, sat, stderr, stdout};
use grim_testkit::SplitMix64;
use grim_testkit::generate::random_ksat;
use grim_testkit::{assert_contains, assert_starts_with};

use std::process::{Command, Output};

use grim_maxsat::OllOptions;
use grim_solver::Options;
use grim_testkit::compress::{self, DEFAULT};

impl Dir {
    fn new_cli(test: &str) -> Dir {
        Dir::new("grim-tools-cli", test)
    }
}

/// `s` and `v` lines only.
fn answer_lines(o: &Output) -> Vec<String> {
    stdout(o)
        .lines()
        .filter(|l| !l.starts_with("c "))
        .map(str::to_string)
        .collect()
}

fn status_line(o: &Output) -> Option<String> {
    stdout(o)
        .lines()
        .find(|l| l.starts_with("s "))
        .map(str::to_string)
}

/// The model printed in `v` lines, as DIMACS literals.
fn model(o: &Output) -> Vec<i64> {
    stdout(o)
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .flat_map(str::split_whitespace)
        .map(|t| t.parse::<i64>().expect("v lines hold integers"))
        .filter(|&v| v != 0)
        .collect()
}

fn satisfies(model: &[i64], clauses: &[Vec<i64>]) -> bool {
    clauses.iter().all(|c| c.iter().any(|l| model.contains(l)))
}

fn dimacs(num_vars: usize, clauses: &[Vec<i64>]) -> String {
    grim_testkit::generate::dimacs_text(num_vars, clauses)
}

/// `text` gzipped at the default level.
fn gzipped(text: &str) -> Vec<u8> {
    compress::gzip(text.as_bytes(), DEFAULT)
}

/// Pigeonhole: `holes + 1` pigeons into `holes` holes (UNSAT, hard for resolution).
fn pigeonhole(holes: u32) -> String {
    dimacs(
        ((holes + 1) * holes) as usize,
        &grim_testkit::generate::pigeonhole(holes + 1, holes),
    )
}

fn small_sat() -> Vec<Vec<i64>> {
    vec![vec![1, -2], vec![2, 3], vec![-1, -3], vec![-3, 4]]
}

fn small_unsat() -> Vec<Vec<i64>> {
    vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]]
}

/// Seeded random 3-SAT (a 64-bit LCG; no dependency needed).
fn random_3sat(vars: i64, clauses: usize, seed: u64) -> Vec<Vec<i64>> {
    random_ksat(&mut SplitMix64::new(seed), vars as u64, clauses, 3)
}

// ---------------------------------------------------------------- answers and exit codes

#[test]
fn a_satisfiable_instance_prints_s_satisfiable_and_a_model_that_satisfies_it_and_exits_10() {
    let (_dir, f) = Dir::new_cli("sat").with_file("a.cnf", dimacs(4, &small_sat()));
    let o = sat(&[p(&f)]);
    assert_eq!(code(&o), Some(10), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(status_line(&o).as_deref(), Some("s SATISFIABLE"));
    let m = model(&o);
    assert_eq!(m.len(), 4, "one literal per variable: {m:?}");
    assert!(satisfies(&m, &small_sat()), "{m:?}");
    assert!(stdout(&o).trim_end().ends_with(" 0"), "{}", stdout(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn an_unsatisfiable_instance_prints_s_unsatisfiable_without_v_lines_and_exits_20() {
    let (_dir, f) = Dir::new_cli("unsat").with_file("u.cnf", dimacs(2, &small_unsat()));
    let o = sat(&[p(&f)]);
    assert_eq!(code(&o), Some(20), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(answer_lines(&o), vec!["s UNSATISFIABLE"]);
}

#[test]
fn a_dash_reads_the_instance_from_standard_input_plain_or_gzip() {
    let text = dimacs(4, &small_sat());
    let o = run(SAT, &["-q", "-"], Some(text.as_bytes()));
    assert_eq!(code(&o), Some(10), "{}", stderr(&o));
    assert!(satisfies(&model(&o), &small_sat()));
    let o = run(
        SAT,
        &["-q", "-"],
        Some(&gzipped(&dimacs(2, &small_unsat()))),
    );
    assert_eq!(code(&o), Some(20), "{}", stderr(&o));
}

#[test]
fn a_gzip_file_is_solved_whatever_its_name() {
    let (_dir, f) =
        Dir::new_cli("gzip").with_file("plain-name.cnf", gzipped(&dimacs(4, &small_sat())));
    let o = sat(&[p(&f)]);
    assert_eq!(code(&o), Some(10), "{}", stderr(&o));
    assert!(stdout(&o).contains("(gzip)"), "{}", stdout(&o));
}

#[test]
fn the_empty_formula_is_satisfiable_and_the_empty_clause_is_not() {
    let dir = Dir::new_cli("degenerate");
    let o = sat(&["-q", p(&dir.file("e.cnf", "p cnf 0 0\n"))]);
    assert_eq!(code(&o), Some(10));
    assert_eq!(answer_lines(&o), vec!["s SATISFIABLE", "v 0"]);
    let o = sat(&["-q", p(&dir.file("f.cnf", "p cnf 2 2\n1 2 0\n0\n"))]);
    assert_eq!(code(&o), Some(20));
}

#[test]
fn declared_variables_that_occur_in_no_clause_still_get_a_value() {
    let dir = Dir::new_cli("unused");
    let o = sat(&["-q", p(&dir.file("a.cnf", "p cnf 5 1\n-2 0\n"))]);
    assert_eq!(code(&o), Some(10));
    let mut vars: Vec<i64> = model(&o).iter().map(|l| l.abs()).collect();
    vars.sort();
    assert_eq!(vars, vec![1, 2, 3, 4, 5]);
    assert!(model(&o).contains(&-2));
}

#[test]
fn the_same_input_gives_the_same_output_every_run() {
    let (_dir, f) =
        Dir::new_cli("determinism").with_file("r.cnf", dimacs(60, &random_3sat(60, 230, 7)));
    let first = sat(&["-q", p(&f)]);
    for _ in 0..2 {
        let again = sat(&["-q", p(&f)]);
        assert_eq!(stdout(&first), stdout(&again));
    }
}

#[test]
fn every_model_on_random_instances_passes_grim_check_and_both_answers_occur() {
    let dir = Dir::new_cli("random");
    let (mut sats, mut unsats) = (0, 0);
    for seed in 0..12 {
        let f = dir.file(
            &format!("r{seed}.cnf"),
            dimacs(40, &random_3sat(40, 172, seed)),
        );
        let o = sat(&["-q", p(&f)]);
        let out = dir.file(&format!("r{seed}.out"), &o.stdout);
        match code(&o) {
            Some(10) => {
                sats += 1;
                let c = run(CHECK, &[p(&f), p(&out)], None);
                assert_eq!(
                    code(&c),
                    Some(0),
                    "seed {seed}: {}{}",
                    stdout(&c),
                    stderr(&c)
                );
            }
            Some(20) => unsats += 1,
            other => panic!("seed {seed}: exit {other:?}\n{}", stderr(&o)),
        }
    }
    assert!(
        sats > 0 && unsats > 0,
        "want both answers: {sats} SAT, {unsats} UNSAT"
    );
}

// ---------------------------------------------------------------- output format and options

#[test]
fn comment_lines_carry_the_banner_the_parse_summary_and_the_statistics() {
    let (_dir, f) = Dir::new_cli("comments").with_file("a.cnf", dimacs(4, &small_sat()));
    let out = stdout(&sat(&[p(&f)]));
    assert_contains(
        &out,
        &[
            "c grim-sat",
            "c header: p cnf 4 4",
            "c parsed: 4 variables, 4 clauses, 8 literals",
            "c solving",
            "c ---- statistics (--stats for every counter) ----",
            ", conflicts ",
            "models checked 1",
        ],
    );
    // Short by default (a newcomer's complaint: ~30 `c` lines); every counter with --stats.
    let comments = out.lines().filter(|l| l.starts_with("c ")).count();
    assert!(comments <= 10, "{comments} comment lines:\n{out}");
    let full = stdout(&sat(&["--stats", p(&f)]));
    assert_contains(
        &full,
        &[
            "c ---- statistics ----",
            "c conflicts",
            "c models checked",
            "c vivified clauses",
        ],
    );
    let s = out.find("\ns SATISFIABLE").expect("s line");
    assert!(
        out[..s].contains("statistics"),
        "statistics come before the answer"
    );
    assert!(out[s + 1..].lines().all(|l| !l.starts_with("c ")), "{out}");
}

#[test]
fn quiet_prints_only_the_s_and_v_lines() {
    let (_dir, f) = Dir::new_cli("quiet").with_file("a.cnf", dimacs(4, &small_sat()));
    for flag in ["-q", "--quiet"] {
        let o = sat(&[flag, p(&f)]);
        assert_eq!(code(&o), Some(10));
        let lines: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines[0], "s SATISFIABLE");
        assert!(lines[1].starts_with("v ") && lines[1].ends_with(" 0"));
    }
}

#[test]
fn no_model_prints_the_answer_without_v_lines() {
    let (_dir, f) = Dir::new_cli("nomodel").with_file("a.cnf", dimacs(4, &small_sat()));
    for flag in ["-n", "--no-model"] {
        let o = sat(&["-q", flag, p(&f)]);
        assert_eq!(code(&o), Some(10));
        assert_eq!(answer_lines(&o), vec!["s SATISFIABLE"]);
    }
}

#[test]
fn v_lines_of_a_large_model_stay_within_4096_characters_and_the_last_ends_in_zero() {
    let dir = Dir::new_cli("vlines");
    let n = 30_000;
    let clauses: Vec<Vec<i64>> = (1..=n).step_by(3).map(|v| vec![-v]).collect();
    let f = dir.file("big.cnf", dimacs(n as usize, &clauses));
    let o = sat(&["-q", p(&f)]);
    assert_eq!(code(&o), Some(10));
    let out = stdout(&o);
    let v_lines: Vec<&str> = out.lines().filter(|l| l.starts_with('v')).collect();
    assert!(v_lines.len() > 10, "{} v lines", v_lines.len());
    for line in &v_lines {
        assert!(line.starts_with("v "), "{line:?}");
        assert!(line.len() <= 4096, "a v line of {} characters", line.len());
    }
    assert!(v_lines.last().is_some_and(|l| l.ends_with(" 0")));
    assert_eq!(out.matches(" 0").count() - out.matches(" 0 ").count(), 1);
    let m = model(&o);
    assert_eq!(m.len(), n as usize);
    assert!(satisfies(&m, &clauses));
}

#[test]
fn opt_sets_engine_options_and_the_banner_lists_the_changed_ones() {
    let (_dir, f) = Dir::new_cli("opt").with_file("r.cnf", dimacs(50, &random_3sat(50, 200, 3)));
    let o = sat(&["--opt", "seed=42", "--opt", "minimize=false", p(&f)]);
    assert!(matches!(code(&o), Some(10 | 20)), "{}", stderr(&o));
    assert_contains(&stdout(&o), &["c options: minimize=false seed=42"]);
    let plain = sat(&["-q", p(&f)]);
    assert_eq!(code(&o), code(&plain), "options must not change the answer");
}

#[test]
fn opt_sets_maxsat_options_too_and_they_keep_the_optimum() {
    let dir = Dir::new_cli("ollopt");
    let soft: Vec<String> = random_3sat(12, 60, 5)
        .iter()
        .map(|c| {
            format!(
                "1 {} 0",
                c.iter()
                    .map(|l| l.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        })
        .collect();
    let f = dir.file("r.wcnf", format!("{}\n", soft.join("\n")));
    let plain = sat(&["-q", p(&f)]);
    assert_eq!(code(&plain), Some(30), "{}", stderr(&plain));
    let o = sat(&[
        "--opt",
        "stratify=false",
        "--opt",
        "anytime_flips=0",
        "--opt",
        "minimize_conflicts=3",
        p(&f),
    ]);
    assert_eq!(code(&o), Some(30), "{}", stderr(&o));
    assert_contains(
        &stdout(&o),
        &["c options: stratify=false minimize_conflicts=3 anytime_flips=0"],
    );
    let last_o = |text: &str| {
        text.lines()
            .rev()
            .find(|l| l.starts_with("o "))
            .map(str::to_string)
    };
    assert_eq!(
        last_o(&stdout(&o)),
        last_o(&stdout(&plain)),
        "options must not change the optimum"
    );
    let bad = sat(&["--opt", "trim=1001", p(&f)]);
    assert_eq!(code(&bad), Some(2));
    assert!(stderr(&bad).contains("option `trim`"), "{}", stderr(&bad));
}

#[test]
fn a_bad_opt_is_a_usage_error_with_exit_2_naming_the_problem() {
    let (_dir, f) = Dir::new_cli("badopt").with_file("a.cnf", dimacs(4, &small_sat()));
    for (opt, needle) in [
        ("no_such=1", "unknown option `no_such`"),
        ("vsids_decay=2", "outside"),
        ("minimize=maybe", "not a valid"),
        ("seed", "NAME=VALUE"),
    ] {
        let o = sat(&["--opt", opt, p(&f)]);
        assert_eq!(code(&o), Some(2), "--opt {opt}");
        assert!(o.stdout.is_empty(), "--opt {opt}: {}", stdout(&o));
        assert!(
            stderr(&o).starts_with("grim-sat: error: ") && stderr(&o).contains(needle),
            "--opt {opt}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn grim_gen_ksat_takes_clauses_or_ratio_and_says_so_when_neither_is_given() {
    let by_ratio = run(
        GEN,
        &["ksat", "--vars", "20", "--ratio", "4.2", "--seed", "1"],
        None,
    );
    assert_eq!(code(&by_ratio), Some(0), "{}", stderr(&by_ratio));
    assert_contains(&stdout(&by_ratio), &["p cnf 20 84"]);
    let by_count = run(
        GEN,
        &["ksat", "--vars", "20", "--clauses", "84", "--seed", "1"],
        None,
    );
    assert_eq!(code(&by_count), Some(0));
    let neither = run(GEN, &["ksat", "--vars", "20"], None);
    assert_eq!(code(&neither), Some(2));
    assert_contains(
        &stderr(&neither),
        &["<--clauses <CLAUSES>|--ratio <RATIO>>"],
    );
    let both = run(
        GEN,
        &["ksat", "--vars", "20", "--clauses", "8", "--ratio", "2"],
        None,
    );
    assert_eq!(code(&both), Some(2));
}

#[test]
fn the_usage_line_shows_the_instance_as_required() {
    let o = sat(&["--help"]);
    assert_contains(&stdout(&o), &["Usage: grim-sat [OPTIONS] <FILE>"]);
    let o = sat(&[]);
    assert_eq!(code(&o), Some(2));
    assert!(stderr(&o).contains("<FILE>"), "{}", stderr(&o));
}

#[test]
fn help_options_prints_every_row_of_the_engine_and_oll_options_tables() {
    let o = sat(&["--help-options"]);
    assert_eq!(code(&o), Some(0));
    let out = stdout(&o);
    for spec in Options::TABLE.iter().chain(OllOptions::TABLE) {
        assert!(out.contains(spec.name), "{} missing:\n{out}", spec.name);
        assert!(
            out.contains(spec.summary()),
            "the summary of {} is missing",
            spec.name
        );
    }
}

#[test]
fn command_line_mistakes_exit_2_without_an_answer() {
    let (_dir, f) = Dir::new_cli("usage").with_file("a.cnf", dimacs(4, &small_sat()));
    for args in [
        vec![],
        vec!["-q", "-v", p(&f)],
        vec!["--time", "-1", p(&f)],
        vec!["--time", "soon", p(&f)],
        vec!["--conflicts", "many", p(&f)],
        vec!["--no-such-flag", p(&f)],
    ] {
        let o = sat(&args);
        assert_eq!(code(&o), Some(2), "{args:?}: {}", stderr(&o));
        assert!(status_line(&o).is_none(), "{args:?}");
    }
}

// ---------------------------------------------------------------- limits, progress, signals

/// Runs grim-sat with the limit `args` on pigeonhole `holes + 1` into `holes` and asserts exit
/// 0, `s UNKNOWN` and that the comments give `reason`. Returns the output.
fn stopped_by(test: &str, holes: u32, args: &[&str], reason: &str) -> Output {
    let dir = Dir::new_cli(test);
    let f = dir.file("php.cnf", pigeonhole(holes));
    let o = sat(&[args, &[p(&f)]].concat());
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert_eq!(status_line(&o).as_deref(), Some("s UNKNOWN"));
    assert_contains(&stdout(&o), &[reason]);
    o
}

#[test]
fn one_conflict_on_pigeonhole_9_into_8_gives_unknown_and_exit_0() {
    let reason = "c stopped by the conflict limit (1)";
    let o = stopped_by("conflicts", 8, &["--conflicts", "1"], reason);
    assert_eq!(answer_lines(&o), vec!["s UNKNOWN"]);
}

#[test]
fn a_propagation_limit_gives_unknown_and_exit_0() {
    stopped_by("props", 8, &["--propagations", "100"], "propagation limit");
}

#[test]
fn verbose_prints_progress_lines_between_slices_and_the_overall_limit_still_holds() {
    let (_dir, f) = Dir::new_cli("verbose").with_file("php.cnf", pigeonhole(8));
    for flag in ["-v", "--verbose"] {
        let o = sat(&[
            flag,
            "--progress-interval",
            "100",
            "--conflicts",
            "450",
            p(&f),
        ]);
        assert_eq!(code(&o), Some(0), "{}", stderr(&o));
        let out = stdout(&o);
        let progress = out.lines().filter(|l| l.starts_with("c progress")).count();
        assert_eq!(progress, 4, "slices of 100 up to 450 conflicts:\n{out}");
        assert_contains(&out, &["conflicts 100 ", "propagations/s"]);
        assert!(out.contains("stopped by the conflict limit (450)"), "{out}");
        assert_eq!(status_line(&o).as_deref(), Some("s UNKNOWN"));
    }
}

#[test]
fn verbose_slicing_still_reaches_the_answer() {
    let (dir, f) = Dir::new_cli("slices").with_file("php.cnf", pigeonhole(5));
    let o = sat(&["-v", "--progress-interval", "5", p(&f)]);
    assert_eq!(code(&o), Some(20), "{}", stdout(&o));
    assert!(stdout(&o).contains("c progress"), "{}", stdout(&o));
    let f = dir.file("r.cnf", dimacs(60, &random_3sat(60, 240, 11)));
    let sliced = sat(&["-v", "--progress-interval", "3", p(&f)]);
    let whole = sat(&["-q", p(&f)]);
    assert_eq!(code(&sliced), code(&whole));
}

#[test]
fn a_time_limit_stops_a_hard_instance_with_unknown_and_exit_0() {
    // Factoring off: with it, pigeonhole 12 → 11 is refuted in about 0.3 s, the limit itself.
    stopped_by(
        "time",
        11,
        &["--time", "0.3", "--opt", "factor=false"],
        "stopped by the time limit",
    );
}

#[test]
fn a_time_limit_does_not_hold_back_a_quick_answer() {
    // If the timer thread kept the process alive this would take the full 600 s.
    let (_dir, f) = Dir::new_cli("quick").with_file("a.cnf", dimacs(4, &small_sat()));
    let o = sat(&["-q", "--time", "600", p(&f)]);
    assert_eq!(code(&o), Some(10));
}

/// Starts grim-sat on a hard instance, waits for `c solving`, sends `signal` with kill(1),
/// and returns the output.
fn interrupt(test: &str, signal: &str) -> (Option<i32>, String) {
    let dir = Dir::new_cli(test);
    let f = dir.file("php.cnf", pigeonhole(11));
    common::signal_when(SAT, &f, signal, |line| line.starts_with("c solving"))
}

#[test]
fn sigterm_during_a_long_run_prints_s_unknown_and_exits_0() {
    let (code, out) = interrupt("sigterm", "-TERM");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("c stopped by a signal"), "{out}");
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with("s "))
            .collect::<Vec<_>>(),
        vec!["s UNKNOWN"]
    );
}

#[test]
fn sigint_during_a_long_run_prints_s_unknown_and_exits_0() {
    let (code, out) = interrupt("sigint", "-INT");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("s UNKNOWN"), "{out}");
}

// ---------------------------------------------------------------- input errors and warnings

#[test]
fn malformed_inputs_give_file_line_column_errors_exit_3_and_nothing_on_stdout() {
    let dir = Dir::new_cli("malformed");
    // (file name, its bytes, what the error says after the path), one line a case.
    #[rustfmt::skip]
    let cases: &[(&str, &[u8], &str)] = &[
        ("junk.cnf", b"p cnf 3 1\n1 x 0\n", ":2:3: unexpected `x`"),
        ("nozero.cnf", b"p cnf 3 1\n1 2", ":2:4: the input ends inside"),
        ("header.cnf", b"p cnf three 1\n", ":1:7: malformed header"),
        ("noheader.cnf", b"1 2 0\n", ":1:1: expected the header"),
        ("huge.cnf", b"p cnf 4000000000 1\n", ":1:7: 4000000000 variables"),
        ("binary.cnf", &[0x7f, b'E', b'L', b'F', 0, 1, 2], ":1:1: unexpected"),
        ("overflow.cnf", b"p cnf 1 1\n123456789012345678901234 0\n", ":2:1: the number"),
    ];
    for &(name, text, needle) in cases {
        let f = dir.file(name, text);
        let o = sat(&[p(&f)]);
        assert_eq!(code(&o), Some(3), "{name}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{name}: stdout {:?}", stdout(&o));
        let err = stderr(&o);
        assert!(
            err.starts_with(&format!("grim-sat: error: {}", p(&f))) && err.contains(needle),
            "{name}: {err}"
        );
    }
}

#[test]
fn a_truncated_gzip_input_is_a_parse_error_exit_3() {
    let dir = Dir::new_cli("truncated");
    let full = gzipped(&pigeonhole(8));
    let f = dir.file("cut.cnf.gz", &full[..full.len() / 2]);
    let o = sat(&[p(&f)]);
    assert_eq!(code(&o), Some(3), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert_contains(&stderr(&o), &["gzip data is corrupt or truncated"]);
}

#[test]
fn a_parse_error_on_standard_input_names_stdin() {
    let o = run(SAT, &["-"], Some(b"p cnf 1 1\n1 y 0\n"));
    assert_eq!(code(&o), Some(3));
    assert_starts_with(&stderr(&o), "grim-sat: error: <stdin>:2:3: ");
}

#[test]
fn a_missing_file_is_an_io_error_exit_4() {
    let dir = Dir::new_cli("missing");
    let o = sat(&[p(&dir.0.join("nope.cnf"))]);
    assert_eq!(code(&o), Some(4), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("cannot open"), "{}", stderr(&o));
}

#[test]
fn an_out_of_range_literal_is_a_warning_normally_and_an_error_with_strict() {
    let (_dir, f) = Dir::new_cli("strict").with_file("a.cnf", "p cnf 2 2\n1 -2 0\n2 3 0\n");
    let o = sat(&["-q", p(&f)]);
    assert_eq!(code(&o), Some(10));
    let err = stderr(&o);
    assert!(
        err.starts_with(&format!(
            "grim-sat: warning: {}:3:3: literal 3 exceeds",
            p(&f)
        )),
        "{err}"
    );
    assert_eq!(
        model(&o).len(),
        3,
        "the model covers the extended variables"
    );
    let o = sat(&["--strict", p(&f)]);
    assert_eq!(code(&o), Some(3));
    assert!(o.stdout.is_empty());
    assert_contains(&stderr(&o), &[":3:3: literal 3 exceeds"]);
}

#[test]
fn a_truncated_cnf_is_refused_by_default_and_solved_with_relaxed() {
    let dir = Dir::new_cli("count");
    // Cut off at a clause boundary: the missing clause `-1 0` made it UNSAT.
    let f = dir.file("a.cnf", "p cnf 2 3\n1 0\n2 0\n");
    for args in [&["-q"][..], &["--strict"][..]] {
        let o = sat(&[args, &[p(&f)]].concat());
        assert_eq!(code(&o), Some(3), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}: nothing on stdout");
        assert_contains(
            &stderr(&o),
            &["a.cnf:4:1: the input ends after 2 of the 3 clauses"],
        );
    }
    let o = sat(&["-q", "--relaxed", p(&f)]);
    assert_eq!(code(&o), Some(10));
    assert_contains(&stderr(&o), &["warning", "2 of the 3 clauses"]);
    // --strict and --relaxed contradict each other: a usage error.
    let o = sat(&["--strict", "--relaxed", p(&f)]);
    assert_eq!(code(&o), Some(2), "{}", stderr(&o));
}

#[test]
fn surplus_clauses_are_a_warning_normally_and_an_error_with_strict() {
    let (_dir, f) = Dir::new_cli("surplus").with_file("a.cnf", "p cnf 2 1\n1 0\n-2 0\n");
    let o = sat(&["-q", p(&f)]);
    assert_eq!(code(&o), Some(10));
    assert_contains(&stderr(&o), &["declares 1 clause but the input has 2"]);
    let o = sat(&["--strict", p(&f)]);
    assert_eq!(code(&o), Some(3));
    assert_contains(&stderr(&o), &[":3:1: more clauses than the 1 declared"]);
}

// ---------------------------------------------------------------- grim-check

fn check(dir: &Dir, instance: &str, output: &str) -> Output {
    let i = dir.file("instance.cnf", instance);
    let o = dir.file("output.txt", output);
    run(CHECK, &[p(&i), p(&o)], None)
}

#[test]
fn grim_check_accepts_the_model_grim_sat_prints() {
    let (dir, i) =
        Dir::new_cli("check-ok").with_file("a.cnf.gz", gzipped(&dimacs(4, &small_sat())));
    let o = sat(&[p(&i)]);
    let out = dir.file("a.out", &o.stdout);
    let c = run(CHECK, &[p(&i), p(&out)], None);
    assert_eq!(code(&c), Some(0), "{}{}", stdout(&c), stderr(&c));
    assert!(stdout(&c).starts_with("OK: SATISFIABLE"), "{}", stdout(&c));
    // The output may also come from standard input.
    let c = run(CHECK, &[p(&i), "-"], Some(&o.stdout));
    assert_eq!(code(&c), Some(0), "{}", stderr(&c));
}

#[test]
fn grim_check_rejects_a_wrong_model_naming_the_first_falsified_clause_and_its_line() {
    let dir = Dir::new_cli("check-wrong");
    let instance = "c header next\np cnf 3 3\n1 2 0\nc gap\n-1 3 0\n2 -3 0\n";
    let c = check(&dir, instance, "s SATISFIABLE\nv 1 -2 -3 0\n");
    assert_eq!(code(&c), Some(1), "{}{}", stdout(&c), stderr(&c));
    let out = stdout(&c);
    assert_starts_with(
        &out,
        "WRONG: the model does not satisfy clause 2 (line 5 of",
    );
    assert!(out.contains("-1 3 0 [all literals false]"), "{out}");
    assert!(out.contains("1 of 3 clauses unsatisfied"), "{out}");
}

#[test]
fn grim_check_counts_an_unassigned_variable_as_satisfying_nothing() {
    let dir = Dir::new_cli("check-partial");
    let c = check(&dir, "p cnf 2 2\n1 0\n2 0\n", "s SATISFIABLE\nv 1 0\n");
    assert_eq!(code(&c), Some(1), "{}", stdout(&c));
    assert_contains(&stdout(&c), &["[0 false, 1 unassigned]"]);
    // Assigning only what is needed is fine.
    let c = check(&dir, "p cnf 3 1\n1 3 0\n", "s SATISFIABLE\nv 3 0\n");
    assert_eq!(code(&c), Some(0), "{}", stdout(&c));
}

#[test]
fn grim_check_reports_unsatisfiable_and_unknown_as_unchecked_with_exit_0() {
    let dir = Dir::new_cli("check-unsat");
    let c = check(&dir, &dimacs(2, &small_unsat()), "c x\ns UNSATISFIABLE\n");
    assert_eq!(code(&c), Some(0));
    assert_starts_with(&stdout(&c), "UNCHECKED: UNSATISFIABLE");
    let c = check(&dir, &dimacs(2, &small_unsat()), "s UNKNOWN\n");
    assert_eq!(code(&c), Some(0));
    assert_starts_with(&stdout(&c), "UNCHECKED: UNKNOWN");
}

#[test]
fn grim_check_refuses_malformed_outputs_with_exit_2_and_a_position() {
    let dir = Dir::new_cli("check-malformed");
    let instance = dimacs(4, &small_sat());
    #[rustfmt::skip]
    let cases = [
        ("s SATISFIABLE\nv 1 -2 -3\n", ":3:1: the output ends without the `0`"),
        ("s SATISFIABLE\nv 1 2 -1 0\n", ":2:7: literal -1 contradicts 1"),
        ("c nothing\n", "no `s` line"),
        ("s SATISFIABLE\n", ":1:1: `s SATISFIABLE` without `v` lines"),
        ("s MAYBE\n", ":1:3: unknown answer `MAYBE`"),
        ("s SATISFIABLE\nv 1 two 0\n", ":2:5: unexpected `two`"),
        ("s UNSATISFIABLE\nv 1 0\n", ":2:1: `v` lines, but the answer is UNSATISFIABLE"),
    ];
    for (output, needle) in cases {
        let c = check(&dir, &instance, output);
        assert_eq!(
            code(&c),
            Some(2),
            "{output:?}: {}{}",
            stdout(&c),
            stderr(&c)
        );
        assert!(
            stderr(&c).starts_with("grim-check: error: ") && stderr(&c).contains(needle),
            "{output:?}: {}",
            stderr(&c)
        );
        assert!(c.stdout.is_empty(), "{output:?}: {}", stdout(&c));
    }
}

#[test]
fn grim_check_refuses_a_malformed_instance_with_exit_2() {
    let dir = Dir::new_cli("check-instance");
    let c = check(&dir, "p cnf 2 1\n1 q 0\n", "s SATISFIABLE\nv 1 2 0\n");
    assert_eq!(code(&c), Some(2));
    assert_contains(&stderr(&c), &["instance.cnf:2:3: unexpected `q`"]);
    let c = run(
        CHECK,
        &[p(&dir.0.join("none.cnf")), p(&dir.0.join("none.out"))],
        None,
    );
    assert_eq!(code(&c), Some(2), "{}", stderr(&c));
}

#[test]
fn proof_writes_a_drat_proof_ending_in_the_empty_clause_that_rate_verifies_when_installed() {
    let (dir, cnf) = Dir::new_cli("proof").with_file("php6.cnf", pigeonhole(6));
    let have_rate = Command::new("rate").arg("--version").output().is_ok();
    if !have_rate {
        common::skip(
            "cli",
            "the rate proof check: rate not installed (cargo install rate)",
        );
    }
    for binary in [false, true] {
        let proof = dir.0.join(if binary { "p.bin.drat" } else { "p.drat" });
        let mut args = vec!["-q", "--proof", p(&proof), p(&cnf)];
        if binary {
            args.insert(0, "--binary-proof");
        }
        let out = sat(&args);
        assert_eq!(code(&out), Some(20), "{}", stderr(&out));
        let bytes = std::fs::read(&proof).expect("the proof file exists");
        if binary {
            assert!(
                bytes.ends_with(&[b'a', 0]),
                "the binary proof ends with the empty clause"
            );
        } else {
            let text = String::from_utf8(bytes).expect("a text proof is text");
            assert_eq!(
                text.lines().last(),
                Some("0"),
                "the text proof ends with the empty clause"
            );
        }
        if have_rate {
            let check = Command::new("rate")
                .arg(&cnf)
                .arg(&proof)
                .output()
                .expect("rate runs");
            let verdict = String::from_utf8_lossy(&check.stdout);
            assert!(
                verdict.lines().any(|l| l == "s VERIFIED"),
                "binary={binary}: {verdict}"
            );
        }
    }
}

#[test]
fn lrat_writes_a_proof_the_lrat_checker_accepts_with_units_and_a_wrong_header_count() {
    // A unit clause first (it propagates and shortens later clauses while the input is still
    // being added) and one clause more than the header declares (a warning): the identifiers
    // of the original clauses still follow the file, and the derived ones come after all of
    // them.
    let mut text = pigeonhole(6).replacen("p cnf 42 ", "p cnf 43 ", 1);
    text = text.replacen('\n', "\n43 0\n", 1);
    text.push_str("-43 1 2 0\n");
    let (dir, cnf) = Dir::new_cli("lrat").with_file("php6u.cnf", &text);
    let formula = grim_testkit::lrat::parse_cnf(&text).expect("the test's CNF");
    for binary in [false, true] {
        let proof = dir.0.join(if binary { "p.bin.lrat" } else { "p.lrat" });
        let mut args = vec!["-q", "--lrat", "--proof", p(&proof), p(&cnf)];
        if binary {
            args.insert(0, "--binary-proof");
        }
        let out = sat(&args);
        assert_eq!(code(&out), Some(20), "{}", stderr(&out));
        let bytes = std::fs::read(&proof).expect("the proof file exists");
        assert_eq!(bytes.first() == Some(&b'a'), binary, "binary={binary}");
        let summary = grim_testkit::lrat::check_lrat(&formula, &bytes)
            .unwrap_or_else(|e| panic!("binary={binary}: {e}"));
        assert!(summary.added > 10, "{summary:?}");
    }
}

#[test]
fn lrat_without_proof_is_a_usage_error() {
    let (_dir, cnf) = Dir::new_cli("lrat-alone").with_file("f.cnf", pigeonhole(3));
    let out = sat(&["--lrat", p(&cnf)]);
    assert_eq!(code(&out), Some(2), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
}

#[test]
fn binary_proof_without_proof_is_a_usage_error() {
    let (_dir, cnf) = Dir::new_cli("binary-proof-alone").with_file("f.cnf", pigeonhole(3));
    let out = sat(&["--binary-proof", p(&cnf)]);
    assert_eq!(code(&out), Some(2), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
}

#[cfg(target_os = "linux")]
#[test]
fn memory_that_runs_out_under_a_limit_is_answered_unknown_with_exit_0() {
    // The largest variable there is: the engine's per-variable arrays want gigabytes, which a
    // 2 GB address-space limit (`prlimit --as`, what `ulimit -v` sets) refuses. Rust's own
    // handler would abort (SIGABRT, no `s` line); grim-sat answers as for any other limit.
    if Command::new("prlimit").arg("--version").output().is_err() {
        grim_testkit::reference::note("memory_limit", "prlimit (util-linux) is missing");
        return;
    }
    let dir = Dir::new_cli("oom");
    let cnf = dir.file("big.cnf", "p cnf 2147483647 1\n2147483647 0\n");
    let o = Command::new("prlimit")
        .args(["--as=2000000000", "--", SAT])
        .arg(&cnf)
        .output()
        .unwrap();
    let out = stdout(&o);
    assert_eq!(code(&o), Some(0), "stdout: {out}\nstderr: {}", stderr(&o));
    assert_eq!(status_line(&o).as_deref(), Some("s UNKNOWN"), "{out}");
    assert_contains(&out, &["c out of memory: an allocation of "]);
    assert!(out.ends_with("s UNKNOWN\n"), "{out}");
    assert!(
        !stderr(&o).contains("memory allocation of"),
        "{}",
        stderr(&o)
    );
}

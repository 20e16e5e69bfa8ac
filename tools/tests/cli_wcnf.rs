//! `grim-sat` and `grim-check` on WCNF as a user runs them: the MaxSAT Evaluation output
//! (`o` lines, `s` answers, the 0/1 `v` line) and its exit codes 30/10/20/0, degenerate
//! instances, limits, signals, format detection, errors with positions, and `grim-check` on
//! right and wrong outputs. Each test writes its inputs into its own temp directory.
//!
//! Every model grim-sat prints is re-checked here by an evaluator independent of the crate
//! (plain string splitting), and small optima against brute force.

mod common;

use common::{CHECK, Dir, GEN, SAT, code, p, run, sat, stderr, stdout};
use grim_testkit::{assert_contains, assert_starts_with};
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use grim_testkit::compress::{self, DEFAULT};
use grim_tools::generate::{self, GenWcnf, SplitMix64};

impl Dir {
    fn new_wcnf(test: &str) -> Dir {
        Dir::new("grim-tools-cli-wcnf", test)
    }
}

/// The lines that are not comments.
fn answer_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with('c'))
        .map(str::to_string)
        .collect()
}

/// Every `o` line's cost, in order.
fn costs(text: &str) -> Vec<u64> {
    text.lines()
        .filter_map(|l| l.strip_prefix("o "))
        .map(|c| c.trim().parse().expect("o lines hold a cost"))
        .collect()
}

fn status(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("s ")).collect()
}

/// The model of the one `v` line.
fn bits(text: &str) -> Vec<bool> {
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("v")).collect();
    assert_eq!(lines.len(), 1, "exactly one v line:\n{text}");
    let line = lines.first().copied().unwrap_or_default();
    let body = line.strip_prefix("v ").unwrap_or("");
    assert!(
        body.bytes().all(|b| b == b'0' || b == b'1'),
        "the v line is 0/1 only: {line:?}"
    );
    body.bytes().map(|b| b == b'1').collect()
}

/// A headerless WCNF read by splitting strings (independent of the crate's reader):
/// `(hard, soft)` as DIMACS integers.
type Clauses = (Vec<Vec<i64>>, Vec<(u64, Vec<i64>)>);

fn parse_simple(text: &str) -> Clauses {
    let mut hard = Vec::new();
    let mut soft = Vec::new();
    for line in text.lines() {
        let mut tokens = line.split_whitespace();
        let Some(head) = tokens.next() else { continue };
        if head.starts_with('c') {
            continue;
        }
        let lits: Vec<i64> = tokens
            .map(|t| t.parse().expect("literal"))
            .take_while(|&l| l != 0)
            .collect();
        if head == "h" {
            hard.push(lits);
        } else {
            soft.push((head.parse().expect("weight"), lits));
        }
    }
    (hard, soft)
}

/// The cost of `model` (variables beyond it false), or `None` if a hard clause fails.
fn cost_of((hard, soft): &Clauses, model: &[bool]) -> Option<u64> {
    let holds = |c: &Vec<i64>| {
        c.iter().any(|&l| {
            let v = model
                .get(l.unsigned_abs() as usize - 1)
                .copied()
                .unwrap_or(false);
            v == (l > 0)
        })
    };
    if !hard.iter().all(holds) {
        return None;
    }
    Some(soft.iter().filter(|(_, c)| !holds(c)).map(|(w, _)| w).sum())
}

fn num_vars((hard, soft): &Clauses) -> usize {
    hard.iter()
        .chain(soft.iter().map(|(_, c)| c))
        .flatten()
        .map(|l| l.unsigned_abs() as usize)
        .max()
        .unwrap_or(0)
}

/// The optimum by enumeration (≤ 16 variables), `None` when the hard clauses are UNSAT.
fn brute_force(clauses: &Clauses) -> Option<u64> {
    let n = num_vars(clauses);
    assert!(n <= 16, "brute force on {n} variables");
    (0u32..1 << n)
        .filter_map(|mask| {
            let model: Vec<bool> = (0..n).map(|i| mask >> i & 1 == 1).collect();
            cost_of(clauses, &model)
        })
        .min()
}

/// Asserts a complete, consistent solution: `o` lines strictly decreasing, the `v` line
/// covering every variable, its cost (computed here) equal to the last `o`. Returns it.
fn assert_solution(text: &str, instance: &str) -> u64 {
    let clauses = parse_simple(instance);
    let os = costs(text);
    assert!(!os.is_empty(), "no o line:\n{text}");
    assert!(
        os.windows(2).all(|w| matches!(w, [a, b] if b < a)),
        "o lines decrease: {os:?}"
    );
    let model = bits(text);
    assert_eq!(
        model.len(),
        num_vars(&clauses),
        "one character per variable"
    );
    let last = os.last().copied().unwrap_or(u64::MAX);
    assert_eq!(
        cost_of(&clauses, &model),
        Some(last),
        "the model satisfies the hard clauses and costs the last o:\n{text}"
    );
    last
}

/// Unweighted random Max-2-SAT (100 variables, 1000 binary soft clauses, no hard clauses):
/// the first model comes at once, but proving the optimum takes core-guided search far
/// longer than any test waits (RC2 does not finish the 60-variable version in 60 s) — the
/// instance for limits and signals.
fn slow_instance() -> GenWcnf {
    let mut rng = SplitMix64::new(1);
    let vars = 100u64;
    let mut soft = Vec::new();
    while soft.len() < 1000 {
        let a = rng.below(vars) as i64 + 1;
        let b = rng.below(vars) as i64 + 1;
        if a != b {
            let sign = |rng: &mut SplitMix64, v: i64| if rng.coin() { v } else { -v };
            let clause = vec![sign(&mut rng, a), sign(&mut rng, b)];
            soft.push((1, clause));
        }
    }
    GenWcnf {
        num_vars: vars,
        hard: Vec::new(),
        soft,
        description: "max-2-sat vars=100 clauses=1000 seed=1".to_string(),
    }
}

// ------------------------------------------------------------------- answers and exit codes

/// The WCNF text of the instance `grim-gen LINE` writes (LINE without the program name).
fn generated(line: &str) -> String {
    generate::wcnf(line).expect(line).to_wcnf_string()
}

#[test]
fn an_optimum_prints_decreasing_o_lines_then_optimum_found_and_one_v_line_exit_30() {
    let dir = Dir::new_wcnf("optimum");
    let mut nontrivial = 0;
    for seed in 0..12 {
        let text = generated(&format!(
            "maxsat --vars 12 --hard 20 --hard-k 3 --soft 30 --soft-k 3 --max-weight 20 --seed {seed}"
        ));
        let f = dir.file(&format!("r{seed}.wcnf"), &text);
        let o = sat(&[p(&f)]);
        let out = stdout(&o);
        assert_eq!(code(&o), Some(30), "{out}{}", stderr(&o));
        assert_eq!(status(&out), vec!["s OPTIMUM FOUND"]);
        let cost = assert_solution(&out, &text);
        assert_eq!(Some(cost), brute_force(&parse_simple(&text)), "seed {seed}");
        // MSE order: o lines, then s, then v.
        let answers = answer_lines(&out);
        let s_at = answers
            .iter()
            .position(|l| l.starts_with("s "))
            .unwrap_or(0);
        assert!(
            answers.iter().take(s_at).all(|l| l.starts_with("o ")),
            "{out}"
        );
        assert!(
            answers.get(s_at + 1).is_some_and(|l| l.starts_with("v")),
            "{out}"
        );
        if cost > 0 {
            nontrivial += 1;
        }
    }
    assert!(
        nontrivial >= 8,
        "most optima are positive: {nontrivial} of 12"
    );
}

#[test]
fn weighted_vertex_cover_optima_match_brute_force() {
    let dir = Dir::new_wcnf("vc");
    for seed in 0..6 {
        let text = generated(&format!(
            "vertex-cover --vertices 14 --edges 25 --max-weight 9 --seed {seed}"
        ));
        let f = dir.file("vc.wcnf", &text);
        let o = sat(&["-q", p(&f)]);
        assert_eq!(code(&o), Some(30), "{}", stdout(&o));
        let cost = assert_solution(&stdout(&o), &text);
        assert_eq!(Some(cost), brute_force(&parse_simple(&text)), "seed {seed}");
    }
}

#[test]
fn unsatisfiable_hard_clauses_give_s_unsatisfiable_exit_20_and_no_o_or_v() {
    let (_dir, f) = Dir::new_wcnf("unsat").with_file("u.wcnf", "h 1 2 0\nh -1 0\nh -2 0\n5 1 0\n");
    let o = sat(&[p(&f)]);
    assert_eq!(code(&o), Some(20), "{}", stdout(&o));
    assert_eq!(answer_lines(&stdout(&o)), vec!["s UNSATISFIABLE"]);
}

#[test]
fn a_conflict_budget_that_ends_the_search_after_a_solution_gives_s_satisfiable_exit_10() {
    let dir = Dir::new_wcnf("budget10");
    let text = slow_instance().to_wcnf_string();
    let f = dir.file("slow.wcnf", &text);
    let o = sat(&["--conflicts", "100", p(&f)]);
    let out = stdout(&o);
    assert_eq!(code(&o), Some(10), "{out}");
    assert_eq!(status(&out), vec!["s SATISFIABLE"]);
    assert_contains(&out, &["c stopped by the conflict or propagation limit"]);
    assert_solution(&out, &text);
}

#[test]
fn the_anytime_phase_leaves_a_budget_cut_run_with_a_much_cheaper_solution() {
    // 100 conflicts cannot prove the slow instance's optimum; what the run ends with is the
    // best model. With the anytime phase (the default) local search starts from the first
    // model; with `--anytime-flips 0` only the core-guided search's models remain.
    let dir = Dir::new_wcnf("anytime");
    let text = slow_instance().to_wcnf_string();
    let f = dir.file("slow.wcnf", &text);
    let with = stdout(&sat(&["--conflicts", "100", "--stats", p(&f)]));
    let without = stdout(&sat(&["--conflicts", "100", "--anytime-flips", "0", p(&f)]));
    let (a, b) = (
        assert_solution(&with, &text),
        assert_solution(&without, &text),
    );
    assert!(
        a * 3 < b * 2,
        "anytime {a} is not clearly cheaper than without {b}\n{with}"
    );
    assert!(with.contains("c local search wins"), "{with}");
}

/// Hard random 3-SAT near the threshold, planted (so satisfiable), with a few soft clauses.
const HARD_PLANTED: &str =
    "maxsat --vars 300 --hard 1260 --hard-k 3 --soft 20 --soft-k 2 --max-weight 5 --seed 1";

#[test]
fn a_budget_that_ends_before_any_solution_gives_s_unknown_exit_0() {
    let dir = Dir::new_wcnf("budget0");
    // One conflict is not enough to find a model.
    let f = dir.file("hard.wcnf", generated(HARD_PLANTED));
    let o = sat(&["--conflicts", "1", p(&f)]);
    assert_eq!(code(&o), Some(0), "{}", stdout(&o));
    assert_eq!(answer_lines(&stdout(&o)), vec!["s UNKNOWN"]);
    // Without the budget it is solved.
    let o = sat(&["-q", p(&f)]);
    assert_eq!(code(&o), Some(30), "{}", stdout(&o));
}

#[test]
fn a_time_limit_on_a_slow_instance_answers_with_the_best_solution_so_far() {
    let dir = Dir::new_wcnf("time");
    let text = slow_instance().to_wcnf_string();
    let f = dir.file("slow.wcnf", &text);
    let started = Instant::now();
    let o = sat(&["--time", "0.5", p(&f)]);
    let out = stdout(&o);
    assert_eq!(code(&o), Some(10), "{out}");
    assert!(out.contains("c stopped by the time limit"), "{out}");
    assert_solution(&out, &text);
    assert!(started.elapsed() < Duration::from_secs(30));
}

/// Starts grim-sat on the slow instance, waits for the first `o` line, sends `signal` with
/// kill(1), and returns the exit code and the whole output.
fn interrupt(test: &str, signal: &str) -> (Option<i32>, String, String) {
    let dir = Dir::new_wcnf(test);
    let text = slow_instance().to_wcnf_string();
    let f = dir.file("slow.wcnf", &text);
    let (code, out) = common::signal_when(SAT, &f, signal, |line| line.starts_with("o "));
    (code, out, text)
}

#[test]
fn sigterm_prints_the_best_solution_so_far_once_and_exits_10() {
    let (code, out, text) = interrupt("sigterm", "-TERM");
    assert_eq!(code, Some(10), "{out}");
    assert!(out.contains("c stopped by a signal"), "{out}");
    assert_eq!(status(&out), vec!["s SATISFIABLE"], "one s line");
    assert_solution(&out, &text);
}

#[test]
fn sigint_does_the_same() {
    let (code, out, text) = interrupt("sigint", "-INT");
    assert_eq!(code, Some(10), "{out}");
    assert_eq!(status(&out), vec!["s SATISFIABLE"]);
    assert_solution(&out, &text);
}

// -------------------------------------------------------------------- degenerate instances

#[test]
fn degenerate_instances_answer_correctly() {
    let dir = Dir::new_wcnf("degenerate");
    #[rustfmt::skip]
    let cases = [
        ("empty.wcnf", "", 30, vec!["o 0", "s OPTIMUM FOUND", "v "]),
        ("comments.wcnf", "c nothing\n", 30, vec!["o 0", "s OPTIMUM FOUND", "v "]),
        ("nosoft.wcnf", "h 1 2 0\nh -1 0\n", 30, vec!["o 0", "s OPTIMUM FOUND", "v 01"]),
        ("emptyhard.wcnf", "h 0\n1 1 0\n", 20, vec!["s UNSATISFIABLE"]),
        ("emptysoft.wcnf", "4 0\n", 30, vec!["o 4", "s OPTIMUM FOUND", "v "]),
        ("emptysofts.wcnf", "4 0\nh 1 0\n3 0\n2 -1 0\n", 30, vec!["o 9", "s OPTIMUM FOUND", "v 1"]),
        // Any model is optimal (flipping every variable maps the instance onto itself, so
        // the optimiser may fix one): `assert_solution` checks the `v` line.
        ("tautology.wcnf", "h 1 -1 0\n3 2 -2 0\n", 30, vec!["o 0", "s OPTIMUM FOUND"]),
        ("zero.wcnf", "0 1 0\n0 -1 0\n", 30, vec!["o 0", "s OPTIMUM FOUND", "v 0"]),
        ("contradict.wcnf", "1 1 0\n1 -1 0\n", 30, vec!["o 1"]),
        ("bigweight.wcnf", "18446744073709551615 1 0\nh -1 0\n", 30, vec!["o 18446744073709551615", "s OPTIMUM FOUND", "v 0"]),
    ];
    for (name, text, exit, expected) in cases {
        let f = dir.file(name, text);
        let o = sat(&["-q", p(&f)]);
        let out = stdout(&o);
        assert_eq!(code(&o), Some(exit), "{name}: {out}{}", stderr(&o));
        let lines = answer_lines(&out);
        assert!(
            lines.starts_with(&expected.iter().map(|s| s.to_string()).collect::<Vec<_>>()),
            "{name}: {lines:?}"
        );
        if exit == 30 {
            assert_solution(&out, text);
        }
    }
}

#[test]
fn an_old_format_file_and_a_gzipped_one_read_the_same() {
    let dir = Dir::new_wcnf("old");
    let old = dir.file(
        "old.wcnf",
        "c old\np wcnf 3 4 100\n100 1 2 0\n3 -1 0\n2 -2 0\n1 3 0\n",
    );
    let o = sat(&["-q", p(&old)]);
    assert_eq!(code(&o), Some(30), "{}", stdout(&o));
    let plain = answer_lines(&stdout(&o));
    assert!(
        plain.ends_with(&["o 2", "s OPTIMUM FOUND", "v 011"].map(String::from)),
        "{plain:?}"
    );
    let gz = dir.file(
        "whatever.bin",
        compress::gzip(
            b"p wcnf 3 4 100\n100 1 2 0\n3 -1 0\n2 -2 0\n1 3 0\n",
            DEFAULT,
        ),
    );
    let o = sat(&["-q", p(&gz)]);
    assert_eq!(answer_lines(&stdout(&o)), plain);
    let o = sat(&[p(&gz)]);
    assert!(stdout(&o).contains("c input: ") && stdout(&o).contains("(gzip)"));
    assert_contains(&stdout(&o), &["c header: p wcnf 3 4 100 (line 1)"]);
}

#[test]
fn declared_but_unused_variables_of_an_old_header_get_a_character_each() {
    let (_dir, f) = Dir::new_wcnf("unused").with_file("u.wcnf", "p wcnf 5 1 9\n1 -2 0\n");
    let o = sat(&["-q", p(&f)]);
    assert_eq!(
        answer_lines(&stdout(&o)),
        vec!["o 0", "s OPTIMUM FOUND", "v 00000"]
    );
}

// -------------------------------------------------------------- output options and formats

#[test]
fn quiet_prints_only_o_s_and_v_lines_and_no_model_drops_the_v_line() {
    let (_dir, f) = Dir::new_wcnf("quiet").with_file("q.wcnf", "h 1 2 0\n1 -1 0\n2 -2 0\n");
    // The first model (of the hard clauses alone) may cost 2 before the optimum 1 is found:
    // any number of decreasing `o` lines, then the answer.
    let only_o_then = |out: &str, tail: &str| {
        let head = out.strip_suffix(tail).unwrap_or_else(|| panic!("{out:?}"));
        let costs: Vec<u64> = head
            .lines()
            .map(|l| {
                l.strip_prefix("o ")
                    .expect("only o lines")
                    .parse()
                    .expect("a cost")
            })
            .collect();
        assert!(costs.windows(2).all(|w| w[0] > w[1]), "{out:?}");
        assert_eq!(costs.last(), Some(&1), "{out:?}");
    };
    let o = sat(&["-q", p(&f)]);
    only_o_then(&stdout(&o), "s OPTIMUM FOUND\nv 10\n");
    let o = sat(&["-q", "-n", p(&f)]);
    only_o_then(&stdout(&o), "s OPTIMUM FOUND\n");
}

#[test]
fn the_banner_names_the_format_the_reason_and_the_parse_summary() {
    let (_dir, f) = Dir::new_wcnf("banner").with_file("b.wcnf", "3 1 0\n2 -1 -2 0\n");
    let out = stdout(&sat(&[p(&f)]));
    assert_contains(
        &out,
        &["c format: WCNF, headerless (2022+) (no header, and the name ends in .wcnf)"],
    );
    assert_contains(
        &out,
        &["c parsed: 2 variables, 0 hard and 2 soft clauses, 3 literals, soft weight 5"],
    );
    assert!(out.contains(", sat calls "), "{out}");
    // Every counter with --stats.
    let full = stdout(&sat(&["--stats", p(&f)]));
    assert_contains(&full, &["c sat calls", "c core literals"]);
}

#[test]
fn an_lrat_or_binary_proof_is_refused_for_a_wcnf_instead_of_silently_written_as_veripb() {
    let (dir, f) = Dir::new_wcnf("wcnf-proof").with_file("b.wcnf", "3 1 0\nh 1 2 0\n");
    let proof = dir.0.join("out.drat");
    for flag in ["--lrat", "--binary-proof"] {
        let o = sat(&[flag, "--proof", p(&proof), p(&f)]);
        assert_eq!(code(&o), Some(2), "{}", stderr(&o));
        assert!(o.stdout.is_empty());
        assert!(stderr(&o).contains("VeriPB"), "{}", stderr(&o));
        assert!(!proof.exists(), "no proof file is created");
    }
}

#[test]
fn a_proof_of_an_old_format_wcnf_is_refused_as_the_checker_cannot_read_it() {
    let (dir, f) =
        Dir::new_wcnf("wcnf-proof-old").with_file("o.wcnf", "p wcnf 2 2 9\n3 1 0\n9 1 2 0\n");
    let proof = dir.0.join("out.pbp");
    let o = sat(&["--proof", p(&proof), p(&f)]);
    assert_eq!(code(&o), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("headerless"), "{}", stderr(&o));
    assert!(!proof.exists(), "no proof file is created");
}

#[test]
fn a_veripb_proof_of_each_headerless_corpus_wcnf_is_verified_when_veripb_is_installed() {
    // The corpus's WCNF files as they are (soft and hard clauses interleaved as written), so
    // the selectors' names follow the file's clause positions.
    let Some(veripb) =
        grim_testkit::reference::tool("wcnf veripb proofs", "veripb", "cargo install veripb")
    else {
        return;
    };
    let dir = Dir::new_wcnf("wcnf-veripb");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../instances/wcnf");
    let mut files: Vec<_> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|f| f.extension().is_some_and(|e| e == "wcnf"))
        .collect();
    files.sort();
    // Interleaved hard and soft clauses, a tautology, a repeated literal, an empty soft clause
    // and a weight 0: the cases where grim's terms and the checker's objective differ.
    let odd = dir.file(
        "odd.wcnf",
        "3 1 -1 0\nh 1 2 0\n2 2 2 0\n4 0\n0 1 2 0\n5 -1 -2 0\nh -1 3 0\n1 -3 0\n2 -2 0\n",
    );
    files.push(odd);
    let mut verified = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        if text.lines().any(|l| l.starts_with("p wcnf")) {
            continue;
        }
        let proof = dir.0.join("p.pbp");
        let o = sat(&["-q", "--proof", p(&proof), p(f)]);
        let out = stdout(&o);
        let want = match code(&o) {
            Some(30) => {
                let cost = out
                    .lines()
                    .filter_map(|l| l.strip_prefix("o "))
                    .next_back()
                    .unwrap();
                format!("s VERIFIED BOUNDS {cost} <= obj <= {cost}")
            }
            Some(20) => "s VERIFIED BOUNDS INF <= obj <= INF".to_string(),
            other => panic!("{}: exit {other:?}\n{out}", f.display()),
        };
        let v = std::process::Command::new(&veripb)
            .arg("--wcnf")
            .arg(f)
            .arg(&proof)
            .output()
            .unwrap();
        let vout = String::from_utf8_lossy(&v.stdout);
        assert!(
            v.status.success() && vout.lines().any(|l| l == want),
            "{}: want {want}, veripb said\n{vout}{}",
            f.display(),
            String::from_utf8_lossy(&v.stderr)
        );
        verified += 1;
    }
    assert!(verified >= 8, "only {verified} files verified");
}

#[test]
fn verbose_prints_bound_progress_lines() {
    let dir = Dir::new_wcnf("verbose");
    let line =
        "maxsat --vars 14 --hard 20 --hard-k 3 --soft 40 --soft-k 2 --max-weight 30 --seed 3";
    let f = dir.file("v.wcnf", generated(line));
    let o = sat(&["-v", p(&f)]);
    let out = stdout(&o);
    assert_eq!(code(&o), Some(30), "{out}");
    let bounds: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("c bounds: lower "))
        .collect();
    assert!(bounds.len() >= 2, "{out}");
    // The last bound line has lower = upper = the optimum.
    let cost = costs(&out).last().copied().unwrap_or(0);
    assert_contains(&out, &[&format!("c bounds: lower {cost}, upper {cost}")]);
}

#[test]
fn engine_options_apply_to_wcnf_and_a_bad_one_is_a_usage_error() {
    let (_dir, f) = Dir::new_wcnf("opt").with_file(
        "o.wcnf",
        generated(
            "maxsat --vars 12 --hard 20 --hard-k 3 --soft 30 --soft-k 3 --max-weight 20 --seed 4",
        ),
    );
    let plain = sat(&["-q", p(&f)]);
    let tuned = sat(&["-q", "--opt", "seed=7", "--opt", "reduce_interval=5", p(&f)]);
    assert_eq!(code(&tuned), Some(30), "{}", stderr(&tuned));
    assert_eq!(costs(&stdout(&plain)).last(), costs(&stdout(&tuned)).last());
    let banner = stdout(&sat(&["--opt", "seed=7", p(&f)]));
    assert_contains(&banner, &["c options: ", "seed=7"]);
    let o = sat(&["--opt", "no_such_option=1", p(&f)]);
    assert_eq!(code(&o), Some(2));
    assert!(stdout(&o).is_empty());
}

#[test]
fn the_same_input_gives_the_same_output_every_time() {
    let (_dir, f) = Dir::new_wcnf("determinism").with_file(
        "d.wcnf",
        generated(
            "maxsat --vars 20 --hard 40 --hard-k 3 --soft 60 --soft-k 2 --max-weight 50 --seed 9",
        ),
    );
    let a = stdout(&sat(&["-q", p(&f)]));
    let b = stdout(&sat(&["-q", p(&f)]));
    assert_eq!(a, b);
}

#[test]
fn format_detection_reads_content_first_and_the_name_only_for_headerless_numbers() {
    let dir = Dir::new_wcnf("detect");
    // `h` first: WCNF whatever the name, standard input included.
    let f = dir.file("looks.cnf", "h 1 0\n2 -1 0\n");
    assert_eq!(code(&sat(&["-q", p(&f)])), Some(30));
    let o = run(SAT, &["-q", "-"], Some(b"h 1 0\n2 -1 0\n"));
    assert_eq!(
        answer_lines(&stdout(&o)),
        vec!["o 2", "s OPTIMUM FOUND", "v 1"]
    );
    // `p cnf`: CNF even when named .wcnf.
    let f = dir.file("named.wcnf", "p cnf 1 1\n1 0\n");
    let o = sat(&["-q", p(&f)]);
    assert_eq!(code(&o), Some(10));
    assert_eq!(answer_lines(&stdout(&o)), vec!["s SATISFIABLE", "v 1 0"]);
    // A weight first, any `h` later, or no name at all (standard input): WCNF (issue 38: a
    // headerless WCNF without hard clauses on stdin was read as CNF and refused).
    let f = dir.file("noname.txt", "2 -1 0\nh 1 0\n");
    assert_eq!(code(&sat(&["-q", p(&f)])), Some(30));
    let o = run(SAT, &["-q", "-"], Some(b"c soft only\n2 -1 0\n3 1 0\n"));
    assert_eq!(final_answer(&stdout(&o)), ["o 2", "s OPTIMUM FOUND", "v 1"]);
    let f = dir.file("hard-later.cnf", "2 -1 0\nh 1 0\n");
    assert_eq!(code(&sat(&["-q", p(&f)])), Some(30));
    // A weight first in a file named .cnf, with no `h`: the name wins, so it is a CNF that
    // lacks its header, refused with a hint.
    let f = dir.file("lost-header.cnf", "2 -1 0\n3 1 0\n");
    let o = sat(&[p(&f)]);
    assert_eq!(code(&o), Some(3));
    assert!(stdout(&o).is_empty());
    let err = stderr(&o);
    assert!(err.contains(&format!("{}:1:1:", p(&f))), "{err}");
    assert!(err.contains("--format wcnf"), "{err}");
    let o = sat(&["-q", "--format", "wcnf", p(&f)]);
    assert_eq!(final_answer(&stdout(&o)), ["o 2", "s OPTIMUM FOUND", "v 1"]);
    // ... and the same file named .wcnf.gz, gzipped.
    let f = dir.file("named.wcnf.gz", compress::gzip(b"2 -1 0\nh 1 0\n", DEFAULT));
    assert_eq!(code(&sat(&["-q", p(&f)])), Some(30));
}

/// The last `o` line, the `s` line and the `v` line of an output (earlier `o` lines are the
/// improvements on the way, which depend on the first model found).
fn final_answer(out: &str) -> [String; 3] {
    let lines = answer_lines(out);
    let last = |prefix: &str| {
        lines
            .iter()
            .rev()
            .find(|l| l.starts_with(prefix))
            .cloned()
            .unwrap_or_default()
    };
    [last("o "), last("s "), last("v ")]
}

/// Every WCNF dialect on standard input, where there is no name to help: the old header, `h`
/// first, a soft clause first with `h` later, soft clauses only, and gzip of each; and the
/// issue's pipe, `grim-gen maxcut … | grim-sat -`, whose output has no hard clause.
#[test]
fn standard_input_detects_every_wcnf_dialect() {
    let instances: [&[u8]; 4] = [
        b"p wcnf 1 2 10\n10 1 0\n2 -1 0\n",
        b"h 1 0\n2 -1 0\n",
        b"c first a wish\n2 -1 0\nh 1 0\n",
        b"2 -1 0\n3 1 0\n",
    ];
    for text in instances {
        for bytes in [text.to_vec(), compress::gzip(text, DEFAULT)] {
            let o = run(SAT, &["-q", "-"], Some(&bytes));
            assert_eq!(
                final_answer(&stdout(&o)),
                ["o 2", "s OPTIMUM FOUND", "v 1"],
                "{:?} ({} bytes): {}",
                String::from_utf8_lossy(text),
                bytes.len(),
                stderr(&o)
            );
        }
    }
    let generated = run(
        GEN,
        &["maxcut", "--vertices", "30", "--edge-probability", "0.3"],
        None,
    );
    assert_eq!(code(&generated), Some(0), "{}", stderr(&generated));
    assert!(
        !generated
            .stdout
            .split(|&b| b == b'\n')
            .any(|l| l.starts_with(b"h")),
        "the maxcut instance has a hard clause: the case is not exercised"
    );
    let o = run(SAT, &["-"], Some(&generated.stdout));
    assert_eq!(code(&o), Some(30), "{}", stderr(&o));
    assert_contains(
        &stdout(&o),
        &["c format: WCNF", "a weight opens the first clause"],
    );
}

#[test]
fn malformed_wcnf_gives_file_line_column_errors_exit_3_and_nothing_on_stdout() {
    let dir = Dir::new_wcnf("malformed");
    #[rustfmt::skip]
    let cases = [
        ("h 1 0\n-3 1 0\n", "2:1", "negative weight `-3`"),
        ("h 1 0\n1.5 1 0\n", "2:1", "unexpected `1.5`"),
        ("h 1 0\n 18446744073709551616 1 0\n", "2:2", "exceeds 2^64 - 1"),
        ("9223372036854775808 1 0\n9223372036854775808 2 0\n", "2:1", "soft weights overflow"),
        ("h 1 0\n3 1 2\n", "3:1", "expected `0`"),
        ("p wcnf 2 1 5\nh 1 0\n", "2:1", "`h` belongs to the headerless format"),
        ("p wcnf 2\n", "1:9", "the number of clauses"),
    ];
    for (text, position, needle) in cases {
        let f = dir.file("bad.wcnf", text);
        let o = sat(&[p(&f)]);
        assert_eq!(code(&o), Some(3), "{text:?}: {}", stdout(&o));
        assert!(stdout(&o).is_empty(), "{text:?}: nothing on stdout");
        let err = stderr(&o);
        assert!(
            err.contains(&format!("grim-sat: error: {}:{position}: ", p(&f))),
            "{text:?}: {err}"
        );
        assert!(err.contains(needle), "{text:?}: {err}");
    }
}

#[test]
fn strict_mode_applies_to_old_format_headers() {
    let (_dir, f) = Dir::new_wcnf("strict").with_file("s.wcnf", "p wcnf 1 1 9\n9 1 2 0\n");
    let o = sat(&["-q", p(&f)]);
    assert_eq!(code(&o), Some(30));
    assert!(stderr(&o).contains("warning"), "{}", stderr(&o));
    let o = sat(&["-q", "--strict", p(&f)]);
    assert_eq!(code(&o), Some(3));
}

// ------------------------------------------------------------------------------ grim-check

fn check(instance: &Path, output: &Path) -> Output {
    run(CHECK, &[p(instance), p(output)], None)
}

#[test]
fn grim_check_accepts_what_grim_sat_prints() {
    let dir = Dir::new_wcnf("check-accepts");
    for seed in 0..5 {
        let f = dir.file("i.wcnf", generated(&format!("maxsat --vars 15 --hard 25 --hard-k 3 --soft 40 --soft-k 3 --max-weight 100 --seed {seed}")));
        let o = sat(&[p(&f)]);
        let out = dir.file("out.txt", &o.stdout);
        let c = check(&f, &out);
        assert_eq!(code(&c), Some(0), "{}{}", stdout(&c), stderr(&c));
        assert_starts_with(&stdout(&c), "OK: OPTIMUM FOUND, cost ");
    }
    // Also through standard input, and on a SIGTERM-style SATISFIABLE answer.
    let text = slow_instance().to_wcnf_string();
    let f = dir.file("slow.wcnf", &text);
    let o = sat(&["--conflicts", "50", p(&f)]);
    assert_eq!(code(&o), Some(10));
    let c = run(CHECK, &[p(&f), "-"], Some(&o.stdout));
    assert_eq!(code(&c), Some(0), "{}", stdout(&c));
    assert!(stdout(&c).starts_with("OK: SATISFIABLE"), "{}", stdout(&c));
}

#[test]
fn grim_check_verdicts_on_right_wrong_and_malformed_outputs() {
    let (dir, f) =
        Dir::new_wcnf("check-verdicts").with_file("i.wcnf", "h 1 2 0\n3 -1 0\n2 -2 0\nh -3 1 0\n");
    #[rustfmt::skip]
    let cases = [
        ("o 2\ns OPTIMUM FOUND\nv 010\n", 0, "OK: OPTIMUM FOUND, cost 2"),
        ("o 5\no 2\ns SATISFIABLE\nv 010\n", 0, "OK: SATISFIABLE, cost 2"),
        ("o 3\ns OPTIMUM FOUND\nv 100\n", 0, "OK"),
        ("o 2\ns OPTIMUM FOUND\nv -1 2 -3\n", 0, "OK"),
        ("o 2\ns OPTIMUM FOUND\nv -1 2 -3 0\n", 0, "OK"),
        ("o 1\ns OPTIMUM FOUND\nv 010\n", 1, "costs 2"),
        ("o 0\ns OPTIMUM FOUND\nv 000\n", 1, "hard clause 1 (line 1"),
        ("o 2\ns OPTIMUM FOUND\nv 011\n", 1, "hard clause 2 (line 4"),
        ("o 2\ns OPTIMUM FOUND\nv 01\n", 1, "hard clause 2"),
        ("o 3\ns UNSATISFIABLE\n", 1, "UNSATISFIABLE, but the `o` line"),
        ("s UNSATISFIABLE\n", 0, "UNCHECKED"),
        ("o 4\ns UNKNOWN\n", 0, "UNCHECKED: UNKNOWN"),
        ("s OPTIMUM FOUND\nv 010\n", 2, "without an `o` line"),
        ("o 2\ns OPTIMUM FOUND\n", 2, "without a `v` line"),
        ("o 2\ns OPTIMUM FOUND\nv 0x0\n", 2, "unexpected `0x0`"),
        ("o 2\ns SATISFIABLE\ns SATISFIABLE\nv 010\n", 2, "a second `s` line"),
        ("o 2\nv 010\n", 2, "no `s` line"),
        ("s UNKNOWN\nv 010\n", 2, "the answer is UNKNOWN"),
    ];
    for (output, exit, needle) in cases {
        let out = dir.file("out.txt", output);
        let c = check(&f, &out);
        let all = format!("{}{}", stdout(&c), stderr(&c));
        assert_eq!(code(&c), Some(exit), "{output:?}: {all}");
        assert!(all.contains(needle), "{output:?}: {all}");
        if exit == 2 {
            assert!(stderr(&c).contains(&format!("{}:", p(&out))), "{all}");
        }
    }
}

#[test]
fn grim_check_notes_short_models_and_rising_costs() {
    let (dir, f) = Dir::new_wcnf("check-notes").with_file("i.wcnf", "h 1 0\n1 2 0\n1 3 0\n");
    let out = dir.file("out.txt", "o 1\no 2\ns SATISFIABLE\nv 1\n");
    let c = check(&f, &out);
    assert_eq!(code(&c), Some(0), "{}", stdout(&c));
    assert_contains(
        &stderr(&c),
        &["leaves 2 of the instance's 3 variables unassigned"],
    );
    assert!(stderr(&c).contains("do not decrease"), "{}", stderr(&c));
}

#[test]
fn grim_check_reads_old_format_instances_and_still_checks_cnf() {
    let (dir, f) = Dir::new_wcnf("check-formats")
        .with_file("old.wcnf", "p wcnf 2 3 10\n10 1 2 0\n4 -1 0\n1 -2 0\n");
    let out = dir.file("out.txt", "o 1\ns OPTIMUM FOUND\nv 01\n");
    assert_eq!(code(&check(&f, &out)), Some(0));
    let cnf = dir.file("f.cnf", "p cnf 2 1\n1 2 0\n");
    let out = dir.file("sat.txt", "s SATISFIABLE\nv -1 2 0\n");
    let c = check(&cnf, &out);
    assert_eq!(code(&c), Some(0), "{}", stdout(&c));
    let out = dir.file("sat.txt", "s SATISFIABLE\nv -1 -2 0\n");
    assert_eq!(code(&check(&cnf, &out)), Some(1));
}

#[test]
fn grim_check_on_a_malformed_instance_exits_2_with_its_position() {
    let (dir, f) = Dir::new_wcnf("check-bad-instance").with_file("bad.wcnf", "h 1 0\n-2 1 0\n");
    let out = dir.file("out.txt", "o 0\ns OPTIMUM FOUND\nv 1\n");
    let c = check(&f, &out);
    assert_eq!(code(&c), Some(2));
    assert_contains(&stderr(&c), &[&format!("{}:2:1: negative weight", p(&f))]);
}

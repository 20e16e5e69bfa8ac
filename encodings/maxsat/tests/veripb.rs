//! VeriPB proofs of OLL's answers, checked by `veripb` (crates.io; skipped with a note when it
//! is missing, a failure under `GRIM_REQUIRE_REFERENCES=1`): every optimum of seeded random
//! instances under the option sets, and two mutations (a claimed cost one too high, a core
//! literal dropped) that the checker must reject.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use grim_formats::wcnf::{Dialect, write_wcnf};
use grim_maxsat::{Budget, MaxSatStatus, Oll, OllOptions, Options, VeriPbInput, Wcnf};
use grim_testkit::generate::random_wcnf;
use grim_testkit::{SplitMix64 as Rng, maxsat_optimum as brute_force, reference};

/// A `Write` the test keeps a handle on (the optimiser owns the other).
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn veripb(test: &str) -> Option<PathBuf> {
    reference::tool(test, "veripb", "cargo install veripb")
}

fn scratch(name: &str) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "grim-veripb-{}-{}-{name}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Solves `w` with a proof; returns the status, the best cost and the proof's text.
fn prove(w: &Wcnf, options: OllOptions) -> (MaxSatStatus, Option<u64>, String) {
    let out = Shared::default();
    let mut oll = Oll::with_proof(
        w,
        options,
        Box::new(out.clone()),
        VeriPbInput::hard_first(w),
    )
    .unwrap();
    let status = oll.solve(Budget::UNLIMITED, &mut |_| {});
    oll.finish_proof().expect("the proof was written whole");
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    (status, oll.best_cost(), text)
}

/// Runs `veripb --wcnf` on `w` (written hard clauses first) and `proof`: its verdict line
/// (`s VERIFIED …`), or `None` when it rejects.
fn check(veripb: &Path, w: &Wcnf, proof: &str, dir: &Path) -> Option<String> {
    let instance = dir.join("instance.wcnf");
    let mut f = std::fs::File::create(&instance).unwrap();
    write_wcnf(w, Dialect::New, &mut f).unwrap();
    let proof_path = dir.join("proof.pbp");
    std::fs::write(&proof_path, proof).unwrap();
    let out = Command::new(veripb)
        .arg("--wcnf")
        .arg(&instance)
        .arg(&proof_path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    if !out.status.success() {
        return None;
    }
    text.lines()
        .find(|l| l.starts_with("s VERIFIED"))
        .map(str::to_string)
}

fn expected(opt: Option<u64>) -> String {
    match opt {
        Some(c) => format!("s VERIFIED BOUNDS {c} <= obj <= {c}"),
        None => "s VERIFIED BOUNDS INF <= obj <= INF".to_string(),
    }
}

fn option_sets() -> Vec<(&'static str, OllOptions)> {
    let plain = OllOptions::plain;
    vec![
        ("plain", plain()),
        ("defaults", OllOptions::default()),
        (
            "defaults+aggressive",
            OllOptions {
                solver: Options::aggressive(),
                ..OllOptions::default()
            },
        ),
        (
            "stratify+hardening",
            OllOptions {
                stratify: true,
                hardening: true,
                ..plain()
            },
        ),
        (
            "exhaust",
            OllOptions {
                exhaust: true,
                ..plain()
            },
        ),
        (
            "wce+minimize+trim",
            OllOptions {
                wce: true,
                minimize_conflicts: 1000,
                trim: 3,
                ..plain()
            },
        ),
        (
            "up_cores+wce+stratify",
            OllOptions {
                up_cores: true,
                wce: true,
                stratify: true,
                ..plain()
            },
        ),
        (
            "anytime+hardening",
            OllOptions {
                anytime_flips: 100,
                anytime_stall_conflicts: 1,
                hardening: true,
                ..plain()
            },
        ),
    ]
}

#[test]
fn every_optimum_of_random_instances_is_certified_by_veripb_under_every_option_set() {
    let test = "veripb: random instances";
    let Some(veripb) = veripb(test) else { return };
    let dir = scratch("random");
    let mut totalizers = 0;
    let mut unsat = 0;
    let mut runs = 0;
    for (name, options) in option_sets() {
        let mut rng = Rng::new(43);
        for i in 0..20 {
            let vars = 4 + rng.index(9);
            let hard = if i % 10 == 9 {
                8 * vars
            } else {
                rng.index(vars)
            };
            let soft = 8 + rng.index(16);
            let max_weight = if i % 3 == 0 { 1 } else { 9 };
            let w = random_wcnf(&mut rng, vars, hard, soft, max_weight);
            let opt = brute_force(&w);
            let (status, cost, proof) = prove(&w, options.clone());
            match opt {
                Some(c) => assert_eq!(
                    (status, cost),
                    (MaxSatStatus::Optimum, Some(c)),
                    "{name} #{i}"
                ),
                None => {
                    unsat += 1;
                    assert_eq!(status, MaxSatStatus::Unsatisfiable, "{name} #{i}");
                }
            }
            runs += 1;
            if proof.contains(": y") {
                totalizers += 1;
            }
            let verdict = check(&veripb, &w, &proof, &dir);
            assert_eq!(
                verdict,
                Some(expected(opt)),
                "{name} #{i}: veripb on\n{proof}"
            );
        }
    }
    assert!(
        3 * totalizers > runs,
        "only {totalizers} of {runs} proofs defined totalizer outputs"
    );
    assert!(unsat > 0, "no instance had unsatisfiable hard clauses");
    let _ = std::fs::remove_dir_all(dir);
}

/// Hard `x1 ∨ x2` and `x3 ∨ x4`, soft `¬x1`…`¬x4` of weight 1: optimum 2, and each core
/// (`{¬x1, ¬x2}`, `{¬x3, ¬x4}`) is minimal, so a literal dropped from one is not implied.
fn two_cores() -> Wcnf {
    let lit = |d: i64| grim_maxsat::Lit::from_dimacs(d).unwrap();
    Wcnf {
        num_vars: 4,
        hard: vec![vec![lit(1), lit(2)], vec![lit(3), lit(4)]],
        soft: (1..=4).map(|v| (1, vec![lit(-v)])).collect(),
    }
}

#[test]
fn a_proof_claiming_one_more_than_the_optimum_is_rejected() {
    let test = "veripb: cost plus one";
    let Some(veripb) = veripb(test) else { return };
    let dir = scratch("plus-one");
    let w = two_cores();
    let (_, cost, proof) = prove(&w, OllOptions::plain());
    assert_eq!(cost, Some(2));
    assert_eq!(check(&veripb, &w, &proof, &dir), Some(expected(Some(2))));
    let line = proof
        .lines()
        .find(|l| l.starts_with("conclusion BOUNDS"))
        .expect("a conclusion");
    // "conclusion BOUNDS 2 : ID 2;" → "conclusion BOUNDS 3 : ID 3;"
    let fields: Vec<&str> = line.trim_end_matches(';').split(' ').collect();
    assert_eq!(fields.len(), 6, "{line}");
    let wrong = format!(
        "conclusion BOUNDS 3 : {} 3;",
        fields.get(4).copied().unwrap_or("")
    );
    let mutated = proof.replace(line, &wrong);
    assert_ne!(mutated, proof);
    assert_eq!(
        check(&veripb, &w, &mutated, &dir),
        None,
        "veripb accepted optimum 3:\n{mutated}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_proof_with_a_core_literal_dropped_is_rejected() {
    let test = "veripb: core literal dropped";
    let Some(veripb) = veripb(test) else { return };
    let dir = scratch("dropped");
    let w = two_cores();
    let (_, _, proof) = prove(&w, OllOptions::plain());
    let lines: Vec<&str> = proof.lines().collect();
    let mut mutated_any = false;
    for (i, l) in lines.iter().enumerate() {
        if *l != "% core" {
            continue;
        }
        let core = lines[i + 1];
        // "rup 1 a 1 b >= 1;" → "rup 1 b >= 1;"
        let terms: Vec<&str> = core.split(' ').collect();
        if terms.len() < 7 {
            continue;
        }
        let dropped = format!("rup {}", terms[3..].join(" "));
        let mut mutated: Vec<&str> = lines.clone();
        mutated[i + 1] = &dropped;
        let text = mutated.join("\n") + "\n";
        mutated_any = true;
        assert_eq!(
            check(&veripb, &w, &text, &dir),
            None,
            "veripb accepted a core without one literal:\n{text}"
        );
    }
    assert!(mutated_any, "no core of two literals in\n{proof}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_proof_is_written_without_changing_the_answer_and_without_one_nothing_is_written() {
    // The optimiser with and without a proof reaches the same optimum; finish_proof without
    // a proof is a no-op.
    let mut rng = Rng::new(7);
    for _ in 0..20 {
        let w = random_wcnf(&mut rng, 8, 6, 10, 5);
        let mut plain = Oll::new(&w, OllOptions::default()).unwrap();
        let status = plain.solve(Budget::UNLIMITED, &mut |_| {});
        assert!(plain.finish_proof().is_ok());
        let (proved, cost, text) = prove(&w, OllOptions::default());
        assert_eq!((status, plain.best_cost()), (proved, cost));
        assert!(text.starts_with("pseudo-Boolean proof version 3.0\n"));
        assert!(text.ends_with("end pseudo-Boolean proof;\n"), "{text}");
    }
}

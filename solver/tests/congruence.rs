//! Congruence closure (`congruence.rs`): on miters — two copies of one random circuit of AND,
//! XOR and ITE gates over shared inputs, outputs asserted different — and on their satisfiable
//! mutants mixed with random clauses, the answers with congruence on equal those with it off
//! under the aggressive schedule; the closure is asserted to have merged gates; every UNSAT
//! answer's LRAT proof is accepted by the test kit's checker, and the same runs' DRAT proofs by
//! `rate` in strict mode when it is installed.

use std::path::{Path, PathBuf};
use std::process::Command;

use grim_solver::{Budget, Options, ProofFormat, Solver, Stats, Status};
use grim_testkit::generate::dimacs_text;
use grim_testkit::lrat::check_lrat;
use grim_testkit::{SharedSink, SplitMix64, clauses_of};

/// A gate of a random circuit: kind and input signals (signals are DIMACS variables).
#[derive(Clone, Copy)]
enum G {
    And(i64, i64),
    Xor(i64, i64),
    Ite(i64, i64, i64),
}

/// The clauses defining `y` as gate `g`.
fn encode(y: i64, g: G, out: &mut Vec<Vec<i64>>) {
    match g {
        G::And(a, b) => {
            out.push(vec![-y, a]);
            out.push(vec![-y, b]);
            out.push(vec![y, -a, -b]);
        }
        G::Xor(a, b) => {
            out.push(vec![-y, a, b]);
            out.push(vec![-y, -a, -b]);
            out.push(vec![y, -a, b]);
            out.push(vec![y, a, -b]);
        }
        G::Ite(c, t, e) => {
            out.push(vec![-y, -c, t]);
            out.push(vec![-y, c, e]);
            out.push(vec![y, -c, -t]);
            out.push(vec![y, c, -e]);
        }
    }
}

/// A random circuit over `inputs` inputs with `gates` gates, each reading earlier signals
/// (negated at random): the gates, by position.
fn circuit(rng: &mut SplitMix64, inputs: i64, gates: usize) -> Vec<G> {
    let mut v = Vec::new();
    for k in 0..gates {
        let avail = inputs + k as i64;
        let pick = |rng: &mut SplitMix64| {
            let s = 1 + (rng.next_u64() % avail as u64) as i64;
            if rng.next_u64().is_multiple_of(2) {
                s
            } else {
                -s
            }
        };
        let g = match rng.next_u64() % 3 {
            0 => G::And(pick(rng), pick(rng)),
            1 => G::Xor(pick(rng), pick(rng)),
            _ => G::Ite(pick(rng), pick(rng), pick(rng)),
        };
        // Degenerate gates (an input twice) would not be gates of their arity.
        let vars = |g: G| -> Vec<i64> {
            match g {
                G::And(a, b) | G::Xor(a, b) => vec![a.abs(), b.abs()],
                G::Ite(c, t, e) => vec![c.abs(), t.abs(), e.abs()],
            }
        };
        let mut vs = vars(g);
        vs.sort_unstable();
        vs.dedup();
        if vs.len() < vars(g).len() {
            v.push(G::And(1, 2));
        } else {
            v.push(g);
        }
    }
    v
}

/// Two copies of `gates` over the same `inputs` inputs (the second with its own internal
/// variables), their last outputs asserted different; `mutate` replaces one gate of the second
/// copy (the miter may then be satisfiable). The clauses are shuffled.
fn miter(rng: &mut SplitMix64, inputs: i64, gates: &[G], mutate: bool) -> Vec<Vec<i64>> {
    let n = gates.len() as i64;
    let mut f = Vec::new();
    let map2 = |s: i64| -> i64 {
        if s.abs() <= inputs {
            s
        } else {
            s.signum() * (s.abs() + n)
        }
    };
    for (k, &g) in gates.iter().enumerate() {
        let y = inputs + 1 + k as i64;
        encode(y, g, &mut f);
        let g2 = match g {
            G::And(a, b) => G::And(map2(a), map2(b)),
            G::Xor(a, b) => G::Xor(map2(a), map2(b)),
            G::Ite(c, t, e) => G::Ite(map2(c), map2(t), map2(e)),
        };
        let g2 = if mutate && k == gates.len() / 2 {
            match g2 {
                G::And(a, b) => G::Xor(a, b),
                G::Xor(a, b) => G::And(a, b),
                G::Ite(c, t, e) => G::Ite(c, e, t),
            }
        } else {
            g2
        };
        encode(y + n, g2, &mut f);
    }
    let (o1, o2) = (inputs + n, inputs + 2 * n);
    f.push(vec![o1, o2]);
    f.push(vec![-o1, -o2]);
    // Fisher–Yates on the clauses.
    for i in (1..f.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        f.swap(i, j);
    }
    f
}

fn solve(f: &[Vec<i64>], opts: &Options, format: Option<ProofFormat>) -> (Status, Vec<u8>, Stats) {
    let mut s = Solver::with_options(opts.clone());
    let sink = SharedSink::default();
    if let Some(format) = format {
        s.set_proof(Box::new(sink.clone()), format);
        s.reserve_clause_ids(f.len() as u64);
    }
    for c in clauses_of(f) {
        s.add_clause(&c);
    }
    let st = s.solve(&[], Budget::UNLIMITED);
    if format.is_some() {
        s.flush_proof().expect("the proof is complete");
    }
    (st, sink.bytes(), s.stats().clone())
}

/// The aggressive schedule with congruence on or off; elimination off, so that it does not
/// resolve the gates away before the first round (the first round runs before it anyway; later
/// rounds then see the gates too).
fn schedule(congruence: bool) -> Options {
    let mut o = Options::aggressive();
    o.congruence = congruence;
    o.congruence_interval = 2;
    o
}

fn formulas(seed: u64, count: usize) -> Vec<Vec<Vec<i64>>> {
    let mut rng = SplitMix64::new(seed);
    let mut v = Vec::new();
    for k in 0..count {
        let inputs = 4 + (rng.next_u64() % 5) as i64;
        let size = 6 + (rng.next_u64() % 14) as usize;
        let gates = circuit(&mut rng, inputs, size);
        v.push(miter(&mut rng, inputs, &gates, k % 3 == 2));
    }
    v
}

#[test]
fn congruence_gives_the_same_answers_as_without_it_and_merges_the_copies_of_a_miter() {
    let (mut merged, mut unsat, mut sat) = (0u64, 0, 0);
    for (k, f) in formulas(44, 120).iter().enumerate() {
        let (on, _, st) = solve(f, &schedule(true), None);
        let (off, _, _) = solve(f, &schedule(false), None);
        assert_eq!(on, off, "formula {k}: congruence on {on:?}, off {off:?}");
        merged += st.congruence_merged;
        match on {
            Status::Unsat => unsat += 1,
            Status::Sat => sat += 1,
            Status::Unknown => panic!("formula {k}: no budget was set"),
        }
    }
    assert!(
        merged > 100,
        "congruence merged only {merged} pairs over the miters"
    );
    assert!(unsat > 60 && sat > 10, "{unsat} UNSAT and {sat} SAT of 120");
}

#[test]
fn congruence_with_default_options_keeps_every_answer() {
    // The default schedule: the first round before the first search, on formulas whose
    // miters it may solve without a conflict.
    let mut merged = 0;
    for (k, f) in formulas(7, 60).iter().enumerate() {
        let on = Options {
            congruence: true,
            check_model: true,
            ..Options::default()
        };
        let mut off = on.clone();
        off.congruence = false;
        let (a, _, st) = solve(f, &on, None);
        let (b, _, _) = solve(f, &off, None);
        assert_eq!(a, b, "formula {k}");
        merged += st.congruence_merged;
    }
    assert!(merged > 50, "merged {merged}");
}

fn rate_installed() -> bool {
    let ok = Command::new("rate").arg("--version").output().is_ok();
    if !ok && std::env::var("GRIM_REQUIRE_REFERENCES").as_deref() == Ok("1") {
        panic!("rate is not installed but GRIM_REQUIRE_REFERENCES=1");
    }
    ok
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grim-congruence-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn assert_rate_verifies(dir: &Path, name: &str, formula: &[Vec<i64>], proof: &[u8]) {
    let vars = formula
        .iter()
        .flatten()
        .map(|l| l.unsigned_abs())
        .max()
        .unwrap_or(0);
    let cnf = dir.join(format!("{name}.cnf"));
    let prf = dir.join(format!("{name}.drat"));
    std::fs::write(&cnf, dimacs_text(vars as usize, formula)).unwrap();
    std::fs::write(&prf, proof).unwrap();
    let out = Command::new("rate").arg(&cnf).arg(&prf).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.lines().any(|l| l == "s VERIFIED"),
        "rate rejected the DRAT proof of {name}: {stdout}"
    );
}

#[test]
fn congruence_proofs_check_as_lrat_and_as_drat_where_it_merged() {
    let rate = rate_installed();
    if !rate {
        grim_testkit::reference::skip(
            "congruence_proofs_check_as_lrat_and_as_drat_where_it_merged",
            "the DRAT half (the LRAT half still runs): rate is not installed (cargo install rate)",
        );
    }
    let dir = temp_dir("proofs");
    let (mut checked, mut fired) = (0, 0);
    for (k, f) in formulas(45, 90).iter().enumerate() {
        let (st, lrat, stats) = solve(f, &schedule(true), Some(ProofFormat::LratText));
        if st != Status::Unsat {
            continue;
        }
        check_lrat(f, &lrat).unwrap_or_else(|e| panic!("formula {k}: LRAT rejected: {e}"));
        checked += 1;
        if stats.congruence_merged > 0 {
            fired += 1;
        }
        let (st2, drat, stats2) = solve(f, &schedule(true), Some(ProofFormat::Text));
        assert_eq!(st2, Status::Unsat);
        assert_eq!(
            stats2.congruence_merged, stats.congruence_merged,
            "formula {k}"
        );
        if rate {
            assert_rate_verifies(&dir, &format!("m{k}"), f, &drat);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        checked > 40 && fired > 30,
        "{checked} UNSAT proofs checked, congruence merged in {fired}"
    );
}

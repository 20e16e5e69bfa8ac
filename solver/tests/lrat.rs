//! LRAT proofs: every UNSAT answer's proof — on the corpus's UNSAT instances and on random small
//! formulas under the aggressive schedule with every inprocessing technique forced — is
//! accepted by the test kit's LRAT checker (`grim_testkit::lrat`, written from the format's
//! definition, independent of the engine); each technique is asserted to have fired in those
//! runs; the same runs with a DRAT proof instead (the search is the same: asserted from the
//! statistics) are verified by `rate` when it is installed, so two independent paths agree;
//! corrupted proofs (a hint dropped, a literal flipped) are rejected; and the proofs that
//! cannot be written say so instead of being written broken.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

use grim_solver::{Budget, Options, ProofFormat, Solver, Stats, Status, Var};
use grim_testkit::generate::{dimacs_text, pigeonhole, random_ksat};
use grim_testkit::lrat::{check_lrat, read_cnf};
use grim_testkit::propagator::{HiddenClauses, Reveal};
use grim_testkit::{SharedSink, SplitMix64, clauses_of};

/// Solves `formula` with a proof in `format` (the original clauses' identifiers reserved, as
/// a reader that knows the clause count does); the status, the proof, the statistics.
fn solve(formula: &[Vec<i64>], opts: &Options, format: ProofFormat) -> (Status, Vec<u8>, Stats) {
    let mut s = Solver::with_options(opts.clone());
    let sink = SharedSink::default();
    s.set_proof(Box::new(sink.clone()), format);
    s.reserve_clause_ids(formula.len() as u64);
    for c in clauses_of(formula) {
        s.add_clause(&c);
    }
    let st = s.solve(&[], Budget::UNLIMITED);
    s.flush_proof().expect("the proof is complete");
    (st, sink.bytes(), s.stats().clone())
}

/// The schedule that fires every technique on small instances: the aggressive test schedule,
/// each inprocessing round at every chance, ITE/XOR gates, irredundant vivification, every
/// backjump chronological (as `benches/proof-check.sh` forces them on real instances).
fn forced() -> Options {
    let mut o = Options::aggressive();
    o.probe_interval = 1;
    o.substitute_interval = 1;
    o.transred_interval = 1;
    o.subsume_interval = 1;
    o.eliminate_interval = 2;
    o.eliminate_gates_ite_xor = true;
    o.vivify_irredundant_share = 0.3;
    o.shrink = true;
    o
}

/// The same schedule with elimination off, so that probing and substitution see the planted
/// cycles before elimination resolves them away.
fn forced_no_elimination() -> Options {
    let mut o = forced();
    o.eliminate = false;
    o
}

/// The first `count` unsatisfiable random 3-SAT formulas of `vars` variables and `clauses`
/// clauses drawn from `seed`.
fn random_unsat(seed: u64, vars: u64, clauses: usize, count: usize) -> Vec<Vec<Vec<i64>>> {
    let mut rng = SplitMix64::new(seed);
    let mut v = Vec::new();
    while v.len() < count {
        let f = random_ksat(&mut rng, vars, clauses, 3);
        let mut s = Solver::new();
        for c in clauses_of(&f) {
            s.add_clause(&c);
        }
        if s.solve(&[], Budget::UNLIMITED) == Status::Unsat {
            v.push(f);
        }
    }
    v
}

/// Random 3-SAT with planted cycles of binary implications and extra binaries (failed
/// literals, hyper-binary resolvents, equivalences for substitution, transitive binaries),
/// kept when unsatisfiable.
fn binary_rich_unsat(seed: u64, count: usize) -> Vec<Vec<Vec<i64>>> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let n = 24u64;
        let mut f = random_ksat(&mut rng, n, 60, 3);
        let lit = |rng: &mut SplitMix64| {
            let v = rng.below(n) as i64 + 1;
            if rng.coin() { v } else { -v }
        };
        for _ in 0..4 {
            let ring: Vec<i64> = (0..3).map(|_| lit(&mut rng)).collect();
            for i in 0..3 {
                f.push(vec![-ring[i], ring[(i + 1) % 3]]);
            }
        }
        for _ in 0..14 {
            f.push(vec![lit(&mut rng), lit(&mut rng)]);
        }
        let mut s = Solver::new();
        for c in clauses_of(&f) {
            s.add_clause(&c);
        }
        if s.solve(&[], Budget::UNLIMITED) == Status::Unsat {
            out.push(f);
        }
    }
    out
}

/// Overdetermined random systems of 3-variable parity constraints (4 clauses each), with a
/// few AND gates over their variables, kept when unsatisfiable: elimination finds XOR, AND and
/// (through the AND gates' shared inputs) ITE definitions in them.
fn parity_unsat(seed: u64, count: usize) -> Vec<Vec<Vec<i64>>> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let n = 18u64;
        let mut f: Vec<Vec<i64>> = Vec::new();
        for _ in 0..n + 4 {
            let mut vars: Vec<i64> = Vec::new();
            while vars.len() < 3 {
                let v = rng.below(n) as i64 + 1;
                if !vars.contains(&v) {
                    vars.push(v);
                }
            }
            let parity = rng.coin();
            // Every sign pattern with the wrong parity is excluded by one clause.
            for mask in 0..8u32 {
                if (mask.count_ones() % 2 == 1) == parity {
                    let c = (0..3)
                        .map(|i| {
                            if mask >> i & 1 == 1 {
                                -vars[i]
                            } else {
                                vars[i]
                            }
                        })
                        .collect();
                    f.push(c);
                }
            }
        }
        for k in 0..3 {
            // A fresh output a = b ∧ c over two constrained variables, used by a clause.
            let a = n as i64 + 1 + k;
            let (b, c) = (rng.below(n) as i64 + 1, rng.below(n) as i64 + 1);
            f.extend([vec![-a, b], vec![-a, c], vec![a, -b, -c], vec![a, -b]]);
        }
        let mut s = Solver::new();
        for c in clauses_of(&f) {
            s.add_clause(&c);
        }
        if s.solve(&[], Budget::UNLIMITED) == Status::Unsat {
            out.push(f);
        }
    }
    out
}

/// The instances of the random part, each with the schedule it runs under.
fn random_runs() -> Vec<(String, Vec<Vec<i64>>, Options)> {
    let mut runs = Vec::new();
    for (k, f) in random_unsat(0x1a7, 40, 180, 10).into_iter().enumerate() {
        runs.push((format!("r3sat-{k}"), f, forced()));
    }
    for (k, f) in binary_rich_unsat(0xb1a7, 12).into_iter().enumerate() {
        runs.push((format!("binary-rich-{k}"), f, forced_no_elimination()));
    }
    for (k, f) in parity_unsat(0x0dd, 6).into_iter().enumerate() {
        runs.push((format!("parity-{k}"), f, forced()));
    }
    for (p, h) in [(6, 5), (7, 6)] {
        // Factoring re-encodes every hole's at-most-one through extension variables.
        let mut o = forced();
        o.lucky = false;
        runs.push((format!("php-{p}-{h}"), pigeonhole(p, h), o));
    }
    runs
}

fn add(total: &mut Stats, s: &Stats) {
    macro_rules! sum {
        ($($f:ident),*) => { $( total.$f += s.$f; )* };
    }
    sum!(
        conflicts,
        learned,
        learned_units,
        minimized_literals,
        shrunken_literals,
        chrono_backtracks,
        chrono_implied,
        vivified,
        vivified_irredundant,
        eliminated,
        gates,
        gates_xor,
        gates_ite,
        resolvents,
        subsumed,
        failed_literals,
        hbr,
        hbr_subsuming,
        substituted,
        transred_removed,
        transred_failed,
        subsumed_in_search,
        strengthened,
        factor_vars,
        deleted,
        simplified
    );
}

fn rate_installed() -> bool {
    let ok = Command::new("rate").arg("--version").output().is_ok();
    if !ok && std::env::var("GRIM_REQUIRE_REFERENCES").as_deref() == Ok("1") {
        panic!("rate is not installed but GRIM_REQUIRE_REFERENCES=1");
    }
    ok
}

/// Asks `rate` (strict) to verify the DRAT `proof` of `formula`; panics with its output
/// unless it says `s VERIFIED`.
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

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grim-lrat-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_lrat_proof_of_random_unsat_formulas_under_every_technique_is_accepted_and_agrees_with_rate()
 {
    let rate = rate_installed();
    let dir = temp_dir("random");
    let mut total = Stats::default();
    let mut rat = 0;
    for (k, (name, f, opts)) in random_runs().into_iter().enumerate() {
        // Text for some, binary for the others: both encodings see every technique.
        let format = if k % 2 == 0 {
            ProofFormat::LratText
        } else {
            ProofFormat::LratBinary
        };
        let (st, proof, stats) = solve(&f, &opts, format);
        assert_eq!(st, Status::Unsat, "{name}");
        let summary = check_lrat(&f, &proof).unwrap_or_else(|e| panic!("{name}: {e}"));
        rat += summary.rat;
        add(&mut total, &stats);
        // The DRAT route: the same run (the same search, decision for decision) checked by
        // `rate`.
        let (st, drat, drat_stats) = solve(&f, &opts, ProofFormat::Binary);
        assert_eq!(st, Status::Unsat);
        assert_eq!(
            (stats.conflicts, stats.propagations, stats.learned_literals),
            (
                drat_stats.conflicts,
                drat_stats.propagations,
                drat_stats.learned_literals
            ),
            "{name}: the DRAT run searched differently"
        );
        if rate {
            assert_rate_verifies(&dir, &name, &f, &drat);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    // Every technique that adds, strengthens or deletes clauses took part in the proofs.
    grim_testkit::assert_above!(total =>
        learned > 1000, minimized_literals > 0, shrunken_literals > 0, chrono_backtracks > 0,
        chrono_implied > 0, vivified > 0, vivified_irredundant > 0, eliminated > 0, gates > 0,
        gates_xor > 0, resolvents > 0, failed_literals > 0, hbr > 0, hbr_subsuming > 0, substituted > 0, transred_removed > 0,
        subsumed_in_search > 0, strengthened > 0, factor_vars > 0, deleted > 0, learned_units > 0
    );
    assert!(
        rat > 0,
        "no RAT step (factoring's extension clauses) was checked"
    );
}

/// The corpus's UNSAT instances (`instances/MANIFEST`).
fn corpus_unsat() -> Vec<(String, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../instances");
    let manifest = std::fs::read_to_string(dir.join("MANIFEST")).expect("instances/MANIFEST");
    manifest
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
            [path, "UNSAT"] => Some((path.to_string(), dir.join(path))),
            _ => None,
        })
        .collect()
}

#[test]
fn every_lrat_proof_of_the_corpus_unsat_instances_is_accepted_and_agrees_with_rate() {
    let rate = rate_installed();
    let dir = temp_dir("corpus");
    let mut checked = 0;
    for (name, path) in corpus_unsat() {
        let f = read_cnf(&path).unwrap_or_else(|e| panic!("{e}"));
        for (opts, format) in [
            (Options::aggressive(), ProofFormat::LratBinary),
            (forced(), ProofFormat::LratText),
        ] {
            let (st, proof, stats) = solve(&f, &opts, format);
            assert_eq!(st, Status::Unsat, "{name}");
            check_lrat(&f, &proof).unwrap_or_else(|e| panic!("{name} ({format:?}): {e}"));
            let (_, drat, drat_stats) = solve(&f, &opts, ProofFormat::Binary);
            assert_eq!(stats.conflicts, drat_stats.conflicts, "{name}");
            if rate {
                let tag = name.replace('/', "_");
                assert_rate_verifies(&dir, &format!("{tag}-{format:?}"), &f, &drat);
            }
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked >= 40, "{checked} corpus proofs");
}

/// The lines of a text LRAT proof.
fn lines(proof: &[u8]) -> Vec<String> {
    String::from_utf8(proof.to_vec())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// `line` (an addition) with its `k`-th hint dropped, or its first literal negated.
fn mutate(line: &str, drop_hint: Option<usize>, flip: bool) -> String {
    let ints: Vec<i64> = line
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let zero = 1 + ints[1..].iter().position(|&x| x == 0).unwrap();
    let (mut lits, hints) = (ints[1..zero].to_vec(), &ints[zero + 1..ints.len() - 1]);
    let mut hints = hints.to_vec();
    if let Some(k) = drop_hint {
        hints.remove(k);
    }
    if flip {
        lits[0] = -lits[0];
    }
    let mut out = vec![ints[0]];
    out.extend(lits);
    out.push(0);
    out.extend(hints);
    out.push(0);
    out.iter().map(i64::to_string).collect::<Vec<_>>().join(" ")
}

#[test]
fn a_corrupted_lrat_proof_is_rejected_a_hint_dropped_or_a_literal_flipped() {
    let f = pigeonhole(6, 5);
    let mut o = forced();
    o.lucky = false;
    let (st, proof, _) = solve(&f, &o, ProofFormat::LratText);
    assert_eq!(st, Status::Unsat);
    check_lrat(&f, &proof).expect("the proof as written is valid");
    let text = lines(&proof);
    // The additions with at least two literals and two hints, none of them RAT steps.
    let candidates: Vec<usize> = text
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.contains(" d "))
        .filter(|(_, l)| {
            let ints: Vec<i64> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
            let zero = 1 + ints[1..].iter().position(|&x| x == 0).unwrap();
            zero >= 3 && ints.len() - zero >= 4 && ints[zero..].iter().all(|&h| h >= 0)
        })
        .map(|(i, _)| i)
        .collect();
    assert!(
        candidates.len() > 50,
        "{} candidate lines",
        candidates.len()
    );
    let mut rng = SplitMix64::new(43);
    let mut rejected = 0;
    for trial in 0..40 {
        let i = candidates[rng.below(candidates.len() as u64) as usize];
        let mut corrupt = text.clone();
        let hints = text[i].split_whitespace().count()
            - 3
            - text[i]
                .split_whitespace()
                .skip(1)
                .position(|t| t == "0")
                .unwrap();
        corrupt[i] = if trial % 2 == 0 {
            mutate(&text[i], Some(rng.below(hints as u64) as usize), false)
        } else {
            mutate(&text[i], None, true)
        };
        let bytes = (corrupt.join("\n") + "\n").into_bytes();
        let verdict = check_lrat(&f, &bytes);
        assert!(
            verdict.is_err(),
            "the checker accepted line {i} corrupted from `{}` to `{}`",
            text[i],
            corrupt[i]
        );
        rejected += 1;
    }
    assert_eq!(rejected, 40);
}

#[test]
fn the_same_input_gives_the_same_lrat_bytes() {
    for f in random_unsat(7, 40, 180, 2) {
        let (_, a, _) = solve(&f, &forced(), ProofFormat::LratBinary);
        let (_, b, _) = solve(&f, &forced(), ProofFormat::LratBinary);
        assert_eq!(a, b);
    }
}

#[test]
fn a_binary_lrat_proof_encodes_the_same_steps_as_the_text_one() {
    let f = pigeonhole(6, 5);
    let (_, text, _) = solve(&f, &forced(), ProofFormat::LratText);
    let (_, bin, _) = solve(&f, &forced(), ProofFormat::LratBinary);
    // Decode the binary proof into the text form (deletion lines open with the last added
    // identifier, as the text writer's do).
    let mut out = String::new();
    let mut i = 0;
    let mut last = f.len() as i64;
    let next = |i: &mut usize| -> i64 {
        let (mut x, mut shift) = (0u64, 0);
        loop {
            let b = bin[*i];
            *i += 1;
            x |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
        let m = (x >> 1) as i64;
        if x & 1 == 1 { -m } else { m }
    };
    while i < bin.len() {
        let tag = bin[i];
        i += 1;
        let mut fields: Vec<String> = Vec::new();
        if tag == b'a' {
            last = next(&mut i);
            fields.push(last.to_string());
            for _ in 0..2 {
                loop {
                    let x = next(&mut i);
                    fields.push(x.to_string());
                    if x == 0 {
                        break;
                    }
                }
            }
        } else {
            assert_eq!(tag, b'd');
            fields.push(format!("{last} d"));
            loop {
                let x = next(&mut i);
                fields.push(x.to_string());
                if x == 0 {
                    break;
                }
            }
        }
        out.push_str(&fields.join(" "));
        out.push('\n');
    }
    assert_eq!(out, String::from_utf8(text).unwrap());
}

#[test]
fn eliminated_clauses_restored_by_a_later_assumption_keep_their_identifiers() {
    // The first call eliminates variables and stops at its budget; the second assumes an
    // eliminated variable, which restores every eliminated clause; the third refutes the
    // formula. The proof spans all three, and the restored clauses are named by the
    // identifiers they had (the proof never deleted them).
    let mut checked = 0;
    for f in random_unsat(0xe1, 50, 215, 6) {
        let mut s = Solver::with_options(forced());
        let sink = SharedSink::default();
        s.set_proof(Box::new(sink.clone()), ProofFormat::LratText);
        s.reserve_clause_ids(f.len() as u64);
        for c in clauses_of(&f) {
            s.add_clause(&c);
        }
        if s.solve(&[], Budget::conflicts(20)) != Status::Unknown {
            continue;
        }
        // Assume variables in turn until one was eliminated (its clauses come back).
        let mut restored = false;
        for v in 0..50 {
            let x = Var::new(v).unwrap().pos();
            if s.fixed(x).is_some() {
                continue;
            }
            let before = s.stats().restored;
            let _ = s.solve(&[x], Budget::conflicts(50));
            if s.stats().restored > before {
                restored = true;
                break;
            }
        }
        assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Unsat);
        s.flush_proof().unwrap();
        check_lrat(&f, &sink.bytes()).unwrap_or_else(|e| panic!("{e}"));
        checked += usize::from(restored);
    }
    assert!(checked > 0, "no run restored eliminated clauses");
}

#[test]
fn an_lrat_proof_that_cannot_be_written_says_so_instead_of_being_written_broken() {
    let f = pigeonhole(5, 4);
    // Set after the first clause: the original clauses' identifiers are unknown.
    let mut s = Solver::new();
    let sink = SharedSink::default();
    s.add_clause(&clauses_of(&f)[0]);
    s.set_proof(Box::new(sink.clone()), ProofFormat::LratText);
    let err = s.flush_proof().unwrap_err().to_string();
    assert!(err.contains("before the first clause"), "{err}");
    // Original clauses after derived ones took their identifiers (no reservation).
    let mut s = Solver::new();
    s.set_proof(Box::new(SharedSink::default()), ProofFormat::LratText);
    s.add_clause(&clauses_of(&[vec![1]])[0]);
    s.add_clause(&clauses_of(&[vec![-1, 2, 3]])[0]);
    s.add_clause(&clauses_of(&[vec![-2]])[0]);
    let err = s.flush_proof().unwrap_err().to_string();
    assert!(err.contains("reserve"), "{err}");
    // An external propagator's clauses are axioms LRAT cannot state.
    let lits = clauses_of(&f);
    let (visible, hidden) = lits.split_at(lits.len() / 2);
    let mut s = Solver::new();
    s.set_proof(Box::new(SharedSink::default()), ProofFormat::LratBinary);
    s.reserve_clause_ids(visible.len() as u64);
    for c in visible {
        s.add_clause(c);
    }
    s.connect_propagator(Box::new(HiddenClauses::new(
        20,
        Arc::new(Mutex::new(hidden.to_vec())),
        Reveal::Lazy,
        Arc::default(),
    )));
    assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Unsat);
    let err = s.flush_proof().unwrap_err().to_string();
    assert!(err.contains("external propagator"), "{err}");
    // Factoring undone: a new user variable claims an extension variable's index.
    let mut s = Solver::new();
    s.set_proof(Box::new(SharedSink::default()), ProofFormat::LratText);
    let php = pigeonhole(7, 6);
    s.reserve_clause_ids(php.len() as u64);
    for c in clauses_of(&php) {
        s.add_clause(&c);
    }
    let _ = s.solve(&[], Budget::conflicts(10));
    assert!(s.stats().factor_vars > 0);
    s.new_var();
    let err = s.flush_proof().unwrap_err().to_string();
    assert!(err.contains("factoring was undone"), "{err}");
}

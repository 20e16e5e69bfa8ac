//! DRAT proofs: every UNSAT answer's proof is checked by a small forward RUP checker written
//! here (independent of the engine: naive unit propagation over clause lists), and by `rate`
//! in strict mode when it is installed (`cargo install rate`).

use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};

use grim_solver::{Budget, Lit, Options, ProofFormat, Solver, Stats, Status, Var};
use grim_testkit::generate::{dimacs_text, pigeonhole, random_ksat};
use grim_testkit::propagator::{HiddenClauses, Reveal};
use grim_testkit::{SharedSink, SplitMix64, clauses_of, dimacs, unit_propagate};

fn solve_with_proof(clauses: &[Vec<i64>], opts: Options, format: ProofFormat) -> (Status, Vec<u8>) {
    let mut s = Solver::with_options(opts);
    let sink = SharedSink::default();
    s.set_proof(Box::new(sink.clone()), format);
    add_dimacs(&mut s, clauses);
    let st = s.solve(&[], Budget::UNLIMITED);
    s.flush_proof().unwrap();
    let bytes = sink.bytes();
    (st, bytes)
}

/// Whether unit propagation on `db` plus the negation of `lemma` reaches a conflict (the
/// testkit's naive propagator; a tautology conflicts at once).
fn rup(db: &[Vec<Lit>], lemma: &[Lit]) -> bool {
    let negated: Vec<Lit> = lemma.iter().map(|&l| !l).collect();
    unit_propagate(db, 0, &negated).is_none()
}

/// The clauses of `formula` given to `s`.
fn add_dimacs(s: &mut Solver, formula: &[Vec<i64>]) {
    for c in clauses_of(formula) {
        s.add_clause(&c);
    }
}

/// Asks `rate` (strict by default) to verify `proof` of `formula` over `num_vars` variables,
/// written to `dir` as `name.cnf` and `name.drat`; panics with its output unless it says
/// `s VERIFIED`.
fn assert_rate_verifies(
    dir: &Path,
    name: &str,
    num_vars: usize,
    formula: &[Vec<i64>],
    proof: &[u8],
) {
    let cnf = dir.join(format!("{name}.cnf"));
    let prf = dir.join(format!("{name}.drat"));
    std::fs::write(&cnf, dimacs_text(num_vars, formula)).unwrap();
    std::fs::write(&prf, proof).unwrap();
    let out = Command::new("rate").arg(&cnf).arg(&prf).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.lines().any(|l| l == "s VERIFIED"),
        "rate rejected the proof {name}: {stdout}"
    );
}

/// Whether `lemma` is RAT on its first literal `p` in `db`: every resolvent with a clause
/// holding `¬p` is RUP (DRAT's rule; factoring's extension clauses need it, `factor.rs`).
fn rat(db: &[Vec<Lit>], lemma: &[Lit]) -> bool {
    let Some(&p) = lemma.first() else {
        return false;
    };
    db.iter().filter(|c| c.contains(&!p)).all(|c| {
        let mut r: Vec<Lit> = lemma.to_vec();
        r.extend(c.iter().copied().filter(|&l| l != !p));
        rup(db, &r)
    })
}

/// Forward-checks a text DRAT proof: every lemma must be RUP or RAT on its first literal,
/// deletions must name an existing clause, and the empty clause must be derived.
fn check_text_proof(formula: &[Vec<i64>], proof: &[u8]) -> Result<usize, String> {
    // Clauses as sets: a duplicated literal must not count twice in unit propagation.
    let mut db: Vec<Vec<Lit>> = clauses_of(formula)
        .into_iter()
        .map(|mut c| {
            c.sort();
            c.dedup();
            c
        })
        .collect();
    let text = String::from_utf8(proof.to_vec()).map_err(|e| e.to_string())?;
    let mut lemmas = 0;
    for line in text.lines() {
        let (delete, rest) = match line.strip_prefix("d ") {
            Some(r) => (true, r),
            None => (false, line),
        };
        let mut ints: Vec<i64> = rest
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(ints.pop(), Some(0), "proof line without final 0: {line}");
        let lits: Vec<Lit> = ints.iter().map(|&d| dimacs(d)).collect();
        if delete {
            let mut key = lits.clone();
            key.sort();
            let pos = db
                .iter()
                .position(|c| {
                    let mut k = c.clone();
                    k.sort();
                    k == key
                })
                .ok_or(format!("deletion of a clause not in the database: {line}"))?;
            db.remove(pos);
        } else {
            if !rup(&db, &lits) && !rat(&db, &lits) {
                return Err(format!("lemma {lemmas} is neither RUP nor RAT: {line}"));
            }
            lemmas += 1;
            if lits.is_empty() {
                return Ok(lemmas);
            }
            db.push(lits);
        }
    }
    Err("the proof never derives the empty clause".into())
}

fn unsat_instances() -> Vec<Vec<Vec<i64>>> {
    let mut v = vec![pigeonhole(5, 4), pigeonhole(6, 5)];
    v.extend(random_unsat(99, 30, 160, 10));
    v
}

/// The first `count` unsatisfiable random 3-SAT formulas of `vars` variables and `clauses`
/// clauses drawn from `seed`.
fn random_unsat(seed: u64, vars: u64, clauses: usize, count: usize) -> Vec<Vec<Vec<i64>>> {
    let mut rng = SplitMix64::new(seed);
    let mut v = Vec::new();
    while v.len() < count {
        let f = random_ksat(&mut rng, vars, clauses, 3);
        let mut s = Solver::new();
        add_dimacs(&mut s, &f);
        if s.solve(&[], Budget::UNLIMITED) == Status::Unsat {
            v.push(f);
        }
    }
    v
}

#[test]
fn every_unsat_proof_is_accepted_by_an_independent_rup_checker() {
    let mut checked = 0;
    for opts in [Options::default(), Options::aggressive()] {
        for f in unsat_instances() {
            let (st, proof) = solve_with_proof(&f, opts.clone(), ProofFormat::Text);
            assert_eq!(st, Status::Unsat);
            let lemmas = check_text_proof(&f, &proof).unwrap_or_else(|e| panic!("{e}"));
            assert!(lemmas > 0);
            checked += 1;
        }
    }
    assert_eq!(checked, 24);
}

#[test]
fn a_binary_proof_encodes_the_same_clauses_as_the_text_proof() {
    let f = pigeonhole(6, 5);
    let (_, text) = solve_with_proof(&f, Options::default(), ProofFormat::Text);
    let (_, bin) = solve_with_proof(&f, Options::default(), ProofFormat::Binary);
    // Decode the binary proof into text and compare.
    let mut out = String::new();
    let mut i = 0;
    while i < bin.len() {
        let tag = bin[i];
        i += 1;
        if tag == b'd' {
            out.push_str("d ");
        } else {
            assert_eq!(tag, b'a');
        }
        loop {
            let mut x: u64 = 0;
            let mut shift = 0;
            loop {
                let b = bin[i];
                i += 1;
                x |= ((b & 0x7f) as u64) << shift;
                shift += 7;
                if b & 0x80 == 0 {
                    break;
                }
            }
            if x == 0 {
                out.push_str("0\n");
                break;
            }
            let v = (x >> 1) as i64;
            out.push_str(&format!("{} ", if x & 1 == 1 { -v } else { v }));
        }
    }
    assert_eq!(out, String::from_utf8(text).unwrap());
}

#[test]
fn proofs_of_unsat_instances_verify_with_rate_in_strict_mode() {
    if Command::new("rate").arg("--version").output().is_err() {
        grim_testkit::reference::skip(
            "proofs_of_unsat_instances_verify_with_rate_in_strict_mode",
            "rate is not installed (cargo install rate)",
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("grim-proof-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (k, f) in unsat_instances().iter().enumerate().take(6) {
        for format in [ProofFormat::Text, ProofFormat::Binary] {
            let (st, proof) = solve_with_proof(f, Options::aggressive(), format);
            assert_eq!(st, Status::Unsat);
            let vars = f
                .iter()
                .flatten()
                .map(|l| l.unsigned_abs())
                .max()
                .unwrap_or(0);
            assert_rate_verifies(&dir, &format!("f{k}-{format:?}"), vars as usize, f, &proof);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_proof_line_is_written_for_a_satisfiable_instance_beyond_learned_clauses() {
    let mut s = Solver::new();
    let sink = SharedSink::default();
    s.set_proof(Box::new(sink.clone()), ProofFormat::Text);
    let a = Var::new(0).unwrap();
    s.add_clause(&[a.pos()]);
    assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Sat);
    s.flush_proof().unwrap();
    assert!(
        sink.bytes().is_empty(),
        "a trivial SAT instance needs no lemma"
    );
}

#[test]
fn a_proof_with_a_propagator_checks_against_the_formula_plus_its_clause_log() {
    let mut checked = 0;
    for (k, f) in unsat_instances().into_iter().enumerate() {
        let lits = clauses_of(&f);
        let vars = f.iter().flatten().map(|d| d.unsigned_abs()).max().unwrap() as u32;
        let split = lits.len() / 2 + k % 5;
        let (visible, hidden) = lits.split_at(split);
        for opts in [Options::default(), Options::aggressive()] {
            let mut s = Solver::with_options(opts);
            let proof = SharedSink::default();
            s.set_proof(Box::new(proof.clone()), ProofFormat::Text);
            s.reserve_vars(vars as usize);
            for c in visible {
                s.add_clause(c);
            }
            // Unit clauses as lazy propagations (asked for eagerly when a proof is written),
            // falsified ones as learned conflicts.
            let hidden = Arc::new(Mutex::new(hidden.to_vec()));
            s.connect_propagator(Box::new(HiddenClauses::new(
                vars,
                hidden,
                Reveal::Lazy,
                Arc::default(),
            )));
            let log = SharedSink::default();
            s.set_external_clause_log(Box::new(log.clone()));
            assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Unsat);
            s.flush_proof().unwrap();
            assert!(s.stats().external_reasons > 0 || s.stats().external_clauses > 0);
            // The formula the proof is about: the visible clauses plus the logged ones.
            let mut formula: Vec<Vec<i64>> = f[..split].to_vec();
            let text = String::from_utf8(log.bytes()).unwrap();
            for line in text.lines() {
                let mut c: Vec<i64> = line
                    .split_whitespace()
                    .map(|t| t.parse().unwrap())
                    .collect();
                assert_eq!(c.pop(), Some(0));
                formula.push(c);
            }
            let bytes = proof.bytes();
            check_text_proof(&formula, &bytes).unwrap_or_else(|e| panic!("instance {k}: {e}"));
            checked += 1;
        }
    }
    assert_eq!(checked, 24);
}

/// Unsatisfiable CNFs rich in binary clauses, with planted cycles of binary implications, so
/// that probing (failed literals, hyper-binary resolvents) and equivalent-literal substitution
/// have work to do, and the formula is not refuted by either alone.
fn binary_rich_unsat(count: usize) -> Vec<Vec<Vec<i64>>> {
    let mut rng = SplitMix64::new(0xb1a7);
    let mut out = Vec::new();
    // At least `count`, and on until hyper-binary resolution and substitution have each fired
    // on a kept instance (a bounded search: the test's assertion reports a failure to find).
    let (mut hbr, mut substituted, mut tries) = (false, false, 0);
    while (out.len() < count || !(hbr && substituted)) && tries < 100 * count {
        tries += 1;
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
        // Kept when UNSAT and some technique other than failed literals fires on it.
        let mut s = Solver::with_options(inprocessing_forced());
        add_dimacs(&mut s, &f);
        let st = s.solve(&[], Budget::UNLIMITED);
        let fired = s.stats().substituted
            + s.stats().hbr
            + s.stats().hbr_subsuming
            + s.stats().strengthened;
        if st == Status::Unsat && fired > 0 {
            hbr |= s.stats().hbr + s.stats().hbr_subsuming > 0;
            substituted |= s.stats().substituted > 0;
            out.push(f);
        }
    }
    out
}

/// The schedule that runs probing and substitution at every chance (elimination off, so
/// that it does not remove the planted cycles first).
fn inprocessing_forced() -> Options {
    let mut opts = Options::aggressive();
    opts.probe_interval = 1;
    opts.substitute_interval = 1;
    opts.transred_interval = 1;
    opts.subsume_interval = 1;
    opts.eliminate = false;
    opts
}

#[test]
fn proofs_stay_valid_through_probing_hyper_binary_resolution_substitution_transitive_reduction_and_subsumption()
 {
    let opts = inprocessing_forced();
    let rate = Command::new("rate").arg("--version").output().is_ok();
    let dir = std::env::temp_dir().join(format!("grim-inproc-proof-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut substituted, mut failed, mut hbr, mut subsumed, mut transred) = (0, 0, 0, 0, 0);
    let instances = binary_rich_unsat(12);
    for (k, f) in instances.iter().enumerate() {
        let mut s = Solver::with_options(opts.clone());
        let sink = SharedSink::default();
        s.set_proof(Box::new(sink.clone()), ProofFormat::Text);
        add_dimacs(&mut s, f);
        assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Unsat);
        s.flush_proof().unwrap();
        let st = s.stats();
        substituted += st.substituted;
        failed += st.failed_literals;
        hbr += st.hbr + st.hbr_subsuming;
        subsumed += st.subsumed_in_search + st.strengthened;
        transred += st.transred_removed;
        let proof = sink.bytes();
        check_text_proof(f, &proof).unwrap_or_else(|e| panic!("instance {k}: {e}"));
        if rate {
            assert_rate_verifies(&dir, &format!("b{k}"), 24, f, &proof);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        substituted > 0 && failed > 0 && hbr > 0 && subsumed > 0 && transred > 0,
        "substituted {substituted}, failed {failed}, hbr {hbr}, subsumed/strengthened \
         {subsumed}, transitive binaries removed {transred}"
    );
}

#[test]
fn proofs_stay_valid_through_factoring_with_its_rat_extension_clauses() {
    // Pigeonholes: factoring re-encodes every hole's pairwise at-most-one (`factor.rs`), and
    // its `x ∨ C'` / `¬x ∨ l` clauses are RAT, not RUP, so both checkers see real extension
    // steps. Checked by the RUP/RAT checker here and by `rate` in strict mode when installed.
    let rate = Command::new("rate").arg("--version").output().is_ok();
    if !rate {
        grim_testkit::reference::skip(
            "proofs_stay_valid_through_factoring_with_its_rat_extension_clauses",
            "the rate check (the built-in RUP/RAT check still runs): rate is not installed \
             (cargo install rate)",
        );
    }
    let dir = std::env::temp_dir().join(format!("grim-factor-proof-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut extension = 0;
    for (k, (p, h)) in [(5, 4), (6, 5), (7, 6)].into_iter().enumerate() {
        let f = pigeonhole(p, h);
        let mut s = Solver::with_options(Options {
            lucky: false,
            ..Options::default()
        });
        let sink = SharedSink::default();
        s.set_proof(Box::new(sink.clone()), ProofFormat::Text);
        add_dimacs(&mut s, &f);
        assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Unsat);
        s.flush_proof().unwrap();
        assert!(s.stats().factor_vars > 0, "no factoring on PHP({p},{h})");
        extension += s.stats().factor_vars;
        let proof = sink.bytes();
        let text = String::from_utf8(proof.clone()).unwrap();
        let top = (p * h) as i64;
        assert!(
            text.split_whitespace()
                .filter_map(|t| t.parse::<i64>().ok())
                .any(|d| d.abs() > top),
            "the proof names an extension variable above the input's {top}"
        );
        check_text_proof(&f, &proof).unwrap_or_else(|e| panic!("PHP({p},{h}): {e}"));
        if rate {
            assert_rate_verifies(&dir, &format!("php{k}"), (p * h) as usize, &f, &proof);
        } else {
            println!("skipped rate: not installed (cargo install rate)");
        }
    }
    assert!(extension >= 10, "{extension} extension variables");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Refutes instance `k`, `f`, with `opts` and a text proof, and checks the proof with the
/// forward RUP checker; returns the engine's counters.
fn refuted_with_checked_proof(f: &[Vec<i64>], opts: Options, k: usize) -> Stats {
    let mut s = Solver::with_options(opts);
    let sink = SharedSink::default();
    s.set_proof(Box::new(sink.clone()), ProofFormat::Text);
    add_dimacs(&mut s, f);
    assert_eq!(
        s.solve(&[], Budget::UNLIMITED),
        Status::Unsat,
        "instance {k}"
    );
    s.flush_proof().unwrap();
    check_text_proof(f, &sink.bytes()).unwrap_or_else(|e| panic!("instance {k}: {e}"));
    s.stats().clone()
}

#[test]
fn shrunken_learned_clauses_are_rup_and_shrinking_removes_literals() {
    // Each learned clause must be RUP on its own (the forward checker checks every lemma), so
    // a block UIP that did not imply its level's literals would be caught here. Pigeonholes
    // and random 3-SAT near the threshold learn clauses with several literals per level.
    let mut instances = vec![pigeonhole(6, 5), pigeonhole(7, 6)];
    instances.extend(random_unsat(0x5412, 40, 180, 8));
    let mut shrunken = 0;
    for (k, f) in instances.iter().enumerate() {
        let opts = Options {
            shrink: true,
            ..Options::default()
        };
        shrunken += refuted_with_checked_proof(f, opts, k).shrunken_literals;
    }
    assert!(
        shrunken > 0,
        "shrinking never fired on {} instances",
        instances.len()
    );
}

#[test]
fn proofs_stay_valid_through_chronological_backtracking() {
    // Every backjump chronological (`chrono_levels` 0): the learned clauses are still RUP,
    // and a conflict found below the current level (a missed lower implication) adds none.
    let mut instances = vec![pigeonhole(6, 5), pigeonhole(7, 6)];
    instances.extend(random_unsat(0xc4_2018, 50, 215, 8));
    let (mut backtracks, mut implied) = (0, 0);
    for (k, f) in instances.iter().enumerate() {
        let opts = Options {
            chrono: true,
            chrono_levels: 0,
            ..Options::default()
        };
        let stats = refuted_with_checked_proof(f, opts, k);
        backtracks += stats.chrono_backtracks;
        implied += stats.chrono_implied;
    }
    assert!(
        backtracks > 100 && implied > 0,
        "{backtracks} chronological backtracks, {implied} missed lower implications"
    );
}

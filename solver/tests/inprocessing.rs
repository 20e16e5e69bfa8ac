//! Inprocessing against brute force: small random CNFs with planted equivalences (cycles of
//! binary implications) and many binary clauses, solved under a schedule that runs probing,
//! substitution and the other inprocessing techniques every few conflicts. Status, models and
//! failed cores are checked against brute force; then the same solver is asked again with
//! assumptions and new clauses over every variable, so variables that were substituted or
//! eliminated come back. The test asserts from the statistics that every technique fired and
//! changed something (probing, hyper-binary resolution, substitution, subsumption and
//! strengthening, elimination rounds with gates, vivification of irredundant clauses).

use grim_solver::{Budget, Lit, Options, Solver, Stats, Status, Var};

/// splitmix64: a tiny seeded generator, so the tests need no dependency and never change.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn lit(v: u32, neg: bool) -> Lit {
    Lit::new(Var::new(v).unwrap(), neg)
}

fn satisfies(assign: u32, clause: &[Lit]) -> bool {
    clause
        .iter()
        .any(|l| ((assign >> l.var().index()) & 1 == 1) != l.is_negative())
}

fn brute_force(vars: u32, clauses: &[Vec<Lit>], assumptions: &[Lit]) -> bool {
    (0..1u32 << vars).any(|a| {
        clauses.iter().all(|c| satisfies(a, c))
            && assumptions
                .iter()
                .all(|l| satisfies(a, std::slice::from_ref(l)))
    })
}

/// A random CNF over `vars` variables with a planted cycle of binary implications (its
/// literals are equivalent), random binaries (failed literals, hyper-binary resolvents) and
/// random ternary clauses.
fn structured_cnf(rng: &mut Rng, vars: u32) -> Vec<Vec<Lit>> {
    let mut clauses = Vec::new();
    let cycle = 2 + rng.below(3) as usize;
    let ring: Vec<Lit> = (0..cycle)
        .map(|_| lit(rng.below(vars as u64) as u32, rng.below(2) == 1))
        .collect();
    for i in 0..cycle {
        // ring[i] → ring[i+1]
        clauses.push(vec![!ring[i], ring[(i + 1) % cycle]]);
    }
    let random = |rng: &mut Rng| lit(rng.below(vars as u64) as u32, rng.below(2) == 1);
    for _ in 0..vars {
        clauses.push(vec![random(rng), random(rng)]);
    }
    for _ in 0..vars / 2 + rng.below(vars as u64 * 2) as u32 {
        clauses.push(vec![random(rng), random(rng), random(rng)]);
    }
    clauses
}

/// Checks `status` against brute force: the model satisfies every clause and assumption; a
/// failed core is a subset of the assumptions that is unsatisfiable with the clauses.
fn check(s: &Solver, status: Status, vars: u32, clauses: &[Vec<Lit>], assumptions: &[Lit]) -> bool {
    let expected = brute_force(vars, clauses, assumptions);
    match status {
        Status::Sat => {
            assert!(
                expected,
                "SAT, brute force says UNSAT: {clauses:?} under {assumptions:?}"
            );
            let model = s.model().expect("a model after Sat");
            let bits = model
                .iter()
                .enumerate()
                .fold(0u32, |acc, (i, &b)| acc | ((b as u32) << i));
            for c in clauses {
                assert!(
                    satisfies(bits, c),
                    "model {model:?} falsifies {c:?} of {clauses:?}"
                );
            }
            for a in assumptions {
                assert_eq!(s.value(*a), Some(true), "model violates assumption {a:?}");
            }
            true
        }
        Status::Unsat => {
            assert!(
                !expected,
                "UNSAT, brute force finds a model: {clauses:?} under {assumptions:?}"
            );
            let core = s.failed_assumptions().to_vec();
            assert!(
                core.iter().all(|l| assumptions.contains(l)),
                "core {core:?} ⊄ {assumptions:?}"
            );
            assert!(
                !brute_force(vars, clauses, &core),
                "core {core:?} is satisfiable with {clauses:?}"
            );
            false
        }
        Status::Unknown => panic!("Unknown without a budget"),
    }
}

/// The schedule that forces inprocessing on tiny instances: every technique at every chance.
fn forcing(eliminate: bool) -> Options {
    let mut o = Options::aggressive();
    o.probe_interval = 1;
    o.substitute_interval = 1;
    o.subsume_interval = 1;
    o.eliminate_interval = 1;
    o.eliminate = eliminate;
    o
}

fn add(total: &mut Stats, s: &Stats) {
    total.probe_rounds += s.probe_rounds;
    total.failed_literals += s.failed_literals;
    total.hbr += s.hbr;
    total.hbr_subsuming += s.hbr_subsuming;
    total.substituted += s.substituted;
    total.restored += s.restored;
    total.eliminated += s.eliminated;
    total.subsumed_in_search += s.subsumed_in_search;
    total.eliminate_rounds += s.eliminate_rounds;
    total.gates += s.gates;
    total.strengthened += s.strengthened;
}

#[test]
fn inprocessed_small_cnfs_agree_with_brute_force_and_eliminated_variables_come_back() {
    let mut rng = Rng(0x1a9c);
    let mut total = Stats::default();
    let (mut sat, mut unsat) = (0, 0);
    for _round in 0..400 {
        let vars = 4 + rng.below(9) as u32; // 4..=12
        let mut clauses = structured_cnf(&mut rng, vars);
        for eliminate in [false, true] {
            let mut s = Solver::with_options(forcing(eliminate));
            s.reserve_vars(vars as usize);
            for c in &clauses {
                s.add_clause(c);
            }
            let st = s.solve(&[], Budget::UNLIMITED);
            if check(&s, st, vars, &clauses, &[]) {
                sat += 1;
            } else {
                unsat += 1;
            }
            // Assumptions over any variable, substituted and eliminated ones included.
            for _ in 0..3 {
                let assumptions: Vec<Lit> = (0..1 + rng.below(3))
                    .map(|_| lit(rng.below(vars as u64) as u32, rng.below(2) == 1))
                    .collect();
                let st = s.solve(&assumptions, Budget::UNLIMITED);
                check(&s, st, vars, &clauses, &assumptions);
            }
            // A new clause over any variables, then solve again.
            let extra: Vec<Lit> = (0..1 + rng.below(2))
                .map(|_| lit(rng.below(vars as u64) as u32, rng.below(2) == 1))
                .collect();
            s.add_clause(&extra);
            let mut with = clauses.clone();
            with.push(extra);
            let st = s.solve(&[], Budget::UNLIMITED);
            check(&s, st, vars, &with, &[]);
            add(&mut total, s.stats());
            if eliminate {
                clauses = with;
            }
        }
    }
    eprintln!("{sat} SAT, {unsat} UNSAT; {total:?}");
    assert!(
        sat > 200 && unsat > 100,
        "{sat} SAT, {unsat} UNSAT: the generator drifted"
    );
    assert!(total.probe_rounds > 200, "probing rounds: {total:?}");
    assert!(total.failed_literals > 20, "failed literals: {total:?}");
    assert!(
        total.hbr + total.hbr_subsuming > 20,
        "hyper-binary resolvents: {total:?}"
    );
    assert!(total.substituted > 50, "substituted variables: {total:?}");
    assert!(total.restored > 50, "restorations: {total:?}");
    assert!(total.subsumed_in_search > 50, "subsumed clauses: {total:?}");
    assert!(total.strengthened > 50, "strengthened clauses: {total:?}");
    assert!(total.eliminate_rounds > 10, "elimination rounds: {total:?}");
    assert!(total.gates > 50, "gate eliminations: {total:?}");
}

#[test]
fn frozen_and_assumed_variables_are_never_substituted() {
    // x1 ≡ x2 ≡ x3 by a cycle; x1 and x2 frozen, x3 assumed: nothing may be replaced.
    let x = |d: i64| Lit::from_dimacs(d).unwrap();
    let mut s = Solver::with_options(forcing(false));
    for (a, b) in [(1, 2), (2, 3), (3, 1), (1, 4), (4, 1)] {
        s.add_clause(&[x(-a), x(b)]);
    }
    s.add_clause(&[x(1), x(5), x(6)]);
    s.freeze(Var::new(0).unwrap());
    s.freeze(Var::new(1).unwrap());
    assert_eq!(s.solve(&[x(3)], Budget::UNLIMITED), Status::Sat);
    // Only x4 (free, equivalent to the frozen x1) was replaced.
    assert_eq!(s.stats().substituted, 1, "{:?}", s.stats());
    for v in 1..=4 {
        assert_eq!(s.value(x(v)), Some(true), "x{v} in the model");
    }
    // x4 back in a clause: x4 false now contradicts x1 (assumed true).
    s.add_clause(&[x(-4), x(5)]);
    assert_eq!(s.solve(&[x(1), x(-5)], Budget::UNLIMITED), Status::Unsat);
    assert!(s.stats().restored > 0);
    assert_eq!(s.solve(&[x(-1)], Budget::UNLIMITED), Status::Sat);
    assert_eq!(s.value(x(4)), Some(false));
}

#[test]
fn vivification_shortens_irredundant_clauses_and_answers_agree_with_inprocessing_off() {
    // Random 3-SAT at 50 variables near the threshold: enough conflicts for reductions (each
    // followed by vivification), too many variables for brute force, so the answers are
    // compared with a solver that runs no inprocessing at all, and models are checked.
    let mut rng = Rng(0x7171);
    let mut on = forcing(true);
    on.vivify_effort = 1.0;
    on.vivify_irredundant_share = 0.5;
    let off = Options {
        probe: false,
        substitute: false,
        subsume: false,
        eliminate: false,
        vivify_effort: 0.0,
        ..Options::aggressive()
    };
    let (mut vivified, mut sat, mut unsat) = (0, 0, 0);
    for _ in 0..20 {
        let vars = 50u32;
        let clauses: Vec<Vec<Lit>> = (0..213)
            .map(|_| {
                (0..3)
                    .map(|_| lit(rng.below(vars as u64) as u32, rng.below(2) == 1))
                    .collect()
            })
            .collect();
        let mut a = Solver::with_options(on.clone());
        let mut b = Solver::with_options(off.clone());
        for c in &clauses {
            a.add_clause(c);
            b.add_clause(c);
        }
        let (sa, sb) = (
            a.solve(&[], Budget::UNLIMITED),
            b.solve(&[], Budget::UNLIMITED),
        );
        assert_eq!(sa, sb, "inprocessing on and off disagree on {clauses:?}");
        if sa == Status::Sat {
            sat += 1;
            let m = a.model().expect("a model");
            for c in &clauses {
                assert!(
                    c.iter().any(|l| m[l.var().index()] != l.is_negative()),
                    "model falsifies {c:?}"
                );
            }
        } else {
            unsat += 1;
        }
        vivified += a.stats().vivified_irredundant;
    }
    assert!(sat > 2 && unsat > 2, "{sat} SAT, {unsat} UNSAT");
    assert!(vivified > 0, "no irredundant clause was vivified");
}

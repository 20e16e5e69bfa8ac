//! Inprocessing against brute force: small random CNFs with planted equivalences (cycles of
//! binary implications) and many binary clauses, solved under a schedule that runs probing,
//! substitution and the other inprocessing techniques every few conflicts. Status, models and
//! failed cores are checked against brute force; then the same solver is asked again with
//! assumptions and new clauses over every variable, so variables that were substituted or
//! eliminated come back. The test asserts from the statistics that every technique fired and
//! changed something (probing, hyper-binary resolution, substitution, transitive reduction,
//! subsumption and
//! strengthening, elimination rounds with gates, vivification of irredundant clauses).
//! Random decision sequences and the tier limits need more conflicts than these instances
//! make: `brute_force.rs` forces them on a pigeonhole.

use grim_solver::{Budget, Lit, Options, Solver, Stats, Status, Var};
use grim_testkit::{
    Answer, SplitMix64, assert_above, check_answer, clauses_of, falsified, generate, lit,
};

/// A random CNF over `vars` variables with a planted cycle of binary implications (its
/// literals are equivalent), random binaries (failed literals, hyper-binary resolvents) and
/// random ternary clauses.
fn structured_cnf(rng: &mut SplitMix64, vars: u32) -> Vec<Vec<Lit>> {
    let mut clauses = Vec::new();
    let cycle = 2 + rng.below(3) as usize;
    let ring: Vec<Lit> = (0..cycle).map(|_| random_lit(rng, vars)).collect();
    for i in 0..cycle {
        // ring[i] → ring[i+1]
        clauses.push(vec![!ring[i], ring[(i + 1) % cycle]]);
    }
    let random = |rng: &mut SplitMix64| random_lit(rng, vars);
    for _ in 0..vars {
        clauses.push(vec![random(rng), random(rng)]);
    }
    for _ in 0..vars / 2 + rng.below(vars as u64 * 2) as u32 {
        clauses.push(vec![random(rng), random(rng), random(rng)]);
    }
    clauses
}

/// Checks `status` against brute force with the testkit's referee (status, model, core);
/// true when it was SAT.
fn check(s: &Solver, status: Status, clauses: &[Vec<Lit>], assumptions: &[Lit]) -> bool {
    matches!(
        check_answer(s, status, clauses, assumptions, false),
        Answer::Sat(_)
    )
}

/// A random literal over `0..vars`.
fn random_lit(rng: &mut SplitMix64, vars: u32) -> Lit {
    lit(rng.below(u64::from(vars)) as u32, rng.coin())
}

/// The schedule that forces inprocessing on tiny instances: every technique at every chance.
fn forcing(eliminate: bool) -> Options {
    let mut o = Options::aggressive();
    o.probe_interval = 1;
    o.substitute_interval = 1;
    o.transred_interval = 1;
    o.subsume_interval = 1;
    o.eliminate_interval = 1;
    o.eliminate = eliminate;
    o.eliminate_gates_ite_xor = true;
    o
}

/// Adds the inprocessing counters of `s` to `total`.
fn add(total: &mut Stats, s: &Stats) {
    macro_rules! add {
        ($($counter:ident)*) => { $(total.$counter += s.$counter;)* };
    }
    add!(probe_rounds failed_literals hbr hbr_subsuming substituted transred_removed restored eliminated
         subsumed_in_search eliminate_rounds gates strengthened reason_bumps chrono_backtracks
         chrono_implied);
}

#[test]
fn inprocessed_small_cnfs_agree_with_brute_force_and_eliminated_variables_come_back() {
    let mut rng = SplitMix64::new(0x1a9c);
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
            if check(&s, st, &clauses, &[]) {
                sat += 1;
            } else {
                unsat += 1;
            }
            // Assumptions over any variable, substituted and eliminated ones included.
            for _ in 0..3 {
                let assumptions: Vec<Lit> = (0..1 + rng.below(3))
                    .map(|_| random_lit(&mut rng, vars))
                    .collect();
                let st = s.solve(&assumptions, Budget::UNLIMITED);
                check(&s, st, &clauses, &assumptions);
            }
            // A new clause over any variables, then solve again.
            let extra: Vec<Lit> = (0..1 + rng.below(2))
                .map(|_| random_lit(&mut rng, vars))
                .collect();
            s.add_clause(&extra);
            let mut with = clauses.clone();
            with.push(extra);
            let st = s.solve(&[], Budget::UNLIMITED);
            check(&s, st, &with, &[]);
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
    assert_above!(total => probe_rounds > 200, failed_literals > 20, substituted > 50,
        transred_removed > 20, restored > 50, subsumed_in_search > 50, strengthened > 50, eliminate_rounds > 10,
        gates > 50, reason_bumps > 5);
    assert!(
        total.hbr + total.hbr_subsuming > 20,
        "hyper-binary resolvents: {total:?}"
    );
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
    let mut rng = SplitMix64::new(0x7171);
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
        let clauses = clauses_of(&generate::random_ksat(&mut rng, 50, 213, 3));
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
            if let Some(i) = falsified(&m, &clauses) {
                panic!("model falsifies {:?}", clauses[i]);
            }
        } else {
            unsat += 1;
        }
        vivified += a.stats().vivified_irredundant;
    }
    assert!(sat > 2 && unsat > 2, "{sat} SAT, {unsat} UNSAT");
    assert!(vivified > 0, "no irredundant clause was vivified");
}

/// The clauses of `out = c ? t : e` (four ternaries).
fn ite_gate(out: Lit, c: Lit, t: Lit, e: Lit) -> Vec<Vec<Lit>> {
    vec![
        vec![!out, !c, t],
        vec![!out, c, e],
        vec![out, !c, !t],
        vec![out, c, !e],
    ]
}

/// The clauses of `out = a1 ⊕ … ⊕ ak` (every sign pattern of odd parity over `out` and the
/// inputs: `2^k` clauses).
fn xor_gate(out: Lit, inputs: &[Lit]) -> Vec<Vec<Lit>> {
    let all: Vec<Lit> = std::iter::once(out).chain(inputs.iter().copied()).collect();
    (0..1usize << all.len())
        .filter(|p| p.count_ones() % 2 == 1)
        .map(|p| {
            all.iter()
                .enumerate()
                .map(|(i, &l)| if p >> i & 1 == 1 { !l } else { l })
                .collect()
        })
        .collect()
}

#[test]
fn ite_and_xor_gates_are_eliminated_and_answers_agree_with_brute_force() {
    // Random CNFs with planted if-then-else and XOR gates (outputs on distinct variables, used
    // by random clauses): elimination runs before the search and every few conflicts, and the
    // statistics must show both gate kinds found; answers, models and cores are checked, also
    // after assumptions and new clauses over the eliminated outputs bring them back.
    let mut rng = SplitMix64::new(0x6a7e);
    let (mut sat, mut unsat) = (0, 0);
    let mut total = Stats::default();
    for round in 0..300 {
        let vars = 6 + rng.below(7) as u32; // 6..=12
        let v = |rng: &mut SplitMix64| random_lit(rng, vars);
        let mut clauses = Vec::new();
        // Outputs are variables 0 and 1; the inputs are drawn from 2.. so the gates are proper.
        let input =
            |rng: &mut SplitMix64| lit(2 + rng.below(u64::from(vars) - 2) as u32, rng.coin());
        let (c, t, e) = (input(&mut rng), input(&mut rng), input(&mut rng));
        if c.var() != t.var() && c.var() != e.var() && t.var() != e.var() {
            clauses.extend(ite_gate(lit(0, rng.coin()), c, t, e));
        }
        let k = 2 + round % 3; // 2..=4 inputs
        let mut inputs: Vec<Lit> = Vec::new();
        while inputs.len() < k {
            let a = input(&mut rng);
            if inputs.iter().all(|b| b.var() != a.var()) {
                inputs.push(a);
            }
        }
        clauses.extend(xor_gate(lit(1, rng.coin()), &inputs));
        for _ in 0..vars + rng.below(3 * u64::from(vars)) as u32 {
            clauses.push(vec![v(&mut rng), v(&mut rng), v(&mut rng)]);
        }
        let mut s = Solver::with_options(forcing(true));
        s.reserve_vars(vars as usize);
        for cl in &clauses {
            s.add_clause(cl);
        }
        let st = s.solve(&[], Budget::UNLIMITED);
        if check(&s, st, &clauses, &[]) {
            sat += 1;
        } else {
            unsat += 1;
        }
        let assumptions = [lit(0, rng.coin()), lit(1, rng.coin())];
        let st = s.solve(&assumptions, Budget::UNLIMITED);
        check(&s, st, &clauses, &assumptions);
        let extra = vec![lit(0, rng.coin()), lit(1, rng.coin()), v(&mut rng)];
        s.add_clause(&extra);
        clauses.push(extra);
        let st = s.solve(&[], Budget::UNLIMITED);
        check(&s, st, &clauses, &[]);
        total.gates_ite += s.stats().gates_ite;
        total.gates_xor += s.stats().gates_xor;
        total.restored += s.stats().restored;
    }
    eprintln!("{sat} SAT, {unsat} UNSAT; {total:?}");
    assert!(
        sat > 50 && unsat > 20,
        "{sat} SAT, {unsat} UNSAT: the generator drifted"
    );
    assert_above!(total => gates_ite > 50, gates_xor > 50, restored > 50);
}

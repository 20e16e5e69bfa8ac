//! Factoring (bounded variable addition, `factor.rs`) against brute force: small random CNFs
//! with planted products of clauses (every `lᵢ ∨ C'ⱼ`) and pairwise at-most-one constraints,
//! solved with factoring on; status, models and cores are checked against brute force. Then the
//! same solver is asked again: under assumptions and after new clauses over its variables (the
//! factoring stays), and after the user creates variables whose indices the extension
//! variables hold (the factoring is undone and the formula restored). The test asserts from the
//! statistics that factoring fired, that undoing happened, and that the API never showed an
//! extension variable.

use grim_solver::{Budget, Lit, Options, Solver, Status, Var};
use grim_testkit::propagator::Between;
use grim_testkit::{Answer, SplitMix64, assert_above, check_answer, lit};

/// A random literal over `0..vars`.
fn random_lit(rng: &mut SplitMix64, vars: u32) -> Lit {
    lit(rng.below(u64::from(vars)) as u32, rng.coin())
}

/// `count` distinct variables of `0..vars`, as literals of random signs.
fn distinct_lits(rng: &mut SplitMix64, vars: u32, count: usize) -> Vec<Lit> {
    let mut out: Vec<Lit> = Vec::new();
    while out.len() < count {
        let l = random_lit(rng, vars);
        if out.iter().all(|o| o.var() != l.var()) {
            out.push(l);
        }
    }
    out
}

/// A CNF over `vars` variables with a planted product (`lᵢ ∨ C'ⱼ` for 2–4 literals and 2–4
/// remainders of one or two literals), a pairwise at-most-one over 4–6 literals, and random
/// short clauses that make some instances unsatisfiable.
fn product_cnf(rng: &mut SplitMix64, vars: u32) -> Vec<Vec<Lit>> {
    let mut clauses = Vec::new();
    let m = 2 + rng.below(3) as usize;
    let n = 2 + rng.below(3) as usize;
    let width = 1 + rng.below(2) as usize;
    let n = n.min((vars as usize - m) / width);
    let all = distinct_lits(rng, vars, m + n * width);
    let (ls, rest) = all.split_at(m);
    for j in 0..n {
        for &l in ls {
            let mut c = vec![l];
            c.extend_from_slice(&rest[j * width..(j + 1) * width]);
            clauses.push(c);
        }
    }
    let size = 4 + rng.below(3) as usize;
    let amo = distinct_lits(rng, vars, size);
    for a in 0..amo.len() {
        for b in a + 1..amo.len() {
            clauses.push(vec![!amo[a], !amo[b]]);
        }
    }
    // Someone of the at-most-one group is often required: pigeonhole-like tension.
    if rng.coin() {
        clauses.push(amo.clone());
    }
    for _ in 0..rng.below(u64::from(vars) * 3) {
        let len = 2 + rng.below(2) as usize;
        clauses.push(distinct_lits(rng, vars, len));
    }
    clauses
}

/// Options with factoring on (the default) and lucky off, so that the search and factoring
/// run on instances an all-false descent would answer; `forcing` adds the schedule that runs
/// every inprocessing technique every few conflicts, over the extension variables too.
fn options(forcing: bool) -> Options {
    let mut o = if forcing {
        Options::aggressive()
    } else {
        Options::default()
    };
    assert!(o.factor, "factoring is on by default");
    o.lucky = false;
    o.check_model = true;
    o
}

#[test]
fn factored_answers_are_right_and_claiming_an_extension_index_undoes_it() {
    let mut rng = SplitMix64::new(0xfac7);
    let (mut factored, mut undone, mut sat_after_undo, mut unsat_after_undo) = (0, 0, 0, 0);
    let mut total = grim_solver::Stats::default();
    for round in 0..4000 {
        let vars = 8 + rng.below(7) as u32;
        let mut clauses = product_cnf(&mut rng, vars);
        let mut s = Solver::with_options(options(round % 3 == 0));
        s.reserve_vars(vars as usize);
        for c in &clauses {
            s.add_clause(c);
        }
        let st = s.solve(&[], Budget::UNLIMITED);
        check_answer(&s, st, &clauses, &[], false);
        assert_eq!(
            s.num_vars(),
            vars as usize,
            "extension variables stay hidden"
        );
        let ext = s.stats().factor_vars;
        if ext == 0 {
            continue;
        }
        factored += 1;
        // Reading a hidden index gives nothing.
        let hidden = Var::new(vars).expect("small index");
        assert_eq!(s.value(hidden.pos()), None);
        assert_eq!(s.fixed(hidden.pos()), None);
        // The factoring stays: assumptions and a new clause over the user's variables.
        let count = 1 + rng.below(3) as usize;
        let assumptions = distinct_lits(&mut rng, vars, count);
        let st = s.solve(&assumptions, Budget::UNLIMITED);
        check_answer(&s, st, &clauses, &assumptions, false);
        let extra = distinct_lits(&mut rng, vars, 2);
        s.add_clause(&extra);
        clauses.push(extra);
        let st = s.solve(&[], Budget::UNLIMITED);
        check_answer(&s, st, &clauses, &[], false);
        assert_eq!(
            s.stats().factor_undone,
            0,
            "no user index reached an extension variable"
        );
        // A budgeted solve in between (Unknown allowed). Such a stop can leave a learned unit
        // unpropagated on the level-0 trail, which the undo must keep queued; the fuzz
        // regression `api_sequence-factor-undo-keeps-an-unpropagated-unit` replays the case.
        let st = s.solve(&[], Budget::conflicts(1 + round % 4));
        check_answer(&s, st, &clauses, &[], true);
        // The user claims the first extension variable's index: a new variable, or a clause
        // or assumption over it. The formula over the old variables must be the same.
        let fresh = match round % 3 {
            0 => s.new_var(),
            _ => hidden,
        };
        assert_eq!(
            fresh, hidden,
            "the user's next index is the first hidden one"
        );
        let over = if round % 3 == 2 {
            // An assumption claims it.
            let a = vec![fresh.lit(rng.coin()), random_lit(&mut rng, vars)];
            let st = s.solve(&a, Budget::UNLIMITED);
            check_answer(&s, st, &clauses, &a, false);
            Vec::new()
        } else {
            let c = vec![fresh.lit(rng.coin()), random_lit(&mut rng, vars)];
            s.add_clause(&c);
            c
        };
        assert_eq!(
            s.stats().factor_undone,
            1,
            "claiming index {vars} undoes factoring"
        );
        assert_eq!(s.num_vars(), vars as usize + 1);
        if !over.is_empty() {
            clauses.push(over);
        }
        // Constraints that tie the new variable to the old ones, answered by brute force.
        let tie = vec![
            fresh.lit(rng.coin()),
            random_lit(&mut rng, vars),
            random_lit(&mut rng, vars),
        ];
        s.add_clause(&tie);
        clauses.push(tie);
        let st = s.solve(&[], Budget::UNLIMITED);
        match check_answer(&s, st, &clauses, &[], false) {
            Answer::Sat(_) => sat_after_undo += 1,
            _ => unsat_after_undo += 1,
        }
        let assumptions = vec![fresh.lit(rng.coin()), random_lit(&mut rng, vars)];
        let st = s.solve(&assumptions, Budget::UNLIMITED);
        check_answer(&s, st, &clauses, &assumptions, false);
        undone += 1;
        let t = s.stats();
        total.factor_vars += t.factor_vars;
        total.factor_removed += t.factor_removed;
        total.factor_added += t.factor_added;
        total.factor_undone += t.factor_undone;
        assert!(
            t.factor_removed > t.factor_added,
            "factoring only replaces clauses by fewer: {t:?}"
        );
    }
    assert_above!(total => factor_vars > 300, factor_removed > 2000, factor_undone > 300);
    assert!(
        factored > 300 && undone == factored,
        "{factored} factored, {undone} undone"
    );
    assert!(
        sat_after_undo > 50 && unsat_after_undo > 50,
        "after undoing: {sat_after_undo} SAT, {unsat_after_undo} UNSAT"
    );
}

/// Pigeonhole PHP(h+1, h): pigeon `p` in hole `k` is variable `p·h + k`.
fn pigeonhole(h: u32) -> Vec<Vec<Lit>> {
    let var = |p: u32, k: u32| lit(p * h + k, false);
    let mut clauses: Vec<Vec<Lit>> = (0..=h)
        .map(|p| (0..h).map(|k| var(p, k)).collect())
        .collect();
    for k in 0..h {
        for a in 0..=h {
            for b in a + 1..=h {
                clauses.push(vec![!var(a, k), !var(b, k)]);
            }
        }
    }
    clauses
}

#[test]
fn factoring_re_encodes_the_pigeonhole_at_most_ones_and_a_propagator_undoes_it() {
    let h = 6;
    let clauses = pigeonhole(h);
    let mut s = Solver::with_options(options(false));
    for c in &clauses {
        s.add_clause(c);
    }
    assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Unsat);
    let st = s.stats();
    // Each hole's 21 pairwise clauses over 7 pigeons become a handful over extension variables.
    assert_above!(st => factor_vars > 5, factor_removed > 100);
    assert_eq!(s.num_vars(), (h * (h + 1)) as usize);

    // A satisfiable variant (one pigeon fewer) with a propagator connected after factoring:
    // connecting undoes it, and the answers stay exact.
    let h = 4u32;
    let mut clauses = pigeonhole(h);
    clauses.remove(h as usize); // the last pigeon needs no hole
    let mut s = Solver::with_options(options(false));
    for c in &clauses {
        s.add_clause(c);
    }
    let st = s.solve(&[], Budget::UNLIMITED);
    check_answer(&s, st, &clauses, &[], false);
    assert!(s.stats().factor_vars > 0, "{:?}", s.stats());
    // At most one pigeon in hole 0 (implied by the clauses: the engine must still honour it,
    // and everything else, after the undo).
    let column: Vec<Lit> = (0..h).map(|p| lit(p * h, false)).collect();
    s.connect_propagator(Box::new(Between::new(column, 0, 1)));
    assert_eq!(
        s.stats().factor_undone,
        1,
        "connecting a propagator undoes factoring"
    );
    let st = s.solve(&[], Budget::UNLIMITED);
    check_answer(&s, st, &clauses, &[], false);
}

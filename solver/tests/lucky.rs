//! The lucky phases (`lucky.rs`) against brute force: small random CNFs, biased so that each
//! of the six strategies is the first to succeed on some of them, solved with lucky on; every
//! answer, model and later incremental answer is checked, and the statistics must show that
//! every strategy found a model at least once and that lucky stays out of the way when the
//! call has assumptions or the user has set a phase.

use grim_solver::{Budget, Lit, Options, Solver, Status};
use grim_testkit::generate::random_cnf;
use grim_testkit::{SplitMix64, check_answer, lit};

/// A solver with lucky on (the default) and the model check on, holding `clauses`; `flip`:
/// the `lucky_flip` option (a conflicting lucky decision retried with the other polarity).
fn solver_with(clauses: &[Vec<Lit>], vars: u32, flip: bool) -> Solver {
    let opts = Options {
        check_model: true,
        lucky_flip: flip,
        ..Options::default()
    };
    assert!(opts.lucky, "lucky is on by default");
    let mut s = Solver::with_options(opts);
    s.reserve_vars(vars as usize);
    for c in clauses {
        s.add_clause(c);
    }
    s
}

/// Random clauses over `vars` variables whose literals are negative with probability
/// `negative` percent: near 0 or 100 the all-true or all-false descents succeed, in between
/// only the Horn ones or none.
fn biased_cnf(rng: &mut SplitMix64, vars: u32, clauses: usize, negative: u64) -> Vec<Vec<Lit>> {
    (0..clauses)
        .map(|_| {
            let len = 2 + rng.below(3) as usize;
            (0..len)
                .map(|_| lit(rng.below(u64::from(vars)) as u32, rng.percent(negative)))
                .collect()
        })
        .collect()
}

#[test]
fn lucky_models_are_right_every_strategy_fires_and_later_calls_stay_exact() {
    // Without flips, so that each descent stops at its first conflict and every strategy
    // gets its turn on these small formulas (with flips, forward-false wins nearly all).
    lucky_mix(false);
}

#[test]
fn lucky_flips_keep_models_right_and_find_more_of_them() {
    let (flipped, plain) = (lucky_mix(true), lucky_mix(false));
    assert!(
        flipped > plain,
        "flips found {flipped} lucky models, plain descents {plain}"
    );
}

/// The random mix of the first test with `lucky_flip` set to `flip`: every answer, model and
/// later incremental answer checked; without flips every strategy must win at least once.
/// Returns the number of formulas lucky answered.
fn lucky_mix(flip: bool) -> u32 {
    let mut rng = SplitMix64::new(0x10c4);
    // winners[k]: instances on which strategy k (0-based, in lucky.rs's order) found the model.
    let mut winners = [0u32; 6];
    let (mut sat, mut unsat, mut searched_sat) = (0, 0, 0);
    for round in 0..30000 {
        let vars = 3 + rng.below(8) as u32; // 3..=10
        let negative = [0, 10, 30, 50, 60, 70, 80, 90, 100][round % 9];
        let n_clauses = 2 + rng.below(u64::from(vars) * 4) as usize;
        let mut clauses = if round % 5 == 4 {
            random_cnf(&mut rng, vars, n_clauses, 3)
        } else {
            biased_cnf(&mut rng, vars, n_clauses, negative)
        };
        let mut s = solver_with(&clauses, vars, flip);
        let status = s.solve(&[], Budget::default());
        check_answer(&s, status, &clauses, &[], false);
        let st = s.stats().clone();
        assert!(st.lucky_attempts <= 6 && st.lucky_models <= 1);
        match status {
            Status::Sat if st.lucky_models == 1 => {
                assert_eq!(st.conflicts, 0, "a lucky model comes before any conflict");
                winners[st.lucky_attempts as usize - 1] += 1;
                sat += 1;
            }
            Status::Sat => {
                assert!(
                    st.lucky_attempts == 6 || st.lucky_attempts == 0,
                    "a search after lucky means every strategy failed"
                );
                searched_sat += 1;
            }
            _ => {
                assert_eq!(st.lucky_models, 0, "no lucky model of an UNSAT formula");
                unsat += 1;
            }
        }
        // The same solver, asked again after new clauses and under assumptions: lucky has had
        // its one chance, and the answers stay exact.
        for _ in 0..2 {
            clauses.extend(random_cnf(&mut rng, vars, 2, 3));
            for c in &clauses[clauses.len() - 2..] {
                s.add_clause(c);
            }
            let a = [lit(rng.below(u64::from(vars)) as u32, rng.coin())];
            let status = s.solve(&a, Budget::default());
            check_answer(&s, status, &clauses, &a, false);
            let status = s.solve(&[], Budget::default());
            check_answer(&s, status, &clauses, &[], false);
        }
        assert_eq!(
            s.stats().lucky_attempts,
            st.lucky_attempts,
            "lucky runs once"
        );
    }
    eprintln!(
        "flip {flip}: lucky winners {winners:?}, sat {sat}, searched {searched_sat}, unsat {unsat}"
    );
    assert!(
        sat > 100 && unsat > 100,
        "the mix: {sat} lucky SAT, {searched_sat} searched SAT, {unsat} UNSAT"
    );
    if !flip {
        for (k, &w) in winners.iter().enumerate() {
            assert!(w > 0, "strategy {k} never found a model: {winners:?}");
        }
        assert!(searched_sat > 20, "{searched_sat} searched SAT");
    }
    sat
}

#[test]
fn lucky_does_not_run_under_assumptions_or_user_phases_or_when_off() {
    // Every clause has a negative literal: all-false is a model, found by the first strategy.
    let clauses: Vec<Vec<Lit>> = vec![
        vec![lit(0, true), lit(1, false)],
        vec![lit(1, true), lit(2, false), lit(3, false)],
        vec![lit(3, true), lit(0, false)],
    ];
    let mut s = solver_with(&clauses, 4, true);
    assert_eq!(s.solve(&[], Budget::default()), Status::Sat);
    assert_eq!((s.stats().lucky_attempts, s.stats().lucky_models), (1, 1));

    let mut s = solver_with(&clauses, 4, true);
    assert_eq!(s.solve(&[lit(2, false)], Budget::default()), Status::Sat);
    assert_eq!(s.stats().lucky_attempts, 0, "assumptions: no lucky");

    let mut s = solver_with(&clauses, 4, true);
    s.set_phase(lit(1, false));
    assert_eq!(s.solve(&[], Budget::default()), Status::Sat);
    assert_eq!(s.stats().lucky_attempts, 0, "a user phase: no lucky");

    let mut s = solver_with(&clauses, 4, true);
    s.seed_phases(&[true; 4]);
    assert_eq!(s.solve(&[], Budget::default()), Status::Sat);
    assert_eq!(s.stats().lucky_attempts, 0, "seeded phases: no lucky");
    assert_eq!(
        s.value(lit(1, false)),
        Some(true),
        "the user's phase is honoured"
    );

    let mut s = Solver::with_options(Options {
        lucky: false,
        ..Options::default()
    });
    for c in &clauses {
        s.add_clause(c);
    }
    assert_eq!(s.solve(&[], Budget::default()), Status::Sat);
    assert_eq!(s.stats().lucky_attempts, 0, "lucky=false");
}

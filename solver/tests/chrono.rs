//! Chronological backtracking against brute force and against the engine with it off. With
//! `chrono_levels = 0` every conflict that would backjump undoes one level only, so the trail
//! holds out-of-order literals nearly all the time: conflicts below the current level and
//! missed lower implications happen on instances small enough for brute force. Status, models
//! and failed cores are checked by the testkit's referee (debug builds also check the trail's
//! invariants and every reason after each chronological backtrack, `chrono.rs`); the test
//! asserts from the statistics that both kinds of event happened.

use grim_solver::{Budget, Lit, Options, Solver, Stats, Status};
use grim_testkit::generate::random_ksat;
use grim_testkit::{Answer, SplitMix64, assert_above, check_answer, clauses_of, falsified, lit};

/// The schedule under test: every backjump chronological, on top of the aggressive schedule.
fn always_chrono() -> Options {
    Options {
        chrono: true,
        chrono_levels: 0,
        ..Options::aggressive()
    }
}

/// The same engine with chronological backtracking off: the reference for larger instances.
fn never_chrono() -> Options {
    Options {
        chrono: false,
        ..Options::aggressive()
    }
}

fn solver(opts: Options, clauses: &[Vec<Lit>]) -> Solver {
    let mut s = Solver::with_options(opts);
    for c in clauses {
        s.add_clause(c);
    }
    s
}

fn add(total: &mut Stats, s: &Stats) {
    total.chrono_backtracks += s.chrono_backtracks;
    total.chrono_implied += s.chrono_implied;
    total.conflicts += s.conflicts;
}

#[test]
fn chronological_backtracking_agrees_with_brute_force_in_status_model_and_core() {
    let mut rng = SplitMix64::new(0xc420_2018);
    let mut total = Stats::default();
    let (mut sat, mut unsat) = (0, 0);
    for round in 0..1500 {
        let vars = 8 + rng.below(9) as u32; // 8..=16
        // Around the 3-SAT threshold (4.26 clauses per variable), where trails are deepest.
        let k = 3 + round % 2;
        let ratio = if k == 3 { 43 } else { 99 }; // tenths: near each threshold
        let clauses = clauses_of(&random_ksat(
            &mut rng,
            u64::from(vars),
            vars as usize * ratio / 10,
            k,
        ));
        let assumptions: Vec<Lit> = (0..rng.below(4))
            .map(|_| lit(rng.below(u64::from(vars)) as u32, rng.coin()))
            .collect();
        let mut s = solver(always_chrono(), &clauses);
        let st = s.solve(&assumptions, Budget::UNLIMITED);
        match check_answer(&s, st, &clauses, &assumptions, false) {
            Answer::Sat(_) => sat += 1,
            _ => unsat += 1,
        }
        // Incrementally: without assumptions, then with a new clause.
        let st = s.solve(&[], Budget::UNLIMITED);
        check_answer(&s, st, &clauses, &[], false);
        let extra: Vec<Lit> = (0..2)
            .map(|_| lit(rng.below(u64::from(vars)) as u32, rng.coin()))
            .collect();
        s.add_clause(&extra);
        let mut with = clauses.clone();
        with.push(extra);
        let st = s.solve(&assumptions, Budget::UNLIMITED);
        check_answer(&s, st, &with, &assumptions, false);
        add(&mut total, s.stats());
    }
    eprintln!("{sat} SAT, {unsat} UNSAT; {total:?}");
    assert!(sat > 100 && unsat > 100, "{sat} SAT, {unsat} UNSAT");
    assert_above!(total => chrono_backtracks > 2000, chrono_implied > 30);
}

#[test]
fn chronological_backtracking_agrees_with_the_engine_without_it_on_larger_formulas() {
    // Too many variables for brute force: the answers are compared with chronological
    // backtracking off, and models are checked against the clauses.
    let mut rng = SplitMix64::new(0x5a7_2019);
    let mut total = Stats::default();
    let (mut sat, mut unsat) = (0, 0);
    for _ in 0..30 {
        let clauses = clauses_of(&random_ksat(&mut rng, 70, 298, 3));
        let mut a = solver(always_chrono(), &clauses);
        let mut b = solver(never_chrono(), &clauses);
        let (sa, sb) = (
            a.solve(&[], Budget::UNLIMITED),
            b.solve(&[], Budget::UNLIMITED),
        );
        assert_eq!(sa, sb, "chronological backtracking on and off disagree");
        assert_eq!(b.stats().chrono_backtracks, 0);
        if sa == Status::Sat {
            sat += 1;
            let m = a.model().expect("a model");
            if let Some(i) = falsified(&m, &clauses) {
                panic!("model falsifies {:?}", clauses[i]);
            }
        } else {
            unsat += 1;
        }
        add(&mut total, a.stats());
    }
    eprintln!("{sat} SAT, {unsat} UNSAT; {total:?}");
    assert!(sat > 3 && unsat > 3, "{sat} SAT, {unsat} UNSAT");
    assert_above!(total => chrono_backtracks > 1000, chrono_implied > 20);
}

#[test]
fn the_default_threshold_leaves_short_backjumps_alone() {
    // With the default `chrono_levels` (100), a formula of 40 variables never has a backjump
    // over more than 100 levels, so the search is the one without chronological backtracking:
    // the same conflicts, decisions and propagations.
    let mut rng = SplitMix64::new(0xdefa);
    for _ in 0..10 {
        let clauses = clauses_of(&random_ksat(&mut rng, 40, 170, 3));
        let on = Options {
            chrono: true,
            ..Options::default()
        };
        let off = Options {
            chrono: false,
            ..Options::default()
        };
        let mut a = solver(on, &clauses);
        let mut b = solver(off, &clauses);
        assert_eq!(
            a.solve(&[], Budget::UNLIMITED),
            b.solve(&[], Budget::UNLIMITED)
        );
        assert_eq!(a.stats().chrono_backtracks, 0);
        assert_eq!(
            (
                a.stats().conflicts,
                a.stats().decisions,
                a.stats().propagations
            ),
            (
                b.stats().conflicts,
                b.stats().decisions,
                b.stats().propagations
            )
        );
    }
}

//! The cardinality front end: every forced encoding and the automatic choice, both ways and for
//! propagation strength, exhaustively for n ≤ 8 and by seeded sampling where the choice lands
//! on the totalizer and the cardinality network (n > 16).

mod card_util;

use card_util::{Tee, both_ways, check_between, count_true, lit_value, propagate, with_inputs};
use grim_encodings::card::{self, CardOptions, Encoding};
use grim_encodings::{ClauseSink, Lit, Var};
use grim_solver::{Budget, Status};
use grim_testkit::SplitMix64;

const FORCED: [Option<Encoding>; 5] = [
    None,
    Some(Encoding::Pairwise),
    Some(Encoding::SeqCounter),
    Some(Encoding::Totalizer),
    Some(Encoding::CardNet),
];

#[test]
fn every_encoding_through_the_front_end_holds_both_ways_and_propagates_up_to_8_inputs() {
    for enc in FORCED {
        let what = format!("{enc:?}");
        let checked = check_between(&what, 8, |tee, inputs, lo, hi| {
            card::between_with(
                tee,
                inputs,
                lo,
                hi,
                CardOptions {
                    encoding: enc,
                    guard: None,
                },
            )
        });
        assert_eq!(checked, (0..=8).map(|n| (n + 2) * (n + 2)).sum::<usize>());
    }
}

#[test]
fn at_most_at_least_and_exactly_mean_what_they_say_for_every_k() {
    for n in 0..=6usize {
        for k in 0..=n + 2 {
            for which in 0..3 {
                let (mut tee, pool, inputs) = with_inputs(n);
                match which {
                    0 => card::at_most(&mut tee, &inputs, k),
                    1 => card::at_least(&mut tee, &inputs, k),
                    _ => card::exactly(&mut tee, &inputs, k),
                }
                let impossible = which != 0 && k > n;
                let vacuous = (which == 0 && k >= n) || (which == 1 && k == 0);
                if vacuous {
                    assert!(
                        tee.cnf.clauses.is_empty(),
                        "n {n} k {k} kind {which}: vacuous emitted clauses"
                    );
                }
                if impossible {
                    assert_eq!(
                        tee.cnf.clauses,
                        vec![Vec::<Lit>::new()],
                        "n {n} k {k} kind {which}: impossible is the empty clause alone"
                    );
                }
                both_ways(&mut tee, &pool, &[], |m| {
                    let c = m.count_ones() as usize;
                    match which {
                        0 => c <= k,
                        1 => c >= k,
                        _ => c == k,
                    }
                });
            }
        }
    }
}

#[test]
fn duplicate_and_complementary_inputs_count_as_a_multiset_for_every_encoding() {
    for enc in FORCED {
        for lo in 0..=9 {
            for hi in 0..=9 {
                let mut tee = Tee::new();
                let pool: Vec<Var> = (0..3).map(|_| tee.new_var()).collect();
                let (a, b, c) = (pool[0].pos(), pool[1].pos(), pool[2].pos());
                let inputs = [a, b, a, !c, !a, c, b, !b];
                let options = CardOptions {
                    encoding: enc,
                    guard: None,
                };
                card::between_with(&mut tee, &inputs, lo, hi, options);
                both_ways(&mut tee, &pool, &[], |m| {
                    let c = count_true(&pool, &inputs, m);
                    lo <= c && c <= hi
                });
            }
        }
    }
}

#[test]
fn choose_follows_the_measured_thresholds() {
    assert_eq!(card::choose(7, 0, 1), Encoding::Pairwise);
    assert_eq!(card::choose(8, 0, 1), Encoding::SeqCounter);
    assert_eq!(card::choose(1000, 0, 3), Encoding::SeqCounter);
    assert_eq!(card::choose(1000, 0, 4), Encoding::Totalizer);
    assert_eq!(card::choose(1000, 0, 39), Encoding::Totalizer);
    assert_eq!(card::choose(1000, 0, 40), Encoding::CardNet);
    assert_eq!(card::choose(1000, 3, 1000), Encoding::Totalizer);
    assert_eq!(card::choose(1000, 41, 1000), Encoding::CardNet);
    assert_eq!(card::choose(20, 5, 8), Encoding::SeqCounter);
    assert_eq!(card::choose(1000, 10, 23), Encoding::Totalizer);
    assert_eq!(card::choose(1000, 10, 24), Encoding::CardNet);
}

/// A random subset of `0..n` with exactly `k` elements (a partial Fisher–Yates).
fn subset(rng: &mut SplitMix64, n: usize, k: usize) -> Vec<usize> {
    let mut all: Vec<usize> = (0..n).collect();
    for i in 0..k.min(n) {
        let j = i + rng.index(n - i);
        all.swap(i, j);
    }
    all.truncate(k);
    all
}

#[test]
fn large_bounds_reach_the_totalizer_and_the_network_and_hold_on_sampled_assignments() {
    let mut rng = SplitMix64::new(0x9E37_79B9_7F4A_7C15);
    let cases = [
        (20usize, 0usize, 5usize, Encoding::Totalizer),
        (30, 10, 12, Encoding::Totalizer),
        (40, 7, 40, Encoding::Totalizer),
        (100, 0, 45, Encoding::CardNet),
        (100, 30, 40, Encoding::CardNet),
        (90, 50, 90, Encoding::CardNet),
        (70, 0, 60, Encoding::Totalizer), // oriented: at least 10 of the negations
        (60, 2, 3, Encoding::SeqCounter),
    ];
    for (n, lo, hi, expected) in cases {
        let mut tee = Tee::new();
        let inputs: Vec<Lit> = (0..n).map(|_| tee.new_var().pos()).collect();
        card::between(&mut tee, &inputs, lo, hi);
        // The choice after orientation.
        let top = |lo: usize, hi: usize| if hi < n { hi + 1 } else { lo };
        let flip = top(n - hi.min(n), n - lo) < top(lo, hi.min(n));
        let (olo, ohi) = if flip { (n - hi, n - lo) } else { (lo, hi) };
        assert_eq!(
            card::choose(n, olo, ohi),
            expected,
            "n {n} lo {lo} hi {hi} oriented ({olo}, {ohi})"
        );
        let (mut sat, mut unsat) = (0, 0);
        for _ in 0..400 {
            // Counts near the bounds are the interesting ones.
            let c = match rng.index(4) {
                0 => lo.saturating_sub(1) + rng.index(3),
                1 => hi.saturating_sub(1) + rng.index(3),
                _ => rng.index(n + 1),
            }
            .min(n);
            let on = subset(&mut rng, n, c);
            let assumptions: Vec<Lit> = (0..n)
                .map(|i| {
                    if on.contains(&i) {
                        inputs[i]
                    } else {
                        !inputs[i]
                    }
                })
                .collect();
            let status = tee.solver.solve(&assumptions, Budget::UNLIMITED);
            if lo <= c && c <= hi {
                assert_eq!(status, Status::Sat, "n {n} lo {lo} hi {hi} count {c}");
                let model = tee.solver.model().unwrap_or_default();
                assert!(card_util::satisfies(&tee.cnf, &model));
                sat += 1;
            } else {
                assert_eq!(status, Status::Unsat, "n {n} lo {lo} hi {hi} count {c}");
                assert!(
                    propagate(&tee.cnf, &assumptions).is_none(),
                    "n {n} lo {lo} hi {hi} count {c}: no UP conflict"
                );
                unsat += 1;
            }
        }
        assert!(
            sat > 50 && unsat > 50,
            "n {n} lo {lo} hi {hi}: {sat} sat, {unsat} unsat samples"
        );
        // Propagation strength on sampled partial assignments.
        for _ in 0..40 {
            // `set` inputs given `!forced` force every other input to `forced`; one more
            // given it is a conflict.
            let sides = [
                (hi < n).then_some((hi, false)),
                (lo > 0).then(|| (n - lo, true)),
            ];
            for (set, forced) in sides.into_iter().flatten() {
                let given = !forced;
                let pick = |on: &[usize]| -> Vec<Lit> {
                    on.iter()
                        .map(|&i| if forced { !inputs[i] } else { inputs[i] })
                        .collect()
                };
                let on = subset(&mut rng, n, set);
                let Some(vals) = propagate(&tee.cnf, &pick(&on)) else {
                    panic!("n {n} lo {lo} hi {hi}: {set} {given} conflict")
                };
                for (i, &x) in inputs.iter().enumerate() {
                    if !on.contains(&i) {
                        assert_eq!(
                            lit_value(&vals, x),
                            Some(forced),
                            "n {n} lo {lo} hi {hi}: input {i} not forced {forced}"
                        );
                    }
                }
                let on = subset(&mut rng, n, set + 1);
                assert!(
                    propagate(&tee.cnf, &pick(&on)).is_none(),
                    "n {n} lo {lo} hi {hi}: {} {given}, no conflict",
                    set + 1
                );
            }
        }
    }
}

#[test]
fn a_guarded_bound_holds_when_the_guard_is_false_and_vanishes_when_it_is_true() {
    for enc in FORCED {
        for n in 0..=7usize {
            for lo in 0..=n + 1 {
                for hi in 0..=n + 1 {
                    let (mut tee, pool, inputs) = with_inputs(n);
                    let g = tee.new_var().pos();
                    let before = tee.cnf.num_vars;
                    let options = CardOptions {
                        encoding: enc,
                        guard: Some(g),
                    };
                    card::between_with(&mut tee, &inputs, lo, hi, options);
                    let what = format!("{enc:?} guarded n {n} lo {lo} hi {hi}");
                    if lo == 0 && hi >= n {
                        assert!(
                            tee.cnf.clauses.is_empty() && tee.cnf.num_vars == before,
                            "{what}: vacuous emitted"
                        );
                    }
                    if lo > hi || lo > n {
                        assert_eq!(
                            tee.cnf.clauses,
                            vec![vec![g]],
                            "{what}: impossible is the clause (guard)"
                        );
                    }
                    both_ways(&mut tee, &pool, &[!g], |m| {
                        let c = m.count_ones() as usize;
                        lo <= c && c <= hi
                    });
                    both_ways(&mut tee, &pool, &[g], |_| true);
                    if lo <= hi && lo <= n {
                        card_util::propagation_strength(&tee.cnf, &inputs, &[!g], lo, hi, &what);
                    }
                }
            }
        }
    }
}

//! The totalizer, checked both ways by exhaustive enumeration, for unit-propagation strength
//! with an independent propagator, and through incremental sequences on a live solver.

mod card_util;

use card_util::{Counting, Tee, both_ways, count_true, fix, lit_value, propagate, subsets};
use grim_encodings::card::Totalizer;
use grim_encodings::{ClauseSink, Cnf, Lit, Var};
use proptest::prelude::*;

fn vars<S: ClauseSink>(sink: &mut S, n: usize) -> Vec<Var> {
    (0..n).map(|_| sink.new_var()).collect()
}

#[test]
fn at_most_k_holds_both_ways_for_every_n_up_to_7_every_initial_bound_and_every_k() {
    let mut checked = 0;
    for n in 0..=7usize {
        for bound in 0..=n + 1 {
            let mut tee = Tee::new();
            let pool = vars(&mut tee, n);
            let inputs: Vec<Lit> = pool.iter().map(|v| v.pos()).collect();
            let mut t = Totalizer::new(&mut tee, &inputs, bound);
            assert_eq!(t.outputs().len(), bound.min(n));
            assert_eq!(t.num_inputs(), n);
            for k in 0..=n + 1 {
                match t.at_most(&mut tee, k) {
                    None => {
                        assert!(k >= n, "n {n} k {k}: at_most(k) is vacuous only for k >= n");
                        both_ways(&mut tee, &pool, &[], |_| true);
                    }
                    Some(lit) => {
                        assert!(k < n);
                        assert_eq!(lit, !t.outputs()[k]);
                        let sat =
                            both_ways(&mut tee, &pool, &[lit], |m| m.count_ones() as usize <= k);
                        assert!(sat >= 1);
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(
        checked, 196,
        "(n, bound, k) triples with a literal: sum of (n + 2)·n"
    );
}

#[test]
fn k_true_inputs_force_the_rest_false_and_k_plus_one_conflict_by_unit_propagation() {
    for n in 1..=7usize {
        for k in 0..n {
            let mut cnf = Cnf::default();
            let pool = vars(&mut cnf, n);
            let inputs: Vec<Lit> = pool.iter().map(|v| v.pos()).collect();
            let mut t = Totalizer::new(&mut cnf, &inputs, k + 1);
            let Some(bound) = t.at_most(&mut cnf, k) else {
                panic!("n {n} k {k}: expected an output literal");
            };
            for mask in subsets(n, k) {
                let mut a: Vec<Lit> = (0..n)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| inputs[i])
                    .collect();
                a.push(bound);
                let Some(vals) = propagate(&cnf, &a) else {
                    panic!("n {n} k {k} mask {mask:b}: {k} true inputs must not conflict");
                };
                for (i, &x) in inputs.iter().enumerate() {
                    let want = mask >> i & 1 == 1;
                    assert_eq!(
                        lit_value(&vals, x),
                        Some(want),
                        "n {n} k {k} mask {mask:b} input {i}"
                    );
                }
            }
            for mask in subsets(n, k + 1) {
                let mut a: Vec<Lit> = (0..n)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| inputs[i])
                    .collect();
                a.push(bound);
                assert!(
                    propagate(&cnf, &a).is_none(),
                    "n {n} k {k} mask {mask:b}: no conflict"
                );
            }
        }
    }
}

#[test]
fn exact_outputs_are_determined_by_unit_propagation_from_the_inputs() {
    for n in 0..=7usize {
        for bound in 0..=n + 1 {
            let mut cnf = Cnf::default();
            let pool = vars(&mut cnf, n);
            let inputs: Vec<Lit> = pool.iter().map(|v| v.pos()).collect();
            let t = Totalizer::new_both(&mut cnf, &inputs, bound);
            assert!(t.is_exact());
            for mask in 0u32..1 << n {
                let Some(vals) = propagate(&cnf, &fix(&inputs, mask)) else {
                    panic!("n {n} bound {bound} mask {mask:b}: an input assignment conflicts");
                };
                let c = mask.count_ones() as usize;
                for (j, &o) in t.outputs().iter().enumerate() {
                    assert_eq!(
                        lit_value(&vals, o),
                        Some(c > j),
                        "n {n} bound {bound} mask {mask:b} output {j}"
                    );
                }
            }
        }
    }
}

#[test]
fn exact_at_least_holds_both_ways_and_propagates() {
    for n in 0..=7usize {
        let mut tee = Tee::new();
        let pool = vars(&mut tee, n);
        let inputs: Vec<Lit> = pool.iter().map(|v| v.pos()).collect();
        let mut t = Totalizer::new_both(&mut tee, &inputs, 0);
        assert_eq!(t.at_least(&mut tee, 0), None, "at least 0 is vacuous");
        assert_eq!(
            t.at_least(&mut tee, n + 1),
            None,
            "at least n+1 has no literal"
        );
        for k in 1..=n {
            let Some(lit) = t.at_least(&mut tee, k) else {
                panic!("n {n} k {k}: expected a literal");
            };
            both_ways(&mut tee, &pool, &[lit], |m| m.count_ones() as usize >= k);
            // n - k false inputs force the rest true; n - k + 1 conflict.
            for mask in subsets(n, n - k) {
                let mut a: Vec<Lit> = (0..n)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| !inputs[i])
                    .collect();
                a.push(lit);
                let Some(vals) = propagate(&tee.cnf, &a) else {
                    panic!("n {n} k {k} mask {mask:b}: unexpected conflict");
                };
                for (i, &x) in inputs.iter().enumerate() {
                    assert_eq!(
                        lit_value(&vals, x),
                        Some(mask >> i & 1 == 0),
                        "n {n} k {k} mask {mask:b}"
                    );
                }
            }
            for mask in subsets(n, n - k + 1) {
                let mut a: Vec<Lit> = (0..n)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| !inputs[i])
                    .collect();
                a.push(lit);
                assert!(
                    propagate(&tee.cnf, &a).is_none(),
                    "n {n} k {k} mask {mask:b}: no conflict"
                );
            }
        }
    }
}

#[test]
fn a_one_directional_totalizer_offers_no_at_least_literal() {
    let mut cnf = Cnf::default();
    let pool = vars(&mut cnf, 3);
    let inputs: Vec<Lit> = pool.iter().map(|v| v.pos()).collect();
    let mut t = Totalizer::new(&mut cnf, &inputs, 3);
    assert_eq!(t.at_least(&mut cnf, 1), None);
}

#[test]
fn empty_inputs_and_bound_zero_build_nothing_and_stay_total() {
    let mut sink = Counting::default();
    let mut t = Totalizer::new(&mut sink, &[], 5);
    assert_eq!((t.outputs().len(), t.num_inputs()), (0, 0));
    assert_eq!(t.at_most(&mut sink, 0), None);
    t.extend(&mut sink, 100);
    t.add_inputs(&mut sink, &[]);
    assert_eq!(sink, Counting::default(), "nothing emitted");

    let mut sink = Counting::default();
    let inputs = card_util::fresh(&mut sink, 6);
    let before = sink;
    let mut t = Totalizer::new(&mut sink, &inputs, 0);
    assert_eq!(t.outputs().len(), 0);
    assert_eq!(sink, before, "bound 0 emits nothing");
    assert!(t.at_most(&mut sink, 0).is_some());
    assert_eq!(t.outputs().len(), 1);
}

#[test]
fn a_single_input_is_its_own_output() {
    let mut cnf = Cnf::default();
    let x = cnf.new_var().pos();
    let mut t = Totalizer::new(&mut cnf, &[x], 3);
    assert_eq!(t.outputs(), &[x]);
    assert_eq!(t.at_most(&mut cnf, 0), Some(!x));
    assert!(cnf.clauses.is_empty());
}

#[test]
fn duplicate_and_complementary_inputs_count_as_a_multiset() {
    let mut tee = Tee::new();
    let pool = vars(&mut tee, 3);
    let (a, b, c) = (pool[0].pos(), pool[1].pos(), pool[2].pos());
    let inputs = [a, a, !a, b, c, !c, b];
    for exact in [false, true] {
        let mut t = if exact {
            Totalizer::new_both(&mut tee, &inputs, 2)
        } else {
            Totalizer::new(&mut tee, &inputs, 2)
        };
        for k in 0..inputs.len() {
            let Some(lit) = t.at_most(&mut tee, k) else {
                panic!("k {k}")
            };
            both_ways(&mut tee, &pool, &[lit], |m| {
                count_true(&pool, &inputs, m) <= k
            });
        }
        if exact {
            for k in 1..=inputs.len() {
                let Some(lit) = t.at_least(&mut tee, k) else {
                    panic!("k {k}")
                };
                both_ways(&mut tee, &pool, &[lit], |m| {
                    count_true(&pool, &inputs, m) >= k
                });
            }
        }
    }
}

#[test]
fn extending_keeps_every_output_literal_and_adds_only_new_clauses() {
    let mut cnf = Cnf::default();
    let inputs = card_util::fresh(&mut cnf, 20);
    let mut t = Totalizer::new(&mut cnf, &inputs, 2);
    let first: Vec<Lit> = t.outputs().to_vec();
    let clauses = cnf.clauses.clone();
    t.extend(&mut cnf, 5);
    assert_eq!(&t.outputs()[..2], &first[..]);
    assert_eq!(t.outputs().len(), 5);
    assert_eq!(
        &cnf.clauses[..clauses.len()],
        &clauses[..],
        "old clauses untouched"
    );
    // Extending to the current bound or below is a no-op.
    let (v, c) = (cnf.num_vars, cnf.clauses.len());
    t.extend(&mut cnf, 5);
    t.extend(&mut cnf, 1);
    assert_eq!((cnf.num_vars, cnf.clauses.len()), (v, c));
    // Incremental extension to k builds exactly what a fresh k-truncated encoding builds.
    let mut fresh = Counting::default();
    let inputs2 = card_util::fresh(&mut fresh, 20);
    let start = fresh;
    let _ = Totalizer::new(&mut fresh, &inputs2, 5);
    assert_eq!(fresh.vars - start.vars, cnf.num_vars - 20);
    assert_eq!(fresh.clauses, cnf.clauses.len());
}

/// One step of an incremental session.
#[derive(Clone, Debug)]
enum Op {
    Extend(usize),
    /// New inputs, as (pool index, negated).
    Add(Vec<(usize, bool)>),
    AtMost(usize),
    AtLeast(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0usize..9).prop_map(Op::Extend),
        proptest::collection::vec((0usize..5, any::<bool>()), 0..4).prop_map(Op::Add),
        (0usize..9).prop_map(Op::AtMost),
        (0usize..9).prop_map(Op::AtLeast),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, .. ProptestConfig::default() })]

    /// (d): extend and add_inputs keep both directions true, on one live solver between solves.
    #[test]
    fn incremental_sessions_keep_the_bounds_exact_on_a_live_solver(
        exact in any::<bool>(),
        initial in proptest::collection::vec((0usize..5, any::<bool>()), 0..5),
        bound in 0usize..5,
        ops in proptest::collection::vec(op(), 1..8),
    ) {
        let mut tee = Tee::new();
        let pool = vars(&mut tee, 5);
        let lit = |(i, neg): (usize, bool)| pool[i].lit(!neg);
        let mut inputs: Vec<Lit> = initial.iter().copied().map(lit).collect();
        let mut t = if exact {
            Totalizer::new_both(&mut tee, &inputs, bound)
        } else {
            Totalizer::new(&mut tee, &inputs, bound)
        };
        for op in ops {
            match op {
                Op::Extend(b) => {
                    let before = t.outputs().to_vec();
                    t.extend(&mut tee, b);
                    prop_assert_eq!(&t.outputs()[..before.len()], &before[..]);
                }
                Op::Add(new) => {
                    if inputs.len() + new.len() <= 9 {
                        let new: Vec<Lit> = new.into_iter().map(lit).collect();
                        t.add_inputs(&mut tee, &new);
                        inputs.extend(new);
                    }
                }
                Op::AtMost(k) => match t.at_most(&mut tee, k) {
                    None => prop_assert!(k >= inputs.len()),
                    Some(l) => {
                        both_ways(&mut tee, &pool, &[l], |m| count_true(&pool, &inputs, m) <= k);
                    }
                },
                Op::AtLeast(k) => match t.at_least(&mut tee, k) {
                    None => prop_assert!(!exact || k == 0 || k > inputs.len()),
                    Some(l) => {
                        both_ways(&mut tee, &pool, &[l], |m| count_true(&pool, &inputs, m) >= k);
                    }
                },
            }
            prop_assert_eq!(t.num_inputs(), inputs.len());
            prop_assert_eq!(t.outputs().len(), t.bound().min(inputs.len()));
        }
    }
}

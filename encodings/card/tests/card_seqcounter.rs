//! The sequential counter: the trimmed hard form and the assumable structure, both ways by
//! exhaustive enumeration and for unit-propagation strength.

mod card_util;

use card_util::{
    Tee, both_ways, check_between_up_to_8, count_true, for_each_bound_up_to_8, propagation_strength,
};
use grim_encodings::card::SeqCounter;
use grim_encodings::card::seqcounter::encode_between;
use grim_encodings::{ClauseSink, Var};

#[test]
fn the_structure_answers_every_at_least_and_at_most_both_ways_with_full_propagation() {
    for_each_bound_up_to_8(|n, max, tee, pool, inputs| {
        let c = SeqCounter::new(tee, inputs, max);
        assert_eq!(c.outputs().len(), max.min(n));
        assert_eq!(c.num_inputs(), n);
        assert_eq!(c.at_least(0), None);
        assert_eq!(c.at_most(n), None);
        for k in 0..=n {
            let lit = c.at_most(k);
            assert_eq!(lit.is_some(), k < max.min(n), "n {n} max {max} k {k}");
            if let Some(l) = lit {
                both_ways(tee, pool, &[l], |m| m.count_ones() as usize <= k);
                propagation_strength(&tee.cnf, inputs, &[l], 0, k, "seqcounter at_most");
            }
            let lit = c.at_least(k);
            assert_eq!(
                lit.is_some(),
                k >= 1 && k <= max.min(n),
                "n {n} max {max} k {k}"
            );
            if let Some(l) = lit {
                both_ways(tee, pool, &[l], |m| m.count_ones() as usize >= k);
                propagation_strength(&tee.cnf, inputs, &[l], k, n, "seqcounter at_least");
            }
        }
        // Both bounds at once on the one structure.
        for lo in 1..=max.min(n) {
            for hi in lo..max.min(n) {
                let (Some(a), Some(b)) = (c.at_least(lo), c.at_most(hi)) else {
                    panic!("n {n} max {max} lo {lo} hi {hi}");
                };
                both_ways(tee, pool, &[a, b], |m| {
                    let c = m.count_ones() as usize;
                    lo <= c && c <= hi
                });
                propagation_strength(&tee.cnf, inputs, &[a, b], lo, hi, "seqcounter between");
            }
        }
    });
}

#[test]
fn encode_between_holds_both_ways_and_propagates_for_every_bound_up_to_8_inputs() {
    check_between_up_to_8("seqcounter", encode_between::<Tee>);
}

#[test]
fn duplicate_and_complementary_inputs_count_as_a_multiset() {
    let mut tee = Tee::new();
    let pool: Vec<Var> = (0..3).map(|_| tee.new_var()).collect();
    let (a, b, c) = (pool[0].pos(), pool[1].pos(), pool[2].pos());
    let inputs = [a, b, a, !c, !a, c];
    for lo in 0..=7 {
        for hi in 0..=7 {
            let mut t = Tee::new();
            for _ in 0..3 {
                t.new_var();
            }
            encode_between(&mut t, &inputs, lo, hi);
            both_ways(&mut t, &pool, &[], |m| {
                let c = count_true(&pool, &inputs, m);
                lo <= c && c <= hi
            });
        }
    }
    let s = SeqCounter::new(&mut tee, &inputs, 6);
    for k in 0..6 {
        let Some(l) = s.at_most(k) else {
            panic!("k {k}")
        };
        both_ways(&mut tee, &pool, &[l], |m| {
            count_true(&pool, &inputs, m) <= k
        });
    }
}

//! Cardinality networks, both ways by exhaustive enumeration and for unit-propagation strength.

mod card_util;

use card_util::{
    Tee, both_ways, check_between_up_to_8, count_true, for_each_bound_up_to_8, propagation_strength,
};
use grim_encodings::card::cardnet::{encode_between, sorted_outputs, sorted_outputs_directed};
use grim_encodings::{ClauseSink, Var};

#[test]
fn encode_between_holds_both_ways_and_propagates_for_every_bound_up_to_8_inputs() {
    check_between_up_to_8("cardnet", encode_between::<Tee>);
}

#[test]
fn sorted_outputs_count_exactly_and_propagate_both_bounds() {
    for_each_bound_up_to_8(|n, count, tee, pool, inputs| {
        let outs = sorted_outputs(tee, inputs, count);
        assert_eq!(outs.len(), count.min(n));
        for (j, &o) in outs.iter().enumerate() {
            both_ways(tee, pool, &[o], |m| m.count_ones() as usize > j);
            both_ways(tee, pool, &[!o], |m| m.count_ones() as usize <= j);
            propagation_strength(&tee.cnf, inputs, &[o], j + 1, n, "cardnet output");
            propagation_strength(&tee.cnf, inputs, &[!o], 0, j, "cardnet ¬output");
        }
    });
}

#[test]
fn directed_sorted_outputs_count_exactly_in_the_directions_asked_and_name_no_other() {
    // Issue 40: a ratio reads some outputs only as "at least" (down) or only as "at most"
    // (up); each output asked for must hold both ways in its directions and propagate, every
    // input assignment must extend to the network, and an output asked for in neither
    // direction gets no literal.
    let patterns: [fn(usize) -> (bool, bool); 5] = [
        |_| (true, false),
        |_| (false, true),
        |j| (j % 2 == 0, j % 2 == 1),
        |j| (j % 3 != 1, j % 3 == 0),
        |j| (j == 1, j == 2),
    ];
    let mut checked = 0;
    for pattern in patterns {
        for_each_bound_up_to_8(|n, count, tee, pool, inputs| {
            let need: Vec<(bool, bool)> = (0..count).map(pattern).collect();
            let outs = sorted_outputs_directed(tee, inputs, &need);
            assert_eq!(outs.len(), count);
            both_ways(tee, pool, &[], |_| true);
            for (j, (&o, &(up, down))) in outs.iter().zip(&need).enumerate() {
                let asked = (up || down) && j < n;
                assert_eq!(o.is_some(), asked, "n {n} output {j} need {:?}", need[j]);
                let Some(o) = o else { continue };
                if up {
                    both_ways(tee, pool, &[!o], |m| m.count_ones() as usize <= j);
                    propagation_strength(&tee.cnf, inputs, &[!o], 0, j, "directed ¬output");
                }
                if down {
                    both_ways(tee, pool, &[o], |m| m.count_ones() as usize > j);
                    propagation_strength(&tee.cnf, inputs, &[o], j + 1, n, "directed output");
                }
                checked += 1;
            }
        });
    }
    assert!(checked > 200, "only {checked} outputs checked");
}

#[test]
fn duplicate_and_complementary_inputs_count_as_a_multiset() {
    let inputs_of = |pool: &[Var]| {
        let (a, b, c) = (pool[0].pos(), pool[1].pos(), pool[2].pos());
        vec![a, b, a, !c, !a, c, b]
    };
    for lo in 0..=8 {
        for hi in 0..=8 {
            let mut t = Tee::new();
            let pool: Vec<Var> = (0..3).map(|_| t.new_var()).collect();
            let inputs = inputs_of(&pool);
            encode_between(&mut t, &inputs, lo, hi);
            both_ways(&mut t, &pool, &[], |m| {
                let c = count_true(&pool, &inputs, m);
                lo <= c && c <= hi
            });
        }
    }
    let mut t = Tee::new();
    let pool: Vec<Var> = (0..3).map(|_| t.new_var()).collect();
    let inputs = inputs_of(&pool);
    let outs = sorted_outputs(&mut t, &inputs, 7);
    for (j, &o) in outs.iter().enumerate() {
        both_ways(&mut t, &pool, &[o], |m| count_true(&pool, &inputs, m) > j);
    }
}

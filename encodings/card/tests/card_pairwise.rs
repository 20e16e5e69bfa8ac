//! Pairwise at-most-one and exactly-one, both ways and for unit-propagation strength.

mod card_util;

use card_util::{Tee, both_ways, count_true, propagation_strength, with_inputs};
use grim_encodings::card::pairwise::{at_most_one, at_most_one_size, exactly_one};
use grim_encodings::{ClauseSink, Lit, Var};

#[test]
fn at_most_one_and_exactly_one_hold_both_ways_and_propagate_up_to_8_inputs() {
    for n in 0..=8usize {
        for exact in [false, true] {
            let (mut tee, pool, inputs) = with_inputs(n);
            if exact {
                exactly_one(&mut tee, &inputs);
            } else {
                at_most_one(&mut tee, &inputs);
                assert_eq!(tee.cnf.clauses.len(), at_most_one_size(n));
            }
            assert_eq!(tee.cnf.num_vars, n, "no auxiliary variables");
            let lo = usize::from(exact);
            both_ways(&mut tee, &pool, &[], |m| {
                let c = m.count_ones() as usize;
                lo <= c && c <= 1
            });
            if lo <= n {
                propagation_strength(&tee.cnf, &inputs, &[], lo, 1, "pairwise");
            } else {
                assert_eq!(
                    tee.cnf.clauses,
                    vec![Vec::<Lit>::new()],
                    "exactly one of nothing is the empty clause"
                );
            }
        }
    }
}

#[test]
fn duplicate_and_complementary_inputs_count_as_a_multiset() {
    for inputs in [
        vec![0, 0],
        vec![0, 1, 0],
        vec![0, 2, 3],
        vec![0, 3, 1, 2],
        vec![1, 2, 1, 3],
    ] {
        for exact in [false, true] {
            let mut tee = Tee::new();
            let pool: Vec<Var> = (0..2).map(|_| tee.new_var()).collect();
            // 0: a, 1: ¬a, 2: b, 3: ¬b
            let lits: Vec<Lit> = inputs
                .iter()
                .map(|&i: &usize| pool[i / 2].lit(i % 2 == 0))
                .collect();
            if exact {
                exactly_one(&mut tee, &lits);
            } else {
                at_most_one(&mut tee, &lits);
            }
            both_ways(&mut tee, &pool, &[], |m| {
                let c = count_true(&pool, &lits, m);
                usize::from(exact) <= c && c <= 1
            });
        }
    }
}

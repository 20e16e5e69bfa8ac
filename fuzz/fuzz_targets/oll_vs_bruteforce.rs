//! Small weighted MaxSAT instances (at most 10 variables) built from the fuzzer's bytes, solved
//! by the OLL optimiser with a fuzzer-chosen set of techniques, against brute force: the
//! status (optimum or unsatisfiable hard clauses), the optimal cost, the model's cost as the
//! referee prices it, and the lower bound never above the optimum — also when the search is
//! sliced into small conflict budgets and resumed. The preprocessing and anytime switches
//! (subsumed label elimination, frozen terms, local-search bursts with tiny conflict slices)
//! are fuzzer-chosen too: that is the fuzz axis of the preprocessing.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use grim_maxsat::{MaxSatStatus, Oll, OllOptions};
use grim_maxsat::{Lit, Wcnf};
use grim_solver::Budget;
use libfuzzer_sys::fuzz_target;

#[derive(Debug)]
struct Case {
    wcnf: Wcnf,
    opts: OllOptions,
    slice: Option<u64>,
}

impl<'a> Arbitrary<'a> for Case {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Case> {
        let n = u.int_in_range(1..=10usize)?;
        let clause = |u: &mut Unstructured<'a>| -> arbitrary::Result<Vec<Lit>> {
            let len = u.int_in_range(0..=4usize)?;
            (0..len)
                .map(|_| {
                    let v = u.int_in_range(1..=n as i64)?;
                    let neg: bool = u.arbitrary()?;
                    Ok(Lit::from_dimacs(if neg { -v } else { v }).expect("in range"))
                })
                .collect()
        };
        let mut wcnf = Wcnf::new(n);
        for _ in 0..u.int_in_range(0..=6usize)? {
            let c = clause(u)?;
            if !c.is_empty() || u.ratio(1, 20)? {
                wcnf.hard.push(c);
            }
        }
        for _ in 0..u.int_in_range(0..=14usize)? {
            let c = clause(u)?;
            // Small weights make ties and stratification levels; a few huge ones test sums.
            let w = if u.ratio(1, 10)? {
                u.int_in_range(0..=u64::MAX / 32)?
            } else {
                u.int_in_range(0..=9u64)?
            };
            wcnf.soft.push((w, c));
        }
        let opts = OllOptions {
            stratify: u.arbitrary()?,
            hardening: u.arbitrary()?,
            exhaust: u.arbitrary()?,
            minimize_conflicts: if u.arbitrary()? { 100 } else { 0 },
            trim: u.int_in_range(0..=3u32)?,
            wce: u.arbitrary()?,
            am1: u.arbitrary()?,
            symmetry: u.arbitrary()?,
            sle: u.arbitrary()?,
            equiv: u.arbitrary()?,
            freeze_terms: u.arbitrary()?,
            anytime_flips: if u.arbitrary()? {
                u.int_in_range(1..=300u64)?
            } else {
                0
            },
            anytime_stall_conflicts: u.int_in_range(0..=5u64)?,
            // The branch and bound: off, or bursts from a few clause visits up.
            bnb_ticks: if u.arbitrary()? {
                u.int_in_range(1..=5000u64)?
            } else {
                0
            },
            bnb_max_literals: u64::MAX,
            ..OllOptions::default()
        };
        let slice = if u.arbitrary()? {
            Some(u.int_in_range(1..=20u64)?)
        } else {
            None
        };
        Ok(Case { wcnf, opts, slice })
    }
}

fuzz_target!(|case: Case| {
    let Case { wcnf, opts, slice } = case;
    if wcnf.total_soft_weight().is_none() {
        assert!(
            Oll::new(&wcnf, opts).is_err(),
            "an overflowing sum was accepted"
        );
        return;
    }
    let expected = grim_testkit::maxsat_optimum(&wcnf);
    let mut oll = Oll::new(&wcnf, opts).expect("the weights fit");
    let mut rounds = 0;
    let status = loop {
        let budget = slice.map_or(Budget::UNLIMITED, Budget::conflicts);
        let s = oll.solve(budget, &mut |_| {});
        rounds += 1;
        if let Some(opt) = expected {
            assert!(oll.lower_bound() <= opt, "lower bound above the optimum");
        }
        if matches!(s, MaxSatStatus::Optimum | MaxSatStatus::Unsatisfiable) || rounds > 100_000 {
            break s;
        }
    };
    match expected {
        None => assert_eq!(status, MaxSatStatus::Unsatisfiable),
        Some(opt) => {
            assert_eq!(status, MaxSatStatus::Optimum);
            assert_eq!(oll.best_cost(), Some(opt));
            let model = oll.best_model().expect("an optimum has a model");
            assert_eq!(
                wcnf.cost(model),
                Some(opt),
                "the model is priced differently"
            );
        }
    }
});

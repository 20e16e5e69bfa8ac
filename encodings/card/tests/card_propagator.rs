//! A cardinality bound enforced by an external propagator (`grim_solver::Propagator`) against
//! the same bound as clauses, in every encoding the crate has, both ways by enumeration: for
//! every assignment of the inputs (and for partial ones), the solver holding the encoding and
//! the solver holding the propagator give the same answer, which is the count's, and the
//! propagator's failed assumptions are a real core. Each solver is reused across all its calls,
//! so the propagator also meets the incremental API (assumptions, backtracks between calls).

use grim_encodings::card::{self, CardOptions, Encoding};
use grim_encodings::{Budget, Lit, Solver, Status};
use grim_testkit::propagator::Between;

/// The inputs: `n` variables, every third one negated (so the bound is over literals).
fn inputs(s: &mut Solver, n: usize) -> Vec<Lit> {
    (0..n)
        .map(|i| {
            let v = s.new_var();
            if i % 3 == 2 { v.neg() } else { v.pos() }
        })
        .collect()
}

/// The assumptions of one enumeration step: input `i` fixed by digit `i` of `code` in base 3
/// (0 false, 1 true, 2 free).
fn assumptions(lits: &[Lit], mut code: usize) -> Vec<Lit> {
    let mut out = Vec::new();
    for &l in lits {
        match code % 3 {
            0 => out.push(!l),
            1 => out.push(l),
            _ => {}
        }
        code /= 3;
    }
    out
}

/// Whether some completion of `assumed` (over `lits`) has a count in `lo..=hi`.
fn possible(lits: &[Lit], assumed: &[Lit], lo: usize, hi: usize) -> bool {
    let on = assumed.iter().filter(|l| lits.contains(l)).count();
    let free = lits.len() - assumed.len();
    on <= hi && on + free >= lo
}

#[test]
fn a_cardinality_propagator_and_every_encoding_admit_the_same_assignments() {
    let encodings = [
        None,
        Some(Encoding::Pairwise),
        Some(Encoding::SeqCounter),
        Some(Encoding::Totalizer),
        Some(Encoding::CardNet),
    ];
    let mut checked = 0u64;
    for n in 1..=6usize {
        for lo in 0..=n {
            for hi in lo..=n {
                let mut prop = Solver::new();
                let plits = inputs(&mut prop, n);
                prop.connect_propagator(Box::new(Between::new(plits.clone(), lo, hi)));
                let mut clausal: Vec<(Solver, Vec<Lit>)> = encodings
                    .iter()
                    .map(|&encoding| {
                        let mut s = Solver::new();
                        let lits = inputs(&mut s, n);
                        let options = CardOptions {
                            encoding,
                            guard: None,
                        };
                        card::between_with(&mut s, &lits, lo, hi, options);
                        (s, lits)
                    })
                    .collect();
                for code in 0..3usize.pow(n as u32) {
                    let assumed = assumptions(&plits, code);
                    let want = possible(&plits, &assumed, lo, hi);
                    let got = prop.solve(&assumed, Budget::UNLIMITED);
                    assert_eq!(
                        got,
                        if want { Status::Sat } else { Status::Unsat },
                        "propagator n={n} lo={lo} hi={hi} assumed={assumed:?}"
                    );
                    if got == Status::Sat {
                        let model = prop.model().unwrap();
                        let on = plits
                            .iter()
                            .filter(|l| model[l.var().index()] == l.is_positive())
                            .count();
                        assert!((lo..=hi).contains(&on), "n={n} lo={lo} hi={hi} on={on}");
                        for &a in &assumed {
                            assert_eq!(model[a.var().index()], a.is_positive());
                        }
                    } else {
                        // The failed assumptions alone admit no count in range.
                        let core: Vec<Lit> = assumed
                            .iter()
                            .copied()
                            .filter(|&a| prop.failed(a))
                            .collect();
                        assert!(
                            !possible(&plits, &core, lo, hi),
                            "n={n} lo={lo} hi={hi} core {core:?} of {assumed:?}"
                        );
                    }
                    for (i, (s, lits)) in clausal.iter_mut().enumerate() {
                        let assumed = assumptions(lits, code);
                        assert_eq!(
                            s.solve(&assumed, Budget::UNLIMITED),
                            got,
                            "{:?} n={n} lo={lo} hi={hi} code={code}",
                            encodings[i]
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

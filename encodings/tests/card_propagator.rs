//! A cardinality bound enforced by an external propagator (`grim_solver::Propagator`) against
//! the same bound as clauses, in every encoding the crate has, both ways by enumeration: for
//! every assignment of the inputs (and for partial ones), the solver holding the encoding and
//! the solver holding the propagator give the same answer, which is the count's, and the
//! propagator's failed assumptions are a real core. Each solver is reused across all its calls,
//! so the propagator also meets the incremental API (assumptions, backtracks between calls).

use grim_encodings::card::{self, CardOptions, Encoding};
use grim_encodings::grim_solver::{ClauseKind, Context, Propagator};
use grim_encodings::{Budget, Lit, Solver, Status, Var};

/// `lo ≤ |{l ∈ lits : l}| ≤ hi`, with lazy reasons for the upper bound and eager ones for
/// the lower, so that both ways of propagating are exercised.
struct Between {
    lits: Vec<Lit>,
    lo: usize,
    hi: usize,
    /// Observed literals assigned, in trail order, with their level.
    told: Vec<(Lit, u32)>,
}

impl Between {
    /// The inputs now true (`true`) or false (`false`), in the order they were told.
    fn with_value(&self, value: bool) -> Vec<Lit> {
        let mut out = Vec::new();
        for &(t, _) in &self.told {
            for &l in &self.lits {
                if (value && t == l) || (!value && t == !l) {
                    out.push(l);
                }
            }
        }
        out
    }
}

impl Propagator for Between {
    fn observed(&self) -> Vec<Var> {
        self.lits.iter().map(|l| l.var()).collect()
    }

    fn notify_assignments(&mut self, lits: &[Lit], level: u32) {
        self.told.extend(lits.iter().map(|&l| (l, level)));
    }

    fn notify_backtrack(&mut self, level: u32) {
        self.told.retain(|&(_, l)| l <= level);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) {
        let n = self.lits.len();
        let on = self.with_value(true);
        let off = self.with_value(false);
        if on.len() > self.hi {
            let clause: Vec<Lit> = on[..=self.hi].iter().map(|&l| !l).collect();
            ctx.add_clause(&clause, ClauseKind::Learned);
            return;
        }
        if off.len() > n - self.lo {
            ctx.add_clause(&off[..=n - self.lo], ClauseKind::Irredundant);
            return;
        }
        for &l in &self.lits {
            if ctx.value(l).is_some() {
                continue;
            }
            if on.len() == self.hi {
                ctx.propagate(!l);
            } else if off.len() == n - self.lo {
                let mut reason = vec![l];
                reason.extend(off.iter().copied());
                ctx.propagate_because(l, &reason);
            }
        }
    }

    fn explain(&mut self, lit: Lit, reason: &mut Vec<Lit>) {
        // `!lit` was an input pushed false once `hi` inputs were true: those `hi` were told
        // first and are still assigned.
        reason.push(lit);
        reason.extend(self.with_value(true).iter().take(self.hi).map(|&l| !l));
    }

    fn check_model(&mut self, ctx: &mut Context<'_>) {
        let on: Vec<Lit> = self
            .lits
            .iter()
            .copied()
            .filter(|&l| ctx.value(l) == Some(true))
            .collect();
        let off: Vec<Lit> = self
            .lits
            .iter()
            .copied()
            .filter(|&l| ctx.value(l) == Some(false))
            .collect();
        if on.len() > self.hi {
            let clause: Vec<Lit> = on[..=self.hi].iter().map(|&l| !l).collect();
            ctx.add_clause(&clause, ClauseKind::Learned);
        } else if on.len() < self.lo {
            ctx.add_clause(&off, ClauseKind::Learned);
        }
    }
}

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
                prop.connect_propagator(Box::new(Between {
                    lits: plits.clone(),
                    lo,
                    hi,
                    told: Vec::new(),
                }));
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

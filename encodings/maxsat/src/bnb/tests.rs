//! The branch and bound's checks: the search against brute force on random instances (with
//! and without transformations, in bursts of odd sizes), and, at every node of those runs, the
//! bound against the cheapest extension (`check_bound`) and the transformed formula against the
//! instance (`check_exact`), both by enumeration.

use grim_formula::{SplitMix64, Wcnf};
use grim_solver::{Lit, Terminator, Var};

use super::super::flat::Flat;
use super::search::Outcome;
use super::{BranchAndBound, HARD};

impl BranchAndBound {
    /// Checks that `cost + empty + lb` does not pass the cheapest extension of the assignment.
    pub(super) fn check_bound(&self, lb: u64) {
        let Some(w) = &self.referee else {
            return;
        };
        let n = self.db.num_vars;
        let free: Vec<usize> = (0..n).filter(|&v| self.db.value[2 * v] == 0).collect();
        let best = (0u64..1 << free.len())
            .filter_map(|bits| {
                let mut model: Vec<bool> = (0..n).map(|v| self.db.value[2 * v] == 1).collect();
                for (i, &v) in free.iter().enumerate() {
                    model[v] = bits >> i & 1 == 1;
                }
                w.cost(&model)
            })
            .min();
        if let Some(best) = best {
            let total = (self.cost + self.empty + self.offset).saturating_add(lb);
            assert!(
                total <= best,
                "bound {lb} + cost {} + empty {} passes the best extension {best} at depth {}; trail {:?}",
                self.cost,
                self.empty,
                self.levels.len(),
                self.trail
            );
        }
    }

    /// Checks that the transformed formula prices every extension of the assignment that
    /// satisfies the hard clauses as the instance does (the transformations' exactness).
    pub(super) fn check_exact(&self) {
        let Some(w) = &self.referee else {
            return;
        };
        let n = self.db.num_vars;
        let free: Vec<usize> = (0..n).filter(|&v| self.db.value[2 * v] == 0).collect();
        for bits in 0u64..1 << free.len() {
            let mut model: Vec<bool> = (0..n).map(|v| self.db.value[2 * v] == 1).collect();
            for (i, &v) in free.iter().enumerate() {
                model[v] = bits >> i & 1 == 1;
            }
            let Some(cost) = w.cost(&model) else {
                continue;
            };
            let mut ours = self.empty + self.offset;
            for c in 0..self.db.num_clauses() {
                let wt = self.db.weight[c];
                let sat = self
                    .db
                    .clause(c)
                    .iter()
                    .any(|l| model[l.var().index()] == l.is_positive());
                if !sat && wt != HARD {
                    ours += wt;
                }
            }
            assert_eq!(ours, cost, "transformation not exact; model {model:?}");
        }
    }
}

fn random_wcnf(seed: u64) -> Wcnf {
    let mut rng = SplitMix64::new(seed);
    let n = 1 + rng.below(11) as usize;
    let mut w = Wcnf::new(n);
    if seed % 3 == 2 {
        // A weighted independent set: unit softs, binary hard exclusions.
        for x in 0..n as u32 {
            for y in x + 1..n as u32 {
                if rng.below(100) < 40 {
                    let (x, y) = (Var::new(x).unwrap(), Var::new(y).unwrap());
                    w.hard.push(vec![x.neg(), y.neg()]);
                }
            }
            let weight = if seed.is_multiple_of(2) {
                1 + rng.below(5)
            } else {
                1 + rng.below(1 << 40)
            };
            w.add_soft(weight, &[Var::new(x).unwrap().pos()]);
        }
        return w;
    }
    let regime = rng.below(4);
    let lit = |rng: &mut SplitMix64| {
        let v = Var::new(rng.below(n as u64) as u32).expect("small index");
        v.lit(rng.below(2) == 0)
    };
    for _ in 0..rng.below(n as u64 + 1) {
        let len = 1 + rng.below(3) as usize;
        let c: Vec<Lit> = (0..len).map(|_| lit(&mut rng)).collect();
        w.hard.push(c);
    }
    for _ in 0..n + rng.below(3 * n as u64 + 1) as usize {
        let len = rng.below(4) as usize;
        let c: Vec<Lit> = (0..len.max(usize::from(rng.below(8) != 0)))
            .map(|_| lit(&mut rng))
            .collect();
        let weight = match regime {
            0 => 1,
            1 => 1 + rng.below(5),
            2 => 1 + rng.below(1000),
            _ => 1 + rng.below(1 << 50),
        };
        w.add_soft(weight, &c);
    }
    w
}

fn brute_force(w: &Wcnf) -> Option<u64> {
    (0u32..1 << w.num_vars)
        .filter_map(|bits| {
            let m: Vec<bool> = (0..w.num_vars).map(|i| bits >> i & 1 == 1).collect();
            w.cost(&m)
        })
        .min()
}

/// Runs the search to the end in bursts of `ticks` against `ub`; returns the cheapest model
/// it found (checked by the referee).
fn exhaust(w: &Wcnf, ub: u64, ticks: u64, transform: bool) -> Option<(u64, Vec<bool>)> {
    let mut bnb = BranchAndBound::new(&Flat::new(w, w.num_vars), &[]);
    bnb.transform = transform;
    // Failed literals off in the runs of odd budgets, so that both settings are checked.
    bnb.probe = ticks.is_multiple_of(2) || ticks == u64::MAX;
    bnb.referee = Some(w.clone());
    let stop = Terminator::default();
    let mut best = None;
    for _ in 0..1_000_000 {
        let outcome = bnb.search(ub, ticks, &stop);
        if let Some((cost, model)) = bnb.take_model() {
            assert_eq!(w.cost(&model), Some(cost), "a model is priced right");
            best = Some((cost, model));
        }
        if outcome == Outcome::Exhausted {
            return best;
        }
    }
    panic!("the search did not end");
}

#[test]
fn branch_and_bound_finds_the_brute_force_optimum_with_and_without_transformations() {
    let mut transformed = 0;
    let mut positive = 0;
    for seed in 0..1500u64 {
        let w = random_wcnf(seed);
        let optimum = brute_force(&w);
        let total = w.total_soft_weight().expect("weights fit");
        for (transform, ticks) in [(true, u64::MAX), (false, u64::MAX), (true, 40), (true, 41)] {
            let what = format!("seed {seed}, transform {transform}, ticks {ticks}");
            let found = exhaust(&w, total.saturating_add(1), ticks, transform);
            assert_eq!(found.as_ref().map(|f| f.0), optimum, "{what}");
            if let Some(opt) = optimum {
                // Against the optimum itself: nothing cheaper exists; just above it, the
                // optimum is found (a bound that overshoots would prune it).
                assert_eq!(exhaust(&w, opt, ticks, transform), None, "{what}");
                let found = exhaust(&w, opt + 1, ticks, transform);
                assert_eq!(found.map(|f| f.0), Some(opt), "{what}, just above");
            }
        }
        positive += usize::from(optimum.is_some_and(|c| c > 0));
        let mut bnb = BranchAndBound::new(&Flat::new(&w, w.num_vars), &[]);
        bnb.search(total.saturating_add(1), u64::MAX, &Terminator::default());
        transformed += usize::from(bnb.transformed > 0);
    }
    assert!(positive > 1000, "only {positive} instances cost something");
    assert!(
        transformed > 500,
        "only {transformed} runs transformed a subset"
    );
}

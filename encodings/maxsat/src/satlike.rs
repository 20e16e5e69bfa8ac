//! The anytime phase's local search: dynamic clause weighting over the original instance,
//! seeded by the best model, to improve the upper bound while the core-guided lower bound
//! stalls.
//!
//! **Technique.** SATLike (Cai & Lei, "Old techniques in new ways: clause weighting, unit
//! propagation and hybridization for maximum satisfiability", Artificial Intelligence 287,
//! 2020, doi:10.1016/j.artint.2020.103354; the weighted variant of SATLike 3.0, Cai & Lei,
//! AAAI 2020, read to learn). Every clause carries a *dynamic* weight; a variable's score is
//! the dynamic weight its flip would satisfy minus what it would falsify. The walk flips the
//! best-scoring variable among a small random sample of those with positive score (best from
//! multiple selections, BMS); at a local optimum (no positive score) it raises the weights of
//! the falsified clauses — hard clauses without bound, soft clauses up to a limit that grows
//! with their original weight — and flips the best variable of a random falsified clause,
//! hard ones first. A model that satisfies every hard clause and is cheaper (by the original
//! weights) than every earlier one is kept.
//!
//! **When.** `oll.rs` runs it (with `OllOptions::anytime_flips`) once after the first model, so
//! hardening starts from a good upper bound, and again whenever a main engine call exhausts
//! its conflict slice without an answer (the lower bound has stalled); each run starts from the
//! best model so far. Its models are priced by [`Wcnf::cost`](crate::Wcnf::cost) before they are reported, like
//! every other model.
//!
//! **Where ours differs.** SATLike starts from a greedy or random assignment and runs alone; we
//! always start from the core-guided search's best model and run in bounded bursts between
//! engine calls. The soft weight limit is `1 + 20·w/w̄` (w̄ the mean soft weight) rather than
//! SATLike's tuned constants, and there is no weight smoothing. Determinism: one seeded
//! SplitMix64 stream, advanced only by this walk.

use grim_solver::{Lit, Terminator, Var};

use grim_formula::SplitMix64;

use super::flat::Flat;

/// Dynamic-weight increment of a falsified hard clause at a local optimum (SATLike's `h_inc`).
const HARD_INC: i64 = 3;
/// Candidates sampled per step among the improving variables (SATLike's BMS `t`).
const SAMPLES: usize = 15;

/// The walk's state over one instance; built once, reused by every burst. The clauses are the
/// run's [`Flat`] formula (hard ones first), which every method borrows: clause `c` of the
/// arrays below is clause `c` of the flat formula.
pub(super) struct LocalSearch {
    num_vars: usize,
    /// Dynamic weight and, for soft clauses, its limit.
    dw: Vec<i64>,
    limit: Vec<i64>,
    /// `occurs[lit.code()]`: the clauses containing `lit`.
    occurs: Vec<Vec<u32>>,
    value: Vec<bool>,
    /// Per clause: how many of its literals are true, and the variable of one of them (the
    /// only one when the count is 1).
    sat_count: Vec<u32>,
    sat_var: Vec<u32>,
    score: Vec<i64>,
    /// Variables of positive score, and each variable's position in it (`u32::MAX`: absent).
    good: Vec<u32>,
    good_pos: Vec<u32>,
    /// Falsified clauses, and each clause's position in it.
    falsified: Vec<u32>,
    false_pos: Vec<u32>,
    /// Falsified hard clauses (counted, to know when the assignment is a model).
    false_hard: usize,
    /// Original weight of the falsified soft clauses (without the flat formula's `offset`, what
    /// the empty soft clauses cost every model: the referee counts them, the walk not).
    cost: u64,
    rng: SplitMix64,
    /// Flips over all bursts (statistics).
    pub(super) flips: u64,
}

impl LocalSearch {
    /// The walk's state over the flat formula `f` (its dynamic weights start at 1; a soft
    /// clause's limit grows with its weight).
    pub(super) fn new(f: &Flat) -> LocalSearch {
        let num_vars = f.num_vars;
        let soft = &f.soft_weight;
        let mean = if soft.is_empty() {
            1.0
        } else {
            soft.iter().map(|&w| w as f64).sum::<f64>() / soft.len() as f64
        };
        let n = f.num_clauses();
        let mut limit = vec![0i64; n];
        for c in f.num_hard..n {
            limit[c] = 1 + (20.0 * soft[c - f.num_hard] as f64 / mean).min(1e9) as i64;
        }
        let mut occurs = vec![Vec::new(); 2 * num_vars];
        for c in 0..n {
            for &l in f.clause(c) {
                if let Some(o) = occurs.get_mut(l.code()) {
                    o.push(c as u32);
                }
            }
        }
        LocalSearch {
            num_vars,
            dw: vec![1; n],
            limit,
            occurs,
            value: vec![false; num_vars],
            sat_count: vec![0; n],
            sat_var: vec![0; n],
            score: vec![0; num_vars],
            good: Vec::new(),
            good_pos: vec![u32::MAX; num_vars],
            falsified: Vec::new(),
            false_pos: vec![u32::MAX; n],
            false_hard: 0,
            cost: 0,
            rng: SplitMix64::new(0x5a71_1ce0),
            flips: 0,
        }
    }

    fn is_true(&self, l: Lit) -> bool {
        self.value.get(l.var().index()).copied().unwrap_or(false) == l.is_positive()
    }

    /// The variable of the first true literal of clause `c`, in clause order; 0 when none is
    /// true (the flip's callers keep `sat_count` and ask only for a satisfied clause).
    #[inline]
    fn first_true_var(&self, f: &Flat, c: usize) -> usize {
        for i in f.start[c]..f.start[c + 1] {
            let l = f.lits[i];
            if self.is_true(l) {
                return l.var().index();
            }
        }
        0
    }

    /// Sets the assignment to `model` and recomputes counts, scores and the falsified set.
    fn reset(&mut self, f: &Flat, model: &[bool]) {
        for v in 0..self.num_vars {
            self.value[v] = model.get(v).copied().unwrap_or(false);
        }
        self.score.iter_mut().for_each(|s| *s = 0);
        self.good.clear();
        self.good_pos.iter_mut().for_each(|p| *p = u32::MAX);
        self.falsified.clear();
        self.false_pos.iter_mut().for_each(|p| *p = u32::MAX);
        self.false_hard = 0;
        self.cost = 0;
        for c in 0..f.num_clauses() {
            let mut count = 0;
            let mut last = 0;
            for &l in f.clause(c) {
                if self.is_true(l) {
                    count += 1;
                    last = l.var().index() as u32;
                }
            }
            self.sat_count[c] = count;
            self.sat_var[c] = last;
            match count {
                0 => {
                    self.make_false(f, c);
                    for i in f.start[c]..f.start[c + 1] {
                        let v = f.lits[i].var().index();
                        self.score[v] += self.dw[c];
                    }
                }
                1 => self.score[last as usize] -= self.dw[c],
                _ => {}
            }
        }
        for v in 0..self.num_vars {
            self.update_good(v);
        }
    }

    fn make_false(&mut self, f: &Flat, c: usize) {
        self.false_pos[c] = self.falsified.len() as u32;
        self.falsified.push(c as u32);
        if c < f.num_hard {
            self.false_hard += 1;
        } else {
            self.cost = self.cost.saturating_add(f.soft_weight[c - f.num_hard]);
        }
    }

    fn make_true(&mut self, f: &Flat, c: usize) {
        let pos = self.false_pos[c] as usize;
        self.false_pos[c] = u32::MAX;
        self.falsified.swap_remove(pos);
        if let Some(&moved) = self.falsified.get(pos) {
            self.false_pos[moved as usize] = pos as u32;
        }
        if c < f.num_hard {
            self.false_hard -= 1;
        } else {
            self.cost = self.cost.saturating_sub(f.soft_weight[c - f.num_hard]);
        }
    }

    fn update_good(&mut self, v: usize) {
        let inside = self.good_pos[v] != u32::MAX;
        if self.score[v] > 0 && !inside {
            self.good_pos[v] = self.good.len() as u32;
            self.good.push(v as u32);
        } else if self.score[v] <= 0 && inside {
            let pos = self.good_pos[v] as usize;
            self.good_pos[v] = u32::MAX;
            self.good.swap_remove(pos);
            if let Some(&moved) = self.good.get(pos) {
                self.good_pos[moved as usize] = pos as u32;
            }
        }
    }

    /// Flips variable `v`, keeping counts, scores and sets exact.
    fn flip(&mut self, f: &Flat, v: usize) {
        let Some(now_true) = Var::new(v as u32).map(|x| x.lit(!self.value[v])) else {
            return;
        };
        self.flips += 1;
        self.value[v] = !self.value[v];
        self.score[v] = -self.score[v];
        let mut touched: Vec<usize> = Vec::new();
        // Clauses gaining a true literal.
        for k in 0..self.occurs[now_true.code()].len() {
            let c = self.occurs[now_true.code()][k] as usize;
            let w = self.dw[c];
            self.sat_count[c] += 1;
            match self.sat_count[c] {
                1 => {
                    self.make_true(f, c);
                    self.sat_var[c] = v as u32;
                    for i in f.start[c]..f.start[c + 1] {
                        let u = f.lits[i].var().index();
                        if u != v {
                            self.score[u] -= w;
                            touched.push(u);
                        }
                    }
                    // v's own score already flipped sign: breaking c would now cost w.
                }
                2 => {
                    let u = self.sat_var[c] as usize;
                    self.score[u] += w;
                    touched.push(u);
                }
                _ => {}
            }
        }
        // Clauses losing one.
        let now_false = !now_true;
        for k in 0..self.occurs[now_false.code()].len() {
            let c = self.occurs[now_false.code()][k] as usize;
            let w = self.dw[c];
            self.sat_count[c] -= 1;
            match self.sat_count[c] {
                0 => {
                    self.make_false(f, c);
                    for i in f.start[c]..f.start[c + 1] {
                        let u = f.lits[i].var().index();
                        if u != v {
                            self.score[u] += w;
                            touched.push(u);
                        }
                    }
                }
                1 => {
                    // Find the one true literal left; it now breaks c when flipped.
                    let last = self.first_true_var(f, c);
                    self.sat_var[c] = last as u32;
                    self.score[last] -= w;
                    touched.push(last);
                }
                _ => {
                    if self.sat_var[c] as usize == v {
                        self.sat_var[c] = self.first_true_var(f, c) as u32;
                    }
                }
            }
        }
        touched.push(v);
        for u in touched {
            self.update_good(u);
        }
    }

    /// At a local optimum: raise the dynamic weights of the falsified clauses (scores follow).
    fn bump_weights(&mut self, f: &Flat) {
        for k in 0..self.falsified.len() {
            let c = self.falsified[k] as usize;
            let inc = if c < f.num_hard {
                HARD_INC
            } else if self.dw[c] < self.limit[c] {
                1
            } else {
                continue;
            };
            self.dw[c] += inc;
            for i in f.start[c]..f.start[c + 1] {
                let u = f.lits[i].var().index();
                self.score[u] += inc;
                self.update_good(u);
            }
        }
    }

    /// One step of the walk.
    fn step(&mut self, f: &Flat) {
        if !self.good.is_empty() {
            let mut best = u32::MAX;
            for _ in 0..SAMPLES.min(self.good.len()) {
                let v = self.good[self.rng.below(self.good.len() as u64) as usize];
                if best == u32::MAX || self.score[v as usize] > self.score[best as usize] {
                    best = v;
                }
            }
            self.flip(f, best as usize);
            return;
        }
        self.bump_weights(f);
        if self.falsified.is_empty() {
            return;
        }
        // A falsified hard clause if there is one (a few tries), else any falsified clause.
        let mut c = self.falsified[self.rng.below(self.falsified.len() as u64) as usize] as usize;
        if self.false_hard > 0 {
            for _ in 0..4 {
                if c < f.num_hard {
                    break;
                }
                c = self.falsified[self.rng.below(self.falsified.len() as u64) as usize] as usize;
            }
        }
        let mut best = usize::MAX;
        for i in f.start[c]..f.start[c + 1] {
            let u = f.lits[i].var().index();
            if best == usize::MAX || self.score[u] > self.score[best] {
                best = u;
            }
        }
        if best != usize::MAX {
            self.flip(f, best);
        }
    }

    /// Walks for at most `flips` flips from `model`, stopping early when `stop` is set or a
    /// model of cost `target` or less turns up. Returns the cheapest model found that is cheaper
    /// than `bound`, or `None` (costs as [`Wcnf::cost`](crate::Wcnf::cost) computes them).
    pub(super) fn improve(
        &mut self,
        f: &Flat,
        model: &[bool],
        bound: u64,
        target: u64,
        flips: u64,
        stop: &Terminator,
    ) -> Option<Vec<bool>> {
        self.reset(f, model);
        // Empty soft clauses cost every model the same: compare without them.
        let mut best_cost = bound.saturating_sub(f.offset);
        let target = target.saturating_sub(f.offset);
        let mut best: Option<Vec<bool>> = None;
        for i in 0..flips {
            if self.false_hard == 0 && self.cost < best_cost {
                best_cost = self.cost;
                best = Some(self.value.clone());
                if best_cost <= target {
                    break;
                }
            }
            if i % 4096 == 0 && stop.is_set() {
                break;
            }
            self.step(f);
        }
        if self.false_hard == 0 && self.cost < best_cost {
            best = Some(self.value.clone());
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grim_formula::Wcnf;

    fn lit(d: i64) -> Lit {
        Lit::from_dimacs(d).unwrap()
    }

    /// Recomputes every count and score from scratch and compares with the incremental ones.
    fn assert_consistent(ls: &LocalSearch, f: &Flat) {
        let mut score = vec![0i64; ls.num_vars];
        let mut falsified = 0;
        for c in 0..f.num_clauses() {
            let trues: Vec<usize> = f
                .clause(c)
                .iter()
                .filter(|&&l| ls.is_true(l))
                .map(|l| l.var().index())
                .collect();
            assert_eq!(ls.sat_count[c] as usize, trues.len(), "count of clause {c}");
            match trues.len() {
                0 => {
                    falsified += 1;
                    for l in f.clause(c) {
                        score[l.var().index()] += ls.dw[c];
                    }
                }
                1 => {
                    assert_eq!(ls.sat_var[c] as usize, trues[0], "sat_var of clause {c}");
                    score[trues[0]] -= ls.dw[c];
                }
                _ => assert!(trues.contains(&(ls.sat_var[c] as usize))),
            }
        }
        assert_eq!(ls.score, score, "scores");
        assert_eq!(ls.falsified.len(), falsified, "falsified set");
        for v in 0..ls.num_vars {
            assert_eq!(
                ls.good_pos[v] != u32::MAX,
                ls.score[v] > 0,
                "good set at {v}"
            );
        }
    }

    #[test]
    fn incremental_scores_match_a_recomputation_after_every_step() {
        let mut rng = SplitMix64::new(7);
        for round in 0..40 {
            let n = 6 + (round % 5);
            let mut w = Wcnf::new(n);
            for _ in 0..(n * 2) {
                let len = 1 + rng.below(3) as usize;
                let c: Vec<Lit> = (0..len)
                    .map(|_| {
                        let v = 1 + rng.below(n as u64) as i64;
                        lit(if rng.below(2) == 0 { v } else { -v })
                    })
                    .collect();
                if rng.below(3) == 0 {
                    w.hard.push(c);
                } else {
                    w.add_soft(1 + rng.below(9), &c);
                }
            }
            let f = Flat::new(&w, n);
            let mut ls = LocalSearch::new(&f);
            ls.reset(&f, &vec![false; n]);
            assert_consistent(&ls, &f);
            for _ in 0..200 {
                ls.step(&f);
                assert_consistent(&ls, &f);
                let model = ls.value.clone();
                if ls.false_hard == 0 {
                    assert_eq!(w.cost(&model), Some(ls.cost), "cost of a model");
                } else {
                    assert_eq!(w.cost(&model), None, "hard clauses falsified");
                }
            }
        }
    }

    #[test]
    fn weights_near_two_to_the_63_are_priced_without_wrapping() {
        // Three softs of 2^62 (sum 3·2^62 < 2^64) and one hard clause: the best model violates
        // one soft; the bound and the cost stay exact.
        let big = 1u64 << 62;
        let mut w = Wcnf::new(3);
        w.hard.push(vec![lit(1), lit(2), lit(3)]);
        for v in 1..=3 {
            w.add_soft(big, &[lit(-v)]);
        }
        let f = Flat::new(&w, 3);
        let mut ls = LocalSearch::new(&f);
        let stop = Terminator::default();
        let m = ls
            .improve(&f, &[true, true, true], 3 * big, 0, 10_000, &stop)
            .expect("improves");
        assert_eq!(w.cost(&m), Some(big), "model {m:?}");
        let soft_limits = &ls.limit[f.num_hard..];
        assert!(
            soft_limits.iter().all(|&l| l == 21),
            "limits {soft_limits:?}"
        );
    }

    #[test]
    fn the_walk_finds_the_optimum_of_a_small_instance_from_a_bad_model() {
        // Hard: at least one of 1..4 true; softs prefer each false, and 4 costs least. The
        // optimum sets only 4 true (cost 1).
        let mut w = Wcnf::new(4);
        w.hard.push(vec![lit(1), lit(2), lit(3), lit(4)]);
        for (v, wt) in [(1, 5), (2, 6), (3, 7), (4, 1)] {
            w.add_soft(wt, &[lit(-v)]);
        }
        let f = Flat::new(&w, 4);
        let mut ls = LocalSearch::new(&f);
        let start = vec![true, true, true, false];
        let stop = Terminator::default();
        let m = ls
            .improve(&f, &start, 18, 0, 10_000, &stop)
            .expect("improves");
        assert_eq!(w.cost(&m), Some(1), "model {m:?}");
    }
}

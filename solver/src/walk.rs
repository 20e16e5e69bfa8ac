//! Local search as a rephasing step: a bounded ProbSAT run whose best assignment becomes the
//! saved (and target) phases.
//!
//! ProbSAT: Balint & Schöning, "Choosing probability distributions for stochastic local search
//! and the role of make versus break" (SAT 2012) — pick a falsified clause at random, flip one
//! of its variables with probability proportional to `cb^-break`. Using it to set phases inside
//! CDCL follows CaDiCaL's `walk` (Biere, SAT Competition 2019/2020 system descriptions). It is
//! what lets CDCL finish uniform random satisfiable instances near the threshold, where the
//! search alone flounders (MiniSat times out on several `sat09` 3-SAT instances of sat-main).
//!
//! Ours walks over the irredundant clauses at level 0 only (fixed variables keep their values),
//! with `cb` interpolated by average clause length from the ProbSAT paper's exponential-break
//! table, and a budget in occurrence visits tied to the propagations since the previous walk
//! (`walk_effort`) plus `walk_base_effort` per literal of the walk's clauses. Randomness comes
//! from a splitmix64 stream (`rng.rs`) seeded by `seed` and the walk count: the same run walks
//! the same way every time.
//!
//! **Break counts are kept, not recounted.** Every clause carries its number of true literals
//! and the XOR of their variables (which names the one true literal when there is one), and
//! every variable the number of clauses it alone satisfies; a flip updates these over the
//! occurrences of the two literals it touches, and a pick reads one count per literal of the
//! clause (ProbSAT's own implementation keeps break values the same way). Recounting scanned
//! the occurrences of every literal of the picked clause: on 5-SAT at the threshold (about 53
//! occurrences per literal) a flip visited about 320 occurrences, now about 110. At the base
//! share a walk is still charged what the recount cost (the occurrences of the negations of
//! the picked clause's literals, and of the literal a flip falsifies), so it makes exactly the
//! flips it made before and only takes less time: where walks end far from a model, the
//! search is the same, decision for decision, as before the boost below came. Charging the
//! real visits everywhere (so that the same budget flipped about three times as often on
//! 5-SAT) changed the search on every satisfiable structured instance, and the own structured
//! set's PAR-2 over seeds 0–2 went from 516 to 629 s, most of it satisfiable instances that
//! time out with some seeds anyway (44bits_11, vmpc_29, queen12_12): not a measured loss, but
//! not a measured gain either. A boosted walk, which is new, is charged its real visits.
//!
//! **Near misses earn walks more effort.** A fixed share is what Kissat and CaDiCaL give their
//! walks (Kissat 4.0.4 spent 0.8% of its time walking on the SAT'09 5-SAT instance with 120
//! variables of sat-main, and timed out at 60 s, as grim did), and it is far too little for
//! uniform random formulas near the threshold, where CDCL flounders and ProbSAT finds the
//! model if it walks long enough: on the 14 satisfiable SAT'09 instances of sat-main at 60 s,
//! `walk_effort` 0.5 (a few tenths of a percent of the run) gave PAR-2 250–450 s by seed, 20
//! gave 11 and 23 s (seeds 0 and 1). But 20 everywhere spends 10–40% of the run walking on
//! structured formulas whose walks end far from a model (p01_lb_05, gss-13, gus-md5). So the
//! share follows the walks: a walk that ends with at most `walk_near_miss` clauses falsified
//! doubles the next walk's share, up to `walk_boost_max` times, and any other walk halves it.
//! The price is paid on small unsatisfiable formulas whose walks also end one clause short of
//! a model (pigeonhole, clique colouring, Urquhart, FPGA routing): there no walk can succeed,
//! and walking takes about 0.35% of the run times the boost.

#![forbid(unsafe_code)]

use crate::inprocess::effort_since;
use crate::options::Options;
use crate::rng::SplitMix64;
use crate::solver::Solver;
use crate::types::{L_FALSE, L_TRUE, L_UNDEF, Lit};

/// Mixed into the seed with the walk count, so that every walk of a run draws its own stream.
const WALK_STREAM: u64 = 0x2545_F491_4F6C_DD1D;
/// Break counts at or above this share the last probability (`base^-(BREAK_CAP-1)`, which is
/// below 1e-25 for every base of the table: such flips are never picked in practice).
const BREAK_CAP: usize = 64;

/// What the walk remembers between two walks: written only here.
pub(crate) struct Walk {
    /// Propagation count at the previous walk (the walk budget is relative to it).
    props_mark: u64,
    /// What the next walk's `walk_effort` share is multiplied by: doubled after a near miss,
    /// halved after a walk that ended far from a model (module doc).
    boost: u64,
}

impl Default for Walk {
    fn default() -> Walk {
        Walk {
            props_mark: 0,
            boost: 1,
        }
    }
}

impl Walk {
    /// Doubles the boost (up to `walk_boost_max`) when the walk just done left at most
    /// `walk_near_miss` clauses falsified, and halves it (down to 1) otherwise.
    fn adapt(&mut self, best_broken: usize, opts: &Options) {
        let max = opts.walk_boost_max.max(1);
        self.boost = if best_broken as u64 <= opts.walk_near_miss {
            (self.boost * 2).min(max)
        } else {
            (self.boost / 2).max(1)
        };
    }
}

/// ProbSAT's base for exponential break, by clause length (Balint & Schöning 2012, table 1);
/// lengths in between are interpolated, longer ones use the last entry.
fn break_base(avg_len: f64) -> f64 {
    const TABLE: [(f64, f64); 5] = [(3.0, 2.5), (4.0, 2.85), (5.0, 3.7), (6.0, 5.1), (7.0, 7.4)];
    if avg_len <= TABLE[0].0 {
        return TABLE[0].1;
    }
    for w in TABLE.windows(2) {
        let ((l0, b0), (l1, b1)) = (w[0], w[1]);
        if avg_len <= l1 {
            return b0 + (b1 - b0) * (avg_len - l0) / (l1 - l0);
        }
    }
    TABLE[TABLE.len() - 1].1
}

impl Solver {
    /// Runs ProbSAT from the saved phases and installs the best assignment found as saved and
    /// target phases. Pre: decision level 0, propagated, no conflict.
    pub(crate) fn walk(&mut self) {
        debug_assert_eq!(self.trail.decision_level(), 0);
        self.stats.walks += 1;
        let n = self.trail.num_vars();
        // Clause database for the walk: unassigned literals of the irredundant clauses not
        // satisfied at level 0, in CSR form.
        let mut lits: Vec<Lit> = Vec::new();
        let mut starts: Vec<u32> = vec![0];
        for &c in &self.clauses.originals {
            let cl = self.arena.lits(c);
            if cl.iter().any(|&l| self.trail.value(l) == L_TRUE) {
                continue;
            }
            lits.extend(
                cl.iter()
                    .copied()
                    .filter(|&l| self.trail.value(l) == L_UNDEF),
            );
            starts.push(lits.len() as u32);
        }
        let m = starts.len() - 1;
        if m == 0 {
            return;
        }
        let base = break_base(lits.len() as f64 / m as f64);
        // Occurrence lists per literal (CSR).
        let mut occ_start = vec![0u32; 2 * n + 1];
        for &l in &lits {
            occ_start[l.code() + 1] += 1;
        }
        for i in 0..2 * n {
            occ_start[i + 1] += occ_start[i];
        }
        let occurrences = |l: Lit| occ_start[l.code()] as usize..occ_start[l.code() + 1] as usize;
        let mut fill = occ_start.clone();
        let mut occ = vec![0u32; lits.len()];
        for c in 0..m {
            for &l in &lits[starts[c] as usize..starts[c + 1] as usize] {
                occ[fill[l.code()] as usize] = c as u32;
                fill[l.code()] += 1;
            }
        }
        // Current assignment: saved phases for free variables.
        let mut value: Vec<bool> = (0..n)
            .map(|v| match self.trail.var_value(v) {
                L_TRUE => true,
                L_FALSE => false,
                _ => self.phases.saved[v],
            })
            .collect();
        let is_true = |value: &[bool], l: Lit| value[l.var().index()] == l.is_positive();
        // Per clause: how many literals are true, and the XOR of their variables (while one
        // is true, that is its variable). Per variable: `breaks`, the clauses whose only true
        // literal is the variable's, which flipping it would falsify. Kept up to date by each
        // flip, so a pick reads one count per literal instead of scanning occurrence lists.
        let mut num_true = vec![0u32; m];
        let mut true_xor = vec![0u32; m];
        let mut breaks = vec![0u32; n];
        let mut broken: Vec<u32> = Vec::new();
        let mut broken_pos = vec![u32::MAX; m];
        for c in 0..m {
            for &l in &lits[starts[c] as usize..starts[c + 1] as usize] {
                if is_true(&value, l) {
                    num_true[c] += 1;
                    true_xor[c] ^= l.var().index() as u32;
                }
            }
            match num_true[c] {
                0 => {
                    broken_pos[c] = broken.len() as u32;
                    broken.push(c as u32);
                }
                1 => breaks[true_xor[c] as usize] += 1,
                _ => {}
            }
        }
        let mut best = value.clone();
        let mut best_broken = broken.len();
        let budget = effort_since(
            self.walk.props_mark,
            self.stats.propagations,
            self.opts.walk_effort,
        )
        .saturating_mul(self.walk.boost)
            + self.opts.walk_base_effort * lits.len() as u64;
        self.walk.props_mark = self.stats.propagations;
        if self.walk.boost > 1 {
            self.stats.boosted_walks += 1;
        }
        let mut ticks = 0u64;
        let recount_charge = self.walk.boost == 1;
        let mut rng = SplitMix64::new(self.opts.seed ^ self.stats.walks.wrapping_mul(WALK_STREAM));
        let mut probs: Vec<f64> = Vec::new();
        let pow: Vec<f64> = (0..BREAK_CAP as i32).map(|b| base.powi(-b)).collect();
        while !broken.is_empty() && ticks < budget {
            let c = broken[rng.below_fast(broken.len())] as usize;
            let cl = &lits[starts[c] as usize..starts[c + 1] as usize];
            probs.clear();
            let mut sum = 0.0;
            for &l in cl {
                // At the base share, charged as a recount would cost (the occurrences of
                // ¬l); boosted, the one read (module doc).
                ticks += if recount_charge {
                    occurrences(!l).len() as u64 + 1
                } else {
                    1
                };
                let p = pow[(breaks[l.var().index()] as usize).min(BREAK_CAP - 1)];
                probs.push(p);
                sum += p;
            }
            let mut r = rng.unit() * sum;
            let mut pick = cl.len() - 1;
            for (k, &p) in probs.iter().enumerate() {
                if r < p {
                    pick = k;
                    break;
                }
                r -= p;
            }
            let l = cl[pick];
            let v = l.var().index();
            // Flip: l becomes true, ¬l false.
            value[v] = l.is_positive();
            let on = occurrences(l);
            if !recount_charge {
                ticks += on.len() as u64;
            }
            for &d in &occ[on] {
                let d = d as usize;
                num_true[d] += 1;
                true_xor[d] ^= v as u32;
                match num_true[d] {
                    1 => {
                        // Was broken: now l alone satisfies it.
                        breaks[v] += 1;
                        let pos = broken_pos[d] as usize;
                        let last = broken.len() - 1;
                        broken.swap(pos, last);
                        broken_pos[broken[pos] as usize] = pos as u32;
                        broken.pop();
                        broken_pos[d] = u32::MAX;
                    }
                    // The literal that alone satisfied it no longer does.
                    2 => breaks[(true_xor[d] ^ v as u32) as usize] -= 1,
                    _ => {}
                }
            }
            let off = occurrences(!l);
            ticks += off.len() as u64;
            for &d in &occ[off] {
                let d = d as usize;
                num_true[d] -= 1;
                true_xor[d] ^= v as u32;
                match num_true[d] {
                    0 => {
                        // ¬l alone satisfied it: broken now.
                        breaks[v] -= 1;
                        broken_pos[d] = broken.len() as u32;
                        broken.push(d as u32);
                    }
                    // The one true literal left satisfies it alone.
                    1 => breaks[true_xor[d] as usize] += 1,
                    _ => {}
                }
            }
            if broken.len() < best_broken {
                best_broken = broken.len();
                best.copy_from_slice(&value);
            }
        }
        // The counts kept up to date by the flips are the ones a fresh count gives.
        #[cfg(debug_assertions)]
        {
            let mut fresh = vec![0u32; n];
            for c in 0..m {
                let cl = &lits[starts[c] as usize..starts[c + 1] as usize];
                let t: Vec<Lit> = cl.iter().copied().filter(|&l| is_true(&value, l)).collect();
                debug_assert_eq!(t.len() as u32, num_true[c]);
                debug_assert_eq!(num_true[c] == 0, broken_pos[c] != u32::MAX);
                if let [only] = t[..] {
                    fresh[only.var().index()] += 1;
                }
            }
            debug_assert_eq!(fresh, breaks);
        }
        self.walk.adapt(best_broken, &self.opts);
        self.stats.walk_best_broken = best_broken as u64;
        for (v, &b) in best.iter().enumerate() {
            if self.trail.var_value(v) == L_UNDEF {
                self.phases.saved[v] = b;
                self.phases.target[v] = if b { L_TRUE } else { L_FALSE };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Walk;
    use crate::options::Options;

    #[test]
    fn near_misses_double_the_boost_up_to_the_cap_and_other_walks_halve_it() {
        let opts = Options {
            walk_near_miss: 2,
            walk_boost_max: 8,
            ..Options::default()
        };
        let mut w = Walk::default();
        assert_eq!(w.boost, 1);
        let mut seen = Vec::new();
        for broken in [2, 0, 1, 2, 2, 3, 40, 1] {
            w.adapt(broken, &opts);
            seen.push(w.boost);
        }
        assert_eq!(seen, [2, 4, 8, 8, 8, 4, 2, 4]);
        for _ in 0..10 {
            w.adapt(3, &opts);
        }
        assert_eq!(w.boost, 1, "never below 1");
        let fixed = Options {
            walk_boost_max: 1,
            ..opts
        };
        w.adapt(0, &fixed);
        assert_eq!(w.boost, 1, "a cap of 1 is a fixed share");
    }
}

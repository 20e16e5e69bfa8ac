//! Stratification: assume the heavy terms first.
//!
//! **Technique.** The terms are split into strata by weight. The engine is first asked to
//! satisfy only the terms of weight ≥ the first level; cores found there are heavy, so the lower
//! bound climbs fast and the models found are good in the part of the objective that matters
//! most. A SAT answer at a level moves the threshold down to the next level; the optimum is
//! proven only at the last level, where every live term is assumed. Split weights (a term
//! reduced by a core) fall to lower levels by themselves because levels are recomputed from the
//! live weights every time.
//!
//! **Papers.** Ansótegui, Bonet, Gabàs & Levy, "Improving SAT-based weighted MaxSAT solvers",
//! CP 2012, doi:10.1007/978-3-642-33558-7_9 (stratification, the diversity heuristic); Marques-Silva,
//! Argelich, Graça & Lynce, "Boolean lexicographic optimization", AI Commun. 2011 (the BLO
//! condition); RC2 (Ignatiev, Morgado & Marques-Silva, JSAT 2019), whose `div` rule this is.
//!
//! **The rule (RC2's `next_level`).** Walk the distinct weights below the current threshold
//! from the heaviest; stop at weight `w` when either
//! - `w` exceeds the sum of all lighter terms (a BLO boundary: nothing below can outweigh it),
//! - or the lighter terms are not diverse: their count per distinct weight exceeds `sdiv`,
//!   half the number of distinct weights of the instance,
//!
//! and make `w` the new threshold. **Where ours differs:** RC2 keeps the list of levels from
//! the start and appends split weights; we recompute it from the live terms, which gives the
//! same levels without the bookkeeping.

use grim_solver::Lit;

use super::oll::{Oll, Term};

/// The next threshold among `weights` (the live term weights) strictly below `below` (all of
/// them when `None`), by the rule above; `None` when no weight lies below.
pub(super) fn level(weights: &[u64], below: Option<u64>, sdiv: f64) -> Option<u64> {
    let mut ws: Vec<u64> = weights
        .iter()
        .copied()
        .filter(|&w| below.is_none_or(|b| w < b))
        .collect();
    if ws.is_empty() {
        return None;
    }
    ws.sort_unstable_by(|a, b| b.cmp(a));
    // Distinct weights (descending) with their counts.
    let mut levels: Vec<(u64, u64)> = Vec::new();
    for w in ws {
        match levels.last_mut() {
            Some((lw, n)) if *lw == w => *n += 1,
            _ => levels.push((w, 1)),
        }
    }
    // Suffix sums of counts and weights below each level (u128: weight × count cannot overflow).
    let mut idx = 0;
    while idx + 1 < levels.len() {
        let (w, _) = levels[idx];
        let below_levels = &levels[idx + 1..];
        let numr: u64 = below_levels.iter().map(|(_, n)| n).sum();
        let sumr: u128 = below_levels
            .iter()
            .map(|&(lw, n)| lw as u128 * n as u128)
            .sum();
        if sumr != 0 && (w as u128) > sumr {
            break;
        }
        if numr as f64 / below_levels.len() as f64 > sdiv {
            break;
        }
        idx += 1;
    }
    levels.get(idx).map(|&(w, _)| w)
}

/// The stratification's state (`Oll::strata`), written only here.
#[derive(Debug)]
pub(super) struct Strata {
    /// Terms of at least this weight are assumed (the current stratum).
    threshold: u64,
    /// RC2's diversity parameter: half the number of distinct initial weights.
    sdiv: f64,
}

impl Strata {
    /// Everything assumed, until `measure_diversity` and `first_stratum` run.
    pub(super) fn new() -> Strata {
        Strata {
            threshold: 1,
            sdiv: 0.0,
        }
    }
}

impl Oll {
    /// Sets the diversity parameter from the live weights, once the terms are final (the end
    /// of `Oll::new`).
    pub(super) fn measure_diversity(&mut self) {
        let mut weights: Vec<u64> = self.live_weights().collect();
        weights.sort_unstable();
        weights.dedup();
        self.strata.sdiv = weights.len() as f64 / 2.0;
    }

    /// Enters the first stratum: its threshold is 1 (everything) without stratification.
    pub(super) fn first_stratum(&mut self) {
        self.strata.threshold = if self.opts.stratify {
            let weights: Vec<u64> = self.live_weights().collect();
            level(&weights, None, self.strata.sdiv).unwrap_or(1)
        } else {
            1
        };
        self.stats.strata += 1;
    }

    /// Moves the threshold down to the next level (called after a SAT answer that left lighter
    /// terms unassumed).
    pub(super) fn next_stratum(&mut self) {
        let weights: Vec<u64> = self.live_weights().collect();
        self.strata.threshold =
            level(&weights, Some(self.strata.threshold), self.strata.sdiv).unwrap_or(1);
        self.stats.strata += 1;
    }

    /// Whether the current stratum assumes term `t` (live, and at least the threshold).
    pub(super) fn in_stratum(&self, t: &Term) -> bool {
        t.live && t.weight >= self.strata.threshold
    }

    /// Whether the current stratum assumes every live term (a SAT answer then proves the
    /// optimum: the invariant of `oll.rs`).
    pub(super) fn everything_assumed(&self) -> bool {
        self.terms.iter().all(|t| !t.live || self.in_stratum(t))
    }

    /// The assumptions of the current stratum: live terms of weight ≥ threshold, heaviest first
    /// (ties in term order).
    ///
    /// Why heaviest first: the engine decides assumptions in the order given, so the first
    /// conflicts, and the cores they yield, involve the heavy terms; a core's minimum weight is
    /// what the lower bound gains. RC2 gets this order by accident of its bookkeeping (it
    /// activates the selectors level by level, heaviest weight first). Measured on
    /// `maxsat-main`: term order 385 s CPU, heaviest first 240 s (wsc_250_150_4_50_3: over 60 s
    /// → 5.4 s; wsc_220_120_4_50_1: 3.4 → 0.4 s).
    pub(super) fn stratum(&self) -> Vec<Lit> {
        let mut terms: Vec<(u64, usize)> = self
            .terms
            .iter()
            .enumerate()
            .filter(|(_, t)| self.in_stratum(t))
            .map(|(i, t)| (t.weight, i))
            .collect();
        terms.sort_unstable_by_key(|&(w, i)| (std::cmp::Reverse(w), i));
        terms.into_iter().map(|(_, i)| self.terms[i].lit).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::level;

    #[test]
    fn a_blo_boundary_stops_the_first_level() {
        // 100 outweighs 3·1: the first level is 100 alone.
        assert_eq!(level(&[100, 1, 1, 1], None, 1.0), Some(100));
    }

    #[test]
    fn equal_weights_form_one_level() {
        assert_eq!(level(&[5, 5, 5], None, 0.5), Some(5));
        assert_eq!(level(&[5, 5, 5], Some(5), 0.5), None);
    }

    #[test]
    fn diverse_lighter_weights_are_taken_together() {
        // Weights 10, 9, 8, 7, 7: the lighter part stays diverse (at most 2 per weight ≤ sdiv
        // = 2) and no weight beats the sum below it (8 < 7 + 7), so the walk reaches the
        // lightest.
        assert_eq!(level(&[10, 9, 8, 7, 7], None, 2.0), Some(7));
        // With a single 7, 8 outweighs everything below it: a BLO boundary stops the walk.
        assert_eq!(level(&[10, 9, 8, 7], None, 2.0), Some(8));
    }
}

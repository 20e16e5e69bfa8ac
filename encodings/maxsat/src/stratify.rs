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

use super::oll::Oll;

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

impl Oll {
    /// The threshold of the first stratum: 1 (everything) without stratification.
    pub(super) fn first_threshold(&self) -> u64 {
        if !self.opts.stratify {
            return 1;
        }
        let weights: Vec<u64> = self.live_weights().collect();
        level(&weights, None, self.sdiv).unwrap_or(1)
    }

    /// Moves the threshold down to the next level (called after a SAT answer that left lighter
    /// terms unassumed).
    pub(super) fn next_stratum(&mut self) {
        let weights: Vec<u64> = self.live_weights().collect();
        self.threshold = level(&weights, Some(self.threshold), self.sdiv).unwrap_or(1);
        self.stats.strata += 1;
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

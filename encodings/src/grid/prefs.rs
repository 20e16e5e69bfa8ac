//! Seeded preferences: one wished-for tile per cell, drawn from the tile weights.
//!
//! The generator is splitmix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number
//! generators", OOPSLA 2014, doi:10.1145/2660193.2660195): written here in ten lines so that the
//! same seed gives the same level on every platform and every version of every dependency.
//! Cells are visited in row-major order and each draws exactly one 64-bit number, whether or not
//! its domain leaves a choice, so a pin in one cell does not shift the wishes of the others. The
//! wish is drawn among the tiles the cell's domain allows, with probability proportional to
//! their weights (`draw % total`; uniform when every allowed weight is 0 — the modulo bias is
//! below 2^-40 for any realistic total). Every tile variable of the cell is hinted: the wish
//! true, the others false. Layers are hinted to their first value ("nothing"), so items appear
//! where the rules need them. As hints (default) the wishes steer which of the equally good
//! levels is found; as soft unit clauses (mode "soft") each unmet wish costs `weight`.

use super::spec::Preferences;
use super::{GridModel, GridOptions, GridSpec};

/// splitmix64: a 64-bit state advanced by the golden-ratio increment and mixed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next number.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The effective preferences: the file's, overridden by the options.
pub(crate) fn resolve(spec: &GridSpec, options: &GridOptions) -> Option<Preferences> {
    let mut p = match (&spec.preferences, options.seed) {
        (Some(p), _) => p.clone(),
        (None, Some(_)) => Preferences {
            seed: 0,
            soft: false,
            weight: 1,
        },
        (None, None) => return None,
    };
    if let Some(seed) = options.seed {
        p.seed = seed;
    }
    if let Some(soft) = options.soft_preferences {
        p.soft = soft;
    }
    Some(p)
}

/// The wished-for tile of every cell (row-major), as drawn from `seed`.
pub fn wishes(spec: &GridSpec, seed: u64) -> Vec<usize> {
    let mut rng = SplitMix64::new(seed);
    let t = spec.tiles.len();
    (0..spec.cells())
        .map(|c| {
            let draw = rng.next();
            let allowed: Vec<usize> = (0..t).filter(|&a| spec.domains[c][a]).collect();
            let total: u128 = allowed.iter().map(|&a| spec.tiles[a].weight as u128).sum();
            if total == 0 {
                return allowed
                    [(draw % allowed.len().max(1) as u64) as usize % allowed.len().max(1)];
            }
            let mut r = draw as u128 % total;
            for &a in &allowed {
                let w = spec.tiles[a].weight as u128;
                if r < w {
                    return a;
                }
                r -= w;
            }
            allowed[allowed.len() - 1]
        })
        .collect()
}

/// Emits the hints (and, in soft mode, the soft unit clauses).
pub(crate) fn encode(m: &mut GridModel, p: &Preferences) {
    let wished = wishes(&m.spec, p.seed);
    let t = m.spec.tiles.len();
    for (c, &w) in wished.iter().enumerate() {
        for a in 0..t {
            let lit = m.tile_lit(c, a);
            m.hints.push(if a == w { lit } else { !lit });
            m.problem.prefer(lit.var(), a == w);
        }
        if p.soft {
            let lit = m.tile_lit(c, w);
            m.problem.add_clause(&[lit], Some(p.weight));
        }
    }
    let layer_hints = std::env::var_os("GRID_NO_LAYER_HINTS").is_none();
    for l in 0..m.spec.layers.len() * usize::from(layer_hints) {
        for c in 0..m.spec.cells() {
            for v in 0..m.spec.layers[l].values.len() {
                let lit = m.value_lit(l, c, v);
                m.hints.push(if v == 0 { lit } else { !lit });
                m.problem.prefer(lit.var(), v == 0);
            }
        }
    }
}

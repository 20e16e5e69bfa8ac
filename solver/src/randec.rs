//! Random decision sequences: for a few conflicts now and then, focused mode decides on
//! variables drawn at random instead of the front of the VMTF queue.
//!
//! Why: the queue decides by recency alone, so focused mode keeps returning to the variables
//! of the last few conflicts; on formulas whose refutation needs many unrelated parts (XOR
//! chains, clique colouring) it digs one corner for a long time. A short burst of random
//! decisions right after a restart sets up conflicts elsewhere, and their bumps pull new
//! variables to the front of the queue. Kissat 4.0.4 in focused mode only (`--stable=0`) needs
//! 1.57M conflicts for Urquhart-s4-b1 (own structured set) with its random decisions and
//! 4.92M without (`--randecfocused=0`), where grim's focused mode needed 7–9M over three seeds
//! without them. From Kissat's `randec` (its 2024 SAT Competition version); we know of no
//! paper on it.
//!
//! When: a sequence starts at the first decision of a search pass (decision level at most one
//! above the assumptions, i.e. just after a restart) once `randec_interval · log10(k + 9)`
//! conflicts have passed since the previous one started (`k`: sequences so far), and at every
//! switch into focused mode. It lasts `randec_length · log10(k + 9)` conflicts; during them
//! every decision of focused mode takes a variable drawn uniformly from the unassigned,
//! non-eliminated ones, with the usual phase (`decide.rs`). Stable mode never decides at
//! random (Kissat's `randecstable` is off too): its target phases are what find models.
//!
//! Deviations: Kissat draws until it hits an unassigned variable; we draw at most `DRAWS`
//! times and then decide by the queue, so a nearly full assignment costs nothing. The stream
//! is a splitmix64 (`rng.rs`) seeded by `seed` and the sequence count, as the walks do: the
//! same run draws the same variables every time.
//!
//! State owned here (`RandomDecisions`): the conflicts left in the current sequence, the
//! conflict count before which no new one starts, the sequence count and the stream; written
//! only by this file's methods, which `search.rs` (the rung and the conflict count), `mode.rs`
//! (a switch into focused mode) and `decide.rs` (the draw) call.

#![forbid(unsafe_code)]

use crate::rng::SplitMix64;
use crate::solver::Solver;
use crate::types::L_UNDEF;

/// Mixed into the seed with the sequence count, so that each sequence draws its own stream.
const RANDEC_STREAM: u64 = 0x5851_F42D_4C95_7F2D;
/// Draws per random decision before it falls back to the queue.
const DRAWS: usize = 32;

/// The schedule and stream of random decision sequences (module doc).
pub(crate) struct RandomDecisions {
    /// Conflicts left in the current sequence; 0 when no sequence runs.
    left: u64,
    /// No sequence starts (at a restart) before this conflict count.
    limit: u64,
    /// Whether `limit` was set (the first `solve` sets it).
    started: bool,
    /// The draws of the current sequence.
    rng: SplitMix64,
}

impl Default for RandomDecisions {
    fn default() -> RandomDecisions {
        RandomDecisions {
            left: 0,
            limit: 0,
            started: false,
            rng: SplitMix64::new(0),
        }
    }
}

/// `log10(k + 9)`: Kissat's slow growth of intervals with a count `k` ≥ 1 (1 at `k` = 1).
fn logn(k: u64) -> f64 {
    ((k + 9) as f64).log10()
}

impl Solver {
    /// Sets the first limit, once: the schedule carries over between `solve` calls.
    pub(crate) fn start_random_decisions(&mut self) {
        let r = &mut self.randec;
        if !r.started {
            r.started = true;
            r.limit = self.stats.conflicts + self.opts.randec_interval;
        }
    }

    /// Whether a random decision sequence is due: focused mode, none running, the interval
    /// passed, and the next decision is the first of a search pass.
    #[inline]
    pub(crate) fn randomizing(&self) -> bool {
        self.opts.randec
            && self.randec.left == 0
            && !self.mode.is_stable()
            && self.stats.conflicts >= self.randec.limit
            && self.trail.decision_level() as usize <= self.assumptions.len() + 1
    }

    /// Starts a random decision sequence (or lets the running one go on), in focused mode
    /// only; `mode.rs` calls it at each switch, the search ladder when `randomizing`.
    pub(crate) fn start_random_sequence(&mut self) {
        if !self.opts.randec || self.mode.is_stable() || self.randec.left > 0 {
            return;
        }
        self.stats.random_sequences += 1;
        let k = self.stats.random_sequences;
        let r = &mut self.randec;
        r.left = ((self.opts.randec_length as f64 * logn(k)) as u64).max(1);
        r.limit = self.stats.conflicts + (self.opts.randec_interval as f64 * logn(k)) as u64;
        r.rng = SplitMix64::new(self.opts.seed ^ k.wrapping_mul(RANDEC_STREAM));
    }

    /// Counts one conflict against the running sequence (every conflict, in either mode).
    #[inline(always)]
    pub(crate) fn random_sequence_conflict(&mut self) {
        self.randec.left = self.randec.left.saturating_sub(1);
    }

    /// A variable drawn at random for the next decision when a sequence runs in focused mode:
    /// unassigned and not eliminated, or `None` (no sequence, or `DRAWS` draws all missed).
    #[inline]
    pub(crate) fn random_decision(&mut self) -> Option<usize> {
        if self.randec.left == 0 || self.mode.is_stable() {
            return None;
        }
        let n = self.trail.num_vars();
        if n == 0 {
            return None;
        }
        for _ in 0..DRAWS {
            let v = self.randec.rng.below_fast(n);
            if self.trail.var_value(v) == L_UNDEF
                && !self.elim.is_eliminated(v)
                && !self.deferred.has(v)
            {
                self.stats.random_decisions += 1;
                return Some(v);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::logn;

    #[test]
    fn the_interval_scale_starts_at_one_and_grows_slowly() {
        assert!((logn(1) - 1.0).abs() < 1e-12);
        assert!(logn(91) > 1.99 && logn(91) < 2.01);
        assert!(logn(2) > logn(1));
    }
}

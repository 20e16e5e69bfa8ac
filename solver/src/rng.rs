//! The engine's one pseudo-random stream: splitmix64 (Steele, Lea & Flood, "Fast splittable
//! pseudorandom number generators", OOPSLA 2014), seeded from the `seed` option.
//!
//! Randomness in the engine is always this stream and always seeded, so the same input and
//! options give the same run (DESIGN.md, determinism). Two users: the seeded tie-break of the
//! initial variable order (`decide.rs`, one `mix` per variable) and local search (`walk.rs`, a
//! `SplitMix64` per walk).

#![forbid(unsafe_code)]

/// The splitmix64 increment: 2^64 divided by the golden ratio, odd.
pub(crate) const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's output function: a bijective mix of one 64-bit state.
#[inline]
pub(crate) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The top 53 bits of `z` as a float in `[0, 1)`.
#[inline]
pub(crate) fn unit(z: u64) -> f64 {
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// A splitmix64 stream.
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    /// The next 64 random bits.
    #[inline]
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN);
        mix(self.0)
    }

    /// A number in `0..n` (Lemire's multiply-shift on the top 32 bits; `n` < 2^32).
    #[inline]
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }

    /// A float in `[0, 1)`.
    #[inline]
    pub(crate) fn unit(&mut self) -> f64 {
        unit(self.next())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_matches_the_published_splitmix64_outputs() {
        // The reference outputs of splitmix64 seeded with 1234567 (from the author's C code).
        let mut r = SplitMix64(1234567);
        let got: Vec<u64> = (0..3).map(|_| r.next()).collect();
        assert_eq!(
            got,
            vec![
                6457827717110365317,
                3203168211198807973,
                9817491932198370423
            ]
        );
    }
}

//! Which encoding is smallest (auxiliary variables + clauses) for each oriented bound, and how
//! far the front end's choice (`card::choose`) is from the best: the measurement behind the
//! thresholds in `card/mod.rs`.
//!
//! `cargo run --release -p grim-encodings --example card_sweep [-- -v]` (`-v` lists every
//! bound where the choice costs more than 10% over the best).

use grim_encodings::card::{self, Encoding, cardnet, pairwise, seqcounter, totalizer};
use grim_encodings::sink::Counting;
use grim_encodings::{ClauseSink, Lit};

fn cost(n: usize, encode: impl FnOnce(&mut Counting, &[Lit])) -> usize {
    let mut sink = Counting::default();
    let inputs: Vec<Lit> = (0..n).map(|_| sink.new_var().pos()).collect();
    encode(&mut sink, &inputs);
    sink.vars - n + sink.clauses
}

/// Cost of each encoding for `lo ≤ Σ ≤ hi` (already oriented, not degenerate).
fn costs(n: usize, lo: usize, hi: usize) -> Vec<(Encoding, usize)> {
    let mut out = vec![
        (
            Encoding::SeqCounter,
            cost(n, |s, x| seqcounter::encode_between(s, x, lo, hi)),
        ),
        (
            Encoding::Totalizer,
            cost(n, |s, x| totalizer::encode_between(s, x, lo, hi)),
        ),
        (
            Encoding::CardNet,
            cost(n, |s, x| cardnet::encode_between(s, x, lo, hi)),
        ),
    ];
    if hi == 1 {
        out.push((
            Encoding::Pairwise,
            cost(n, |s, x| {
                if lo == 0 {
                    pairwise::at_most_one(s, x)
                } else {
                    pairwise::exactly_one(s, x)
                }
            }),
        ));
    }
    out
}

fn main() {
    let verbose = std::env::args().any(|a| a == "-v");
    let ns = [
        4usize, 6, 7, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256, 384, 512,
        768, 1024, 1500, 2048,
    ];
    for kind in ["at most", "at least", "two-sided"] {
        let (mut worst, mut at) = (1.0f64, (0, 0, 0));
        let (mut total_chosen, mut total_best, mut cases) = (0usize, 0usize, 0usize);
        for &n in &ns {
            // Every bound up to 64, then about 64 evenly spaced ones: keeps the sweep short.
            for k in (1..=n / 2).filter(|&h| h <= 64 || h % (n / 128).max(1) == 0) {
                let bounds: Vec<(usize, usize)> = match kind {
                    "at most" => vec![(0, k)],
                    "at least" => vec![(k, n)],
                    _ => vec![(k, k), (k / 2 + 1, k), (1, k)],
                };
                for (lo, hi) in bounds {
                    // lo = 1 is a clause plus an at-most bound in the front end.
                    if lo > hi || lo == 1 || (lo == 0 && hi >= n) {
                        continue;
                    }
                    let c = costs(n, lo, hi);
                    let best = c.iter().map(|x| x.1).min().unwrap_or(0);
                    let pick = card::choose(n, lo, hi);
                    let chosen = c.iter().find(|x| x.0 == pick).map_or(0, |x| x.1);
                    total_chosen += chosen;
                    total_best += best;
                    cases += 1;
                    let ratio = chosen as f64 / best.max(1) as f64;
                    if ratio > worst {
                        worst = ratio;
                        at = (n, lo, hi);
                    }
                    if verbose && ratio > 1.1 {
                        println!("n {n} lo {lo} hi {hi}: chose {pick:?} {chosen}, costs {c:?}");
                    }
                }
            }
        }
        println!(
            "{kind}: {cases} bounds; worst chosen/best {worst:.3} at (n, lo, hi) = {at:?}; summed over the grid {:.4}",
            total_chosen as f64 / total_best as f64
        );
    }
}

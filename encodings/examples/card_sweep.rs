//! Which one-sided / two-sided encoding is smallest (aux variables + clauses) for each (n, k):
//! the measurement behind the thresholds of `card::at_most` and `card::between`.
//! `cargo run --release -p grim-encodings --example card_sweep`.

use grim_encodings::card::{self, Encoding, Totalizer, cardnet, pairwise, seqcounter};
use grim_encodings::{ClauseSink, Lit, Var};

#[derive(Default)]
struct Counting {
    vars: usize,
    clauses: usize,
}

impl ClauseSink for Counting {
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var::new((self.vars - 1) as u32).unwrap_or_default()
    }
    fn add_clause(&mut self, _lits: &[Lit]) {
        self.clauses += 1;
    }
}

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
            cost(n, |s, x| {
                let mut t = if lo > 0 {
                    Totalizer::new_both(s, x, hi + 1)
                } else {
                    Totalizer::new(s, x, hi + 1)
                };
                if let Some(l) = t.at_most(s, hi) {
                    s.add_clause(&[l]);
                }
                if let Some(l) = t.at_least(s, lo) {
                    s.add_clause(&[l]);
                }
            }),
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
    for two_sided in [false, true] {
        let (mut worst, mut at, mut total_chosen, mut total_best) =
            (1.0f64, (0, 0, 0), 0usize, 0usize);
        for &n in &ns {
            for hi in 1..=n / 2 {
                let los: Vec<usize> = if two_sided {
                    vec![hi, hi / 2 + 1, 1]
                } else {
                    vec![0]
                };
                for lo in los {
                    if lo > hi || (two_sided && lo == 0) {
                        continue;
                    }
                    let c = costs(n, lo, hi);
                    let best = c.iter().map(|x| x.1).min().unwrap_or(0);
                    let pick = card::choose(n, lo, hi);
                    let chosen = c.iter().find(|x| x.0 == pick).map_or(0, |x| x.1);
                    total_chosen += chosen;
                    total_best += best;
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
            "{}: worst chosen/best {worst:.3} at (n, lo, hi) = {at:?}; summed over the grid {:.4}",
            if two_sided { "two-sided" } else { "one-sided" },
            total_chosen as f64 / total_best as f64
        );
    }
}

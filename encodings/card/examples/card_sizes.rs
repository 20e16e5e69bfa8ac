//! The cardinality size table: auxiliary variables and clauses of every encoding for
//! n ∈ {10, 100, 1000}, k ∈ {1, n/10, n/2}, written to a counting sink.
//!
//! `cargo run -p grim-encodings --example card_sizes` prints the table quoted in
//! `encodings/card/src/card/mod.rs`. Counts include the clauses that assert the bound.

use grim_encodings::card::{self, SeqCounter, Totalizer, cardnet, pairwise, seqcounter, totalizer};
use grim_encodings::sink::Counting;
use grim_encodings::{ClauseSink, Lit};

/// Aux variables and clauses of `encode` over `n` fresh inputs.
fn size(n: usize, encode: impl FnOnce(&mut Counting, &[Lit])) -> (usize, usize) {
    let mut sink = Counting::default();
    let inputs: Vec<Lit> = (0..n).map(|_| sink.new_var().pos()).collect();
    encode(&mut sink, &inputs);
    (sink.vars - n, sink.clauses)
}

type Encoder = fn(&mut Counting, &[Lit], usize);

fn main() {
    let at_most: [(&str, Encoder); 7] = [
        ("pairwise (k = 1 only)", |s, x, k| {
            if k == 1 {
                pairwise::at_most_one(s, x)
            }
        }),
        ("seqcounter, trimmed", |s, x, k| {
            seqcounter::encode_between(s, x, 0, k)
        }),
        ("SeqCounter, both ways, max = k+1", |s, x, k| {
            let c = SeqCounter::new(s, x, k + 1);
            if let Some(l) = c.at_most(k) {
                s.add_clause(&[l]);
            }
        }),
        ("totalizer, ≥ only, bound k+1", |s, x, k| {
            let mut t = Totalizer::new(s, x, k + 1);
            if let Some(l) = t.at_most(s, k) {
                s.add_clause(&[l]);
            }
        }),
        ("totalizer, both ways, bound k+1", |s, x, k| {
            let mut t = Totalizer::new_both(s, x, k + 1);
            if let Some(l) = t.at_most(s, k) {
                s.add_clause(&[l]);
            }
        }),
        ("cardnet", |s, x, k| cardnet::encode_between(s, x, 0, k)),
        ("front end card::at_most", |s, x, k| card::at_most(s, x, k)),
    ];
    let exactly: [(&str, Encoder); 4] = [
        ("seqcounter, trimmed", |s, x, k| {
            seqcounter::encode_between(s, x, k, k)
        }),
        ("totalizer, ≥ (k+1) and ≤ (k) split", |s, x, k| {
            totalizer::encode_between(s, x, k, k)
        }),
        ("cardnet", |s, x, k| cardnet::encode_between(s, x, k, k)),
        ("front end card::exactly", |s, x, k| card::exactly(s, x, k)),
    ];
    for (title, table) in [("at most k", &at_most[..]), ("exactly k", &exactly[..])] {
        println!("## {title}: aux variables / clauses\n");
        println!(
            "| encoding | n=10 k=1 | n=10 k=5 | n=100 k=1 | n=100 k=10 | n=100 k=50 | n=1000 k=1 | n=1000 k=100 | n=1000 k=500 |"
        );
        println!("|---|---|---|---|---|---|---|---|---|");
        for (name, encode) in table {
            let mut row = format!("| {name} |");
            for n in [10usize, 100, 1000] {
                let mut ks = vec![1, n / 10, n / 2];
                ks.dedup();
                for k in ks {
                    let (v, c) = size(n, |s, x| encode(s, x, k));
                    row.push_str(&format!(" {v} / {c} |"));
                }
            }
            println!("{row}");
        }
        println!();
    }
}

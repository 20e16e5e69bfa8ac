//! DIMACS parsing throughput in MB/s, plain and gzip.
//!
//! The input is generated once, in memory (no disk, no page cache in the measurement): random
//! 3-SAT over 100 000 variables, 4.4 MB of DIMACS text (209 716 clauses), written by
//! `grim_tools`' own writer, and its gzip at the default level. Two readers of each:
//! - `read_cnf`: the whole formula into a `Cnf` (one `Vec` per clause), what tests and tools
//!   that keep the formula use;
//! - `stream`: `Parser::next_clause` into one reused buffer, what `grim-sat` does when it feeds
//!   the solver — the reader's own cost without the per-clause allocation.
//!
//! Throughput is always the **uncompressed** size (`Throughput::Bytes` of the DIMACS text), so
//! the plain and gzip rows compare directly: the gap between them is the cost of inflating.

use std::hint::black_box;
use std::io::{Cursor, Read};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use grim_benches::{MEASUREMENT, SAMPLE_SIZE, WARM_UP, dimacs_text, gzip};
use grim_tools::formats::Input;
use grim_tools::formats::dimacs::{ParseOptions, Parser, read_cnf};

/// The generated DIMACS text is at least this long (4.4 MB at 22 bytes per clause).
const INPUT_BYTES: usize = 4 << 20;

/// Reads every clause through the streaming parser; returns the literal count so the work
/// cannot be optimised away.
fn stream(reader: impl Read) -> usize {
    let mut parser = Parser::new(reader, ParseOptions::default()).expect("header parses");
    let mut clause = Vec::new();
    let mut literals = 0;
    while parser
        .next_clause(&mut clause)
        .expect("input parses")
        .is_some()
    {
        literals += clause.len();
    }
    literals
}

/// Sniffs (and so inflates) a gzip stream the way `open_input` does for files.
fn gunzip(bytes: &'static [u8]) -> Input {
    Input::sniff(Cursor::new(bytes)).expect("gzip header reads")
}

fn parse(c: &mut Criterion) {
    let text = dimacs_text(INPUT_BYTES, 1);
    // `Input::sniff` wants a 'static reader; leaking the two buffers once is the simplest
    // way to hand it a borrowed one (a bench process, so nothing is lost).
    let packed: &'static [u8] = Box::leak(gzip(&text).into_boxed_slice());
    eprintln!(
        "parse input: {} bytes of DIMACS, {} bytes gzipped ({:.1}x)",
        text.len(),
        packed.len(),
        text.len() as f64 / packed.len() as f64
    );
    let text: &'static [u8] = Box::leak(text.into_boxed_slice());

    let mut group = c.benchmark_group("parse");
    group.sample_size(SAMPLE_SIZE);
    group.warm_up_time(WARM_UP);
    group.measurement_time(MEASUREMENT);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("plain/read_cnf", |b| {
        b.iter(|| black_box(read_cnf(text, ParseOptions::default()).expect("input parses")))
    });
    group.bench_function("plain/stream", |b| b.iter(|| black_box(stream(text))));
    group.bench_function("gzip/read_cnf", |b| {
        b.iter(|| {
            black_box(read_cnf(gunzip(packed), ParseOptions::default()).expect("input parses"))
        })
    });
    group.bench_function("gzip/stream", |b| {
        b.iter(|| black_box(stream(gunzip(packed))))
    });
    group.finish();
}

criterion_group!(benches, parse);
criterion_main!(benches);

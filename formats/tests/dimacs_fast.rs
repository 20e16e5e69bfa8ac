//! The DIMACS reader's fast path (issue 40: `Source::fast_int`, which reads well-formed
//! integers straight from the buffer and leaves every other token to the byte-at-a-time
//! scanner) against the scanner alone, both ways:
//!
//! - read whole (the buffer holds the input: the fast path reads nearly every token), one
//!   byte per `read` call (no token ends inside the buffer: the slow path reads them all) and
//!   in random chunks (buffer boundaries anywhere), every outcome — clauses, where each
//!   clause starts, variables, warnings, or the error with its line, column and message — is
//!   the same;
//! - on generated text with random blanks, comments, CRLF and line breaks, the clauses and
//!   each clause's start (line, column) equal what the generator wrote, computed as it wrote
//!   them, not by a parser;
//! - a malformed token planted anywhere is reported at the position where it was planted,
//!   with the kind its spelling calls for, never a panic.

use std::io::Read;

use grim_formats::ParseErrorKind;
use grim_formats::dimacs::{ParseOptions, Parser};
use proptest::prelude::*;

/// Everything a read gives, comparable: per clause its start and literals, then the variable
/// count and the warnings' messages; or the error's position and message.
type Outcome = Result<(Vec<((u64, u64), Vec<i64>)>, u64, Vec<String>), (u64, u64, String)>;

fn outcome(reader: &mut dyn Read, options: ParseOptions) -> Outcome {
    let fail = |e: grim_formats::ParseError| (e.line, e.column, e.to_string());
    let mut parser = Parser::new(reader, options).map_err(fail)?;
    let mut clause = Vec::new();
    let mut clauses = Vec::new();
    while let Some(start) = parser.next_clause(&mut clause).map_err(fail)? {
        clauses.push((
            (start.line, start.column),
            clause.iter().map(|l| l.to_dimacs()).collect(),
        ));
    }
    // After the end, the reader stays ended.
    assert!(matches!(parser.next_clause(&mut clause), Ok(None)));
    let warnings = parser.warnings().iter().map(|w| w.to_string()).collect();
    Ok((clauses, parser.num_vars(), warnings))
}

/// The three ways agree on `text` under `options` (`grim_testkit::same_three_ways`); the
/// whole read's outcome.
fn same_three_ways(text: &[u8], sizes: Vec<usize>, options: ParseOptions) -> Outcome {
    grim_testkit::same_three_ways(text, sizes, |r| outcome(r, options))
}

/// Text written with its position tracked, as a reference for the reader's positions.
struct Writer {
    text: Vec<u8>,
    line: u64,
    column: u64,
}

impl Writer {
    fn new() -> Writer {
        Writer {
            text: Vec::new(),
            line: 1,
            column: 1,
        }
    }

    fn put(&mut self, s: &[u8]) {
        for &b in s {
            self.text.push(b);
            if b == b'\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
    }

    fn here(&self) -> (u64, u64) {
        (self.line, self.column)
    }
}

/// Separators between tokens: blanks of every kind, line breaks (LF and CRLF), comments.
const SEPARATORS: &[&[u8]] = &[
    b" ",
    b"  ",
    b"\t",
    b"\n",
    b"\r\n",
    b" \x0b",
    b"\x0c ",
    b" c a comment 1 2 0\n",
    b"\nc\n",
    b"\nc\xff\xfe not UTF-8\r\n  ",
    b"\n\n\t ",
];

/// How a literal is spelled: plainly, with leading zeros, and `-0` for a terminating zero.
fn spell(value: i64, style: u8) -> String {
    let sign = if value < 0 { "-" } else { "" };
    let magnitude = value.unsigned_abs();
    match (value, style % 4) {
        (0, 3) => "-0".to_string(),
        (_, 2) => format!("{sign}000{magnitude}"),
        _ => value.to_string(),
    }
}

/// A formula as text: the header, then the clauses with the separators `seps` (in turn) and
/// spellings `styles`; each clause's literals and where it starts.
type Written = (Vec<u8>, Vec<((u64, u64), Vec<i64>)>);

fn write_formula(
    num_vars: u64,
    clauses: &[Vec<i64>],
    seps: &[usize],
    styles: &[u8],
    percent: bool,
) -> Written {
    let mut w = Writer::new();
    w.put(b"c generated\n");
    w.put(format!("p cnf {num_vars} {}\n", clauses.len()).as_bytes());
    let mut k = 0;
    let mut next = || {
        k += 1;
        (
            SEPARATORS[seps[k % seps.len()] % SEPARATORS.len()],
            styles[k % styles.len()],
        )
    };
    let mut expected = Vec::new();
    for clause in clauses {
        let start = w.here();
        for &l in clause {
            let (sep, style) = next();
            w.put(spell(l, style).as_bytes());
            w.put(sep);
        }
        let (sep, style) = next();
        w.put(spell(0, style).as_bytes());
        w.put(sep);
        expected.push((start, clause.clone()));
    }
    if percent {
        w.put(b"%\n0\nthis is never read 1 x\n");
    }
    (w.text, expected)
}

fn arb_clauses(max_var: i64) -> impl Strategy<Value = Vec<Vec<i64>>> {
    let lit = (1..=max_var, any::<bool>()).prop_map(|(v, n)| if n { -v } else { v });
    prop::collection::vec(prop::collection::vec(lit, 0..7), 0..25)
}

/// The malformed tokens planted, each with what it must be reported as.
#[derive(Clone, Copy, Debug)]
enum Bad {
    Junk(&'static str),
    Overflow(&'static str),
    TooMany(&'static str),
    Header,
}

const BAD: &[Bad] = &[
    Bad::Junk("x"),
    Bad::Junk("+3"),
    Bad::Junk("1-"),
    Bad::Junk("--1"),
    Bad::Junk("-"),
    Bad::Junk("3x"),
    Bad::Junk("0c"),
    Bad::Junk("1\x002"),
    Bad::Junk("\u{e9}"),
    Bad::Junk("12345678901234567890x"),
    Bad::Overflow("99999999999999999999999"),
    Bad::Overflow("-18446744073709551616"),
    Bad::TooMany("2147483648"),
    Bad::TooMany("-9999999999999999999"),
    Bad::TooMany("18446744073709551615"),
    Bad::Header,
];

fn bad_text(bad: Bad) -> &'static str {
    match bad {
        Bad::Junk(s) | Bad::Overflow(s) | Bad::TooMany(s) => s,
        Bad::Header => "p",
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Well-formed text: the clauses and their starts are the generator's, read whole, a
    /// byte at a time or in chunks; strict and lenient alike.
    #[test]
    fn random_layouts_read_the_clauses_and_starts_the_text_was_written_with(
        clauses in arb_clauses(30),
        seps in prop::collection::vec(0usize..64, 1..40),
        styles in prop::collection::vec(any::<u8>(), 1..16),
        sizes in prop::collection::vec(0usize..40, 1..8),
        percent in any::<bool>(),
    ) {
        let (text, expected) = write_formula(30, &clauses, &seps, &styles, percent);
        for options in [ParseOptions::default(), ParseOptions::STRICT] {
            let got = same_three_ways(&text, sizes.clone(), options);
            let Ok((read, vars, warnings)) = got else {
                return Err(TestCaseError::fail(format!("{got:?}\n{}", String::from_utf8_lossy(&text))));
            };
            prop_assert_eq!(&read, &expected);
            prop_assert_eq!(vars, 30);
            prop_assert!(warnings.is_empty());
        }
    }

    /// One malformed token planted before the `k`-th literal: the error names its position
    /// and kind, the same read whole, a byte at a time or in chunks.
    #[test]
    fn a_planted_bad_token_is_reported_where_it_was_planted(
        clauses in arb_clauses(30),
        seps in prop::collection::vec(0usize..64, 1..40),
        styles in prop::collection::vec(any::<u8>(), 1..16),
        sizes in prop::collection::vec(0usize..40, 1..8),
        at in any::<prop::sample::Index>(),
        which in any::<prop::sample::Index>(),
    ) {
        let (text, _) = write_formula(30, &clauses, &seps, &styles, false);
        // Plant the token at a token boundary after the header: before a token, after a
        // blank, never inside a comment.
        let body = text.iter().position(|&b| b == b'\n').unwrap() + 1;
        let body = body + text[body..].iter().position(|&b| b == b'\n').unwrap() + 1;
        let mut w = Writer::new();
        w.put(&text[..body]);
        let mut starts = vec![body];
        let mut in_comment = false;
        for i in body + 1..text.len() {
            let (prev, b) = (text[i - 1], text[i]);
            if prev == b'\n' { in_comment = false; }
            if prev == b'c' && (i < 2 || matches!(text[i - 2], b' ' | b'\n' | b'\t')) { in_comment = true; }
            if !in_comment && matches!(prev, b' ' | b'\n' | b'\t') && !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
                starts.push(i);
            }
        }
        let cut = starts[at.index(starts.len())];
        let bad = BAD[which.index(BAD.len())];
        w.put(&text[body..cut]);
        let (line, column) = w.here();
        w.put(bad_text(bad).as_bytes());
        w.put(b" ");
        w.put(&text[cut..]);
        let got = same_three_ways(&w.text, sizes, ParseOptions::default());
        let shown = String::from_utf8_lossy(&w.text).into_owned();
        let Err((l, c, message)) = got else {
            return Err(TestCaseError::fail(format!("{bad:?} accepted: {shown:?}")));
        };
        prop_assert_eq!((l, c), (line, column), "{:?}: {} in {:?}", bad, message, shown);
        let words = match bad {
            Bad::Junk(_) => "unexpected",
            Bad::Overflow(_) => "does not fit in 64 bits",
            Bad::TooMany(_) => "exceed the engine's limit",
            Bad::Header => "a second `p` header",
        };
        prop_assert!(message.contains(words), "{:?}: {} in {:?}", bad, message, shown);
    }

    /// Arbitrary bytes after a header: the three ways agree (on the error too), no panic.
    #[test]
    fn arbitrary_bodies_read_the_same_whole_trickled_and_chunked(
        body in prop::collection::vec(
            prop::sample::select(b" \t\n\r0123456789-c%px+\x0b\x0c\xff".to_vec()),
            0..300,
        ),
        sizes in prop::collection::vec(0usize..40, 1..8),
        strict in any::<bool>(),
    ) {
        let mut text = b"p cnf 40 10\n".to_vec();
        text.extend_from_slice(&body);
        let options = if strict { ParseOptions::STRICT } else { ParseOptions::default() };
        let _ = same_three_ways(&text, sizes, options);
    }
}

/// Where the fast path hands over: a token cut by the buffer's end (64 KiB), a number of 19,
/// 20 and more digits, digits glued to junk; each read whole and a byte at a time agree, and
/// the values are right.
#[test]
fn the_fast_paths_edges_read_as_the_scanner_reads_them() {
    // 19 digits with leading zeros: the fast path's longest; 20 digits: the scanner's.
    let text = b"p cnf 5 2\n0000000000000000005 -00000000000000000004 0 1 0\n";
    let (clauses, ..) = same_three_ways(text, vec![7], ParseOptions::STRICT).expect("reads");
    assert_eq!(clauses[0], ((2, 1), vec![5, -4]));
    assert_eq!(clauses[1], ((2, 45), vec![1]));
    // Tokens straddling every position around the 64 KiB buffer boundary.
    for pad in 0..12 {
        let mut text = b"p cnf 1000000 3\n".to_vec();
        text.extend(std::iter::repeat_n(b' ', (1 << 16) - text.len() - pad));
        text.extend_from_slice(b"123456 -654321 0\nc x\n7 0 -8 0\n");
        let (clauses, ..) =
            same_three_ways(&text, vec![1 << 16, 5, 1 << 16], ParseOptions::STRICT).expect("reads");
        let values: Vec<&Vec<i64>> = clauses.iter().map(|(_, c)| c).collect();
        assert_eq!(values, [&vec![123456, -654321], &vec![7], &vec![-8]]);
        assert_eq!(clauses[1].0, (4, 1));
    }
    // A literal at the engine's limit reads; one past it is refused at its column.
    let text = b"p cnf 1 2\n 2147483647 0 -2147483648 0\n";
    let mut parser = Parser::new(&text[..], ParseOptions::default()).expect("header");
    let mut clause = Vec::new();
    let first = parser.next_clause(&mut clause).expect("at the limit");
    assert_eq!(
        (first.map(|s| (s.line, s.column)), clause.len()),
        (Some((2, 2)), 1)
    );
    assert_eq!(clause[0].to_dimacs(), 2_147_483_647);
    let error = parser
        .next_clause(&mut clause)
        .expect_err("beyond the limit");
    assert!(matches!(
        error.kind,
        ParseErrorKind::TooManyVariables {
            value: 2_147_483_648
        }
    ));
    assert_eq!((error.line, error.column), (2, 15));
}

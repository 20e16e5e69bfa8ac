//! The WCNF reader's fast path for literals (`Source::fast_int` once a clause's weight is
//! read, as in the DIMACS reader) against the byte-at-a-time scanner alone. Three ways to read
//! the same text must give the same outcome:
//! - whole (the buffer holds the input, so the fast path reads nearly every literal);
//! - one byte per `read` call (no token ends inside the buffer, so the slow path reads them
//!   all);
//! - in random chunks (buffer boundaries anywhere).
//!
//! An outcome is the clauses with their starts and weights, the variable count, the hard
//! count, the soft total and the warnings, or else the error with its line, column and message.
//! The text is generated in both dialects, with random blanks, comments and line breaks. On
//! well-formed text the clauses must equal what the generator wrote; junk planted anywhere must
//! give the same error all three ways.

use std::io::Read;

use grim_formats::dimacs::ParseOptions;
use grim_formats::wcnf::Parser;
use proptest::prelude::*;

/// Per clause: start (line, column), weight (`None` = hard), literals.
type Clauses = Vec<((u64, u64), Option<u64>, Vec<i64>)>;
/// Everything a read gives, comparable.
type Outcome = Result<(Clauses, u64, u64, u64, Vec<String>), (u64, u64, String)>;

fn outcome(reader: &mut dyn Read, options: ParseOptions) -> Outcome {
    let fail = |e: grim_formats::ParseError| (e.line, e.column, e.to_string());
    let mut parser = Parser::new(reader, options).map_err(fail)?;
    let mut clause = Vec::new();
    let mut clauses = Vec::new();
    while let Some(start) = parser.next_clause(&mut clause).map_err(fail)? {
        let weight = match start.weight {
            grim_formats::wcnf::Weight::Hard => None,
            grim_formats::wcnf::Weight::Soft(w) => Some(w),
        };
        clauses.push((
            (start.line, start.column),
            weight,
            clause.iter().map(|l| l.to_dimacs()).collect(),
        ));
    }
    assert!(matches!(parser.next_clause(&mut clause), Ok(None)));
    let warnings = parser.warnings().iter().map(|w| w.to_string()).collect();
    Ok((
        clauses,
        parser.num_vars(),
        parser.num_hard(),
        parser.soft_total(),
        warnings,
    ))
}

/// The three ways agree on `text` under `options` (`grim_testkit::same_three_ways`); the
/// whole read's outcome.
fn same_three_ways(text: &[u8], sizes: Vec<usize>, options: ParseOptions) -> Outcome {
    grim_testkit::same_three_ways(text, sizes, |r| outcome(r, options))
}

/// Separators between tokens: blanks of every kind, line breaks (LF and CRLF), comments.
const SEPARATORS: &[&[u8]] = &[
    b" ",
    b"  ",
    b"\t",
    b"\n",
    b"\r\n",
    b" c a comment 1 2 0\n",
    b"\nc\n",
    b"\n\n\t ",
];

/// Tokens that are not a literal where one is expected, or not a weight where one is.
const JUNK: &[&str] = &[
    "x",
    "1.5",
    "--3",
    "-",
    "99999999999999999999",
    "h",
    "p",
    "%",
    "+4",
    "7a",
];

/// Writes the clauses (weight `None` = hard) in the new format, or the old one with a
/// `p wcnf` header and TOP, with separator `seps[i]` before the `i`-th token; a junk token is
/// planted before token `plant.0` if given. Returns the text and, per clause, its start.
fn write(
    clauses: &[(Option<u64>, Vec<i64>)],
    old: bool,
    seps: &[usize],
    plant: Option<(usize, usize)>,
) -> (Vec<u8>, Vec<(u64, u64)>) {
    let top = 1_000_000u64;
    let mut text: Vec<u8> = Vec::new();
    let (mut line, mut column) = (1u64, 1u64);
    let put = |text: &mut Vec<u8>, s: &[u8], line: &mut u64, column: &mut u64| {
        for &b in s {
            text.push(b);
            if b == b'\n' {
                *line += 1;
                *column = 1;
            } else {
                *column += 1;
            }
        }
    };
    if old {
        let header = format!("p wcnf 30 {} {top}\n", clauses.len());
        put(&mut text, header.as_bytes(), &mut line, &mut column);
    }
    let mut starts = Vec::new();
    let mut k = 0usize;
    for (weight, lits) in clauses {
        let mut tokens = vec![match (weight, old) {
            (None, false) => "h".to_string(),
            (None, true) => top.to_string(),
            (Some(w), _) => w.to_string(),
        }];
        tokens.extend(lits.iter().map(|l| l.to_string()));
        tokens.push("0".to_string());
        for (i, t) in tokens.iter().enumerate() {
            let sep = SEPARATORS[seps[k % seps.len()] % SEPARATORS.len()];
            put(&mut text, sep, &mut line, &mut column);
            if let Some((at, junk)) = plant
                && at == k
            {
                put(
                    &mut text,
                    JUNK[junk % JUNK.len()].as_bytes(),
                    &mut line,
                    &mut column,
                );
                put(&mut text, b" ", &mut line, &mut column);
            }
            if i == 0 {
                starts.push((line, column));
            }
            put(&mut text, t.as_bytes(), &mut line, &mut column);
            k += 1;
        }
    }
    put(&mut text, b"\n", &mut line, &mut column);
    (text, starts)
}

fn arb_clauses() -> impl Strategy<Value = Vec<(Option<u64>, Vec<i64>)>> {
    let lit = (1i64..=30, any::<bool>()).prop_map(|(v, n)| if n { -v } else { v });
    let weight = prop_oneof![Just(None), (1u64..1000).prop_map(Some)];
    prop::collection::vec((weight, prop::collection::vec(lit, 0..7)), 0..25)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Well-formed text in either dialect: the clauses, their starts and weights are the
    /// generator's, the same whole, a byte at a time or in chunks.
    #[test]
    fn random_layouts_read_the_clauses_the_text_was_written_with(
        clauses in arb_clauses(),
        old in any::<bool>(),
        seps in prop::collection::vec(0usize..64, 1..40),
        sizes in prop::collection::vec(0usize..40, 1..8),
    ) {
        let (text, starts) = write(&clauses, old, &seps, None);
        let got = same_three_ways(&text, sizes, ParseOptions::default());
        let Ok((read, _, hard, soft, _)) = got else {
            return Err(TestCaseError::fail(format!("{got:?}\n{}", String::from_utf8_lossy(&text))));
        };
        prop_assert_eq!(read.len(), clauses.len());
        for (((start, weight, lits), (w, l)), s) in read.iter().zip(&clauses).zip(&starts) {
            prop_assert_eq!(start, s);
            prop_assert_eq!(weight, w);
            prop_assert_eq!(lits, l);
        }
        prop_assert_eq!(hard, clauses.iter().filter(|c| c.0.is_none()).count() as u64);
        prop_assert_eq!(soft, clauses.iter().filter_map(|c| c.0).sum::<u64>());
    }

    /// A junk token planted before any token: the same outcome (an error, with its position
    /// and message, or what a lenient read makes of it) all three ways, never a panic.
    #[test]
    fn a_planted_junk_token_reads_the_same_all_three_ways(
        clauses in arb_clauses(),
        old in any::<bool>(),
        seps in prop::collection::vec(0usize..64, 1..40),
        sizes in prop::collection::vec(0usize..40, 1..8),
        at in 0usize..200,
        junk in 0usize..16,
    ) {
        let (text, _) = write(&clauses, old, &seps, Some((at, junk)));
        for options in [ParseOptions::default(), ParseOptions::STRICT] {
            let _ = same_three_ways(&text, sizes.clone(), options);
        }
    }
}

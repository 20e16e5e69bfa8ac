//! The DIMACS reader and writer: every accepted form, every malformed case with its position,
//! gzip, bounded allocation, and round-trip properties.

use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use grim_formats::dimacs::{
    MAX_VARS, ParseOptions, Parsed, Parser, read_cnf, read_cnf_path, write_dimacs,
};
use grim_formats::{Cnf, Compression, Input, ParseError, ParseErrorKind, Warning};
use grim_solver::Lit;
use grim_testkit::compress::{self, DEFAULT};
use grim_testkit::lits_of;
use grim_testkit::{Trickle, assert_matches};
use proptest::prelude::*;

fn lenient(text: &[u8]) -> Result<Parsed, ParseError> {
    read_cnf(text, ParseOptions::default())
}

fn relaxed(text: &[u8]) -> Result<Parsed, ParseError> {
    read_cnf(
        text,
        ParseOptions {
            relaxed: true,
            ..ParseOptions::default()
        },
    )
}

fn strict(text: &[u8]) -> Result<Parsed, ParseError> {
    read_cnf(text, ParseOptions::STRICT)
}

fn clauses(cs: &[&[i64]]) -> Vec<Vec<Lit>> {
    grim_testkit::clauses_of(cs)
}

fn ok(text: &[u8]) -> Parsed {
    lenient(text).unwrap_or_else(|e| {
        panic!(
            "expected {:?} to parse, got: {e}",
            String::from_utf8_lossy(text)
        )
    })
}

/// The error `read` gives for `text`, or a panic naming `what` (the reading mode, or the case
/// being checked) and what was parsed.
fn refusal(read: fn(&[u8]) -> Result<Parsed, ParseError>, text: &[u8], what: &str) -> ParseError {
    match read(text) {
        Ok(p) => panic!(
            "{what}: expected {:?} to fail, parsed {p:?}",
            String::from_utf8_lossy(text)
        ),
        Err(e) => e,
    }
}

fn err(text: &[u8]) -> ParseError {
    refusal(lenient, text, "lenient")
}

/// [`err`] of `text`, asserted to match the pattern (as [`assert_matches!`] does, on a
/// reference, so that a guard can read a field); the error, for further checks.
macro_rules! refused {
    ($text:expr => $($pattern:tt)+) => {{
        let e = err($text);
        assert_matches!(&e => $($pattern)+);
        e
    }};
}

fn strict_err(text: &[u8]) -> ParseError {
    refusal(strict, text, "strict")
}

fn read_sniffed(bytes: Vec<u8>) -> Result<Parsed, ParseError> {
    let input = Input::sniff(io::Cursor::new(bytes))?;
    read_cnf(input, ParseOptions::default())
}

/// Asserts that `p` gave exactly the one warning `expected`, whose message says `words`.
fn warned(p: &Parsed, expected: Warning, words: &str) {
    assert_eq!(p.warnings, [expected]);
    let message = p.warnings[0].to_string();
    assert!(message.contains(words), "`{message}` lacks {words:?}");
}

/// A fresh directory under the system temp dir, unique per test and process.
fn temp_dir(test: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "grim-tools-dimacs-{}-{test}-{n}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

// ---------------------------------------------------------------- accepted forms

#[test]
fn a_minimal_formula_reads_with_its_header_and_clauses() {
    let p = ok(b"p cnf 3 2\n1 -2 0\n2 3 0\n");
    assert_eq!(p.cnf.num_vars, 3);
    assert_eq!(p.cnf.clauses, clauses(&[&[1, -2], &[2, 3]]));
    assert_eq!(
        (p.header.num_vars, p.header.num_clauses, p.header.line),
        (3, 2, 1)
    );
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn comments_may_stand_before_and_after_the_header_and_between_clause_lines() {
    let p = ok(b"c first\nc second\np cnf 2 2\nc after header\n1 0\nc between\n-2 0\nc at the end");
    assert_eq!(p.header.line, 3);
    assert_eq!(p.cnf.clauses, clauses(&[&[1], &[-2]]));
}

#[test]
fn a_comment_may_follow_a_clause_on_the_same_line_and_interrupt_an_open_clause() {
    let p = ok(b"p cnf 3 2\n1 2 0 c trailing note\n3 c the clause goes on\n -1 0\n");
    assert_eq!(p.cnf.clauses, clauses(&[&[1, 2], &[3, -1]]));
}

#[test]
fn a_clause_may_span_lines_and_a_line_may_hold_several_clauses() {
    let p = ok(b"p cnf 4 3\n1\n2\n\n3 0 -1 0 4\n-4 0\n");
    assert_eq!(p.cnf.clauses, clauses(&[&[1, 2, 3], &[-1], &[4, -4]]));
}

#[test]
fn crlf_line_endings_read_like_lf() {
    let p = ok(b"c comment\r\np cnf 2 2\r\n1 -2 0\r\n2 0\r\n");
    assert_eq!(p.cnf.clauses, clauses(&[&[1, -2], &[2]]));
}

#[test]
fn the_header_tolerates_leading_and_repeated_blanks_and_tabs() {
    let p = ok(b"  p \t cnf   5\t\t2   \r\n1 0 2 0\n");
    assert_eq!((p.header.num_vars, p.header.num_clauses), (5, 2));
}

#[test]
fn the_satlib_percent_marker_ends_the_input_and_what_follows_is_never_read() {
    let p = ok(b"p cnf 2 1\n1 2 0\n%\n0\n\xff\xfe garbage that is not DIMACS\n");
    assert_eq!(p.cnf.clauses, clauses(&[&[1, 2]]));
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn minus_zero_terminates_a_clause_like_zero() {
    let p = ok(b"p cnf 2 2\n1 2 -0\n-1 0\n");
    assert_eq!(p.cnf.clauses, clauses(&[&[1, 2], &[-1]]));
}

#[test]
fn leading_zeros_are_accepted() {
    let p = ok(b"p cnf 12 1\n007 -012 00\n");
    assert_eq!(p.cnf.clauses, clauses(&[&[7, -12]]));
}

#[test]
fn an_empty_clause_is_kept() {
    let p = ok(b"p cnf 1 2\n0\n1 0\n");
    assert_eq!(p.cnf.clauses, vec![vec![], lits_of(&[1])]);
}

#[test]
fn an_empty_formula_reads_as_no_clauses_and_no_warnings() {
    let p = ok(b"p cnf 0 0\n");
    assert_eq!(p.cnf, Cnf::new(0));
    assert!(p.warnings.is_empty());
}

#[test]
fn declared_but_unused_variables_count() {
    let p = ok(b"p cnf 10 1\n1 0\n");
    assert_eq!(p.cnf.num_vars, 10);
    assert_eq!(p.cnf.vars_used(), 1);
}

#[test]
fn non_utf8_bytes_in_comments_are_fine() {
    let p = ok(b"c auteur: Ren\xe9 \xff\xfe\np cnf 1 1\nc \x80\x81\n1 0\n");
    assert_eq!(p.cnf.clauses, clauses(&[&[1]]));
}

#[test]
fn a_line_of_a_million_bytes_reads_whole() {
    let n = 150_000i64;
    let mut text = format!("p cnf {n} 1\n").into_bytes();
    for v in 1..=n {
        text.extend_from_slice(format!("{} ", if v % 2 == 0 { -v } else { v }).as_bytes());
    }
    text.extend_from_slice(b"0\n");
    assert!(text.len() > 1_000_000, "line only {} bytes", text.len());
    let p = ok(&text);
    assert_eq!(p.cnf.clauses.len(), 1);
    assert_eq!(p.cnf.clauses[0].len(), n as usize);
    assert_eq!(p.cnf.clauses[0][n as usize - 1].to_dimacs(), -n);
}

#[test]
fn a_very_long_comment_line_is_skipped() {
    let mut text = b"c ".to_vec();
    text.extend(std::iter::repeat_n(b'x', 300_000));
    text.extend_from_slice(b"\np cnf 1 1\n1 0\n");
    let p = ok(&text);
    assert_eq!(p.header.line, 2);
}

#[test]
fn a_reader_that_returns_one_byte_at_a_time_gives_the_same_result() {
    let text = b"c x\np cnf 12 3\n1 -12 0\n\r\n 3 4 5\n0 -7 0\n";
    let whole = ok(text);
    let trickled = read_cnf(Trickle(text), ParseOptions::default()).expect("trickled read");
    assert_eq!(whole, trickled);
}

#[test]
fn the_streaming_parser_reports_where_each_clause_starts() {
    let text: &[u8] = b"p cnf 3 3\n1 2\n 0 c\n   -3 0 0\n";
    let mut parser = Parser::new(text, ParseOptions::default()).expect("header");
    let mut clause = Vec::new();
    let mut starts = Vec::new();
    while let Some(start) = parser.next_clause(&mut clause).expect("clause") {
        starts.push((start.line, start.column, clause.len()));
    }
    assert_eq!(starts, vec![(2, 1, 2), (4, 4, 1), (4, 9, 0)]);
    assert_eq!(parser.num_clauses(), 3);
    assert!(
        parser
            .next_clause(&mut clause)
            .expect("after end")
            .is_none()
    );
}

// ---------------------------------------------------------------- malformed input

/// One input the lenient reader refuses: what the case is, the text, the error it must give
/// (its variant and fields), and words its message must carry (`""`: the variant says it all).
type Refusal = (
    &'static str,
    &'static [u8],
    fn(&ParseError) -> bool,
    &'static str,
);

#[test]
fn each_malformed_input_is_refused_with_the_error_and_position_its_case_names() {
    #[rustfmt::skip]
    let cases: &[Refusal] = &[
        ("a clause before the header is a missing header at its position", b"c hello\n  1 2 0\np cnf 2 1\n", |e| matches!(e, ParseError { line: 2, column: 3, kind: ParseErrorKind::MissingHeader }), "p cnf"),
        ("an empty input lacks a header", b"", |e| matches!(e, ParseError { line: 1, column: 1, kind: ParseErrorKind::MissingHeader }), ""),
        ("a comments-only input lacks a header", b"c only\nc comments\n", |e| matches!(e, ParseError { line: 3, column: 1, kind: ParseErrorKind::MissingHeader }), ""),
        ("a second header names the first", b"c\np cnf 2 1\n1 0\np cnf 2 1\n", |e| matches!(e, ParseError { line: 4, column: 1, kind: ParseErrorKind::DuplicateHeader { first_line: 2 } }), ""),
        ("a leading plus sign is junk", b"p cnf 3 1\n+1 2 0\n", |e| matches!(e, ParseError { line: 2, column: 1, kind: ParseErrorKind::JunkToken { token, .. } } if token == "+1"), ""),
        ("a header claiming four billion variables names the limit", b"p cnf 4000000000 1\n1 0\n", |e| matches!(e, ParseError { line: 1, column: 7, kind: ParseErrorKind::TooManyVariables { value: 4_000_000_000 } }), "2147483647"),
        ("a literal beyond the engine limit is refused even when lenient", b"p cnf 3 1\n1 -2147483648 0\n", |e| matches!(e, ParseError { line: 2, column: 3, kind: ParseErrorKind::TooManyVariables { value: 2_147_483_648 } }), ""),
        ("a clause without its final zero at the end of input", b"p cnf 3 2\n1 2 0\n3\n -1", |e| matches!(e, ParseError { line: 4, column: 4, kind: ParseErrorKind::MissingFinalZero { clause_line: 3 } }), "begun on line 3"),
        ("a percent marker inside an open clause is a missing final zero", b"p cnf 3 2\n1 2\n%\n0\n", |e| matches!(e, ParseError { line: 3, column: 1, kind: ParseErrorKind::MissingFinalZero { clause_line: 2 } }), ""),
    ];
    for &(case, text, expected, needle) in cases {
        let shown = String::from_utf8_lossy(text);
        let e = refusal(lenient, text, case);
        assert!(expected(&e), "{case}: {shown:?} gave {e:?}");
        assert!(
            e.to_string().contains(needle),
            "{case}: `{e}` lacks {needle:?}"
        );
    }
}

#[test]
fn malformed_headers_name_the_column_and_what_was_expected() {
    let cases: &[(&[u8], u64, &str)] = &[
        (b"p dnf 3 1\n", 3, "cnf"),
        (b"p cnf\n1 0\n", 6, "number of variables"),
        (b"p cnf x 2\n", 7, "number of variables"),
        (b"p cnf -1 2\n", 7, "non-negative"),
        (b"p cnf 3\n2\n", 8, "number of clauses"),
        (b"p cnf 3 2 7\n", 11, "end of the line"),
        (b"pcnf 3 2\n", 1, "`p`"),
        (b"p wcnf 3 2 10\n", 3, "WCNF"),
        (b"p cnf 3 2.5\n", 9, "number of clauses"),
    ];
    for &(text, column, expected) in cases {
        let e = err(text);
        let shown = String::from_utf8_lossy(text);
        assert_matches!(
            e => ParseError { line: 1, column: c, kind: ParseErrorKind::BadHeader { .. } } if c == column,
            "{shown:?}: {e:?}"
        );
        assert!(
            e.to_string().contains(expected),
            "{shown:?}: `{e}` should mention {expected}"
        );
    }
}

#[test]
fn a_junk_token_in_a_clause_is_reported_with_line_column_and_text() {
    let e = refused!(b"p cnf 3 2\n1 -2 0\n3 x1 0\n"
        => ParseError { line: 3, column: 3, kind: ParseErrorKind::JunkToken { token, .. } } if token == "x1");
    assert!(e.to_string().starts_with("line 3, column 3: "), "{e}");
    assert!(e.to_string().contains("expected a literal"), "{e}");
    assert_eq!(
        e.with_path("f.cnf").to_string().split(": ").next(),
        Some("f.cnf:3:3")
    );
}

#[test]
fn a_lone_minus_and_a_number_glued_to_letters_are_junk() {
    for text in [
        &b"p cnf 3 1\n1 - 2 0\n"[..],
        b"p cnf 3 1\n1 2 0c\n",
        b"p cnf 3 1\n1 2-3 0\n",
    ] {
        let e = err(text);
        assert_matches!(
            e => ParseError { line: 2, kind: ParseErrorKind::JunkToken { .. }, .. },
            "{:?}: {e:?}", String::from_utf8_lossy(text)
        );
    }
}

#[test]
fn binary_garbage_is_a_junk_token_not_a_panic() {
    let e = err(b"\x00\x01\x02\xff\xfe\xfd");
    let shown = "\\x00\\x01\\x02\\xff\\xfe\\xfd";
    assert_matches!(&e => ParseError { line: 1, column: 1, kind: ParseErrorKind::JunkToken { token, .. } } if token == shown);
    refused!(b"p cnf 2 1\n1 \x89PNG\r\n 0\n" => ParseError { line: 2, column: 3, kind: ParseErrorKind::JunkToken { .. } });
}

#[test]
fn a_long_junk_token_is_shortened_in_the_message() {
    let mut text = b"p cnf 1 1\n".to_vec();
    text.extend(std::iter::repeat_n(b'z', 10_000));
    refused!(&text
        => ParseError { kind: ParseErrorKind::JunkToken { token, .. }, .. } if token.len() < 40 && token.ends_with("..."));
}

#[test]
fn numbers_beyond_64_bits_overflow_with_their_position() {
    let e = err(b"p cnf 3 1\n1 -99999999999999999999999 0\n");
    assert_matches!(
        &e => ParseError { line: 2, column: 3, kind: ParseErrorKind::NumberOverflow { token } } if token.starts_with("-9999")
    );
    refused!(b"p cnf 18446744073709551616 1\n"
        => ParseError { line: 1, column: 7, kind: ParseErrorKind::NumberOverflow { .. } });
}

#[test]
fn absurd_but_legal_header_counts_allocate_nothing_up_front() {
    // 2^31 - 1 variables and 10^18 clauses: if either were trusted for an allocation this
    // test would abort on memory. Read relaxed: by default one clause of 10^18 is truncated.
    let text = format!("p cnf {MAX_VARS} 1000000000000000000\n{MAX_VARS} -1 0\n");
    let p = relaxed(text.as_bytes()).expect("a relaxed read accepts it");
    assert_eq!(p.cnf.num_vars as u64, MAX_VARS);
    assert_eq!(p.cnf.clauses[0][0].to_dimacs(), MAX_VARS as i64);
    assert_eq!(
        p.warnings,
        vec![Warning::ClauseCountMismatch {
            declared: 1_000_000_000_000_000_000,
            found: 1
        }]
    );
    let e = read_cnf(text.as_bytes(), ParseOptions::default()).expect_err("truncated");
    assert_matches!(
        e => ParseError { kind: ParseErrorKind::Truncated { declared: 1_000_000_000_000_000_000, found: 1, .. }, .. }
    );
}

#[test]
fn a_literal_beyond_the_header_count_is_a_warning_and_extends_the_variables() {
    let p = ok(b"p cnf 2 2\n1 5 0\n-7 3 0\n");
    assert_eq!(p.cnf.num_vars, 7);
    warned(
        &p,
        Warning::LiteralOutOfRange {
            line: 2,
            column: 3,
            value: 5,
            declared: 2,
            largest: 7,
            count: 3,
        },
        "3 such literals",
    );
}

#[test]
fn a_literal_beyond_the_header_count_is_an_error_in_strict_mode() {
    let e = strict_err(b"p cnf 2 2\n1 2 0\n1 -3 0\n");
    assert_matches!(e => ParseError { line: 3, column: 3, kind: ParseErrorKind::LiteralOutOfRange { value: -3, max: 2 } });
    assert!(e.to_string().contains("--strict"), "{e}");
}

#[test]
fn fewer_clauses_than_declared_is_refused_by_default_with_the_position_and_the_counts() {
    let e = refused!(b"p cnf 2 3\n1 0\n2 0\n"
        => ParseError { line: 4, column: 1, kind: ParseErrorKind::Truncated { declared: 3, found: 2 } });
    let message = e.with_path("x.cnf").to_string();
    assert!(
        message.starts_with("x.cnf:4:1: the input ends after 2 of the 3 clauses")
            && message.contains("truncated")
            && message.contains("1 more clause ")
            && message.contains("--relaxed"),
        "{message}"
    );
    // The `%` end marker ends the input like the end of the file.
    refused!(b"p cnf 2 3\n1 0\n%\n2 0\n"
        => ParseError { line: 3, column: 1, kind: ParseErrorKind::Truncated { found: 1, .. } });
    // A header of 0 clauses over an empty body is not truncated.
    assert!(ok(b"p cnf 0 0\n").warnings.is_empty());
}

#[test]
fn a_wrong_clause_count_is_a_warning_when_relaxed_and_surplus_clauses_always_warn() {
    let p = relaxed(b"p cnf 2 3\n1 0\n2 0\n").expect("relaxed read");
    warned(
        &p,
        Warning::ClauseCountMismatch {
            declared: 3,
            found: 2,
        },
        "2 of the 3 clauses",
    );
    // Surplus clauses lose nothing: a warning by default, relaxed or not.
    let p = ok(b"p cnf 2 1\n1 0\n2 0\n");
    assert_eq!(
        p.warnings,
        vec![Warning::ClauseCountMismatch {
            declared: 1,
            found: 2
        }]
    );
    assert_eq!(p.cnf.clauses.len(), 2);
}

#[test]
fn a_wrong_clause_count_is_an_error_in_strict_mode_where_it_shows() {
    // Too few: seen at the end of the input (truncated, as without --strict).
    let e = strict_err(b"p cnf 2 3\n1 0\n2 0\n");
    assert_matches!(e => ParseError { line: 4, column: 1, kind: ParseErrorKind::Truncated { declared: 3, found: 2 } });
    // Too many: seen at the start of the first surplus clause.
    let e = strict_err(b"p cnf 2 1\n1 0\n  2 -1 0\n");
    assert_matches!(
        e => ParseError { line: 3, column: 3, kind: ParseErrorKind::ClauseCountMismatch { declared: 1, found: 2 } }
    );
}

#[test]
fn strict_mode_accepts_a_well_formed_file() {
    let p = strict(b"c ok\np cnf 3 2\n1 -3 0\n2 0\n").expect("well-formed");
    assert_eq!(p.cnf.clauses, clauses(&[&[1, -3], &[2]]));
}

#[test]
fn a_missing_file_is_an_open_error_classed_as_io() {
    let dir = temp_dir("missing");
    let e = read_cnf_path(&dir.join("nope.cnf"), ParseOptions::default())
        .expect_err("the file does not exist");
    assert_matches!(e => ParseError { kind: ParseErrorKind::Open { .. }, .. });
    assert!(e.is_io());
    assert_eq!(e.position(), None);
    assert!(e.to_string().contains("nope.cnf"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn parse_errors_are_not_classed_as_io() {
    assert!(!err(b"p cnf 1 1\nx 0\n").is_io());
}

// ---------------------------------------------------------------- gzip

#[test]
fn gzip_input_is_recognised_by_its_magic_bytes() {
    let text = b"c zipped\np cnf 3 2\n1 -2 0\n3 0\n";
    let input = Input::sniff(io::Cursor::new(compress::gzip(text, DEFAULT))).expect("sniff");
    assert!(input.is_gzip());
    let p = read_cnf(input, ParseOptions::default()).expect("read gzip");
    assert_eq!(p, ok(text));
    let plain = Input::sniff(io::Cursor::new(text.to_vec())).expect("sniff");
    assert!(!plain.is_gzip());
}

#[test]
fn concatenated_gzip_members_read_as_one_stream() {
    let mut bytes = compress::gzip(b"p cnf 2 2\n1 ", DEFAULT);
    bytes.extend(compress::gzip(b"2 0\n-1 0\n", DEFAULT));
    let p = read_sniffed(bytes).expect("two members");
    assert_eq!(p.cnf.clauses, clauses(&[&[1, 2], &[-1]]));
}

#[test]
fn gzip_is_detected_by_content_not_by_file_name() {
    let dir = temp_dir("names");
    let text = b"p cnf 2 1\n1 2 0\n";
    let zipped_plain_name = dir.join("really-gzip.cnf");
    let plain_gz_name = dir.join("really-plain.cnf.gz");
    std::fs::write(&zipped_plain_name, compress::gzip(text, DEFAULT)).expect("write");
    std::fs::write(&plain_gz_name, text).expect("write");
    for path in [&zipped_plain_name, &plain_gz_name] {
        let p = read_cnf_path(path, ParseOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(p.cnf.clauses, clauses(&[&[1, 2]]), "{}", path.display());
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_truncated_gzip_file_is_a_gzip_error_not_a_silent_short_read() {
    let mut text = b"p cnf 200 1000\n".to_vec();
    for i in 0..1000 {
        text.extend_from_slice(format!("{} -{} 0\n", i % 200 + 1, (i * 7) % 200 + 1).as_bytes());
    }
    let full = compress::gzip(&text, DEFAULT);
    for cut in [full.len() - 4, full.len() / 2, 12] {
        let e = read_sniffed(full[..cut].to_vec()).expect_err("truncated");
        assert_matches!(
            e => ParseError { kind: ParseErrorKind::Decompress { format: Compression::Gzip, .. }, .. },
            "cut at {cut}: {e:?}"
        );
        assert!(!e.is_io());
    }
}

#[test]
fn corrupt_gzip_data_is_a_gzip_error() {
    let mut bytes = compress::gzip(b"p cnf 3 3\n1 2 0\n-1 3 0\n-3 -2 0\n", DEFAULT);
    // Break the deflate data just after the 10-byte header, and separately the CRC.
    let mut broken = bytes.clone();
    broken[10] ^= 0xff;
    broken[11] ^= 0x55;
    let e = read_sniffed(broken).expect_err("corrupt deflate");
    assert_matches!(e => ParseError { kind: ParseErrorKind::Decompress { format: Compression::Gzip, .. }, .. });
    let n = bytes.len();
    bytes[n - 8] ^= 0xff;
    let e = read_sniffed(bytes).expect_err("bad crc");
    assert_matches!(e => ParseError { kind: ParseErrorKind::Decompress { format: Compression::Gzip, .. }, .. });
}

#[test]
fn gzip_of_binary_garbage_is_a_junk_token() {
    let e = read_sniffed(compress::gzip(b"\x7fELF\x02\x01\x01", DEFAULT)).expect_err("garbage");
    assert_matches!(e => ParseError { line: 1, column: 1, kind: ParseErrorKind::JunkToken { .. } });
}

#[test]
fn a_lone_gzip_magic_byte_is_plain_junk() {
    let e = read_sniffed(vec![0x1f]).expect_err("one byte");
    assert_matches!(e => ParseError { kind: ParseErrorKind::JunkToken { .. }, .. });
}

// ---------------------------------------------------------------- xz, bzip2, lzma

/// A compressor: plain bytes in, compressed bytes out.
type Packer = fn(&[u8], u32) -> Vec<u8>;

/// Every compression format with its encoder.
fn packers() -> [(Compression, Packer); 4] {
    [
        (Compression::Gzip, compress::gzip),
        (Compression::Xz, compress::xz),
        (Compression::Bzip2, compress::bzip2),
        (Compression::Lzma, compress::lzma),
    ]
}

/// A formula of a thousand clauses: long enough that each format's stream has several blocks
/// of state, so a cut lands inside the data and not only in a header or trailer.
fn thousand_clauses() -> Vec<u8> {
    let mut text = b"c a comment\np cnf 200 1000\n".to_vec();
    for i in 0..1000 {
        text.extend_from_slice(format!("{} -{} 0\n", i % 200 + 1, (i * 7) % 200 + 1).as_bytes());
    }
    text
}

#[test]
fn every_compressed_format_round_trips_and_is_recognised_by_its_magic_bytes() {
    let text = thousand_clauses();
    let plain = ok(&text);
    for (format, pack) in packers() {
        let packed = pack(&text, DEFAULT);
        let input = Input::sniff(io::Cursor::new(packed.clone())).expect("sniff");
        assert_eq!(input.compression(), format);
        let p = read_cnf(input, ParseOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", format.name()));
        assert_eq!(p, plain, "{}", format.name());
        // By content, not by name: the same bytes under a misleading name read the same.
        let dir = temp_dir(format.name());
        let path = dir.join("misnamed.cnf.gz");
        std::fs::write(&path, &packed).expect("write");
        let p = read_cnf_path(&path, ParseOptions::default()).expect("read by path");
        assert_eq!(p.cnf, plain.cnf, "{}", format.name());
        let _ = std::fs::remove_dir_all(dir);
    }
    let input = Input::sniff(io::Cursor::new(text)).expect("sniff");
    assert_eq!(input.compression(), Compression::None);
}

#[test]
fn concatenated_streams_read_as_one_in_every_format() {
    for (format, pack) in packers() {
        if format == Compression::Lzma {
            continue; // LZMA-alone has no concatenation (neither has `lzma -d`)
        }
        let mut bytes = pack(b"p cnf 2 2\n1 ", DEFAULT);
        bytes.extend(pack(b"2 0\n-1 0\n", DEFAULT));
        let p = read_sniffed(bytes).unwrap_or_else(|e| panic!("{}: {e}", format.name()));
        assert_eq!(
            p.cnf.clauses,
            clauses(&[&[1, 2], &[-1]]),
            "{}",
            format.name()
        );
    }
}

#[test]
fn every_truncation_of_every_compressed_format_is_a_decompression_error_never_a_short_formula() {
    let text = thousand_clauses();
    for (format, pack) in packers() {
        let full = pack(&text, DEFAULT);
        let mut cuts: Vec<usize> = (1..16).map(|k| full.len() * k / 16).collect();
        cuts.extend([full.len() - 1, full.len() - 4, 7, 12]);
        for cut in cuts {
            let e = read_sniffed(full[..cut].to_vec()).expect_err(&format!(
                "{} cut at {cut} of {}",
                format.name(),
                full.len()
            ));
            assert_matches!(
                e => ParseError { kind: ParseErrorKind::Decompress { format: f, .. }, .. } if f == format,
                "{} cut at {cut}: {e:?}", format.name()
            );
            assert!(!e.is_io(), "{e:?}");
            assert!(e.to_string().contains(format.name()), "{e}");
        }
    }
}

#[test]
fn corrupt_compressed_data_is_a_decompression_error_with_a_position() {
    let text = thousand_clauses();
    for (format, pack) in packers() {
        let mut bytes = pack(&text, DEFAULT);
        // Flip bytes in the middle of the compressed data (past every header).
        let middle = bytes.len() / 2;
        for b in bytes.iter_mut().skip(middle).take(8) {
            *b ^= 0xa5;
        }
        let e = read_sniffed(bytes).expect_err(format.name());
        if format == Compression::Gzip && matches!(e.kind, ParseErrorKind::JunkToken { .. }) {
            // gzip checks its CRC only at the end of a member: the damaged deflate data may
            // decode to junk text first, which the reader refuses on its own. Either way the
            // formula is refused.
            continue;
        }
        assert_matches!(
            e => ParseError { kind: ParseErrorKind::Decompress { format: f, .. }, .. } if f == format,
            "{}: {e:?}", format.name()
        );
        let message = e.with_path("x.cnf").to_string();
        assert!(
            message.starts_with("x.cnf:")
                && message.contains(&format!(
                    "the {} data is corrupt or truncated",
                    format.name()
                )),
            "{message}"
        );
    }
}

#[test]
fn an_xz_stream_needing_more_than_the_memory_limit_is_refused_before_it_allocates() {
    // A 1 GiB dictionary: the header alone asks the decoder for more than MEMORY_LIMIT.
    let bytes = compress::xz_with_dictionary(b"p cnf 1 1\n1 0\n", 0, 1 << 30);
    let e = read_sniffed(bytes).expect_err("over the limit");
    assert_matches!(e => ParseError { kind: ParseErrorKind::Decompress { format: Compression::Xz, .. }, .. });
    // ... while a 64 MiB dictionary (`xz -9`) is read.
    let bytes = compress::xz_with_dictionary(b"p cnf 1 1\n1 0\n", 9, 64 << 20);
    let p = read_sniffed(bytes).expect("xz -9 reads");
    assert_eq!(p.cnf.clauses, clauses(&[&[1]]));
}

#[test]
fn short_inputs_that_begin_like_a_magic_number_are_plain_text() {
    // Fewer bytes than any magic number: plain input, reported as the junk it is.
    for bytes in [&b"BZh"[..], b"BZ", b"\xfd7zX", b"]"] {
        let e = read_sniffed(bytes.to_vec()).expect_err("junk");
        assert_matches!(e => ParseError { kind: ParseErrorKind::JunkToken { .. }, .. }, "{bytes:?}: {e:?}");
    }
    // `BZh` not followed by a block size 1-9 is not bzip2.
    let e = read_sniffed(b"BZh0 and more".to_vec()).expect_err("junk");
    assert_matches!(e => ParseError { kind: ParseErrorKind::JunkToken { .. }, .. });
}

// ---------------------------------------------------------------- writer

#[test]
fn the_writer_emits_header_and_one_zero_terminated_clause_per_line() {
    let cnf = Cnf {
        num_vars: 4,
        clauses: clauses(&[&[1, -2], &[], &[4]]),
    };
    let mut out = Vec::new();
    write_dimacs(&cnf, &mut out).expect("write to a Vec");
    assert_eq!(
        String::from_utf8(out).expect("ascii"),
        "p cnf 4 3\n1 -2 0\n0\n4 0\n"
    );
}

#[test]
fn the_writer_raises_the_variable_count_to_cover_every_clause() {
    let cnf = Cnf {
        num_vars: 1,
        clauses: clauses(&[&[1, -9]]),
    };
    let mut out = Vec::new();
    write_dimacs(&cnf, &mut out).expect("write");
    let back = strict(&out).expect("reads back strictly");
    assert_eq!(back.cnf.num_vars, 9);
}

// ---------------------------------------------------------------- properties

fn arb_cnf() -> impl Strategy<Value = Cnf> {
    (0usize..40).prop_flat_map(|num_vars| {
        let lit = if num_vars == 0 {
            Just(1i64).boxed()
        } else {
            (1..=num_vars as i64, any::<bool>())
                .prop_map(|(v, neg)| if neg { -v } else { v })
                .boxed()
        };
        let clause = prop::collection::vec(lit, 0..8);
        (Just(num_vars), prop::collection::vec(clause, 0..30)).prop_map(|(num_vars, cs)| {
            let mut cnf = Cnf::new(num_vars);
            for c in cs {
                cnf.add_clause(&lits_of(&c));
            }
            cnf
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn writing_then_reading_gives_back_the_same_formula(cnf in arb_cnf()) {
        let mut out = Vec::new();
        write_dimacs(&cnf, &mut out).expect("write to a Vec");
        let back = strict(&out).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back.cnf, &cnf);
        prop_assert!(back.warnings.is_empty());
        // And the same through gzip.
        let zipped = read_sniffed(compress::gzip(&out, DEFAULT)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&zipped.cnf, &cnf);
    }

    #[test]
    fn any_layout_of_blanks_and_comments_reads_the_same_clauses(
        cnf in arb_cnf(),
        seps in prop::collection::vec(
            prop::sample::select(vec![" ", "  ", "\t", "\n", "\r\n", " \nc note\n", "\nc\n  "]),
            1..64,
        ),
    ) {
        let mut text = String::from("c generated\n");
        text.push_str(&format!("p cnf {} {}\n", cnf.num_vars, cnf.clauses.len()));
        let mut k = 0;
        let mut sep = || { k += 1; seps[k % seps.len()] };
        for clause in &cnf.clauses {
            for l in clause {
                text.push_str(&l.to_string());
                text.push_str(sep());
            }
            text.push('0');
            text.push_str(sep());
        }
        let back = strict(text.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&back.cnf, &cnf);
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_errors_carry_a_position(
        bytes in prop::collection::vec(any::<u8>(), 0..200),
        header in any::<bool>(),
    ) {
        let mut text = if header { b"p cnf 5 3\n".to_vec() } else { Vec::new() };
        text.extend_from_slice(&bytes);
        if let Err(e) = lenient(&text) {
            prop_assert!(e.position().is_some(), "{:?}", e);
        }
        let _ = read_sniffed(text);
    }

    #[test]
    fn mutated_gzip_never_panics(cnf in arb_cnf(), at in any::<prop::sample::Index>(), x in 1u8..) {
        let mut out = Vec::new();
        write_dimacs(&cnf, &mut out).expect("write");
        let mut zipped = compress::gzip(&out, DEFAULT);
        let i = at.index(zipped.len());
        zipped[i] ^= x;
        let _ = read_sniffed(zipped);
    }
}

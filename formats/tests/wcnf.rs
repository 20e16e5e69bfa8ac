//! The WCNF reader and writer (both dialects), format detection, and the MaxSAT solver-output
//! reader: every accepted form, every malformed case with its position, gzip, bounded
//! allocation, and round-trip properties.

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use grim_formats::detect::{Format, Reason, detect, has_cnf_name, has_wcnf_name};
use grim_formats::dimacs::{self, ParseOptions};
use grim_formats::maxsat_output::{
    Answer, Model, Output, read_output, write_answer, write_bits, write_cost,
};
use grim_formats::wcnf::{
    Dialect, Header, Parsed, Parser, Weight, read_wcnf, read_wcnf_path, write_wcnf,
};
use grim_formats::{Compression, Input, ParseError, ParseErrorKind, Warning, Wcnf};
use grim_solver::Lit;
use grim_testkit::compress::{self, DEFAULT};
use grim_testkit::lits_of;
use grim_testkit::{Trickle, assert_matches};
use proptest::prelude::*;

fn hard(cs: &[&[i64]]) -> Vec<Vec<Lit>> {
    grim_testkit::clauses_of(cs)
}

fn soft(cs: &[(u64, &[i64])]) -> Vec<(u64, Vec<Lit>)> {
    cs.iter().map(|(w, c)| (*w, lits_of(c))).collect()
}

fn ok(text: &str) -> Parsed {
    read_wcnf(text.as_bytes(), ParseOptions::default())
        .unwrap_or_else(|e| panic!("expected {text:?} to parse, got: {e}"))
}

fn relaxed(text: &str) -> Parsed {
    read_wcnf(
        text.as_bytes(),
        ParseOptions {
            relaxed: true,
            ..ParseOptions::default()
        },
    )
    .unwrap_or_else(|e| panic!("expected {text:?} to parse relaxed, got: {e}"))
}

fn err(text: &str) -> ParseError {
    match read_wcnf(text.as_bytes(), ParseOptions::default()) {
        Ok(p) => panic!("expected {text:?} to fail, parsed {p:?}"),
        Err(e) => e,
    }
}

/// Asserts the error's position and that its message carries it and `needle`; every failure
/// names `case`.
fn at(case: &str, e: &ParseError, line: u64, column: u64, needle: &str) {
    assert_eq!(e.position(), Some((line, column)), "{case}: {e:?}");
    let message = e.to_string();
    assert!(
        message.starts_with(&format!("line {line}, column {column}: ")),
        "{case}: {message}"
    );
    assert!(
        message.contains(needle),
        "{case}: {message:?} lacks {needle:?}"
    );
    let with_path = e.with_path("x.wcnf").to_string();
    assert!(
        with_path.starts_with(&format!("x.wcnf:{line}:{column}: ")),
        "{case}: {with_path}"
    );
}

/// A fresh directory under the system temp dir, unique per test and process.
fn temp_dir(test: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("grim-tools-wcnf-{}-{test}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

// ---- the headerless (2022+) dialect ----

#[test]
fn a_headerless_file_reads_hard_and_weighted_soft_clauses_in_order() {
    let p = ok("c a comment\nh 1 -2 0\n5 -1 3 0\nh 2 0\n7 -3 0\n");
    assert_eq!(p.dialect, Dialect::New);
    assert_eq!(p.header, None);
    assert_eq!(p.wcnf.num_vars, 3);
    assert_eq!(p.wcnf.hard, hard(&[&[1, -2], &[2]]));
    assert_eq!(p.wcnf.soft, soft(&[(5, &[-1, 3]), (7, &[-3])]));
    assert!(p.warnings.is_empty());
}

#[test]
fn comments_may_stand_anywhere_even_inside_an_open_clause() {
    let p = ok("c head\nh 1 c trailing note\n -2 0 c after\nc between\n3 c weight first\n 2 0\n");
    assert_eq!(p.wcnf.hard, hard(&[&[1, -2]]));
    assert_eq!(p.wcnf.soft, soft(&[(3, &[2])]));
}

#[test]
fn clauses_may_span_lines_and_share_lines_and_crlf_reads_like_lf() {
    let p = ok("h 1\r\n2 0 4 -1\r\n 0 h 0\r\n");
    assert_eq!(p.wcnf.hard, hard(&[&[1, 2], &[]]));
    assert_eq!(p.wcnf.soft, soft(&[(4, &[-1])]));
}

#[test]
fn weight_zero_is_legal_and_kept() {
    let p = ok("0 1 0\nh -1 0\n");
    assert_eq!(p.wcnf.soft, soft(&[(0, &[1])]));
    assert_eq!(p.wcnf.cost(&[false]), Some(0));
}

#[test]
fn the_largest_weight_reads_and_an_empty_soft_clause_is_kept() {
    let p = ok("18446744073709551615 0\n");
    assert_eq!(p.wcnf.soft, soft(&[(u64::MAX, &[])]));
    assert_eq!(p.wcnf.num_vars, 0);
    assert_eq!(p.wcnf.cost(&[]), Some(u64::MAX));
}

#[test]
fn an_empty_hard_clause_and_tautologies_are_kept_as_written() {
    let p = ok("h 0\nh 1 -1 0\n2 1 -1 0\n");
    assert_eq!(p.wcnf.hard, hard(&[&[], &[1, -1]]));
    assert_eq!(p.wcnf.soft, soft(&[(2, &[1, -1])]));
}

#[test]
fn an_empty_or_comment_only_input_is_the_empty_instance() {
    for text in ["", "\n\n", "c only a comment\nc and another\n", "   \t\r\n"] {
        let p = ok(text);
        assert_eq!(p.wcnf, Wcnf::default(), "{text:?}");
        assert_eq!(p.dialect, Dialect::New);
        assert!(p.warnings.is_empty());
    }
}

#[test]
fn leading_zeros_and_minus_zero_are_numbers() {
    let p = ok("007 -0003 0\nh 2 -0\n");
    assert_eq!(p.wcnf.soft, soft(&[(7, &[-3])]));
    assert_eq!(p.wcnf.hard, hard(&[&[2]]));
}

#[test]
fn minus_zero_is_a_zero_weight_not_a_negative_one() {
    let p = ok("-0 1 0\n");
    assert_eq!(p.wcnf.soft, soft(&[(0, &[1])]));
}

#[test]
fn non_utf8_bytes_in_comments_are_fine() {
    let mut bytes = b"c caf\xe9 \xff\xfe\nh 1 0\n".to_vec();
    bytes.extend_from_slice(b"2 -1 0 c \x80\n");
    let p = read_wcnf(bytes.as_slice(), ParseOptions::default()).expect("parses");
    assert_eq!(p.wcnf.hard.len(), 1);
    assert_eq!(p.wcnf.soft.len(), 1);
}

#[test]
fn the_streaming_parser_reports_each_clause_start_and_weight() {
    let mut parser = Parser::new(
        "c x\n  h 1 0\n3\n -1 0 0 0\n".as_bytes(),
        ParseOptions::default(),
    )
    .expect("no header is fine");
    let mut clause = Vec::new();
    let mut starts = Vec::new();
    while let Some(s) = parser.next_clause(&mut clause).expect("parses") {
        starts.push((s.line, s.column, s.weight, clause.clone()));
    }
    assert_eq!(
        starts,
        vec![
            (2, 3, Weight::Hard, lits_of(&[1])),
            (3, 1, Weight::Soft(3), lits_of(&[-1])),
            (4, 7, Weight::Soft(0), vec![]),
        ]
    );
    assert_eq!(parser.num_clauses(), 3);
    assert_eq!(parser.num_hard(), 1);
    assert_eq!(parser.soft_total(), 3);
    assert_eq!(parser.num_vars(), 1);
}

#[test]
fn a_reader_that_returns_one_byte_at_a_time_gives_the_same_result() {
    let text = "c x\nh 1 -2 0\n12 3 0\n";
    let whole = ok(text);
    let bytewise = read_wcnf(Trickle(text.as_bytes()), ParseOptions::default()).expect("parses");
    assert_eq!(whole, bytewise);
}

// ---- the old dialect ----

#[test]
fn an_old_file_is_hard_exactly_when_the_weight_reaches_top() {
    let p = ok("c old\np wcnf 3 4 10\n10 1 -2 0\n11 2 0\n9 -1 3 0\n1 -3 0\n");
    assert_eq!(p.dialect, Dialect::Old);
    assert_eq!(
        p.header,
        Some(Header {
            num_vars: 3,
            num_clauses: 4,
            top: Some(10),
            line: 2
        })
    );
    assert_eq!(p.wcnf.hard, hard(&[&[1, -2], &[2]]));
    assert_eq!(p.wcnf.soft, soft(&[(9, &[-1, 3]), (1, &[-3])]));
}

#[test]
fn an_old_header_without_top_makes_every_clause_soft() {
    let p = ok("p wcnf 2 2\n100 1 0\n1 -2 0\n");
    assert_eq!(p.header.and_then(|h| h.top), None);
    assert!(p.wcnf.hard.is_empty());
    assert_eq!(p.wcnf.soft, soft(&[(100, &[1]), (1, &[-2])]));
}

#[test]
fn an_old_header_declares_unused_variables() {
    let p = ok("p wcnf 9 1 5\n5 1 0\n");
    assert_eq!(p.wcnf.num_vars, 9);
    assert_eq!(p.wcnf.hard, hard(&[&[1]]));
}

#[test]
fn hard_weights_of_the_old_format_are_not_summed() {
    let max = u64::MAX;
    let p = ok(&format!("p wcnf 2 3 {max}\n{max} 1 0\n{max} 2 0\n7 -1 0\n"));
    assert_eq!(p.wcnf.hard.len(), 2);
    assert_eq!(p.wcnf.soft, soft(&[(7, &[-1])]));
}

#[test]
fn an_old_header_with_top_zero_makes_every_clause_hard() {
    let p = ok("p wcnf 1 2 0\n0 1 0\n5 -1 1 0\n");
    assert_eq!(p.wcnf.hard.len(), 2);
    assert!(p.wcnf.soft.is_empty());
}

#[test]
fn the_old_header_tolerates_blanks_and_a_missing_final_newline() {
    let p = ok("\t p \twcnf  2\t1   3 \n3 1 -2 0");
    assert_eq!(p.wcnf.hard, hard(&[&[1, -2]]));
    assert_eq!(
        p.header.map(|h| (h.num_vars, h.num_clauses, h.top)),
        Some((2, 1, Some(3)))
    );
}

// ---- malformed input, with positions ----

#[test]
fn a_fractional_or_signed_or_lettered_weight_is_junk_naming_what_was_expected() {
    for (text, column, token) in [
        ("1.5 1 0\n", 1, "1.5"),
        ("h 1 0\n +2 1 0\n", 2, "+2"),
        ("1e3 1 0\n", 1, "1e3"),
        ("H 1 0\n", 1, "H"),
        ("x 0\n", 1, "x"),
    ] {
        let e = err(text);
        assert_matches!(e => ParseError { kind: ParseErrorKind::JunkToken { .. }, .. }, "{text:?}: {e:?}");
        let line = if text.starts_with("h 1 0\n") { 2 } else { 1 };
        at(
            &format!("{text:?}"),
            &e,
            line,
            column,
            &format!("unexpected `{token}`"),
        );
        assert!(e.to_string().contains("weight"), "{e}");
    }
}

#[test]
fn soft_weights_that_sum_past_64_bits_are_an_error_at_the_clause_that_overflows() {
    let e = err("9223372036854775808 1 0\nh 1 0\n9223372036854775807 2 0\n   1 3 0\n");
    match e {
        ParseError {
            kind: ParseErrorKind::SoftWeightOverflow { weight, total, .. },
            ..
        } => {
            assert_eq!(weight, 1);
            assert_eq!(total, u64::MAX);
        }
        ref other => panic!("{other:?}"),
    }
    at("a headerless file", &e, 4, 4, "soft weights overflow");
    // The same in the old format, where only soft weights count: a row of the table in
    // `each_malformed_input_is_refused_at_its_position_with_a_message_saying_what_was_wrong`.
}

#[test]
fn a_clause_without_its_final_zero_is_an_error_naming_where_it_began() {
    for (text, line, column, clause_line) in [
        ("h 1 0\n3 1 2\n", 3, 1, 2),
        ("h 1 0\n5", 2, 2, 2),
        ("h", 1, 2, 1),
        ("h 1\nc comment\n", 3, 1, 1),
    ] {
        let e = err(text);
        match e {
            ParseError {
                kind:
                    ParseErrorKind::MissingFinalZero {
                        clause_line: got, ..
                    },
                ..
            } => assert_eq!(got, clause_line, "{text:?}"),
            ref other => panic!("{text:?}: {other:?}"),
        }
        at(&format!("{text:?}"), &e, line, column, "expected `0`");
    }
}

/// One input the reader refuses: what the case is, whether it is read `--strict`, the text, the
/// error it must give, and the line, column and words [`at`] must find in that error.
type Refusal = (
    &'static str,
    bool,
    &'static str,
    fn(&ParseError) -> bool,
    u64,
    u64,
    &'static str,
);

#[test]
fn each_malformed_input_is_refused_at_its_position_with_a_message_saying_what_was_wrong() {
    #[rustfmt::skip]
    let cases: &[Refusal] = &[
        ("a negative weight", false, "h 1 0\n  -3 1 0\n", |e| matches!(e, ParseError { kind: ParseErrorKind::NegativeWeight { .. }, .. }), 2, 3, "negative weight `-3`"),
        ("a negative weight beyond 64 bits", false, "p wcnf 1 1 5\n-99999999999999999999999 1 0\n", |e| matches!(e, ParseError { kind: ParseErrorKind::NegativeWeight { .. }, .. }), 2, 1, "negative weight"),
        ("a weight beyond 64 bits overflows", false, "h 1 0\n18446744073709551616 1 0\n", |e| matches!(e, ParseError { kind: ParseErrorKind::WeightOverflow { .. }, .. }), 2, 1, "exceeds 2^64 - 1"),
        ("old-format soft weights past 64 bits (hard weights are not summed)", false, "p wcnf 2 2 18446744073709551615\n18446744073709551614 1 0\n2 2 0\n", |e| matches!(e, ParseError { kind: ParseErrorKind::SoftWeightOverflow { .. }, .. }), 3, 1, "overflow"),
        ("`h` in an old-format file explains the dialects", false, "p wcnf 1 1 5\nh 1 0\n", |e| matches!(e, ParseError { kind: ParseErrorKind::JunkToken { .. }, .. }), 2, 1, "`h` belongs to the headerless format"),
        ("a header after the first clause", false, "h 1 0\np wcnf 1 1 2\n", |e| matches!(e, ParseError { kind: ParseErrorKind::JunkToken { .. }, .. }), 2, 1, "must come before the first clause"),
        ("junk inside a clause is shown with its text", false, "h 1 0\n3 1 x2 0\n", |e| matches!(e, ParseError { kind: ParseErrorKind::JunkToken { .. }, .. }), 2, 5, "unexpected `x2`: expected a literal"),
        ("`h` inside a soft clause is junk", false, "3 1 h 0\n", |e| matches!(e, ParseError { kind: ParseErrorKind::JunkToken { .. }, .. }), 1, 5, "unexpected `h`"),
        ("a literal beyond the engine limit", false, "h 2147483648 0\n", |e| matches!(e, ParseError { kind: ParseErrorKind::TooManyVariables { .. }, .. }), 1, 3, "variables exceed"),
        ("a literal beyond 64 bits", false, "1 99999999999999999999999 0\n", |e| matches!(e, ParseError { kind: ParseErrorKind::NumberOverflow { .. }, .. }), 1, 3, "does not fit in 64 bits"),
        ("an old header's top weight beyond 64 bits", false, "p wcnf 3 2 18446744073709551616\n", |e| matches!(e, ParseError { kind: ParseErrorKind::WeightOverflow { .. }, .. }), 1, 12, "exceeds 2^64 - 1"),
        ("an old header's variables beyond the engine limit", false, "p wcnf 4294967296 1 1\n", |e| matches!(e, ParseError { kind: ParseErrorKind::TooManyVariables { .. }, .. }), 1, 8, "variables exceed"),
        ("an old file with fewer clauses than declared", false, "p wcnf 2 3 9\n9 1 0\n1 3 -1 0\n", |e| matches!(e, ParseError { kind: ParseErrorKind::Truncated { .. }, .. }), 4, 1, "ends after 2 of the 3 clauses"),
        ("strict: more clauses than declared", true, "p wcnf 2 1 9\n9 1 0\n 1 2 0\n", |e| matches!(e, ParseError { kind: ParseErrorKind::ClauseCountMismatch { .. }, .. }), 3, 2, "more clauses than the 1 declared"),
        ("strict: fewer clauses than declared", true, "p wcnf 2 3 9\n9 1 0\n", |e| matches!(e, ParseError { kind: ParseErrorKind::Truncated { .. }, .. }), 3, 1, "ends after 1 of the 3 clauses"),
        ("a second header names the first", false, "p wcnf 1 1 2\n2 1 0\n p wcnf 1 1 2\n", |e| matches!(e, ParseError { kind: ParseErrorKind::DuplicateHeader { first_line: 1, .. }, .. }), 3, 2, "second `p` header"),
        ("strict: a literal beyond the declared variables", true, "p wcnf 2 3 9\n9 1 0\n1 3 -1 0\n", |e| matches!(e, ParseError { kind: ParseErrorKind::LiteralOutOfRange { value: 3, max: 2, .. }, .. }), 3, 3, "exceeds the 2 variables declared"),
    ];
    for &(case, strict, text, expected, line, column, needle) in cases {
        let options = ParseOptions {
            strict,
            ..ParseOptions::default()
        };
        let e = match read_wcnf(text.as_bytes(), options) {
            Ok(p) => panic!("{case}: {text:?} parsed as {p:?}"),
            Err(e) => e,
        };
        assert!(expected(&e), "{case}: {text:?} gave {e:?}");
        at(case, &e, line, column, needle);
    }
}

#[test]
fn binary_garbage_is_an_error_not_a_panic() {
    let mut bytes = vec![0u8, 0xff, 0x13, b' ', 0x80];
    bytes.extend_from_slice(&[0xc3; 100]);
    let e = read_wcnf(bytes.as_slice(), ParseOptions::default()).expect_err("garbage");
    assert_eq!(e.position(), Some((1, 1)), "{e:?}");
}

#[test]
fn malformed_old_headers_name_the_column_and_what_was_expected() {
    #[rustfmt::skip]
    let cases = [
        ("p wcnf 3\n", 1, 9, "expected the number of clauses, found the end of the line"),
        ("p wcnf\n", 1, 7, "expected the number of variables"),
        ("p wcnf 3 2 x\n", 1, 12, "expected the top weight TOP"),
        ("p wcnf 3 2 -4\n", 1, 12, "expected the top weight TOP"),
        ("p wcnf 3 2 10 11\n", 1, 15, "the end of the line after the top weight"),
        ("p wcnf -3 2 10\n", 1, 8, "the number of variables, a non-negative integer"),
        ("p cnf 3 2\n", 1, 3, "this is a CNF file"),
        ("p wcnfx 3 2\n", 1, 3, "the format `wcnf`"),
        ("c x\npwcnf 3 2\n", 2, 1, "`p` followed by a blank"),
    ];
    for (text, line, column, needle) in cases {
        let e = err(text);
        assert_matches!(e => ParseError { kind: ParseErrorKind::BadHeader { .. }, .. }, "{text:?}: {e:?}");
        at(&format!("{text:?}"), &e, line, column, needle);
    }
    // An old header's numbers past their limits: rows of the table in
    // `each_malformed_input_is_refused_at_its_position_with_a_message_saying_what_was_wrong`.
}

#[test]
fn absurd_header_counts_allocate_nothing_up_front() {
    let text = "p wcnf 2147483647 18446744073709551615 9\n9 1 0\n";
    let p = relaxed(text);
    assert_eq!(p.wcnf.hard.len(), 1);
    assert_eq!(p.wcnf.num_vars, 2147483647);
    assert!(p.warnings.contains(&Warning::ClauseCountMismatch {
        declared: u64::MAX,
        found: 1
    }));
    let e = err(text);
    assert_matches!(e => ParseError { kind: ParseErrorKind::Truncated { declared: u64::MAX, found: 1, .. }, .. });
}

/// The same counts are errors by default and when strict: rows of the table in
/// `each_malformed_input_is_refused_at_its_position_with_a_message_saying_what_was_wrong`.
#[test]
fn old_format_counts_are_warnings_when_relaxed() {
    let p = relaxed("p wcnf 2 3 9\n9 1 0\n1 3 -1 0\n");
    assert_eq!(p.wcnf.num_vars, 3);
    assert_eq!(
        p.warnings,
        vec![
            Warning::ClauseCountMismatch {
                declared: 3,
                found: 2
            },
            Warning::LiteralOutOfRange {
                line: 3,
                column: 3,
                value: 3,
                declared: 2,
                largest: 3,
                count: 1
            }
        ]
    );
}

#[test]
fn the_headerless_format_has_no_counts_to_check_even_when_strict() {
    let p = read_wcnf("h 100 0\n".as_bytes(), ParseOptions::STRICT).expect("parses");
    assert_eq!(p.wcnf.num_vars, 100);
    assert!(p.warnings.is_empty());
}

// ---- gzip and files ----

#[test]
fn gzip_input_is_read_by_its_magic_bytes_whatever_the_name() {
    let dir = temp_dir("gzip");
    let path = dir.join("instance.txt");
    std::fs::write(&path, compress::gzip(b"h 1 0\n4 -1 0\n", DEFAULT)).expect("write");
    let p = read_wcnf_path(&path, ParseOptions::default()).expect("parses");
    assert_eq!(p.wcnf.soft, soft(&[(4, &[-1])]));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_truncated_gzip_file_is_a_gzip_error() {
    let mut bytes = compress::gzip(b"h 1 2 3 0\n".repeat(5000).as_slice(), DEFAULT);
    bytes.truncate(bytes.len() / 2);
    let input = Input::sniff(io::Cursor::new(bytes)).expect("sniffs");
    let e = read_wcnf(input, ParseOptions::default()).expect_err("truncated");
    assert_matches!(e => ParseError { kind: ParseErrorKind::Decompress { format: Compression::Gzip, .. }, .. });
}

#[test]
fn a_missing_file_is_an_open_error() {
    let e = read_wcnf_path(Path::new("/nonexistent/x.wcnf"), ParseOptions::default())
        .expect_err("missing");
    assert!(
        matches!(
            e,
            ParseError {
                kind: ParseErrorKind::Open { .. },
                ..
            }
        ) && e.is_io(),
        "{e:?}"
    );
}

// ---- the writer ----

fn example() -> Wcnf {
    Wcnf {
        num_vars: 3,
        hard: hard(&[&[1, -2], &[]]),
        soft: soft(&[(5, &[-1, 3]), (0, &[2]), (7, &[])]),
    }
}

fn written(wcnf: &Wcnf, dialect: Dialect) -> String {
    let mut out = Vec::new();
    write_wcnf(wcnf, dialect, &mut out).expect("writes");
    String::from_utf8(out).expect("ASCII")
}

#[test]
fn the_new_format_writer_marks_hard_clauses_with_h() {
    assert_eq!(
        written(&example(), Dialect::New),
        "h 1 -2 0\nh 0\n5 -1 3 0\n0 2 0\n7 0\n"
    );
}

#[test]
fn the_old_format_writer_uses_top_one_above_the_soft_sum() {
    assert_eq!(
        written(&example(), Dialect::Old),
        "p wcnf 3 5 13\n13 1 -2 0\n13 0\n5 -1 3 0\n0 2 0\n7 0\n"
    );
    let empty = written(&Wcnf::default(), Dialect::Old);
    assert_eq!(empty, "p wcnf 0 0 1\n");
}

#[test]
fn the_old_format_cannot_express_soft_weights_summing_to_the_maximum() {
    let wcnf = Wcnf {
        num_vars: 1,
        hard: vec![],
        soft: soft(&[(u64::MAX, &[1])]),
    };
    let mut out = Vec::new();
    let e = write_wcnf(&wcnf, Dialect::Old, &mut out).expect_err("no TOP fits");
    assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    assert!(out.is_empty(), "nothing written on failure");
    assert_eq!(written(&wcnf, Dialect::New), "18446744073709551615 1 0\n");
}

fn arb_wcnf() -> impl Strategy<Value = Wcnf> {
    let lit = (1i64..=12, any::<bool>()).prop_map(|(v, neg)| if neg { -v } else { v });
    let clause = prop::collection::vec(lit, 0..5);
    let weight = prop_oneof![0u64..10, Just(u64::MAX / 64), 1u64..1_000_000_000_000];
    (
        0usize..15,
        prop::collection::vec(clause.clone(), 0..8),
        prop::collection::vec((weight, clause), 0..8),
    )
        .prop_map(|(extra, hard_clauses, soft_clauses)| {
            let mut wcnf = Wcnf::new(extra);
            for c in hard_clauses {
                grim_formula::ClauseSink::add_clause(&mut wcnf, &lits_of(&c));
            }
            for (w, c) in soft_clauses {
                wcnf.add_soft(w, &lits_of(&c));
            }
            wcnf
        })
}

proptest! {
    #[test]
    fn the_new_format_round_trips_up_to_unused_variables(wcnf in arb_wcnf()) {
        let text = written(&wcnf, Dialect::New);
        let back = read_wcnf(text.as_bytes(), ParseOptions::STRICT).expect("reads back");
        let used = wcnf.hard.iter().chain(wcnf.soft.iter().map(|(_, c)| c)).flatten()
            .map(|l| l.var().index() + 1).max().unwrap_or(0);
        prop_assert_eq!(back.dialect, Dialect::New);
        prop_assert_eq!(back.wcnf.num_vars, used);
        prop_assert_eq!(&back.wcnf.hard, &wcnf.hard);
        prop_assert_eq!(&back.wcnf.soft, &wcnf.soft);
        prop_assert!(back.warnings.is_empty());
    }

    #[test]
    fn the_old_format_round_trips_exactly(wcnf in arb_wcnf()) {
        let text = written(&wcnf, Dialect::Old);
        let back = read_wcnf(text.as_bytes(), ParseOptions::STRICT).expect("reads back");
        prop_assert_eq!(back.dialect, Dialect::Old);
        prop_assert_eq!(&back.wcnf, &wcnf);
    }

    #[test]
    fn gzip_and_one_byte_reads_change_nothing(wcnf in arb_wcnf()) {
        let text = written(&wcnf, Dialect::New);
        let plain = read_wcnf(text.as_bytes(), ParseOptions::default()).expect("reads");
        let input = Input::sniff(io::Cursor::new(compress::gzip(text.as_bytes(), DEFAULT))).expect("sniffs");
        let zipped = read_wcnf(input, ParseOptions::default()).expect("reads gzip");
        prop_assert_eq!(plain, zipped);
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_reader(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = read_wcnf(bytes.as_slice(), ParseOptions::default());
        let _ = read_output(bytes.as_slice());
    }

    #[test]
    fn wcnf_like_text_never_panics_and_errors_always_have_positions(
        tokens in prop::collection::vec(prop_oneof![
            Just("h".to_string()), Just("0".to_string()), Just("-1".to_string()),
            Just("c x\n".to_string()), Just("\n".to_string()), Just("p wcnf 2 2 3\n".to_string()),
            Just("18446744073709551615".to_string()), Just("1.5".to_string()),
            (1u32..4).prop_map(|v| v.to_string()),
        ], 0..20)
    ) {
        let text = tokens.join(" ");
        if let Err(e) = read_wcnf(text.as_bytes(), ParseOptions::default()) {
            prop_assert!(e.position().is_some(), "{:?}", e);
        }
    }
}

proptest! {
    #[test]
    fn reading_through_detection_gives_the_same_result_and_positions_as_reading_directly(
        lines in prop::collection::vec(prop_oneof![
            Just("c comment with h and p wcnf inside".to_string()),
            Just("".to_string()), Just("  \t ".to_string()), Just("\r".to_string()),
            Just("h 1 -2 0".to_string()), Just("3 2 0".to_string()), Just(" 7 -1".to_string()),
            Just("0".to_string()), Just("x".to_string()), Just("-4 1 0".to_string()),
            Just("p wcnf 3 2 5".to_string()), Just("5 1 0 c tail".to_string()),
        ], 0..12)
    ) {
        let text = lines.join("\n");
        let direct = read_wcnf(text.as_bytes(), ParseOptions::default());
        let input = Input::sniff(io::Cursor::new(text.clone().into_bytes())).expect("sniffs");
        let d = detect(input, Path::new("x.wcnf"), Some(Format::Wcnf)).expect("detects");
        let replayed = read_wcnf(d, ParseOptions::default());
        match (direct, replayed) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
            (a, b) => prop_assert!(false, "{:?} vs {:?}", a, b),
        }
    }
}

// ---- format detection ----

fn detected(bytes: &[u8], name: &str) -> (Format, Reason, Vec<u8>) {
    let input = Input::sniff(io::Cursor::new(bytes.to_vec())).expect("sniffs");
    let mut d = detect(input, Path::new(name), None).expect("detects");
    let (format, reason) = (d.format, d.reason);
    let mut replay = Vec::new();
    d.read_to_end(&mut replay).expect("replays");
    (format, reason, replay)
}

#[test]
fn detection_follows_the_documented_rule() {
    use Format::*;
    #[rustfmt::skip]
    let cases = [
        ("p cnf 1 1\n1 0\n", "a.wcnf", Cnf, Reason::CnfHeader),
        ("c x\np wcnf 1 1 2\n2 1 0\n", "a.cnf", Wcnf, Reason::WcnfHeader),
        ("  p   wcnf 1 1\n", "-", Wcnf, Reason::WcnfHeader),
        ("c x\nh 1 0\n", "a.cnf", Wcnf, Reason::HardClause),
        ("h 1 0\n", "-", Wcnf, Reason::HardClause),
        ("3 1 0\n", "a.wcnf", Wcnf, Reason::WcnfName),
        ("3 1 0\n", "A.WCNF.GZ", Wcnf, Reason::WcnfName),
        ("3 1 0\n", "a.cnf", Cnf, Reason::CnfName),
        ("3 1 0\n", "a.cnf.gz", Cnf, Reason::CnfName),
        ("3 1 0\n", "-", Wcnf, Reason::Weight),
        ("c maxcut\n1 2 3 0\n1 -2 -3 0\n", "-", Wcnf, Reason::Weight),
        ("3 1 0\n", "instance.txt", Wcnf, Reason::Weight),
        ("3 1 0\n2 -1 0\nh 1 2 0\n", "a.cnf", Wcnf, Reason::HardClause),
        ("3 1 0\nc h 1 0\n", "a.cnf", Cnf, Reason::CnfName),
        ("-3 1 0\n", "-", Cnf, Reason::Default),
        ("-3 1 0\n", "a.wcnf", Wcnf, Reason::WcnfName),
        ("", "empty.wcnf", Wcnf, Reason::WcnfName),
        ("c only comments\n", "x.wcnf", Wcnf, Reason::WcnfName),
        ("", "empty.cnf", Cnf, Reason::Default),
        ("p knf 1 1\n", "a.wcnf", Cnf, Reason::CnfHeader),
        ("hx 1 0\n", "a.txt", Cnf, Reason::Default),
    ];
    for (text, name, format, reason) in cases {
        let (f, r, _) = detected(text.as_bytes(), name);
        assert_eq!((f, r), (format, reason), "{text:?} named {name}");
    }
    assert!(has_wcnf_name(Path::new("dir.cnf/x.wcnf")));
    assert!(has_cnf_name(Path::new("dir.wcnf/x.CNF.xz")));
    assert!(!has_cnf_name(Path::new("x.wcnf")));
    assert!(!has_wcnf_name(Path::new("x.wcnf/y.cnf")));
}

#[test]
fn detection_sees_through_gzip() {
    let (f, _, replay) = detected(&compress::gzip(b"c z\nh 1 0\n", DEFAULT), "a.gz");
    assert_eq!(f, Format::Wcnf);
    assert_eq!(replay, b"\nh 1 0\n");
}

#[test]
fn a_forced_format_wins() {
    let input = Input::sniff(io::Cursor::new(b"p cnf 1 1\n".to_vec())).expect("sniffs");
    let d = detect(input, Path::new("x.cnf"), Some(Format::Wcnf)).expect("detects");
    assert_eq!((d.format, d.reason), (Format::Wcnf, Reason::Forced));
}

#[test]
fn the_replayed_input_keeps_every_position_after_the_comments() {
    // A long comment block, tabs before the first token, then an error on line 5.
    let mut text = String::from("c a\n\nc ");
    text.push_str(&"long comment ".repeat(20_000));
    text.push_str("\n \t h 1 0\n4 1 x 0\n");
    let (format, _, replay) = detected(text.as_bytes(), "-");
    assert_eq!(format, Format::Wcnf);
    assert!(
        replay.len() < 100,
        "the comments are not kept: {} bytes",
        replay.len()
    );
    let input = Input::sniff(io::Cursor::new(text.into_bytes())).expect("sniffs");
    let d = detect(input, Path::new("-"), None).expect("detects");
    let e = read_wcnf(d, ParseOptions::default()).expect_err("junk");
    assert_eq!(e.position(), Some((5, 5)), "{e:?}");
    let p = ok("c a\n\nc b\n \t h 1 0\n");
    assert_eq!(p.wcnf.hard, hard(&[&[1]]));
}

#[test]
fn the_replayed_input_reads_the_same_as_the_original_for_cnf_too() {
    let text = "c x\n\n  p cnf 2 1\n1 -2 0\n";
    let (format, _, replay) = detected(text.as_bytes(), "a.cnf");
    assert_eq!(format, Format::Cnf);
    let direct = dimacs::read_cnf(text.as_bytes(), dimacs::ParseOptions::default()).expect("reads");
    let replayed =
        dimacs::read_cnf(replay.as_slice(), dimacs::ParseOptions::default()).expect("reads");
    assert_eq!(direct, replayed);
}

#[test]
fn a_first_line_longer_than_the_lookahead_still_detects_and_replays_whole() {
    let mut text = String::from("h");
    for v in 1..=2000 {
        text.push_str(&format!(" {v}"));
    }
    text.push_str(" 0\n");
    let (format, _, replay) = detected(text.as_bytes(), "-");
    assert_eq!(format, Format::Wcnf);
    assert_eq!(replay, text.as_bytes());
}

// ---- the MaxSAT output reader ----

fn output(text: &str) -> Output {
    read_output(text.as_bytes()).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn output_err(text: &str) -> ParseError {
    match read_output(text.as_bytes()) {
        Ok(o) => panic!("expected {text:?} to fail, read {o:?}"),
        Err(e) => e,
    }
}

#[test]
fn an_evaluation_style_output_reads_costs_answer_and_bit_model() {
    let o = output("c hi\no 10\no 4\ns OPTIMUM FOUND\nv 0110\n");
    assert_eq!(o.answer, Answer::OptimumFound);
    assert_eq!(o.answer_line, 4);
    assert_eq!(o.costs, vec![(10, 2), (4, 3)]);
    assert_eq!(o.last_cost(), Some((4, 3)));
    assert_eq!(o.model, Some(Model::Bits(vec![false, true, true, false])));
    let m = o.model.as_ref().expect("model");
    assert_eq!(m.value(lits_of(&[2])[0]), Some(true));
    assert_eq!(m.value(lits_of(&[-1])[0]), Some(true));
    assert_eq!(m.value(lits_of(&[5])[0]), None);
    assert_eq!(m.unassigned_below(6), 2);
}

#[test]
fn the_old_literal_list_model_reads_over_several_lines() {
    let o = output("o 3\ns SATISFIABLE\nv 1 -2\nv 3 -4 0\n");
    assert_eq!(o.answer, Answer::Satisfiable);
    assert_eq!(o.model, Some(Model::Lits(lits_of(&[1, -2, 3, -4]))));
    let o = output("o 0\ns OPTIMUM FOUND\nv -1 2\n");
    assert_eq!(o.model, Some(Model::Lits(lits_of(&[-1, 2]))));
}

#[test]
fn a_single_literal_one_is_read_as_the_bit_string_with_the_same_meaning() {
    let o = output("o 0\ns OPTIMUM FOUND\nv 1\n");
    assert_eq!(o.model, Some(Model::Bits(vec![true])));
}

#[test]
fn an_empty_v_line_is_the_model_of_an_instance_without_variables() {
    let o = output("o 0\ns OPTIMUM FOUND\nv \n");
    assert_eq!(o.model, Some(Model::Bits(vec![])));
}

#[test]
fn a_bit_string_of_a_million_variables_reads_whole() {
    let bits: String = (0..1_000_000)
        .map(|i| if i % 3 == 0 { '1' } else { '0' })
        .collect();
    let o = output(&format!("o 1\ns SATISFIABLE\nv {bits}\n"));
    match o.model {
        Some(Model::Bits(b)) => {
            assert_eq!(b.len(), 1_000_000);
            assert_eq!(b.iter().filter(|&&x| x).count(), 333_334);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn unsatisfiable_and_unknown_need_no_model_or_cost() {
    assert_eq!(output("s UNSATISFIABLE\n").answer, Answer::Unsatisfiable);
    let o = output("o 5\ns UNKNOWN\n");
    assert_eq!((o.answer, o.model), (Answer::Unknown, None));
}

#[test]
fn malformed_outputs_are_errors_with_positions() {
    #[rustfmt::skip]
    let cases = [
        ("o 1\n", (2, 1), "no `s` line"),
        ("o 1\ns OPTIMUM\nv 1\n", (2, 3), "unexpected `OPTIMUM`"),
        ("o 1\ns OPTIMUM FOUND NOW\nv 1\n", (2, 3), "OPTIMUM FOUND NOW"),
        ("o 1\ns\nv 1\n", (2, 2), "the end of the line"),
        ("s UNKNOWN\ns UNKNOWN\n", (2, 1), "a second `s` line"),
        ("o 1\ns SATISFIABLE\n", (2, 1), "without a `v` line"),
        ("s SATISFIABLE\nv 01\n", (1, 1), "without an `o` line"),
        ("s UNSATISFIABLE\nv 01\n", (2, 1), "the answer is UNSATISFIABLE"),
        ("o -1\ns UNKNOWN\n", (1, 3), "unexpected `-1`"),
        ("o 1 2\ns UNKNOWN\n", (1, 5), "end of the `o` line"),
        ("o\ns UNKNOWN\n", (1, 2), "the cost after `o`"),
        ("o 99999999999999999999\ns UNKNOWN\n", (1, 3), "does not fit"),
        ("o 1\ns SATISFIABLE\nv 01\nv 10\n", (4, 3), "a second `v` line"),
        ("o 1\ns SATISFIABLE\nv 01a0\n", (3, 3), "unexpected `01a0`"),
        ("o 1\ns SATISFIABLE\nv 1 x 0\n", (3, 5), "unexpected `x`"),
        ("o 1\ns SATISFIABLE\nv 1 -2 0 3\n", (3, 10), "after the `0`"),
        ("o 1\ns SATISFIABLE\nv 1 -2\nv 2 0\n", (4, 3), "contradicts -2"),
        ("o 1\ns SATISFIABLE\nv 1 4294967296 0\n", (3, 5), "variables exceed"),
        ("x\n", (1, 1), "a `c`, `o`, `s` or `v` line"),
    ];
    for (text, position, needle) in cases {
        let e = output_err(text);
        assert_eq!(e.position(), Some(position), "{text:?}: {e}");
        assert!(e.to_string().contains(needle), "{text:?}: {e}");
    }
}

/// Found when the MaxSAT output reader moved onto the shared literal reader (grim-formats): it
/// kept only a literal token's first 40 bytes, so `0…01x` with 45 zeros read as the literal 1.
#[test]
fn a_long_literal_token_with_junk_past_its_fortieth_byte_is_junk() {
    let token = format!("{}1x", "0".repeat(45));
    let e = output_err(&format!("o 1\ns SATISFIABLE\nv 2 {token} 0\n"));
    assert_matches!(e => ParseError { kind: ParseErrorKind::JunkToken { .. }, .. });
    assert_eq!(e.position(), Some((3, 5)), "{e}");
    assert!(e.to_string().contains("unexpected `0000"), "{e}");
    // The literal-list model's first token is kept whole: the same verdict.
    let e = output_err(&format!("o 1\ns SATISFIABLE\nv {token} 2 0\n"));
    assert_eq!(e.position(), Some((3, 3)), "{e}");
    // The same digits without the junk are the literal 1.
    let o = output(&format!("o 1\ns SATISFIABLE\nv 2 {}1 0\n", "0".repeat(45)));
    assert_eq!(o.model, Some(Model::Lits(lits_of(&[1, 2]))));
}

#[test]
fn the_output_writers_produce_what_the_reader_reads() {
    let mut out = Vec::new();
    write_cost(&mut out, 7).expect("writes");
    write_cost(&mut out, 3).expect("writes");
    write_answer(&mut out, Answer::OptimumFound).expect("writes");
    write_bits(&mut out, (0..20_000).map(|i| i % 2 == 1)).expect("writes");
    let text = String::from_utf8(out).expect("ASCII");
    assert!(
        text.starts_with("o 7\no 3\ns OPTIMUM FOUND\nv 0101"),
        "{}",
        &text[..40]
    );
    assert_eq!(text.lines().count(), 4, "the model is one line");
    let o = output(&text);
    assert_eq!(o.last_cost(), Some((3, 2)));
    assert_eq!(
        o.model,
        Some(Model::Bits((0..20_000).map(|i| i % 2 == 1).collect()))
    );
}

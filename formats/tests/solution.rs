//! The solver-output format (`s` and `v` lines): what the reader accepts and refuses, and
//! the writer's line limit.

use grim_formats::solution::{Answer, MAX_LINE, read_solution, write_answer, write_model};
use grim_formats::{OutputKind, ParseError, ParseErrorKind};
use grim_solver::{Lit, Var};
use grim_testkit::assert_matches;
use proptest::prelude::*;

fn read(text: &str) -> Result<grim_formats::solution::Solution, ParseError> {
    read_solution(text.as_bytes())
}

fn err(text: &str) -> ParseError {
    match read(text) {
        Ok(s) => panic!("expected {text:?} to be refused, read {s:?}"),
        Err(e) => e,
    }
}

fn lit(v: i64) -> Lit {
    Lit::from_dimacs(v).unwrap_or_else(|| panic!("bad test literal {v}"))
}

#[test]
fn a_satisfiable_answer_with_comments_and_several_v_lines_reads_sorted_by_variable() {
    let s =
        read("c solver 1.0\ns SATISFIABLE\nc model follows\nv 3 -1\nv  2\r\nv 0\n").expect("valid");
    assert_eq!(s.answer, Answer::Satisfiable);
    assert_eq!(s.answer_line, 2);
    assert_eq!(s.model, vec![lit(-1), lit(2), lit(3)]);
    assert_eq!(s.value(lit(1)), Some(false));
    assert_eq!(s.value(lit(-1)), Some(true));
    assert_eq!(s.value(lit(4)), None);
}

#[test]
fn unsatisfiable_and_unknown_read_without_a_model() {
    assert_eq!(
        read("s UNSATISFIABLE\n").expect("valid").answer,
        Answer::Unsatisfiable
    );
    assert_eq!(
        read("c x\n\ns UNKNOWN").expect("valid").answer,
        Answer::Unknown
    );
}

#[test]
fn repeating_a_literal_is_harmless() {
    let s = read("s SATISFIABLE\nv 1 1 -2 0\n").expect("valid");
    assert_eq!(s.model, vec![lit(1), lit(-2)]);
}

#[test]
fn a_model_without_its_final_zero_is_refused() {
    let e = err("s SATISFIABLE\nv 1 -2\n");
    assert_matches!(e => ParseError { line: 3, column: 1, kind: ParseErrorKind::UnterminatedModel { model_line: 2 } });
}

#[test]
fn a_variable_with_both_signs_is_refused_at_the_later_literal() {
    let e = err("s SATISFIABLE\nv 1 2 -3\nv 4 -2 0\n");
    assert_matches!(
        e => ParseError { line: 3, column: 5, kind: ParseErrorKind::ConflictingLiteral { value: -2, first_line: 2 } }
    );
    let e = err("s SATISFIABLE\nv -5 7 5 0\n");
    assert_matches!(
        e => ParseError { line: 2, column: 8, kind: ParseErrorKind::ConflictingLiteral { value: 5, first_line: 2 } }
    );
}

#[test]
fn literals_after_the_terminating_zero_are_refused() {
    let e = err("s SATISFIABLE\nv 1 0\nv 2 0\n");
    assert_matches!(e => ParseError { line: 3, column: 3, kind: ParseErrorKind::LiteralAfterEnd { value: 2, end_line: 2 } });
}

#[test]
fn satisfiable_without_v_lines_is_refused() {
    let e = err("s SATISFIABLE\n");
    assert_matches!(e => ParseError { line: 1, column: 1, kind: ParseErrorKind::MissingModel { output: OutputKind::Sat, .. } });
}

#[test]
fn v_lines_under_another_answer_are_refused() {
    let e = err("s UNSATISFIABLE\nv 1 0\n");
    assert_matches!(
        e => ParseError { line: 2, column: 1, kind: ParseErrorKind::ModelWithoutSolution { output: OutputKind::Sat, answer: "UNSATISFIABLE" } }
    );
}

#[test]
fn a_missing_or_repeated_or_unknown_status_is_refused() {
    let e = err("c nothing here\n");
    assert_matches!(e => ParseError { kind: ParseErrorKind::MissingStatus { output: OutputKind::Sat, .. }, .. });
    let e = err("s UNKNOWN\ns SATISFIABLE\nv 0\n");
    assert_matches!(e => ParseError { line: 2, column: 1, kind: ParseErrorKind::DuplicateStatus { first_line: 1 } });
    for (text, found) in [
        ("s SAT\n", "SAT"),
        ("s OPTIMUM FOUND\n", "OPTIMUM"),
        ("s SATISFIABLE yes\nv 0\n", "SATISFIABLE yes"),
        ("s\n", "the end of the line"),
    ] {
        let e = err(text);
        assert_matches!(
            &e => ParseError { kind: ParseErrorKind::BadStatus { found: f, .. }, .. } if f == found,
            "{text:?}: {e:?}"
        );
    }
}

#[test]
fn other_lines_and_junk_in_v_lines_are_refused_with_positions() {
    let e = err("s SATISFIABLE\no 3\nv 0\n");
    assert_matches!(&e => ParseError { line: 2, column: 1, kind: ParseErrorKind::UnexpectedLine { found } } if found == "o");
    let e = err("s SATISFIABLE\nv 1 x 0\n");
    assert_matches!(e => ParseError { line: 2, column: 5, kind: ParseErrorKind::JunkToken { .. } });
    let e = err("s SATISFIABLE\nv 1 99999999999999999999999 0\n");
    assert_matches!(e => ParseError { line: 2, column: 5, kind: ParseErrorKind::NumberOverflow { .. } });
    let e = err("s SATISFIABLE\nv 4294967296 0\n");
    assert_matches!(e => ParseError { line: 2, column: 3, kind: ParseErrorKind::TooManyVariables { .. } });
}

#[test]
fn a_huge_variable_number_costs_no_memory() {
    let s = read("s SATISFIABLE\nv -2147483647 0\n").expect("valid");
    assert_eq!(s.model.len(), 1);
    assert_eq!(s.value(lit(-2_147_483_647)), Some(true));
}

#[test]
fn written_v_lines_stay_within_the_line_limit_and_end_in_zero() {
    let lits: Vec<Lit> = (0..5000u32)
        .map(|i| Var::new(i * 100_000).expect("in range").lit(i % 3 == 0))
        .collect();
    let mut out = Vec::new();
    write_answer(&mut out, Answer::Satisfiable).expect("write");
    write_model(&mut out, lits.iter().copied()).expect("write");
    let text = String::from_utf8(out).expect("ascii");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() > 10,
        "expected many v lines, got {}",
        lines.len()
    );
    for line in &lines[1..] {
        assert!(line.starts_with("v "), "{line:?}");
        assert!(line.len() < MAX_LINE, "line of {} bytes", line.len());
    }
    assert!(lines.last().is_some_and(|l| l.ends_with(" 0")));
    let back = read_solution(text.as_bytes()).expect("reads back");
    let mut sorted = lits.clone();
    sorted.sort();
    assert_eq!(back.model, sorted);
}

#[test]
fn an_empty_model_is_the_line_v_0() {
    let mut out = Vec::new();
    write_model(&mut out, std::iter::empty()).expect("write");
    assert_eq!(out, b"v 0\n");
}

proptest! {
    #[test]
    fn any_written_model_reads_back_and_respects_the_line_limit(
        values in prop::collection::vec(any::<bool>(), 0..3000),
        offset in 0u32..2_000_000_000,
    ) {
        let lits: Vec<Lit> = values
            .iter()
            .enumerate()
            .map(|(i, &b)| Var::new(offset + i as u32).expect("in range").lit(b))
            .collect();
        let mut out = b"s SATISFIABLE\n".to_vec();
        write_model(&mut out, lits.iter().copied()).expect("write");
        for line in out.split(|&b| b == b'\n') {
            prop_assert!(line.len() < MAX_LINE);
        }
        let back = read_solution(&out[..]).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back.model, lits);
    }

    #[test]
    fn arbitrary_output_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = read_solution(&bytes[..]);
        let mut sat = b"s SATISFIABLE\nv ".to_vec();
        sat.extend_from_slice(&bytes);
        let _ = read_solution(&sat[..]);
    }
}

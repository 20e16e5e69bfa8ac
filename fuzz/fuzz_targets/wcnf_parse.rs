//! Arbitrary bytes into the WCNF reader (both dialects): it never panics (every rejection is a
//! typed `ParseError` naming line and column), a strict read that succeeds equals the lenient
//! one, and whatever it accepts, written back in either dialect, reads again as the same hard
//! and soft clauses with the same weights.
//!
//! The old dialect cannot express an instance whose soft weights sum to 2^64 − 1 or more (no
//! TOP fits); the writer must refuse it cleanly, and the new dialect must still round-trip.
#![no_main]

use grim_formats::dimacs::ParseOptions;
use grim_formats::wcnf::{Dialect, read_wcnf, write_wcnf};
use grim_fuzz::assert_strict_agrees;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let lenient = read_wcnf(data, ParseOptions::default());
    let strict = read_wcnf(data, ParseOptions::STRICT);
    assert_strict_agrees(&lenient, &strict, |p| (&p.wcnf, &p.warnings));
    let Ok(parsed) = &lenient else {
        return;
    };
    for dialect in [Dialect::New, Dialect::Old] {
        let mut out = Vec::new();
        match write_wcnf(&parsed.wcnf, dialect, &mut out) {
            Ok(()) => {}
            Err(_) if dialect == Dialect::Old => {
                assert!(
                    parsed
                        .wcnf
                        .total_soft_weight()
                        .is_none_or(|s| s == u64::MAX),
                    "the old dialect refused an instance whose TOP fits"
                );
                assert!(out.is_empty(), "a refused write left bytes behind");
                continue;
            }
            Err(e) => panic!("writing the new dialect failed: {e}"),
        }
        let again = read_wcnf(&out[..], ParseOptions::STRICT)
            .unwrap_or_else(|e| panic!("written {dialect:?} output does not re-parse: {e}"));
        assert_eq!(
            again.wcnf.hard, parsed.wcnf.hard,
            "{dialect:?}: hard clauses"
        );
        assert_eq!(
            again.wcnf.soft, parsed.wcnf.soft,
            "{dialect:?}: soft clauses"
        );
        assert!(again.warnings.is_empty());
    }
});

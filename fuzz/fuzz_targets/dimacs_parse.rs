//! Arbitrary bytes into the DIMACS reader: it never panics (every rejection is a typed
//! `ParseError`), and whatever it accepts, written back with `write_dimacs`, reads again —
//! strictly, without warnings — as the same clauses over the same variables.
//!
//! Both modes are tried (lenient and strict: a strict read that succeeds must equal the
//! lenient one), through the plain reader and through `Input::sniff`, the gzip-sniffing path
//! `grim-sat` uses (inputs starting with `1f 8b` exercise the inflater's errors).
#![no_main]

use std::io::Cursor;

use grim_formats::dimacs::{ParseOptions, read_cnf, write_dimacs};
use grim_formats::{Compression, Input};
use grim_fuzz::assert_strict_agrees;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let lenient = read_cnf(data, ParseOptions::default());
    let strict = read_cnf(data, ParseOptions::STRICT);
    assert_strict_agrees(&lenient, &strict, |p| (&p.cnf, &p.warnings));
    if let Ok(parsed) = &lenient {
        // Never more variables than the engine accepts, never a literal past the count.
        assert!(parsed.cnf.vars_used() <= parsed.cnf.num_vars);
        let mut out = Vec::new();
        write_dimacs(&parsed.cnf, &mut out).expect("writing to a Vec");
        let again = read_cnf(&out[..], ParseOptions::STRICT)
            .unwrap_or_else(|e| panic!("written output does not re-parse: {e}\n{out:?}"));
        assert_eq!(again.cnf, parsed.cnf, "round trip changed the formula");
        assert!(again.warnings.is_empty());
    }
    // The sniffing path: identical to the plain reader on bytes without a compression magic
    // number (gzip, xz, bzip2, lzma).
    if let Ok(input) = Input::sniff(Cursor::new(data.to_vec())) {
        let plain = input.compression() == Compression::None;
        let sniffed = read_cnf(input, ParseOptions::default());
        if plain {
            assert_eq!(
                sniffed.as_ref().ok().map(|p| &p.cnf),
                lenient.as_ref().ok().map(|p| &p.cnf),
                "sniffing changed the answer on plain bytes"
            );
        }
    }
});

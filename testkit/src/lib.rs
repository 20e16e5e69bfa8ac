//! grim-testkit: what the tests of every grimoire crate and the fuzz targets share, so that
//! an oracle or a generator exists once and a fix to it reaches every test.
//!
//! | module | what |
//! | --- | --- |
//! | [`SplitMix64`] | the one seeded stream (re-exported from `grim_formula::rng`) |
//! | [`compress`] | gzip, xz, bzip2 and lzma bytes from the reference encoders |
//! | [`generate`] | seeded generators: random CNF, random k-SAT, pigeonhole, random WCNF |
//! | [`oracle`] | brute force: satisfiability under assumptions, the MaxSAT optimum; naive unit propagation |
//! | [`referee`] | judges one answer: a model against clauses, a `solve` answer against brute force |
//! | `grid` (feature `grid`) | every level of a small grid spec (or a seeded sample), and the assumptions that fix one |
//! | [`lrat`] | an LRAT proof checker (text and binary, RUP and RAT steps) written from the format's definition, and the `lrat-check` binary over it |
//! | [`Trickle`], [`assert_matches!`], [`assert_contains`], [`assert_starts_with`], [`assert_above!`] | a one-byte-a-call reader; a pattern check that shows the value; substring checks that show the text; counter floors that show the stats |
//! | [`propagator`] | external propagators a test can predict: hidden clauses revealed lazily, a cardinality bound |
//! | [`reference`](mod@reference) | reference tools on `PATH`, and skipping a check visibly (or failing under `GRIM_REQUIRE_REFERENCES=1`) |
//!
//! Why a crate and not a `tests/common` module per crate: the same oracle was copied into
//! the solver's tests, the encodings' tests, the C ABI's tests, the CLI's tests and
//! `fuzz/`, and the copies had started to differ (three spellings of `below`). A dev-only
//! crate (`publish = false`) is the one place all of them can reach: it depends on
//! `grim-solver` and `grim-formula` (and the reference compressors, for inputs only; with the
//! `grid` feature, on `grim-levels`), so every crate's integration tests and `fuzz/` link the
//! same library the tests exercise.
//!
//! Everything here is for tests: the oracles enumerate every assignment and panic when asked
//! for more variables than they enumerate (a test bug, not an engine one).
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod compress;
pub mod generate;
#[cfg(feature = "grid")]
pub mod grid;
pub mod lrat;
pub mod oracle;
pub mod propagator;
pub mod referee;
pub mod reference;

pub use grim_formula::rng::SplitMix64;
pub use oracle::{maxsat_optimum, satisfiable, unit_propagate, vars_of};
pub use referee::{Answer, check_answer, falsified, satisfies};

use grim_solver::{Lit, Var};

/// The literal of variable `v` (0-based), negative when `negative`.
///
/// Panics past the engine's variable limit (tests use small indices).
pub fn lit(v: u32, negative: bool) -> Lit {
    Lit::new(Var::new(v).expect("a small variable index"), negative)
}

/// The literal of a DIMACS integer (`3` is variable 2 positive, `-1` variable 0 negative).
///
/// Panics on 0 (a test bug).
pub fn dimacs(d: i64) -> Lit {
    Lit::from_dimacs(d).expect("a non-zero DIMACS literal")
}

/// One clause of DIMACS integers as literals.
pub fn lits_of(clause: &[i64]) -> Vec<Lit> {
    clause.iter().map(|&d| dimacs(d)).collect()
}

/// Clauses of DIMACS integers as literals (`Vec`s or slices).
pub fn clauses_of<C: AsRef<[i64]>>(cs: &[C]) -> Vec<Vec<Lit>> {
    cs.iter().map(|c| lits_of(c.as_ref())).collect()
}

/// The text of every `.rs` file in `manifest_dir/folder` and its subfolders but `except` (the
/// folder's own file of that name), concatenated: what the style rule "a test fails when an
/// option is never read" searches for `opts.NAME` (the engine's table in `solver/src`, OLL's in
/// `encodings/maxsat/src`, whose techniques may be folders such as `bnb/`; `except` is the file
/// that declares the table, where every name appears anyway).
///
/// Panics when the folder or a file cannot be read (a test bug).
pub fn sources_except(manifest_dir: &str, folder: &str, except: &str) -> String {
    fn walk(dir: &std::path::Path, except: Option<&str>, sources: &mut String) {
        for entry in std::fs::read_dir(dir).expect("the source folder is readable") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                walk(&path, None, sources);
            } else if path.extension().is_some_and(|e| e == "rs")
                && !except.is_some_and(|x| path.ends_with(x))
            {
                sources.push_str(&std::fs::read_to_string(&path).expect("source file"));
            }
        }
    }
    let mut sources = String::new();
    walk(
        &std::path::Path::new(manifest_dir).join(folder),
        Some(except),
        &mut sources,
    );
    sources
}

/// A reader that hands out one byte per call, so that every buffer boundary of a parser
/// falls inside a token: the DIMACS and WCNF readers must give the same result through it.
pub struct Trickle<'a>(pub &'a [u8]);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

/// A reader handing out the input in chunks of the given sizes, in turn (0 is read as 1), so
/// that a parser's buffer boundaries fall anywhere: the DIMACS and WCNF readers' fast-path tests
/// read each text whole, through [`Trickle`] and through this.
pub struct Chunks<'a> {
    text: &'a [u8],
    sizes: Vec<usize>,
    next: usize,
}

impl<'a> Chunks<'a> {
    /// `text` in chunks of `sizes`, cycled.
    pub fn new(text: &'a [u8], sizes: Vec<usize>) -> Chunks<'a> {
        Chunks {
            text,
            sizes,
            next: 0,
        }
    }
}

impl std::io::Read for Chunks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let size = self.sizes.get(self.next % self.sizes.len().max(1)).copied();
        self.next += 1;
        let n = size.unwrap_or(1).max(1).min(buf.len()).min(self.text.len());
        let (head, tail) = self.text.split_at(n);
        buf[..n].copy_from_slice(head);
        self.text = tail;
        Ok(n)
    }
}

/// Reads `text` three ways with `read` — whole, one byte at a time ([`Trickle`]) and in
/// chunks of `sizes` ([`Chunks`]) — asserts the three outcomes are equal, and returns the
/// whole read's. Why: a parser's fast path that reads tokens straight from its buffer must
/// agree with its byte-at-a-time path wherever the buffer ends.
#[track_caller]
pub fn same_three_ways<O: PartialEq + std::fmt::Debug>(
    text: &[u8],
    sizes: Vec<usize>,
    read: impl Fn(&mut dyn std::io::Read) -> O,
) -> O {
    let whole = read(&mut &text[..]);
    let trickled = read(&mut Trickle(text));
    let chunked = read(&mut Chunks::new(text, sizes));
    let shown = String::from_utf8_lossy(text);
    assert_eq!(whole, trickled, "whole vs one byte at a time: {shown:?}");
    assert_eq!(whole, chunked, "whole vs chunked: {shown:?}");
    whole
}

/// Asserts that `text` contains each of `needles`, showing the first one missing and the
/// whole text when one is.
///
/// Why a function: `assert!(stdout(&o).contains("…"), "{}", stdout(&o))` takes five lines
/// once rustfmt breaks it, and the CLI tests were mostly that shape; a list of needles also
/// replaces the `for needle in [...] { assert!(…) }` loops.
#[track_caller]
pub fn assert_contains(text: &str, needles: &[&str]) {
    if let Some(missing) = needles.iter().find(|n| !text.contains(**n)) {
        panic!("missing {missing:?} in:\n{text}");
    }
}

/// Asserts that `text` starts with `prefix`, showing the whole text when it does not.
#[track_caller]
pub fn assert_starts_with(text: &str, prefix: &str) {
    assert!(
        text.starts_with(prefix),
        "does not start with {prefix:?}:\n{text}"
    );
}

/// Asserts that a value matches a pattern (with an optional guard), showing the value when it
/// does not: `assert_matches!(e => ParseError { line: 4, column: 1, kind: ParseErrorKind::Truncated { .. } })`.
///
/// Why not `assert!(matches!(e, …), "{e:?}")`: rustfmt lays a struct pattern of more than 18
/// characters out one field a line, so each check of an error's position took 13 lines and
/// the test files were mostly that shape. The `=>` keeps rustfmt from re-laying the pattern
/// (it cannot parse the arguments as expressions), so a check stays one line. An optional
/// message after a comma replaces the default `{value:?}`.
#[macro_export]
macro_rules! assert_matches {
    ($value:expr => $pattern:pat $(if $guard:expr)? $(,)?) => {{
        // A place, not a moved value: the caller goes on using it.
        let value = &$value;
        assert!(
            matches!(*value, $pattern $(if $guard)?),
            "{value:?} does not match {}",
            stringify!($pattern $(if $guard)?)
        )
    }};
    ($value:expr => $pattern:pat $(if $guard:expr)?, $($message:tt)+) => {
        assert!(matches!($value, $pattern $(if $guard)?), $($message)+)
    };
}

/// Asserts that each named counter of a statistics struct is above its floor, naming the
/// counter, its value, the floor and the whole struct when one is not:
/// `assert_above!(stats => restarts > 10, walks > 0)`.
///
/// Why a macro: the tests that check "every technique fired" were lists of the same
/// `assert!(st.x > n, "x: {st:?}")`; the `=>` keeps rustfmt from laying the list out one
/// counter a line.
#[macro_export]
macro_rules! assert_above {
    ($stats:expr => $($counter:ident > $floor:expr),+ $(,)?) => {{
        let stats = &$stats;
        $(
            assert!(
                stats.$counter > $floor,
                "{} = {}, not above {}: {stats:?}",
                stringify!($counter),
                stats.$counter,
                $floor
            );
        )+
    }};
}

#[cfg(test)]
mod tests {
    #[test]
    fn assert_matches_passes_a_match_and_leaves_the_value_usable() {
        let e: Result<u32, String> = Err("x".to_string());
        assert_matches!(&e => Err(s) if s == "x");
        assert_matches!(&e => Err(s) if s.len() == 1, "{e:?}");
        assert_eq!(e, Err("x".to_string()));
    }

    #[test]
    #[should_panic(expected = "Ok(3) does not match Ok(4)")]
    fn assert_matches_panics_naming_the_value_and_the_pattern() {
        assert_matches!(Ok::<u32, ()>(3) => Ok(4));
    }

    #[derive(Debug)]
    struct Counts {
        restarts: u64,
        walks: u64,
    }

    #[test]
    fn assert_above_passes_when_every_counter_is_above_its_floor() {
        assert_above!(Counts { restarts: 11, walks: 1 } => restarts > 10, walks > 0);
    }

    #[test]
    #[should_panic(expected = "walks = 0, not above 0: Counts { restarts: 11, walks: 0 }")]
    fn assert_above_panics_naming_the_counter_and_the_struct() {
        assert_above!(Counts { restarts: 11, walks: 0 } => restarts > 10, walks > 0);
    }

    #[test]
    fn assert_contains_passes_when_every_needle_is_there() {
        super::assert_contains("s SATISFIABLE\nv 1 0", &["s SAT", "v 1 0", ""]);
        super::assert_contains("anything", &[]);
    }

    #[test]
    #[should_panic(expected = "missing \"v 2\" in:\ns SAT")]
    fn assert_contains_panics_naming_the_missing_needle_and_the_text() {
        super::assert_contains("s SAT", &["s SAT", "v 2"]);
    }

    #[test]
    #[should_panic(expected = "does not start with \"v\":\ns SAT")]
    fn assert_starts_with_panics_showing_the_text() {
        super::assert_starts_with("s SAT", "s");
        super::assert_starts_with("s SAT", "v");
    }
}

/// A `Write` that keeps the bytes for a test to read back, cloneable so that one handle goes to
/// the solver (`Solver::set_proof` takes ownership) while the test keeps the other. Shared by
/// the proof tests and the factoring tests, which read the re-encoding from the proof.
#[derive(Clone, Default)]
pub struct SharedSink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl SharedSink {
    /// The bytes written so far.
    pub fn bytes(&self) -> Vec<u8> {
        self.0.lock().map(|b| b.clone()).unwrap_or_default()
    }
}

impl std::io::Write for SharedSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut b) = self.0.lock() {
            b.extend_from_slice(buf);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

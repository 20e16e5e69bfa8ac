//! grim-formats: the file formats of SAT and MaxSAT — DIMACS CNF ([`dimacs`]), WCNF in both
//! dialects ([`wcnf`]), telling the two apart ([`detect`]), and the competition output of a SAT
//! solver ([`solution`]: `s` and `v` lines) and of a MaxSAT solver ([`maxsat_output`]: `o`,
//! `s` and a 0/1 `v` line) — read and written, with one typed error ([`ParseError`]).
//!
//! ```
//! use grim_formats::dimacs::{ParseOptions, read_cnf, write_dimacs};
//! use grim_formats::{ParseError, ParseErrorKind};
//!
//! let text = "c a tiny instance\np cnf 3 2\n1 -2 0\n2 3 0\n";
//! let parsed = read_cnf(text.as_bytes(), ParseOptions::default()).expect("well-formed");
//! assert_eq!((parsed.cnf.num_vars, parsed.cnf.clauses.len()), (3, 2));
//! let mut out = Vec::new();
//! write_dimacs(&parsed.cnf, &mut out).expect("into a Vec");
//! assert_eq!(out, b"p cnf 3 2\n1 -2 0\n2 3 0\n");
//!
//! // Errors name the line and column and what was expected there.
//! let error = read_cnf("p cnf 2 1\n1 x 0\n".as_bytes(), ParseOptions::default()).unwrap_err();
//! assert!(matches!(
//!     error,
//!     ParseError { line: 2, column: 3, kind: ParseErrorKind::JunkToken { .. } }
//! ));
//! assert!(error.with_path("x.cnf").to_string().starts_with("x.cnf:2:3: unexpected `x`"));
//! ```
//!
//! # Why a crate of its own
//! The readers used to live in `grim-tools`, beside the command-line tools, so a program that
//! only reads a CNF pulled in clap and signal-hook. Here they depend on the engine's [`Lit`]
//! (`grim-solver`), the in-memory [`Cnf`]/[`Wcnf`] that the encodings write (`grim-formula`)
//! and the decompressors, nothing else; `grim-tools` re-exports this crate as
//! `grim_tools::formats`. Putting them inside `grim-encodings` instead was rejected: every
//! user of the encodings would then build three decompressors, one of them in C.
//!
//! # The map
//! | module | what |
//! | --- | --- |
//! | `source.rs` | the byte source under every reader: a fixed buffer, positions, the token scanner |
//! | `header.rs` | the one `p cnf` / `p wcnf` header lexer |
//! | `literal.rs` | the one literal reader: clause bodies (range rules, warnings) and `v`-line models |
//! | [`dimacs`] | DIMACS CNF reader (streaming [`dimacs::Parser`], whole [`dimacs::read_cnf`]) and writer; [`dimacs::ParseOptions`] |
//! | [`wcnf`] | WCNF reader for both dialects and writer |
//! | [`detect`] | CNF or WCNF, from the contents (and the name for a headerless file) |
//! | `output.rs` | what the two output readers share: the answer enums' table, the line loop |
//! | [`solution`] | SAT solver output: `s`, `v` |
//! | [`maxsat_output`] | MaxSAT solver output: `o`, `s`, `v` |
//! | [`compress`] | gzip, xz, bzip2 and lzma by their magic bytes |
//! | `error.rs` | [`ParseError`] (`{ line, column, kind }`: [`ParseErrorKind`]) and [`Warning`] |
//!
//! Every reader streams bytes through a fixed buffer (see `source.rs`): no input is ever read
//! into one `String`, and no count read from a header is trusted for an allocation. Inputs are
//! opened with [`open_input`], which takes `-` for standard input and recognises gzip, xz,
//! bzip2 and lzma by their magic bytes ([`compress`]), never by the file name: `zcat`-style
//! pipelines and misnamed files both just work.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

mod cnf;
pub mod compress;
pub mod detect;
pub mod dimacs;
mod error;
mod header;
mod literal;
pub mod maxsat_output;
mod output;
pub mod solution;
mod source;
pub mod wcnf;

pub use cnf::Cnf;
pub use compress::Compression;
pub use error::{OutputKind, ParseError, ParseErrorKind, Warning};
pub use grim_formula::sink::Wcnf;
pub use grim_solver::Lit;

/// `n` and `noun`, with the noun's plural `s` unless `n` is 1: `1 clause`, `3 clauses`. For
/// the messages of the readers and the tools (the nouns there are regular).
pub fn plural(n: impl std::fmt::Display, noun: &str) -> String {
    let n = n.to_string();
    let s = if n == "1" { "" } else { "s" };
    format!("{n} {noun}{s}")
}

/// An opened input: plain or decompressed bytes, ready for a reader.
pub struct Input {
    reader: Box<dyn Read>,
    compression: Compression,
}

impl Input {
    /// Wraps any reader, sniffing the magic bytes of gzip, xz, bzip2 and lzma (see
    /// [`compress`]): a compressed stream is decompressed (all concatenated members or
    /// streams, as `gzip -d`, `xz -d` and `bzip2 -d` do), anything else is passed through
    /// unchanged.
    pub fn sniff<R: Read + 'static>(mut reader: R) -> Result<Input, ParseError> {
        let mut magic = [0u8; Compression::MAGIC_LEN];
        let mut got = 0;
        while got < magic.len() {
            let Some(rest) = magic.get_mut(got..) else {
                break;
            };
            match reader.read(rest) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(source) => {
                    return Err(ParseErrorKind::Io { source }.at(1, 1));
                }
            }
        }
        let compression = Compression::sniff(magic.get(..got).unwrap_or(&[]));
        let prefix = io::Cursor::new(magic).take(got as u64);
        let whole = prefix.chain(reader);
        let reader = compression.decoder(whole).map_err(|source| {
            ParseErrorKind::Decompress {
                format: compression,
                source,
            }
            .at(1, 1)
        })?;
        Ok(Input {
            reader,
            compression,
        })
    }

    /// Whether the input was gzip-compressed.
    pub fn is_gzip(&self) -> bool {
        self.compression == Compression::Gzip
    }

    /// How the input was compressed.
    pub fn compression(&self) -> Compression {
        self.compression
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.reader.read(buf)
    }
}

/// Opens `path` for reading, `-` meaning standard input, and sniffs the compression (see
/// [`Input::sniff`]).
pub fn open_input(path: &Path) -> Result<Input, ParseError> {
    if path == Path::new("-") {
        return Input::sniff(io::stdin());
    }
    match File::open(path) {
        Ok(file) => Input::sniff(file),
        Err(source) => Err(ParseError::open(path.display().to_string(), source)),
    }
}

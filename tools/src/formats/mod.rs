//! File formats: DIMACS CNF ([`dimacs`]), WCNF in both dialects ([`wcnf`]), telling the two
//! apart ([`detect`]), and the competition output of a SAT solver ([`solution`]: `s` and `v`
//! lines) and of a MaxSAT solver ([`maxsat_output`]: `o`, `s` and a 0/1 `v` line), with one
//! typed error ([`ParseError`]).
//!
//! Every reader streams bytes through a fixed buffer (see `source.rs`): no input is ever read
//! into one `String`, and no count read from a header is trusted for an allocation. Inputs are
//! opened with [`open_input`], which takes `-` for standard input and recognises gzip by its
//! magic bytes (`1f 8b`), never by the file name: `zcat`-style pipelines and misnamed files
//! both just work.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use flate2::read::MultiGzDecoder;

mod cnf;
pub mod detect;
pub mod dimacs;
mod error;
pub mod maxsat_output;
pub mod solution;
mod source;
pub mod wcnf;

pub use cnf::Cnf;
pub use error::{ParseError, Warning};
pub use grim_encodings::sink::Wcnf;

use source::GzipFault;

/// An opened input: plain or gunzipped bytes, ready for a reader.
pub struct Input {
    reader: Box<dyn Read>,
    gzip: bool,
}

impl Input {
    /// Wraps any reader, sniffing the gzip magic bytes: a stream that starts with `1f 8b` is
    /// decompressed (all concatenated members, as `gzip -d` does), anything else is passed
    /// through unchanged.
    pub fn sniff<R: Read + 'static>(mut reader: R) -> Result<Input, ParseError> {
        let mut magic = [0u8; 2];
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
                    return Err(ParseError::Io {
                        line: 1,
                        column: 1,
                        source,
                    });
                }
            }
        }
        let prefix = io::Cursor::new(magic).take(got as u64);
        let whole = prefix.chain(reader);
        if got == 2 && magic == [0x1f, 0x8b] {
            Ok(Input {
                reader: Box::new(Gunzip(MultiGzDecoder::new(whole))),
                gzip: true,
            })
        } else {
            Ok(Input {
                reader: Box::new(whole),
                gzip: false,
            })
        }
    }

    /// Whether the input was gzip-compressed.
    pub fn is_gzip(&self) -> bool {
        self.gzip
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.reader.read(buf)
    }
}

/// Opens `path` for reading, `-` meaning standard input, and sniffs gzip (see
/// [`Input::sniff`]).
pub fn open_input(path: &Path) -> Result<Input, ParseError> {
    if path == Path::new("-") {
        return Input::sniff(io::stdin());
    }
    match File::open(path) {
        Ok(file) => Input::sniff(file),
        Err(source) => Err(ParseError::Open {
            path: path.display().to_string(),
            source,
        }),
    }
}

/// The gzip decoder with its data errors marked as such (see `GzipFault`), so that a
/// truncated `.gz` is reported as [`ParseError::Gzip`] and not as an operating-system error.
struct Gunzip<R: Read>(MultiGzDecoder<R>);

impl<R: Read> Read for Gunzip<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|e| match e.kind() {
            io::ErrorKind::InvalidInput
            | io::ErrorKind::InvalidData
            | io::ErrorKind::UnexpectedEof => io::Error::new(e.kind(), GzipFault(e)),
            _ => e,
        })
    }
}

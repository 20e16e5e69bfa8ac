//! File formats: DIMACS CNF ([`dimacs`]), WCNF in both dialects ([`wcnf`]), telling the two
//! apart ([`detect`]), and the competition output of a SAT solver ([`solution`]: `s` and `v`
//! lines) and of a MaxSAT solver ([`maxsat_output`]: `o`, `s` and a 0/1 `v` line), with one
//! typed error ([`ParseError`]).
//!
//! Every reader streams bytes through a fixed buffer (see `source.rs`): no input is ever read
//! into one `String`, and no count read from a header is trusted for an allocation. Inputs are
//! opened with [`open_input`], which takes `-` for standard input and recognises gzip, xz,
//! bzip2 and lzma by their magic bytes ([`compress`]), never by the file name: `zcat`-style
//! pipelines and misnamed files both just work.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

mod cnf;
pub mod compress;
pub mod detect;
pub mod dimacs;
mod error;
pub mod maxsat_output;
pub mod solution;
mod source;
pub mod wcnf;

pub use cnf::Cnf;
pub use compress::Compression;
pub use error::{ParseError, Warning};
pub use grim_encodings::sink::Wcnf;

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
                    return Err(ParseError::Io {
                        line: 1,
                        column: 1,
                        source,
                    });
                }
            }
        }
        let compression = Compression::sniff(magic.get(..got).unwrap_or(&[]));
        let prefix = io::Cursor::new(magic).take(got as u64);
        let whole = prefix.chain(reader);
        let reader = compression
            .decoder(whole)
            .map_err(|source| ParseError::Decompress {
                format: compression,
                line: 1,
                column: 1,
                source,
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
        Err(source) => Err(ParseError::Open {
            path: path.display().to_string(),
            source,
        }),
    }
}

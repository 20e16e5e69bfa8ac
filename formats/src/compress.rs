//! Compressed input: gzip, xz, bzip2 and lzma, recognised by their magic bytes (never by the
//! file name) and decompressed as a stream, so a `.cnf.xz` from the SAT Competition reads like
//! the plain file — same memory bound, same `FILE:LINE:COLUMN` errors (the positions are in the
//! decompressed text), and a corrupt or truncated stream is an error
//! ([`ParseErrorKind::Decompress`](crate::ParseErrorKind::Decompress)), never a shorter formula.
//!
//! # Magic bytes
//! | format | first bytes | decoder |
//! | --- | --- | --- |
//! | gzip | `1f 8b` | `flate2` (miniz_oxide, pure Rust), every concatenated member |
//! | xz | `fd 37 7a 58 5a 00` | `xz2` (C liblzma), every concatenated stream |
//! | bzip2 | `42 5a 68` (`BZh`) and a block size `1`–`9` | `bzip2` (libbz2-rs-sys, pure Rust), every stream |
//! | lzma (`.lzma`, "LZMA alone") | `5d 00 00` | `xz2` (C liblzma) |
//!
//! The legacy `.lzma` format has no magic number: its first byte encodes the literal and
//! position bits (0x5d for every preset of `xz --format=lzma` and of LZMA SDK's default), then
//! the little-endian dictionary size, whose two low bytes are 0 for every dictionary of at
//! least 64 KiB. No DIMACS or WCNF text starts with `]` (0x5d) followed by two NUL bytes.
//!
//! # Why these decoders (measured; the table is in the commit that added this file)
//! Throughput of the decompressed output on `AProVE09-24` (4.1 MB of industrial CNF) and on a
//! 52 MB random 3-SAT CNF, best of 5 and of 3, same machine and run: C liblzma decodes xz
//! 1.26× and 1.09× faster than the pure-Rust `lzma-rust2` (`lzma-rs` has no streaming reader
//! for xz, so it would hold the whole formula in memory); for bzip2 the pure-Rust port matched
//! C libbz2 on the first (12.0 MB/s both) and was 1.5× faster on the second (16.4 against
//! 10.8 MB/s), so it needs no C code. A C compiler is not needed for xz either when the system
//! has liblzma (`pkg-config`); otherwise `lzma-sys` builds its bundled copy.
//!
//! # Memory
//! bzip2 needs at most 3.6 MB whatever the input; gzip 32 KiB. An xz or lzma stream declares its
//! dictionary size in its header, up to 4 GiB: the decoders are given a memory limit of
//! [`MEMORY_LIMIT`], so a hostile header is refused with an error instead of an allocation.
//! `xz -9` (a 64 MiB dictionary) needs 65 MiB and is read.

use std::io::{self, Read};

use flate2::read::MultiGzDecoder;

/// The decoders' memory limit for xz and lzma streams: 128 MiB. `xz -9e`, the largest preset,
/// needs 65 MiB; the limit leaves room for hand-tuned dictionaries up to 96 MiB while keeping
/// `grim-sat` inside its stated bound (256 MiB plus 16 bytes per byte of text).
pub const MEMORY_LIMIT: u64 = 128 << 20;

/// How the input was compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Not compressed.
    None,
    /// gzip (`.gz`).
    Gzip,
    /// xz (`.xz`).
    Xz,
    /// bzip2 (`.bz2`).
    Bzip2,
    /// The legacy LZMA-alone format (`.lzma`).
    Lzma,
}

impl Compression {
    /// The format's name for messages (`gzip`, `xz`, `bzip2`, `lzma`; `none`).
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Xz => "xz",
            Compression::Bzip2 => "bzip2",
            Compression::Lzma => "lzma",
        }
    }

    /// How many leading bytes [`Compression::sniff`] needs to decide.
    pub const MAGIC_LEN: usize = 6;

    /// The compression the leading bytes `magic` announce (fewer than [`Self::MAGIC_LEN`]
    /// bytes: the input is that short).
    pub fn sniff(magic: &[u8]) -> Compression {
        match magic {
            [0x1f, 0x8b, ..] => Compression::Gzip,
            [0xfd, b'7', b'z', b'X', b'Z', 0x00, ..] => Compression::Xz,
            [b'B', b'Z', b'h', b'1'..=b'9', ..] => Compression::Bzip2,
            [0x5d, 0x00, 0x00, ..] => Compression::Lzma,
            _ => Compression::None,
        }
    }

    /// `reader` decompressed (unchanged for [`Compression::None`]), with the decoder's data
    /// errors marked as [`DecodeFault`]s.
    pub(crate) fn decoder<R: Read + 'static>(self, reader: R) -> io::Result<Box<dyn Read>> {
        if self == Compression::None {
            return Ok(Box::new(reader));
        }
        let reader = Raw(reader);
        Ok(match self {
            Compression::None => Box::new(reader),
            Compression::Gzip => Box::new(Marked::new(self, MultiGzDecoder::new(reader))),
            Compression::Bzip2 => {
                Box::new(Marked::new(self, bzip2::read::MultiBzDecoder::new(reader)))
            }
            Compression::Xz => {
                let stream = xz2::stream::Stream::new_stream_decoder(
                    MEMORY_LIMIT,
                    xz2::stream::CONCATENATED,
                )
                .map_err(io::Error::other)?;
                Box::new(Marked::new(
                    self,
                    xz2::read::XzDecoder::new_stream(reader, stream),
                ))
            }
            Compression::Lzma => {
                let stream = xz2::stream::Stream::new_lzma_decoder(MEMORY_LIMIT)
                    .map_err(io::Error::other)?;
                Box::new(Marked::new(
                    self,
                    xz2::read::XzDecoder::new_stream(reader, stream),
                ))
            }
        })
    }
}

/// Marks an `io::Error` as the decoder's complaint about the data (corrupt, truncated, over
/// the memory limit) rather than the operating system's, so the reader reports
/// [`ParseErrorKind::Decompress`](crate::ParseErrorKind::Decompress) with the format named.
#[derive(Debug)]
pub(crate) struct DecodeFault {
    pub(crate) format: Compression,
    pub(crate) error: io::Error,
}

impl std::fmt::Display for DecodeFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for DecodeFault {}

impl DecodeFault {
    /// The fault inside `error`, if `error` is one.
    pub(crate) fn of(error: &io::Error) -> Option<&DecodeFault> {
        error.get_ref().and_then(|inner| inner.downcast_ref())
    }
}

/// Marks the errors of the reader *under* a decoder as the operating system's, so that
/// [`Marked`] can tell them from the decoder's own.
#[derive(Debug)]
struct OsFault(io::Error);

impl std::fmt::Display for OsFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for OsFault {}

/// The compressed bytes, with their read errors marked as [`OsFault`]s.
struct Raw<R>(R);

impl<R: Read> Read for Raw<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|e| match e.kind() {
            io::ErrorKind::Interrupted => e,
            kind => io::Error::new(kind, OsFault(e)),
        })
    }
}

/// A decoder whose errors are marked: an error that came up from [`Raw`] is the operating
/// system's and is passed on as it was; every other error (corrupt data, a truncated stream,
/// a header over the memory limit) is the data's, and becomes a [`DecodeFault`].
struct Marked<R> {
    format: Compression,
    inner: R,
}

impl<R> Marked<R> {
    fn new(format: Compression, inner: R) -> Marked<R> {
        Marked { format, inner }
    }
}

impl<R: Read> Read for Marked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            let kind = e.kind();
            if kind == io::ErrorKind::Interrupted {
                return e;
            }
            if e.get_ref().is_some_and(|inner| inner.is::<OsFault>()) {
                return match e.into_inner().map(|inner| inner.downcast::<OsFault>()) {
                    Some(Ok(os)) => os.0,
                    // Unreachable after the check above; keep the error rather than lose it.
                    Some(Err(other)) => io::Error::new(kind, other),
                    None => io::Error::from(kind),
                };
            }
            io::Error::new(
                kind,
                DecodeFault {
                    format: self.format,
                    error: e,
                },
            )
        })
    }
}

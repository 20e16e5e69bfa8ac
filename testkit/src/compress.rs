//! Compressed test inputs: the four formats `grim-formats` sniffs (gzip, xz, bzip2, lzma),
//! written by the reference encoders (flate2, liblzma, bzip2), never by our readers' crate.
//!
//! Every encoder takes a `level` from 1 (fast) to 9 (best), the `-1`…`-9` of the command-line
//! tools. The readers' tests use [`DEFAULT`], what `gzip file.cnf` or `xz file.cnf` store; the
//! hostile-input matrix keeps [`FAST`], as it always had: it packs 100 MB of text, and the
//! memory cap it runs under was sized with level-1 dictionaries (xz `-1` uses 1 MiB, `-6`
//! 8 MiB).

use std::io::Write;

/// The level the command-line tools use unless told otherwise (gzip and xz `-6`).
pub const DEFAULT: u32 = 6;

/// The fastest level (`-1`): a small dictionary, for large inputs.
pub const FAST: u32 = 1;

/// `data` gzip-compressed at `level`.
pub fn gzip(data: &[u8], level: u32) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
    e.write_all(data).expect("gzip into a Vec");
    e.finish().expect("gzip into a Vec")
}

/// `data` xz-compressed at preset `level`.
pub fn xz(data: &[u8], level: u32) -> Vec<u8> {
    let mut e = xz2::write::XzEncoder::new(Vec::new(), level);
    e.write_all(data).expect("xz into a Vec");
    e.finish().expect("xz into a Vec")
}

/// `data` bzip2-compressed with `level` × 100 kB blocks.
pub fn bzip2(data: &[u8], level: u32) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::new(level));
    e.write_all(data).expect("bzip2 into a Vec");
    e.finish().expect("bzip2 into a Vec")
}

/// `data` in the legacy `.lzma` format (LZMA-alone) at preset `level`.
pub fn lzma(data: &[u8], level: u32) -> Vec<u8> {
    let options = xz2::stream::LzmaOptions::new_preset(level).expect("an lzma preset");
    let stream = xz2::stream::Stream::new_lzma_encoder(&options).expect("an lzma encoder");
    xz_stream(data, stream)
}

/// `data` as an xz stream whose header asks for a `dict_size`-byte dictionary (preset
/// `level` otherwise): the decoder must allocate the dictionary before it reads a byte, which
/// is what the readers' memory limit is tested with (1 GiB refused, 64 MiB read).
pub fn xz_with_dictionary(data: &[u8], level: u32, dict_size: u32) -> Vec<u8> {
    let mut options = xz2::stream::LzmaOptions::new_preset(level).expect("an xz preset");
    options.dict_size(dict_size);
    let mut filters = xz2::stream::Filters::new();
    filters.lzma2(&options);
    let stream = xz2::stream::Stream::new_stream_encoder(&filters, xz2::stream::Check::Crc64)
        .expect("an xz encoder");
    xz_stream(data, stream)
}

fn xz_stream(data: &[u8], stream: xz2::stream::Stream) -> Vec<u8> {
    let mut e = xz2::write::XzEncoder::new_stream(Vec::new(), stream);
    e.write_all(data).expect("xz into a Vec");
    e.finish().expect("xz into a Vec")
}

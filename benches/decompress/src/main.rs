//! Decompression throughput: MB/s of decompressed output, each decoder as a `Read` over the
//! compressed bytes in memory, read through a 64 KiB buffer (how grim's reader pulls).
use std::io::Read;
use std::time::Instant;

fn drain(mut r: impl Read) -> u64 {
    let mut buf = vec![0u8; 1 << 16];
    let mut n = 0u64;
    loop {
        match r.read(&mut buf) {
            Ok(0) => return n,
            Ok(k) => n += k as u64,
            Err(e) => panic!("{e}"),
        }
    }
}

fn time(name: &str, plain: u64, reps: usize, f: &dyn Fn() -> u64) {
    let mut best = f64::MAX;
    for _ in 0..reps {
        let t = Instant::now();
        let n = f();
        let s = t.elapsed().as_secs_f64();
        assert_eq!(n, plain, "{name}");
        best = best.min(s);
    }
    println!(
        "{name:<34} {:>8.1} MB/s  (best of {reps}: {best:.3} s)",
        plain as f64 / 1e6 / best
    );
}

fn main() {
    let base = std::env::args().nth(1).expect("base path");
    if std::env::args().nth(2).as_deref() == Some("trunc") {
        truncation(&base);
        return;
    }
    let reps: usize = std::env::args().nth(2).map_or(3, |s| s.parse().unwrap());
    let plain = std::fs::metadata(&base).unwrap().len();
    let gz = std::fs::read(format!("{base}.gz")).unwrap();
    let xz = std::fs::read(format!("{base}.xz")).unwrap();
    let bz = std::fs::read(format!("{base}.bz2")).unwrap();
    let lz = std::fs::read(format!("{base}.lzma")).unwrap();
    println!(
        "{base}: {plain} bytes; gz {} xz {} bz2 {} lzma {}",
        gz.len(),
        xz.len(),
        bz.len(),
        lz.len()
    );
    time("gzip  flate2 (miniz_oxide)", plain, reps, &|| {
        drain(flate2::read::MultiGzDecoder::new(&gz[..]))
    });
    time("xz    xz2 (C liblzma)", plain, reps, &|| {
        drain(xz2::read::XzDecoder::new_multi_decoder(&xz[..]))
    });
    time("xz    lzma-rust2 (Rust)", plain, reps, &|| {
        drain(lzma_rust2::XzReader::new(&xz[..], true))
    });
    time("xz    lzma-rs (Rust, whole-buffer)", plain, reps, &|| {
        let mut out = Vec::new();
        lzma_rs::xz_decompress(&mut &xz[..], &mut out).unwrap();
        out.len() as u64
    });
    time("lzma  xz2 (C liblzma)", plain, reps, &|| {
        drain(xz2::read::XzDecoder::new_stream(
            &lz[..],
            xz2::stream::Stream::new_lzma_decoder(u64::MAX).unwrap(),
        ))
    });
    time("lzma  lzma-rust2 (Rust)", plain, reps, &|| {
        drain(lzma_rust2::LzmaReader::new_mem_limit(&lz[..], u32::MAX, None).unwrap())
    });
    time("bz2   bzip2 0.4 (C libbz2)", plain, reps, &|| {
        drain(bzip2c::read::MultiBzDecoder::new(&bz[..]))
    });
    time("bz2   bzip2 0.6 (libbz2-rs-sys)", plain, reps, &|| {
        drain(bzip2rs::read::MultiBzDecoder::new(&bz[..]))
    });
}

#[allow(dead_code)]
pub fn truncation(base: &str) {
    let xz = std::fs::read(format!("{base}.xz")).unwrap();
    let bz = std::fs::read(format!("{base}.bz2")).unwrap();
    let lz = std::fs::read(format!("{base}.lzma")).unwrap();
    fn check(name: &str, data: &[u8], f: &dyn Fn(&[u8]) -> Result<u64, std::io::Error>) {
        for cut in [data.len() - 1, data.len() - 12, data.len() / 2, 20, 7] {
            let r = f(&data[..cut]);
            println!(
                "{name:<34} cut {cut:>8}: {}",
                match r {
                    Ok(n) => format!("OK {n} bytes (SILENT)"),
                    Err(e) => format!("error: {e}"),
                }
            );
        }
    }
    fn dr(mut r: impl Read) -> Result<u64, std::io::Error> {
        std::io::copy(&mut r, &mut std::io::sink())
    }
    check("xz2 xz", &xz, &|d| {
        dr(xz2::read::XzDecoder::new_multi_decoder(d))
    });
    check("lzma-rust2 xz", &xz, &|d| {
        dr(lzma_rust2::XzReader::new(d, true))
    });
    check("xz2 lzma", &lz, &|d| {
        dr(xz2::read::XzDecoder::new_stream(
            d,
            xz2::stream::Stream::new_lzma_decoder(u64::MAX).unwrap(),
        ))
    });
    check("lzma-rust2 lzma", &lz, &|d| {
        dr(lzma_rust2::LzmaReader::new_mem_limit(d, u32::MAX, None)?)
    });
    check("bzip2 0.4 C", &bz, &|d| {
        dr(bzip2c::read::MultiBzDecoder::new(d))
    });
    check("bzip2 0.6 rs", &bz, &|d| {
        dr(bzip2rs::read::MultiBzDecoder::new(d))
    });
}

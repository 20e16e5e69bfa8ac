//! `lrat-check FORMULA.cnf PROOF`: checks a text or binary LRAT proof of `FORMULA` with the
//! test kit's checker (`grim_testkit::lrat`, written from the format's definition, independent
//! of the engine). Prints `s VERIFIED` and exits 0, or `s NOT VERIFIED` with the first fault
//! and exits 1; exit 2 for unreadable input. `benches/proof-check.sh` runs it on every LRAT
//! proof of the SAT regression suite.
//!
//! The formula may be gzip-compressed (recognised by its magic bytes).

use std::io::Read;
use std::process::ExitCode;

fn read(path: &str) -> Result<Vec<u8>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .read_to_end(&mut out)
            .map_err(|e| format!("{path}: {e}"))?;
        return Ok(out);
    }
    Ok(bytes)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, cnf, proof] = args.as_slice() else {
        eprintln!("usage: lrat-check FORMULA.cnf PROOF");
        return ExitCode::from(2);
    };
    let inputs = read(cnf).and_then(|c| {
        let text = String::from_utf8(c).map_err(|e| format!("{cnf}: {e}"))?;
        let formula = grim_testkit::lrat::parse_cnf(&text).map_err(|e| format!("{cnf}: {e}"))?;
        Ok((formula, read(proof)?))
    });
    let (formula, proof) = match inputs {
        Ok(x) => x,
        Err(e) => {
            eprintln!("lrat-check: {e}");
            return ExitCode::from(2);
        }
    };
    match grim_testkit::lrat::check_lrat(&formula, &proof) {
        Ok(s) => {
            println!(
                "c {} clauses added ({} by RAT), {} deleted",
                s.added, s.rat, s.deleted
            );
            println!("s VERIFIED");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("c {e}");
            println!("s NOT VERIFIED");
            ExitCode::from(1)
        }
    }
}

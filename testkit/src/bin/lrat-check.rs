//! `lrat-check FORMULA.cnf PROOF`: checks a text or binary LRAT proof of `FORMULA` with the
//! test kit's checker (`grim_testkit::lrat`, written from the format's definition, independent
//! of the engine). Prints `s VERIFIED` and exits 0, or `s NOT VERIFIED` with the first fault
//! and exits 1; exit 2 for unreadable input. `benches/proof-check.sh` runs it on every LRAT
//! proof of the SAT regression suite.
//!
//! The formula may be gzip-compressed (recognised by its magic bytes).

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, cnf, proof] = args.as_slice() else {
        eprintln!("usage: lrat-check FORMULA.cnf PROOF");
        return ExitCode::from(2);
    };
    let inputs = grim_testkit::lrat::read_cnf(Path::new(cnf)).and_then(|f| {
        Ok((
            f,
            std::fs::read(proof).map_err(|e| format!("{proof}: {e}"))?,
        ))
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

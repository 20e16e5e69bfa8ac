//! grim-gen: writes a generated instance to standard output: CNF families as DIMACS, MaxSAT
//! families as WCNF (the headerless 2022+ format).
//!
//! One subcommand per family of `grim_tools::generate` (its `Family`: a file and a parameter
//! struct per family); the first `c` line names the generator
//! and its parameters, so any file can be regenerated from its own header. Deterministic: the
//! same arguments give the same bytes on every machine.
//!
//! ```text
//! grim-gen ksat --vars 100 --clauses 426 --k 3 --seed 1 > r.cnf
//! grim-gen ksat --vars 250 --ratio 4.26 --seed 1 > uf250.cnf
//! grim-gen php --holes 7 > php7.cnf
//! grim-gen maxcut --vertices 60 --edge-probability 0.1 --seed 2 > cut.wcnf
//! grim-gen lex --vars 80 --clauses 600 --levels 4 --seed 3 > lex.wcnf
//! ```
//! Exit status: 0 on success (also when the reader closes the pipe early), 2 on bad arguments
//! (clap's convention), 1 when the parameters are refused or writing fails.
#![forbid(unsafe_code)]

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::Parser;
use grim_tools::generate::Family;

#[derive(Parser, Debug)]
#[command(
    name = "grim-gen",
    version,
    about = "Generate seeded, deterministic CNF (DIMACS) and MaxSAT (WCNF) instances on standard output"
)]
struct Cli {
    #[command(subcommand)]
    family: Family,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let instance = match cli.family.generate() {
        Ok(instance) => instance,
        Err(e) => {
            eprintln!("grim-gen: {e}");
            return ExitCode::from(1);
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match instance.write(&mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stopped early (`grim-gen … | head`) is not an error of ours.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("grim-gen: cannot write to standard output: {e}");
            ExitCode::from(1)
        }
    }
}

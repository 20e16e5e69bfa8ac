//! `cargo run --release -p grim-formats --example read_cnf -- MODE FILE`: the CPU cost of
//! grim-sat's input path in parts (issue 40), to time with `/usr/bin/time`.
//!
//! MODE `parse`: the streaming reader alone (every clause read into one reused buffer);
//! `load`: the reader and the engine's `add_clause` for every clause (`check_model` on, as in
//! grim-sat), no search. Prints the counts so that the work cannot be optimised away.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use grim_formats::dimacs::{ParseOptions, Parser};
use grim_formats::open_input;
use grim_solver::{Options, Solver};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(mode), Some(path)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: read_cnf parse|load FILE");
        return ExitCode::from(2);
    };
    let start = Instant::now();
    let input = match open_input(Path::new(path)) {
        Ok(input) => input,
        Err(e) => {
            eprintln!("{}", e.with_path(path));
            return ExitCode::from(3);
        }
    };
    let mut parser = match Parser::new(input, ParseOptions::default()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{}", e.with_path(path));
            return ExitCode::from(3);
        }
    };
    let mut solver = (mode == "load").then(|| {
        Solver::with_options(Options {
            check_model: true,
            ..Options::default()
        })
    });
    let mut clause = Vec::new();
    let (mut clauses, mut lits) = (0u64, 0u64);
    loop {
        match parser.next_clause(&mut clause) {
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(e) => {
                eprintln!("{}", e.with_path(path));
                return ExitCode::from(3);
            }
        }
        clauses += 1;
        lits += clause.len() as u64;
        if let Some(solver) = solver.as_mut() {
            solver.add_clause(&clause);
        }
    }
    println!(
        "{mode}: {} variables, {clauses} clauses, {lits} literals in {:.2} s (wall)",
        parser.num_vars(),
        start.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

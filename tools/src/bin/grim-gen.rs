//! grim-gen: writes a generated CNF instance to standard output as DIMACS.
//!
//! One subcommand per family of `grim_tools::generate`; the first `c` line names the generator
//! and its parameters, so any file can be regenerated from its own header. Deterministic: the
//! same arguments give the same bytes on every machine.
//!
//! ```text
//! grim-gen ksat --vars 100 --clauses 426 --k 3 --seed 1 > r.cnf
//! grim-gen php --holes 7 > php7.cnf
//! ```
//! Exit status: 0 on success (also when the reader closes the pipe early), 2 on bad arguments
//! (clap's convention), 1 when the parameters are refused or writing fails.
#![forbid(unsafe_code)]

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use grim_tools::generate::{self, GenCnf, GenError};

#[derive(Parser, Debug)]
#[command(
    name = "grim-gen",
    version,
    about = "Generate seeded, deterministic CNF instances as DIMACS on standard output"
)]
struct Cli {
    #[command(subcommand)]
    family: Family,
}

#[derive(Subcommand, Debug)]
enum Family {
    /// Uniform random k-SAT (answer unknown; 3-SAT threshold near clauses/vars = 4.26).
    Ksat {
        /// Number of variables.
        #[arg(long)]
        vars: u64,
        /// Number of clauses.
        #[arg(long)]
        clauses: u64,
        /// Literals per clause (distinct variables).
        #[arg(long, default_value_t = 3)]
        k: u32,
        /// Seed of the generator's random stream.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Pigeonhole principle: H+1 pigeons in H holes (UNSAT).
    Php {
        /// Number of holes.
        #[arg(long)]
        holes: u32,
    },
    /// Tseitin parity on a random connected graph (UNSAT with --unsat, SAT otherwise).
    Parity {
        /// Number of vertices.
        #[arg(long)]
        vertices: u32,
        /// Number of edges (= variables); at least vertices-1.
        #[arg(long)]
        edges: u64,
        /// Largest vertex degree (each vertex costs 2^(degree-1) clauses).
        #[arg(long, default_value_t = 4)]
        max_degree: u32,
        /// Make the total charge odd, so the formula is unsatisfiable.
        #[arg(long)]
        unsat: bool,
        /// Seed of the generator's random stream.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Graph colouring of a random graph G(n, p) (SAT with --planted, else unknown).
    Color {
        /// Number of vertices.
        #[arg(long)]
        vertices: u32,
        /// Number of colours.
        #[arg(long)]
        colors: u32,
        /// Probability of each edge, in [0, 1].
        #[arg(long)]
        edge_probability: f64,
        /// Hide a colouring first and only draw edges it allows (guarantees SAT).
        #[arg(long)]
        planted: bool,
        /// Seed of the generator's random stream.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Ordering principle GT_n: a total order on n elements without a minimum (UNSAT).
    Ordering {
        /// Number of elements.
        #[arg(long)]
        n: u32,
    },
    /// n-queens (SAT except n = 2, 3).
    Queens {
        /// Board size and number of queens.
        #[arg(long)]
        n: u32,
    },
    /// Latin square completion with givens from a planted square (SAT).
    Latin {
        /// Side of the square and number of symbols.
        #[arg(long)]
        order: u32,
        /// Fraction of cells given, in [0, 1].
        #[arg(long, default_value_t = 0.4)]
        givens: f64,
        /// Seed of the generator's random stream.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
}

fn generate(family: &Family) -> Result<GenCnf, GenError> {
    match *family {
        Family::Ksat {
            vars,
            clauses,
            k,
            seed,
        } => generate::random_ksat(vars, clauses, k, seed),
        Family::Php { holes } => generate::pigeonhole(holes),
        Family::Parity {
            vertices,
            edges,
            max_degree,
            unsat,
            seed,
        } => generate::tseitin_parity(vertices, edges, max_degree, !unsat, seed),
        Family::Color {
            vertices,
            colors,
            edge_probability,
            planted,
            seed,
        } => generate::graph_colouring(vertices, colors, edge_probability, planted, seed),
        Family::Ordering { n } => generate::ordering(n),
        Family::Queens { n } => generate::queens(n),
        Family::Latin {
            order,
            givens,
            seed,
        } => generate::latin_square(order, givens, seed),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let cnf = match generate(&cli.family) {
        Ok(cnf) => cnf,
        Err(e) => {
            eprintln!("grim-gen: {e}");
            return ExitCode::from(1);
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match cnf.write_dimacs(&mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stopped early (`grim-gen … | head`) is not an error of ours.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("grim-gen: cannot write to standard output: {e}");
            ExitCode::from(1)
        }
    }
}

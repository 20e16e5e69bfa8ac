//! grim-gen: writes a generated instance to standard output: CNF families as DIMACS, MaxSAT
//! families as WCNF (the headerless 2022+ format).
//!
//! One subcommand per family of `grim_tools::generate`; the first `c` line names the generator
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

use clap::{Parser, Subcommand};
use grim_tools::generate::{self, GenCnf, GenError, GenWcnf};

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

#[derive(Subcommand, Debug)]
enum Family {
    /// Uniform random k-SAT (answer unknown; 3-SAT threshold near clauses/vars = 4.26).
    /// Give the size as --clauses N or --ratio R, exactly one of them.
    #[command(group = clap::ArgGroup::new("size").required(true).multiple(false))]
    Ksat {
        /// Number of variables.
        #[arg(long)]
        vars: u64,
        /// Number of clauses (or --ratio).
        #[arg(long, group = "size")]
        clauses: Option<u64>,
        /// Clauses per variable instead of --clauses (round(ratio x vars) clauses).
        #[arg(long, group = "size")]
        ratio: Option<f64>,
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
    /// Random weighted partial MaxSAT: hard clauses satisfied by a planted assignment, random
    /// weighted soft clauses (WCNF).
    Maxsat {
        /// Number of variables.
        #[arg(long)]
        vars: u64,
        /// Number of hard clauses.
        #[arg(long)]
        hard: u64,
        /// Literals per hard clause.
        #[arg(long, default_value_t = 3)]
        hard_k: u32,
        /// Number of soft clauses.
        #[arg(long)]
        soft: u64,
        /// Largest soft clause width (each drawn from 1..=soft-k).
        #[arg(long, default_value_t = 2)]
        soft_k: u32,
        /// Soft weights are drawn from 1..=max-weight (1: unweighted).
        #[arg(long, default_value_t = 1)]
        max_weight: u64,
        /// Seed of the generator's random stream.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Minimum-weight vertex cover of a random graph (WCNF).
    VertexCover {
        /// Number of vertices.
        #[arg(long)]
        vertices: u64,
        /// Number of distinct edges.
        #[arg(long)]
        edges: u64,
        /// Vertex weights are drawn from 1..=max-weight.
        #[arg(long, default_value_t = 1)]
        max_weight: u64,
        /// Seed of the generator's random stream.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Weighted max-cut of G(n, p): two soft clauses per edge, no hard clauses (WCNF).
    Maxcut {
        /// Number of vertices.
        #[arg(long)]
        vertices: u64,
        /// Probability of each edge, in [0, 1].
        #[arg(long)]
        edge_probability: f64,
        /// Edge weights are drawn from 1..=max-weight (1: unweighted max-cut).
        #[arg(long, default_value_t = 1)]
        max_weight: u64,
        /// Seed of the generator's random stream.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Maximum-weight independent set of G(n, p): hard edges, soft weighted units (WCNF).
    Wis {
        /// Number of vertices.
        #[arg(long)]
        vertices: u64,
        /// Probability of each edge, in [0, 1].
        #[arg(long)]
        edge_probability: f64,
        /// Vertex weights are drawn from 1..=max-weight.
        #[arg(long, default_value_t = 100)]
        max_weight: u64,
        /// Seed of the generator's random stream.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Minimum-weight set cover: each element in K random sets (WCNF).
    SetCover {
        /// Number of elements (hard clauses).
        #[arg(long)]
        elements: u64,
        /// Number of sets (variables).
        #[arg(long)]
        sets: u64,
        /// Sets containing each element.
        #[arg(long, default_value_t = 3)]
        per_element: u32,
        /// Set weights are drawn from 1..=max-weight.
        #[arg(long, default_value_t = 50)]
        max_weight: u64,
        /// Seed of the generator's random stream.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Random Max-3-SAT with lexicographic weights: each level outweighs all below it (WCNF).
    Lex {
        /// Number of variables.
        #[arg(long)]
        vars: u64,
        /// Number of soft 3-clauses.
        #[arg(long)]
        clauses: u64,
        /// Number of levels (1..=63).
        #[arg(long, default_value_t = 3)]
        levels: u32,
        /// Seed of the generator's random stream.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
}

/// A generated instance of either kind.
enum Generated {
    Cnf(GenCnf),
    Wcnf(GenWcnf),
}

fn generate(family: &Family) -> Result<Generated, GenError> {
    use Generated::{Cnf, Wcnf};
    Ok(match *family {
        Family::Ksat {
            vars,
            clauses,
            ratio,
            k,
            seed,
        } => Cnf(match (clauses, ratio) {
            (_, Some(ratio)) => generate::random_ksat_ratio(vars, ratio, k, seed)?,
            (clauses, None) => generate::random_ksat(vars, clauses.unwrap_or(0), k, seed)?,
        }),
        Family::Php { holes } => Cnf(generate::pigeonhole(holes)?),
        Family::Parity {
            vertices,
            edges,
            max_degree,
            unsat,
            seed,
        } => Cnf(generate::tseitin_parity(
            vertices, edges, max_degree, !unsat, seed,
        )?),
        Family::Color {
            vertices,
            colors,
            edge_probability,
            planted,
            seed,
        } => Cnf(generate::graph_colouring(
            vertices,
            colors,
            edge_probability,
            planted,
            seed,
        )?),
        Family::Ordering { n } => Cnf(generate::ordering(n)?),
        Family::Queens { n } => Cnf(generate::queens(n)?),
        Family::Latin {
            order,
            givens,
            seed,
        } => Cnf(generate::latin_square(order, givens, seed)?),
        Family::Maxsat {
            vars,
            hard,
            hard_k,
            soft,
            soft_k,
            max_weight,
            seed,
        } => Wcnf(generate::random_maxsat(
            vars, hard, hard_k, soft, soft_k, max_weight, seed,
        )?),
        Family::VertexCover {
            vertices,
            edges,
            max_weight,
            seed,
        } => Wcnf(generate::vertex_cover(vertices, edges, max_weight, seed)?),
        Family::Maxcut {
            vertices,
            edge_probability,
            max_weight,
            seed,
        } => Wcnf(generate::max_cut(
            vertices,
            edge_probability,
            max_weight,
            seed,
        )?),
        Family::Wis {
            vertices,
            edge_probability,
            max_weight,
            seed,
        } => Wcnf(generate::independent_set(
            vertices,
            edge_probability,
            max_weight,
            seed,
        )?),
        Family::SetCover {
            elements,
            sets,
            per_element,
            max_weight,
            seed,
        } => Wcnf(generate::set_cover(
            elements,
            sets,
            per_element,
            max_weight,
            seed,
        )?),
        Family::Lex {
            vars,
            clauses,
            levels,
            seed,
        } => Wcnf(generate::lexicographic(vars, clauses, levels, seed)?),
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let instance = match generate(&cli.family) {
        Ok(instance) => instance,
        Err(e) => {
            eprintln!("grim-gen: {e}");
            return ExitCode::from(1);
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let written = match &instance {
        Generated::Cnf(cnf) => cnf.write_dimacs(&mut out),
        Generated::Wcnf(wcnf) => wcnf.write_wcnf(&mut out),
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stopped early (`grim-gen … | head`) is not an error of ours.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("grim-gen: cannot write to standard output: {e}");
            ExitCode::from(1)
        }
    }
}

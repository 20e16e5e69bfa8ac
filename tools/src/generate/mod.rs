//! Seeded, deterministic instance generators: the families the corpus in `instances/` and the
//! differential tests are built from.
//!
//! Every generator is a pure function of its parameters (and its `seed`, where it has one): the
//! same call gives the same clauses, in the same order, on every machine. The randomness is
//! the SplitMix64 stream of `grim_formula::rng` (Steele, Lea & Flood, "Fast splittable
//! pseudorandom number generators", OOPSLA 2014, DOI 10.1145/2660193.2660195) rather than the
//! `rand` crate, because a corpus regenerated next year must be byte-identical and `rand`'s
//! streams are not a stable promise across its major versions.
//!
//! One file per family, each a parameter struct — a `clap::Args` whose fields are
//! `grim-gen`'s flags, so the command line and the library cannot drift apart — with a
//! `generate()` method. [`Family`] lists them as `grim-gen`'s subcommands; [`cnf`] and [`wcnf`]
//! generate from a `grim-gen` command line (`cnf("php --holes 6")`), the way tests and
//! benchmarks name their instances. A CNF family returns
//! a [`GenCnf`]: the clauses as DIMACS integers, a one-line description of the generator and
//! its parameters, and the answer when the construction fixes it ([`Expected`]). The writer
//! here is deliberately self-contained (not `formats::dimacs`): the generator is one of the
//! things the reader is tested against, so it must not share its code.
//!
//! | family | file | struct (`grim-gen` subcommand) | answer by construction |
//! | --- | --- | --- | --- |
//! | random k-SAT (by clauses or ratio) | `ksat.rs` | [`Ksat`] (`ksat`) | unknown (threshold ≈ 4.26·n for k = 3) |
//! | pigeonhole PHP(h+1, h) | `php.rs` | [`Pigeonhole`] (`php`) | UNSAT |
//! | Tseitin parity on a random graph | `parity.rs` | [`Parity`] (`parity`) | UNSAT iff the total charge is odd |
//! | graph colouring | `colouring.rs` | [`Colouring`] (`color`) | SAT when planted, else unknown |
//! | ordering principle GT_n | `ordering.rs` | [`Ordering`] (`ordering`) | UNSAT for n ≥ 1 |
//! | n-queens | `queens.rs` | [`Queens`] (`queens`) | SAT except n = 2, 3 |
//! | Latin square completion | `latin.rs` | [`Latin`] (`latin`) | SAT (the givens come from a planted square) |
//!
//! Weighted (MaxSAT) families return a [`GenWcnf`] instead:
//!
//! | family | file | struct (`grim-gen` subcommand) | hard clauses |
//! | --- | --- | --- | --- |
//! | random weighted partial MaxSAT | `maxsat.rs` | [`RandomMaxSat`] (`maxsat`) | satisfiable (a planted assignment) |
//! | minimum-weight vertex cover | `vertex_cover.rs` | [`VertexCover`] (`vertex-cover`) | satisfiable (every vertex) |
//! | weighted max-cut | `max_cut.rs` | [`MaxCut`] (`maxcut`) | none (all soft) |
//! | maximum-weight independent set | `independent_set.rs` | [`IndependentSet`] (`wis`) | satisfiable (the empty set) |
//! | minimum-weight set cover | `set_cover.rs` | [`SetCover`] (`set-cover`) | satisfiable (every set) |
//! | lexicographic (BMO) weights | `lex.rs` | [`Lexicographic`] (`lex`) | none (all soft) |
//!
//! This file holds what the families share: the result types and their writers, the errors,
//! the size limits and checks, and the random graphs and weights of the graph families. The
//! pigeonhole's clauses are [`grim_formula::families::pigeonhole`], the one copy the tests of
//! every crate use as well (the test kit cannot reach this crate: it is a dev-dependency of
//! it).

use std::fmt;
use std::io::{self, Write};

/// The generators' stream, shared with the grid preferences (see `grim_formula::rng`).
pub use grim_formula::rng::SplitMix64;

mod colouring;
mod independent_set;
mod ksat;
mod latin;
mod lex;
mod max_cut;
mod maxsat;
mod ordering;
mod parity;
mod php;
mod queens;
mod set_cover;
#[cfg(test)]
mod tests;
mod vertex_cover;

pub use colouring::Colouring;
pub use independent_set::IndependentSet;
pub use ksat::Ksat;
pub use latin::Latin;
pub use lex::Lexicographic;
pub use max_cut::MaxCut;
pub use maxsat::RandomMaxSat;
pub use ordering::Ordering;
pub use parity::Parity;
pub use php::Pigeonhole;
pub use queens::Queens;
pub use set_cover::SetCover;
pub use vertex_cover::VertexCover;

/// Declares the families: `grim-gen`'s subcommands (each variant's doc is its one-line help,
/// its struct its flags) and which kind of instance each generates.
macro_rules! families {
    ($( $(#[doc = $doc:literal])* $variant:ident($ty:ty) => $kind:ident, )*) => {
        /// The families as `grim-gen`'s subcommands (each variant's doc is its one-line help).
        #[derive(clap::Subcommand, Clone, Debug, PartialEq)]
        pub enum Family {
            $( $(#[doc = $doc])* $variant($ty), )*
        }

        impl Family {
            /// The family's instance.
            pub fn generate(&self) -> Result<Generated, GenError> {
                Ok(match self {
                    $( Family::$variant(g) => Generated::$kind(g.generate()?), )*
                })
            }
        }
    };
}

families! {
    /// Uniform random k-SAT (answer unknown; 3-SAT threshold near clauses/vars = 4.26).
    /// Give the size as --clauses N or --ratio R, exactly one of them.
    Ksat(Ksat) => Cnf,
    /// Pigeonhole principle: H+1 pigeons in H holes (UNSAT).
    Php(Pigeonhole) => Cnf,
    /// Tseitin parity on a random connected graph (UNSAT with --unsat, SAT otherwise).
    Parity(Parity) => Cnf,
    /// Graph colouring of a random graph G(n, p) (SAT with --planted, else unknown).
    Color(Colouring) => Cnf,
    /// Ordering principle GT_n: a total order on n elements without a minimum (UNSAT).
    Ordering(Ordering) => Cnf,
    /// n-queens (SAT except n = 2, 3).
    Queens(Queens) => Cnf,
    /// Latin square completion with givens from a planted square (SAT).
    Latin(Latin) => Cnf,
    /// Random weighted partial MaxSAT: hard clauses satisfied by a planted assignment, random
    /// weighted soft clauses (WCNF).
    Maxsat(RandomMaxSat) => Wcnf,
    /// Minimum-weight vertex cover of a random graph (WCNF).
    VertexCover(VertexCover) => Wcnf,
    /// Weighted max-cut of G(n, p): two soft clauses per edge, no hard clauses (WCNF).
    Maxcut(MaxCut) => Wcnf,
    /// Maximum-weight independent set of G(n, p): hard edges, soft weighted units (WCNF).
    Wis(IndependentSet) => Wcnf,
    /// Minimum-weight set cover: each element in K random sets (WCNF).
    SetCover(SetCover) => Wcnf,
    /// Random Max-3-SAT with lexicographic weights: each level outweighs all below it (WCNF).
    Lex(Lexicographic) => Wcnf,
}

/// `grim-gen`'s command line, for [`Family::parse`].
#[derive(clap::Parser, Debug)]
#[command(name = "grim-gen", no_binary_name = true)]
struct Command {
    #[command(subcommand)]
    family: Family,
}

impl Family {
    /// The family and parameters of the `grim-gen` command line `line` (the arguments after
    /// the program name, split at white space): `Family::parse("php --holes 6")`. Tests and
    /// benchmarks name their instances this way, in the words a user would type to get the
    /// same file. Errors: [`GenError::Command`] with clap's message.
    pub fn parse(line: &str) -> Result<Family, GenError> {
        use clap::Parser as _;
        Command::try_parse_from(line.split_whitespace())
            .map(|c| c.family)
            .map_err(|e| GenError::Command(e.to_string()))
    }
}

/// The CNF `grim-gen LINE` writes (see [`Family::parse`]); [`GenError::Command`] for a line
/// `grim-gen` would refuse or one that names a weighted family.
pub fn cnf(line: &str) -> Result<GenCnf, GenError> {
    match Family::parse(line)?.generate()? {
        Generated::Cnf(f) => Ok(f),
        Generated::Wcnf(_) => Err(GenError::Command(format!(
            "`{line}` is a weighted family (WCNF)"
        ))),
    }
}

/// The WCNF `grim-gen LINE` writes (see [`Family::parse`]); [`GenError::Command`] for a line
/// `grim-gen` would refuse or one that names a CNF family.
pub fn wcnf(line: &str) -> Result<GenWcnf, GenError> {
    match Family::parse(line)?.generate()? {
        Generated::Wcnf(f) => Ok(f),
        Generated::Cnf(_) => Err(GenError::Command(format!("`{line}` is a CNF family"))),
    }
}

/// A generated instance of either kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Generated {
    /// From a CNF family.
    Cnf(GenCnf),
    /// From a weighted family.
    Wcnf(GenWcnf),
}

impl Generated {
    /// Writes the instance: DIMACS CNF ([`GenCnf::write_dimacs`]) or headerless WCNF
    /// ([`GenWcnf::write_wcnf`]).
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Generated::Cnf(cnf) => cnf.write_dimacs(out),
            Generated::Wcnf(wcnf) => wcnf.write_wcnf(out),
        }
    }
}

/// The most variables a generated formula may have: the engine's limit (`Var::MAX_INDEX + 1`).
pub const MAX_VARS: u64 = (1 << 31) - 1;

/// The most literals a generated formula may hold in memory (2^25 ≈ 33.5 M, about 270 MB of
/// `i64` plus per-clause overhead). An assumption, not a measurement: large enough for any
/// instance the corpus or a benchmark wants, small enough that a mistyped `--clauses` fails
/// with a message instead of exhausting memory.
pub const MAX_LITERALS: u64 = 1 << 25;

/// The largest vertex degree [`Parity`] accepts: a parity constraint over `d` edges
/// takes 2^(d-1) clauses, so degree 12 already costs 2048 clauses per vertex.
pub const MAX_PARITY_DEGREE: u32 = 12;

/// What the construction proves about a generated formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// Satisfiable by construction (a model is planted or known).
    Sat,
    /// Unsatisfiable by construction (a known theorem).
    Unsat,
    /// The construction does not decide it (random k-SAT, unplanted colouring).
    Unknown,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expected::Sat => "SAT",
            Expected::Unsat => "UNSAT",
            Expected::Unknown => "UNKNOWN",
        })
    }
}

/// Why a generator refused its parameters. Nothing is generated on an error.
#[derive(Clone, Debug, PartialEq)]
pub enum GenError {
    /// A clause needs `k` distinct variables but only `vars` exist (or `k` is 0).
    ClauseWidth {
        /// The requested clause width.
        k: u32,
        /// The number of variables available.
        vars: u64,
    },
    /// The formula would exceed [`MAX_VARS`] variables or [`MAX_LITERALS`] literals.
    TooLarge {
        /// Which parameter made it too large.
        parameter: &'static str,
        /// What it would need (variables or literals).
        needed: u64,
        /// The limit it exceeds.
        limit: u64,
    },
    /// A probability outside [0, 1] (or not a number).
    Probability {
        /// The parameter's name.
        parameter: &'static str,
        /// The value given.
        value: f64,
    },
    /// A parity graph cannot be built: the degree bound is out of range or too small to hold
    /// the requested edges.
    ParityGraph {
        /// Vertices requested.
        vertices: u32,
        /// Edges requested.
        edges: u64,
        /// Degree bound requested.
        max_degree: u32,
    },
    /// A parameter is out of its documented range.
    OutOfRange {
        /// The parameter's name.
        parameter: &'static str,
        /// The value given.
        value: u64,
        /// Smallest accepted value.
        min: u64,
        /// Largest accepted value.
        max: u64,
    },
    /// A `grim-gen` command line that does not parse ([`Family::parse`], [`cnf`], [`wcnf`];
    /// `grim-gen` itself reports these through clap), or names the other kind of instance.
    Command(String),
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenError::ClauseWidth { k, vars } => write!(
                f,
                "clause width k = {k} needs 1 ≤ k ≤ number of variables ({vars}); \
                 lower k or add variables"
            ),
            GenError::TooLarge {
                parameter,
                needed,
                limit,
            } => write!(
                f,
                "`{parameter}` makes the formula too large: it needs {needed}, the limit is {limit}"
            ),
            GenError::Probability { parameter, value } => {
                write!(f, "`{parameter}` = {value} is not a probability in [0, 1]")
            }
            GenError::ParityGraph {
                vertices,
                edges,
                max_degree,
            } => write!(
                f,
                "no connected graph with {vertices} vertices and {edges} edges has every degree \
                 ≤ {max_degree} (need vertices - 1 ≤ edges ≤ vertices·max_degree/2 and \
                 1 ≤ max_degree ≤ {MAX_PARITY_DEGREE}, max_degree ≥ 2 when vertices > 2)"
            ),
            GenError::OutOfRange {
                parameter,
                value,
                min,
                max,
            } => write!(f, "`{parameter}` = {value} is outside [{min}, {max}]"),
            GenError::Command(message) => f.write_str(message.trim_end()),
        }
    }
}

impl std::error::Error for GenError {}

/// A generated CNF formula, with what generated it and what the construction proves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenCnf {
    /// Number of variables (the `V` of `p cnf V C`); every literal's magnitude is ≤ this.
    pub num_vars: u64,
    /// The clauses, each a list of non-zero DIMACS literals (without the terminating 0).
    pub clauses: Vec<Vec<i64>>,
    /// The generator and its parameters, one line, e.g. `php holes=5`.
    pub description: String,
    /// The answer when the construction fixes it.
    pub expected: Expected,
}

impl GenCnf {
    /// Writes the formula as DIMACS CNF: two `c` lines (the generator with its parameters, and
    /// the expected answer when the construction fixes it), the `p cnf` header, one clause per
    /// line.
    ///
    /// Wrap `out` in a `BufWriter` for large formulas; this writes one line at a time.
    pub fn write_dimacs(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "c generated by grim-gen {}", self.description)?;
        match self.expected {
            Expected::Unknown => writeln!(out, "c expected answer not fixed by the construction")?,
            known => writeln!(out, "c expected {known} by construction")?,
        }
        writeln!(out, "p cnf {} {}", self.num_vars, self.clauses.len())?;
        for clause in &self.clauses {
            for lit in clause {
                write!(out, "{lit} ")?;
            }
            writeln!(out, "0")?;
        }
        Ok(())
    }

    /// The formula as a DIMACS string (see [`GenCnf::write_dimacs`]).
    pub fn to_dimacs_string(&self) -> String {
        let mut buf = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = self.write_dimacs(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    }

    /// Whether `model` (indexed by variable - 1; `true` = the positive literal holds) satisfies
    /// every clause. Variables beyond the model's length count as false. Used by tests and
    /// by the generators' own planted-model checks.
    pub fn is_satisfied_by(&self, model: &[bool]) -> bool {
        self.clauses.iter().all(|clause| holds(clause, model))
    }
}

/// Whether `clause` (DIMACS literals) has a literal `model` makes true (indexed by variable
/// - 1; variables beyond it are false): the one clause check of [`GenCnf`] and [`GenWcnf`].
fn holds(clause: &[i64], model: &[bool]) -> bool {
    clause.iter().any(|&lit| {
        let value = usize::try_from(lit.unsigned_abs() - 1)
            .ok()
            .and_then(|i| model.get(i).copied())
            .unwrap_or(false);
        value == (lit > 0)
    })
}

/// Fails with [`GenError::TooLarge`] unless `vars` ≤ [`MAX_VARS`] and `literals` ≤
/// [`MAX_LITERALS`]. Both are computed in `u128` by callers so they cannot overflow.
pub(super) fn check_size(
    parameter: &'static str,
    vars: u128,
    literals: u128,
) -> Result<(), GenError> {
    if vars > u128::from(MAX_VARS) {
        return Err(GenError::TooLarge {
            parameter,
            needed: u64::try_from(vars).unwrap_or(u64::MAX),
            limit: MAX_VARS,
        });
    }
    if literals > u128::from(MAX_LITERALS) {
        return Err(GenError::TooLarge {
            parameter,
            needed: u64::try_from(literals).unwrap_or(u64::MAX),
            limit: MAX_LITERALS,
        });
    }
    Ok(())
}

pub(super) fn check_probability(parameter: &'static str, value: f64) -> Result<(), GenError> {
    if (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(GenError::Probability { parameter, value })
    }
}

/// A generated weighted CNF (MaxSAT instance), with what generated it.
///
/// Like [`GenCnf`], written by its own writer (not `formats::wcnf`), so that the reader can
/// be tested against it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenWcnf {
    /// Number of variables; every literal's magnitude is ≤ this.
    pub num_vars: u64,
    /// Hard clauses, as non-zero DIMACS literals.
    pub hard: Vec<Vec<i64>>,
    /// Soft clauses with their weights.
    pub soft: Vec<(u64, Vec<i64>)>,
    /// The generator and its parameters, one line.
    pub description: String,
}

impl GenWcnf {
    /// Writes the instance in the headerless (2022+) WCNF format: a `c` line naming the
    /// generator, the hard clauses (`h … 0`), then the soft ones (`W … 0`).
    pub fn write_wcnf(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "c generated by grim-gen {}", self.description)?;
        let mut write = |head: &dyn fmt::Display, clause: &[i64]| -> io::Result<()> {
            write!(out, "{head} ")?;
            for lit in clause {
                write!(out, "{lit} ")?;
            }
            writeln!(out, "0")
        };
        for clause in &self.hard {
            write(&"h", clause)?;
        }
        for (weight, clause) in &self.soft {
            write(weight, clause)?;
        }
        Ok(())
    }

    /// The instance as WCNF text (see [`GenWcnf::write_wcnf`]).
    pub fn to_wcnf_string(&self) -> String {
        let mut buf = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = self.write_wcnf(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    }

    /// The cost of `model` (indexed by variable - 1; variables beyond it are false): `None`
    /// when a hard clause is falsified or the sum overflows.
    pub fn cost(&self, model: &[bool]) -> Option<u64> {
        if !self.hard.iter().all(|c| holds(c, model)) {
            return None;
        }
        self.soft
            .iter()
            .filter(|(_, c)| !holds(c, model))
            .try_fold(0u64, |sum, (w, _)| sum.checked_add(*w))
    }
}

/// The edges of G(`vertices`, `p`): each pair `u < v` (1-based) drawn with probability `p`, in
/// lexicographic order, one draw per pair.
fn random_graph(rng: &mut SplitMix64, vertices: u64, p: f64) -> Vec<(i64, i64)> {
    let mut edges = Vec::new();
    for u in 1..=vertices as i64 {
        for v in u + 1..=vertices as i64 {
            if rng.chance(p) {
                edges.push((u, v));
            }
        }
    }
    edges
}

/// A weighted generator over G(`vertices`, `edge_probability`), the `graph` tuple
/// `(vertices, edge_probability, max_weight, seed)`: the parameters checked (a probability in
/// [0, 1], `max_weight` ≥ 1, the size limits for `per_edge` literals per possible edge and
/// `per_vertex` per vertex), the edges drawn from the seeded stream, then `clauses` turns them
/// into the hard and soft clauses (drawing weights from the same stream, after the edges), and
/// the description names `family` and the four parameters. Max-cut and independent set share
/// it so that their checks, draw order and description cannot drift apart.
pub(super) fn weighted_graph(
    family: &str,
    (vertices, edge_probability, max_weight, seed): (u64, f64, u64, u64),
    (per_edge, per_vertex): (u128, u128),
    clauses: impl FnOnce(&mut SplitMix64, Vec<(i64, i64)>) -> (Vec<Vec<i64>>, Vec<(u64, Vec<i64>)>),
) -> Result<GenWcnf, GenError> {
    check_probability("edge-probability", edge_probability)?;
    check_weight(max_weight)?;
    let pairs = u128::from(vertices) * u128::from(vertices.saturating_sub(1)) / 2;
    let literals = pairs * per_edge + u128::from(vertices) * per_vertex;
    check_size("vertices", u128::from(vertices), literals)?;
    let mut rng = SplitMix64::new(seed);
    let edges = random_graph(&mut rng, vertices, edge_probability);
    let (hard, soft) = clauses(&mut rng, edges);
    Ok(GenWcnf {
        num_vars: vertices,
        hard,
        soft,
        description: format!(
            "{family} vertices={vertices} edge-probability={edge_probability} \
             max_weight={max_weight} seed={seed}"
        ),
    })
}

/// One soft unit per variable 1..=`vars`, negative when `negative`, each with a weight drawn
/// from 1..=`max_weight` in variable order.
pub(super) fn soft_units(
    rng: &mut SplitMix64,
    vars: u64,
    max_weight: u64,
    negative: bool,
) -> Vec<(u64, Vec<i64>)> {
    (1..=vars as i64)
        .map(|v| {
            (
                1 + rng.below(max_weight),
                vec![if negative { -v } else { v }],
            )
        })
        .collect()
}

pub(super) fn check_weight(max_weight: u64) -> Result<(), GenError> {
    if max_weight == 0 {
        return Err(GenError::OutOfRange {
            parameter: "max_weight",
            value: 0,
            min: 1,
            max: u64::MAX,
        });
    }
    Ok(())
}

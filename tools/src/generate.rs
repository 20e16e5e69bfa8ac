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
//! Each generator returns a [`GenCnf`]: the clauses as DIMACS integers, a one-line description of
//! the generator and its parameters, and the answer when the construction fixes it
//! ([`Expected`]). The writer here is deliberately self-contained (not `formats::dimacs`): the
//! generator is one of the things the reader is tested against, so it must not share its code.
//!
//! | family | function | answer by construction |
//! | --- | --- | --- |
//! | random k-SAT | [`random_ksat`] | unknown (threshold ≈ 4.26·n for k = 3) |
//! | pigeonhole PHP(h+1, h) | [`pigeonhole`] | UNSAT |
//! | Tseitin parity on a random graph | [`tseitin_parity`] | UNSAT iff the total charge is odd |
//! | graph colouring | [`graph_colouring`] | SAT when planted, else unknown |
//! | ordering principle GT_n | [`ordering`] | UNSAT for n ≥ 1 |
//! | n-queens | [`queens`] | SAT except n = 2, 3 |
//! | Latin square completion | [`latin_square`] | SAT (the givens come from a planted square) |
//!
//! Weighted (MaxSAT) families return a [`GenWcnf`] instead:
//!
//! | family | function | hard clauses |
//! | --- | --- | --- |
//! | random weighted partial MaxSAT | [`random_maxsat`] | satisfiable (a planted assignment) |
//! | minimum-weight vertex cover | [`vertex_cover`] | satisfiable (every vertex) |
//! | weighted max-cut | [`max_cut`] | none (all soft) |
//! | maximum-weight independent set | [`independent_set`] | satisfiable (the empty set) |
//! | minimum-weight set cover | [`set_cover`] | satisfiable (every set) |
//! | lexicographic (BMO) weights | [`lexicographic`] | none (all soft) |
//!
//! Random k-SAT at a clause/variable ratio is [`random_ksat_ratio`].

use std::fmt;
use std::io::{self, Write};

/// The generators' stream, shared with the grid preferences (see `grim_formula::rng`).
pub use grim_formula::rng::SplitMix64;

/// The most variables a generated formula may have: the engine's limit (`Var::MAX_INDEX + 1`).
pub const MAX_VARS: u64 = (1 << 31) - 1;

/// The most literals a generated formula may hold in memory (2^25 ≈ 33.5 M, about 270 MB of
/// `i64` plus per-clause overhead). An assumption, not a measurement: large enough for any
/// instance the corpus or a benchmark wants, small enough that a mistyped `--clauses` fails
/// with a message instead of exhausting memory.
pub const MAX_LITERALS: u64 = 1 << 25;

/// The largest vertex degree [`tseitin_parity`] accepts: a parity constraint over `d` edges
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
        self.clauses.iter().all(|clause| {
            clause.iter().any(|&lit| {
                let value = usize::try_from(lit.unsigned_abs() - 1)
                    .ok()
                    .and_then(|i| model.get(i).copied())
                    .unwrap_or(false);
                value == (lit > 0)
            })
        })
    }
}

/// Fails with [`GenError::TooLarge`] unless `vars` ≤ [`MAX_VARS`] and `literals` ≤
/// [`MAX_LITERALS`]. Both are computed in `u128` by callers so they cannot overflow.
fn check_size(parameter: &'static str, vars: u128, literals: u128) -> Result<(), GenError> {
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

fn check_probability(parameter: &'static str, value: f64) -> Result<(), GenError> {
    if (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(GenError::Probability { parameter, value })
    }
}

/// Uniform random k-SAT: `clauses` clauses over `vars` variables, each of `k` distinct
/// variables drawn uniformly, each negated with probability ½ (the fixed-clause-length model
/// of Mitchell, Selman & Levesque, AAAI 1992).
///
/// Expected answer: unknown. For k = 3 the satisfiability threshold sits near
/// clauses/vars ≈ 4.26: well below (≈ 3.5) almost all instances are SAT, well above (≈ 5.5)
/// almost all are UNSAT, and at the threshold half are each and they are hardest.
/// Thresholds for k = 4, 5 are ≈ 9.93 and ≈ 21.1.
///
/// Errors: `k` = 0 or `k` > `vars` ([`GenError::ClauseWidth`]); size limits.
pub fn random_ksat(vars: u64, clauses: u64, k: u32, seed: u64) -> Result<GenCnf, GenError> {
    if k == 0 || u64::from(k) > vars {
        return Err(GenError::ClauseWidth { k, vars });
    }
    check_size(
        "clauses",
        u128::from(vars),
        u128::from(clauses) * u128::from(k),
    )?;
    let mut rng = SplitMix64::new(seed);
    let out = (0..clauses)
        .map(|_| random_clause(&mut rng, vars, k))
        .collect();
    Ok(GenCnf {
        num_vars: vars,
        clauses: out,
        description: format!("ksat vars={vars} clauses={clauses} k={k} seed={seed}"),
        expected: Expected::Unknown,
    })
}

/// One uniform random clause of `k` distinct variables from 1..=`vars`, each with a random
/// sign, in draw order: the clause of [`random_ksat`], and the clauses of [`random_maxsat`]
/// and [`lexicographic`]. Each try draws a variable and, when it is new, its sign.
/// Precondition: 1 ≤ `k` ≤ `vars` (checked by every caller).
fn random_clause(rng: &mut SplitMix64, vars: u64, k: u32) -> Vec<i64> {
    let mut clause: Vec<i64> = Vec::with_capacity(k as usize);
    while clause.len() < k as usize {
        // Rejection keeps the variables distinct; k ≤ vars, and k is small in practice,
        // so the expected number of draws is at most k·H(k) even when k = vars.
        let var = rng.below(vars) as i64 + 1;
        if clause.iter().all(|l| l.abs() != var) {
            clause.push(if rng.coin() { -var } else { var });
        }
    }
    clause
}

/// Uniform random k-SAT at a clause/variable `ratio`: [`random_ksat`] with
/// `round(ratio · vars)` clauses, the way the phase-transition literature states sizes
/// ("n = 250 at 4.26"). The description records the ratio as given.
///
/// Errors: a ratio that is negative or not finite ([`GenError::OutOfRange`], shown as the
/// ratio's integer part); those of [`random_ksat`].
pub fn random_ksat_ratio(vars: u64, ratio: f64, k: u32, seed: u64) -> Result<GenCnf, GenError> {
    if !(ratio.is_finite() && ratio >= 0.0) {
        return Err(GenError::OutOfRange {
            parameter: "ratio",
            value: if ratio.is_finite() {
                ratio as u64
            } else {
                u64::MAX
            },
            min: 0,
            max: u64::MAX,
        });
    }
    let clauses = (ratio * vars as f64).round();
    if clauses > MAX_LITERALS as f64 {
        return Err(GenError::TooLarge {
            parameter: "ratio",
            needed: clauses as u64,
            limit: MAX_LITERALS,
        });
    }
    let mut f = random_ksat(vars, clauses as u64, k, seed)?;
    f.description = format!(
        "ksat vars={vars} ratio={ratio} clauses={} k={k} seed={seed}",
        clauses as u64
    );
    Ok(f)
}

/// The pigeonhole principle PHP(h+1, h): `holes` + 1 pigeons, `holes` holes. Variable
/// `p·holes + h + 1` says pigeon `p` sits in hole `h`. Clauses: every pigeon sits in some hole
/// (`holes`+1 clauses of width `holes`); no hole holds two pigeons (`holes`·C(holes+1, 2)
/// binary clauses).
///
/// Expected answer: UNSAT for every `holes` (for 0 holes the one pigeon's clause is empty).
/// Resolution proofs need size exponential in `holes` (Haken 1985), so CDCL solvers slow
/// sharply around 10–12 holes; 5–8 are quick.
///
/// Errors: size limits (a few thousand holes).
pub fn pigeonhole(holes: u32) -> Result<GenCnf, GenError> {
    let h = u64::from(holes);
    let pigeons = h + 1;
    let vars = pigeons * h;
    let literals = u128::from(vars) + u128::from(h) * u128::from(pigeons) * u128::from(h);
    check_size("holes", u128::from(vars), literals)?;
    let var = |p: u64, hole: u64| (p * h + hole + 1) as i64;
    let mut clauses: Vec<Vec<i64>> = (0..pigeons)
        .map(|p| (0..h).map(|hole| var(p, hole)).collect())
        .collect();
    for hole in 0..h {
        for p in 0..pigeons {
            for q in p + 1..pigeons {
                clauses.push(vec![-var(p, hole), -var(q, hole)]);
            }
        }
    }
    Ok(GenCnf {
        num_vars: vars,
        clauses,
        description: format!("php holes={holes}"),
        expected: Expected::Unsat,
    })
}

/// Tseitin parity formula on a random connected graph (Tseitin 1968; Urquhart, JACM 1987,
/// DOI 10.1145/7531.8928). One variable per edge; each vertex `v` carries a charge
/// `c(v)` ∈ {0, 1} and the constraint "the XOR of `v`'s edges equals `c(v)`", written out as
/// the 2^(deg-1) clauses that forbid each wrong-parity assignment of its edges.
///
/// The graph: a random spanning tree (each vertex joins a random earlier one), then extra
/// random edges up to `edges` in total, never a duplicate edge and never a degree above
/// `max_degree`. The charges are random except the last, which fixes the total parity.
///
/// Expected answer: each edge appears in two vertex constraints, so summing all of them gives
/// 0 = Σ c(v): the formula is UNSAT when `satisfiable` is false (odd total charge) and SAT when
/// it is true (even total charge, connected graph: a spanning tree solves any even charge).
/// Small-degree Tseitin formulas on expanders are exponentially hard for resolution, so keep
/// `vertices` below ~40 with `max_degree` 4 for quick instances.
///
/// Errors: [`GenError::ParityGraph`] when no such graph exists or the random completion could
/// not place all edges (it gives up after a bounded number of draws); size limits.
pub fn tseitin_parity(
    vertices: u32,
    edges: u64,
    max_degree: u32,
    satisfiable: bool,
    seed: u64,
) -> Result<GenCnf, GenError> {
    let n = vertices as usize;
    let graph_error = GenError::ParityGraph {
        vertices,
        edges,
        max_degree,
    };
    let tree_edges = u64::from(vertices.saturating_sub(1));
    let max_edges = u64::from(vertices) * u64::from(max_degree) / 2;
    if vertices == 0
        || max_degree == 0
        || max_degree > MAX_PARITY_DEGREE
        || (vertices > 2 && max_degree < 2)
        || edges < tree_edges
        || edges > max_edges
    {
        return Err(graph_error);
    }
    // Each vertex contributes at most 2^(max_degree-1) clauses of max_degree literals.
    let literals = (u128::from(vertices) * u128::from(max_degree)) << max_degree.saturating_sub(1);
    check_size("vertices", u128::from(edges), literals)?;

    let mut rng = SplitMix64::new(seed);
    let mut graph = BoundedGraph::new(n, max_degree);
    // Spanning tree: vertex i joins a random earlier vertex with spare degree. A tree on i
    // vertices uses 2(i-1) < 2i ≤ i·max_degree degree slots when max_degree ≥ 2, so an
    // earlier vertex with a spare slot always exists.
    for i in 1..n {
        if graph.open.is_empty() {
            return Err(graph_error);
        }
        let j = graph.open[rng.index(graph.open.len())];
        graph.place(i);
        graph.connect(j, i);
    }
    // Extra edges between random pairs of vertices with spare degree, rejecting loops and
    // duplicates; a bounded number of draws, so a nearly saturated request fails cleanly.
    let mut attempts: u64 = 0;
    let limit = 1000 + 200 * (edges - tree_edges);
    while (graph.edges.len() as u64) < edges {
        attempts += 1;
        if attempts > limit || graph.open.len() < 2 {
            return Err(graph_error);
        }
        let a = graph.open[rng.index(graph.open.len())];
        let b = graph.open[rng.index(graph.open.len())];
        if a != b && !graph.adjacent.contains(&(a.min(b), a.max(b))) {
            graph.connect(a, b);
        }
    }
    let edge_list = graph.edges;

    let mut charge: Vec<bool> = (0..n).map(|_| rng.coin()).collect();
    let parity = charge.iter().filter(|&&c| c).count() % 2 == 1;
    let want_odd = !satisfiable;
    if parity != want_odd
        && let Some(last) = charge.last_mut()
    {
        *last = !*last;
    }

    let mut incident: Vec<Vec<i64>> = vec![Vec::new(); n];
    for (e, &(a, b)) in edge_list.iter().enumerate() {
        incident[a].push(e as i64 + 1);
        incident[b].push(e as i64 + 1);
    }
    let mut clauses = Vec::new();
    for (v, vars) in incident.iter().enumerate() {
        let d = vars.len();
        // Forbid every assignment of the d edges whose parity differs from the charge: a clause
        // is falsified exactly by one assignment, the one making each of its literals false.
        for mask in 0u32..(1u32 << d) {
            let ones_true = mask.count_ones() % 2 == 1;
            if ones_true == charge[v] {
                continue;
            }
            clauses.push(
                vars.iter()
                    .enumerate()
                    .map(|(i, &x)| if mask >> i & 1 == 1 { -x } else { x })
                    .collect(),
            );
        }
    }
    Ok(GenCnf {
        num_vars: edges,
        clauses,
        description: format!(
            "parity vertices={vertices} edges={edges} max-degree={max_degree} {} seed={seed}",
            if satisfiable { "sat" } else { "unsat" }
        ),
        expected: if satisfiable {
            Expected::Sat
        } else {
            Expected::Unsat
        },
    })
}

/// A simple graph under construction with a degree bound, for [`tseitin_parity`].
struct BoundedGraph {
    max_degree: u32,
    degree: Vec<u32>,
    /// Vertices already placed whose degree is below `max_degree`, in no particular order.
    open: Vec<usize>,
    /// `slot[v]` is v's index in `open` (meaningless once v is full or not yet placed).
    slot: Vec<usize>,
    /// Edges as (smaller, larger) endpoint pairs, for duplicate checks.
    adjacent: std::collections::BTreeSet<(usize, usize)>,
    /// Edges in insertion order; edge `e` becomes DIMACS variable `e + 1`.
    edges: Vec<(usize, usize)>,
}

impl BoundedGraph {
    fn new(n: usize, max_degree: u32) -> BoundedGraph {
        BoundedGraph {
            max_degree,
            degree: vec![0; n],
            open: if n > 0 { vec![0] } else { Vec::new() },
            slot: vec![0; n],
            adjacent: std::collections::BTreeSet::new(),
            edges: Vec::new(),
        }
    }

    /// Places vertex `v` (with degree 0) among the open vertices.
    fn place(&mut self, v: usize) {
        self.slot[v] = self.open.len();
        self.open.push(v);
    }

    /// Adds edge a–b; both must be in `open`, distinct and not yet adjacent.
    fn connect(&mut self, a: usize, b: usize) {
        let (a, b) = (a.min(b), a.max(b));
        self.adjacent.insert((a, b));
        self.edges.push((a, b));
        for v in [a, b] {
            self.degree[v] += 1;
            if self.degree[v] >= self.max_degree {
                let pos = self.slot[v];
                self.open.swap_remove(pos);
                if let Some(&moved) = self.open.get(pos) {
                    self.slot[moved] = pos;
                }
            }
        }
    }
}

/// Graph `colours`-colouring of a random graph G(`vertices`, `edge_probability`). Variable
/// `v·colours + c + 1` says vertex `v` has colour `c`. Clauses: each vertex has a colour, at
/// most one (pairwise), and the two ends of an edge differ in every colour.
///
/// When `planted` is true, every vertex first gets a random hidden colour and only pairs of
/// differently coloured vertices may become edges (each with `edge_probability`): the hidden
/// colouring is a model, so the answer is SAT. Unplanted, the answer is unknown — except that
/// `edge_probability` 1 gives the complete graph, UNSAT exactly when `vertices` > `colours`,
/// and the generator reports that.
///
/// Errors: a probability outside [0, 1]; size limits.
pub fn graph_colouring(
    vertices: u32,
    colours: u32,
    edge_probability: f64,
    planted: bool,
    seed: u64,
) -> Result<GenCnf, GenError> {
    check_probability("edge-probability", edge_probability)?;
    let n = u64::from(vertices);
    let k = u64::from(colours);
    let vars = u128::from(n) * u128::from(k);
    let pairs = u128::from(n) * u128::from(n.saturating_sub(1)) / 2;
    let literals = vars + u128::from(n) * u128::from(k) * u128::from(k) + pairs * u128::from(k) * 2;
    check_size("vertices", vars, literals)?;

    let mut rng = SplitMix64::new(seed);
    let hidden: Vec<u64> = if planted && k > 0 {
        (0..n).map(|_| rng.below(k)).collect()
    } else {
        Vec::new()
    };
    let var = |v: u64, c: u64| (v * k + c + 1) as i64;
    let mut clauses: Vec<Vec<i64>> = Vec::new();
    for v in 0..n {
        clauses.push((0..k).map(|c| var(v, c)).collect());
        for c in 0..k {
            for d in c + 1..k {
                clauses.push(vec![-var(v, c), -var(v, d)]);
            }
        }
    }
    let mut complete = true;
    for a in 0..n {
        for b in a + 1..n {
            let allowed = hidden.is_empty() || hidden[a as usize] != hidden[b as usize];
            // Draw for every pair, allowed or not, so the stream does not depend on `planted`.
            let drawn = rng.chance(edge_probability);
            if allowed && drawn {
                for c in 0..k {
                    clauses.push(vec![-var(a, c), -var(b, c)]);
                }
            } else {
                complete = false;
            }
        }
    }
    let expected = if planted || n == 0 {
        Expected::Sat
    } else if complete {
        if n > k {
            Expected::Unsat
        } else {
            Expected::Sat
        }
    } else if k == 0 {
        Expected::Unsat
    } else {
        Expected::Unknown
    };
    Ok(GenCnf {
        num_vars: n * k,
        clauses,
        description: format!(
            "color vertices={vertices} colors={colours} edge-probability={edge_probability}{} \
             seed={seed}",
            if planted { " planted" } else { "" }
        ),
        expected,
    })
}

/// The ordering principle GT_n (Krishnamurthy 1985): "a total order on n elements has no
/// minimum" — false, so UNSAT for every n ≥ 1. Variable `i·n + j + 1` (i ≠ j) says i < j; the
/// diagonal variables exist but occur in no clause. Clauses: antisymmetry ¬(i<j) ∨ ¬(j<i),
/// totality (i<j) ∨ (j<i), transitivity ¬(i<j) ∨ ¬(j<k) ∨ (i<k) for distinct i, j, k, and for
/// every j some i < j.
///
/// GT_n has polynomial resolution proofs yet needs wide clauses, which makes it a good check of
/// learning and minimisation: n = 10 is quick for CDCL solvers. n = 0 is the empty formula
/// (SAT): no element needs a smaller one.
///
/// Errors: size limits (n around 300).
pub fn ordering(n: u32) -> Result<GenCnf, GenError> {
    let m = u64::from(n);
    let literals = u128::from(m).pow(3) * 3 + u128::from(m).pow(2) * 4;
    check_size("n", u128::from(m) * u128::from(m), literals)?;
    let var = |i: u64, j: u64| (i * m + j + 1) as i64;
    let mut clauses = Vec::new();
    for i in 0..m {
        for j in i + 1..m {
            clauses.push(vec![-var(i, j), -var(j, i)]);
            clauses.push(vec![var(i, j), var(j, i)]);
        }
    }
    for i in 0..m {
        for j in 0..m {
            for k in 0..m {
                if i != j && j != k && i != k {
                    clauses.push(vec![-var(i, j), -var(j, k), var(i, k)]);
                }
            }
        }
    }
    for j in 0..m {
        clauses.push((0..m).filter(|&i| i != j).map(|i| var(i, j)).collect());
    }
    Ok(GenCnf {
        num_vars: m * m,
        clauses,
        description: format!("ordering n={n}"),
        expected: if n == 0 {
            Expected::Sat
        } else {
            Expected::Unsat
        },
    })
}

/// The n-queens puzzle: `n` queens on an n×n board, none attacking another. Variable
/// `r·n + c + 1` says a queen stands on row `r`, column `c`. Clauses: some queen in every row;
/// at most one per row, column and diagonal (pairwise).
///
/// Expected answer: SAT for n = 0, 1 and n ≥ 4; UNSAT for n = 2 and 3 (known by
/// enumeration). Pairwise at-most-one is O(n³) clauses: n = 20 is about 25 000.
///
/// Errors: size limits (n around 250).
pub fn queens(n: u32) -> Result<GenCnf, GenError> {
    let m = u64::from(n);
    let literals = u128::from(m).pow(3) * 12 + u128::from(m).pow(2);
    check_size("n", u128::from(m) * u128::from(m), literals)?;
    let var = |r: u64, c: u64| (r * m + c + 1) as i64;
    let mut clauses = Vec::new();
    for r in 0..m {
        clauses.push((0..m).map(|c| var(r, c)).collect());
    }
    // Every unordered pair of squares that attack each other, listed once.
    for r in 0..m {
        for c in 0..m {
            for r2 in r..m {
                for c2 in 0..m {
                    if (r2, c2) <= (r, c) {
                        continue;
                    }
                    let same_row = r == r2;
                    let same_col = c == c2;
                    let diagonal = r2 - r == c.abs_diff(c2);
                    if same_row || same_col || diagonal {
                        clauses.push(vec![-var(r, c), -var(r2, c2)]);
                    }
                }
            }
        }
    }
    Ok(GenCnf {
        num_vars: m * m,
        clauses,
        description: format!("queens n={n}"),
        expected: if n == 2 || n == 3 {
            Expected::Unsat
        } else {
            Expected::Sat
        },
    })
}

/// Latin square completion (quasigroup completion, Gomes & Selman 1997): an `order`×`order`
/// grid, each cell one of `order` symbols, every symbol exactly once in each row and column,
/// with some cells given. Variable `(r·order + c)·order + s + 1` says cell (r, c) holds `s`.
/// Clauses: exactly one symbol per cell, each symbol exactly once per row and per column
/// (at-least-one plus pairwise at-most-one), and one unit clause per given cell.
///
/// The givens come from a planted square — the cyclic square (r + c) mod order with its rows,
/// columns and symbols randomly permuted — each cell revealed with probability
/// `given_fraction`. The planted square is a model, so the answer is SAT. Around 40 % givens
/// the completion problem is hardest (the phase transition Gomes & Selman describe).
///
/// Errors: a fraction outside [0, 1]; size limits (order around 100).
pub fn latin_square(order: u32, given_fraction: f64, seed: u64) -> Result<GenCnf, GenError> {
    check_probability("givens", given_fraction)?;
    let n = u64::from(order);
    let vars = u128::from(n).pow(3);
    let literals = u128::from(n).saturating_pow(4).saturating_mul(4);
    check_size("order", vars, literals)?;
    let n_us = order as usize;
    let mut rng = SplitMix64::new(seed);
    let mut rows: Vec<u64> = (0..n).collect();
    let mut cols: Vec<u64> = (0..n).collect();
    let mut syms: Vec<u64> = (0..n).collect();
    rng.shuffle(&mut rows);
    rng.shuffle(&mut cols);
    rng.shuffle(&mut syms);
    let var = |r: u64, c: u64, s: u64| ((r * n + c) * n + s + 1) as i64;
    let mut clauses: Vec<Vec<i64>> = Vec::new();
    // Exactly one of the `n` literals produced by `lit(i)`.
    let mut exactly_one = |lit: &dyn Fn(u64) -> i64| {
        clauses.push((0..n).map(lit).collect());
        for i in 0..n {
            for j in i + 1..n {
                clauses.push(vec![-lit(i), -lit(j)]);
            }
        }
    };
    for a in 0..n {
        for b in 0..n {
            exactly_one(&|s| var(a, b, s)); // cell (a, b) holds one symbol
            exactly_one(&|c| var(a, c, b)); // row a holds symbol b once
            exactly_one(&|r| var(r, a, b)); // column a holds symbol b once
        }
    }
    let mut givens = 0u64;
    for r in 0..n_us {
        for c in 0..n_us {
            let symbol = syms[(rows[r] + cols[c]) as usize % n_us];
            if rng.chance(given_fraction) {
                clauses.push(vec![var(r as u64, c as u64, symbol)]);
                givens += 1;
            }
        }
    }
    Ok(GenCnf {
        num_vars: n * n * n,
        clauses,
        description: format!(
            "latin order={order} givens={given_fraction} seed={seed} (cells given: {givens})"
        ),
        expected: Expected::Sat,
    })
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
        let holds = |clause: &[i64]| {
            clause.iter().any(|&lit| {
                let value = usize::try_from(lit.unsigned_abs() - 1)
                    .ok()
                    .and_then(|i| model.get(i).copied())
                    .unwrap_or(false);
                value == (lit > 0)
            })
        };
        if !self.hard.iter().all(|c| holds(c)) {
            return None;
        }
        self.soft
            .iter()
            .filter(|(_, c)| !holds(c))
            .try_fold(0u64, |sum, (w, _)| sum.checked_add(*w))
    }
}

/// Random weighted partial MaxSAT with satisfiable hard clauses: `hard` random clauses of
/// width `hard_k` that a hidden planted assignment satisfies (a clause it falsifies gets one
/// literal flipped), and `soft` random clauses of width 1..=`soft_k` with weights drawn
/// uniformly from 1..=`max_weight` (weight 1 throughout: unweighted). Soft clauses ignore the
/// planted assignment, so the optimum is usually positive, and with many soft clauses per
/// variable the instance is hard for core-guided solvers (many overlapping cores).
///
/// Errors: `hard_k` or `soft_k` = 0 or > `vars` ([`GenError::ClauseWidth`]); `max_weight` = 0
/// ([`GenError::OutOfRange`]); size limits.
#[allow(clippy::too_many_arguments)]
pub fn random_maxsat(
    vars: u64,
    hard: u64,
    hard_k: u32,
    soft: u64,
    soft_k: u32,
    max_weight: u64,
    seed: u64,
) -> Result<GenWcnf, GenError> {
    for k in [hard_k, soft_k] {
        if k == 0 || u64::from(k) > vars {
            return Err(GenError::ClauseWidth { k, vars });
        }
    }
    check_weight(max_weight)?;
    check_size(
        "clauses",
        u128::from(vars),
        u128::from(hard) * u128::from(hard_k) + u128::from(soft) * u128::from(soft_k),
    )?;
    let mut rng = SplitMix64::new(seed);
    let planted: Vec<bool> = (0..vars).map(|_| rng.coin()).collect();
    let mut hard_clauses = Vec::with_capacity(hard as usize);
    for _ in 0..hard {
        let mut clause = random_clause(&mut rng, vars, hard_k);
        let satisfied = clause
            .iter()
            .any(|&l| planted.get(l.unsigned_abs() as usize - 1).copied() == Some(l > 0));
        if !satisfied {
            let i = rng.index(clause.len());
            if let Some(l) = clause.get_mut(i) {
                *l = -*l;
            }
        }
        hard_clauses.push(clause);
    }
    let mut soft_clauses = Vec::with_capacity(soft as usize);
    for _ in 0..soft {
        let k = 1 + rng.below(u64::from(soft_k)) as u32;
        let clause = random_clause(&mut rng, vars, k);
        let weight = 1 + rng.below(max_weight);
        soft_clauses.push((weight, clause));
    }
    Ok(GenWcnf {
        num_vars: vars,
        hard: hard_clauses,
        soft: soft_clauses,
        description: format!(
            "maxsat vars={vars} hard={hard} hard_k={hard_k} soft={soft} soft_k={soft_k} \
             max_weight={max_weight} seed={seed}"
        ),
    })
}

/// Minimum-weight vertex cover on a random graph: one variable per vertex ("in the cover"),
/// a hard clause `u ∨ v` per edge (`edges` distinct edges drawn uniformly; fewer when the
/// graph is complete), and a soft unit `¬v` per vertex with a weight from 1..=`max_weight`.
/// Always satisfiable (take every vertex); the optimum is the cheapest cover.
///
/// Errors: `vertices` < 2 or `max_weight` = 0 ([`GenError::OutOfRange`]); size limits.
pub fn vertex_cover(
    vertices: u64,
    edges: u64,
    max_weight: u64,
    seed: u64,
) -> Result<GenWcnf, GenError> {
    if vertices < 2 {
        return Err(GenError::OutOfRange {
            parameter: "vertices",
            value: vertices,
            min: 2,
            max: MAX_VARS,
        });
    }
    check_weight(max_weight)?;
    let possible = u128::from(vertices) * u128::from(vertices - 1) / 2;
    let edges = u64::try_from(u128::from(edges).min(possible)).unwrap_or(edges);
    check_size(
        "edges",
        u128::from(vertices),
        u128::from(edges) * 2 + u128::from(vertices),
    )?;
    let mut rng = SplitMix64::new(seed);
    let mut seen = std::collections::BTreeSet::new();
    let mut hard = Vec::with_capacity(edges as usize);
    while (hard.len() as u64) < edges {
        let u = rng.below(vertices) as i64 + 1;
        let v = rng.below(vertices) as i64 + 1;
        if u != v && seen.insert((u.min(v), u.max(v))) {
            hard.push(vec![u, v]);
        }
    }
    let soft = soft_units(&mut rng, vertices, max_weight, true);
    Ok(GenWcnf {
        num_vars: vertices,
        hard,
        soft,
        description: format!(
            "vertex-cover vertices={vertices} edges={edges} max_weight={max_weight} seed={seed}"
        ),
    })
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
fn weighted_graph(
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
fn soft_units(
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

fn check_weight(max_weight: u64) -> Result<(), GenError> {
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

/// Weighted max-cut of a random graph G(`vertices`, `edge_probability`): one variable per
/// vertex (its side), each edge `{u, v}` with a weight from 1..=`max_weight` gives two soft
/// clauses of that weight, `u ∨ v` and `¬u ∨ ¬v`. A cut edge satisfies both, an uncut one
/// falsifies exactly one, so the cost of an assignment is the weight of the edges it leaves
/// uncut and the optimum is the total edge weight minus the maximum cut. No hard clauses
/// (max-cut is the classic "all soft" MaxSAT family; weight 1 gives gen-maxsat.py's `maxcut`).
///
/// Errors: a probability outside [0, 1]; `max_weight` = 0; size limits.
pub fn max_cut(
    vertices: u64,
    edge_probability: f64,
    max_weight: u64,
    seed: u64,
) -> Result<GenWcnf, GenError> {
    let graph = (vertices, edge_probability, max_weight, seed);
    weighted_graph("maxcut", graph, (4, 0), |rng, edges| {
        let mut soft = Vec::with_capacity(edges.len() * 2);
        for (u, v) in edges {
            let w = 1 + rng.below(max_weight);
            soft.push((w, vec![u, v]));
            soft.push((w, vec![-u, -v]));
        }
        (Vec::new(), soft)
    })
}

/// Maximum-weight independent set of a random graph G(`vertices`, `edge_probability`): one
/// variable per vertex ("in the set"), a hard clause `¬u ∨ ¬v` per edge, a soft unit `v` per
/// vertex with a weight from 1..=`max_weight`. The cost of a set is the weight left out, so the
/// optimum is the total weight minus the heaviest independent set. Always satisfiable (the
/// empty set). Many overlapping cores of size two: the family where at-most-one detection
/// pays (gen-maxsat.py's `wmis`).
///
/// Errors: a probability outside [0, 1]; `max_weight` = 0; size limits.
pub fn independent_set(
    vertices: u64,
    edge_probability: f64,
    max_weight: u64,
    seed: u64,
) -> Result<GenWcnf, GenError> {
    let graph = (vertices, edge_probability, max_weight, seed);
    weighted_graph("wis", graph, (2, 1), |rng, edges| {
        let hard = edges.into_iter().map(|(u, v)| vec![-u, -v]).collect();
        (hard, soft_units(rng, vertices, max_weight, false))
    })
}

/// Minimum-weight set cover: `elements` elements, `sets` sets (one variable each, "chosen"),
/// each element in `per_element` distinct sets drawn uniformly — a hard clause listing them,
/// sorted — and a soft unit `¬s` per set with a weight from 1..=`max_weight`. Always
/// satisfiable (choose every set); the optimum is the cheapest cover (gen-maxsat.py's `wsc`).
///
/// Errors: `per_element` = 0 or > `sets` ([`GenError::ClauseWidth`]); `max_weight` = 0; size
/// limits.
pub fn set_cover(
    elements: u64,
    sets: u64,
    per_element: u32,
    max_weight: u64,
    seed: u64,
) -> Result<GenWcnf, GenError> {
    if per_element == 0 || u64::from(per_element) > sets {
        return Err(GenError::ClauseWidth {
            k: per_element,
            vars: sets,
        });
    }
    check_weight(max_weight)?;
    check_size(
        "elements",
        u128::from(sets),
        u128::from(elements) * u128::from(per_element) + u128::from(sets),
    )?;
    let mut rng = SplitMix64::new(seed);
    let mut hard = Vec::with_capacity(elements as usize);
    for _ in 0..elements {
        let mut clause: Vec<i64> = Vec::with_capacity(per_element as usize);
        while clause.len() < per_element as usize {
            let s = rng.below(sets) as i64 + 1;
            if !clause.contains(&s) {
                clause.push(s);
            }
        }
        clause.sort_unstable();
        hard.push(clause);
    }
    let soft = soft_units(&mut rng, sets, max_weight, true);
    Ok(GenWcnf {
        num_vars: sets,
        hard,
        soft,
        description: format!(
            "set-cover elements={elements} sets={sets} per_element={per_element} \
             max_weight={max_weight} seed={seed}"
        ),
    })
}

/// Random Max-3-SAT with lexicographic weights: `clauses` random soft 3-clauses over `vars`
/// variables, each put on one of `levels` levels uniformly, and level `l`'s weight chosen
/// larger than all the soft weight below it (1 at level 0; then one more than the lower
/// levels' total). Falsifying one clause of a level then costs more than falsifying every
/// clause below it: the optimum minimises the falsified clauses level by level, from the top
/// (a Boolean multilevel optimisation problem in the sense of Marques-Silva, Argelich, Graça
/// and Lynce, "Boolean lexicographic optimization: algorithms & applications", AMAI 2011,
/// DOI 10.1007/s10472-011-9233-2) — the shape stratification and BLO detection are for.
/// Unlike gen-maxsat.py's `bmo` (weights 10^l, lexicographic only while a level holds fewer
/// than ten clauses), this one is lexicographic at every size.
///
/// Errors: `vars` < 3 ([`GenError::ClauseWidth`]); `levels` outside 1..=63
/// ([`GenError::OutOfRange`]); weights beyond 64 bits ([`GenError::TooLarge`]); size limits.
pub fn lexicographic(vars: u64, clauses: u64, levels: u32, seed: u64) -> Result<GenWcnf, GenError> {
    if vars < 3 {
        return Err(GenError::ClauseWidth { k: 3, vars });
    }
    if !(1..=63).contains(&levels) {
        return Err(GenError::OutOfRange {
            parameter: "levels",
            value: u64::from(levels),
            min: 1,
            max: 63,
        });
    }
    check_size("clauses", u128::from(vars), u128::from(clauses) * 3)?;
    let mut rng = SplitMix64::new(seed);
    let mut drawn = Vec::with_capacity(clauses as usize);
    let mut per_level = vec![0u64; levels as usize];
    for _ in 0..clauses {
        let level = rng.below(u64::from(levels)) as usize;
        let clause = random_clause(&mut rng, vars, 3);
        if let Some(n) = per_level.get_mut(level) {
            *n += 1;
        }
        drawn.push((level, clause));
    }
    let mut weights = Vec::with_capacity(levels as usize);
    let mut below: u64 = 0;
    let too_large = || GenError::TooLarge {
        parameter: "levels",
        needed: u64::MAX,
        limit: u64::MAX,
    };
    for n in &per_level {
        let w = below.checked_add(1).ok_or_else(too_large)?;
        below = n
            .checked_mul(w)
            .and_then(|x| x.checked_add(below))
            .ok_or_else(too_large)?;
        weights.push(w);
    }
    let soft = drawn
        .into_iter()
        .map(|(level, clause)| (weights.get(level).copied().unwrap_or(1), clause))
        .collect();
    Ok(GenWcnf {
        num_vars: vars,
        hard: Vec::new(),
        soft,
        description: format!("lex vars={vars} clauses={clauses} levels={levels} seed={seed}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every assignment of `f`'s variables, by brute force (only for ≤ 20 variables).
    fn brute_force_sat(f: &GenCnf) -> bool {
        assert!(f.num_vars <= 20, "brute force on {} variables", f.num_vars);
        (0u32..1 << f.num_vars).any(|bits| {
            let model: Vec<bool> = (0..f.num_vars).map(|i| bits >> i & 1 == 1).collect();
            f.is_satisfied_by(&model)
        })
    }

    fn literals_in_range(f: &GenCnf) -> bool {
        f.clauses
            .iter()
            .flatten()
            .all(|&l| l != 0 && l.unsigned_abs() <= f.num_vars)
    }

    #[test]
    fn the_same_seed_gives_the_same_formula_and_another_seed_another() {
        let a = random_ksat(30, 100, 3, 7).unwrap();
        let b = random_ksat(30, 100, 3, 7).unwrap();
        let c = random_ksat(30, 100, 3, 8).unwrap();
        assert_eq!(a, b);
        assert_ne!(a.clauses, c.clauses);
        assert_eq!(
            tseitin_parity(10, 15, 4, false, 3),
            tseitin_parity(10, 15, 4, false, 3)
        );
    }

    #[test]
    fn random_ksat_clauses_have_k_distinct_variables_in_range() {
        for k in 1..=5 {
            let f = random_ksat(5, 200, k, u64::from(k)).unwrap();
            assert_eq!(f.clauses.len(), 200);
            assert!(literals_in_range(&f));
            for clause in &f.clauses {
                let mut vars: Vec<u64> = clause.iter().map(|l| l.unsigned_abs()).collect();
                vars.sort_unstable();
                vars.dedup();
                assert_eq!(vars.len(), k as usize, "clause {clause:?} for k = {k}");
            }
        }
        assert_eq!(
            random_ksat(2, 1, 3, 0),
            Err(GenError::ClauseWidth { k: 3, vars: 2 })
        );
        assert!(random_ksat(3, 0, 0, 0).is_err());
    }

    #[test]
    fn absurd_sizes_are_refused_before_allocating() {
        assert!(matches!(
            random_ksat(10, u64::MAX, 3, 0),
            Err(GenError::TooLarge { .. })
        ));
        assert!(matches!(
            random_ksat(u64::MAX, 1, 3, 0),
            Err(GenError::TooLarge { .. })
        ));
        assert!(matches!(
            pigeonhole(u32::MAX),
            Err(GenError::TooLarge { .. })
        ));
        assert!(matches!(ordering(u32::MAX), Err(GenError::TooLarge { .. })));
        assert!(matches!(queens(u32::MAX), Err(GenError::TooLarge { .. })));
        assert!(matches!(
            latin_square(u32::MAX, 0.5, 0),
            Err(GenError::TooLarge { .. })
        ));
        assert!(matches!(
            graph_colouring(u32::MAX, u32::MAX, 0.5, false, 0),
            Err(GenError::TooLarge { .. })
        ));
        assert!(matches!(
            graph_colouring(3, 3, f64::NAN, false, 0),
            Err(GenError::Probability { .. })
        ));
        assert!(tseitin_parity(u32::MAX, u64::MAX, 4, true, 0).is_err());
        assert!(tseitin_parity(10, 9, 13, true, 0).is_err());
        assert!(tseitin_parity(10, 8, 4, true, 0).is_err()); // fewer edges than a tree
        assert!(tseitin_parity(10, 21, 4, true, 0).is_err()); // more than 10·4/2
    }

    #[test]
    fn small_members_of_each_family_have_the_answer_their_construction_claims() {
        let cases = [
            pigeonhole(0).unwrap(),
            pigeonhole(1).unwrap(),
            pigeonhole(2).unwrap(),
            pigeonhole(3).unwrap(),
            tseitin_parity(6, 8, 3, true, 1).unwrap(),
            tseitin_parity(6, 8, 3, false, 1).unwrap(),
            tseitin_parity(8, 12, 4, true, 2).unwrap(),
            tseitin_parity(8, 12, 4, false, 2).unwrap(),
            tseitin_parity(1, 0, 1, false, 2).unwrap(),
            tseitin_parity(2, 1, 1, true, 2).unwrap(),
            graph_colouring(6, 3, 0.7, true, 4).unwrap(),
            graph_colouring(4, 3, 1.0, false, 4).unwrap(),
            graph_colouring(3, 3, 1.0, false, 4).unwrap(),
            graph_colouring(3, 2, 1.0, false, 4).unwrap(),
            ordering(0).unwrap(),
            ordering(1).unwrap(),
            ordering(3).unwrap(),
            queens(1).unwrap(),
            queens(2).unwrap(),
            queens(3).unwrap(),
            queens(4).unwrap(),
            latin_square(2, 0.5, 9).unwrap(),
        ];
        for f in &cases {
            assert!(literals_in_range(f), "{}", f.description);
            let sat = brute_force_sat(f);
            let claimed = f.expected;
            assert_ne!(claimed, Expected::Unknown, "{}", f.description);
            assert_eq!(
                sat,
                claimed == Expected::Sat,
                "{} claims {claimed} but brute force says sat = {sat}",
                f.description
            );
        }
    }

    #[test]
    fn tseitin_graphs_have_the_requested_edges_and_bounded_degree() {
        for seed in 0..20 {
            let f = tseitin_parity(20, 35, 4, seed % 2 == 0, seed).unwrap();
            assert_eq!(f.num_vars, 35);
            let mut occurrences = vec![0u32; 36];
            for clause in &f.clauses {
                assert!(clause.len() <= 4, "{clause:?}");
            }
            // Each edge variable occurs in the clauses of exactly its two endpoints.
            for clause in &f.clauses {
                for l in clause {
                    occurrences[l.unsigned_abs() as usize] += 1;
                }
            }
            assert!(occurrences[1..].iter().all(|&o| o > 0), "{occurrences:?}");
        }
    }

    #[test]
    fn a_planted_latin_square_is_a_model_of_its_formula() {
        // Rebuild the planted square the same way as the generator and check it satisfies
        // the formula with every cell given.
        let f = latin_square(6, 1.0, 11).unwrap();
        let units: Vec<i64> = f
            .clauses
            .iter()
            .filter(|c| c.len() == 1)
            .map(|c| c[0])
            .collect();
        assert_eq!(units.len(), 36);
        let mut model = vec![false; f.num_vars as usize];
        for u in units {
            model[(u - 1) as usize] = true;
        }
        assert!(f.is_satisfied_by(&model));
    }

    #[test]
    fn the_dimacs_text_has_comments_a_header_and_zero_terminated_clauses() {
        let f = pigeonhole(1).unwrap();
        assert_eq!(
            f.to_dimacs_string(),
            "c generated by grim-gen php holes=1\nc expected UNSAT by construction\n\
             p cnf 2 3\n1 0\n2 0\n-1 -2 0\n"
        );
    }

    #[test]
    fn below_stays_below_and_covers_its_range() {
        let mut rng = SplitMix64::new(0);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let x = rng.below(7);
            seen[x as usize] += 1;
        }
        assert!(seen.iter().all(|&s| s > 800), "{seen:?}");
        assert_eq!(rng.below(0), 0);
    }

    #[test]
    fn maxsat_generators_are_deterministic_and_their_hard_clauses_hold_somewhere() {
        let a = random_maxsat(12, 30, 3, 40, 3, 9, 5).unwrap();
        assert_eq!(a, random_maxsat(12, 30, 3, 40, 3, 9, 5).unwrap());
        assert_ne!(a, random_maxsat(12, 30, 3, 40, 3, 9, 6).unwrap());
        assert_eq!((a.hard.len(), a.soft.len()), (30, 40));
        assert!(
            a.soft
                .iter()
                .all(|(w, c)| (1..=9).contains(w) && (1..=3).contains(&c.len()))
        );
        let feasible = (0u32..1 << 12).any(|bits| {
            let model: Vec<bool> = (0..12).map(|i| bits >> i & 1 == 1).collect();
            a.cost(&model).is_some()
        });
        assert!(
            feasible,
            "the planted assignment satisfies the hard clauses"
        );
        let vc = vertex_cover(8, 12, 5, 1).unwrap();
        assert_eq!((vc.hard.len(), vc.soft.len()), (12, 8));
        let total: u64 = vc.soft.iter().map(|(w, _)| w).sum();
        assert_eq!(vc.cost(&[true; 8]), Some(total));
        assert_eq!(vertex_cover(3, 100, 1, 0).unwrap().hard.len(), 3);
        assert!(random_maxsat(3, 1, 4, 1, 1, 1, 0).is_err());
        assert!(vertex_cover(1, 1, 1, 0).is_err());
    }

    #[test]
    fn the_wcnf_text_marks_hard_clauses_and_weights() {
        let f = GenWcnf {
            num_vars: 2,
            hard: vec![vec![1, -2]],
            soft: vec![(3, vec![2]), (1, vec![])],
            description: "test".to_string(),
        };
        assert_eq!(
            f.to_wcnf_string(),
            "c generated by grim-gen test\nh 1 -2 0\n3 2 0\n1 0\n"
        );
    }

    /// The optimum of `f` by brute force (only for ≤ 16 variables); `None` when infeasible.
    fn brute_force_optimum(f: &GenWcnf) -> Option<u64> {
        assert!(f.num_vars <= 16, "brute force on {} variables", f.num_vars);
        (0u32..1 << f.num_vars)
            .filter_map(|bits| {
                let model: Vec<bool> = (0..f.num_vars).map(|i| bits >> i & 1 == 1).collect();
                f.cost(&model)
            })
            .min()
    }

    #[test]
    fn random_ksat_at_a_ratio_rounds_the_clause_count_and_is_seeded() {
        let f = random_ksat_ratio(250, 4.26, 3, 1).unwrap();
        assert_eq!(f.clauses.len(), 1065);
        assert_eq!(f.clauses, random_ksat(250, 1065, 3, 1).unwrap().clauses);
        assert_eq!(f, random_ksat_ratio(250, 4.26, 3, 1).unwrap());
        assert!(f.description.contains("ratio=4.26"), "{}", f.description);
        assert!(random_ksat_ratio(10, -1.0, 3, 0).is_err());
        assert!(random_ksat_ratio(10, f64::NAN, 3, 0).is_err());
        assert!(matches!(
            random_ksat_ratio(1000, 1e12, 3, 0),
            Err(GenError::TooLarge { .. })
        ));
        // Far above the threshold, small instances are UNSAT; far below, SAT.
        assert!(!brute_force_sat(
            &random_ksat_ratio(12, 10.0, 3, 4).unwrap()
        ));
        assert!(brute_force_sat(&random_ksat_ratio(12, 1.0, 3, 4).unwrap()));
    }

    #[test]
    fn the_weighted_families_are_deterministic_per_seed() {
        assert_eq!(max_cut(12, 0.5, 9, 3), max_cut(12, 0.5, 9, 3));
        assert_ne!(max_cut(12, 0.5, 9, 3), max_cut(12, 0.5, 9, 4));
        assert_eq!(
            independent_set(12, 0.3, 9, 3),
            independent_set(12, 0.3, 9, 3)
        );
        assert_ne!(
            independent_set(12, 0.3, 9, 3),
            independent_set(12, 0.3, 9, 4)
        );
        assert_eq!(set_cover(20, 10, 3, 9, 3), set_cover(20, 10, 3, 9, 3));
        assert_ne!(set_cover(20, 10, 3, 9, 3), set_cover(20, 10, 3, 9, 4));
        assert_eq!(lexicographic(10, 40, 3, 3), lexicographic(10, 40, 3, 3));
        assert_ne!(lexicographic(10, 40, 3, 3), lexicographic(10, 40, 3, 4));
        // The text is a function of the instance, so the bytes are reproducible too.
        assert_eq!(
            max_cut(6, 0.5, 1, 1).unwrap().to_wcnf_string(),
            max_cut(6, 0.5, 1, 1).unwrap().to_wcnf_string()
        );
    }

    /// Weight of the heaviest set of vertices with no two joined by an edge, by brute force.
    fn heaviest_independent_set(n: u64, edges: &[(i64, i64)], weight: &[u64]) -> u64 {
        (0u32..1 << n)
            .filter(|bits| {
                edges
                    .iter()
                    .all(|&(u, v)| bits >> (u - 1) & 1 == 0 || bits >> (v - 1) & 1 == 0)
            })
            .map(|bits| {
                (0..n)
                    .filter(|i| bits >> i & 1 == 1)
                    .map(|i| weight[i as usize])
                    .sum()
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn the_weighted_families_have_the_optima_their_problems_define() {
        // Max-cut of the complete graph K4, unit weights: the best cut has 4 of 6 edges.
        let k4 = max_cut(4, 1.0, 1, 0).unwrap();
        assert_eq!((k4.soft.len(), k4.hard.len()), (12, 0));
        assert_eq!(brute_force_optimum(&k4), Some(2));
        // K5: the best cut has 6 of 10 edges.
        assert_eq!(
            brute_force_optimum(&max_cut(5, 1.0, 1, 0).unwrap()),
            Some(4)
        );
        for seed in 0..6 {
            let g = independent_set(10, 0.35, 20, seed).unwrap();
            let edges: Vec<(i64, i64)> = g.hard.iter().map(|c| (-c[0], -c[1])).collect();
            let weight: Vec<u64> = g.soft.iter().map(|(w, _)| *w).collect();
            let total: u64 = weight.iter().sum();
            assert_eq!(
                brute_force_optimum(&g),
                Some(total - heaviest_independent_set(10, &edges, &weight)),
                "{}",
                g.description
            );
            // Set cover: the cheapest family of sets meeting every element's clause.
            let c = set_cover(14, 9, 2, 20, seed).unwrap();
            let cheapest = (0u32..1 << 9)
                .filter(|bits| {
                    c.hard
                        .iter()
                        .all(|e| e.iter().any(|&s| bits >> (s - 1) & 1 == 1))
                })
                .map(|bits| {
                    (0..9)
                        .filter(|i| bits >> i & 1 == 1)
                        .map(|i| c.soft[i].0)
                        .sum()
                })
                .min();
            assert_eq!(brute_force_optimum(&c), cheapest, "{}", c.description);
        }
        assert!(set_cover(3, 2, 3, 1, 0).is_err());
        assert!(max_cut(3, 1.5, 1, 0).is_err());
        assert!(independent_set(3, 0.5, 0, 0).is_err());
    }

    #[test]
    fn lexicographic_weights_dominate_every_lower_level() {
        for seed in 0..4 {
            let f = lexicographic(10, 60, 3, seed).unwrap();
            let mut levels: Vec<u64> = f.soft.iter().map(|(w, _)| *w).collect();
            levels.sort_unstable();
            levels.dedup();
            assert_eq!(levels[0], 1, "{}", f.description);
            for (k, &w) in levels.iter().enumerate().skip(1) {
                let below: u64 = f.soft.iter().map(|(v, _)| *v).filter(|&v| v < w).sum();
                assert_eq!(w, below + 1, "level {k} of {}", f.description);
            }
            // The optimum minimises the top level's falsified clauses first.
            let top = *levels.last().unwrap();
            let falsified_top = |bits: u32| {
                f.soft
                    .iter()
                    .filter(|(w, c)| {
                        *w == top
                            && !c
                                .iter()
                                .any(|&l| (bits >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0))
                    })
                    .count()
            };
            let best_top = (0u32..1 << 10).map(falsified_top).min().unwrap();
            let optimum = brute_force_optimum(&f).unwrap();
            let at_optimum = (0u32..1 << 10)
                .find(|&bits| {
                    let model: Vec<bool> = (0..10).map(|i| bits >> i & 1 == 1).collect();
                    f.cost(&model) == Some(optimum)
                })
                .unwrap();
            assert_eq!(falsified_top(at_optimum), best_top, "{}", f.description);
        }
        assert!(lexicographic(2, 5, 2, 0).is_err());
        assert!(lexicographic(5, 5, 0, 0).is_err());
        assert!(matches!(
            lexicographic(5, 1000, 63, 0),
            Err(GenError::TooLarge { .. })
        ));
    }
}

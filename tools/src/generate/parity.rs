//! Tseitin parity formulas on random graphs (`grim-gen parity`).

use super::{Expected, GenCnf, GenError, MAX_PARITY_DEGREE, SplitMix64, check_size};

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
/// 0 = Σ c(v): the formula is UNSAT with `unsat` (odd total charge) and SAT without it (even
/// total charge, connected graph: a spanning tree solves any even charge).
/// Small-degree Tseitin formulas on expanders are exponentially hard for resolution, so keep
/// `vertices` below ~40 with `max_degree` 4 for quick instances.
///
/// Errors: [`GenError::ParityGraph`] when no such graph exists or the random completion could
/// not place all edges (it gives up after a bounded number of draws); size limits.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct Parity {
    /// Number of vertices.
    #[arg(long)]
    pub vertices: u32,
    /// Number of edges (= variables); at least vertices-1.
    #[arg(long)]
    pub edges: u64,
    /// Largest vertex degree (each vertex costs 2^(degree-1) clauses).
    #[arg(long, default_value_t = 4)]
    pub max_degree: u32,
    /// Make the total charge odd, so the formula is unsatisfiable.
    #[arg(long)]
    pub unsat: bool,
    /// Seed of the generator's random stream.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl Parity {
    /// The formula (see the type's doc for the construction, the answer and the errors).
    pub fn generate(&self) -> Result<GenCnf, GenError> {
        let Parity {
            vertices,
            edges,
            max_degree,
            unsat,
            seed,
        } = *self;
        let satisfiable = !unsat;
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
        let literals =
            (u128::from(vertices) * u128::from(max_degree)) << max_degree.saturating_sub(1);
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
}

/// A simple graph under construction with a degree bound, for [`Parity`].
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

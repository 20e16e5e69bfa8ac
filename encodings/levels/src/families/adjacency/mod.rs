//! What may sit beside what.
//!
//! The spec holds one table per direction, already merged from the symmetric and directional
//! rules and symmetric by construction (`b` east of `a` ⇔ `a` west of `b`). Each adjacent pair
//! of cells is visited once, through its east and south sides, and every forbidden tile pair
//! becomes the binary clause `¬a(c) ∨ ¬b(c')` — pairs the two domains already exclude are
//! skipped. Binary clauses are the engine's cheapest (watched specially); a support encoding
//! (`a(c) → ⋁ allowed b(c')`) would be smaller only when most pairs are forbidden, which hand
//! written tables rarely do (an assumption, not measured).
//!
//! The family is this file and `rule.rs` (the reading, the merge and the contradiction
//! check). Its rules in a clash are the adjacency rules one by one (a `forbid` pair, the
//! `allow` list, a directional rule), each with the triples it forbids, which the reader kept
//! in `GridSpec::origins` for the diagnosis.

pub(crate) mod rule;

use crate::error::GridError;
use crate::family::{Family, Pass, Reading, Switch};
use crate::model::GridModel;
use crate::spec::reader::field;
use crate::spec::{Dir, GridSpec, RuleRef};
use grim_solver::Lit;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Adjacency;

impl Family for Adjacency {
    fn fields(&self) -> &'static [&'static str] {
        &["adjacency"]
    }

    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError> {
        if at.pass != Pass::Tables {
            return Ok(());
        }
        let (adjacent, origins) = match field(at.doc, "adjacency") {
            Some(v) => rule::read_adjacency(at.reader, v)?,
            None => {
                let t = at.reader.tiles.len();
                (std::array::from_fn(|_| vec![vec![true; t]; t]), Vec::new())
            }
        };
        at.spec.adjacent = adjacent;
        at.spec.origins.adjacency = origins;
        Ok(())
    }

    /// Emits the forbidden-pair clauses.
    fn encode(&self, m: &mut GridModel) {
        let t = m.spec.tiles.len();
        for c in 0..m.spec.cells() {
            for d in [Dir::E, Dir::S] {
                let Some(e) = m.spec.neighbour(c, d) else {
                    continue;
                };
                for a in (0..t).filter(|&a| m.spec.domains[c][a]) {
                    for b in (0..t).filter(|&b| m.spec.domains[e][b]) {
                        if !m.spec.adjacent[d as usize][a][b] {
                            let clause = [!m.tile_lit(c, a), !m.tile_lit(e, b)];
                            m.problem.add_clause(&clause, None);
                        }
                    }
                }
            }
        }
    }

    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        (spec.origins.adjacency.iter().enumerate())
            .map(|(i, (rule, _))| (rule.clone(), Switch::Own(i)))
            .collect()
    }

    fn open(&self, spec: &mut GridSpec) {
        for table in &mut spec.adjacent {
            for row in table.iter_mut() {
                row.fill(true);
            }
        }
    }

    /// Each pair of neighbours through its east and south sides (the mirrors in the rule's
    /// list say the same of the west and north sides): `¬(a here ∧ b there)`.
    fn own_clauses(&self, spec: &GridSpec, m: &GridModel, rule: usize) -> Vec<Vec<Lit>> {
        let (_, forbidden) = &spec.origins.adjacency[rule];
        let mut out = Vec::new();
        for &(d, a, b) in forbidden.iter().filter(|t| matches!(t.0, Dir::E | Dir::S)) {
            for c in 0..spec.cells() {
                if let Some(e) = spec.neighbour(c, d) {
                    out.push(vec![!m.tile_lit(c, a), !m.tile_lit(e, b)]);
                }
            }
        }
        out
    }
}

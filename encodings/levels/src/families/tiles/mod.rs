//! Exactly one tile per cell, and the cell domains.
//!
//! Exactly-one is pairwise: `t` binary clauses `¬a ∨ ¬b` plus one clause `⋁ a` per cell. With
//! the few tiles a level has (5 in the dungeon: 10 binaries) pairwise beats a counter (the
//! crate's measured threshold is 7 literals, `card::THRESHOLDS_AT_MOST`) and propagates best.
//! Tiles the domain excludes (mask, pins, `allowed`) get a unit `¬a` and drop out of the
//! clauses, so a pinned cell costs one unit per excluded tile and nothing else.
//!
//! The family is this file and `rule.rs` (the `tiles` list and the domains' reading). Its
//! rules in a clash are the domain restrictions one by one — a mask row's character, a pin,
//! an `allowed` entry — which the reader merged into `GridSpec::domains` and kept apart in
//! `GridSpec::origins` for the diagnosis.

pub(crate) mod rule;

use crate::error::GridError;
use crate::family::{Family, Pass, Reading, Switch};
use crate::model::GridModel;
use crate::spec::reader::required;
use crate::spec::{GridSpec, RuleRef};
use grim_solver::Lit;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Tiles;

impl Family for Tiles {
    fn fields(&self) -> &'static [&'static str] {
        &["tiles", "mask", "pins", "allowed"]
    }

    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError> {
        match at.pass {
            Pass::Names => rule::read_tiles(at.reader, required(at.doc, "", "tiles")?),
            Pass::Tables => Ok(()),
            Pass::Rules => {
                let (domains, origins) = rule::read_domains(at.reader, at.doc)?;
                at.spec.domains = domains;
                at.spec.origins.domain = origins;
                Ok(())
            }
        }
    }

    /// Emits the exactly-one clauses and the domain units of every cell.
    fn encode(&self, m: &mut GridModel) {
        let t = m.spec.tiles.len();
        for c in 0..m.spec.cells() {
            let mut allowed = Vec::with_capacity(t);
            for a in 0..t {
                let lit = m.tile_lit(c, a);
                if m.spec.domains[c][a] {
                    allowed.push(lit);
                } else {
                    m.problem.add_clause(&[!lit], None);
                }
            }
            m.problem.add_clause(&allowed, None);
            for i in 0..allowed.len() {
                for j in i + 1..allowed.len() {
                    m.problem.add_clause(&[!allowed[i], !allowed[j]], None);
                }
            }
        }
    }

    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        (spec.origins.domain.iter().enumerate())
            .map(|(i, (rule, _, _))| (rule.clone(), Switch::Own(i)))
            .collect()
    }

    fn open(&self, spec: &mut GridSpec) {
        for d in &mut spec.domains {
            d.fill(true);
        }
    }

    /// A restriction excludes the tiles it does not leave the cell: `¬tile` for each.
    fn own_clauses(&self, spec: &GridSpec, m: &GridModel, rule: usize) -> Vec<Vec<Lit>> {
        let (_, c, allowed) = &spec.origins.domain[rule];
        (0..spec.tiles.len())
            .filter(|&a| !allowed[a])
            .map(|a| vec![!m.tile_lit(*c, a)])
            .collect()
    }
}

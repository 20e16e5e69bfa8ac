//! The connectivity family: `connectivity[i]`, every cell of a class reachable from a root
//! through cells of the class (4-neighbour). Sound and complete in every mode: no
//! disconnected level is returned, no connected one is lost.
//!
//! - `rule.rs`: [`rule::ConnectivityRule`] and its reading (the root check is below: it needs
//!   the domains).
//! - `encode.rs`: the clauses — the root pinned to the class in every model, the founded
//!   encoding in the export's, the small-fragment cuts in the cut loop's.
//! - `cuts.rs`: the cut loop's separator cuts and bridges (`solve.rs`'s `Lazy`, and the clash
//!   diagnosis).
//! - `bound.rs`: a lower bound on a soft level's cost from one rule and the adjacency table
//!   (a dynamic program over the grid's rows; `Family::soft_bound`).
//! - `propagate.rs` and `reach.rs`: the part of the grid propagator that refutes a cut-off
//!   class cell during the search (the default solve).

pub(crate) mod rule;

mod bound;
mod cuts;
mod encode;
mod propagate;
mod reach;

use crate::error::GridError;
use crate::family::{Family, LateBound, Pass, Reading, Switch, tagged};
use crate::level::Level;
use crate::model::GridModel;
use crate::spec::problem::FieldProblem;
use crate::spec::reader::{Reader, invalid};
use crate::spec::{GridSpec, RuleRef, RuleTag};
use grim_solver::{Lit, Var};
use rule::NAME;
use std::sync::Arc;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Connectivity;

impl Family for Connectivity {
    fn fields(&self) -> &'static [&'static str] {
        &[NAME]
    }

    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError> {
        at.rules(NAME, rule::read_rule, |spec, rules| {
            spec.connectivity = rules
        })?;
        if at.pass == Pass::Rules {
            root_check(at.reader, at.spec)?;
        }
        Ok(())
    }

    /// The clauses, and every rule left to the grid propagator, in every model: the
    /// propagated solve relies on it, the other models encode the rule and never connect it.
    fn encode(&self, m: &mut GridModel) {
        encode::encode(m);
        if !m.spec.connectivity.is_empty() {
            m.plans.push(Arc::new(propagate::Plan));
        }
    }

    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        tagged(spec, NAME, &["class", "root"], 0..spec.connectivity.len())
    }

    fn cut_lits(&self, m: &GridModel) -> Vec<Lit> {
        encode::class_rules(m)
            .into_iter()
            .flat_map(|(lits, _)| lits)
            .collect()
    }

    fn cuts(&self, m: &GridModel, level: &Level) -> Vec<(RuleTag, Vec<Lit>)> {
        let mut out = Vec::new();
        for (i, (rule, (lits, root))) in m
            .spec
            .connectivity
            .iter()
            .zip(encode::class_rules(m))
            .enumerate()
        {
            let holds: Vec<bool> = level.tiles.iter().map(|&t| rule.class[t]).collect();
            for cut in cuts::cuts(&m.spec, &lits, &holds, root) {
                out.push((RuleTag::new(NAME, i), cut));
            }
        }
        out
    }

    /// On the cells of [`cuts::bridges`], the heaviest tile of the rule's class that the cell
    /// allows true and the cell's other tiles false.
    fn steer_phases(&self, m: &GridModel, level: &Level) -> Vec<Lit> {
        let spec = &m.spec;
        let mut out = Vec::new();
        for rule in &spec.connectivity {
            let holds: Vec<bool> = level.tiles.iter().map(|&t| rule.class[t]).collect();
            let root = rule.root.map(|(x, y)| spec.index(x, y));
            for c in cuts::bridges(spec, &holds, root) {
                let best = (0..spec.tiles.len())
                    .filter(|&a| rule.class[a] && spec.domains[c][a])
                    .max_by_key(|&a| (spec.tiles[a].weight, std::cmp::Reverse(a)));
                let Some(best) = best else { continue };
                for a in 0..spec.tiles.len() {
                    let lit = m.tile_lit(c, a);
                    out.push(if a == best { lit } else { !lit });
                }
            }
        }
        out
    }

    /// The class literals of the bridge cells. Assuming them, not only hinting them, on the
    /// 32x32 dungeon, seeds 1, 3, 5: 1.07, 2.21, 1.13 s CPU against 2.05, 2.63, 1.39 s with the
    /// hints alone.
    fn steer_assumptions(&self, m: &GridModel, level: &Level) -> Vec<Lit> {
        let mut out = Vec::new();
        for (rule, (lits, root)) in m.spec.connectivity.iter().zip(encode::class_rules(m)) {
            let holds: Vec<bool> = level.tiles.iter().map(|&t| rule.class[t]).collect();
            for c in cuts::bridges(&m.spec, &holds, root) {
                out.push(lits[c]);
            }
        }
        out
    }

    /// The least cost of `bound.rs`'s relaxation (one rule with the adjacency table) up to
    /// `cap`, the largest over the rules.
    fn soft_bound_below(
        &self,
        m: &GridModel,
        costs: &[Vec<u64>],
        cap: u64,
        work: &mut u64,
        halt: &dyn Fn() -> bool,
    ) -> Option<LateBound> {
        let spec = &m.spec;
        let mut best: Option<LateBound> = None;
        for rule in &spec.connectivity {
            let relaxation = bound::Relaxation {
                width: spec.width,
                height: spec.height,
                allowed: &spec.domains,
                adjacent: &spec.adjacent,
                class: &rule.class,
                root: rule.root.map(|(x, y)| y * spec.width + x),
                costs,
            };
            if let Some((lower, cells)) = bound::least(&relaxation, cap, work, halt)
                && best.as_ref().is_none_or(|b| lower > b.lower)
            {
                best = Some(LateBound { lower, cells });
            }
        }
        best
    }
}

/// A given root must be able to hold the class: an error naming the restrictions on its cell
/// when the mask, the pins and `allowed` leave it no tile of the class.
fn root_check(reader: &Reader, spec: &GridSpec) -> Result<(), GridError> {
    for (i, rule) in spec.connectivity.iter().enumerate() {
        let Some((x, y)) = rule.root else { continue };
        let c = spec.index(x, y);
        if !spec.domains[c]
            .iter()
            .zip(&rule.class)
            .any(|(&d, &k)| d && k)
        {
            let by: Vec<String> = (spec.origins.domain.iter())
                .filter(|(_, cell, _)| *cell == c)
                .map(|(r, _, _)| r.path.clone())
                .collect();
            let left: Vec<String> = (0..reader.tiles.len())
                .filter(|&a| spec.domains[c][a])
                .map(|a| reader.tiles[a].name.clone())
                .collect();
            return Err(invalid(
                &format!("connectivity[{i}].root"),
                FieldProblem::RootCannotHoldClass {
                    cell: (x, y),
                    by,
                    left,
                },
            ));
        }
    }
    Ok(())
}

/// The separator cuts [`solve`](fn@crate::solve) would add for `spec.connectivity[rule]` on
/// `level`, each a clause over "cell `c` holds the class" literals given as `(c, positive)`.
/// Empty when the rule holds. Exposed for the tests, which check every cut against every
/// connected level.
#[doc(hidden)]
pub fn separator_cuts(spec: &GridSpec, rule: usize, level: &Level) -> Vec<Vec<(usize, bool)>> {
    let Some(r) = spec.connectivity.get(rule) else {
        return Vec::new();
    };
    let lits: Vec<Lit> = (0..spec.cells())
        .map(|c| Var::new(c as u32).unwrap_or_default().pos())
        .collect();
    let holds: Vec<bool> = level
        .tiles
        .iter()
        .map(|&t| r.class.get(t).copied().unwrap_or(false))
        .collect();
    if holds.len() != spec.cells() {
        return Vec::new();
    }
    let root = r.root.map(|(x, y)| spec.index(x, y));
    cuts::cuts(spec, &lits, &holds, root)
        .into_iter()
        .map(|c| {
            c.into_iter()
                .map(|l| (l.var().index(), l.is_positive()))
                .collect()
        })
        .collect()
}

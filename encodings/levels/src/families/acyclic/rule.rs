//! The acyclic family's part of `grid.json`: [`AcyclicRule`] and its reading.

use crate::families::counts::rule::region_or_grid;
use crate::spec::reader::{R, Reader, join, object, required, weight};
use crate::spec::vocab::{Region, TileSet};
use serde_json::Value;

/// The family's name: the field of `grid.json` its rules are listed under.
pub(crate) const NAME: &str = "acyclic";

/// `acyclic[i]`: the `class` cells of the region, joined by their 4-neighbour edges inside the
/// region, form a forest — no cycle (a 2×2 block of class cells is the smallest). With a
/// connectivity rule on the same class, a tree: a perfect maze.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AcyclicRule {
    /// The cells that must not close a loop.
    pub class: TileSet,
    /// The cells the rule looks at (the whole grid by default); an edge counts only when both
    /// its cells lie in the region.
    pub region: Region,
    /// `None`: hard; `Some(w)`: a wish costing `w` when the class has a cycle.
    pub weight: Option<u64>,
}

pub(crate) fn read_rule(reader: &Reader, v: &Value, path: &str) -> R<AcyclicRule> {
    let m = object(v, path, &["class", "region", "weight"])?;
    let class = reader.tile_sets(required(m, path, "class")?, &join(path, "class"))?;
    Ok(AcyclicRule {
        class,
        region: region_or_grid(reader, m, path)?,
        weight: weight(m, path)?,
    })
}

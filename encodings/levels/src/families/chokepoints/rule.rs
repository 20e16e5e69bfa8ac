//! The chokepoints family's part of `grid.json`: [`ChokepointRule`] and its reading.

use crate::families::counts::rule::region_or_grid;
use crate::spec::problem::{Expected, FieldProblem};
use crate::spec::reader::{R, Reader, field, invalid, join, object, required, uint, weight, wrong};
use crate::spec::vocab::{Region, TileSet};
use serde_json::Value;

/// The family's name: the field of `grid.json` its rules are listed under.
pub(crate) const NAME: &str = "chokepoints";

/// `chokepoints[i]`: the number of **articulation cells** of the `class` cells of the region
/// (cells whose removal leaves more connected pieces of the class than before, in the graph of
/// 4-neighbour edges inside the region) lies between `min` and `max`; with `loop`, no
/// articulation cell and every class cell on a cycle of class cells (DeBroglie's Loop).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChokepointRule {
    /// The cells whose graph is looked at.
    pub class: TileSet,
    /// At least this many articulation cells (0 when absent).
    pub min: u64,
    /// At most this many (`None`: no ceiling; `Some(0)` with `loop`).
    pub max: Option<u64>,
    /// `loop: true`: `max` 0 and no class cell off every cycle — which, without articulation
    /// cells, means no piece of the class of one or two cells.
    pub on_loop: bool,
    /// The cells the rule looks at (the whole grid by default).
    pub region: Region,
    /// Present ⇒ soft: a level that breaks the rule (its bounds, or `loop`) pays this once.
    pub weight: Option<u64>,
}

pub(crate) fn read_rule(reader: &Reader, v: &Value, path: &str) -> R<ChokepointRule> {
    let m = object(
        v,
        path,
        &["class", "min", "max", "loop", "region", "weight"],
    )?;
    let class = reader.tile_sets(required(m, path, "class")?, &join(path, "class"))?;
    let number = |k: &str| {
        field(m, k)
            .map(|b| uint(b, &join(path, k), Expected::WholeNumber))
            .transpose()
    };
    let (min, max) = (number("min")?, number("max")?);
    let on_loop = match field(m, "loop") {
        None => false,
        Some(b) => b
            .as_bool()
            .ok_or_else(|| wrong(&join(path, "loop"), b, Expected::Boolean))?,
    };
    if on_loop {
        if min.unwrap_or(0) > 0 || max.unwrap_or(0) > 0 {
            return Err(invalid(path, FieldProblem::LoopWithBounds));
        }
    } else if min.is_none() && max.is_none() {
        return Err(invalid(path, FieldProblem::NeedsMinOrMax));
    }
    if let (Some(lo), Some(hi)) = (min, max)
        && lo > hi
    {
        return Err(invalid(
            path,
            FieldProblem::MinAboveMax {
                min: lo.to_string(),
                max: hi.to_string(),
                cells: None,
            },
        ));
    }
    Ok(ChokepointRule {
        class,
        min: min.unwrap_or(0),
        max: if on_loop { Some(0) } else { max },
        on_loop,
        region: region_or_grid(reader, m, path)?,
        weight: weight(m, path)?,
    })
}

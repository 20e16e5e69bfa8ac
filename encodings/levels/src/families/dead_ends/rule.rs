//! The dead-ends family's part of `grid.json`: [`DeadEndRule`] and its reading.

use crate::spec::problem::{Expected, FieldProblem};
use crate::spec::reader::{R, Reader, field, invalid, join, object, required, uint, weight};
use crate::spec::vocab::TileSet;
use serde_json::Value;

/// The family's name: the field of `grid.json` its rules are listed under.
pub(crate) const NAME: &str = "dead_ends";

/// `dead_ends[i]`: the number of `class` cells with exactly one 4-neighbour in the class lies
/// between `min` and `max` (`max: 0`: no dead ends).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadEndRule {
    /// The cells whose dead ends are counted.
    pub class: TileSet,
    /// At least this many dead ends (0 when absent).
    pub min: u64,
    /// At most this many (`None`: no ceiling).
    pub max: Option<u64>,
    /// `None`: hard; `Some(w)`: a wish costing `w` when the count is outside the bounds.
    pub weight: Option<u64>,
}

pub(crate) fn read_rule(reader: &Reader, v: &Value, path: &str) -> R<DeadEndRule> {
    let m = object(v, path, &["class", "min", "max", "weight"])?;
    let class = reader.tile_sets(required(m, path, "class")?, &join(path, "class"))?;
    let number = |k: &str| {
        field(m, k)
            .map(|b| uint(b, &join(path, k), Expected::WholeNumber))
            .transpose()
    };
    let (min, max) = (number("min")?, number("max")?);
    if min.is_none() && max.is_none() {
        return Err(invalid(path, FieldProblem::NeedsMinOrMax));
    }
    Ok(DeadEndRule {
        class,
        min: min.unwrap_or(0),
        max,
        weight: weight(m, path)?,
    })
}

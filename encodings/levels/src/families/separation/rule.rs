//! The separation family's part of `grid.json`: [`SeparationRule`] and its reading.

use crate::spec::problem::{Expected, FieldProblem};
use crate::spec::reader::{R, Reader, field, invalid, join, object, required, weight, wrong};
use crate::spec::vocab::{MAX_SEPARATION_PAIRS, Selection, TileSet};
use serde_json::Value;

/// The family's name: the field of `grid.json` its rules are listed under.
pub(crate) const NAME: &str = "separation";

/// `separation[i]`: any two distinct cells holding `of` are at least `min_distance` apart
/// (Manhattan distance `|x − x'| + |y − y'|`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeparationRule {
    /// What must be kept apart.
    pub of: Selection,
    /// The least distance between two cells of `of`, ≥ 1 (1 holds always).
    pub min_distance: usize,
    /// `None`: hard; `Some(w)`: a wish costing `w` when any two cells are closer.
    pub weight: Option<u64>,
    /// `None`: Manhattan distance; `Some(class)`: walking distance, the fewest 4-neighbour
    /// steps of a walk whose inner cells hold the class (`"metric": "walk"`).
    pub through: Option<TileSet>,
}

/// The number of unordered pairs of cells of a `width × height` grid closer than `d`, bounded
/// above by `cells · d · (d − 1)` (a cell has `2r` cells at distance `r` on each side of it).
fn pairs_bound(width: usize, height: usize, d: u64) -> u64 {
    ((width * height) as u64).saturating_mul(d.saturating_mul(d.saturating_sub(1)))
}

pub(crate) fn read_rule(reader: &Reader, v: &Value, path: &str) -> R<SeparationRule> {
    let m = object(
        v,
        path,
        &["of", "min_distance", "weight", "metric", "through"],
    )?;
    let of = reader.selection(required(m, path, "of")?, &join(path, "of"))?;
    let dp = join(path, "min_distance");
    let dv = required(m, path, "min_distance")?;
    let d = match dv.as_u64() {
        Some(n) if n >= 1 => n,
        _ => return Err(wrong(&dp, dv, Expected::AtLeast(1))),
    };
    // Two cells are at most `width + height − 2` apart: a larger distance means "at most one".
    let through = match field(m, "metric") {
        None => None,
        Some(Value::String(s)) if s == "manhattan" => None,
        Some(Value::String(s)) if s == "walk" => {
            Some(reader.tile_sets(required(m, path, "through")?, &join(path, "through"))?)
        }
        Some(other) => return Err(wrong(&join(path, "metric"), other, Expected::Metric)),
    };
    if through.is_none()
        && let Some(t) = field(m, "through")
    {
        return Err(wrong(&join(path, "through"), t, Expected::Metric));
    }
    // Manhattan: two cells are at most `width + height − 2` apart, so a larger distance means
    // "at most one". Walking: a walk never repeats a cell, so `cells` is as good as infinite.
    let d = match through {
        None => d.min((reader.width + reader.height - 1) as u64),
        Some(_) => d.min((reader.width * reader.height) as u64),
    };
    // The walking export spells out distance layers from every cell: about `d` times the pairs.
    let pairs = match through {
        None => pairs_bound(reader.width, reader.height, d),
        Some(_) => pairs_bound(reader.width, reader.height, d).saturating_mul(d),
    };
    if pairs > MAX_SEPARATION_PAIRS {
        return Err(invalid(
            &dp,
            FieldProblem::SeparationTooLarge { distance: d, pairs },
        ));
    }
    Ok(SeparationRule {
        of,
        min_distance: d as usize,
        weight: weight(m, path)?,
        through,
    })
}

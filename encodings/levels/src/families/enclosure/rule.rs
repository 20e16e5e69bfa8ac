//! The enclosure family's part of `grid.json`: [`EnclosureRule`] and its reading.

use crate::spec::problem::FieldProblem;
use crate::spec::reader::{R, Reader, bound, field, invalid, join, object, required, weight};
use crate::spec::vocab::{Bound, TileSet};
use serde_json::Value;

/// The family's name: the field of `grid.json` its rules are listed under.
pub(crate) const NAME: &str = "enclosure";

/// `enclosure[i]`: at least `min` of the `class` cells cannot be reached from the border
/// through `open` cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnclosureRule {
    /// The cells that should be sealed off.
    pub class: TileSet,
    /// The cells one can walk through.
    pub open: TileSet,
    /// An absolute number of sealed cells, or a fraction of the class's count.
    pub min: Bound,
    /// `None`: hard; `Some(w)`: a wish.
    pub weight: Option<u64>,
}

pub(crate) fn read_rule(reader: &Reader, v: &Value, path: &str) -> R<EnclosureRule> {
    let m = object(v, path, &["class", "open", "min", "max", "weight"])?;
    if field(m, "max").is_some() {
        return Err(invalid(&join(path, "max"), FieldProblem::EnclosureCeiling));
    }
    let class = reader.tile_sets(required(m, path, "class")?, &join(path, "class"))?;
    let open = reader.tile_sets(required(m, path, "open")?, &join(path, "open"))?;
    let min = bound(required(m, path, "min")?, &join(path, "min"), false)?;
    Ok(EnclosureRule {
        class,
        open,
        min,
        weight: weight(m, path)?,
    })
}

//! The paths family's part of `grid.json`: [`PathRule`], [`Endpoint`] and their reading.

use crate::spec::problem::{Expected, FieldProblem};
use crate::spec::reader::{R, Reader, field, invalid, join, object, required, uint, wrong};
use crate::spec::vocab::{MAX_PATH_LAYERS, Selection, TileSet};
use serde_json::Value;

/// The family's name: the field of `grid.json` its rules are listed under.
pub(crate) const NAME: &str = "paths";

/// A path endpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// One cell `(x, y)`.
    Cell(usize, usize),
    /// Any cell holding the selection.
    Select(Selection),
}

/// `paths[i]`: a 4-neighbour walk from a `from` cell to a `to` cell whose cells strictly
/// between the two ends hold `through`, of at most `max_length` steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathRule {
    /// Start.
    pub from: Endpoint,
    /// End.
    pub to: Endpoint,
    /// What the cells between the ends must hold.
    pub through: TileSet,
    /// Maximum number of steps (`None`: unbounded).
    pub max_length: Option<usize>,
}

pub(crate) fn endpoint(reader: &Reader, v: &Value, path: &str) -> R<Endpoint> {
    match v {
        Value::Object(_) => {
            let (x, y) = reader.cell(v, path)?;
            Ok(Endpoint::Cell(x, y))
        }
        Value::String(_) => Ok(Endpoint::Select(reader.selection(v, path)?)),
        _ => Err(wrong(path, v, Expected::Endpoint)),
    }
}

pub(crate) fn read_rule(reader: &Reader, v: &Value, path: &str) -> R<PathRule> {
    let m = object(v, path, &["from", "to", "through", "max_length"])?;
    let from = endpoint(reader, required(m, path, "from")?, &join(path, "from"))?;
    let to = endpoint(reader, required(m, path, "to")?, &join(path, "to"))?;
    let through = reader.tile_sets(required(m, path, "through")?, &join(path, "through"))?;
    let cells = reader.width * reader.height;
    let max_length = match field(m, "max_length") {
        Some(l) => {
            let lp = join(path, "max_length");
            let n = uint(l, &lp, Expected::Steps)?;
            // A shortest walk never takes more than cells − 1 steps: longer is unbounded.
            if n >= cells as u64 {
                None
            } else if (n as usize).saturating_mul(cells) > MAX_PATH_LAYERS {
                return Err(invalid(&lp, FieldProblem::PathTooLong { steps: n, cells }));
            } else {
                Some(n as usize)
            }
        }
        None => None,
    };
    Ok(PathRule {
        from,
        to,
        through,
        max_length,
    })
}

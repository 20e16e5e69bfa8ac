//! The connectivity family's part of `grid.json`: [`ConnectivityRule`] and its reading (the
//! check that a given root can hold the class needs the domains, and is in `mod.rs`).

use crate::spec::problem::Expected;
use crate::spec::reader::{R, Reader, field, join, object, required, wrong};
use crate::spec::vocab::TileSet;
use serde_json::Value;

/// The family's name: the field of `grid.json` its rules are listed under.
pub(crate) const NAME: &str = "connectivity";

/// `connectivity[i]`: every `class` cell is reachable from the root through `class` cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectivityRule {
    /// The cells that must form one 4-connected component.
    pub class: TileSet,
    /// `Some((x, y))`: that cell is the root and must hold the class; `None`: any.
    pub root: Option<(usize, usize)>,
}

pub(crate) fn read_rule(reader: &Reader, v: &Value, path: &str) -> R<ConnectivityRule> {
    let m = object(v, path, &["class", "root"])?;
    let class = reader.tile_sets(required(m, path, "class")?, &join(path, "class"))?;
    let root = match field(m, "root") {
        None => None,
        Some(Value::String(s)) if s == "any" => None,
        Some(r @ Value::Object(_)) => Some(reader.cell(r, &join(path, "root"))?),
        Some(r) => {
            return Err(wrong(&join(path, "root"), r, Expected::Root));
        }
    };
    Ok(ConnectivityRule { class, root })
}

//! The read stage: `grid.json` text into a [`GridSpec`], each family reading its own fields
//! ([`Family::read`](crate::family::Family::read)) in three passes over the table
//! (`families/mod.rs`): the names (tiles, layers), the tables over pairs of tiles (adjacency), then
//! the cell rules and the global rules. A later pass may resolve what an earlier one read; within a
//! pass the table's order holds, so a file with several mistakes is told the same first one as it
//! always was.

use crate::error::GridError;
use crate::families::FAMILIES;
use crate::family::{Pass, Reading};
use crate::spec::GridSpec;
use crate::spec::problem::JsonProblem;
use crate::spec::reader::{R, Reader, object};
use serde_json::Value;

/// The top-level fields of `grid.json`, in `FORMAT.md`'s order: the order in which the message
/// for an unknown field lists them. Written out rather than gathered from the families, whose
/// order is the encoding's, so that the message stays as it was; a test checks that it is
/// exactly the families' fields and the document's own.
const FIELDS: &[&str] = &[
    "width",
    "height",
    "tiles",
    "adjacency",
    "layers",
    "mask",
    "pins",
    "allowed",
    "counts",
    "enclosure",
    "connectivity",
    "paths",
    "runs",
    "dead_ends",
    "separation",
    "symmetry",
    "acyclic",
    "chokepoints",
    "locks",
    "preferences",
    "comment",
];

impl GridSpec {
    /// Reads and validates `grid.json` text. Errors name the field path and the offending
    /// value, or the line and column of a JSON syntax error.
    pub fn from_json(text: &str) -> Result<GridSpec, GridError> {
        let value: Value = serde_json::from_str(text).map_err(|e| GridError::Syntax {
            line: e.line().max(1),
            column: e.column().max(1),
            problem: JsonProblem::classify(&e),
        })?;
        read(&value)
    }
}

/// The document `v`, read by every family, pass by pass.
fn read(v: &Value) -> R<GridSpec> {
    debug_assert!(
        FAMILIES
            .iter()
            .flat_map(|f| f.fields())
            .all(|k| FIELDS.contains(k)),
        "a family reads a field FIELDS does not list"
    );
    let doc = object(v, "", FIELDS)?;
    let mut reader = Reader::default();
    reader.width = reader.side(doc, "width")?;
    reader.height = reader.side(doc, "height")?;
    let mut spec = GridSpec::blank(reader.width, reader.height, v);
    for pass in [Pass::Names, Pass::Tables, Pass::Rules] {
        let mut at = Reading {
            pass,
            reader: &mut reader,
            doc,
            spec: &mut spec,
        };
        for family in FAMILIES {
            family.read(&mut at)?;
        }
    }
    spec.tiles = reader.tiles;
    spec.layers = reader.layers;
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_known_fields_are_the_families_fields_and_the_documents_own() {
        let mut known: Vec<&str> = FIELDS.to_vec();
        // The fields that belong to no family: the grid's size, and a comment.
        let mut listed: Vec<&str> = vec!["width", "height", "comment"];
        for family in FAMILIES {
            listed.extend_from_slice(family.fields());
        }
        known.sort_unstable();
        listed.sort_unstable();
        assert_eq!(known, listed, "FIELDS against the families' fields");
    }
}

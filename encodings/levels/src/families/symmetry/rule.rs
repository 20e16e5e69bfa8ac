//! The symmetry family's part of `grid.json`: [`SymmetryRule`] and its reading.

use crate::families::counts::rule::region_or_grid;
use crate::spec::problem::{Expected, FieldProblem};
use crate::spec::reader::{
    R, Reader, field, invalid, join, object, required, string, weight, wrong,
};
use crate::spec::vocab::Region;
use serde_json::Value;

/// The family's name: the field of `grid.json` its rules are listed under.
pub(crate) const NAME: &str = "symmetry";

/// Which map of the region onto itself the level is invariant under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymmetryKind {
    /// Mirrored across the vertical axis: `(x, y)` ↔ `(W − 1 − x, y)` in region coordinates.
    Vertical,
    /// Mirrored across the horizontal axis: `(x, y)` ↔ `(x, H − 1 − y)`.
    Horizontal,
    /// A half turn: `(x, y)` ↔ `(W − 1 − x, H − 1 − y)`.
    Rotate180,
    /// A quarter turn (square regions only): `(x, y)` → `(W − 1 − y, x)`.
    Rotate90,
}

/// `symmetry[i]`: every cell of the region holds the same tile (and, with `layer`, the same
/// value of that layer) as its image under `kind`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymmetryRule {
    /// The map.
    pub kind: SymmetryKind,
    /// The cells it maps (the whole grid by default), in the region's own coordinates.
    pub region: Region,
    /// A layer whose values are mirrored too (its index).
    pub layer: Option<usize>,
    /// `None`: hard; `Some(w)`: a wish costing `w` when any cell differs from its image.
    pub weight: Option<u64>,
}

impl SymmetryRule {
    /// The image of cell `(x, y)` of the region (grid coordinates in and out).
    pub fn image(&self, x: usize, y: usize) -> (usize, usize) {
        let r = self.region;
        let (lx, ly) = (x - r.x, y - r.y);
        let (ix, iy) = match self.kind {
            SymmetryKind::Vertical => (r.w - 1 - lx, ly),
            SymmetryKind::Horizontal => (lx, r.h - 1 - ly),
            SymmetryKind::Rotate180 => (r.w - 1 - lx, r.h - 1 - ly),
            SymmetryKind::Rotate90 => (r.w - 1 - ly, lx),
        };
        (r.x + ix, r.y + iy)
    }
}

pub(crate) fn read_rule(reader: &Reader, v: &Value, path: &str) -> R<SymmetryRule> {
    let m = object(v, path, &["kind", "region", "layer", "weight"])?;
    let kp = join(path, "kind");
    let kv = required(m, path, "kind")?;
    let kind = match kv.as_str() {
        Some("vertical") => SymmetryKind::Vertical,
        Some("horizontal") => SymmetryKind::Horizontal,
        Some("rotate_180") => SymmetryKind::Rotate180,
        Some("rotate_90") => SymmetryKind::Rotate90,
        _ => return Err(wrong(&kp, kv, Expected::SymmetryKind)),
    };
    let region = region_or_grid(reader, m, path)?;
    if kind == SymmetryKind::Rotate90 && region.w != region.h {
        return Err(invalid(
            &kp,
            FieldProblem::QuarterTurnNeedsSquare {
                width: region.w,
                height: region.h,
            },
        ));
    }
    let layer = match field(m, "layer") {
        None => None,
        Some(l) => {
            let lp = join(path, "layer");
            let name = string(l, &lp)?;
            match reader.layers.iter().position(|x| x.name == name) {
                Some(i) => Some(i),
                None => {
                    return Err(invalid(
                        &lp,
                        FieldProblem::NoSuchLayer {
                            value: crate::spec::reader::show(l),
                            layer: name.to_string(),
                        },
                    ));
                }
            }
        }
    };
    Ok(SymmetryRule {
        kind,
        region,
        layer,
        weight: weight(m, path)?,
    })
}

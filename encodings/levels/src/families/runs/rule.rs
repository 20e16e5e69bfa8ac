//! The runs family's part of `grid.json`: [`RunRule`] and its reading.

use crate::families::counts::rule::region_or_grid;
use crate::spec::problem::Expected;
use crate::spec::reader::{R, Reader, field, join, object, required, weight, wrong};
use crate::spec::vocab::{Region, Selection};
use serde_json::Value;

/// The family's name: the field of `grid.json` its rules are listed under.
pub(crate) const NAME: &str = "runs";

/// Along which lines a run is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunAxis {
    /// Along rows only (west to east).
    Row,
    /// Along columns only (north to south).
    Column,
    /// Along both.
    Both,
}

impl RunAxis {
    /// Whether runs along rows are bounded.
    pub fn rows(self) -> bool {
        matches!(self, RunAxis::Row | RunAxis::Both)
    }

    /// Whether runs along columns are bounded.
    pub fn columns(self) -> bool {
        matches!(self, RunAxis::Column | RunAxis::Both)
    }
}

/// `runs[i]`: no more than `max` consecutive cells of `of` along a row and/or a column of the
/// region (DeBroglie's MaxConsecutive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunRule {
    /// What a run is made of.
    pub of: Selection,
    /// The longest run allowed, ≥ 1.
    pub max: usize,
    /// Rows, columns or both.
    pub axis: RunAxis,
    /// The cells whose runs are measured (the whole grid by default); a run is cut at the
    /// region's edge.
    pub region: Region,
    /// `None`: hard; `Some(w)`: a wish costing `w` when any run is too long.
    pub weight: Option<u64>,
}

pub(crate) fn read_rule(reader: &Reader, v: &Value, path: &str) -> R<RunRule> {
    let m = object(v, path, &["of", "max", "axis", "region", "weight"])?;
    let of = reader.selection(required(m, path, "of")?, &join(path, "of"))?;
    let max_path = join(path, "max");
    let max_v = required(m, path, "max")?;
    let limit = (reader.width.max(reader.height)) as u64;
    let max = match max_v.as_u64() {
        Some(n) if n >= 1 => n.min(limit) as usize,
        _ => return Err(wrong(&max_path, max_v, Expected::AtLeast(1))),
    };
    let axis = match field(m, "axis") {
        None => RunAxis::Both,
        Some(a) => match a.as_str() {
            Some("row") => RunAxis::Row,
            Some("column") => RunAxis::Column,
            Some("both") => RunAxis::Both,
            _ => return Err(wrong(&join(path, "axis"), a, Expected::RunAxis)),
        },
    };
    let region = region_or_grid(reader, m, path)?;
    Ok(RunRule {
        of,
        max,
        axis,
        region,
        weight: weight(m, path)?,
    })
}

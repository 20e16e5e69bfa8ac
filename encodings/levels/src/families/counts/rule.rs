//! The counts family's part of `grid.json`: [`CountRule`] and its reading.

use crate::spec::problem::{Expected, FieldProblem};
use crate::spec::reader::{
    R, Reader, bound, field, invalid, join, object, required, uint, weight, wrong,
};
use crate::spec::vocab::{Bound, Region, Selection};
use serde_json::{Map, Value};

/// The family's name: the field of `grid.json` its rules are listed under.
pub(crate) const NAME: &str = "counts";

/// `counts[i]`: how many cells of a selection, absolute, as a ratio of a region, or as a ratio
/// of another selection's count (`per`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountRule {
    /// What is counted.
    pub of: Selection,
    /// With `per`, the bounds are fractions of this selection's count in the same region.
    pub per: Option<Selection>,
    /// The cells counted (the whole grid by default).
    pub region: Region,
    /// Lower bound (`None`: 0).
    pub min: Option<Bound>,
    /// Upper bound (`None`: no upper bound).
    pub max: Option<Bound>,
    /// `None`: hard; `Some(w)`: a wish costing `w` when broken.
    pub weight: Option<u64>,
}

impl CountRule {
    /// Whether the bounds cross, which no count can meet: `None` when they do not (or one is
    /// absent); `Some(Some((cells, min, max)))` for a count of a region, its bounds rounded to
    /// cells (`min` up, `max` down); `Some(None)` for a ratio of another count (`per`), whose
    /// two fractions are compared as written. The reader refuses such a count, and the
    /// presolve says the same of a spec built in code.
    pub(crate) fn crossing(&self) -> Option<Option<(u64, u64, u64)>> {
        let (lo, hi) = (self.min?, self.max?);
        match self.per {
            Some(_) => {
                let ((a, b), (c, d)) = (lo.fraction(), hi.fraction());
                ((a as u128) * (d as u128) > (c as u128) * (b as u128)).then_some(None)
            }
            None => {
                let n = self.region.cells() as u64;
                let (l, h) = (lo.lower(n), hi.upper(n));
                (l > h).then_some(Some((n, l, h)))
            }
        }
    }
}

/// The rule's `region` field at `path`, or the whole grid when it is absent.
pub(crate) fn region_or_grid(reader: &Reader, m: &Map<String, Value>, path: &str) -> R<Region> {
    match field(m, "region") {
        Some(r) => region(reader, r, &join(path, "region")),
        None => Ok(Region {
            x: 0,
            y: 0,
            w: reader.width,
            h: reader.height,
        }),
    }
}

pub(crate) fn region(reader: &Reader, v: &Value, path: &str) -> R<Region> {
    let m = object(v, path, &["x", "y", "w", "h"])?;
    let get = |k: &str| uint(required(m, path, k)?, &join(path, k), Expected::WholeNumber);
    let (x, y, w, h) = (get("x")?, get("y")?, get("w")?, get("h")?);
    if w == 0
        || h == 0
        || x.saturating_add(w) > reader.width as u64
        || y.saturating_add(h) > reader.height as u64
    {
        return Err(wrong(
            path,
            v,
            Expected::Rectangle {
                width: reader.width,
                height: reader.height,
            },
        ));
    }
    Ok(Region {
        x: x as usize,
        y: y as usize,
        w: w as usize,
        h: h as usize,
    })
}

pub(crate) fn read_rule(reader: &Reader, v: &Value, path: &str) -> R<CountRule> {
    let m = object(v, path, &["of", "per", "region", "min", "max", "weight"])?;
    let of = reader.selection(required(m, path, "of")?, &join(path, "of"))?;
    let per = match field(m, "per") {
        Some(p) => Some(reader.selection(p, &join(path, "per"))?),
        None => None,
    };
    let region = region_or_grid(reader, m, path)?;
    let ratio_only = per.is_some();
    let min = match field(m, "min") {
        Some(b) => Some(bound(b, &join(path, "min"), ratio_only)?),
        None => None,
    };
    let max = match field(m, "max") {
        Some(b) => Some(bound(b, &join(path, "max"), ratio_only)?),
        None => None,
    };
    if min.is_none() && max.is_none() {
        return Err(invalid(path, FieldProblem::NeedsMinOrMax));
    }
    let mut rule = CountRule {
        of,
        per,
        region,
        min,
        max,
        weight: None,
    };
    // Bounds that cross (once rounded to cells: `floor` 0.9 to 0.6, or 0.34 to 0.36 of two
    // cells) are a mistake in the file, not a level to search for: say so here, naming the
    // rule, rather than answer "no level" after a solve.
    if let Some(cells) = rule.crossing() {
        let shown = |k: &str| field(m, k).map(|v| v.to_string()).unwrap_or_default();
        return Err(invalid(
            path,
            FieldProblem::MinAboveMax {
                min: shown("min"),
                max: shown("max"),
                cells,
            },
        ));
    }
    rule.weight = weight(m, path)?;
    Ok(rule)
}

/// The bounds `[lo, hi]` of a count without `per` over `n` literals (ratios of the region
/// rounded inwards; `hi` at most `n`).
pub(super) fn bounds(rule: &CountRule, n: usize) -> (usize, usize) {
    let base = rule.region.cells() as u64;
    let lo = to_usize(rule.min.map_or(0, |b| b.lower(base)));
    let hi = to_usize(rule.max.map_or(u64::MAX, |b| b.upper(base))).min(n);
    (lo, hi)
}

fn to_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

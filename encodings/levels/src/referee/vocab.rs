//! The referee's reading of the level-vocabulary rules of issue 42 (`runs`, `dead_ends`, `separation`, `symmetry`), each judged
//! from `FORMAT.md` with code of its own, like the rest of the referee (`mod.rs` says why).
//! Kept apart from `mod.rs` only so that the families added here touch it in one place (the
//! list of rules that may be soft, [`Doc::weighable`]).

use super::verdict::Finding;
use super::{Doc, Judged, Rule, broken, get, unreadable};
use crate::level::Level;
use crate::referee::verdict::Violation;
use serde_json::Value;

impl<'a> Doc<'a> {
    /// A whole-number field of the rule.
    fn whole(&self, rule: Rule, key: &str) -> Result<u64, Violation> {
        let (v, at) = rule.field(key)?;
        v.as_u64().ok_or_else(|| unreadable(at))
    }

    /// Runs: walking each row of the region west to east (each column north to south), count
    /// consecutive cells holding `of`; the longest run must not exceed `max`.
    pub(super) fn runs(&self, rule: Rule, level: &Level) -> Result<Judged, Violation> {
        let path = rule.path();
        let (of, at) = rule.field("of")?;
        let of = self.pick(of, &at)?;
        let max = self.whole(rule, "max")?;
        let (rows, columns) = match get(rule.map, "axis").map(Value::as_str) {
            None | Some(Some("both")) => (true, true),
            Some(Some("row")) => (true, false),
            Some(Some("column")) => (false, true),
            Some(_) => return Err(unreadable(format!("{path}.axis"))),
        };
        let (x0, y0, w, h) = self.rect(rule)?;
        let mut lines: Vec<(bool, Vec<usize>)> = Vec::new();
        if rows {
            for y in y0..y0 + h {
                lines.push((false, (x0..x0 + w).map(|x| y * self.width + x).collect()));
            }
        }
        if columns {
            for x in x0..x0 + w {
                lines.push((true, (y0..y0 + h).map(|y| y * self.width + x).collect()));
            }
        }
        let mut worst: Option<(u64, usize, bool)> = None;
        for (vertical, line) in &lines {
            let mut run = 0u64;
            for (i, &c) in line.iter().enumerate() {
                if self.picks(&of, level, c) {
                    run += 1;
                    if run > max && worst.is_none_or(|(l, _, _)| run > l) {
                        // The run's first cell names it.
                        worst = Some((run, line[i + 1 - run as usize], *vertical));
                    }
                } else {
                    run = 0;
                }
            }
        }
        Ok(Judged {
            soft: get(rule.map, "weight").is_some(),
            broken: worst.map(|(length, c, vertical)| {
                broken(
                    path,
                    Some(self.xy(c)),
                    Finding::LongRun {
                        length,
                        max,
                        vertical,
                    },
                )
            }),
        })
    }

    /// Dead ends: class cells with exactly one of their four neighbours in the class, counted
    /// against `min` (0 when absent) and `max`.
    pub(super) fn dead_ends(&self, rule: Rule, level: &Level) -> Result<Judged, Violation> {
        let path = rule.path();
        let class = self.tiles_of(rule, "class")?;
        let member = |c: usize| class[level.tiles[c]];
        let ends: Vec<usize> = (0..self.cells())
            .filter(|&c| member(c) && self.around(c).filter(|&d| member(d)).count() == 1)
            .collect();
        let bound = |k: &str| match get(rule.map, k) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| unreadable(format!("{path}.{k}"))),
        };
        let (min, max) = (bound("min")?.unwrap_or(0), bound("max")?);
        let found = ends.len() as u64;
        let bad = found < min || max.is_some_and(|m| found > m);
        Ok(Judged {
            soft: get(rule.map, "weight").is_some(),
            broken: bad.then(|| {
                broken(
                    path.clone(),
                    ends.first().map(|&c| self.xy(c)),
                    Finding::DeadEnds { found, min, max },
                )
            }),
        })
    }

    /// Separation: every two distinct cells holding `of` are at least `min_distance` apart,
    /// `|x − x'| + |y − y'|`, checked over all pairs.
    pub(super) fn separation(&self, rule: Rule, level: &Level) -> Result<Judged, Violation> {
        let path = rule.path();
        let (of, at) = rule.field("of")?;
        let of = self.pick(of, &at)?;
        let min = self.whole(rule, "min_distance")?;
        let held: Vec<usize> = (0..self.cells())
            .filter(|&c| self.picks(&of, level, c))
            .collect();
        // Walking distance (`"metric": "walk"`): breadth-first from each held cell, leaving a
        // cell other than the start only when it holds `through`.
        let walk = match get(rule.map, "metric").map(Value::as_str) {
            None | Some(Some("manhattan")) => None,
            Some(Some("walk")) => Some(self.tiles_of(rule, "through")?),
            Some(_) => return Err(unreadable(format!("{path}.metric"))),
        };
        let steps_from = |a: usize| -> Vec<u64> {
            let mut dist = vec![u64::MAX; self.cells()];
            dist[a] = 0;
            let mut queue = std::collections::VecDeque::from([a]);
            while let Some(c) = queue.pop_front() {
                let passes = walk.as_ref().is_none_or(|t| t[level.tiles[c]]);
                if c != a && !passes {
                    continue;
                }
                for d in self.around(c) {
                    if dist[d] == u64::MAX {
                        dist[d] = dist[c] + 1;
                        queue.push_back(d);
                    }
                }
            }
            dist
        };
        let mut closest: Option<(u64, usize, usize)> = None;
        for (i, &a) in held.iter().enumerate() {
            let walked = walk.as_ref().map(|_| steps_from(a));
            for &b in &held[i + 1..] {
                let ((ax, ay), (bx, by)) = (self.xy(a), self.xy(b));
                let dist = match &walked {
                    None => (ax.abs_diff(bx) + ay.abs_diff(by)) as u64,
                    Some(steps) => steps[b],
                };
                if dist < min && closest.is_none_or(|(d, _, _)| dist < d) {
                    closest = Some((dist, a, b));
                }
            }
        }
        Ok(Judged {
            soft: get(rule.map, "weight").is_some(),
            broken: closest.map(|(distance, a, b)| {
                broken(
                    path,
                    Some(self.xy(a)),
                    Finding::TooClose {
                        other: self.xy(b),
                        distance,
                        min,
                    },
                )
            }),
        })
    }

    /// Symmetry: every cell of the region holds the tile (and, with `layer`, the value) its
    /// image holds — the image by the region's own coordinates, `FORMAT.md`'s table.
    pub(super) fn symmetry(&self, rule: Rule, level: &Level) -> Result<Judged, Violation> {
        let path = rule.path();
        let (x0, y0, w, h) = self.rect(rule)?;
        let (kind, at) = rule.field("kind")?;
        let image = |x: usize, y: usize| -> Option<(usize, usize)> {
            let (lx, ly) = (x - x0, y - y0);
            let (ix, iy) = match kind.as_str()? {
                "vertical" => (w - 1 - lx, ly),
                "horizontal" => (lx, h - 1 - ly),
                "rotate_180" => (w - 1 - lx, h - 1 - ly),
                "rotate_90" if w == h => (w - 1 - ly, lx),
                _ => return None,
            };
            Some((x0 + ix, y0 + iy))
        };
        let layer = match get(rule.map, "layer") {
            None => None,
            Some(v) => Some(
                v.as_str()
                    .and_then(|n| self.layers.iter().position(|l| l.name == n))
                    .ok_or_else(|| unreadable(format!("{path}.layer")))?,
            ),
        };
        let mut first = None;
        let mut differ = 0u64;
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                let (ix, iy) = image(x, y).ok_or_else(|| unreadable(at.clone()))?;
                let (c, d) = (y * self.width + x, iy * self.width + ix);
                let same = level.tiles[c] == level.tiles[d]
                    && layer.is_none_or(|l| level.layers[l][c] == level.layers[l][d]);
                if !same {
                    differ += 1;
                    first.get_or_insert((c, (ix, iy)));
                }
            }
        }
        Ok(Judged {
            soft: get(rule.map, "weight").is_some(),
            broken: first.map(|(c, image)| {
                broken(
                    path,
                    Some(self.xy(c)),
                    Finding::Asymmetric {
                        image,
                        cells: differ,
                    },
                )
            }),
        })
    }
}

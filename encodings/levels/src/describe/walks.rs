//! The shortest walk of each `paths` rule (issue 42's distances): the quantity `min_length`
//! and `max_length` bound, measured on a finished level as `FORMAT.md` defines a walk — from a
//! `from` cell to a `to` cell, the cells strictly between holding `through`.

use crate::level::Level;
use crate::spec::{Endpoint, GridSpec, Selection};
use std::collections::VecDeque;

/// Per `paths` rule of `spec`, in file order, the fewest steps of a walk in `level` (`None`:
/// no walk). A breadth-first search from every `from` cell at once, leaving a cell only when it
/// holds `through` or is itself a `from` cell (a walk restarted there is no longer).
pub(super) fn shortest_walks(spec: &GridSpec, level: &Level) -> Vec<Option<usize>> {
    let (w, h) = (level.width, level.height);
    let n = w.saturating_mul(h);
    let holds = |e: &Endpoint, c: usize| match e {
        Endpoint::Cell(x, y) => y * w + x == c,
        Endpoint::Select(Selection::Tiles(set)) => level
            .tiles
            .get(c)
            .and_then(|&t| set.get(t).copied())
            .unwrap_or(false),
        Endpoint::Select(Selection::LayerValue { layer, value }) => {
            level.layers.get(*layer).and_then(|l| l.get(c)) == Some(value)
        }
    };
    spec.paths
        .iter()
        .map(|rule| {
            let through = |c: usize| {
                level
                    .tiles
                    .get(c)
                    .and_then(|&t| rule.through.get(t).copied())
                    .unwrap_or(false)
            };
            let mut dist = vec![usize::MAX; n];
            let mut queue = VecDeque::new();
            for c in (0..n).filter(|&c| holds(&rule.from, c)) {
                dist[c] = 0;
                queue.push_back(c);
            }
            while let Some(c) = queue.pop_front() {
                if holds(&rule.to, c) {
                    return Some(dist[c]); // breadth-first: the first end reached is nearest
                }
                if dist[c] > 0 && !through(c) {
                    continue;
                }
                let (x, y) = (c % w, c / w);
                let around = [
                    (y > 0).then(|| c - w),
                    (x + 1 < w).then(|| c + 1),
                    (y + 1 < h).then(|| c + w),
                    (x > 0).then(|| c - 1),
                ];
                for d in around.into_iter().flatten() {
                    if dist[d] == usize::MAX {
                        dist[d] = dist[c] + 1;
                        queue.push_back(d);
                    }
                }
            }
            None
        })
        .collect()
}

//! The quantities the `separation` and `locks` rules bound (issue 42), measured on a finished
//! level as `FORMAT.md` defines them: the closest two cells of a separation's selection, and a
//! lock rule's progression (which colours open, in which round, how many doors the player
//! reaches, which colours are gated).

use serde::Serialize;
use std::collections::VecDeque;

use crate::graph::around;
use crate::level::Level;
use crate::spec::{GridSpec, Selection, TileSet};

/// Whether `level`'s cell `c` holds `sel` (a cell outside the level's arrays holds nothing).
fn holds(level: &Level, sel: &Selection, c: usize) -> bool {
    match sel {
        Selection::Tiles(set) => level
            .tiles
            .get(c)
            .and_then(|&t| set.get(t).copied())
            .unwrap_or(false),
        Selection::LayerValue { layer, value } => {
            level.layers.get(*layer).and_then(|l| l.get(c)) == Some(value)
        }
    }
}

/// Whether cell `c` holds a tile of `set`.
fn in_set(level: &Level, set: &TileSet, c: usize) -> bool {
    level
        .tiles
        .get(c)
        .and_then(|&t| set.get(t).copied())
        .unwrap_or(false)
}

/// Per `separation` rule (file order), the distance between the two closest distinct cells of
/// its selection in the rule's metric — Manhattan, or with `"metric": "walk"` the fewest steps
/// of a walk whose inner cells hold the rule's class — or `None` when fewer than two cells hold
/// it or no walk joins any two. The rule holds exactly when this is `None` or at least its
/// `min_distance`.
///
/// One breadth-first search from every selected cell at once, each cell labelled with the
/// source that reached it first; the closest pair is the least `d(u) + 1 + d(v)` over the
/// edges `u`–`v` whose labels differ (along a shortest walk of the closest pair the labels
/// change on some edge, and every such sum is the length of a walk between two selected
/// cells). Manhattan distance is the walking distance on the grid with every cell passable.
/// `O(cells)` per rule.
pub(super) fn closest_pairs(spec: &GridSpec, level: &Level) -> Vec<Option<usize>> {
    let (w, h) = (level.width, level.height);
    let n = w.saturating_mul(h);
    spec.separation
        .iter()
        .map(|rule| {
            let source: Vec<bool> = (0..n).map(|c| holds(level, &rule.of, c)).collect();
            // A cell a walk may pass through (inner cell) or start from.
            let open = |c: usize| {
                source[c]
                    || rule
                        .through
                        .as_ref()
                        .is_none_or(|class| in_set(level, class, c))
            };
            let mut dist = vec![usize::MAX; n];
            let mut label = vec![usize::MAX; n];
            let mut queue = VecDeque::new();
            for c in (0..n).filter(|&c| source[c]) {
                dist[c] = 0;
                label[c] = c;
                queue.push_back(c);
            }
            let mut best: Option<usize> = None;
            while let Some(c) = queue.pop_front() {
                for d in around(w, h, c) {
                    if !open(d) {
                        continue;
                    }
                    if dist[d] == usize::MAX {
                        dist[d] = dist[c] + 1;
                        label[d] = label[c];
                        queue.push_back(d);
                    } else if label[d] != label[c] {
                        let len = dist[c] + 1 + dist[d];
                        best = Some(best.map_or(len, |b| b.min(len)));
                    }
                }
            }
            best
        })
        .collect()
}

/// One `locks` rule measured: its progression on a level (`FORMAT.md`, `locks`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LockDescription {
    /// Rounds of the progression in which some colour opened (0: none opened).
    pub rounds: usize,
    /// Per colour (file order), the round in which it opened (1 for a key reachable from the
    /// start with every door shut), `None` when it never does.
    pub opened_in: Vec<Option<usize>>,
    /// Door cells (of any colour).
    pub doors: usize,
    /// Door cells the player enters once the progression is complete ("every door opens"
    /// holds exactly when this equals `doors`).
    pub doors_reached: usize,
    /// Per colour, whether it is gated: with that colour's keys out of the way and its doors
    /// shut, no door of it is on or beside a cell the player reaches.
    pub gated: Vec<bool>,
}

/// Per `locks` rule (file order), its progression on `level` as `FORMAT.md` defines it: the
/// player walks from `start` over `through` cells and door cells whose colours are all open,
/// picks up every key it reaches, and a colour opens once a key of it was picked up; repeated
/// until nothing more opens. The rule holds exactly when every colour is gated and
/// `doors_reached == doors`.
pub(super) fn progressions(spec: &GridSpec, level: &Level) -> Vec<LockDescription> {
    let (w, h) = (level.width, level.height);
    let n = w.saturating_mul(h);
    spec.locks
        .iter()
        .map(|rule| {
            let k = rule.colors.len();
            let door = |e: usize, c: usize| holds(level, &rule.colors[e].door, c);
            let key = |e: usize, c: usize| holds(level, &rule.colors[e].key, c);
            let start = rule.start.1 * w + rule.start.0;
            let walkable = |c: usize| in_set(level, &rule.through, c) || (0..k).any(|e| door(e, c));
            // The cells reached with the colours `open`, never stepping on a `blocked` cell.
            let reach = |open: &[bool], blocked: &dyn Fn(usize) -> bool| -> Vec<bool> {
                let mut seen = vec![false; n];
                if start >= n || blocked(start) {
                    return seen;
                }
                seen[start] = true;
                let mut todo = vec![start];
                while let Some(c) = todo.pop() {
                    for d in around(w, h, c) {
                        let enterable =
                            walkable(d) && !blocked(d) && (0..k).all(|e| open[e] || !door(e, d));
                        if !seen[d] && enterable {
                            seen[d] = true;
                            todo.push(d);
                        }
                    }
                }
                seen
            };
            // The fixpoint, recording the round each colour opens in; `never` stays shut.
            let fixpoint = |never: Option<usize>, blocked: &dyn Fn(usize) -> bool| {
                let mut opened_in: Vec<Option<usize>> = vec![None; k];
                let mut round = 0;
                loop {
                    let open: Vec<bool> = opened_in.iter().map(Option::is_some).collect();
                    let seen = reach(&open, blocked);
                    round += 1;
                    let mut grew = false;
                    for e in 0..k {
                        if Some(e) == never || opened_in[e].is_some() {
                            continue;
                        }
                        if (0..n).any(|c| seen[c] && key(e, c)) {
                            opened_in[e] = Some(round);
                            grew = true;
                        }
                    }
                    if !grew {
                        return (seen, opened_in, round - 1);
                    }
                }
            };
            let (seen, opened_in, rounds) = fixpoint(None, &|_| false);
            let is_door = |c: usize| (0..k).any(|e| door(e, c));
            let doors = (0..n).filter(|&c| is_door(c)).count();
            let doors_reached = (0..n).filter(|&c| is_door(c) && seen[c]).count();
            let gated = (0..k)
                .map(|e| {
                    let (seen, _, _) = fixpoint(Some(e), &|c| key(e, c));
                    !(0..n).any(|c| door(e, c) && (seen[c] || around(w, h, c).any(|d| seen[d])))
                })
                .collect();
            LockDescription {
                rounds,
                opened_in,
                doors,
                doors_reached,
                gated,
            }
        })
        .collect()
}

//! The referee's reading of `locks` (issue 42's progression), judged from `FORMAT.md` by a
//! fixpoint simulation of its own: a player walks from the start, picks up every key it
//! reaches, and a door opens when a key of its colour has been picked up. Kept apart from
//! `mod.rs` so that the family touches it in one place (the loop in `check_level`).

use super::verdict::Finding;
use super::{Doc, Pick, Rule, broken, get, object, unreadable};
use crate::level::Level;
use crate::referee::verdict::Violation;
use serde_json::Value;

impl Doc<'_> {
    /// A locks rule: every door gated, every door opened (`FORMAT.md`, `locks`).
    pub(super) fn locks(&self, rule: Rule, level: &Level) -> Result<(), Violation> {
        let path = rule.path();
        let (sv, sat) = rule.field("start")?;
        let start = self.cell_at(object(sv, sat.clone())?, &sat)?;
        let walk = self.tiles_of(rule, "through")?;
        let colors = get(rule.map, "colors")
            .and_then(Value::as_array)
            .ok_or_else(|| unreadable(format!("{path}.colors")))?;
        let mut keys: Vec<Pick> = Vec::new();
        let mut doors: Vec<Pick> = Vec::new();
        for (i, c) in colors.iter().enumerate() {
            let at = format!("{path}.colors[{i}]");
            let m = object(c, at.clone())?;
            let field = |k: &str| get(m, k).ok_or_else(|| unreadable(format!("{at}.{k}")));
            keys.push(self.pick(field("key")?, &format!("{at}.key"))?);
            doors.push(self.pick(field("door")?, &format!("{at}.door"))?);
        }
        let k = colors.len();
        let n = self.cells();
        let is_door = |d: usize, c: usize| self.picks(&doors[d], level, c);
        let is_key = |d: usize, c: usize| self.picks(&keys[d], level, c);
        let walkable = |c: usize| walk[level.tiles[c]] || (0..k).any(|d| is_door(d, c));
        // The progression with `open` colours: the cells reached from the start, stepping onto
        // walkable cells whose door colours are all open and which are not `blocked`.
        let reach = |open: &[bool], blocked: &dyn Fn(usize) -> bool| -> Vec<bool> {
            let mut seen = vec![false; n];
            if blocked(start) {
                return seen;
            }
            seen[start] = true;
            let mut todo = vec![start];
            while let Some(c) = todo.pop() {
                for d in self.around(c) {
                    let enterable =
                        walkable(d) && !blocked(d) && (0..k).all(|e| open[e] || !is_door(e, d));
                    if !seen[d] && enterable {
                        seen[d] = true;
                        todo.push(d);
                    }
                }
            }
            seen
        };
        // The fixpoint: open every colour whose key is reached, until nothing changes.
        let fixpoint = |never: Option<usize>, blocked: &dyn Fn(usize) -> bool| {
            let mut open = vec![false; k];
            loop {
                let seen = reach(&open, blocked);
                let mut grew = false;
                for e in 0..k {
                    if Some(e) == never || open[e] {
                        continue;
                    }
                    if (0..n).any(|c| seen[c] && is_key(e, c)) {
                        open[e] = true;
                        grew = true;
                    }
                }
                if !grew {
                    return seen;
                }
            }
        };
        // Gated: with colour c's keys out of the way and c never open, no door of c is on or
        // beside a reached cell.
        for c in 0..k {
            let blocked = |x: usize| is_key(c, x);
            let seen = fixpoint(Some(c), &blocked);
            let touched =
                (0..n).find(|&x| is_door(c, x) && (seen[x] || self.around(x).any(|y| seen[y])));
            if let Some(x) = touched {
                return Err(broken(
                    path,
                    Some(self.xy(x)),
                    Finding::DoorBeforeKey { color: c },
                ));
            }
        }
        // Opens: every door cell entered by the full progression.
        let seen = fixpoint(None, &|_| false);
        for c in 0..k {
            if let Some(x) = (0..n).find(|&x| is_door(c, x) && !seen[x]) {
                return Err(broken(
                    path,
                    Some(self.xy(x)),
                    Finding::DoorNeverOpens { color: c },
                ));
            }
        }
        Ok(())
    }
}

//! The referee's reading of `acyclic` and `chokepoints` (issue 42), judged from `FORMAT.md`
//! by definition, with code of its own (no union-find, no depth-first search: pieces counted
//! by flooding, an articulation cell found by removing it and counting again).

use super::verdict::Finding;
use super::{Doc, Judged, Rule, broken, get, unreadable};
use crate::level::Level;
use crate::referee::verdict::Violation;

impl<'a> Doc<'a> {
    /// The cells the rule looks at that hold its `class`: in its `region` (the grid when
    /// absent).
    fn members(&self, rule: Rule, level: &Level) -> Result<Vec<bool>, Violation> {
        let class = self.tiles_of(rule, "class")?;
        let mut member = vec![false; self.cells()];
        for c in self.region(rule)? {
            member[c] = class[level.tiles[c]];
        }
        Ok(member)
    }

    /// The pieces (connected by 4-neighbour edges) of the `member` cells other than `gone`.
    fn pieces(&self, member: &[bool], gone: Option<usize>) -> usize {
        let mut seen = vec![false; self.cells()];
        if let Some(g) = gone {
            seen[g] = true;
        }
        let mut pieces = 0;
        for s in 0..self.cells() {
            if !member[s] || seen[s] {
                continue;
            }
            pieces += 1;
            seen[s] = true;
            let mut stack = vec![s];
            while let Some(c) = stack.pop() {
                for d in self.around(c) {
                    if member[d] && !seen[d] {
                        seen[d] = true;
                        stack.push(d);
                    }
                }
            }
        }
        pieces
    }

    /// Acyclic: the class cells of the region and the edges between them have no cycle —
    /// edges = cells − pieces. The cell named lies on what remains after leaves are peeled
    /// off repeatedly (a cycle, or a walk between two).
    pub(super) fn acyclic(&self, rule: Rule, level: &Level) -> Result<Judged, Violation> {
        let member = self.members(rule, level)?;
        let cells = member.iter().filter(|&&m| m).count();
        let degree = |m: &[bool], c: usize| self.around(c).filter(|&d| m[d]).count();
        let edges: usize = (0..self.cells())
            .filter(|&c| member[c])
            .map(|c| degree(&member, c))
            .sum::<usize>()
            / 2;
        let rank = (edges + self.pieces(&member, None)).saturating_sub(cells) as u64;
        let mut core = member.clone();
        while let Some(c) = (0..self.cells()).find(|&c| core[c] && degree(&core, c) <= 1) {
            core[c] = false;
        }
        Ok(Judged {
            soft: get(rule.map, "weight").is_some(),
            broken: (rank > 0).then(|| {
                let at = (0..self.cells()).find(|&c| core[c]).map(|c| self.xy(c));
                broken(rule.path(), at, Finding::Cycle { rank })
            }),
        })
    }

    /// Chokepoints: a class cell is an articulation cell when removing it leaves more pieces
    /// than before; their number against `min` (0 when absent) and `max` (0 with `loop`). With
    /// `loop: true`, each class cell must also lie on a cycle: two of its class neighbours
    /// still in one piece without it.
    pub(super) fn chokepoints(&self, rule: Rule, level: &Level) -> Result<Judged, Violation> {
        let path = rule.path();
        let member = self.members(rule, level)?;
        let whole = self.pieces(&member, None);
        let cuts: Vec<usize> = (0..self.cells())
            .filter(|&v| member[v] && self.pieces(&member, Some(v)) > whole)
            .collect();
        let bound = |k: &str| match get(rule.map, k) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| unreadable(format!("{path}.{k}"))),
        };
        let on_loop = match get(rule.map, "loop") {
            None => false,
            Some(v) => v
                .as_bool()
                .ok_or_else(|| unreadable(format!("{path}.loop")))?,
        };
        let min = bound("min")?.unwrap_or(0);
        let max = if on_loop { Some(0) } else { bound("max")? };
        let found = cuts.len() as u64;
        let mut bad = (found < min || max.is_some_and(|m| found > m)).then(|| {
            broken(
                path.clone(),
                cuts.first().map(|&c| self.xy(c)),
                Finding::Chokepoints { found, min, max },
            )
        });
        if bad.is_none() && on_loop {
            let off = (0..self.cells()).find(|&v| member[v] && !self.on_cycle(&member, v));
            bad = off.map(|v| broken(path.clone(), Some(self.xy(v)), Finding::OffLoop));
        }
        Ok(Judged {
            soft: false,
            broken: bad,
        })
    }

    /// Whether the member cell `v` lies on a cycle of member cells: two of its member
    /// neighbours are joined by a walk of member cells avoiding `v`.
    fn on_cycle(&self, member: &[bool], v: usize) -> bool {
        let nbrs: Vec<usize> = self.around(v).filter(|&d| member[d]).collect();
        let Some((&a, rest)) = nbrs.split_first() else {
            return false;
        };
        let mut seen = vec![false; self.cells()];
        seen[v] = true;
        seen[a] = true;
        let mut stack = vec![a];
        while let Some(c) = stack.pop() {
            for d in self.around(c) {
                if member[d] && !seen[d] {
                    seen[d] = true;
                    stack.push(d);
                }
            }
        }
        // From `a`'s piece; the other neighbours are all in it, or a cycle through `v` uses
        // two of them outside it: check each pair by flooding from each one not reached.
        if rest.iter().any(|&b| seen[b]) {
            return true;
        }
        rest.iter().enumerate().any(|(i, &b)| {
            rest[i + 1..]
                .iter()
                .any(|&c| self.joined(member, v, b, c))
        })
    }

    /// Whether member cells `b` and `c` are joined by a walk of member cells avoiding `v`.
    fn joined(&self, member: &[bool], v: usize, b: usize, c: usize) -> bool {
        let mut seen = vec![false; self.cells()];
        seen[v] = true;
        seen[b] = true;
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            if x == c {
                return true;
            }
            for d in self.around(x) {
                if member[d] && !seen[d] {
                    seen[d] = true;
                    stack.push(d);
                }
            }
        }
        false
    }
}

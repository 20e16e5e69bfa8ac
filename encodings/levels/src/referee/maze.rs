//! The referee's reading of `acyclic` and `chokepoints` (issue 42), judged from `FORMAT.md`
//! by definition, with code of its own (no union-find, no depth-first search: pieces counted
//! by flooding, an articulation cell found by removing it and flooding from a neighbour).

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

    /// The pieces (connected by 4-neighbour edges) of the `member` cells.
    fn pieces(&self, member: &[bool]) -> usize {
        let mut seen = vec![false; self.cells()];
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
        let mut degree: Vec<usize> = (0..self.cells())
            .map(|c| self.around(c).filter(|&d| member[d]).count())
            .collect();
        let edges: usize = (0..self.cells())
            .filter(|&c| member[c])
            .map(|c| degree[c])
            .sum::<usize>()
            / 2;
        let rank = (edges + self.pieces(&member)).saturating_sub(cells) as u64;
        let mut core = member.clone();
        let mut leaves: Vec<usize> = (0..self.cells())
            .filter(|&c| core[c] && degree[c] <= 1)
            .collect();
        while let Some(c) = leaves.pop() {
            if !core[c] {
                continue;
            }
            core[c] = false;
            for d in self.around(c) {
                if core[d] {
                    degree[d] -= 1;
                    if degree[d] == 1 {
                        leaves.push(d);
                    }
                }
            }
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
    /// than before — when some two of its class neighbours are no longer joined (a cell with
    /// fewer than two class neighbours never is); their number against `min` (0 when absent)
    /// and `max` (0 with `loop`). With `loop: true`, each class cell must also lie on a cycle:
    /// two of its class neighbours still joined without it.
    pub(super) fn chokepoints(&self, rule: Rule, level: &Level) -> Result<Judged, Violation> {
        let path = rule.path();
        let member = self.members(rule, level)?;
        let cuts: Vec<usize> = (0..self.cells())
            .filter(|&v| member[v])
            .filter(|&v| {
                let nbrs: Vec<usize> = self.around(v).filter(|&d| member[d]).collect();
                nbrs.len() >= 2 && self.joined(&member, v, &nbrs) < nbrs.len()
            })
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
            soft: get(rule.map, "weight").is_some(),
            broken: bad,
        })
    }

    /// Whether the member cell `v` lies on a cycle of member cells: two of its member
    /// neighbours are joined by a walk of member cells avoiding `v`.
    fn on_cycle(&self, member: &[bool], v: usize) -> bool {
        let nbrs: Vec<usize> = self.around(v).filter(|&d| member[d]).collect();
        (0..nbrs.len().saturating_sub(1)).any(|i| self.joined(member, v, &nbrs[i..]) >= 2)
    }

    /// How many of `targets` (member cells; the first is the start) a breadth-first walk of
    /// member cells from `targets[0]` avoiding `v` reaches, the start included; the walk stops
    /// once it has them all.
    fn joined(&self, member: &[bool], v: usize, targets: &[usize]) -> usize {
        let Some(&start) = targets.first() else {
            return 0;
        };
        let mut seen = vec![false; self.cells()];
        seen[v] = true;
        seen[start] = true;
        let mut found = 1;
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(c) = queue.pop_front() {
            for d in self.around(c) {
                if member[d] && !seen[d] {
                    seen[d] = true;
                    if targets.contains(&d) {
                        found += 1;
                        if found == targets.len() {
                            return found;
                        }
                    }
                    queue.push_back(d);
                }
            }
        }
        found
    }
}

//! `min_length`'s decisions: lay a long walk first, then let the other parts fill the rest.
//!
//! Why: `floor.rs` refutes a too-short level only once its walk is certain. Connectivity grows
//! the region breadth-first from its root, so the walk between the ends comes out close to the
//! shortest one the open cells allow, and it is found too short when the region reaches the far
//! end, long after the decisions that made it short. In a perfect maze whose exit lies at least
//! 200 steps from its entrance (`instances/grid/maze-far-63.json`) that cost seeds 5 and 7
//! thousands of conflicts (over 20 s for seed 7). Deciding a walk of at least `min_length`
//! steps before anything else removes the search for one: when the class is acyclic the walk
//! between the two ends is unique, so a laid walk with no shortcut *is* the level's walk.
//!
//! **Where it applies**: a rule with a single fixed `from` cell `s`, a single fixed `to` cell
//! `t` (`s ≠ t`), `min_length`, and no `max_length` (a long walk could break it).
//!
//! **The route**: a depth-first search from `s` over the cells whose `through` literal is not
//! false. While the walk so far plus the breadth-first distance left to `t` (over the same
//! cells) is below `min_length` plus a tenth, it tries the cells the preferences wish in the
//! class first (the route then changes with the seed), then those farther from `t`, so the walk
//! wanders away before it turns; once it is long enough it tries the neighbours nearest to
//! `t` first and heads home. It takes only *induced*
//! steps: a new cell may touch no cell of the walk but the last, so that the walk has no
//! shortcut of its own. The first time `t` can be stepped on with at least `min_length`
//! steps behind, the walk is the route. Each call of `decide` returns the `through` literal of
//! the first route cell not yet assigned; when a route cell is false (a conflict undid it, or
//! another rule excluded it) a new route is searched from the assignment of the moment.
//!
//! This is a heuristic only: decisions never make the model unsound, and a route that other
//! rules reject is just backtracked. After [`TRIES`] broken routes, or when the search finds
//! none, the part stops deciding and leaves the search to the other parts.

use crate::graph::{Graph, NONE};
use grim_solver::{Context, Lit};

/// Routes searched before the part gives up deciding.
const TRIES: u32 = 20;

/// The route of one path rule with fixed ends.
pub(super) struct Route {
    min: u32,
    s: usize,
    t: usize,
    /// The cells of the walk from `s` to `t`; empty when none is laid.
    cells: Vec<usize>,
    /// Routes searched so far.
    tries: u32,
    /// Cells whose `through` literal the preferences wish true (hint mode): the route follows
    /// them where it can, so that it changes with the seed like the rest of the level.
    wished: Vec<bool>,
    dist: Vec<u32>,
    visited: Vec<bool>,
    on_walk: Vec<bool>,
    queue: Vec<u32>,
}

impl Route {
    /// The route of a rule with `min_length` `min`, `from` cell `s` and `to` cell `t` over
    /// `wished.len()` cells (`None` when `s == t`).
    pub(super) fn new(min: usize, s: usize, t: usize, wished: Vec<bool>) -> Option<Route> {
        let cells = wished.len();
        if s == t || s >= cells || t >= cells {
            return None;
        }
        Some(Route {
            min: min.min(u32::MAX as usize - 1) as u32,
            s,
            t,
            cells: Vec::new(),
            tries: 0,
            wished,
            dist: vec![NONE; cells],
            visited: vec![false; cells],
            on_walk: vec![false; cells],
            queue: Vec::with_capacity(cells),
        })
    }

    /// The next decision: the first route cell whose `through` literal is unassigned, taken
    /// true; a new route first when a cell of the current one is false.
    pub(super) fn decide(
        &mut self,
        through: &[Lit],
        graph: &Graph,
        ctx: &Context<'_>,
    ) -> Option<Lit> {
        let value = |l: Lit| ctx.value(l);
        let inner = |cells: &[usize]| cells.len().saturating_sub(2);
        let broken = self.cells.is_empty()
            || self.cells[1..self.cells.len() - 1]
                .iter()
                .any(|&c| value(through[c]) == Some(false));
        if broken {
            if self.tries >= TRIES {
                return None;
            }
            self.tries += 1;
            self.search(through, graph, &value);
        }
        let cells = &self.cells;
        cells
            .iter()
            .skip(1)
            .take(inner(cells))
            .map(|&c| through[c])
            .find(|&l| value(l).is_none())
    }

    /// The depth-first search of the module doc; `cells` is empty when it finds no route (and
    /// the part then stops deciding).
    fn search(&mut self, through: &[Lit], graph: &Graph, value: &dyn Fn(Lit) -> Option<bool>) {
        let (s, t) = (self.s, self.t);
        let open = |v: usize| v == s || v == t || value(through[v]) != Some(false);
        // Distances to t over the open cells (walks may leave a cell only if it is inner).
        self.dist.fill(NONE);
        self.queue.clear();
        self.dist[t] = 0;
        self.queue.push(t as u32);
        let mut head = 0;
        while head < self.queue.len() {
            let x = self.queue[head] as usize;
            head += 1;
            if x == s {
                continue;
            }
            for y in graph.around(x) {
                if self.dist[y] == NONE && open(y) {
                    self.dist[y] = self.dist[x] + 1;
                    self.queue.push(y as u32);
                }
            }
        }
        self.cells.clear();
        if self.dist[s] == NONE {
            self.tries = TRIES;
            return;
        }
        self.visited.fill(false);
        self.on_walk.fill(false);
        let mut stack: Vec<(usize, [u32; 4], usize)> = Vec::new();
        // The order of the module doc: while the walk so far plus the distance left is short of
        // the goal, wished cells first, then the farthest from t; once it is not, the nearest to
        // t first (the walk heads home), wished cells breaking ties.
        let goal = u64::from(self.min) + u64::from(self.min) / 10 + 2;
        let wished = &self.wished;
        let order = |x: usize, steps: usize, dist: &[u32]| {
            let mut sides = graph.sides(x);
            let home = steps as u64 + u64::from(dist[x]) >= goal;
            sides.sort_by_key(|&y| {
                if y == NONE || dist[y as usize] == NONE {
                    return (2, 0, 0);
                }
                let (w, d) = (u32::from(!wished[y as usize]), dist[y as usize]);
                if home {
                    (0, d, w)
                } else {
                    (w, u32::MAX - d, 0)
                }
            });
            sides
        };
        self.visited[s] = true;
        self.on_walk[s] = true;
        stack.push((s, order(s, 0, &self.dist), 0));
        while let Some(top) = stack.last_mut() {
            let (x, sides, i) = (top.0, top.1, top.2);
            if i == 4 {
                self.on_walk[x] = false;
                stack.pop();
                continue;
            }
            top.2 += 1;
            let y = sides[i];
            if y == NONE {
                continue;
            }
            let y = y as usize;
            if self.visited[y] || self.dist[y] == NONE || !open(y) {
                continue;
            }
            // Induced: y touches no walk cell but x.
            if graph.around(y).any(|z| z != x && self.on_walk[z]) {
                continue;
            }
            if y == t {
                if stack.len() as u64 >= u64::from(self.min) {
                    self.cells.extend(stack.iter().map(|e| e.0));
                    self.cells.push(t);
                    return;
                }
                continue; // too soon: t stays unvisited for a longer walk
            }
            self.visited[y] = true;
            self.on_walk[y] = true;
            let sides = order(y, stack.len(), &self.dist);
            stack.push((y, sides, 0));
        }
        self.tries = TRIES; // no route: stop deciding
    }
}

//! Connectivity inside the search: the grid's reachability rules as an external propagator
//! (`grim_solver::Propagator`), so that a disconnected map is refuted as soon as the partial
//! assignment shows it, not after a whole solve and a round of cuts.
//!
//! For each connectivity rule the propagator keeps every cell's class literal as `In`, `Out`
//! or `Free` (from the engine's notifications, stamped with the order in which they came) and
//! runs `reach.rs` at every propagation fixpoint that saw a change: cells the anchor cannot
//! reach are forced out, cut vertices between the anchor and an `In` cell are forced in, an
//! `In` cell the anchor cannot reach is a conflict. Propagations are lazy: the separator that
//! explains one is computed only if conflict analysis asks, from the cells that were `Out` at
//! the stamp of the propagation (so the reason names only literals false before it). Conflicts
//! are explained at once by the smaller of two separators.
//!
//! The anchor is the rule's root, or with `"root": "any"` the earliest `In` cell (its literal
//! joins every clause negated): the earliest, so that reasons use the lowest levels.
//!
//! This is one part of the grid propagator (`search.rs`), beside the paths' witness walks and
//! the large counts' counters; it runs last in each callback, being the most expensive.
//!
//! Why a propagator instead of the cut loop (`solve.rs`'s `Lazy`): the loop pays a whole solve
//! per round and 116 rounds on the 64×64 dungeon; the propagator pays a linear pass per
//! fixpoint, skipped when nothing it watches changed. Measured in `FORMAT.md`.

use super::encode::class_rules;
use super::reach::{self, Inference, Scratch, State};
use crate::graph::Graph;
use crate::model::{GridModel, SearchPlan};
use crate::search::{Lazy, Reason, SearchPart};
use crate::spec::{GridSpec, Selection};
use grim_solver::{ClauseKind, Context, Lit, Var};

/// What connectivity leaves to the search: every rule (`mod.rs` records it).
#[derive(Debug)]
pub(super) struct Plan;

impl SearchPlan for Plan {
    fn part(&self, m: &GridModel) -> Box<dyn SearchPart> {
        let spec = &m.spec;
        let rules = class_rules(m);
        let wishes: Vec<Vec<Option<bool>>> = rules
            .iter()
            .map(|(lits, _)| lits.iter().map(|&l| m.wished(l)).collect())
            .collect();
        let mut p = Reachability::new(spec.width, spec.height, rules);
        for (r, w) in wishes.into_iter().enumerate() {
            // Targets steer only a search no wish steers (`Reachability::toward_target`).
            if w.iter().all(Option::is_none) {
                p.set_targets(r, targets(spec, r));
            }
            p.set_wishes(r, w);
            p.set_min_size(r, min_class_size(spec, &spec.connectivity[r].class));
            p.set_cover(r, cover_windows(spec, &spec.connectivity[r].class));
            p.set_no_leaves(r, no_leaves(spec, &spec.connectivity[r].class));
        }
        Box::new(p)
    }
}

/// The least number of cells of `class` every level has by the hard whole-grid counts of a
/// subset of it (0 when none bounds it). Read from the counts family's rules: a count is the
/// one rule that says how big a class must be, and knowing it lets the propagator refute a
/// region too small for it.
fn min_class_size(spec: &GridSpec, class: &[bool]) -> usize {
    spec.counts
        .iter()
        .filter(|c| c.weight.is_none() && c.per.is_none() && c.region == spec.full_region())
        .filter_map(|c| match &c.of {
            Selection::Tiles(set) if set.iter().zip(class).all(|(&s, &k)| !s || k) => {
                c.min.map(|m| m.lower(spec.cells() as u64))
            }
            _ => None,
        })
        .max()
        .map_or(0, |m| usize::try_from(m).unwrap_or(usize::MAX))
}

/// The windows the class should reach into, for `decide`: every window of `max + 1`
/// consecutive cells of a hard `runs` rule whose selection is a set of tiles none of which is
/// in the class (a run of rock beside a walkable class). Each as (first cell, step between its
/// cells); all have `len` cells, returned beside them (0 and no window when no rule applies;
/// the first applying rule only).
///
/// Why: such a rule makes every window hold some cell outside the selection, and a cell that
/// is neither in the class nor in the selection (water beside rock, say) is often barred by
/// the adjacency rules, so in practice every window needs a class cell — which connectivity
/// must reach. The frontier's breadth-first growth closes the cells the wishes leave out as it
/// meets them; with fewer than about 59% of the cells wished in (the square lattice's
/// percolation threshold) it seals the region off early, and every rock pocket wider than
/// `max` behind the sealed frontier then costs the engine conflicts (cave-runs-128: about
/// 14,000). Decisions only: the levels admitted are the same.
fn cover_windows(spec: &GridSpec, class: &[bool]) -> (Vec<(u32, u32)>, usize) {
    for rule in spec.runs.iter().filter(|r| r.weight.is_none()) {
        let Selection::Tiles(set) = &rule.of else {
            continue;
        };
        if set.iter().zip(class).any(|(&s, &k)| s && k) {
            continue;
        }
        let k = rule.max + 1;
        let out: Vec<(u32, u32)> = (rule.region)
            .windows(spec.width, k, rule.axis.rows(), rule.axis.columns())
            .into_iter()
            .map(|(first, step)| (first as u32, step as u32))
            .collect();
        if !out.is_empty() {
            return (out, k);
        }
    }
    (Vec::new(), 0)
}

/// Whether a hard chokepoints rule over the whole grid forbids articulation cells of exactly
/// this class (`max` 0, with or without `loop`): then no class cell may end up with a single
/// class neighbour (the neighbour would be an articulation cell), and `decide` does not close a
/// frontier cell that would leave an `In` neighbour so.
fn no_leaves(spec: &GridSpec, class: &[bool]) -> bool {
    spec.chokepoints.iter().any(|r| {
        r.weight.is_none()
            && r.max == Some(0)
            && r.region == spec.full_region()
            && r.class.as_slice() == class
    })
}

/// The count regions rule `r`'s class must reach from its root: a hard count of a subset of
/// the class with a `min` of at least one over a region the root lies outside (a far room, an
/// exit region). Each as a mask of cells, with the count's least number of class cells there.
fn targets(spec: &GridSpec, r: usize) -> Vec<(Vec<bool>, usize)> {
    let rule = &spec.connectivity[r];
    let Some((rx, ry)) = rule.root else {
        return Vec::new();
    };
    let mut out: Vec<(Vec<bool>, usize)> = Vec::new();
    for c in &spec.counts {
        let within = match &c.of {
            Selection::Tiles(set) => set.iter().zip(&rule.class).all(|(&s, &k)| !s || k),
            Selection::LayerValue { .. } => false,
        };
        let area = c.region.w as u64 * c.region.h as u64;
        let need = c.min.map_or(0, |m| m.lower(area));
        if c.weight.is_some()
            || c.per.is_some()
            || !within
            || need == 0
            || c.region.contains(rx, ry)
        {
            continue;
        }
        let need = usize::try_from(need).unwrap_or(usize::MAX);
        let mask: Vec<bool> = (0..spec.cells())
            .map(|i| c.region.contains(i % spec.width, i / spec.width))
            .collect();
        match out.iter_mut().find(|(m, _)| *m == mask) {
            Some(t) => t.1 = t.1.max(need),
            None => out.push((mask, need)),
        }
    }
    out
}

/// One connectivity rule's view.
struct Rule {
    /// The class literal of each cell.
    lits: Vec<Lit>,
    /// The root cell, or `None` for "any".
    root: Option<usize>,
    state: Vec<State>,
    /// When each cell's literal was assigned (notification order); `u64::MAX` when free.
    stamp: Vec<u64>,
    /// The rule needs a pass: a notification since the last one may matter, or the engine
    /// backtracked.
    dirty: bool,
    /// The anchor's region at the last complete pass (valid while `!dirty`).
    reached: Vec<bool>,
    /// Cells the last complete pass forced, in (`true`) or out; `forced_epoch` says which
    /// pass's marks are current (a backtrack starts a new epoch).
    forced: Vec<u32>,
    /// The rule's own pass scratch (its BFS marks tell `reached`).
    scratch: Scratch,
    /// At least this many cells hold the class (a hard whole-grid count of a subset of the
    /// class; 0 when there is none). All of them are in the anchor's region, so a region
    /// smaller than this is a conflict, and one exactly this big holds only class cells.
    min_size: usize,
    /// The earliest `In` cell when it was last computed ("any" root), while it stays `In`.
    anchor: Option<usize>,
    /// Cells in the anchor's region at the last pass (kept up to date by the local pass).
    region: usize,
    /// The region shrank to `min_size` or below since the last pass: check the size.
    size_due: bool,
    /// Per cell, whether the seeded wishes put it in the class (`None`: no wish).
    wish: Vec<Option<bool>>,
    /// Free cells beside `In` ones, for `decide` (stale entries are skipped there; rebuilt
    /// after a backtrack).
    frontier: std::collections::VecDeque<usize>,
    /// `frontier` must be rebuilt from the `In` cells.
    rebuild: bool,
    /// Frontier cells the wishes leave out, met while the class had fewer than `min_size`
    /// `In` cells (root "any" only): opened (decided in) newest first when the wished cells run out before the
    /// class is big enough, decided out once it is (see `decide`).
    deferred: std::collections::VecDeque<usize>,
    /// Cells of the class assigned `In` (kept by `notify` and `backtrack`).
    ins: usize,
    /// Count regions the class must reach from the root (see [`targets`]), set only when no
    /// wish steers the rule; `decide` grows toward them first.
    targets: Vec<(Vec<bool>, usize)>,
    /// Windows every one of which should hold a class cell ([`cover_windows`]): (first cell,
    /// step); empty when no rule asks for it. With windows, `decide` defers the cells the
    /// wishes leave out (root given or not) and opens them toward uncovered windows first.
    cover: Vec<(u32, u32)>,
    /// The cells of each window of `cover`.
    cover_len: usize,
    /// Windows of `cover` before this one were covered (or beyond help) when `decide` last
    /// looked; reset with the frontier after a backtrack.
    cover_at: usize,
    /// [`no_leaves`]: closing a frontier cell must leave every `In` neighbour two cells that
    /// are `In` or free.
    no_leaves: bool,
    /// Cells of the region that went out since the last pass and are not simple points: each
    /// may have cut a pocket off (`reach::split_after` decides).
    pending: Vec<usize>,
    /// The next pass also looks for cut vertices (an `In` cell appeared that no cut vertex
    /// computed so far covers). Passes for `Out` cells and backtracks only look for stranded
    /// cells: the cheaper half.
    cuts: bool,
}

/// Why a literal was propagated, as the composite records it ([`Reason`]): the kind (below),
/// `at = [rule, cell, witness, anchor]` (cells fit a `u32`: a grid has at most 65,536) and the
/// stamp of the notifications it was inferred from.
///
/// `OUT`: `cell` was forced out, the anchor could not reach it.
const OUT: u8 = 0;
/// `SIZE`: a cell was forced in, the anchor's region has no more cells than the class needs.
const SIZE: u8 = 1;
/// `IN`: `cell` was forced in, it cuts `witness` off from the anchor.
const IN: u8 = 2;

/// The reason of kind `kind` of rule `rule` (see [`OUT`]).
fn why(kind: u8, rule: usize, cell: usize, witness: usize, anchor: usize, stamp: u64) -> Reason {
    let at = [rule, cell, witness, anchor].map(|x| x as u32);
    Reason::new(kind, at, stamp)
}

/// The connectivity rules of a grid as one part of the grid propagator.
pub(crate) struct Reachability {
    graph: Graph,
    rules: Vec<Rule>,
    /// Per variable: the (rule, cell, literal is positive) it is the class literal of.
    uses: Vec<Vec<(u32, u32, bool)>>,
    /// What was told, in order, with its level: (rule, cell, level).
    told: Vec<(u32, u32, u32)>,
    /// The last notification as of the running `propagate` (the stamp of what it infers).
    now: u64,
    scratch: Scratch,
    found: Vec<Inference>,
    /// Bumped at every backtrack and every pass: `Rule::forced` marks of older epochs are
    /// stale.
    epoch: u32,
    /// Scratch of `notify_backtrack`: the (rule, cell) pairs it freed.
    freed: Vec<(u32, u32)>,
}

impl Reachability {
    /// A propagator for the rules given as (class literal per cell, root cell) on a
    /// `width × height` grid.
    pub(crate) fn new(width: usize, height: usize, rules: Vec<(Vec<Lit>, Option<usize>)>) -> Self {
        let cells = width * height;
        let mut uses: Vec<Vec<(u32, u32, bool)>> = Vec::new();
        let rules: Vec<Rule> = rules
            .into_iter()
            .enumerate()
            .map(|(r, (lits, root))| {
                debug_assert_eq!(lits.len(), cells);
                for (c, l) in lits.iter().enumerate() {
                    let v = l.var().index();
                    if uses.len() <= v {
                        uses.resize(v + 1, Vec::new());
                    }
                    uses[v].push((r as u32, c as u32, l.is_positive()));
                }
                Rule {
                    lits,
                    root,
                    state: vec![State::Free; cells],
                    stamp: vec![u64::MAX; cells],
                    dirty: true,
                    reached: vec![false; cells],
                    forced: vec![0; cells],
                    scratch: Scratch::default(),
                    cuts: true,
                    pending: Vec::new(),
                    min_size: 0,
                    anchor: None,
                    region: cells,
                    size_due: false,
                    wish: vec![None; cells],
                    frontier: std::collections::VecDeque::new(),
                    deferred: std::collections::VecDeque::new(),
                    ins: 0,
                    targets: Vec::new(),
                    cover: Vec::new(),
                    cover_len: 0,
                    cover_at: 0,
                    no_leaves: false,
                    rebuild: true,
                }
            })
            .collect();
        Reachability {
            graph: Graph::grid(width, height),
            rules,
            uses,
            told: Vec::new(),
            now: 0,
            scratch: Scratch::default(),
            found: Vec::new(),
            epoch: 1,
            freed: Vec::new(),
        }
    }

    /// The anchor of rule `r` now: its root once `In`, or the earliest `In` cell.
    fn anchor(rule: &mut Rule) -> Option<usize> {
        match rule.root {
            Some(root) => (rule.state[root] == State::In).then_some(root),
            None => {
                // Cached: the earliest In cell stays the earliest until it is undone.
                if let Some(a) = rule.anchor
                    && rule.state[a] == State::In
                {
                    return Some(a);
                }
                let a = (0..rule.state.len())
                    .filter(|&c| rule.state[c] == State::In)
                    .min_by_key(|&c| (rule.stamp[c], c));
                rule.anchor = a;
                a
            }
        }
    }

    /// The clause literals of a separator explanation (module doc), as of `stamp`.
    #[allow(clippy::too_many_arguments)]
    fn explanation(
        graph: &Graph,
        rule: &Rule,
        anchor: usize,
        target: usize,
        avoid: Option<usize>,
        stamp: u64,
        scratch: &mut Scratch,
        out: &mut Vec<Lit>,
    ) {
        let was_out = |c: usize| rule.state[c] == State::Out && rule.stamp[c] <= stamp;
        let sep = reach::separator(graph, anchor, target, &was_out, avoid, scratch);
        out.extend(
            sep.into_iter()
                .filter(|&c| Some(c) != avoid)
                .map(|c| rule.lits[c]),
        );
        if rule.root.is_none() {
            out.push(!rule.lits[anchor]);
        }
    }

    /// Reports the conflict of rule `r`'s `In` cell `cell`, which the anchor cannot reach: the
    /// clause of `¬cell` and a separator of excluded cells.
    fn refute(&mut self, r: usize, anchor: usize, cell: usize, ctx: &mut Context<'_>) {
        let mut clause = vec![!self.rules[r].lits[cell]];
        self.cut_off(r, anchor, cell, u64::MAX, &mut clause);
        ctx.add_clause(&clause, ClauseKind::Learned);
    }

    /// [`Self::explanation`] of rule `r`'s `cell` cut off from `anchor` by the cells out at
    /// `stamp`.
    fn cut_off(&mut self, r: usize, anchor: usize, cell: usize, stamp: u64, out: &mut Vec<Lit>) {
        let rule = &self.rules[r];
        Self::explanation(
            &self.graph,
            rule,
            anchor,
            cell,
            None,
            stamp,
            &mut self.scratch,
            out,
        );
    }

    /// The local pass: for every pending cell that went out, the pocket it cut off, if any,
    /// is forced out (or, holding an `In` cell, is a conflict). Returns whether a conflict was
    /// reported. Falls back to a full pass (`dirty`) when the anchor's side is the one cut.
    fn split_pass(&mut self, r: usize, ctx: &mut Context<'_>, lazy: &mut Lazy<'_>) -> bool {
        let Some(anchor) = Self::anchor(&mut self.rules[r]) else {
            self.rules[r].pending.clear();
            return false;
        };
        let pending = std::mem::take(&mut self.rules[r].pending);
        for &x in &pending {
            let rule = &mut self.rules[r];
            // A cell that went out and was freed by a backtrack before this pass ran (another
            // part's conflict came first) may be free or in now: it cuts nothing off, and
            // searching around it as if it were out would find pockets that are not there.
            if rule.state[x] != State::Out {
                continue;
            }
            match reach::split_after(&self.graph, &rule.state, x, anchor, &mut rule.scratch) {
                reach::Split::Joined => {}
                reach::Split::AnchorSide => {
                    rule.dirty = true;
                    break;
                }
                reach::Split::Off(cells) => {
                    if let Some(&c) = cells.iter().find(|&&c| rule.state[c] == State::In) {
                        self.refute(r, anchor, c, ctx);
                        // The pocket is cut off now; a backtrack that frees its border lets
                        // the region grow back into it (`notify_backtrack`).
                        let rule = &mut self.rules[r];
                        for &c in &cells {
                            if rule.reached[c] {
                                rule.reached[c] = false;
                                rule.region -= 1;
                            }
                        }
                        rule.dirty = true;
                        return true;
                    }
                    for &c in &cells {
                        let rule = &mut self.rules[r];
                        if rule.reached[c] {
                            rule.reached[c] = false;
                            rule.region -= 1;
                        }
                        if rule.state[c] == State::Free {
                            rule.forced[c] = self.epoch;
                            let lit = !rule.lits[c];
                            let why = why(OUT, r, c, 0, anchor, self.now);
                            lazy.propagate(ctx, lit, why);
                        }
                    }
                }
            }
        }
        let mut pending = pending;
        pending.clear();
        if self.rules[r].pending.is_empty() {
            self.rules[r].pending = pending;
        }
        if self.rules[r].dirty {
            return false; // a full pass follows
        }
        self.size_check(r, anchor, ctx, lazy)
    }

    /// Rule `r`'s class holds at least `min` cells (see `Rule::min_size`).
    pub(crate) fn set_min_size(&mut self, r: usize, min: usize) {
        if let Some(rule) = self.rules.get_mut(r) {
            rule.min_size = min;
        }
    }

    /// The size check after the region changed: a conflict when it is too small (returns
    /// true), every free cell forced in when it is exactly big enough.
    fn size_check(
        &mut self,
        r: usize,
        anchor: usize,
        ctx: &mut Context<'_>,
        lazy: &mut Lazy<'_>,
    ) -> bool {
        let rule = &self.rules[r];
        if rule.min_size == 0 || rule.region > rule.min_size {
            return false;
        }
        // The region's size decides soundness here, so it is measured afresh, not trusted
        // from the incremental count.
        let is_out = |c: usize| rule.state[c] == State::Out;
        let (border, size) = reach::border(&self.graph, anchor, &is_out, None, &mut self.scratch);
        if size > rule.min_size {
            return false;
        }
        if size < rule.min_size {
            // Some border cell of the region must hold the class.
            let mut clause: Vec<Lit> = border.into_iter().map(|c| rule.lits[c]).collect();
            if rule.root.is_none() {
                clause.push(!rule.lits[anchor]);
            }
            ctx.add_clause(&clause, ClauseKind::Learned);
            self.rules[r].dirty = true;
            return true;
        }
        // Exactly big enough: every free cell of the region holds the class.
        let cells: Vec<usize> = (0..rule.state.len())
            .filter(|&c| rule.state[c] == State::Free && reach::marked(&self.scratch, c))
            .collect();
        for c in cells {
            let lit = self.rules[r].lits[c];
            self.rules[r].forced[c] = self.epoch;
            let why = why(SIZE, r, 0, 0, anchor, self.now);
            lazy.propagate(ctx, lit, why);
        }
        false
    }

    /// Sets the seeded wish of every cell of rule `r` (whether the wished tile is in the
    /// class), which `decide` follows.
    pub(crate) fn set_wishes(&mut self, r: usize, wish: Vec<Option<bool>>) {
        if let Some(rule) = self.rules.get_mut(r) {
            rule.wish = wish;
        }
    }

    /// Sets whether rule `r`'s class may have no leaf cells ([`no_leaves`]).
    pub(crate) fn set_no_leaves(&mut self, r: usize, on: bool) {
        if let Some(rule) = self.rules.get_mut(r) {
            rule.no_leaves = on;
        }
    }

    /// Whether closing `c` would leave an `In` neighbour of it with fewer than two neighbours
    /// that are `In` or free.
    fn leaves_a_leaf(graph: &Graph, rule: &Rule, c: usize) -> bool {
        graph.around(c).any(|d| {
            rule.state[d] == State::In
                && graph
                    .around(d)
                    .filter(|&e| e != c && rule.state[e] != State::Out)
                    .count()
                    < 2
        })
    }

    /// Sets the windows rule `r`'s class should reach into ([`cover_windows`]).
    pub(crate) fn set_cover(&mut self, r: usize, (windows, len): (Vec<(u32, u32)>, usize)) {
        if let Some(rule) = self.rules.get_mut(r) {
            rule.cover = windows;
            rule.cover_len = len;
            rule.cover_at = 0;
        }
    }

    /// The deferred cell to open next with windows to cover: the one nearest (Manhattan) to the
    /// middle of the first window from `cover_at` on that has no `In` cell and some free one
    /// (`cover_at` moves past the windows before it). `None` when every window is covered or
    /// beyond help, or no deferred cell is left to open. The cell is taken out of `deferred`.
    fn toward_cover(graph: &Graph, rule: &mut Rule, ctx: &Context<'_>) -> Option<usize> {
        let free = |rule: &Rule, c: usize| {
            rule.state[c] == State::Free && ctx.value(rule.lits[c]).is_none()
        };
        while rule.cover_at < rule.cover.len() {
            let (first, step) = rule.cover[rule.cover_at];
            let cells = (0..rule.cover_len).map(|i| first as usize + i * step as usize);
            let covered = cells.clone().any(|c| rule.state[c] == State::In);
            if covered || !cells.clone().any(|c| free(rule, c)) {
                rule.cover_at += 1;
                continue;
            }
            let mid = first as usize + rule.cover_len / 2 * step as usize;
            let w = graph.width();
            let (mx, my) = ((mid % w) as i64, (mid / w) as i64);
            let best = (0..rule.deferred.len())
                .filter(|&i| free(rule, rule.deferred[i]))
                .min_by_key(|&i| {
                    let c = rule.deferred[i];
                    ((c % w) as i64 - mx).abs() + ((c / w) as i64 - my).abs()
                })?;
            return rule.deferred.remove(best);
        }
        None
    }

    /// Sets the count regions rule `r` must reach ([`targets`]).
    pub(crate) fn set_targets(&mut self, r: usize, targets: Vec<(Vec<bool>, usize)>) {
        if let Some(rule) = self.rules.get_mut(r) {
            rule.targets = targets;
        }
    }

    /// Without wishes, the free cell beside an `In` one nearest (through cells not `Out`) to
    /// a target region that holds fewer `In` cells than its count needs (a cell inside it
    /// first: the room is filled before the blob round the root grows). Why: the frontier's breadth-first growth
    /// spends a tight count on a blob round the root and never reaches a far room, and the
    /// engine then finds the walk conflict by conflict (a 20×20 far room with a floor budget
    /// of 60: no level in 20 CPU s; the eager model finds one at once). Decisions only: the
    /// levels admitted are the same.
    fn toward_target(graph: &Graph, rule: &Rule) -> Option<usize> {
        if rule.targets.is_empty() {
            return None;
        }
        let cells = rule.state.len();
        for (target, need) in &rule.targets {
            let ins = (0..cells).filter(|&c| target[c] && rule.state[c] == State::In);
            if ins.count() >= *need {
                continue;
            }
            let mut dist = vec![u32::MAX; cells];
            let mut queue = std::collections::VecDeque::new();
            for c in (0..cells).filter(|&c| target[c] && rule.state[c] != State::Out) {
                dist[c] = 0;
                queue.push_back(c);
            }
            while let Some(c) = queue.pop_front() {
                for d in graph.around(c) {
                    if dist[d] == u32::MAX && rule.state[d] != State::Out {
                        dist[d] = dist[c] + 1;
                        queue.push_back(d);
                    }
                }
            }
            let best = (0..cells)
                .filter(|&c| rule.state[c] == State::Free && dist[c] != u32::MAX)
                .filter(|&c| graph.around(c).any(|d| rule.state[d] == State::In))
                .min_by_key(|&c| (dist[c], c));
            if best.is_some() {
                return best;
            }
        }
        None
    }
}

/// Where reachability runs among the search parts: last, the most expensive pass.
const RANK: u32 = 3;

impl SearchPart for Reachability {
    fn rank(&self) -> u32 {
        RANK
    }

    fn observed(&self, out: &mut Vec<Var>) {
        out.extend(
            (0..self.uses.len())
                .filter(|&v| !self.uses[v].is_empty())
                .filter_map(|v| Var::new(v as u32)),
        );
    }

    fn notify(&mut self, lits: &[Lit], level: u32, first: u64) {
        for (i, &l) in lits.iter().enumerate() {
            let now = first + i as u64;
            let Some(uses) = self.uses.get(l.var().index()) else {
                continue;
            };
            for &(r, c, positive) in uses {
                let rule = &mut self.rules[r as usize];
                let c = c as usize;
                let is_in = l.is_positive() == positive;
                let was_in = rule.state[c] == State::In;
                rule.state[c] = if is_in { State::In } else { State::Out };
                rule.ins = rule.ins + usize::from(is_in) - usize::from(was_in);
                rule.stamp[c] = now;
                if is_in && rule.root.is_none() && rule.anchor.is_none() {
                    rule.anchor = Some(c); // the earliest In cell
                }
                // What cannot change the last pass's result: a cell it forced taking that
                // value, and a cell outside the anchor's region going out (the region, its
                // cut vertices and every reach stay as they were).
                let ours = rule.forced[c] == self.epoch;
                if is_in && !rule.rebuild {
                    for d in self.graph.around(c) {
                        if rule.state[d] == State::Free {
                            rule.frontier.push_back(d);
                        }
                    }
                }
                if is_in {
                    if !rule.reached[c] {
                        // Outside the anchor's region: a conflict, found by a full pass.
                        rule.dirty = true;
                    } else if !ours
                        && !self
                            .graph
                            .around(c)
                            .any(|d| rule.state[d] == State::In && rule.reached[d])
                    {
                        // Inside, not beside an `In` cell: new cut vertices may separate it from
                        // the anchor. Looked for at the next full pass (a cell beside an `In`
                        // one has no cut vertex that one lacks).
                        rule.cuts = true;
                    }
                } else if rule.reached[c] && !ours {
                    // It leaves the region. A cell going out strands nothing else when it is
                    // a simple point (its open neighbours join around it); otherwise a local
                    // search decides.
                    rule.reached[c] = false;
                    rule.region -= 1;
                    if rule.min_size > 0 && rule.region <= rule.min_size {
                        rule.size_due = true;
                    }
                    let state = &rule.state;
                    if !self.graph.locally_simple(c, &|d| state[d] != State::Out) {
                        rule.pending.push(c);
                    }
                }
                self.told.push((r, c as u32, level));
            }
        }
    }

    fn backtrack(&mut self, level: u32) {
        let mut freed = std::mem::take(&mut self.freed);
        freed.clear();
        while let Some(&(r, c, l)) = self.told.last() {
            if l <= level {
                break;
            }
            self.told.pop();
            let rule = &mut self.rules[r as usize];
            rule.ins -= usize::from(rule.state[c as usize] == State::In);
            rule.state[c as usize] = State::Free;
            rule.stamp[c as usize] = u64::MAX;
            freed.push((r, c));
        }
        // Forced marks describe a deeper assignment.
        self.epoch = self.epoch.wrapping_add(1);
        for rule in &mut self.rules {
            rule.cuts = true;
            rule.rebuild = true;
            // A pending cell the backtrack freed no longer cuts anything: `split_after` takes
            // its cell as out, and a pocket found so would be refuted with a separator that
            // leaves the cell out (an unsound clause: the pocket joins the region through it).
            // This happened when another part's conflict came between the notification and
            // the local pass (`tests/progress.rs`, paths with connectivity).
            let state = &rule.state;
            rule.pending.retain(|&c| state[c] == State::Out);
        }
        // Cells freed beside the region join it, with everything free they reach: the region
        // only grows when assignments are undone, so it is extended, not recomputed.
        for &(r, c) in &freed {
            let rule = &mut self.rules[r as usize];
            if rule.dirty || rule.reached[c as usize] {
                continue;
            }
            let c = c as usize;
            if !self.graph.around(c).any(|d| rule.reached[d]) {
                continue;
            }
            rule.reached[c] = true;
            rule.region += 1;
            let mut todo = vec![c];
            while let Some(x) = todo.pop() {
                for d in self.graph.around(x) {
                    if !rule.reached[d] && rule.state[d] != State::Out {
                        rule.reached[d] = true;
                        rule.region += 1;
                        todo.push(d);
                    }
                }
            }
        }
        self.freed = freed;
        // The region is the non-Out component of the anchor. A new anchor (the old one was
        // undone) inside it has the same component; one outside it needs a full pass.
        for rule in &mut self.rules {
            if rule.anchor.is_some_and(|a| rule.state[a] != State::In) {
                rule.anchor = None;
                Self::anchor(rule);
            }
            if let Some(a) = rule.anchor.or(rule.root)
                && (!rule.reached[a] || rule.state[a] != State::In)
            {
                rule.dirty = true;
            }
        }
    }

    fn decides(&self) -> bool {
        true
    }

    fn decide(&mut self, ctx: &Context<'_>) -> Option<Lit> {
        for rule in &mut self.rules {
            if let Some(c) = Self::toward_target(&self.graph, rule)
                && ctx.value(rule.lits[c]).is_none()
            {
                return Some(rule.lits[c]);
            }
            if rule.rebuild {
                rule.rebuild = false;
                rule.frontier.clear();
                rule.deferred.clear();
                rule.cover_at = 0;
                for c in 0..rule.state.len() {
                    if rule.state[c] == State::In {
                        for d in self.graph.around(c) {
                            if rule.state[d] == State::Free {
                                rule.frontier.push_back(d);
                            }
                        }
                    }
                }
            }
            while let Some(c) = rule.frontier.pop_front() {
                if rule.state[c] != State::Free || ctx.value(rule.lits[c]).is_some() {
                    continue;
                }
                let want = rule.wish[c].unwrap_or(true)
                    || rule.no_leaves && Self::leaves_a_leaf(&self.graph, rule, c);
                if !want
                    && (!rule.cover.is_empty() || rule.root.is_none() && rule.ins < rule.min_size)
                {
                    rule.deferred.push_back(c);
                    continue;
                }
                return Some(if want { rule.lits[c] } else { !rule.lits[c] });
            }
            // The wished cells beside the region ran out. While the class is smaller than its
            // count's floor, open the newest cell the wishes left out (the region must grow
            // somewhere, and through a cell next to it the next wished patch joins); once it
            // is big enough, close them as wished. Why: closing them all first sealed the
            // region below the floor, and the engine found each opening through a conflict —
            // thousands on the mirrored 64×64 arena, whose mirror halves the region's ways out
            // (`benches/results/issue42-perf-2026-12-07.md`). Only with root "any" (the region
            // grown from the wishes nearest the centre): with a given root, the caves grew
            // worse with it (cave-64, seeds 1–5: 63–158 conflicts against 13–61).
            // Windows to cover: open the left-out cell nearest the first window the region
            // has not reached yet; its wished neighbours join the frontier (above).
            if !rule.cover.is_empty()
                && let Some(c) = Self::toward_cover(&self.graph, rule, ctx)
            {
                return Some(rule.lits[c]);
            }
            while let Some(c) = rule.deferred.pop_back() {
                if rule.state[c] != State::Free || ctx.value(rule.lits[c]).is_some() {
                    continue;
                }
                let open = rule.ins < rule.min_size;
                return Some(if open { rule.lits[c] } else { !rule.lits[c] });
            }
            // No In cell yet ("any" root): start where the wishes put the class, nearest the
            // centre (a region grown from the middle can still be sealed off from the border,
            // as enclosure rules want; one grown from the edge cannot).
            if Self::anchor(rule).is_none() {
                let (w, h) = (self.graph.width() as i64, self.graph.height() as i64);
                let centre = |c: usize| {
                    let (x, y) = ((c as i64 % w) * 2 - (w - 1), (c as i64 / w) * 2 - (h - 1));
                    x * x + y * y
                };
                if let Some(c) = (0..rule.state.len())
                    .filter(|&c| rule.state[c] == State::Free && rule.wish[c] == Some(true))
                    .min_by_key(|&c| (centre(c), c))
                {
                    return Some(rule.lits[c]);
                }
            }
        }
        None
    }

    fn propagate(&mut self, ctx: &mut Context<'_>, now: u64, lazy: &mut Lazy<'_>) -> bool {
        self.now = now;
        for r in 0..self.rules.len() {
            let local = !self.rules[r].pending.is_empty() || self.rules[r].size_due;
            if !self.rules[r].dirty && local {
                self.rules[r].size_due = false;
                if self.split_pass(r, ctx, lazy) {
                    return true; // a conflict
                }
            }
            if !self.rules[r].dirty {
                continue;
            }
            self.rules[r].dirty = false;
            self.rules[r].pending.clear();
            let Some(anchor) = Self::anchor(&mut self.rules[r]) else {
                continue;
            };
            self.found.clear();
            let rule = &mut self.rules[r];
            let cuts = std::mem::replace(&mut rule.cuts, false);
            reach::infer(
                &self.graph,
                &rule.state,
                anchor,
                cuts,
                &mut rule.scratch,
                &mut self.found,
            );
            let found = std::mem::take(&mut self.found);
            // The breadth-first search of the pass is complete even when it found a conflict.
            let mut region = 0;
            for c in 0..rule.reached.len() {
                rule.reached[c] = reach::was_reached(&rule.scratch, c);
                region += rule.reached[c] as usize;
            }
            rule.region = region;
            self.epoch = self.epoch.wrapping_add(1);
            for inf in &found {
                match *inf {
                    Inference::Conflict { cell } => {
                        self.refute(r, anchor, cell, ctx);
                        self.found = found;
                        self.rules[r].dirty = true;
                        return true;
                    }
                    Inference::Out { cell } => {
                        self.rules[r].forced[cell] = self.epoch;
                        let lit = !self.rules[r].lits[cell];
                        let why = why(OUT, r, cell, 0, anchor, self.now);
                        lazy.propagate(ctx, lit, why);
                    }
                    Inference::In { cell, witness } => {
                        self.rules[r].forced[cell] = self.epoch;
                        let lit = self.rules[r].lits[cell];
                        let why = why(IN, r, cell, witness, anchor, self.now);
                        lazy.propagate(ctx, lit, why);
                    }
                }
            }
            self.found = found;
            if self.size_check(r, anchor, ctx, lazy) {
                return true;
            }
        }
        false
    }

    fn explain(&mut self, _lit: Lit, why: Reason, reason: &mut Vec<Lit>) {
        let [r, cell, witness, anchor] = why.at.map(|x| x as usize);
        let stamp = why.stamp;
        if why.kind == OUT {
            return self.cut_off(r, anchor, cell, stamp, reason);
        }
        let rule = &self.rules[r];
        if why.kind == SIZE {
            let was_out = |c: usize| rule.state[c] == State::Out && rule.stamp[c] <= stamp;
            let (border, _) = reach::border(&self.graph, anchor, &was_out, None, &mut self.scratch);
            reason.extend(border.into_iter().map(|c| rule.lits[c]));
            if rule.root.is_none() {
                reason.push(!rule.lits[anchor]);
            }
            return;
        }
        debug_assert_eq!(why.kind, IN);
        reason.push(!rule.lits[witness]);
        let (graph, scratch) = (&self.graph, &mut self.scratch);
        Self::explanation(
            graph,
            rule,
            anchor,
            witness,
            Some(cell),
            stamp,
            scratch,
            reason,
        );
    }

    fn recheck(&mut self) {
        for r in 0..self.rules.len() {
            self.rules[r].dirty = true;
        }
    }
}

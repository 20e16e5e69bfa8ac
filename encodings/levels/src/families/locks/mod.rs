//! Locks and keys (progression, issue 42): `locks[i]`, a player walking from `start` over
//! `through` cells and door cells, picking up keys; a door opens once a key of its colour has
//! been picked up. `FORMAT.md` (`locks`) defines the two conditions: every door is **gated**
//! (no door of a colour can be reached — stood beside — before a key of that colour is held) and
//! every door **opens** (the progression's fixpoint enters every door cell).
//!
//! Encoding (the export and the cut loop, `Mode::Eager` and `Mode::Lazy`), sound and complete:
//! - **Gated**, per colour `c`: the reach of the progression with `c`'s keys blocked and `c`
//!   never open, in the *forcing* direction (Horn clauses whose least model is that reach):
//!   `A(start)` (unless the start holds a key `c`), `A(u) ∧ E(v) → A(v)` for neighbours,
//!   `E(v)` forced by "walkable, not a key or door of `c`, and every other colour it is a door
//!   of open" (`g_d(v)` forced by `¬door_d(v)` or by `P(d)`), `P(d)` forced by a reached key of
//!   `d`; then no door of `c` on or beside a reached cell. Sound: every model's `A` contains
//!   the least fixpoint; complete: the fixpoint itself satisfies every clause.
//! - **Opens**: the progression staged, one stage per colour plus one (a colour opens per
//!   round or the fixpoint is reached): `R_s` reached in stage `s`, justified by founded ranks
//!   (`founded.rs`) within the stage, a door cell entered in stage `s` only with its colours in
//!   `O_s`, `O_s(d)` only with a key of `d` reached in stage `s − 1` (`O_0` empty); every door
//!   cell must be in the last stage. Sound: justified reach is contained in the true
//!   progression's; complete: the progression's rounds, ranked by breadth-first depth, are a
//!   model.
//!
//! Opens is left out when a connectivity rule implies it (`opens_follows`).
//!
//! **Propagated model** (`Mode::Propagate`): neither set of clauses; the search part
//! (`propagate.rs`) checks the gating (a pessimistic gated walk per colour, `gate.rs`: a door
//! beside it is a conflict, the shortest path from the start its clause) and, unless a
//! connectivity rule implies it, "opens" (an optimistic progression, conflicts explained by
//! the cut that stopped it), and proposes a closet per colour before the map is grown (its
//! decisions: the measured cause of the slow 64×64 seeds, `propagate.rs`). The both-way
//! enumeration tests (`tests/progress.rs`) run the propagated model too. On dungeon-locks-64
//! the model shrinks from 163,795 variables / 704,666 clauses to 114,640 / 485,048.
//! `describe` reports the progression (rounds, colours opened and gated, doors reached:
//! `describe/apart.rs`).

mod gate;
mod propagate;
pub(crate) mod rule;

use crate::error::GridError;
use crate::family::{Family, Reading, Switch, tagged};
use crate::founded::founded;
use crate::model::{GridModel, Mode, set_wished};
use crate::spec::{GridSpec, RuleRef, RuleTag, Selection};
use grim_solver::Lit;
use rule::{LockRule, NAME};
use std::sync::Arc;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Locks;

impl Family for Locks {
    fn fields(&self) -> &'static [&'static str] {
        &[NAME]
    }

    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError> {
        at.rules(NAME, rule::read_rule, |spec, rules| spec.locks = rules)
    }

    fn encode(&self, m: &mut GridModel) {
        let rules = m.spec.locks.clone();
        for (i, rule) in rules.iter().enumerate() {
            m.tag(Some(RuleTag::new(NAME, i)));
            encode_rule(m, rule);
        }
        m.tag(None);
    }

    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        tagged(spec, NAME, &["start", "through"], 0..spec.locks.len())
    }
}

/// The literals of one rule: per cell `through`, and per colour its key and door literals.
struct Lits {
    start: usize,
    through: Vec<Lit>,
    keys: Vec<Vec<Lit>>,
    doors: Vec<Vec<Lit>>,
}

fn encode_rule(m: &mut GridModel, rule: &LockRule) {
    let (x, y) = rule.start;
    let lits = Lits {
        start: m.spec.index(x, y),
        through: m.class_lits(&rule.through),
        keys: rule
            .colors
            .iter()
            .map(|c| m.selection_lits(&c.key))
            .collect(),
        doors: rule
            .colors
            .iter()
            .map(|c| m.selection_lits(&c.door))
            .collect(),
    };
    if m.mode != Mode::Propagate {
        for c in 0..rule.colors.len() {
            gated(m, &lits, c);
        }
    }
    let follows = opens_follows(&m.spec, rule);
    if m.mode == Mode::Propagate {
        m.plans.push(Arc::new(propagate::Plan {
            width: m.spec.width,
            height: m.spec.height,
            start: lits.start,
            through: lits.through,
            keys: lits.keys,
            doors: lits.doors,
            opens: !follows,
            gate: true,
            ff: m.problem.always_false(),
        }));
    } else if !follows {
        opens(m, &lits);
    }
}

/// Whether "every door opens" follows from the gating and a connectivity rule of the spec, so
/// that its staged encoding (the costly part) can be left out without admitting a level that
/// breaks it: a connectivity rule rooted at the start whose class is exactly the walkable
/// tiles (`through` and the door tiles; the doors given as tiles or classes). Then, in a level
/// keeping both, a door never entered would have a walkable path from the start, and the first
/// cell of it outside `R*` would be a door of a colour never held beside `R*`, which the
/// gating forbids (`FORMAT.md`, `locks`).
fn opens_follows(spec: &GridSpec, rule: &LockRule) -> bool {
    let mut walkable = rule.through.clone();
    for color in &rule.colors {
        match &color.door {
            Selection::Tiles(set) => {
                for (w, &d) in walkable.iter_mut().zip(set) {
                    *w |= d;
                }
            }
            Selection::LayerValue { .. } => return false,
        }
    }
    spec.connectivity
        .iter()
        .any(|c| c.root == Some(rule.start) && c.class == walkable)
}

/// A clause without its constant false literals; none when a literal is constant true.
fn clause(m: &mut GridModel, lits: &[Lit]) {
    let (tt, ff) = (m.problem.always_true(), m.problem.always_false());
    if lits.contains(&tt) {
        return;
    }
    let kept: Vec<Lit> = lits.iter().copied().filter(|&l| l != ff).collect();
    m.problem.add_clause(&kept, None);
}

/// Colour `c` is gated: the module doc's first item.
fn gated(m: &mut GridModel, l: &Lits, c: usize) {
    let cells = m.spec.cells();
    let ff = m.problem.always_false();
    let k = l.doors.len();
    let reach: Vec<Lit> = (0..cells).map(|_| m.problem.new_var().pos()).collect();
    let open: Vec<Lit> = (0..k).map(|_| m.problem.new_var().pos()).collect();
    // With seeded hints, the gating's reach is hinted "reached": deciding a cell unreached
    // would force walls around it, deciding it reached only forbids the rare door beside it.
    let hinted = !m.wished.is_empty();
    if hinted {
        for &r in &reach {
            set_wished(&mut m.wished, r, Some(true));
        }
    }
    clause(m, &[l.keys[c][l.start], reach[l.start]]);
    for v in 0..cells {
        // g_d(v): "v is no closed door of d" for the other colours that may be doors here.
        let mut closed_any: Vec<Lit> = Vec::new();
        for d in (0..k).filter(|&d| d != c && l.doors[d][v] != ff) {
            let g = m.problem.new_var().pos();
            if hinted {
                set_wished(&mut m.wished, g, Some(true));
            }
            clause(m, &[l.doors[d][v], g]);
            clause(m, &[!open[d], g]);
            closed_any.push(!g);
        }
        let enter = m.problem.new_var().pos();
        if hinted {
            set_wished(&mut m.wished, enter, Some(true));
        }
        let walk: Vec<Lit> = std::iter::once(l.through[v])
            .chain(l.doors.iter().map(|d| d[v]))
            .filter(|&w| w != ff)
            .collect();
        for w in walk {
            let mut cl = vec![!w, l.keys[c][v], l.doors[c][v]];
            cl.extend(&closed_any);
            cl.push(enter);
            clause(m, &cl);
        }
        let nbrs: Vec<usize> = m.spec.neighbours(v).collect();
        for &u in &nbrs {
            clause(m, &[!reach[u], !enter, reach[v]]);
        }
        for d in (0..k).filter(|&d| d != c) {
            clause(m, &[!l.keys[d][v], !reach[v], open[d]]);
        }
        if l.doors[c][v] != ff {
            clause(m, &[!reach[v], !l.doors[c][v]]);
            for &u in &nbrs {
                clause(m, &[!reach[u], !l.doors[c][v]]);
            }
        }
    }
}

/// Every door opens: the module doc's second item.
fn opens(m: &mut GridModel, l: &Lits) {
    let cells = m.spec.cells();
    let (tt, ff) = (m.problem.always_true(), m.problem.always_false());
    let k = l.doors.len();
    let base: Vec<Lit> = (0..cells)
        .map(|v| if v == l.start { tt } else { ff })
        .collect();
    let mut last: Option<Vec<Lit>> = None;
    for _stage in 0..=k {
        // O_s(d): open in this stage only with a key of d reached in the stage before.
        let open: Vec<Lit> = match &last {
            None => vec![ff; k],
            Some(prev) => (0..k)
                .map(|d| {
                    let o = m.problem.new_var().pos();
                    let mut support = vec![!o];
                    for v in 0..cells {
                        if l.keys[d][v] == ff || prev[v] == ff {
                            continue;
                        }
                        let y = m.problem.new_var().pos();
                        clause(m, &[!y, l.keys[d][v]]);
                        clause(m, &[!y, prev[v]]);
                        support.push(y);
                    }
                    clause(m, &support);
                    o
                })
                .collect(),
        };
        let reach: Vec<Lit> = (0..cells)
            .map(|v| {
                if v == l.start {
                    return tt;
                }
                let r = m.problem.new_var().pos();
                let mut walkable = vec![!r, l.through[v]];
                walkable.extend(l.doors.iter().map(|d| d[v]));
                clause(m, &walkable);
                for d in 0..k {
                    if l.doors[d][v] != ff {
                        clause(m, &[!r, !l.doors[d][v], open[d]]);
                    }
                }
                r
            })
            .collect();
        founded(m, &reach, &base, None);
        last = Some(reach);
    }
    if let Some(reach) = last {
        for door in &l.doors {
            for v in 0..cells {
                if door[v] != ff {
                    clause(m, &[!door[v], reach[v]]);
                }
            }
        }
    }
}

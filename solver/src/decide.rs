//! Decisions: the unassigned variable of highest EVSIDS activity, with its phase chosen by, in
//! order, the user's preference (`set_phase`), the target phase (stable mode), and the saved
//! phase (phase saving: Pipatsrisawat & Darwiche, SAT 2007).
//!
//! Why the user phase wins over everything: level generation draws seeded per-cell wishes and
//! expects the solver to honour them wherever the rules allow, on every decision, not only the
//! first; target and saved phases only break the ties the user left open.

use crate::solver::Solver;
use crate::types::{L_FALSE, L_TRUE, L_UNDEF, Lit, Var};

impl Solver {
    /// The next decision literal, or `None` when every variable is assigned.
    pub(crate) fn pick_branch_lit(&mut self) -> Option<Lit> {
        loop {
            let v = self.heap.pop(&self.activity)?;
            if self.vals[Var::from_index(v).pos().code()] == L_UNDEF && !self.eliminated[v] {
                return Some(Var::from_index(v).lit(self.phase_of(v)));
            }
        }
    }

    /// The polarity tried first for `v` (true = positive).
    fn phase_of(&self, v: usize) -> bool {
        match self.user_phase[v] {
            L_TRUE => return true,
            L_FALSE => return false,
            _ => {}
        }
        if self.stable && self.opts.target_phases {
            match self.target[v] {
                L_TRUE => return true,
                L_FALSE => return false,
                _ => {}
            }
        }
        self.saved[v]
    }
}

//! Variables, literals, answers and budgets: the vocabulary of the public API.
//!
//! `Lit` is a packed `u32` (2·var + sign), the layout every modern solver uses: the literal's
//! index addresses watch lists and the assignment directly, and negation is one XOR.

#![forbid(unsafe_code)]

use std::fmt;

/// A propositional variable, numbered from 0.
///
/// Why a newtype and not a bare `u32`: the engine indexes half a dozen arrays by variable and
/// another half dozen by literal; mixing the two up is the classic solver bug, and the type
/// system catches it for free.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Var(u32);

#[allow(clippy::should_implement_trait)] // `v.neg()` reads as "the negative literal of v"
impl Var {
    /// The largest variable index the engine accepts. `Lit` needs one spare bit for the sign,
    /// and clause-arena offsets share the `u32` width, so variables stop at 2^31 - 2.
    pub const MAX_INDEX: u32 = (1 << 31) - 2;

    /// The variable with 0-based index `index`. Returns `None` beyond [`Var::MAX_INDEX`].
    pub fn new(index: u32) -> Option<Var> {
        (index <= Self::MAX_INDEX).then_some(Var(index))
    }

    /// The variable with 0-based `index`, for callers that already bounded it.
    pub(crate) fn from_index(index: usize) -> Var {
        debug_assert!(index as u64 <= Self::MAX_INDEX as u64);
        Var(index as u32)
    }

    /// 0-based index, for indexing per-variable arrays.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The positive literal of this variable.
    #[inline(always)]
    pub fn pos(self) -> Lit {
        Lit(self.0 << 1)
    }

    /// The negative literal of this variable.
    #[inline(always)]
    pub fn neg(self) -> Lit {
        Lit((self.0 << 1) | 1)
    }

    /// The literal of this variable with the given polarity (`true` = positive).
    #[inline(always)]
    pub fn lit(self, positive: bool) -> Lit {
        Lit((self.0 << 1) | (!positive) as u32)
    }

    /// DIMACS number of this variable (index + 1).
    pub fn to_dimacs(self) -> u32 {
        self.0 + 1
    }
}

impl fmt::Debug for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.0 + 1)
    }
}

/// A literal: a variable or its negation, packed as 2·var + sign (sign 1 = negative).
///
/// `#[repr(transparent)]` is load-bearing: the clause arena stores literals as `u32` words and
/// views them as `&[Lit]` (see `clause.rs`).
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Lit(u32);

impl Lit {
    /// The literal of `var`, negative when `negative` is set.
    #[inline(always)]
    pub fn new(var: Var, negative: bool) -> Lit {
        Lit((var.0 << 1) | negative as u32)
    }

    /// Parses a non-zero DIMACS integer (`3` → x3, `-3` → ¬x3). Returns `None` for 0 and for
    /// magnitudes beyond [`Var::MAX_INDEX`] + 1, so callers can report the column themselves.
    pub fn from_dimacs(value: i64) -> Option<Lit> {
        if value == 0 {
            return None;
        }
        let magnitude = value.unsigned_abs();
        if magnitude > Var::MAX_INDEX as u64 + 1 {
            return None;
        }
        Some(Lit::new(Var((magnitude - 1) as u32), value < 0))
    }

    /// The DIMACS integer of this literal.
    pub fn to_dimacs(self) -> i64 {
        let v = self.var().to_dimacs() as i64;
        if self.is_negative() { -v } else { v }
    }

    /// The literal's variable.
    #[inline(always)]
    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }

    /// True for ¬x, false for x.
    #[inline(always)]
    pub fn is_negative(self) -> bool {
        self.0 & 1 == 1
    }

    /// True for x, false for ¬x.
    #[inline(always)]
    pub fn is_positive(self) -> bool {
        self.0 & 1 == 0
    }

    /// Index into per-literal arrays (watch lists): 2·var + sign.
    #[inline(always)]
    pub fn code(self) -> usize {
        self.0 as usize
    }

    /// The literal whose `code` is `code`, for callers that walk per-literal arrays.
    #[inline(always)]
    pub(crate) fn from_code(code: usize) -> Lit {
        debug_assert!(code as u64 <= u32::MAX as u64);
        Lit(code as u32)
    }
}

/// Puts `lits` in the normal form of a clause — sorted by code, each literal once — and says
/// whether it is a real constraint: `false` for a tautology (a literal beside its negation;
/// after sorting they are adjacent, codes 2v and 2v + 1), which every assignment satisfies.
/// `lits` is sorted and deduplicated either way.
///
/// The workspace's one tautology check: the engine's `add_clause` and its propagator's
/// clauses use it, and so does every clause store above it (grim-maxsat's flat formula, its
/// at-most-one propagator, its Problem API and symmetry test), instead of each writing its own.
pub fn normalise_clause(lits: &mut Vec<Lit>) -> bool {
    lits.sort_unstable();
    lits.dedup();
    !lits.windows(2).any(|w| w[0] == !w[1])
}

impl std::ops::Not for Lit {
    type Output = Lit;
    #[inline(always)]
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

/// The answer of [`crate::Solver::solve`].
///
/// UNSAT is an answer, not an error; `Unknown` means a budget or the terminate flag stopped the
/// search before either was proven — never a guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// A model was found and checked against the original clauses; read it with `value`/`model`.
    Sat,
    /// No model exists under the given assumptions; `failed` names the assumptions responsible
    /// (empty when the clauses alone are unsatisfiable).
    Unsat,
    /// The search stopped early (budget, terminate flag). Nothing was proven.
    Unknown,
}

/// Limits for one call of [`crate::Solver::solve`]. Counted from the start of that call.
///
/// Conflicts and propagations are deterministic budgets (the same run stops at the same point
/// every time); wall-clock limits belong to the caller, who sets the terminate flag from a timer,
/// because a time-based decision inside the engine would break determinism.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Stop with `Unknown` after this many conflicts in this call.
    pub conflicts: Option<u64>,
    /// Stop with `Unknown` after this many propagated literals in this call.
    pub propagations: Option<u64>,
}

impl Budget {
    /// No limit: run until an answer (or the terminate flag).
    pub const UNLIMITED: Budget = Budget {
        conflicts: None,
        propagations: None,
    };

    /// A budget of `n` conflicts.
    pub fn conflicts(n: u64) -> Budget {
        Budget {
            conflicts: Some(n),
            propagations: None,
        }
    }

    /// A budget of `n` propagations.
    pub fn propagations(n: u64) -> Budget {
        Budget {
            conflicts: None,
            propagations: Some(n),
        }
    }

    /// What is left of this budget after `conflicts` and `propagations` were spent (a limit
    /// that is `None` stays `None`; a spent one is `Some(0)`). For callers that hold several
    /// `solve` calls to one budget, as the MaxSAT and grid layers do.
    ///
    /// ```
    /// use grim_solver::Budget;
    /// let b = Budget::conflicts(100);
    /// assert_eq!(b.left_after(30, 5_000), Budget::conflicts(70));
    /// assert_eq!(b.left_after(300, 0), Budget::conflicts(0));
    /// assert_eq!(Budget::UNLIMITED.left_after(30, 5_000), Budget::UNLIMITED);
    /// ```
    pub fn left_after(self, conflicts: u64, propagations: u64) -> Budget {
        Budget {
            conflicts: self.conflicts.map(|b| b.saturating_sub(conflicts)),
            propagations: self.propagations.map(|b| b.saturating_sub(propagations)),
        }
    }
}

/// Three-valued truth for the trail: packed in an `i8` so the assignment array stays dense.
pub(crate) type LBool = i8;
pub(crate) const L_TRUE: LBool = 1;
pub(crate) const L_FALSE: LBool = -1;
pub(crate) const L_UNDEF: LBool = 0;

//! The clause arena: every clause of at least two literals lives in one `Vec<u32>`, addressed
//! by a `u32` offset (`CRef`).
//!
//! Layout of a clause at offset `c`:
//! ```text
//! arena[c]     = number of literals
//! arena[c + 1] = flags: bit 0 learned, bit 1 deleted, bit 2 moved (during collection),
//!                bit 5 vivified, bit 6 hyper (a hyper-binary resolvent of probing),
//!                bits 7-11 `used` (reductions to go since it was learned or last took part
//!                in a conflict, `USED_MAX` at that moment), bits 12.. LBD
//! arena[c + 2] = activity (f32 bits) for learned clauses; during collection, the new offset
//! arena[c + 3..] = literals (packed `Lit` codes)
//! arena[c - 2], arena[c - 1] = the clause's LRAT identifier (low, high 32 bits), only when
//!                the arena was made for an LRAT proof (`Arena::with_ids`)
//! ```
//! Why the identifier sits before the header, and only under LRAT: propagation and analysis
//! index from `c` and never see it, so an arena without identifiers has exactly the layout it
//! had before LRAT existed (the same instructions and cache lines with no proof or a DRAT
//! one); with them, `alloc`, `relocate` and `delete`'s waste count step over two more words.
//! Why one arena instead of `Vec<Vec<Lit>>`: one allocation, clause headers next to their
//! literals, and 32-bit references that halve the size of a watch (MiniSat's `RegionAllocator`
//! design). Deletion is lazy: a clause is flagged deleted and stays in place until the next
//! collection, which copies live clauses into a fresh arena in the order they are reached from
//! the watch lists (better locality) and leaves a forwarding offset in the old header.
//!
//! Invariants (owned here):
//! 1. A `CRef` held anywhere — a watch, a reason, a clause list — is the offset of a clause of
//!    the current arena: a collection relocates every holder (`simplify.rs`) before the old
//!    arena is dropped. Propagation's unchecked reads (`lits_mut_unchecked`) rest on this.
//! 2. A deleted clause is never read for its literals by propagation or analysis: its
//!    watches are gone before propagation runs (`watch.rs` invariant 4), and it is the reason
//!    of no assignment above level 0 (`reduce.rs` spares locked clauses).
//! 3. The two watched literals of a clause are its first two (`watch.rs` invariant 1).
//! 4. Every live clause is in exactly one of `Clauses::originals` / `Clauses::learnts`;
//!    deleted ones leave the lists at the next `retain` (lazily, like the watches).
//!
//! `unsafe`: this file holds two of the engine's unsafe spots, the `&[u32]` → `&[Lit]` views
//! (`bytemuck_lits`) and `lits_mut_unchecked`; `propagate.rs` holds the third, its unchecked
//! loop. Every other module is `#![forbid(unsafe_code)]` (`tests::unsafe_lives_in_the_files_the_docs_name` in `lib.rs` keeps it so).

use crate::types::Lit;

/// A reference to a clause: its offset in the arena.
pub(crate) type CRef = u32;

/// The reason of a variable assigned by a decision, an assumption or a level-0 unit.
pub(crate) const NO_REASON: CRef = u32::MAX;

/// The reason of a literal an external propagator implied without explaining it yet
/// (`external.rs`): conflict analysis asks for the clause when it needs it
/// (`Solver::materialize_reason`). Never an arena offset (the arena stays below 2^31 words).
pub(crate) const LAZY_REASON: CRef = u32::MAX - 1;

/// Whether reason `r` names a clause of the arena (neither `NO_REASON` nor `LAZY_REASON`).
#[inline(always)]
pub(crate) fn is_clause(r: CRef) -> bool {
    r < LAZY_REASON
}

const HEADER: usize = 3;
const LEARNED: u32 = 1;
const DELETED: u32 = 2;
const MOVED: u32 = 4;
const VIVIFIED: u32 = 1 << 5;
const HYPER: u32 = 1 << 6;
const USED_SHIFT: u32 = 7;
/// What a learned clause's `used` is set to when it is learned or takes part in a conflict;
/// every reduction decrements it (`reduce.rs` reads how long ago that was from it).
pub(crate) const USED_MAX: u32 = 31;
const USED_MASK: u32 = USED_MAX << USED_SHIFT;
const LBD_SHIFT: u32 = 12;
/// The LBD field has the 20 bits above `LBD_SHIFT`; larger LBDs are stored as this (no tier
/// tells them apart: tiers end at `reduce_tier2_glue` ≤ 1000, or at the histogram's last
/// glue in `reduce.rs`).
const MAX_LBD: u32 = (1 << (32 - LBD_SHIFT)) - 1;
/// The arena stops at 2^31 words (8 GiB): watches use the top bit of an offset to tag binary
/// clauses (`watch.rs`), and `NO_REASON` must stay out of range.
const MAX_WORDS: usize = (1 << 31) - 1;

/// The clause lists: which arena clauses are irredundant and which are learned (invariant 4).
/// Written by `Solver::add_irredundant` (`solver.rs`), `search.rs` (learning), `reduce.rs`,
/// `vivify.rs`, `eliminate.rs` and `simplify.rs`, and through [`Clauses::push`] by `probe.rs`,
/// `subsume.rs`, `substitute.rs` and `external.rs`.
#[derive(Default)]
pub(crate) struct Clauses {
    /// Irredundant (original) clauses of two or more literals, and resolvents.
    pub(crate) originals: Vec<CRef>,
    /// Learned clauses of two or more literals.
    pub(crate) learnts: Vec<CRef>,
}

impl Clauses {
    /// Files the new clause `c` in `learnts` when `learned`, else in `originals`: the one
    /// place that decides which list a clause added by inprocessing or a propagator joins.
    pub(crate) fn push(&mut self, c: CRef, learned: bool) {
        if learned {
            self.learnts.push(c);
        } else {
            self.originals.push(c);
        }
    }

    /// Drops deleted clauses from both lists.
    pub(crate) fn retain_live(&mut self, arena: &Arena) {
        self.originals.retain(|&c| !arena.is_deleted(c));
        self.learnts.retain(|&c| !arena.is_deleted(c));
    }

    /// Drops deleted clauses and moves the others from `from` to `to` (collection).
    pub(crate) fn relocate(&mut self, from: &mut Arena, to: &mut Arena) {
        for cs in [&mut self.originals, &mut self.learnts] {
            cs.retain(|&c| !from.is_deleted(c));
            for c in cs.iter_mut() {
                *c = from.relocate(*c, to);
            }
        }
    }
}

/// The arena of clauses. See the module doc for the layout.
#[derive(Default, Clone)]
pub(crate) struct Arena {
    words: Vec<u32>,
    /// Words held by clauses flagged deleted: the collection trigger.
    wasted: usize,
    /// Each clause carries its LRAT identifier in the two words before its header (module
    /// doc); set once, before the first clause, by `Solver::set_proof`.
    ids: bool,
    /// Words held by identifiers. `size` and `wasted` leave them out, so that collections
    /// happen at the same moments with an LRAT proof as without (a collection reorders the
    /// clauses, and the order breaks ties in reduction and inprocessing: the proof must not
    /// change the search).
    id_words: usize,
}

/// Words before a clause's header when the arena carries identifiers.
const ID_WORDS: usize = 2;

impl Arena {
    /// Allocates a clause; `None` when the arena would outgrow 32-bit offsets (the caller turns
    /// that into `Unknown`, never a panic).
    /// `id` is the clause's LRAT identifier (ignored unless the arena carries identifiers).
    pub(crate) fn alloc(&mut self, lits: &[Lit], learned: bool, lbd: u32, id: u64) -> Option<CRef> {
        let extra = self.extra();
        if self.words.len() + extra + HEADER + lits.len() > MAX_WORDS {
            return None;
        }
        if self.ids {
            self.words.push(id as u32);
            self.words.push((id >> 32) as u32);
            self.id_words += ID_WORDS;
        }
        let offset = self.words.len();
        self.words.push(lits.len() as u32);
        self.words
            .push((learned as u32) | (lbd.min(MAX_LBD) << LBD_SHIFT));
        self.words.push(0f32.to_bits());
        self.words.extend(lits.iter().map(|l| l.code() as u32));
        Some(offset as CRef)
    }

    /// Words before each header: the identifier's, or none (module doc).
    #[inline(always)]
    fn extra(&self) -> usize {
        if self.ids { ID_WORDS } else { 0 }
    }

    /// Makes every clause allocated from now on carry an LRAT identifier. Pre: no clause yet.
    pub(crate) fn carry_ids(&mut self) {
        debug_assert!(self.words.is_empty());
        self.ids = true;
    }

    /// The LRAT identifier of clause `c`; 0 when the arena carries none.
    #[inline]
    pub(crate) fn id(&self, c: CRef) -> u64 {
        if !self.ids {
            return 0;
        }
        let c = c as usize;
        u64::from(self.words[c - 2]) | (u64::from(self.words[c - 1]) << 32)
    }

    /// Gives clause `c` a new identifier: it was changed in place (shortened by
    /// simplification or vivification), and the proof knows the new clause by a new number.
    pub(crate) fn set_id(&mut self, c: CRef, id: u64) {
        if self.ids {
            let c = c as usize;
            self.words[c - 2] = id as u32;
            self.words[c - 1] = (id >> 32) as u32;
        }
    }

    #[inline(always)]
    pub(crate) fn len(&self, c: CRef) -> usize {
        self.words[c as usize] as usize
    }

    /// The literals of clause `c`.
    #[inline(always)]
    pub(crate) fn lits(&self, c: CRef) -> &[Lit] {
        let start = c as usize + HEADER;
        let len = self.words[c as usize] as usize;
        lits_of(&self.words[start..start + len])
    }

    /// The literals of clause `c`, mutable (to move watches and shrink).
    #[inline(always)]
    pub(crate) fn lits_mut(&mut self, c: CRef) -> &mut [Lit] {
        let start = c as usize + HEADER;
        let len = self.words[c as usize] as usize;
        lits_of_mut(&mut self.words[start..start + len])
    }

    /// The literals of clause `c` without bounds checks, for propagation only.
    ///
    /// # Safety
    /// `c` must be the offset of a clause allocated in this arena (not a stale offset from
    /// before a collection): then `c + HEADER + len` lies within `words`.
    #[allow(unsafe_code)]
    #[inline(always)]
    pub(crate) unsafe fn lits_mut_unchecked(&mut self, c: CRef) -> &mut [Lit] {
        let start = c as usize + HEADER;
        // SAFETY: guaranteed by the caller (see above).
        unsafe {
            let len = *self.words.get_unchecked(c as usize) as usize;
            lits_of_mut(self.words.get_unchecked_mut(start..start + len))
        }
    }

    /// Shortens clause `c` to its first `new_len` literals (level-0 false literals removed).
    pub(crate) fn shrink(&mut self, c: CRef, new_len: usize) {
        let old = self.words[c as usize] as usize;
        debug_assert!(new_len >= 2 && new_len <= old);
        self.words[c as usize] = new_len as u32;
        self.wasted += old - new_len;
        // The dropped tail is skipped by `collect` through the header's length; it is only
        // wasted space until then. Mark nothing: iteration goes through the clause lists.
    }

    #[inline(always)]
    pub(crate) fn is_learned(&self, c: CRef) -> bool {
        self.words[c as usize + 1] & LEARNED != 0
    }

    /// Makes learned clause `c` irredundant (`subsume.rs`: a learned clause that subsumes an
    /// irredundant one takes its place); the caller moves it between the lists.
    pub(crate) fn set_irredundant(&mut self, c: CRef) {
        self.words[c as usize + 1] &= !(LEARNED | HYPER);
    }

    #[inline(always)]
    pub(crate) fn is_deleted(&self, c: CRef) -> bool {
        self.words[c as usize + 1] & DELETED != 0
    }

    /// Flags `c` deleted; its watches are removed lazily (see `Solver::collect_garbage`).
    pub(crate) fn delete(&mut self, c: CRef) {
        debug_assert!(!self.is_deleted(c));
        self.words[c as usize + 1] |= DELETED;
        self.wasted += HEADER + self.len(c);
    }

    #[inline(always)]
    pub(crate) fn lbd(&self, c: CRef) -> u32 {
        self.words[c as usize + 1] >> LBD_SHIFT
    }

    pub(crate) fn set_lbd(&mut self, c: CRef, lbd: u32) {
        let w = &mut self.words[c as usize + 1];
        *w = (*w & ((1 << LBD_SHIFT) - 1)) | (lbd.min(MAX_LBD) << LBD_SHIFT);
    }

    #[inline(always)]
    pub(crate) fn used(&self, c: CRef) -> u32 {
        (self.words[c as usize + 1] & USED_MASK) >> USED_SHIFT
    }

    pub(crate) fn set_used(&mut self, c: CRef, used: u32) {
        let w = &mut self.words[c as usize + 1];
        *w = (*w & !USED_MASK) | ((used.min(USED_MAX)) << USED_SHIFT);
    }

    /// Whether `vivify.rs` already tried this clause.
    pub(crate) fn is_vivified(&self, c: CRef) -> bool {
        self.words[c as usize + 1] & VIVIFIED != 0
    }

    pub(crate) fn set_vivified(&mut self, c: CRef) {
        self.words[c as usize + 1] |= VIVIFIED;
    }

    /// Whether `c` is a hyper-binary resolvent added by probing (`probe.rs`): unlike other
    /// learned binaries, reduction may delete it once unused (`reduce.rs`).
    pub(crate) fn is_hyper(&self, c: CRef) -> bool {
        self.words[c as usize + 1] & HYPER != 0
    }

    pub(crate) fn set_hyper(&mut self, c: CRef) {
        self.words[c as usize + 1] |= HYPER;
    }

    #[inline(always)]
    pub(crate) fn activity(&self, c: CRef) -> f32 {
        f32::from_bits(self.words[c as usize + 2])
    }

    pub(crate) fn set_activity(&mut self, c: CRef, a: f32) {
        self.words[c as usize + 2] = a.to_bits();
    }

    /// Words allocated in total, identifiers left out (see `id_words`).
    pub(crate) fn size(&self) -> usize {
        self.words.len() - self.id_words
    }

    /// One past the largest offset a clause can have (for tables indexed by `CRef`).
    pub(crate) fn end(&self) -> usize {
        self.words.len()
    }

    /// Words wasted by deleted or shrunk clauses.
    pub(crate) fn wasted(&self) -> usize {
        self.wasted
    }

    /// Moves clause `c` into `to` (once; later calls return the same new offset) and returns
    /// its new offset. Deleted clauses must not be relocated.
    pub(crate) fn relocate(&mut self, c: CRef, to: &mut Arena) -> CRef {
        let ci = c as usize;
        if self.words[ci + 1] & MOVED != 0 {
            return self.words[ci + 2];
        }
        debug_assert!(!self.is_deleted(c));
        let len = self.words[ci] as usize;
        let extra = self.extra();
        let new = (to.words.len() + extra) as CRef;
        to.words
            .extend_from_slice(&self.words[ci - extra..ci + HEADER + len]);
        to.id_words += extra;
        self.words[ci + 1] |= MOVED;
        self.words[ci + 2] = new;
        new
    }

    /// An empty arena like this one (identifiers or not), with room for `words`: the
    /// collection target.
    pub(crate) fn empty_like(&self, words: usize) -> Arena {
        Arena {
            words: Vec::with_capacity(words + self.id_words),
            wasted: 0,
            ids: self.ids,
            id_words: 0,
        }
    }
}

#[inline(always)]
fn lits_of(words: &[u32]) -> &[Lit] {
    bytemuck_lits(words)
}

#[inline(always)]
fn lits_of_mut(words: &mut [u32]) -> &mut [Lit] {
    bytemuck_lits_mut(words)
}

// `Lit` is declared `#[repr(transparent)]` over `u32` in types.rs, so these casts are sound.
// Why unsafe here: a safe alternative copies every clause on every visit. (The engine's other
// unsafe code is `lits_mut_unchecked` above and propagation's loop, `propagate.rs`.)
#[allow(unsafe_code)]
#[inline(always)]
fn bytemuck_lits(words: &[u32]) -> &[Lit] {
    // SAFETY: `Lit` is `#[repr(transparent)]` over `u32` (types.rs), so a `[u32]` has exactly
    // the layout of a `[Lit]` of the same length, and every u32 is a valid `Lit` bit pattern.
    unsafe { std::slice::from_raw_parts(words.as_ptr() as *const Lit, words.len()) }
}

#[allow(unsafe_code)]
#[inline(always)]
fn bytemuck_lits_mut(words: &mut [u32]) -> &mut [Lit] {
    // SAFETY: as in `bytemuck_lits`; the exclusive borrow of `words` is carried over.
    unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr() as *mut Lit, words.len()) }
}

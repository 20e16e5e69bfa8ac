//! Proof output: every clause the engine derives is written as an addition, every clause it
//! drops as a deletion, so an independent checker can confirm an UNSAT answer without trusting
//! the engine. Two formats, each as text or binary:
//!
//! - **DRAT** (Wetzler, Heule & Hunt, "DRAT-trim: efficient checking and trimming using
//!   expressive clausal proofs", SAT 2014): text (`1 -2 0`, `d 1 -2 0`) or binary (`a`/`d`
//!   followed by variable-length encoded literals `2·var + sign`, ended by a 0 byte). The
//!   checker (`drat-trim`, `rate`) searches for each clause's justification itself.
//! - **LRAT** (Cruz-Filipe, Heule, Hunt, Kaufmann & Schneider-Kamp, "Efficient Certified RAT
//!   Verification", CADE 2017): every clause has an identifier — the original clauses 1, 2, …
//!   in the order they were added, every derived clause the next number — and each addition
//!   carries its *hints*, the identifiers of the clauses that unit propagation uses to refute
//!   the clause's negation, in the order it uses them (`lrat.rs` computes them); a RAT step
//!   (factoring's extension clauses) carries, for each clause holding the pivot's negation, its
//!   negated identifier and the hints of that resolvent. Text: `ID L… 0 H… 0` and
//!   `ID d I… 0`; binary: `a` ID L… 0 H… 0 and `d` I… 0, every number as `2·|x| + (x < 0)` in
//!   the same variable-length code. The checker only follows the hints (no search), which is
//!   why the SAT Competition's verified checkers (cake_lpr) read LRAT, and why checking it is
//!   much faster than checking DRAT.
//!
//! What is logged, and why some deletions are not: learned clauses (analysis), clauses
//! shortened by level-0 simplification or vivification (the new clause first, then the
//! deletion of the old one), deletions by reduction, and the empty clause when the clauses
//! are refuted. With DRAT, deletions of clauses that touch a level-0 assignment are *not*
//! logged: the checker may see such a clause as the reason of a top-level unit, and a strict
//! checker (`rate` without `--skip-unit-deletions`) rejects deleting those. Keeping a clause
//! alive in the proof costs the checker a little time and is always sound. LRAT has no such
//! rule (every level-0 literal has its own unit clause there, `lrat.rs`), so its deletions are
//! all logged, each run of them as one line. Garbage collection moves clauses but changes none,
//! so it logs nothing and the order of events is the engine's order.
//!
//! Under assumptions an UNSAT answer does not refute the clauses, so no empty clause is
//! written; the proof then certifies every learned clause, and the failed core `F` can be
//! certified by checking the proof against the clauses plus the units of `F`.
//!
//! A proof that cannot be completed is never written silently: the reason is kept and
//! [`Solver::flush_proof`] returns it as an error (nothing more is written after it). With
//! LRAT that happens when the proof is set after the first clause, when an original clause is
//! added after derived ones took its identifier (reserve them first:
//! [`Solver::reserve_clause_ids`]), when an external propagator contributes a clause (its
//! clauses are axioms, which LRAT cannot state), and when factoring is undone (`factor.rs`).

#![forbid(unsafe_code)]

use std::io::{self, Write};

use crate::solver::Solver;
use crate::trail::Trail;
use crate::types::Lit;

/// Bytes buffered before a write to the proof's sink: one write per 64 KiB keeps the cost of
/// a proof to the encoding, not the system calls.
const BUFFER: usize = 1 << 16;

/// The proof format written by [`Solver::set_proof`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofFormat {
    /// Text DRAT: one clause per line, `d` for deletions.
    Text,
    /// Binary DRAT: smaller and faster to write and check (about a third of the text size).
    Binary,
    /// Text LRAT: clause identifiers and hints (module doc). The original clauses are
    /// numbered 1, 2, … in the order they are added: set the proof before the first clause,
    /// and reserve their count with [`Solver::reserve_clause_ids`] when it is known.
    LratText,
    /// Binary LRAT (the form LRAT checkers call CLRAT).
    LratBinary,
}

impl ProofFormat {
    /// Whether this is one of the LRAT formats.
    pub fn is_lrat(self) -> bool {
        matches!(self, ProofFormat::LratText | ProofFormat::LratBinary)
    }
}

/// The proof: off, or a writer, and with LRAT the identifiers. Every engine step that derives
/// or drops a clause calls `add` / `delete` here unconditionally; they cost one test when the
/// proof is off. Written only here; `lrat.rs` reads `unit` and sets it through `set_unit`.
#[derive(Default)]
pub(crate) struct Proof {
    writer: Option<Writer>,
    /// The writer is LRAT's: callers compute hints, the arena carries identifiers.
    lrat: bool,
    /// Original clauses added so far (counted with or without a proof); with LRAT, their
    /// identifiers are `1..=originals`.
    originals: u64,
    /// Identifiers `1..=reserved` belong to original clauses ([`Solver::reserve_clause_ids`]).
    reserved: u64,
    /// The last identifier given to a derived clause (0 before the first).
    last: u64,
    /// LRAT: per variable, the identifier of the unit clause of its level-0 literal (0: none
    /// yet; `lrat.rs` derives one for every level-0 literal).
    units: Vec<u64>,
}

impl Proof {
    /// Logs the addition of `lits`, a clause the engine derived, and returns its identifier
    /// (0 unless LRAT). `hints` are its LRAT hints (ignored by DRAT, whose callers pass none).
    #[inline(always)]
    pub(crate) fn add(&mut self, lits: &[Lit], hints: &[i64]) -> u64 {
        if self.writer.is_none() {
            return 0;
        }
        self.write_add(lits, hints)
    }

    /// `add` with a writer: out of line, so that `add` without one is a test and a return.
    #[inline(never)]
    fn write_add(&mut self, lits: &[Lit], hints: &[i64]) -> u64 {
        match &mut self.writer {
            None => 0,
            Some(w) if !self.lrat => {
                w.drat(false, lits);
                0
            }
            Some(w) => {
                self.last = self.last.max(self.reserved).max(self.originals) + 1;
                w.lrat_add(self.last, lits, hints);
                self.last
            }
        }
    }

    /// Logs the deletion of clause `lits` with identifier `id`; with DRAT, not when one of
    /// the literals is assigned at level 0 (module doc).
    #[inline(always)]
    pub(crate) fn delete(&mut self, lits: &[Lit], id: u64, trail: &Trail) {
        if self.writer.is_some() {
            self.write_delete(lits, id, trail);
        }
    }

    #[inline(never)]
    fn write_delete(&mut self, lits: &[Lit], id: u64, trail: &Trail) {
        let lrat = self.lrat;
        if let Some(w) = &mut self.writer {
            if lrat {
                if id == 0 {
                    w.fail("internal error: the deletion of a clause without an LRAT identifier");
                }
                w.pending.push(id);
            } else if !lits.iter().any(|&l| trail.is_fixed(l)) {
                w.drat(true, lits);
            }
        }
    }

    /// The identifier of the next original clause (0 unless LRAT). An original clause added
    /// after derived clauses took its identifier breaks the numbering: the proof fails.
    #[inline]
    pub(crate) fn original(&mut self) -> u64 {
        self.originals += 1;
        if !self.lrat {
            return 0;
        }
        if self.originals > self.reserved
            && self.last >= self.originals
            && let Some(w) = &mut self.writer
        {
            w.fail(
                "an original clause was added after derived clauses had taken its LRAT \
                 identifier: reserve the original clauses' identifiers first \
                 (Solver::reserve_clause_ids) and add them all before solving",
            );
        }
        self.originals
    }

    /// The identifier of the last derived clause (0 before the first, and without LRAT).
    pub(crate) fn last_id(&self) -> u64 {
        if self.lrat { self.last } else { 0 }
    }

    /// Whether a proof is being written.
    #[inline]
    pub(crate) fn is_on(&self) -> bool {
        self.writer.is_some()
    }

    /// Whether an LRAT proof is being written: callers compute hints only then.
    #[inline(always)]
    pub(crate) fn is_lrat(&self) -> bool {
        self.lrat
    }

    /// LRAT: the identifier of the unit clause of variable `v`'s level-0 literal, 0 if none.
    #[inline]
    pub(crate) fn unit(&self, v: usize) -> u64 {
        self.units.get(v).copied().unwrap_or(0)
    }

    /// LRAT: `id` is the unit clause of variable `v`'s level-0 literal (0 forgets it).
    pub(crate) fn set_unit(&mut self, v: usize, id: u64) {
        if self.lrat {
            if self.units.len() <= v {
                self.units.resize(v + 1, 0);
            }
            self.units[v] = id;
        }
    }

    /// The proof cannot be completed: `why` is kept, writing stops, and `flush` reports it.
    pub(crate) fn fail(&mut self, why: &str) {
        if let Some(w) = &mut self.writer {
            w.fail(why);
        }
    }

    /// Flushes the writer, reporting the first error if one happened.
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.writer {
            Some(w) => w.flush(self.last.max(self.originals)),
            None => Ok(()),
        }
    }
}

/// The proof's sink, its format, and a buffer of encoded clauses.
struct Writer {
    out: Box<dyn Write + Send>,
    format: ProofFormat,
    /// The first error (a write error, or why the proof cannot be completed); writing stops
    /// after it and `Solver::flush_proof` reports it.
    error: Option<io::Error>,
    buf: Vec<u8>,
    /// LRAT deletions not yet written: one line for each run of them, before the next
    /// addition.
    pending: Vec<u64>,
    /// LRAT: the identifier the next deletion line opens with (the last one added).
    last: u64,
}

impl Writer {
    fn new(out: Box<dyn Write + Send>, format: ProofFormat) -> Writer {
        Writer {
            out,
            format,
            error: None,
            buf: Vec::with_capacity(BUFFER),
            pending: Vec::new(),
            last: 0,
        }
    }

    fn fail(&mut self, why: &str) {
        if self.error.is_none() {
            self.error = Some(io::Error::other(format!(
                "the proof cannot be completed: {why}"
            )));
        }
    }

    fn drat(&mut self, delete: bool, lits: &[Lit]) {
        if self.error.is_some() {
            return;
        }
        match self.format {
            ProofFormat::Binary => {
                self.buf.push(if delete { b'd' } else { b'a' });
                for l in lits {
                    put_varint(&mut self.buf, lit_code(*l));
                }
                self.buf.push(0);
            }
            _ => {
                if delete {
                    self.buf.extend_from_slice(b"d ");
                }
                for l in lits {
                    put_int(&mut self.buf, l.to_dimacs());
                    self.buf.push(b' ');
                }
                self.buf.extend_from_slice(b"0\n");
            }
        }
        if self.buf.len() >= BUFFER {
            self.drain();
        }
    }

    /// Writes the pending deletions as one line.
    fn lrat_deletions(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        if self.format == ProofFormat::LratBinary {
            self.buf.push(b'd');
            for &id in &self.pending {
                put_varint(&mut self.buf, 2 * id);
            }
            self.buf.push(0);
        } else {
            put_int(&mut self.buf, self.last as i64);
            self.buf.extend_from_slice(b" d ");
            for &id in &self.pending {
                put_int(&mut self.buf, id as i64);
                self.buf.push(b' ');
            }
            self.buf.extend_from_slice(b"0\n");
        }
        self.pending.clear();
    }

    fn lrat_add(&mut self, id: u64, lits: &[Lit], hints: &[i64]) {
        if self.error.is_some() {
            return;
        }
        if self.last == 0 {
            // Deletions before the first addition open with the identifier before it.
            self.last = id - 1;
        }
        self.lrat_deletions();
        self.last = id;
        if self.format == ProofFormat::LratBinary {
            self.buf.push(b'a');
            put_varint(&mut self.buf, 2 * id);
            for l in lits {
                put_varint(&mut self.buf, lit_code(*l));
            }
            self.buf.push(0);
            for &h in hints {
                put_varint(&mut self.buf, 2 * h.unsigned_abs() + u64::from(h < 0));
            }
            self.buf.push(0);
        } else {
            put_int(&mut self.buf, id as i64);
            self.buf.push(b' ');
            for l in lits {
                put_int(&mut self.buf, l.to_dimacs());
                self.buf.push(b' ');
            }
            self.buf.extend_from_slice(b"0 ");
            for &h in hints {
                put_int(&mut self.buf, h);
                self.buf.push(b' ');
            }
            self.buf.extend_from_slice(b"0\n");
        }
        if self.buf.len() >= BUFFER {
            self.drain();
        }
    }

    fn drain(&mut self) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(&self.buf)
        {
            self.error = Some(e);
        }
        self.buf.clear();
    }

    fn flush(&mut self, last: u64) -> io::Result<()> {
        if self.error.is_none() {
            if self.last == 0 {
                // Deletions before any addition open with the originals' count.
                self.last = last;
            }
            self.lrat_deletions();
        }
        self.drain();
        if let Some(e) = self.error.take() {
            // Kept for the next flush too: a failed proof stays failed.
            self.error = Some(io::Error::new(e.kind(), e.to_string()));
            return Err(e);
        }
        self.out.flush()
    }
}

/// The binary code of a literal: `2·(var + 1) + sign`, DIMACS numbering.
#[inline]
fn lit_code(l: Lit) -> u64 {
    2 * (l.var().index() as u64 + 1) + l.is_negative() as u64
}

/// Appends `x` in the variable-length code of binary DRAT and LRAT: seven bits a byte, the
/// high bit set on every byte but the last.
#[inline]
fn put_varint(buf: &mut Vec<u8>, mut x: u64) {
    while x > 0x7f {
        buf.push((x & 0x7f) as u8 | 0x80);
        x >>= 7;
    }
    buf.push(x as u8);
}

/// Appends `x` in decimal. Why not `write!`: the formatting machinery costs several times
/// the digits themselves, and a text proof is mostly numbers.
#[inline]
fn put_int(buf: &mut Vec<u8>, x: i64) {
    if x < 0 {
        buf.push(b'-');
    }
    let mut u = x.unsigned_abs();
    let mut digits = [0u8; 20];
    let mut n = 0;
    loop {
        digits[n] = b'0' + (u % 10) as u8;
        n += 1;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    buf.extend(digits[..n].iter().rev());
}

impl Solver {
    /// Writes a proof of everything derived from now on to `out`, in `format` (DRAT or LRAT,
    /// text or binary).
    ///
    /// Set it before adding clauses: the proof is relative to the clauses added after this
    /// call. With an LRAT format it must come before the first clause (the original clauses'
    /// identifiers count from there; otherwise the proof fails, see [`Solver::flush_proof`]).
    /// Call [`Solver::flush_proof`] when done (at the latest before dropping `out`'s owner
    /// expects the bytes); errors are kept and reported there.
    pub fn set_proof(&mut self, out: Box<dyn Write + Send>, format: ProofFormat) {
        self.proof.writer = Some(Writer::new(out, format));
        self.proof.lrat = false;
        if format.is_lrat() {
            if self.proof.originals > 0 || self.arena.end() > 0 || self.trail.len() > 0 {
                self.proof.fail(
                    "an LRAT proof was set after clauses had been added: set it before the \
                     first clause, so that the original clauses get their identifiers",
                );
            } else {
                self.proof.lrat = true;
                self.arena.carry_ids();
            }
        }
    }

    /// LRAT: the first `n` clauses added are the input's original clauses 1 to `n`, and the
    /// derived clauses are numbered from `n + 1` on. Why it is needed: the engine derives
    /// clauses while the input is still being added (a unit clause propagates and shortens
    /// the clauses after it), and those must not take the identifiers of original clauses
    /// still to come. A reader that knows the clause count (a DIMACS header, a parsed file)
    /// calls this before adding them; without it, only inputs whose addition derives nothing
    /// get a proof (a later original clause that finds its identifier taken fails the proof).
    /// Has no effect without an LRAT proof.
    pub fn reserve_clause_ids(&mut self, n: u64) {
        self.proof.reserved = self.proof.reserved.max(n);
    }

    /// Flushes the proof writer, reporting the first error if one happened: a write error,
    /// or why the proof cannot be completed (module doc of `proof.rs`: LRAT with an external
    /// propagator's clauses, after undone factoring, or with original clauses added late).
    /// A proof that reports an error here is not a valid proof and must not be used.
    pub fn flush_proof(&mut self) -> io::Result<()> {
        self.proof.flush()
    }
}

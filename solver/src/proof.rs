//! DRAT proof output: every clause the engine derives is written as an addition, every clause
//! it drops as a deletion, so an independent checker (`drat-trim`, `rate`) can confirm an
//! UNSAT answer without trusting the engine.
//!
//! Format: Wetzler, Heule & Hunt, "DRAT-trim: efficient checking and trimming using
//! expressive clausal proofs" (SAT 2014); text (`1 -2 0`, `d 1 -2 0`) or binary (`a`/`d`
//! followed by variable-length encoded literals `2·var + sign`, ended by a 0 byte).
//!
//! What is logged, and why some deletions are not: learned clauses (analysis), clauses
//! shortened by level-0 simplification or vivification (the new clause first, then the
//! deletion of the old one), deletions by reduction, and the empty clause when the clauses
//! are refuted. Deletions of clauses that touch a level-0 assignment are *not* logged: the
//! checker may see such a clause as the reason of a top-level unit, and a strict checker
//! (`rate` without `--skip-unit-deletions`) rejects deleting those. Keeping a clause alive in
//! the proof costs the checker a little time and is always sound. Garbage collection moves
//! clauses but changes none, so it logs nothing and the order of events is the engine's order.
//!
//! Under assumptions an UNSAT answer does not refute the clauses, so no empty clause is
//! written; the proof then certifies every learned clause, and the failed core `F` can be
//! certified by checking the proof against the clauses plus the units of `F`.

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
}

/// The DRAT proof: off, or a writer. Every engine step that derives or drops a clause calls
/// `add` / `delete` here unconditionally; they cost one test when the proof is off.
#[derive(Default)]
pub(crate) struct Proof {
    writer: Option<DratWriter>,
}

impl Proof {
    /// Logs the addition of `lits` (a clause the engine derived).
    #[inline]
    pub(crate) fn add(&mut self, lits: &[Lit]) {
        if let Some(w) = &mut self.writer {
            w.clause(false, lits);
        }
    }

    /// Logs the deletion of `lits` unless one of them is assigned at level 0 (module doc).
    #[inline]
    pub(crate) fn delete(&mut self, lits: &[Lit], trail: &Trail) {
        if let Some(w) = &mut self.writer
            && !lits.iter().any(|&l| trail.is_fixed(l))
        {
            w.clause(true, lits);
        }
    }

    /// Whether a proof is being written.
    #[inline]
    pub(crate) fn is_on(&self) -> bool {
        self.writer.is_some()
    }

    /// The clauses are refuted: logs the empty clause.
    pub(crate) fn empty(&mut self) {
        self.add(&[]);
    }

    /// Flushes the writer, reporting the first write error if one happened.
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.writer {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }
}

/// The proof's sink, its format, and a buffer of encoded clauses.
struct DratWriter {
    out: Box<dyn Write + Send>,
    format: ProofFormat,
    /// The first write error; writing stops after it and `Solver::flush_proof` reports it.
    error: Option<io::Error>,
    buf: Vec<u8>,
}

impl DratWriter {
    fn new(out: Box<dyn Write + Send>, format: ProofFormat) -> DratWriter {
        DratWriter {
            out,
            format,
            error: None,
            buf: Vec::with_capacity(BUFFER),
        }
    }
    fn clause(&mut self, delete: bool, lits: &[Lit]) {
        if self.error.is_some() {
            return;
        }
        match self.format {
            ProofFormat::Text => {
                if delete {
                    self.buf.extend_from_slice(b"d ");
                }
                for l in lits {
                    // Writing into a Vec cannot fail.
                    let _ = write!(self.buf, "{} ", l.to_dimacs());
                }
                self.buf.extend_from_slice(b"0\n");
            }
            ProofFormat::Binary => {
                self.buf.push(if delete { b'd' } else { b'a' });
                for l in lits {
                    let mut x = 2 * (l.var().index() as u64 + 1) + l.is_negative() as u64;
                    while x > 0x7f {
                        self.buf.push((x & 0x7f) as u8 | 0x80);
                        x >>= 7;
                    }
                    self.buf.push(x as u8);
                }
                self.buf.push(0);
            }
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

    fn flush(&mut self) -> io::Result<()> {
        self.drain();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()
    }
}

impl Solver {
    /// Writes a DRAT proof of everything derived from now on to `out`.
    ///
    /// Set it before adding clauses: the proof is relative to the clauses added after this
    /// call. Call [`Solver::flush_proof`] when done (at the latest before dropping `out`'s
    /// owner expects the bytes); write errors are kept and reported there.
    pub fn set_proof(&mut self, out: Box<dyn Write + Send>, format: ProofFormat) {
        self.proof.writer = Some(DratWriter::new(out, format));
    }

    /// Flushes the proof writer, reporting the first write error if one happened.
    pub fn flush_proof(&mut self) -> io::Result<()> {
        self.proof.flush()
    }
}

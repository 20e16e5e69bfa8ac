//! VeriPB proofs of OLL's answers: the optimum certified by an independent checker
//! (`veripb`, the Rust crate on crates.io), relative to the WCNF exactly as `veripb --wcnf`
//! reads it (hard clauses are constraints; a unit soft clause `l` of weight `w` is the
//! objective term `w·¬l`; a longer one is `C ∨ ¬_b<i>` with the objective term `w·¬_b<i>`,
//! `i` its position among all clauses of the file).
//!
//! **Technique** (Berg, Bogaerts, Nordström, Oertel & Vandesande, "Certified Core-Guided
//! MaxSAT Solving", CADE 2023, doi:10.1007/978-3-031-38499-8_1; the format: VeriPB 3.0's
//! `proof_format_overview.md`). What is written, in the order it happens:
//! - **the engine's clauses**: the engine writes binary DRAT into [`EngineFeed`], which turns
//!   each added clause into a `rup` step and each deletion of one of those into `deld`. Every
//!   such clause is RUP with respect to the database the proof has built so far (a superset of
//!   the engine's: core constraints are never deleted), except factoring's extension clauses
//!   (RAT), which is why factoring is off while a proof is written.
//! - **cores**: after every UNSAT answer under assumptions, the clause of the failed
//!   assumptions' negations, by `rup` (the engine's final conflict analysis resolved it from
//!   clauses already logged). Logged at once, because later calls may delete learned clauses
//!   it needs. A unit-propagation core (`upcore.rs`) of a failed literal pair `x`, `¬x` takes
//!   three: each probe's failed set (RUP by propagation), then their resolvent on `x`.
//! - **totalizers**: every output `o` of a node over inputs `L` (`n` of them) counting "at
//!   least `k`" is defined by reification, both ways, each a `red` step whose witness sets
//!   the fresh `o`: `k·¬o + ΣL ≥ k` (`o → 0`) and `(n−k+1)·o + Σ¬L ≥ n−k+1` (`o → 1`). Each
//!   clause `¬a_i ∨ ¬b_j ∨ o_{i+j}` is then the saturated sum of the children's first
//!   definitions, the output's second, and the literal axioms of the inputs not below the
//!   children named (`pol`).
//! - **the lower bound**: a core `K` of weight `w` with totalizer outputs `o_2 … o_j` made
//!   terms (or proven by exhaustion) gives `E_K: ΣK + Σ_{k=2..j} ¬o_k ≥ j` ("the violations
//!   pay for the outputs, plus one"), from the core clause by `E_j = ((j−1)·E_{j−1} +
//!   def(o_j) + Σ_{k<j} ¬o_k) / j`. The lower bound is the *ledger*: the pairs (constraint,
//!   weight) — `E_K` with the core's weight, each exhaustion unit `o_k` with the core's weight.
//!   Added to the objective-improving constraint of the best model, the weighted ledger
//!   leaves `Σ_t weight(t)·violated(t) ≤ best − 1 − lb` over OLL's live terms: the
//!   reformulation invariant of `oll.rs` as a PB constraint.
//! - **hardening**: that constraint propagates every term heavier than `best − 1 − lb`: its
//!   unit is RUP once the constraint is derived.
//! - **models**: each improving model by `soli` (the selectors set to their clauses' values,
//!   the totalizer outputs to their counts), which adds "objective ≤ cost − 1".
//! - **the end**: with the optimum, the weighted ledger plus the last `soli` constraint is a
//!   contradiction, and `conclusion BOUNDS opt : id opt`; with UNSAT hard clauses,
//!   `conclusion BOUNDS INF : id INF`; a run that stopped early concludes `NONE`.
//!
//! **What is off while a proof is written** (`Oll::with_proof`), each because it derives
//! something this module does not log: the at-most-one groups, the complement-symmetry unit,
//! the branch and bound, subsumed label elimination, equivalent-term
//! merging, the engine's factoring; identical soft clauses are not merged (each keeps its own
//! selector, as the checker's objective has one per clause). Kept, and certified: the core
//! minimisation and trimming, unit-propagation cores, stratification, weight-aware core
//! extraction, exhaustion,
//! hardening, the anytime local search (its models are logged like any other), the engine's
//! inprocessing (all RUP). A proof that cannot be completed is never silently partial: the
//! first write error is kept and returned by `Oll::finish_proof`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, Write};
use std::sync::{Arc, Mutex, MutexGuard};

use grim_formula::{ClauseSink, Wcnf};
use grim_solver::{Lit, Solver, Var};

/// Where the soft clauses sit in the file the checker reads: what names the selectors and
/// numbers the input constraints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VeriPbInput {
    /// For each soft clause of the `Wcnf` (in order), its 1-based position among all clauses
    /// of the file.
    soft_position: Vec<u64>,
    /// For each soft clause, the identifier of its input constraint (soft clauses of two
    /// literals or more in the file), 0 for none.
    soft_constraint: Vec<u64>,
    /// The number of constraints the checker loads from the file.
    constraints: u64,
}

impl VeriPbInput {
    /// The file in clause order: for each clause, whether it is soft and how many literals
    /// the file gives it (duplicates included). Why the lengths: the checker makes a
    /// constraint of every hard clause and of every soft clause of two literals or more.
    pub fn from_clauses(clauses: impl IntoIterator<Item = (bool, usize)>) -> VeriPbInput {
        let mut input = VeriPbInput::default();
        for (position, (soft, len)) in clauses.into_iter().enumerate() {
            let makes_constraint = !soft || len >= 2;
            if makes_constraint {
                input.constraints += 1;
            }
            if soft {
                input.soft_position.push(position as u64 + 1);
                input.soft_constraint.push(if makes_constraint {
                    input.constraints
                } else {
                    0
                });
            }
        }
        input
    }

    /// The file grim's WCNF writer makes of `wcnf`: the hard clauses first, then the soft
    /// ones, each in order.
    pub fn hard_first(wcnf: &Wcnf) -> VeriPbInput {
        VeriPbInput::from_clauses(
            wcnf.hard
                .iter()
                .map(|c| (false, c.len()))
                .chain(wcnf.soft.iter().map(|(_, c)| (true, c.len()))),
        )
    }
}

/// How a variable is named in the proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Name {
    /// An instance variable: `x<index + 1>`, as the checker names WCNF variables.
    Input,
    /// The selector of the soft clause at this position of the file: `_b<position>`.
    Selector(u64),
    /// Anything else grim introduced (totalizer outputs): `y<index + 1>`.
    Aux,
}

/// The proof's text and its constraint counter, shared by the engine's feed and the
/// optimiser (the engine writes through [`EngineFeed`], which holds one end).
struct Log {
    out: Box<dyn Write + Send>,
    buf: Vec<u8>,
    /// The identifier the next constraint gets.
    next: u64,
    /// Per variable, its name kind; variables past the end are `Aux` unless below `inputs`.
    names: Vec<Name>,
    inputs: usize,
    /// Clauses the engine added (sorted literal codes) and their identifiers, so that its
    /// deletions can name them. Only the engine's: its deletions of anything else (input
    /// constraints, the totalizers' clauses) are not logged, which is always sound.
    engine: HashMap<Box<[u32]>, Ids, BuildHasherDefault<CodeHasher>>,
    /// The text `1 <name> ` of each literal already written in a clause, by literal code
    /// (offset + 1 into `term_text`, 0 = not yet; the text's first byte is its length). A
    /// clause's line is then a copy per literal instead of a name lookup and a number to
    /// format: the engine's learned clauses are most of the proof's bytes. Cleared when a
    /// variable is renamed (`name_selector`, before the search).
    term_at: Vec<u32>,
    term_text: Vec<u8>,
    error: Option<io::Error>,
}

/// The identifiers of the copies of one engine clause in the proof: nearly always one, kept
/// without an allocation of its own.
#[derive(Default)]
struct Ids {
    first: u64,
    more: Vec<u64>,
}

impl Ids {
    fn push(&mut self, id: u64) {
        if self.first == 0 {
            self.first = id;
        } else {
            self.more.push(id);
        }
    }

    /// The identifier of the copy added last, removed (0 when none is left).
    fn pop(&mut self) -> u64 {
        self.more
            .pop()
            .unwrap_or_else(|| std::mem::take(&mut self.first))
    }
}

/// A multiply-rotate hasher for the engine's clause keys (sorted literal codes): the keys are
/// the engine's own clauses, not adversarial input, so the default SipHash's protection buys
/// nothing, and hashing every learned clause twice (on adding and on deleting) showed in the
/// proof's profile.
#[derive(Default)]
struct CodeHasher(u64);

impl Hasher for CodeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // A slice of codes arrives here as its bytes: eight at a time.
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
        for &b in chunks.remainder() {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Bytes buffered before a write to the sink.
const BUFFER: usize = 1 << 16;

impl Log {
    fn name(&self, v: Var) -> Name {
        match self.names.get(v.index()) {
            Some(&n) => n,
            None if v.index() < self.inputs => Name::Input,
            None => Name::Aux,
        }
    }

    fn lit(&mut self, l: Lit) {
        if l.is_negative() {
            self.buf.push(b'~');
        }
        let v = l.var();
        match self.name(v) {
            Name::Input => {
                self.buf.push(b'x');
                push_number(&mut self.buf, v.index() as u64 + 1);
            }
            Name::Selector(p) => {
                self.buf.extend_from_slice(b"_b");
                push_number(&mut self.buf, p);
            }
            Name::Aux => {
                self.buf.push(b'y');
                push_number(&mut self.buf, v.index() as u64 + 1);
            }
        }
    }

    /// Writes `coef lit` terms, then ` >= degree`.
    fn terms(&mut self, terms: &[(u64, Lit)], degree: u64) {
        for &(c, l) in terms {
            push_number(&mut self.buf, c);
            self.buf.push(b' ');
            self.lit(l);
            self.buf.push(b' ');
        }
        self.buf.extend_from_slice(b">= ");
        push_number(&mut self.buf, degree);
    }

    /// Ends a step that adds a constraint; returns its identifier.
    fn added(&mut self) -> u64 {
        self.buf.extend_from_slice(b";\n");
        self.drain_if_full();
        self.next += 1;
        self.next - 1
    }

    fn line(&mut self, text: std::fmt::Arguments<'_>) {
        put(&mut self.buf, text);
        self.buf.push(b'\n');
        self.drain_if_full();
    }

    fn rup_clause(&mut self, lits: &[Lit]) -> u64 {
        self.buf.extend_from_slice(b"rup ");
        for &l in lits {
            self.clause_term(l);
        }
        self.buf.extend_from_slice(b">= 1");
        self.added()
    }

    /// Writes `1 <name of l> ` (from `term_at` when written before).
    fn clause_term(&mut self, l: Lit) {
        let code = l.code();
        let at = self.term_at.get(code).copied().unwrap_or(0) as usize;
        if at > 0 {
            let len = usize::from(self.term_text[at - 1]);
            self.buf.extend_from_slice(&self.term_text[at..at + len]);
            return;
        }
        let start = self.buf.len();
        self.buf.extend_from_slice(b"1 ");
        self.lit(l);
        self.buf.push(b' ');
        let text = &self.buf[start..];
        // Names are at most "1 ~_b" and 20 digits and a space: 27 bytes, and the arena stays
        // far below 4 GiB (a few dozen bytes per literal of the instance).
        if let (Ok(len), Ok(at)) = (
            u8::try_from(text.len()),
            u32::try_from(self.term_text.len() + 1),
        ) {
            if self.term_at.len() <= code {
                self.term_at.resize(code + 1, 0);
            }
            self.term_text.push(len);
            self.term_at[code] = at;
            self.term_text.extend_from_slice(text);
        }
    }

    fn drain_if_full(&mut self) {
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
        if let Some(e) = &self.error {
            return Err(io::Error::new(e.kind(), e.to_string()));
        }
        self.out.flush()
    }
}

fn put(buf: &mut Vec<u8>, args: std::fmt::Arguments<'_>) {
    // Writing into a Vec cannot fail.
    let _ = buf.write_fmt(args);
}

/// Appends `n` in decimal: the proof is mostly numbers, and `format_args!` machinery per
/// number was a visible share of the writing cost.
fn push_number(buf: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[i..]);
}

/// The engine's side of the proof: binary DRAT in, VeriPB steps out (module doc).
pub(super) struct EngineFeed {
    log: Arc<Mutex<Log>>,
    /// Bytes of an unfinished DRAT record.
    pending: Vec<u8>,
    /// Scratch: the record's literal codes, and its literals.
    codes: Vec<u32>,
    lits: Vec<Lit>,
}

impl Write for EngineFeed {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        let mut log = lock(&self.log);
        let mut start = 0;
        let codes = &mut self.codes;
        let lits = &mut self.lits;
        while let Some(len) = self.pending[start..].iter().position(|&b| b == 0) {
            let record = &self.pending[start..start + len];
            start += len + 1;
            let Some((&kind, body)) = record.split_first() else {
                continue;
            };
            codes.clear();
            let mut x: u64 = 0;
            let mut shift = 0;
            for &b in body {
                x |= u64::from(b & 0x7f) << shift;
                shift += 7;
                if b & 0x80 == 0 {
                    codes.push(x as u32);
                    x = 0;
                    shift = 0;
                }
            }
            // The key names the clause whatever the order of its literals; the proof's
            // constraint does not depend on the order either.
            codes.sort_unstable();
            match kind {
                b'a' => {
                    lits.clear();
                    lits.extend(codes.iter().filter_map(|&c| {
                        let d = i64::from(c / 2);
                        Lit::from_dimacs(if c & 1 == 1 { -d } else { d })
                    }));
                    let id = log.rup_clause(lits);
                    match log.engine.get_mut(codes.as_slice()) {
                        Some(ids) => ids.push(id),
                        None => {
                            let ids = Ids {
                                first: id,
                                more: Vec::new(),
                            };
                            log.engine.insert(codes.as_slice().into(), ids);
                        }
                    }
                }
                b'd' => {
                    let mut id = 0;
                    if let Some(ids) = log.engine.get_mut(codes.as_slice()) {
                        id = ids.pop();
                        if ids.first == 0 {
                            // The last copy: forget the clause, so the table holds only the
                            // engine's live clauses.
                            log.engine.remove(codes.as_slice());
                        }
                    }
                    if id > 0 {
                        log.buf.extend_from_slice(b"deld ");
                        push_number(&mut log.buf, id);
                        log.line(format_args!(";"));
                    }
                }
                _ => {
                    log.error.get_or_insert_with(|| {
                        io::Error::other("internal error: an unknown DRAT record")
                    });
                }
            }
        }
        self.pending.drain(..start);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn lock(log: &Arc<Mutex<Log>>) -> MutexGuard<'_, Log> {
    // A poisoned lock means a panic elsewhere; the buffer is still consistent.
    log.lock().unwrap_or_else(|e| e.into_inner())
}

/// The definition of one totalizer output in the proof.
#[derive(Clone, Debug)]
struct Output {
    /// The inputs below its node (a multiset).
    inputs: Vec<Lit>,
    /// It means "at least `k` of `inputs`".
    k: usize,
    /// `k·¬o + Σinputs ≥ k` (o → the count).
    up: u64,
    /// `(n−k+1)·o + Σ¬inputs ≥ n−k+1` (the count → o).
    down: u64,
}

/// The lower-bound constraint `E_K` of a totalizer (module doc).
#[derive(Clone, Debug)]
pub(super) struct SumProof {
    /// The ledger entry whose constraint is `E_K`.
    entry: usize,
    /// `E_K` counts the root outputs up to `o_j`.
    j: usize,
}

/// The optimiser's proof state (`Oll::proof`).
pub(super) struct PbProof {
    log: Arc<Mutex<Log>>,
    input: VeriPbInput,
    /// Totalizer outputs by variable index, and the order they were defined in (the order
    /// `soli` computes their values in: inputs before outputs).
    outputs: HashMap<usize, Output>,
    order: Vec<Var>,
    /// Selector variables and the flat soft clause each one stands for (`soli` sets them).
    selectors: Vec<(Var, usize)>,
    /// The checker's selectors grim has no variable for (tautologies, weight 0, a repeated
    /// literal): their positions and the `wcnf.soft` index of their clause; `soli` sets each
    /// to its clause's value.
    unnamed: Vec<(u64, usize)>,
    /// The `wcnf.soft` indices that have a selector.
    named: Vec<usize>,
    /// (constraint, weight): the lower bound's derivation (module doc).
    ledger: Vec<(u64, u64)>,
    /// Per totalizer of `relax.rs` (same index), its `E_K`.
    pub(super) sums: Vec<SumProof>,
    /// The ledger entries of the cores whose totalizers weight-aware extraction delayed, in
    /// the order of `Relax::pending`.
    pub(super) pending: Vec<usize>,
    /// Core clauses (sorted) logged after UNSAT answers, and their identifiers.
    cores: HashMap<Vec<Lit>, u64>,
    /// The identifier of the last `soli` step's constraint, and the cost it bounds.
    soli: Option<(u64, u64)>,
    /// Set once the conclusion is written.
    finished: bool,
}

impl PbProof {
    /// A proof to `out` about a WCNF whose file is described by `input`; `inputs` is the
    /// number of instance variables (named `x1…`). Writes the header.
    pub(super) fn new(out: Box<dyn Write + Send>, input: VeriPbInput, inputs: usize) -> PbProof {
        let mut log = Log {
            out,
            buf: Vec::with_capacity(BUFFER),
            next: input.constraints + 1,
            names: Vec::new(),
            inputs,
            engine: HashMap::default(),
            term_at: Vec::new(),
            term_text: Vec::new(),
            error: None,
        };
        log.line(format_args!("pseudo-Boolean proof version 3.0"));
        log.line(format_args!("f {};", input.constraints));
        PbProof {
            log: Arc::new(Mutex::new(log)),
            input,
            outputs: HashMap::new(),
            order: Vec::new(),
            selectors: Vec::new(),
            unnamed: Vec::new(),
            named: Vec::new(),
            ledger: Vec::new(),
            sums: Vec::new(),
            pending: Vec::new(),
            cores: HashMap::new(),
            soli: None,
            finished: false,
        }
    }

    /// The sink the engine's binary DRAT goes to.
    pub(super) fn engine_feed(&self) -> EngineFeed {
        EngineFeed {
            log: self.log.clone(),
            pending: Vec::new(),
            codes: Vec::new(),
            lits: Vec::new(),
        }
    }

    /// `v` is the selector of `wcnf.soft[soft]`, flat soft clause `flat_soft`.
    pub(super) fn name_selector(&mut self, v: Var, soft: usize, flat_soft: usize) {
        let position = self.input.soft_position.get(soft).copied().unwrap_or(0);
        let mut log = lock(&self.log);
        if log.names.len() <= v.index() {
            let inputs = log.inputs;
            let len = log.names.len();
            log.names.extend(
                (len..=v.index()).map(|i| if i < inputs { Name::Input } else { Name::Aux }),
            );
        }
        log.names[v.index()] = Name::Selector(position);
        log.term_at.clear();
        log.term_text.clear();
        drop(log);
        self.selectors.push((v, flat_soft));
        self.named.push(soft);
    }

    /// After the selectors are named: every soft clause the checker gives a selector and grim
    /// does not is remembered for `soli`.
    pub(super) fn selectors_done(&mut self) {
        self.named.sort_unstable();
        for (soft, &id) in self.input.soft_constraint.iter().enumerate() {
            if id > 0 && self.named.binary_search(&soft).is_err() {
                let position = self.input.soft_position.get(soft).copied().unwrap_or(0);
                self.unnamed.push((position, soft));
            }
        }
    }

    /// The input constraint of `wcnf.soft[soft]` when it is one (0 otherwise).
    pub(super) fn soft_constraint(&self, soft: usize) -> u64 {
        self.input.soft_constraint.get(soft).copied().unwrap_or(0)
    }

    /// A ledger entry: `weight` times constraint `id` is part of the lower bound's proof.
    pub(super) fn ledger_add(&mut self, id: u64, weight: u64) -> usize {
        self.ledger.push((id, weight));
        self.ledger.len() - 1
    }

    /// Logs the clause of the failed assumptions `failed` (their negations) by RUP, after
    /// flushing the engine's steps; remembers its identifier.
    pub(super) fn core(&mut self, solver: &mut Solver, failed: &[Lit]) -> u64 {
        self.flush_engine(solver);
        let mut clause: Vec<Lit> = failed.iter().map(|&l| !l).collect();
        clause.sort_unstable();
        clause.dedup();
        if let Some(&id) = self.cores.get(&clause) {
            return id;
        }
        let mut log = lock(&self.log);
        // Marked for readers (and the tests' mutations): the line after is a core.
        log.line(format_args!("% core"));
        let id = log.rup_clause(&clause);
        drop(log);
        self.cores.insert(clause, id);
        id
    }

    /// The identifier of core clause `violations` (logged by `core`, else by RUP now).
    pub(super) fn core_clause(&mut self, solver: &mut Solver, violations: &[Lit]) -> u64 {
        let failed: Vec<Lit> = violations.iter().map(|&l| !l).collect();
        self.core(solver, &failed)
    }

    /// Logs unit clause `lit` by RUP (a fact the database propagates).
    pub(super) fn unit(&mut self, solver: &mut Solver, lit: Lit) -> u64 {
        self.flush_engine(solver);
        lock(&self.log).rup_clause(&[lit])
    }

    /// Defines the new outputs of `tot`'s nodes and derives `clauses` (the totalizer's new
    /// clauses, in order), before the caller gives them to the engine.
    pub(super) fn totalizer(
        &mut self,
        solver: &mut Solver,
        nodes: &[(Vec<Lit>, Vec<Lit>)],
        clauses: &[Vec<Lit>],
    ) {
        self.flush_engine(solver);
        let mut log = lock(&self.log);
        let mut own: HashMap<usize, ()> = HashMap::new();
        for (inputs, outs) in nodes {
            let n = inputs.len() as u64;
            for (m, &o) in outs.iter().enumerate() {
                own.insert(o.var().index(), ());
                if self.outputs.contains_key(&o.var().index()) {
                    continue;
                }
                let k = m as u64 + 1;
                // k·¬o + Σ inputs ≥ k, witness o = 0.
                log.buf.extend_from_slice(b"red ");
                let mut terms = vec![(k, !o)];
                terms.extend(inputs.iter().map(|&l| (1, l)));
                log.terms(&terms, k);
                log.buf.extend_from_slice(b" : ");
                log.lit(o.var().pos());
                log.buf.extend_from_slice(b" -> 0");
                let up = log.added();
                // (n−k+1)·o + Σ ¬inputs ≥ n−k+1, witness o = 1.
                log.buf.extend_from_slice(b"red ");
                let mut terms = vec![(n - k + 1, o)];
                terms.extend(inputs.iter().map(|&l| (1, !l)));
                log.terms(&terms, n - k + 1);
                log.buf.extend_from_slice(b" : ");
                log.lit(o.var().pos());
                log.buf.extend_from_slice(b" -> 1");
                let down = log.added();
                self.outputs.insert(
                    o.var().index(),
                    Output {
                        inputs: inputs.clone(),
                        k: m + 1,
                        up,
                        down,
                    },
                );
                self.order.push(o.var());
            }
        }
        for clause in clauses {
            // The one positive output of this tree, and the negated literals.
            let Some(head) = clause
                .iter()
                .copied()
                .find(|l| l.is_positive() && own.contains_key(&l.var().index()))
            else {
                log.rup_clause(clause);
                continue;
            };
            let Some(def) = self.outputs.get(&head.var().index()) else {
                log.rup_clause(clause);
                continue;
            };
            let mut rest: Vec<Lit> = def.inputs.clone();
            let mut step = format!("pol {}", def.down);
            for &l in clause.iter().filter(|&&l| l != head) {
                let a = !l;
                let covered: Vec<Lit> = match self.outputs.get(&a.var().index()) {
                    Some(child) if a.is_positive() && own.contains_key(&a.var().index()) => {
                        step.push_str(&format!(" {} +", child.up));
                        child.inputs.clone()
                    }
                    _ => vec![a],
                };
                for c in covered {
                    if let Some(p) = rest.iter().position(|&r| r == c) {
                        rest.swap_remove(p);
                    }
                }
            }
            log.buf.extend_from_slice(step.as_bytes());
            for l in rest {
                log.buf.push(b' ');
                log.lit(l);
                log.buf.extend_from_slice(b" +");
            }
            log.buf.extend_from_slice(b" s");
            log.added();
        }
    }

    /// Extends the lower-bound constraint of totalizer `sum` (root outputs `root`) to count
    /// the outputs up to `o_j` (module doc).
    pub(super) fn extend_sum(&mut self, sum: usize, root: &[Lit], j: usize) {
        let Some(sp) = self.sums.get(sum).cloned() else {
            return;
        };
        let mut log = lock(&self.log);
        let mut e = self.ledger.get(sp.entry).map_or(0, |x| x.0);
        for jj in sp.j + 1..=j.min(root.len()) {
            let Some(def) = root
                .get(jj - 1)
                .and_then(|o| self.outputs.get(&o.var().index()))
            else {
                break;
            };
            let mut step = format!("pol {e} {} * {} +", jj - 1, def.up);
            log.buf.extend_from_slice(step.as_bytes());
            step.clear();
            for o in &root[1..jj - 1] {
                log.buf.push(b' ');
                log.lit(!*o);
                log.buf.extend_from_slice(b" +");
            }
            put(&mut log.buf, format_args!(" {jj} d"));
            e = log.added();
            if let Some(s) = self.sums.get_mut(sum) {
                s.j = jj;
            }
        }
        if let Some(entry) = self.ledger.get_mut(sp.entry) {
            entry.0 = e;
        }
    }

    /// Registers totalizer `sum` whose core is ledger entry `entry` (`E_K` = the core clause).
    pub(super) fn new_sum(&mut self, entry: usize) {
        self.sums.push(SumProof { entry, j: 1 });
    }

    /// Derives "the live terms' violations cost at most best − 1 − lb" (the weighted ledger
    /// plus the last `soli` constraint); `None` without a logged model.
    pub(super) fn bound(&mut self, solver: &mut Solver) -> Option<u64> {
        self.flush_engine(solver);
        let (soli, _) = self.soli?;
        let mut log = lock(&self.log);
        put(&mut log.buf, format_args!("pol {soli}"));
        for &(id, w) in &self.ledger {
            if w > 0 {
                put(&mut log.buf, format_args!(" {id} {w} * +"));
            }
        }
        Some(log.added())
    }

    /// Logs an improving model with `soli`: the instance's values, each selector set to its
    /// clause's value, each output to its count.
    pub(super) fn solution(
        &mut self,
        solver: &mut Solver,
        model: &[bool],
        cost: u64,
        flat: &super::flat::Flat,
        wcnf: &Wcnf,
    ) {
        self.flush_engine(solver);
        let mut value: HashMap<usize, bool> = HashMap::new();
        let lit_value = |value: &HashMap<usize, bool>, l: Lit| -> bool {
            let v = l.var().index();
            let x = value
                .get(&v)
                .copied()
                .unwrap_or_else(|| model.get(v).copied().unwrap_or(false));
            x == l.is_positive()
        };
        for &(s, c) in &self.selectors {
            let clause = flat.clause(flat.num_hard + c);
            let sat = clause.iter().any(|&l| lit_value(&value, l));
            value.insert(s.index(), sat);
        }
        for &o in &self.order {
            if let Some(def) = self.outputs.get(&o.index()) {
                let count = def.inputs.iter().filter(|&&l| lit_value(&value, l)).count();
                value.insert(o.index(), count >= def.k);
            }
        }
        let mut log = lock(&self.log);
        log.buf.extend_from_slice(b"soli");
        for &(position, soft) in &self.unnamed {
            let sat = wcnf
                .soft
                .get(soft)
                .is_some_and(|(_, c)| c.iter().any(|&l| lit_value(&value, l)));
            put(
                &mut log.buf,
                format_args!(" {}_b{position}", if sat { "" } else { "~" }),
            );
        }
        let inputs = log.inputs;
        let named = value.into_iter();
        let mut all: Vec<(usize, bool)> = model
            .iter()
            .copied()
            .enumerate()
            .take(inputs)
            .chain(named)
            .collect();
        all.sort_unstable();
        all.dedup_by_key(|x| x.0);
        for (v, b) in all {
            let Some(v) = u32::try_from(v).ok().and_then(Var::new) else {
                continue;
            };
            log.buf.push(b' ');
            log.lit(v.lit(b));
        }
        let id = log.added();
        self.soli = Some((id, cost));
    }

    /// Writes the conclusion: `optimum` proven (with `lb` equal to the best cost), the hard
    /// clauses refuted (`unsat`), or nothing proven. Then flushes.
    pub(super) fn finish(
        &mut self,
        solver: &mut Solver,
        optimum: Option<u64>,
        unsat: bool,
    ) -> io::Result<()> {
        if self.finished {
            return lock(&self.log).flush();
        }
        self.finished = true;
        self.flush_engine(solver);
        if unsat {
            let mut log = lock(&self.log);
            log.buf.extend_from_slice(b"rup >= 1");
            let id = log.added();
            log.line(format_args!("output NONE;"));
            log.line(format_args!("conclusion BOUNDS INF : {id} INF;"));
        } else if let Some(opt) = optimum {
            let b = self.bound(solver);
            let mut log = lock(&self.log);
            match b {
                Some(_) => {
                    log.buf.extend_from_slice(b"rup >= 1");
                    let id = log.added();
                    log.line(format_args!("output NONE;"));
                    log.line(format_args!("conclusion BOUNDS {opt} : {id} {opt};"));
                }
                None => {
                    log.line(format_args!("output NONE;"));
                    log.line(format_args!("conclusion NONE;"));
                }
            }
        } else {
            let mut log = lock(&self.log);
            log.line(format_args!("output NONE;"));
            log.line(format_args!("conclusion NONE;"));
        }
        let mut log = lock(&self.log);
        log.line(format_args!("end pseudo-Boolean proof;"));
        log.flush()
    }

    /// Flushes the engine's buffered steps into the log (a failure is kept as the log's
    /// error: the proof is then reported incomplete by `finish`).
    fn flush_engine(&self, solver: &mut Solver) {
        if let Err(e) = solver.flush_proof() {
            lock(&self.log).error.get_or_insert(e);
        }
    }
}

/// A [`ClauseSink`] that takes fresh variables from the engine but holds the clauses back,
/// so that the proof can define the new variables and derive the clauses first.
pub(super) struct Holding<'a> {
    pub(super) solver: &'a mut Solver,
    pub(super) clauses: Vec<Vec<Lit>>,
}

impl ClauseSink for Holding<'_> {
    fn new_var(&mut self) -> Var {
        self.solver.new_var()
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.clauses.push(lits.to_vec());
    }
}

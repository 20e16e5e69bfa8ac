//! An LRAT proof checker, written from the format's definition and nothing else: Cruz-Filipe,
//! Heule, Hunt, Kaufmann & Schneider-Kamp, "Efficient Certified RAT Verification" (CADE 2017),
//! and the text and binary ("CLRAT") encodings the checkers of that paper read. It shares no
//! code with the engine — it works on DIMACS integers and uses nothing of `grim-solver` — so a
//! bug in the engine's hint bookkeeping cannot hide behind the same bug here. The tests and
//! `benches/proof-check.sh` (through the `lrat-check` binary) use it; the hand-written valid
//! and invalid proofs at the end of this file test it.
//!
//! # The format
//! The original clauses are the CNF's, numbered 1, 2, … in file order. A proof is a sequence of
//! lines:
//! - **addition** `ID L1 … Lk 0 H1 … Hn 0`: clause `L1 ∨ … ∨ Lk` gets the new identifier `ID`
//!   (larger than every identifier before it), justified by the hints `H`: each positive `H` is
//!   an existing clause that must be *unit* under the assignment built so far (all its literals
//!   false but one, which is then assigned true) or *falsified* (a conflict, which ends the
//!   check) — starting from the assignment that makes every `Li` false (reverse unit
//!   propagation, RUP). When the positive hints end without a conflict, the clause must be RAT on
//!   its first literal `p`: for every live clause `D` containing `¬p` that the assignment does
//!   not satisfy, a group `-D H1 … Hm` follows, whose hints must reach a conflict after the
//!   literals of `D` other than `¬p` are made false as well;
//! - **deletion** `ID d I1 … Im 0`: the clauses `I` are gone (the leading `ID` is a position
//!   marker and is not checked);
//! - `c …` lines are comments.
//!
//! The binary form writes `a` before an addition and `d` before a deletion (no leading `ID`),
//! then every number as a variable-length unsigned integer (7 bits a byte, high bit set on all
//! but the last) of `2·|x| + (x < 0)`: literals, identifiers and hints alike, each list ended by
//! a 0.
//!
//! The proof is verified once an added clause is the empty clause.
//!
//! Deliberately stricter than the definition in two ways that only make a test fail sooner:
//! a positive hint after the conflict, and a hint that is neither unit nor falsified, are
//! errors (the definition's checker ignores the first and fails only on the second).
#![forbid(unsafe_code)]

use std::collections::HashMap;

/// What a verified proof contained.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LratSummary {
    /// Clauses added (the empty clause included).
    pub added: usize,
    /// Of those, clauses that needed the RAT check.
    pub rat: usize,
    /// Clauses deleted.
    pub deleted: usize,
}

/// One parsed proof line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Add {
        id: u64,
        lits: Vec<i64>,
        hints: Vec<i64>,
    },
    Delete(Vec<u64>),
}

/// Checks `proof` (text or binary LRAT, told apart by its first byte: binary proofs start
/// with `a` or `d`) against the CNF `formula` (its clauses numbered from 1 in order).
/// `Ok` with a summary when the proof derives the empty clause with every step valid;
/// otherwise the first fault, naming the step.
pub fn check_lrat(formula: &[Vec<i64>], proof: &[u8]) -> Result<LratSummary, String> {
    let steps = if matches!(proof.first(), Some(b'a' | b'd')) {
        parse_binary(proof)?
    } else {
        parse_text(proof)?
    };
    Checker::new(formula).run(&steps)
}

/// Parses a text LRAT proof.
fn parse_text(proof: &[u8]) -> Result<Vec<Step>, String> {
    let text = std::str::from_utf8(proof).map_err(|e| format!("the proof is not UTF-8: {e}"))?;
    let mut steps = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let at = || format!("line {}: `{line}`", n + 1);
        let mut tokens = line.split_whitespace();
        let first = tokens.next().ok_or_else(at)?;
        let id: u64 = first
            .parse()
            .map_err(|_| format!("{}: a clause identifier expected", at()))?;
        let rest: Vec<&str> = tokens.collect();
        if rest.first() == Some(&"d") {
            let mut ids = Vec::new();
            for t in &rest[1..] {
                let x: u64 = t
                    .parse()
                    .map_err(|_| format!("{}: `{t}` is not an identifier", at()))?;
                if x == 0 {
                    break;
                }
                ids.push(x);
            }
            if rest.last() != Some(&"0") {
                return Err(format!("{}: a deletion must end in 0", at()));
            }
            steps.push(Step::Delete(ids));
            continue;
        }
        let mut ints = Vec::with_capacity(rest.len());
        for t in rest {
            ints.push(
                t.parse::<i64>()
                    .map_err(|_| format!("{}: `{t}` is not a number", at()))?,
            );
        }
        let zero = ints
            .iter()
            .position(|&x| x == 0)
            .ok_or_else(|| format!("{}: the clause has no closing 0", at()))?;
        let lits = ints[..zero].to_vec();
        let tail = &ints[zero + 1..];
        if tail.last() != Some(&0) || tail[..tail.len() - 1].contains(&0) {
            return Err(format!("{}: the hints must end in one 0", at()));
        }
        steps.push(Step::Add {
            id,
            lits,
            hints: tail[..tail.len() - 1].to_vec(),
        });
    }
    Ok(steps)
}

/// Parses a binary LRAT proof.
fn parse_binary(proof: &[u8]) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    let mut i = 0;
    // The next number of the stream, decoded to a signed integer.
    let next = |i: &mut usize| -> Result<i64, String> {
        let mut x: u64 = 0;
        let mut shift = 0;
        loop {
            let b = *proof
                .get(*i)
                .ok_or_else(|| format!("byte {}: the proof ends inside a number", *i))?;
            *i += 1;
            if shift > 62 {
                return Err(format!("byte {}: a number of more than 63 bits", *i));
            }
            x |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
        let magnitude = (x >> 1) as i64;
        Ok(if x & 1 == 1 { -magnitude } else { magnitude })
    };
    let list = |i: &mut usize| -> Result<Vec<i64>, String> {
        let mut out = Vec::new();
        loop {
            match next(i)? {
                0 => return Ok(out),
                x => out.push(x),
            }
        }
    };
    while i < proof.len() {
        let tag = proof[i];
        let at = i;
        i += 1;
        match tag {
            b'a' => {
                let id = next(&mut i)?;
                if id <= 0 {
                    return Err(format!("byte {at}: an addition with identifier {id}"));
                }
                let lits = list(&mut i)?;
                let hints = list(&mut i)?;
                steps.push(Step::Add {
                    id: id as u64,
                    lits,
                    hints,
                });
            }
            b'd' => {
                let ids = list(&mut i)?;
                if let Some(&bad) = ids.iter().find(|&&x| x <= 0) {
                    return Err(format!("byte {at}: a deletion of identifier {bad}"));
                }
                steps.push(Step::Delete(ids.into_iter().map(|x| x as u64).collect()));
            }
            other => return Err(format!("byte {at}: step tag {other:#04x}, not `a` or `d`")),
        }
    }
    Ok(steps)
}

/// The checker's state: the live clauses by identifier and a partial assignment.
struct Checker {
    clauses: HashMap<u64, Vec<i64>>,
    /// The largest identifier so far (additions must exceed it).
    top: u64,
    /// Per variable: 1 true, -1 false, 0 unassigned.
    value: Vec<i8>,
    /// The literals assigned by the current check, to undo them.
    assigned: Vec<i64>,
    /// Per literal (`2·var + negative`): the identifiers of clauses holding it; built at the
    /// first RAT check, kept up to date afterwards, stale entries skipped on use.
    occurs: Option<HashMap<i64, Vec<u64>>>,
}

impl Checker {
    fn new(formula: &[Vec<i64>]) -> Checker {
        let mut clauses = HashMap::with_capacity(formula.len());
        for (k, c) in formula.iter().enumerate() {
            let mut c = c.clone();
            c.sort_unstable();
            c.dedup();
            clauses.insert(k as u64 + 1, c);
        }
        Checker {
            clauses,
            top: formula.len() as u64,
            value: Vec::new(),
            assigned: Vec::new(),
            occurs: None,
        }
    }

    fn val(&self, lit: i64) -> i8 {
        let v = self
            .value
            .get(lit.unsigned_abs() as usize)
            .copied()
            .unwrap_or(0);
        if lit < 0 { -v } else { v }
    }

    /// Makes `lit` true (pre: unassigned).
    fn assign(&mut self, lit: i64) {
        let v = lit.unsigned_abs() as usize;
        if v >= self.value.len() {
            self.value.resize(v + 1, 0);
        }
        self.value[v] = if lit > 0 { 1 } else { -1 };
        self.assigned.push(lit);
    }

    /// Undoes the assignments after the first `keep`.
    fn undo(&mut self, keep: usize) {
        for lit in self.assigned.drain(keep..) {
            self.value[lit.unsigned_abs() as usize] = 0;
        }
    }

    /// Runs `hints` (positive identifiers) as unit propagation under the current assignment:
    /// `Ok(true)` when the last one is falsified, `Ok(false)` when they all were unit and none
    /// conflicted, `Err` for a hint that is missing, satisfied, has two free literals, or
    /// follows the conflict.
    fn propagate(&mut self, hints: &[i64], step: &str) -> Result<bool, String> {
        for (k, &h) in hints.iter().enumerate() {
            let id = h as u64;
            let clause = self
                .clauses
                .get(&id)
                .ok_or_else(|| format!("{step}: hint {h} names no live clause"))?;
            let mut free = None;
            for &l in clause {
                match self.val(l) {
                    1 => return Err(format!("{step}: hint {h} {clause:?} is satisfied")),
                    0 => {
                        if free.is_some_and(|f| f != l) {
                            return Err(format!(
                                "{step}: hint {h} {clause:?} has two unassigned literals"
                            ));
                        }
                        free = Some(l);
                    }
                    _ => {}
                }
            }
            match free {
                Some(l) => self.assign(l),
                None => {
                    if k + 1 != hints.len() {
                        return Err(format!("{step}: hints after the conflict of hint {h}"));
                    }
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    fn run(mut self, steps: &[Step]) -> Result<LratSummary, String> {
        let mut summary = LratSummary::default();
        for (n, step) in steps.iter().enumerate() {
            match step {
                Step::Delete(ids) => {
                    for id in ids {
                        if self.clauses.remove(id).is_none() {
                            return Err(format!("step {}: deletion of unknown clause {id}", n + 1));
                        }
                        summary.deleted += 1;
                    }
                }
                Step::Add { id, lits, hints } => {
                    let name = format!("step {} (clause {id} {lits:?})", n + 1);
                    if *id <= self.top {
                        return Err(format!("{name}: identifier not above {}", self.top));
                    }
                    let rat = self.add(lits, hints, &name)?;
                    summary.added += 1;
                    summary.rat += usize::from(rat);
                    if lits.is_empty() {
                        return Ok(summary);
                    }
                    self.top = *id;
                    let mut c = lits.clone();
                    c.sort_unstable();
                    c.dedup();
                    if let Some(occ) = &mut self.occurs {
                        for &l in &c {
                            occ.entry(l).or_default().push(*id);
                        }
                    }
                    self.clauses.insert(*id, c);
                }
            }
        }
        Err("the proof never derives the empty clause".into())
    }

    /// Checks one addition; `Ok(true)` when it needed the RAT check.
    fn add(&mut self, lits: &[i64], hints: &[i64], name: &str) -> Result<bool, String> {
        debug_assert!(self.assigned.is_empty());
        for &l in lits {
            match self.val(l) {
                0 => self.assign(-l),
                -1 => {} // a duplicate literal
                _ => {
                    self.undo(0);
                    return Err(format!("{name}: a tautology"));
                }
            }
        }
        let split = hints.iter().position(|&h| h < 0).unwrap_or(hints.len());
        let result = match self.propagate(&hints[..split], name) {
            Ok(true) if split == hints.len() => Ok(false),
            Ok(true) => Err(format!("{name}: RAT groups after a RUP conflict")),
            Ok(false) => self.rat(lits, &hints[split..], name).map(|()| true),
            Err(e) => Err(e),
        };
        self.undo(0);
        result
    }

    /// The RAT check on `lits[0]` with the groups `-D H…` of `groups`, under the assignment the
    /// clause's negation and the positive hints left.
    fn rat(&mut self, lits: &[i64], groups: &[i64], name: &str) -> Result<(), String> {
        let Some(&pivot) = lits.first() else {
            return Err(format!("{name}: the hints reach no conflict"));
        };
        if self.occurs.is_none() {
            let mut occ: HashMap<i64, Vec<u64>> = HashMap::new();
            for (&id, c) in &self.clauses {
                for &l in c {
                    occ.entry(l).or_default().push(id);
                }
            }
            self.occurs = Some(occ);
        }
        // The candidates: live clauses with ¬pivot, in identifier order.
        let mut candidates: Vec<u64> = self
            .occurs
            .as_ref()
            .and_then(|o| o.get(&-pivot))
            .map(|ids| {
                ids.iter()
                    .copied()
                    .filter(|id| self.clauses.get(id).is_some_and(|c| c.contains(&-pivot)))
                    .collect()
            })
            .unwrap_or_default();
        candidates.sort_unstable();
        candidates.dedup();
        let mut by_id: HashMap<u64, &[i64]> = HashMap::new();
        let mut k = 0;
        while k < groups.len() {
            let d = groups[k].unsigned_abs();
            let end = groups[k + 1..]
                .iter()
                .position(|&h| h < 0)
                .map_or(groups.len(), |p| k + 1 + p);
            if by_id.insert(d, &groups[k + 1..end]).is_some() {
                return Err(format!("{name}: two RAT groups for clause {d}"));
            }
            if candidates.binary_search(&d).is_err() {
                return Err(format!(
                    "{name}: RAT group for clause {d}, which lacks {}",
                    -pivot
                ));
            }
            k = end;
        }
        let base = self.assigned.len();
        for d in candidates {
            let Some(clause) = self.clauses.get(&d).cloned() else {
                continue;
            };
            // Satisfied already, or a tautological resolvent: nothing to show.
            if clause.iter().any(|&l| l != -pivot && self.val(l) == 1) {
                continue;
            }
            let Some(group) = by_id.get(&d) else {
                return Err(format!(
                    "{name}: no RAT group for clause {d} {clause:?} (pivot {pivot})"
                ));
            };
            for &l in &clause {
                if l != -pivot && self.val(l) == 0 {
                    self.assign(-l);
                }
            }
            let conflict = self.propagate(group, &format!("{name}, RAT group {d}"));
            self.undo(base);
            if !conflict? {
                return Err(format!("{name}: RAT group {d} reaches no conflict"));
            }
        }
        Ok(())
    }
}

/// The clauses of a DIMACS CNF text (`p` line and comments skipped; `%` ends the clauses, as
/// in old benchmark files). For the `lrat-check` binary and the tests.
pub fn parse_cnf(text: &str) -> Result<Vec<Vec<i64>>, String> {
    let mut clauses = Vec::new();
    let mut clause = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('c') || line.starts_with('p') || line.is_empty() {
            continue;
        }
        if line.starts_with('%') {
            break;
        }
        for t in line.split_whitespace() {
            let x: i64 = t.parse().map_err(|_| format!("`{t}` is not a literal"))?;
            if x == 0 {
                clauses.push(std::mem::take(&mut clause));
            } else {
                clause.push(x);
            }
        }
    }
    if !clause.is_empty() {
        return Err("the last clause has no closing 0".into());
    }
    Ok(clauses)
}

/// The clauses of the DIMACS CNF file at `path`, gzip-compressed or not (told by its magic
/// bytes). For the `lrat-check` binary and the tests that read `instances/`.
pub fn read_cnf(path: &std::path::Path) -> Result<Vec<Vec<i64>>, String> {
    use std::io::Read;
    let name = path.display();
    let mut bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .read_to_end(&mut out)
            .map_err(|e| format!("{name}: {e}"))?;
        bytes = out;
    }
    let text = String::from_utf8(bytes).map_err(|e| format!("{name}: {e}"))?;
    parse_cnf(&text).map_err(|e| format!("{name}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The formula of the format's own example: a 2-variable contradiction over 4 clauses.
    fn square() -> Vec<Vec<i64>> {
        vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]]
    }

    /// `encode` writes a binary proof from (tag, numbers…) steps, every list ended by 0.
    fn encode(steps: &[(u8, Vec<Vec<i64>>)]) -> Vec<u8> {
        let mut out = Vec::new();
        for (tag, lists) in steps {
            out.push(*tag);
            for (k, list) in lists.iter().enumerate() {
                for &x in list {
                    put(&mut out, x);
                }
                // The identifier of an addition stands alone, without a 0.
                if !(*tag == b'a' && k == 0) {
                    put(&mut out, 0);
                }
            }
        }
        out
    }

    fn put(out: &mut Vec<u8>, x: i64) {
        let mut u = 2 * x.unsigned_abs() + u64::from(x < 0);
        while u > 0x7f {
            out.push((u & 0x7f) as u8 | 0x80);
            u >>= 7;
        }
        out.push(u as u8);
    }

    #[test]
    fn a_rup_refutation_with_hints_in_propagation_order_is_accepted() {
        let proof = b"5 2 0 1 2 0\n5 d 1 2 0\n6 0 5 3 4 0\n";
        let s = check_lrat(&square(), proof).unwrap();
        assert_eq!(
            s,
            LratSummary {
                added: 2,
                rat: 0,
                deleted: 2
            }
        );
    }

    #[test]
    fn the_same_proof_in_binary_is_accepted() {
        let proof = encode(&[
            (b'a', vec![vec![5], vec![2], vec![1, 2]]),
            (b'd', vec![vec![1, 2]]),
            (b'a', vec![vec![6], vec![], vec![5, 3, 4]]),
        ]);
        assert_eq!(check_lrat(&square(), &proof).unwrap().added, 2);
    }

    #[test]
    fn a_dropped_hint_is_rejected() {
        let err = check_lrat(&square(), b"5 2 0 1 0\n6 0 5 3 4 0\n").unwrap_err();
        assert!(err.contains("clause 5"), "{err}");
    }

    #[test]
    fn a_flipped_literal_is_rejected() {
        // `-2` is not implied: hint 1 (1 2) is unit on 1, hint 2 (-1 2) is then satisfied.
        let err = check_lrat(&square(), b"5 -2 0 1 2 0\n6 0 5 3 4 0\n").unwrap_err();
        assert!(err.contains("satisfied"), "{err}");
    }

    #[test]
    fn hints_out_of_propagation_order_are_rejected() {
        // (1 2) is not unit before (-1 2) … the order matters: with ¬2, hint 2 is unit on ¬1,
        // then hint 1 (1 2) conflicts; reversed and with a hint that is not unit first, fails.
        assert!(check_lrat(&square(), b"5 2 0 2 1 0\n6 0 5 3 4 0\n").is_ok());
        let err = check_lrat(&square(), b"5 2 0 3 1 2 0\n6 0 5 3 4 0\n").unwrap_err();
        assert!(
            err.contains("satisfied") || err.contains("unassigned"),
            "{err}"
        );
    }

    #[test]
    fn a_hint_naming_a_deleted_clause_is_rejected() {
        let err = check_lrat(&square(), b"5 d 1 0\n5 2 0 1 2 0\n6 0 5 3 4 0\n").unwrap_err();
        assert!(err.contains("no live clause"), "{err}");
    }

    #[test]
    fn hints_after_the_conflict_are_rejected() {
        let err = check_lrat(&square(), b"5 2 0 1 2 3 0\n6 0 5 3 4 0\n").unwrap_err();
        assert!(err.contains("after the conflict"), "{err}");
    }

    #[test]
    fn a_proof_without_the_empty_clause_is_rejected() {
        let err = check_lrat(&square(), b"5 2 0 1 2 0\n").unwrap_err();
        assert!(err.contains("never derives"), "{err}");
    }

    #[test]
    fn identifiers_must_grow() {
        let err = check_lrat(&square(), b"4 2 0 1 2 0\n").unwrap_err();
        assert!(err.contains("not above"), "{err}");
    }

    /// A fresh variable introduced by RAT steps, as bounded variable addition does: `4` with
    /// `(4 3)` (RAT on 4: no clause holds ¬4), then `(-4 1)` and `(-4 2)` (RAT on ¬4: their
    /// resolvents with `(4 3)` are the original clauses 1 and 2).
    #[test]
    fn rat_steps_on_a_fresh_variable_are_checked_against_every_clause_of_the_pivots_negation() {
        // F: (1 3) (2 3) (-1 -2) (-3) over 1..3; a refutation through x = 4.
        let f = vec![vec![1, 3], vec![2, 3], vec![-1, -2], vec![-3]];
        // 5: (4 3) is RAT on 4: no clause holds ¬4, so no group is needed.
        // 6: (-4 1) is RAT on ¬4: the one clause with 4 is 5 = (4 3); the resolvent (1 3) is
        //    clause 1, falsified once ¬1 and ¬3 are assigned: group -5 1.
        // 7: (-4 2) likewise with clause 2.
        // 8: (4) from 5 and 4: ¬4 makes 5 unit on 3, clause 4 (¬3) conflicts.
        // 9: the empty clause: 8 gives 4, 6 gives 1, 7 gives 2, 3 conflicts.
        let proof = b"5 4 3 0 0\n6 -4 1 0 -5 1 0\n7 -4 2 0 -5 2 0\n8 4 0 5 4 0\n9 0 8 6 7 3 0\n";
        let s = check_lrat(&f, proof).unwrap();
        assert_eq!(s.rat, 3);
        // A missing group (clause 5 has 4, so ¬4's RAT check needs it) is rejected …
        let bad = b"5 4 3 0 0\n6 -4 1 0 0\n";
        let err = check_lrat(&f, bad).unwrap_err();
        assert!(err.contains("no RAT group for clause 5"), "{err}");
        // … and so is a group whose hints reach no conflict (clause 3 is unit, not falsified).
        let bad = b"5 4 3 0 0\n6 -4 1 0 -5 3 0\n";
        let err = check_lrat(&f, bad).unwrap_err();
        assert!(err.contains("clause 6"), "{err}");
        // A RAT step on a variable that is not fresh: (-3) has ¬3, so (3 1) is not RAT on 3
        // without a group for clause 4, and none can conflict.
        let bad = b"5 3 1 0 0\n";
        assert!(check_lrat(&f, bad).is_err());
    }

    #[test]
    fn the_cnf_reader_takes_comments_headers_and_clauses_across_lines() {
        let f = parse_cnf("c x\np cnf 3 2\n1 -2\n 0 3 0\n").unwrap();
        assert_eq!(f, vec![vec![1, -2], vec![3]]);
        assert!(parse_cnf("1 2\n").is_err());
    }
}

//! The CNF / WCNF that `grim-encode grid.json` writes: the model's clauses, preceded by comment
//! lines that let any external solver's answer be read back and that carry the seeded phase
//! hints.
//!
//! ```text
//! c grim-encode grid 12 12 seed 7 preferences hint
//! c tile 0 wall # 3b3b46                 index, name, glyph (then the colour, if any)
//! c layer items 0 none                    layer, value index, value name
//! c cell 0 0 wall 1                       x y tile variable: "cell (x, y) holds tile" is var 1
//! c layer items 0 0 enemy 61              layer x y value variable
//! c phase 2 -1 -3 -4 -5 …                 preferred polarities (DIMACS literals), any order
//! p cnf 1234 5678                         then the clauses (or a WCNF in the chosen dialect)
//! ```
//! Coordinates are x = column from the west, y = row from the north; variables are DIMACS
//! numbers (1-based). Names are written by [`comment_name`] (blanks percent-encoded),
//! so every line splits on white space into fixed fields. `c phase` lines hold at most 16
//! literals each; a solver that reads phases (CaDiCaL's `--phase` does not take a file, but
//! a wrapper can turn these into `phase` calls) gets the same hints our engine applies, and one
//! that does not simply ignores comments.
//!
//! All-hard models are written as DIMACS CNF; a model with anything soft (a weighted count or
//! enclosure, or preferences in "soft" mode) as WCNF in the dialect asked for.
//!
//! # Streamed: memory that does not grow with the clauses
//! [`write_encoding`] writes a model built in memory: every clause held (16 million on the
//! 128×128 dungeon: a 2.3 GB peak). [`StreamedExport`] writes the same bytes without holding
//! them: the model is built into a [`Problem::streaming`] whose hard clauses go, as the
//! encoders make them, as DIMACS clause lines (`1 -2 0`) into a scratch file the caller
//! provides; the model keeps the variable map, the wished values and hints, the soft clauses
//! and the clause counts, which all grow with the cells and variables, not the clauses. Once
//! the build is done, [`StreamedExport::write`] writes the comment block (the phase hints are
//! known only now, which is why the clauses cannot go straight to the output: the comments and
//! the `p` line come first), the header (clause and variable counts from the problem), and
//! copies the scratch file behind them — as it is for a CNF, each line behind `h ` (new WCNF)
//! or `TOP ` (old WCNF) for a WCNF, whose soft clauses follow from memory. The bytes are those
//! of [`write_encoding`] (tested: `tests/grid_export.rs`). Cost: the clause text is written
//! twice (scratch, then output), and the scratch file needs as much disk as the output for the
//! time of the export; `grim-encode` puts it beside the output file and unlinks it as soon as
//! it is open, so nothing is left behind on any exit.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, Write};
use std::sync::{Arc, Mutex};

use crate::error::GridError;
use crate::model::{GridModel, Mode, PartSize};
use crate::options::GridOptions;
use crate::spec::GridSpec;
use grim_maxsat::problem::{HardClauseSink, HardStream, Problem};
use grim_solver::Lit;

use grim_formats::dimacs::{push_clause_line, write_dimacs_clauses_mapped};
use grim_formats::wcnf::{Dialect, write_wcnf};

/// Literals per `c phase` line: short lines stay well inside the competitions' 4096-byte
/// limit whatever the variable numbers.
pub const PHASES_PER_LINE: usize = 16;

/// Writes the comment block described in the module documentation (everything before the
/// `p` line). `seed` is the seed the model was built with, if any.
pub fn write_comments(
    spec: &GridSpec,
    model: &GridModel,
    seed: Option<u64>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mode = if model.is_soft() { "soft" } else { "hard" };
    match seed {
        Some(seed) => writeln!(
            out,
            "c grim-encode grid {} {} seed {seed} model {mode}",
            spec.width, spec.height
        )?,
        None => writeln!(
            out,
            "c grim-encode grid {} {} seed none model {mode}",
            spec.width, spec.height
        )?,
    }
    writeln!(
        out,
        "c decode a solver's answer with: grim-encode decode GRID.json SOLVER-OUTPUT"
    )?;
    for (t, tile) in spec.tiles.iter().enumerate() {
        let glyph = comment_name(&tile.glyph.to_string());
        match &tile.color {
            Some(colour) => writeln!(
                out,
                "c tile {t} {} {glyph} {}",
                comment_name(&tile.name),
                comment_name(colour)
            )?,
            None => writeln!(out, "c tile {t} {} {glyph}", comment_name(&tile.name))?,
        }
    }
    for layer in &spec.layers {
        for (v, value) in layer.values.iter().enumerate() {
            writeln!(
                out,
                "c layer {} {v} {}",
                comment_name(&layer.name),
                comment_name(&value.name)
            )?;
        }
    }
    let tile_names: Vec<String> = spec.tiles.iter().map(|t| comment_name(&t.name)).collect();
    let mut line = String::new();
    for y in 0..spec.height {
        for x in 0..spec.width {
            for (t, name) in tile_names.iter().enumerate() {
                let var = model.cell_var(x, y, t);
                line.clear();
                use std::fmt::Write as _;
                let _ = writeln!(line, "c cell {x} {y} {name} {}", var.to_dimacs());
                out.write_all(line.as_bytes())?;
            }
        }
    }
    for (l, layer) in spec.layers.iter().enumerate() {
        let layer_name = comment_name(&layer.name);
        let value_names: Vec<String> = layer.values.iter().map(|v| comment_name(&v.name)).collect();
        for y in 0..spec.height {
            for x in 0..spec.width {
                for (v, name) in value_names.iter().enumerate() {
                    let var = model.layer_var(l, x, y, v);
                    writeln!(
                        out,
                        "c layer {layer_name} {x} {y} {name} {}",
                        var.to_dimacs()
                    )?;
                }
            }
        }
    }
    // The hints in the file's orientation (auxiliary variables negated in a CNF export).
    let negated = model.export_negated();
    let hints: Vec<Lit> = model
        .phase_hints()
        .into_iter()
        .map(|l| oriented(l, &negated))
        .collect();
    write_phases(&hints, out)
}

/// `c phase` lines, [`PHASES_PER_LINE`] literals each.
pub fn write_phases(phases: &[Lit], out: &mut dyn Write) -> io::Result<()> {
    for chunk in phases.chunks(PHASES_PER_LINE) {
        let mut line = String::from("c phase");
        for lit in chunk {
            use std::fmt::Write as _;
            let _ = write!(line, " {lit}");
        }
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// What [`write_encoding`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// DIMACS CNF (everything hard).
    Cnf,
    /// WCNF in this dialect (something soft).
    Wcnf(Dialect),
}

/// Writes the whole file: comments, then the CNF when nothing is soft, else the WCNF in
/// `dialect`, from a model held in memory (`grim-encode` writes the same bytes streamed:
/// [`StreamedExport`]). Fails only on an I/O error (or a WCNF whose soft weights overflow the old
/// dialect's TOP, reported by the writer before anything of the clauses is written).
pub fn write_encoding(
    spec: &GridSpec,
    model: &GridModel,
    seed: Option<u64>,
    dialect: Dialect,
    out: &mut dyn Write,
) -> io::Result<Written> {
    match model.is_soft() {
        false => {
            write_comments(spec, model, seed, out)?;
            // From the model's own clauses: no copy (a 128×128 export is 16 million clauses).
            let (num_vars, clauses) = model.hard_clauses();
            write_exported_clauses(num_vars, clauses, &model.export_negated(), &mut *out)?;
            Ok(Written::Cnf)
        }
        true => {
            let wcnf = model.to_wcnf();
            // The old dialect's TOP must exceed the soft weights' sum: find out before the
            // first byte goes out, so a failure writes nothing.
            if dialect == Dialect::Old
                && wcnf
                    .total_soft_weight()
                    .and_then(|sum| sum.checked_add(1))
                    .is_none()
            {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "the soft weights sum to 2^64 - 1 or more, which the old WCNF format \
                     cannot express; use --wcnf new",
                ));
            }
            write_comments(spec, model, seed, out)?;
            write_wcnf(&wcnf, dialect, &mut *out)?;
            Ok(Written::Wcnf(dialect))
        }
    }
}

/// The streamed export: the model built with its hard clauses in a scratch file (see the
/// [module](self) documentation), to be written once with [`StreamedExport::write`].
pub struct StreamedExport {
    /// The model without its hard clauses ([`Problem::streaming`]); never solved.
    model: GridModel,
    /// The scratch file's writer, shared with the model's problem.
    body: Arc<Mutex<ClauseLines>>,
}

impl StreamedExport {
    /// Builds the export model of `spec` (what [`GridModel::build`] builds) with its hard
    /// clauses written to `scratch` as they are made. `scratch` should be an empty file open
    /// for reading and writing; it is read back by [`StreamedExport::write`]. An I/O error on
    /// it is kept and reported by [`StreamedExport::write`], before anything is written.
    pub fn build(
        spec: &GridSpec,
        options: &GridOptions,
        scratch: File,
    ) -> Result<StreamedExport, GridError> {
        let body = Arc::new(Mutex::new(ClauseLines {
            out: BufWriter::with_capacity(1 << 16, scratch),
            clauses: 0,
            line: Vec::new(),
            error: None,
        }));
        let sink: Arc<Mutex<dyn HardClauseSink>> = body.clone();
        let problem = Problem::streaming(HardStream(sink));
        let model = GridModel::build_into(spec, options, Mode::Eager, problem)?;
        Ok(StreamedExport { model, body })
    }

    /// Variables and hard clauses per part, as [`GridModel::sizes`] (for `grim-encode -v`).
    pub fn sizes(&self) -> Vec<PartSize> {
        self.model.sizes()
    }

    /// Whether anything is soft (then [`StreamedExport::write`] writes a WCNF).
    pub fn is_soft(&self) -> bool {
        self.model.is_soft()
    }

    /// Writes the whole file, byte for byte what [`write_encoding`] writes for the same
    /// spec, options, `seed` (the seed the model was built with) and `dialect`. Fails on an
    /// I/O error (the scratch file's first, reported before anything goes to `out`), or on a
    /// WCNF whose soft weights overflow the old dialect's TOP (also before anything is
    /// written).
    pub fn write(
        self,
        seed: Option<u64>,
        dialect: Dialect,
        out: &mut dyn Write,
    ) -> io::Result<Written> {
        let StreamedExport { model, body } = self;
        let mut lines = body.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = lines.error.take() {
            return Err(e);
        }
        lines.out.flush()?;
        if lines.clauses != model.problem.hard_len() {
            return Err(io::Error::other(format!(
                "internal error: {} clause lines streamed for {} hard clauses",
                lines.clauses,
                model.problem.hard_len()
            )));
        }
        let scratch = lines.out.get_mut();
        scratch.rewind()?;
        let kept = model.problem.as_wcnf();
        let spec = &model.spec;
        if !model.is_soft() {
            write_comments(spec, &model, seed, out)?;
            // The variable count covers every clause (`Problem::streaming`), as the in-memory
            // writer's `num_vars.max(used)` does.
            writeln!(out, "p cnf {} {}", kept.num_vars, model.problem.hard_len())?;
            // The variables the CNF export writes negated are known only once the model is
            // whole (`GridModel::export_negated`: the locks family's range, softness), so the
            // scratch file holds the clauses as encoded and the negation is applied here.
            let negated = model.export_negated();
            if negated.contains(&true) {
                copy_lines_negated(scratch, out, &negated)?;
            } else {
                copy_lines(scratch, out, None)?;
            }
            return Ok(Written::Cnf);
        }
        let top = match dialect {
            Dialect::New => None,
            // The old dialect's TOP must exceed the soft weights' sum: found out before the
            // first byte goes out, as in `write_encoding`.
            Dialect::Old => Some(
                kept.total_soft_weight()
                    .and_then(|sum| sum.checked_add(1))
                    .ok_or_else(|| {
                        io::Error::new(
                            io::ErrorKind::InvalidInput,
                            "the soft weights sum to 2^64 - 1 or more, which the old WCNF format \
                             cannot express; use --wcnf new",
                        )
                    })?,
            ),
        };
        write_comments(spec, &model, seed, out)?;
        let head = match top {
            Some(top) => {
                writeln!(
                    out,
                    "p wcnf {} {} {top}",
                    kept.vars_spanned(),
                    model.problem.hard_len() + kept.soft.len()
                )?;
                format!("{top} ")
            }
            None => "h ".to_string(),
        };
        copy_lines(scratch, out, Some(head.as_bytes()))?;
        let mut chunk = Vec::with_capacity(1 << 17);
        for (weight, clause) in &kept.soft {
            chunk.extend_from_slice(weight.to_string().as_bytes());
            chunk.push(b' ');
            push_clause_line(&mut chunk, clause);
            if chunk.len() >= 1 << 16 {
                out.write_all(&chunk)?;
                chunk.clear();
            }
        }
        out.write_all(&chunk)?;
        Ok(Written::Wcnf(dialect))
    }
}

/// The streamed export's sink: each hard clause as a DIMACS clause line into the scratch
/// file, keeping the first I/O error (the encoders cannot fail; [`StreamedExport::write`]
/// reports it).
struct ClauseLines {
    out: BufWriter<File>,
    /// Clauses received (checked against the problem's count).
    clauses: usize,
    /// The line being formatted.
    line: Vec<u8>,
    error: Option<io::Error>,
}

impl HardClauseSink for ClauseLines {
    fn clause(&mut self, lits: &[Lit]) {
        self.clauses += 1;
        if self.error.is_some() {
            return;
        }
        self.line.clear();
        push_clause_line(&mut self.line, lits);
        if let Err(e) = self.out.write_all(&self.line) {
            self.error = Some(e);
        }
    }
}

/// Copies the scratch file's clause lines to `out`, each behind `head` when given.
fn copy_lines(scratch: &mut File, out: &mut dyn Write, head: Option<&[u8]>) -> io::Result<()> {
    match head {
        None => {
            let mut buf = vec![0u8; 1 << 16];
            loop {
                match scratch.read(&mut buf) {
                    Ok(0) => return Ok(()),
                    Ok(n) => out.write_all(&buf[..n])?,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Some(head) => {
            // Lines gathered into 64 KiB writes: `out` may do work per call (`-v`'s progress).
            let mut lines = BufReader::with_capacity(1 << 16, scratch);
            let mut chunk = Vec::with_capacity(1 << 17);
            loop {
                chunk.extend_from_slice(head);
                if lines.read_until(b'\n', &mut chunk)? == 0 {
                    chunk.truncate(chunk.len() - head.len());
                    return out.write_all(&chunk);
                }
                if chunk.len() >= 1 << 16 {
                    out.write_all(&chunk)?;
                    chunk.clear();
                }
            }
        }
    }
}

/// Copies the scratch file's clause lines (as [`push_clause_line`] wrote them) to `out` with
/// every variable `v` for which `negated[v]` holds negated: the clause lines
/// [`write_exported_clauses`] writes for the same clauses. A line that is not such a clause line is reported as an error
/// (the file is ours, so that is an internal error), never passed on half-converted.
fn copy_lines_negated(scratch: &mut File, out: &mut dyn Write, negated: &[bool]) -> io::Result<()> {
    let bad = || io::Error::other("internal error: a malformed clause line in the scratch file");
    let mut lines = BufReader::with_capacity(1 << 16, scratch);
    let mut line = Vec::with_capacity(256);
    let mut chunk = Vec::with_capacity(1 << 17);
    let mut clause: Vec<Lit> = Vec::new();
    loop {
        line.clear();
        if lines.read_until(b'\n', &mut line)? == 0 {
            return out.write_all(&chunk);
        }
        clause.clear();
        let mut closed = false;
        for token in line
            .split(|b| b.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
        {
            if closed {
                return Err(bad());
            }
            let text = std::str::from_utf8(token).map_err(|_| bad())?;
            let n: i64 = text.parse().map_err(|_| bad())?;
            if n == 0 {
                closed = true;
                continue;
            }
            let lit = Lit::from_dimacs(n).ok_or_else(bad)?;
            clause.push(oriented(lit, negated));
        }
        if !closed {
            return Err(bad());
        }
        push_clause_line(&mut chunk, &clause);
        if chunk.len() >= 1 << 16 {
            out.write_all(&chunk)?;
            chunk.clear();
        }
    }
}

/// The DIMACS CNF of `clauses` with every variable `v` for which `negated[v]` holds written
/// negated ([`GridModel::export_negated`]); the same bytes as `write_dimacs_clauses` when
/// nothing is.
fn write_exported_clauses(
    num_vars: usize,
    clauses: &[Vec<Lit>],
    negated: &[bool],
    out: &mut dyn Write,
) -> io::Result<()> {
    write_dimacs_clauses_mapped(num_vars, clauses, |lit| oriented(lit, negated), out)
}

/// `lit` as the CNF export writes it: negated when its variable is one of `negated`'s
/// ([`GridModel::export_negated`]).
fn oriented(lit: Lit, negated: &[bool]) -> Lit {
    match negated.get(lit.var().index()) {
        Some(true) => !lit,
        _ => lit,
    }
}

/// A name as written in a `c` comment line: whitespace, control characters and `%` are
/// percent-encoded (`%20` for a space), so every comment line splits on blanks into the same
/// fields whatever the designer named a tile. Names without such characters (the usual case)
/// are written as they are.
pub fn comment_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_whitespace() || c.is_control() || c == '%' {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_names_keep_plain_names_and_escape_blanks_and_percent() {
        for (name, written) in [
            ("floor", "floor"),
            ("deep water", "deep%20water"),
            ("50%", "50%25"),
            ("a\tb\n", "a%09b%0A"),
            ("é", "é"),
        ] {
            assert_eq!(comment_name(name), written, "the comment name of {name:?}");
        }
    }
}

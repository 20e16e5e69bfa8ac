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

use std::io::{self, Write};

use crate::model::GridModel;
use crate::spec::GridSpec;
use grim_solver::Lit;

use grim_formats::dimacs::write_dimacs_clauses;
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
        .map(|l| match negated.get(l.var().index()) {
            Some(true) => !l,
            _ => l,
        })
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
/// `dialect`. Fails only on an I/O error (or a WCNF whose soft weights overflow the old
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

/// The DIMACS CNF of `clauses` with every variable `v` for which `negated[v]` holds written
/// negated ([`GridModel::export_negated`]); the same bytes as `write_dimacs_clauses` when
/// nothing is.
fn write_exported_clauses(
    num_vars: usize,
    clauses: &[Vec<Lit>],
    negated: &[bool],
    out: &mut dyn Write,
) -> io::Result<()> {
    if !negated.contains(&true) {
        return write_dimacs_clauses(num_vars, clauses, out);
    }
    let used = clauses
        .iter()
        .flatten()
        .map(|l| l.var().index() + 1)
        .max()
        .unwrap_or(0);
    writeln!(out, "p cnf {} {}", num_vars.max(used), clauses.len())?;
    let mut line = String::new();
    for clause in clauses {
        line.clear();
        for &lit in clause {
            use std::fmt::Write as _;
            let lit = match negated.get(lit.var().index()) {
                Some(true) => !lit,
                _ => lit,
            };
            // Writing into a String cannot fail.
            let _ = write!(line, "{lit} ");
        }
        line.push_str("0\n");
        out.write_all(line.as_bytes())?;
    }
    Ok(())
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

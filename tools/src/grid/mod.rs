//! What `grim-encode` adds around the grid model of `grim_encodings::grid`: the annotated
//! CNF/WCNF it writes ([`encode`]), reading any solver's answer back into a level ([`decode`]),
//! and the SVG picture of a level ([`svg`]). Files are written by
//! [`crate::output::write_file`].
//!
//! The encoding itself (clauses, variables, phase hints) and the referee `check_level` live in
//! `grim_encodings::grid`; this module only formats, parses and draws, so a game that embeds
//! the library gets exactly the model the command line writes.

pub mod decode;
pub mod encode;
pub mod svg;

/// Exit codes of `grim-encode`. 0 is success for every command; the error codes follow
/// `grim-sat`'s (2 usage, 3 malformed input, 4 I/O, 5 internal) so scripts treat the tools
/// alike, and 20 is the SAT Competition's "unsatisfiable".
pub mod exit {
    use crate::cli::sat_exit;

    /// The CNF/WCNF was written, or a level was found (and passed `check_level`).
    pub const OK: u8 = 0;
    /// `decode`: the solver's model falsifies a (hard) clause of the encoding, or the level
    /// read from it breaks a rule of grid.json (the referee's message says which).
    pub const WRONG: u8 = 1;
    /// Bad command line (clap's own code).
    pub const USAGE: u8 = sat_exit::USAGE;
    /// grid.json is malformed or invalid (the message names line:column or the field path),
    /// or the solver output is malformed or does not assign the grid's variables.
    pub const INPUT: u8 = sat_exit::PARSE;
    /// A file could not be opened, read or written.
    pub const IO: u8 = sat_exit::IO;
    /// Internal error: our own engine's level failed the referee. Please report it with the
    /// grid.json and the seed.
    pub const INTERNAL: u8 = sat_exit::INTERNAL;
    /// No answer: `solve` ran out of `--time`, or the solver output says UNKNOWN.
    pub const UNKNOWN: u8 = 6;
    /// No level exists: the rules contradict each other (`solve`), or the solver output says
    /// UNSATISFIABLE (`decode`).
    pub const UNSATISFIABLE: u8 = sat_exit::UNSATISFIABLE;
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

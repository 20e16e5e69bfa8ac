//! What `grim-encode` adds around the grid model of `grim_encodings::grid`: the annotated
//! CNF/WCNF it writes ([`encode`]), reading any solver's answer back into a level ([`decode`]),
//! the SVG picture of a level ([`svg`]), and writing files so that nothing is ever left
//! half-written ([`write_atomically`]).
//!
//! The encoding itself (clauses, variables, phase hints) and the referee `check_level` live in
//! `grim_encodings::grid`; this module only formats, parses and draws, so a game that embeds
//! the library gets exactly the model the command line writes.

pub mod decode;
pub mod encode;
pub mod svg;

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

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

/// Writes a file through `write`, atomically: the bytes go to a temporary file in the same
/// directory, which is flushed, synced and renamed over `path` only when `write` succeeded.
/// On any failure the temporary file is removed and `path` is left as it was — a designer's
/// previous picture or CNF is never replaced by half of a new one.
///
/// The temporary name is `.NAME.grim-tmp.PID` next to `path` (same directory, so the rename
/// cannot cross file systems).
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, "the output path names no file")
    })?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".grim-tmp.{}", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = (|| {
        let file = fs::File::create(&tmp)?;
        let mut out = BufWriter::new(file);
        write(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
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

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = std::env::temp_dir().join(format!("grim-atomic-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.txt");
        fs::write(&path, "old").unwrap();
        let err = write_atomically(&path, |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("boom"))
        });
        assert!(err.is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        let left: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "a temporary file was left behind: {left:?}");
        write_atomically(&path, |w| w.write_all(b"new")).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        fs::remove_dir_all(&dir).unwrap();
    }
}

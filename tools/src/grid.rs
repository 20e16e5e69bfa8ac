//! `grim-encode`'s command-line part: its exit codes ([`exit`]). What a game or another
//! program needs without the command line — the annotated CNF/WCNF writer, the reader of any
//! solver's answer, the SVG picture, `comment_name` — is the `grim-levels` crate
//! ([`grim_levels::encode`], [`grim_levels::decode`], [`grim_levels::svg`]), beside the grid
//! model itself, so a game that embeds the library gets exactly the model the command line
//! writes. Files are written by [`crate::output::write_file`].

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

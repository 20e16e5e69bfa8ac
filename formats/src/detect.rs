//! Telling DIMACS CNF from WCNF before reading, so one `grim-sat` and one `grim-check` take
//! either.
//!
//! # The rule
//! Comments (`c …` lines) and blanks are skipped; then the first token decides:
//! 1. `p` — the header: `p wcnf …` is WCNF (old dialect); any other `p` line (`p cnf …`, or a
//!    malformed one, which the CNF reader then reports) is CNF.
//! 2. `h` — a hard clause of the headerless WCNF dialect: WCNF. So is a headerless input with
//!    a line starting with `h` anywhere in the first block read (64 KiB), whatever comes
//!    first: a soft clause may open the file.
//! 3. a non-negative integer — a weight, the opening of a headerless WCNF's soft clause: WCNF,
//!    unless the name says CNF (`.cnf`, or `.cnf` and a compression suffix: the CNF reader then
//!    reports the missing header, with a hint to pass `--format wcnf`).
//! 4. anything else (a negative literal, junk) or nothing at all (an empty or comment-only
//!    file): WCNF when the file name ends in `.wcnf` (or `.wcnf` and a compression suffix:
//!    `.gz`, `.xz`, `.bz2`, `.lzma`; any case), otherwise CNF.
//!
//! Why a weight decides without the name's help: a headerless input is never a valid CNF (the
//! DIMACS header is required), so a number first is a WCNF unless the name says otherwise — and
//! standard input has no name (`grim-gen maxcut … | grim-sat -` was read as CNF and refused,
//! issue 38). A `.cnf` name wins over it because reading a CNF that lost its header as a MaxSAT
//! instance would answer a different question without a word. The contents win everywhere else,
//! so `x.cnf` holding `p wcnf` is read as WCNF. The tools' `--format` flag overrides the rule.

//! # How the input is replayed
//! Detection reads the input up to and a little past its first token; the reader that is
//! then chosen must see the input from its first byte, with the same line and column numbers
//! in its errors. Keeping every byte read would hold arbitrarily long comment blocks in
//! memory, so [`Detected`] replays a *synthetic* prefix instead: one `\n` per skipped line and
//! one space per skipped byte of the first token's line (the skipped part is blanks and
//! comments only, which a reader ignores anyway), then the bytes from the first token on.
//! Memory stays at one buffer whatever the comments hold.

use std::io::{self, Read};
use std::path::Path;

use crate::Input;
use crate::compress::Compression;
use crate::error::ParseError;
use crate::source::is_blank;

/// The two instance formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// DIMACS CNF.
    Cnf,
    /// WCNF, either dialect.
    Wcnf,
}

/// Why detection chose what it chose (for `c` lines and error hints).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A `p wcnf` header.
    WcnfHeader,
    /// A `p` line that is not `p wcnf`.
    CnfHeader,
    /// A first token `h`, or a line starting with `h` in the first block read.
    HardClause,
    /// No header and no `h`; the first token is a weight and the name does not say CNF.
    Weight,
    /// No header and no `h`; the file name ends in `.wcnf` (or `.wcnf.gz`).
    WcnfName,
    /// No header and no `h`; the first token is a weight but the name ends in `.cnf`.
    CnfName,
    /// No header and no `h`, and neither a weight first nor a name that says WCNF.
    Default,
    /// The caller forced the format.
    Forced,
}

impl Reason {
    /// A short description for a `c` line.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::WcnfHeader => "a `p wcnf` header",
            Reason::CnfHeader => "a `p cnf` header",
            Reason::HardClause => "a clause marked `h`",
            Reason::Weight => "no header, and a weight opens the first clause",
            Reason::WcnfName => "no header, and the name ends in .wcnf",
            Reason::CnfName => "no header, but the name ends in .cnf",
            Reason::Default => "no WCNF header, `h` clause or .wcnf name",
            Reason::Forced => "--format",
        }
    }
}

/// How many bytes of the first token's line detection looks at. The longest thing it needs is
/// `p` and `wcnf` after any blanks; 256 bytes leaves room for generous indentation.
const LOOKAHEAD: usize = 256;

const CHUNK: usize = 1 << 16;

/// The input after detection: read it with the chosen reader.
pub struct Detected {
    /// The format chosen.
    pub format: Format,
    /// Why.
    pub reason: Reason,
    compression: Compression,
    /// Synthetic prefix still to emit: newlines, then spaces.
    newlines: u64,
    spaces: u64,
    /// Bytes read but not yet emitted (from the first token on), `head[head_pos..]`.
    head: Vec<u8>,
    head_pos: usize,
    inner: Input,
}

impl Detected {
    /// How the input was compressed.
    pub fn compression(&self) -> Compression {
        self.compression
    }
}

impl Read for Detected {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.newlines > 0 || self.spaces > 0 {
            let mut n = 0;
            for slot in buf.iter_mut() {
                if self.newlines > 0 {
                    *slot = b'\n';
                    self.newlines -= 1;
                } else if self.spaces > 0 {
                    *slot = b' ';
                    self.spaces -= 1;
                } else {
                    break;
                }
                n += 1;
            }
            return Ok(n);
        }
        if let Some(rest) = self.head.get(self.head_pos..)
            && !rest.is_empty()
        {
            let n = rest.len().min(buf.len());
            if let (Some(dst), Some(src)) = (buf.get_mut(..n), rest.get(..n)) {
                dst.copy_from_slice(src);
            }
            self.head_pos += n;
            return Ok(n);
        }
        self.inner.read(buf)
    }
}

/// Whether `path` names a WCNF by its extension: `.wcnf`, or `.wcnf` followed by `.gz`, `.xz`,
/// `.bz2` or `.lzma` (any case).
pub fn has_wcnf_name(path: &Path) -> bool {
    has_extension(path, "wcnf")
}

/// Whether `path` names a CNF by its extension: `.cnf`, or `.cnf` and a compression suffix.
pub fn has_cnf_name(path: &Path) -> bool {
    has_extension(path, "cnf")
}

/// Whether the file name of `path` ends in `.EXT`, optionally followed by `.gz`, `.xz`, `.bz2`
/// or `.lzma` (any case).
fn has_extension(path: &Path, ext: &str) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    ["", ".gz", ".xz", ".bz2", ".lzma"]
        .iter()
        .any(|suffix| name.ends_with(&format!(".{ext}{suffix}")))
}

/// Decides the format of `input` (see the module documentation for the rule); `path` is the
/// file's name for the tie-break, `forced` overrides the rule.
pub fn detect(
    mut input: Input,
    path: &Path,
    forced: Option<Format>,
) -> Result<Detected, ParseError> {
    let compression = input.compression();
    let mut line: u64 = 1;
    let mut column: u64 = 1;
    let mut chunk = vec![0u8; CHUNK];
    let mut in_comment = false;
    // Scan for the first byte of the first token (outside comments).
    let (head, found) = 'scan: loop {
        let n = read_some(&mut input, &mut chunk, line, column)?;
        let Some(bytes) = chunk.get(..n) else {
            break (Vec::new(), false);
        };
        if bytes.is_empty() {
            break (Vec::new(), false);
        }
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                line += 1;
                column = 1;
                in_comment = false;
                continue;
            }
            if in_comment || is_blank(b) {
                column += 1;
                continue;
            }
            if b == b'c' {
                in_comment = true;
                column += 1;
                continue;
            }
            break 'scan (bytes.get(i..).unwrap_or(&[]).to_vec(), true);
        }
    };
    let mut head = head;
    // Make sure the first token's line is in `head` (up to LOOKAHEAD bytes).
    while found && head.len() < LOOKAHEAD && !head.contains(&b'\n') {
        let n = read_some(&mut input, &mut chunk, line, column)?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(chunk.get(..n).unwrap_or(&[]));
    }
    // A headerless input: read on to a block, so that an `h` line in it decides (rule 2).
    let headerless = !matches!(head.first(), Some(b'p' | b'h'));
    while found && forced.is_none() && headerless && head.len() < CHUNK {
        let n = read_some(&mut input, &mut chunk, line, column)?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(chunk.get(..n).unwrap_or(&[]));
    }
    let (format, reason) = match forced {
        Some(format) => (format, Reason::Forced),
        None => classify(found.then_some(head.as_slice()), path),
    };
    Ok(Detected {
        format,
        reason,
        compression,
        newlines: line - 1,
        spaces: column - 1,
        head,
        head_pos: 0,
        inner: input,
    })
}

/// The rule, on the bytes from the first token on (`None`: there is no token), for the input
/// named `path`.
fn classify(head: Option<&[u8]>, path: &Path) -> (Format, Reason) {
    let by_name = if has_wcnf_name(path) {
        (Format::Wcnf, Reason::WcnfName)
    } else {
        (Format::Cnf, Reason::Default)
    };
    let Some(head) = head else {
        return by_name;
    };
    let starts_hard =
        |line: &[u8]| line.split(|&b| is_blank(b)).find(|t| !t.is_empty()) == Some(b"h".as_slice());
    let mut lines = head.split(|&b| b == b'\n');
    let first_line = lines.next().unwrap_or(&[]);
    let mut tokens = first_line.split(|&b| is_blank(b)).filter(|t| !t.is_empty());
    let first = tokens.next();
    if first == Some(b"p") {
        return match tokens.next() {
            Some(b"wcnf") => (Format::Wcnf, Reason::WcnfHeader),
            _ => (Format::Cnf, Reason::CnfHeader),
        };
    }
    if first == Some(b"h") || lines.any(starts_hard) {
        return (Format::Wcnf, Reason::HardClause);
    }
    let is_weight = first.is_some_and(|t| t.iter().all(u8::is_ascii_digit));
    match (is_weight, by_name.1) {
        (true, Reason::WcnfName) => by_name,
        (true, _) if has_cnf_name(path) => (Format::Cnf, Reason::CnfName),
        (true, _) => (Format::Wcnf, Reason::Weight),
        (false, _) => by_name,
    }
}

/// One `read`, retrying on `Interrupted`, with errors positioned like the readers' own.
fn read_some(
    input: &mut Input,
    buf: &mut [u8],
    line: u64,
    column: u64,
) -> Result<usize, ParseError> {
    loop {
        match input.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(source) => return Err(ParseError::from_read(source, line, column)),
        }
    }
}

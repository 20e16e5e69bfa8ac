//! Reference tools (minisat, cadical, rate, veripb, python-sat, a C compiler, …) in tests: finding
//! them, and skipping a check *visibly* when one is missing.
//!
//! A test that needs a tool the machine lacks passes after saying so — unless
//! `GRIM_REQUIRE_REFERENCES=1` (as `.ci/run` sets after installing every reference), where a
//! missing tool is a failure, so CI can never pass by skipping.
//!
//! Why the note is written to the process's standard error directly and not with `eprintln!`:
//! the test harness captures `print!`/`eprint!` output and shows it only for failing tests, so
//! a skipped check looked exactly like a pass in a CI log (`ok … 0.00s`, issue 38); a write to
//! the `Stderr` handle goes past that capture. The line reads
//! `note: TEST: skipped: WHY`, between the harness's own lines.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Whether a missing reference is a failure: `GRIM_REQUIRE_REFERENCES=1`.
pub fn required() -> bool {
    std::env::var_os("GRIM_REQUIRE_REFERENCES").is_some_and(|v| v == "1")
}

/// Reports that `test` skipped a check because of `why` (a tool missing, and how to install
/// it). Panics instead when references are [`required`].
pub fn skip(test: &str, why: &str) {
    assert!(
        !required(),
        "{test}: {why}, and GRIM_REQUIRE_REFERENCES=1 makes a missing reference a failure"
    );
    note(test, why);
}

/// Says, past the harness's capture, that `test` skipped a check for a reason that is not a
/// missing reference (no root for `mknod`, say): never a failure.
pub fn note(test: &str, why: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "note: {test}: skipped: {why}");
    let _ = err.flush();
}

/// The path of `program` on `PATH` (an executable file), or `None`.
pub fn on_path(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Path::new(program).is_file().then(|| PathBuf::from(program));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// `program` on `PATH`, or `None` after [`skip`]ping `test` with `install` as the way to get
/// it (e.g. `apt-get install cadical`); panics when references are [`required`].
pub fn tool(test: &str, program: &str, install: &str) -> Option<PathBuf> {
    let found = on_path(program);
    if found.is_none() {
        skip(test, &format!("{program} is not installed ({install})"));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shell_is_found_and_a_made_up_name_is_not() {
        assert!(on_path("sh").is_some(), "no sh on PATH");
        assert!(on_path("grim-no-such-tool-xyz").is_none());
    }
}

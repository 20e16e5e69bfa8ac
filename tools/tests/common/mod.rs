//! What several integration tests share.

use std::io::Write;

/// Reports that a test skipped its check because a reference tool is missing, where a user
/// running `cargo test` sees it: cargo captures a passing test's stdout and stderr, so a
/// `println!` there never shows. The message goes to the terminal (`/dev/tty`) when there is
/// one, to stderr always (shown by `cargo test -- --nocapture`), and it names the test.
pub fn skip(test: &str, message: &str) {
    let line = format!("note: {test}: skipped: {message}");
    eprintln!("{line}");
    if let Ok(mut tty) = std::fs::OpenOptions::new().write(true).open("/dev/tty") {
        let _ = writeln!(tty, "{line}");
    }
}

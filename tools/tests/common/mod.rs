//! What several integration tests share: a temp directory per test, running a binary with
//! its output captured, and reading that output.
// Each test binary uses a part of this module; the rest would be dead code in it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The crate's binaries, as cargo builds them for its integration tests.
pub const SAT: &str = env!("CARGO_BIN_EXE_grim-sat");
pub const CHECK: &str = env!("CARGO_BIN_EXE_grim-check");
pub const GEN: &str = env!("CARGO_BIN_EXE_grim-gen");
pub const ENCODE: &str = env!("CARGO_BIN_EXE_grim-encode");

/// A skipped check, said past the harness's capture (`grim_testkit::reference::skip`).
#[allow(unused_imports)]
pub use grim_testkit::reference::skip;

/// A per-test temp directory, removed on drop. The name carries the test binary's `prefix`,
/// the process id and a counter, so parallel tests never share one.
pub struct Dir(pub PathBuf);

impl Dir {
    pub fn new(prefix: &str, test: &str) -> Dir {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("{prefix}-{}-{test}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create temp dir");
        Dir(dir)
    }

    /// Writes `contents` to `name` in the directory and returns its path.
    pub fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).expect("write temp file");
        path
    }

    /// The directory with `contents` written to `name` in it, and that file's path: the
    /// opening of most tests.
    pub fn with_file(self, name: &str, contents: impl AsRef<[u8]>) -> (Dir, PathBuf) {
        let path = self.file(name, contents);
        (self, path)
    }

    /// The path of `name` in the directory (not created).
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `program` with `args` and optional stdin, capturing everything.
pub fn run(program: &str, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {program}: {e}"));
    if let Some(bytes) = stdin {
        let mut pipe = child.stdin.take().expect("piped stdin");
        pipe.write_all(bytes).expect("write stdin");
    }
    child.wait_with_output().expect("wait")
}

/// Runs `grim-sat` with `args`, no stdin.
pub fn sat(args: &[&str]) -> Output {
    run(SAT, args, None)
}

/// A temp path as the `&str` an argument list wants.
pub fn p(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn code(o: &Output) -> Option<i32> {
    o.status.code()
}

/// Starts `program` on `file`, reads its standard output until a line for which `ready` holds,
/// sends `signal` (as `kill(1)` spells it: `-TERM`, `-INT`) and returns the exit code and all
/// the output. Fails if the program ends first or does not stop within 30 s of the signal.
pub fn signal_when(
    program: &str,
    file: &Path,
    signal: &str,
    ready: impl Fn(&str) -> bool,
) -> (Option<i32>, String) {
    let mut child = Command::new(program)
        .arg(p(file))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {program}: {e}"));
    let mut out = BufReader::new(child.stdout.take().expect("piped"));
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        let n = out.read_line(&mut line).expect("read stdout");
        assert!(
            n > 0,
            "{program} ended before it was ready for {signal}:\n{seen}"
        );
        seen.push_str(&line);
        if ready(&line) {
            break;
        }
    }
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{program} did not stop within 30 s of {signal}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    out.read_to_string(&mut seen).expect("read rest");
    (status.code(), seen)
}

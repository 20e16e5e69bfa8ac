//! Running one solver on one instance under operating-system limits, and measuring the CPU
//! seconds it used.
//!
//! - **CPU limit**: `setrlimit(RLIMIT_CPU)` in the child between `fork` and `exec` (soft limit
//!   = the timeout, rounded up to whole seconds as the kernel counts them; hard limit 5 s
//!   later). At the soft limit the kernel sends `SIGXCPU`, which a solver may catch to print
//!   its best solution (`grim-sat` does); at the hard limit it sends `SIGKILL`. The limit is
//!   inherited by the solver's own children (an adapter script's solver), each counting its
//!   own CPU. This is what `compare.py` does, so the two count time the same way.
//! - **Memory limit**: `setrlimit(RLIMIT_AS)`, the address-space size: coarse (it counts
//!   mappings, not resident pages) but enforced by the kernel without cgroups, which a shared
//!   machine's users usually cannot create.
//! - **Wall-clock safety net**: a solver that sleeps or waits on I/O burns no CPU and would
//!   never hit RLIMIT_CPU; after [`Limits::wall_seconds`] of wall time its whole process group
//!   is killed (the child runs in a process group of its own so that this reaches its children
//!   too). The default is `10 × timeout + 60` s, not `compare.py`'s `4 × timeout + 10`: on the
//!   shared development machine (load 12 on 2 cores) a run got under a fifth of a core, so a
//!   60 s CPU run needed over 300 s of wall time and the tighter net cut it short — measured
//!   by this module's own test, which failed at 14 s wall for 1 s CPU.
//! - **Measurement**: `wait4` returns the child's resource usage, user + system CPU, which on
//!   Linux includes the descendants it waited for (the adapter scripts wait for their solver).
//!   Wall time is measured too, but only reported in the CSV: on a shared machine it is noise.
//!
//! The standard library has no `setrlimit` and its `Child::wait` drops the resource usage, so
//! this module calls `libc` (already in the dependency graph through `signal-hook`); the
//! `unsafe` blocks are the FFI calls, each with its safety argument.

#![allow(unsafe_code)]

use std::fs::File;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The limits of one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// CPU seconds (user + system) before `SIGXCPU`.
    pub cpu_seconds: f64,
    /// Address-space limit in MiB, if any.
    pub memory_mib: Option<u64>,
    /// The wall-clock safety net in seconds; `None` for the default
    /// ([`Limits::default_wall_seconds`]).
    pub wall_seconds: Option<f64>,
}

impl Limits {
    /// The soft RLIMIT_CPU: the timeout rounded up to whole seconds, at least 1 (0 would mean
    /// "no CPU at all" to the kernel).
    pub fn cpu_rlimit(&self) -> u64 {
        (self.cpu_seconds.ceil() as u64).max(1)
    }

    /// The wall-clock safety net, in seconds.
    pub fn wall_seconds(&self) -> f64 {
        self.wall_seconds
            .unwrap_or_else(|| Limits::default_wall_seconds(self.cpu_seconds))
    }

    /// The default safety net for a CPU limit: `10 × cpu + 60` s (see the module
    /// documentation for why not less).
    pub fn default_wall_seconds(cpu_seconds: f64) -> f64 {
        10.0 * cpu_seconds + 60.0
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Exited with this status code.
    Code(i32),
    /// Killed by this signal (`SIGXCPU` = 24 or `SIGKILL` = 9 at the CPU limit).
    Signal(i32),
    /// Killed by the wall-clock safety net.
    WallClock,
    /// Could not be started (or waited for); the message says why.
    Failed(String),
}

/// What one run produced.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    /// How it ended.
    pub exit: Exit,
    /// User + system CPU seconds of the child and its waited-for descendants.
    pub cpu: f64,
    /// Wall seconds from spawn to exit.
    pub wall: f64,
    /// Its standard output (standard error is discarded, as `compare.py` does).
    pub stdout: String,
}

/// Splits a command template the way a POSIX shell splits words — single quotes, double
/// quotes, backslash escapes — without any expansion, and puts `path` where `{}` stands
/// (appending it as the last argument when no word holds `{}`, as `compare.py` does).
/// Errors on an unterminated quote or an empty command.
pub fn command_line(template: &str, path: &str) -> Result<Vec<String>, String> {
    let words = split_words(template)?;
    if words.is_empty() {
        return Err(format!("empty command `{template}`"));
    }
    let mut argv: Vec<String> = words.iter().map(|w| w.replace("{}", path)).collect();
    if !words.iter().any(|w| w.contains("{}")) {
        argv.push(path.to_string());
    }
    Ok(argv)
}

fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => word.push(x),
                        None => return Err(format!("unterminated ' in `{text}`")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x @ ('"' | '\\' | '$' | '`')) => word.push(x),
                            Some(x) => {
                                word.push('\\');
                                word.push(x);
                            }
                            None => return Err(format!("unterminated \" in `{text}`")),
                        },
                        Some(x) => word.push(x),
                        None => return Err(format!("unterminated \" in `{text}`")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(x) = chars.next() {
                    word.push(x);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Runs `argv` under `limits`, its standard output going to the file `scratch` (a file rather
/// than a pipe: a model of millions of literals needs no reader thread, and the child never
/// blocks on a full pipe). The file is removed afterwards.
pub fn run(argv: &[String], limits: Limits, scratch: &Path) -> RunResult {
    let failed = |msg: String| RunResult {
        exit: Exit::Failed(msg),
        cpu: 0.0,
        wall: 0.0,
        stdout: String::new(),
    };
    let Some((program, args)) = argv.split_first() else {
        return failed("empty command".to_string());
    };
    let out = match File::create(scratch) {
        Ok(f) => f,
        Err(e) => return failed(format!("cannot create {}: {e}", scratch.display())),
    };
    let cpu = limits.cpu_rlimit();
    let memory = limits.memory_mib.map(|m| m.saturating_mul(1 << 20));
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(Stdio::null())
        .process_group(0);
    // SAFETY: the closure runs in the forked child before exec; it only calls setrlimit,
    // which is async-signal-safe, on stack values, and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            set_limit(libc::RLIMIT_CPU as _, cpu, cpu.saturating_add(5))?;
            if let Some(bytes) = memory {
                set_limit(libc::RLIMIT_AS as _, bytes, bytes)?;
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let child = match command.spawn() {
        Ok(c) => c,
        Err(e) => return failed(format!("cannot start `{program}`: {e}")),
    };
    let Ok(pid) = libc::pid_t::try_from(child.id()) else {
        return failed("child pid out of range".to_string());
    };
    // The child is reaped below with wait4 (for its rusage), never through `child`.
    drop(child);
    let wall_limit = Duration::from_secs_f64(limits.wall_seconds());
    let mut by_wall_clock = false;
    loop {
        match exited(pid) {
            Ok(true) => break,
            Ok(false) => {}
            Err(e) => return failed(format!("waiting for `{program}`: {e}")),
        }
        if !by_wall_clock && start.elapsed() > wall_limit {
            kill_group(pid);
            by_wall_clock = true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let wall = start.elapsed().as_secs_f64();
    // The leader has exited but is not reaped yet, so its pid still names the group: kill any
    // descendant it left behind (an adapter killed at its limit leaves its solver running).
    kill_group(pid);
    let (status, usage) = match reap(pid) {
        Ok(x) => x,
        Err(e) => return failed(format!("waiting for `{program}`: {e}")),
    };
    let cpu_used = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    let exit = if by_wall_clock {
        Exit::WallClock
    } else if libc::WIFEXITED(status) {
        Exit::Code(libc::WEXITSTATUS(status))
    } else if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Failed(format!("unexpected wait status {status}"))
    };
    let mut stdout = Vec::new();
    let read = File::open(scratch).and_then(|mut f| f.read_to_end(&mut stdout));
    let _ = std::fs::remove_file(scratch);
    if let Err(e) = read {
        return failed(format!("cannot read the output of `{program}`: {e}"));
    }
    RunResult {
        exit,
        cpu: cpu_used,
        wall,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
    }
}

fn set_limit(resource: i32, soft: u64, hard: u64) -> std::io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: soft as libc::rlim_t,
        rlim_max: hard as libc::rlim_t,
    };
    // SAFETY: `limit` is a valid rlimit on the stack; setrlimit only reads it.
    if unsafe { libc::setrlimit(resource as _, &limit) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Whether `pid` (our child) has exited, without reaping it (`WNOWAIT`), so that its process
/// group can still be signalled.
fn exited(pid: libc::pid_t) -> std::io::Result<bool> {
    loop {
        // SAFETY: an all-zero siginfo_t is a valid value; waitid writes into it.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: `info` is a valid, writable siginfo_t; pid is our own child.
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        if r == 0 {
            // SAFETY: waitid filled `info` (si_pid is 0 when the child is still running).
            return Ok(unsafe { info.si_pid() } == pid);
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Reaps `pid`, returning its wait status and resource usage.
fn reap(pid: libc::pid_t) -> std::io::Result<(i32, libc::rusage)> {
    loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value; wait4 writes into it.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `status` and `usage` are valid and writable; pid is our own child.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return Ok((status, usage));
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Sends SIGKILL to the process group `pid` leads (ignoring "no such process").
fn kill_group(pid: libc::pid_t) {
    // SAFETY: kill has no memory-safety preconditions; -pid names the child's own group,
    // which exists while the unreaped leader does.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}

fn seconds(t: libc::timeval) -> f64 {
    t.tv_sec as f64 + t.tv_usec as f64 / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_split_like_a_shell_and_take_the_path() {
        assert_eq!(
            command_line("cadical -q", "a b.cnf").unwrap(),
            vec!["cadical", "-q", "a b.cnf"]
        );
        assert_eq!(
            command_line("sh -c 'x {} y' \"q\\\"\"", "f").unwrap(),
            vec!["sh", "-c", "x f y", "q\""]
        );
        assert!(command_line("a 'b", "f").is_err());
        assert!(command_line("  ", "f").is_err());
    }

    #[test]
    fn cpu_time_of_a_grandchild_is_counted_and_the_limit_stops_a_spinner() {
        let scratch = std::env::temp_dir().join(format!("grim-bench-run-{}", std::process::id()));
        let limits = Limits {
            cpu_seconds: 1.0,
            memory_mib: None,
            wall_seconds: None,
        };
        // A shell that waits for a child spinning until SIGXCPU: the CPU is the child's and
        // must be counted; the run ends near one CPU second.
        let argv: Vec<String> = ["sh", "-c", "sh -c 'while :; do :; done'; echo s UNKNOWN"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let r = run(&argv, limits, &scratch);
        assert!(r.cpu >= 0.9 && r.cpu < 3.0, "{r:?}");
        assert_eq!(r.stdout.trim(), "s UNKNOWN", "{r:?}");
        let missing = run(&["/nonexistent/solver".to_string()], limits, &scratch);
        assert!(matches!(missing.exit, Exit::Failed(_)), "{missing:?}");
    }
}

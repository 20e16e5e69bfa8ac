//! The hostile-input matrix: `grim-sat` on every input a careless or malicious user can hand
//! it, each run under an address-space limit. Every case must end in its typed error (exit 3,
//! with the file, line and column) or in a correct answer (exit 10 or 20) — never a panic
//! (exit 101), a signal, or an allocation past the limit.
//!
//! **The memory bound checked here** (and stated in the README): `grim-sat` needs at most
//! 256 MiB of address space plus 16 bytes per byte of input. The reader streams, so comment
//! lines and headers cost nothing however long they are; a clause costs 4 bytes per literal
//! while read, and the engine keeps about three copies of it (the arena, the watches, the
//! copy the model check uses), each under 4 bytes per input byte (a literal takes at least
//! two bytes of text, digit and blank).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output};

use flate2::Compression;
use flate2::write::GzEncoder;

const SAT: &str = env!("CARGO_BIN_EXE_grim-sat");

/// Runs `grim-sat FILE` under `ulimit -v` (KiB): 256 MiB + 16 × the file's size.
fn run_limited(path: &PathBuf) -> Output {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let limit_kib = 256 * 1024 + 16 * size / 1024;
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {limit_kib} && exec \"$0\" \"$1\""))
        .arg(SAT)
        .arg(path)
        .output()
        .expect("spawn sh")
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("grim-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::fast());
    e.write_all(data).expect("gzip");
    e.finish().expect("gzip")
}

/// What a case must produce.
enum Expect {
    /// Exit 3 with this text in the error message.
    Error(&'static str),
    /// Exit 10 (SAT) or 20 (UNSAT), as given.
    Answer(i32),
}

#[test]
fn every_hostile_input_gets_its_error_or_a_correct_answer_within_the_memory_bound() {
    let d = dir();
    let mut cases: Vec<(&str, Vec<u8>, Expect)> = vec![
        ("empty file", vec![], Expect::Error("header")),
        (
            "only comments",
            b"c one\nc two\n".to_vec(),
            Expect::Error("header"),
        ),
        (
            "header claiming 2^32 variables",
            b"p cnf 4294967296 1\n1 0\n".to_vec(),
            Expect::Error("variables"),
        ),
        (
            "header claiming 2^32 clauses",
            b"p cnf 2 4294967296\n1 0\n".to_vec(),
            Expect::Answer(10),
        ),
        (
            "a literal of 2^31",
            b"p cnf 2 1\n2147483648 0\n".to_vec(),
            Expect::Error("2147483648"),
        ),
        (
            "-0 ends a clause",
            b"p cnf 2 2\n1 -0\n-1 2 0\n".to_vec(),
            Expect::Answer(10),
        ),
        (
            "missing final 0",
            b"p cnf 2 1\n1 2\n".to_vec(),
            Expect::Error("0"),
        ),
        (
            "a clause after %",
            b"p cnf 1 2\n1 0\n%\n-1 0\n".to_vec(),
            Expect::Answer(10),
        ),
        (
            "CRLF line ends",
            b"p cnf 1 2\r\n1 0\r\n-1 0\r\n".to_vec(),
            Expect::Answer(20),
        ),
        (
            "non-UTF-8 bytes in a clause",
            b"p cnf 1 1\n1 \xff\xfe 0\n".to_vec(),
            Expect::Error(":2:3: unexpected"),
        ),
        (
            "non-UTF-8 bytes in a comment",
            b"c \xff\xfe\xfd\np cnf 1 1\n1 0\n".to_vec(),
            Expect::Answer(10),
        ),
    ];
    // A truncated gzip stream: the first half of a valid one.
    let gz = gzip(b"p cnf 3 2\n1 2 3 0\n-1 -2 0\n");
    cases.push((
        "truncated gzip",
        gz[..gz.len() / 2].to_vec(),
        Expect::Error("gzip"),
    ));
    // A 100 MB comment line (streamed past), then a satisfiable formula.
    let mut long_comment = b"c ".to_vec();
    long_comment.resize(100 << 20, b'x');
    long_comment.extend_from_slice(b"\np cnf 2 1\n1 2 0\n");
    cases.push(("a 100 MB comment line", long_comment, Expect::Answer(10)));
    // A 16 MB clause line: two million distinct literals in one clause, satisfiable.
    let mut long_clause = b"p cnf 2000000 1\n".to_vec();
    for v in 1..=2_000_000u32 {
        long_clause.extend_from_slice(format!("{v} ").as_bytes());
    }
    long_clause.extend_from_slice(b"0\n");
    cases.push(("a 16 MB clause line", long_clause, Expect::Answer(10)));

    let mut failures = Vec::new();
    for (name, bytes, expect) in &cases {
        let path = d.join(name.replace([' ', '%', '^'], "_"));
        std::fs::write(&path, bytes).expect("write case");
        let out = run_limited(&path);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let code = out.status.code();
        let ok = match expect {
            Expect::Error(text) => {
                code == Some(3)
                    && stderr.contains(&*path.to_string_lossy())
                    && stderr.contains(text)
            }
            Expect::Answer(a) => {
                code == Some(*a)
                    && stdout.lines().any(|l| {
                        l == if *a == 10 {
                            "s SATISFIABLE"
                        } else {
                            "s UNSATISFIABLE"
                        }
                    })
            }
        };
        if stderr.contains("panicked") || !ok {
            failures.push(format!(
                "{name}: exit {code:?}\n  stderr: {}\n  stdout: {}",
                stderr.chars().take(400).collect::<String>(),
                stdout.chars().take(200).collect::<String>()
            ));
        }
        let _ = std::fs::remove_file(&path);
    }
    let _ = std::fs::remove_dir_all(&d);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

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
//! two bytes of text, digit and blank). For compressed input the bound is per byte of the
//! *decompressed* text (an xz file of a 100 MB comment is 15 KB), and the xz and lzma decoders
//! add at most their memory limit (`grim_tools::formats::compress::MEMORY_LIMIT`, 128 MiB; a
//! header asking for more is refused), so compressed cases run under 256 + 128 MiB + 16 × the
//! text.

use std::path::PathBuf;
use std::process::{Command, Output};

use grim_testkit::compress::{self, FAST};

const SAT: &str = env!("CARGO_BIN_EXE_grim-sat");

/// Runs `grim-sat ARGS... FILE` under `ulimit -v` (KiB): 256 MiB + 16 × `text_size`, plus the
/// xz/lzma decoders' limit when the file is compressed.
fn run_limited(path: &PathBuf, args: &[&str], text_size: u64, compressed: bool) -> Output {
    let decoder = if compressed { 128 * 1024 } else { 0 };
    let limit_kib = 256 * 1024 + decoder + 16 * text_size / 1024;
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {limit_kib} && exec \"$0\" \"$@\""))
        .arg(SAT)
        .args(args)
        .arg(path)
        .output()
        .expect("spawn sh")
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("grim-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// One case of the matrix: a name, the file's bytes, extra arguments, the size of the text it
/// decompresses to, and what must come out.
struct Case {
    name: String,
    bytes: Vec<u8>,
    args: &'static [&'static str],
    text_size: u64,
    compressed: bool,
    expect: Expect,
}

fn plain(name: &str, bytes: Vec<u8>, expect: Expect) -> Case {
    Case {
        name: name.to_string(),
        text_size: bytes.len() as u64,
        bytes,
        args: &[],
        compressed: false,
        expect,
    }
}

fn packed(name: &str, text: &[u8], bytes: Vec<u8>, expect: Expect) -> Case {
    Case {
        name: name.to_string(),
        text_size: text.len() as u64,
        bytes,
        args: &[],
        compressed: true,
        expect,
    }
}

/// What a case must produce.
#[derive(Clone, Copy)]
enum Expect {
    /// Exit 3 with this text in the error message.
    Error(&'static str),
    /// Exit 10 (SAT) or 20 (UNSAT), as given.
    Answer(i32),
}

#[test]
fn every_hostile_input_gets_its_error_or_a_correct_answer_within_the_memory_bound() {
    let d = dir();
    use Expect::{Answer, Error};
    // (name, the file's bytes, extra arguments, what must come out), one line a case.
    #[rustfmt::skip]
    let table: &[(&str, &[u8], &'static [&'static str], Expect)] = &[
        ("empty file", b"", &[], Error("header")),
        ("only comments", b"c one\nc two\n", &[], Error("header")),
        ("header claiming 2^32 variables", b"p cnf 4294967296 1\n1 0\n", &[], Error("variables")),
        // A header of 2^32 clauses over one clause: truncated, refused by default (and never
        // an allocation of 2^32 clauses); with --relaxed, answered.
        ("header claiming 2^32 clauses", b"p cnf 2 4294967296\n1 0\n", &[],
            Error(":3:1: the input ends after 1 of the 4294967296 clauses")),
        ("header claiming 2^32 clauses, relaxed", b"p cnf 2 4294967296\n1 0\n", &["--relaxed"], Answer(10)),
        ("a literal of 2^31", b"p cnf 2 1\n2147483648 0\n", &[], Error("2147483648")),
        ("-0 ends a clause", b"p cnf 2 2\n1 -0\n-1 2 0\n", &[], Answer(10)),
        ("missing final 0", b"p cnf 2 1\n1 2\n", &[], Error("0")),
        // A clause after `%` is never read: with 1 of 2 clauses before it, truncated.
        ("a clause after %", b"p cnf 1 2\n1 0\n%\n-1 0\n", &[],
            Error(":3:1: the input ends after 1 of the 2 clauses")),
        ("a clause after %, relaxed", b"p cnf 1 2\n1 0\n%\n-1 0\n", &["--relaxed"], Answer(10)),
        ("a SATLIB file with % and a stray 0", b"p cnf 1 1\n1 0\n%\n0\n", &[], Answer(10)),
        // Cut at a clause boundary, the missing clause made it UNSAT: refused, not answered.
        ("a CNF truncated at a clause boundary", b"p cnf 1 2\n1 0\n", &[],
            Error(":3:1: the input ends after 1 of the 2 clauses")),
        ("an old-format WCNF truncated at a clause boundary", b"p wcnf 1 3 10\n10 1 0\n", &[],
            Error(":3:1: the input ends after 1 of the 3 clauses")),
        ("CRLF line ends", b"p cnf 1 2\r\n1 0\r\n-1 0\r\n", &[], Answer(20)),
        ("non-UTF-8 bytes in a clause", b"p cnf 1 1\n1 \xff\xfe 0\n", &[], Error(":2:3: unexpected")),
        ("non-UTF-8 bytes in a comment", b"c \xff\xfe\xfd\np cnf 1 1\n1 0\n", &[], Answer(10)),
    ];
    let mut cases: Vec<Case> = table
        .iter()
        .map(|&(name, bytes, args, expect)| Case {
            args,
            ..plain(name, bytes.to_vec(), expect)
        })
        .collect();
    // Every compressed format: whole (answered), cut in half and cut by its last byte
    // (refused as corrupt or truncated, naming the format), and a clause-boundary truncation
    // inside an intact stream (refused as truncated).
    let formula = b"p cnf 3 3\n1 2 3 0\n-1 -2 0\n-3 0\n";
    let short = b"p cnf 3 4\n1 2 3 0\n-1 -2 0\n-3 0\n";
    type Packer = fn(&[u8], u32) -> Vec<u8>;
    let packers: [(&str, Packer, &'static str); 4] = [
        ("gzip", compress::gzip, "gzip data"),
        ("xz", compress::xz, "xz data"),
        ("bzip2", compress::bzip2, "bzip2 data"),
        ("lzma", compress::lzma, "lzma data"),
    ];
    for (format, pack, message) in packers {
        let whole = pack(formula, FAST);
        let cut = |len: usize| whole[..len].to_vec();
        #[rustfmt::skip]
        let streams = [
            ("whole", formula, whole.clone(), Answer(10)),
            ("cut in half", formula, cut(whole.len() / 2), Error(message)),
            ("without its last byte", formula, cut(whole.len() - 1), Error(message)),
            ("of a truncated formula", short, pack(short, FAST), Error("the input ends after 3 of the 4 clauses")),
        ];
        for (what, text, bytes, expect) in streams {
            cases.push(packed(&format!("{format} {what}"), text, bytes, expect));
        }
    }
    let xz_1gib = compress::xz_with_dictionary(formula, 0, 1 << 30);
    cases.push(packed(
        "xz with a 1 GiB dictionary",
        formula,
        xz_1gib,
        Error("xz data"),
    ));
    // A 100 MB comment line (streamed past), then a satisfiable formula.
    let mut long_comment = b"c ".to_vec();
    long_comment.resize(100 << 20, b'x');
    long_comment.extend_from_slice(b"\np cnf 2 1\n1 2 0\n");
    for (format, pack) in [("xz", compress::xz as Packer), ("bzip2", compress::bzip2)] {
        let bytes = pack(&long_comment, FAST);
        let name = format!("{format} of a 100 MB comment line");
        cases.push(packed(&name, &long_comment, bytes, Answer(10)));
    }
    cases.push(plain("a 100 MB comment line", long_comment, Answer(10)));
    // A 16 MB clause line: two million distinct literals in one clause, satisfiable.
    let mut long_clause = b"p cnf 2000000 1\n".to_vec();
    for v in 1..=2_000_000u32 {
        long_clause.extend_from_slice(format!("{v} ").as_bytes());
    }
    long_clause.extend_from_slice(b"0\n");
    cases.push(plain("a 16 MB clause line", long_clause, Answer(10)));

    let mut failures = Vec::new();
    for case in &cases {
        let path = d.join(case.name.replace([' ', '%', '^', ','], "_"));
        std::fs::write(&path, &case.bytes).expect("write case");
        let out = run_limited(&path, case.args, case.text_size, case.compressed);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let code = out.status.code();
        let ok = match case.expect {
            Expect::Error(text) => {
                code == Some(3)
                    && stdout.is_empty()
                    && stderr.contains(&*path.to_string_lossy())
                    && stderr.contains(text)
            }
            Expect::Answer(a) => {
                code == Some(a)
                    && stdout.lines().any(|l| {
                        l == if a == 10 {
                            "s SATISFIABLE"
                        } else {
                            "s UNSATISFIABLE"
                        }
                    })
            }
        };
        if stderr.contains("panicked") || !ok {
            failures.push(format!(
                "{}: exit {code:?}\n  stderr: {}\n  stdout: {}",
                case.name,
                stderr.chars().take(400).collect::<String>(),
                stdout.chars().take(200).collect::<String>()
            ));
        }
        let _ = std::fs::remove_file(&path);
    }
    let _ = std::fs::remove_dir_all(&d);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

//! The WCNF corpus (`instances/OPTIMA`): every listed instance, run through `grim-sat` as a
//! user runs it (format detection, old and new dialects, xz and bzip2 copies read by content),
//! must print `s OPTIMUM FOUND` with the optimum RC2 computed (or `s UNSATISFIABLE`), an `o`
//! line equal to it, `c LB` lines rising to it, and a model whose cost this test recomputes
//! with its own reader.

use std::collections::BTreeSet;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

const SAT: &str = env!("CARGO_BIN_EXE_grim-sat");

fn instances_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../instances")
}

/// `PATH OPTIMUM` or `PATH UNSAT` per line (`None` = no solution).
fn optima() -> Vec<(String, Option<u64>)> {
    let text = fs::read_to_string(instances_dir().join("OPTIMA")).expect("read instances/OPTIMA");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let (path, answer) = line
                .split_once(char::is_whitespace)
                .unwrap_or_else(|| panic!("OPTIMA: expected `PATH OPTIMUM|UNSAT`, got `{line}`"));
            let answer = answer.trim();
            let optimum = (answer != "UNSAT").then(|| {
                answer
                    .parse()
                    .unwrap_or_else(|_| panic!("OPTIMA: bad optimum in `{line}`"))
            });
            (path.to_string(), optimum)
        })
        .collect()
}

/// The instance's text, decompressed by its name (this test's own choice; grim-sat decides by
/// content).
fn text(path: &Path) -> String {
    let raw = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path.to_string_lossy();
    let mut out = String::new();
    if name.ends_with(".xz") {
        xz2::read::XzDecoder::new(raw.as_slice())
            .read_to_string(&mut out)
            .expect("unxz");
    } else if name.ends_with(".bz2") {
        bzip2::read::BzDecoder::new(raw.as_slice())
            .read_to_string(&mut out)
            .expect("bunzip2");
    } else {
        out = String::from_utf8(raw).expect("UTF-8");
    }
    out
}

/// Hard clauses, and soft ones with their weights.
type Clauses = (Vec<Vec<i64>>, Vec<(u64, Vec<i64>)>);

/// A deliberately small WCNF reader, independent of `formats::wcnf`: hard clauses and
/// (weight, clause) soft ones, either dialect.
fn parse(text: &str) -> Clauses {
    let mut top: Option<u64> = None;
    let (mut hard, mut soft) = (Vec::new(), Vec::new());
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens[0] == "p" {
            top = tokens.get(4).map(|t| t.parse().expect("TOP"));
            continue;
        }
        let lits: Vec<i64> = tokens[1..tokens.len() - 1]
            .iter()
            .map(|t| t.parse().expect("literal"))
            .collect();
        assert_eq!(
            tokens.last(),
            Some(&"0"),
            "one clause per line in the corpus: {line}"
        );
        if tokens[0] == "h" {
            hard.push(lits);
        } else {
            let weight: u64 = tokens[0].parse().expect("weight");
            if top.is_some_and(|t| weight >= t) {
                hard.push(lits);
            } else {
                soft.push((weight, lits));
            }
        }
    }
    (hard, soft)
}

#[test]
fn every_wcnf_corpus_instance_gets_its_optimum_with_a_model_that_costs_it() {
    let entries = optima();
    assert!(
        entries.len() >= 10,
        "OPTIMA lists {} instances",
        entries.len()
    );
    let mut failures = Vec::new();
    for (path, optimum) in &entries {
        let file = instances_dir().join(path);
        let out = Command::new(SAT).arg(&file).output().expect("run grim-sat");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let (hard, soft) = parse(&text(&file));
        let problem = match optimum {
            None => (out.status.code() != Some(20)
                || !stdout.lines().any(|l| l == "s UNSATISFIABLE"))
            .then(|| "expected s UNSATISFIABLE, exit 20".to_string()),
            Some(expected) => {
                let o: Vec<u64> = stdout
                    .lines()
                    .filter_map(|l| l.strip_prefix("o ")?.parse().ok())
                    .collect();
                // The MaxSAT Evaluation's `c LB` lines: the proven bound, rising, never past
                // the optimum, and at the optimum once it is proven.
                let lb: Vec<u64> = stdout
                    .lines()
                    .filter_map(|l| l.strip_prefix("c LB ")?.parse().ok())
                    .collect();
                let bits: Vec<bool> = stdout
                    .lines()
                    .find_map(|l| l.strip_prefix("v "))
                    .unwrap_or_default()
                    .bytes()
                    .map(|b| b == b'1')
                    .collect();
                let value = |l: i64| bits.get(l.unsigned_abs() as usize - 1) == Some(&(l > 0));
                let hard_ok = hard.iter().all(|c| c.iter().any(|&l| value(l)));
                let cost: u64 = soft
                    .iter()
                    .filter(|(_, c)| !c.iter().any(|&l| value(l)))
                    .map(|(w, _)| w)
                    .sum();
                if out.status.code() != Some(30) || !stdout.lines().any(|l| l == "s OPTIMUM FOUND")
                {
                    Some(format!(
                        "expected s OPTIMUM FOUND, exit 30; got {:?}",
                        out.status
                    ))
                } else if o.last() != Some(expected) {
                    Some(format!("last o line {:?}, expected {expected}", o.last()))
                } else if lb.windows(2).any(|w| w[0] >= w[1])
                    || lb.iter().any(|b| b > expected)
                    || (*expected > 0 && lb.last() != Some(expected))
                {
                    Some(format!("c LB lines {lb:?} for the optimum {expected}"))
                } else if !hard_ok || cost != *expected {
                    Some(format!(
                        "the model (hard clauses kept: {hard_ok}) costs {cost}"
                    ))
                } else {
                    None
                }
            }
        };
        if let Some(problem) = problem {
            failures.push(format!("{path}: {problem}\n{stdout}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_optima_list_every_wcnf_corpus_file_exactly_once_and_cover_both_dialects_and_compression() {
    let entries = optima();
    let listed: BTreeSet<String> = entries.iter().map(|(p, _)| p.clone()).collect();
    assert_eq!(listed.len(), entries.len(), "OPTIMA lists a file twice");
    let on_disk: BTreeSet<String> = fs::read_dir(instances_dir().join("wcnf"))
        .expect("list instances/wcnf")
        .filter_map(|e| e.ok())
        .map(|e| format!("wcnf/{}", e.file_name().to_string_lossy()))
        .collect();
    assert_eq!(listed, on_disk, "OPTIMA and instances/wcnf/ differ");
    let has = |suffix: &str| listed.iter().any(|p| p.ends_with(suffix));
    assert!(has(".wcnf.xz") && has(".wcnf.bz2"), "{listed:?}");
    let old = listed
        .iter()
        .filter(|p| p.ends_with(".wcnf"))
        .filter(|p| text(&instances_dir().join(p)).contains("p wcnf"))
        .count();
    assert!(
        old >= 1 && entries.iter().any(|(_, o)| o.is_none()),
        "{listed:?}"
    );
    assert!(
        entries
            .iter()
            .filter(|(_, o)| o.is_some_and(|c| c > 0))
            .count()
            >= 8,
        "the corpus needs instances whose optimum costs something"
    );
}

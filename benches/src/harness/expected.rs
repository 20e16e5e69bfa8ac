//! Known answers, read from the files the benchmark sets ship beside their instances:
//!
//! - `NAME ANSWER` lines (`instances/sat/regression/EXPECTED`: `add4.cnf.gz UNSAT`;
//!   `instances/maxsat/generated/OPTIMA`: `bmo_55_605_4_1.wcnf.gz 755`), where ANSWER is `SAT`,
//!   `UNSAT` or a proven optimum cost;
//! - the MaxSAT Evaluation's regression CSVs (`instances/maxsat/regression/*.csv`): `c`
//!   comment lines, a header row naming at least `WCNFFile`, then rows with `BestOValue`,
//!   `Satisfiable` and `CertifiedResult` columns in any order. `BestOValue` is a proven optimum
//!   only when `CertifiedResult` is `YES`; otherwise it is the best cost known (a model exists),
//!   so a solver may beat it but never prove a higher optimum.
//!
//! Answers are keyed by file name (not path), the way the sets name them. The harness loads
//! `EXPECTED`, `OPTIMA` and `*.csv` from each instance's folder by itself (`--no-auto-expected`
//! turns that off) and any file given with `--expected`.

use std::collections::BTreeMap;
use std::path::Path;

/// A known answer for one instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// Satisfiable (for a WCNF: the hard clauses are).
    Sat,
    /// Unsatisfiable (for a WCNF: the hard clauses are).
    Unsat,
    /// A cost: the optimum when `proven`, else the best cost known to have a model.
    Cost {
        /// The cost.
        value: u64,
        /// Whether it is a proven optimum.
        proven: bool,
    },
}

/// Known answers by instance file name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KnownAnswers {
    by_name: BTreeMap<String, Known>,
}

impl KnownAnswers {
    /// The known answer for the instance file named `name`.
    pub fn get(&self, name: &str) -> Option<Known> {
        self.by_name.get(name).copied()
    }

    /// How many answers are known.
    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// Adds the answers of the file at `path` (CSV when its name ends in `.csv`).
    pub fn load(&mut self, path: &Path) -> Result<(), String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read expected answers: {e}", path.display()))?;
        let is_csv = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
        let parsed = if is_csv {
            parse_csv(&text)
        } else {
            parse_lines(&text)
        };
        let parsed = parsed.map_err(|e| format!("{}: {e}", path.display()))?;
        self.by_name.extend(parsed);
        Ok(())
    }

    /// Adds `EXPECTED`, `OPTIMA` and the MSE-style `*.csv` of `dir` (and the CSVs of its
    /// parent), when present.
    pub fn load_folder(&mut self, dir: &Path) -> Result<(), String> {
        for name in ["EXPECTED", "OPTIMA"] {
            let file = dir.join(name);
            if file.is_file() {
                self.load(&file)?;
            }
        }
        // CSVs describe instances in sub-folders of their own folder (`MSE22Unique/x.wcnf`),
        // so the instance's parent folder is searched as well.
        for folder in [Some(dir), dir.parent()].into_iter().flatten() {
            let Ok(entries) = std::fs::read_dir(folder) else {
                continue;
            };
            let mut csvs: Vec<_> = entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv")))
                .collect();
            csvs.sort();
            for csv in csvs {
                // A folder may hold any CSV (earlier results, say): only the ones with the
                // MSE header row are answers, the others are skipped without complaint.
                let Ok(text) = std::fs::read_to_string(&csv) else {
                    continue;
                };
                if let Ok(parsed) = parse_csv(&text) {
                    self.by_name.extend(parsed);
                }
            }
        }
        Ok(())
    }
}

fn parse_lines(text: &str) -> Result<Vec<(String, Known)>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with("c ") {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(name), Some(answer)) = (words.next(), words.next()) else {
            return Err(format!(
                "line {}: expected `NAME ANSWER`, got `{line}`",
                i + 1
            ));
        };
        let known = match answer {
            "SAT" | "SATISFIABLE" => Known::Sat,
            "UNSAT" | "UNSATISFIABLE" => Known::Unsat,
            cost => Known::Cost {
                value: cost.parse().map_err(|_| {
                    format!("line {}: `{cost}` is neither SAT, UNSAT nor a cost", i + 1)
                })?,
                proven: true,
            },
        };
        out.push((base_name(name), known));
    }
    Ok(out)
}

fn parse_csv(text: &str) -> Result<Vec<(String, Known)>, String> {
    let mut out = Vec::new();
    let mut columns: Option<Vec<String>> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with("c ") || trimmed == "c" {
            continue;
        }
        let cells: Vec<&str> = trimmed.split(',').map(str::trim).collect();
        let Some(header) = &columns else {
            if !cells.contains(&"WCNFFile") {
                return Err(format!(
                    "line {}: a header row naming WCNFFile was expected",
                    i + 1
                ));
            }
            columns = Some(cells.iter().map(|c| c.to_string()).collect());
            continue;
        };
        let cell = |name: &str| {
            header
                .iter()
                .position(|h| h == name)
                .and_then(|k| cells.get(k).copied())
                .unwrap_or("")
        };
        let file = cell("WCNFFile");
        if file.is_empty() {
            continue;
        }
        let known = match (cell("Satisfiable"), cell("BestOValue").parse::<u64>()) {
            ("UNSATISFIABLE", _) => Known::Unsat,
            (_, Ok(value)) => Known::Cost {
                value,
                proven: cell("CertifiedResult") == "YES",
            },
            ("SATISFIABLE", Err(_)) => Known::Sat,
            _ => continue,
        };
        out.push((base_name(file), known));
    }
    Ok(out)
}

fn base_name(name: &str) -> String {
    name.rsplit('/').next().unwrap_or(name).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_file_shapes_read_as_known_answers() {
        let lines = parse_lines("add4.cnf.gz UNSAT\n\nx.cnf SAT\nbmo_1.wcnf.gz 755\n").unwrap();
        assert_eq!(lines[0], ("add4.cnf.gz".into(), Known::Unsat));
        assert_eq!(
            lines[2].1,
            Known::Cost {
                value: 755,
                proven: true
            }
        );
        assert!(parse_lines("a.cnf maybe\n").is_err());
        let csv = "c comment\nWCNFFile, BestOValue, Satisfiable, CertifiedResult, Model\n\
                   d/a.wcnf, 3, SATISFIABLE, NO, 0101\nd/b.wcnf, , UNSATISFIABLE, YES,\n";
        let rows = parse_csv(csv).unwrap();
        assert_eq!(
            rows[0],
            (
                "a.wcnf".into(),
                Known::Cost {
                    value: 3,
                    proven: false
                }
            )
        );
        assert_eq!(rows[1], ("b.wcnf".into(), Known::Unsat));
    }
}

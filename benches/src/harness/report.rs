//! The results of a campaign and the text outputs: the per-instance table, the per-solver
//! summary and the CSV.
//!
//! **PAR-2** (penalised average runtime, factor 2, the SAT Competition's score, reported as a
//! sum like `compare.py` does): a solved run counts its CPU seconds, anything else — timeout,
//! crash, `UNKNOWN`, wrong answer — counts twice the timeout. The ratio against the baseline
//! is the solver's PAR-2 over the baseline's (below 1: faster).

use std::fmt::Write as _;

use super::answer::Status;
use super::check::Checked;
use super::run::Exit;

/// One solver's run on one instance, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRecord {
    /// The solver's name.
    pub solver: String,
    /// The checked answer.
    pub checked: Checked,
    /// CPU seconds.
    pub cpu: f64,
    /// Wall seconds.
    pub wall: f64,
    /// How the process ended.
    pub exit: Exit,
    /// Solved: a checked SAT/UNSAT (CNF) or optimum/UNSAT (WCNF) within the CPU limit.
    pub solved: bool,
}

/// One instance's row: every solver's run, and what the cross-check found.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The instance's position on the command line (rows are reported in this order).
    pub index: usize,
    /// The file name.
    pub name: String,
    /// The path as given.
    pub path: String,
    /// Whether it is a WCNF.
    pub weighted: bool,
    /// The runs, in the order the solvers were given.
    pub runs: Vec<RunRecord>,
    /// Disagreements among the solvers, or with the expected answers.
    pub disagreements: Vec<String>,
    /// Why the instance could not be read (then `runs` is empty).
    pub error: Option<String>,
}

/// One solver's totals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// The solver's name.
    pub solver: String,
    /// Instances solved.
    pub solved: usize,
    /// Solved with SATISFIABLE (CNF).
    pub sat: usize,
    /// Solved with UNSATISFIABLE.
    pub unsat: usize,
    /// Solved with OPTIMUM FOUND (WCNF).
    pub optimum: usize,
    /// Wrong answers.
    pub wrong: usize,
    /// PAR-2 sum in CPU seconds.
    pub par2: f64,
    /// CPU seconds over the solved instances.
    pub cpu_solved: f64,
}

/// The per-solver totals over `rows` (instances that could not be read count as unsolved).
pub fn summarise(rows: &[Row], solvers: &[String], timeout: f64) -> Vec<Summary> {
    solvers
        .iter()
        .map(|name| {
            let mut s = Summary {
                solver: name.clone(),
                ..Summary::default()
            };
            for row in rows {
                let Some(run) = row.runs.iter().find(|r| &r.solver == name) else {
                    s.par2 += 2.0 * timeout;
                    continue;
                };
                if run.checked.wrong.is_some() {
                    s.wrong += 1;
                }
                if run.solved {
                    s.solved += 1;
                    s.par2 += run.cpu;
                    s.cpu_solved += run.cpu;
                    match run.checked.status {
                        Status::Sat => s.sat += 1,
                        Status::Unsat => s.unsat += 1,
                        Status::Optimum => s.optimum += 1,
                        Status::Unknown => {}
                    }
                } else {
                    s.par2 += 2.0 * timeout;
                }
            }
            s
        })
        .collect()
}

/// A table cell: the answer's tag (with the recomputed cost on a WCNF) and the CPU seconds
/// when solved, `-` otherwise; `WRONG` for a wrong answer.
pub fn cell(run: &RunRecord, weighted: bool) -> String {
    if run.checked.wrong.is_some() {
        return format!("WRONG {:.2}", run.cpu);
    }
    let mut tag = run.checked.status.tag().to_string();
    if weighted && let Some(cost) = run.checked.cost {
        let _ = write!(tag, "({cost})");
    }
    match (&run.exit, run.solved) {
        (_, true) => format!("{tag} {:.2}", run.cpu),
        (Exit::Failed(_), _) => "ERROR".to_string(),
        _ => format!("{tag} -"),
    }
}

/// Column widths of the table: the instance names' and a fixed width per solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Width of the instance column.
    pub name_width: usize,
    /// Width of each solver column (at least its name's).
    pub widths: Vec<usize>,
}

impl Layout {
    /// A layout for instances named `names` and the solvers `solvers`.
    pub fn new(names: &[String], solvers: &[String]) -> Layout {
        Layout {
            name_width: names
                .iter()
                .map(|n| n.chars().count())
                .max()
                .unwrap_or(8)
                .max(8),
            widths: solvers.iter().map(|s| s.chars().count().max(16)).collect(),
        }
    }

    /// The header line.
    pub fn header(&self, solvers: &[String]) -> String {
        let mut line = format!("{:<w$}", "instance", w = self.name_width);
        for (s, w) in solvers.iter().zip(&self.widths) {
            let _ = write!(line, "  {s:>w$}");
        }
        line
    }

    /// One instance's line, with its disagreements and wrong answers spelled out after it.
    pub fn line(&self, row: &Row) -> String {
        let mut line = format!("{:<w$}", row.name, w = self.name_width);
        if let Some(e) = &row.error {
            let _ = write!(line, "  ERROR: {e}");
            return line;
        }
        for (run, w) in row.runs.iter().zip(&self.widths) {
            let _ = write!(line, "  {:>w$}", cell(run, row.weighted));
        }
        for run in &row.runs {
            if let Some(why) = &run.checked.wrong {
                let _ = write!(line, "\n    WRONG {}: {why}", run.solver);
            }
        }
        for d in &row.disagreements {
            let _ = write!(line, "\n    DISAGREE: {d}");
        }
        line
    }
}

/// The summary block: one line per solver.
pub fn summary_text(
    summaries: &[Summary],
    baseline: &str,
    instances: usize,
    timeout: f64,
) -> String {
    let base = summaries
        .iter()
        .find(|s| s.solver == baseline)
        .map(|s| s.par2);
    let width = summaries
        .iter()
        .map(|s| s.solver.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut out = format!(
        "{:>width$}  {:>9}  {:>5}  {:>5}  {:>5}  {:>5}  {:>10}  {:>9}\n",
        "solver", "solved", "SAT", "UNSAT", "OPT", "wrong", "PAR-2 (s)", "vs base"
    );
    for s in summaries {
        let ratio = match base {
            Some(b) if b > 0.0 => format!("{:.2}x", s.par2 / b),
            _ => "-".to_string(),
        };
        let _ = writeln!(
            out,
            "{:>width$}  {:>9}  {:>5}  {:>5}  {:>5}  {:>5}  {:>10.1}  {:>9}",
            s.solver,
            format!("{}/{instances}", s.solved),
            s.sat,
            s.unsat,
            s.optimum,
            s.wrong,
            s.par2,
            ratio
        );
    }
    let _ = write!(
        out,
        "PAR-2: CPU seconds of solved runs + 2 x {timeout} s per unsolved one; ratio = PAR-2 / \
         PAR-2 of {baseline}."
    );
    out
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The CSV: one line per run, in instance order then solver order.
pub fn csv(rows: &[Row]) -> String {
    let mut out =
        String::from("instance,path,solver,status,cost,cpu_s,wall_s,exit,solved,verdict\n");
    for row in rows {
        if let Some(e) = &row.error {
            let _ = writeln!(
                out,
                "{},{},,,,,,,false,{}",
                csv_field(&row.name),
                csv_field(&row.path),
                csv_field(&format!("unreadable: {e}"))
            );
            continue;
        }
        for run in &row.runs {
            let status = match run.checked.status {
                Status::Sat => "SATISFIABLE",
                Status::Unsat => "UNSATISFIABLE",
                Status::Optimum => "OPTIMUM FOUND",
                Status::Unknown => "UNKNOWN",
            };
            let exit = match &run.exit {
                Exit::Code(c) => format!("exit {c}"),
                Exit::Signal(s) => format!("signal {s}"),
                Exit::WallClock => "wall-clock kill".to_string(),
                Exit::Failed(e) => format!("failed: {e}"),
            };
            let verdict = match (&run.checked.wrong, &run.checked.file_disagrees) {
                (Some(w), _) => format!("WRONG: {w}"),
                (None, Some(d)) => format!("DISAGREE with expected: {d}"),
                _ if !row.disagreements.is_empty() => {
                    format!("DISAGREE: {}", row.disagreements.join("; "))
                }
                _ => "ok".to_string(),
            };
            let _ = writeln!(
                out,
                "{},{},{},{},{},{:.6},{:.3},{},{},{}",
                csv_field(&row.name),
                csv_field(&row.path),
                csv_field(&run.solver),
                status,
                run.checked.cost.map(|c| c.to_string()).unwrap_or_default(),
                run.cpu,
                run.wall,
                csv_field(&exit),
                run.solved,
                csv_field(&verdict)
            );
        }
    }
    out
}

/// Splits one CSV line into fields (RFC 4180 quoting: `"` around a field, `""` inside it).
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// Reads back a CSV written by [`csv`] (this harness's, or one assembled from an exported
/// campaign's results in the same columns): the rows, and the solver names in order of first
/// appearance. What the CSV does not keep (the models) is not re-checked: verdicts are taken
/// as written.
pub fn rows_from_csv(text: &str) -> Result<(Vec<Row>, Vec<String>), String> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("");
    if !header.starts_with("instance,path,solver,status,cost,cpu_s,wall_s,exit,solved,verdict") {
        return Err("not a grim-bench CSV (the header row differs)".to_string());
    }
    let mut rows: Vec<Row> = Vec::new();
    let mut solvers: Vec<String> = Vec::new();
    for (i, line) in lines.enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let f = csv_fields(line);
        let [
            instance,
            path,
            solver,
            status,
            cost,
            cpu,
            wall,
            exit,
            solved,
            verdict,
        ] = &f[..]
        else {
            return Err(format!(
                "line {}: expected 10 fields, got {}",
                i + 2,
                f.len()
            ));
        };
        let row = match rows.iter().position(|r| &r.path == path) {
            Some(k) => k,
            None => {
                rows.push(Row {
                    index: rows.len(),
                    name: instance.clone(),
                    path: path.clone(),
                    weighted: false,
                    runs: Vec::new(),
                    disagreements: Vec::new(),
                    error: None,
                });
                rows.len() - 1
            }
        };
        let Some(row) = rows.get_mut(row) else {
            continue;
        };
        if let Some(why) = verdict.strip_prefix("unreadable: ") {
            row.error = Some(why.to_string());
            continue;
        }
        if !solvers.contains(solver) {
            solvers.push(solver.clone());
        }
        let status = match status.as_str() {
            "SATISFIABLE" => Status::Sat,
            "UNSATISFIABLE" => Status::Unsat,
            "OPTIMUM FOUND" => {
                row.weighted = true;
                Status::Optimum
            }
            _ => Status::Unknown,
        };
        if !cost.is_empty() {
            row.weighted = true;
        }
        let number = |s: &str| {
            s.parse::<f64>()
                .map_err(|_| format!("line {}: `{s}` is not a number", i + 2))
        };
        let exit = if let Some(c) = exit.strip_prefix("exit ") {
            Exit::Code(c.parse().unwrap_or(-1))
        } else if let Some(s) = exit.strip_prefix("signal ") {
            Exit::Signal(s.parse().unwrap_or(-1))
        } else if exit == "wall-clock kill" {
            Exit::WallClock
        } else {
            Exit::Failed(exit.strip_prefix("failed: ").unwrap_or(exit).to_string())
        };
        let wrong = verdict.strip_prefix("WRONG: ").map(str::to_string);
        if let Some(d) = verdict.strip_prefix("DISAGREE: ")
            && !row.disagreements.iter().any(|x| x == d)
        {
            row.disagreements.push(d.to_string());
        }
        let file_disagrees = verdict
            .strip_prefix("DISAGREE with expected: ")
            .map(str::to_string);
        if let Some(d) = &file_disagrees {
            row.disagreements
                .push(format!("{solver} vs expected answers: {d}"));
        }
        row.runs.push(RunRecord {
            solver: solver.clone(),
            checked: Checked {
                status,
                cost: cost.parse().ok(),
                wrong,
                file_disagrees,
            },
            cpu: number(cpu)?,
            wall: number(wall)?,
            exit,
            solved: solved == "true",
        });
    }
    Ok((rows, solvers))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_csv_reads_back_as_the_rows_it_was_written_from() {
        let run = |solver: &str, status, cost, wrong: Option<&str>| RunRecord {
            solver: solver.to_string(),
            checked: Checked {
                status,
                cost,
                wrong: wrong.map(str::to_string),
                file_disagrees: None,
            },
            cpu: 1.5,
            wall: 2.25,
            exit: Exit::Code(30),
            solved: wrong.is_none(),
        };
        let rows = vec![Row {
            index: 0,
            name: "a,b.wcnf".to_string(),
            path: "dir/a,b.wcnf".to_string(),
            weighted: true,
            runs: vec![
                run("x", Status::Optimum, Some(3), None),
                run(
                    "y",
                    Status::Optimum,
                    Some(3),
                    Some("reported cost 2, the \"model\" costs 3"),
                ),
            ],
            disagreements: Vec::new(),
            error: None,
        }];
        let (back, solvers) = rows_from_csv(&csv(&rows)).unwrap();
        assert_eq!(solvers, vec!["x", "y"]);
        assert_eq!(back, rows);
        assert!(rows_from_csv("a,b\n").is_err());
    }
}

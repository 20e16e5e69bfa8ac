//! grim-bench end to end: its checks catch deliberately wrong solvers (a bad model, a false
//! UNSAT, a false cost, two different optima) and make it exit 1; a correct run over
//! instances of the repository's corpus produces the table, the CSV and a cactus plot with one
//! line per solver; the exported Slurm script and BenchExec definition are well-formed (the
//! Slurm script is run for one array task).
//!
//! The "solvers" are small shell scripts written by each test. The correct one replays
//! answers computed here with the grim-solver library (the harness checks them like any
//! other); MiniSat and CaDiCaL join the correct run when installed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use grim_solver::{Budget, Lit, Solver, Status};
use grim_testkit::{assert_contains, assert_starts_with};
use grim_tools::formats::dimacs::read_cnf_path;

const BENCH: &str = env!("CARGO_BIN_EXE_grim-bench");

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grim-bench-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes an executable shell script `name` in `dir` with `body` after the `#!` line.
fn script(dir: &Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

fn bench(args: &[&str]) -> Output {
    Command::new(BENCH)
        .arg("--quiet")
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// One judging test's setup: a scratch folder holding the instance and the solver scripts.
/// The shape of every judging test: liars and honest scripts raced on one instance.
struct Race {
    dir: PathBuf,
    instance: String,
    solvers: Vec<(&'static str, String)>,
}

impl Race {
    /// Writes `content` as `file` in a scratch folder for `test`, and each `(name, body)` of
    /// `scripts` as the executable `name.sh`.
    fn new(test: &str, file: &str, content: &str, scripts: &[(&'static str, &str)]) -> Race {
        let dir = scratch(test);
        let instance = write(&dir, file, content);
        let solvers = scripts
            .iter()
            .map(|&(name, body)| (name, script(&dir, &format!("{name}.sh"), body)))
            .collect();
        Race {
            dir,
            instance,
            solvers,
        }
    }

    /// Runs the solvers `names` on the instance for 5 s each, after the `extra` arguments, and
    /// asserts the exit status and that the report says `needle`.
    fn judged(&self, extra: &[&str], names: &[&str], code: i32, needle: &str) {
        let named: Vec<String> = names
            .iter()
            .map(|n| {
                let (_, path) = self.solvers.iter().find(|(s, _)| s == n).unwrap();
                format!("{n}={path}")
            })
            .collect();
        let mut args = vec!["-t", "5"];
        args.extend_from_slice(extra);
        for s in &named {
            args.extend(["-s", s.as_str()]);
        }
        args.push(&self.instance);
        let o = bench(&args);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(code), "{out}");
        assert!(out.contains(needle), "{needle:?} in {out}");
    }

    /// [`Race::judged`] with no extra arguments, expecting exit 1 (a solver caught).
    fn caught(&self, names: &[&str], needle: &str) {
        self.judged(&[], names, 1, needle);
    }
}

/// Runs `command` and asserts that it succeeds, showing its stderr when it does not.
fn succeeds(command: &mut Command) -> Output {
    let o = command.output().unwrap();
    assert!(
        o.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// Runs `grim-bench --export kind -o out` with `args` and asserts that it exits 0.
fn exported(kind: &str, out: &Path, args: &[&str]) {
    let mut all = vec!["--export", kind, "-o", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let o = bench(&all);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

fn write(dir: &Path, name: &str, content: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path.display().to_string()
}

/// x1 ∨ x2, ¬x1: satisfiable, only by x1 = 0, x2 = 1.
const SAT_CNF: &str = "p cnf 2 2\n1 2 0\n-1 0\n";
/// h x1 ∨ x2; soft ¬x1 (3), ¬x2 (5): the optimum is 3 (x1 = 1, x2 = 0).
const WCNF: &str = "h 1 2 0\n3 -1 0\n5 -2 0\n";

/// The honest answer to [`SAT_CNF`].
const GOOD_SAT: &str = "echo 's SATISFIABLE'; echo 'v -1 2 0'";

/// A race on [`SAT_CNF`] (as `t.cnf`) of the script `body`, called `name`, and `good`, which
/// answers [`GOOD_SAT`].
fn against_good(test: &str, name: &'static str, body: &str) -> Race {
    Race::new(test, "t.cnf", SAT_CNF, &[(name, body), ("good", GOOD_SAT)])
}

#[test]
fn a_model_that_falsifies_a_clause_is_flagged_and_the_exit_status_is_1() {
    let race = against_good("bad-model", "bad", "echo 's SATISFIABLE'; echo 'v 1 2 0'");
    race.caught(
        &["bad", "good"],
        "WRONG bad: the model falsifies hard clause 2",
    );
    race.judged(&[], &["good"], 0, "");
}

#[test]
fn a_false_unsat_disagrees_with_a_model_and_with_the_expected_answer() {
    let race = against_good("false-unsat", "liar", "echo 's UNSATISFIABLE'");
    race.caught(
        &["liar", "good"],
        "DISAGREE: good found a model, liar claimed UNSAT",
    );
    // Alone, it is caught by the expected answers found beside the instance.
    write(&race.dir, "EXPECTED", "t.cnf SAT\n");
    race.caught(&["liar"], "UNSAT, but the instance is known satisfiable");
    race.judged(&["--no-auto-expected"], &["liar"], 0, "");
}

#[test]
fn a_false_cost_and_two_different_optima_are_caught() {
    let race = Race::new(
        "costs",
        "t.wcnf",
        WCNF,
        &[
            ("cheat", "echo 'o 2'; echo 's OPTIMUM FOUND'; echo 'v 10'"),
            ("good", "echo 'o 3'; echo 's OPTIMUM FOUND'; echo 'v 10'"),
            ("lazy", "echo 'o 5'; echo 's OPTIMUM FOUND'; echo 'v 01'"),
        ],
    );
    race.caught(&["cheat", "good"], "reported cost 2, the model costs 3");
    race.caught(&["good", "lazy"], "different proven optima: good 3, lazy 5");
    race.judged(&[], &["good"], 0, "OPT(3)");
}

/// Small instances of the repository's corpus: SAT and UNSAT, plain and gzip.
const CORPUS: [&str; 6] = [
    "php-5.cnf",
    "queens-8.cnf",
    "ksat3-n100-r4.26-s1.cnf",
    "color-planted-v60-k3.cnf",
    "ordering-8.cnf",
    "ksat3-n150-r4.26-s4.cnf.gz",
];

/// The competition-format answer of grim-solver on `path`.
fn oracle_answer(path: &Path) -> String {
    let parsed = read_cnf_path(path, Default::default()).unwrap();
    let mut solver = Solver::new();
    for clause in &parsed.cnf.clauses {
        solver.add_clause(clause);
    }
    match solver.solve(&[], Budget::UNLIMITED) {
        Status::Sat => {
            let model = solver.model().unwrap();
            let lits: Vec<String> = model
                .iter()
                .enumerate()
                .map(|(i, &v)| {
                    let l = i as i64 + 1;
                    (if v { l } else { -l }).to_string()
                })
                .collect();
            format!("s SATISFIABLE\nv {} 0\n", lits.join(" "))
        }
        Status::Unsat => "s UNSATISFIABLE\n".to_string(),
        Status::Unknown => panic!("no budget, no unknown"),
    }
}

fn on_path(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn a_correct_run_writes_the_table_the_csv_and_a_cactus_line_per_solver() {
    let dir = scratch("correct");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../instances/cnf");
    let mut instances = Vec::new();
    for name in CORPUS {
        let path = corpus.join(name);
        std::fs::write(dir.join(format!("{name}.ans")), oracle_answer(&path)).unwrap();
        instances.push(path.display().to_string());
    }
    let oracle = script(
        &dir,
        "oracle.sh",
        &format!("cat '{}'/\"$(basename \"$1\")\".ans", dir.display()),
    );
    // A second correct solver that answers the same way but spends a little CPU first, so
    // that the two cactus lines differ.
    let slow = script(
        &dir,
        "slow.sh",
        &format!(
            "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; cat '{}'/\"$(basename \"$1\")\".ans",
            dir.display()
        ),
    );
    let mut solvers = vec![format!("oracle={oracle}"), format!("slow={slow}")];
    let minisat =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/bench/adapters/minisat.sh");
    for (name, cmd) in [
        ("cadical", "cadical -q".to_string()),
        ("minisat", minisat.display().to_string()),
    ] {
        if on_path(name) && (name != "minisat" || minisat.exists()) {
            solvers.push(format!("{name}={cmd}"));
        } else {
            grim_testkit::reference::skip(
                "a_correct_run_writes_the_table_the_csv_and_a_cactus_line_per_solver",
                &format!("{name} in the run: not installed (the scripted solvers still run)"),
            );
        }
    }
    let csv = dir.join("out.csv");
    let svg = dir.join("out.svg");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../instances/MANIFEST");
    let mut args = vec![
        "-t".to_string(),
        "20".to_string(),
        "--baseline".to_string(),
        "slow".to_string(),
        "--expected".to_string(),
        manifest.display().to_string(),
        "--csv".to_string(),
        csv.display().to_string(),
        "--cactus".to_string(),
        svg.display().to_string(),
    ];
    for s in &solvers {
        args.push("-s".to_string());
        args.push(s.clone());
    }
    args.extend(instances.iter().cloned());
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = bench(&argv);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    for name in CORPUS {
        assert!(
            stdout.lines().any(|l| l.starts_with(name)),
            "no row for {name}: {out}"
        );
    }
    assert!(stdout.contains("UNSAT") && stdout.contains("SAT "), "{out}");
    let oracle_line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("oracle "))
        .unwrap_or("");
    assert!(oracle_line.contains("6/6"), "{out}");
    assert!(stdout.contains("1.00x"), "the baseline's ratio: {out}");
    let csv_text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(
        csv_text.lines().count(),
        1 + CORPUS.len() * solvers.len(),
        "{csv_text}"
    );
    assert_starts_with(&csv_text, "instance,path,solver,status,cost,cpu_s");
    assert!(
        csv_text.lines().skip(1).all(|l| l.ends_with(",true,ok")),
        "{csv_text}"
    );
    let svg_text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        svg_text.starts_with("<svg"),
        "{}",
        &svg_text[..svg_text.len().min(200)]
    );
    // The solvers' lines are the only polylines of stroke width 2 (axes 1, legend 3).
    let lines = svg_text.matches("stroke-width=\"2\"").count();
    assert_eq!(lines, solvers.len(), "one cactus line per solver");
    for s in &solvers {
        let name = s.split('=').next().unwrap();
        assert!(
            svg_text.contains(&format!("{name} (6 solved)")),
            "legend for {name}"
        );
    }
    // The CSV alone gives the same summary and plot back.
    let again = dir.join("again.svg");
    let replot = bench(&[
        "-t",
        "20",
        "--baseline",
        "slow",
        "--replot",
        csv.to_str().unwrap(),
        "--cactus",
        again.to_str().unwrap(),
    ]);
    let replotted = String::from_utf8_lossy(&replot.stdout);
    assert_eq!(replot.status.code(), Some(0), "{}", text(&replot));
    let summary = |s: &str| {
        s.lines()
            .skip_while(|l| !l.contains("PAR-2 (s)"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(summary(&replotted), summary(&stdout), "{}", text(&replot));
    assert_eq!(std::fs::read_to_string(&again).unwrap(), svg_text);
}

#[test]
fn the_slurm_export_is_a_valid_script_that_runs_one_array_task() {
    let dir = scratch("slurm");
    let cnf = write(&dir, "a b.cnf", SAT_CNF);
    let good = script(
        &dir,
        "good.sh",
        "echo 's SATISFIABLE'; echo \"c file $1\"; echo 'v -1 2 0'",
    );
    let job = dir.join("job.sh");
    let results = dir.join("results");
    let good = format!("good={good} {{}}");
    let results_dir = results.to_str().unwrap();
    let limits = ["-t", "30", "-m", "1000"];
    let solvers = ["-s", &good, "-s", "other=true"];
    exported(
        "slurm",
        &job,
        &[
            &["--results-dir", results_dir][..],
            &limits,
            &solvers,
            &[&cnf],
        ]
        .concat(),
    );
    let script_text = std::fs::read_to_string(&job).unwrap();
    assert_contains(
        &script_text,
        &[
            "#SBATCH --array=0-1",
            "#SBATCH --cpus-per-task=1",
            "#SBATCH --time=00:06:00",
            "ulimit -t 30",
            "ulimit -v 1024000",
        ],
    );
    succeeds(Command::new("bash").arg("-n").arg(&job));
    succeeds(
        Command::new("bash")
            .arg(&job)
            .env("SLURM_ARRAY_TASK_ID", "0"),
    );
    let answer = std::fs::read_to_string(results.join("good/a b.cnf.out")).unwrap();
    assert_eq!(answer, format!("s SATISFIABLE\nc file {cnf}\nv -1 2 0\n"));
    let times = std::fs::read_to_string(results.join("good/a b.cnf.time")).unwrap();
    assert_eq!(
        times.split_whitespace().count(),
        3,
        "user sys wall: {times}"
    );
}

#[test]
fn the_benchexec_export_is_well_formed_xml_with_a_run_per_solver() {
    let dir = scratch("benchexec");
    let cnf = write(&dir, "x&y.cnf", SAT_CNF);
    let xml = dir.join("campaign.xml");
    let solvers = ["-s", "grim=grim-sat {}", "-s", "cad=cadical -q '<{}>'"];
    exported(
        "benchexec",
        &xml,
        &[&["-t", "60"][..], &solvers, &[&cnf]].concat(),
    );
    let text = std::fs::read_to_string(&xml).unwrap();
    assert_contains(
        &text,
        &[
            "<benchmark tool=\"grim_bench.benchexec_tool\" timelimit=\"60 s\" hardtimelimit=\"65 s\" cpuCores=\"1\">",
            "<rundefinition name=\"grim\">",
            "<option name=\"--grim-bench-command\">cadical -q &apos;&lt;{}&gt;&apos;</option>",
            "x&amp;y.cnf</include>",
        ],
    );
    assert!(dir.join("grim_bench/__init__.py").exists());
    if on_path("python3") {
        let count = "import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); \
                print(len(d.getElementsByTagName('rundefinition')))";
        let parse = succeeds(Command::new("python3").args(["-c", count]).arg(&xml));
        assert_eq!(String::from_utf8_lossy(&parse.stdout).trim(), "2");
        let tool = dir.join("grim_bench/benchexec_tool.py");
        succeeds(Command::new("python3").args(["-m", "py_compile"]).arg(tool));
    } else {
        eprintln!("skip: python3 not installed, the XML is checked by its contents only");
    }
}

/// grim-sat, built by this test run (the benches package depends on grim-tools).
fn grim_sat() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    let sat = dir.join("grim-sat");
    if !sat.exists() {
        let status = Command::new(env!("CARGO"))
            .args(["build", "-q", "-p", "grim-tools", "--bin", "grim-sat"])
            .status()
            .unwrap();
        assert!(status.success());
    }
    sat
}

#[test]
fn benchexec_runs_an_exported_campaign_and_reports_each_answer() {
    if !on_path("benchexec") {
        eprintln!(
            "skip: benchexec not installed (pip install benchexec); the export is checked by its contents above"
        );
        return;
    }
    let dir = scratch("benchexec-run");
    let sat = write(&dir, "sat.cnf", SAT_CNF);
    let unsat = write(&dir, "unsat.cnf", "p cnf 1 2\n1 0\n-1 0\n");
    let wcnf = write(&dir, "opt.wcnf", WCNF);
    let xml = dir.join("campaign.xml");
    let grim = format!("{} {{}}", grim_sat().display());
    let grim = format!("grim={grim}");
    exported(
        "benchexec",
        &xml,
        &["-t", "20", "-s", &grim, &sat, &unsat, &wcnf],
    );
    let results = dir.join("results");
    // This machine's container cannot mount overlayfs (BenchExec says so and suggests a
    // read-only root); the results folder is the one place the runs may write.
    // Output to files, and only the direct child waited for: BenchExec 3.35 has been seen to
    // leave a helper process behind, asleep and holding its output pipes, which made a
    // pipe-reading `output()` wait forever after the runs had ended. The helper shares the
    // child's process group, which is killed once the child has exited.
    use std::os::unix::process::CommandExt;
    let (out_path, err_path) = (dir.join("benchexec.out"), dir.join("benchexec.err"));
    let mut child = Command::new("benchexec")
        .arg(&xml)
        .arg("-o")
        .arg(format!("{}/", results.display()))
        .args(["--read-only-dir", "/", "--full-access-dir"])
        .arg(&dir)
        .env("PYTHONPATH", &dir)
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .process_group(0)
        .spawn()
        .unwrap();
    let status = child.wait().unwrap();
    let _ = Command::new("kill")
        .args(["-9", "--", &format!("-{}", child.id())])
        .stderr(std::process::Stdio::null())
        .status();
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    if !status.success() && (stderr.contains("cgroup") || stderr.contains("container")) {
        eprintln!(
            "skip: benchexec cannot run here: {}",
            stderr.lines().last().unwrap_or("")
        );
        return;
    }
    assert!(status.success(), "{stdout}\n{stderr}");
    let status_of = |name: &str| -> String {
        stdout
            .lines()
            .find(|l| l.contains(name))
            .and_then(|l| l.split_whitespace().nth(2))
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(status_of("sat.cnf"), "true", "{stdout}\n{stderr}");
    assert_eq!(status_of("unsat.cnf"), "false", "{stdout}\n{stderr}");
    assert_eq!(status_of("opt.wcnf"), "true", "{stdout}\n{stderr}");
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let o = bench(&["-s", "noequals", "x.cnf"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let o = bench(&["-s", "a=b", "-s", "a=c", "x.cnf"]);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("given twice"),
        "{}",
        text(&o)
    );
    let o = bench(&["-s", "a=true", "--baseline", "zz", "x.cnf"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let dir = scratch("missing");
    let o = bench(&["-s", "a=true", dir.join("nope.cnf").to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "an unreadable instance: {}",
        text(&o)
    );
    let _ = Lit::from_dimacs(1);
}

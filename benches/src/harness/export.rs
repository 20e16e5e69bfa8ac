//! Writing a campaign for a cluster instead of running it: a Slurm array job, or a BenchExec
//! benchmark definition. For users whose instance sets outgrow one machine; the limits and
//! the command templates are the same as `grim-bench` would use, and the solvers' outputs
//! keep the competition format, so the answers can be checked afterwards (`grim-check`).
//!
//! Instance paths are written absolute (a job runs in another working directory); command
//! templates are written as given, so a solver path should be absolute or on the nodes' PATH.

use std::fmt::Write as _;
use std::path::Path;

/// The campaign to export.
#[derive(Clone, Debug, PartialEq)]
pub struct Campaign<'a> {
    /// Solver names and command templates (`{}` = the instance).
    pub solvers: &'a [(String, String)],
    /// Instance paths (absolute).
    pub instances: &'a [String],
    /// CPU seconds per run.
    pub timeout: f64,
    /// Memory limit in MiB, if any.
    pub memory_mib: Option<u64>,
    /// Wall seconds per run (the Slurm `--time` of one array task).
    pub wall_seconds: f64,
}

/// Quotes `text` for a POSIX shell (single quotes; a single quote becomes `'\''`).
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// The Slurm array job: one array task per (instance, solver) pair, task `i·S + s` running
/// solver `s` on instance `i`. Each task sets the CPU limit with `ulimit -t` (RLIMIT_CPU, as
/// `grim-bench` does) and the memory limit with `ulimit -v`, asks Slurm for one CPU and the
/// wall time of `grim-bench`'s safety net, and writes the solver's standard output and its
/// `user sys wall` seconds (bash's `time`) to `RESULTS/SOLVER/INSTANCE.out` / `.time`.
pub fn slurm(c: &Campaign<'_>, results_dir: &Path) -> String {
    let tasks = c.instances.len() * c.solvers.len();
    let cpu = (c.timeout.ceil() as u64).max(1);
    let wall = c.wall_seconds.ceil() as u64;
    let mut s = String::new();
    let _ = writeln!(s, "#!/usr/bin/env bash");
    let _ = writeln!(
        s,
        "# Written by grim-bench --export slurm. Submit with: sbatch THIS_FILE"
    );
    let _ = writeln!(s, "#SBATCH --job-name=grim-bench");
    let _ = writeln!(s, "#SBATCH --array=0-{}", tasks.saturating_sub(1));
    let _ = writeln!(s, "#SBATCH --ntasks=1");
    let _ = writeln!(s, "#SBATCH --cpus-per-task=1");
    let _ = writeln!(
        s,
        "#SBATCH --time={:02}:{:02}:{:02}",
        wall / 3600,
        wall / 60 % 60,
        wall % 60
    );
    if let Some(m) = c.memory_mib {
        // Slurm counts resident memory; a little above the address-space limit.
        let _ = writeln!(s, "#SBATCH --mem={}M", m + m / 10 + 64);
    }
    let results = results_dir.display().to_string();
    let _ = writeln!(s, "#SBATCH --output={}/slurm-%A_%a.log", results);
    let _ = writeln!(s, "set -u");
    let _ = writeln!(s, "results={}", shell_quote(&results));
    s.push_str("names=(");
    for (name, _) in c.solvers {
        let _ = write!(s, " {}", shell_quote(name));
    }
    s.push_str(" )\ncommands=(");
    for (_, cmd) in c.solvers {
        let _ = write!(s, " {}", shell_quote(cmd));
    }
    s.push_str(" )\ninstances=(\n");
    for path in c.instances {
        let _ = writeln!(s, "  {}", shell_quote(path));
    }
    s.push_str(")\n");
    let _ = writeln!(
        s,
        "task=${{SLURM_ARRAY_TASK_ID:?run as a Slurm array task}}"
    );
    s.push_str(
        "solver=$((task % ${#names[@]}))\n\
         instance=${instances[$((task / ${#names[@]}))]}\n\
         name=${names[$solver]}\n\
         command=${commands[$solver]}\n\
         quoted=$(printf '%q' \"$instance\")\n\
         if [[ $command == *'{}'* ]]; then command=${command//\\{\\}/$quoted}; else command=\"$command $quoted\"; fi\n\
         mkdir -p \"$results/$name\"\n\
         out=\"$results/$name/$(basename \"$instance\").out\"\n",
    );
    let _ = writeln!(s, "ulimit -t {cpu}");
    if let Some(m) = c.memory_mib {
        let _ = writeln!(s, "ulimit -v {}", m.saturating_mul(1024));
    }
    s.push_str(
        "TIMEFORMAT='%U %S %R'\n\
         { time bash -c \"$command\" >\"$out\" 2>/dev/null ; } 2>\"${out%.out}.time\"\n",
    );
    s
}

/// Escapes text for XML character data and attribute values (the SVG writer's escape).
pub use grim_levels::svg::escape as xml_escape;

/// Escapes the glob characters BenchExec's `<include>` would expand (`[x]` matches `x`).
fn glob_escape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            '*' | '?' | '[' => {
                out.push('[');
                out.push(c);
                out.push(']');
            }
            c => out.push(c),
        }
    }
    out
}

/// The BenchExec tool-info module [`benchexec_tool`] defines, as BenchExec names it: a
/// dotted name, because BenchExec looks an undotted `tool` up inside its own
/// `benchexec.tools` package (a bare `grim_bench_tool` failed with "Unsupported tool ...
/// No module named 'benchexec.tools.grim_bench_tool'" under BenchExec 3.35).
pub const BENCHEXEC_TOOL: &str = "grim_bench.benchexec_tool";

/// The package directory and file of [`BENCHEXEC_TOOL`], relative to the folder put on
/// `PYTHONPATH` (an empty `__init__.py` beside it makes the directory a package).
pub const BENCHEXEC_TOOL_FILE: (&str, &str) = ("grim_bench", "benchexec_tool.py");

/// The BenchExec benchmark definition: one `<rundefinition>` per solver (its command template
/// as the option `--grim-bench-command`), one `<tasks>` set of all instances, the CPU limit as
/// `timelimit`, `hardtimelimit` 5 s later (as `grim-bench`'s hard RLIMIT_CPU), the memory
/// limit, one core. BenchExec runs a tool through a Python tool-info module: the one
/// [`benchexec_tool`] writes, named [`BENCHEXEC_TOOL`], must be on `PYTHONPATH`.
pub fn benchexec(c: &Campaign<'_>) -> String {
    let cpu = (c.timeout.ceil() as u64).max(1);
    let mut s = String::from("<?xml version=\"1.0\"?>\n");
    s.push_str(
        "<!DOCTYPE benchmark PUBLIC \"+//IDN sosy-lab.org//DTD BenchExec benchmark 2.3//EN\" \
         \"https://www.sosy-lab.org/benchexec/benchmark-2.3.dtd\">\n",
    );
    // No double hyphen may appear inside an XML comment: the options are spelled out by
    // grim-bench's message and the README instead.
    s.push_str(
        "<!-- Written by grim-bench (export to BenchExec). Run with:\n     \
         PYTHONPATH=THIS_FOLDER benchexec THIS_FILE\n     \
         (where the container cannot mount overlayfs, also make / read-only and the results \
         folder writable:\n     see the options grim-bench printed, or the README).\n     \
         Status: true = SATISFIABLE or OPTIMUM FOUND, false = UNSATISFIABLE, unknown = no \
         proven answer;\n     the outputs are in the log files, for grim-check. -->\n",
    );
    let _ = write!(
        s,
        "<benchmark tool=\"{BENCHEXEC_TOOL}\" timelimit=\"{cpu} s\" hardtimelimit=\"{} s\" cpuCores=\"1\"",
        cpu + 5
    );
    if let Some(m) = c.memory_mib {
        let _ = write!(s, " memlimit=\"{m} MiB\"");
    }
    s.push_str(">\n");
    for (name, cmd) in c.solvers {
        let _ = writeln!(s, "  <rundefinition name=\"{}\">", xml_escape(name));
        let _ = writeln!(
            s,
            "    <option name=\"--grim-bench-command\">{}</option>",
            xml_escape(cmd)
        );
        s.push_str("  </rundefinition>\n");
    }
    s.push_str("  <tasks name=\"instances\">\n");
    for path in c.instances {
        let _ = writeln!(
            s,
            "    <include>{}</include>",
            xml_escape(&glob_escape(path))
        );
    }
    s.push_str("  </tasks>\n</benchmark>\n");
    s
}

/// The tool-info module for [`benchexec`]: runs the rundefinition's command template through
/// `sh -c` with the task's file in place of `{}`, and maps the solver's `s` line to BenchExec's
/// statuses: `true` (SATISFIABLE; for a MaxSAT output, OPTIMUM FOUND), `false` (UNSATISFIABLE),
/// `unknown` otherwise (UNKNOWN, a MaxSAT SATISFIABLE whose optimality is not proven, no `s`
/// line). Why not `done`: BenchExec turns `done` with a non-zero exit code into `ERROR (10)`,
/// and the competitions' exit codes 10, 20 and 30 are answers. BenchExec does not check the
/// answers; its log files keep the outputs, which `grim-check` does.
pub fn benchexec_tool() -> String {
    r#"# Written by grim-bench --export benchexec: a BenchExec tool-info module that runs the
# command template given as the rundefinition option --grim-bench-command.
import shlex

import benchexec.result as result
import benchexec.tools.template


class Tool(benchexec.tools.template.BaseTool2):
    def executable(self, tool_locator):
        return tool_locator.find_executable("sh")

    def name(self):
        return "grim-bench command"

    def version(self, executable):
        return ""

    def cmdline(self, executable, options, task, rlimits):
        template = options[options.index("--grim-bench-command") + 1]
        path = shlex.quote(task.single_input_file)
        command = template.replace("{}", path) if "{}" in template else template + " " + path
        return [executable, "-c", command]

    def determine_result(self, run):
        maxsat = any(line.startswith("o ") for line in run.output)
        for line in reversed(run.output):
            answer = line.strip()
            if answer == "s UNSATISFIABLE":
                return result.RESULT_FALSE_PROP
            if answer == "s OPTIMUM FOUND" or (answer == "s SATISFIABLE" and not maxsat):
                return result.RESULT_TRUE_PROP
            if answer.startswith("s "):
                return result.RESULT_UNKNOWN
        return result.RESULT_UNKNOWN
"#
    .to_string()
}

//! What the command-line tools share: exit codes, the options help table, and statistics
//! formatting. Kept in the library so that it is documented and tested in one place.

use std::fmt::Write as _;

use grim_formats::detect::Format;
use grim_maxsat::OllOptions;
use grim_solver::options::nearest_option;
use grim_solver::{OptionError, OptionKind, OptionSpec, Options, StatSpec, Stats};

/// Exit codes of `grim-sat`. 10, 20 and 0 are the SAT Competition's, 30 the MaxSAT
/// Evaluation's; the error codes avoid them.
pub mod sat_exit {
    /// `s UNKNOWN`: a limit or a signal stopped the search before any answer (also
    /// `--help-options`).
    pub const UNKNOWN: u8 = 0;
    /// `s SATISFIABLE`: CNF, a model; WCNF, a solution whose optimality is not proven (a limit
    /// or a signal stopped the search).
    pub const SATISFIABLE: u8 = 10;
    /// `s UNSATISFIABLE` (WCNF: the hard clauses alone are unsatisfiable).
    pub const UNSATISFIABLE: u8 = 20;
    /// WCNF: `s OPTIMUM FOUND`, a solution proven optimal.
    pub const OPTIMUM_FOUND: u8 = 30;
    /// Bad command line (clap's own code, reused for `--opt` errors).
    pub const USAGE: u8 = 2;
    /// The input is malformed (a DIMACS error, corrupt gzip).
    pub const PARSE: u8 = 3;
    /// The input could not be opened or read, or the output could not be written.
    pub const IO: u8 = 4;
    /// Internal error: the engine's model failed grim-sat's own check. No `s` line is
    /// printed; please report it with the input.
    pub const INTERNAL: u8 = 5;
}

/// Exit codes of `grim-check`.
pub mod check_exit {
    /// The output is consistent: a model that satisfies every (hard) clause and, for WCNF,
    /// whose recomputed cost equals the last `o` line; or an answer (UNSATISFIABLE, UNKNOWN)
    /// that cannot be refuted without a proof.
    pub const OK: u8 = 0;
    /// The model falsifies a (hard) clause, its cost differs from the last `o` line, or the
    /// output contradicts itself (an `o` line under UNSATISFIABLE).
    pub const WRONG: u8 = 1;
    /// The instance or the output is malformed or unreadable, or the command line is bad.
    pub const MALFORMED: u8 = 2;
}

fn kind_name(kind: OptionKind) -> &'static str {
    match kind {
        OptionKind::Bool => "bool",
        OptionKind::Int => "int",
        OptionKind::Float => "float",
    }
}

fn bound(kind: OptionKind, value: f64) -> String {
    match kind {
        OptionKind::Bool => (value != 0.0).to_string(),
        // Integer bounds are integral in the table; print them without a fraction. u64::MAX
        // as f64 rounds up to 2^64, which reads better as the name it stands for.
        OptionKind::Int if value >= u64::MAX as f64 => "u64::MAX".to_string(),
        OptionKind::Int => format!("{value:.0}"),
        OptionKind::Float => format!("{value}"),
    }
}

/// Both options tables as help text, generated from [`Options::TABLE`] and
/// [`OllOptions::TABLE`] so it cannot drift from the code: one row per option with kind,
/// default and range, then its doc.
pub fn options_help() -> String {
    let mut out = String::new();
    out.push_str(
        "Options, set with --opt NAME=VALUE (repeatable); the names of the two tables differ.\n",
    );
    out.push_str("\nEngine (CDCL) options:\n\n");
    // The live default, not the table's source text: `check_model`'s default is written
    // `cfg!(debug_assertions)` there.
    let engine = Options::default();
    table_help(&mut out, Options::TABLE, |name| engine.get(name));
    out.push_str("\nMaxSAT (OLL) options, for WCNF input:\n\n");
    let oll = OllOptions::default();
    table_help(&mut out, OllOptions::TABLE, |name| oll.get(name));
    out.push_str(
        "\ncheck_model is always on in grim-sat: every model is checked before it is printed.\n",
    );
    out
}

/// One option per two lines: name, kind, default and range, then the doc's first sentence
/// ([`OptionSpec::summary`]); the measurements behind each default stay in the rustdoc of the
/// table, where a developer reads them.
fn table_help(out: &mut String, table: &[OptionSpec], default: impl Fn(&str) -> Option<String>) {
    let width = table.iter().map(|s| s.name.len()).max().unwrap_or(0);
    for spec in table {
        let default = default(spec.name).unwrap_or_else(|| spec.default.to_string());
        let _ = writeln!(
            out,
            "  {:<width$}  {:<5}  default {:<8}  range [{}, {}]",
            spec.name,
            kind_name(spec.kind),
            default,
            bound(spec.kind, spec.min),
            bound(spec.kind, spec.max),
        );
        let _ = writeln!(out, "      {}", spec.summary());
    }
}

/// Sets `NAME` to `VALUE` in whichever table has the row: the engine's first, then OLL's (the
/// names are disjoint, a test in `grim-maxsat` says so; OLL's also takes the old names of its
/// renamed rows, `OllOptions::ALIASES`). An unknown name is refused with
/// the closest name of either table as a suggestion (`shrnk` → `shrink`).
pub fn set_option(
    engine: &mut Options,
    oll: &mut OllOptions,
    name: &str,
    value: &str,
) -> Result<(), OptionError> {
    match engine.set(name, value) {
        Err(OptionError::UnknownOption { .. }) => match oll.set(name, value) {
            Err(OptionError::UnknownOption { name, .. }) => Err(OptionError::UnknownOption {
                suggestion: nearest_option(&name, &[Options::TABLE, OllOptions::TABLE]),
                name,
            }),
            result => result,
        },
        result => result,
    }
}

/// The rows of both tables whose values differ from the defaults, as `name=value` (engine
/// rows first, `check_model` left out: `grim-sat` always turns it on), for the `c options:`
/// line that makes a run reproducible from its output.
pub fn changed_options(engine: &Options, oll: &OllOptions) -> Vec<String> {
    fn changed<'t>(
        table: &'t [OptionSpec],
        get: impl Fn(&str) -> Option<String> + 't,
        default: impl Fn(&str) -> Option<String> + 't,
    ) -> impl Iterator<Item = String> + 't {
        table
            .iter()
            .filter(|spec| spec.name != "check_model")
            .filter_map(move |spec| {
                let value = get(spec.name)?;
                (Some(&value) != default(spec.name).as_ref())
                    .then(|| format!("{}={value}", spec.name))
            })
    }
    let (engine_defaults, oll_defaults) = (Options::default(), OllOptions::default());
    changed(
        Options::TABLE,
        |n| engine.get(n),
        |n| engine_defaults.get(n),
    )
    .chain(changed(
        OllOptions::TABLE,
        |n| oll.get(n),
        |n| oll_defaults.get(n),
    ))
    .collect()
}

/// The instance format, for `--format` of `grim-sat` and `grim-check`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatArg {
    /// Detect from the contents and the name.
    Auto,
    /// DIMACS CNF.
    Cnf,
    /// WCNF (either dialect).
    Wcnf,
}

impl FormatArg {
    /// The format to force on the detection (`None`: detect).
    pub fn forced(self) -> Option<Format> {
        match self {
            FormatArg::Auto => None,
            FormatArg::Cnf => Some(Format::Cnf),
            FormatArg::Wcnf => Some(Format::Wcnf),
        }
    }
}

/// Splits `NAME=VALUE` at the first `=`.
pub fn split_option(text: &str) -> Option<(&str, &str)> {
    let (name, value) = text.split_once('=')?;
    let name = name.trim();
    (!name.is_empty()).then_some((name, value.trim()))
}

/// `n` per second over `seconds`, for statistics (0 when no time passed).
pub fn per_second(n: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        n as f64 / seconds
    } else {
        0.0
    }
}

/// The statistics block printed at the end of a run, as `c` lines: every row of the engine's
/// statistics table ([`Stats::TABLE`]), in its order, the rates where the table asks for them.
pub fn stats_lines(stats: &Stats, seconds: f64) -> Vec<String> {
    table_lines(Stats::TABLE, stats, seconds, 0)
}

/// `c ---- statistics ----`, the time, then one `c LABEL VALUE` line per row of `table` (with
/// `(N/s)` where the row asks for a rate), the labels in a column as wide as the longest label
/// and at least `min_width` (OLL's block has kept a 20-column label since its first version).
/// Printing walks the table, so a counter cannot be left out of it.
pub fn table_lines<S>(
    table: &[StatSpec<S>],
    stats: &S,
    seconds: f64,
    min_width: usize,
) -> Vec<String> {
    let w = table
        .iter()
        .map(|spec| spec.label.len())
        .max()
        .unwrap_or(0)
        .max(min_width);
    let mut lines = vec!["c ---- statistics ----".to_string()];
    lines.push(format!("c {:<w$} {:>14.2} s", "time", seconds));
    for spec in table {
        let value = (spec.value)(stats);
        let rate = if spec.rate {
            format!("  ({:.0}/s)", per_second(value, seconds))
        } else {
            String::new()
        };
        lines.push(format!("c {:<w$} {value:>14}{rate}", spec.label));
    }
    lines
}

/// The statistics printed by default: three lines (the full table, [`stats_lines`], is for
/// `--stats` and `-v`). Why short: a newcomer running `grim-sat x.cnf` wants the answer and
/// the cost of getting it, not 23 counters; the counters a comparison needs (time, conflicts,
/// decisions, propagations and their rates) are all on the first line.
pub fn stats_summary(stats: &Stats, seconds: f64) -> Vec<String> {
    vec![
        "c ---- statistics (--stats for every counter) ----".to_string(),
        format!(
            "c time {seconds:.2} s, conflicts {} ({:.0}/s), decisions {}, propagations {} \
             ({:.0}/s)",
            stats.conflicts,
            per_second(stats.conflicts, seconds),
            stats.decisions,
            stats.propagations,
            per_second(stats.propagations, seconds),
        ),
        format!(
            "c restarts {}, learned {} ({} deleted), models checked {}",
            stats.restarts, stats.learned, stats.deleted, stats.models_checked
        ),
    ]
}

/// Parses a `--time` value: positive seconds, fractions allowed (shared by `grim-sat` and
/// `grim-encode`, so both accept and refuse the same texts with the same messages).
pub fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(format!("the time limit must be positive, got {text}"));
    }
    std::time::Duration::try_from_secs_f64(seconds).map_err(|e| format!("`{text}`: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that `options_help` names every row of `table`.
    fn assert_help_lists(table: &[OptionSpec]) {
        let help = options_help();
        for spec in table {
            assert!(
                help.contains(spec.name),
                "{} missing from:\n{help}",
                spec.name
            );
        }
    }

    /// The field names of a statistics struct, from its `Debug` form (`Name { a: 0, b: 0 }`),
    /// which lists every field whether or not the struct came from `stats_table!`.
    fn fields_of(debug: &str) -> Vec<String> {
        let inner = &debug[debug.find('{').expect("a struct") + 1..debug.rfind('}').expect("")];
        inner
            .split(',')
            .filter_map(|f| f.split(':').next())
            .map(|f| f.trim().to_string())
            .filter(|f| !f.is_empty())
            .collect()
    }

    /// Asserts that every field of `S` is a row of `table` and that `table_lines` prints every
    /// row under its label, each label once.
    fn assert_every_counter_printed<S: std::fmt::Debug + Default>(
        table: &[StatSpec<S>],
        min_width: usize,
    ) {
        let stats = S::default();
        let fields = fields_of(&format!("{stats:?}"));
        assert!(fields.len() >= 20, "parsed only {fields:?}");
        for field in &fields {
            assert!(
                table.iter().any(|spec| spec.name == field),
                "counter `{field}` has no row in the statistics table, so it is never printed"
            );
        }
        assert_eq!(table.len(), fields.len(), "rows that are no field");
        let lines = table_lines(table, &stats, 1.0, min_width);
        for spec in table {
            let printed = lines
                .iter()
                .filter(|l| {
                    l.strip_prefix("c ")
                        .is_some_and(|l| l.starts_with(spec.label))
                })
                .count();
            assert!(
                printed >= 1,
                "`{}` is never printed:\n{lines:?}",
                spec.label
            );
            assert!(
                table.iter().filter(|s| s.label == spec.label).count() == 1,
                "the label `{}` names two counters",
                spec.label
            );
        }
    }

    #[test]
    fn every_counter_of_the_engine_and_of_oll_is_printed_by_stats() {
        assert_every_counter_printed(Stats::TABLE, 0);
        assert_every_counter_printed(grim_maxsat::OllStats::TABLE, 20);
        // The engine's rates: decisions, propagations and conflicts, as before the table.
        let rated: Vec<&str> = Stats::TABLE
            .iter()
            .filter(|s| s.rate)
            .map(|s| s.label)
            .collect();
        assert_eq!(rated, ["decisions", "propagations", "conflicts"]);
    }

    #[test]
    fn the_options_help_lists_every_row_of_the_engine_table() {
        assert_help_lists(Options::TABLE);
    }

    #[test]
    fn the_options_help_lists_every_row_of_the_oll_table() {
        assert_help_lists(OllOptions::TABLE);
    }

    #[test]
    fn an_option_name_is_looked_up_in_the_engine_table_then_in_olls() {
        let (mut engine, mut oll) = (Options::default(), OllOptions::default());
        set_option(&mut engine, &mut oll, "seed", "7").unwrap();
        set_option(&mut engine, &mut oll, "stratify", "false").unwrap();
        set_option(&mut engine, &mut oll, "anytime_stall_conflicts", "500").unwrap();
        assert_eq!(
            (engine.seed, oll.stratify, oll.anytime_stall_conflicts),
            (7, false, 500)
        );
        // A renamed row's old name still works (for one release).
        set_option(&mut engine, &mut oll, "stall_conflicts", "600").unwrap();
        set_option(&mut engine, &mut oll, "first_model", "0").unwrap();
        assert_eq!(
            (oll.anytime_stall_conflicts, oll.anytime_first_model),
            (600, false)
        );
        assert!(matches!(
            set_option(&mut engine, &mut oll, "no_such", "1"),
            Err(OptionError::UnknownOption { .. })
        ));
        assert!(matches!(
            set_option(&mut engine, &mut oll, "trim", "x"),
            Err(OptionError::BadValue { .. })
        ));
    }

    #[test]
    fn every_line_of_the_options_help_fits_in_100_columns() {
        let help = options_help();
        let long: Vec<&str> = help.lines().filter(|l| l.chars().count() > 100).collect();
        assert!(
            long.is_empty(),
            "{} lines over 100 columns:\n{}",
            long.len(),
            long.join("\n")
        );
        for spec in Options::TABLE.iter().chain(OllOptions::TABLE) {
            let summary = spec.summary();
            assert!(
                summary.ends_with('.')
                    && summary.len() >= 20
                    && summary.chars().count() <= grim_solver::options::SUMMARY_MAX,
                "{}: the summary {summary:?} is not a whole sentence",
                spec.name
            );
        }
    }

    #[test]
    fn a_misspelt_option_gets_the_nearest_name_of_either_table() {
        let (mut engine, mut oll) = (Options::default(), OllOptions::default());
        for (typo, meant) in [
            ("shrnk", "shrink"),
            ("stratfy", "stratify"),
            ("seeed", "seed"),
        ] {
            let err = set_option(&mut engine, &mut oll, typo, "1").unwrap_err();
            assert!(
                err.to_string()
                    .contains(&format!("did you mean `{meant}`?")),
                "{typo}: {err}"
            );
        }
        let err = set_option(&mut engine, &mut oll, "completely_different", "1").unwrap_err();
        assert!(!err.to_string().contains("did you mean"), "{err}");
    }

    #[test]
    fn an_option_splits_at_the_first_equals_sign_and_needs_a_name() {
        assert_eq!(split_option("seed=3"), Some(("seed", "3")));
        assert_eq!(split_option("a=b=c"), Some(("a", "b=c")));
        assert_eq!(split_option("=3"), None);
        assert_eq!(split_option("seed"), None);
    }
}

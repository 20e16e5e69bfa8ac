//! The one statistics struct, declared as a table ([`stats_table!`]: field, printed label, rate,
//! doc). All counters are cumulative over the solver's lifetime (across
//! incremental calls), and each counter's doc ends with the one file that counts it —
//! `tests::every_counter_is_counted_in_the_file_its_doc_names` below reads the sources and
//! fails when a doc and the code part ways.

#![forbid(unsafe_code)]

/// One row of a statistics table: a counter, the label `grim-sat --stats` prints it under, and
/// whether its rate per second is printed beside it. The tables: the engine's [`Stats::TABLE`],
/// OLL's `OllStats::TABLE` in `grim-maxsat`.
pub struct StatSpec<S: 'static> {
    /// The field's name.
    pub name: &'static str,
    /// The printed label (at most 25 characters: the engine's column; OLL's is 20).
    pub label: &'static str,
    /// Whether `grim-sat` prints `(N/s)` beside the value.
    pub rate: bool,
    /// What it counts and the file that counts it.
    pub doc: &'static str,
    /// The counter's value in a statistics struct.
    pub value: fn(&S) -> u64,
}

impl<S> std::fmt::Debug for StatSpec<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StatSpec")
            .field("name", &self.name)
            .field("label", &self.label)
            .field("rate", &self.rate)
            .finish()
    }
}

/// Generates a statistics struct from its table, as [`options_table!`](crate::options_table)
/// does for options: the struct with one documented `u64` field per row (`Clone`, `Debug`,
/// `Default`, `PartialEq`, `Eq`), and `TABLE`, one [`StatSpec`] per row in declaration order, so
/// that a printer that walks the table prints every counter. A row is `/// doc` lines, then
/// `name: "label";`, or `name: "label" [rate];` for a counter printed with its rate per second.
#[macro_export]
macro_rules! stats_table {
    (
        $(#[$smeta:meta])*
        pub struct $Name:ident {
            $( $(#[doc = $doc:literal])* $name:ident : $label:literal $([$rate:ident])? ; )*
        }
    ) => {
        $(#[$smeta])*
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub struct $Name {
            $( $(#[doc = $doc])* pub $name: u64, )*
        }

        impl $Name {
            /// The table, one row per counter, in declaration (and printing) order.
            pub const TABLE: &'static [$crate::StatSpec<$Name>] = &[
                $( $crate::StatSpec {
                    name: stringify!($name),
                    label: $label,
                    rate: $crate::stats_table!(@rate $($rate)?),
                    doc: concat!($($doc),*),
                    value: |s: &$Name| s.$name,
                }, )*
            ];
        }
    };
    (@rate) => { false };
    (@rate rate) => { true };
}

stats_table! {
    /// Counters of the engine's work, read with [`crate::Solver::stats`]: one row each of the
    /// statistics table ([`Stats::TABLE`]: field, printed label, whether a rate per second is
    /// printed beside it, doc), which `grim-sat --stats` prints from, in this order.
    pub struct Stats {
        /// Calls of `solve`. Counted in `solver.rs`.
        solves: "solves";
        /// Decisions taken, assumptions excluded. Counted in `search.rs`.
        decisions: "decisions" [rate];
        /// Literals propagated: each trail literal whose watch lists were visited. Counted in
        /// `propagate.rs`.
        propagations: "propagations" [rate];
        /// Conflicts found by propagation during search. Counted in `search.rs`.
        conflicts: "conflicts" [rate];
        /// Restarts. Counted in `restart.rs`.
        restarts: "restarts";
        /// Switches between focused and stable mode. Counted in `mode.rs`.
        mode_switches: "mode switches";
        /// Random decision sequences started. Counted in `randec.rs`.
        random_sequences: "random sequences";
        /// Decisions on a randomly drawn variable. Counted in `randec.rs`.
        random_decisions: "random decisions";
        /// Rephasings. Counted in `rephase.rs`.
        rephases: "rephases";
        /// Learned-clause database reductions. Counted in `reduce.rs`.
        reductions: "reductions";
        /// Learned clauses added, units and binaries included. Counted in `search.rs`.
        learned: "learned";
        /// Learned unit clauses. Counted in `search.rs`.
        learned_units: "learned units";
        /// Literals in learned clauses before minimisation. Counted in `analyze.rs`.
        learned_literals: "learned literals";
        /// Literals removed by minimisation. Counted in `minimize.rs`.
        minimized_literals: "minimized literals";
        /// Literals removed by shrinking: a level's literals replaced by one. Counted in
        /// `shrink.rs`.
        shrunken_literals: "shrunken literals";
        /// Variables bumped because they are in the reason of a learned clause's literal (the
        /// reason side). Counted in `bump.rs`.
        reason_bumps: "reason-side bumps";
        /// Conflicts after which the search went back one level instead of the learned clause's
        /// backjump (chronological backtracking). Counted in `chrono.rs`.
        chrono_backtracks: "chronological backtracks";
        /// Conflicts on an out-of-order trail with a single literal on their highest level: that
        /// literal assigned on the level below, nothing learned. Counted in `chrono.rs`.
        chrono_implied: "out-of-order implications";
        /// Recomputations of the tier limits that changed one of them. Counted in `reduce.rs`.
        retiered: "retiered";
        /// Learned clauses deleted by reduction. Counted in `reduce.rs`.
        deleted: "deleted";
        /// Clauses removed because satisfied at level 0. Counted in `simplify.rs`.
        simplified: "simplified";
        /// Local-search walks. Counted in `walk.rs`.
        walks: "walks";
        /// Falsified clauses in the best assignment of the latest walk. Counted in `walk.rs`.
        walk_best_broken: "walk best broken";
        /// Walks whose effort was multiplied because the walks before them came close to a model
        /// (`walk_near_miss`). Counted in `walk.rs`.
        boosted_walks: "boosted walks";
        /// Vivification rounds. Counted in `vivify.rs`.
        vivify_rounds: "vivify rounds";
        /// Clauses shortened by vivification. Counted in `vivify.rs`.
        vivified: "vivified clauses";
        /// Irredundant clauses shortened by vivification (also in `vivified`). Counted in
        /// `vivify.rs`.
        vivified_irredundant: "vivified irredundant";
        /// Literals removed by vivification. Counted in `vivify.rs`.
        vivified_literals: "vivified literals";
        /// Elimination rounds during search (the round before the first search excluded).
        /// Counted in `eliminate.rs`.
        eliminate_rounds: "eliminate rounds";
        /// Variables eliminated. Counted in `eliminate.rs`.
        eliminated: "eliminated";
        /// Variables eliminated with gate-restricted resolution (an AND/OR, ITE or XOR gate or an
        /// equivalence found). Counted in `eliminate.rs`.
        gates: "gates";
        /// Of `gates`, those defined by an if-then-else gate. Counted in `eliminate.rs`.
        gates_ite: "ITE gates";
        /// Of `gates`, those defined by an XOR gate. Counted in `eliminate.rs`.
        gates_xor: "XOR gates";
        /// Clauses removed by subsumption before elimination. Counted in `eliminate.rs`.
        subsumed: "subsumed";
        /// Resolvents added by elimination. Counted in `eliminate.rs`.
        resolvents: "resolvents";
        /// Restorations of eliminated clauses for a reappearing variable. Counted in
        /// `eliminate.rs`.
        restored: "restored";
        /// Failed-literal probing rounds. Counted in `probe.rs`.
        probe_rounds: "probe rounds";
        /// Literals probed during search. Counted in `probe.rs`.
        probed: "probed";
        /// Failed literals found by probing (each fixes a unit). Counted in `probe.rs`.
        failed_literals: "failed literals";
        /// Hyper-binary resolvents added as learned binaries. Counted in `probe.rs`.
        hbr: "hyper binaries";
        /// Hyper-binary resolvents that subsumed and replaced their clause. Counted in `probe.rs`.
        hbr_subsuming: "hyper subsuming";
        /// Congruence-closure rounds that extracted gates. Counted in `congruence.rs`.
        congruence_rounds: "congruence rounds";
        /// Gates (AND, XOR, ITE) extracted by congruence closure. Counted in `congruence.rs`.
        congruence_gates: "congruence gates";
        /// Equivalences congruence closure derived. Counted in `congruence.rs`.
        congruence_merged: "congruence merged";
        /// Equivalent-literal substitution rounds that searched the graph. Counted in
        /// `substitute.rs`.
        substitute_rounds: "substitute rounds";
        /// Variables replaced by an equivalent literal. Counted in `substitute.rs`.
        substituted: "substituted";
        /// Transitive-reduction rounds that searched the graph. Counted in `transred.rs`.
        transred_rounds: "transred rounds";
        /// Binary clauses deleted as implied by a longer path of binaries. Counted in
        /// `transred.rs`.
        transred_removed: "transred removed";
        /// Failed literals transitive reduction found (its search from `¬a` reached `a`).
        /// Counted in `transred.rs`.
        transred_failed: "transred failed";
        /// Subsumption rounds during search. Counted in `subsume.rs`.
        subsume_rounds: "subsume rounds";
        /// Clauses deleted by forward subsumption during search. Counted in `subsume.rs`.
        subsumed_in_search: "subsumed in search";
        /// Literals removed by self-subsuming strengthening during search. Counted in
        /// `subsume.rs`.
        strengthened: "strengthened";
        /// Learned clauses made irredundant because they subsumed an irredundant one. Counted in
        /// `subsume.rs`.
        promoted: "promoted";
        /// Rounds in which an external propagator propagated or added something. Counted in
        /// `external.rs`.
        external_rounds: "external rounds";
        /// Literals an external propagator propagated (lazily or with a reason). Counted in
        /// `external.rs`.
        external_propagations: "external propagations";
        /// Reasons an external propagator was asked for (lazy ones that analysis needed, and every
        /// one when a proof is written). Counted in `external.rs`.
        external_reasons: "external reasons";
        /// Clauses an external propagator added (conflicts included). Counted in `external.rs`.
        external_clauses: "external clauses";
        /// Conflicts an external propagator caused (a falsified clause it added, or a literal it
        /// propagated that was false). Counted in `external.rs`.
        external_conflicts: "external conflicts";
        /// Complete assignments an external propagator refuted with clauses. Counted in
        /// `external.rs`.
        external_models_refuted: "external models refuted";
        /// Decisions an external propagator chose. Counted in `external.rs`.
        external_decisions: "external decisions";
        /// Models checked against the original clauses. Counted in `check.rs`.
        models_checked: "models checked";
        /// Lucky strategies tried (at most six, once per solver). Counted in `lucky.rs`.
        lucky_attempts: "lucky attempts";
        /// Models found by a lucky strategy, without search (0 or 1). Counted in `lucky.rs`.
        lucky_models: "lucky models";
        /// Lucky decisions that conflicted and were flipped to the other polarity (one
        /// discrepancy each). Counted in `lucky.rs`.
        lucky_flips: "lucky flips";
        /// Extension variables factoring introduced. Counted in `factor.rs`.
        factor_vars: "factor variables";
        /// Clauses factoring replaced. Counted in `factor.rs`.
        factor_removed: "factor removed";
        /// Clauses factoring added in their place. Counted in `factor.rs`.
        factor_added: "factor added";
        /// Budgets factoring was granted past its first because it kept paying
        /// (`factor_extend_gain`). Counted in `factor.rs`.
        factor_extensions: "factor extensions";
        /// Times factoring was undone because the user claimed an extension variable's index or
        /// connected a propagator. Counted in `factor.rs`.
        factor_undone: "factor undone";
        /// Arena garbage collections (compactions). Counted in `simplify.rs`.
        collections: "collections";
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    /// Each row `NAME: "label";` of `Stats` with the file its doc names (`Counted in `FILE`.`).
    fn documented_counters() -> Vec<(String, String)> {
        let text = include_str!("stats.rs");
        let body = &text[text.find("    pub struct Stats {").expect("the struct")..];
        let body = &body[..body.find("\n    }").expect("its end")];
        let mut out = Vec::new();
        let mut doc_lines = String::new();
        for line in body.lines().skip(1) {
            let line = line.trim();
            if let Some(d) = line.strip_prefix("///") {
                doc_lines.push_str(d);
                doc_lines.push(' ');
            } else if let Some((name, _label)) = line.split_once(':') {
                let name = name.trim();
                let doc = doc_lines.split_whitespace().collect::<Vec<_>>().join(" ");
                let file = doc
                    .split("Counted in `")
                    .nth(1)
                    .and_then(|rest| rest.split('`').next())
                    .unwrap_or_else(|| panic!("the doc of `{name}` names no file: {doc}"));
                out.push((name.to_string(), file.to_string()));
                doc_lines.clear();
            }
        }
        out
    }

    /// Whether `source` changes counter `name` (`stats.NAME += …` or `stats.NAME = …`).
    fn counts(source: &str, name: &str) -> bool {
        let needle = format!("stats.{name} ");
        source.match_indices(&needle).any(|(at, _)| {
            let rest = source[at + needle.len()..].trim_start();
            rest.starts_with("+=") || (rest.starts_with('=') && !rest.starts_with("=="))
        })
    }

    #[test]
    fn every_counter_is_counted_in_the_file_its_doc_names() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut sources = BTreeMap::new();
        for entry in std::fs::read_dir(&dir).expect("solver/src is readable") {
            let path = entry.expect("directory entry").path();
            if path.extension().is_some_and(|e| e == "rs") {
                let name = path.file_name().expect("a file name").to_string_lossy();
                let text = std::fs::read_to_string(&path).expect("a source file");
                sources.insert(name.into_owned(), text);
            }
        }
        let counters = documented_counters();
        assert!(counters.len() >= 20, "parsed only {counters:?}");
        for (name, file) in counters {
            let src = sources
                .get(&file)
                .unwrap_or_else(|| panic!("`{name}`'s doc names `{file}`, which does not exist"));
            assert!(
                counts(src, &name),
                "`{name}` is documented as counted in `{file}`, which never changes it"
            );
            let others: Vec<&String> = sources
                .iter()
                .filter(|(f, src)| **f != file && counts(src, &name))
                .map(|(f, _)| f)
                .collect();
            assert!(
                others.is_empty(),
                "`{name}` is counted in {others:?} too, not only in `{file}`"
            );
        }
    }
}

//! The one statistics struct. All counters are cumulative over the solver's lifetime (across
//! incremental calls), and each counter's doc ends with the one file that counts it —
//! `tests::every_counter_is_counted_in_the_file_its_doc_names` below reads the sources and
//! fails when a doc and the code part ways.

#![forbid(unsafe_code)]

/// Counters of the engine's work, read with [`crate::Solver::stats`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Calls of `solve`. Counted in `solver.rs`.
    pub solves: u64,
    /// Decisions taken, assumptions excluded. Counted in `search.rs`.
    pub decisions: u64,
    /// Literals propagated: each trail literal whose watch lists were visited. Counted in
    /// `propagate.rs`.
    pub propagations: u64,
    /// Conflicts found by propagation during search. Counted in `search.rs`.
    pub conflicts: u64,
    /// Restarts. Counted in `restart.rs`.
    pub restarts: u64,
    /// Switches between focused and stable mode. Counted in `mode.rs`.
    pub mode_switches: u64,
    /// Random decision sequences started. Counted in `randec.rs`.
    pub random_sequences: u64,
    /// Decisions on a randomly drawn variable. Counted in `randec.rs`.
    pub random_decisions: u64,
    /// Rephasings. Counted in `rephase.rs`.
    pub rephases: u64,
    /// Learned-clause database reductions. Counted in `reduce.rs`.
    pub reductions: u64,
    /// Learned clauses added, units and binaries included. Counted in `search.rs`.
    pub learned: u64,
    /// Learned unit clauses. Counted in `search.rs`.
    pub learned_units: u64,
    /// Literals in learned clauses before minimisation. Counted in `analyze.rs`.
    pub learned_literals: u64,
    /// Literals removed by minimisation. Counted in `minimize.rs`.
    pub minimized_literals: u64,
    /// Literals removed by shrinking: a level's literals replaced by one. Counted in
    /// `shrink.rs`.
    pub shrunken_literals: u64,
    /// Variables bumped because they are in the reason of a learned clause's literal (the
    /// reason side). Counted in `bump.rs`.
    pub reason_bumps: u64,
    /// Conflicts after which the search went back one level instead of the learned clause's
    /// backjump (chronological backtracking). Counted in `chrono.rs`.
    pub chrono_backtracks: u64,
    /// Conflicts on an out-of-order trail with a single literal on their highest level: that
    /// literal assigned on the level below, nothing learned. Counted in `chrono.rs`.
    pub chrono_implied: u64,
    /// Recomputations of the tier limits that changed one of them. Counted in `reduce.rs`.
    pub retiered: u64,
    /// Learned clauses deleted by reduction. Counted in `reduce.rs`.
    pub deleted: u64,
    /// Clauses removed because satisfied at level 0. Counted in `simplify.rs`.
    pub simplified: u64,
    /// Arena garbage collections (compactions). Counted in `simplify.rs`.
    pub collections: u64,
    /// Local-search walks. Counted in `walk.rs`.
    pub walks: u64,
    /// Falsified clauses in the best assignment of the latest walk. Counted in `walk.rs`.
    pub walk_best_broken: u64,
    /// Walks whose effort was multiplied because the walks before them came close to a model
    /// (`walk_near_miss`). Counted in `walk.rs`.
    pub boosted_walks: u64,
    /// Vivification rounds. Counted in `vivify.rs`.
    pub vivify_rounds: u64,
    /// Clauses shortened by vivification. Counted in `vivify.rs`.
    pub vivified: u64,
    /// Irredundant clauses shortened by vivification (also in `vivified`). Counted in
    /// `vivify.rs`.
    pub vivified_irredundant: u64,
    /// Literals removed by vivification. Counted in `vivify.rs`.
    pub vivified_literals: u64,
    /// Variables eliminated. Counted in `eliminate.rs`.
    pub eliminated: u64,
    /// Elimination rounds during search (the round before the first search excluded).
    /// Counted in `eliminate.rs`.
    pub eliminate_rounds: u64,
    /// Variables eliminated with gate-restricted resolution (an AND/OR, ITE or XOR gate or an
    /// equivalence found). Counted in `eliminate.rs`.
    pub gates: u64,
    /// Of `gates`, those defined by an if-then-else gate. Counted in `eliminate.rs`.
    pub gates_ite: u64,
    /// Of `gates`, those defined by an XOR gate. Counted in `eliminate.rs`.
    pub gates_xor: u64,
    /// Clauses removed by subsumption before elimination. Counted in `eliminate.rs`.
    pub subsumed: u64,
    /// Resolvents added by elimination. Counted in `eliminate.rs`.
    pub resolvents: u64,
    /// Restorations of eliminated clauses for a reappearing variable. Counted in
    /// `eliminate.rs`.
    pub restored: u64,
    /// Failed-literal probing rounds. Counted in `probe.rs`.
    pub probe_rounds: u64,
    /// Literals probed during search. Counted in `probe.rs`.
    pub probed: u64,
    /// Failed literals found by probing (each fixes a unit). Counted in `probe.rs`.
    pub failed_literals: u64,
    /// Hyper-binary resolvents added as learned binaries. Counted in `probe.rs`.
    pub hbr: u64,
    /// Hyper-binary resolvents that subsumed and replaced their clause. Counted in `probe.rs`.
    pub hbr_subsuming: u64,
    /// Congruence-closure rounds that extracted gates. Counted in `congruence.rs`.
    pub congruence_rounds: u64,
    /// Gates (AND, XOR, ITE) extracted by congruence closure. Counted in `congruence.rs`.
    pub congruence_gates: u64,
    /// Equivalences congruence closure derived. Counted in `congruence.rs`.
    pub congruence_merged: u64,
    /// Equivalent-literal substitution rounds that searched the graph. Counted in
    /// `substitute.rs`.
    pub substitute_rounds: u64,
    /// Variables replaced by an equivalent literal. Counted in `substitute.rs`.
    pub substituted: u64,
    /// Transitive-reduction rounds that searched the graph. Counted in `transred.rs`.
    pub transred_rounds: u64,
    /// Binary clauses deleted as implied by a longer path of binaries. Counted in
    /// `transred.rs`.
    pub transred_removed: u64,
    /// Failed literals transitive reduction found (its search from `¬a` reached `a`).
    /// Counted in `transred.rs`.
    pub transred_failed: u64,
    /// Subsumption rounds during search. Counted in `subsume.rs`.
    pub subsume_rounds: u64,
    /// Clauses deleted by forward subsumption during search. Counted in `subsume.rs`.
    pub subsumed_in_search: u64,
    /// Learned clauses made irredundant because they subsumed an irredundant one. Counted in
    /// `subsume.rs`.
    pub promoted: u64,
    /// Literals removed by self-subsuming strengthening during search. Counted in
    /// `subsume.rs`.
    pub strengthened: u64,
    /// Rounds in which an external propagator propagated or added something. Counted in
    /// `external.rs`.
    pub external_rounds: u64,
    /// Literals an external propagator propagated (lazily or with a reason). Counted in
    /// `external.rs`.
    pub external_propagations: u64,
    /// Reasons an external propagator was asked for (lazy ones that analysis needed, and every
    /// one when a proof is written). Counted in `external.rs`.
    pub external_reasons: u64,
    /// Clauses an external propagator added (conflicts included). Counted in `external.rs`.
    pub external_clauses: u64,
    /// Conflicts an external propagator caused (a falsified clause it added, or a literal it
    /// propagated that was false). Counted in `external.rs`.
    pub external_conflicts: u64,
    /// Complete assignments an external propagator refuted with clauses. Counted in
    /// `external.rs`.
    pub external_models_refuted: u64,
    /// Decisions an external propagator chose. Counted in `external.rs`.
    pub external_decisions: u64,
    /// Models checked against the original clauses. Counted in `check.rs`.
    pub models_checked: u64,
    /// Extension variables factoring introduced. Counted in `factor.rs`.
    pub factor_vars: u64,
    /// Clauses factoring replaced. Counted in `factor.rs`.
    pub factor_removed: u64,
    /// Clauses factoring added in their place. Counted in `factor.rs`.
    pub factor_added: u64,
    /// Times factoring was undone because the user claimed an extension variable's index or
    /// connected a propagator. Counted in `factor.rs`.
    pub factor_undone: u64,
    /// Lucky strategies tried (at most six, once per solver). Counted in `lucky.rs`.
    pub lucky_attempts: u64,
    /// Models found by a lucky strategy, without search (0 or 1). Counted in `lucky.rs`.
    pub lucky_models: u64,
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    /// Each `pub NAME: u64` of `Stats` with the file its doc names (`Counted in `FILE`.`).
    fn documented_counters() -> Vec<(String, String)> {
        let text = include_str!("stats.rs");
        let body = &text[text.find("pub struct Stats {").expect("the struct")..];
        let body = &body[..body.find("\n}").expect("its end")];
        let mut out = Vec::new();
        let mut doc_lines = String::new();
        for line in body.lines().skip(1) {
            let line = line.trim();
            if let Some(d) = line.strip_prefix("///") {
                doc_lines.push_str(d);
                doc_lines.push(' ');
            } else if let Some(field) = line.strip_prefix("pub ") {
                let name = field.split(':').next().expect("a field name").trim();
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

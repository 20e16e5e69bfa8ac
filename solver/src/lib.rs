//! grim-solver: grimoire's CDCL SAT engine — deterministic, incremental, and owning all of its
//! data.
//!
//! ```
//! use grim_solver::{Budget, Solver, Status};
//!
//! let mut s = Solver::new();
//! let (a, b) = (s.new_var(), s.new_var());
//! s.add_clause(&[a.pos(), b.pos()]);       // a ∨ b
//! s.add_clause(&[a.neg(), b.pos()]);       // ¬a ∨ b
//! assert_eq!(s.solve(&[], Budget::UNLIMITED), Status::Sat);
//! assert_eq!(s.value(b.pos()), Some(true));
//!
//! // Assumptions hold for one call; the failed ones form a core.
//! assert_eq!(s.solve(&[b.neg()], Budget::UNLIMITED), Status::Unsat);
//! assert_eq!(s.failed_assumptions(), &[b.neg()]);
//! ```
//!
//! # Life cycle
//! *configuring* (`new_var`, `add_clause`, `set_phase`) → `solve` → *sat* (read `value`,
//! `model`) | *unsat* (read `failed`) | *unknown* (budget or terminate) → back to
//! *configuring* on the next `add_clause` (which discards the model and the failed set) or the
//! next `solve`. Learned clauses survive across calls.
//!
//! # Parts, one file each
//! [`Solver`] is a composition: one field per part, each part's state a struct in the file
//! named after its technique, which states the part's invariants and who may write it. The
//! full map — every piece of state, its owner, its writers and its readers, and the rules
//! for adding a technique — is `solver/ARCHITECTURE.md`, rendered here as [`architecture`].
//!
//! | file | owns (struct) | what it does |
//! |---|---|---|
//! | `types` | — | `Var`, `Lit` (packed 2·var + sign), `Status`, `Budget`; [`normalise_clause`], the one tautology check |
//! | `options`, `stats` | `Options`, `Stats` | the one options table; the one statistics table (`stats_table!`: what `grim-sat --stats` prints) |
//! | `solver` | `Solver` | the composition and the public API; the answers |
//! | `trail` | `Trail` | values, levels, reasons, the trail and backtracking |
//! | `clause` | `Arena`, `Clauses` | the clause arena (u32 offsets); the clause lists |
//! | `watch` | `Watches` | watch lists and their invariants |
//! | `propagate` | — | two-watched-literal unit propagation with blockers and binary watches |
//! | `chrono` | — | chronological backtracking: the backtrack level after a conflict, conflicts on an out-of-order trail |
//! | `analyze` | `Analysis` | 1UIP learning, LBD, clause bumping, final conflict for assumptions |
//! | `bump` | `Bump` | what a conflict bumps (with the reason side of the learned clause), handed to the decision order in use |
//! | `minimize` | (in `Analysis`) | recursive learned-clause minimisation |
//! | `shrink` | (in `Analysis`) | learned-clause shrinking: a level's literals replaced by their block UIP |
//! | `decide`, `heap`, `queue` | `Scores`, `Vsids`, `Phases`, `VarHeap`, `Queue` | the decision orders: EVSIDS scores and heap (stable mode), the VMTF queue (focused mode); phase selection (user, target, saved) |
//! | `randec` | `RandomDecisions` | random decision sequences: a few conflicts of random decisions in focused mode now and then |
//! | `restart` | `Restart` | glucose EMA restarts (focused), Luby (stable) |
//! | `mode` | `Mode` | switching between focused and stable mode |
//! | `rephase` | `Rephase` | target/best phases and rephasing |
//! | `reduce` | `Reduce` | the three-tier learned-clause database; clause activities |
//! | `vivify` | `Vivify` | learned-clause vivification after each reduction |
//! | `walk`, `rng` | `Walk`, `SplitMix64` | ProbSAT local search as a rephasing step; the seeded random stream |
//! | `probe` | `Probing` | unit-propagation probes under assumptions (`Solver::probe`); failed-literal probing with hyper-binary resolution during search |
//! | `subsume` | `Subsume` | forward subsumption and self-subsuming strengthening during search |
//! | `congruence` | `Congruence` | congruence closure: AND, XOR and ITE gates with the same inputs merged into equivalences |
//! | `substitute` | `Substitute` | equivalent-literal substitution (SCCs of the binary implication graph) during search |
//! | `transred` | `TransRed` | transitive reduction of the binary implication graph during search |
//! | `eliminate` | `Elimination` | bounded variable elimination (AND/OR, ITE and XOR gates) before and during search; model reconstruction |
//! | `factor` | `Factor` | bounded variable addition: pairwise products of clauses re-encoded through extension variables the API never shows; undone when the user claims their indices |
//! | `lucky` | `Lucky` | the lucky phases: fixed all-false, all-true and Horn descents once, before the first search |
//! | `external` | `External` | the external-propagator interface ([`Propagator`]): notifications, lazy reasons, added clauses, model checks |
//! | `simplify` | `Simplify` | level-0 simplification and garbage collection |
//! | `check` | `ModelCheck` | the copy of the clauses and the model check |
//! | `proof` | `Proof` | DRAT and LRAT proof output (text and binary); the clause identifiers |
//! | `lrat` | `Lrat` | LRAT hints: the unit-propagation chain that justifies each derived clause; level-0 unit clauses |
//! | `budget` | `Limits`, `Terminator` | budgets and the terminate flag |
//! | `inprocess` | `Rounds` | what inprocessing rounds share: the √-schedule, the effort budget, starting at the root |
//! | `search` | `Progress` | the CDCL loop, a ladder of the above; progress reports |
//!
//! `unsafe` lives in two files only, `propagate.rs` and `clause.rs`, each block with a
//! `// SAFETY:` comment naming the invariant it relies on; every other module is
//! `#![forbid(unsafe_code)]`.
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod analyze;
/// The engine's architecture: its parts, who owns and who writes each piece of state (the
/// text of `solver/ARCHITECTURE.md`; a module with no items, for the documentation only).
#[doc = include_str!("../ARCHITECTURE.md")]
pub mod architecture {}
mod budget;
mod bump;
mod check;
mod chrono;
mod clause;
mod congruence;
mod decide;
mod eliminate;
pub mod external;
mod factor;
mod heap;
mod inprocess;
mod lrat;
mod lucky;
mod minimize;
mod mode;
pub mod options;
mod probe;
mod proof;
mod propagate;
mod queue;
mod randec;
mod reduce;
mod rephase;
mod restart;
mod rng;
mod search;
mod shrink;
mod simplify;
mod solver;
mod stats;
mod substitute;
mod subsume;
mod trail;
mod transred;
mod types;
mod vivify;
mod walk;
mod watch;

pub use budget::Terminator;
pub use external::{ClauseKind, Context, Propagator, PropagatorError};
pub use options::{OptionError, OptionKind, OptionSpec, Options};
pub use probe::Probes;
pub use proof::ProofFormat;
pub use rng::SplitMix64;
pub use search::ProgressFn;
pub use solver::Solver;
pub use stats::{StatSpec, Stats};
pub use types::{Budget, Lit, Status, Var, normalise_clause};

#[cfg(test)]
mod tests {
    /// The crate doc and `ARCHITECTURE.md` say `unsafe` lives in `propagate.rs` and
    /// `clause.rs` only; this keeps them right: any other file that mentions the keyword in
    /// code (not in a comment) fails, and so does either of the two if it stops using it.
    #[test]
    fn unsafe_lives_in_the_files_the_docs_name() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let allowed = ["propagate.rs", "clause.rs"];
        let mut users = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("solver/src is readable") {
            let path = entry.expect("directory entry").path();
            let name = path
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            // Spelled in pieces so that this test does not find itself.
            let keyword = concat!("uns", "afe");
            let forms = [format!("{keyword} {{"), format!("{keyword} fn")];
            let code_uses = text.lines().any(|line| {
                let code = line.split("//").next().unwrap_or("");
                forms.iter().any(|f| code.contains(f.as_str()))
            });
            if code_uses {
                users.push(name.clone());
            }
            let forbids = text.contains("#![forbid(unsafe_code)]");
            if !allowed.contains(&name.as_str()) && name != "lib.rs" {
                assert!(forbids, "{name} does not say #![forbid(unsafe_code)]");
            }
        }
        users.sort();
        assert_eq!(
            users,
            vec!["clause.rs", "propagate.rs"],
            "files with unsafe code"
        );
    }

    /// The crate map above must name every module, and `ARCHITECTURE.md` every field of
    /// `Solver`: the map is how a newcomer finds the owner of a piece of state.
    #[test]
    fn the_crate_map_and_the_architecture_note_name_every_module_and_every_part() {
        // The first cell of every table row, the rows opening with `prefix`.
        let first_cells = |text: &'static str, prefix: &'static str| -> Vec<&'static str> {
            text.lines()
                .filter_map(|l| l.strip_prefix(prefix))
                .filter_map(|row| row.split(" | ").next())
                .collect()
        };
        let lib = include_str!("lib.rs");
        let map = first_cells(lib, "//! | ");
        let modules: Vec<&str> = lib
            .lines()
            .filter_map(|l| {
                l.strip_prefix("mod ")
                    .or_else(|| l.strip_prefix("pub mod "))
            })
            .filter_map(|l| l.strip_suffix(';'))
            .collect();
        assert!(modules.len() > 20, "parsed {modules:?}");
        // The names no cell mentions (in backquotes).
        let missing = |names: &[&str], cells: &[&str]| -> Vec<String> {
            names
                .iter()
                .filter(|n| !cells.iter().any(|c| c.contains(&format!("`{n}`"))))
                .map(|n| n.to_string())
                .collect()
        };
        assert_eq!(
            missing(&modules, &map),
            Vec::<String>::new(),
            "not in the crate map"
        );
        let note = include_str!("../ARCHITECTURE.md");
        let parts_table = note
            .split("## The parts")
            .nth(1)
            .and_then(|rest| rest.split("\n## ").next())
            .expect("ARCHITECTURE.md has a section `## The parts`");
        let parts = first_cells(parts_table, "| ");
        let solver = include_str!("solver.rs");
        let body = &solver[solver.find("pub struct Solver {").expect("the struct")..];
        let body = &body[..body.find("\n}").expect("its end")];
        let fields: Vec<&str> = body
            .lines()
            .map(str::trim)
            .filter(|l| !l.starts_with("//"))
            .filter_map(|l| l.split_once(':'))
            .filter_map(|(lhs, _)| lhs.split_whitespace().last())
            .filter(|name| name.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
            .collect();
        assert!(fields.len() > 20, "parsed {fields:?}");
        assert_eq!(
            missing(&fields, &parts),
            Vec::<String>::new(),
            "Solver fields not in ARCHITECTURE.md's table of parts"
        );
    }
}

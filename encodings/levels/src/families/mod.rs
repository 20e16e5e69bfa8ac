//! The rule families, and the table the stages walk.
//!
//! One module per family; each owns its rule types and their reading (`rule.rs`), its clauses,
//! its part of the search-time propagator where it has one, and its names in a clash, and
//! implements [`Family`] for the stages to call. `ARCHITECTURE.md` (next to `src/`) maps them.
//!
//! The table's order is the encoding order, which the export's variable numbering and clause
//! order depend on (so a new family goes where it appends, usually before the preferences,
//! which hint every variable encoded before them), and the order in which a clash lists
//! rules. The read stage runs the table in passes ([`crate::family::Pass`]), the propagator
//! orders its parts by their own rank (`search.rs`).

pub(crate) mod acyclic;
pub(crate) mod adjacency;
pub(crate) mod chokepoints;
pub(crate) mod connectivity;
pub(crate) mod counts;
pub(crate) mod dead_ends;
pub(crate) mod enclosure;
pub(crate) mod layers;
pub(crate) mod locks;
pub(crate) mod paths;
pub(crate) mod preferences;
pub(crate) mod runs;
pub(crate) mod separation;
pub(crate) mod symmetry;
pub(crate) mod tiles;

use crate::family::Family;

/// Every family, in encoding order.
pub(crate) const FAMILIES: [&dyn Family; 15] = [
    &tiles::Tiles,
    &adjacency::Adjacency,
    &layers::Layers,
    &counts::Counts,
    &enclosure::Enclosure,
    &connectivity::Connectivity,
    &paths::Paths,
    &runs::Runs,
    &dead_ends::DeadEnds,
    &separation::Separation,
    &symmetry::Symmetry,
    &acyclic::Acyclic,
    &chokepoints::Chokepoints,
    &locks::Locks,
    &preferences::Prefs,
];

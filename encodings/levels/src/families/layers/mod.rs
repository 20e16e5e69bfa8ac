//! Extra layers: exactly one value per cell (pairwise, as for tiles), and `requires`: a value
//! may only sit on the tiles it names (`v(c) → ⋁ allowed tiles of c`; the unit `¬v(c)` when the
//! cell's domain leaves none).
//!
//! The family is this file and `rule.rs` (the `layers` list's reading). A value's `requires`
//! can clash, and so can a value a regenerated level keeps (`keep.rs`: a unit `v(c)` per kept
//! cell and layer, switched on its own in a clash like a pin).

pub(crate) mod rule;

use crate::error::GridError;
use crate::family::{Family, Pass, Reading, Switch, text};
use crate::model::GridModel;
use crate::spec::reader::field;
use crate::spec::{GridSpec, MAX_TILES, RuleRef, RuleTag};
use grim_solver::Lit;

/// The family in the table (`families/mod.rs`).
pub(crate) struct Layers;

/// Its name, and the field its layers are listed under.
const NAME: &str = "layers";

/// The tag of `layers[layer].values[value].requires`: the rule number packs the two indices
/// (a layer has at most [`MAX_TILES`] values).
fn tag(layer: usize, value: usize) -> RuleTag {
    RuleTag::new(NAME, layer * MAX_TILES + value)
}

impl Family for Layers {
    fn fields(&self) -> &'static [&'static str] {
        &[NAME]
    }

    fn read(&self, at: &mut Reading<'_>) -> Result<(), GridError> {
        // The layers are names: the read stage moves them into the spec.
        match field(at.doc, NAME) {
            Some(v) if at.pass == Pass::Names => rule::read_layers(at.reader, v),
            _ => Ok(()),
        }
    }

    /// Emits the layer clauses.
    fn encode(&self, m: &mut GridModel) {
        for l in 0..m.spec.layers.len() {
            let n = m.spec.layers[l].values.len();
            for c in 0..m.spec.cells() {
                let lits: Vec<_> = (0..n).map(|v| m.value_lit(l, c, v)).collect();
                m.problem.add_clause(&lits, None);
                for i in 0..n {
                    for j in i + 1..n {
                        m.problem.add_clause(&[!lits[i], !lits[j]], None);
                    }
                }
                for (v, &lit) in lits.iter().enumerate() {
                    if let Some(req) = m.spec.layers[l].values[v].requires.clone() {
                        let mut clause = vec![!lit];
                        clause.extend(m.set_lits(c, &req));
                        m.tag(Some(tag(l, v)));
                        m.problem.add_clause(&clause, None);
                        m.tag(None);
                    }
                }
            }
        }
        for &(_, l, c, v) in &m.spec.origins.kept_values {
            let lit = m.value_lit(l, c, v);
            m.problem.add_clause(&[lit], None);
        }
    }

    /// Every value's `requires`, named with the document's words (`items.key only on floor`).
    fn clash_rules(&self, spec: &GridSpec) -> Vec<(RuleRef, Switch)> {
        let doc = spec.document();
        let mut out = Vec::new();
        for (l, layer) in spec.layers.iter().enumerate() {
            for (v, value) in layer.values.iter().enumerate() {
                if value.requires.is_none() {
                    continue;
                }
                let written = doc
                    .get(NAME)
                    .and_then(|x| x.get(l))
                    .and_then(|x| x.get("values"))
                    .and_then(|x| x.get(v));
                let name = RuleRef::new(
                    format!("layers[{l}].values[{v}].requires"),
                    format!(
                        "{}.{} only on {}",
                        layer.name,
                        value.name,
                        text(written.and_then(|w| w.get("requires")))
                    ),
                );
                out.push((name, Switch::Tagged(tag(l, v))));
            }
        }
        let kept = spec.origins.kept_values.iter().enumerate();
        out.extend(kept.map(|(i, (rule, ..))| (rule.clone(), Switch::Own(i))));
        out
    }

    /// Drops the kept values (they come back one by one, [`Switch::Own`]).
    fn open(&self, spec: &mut GridSpec) {
        spec.origins.kept_values.clear();
    }

    /// A kept value: its unit.
    fn own_clauses(&self, spec: &GridSpec, m: &GridModel, rule: usize) -> Vec<Vec<Lit>> {
        match spec.origins.kept_values.get(rule) {
            Some(&(_, l, c, v)) => vec![vec![m.value_lit(l, c, v)]],
            None => Vec::new(),
        }
    }
}

//! Extra layers: exactly one value per cell (pairwise, as for tiles), and `requires`: a value
//! may only sit on the tiles it names (`v(c) → ⋁ allowed tiles of c`; the unit `¬v(c)` when the
//! cell's domain leaves none).

use super::GridModel;
use super::model::RuleTag;

/// Emits the layer clauses.
pub(crate) fn encode(m: &mut GridModel) {
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
                    m.tag(Some(RuleTag::Requires { layer: l, value: v }));
                    m.problem.add_clause(&clause, None);
                    m.tag(None);
                }
            }
        }
    }
}

//! The generators' checks: determinism per seed, sizes refused before allocating, and each
//! family's answer or optimum against brute force on small members — the instances named by
//! their `grim-gen` command lines ([`cnf`](super::cnf), [`wcnf`](super::wcnf)).

use super::*;

/// Every assignment of `f`'s variables, by brute force (only for ≤ 20 variables).
fn brute_force_sat(f: &GenCnf) -> bool {
    assert!(f.num_vars <= 20, "brute force on {} variables", f.num_vars);
    (0u32..1 << f.num_vars).any(|bits| {
        let model: Vec<bool> = (0..f.num_vars).map(|i| bits >> i & 1 == 1).collect();
        f.is_satisfied_by(&model)
    })
}

fn literals_in_range(f: &GenCnf) -> bool {
    f.clauses
        .iter()
        .flatten()
        .all(|&l| l != 0 && l.unsigned_abs() <= f.num_vars)
}

#[test]
fn the_same_seed_gives_the_same_formula_and_another_seed_another() {
    let a = cnf("ksat --vars 30 --clauses 100 --k 3 --seed 7").unwrap();
    let b = cnf("ksat --vars 30 --clauses 100 --k 3 --seed 7").unwrap();
    let c = cnf("ksat --vars 30 --clauses 100 --k 3 --seed 8").unwrap();
    assert_eq!(a, b);
    assert_ne!(a.clauses, c.clauses);
    assert_eq!(
        cnf("parity --vertices 10 --edges 15 --max-degree 4 --unsat --seed 3"),
        cnf("parity --vertices 10 --edges 15 --max-degree 4 --unsat --seed 3")
    );
}

#[test]
fn random_ksat_clauses_have_k_distinct_variables_in_range() {
    for k in 1..=5u32 {
        let f = cnf(&format!("ksat --vars 5 --clauses 200 --k {k} --seed {k}")).unwrap();
        assert_eq!(f.clauses.len(), 200);
        assert!(literals_in_range(&f));
        for clause in &f.clauses {
            let mut vars: Vec<u64> = clause.iter().map(|l| l.unsigned_abs()).collect();
            vars.sort_unstable();
            vars.dedup();
            assert_eq!(vars.len(), k as usize, "clause {clause:?} for k = {k}");
        }
    }
    assert_eq!(
        cnf("ksat --vars 2 --clauses 1 --k 3 --seed 0"),
        Err(GenError::ClauseWidth { k: 3, vars: 2 })
    );
    assert!(cnf("ksat --vars 3 --clauses 0 --k 0 --seed 0").is_err());
}

#[test]
fn absurd_sizes_are_refused_before_allocating() {
    let (u32_max, u64_max) = (u32::MAX, u64::MAX);
    for line in [
        format!("ksat --vars 10 --clauses {u64_max} --k 3 --seed 0"),
        format!("ksat --vars {u64_max} --clauses 1 --k 3 --seed 0"),
        format!("php --holes {u32_max}"),
        format!("ordering --n {u32_max}"),
        format!("queens --n {u32_max}"),
        format!("latin --order {u32_max} --givens=0.5 --seed 0"),
        format!("color --vertices {u32_max} --colors {u32_max} --edge-probability=0.5 --seed 0"),
    ] {
        let refused = cnf(&line);
        assert!(
            matches!(refused, Err(GenError::TooLarge { .. })),
            "{line}: {refused:?}"
        );
    }
    assert!(matches!(
        cnf("color --vertices 3 --colors 3 --edge-probability=NaN --seed 0"),
        Err(GenError::Probability { .. })
    ));
    assert!(
        cnf(&format!(
            "parity --vertices {u32_max} --edges {u64_max} --max-degree 4 --seed 0"
        ))
        .is_err()
    );
    assert!(cnf("parity --vertices 10 --edges 9 --max-degree 13 --seed 0").is_err());
    assert!(cnf("parity --vertices 10 --edges 8 --max-degree 4 --seed 0").is_err()); // fewer edges than a tree
    assert!(cnf("parity --vertices 10 --edges 21 --max-degree 4 --seed 0").is_err()); // more than 10·4/2
}

#[test]
fn small_members_of_each_family_have_the_answer_their_construction_claims() {
    let cases = [
        cnf("php --holes 0").unwrap(),
        cnf("php --holes 1").unwrap(),
        cnf("php --holes 2").unwrap(),
        cnf("php --holes 3").unwrap(),
        cnf("parity --vertices 6 --edges 8 --max-degree 3 --seed 1").unwrap(),
        cnf("parity --vertices 6 --edges 8 --max-degree 3 --unsat --seed 1").unwrap(),
        cnf("parity --vertices 8 --edges 12 --max-degree 4 --seed 2").unwrap(),
        cnf("parity --vertices 8 --edges 12 --max-degree 4 --unsat --seed 2").unwrap(),
        cnf("parity --vertices 1 --edges 0 --max-degree 1 --unsat --seed 2").unwrap(),
        cnf("parity --vertices 2 --edges 1 --max-degree 1 --seed 2").unwrap(),
        cnf("color --vertices 6 --colors 3 --edge-probability=0.7 --planted --seed 4").unwrap(),
        cnf("color --vertices 4 --colors 3 --edge-probability=1.0 --seed 4").unwrap(),
        cnf("color --vertices 3 --colors 3 --edge-probability=1.0 --seed 4").unwrap(),
        cnf("color --vertices 3 --colors 2 --edge-probability=1.0 --seed 4").unwrap(),
        cnf("ordering --n 0").unwrap(),
        cnf("ordering --n 1").unwrap(),
        cnf("ordering --n 3").unwrap(),
        cnf("queens --n 1").unwrap(),
        cnf("queens --n 2").unwrap(),
        cnf("queens --n 3").unwrap(),
        cnf("queens --n 4").unwrap(),
        cnf("latin --order 2 --givens=0.5 --seed 9").unwrap(),
    ];
    for f in &cases {
        assert!(literals_in_range(f), "{}", f.description);
        let sat = brute_force_sat(f);
        let claimed = f.expected;
        assert_ne!(claimed, Expected::Unknown, "{}", f.description);
        assert_eq!(
            sat,
            claimed == Expected::Sat,
            "{} claims {claimed} but brute force says sat = {sat}",
            f.description
        );
    }
}

#[test]
fn tseitin_graphs_have_the_requested_edges_and_bounded_degree() {
    for seed in 0..20 {
        let f = cnf(&format!(
            "parity --vertices 20 --edges 35 --max-degree 4{} --seed {seed}",
            if seed % 2 == 0 { "" } else { " --unsat" }
        ))
        .unwrap();
        assert_eq!(f.num_vars, 35);
        let mut occurrences = vec![0u32; 36];
        for clause in &f.clauses {
            assert!(clause.len() <= 4, "{clause:?}");
        }
        // Each edge variable occurs in the clauses of exactly its two endpoints.
        for clause in &f.clauses {
            for l in clause {
                occurrences[l.unsigned_abs() as usize] += 1;
            }
        }
        assert!(occurrences[1..].iter().all(|&o| o > 0), "{occurrences:?}");
    }
}

#[test]
fn a_planted_latin_square_is_a_model_of_its_formula() {
    // Rebuild the planted square the same way as the generator and check it satisfies
    // the formula with every cell given.
    let f = cnf("latin --order 6 --givens=1.0 --seed 11").unwrap();
    let units: Vec<i64> = f
        .clauses
        .iter()
        .filter(|c| c.len() == 1)
        .map(|c| c[0])
        .collect();
    assert_eq!(units.len(), 36);
    let mut model = vec![false; f.num_vars as usize];
    for u in units {
        model[(u - 1) as usize] = true;
    }
    assert!(f.is_satisfied_by(&model));
}

#[test]
fn the_dimacs_text_has_comments_a_header_and_zero_terminated_clauses() {
    let f = cnf("php --holes 1").unwrap();
    assert_eq!(
        f.to_dimacs_string(),
        "c generated by grim-gen php holes=1\nc expected UNSAT by construction\n\
         p cnf 2 3\n1 0\n2 0\n-1 -2 0\n"
    );
}

#[test]
fn below_stays_below_and_covers_its_range() {
    let mut rng = SplitMix64::new(0);
    let mut seen = [0u32; 7];
    for _ in 0..7000 {
        let x = rng.below(7);
        seen[x as usize] += 1;
    }
    assert!(seen.iter().all(|&s| s > 800), "{seen:?}");
    assert_eq!(rng.below(0), 0);
}

#[test]
fn maxsat_generators_are_deterministic_and_their_hard_clauses_hold_somewhere() {
    let a =
        wcnf("maxsat --vars 12 --hard 30 --hard-k 3 --soft 40 --soft-k 3 --max-weight 9 --seed 5")
            .unwrap();
    assert_eq!(
        a,
        wcnf("maxsat --vars 12 --hard 30 --hard-k 3 --soft 40 --soft-k 3 --max-weight 9 --seed 5")
            .unwrap()
    );
    assert_ne!(
        a,
        wcnf("maxsat --vars 12 --hard 30 --hard-k 3 --soft 40 --soft-k 3 --max-weight 9 --seed 6")
            .unwrap()
    );
    assert_eq!((a.hard.len(), a.soft.len()), (30, 40));
    assert!(
        a.soft
            .iter()
            .all(|(w, c)| (1..=9).contains(w) && (1..=3).contains(&c.len()))
    );
    let feasible = (0u32..1 << 12).any(|bits| {
        let model: Vec<bool> = (0..12).map(|i| bits >> i & 1 == 1).collect();
        a.cost(&model).is_some()
    });
    assert!(
        feasible,
        "the planted assignment satisfies the hard clauses"
    );
    let vc = wcnf("vertex-cover --vertices 8 --edges 12 --max-weight 5 --seed 1").unwrap();
    assert_eq!((vc.hard.len(), vc.soft.len()), (12, 8));
    let total: u64 = vc.soft.iter().map(|(w, _)| w).sum();
    assert_eq!(vc.cost(&[true; 8]), Some(total));
    assert_eq!(
        wcnf("vertex-cover --vertices 3 --edges 100 --max-weight 1 --seed 0")
            .unwrap()
            .hard
            .len(),
        3
    );
    assert!(
        wcnf("maxsat --vars 3 --hard 1 --hard-k 4 --soft 1 --soft-k 1 --max-weight 1 --seed 0")
            .is_err()
    );
    assert!(wcnf("vertex-cover --vertices 1 --edges 1 --max-weight 1 --seed 0").is_err());
}

#[test]
fn the_wcnf_text_marks_hard_clauses_and_weights() {
    let f = GenWcnf {
        num_vars: 2,
        hard: vec![vec![1, -2]],
        soft: vec![(3, vec![2]), (1, vec![])],
        description: "test".to_string(),
    };
    assert_eq!(
        f.to_wcnf_string(),
        "c generated by grim-gen test\nh 1 -2 0\n3 2 0\n1 0\n"
    );
}

/// The optimum of `f` by brute force (only for ≤ 16 variables); `None` when infeasible.
fn brute_force_optimum(f: &GenWcnf) -> Option<u64> {
    assert!(f.num_vars <= 16, "brute force on {} variables", f.num_vars);
    (0u32..1 << f.num_vars)
        .filter_map(|bits| {
            let model: Vec<bool> = (0..f.num_vars).map(|i| bits >> i & 1 == 1).collect();
            f.cost(&model)
        })
        .min()
}

#[test]
fn random_ksat_at_a_ratio_rounds_the_clause_count_and_is_seeded() {
    let f = cnf("ksat --vars 250 --ratio=4.26 --k 3 --seed 1").unwrap();
    assert_eq!(f.clauses.len(), 1065);
    assert_eq!(
        f.clauses,
        cnf("ksat --vars 250 --clauses 1065 --k 3 --seed 1")
            .unwrap()
            .clauses
    );
    assert_eq!(
        f,
        cnf("ksat --vars 250 --ratio=4.26 --k 3 --seed 1").unwrap()
    );
    assert!(f.description.contains("ratio=4.26"), "{}", f.description);
    assert!(cnf("ksat --vars 10 --ratio=-1.0 --k 3 --seed 0").is_err());
    assert!(cnf("ksat --vars 10 --ratio=NaN --k 3 --seed 0").is_err());
    assert!(matches!(
        cnf("ksat --vars 1000 --ratio=1e12 --k 3 --seed 0"),
        Err(GenError::TooLarge { .. })
    ));
    // Far above the threshold, small instances are UNSAT; far below, SAT.
    assert!(!brute_force_sat(
        &cnf("ksat --vars 12 --ratio=10.0 --k 3 --seed 4").unwrap()
    ));
    assert!(brute_force_sat(
        &cnf("ksat --vars 12 --ratio=1.0 --k 3 --seed 4").unwrap()
    ));
}

#[test]
fn the_weighted_families_are_deterministic_per_seed() {
    assert_eq!(
        wcnf("maxcut --vertices 12 --edge-probability=0.5 --max-weight 9 --seed 3"),
        wcnf("maxcut --vertices 12 --edge-probability=0.5 --max-weight 9 --seed 3")
    );
    assert_ne!(
        wcnf("maxcut --vertices 12 --edge-probability=0.5 --max-weight 9 --seed 3"),
        wcnf("maxcut --vertices 12 --edge-probability=0.5 --max-weight 9 --seed 4")
    );
    assert_eq!(
        wcnf("wis --vertices 12 --edge-probability=0.3 --max-weight 9 --seed 3"),
        wcnf("wis --vertices 12 --edge-probability=0.3 --max-weight 9 --seed 3")
    );
    assert_ne!(
        wcnf("wis --vertices 12 --edge-probability=0.3 --max-weight 9 --seed 3"),
        wcnf("wis --vertices 12 --edge-probability=0.3 --max-weight 9 --seed 4")
    );
    assert_eq!(
        wcnf("set-cover --elements 20 --sets 10 --per-element 3 --max-weight 9 --seed 3"),
        wcnf("set-cover --elements 20 --sets 10 --per-element 3 --max-weight 9 --seed 3")
    );
    assert_ne!(
        wcnf("set-cover --elements 20 --sets 10 --per-element 3 --max-weight 9 --seed 3"),
        wcnf("set-cover --elements 20 --sets 10 --per-element 3 --max-weight 9 --seed 4")
    );
    assert_eq!(
        wcnf("lex --vars 10 --clauses 40 --levels 3 --seed 3"),
        wcnf("lex --vars 10 --clauses 40 --levels 3 --seed 3")
    );
    assert_ne!(
        wcnf("lex --vars 10 --clauses 40 --levels 3 --seed 3"),
        wcnf("lex --vars 10 --clauses 40 --levels 3 --seed 4")
    );
    // The text is a function of the instance, so the bytes are reproducible too.
    assert_eq!(
        wcnf("maxcut --vertices 6 --edge-probability=0.5 --max-weight 1 --seed 1")
            .unwrap()
            .to_wcnf_string(),
        wcnf("maxcut --vertices 6 --edge-probability=0.5 --max-weight 1 --seed 1")
            .unwrap()
            .to_wcnf_string()
    );
}

/// Weight of the heaviest set of vertices with no two joined by an edge, by brute force.
fn heaviest_independent_set(n: u64, edges: &[(i64, i64)], weight: &[u64]) -> u64 {
    (0u32..1 << n)
        .filter(|bits| {
            edges
                .iter()
                .all(|&(u, v)| bits >> (u - 1) & 1 == 0 || bits >> (v - 1) & 1 == 0)
        })
        .map(|bits| {
            (0..n)
                .filter(|i| bits >> i & 1 == 1)
                .map(|i| weight[i as usize])
                .sum()
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn the_weighted_families_have_the_optima_their_problems_define() {
    // Max-cut of the complete graph K4, unit weights: the best cut has 4 of 6 edges.
    let k4 = wcnf("maxcut --vertices 4 --edge-probability=1.0 --max-weight 1 --seed 0").unwrap();
    assert_eq!((k4.soft.len(), k4.hard.len()), (12, 0));
    assert_eq!(brute_force_optimum(&k4), Some(2));
    // K5: the best cut has 6 of 10 edges.
    assert_eq!(
        brute_force_optimum(
            &wcnf("maxcut --vertices 5 --edge-probability=1.0 --max-weight 1 --seed 0").unwrap()
        ),
        Some(4)
    );
    for seed in 0..6 {
        let g = wcnf(&format!(
            "wis --vertices 10 --edge-probability=0.35 --max-weight 20 --seed {seed}"
        ))
        .unwrap();
        let edges: Vec<(i64, i64)> = g.hard.iter().map(|c| (-c[0], -c[1])).collect();
        let weight: Vec<u64> = g.soft.iter().map(|(w, _)| *w).collect();
        let total: u64 = weight.iter().sum();
        assert_eq!(
            brute_force_optimum(&g),
            Some(total - heaviest_independent_set(10, &edges, &weight)),
            "{}",
            g.description
        );
        // Set cover: the cheapest family of sets meeting every element's clause.
        let c = wcnf(&format!(
            "set-cover --elements 14 --sets 9 --per-element 2 --max-weight 20 --seed {seed}"
        ))
        .unwrap();
        let cheapest = (0u32..1 << 9)
            .filter(|bits| {
                c.hard
                    .iter()
                    .all(|e| e.iter().any(|&s| bits >> (s - 1) & 1 == 1))
            })
            .map(|bits| {
                (0..9)
                    .filter(|i| bits >> i & 1 == 1)
                    .map(|i| c.soft[i].0)
                    .sum()
            })
            .min();
        assert_eq!(brute_force_optimum(&c), cheapest, "{}", c.description);
    }
    assert!(
        wcnf("set-cover --elements 3 --sets 2 --per-element 3 --max-weight 1 --seed 0").is_err()
    );
    assert!(wcnf("maxcut --vertices 3 --edge-probability=1.5 --max-weight 1 --seed 0").is_err());
    assert!(wcnf("wis --vertices 3 --edge-probability=0.5 --max-weight 0 --seed 0").is_err());
}

#[test]
fn lexicographic_weights_dominate_every_lower_level() {
    for seed in 0..4 {
        let f = wcnf(&format!(
            "lex --vars 10 --clauses 60 --levels 3 --seed {seed}"
        ))
        .unwrap();
        let mut levels: Vec<u64> = f.soft.iter().map(|(w, _)| *w).collect();
        levels.sort_unstable();
        levels.dedup();
        assert_eq!(levels[0], 1, "{}", f.description);
        for (k, &w) in levels.iter().enumerate().skip(1) {
            let below: u64 = f.soft.iter().map(|(v, _)| *v).filter(|&v| v < w).sum();
            assert_eq!(w, below + 1, "level {k} of {}", f.description);
        }
        // The optimum minimises the top level's falsified clauses first.
        let top = *levels.last().unwrap();
        let falsified_top = |bits: u32| {
            f.soft
                .iter()
                .filter(|(w, c)| {
                    *w == top
                        && !c
                            .iter()
                            .any(|&l| (bits >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0))
                })
                .count()
        };
        let best_top = (0u32..1 << 10).map(falsified_top).min().unwrap();
        let optimum = brute_force_optimum(&f).unwrap();
        let at_optimum = (0u32..1 << 10)
            .find(|&bits| {
                let model: Vec<bool> = (0..10).map(|i| bits >> i & 1 == 1).collect();
                f.cost(&model) == Some(optimum)
            })
            .unwrap();
        assert_eq!(falsified_top(at_optimum), best_top, "{}", f.description);
    }
    assert!(wcnf("lex --vars 2 --clauses 5 --levels 2 --seed 0").is_err());
    assert!(wcnf("lex --vars 5 --clauses 5 --levels 0 --seed 0").is_err());
    assert!(matches!(
        wcnf("lex --vars 5 --clauses 1000 --levels 63 --seed 0"),
        Err(GenError::TooLarge { .. })
    ));
}

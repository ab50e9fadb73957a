//! The maximum-weight matching against a brute force over every matching of small graphs.

use proptest::prelude::*;
use qipai_games::competition::matching::{max_weight_matching, Edge};

/// The best (cardinality, weight) over every matching, by brute force.
fn brute(n: usize, edges: &[Edge]) -> (usize, i128) {
    fn go(v: usize, n: usize, used: &mut Vec<bool>, w: &[Vec<Option<i128>>]) -> (usize, i128) {
        if v == n {
            return (0, 0);
        }
        if used[v] {
            return go(v + 1, n, used, w);
        }
        used[v] = true;
        let mut best = go(v + 1, n, used, w);
        for u in v + 1..n {
            if let (false, Some(wt)) = (used[u], w[v][u]) {
                used[u] = true;
                let (c, s) = go(v + 1, n, used, w);
                used[u] = false;
                best = best.max((c + 1, s + wt));
            }
        }
        used[v] = false;
        best
    }
    let mut w = vec![vec![None; n]; n];
    for e in edges {
        w[e.a][e.b] = Some(e.weight);
        w[e.b][e.a] = Some(e.weight);
    }
    go(0, n, &mut vec![false; n], &w)
}

/// Cardinality and weight of a returned matching, checking it is one.
fn value(n: usize, edges: &[Edge], mate: &[Option<usize>]) -> (usize, i128) {
    assert_eq!(mate.len(), n);
    let mut count = 0;
    let mut sum = 0;
    for (v, m) in mate.iter().enumerate() {
        if let Some(u) = *m {
            assert_eq!(mate[u], Some(v), "mate is not symmetric");
            if v < u {
                let e = edges
                    .iter()
                    .find(|e| (e.a, e.b) == (v, u) || (e.a, e.b) == (u, v))
                    .expect("matched along a non-edge");
                count += 1;
                sum += e.weight;
            }
        }
    }
    (count, sum)
}

fn graph() -> impl Strategy<Value = (usize, Vec<Edge>)> {
    (2usize..=10).prop_flat_map(|n| {
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect();
        let k = pairs.len();
        (
            Just(n),
            proptest::collection::vec((any::<bool>(), -5i128..60), k),
        )
            .prop_map(move |(n, ws)| {
                let edges = pairs
                    .iter()
                    .zip(ws)
                    .filter(|(_, (keep, _))| *keep)
                    .map(|(&(a, b), (_, weight))| Edge { a, b, weight })
                    .collect();
                (n, edges)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]
    /// Among the largest matchings, the one returned has the greatest weight.
    #[test]
    fn equals_brute_force((n, edges) in graph()) {
        let mate = max_weight_matching(n, &edges);
        prop_assert_eq!(value(n, &edges, &mate), brute(n, &edges));
    }
}

/// Classic blossom cases (nested blossoms, relabelled T-blossoms, expansions) from Joris van
/// Rantwijk's test set for this algorithm; checked against the brute force.
#[test]
fn blossom_cases() {
    let cases: &[&[(usize, usize, i128)]] = &[
        &[
            (1, 2, 8),
            (1, 3, 9),
            (2, 3, 10),
            (3, 4, 7),
            (1, 6, 5),
            (4, 5, 6),
        ],
        &[
            (1, 2, 9),
            (1, 3, 8),
            (2, 3, 10),
            (1, 4, 5),
            (4, 5, 3),
            (3, 6, 4),
        ],
        &[
            (1, 2, 9),
            (1, 3, 9),
            (2, 3, 10),
            (2, 4, 8),
            (3, 5, 8),
            (4, 5, 10),
            (5, 6, 6),
        ],
        &[
            (1, 2, 23),
            (1, 5, 22),
            (1, 6, 15),
            (2, 3, 25),
            (3, 4, 22),
            (4, 5, 25),
            (4, 8, 14),
            (5, 7, 13),
        ],
        &[
            (1, 2, 45),
            (1, 5, 45),
            (2, 3, 50),
            (3, 4, 45),
            (4, 5, 50),
            (1, 6, 30),
            (3, 9, 35),
            (4, 8, 28),
            (5, 7, 26),
            (9, 10, 5),
        ],
        &[
            (1, 2, 45),
            (1, 7, 45),
            (2, 3, 50),
            (3, 4, 45),
            (4, 5, 95),
            (4, 6, 94),
            (5, 6, 94),
            (6, 7, 50),
            (1, 8, 30),
            (3, 11, 35),
            (5, 9, 36),
            (7, 10, 26),
            (11, 12, 5),
        ],
        &[
            (1, 2, 40),
            (1, 3, 40),
            (2, 3, 60),
            (2, 4, 55),
            (3, 5, 55),
            (4, 5, 50),
            (1, 8, 15),
            (5, 7, 30),
            (7, 6, 10),
            (8, 10, 10),
            (4, 9, 30),
        ],
    ];
    for case in cases {
        let edges: Vec<Edge> = case
            .iter()
            .map(|&(a, b, weight)| Edge { a, b, weight })
            .collect();
        let n = 1 + edges.iter().map(|e| e.a.max(e.b)).max().unwrap();
        let mate = max_weight_matching(n, &edges);
        assert_eq!(value(n, &edges, &mate), brute(n, &edges), "{case:?}");
    }
}

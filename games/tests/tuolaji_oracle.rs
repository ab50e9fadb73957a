//! A brute-force oracle for 第十一条2: for random small hands, enumerate every play of the
//! right size, decide its legality straight from the rules page's definition of `match()`
//! (every choice of concrete cards tried, no memo, no shortcut), and compare with
//! `check_follow`. Suggested and candidate follows must be legal too.

use qipai_games::cards::{Card, CardCounts, Rank, Suit};
use qipai_games::tuolaji::{
    candidate_follows, check_follow, decompose, suggest_follow, CardType, Order, TuolajiError,
    Unit, UnitKind,
};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every concrete unit of `kind` in `cards` (type `ty`): the cards it takes.
fn concrete_units(
    order: &Order,
    ty: CardType,
    cards: &CardCounts,
    kind: UnitKind,
) -> Vec<Vec<Card>> {
    let (w, l) = (kind.width(), kind.length());
    let present: Vec<Card> = cards
        .iter()
        .filter(|&(c, n)| n >= w && order.card_type(c) == ty)
        .map(|(c, _)| c)
        .collect();
    let mut out = Vec::new();
    for &start in &present {
        let mut runs = vec![vec![start]];
        for _ in 1..l {
            let mut longer = Vec::new();
            for run in runs {
                let last = *run.last().unwrap();
                for &c in &present {
                    if order.slot(c) == order.slot(last) + 1 {
                        let mut r = run.clone();
                        r.push(c);
                        longer.push(r);
                    }
                }
            }
            runs = longer;
        }
        for run in runs {
            out.push(
                run.iter()
                    .flat_map(|&c| std::iter::repeat_n(c, w as usize))
                    .collect(),
            );
        }
    }
    out
}

/// Every kind with width ≥ 2 fitting `lead` within `room` cards, highest priority first.
fn fitting_kinds(lead: UnitKind, room: usize) -> Vec<UnitKind> {
    let mut kinds = Vec::new();
    for w in [3u8, 2] {
        for l in (1..=lead.length()).rev() {
            if let Some(k) = UnitKind::from_shape(w, l) {
                if k.fits(lead) && k.card_count() <= room {
                    kinds.push(k);
                }
            }
        }
    }
    kinds.sort_by(|a, b| b.cmp(a));
    kinds
}

/// `match()` by definition: the lexicographically greatest record over every choice.
fn naive_match(
    order: &Order,
    ty: CardType,
    lead: &[UnitKind],
    j: usize,
    room: usize,
    cards: &CardCounts,
) -> Vec<UnitKind> {
    let Some(&unit) = lead.get(j) else {
        return Vec::new();
    };
    for kind in fitting_kinds(unit, room) {
        let units = concrete_units(order, ty, cards, kind);
        if units.is_empty() {
            continue;
        }
        let mut best: Option<Vec<UnitKind>> = None;
        for u in units {
            let mut rest = cards.clone();
            for &c in &u {
                assert!(rest.remove(c));
            }
            let left = room - kind.card_count();
            let tail = if left == 0 {
                let next = lead.get(j + 1).map_or(0, |k| k.card_count());
                naive_match(order, ty, lead, j + 1, next, &rest)
            } else {
                naive_match(order, ty, lead, j, left, &rest)
            };
            let mut record = vec![kind];
            record.extend(tail);
            if best.as_ref().is_none_or(|b| record > *b) {
                best = Some(record);
            }
        }
        return best.unwrap();
    }
    let next = lead.get(j + 1).map_or(0, |k| k.card_count());
    naive_match(order, ty, lead, j + 1, next, cards)
}

fn record(order: &Order, ty: CardType, lead: &[UnitKind], cards: &CardCounts) -> Vec<UnitKind> {
    let x: CardCounts = cards
        .iter()
        .filter(|&(c, _)| order.card_type(c) == ty)
        .flat_map(|(c, n)| std::iter::repeat_n(c, n as usize))
        .collect();
    naive_match(
        order,
        ty,
        lead,
        0,
        lead.first().map_or(0, |k| k.card_count()),
        &x,
    )
}

/// Every multiset of `k` cards from `pool`.
fn subsets(pool: &[(Card, u8)], k: usize, cur: &mut Vec<Card>, out: &mut Vec<Vec<Card>>) {
    if k == 0 {
        out.push(cur.clone());
        return;
    }
    let Some((&(c, n), rest)) = pool.split_first() else {
        return;
    };
    for take in 0..=(n as usize).min(k) {
        cur.extend(std::iter::repeat_n(c, take));
        subsets(rest, k - take, cur, out);
        cur.truncate(cur.len() - take);
    }
}

/// A few neighbouring cards of one type, so pairs, triples and tractors are common.
fn pool(order: &Order, ty: CardType, rng: &mut ChaCha8Rng) -> Vec<Card> {
    let mut by_slot: Vec<Card> = Card::all().filter(|&c| order.card_type(c) == ty).collect();
    by_slot.sort_by_key(|&c| order.slot(c));
    let width = rng.random_range(3..=6).min(by_slot.len());
    let start = rng.random_range(0..=by_slot.len() - width);
    by_slot[start..start + width].to_vec()
}

/// 第十一条2: the fast check agrees with the definition on every play of random small hands.
#[test]
fn follow_legality_matches_the_definition() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut checked = 0usize;
    let mut structure_refusals = 0usize;
    for _ in 0..3000 {
        let trump = *Suit::ALL.choose(&mut rng).unwrap();
        let level = *Rank::ALL.choose(&mut rng).unwrap();
        let order = Order::new(trump, level);
        let ty = if rng.random_bool(0.5) {
            CardType::Trump
        } else {
            CardType::Suit(
                *Suit::ALL
                    .iter()
                    .filter(|&&s| s != trump)
                    .collect::<Vec<_>>()
                    .choose(&mut rng)
                    .unwrap()
                    .to_owned(),
            )
        };
        let lead_pool = pool(&order, ty, &mut rng);
        let lead_len = rng.random_range(1..=6);
        let mut lead_counts = CardCounts::new();
        while lead_counts.len() < lead_len {
            let c = *lead_pool.choose(&mut rng).unwrap();
            if lead_counts.count(c) < 3 {
                lead_counts.add(c);
            }
        }
        let lead_cards = lead_counts.to_vec();
        let lead = decompose(&order, &lead_cards).unwrap();
        let lead_kinds: Vec<UnitKind> = lead.iter().map(Unit::kind).collect();
        let n = lead_cards.len();

        let hand_pool = pool(&order, ty, &mut rng);
        let mut holding = CardCounts::new();
        for _ in 0..rng.random_range(n.saturating_sub(2)..=n + 7) {
            let c = *hand_pool.choose(&mut rng).unwrap();
            if holding.count(c) < 3 {
                holding.add(c);
            }
        }
        for _ in 0..rng.random_range(0..=2) {
            let other = Card::all()
                .filter(|&c| order.card_type(c) != ty)
                .collect::<Vec<_>>();
            holding.add(*other.choose(&mut rng).unwrap());
        }
        if holding.len() < n {
            continue;
        }
        let held_x = holding
            .iter()
            .filter(|&(c, _)| order.card_type(c) == ty)
            .map(|(_, k)| k as usize)
            .sum::<usize>();
        let required = record(&order, ty, &lead_kinds, &holding);
        let pool: Vec<(Card, u8)> = holding.iter().collect();
        let mut plays = Vec::new();
        subsets(&pool, n, &mut Vec::new(), &mut plays);
        for play in plays {
            let played_x = play.iter().filter(|&&c| order.card_type(c) == ty).count();
            let counted = played_x == n.min(held_x);
            let played: CardCounts = play.iter().copied().collect();
            let legal =
                counted && (held_x <= n || record(&order, ty, &lead_kinds, &played) == required);
            let fast = check_follow(&order, &lead, &holding, &play);
            if matches!(fast, Err(TuolajiError::MustMatchStructure { .. })) {
                structure_refusals += 1;
            }
            assert_eq!(
                fast.is_ok(),
                legal,
                "lead {lead_cards:?} holding {holding:?} play {play:?}: {fast:?}"
            );
            checked += 1;
        }
        let suggested = suggest_follow(&order, &lead, &holding);
        assert_eq!(
            check_follow(&order, &lead, &holding, &suggested),
            Ok(()),
            "suggested {suggested:?} for {lead_cards:?} from {holding:?}"
        );
        for cand in candidate_follows(&order, &lead, &holding, 12) {
            assert_eq!(
                check_follow(&order, &lead, &holding, &cand),
                Ok(()),
                "candidate {cand:?} for {lead_cards:?} from {holding:?}"
            );
        }
    }
    assert!(checked > 50_000, "only {checked} plays checked");
    assert!(
        structure_refusals > 5_000,
        "only {structure_refusals} structure refusals"
    );
}

//! Benchmark of follow legality (第十一条2) and of one suggested follow on 39-card hands.
//!
//! ```text
//! cargo run --release -p qipai-games --example tuolaji_bench
//! ```
//!
//! Three families of seeded situations:
//! - *dealt*: the 162 cards shuffled and dealt 39 each; a random leader leads one unit (or,
//!   one time in three, a throw of two or three units) of a random type it holds, and the
//!   next seat follows;
//! - *trump-heavy*: the follower holds 39 trumps, and the lead is a trump tractor (2–4
//!   pairs or triples) plus up to two more tractors, triples or pairs, at most 15 cards
//!   (the trumps the follower does not hold); the lead's cards are made up for their
//!   structure only;
//! - *stress*: the same with leads of up to 36 cards, which three decks cannot deal next to
//!   39 trumps, to find the worst case of the search.
//!
//! For each situation it times `check_follow` on the suggested follow and on a random play
//! of the led type, `suggest_follow`, and (for leads and bots) `decompose` of all the
//! follower's cards of the led type; each call is repeated three times and the fastest
//! kept, to leave out scheduler noise on a shared machine. It prints median, p99 and worst
//! in microseconds.

use std::hint::black_box;
use std::time::Instant;

use qipai_games::cards::{shuffled, three_decks, Card, CardCounts, Rank, Suit};
use qipai_games::tuolaji::combination::sort_by_priority;
use qipai_games::tuolaji::{check_follow, decompose, suggest_follow, CardType, Order, Unit};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One follow to judge.
struct Situation {
    order: Order,
    lead: Vec<Unit>,
    holding: CardCounts,
}

/// Makes one situation of a family, or `None` to draw again.
type Maker = fn(&mut ChaCha8Rng) -> Option<Situation>;

/// The fastest of three runs of `f`, in microseconds.
fn time_us<T>(mut f: impl FnMut() -> T) -> f64 {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed().as_secs_f64() * 1e6
        })
        .fold(f64::INFINITY, f64::min)
}

fn random_order(rng: &mut ChaCha8Rng) -> Order {
    let trump = *Suit::ALL.choose(rng).unwrap_or(&Suit::Spades);
    let level = *Rank::ALL.choose(rng).unwrap_or(&Rank::Two);
    Order::new(trump, level)
}

/// A lead from `cards` (the leader's cards of one type): one of its canonical units, or a
/// throw of two or three of them.
fn lead_from(order: &Order, cards: &[Card], rng: &mut ChaCha8Rng) -> Option<Vec<Unit>> {
    let mut units = decompose(order, cards).ok()?;
    units.shuffle(rng);
    let take = if rng.random_bool(1.0 / 3.0) {
        rng.random_range(2..=3)
    } else {
        1
    };
    let mut lead: Vec<Unit> = units.into_iter().take(take).collect();
    sort_by_priority(&mut lead);
    Some(lead)
}

fn dealt(rng: &mut ChaCha8Rng) -> Option<Situation> {
    let order = random_order(rng);
    let deck = shuffled(rng.random());
    let hands: Vec<Vec<Card>> = deck.chunks(39).take(4).map(<[Card]>::to_vec).collect();
    let leader = rng.random_range(0..4);
    let led_hand = hands.get(leader)?;
    let types: Vec<CardType> = led_hand.iter().map(|&c| order.card_type(c)).collect();
    let ty = *types.choose(rng)?;
    let of_type: Vec<Card> = led_hand
        .iter()
        .copied()
        .filter(|&c| order.card_type(c) == ty)
        .collect();
    let lead = lead_from(&order, &of_type, rng)?;
    let holding = hands.get((leader + 1) % 4)?.iter().copied().collect();
    Some(Situation {
        order,
        lead,
        holding,
    })
}

/// A trump unit of `width` in `len` consecutive slots at a random place (cards are only
/// used for their structure here, so they may repeat the follower's).
fn synthetic_unit(order: &Order, width: usize, len: u8, rng: &mut ChaCha8Rng) -> Option<Unit> {
    let top = rng.random_range(len - 1..16);
    let cards: Vec<Card> = (top + 1 - len..=top)
        .filter_map(|slot| order.cards_in_slot(CardType::Trump, slot).next())
        .flat_map(|c| std::iter::repeat_n(c, width))
        .collect();
    Unit::new(order, &cards).ok()
}

/// The follower holds 39 trumps; the lead is a trump tractor (2–4 pairs or triples) plus
/// up to two more tractors, triples or pairs, with at most `max_cards` cards in all.
fn synthetic(rng: &mut ChaCha8Rng, max_cards: usize) -> Option<Situation> {
    let order = random_order(rng);
    let mut trumps: Vec<Card> = three_decks()
        .into_iter()
        .filter(|&c| order.is_trump(c))
        .collect();
    trumps.shuffle(rng);
    let mut lead = vec![synthetic_unit(
        &order,
        rng.random_range(2..=3),
        rng.random_range(2..=4),
        rng,
    )?];
    for _ in 0..rng.random_range(0..=2) {
        lead.push(synthetic_unit(
            &order,
            rng.random_range(2..=3),
            rng.random_range(1..=3),
            rng,
        )?);
    }
    if lead.iter().map(|u| u.cards().len()).sum::<usize>() > max_cards {
        return None;
    }
    sort_by_priority(&mut lead);
    Some(Situation {
        order,
        lead,
        holding: trumps.into_iter().take(39).collect(),
    })
}

/// A lead of at most 15 cards: 54 trumps less the follower's 39.
fn trump_heavy(rng: &mut ChaCha8Rng) -> Option<Situation> {
    synthetic(rng, 15)
}

/// Leads of up to 36 cards against 39 trumps: more trumps than three decks hold, to find
/// the worst case of the search.
fn stress(rng: &mut ChaCha8Rng) -> Option<Situation> {
    synthetic(rng, 36)
}

/// A random play of the led type (or anything when short of it), legal or not.
fn random_play(s: &Situation, rng: &mut ChaCha8Rng) -> Vec<Card> {
    let n: usize = s.lead.iter().map(|u| u.cards().len()).sum();
    let ty = s.lead.first().map(Unit::card_type);
    let mut cards = s.holding.to_vec();
    cards.shuffle(rng);
    cards.sort_by_key(|&c| Some(s.order.card_type(c)) != ty);
    cards.truncate(n);
    cards
}

fn report(name: &str, mut samples: Vec<f64>) {
    samples.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let i = ((samples.len() as f64 - 1.0) * q).round() as usize;
        samples.get(i).copied().unwrap_or(f64::NAN)
    };
    println!(
        "{name:<32} n={:>6}  median {:>7.2} µs  p99 {:>7.2} µs  worst {:>8.2} µs",
        samples.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
}

fn main() {
    let mut rng = ChaCha8Rng::seed_from_u64(20_261_129);
    let families: [(&str, Maker, usize); 3] = [
        ("dealt", dealt, 20_000),
        ("trump-heavy", trump_heavy, 20_000),
        ("stress", stress, 20_000),
    ];
    for (family, make, count) in families {
        let mut check = Vec::with_capacity(2 * count);
        let mut suggest = Vec::with_capacity(count);
        let mut split = Vec::with_capacity(count);
        let mut made = 0;
        while made < count {
            let Some(s) = make(&mut rng) else {
                continue;
            };
            made += 1;
            let legal = suggest_follow(&s.order, &s.lead, &s.holding);
            let other = random_play(&s, &mut rng);
            if check_follow(&s.order, &s.lead, &s.holding, &legal).is_err() {
                println!("BUG: suggested follow refused");
            }
            check.push(time_us(|| {
                check_follow(&s.order, &s.lead, &s.holding, &legal)
            }));
            check.push(time_us(|| {
                check_follow(&s.order, &s.lead, &s.holding, &other)
            }));
            suggest.push(time_us(|| suggest_follow(&s.order, &s.lead, &s.holding)));
            let ty = s.lead.first().map(Unit::card_type);
            let of_type: Vec<Card> = s
                .holding
                .to_vec()
                .into_iter()
                .filter(|&c| Some(s.order.card_type(c)) == ty)
                .collect();
            if !of_type.is_empty() {
                split.push(time_us(|| decompose(&s.order, &of_type)));
            }
        }
        report(&format!("{family}: check_follow"), check);
        report(&format!("{family}: suggest_follow"), suggest);
        report(&format!("{family}: decompose (holding)"), split);
    }
}

//! The bottom exchange (第九条2): the dealer puts back six cards, keeping trumps, long
//! suits, aces and structures (pairs, triples), emptying short suits (to ruff them), and
//! burying point cards that would not win a trick anyway.

use qipai_games::cards::{Card, CardCounts, Rank};
use qipai_games::tuolaji::{CardType, Order};

/// 第九条2: six cards go back.
const BOTTOM: usize = 6;

/// How much putting `card` back helps, given what is still held.
fn discard_score(order: &Order, held: &CardCounts, card: Card) -> i32 {
    let ty = order.card_type(card);
    if ty == CardType::Trump {
        return -100 - i32::from(order.slot(card));
    }
    let length = held
        .iter()
        .filter(|(c, _)| order.card_type(*c) == ty)
        .map(|(_, n)| i32::from(n))
        .sum::<i32>();
    let mut score = 20 - i32::from(order.slot(card));
    if length <= BOTTOM as i32 {
        score += (8 - length) * 3;
    }
    if held.count(card) >= 2 {
        score -= 15;
    }
    match card.rank() {
        Some(Rank::Ace) => score -= 30,
        Some(Rank::King | Rank::Ten) => score += 8,
        Some(Rank::Five) => score += 5,
        _ => {}
    }
    score
}

/// The six cards to put back from `held` (the dealer's 45).
pub fn choose_bottom(order: &Order, held: &CardCounts) -> Vec<Card> {
    let mut left = held.clone();
    let mut out = Vec::with_capacity(BOTTOM);
    for _ in 0..BOTTOM {
        let Some((card, _)) = left
            .iter()
            .max_by_key(|&(c, _)| (discard_score(order, &left, c), std::cmp::Reverse(c)))
        else {
            break;
        };
        left.remove(card);
        out.push(card);
    }
    out
}

//! Bids (第十条) and naming the trump (第八条2) from a hand evaluation: how many of the
//! seat's cards would be trumps with a given suit, against the third of a hand that a
//! random deal gives (54 trumps among 162 cards).

use qipai_games::cards::{Card, CardCounts, Rank, Suit};
use qipai_games::tuolaji::Order;
use qipai_protocol::tuolaji::{Phase, TuolajiAction, TuolajiView};

use super::read;

/// The hand's strength with `suit` as trump: its trumps, pairs of trumps counted again.
pub fn trump_strength(hand: &CardCounts, suit: Suit, level: Rank) -> i32 {
    let order = Order::new(suit, level);
    hand.iter()
        .filter(|(c, _)| order.is_trump(*c))
        .map(|(c, n)| {
            let high = matches!(c, Card::BigJoker | Card::SmallJoker) || c.rank() == Some(level);
            i32::from(n) * 2 + i32::from(n >= 2) * 2 + i32::from(high) * i32::from(n)
        })
        .sum()
}

/// The suit to name when nobody bid: the strongest as trump.
pub fn name_trump(hand: &CardCounts, level: Rank) -> Suit {
    Suit::ALL
        .into_iter()
        .max_by_key(|&s| trump_strength(hand, s, level))
        .unwrap_or(Suit::Spades)
}

/// A bid, a strengthening or a counter-bid worth making now, if any: with the suit whose
/// level cards the seat holds and whose trumps clearly exceed a random share. Never
/// against the partner's standing bid.
pub fn choose_bid(seat: u8, view: &TuolajiView) -> Option<TuolajiAction> {
    let level = view.level_rank?;
    let hand = read::holding(view)?;
    let size = hand.len() as i32;
    let done = matches!(view.phase, Phase::Bidding { .. });
    if size < 8 && !done {
        return None;
    }
    // A random hand's share, in `trump_strength` units (two per trump).
    let par = size * 2 / 3;
    let standing = view.bids.last();
    let (suit, count, strength) = Suit::ALL
        .into_iter()
        .map(|s| {
            let n = hand.count(Card::new(level, s));
            (s, n, trump_strength(&hand, s, level))
        })
        .filter(|&(_, n, _)| n > 0)
        .max_by_key(|&(_, n, st)| (st, n))?;
    let wanted = match standing {
        None => strength >= par + if done { 2 } else { 6 },
        Some(b) if b.seat == seat => b.suit == suit && usize::from(count) > b.cards.len(),
        Some(b) if read::team(b.seat) == read::team(seat) => false,
        Some(b) => usize::from(count) > b.cards.len() && strength >= par + 4,
    };
    let cards = vec![Card::new(level, suit); usize::from(count)];
    // Whether the rule accepts it is the rule's to say (第十条): the server sent the list.
    (wanted && view.legal_bids.contains(&cards)).then_some(TuolajiAction::Bid { cards })
}

//! The cards of one type laid out by slot: the working form behind units, tractors, follow
//! legality and throw checks.
//!
//! Each slot holds up to three *piles*, one per distinct card in it (only the off-suit level
//! slot of trumps has more than one), and a pile holds 0–3 identical cards. A unit of width
//! w at a slot takes w cards from one pile there (第六条: a pair is two identical cards).
//! Piles of equal size in one slot are interchangeable for every structural question, which
//! is what [`Shape::key`] and [`Shape::instances`] exploit.

use super::combination::UnitKind;
use super::order::{CardType, Order, TRUMP_SLOTS};
use crate::cards::{Card, CardCounts};

const MAX_SLOTS: usize = TRUMP_SLOTS as usize;

/// The cards of one type, by slot and pile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    ty: CardType,
    slots: u8,
    piles: [[u8; 3]; MAX_SLOTS],
    cards: [[Option<Card>; 3]; MAX_SLOTS],
}

/// One concrete unit inside a shape: `len` consecutive slots ending at `top`, taking `width`
/// cards from one pile in each; at a slot with several piles, from pile `pick`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Instance {
    pub top: u8,
    pub len: u8,
    pub width: u8,
    pub pick: u8,
}

impl Shape {
    /// No cards of type `ty`.
    pub fn empty(order: &Order, ty: CardType) -> Shape {
        let slots = Order::slot_count(ty);
        let mut cards = [[None; 3]; MAX_SLOTS];
        for (slot, row) in (0..slots).zip(cards.iter_mut()) {
            for (cell, card) in row.iter_mut().zip(order.cards_in_slot(ty, slot)) {
                *cell = Some(card);
            }
        }
        Shape {
            ty,
            slots,
            piles: [[0; 3]; MAX_SLOTS],
            cards,
        }
    }

    /// The cards of type `ty` in `counts`.
    pub fn from_counts(order: &Order, ty: CardType, counts: &CardCounts) -> Shape {
        let mut shape = Shape::empty(order, ty);
        for (row, piles) in shape.cards.iter().zip(shape.piles.iter_mut()) {
            for (card, pile) in row.iter().zip(piles.iter_mut()) {
                if let Some(card) = card {
                    *pile = counts.count(*card);
                }
            }
        }
        shape
    }

    /// The cards of type `ty` among `cards` (others are left out).
    pub fn from_cards(order: &Order, ty: CardType, cards: &[Card]) -> Shape {
        let counts: CardCounts = cards.iter().copied().collect();
        Shape::from_counts(order, ty, &counts)
    }

    /// The type of the cards.
    pub fn card_type(&self) -> CardType {
        self.ty
    }

    /// How many cards.
    pub fn total(&self) -> usize {
        self.piles.iter().flatten().map(|&n| usize::from(n)).sum()
    }

    /// Every card with its slot, strongest slot first.
    pub fn slotted(&self) -> Vec<(u8, Card)> {
        let mut out = Vec::with_capacity(self.total());
        for slot in (0..self.slots).rev() {
            let row = self.cards[usize::from(slot)].iter();
            for (card, &n) in row.zip(self.piles[usize::from(slot)].iter()) {
                if let Some(card) = card {
                    out.extend(std::iter::repeat_n((slot, *card), usize::from(n)));
                }
            }
        }
        out
    }

    /// The largest pile in `slot`: the widest unit that slot can give.
    pub fn width_at(&self, slot: u8) -> u8 {
        self.piles
            .get(usize::from(slot))
            .map_or(0, |p| p.iter().copied().max().unwrap_or(0))
    }

    /// The longest run of consecutive slots each holding a pile of at least `width` cards.
    pub fn longest_run(&self, width: u8) -> u8 {
        let (mut best, mut run) = (0, 0);
        for slot in 0..self.slots {
            run = if self.width_at(slot) >= width {
                run + 1
            } else {
                0
            };
            best = best.max(run);
        }
        best
    }

    /// The highest-priority unit kind these cards contain, if any (第十一条2(2)'s order).
    pub fn top_kind(&self) -> Option<UnitKind> {
        self.top_kind_within(1, 3, TRUMP_SLOTS, usize::MAX)
    }

    /// The highest-priority unit kind these cards contain with width between `min_width`
    /// and `max_width`, length at most `max_len` and at most `max_cards` cards.
    pub fn top_kind_within(
        &self,
        min_width: u8,
        max_width: u8,
        max_len: u8,
        max_cards: usize,
    ) -> Option<UnitKind> {
        let cap = |width: u8| (max_cards / usize::from(width)).min(usize::from(max_len));
        if max_width >= 3 && min_width <= 3 {
            let k = usize::from(self.longest_run(3)).min(cap(3));
            if k >= 2 {
                return u8::try_from(k).ok().map(UnitKind::TripleTractor);
            }
        }
        if max_width >= 2 && min_width <= 2 {
            let k = usize::from(self.longest_run(2)).min(cap(2));
            if k >= 2 {
                return u8::try_from(k).ok().map(UnitKind::PairTractor);
            }
        }
        let widest = (0..self.slots).map(|s| self.width_at(s)).max().unwrap_or(0);
        [
            (3, UnitKind::Triple),
            (2, UnitKind::Pair),
            (1, UnitKind::Single),
        ]
        .into_iter()
        .find(|&(w, _)| {
            w <= max_width && w >= min_width && w <= widest && usize::from(w) <= max_cards
        })
        .map(|(_, kind)| kind)
    }

    /// Every way to take a unit of `kind` from these cards, up to interchangeable piles:
    /// highest top slot first, and at a slot with several piles, the largest pile first.
    pub fn instances(&self, kind: UnitKind) -> Vec<Instance> {
        let (width, len) = (kind.width(), kind.length());
        let mut out = Vec::new();
        if len == 0 || len > self.slots {
            return out;
        }
        for top in (len - 1..self.slots).rev() {
            let bottom = top + 1 - len;
            if (bottom..=top).any(|s| self.width_at(s) < width) {
                continue;
            }
            let multi = (bottom..=top).find(|&s| self.cards[usize::from(s)][1].is_some());
            match multi {
                None => out.push(Instance {
                    top,
                    len,
                    width,
                    pick: 0,
                }),
                Some(slot) => {
                    let piles = self.piles[usize::from(slot)];
                    let mut picks: Vec<(u8, u8)> = Vec::with_capacity(3);
                    for (&n, i) in piles.iter().zip(0u8..) {
                        if n >= width && picks.iter().all(|&(m, _)| m != n) {
                            picks.push((n, i));
                        }
                    }
                    picks.sort_by_key(|&(n, _)| std::cmp::Reverse(n));
                    out.extend(picks.into_iter().map(|(_, pick)| Instance {
                        top,
                        len,
                        width,
                        pick,
                    }));
                }
            }
        }
        out
    }

    /// The pile `inst` takes from in `slot`.
    fn pile_of(&self, inst: &Instance, slot: u8) -> usize {
        if self.cards[usize::from(slot)][1].is_some() {
            usize::from(inst.pick)
        } else {
            0
        }
    }

    /// Takes `inst` out of these cards. `inst` must come from [`Shape::instances`] of this
    /// shape (or one holding at least as much); a pile never goes below zero.
    pub fn take(&mut self, inst: &Instance) {
        for slot in inst.top + 1 - inst.len..=inst.top {
            let pile = self.pile_of(inst, slot);
            if let Some(n) = self
                .piles
                .get_mut(usize::from(slot))
                .and_then(|p| p.get_mut(pile))
            {
                *n = n.saturating_sub(inst.width);
            }
        }
    }

    /// The cards `inst` takes, strongest slot first.
    pub fn cards_of(&self, inst: &Instance) -> Vec<Card> {
        let mut out = Vec::with_capacity(usize::from(inst.width * inst.len));
        for slot in (inst.top + 1 - inst.len..=inst.top).rev() {
            let pile = self.pile_of(inst, slot);
            if let Some(card) = self.cards[usize::from(slot)][pile] {
                out.extend(std::iter::repeat_n(card, usize::from(inst.width)));
            }
        }
        out
    }

    /// A compact summary of the shape for memoisation: piles smaller than `min_pile` count
    /// as empty, and the piles of one slot are sorted, so interchangeable shapes share a key.
    /// (Piles above 63 cards, impossible with three decks, would share a key.)
    pub fn key(&self, min_pile: u8) -> u128 {
        let mut key = 0u128;
        let slots = usize::from(self.slots);
        for (piles, cards) in self.piles[..slots].iter().zip(&self.cards[..slots]) {
            let mut p = piles.map(|n| if n >= min_pile { n } else { 0 });
            if cards[1].is_none() {
                key = key << 6 | u128::from(p[0].min(63));
                continue;
            }
            p.sort_unstable();
            for n in p {
                key = key << 6 | u128::from(n.min(63));
            }
        }
        key
    }
}

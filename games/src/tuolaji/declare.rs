//! Throw declarations (第十一条1): which splits of a throw into units are valid, and what
//! the leader must say.
//!
//! A split is *valid* when no two or more of its units together form one unit: `BJ BJ` is
//! a pair, never two singles; `QsQs KsKs` is a tractor, never two pairs; but `QsQsQs KsKs`
//! may be a triple and a pair, or a pair-tractor and a single, since neither `QsQsQs KsKs`
//! nor `QsQsKsKs Qs` is one unit. A declaration must be a valid split (`rules/tuolaji.md`,
//! "A declaration may not split a unit"), and a throw with more than one valid split must be
//! declared ("The leader must declare when it matters").

use std::collections::{BTreeMap, HashSet};

use super::combination::{decompose, sort_by_priority, Unit};
use super::error::TuolajiError;
use super::order::Order;
use crate::cards::Card;

/// At most this many valid splits are listed (a real throw has two or three).
pub const MAX_SPLITS: usize = 16;

/// How many search steps one enumeration may take, so that no lead can make the server
/// search for long. Past it, the splits found so far are all there is.
const STEP_BUDGET: usize = 20_000;

/// A unit's cards as (slot, card, how many), one entry per distinct card.
type Piles = Vec<(u8, Card, u8)>;

fn piles_of(order: &Order, cards: &[Card]) -> Piles {
    let mut counts: BTreeMap<(u8, Card), u8> = BTreeMap::new();
    for &c in cards {
        *counts.entry((order.slot(c), c)).or_default() += 1;
    }
    counts.into_iter().map(|((s, c), n)| (s, c, n)).collect()
}

/// 第六条: the unit that some two or more of `units` (all of one type) together form, if
/// any. Such a union has width 2 or 3 over consecutive slots, one card per slot, so every
/// target of that shape made of the units' cards is tried: can some of the units (two or
/// more) add up to it exactly?
pub fn merged_unit(order: &Order, units: &[Unit]) -> Option<Vec<Card>> {
    if units.len() < 2 {
        return None;
    }
    let parts: Vec<Piles> = units.iter().map(|u| piles_of(order, u.cards())).collect();
    let all: Vec<Card> = units
        .iter()
        .flat_map(|u| u.cards().iter().copied())
        .collect();
    let total = piles_of(order, &all);
    // For each slot, the distinct cards in it.
    let mut by_slot: BTreeMap<u8, Vec<(Card, u8)>> = BTreeMap::new();
    for &(s, c, n) in &total {
        by_slot.entry(s).or_default().push((c, n));
    }
    let slots: Vec<u8> = by_slot.keys().copied().collect();
    for width in [2u8, 3] {
        for (i, &bottom) in slots.iter().enumerate() {
            // Every run of consecutive slots starting at `bottom`.
            let mut choices: Vec<Vec<(u8, Card)>> = vec![Vec::new()];
            for (k, &slot) in slots.iter().enumerate().skip(i) {
                if slot != bottom + (k - i) as u8 {
                    break;
                }
                let here: Vec<Card> = by_slot
                    .get(&slot)
                    .map(|v| {
                        v.iter()
                            .filter(|&&(_, n)| n >= width)
                            .map(|&(c, _)| c)
                            .collect()
                    })
                    .unwrap_or_default();
                if here.is_empty() {
                    break;
                }
                choices = choices
                    .iter()
                    .flat_map(|prefix| {
                        here.iter().map(move |&c| {
                            let mut next = prefix.clone();
                            next.push((slot, c));
                            next
                        })
                    })
                    .collect();
                if let Some(target) = choices.iter().find(|t| sums_to(&parts, t, width)) {
                    return Some(
                        target
                            .iter()
                            .rev()
                            .flat_map(|&(_, c)| std::iter::repeat_n(c, usize::from(width)))
                            .collect(),
                    );
                }
            }
        }
    }
    None
}

/// Whether two or more of `parts` add up exactly to `width` copies of each card of
/// `target` (and nothing else).
fn sums_to(parts: &[Piles], target: &[(u8, Card)], width: u8) -> bool {
    let inside: Vec<&Piles> = parts
        .iter()
        .filter(|p| {
            p.iter()
                .all(|&(_, c, n)| n <= width && target.iter().any(|&(_, t)| t == c))
        })
        .collect();
    let mut need: Vec<u8> = vec![width; target.len()];
    let mut failed = HashSet::new();
    cover(&inside, target, &mut need, 0, 0, &mut failed)
}

fn cover(
    parts: &[&Piles],
    target: &[(u8, Card)],
    need: &mut Vec<u8>,
    from: usize,
    taken: usize,
    failed: &mut HashSet<(usize, Vec<u8>, bool)>,
) -> bool {
    if need.iter().all(|&n| n == 0) {
        return taken >= 2;
    }
    let key = (from, need.clone(), taken >= 2);
    if failed.contains(&key) {
        return false;
    }
    for (i, part) in parts.iter().enumerate().skip(from) {
        let fits = part.iter().all(|&(_, c, n)| {
            target
                .iter()
                .position(|&(_, t)| t == c)
                .and_then(|j| need.get(j))
                .is_some_and(|&left| left >= n)
        });
        if !fits {
            continue;
        }
        let idx: Vec<(usize, u8)> = part
            .iter()
            .filter_map(|&(_, c, n)| target.iter().position(|&(_, t)| t == c).map(|j| (j, n)))
            .collect();
        for &(j, n) in &idx {
            if let Some(left) = need.get_mut(j) {
                *left -= n;
            }
        }
        let found = cover(parts, target, need, i + 1, taken + 1, failed);
        for &(j, n) in &idx {
            if let Some(left) = need.get_mut(j) {
                *left += n;
            }
        }
        if found {
            return true;
        }
    }
    failed.insert(key);
    false
}

/// 第十一条1: every valid split of `cards` (all of one type) into units, each highest
/// priority first, at most [`MAX_SPLITS`] of them, the canonical decomposition first when it
/// is valid.
///
/// # Errors
/// [`TuolajiError::EmptyPlay`] or [`TuolajiError::MixedTypes`].
pub fn valid_splits(order: &Order, cards: &[Card]) -> Result<Vec<Vec<Unit>>, TuolajiError> {
    let canonical = decompose(order, cards)?;
    let mut found: Vec<Vec<Unit>> = Vec::new();
    if canonical.len() > 1 && merged_unit(order, &canonical).is_none() {
        found.push(canonical.clone());
    }
    if canonical.len() <= 1 {
        return Ok(vec![canonical]);
    }
    let mut seen: HashSet<Vec<Vec<Card>>> = found.iter().map(|s| split_key(s)).collect();
    let mut search = Search {
        order,
        steps: 0,
        seen: &mut seen,
        found: &mut found,
    };
    let mut left = piles_of(order, cards);
    left.reverse();
    search.run(&mut left, &mut Vec::new());
    Ok(found)
}

fn split_key(units: &[Unit]) -> Vec<Vec<Card>> {
    let mut key: Vec<Vec<Card>> = units
        .iter()
        .map(|u| {
            let mut c = u.cards().to_vec();
            c.sort();
            c
        })
        .collect();
    key.sort();
    key
}

struct Search<'a> {
    order: &'a Order,
    steps: usize,
    seen: &'a mut HashSet<Vec<Vec<Card>>>,
    found: &'a mut Vec<Vec<Unit>>,
}

impl Search<'_> {
    /// `left`: the cards still to place, strongest slot first. Every unit holding the first
    /// of them is tried (it is the unit's top: nothing stronger is left).
    fn run(&mut self, left: &mut Piles, units: &mut Vec<Unit>) {
        self.steps += 1;
        if self.steps > STEP_BUDGET || self.found.len() >= MAX_SPLITS {
            return;
        }
        let Some(&(top, first, count)) = left.iter().find(|p| p.2 > 0) else {
            let mut split = units.clone();
            sort_by_priority(&mut split);
            if self.seen.insert(split_key(&split)) {
                self.found.push(split);
            }
            return;
        };
        for width in 1..=count {
            // Runs down from `top`: each next slot needs a card with `width` left.
            let mut runs: Vec<Vec<Card>> = vec![vec![first; usize::from(width)]];
            let mut len = 1u8;
            loop {
                let mut extended = Vec::new();
                for run in &runs {
                    if let Ok(unit) = Unit::new(self.order, run) {
                        self.place(left, units, unit);
                    }
                    if width < 2 || top < len {
                        continue;
                    }
                    let below = top - len;
                    for &(s, c, n) in left.iter() {
                        if s == below && n >= width {
                            let mut next = run.clone();
                            next.extend(std::iter::repeat_n(c, usize::from(width)));
                            extended.push(next);
                        }
                    }
                }
                if extended.is_empty() {
                    break;
                }
                runs = extended;
                len += 1;
            }
        }
    }

    /// Places `unit` unless it merges with the units already placed, and searches on.
    fn place(&mut self, left: &mut Piles, units: &mut Vec<Unit>, unit: Unit) {
        let taken = piles_of(self.order, unit.cards());
        let fits = taken
            .iter()
            .all(|&(_, c, n)| left.iter().find(|p| p.1 == c).is_some_and(|p| p.2 >= n));
        if !fits {
            return;
        }
        units.push(unit);
        if merged_unit(self.order, units).is_none() {
            adjust(left, &taken, false);
            self.run(left, units);
            adjust(left, &taken, true);
        }
        units.pop();
    }
}

fn adjust(left: &mut Piles, taken: &Piles, give_back: bool) {
    for &(_, c, n) in taken {
        if let Some(p) = left.iter_mut().find(|p| p.1 == c) {
            p.2 = if give_back { p.2 + n } else { p.2 - n };
        }
    }
}

/// 第十一条1: the units of an undeclared lead: the one valid split, or the canonical
/// decomposition for a single unit (and, past the search budget, when none was found).
///
/// # Errors
/// [`TuolajiError::DeclareStructure`] listing the valid splits when there are several;
/// [`TuolajiError::EmptyPlay`] or [`TuolajiError::MixedTypes`].
pub fn undeclared_units(order: &Order, cards: &[Card]) -> Result<Vec<Unit>, TuolajiError> {
    let mut splits = valid_splits(order, cards)?;
    if splits.len() > 1 {
        return Err(TuolajiError::DeclareStructure {
            splits: splits
                .iter()
                .map(|s| s.iter().map(|u| u.cards().to_vec()).collect())
                .collect(),
        });
    }
    match splits.pop() {
        Some(units) => Ok(units),
        None => decompose(order, cards),
    }
}

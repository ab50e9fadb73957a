//! Throws (甩牌, 第六条5, 第十六条): whether every unit of a throw is unbeatable, and when
//! it is not, which unit the leader must play instead.

use super::combination::Unit;
use super::order::Order;
use super::shape::Shape;
use crate::cards::CardCounts;

/// The verdict on a throw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThrowCheck {
    /// 第六条5: every unit is the highest of its kind; the throw stands.
    Unbeatable,
    /// 第十六条 (甩错牌): some unit can be beaten. The leader plays `forced` instead (the
    /// beatable unit with the fewest cards, then the lowest top slot), and `beaten_by` is the
    /// index in `others` of the first holding that beats it (a partner's cards count too).
    Fails { forced: Unit, beaten_by: usize },
}

/// 第六条5: whether `holding` can beat `unit`: it holds a unit of the same width and length
/// (a triple yields a pair, a triple-tractor a pair-tractor) of the same type with a higher
/// top slot. An equal unit does not beat it (the first played wins ties).
pub fn can_beat(order: &Order, holding: &CardCounts, unit: &Unit) -> bool {
    let shape = Shape::from_counts(order, unit.card_type(), holding);
    let (width, len) = (unit.kind().width(), unit.kind().length());
    let slots = Order::slot_count(unit.card_type());
    (unit.top_slot().saturating_add(1)..slots)
        .filter(|&top| top + 1 >= len)
        .any(|top| (top + 1 - len..=top).all(|s| shape.width_at(s) >= width))
}

/// The indices in `others` of every holding that can beat `unit`.
pub fn beaters(order: &Order, unit: &Unit, others: &[&CardCounts]) -> Vec<usize> {
    others
        .iter()
        .enumerate()
        .filter(|(_, h)| can_beat(order, h, unit))
        .map(|(i, _)| i)
        .collect()
}

/// 第六条5, 第十六条: checks the throw `units` (its canonical or declared decomposition)
/// against the holdings of the other three players, in play order from the leader.
/// A lead of one unit is not a throw and always stands.
pub fn check_throw(order: &Order, units: &[Unit], others: &[&CardCounts]) -> ThrowCheck {
    if units.len() <= 1 {
        return ThrowCheck::Unbeatable;
    }
    let forced = units
        .iter()
        .filter_map(|u| beaters(order, u, others).first().map(|&i| (u, i)))
        .min_by_key(|(u, _)| (u.cards().len(), u.top_slot()));
    match forced {
        None => ThrowCheck::Unbeatable,
        Some((unit, beaten_by)) => ThrowCheck::Fails {
            forced: unit.clone(),
            beaten_by,
        },
    }
}

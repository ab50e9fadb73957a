//! Combinations (第六条): units, their priority, the canonical decomposition of a set of
//! cards of one type, and the validation of a declared decomposition (拐拖/俘虏).

use std::collections::HashMap;
use std::fmt;

use super::error::TuolajiError;
use super::order::{CardType, Order};
use super::shape::Shape;
use crate::cards::{Card, CardCounts};

/// The kind of a unit (牌种). The derived order is the priority of 第十一条2(2):
/// longer triple-tractor > shorter triple-tractor > longer pair-tractor > shorter
/// pair-tractor > triple > pair > single.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnitKind {
    /// 单张: one card.
    Single,
    /// 对子: two identical cards.
    Pair,
    /// 刻子: three identical cards.
    Triple,
    /// 对拖: pairs in this many (≥ 2) consecutive slots.
    PairTractor(u8),
    /// 刻拖: triples in this many (≥ 2) consecutive slots.
    TripleTractor(u8),
}

impl UnitKind {
    /// Identical cards per slot: 1, 2 or 3.
    pub const fn width(self) -> u8 {
        match self {
            UnitKind::Single => 1,
            UnitKind::Pair | UnitKind::PairTractor(_) => 2,
            UnitKind::Triple | UnitKind::TripleTractor(_) => 3,
        }
    }

    /// Consecutive slots: 1, or a tractor's length.
    pub const fn length(self) -> u8 {
        match self {
            UnitKind::Single | UnitKind::Pair | UnitKind::Triple => 1,
            UnitKind::PairTractor(k) | UnitKind::TripleTractor(k) => k,
        }
    }

    /// How many cards a unit of this kind has.
    pub const fn card_count(self) -> usize {
        self.width() as usize * self.length() as usize
    }

    /// The kind with this width and length, if there is one (a tractor needs length ≥ 2).
    pub const fn from_shape(width: u8, length: u8) -> Option<UnitKind> {
        match (width, length) {
            (1, 1) => Some(UnitKind::Single),
            (2, 1) => Some(UnitKind::Pair),
            (3, 1) => Some(UnitKind::Triple),
            (2, k) if k >= 2 => Some(UnitKind::PairTractor(k)),
            (3, k) if k >= 2 => Some(UnitKind::TripleTractor(k)),
            _ => None,
        }
    }

    /// 第十一条2: this kind *fits* a lead unit of kind `lead` when neither its width nor its
    /// length is greater.
    pub const fn fits(self, lead: UnitKind) -> bool {
        self.width() <= lead.width() && self.length() <= lead.length()
    }

    /// 表1: the bottom multiplier of a last trick led with one unit of this kind:
    /// single ×2, pair ×3, triple ×4, k-pair-tractor ×(k+3), k-triple-tractor ×(2k+2).
    pub const fn bottom_multiplier(self) -> u32 {
        match self {
            UnitKind::Single => 2,
            UnitKind::Pair => 3,
            UnitKind::Triple => 4,
            UnitKind::PairTractor(k) => k as u32 + 3,
            UnitKind::TripleTractor(k) => 2 * k as u32 + 2,
        }
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitKind::Single => f.write_str("single"),
            UnitKind::Pair => f.write_str("pair"),
            UnitKind::Triple => f.write_str("triple"),
            UnitKind::PairTractor(k) => write!(f, "{k}-pair tractor"),
            UnitKind::TripleTractor(k) => write!(f, "{k}-triple tractor"),
        }
    }
}

/// Names a list of kinds for a message: "a pair", "a 2-pair tractor and 2 pairs".
pub fn describe_kinds(kinds: &[UnitKind]) -> String {
    let mut groups: Vec<(UnitKind, usize)> = Vec::new();
    for &kind in kinds {
        match groups.last_mut() {
            Some((k, n)) if *k == kind => *n += 1,
            _ => groups.push((kind, 1)),
        }
    }
    let parts: Vec<String> = groups
        .into_iter()
        .map(|(kind, n)| match n {
            1 => format!("a {kind}"),
            _ => format!("{n} {kind}s"),
        })
        .collect();
    match parts.split_last() {
        None => "nothing".to_owned(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// One unit (第六条 1–4): its kind, its cards (strongest slot first), its type and the slot
/// of its strongest cards.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    kind: UnitKind,
    card_type: CardType,
    top_slot: u8,
    cards: Vec<Card>,
}

impl Unit {
    /// Reads `cards` as one unit.
    ///
    /// # Errors
    /// [`TuolajiError::EmptyPlay`] for no cards, [`TuolajiError::MixedTypes`] when they mix
    /// types, [`TuolajiError::NotAUnit`] when they are not a single, pair, triple or
    /// tractor.
    pub fn new(order: &Order, cards: &[Card]) -> Result<Unit, TuolajiError> {
        let ty = one_type(order, cards)?;
        let shape = Shape::from_cards(order, ty, cards);
        let not_a_unit = || TuolajiError::NotAUnit {
            cards: cards.to_vec(),
        };
        let kind = shape.top_kind().ok_or_else(not_a_unit)?;
        if kind.card_count() != cards.len() {
            return Err(not_a_unit());
        }
        let inst = *shape.instances(kind).first().ok_or_else(not_a_unit)?;
        Ok(Unit {
            kind,
            card_type: ty,
            top_slot: inst.top,
            cards: shape.cards_of(&inst),
        })
    }

    /// Builds a unit the caller has already checked (from a shape's instance).
    pub(crate) fn from_parts(
        kind: UnitKind,
        card_type: CardType,
        top_slot: u8,
        cards: Vec<Card>,
    ) -> Unit {
        Unit {
            kind,
            card_type,
            top_slot,
            cards,
        }
    }

    /// The unit's kind.
    pub fn kind(&self) -> UnitKind {
        self.kind
    }

    /// The unit's cards, strongest slot first.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// The type all its cards share.
    pub fn card_type(&self) -> CardType {
        self.card_type
    }

    /// The slot of its strongest cards (a tractor's top).
    pub fn top_slot(&self) -> u8 {
        self.top_slot
    }
}

/// The one type of `cards`.
///
/// # Errors
/// [`TuolajiError::EmptyPlay`] for no cards, [`TuolajiError::MixedTypes`] for several types.
pub fn one_type(order: &Order, cards: &[Card]) -> Result<CardType, TuolajiError> {
    if cards.is_empty() {
        return Err(TuolajiError::EmptyPlay);
    }
    order
        .type_of(cards)
        .ok_or_else(|| TuolajiError::MixedTypes {
            cards: cards.to_vec(),
        })
}

/// 第六条, 第十一条2(2): the canonical decomposition of cards of one type: of all ways to
/// split them into units, the one whose kinds, sorted by priority, are lexicographically
/// greatest. Units come highest priority first; among splits with the same kinds, the one
/// found first with higher slots preferred.
///
/// # Errors
/// [`TuolajiError::EmptyPlay`] for no cards, [`TuolajiError::MixedTypes`] when they are not
/// all of one type.
pub fn decompose(order: &Order, cards: &[Card]) -> Result<Vec<Unit>, TuolajiError> {
    let ty = one_type(order, cards)?;
    let mut shape = Shape::from_cards(order, ty, cards);
    let mut memo = HashMap::new();
    best_split(&shape, &mut memo);
    let mut units = Vec::new();
    while let Some(kind) = shape.top_kind() {
        let pick = if kind <= UnitKind::Triple {
            0
        } else {
            memo.get(&shape.key(1, u8::MAX))
                .map_or(0, |(_, pick)| *pick)
        };
        let Some(inst) = shape.instances(kind).get(pick).copied() else {
            break;
        };
        units.push(Unit::from_parts(kind, ty, inst.top, shape.cards_of(&inst)));
        shape.take(&inst);
    }
    Ok(units)
}

/// The greatest sorted kind list of `shape`, memoising for each shape key the list and
/// which instance of the top kind reaches it. Without tractors the split is forced (every
/// pile is its own triple, pair or single), so only tractor choices branch.
fn best_split(shape: &Shape, memo: &mut HashMap<u128, (Vec<UnitKind>, usize)>) -> Vec<UnitKind> {
    let Some(kind) = shape.top_kind() else {
        return Vec::new();
    };
    if kind <= UnitKind::Triple {
        let mut rest = shape.clone();
        let mut kinds = Vec::new();
        while let Some(k) = rest.top_kind() {
            let Some(inst) = rest.instances(k).first().copied() else {
                break;
            };
            kinds.push(k);
            rest.take(&inst);
        }
        return kinds;
    }
    let key = shape.key(1, u8::MAX);
    if let Some((kinds, _)) = memo.get(&key) {
        return kinds.clone();
    }
    let mut best: Option<(Vec<UnitKind>, usize)> = None;
    for (i, inst) in shape.instances(kind).iter().enumerate() {
        let mut rest = shape.clone();
        rest.take(inst);
        let kinds = best_split(&rest, memo);
        if best.as_ref().is_none_or(|(b, _)| kinds > *b) {
            best = Some((kinds, i));
        }
    }
    let (rest, pick) = best.unwrap_or_default();
    let mut kinds = Vec::with_capacity(rest.len() + 1);
    kinds.push(kind);
    kinds.extend(rest);
    memo.insert(key, (kinds.clone(), pick));
    kinds
}

/// 第十一条1: checks a throw structure the leader declares (拐拖/俘虏) and returns its
/// units, highest priority first. Each declared unit must be a unit, all of one type,
/// together they must hold exactly `cards`, and no two or more of them may together form
/// one unit (`rules/tuolaji.md`: a declaration may not split a unit).
///
/// # Errors
/// [`TuolajiError::EmptyPlay`], [`TuolajiError::MixedTypes`], [`TuolajiError::NotAUnit`]
/// for a declared unit that is none, [`TuolajiError::DecompositionMismatch`] when the
/// declared units do not hold exactly the cards played,
/// [`TuolajiError::DeclarationSplitsUnit`] when some of them form one unit.
pub fn validate_decomposition(
    order: &Order,
    cards: &[Card],
    declared: &[Vec<Card>],
) -> Result<Vec<Unit>, TuolajiError> {
    one_type(order, cards)?;
    let all: Vec<Card> = declared.iter().flatten().copied().collect();
    let played: CardCounts = cards.iter().copied().collect();
    if all.iter().copied().collect::<CardCounts>() != played {
        return Err(TuolajiError::DecompositionMismatch {
            declared: all,
            played: cards.to_vec(),
        });
    }
    let mut units = declared
        .iter()
        .map(|u| Unit::new(order, u))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(unit) = super::declare::merged_unit(order, &units) {
        return Err(TuolajiError::DeclarationSplitsUnit { unit });
    }
    sort_by_priority(&mut units);
    Ok(units)
}

/// Sorts units highest priority first, then by top slot, highest first.
pub fn sort_by_priority(units: &mut [Unit]) {
    units.sort_by_key(|u| std::cmp::Reverse((u.kind, u.top_slot)));
}

/// 第十二条: splits `cards` (all of one type) into units of exactly `kinds` (in any order),
/// if possible. Of all such splits it returns one whose highest-priority unit has the
/// highest top slot, which is what two ruffs are compared by; units come in the order of
/// `kinds` sorted by priority.
pub fn split_into_kinds(order: &Order, cards: &[Card], kinds: &[UnitKind]) -> Option<Vec<Unit>> {
    let ty = order.type_of(cards)?;
    let mut kinds = kinds.to_vec();
    kinds.sort_by_key(|&k| std::cmp::Reverse(k));
    if kinds.iter().map(|k| k.card_count()).sum::<usize>() != cards.len() {
        return None;
    }
    let shape = Shape::from_cards(order, ty, cards);
    let mut failed = std::collections::HashSet::new();
    let mut units = Vec::with_capacity(kinds.len());
    split_rec(&shape, &kinds, &mut failed, &mut units).then_some(units)
}

/// Places `kinds[0]`, highest instance first, then the rest; remembers dead ends.
fn split_rec(
    shape: &Shape,
    kinds: &[UnitKind],
    failed: &mut std::collections::HashSet<(u128, usize)>,
    units: &mut Vec<Unit>,
) -> bool {
    let Some((&kind, rest)) = kinds.split_first() else {
        return shape.total() == 0;
    };
    if kind == UnitKind::Single {
        let singles = shape.slotted();
        if singles.len() != kinds.len() {
            return false;
        }
        for (slot, card) in singles {
            units.push(Unit::from_parts(kind, shape.card_type(), slot, vec![card]));
        }
        return true;
    }
    let key = (shape.key(1, u8::MAX), kinds.len());
    if failed.contains(&key) {
        return false;
    }
    for inst in shape.instances(kind) {
        let mut next = shape.clone();
        next.take(&inst);
        units.push(Unit::from_parts(
            kind,
            shape.card_type(),
            inst.top,
            shape.cards_of(&inst),
        ));
        if split_rec(&next, rest, failed, units) {
            return true;
        }
        units.pop();
    }
    failed.insert(key);
    false
}

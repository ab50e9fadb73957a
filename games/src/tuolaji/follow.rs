//! Following (第十一条2): the `match()` of the rules page, follow legality with
//! explanations, a fast suggested follow and candidate follows for bots.
//!
//! `match(H)` takes the lead units in priority order and fills each with the highest-priority
//! unit of H that *fits* it (width and length no greater, and no more cards than are still
//! free in it), until it is full or nothing but singles fit; the kinds taken form a record,
//! and `match(H)` is the lexicographically greatest record over every choice of concrete
//! cards. A follow P is legal iff `match(P) = match(H_X)`.
//!
//! The search works on shapes (cards by slot and pile): the record from a state depends
//! only on the shape's structure (its key), the lead unit being filled and the room left in
//! it, so results are memoised. Choices only matter while a tractor is still to be filled:
//! when every lead unit left has length 1, sorting the lead by priority means triples are
//! only taken while triple units are filled and every pair is as good as any other, so one
//! instance is enough. Where choices matter, a branch-and-bound search tries the most
//! promising first and skips any whose upper bound (the record if no card were ever used
//! up) cannot beat the best found. A play P ⊆ H_X can never do better than `match(H_X)`,
//! so checking P only asks whether it *reaches* that record, which prunes even more.

use std::collections::{HashMap, HashSet};

use super::combination::{Unit, UnitKind};
use super::error::TuolajiError;
use super::order::{CardType, Order};
use super::shape::{Instance, Shape};
use crate::cards::{Card, CardCounts, Points};

/// The memo key: shape key, lead unit index, room left in it.
type StateKey = (u128, usize, usize);

/// The next kind `match()` takes from a state.
#[derive(Clone, Copy)]
struct Step {
    /// The lead unit being filled and the room left in it.
    at: (usize, usize),
    /// The kind taken.
    kind: UnitKind,
    /// The lead unit and room after taking it.
    next: (usize, usize),
}

/// A step with the instances worth trying.
struct Decision {
    step: Step,
    /// The concrete units of the step's kind.
    instances: Vec<Instance>,
    /// Whether the choice among `instances` can change the record.
    branches: bool,
}

/// `match()` for one lead, with its memo.
struct Matcher {
    /// The lead's unit kinds, highest priority first.
    lead: Vec<UnitKind>,
    /// Best record from a state.
    memo: HashMap<StateKey, Vec<UnitKind>>,
}

impl Matcher {
    fn new(lead: &[Unit]) -> Matcher {
        let mut kinds: Vec<UnitKind> = lead.iter().map(Unit::kind).collect();
        kinds.sort_by_key(|&k| std::cmp::Reverse(k));
        Matcher {
            lead: kinds,
            memo: HashMap::new(),
        }
    }

    fn start(&self) -> (usize, usize) {
        (0, self.lead.first().map_or(0, |k| k.card_count()))
    }

    /// Skips lead units that are full or where only singles fit, and names the next kind
    /// taken: where it is taken (lead unit, room), the kind, and where it leaves the search.
    /// `None` when the record is complete.
    fn next_kind(&self, shape: &Shape, (mut j, mut room): (usize, usize)) -> Option<Step> {
        loop {
            let lead = *self.lead.get(j)?;
            if let Some(kind) = shape.top_kind_within(2, lead.width(), lead.length(), room) {
                let left = room - kind.card_count();
                let next = if left == 0 {
                    (j + 1, self.lead.get(j + 1).map_or(0, |k| k.card_count()))
                } else {
                    (j, left)
                };
                return Some(Step {
                    at: (j, room),
                    kind,
                    next,
                });
            }
            j += 1;
            room = self.lead.get(j)?.card_count();
        }
    }

    /// The next step with the instances worth trying.
    fn decide(&self, shape: &Shape, at: (usize, usize)) -> Option<Decision> {
        let step = self.next_kind(shape, at)?;
        let (j, room) = step.at;
        let rest_simple = self
            .lead
            .get(j..)
            .unwrap_or(&[])
            .iter()
            .all(|k| k.length() == 1);
        let nothing_after = room - step.kind.card_count() < 2 && j + 1 == self.lead.len();
        Some(Decision {
            instances: shape.instances(step.kind),
            branches: !(rest_simple || nothing_after),
            step,
        })
    }

    /// An upper bound of the record from `shape` at `at`: the kinds taken when nothing is
    /// ever removed. At each step the true kind can only be lower (fewer cards hold fewer
    /// units), and it can only stop earlier (a kind fitting later needs a pair, which would
    /// fit now), so the true record is never lexicographically greater.
    fn bound(&self, shape: &Shape, mut at: (usize, usize)) -> Vec<UnitKind> {
        let mut out = Vec::new();
        while let Some(step) = self.next_kind(shape, at) {
            out.push(step.kind);
            at = step.next;
        }
        out
    }

    /// The memo key of a state. Once no lead unit left is three wide, a pile of three is
    /// as good as a pair, so both count as two.
    fn key(&self, shape: &Shape, (j, room): (usize, usize)) -> StateKey {
        let triples = self
            .lead
            .get(j..)
            .unwrap_or(&[])
            .iter()
            .any(|k| k.width() == 3);
        (shape.key(2, if triples { 3 } else { 2 }), j, room)
    }

    /// The children of a branching decision, the most promising (highest bound) first.
    fn children(&self, shape: &Shape, d: &Decision) -> Vec<(Vec<UnitKind>, Shape)> {
        let mut kids: Vec<(Vec<UnitKind>, Shape)> = d
            .instances
            .iter()
            .map(|inst| {
                let mut rest = shape.clone();
                rest.take(inst);
                (self.bound(&rest, d.step.next), rest)
            })
            .collect();
        kids.sort_by(|a, b| b.0.cmp(&a.0));
        kids
    }

    /// The greatest record from `shape` at `at` (branch and bound over the choices).
    fn best(&mut self, shape: &Shape, at: (usize, usize)) -> Vec<UnitKind> {
        let Some(d) = self.decide(shape, at) else {
            return Vec::new();
        };
        if !d.branches {
            let Some(inst) = d.instances.first() else {
                return Vec::new();
            };
            let mut rest = shape.clone();
            rest.take(inst);
            let mut record = vec![d.step.kind];
            record.extend(self.best(&rest, d.step.next));
            return record;
        }
        let key = self.key(shape, d.step.at);
        if let Some(record) = self.memo.get(&key) {
            return record.clone();
        }
        let mut best: Option<Vec<UnitKind>> = None;
        for (bound, rest) in self.children(shape, &d) {
            if best.as_ref().is_some_and(|b| bound <= *b) {
                break;
            }
            let tail = self.best(&rest, d.step.next);
            if best.as_ref().is_none_or(|b| tail > *b) {
                best = Some(tail);
            }
        }
        let mut record = vec![d.step.kind];
        record.extend(best.unwrap_or_default());
        self.memo.insert(key, record.clone());
        record
    }

    /// Whether some choice in `shape` from `at` records exactly `target` (a record known to
    /// be at least as great as any `shape` can make, such as the holding's `match()`).
    /// Children whose bound falls short of `target` are never searched; dead ends are
    /// remembered in `failed`.
    fn reaches(
        &mut self,
        shape: &Shape,
        at: (usize, usize),
        target: &[UnitKind],
        failed: &mut HashSet<(StateKey, usize)>,
    ) -> bool {
        let Some(d) = self.decide(shape, at) else {
            return target.is_empty();
        };
        let Some((&first, need)) = target.split_first() else {
            return false;
        };
        if first != d.step.kind {
            return false;
        }
        if !d.branches {
            let Some(inst) = d.instances.first() else {
                return false;
            };
            let mut rest = shape.clone();
            rest.take(inst);
            return self.reaches(&rest, d.step.next, need, failed);
        }
        let key = (self.key(shape, d.step.at), need.len());
        if failed.contains(&key) {
            return false;
        }
        for (bound, rest) in self.children(shape, &d) {
            if bound[..] < *need {
                break;
            }
            if self.reaches(&rest, d.step.next, need, failed) {
                return true;
            }
        }
        failed.insert(key);
        false
    }

    /// `match(shape)` and the cards of one choice reaching it.
    fn record_and_witness(&mut self, shape: &Shape) -> (Vec<UnitKind>, Vec<Card>) {
        let record = self.best(shape, self.start());
        let mut rest = shape.clone();
        let mut at = self.start();
        let mut cards = Vec::new();
        while let Some(d) = self.decide(&rest, at) {
            let need = self.best(&rest, at);
            let need = need.get(1..).unwrap_or(&[]);
            let mut pick = d.instances.first().copied();
            if d.branches {
                pick = None;
                for inst in &d.instances {
                    let mut child = rest.clone();
                    child.take(inst);
                    if self.bound(&child, d.step.next)[..] >= *need
                        && self.best(&child, d.step.next)[..] == *need
                    {
                        pick = Some(*inst);
                        break;
                    }
                }
            }
            let Some(inst) = pick else {
                break;
            };
            cards.extend(rest.cards_of(&inst));
            rest.take(&inst);
            at = d.step.next;
        }
        (record, cards)
    }

    /// Every choice of concrete units reaching the greatest record from `shape` (up to
    /// interchangeable piles), at most `limit` of them, each as the cards taken.
    fn witnesses(&mut self, shape: &Shape, at: (usize, usize), limit: usize) -> Vec<Vec<Card>> {
        let Some(d) = self.decide(shape, at) else {
            return vec![Vec::new()];
        };
        let target = self.best(shape, at);
        let mut out = Vec::new();
        for inst in &d.instances {
            if out.len() >= limit {
                break;
            }
            let mut rest = shape.clone();
            rest.take(inst);
            let need = target.get(1..).unwrap_or(&[]);
            if d.branches
                && (self.bound(&rest, d.step.next)[..] < *need
                    || self.best(&rest, d.step.next)[..] != *need)
            {
                continue;
            }
            let taken = shape.cards_of(inst);
            for tail in self.witnesses(&rest, d.step.next, limit - out.len()) {
                let mut cards = taken.clone();
                cards.extend(tail);
                out.push(cards);
            }
        }
        out
    }
}

/// `match()` of the rules page: the greatest record of unit kinds `cards` (all of the led
/// type) can put against `lead` (第十一条2(2)).
pub fn match_record(order: &Order, lead: &[Unit], cards: &[Card]) -> Vec<UnitKind> {
    let Some(ty) = lead.first().map(Unit::card_type) else {
        return Vec::new();
    };
    let shape = Shape::from_cards(order, ty, cards);
    let mut matcher = Matcher::new(lead);
    let at = matcher.start();
    matcher.best(&shape, at)
}

/// 第十一条2: checks a follow of `play` from `holding` to a lead of `lead`'s units.
///
/// # Errors
/// [`TuolajiError::EmptyPlay`] for an empty lead, [`TuolajiError::WrongCount`],
/// [`TuolajiError::NotHeld`], [`TuolajiError::MustFollowType`] (holding at least n cards of
/// the led type, play n of them), [`TuolajiError::MustPlayAllOfType`] (holding fewer, play
/// all), [`TuolajiError::MustMatchStructure`] (the structure is not matched as closely as
/// the follower's cards allow; the error names what was required and cards that do it).
pub fn check_follow(
    order: &Order,
    lead: &[Unit],
    holding: &CardCounts,
    play: &[Card],
) -> Result<(), TuolajiError> {
    let ty = lead
        .first()
        .map(Unit::card_type)
        .ok_or(TuolajiError::EmptyPlay)?;
    let n: usize = lead.iter().map(|u| u.cards().len()).sum();
    if play.len() != n {
        return Err(TuolajiError::WrongCount {
            required: n,
            played: play.len(),
        });
    }
    let played: CardCounts = play.iter().copied().collect();
    if !holding.contains(&played) {
        let mut left = holding.clone();
        let cards = play.iter().copied().filter(|&c| !left.remove(c)).collect();
        return Err(TuolajiError::NotHeld { cards });
    }
    let held = Shape::from_counts(order, ty, holding);
    let held_n = held.total();
    let played_x: Vec<Card> = play
        .iter()
        .copied()
        .filter(|&c| order.card_type(c) == ty)
        .collect();
    if held_n >= n && played_x.len() < n {
        return Err(TuolajiError::MustFollowType {
            ty,
            required: n,
            held: held_n,
        });
    }
    if held_n < n && played_x.len() < held_n {
        return Err(TuolajiError::MustPlayAllOfType {
            ty,
            held: held.slotted().into_iter().map(|(_, c)| c).collect(),
        });
    }
    if held_n <= n {
        return Ok(());
    }
    let mut matcher = Matcher::new(lead);
    let at = matcher.start();
    let required = matcher.best(&held, at);
    let played = Shape::from_cards(order, ty, &played_x);
    if matcher.reaches(&played, at, &required, &mut HashSet::new()) {
        return Ok(());
    }
    let (required, witness) = matcher.record_and_witness(&held);
    Err(TuolajiError::MustMatchStructure {
        ty,
        required,
        held: witness,
    })
}

/// The cards a follower gives away most willingly: lowest slot, no points, trumps last.
fn filler_rank(order: &Order, card: Card) -> (bool, bool, u8) {
    (order.is_trump(card), card.points() > 0, order.slot(card))
}

/// A legal follow of `lead` from `holding`, found fast: the structure `match()` requires,
/// then the cheapest other cards of the led type, then (when short of it) the cheapest
/// other cards. Empty only when the lead is empty or the holding too small.
pub fn suggest_follow(order: &Order, lead: &[Unit], holding: &CardCounts) -> Vec<Card> {
    let Some(ty) = lead.first().map(Unit::card_type) else {
        return Vec::new();
    };
    let n: usize = lead.iter().map(|u| u.cards().len()).sum();
    let held = Shape::from_counts(order, ty, holding);
    let mut play = if held.total() > n {
        Matcher::new(lead).record_and_witness(&held).1
    } else {
        Vec::new()
    };
    fill(order, ty, holding, n, &mut play);
    play
}

/// Completes `play` to `n` cards: first with the cheapest remaining cards of type `ty`,
/// then with the cheapest others.
fn fill(order: &Order, ty: CardType, holding: &CardCounts, n: usize, play: &mut Vec<Card>) {
    let mut left = holding.clone();
    for &c in play.iter() {
        left.remove(c);
    }
    let mut rest = left.to_vec();
    rest.sort_by_cached_key(|&c| (order.card_type(c) != ty, filler_rank(order, c)));
    let need = n.saturating_sub(play.len());
    play.extend(rest.into_iter().take(need));
}

/// Up to `limit` distinct legal follows of `lead` from `holding`, the suggested one first:
/// every way to make the structure `match()` requires, each completed with several choices
/// of the remaining cards. Meant for bots choosing among candidates.
pub fn candidate_follows(
    order: &Order,
    lead: &[Unit],
    holding: &CardCounts,
    limit: usize,
) -> Vec<Vec<Card>> {
    let Some(ty) = lead.first().map(Unit::card_type) else {
        return Vec::new();
    };
    let n: usize = lead.iter().map(|u| u.cards().len()).sum();
    let mut out: Vec<Vec<Card>> = Vec::new();
    let mut seen = HashSet::new();
    let mut push = |mut play: Vec<Card>, out: &mut Vec<Vec<Card>>| {
        play.sort();
        if out.len() < limit && seen.insert(play.clone()) {
            out.push(play);
        }
    };
    push(suggest_follow(order, lead, holding), &mut out);
    let held = Shape::from_counts(order, ty, holding);
    let cores = if held.total() > n {
        let mut matcher = Matcher::new(lead);
        let at = matcher.start();
        matcher.witnesses(&held, at, limit)
    } else {
        vec![held.slotted().into_iter().map(|(_, c)| c).collect()]
    };
    let per_core = limit.div_ceil(cores.len().max(1)).max(1);
    for core in cores {
        let mut left = holding.clone();
        for &c in &core {
            left.remove(c);
        }
        let pool: Vec<Card> = if held.total() > n {
            Shape::from_counts(order, ty, &left)
                .slotted()
                .into_iter()
                .map(|(_, c)| c)
                .collect()
        } else {
            left.to_vec()
        };
        let mut pool: Vec<(Card, u8)> = pool
            .iter()
            .copied()
            .collect::<CardCounts>()
            .iter()
            .collect();
        pool.sort_by_key(|&(c, _)| filler_rank(order, c));
        let mut fillers = Vec::new();
        combinations(
            &pool,
            n.saturating_sub(core.len()),
            per_core,
            &mut Vec::new(),
            &mut fillers,
        );
        for filler in fillers {
            let mut play = core.clone();
            play.extend(filler);
            push(play, &mut out);
        }
        if out.len() >= limit {
            break;
        }
    }
    out
}

/// Up to `limit` multisets of `k` cards from `pool` (distinct cards with counts), in order
/// of the pool.
fn combinations(
    pool: &[(Card, u8)],
    k: usize,
    limit: usize,
    current: &mut Vec<Card>,
    out: &mut Vec<Vec<Card>>,
) {
    if out.len() >= limit {
        return;
    }
    if k == 0 {
        out.push(current.clone());
        return;
    }
    let Some((&(card, count), rest)) = pool.split_first() else {
        return;
    };
    let available: usize = pool.iter().map(|&(_, n)| usize::from(n)).sum();
    if available < k {
        return;
    }
    for take in (0..=usize::from(count).min(k)).rev() {
        current.extend(std::iter::repeat_n(card, take));
        combinations(rest, k - take, limit, current, out);
        current.truncate(current.len() - take);
    }
}

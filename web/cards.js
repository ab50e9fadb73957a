// Tuolaji cards as the wire writes them ("Ts", "2h", "SJ", "BJ") and their order for one
// hand (rules/tuolaji.md, 第四条, 第五条): trumps are the jokers, every level-rank card and the
// trump suit; each other suit is a type of its own. Used to sort and group the hand (the bids
// the page offers are the ones the server sends, the view's `legal_bids`).

import { t } from "./i18n.js";

export const RANKS = "23456789TJQKA";
export const SUITS = ["s", "h", "c", "d"];
export const SUIT_SYMBOLS = { s: "♠", h: "♥", c: "♣", d: "♦" };
const RANK_NAMES = { T: "10" };

/** { rank, suit } of a card; jokers have rank "SJ"/"BJ" and suit null. */
export function parseCard(card) {
  if (card === "SJ" || card === "BJ") return { rank: card, suit: null };
  return { rank: card[0], suit: card[1] };
}

/** How the card is written for people: "10♥", "A♠", "小王", "大王" (in either language). */
export function cardLabel(card) {
  if (card === "BJ") return t("card.big_joker");
  if (card === "SJ") return t("card.small_joker");
  const { rank, suit } = parseCard(card);
  return `${RANK_NAMES[rank] ?? rank}${SUIT_SYMBOLS[suit]}`;
}

/** Whether the card is red (hearts, diamonds, big joker) for drawing. */
export function isRed(card) {
  return card === "BJ" || card[1] === "h" || card[1] === "d";
}

/** 第五条: the card's type — "trump", or its suit. Before the trump suit is fixed only the
 * jokers and the level cards are trumps. */
export function cardType(card, trump, level) {
  const { rank, suit } = parseCard(card);
  if (suit === null || rank === level || suit === trump) return "trump";
  return suit;
}

/** The card's strength within its type: higher beats lower (equal level cards tie). */
export function strength(card, trump, level) {
  const { rank, suit } = parseCard(card);
  if (rank === "BJ") return 100;
  if (rank === "SJ") return 99;
  if (rank === level) return suit === trump ? 98 : 97;
  return RANKS.indexOf(rank);
}

const TYPE_ORDER = ["trump", "s", "h", "c", "d"];

/**
 * The hand sorted for display: trumps first, then spades, hearts, clubs, diamonds; strongest
 * first within a type; off-suit level cards by suit. Returns [{ type, cards }] per type held.
 */
export function groupHand(cards, trump, level) {
  const groups = new Map(TYPE_ORDER.map((t) => [t, []]));
  for (const card of cards) groups.get(cardType(card, trump, level)).push(card);
  const suitRank = (c) => { const s = parseCard(c).suit; return s === null ? -1 : SUITS.indexOf(s); };
  const out = [];
  for (const [type, list] of groups) {
    if (!list.length) continue;
    list.sort((a, b) => strength(b, trump, level) - strength(a, trump, level) || suitRank(a) - suitRank(b));
    out.push({ type, cards: list });
  }
  return out;
}

/** A team level (2–14, past A above) as people write it. */
export function levelName(level) {
  if (level > 14) return t("level.past_a");
  return { 10: "10", 11: "J", 12: "Q", 13: "K", 14: "A" }[level] ?? String(level);
}

// The Tuolaji card order the page sorts the hand by (rules/tuolaji.md, 第四条, 第五条) and the
// names it shows (the bids it offers are the server's, in the view's `legal_bids`).

import { test } from "node:test";
import assert from "node:assert/strict";
import { cardType, groupHand, cardLabel, levelName } from "../../web/cards.js";

test("trumps are the jokers, every level card and the trump suit", () => {
  assert.equal(cardType("BJ", "h", "5"), "trump");
  assert.equal(cardType("5s", "h", "5"), "trump", "an off-suit level card");
  assert.equal(cardType("3h", "h", "5"), "trump");
  assert.equal(cardType("Ah", null, "5"), "h", "no trump suit yet");
  assert.equal(cardType("5c", null, "5"), "trump", "level cards are trumps before the suit is fixed");
});

test("the hand is grouped trumps first, strongest first within a type", () => {
  const hand = ["3h", "Ks", "5s", "SJ", "5h", "Ah", "2c", "BJ", "Ts", "5h"];
  const groups = groupHand(hand, "h", "5");
  assert.deepEqual(groups.map((g) => g.type), ["trump", "s", "c"]);
  assert.deepEqual(groups[0].cards, ["BJ", "SJ", "5h", "5h", "5s", "Ah", "3h"]);
  assert.deepEqual(groups[1].cards, ["Ks", "Ts"]);
});

test("cards and levels read as people write them", () => {
  assert.equal(cardLabel("Th"), "10♥");
  assert.equal(cardLabel("BJ"), "大王");
  assert.equal(levelName(14), "A");
  assert.equal(levelName(15), "past A");
});

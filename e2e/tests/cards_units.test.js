// The Tuolaji card order the page sorts the hand by (rules/tuolaji.md, 第四条, 第五条) and the
// bids it offers from the cards held (第十条).

import { test } from "node:test";
import assert from "node:assert/strict";
import { cardType, groupHand, possibleBids, cardLabel, levelName } from "../../web/cards.js";

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

test("bids: any first bid, more of the same to strengthen, strictly more to counter", () => {
  const hand = ["2h", "2h", "2s", "Kd", "2d", "2d", "2d"];
  assert.deepEqual(possibleBids(hand, "2", [], 0).map((b) => b.join(" ")),
    ["2s", "2h", "2h 2h", "2d", "2d 2d", "2d 2d 2d"]);
  const one = [{ seat: 0, suit: "h", kind: "bid", cards: ["2h"] }];
  assert.deepEqual(possibleBids(hand, "2", one, 0).map((b) => b.join(" ")), ["2h 2h"], "strengthen in hearts only");
  assert.deepEqual(possibleBids(hand, "2", one, 1).map((b) => b.join(" ")), ["2h 2h", "2d 2d", "2d 2d 2d"], "counter with 2 or more");
  const three = [{ seat: 3, suit: "c", kind: "bid", cards: ["2c", "2c", "2c"] }];
  assert.deepEqual(possibleBids(hand, "2", three, 1), [], "three cannot be countered");
  assert.deepEqual(possibleBids(["Kd", "BJ"], "2", [], 1), [], "jokers never bid");
});

test("cards and levels read as people write them", () => {
  assert.equal(cardLabel("Th"), "10♥");
  assert.equal(cardLabel("BJ"), "大王");
  assert.equal(levelName(14), "A");
  assert.equal(levelName(15), "past A");
});

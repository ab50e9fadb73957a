// A person leads a throw that can be made up in more than one way (第十一条1): the server
// refuses it undeclared with `declare_structure` and lists the splits, the page shows them
// as groups of cards, the person picks one, and the lead goes out declared. Three of the
// server's bots fill the table; the deal is seeded (seed 696 gives the person three ♠2, a bid
// nobody can counter, and ♠TTT JJ, a throw with two splits). The person bids the strongest
// bid the page offers, so deals and leads the first trick. Whenever the person leads, the
// test looks for a triple next to a pair of one suit in the hand (always two ways to split),
// and failing that throws the person's longest suit; other plays take the page's suggestion.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, personPage, enterLobby, shot, sleep, putBackSuggested } from "../harness.js";

const T = "tuolaji_declare";
const env = serverAndBrowser({
    QIPAI_TUOLAJI__DEAL_INTERVAL_MS: "0",
    QIPAI_TUOLAJI__TRICK_PAUSE_MS: "0",
    QIPAI_TUOLAJI__BID_WINDOW_MS: "2000",
    QIPAI_TUOLAJI__BETWEEN_HANDS_MS: "500",
  }, undefined, { tuolajiSeed: 696 });

/** The hand as the page shows it: per type group, its cards with their data-index. */
function groups(page) {
  return page.evaluate(() => [...document.querySelectorAll("#hand .tl-group")].map((g) =>
    [...g.querySelectorAll(".card")].map((c) => ({ card: c.dataset.card, index: Number(c.dataset.index) }))));
}

/** The key under which a throw is remembered as tried. */
const keyOf = (cards) => cards.map((c) => c.card).join();

/** A throw to try: a triple and a pair of neighbouring cards in one group, else the longest
 * group; never one tried before. Neighbours on the page need not be neighbours in rank (a
 * level card between them, two off-suit level cards side by side), so a pick that went out
 * without being asked about is remembered and not tried again: the hand may keep it for the
 * rest of the hand, and the test would otherwise lead it at every turn. */
function pickThrow(hand, tried) {
  for (const g of hand) {
    const runs = [];
    for (const c of g) {
      if (runs.length && runs.at(-1).card === c.card) runs.at(-1).items.push(c);
      else runs.push({ card: c.card, items: [c] });
    }
    for (let i = 0; i + 1 < runs.length; i++) {
      const [a, b] = [runs[i].items.length, runs[i + 1].items.length];
      if ((a === 3 && b >= 2) || (a >= 2 && b === 3)) {
        const pick = [...runs[i].items.slice(0, a === 3 ? 3 : 2), ...runs[i + 1].items.slice(0, a === 3 ? 2 : 3)];
        if (!tried.has(keyOf(pick))) return pick;
      }
    }
  }
  const left = hand.filter((g) => g.length > 1 && !tried.has(keyOf(g))).sort((x, y) => y.length - x.length);
  return left[0] ?? null;
}

test("a throw that needs a declaration is declared through the page", { timeout: 240000 }, async () => {
  const person = await personPage(env.browser);
  person.setDefaultTimeout(5000);
  await enterLobby(person, env.server.url, "Li");
  await person.click("text=New Tuolaji table with its rules");
  await person.selectOption("#tl-turn", "60000");
  await person.check("#tl-bots");
  await person.click("#btn-create-tuolaji");
  await person.waitForSelector("#table:not([hidden])");

  const tried = new Set();
  let declared = null;
  let bid = false;
  for (let i = 0; i < 6000 && !declared; i++) {
    if (!bid && await person.locator(".bid").count()) {
      const offers = await person.$$eval(".bid", (els) => els.map((e) => e.dataset.bid.split(" ").length));
      await person.locator(".bid").nth(offers.indexOf(Math.max(...offers))).click();
      bid = true;
    } else if (await person.locator("[data-suit]").count()) {
      await person.locator("[data-suit]").first().click();
    } else if (await person.locator("#btn-put-back").count()) {
      await putBackSuggested(person);
    } else if (await person.locator("#btn-play").count()) {
      const leading = /Your lead/.test(await person.textContent("#tl-actions"));
      const pick = leading ? pickThrow(await groups(person), tried) : null;
      if (pick) {
        // Cards overlap to the right and a selected card rises: press each card at the
        // bottom of its visible left edge.
        for (const { index } of pick) {
          const card = person.locator(`#hand .card[data-index="${index}"]`);
          const box = await card.boundingBox();
          await card.click({ position: { x: 4, y: box.height - 5 } });
        }
        await person.click("#btn-play:not([disabled])");
        const asked = await person.waitForSelector(".tl-declare", { timeout: 1500 }).catch(() => null);
        tried.add(keyOf(pick));
        if (asked) {
          await shot(person, T, "01-choose-a-split");
          const splits = await person.locator(".tl-declare .tl-split").count();
          assert.ok(splits >= 2, `the page offers the splits (${splits})`);
          // Each split shows its units as groups of cards holding all the thrown cards.
          const first = await person.evaluate(() => [...document.querySelectorAll(".tl-declare .tl-split")][0]
            .querySelectorAll(".tl-unit").length);
          assert.ok(first >= 2);
          const cards = await person.evaluate(() => [...document.querySelectorAll(".tl-declare .tl-split")][0]
            .querySelectorAll(".card").length);
          assert.equal(cards, pick.length);
          const held = await person.locator("#hand .card").count();
          await person.locator(".tl-declare .tl-split").first().click();
          // The declared lead went out: the cards left the hand and the panel closed.
          await person.waitForFunction((n) => document.querySelectorAll("#hand .card").length < n, held);
          assert.equal(await person.locator(".tl-declare").count(), 0);
          await shot(person, T, "02-declared-lead");
          declared = pick.map((c) => c.card);
        }
      } else {
        await person.click("#btn-hint");
        await person.click("#btn-play:not([disabled])").catch(() => {});
      }
    }
    await sleep(40);
  }
  assert.ok(declared, "the person led a throw that needed a declaration");
  console.log(`declared throw: ${declared.join(" ")}`);
  assert.deepEqual(person.errors, []);
});

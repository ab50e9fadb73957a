// The Tuolaji table as a Chinese player sees it, on a 390×844 phone and on a desktop: a
// person opens a table with three bots (seeded deal: the person bids and deals) and
// - exchanges the bottom holding 45 cards (the six from the bottom marked): every card is on screen and takes a tap without
//   scrolling the page, every overlapped "10" reads "10", 扣底 sits under the thumb and
//   离开 far from it;
// - plays tricks: each finished trick stays on the table with all four plays and its
//   winner marked (赢墩) while the server holds the next lead (`trick_pause_ms`), recorded
//   by a MutationObserver in the page, not by sampling with sleeps;
// - leaves: the first click only arms 离开, the second leaves.
// Screenshots into artifacts/tuolaji_table/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, personPage, shot, sleep, describePage } from "../harness.js";

const T = "tuolaji_table";
const PAUSE_MS = 1500;
const env = serverAndBrowser({
  QIPAI_TUOLAJI__DEAL_INTERVAL_MS: "30",
  QIPAI_TUOLAJI__TRICK_PAUSE_MS: String(PAUSE_MS),
  QIPAI_TUOLAJI__BID_WINDOW_MS: "4000",
  QIPAI_TUOLAJI__BETWEEN_HANDS_MS: "60000",
}, undefined, { tuolajiSeed: 7 });

const FORMS = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true },
  desktop: { viewport: { width: 1280, height: 860 } },
};

/** A Chinese browser's page at a new table with three bots, as `name`. */
async function seatedWithBots(form, name) {
  const page = await personPage(env.browser, { lang: null, locale: "zh-CN", ...FORMS[form] });
  await page.goto(env.server.url);
  await page.fill("#name-input", name);
  await page.click("#btn-name");
  await page.waitForSelector('#conn-state[data-state="online"]');
  await page.click("#tuolaji-play summary");
  await page.selectOption("#tl-turn", "60000");
  await page.check("#tl-bots");
  await page.click("#btn-create-tuolaji");
  await page.waitForSelector("#table:not([hidden])");
  await page.waitForFunction(() => document.querySelectorAll(".tl-seat .badge.bot").length === 3);
  return page;
}

/**
 * Bids through the deal until the person holds the bid (with seed 7 their level cards are
 * spades: a bid in spades stands; any suit once the deal is over), then waits for the
 * bottom: the person deals and holds 45 cards.
 */
async function bidAndTakeTheBottom(page, name) {
  for (let i = 0; i < 2000; i++) {
    if (await page.locator("#btn-put-back").count()) return;
    // The table redraws on every dealt card: press the bid in the page as soon as it shows.
    await page.evaluate((name) => {
      const mine = [...document.querySelectorAll(".tl-bid")].at(-1)?.textContent.startsWith(name) ?? false;
      if (mine) return;
      const last = /最后叫主机会/.test(document.querySelector("#tl-phase")?.textContent ?? "");
      const button = document.querySelector('[data-bid^="2s"]:not([disabled])') ??
        (last ? document.querySelector("[data-bid]:not([disabled])") : null);
      button?.click();
    }, name);
    await sleep(30);
  }
  throw new Error(`the person never held the bottom: ${await describePage(page)}`);
}

/** Every card of the hand, with the point a finger can tap (its visible left strip). */
function handGeometry(page) {
  return page.evaluate(() => {
    const cards = [...document.querySelectorAll("#hand [data-index]")];
    return {
      innerWidth, innerHeight, scrollY,
      scrollable: document.scrollingElement.scrollHeight > innerHeight + 1,
      cards: cards.map((el) => {
        const r = el.getBoundingClientRect();
        const next = el.nextElementSibling?.matches("[data-index]") ? el.nextElementSibling.getBoundingClientRect() : null;
        // The part of the card the next one does not cover.
        const right = next && next.top === r.top ? Math.min(r.right, next.left) : r.right;
        const x = (r.left + right) / 2;
        const y = r.top + r.height * 0.6;
        const hit = document.elementFromPoint(x, y)?.closest("[data-index]");
        const rank = el.querySelector(".rank");
        const rr = rank.getBoundingClientRect();
        const rankHit = document.elementFromPoint(rr.right - 1, rr.top + rr.height / 2)?.closest("[data-index]");
        return {
          index: el.dataset.index, card: el.dataset.card, x, y,
          inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
          reachable: hit === el, rank: rank.textContent, rankWhole: rankHit === el,
        };
      }),
    };
  });
}

/** The rectangle of `selector` in the viewport. */
const rect = (page, selector) => page.$eval(selector, (el) => {
  const r = el.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
});

/**
 * Records, in the page, every time a won trick is on show (#tl-trick-won): when it came and
 * went, and what the table showed when it came (the seats with cards, the marked winner).
 */
function watchTrickPauses(page) {
  return page.evaluate(() => {
    window.trickPauses = [];
    let open = null;
    const look = () => {
      const on = document.querySelector("#tl-trick-won");
      if (on && !open) {
        open = {
          from: performance.now(), to: null, text: on.textContent,
          seatsWithCards: [...document.querySelectorAll(".tl-seat")].filter((s) => s.querySelector(".cards.played .card")).length,
          winners: [...document.querySelectorAll(".tl-seat.winner")].map((s) => ({
            seat: s.dataset.seat, badge: s.querySelector(".badge.won")?.textContent ?? null, name: s.querySelector(".tl-name")?.textContent ?? "",
          })),
        };
        window.trickPauses.push(open);
      } else if (!on && open) {
        open.to = performance.now();
        open = null;
      }
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true });
  });
}

/** Plays with the server's suggestion whenever it is the person's turn, until `done()`. */
async function playUntil(page, done) {
  for (let i = 0; i < 3000; i++) {
    if (await done()) return;
    if (await page.locator("#btn-play:not([disabled])").count() === 0 && await page.locator("#btn-play").count() && await page.locator("#btn-hint").count()) {
      await page.click("#btn-hint").catch(() => {});
    }
    const play = page.locator("#btn-play:not([disabled])");
    if (await play.count()) await play.click({ timeout: 1000 }).catch(() => {});
    await sleep(40);
  }
  throw new Error(`still waiting: ${await describePage(page)}`);
}

for (const form of ["phone", "desktop"]) {
  test(`the Tuolaji table on a ${form}: a 45-card hand, every trick seen, leaving asked twice`, { timeout: 120000 }, async () => {
    const name = form === "phone" ? "吴" : "孙";
    const page = await seatedWithBots(form, name);
    await bidAndTakeTheBottom(page, name);
    await page.waitForFunction(() => document.querySelectorAll("#hand [data-index]").length === 45);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, T, `${form}-01-bottom-45-cards`);

    // Every card on screen, each takes its own tap, tens read "10".
    const before = await handGeometry(page);
    assert.equal(before.cards.length, 45);
    // The six cards taken from the bottom are marked in the hand, and said so.
    assert.equal(await page.locator("#hand [data-from-bottom]").count(), 6);
    assert.match(await page.getAttribute("#hand [data-from-bottom]", "aria-label"), /（底牌）$/);
    const off = before.cards.filter((c) => !c.inside).map((c) => c.card);
    assert.deepEqual(off, [], `cards outside the ${before.innerWidth}×${before.innerHeight} screen`);
    const covered = before.cards.filter((c) => !c.reachable).map((c) => c.card);
    assert.deepEqual(covered, [], "cards another card covers where a finger taps");
    const tens = before.cards.filter((c) => c.card.startsWith("T"));
    assert.ok(tens.length > 0, "the hand holds a ten");
    for (const ten of tens) {
      assert.equal(ten.rank, "10");
      assert.ok(ten.rankWhole, `the "10" of ${ten.card} is covered by the next card`);
    }
    if (form === "phone") assert.equal(before.scrollable, false, "the page is taller than the phone's screen");
    // Tap every card: each is selected, without the page scrolling.
    for (const c of before.cards) {
      const now = (await handGeometry(page)).cards.find((k) => k.index === c.index);
      if (form === "phone") await page.touchscreen.tap(now.x, now.y);
      else await page.mouse.click(now.x, now.y);
      await page.waitForSelector(`#hand [data-index="${c.index}"].selected`, { timeout: 3000 }).catch(async (err) => {
        await shot(page, T, `${form}-failed-tap-${c.index}`);
        const seen = await page.evaluate(({ x, y }) => {
          const el = document.elementFromPoint(x, y);
          return { scrollY, hit: el?.outerHTML.slice(0, 120) };
        }, now);
        throw new Error(`the tap at ${JSON.stringify(now)} selected nothing: ${JSON.stringify(seen)}\n${err.message}`);
      });
    }
    assert.equal(await page.locator("#hand .card.selected").count(), 45);
    assert.equal(await page.evaluate(() => scrollY), 0, "tapping the cards scrolled the page");
    await shot(page, T, `${form}-02-all-45-selected`);
    await page.click("#btn-clear");

    // 扣底 at the thumb (the lower half of a phone's screen), 离开 at the top, far from it.
    const putBack = await rect(page, "#btn-put-back");
    const leave = await rect(page, "#btn-leave");
    if (form === "phone") {
      assert.ok(putBack.top >= before.innerHeight / 2 && putBack.bottom <= before.innerHeight,
        `扣底 at ${putBack.top}–${putBack.bottom} of ${before.innerHeight}`);
      assert.ok(leave.bottom <= before.innerHeight / 3, `离开 at ${leave.top}`);
    }
    assert.ok(putBack.top - leave.bottom >= 150, `离开 ${leave.bottom} is near 扣底 ${putBack.top}`);

    // The bottom goes back as the server suggests; then tricks, each one seen.
    await watchTrickPauses(page);
    await page.click("#btn-hint");
    await page.click("#btn-put-back:not([disabled])");
    await playUntil(page, () => page.evaluate(() => window.trickPauses.filter((p) => p.to != null).length >= 3));
    const pauses = await page.evaluate(() => window.trickPauses);
    await shot(page, T, `${form}-03-after-three-tricks`);
    for (const p of pauses.filter((p) => p.to != null)) {
      assert.equal(p.seatsWithCards, 4, `the finished trick shows all four plays: ${JSON.stringify(p)}`);
      assert.equal(p.winners.length, 1, `one winner marked: ${JSON.stringify(p)}`);
      assert.equal(p.winners[0].badge, "赢墩");
      assert.match(p.text, /赢得这一墩/);
      // The server holds the next lead for the pause; the page shows the trick all along
      // (less the time two events take to reach it on a busy machine).
      assert.ok(p.to - p.from >= PAUSE_MS * 0.4, `on show for ${Math.round(p.to - p.from)} ms`);
    }
    // The next one on show, with its winner, as a player sees it.
    await playUntil(page, () => page.locator("#tl-trick-won").count());
    await shot(page, T, `${form}-04-trick-won`);

    // Leaving: the first click arms it and says so, the second leaves.
    await page.click("#btn-leave");
    assert.match(await page.textContent("#btn-leave"), /确定离开/);
    assert.equal(await page.isVisible("#table"), true);
    await shot(page, T, `${form}-05-leave-armed`);
    await page.click("#btn-leave");
    await page.waitForSelector("#lobby:not([hidden])");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

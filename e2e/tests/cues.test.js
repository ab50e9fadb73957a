// The check and low-time cues (zh-CN): when a person's turn begins in check the page gives
// the check cue instead of the turn cue, and when their own running clock falls below 20 s
// it gives the low-time cue once. Counted on <html data-check-cues / data-low-time-cues>
// (a headless browser plays no sound); web/cue.js.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, personPage, enterLobby, clickMove, waitMoves, shot } from "../harness.js";

const T = "cues";
const env = serverAndBrowser();
const count = (page, name) => page.evaluate((n) => Number(document.documentElement.dataset[n] ?? 0), name);

test("a turn that begins in check gives the check cue", async () => {
  const one = await personPage(env.browser, { lang: null, locale: "zh-CN" });
  const two = await personPage(env.browser, { lang: null, locale: "zh-CN" });
  await enterLobby(one, env.server.url, "甲");
  await one.click("#btn-quick-xiangqi");
  await one.waitForSelector("#table:not([hidden])");
  await enterLobby(two, env.server.url, "乙");
  await two.click("#btn-quick-xiangqi");
  await two.waitForSelector("#table:not([hidden])");
  // Quick play seats whoever came first as either side: the page's own clock is the
  // lower one.
  const sideOf = (page) => page.evaluate(() => [...document.querySelectorAll(".clock")].at(-1)?.dataset.side);
  await one.waitForFunction(() => [...document.querySelectorAll(".clock")].at(-1)?.dataset.side);
  const [red, black] = (await sideOf(one)) === "red" ? [one, two] : [two, one];
  await red.waitForFunction(() => document.documentElement.dataset.cues === "1");

  // 炮八进二 卒１进１ 炮八平七 卒１进１ 炮七进五: the cannon takes the elephant on c9 and
  // checks along the back rank over the advisor on d9 (4.1.1: the king attacked).
  let plies = 0;
  for (const [page, iccs] of [[red, "b2b4"], [black, "i6i5"], [red, "b4c4"], [black, "i5i4"], [red, "c4c9"]]) {
    await clickMove(page, iccs);
    plies += 1;
    await waitMoves(red, plies);
    await waitMoves(black, plies);
  }
  await black.waitForFunction(() => document.documentElement.dataset.checkCues === "1");
  // Black's first two turns gave the turn cue; the turn in check gave the check cue instead.
  assert.equal(await count(black, "cues"), 2);
  assert.equal(await count(red, "checkCues"), 0);
  await shot(black, T, "01-in-check");
  assert.deepEqual(red.errors, []);
  assert.deepEqual(black.errors, []);
  await one.context().close();
  await two.context().close();
});

test("the page's own clock falling below 20 s gives the low-time cue once", async () => {
  const page = await personPage(env.browser, { lang: null, locale: "zh-CN" });
  await enterLobby(page, env.server.url, "丙");
  // Sudden death of 21 s (the lobby offers longer clocks; the server takes any valid one).
  await page.evaluate(() => {
    const select = document.querySelector("#create-tc");
    select.append(new Option("21 s", "sd:21s"));
    select.value = "sd:21s";
  });
  await page.selectOption("#create-seat", "0");
  await page.check("#create-bots");
  await page.selectOption("#create-bot-strength", "beginner");
  await page.click("#btn-create");
  await page.waitForSelector("#table:not([hidden])");
  await page.waitForSelector('.clock[data-side="black"] .badge.bot:not([hidden])');
  await clickMove(page, "h2e2");
  await waitMoves(page, 2);
  // Red's clock runs again from about 21 s: below 20 s within about a second.
  await page.waitForFunction(() => document.documentElement.dataset.lowTimeCues === "1");
  await page.waitForSelector('.clock[data-side="red"].low');
  assert.equal(await count(page, "lowTimeCues"), 1);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

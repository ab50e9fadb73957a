// The turn cue (zh-CN, a desktop and a 390×844 phone): a tone each time it becomes the
// person's turn (counted on <html data-cues>: a headless browser plays no sound), switched
// off with the header's 提示音 button, and kept off over a reload.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, personPage, shot, clickMove, waitMoves, playTheXiangqiBot, playSomeMove } from "../harness.js";

const T = "turn_cue";
const env = serverAndBrowser();
const cues = (page) => page.evaluate(() => Number(document.documentElement.dataset.cues ?? 0));

for (const [form, opts] of [["desktop", {}], ["phone", { viewport: { width: 390, height: 844 }, isMobile: true }]]) {
  test(`a cue when it is your turn, and a switch to stop it (${form})`, async () => {
    const page = await personPage(env.browser, { lang: null, locale: "zh-CN", ...opts });
    await page.goto(env.server.url);
    await page.fill("#name-input", "吴");
    await page.click("#btn-name");
    await page.waitForSelector('#conn-state[data-state="online"]');
    assert.equal(await page.textContent("#sound"), "提示音：开");
    await playTheXiangqiBot(page);
    // Red moves first: the person's turn at once.
    await page.waitForFunction(() => document.documentElement.dataset.cues === "1");
    await clickMove(page, "h2e2");
    await waitMoves(page, 2);
    await page.waitForFunction(() => document.documentElement.dataset.cues === "2");

    // Off: the bot's answer gives no cue; the choice stays over a reload.
    await page.click("#sound");
    assert.equal(await page.textContent("#sound"), "提示音：关");
    assert.equal(await page.getAttribute("#sound", "aria-pressed"), "false");
    await shot(page, T, `${form}-01-sound-off`);
    await playSomeMove(page);
    await waitMoves(page, 4);
    assert.equal(await cues(page), 2);
    await page.reload();
    await page.waitForSelector("#table:not([hidden])");
    await waitMoves(page, 4);
    assert.equal(await page.textContent("#sound"), "提示音：关");
    assert.equal(await cues(page), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

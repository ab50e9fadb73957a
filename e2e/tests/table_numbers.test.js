// Short table numbers (zh-CN, a desktop and a 390×844 phone): tables are 第 N 桌, counted by
// the server from 1, at the table, in the lobby's list, in 我的对局 and in the replay; the
// room ids (up to 16 digits, random) stay on the wire and in addresses, never in what a
// person reads — checked on every screen, in the text and in the labels screen readers say.
// A restart on the same store goes on counting: no number is given twice.

import { test } from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, personPage, shot, playTheXiangqiBot } from "../harness.js";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const T = "table_numbers";

/** Fails when the page shows a run of 10 or more digits anywhere a person reads it. */
async function noLongNumbers(page, screen) {
  const seen = await page.evaluate(() => {
    const texts = [document.body.innerText];
    for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
      texts.push(el.getAttribute("aria-label") ?? "", el.getAttribute("title") ?? "", el.getAttribute("placeholder") ?? "");
    }
    return texts.join("\n");
  });
  const long = seen.match(/\d{10,}/g);
  assert.equal(long, null, `${screen}: a long number a person reads: ${long}`);
}

async function chinese(browser, url, name, opts = {}) {
  const page = await personPage(browser, { lang: null, locale: "zh-CN", ...opts });
  await page.goto(url);
  await page.fill("#name-input", name);
  await page.click("#btn-name");
  await page.waitForSelector('#conn-state[data-state="online"]');
  return page;
}

/** Opens a xiangqi table against the bot; returns the table's label. */
async function playTheBot(page) {
  await playTheXiangqiBot(page);
  return page.textContent(".room-label");
}

test("tables are 第 N 桌 on every page, and the count goes on after a restart", { timeout: 90000 }, async () => {
  const store = path.join(mkdtempSync(path.join(os.tmpdir(), "qipai-e2e-numbers-")), "qipai.db");
  let server = await startServer({ QIPAI_STORE__URL: store });
  const browser = await launch();
  try {
    const desk = await chinese(browser, server.url, "吴");
    await noLongNumbers(desk, "lobby");
    assert.match(await playTheBot(desk), /第 1 桌/);
    await shot(desk, T, "01-desktop-table-1");
    await noLongNumbers(desk, "xiangqi table");

    // A phone sees it in the lobby's list as 第 1 桌, and opens a Tuolaji table: 第 2 桌.
    const phone = await chinese(browser, server.url, "孙", { viewport: { width: 390, height: 844 }, isMobile: true });
    await phone.waitForSelector('.table-row strong:text("第 1 桌 · 象棋")');
    await shot(phone, T, "02-phone-lobby");
    await noLongNumbers(phone, "phone lobby");
    await phone.click("#tuolaji-play summary");
    await phone.check("#tl-bots");
    await phone.click("#btn-create-tuolaji");
    await phone.waitForSelector("#table:not([hidden])");
    await phone.waitForSelector('#tl-table-number:has-text("第 2 桌")');
    await shot(phone, T, "03-phone-tuolaji-table-2");
    await noLongNumbers(phone, "Tuolaji table");

    // The xiangqi game ends; 我的对局 and its replay name it 第 1 桌.
    await desk.click("#btn-resign");
    await desk.click("#btn-resign");
    await desk.waitForSelector("#result:not(.hidden)");
    await noLongNumbers(desk, "game over");
    await desk.click("#my-games");
    await desk.waitForSelector("#records:not([hidden]) .records-table");
    await noLongNumbers(desk, "my games");
    assert.match(await desk.getAttribute(".records-table [data-replay]", "aria-label"), /第 1 桌/);
    await desk.click(".records-table [data-replay]");
    await desk.waitForSelector("#replay");
    assert.match(await desk.textContent("#records-title"), /第 1 桌/);
    await shot(desk, T, "04-replay");
    await noLongNumbers(desk, "replay");
    assert.deepEqual(desk.errors, []);
    assert.deepEqual(phone.errors, []);
    await desk.context().close();
    await phone.context().close();

    // The same store after a restart: the next table is 第 3 桌 (2 is still open there).
    await server.stop();
    server = await startServer({ QIPAI_STORE__URL: store });
    const again = await chinese(browser, server.url, "李");
    assert.match(await playTheBot(again), /第 3 桌/);
    await noLongNumbers(again, "after a restart");
    assert.deepEqual(again.errors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

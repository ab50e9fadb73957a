// Two people play a short xiangqi game to checkmate through the page, a third watches:
// the lobby's table list, create and join, click-click and drag moves, the Chinese record,
// the clocks, the result banner, and no console error anywhere.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  serverAndBrowser, personPage, enterLobby, clickMove, dragMove, waitMoves, movesOf, shot,
} from "../harness.js";

const T = "xiangqi_mate";
const env = serverAndBrowser();

test("two pages play b2b4 a6a5 b4c4 f9e8 c4c9 to checkmate", async () => {
  const red = await personPage(env.browser);
  const black = await personPage(env.browser);
  const watcher = await personPage(env.browser, { viewport: { width: 390, height: 844 }, isMobile: true });

  await enterLobby(red, env.server.url, "Wu");
  await shot(red, T, "01-lobby");
  await red.selectOption("#create-tc", "5+3");
  await red.selectOption("#create-seat", "0");
  await red.click("#btn-create");
  await red.waitForSelector("#table:not([hidden])");
  await red.waitForSelector("text=Waiting for an opponent");
  await shot(red, T, "02-table-waiting");

  await enterLobby(black, env.server.url, "Li");
  const seat = black.locator("[data-join$=':1']").first();
  await seat.waitFor();
  await shot(black, T, "03-lobby-open-table");
  await seat.click();
  await black.waitForSelector("#table:not([hidden])");
  await red.waitForSelector("text=Your move.");
  await black.waitForSelector("text=Red to move");

  // Black's board is flipped: its own back rank at the bottom.
  const y = async (page, sq) => (await page.locator(`[data-sq="${sq}"]`).boundingBox()).y;
  assert.ok(await y(black, "e9") > await y(black, "e0"), "Black sees its side at the bottom");
  assert.ok(await y(red, "e0") > await y(red, "e9"), "Red sees its side at the bottom");

  await enterLobby(watcher, env.server.url, "Zhao");
  await watcher.locator("[data-watch]").first().waitFor();
  await shot(watcher, T, "03b-lobby-phone");
  await watcher.locator("[data-watch]").first().click();
  await watcher.waitForSelector("#table:not([hidden])");
  await watcher.waitForSelector("text=watching");

  await clickMove(red, "b2b4");
  await waitMoves(black, 1);
  await dragMove(black, "a6a5");
  await waitMoves(red, 2);
  await shot(red, T, "04-red-mid-game");
  await clickMove(red, "b4c4");
  await waitMoves(black, 3);
  // Both sides have moved: the clocks run; Black's falls on its own.
  const before = await black.textContent('.clock[data-side="black"] .time');
  await black.waitForFunction(
    (t) => document.querySelector('.clock[data-side="black"] .time').textContent !== t, before);
  await shot(black, T, "05-black-to-move");
  await clickMove(black, "f9e8");
  await waitMoves(red, 4);
  await clickMove(red, "c4c9");

  for (const page of [red, black, watcher]) {
    await page.waitForSelector("#result:not(.hidden)");
    assert.match(await page.textContent("#result"), /Red wins by checkmate/);
  }
  assert.match(await red.textContent("#result"), /You won!/);
  assert.match(await black.textContent("#result"), /You lost\./);
  assert.deepEqual(await movesOf(red), ["炮八进二", "卒１进１", "炮八平七", "士６进５", "炮七进五"]);
  assert.deepEqual(await movesOf(watcher), await movesOf(red));
  // The last move is marked, the mated king shown in check.
  assert.equal(await red.locator(".xq-last").count(), 2);
  assert.equal(await red.locator(".xq-piece.in-check").count(), 1);
  await shot(red, T, "06-red-won");
  await shot(black, T, "07-black-lost");
  await shot(watcher, T, "08-spectator-phone");

  await red.click("#btn-back");
  await red.waitForSelector("#lobby:not([hidden])");

  for (const page of [red, black, watcher]) assert.deepEqual(page.errors, []);
});

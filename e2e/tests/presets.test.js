// The competition's settings are one named preset (xiangqi.md "Competition
// settings"): quick play with it pairs two pages at a 30+10 table with the 40-move natural
// limit (checks not counted), and a third page sees the table listed by the preset's name.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, personPage, enterLobby, shot } from "../harness.js";

const T = "presets";
const env = serverAndBrowser();

test("quick play with the competition preset, listed by its name", async () => {
  const a = await personPage(env.browser);
  await enterLobby(a, env.server.url, "Zhao");
  await a.click("#btn-quick-xiangqi-competition");
  await a.waitForSelector("#table:not([hidden])");

  // A third page sees the waiting table under the preset's name, with the competition clock.
  const c = await personPage(env.browser);
  await enterLobby(c, env.server.url, "Qian");
  const row = c.locator(".table-row", { has: c.locator('[data-preset="competition"]') });
  await row.first().waitFor();
  assert.match(await row.first().textContent(), /比赛 Competition/);
  assert.match(await row.first().textContent(), /30\+10/);
  await shot(c, T, "01-lobby-lists-the-preset");

  // A second quick play with the same preset sits down at that table: the game starts.
  const b = await personPage(env.browser);
  await enterLobby(b, env.server.url, "Sun");
  await b.click("#btn-quick-xiangqi-competition");
  await b.waitForSelector("#table:not([hidden])");
  await a.waitForSelector("text=Your move.");
  await shot(a, T, "02-competition-game-started");
});

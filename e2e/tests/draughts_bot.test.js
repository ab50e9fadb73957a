// A person plays the server's draughts bot through the page: "Play the bot" (easy) from the
// lobby's draughts form, the bot's seat marked at the table and in the open tables list
// (shown as draughts), three moves each answered by the bot, then resignation. No console
// error anywhere, and no snapshot asked for: the events carry the game.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, personPage, enterLobby, waitMoves, shot } from "../harness.js";

const T = "draughts_bot";
const env = serverAndBrowser();

const movesOf = (page) =>
  page.$$eval("#moves .mv", (els) => els.map((e) => e.textContent).filter((t) => t && t !== "…"));

/**
 * Plays one legal White move by clicking, as a person would: a piece, then each target the
 * page offers until the move is sent. Pieces that must capture are tried first; a piece
 * with no target only moves the selection.
 */
async function playSomeMove(page) {
  const before = (await movesOf(page)).length;
  const must = await page.$$eval("[data-must]", (els) => els.map((e) => e.dataset.must));
  const own = await page.$$eval(".dr-piece.white[data-piece]", (els) => els.map((e) => e.dataset.piece));
  for (const from of [...must, ...own]) {
    await page.click(`[data-sq="${from}"]`);
    if (!await page.locator("[data-target]").count()) continue;
    const path = [from];
    // Follow the offered targets until the move goes out (the target layer empties).
    while (await page.locator("[data-target]").count()) {
      const to = await page.locator("[data-target]").first().getAttribute("data-target");
      path.push(to);
      await page.click(`[data-sq="${to}"]`);
    }
    // Sent: the record grows (the bot may already have answered too).
    await page.waitForFunction((n) => document.querySelectorAll("#moves .mv").length > 0 &&
      [...document.querySelectorAll("#moves .mv")].filter((s) => s.textContent && s.textContent !== "…").length > n, before);
    return path.join(" ");
  }
  throw new Error("no legal move offered");
}

test("a person plays the draughts bot a few moves, then resigns", async () => {
  const person = await personPage(env.browser);
  await enterLobby(person, env.server.url, "Wu");
  await person.click("#dr-create summary");
  await person.selectOption("#dr-create-tc", "5+3");
  await person.selectOption("#dr-create-seat", "0");
  await person.check("#dr-bots");
  await person.selectOption("#dr-bot-strength", "50");
  assert.equal(await person.textContent("#btn-create-draughts"), "Play the bot");
  await shot(person, T, "01-lobby-play-the-bot");
  await person.click("#btn-create-draughts");
  await person.waitForSelector("#table:not([hidden])");
  await person.waitForSelector("text=Your move.");
  await person.locator('.clock[data-side="black"] .badge.bot:not([hidden])').waitFor();
  assert.equal(await person.locator('.clock[data-side="white"] .badge.bot:not([hidden])').count(), 0);
  assert.equal(await person.locator(".dr-piece.white").count(), 20);
  assert.equal(await person.locator(".dr-piece.black").count(), 20);

  // Somebody in the lobby sees a draughts table with the bot marked.
  const other = await personPage(env.browser);
  await enterLobby(other, env.server.url, "Li");
  const row = other.locator(".table-row").first();
  await row.locator(".badge.bot").waitFor();
  assert.match(await row.textContent(), /国际跳棋/);
  assert.match(await row.textContent(), /bot: easy/);
  assert.equal(await row.locator("[data-take]").count(), 0, "a started game's bot seat cannot be taken");
  await shot(other, T, "02-lobby-table-with-bot");

  const played = [];
  for (let n = 1; n <= 3; n++) {
    played.push(await playSomeMove(person));
    // The bot answers each move.
    await waitMoves(person, 2 * n);
    await person.waitForSelector("#dr-status >> text=Your move");
  }
  await shot(person, T, "03-playing-the-bot");
  const record = await movesOf(person);
  assert.equal(record.length, 6);
  for (const m of record) assert.match(m, /^\d{1,2}([-x]\d{1,2})+$/, "numeric notation");
  console.log(`moves: ${played.join(", ")}; record: ${record.join(" ")}`);

  await person.click("#btn-resign");
  await person.click("#btn-resign");
  await person.waitForSelector("#result:not(.hidden)");
  assert.match(await person.textContent("#result"), /You lost\./);
  assert.match(await person.textContent("#result"), /Black wins by resignation/);
  await shot(person, T, "04-resigned");
  assert.equal(person.snapshotRequests, 0, "the page asked for a snapshot");

  for (const page of [person, other]) assert.deepEqual(page.errors, []);
});

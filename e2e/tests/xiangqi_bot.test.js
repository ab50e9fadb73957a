// A person plays the server's xiangqi bot through the page: "Play the bot" (easy) from the
// lobby's form, the bot's seat marked as a bot at the table and in the open tables list,
// three moves each answered by the bot, then resignation. No console error anywhere.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, personPage, enterLobby, waitMoves, movesOf, shot, playSomeMove } from "../harness.js";

const T = "xiangqi_bot";
const env = serverAndBrowser();

test("a person plays the bot a few moves, then resigns", async () => {
  const person = await personPage(env.browser);
  await enterLobby(person, env.server.url, "Wu");
  await person.selectOption("#create-tc", "5+3");
  await person.selectOption("#create-seat", "0");
  await person.check("#create-bots");
  await person.selectOption("#create-bot-strength", "beginner");
  assert.equal(await person.textContent("#btn-create"), "Play the bot");
  await shot(person, T, "01-lobby-play-the-bot");
  await person.click("#btn-create");
  await person.waitForSelector("#table:not([hidden])");
  // The bot sits down at once: the game starts, and Black's seat is marked as a bot's.
  await person.waitForSelector("text=Your move.");
  const blackBox = person.locator('.clock[data-side="black"]');
  await blackBox.locator(".badge.bot:not([hidden])").waitFor();
  assert.equal(await person.locator('.clock[data-side="red"] .badge.bot:not([hidden])').count(), 0);

  // Somebody in the lobby sees the table with the bot marked; a started xiangqi game's bot
  // seat cannot be taken.
  const other = await personPage(env.browser);
  await enterLobby(other, env.server.url, "Li");
  const row = other.locator(".table-row").first();
  await row.locator(".badge.bot").waitFor();
  assert.match(await row.textContent(), /bot: Beginner/);
  assert.equal(await row.locator("[data-take]").count(), 0);
  await shot(other, T, "02-lobby-table-with-bot");

  const played = [];
  for (let n = 1; n <= 3; n++) {
    played.push(await playSomeMove(person));
    // The bot answers each move.
    await waitMoves(person, 2 * n);
    await person.waitForSelector("text=Your move");
  }
  await shot(person, T, "03-playing-the-bot");
  assert.equal((await movesOf(person)).length, 6);
  console.log(`moves: ${played.join(" ")}; record: ${(await movesOf(person)).join(" ")}`);

  await person.click("#btn-resign");
  await person.click("#btn-resign");
  await person.waitForSelector("#result:not(.hidden)");
  assert.match(await person.textContent("#result"), /You lost\./);
  assert.match(await person.textContent("#result"), /resignation/);
  await shot(person, T, "04-resigned");
  // Events are enough: a whole game, from the start to the resignation, without
  // a single snapshot request.
  assert.equal(person.snapshotRequests, 0, "the page asked for a snapshot");

  for (const page of [person, other]) assert.deepEqual(page.errors, []);
});

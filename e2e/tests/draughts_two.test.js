// Two people play a short draughts game to a win through the page, a third watches: the
// lobby's draughts form with a start position, the table listed as draughts, a move the
// server refuses (a plain step when a capture is compulsory: its code and message shown,
// nothing changed), the pieces that must capture marked, a two-piece capture entered square
// by square, a drag, a capture that promotes and leaves Black without a move.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, personPage, enterLobby, waitMoves, shot } from "../harness.js";

const T = "draughts_two";
const env = serverAndBrowser();

/**
 * White to move: 32x23x14 takes 28 and 19 and is the only legal move (capturing is
 * compulsory, 6.1), so 37-31 is refused. Black's 5-10 is then forced, 14x5 takes Black's
 * last piece and crowns a king, and Black, with no piece left, loses.
 */
const START = "W:W32,37:B5,19,28";

/** The squares' pieces as the page draws them: "32:white" or "5:white:king". */
const piecesOf = (page) => page.$$eval(".dr-piece", (els) => els.map((e) =>
  `${e.dataset.piece}:${e.classList.contains("white") ? "white" : "black"}${e.classList.contains("king") ? ":king" : ""}`).sort());

const movesOf = (page) =>
  page.$$eval("#moves .mv", (els) => els.map((e) => e.textContent).filter((t) => t && t !== "…"));

/** Drags the piece on `from` to `to` with the mouse. */
async function drag(page, from, to) {
  const box = async (sq) => page.locator(`[data-sq="${sq}"]`).boundingBox();
  const a = await box(from);
  const b = await box(to);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

test("two pages play a draughts game to a win; a refused move changes nothing", async () => {
  const white = await personPage(env.browser);
  const black = await personPage(env.browser);
  const watcher = await personPage(env.browser, { viewport: { width: 390, height: 844 }, isMobile: true });

  await enterLobby(white, env.server.url, "Wu");
  await white.click("#dr-create summary");
  await white.selectOption("#dr-create-tc", "5+3");
  await white.selectOption("#dr-create-seat", "0");
  await white.fill("#dr-fen", START);
  await shot(white, T, "01-lobby-draughts-form");
  await white.click("#btn-create-draughts");
  await white.waitForSelector("#table:not([hidden])");
  await white.waitForSelector("text=Waiting for an opponent");
  assert.equal(await white.locator(".dr-board").count(), 1, "a draughts board, not a xiangqi one");

  await enterLobby(black, env.server.url, "Li");
  const row = black.locator(".table-row").first();
  await row.waitFor();
  // The list shows the table as draughts, with White and Black seats.
  assert.match(await row.textContent(), /国际跳棋/);
  assert.doesNotMatch(await row.textContent(), /象棋 |Red/);
  assert.match(await row.textContent(), /custom start/);
  await shot(black, T, "02-lobby-draughts-table");
  await row.locator("[data-join$=':1']").click();
  await black.waitForSelector("#table:not([hidden])");
  await white.waitForSelector("text=Your move — a capture is compulsory.");
  await black.waitForSelector("text=White to move.");

  // Each side sees its own men at the bottom: White's 32 below Black's 5 for White, and
  // the other way round for Black.
  const y = async (page, sq) => (await page.locator(`[data-sq="${sq}"]`).boundingBox()).y;
  assert.ok(await y(white, 32) > await y(white, 5), "White sees its side at the bottom");
  assert.ok(await y(black, 5) > await y(black, 32), "Black sees its side at the bottom");

  await enterLobby(watcher, env.server.url, "Zhao");
  await watcher.locator("[data-watch]").first().click();
  await watcher.waitForSelector("#table:not([hidden])");
  await watcher.waitForSelector("text=watching");

  // Only 32 may move, and it must capture: it is marked, 37 is not.
  assert.deepEqual(await white.$$eval("[data-must]", (els) => els.map((e) => e.dataset.must)), ["32"]);

  // A plain step when a capture is compulsory: sent, refused with its code, nothing changed.
  const before = await piecesOf(white);
  await white.click('[data-sq="37"]');
  await white.click('[data-sq="31"]');
  await white.waitForSelector('#dr-refusal[data-code="capture_required"]');
  // The refusal in the page's language from its code, not the server's sentence.
  assert.match(await white.textContent("#dr-refusal"), /Capturing is compulsory/);
  await white.locator(".toast").first().waitFor();
  await shot(white, T, "03-refused-capture-required");
  assert.deepEqual(await piecesOf(white), before);
  assert.deepEqual(await movesOf(white), []);
  assert.deepEqual(await movesOf(black), []);

  // The two-piece capture square by square: the piece, then the first landing square
  // (only one sequence is left then, so it is sent).
  await white.click('[data-sq="32"]');
  await white.waitForSelector('[data-target="23"]');
  await shot(white, T, "04-capture-selected");
  await white.click('[data-sq="23"]');
  await waitMoves(black, 1);
  assert.deepEqual(await movesOf(black), ["32x23x14"]);
  assert.equal(await white.locator("#dr-refusal:not([hidden])").count(), 0, "the refusal is gone");
  assert.deepEqual(await piecesOf(black), ["14:white", "37:white", "5:black"]);
  await black.waitForSelector("text=Your move.");
  await shot(black, T, "05-black-to-move");

  await drag(black, 5, 10);
  await waitMoves(white, 2);
  assert.deepEqual(await white.$$eval("[data-must]", (els) => els.map((e) => e.dataset.must)), ["14"]);
  await white.click('[data-sq="14"]');
  await white.click('[data-sq="5"]');

  for (const page of [white, black, watcher]) {
    await page.waitForSelector("#result:not(.hidden)");
    assert.match(await page.textContent("#result"), /White wins by no legal move/);
    assert.deepEqual(await movesOf(page), ["32x23x14", "5-10", "14x5"]);
  }
  assert.match(await white.textContent("#result"), /You won!/);
  assert.match(await black.textContent("#result"), /You lost\./);
  // The man that ended its move on the far row is a king.
  assert.deepEqual(await piecesOf(watcher), ["37:white", "5:white:king"]);
  assert.equal(await white.locator(".dr-last").count(), 2);
  await shot(white, T, "06-white-won");
  await shot(black, T, "07-black-lost");
  await shot(watcher, T, "08-spectator-phone");

  // Events were enough: nobody asked for a snapshot after joining.
  for (const page of [white, black, watcher]) assert.equal(page.snapshotRequests, 0);
  await white.click("#btn-back");
  await white.waitForSelector("#lobby:not([hidden])");
  for (const page of [white, black, watcher]) assert.deepEqual(page.errors, []);
});

// A xiangqi game played with the keyboard only: two people type their names,
// Tab to "Quick play" and press Enter; at the table they Tab to the board, move its cursor
// with the arrow keys, pick a piece and its target with Space/Enter and play the move with
// the confirm button (focused for them, Enter). No mouse click anywhere. The mate
// b2b4 a6a5 b4c4 f9e8 c4c9 ends it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, personPage, waitMoves, movesOf, shot } from "../harness.js";

const T = "i18n_keyboard";
const env = serverAndBrowser();
const FILES = "abcdefghi";

/** Presses Tab until the element matching `selector` has the focus (at most 40 times). */
async function tabTo(page, selector) {
  for (let i = 0; i < 40; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** The board cursor's point, from the cursor's live region ("b2: …"). */
async function cursorOf(page) {
  const text = await page.textContent("#xq-cursor");
  return /^([a-i]\d)/.exec(text)?.[1];
}

/**
 * Plays `iccs` from the keyboard: to the board, cursor to the piece, Space, to the target,
 * Space, Enter; returns what the confirm button said.
 */
async function keyMove(page, iccs, side) {
  await tabTo(page, "svg.xq-board");
  const goTo = async (sq) => {
    for (let guard = 0; guard < 30; guard++) {
      const at = await cursorOf(page);
      if (at === sq) return;
      const df = FILES.indexOf(sq[0]) - FILES.indexOf(at[0]);
      const dr = Number(sq[1]) - Number(at[1]);
      // Red sees rank 9 at the top and file a on the left; Black the other way round.
      const flip = side === "black" ? -1 : 1;
      let key;
      if (df) key = df * flip > 0 ? "ArrowRight" : "ArrowLeft";
      else key = dr * flip > 0 ? "ArrowUp" : "ArrowDown";
      await page.keyboard.press(key);
    }
    throw new Error(`the cursor did not reach ${sq}`);
  };
  await goTo(iccs.slice(0, 2));
  await page.keyboard.press("Space");
  await goTo(iccs.slice(2, 4));
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.activeElement?.id === "btn-confirm-move");
  const label = await page.textContent("#btn-confirm-move");
  await page.keyboard.press("Enter");
  return label;
}

async function enterByKeyboard(page, name) {
  await page.goto(env.server.url);
  await page.waitForFunction(() => document.activeElement?.id === "name-input");
  await page.keyboard.type(name);
  await page.keyboard.press("Enter");
  await page.waitForSelector("#lobby:not([hidden])");
  await page.waitForSelector('#conn-state[data-state="online"]');
}

test("a xiangqi game played with the keyboard only", async () => {
  const red = await personPage(env.browser);
  const black = await personPage(env.browser, { viewport: { width: 390, height: 844 }, isMobile: true });
  await enterByKeyboard(red, "Wu");
  await tabTo(red, "#btn-quick-xiangqi");
  await red.keyboard.press("Enter");
  await red.waitForSelector("#table:not([hidden])");
  await enterByKeyboard(black, "Li");
  await tabTo(black, "#btn-quick-xiangqi");
  await black.keyboard.press("Enter");
  await black.waitForSelector("#table:not([hidden])");
  // Quick play seats whoever came first as either side: find out who is Red.
  await red.waitForSelector("text=/Your move\\.|Red to move\\./");
  const first = /you play Red/.test(await red.textContent(".room-label")) ? [red, black] : [black, red];
  const [r, b] = first;

  const labels = [];
  labels.push(await keyMove(r, "b2b4", "red"));
  await waitMoves(b, 1);
  await shot(r, T, "01-keyboard-cursor");
  labels.push(await keyMove(b, "a6a5", "black"));
  await waitMoves(r, 2);
  labels.push(await keyMove(r, "b4c4", "red"));
  await waitMoves(b, 3);
  labels.push(await keyMove(b, "f9e8", "black"));
  await waitMoves(r, 4);
  // Escape drops a half-made move; the move is then made again.
  await tabTo(r, "svg.xq-board");
  await r.keyboard.press("Space");
  await r.keyboard.press("Escape");
  assert.equal(await r.locator("#btn-confirm-move").count(), 0);
  labels.push(await keyMove(r, "c4c9", "red"));
  for (const page of [r, b]) {
    await page.waitForSelector("#result:not(.hidden)");
    assert.match(await page.textContent("#result"), /Red wins by checkmate/);
  }
  await waitMoves(b, 5);
  // The confirm button named each move in Chinese notation as the server then recorded it
  // ("Play 炮八进二 (b2–b4)").
  const played = await movesOf(r);
  assert.equal(played.length, 5);
  labels.forEach((label, i) => assert.ok(label.includes(`${played[i]} (`), `${label} / ${played[i]}`));
  await shot(r, T, "02-keyboard-mate");
  await shot(b, T, "03-keyboard-mate-phone");
  // The way back to the lobby is a button the keyboard reaches too.
  await tabTo(r, "#btn-back");
  await r.keyboard.press("Enter");
  await r.waitForSelector("#lobby:not([hidden])");
  assert.deepEqual(r.errors, []);
  assert.deepEqual(b.errors, []);
});

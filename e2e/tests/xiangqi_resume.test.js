// A page reloaded in the middle of a game comes back to its seat with the resume token in
// localStorage: same board, same record, and it can go on moving; the opponent sees it away
// and back. Quick play pairs the two pages.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  serverAndBrowser, personPage, enterLobby, clickMove, waitMoves, movesOf, shot,
} from "../harness.js";

const T = "xiangqi_resume";
const env = serverAndBrowser();

test("a page reloaded mid-game resumes its seat", async () => {
  const a = await personPage(env.browser);
  const b = await personPage(env.browser);
  for (const [page, name] of [[a, "Wu"], [b, "Li"]]) {
    await enterLobby(page, env.server.url, name);
    await page.selectOption("#quick-tc", "10+5");
    await page.click("#btn-quick-xiangqi");
    await page.waitForSelector("#table:not([hidden])");
  }
  // The first to ask opened the table and sits at seat 0, Red.
  await a.waitForSelector("text=Your move.");
  await clickMove(a, "h2e2");
  await waitMoves(b, 1);
  await clickMove(b, "h9g7");
  await waitMoves(a, 2);

  await a.reload();
  await a.waitForSelector("#table:not([hidden])");
  await waitMoves(a, 2);
  await a.waitForSelector("text=Your move.");
  assert.deepEqual(await movesOf(a), ["炮二平五", "马８进７"]);
  assert.match(await a.textContent(".room-label"), /you play Red/);
  // The opponent saw the seat come back connected.
  await b.waitForSelector('.clock[data-side="red"] .dot.on');
  await shot(a, T, "01-after-reload");

  await clickMove(a, "h0g2");
  await waitMoves(b, 3);
  await shot(b, T, "02-opponent-sees-move");

  // A draw offer reaches the opponent, who declines it.
  await b.click("#btn-offer-draw");
  await a.waitForSelector("text=Black offers a draw.");
  await shot(a, T, "03-draw-offered");
  await a.click("#btn-decline-draw");
  await b.waitForSelector("#btn-offer-draw");
  // Each page hears of the decline in its own time: the decliner's offer buttons go too.
  await a.waitForSelector("#btn-accept-draw", { state: "detached" });
  assert.equal(await a.locator("#btn-accept-draw").count(), 0);
  // A second offer so soon is refused, and the page says why in words.
  await b.click("#btn-offer-draw");
  await b.waitForSelector(".toast >> text=/offer a draw once every 10/");

  // Resigning needs a second click to confirm.
  await b.click("#btn-resign");
  await b.click("#btn-resign");
  await a.waitForSelector("text=Red wins by resignation");
  await shot(a, T, "04-result");

  for (const page of [a, b]) assert.deepEqual(page.errors, []);
});

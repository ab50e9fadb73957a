// The connection state is visible and recovers by itself: when the server goes away the page
// says it is offline and keeps trying; when a server is back on the same address the page
// reconnects (the old resume token is refused after a restart, so it starts a new session)
// and the lobby works again.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, startServer, personPage, enterLobby, shot } from "../harness.js";

const T = "connection";
const env = serverAndBrowser();

test("the page shows it is offline and reconnects when the server is back", async () => {
  const page = await personPage(env.browser);
  await enterLobby(page, env.server.url, "Wu");
  const port = env.server.port;

  await env.server.stop();
  await page.waitForSelector('#conn-state[data-state="offline"]');
  await page.waitForSelector("#offline:not([hidden])");
  assert.match(await page.textContent("#offline"), /connection to the server is lost/);
  await shot(page, T, "01-offline");

  env.server = await startServer({}, port);
  await page.waitForSelector('#conn-state[data-state="online"]', { timeout: 20000 });
  assert.equal(await page.isHidden("#offline"), true);
  await page.click("#btn-quick-xiangqi");
  await page.waitForSelector("#table:not([hidden])");
  await page.waitForSelector("text=Waiting for an opponent");
  await shot(page, T, "02-back-online");

  // While the server was down Chromium itself logs each refused WebSocket; nothing else.
  const unexpected = page.errors.filter((e) => !/WebSocket connection to .* failed/.test(e));
  assert.deepEqual(unexpected, []);
});

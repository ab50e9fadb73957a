// The page's weight on a first visit (zh-CN, a desktop and a 390×844 phone): every file the
// first screen needs, as the network carries it (gzip), at most half of what it was before
// compression and one catalogue per language: 38 requests, 328,378 bytes (measured on the
// page before, with the response sizes below, for both languages; about 93 KB now). Only the language in use
// is loaded; the other comes when the person switches. A second visit revalidates: every
// script and style answers 304 with no body.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, personPage, shot, enterLobby } from "../harness.js";

const T = "page_weight";
const BEFORE_BYTES = 328378;
const env = serverAndBrowser();

/** Opens the page and returns what the network carried: [{ url, status, bytes }]. */
async function visit(page, url) {
  const responses = [];
  page.on("response", (r) => responses.push(r));
  await page.goto(url, { waitUntil: "networkidle" });
  await page.waitForSelector("#name-screen:not([hidden])");
  const out = [];
  for (const r of responses) {
    const sizes = await r.request().sizes();
    out.push({ url: new URL(r.url()).pathname, status: r.status(), bytes: sizes.responseBodySize, encoding: r.headers()["content-encoding"] ?? null });
  }
  page.removeAllListeners("response");
  return out;
}

for (const [form, opts] of [["desktop", {}], ["phone", { viewport: { width: 390, height: 844 }, isMobile: true }]]) {
  test(`a first visit on a ${form} weighs at most half of before, with one catalogue`, async () => {
    const page = await personPage(env.browser, { lang: null, locale: "zh-CN", ...opts });
    const first = await visit(page, env.server.url);
    const bytes = first.reduce((sum, r) => sum + r.bytes, 0);
    console.log(`${form}: ${first.length} requests, ${bytes} bytes (before: 38 requests, ${BEFORE_BYTES} bytes)`);
    assert.ok(bytes * 2 <= BEFORE_BYTES, `${bytes} bytes on the first visit`);
    const urls = first.map((r) => r.url);
    assert.ok(urls.includes("/i18n/zh-CN.js"));
    assert.ok(!urls.includes("/i18n/en.js"), "the English catalogue loaded on a Chinese page");
    // Every script, style and the page itself gzipped, but for the few files too small to
    // gain from it (the server keeps the smaller copy).
    for (const r of first.filter((r) => /\.(js|mjs|css|html)$|\/$/.test(r.url) && r.bytes > 1000)) {
      assert.equal(r.encoding, "gzip", `${r.url} not compressed`);
    }
    assert.equal(await page.textContent("#btn-name"), "进入大厅");
    await shot(page, T, `${form}-01-first-visit`);

    // The switch loads English then, and the page reads English without a reload.
    const loaded = page.waitForResponse((r) => r.url().endsWith("/i18n/en.js"));
    await page.selectOption("#lang", "en");
    await loaded;
    await page.waitForSelector("html[lang=en]");
    assert.equal(await page.textContent("#btn-name"), "Enter the lobby");
    await page.selectOption("#lang", "zh-CN");

    // A second visit: the scripts and styles are revalidated, 304 with no body. (The
    // document and the favicon the browser may fetch whole on a navigation.)
    const second = await visit(page, env.server.url);
    const files = second.filter((r) => /\.(js|mjs|css)$/.test(r.url));
    assert.ok(files.length > 0);
    for (const r of files) assert.equal(r.status, 304, `${r.url} answered ${r.status}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test("the lobby on a 1366×768 screen shows every game's quick start without scrolling", async () => {
  const page = await personPage(env.browser, { lang: null, locale: "zh-CN", viewport: { width: 1366, height: 768 } });
  await enterLobby(page, env.server.url, "吴");
  for (const id of ["btn-quick-xiangqi", "btn-quick-tuolaji", "btn-quick-draughts"]) {
    const box = await page.locator(`#${id}`).boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= 768, `#${id} at ${JSON.stringify(box)}`);
  }
  await shot(page, T, "lobby-1366x768");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
